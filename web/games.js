/*
 * games.js -- the round on screen's games (docs/web.md): read from
 * games.json, then kept up to date by the stream's events (a move, a
 * verdict, a result, a game, a snapshot), each redrawing the card, the
 * viewer and the desk. The events that arrive while the state is being
 * read wait and are applied to it once it is in (one that it already
 * holds is skipped): nothing is read twice, nothing is lost; a gap in the
 * plies makes it read the round again.
 */
import { S } from './state.js';
import { t, reasonText } from './words.js';
import { getJSON } from './api.js';
import { sideToMove } from './position.js';
import { localTime, takeClock, runningClock } from './clock.js';
import { resultText } from './format.js';
import { renderBoards, updateCard } from './cards.js';
import { renderViewer } from './viewer.js';
import { renderArbiter } from './arbiter.js';
import { banner, verdictBanner } from './banners.js';
import { refreshPairings } from './pairings.js';
import { refreshStandings } from './standings.js';

let fetching = 0;         // reads of games.json under way
let pending = [];         // [handler, event] that arrived meanwhile
let resyncTimer = 0;

function normalise(g) {
  if (g.verdict) g.lastVerdict = g.verdict; // the server keeps the last ruling
  g.clockAt = localTime(g.clock_at);
  g.moves = g.moves || [];
  g.wxf = g.wxf || [];
  g.zh = g.zh || [];
  return g;
}

function setGames(list) {
  S.games = new Map();
  for (const g of list) S.games.set(g.table, normalise(g));
  renderBoards();
  renderArbiter();
  if (S.view === 'game') renderViewer();
}

function gameChanged(g) {
  updateCard(g);
  if (S.view === 'game' && S.game === g.table) renderViewer();
  renderArbiter();
}

/* Read round r's state into S.games (if r is still on screen), then apply
 * the events that waited for it. */
export async function loadGames(r) {
  fetching++;
  try {
    const data = await getJSON(`/api/rounds/${r}/games.json`);
    if (S.round === r) setGames(data.games);
  } catch (e) { console.warn(e.message); }
  if (--fetching) return;
  const waiting = pending;
  pending = [];
  for (const [fn, d] of waiting) fn(d);
}

/* Read the round on screen again, soon (several calls, one read). */
export function resync() {
  clearTimeout(resyncTimer);
  resyncTimer = setTimeout(() => loadGames(S.round), 50);
}

/* Event handler fn, made to wait while a round's state is being read. */
export function whenRead(fn) {
  return d => {
    if (fetching) pending.push([fn, d]); // applied once the state being read is in
    else fn(d);
  };
}

function onMove(d) {
  const g = S.games.get(d.table);
  if (!g || d.round !== S.round) return;
  if (d.ply <= g.moves.length && g.moves[d.ply - 1] === d.move) return; // the state has it already
  if (d.ply !== g.moves.length + 1) {
    // a gap (a missed event, a correction): take the round's state again
    resync();
    return;
  }
  g.moves.push(d.move);
  g.wxf.push(d.wxf);
  g.zh.push(d.zh);
  g.fen = d.fen;
  g.ply = d.ply;
  takeClock(g, d);
  if (d.result) g.result = d.result;
  if (d.ruling) applyVerdict(g, d.ruling);
  gameChanged(g);
}

function applyVerdict(g, v) {
  if (v.fouls) g.fouls = [v.fouls.red, v.fouls.black];
  g.needs_arbiter = v.result === 'needs_arbiter' || undefined;
  if (v.verdict === 'must_change') g.must_change = v.side;
  else if (v.result !== 'ongoing' && v.result !== 'must_change') delete g.must_change;
  if (v.event === 'pause') g.paused = true;
  if (v.event === 'resume') delete g.paused;
  g.lastVerdict = v;
  verdictBanner(g.table, v);
}

function onVerdict(d) {
  const g = S.games.get(d.table);
  if (!g || d.round !== S.round) return;
  if (d.event === 'pause' && g.clock && g.clockAt) {
    // the server keeps the boards' readings: what ran until now stays
    const side = sideToMove(g) === 'black' ? 1 : 0;
    g.clock = [...g.clock];
    g.clock[side] = runningClock(g, side);
    g.clockAt = Date.now();
    applyVerdict(g, d);
  } else {
    applyVerdict(g, d);
    if (d.event === 'resume') g.clockAt = g.clock ? Date.now() : null;
    else takeClock(g, d); // a penalty: the verdict carries the clocks
  }
  gameChanged(g);
}

function onResult(d) {
  const g = S.games.get(d.table);
  if (!g || d.round !== S.round) return;
  g.result = d.result === '=' ? '1/2-1/2' : d.result; // the log's code of a draw, as games.json says it
  if (d.reason) g.reason = d.reason;
  delete g.needs_arbiter;
  banner('result', d.table, t('result_banner', { t: d.table, res: resultText(d.result) }) + reasonText(d.reason));
  gameChanged(g);
  refreshPairings();
  refreshStandings(200);
}

function onGame(d) {
  if (d.round !== S.round) return;
  S.games.set(d.table, normalise(d));
  gameChanged(d);
}

/* The stream's events about games, by type (stream.js). */
export const GAME_EVENTS = {
  snapshot: d => { if (d.round === S.round) setGames(d.games); },
  move: onMove,
  verdict: onVerdict,
  result: onResult,
  game: onGame,
};
