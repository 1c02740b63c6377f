/*
 * core.js -- what every module of the page shares (docs/web.md): S, what
 * the page knows and shows; $() and el() for its elements; its words in
 * Chinese and English (t(), the reasons of results and verdicts, a
 * round's name, the words put into the page); a game in words (a move in
 * the chosen notation, a result, the tags, a label for screen readers);
 * the HTTP API (a JSON read, operations sent to POST /api/op with the
 * signed-in token).
 */

/* ---- the state: S, each field with the modules that write it ---- */

export const S = {
  lang: localStorage.getItem('xqref.lang') || ((navigator.language || '').startsWith('zh') ? 'zh' : 'en'), // app
  notation: localStorage.getItem('xqref.notation') || '', // app; '' until chosen: the language's (langNotation)
  notationChosen: false,     // app
  event: null,               // live: /api/event
  round: 0,                  // live: the round on screen
  games: new Map(),          // live: table -> game state (games.json shape, plus zh/wxf and lastVerdict)
  pairings: null,            // views: pairings.json of the round
  standings: null,           // views: /api/standings.json
  bracket: null,             // views: /api/knockout, once the knockout has started
  teams: null,               // views: /api/teams.json?round=R of a team event (the round on screen's matches)
  teamStandings: null,       // views: its standings after the round on screen, with the tie-break codes
  view: 'live',              // app: the view the hash names
  game: 0,                   // app: table shown in the viewer
  ply: null,                 // app, views: ply shown in the viewer, null = follow the game
  plyLen: null,              // views: the moves the game had when the viewer stepped back from the last
  token: sessionStorage.getItem('xqref.token') || '', // session
  role: '',                  // session: admin, arbiter, board, viewer or ''
};
if (S.lang !== 'zh' && S.lang !== 'en') S.lang = 'en';

/* Until a reader picks a notation the page's language picks it: Chinese
 * moves on the Chinese page, WXF on the English page. */
export const langNotation = () => S.lang === 'zh' ? 'zh' : 'wxf';
S.notationChosen = !!S.notation;
if (!S.notation) S.notation = langNotation();

/* A new event with no round paired yet says so (live, pairings,
 * standings) instead of showing empty boxes. */
export function noRound() {
  return !!S.event && !S.event.published.length;
}

/* ---- the elements ---- */

/* The first element under `root` that `sel` matches. */
export const $ = (sel, root = document) => root.querySelector(sel);

/* An element <tag> with `attrs` (class, text, onEVENT listeners, any other
 * attribute; null and undefined are left out) and the children `kids`. */
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    if (k === 'class') e.className = attrs[k];
    else if (k === 'text') e.textContent = attrs[k];
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
    else if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
  }
  for (const c of kids) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/* A question asked in place before what cannot be taken back: a box
 * (.confirm) saying `text`, with Yes (`yes`) and No (`no`). Yes takes the
 * focus on the next turn unless `focus` is false (Enter answers it);
 * Escape says no. The box goes, then `answer(yes)` runs; `attrs` are the
 * box's own (data-live...). The desk, the console: one question. */
export function askFirst(text, yes, no, answer, { focus = true, attrs = {} } = {}) {
  const close = (ev, said) => { ev.stopPropagation(); box.remove(); answer(said); };
  const box = el('div', Object.assign({ class: 'confirm', role: 'alertdialog',
    onkeydown: ev => { if (ev.key === 'Escape') close(ev, false); } }, attrs),
    el('span', { text }),
    el('button', { type: 'button', 'data-action': 'yes', onclick: ev => close(ev, true) }, yes),
    el('button', { type: 'button', 'data-action': 'no', onclick: ev => close(ev, false) }, no));
  if (focus) setTimeout(() => box.querySelector('button[data-action="yes"]')?.focus());
  return box;
}

/* ---- the words; the console's modules add their own with addWords() ---- */

const WORDS = {
  zh: {
    delay_note: '直播延时 {t}：棋步与结果晚于现场显示', delay_min: '{n} 分钟', delay_sec: '{n} 秒',
    round: '轮次', notation: '记谱', n_zh: '中文', t_live: '实况', t_pairings: '对阵', t_standings: '排名',
    t_arbiter: '裁判', table: '台次', red: '红方', black: '黑方', points: '积分', result: '结果', rank: '名次',
    name: '姓名', rating: '等级分', wdl: '胜-和-负', token: '令牌', sign_in: '登录', sign_out: '退出',
    attention: '需要处理的对局', all_games: '全部对局', pgn: '下载 PGN', back: '返回棋盘',
    footer: 'xqref serve 实时转播', round_pgn: '本轮 PGN', round_n: '第{n}轮', knockout: '淘汰赛', table_n: '第{n}台',
    ko_final: '决赛', ko_third: '三四名决赛', ko_semi: '半决赛', ko_quarter: '四分之一决赛', ko_stage: '第{n}阶段',
    ko_winner: '胜者 {p}', ko_in_play: '进行中：第{n}台', ko_winner_of: '{s}第{n}场胜者', ko_loser_of: '{s}第{n}场负者', ko_places: '淘汰赛最终名次', red_mark: '（红）',
    swiss_after: '积分编排排名（淘汰赛前）', g_standard: '慢棋', g_rapid: '快棋', g_blitz: '超快棋',
    g_armageddon: '超快棋（和棋黑胜）',
    bye: '轮空', vs: '对', ply: '第{n}步', start: '开局', playing: '对局中', paused: '暂停',
    needs_arbiter: '待裁判裁决', must_change: '{side}必须变着', fouls: '犯规 红{r} 黑{b}',
    red_side: '红方', black_side: '黑方', res_f10: '红胜（黑方弃权）', res_f01: '黑胜（红方弃权）', res_f00: '双方弃权',
    in_play: '进行中', same_result: '第{t}台已是 {res}，未更改', no_round: '尚未编排对阵', no_match: '没有对局符合“{q}”', no_players: '尚无棋手报名',
    t_console: '组委会', c_not_admin: '组委会功能（赛事设置、棋手、编排、打印）须用管理员令牌在此登录。比赛成绩由裁判在裁判台（“裁判”页）录入。', c_admin_token: '管理员令牌',
    pno: '序号', club: '单位', byes: '轮空', tie_col: '同分区分', tie_note: '同分时依次比较：{order}。“同分区分”为与上一名分开的一项（抽签即抽签号）。', print_pairings: '{r}对阵表', print_standings: '{c}排名', round_in_play: '第{n}轮进行中',
    after_round: '第{n}轮后', during_round: '第{n}轮进行中（未完成的对局不计）', before_round_1: '第1轮前', no_attention: '目前没有需要处理的对局。', role: '身份：{r}',
    role_admin: '管理员', role_arbiter: '裁判', role_board: '棋盘', role_viewer: '观众',
    not_staff: '此令牌不是裁判或管理员令牌。', bad_token: '令牌无效或已撤销。',
    a_10: '红胜 1-0', a_draw: '和 ½-½', a_01: '黑胜 0-1', a_foul_red: '红方犯规', a_foul_black: '黑方犯规',
    a_pause: '暂停', a_resume: '继续', a_play_on: '恢复对局', a_confirm: '确认',
    a_f10: '黑方弃权 +-', a_f01: '红方弃权 -+', a_f00: '双方弃权 --',
    confirm_end: '第{t}台 {game} 正在对局，判为 {new} 并结束对局？', yes_end: '结束对局',
    resume_game: '恢复对局', resumed: '已恢复：第{t}台继续对局，结果已撤回',
    entry_label: '按台次录入结果', entry_go: '录入', entry_help: '如“3 1-0”“5 -+”“7 --”（本页所示轮次）；结果：1-0 = 0-1 +- -+ --',
    entry_bad: '无法识别“{line}”：应为 台次 结果，如“3 1-0”或“5 -+”', entry_no_table: '{r}没有第{t}台的对局',
    confirm_change: '{r}第{t}台已有结果 {old}，改为 {new}？', confirm_later: '注意：{rs}的编排是按原结果排出的，不会因此重排。', yes_change: '确认更改', no_change: '取消', change_anyway: '仍然更改',
    d_show: '查看棋局', d_close: '关闭', d_ply: '第{n}步（共{total}步）', d_cycle_note: '标出的着法：裁决所判的循环',
    d_rulings: '裁决', d_no_rulings: '尚无裁决', d_viewer: '在棋局页打开', d_ply_h: '步', d_ruling: '裁决（理由）',
    d_seen_h: '已阅', d_seen: '已阅', d_mark_seen: '标为已阅', d_unseen: '{n}项裁决未阅', d_log: '本轮裁决记录',
    undo: '撤销', rule_article: '条款', filter: '查找台次或棋手', nav_first: '回到开局', nav_prev: '上一步', nav_next: '下一步', nav_last: '最新一步', new_moves: '有 {n} 步新着 ▶|', clocks_now: '所示时钟为对局现在的用时，不是该步时的（每步用时见 PGN）', no_clock: '尚未读到时钟', undone: '已撤销：第{t}台恢复为 {res}', state: '状态', act: '操作',
    done: '已完成：{op} 第{t}台', failed: '失败：{msg}', result_banner: '第{t}台 {res}',
    connected: '已连接', disconnected: '连接中断，正在重连…', loading: '加载中…',
    reason: '（{r}）', moves_none: '尚未走棋', tb: {
      PTS: '积分', OS: '对手分', OS_C1: '对手分去一', PS: '累进分', WINS: '胜局', BWINS: '后手胜局',
      RWINS: '先手胜局', BLACK: '后手局数', FOULS: '犯规', DE: '直胜', SB: '胜手和', LOT: '抽签',
      ROUNDBACK: '逐轮比较', ROUNDBACK_FIRST: '去除第一轮再比' },
  },
  en: {
    delay_note: 'Delayed broadcast: moves and results show {t} after they are played', delay_min: '{n} min',
    delay_sec: '{n} s',
    round: 'Round', notation: 'Notation', n_zh: 'Chinese', t_live: 'Live', t_pairings: 'Pairings',
    t_standings: 'Standings', t_arbiter: 'Arbiter', table: 'Table', red: 'Red', black: 'Black', points: 'Pts',
    result: 'Result', rank: 'Rank', name: 'Name', rating: 'Rating', wdl: 'W-D-L', token: 'Token',
    sign_in: 'Sign in', sign_out: 'Sign out', attention: 'Games needing attention', all_games: 'All games',
    pgn: 'Download PGN', back: 'Back to the boards', footer: 'Live from xqref serve', round_pgn: 'Round PGN',
    round_n: 'Round {n}', knockout: 'Knockout', table_n: 'Table {n}', bye: 'bye',
    ko_final: 'Final', ko_third: 'Third place', ko_semi: 'Semi-finals', ko_quarter: 'Quarter-finals',
    ko_stage: 'Stage {n}', ko_winner: 'winner {p}', ko_places: 'Final places (knockout)', red_mark: ' (Red)',
    ko_winner_of: 'winner of {s} {n}', ko_loser_of: 'loser of {s} {n}',
    swiss_after: 'Swiss standings (before the knockout)', ko_in_play: 'playing at table {n}', g_standard: 'standard',
    g_rapid: 'rapid', g_blitz: 'blitz', g_armageddon: 'armageddon (a draw wins for Black)', vs: 'vs', ply: 'ply {n}', start: 'start',
    playing: 'playing', paused: 'paused', needs_arbiter: 'needs the arbiter', must_change: '{side} must change',
    fouls: 'fouls R{r} B{b}', red_side: 'Red', black_side: 'Black', res_f10: 'Red wins (Black forfeits)',
    res_f01: 'Black wins (Red forfeits)', res_f00: 'both forfeit', in_play: 'in play',
    same_result: 'Table {t} is {res} already: nothing changed', no_round: 'No round has been paired yet', no_match: 'No board matches "{q}"',
    t_console: 'Organiser', c_not_admin: 'The organiser console (settings, players, pairing, printing) needs an admin token: sign in here. Results are entered by the arbiters at the desk (Arbiter tab).', c_admin_token: 'Admin token',
    no_players: 'No player has registered yet', pno: 'No.', club: 'Club', byes: 'Byes', tie_col: 'Tie split by', tie_note: 'Players level on points are compared by {order}, in this order. "Tie split by" names what puts a player below the one above (Lot: the drawn lot).',
    print_pairings: 'Pairings, {r}', print_standings: 'Standings, {c}', round_in_play: 'round {n} in progress', after_round: 'after round {n}',
    during_round: 'round {n} in progress (games not finished do not count)', before_round_1: 'before round 1', no_attention: 'No game needs attention now.',
    role: 'role: {r}', role_admin: 'admin', role_arbiter: 'arbiter', role_board: 'board', role_viewer: 'viewer',
    not_staff: 'This token is not an arbiter or admin token.', bad_token: 'Unknown or revoked token.',
    a_10: 'Red wins 1-0', a_draw: 'Draw ½-½', a_01: 'Black wins 0-1', a_foul_red: 'Foul: Red',
    a_foul_black: 'Foul: Black', a_pause: 'Pause', a_resume: 'Resume', a_play_on: 'Resume play',
    a_f10: 'Black forfeits +-', a_f01: 'Red forfeits -+', a_f00: 'Both forfeit --',
    confirm_end: 'Table {t}, {game}, is in play. End it as {new}?', yes_end: 'End the game',
    resume_game: 'Resume the game', resumed: 'Resumed: table {t} is in play again, its result taken back',
    entry_label: 'Result by table', entry_go: 'Enter',
    entry_help: 'e.g. "3 1-0", "5 -+", "7 --" (the round shown); results: 1-0 = 0-1 +- -+ --',
    entry_bad: 'Cannot read "{line}": a table and a result, as "3 1-0" or "5 -+"', entry_no_table: '{r} has no game at table {t}',
    a_confirm: 'Confirm', done: 'Done: {op} at table {t}', failed: 'Failed: {msg}',
    confirm_change: '{r}, table {t}, has its result, {old}. Change it to {new}?', confirm_later: 'Mind: the pairings of {rs} were made on the old result and are not made again.', yes_change: 'Change it', change_anyway: 'Change it anyway',
    d_show: 'Show the game', d_close: 'Close', d_ply: 'ply {n} of {total}', d_cycle_note: 'Marked moves: the cycle the ruling judged',
    d_rulings: 'Rulings', d_no_rulings: 'No ruling yet', d_viewer: 'Open in the game viewer', d_ply_h: 'Ply',
    d_ruling: 'Ruling (why)', d_seen_h: 'Seen', d_seen: 'seen', d_mark_seen: 'Mark seen', d_unseen: '{n} ruling(s) not seen',
    d_log: 'Rulings of the round',
    no_change: 'Cancel', undo: 'Undo', rule_article: 'rule', filter: 'Find a table or a player', nav_first: 'To the start', nav_prev: 'Previous move', nav_next: 'Next move', nav_last: 'To the last move', new_moves: '{n} new moves ▶|', clocks_now: 'The clocks shown are the game\'s now, not at this move (the PGN has each move\'s)', no_clock: 'no clock reading yet', undone: 'Undone: table {t} is {res} again', state: 'State', act: 'Actions',
    result_banner: 'Table {t}: {res}', connected: 'connected', disconnected: 'connection lost, reconnecting…',
    loading: 'loading…', reason: ' ({r})', moves_none: 'no move yet', tb: {
      PTS: 'Points', OS: 'Opp. score', OS_C1: 'Opp. score -1', PS: 'Progressive', WINS: 'Wins',
      BWINS: 'Black wins', RWINS: 'Red wins', BLACK: 'Blacks', FOULS: 'Fouls', DE: 'Direct enc.', SB: 'SB',
      LOT: 'Lot', ROUNDBACK: 'Roundback', ROUNDBACK_FIRST: 'Roundback first' },
  },
};

/* Reasons of results and verdicts: every reason name of the adjudicator
 * (adjudicator/reason.c), in a few words each; English from the name. */
const REASONS = {
  zh: { none: '无', illegal_move: '违例', suicide: '自杀', foul_limit: '累计犯规', checkmate: '将死',
    stalemate: '困毙', natural_limit: '自然限着', false_claim: '提议不实', flag_fall: '超时',
    armageddon_draw: '和棋黑胜', resignation: '认负', agreement: '议和', arbiter: '裁判裁决',
    simple_draw: '简单局势', perpetual_check: '长将', mutual_perpetual_check: '双方长将',
    perpetual_attack: '长打', mutual_attack: '双方长打', minor_chases_rook: '马炮长捉车',
    single_chases_unprotected: '长捉无根子', both_permitted: '双方允许着法', axf_perpetual_chase: '长捉',
    axf_check_over_chase: '长将对长捉', axf_equal: '双方违例相同', early_cycle: '规定回合前循环',
    change_order_ignored: '被判变着而不变', search_budget: '计算超限', claim_refused: '提议不予受理',
    draw_offer: '提和', game_over: '对局已结束', awaiting_arbiter: '等待裁判', perpetual_chase: '长捉',
    time: '超时', repetition: '重复局面', fouls: '犯规', forfeit: '弃权' },
  en: { axf_equal: 'equal offences', axf_perpetual_chase: 'perpetual chase',
    axf_check_over_chase: 'perpetual check against chase', minor_chases_rook: 'a knight or cannon chases a rook',
    single_chases_unprotected: 'chase of an unprotected piece', both_permitted: 'both moves permitted' },
};

/* More words, { zh: {...}, en: {...} }: a module's own, added when it is
 * loaded (the console's, when a staff session loads it). */
export function addWords(more) {
  Object.assign(WORDS.zh, more.zh);
  Object.assign(WORDS.en, more.en);
}

/* The word of `key` in the page's language (else the English one, else
 * the key), with {name} replaced by args.name. */
export function t(key, args) {
  let s = WORDS[S.lang][key];
  if (s === undefined) s = WORDS.en[key] !== undefined ? WORDS.en[key] : key;
  if (args) for (const k in args) s = s.replace('{' + k + '}', args[k]);
  return s;
}

/* A tie-break's heading: 对手分 / Opp. score for OS; an unknown code as it is. */
export function tbName(code) {
  return WORDS[S.lang].tb[code] || code;
}

/* The page's fixed words inside `root` (data-i18n, data-i18n-placeholder,
 * data-i18n-label) in its language. */
export function applyWords(root) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of root.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', t(e.dataset.i18nLabel));
}

/* A reason in brackets: （超时） / " (flag fall)"; none is ''. */
export function reasonText(r) {
  if (!r || r === 'none') return '';
  const w = REASONS[S.lang][r] || r.replace(/_/g, ' ');
  return t('reason', { r: w });
}

/* "Round 3", or "Knockout" for the knockout tables' round (docs/protocol.md). */
export function roundName(r) {
  return S.event && r === S.event.knockout_round ? t('knockout') : t('round_n', { n: r });
}

/* ---- a game in words, the same everywhere on the page ---- */

/* Move i of game g in the chosen notation (ICCS when the other is missing). */
export function moveText(game, i) {
  if (S.notation === 'wxf' && game.wxf && game.wxf[i]) return game.wxf[i];
  if (S.notation === 'zh' && game.zh && game.zh[i]) return game.zh[i];
  return game.moves[i];
}

/* A result in words: games.json's "1-0", "0-1", "1/2-1/2", the log's "=",
 * the forfeits "+-", "-+", "--"; a game in play ("*", none) is the empty
 * string. */
export function resultText(res) {
  const key = { '1-0': 'a_10', '0-1': 'a_01', '1/2-1/2': 'a_draw', '=': 'a_draw',
    '+-': 'res_f10', '-+': 'res_f01', '--': 'res_f00' }[res];
  return key ? t(key) : '';
}

function sideWord(side) { return side === 'red' ? t('red_side') : t('black_side'); }

/* The tags of a game: [class, text] each ('bad' for the arbiter and fouls). */
export function gameFlags(g) {
  const tags = [];
  if (g.needs_arbiter) tags.push(['bad', t('needs_arbiter')]);
  if (g.must_change) tags.push(['', t('must_change', { side: sideWord(g.must_change) })]);
  if (g.paused) tags.push(['', t('paused')]);
  if (g.fouls && (g.fouls[0] || g.fouls[1])) tags.push(['bad', t('fouls', { r: g.fouls[0], b: g.fouls[1] })]);
  return tags;
}

/* What a card or a board shows at ply n, in words: for screen readers. */
export function gameLabel(g, n) {
  const who = `${t('red')} ${g.red ? g.red.name : ''}${S.lang === 'zh' ? '，' : ', '}${t('black')} ${g.black ? g.black.name : ''}`;
  const state = g.result !== '*' ? resultText(g.result) : n ? t('ply', { n }) + ' ' + moveText(g, n - 1) : t('moves_none');
  return S.lang === 'zh' ? `${t('table_n', { n: g.table })}：${who}；${state}` : `${t('table_n', { n: g.table })}: ${who}; ${state}`;
}

/* ---- the HTTP API (docs/http.md), operations of docs/protocol.md ---- */

/* GET url as JSON, never from the browser's cache; throws on an HTTP error. */
export async function getJSON(url) {
  // staff read with their token: with a delayed broadcast (serve --delay)
  // the server answers them the games as they are, not as viewers see them
  const staff = S.token && (S.role === 'admin' || S.role === 'arbiter');
  const r = await fetch(url, { cache: 'no-store', headers: staff ? { 'Authorization': 'Bearer ' + S.token } : {} });
  if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
  return r.json();
}

/* One operation: its reply, or { error: {code, msg} } (code HTTP when the
 * answer is not the server's JSON). */
export async function op(req) {
  const r = await fetch('/api/op', {
    method: 'POST',
    headers: { 'Authorization': 'Bearer ' + S.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(req) + '\n',
  });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) return { error: (body && body.error) || { code: 'HTTP', msg: 'HTTP ' + r.status } };
  return body;
}

/* Several operations in one POST /api/op: the replies, in order. */
export async function opLines(reqs) {
  const r = await fetch('/api/op', {
    method: 'POST',
    headers: { 'Authorization': 'Bearer ' + S.token, 'Content-Type': 'application/json' },
    body: reqs.map(q => JSON.stringify(q)).join('\n') + '\n',
  });
  const text = await r.text();
  return text.trim().split('\n').filter(Boolean).map(l => JSON.parse(l));
}
