/*
 * desk.js -- the arbiter's desk (#arbiter, docs/web.md), a staff module:
 * loaded by session.js for an arbiter or admin token, never by a viewer.
 * The games needing attention with every ruling not yet seen, its
 * sentence in both languages and its article; the game chosen (a click on
 * its table) with its board, clocks, ply count and moves, a repetition's
 * cycle marked; every game of the round in a table; the round's log of
 * rulings, each marked seen for every arbiter (the seen op); one button per
 * operation (a result or a forfeit, a foul, pause, resume, seen); a
 * result that ends a game in play or replaces another is asked for first,
 * naming the game, and can be undone with one click (a game in play is
 * resumed: the result op's `none`); a line typed by table number ("3 1-0",
 * "5 -+"), on the desk and on the console, enters a result as a click does.
 */
import { S, $, el, t, op, resultText, reasonText, gameFlags, roundName, askFirst } from './core.js';
import { showOpResult } from './session.js';
import { positionAt, boardSvg, labelled, clockText, runningClock, moveRows, matchOfTable, matchTitle } from './views.js';

/* The result op's code of a game's result ('*' has none: play goes on). */
const RESULT_CODE = { '1-0': '1-0', '0-1': '0-1', '1/2-1/2': '=', '+-': '+-', '-+': '-+', '--': '--' };

/* The result op's code that puts a game back as it was: its old result,
 * or `none` (play resumes) for a game that was in play. */
const backCode = res => res === '*' ? 'none' : RESULT_CODE[res];

/* The keys of the result buttons by the result op's code. */
const RESULT_KEY = { '1-0': 'a_10', '=': 'a_draw', '0-1': 'a_01', '+-': 'a_f10', '-+': 'a_f01', '--': 'a_f00' };

/* Where the answers are said: the line under the desk, unless a line
 * typed on the console asked (its own line, console.js). */
let say = showOpResult;

/* Send operation `req` for `table` of the round on screen and say the
 * answer; `undo` ({round, result}) offers the old result back ('*': the
 * game resumed). */
async function act(table, req, label, undo) {
  const out = say;
  const res = await op(Object.assign({ id: Date.now(), round: S.round, table }, req));
  if (res.error && res.error.code === 'CONFLICT' && undo && req.op === 'result' && !req.confirm) {
    // a round the knockout was seeded on: the server says so; changed
    // only when asked again (docs/tourney.md)
    return out(t('failed', { msg: `${res.error.code}: ${res.error.msg}` }) + ' ', true,
      el('button', { type: 'button', class: 'force',
        onclick: () => act(table, Object.assign({}, req, { confirm: true }), label, Object.assign({}, undo, { confirm: true })) },
        t('change_anyway')));
  }
  if (res.error) return out(t('failed', { msg: `${res.error.code}: ${res.error.msg}` }), true);
  if (!undo) return out(t('done', { op: label, t: table }), false);
  // a result was changed or a game ended: one click takes it back
  out(t('done', { op: label, t: table }) + ' ', false, el('button', { type: 'button', class: 'undo',
    onclick: async () => {
      const back = await op(Object.assign({ id: Date.now(), op: 'result', round: undo.round, table,
        result: backCode(undo.result) }, undo.confirm ? { confirm: true } : {}));
      if (back.error) out(t('failed', { msg: `${back.error.code}: ${back.error.msg}` }), true);
      else if (undo.result === '*') out(t('resumed', { t: table }), false);
      else out(t('undone', { t: table, res: resultText(undo.result) }), false);
    } }, t(undo.result === '*' ? 'resume_game' : 'undo')));
}

/* The question open on the desk, if any: {round, table, result, req, key,
 * attention}. The desk is drawn again whenever any game changes (a move on
 * another table), and the question is drawn again with it; it goes when it
 * is answered, or when the game's result changed under it. */
let asking = null;

/* A result for a game that has one changes the standings, and one for a
 * game in play ends it: asked first, in place, naming the game (table and
 * players) with the old and the new result. */
function confirmChange(box, g, req, key, attention, more) {
  asking = Object.assign({ round: S.round, table: g.table, result: g.result, req, key,
    attention: attention || false }, more);
  box.append(question(g, asking));
}

/* What a result changed in round r says of the Swiss rounds published
 * after it: paired on the old result, and not paired again. */
function laterRounds(r) {
  const later = ((S.event && S.event.published) || []).filter(n => n > r && n < 50);
  return later.length ? ' ' + t('confirm_later', { rs: later.map(roundName).join(S.lang === 'zh' ? '、' : ', ') }) : '';
}

/* The question `q` about game g, as a box with Yes and No (Yes takes the
 * focus: Enter answers it, Escape says no). */
function question(g, q) {
  const now = { round: q.round, result: q.result };
  const live = q.result === '*';
  const game = `${g.red ? g.red.name : ''} ${t('vs')} ${g.black ? g.black.name : ''}`;
  const text = live ? t('confirm_end', { t: g.table, game, new: t(q.key) })
    : t('confirm_change', { r: roundName(q.round), t: g.table, game, old: resultText(q.result), new: t(q.key) }) + laterRounds(q.round);
  return askFirst(text, t(live ? 'yes_end' : 'yes_change'), t('no_change'), yes => {
    asking = null;
    q.done?.(yes);
    if (yes) act(g.table, q.req, t(q.key), RESULT_CODE[now.result] || live ? now : null);
  }, { focus: !!q.focus, attrs: { 'data-live': live ? '1' : null } });
}

/* The open question about g, if it is still the question to ask. */
function openQuestion(g, attention) {
  if (!asking || asking.round !== S.round || asking.table !== g.table) return null;
  if (asking.result !== g.result) { asking = null; return null; } // answered elsewhere
  return asking.attention === (attention || false) ? question(g, asking) : null;
}

/* Operation `req` (button `key`) on game g, from `box`: a result that
 * ends or changes a game is asked first, the same one again is said and
 * not sent, anything else is sent. `attention`: where the box is (true
 * the game's item in the list, 'panel' the game shown, 'entry' a typed
 * line's, none its row in All games: a question shows in its own box);
 * `done` runs once answered. */
function decide(box, g, req, key, attention, done) {
  const result = req.op === 'result' && req.result !== 'none';
  box.querySelector('.confirm')?.remove();
  asking = null;
  // the result it has already: no change, nothing sent
  if (result && g.result !== '*' && RESULT_CODE[g.result] === req.result) {
    say(t('same_result', { t: g.table, res: resultText(g.result) }), false);
    done?.(false);
  } else if (result) {
    if (attention === 'entry') box.replaceChildren();
    confirmChange(box, g, req, key, attention, { done, focus: attention === 'entry' });
  } else {
    act(g.table, req, t(key));
  }
}

/* A game's buttons (Confirm first when it is listed for attention). */
function actions(g, attention) {
  const box = el('div', { class: 'actions' });
  if (attention && !g.needs_arbiter && unseen(g)) {
    // the adjudicator's rulings stand: seen, for every arbiter
    box.append(el('button', { type: 'button', 'data-action': 'a_confirm',
      onclick: ev => { ev.stopPropagation(); markSeen(g); } }, t('a_confirm')));
  }
  const add = (key, req) => box.append(el('button', { type: 'button', 'data-action': key,
    onclick: ev => { ev.stopPropagation(); say = showOpResult; decide(box, g, req, key, attention); } }, t(key)));
  if (g.needs_arbiter) add('a_play_on', { op: 'result', result: 'none' });
  for (const code in RESULT_KEY) add(RESULT_KEY[code], { op: 'result', result: code });
  if (g.result === '*') {
    add('a_foul_red', { op: 'foul', side: 'red' });
    add('a_foul_black', { op: 'foul', side: 'black' });
    add(g.paused ? 'a_resume' : 'a_pause', { op: g.paused ? 'resume' : 'pause' });
  }
  const q = openQuestion(g, attention);
  if (q) box.append(q);
  return box;
}

/* An arbiter's own result (the result op) is seen as it is given: it
 * asks nobody's attention. */
const given = v => v.event === 'arbiter_result';

/* Whether ruling i of game g has been seen: marked so by an arbiter (the
 * first g.seen), or an arbiter's own result. */
const isSeen = (g, i) => i < (g.seen || 0) || given(g.rulings[i]);

/* How many of game g's rulings no arbiter has seen. */
const unseen = g => g.rulings.filter((v, i) => !isSeen(g, i)).length;

/* Every ruling of g so far marked seen, for every arbiter (the seen op:
 * kept by the server, told to every desk by a `seen` event). */
async function markSeen(g) {
  const n = g.rulings.length;
  const res = await op({ id: Date.now(), op: 'seen', round: S.round, table: g.table, seen: n });
  if (res.error) return say(t('failed', { msg: `${res.error.code}: ${res.error.msg}` }), true);
  g.seen = res.seen;
  renderDesk();
}

/* A game waiting for the arbiter, or with a ruling no arbiter has seen
 * (an automatic one too: a perpetual check, a flag fall, a loss on a
 * second foul end the game and stay listed until seen). */
function needsAttention(g) {
  return !!g.needs_arbiter || unseen(g) > 0;
}

/* ---- a ruling in words: its sentence in the page's language, then in
 * the other with its article ---- */

const other = () => S.lang === 'zh' ? 'en' : 'zh';

function rulingLines(v) {
  const article = v.rule ? ` [${t('rule_article')} ${v.rule}]` : '';
  return [el('p', { class: 'verdict', text: (S.lang === 'zh' ? v.zh : v.en) || '' }),
    el('p', { class: 'verdict-other', lang: other(), text: ((S.lang === 'zh' ? v.en : v.zh) || '') + article })];
}

/* The plies [first, last] (1 = the first move) of the cycle a repetition
 * ruling v judged in game g: where its moves end in the game's moves, at
 * the ply it was made (the verdict's `ply` counts the plies before its
 * event) or before; null for a ruling without a cycle. */
function cyclePlies(g, v) {
  const cyc = v.cycle && v.moves ? v.moves.map(m => m.toLowerCase()) : null;
  if (!cyc || !cyc.length) return null;
  for (let end = Math.min(g.moves.length, (v.ply || 0) + 1); end >= cyc.length; end--)
    if (cyc.every((m, i) => g.moves[end - cyc.length + i].toLowerCase() === m)) return [end - cyc.length + 1, end];
  return null;
}

/* The ply a ruling is shown at: its cycle's last move, else the plies
 * played before it. */
function rulingPly(g, v) {
  const c = cyclePlies(g, v);
  return c ? c[1] : v.ply || 0;
}

let entryWired = false; // the desk's typed line (initEntry), once

/* The game shown on the desk (a click on its table): its table, and the
 * ply shown (null: the last, following the game). */
const shown = { table: 0, ply: null };

const players = g => `${g.red ? g.red.name : ''} ${t('vs')} ${g.black ? g.black.name : ''}`;

/* A finished game's result and why, in words: 黑胜 0-1（长将）. */
const resultWords = g => g.result === '*' ? '' : resultText(g.result) + reasonText(g.reason);

/* Show game `table` on the desk (0: none), at its last ply, its heading
 * in sight under the page's header (which stays at the top). */
function showGame(table) {
  shown.table = table;
  shown.ply = null;
  renderDesk();
  if (!table) return;
  const box = $('#desk-game'), head = document.querySelector('header');
  const top = box.getBoundingClientRect().top, under = head ? head.getBoundingClientRect().bottom : 0;
  if (top < under || top > innerHeight / 2) scrollBy({ top: top - under - 8 });
}

/* A game's item in the list of games needing attention: its rulings not
 * yet seen, each in both languages with its article. */
function attentionItem(g) {
  const fresh = g.rulings.filter((v, i) => !isSeen(g, i));
  const v = g.lastVerdict;
  const lines = fresh.length ? fresh.flatMap(rulingLines) : v && (v.zh || v.en) ? rulingLines(v) : [];
  return el('div', { class: 'item', 'data-table': g.table },
    el('p', {}, el('strong', { text: t('table_n', { n: g.table }) }), ' ', players(g),
      g.result !== '*' ? el('span', { class: 'result', 'data-result': g.result, text: ' ' + resultWords(g) }) : null),
    el('p', {}, ...gameFlags(g).map(([cls, text]) => el('span', { class: 'tag ' + cls, text }))),
    ...lines,
    el('p', {}, el('button', { type: 'button', class: 'link', 'data-action': 'show',
      onclick: () => showGame(g.table) }, t('d_show'))),
    actions(g, true));
}

/* The game shown: its board at the ply chosen, both clocks (running for
 * the side to move), the ply count, the moves (a repetition ruling's
 * cycle marked), its rulings, a link to the viewer and its buttons. */
function renderShown() {
  const box = $('#desk-game');
  const g = shown.table && S.games.get(shown.table);
  box.hidden = !g;
  if (!g) return box.replaceChildren();
  const total = g.moves.length, n = shown.ply === null ? total : Math.min(shown.ply, total);
  const pos = positionAt(g, n);
  const cycles = g.rulings.map(v => cyclePlies(g, v)).filter(Boolean);
  const inCycle = k => cycles.some(([a, b]) => k >= a && k <= b) ? 'cycle' : '';
  const pick = k => { shown.ply = k === total ? null : k; renderDesk(); };
  const clock = (side, name) => el('div', { class: 'player ' + (side ? 'black' : 'red') },
    el('span', { class: 'name', text: name }),
    el('span', { class: 'clock', 'data-side': side, 'data-table': g.table,
      text: g.clock ? clockText(runningClock(g, side)) : '' }));
  const rulings = g.rulings.map((v, i) => el('li', { 'data-index': i, 'data-seen': isSeen(g, i) ? '1' : '0' },
    el('button', { type: 'button', class: 'link', 'data-ply': rulingPly(g, v), onclick: () => pick(rulingPly(g, v)) },
      t('ply', { n: rulingPly(g, v) })), ' ', ...rulingLines(v)));
  box.replaceChildren(
    el('h2', {}, `${t('table_n', { n: g.table })} · ${players(g)}`, matchTag(g.table),
      el('button', { type: 'button', class: 'close', 'aria-label': t('d_close'), onclick: () => showGame(0) }, '×')),
    el('div', { class: 'desk-game-body' },
      el('div', { class: 'viewer-board' }, clock(1, g.black ? g.black.name : ''),
        labelled(boardSvg(pos.board, pos.last), `${t('table_n', { n: g.table })} · ${t('ply', { n })}`),
        clock(0, g.red ? g.red.name : '')),
      el('div', { class: 'viewer-side' },
        el('p', { class: 'state' }, el('span', { class: 'ply-count', 'data-ply': n, 'data-total': total,
          text: t('d_ply', { n, total }) }), g.result !== '*' ? ' · ' + resultWords(g) : '',
          ...gameFlags(g).map(x => ' · ' + x[1])),
        el('ol', { class: 'moves' }, ...moveRows(g, n, pick, inCycle)),
        cycles.length ? el('p', { class: 'caption', text: t('d_cycle_note') }) : null,
        el('h3', { text: t('d_rulings') }),
        rulings.length ? el('ol', { class: 'd-rulings' }, ...rulings) : el('p', { class: 'empty', text: t('d_no_rulings') }),
        el('p', { class: 'links' }, el('a', { href: `#game/${S.round}/${g.table}`, text: t('d_viewer') })),
        actions(g, 'panel'))));
}

/* The round's log of rulings: every ruling of every game, in table and
 * ply order, each with its sentences, its article and whether the
 * arbiters have seen it. */
function renderLog(games) {
  const rows = [];
  for (const g of games) g.rulings.forEach((v, i) => {
    const seen = isSeen(g, i);
    rows.push(el('tr', { 'data-table': g.table, 'data-index': i, 'data-seen': seen ? '1' : '0', class: seen ? 'seen' : '' },
      el('td', { class: 'num' }, el('button', { type: 'button', class: 'link', onclick: () => showGame(g.table) },
        String(g.table))),
      el('td', { class: 'num', text: rulingPly(g, v) }),
      el('td', {}, ...rulingLines(v)),
      el('td', { class: 'article', text: v.rule || '' }),
      el('td', {}, seen ? t('d_seen') : el('button', { type: 'button', 'data-action': 'seen',
        onclick: () => markSeen(g) }, t('d_mark_seen')))));
  });
  $('#rulings-log thead').replaceChildren(el('tr', {}, el('th', { class: 'num', text: t('table') }),
    el('th', { class: 'num', text: t('d_ply_h') }), el('th', { text: t('d_ruling') }), el('th', { text: t('rule_article') }),
    el('th', { text: t('d_seen_h') })));
  $('#rulings-log tbody').replaceChildren(...(rows.length ? rows
    : [el('tr', {}, el('td', { colspan: 5, class: 'empty', text: t('d_no_rulings') }))]));
}

/* A team round's game: its match and board under its table number
 * (第1场 A 1½–½ B · 第2台), or null. */
function matchTag(table) {
  const mb = matchOfTable(table);
  return mb ? el('div', { class: 'match-tag', 'data-match': mb.m.match,
    text: `${t('tv_match_n', { n: mb.m.match })} ${matchTitle(mb.m)} · ${t('tv_board', { n: mb.b.board })}` }) : null;
}

/* The desk (session.js shows it to a staff token): the games needing
 * attention, the game shown, every game of the round, the round's
 * rulings. */
export function renderDesk() {
  if (!entryWired) {
    entryWired = true;
    initEntry($('#entry'), showOpResult);
  }
  const games = [...S.games.values()].sort((a, b) => a.table - b.table);
  const items = games.filter(needsAttention).map(attentionItem);
  $('#attention').replaceChildren(...(items.length ? items : [el('p', { class: 'empty', text: t('no_attention') })]));
  renderShown();
  $('#arbiter-games thead').replaceChildren(el('tr', {},
    el('th', { class: 'num', text: t('table') }), el('th', { text: t('red') }), el('th', { text: t('black') }),
    el('th', { text: t('result') }), el('th', { text: t('state') }), el('th', { text: t('act') })));
  $('#arbiter-games tbody').replaceChildren(...games.map(g => el('tr', { 'data-table': g.table,
    class: g.table === shown.table ? 'shown' : '' },
    el('td', { class: 'num' }, el('button', { type: 'button', class: 'link', 'data-action': 'show',
      title: t('d_show'), onclick: () => showGame(g.table) }, String(g.table)), matchTag(g.table)),
    el('td', { class: 'red-name', text: g.red ? g.red.name : '' }),
    el('td', { text: g.black ? g.black.name : '' }),
    el('td', { class: 'result', 'data-result': g.result, text: resultText(g.result) }),
    el('td', { class: 'state', text: [g.result !== '*' ? reasonText(g.reason).replace(/^[（ (]+|[）)]$/g, '') : '',
      ...gameFlags(g).map(x => x[1]), unseen(g) ? t('d_unseen', { n: unseen(g) }) : ''].filter(Boolean).join(' · ') }),
    el('td', {}, actions(g)))));
  renderLog(games);
}

/* ---- results typed by table number ---- */

/* The result op's code of a result as an arbiter types it. */
const TYPED = { '1-0': '1-0', '0-1': '0-1', '=': '=', '½-½': '=', '1/2-1/2': '=', '1/2': '=', '0.5-0.5': '=',
  '+-': '+-', '-+': '-+', '--': '--' };

/* A typed line "T CODE" (table T of the round on screen; CODE one of
 * TYPED, ASCII or full-width digits and signs): {table, code}, or null. */
export function parseEntry(line) {
  const half = String(line).replace(/[\uff01-\uff5e]/g, c => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/[\u2212\u2013\u2014]/g, '-'); // a minus or a dash typed for '-'
  const m = /^\s*(\d{1,4})\s*[\s:]\s*(\S+)\s*$/.exec(half);
  return m && TYPED[m[2]] ? { table: +m[1], code: TYPED[m[2]] } : null;
}

/* The result entry's parts into the empty `form` (the desk's and the
 * console's are one form): the field "line", its button, its help (id
 * FORM-help) and the box .entry-ask for its question; words by their
 * data-i18n keys, so that a language switch redraws them. */
function entryParts(form) {
  const help = form.id + '-help', word = k => ({ 'data-i18n': k, text: t(k) });
  form.replaceChildren(
    el('label', {}, el('span', word('entry_label')), el('input', { name: 'line', size: 10, autocomplete: 'off',
      spellcheck: 'false', placeholder: '3 1-0', 'aria-describedby': help })),
    el('button', Object.assign({ type: 'submit' }, word('entry_go'))),
    el('span', Object.assign({ id: help, class: 'caption' }, word('entry_help'))),
    el('div', { class: 'entry-ask' }));
}

/* Fill `form` with the result entry and wire it: a line typed enters a
 * result at its table of the round on screen as the table's button would
 * (asked first when it ends or changes a game); the answers are said by
 * `out(text, error, ...nodes)`. After a question the field has the focus
 * again, emptied when it was answered yes. */
export function initEntry(form, out) {
  entryParts(form);
  const field = form.elements.line, box = form.querySelector('.entry-ask');
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    say = out;
    const e = parseEntry(field.value);
    if (!e) return out(t('entry_bad', { line: field.value.trim() }), true);
    const g = S.games.get(e.table);
    if (!g) return out(t('entry_no_table', { t: e.table, r: roundName(S.round) }), true);
    decide(box, g, { op: 'result', result: e.code }, RESULT_KEY[e.code], 'entry', yes => {
      if (yes) field.value = '';
      field.focus();
    });
  });
}
