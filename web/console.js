/*
 * console.js -- the organiser's console of the live page (docs/web.md),
 * shown with an admin token: the players (a list, each row edited in
 * place or withdrawn after a confirmation, one added by hand, a list
 * imported from CSV as a spreadsheet saves it, previewed with each bad
 * line's error before anything is stored; the pairing numbers before
 * round 1 by rating, by lot or by hand, previewed, then stored) and the
 * next round (its pairing previewed, then published). It sends the protocol's operations
 * to POST /api/op with the words and helpers of app.js.
 */
'use strict';

Object.assign(WORDS.zh, {
  t_console: '组委会', c_players: '棋手', c_add: '添加棋手', c_import: '导入名单（CSV）', c_round: '编排',
  c_pair: '编排第{n}轮（预览）', c_publish: '公布第{n}轮', c_published: '第{n}轮已公布（{b}台）',
  c_preview_n: '共{n}行：{ok}行可导入，{bad}行有错误', c_do_import: '导入 {n} 名棋手', c_imported: '已导入 {n} 名棋手',
  c_line: '行', c_error: '错误', c_no_header: '第一行须是表头（姓名、性别、出生日期、单位、等级分…）',
  c_need_name: '缺少姓名', c_bad_sex: '性别须为 男/女', c_bad_birth: '出生日期须为 年-月-日', c_bad_rating: '等级分须为 0–9999 的整数',
  c_not_admin: '组委会功能须使用管理员令牌（在“裁判”页登录）。', sex: '性别', birth: '出生日期', club: '单位',
  region: '地区', team_col: '队', no: '序号', c_withdrawn: '退赛', c_encoding: '编码：{e}',
  c_changes: '人工调整', c_swap: '交换两名棋手（序号）', c_colours: '交换某台先后手（台次）', c_move: '移动台次（从 → 到）',
  c_reason: '理由（必填）', c_add_change: '加入调整', c_remove: '取消', c_warnings: '违反以下绝对规则（仍可公布）：',
  c_need_reason: '每项调整须填写理由', c_all_paired: '全部{n}轮已编排。',
  c_dup_file: '与第{n}行重复（姓名{b}相同）', c_dup_stored: '已报名：{p}', c_wide_comma: '含全角逗号“，”：字段须用半角逗号“,”分隔',
  c_file_no: '文件中的序号不导入：序号由抽签或种子产生', c_added: '已添加 {p}', c_file_no_col: '文件序号',
  c_changed: '已调整', c_a: '序号/台次', c_b: '序号/台次', c_published_changes: '第{n}轮公布时的人工调整',
  c_slips_new: '将为第{r}各台生成新的令牌；已打印的令牌仍然有效。', c_slips_go: '生成并显示',
  c_points: '积分', c_rating_short: '等级分', c_sex_m: '男', c_sex_w: '女', c_slips: '台次令牌（{n}，含二维码）', c_print: '打印',
  c_id: '编号', c_act: '操作', c_edit: '修改', c_save: '保存', c_cancel: '取消', c_local: '本地棋手',
  c_edited: '{name}：已修改 {f}', c_unchanged: '没有修改', c_withdraw: '退赛', c_reinstate: '恢复参赛',
  c_confirm_withdraw: '{name}（{k} {no}）自第{r}轮起退赛？已得分数保留。', c_yes_withdraw: '确认退赛',
  c_withdrew: '{name} 自第{r}轮起退赛', c_reinstated: '{name} 自第{r}轮起恢复参赛',
  c_numbers: '序号（抽签／种子）', c_by_rating: '按等级分（种子）', c_by_lot: '抽签', c_by_hand: '手工录入',
  c_seed: '种子（不填则随机）', c_num_preview: '预览序号', c_num_store: '保存序号', c_num_stored: '序号已保存（{m}）',
  c_num_previewed: '预览（{m}），尚未保存', c_seed_is: '抽签种子 {s}', c_num_note: '第1轮编排前可重新抽签，以最后一次为准；之后报名者依次排在后面。',
  c_m_rating: '按等级分', c_m_lot: '抽签', c_m_manual: '手工',
  c_absent: '请假', c_absent_round: '第几轮', c_bye_zero: '0分', c_bye_half: '半分（轮空½）', c_bye_full: '1局胜分（轮空）',
  c_yes_absent: '登记请假', c_absent_done: '{name}：第{r}轮请假（{b}）', c_absent_ask: '{name} 请假，不参加该轮编排：',
});
Object.assign(WORDS.en, {
  t_console: 'Organiser', c_players: 'Players', c_add: 'Add a player', c_import: 'Import a list (CSV)', c_round: 'Pairing',
  c_pair: 'Pair round {n} (preview)', c_publish: 'Publish round {n}', c_published: 'Round {n} published ({b} boards)',
  c_preview_n: '{n} lines: {ok} to import, {bad} with an error', c_do_import: 'Import {n} players', c_imported: '{n} players imported',
  c_line: 'Line', c_error: 'Error', c_no_header: 'The first line must be the headings (name, sex, birth date, club, rating…)',
  c_need_name: 'no name', c_bad_sex: 'sex is m/w (男/女)', c_bad_birth: 'the birth date is YYYY-MM-DD', c_bad_rating: 'the rating is a whole number 0–9999',
  c_not_admin: 'The organiser console needs an admin token (sign in on the Arbiter tab).', sex: 'Sex', birth: 'Born', club: 'Club',
  region: 'Region', team_col: 'Team', no: 'No.', c_withdrawn: 'withdrawn', c_encoding: 'encoding: {e}',
  c_changes: 'Changes by hand', c_swap: 'Swap two players (numbers)', c_colours: 'Swap the colours of a table',
  c_move: 'Move a table (from → to)', c_reason: 'Reason (required)', c_add_change: 'Add the change', c_remove: 'Remove',
  c_warnings: 'Breaks these absolute rules (may still be published):', c_need_reason: 'Every change needs a reason',
  c_all_paired: 'All {n} rounds are paired.',
  c_dup_file: 'the same as line {n} (same name{b})', c_dup_stored: 'registered already: {p}',
  c_wide_comma: 'a full-width comma "，": fields are split by the ASCII comma ","',
  c_file_no: 'The file\'s numbers are not imported: numbers come from the draw or the seeding', c_added: '{p} added',
  c_file_no_col: 'File no.', c_changed: 'changed', c_a: 'no./table', c_b: 'no./table',
  c_published_changes: 'Changes by hand published with round {n}',
  c_slips_new: 'New tokens are made for every table of {r}; tokens printed before stay valid.', c_slips_go: 'Make and show',
  c_points: 'Pts', c_rating_short: 'Rating', c_sex_m: 'M', c_sex_w: 'F',
  c_slips: 'Board slips ({n}, with QR codes)', c_print: 'Print',
  c_id: 'ID', c_act: 'Actions', c_edit: 'Edit', c_save: 'Save', c_cancel: 'Cancel', c_local: 'local player',
  c_edited: '{name}: {f} changed', c_unchanged: 'Nothing changed', c_withdraw: 'Withdraw', c_reinstate: 'Reinstate',
  c_confirm_withdraw: 'Withdraw {name} ({k} {no}) from round {r} on? Points earned stay.', c_yes_withdraw: 'Withdraw',
  c_withdrew: '{name} withdrawn from round {r} on', c_reinstated: '{name} paired again from round {r} on',
  c_numbers: 'Numbers (drawn or seeded)', c_by_rating: 'Seeded by rating', c_by_lot: 'Drawn by lot', c_by_hand: 'Entered by hand',
  c_seed: 'Seed (empty: random)', c_num_preview: 'Preview the numbers', c_num_store: 'Store the numbers',
  c_num_stored: 'Numbers stored ({m})', c_num_previewed: 'Preview ({m}), not stored yet', c_seed_is: 'lot seed {s}',
  c_num_note: 'Until round 1 is paired the numbers may be drawn again, the last counts; later entries get the next numbers.',
  c_m_rating: 'by rating', c_m_lot: 'by lot', c_m_manual: 'by hand',
  c_absent: 'Absent', c_absent_round: 'round', c_bye_zero: '0 points', c_bye_half: 'a half-point bye', c_bye_full: 'a full-point bye',
  c_yes_absent: 'Record the absence', c_absent_done: '{name}: absent in round {r} ({b})',
  c_absent_ask: '{name} is absent, not paired in the round:',
});

/* ------------------------------------------------------------------ */
/* CSV as spreadsheets save it                                         */
/* ------------------------------------------------------------------ */

/* The text of a saved file: UTF-8 with or without its BOM, else GBK (as
 * Chinese Excel saves "CSV"). */
function decodeCsv(bytes) {
  const b = new Uint8Array(bytes);
  if (b[0] === 0xEF && b[1] === 0xBB && b[2] === 0xBF) return { text: new TextDecoder('utf-8').decode(b.subarray(3)), encoding: 'UTF-8 (BOM)' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(b), encoding: 'UTF-8' };
  } catch (e) {
    return { text: new TextDecoder('gbk').decode(b), encoding: 'GBK' };
  }
}

/* Records of CSV text: fields split on commas, "quoted" fields with ""
 * for a quote and line breaks inside; CRLF or LF. */
function csvRecords(text) {
  const out = [];
  let rec = [], f = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { f += '"'; i++; } else if (c === '"') q = false; else f += c;
    } else if (c === '"') q = true;
    else if (c === ',') { rec.push(f); f = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      rec.push(f); out.push(rec); rec = []; f = '';
    } else f += c;
  }
  if (f !== '' || rec.length) { rec.push(f); out.push(rec); }
  return out.filter(r => r.some(x => x.trim() !== ''));
}

/* A heading's field of add_player, in Chinese or English. */
const HEADINGS = {
  name: ['姓名', '名字', 'name'], sex: ['性别', 'sex', 'gender'], birth: ['出生日期', '出生', '生日', 'birth', 'born', 'birth date'],
  region: ['地区', '省市', 'region'], club: ['单位', '俱乐部', 'club'], team: ['队', '队伍', '代表队', 'team'],
  rating: ['等级分', '等级', 'rating', 'elo'], no: ['序号', '编号', 'no', 'no.', 'number'],
};

function fieldOf(heading) {
  const h = heading.trim().toLowerCase();
  for (const [k, names] of Object.entries(HEADINGS)) if (names.includes(h)) return k;
  return null;
}

/* One data line into an add_player `player`, or an error. */
function playerOf(fields, cols) {
  const p = {};
  cols.forEach((k, i) => { if (k && fields[i] !== undefined && fields[i].trim() !== '') p[k] = fields[i].trim(); });
  if (fields.some(f => f.includes('，'))) return { error: t('c_wide_comma') };
  if (!p.name) return { error: t('c_need_name') };
  if (p.sex) {
    const s = { '男': 'm', '女': 'w', m: 'm', w: 'w', f: 'w', male: 'm', female: 'w' }[p.sex.toLowerCase()];
    if (!s) return { error: t('c_bad_sex') };
    p.sex = s;
  }
  if (p.birth) {
    const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(p.birth);
    const day = m && new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    if (!m || day.getUTCMonth() !== +m[2] - 1 || day.getUTCDate() !== +m[3]) return { error: t('c_bad_birth') }; // no 13th month, no 30 February
    p.birth = `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`;
  }
  if (p.rating !== undefined) {
    if (!/^\d{1,4}$/.test(p.rating)) return { error: t('c_bad_rating') };
    p.rating = +p.rating;
  }
  delete p.no; // the file's own numbering: shown, not stored
  return { player: p };
}

/* The identity of a player for duplicates: the name, and the birth date
 * when there is one. */
const dupKey = p => `${p.name}|${p.birth || ''}`;

/* Lines that repeat an earlier line or a registered player become errors. */
function markDuplicates(lines, registered) {
  const seen = new Map(), stored = new Map((registered || []).map(p => [dupKey(p), p]));
  const birthText = p => p.birth ? (S.lang === 'zh' ? '、出生日期' : ', same birth date') : '';
  for (const l of lines) {
    if (!l.player) continue;
    const k = dupKey(l.player), first = seen.get(k), old = stored.get(k);
    if (first) l.error = t('c_dup_file', { n: first.line, b: birthText(l.player) });
    else if (old) l.error = t('c_dup_stored', { p: `${old.no || old.id}. ${old.name}` });
    if (l.error) delete l.player;
    else seen.set(k, l);
  }
  return lines;
}

/* The preview of a file: a line each, its player or its error. */
function previewCsv(text) {
  const recs = csvRecords(text);
  if (!recs.length) return { error: t('c_no_header'), lines: [] };
  const cols = recs[0].map(fieldOf);
  if (!cols.includes('name')) return { error: t('c_no_header'), lines: [] };
  const lines = recs.slice(1).map((f, i) => {
    const l = Object.assign({ line: i + 2, fields: f }, playerOf(f, cols));
    const at = cols.indexOf('no');
    if (at >= 0 && f[at] && f[at].trim()) l.fileNo = f[at].trim();
    return l;
  });
  return { lines: markDuplicates(lines, C.players), fileNumbers: cols.includes('no') };
}

/* ------------------------------------------------------------------ */
/* The console                                                         */
/* ------------------------------------------------------------------ */

const C = { preview: null, pairing: null, changes: [], players: [], paired: 0, editing: null, draft: null,
  confirm: null, num: { method: 'rating', seed: '', manual: {}, result: null } };

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

/* Several operations in one POST /api/op: the replies, in order. */
async function opLines(reqs) {
  const r = await fetch('/api/op', {
    method: 'POST',
    headers: { 'Authorization': 'Bearer ' + S.token, 'Content-Type': 'application/json' },
    body: reqs.map(q => JSON.stringify(q)).join('\n') + '\n',
  });
  const text = await r.text();
  return text.trim().split('\n').filter(Boolean).map(l => JSON.parse(l));
}

function consoleSay(text, error) {
  const p = $('#c-result');
  p.textContent = text;
  p.classList.toggle('error', !!error);
}

async function renderConsole() {
  const admin = S.role === 'admin';
  $('#console-body').hidden = !admin;
  $('#console-note').hidden = admin;
  if (!admin) return;
  const [res, evr] = await Promise.all([op({ id: 'players', op: 'players' }), op({ id: 'event', op: 'event' })]);
  C.players = (res && res.players) || [];
  C.paired = (evr && evr.paired) || 0;
  renderPlayers();
  renderNumbers();
  const next = ((S.event && S.event.published) || []).filter(r => r < 50).length + 1;
  $('#c-pair').textContent = t('c_pair', { n: next });
  const last = S.event && S.event.rounds && next > S.event.rounds; // every planned round is paired
  $('#c-pair').hidden = !!last;
  $('#c-all-paired').textContent = last ? t('c_all_paired', { n: S.event.rounds }) : '';
  $('#c-publish').textContent = t('c_publish', { n: next });
  $('#c-publish').hidden = !C.pairing;
  $('#c-slips-btn').textContent = t('c_slips', { n: S.round ? roundName(S.round) : '' });
  $('#c-slips-btn').hidden = !S.round;
  renderKnockoutConsole();
  renderPrint(); // its rounds follow the published ones
}

/* A player's sex in the page's language. */
function sexText(s) {
  return s ? t(s === 'w' ? 'c_sex_w' : 'c_sex_m') : '';
}

/* ------------------------------------------------------------------ */
/* The players: a row each, edited in place, withdrawn with a confirm  */
/* ------------------------------------------------------------------ */

/* A player's number (序号 once drawn, else the id): what the operations take. */
const playerNo = p => p.no || p.id;
const numbered = () => C.players.some(p => p.no);

function renderPlayers() {
  const cols = [numbered() ? 'no' : 'c_id', 'name', 'sex', 'birth', 'club', 'team_col', 'rating', 'c_act'];
  $('#c-players thead').replaceChildren(el('tr', {}, ...cols.map(k => el('th', { text: t(k) }))));
  // in number order once the numbers are known
  const rows = numbered() ? [...C.players].sort((a, b) => (a.no || 1e6 + a.id) - (b.no || 1e6 + b.id)) : C.players;
  $('#c-players tbody').replaceChildren(...rows.map(p => C.editing === p.id ? editRow(p, cols.length) : playerRow(p)));
}

function playerRow(p) {
  const acts = el('div', { class: 'actions' },
    el('button', { type: 'button', 'data-action': 'edit', onclick: () => { C.editing = p.id; C.draft = null; renderPlayers(); } },
      t('c_edit')),
    p.withdrawn ? null : el('button', { type: 'button', 'data-action': 'absent',
      onclick: () => { C.absent = p.id; C.confirm = null; renderPlayers(); } }, t('c_absent')),
    p.withdrawn
      ? el('button', { type: 'button', 'data-action': 'reinstate', onclick: () => reinstate(p) }, t('c_reinstate'))
      : el('button', { type: 'button', 'data-action': 'withdraw', onclick: () => { C.confirm = p.id; renderPlayers(); } },
        t('c_withdraw')));
  if (C.confirm === p.id) {
    // asked in place, as the arbiter's desk asks before changing a result
    acts.append(el('div', { class: 'confirm', role: 'alertdialog' },
      el('span', { text: t('c_confirm_withdraw', { name: p.name, k: t(numbered() ? 'no' : 'c_id'), no: playerNo(p), r: C.paired + 1 }) }),
      el('button', { type: 'button', 'data-action': 'yes', onclick: () => withdraw(p) }, t('c_yes_withdraw')),
      el('button', { type: 'button', 'data-action': 'no', onclick: () => { C.confirm = null; renderPlayers(); } },
        t('no_change'))));
  }
  if (C.absent === p.id) acts.append(absentForm(p));
  return el('tr', { 'data-id': p.id, 'data-no': playerNo(p), class: p.withdrawn ? 'withdrawn' : null },
    el('td', { class: 'num', text: playerNo(p) }),
    el('td', { text: p.name + (p.withdrawn ? ` (${t('c_withdrawn')})` : '') }),
    el('td', { text: sexText(p.sex) }), el('td', { text: p.birth || '' }),
    el('td', { text: p.club || '' }), el('td', { text: p.team || '' }), el('td', { class: 'num', text: p.rating || '' }),
    el('td', {}, acts));
}

/* The fields of the edit form, as edit_player names them. */
const EDIT_FIELDS = ['name', 'sex', 'birth', 'region', 'club', 'team', 'rating', 'local'];

function editRow(p, span) {
  const d = C.draft || Object.assign({}, p, { sex: p.sex || '', rating: p.rating || '' });
  C.draft = d;
  const input = (k, attrs) => el('input', Object.assign({ name: k, value: d[k] ?? '',
    placeholder: t(k === 'team' ? 'team_col' : k), oninput: e => { d[k] = e.target.value; } }, attrs || {}));
  const sex = el('select', { name: 'sex', onchange: e => { d.sex = e.target.value; } },
    ...[['', ''], ['m', sexText('m')], ['w', sexText('w')]].map(([v, l]) => el('option', { value: v, selected: d.sex === v ? '' : null }, l)));
  const local = el('input', { type: 'checkbox', name: 'local', checked: d.local ? '' : null,
    onchange: e => { d.local = e.target.checked; } });
  const form = el('form', { class: 'c-add c-edit', 'data-id': p.id, onsubmit: e => { e.preventDefault(); saveEdit(p); } },
    input('name', { required: '' }), sex, input('birth', { size: 10 }), input('region'), input('club'), input('team'),
    input('rating', { size: 5, inputmode: 'numeric' }), el('label', {}, local, ' ', t('c_local')),
    el('button', { type: 'submit', 'data-action': 'save' }, t('c_save')),
    el('button', { type: 'button', 'data-action': 'cancel', onclick: () => { C.editing = C.draft = null; renderPlayers(); } },
      t('c_cancel')));
  return el('tr', { 'data-id': p.id, class: 'editing' }, el('td', { class: 'num', text: playerNo(p) }),
    el('td', { colspan: span - 1 }, form));
}

/* The fields the form changed, as edit_player takes them (an empty text clears it). */
function editChanges(p, d) {
  const req = {};
  for (const k of EDIT_FIELDS) {
    let v = d[k], was = p[k];
    if (k === 'rating') { v = String(v).trim() === '' ? 0 : +v; was = was || 0; }
    else if (k === 'local') { v = !!v; was = !!was; }
    else { v = String(v ?? '').trim(); was = was || ''; }
    if (v !== was) req[k] = (k === 'sex' || k === 'birth') && v === '' ? null : v;
  }
  return req;
}

async function saveEdit(p) {
  const ch = editChanges(p, C.draft);
  if (!Object.keys(ch).length) {
    C.editing = C.draft = null;
    renderPlayers();
    return consoleSay(t('c_unchanged'), false);
  }
  if ('rating' in ch && !(Number.isInteger(ch.rating) && ch.rating >= 0 && ch.rating <= 9999)) return consoleSay(t('c_bad_rating'), true);
  const res = await op(Object.assign({ id: 'edit', op: 'edit_player', player: playerNo(p) }, ch));
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  C.editing = C.draft = null;
  pairingStale();
  consoleSay(t('c_edited', { name: res.name, f: res.changed.map(k => t(k === 'team' ? 'team_col' : k === 'local' ? 'c_local' : k)).join(', ') }), false);
  renderConsole();
}

/* After a change to the players the pairing on screen is out of date:
 * it goes, and is asked for again. */
function pairingStale() {
  C.pairing = null;
  $('#c-pairing').replaceChildren();
  $('#c-warnings').replaceChildren();
}

/* An announced absence (请假) for a round not yet paired: a 0-point, half-
 * or full-point bye as the regulation gives, asked in place. */
function absentForm(p) {
  const round = el('input', { name: 'round', type: 'number', min: C.paired + 1, value: C.paired + 1, size: 3,
    'aria-label': t('c_absent_round') });
  const bye = el('select', { name: 'bye', 'aria-label': t('c_absent') },
    ...['zero', 'half', 'full'].map(b => el('option', { value: b }, t('c_bye_' + b))));
  return el('div', { class: 'confirm', role: 'alertdialog' },
    el('span', { text: t('c_absent_ask', { name: p.name }) + ' ' }), t('c_absent_round'), ' ', round, ' ', bye,
    el('button', { type: 'button', 'data-action': 'yes', onclick: () => absent(p, +round.value, bye.value) }, t('c_yes_absent')),
    el('button', { type: 'button', 'data-action': 'no', onclick: () => { C.absent = null; renderPlayers(); } }, t('c_cancel')));
}

async function absent(p, round, bye) {
  C.absent = null;
  const res = await op({ id: 'absent', op: 'absent', player: playerNo(p), round, bye });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_absent_done', { name: p.name, r: res.round, b: t('c_bye_' + res.bye) }), false);
  pairingStale();
  renderConsole();
}

async function withdraw(p) {
  C.confirm = null;
  const res = await op({ id: 'withdraw', op: 'withdraw', player: playerNo(p) });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_withdrew', { name: p.name, r: res.round }), false);
  pairingStale();
  renderConsole();
}

async function reinstate(p) {
  const res = await op({ id: 'reinstate', op: 'reinstate', player: playerNo(p) });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_reinstated', { name: p.name, r: res.round }), false);
  pairingStale();
  renderConsole();
}

/* ------------------------------------------------------------------ */
/* Numbers before round 1: by rating, by lot, by hand; preview, store  */
/* ------------------------------------------------------------------ */

/* The numbers request of the block's state (a lot keeps the preview's seed). */
function numbersReq(preview) {
  const n = C.num, req = { id: 'numbers', op: 'numbers', method: n.method };
  if (preview) req.preview = true;
  if (n.method === 'lot' && String(n.seed).trim() !== '') req.seed = +n.seed;
  if (n.method === 'manual') req.numbers = C.players.map(p => ({ player: p.id, no: +(n.manual[p.id] ?? '') || 0 }));
  return req;
}

async function numbers(preview) {
  const req = numbersReq(preview);
  if (req.numbers && req.numbers.some(x => !x.no)) return consoleSay(t('failed', { msg: t('c_by_hand') + ': 1…' + C.players.length }), true);
  const res = await op(req);
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  if (res.method === 'lot') C.num.seed = String(res.seed); // stored as previewed
  C.num.result = preview ? res : null;
  const m = t('c_m_' + res.method) + (res.method === 'lot' ? ', ' + t('c_seed_is', { s: res.seed }) : '');
  consoleSay(t(preview ? 'c_num_previewed' : 'c_num_stored', { m }), false);
  if (preview) renderNumbers();
  else { pairingStale(); renderConsole(); }
}

function renderNumbers() {
  const box = $('#c-numbers');
  if (C.paired > 0 || !C.players.length) return box.replaceChildren();
  const n = C.num;
  const method = el('select', { id: 'c-num-method', onchange: e => { n.method = e.target.value; n.result = null; renderNumbers(); } },
    ...[['rating', 'c_by_rating'], ['lot', 'c_by_lot'], ['manual', 'c_by_hand']]
      .map(([v, k]) => el('option', { value: v, selected: n.method === v ? '' : null }, t(k))));
  const seed = el('input', { id: 'c-num-seed', size: 16, inputmode: 'numeric', value: n.seed, placeholder: t('c_seed'),
    hidden: n.method === 'lot' ? null : '', oninput: e => { n.seed = e.target.value; n.result = null; } });
  const parts = [el('h3', { text: t('c_numbers') }), el('p', { class: 'caption', text: t('c_num_note') }),
    el('p', { class: 'c-add' }, method, seed,
      el('button', { type: 'button', id: 'c-num-preview', onclick: () => numbers(true) }, t('c_num_preview')))];
  if (n.method === 'manual') {
    // an input per player, filled with the numbers known so far
    parts.push(el('div', { class: 'scroll' }, el('table', { class: 'grid', id: 'c-num-manual' },
      el('thead', {}, el('tr', {}, el('th', { text: t('c_id') }), el('th', { text: t('name') }), el('th', { text: t('rating') }),
        el('th', { text: t('no') }))),
      el('tbody', {}, ...C.players.map((p, i) => el('tr', { 'data-id': p.id },
        el('td', { class: 'num', text: p.id }), el('td', { text: p.name }), el('td', { class: 'num', text: p.rating || '' }),
        el('td', {}, el('input', { size: 4, inputmode: 'numeric', 'data-id': p.id, value: n.manual[p.id] ?? (p.no || i + 1),
          oninput: e => { n.manual[p.id] = e.target.value; n.result = null; } }))))))));
    for (const [i, p] of C.players.entries()) if (n.manual[p.id] === undefined) n.manual[p.id] = String(p.no || i + 1);
  }
  if (n.result) {
    parts.push(el('div', { class: 'scroll' }, el('table', { class: 'grid', id: 'c-num-result' },
      el('thead', {}, el('tr', {}, el('th', { class: 'num', text: t('no') }), el('th', { text: t('name') }),
        el('th', { class: 'num', text: t('rating') }))),
      el('tbody', {}, ...n.result.numbers.map(x => el('tr', { 'data-id': x.id, 'data-no': x.no },
        el('td', { class: 'num', text: x.no }), el('td', { text: x.name }), el('td', { class: 'num', text: x.rating || '' })))))),
      el('p', {}, el('button', { type: 'button', id: 'c-num-store', onclick: () => numbers(false) }, t('c_num_store'))));
  }
  box.replaceChildren(...parts);
}

function renderPreview() {
  const pv = C.preview;
  const box = $('#c-preview');
  if (!pv) return box.replaceChildren();
  if (pv.error) return box.replaceChildren(el('p', { class: 'error', text: pv.error }));
  const ok = pv.lines.filter(l => l.player), bad = pv.lines.filter(l => l.error);
  box.replaceChildren(
    el('p', { text: t('c_preview_n', { n: pv.lines.length, ok: ok.length, bad: bad.length }) + ' · ' + t('c_encoding', { e: pv.encoding }) }),
    pv.fileNumbers ? el('p', { class: 'caption', text: t('c_file_no') }) : null,
    el('div', { class: 'scroll' }, el('table', { class: 'grid' },
      el('thead', {}, el('tr', {}, el('th', { class: 'num', text: t('c_line') }),
        ...(pv.fileNumbers ? [el('th', { class: 'num', text: t('c_file_no_col') })] : []),
        ...['name', 'sex', 'birth', 'region', 'club', 'team_col'].map(k => el('th', { text: t(k) })),
        el('th', { class: 'num', text: t('rating') }), el('th', { text: t('c_error') }))),
      el('tbody', {}, ...pv.lines.map(l => {
        const q = l.player || {};
        return el('tr', { 'data-line': l.line, class: l.error ? 'bad' : '' },
          el('td', { class: 'num', text: l.line }),
          ...(pv.fileNumbers ? [el('td', { class: 'num', text: l.fileNo || '' })] : []),
          el('td', { text: l.player ? q.name : l.fields.join(', ') }), el('td', { text: sexText(q.sex) }),
          el('td', { text: q.birth || '' }), el('td', { text: q.region || '' }), el('td', { text: q.club || '' }),
          el('td', { text: q.team || '' }), el('td', { class: 'num', text: q.rating === undefined ? '' : q.rating }),
          el('td', { class: 'error', text: l.error || '' }));
      })))),
    el('button', { type: 'button', id: 'c-do-import', disabled: ok.length ? null : '', onclick: () => importPlayers(ok) },
      t('c_do_import', { n: ok.length })));
}

async function importPlayers(lines) {
  const replies = await opLines(lines.map((l, i) => ({ id: 'imp' + i, op: 'add_player', player: l.player })));
  const failed = replies.filter(r => r.error);
  if (failed.length) consoleSay(t('failed', { msg: failed.map(r => `${r.id}: ${errText(r.error)}`).join('; ') }), true);
  else consoleSay(t('c_imported', { n: replies.length }), false);
  C.preview = null;
  renderPreview();
  renderConsole();
}

async function addPlayer(form) {
  const fields = ['name', 'sex', 'birth', 'club', 'team', 'rating'].map(k => form.elements[k].value);
  const { player, error } = playerOf(fields, ['name', 'sex', 'birth', 'club', 'team', 'rating']);
  if (error) return consoleSay(error, true);
  const res = await op({ id: 'add', op: 'add_player', player });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_added', { p: res.name }), false);
  form.reset();
  renderConsole();
}

/* The next round: a preview first (nothing stored), then published. */
async function pairPreview(publish) {
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
    pairingTable(res.boards, publish, made.length ? C.base : null),
    publish && made.length ? el('div', { id: 'c-published-changes' }, el('h4', { text: t('c_published_changes', { n: res.round }) }),
      el('ul', {}, ...made.map(c => el('li', { text: `${changeText(c)} — ${c.reason}` })))) : null].filter(Boolean));
  if (publish) consoleSay(t('c_published', { n: res.round, b: res.boards.length }), false);
  renderConsole();
}

/* A pairing as the arbiter checks it: each side's number and name, club,
 * rating and points before the round; the rows the changes moved (from
 * `base`, the pairer's own boards) marked. */
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
      const moved = was && was.get(b.table) !== key(b);
      return el('tr', { 'data-table': b.table, class: moved ? 'changed' : null, title: moved ? t('c_changed') : null },
        el('td', { class: 'num', text: b.table }), ...side(b.red, 'red-name'), ...side(b.black, 'black-name'));
    }))));
}

/* New board tokens for the round on screen, and their slips to print:
 * shown in a frame (the page of the server, its own stylesheet). */
function slips() {
  const round = S.round;
  $('#c-slips').replaceChildren(el('div', { class: 'confirm', role: 'alertdialog' },
    el('span', { text: t('c_slips_new', { r: roundName(round) }) + ' ' }),
    el('button', { type: 'button', id: 'c-slips-go', onclick: () => makeSlips(round) }, t('c_slips_go')),
    el('button', { type: 'button', onclick: () => $('#c-slips').replaceChildren() }, t('c_cancel'))));
}

async function makeSlips(round) {
  const res = await op({ id: 'slips', op: 'slips', round, lang: S.lang });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  const frame = el('iframe', { id: 'c-slips-frame', title: t('c_slips', { n: res.round }) });
  frame.srcdoc = res.html;
  $('#c-slips').replaceChildren(el('p', {}, el('button', { type: 'button', id: 'c-print',
    onclick: () => frame.contentWindow.print() }, t('c_print'))), frame);
}

function consoleInit() {
  $('#c-file').addEventListener('change', async e => {
    const f = e.target.files[0];
    if (!f) return;
    const { text, encoding } = decodeCsv(await f.arrayBuffer());
    C.preview = Object.assign(previewCsv(text), { encoding });
    renderPreview();
  });
  $('#c-add').addEventListener('submit', e => { e.preventDefault(); addPlayer(e.target); });
  $('#c-pair').addEventListener('click', () => pairPreview(false));
  $('#c-slips-btn').addEventListener('click', slips);
  $('#c-amend').addEventListener('submit', e => { e.preventDefault(); addChange(e.target); });
  $('#c-publish').addEventListener('click', () => pairPreview(true));
  // the sections, one click away (the hash names the view and round, not a section)
  for (const b of document.querySelectorAll('#c-nav button'))
    b.addEventListener('click', () => document.getElementById(b.dataset.to).scrollIntoView({ block: 'start' }));
}
document.addEventListener('DOMContentLoaded', consoleInit);
