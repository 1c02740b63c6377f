/*
 * cards.js -- the live boards (#live, docs/web.md): a card per board of
 * the round on screen, with its table (and knockout stage and game),
 * players, clocks, board, last move, result and tags; the filter of a big
 * event's boards. A card is a link to the game viewer.
 */
import { S, noRound } from './state.js';
import { t } from './words.js';
import { $, el } from './dom.js';
import { positionAt, sideToMove } from './position.js';
import { boardSvg, labelled } from './board.js';
import { clockText, runningClock } from './clock.js';
import { moveText, resultText, gameFlags, gameLabel } from './format.js';
import { stageName } from './bracket.js';

function clockSpan(g, side) {
  return el('span', { class: 'clock', 'data-side': side, text: g.clock ? clockText(runningClock(g, side)) : '' });
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

/* The filter of a big event's boards: a table number, or part of a
 * player's name. */
function shown(g) {
  const q = ($('#filter').value || '').trim().toLowerCase();
  if (!q) return true;
  if (/^\d+$/.test(q)) return String(g.table) === q;
  return [g.red, g.black].some(p => p && p.name.toLowerCase().includes(q));
}

/* Every card of S.games, in table order (or the words of an event with
 * no round yet); the round selector hidden while there is none. */
export function renderBoards() {
  const box = $('#boards');
  $('#round').closest('label').hidden = noRound();
  if (noRound()) return box.replaceChildren(el('p', { class: 'empty', 'data-empty': 'no-round', text: t('no_round') }));
  const cards = [];
  for (const g of [...S.games.values()].sort((a, b) => a.table - b.table)) {
    const c = renderCard(g);
    c.hidden = !shown(g);
    cards.push(c);
  }
  box.replaceChildren(...cards);
}

/* Game g's card drawn again (all of them when it has none yet). */
export function updateCard(g) {
  const old = document.querySelector(`#boards .card[data-table="${g.table}"]`);
  const c = renderCard(g);
  c.hidden = !shown(g);
  if (old) old.replaceWith(c);
  else renderBoards();
}
