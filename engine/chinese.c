/*
 * chinese.c -- Chinese vertical-line notation (README.md, "Move notations"), UTF-8:
 * 炮二平五, 马８进７, 前炮退二, 中兵平六, 一兵平五.
 *
 * Printing follows xqbase: Red writes Chinese numerals, Black full-width
 * digits; 前/后 (前/中/后 for three pawns) for twins on a file; 一…五 for
 * more pawns on a file or for two doubled files; 仕/相 never marked.
 *
 * Parsing reads each character as a token -- piece K A E H R C P, number
 * 1-9, place + (前) . (中) - (后), direction > (进) < (退) = (平) -- whatever
 * glyph, script or width it was written in, then compares the tokens with
 * every legal move printed the xqbase way (tier 0), in the traditional
 * families (tier 1: 前/二/三/四/后 per file, file-qualified 前兵九平八 and
 * 前九平八) or loosely (tier 2: plain file numbers for twins, 前兵 with two
 * doubled files), see notation.h.
 */
#include <string.h>

#include "notation.h"

/* ---- glyphs ------------------------------------------------------- */

/* Names printed for each colour, by xq_kind. */
static const char *const names[2][8] = {
    {"", "帅", "仕", "相", "马", "车", "炮", "兵"},
    {"", "将", "士", "象", "马", "车", "炮", "卒"}};
static const char *const numerals[10] = {"", "一", "二", "三", "四",
                                         "五", "六", "七", "八", "九"};
static const char *const wide_digits[10] = {"", "１", "２", "３", "４",
                                            "５", "６", "７", "８", "９"};

/* Every character the parser knows, with the token it stands for. */
static const struct {
  uint32_t cp;
  char tok;
} glyphs[] = {
    {0x5E05, 'K'}, {0x5E25, 'K'}, {0x5C06, 'K'}, {0x5C07, 'K'}, /* 帅帥将將 */
    {0x4ED5, 'A'}, {0x58EB, 'A'},                               /* 仕士 */
    {0x76F8, 'E'}, {0x8C61, 'E'},                               /* 相象 */
    {0x9A6C, 'H'}, {0x99AC, 'H'}, {0x508C, 'H'},                /* 马馬傌 */
    {0x8F66, 'R'}, {0x8ECA, 'R'}, {0x4FE5, 'R'}, {0x7868, 'R'}, /* 车車俥硨 */
    {0x70AE, 'C'}, {0x7832, 'C'}, {0x5305, 'C'},                /* 炮砲包 */
    {0x5175, 'P'}, {0x5352, 'P'},                               /* 兵卒 */
    {0x4E00, '1'}, {0x4E8C, '2'}, {0x4E09, '3'}, {0x56DB, '4'}, /* 一二三四 */
    {0x4E94, '5'}, {0x516D, '6'}, {0x4E03, '7'}, {0x516B, '8'}, /* 五六七八 */
    {0x4E5D, '9'},                                              /* 九 */
    {0x524D, '+'}, {0x4E2D, '.'}, {0x540E, '-'}, {0x5F8C, '-'}, /* 前中后後 */
    {0x8FDB, '>'}, {0x9032, '>'}, {0x4E0A, '>'},                /* 进進上 */
    {0x9000, '<'}, {0x4E0B, '<'}, {0x5E73, '='},                /* 退下平 */
    {0xFF01, '!'}, {0xFF1F, '!'},                               /* ！？ */
};

/* Token of code point cp, or 0. */
static char token_of(uint32_t cp)
{
  if (cp >= '1' && cp <= '9') return (char)cp;
  if (cp >= 0xFF11 && cp <= 0xFF19) return (char)('1' + (cp - 0xFF11)); /* １-９ */
  if (cp == '!' || cp == '?' || cp == '+' || cp == '#') return '!';
  for (size_t i = 0; i < sizeof glyphs / sizeof glyphs[0]; i++)
    if (glyphs[i].cp == cp) return glyphs[i].tok;
  return 0;
}

static int is_piece(char t) { return t && strchr("KAEHRCP", t) != NULL; }
static int is_digit(char t) { return t >= '1' && t <= '9'; }
static int is_place(char t) { return t == '+' || t == '.' || t == '-'; }
static int is_dir(char t) { return t == '>' || t == '<' || t == '='; }

static int kind_of_token(char t)
{
  const char *p = strchr("KAEHRCP", t);
  return p ? (int)(p - "KAEHRCP") + 1 : 0;
}

/* ---- printing ----------------------------------------------------- */

/* The canonical (xqbase) prefix tokens of a move. */
static void canonical_prefix(const xq__vline *v, const xq__tandem *t, char *s)
{
  char piece = "?KAEHRCP"[v->kind];

  s[2] = '\0';
  if (t->n < 2 || v->kind == XQ_ADVISOR || v->kind == XQ_ELEPHANT) {
    s[0] = piece;
    s[1] = (char)('0' + v->file);
    return;
  }
  s[1] = piece;
  if (t->series >= 0) /* two doubled files: one series over both */
    s[0] = (char)('1' + t->series);
  else if (t->n >= 4) /* 4-5 pawns: 一…五 from the front */
    s[0] = (char)('1' + t->idx);
  else if (t->n == 3)
    s[0] = "+.-"[t->idx];
  else
    s[0] = t->idx == 0 ? '+' : '-';
}

/* Append the UTF-8 text of prefix token s[i] (colour `color`). */
static int put_token(const char *s, int i, int color, char *out, int n)
{
  const char *g;
  char c = s[i];
  if (is_piece(c)) g = names[color][kind_of_token(c)];
  else if (c == '+') g = "前";
  else if (c == '.') g = "中";
  else if (c == '-') g = "后";
  /* A number before the piece is an ordinal: a Chinese numeral even for
   * Black (一卒平５); a file number follows the colour's convention. */
  else if (i == 0 || color == XQ_RED) g = numerals[c - '0'];
  else g = wide_digits[c - '0'];
  size_t k = strlen(g);
  memcpy(out + n, g, k);
  return n + (int)k;
}

/* Append a file or value number in `color`'s convention. */
static int put_number(int d, int color, char *out, int n)
{
  const char *g = color == XQ_RED ? numerals[d] : wide_digits[d];
  size_t k = strlen(g);
  memcpy(out + n, g, k);
  return n + (int)k;
}

int xq__chinese_format(const xq_pos *pos, xq_move m, char *out)
{
  xq__vline v;
  xq__tandem t;
  char s[3];
  int n = 0;

  xq__notation_vline_of(pos, m, &v);
  xq__notation_tandem_of(pos, XQ_FROM(m), &t);
  canonical_prefix(&v, &t, s);
  n = put_token(s, 0, v.color, out, n);
  n = put_token(s, 1, v.color, out, n);
  const char *d = v.dir == XQ__FORWARD ? "进" : v.dir == XQ__BACKWARD ? "退" : "平";
  memcpy(out + n, d, strlen(d));
  n += (int)strlen(d);
  n = put_number(v.value, v.color, out, n);
  out[n] = '\0';
  return n;
}

/* ---- parsing ------------------------------------------------------ */

/* Append a prefix to alts[] unless it is already there (then keep the
 * better tier). */
static int add(xq__alt *alts, int n, const char *s, int tier)
{
  for (int i = 0; i < n; i++)
    if (strcmp(alts[i].s, s) == 0) {
      if (tier < alts[i].tier) alts[i].tier = tier;
      return n;
    }
  strcpy(alts[n].s, s);
  alts[n].tier = tier;
  return n + 1;
}

/* The prefixes under which legal move `m` may be written, best tier first
 * (an xq__alts_fn). */
static int chinese_alts(const xq_pos *pos, xq_move m, const xq__vline *v, xq__alt *alts)
{
  xq__tandem t;
  char c[4], piece = "?KAEHRCP"[v->kind], file = (char)('0' + v->file);
  int n;

  xq__notation_tandem_of(pos, XQ_FROM(m), &t);
  canonical_prefix(v, &t, c);
  n = add(alts, 0, c, 0);
  if (t.n < 2) return n;

  /* Traditional per-file marks: 前/后, 前/中/后, 前/二/三/四/(五|后). With two
   * doubled files a mark without the file leaves the file to legality. */
  char marks[2];
  int nm = 1;
  if (t.n == 2) marks[0] = t.idx == 0 ? '+' : '-';
  else if (t.n == 3) marks[0] = "+.-"[t.idx];
  else marks[0] = t.idx == 0 ? '+' : (char)('1' + t.idx);
  if (t.n >= 4 && t.idx == t.n - 1) marks[nm++] = '-';
  for (int i = 0; i < nm; i++) {
    char a[4] = {marks[i], piece, 0, 0}, b[4] = {marks[i], piece, file, 0};
    char f[4] = {marks[i], file, 0, 0};
    n = add(alts, n, a, t.series >= 0 ? 2 : 1); /* 前兵平五 */
    n = add(alts, n, b, 1);                     /* 前兵四平五 */
    n = add(alts, n, f, 1);                     /* 前四平五 */
  }
  /* Twins written as if alone on the file: legality decides. */
  char plain[3] = {piece, file, 0};
  n = add(alts, n, plain, 2);
  return n;
}

/* Explain, for a text that matches no legal move, what is missing. */
static int explain_illegal(const xq_pos *pos, const char *q, const char *p, int base,
                           xq_error *err)
{
  int plain = is_digit(p[1]) && p[2] == '\0';
  return xq__notation_explain_illegal(pos, q, kind_of_token(p[0]), plain ? p[1] - '0' : 0, base,
                                      err);
}

int xq__chinese_parse(const xq_pos *pos, const char *text, size_t len, int base,
                      xq_move *m, xq_error *err)
{
  const unsigned char *s = (const unsigned char *)text;
  char q[XQ__QUOTE_MAX], tok[XQ__CN_TOKENS_MAX];
  int at[XQ__CN_TOKENS_MAX]; /* byte offset of each token */
  int k = 0;
  size_t i = 0;

  xq__notation_quote(text, len, q, sizeof q);
  /* Read every character as a token; annotations may only trail. */
  while (i < len) {
    uint32_t cp;
    size_t w;
    if (s[i] < 0x80) {
      cp = s[i];
      w = 1;
    } else if (s[i] >= 0xE0 && s[i] < 0xF0 && i + 2 < len && (s[i + 1] & 0xC0) == 0x80 &&
               (s[i + 2] & 0xC0) == 0x80) {
      /* Every glyph we know is a three-byte sequence. */
      cp = ((uint32_t)(s[i] & 0x0F) << 12) | ((uint32_t)(s[i + 1] & 0x3F) << 6) |
           (s[i + 2] & 0x3F);
      w = 3;
    } else {
      cp = 0;
      w = 1;
    }
    char t = token_of(cp);
    if (!t) {
      char one[XQ__QUOTE_MAX];
      if (w == 1 && s[i] >= 0x80)
        return xq__notation_fail(err, XQ_ENOTATION, base + (int)i,
                                 "'%s' is not Chinese notation: unknown character at byte %d", q,
                                 base + (int)i);
      xq__notation_quote(text + i, w, one, sizeof one);
      return xq__notation_fail(err, XQ_ENOTATION, base + (int)i,
                               "'%s' is not Chinese notation: unknown character '%s'", q, one);
    }
    if (k > 0 && tok[k - 1] == '!' && t != '!')
      return xq__notation_fail(err, XQ_ENOTATION, base + (int)i,
                               "'%s' is not Chinese notation: unexpected text after the move", q);
    tok[k] = t;
    at[k++] = base + (int)i;
    i += w;
  }
  while (k > 0 && tok[k - 1] == '!') k--;

  /* Shapes: piece file dir value; place|ordinal piece dir value;
   * place file dir value; place|ordinal piece file dir value. */
  if (k < 4)
    return xq__notation_fail(err, XQ_ENOTATION, base + (int)len,
                             "'%s' is not Chinese notation: too short", q);
  if (k > 5)
    return xq__notation_fail(err, XQ_ENOTATION, at[5],
                             "'%s' is not Chinese notation: too long", q);
  if (!is_dir(tok[k - 2]))
    return xq__notation_fail(err, XQ_ENOTATION, at[k - 2],
                             "'%s' is not Chinese notation: expected 进, 退 or 平 at byte %d", q,
                             at[k - 2]);
  if (!is_digit(tok[k - 1]))
    return xq__notation_fail(err, XQ_ENOTATION, at[k - 1],
                             "'%s' is not Chinese notation: expected a number at byte %d", q,
                             at[k - 1]);
  int bad = -1;
  if (k == 4) {
    if (is_piece(tok[0])) {
      if (!is_digit(tok[1])) bad = 1;
    } else if (is_place(tok[0])) {
      if (!is_piece(tok[1]) && !is_digit(tok[1])) bad = 1;
    } else if (is_digit(tok[0])) {
      if (!is_piece(tok[1])) bad = 1;
    } else {
      bad = 0;
    }
  } else {
    if (!is_place(tok[0]) && !is_digit(tok[0])) bad = 0;
    else if (!is_piece(tok[1])) bad = 1;
    else if (!is_digit(tok[2])) bad = 2;
  }
  if (bad >= 0)
    return xq__notation_fail(err, XQ_ENOTATION, at[bad],
                             "'%s' is not Chinese notation: unexpected character at byte %d", q,
                             at[bad]);

  char p[4] = {0};
  memcpy(p, tok, (size_t)(k - 2));
  int dir = tok[k - 2] == '>' ? XQ__FORWARD : tok[k - 2] == '<' ? XQ__BACKWARD : XQ__SIDEWAYS;
  xq__matches mt;
  xq__notation_match(pos, p, dir, tok[k - 1] - '0', chinese_alts, &mt);
  if (mt.n == 1) {
    *m = mt.m[0];
    return XQ_OK;
  }
  if (mt.n == 0) return explain_illegal(pos, q, p, base, err);
  char a1[XQ_MOVE_TEXT_MAX], a2[XQ_MOVE_TEXT_MAX];
  xq__chinese_format(pos, mt.m[0], a1);
  xq__chinese_format(pos, mt.m[1], a2);
  return xq__notation_fail(err, XQ_EAMBIGUOUS, base, "'%s' is ambiguous: it may be %s or %s%s", q,
                           a1, a2, mt.n > 2 ? " or others" : "");
}
