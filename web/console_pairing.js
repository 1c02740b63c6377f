/*
 * console_pairing.js -- the rounds in the organiser's console
 * (docs/web.md, sections 编排 and 淘汰赛), a staff module: the next Swiss
 * round previewed (`pair` without `publish`: nothing stored), changed by
 * hand with a reason each, then published; the board slips of the round
 * on screen; the knockout started (ko_start) and each stage's next games
 * published to knockout tables (ko_publish).
 */
import { S, $, el, t, op, getJSON, addWords, roundName, askFirst } from './core.js';
import { stageName } from './views.js';
import { C, consoleSay, redraw, errText, warnText } from './console_base.js';

/* What cannot be taken back (a round published, the knockout started, its
 * next games published) is asked first, naming it: the question goes
 * after `anchor`, one at a time; `action` runs on Yes, nothing is sent
 * before. No gives the focus back to `button`. */
function askThen(anchor, button, text, action) {
  dropAsk(anchor);
  // not anchor.after(): the knockout form has a field named "after"
  anchor.insertAdjacentElement('afterend', askFirst(text, t('c_yes'), t('c_cancel'),
    yes => yes ? action() : button.focus(), { attrs: { class: 'confirm c-ask' } }));
}

/* The question asked after `anchor`, if any, gone (nothing sent). */
function dropAsk(anchor) {
  anchor.parentNode.querySelector(':scope > .confirm.c-ask')?.remove();
}

/* ---- the next round: previewed, changed by hand (two players trade
 * places, a table's colours swap, a table moves), each change with its
 * reason, the preview following each one with the absolute rules it breaks
 * and the tables it moved marked; then published, the changes listed under
 * the published pairing ---- */

/* A change as the pair operation takes it, and in words. */
function changeReq(c) {
  const k = c.kind === 'colours' ? { colours: c.a } : { [c.kind]: [c.a, c.b] };
  return Object.assign(k, { reason: c.reason });
}
function changeText(c) {
  return c.kind === 'swap' ? `${t('c_swap')}: ${c.a} ↔ ${c.b}` : c.kind === 'colours' ? `${t('c_colours')}: ${c.a}`
    : `${t('c_move')}: ${c.a} → ${c.b}`;
}

function renderChanges() {
  $('#c-changes-list').replaceChildren(...C.changes.map((c, i) => el('li', { 'data-change': i },
    `${changeText(c)} — ${c.reason} `, el('button', { type: 'button', onclick: () => { C.changes.splice(i, 1); pairPreview(false); } },
      t('c_remove')))));
}

async function addChange(form) {
  const c = { kind: form.elements.kind.value, a: +form.elements.a.value, b: +form.elements.b.value,
    reason: form.elements.reason.value.trim() };
  if (!c.reason) return consoleSay(t('c_need_reason'), true);
  C.changes.push(c);
  form.reset();
  await pairPreview(false);
}

/* The next round: a preview first (nothing stored), then published. */
async function pairPreview(publish) {
  dropAsk($('#c-publish').closest('p')); // it asked about the pairing on screen
  const req = { id: 'pair', op: 'pair', publish: !!publish };
  if (C.changes.length) req.changes = C.changes.map(changeReq);
  const res = await op(req);
  if (res.error) {
    if (!publish && C.changes.length && res.error.code === 'BAD_REQUEST') C.changes.pop(); // the change just added
    renderChanges();
    return consoleSay(t('failed', { msg: errText(res.error) }), true);
  }
  if (!publish && !C.changes.length) C.base = res.boards; // the pairer's own, to mark what the changes moved
  const made = C.changes;
  C.pairing = publish ? null : res;
  if (publish) C.changes = [];
  renderChanges();
  $('#c-amend').hidden = publish;
  $('#c-warnings').replaceChildren(...(res.warnings && res.warnings.length
    ? [el('p', { class: 'error', text: t('c_warnings') }), el('ul', {}, ...res.warnings.map(w => el('li', { text: warnText(w) })))] : []));
  $('#c-pairing').replaceChildren(...[el('h3', { text: publish ? t('c_published', { n: res.round, b: res.boards.length }) : t('c_pair', { n: res.round }) }),
    sameUnitNote(res.boards), pairingTable(res.boards, publish, made.length ? C.base : null),
    publish && made.length ? el('div', { id: 'c-published-changes' }, el('h4', { text: t('c_published_changes', { n: res.round }) }),
      el('ul', {}, ...made.map(c => el('li', { text: `${changeText(c)} — ${c.reason}` })))) : null].filter(Boolean));
  if (publish) consoleSay(t('c_published', { n: res.round, b: res.boards.length }), false);
  redraw();
}

/* The unit (单位) a player of the pairing plays for: the club, else the
 * team, from the console's list of players; '' when neither is known. */
function unitOf(info, p) {
  const q = p ? info.get(p.id) || {} : {};
  return (q.club || q.team || '').trim();
}

/* The unit both players of board `b` share, or ''. */
function sameUnit(info, b) {
  const u = unitOf(info, b.red);
  return u && u === unitOf(info, b.black) ? u : '';
}

/* The boards where two players of the same unit meet (同单位回避 is the
 * rule of many events: the organiser decides, with a change by hand),
 * listed above the pairing; null when there is none. */
function sameUnitNote(boards) {
  const info = new Map((C.players || []).map(p => [p.id, p]));
  const same = boards.filter(b => sameUnit(info, b));
  if (!same.length) return null;
  return el('p', { id: 'c-same-unit', class: 'error' }, t('c_same_unit_note', { n: same.length }),
    same.map(b => ` ${t('table_n', { n: b.table })} ${b.red.name} — ${b.black.name}（${sameUnit(info, b)}）`).join('；'));
}

/* A pairing as the arbiter checks it: each side's number and name, club,
 * rating and points before the round; the rows the changes moved (from
 * `base`, the pairer's own boards) and those where two players of one
 * unit meet marked. */
function pairingTable(boards, published, base) {
  const info = new Map((C.players || []).map(p => [p.id, p]));
  const side = (p, cls) => {
    const q = p ? info.get(p.id) || {} : {};
    return [el('td', { class: cls, text: p ? `${p.no}. ${p.name}` : t('bye') }), el('td', { text: q.club || q.region || '' }),
      el('td', { class: 'num', text: q.rating || '' }), el('td', { class: 'num', text: p ? p.points : '' })];
  };
  const key = b => `${b.red ? b.red.id : 0}-${b.black ? b.black.id : 0}`;
  const was = base ? new Map(base.map(b => [b.table, key(b)])) : null;
  const head = ['red', 'club', 'c_rating_short', 'c_points', 'black', 'club', 'c_rating_short', 'c_points'];
  return el('div', { class: 'scroll' }, el('table', { class: 'grid', 'data-published': published ? 'yes' : 'no' },
    el('thead', {}, el('tr', {}, el('th', { class: 'num', text: t('table') }),
      ...head.map(k => el('th', { class: /^c_(rating|points)/.test(k) ? 'num' : null, text: t(k) })))),
    el('tbody', {}, ...boards.map(b => {
      const moved = was && was.get(b.table) !== key(b), unit = sameUnit(info, b);
      const cls = [moved ? 'changed' : '', unit ? 'same-unit' : ''].filter(Boolean).join(' ');
      const title = [moved ? t('c_changed') : '', unit ? t('c_same_unit', { u: unit }) : ''].filter(Boolean).join('；');
      return el('tr', { 'data-table': b.table, 'data-same-unit': unit || null, class: cls || null, title: title || null },
        el('td', { class: 'num', text: b.table }), ...side(b.red, 'red-name'), ...side(b.black, 'black-name'));
    }))));
}

/* After a change to the players the pairing on screen is out of date:
 * it goes, and is asked for again. */
export function pairingStale() {
  C.pairing = null;
  dropAsk($('#c-publish').closest('p'));
  $('#c-pairing').replaceChildren();
  $('#c-warnings').replaceChildren();
}

/* The round previewed, published once the organiser says yes. */
function askPublish(btn) {
  if (!C.pairing) return;
  askThen(btn.closest('p'), btn, t('c_ask_publish', { n: C.pairing.round, b: C.pairing.boards.length }),
    () => pairPreview(true));
}

/* ---- the last published round withdrawn while none of its games has
 * begun (`unpair`), to be paired again; the server refuses it, with the
 * reason, once one has ---- */

/* Whether a game of games.json has begun: a move, a result, a clock, a foul. */
const begun = g => g.ply > 0 || (g.result && g.result !== '*') || !!g.clock || (g.fouls || []).some(n => n > 0);

/* The 撤回第N轮 button: shown for `last`, the last published Swiss round,
 * while none of its games has begun and no knockout has started. */
export async function renderUnpair(last) {
  const btn = $('#c-unpair');
  btn.hidden = true;
  btn.dataset.round = last || '';
  if (!last || (S.event && S.event.knockout_round)) return;
  let games;
  try {
    games = (await getJSON(`/api/rounds/${last}/games.json`)).games || [];
  } catch (e) {
    return;
  }
  if (btn.dataset.round !== String(last) || games.some(begun)) return; // drawn again meanwhile, or begun
  btn.textContent = t('c_unpair', { n: last });
  btn.hidden = false;
}

/* The round withdrawn once the organiser says yes; the console then
 * offers to pair it again. */
function askUnpair(btn) {
  const round = +btn.dataset.round;
  if (!round) return;
  askThen(btn.closest('p'), btn, t('c_ask_unpair', { n: round }), async () => {
    const res = await op({ id: 'unpair', op: 'unpair', round });
    if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
    pairingStale();
    S.event = await getJSON('/api/event');
    consoleSay(t('c_unpaired', { n: round }), false);
    redraw();
  });
}

/* The buttons and the form of the pairing section. */
export function initPairing() {
  $('#c-pair').addEventListener('click', () => pairPreview(false));
  $('#c-unpair').addEventListener('click', ev => askUnpair(ev.currentTarget));
  $('#c-amend').addEventListener('submit', e => { e.preventDefault(); addChange(e.target); });
  $('#c-publish').addEventListener('click', ev => askPublish(ev.currentTarget));
}

/* ---- the board slips of the round on screen: once confirmed (every click
 * makes new tokens; those printed before stay valid), a new token per table
 * and the server's page of slips in a frame with a Print button ---- */

/* New board tokens for the round on screen, and their slips to print:
 * shown in a frame (the page of the server, its own stylesheet). */
function slips() {
  const round = S.round;
  // the address the boards reach (HOST:PORT), set once on this browser;
  // empty: the server's own (--board-address, else its --listen address)
  const addr = el('input', { id: 'c-slips-connect', size: 22, autocomplete: 'off', spellcheck: 'false',
    placeholder: 'HOST:PORT', value: localStorage.getItem(BOARD_ADDRESS_KEY) || '' });
  $('#c-slips').replaceChildren(el('div', { class: 'confirm', role: 'alertdialog' },
    el('span', { text: t('c_slips_new', { r: roundName(round) }) + ' ' }),
    el('label', {}, t('c_slips_connect') + ' ', addr), ' ',
    el('button', { type: 'button', id: 'c-slips-go', onclick: () => makeSlips(round, addr.value.trim()) }, t('c_slips_go')),
    el('button', { type: 'button', onclick: () => $('#c-slips').replaceChildren() }, t('c_cancel'))));
}

const BOARD_ADDRESS_KEY = 'xqref.boardAddress';

async function makeSlips(round, connect) {
  const req = { id: 'slips', op: 'slips', round, lang: S.lang };
  if (connect) req.connect = connect;
  const res = await op(req);
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  if (connect) localStorage.setItem(BOARD_ADDRESS_KEY, connect);
  const frame = el('iframe', { id: 'c-slips-frame', title: t('c_slips', { n: res.round }) });
  frame.srcdoc = res.html;
  $('#c-slips').replaceChildren(el('p', {}, el('button', { type: 'button', id: 'c-print',
    onclick: () => frame.contentWindow.print() }, t('c_print'))), frame);
}

/* The slips button. */
export function initSlips() {
  $('#c-slips-btn').addEventListener('click', slips);
}

/* ---- the knockout: started from the Swiss standings after a complete
 * round (or drawn by lot among every player, for a knockout-only event),
 * then each stage's next games published, Red named where the regulation
 * leaves it to a lot or a choice ---- */

addWords({
  zh: {
    k_title: '淘汰赛', k_after: '依据第几轮后的积分', k_size: '出线人数', k_seeding: '对阵方式', k_format: '赛制',
    k_fixed: '固定对阵（1–8、2–7…）', k_choose: '头号种子选择对手', k_lot: '全部棋手抽签（只打淘汰赛）', k_choice: '头号种子选第几名',
    k_start: '开始淘汰赛', k_started: '淘汰赛已开始：{n}人', k_waiting: '待赛对局', k_none_waiting: '没有等待对局的比赛。',
    k_next: '下一局', k_red: '执红', k_red_rule: '按规程', k_red_lot: '（选抽签结果）',
    k_red_needed: '{n}：本局先后手由现场抽签决定，请先选执红方', k_publish: '公布下一局（{n}场）', k_published: '已公布 {n} 台淘汰赛对局',
    k_not_ready: '须在瑞士制某轮全部结果录入后开始。', k_match: '第{n}场', k_match_h: '场次', k_players: '棋手',
    'f_rapid-armageddon': '慢棋20分+5秒；和则换先快棋一局（10分+5秒）；再和抽签定先超快棋（红6分+3秒，黑4分+3秒），和棋黑胜（新疆）',
    f_armageddon: '慢棋20分+5秒；和则超快棋一局（红6分+5秒，黑4分+5秒），和棋黑胜（唐山）',
    'f_rapid-blitz': '慢棋20分+5秒；和则换先快棋一局（10分+3秒）；再和5分+3秒附加赛，直至分出胜负（五家渠）',
    f_village: '乡村棋王赛：20分钟后加5分钟包干（总决赛20分+10秒）；和则换先快棋一局（10分+5秒）；再和抽签定先超快棋（红6分+3秒，黑4分+3秒），和棋黑胜（陕西）',
    k_leave: '出线棋手不再参加第{a}轮起的积分编排（共{n}轮）。', k_leave_none: '',
    k_ask_start: '开始淘汰赛：依据第{a}轮后的积分，前{n}名出线，首轮{m}场对阵。开始后不能撤回。',
    k_ask_lot: '开始淘汰赛：全部{n}名棋手抽签排定对阵。开始后不能撤回。',
    k_ask_publish: '公布下一局（{n}场）：{list}。公布后各台棋盘即可开始。', k_list_sep: '；',
  },
  en: {
    k_title: 'Knockout', k_after: 'From the standings after round', k_size: 'Players', k_seeding: 'Bracket', k_format: 'Format',
    k_fixed: 'fixed (1–8, 2–7, ...)', k_choose: 'the top seed chooses', k_lot: 'every player by lot (knockout only)',
    k_choice: 'the top seed takes place', k_start: 'Start the knockout', k_started: 'Knockout started: {n} players',
    k_waiting: 'Matches waiting for a game', k_none_waiting: 'No match is waiting for a game.', k_next: 'Next game',
    k_red: 'Red', k_red_rule: 'by the regulation', k_red_lot: '(the lot at the table)',
    k_red_needed: '{n}: this game takes the Red the lot at the table gave: choose Red first', k_publish: 'Publish the next games ({n} matches)',
    k_published: '{n} knockout tables published', k_not_ready: 'Starts after a Swiss round with every result in.',
    k_match: 'match {n}', k_match_h: 'Match', k_players: 'Players',
    'f_rapid-armageddon': 'standard 20+5; a draw: one rapid game 10+5, colours swapped; another draw: armageddon, colours by lot, Red 6+3 v Black 4+3, a draw wins for Black (Xinjiang)',
    f_armageddon: 'standard 20+5; a draw: one armageddon game, Red 6+5 v Black 4+5, a draw wins for Black (Tangshan)',
    'f_rapid-blitz': 'standard 20+5; a draw: one rapid game 10+3, colours swapped; another draw: 5+3 games until one is decisive (Wujiaqu)',
    f_village: 'village king: 20 minutes, then 5 minutes sudden death (the final 20+10); a draw: one rapid game 10+5, colours swapped; another draw: armageddon, colours by lot, Red 6+3 v Black 4+3, a draw wins for Black (Shaanxi)',
    k_leave: 'The players who go through leave the Swiss from round {a} on ({n} rounds).', k_leave_none: '',
    k_ask_start: 'Start the knockout: the top {n} after round {a} go through, {m} matches first. It cannot be taken back.',
    k_ask_lot: 'Start the knockout: all {n} players drawn by lot. It cannot be taken back.',
    k_ask_publish: 'Publish the next games ({n} matches): {list}. Once published, each table\'s board can start.', k_list_sep: '; ',
  },
});

/* The formats by the name the server gives back (xq_ko_format_name);
 * each regulation's name is another name of one of them. */
const KO_FORMATS = ['rapid-armageddon', 'armageddon', 'rapid-blitz', 'village'];

/* The start form, shown until the stage has started: the Swiss rounds
 * 1..`done` have every result in, of `planned`. `reg`: the knockout the
 * event's regulation states (the `event` op's `knockout`), which the
 * form starts from; null for none. */
function koStartForm(done, planned, reg) {
  const rounds = Array.from({ length: done }, (_, i) => done - i); // newest first
  const sel = (name, opts) => el('select', { name }, ...opts.map(([v, text]) => el('option', { value: v, text })));
  const form = el('form', { id: 'k-start', class: 'c-add' },
    el('label', {}, t('k_after') + ' ', sel('after', rounds.map(r => [r, String(r)]))),
    el('label', {}, t('k_size') + ' ', sel('size', [[8, '8'], [4, '4'], [16, '16'], [2, '2']])),
    el('label', {}, t('k_seeding') + ' ', sel('seeding', [['fixed', t('k_fixed')], ['choose', t('k_choose')], ['lot', t('k_lot')]])),
    el('label', {}, t('k_choice') + ' ', sel('choice', [[3, '3'], [4, '4']])),
    el('label', {}, t('k_format') + ' ', sel('format', KO_FORMATS.map(f => [f, t('f_' + f)]))),
    el('button', { type: 'submit', text: t('k_start') }));
  const leave = el('p', { class: 'caption', id: 'k-leave' });
  const sync = () => {
    const lot = form.elements.seeding.value === 'lot', after = +form.elements.after.value;
    leave.textContent = !lot && after && planned > after ? t('k_leave', { a: after + 1, n: planned }) : '';
    form.elements.after.parentNode.hidden = lot;
    form.elements.size.parentNode.hidden = lot;
    form.elements.choice.parentNode.hidden = form.elements.seeding.value !== 'choose';
    form.querySelector('button').disabled = !lot && !rounds.length;
  };
  if (reg) { // the regulation's round (when complete), size, seeding and tie-break games
    const f = form.elements;
    if (rounds.includes(reg.after)) f.after.value = String(reg.after);
    f.size.value = String(reg.size);
    f.seeding.value = reg.seeding;
    if (KO_FORMATS.includes(reg.format)) f.format.value = reg.format;
    form.dataset.preset = reg.clause || '';
  }
  form.elements.seeding.addEventListener('change', sync);
  form.addEventListener('submit', e => {
    e.preventDefault();
    askThen(form, form.querySelector('button'), koStartText(form), () => koStart(form));
  });
  sync();
  form.elements.after.addEventListener('change', sync);
  return [rounds.length ? null : el('p', { class: 'caption', text: t('k_not_ready') }), form, leave];
}

/* The start as asked: who goes through, how many matches first. */
function koStartText(form) {
  const f = form.elements;
  if (f.seeding.value === 'lot')
    return t('k_ask_lot', { n: (C.players || []).filter(p => !p.withdrawn).length });
  return t('k_ask_start', { a: f.after.value, n: f.size.value, m: f.size.value / 2 });
}

async function koStart(form) {
  const f = form.elements;
  const req = { id: 'ko_start', op: 'ko_start', seeding: f.seeding.value, format: f.format.value };
  if (req.seeding !== 'lot') Object.assign(req, { after: +f.after.value, size: +f.size.value });
  if (req.seeding === 'choose') req.choice = +f.choice.value;
  const res = await op(req);
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('k_started', { n: res.entrants }), false);
  renderKnockoutConsole();
}

/* The matches waiting for a game, each with a Red choice where the
 * regulation leaves the colours open. */
function koWaiting(k) {
  const name = p => p ? p.name : '';
  const inStage = m => k.matches.filter(x => x.stage === m.stage).indexOf(m) + 1; // as the bracket numbers it
  const named = m => `${stageName(k, m.stage)} · ${t('k_match', { n: inStage(m) })}: ${m.players.map(name).join(` ${t('vs')} `)}`;
  const waiting = k.matches.filter(m => m.next && !m.in_play && m.players.length === 2);
  const playing = k.matches.filter(m => m.in_play).map(m => el('li', { 'data-match': m.match },
    `${named(m)} — ${t('ko_in_play', { n: m.in_play })}`));
  const inPlay = playing.length ? el('ul', { id: 'k-playing' }, ...playing) : null;
  if (!waiting.length) return [inPlay, el('p', { class: 'empty', text: t('k_none_waiting') })];
  const rows = waiting.map(m => el('tr', { 'data-match': m.match },
    el('td', { text: `${stageName(k, m.stage)} · ${t('k_match', { n: inStage(m) })}` }),
    el('td', { text: m.players.map(name).join(` ${t('vs')} `) }),
    el('td', { text: `${t('g_' + m.next.type)} ${m.next.time_control || ''}` }),
    el('td', {}, m.next.colours_open
      ? el('select', { name: 'red', 'data-match': m.match, 'aria-label': t('k_red'), 'data-type': m.next.type,
        'data-drawn': m.next.red_drawn ? 'yes' : null },
        // a Red drawn (or chosen) at the table (the armageddon; Wujiaqu's first stage): no default
        el('option', { value: '', text: t(m.next.red_drawn ? 'k_red_lot' : 'k_red_rule') }),
        ...m.players.map(p => el('option', { value: p.id, text: p.name })))
      : t('k_red_rule'))));
  const table = el('table', { class: 'grid', id: 'k-waiting' },
    el('thead', {}, el('tr', {}, ...['k_match_h', 'k_players', 'k_next', 'k_red'].map(w => el('th', { text: t(w) })))),
    el('tbody', {}, ...rows));
  const list = waiting.map(named).join(t('k_list_sep'));
  const btn = el('button', { type: 'button', id: 'k-publish', onclick: () => {
    if (redOpen(table)) return;
    askThen(btn.parentNode, btn, t('k_ask_publish', { n: waiting.length, list }), () => koPublish(table));
  } }, t('k_publish', { n: waiting.length }));
  return [inPlay, el('div', { class: 'scroll' }, table), el('p', {}, btn)];
}

/* A game whose Red is drawn at the table (the armageddon, Wujiaqu's first
 * stage) and not chosen yet: said, its choice focused (true); before the
 * question is asked. */
function redOpen(table) {
  const open = [...table.querySelectorAll('select[name="red"][data-drawn="yes"]')].find(s => !s.value);
  if (!open) return false;
  open.focus();
  consoleSay(t('k_red_needed', { n: open.closest('tr').children[0].textContent }), true);
  return true;
}

async function koPublish(table) {
  const red = [...table.querySelectorAll('select[name="red"]')].filter(s => s.value)
    .map(s => ({ match: +s.dataset.match, player: +s.value }));
  const req = { id: 'ko_publish', op: 'ko_publish' };
  if (red.length) req.red = red;
  const res = await op(req);
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('k_published', { n: res.tables.length }), false);
  renderKnockoutConsole();
}

/* The knockout block of the console, from the server's stage. */
export async function renderKnockoutConsole() {
  const box = $('#c-knockout');
  if (!box || S.role !== 'admin') return;
  const [k, ev, own] = await Promise.all([op({ id: 'knockout', op: 'knockout' }), getJSON('/api/event'),
    op({ id: 'ko-event', op: 'event' })]);
  if (k.error) return box.replaceChildren(el('p', { class: 'error', text: errText(k.error) }));
  if (!k.started)
    return box.replaceChildren(...koStartForm(ev.rounds_complete || 0, ev.rounds || 0, (own && own.knockout) || null)
      .filter(Boolean));
  box.replaceChildren(el('p', { text: `${t('k_started', { n: k.entrants })} · ${t('f_' + k.format)}` }),
    el('h3', { text: t('k_waiting') }), ...koWaiting(k).filter(Boolean));
}
