/*
 * rounds.js -- the event and the round on screen (docs/web.md): the event
 * read from /api/event (its name, the round selector of every published
 * round), the round chosen by the selector, the URL or a new round's
 * publication, kept in the URL and the tabs' links; a `pairing` or
 * `players` event reads them again.
 */
import { S } from './state.js';
import { roundName } from './words.js';
import { $, el } from './dom.js';
import { getJSON } from './api.js';
import { renderBoards } from './cards.js';
import { renderPairings, refreshPairings } from './pairings.js';
import { refreshStandings } from './standings.js';
import { loadGames } from './games.js';
import { renderConsole } from './console.js';

/* A players event is acted on after this long without another, plus up to
 * the spread at random. */
const PLAYERS_QUIET_MS = 1000, PLAYERS_SPREAD_MS = 2000;

let playersTimer = 0;

/* The hash: #VIEW/ROUND (live, pairings, standings, arbiter, console) or
 * #game/ROUND/TABLE; the round of the hash, or 0. */
export function hashRound() {
  const m = /^#(?:live|pairings|standings|arbiter|console|game)\/(\d+)/.exec(location.hash);
  return m ? +m[1] : 0;
}

/* The tabs and the hash name the round shown (a reload keeps it). */
export function roundInUrl() {
  if (!S.round) return;
  for (const a of document.querySelectorAll('#tabs a')) a.href = `#${a.dataset.view}/${S.round}`;
  const h = location.hash.replace(/^#/, '') || 'live';
  const view = h.split('/')[0];
  if (view !== 'game' && S.round && hashRound() !== S.round)
    history.replaceState(null, '', `#${['pairings', 'standings', 'arbiter', 'console'].includes(view) ? view : 'live'}/${S.round}`);
}

/* Show round r: its pairings and games read, the views that name a round
 * drawn again. */
export async function setRound(r) {
  S.round = r;
  $('#round').value = String(r);
  roundInUrl();
  if (S.view === 'standings') refreshStandings();
  if (S.view === 'console') renderConsole(); // its round's buttons
  $('#round-pgn').href = `/api/rounds/${r}.pgn`;
  S.games = new Map();
  renderBoards();
  await Promise.all([refreshPairings(), loadGames(r)]);
}

/* Read the event: its name and published rounds; then the round linked
 * by the URL (on a first load) or the newest (`newest`, or none shown yet). */
export async function loadEvent(newest) {
  try {
    S.event = await getJSON('/api/event');
  } catch (e) {
    console.warn(e.message);
    return;
  }
  $('#event-name').textContent = S.event.name || 'xqref';
  document.title = (S.event.name || 'xqref') + ' · xqref';
  const sel = $('#round');
  sel.replaceChildren(...S.event.published.map(r => el('option', { value: r, text: roundName(r) })));
  const last = S.event.published[S.event.published.length - 1] || 0;
  // a link to a round (a game of it, a view of it) opens that round
  const linked = hashRound();
  const want = !newest && linked && S.event.published.includes(linked) ? linked : last;
  if (want && (newest || !S.round)) await setRound(want);
  if (!want) { renderBoards(); renderPairings(); }
  refreshStandings();
}

/* The stream's events about the event, by type (stream.js): a new round
 * published is shown; a name, a number or who plays changed: the lists
 * and the cards follow, once the changes stop (an import is a change a
 * line) and spread over a few seconds, so that a thousand pages do not
 * ask at the same moment. */
export const EVENT_EVENTS = {
  pairing: () => loadEvent(true),
  players: () => {
    clearTimeout(playersTimer);
    playersTimer = setTimeout(async () => {
      await loadEvent(false);
      if (S.round) await setRound(S.round);
      if (S.view === 'console') renderConsole();
    }, PLAYERS_QUIET_MS + Math.random() * PLAYERS_SPREAD_MS);
  },
};
