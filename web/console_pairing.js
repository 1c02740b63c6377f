/*
 * console_pairing.js -- the rounds in the organiser's console
 * (docs/web.md, sections 编排 and 淘汰赛), a staff module: the next Swiss
 * round previewed (`pair` without `publish`: nothing stored), changed by
 * hand with a reason each, then published; the board slips of the round
 * on screen; the knockout started (ko_start) and each stage's next games
 * published to knockout tables (ko_publish); a team event (section 团体赛):
 * the event made a team event (team_new), the teams with their rosters
 * (team_add), each round paired (team_pair), the lineups entered per match
 * (lineup: one the board-order rule refuses said with its reason), the
 * round published (team_publish: each board a table of that round, played
 * as any game), the matches with their running score (2½–1½).
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

/* ---- a team event (团体赛, section 团体赛): made one, its teams, each
 * round paired, the lineups entered, published; the matches with their
 * running score from the games (teams, docs/protocol.md "Team events") ---- */

addWords({
  zh: {
    tm_title: '团体赛', tm_new: '设为团体赛', tm_format: '赛制', tm_rr: '团体单循环', tm_rr2: '团体双循环', tm_swiss: '团体积分编排',
    tm_boards: '台数', tm_rounds: '轮数（积分编排）', tm_made: '已设为团体赛：{f}，{b}台',
    tm_summary: '{f}，{b}台，共{r}轮；已编排{p}轮，已公布{q}轮', tm_team: '队', tm_roster: '名单（台次顺序，| 后为替补）',
    tm_add: '添加队', tm_name: '队名', tm_players: '棋手序号（逗号分隔，空：按“队”栏）', tm_added: '已添加 {n}',
    tm_pair: '编排第{n}轮', tm_paired: '第{n}轮已编排：请录入出场名单，然后公布', tm_publish: '公布第{n}轮',
    tm_published: '第{n}轮已公布：各台对局开始', tm_round: '第{n}轮', tm_match: '第{n}场', tm_bye: '轮空',
    tm_lineup: '出场名单', tm_lineup_of: '{t} 出场名单（序号，0：缺席）', tm_lineup_set: '{t}：出场名单已录入',
    tm_board: '台', tm_table: '桌号', tm_withdraw: '退赛', tm_out: '第{n}轮起退赛',
    tm_ask_withdraw: '{t}自第{n}轮起退赛？此后不再编排（循环赛：其后各场判负）。', tm_withdrawn: '{t}自第{n}轮起退赛',
  },
  en: {
    tm_title: 'Team event', tm_new: 'Make it a team event', tm_format: 'Format', tm_rr: 'team round robin',
    tm_rr2: 'team double round robin', tm_swiss: 'team Swiss', tm_boards: 'Boards', tm_rounds: 'Rounds (Swiss)',
    tm_made: 'A team event now: {f}, {b} boards',
    tm_summary: '{f}, {b} boards, {r} rounds; {p} paired, {q} published', tm_team: 'Team',
    tm_roster: 'Roster (board order, reserves after |)', tm_add: 'Add a team', tm_name: 'Team name',
    tm_players: 'Player numbers (comma list; empty: by the Team column)', tm_added: '{n} added',
    tm_pair: 'Pair round {n}', tm_paired: 'Round {n} paired: enter the lineups, then publish',
    tm_publish: 'Publish round {n}', tm_published: 'Round {n} published: the games can start', tm_round: 'Round {n}',
    tm_match: 'Match {n}', tm_bye: 'bye', tm_lineup: 'Lineup', tm_lineup_of: '{t} lineup (numbers, 0 absent)',
    tm_lineup_set: '{t}: lineup entered', tm_board: 'Board', tm_table: 'Table', tm_withdraw: 'Withdraw',
    tm_out: 'withdrawn from round {n}', tm_ask_withdraw: '{t} withdraws from round {n} on? Paired no more (a round robin: its later matches forfeited).',
    tm_withdrawn: '{t} withdraws from round {n}',
  },
});

const FORMATS = { 'team-rr': 'tm_rr', 'team-rr2': 'tm_rr2', 'team-swiss': 'tm_swiss' };

/* "1,0,3" into [1, 0, 3]; null when it is not such a list. */
function numbers(text) {
  const s = text.trim();
  if (!s) return [];
  const a = s.split(/[,，\s]+/).map(x => Number(x));
  return a.every(n => Number.isInteger(n) && n >= 0) ? a : null;
}

/* Game points (2/1/0 a game) as games: 5 is 2½. */
function games(gp) {
  const w = Math.floor(gp / 2);
  return gp % 2 ? (w ? `${w}½` : '½') : String(w);
}

/* A match's running score, "2½–1½" (the first team's first). */
function matchScore(m) {
  return `${games(m.gp[0])}–${games(m.gp[1])}`;
}

/* Send `req`; on success say `said` and draw the console again. */
async function teamSend(req, said) {
  const res = await op(req);
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(said(res), false);
  redraw();
}

/* The form that makes the event a team event (before round 1). */
function newForm() {
  const f = el('form', { id: 'tm-new', class: 'c-add' },
    el('select', { name: 'format', 'aria-label': t('tm_format') },
      ...Object.entries(FORMATS).map(([v, k]) => el('option', { value: v, text: t(k) }))),
    el('input', { name: 'boards', size: 3, inputmode: 'numeric', value: '4', placeholder: t('tm_boards'), 'aria-label': t('tm_boards') }),
    el('input', { name: 'rounds', size: 3, inputmode: 'numeric', placeholder: t('tm_rounds'), 'aria-label': t('tm_rounds') }),
    el('button', { type: 'submit', text: t('tm_new') }));
  f.addEventListener('submit', e => {
    e.preventDefault();
    const req = { id: 'team_new', op: 'team_new', format: f.elements.format.value, boards: +f.elements.boards.value };
    if (req.format === 'team-swiss' && f.elements.rounds.value) req.rounds = +f.elements.rounds.value;
    teamSend(req, r => t('tm_made', { f: t(FORMATS[r.format]), b: r.boards }));
  });
  return f;
}

/* The teams, each with its roster in board order, and its withdrawal
 * (team_withdraw, from the next round to pair; asked first) or the round
 * it withdrew from. */
function teamsTable(ev) {
  const name = p => `${p.no} ${p.name}`;
  const from = ev.paired + 1;
  const out = (x, cell) => {
    if (x.withdrawn) return cell.append(t('tm_out', { n: x.withdrawn }));
    const b = el('button', { type: 'button', 'data-action': 'withdraw', text: t('tm_withdraw') });
    b.addEventListener('click', () => askThen(b, b, t('tm_ask_withdraw', { t: x.name, n: from }),
      () => teamSend({ id: 'team_withdraw', op: 'team_withdraw', team: x.team }, () => t('tm_withdrawn', { t: x.name, n: from }))));
    cell.append(b);
  };
  return el('table', { id: 'tm-teams', class: 'grid' },
    el('thead', {}, el('tr', {}, el('th', { text: t('no') }), el('th', { text: t('tm_team') }), el('th', { text: t('tm_roster') }),
      el('th', { text: t('act') }))),
    el('tbody', {}, ...ev.teams.map(x => el('tr', { 'data-team': x.team, class: x.withdrawn ? 'withdrawn' : null },
      el('td', { class: 'num', text: x.pno || x.team }),
      el('td', { text: x.name }),
      el('td', { text: x.roster.slice(0, x.regulars).map(name).join('、') +
        (x.roster.length > x.regulars ? ' | ' + x.roster.slice(x.regulars).map(name).join('、') : '') }),
      (c => { out(x, c); return c; })(el('td', {}))))));
}

/* A team registered: its name and, if given, its roster's numbers. */
function addForm() {
  const f = el('form', { id: 'tm-add', class: 'c-add' },
    el('input', { name: 'name', required: '', placeholder: t('tm_name'), 'aria-label': t('tm_name') }),
    el('input', { name: 'players', size: 24, placeholder: t('tm_players'), 'aria-label': t('tm_players') }),
    el('button', { type: 'submit', text: t('tm_add') }));
  f.addEventListener('submit', e => {
    e.preventDefault();
    const players = numbers(f.elements.players.value);
    const req = { id: 'team_add', op: 'team_add', name: f.elements.name.value.trim() };
    if (players && players.length) req.players = players;
    teamSend(req, () => t('tm_added', { n: req.name }));
  });
  return f;
}

/* The next round's button: pair it, or publish the round paired. */
function roundButton(ev) {
  if (ev.paired > ev.published) {
    const n = ev.published + 1;
    return el('button', { type: 'button', id: 'tm-publish', text: t('tm_publish', { n }),
      onclick: () => teamSend({ id: 'team_publish', op: 'team_publish', round: n }, () => t('tm_published', { n })) });
  }
  if (ev.rounds && ev.paired >= ev.rounds) return null;
  const n = ev.paired + 1;
  return el('button', { type: 'button', id: 'tm-pair', text: t('tm_pair', { n }),
    onclick: () => teamSend({ id: 'team_pair', op: 'team_pair', round: n }, () => t('tm_paired', { n })) });
}

/* The lineup form of `team` in round `round`. */
function lineupForm(round, team) {
  const f = el('form', { class: 'c-add tm-lineup', 'data-team': team.team },
    el('input', { name: 'players', size: 16, placeholder: t('tm_lineup_of', { t: team.name }),
      'aria-label': t('tm_lineup_of', { t: team.name }) }),
    el('button', { type: 'submit', text: t('tm_lineup') }));
  f.addEventListener('submit', e => {
    e.preventDefault();
    const players = numbers(f.elements.players.value);
    if (!players || !players.length) return consoleSay(t('tm_lineup_of', { t: team.name }), true);
    teamSend({ id: 'lineup', op: 'lineup', round, team: team.team, players }, () => t('tm_lineup_set', { t: team.name }));
  });
  return f;
}

/* A match: the teams and the running score, a row a board (the first
 * team's player, the result from its side, the other's, the table), and
 * the lineup forms while the round is not published. */
function matchBlock(m, open) {
  const head = m.bye ? `${t('tm_match', { n: m.match })}  ${m.first.name}  ${t('tm_bye')}`
    : `${t('tm_match', { n: m.match })}  ${m.first.name}  ${matchScore(m)}  ${m.second.name}`;
  const who = p => p ? `${p.no} ${p.name}` : '—';
  return el('div', { class: 'tm-match', 'data-match': m.match },
    el('h4', { text: head }),
    m.bye ? null : el('table', { class: 'grid' }, el('tbody', {}, ...m.boards.map(b => el('tr', {},
      el('td', { class: 'num', text: b.board }), el('td', { text: (b.first_red ? '红 ' : '黑 ') + who(b.first) }),
      el('td', { text: b.result || '' }), el('td', { text: who(b.second) }),
      el('td', { class: 'num', text: b.table ? `${t('tm_table')} ${b.table}` : '' }))))),
    ...(open && !m.bye ? [lineupForm(m.round, m.first), lineupForm(m.round, m.second)] : []));
}

/* The team section: the form that makes a team event, or the event's
 * teams, the next round's button and every round's matches (the last
 * first). A team event hides the Swiss round's buttons. */
export async function renderTeamConsole() {
  const box = $('#c-team');
  if (!box) return;
  const ev = await op({ id: 'teams', op: 'teams' });
  if (ev.error) return box.replaceChildren(newForm());
  for (const id of ['#c-pair', '#c-publish', '#c-unpair']) $(id).hidden = true;
  const rounds = ev.matches.map((ms, i) => el('div', { class: 'tm-round', 'data-round': i + 1 },
    el('h3', { text: t('tm_round', { n: i + 1 }) }), ...ms.map(m => matchBlock(m, i + 1 > ev.published)))).reverse();
  box.replaceChildren(
    el('p', { id: 'tm-summary', text: t('tm_summary', { f: t(FORMATS[ev.format]), b: ev.boards, r: ev.rounds, p: ev.paired, q: ev.published }) }),
    teamsTable(ev), addForm(), el('p', {}, roundButton(ev)), ...rounds);
}
