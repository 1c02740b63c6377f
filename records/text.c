/*
 * text.c -- what the readers share: error records, UTF-8 checks and the
 * GB18030 converter (iconv from the C library), and the XQF/DhtmlXQ piece
 * table.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strings.h>

#include "records_internal.h"

void xq__text_error_prefix(xq_error *err, const char *prefix)
{
  if (!err) return;
  size_t p = strlen(prefix), m = strlen(err->msg), cap = sizeof err->msg - 1;
  if (p > cap) p = cap;
  if (p + m > cap) m = cap - p;
  memmove(err->msg + p, err->msg, m);
  memcpy(err->msg, prefix, p);
  err->msg[p + m] = '\0';
}

int xq_utf8_valid(const char *str, size_t n)
{
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0;

  while (i < n) {
    unsigned c = s[i];
    int k;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) k = 1;
    else if (c >= 0xE0 && c <= 0xEF) k = 2;
    else if (c >= 0xF0 && c <= 0xF4) k = 3;
    else return 0;
    if (i + (size_t)k >= n) return 0; /* cut short */
    for (int j = 1; j <= k; j++)
      if ((s[i + j] & 0xC0) != 0x80) return 0;
    /* no overlong 3- and 4-byte forms, no surrogates, nothing past U+10FFFF */
    if (c == 0xE0 && s[i + 1] < 0xA0) return 0;
    if (c == 0xED && s[i + 1] >= 0xA0) return 0;
    if (c == 0xF0 && s[i + 1] < 0x90) return 0;
    if (c == 0xF4 && s[i + 1] >= 0x90) return 0;
    i += (size_t)k + 1;
  }
  return 1;
}

/* Convert n bytes from `charset` to UTF-8 with the converter in *cd
 * (opened lazily). See xq__text_gbk_to_utf8. */
static int convert(void **cd, const char *charset, const char *in, size_t n, char *out,
                   size_t cap)
{
  if (cap == 0) return XQ_ELIMIT;
  if (*cd == (void *)-1) {
    iconv_t c = iconv_open("UTF-8", charset);
    if (c == (iconv_t)-1) return XQ_EINVAL;
    *cd = (void *)c;
  }
  iconv_t c = (iconv_t)*cd;
  char *src = (char *)in, *dst = out;
  size_t left = n, room = cap - 1;

  iconv(c, NULL, NULL, NULL, NULL);
  while (left > 0) {
    size_t r = iconv(c, &src, &left, &dst, &room);
    if (r != (size_t)-1) break;
    if (errno == E2BIG) return XQ_ELIMIT;
    /* EILSEQ or EINVAL (a cut sequence): one byte becomes U+FFFD. */
    if (room < 3) return XQ_ELIMIT;
    memcpy(dst, "\xEF\xBF\xBD", 3);
    dst += 3;
    room -= 3;
    src++;
    left--;
  }
  *dst = '\0';
  return (int)(dst - out);
}

int xq__text_gbk_to_utf8(void **cd, const char *in, size_t n, char *out, size_t cap)
{
  return convert(cd, "GB18030", in, n, out, cap);
}

void xq__text_gbk_close(void **cd)
{
  if (*cd != (void *)-1) iconv_close((iconv_t)*cd);
  *cd = (void *)-1;
}

int xq__text_to_utf8(void **cd, const char *s, size_t n, char *out, size_t cap)
{
  if (xq_utf8_valid(s, n) && xq__text_judge(s, n) == XQ__TEXT_UTF8) {
    if (n >= cap) return XQ_ELIMIT;
    memcpy(out, s, n);
    out[n] = '\0';
    return (int)n;
  }
  return xq__text_gbk_to_utf8(cd, s, n, out, cap);
}

/* ---- GBK or BIG5 ---------------------------------------------------- */

/* Characters of game records in either script: pieces, directions,
 * numerals, results. Text decoded with the right charset is full of
 * them; decoded with the wrong one it has next to none. */
static const uint32_t record_chars[] = {
  0x8F66, 0x9A6C, 0x70AE, 0x5175, 0x5352, 0x5E05, 0x5C06, 0x4ED5, 0x58EB, 0x76F8, 0x8C61,
  0x8FDB, 0x9000, 0x5E73, 0x524D, 0x540E, 0x7EA2, 0x9ED1, 0x80DC, 0x8D1F, 0x548C, /* simplified */
  0x8ECA, 0x99AC, 0x7832, 0x5E25, 0x5C07, 0x9032, 0x5F8C, 0x7D05, 0x52DD, 0x8CA0, /* traditional */
  0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94, 0x516D, 0x4E03, 0x516B, 0x4E5D,         /* 一..九 */
  0x5C40, 0x68CB, 0x8C61, 0x8CFD, 0x8D5B                                           /* 局棋象賽赛 */
};

static int record_score(const char *s, size_t n)
{
  const unsigned char *u = (const unsigned char *)s;
  int score = 0;
  for (size_t i = 0; i + 2 < n; i++) {
    if ((u[i] & 0xF0) != 0xE0) continue;
    uint32_t cp = (uint32_t)(u[i] & 0x0F) << 12 | (uint32_t)(u[i + 1] & 0x3F) << 6 |
                  (uint32_t)(u[i + 2] & 0x3F);
    if (cp >= 0xFF11 && cp <= 0xFF19) score++; /* full-width digits */
    for (size_t k = 0; k < sizeof record_chars / sizeof record_chars[0]; k++)
      if (record_chars[k] == cp) {
        score++;
        break;
      }
    i += 2;
  }
  return score;
}

void xq__text_decoder_init(xq__decoder *d)
{
  d->gbk = (void *)-1;
  d->big5 = (void *)-1;
  d->choice = 0;
  d->legacy = 0;
  d->doubt = 0;
  d->tmp = NULL;
  d->tmp_cap = 0;
}

void xq__text_decoder_close(xq__decoder *d)
{
  xq__text_gbk_close(&d->gbk);
  xq__text_gbk_close(&d->big5);
  free(d->tmp);
  d->tmp = NULL;
  d->tmp_cap = 0;
}

/* ---- UTF-8 or GBK: bytes valid as both --------------------------- */

/* What a character of a UTF-8 reading is, for the judgement below. */
enum { CH_HAN, CH_PUNCT, CH_LATIN, CH_GREEK, CH_CYRILLIC, CH_ODD };

static int char_class(uint32_t c)
{
  if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFFEF)) return CH_HAN;
  if ((c >= 0xA0 && c <= 0xBF && c != 0xAD) || c == 0xD7 || c == 0xF7 || (c >= 0x2010 && c <= 0x2027) ||
      (c >= 0x2030 && c <= 0x205E))
    return CH_PUNCT;
  if ((c >= 0xC0 && c <= 0x17F) || (c >= 0x1E00 && c <= 0x1EFF) || c == 0x1A0 || c == 0x1A1 || c == 0x1AF ||
      c == 0x1B0)
    return CH_LATIN; /* European and Vietnamese names */
  if (c >= 0x386 && c <= 0x3CE) return CH_GREEK;
  if (c >= 0x400 && c <= 0x45F) return CH_CYRILLIC;
  return CH_ODD;     /* combining marks, IPA, Hebrew, Arabic, archaic letters ... */
}

static int ascii_letter(const unsigned char *u, size_t n, size_t i)
{
  return i < n && ((u[i] | 0x20) >= 'a' && (u[i] | 0x20) <= 'z');
}

/* The UTF-8 reading of valid UTF-8 u[0..n): *chars non-ASCII characters,
 * *odd of them in a run (characters with no ASCII between) that no text
 * would hold: a character of an unlikely kind, letters of two scripts,
 * or one letter alone away from any ASCII letter (mojibake of a GBK
 * character: 郑惟桐 read as UTF-8 is "\u05A3\u03A9\u0369"); *marks of
 * them Latin-1 signs and punctuation (§, ½, ·), which GBK reads as
 * hanzi but no name is made of. */
static void utf8_reading(const unsigned char *u, size_t n, long *chars, long *odd, long *marks)
{
  size_t i = 0;
  *chars = *odd = *marks = 0;
  while (i < n) {
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    size_t start = i;
    long len = 0, letters = 0;
    int scripts = 0, bad = 0;
    while (i < n && u[i] >= 0x80) {
      int k = u[i] >= 0xF0 ? 4 : u[i] >= 0xE0 ? 3 : 2;
      uint32_t c = k == 2 ? (uint32_t)(u[i] & 0x1F) << 6 | (u[i + 1] & 0x3F)
                 : k == 3 ? (uint32_t)(u[i] & 0x0F) << 12 | (uint32_t)(u[i + 1] & 0x3F) << 6 | (u[i + 2] & 0x3F)
                          : 0x10000;
      int cl = char_class(c);
      if (cl == CH_ODD) bad = 1;
      else if (cl != CH_PUNCT) scripts |= 1 << cl;
      *marks += cl == CH_PUNCT;
      letters += cl == CH_LATIN || cl == CH_GREEK || cl == CH_CYRILLIC;
      len++;
      i += (size_t)k;
    }
    if (scripts & (scripts - 1)) bad = 1; /* two scripts in one word */
    if (len == 1 && letters == 1 && !(start && ascii_letter(u, n, start - 1)) && !ascii_letter(u, n, i)) bad = 1;
    *chars += len;
    if (bad) *odd += len;
  }
}

/* The GBK reading of u[0..n): *chars characters, *common of them the
 * common ones (GB2312's level-1 hanzi, its punctuation and full-width
 * forms) not glued to an ASCII letter. Returns 0, or -1 when u is not
 * GBK. */
static int gbk_reading(const unsigned char *u, size_t n, long *chars, long *common)
{
  *chars = *common = 0;
  for (size_t i = 0; i < n;) {
    unsigned c = u[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c == 0x80 || c == 0xFF || i + 1 >= n) return -1;
    unsigned t = u[i + 1];
    if (t >= 0x30 && t <= 0x39) { /* a four-byte GB18030 sequence: rare */
      if (i + 3 >= n) return -1;
      ++*chars;
      i += 4;
      continue;
    }
    if (t < 0x40 || t == 0x7F || t == 0xFF) return -1;
    int usual = t >= 0xA1 && ((c >= 0xA1 && c <= 0xA3) || (c >= 0xB0 && c <= 0xD7));
    if (usual && !(i && ascii_letter(u, n, i - 1)) && !ascii_letter(u, n, i + 2)) ++*common;
    ++*chars;
    i += 2;
  }
  return 0;
}

int xq__text_judge(const char *s, size_t n)
{
  const unsigned char *u = (const unsigned char *)s;
  long uc, uodd, umarks, gc, gcommon;
  if (gbk_reading(u, n, &gc, &gcommon) < 0 || gcommon < 2 || gcommon * 4 < gc * 3) return XQ__TEXT_UTF8;
  utf8_reading(u, n, &uc, &uodd, &umarks);
  if (umarks == uc) return XQ__TEXT_UTF8; /* "§3.1, §4", "½-½": signs, not GBK names */
  return uodd * 2 > uc ? XQ__TEXT_GBK : XQ__TEXT_EITHER;
}

int xq__text_file_utf8(FILE *f)
{
  char *b = malloc(XQ__SNIFF_LEN + 4);
  if (!b) return XQ_ENOMEM;
  size_t carry = 0, n;
  int ok = 1;
  while (ok && (n = fread(b + carry, 1, XQ__SNIFF_LEN, f)) > 0) {
    size_t len = carry + n, cut = len, k = len;
    /* a character cut by the end of the chunk waits for the next one */
    while (k > 0 && len - k < 3 && ((unsigned char)b[k - 1] & 0xC0) == 0x80) k--;
    unsigned lead = k ? (unsigned char)b[k - 1] : 0;
    if (lead >= 0xC0 && len - (k - 1) < (lead >= 0xF0 ? 4u : lead >= 0xE0 ? 3u : 2u)) cut = k - 1;
    ok = xq_utf8_valid(b, cut);
    carry = len - cut;
    memmove(b, b + cut, carry);
  }
  int rc = ferror(f) ? XQ_EIO : ok && (!carry || xq_utf8_valid(b, carry));
  free(b);
  return rc;
}

int xq__text_decode(xq__decoder *d, const char *s, size_t n, char *out, size_t cap)
{
  if (xq_utf8_valid(s, n)) {
    /* valid UTF-8 may be GBK all the same: judged by its readings, a tie
     * going to the file's legacy encoding when it has text in one */
    int j = xq__text_judge(s, n);
    d->doubt += j == XQ__TEXT_EITHER;
    if (j == XQ__TEXT_UTF8 || (j == XQ__TEXT_EITHER && !d->legacy)) {
      if (n >= cap) return XQ_ELIMIT;
      memcpy(out, s, n);
      out[n] = '\0';
      return (int)n;
    }
  } else {
    d->legacy = 1;
  }
  if (d->choice == 1) return convert(&d->gbk, "GB18030", s, n, out, cap);
  if (d->choice == 2) return convert(&d->big5, "BIG5-HKSCS", s, n, out, cap);
  /* Undecided: decode both ways and keep the one that reads like a game
   * record; a clear winner decides the rest of the input. */
  if (d->tmp_cap < cap) {
    char *t = realloc(d->tmp, cap);
    if (!t) return convert(&d->gbk, "GB18030", s, n, out, cap);
    d->tmp = t;
    d->tmp_cap = cap;
  }
  int g = convert(&d->gbk, "GB18030", s, n, out, cap);
  int b = convert(&d->big5, "BIG5-HKSCS", s, n, d->tmp, cap);
  if (g < 0 || b < 0) return g;
  int sg = record_score(out, (size_t)g), sb = record_score(d->tmp, (size_t)b);
  if (sb > sg) {
    memcpy(out, d->tmp, (size_t)b + 1);
    if (sb >= sg + 3) d->choice = 2;
    return b;
  }
  if (sg >= sb + 3) d->choice = 1;
  return g;
}

int xq__text_page_utf8(char **data, size_t *len, xq_error *err)
{
  if (xq_utf8_valid(*data, *len) && xq__text_judge(*data, *len) != XQ__TEXT_GBK) return XQ_OK;
  xq__decoder dec;
  xq__text_decoder_init(&dec);
  size_t cap = *len * 2 + 1;
  char *u = malloc(cap);
  int n = u && cap < 0x7FFFFFFF ? xq__text_decode(&dec, *data, *len, u, cap) : -1;
  xq__text_decoder_close(&dec);
  if (n < 0) {
    free(u);
    return xq_error_set(err, XQ_ENOMEM, -1, 0, "cannot convert the page to UTF-8");
  }
  free(*data);
  *data = u;
  *len = (size_t)n;
  return XQ_OK;
}

xq_kind xq__text_slot_kind(int slot)
{
  static const xq_kind order[16] = {XQ_ROOK,    XQ_HORSE,  XQ_ELEPHANT, XQ_ADVISOR,
                                    XQ_KING,    XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE,
                                    XQ_ROOK,    XQ_CANNON, XQ_CANNON,   XQ_PAWN,
                                    XQ_PAWN,    XQ_PAWN,   XQ_PAWN,     XQ_PAWN};
  return order[slot & 15];
}

int xq__text_pos_from_slots(const int sq[32], int side, xq_pos *out, xq_error *err)
{
  static const char letters[8] = {0, 'k', 'a', 'b', 'n', 'r', 'c', 'p'};
  char board[XQ_SQUARES];
  char fen[XQ_FEN_MAX];
  int n = 0;

  memset(board, 0, sizeof board);
  for (int i = 0; i < 32; i++) {
    if (sq[i] < 0) continue;
    if (sq[i] >= XQ_SQUARES)
      return xq_error_set(err, XQ_EFEN, -1, -1, "piece %d on square %d is off the board", i,
                          sq[i]);
    if (board[sq[i]])
      return xq_error_set(err, XQ_EFEN, -1, -1, "two pieces on %c%d", 'a' + XQ_FILE(sq[i]),
                          XQ_RANK(sq[i]));
    char c = letters[xq__text_slot_kind(i)];
    board[sq[i]] = (char)(i < 16 ? c - 'a' + 'A' : c);
  }
  /* FEN text, rank 9 first, then the engine's parser validates it. */
  for (int r = 9; r >= 0; r--) {
    int empty = 0;
    for (int f = 0; f < 9; f++) {
      char c = board[XQ_SQ(f, r)];
      if (!c) {
        empty++;
        continue;
      }
      if (empty) fen[n++] = (char)('0' + empty);
      empty = 0;
      fen[n++] = c;
    }
    if (empty) fen[n++] = (char)('0' + empty);
    if (r) fen[n++] = '/';
  }
  /* No side given (a diagram without moves): Red, unless the position is
   * legal only with Black to move (Red giving check, a mate diagram). */
  xq_error e[2];
  for (int k = 0; k < 2; k++) {
    int s = side == XQ__SIDE_EITHER ? k : side;
    snprintf(fen + n, sizeof fen - (size_t)n, " %c - - 0 1", s == XQ_BLACK ? 'b' : 'w');
    if (xq_fen_parse(out, fen, 0, &e[k]) == XQ_OK) return XQ_OK;
    if (side != XQ__SIDE_EITHER) {
      if (err) *err = e[k];
      return XQ_EFEN;
    }
  }
  if (!strcmp(e[0].msg, e[1].msg)) {
    if (err) *err = e[0];
    return XQ_EFEN;
  }
  return xq_error_set(err, XQ_EFEN, -1, -1, "with Red to move, %.100s; with Black to move, %.100s",
                      e[0].msg, e[1].msg);
}

void xq__text_slots_from_pos(const xq_pos *pos, int sq[32])
{
  for (int i = 0; i < 32; i++) sq[i] = -1;
  /* Walk the board file by file from Red's left, bottom to top, so each
   * kind's pieces take its slots left to right. */
  for (int f = 0; f < 9; f++)
    for (int r = 0; r < 10; r++) {
      xq_color c;
      xq_kind k = xq_piece_at(pos, XQ_SQ(f, r), &c);
      if (k == XQ_NONE) continue;
      for (int s = 0; s < 16; s++) {
        int slot = (c == XQ_BLACK ? 16 : 0) + s;
        if (xq__text_slot_kind(slot) == k && sq[slot] < 0) {
          sq[slot] = XQ_SQ(f, r);
          break;
        }
      }
    }
}

int xq__text_add_comment(xq_record *rec, int line, int after, const char *text, size_t len)
{
  size_t n = 0;

  if (len > XQ_REC_COMMENT_MAX) return XQ_ELIMIT;
  /* most comments have no CR: stored as they are, without a copy */
  if (!memchr(text, '\r', len)) return xq_record_add_comment(rec, line, after, text, len);
  char *buf = malloc(len);
  if (!buf) return XQ_ENOMEM;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\r') {
      buf[n++] = '\n';
      if (i + 1 < len && text[i + 1] == '\n') i++;
    } else {
      buf[n++] = text[i];
    }
  }
  int rc = xq_record_add_comment(rec, line, after, buf, n);
  free(buf);
  return rc;
}

int xq__text_add_comment_or_drop(xq_record *rec, int line, int after, const char *text, size_t len,
                            int *dropped)
{
  int rc = xq__text_add_comment(rec, line, after, text, len);
  if (rc != XQ_ELIMIT) return rc;
  if ((*dropped)++ == 0)
    xq__record_warn(rec, "comments left out: more than %d comments or %d bytes of them in the game",
                 XQ_REC_COMMENTS_MAX, XQ_REC_TEXT_MAX);
  return XQ_OK;
}

/* ---- results written as text ---------------------------------------- */

/* A glyph of the result text and what it says. */
typedef struct glyph {
  const char *s;
  int v;
} glyph;

/* The earliest of the n glyphs g[] in v: its place (NULL: none) and, in
 * *val, what it says. */
static const char *earliest(const char *v, const glyph *g, size_t n, int *val)
{
  const char *at = NULL;
  for (size_t i = 0; i < n; i++) {
    const char *p = strstr(v, g[i].s);
    if (p && (!at || p < at)) {
      at = p;
      *val = g[i].v;
    }
  }
  return at;
}

xq_result xq__text_result(const char *v)
{
  static const struct { const char *code; xq_result r; } codes[] = {
    {"W", XQ_RESULT_RED_WINS}, {"L", XQ_RESULT_BLACK_WINS}, {"D", XQ_RESULT_DRAW},
    {"1-0", XQ_RESULT_RED_WINS}, {"0-1", XQ_RESULT_BLACK_WINS}, {"1/2-1/2", XQ_RESULT_DRAW}};
  /* side glyphs (1 = Red, the first mover) and outcome glyphs (1 = wins) */
  static const glyph sides[] = {
    {"\xE7\xBA\xA2", 1}, {"\xE7\xB4\x85", 1}, {"\xE5\x85\x88", 1}, /* 红 紅 先 */
    {"\xE9\xBB\x91", 0}, {"\xE5\x90\x8E", 0}, {"\xE5\xBE\x8C", 0}}; /* 黑 后 後 */
  static const glyph outcomes[] = {
    {"\xE8\x83\x9C", 1}, {"\xE5\x8B\x9D", 1}, /* 胜 勝 */
    {"\xE8\xB4\x9F", 0}, {"\xE8\xB2\xA0", 0}, /* 负 負 */
    {"\xE8\xB4\xA5", 0}, {"\xE6\x95\x97", 0}}; /* 败 敗 */

  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (!strcasecmp(v, codes[i].code)) return codes[i].r;
  if (strstr(v, "\xE5\x92\x8C")) return XQ_RESULT_DRAW; /* 和 */
  int red = 0, wins = 0;
  const char *side = earliest(v, sides, sizeof sides / sizeof sides[0], &red);
  if (!side || !earliest(side, outcomes, sizeof outcomes / sizeof outcomes[0], &wins))
    return XQ_RESULT_UNKNOWN;
  return red == wins ? XQ_RESULT_RED_WINS : XQ_RESULT_BLACK_WINS;
}

