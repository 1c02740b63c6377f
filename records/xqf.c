/*
 * xqf.c -- the XQF reader (象棋演播室 binary, docs/records.md, "XQF"): a 1024-byte
 * header, then 4-byte move records in pre-order (node, its continuation,
 * then its sibling), each followed by its comment. From version 11 the
 * piece table and the records are encrypted with keys taken from the
 * header; from version 12 the piece table is also permuted.
 */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

#define HEADER_LEN 1024

/* The 32-byte text the body key stream is made from (docs/records.md, "XQF"). */
static const char key_text[33] = "[(C) Copyright Mr. Dong Shiwei.]";

typedef struct keys {
  unsigned piece, src, dst; /* offsets subtracted mod 256 */
  long comment;             /* subtracted from comment lengths (>= 11) */
  unsigned char stream[32];
} keys;

/* F(b) = 54 b^2 + 221 (mod 256), the key-mixing square. */
static unsigned square_mix(unsigned b)
{
  return (54u * b * b + 221u) & 0xFF;
}

static void make_keys(const unsigned char *h, int version, keys *k)
{
  memset(k, 0, sizeof *k);
  if (version < 11) return;
  unsigned sum = h[12], xy = h[13], xyf = h[14], xyt = h[15];
  k->piece = (square_mix(xy) * xy) & 0xFF;
  k->src = (square_mix(xyf) * k->piece) & 0xFF;
  k->dst = (square_mix(xyt) * k->src) & 0xFF;
  k->comment = (long)((sum * 256 + xy) % 32000 + 767);
  unsigned char key[4];
  for (int i = 0; i < 4; i++) key[i] = (unsigned char)(h[8 + i] | (h[12 + i] & h[3]));
  for (int i = 0; i < 32; i++) k->stream[i] = (unsigned char)(key[i % 4] & key_text[i]);
}

/* The header's Pascal strings: offset of the length byte, size of the
 * field (length byte included), the tag it becomes. */
static const struct {
  int off, size;
  const char *name;
} fields[] = {{80, 64, "Title"},       {208, 64, "Event"},    {272, 16, "Date"},
              {288, 16, "Site"},       {304, 16, "Red"},      {320, 16, "Black"},
              {336, 64, "TimeControl"}, {400, 16, "RedTime"}, {416, 16, "BlackTime"},
              {464, 16, "Annotator"},  {480, 16, "Creator"}};

/* Length of GBK text s[0..n) without a lead byte its field cut from its
 * second byte. */
static int gbk_whole(const unsigned char *s, int n)
{
  int i = 0;
  while (i < n) i += s[i] >= 0x81 && s[i] <= 0xFE ? 2 : 1;
  return i > n ? n - 1 : n;
}

/* Header field i (Pascal string) into out (XQ_XQF_TEXT_MAX bytes, UTF-8).
 * A length byte that overruns the field (real files have them, mostly in
 * the Site field) is read to the field's end, with a warning on `rec`. */
static void header_text(void **cd, const unsigned char *h, int i, xq_record *rec, char *out)
{
  int off = fields[i].off, room = fields[i].size - 1, n = h[off];
  if (n > room) {
    xq__record_warn(rec, "XQF header: the %s string claims %d bytes, its field holds %d: cut there",
                 fields[i].name, n, room);
    n = gbk_whole(h + off + 1, room);
  }
  int k = xq__text_to_utf8(cd, (const char *)h + off + 1, (size_t)n, out, XQ_XQF_TEXT_MAX);
  if (k < 0) out[0] = '\0';
}

/* Reading state of the body. */
typedef struct body {
  unsigned char *b; /* decoded body */
  size_t len, at;
  int version;
  const keys *k;
} body;

static int get_u32(body *bd, uint32_t *v)
{
  if (bd->at + 4 > bd->len) return 0;
  const unsigned char *p = bd->b + bd->at;
  *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  bd->at += 4;
  return 1;
}

/* One record: its squares, tag bits and comment (left in *c / *clen,
 * pointing into the body). Returns XQ_OK or an error. */
typedef struct node {
  int from, to; /* XQF squares x*10+y after the offsets */
  int has_next, has_var;
  const char *comment;
  size_t clen;
} node;

static int read_node(body *bd, node *nd, int ply, xq_error *err)
{
  size_t at = bd->at;
  if (bd->at + 4 > bd->len)
    return xq_error_set(err, XQ_ENOTATION, (int)(HEADER_LEN + at), ply,
                        "XQF file truncated in the move record of ply %d", ply);
  const unsigned char *p = bd->b + bd->at;
  bd->at += 4;
  nd->from = (p[0] - 0x18 - (int)bd->k->src) & 0xFF;
  nd->to = (p[1] - 0x20 - (int)bd->k->dst) & 0xFF;
  unsigned tag = p[2];
  int has_comment;
  if (bd->version <= 10) {
    nd->has_next = (tag & 0xF0) != 0;
    nd->has_var = (tag & 0x0F) != 0;
    has_comment = 1; /* a length always follows */
  } else {
    nd->has_next = (tag & 0x80) != 0;
    nd->has_var = (tag & 0x40) != 0;
    has_comment = (tag & 0x20) != 0;
  }
  nd->comment = NULL;
  nd->clen = 0;
  if (has_comment) {
    uint32_t v;
    if (!get_u32(bd, &v))
      return xq_error_set(err, XQ_ENOTATION, (int)(HEADER_LEN + bd->at), ply,
                          "XQF file truncated in a comment length");
    long len = (long)(int32_t)v - (bd->version <= 10 ? 0 : bd->k->comment);
    if (len < 0 || len > XQ_REC_COMMENT_MAX)
      return xq_error_set(err, XQ_ENOTATION, (int)(HEADER_LEN + bd->at - 4), ply,
                          "XQF comment length %ld out of range", len);
    if (bd->at + (size_t)len > bd->len)
      return xq_error_set(err, XQ_ENOTATION, (int)(HEADER_LEN + bd->at), ply,
                          "XQF file truncated in a comment");
    nd->comment = (const char *)bd->b + bd->at;
    nd->clen = (size_t)len;
    bd->at += (size_t)len;
  }
  return XQ_OK;
}


/* The comment of `nd`, in UTF-8, onto the tree's last node (or its root).
 * Returns XQ_OK, XQ_ENOMEM or the converter's error. */
static int add_comment(xq__tree *t, void **cd, const node *nd)
{
  if (!nd->clen) return XQ_OK;
  /* room for the comment in UTF-8: a byte becomes at most 3 (U+FFFD for a
   * byte that is not text), and never more than XQ__XQF_COMMENT_UTF8_MAX */
  size_t cap = nd->clen < XQ__XQF_COMMENT_UTF8_MAX / 3 ? 3 * nd->clen + 1 : XQ__XQF_COMMENT_UTF8_MAX;
  char *buf = malloc(cap);
  if (!buf) return XQ_ENOMEM;
  int n = xq__text_to_utf8(cd, nd->comment, nd->clen, buf, cap);
  int rc = n <= 0 ? n : xq__tree_comment(t, buf, (size_t)n);
  free(buf);
  return rc;
}

/* Decode the move tree (records/tree.c builds the record from it). */
static int read_tree(body *bd, xq_record *rec, void **cd, int *cut, xq_error *err)
{
  xq__tree t;
  node nd;
  int rc;

  if ((rc = read_node(bd, &nd, 0, err)) != XQ_OK) return rc;
  xq__tree_start(&t, rec, nd.has_next);
  if ((rc = add_comment(&t, cd, &nd)) != XQ_OK) goto fail_comment;
  while (xq__tree_next(&t)) {
    if (t.plies == 1 && t.line == 0 && bd->len - bd->at < 4) {
      /* Diagram files whose root promises a first move they do not hold:
       * the position is kept without moves. */
      xq__record_warn(rec, "XQF root record promises a first move the file does not hold: "
                        "read as a position without moves");
      break;
    }
    if ((rc = read_node(bd, &nd, t.plies, err)) != XQ_OK) goto done;
    if (nd.from >= 90 || nd.to >= 90) {
      rc = xq_error_set(err, XQ_ENOTATION, (int)(HEADER_LEN + bd->at), t.plies,
                        "XQF move record %d-%d is not a pair of squares", nd.from, nd.to);
      goto done;
    }
    xq_move m = XQ_MOVE(XQ_SQ(nd.from / 10, nd.from % 10), XQ_SQ(nd.to / 10, nd.to % 10));
    rc = xq__tree_move(&t, m, nd.has_next, nd.has_var, (int)(HEADER_LEN + bd->at), err);
    if (rc != XQ_OK) goto done;
    if ((rc = add_comment(&t, cd, &nd)) != XQ_OK) goto fail_comment;
  }
  rc = XQ_OK;
  goto done;
fail_comment:
  rc = rc == XQ_ENOMEM ? xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory")
                       : xq_error_set(err, rc, (int)(HEADER_LEN + bd->at), t.plies,
                                      "a comment cannot be converted to UTF-8");
done:
  *cut = t.cut;
  xq__tree_end(&t);
  return rc;
}

/* Check the header of buf[0..len): signature, size and version. Returns
 * the version, or XQ_ENOTATION or XQ_ELIMIT with `err`. */
static int check_header(const unsigned char *buf, size_t len, xq_error *err)
{
  if (len < 2 || buf[0] != 'X' || buf[1] != 'Q')
    return xq_error_set(err, XQ_ENOTATION, 0, 0, "not an XQF file (no \"XQ\" signature)");
  if (len < HEADER_LEN)
    return xq_error_set(err, XQ_ENOTATION, (int)len, 0,
                        "XQF file truncated: %zu bytes, the header alone has %d", len,
                        HEADER_LEN);
  if (len > XQ_XQF_FILE_MAX)
    return xq_error_set(err, XQ_ELIMIT, -1, 0, "XQF file larger than %d bytes", XQ_XQF_FILE_MAX);
  int version = buf[2];
  if (version < 1 || version > XQ__XQF_VERSION_MAX)
    return xq_error_set(err, XQ_ENOTATION, 2, 0, "unknown XQF version %d", version);
  return version;
}

/* The header fields of a checked header into *hdr (strings in UTF-8),
 * warnings on `rec`. */
static void read_header(const unsigned char *buf, int version, void **cd, xq_xqf_header *hdr,
                        xq_record *rec)
{
  char *const out[] = {hdr->title, hdr->event,      hdr->date,       hdr->site,
                       hdr->red,   hdr->black,      hdr->time_rule,  hdr->red_time,
                       hdr->black_time, hdr->annotator, hdr->author};
  hdr->version = version;
  hdr->result = buf[51];
  hdr->type = buf[64];
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    header_text(cd, buf, (int)i, rec, out[i]);
}

/* The squares of the 32 pieces in slot order (engine squares, -1 off the
 * board), decoded from the header's piece table. */
static void piece_squares(const unsigned char *buf, int version, const keys *k, int sq[32])
{
  /* x*10 + y; 90 and above = off the board */
  for (int i = 0; i < 32; i++) {
    int raw = (buf[16 + i] - (int)k->piece) & 0xFF;
    int slot = version >= 12 ? (int)((k->piece + 1 + (unsigned)i) % 32) : i;
    sq[slot] = raw;
  }
  for (int i = 0; i < 32; i++) sq[i] = sq[i] >= 90 ? -1 : XQ_SQ(sq[i] / 10, sq[i] % 10);
}

/* The side to move, which XQF does not store: the colour of the first
 * moved piece (docs/records.md, "XQF"); XQ__SIDE_EITHER when there is no move. */
static int first_mover(const body *bd, const int sq[32])
{
  int side = XQ__SIDE_EITHER;
  if (bd->len < 8) return side;
  size_t first = 4;
  if (bd->version <= 10 || (bd->b[2] & 0x20)) {
    uint32_t v = (uint32_t)bd->b[4] | (uint32_t)bd->b[5] << 8 | (uint32_t)bd->b[6] << 16 |
                 (uint32_t)bd->b[7] << 24;
    long clen = (long)(int32_t)v - (bd->version <= 10 ? 0 : bd->k->comment);
    first = clen >= 0 && clen <= XQ_REC_COMMENT_MAX ? 8 + (size_t)clen : bd->len;
  }
  if (first + 4 <= bd->len) {
    int from = (bd->b[first] - 0x18 - (int)bd->k->src) & 0xFF;
    if (from < 90) {
      int s = XQ_SQ(from / 10, from % 10);
      side = XQ_RED;
      for (int i = 16; i < 32; i++)
        if (sq[i] == s) side = XQ_BLACK;
    }
  }
  return side;
}

/* The result and the tags of `rec` from the header fields. */
static void set_tags(xq_record *rec, const xq_xqf_header *hdr)
{
  static const xq_result results[5] = {XQ_RESULT_UNKNOWN, XQ_RESULT_RED_WINS,
                                       XQ_RESULT_BLACK_WINS, XQ_RESULT_DRAW, XQ_RESULT_DRAW};
  rec->result = hdr->result <= 4 ? results[hdr->result] : XQ_RESULT_UNKNOWN;
  struct { const char *name; const char *value; } tags[] = {
    {"Title", hdr->title},        {"Event", hdr->event[0] ? hdr->event : hdr->title},
    {"Date", hdr->date},          {"Site", hdr->site},
    {"Red", hdr->red},            {"Black", hdr->black},
    {"TimeControl", hdr->time_rule}, {"RedTime", hdr->red_time},
    {"BlackTime", hdr->black_time},  {"Annotator", hdr->annotator},
    {"Creator", hdr->author}};
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
    if (tags[i].value[0]) xq_record_set_tag(rec, tags[i].name, tags[i].value);
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
}

int xq_xqf_read(const unsigned char *buf, size_t len, xq_record *rec, xq_xqf_header *hdr,
                xq_error *err)
{
  xq_xqf_header local;
  void *cd = (void *)-1;
  keys k;
  int rc;

  if (!buf || !rec) return xq_error_set(err, XQ_EINVAL, -1, 0, "NULL argument");
  xq_record_reset(rec);
  if (!hdr) hdr = &local;
  memset(hdr, 0, sizeof *hdr);
  int version = check_header(buf, len, err);
  if (version < 0) return version;
  make_keys(buf, version, &k);
  read_header(buf, version, &cd, hdr, rec);
  int sq[32];
  piece_squares(buf, version, &k, sq);

  /* The body, decoded once: the key stream runs on across records. */
  body bd = {NULL, len - HEADER_LEN, 0, version, &k};
  bd.b = malloc(bd.len ? bd.len : 1);
  if (!bd.b) {
    xq__text_gbk_close(&cd);
    return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  }
  for (size_t i = 0; i < bd.len; i++)
    bd.b[i] = version >= 11 ? (unsigned char)(buf[HEADER_LEN + i] - k.stream[i % 32])
                            : buf[HEADER_LEN + i];

  /* Start position: the piece table, whatever the type. Types 0 and 1
   * (full game, opening) mostly hold the standard position there, but real
   * files store compositions under type 0 too; a type 0 or 1 table that is
   * no position at all stands for the standard start. */
  xq_pos start;
  rc = xq__text_pos_from_slots(sq, first_mover(&bd, sq), &start, err);
  if (rc != XQ_OK && hdr->type < 2) {
    start = *xq__record_startpos();
    rc = XQ_OK;
  }
  if (rc != XQ_OK) {
    if (err) {
      err->code = XQ_EFEN;
      err->pos = 16;
      err->ply = 0;
      xq__text_error_prefix(err, "bad XQF start position: ");
    }
    goto out;
  }
  rec->start = start;
  rec->end = start;

  rc = read_tree(&bd, rec, &cd, &hdr->cut_variations, err);
  if (rc != XQ_OK) goto out;
  xq_record_pack(rec);
  set_tags(rec, hdr);
  rc = XQ_OK;
out:
  free(bd.b);
  xq__text_gbk_close(&cd);
  return rc;
}
