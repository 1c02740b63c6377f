/*
 * console_settings.js -- the 赛事设置 section of the organiser's console
 * (docs/web.md), a staff module: the event's settings (name, dates,
 * venue, organiser, chief arbiter, format, rounds, pairing system,
 * tie-break order, scoring, the broadcast's delay) in a form, read and saved by the settings
 * operation (docs/protocol.md). What may no longer change is shown
 * disabled, with why; only the fields changed are sent. And who may act
 * on the event (令牌): the staff's tokens listed, an arbiter's (or
 * another) made, its text shown once, and one revoked, asked first (the
 * token, tokens and revoke operations).
 */
import { S, $, el, t, op, addWords, askFirst } from './core.js';
import { errText } from './console_base.js';

addWords({
  zh: {
    s_title: '赛事设置', s_name: '名称', s_dates: '日期', s_venue: '地点', s_organiser: '主办', s_arbiter: '裁判长',
    s_format: '赛制', s_swiss: '积分编排（瑞士制）', s_rr: '单循环', s_rr2: '双循环', s_rounds: '轮数',
    s_system: '编排方法', s_cn: '中国象棋协会（相邻编排）', s_dutch: 'FIDE 荷兰制', s_tiebreaks: '破同分顺序',
    s_scoring: '计分', s_s210: '胜2 和1 负0', s_s105: '胜1 和½ 负0', s_save: '保存设置', s_saved: '已保存：{f}',
    s_nothing: '没有修改', s_dates_hint: '如 2026年5月1日至5日', s_tb_hint: '代码或方案：os ps cxa_rr1 …',
    s_lock_format: '第1轮已编排，赛制不能再改', s_lock_scoring: '第1轮已编排，计分不能再改',
    s_lock_rounds: '循环赛的轮数由参赛人数决定', s_lock_name: '名称为规程标题：分组、报名限额和奖项据此查找',
    s_rounds_min: '已编排{n}轮：轮数不能更少', s_note: '名称、日期和地点印在每张表格和台次令牌上。',
    tk_title: '令牌', tk_role: '身份', tk_label: '备注', tk_make: '生成令牌', tk_hash: '标识', tk_revoke: '撤销',
    tk_new: '新令牌（只显示这一次，请抄下或转交）：', tk_ask: '撤销令牌 {h}（{r}{l}）？用它登录的页面和连接立即失效。',
    tk_revoked: '已撤销令牌 {h}', tk_board: '第{r}轮第{t}台', tk_note: '棋盘令牌随台次令牌打印；此处生成裁判、管理员或观众令牌。',
    s_delay: '直播延时（秒）', s_delay_hint: '空：按服务器 --delay', s_delay_note: '观众晚这么多秒看到棋步和结果（防作弊，常用900秒=15分钟）；裁判与主办即时可见',
  },
  en: {
    s_title: 'Event settings', s_name: 'Name', s_dates: 'Dates', s_venue: 'Venue', s_organiser: 'Organiser',
    s_arbiter: 'Chief arbiter', s_format: 'Format', s_swiss: 'Swiss', s_rr: 'Round robin', s_rr2: 'Double round robin',
    s_rounds: 'Rounds', s_system: 'Pairing system', s_cn: 'Chinese (adjacent)', s_dutch: 'FIDE Dutch',
    s_tiebreaks: 'Tie-break order', s_scoring: 'Scoring', s_s210: 'win 2, draw 1, loss 0',
    s_s105: 'win 1, draw ½, loss 0', s_save: 'Save the settings', s_saved: 'Saved: {f}', s_nothing: 'Nothing changed',
    s_dates_hint: 'e.g. 1–5 May 2026', s_tb_hint: 'codes or a preset: os ps cxa_rr1 …',
    s_rounds_min: '{n} rounds are paired: not fewer', s_note: 'The name, dates and venue head every sheet and board slip.',
    tk_title: 'Tokens', tk_role: 'Role', tk_label: 'Label', tk_make: 'Make a token', tk_hash: 'Id', tk_revoke: 'Revoke',
    tk_new: 'New token (shown this once: copy it or hand it over): ',
    tk_ask: 'Revoke token {h} ({r}{l})? Pages and connections signed in with it stop at once.',
    tk_revoked: 'Token {h} revoked', tk_board: 'round {r} table {t}',
    tk_note: 'Board tokens come with the board slips; make arbiter, admin or viewer tokens here.',
    s_delay: 'Broadcast delay (s)', s_delay_hint: 'empty: the server\'s --delay',
    s_delay_note: 'viewers see moves and results this many seconds late (against cheating; 900 = 15 min); arbiters and organisers at once',
  },
});

/* The form's fields: [key, kind, choices]; text fields keep their sizes
 * from the server's limits (tourney.h). */
const FIELDS = [
  ['name', 'text', 255], ['dates', 'text', 63], ['venue', 'text', 127], ['organiser', 'text', 127],
  ['arbiter', 'text', 127], ['format', 'select', ['swiss', 'rr', 'rr2']], ['rounds', 'number'],
  ['system', 'select', ['cn', 'dutch']], ['tiebreaks', 'text', 255], ['scoring', 'select', ['2-1-0', '1-0.5-0']],
  ['delay', 'delay'],
];
const CHOICE_WORDS = { swiss: 's_swiss', rr: 's_rr', rr2: 's_rr2', cn: 's_cn', dutch: 's_dutch',
  '2-1-0': 's_s210', '1-0.5-0': 's_s105' };

const SET = { read: null, dirty: false };

function say(text, error) {
  const p = $('#s-result');
  p.textContent = text;
  p.classList.toggle('error', !!error);
}

/* Why `key` is locked, in the page's language: the server's reason on
 * the English page (the fields it locks: format, scoring, rounds, name). */
function lockText(key, why) {
  return S.lang === 'zh' ? t('s_lock_' + key) : why;
}

/* One row of the form: its label, its control, and why it is locked. */
function fieldRow(st, [key, kind, more]) {
  const why = st.locked && st.locked[key];
  let ctl;
  if (kind === 'select') {
    ctl = el('select', { name: key, id: 's-' + key },
      ...more.map(v => el('option', { value: v, text: t(CHOICE_WORDS[v]) })));
    ctl.value = st[key];
  } else if (kind === 'delay') {
    ctl = el('input', { name: key, id: 's-' + key, type: 'number', min: 0, max: 3600, inputmode: 'numeric', size: 6,
      placeholder: t('s_delay_hint') });
    ctl.value = st.delay === null || st.delay === undefined ? '' : st.delay;
  } else if (kind === 'number') {
    ctl = el('input', { name: key, id: 's-' + key, type: 'number', min: st.rounds_min || 1, max: 49,
      inputmode: 'numeric', size: 4 });
    ctl.value = st.format === 'swiss' && st.rounds > 0 ? st.rounds : '';
  } else {
    ctl = el('input', { name: key, id: 's-' + key, maxlength: more, size: key === 'name' ? 36 : 24,
      placeholder: key === 'dates' ? t('s_dates_hint') : key === 'tiebreaks' ? t('s_tb_hint') : null });
    ctl.value = st[key] || '';
  }
  if (why) ctl.disabled = true;
  ctl.addEventListener('input', () => { SET.dirty = true; });
  const note = why ? lockText(key, why)
    : key === 'rounds' && st.paired > 0 ? t('s_rounds_min', { n: st.paired })
    : key === 'delay' ? t('s_delay_note') : null;
  return el('label', { class: 's-row', 'data-key': key }, el('span', { text: t('s_' + key) }), ctl,
    note ? el('small', { class: 's-lock caption', text: note }) : null);
}

/* A round robin's rounds follow from its entrants: the rounds are typed
 * for a Swiss event only, also when the format is being changed to it. */
function formatChanged() {
  const f = $('#s-form').elements, rr = f.format.value !== 'swiss';
  if (f.format.disabled || !SET.read) return;
  f.rounds.disabled = rr;
  const lock = $('.s-row[data-key="rounds"] .s-lock'); // a round robin's, when it was one
  if (lock && SET.read.format !== 'swiss') lock.hidden = !rr;
}

/* Draw the form from a settings reply. */
function draw(st) {
  SET.read = st;
  SET.dirty = false;
  $('#s-form').replaceChildren(...FIELDS.map(f => fieldRow(st, f)),
    el('button', { type: 'submit', id: 's-save', text: t('s_save') }));
  $('#s-format').addEventListener('change', formatChanged);
}

/* The section read again from the server, unless the form holds edits
 * not saved yet. */
export async function renderSettings() {
  if (SET.dirty && SET.read) return;
  const st = await op({ id: 'settings', op: 'settings' });
  if (st.error) { say(errText(st.error), true); return; }
  draw(st);
}

/* The request's "set": the fields whose value the form changed. */
function changes() {
  const f = $('#s-form').elements, set = {};
  for (const [key, kind] of FIELDS) {
    const c = f[key];
    if (!c || c.disabled) continue;
    if (kind === 'delay') {
      const now = c.value === '' ? null : +c.value; // empty: the server's (serve --delay)
      if (now !== (SET.read.delay === undefined ? null : SET.read.delay)) set.delay = now;
    } else if (kind === 'number') {
      if (c.value !== '' && +c.value !== SET.read.rounds) set.rounds = +c.value;
    } else if (c.value !== (SET.read[key] || '')) {
      set[key] = c.value;
    }
  }
  return set;
}

/* Show the event's name, dates and venue in the page's heading at once
 * (the pages hear of the change and read the event again). */
function heading(st) {
  $('#event-name').textContent = st.name || 'xqref';
  const info = $('#event-info');
  if (info) info.textContent = [st.dates, st.venue].filter(Boolean).join(' · ');
}

async function save(ev) {
  ev.preventDefault();
  const set = changes();
  if (!Object.keys(set).length) { say(t('s_nothing'), false); return; }
  const res = await op({ id: 'settings', op: 'settings', set });
  if (res.error) { say(t('failed', { msg: errText(res.error) }), true); return; }
  draw(res);
  heading(res);
  say(res.changed.length ? t('s_saved', { f: res.changed.map(k => t('s_' + k)).join(S.lang === 'zh' ? '、' : ', ') })
    : t('s_nothing'), false);
}

export function initSettings() {
  $('#s-form').addEventListener('submit', save);
  initTokens();
}

/* ---- 令牌: the staff's tokens (docs/protocol.md token, tokens, revoke) ---- */

const TOKEN_ROLES = ['arbiter', 'admin', 'viewer'];

function tokenSay(text, error, ...extra) {
  const p = $('#t-result');
  p.replaceChildren(text, ...extra);
  p.classList.toggle('error', !!error);
}

/* A token's role and label in words: 裁判, 第1轮第3台 (a board's). */
function tokenWho(k) {
  return t('role_' + k.role) + (k.role === 'board' ? ' ' + t('tk_board', { r: k.round, t: k.table }) : '');
}

/* The list of live tokens, each with Revoke (asked first). */
export async function renderTokens() {
  const res = await op({ id: 'tokens', op: 'tokens' });
  if (res.error) return tokenSay(errText(res.error), true);
  $('#t-list thead').replaceChildren(el('tr', {}, el('th', { text: t('tk_hash') }), el('th', { text: t('tk_role') }),
    el('th', { text: t('tk_label') }), el('th', {})));
  $('#t-list tbody').replaceChildren(...res.tokens.map(k => {
    const revoke = el('button', { type: 'button', 'data-action': 'revoke', text: t('tk_revoke') });
    const row = el('tr', { 'data-hash': k.hash }, el('td', {}, el('code', { text: k.hash })),
      el('td', { text: tokenWho(k) }), el('td', { text: k.label || '' }), el('td', {}, revoke));
    revoke.addEventListener('click', () => {
      $('#t-list .confirm.c-ask')?.remove();
      const text = t('tk_ask', { h: k.hash, r: tokenWho(k), l: k.label ? ' · ' + k.label : '' });
      revoke.after(askFirst(text, t('tk_revoke'), t('no_change'), async yes => {
        if (!yes) return revoke.focus();
        const r = await op({ id: 'revoke', op: 'revoke', hash: k.hash });
        if (r.error) return tokenSay(t('failed', { msg: errText(r.error) }), true);
        tokenSay(t('tk_revoked', { h: k.hash }), false);
        renderTokens();
      }, { attrs: { class: 'confirm c-ask' } }));
    });
    return row;
  }));
}

/* The form that makes a token: its role and label; the new token's text
 * shown once, above the list. */
function initTokens() {
  const form = $('#t-form');
  form.replaceChildren(
    el('label', {}, el('span', { 'data-i18n': 'tk_role', text: t('tk_role') }),
      el('select', { name: 'role' }, ...TOKEN_ROLES.map(r => el('option', { value: r, 'data-i18n': 'role_' + r, text: t('role_' + r) })))),
    el('label', {}, el('span', { 'data-i18n': 'tk_label', text: t('tk_label') }), el('input', { name: 'label', size: 20, maxlength: 127 })),
    el('button', { type: 'submit', 'data-i18n': 'tk_make', text: t('tk_make') }));
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const f = form.elements;
    const res = await op({ id: 'token', op: 'token', role: f.role.value, label: f.label.value.trim() });
    if (res.error) return tokenSay(t('failed', { msg: errText(res.error) }), true);
    $('#t-new').replaceChildren(t('tk_new'), el('code', { text: res.token }), ` · ${tokenWho(res)}${res.label ? ' · ' + res.label : ''}`);
    f.label.value = '';
    tokenSay('', false);
    renderTokens();
  });
}
