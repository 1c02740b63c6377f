/*
 * messages.js -- the server's words on the Chinese page. The protocol's
 * errors and the pairing's warnings are English sentences
 * (docs/protocol.md); the page says the ones an organiser or an arbiter
 * meets in Chinese, and any other as the server wrote it: errText() and
 * warnText() are what the console's modules call.
 */
import { S } from './state.js';

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
  [/^no such board in that round$/, '该轮没有这一台'],
  [/^that board is the bye$/, '该台为轮空'],
  [/^no game at this round and table$/, '该轮该台没有对局'],
  [/^no published round with this number$/, '没有已公布的这一轮'],
  [/^the last admin token cannot be revoked$/, '不能注销最后一个管理员令牌'],
  [/^the sheet is over (\d+) bytes$/, '表格超过$1字节'],
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
