/*
 * console_players.js -- the players in the organiser's console
 * (docs/web.md): a row each, in number order once the numbers are
 * given; Edit makes the row a form that sends the fields changed;
 * Withdraw asks first, in place, and the row then offers Reinstate;
 * Absent (请假) asks for the round and the bye.
 */
import { t } from './words.js';
import { $, el } from './dom.js';
import { op } from './api.js';
import { errText } from './messages.js';
import { C, consoleSay, redraw } from './console_state.js';
import { pairingStale } from './console_pairing.js';

/* A player's sex in the page's language. */
export function sexText(s) {
  return s ? t(s === 'w' ? 'c_sex_w' : 'c_sex_m') : '';
}

/* A player's number (序号 once drawn, else the id): what the operations take. */
const playerNo = p => p.no || p.id;
const numbered = () => C.players.some(p => p.no);

/* The players' table from C.players (a row being edited is a form). */
export function renderPlayers() {
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

async function reinstate(p) {
  const res = await op({ id: 'reinstate', op: 'reinstate', player: playerNo(p) });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_reinstated', { name: p.name, r: res.round }), false);
  pairingStale();
  redraw();
}
