/*
 * console_players.js -- the players in the organiser's console
 * (docs/web.md, section 棋手), a staff module: a row each, in number order
 * once the numbers are given; Edit makes the row a form that sends the
 * fields changed; Withdraw asks first, in place, and the row then offers
 * Reinstate; Delete (before round 1 only) asks first, in place; Merge
 * into… takes the other entry's number, shows both and asks; Absent
 * (请假) asks for the round and the bye; the pairing
 * numbers before round 1; a player added by hand, or a list from a CSV
 * file read as a spreadsheet saves it, previewed line by line before
 * anything is stored, then imported in one POST /api/op.
 */
import { S, $, el, t, op, opLines } from './core.js';
import { C, consoleSay, redraw, errText } from './console_base.js';
import { pairingStale } from './console_pairing.js';
import { koTag, koLegend } from './views.js';

/* ---- the players: a row each; edit, withdraw, reinstate, delete, absent ---- */

/* A player's sex in the page's language. */
function sexText(s) {
  return s ? t(s === 'w' ? 'c_sex_w' : 'c_sex_m') : '';
}

/* A player's number (序号 once drawn, else the id): what the operations take. */
const playerNo = p => p.no || p.id;
const numbered = () => C.players.some(p => p.no);

/* The players' table from C.players (a row being edited is a form): the
 * drawn number (序号) first once there is one, the registration id (报名号)
 * always, each heading saying which (title); the knockout's players
 * (C.ko, views.js's koMarks) tagged, with the legend under the table. */
export function renderPlayers() {
  const cols = [...(numbered() ? ['no'] : []), 'c_id', 'name', 'sex', 'birth', 'region', 'club', 'team_col', 'rating',
    ...(C.ko ? ['kom_col'] : []), 'c_act'];
  const tip = { no: 'c_no_tip', c_id: 'c_id_tip' };
  $('#c-players thead').replaceChildren(el('tr', {}, ...cols.map(k => el('th', { 'data-col': k, class: tip[k] || k === 'rating' ? 'num' : null,
    title: tip[k] ? t(tip[k]) : null, text: t(k) }))));
  koLegend($('#c-players').closest('.scroll') || $('#c-players'), 'c-players', C.ko);
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
        t('c_withdraw')),
    // two entries of one player made one: the other's number, both shown, then asked
    el('button', { type: 'button', 'data-action': 'merge', onclick: () => {
      const d = dupOf(p);
      Object.assign(C, { merging: p.id, mergeInto: d ? String(playerNo(d)) : '', mergeAsk: false, confirm: null, absent: null, removing: null });
      renderPlayers();
    } }, t('c_merge')),
    // deleted only before round 1 is paired (then withdraw); asked first
    C.paired ? null : el('button', { type: 'button', 'data-action': 'remove',
      onclick: () => { C.removing = p.id; C.confirm = C.absent = null; renderPlayers(); } }, t('c_remove')));
  if (C.removing === p.id) {
    acts.append(el('div', { class: 'confirm', role: 'alertdialog' },
      el('span', { text: t('c_confirm_remove', { name: p.name, k: t(numbered() ? 'no' : 'c_id'), no: playerNo(p) }) }),
      el('button', { type: 'button', 'data-action': 'yes-remove', onclick: () => removePlayer(p) }, t('c_yes_remove')),
      el('button', { type: 'button', 'data-action': 'no', onclick: () => { C.removing = null; renderPlayers(); } },
        t('no_change'))));
  }
  if (C.merging === p.id) acts.append(mergeForm(p));
  if (C.confirm === p.id) {
    // asked in place, as the arbiter's desk asks before changing a result
    acts.append(el('div', { class: 'confirm', role: 'alertdialog' },
      el('span', { text: t('c_confirm_withdraw', { name: p.name, k: t(numbered() ? 'no' : 'c_id'), no: playerNo(p), r: C.paired + 1 }) }),
      el('button', { type: 'button', 'data-action': 'yes', onclick: () => withdraw(p) }, t('c_yes_withdraw')),
      el('button', { type: 'button', 'data-action': 'no', onclick: () => { C.confirm = null; renderPlayers(); } },
        t('no_change'))));
  }
  if (C.absent === p.id) acts.append(absentForm(p));
  const tag = koTag(C.ko, p.id);
  return el('tr', { 'data-id': p.id, 'data-no': playerNo(p), class: [p.withdrawn ? 'withdrawn' : '', tag ? 'ko-in' : ''].join(' ').trim() || null },
    numbered() ? el('td', { class: 'num', 'data-col': 'no', text: p.no || '' }) : null,
    el('td', { class: 'num', 'data-col': 'c_id', text: p.id }),
    el('td', { 'data-col': 'name', text: p.name + (p.withdrawn ? ` (${t('c_withdrawn')})` : '') }, dupMark(p)),
    el('td', { text: sexText(p.sex) }), el('td', { text: p.birth || '' }), el('td', { 'data-col': 'region', text: p.region || '' }),
    el('td', { text: p.club || '' }), el('td', { text: p.team || '' }), el('td', { class: 'num', text: p.rating || '' }),
    C.ko ? el('td', { 'data-col': 'ko' }, tag) : null,
    el('td', {}, acts));
}

/* ---- two entries of one player merged (merge_players): the row's entry
 * goes into the other, whose number is typed (pre-filled when a likely
 * duplicate is seen); both entries shown before it is asked ---- */

const sameDate = (a, b) => (a || '').replace(/[-.]/g, '/') === (b || '').replace(/[-.]/g, '/');

/* The first other player with p's name and birth date: a likely duplicate
 * (an import made twice, a player registered twice by hand), or null. */
function dupOf(p) {
  return C.players.find(q => q.id !== p.id && q.name === p.name && sameDate(q.birth, p.birth)) || null;
}

/* The mark on a later entry of a likely duplicate, pointing at the first. */
function dupMark(p) {
  const d = dupOf(p);
  if (!d || d.id > p.id) return null;
  return el('span', { class: 'caption dup', 'data-dup': playerNo(d),
    text: ' ' + t('c_dup_of', { k: t(numbered() ? 'no' : 'c_id'), no: playerNo(d) }) });
}

/* An entry as the confirmation shows it: name, number and the details. */
function entryText(q) {
  const k = t(numbered() ? 'no' : 'c_id');
  const [open, sep, close] = S.lang === 'zh' ? ['（', '，', '）'] : [' (', ', ', ')'];
  return `${q.name}${open}${k} ${playerNo(q)}` + [sexText(q.sex), q.birth, q.region, q.club, q.team, q.rating || '']
    .filter(Boolean).map(x => sep + x).join('') + close;
}

function mergeForm(p) {
  const k = t(numbered() ? 'no' : 'c_id');
  const into = el('input', { name: 'merge-into', size: 4, inputmode: 'numeric', value: C.mergeInto,
    'aria-label': t('c_merge_into', { k }), oninput: e => { C.mergeInto = e.target.value; C.mergeAsk = false; } });
  const keep = C.players.find(q => playerNo(q) === +C.mergeInto && q.id !== p.id);
  const cancel = el('button', { type: 'button', 'data-action': 'no',
    onclick: () => { C.merging = null; C.mergeAsk = false; renderPlayers(); } }, t('c_cancel'));
  if (C.mergeAsk && keep) {
    return el('div', { class: 'confirm', role: 'alertdialog', 'data-merge': playerNo(p) },
      el('span', { text: t('c_confirm_merge', { drop: entryText(p), keep: entryText(keep) }) }),
      el('button', { type: 'button', 'data-action': 'yes-merge', onclick: () => mergePlayers(keep, p) }, t('c_yes_merge')),
      cancel);
  }
  return el('div', { class: 'confirm', role: 'alertdialog', 'data-merge': playerNo(p) },
    el('span', { text: entryText(p) + ' ' + t('c_merge_into', { k }) + ' ' }), into,
    el('button', { type: 'button', 'data-action': 'merge-check', onclick: () => {
      if (!C.players.some(q => playerNo(q) === +C.mergeInto && q.id !== p.id)) return consoleSay(t('c_merge_bad', { k }), true);
      C.mergeAsk = true;
      renderPlayers();
    } }, t('c_merge_check')), cancel);
}

async function mergePlayers(keep, drop) {
  C.merging = null;
  C.mergeAsk = false;
  const res = await op({ id: 'merge', op: 'merge_players', keep: playerNo(keep), drop: playerNo(drop) });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  const f = res.filled.map(k => t(k === 'team' ? 'team_col' : k)).join(', ');
  consoleSay(t('c_merged', { drop: res.drop.name, keep: res.keep.name, f: f ? t('c_merged_f', { f }) : '' }), false);
  pairingStale();
  redraw();
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
  redraw();
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
  redraw();
}

async function withdraw(p) {
  C.confirm = null;
  const res = await op({ id: 'withdraw', op: 'withdraw', player: playerNo(p) });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_withdrew', { name: p.name, r: res.round }), false);
  pairingStale();
  redraw();
}

async function removePlayer(p) {
  C.removing = null;
  const res = await op({ id: 'remove', op: 'remove_player', player: playerNo(p) });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_removed', { name: res.name }), false);
  pairingStale();
  redraw();
}

async function reinstate(p) {
  const res = await op({ id: 'reinstate', op: 'reinstate', player: playerNo(p) });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_reinstated', { name: p.name, r: res.round }), false);
  pairingStale();
  redraw();
}

/* ---- the pairing numbers before round 1: seeded by rating, drawn by lot
 * (a seed typed, or a random one shown after the preview) or entered by
 * hand; previewed (nothing stored), then stored exactly as previewed; gone
 * once round 1 is paired ---- */

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
  else { pairingStale(); redraw(); }
}

/* The Numbers block, while no round is paired and there are players. */
export function renderNumbers() {
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

/* ---- a CSV file as a spreadsheet saves it: UTF-8 with or without its BOM,
 * or GBK as Chinese Excel writes it; a first line of headings in Chinese or
 * English; each line read into an add_player `player` or an error (no name,
 * a sex that is neither, a date that does not exist, a rating with a
 * decimal, a full-width comma, a player repeated in the file or registered
 * already) ---- */

/* A CSV's bytes as text: UTF-8 after its BOM; else UTF-8 when they are
 * valid UTF-8 and not better read as GBK; else GBK (GB18030), as
 * spreadsheets in China save it. Bytes valid both ways are judged as the
 * records reader judges text (docs/records.md): GBK when that reading is
 * mostly common hanzi and the UTF-8 one mostly characters no list of
 * names holds (combining marks, Greek, Cyrillic, Hebrew: 郑惟桐 in GBK is
 * "\u05A3\u03A9\u0369" in UTF-8); when both read plausibly, UTF-8 with
 * `doubt` set, so that the preview says so. */
function decodeCsv(bytes) {
  const b = new Uint8Array(bytes);
  if (b[0] === 0xEF && b[1] === 0xBB && b[2] === 0xBF) return { text: new TextDecoder('utf-8').decode(b.subarray(3)), encoding: 'UTF-8 (BOM)' };
  const read = enc => { try { return new TextDecoder(enc, { fatal: true }).decode(b); } catch (e) { return null; } };
  const utf8 = read('utf-8');
  if (utf8 === null) return { text: new TextDecoder('gbk').decode(b), encoding: 'GBK' };
  const gbk = read('gbk');
  const wide = text => [...text].filter(c => c.codePointAt(0) >= 0x80);
  const g = gbk === null ? [] : wide(gbk);
  const common = g.filter(c => /[\u4e00-\u9fa5\u3000-\u303f\uff00-\uffef]/.test(c)).length;
  if (g.length < 2 || common * 4 < g.length * 3) return { text: utf8, encoding: 'UTF-8' };
  const u = wide(utf8);
  const odd = u.filter(c => c.codePointAt(0) >= 0x300 && c.codePointAt(0) < 0x800).length;
  if (odd * 2 > u.length) return { text: gbk, encoding: 'GBK' };
  return { text: utf8, encoding: 'UTF-8', doubt: true };
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

/* One data line (its fields, under the headings' fields `cols`) into an
 * add_player `player`, or an error. */
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
    if (!m) return { error: t('c_bad_birth') };
    if (day.getUTCMonth() !== +m[2] - 1 || day.getUTCDate() !== +m[3]) return { error: t('c_no_date', { d: p.birth }) }; // no 13th month, no 30 February
    p.birth = `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`;
  }
  if (p.rating !== undefined) {
    if (!/^\d{1,4}$/.test(p.rating)) return { error: t('c_bad_rating') };
    p.rating = +p.rating;
  }
  delete p.no; // the file's own numbering: shown, not stored
  return { player: p };
}

/* A birth date in its one form, YYYY/MM/DD, whatever separators it is
 * written with (1989-3-15, 1989.03.15, 1989年3月15日); a text that is not
 * a date as written. */
function birthKey(b) {
  const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(b || '');
  return m ? `${m[1]}/${m[2].padStart(2, '0')}/${m[3].padStart(2, '0')}` : (b || '');
}

/* The identity of a player for duplicates, as `xqref tourney add`,
 * `import-players` and the server's add_player judge it (xq_player_same):
 * the name, the birth date in any written form and the club. */
const dupKey = p => `${p.name}|${birthKey(p.birth)}|${p.club || ''}`;

/* Lines that repeat an earlier line or a registered player become errors. */
function markDuplicates(lines, registered) {
  const seen = new Map(), stored = new Map((registered || []).map(p => [dupKey(p), p]));
  const birthText = p => (p.birth ? (S.lang === 'zh' ? '、出生日期' : ', birth date') : '') +
    (p.club ? (S.lang === 'zh' ? '、单位' : ', club') : '');
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

/* The preview of a file: a line each, its player or its error (one that
 * repeats a player of `registered` too). */
function previewCsv(text, registered) {
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
  return { lines: markDuplicates(lines, registered), fileNumbers: cols.includes('no') };
}

/* ---- players added: one by hand, or a CSV list previewed (every field as
 * it will be stored, each bad line's error), then imported in one POST
 * /api/op of add_player lines ---- */

/* The preview of the file read (C.preview) with its Import button. */
function renderPreview() {
  const pv = C.preview;
  const box = $('#c-preview');
  if (!pv) return box.replaceChildren();
  if (pv.error) return box.replaceChildren(el('p', { class: 'error', text: pv.error }));
  const ok = pv.lines.filter(l => l.player), bad = pv.lines.filter(l => l.error);
  box.replaceChildren(
    el('p', { text: t('c_preview_n', { n: pv.lines.length, ok: ok.length, bad: bad.length }) + ' · ' + t('c_encoding', { e: pv.encoding }) +
      (pv.doubt ? ' · ' + t('c_encoding_doubt') : '') }),
    ...(pv.fileNumbers ? [el('p', { class: 'caption', text: t('c_file_no') })] : []), // replaceChildren would write null as "null"
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
  // the server applies an import all or none: the lines that failed say why
  const why = failed.filter(r => r.error.code !== 'NOT_APPLIED');
  const say = (why.length ? why : failed).map(r => `${r.id}: ${errText(r.error)}`).join('; ');
  if (failed.length && why.length < failed.length) consoleSay(t('c_import_none', { msg: say }), true);
  else if (failed.length) consoleSay(t('failed', { msg: say }), true);
  else {
    const warned = replies.filter(r => r.warning).map(r => r.warning).join('; ');
    consoleSay(t('c_imported', { n: replies.length }) + (warned ? ` — ${warned}` : ''), false);
  }
  C.preview = null;
  renderPreview();
  redraw();
}

async function addPlayer(form) {
  const keys = ['name', 'sex', 'birth', 'region', 'club', 'team', 'rating'];
  const { player, error } = playerOf(keys.map(k => form.elements[k].value), keys);
  if (error) return consoleSay(error, true);
  const res = await op({ id: 'add', op: 'add_player', player });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  // the server's warning (a birth date missing where the groups go by it)
  consoleSay(t('c_added', { p: res.name }) + (res.warning ? ` — ${res.warning}` : ''), false);
  form.reset();
  redraw();
}

/* The file input and the form of a player added by hand. */
export function initAdd() {
  $('#c-file').addEventListener('change', async e => {
    const f = e.target.files[0];
    if (!f) return;
    const { text, encoding, doubt } = decodeCsv(await f.arrayBuffer());
    C.preview = Object.assign(previewCsv(text, C.players), { encoding, doubt });
    renderPreview();
  });
  $('#c-add').addEventListener('submit', e => { e.preventDefault(); addPlayer(e.target); });
}
