/*
 * iccs.c -- ICCS / UCCI coordinates (README.md, "Move notations"): `h2e2` and the xqbase
 * PGN form `H2-E2`, ranks 0-9. Unlike WXF and Chinese, the text names the
 * squares, so it is read directly and then checked against the legal moves.
 */
#include <string.h>

#include "notation.h"

int xq__iccs_format(const xq_pos *pos, xq_move m, int pgn, char *out)
{
  int from = XQ_FROM(m), to = XQ_TO(m);
  char a = pgn ? 'A' : 'a';
  int n = 0;

  (void)pos;
  out[n++] = (char)(a + XQ_FILE(from));
  out[n++] = (char)('0' + XQ_RANK(from));
  if (pgn) out[n++] = '-';
  out[n++] = (char)(a + XQ_FILE(to));
  out[n++] = (char)('0' + XQ_RANK(to));
  out[n] = '\0';
  return n;
}

/* Square named at s[0..1] (file letter in either case, rank digit), or -1. */
static int read_square(const char *s)
{
  int f = s[0] | 0x20, r = s[1];
  if (f < 'a' || f > 'i' || r < '0' || r > '9') return -1;
  return XQ_SQ(f - 'a', r - '0');
}

/* Describe why the well-formed move from `from` to `to` is not legal. */
static int explain_illegal(const xq_pos *pos, const char *shown, int from, int to,
                           int base, xq_error *err)
{
  static const char files[] = "abcdefghi";
  char fs[3] = {files[XQ_FILE(from)], (char)('0' + XQ_RANK(from)), 0};
  char ts[3] = {files[XQ_FILE(to)], (char)('0' + XQ_RANK(to)), 0};
  int pid = pos->board[from], us = pos->side;

  if (from == to)
    return xq__notation_fail(err, XQ_EILLEGAL, base, "%s is not legal: a move must change square",
                             shown);
  if (pid == XQ_NO_PID || XQ_PID_COLOR(pid) != us)
    return xq__notation_fail(err, XQ_EILLEGAL, base, "%s is not legal: no %s piece on %s", shown,
                             xq__notation_color_name(us), fs);
  const char *kind = xq__notation_kind_name(xq__pid_kind[pid]);
  int tid = pos->board[to];
  if (tid != XQ_NO_PID && XQ_PID_COLOR(tid) == us)
    return xq__notation_fail(err, XQ_EILLEGAL, base,
                             "%s is not legal: the %s on %s cannot take its own piece on %s",
                             shown, kind, fs, ts);
  if (!xq_is_pseudo_legal(pos, XQ_MOVE(from, to)))
    return xq__notation_fail(err, XQ_EILLEGAL, base,
                             "%s is not legal: the %s on %s cannot move to %s", shown, kind, fs,
                             ts);
  return xq__notation_fail(err, XQ_EILLEGAL, base,
                           "%s is not legal: the %s on %s moving to %s would leave the %s "
                           "general in check",
                           shown, kind, fs, ts, xq__notation_color_name(us));
}

int xq__iccs_parse(const xq_pos *pos, const char *text, size_t len, int base,
                   xq_move *m, xq_error *err)
{
  char q[XQ__QUOTE_MAX];
  size_t i = 0;
  int from, to;

  xq__notation_quote(text, len, q, sizeof q);
  if (len == 4 && memcmp(text, "0000", 4) == 0)
    return xq__notation_fail(err, XQ_EILLEGAL, base, "0000 (the null move) is not a legal move");
  /* file rank [-] file rank, then optional annotation marks */
  if (len < 2 || (from = read_square(text)) < 0) {
    int at = len < 1 || ((text[0] | 0x20) >= 'a' && (text[0] | 0x20) <= 'i') ? 1 : 0;
    if ((size_t)at >= len)
      return xq__notation_fail(err, XQ_ENOTATION, base + (int)len, "'%s' is not ICCS: too short",
                               q);
    return xq__notation_fail(err, XQ_ENOTATION, base + at,
                             "'%s' is not ICCS: expected a %s at byte %d", q,
                             at ? "rank digit 0-9" : "file letter a-i", base + at);
  }
  i = 2;
  if (i < len && text[i] == '-') i++;
  if (i + 2 > len)
    return xq__notation_fail(err, XQ_ENOTATION, base + (int)len, "'%s' is not ICCS: too short",
                             q);
  if ((to = read_square(text + i)) < 0) {
    int bad = ((text[i] | 0x20) >= 'a' && (text[i] | 0x20) <= 'i') ? 1 : 0;
    return xq__notation_fail(err, XQ_ENOTATION, base + (int)i + bad,
                             "'%s' is not ICCS: expected a %s at byte %d%s", q,
                             bad ? "rank digit 0-9" : "file letter a-i", base + (int)i + bad,
                             bad || text[i] != '0' ? "" : " (ranks are 0-9, not 1-10)");
  }
  for (i += 2; i < len; i++)
    if (!strchr("!?+#", text[i]))
      return xq__notation_fail(err, XQ_ENOTATION, base + (int)i,
                               "'%s' is not ICCS: unexpected character at byte %d after the move",
                               q, base + (int)i);

  xq_move mv = XQ_MOVE(from, to);
  if (from != to && xq_is_legal(pos, mv)) {
    *m = mv;
    return XQ_OK;
  }
  return explain_illegal(pos, q, from, to, base, err);
}
