/*
 * console.js -- the organiser's console (#console/R, docs/web.md), shown
 * with an admin token: its words, its bar of sections, and its drawing
 * from the server's players and event; each section is a module of its
 * own (console_players, console_numbers, console_add, console_pairing,
 * console_slips, console_ko, print) sending the protocol's operations to
 * POST /api/op.
 */
import { S } from './state.js';
import { t, addWords, roundName } from './words.js';
import { $ } from './dom.js';
import { op } from './api.js';
import { C, setRedraw } from './console_state.js';
import { renderPlayers } from './console_players.js';
import { renderNumbers } from './console_numbers.js';
import { initAdd } from './console_add.js';
import { initPairing } from './console_pairing.js';
import { initSlips } from './console_slips.js';
import { renderKnockoutConsole } from './console_ko.js';
import { renderPrint, initPrint } from './print.js';

addWords({
  zh: {
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
  },
  en: {
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
  },
});

/* The console for an admin token (a note for any other): the players,
 * the numbers, the next round's buttons, the knockout and print sections. */
export async function renderConsole() {
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
setRedraw(renderConsole);

/* The console's sections wired, and its bar: each section one click away
 * (the hash names the view and round, not a section). */
export function initConsole() {
  initAdd();
  initPairing();
  initSlips();
  for (const b of document.querySelectorAll('#c-nav button'))
    b.addEventListener('click', () => document.getElementById(b.dataset.to).scrollIntoView({ block: 'start' }));
  initPrint();
}
