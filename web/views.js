/*
 * views.js -- what a viewer sees (docs/web.md): the live boards (#live)
 * and their filter, the game viewer (#game/ROUND/TABLE), the pairings
 * (#pairings) with the knockout bracket, the standings (#standings) with
 * the final places, and the banners of verdicts and results; with what
 * they draw with: a position from its FEN and moves, a board as SVG, the
 * running clocks.
 */
import { S, noRound, $, el, t, tbName, reasonText, roundName, getJSON, moveText, resultText, gameFlags, gameLabel, addWords } from './core.js';

/* The limits: the running clocks are redrawn every CLOCK_TICK_MS; six
 * banners at most, each for BANNER_MS; on a phone two, one line each, for
 * PHONE_BANNER_MS: the boards stay in sight. */
export const CLOCK_TICK_MS = 500;
const BANNERS_MAX = 6, BANNER_MS = 60000, PHONE_BANNERS_MAX = 2, PHONE_BANNER_MS = 20000;

/* ---- a game's position from its FEN and ICCS moves ---- */

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/* board[rank][file], rank 0 = Red's back rank (ICCS numbering). */
function parseFen(fen) {
  const rows = (fen || START).split(' ')[0].split('/');
  const b = [];
  for (let i = 0; i < 10; i++) {
    const rank = 9 - i, row = [];
    for (const ch of rows[i] || '9') {
      if (ch >= '1' && ch <= '9') for (let k = 0; k < +ch; k++) row.push(null);
      else row.push(ch);
    }
    b[rank] = row.slice(0, 9);
    while (b[rank].length < 9) b[rank].push(null);
  }
  return b;
}

function sq(text) {
  return { f: text.charCodeAt(0) - 97, r: text.charCodeAt(1) - 48 };
}

/* The board after the first `n` ICCS moves from `start`, and the last move. */
export function positionAt(game, n) {
  const b = parseFen(game.start || START);
  let last = null;
  for (let i = 0; i < n && i < game.moves.length; i++) {
    const m = game.moves[i].toLowerCase();
    const from = sq(m.slice(0, 2)), to = sq(m.slice(2, 4));
    if (!b[from.r] || !b[to.r]) break;
    b[to.r][to.f] = b[from.r][from.f];
    b[from.r][from.f] = null;
    last = { from, to };
  }
  return { board: b, last };
}

/* 'red' or 'black': the side to move of a game's current position. */
export function sideToMove(g) {
  const parts = (g.fen || START).split(' ');
  return parts[1] === 'b' ? 'black' : 'red';
}

/* ---- a board as SVG: 9×10 lines, the river, the palaces, the pieces, the
 * last move marked (a dashed ring where the piece came from, a ring where
 * it went) ---- */

const GLYPH = { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
                k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' };

const NS = 'http://www.w3.org/2000/svg';
const CELL = 10, M = 6;

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

const X = f => M + f * CELL;
const Y = r => M + (9 - r) * CELL;

/* The SVG of `board` (positionAt()'s board[rank][file]) with `last`
 * ({from, to}, or null) marked. */
export function boardSvg(board, last) {
  const s = svgEl('svg', { viewBox: `0 0 ${2 * M + 8 * CELL} ${2 * M + 9 * CELL}`, class: 'board', role: 'img' });
  s.append(svgEl('rect', { class: 'bg', x: 0, y: 0, width: 2 * M + 8 * CELL, height: 2 * M + 9 * CELL, rx: 2 }));
  let d = '';
  for (let r = 0; r < 10; r++) d += `M${X(0)} ${Y(r)}H${X(8)}`;
  // files cross the river only at the edges
  for (let f = 1; f < 8; f++) d += `M${X(f)} ${Y(0)}V${Y(4)}M${X(f)} ${Y(5)}V${Y(9)}`;
  // the palaces
  d += `M${X(3)} ${Y(0)}L${X(5)} ${Y(2)}M${X(5)} ${Y(0)}L${X(3)} ${Y(2)}`;
  d += `M${X(3)} ${Y(9)}L${X(5)} ${Y(7)}M${X(5)} ${Y(9)}L${X(3)} ${Y(7)}`;
  s.append(svgEl('path', { class: 'grid-line', d }));
  s.append(svgEl('rect', { class: 'frame', x: X(0), y: Y(9), width: 8 * CELL, height: 9 * CELL }));
  const ry = (Y(4) + Y(5)) / 2;
  s.append(svgEl('text', { class: 'river', x: X(1.5), y: ry, 'dominant-baseline': 'central' }, '楚 河'));
  s.append(svgEl('text', { class: 'river', x: X(5.3), y: ry, 'dominant-baseline': 'central' }, '漢 界'));
  if (last) {
    s.append(svgEl('circle', { class: 'mark from', cx: X(last.from.f), cy: Y(last.from.r), r: 4.6 }));
    s.append(svgEl('circle', { class: 'mark to', cx: X(last.to.f), cy: Y(last.to.r), r: 5.1 }));
  }
  for (let r = 0; r < 10; r++) {
    for (let f = 0; f < 9; f++) {
      const p = board[r][f];
      if (!p) continue;
      const red = p === p.toUpperCase();
      const g = svgEl('g', { class: 'pc ' + (red ? 'r' : 'b'), 'data-sq': String.fromCharCode(97 + f) + r });
      g.append(svgEl('circle', { cx: X(f), cy: Y(r), r: 4.3 }));
      g.append(svgEl('text', { x: X(f), y: Y(r) + 0.2 }, GLYPH[p] || '?'));
      s.append(g);
    }
  }
  return s;
}

/* The board `svg` with a label for screen readers. */
export function labelled(svg, label) {
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  return svg;
}

/* ---- the clocks (1:05:09, 4:07), running on the page for the side to move
 * from their last reading (`clock_at`, an event's arrival) while the game
 * is on and not paused ---- */

/* This browser's clock minus the server's, from the events' "at". */
let skew = 0;

export function clockText(ms) {
  if (ms === null || ms === undefined || ms < 0) return '';
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
  return (h ? h + ':' + String(m).padStart(2, '0') : String(m)) + ':' + String(x).padStart(2, '0');
}

/* What side `side` (0 Red, 1 Black) of game g has left now, in ms; null
 * for a game without clocks. */
export function runningClock(g, side) {
  if (!g.clock || g.clock[side] === null || g.clock[side] === undefined) return null;
  let ms = g.clock[side];
  const running = g.result === '*' && !g.paused && !g.needs_arbiter && g.clockAt &&
    sideToMove(g) === (side ? 'black' : 'red');
  if (running) ms -= Date.now() - g.clockAt;
  return Math.max(0, ms);
}

/* The time on this browser's clock (ms) of a server time in µs (the
 * state's clock_at); null for none. */
export function localTime(serverUs) {
  return serverUs ? serverUs / 1000 + skew : null;
}

/* An event's clocks into game g: read now (its arrival), the server's
 * "at" kept for the skew. */
export function takeClock(g, d) {
  if (d.at) skew = Date.now() - d.at / 1000;
  if (!d.clock) return;
  g.clock = d.clock;
  g.clockAt = Date.now();
}

/* The running clocks of the cards in play and of the viewer, redrawn. */
export function tickClocks() {
  for (const c of document.querySelectorAll('#boards .card[data-result="*"]')) {
    const g = S.games.get(+c.dataset.table);
    if (!g || !g.clock) continue;
    for (const span of c.querySelectorAll('.clock[data-side]')) span.textContent = clockText(runningClock(g, +span.dataset.side));
  }
  // the desk's game (desk.js): its clocks name their table
  for (const span of document.querySelectorAll('#desk-game .clock[data-side]')) {
    const dg = S.games.get(+span.dataset.table);
    if (dg && dg.clock) span.textContent = clockText(runningClock(dg, +span.dataset.side));
  }
  const g = S.view === 'game' && S.games.get(S.game);
  if (g && g.clock) {
    $('#g-clock-red').textContent = clockText(runningClock(g, 0));
    $('#g-clock-black').textContent = clockText(runningClock(g, 1));
  }
}

/* ---- the live boards: a card per board of the round, a link to the game
 * viewer ---- */

/* A clock before its first reading: there, not yet read. */
const NO_CLOCK = '–:––';

function clockSpan(g, side) {
  return el('span', { class: 'clock', 'data-side': side, title: g.clock ? null : t('no_clock'),
    text: g.clock ? clockText(runningClock(g, side)) : NO_CLOCK });
}

/* A knockout table's stage and game type (" · 半决赛 · 慢棋"). */
function koCardText(g) {
  if (!g.knockout) return '';
  const stage = S.bracket && S.bracket.matches ? stageName(S.bracket, g.knockout.stage) : t('ko_stage', { n: g.knockout.stage });
  return ` · ${stage} · ${t('g_' + g.knockout.type)}`;
}

function renderCard(g) {
  const n = g.moves.length;
  const pos = positionAt(g, n);
  const stm = g.result === '*' ? sideToMove(g) : '';
  const lastText = n ? `${Math.ceil(n / 2)}. ${n % 2 === 0 ? '… ' : ''}${moveText(g, n - 1)}` : t('moves_none');
  const flags = el('div', { class: 'flags' });
  for (const [cls, text] of gameFlags(g)) flags.append(el('span', { class: 'tag ' + cls, text }));
  const open = () => { location.hash = `#game/${S.round}/${g.table}`; };
  const card = el('article', { class: 'card', 'data-table': g.table, 'data-ply': n, 'data-result': g.result,
    tabindex: 0, role: 'link', 'aria-label': gameLabel(g, n), onclick: open,
    onkeydown: e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(); } } },
    el('div', { class: 'head' },
      el('span', { text: t('table_n', { n: g.table }) + koCardText(g) }),
      el('span', { class: 'result', text: g.result === '*' ? '' : resultText(g.result) })),
    el('div', { class: 'who' },
      el('span', { class: stm === 'black' ? 'to-move' : '', text: g.black ? g.black.name : '' }),
      clockSpan(g, 1)),
    labelled(boardSvg(pos.board, pos.last), gameLabel(g, n)),
    el('div', { class: 'who' },
      el('span', { class: 'red-name ' + (stm === 'red' ? 'to-move' : ''), text: g.red ? g.red.name : '' }),
      clockSpan(g, 0)),
    el('div', { class: 'last', text: lastText }),
    flags);
  return card;
}

/* The filter of a big event's boards, `q` (trimmed, lower case): a table
 * number, or part of a player's name, club, team or region (`info`: the
 * event's players by id, from /api/event). */
function shown(g, q, info) {
  if (!q) return true;
  if (/^\d+$/.test(q)) return String(g.table) === q;
  return [g.red, g.black].some(p => {
    if (!p) return false;
    const x = info.get(p.id) || {};
    return [p.name, x.club, x.team, x.region].some(w => w && w.toLowerCase().includes(q));
  });
}

/* Every card of S.games, in table order (or the words of an event with
 * no round yet); the round selector hidden while there is none; a filter
 * that matches no board says so. */
export function renderBoards() {
  const box = $('#boards');
  $('#round').closest('label').hidden = noRound();
  if (noRound()) return box.replaceChildren(el('p', { class: 'empty', 'data-empty': 'no-round', text: t('no_round') }));
  const q = ($('#filter').value || '').trim().toLowerCase();
  const info = new Map(((S.event && S.event.players) || []).map(p => [p.id, p]));
  const cards = new Map();
  for (const g of [...S.games.values()].sort((a, b) => a.table - b.table)) {
    const c = renderCard(g);
    c.hidden = !shown(g, q, info);
    cards.set(g.table, c);
  }
  const all = [...cards.values()];
  // a team round: each match's header, its boards under it (board order)
  const items = [];
  for (const m of roundMatches()) {
    const mine = m.boards.map(b => cards.get(b.table)).filter(Boolean);
    mine.forEach(c => cards.delete(+c.dataset.table));
    items.push(matchHead('h3', m, mine.length > 0 && mine.every(c => c.hidden)), ...mine);
  }
  items.push(...cards.values());
  if (q && all.length && all.every(c => c.hidden))
    items.push(el('p', { class: 'empty', 'data-empty': 'no-match', text: t('no_match', { q: $('#filter').value.trim() }) }));
  box.replaceChildren(...items);
}

/* ---- a team event (docs/web.md, "Team events"): the round's matches from
 * /api/teams.json, each with its running score ("队A 2½–1½ 队B"), over its
 * boards on the live view, the pairings and the desk; the team standings
 * ---- */

/* Game points (2/1/0 a game) as games: 5 is 2½. */
export function gamesText(gp) {
  const w = Math.floor(gp / 2);
  return gp % 2 ? (w ? `${w}½` : '½') : String(w);
}

/* A match's name with its score: "A 2½–1½ B", or "A 轮空" for a bye. */
export function matchTitle(m) {
  if (!m.second) return `${m.first.name} ${t('bye')}`;
  return `${m.first.name} ${gamesText(m.gp[0])}–${gamesText(m.gp[1])} ${m.second.name}`;
}

/* The matches of the round on screen (none for an individual event). */
export function roundMatches() {
  return S.teams && S.teams.round === S.round ? S.teams.matches : [];
}

/* The match of table `table` of the round on screen and its board:
 * {m, b}, or null. */
export function matchOfTable(table) {
  for (const m of roundMatches()) for (const b of m.boards) if (b.table === table) return { m, b };
  return null;
}

/* A match's header element `tag` (its score, whether decided). */
function matchHead(tag, m, hidden) {
  const forfeit = m.forfeit && m.forfeit !== 'none' ? ` · ${t('tv_forfeit')}` : '';
  return el(tag, { class: 'match-head', 'data-match': m.match, 'data-decided': m.decided ? '1' : '0', hidden: hidden || null },
    el('span', { class: 'match-no', text: t('tv_match_n', { n: m.match }) }), ' ',
    el('span', { class: 'match-score', text: matchTitle(m) }),
    el('span', { class: 'match-state', text: (m.decided ? ` · ${t('tv_decided')}` : '') + forfeit }));
}

/* The team event's state of the round on screen read again (and its
 * standings after it); nothing for an individual event. */
export async function refreshTeams() {
  if (!S.event || !S.event.team || !S.round) { S.teams = null; return; }
  try {
    const r = S.round;
    const teams = await getJSON(`/api/teams.json?round=${r}`);
    if (r === S.round) S.teams = teams;
  } catch (e) { console.warn(e.message); }
}

addWords({
  zh: { tv_match_n: '第{n}场', tv_decided: '已决', tv_forfeit: '弃权', tv_team: '队名', tv_played: '场次',
    tv_mp: '场分', tv_gp: '局分', tv_wdl: '胜-和-负', tv_caption: '团体成绩', tv_board: '第{n}台', tv_match: '场次',
    tv_tb: { MP: '场分', GP: '局分', MW: '胜场', WINS: '胜局', BWINS: '后手胜局', TBH: '对手场分', BC: '台次分',
      EMMSB: 'EMMSB', EMGSB: 'EMGSB', EGMSB: 'EGMSB', EGGSB: 'EGGSB' } },
  en: { tv_match_n: 'Match {n}', tv_decided: 'decided', tv_forfeit: 'forfeited', tv_team: 'Team', tv_played: 'Played',
    tv_mp: 'MP', tv_gp: 'GP', tv_wdl: 'W-D-L', tv_caption: 'Team standings', tv_board: 'Board {n}', tv_match: 'Match',
    tv_tb: { MP: 'MP', GP: 'GP', MW: 'Matches won', WINS: 'Wins', BWINS: 'Black wins', TBH: 'Opp. MP', BC: 'Board count',
      EMMSB: 'EMMSB', EMGSB: 'EMGSB', EGMSB: 'EGMSB', EGGSB: 'EGGSB' } },
});

/* Game g's card drawn again (all of them when it has none yet). */
export function updateCard(g) {
  const old = document.querySelector(`#boards .card[data-table="${g.table}"]`);
  const c = renderCard(g);
  c.hidden = !shown(g);
  if (old) old.replaceWith(c);
  else renderBoards();
}

/* ---- the game viewer: a large board, the numbered move list (a move a
 * button), first / previous / next / last and the keys; at the last move it
 * follows the game live ---- */

function viewerPly(g) {
  return S.ply === null ? g.moves.length : Math.min(S.ply, g.moves.length);
}

/* The viewer of game S.game at ply S.ply (null: the last). */
export function renderViewer() {
  const g = S.games.get(S.game);
  if (!g) return;
  const n = viewerPly(g);
  const pos = positionAt(g, n);
  $('#g-board').replaceChildren(labelled(boardSvg(pos.board, pos.last), gameLabel(g, n)));
  $('#g-red').textContent = g.red ? `${g.red.name}${g.red.rating ? ' (' + g.red.rating + ')' : ''}` : '';
  $('#g-black').textContent = g.black ? `${g.black.name}${g.black.rating ? ' (' + g.black.rating + ')' : ''}` : '';
  $('#g-clock-red').textContent = g.clock ? clockText(runningClock(g, 0)) : NO_CLOCK;
  $('#g-clock-black').textContent = g.clock ? clockText(runningClock(g, 1)) : NO_CLOCK;
  // stepped back: the moves played since, one click from them; the clocks
  // are the game's now (the state keeps no clock per move: the PGN has them)
  if (S.ply === null) S.plyLen = null;
  else if (S.plyLen === null || S.plyLen === undefined) S.plyLen = g.moves.length;
  const behind = S.ply === null ? 0 : g.moves.length - S.plyLen;
  $('#nav-new').hidden = behind <= 0;
  $('#nav-new').textContent = behind > 0 ? t('new_moves', { n: behind }) : '';
  $('#g-clock-note').textContent = S.ply !== null && g.clock ? t('clocks_now') : '';
  $('#g-title').textContent = `${roundName(S.round)} · ${t('table_n', { n: g.table })}`;
  const state = g.result !== '*' ? resultText(g.result) + reasonText(g.reason)
    : [t('playing'), ...gameFlags(g).map(x => x[1])].join(' · ');
  $('#g-state').textContent = state;
  $('#nav-ply').textContent = n ? t('ply', { n }) : t('start');
  const ol = $('#g-moves');
  ol.replaceChildren(...moveRows(g, n));
  const cur = ol.querySelector('.current');
  if (cur && S.ply !== null) cur.scrollIntoView({ block: 'nearest' });
  else if (S.ply === null) ol.scrollTop = ol.scrollHeight;
  const nt = S.notation === 'zh' ? 'chinese' : S.notation;
  $('#g-pgn').href = `/api/rounds/${S.round}/${g.table}.pgn?notation=${nt}`;
  $('#g-pgn').setAttribute('download', `round${S.round}-table${g.table}.pgn`);
}

/* The move list: a row a move pair, numbered (1. 炮二平五 马８进７) from
 * the start position's move number; a game that starts with Black to
 * move has "…" in its first row's Red half. A move is a button: `pick(ply)`
 * on a click (the viewer's goto); `mark(ply)` gives a move's extra class
 * (the desk marks a repetition's cycle), or ''. */
export function moveRows(g, n, pick = goto, mark = () => '') {
  const f = (g.start || START).split(' ');
  const first = Math.max(1, parseInt(f[5], 10) || 1), black = f[1] === 'b' ? 1 : 0;
  const items = [];
  for (let i = -black; i < g.moves.length; i += 2) {
    const li = el('li', {}, el('span', { class: 'no', 'aria-hidden': 'true', text: `${first + (i + black) / 2}.` }));
    for (let k = i; k < i + 2 && k < g.moves.length; k++) {
      if (k < 0) { li.append(el('span', { class: 'mv-none', text: '…' })); continue; }
      const extra = mark(k + 1);
      li.append(el('button', { type: 'button', class: 'mv' + (k + 1 === n ? ' current' : '') + (extra ? ' ' + extra : ''),
        'data-ply': k + 1, 'aria-current': k + 1 === n ? 'step' : null, text: moveText(g, k), onclick: () => pick(k + 1) }));
    }
    items.push(li);
  }
  return items;
}

function goto(n) {
  const g = S.games.get(S.game);
  if (!g) return;
  n = Math.max(0, Math.min(n, g.moves.length));
  S.ply = n === g.moves.length ? null : n; // at the end: follow the game live
  renderViewer();
}

function step(d) {
  const g = S.games.get(S.game);
  if (g) goto(viewerPly(g) + d);
}

/* The viewer's buttons and keys. */
export function initViewer() {
  $('#nav-first').addEventListener('click', () => goto(0));
  $('#nav-prev').addEventListener('click', () => step(-1));
  $('#nav-next').addEventListener('click', () => step(1));
  $('#nav-last').addEventListener('click', () => goto(Infinity));
  $('#nav-new').addEventListener('click', () => goto(Infinity));
  document.addEventListener('keydown', e => {
    if (S.view !== 'game' || e.target.closest('input, select, textarea')) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goto(0), End: () => goto(Infinity) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
}

/* ---- the knockout bracket, a stage's name, the final places (S.bracket,
 * /api/knockout) ---- */

/* A stage's name: Final, Semi-finals, ... by its number of matches (the
 * last stage of a bracket with a third-place match has two). */
export function stageName(k, stage) {
  const ms = k.matches.filter(m => m.stage === stage);
  const last = Math.max(...k.matches.map(m => m.stage));
  return stage === last && ms.length <= 2 && k.seeding === 'choose' ? t('ko_final')
    : ms.length === 1 ? t('ko_final') : ms.length === 2 ? t('ko_semi') : ms.length === 4 ? t('ko_quarter')
    : t('ko_stage', { n: stage });
}

/* The players of a match not yet known, by the matches they come from:
 * "半决赛第1场胜者 – 半决赛第2场胜者" ("Winner of semi-final 1 – ..."); the
 * losers for the third-place match. */
function fromText(k, m) {
  if (!m.from) return '?';
  const side = n => {
    const f = k.matches.find(x => x.match === n);
    const nth = k.matches.filter(x => x.stage === f.stage).indexOf(f) + 1;
    return t(m.from.losers ? 'ko_loser_of' : 'ko_winner_of', { s: stageName(k, f.stage), n: nth });
  };
  return `${side(m.from.matches[0])} – ${side(m.from.matches[1])}`;
}

/* A knockout game in words: its type, who had Red, its result. */
function koGameText(m, g) {
  const red = m.players.find(p => p && p.id === g.red);
  return `${t('g_' + g.type)} ${red ? red.name + t('red_mark') : ''} ${resultText(g.result) || t('in_play')}`;
}

/* The final places of the knockout into `box`, once every match is
 * decided; else `box` is emptied and hidden. */
function renderPlaces(box) {
  const k = S.bracket;
  const places = (k && k.started && k.decided && k.places) || [];
  box.hidden = !places.length;
  if (box.hidden) return box.replaceChildren();
  box.replaceChildren(el('h3', { text: t('ko_places') }),
    el('ol', {}, ...places.map(p => el('li', { 'data-id': p.id, text: p.name }))));
}

/* The knockout bracket above the knockout tables: each stage's matches,
 * their games so far, the winner or the table in play. */
export function renderBracket() {
  const box = $('#bracket');
  const k = S.bracket;
  box.hidden = !(k && k.started);
  if (box.hidden) return box.replaceChildren();
  const name = p => (p && p.name) || '?';
  const stages = new Map();
  for (const m of k.matches) {
    if (!stages.has(m.stage)) stages.set(m.stage, []);
    stages.get(m.stage).push(m);
  }
  const last = Math.max(...stages.keys());
  const cols = [];
  for (const [stage, ms] of stages) {
    const items = ms.map(m => {
      const third = k.seeding === 'choose' && stage === last && m.match === k.matches.length;
      const games = m.games.map(g => koGameText(m, g)).join(' · ');
      const state = m.winner ? t('ko_winner', { p: name(m.winner) })
        : m.in_play ? t('ko_in_play', { n: m.in_play }) : '';
      return el('li', { 'data-match': m.match },
        el('span', { class: 'ko-players', text: (third ? t('ko_third') + ': ' : '') +
          (m.players.length ? `${name(m.players[0])} – ${name(m.players[1])}` : fromText(k, m)) }),
        games ? el('span', { class: 'ko-games', text: games }) : null,
        state ? el('span', { class: m.winner ? 'ko-winner' : 'ko-state', text: state }) : null);
    });
    cols.push(el('div', { class: 'ko-stage' }, el('h3', { text: stageName(k, stage) }), el('ol', {}, ...items)));
  }
  const places = el('div', { class: 'ko-stage ko-places' });
  renderPlaces(places);
  box.replaceChildren(...cols, ...(places.hidden ? [] : [places]));
}

/* ---- the pairings: a row per table, the result in words (a link to the
 * game), the bye ---- */

/* The table of S.pairings, a result taken from the live game when there is one. */
export function renderPairings() {
  const body = $('#pairings tbody');
  const rows = [];
  $('#pairings-caption').hidden = !noRound();
  $('#pairings-caption').textContent = noRound() ? t('no_round') : '';
  $('#pairings-title').textContent = S.round ? `${S.event ? S.event.name : ''} ${t('print_pairings', { r: roundName(S.round) })}` : '';
  for (const b of (S.pairings && S.pairings.boards) || []) {
    const g = S.games.get(b.table);
    const mb = matchOfTable(b.table);
    const res = g ? g.result : b.result;
    // a knockout table names its stage and game type beside its number (the bracket's tables)
    const kt = S.bracket && S.bracket.tables && S.bracket.tables.find(x => x.table === b.table);
    const ko = kt ? el('span', { class: 'ko-tag', text: koCardText({ knockout: kt }).replace(/^ · /, '') }) : null;
    const board = mb ? el('span', { class: 'ko-tag', text: t('tv_board', { n: mb.b.board }) }) : null;
    rows.push(el('tr', { 'data-table': b.table },
      el('td', { class: 'num' }, String(b.table), ...(ko ? [' ', ko] : []), ...(board ? [' ', board] : [])),
      el('td', { class: 'red-name', text: b.red ? `${b.red.name} (${b.red.rating})` : '' }),
      el('td', { class: 'num', text: b.red ? b.red.points : '' }),
      el('td', { class: 'result', 'data-result': b.bye ? 'bye' : res },
        b.bye ? t('bye') : el('a', { href: `#game/${S.round}/${b.table}`, text: resultText(res) || t('in_play') })),
      el('td', { text: b.black ? `${b.black.name} (${b.black.rating})` : '' }),
      el('td', { class: 'num', text: b.black ? b.black.points : '' })));
  }
  body.replaceChildren(...teamRows(rows));
}

/* The pairings' rows of a team round under their matches' headers (a
 * match's boards in board order, a bye match a header alone). */
function teamRows(rows) {
  const ms = roundMatches();
  if (!ms.length) return rows;
  const byTable = new Map(rows.map(r => [+r.dataset.table, r])), out = [];
  for (const m of ms) {
    out.push(el('tr', { class: 'match-row', 'data-match': m.match }, el('td', { colspan: 6 }, matchHead('span', m))));
    for (const b of m.boards) if (byTable.has(b.table)) { out.push(byTable.get(b.table)); byTable.delete(b.table); }
  }
  return out.concat([...byTable.values()]);
}

/* The round on screen's pairings (and for the knockout round its
 * bracket) read again and drawn. */
export async function refreshPairings() {
  try {
    const ko = S.event && S.round === S.event.knockout_round;
    const [pairings, bracket] = await Promise.all([getJSON(`/api/rounds/${S.round}/pairings.json`),
      ko ? getJSON('/api/knockout') : null, refreshTeams()]);
    S.pairings = pairings;
    S.bracket = bracket;
    renderPairings();
    renderBracket();
    if (ko || S.teams) renderBoards(); // the cards name their stage, or sit under their match
  } catch (e) { console.warn(e.message); }
}

/* ---- the standings: the preset's tie-breaks in its order, after the round
 * on screen ---- */

/* The tie-break columns: those of the event's preset that have values;
 * not the lots (LOT still ranks, the sheets print it): numbers easily
 * taken for the pairing number. */
function tbColumns(st) {
  return (st.tiebreaks || []).filter(code => code !== 'LOT' && st.standings.some(r => r.tb && code in r.tb));
}

/* ---- the knockout's players marked (docs/web.md, "The knockout
 * qualifiers"): once it has started, its seeds (/api/knockout `seeds`);
 * before, the places that will go through as the event's regulation
 * states them (/api/event `knockout`: the top `size` after round `after`,
 * a player who has withdrawn passed over, as ko_start seeds them). The
 * standings and the console's player list show a tag (晋级淘汰赛, or 出线区
 * before the start) and a legend saying which. ---- */

addWords({
  zh: {
    kom_in: '晋级淘汰赛', kom_places: '出线区', kom_col: '淘汰赛',
    kom_in_legend: '晋级淘汰赛：进入淘汰赛的{n}名棋手。',
    kom_places_legend: '出线区：按规程第{a}轮后积分前{n}名进入淘汰赛；目前在此名次内（淘汰赛尚未开始，已退赛者不计）。',
  },
  en: {
    kom_in: 'knockout', kom_places: 'qualifying', kom_col: 'Knockout',
    kom_in_legend: 'knockout: the {n} players in the knockout.',
    kom_places_legend: 'qualifying: the regulation takes the top {n} after round {a} into the knockout; these hold those places now (the knockout has not started; withdrawn players do not count).',
  },
});

/* The players marked: {ids (a Set of player ids), started, n, after}, or
 * null when nothing is marked. `bracket`: /api/knockout (null or not
 * started before the start); `event`: /api/event; `rows`: the standings'
 * rows in rank order (for the places before the start; none before a
 * round is played). */
export function koMarks(bracket, event, rows, round) {
  if (bracket && bracket.started) {
    const ids = new Set((bracket.seeds || []).filter(Boolean).map(p => p.id));
    return ids.size ? { ids, started: true, n: ids.size, after: bracket.after } : null;
  }
  const plan = event && event.knockout;
  if (!plan || !rows || !rows.length || !(round > 0)) return null;
  const gone = new Set((event.players || []).filter(p => p.withdrawn).map(p => p.id));
  const ids = new Set(rows.filter(r => !gone.has(r.id)).slice(0, plan.size).map(r => r.id));
  return { ids, started: false, n: plan.size, after: plan.after };
}

/* The tag of a marked player (`m` from koMarks), or null for another. */
export function koTag(m, id) {
  if (!m || !m.ids.has(id)) return null;
  return el('span', { class: 'ko-tag', 'data-ko': m.started ? 'in' : 'places', text: t(m.started ? 'kom_in' : 'kom_places') });
}

/* The legend of the marks under `after` (an element): a caption
 * #`key`-ko-legend, made once, emptied when nothing is marked. */
export function koLegend(after, key, m) {
  let p = document.getElementById(key + '-ko-legend');
  if (!p) {
    p = el('p', { id: key + '-ko-legend', class: 'caption ko-legend' });
    after.after(p);
  }
  p.hidden = !m;
  p.textContent = m ? t(m.started ? 'kom_in_legend' : 'kom_places_legend', { n: m.n, a: m.after }) : '';
}

/* The marks now, for the console: the stage read again (/api/knockout),
 * and before its start the standings; null when nothing is marked. */
export async function koMarksNow() {
  const bracket = await getJSON('/api/knockout');
  if (bracket && bracket.started) return koMarks(bracket, S.event);
  const event = S.event || await getJSON('/api/event'); // the console may draw before the page has read it
  if (!event.knockout) return null;
  const st = await getJSON('/api/standings.json');
  return koMarks(null, event, st.standings, st.round);
}

/* What puts row i of the standings below row i - 1 when both have the
 * points of the first tie-break (PTS): the first tie-break, in the
 * event's order, where their values differ (the lot, 直胜 too); null
 * when they are not level on points. */
function tieSplit(st, i) {
  const [a, b] = [st.standings[i - 1], st.standings[i]], codes = st.tiebreaks || [];
  if (!a || !a.tb || !b.tb || !codes.length || a.tb[codes[0]] !== b.tb[codes[0]]) return null;
  return codes.slice(1).find(c => c in a.tb && c in b.tb && a.tb[c] !== b.tb[c]) || null;
}

/* A team event's standings (S.teamStandings, from /api/teams.json) over
 * the players': place, team, matches played, 场分, 局分, W-D-L of the
 * matches and the tie-breaks that have values, in the event's order. */
function renderTeamStandings() {
  let box = document.getElementById('team-standings');
  const st = S.teamStandings;
  if (!st) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = el('div', { id: 'team-standings' });
    $('#standings-caption').after(box);
  }
  box.hidden = false;
  const codes = (st.tiebreaks || []).filter(c => c !== 'MP' && c !== 'GP');
  const tbWord = c => (t('tv_tb') || {})[c] || c;
  const when = !st.after ? t('before_round_1') : t(st.decided === false ? 'during_round' : 'after_round', { n: st.after });
  box.replaceChildren(el('h3', { text: `${t('tv_caption')} · ${when}` }), el('div', { class: 'scroll' },
    el('table', { id: 'team-table', class: 'grid' },
      el('thead', {}, el('tr', {}, el('th', { class: 'num', text: t('rank') }), el('th', { text: t('tv_team') }),
        el('th', { class: 'num', text: t('tv_played') }), el('th', { class: 'num', 'data-tb': 'MP', text: t('tv_mp') }),
        el('th', { class: 'num', 'data-tb': 'GP', text: t('tv_gp') }), el('th', { class: 'num', text: t('tv_wdl') }),
        ...codes.map(c => el('th', { class: 'num', 'data-tb': c, title: c, text: tbWord(c) })))),
      el('tbody', {}, ...st.rows.map(r => el('tr', { 'data-team': r.team, class: r.annulled ? 'annulled' : null },
        el('td', { class: 'num', 'data-col': 'place', text: r.annulled ? '' : r.place }),
        el('td', { 'data-col': 'name', text: r.name }),
        el('td', { class: 'num', text: r.played }),
        el('td', { class: 'num', 'data-tb': 'MP', text: r.mp }),
        el('td', { class: 'num', 'data-tb': 'GP', text: r.gp }),
        el('td', { class: 'num', 'data-col': 'wdl', text: `${r.won}-${r.drawn}-${r.lost}` }),
        ...codes.map(c => el('td', { class: 'num', 'data-tb': c, text: c in r.tiebreaks ? r.tiebreaks[c] : '' }))))))));
}

/* The table of S.standings, its caption and its print title. */
export function renderStandings() {
  const st = S.standings;
  // the caption needs the event (is any round published?): loadEvent asks
  // for the standings again once it has it
  if (!st || !S.event) return;
  renderTeamStandings();
  const when = noRound() ? t('no_round') : !st.round ? t('before_round_1')
    : t(st.complete === false ? 'during_round' : 'after_round', { n: st.round });
  $('#standings-caption').textContent = noRound() && !st.standings.length ? `${when} · ${t('no_players')}` : when;
  $('#standings-title').textContent = `${S.event ? S.event.name : ''} ${t('print_standings', {
    c: !st.round ? t('before_round_1') : t(st.complete === false ? 'round_in_play' : 'after_round', { n: st.round }) })}`;
  renderPlaces($('#final-places'));
  if (!$('#final-places').hidden) $('#standings-caption').textContent = t('swiss_after') +
    (st.round ? ' · ' + t('after_round', { n: st.round }) : '');
  const cols = tbColumns(st);
  const byes = st.standings.some(r => r.byes > 0);
  const ko = koMarks(S.bracket, S.event, st.standings, st.round); // the knockout's players marked
  koLegend($('#standings-caption'), 'standings', ko);
  const ties = st.standings.map((r, i) => tieSplit(st, i)), tied = ties.some(c => c);
  $('#standings-ties').textContent = tied ? t('tie_note', { order: (st.tiebreaks || []).map(tbName).join(' → ') }) : '';
  const head = el('tr', {},
    el('th', { class: 'num', text: t('rank') }), el('th', { class: 'num', 'data-col': 'no', text: t('pno') }),
    el('th', { text: t('name') }), el('th', { 'data-col': 'club', text: t('club') }),
    el('th', { class: 'num', text: t('rating') }),
    ...cols.map(c => el('th', { class: 'num', 'data-tb': c, title: c, text: tbName(c) })),
    el('th', { class: 'num', text: t('wdl') }),
    byes ? el('th', { class: 'num', 'data-col': 'byes', text: t('byes') }) : null,
    tied ? el('th', { 'data-col': 'tie', text: t('tie_col') }) : null,
    ko ? el('th', { 'data-col': 'ko', text: t('kom_col') }) : null);
  $('#standings thead').replaceChildren(head);
  $('#standings tbody').replaceChildren(...st.standings.map((r, i) => el('tr', { 'data-id': r.id, class: koTag(ko, r.id) ? 'ko-in' : null },
    el('td', { class: 'num', 'data-col': 'rank', text: r.rank }),
    el('td', { class: 'num', 'data-col': 'no', text: r.pno || r.id }),
    el('td', { 'data-col': 'name', text: r.name }),
    el('td', { 'data-col': 'club', text: r.club || r.region || '' }),
    el('td', { class: 'num', 'data-col': 'rating', text: r.rating }),
    ...cols.map(c => el('td', { class: 'num', 'data-tb': c, text: c in r.tb ? r.tb[c] : '' })),
    el('td', { class: 'num', 'data-col': 'wdl', text: `${r.w}-${r.d}-${r.l}` }),
    byes ? el('td', { class: 'num', 'data-col': 'byes', text: r.byes || '' }) : null,
    tied ? el('td', { 'data-col': 'tie', 'data-split': ties[i], text: ties[i] ? tbName(ties[i]) + (ties[i] === 'LOT' ? ` (${r.tb.LOT})` : '') : '' }) : null,
    ko ? el('td', { 'data-col': 'ko' }, koTag(ko, r.id)) : null)));
}

let standingsTimer = 0, standingsAsked = 0;

/* The standings (and, once the knockout has started, its bracket) read
 * again after `delay` ms and drawn; a later call replaces an earlier one. */
export function refreshStandings(delay) {
  clearTimeout(standingsTimer);
  standingsTimer = setTimeout(async () => {
    try {
      const ko = S.event && S.round === S.event.knockout_round;
      // started: its seeds are marked before its first games are published
      const started = S.event && S.event.knockout_round;
      const asked = ++standingsAsked;
      const [st, bracket, teams] = await Promise.all([
        getJSON('/api/standings.json' + (S.round && !ko ? `?round=${S.round}` : '')),
        started ? getJSON('/api/knockout') : null,
        S.event && S.event.team ? getJSON('/api/teams.json' + (S.round ? `?round=${S.round}` : '')) : null]);
      if (asked !== standingsAsked) return; // a later request (another round, say) is on its way: it decides
      S.standings = st;
      S.teamStandings = teams && teams.standings ? { ...teams.standings, tiebreaks: teams.tiebreaks } : null;
      if (bracket) S.bracket = bracket;
      renderStandings();
    } catch (e) { console.warn(e.message); }
  }, delay || 0);
}

/* ---- the banners: toasts over the bottom right corner, no layout space;
 * none on the staff's views ---- */

const phone = () => window.matchMedia('(max-width: 600px)').matches;

/* The staff's views (the desk, the console) show no banner: their own
 * lines and tables say what happened, and nothing covers their controls. */
const staffView = () => S.view === 'arbiter' || S.view === 'console';

/* A banner of `kind` (the verdict's, or 'result') about `table`. A game's
 * end is one banner: `end` ({result} or {sentence}) joins the result and
 * the ruling's sentence that ended the game in one, whichever comes first
 * (a banner that has its part already, a result changed later, is left
 * alone: the new one has a banner of its own). */
export function banner(kind, table, text, end) {
  if (staffView()) return;
  const box = $('#banners');
  const part = end && (end.result ? 'result' : 'sentence');
  const same = end && box.querySelector(`.banner[data-table="${table}"][data-end]:not([data-${part}])`);
  if (same) {
    Object.assign(same.dataset, end);
    const d = same.dataset;
    same.querySelector('.text').textContent = d.result && d.sentence
      ? d.result + (S.lang === 'zh' ? '：' : ': ') + d.sentence : d.result || d.sentence;
    return;
  }
  const max = phone() ? PHONE_BANNERS_MAX : BANNERS_MAX;
  const b = el('div', { class: 'banner', 'data-kind': kind, 'data-table': table, role: 'alert', 'data-end': end ? '' : null },
    el('span', { class: 'text', text }),
    el('button', { class: 'close', type: 'button', 'aria-label': 'close', onclick: () => b.remove() }, '×'));
  if (end) Object.assign(b.dataset, end);
  box.prepend(b);
  while (box.children.length > max) box.lastChild.remove();
  setTimeout(() => b.remove(), phone() ? PHONE_BANNER_MS : BANNER_MS);
}

/* A verdict's banner: the adjudicator's sentence in the page's language. */
export function verdictBanner(table, v) {
  // an arbiter's result is told by the result banner that follows it
  if (!v || v.verdict === 'accepted' || v.event === 'arbiter_result') return;
  const sentence = S.lang === 'zh' ? v.zh : v.en;
  const ends = ['red_wins', 'black_wins', 'draw'].includes(v.result) && v.changed;
  banner(v.verdict, table, t('table_n', { n: table }) + (S.lang === 'zh' ? '：' : ': ') + sentence,
    ends ? { sentence } : undefined);
}
