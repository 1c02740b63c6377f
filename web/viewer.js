/*
 * viewer.js -- the game viewer (#game/ROUND/TABLE, docs/web.md): a large
 * board, the players and clocks, the state, the numbered move list (each
 * move a button), first / previous / next / last and the keys ←, →, Home,
 * End; at the last move it follows the game live. The PGN link in the
 * chosen notation.
 */
import { S } from './state.js';
import { t, reasonText, roundName } from './words.js';
import { $, el } from './dom.js';
import { START, positionAt } from './position.js';
import { boardSvg, labelled } from './board.js';
import { clockText, runningClock } from './clock.js';
import { moveText, resultText, gameFlags, gameLabel } from './format.js';

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
  $('#g-clock-red').textContent = g.clock ? clockText(runningClock(g, 0)) : '';
  $('#g-clock-black').textContent = g.clock ? clockText(runningClock(g, 1)) : '';
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
 * move has "…" in its first row's Red half. */
function moveRows(g, n) {
  const f = (g.start || START).split(' ');
  const first = Math.max(1, parseInt(f[5], 10) || 1), black = f[1] === 'b' ? 1 : 0;
  const items = [];
  for (let i = -black; i < g.moves.length; i += 2) {
    const li = el('li', {}, el('span', { class: 'no', 'aria-hidden': 'true', text: `${first + (i + black) / 2}.` }));
    for (let k = i; k < i + 2 && k < g.moves.length; k++) {
      if (k < 0) { li.append(el('span', { class: 'mv-none', text: '…' })); continue; }
      li.append(el('button', { type: 'button', class: 'mv' + (k + 1 === n ? ' current' : ''), 'data-ply': k + 1,
        'aria-current': k + 1 === n ? 'step' : null, text: moveText(g, k), onclick: () => goto(k + 1) }));
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
  document.addEventListener('keydown', e => {
    if (S.view !== 'game' || e.target.closest('input, select, textarea')) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goto(0), End: () => goto(Infinity) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
}
