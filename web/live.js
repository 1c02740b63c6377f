/*
 * live.js -- the live page's data, kept current (docs/web.md): the event
 * (/api/event) and the round on screen, chosen by the selector, the URL or
 * a new round's publication and kept in the URL; the round's games read
 * from games.json and kept up to date by the stream's events; the event
 * stream itself (/api/events), its dot and its reconnection. Each change
 * is drawn by the views (and the staff's desk and console, through
 * session.js).
 */
import { S, $, el, t, reasonText, roundName, getJSON, resultText } from './core.js';
import { sideToMove, localTime, takeClock, runningClock, renderBoards, updateCard, renderViewer, renderPairings,
  refreshPairings, refreshStandings, banner, verdictBanner } from './views.js';
import { showDesk, showConsole } from './session.js';

/* The limits: a `players` event is acted on after PLAYERS_QUIET_MS
 * without another, plus up to PLAYERS_SPREAD_MS at random; a gap in the
 * plies reads the round again after RESYNC_MS (several gaps, one read); a
 * stream the server refused is asked for again after RECONNECT_MS. */
const PLAYERS_QUIET_MS = 1000, PLAYERS_SPREAD_MS = 2000, RESYNC_MS = 50, RECONNECT_MS = 3000;
/* The first read waits for the stream at most FIRST_OPEN_MS (a page whose
 * stream is refused still shows the event). */
const FIRST_OPEN_MS = 2000;
// a delayed broadcast: a signed-in arbiter's or organiser's page reads the
// round this often, with the token (the stream it follows is the viewers')
const STAFF_READ_MS = 2000;
let staffReads = null;

/* ---- the round's games: read from games.json, then kept up to date by the
 * stream's events (a move, a verdict, a result, a game, a snapshot). The
 * events that arrive while the state is being read wait and are applied to
 * it once it is in (one that it already holds is skipped): nothing is read
 * twice, nothing is lost; a gap in the plies makes it read the round again
 * ---- */

let fetching = 1;         // reads under way: the page's first read of the event, then of games.json
let pending = [];         // [handler, event] that arrived meanwhile
let resyncTimer = 0;

function normalise(g) {
  if (g.verdict) g.lastVerdict = g.verdict; // the server keeps the last ruling
  g.clockAt = localTime(g.clock_at);
  g.moves = g.moves || [];
  g.rulings = g.rulings || [];
  g.seen = g.seen || 0;
  g.wxf = g.wxf || [];
  g.zh = g.zh || [];
  return g;
}

function setGames(list) {
  S.games = new Map();
  for (const g of list) S.games.set(g.table, normalise(g));
  renderBoards();
  showDesk();
  if (S.view === 'game') renderViewer();
}

function gameChanged(g) {
  updateCard(g);
  if (S.view === 'game' && S.game === g.table) renderViewer();
  showDesk();
}

/* Read round r's state into S.games (if r is still on screen), then apply
 * the events that waited for it. */
async function loadGames(r) {
  fetching++;
  try {
    const data = await getJSON(`/api/rounds/${r}/games.json`);
    if (S.round === r) setGames(data.games);
  } catch (e) { console.warn(e.message); }
  settle();
}

/* One read is in: once none is under way, the events that waited are
 * applied. */
function settle() {
  if (--fetching) return;
  const waiting = pending;
  pending = [];
  for (const [fn, d] of waiting) fn(d);
}

/* The page's first read of the event is in (app.js): the events the stream
 * brought while it was under way are applied to it. */
export function firstReadDone() {
  settle();
}

/* Read the round on screen again, soon (several calls, one read). */
export function resync() {
  clearTimeout(resyncTimer);
  resyncTimer = setTimeout(() => loadGames(S.round), RESYNC_MS);
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
  // every ruling is listed on the desk, as the server lists them (not a
  // move refused while play waits, nor one after the end)
  if (v.verdict !== 'accepted' && v.reason !== 'game_over' && v.reason !== 'awaiting_arbiter') g.rulings.push(v);
  verdictBanner(g.table, v);
}

/* The arbiters marked a game's first N rulings seen (any arbiter's desk). */
function onSeen(d) {
  const g = S.games.get(d.table);
  if (!g || d.round !== S.round) return;
  g.seen = d.seen;
  showDesk();
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
  // '*': the arbiter took the result back, the game is in play again
  // a game's end: one banner with the ruling's sentence that ended it
  const said = t('result_banner', { t: d.table, res: resultText(d.result) }) + reasonText(d.reason);
  if (d.result === '*') banner('result', d.table, t('result_banner', { t: d.table, res: t('in_play') }));
  else banner('result', d.table, said, { result: said });
  gameChanged(g);
  refreshPairings().then(showDesk); // a team round: the match's score follows
  refreshStandings(200);
}

function onGame(d) {
  if (d.round !== S.round) return;
  S.games.set(d.table, normalise(d));
  gameChanged(d);
}

/* The stream's events about games, by type (connect() below). */
export const GAME_EVENTS = {
  snapshot: d => { if (d.round === S.round) setGames(d.games); },
  move: onMove,
  verdict: onVerdict,
  result: onResult,
  game: onGame,
  seen: onSeen,
};

/* ---- the event and the round on screen: the round selector of every
 * published round, the round kept in the URL and the tabs' links; a
 * `pairing` or `players` event reads them again ---- */

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
  if (S.view === 'console') showConsole(); // its round's buttons
  $('#round-pgn').href = `/api/rounds/${r}.pgn`;
  S.games = new Map();
  renderBoards();
  await Promise.all([refreshPairings(), loadGames(r)]);
  if (S.teams) showDesk(); // each game's match
}

/* The notice of a delayed broadcast (serve --delay: the server shows this
 * page everything `sec` seconds late), hidden without one. */
export function showDelay(sec) {
  const note = $('#delay-note');
  note.hidden = !(sec > 0);
  if (!(sec > 0)) return;
  const span = sec % 60 ? t('delay_sec', { n: sec }) : t('delay_min', { n: sec / 60 });
  note.textContent = t('delay_note', { t: span });
  note.dataset.delay = String(sec);
  // the staff see the games at once: their page reads them with the token
  // (moves the stream brings later are known by then and skipped)
  if (!staffReads) staffReads = setInterval(() => {
    if (S.event && S.event.delay > 0 && S.round && S.token && (S.role === 'admin' || S.role === 'arbiter'))
      loadGames(S.round);
  }, STAFF_READ_MS);
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
  $('#event-info').textContent = [S.event.dates, S.event.venue].filter(Boolean).join(' · ');
  document.title = (S.event.name || 'xqref') + ' · xqref';
  showDelay(S.event.delay || 0);
  const sel = $('#round');
  sel.replaceChildren(...S.event.published.map(r => el('option', { value: r, text: roundName(r) })));
  const last = S.event.published[S.event.published.length - 1] || 0;
  // a link to a round (a game of it, a view of it) opens that round
  const linked = hashRound();
  const want = !newest && linked && S.event.published.includes(linked) ? linked : last;
  if (want && (newest || !S.round)) await setRound(want);
  if (!want) {
    S.round = 0; // none published (round 1 withdrawn)
    S.games = new Map();
    renderBoards();
    renderPairings();
    if (S.view === 'console') showConsole();
  }
  refreshStandings();
}

/* The stream's events about the event, by type (connect() below): a new round
 * published is shown; a name, a number or who plays changed: the lists
 * and the cards follow, once the changes stop (an import is a change a
 * line) and spread over a few seconds, so that a thousand pages do not
 * ask at the same moment. */
export const EVENT_EVENTS = {
  pairing: () => loadEvent(true),
  unpair: () => loadEvent(true), // a round withdrawn: the round selector drops it
  // a team operation (a match forfeited, a team added, a round paired): the matches and standings again
  team: () => { if (S.event && S.event.team && S.round) { refreshPairings().then(showDesk); refreshStandings(200); } },
  players: () => {
    clearTimeout(playersTimer);
    playersTimer = setTimeout(async () => {
      await loadEvent(false);
      if (S.round) await setRound(S.round);
      if (S.view === 'console') showConsole();
    }, PLAYERS_QUIET_MS + Math.random() * PLAYERS_SPREAD_MS);
  },
};

/* ---- the event stream: one EventSource for every round, each event handed
 * to the handler of its type; through an edge (docs/scale.md) a `batch`
 * message split into its events; the dot green while connected, a loss said
 * in words; the browser reconnects by itself (Last-Event-ID), a stream the
 * server refused is asked for again every 3 s ---- */

let es = null;

/* Follow the stream: handlers[TYPE](data) for each event of TYPE (others
 * are dropped), onBack() when it is connected again after a loss. One
 * stream for every round: a new round's `pairing` event is about that
 * round, and a stream filtered to the round on screen would not see it;
 * the handlers drop the events of other rounds. Resolves once the stream
 * is open (the server has it subscribed), has failed, or FIRST_OPEN_MS
 * passed: the page reads the event after that, so that a change made
 * between its read and its subscription is never missed. */
export function connect(handlers, onBack) {
  if (es) es.close();
  const me = new EventSource('/api/events');
  es = me;
  let opened;
  const first = new Promise(resolve => { opened = resolve; setTimeout(resolve, FIRST_OPEN_MS); });
  const status = $('#status');
  const show = state => {
    status.dataset.state = state;
    status.title = t(state === 'live' ? 'connected' : 'disconnected');
    status.textContent = state === 'down' ? t('disconnected') : '';
  };
  me.onopen = () => {
    opened();
    const was = status.dataset.state;
    show('live');
    if (was === 'down') onBack(); // what happened meanwhile
  };
  me.onerror = () => {
    opened();
    show('down');
    // the browser tries again by itself unless the stream was refused
    if (me.readyState === EventSource.CLOSED) setTimeout(() => { if (es === me) connect(handlers, onBack); }, RECONNECT_MS);
  };
  const byType = new Map(Object.entries(handlers));
  const dispatch = (type, data) => {
    const fn = byType.get(type);
    if (!fn) return;
    let d;
    try { d = JSON.parse(data); } catch (err) { console.warn('bad event', data); return; }
    fn(d);
  };
  /* Through an edge events that came together arrive as one `batch`: a
   * line each, "TYPE DATA". */
  me.addEventListener('batch', e => {
    for (const line of e.data.split('\n')) {
      const sp = line.indexOf(' ');
      if (sp > 0) dispatch(line.slice(0, sp), line.slice(sp + 1));
    }
  });
  for (const type of byType.keys()) me.addEventListener(type, e => dispatch(type, e.data));
  return first;
}
