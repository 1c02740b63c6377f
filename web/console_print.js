/*
 * console_print.js -- the Print section (打印) of the organiser's console
 * (docs/web.md), a staff module: a sheet chosen (the pairing sheet, the
 * who-plays-where list or the score sheets of a round, the cross table or
 * rounds table, the players' score cards, the standings after a round, the final places,
 * the team standings, the prizes of a preset or of a prize-table file; a
 * team event's match sheets, team standings, board prizes and cross table) in
 * Chinese or English, shown as the server's print view in a frame with a
 * Print button, or downloaded as CSV or XLSX. Every sheet is the export
 * operation's (docs/protocol.md); this module only asks for it.
 */
import { S, $, el, t, op, addWords, roundName } from './core.js';
import { errText } from './console_base.js';

addWords({
  zh: {
    p_print: '打印', p_pairings: '对阵表', p_scoresheets: '记分表', p_crosstable: '交叉表', p_standings: '成绩排名', p_places: '最终名次',
    p_teams: '团体成绩', p_prizes: '获奖名单', p_round: '轮次', p_lang: '语言', p_view: '打印预览', p_preset: '规程',
    p_prize_file: '奖金表文件', p_none: '（无）', p_mode: '团体计分', p_mode_default: '按规程', p_mode_places: '名次分',
    p_mode_points: '积分和', p_need_prizes: '获奖名单须选择规程或奖金表文件', p_saved: '已下载 {f}',
    p_sheet: '表格', p_where: '棋手座位表（按姓名）', p_rounds_table: '轮次成绩表', p_cards: '个人成绩卡',
    p_player: '棋手序号（空：全部）',
    p_matches: '团体对阵表', 'p_team-standings': '团体成绩（场分、局分）', 'p_board-prizes': '台次奖',
    'p_team-crosstable': '团体成绩表（交叉表）',
  },
  en: {
    p_print: 'Print', p_pairings: 'Pairing sheet', p_scoresheets: 'Score sheets', p_crosstable: 'Cross table', p_standings: 'Standings',
    p_places: 'Final places', p_teams: 'Team standings', p_prizes: 'Prizes', p_round: 'Round', p_lang: 'Language',
    p_view: 'Print view', p_preset: 'Regulation', p_prize_file: 'Prize table file', p_none: '(none)', p_mode: 'Team score',
    p_mode_default: 'as the regulation', p_mode_places: 'sum of places', p_mode_points: 'sum of points',
    p_need_prizes: 'Prizes need a regulation or a prize table file', p_saved: '{f} downloaded',
    p_sheet: 'Sheet', p_where: 'Who plays where (by name)', p_rounds_table: 'Rounds table', p_cards: 'Score cards',
    p_player: 'Player no. (empty: all)',
    p_matches: 'Team match sheets', 'p_team-standings': 'Team standings (match points)', 'p_board-prizes': 'Board prizes',
    'p_team-crosstable': 'Team cross table',
  },
});

const P = { prizes: null, presets: null, shown: undefined, count: undefined }; // shown, count: the round on screen and the rounds published when last drawn

/* The sheets that name a round. */
const P_ROUNDS = ['pairings', 'where', 'scoresheets', 'standings', 'crosstable', 'cards', 'matches', 'team-standings',
  'board-prizes', 'team-crosstable'];

/* The export request of the form, in `format`; or an error text. */
function printReq(format) {
  const f = $('#p-form').elements;
  const what = f.what.value;
  const req = { id: 'print', op: 'export', format, what, lang: f.lang.value };
  if (P_ROUNDS.includes(what) && +f.round.value > 0) req.round = +f.round.value;
  if (what === 'teams' && f.mode.value) req.mode = f.mode.value;
  if (what === 'cards' && +f.player.value > 0) req.player = +f.player.value;
  if (what === 'teams' || what === 'prizes') {
    if (P.prizes !== null) req.prizes = P.prizes;
    else if (f.preset.value) req.preset = f.preset.value;
  }
  if (what === 'prizes' && !req.prizes && !req.preset) return { error: t('p_need_prizes') };
  return { req };
}

function printSay(text, error) {
  const p = $('#p-result');
  p.textContent = text;
  p.classList.toggle('error', !!error);
}

async function printAsk(format) {
  const { req, error } = printReq(format);
  if (error) { printSay(error, true); return null; }
  const res = await op(req);
  if (res.error) { printSay(t('failed', { msg: errText(res.error) }), true); return null; }
  printSay('', false);
  return res;
}

/* The server's HTML in a frame (its own print stylesheet), and a button
 * that prints the frame alone. */
async function printView() {
  const res = await printAsk('html');
  if (!res) return;
  const frame = el('iframe', { id: 'p-frame', title: t('p_' + res.what), 'data-what': res.what });
  frame.srcdoc = res.text;
  $('#p-out').replaceChildren(el('p', {}, el('button', { type: 'button', id: 'p-print-btn',
    onclick: () => frame.contentWindow.print() }, t('c_print'))), frame);
}

/* A reply's sheet as a file download. */
function saveSheet(res) {
  let blob;
  if (res.base64) {
    const bin = atob(res.base64), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    blob = new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  } else {
    // a BOM, so that Excel reads the CSV as UTF-8
    blob = new Blob(['\ufeff' + res.text], { type: 'text/csv;charset=utf-8' });
  }
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: res.filename, hidden: '' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  printSay(t('p_saved', { f: res.filename }), false);
}

async function printDownload(format) {
  const res = await printAsk(format);
  if (res) saveSheet(res);
}

/* The fields each sheet takes: a round, a regulation and a prize file,
 * the team mode. */
function printFields() {
  const what = $('#p-form').elements.what.value;
  $('#p-round-opt').hidden = !P_ROUNDS.includes(what);
  $('#p-prize-opts').hidden = what !== 'teams' && what !== 'prizes';
  $('#p-team-opts').hidden = what !== 'teams';
  $('#p-player-opt').hidden = what !== 'cards';
}

/* The section's fields: the published rounds, the language, the presets. */
export async function renderPrint() {
  if (S.role !== 'admin') return;
  const f = $('#p-form').elements;
  // the published rounds by name (the knockout's tables too: their score
  // sheets); the round chosen follows the round on screen and a round
  // newly published, else stays as the organiser chose it
  const rounds = (S.event && S.event.published) || [];
  let chosen = f.round.value;
  if (S.round !== P.shown) chosen = String(S.round || '');
  else if (P.count !== undefined && rounds.length > P.count) chosen = String(rounds[rounds.length - 1]);
  P.shown = S.round;
  P.count = rounds.length;
  f.round.replaceChildren(...rounds.map(r => el('option', { value: r, text: roundName(r) })));
  if (rounds.map(String).includes(chosen)) f.round.value = chosen;
  if (!f.lang.dataset.set) f.lang.value = S.lang;
  // a round robin's cross table (交叉表); a Swiss event's is its rounds table
  const rr = !!S.event && S.event.format !== undefined && S.event.format !== 'swiss';
  const cross = f.what.querySelector('option[value="crosstable"]');
  cross.dataset.i18n = rr ? 'p_crosstable' : 'p_rounds_table';
  cross.textContent = t(cross.dataset.i18n);
  // a team event's sheets (团体对阵表 of a round, 场分 standings, 台次奖, its cross table)
  const team = !!(S.event && S.event.team);
  for (const o of f.what.querySelectorAll('option[data-team]')) o.hidden = !team;
  if (!team && f.what.selectedOptions[0] && f.what.selectedOptions[0].hidden) f.what.value = 'pairings';
  if (!P.presets) {
    const ev = await op({ id: 'print-event', op: 'event' });
    P.presets = (ev && ev.presets) || [];
    f.preset.replaceChildren(el('option', { value: '', 'data-i18n': 'p_none', text: t('p_none') }),
      ...P.presets.map(p => el('option', { value: p.name, text: `${p.name} — ${p.title}` })));
  }
  printFields();
}

/* The form's buttons; the section filled when the console is shown or
 * signed in. */
export function initPrint() {
  const form = $('#p-form');
  form.addEventListener('submit', e => e.preventDefault());
  form.elements.what.addEventListener('change', printFields);
  form.elements.lang.addEventListener('change', e => { e.target.dataset.set = '1'; });
  $('#p-prize-file').addEventListener('change', async e => {
    const file = e.target.files[0];
    P.prizes = file ? await file.text() : null;
  });
  $('#p-view').addEventListener('click', printView);
  $('#p-csv').addEventListener('click', () => printDownload('csv'));
  $('#p-xlsx').addEventListener('click', () => printDownload('xlsx'));
  // the console shows the section: fill it when the console is shown or signed in
  const body = $('#console-body');
  new MutationObserver(() => { if (!body.hidden) renderPrint(); }).observe(body, { attributes: true, attributeFilter: ['hidden'] });
  window.addEventListener('hashchange', () => { if (S.view === 'console' && !body.hidden) renderPrint(); });
}
