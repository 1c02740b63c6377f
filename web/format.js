/*
 * format.js -- a game in words, the same everywhere on the page: a move in
 * the chosen notation, a result (红胜 1-0 / Red wins 1-0), the flags of a
 * game in play (a foul, a must-change order, a pause, the arbiter) and
 * what a board shows, for screen readers.
 */
import { S } from './state.js';
import { t } from './words.js';

/* Move i of game g in the chosen notation (ICCS when the other is missing). */
export function moveText(game, i) {
  if (S.notation === 'wxf' && game.wxf && game.wxf[i]) return game.wxf[i];
  if (S.notation === 'zh' && game.zh && game.zh[i]) return game.zh[i];
  return game.moves[i];
}

/* A result in words: games.json's "1-0", "0-1", "1/2-1/2", the log's "=",
 * the forfeits "+-", "-+", "--"; a game in play ("*", none) is the empty
 * string. */
export function resultText(res) {
  const key = { '1-0': 'a_10', '0-1': 'a_01', '1/2-1/2': 'a_draw', '=': 'a_draw',
    '+-': 'res_f10', '-+': 'res_f01', '--': 'res_f00' }[res];
  return key ? t(key) : '';
}

function sideWord(side) { return side === 'red' ? t('red_side') : t('black_side'); }

/* The tags of a game: [class, text] each ('bad' for the arbiter and fouls). */
export function gameFlags(g) {
  const tags = [];
  if (g.needs_arbiter) tags.push(['bad', t('needs_arbiter')]);
  if (g.must_change) tags.push(['', t('must_change', { side: sideWord(g.must_change) })]);
  if (g.paused) tags.push(['', t('paused')]);
  if (g.fouls && (g.fouls[0] || g.fouls[1])) tags.push(['bad', t('fouls', { r: g.fouls[0], b: g.fouls[1] })]);
  return tags;
}

/* What a card or a board shows at ply n, in words: for screen readers. */
export function gameLabel(g, n) {
  const who = `${t('red')} ${g.red ? g.red.name : ''}${S.lang === 'zh' ? '，' : ', '}${t('black')} ${g.black ? g.black.name : ''}`;
  const state = g.result !== '*' ? resultText(g.result) : n ? t('ply', { n }) + ' ' + moveText(g, n - 1) : t('moves_none');
  return S.lang === 'zh' ? `${t('table_n', { n: g.table })}：${who}；${state}` : `${t('table_n', { n: g.table })}: ${who}; ${state}`;
}
