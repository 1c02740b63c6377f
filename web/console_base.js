/*
 * console_base.js -- what the organiser's console and its sections share
 * (docs/web.md), a staff module (session.js loads it for an admin token):
 * the console's words; the server's errors and warnings in Chinese
 * (errText(), warnText()); the sections' state C; the line under the
 * console that says what the server answered; redraw(), the console's
 * own drawing, which a section calls after an operation.
 */
import { S, $, addWords } from './core.js';

addWords({
  zh: {
    c_players: '棋手', c_add: '添加棋手', c_import: '导入名单（CSV）', c_round: '编排',
    c_pair: '编排第{n}轮（预览）', c_unpair: '撤回第{n}轮', c_ask_unpair: '撤回第{n}轮的对阵：各台的棋盘令牌作废，本轮可重新编排。', c_unpaired: '第{n}轮已撤回，可重新编排', c_publish: '公布第{n}轮', c_ask_publish: '公布第{n}轮：{b}台对阵，公布后各台棋盘即可开始。', c_yes: '确定',
    c_published: '第{n}轮已公布（{b}台）',
    c_preview_n: '共{n}行：{ok}行可导入，{bad}行有错误', c_do_import: '导入 {n} 名棋手', c_imported: '已导入 {n} 名棋手', c_import_none: '一行出错，全部未导入：{msg}',
    c_line: '行', c_error: '错误', c_no_header: '第一行须是表头（姓名、性别、出生日期、单位、等级分…）',
    c_need_name: '缺少姓名', c_bad_sex: '性别须为 男/女', c_bad_birth: '出生日期须为 年-月-日', c_no_date: '没有这一天：{d}（月为1–12，日不超过当月天数）', c_bad_rating: '等级分须为 0–9999 的整数',
    sex: '性别', birth: '出生日期', club: '单位',
    region: '地区', team_col: '队', no: '序号', c_withdrawn: '退赛', c_encoding: '编码：{e}', c_encoding_doubt: '这些字节按 GBK 也能读：名字若不对，请另存为 UTF-8（带 BOM）再导入',
    c_changes: '人工调整', c_swap: '交换两名棋手（序号）', c_colours: '交换某台先后手（台次）', c_move: '移动台次（从 → 到）',
    c_reason: '理由（必填）', c_add_change: '加入调整', c_remove: '取消', c_warnings: '违反以下绝对规则（仍可公布）：',
    c_need_reason: '每项调整须填写理由', c_all_paired: '全部{n}轮已编排。',
    c_dup_file: '与第{n}行重复（姓名{b}相同）', c_dup_stored: '已报名：{p}', c_wide_comma: '含全角逗号“，”：字段须用半角逗号“,”分隔',
    c_file_no: '文件中的序号不导入：序号由抽签或种子产生', c_added: '已添加 {p}', c_file_no_col: '文件序号',
    c_sections: '栏目', c_same_unit: '同单位：{u}', c_same_unit_note: '同单位相遇（{n}台）：',
    c_changed: '已调整', c_a: '序号/台次', c_b: '序号/台次', c_published_changes: '第{n}轮公布时的人工调整',
    c_slips_new: '将为{r}各台生成新的令牌；已打印的令牌仍然有效。', c_slips_go: '生成并显示',
    c_slips_connect: '棋盘连接地址',
    c_points: '积分', c_rating_short: '等级分', c_sex_m: '男', c_sex_w: '女', c_slips: '台次令牌（{n}，含二维码）', c_print: '打印',
    c_id: '报名号', c_no_tip: '序号：抽签或按等级分排定的编排号，编排、调整、退赛都用它', c_id_tip: '报名号：报名的先后，不变；序号排定前各项操作用它', c_act: '操作', c_edit: '修改', c_save: '保存', c_cancel: '取消', c_local: '本地棋手',
    c_edited: '{name}：已修改 {f}', c_unchanged: '没有修改', c_withdraw: '退赛', c_reinstate: '恢复参赛',
    c_confirm_withdraw: '{name}（{k} {no}）自第{r}轮起退赛？已得分数保留。', c_yes_withdraw: '确认退赛',
    c_withdrew: '{name} 自第{r}轮起退赛', c_reinstated: '{name} 自第{r}轮起恢复参赛',
    c_remove: '删除', c_yes_remove: '确认删除', c_removed: '已删除 {name}：其后棋手的编号依次前移',
    c_confirm_remove: '删除 {name}（{k} {no}）？仅限第1轮编排前：此后的棋手报名号依次前移，日志保留报名与删除记录。',
    c_merge: '合并到…', c_merge_into: '并入{k}', c_merge_check: '核对', c_yes_merge: '确认合并',
    c_confirm_merge: '将 {drop} 并入 {keep}？后者保留（编号不变），其空缺的性别、出生日期、地区、单位、等级分（第1轮编排前还有队）取自前者；前者如删除一样移出（其后的编号依次前移），日志记为合并。',
    c_merge_bad: '请填写另一名棋手的{k}', c_merged: '已将 {drop} 并入 {keep}{f}', c_merged_f: '，取自被并入者：{f}',
    c_dup_of: '疑似与{k} {no}重复',
    c_numbers: '序号（抽签／种子）', c_by_rating: '按等级分（种子）', c_by_lot: '抽签', c_by_hand: '手工录入',
    c_seed: '种子（不填则随机）', c_num_preview: '预览序号', c_num_store: '保存序号', c_num_stored: '序号已保存（{m}）',
    c_num_previewed: '预览（{m}），尚未保存', c_seed_is: '抽签种子 {s}', c_num_note: '第1轮编排前可重新抽签，以最后一次为准；之后报名者依次排在后面。',
    c_m_rating: '按等级分', c_m_lot: '抽签', c_m_manual: '手工',
    c_absent: '请假', c_absent_round: '第几轮', c_bye_zero: '0分', c_bye_half: '半分（轮空½）', c_bye_full: '1局胜分（轮空）',
    c_results: '成绩', c_results_note: '按本页所示轮次的台次录入；正在进行的对局须确认后才结束，并可恢复。轮空或请假（0分、半分、1分）在“棋手”中逐人登记“请假”（须在该轮编排前）。裁判台（“裁判”页）每台另有按钮。',
    c_yes_absent: '登记请假', c_absent_done: '{name}：第{r}轮请假（{b}）', c_absent_ask: '{name} 请假，不参加该轮编排：',
  },
  en: {
    c_players: 'Players', c_add: 'Add a player', c_import: 'Import a list (CSV)', c_round: 'Pairing',
    c_pair: 'Pair round {n} (preview)', c_unpair: 'Withdraw round {n}', c_ask_unpair: 'Withdraw the pairing of round {n}: its board tokens stop working, and the round can be paired again.', c_unpaired: 'Round {n} withdrawn: it can be paired again', c_publish: 'Publish round {n}', c_ask_publish: 'Publish round {n}: {b} tables; once published, each table\'s board can start.', c_yes: 'Yes',
    c_published: 'Round {n} published ({b} boards)',
    c_preview_n: '{n} lines: {ok} to import, {bad} with an error', c_do_import: 'Import {n} players', c_imported: '{n} players imported', c_import_none: 'nothing imported, a line failed: {msg}',
    c_line: 'Line', c_error: 'Error', c_no_header: 'The first line must be the headings (name, sex, birth date, club, rating…)',
    c_need_name: 'no name', c_bad_sex: 'sex is m/w (男/女)', c_bad_birth: 'the birth date is YYYY-MM-DD', c_no_date: 'no such date: {d} (no month 13, no 30 February)', c_bad_rating: 'the rating is a whole number 0–9999',
    sex: 'Sex', birth: 'Born', club: 'Club',
    region: 'Region', team_col: 'Team', no: 'No.', c_withdrawn: 'withdrawn', c_encoding: 'encoding: {e}', c_encoding_doubt: 'these bytes read as GBK too: if the names look wrong, save the file as UTF-8 with a BOM and import it again',
    c_changes: 'Changes by hand', c_swap: 'Swap two players (numbers)', c_colours: 'Swap the colours of a table',
    c_move: 'Move a table (from → to)', c_reason: 'Reason (required)', c_add_change: 'Add the change', c_remove: 'Remove',
    c_warnings: 'Breaks these absolute rules (may still be published):', c_need_reason: 'Every change needs a reason',
    c_all_paired: 'All {n} rounds are paired.',
    c_dup_file: 'the same as line {n} (same name{b})', c_dup_stored: 'registered already: {p}',
    c_wide_comma: 'a full-width comma "，": fields are split by the ASCII comma ","',
    c_file_no: 'The file\'s numbers are not imported: numbers come from the draw or the seeding', c_added: '{p} added',
    c_sections: 'sections', c_same_unit: 'same unit: {u}', c_same_unit_note: 'Players of the same unit meet ({n}):',
    c_file_no_col: 'File no.', c_changed: 'changed', c_a: 'no./table', c_b: 'no./table',
    c_published_changes: 'Changes by hand published with round {n}',
    c_slips_new: 'New tokens are made for every table of {r}; tokens printed before stay valid.', c_slips_go: 'Make and show',
    c_slips_connect: 'Address the boards reach',
    c_points: 'Pts', c_rating_short: 'Rating', c_sex_m: 'M', c_sex_w: 'F',
    c_slips: 'Board slips ({n}, with QR codes)', c_print: 'Print',
    c_id: 'Reg. no.', c_no_tip: 'No. (序号): the pairing number, drawn by lot or seeded by rating; pairing, changes and withdrawals use it', c_id_tip: 'Registration number: the order of registration, never changes; the operations use it until the numbers are given', c_act: 'Actions', c_edit: 'Edit', c_save: 'Save', c_cancel: 'Cancel', c_local: 'local player',
    c_edited: '{name}: {f} changed', c_unchanged: 'Nothing changed', c_withdraw: 'Withdraw', c_reinstate: 'Reinstate',
    c_confirm_withdraw: 'Withdraw {name} ({k} {no}) from round {r} on? Points earned stay.', c_yes_withdraw: 'Withdraw',
    c_withdrew: '{name} withdrawn from round {r} on', c_reinstated: '{name} paired again from round {r} on',
    c_remove: 'Delete', c_yes_remove: 'Delete', c_removed: '{name} deleted: the players after him move up one',
    c_confirm_remove: 'Delete {name} ({k} {no})? Only before round 1 is paired: the players after him move up one, the log keeps the registration and the deletion.',
    c_merge: 'Merge into…', c_merge_into: 'into {k}', c_merge_check: 'Check', c_yes_merge: 'Merge',
    c_confirm_merge: 'Merge {drop} into {keep}? The latter stays (its number too) and takes from the former the sex, birth date, region, club and rating it lacks (before round 1, the team too); the former leaves as a deletion does (the numbers after it move up one), and the log keeps the merge.',
    c_merge_bad: 'Give the other player\'s {k}', c_merged: '{drop} merged into {keep}{f}', c_merged_f: '; taken from it: {f}',
    c_dup_of: 'likely a duplicate of {k} {no}',
    c_numbers: 'Numbers (drawn or seeded)', c_by_rating: 'Seeded by rating', c_by_lot: 'Drawn by lot', c_by_hand: 'Entered by hand',
    c_seed: 'Seed (empty: random)', c_num_preview: 'Preview the numbers', c_num_store: 'Store the numbers',
    c_num_stored: 'Numbers stored ({m})', c_num_previewed: 'Preview ({m}), not stored yet', c_seed_is: 'lot seed {s}',
    c_num_note: 'Until round 1 is paired the numbers may be drawn again, the last counts; later entries get the next numbers.',
    c_m_rating: 'by rating', c_m_lot: 'by lot', c_m_manual: 'by hand',
    c_absent: 'Absent', c_absent_round: 'round', c_bye_zero: '0 points', c_bye_half: 'a half-point bye', c_bye_full: 'a full-point bye',
    c_results: 'Results', c_results_note: 'By table of the round shown; a game in play ends only when confirmed, and can be resumed. A bye or an absence (0, ½ or 1 point) is entered per player under Players, Absent (before that round is paired). The desk (Arbiter tab) has buttons for each table too.',
    c_yes_absent: 'Record the absence', c_absent_done: '{name}: absent in round {r} ({b})',
    c_absent_ask: '{name} is absent, not paired in the round:',
  },
});

/* ---- the server's words on the Chinese page. The protocol's errors and
 * the pairing's warnings are English sentences (docs/protocol.md); the page
 * says the ones an organiser meets in Chinese, and any other as the server
 * wrote it ---- */

/* The error codes in words. */
const ERR_CODES = {
  zh: { BAD_REQUEST: '请求有误', CONFLICT: '不能执行', NOT_FOUND: '未找到', FORBIDDEN: '无此权限', BAD_TOKEN: '令牌无效',
    AUTH_REQUIRED: '须先登录', LIMIT: '超出限制', INTERNAL: '服务器错误', STORE: '存储错误', HTTP: '网络错误' },
  en: {},
};

/* [pattern, Chinese]: $1, $2 ... are the pattern's numbers and names.
 * Each pattern is a sentence the C sources can say (the browser test
 * organiser.test.mjs checks them against the sources). */
export const MESSAGES_ZH = [
  [/^round (\d+) still has boards without a result$/, '第$1轮还有未出结果的对局'],
  [/^round (\d+) has games without a result$/, '第$1轮还有未出结果的对局'],
  [/^round (\d+) is not complete$/, '第$1轮尚未全部出结果'],
  [/^round (\d+) is not paired yet$/, '第$1轮尚未编排'],
  [/^round (\d+) is not paired(?: \((\d+) are\))?$/, '第$1轮尚未编排'],
  [/^all (\d+) rounds are (?:already )?paired$/, '全部$1轮已编排'],
  [/^(?:this|that) round is already paired$/, '该轮已编排'],
  [/^the next round to pair is (\d+), not (\d+)$/, '下一轮应编排第$1轮，不是第$2轮'],
  [/^at least two players are needed$/, '至少需要两名棋手'],
  [/^the server listens on every address: give connect, the boards' HOST:PORT \(or serve --board-address\)$/,
    '服务器在所有地址上监听：请填写棋盘连接地址（主机:端口），或以 serve --board-address 启动'],
  [/^lang is en or zh; connect is HOST:PORT$/, '棋盘连接地址应为 主机:端口'],
  [/^the event changed while the round was paired: pair again$/, '编排时赛事有变动，请重新编排'],
  [/^change (\d+): both players must be paired in this round$/, '第$1项调整：两名棋手都须在本轮对阵中'],
  [/^change (\d+): no board (\d+) with two players$/, '第$1项调整：没有第$2台（或该台为轮空）'],
  [/^change (\d+): boards are 1\.\.(\d+)$/, '第$1项调整：台次为1至$2'],
  [/^change (\d+): no player has the number (\d+)$/, '第$1项调整：没有序号为$2的棋手'],
  [/^change (\d+): not a kind of change$/, '第$1项调整：不是有效的调整'],
  [/^board (\d+): these players met in round (\d+)$/, '第$1台：双方已在第$2轮相遇'],
  [/^board (\d+): player (\d+) has had the bye already$/, '第$1台：$2号棋手已轮空过'],
  [/^board (\d+): Red again is beyond the colour limits for player (\d+)$/, '第$1台：$2号棋手再执红将超出先后手限制'],
  [/^board (\d+): Black again is beyond the colour limits for player (\d+)$/, '第$1台：$2号棋手再执黑将超出先后手限制'],
  [/^the knockout stage has not started$/, '淘汰赛尚未开始'],
  [/^a Swiss round after the cut is already paired$/, '出线轮次之后的积分编排轮次已编排'],
  [/^(\d+) players cannot fill a bracket of (\d+)$/, '$1名棋手不足以排出$2人的淘汰赛'],
  [/^size must be 2, 4, 8 or 16 and at most the players \(choose: size 4\)$/, '出线人数须为2、4、8或16，且不多于棋手数（头号种子选择对手时为4）'],
  [/^no match is waiting for a game$/, '没有等待对局的比赛'],
  [/^no match of that stage is waiting for a game$/, '该阶段没有等待对局的比赛'],
  [/^no such player$/, '没有这名棋手'],
  [/^birth date (\S+) does not exist \(no month 13, no 30 February\)$/, '没有这一天：$1（月为1–12，日不超过当月天数）'],
  [/^birth date must be written YYYY\/MM\/DD$/, '出生日期须为 年/月/日'],
  [/^round 1 is paired: a player is deleted only before it \(withdraw him instead\)$/, '第1轮已编排：只能在此之前删除棋手（请改用退赛）'],
  [/^the knockout has started: a player is deleted only before it \(withdraw him instead\)$/, '淘汰赛已开始：只能在此之前删除棋手（请改用退赛）'],
  [/^no such board in that round$/, '该轮没有这一台'],
  [/^that board is the bye$/, '该台为轮空'],
  [/^no game at this round and table$/, '该轮该台没有对局'],
  [/^no published round with this number$/, '没有已公布的这一轮'],
  [/^the last admin token cannot be revoked$/, '不能注销最后一个管理员令牌'],
  [/^the sheet is over (\d+) bytes$/, '表格超过$1字节'],
  [/^round 1 is paired: the format can no longer change$/, '第1轮已编排，赛制不能再改'],
  [/^round 1 is paired: the scoring can no longer change$/, '第1轮已编排，计分不能再改'],
  [/^a round robin's rounds follow from its entrants$/, '循环赛的轮数由参赛人数决定'],
  [/^rounds 1\.\.(\d+) are paired: the event cannot have fewer rounds$/, '已编排$1轮，轮数不能更少'],
  [/^a Swiss event needs its rounds: give them with the format$/, '改为积分编排须同时给出轮数'],
];

/* A server sentence in the page's language: Chinese where it is known. */
export function serverText(msg) {
  if (S.lang !== 'zh' || !msg) return msg || '';
  for (const [re, zh] of MESSAGES_ZH) if (re.test(msg)) return msg.replace(re, zh);
  return msg;
}

/* An error reply's words: "不能执行：第1轮还有未出结果的对局" on the Chinese
 * page, "CONFLICT: round 1 still has ..." on the English one. */
export function errText(err) {
  if (!err) return '';
  const code = (ERR_CODES[S.lang] || {})[err.code] || err.code;
  return `${code}${S.lang === 'zh' ? '：' : ': '}${serverText(err.msg)}`;
}

/* A pairing warning (one line of `pair`'s warnings). */
export function warnText(w) { return serverText(w); }

/* ---- the sections' state, the answer line, the redrawing ---- */

export const C = {
  players: [],     // the `players` op's list
  paired: 0,       // rounds paired (the `event` op)
  preview: null,   // a CSV file read: its lines, each a player or an error
  pairing: null,   // the next round's pairing previewed (nothing stored)
  base: null,      // the pairer's own boards, to mark what the changes moved
  changes: [],     // the changes by hand to the previewed pairing
  editing: null,   // the id of the player whose row is a form
  draft: null,     // that form's fields
  confirm: null,   // the id of the player whose withdrawal is asked
  removing: null,  // the id of the player whose deletion is asked
  merging: null,   // the id of the player being merged into another ...
  mergeInto: '',   // ... the other's number as typed, and whether it was checked
  mergeAsk: false,
  absent: null,    // the id of the player whose absence is asked
  num: { method: 'rating', seed: '', manual: {}, result: null }, // the Numbers block
};

/* The line under the console: `text`, marked as an error or not. */
export function consoleSay(text, error) {
  const p = $('#c-result');
  if (actedIn && actedIn.isConnected && actedIn !== p) actedIn.after(p); // under the form or table acted on
  p.textContent = text;
  p.classList.toggle('error', !!error);
}

/* The block of the console (a child of #console-body) the last action was
 * in: where its answer is said. */
let actedIn = null;

/* Each action (a button clicked, a form sent, a file chosen) clears the
 * console's answer lines, so that none stays from an earlier one, and
 * marks its block for consoleSay. A click inside an answer line (its own
 * question's buttons) clears nothing. */
export function initSay() {
  const body = $('#console-body');
  const act = e => {
    if (e.type === 'click' && !e.target.closest('button')) return;
    if (e.target.closest('.op-result, #c-nav')) return;
    let b = e.target;
    while (b.parentElement && b.parentElement !== body) b = b.parentElement;
    if (b.parentElement !== body) return;
    actedIn = b;
    for (const r of document.querySelectorAll('#view-console .op-result')) { r.replaceChildren(); r.classList.remove('error'); }
  };
  for (const type of ['click', 'submit', 'change']) body.addEventListener(type, e => {
    if (type !== 'change' || e.target.type === 'file') act(e);
  }, true);
}

let redrawConsole = () => {};

/* The console's redrawing, given once by console.js. */
export function setRedraw(fn) { redrawConsole = fn; }

/* Draw the console again from the server's players and event. */
export function redraw() { return redrawConsole(); }
