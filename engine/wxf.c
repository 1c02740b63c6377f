/*
 * wxf.c -- WXF notation (README.md, "Move notations"): piece, file, direction, value,
 * e.g. `C2.5`, `H2+3`, tandem `C+-2`, pawn files `++.4` and `3+.4`.
 *
 * Parsing normalises the text to four ASCII characters -- piece slot, file
 * slot, direction (`+ - .`), value (1-9) -- and compares it with every legal
 * move printed canonically (tier 0), in the accepted dialects (tier 1:
 * numeric-keypad piece codes, xqbase's `+C-2` order and pawn positions
 * `P..6`, `Pa.6`, Fairy-Stockfish's ordinal and file `15=4`) or loosely
 * (tier 2: plain file digits for tandem pieces), see notation.h.
 */
#include <string.h>

#include "notation.h"

/* Piece letters by xq_kind; the keypad code of a kind is its number. */
static const char letters[8] = {'?', 'K', 'A', 'E', 'H', 'R', 'C', 'P'};

/* The canonical piece and file slots of a move (README.md, "Move notations" table). */
static void canonical_prefix(const xq__vline *v, const xq__tandem *t, char *s)
{
  char file = (char)('0' + v->file);

  s[0] = letters[v->kind];
  s[1] = file;
  s[2] = '\0';
  if (t->n < 2 || v->kind == XQ_ADVISOR || v->kind == XQ_ELEPHANT) return;
  /* front +, rear -, a middle pawn keeps its file digit */
  char mark = t->idx == 0 ? '+' : (t->idx == t->n - 1 ? '-' : file);
  if (t->series >= 0) { /* pawns on two doubled files: the digit replaces the letter */
    s[0] = file;
    s[1] = mark;
  } else if (t->n <= 3) { /* R+ R-, P+ P<file> P- */
    s[1] = mark;
  } else { /* 4 pawns: ++ P+ P- --; 5: ++ P+ P<file> P- -- */
    static const char *const marks[2][5] = {{"++", "P+", "P-", "--"},
                                            {"++", "P+", "P#", "P-", "--"}};
    const char *mk = marks[t->n - 4][t->idx];
    s[0] = mk[0];
    s[1] = mk[1] == '#' ? file : mk[1];
  }
}

/* Append a prefix to alts[] unless it is already there (then keep the
 * better tier). */
static int add(xq__alt *alts, int n, char a, char b, int tier)
{
  for (int i = 0; i < n; i++)
    if (alts[i].s[0] == a && alts[i].s[1] == b) {
      if (tier < alts[i].tier) alts[i].tier = tier;
      return n;
    }
  alts[n].s[0] = a;
  alts[n].s[1] = b;
  alts[n].s[2] = '\0';
  alts[n].tier = tier;
  return n + 1;
}

/* Prefix with the piece letter of `kind` (at `tier`), then the same with
 * its keypad code and, when `b` is a tandem mark, in xqbase's `+C` order
 * (at least tier 1). */
static int add_both(xq__alt *alts, int n, int kind, char b, int tier)
{
  int t1 = tier > 1 ? tier : 1;
  n = add(alts, n, letters[kind], b, tier);
  n = add(alts, n, (char)('0' + kind), b, t1);
  if (b == '+' || b == '-') {
    n = add(alts, n, b, letters[kind], t1);
    n = add(alts, n, b, (char)('0' + kind), t1);
  }
  return n;
}

/* The prefixes under which legal move `m` may be written, best tier first
 * (an xq__alts_fn). */
static int wxf_alts(const xq_pos *pos, xq_move m, const xq__vline *v, xq__alt *alts)
{
  xq__tandem t;
  char c[3], file = (char)('0' + v->file);
  int n = 0;

  xq__notation_tandem_of(pos, XQ_FROM(m), &t);
  canonical_prefix(v, &t, c);
  n = add(alts, n, c[0], c[1], 0);
  if (c[0] >= 'A') n = add_both(alts, n, v->kind, c[1], 0); /* keypad, +C order */
  if (t.n < 2) return n;

  if (v->kind == XQ_ADVISOR || v->kind == XQ_ELEPHANT) /* marked although needless */
    return add_both(alts, n, v->kind, t.idx == 0 ? '+' : '-', 1);
  /* Fairy-Stockfish and pychess write a pawn among 3+ on its file as its
   * ordinal from the front, then the file (15=4: the front pawn of file
   * 5). A tier-1 spelling, as the keypad codes it can collide with (15+1
   * is also the general of file 5): a text both fit is ambiguous. */
  if (v->kind == XQ_PAWN && t.n >= 3) n = add(alts, n, (char)('1' + t.idx), file, 1);
  /* xqbase writes the place of a pawn among 3+ in the file slot: + . - for
   * three on a file, a-e for more or for the series over two files. */
  if (v->kind == XQ_PAWN) {
    if (t.series >= 0)
      n = add_both(alts, n, XQ_PAWN, (char)('a' + t.series), 1);
    else if (t.n >= 4)
      n = add_both(alts, n, XQ_PAWN, (char)('a' + t.idx), 1);
    else if (t.n == 3)
      n = add_both(alts, n, XQ_PAWN, "+.-"[t.idx], 1);
    /* Two doubled files: the single-file marks, the file left to legality. */
    if (t.series >= 0)
      n = add_both(alts, n, XQ_PAWN, t.idx == 0 ? '+' : (t.idx == t.n - 1 ? '-' : file), 2);
  }
  /* Tandem pieces written as if alone on the file: legality decides. */
  return add_both(alts, n, v->kind, file, 2);
}

int xq__wxf_format(const xq_pos *pos, xq_move m, char *out)
{
  xq__vline v;
  xq__tandem t;

  xq__notation_vline_of(pos, m, &v);
  xq__notation_tandem_of(pos, XQ_FROM(m), &t);
  canonical_prefix(&v, &t, out);
  out[2] = "+-."[v.dir == XQ__FORWARD ? 0 : v.dir == XQ__BACKWARD ? 1 : 2];
  out[3] = (char)('0' + v.value);
  out[4] = '\0';
  return 4;
}

/* Normalised piece letter of `ch`, or 0: case-insensitive, N = H, B = E. */
static char piece_letter(int ch)
{
  switch (ch & ~0x20) {
  case 'K': return 'K';
  case 'A': return 'A';
  case 'E': case 'B': return 'E';
  case 'H': case 'N': return 'H';
  case 'R': return 'R';
  case 'C': return 'C';
  case 'P': return 'P';
  }
  return 0;
}

static int is_alpha(int ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* Printable form of byte `ch` for messages. */
static const char *show(int ch, char *buf)
{
  static const char hex[] = "0123456789abcdef";
  ch &= 0xFF;
  if (ch >= 0x20 && ch < 0x7F) {
    buf[0] = (char)ch;
    buf[1] = '\0';
  } else {
    memcpy(buf, "\\x", 2);
    buf[2] = hex[ch >> 4];
    buf[3] = hex[ch & 15];
    buf[4] = '\0';
  }
  return buf;
}

/* Explain, for a text that matches no legal move, what is missing. */
static int explain_illegal(const xq_pos *pos, const char *q, const char *p, int base,
                           xq_error *err)
{
  int kind = 0;
  for (int k = 1; k < 8; k++)
    if (letters[k] == p[0]) kind = k;
  int file = p[1] >= '1' && p[1] <= '9' ? p[1] - '0' : 0;
  return xq__notation_explain_illegal(pos, q, kind, file, base, err);
}

int xq__wxf_parse(const xq_pos *pos, const char *text, size_t len, int base,
                  xq_move *m, xq_error *err)
{
  const unsigned char *s = (const unsigned char *)text;
  char q[XQ__QUOTE_MAX], b[5], p[3];
  size_t core;
  int dir, value;

  xq__notation_quote(text, len, q, sizeof q);
  if (len < 3)
    return xq__notation_fail(err, XQ_ENOTATION, base + (int)len, "'%s' is not WXF: too short", q);

  /* Piece slot: a letter, a keypad code or pawn-file digit, or + - for the
   * foremost/rearmost of 4-5 pawns and xqbase's `+C-2` order. */
  if (is_alpha(s[0])) {
    if (!(p[0] = piece_letter(s[0])))
      return xq__notation_fail(err, XQ_ENOTATION, base,
                               "'%s' is not WXF: unknown piece letter '%s'", q, show(s[0], b));
  } else if ((s[0] >= '1' && s[0] <= '9') || s[0] == '+' || s[0] == '-') {
    p[0] = (char)s[0];
  } else {
    return xq__notation_fail(err, XQ_ENOTATION, base,
                             "'%s' is not WXF: unknown piece letter '%s'", q, show(s[0], b));
  }

  /* File slot: a file digit, a tandem mark + . -, xqbase's a-e, or the
   * piece letter after a leading mark. */
  if (is_alpha(s[1]) && (p[0] == '+' || p[0] == '-')) {
    if (!(p[1] = piece_letter(s[1])))
      return xq__notation_fail(err, XQ_ENOTATION, base + 1,
                               "'%s' is not WXF: unknown piece letter '%s'", q, show(s[1], b));
  } else if ((s[1] | 0x20) >= 'a' && (s[1] | 0x20) <= 'e') {
    p[1] = (char)(s[1] | 0x20);
  } else if ((s[1] >= '1' && s[1] <= '9') || s[1] == '+' || s[1] == '-' || s[1] == '.') {
    p[1] = (char)s[1];
  } else {
    return xq__notation_fail(err, XQ_ENOTATION, base + 1,
                             "'%s' is not WXF: '%s' is not a file, + or -", q, show(s[1], b));
  }
  p[2] = '\0';

  /* Direction and value; `=` and a missing sign mean sideways. */
  if (s[2] >= '1' && s[2] <= '9') {
    dir = XQ__SIDEWAYS;
    value = s[2] - '0';
    core = 3;
  } else {
    if (!strchr("+-.=", s[2]) || s[2] == '\0')
      return xq__notation_fail(err, XQ_ENOTATION, base + 2,
                               "'%s' is not WXF: '%s' is not a direction (+ - . =)", q,
                               show(s[2], b));
    if (len < 4)
      return xq__notation_fail(err, XQ_ENOTATION, base + 3, "'%s' is not WXF: missing the value",
                               q);
    if (s[3] < '1' || s[3] > '9')
      return xq__notation_fail(err, XQ_ENOTATION, base + 3,
                               "'%s' is not WXF: '%s' is not a value 1-9", q, show(s[3], b));
    dir = s[2] == '+' ? XQ__FORWARD : s[2] == '-' ? XQ__BACKWARD : XQ__SIDEWAYS;
    value = s[3] - '0';
    core = 4;
  }
  /* A parser stops after the move: `!`, `?`, `+` (check), `#` may follow. */
  for (size_t i = core; i < len; i++)
    if (!strchr("!?+#", s[i]))
      return xq__notation_fail(err, XQ_ENOTATION, base + (int)i,
                               "'%s' is not WXF: unexpected '%s' after the move", q, show(s[i], b));

  xq__matches mt;
  xq__notation_match(pos, p, dir, value, wxf_alts, &mt);
  if (mt.n == 1) {
    *m = mt.m[0];
    return XQ_OK;
  }
  if (mt.n == 0) return explain_illegal(pos, q, p, base, err);
  char a1[XQ_MOVE_TEXT_MAX], a2[XQ_MOVE_TEXT_MAX];
  xq__wxf_format(pos, mt.m[0], a1);
  xq__wxf_format(pos, mt.m[1], a2);
  return xq__notation_fail(err, XQ_EAMBIGUOUS, base, "'%s' is ambiguous: it may be %s or %s%s", q,
                           a1, a2, mt.n > 2 ? " or others" : "");
}
