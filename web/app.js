/*
 * app.js -- the live page of `xqref serve` (docs/web.md): rounds,
 * pairings, standings, live boards fed by the event stream, a game viewer
 * and the arbiter's view. Plain JavaScript, no build step; it reads the
 * HTTP API (docs/http.md) and sends arbiter operations to POST /api/op.
 */
'use strict';

/* ------------------------------------------------------------------ */
/* Words                                                               */
/* ------------------------------------------------------------------ */

const WORDS = {
  zh: {
    round: '轮次', notation: '记谱', n_zh: '中文', t_live: '实况', t_pairings: '对阵', t_standings: '排名',
    t_arbiter: '裁判', table: '台次', red: '红方', black: '黑方', points: '积分', result: '结果', rank: '名次',
    name: '姓名', rating: '等级分', wdl: '胜-和-负', token: '令牌', sign_in: '登录', sign_out: '退出',
    attention: '需要处理的对局', all_games: '全部对局', pgn: '下载 PGN', back: '返回棋盘',
    footer: 'xqref serve 实时转播', round_pgn: '本轮 PGN', round_n: '第{n}轮', knockout: '淘汰赛', table_n: '第{n}台',
    ko_final: '决赛', ko_third: '三四名决赛', ko_semi: '半决赛', ko_quarter: '四分之一决赛', ko_stage: '第{n}阶段',
    ko_winner: '胜者 {p}', ko_in_play: '进行中：第{n}台', ko_places: '淘汰赛最终名次', red_mark: '（红）',
    swiss_after: '积分编排排名（淘汰赛前）', g_standard: '慢棋', g_rapid: '快棋', g_blitz: '超快棋',
    g_armageddon: '超快棋（和棋黑胜）',
    bye: '轮空', vs: '对', ply: '第{n}步', start: '开局', playing: '对局中', paused: '暂停',
    needs_arbiter: '待裁判裁决', must_change: '{side}必须变着', fouls: '犯规 红{r} 黑{b}',
    red_side: '红方', black_side: '黑方', res_f10: '红胜（黑方弃权）', res_f01: '黑胜（红方弃权）', res_f00: '双方弃权',
    in_play: '进行中', same_result: '第{t}台已是 {res}，未更改', no_round: '尚未编排对阵', no_players: '尚无棋手报名',
    pno: '序号', club: '单位', byes: '轮空', print_pairings: '{r}对阵表', print_standings: '{c}排名', round_in_play: '第{n}轮进行中',
    after_round: '第{n}轮后', during_round: '第{n}轮进行中（未完成的对局不计）', before_round_1: '第1轮前', no_attention: '目前没有需要处理的对局。', role: '身份：{r}',
    role_admin: '管理员', role_arbiter: '裁判', role_board: '棋盘', role_viewer: '观众',
    not_staff: '此令牌不是裁判或管理员令牌。', bad_token: '令牌无效或已撤销。',
    a_10: '红胜 1-0', a_draw: '和 ½-½', a_01: '黑胜 0-1', a_foul_red: '红方犯规', a_foul_black: '黑方犯规',
    a_pause: '暂停', a_resume: '继续', a_play_on: '恢复对局', a_confirm: '确认',
    confirm_change: '第{t}台已有结果 {old}，改为 {new}？', yes_change: '确认更改', no_change: '取消',
    undo: '撤销', rule_article: '条款', filter: '查找台次或棋手', undone: '已撤销：第{t}台恢复为 {res}', state: '状态', act: '操作',
    done: '已完成：{op} 第{t}台', failed: '失败：{msg}', result_banner: '第{t}台 {res}',
    connected: '已连接', disconnected: '连接中断，正在重连…', loading: '加载中…',
    reason: '（{r}）', moves_none: '尚未走棋', tb: {
      PTS: '积分', OS: '对手分', OS_C1: '对手分去一', PS: '累进分', WINS: '胜局', BWINS: '后手胜局',
      RWINS: '先手胜局', BLACK: '后手局数', FOULS: '犯规', DE: '直胜', SB: '胜手和', LOT: '抽签',
      ROUNDBACK: '逐轮比较', ROUNDBACK_FIRST: '去除第一轮再比' },
  },
  en: {
    round: 'Round', notation: 'Notation', n_zh: 'Chinese', t_live: 'Live', t_pairings: 'Pairings',
    t_standings: 'Standings', t_arbiter: 'Arbiter', table: 'Table', red: 'Red', black: 'Black', points: 'Pts',
    result: 'Result', rank: 'Rank', name: 'Name', rating: 'Rating', wdl: 'W-D-L', token: 'Token',
    sign_in: 'Sign in', sign_out: 'Sign out', attention: 'Games needing attention', all_games: 'All games',
    pgn: 'Download PGN', back: 'Back to the boards', footer: 'Live from xqref serve', round_pgn: 'Round PGN',
    round_n: 'Round {n}', knockout: 'Knockout', table_n: 'Table {n}', bye: 'bye',
    ko_final: 'Final', ko_third: 'Third place', ko_semi: 'Semi-finals', ko_quarter: 'Quarter-finals',
    ko_stage: 'Stage {n}', ko_winner: 'winner {p}', ko_places: 'Final places (knockout)', red_mark: ' (Red)',
    swiss_after: 'Swiss standings (before the knockout)', ko_in_play: 'playing at table {n}', g_standard: 'standard',
    g_rapid: 'rapid', g_blitz: 'blitz', g_armageddon: 'armageddon (a draw wins for Black)', vs: 'vs', ply: 'ply {n}', start: 'start',
    playing: 'playing', paused: 'paused', needs_arbiter: 'needs the arbiter', must_change: '{side} must change',
    fouls: 'fouls R{r} B{b}', red_side: 'Red', black_side: 'Black', res_f10: 'Red wins (Black forfeits)',
    res_f01: 'Black wins (Red forfeits)', res_f00: 'both forfeit', in_play: 'in play',
    same_result: 'Table {t} is {res} already: nothing changed', no_round: 'No round has been paired yet',
    no_players: 'No player has registered yet', pno: 'No.', club: 'Club', byes: 'Byes',
    print_pairings: 'Pairings, {r}', print_standings: 'Standings, {c}', round_in_play: 'round {n} in progress', after_round: 'after round {n}',
    during_round: 'round {n} in progress (games not finished do not count)', before_round_1: 'before round 1', no_attention: 'No game needs attention now.',
    role: 'role: {r}', role_admin: 'admin', role_arbiter: 'arbiter', role_board: 'board', role_viewer: 'viewer',
    not_staff: 'This token is not an arbiter or admin token.', bad_token: 'Unknown or revoked token.',
    a_10: 'Red wins 1-0', a_draw: 'Draw ½-½', a_01: 'Black wins 0-1', a_foul_red: 'Foul: Red',
    a_foul_black: 'Foul: Black', a_pause: 'Pause', a_resume: 'Resume', a_play_on: 'Resume play',
    a_confirm: 'Confirm', done: 'Done: {op} at table {t}', failed: 'Failed: {msg}',
    confirm_change: 'Table {t} has its result, {old}. Change it to {new}?', yes_change: 'Change it',
    no_change: 'Cancel', undo: 'Undo', rule_article: 'rule', filter: 'Find a table or a player', undone: 'Undone: table {t} is {res} again', state: 'State', act: 'Actions',
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

const S = {
  lang: localStorage.getItem('xqref.lang') || ((navigator.language || '').startsWith('zh') ? 'zh' : 'en'),
  notation: localStorage.getItem('xqref.notation') || '', // '' until chosen: the language's (langNotation)
  event: null,
  round: 0,
  games: new Map(),          // table -> game state (games.json shape, plus zh/wxf and lastVerdict)
  pairings: null,
  standings: null,
  view: 'live',
  game: 0,                   // table shown in the viewer
  ply: null,                 // ply shown in the viewer, null = follow the game
  es: null,
  events: 0,                 // live events received: a round's state fetched meanwhile may be stale
  token: sessionStorage.getItem('xqref.token') || '',
  role: '',
};
if (!WORDS[S.lang]) S.lang = 'en';
/* Until a reader picks a notation the page's language picks it: Chinese
 * moves on the Chinese page, WXF on the English page. */
const langNotation = () => S.lang === 'zh' ? 'zh' : 'wxf';
S.notationChosen = !!S.notation;
if (!S.notation) S.notation = langNotation();

const $ = (sel, el = document) => el.querySelector(sel);

function t(key, args) {
  let s = WORDS[S.lang][key];
  if (s === undefined) s = WORDS.en[key] !== undefined ? WORDS.en[key] : key;
  if (args) for (const k in args) s = s.replace('{' + k + '}', args[k]);
  return s;
}

function reasonText(r) {
  if (!r || r === 'none') return '';
  const w = REASONS[S.lang][r] || r.replace(/_/g, ' ');
  return t('reason', { r: w });
}

function el(tag, attrs, ...kids) {
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

async function getJSON(url) {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
  return r.json();
}

/* ------------------------------------------------------------------ */
/* Positions                                                           */
/* ------------------------------------------------------------------ */

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const GLYPH = { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
                k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' };

/* board[rank][file], rank 0 = Red's back rank (ICCS numbering). */
function parseFen(fen) {
  const rows = (fen || START).split(' ')[0].split('/');
  const b = [];
  for (let i = 0; i < 10; i++) {
    const rank = 9 - i, row = [];
    for (const ch of rows[i] || '9') {
      if (ch >= '1' && ch <= '9') for (let k = 0; k < +ch; k++) row.push(null);
      else row.push(ch);
    }
    b[rank] = row.slice(0, 9);
    while (b[rank].length < 9) b[rank].push(null);
  }
  return b;
}

function sq(text) {
  return { f: text.charCodeAt(0) - 97, r: text.charCodeAt(1) - 48 };
}

/* The board after the first `n` ICCS moves from `start`, and the last move. */
function positionAt(game, n) {
  const b = parseFen(game.start || START);
  let last = null;
  for (let i = 0; i < n && i < game.moves.length; i++) {
    const m = game.moves[i].toLowerCase();
    const from = sq(m.slice(0, 2)), to = sq(m.slice(2, 4));
    if (!b[from.r] || !b[to.r]) break;
    b[to.r][to.f] = b[from.r][from.f];
    b[from.r][from.f] = null;
    last = { from, to };
  }
  return { board: b, last };
}

/* ------------------------------------------------------------------ */
/* The board as SVG                                                    */
/* ------------------------------------------------------------------ */

const NS = 'http://www.w3.org/2000/svg';
const CELL = 10, M = 6;

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

const X = f => M + f * CELL;
const Y = r => M + (9 - r) * CELL;

function boardSvg(board, last) {
  const s = svgEl('svg', { viewBox: `0 0 ${2 * M + 8 * CELL} ${2 * M + 9 * CELL}`, class: 'board', role: 'img' });
  s.append(svgEl('rect', { class: 'bg', x: 0, y: 0, width: 2 * M + 8 * CELL, height: 2 * M + 9 * CELL, rx: 2 }));
  let d = '';
  for (let r = 0; r < 10; r++) d += `M${X(0)} ${Y(r)}H${X(8)}`;
  // files cross the river only at the edges
  for (let f = 1; f < 8; f++) d += `M${X(f)} ${Y(0)}V${Y(4)}M${X(f)} ${Y(5)}V${Y(9)}`;
  // the palaces
  d += `M${X(3)} ${Y(0)}L${X(5)} ${Y(2)}M${X(5)} ${Y(0)}L${X(3)} ${Y(2)}`;
  d += `M${X(3)} ${Y(9)}L${X(5)} ${Y(7)}M${X(5)} ${Y(9)}L${X(3)} ${Y(7)}`;
  s.append(svgEl('path', { class: 'grid-line', d }));
  s.append(svgEl('rect', { class: 'frame', x: X(0), y: Y(9), width: 8 * CELL, height: 9 * CELL }));
  const ry = (Y(4) + Y(5)) / 2;
  s.append(svgEl('text', { class: 'river', x: X(1.5), y: ry, 'dominant-baseline': 'central' }, '楚 河'));
  s.append(svgEl('text', { class: 'river', x: X(5.3), y: ry, 'dominant-baseline': 'central' }, '漢 界'));
  if (last) {
    s.append(svgEl('circle', { class: 'mark from', cx: X(last.from.f), cy: Y(last.from.r), r: 4.6 }));
    s.append(svgEl('circle', { class: 'mark to', cx: X(last.to.f), cy: Y(last.to.r), r: 5.1 }));
  }
  for (let r = 0; r < 10; r++) {
    for (let f = 0; f < 9; f++) {
      const p = board[r][f];
      if (!p) continue;
      const red = p === p.toUpperCase();
      const g = svgEl('g', { class: 'pc ' + (red ? 'r' : 'b'), 'data-sq': String.fromCharCode(97 + f) + r });
      g.append(svgEl('circle', { cx: X(f), cy: Y(r), r: 4.3 }));
      g.append(svgEl('text', { x: X(f), y: Y(r) + 0.2 }, GLYPH[p] || '?'));
      s.append(g);
    }
  }
  return s;
}

/* ------------------------------------------------------------------ */
/* Formatting                                                          */
/* ------------------------------------------------------------------ */

function clockText(ms) {
  if (ms === null || ms === undefined || ms < 0) return '';
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
  return (h ? h + ':' + String(m).padStart(2, '0') : String(m)) + ':' + String(x).padStart(2, '0');
}

/* Clocks run on the page for the side to move, from the time of their
 * last reading (`clock_at` of the state, the arrival of an event), while
 * the game is on and not paused. S.skew: this browser's clock minus the
 * server's, from the events' "at". */
function runningClock(g, side) {
  if (!g.clock || g.clock[side] === null || g.clock[side] === undefined) return null;
  let ms = g.clock[side];
  const running = g.result === '*' && !g.paused && !g.needs_arbiter && g.clockAt &&
    sideToMove(g) === (side ? 'black' : 'red');
  if (running) ms -= Date.now() - g.clockAt;
  return Math.max(0, ms);
}

function clockSpan(g, side) {
  return el('span', { class: 'clock', 'data-side': side, text: g.clock ? clockText(runningClock(g, side)) : '' });
}

const CLOCK_TICK_MS = 500;
function tickClocks() {
  for (const c of document.querySelectorAll('#boards .card[data-result="*"]')) {
    const g = S.games.get(+c.dataset.table);
    if (!g || !g.clock) continue;
    for (const span of c.querySelectorAll('.clock[data-side]')) span.textContent = clockText(runningClock(g, +span.dataset.side));
  }
  const g = S.view === 'game' && S.games.get(S.game);
  if (g && g.clock) {
    $('#g-clock-red').textContent = clockText(runningClock(g, 0));
    $('#g-clock-black').textContent = clockText(runningClock(g, 1));
  }
}

/* An event's clocks: read now (its arrival), the server's "at" kept for
 * the skew. */
function takeClock(g, d) {
  if (d.at) S.skew = Date.now() - d.at / 1000;
  if (!d.clock) return;
  g.clock = d.clock;
  g.clockAt = Date.now();
}

function moveText(game, i) {
  if (S.notation === 'wxf' && game.wxf && game.wxf[i]) return game.wxf[i];
  if (S.notation === 'zh' && game.zh && game.zh[i]) return game.zh[i];
  return game.moves[i];
}

/* A result in words, the same everywhere on the page: games.json's
 * "1-0", "0-1", "1/2-1/2", the log's "=", the forfeits "+-", "-+", "--";
 * a game in play ("*", none) is the empty string. */
function resultText(res) {
  const key = { '1-0': 'a_10', '0-1': 'a_01', '1/2-1/2': 'a_draw', '=': 'a_draw',
    '+-': 'res_f10', '-+': 'res_f01', '--': 'res_f00' }[res];
  return key ? t(key) : '';
}

function sideWord(side) { return side === 'red' ? t('red_side') : t('black_side'); }

function gameFlags(g) {
  const tags = [];
  if (g.needs_arbiter) tags.push(['bad', t('needs_arbiter')]);
  if (g.must_change) tags.push(['', t('must_change', { side: sideWord(g.must_change) })]);
  if (g.paused) tags.push(['', t('paused')]);
  if (g.fouls && (g.fouls[0] || g.fouls[1])) tags.push(['bad', t('fouls', { r: g.fouls[0], b: g.fouls[1] })]);
  return tags;
}

function sideToMove(g) {
  const parts = (g.fen || START).split(' ');
  return parts[1] === 'b' ? 'black' : 'red';
}

/* ------------------------------------------------------------------ */
/* Live boards                                                         */
/* ------------------------------------------------------------------ */

function renderCard(g) {
  const n = g.moves.length;
  const pos = positionAt(g, n);
  const stm = g.result === '*' ? sideToMove(g) : '';
  const lastText = n ? `${Math.ceil(n / 2)}. ${n % 2 === 0 ? '… ' : ''}${moveText(g, n - 1)}` : t('moves_none');
  const flags = el('div', { class: 'flags' });
  for (const [cls, text] of gameFlags(g)) flags.append(el('span', { class: 'tag ' + cls, text }));
  const open = () => { location.hash = `#game/${S.round}/${g.table}`; };
  const card = el('article', { class: 'card', 'data-table': g.table, 'data-ply': n, 'data-result': g.result,
    tabindex: 0, role: 'link', 'aria-label': gameLabel(g, n), onclick: open,
    onkeydown: e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(); } } },
    el('div', { class: 'head' },
      el('span', { text: t('table_n', { n: g.table }) + koCardText(g) }),
      el('span', { class: 'result', text: g.result === '*' ? '' : resultText(g.result) })),
    el('div', { class: 'who' },
      el('span', { class: stm === 'black' ? 'to-move' : '', text: g.black ? g.black.name : '' }),
      clockSpan(g, 1)),
    labelled(boardSvg(pos.board, pos.last), gameLabel(g, n)),
    el('div', { class: 'who' },
      el('span', { class: 'red-name ' + (stm === 'red' ? 'to-move' : ''), text: g.red ? g.red.name : '' }),
      clockSpan(g, 0)),
    el('div', { class: 'last', text: lastText }),
    flags);
  return card;
}

/* A knockout table's stage and game type (" · 半决赛 · 慢棋"). */
function koCardText(g) {
  if (!g.knockout) return '';
  const stage = S.bracket && S.bracket.matches ? stageName(S.bracket, g.knockout.stage) : t('ko_stage', { n: g.knockout.stage });
  return ` · ${stage} · ${t('g_' + g.knockout.type)}`;
}

/* What a card or a board shows, in words: for screen readers. */
function gameLabel(g, n) {
  const who = `${t('red')} ${g.red ? g.red.name : ''}${S.lang === 'zh' ? '，' : ', '}${t('black')} ${g.black ? g.black.name : ''}`;
  const state = g.result !== '*' ? resultText(g.result) : n ? t('ply', { n }) + ' ' + moveText(g, n - 1) : t('moves_none');
  return S.lang === 'zh' ? `${t('table_n', { n: g.table })}：${who}；${state}` : `${t('table_n', { n: g.table })}: ${who}; ${state}`;
}

function labelled(svg, label) {
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  return svg;
}

/* The filter of a big event's boards: a table number, or part of a
 * player's name. */
function shown(g) {
  const q = ($('#filter').value || '').trim().toLowerCase();
  if (!q) return true;
  if (/^\d+$/.test(q)) return String(g.table) === q;
  return [g.red, g.black].some(p => p && p.name.toLowerCase().includes(q));
}

/* A new event with no round paired yet says so (live, pairings,
 * standings) instead of showing empty boxes. */
function noRound() {
  return !!S.event && !S.event.published.length;
}

function renderBoards() {
  const box = $('#boards');
  $('#round').closest('label').hidden = noRound();
  if (noRound()) return box.replaceChildren(el('p', { class: 'empty', 'data-empty': 'no-round', text: t('no_round') }));
  const cards = [];
  for (const g of [...S.games.values()].sort((a, b) => a.table - b.table)) {
    const c = renderCard(g);
    c.hidden = !shown(g);
    cards.push(c);
  }
  box.replaceChildren(...cards);
}

function updateCard(g) {
  const old = document.querySelector(`#boards .card[data-table="${g.table}"]`);
  const c = renderCard(g);
  c.hidden = !shown(g);
  if (old) old.replaceWith(c);
  else renderBoards();
}

/* ------------------------------------------------------------------ */
/* Pairings and standings                                              */
/* ------------------------------------------------------------------ */

function renderPairings() {
  const body = $('#pairings tbody');
  const rows = [];
  $('#pairings-caption').hidden = !noRound();
  $('#pairings-caption').textContent = noRound() ? t('no_round') : '';
  $('#pairings-title').textContent = S.round ? `${S.event ? S.event.name : ''} ${t('print_pairings', { r: roundName(S.round) })}` : '';
  for (const b of (S.pairings && S.pairings.boards) || []) {
    const g = S.games.get(b.table);
    const res = g ? g.result : b.result;
    rows.push(el('tr', { 'data-table': b.table },
      el('td', { class: 'num', text: b.table }),
      el('td', { class: 'red-name', text: b.red ? `${b.red.name} (${b.red.rating})` : '' }),
      el('td', { class: 'num', text: b.red ? b.red.points : '' }),
      el('td', { class: 'result', 'data-result': b.bye ? 'bye' : res },
        b.bye ? t('bye') : el('a', { href: `#game/${S.round}/${b.table}`, text: resultText(res) || t('in_play') })),
      el('td', { text: b.black ? `${b.black.name} (${b.black.rating})` : '' }),
      el('td', { class: 'num', text: b.black ? b.black.points : '' })));
  }
  body.replaceChildren(...rows);
}

/* The tie-break columns: those of the event's preset that have values;
 * not the lots (LOT still ranks, the sheets print it): numbers easily
 * taken for the pairing number. */
function tbColumns(st) {
  return (st.tiebreaks || []).filter(code => code !== 'LOT' && st.standings.some(r => r.tb && code in r.tb));
}

function renderStandings() {
  const st = S.standings;
  if (!st) return;
  const when = noRound() ? t('no_round') : !st.round ? t('before_round_1')
    : t(st.complete === false ? 'during_round' : 'after_round', { n: st.round });
  $('#standings-caption').textContent = noRound() && !st.standings.length ? `${when} · ${t('no_players')}` : when;
  $('#standings-title').textContent = `${S.event ? S.event.name : ''} ${t('print_standings', {
    c: !st.round ? t('before_round_1') : t(st.complete === false ? 'round_in_play' : 'after_round', { n: st.round }) })}`;
  renderPlaces($('#final-places'));
  if (!$('#final-places').hidden) $('#standings-caption').textContent = t('swiss_after') +
    (st.round ? ' · ' + t('after_round', { n: st.round }) : '');
  const cols = tbColumns(st);
  const byes = st.standings.some(r => r.byes > 0);
  const head = el('tr', {},
    el('th', { class: 'num', text: t('rank') }), el('th', { class: 'num', 'data-col': 'no', text: t('pno') }),
    el('th', { text: t('name') }), el('th', { 'data-col': 'club', text: t('club') }),
    el('th', { class: 'num', text: t('rating') }),
    ...cols.map(c => el('th', { class: 'num', 'data-tb': c, title: c, text: (WORDS[S.lang].tb[c] || c) })),
    el('th', { class: 'num', text: t('wdl') }),
    byes ? el('th', { class: 'num', 'data-col': 'byes', text: t('byes') }) : null);
  $('#standings thead').replaceChildren(head);
  $('#standings tbody').replaceChildren(...st.standings.map(r => el('tr', { 'data-id': r.id },
    el('td', { class: 'num', 'data-col': 'rank', text: r.rank }),
    el('td', { class: 'num', 'data-col': 'no', text: r.pno || r.id }),
    el('td', { 'data-col': 'name', text: r.name }),
    el('td', { 'data-col': 'club', text: r.club || r.region || '' }),
    el('td', { class: 'num', 'data-col': 'rating', text: r.rating }),
    ...cols.map(c => el('td', { class: 'num', 'data-tb': c, text: c in r.tb ? r.tb[c] : '' })),
    el('td', { class: 'num', 'data-col': 'wdl', text: `${r.w}-${r.d}-${r.l}` }),
    byes ? el('td', { class: 'num', 'data-col': 'byes', text: r.byes || '' }) : null)));
}

let standingsTimer = 0, standingsAsked = 0;
function refreshStandings(delay) {
  clearTimeout(standingsTimer);
  standingsTimer = setTimeout(async () => {
    try {
      const ko = S.event && S.round === S.event.knockout_round;
      const started = S.event && S.event.published.includes(S.event.knockout_round);
      const asked = ++standingsAsked;
      const [st, bracket] = await Promise.all([
        getJSON('/api/standings.json' + (S.round && !ko ? `?round=${S.round}` : '')),
        started ? getJSON('/api/knockout') : null]);
      if (asked !== standingsAsked) return; // a later request (another round, say) is on its way: it decides
      S.standings = st;
      if (bracket) S.bracket = bracket;
      renderStandings();
    } catch (e) { console.warn(e.message); }
  }, delay || 0);
}

async function refreshPairings() {
  try {
    const ko = S.event && S.round === S.event.knockout_round;
    const [pairings, bracket] = await Promise.all([getJSON(`/api/rounds/${S.round}/pairings.json`),
      ko ? getJSON('/api/knockout') : null]);
    S.pairings = pairings;
    S.bracket = bracket;
    renderPairings();
    renderBracket();
    if (ko) renderBoards(); // the cards name their stage
  } catch (e) { console.warn(e.message); }
}

/* A stage's name: Final, Semi-finals, ... by its number of matches (the
 * last stage of a bracket with a third-place match has two). */
function stageName(k, stage) {
  const ms = k.matches.filter(m => m.stage === stage);
  const last = Math.max(...k.matches.map(m => m.stage));
  return stage === last && ms.length <= 2 && k.seeding === 'choose' ? t('ko_final')
    : ms.length === 1 ? t('ko_final') : ms.length === 2 ? t('ko_semi') : ms.length === 4 ? t('ko_quarter')
    : t('ko_stage', { n: stage });
}

/* A knockout game in words: its type, who had Red, its result. */
function koGameText(m, g) {
  const red = m.players.find(p => p && p.id === g.red);
  return `${t('g_' + g.type)} ${red ? red.name + t('red_mark') : ''} ${resultText(g.result) || t('in_play')}`;
}

/* The final places of the knockout, once every match is decided. */
function renderPlaces(box) {
  const k = S.bracket;
  const places = (k && k.started && k.decided && k.places) || [];
  box.hidden = !places.length;
  if (box.hidden) return box.replaceChildren();
  box.replaceChildren(el('h3', { text: t('ko_places') }),
    el('ol', {}, ...places.map(p => el('li', { 'data-id': p.id, text: p.name }))));
}

/* The knockout bracket above the knockout tables: each stage's matches,
 * their games so far, the winner or the table in play (docs/web.md). */
function renderBracket() {
  const box = $('#bracket');
  const k = S.bracket;
  box.hidden = !(k && k.started);
  if (box.hidden) return box.replaceChildren();
  const name = p => (p && p.name) || '?';
  const stages = new Map();
  for (const m of k.matches) {
    if (!stages.has(m.stage)) stages.set(m.stage, []);
    stages.get(m.stage).push(m);
  }
  const last = Math.max(...stages.keys());
  const cols = [];
  for (const [stage, ms] of stages) {
    const items = ms.map(m => {
      const third = k.seeding === 'choose' && stage === last && m.match === k.matches.length;
      const games = m.games.map(g => koGameText(m, g)).join(' · ');
      const state = m.winner ? t('ko_winner', { p: name(m.winner) })
        : m.in_play ? t('ko_in_play', { n: m.in_play }) : '';
      return el('li', { 'data-match': m.match },
        el('span', { class: 'ko-players', text: (third ? t('ko_third') + ': ' : '') +
          (m.players.length ? `${name(m.players[0])} – ${name(m.players[1])}` : '?') }),
        games ? el('span', { class: 'ko-games', text: games }) : null,
        state ? el('span', { class: m.winner ? 'ko-winner' : 'ko-state', text: state }) : null);
    });
    cols.push(el('div', { class: 'ko-stage' }, el('h3', { text: stageName(k, stage) }), el('ol', {}, ...items)));
  }
  const places = el('div', { class: 'ko-stage ko-places' });
  renderPlaces(places);
  box.replaceChildren(...cols, ...(places.hidden ? [] : [places]));
}

/* ------------------------------------------------------------------ */
/* Banners                                                             */
/* ------------------------------------------------------------------ */

/* On a phone two banners at most, one line each, for less long: the
 * boards stay in sight. */
/* A players event is acted on after this long without another, plus up to
 * the spread at random. */
const PLAYERS_QUIET_MS = 1000, PLAYERS_SPREAD_MS = 2000;
const BANNERS_MAX = 6, BANNER_MS = 60000, PHONE_BANNERS_MAX = 2, PHONE_BANNER_MS = 20000;
const phone = () => window.matchMedia('(max-width: 600px)').matches;

/* The staff's views (the desk, the console) show no banner: their own
 * lines and tables say what happened, and nothing covers their controls. */
const staffView = () => S.view === 'arbiter' || S.view === 'console';

function banner(kind, table, text) {
  if (staffView()) return;
  const box = $('#banners');
  const max = phone() ? PHONE_BANNERS_MAX : BANNERS_MAX;
  const b = el('div', { class: 'banner', 'data-kind': kind, 'data-table': table, role: 'alert' },
    el('span', { class: 'text', text }),
    el('button', { class: 'close', type: 'button', 'aria-label': 'close', onclick: () => b.remove() }, '×'));
  box.prepend(b);
  while (box.children.length > max) box.lastChild.remove();
  setTimeout(() => b.remove(), phone() ? PHONE_BANNER_MS : BANNER_MS);
}

function verdictBanner(table, v) {
  // an arbiter's result is told by the result banner that follows it
  if (!v || v.verdict === 'accepted' || v.event === 'arbiter_result') return;
  const text = t('table_n', { n: table }) + ': ' + (S.lang === 'zh' ? v.zh : v.en);
  banner(v.verdict, table, text);
}

/* ------------------------------------------------------------------ */
/* The event stream                                                    */
/* ------------------------------------------------------------------ */

function normalise(g) {
  if (g.verdict) g.lastVerdict = g.verdict; // the server keeps the last ruling
  g.clockAt = g.clock_at ? g.clock_at / 1000 + (S.skew || 0) : null;
  g.moves = g.moves || [];
  g.wxf = g.wxf || [];
  g.zh = g.zh || [];
  return g;
}

function setGames(list) {
  S.games = new Map();
  for (const g of list) S.games.set(g.table, normalise(g));
  renderBoards();
  renderArbiter();
  if (S.view === 'game') renderViewer();
}

function gameChanged(g) {
  updateCard(g);
  if (S.view === 'game' && S.game === g.table) renderViewer();
  renderArbiter();
}

let resyncTimer = 0;
/* Read round r's state; the events that arrive meanwhile wait, and are
 * applied to it once it is in (one that it already holds is skipped: a
 * move of a ply it has): nothing is read twice, nothing is lost. */
async function loadGames(r) {
  S.fetching = (S.fetching || 0) + 1;
  S.pending = S.pending || [];
  try {
    const data = await getJSON(`/api/rounds/${r}/games.json`);
    if (S.round === r) setGames(data.games);
  } catch (e) { console.warn(e.message); }
  if (--S.fetching) return;
  const waiting = S.pending;
  S.pending = [];
  for (const [fn, d] of waiting) fn(d);
}

function resync() {
  clearTimeout(resyncTimer);
  resyncTimer = setTimeout(() => loadGames(S.round), 50);
}

function onMove(d) {
  const g = S.games.get(d.table);
  if (!g || d.round !== S.round) return;
  if (d.ply <= g.moves.length && g.moves[d.ply - 1] === d.move) return; // the state has it already
  if (d.ply !== g.moves.length + 1) {
    // a gap (a missed event, a correction): take the round's state again
    resync();
    return;
  }
  g.moves.push(d.move);
  g.wxf.push(d.wxf);
  g.zh.push(d.zh);
  g.fen = d.fen;
  g.ply = d.ply;
  takeClock(g, d);
  if (d.result) g.result = d.result;
  if (d.ruling) applyVerdict(g, d.ruling);
  gameChanged(g);
}

function applyVerdict(g, v) {
  if (v.fouls) g.fouls = [v.fouls.red, v.fouls.black];
  g.needs_arbiter = v.result === 'needs_arbiter' || undefined;
  if (v.verdict === 'must_change') g.must_change = v.side;
  else if (v.result !== 'ongoing' && v.result !== 'must_change') delete g.must_change;
  if (v.event === 'pause') g.paused = true;
  if (v.event === 'resume') delete g.paused;
  g.lastVerdict = v;
  verdictBanner(g.table, v);
}

function onVerdict(d) {
  const g = S.games.get(d.table);
  if (!g || d.round !== S.round) return;
  if (d.event === 'pause' && g.clock && g.clockAt) {
    // the server keeps the boards' readings: what ran until now stays
    const side = sideToMove(g) === 'black' ? 1 : 0;
    g.clock = [...g.clock];
    g.clock[side] = runningClock(g, side);
    g.clockAt = Date.now();
    applyVerdict(g, d);
  } else {
    applyVerdict(g, d);
    if (d.event === 'resume') g.clockAt = g.clock ? Date.now() : null;
    else takeClock(g, d); // a penalty: the verdict carries the clocks
  }
  gameChanged(g);
}

function onResult(d) {
  const g = S.games.get(d.table);
  if (!g || d.round !== S.round) return;
  g.result = d.result === '=' ? '1/2-1/2' : d.result; // the log's code of a draw, as games.json says it
  if (d.reason) g.reason = d.reason;
  delete g.needs_arbiter;
  banner('result', d.table, t('result_banner', { t: d.table, res: resultText(d.result) }) + reasonText(d.reason));
  gameChanged(g);
  refreshPairings();
  refreshStandings(200);
}

const RECONNECT_MS = 3000; /* a refused stream is asked for again after this */

/* One stream for every round: a new round's `pairing` event is about that
 * round, and a stream filtered to the round on screen would not see it.
 * Events of other rounds are dropped here. */
function connect() {
  if (S.es) S.es.close();
  const es = new EventSource('/api/events');
  S.es = es;
  const status = $('#status');
  const show = state => {
    status.dataset.state = state;
    status.title = t(state === 'live' ? 'connected' : 'disconnected');
    status.textContent = state === 'down' ? t('disconnected') : '';
  };
  es.onopen = () => {
    const was = status.dataset.state;
    show('live');
    if (was === 'down') resync(); // what happened meanwhile
  };
  es.onerror = () => {
    show('down');
    // the browser tries again by itself unless the stream was refused
    if (es.readyState === EventSource.CLOSED) setTimeout(() => { if (S.es === es) connect(); }, RECONNECT_MS);
  };
  const handlers = new Map();
  const dispatch = (type, data) => {
    const fn = handlers.get(type);
    if (!fn) return;
    let d;
    try { d = JSON.parse(data); } catch (err) { console.warn('bad event', data); return; }
    S.events++;
    if (S.fetching) S.pending.push([fn, d]); // applied once the state being read is in
    else fn(d);
  };
  const on = (type, fn) => {
    handlers.set(type, fn);
    es.addEventListener(type, e => dispatch(type, e.data));
  };
  /* Through an edge (docs/scale.md) events that came together arrive as
   * one `batch`: a line each, "TYPE DATA". */
  es.addEventListener('batch', e => {
    for (const line of e.data.split('\n')) {
      const sp = line.indexOf(' ');
      if (sp > 0) dispatch(line.slice(0, sp), line.slice(sp + 1));
    }
  });
  on('snapshot', d => { if (d.round === S.round) setGames(d.games); });
  on('move', onMove);
  on('verdict', onVerdict);
  on('result', onResult);
  on('game', d => {
    if (d.round !== S.round) return;
    S.games.set(d.table, normalise(d));
    gameChanged(d);
  });
  on('pairing', () => loadEvent(true));
  // a name, a number or who plays changed: the lists and the cards follow,
  // once the changes stop (an import is a change a line) and spread over a
  // few seconds, so that a thousand pages do not ask at the same moment
  on('players', () => {
    clearTimeout(S.playersTimer);
    S.playersTimer = setTimeout(async () => {
      await loadEvent(false);
      if (S.round) await setRound(S.round);
      if (S.view === 'console') renderConsole();
    }, PLAYERS_QUIET_MS + Math.random() * PLAYERS_SPREAD_MS);
  });
}

/* ------------------------------------------------------------------ */
/* The game viewer                                                     */
/* ------------------------------------------------------------------ */

function viewerPly(g) {
  return S.ply === null ? g.moves.length : Math.min(S.ply, g.moves.length);
}

function renderViewer() {
  const g = S.games.get(S.game);
  if (!g) return;
  const n = viewerPly(g);
  const pos = positionAt(g, n);
  $('#g-board').replaceChildren(labelled(boardSvg(pos.board, pos.last), gameLabel(g, n)));
  $('#g-red').textContent = g.red ? `${g.red.name}${g.red.rating ? ' (' + g.red.rating + ')' : ''}` : '';
  $('#g-black').textContent = g.black ? `${g.black.name}${g.black.rating ? ' (' + g.black.rating + ')' : ''}` : '';
  $('#g-clock-red').textContent = g.clock ? clockText(runningClock(g, 0)) : '';
  $('#g-clock-black').textContent = g.clock ? clockText(runningClock(g, 1)) : '';
  $('#g-title').textContent = `${roundName(S.round)} · ${t('table_n', { n: g.table })}`;
  const state = g.result !== '*' ? resultText(g.result) + reasonText(g.reason)
    : [t('playing'), ...gameFlags(g).map(x => x[1])].join(' · ');
  $('#g-state').textContent = state;
  $('#nav-ply').textContent = n ? t('ply', { n }) : t('start');
  const ol = $('#g-moves');
  ol.replaceChildren(...moveRows(g, n));
  const cur = ol.querySelector('.current');
  if (cur && S.ply !== null) cur.scrollIntoView({ block: 'nearest' });
  else if (S.ply === null) ol.scrollTop = ol.scrollHeight;
  const nt = S.notation === 'zh' ? 'chinese' : S.notation;
  $('#g-pgn').href = `/api/rounds/${S.round}/${g.table}.pgn?notation=${nt}`;
  $('#g-pgn').setAttribute('download', `round${S.round}-table${g.table}.pgn`);
}

/* The move list: a row a move pair, numbered (1. 炮二平五 马８进７) from
 * the start position's move number; a game that starts with Black to
 * move has "…" in its first row's Red half. */
function moveRows(g, n) {
  const f = (g.start || START).split(' ');
  const first = Math.max(1, parseInt(f[5], 10) || 1), black = f[1] === 'b' ? 1 : 0;
  const items = [];
  for (let i = -black; i < g.moves.length; i += 2) {
    const li = el('li', {}, el('span', { class: 'no', 'aria-hidden': 'true', text: `${first + (i + black) / 2}.` }));
    for (let k = i; k < i + 2 && k < g.moves.length; k++) {
      if (k < 0) { li.append(el('span', { class: 'mv-none', text: '…' })); continue; }
      li.append(el('button', { type: 'button', class: 'mv' + (k + 1 === n ? ' current' : ''), 'data-ply': k + 1,
        'aria-current': k + 1 === n ? 'step' : null, text: moveText(g, k), onclick: () => goto(k + 1) }));
    }
    items.push(li);
  }
  return items;
}

function goto(n) {
  const g = S.games.get(S.game);
  if (!g) return;
  n = Math.max(0, Math.min(n, g.moves.length));
  S.ply = n === g.moves.length ? null : n; // at the end: follow the game live
  renderViewer();
}

function step(d) {
  const g = S.games.get(S.game);
  if (g) goto(viewerPly(g) + d);
}

/* ------------------------------------------------------------------ */
/* The arbiter's view                                                  */
/* ------------------------------------------------------------------ */

async function op(req) {
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

function showOpResult(text, error, ...extra) {
  const p = $('#op-result');
  p.replaceChildren(text, ...extra);
  p.classList.toggle('error', !!error);
}

/* The result op's code of a game's result ('*' has none: play goes on). */
const RESULT_CODE = { '1-0': '1-0', '0-1': '0-1', '1/2-1/2': '=', '+-': '+-', '-+': '-+', '--': '--' };

async function act(table, req, label, undo) {
  const res = await op(Object.assign({ id: Date.now(), round: S.round, table }, req));
  if (res.error) return showOpResult(t('failed', { msg: `${res.error.code}: ${res.error.msg}` }), true);
  if (!undo) return showOpResult(t('done', { op: label, t: table }), false);
  // a finished game's result was changed: one click takes it back
  showOpResult(t('done', { op: label, t: table }) + ' ', false, el('button', { type: 'button', class: 'undo',
    onclick: async () => {
      const back = await op({ id: Date.now(), op: 'result', round: undo.round, table, result: RESULT_CODE[undo.result] });
      if (back.error) showOpResult(t('failed', { msg: `${back.error.code}: ${back.error.msg}` }), true);
      else showOpResult(t('undone', { t: table, res: resultText(undo.result) }), false);
    } }, t('undo')));
}

/* A result for a game that has one changes the standings: asked first,
 * in place, with the old and the new result. */
function confirmChange(box, g, req, key) {
  box.querySelector('.confirm')?.remove();
  const now = { round: S.round, result: g.result };
  const ask = el('div', { class: 'confirm', role: 'alertdialog' },
    el('span', { text: t('confirm_change', { t: g.table, old: resultText(g.result), new: t(key) }) }),
    el('button', { type: 'button', 'data-action': 'yes', onclick: ev => {
      ev.stopPropagation(); ask.remove(); act(g.table, req, t(key), RESULT_CODE[now.result] ? now : null); } },
      t('yes_change')),
    el('button', { type: 'button', 'data-action': 'no', onclick: ev => { ev.stopPropagation(); ask.remove(); } },
      t('no_change')));
  box.append(ask);
}

function actions(g, attention) {
  const box = el('div', { class: 'actions' });
  if (attention && !g.needs_arbiter) {
    // the adjudicator's ruling (a foul, a must-change order) stands: seen
    box.append(el('button', { type: 'button', 'data-action': 'a_confirm',
      onclick: ev => { ev.stopPropagation(); confirmSeen(g); } }, t('a_confirm')));
  }
  const add = (key, req) => box.append(el('button', { type: 'button', 'data-action': key,
    onclick: ev => {
      ev.stopPropagation();
      const finished = req.op === 'result' && g.result !== '*' && req.result !== 'none';
      box.querySelector('.confirm')?.remove();
      // the result it has already: no change, nothing sent
      if (finished && RESULT_CODE[g.result] === req.result)
        showOpResult(t('same_result', { t: g.table, res: resultText(g.result) }), false);
      else if (finished) confirmChange(box, g, req, key);
      else act(g.table, req, t(key));
    } }, t(key)));
  if (g.needs_arbiter) add('a_play_on', { op: 'result', result: 'none' });
  add('a_10', { op: 'result', result: '1-0' });
  add('a_draw', { op: 'result', result: '=' });
  add('a_01', { op: 'result', result: '0-1' });
  if (g.result === '*') {
    add('a_foul_red', { op: 'foul', side: 'red' });
    add('a_foul_black', { op: 'foul', side: 'black' });
    add(g.paused ? 'a_resume' : 'a_pause', { op: g.paused ? 'resume' : 'pause' });
  }
  return box;
}

/* What the arbiter has seen of a game: a confirmed state leaves the list
 * until something new happens to the game (kept for the session). */
function attentionKey(g) {
  return [g.moves.length, g.fouls ? g.fouls.join('/') : '', g.must_change || '', g.paused ? 'p' : ''].join(';');
}

function confirmed(g) {
  return JSON.parse(sessionStorage.getItem('xqref.confirmed') || '{}')[`${S.round}.${g.table}`] === attentionKey(g);
}

function confirmSeen(g) {
  const all = JSON.parse(sessionStorage.getItem('xqref.confirmed') || '{}');
  all[`${S.round}.${g.table}`] = attentionKey(g);
  sessionStorage.setItem('xqref.confirmed', JSON.stringify(all));
  renderArbiter();
}

function needsAttention(g) {
  if (g.needs_arbiter) return true; // play stands still until a ruling
  if (g.result !== '*' || confirmed(g)) return false;
  return !!(g.must_change || g.paused || (g.fouls && (g.fouls[0] || g.fouls[1])));
}

function renderArbiter() {
  const staff = S.role === 'admin' || S.role === 'arbiter';
  $('#arbiter-body').hidden = !staff;
  $('#sign-out').hidden = !S.token;
  $('#role').textContent = S.role ? t('role', { r: t('role_' + S.role) }) : '';
  if (!staff) return;
  const games = [...S.games.values()].sort((a, b) => a.table - b.table);
  const items = games.filter(needsAttention).map(g => {
    const v = g.lastVerdict;
    return el('div', { class: 'item', 'data-table': g.table },
      el('p', {}, el('strong', { text: t('table_n', { n: g.table }) }), ' ',
        `${g.red ? g.red.name : ''} ${t('vs')} ${g.black ? g.black.name : ''}`,
        g.result !== '*' ? el('span', { class: 'result', 'data-result': g.result, text: ' ' + resultText(g.result) }) : null),
      el('p', {}, ...gameFlags(g).map(([cls, text]) => el('span', { class: 'tag ' + cls, text }))),
      v && (v.zh || v.en) ? el('p', { class: 'verdict', text: S.lang === 'zh' ? v.zh : v.en }) : null,
      v && (v.zh || v.en) ? el('p', { class: 'verdict-other', lang: S.lang === 'zh' ? 'en' : 'zh',
        text: (S.lang === 'zh' ? v.en : v.zh) + (v.rule ? ` [${t('rule_article')} ${v.rule}]` : '') }) : null,
      actions(g, true));
  });
  $('#attention').replaceChildren(...(items.length ? items : [el('p', { class: 'empty', text: t('no_attention') })]));
  $('#arbiter-games thead').replaceChildren(el('tr', {},
    el('th', { class: 'num', text: t('table') }), el('th', { text: t('red') }), el('th', { text: t('black') }),
    el('th', { text: t('result') }), el('th', { text: t('state') }), el('th', { text: t('act') })));
  $('#arbiter-games tbody').replaceChildren(...games.map(g => el('tr', { 'data-table': g.table },
    el('td', { class: 'num', text: g.table }),
    el('td', { class: 'red-name', text: g.red ? g.red.name : '' }),
    el('td', { text: g.black ? g.black.name : '' }),
    el('td', { class: 'result', 'data-result': g.result, text: resultText(g.result) }),
    el('td', { text: gameFlags(g).map(x => x[1]).join(' · ') }),
    el('td', {}, actions(g)))));
}

async function signIn(token) {
  S.token = token.trim();
  S.role = '';
  if (!S.token) {
    sessionStorage.removeItem('xqref.token');
    renderArbiter();
    return;
  }
  sessionStorage.setItem('xqref.token', S.token);
  // a staff-only read tells the role: FORBIDDEN for boards and viewers
  const res = await op({ id: 'whoami', op: 'games', round: S.round || 1 });
  if (res.error && (res.error.code === 'BAD_TOKEN' || res.error.code === 'AUTH_REQUIRED')) {
    showOpResult(t('bad_token'), true);
  } else if (res.error && res.error.code === 'FORBIDDEN') {
    const m = /(board|viewer) may not/.exec(res.error.msg);
    S.role = m ? m[1] : 'viewer';
    showOpResult(t('not_staff'), true);
  } else {
    // staff: "tokens" is the admin's alone
    const adm = await op({ id: 'admin?', op: 'tokens' });
    S.role = adm.error ? 'arbiter' : 'admin';
    showOpResult('', false);
  }
  renderArbiter();
  if (S.view === 'console') renderConsole();
}

/* ------------------------------------------------------------------ */
/* Views, language, notation, rounds                                   */
/* ------------------------------------------------------------------ */

function applyWords() {
  document.documentElement.lang = S.lang === 'zh' ? 'zh' : 'en';
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', t(e.dataset.i18nLabel));
  $('#lang').textContent = S.lang === 'zh' ? 'EN' : '中文';
  for (const o of $('#round').options) o.textContent = roundName(+o.value);
}

/* "Round 3", or "Knockout" for the knockout tables' round (docs/protocol.md). */
function roundName(r) {
  return S.event && r === S.event.knockout_round ? t('knockout') : t('round_n', { n: r });
}

function rerender() {
  applyWords();
  renderBoards();
  renderPairings();
  renderBracket();
  renderStandings();
  renderArbiter();
  if (S.view === 'game') renderViewer();
}

/* The hash: #VIEW/ROUND (live, pairings, standings, arbiter) or
 * #game/ROUND/TABLE; the round of the hash, or 0. */
function hashRound() {
  const m = /^#(?:live|pairings|standings|arbiter|console|game)\/(\d+)/.exec(location.hash);
  return m ? +m[1] : 0;
}

/* The tabs and the hash name the round shown (a reload keeps it). */
function roundInUrl() {
  if (!S.round) return;
  for (const a of document.querySelectorAll('#tabs a')) a.href = `#${a.dataset.view}/${S.round}`;
  const h = location.hash.replace(/^#/, '') || 'live';
  const view = h.split('/')[0];
  if (view !== 'game' && S.round && hashRound() !== S.round)
    history.replaceState(null, '', `#${['pairings', 'standings', 'arbiter', 'console'].includes(view) ? view : 'live'}/${S.round}`);
}

function route() {
  const h = location.hash.replace(/^#/, '') || 'live';
  const m = /^game\/(\d+)\/(\d+)$/.exec(h);
  let view = m ? 'game' : h.split('/')[0];
  if (!['live', 'pairings', 'standings', 'arbiter', 'console', 'game'].includes(view)) view = 'live';
  if (m && (S.game !== +m[2] || +m[1] !== S.round)) S.ply = null;
  if (m) S.game = +m[2];
  const r = hashRound();
  if (r && r !== S.round && S.event && S.event.published.includes(r)) setRound(r);
  S.view = view;
  document.body.dataset.view = view;
  for (const s of document.querySelectorAll('main .view')) s.hidden = s.id !== 'view-' + view;
  for (const a of document.querySelectorAll('#tabs a')) a.classList.toggle('active', a.dataset.view === view);
  if (view === 'game') renderViewer();
  if (view === 'standings') refreshStandings();
  if (view === 'console') renderConsole();
  if (!r || r === S.round) roundInUrl();
}

async function setRound(r) {
  S.round = r;
  $('#round').value = String(r);
  roundInUrl();
  if (S.view === 'standings') refreshStandings();
  if (S.view === 'console') renderConsole(); // its round's buttons
  $('#round-pgn').href = `/api/rounds/${r}.pgn`;
  S.games = new Map();
  renderBoards();
  await Promise.all([refreshPairings(), loadGames(r)]);
}

async function loadEvent(newest) {
  try {
    S.event = await getJSON('/api/event');
  } catch (e) {
    console.warn(e.message);
    return;
  }
  $('#event-name').textContent = S.event.name || 'xqref';
  document.title = (S.event.name || 'xqref') + ' · xqref';
  const sel = $('#round');
  sel.replaceChildren(...S.event.published.map(r => el('option', { value: r, text: roundName(r) })));
  const last = S.event.published[S.event.published.length - 1] || 0;
  // a link to a round (a game of it, a view of it) opens that round
  const linked = hashRound();
  const want = !newest && linked && S.event.published.includes(linked) ? linked : last;
  if (want && (newest || !S.round)) await setRound(want);
  if (!want) { renderBoards(); renderPairings(); }
  refreshStandings();
}

function init() {
  $('#notation').value = S.notation;
  $('#notation').addEventListener('change', e => {
    S.notation = e.target.value;
    S.notationChosen = true;
    localStorage.setItem('xqref.notation', S.notation);
    rerender();
  });
  $('#lang').addEventListener('click', () => {
    S.lang = S.lang === 'zh' ? 'en' : 'zh';
    localStorage.setItem('xqref.lang', S.lang);
    if (!S.notationChosen) $('#notation').value = S.notation = langNotation();
    rerender();
  });
  $('#round').addEventListener('change', e => setRound(+e.target.value));
  $('#filter').addEventListener('input', renderBoards);
  $('#nav-first').addEventListener('click', () => goto(0));
  $('#nav-prev').addEventListener('click', () => step(-1));
  $('#nav-next').addEventListener('click', () => step(1));
  $('#nav-last').addEventListener('click', () => goto(Infinity));
  document.addEventListener('keydown', e => {
    if (S.view !== 'game' || e.target.closest('input, select, textarea')) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goto(0), End: () => goto(Infinity) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  $('#token').value = S.token;
  $('#token-form').addEventListener('submit', e => { e.preventDefault(); signIn($('#token').value); });
  $('#sign-out').addEventListener('click', () => { $('#token').value = ''; signIn(''); });
  window.addEventListener('hashchange', route);
  setInterval(tickClocks, CLOCK_TICK_MS);
  applyWords();
  route();
  loadEvent(false).then(() => {
    connect();
    if (S.token) signIn(S.token);
  });
}

document.addEventListener('DOMContentLoaded', init);
