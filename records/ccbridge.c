/*
 * ccbridge.c -- 象棋桥 (CCBridge) records: the CBR game ("CCBridge
 * Record", versions 1 and 2: UTF-16 header fields, a 90-square board and a
 * pre-order move tree), the CBL library of CBR records ("CCBridgeLibrary")
 * and the older CBL book ("CCBridge" + version 21, a zlib stream holding
 * GBK games whose moves are numbered by ply, variations restarting at
 * the ply they replace). Layouts from published readers (vschess,
 * walker8088's cchess) and the books of public collections.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "records_internal.h"

static const char cbr_magic[16] = "CCBridge Record";   /* with its NUL */
static const char lib_magic[16] = "CCBridgeLibrary";   /* with its NUL */
static const char book_magic[8] = {'C', 'C', 'B', 'r', 'i', 'd', 'g', 'e'};
#define BOOK_HEADER 20        /* magic, version 21, kind, raw size */
#define BOOK_VERSION 21
#define CBR_LEN_MIN 2214      /* a version 2 header and its board */

static uint32_t u32le(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- CBR ------------------------------------------------------------ */

/* UTF-16LE text at buf[off..off+cap) up to its first NUL, as UTF-8 into
 * out (XQ_REC_TAG_VALUE_MAX bytes, cut at a whole character). */
static void utf16_text(const unsigned char *buf, size_t off, size_t cap, char *out)
{
  size_t n = 0;
  for (size_t i = 0; i + 1 < cap; i += 2) {
    unsigned c = buf[off + i] | (unsigned)buf[off + i + 1] << 8;
    if (!c) break;
    if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD; /* no pairs in these fields */
    char enc[3];
    size_t k = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (k == 1) enc[0] = (char)c;
    else if (k == 2) enc[0] = (char)(0xC0 | c >> 6), enc[1] = (char)(0x80 | (c & 0x3F));
    else
      enc[0] = (char)(0xE0 | c >> 12), enc[1] = (char)(0x80 | ((c >> 6) & 0x3F)),
      enc[2] = (char)(0x80 | (c & 0x3F));
    if (n + k >= XQ_REC_TAG_VALUE_MAX) break;
    memcpy(out + n, enc, k);
    n += k;
  }
  out[n] = '\0';
}

/* The header fields of a CBR of version `ver` as tags, and its result. */
static void cbr_tags(const unsigned char *buf, int ver, xq_record *rec)
{
  /* offsets of version 1, then version 2 */
  static const struct { const char *tag; int at[2], cap; } fields[] = {
    {"Title", {52, 180}, 128},    {"Event", {564, 692}, 64},     {"Round", {628, 756}, 64},
    {"Date", {756, 884}, 64},     {"Site", {820, 948}, 64},      {"Red", {948, 1076}, 64},
    {"RedTeam", {1012, 1140}, 64}, {"Black", {1172, 1300}, 64}, {"BlackTeam", {1236, 1364}, 64},
    {"Remark", {1396, 1652}, 64}, {"Annotator", {1524, 1780}, 64}};
  char v[XQ_REC_TAG_VALUE_MAX];
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    utf16_text(buf, (size_t)fields[i].at[ver - 1], (size_t)fields[i].cap, v);
    if (v[0]) xq_record_set_tag(rec, fields[i].tag, v);
  }
  static const xq_result results[4] = {XQ_RESULT_UNKNOWN, XQ_RESULT_RED_WINS,
                                       XQ_RESULT_BLACK_WINS, XQ_RESULT_DRAW};
  int r = buf[ver == 1 ? 1820 : 2076];
  rec->result = r <= 3 ? results[r] : XQ_RESULT_UNKNOWN;
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
}

/* The start position of a CBR from its board (90 squares, rank 9 first;
 * 0x11-0x17 Red R N B A K C P, 0x21-0x27 Black), Black to move when
 * `black`; the first moved piece decides when there is one. */
static int cbr_start(const unsigned char *b, int black, int first_from, xq_pos *out,
                     xq_error *err)
{
  static const xq_kind kinds[8] = {XQ_NONE,    XQ_ROOK, XQ_HORSE,  XQ_ELEPHANT,
                                   XQ_ADVISOR, XQ_KING, XQ_CANNON, XQ_PAWN};
  int sq[32], used[32] = {0};
  for (int i = 0; i < 32; i++) sq[i] = -1;
  for (int i = 0; i < 90; i++) {
    int c = b[i], colour = c >> 4, k = c & 15;
    if (!c) continue;
    if ((colour != 1 && colour != 2) || k < 1 || k > 7)
      return xq_error_set(err, XQ_EFEN, -1, 0, "CBR board holds an unknown piece code 0x%02x", c);
    int s = XQ_SQ(i % 9, 9 - i / 9), slot = -1;
    for (int j = (colour - 1) * 16; j < colour * 16 && slot < 0; j++)
      if (xq__text_slot_kind(j) == kinds[k] && !used[j]) slot = j;
    if (slot < 0) return xq_error_set(err, XQ_EFEN, -1, 0, "CBR board holds too many pieces");
    used[slot] = 1;
    sq[slot] = s;
  }
  int side = black ? XQ_BLACK : XQ_RED;
  for (int j = 0; j < 32 && first_from >= 0; j++)
    if (sq[j] == first_from) side = j < 16 ? XQ_RED : XQ_BLACK;
  xq_error why;
  if (xq__text_pos_from_slots(sq, side, out, &why) != XQ_OK)
    return xq_error_set(err, XQ_EFEN, -1, 0, "bad CBR start position: %s", why.msg);
  return XQ_OK;
}

/* Engine square of CBR move byte `b` (version 1: file << 4 | row from the
 * top; version 2: row from the top * 9 + file), -1 when out of range. */
static int cbr_square(int ver, int b)
{
  if (ver == 1) return (b >> 4) < 9 && (b & 15) < 10 ? XQ_SQ(b >> 4, 9 - (b & 15)) : -1;
  return b < 90 ? XQ_SQ(b % 9, 9 - b / 9) : -1;
}

/* One node record of a CBR tree at buf[*at]: its flags, squares (-1 for
 * a record on no move, both squares the same) and comment (UTF-16, as
 * UTF-8 into *text, owned by the caller). Returns 1, 0 at the end of the
 * data or a flag byte over 7, or an error. */
typedef struct cbr_node {
  int sig, from, to;
  char *text;
  size_t tlen;
} cbr_node;

static int cbr_node_read(const unsigned char *buf, size_t len, size_t *at, int ver, cbr_node *nd,
                         xq_error *err)
{
  nd->tlen = 0;
  if (*at + 4 > len) return 0;
  const unsigned char *p = buf + *at;
  nd->sig = p[0];
  if (nd->sig > 7) return 0; /* the end of the tree */
  nd->from = p[2] == p[3] ? -1 : cbr_square(ver, p[2]);
  nd->to = p[2] == p[3] ? -1 : cbr_square(ver, p[3]);
  *at += 4;
  if (!(nd->sig & 4)) return 1;
  if (*at + 4 > len)
    return xq_error_set(err, XQ_ENOTATION, (int)*at, 0, "CBR file truncated in a comment");
  size_t n = u32le(buf + *at);
  if (n > XQ_REC_COMMENT_MAX * 2 || *at + 4 + n > len)
    return xq_error_set(err, XQ_ENOTATION, (int)*at, 0, "CBR comment length %zu out of range", n);
  char *t = realloc(nd->text, n / 2 * 3 + 1);
  if (!t) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  nd->text = t;
  for (size_t i = 0; i + 1 < n; i += 2) { /* UTF-16LE to UTF-8, no pairs */
    unsigned c = buf[*at + 4 + i] | (unsigned)buf[*at + 5 + i] << 8;
    if (!c) break;
    if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD;
    if (c < 0x80) {
      t[nd->tlen++] = (char)c;
    } else if (c < 0x800) {
      t[nd->tlen++] = (char)(0xC0 | c >> 6);
      t[nd->tlen++] = (char)(0x80 | (c & 0x3F));
    } else {
      t[nd->tlen++] = (char)(0xE0 | c >> 12);
      t[nd->tlen++] = (char)(0x80 | ((c >> 6) & 0x3F));
      t[nd->tlen++] = (char)(0x80 | (c & 0x3F));
    }
  }
  while (nd->tlen && (t[nd->tlen - 1] == '\n' || t[nd->tlen - 1] == '\r' || t[nd->tlen - 1] == ' '))
    nd->tlen--; /* comments end in a line break */
  *at += 4 + n;
  return 1;
}

/* The move tree of a CBR from buf[at]: a record on no move first holds
 * the root's comment; the tree ends at the next such record, at a flag
 * byte over 7 or at the end of the data (early: with a warning). */
static int cbr_tree(const unsigned char *buf, size_t len, size_t at, int ver, xq_record *rec,
                    xq_error *err)
{
  cbr_node nd = {0, 0, 0, NULL, 0};
  xq__tree t;
  xq__tree_start(&t, rec, 0);
  int rc = cbr_node_read(buf, len, &at, ver, &nd, err);
  if (rc == 1 && nd.from < 0) {
    if (xq__tree_comment(&t, nd.text, nd.tlen) != XQ_OK) rc = XQ_ENOMEM;
    else rc = cbr_node_read(buf, len, &at, ver, &nd, err);
  }
  t.more = rc == 1 && nd.from >= 0;
  for (int have = t.more; rc >= 0 && xq__tree_next(&t); have = 0) {
    if (!have && (rc = cbr_node_read(buf, len, &at, ver, &nd, err)) < 0) break;
    if (rc == 0 || nd.from < 0 || nd.to < 0) {
      xq__record_warn(rec, "CBR move tree ends before its last branch: read as far as it goes");
      break;
    }
    rc = xq__tree_move(&t, XQ_MOVE(nd.from, nd.to), !(nd.sig & 1), (nd.sig & 2) != 0, (int)at,
                       err);
    if (rc == XQ_OK && xq__tree_comment(&t, nd.text, nd.tlen) != XQ_OK) rc = XQ_ENOMEM;
  }
  if (rc == XQ_ENOMEM) xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  free(nd.text);
  xq__tree_end(&t);
  return rc < 0 ? rc : XQ_OK;
}

int xq__ccbridge_cbr_read(const unsigned char *buf, size_t len, xq_record *rec, xq_error *err)
{
  xq_record_reset(rec);
  if (len < 20 || memcmp(buf, cbr_magic, 16))
    return xq_error_set(err, XQ_ENOTATION, 0, 0, "not a CBR record (no \"CCBridge Record\")");
  int ver = buf[19];
  if (ver < 1 || ver > 2)
    return xq_error_set(err, XQ_ENOTATION, 19, 0, "unknown CBR version %d", ver);
  size_t off = ver == 1 ? 1856 : 2112;
  if (len < off + 102)
    return xq_error_set(err, XQ_ENOTATION, (int)len, 0, "CBR record truncated in its header");
  /* the first moved piece tells the side to move: the first node record
   * that is a move (the root's comment record is not) */
  size_t at = off + 102;
  cbr_node nd = {0, 0, 0, NULL, 0};
  int first = -1;
  for (int k = 0; k < 2 && first < 0 && cbr_node_read(buf, len, &at, ver, &nd, NULL) == 1; k++)
    first = nd.from;
  free(nd.text);
  int rc = cbr_start(buf + off + 8, buf[off] == 2, first, &rec->start, err);
  if (rc != XQ_OK) return rc;
  rec->end = rec->start;
  if ((rc = cbr_tree(buf, len, off + 102, ver, rec, err)) != XQ_OK) return rc;
  cbr_tags(buf, ver, rec);
  xq_record_pack(rec);
  return XQ_OK;
}

/* ---- CBL ------------------------------------------------------------ */

int xq__ccbridge_cbl_prepare(char **data, size_t *len, xq_error *err)
{
  const unsigned char *b = (const unsigned char *)*data;
  if (*len >= 16 && !memcmp(b, lib_magic, 16)) return XQ_OK; /* CBR records as they are */
  if (*len < BOOK_HEADER || memcmp(b, book_magic, 8) || u32le(b + 8) != BOOK_VERSION)
    return xq_error_set(err, XQ_ENOTATION, 0, 0, "not a CBL library");
  uLongf raw = u32le(b + 16);
  if (raw > XQ_CBL_BOOK_MAX)
    return xq_error_set(err, XQ_ELIMIT, 16, 0, "CBL book of %lu bytes (more than %d)",
                        (unsigned long)raw, XQ_CBL_BOOK_MAX);
  unsigned char *out = malloc(raw ? raw : 1);
  if (!out) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  uLongf got = raw;
  int zrc = uncompress(out, &got, b + BOOK_HEADER, (uLong)(*len - BOOK_HEADER));
  if (zrc != Z_OK || got != raw) {
    free(out);
    return xq_error_set(err, XQ_ENOTATION, BOOK_HEADER, 0, "CBL book does not inflate (%s)",
                        zrc == Z_OK ? "short" : zError(zrc));
  }
  free(*data);
  *data = (char *)out;
  *len = got;
  return XQ_OK;
}

/* A cursor over a book's bytes: little-endian numbers and strings of a
 * 32-bit length then GBK bytes. `bad` is set past the end. */
typedef struct cursor {
  const unsigned char *b;
  size_t len, at;
  int bad;
} cursor;

static uint32_t get_u32(cursor *c)
{
  if (c->bad || c->at + 4 > c->len) return c->bad = 1, 0;
  c->at += 4;
  return u32le(c->b + c->at - 4);
}

/* A string: *s and *n point at its bytes (NULL, 0 when bad). */
static void get_str(cursor *c, const char **s, size_t *n)
{
  uint32_t k = get_u32(c);
  *s = NULL;
  *n = 0;
  if (c->bad || k > c->len - c->at) {
    c->bad = 1;
    return;
  }
  *s = (const char *)c->b + c->at;
  *n = k;
  c->at += k;
}

/* GBK text s[0..n) in UTF-8 with "||" made a line break, into a new
 * buffer (*out, *m; NULL when empty or out of memory). */
static void gbk_text(void **cd, const char *s, size_t n, char **out, size_t *m)
{
  *out = NULL;
  *m = 0;
  if (!n) return;
  char *u = malloc(n * 3 + 1);
  int k = u ? xq__text_to_utf8(cd, s, n, u, n * 3 + 1) : -1;
  for (int i = 0; i < k; i++) {
    if (u[i] == '|' && i + 1 < k && u[i + 1] == '|') u[(*m)++] = '\n', i++;
    else u[(*m)++] = u[i];
  }
  *out = u;
}

/* GBK text s[0..n) as tag `tag` (cut to fit). */
static void book_tag(xq_record *rec, void **cd, const char *tag, const char *s, size_t n)
{
  char v[XQ_REC_TAG_VALUE_MAX];
  if (n > XQ_REC_TAG_VALUE_MAX / 3 - 1) n = XQ_REC_TAG_VALUE_MAX / 3 - 1;
  if (n && xq__text_to_utf8(cd, s, n, v, sizeof v) > 0) xq_record_set_tag(rec, tag, v);
}

/* The header of a book game after its piece table: its strings as tags
 * (the book's title standing for an empty event) and the result; its
 * comment into *comment, *cn; c->at is left on the move count. */
static void book_header(cursor *c, xq_record *rec, void **cd, const char *book, size_t bn,
                        const char **comment, size_t *cn)
{
  /* title, two blanks, site, date, red, black; the result; annotator,
   * a blank, creator, a blank; the game's comment */
  static const char *const tags[11] = {"Title", NULL,        NULL, "Site",    "Date", "Red",
                                       "Black", "Annotator", NULL, "Creator", NULL};
  const char *s[11], *ev;
  size_t n[11], evn;
  get_u32(c); /* the kind: 1 full game, 2 opening, 3 middle game, 4 ending */
  get_str(c, &ev, &evn);
  get_u32(c);
  for (int i = 0; i < 7; i++) get_str(c, &s[i], &n[i]);
  uint32_t result = get_u32(c);
  for (int i = 7; i < 11; i++) get_str(c, &s[i], &n[i]);
  get_str(c, comment, cn);
  c->at += 1 + 38; /* a flag byte, then the creation and change dates */
  if (c->at > c->len) c->bad = 1;
  if (c->bad) return;
  for (int i = 0; i < 11; i++)
    if (tags[i]) book_tag(rec, cd, tags[i], s[i], n[i]);
  book_tag(rec, cd, "Event", evn ? ev : book, evn ? evn : bn);
  static const xq_result results[4] = {XQ_RESULT_UNKNOWN, XQ_RESULT_RED_WINS,
                                       XQ_RESULT_BLACK_WINS, XQ_RESULT_DRAW};
  rec->result = result <= 3 ? results[result] : XQ_RESULT_UNKNOWN;
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
}

/* The pre-order flags of book moves numbered by ply: a move has a
 * continuation when the next one is a ply further, and a sibling when the
 * next move not deeper than it is of its own ply (a variation restarts
 * at the ply it replaces). Returns XQ_OK, or XQ_ENOTATION when the
 * numbers do not make a tree. */
static int book_flags(const int *ply, int n, unsigned char *next, unsigned char *var, int *stack)
{
  int top = 0;
  for (int i = n - 1; i >= 0; i--) {
    if (ply[i] < 1 || (i == 0 && ply[i] != 1) || (i + 1 < n && ply[i + 1] > ply[i] + 1))
      return XQ_ENOTATION;
    next[i] = i + 1 < n && ply[i + 1] == ply[i] + 1;
    while (top && ply[stack[top - 1]] > ply[i]) top--;
    var[i] = top && ply[stack[top - 1]] == ply[i];
    stack[top++] = i;
  }
  return XQ_OK;
}

/* The moves of a book game from c (count, 6-byte records: ply, from,
 * to, two bytes of no use here), then one comment line each ("\r\n"
 * ended, GBK), into the record whose start is set. */
static int book_moves(cursor *c, xq_record *rec, void **cd, const char *comment, size_t cn,
                      xq_error *err)
{
  uint32_t n = get_u32(c);
  if (c->bad || n > (c->len - c->at) / 6)
    return xq_error_set(err, XQ_ENOTATION, (int)c->at, 0, "CBL game truncated in its moves");
  int *ply = malloc(sizeof(int) * 2 * (n + 1));
  unsigned char *flags = malloc(2 * (size_t)n + 2);
  if (!ply || !flags) {
    free(ply);
    free(flags);
    return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  }
  const unsigned char *mv = c->b + c->at;
  for (uint32_t i = 0; i < n; i++) ply[i] = mv[6 * i] | mv[6 * i + 1] << 8;
  int rc = book_flags(ply, (int)n, flags, flags + n, ply + n + 1);
  if (rc != XQ_OK) rc = xq_error_set(err, rc, (int)c->at, 0, "CBL move numbers make no tree");
  c->at += 6 * (size_t)n;
  xq__tree t;
  xq__tree_start(&t, rec, n > 0);
  char *u;
  size_t m;
  gbk_text(cd, comment, cn, &u, &m);
  if (rc == XQ_OK && m) rc = xq__tree_comment(&t, u, m);
  free(u);
  for (uint32_t i = 0; rc == XQ_OK && xq__tree_next(&t); i++) {
    int f = mv[6 * i + 2], to = mv[6 * i + 3];
    if ((f >> 4) > 8 || (f & 15) > 9 || (to >> 4) > 8 || (to & 15) > 9) {
      rc = xq_error_set(err, XQ_ENOTATION, -1, t.plies, "CBL move record is not a pair of squares");
      break;
    }
    xq_move m2 = XQ_MOVE(XQ_SQ(f >> 4, 9 - (f & 15)), XQ_SQ(to >> 4, 9 - (to & 15)));
    rc = xq__tree_move(&t, m2, flags[i], flags[n + i], -1, err);
    /* the move's comment: the next line of the text after the moves */
    const unsigned char *e = c->at < c->len ? memchr(c->b + c->at, '\n', c->len - c->at) : NULL;
    size_t ln = e ? (size_t)(e - (c->b + c->at)) : c->len - c->at;
    gbk_text(cd, (const char *)c->b + c->at, ln && c->b[c->at + ln - 1] == '\r' ? ln - 1 : ln, &u,
             &m);
    c->at += e ? ln + 1 : ln;
    if (rc == XQ_OK && m) rc = xq__tree_comment(&t, u, m);
    free(u);
  }
  if (rc == XQ_ENOMEM) xq_error_set(err, rc, -1, 0, "out of memory");
  xq__tree_end(&t);
  free(ply);
  free(flags);
  return rc;
}

/* One book game in c (its length word read): piece table, header, moves. */
static int book_game(cursor *c, xq_record *rec, void **cd, const char *book, size_t bn,
                     xq_error *err)
{
  int sq[32];
  if (c->at + 32 > c->len)
    return xq_error_set(err, XQ_ENOTATION, (int)c->at, 0, "CBL game truncated in its pieces");
  /* (file + 1) << 4 | (row from the top + 1), Red first; 0 = off the board */
  for (int i = 0; i < 32; i++) {
    int v = c->b[c->at + i], f = (v >> 4) - 1, r = (v & 15) - 1;
    sq[i] = !v ? -1 : f >= 0 && f < 9 && r >= 0 && r < 10 ? XQ_SQ(f, 9 - r) : XQ_SQUARES;
  }
  c->at += 32;
  const char *comment;
  size_t cn;
  book_header(c, rec, cd, book, bn, &comment, &cn);
  if (c->bad || c->at + 4 > c->len)
    return xq_error_set(err, XQ_ENOTATION, (int)c->at, 0, "CBL game truncated in its header");
  /* the side to move: the colour of the first moved piece */
  int side = XQ__SIDE_EITHER;
  if (u32le(c->b + c->at) > 0 && c->at + 10 <= c->len) {
    int f = c->b[c->at + 6], from = XQ_SQ((f >> 4) % 9, 9 - (f & 15) % 10);
    for (int i = 0; i < 32; i++)
      if (sq[i] == from) side = i < 16 ? XQ_RED : XQ_BLACK;
  }
  xq_error why;
  if (xq__text_pos_from_slots(sq, side, &rec->start, &why) != XQ_OK)
    return xq_error_set(err, XQ_EFEN, -1, 0, "bad CBL start position: %s", why.msg);
  rec->end = rec->start;
  return book_moves(c, rec, cd, comment, cn, err);
}

/* The title of a book (its first string) and where its first game is. */
static size_t book_start(const unsigned char *b, size_t len, const char **title, size_t *tn)
{
  cursor c = {b, len, 0, 0};
  const char *s;
  size_t n;
  get_str(&c, title, tn);
  for (int i = 0; i < 4; i++) get_str(&c, &s, &n);
  c.at += 38; /* creation and change dates */
  if (c.at > c.len) c.bad = 1;
  get_u32(&c); /* the count of games */
  get_str(&c, &s, &n); /* the description */
  return c.bad ? len : c.at;
}

/* The next CBR record of a CBL library from *at (records start with their
 * magic; one ends where the next begins). */
static int library_next(const unsigned char *b, size_t len, size_t *at, xq_record *rec,
                        xq_error *err)
{
  if (*at < 16) *at = 16;
  const unsigned char *p = *at < len ? memmem(b + *at, len - *at, cbr_magic, 16) : NULL;
  if (!p) {
    *at = len;
    return 0;
  }
  size_t start = (size_t)(p - b);
  const unsigned char *q = memmem(p + 16, len - start - 16, cbr_magic, 16);
  size_t end = q ? (size_t)(q - b) : len;
  *at = end;
  int rc = xq__ccbridge_cbr_read(p, end - start, rec, err);
  if (rc != XQ_OK) return rc;
  if (!xq_record_tag(rec, "Event") && len >= 64 + 512) {
    char v[XQ_REC_TAG_VALUE_MAX];
    utf16_text(b, 64, 512, v);
    if (v[0]) xq_record_set_tag(rec, "Event", v);
  }
  return 1;
}

int xq__ccbridge_cbl_next(const unsigned char *b, size_t len, size_t *at, xq_record *rec, xq_error *err)
{
  xq_record_reset(rec);
  if (len >= 16 && !memcmp(b, lib_magic, 16)) return library_next(b, len, at, rec, err);
  const char *title;
  size_t tn;
  size_t first = book_start(b, len, &title, &tn);
  if (*at < first) *at = first;
  if (*at + 4 > len) {
    *at = len;
    return 0;
  }
  size_t glen = u32le(b + *at);
  if (glen < 4 || glen > len - *at) {
    *at = len;
    return xq_error_set(err, XQ_ENOTATION, (int)*at, 0, "CBL game truncated");
  }
  cursor c = {b + *at + 4, glen - 4, 0, 0};
  *at += glen;
  void *cd = (void *)-1;
  int rc = book_game(&c, rec, &cd, title, tn, err);
  xq__text_gbk_close(&cd);
  if (rc != XQ_OK) return rc;
  xq_record_pack(rec);
  return 1;
}
