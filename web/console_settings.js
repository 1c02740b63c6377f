/*
 * console_settings.js -- the 赛事设置 section of the organiser's console
 * (docs/web.md), a staff module: the event's settings (name, dates,
 * venue, organiser, chief arbiter, format, rounds, pairing system,
 * tie-break order, scoring, the broadcast's delay) in a form, read and saved by the settings
 * operation (docs/protocol.md). What may no longer change is shown
 * disabled, with why; only the fields changed are sent.
 */
import { S, $, el, t, op, addWords } from './core.js';
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
}
