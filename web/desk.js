/*
 * desk.js -- the arbiter's desk (#arbiter, docs/web.md), a staff module:
 * loaded by session.js for an arbiter or admin token, never by a viewer.
 * The games needing attention with the ruling's sentence in both
 * languages, every game of the round in a table, and one button per
 * operation (a result, a foul, pause, resume, confirm); a result that
 * replaces another is asked for first and can be undone with one click.
 */
import { S, $, el, t, op, resultText, gameFlags } from './core.js';
import { showOpResult } from './session.js';

/* The result op's code of a game's result ('*' has none: play goes on). */
const RESULT_CODE = { '1-0': '1-0', '0-1': '0-1', '1/2-1/2': '=', '+-': '+-', '-+': '-+', '--': '--' };

/* Send operation `req` for `table` of the round on screen and say the
 * answer; `undo` ({round, result}) offers the old result back. */
async function act(table, req, label, undo) {
  const res = await op(Object.assign({ id: Date.now(), round: S.round, table }, req));
  if (res.error && res.error.code === 'CONFLICT' && undo && req.op === 'result' && !req.confirm) {
    // a round the knockout was seeded on: the server says so; changed
    // only when asked again (docs/tourney.md)
    return showOpResult(t('failed', { msg: `${res.error.code}: ${res.error.msg}` }) + ' ', true,
      el('button', { type: 'button', class: 'force',
        onclick: () => act(table, Object.assign({}, req, { confirm: true }), label, Object.assign({}, undo, { confirm: true })) },
        t('change_anyway')));
  }
  if (res.error) return showOpResult(t('failed', { msg: `${res.error.code}: ${res.error.msg}` }), true);
  if (!undo) return showOpResult(t('done', { op: label, t: table }), false);
  // a finished game's result was changed: one click takes it back
  showOpResult(t('done', { op: label, t: table }) + ' ', false, el('button', { type: 'button', class: 'undo',
    onclick: async () => {
      const back = await op(Object.assign({ id: Date.now(), op: 'result', round: undo.round, table,
        result: RESULT_CODE[undo.result] }, undo.confirm ? { confirm: true } : {}));
      if (back.error) showOpResult(t('failed', { msg: `${back.error.code}: ${back.error.msg}` }), true);
      else showOpResult(t('undone', { t: table, res: resultText(undo.result) }), false);
    } }, t('undo')));
}

/* The question open on the desk, if any: {round, table, result, req, key,
 * attention}. The desk is drawn again whenever any game changes (a move on
 * another table), and the question is drawn again with it; it goes when it
 * is answered, or when the game's result changed under it. */
let asking = null;

/* A result for a game that has one changes the standings: asked first,
 * in place, with the old and the new result. */
function confirmChange(box, g, req, key, attention) {
  asking = { round: S.round, table: g.table, result: g.result, req, key, attention: !!attention };
  box.append(question(g, asking));
}

/* The question `q` about game g, as a box with Yes and No. */
function question(g, q) {
  const now = { round: q.round, result: q.result };
  const ask = el('div', { class: 'confirm', role: 'alertdialog' },
    el('span', { text: t('confirm_change', { t: g.table, old: resultText(q.result), new: t(q.key) }) }),
    el('button', { type: 'button', 'data-action': 'yes', onclick: ev => {
      ev.stopPropagation(); asking = null; ask.remove();
      act(g.table, q.req, t(q.key), RESULT_CODE[now.result] ? now : null); } },
      t('yes_change')),
    el('button', { type: 'button', 'data-action': 'no', onclick: ev => {
      ev.stopPropagation(); asking = null; ask.remove(); } },
      t('no_change')));
  return ask;
}

/* The open question about g, if it is still the question to ask. */
function openQuestion(g, attention) {
  if (!asking || asking.round !== S.round || asking.table !== g.table) return null;
  if (asking.result !== g.result) { asking = null; return null; } // answered elsewhere
  return asking.attention === !!attention ? question(g, asking) : null;
}

/* A game's buttons (Confirm first when it is listed for attention). */
function actions(g, attention) {
  const box = el('div', { class: 'actions' });
  if (attention && !g.needs_arbiter) {
    // the adjudicator's ruling (a foul, a must-change order) stands: seen
    box.append(el('button', { type: 'button', 'data-action': 'a_confirm',
      onclick: ev => { ev.stopPropagation(); confirmSeen(g); } }, t('a_confirm')));
  }
  const add = (key, req) => box.append(el('button', { type: 'button', 'data-action': key,
    onclick: ev => {
      ev.stopPropagation();
      const finished = req.op === 'result' && g.result !== '*' && req.result !== 'none';
      box.querySelector('.confirm')?.remove();
      asking = null;
      // the result it has already: no change, nothing sent
      if (finished && RESULT_CODE[g.result] === req.result)
        showOpResult(t('same_result', { t: g.table, res: resultText(g.result) }), false);
      else if (finished) confirmChange(box, g, req, key, attention);
      else act(g.table, req, t(key));
    } }, t(key)));
  if (g.needs_arbiter) add('a_play_on', { op: 'result', result: 'none' });
  add('a_10', { op: 'result', result: '1-0' });
  add('a_draw', { op: 'result', result: '=' });
  add('a_01', { op: 'result', result: '0-1' });
  if (g.result === '*') {
    add('a_foul_red', { op: 'foul', side: 'red' });
    add('a_foul_black', { op: 'foul', side: 'black' });
    add(g.paused ? 'a_resume' : 'a_pause', { op: g.paused ? 'resume' : 'pause' });
  }
  const q = openQuestion(g, attention);
  if (q) box.append(q);
  return box;
}

/* What the arbiter has seen of a game: a confirmed state leaves the list
 * until something new happens to the game (kept for the session). */
function attentionKey(g) {
  return [g.moves.length, g.fouls ? g.fouls.join('/') : '', g.must_change || '', g.paused ? 'p' : ''].join(';');
}

function confirmed(g) {
  return JSON.parse(sessionStorage.getItem('xqref.confirmed') || '{}')[`${S.round}.${g.table}`] === attentionKey(g);
}

function confirmSeen(g) {
  const all = JSON.parse(sessionStorage.getItem('xqref.confirmed') || '{}');
  all[`${S.round}.${g.table}`] = attentionKey(g);
  sessionStorage.setItem('xqref.confirmed', JSON.stringify(all));
  renderDesk();
}

/* A game waiting for the arbiter, or with a ruling not yet confirmed. */
function needsAttention(g) {
  if (g.needs_arbiter) return true; // play stands still until a ruling
  if (g.result !== '*' || confirmed(g)) return false;
  return !!(g.must_change || g.paused || (g.fouls && (g.fouls[0] || g.fouls[1])));
}

/* The desk (session.js shows it to a staff token): the games needing
 * attention and every game of the round. */
export function renderDesk() {
  const games = [...S.games.values()].sort((a, b) => a.table - b.table);
  const items = games.filter(needsAttention).map(g => {
    const v = g.lastVerdict;
    return el('div', { class: 'item', 'data-table': g.table },
      el('p', {}, el('strong', { text: t('table_n', { n: g.table }) }), ' ',
        `${g.red ? g.red.name : ''} ${t('vs')} ${g.black ? g.black.name : ''}`,
        g.result !== '*' ? el('span', { class: 'result', 'data-result': g.result, text: ' ' + resultText(g.result) }) : null),
      el('p', {}, ...gameFlags(g).map(([cls, text]) => el('span', { class: 'tag ' + cls, text }))),
      v && (v.zh || v.en) ? el('p', { class: 'verdict', text: S.lang === 'zh' ? v.zh : v.en }) : null,
      v && (v.zh || v.en) ? el('p', { class: 'verdict-other', lang: S.lang === 'zh' ? 'en' : 'zh',
        text: (S.lang === 'zh' ? v.en : v.zh) + (v.rule ? ` [${t('rule_article')} ${v.rule}]` : '') }) : null,
      actions(g, true));
  });
  $('#attention').replaceChildren(...(items.length ? items : [el('p', { class: 'empty', text: t('no_attention') })]));
  $('#arbiter-games thead').replaceChildren(el('tr', {},
    el('th', { class: 'num', text: t('table') }), el('th', { text: t('red') }), el('th', { text: t('black') }),
    el('th', { text: t('result') }), el('th', { text: t('state') }), el('th', { text: t('act') })));
  $('#arbiter-games tbody').replaceChildren(...games.map(g => el('tr', { 'data-table': g.table },
    el('td', { class: 'num', text: g.table }),
    el('td', { class: 'red-name', text: g.red ? g.red.name : '' }),
    el('td', { text: g.black ? g.black.name : '' }),
    el('td', { class: 'result', 'data-result': g.result, text: resultText(g.result) }),
    el('td', { text: gameFlags(g).map(x => x[1]).join(' · ') }),
    el('td', {}, actions(g)))));
}
