/*
 * pgn.c -- the streaming XQ-PGN reader (docs/records.md, "PGN reading"): one game at a
 * time from a FILE, in bounded memory, whatever the size of the file.
 *
 * Lines are read into a buffer that grows with the longest line up to
 * XQ_PGN_LINE_MAX (a small file costs a few KiB, not the worst case) and
 * turned into UTF-8 one by one (a line that is not UTF-8 is GB18030). A
 * game is its tag lines, then movetext up to the result token, or up to
 * the next tag line or the end of the input. A bad game is skipped up to the next tag
 * line that starts a game, so one bad record never hides the next one.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "records_internal.h"

/* One line of play being read: the main line (0) or a variation. */
typedef struct line_ctx {
  int line;    /* record line number */
  int n;       /* moves read on it */
  xq_pos pos;  /* position after them */
  xq_pos prev; /* position before the last of them */
} line_ctx;

struct xq_pgn_reader {
  FILE *in;
  int flags;
  int eof, ioerr;
  int skip_lf;         /* the last line ended in CR: a following LF is part of it */
  int bom_checked;
  long long offset;    /* bytes consumed */
  long lineno;         /* number of the line in line[] */
  long games;          /* games started */
  int have;            /* line[] holds a line not yet consumed */
  int trailer;         /* after a result: ignore text up to the next tag line */
  int too_long;        /* line[] was cut at XQ_PGN_LINE_MAX */
  int nomem;           /* a buffer could not grow: the input ends as on a read error */
  size_t len, cur;     /* length of line[] and the read cursor in it */
  xq__decoder dec;     /* GBK / BIG5 to UTF-8 */
  long doubt_line;     /* the first line read both as UTF-8 and as GBK since the last game's warning, 0 none */
  size_t bpos, blen;
  /* The buffers are allocated when first needed and grow with what the
   * input holds, each up to its named limit: buf XQ_PGN_CHUNK, raw
   * XQ_PGN_LINE_MAX + 1, line XQ__PGN_LINE_CAP_MAX, comment XQ_REC_COMMENT_MAX + 1. */
  char *buf;
  char *raw, *line, *comment;
  size_t raw_cap, line_cap, comment_cap;
  line_ctx ctx[XQ_REC_VAR_DEPTH_MAX + 1];
};

#define BUF_CAP_MIN 256 /* first size of a growing buffer */

/* Per-game reading state. */
typedef struct game_state {
  xq_notation notation; /* from [Format]; other notations are tried too */
  int have_format;
  int ranks_from_1;     /* [Variant "xiangqi"]: ICCS ranks 1-10 */
  int depth;            /* open variations */
  int cut_depth;        /* > 0: the variation at this depth was cut before a
                           move that does not read; it and those it holds
                           are skipped up to its ')' */
  int in_comment;
  long comment_line;    /* where the open comment or variation started */
  long var_line;
  size_t clen;
  int comment_line_no;  /* record line the comment belongs to */
  int comment_after;
  xq_result token_result;
  int have_result_token;
  int dropped;          /* comments left out past the record's limits */
  int san;              /* moves read as SAN (WinBoard, pychess) in this game */
  int san_base;         /* SAN ranks counted from 0 or 1; -1 not known yet */
} game_state;

int xq_pgn_open(xq_pgn_reader **out, FILE *in, int flags)
{
  if (!out || !in) return XQ_EINVAL;
  xq_pgn_reader *r = calloc(1, sizeof *r);
  if (!r) return XQ_ENOMEM;
  r->in = in;
  r->flags = flags;
  xq__text_decoder_init(&r->dec);
  *out = r;
  return XQ_OK;
}

void xq_pgn_close(xq_pgn_reader *r)
{
  if (!r) return;
  xq__text_decoder_close(&r->dec);
  free(r->buf);
  free(r->raw);
  free(r->line);
  free(r->comment);
  free(r);
}

void xq__pgn_legacy(xq_pgn_reader *r)
{
  r->dec.legacy = 1;
}

long long xq_pgn_offset(const xq_pgn_reader *r)
{
  return r ? r->offset : 0;
}

/* ---- lines -------------------------------------------------------- */

/* Make *p (holding *cap bytes) hold at least `need` bytes, doubling, at
 * most `max` (need <= max). Returns 1, or 0 when out of memory (*p is
 * kept). */
static int reserve(char **p, size_t *cap, size_t need, size_t max)
{
  if (need <= *cap) return 1;
  size_t c = *cap ? *cap : BUF_CAP_MIN;
  while (c < need) c *= 2;
  if (c > max) c = max;
  char *q = realloc(*p, c);
  if (!q) return 0;
  *p = q;
  *cap = c;
  return 1;
}

static int fill(xq_pgn_reader *r)
{
  if (r->eof) return 0;
  if (!r->buf && !(r->buf = malloc(XQ_PGN_CHUNK))) {
    r->ioerr = r->nomem = r->eof = 1;
    return 0;
  }
  r->blen = fread(r->buf, 1, XQ_PGN_CHUNK, r->in);
  r->bpos = 0;
  if (r->blen == 0) {
    if (ferror(r->in)) r->ioerr = 1;
    r->eof = 1;
    return 0;
  }
  return 1;
}

/* Read the next line into line[] (UTF-8, no line end). Returns 1, 0 at the
 * end of the input, or XQ_EIO. A line longer than XQ_PGN_LINE_MAX is cut
 * there and flagged too_long; the rest of it is skipped. */
static int read_line(xq_pgn_reader *r)
{
  size_t n = 0;
  int got = 0, hi = 0;

  r->too_long = 0;
  if (!reserve(&r->raw, &r->raw_cap, 1, XQ_PGN_LINE_MAX + 1)) {
    r->ioerr = r->nomem = 1;
    return XQ_EIO;
  }
  for (;;) {
    if (r->bpos == r->blen && !fill(r)) break;
    unsigned char c = (unsigned char)r->buf[r->bpos++];
    r->offset++;
    if (r->skip_lf) {
      r->skip_lf = 0;
      if (c == '\n') continue;
    }
    got = 1;
    if (c == '\n') break;
    if (c == '\r') {
      r->skip_lf = 1;
      break;
    }
    if (n < XQ_PGN_LINE_MAX) {
      if (n == r->raw_cap && !reserve(&r->raw, &r->raw_cap, n + 1, XQ_PGN_LINE_MAX + 1)) {
        r->ioerr = r->nomem = 1;
        break;
      }
      r->raw[n++] = (char)c;
      hi |= c & 0x80;
    } else {
      r->too_long = 1;
    }
  }
  if (r->ioerr) return XQ_EIO;
  if (!got) return 0;
  r->lineno++;
  size_t b = 0;
  if (!r->bom_checked) {
    r->bom_checked = 1;
    if (n >= 3 && !memcmp(r->raw, "\xEF\xBB\xBF", 3)) b = 3;
  }
  /* Room for the line in UTF-8: a byte becomes at most 3 (U+FFFD for a
   * byte that is not text), capped as the fixed line buffer used to be. */
  size_t cap = hi && (n - b) < XQ__PGN_LINE_CAP_MAX / 3 ? 3 * (n - b) + 1 : hi ? XQ__PGN_LINE_CAP_MAX : n - b + 1;
  if (!reserve(&r->line, &r->line_cap, cap, XQ__PGN_LINE_CAP_MAX)) {
    r->ioerr = r->nomem = 1;
    return XQ_EIO;
  }
  if (hi) {
    long doubt = r->dec.doubt;
    int k = xq__text_decode(&r->dec, r->raw + b, n - b, r->line, cap);
    if (r->dec.doubt > doubt && !r->doubt_line) r->doubt_line = r->lineno;
    if (k < 0) k = 0; /* a line of GB18030 or BIG5 has room; bytes that are no text may not */
    r->len = (size_t)k;
  } else {
    memcpy(r->line, r->raw + b, n - b);
    r->len = n - b;
    r->line[r->len] = '\0';
  }
  r->cur = 0;
  return 1;
}

/* Make sure line[] holds an unconsumed line. Returns as read_line. */
static int need_line(xq_pgn_reader *r)
{
  if (r->have) return 1;
  int rc = read_line(r);
  if (rc == 1) r->have = 1;
  return rc;
}

static int is_blank(int c)
{
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* Offset of the first non-blank byte of line[] from `i` (U+3000, the
 * ideographic space, counts as blank). */
static size_t skip_blanks(const xq_pgn_reader *r, size_t i)
{
  for (;;) {
    if (i < r->len && is_blank((unsigned char)r->line[i])) {
      i++;
    } else if (i + 2 < r->len && (unsigned char)r->line[i] == 0xE3 &&
               (unsigned char)r->line[i + 1] == 0x80 && (unsigned char)r->line[i + 2] == 0x80) {
      i += 3;
    } else {
      return i;
    }
  }
}

/* True when the line starts (after blanks) with '['. */
static int tag_start(const xq_pgn_reader *r)
{
  size_t i = skip_blanks(r, 0);
  return i < r->len && r->line[i] == '[';
}

/* True when the line looks like a tag pair: [Name "... */
static int looks_like_tag(const xq_pgn_reader *r)
{
  size_t i = skip_blanks(r, 0);
  if (i >= r->len || r->line[i] != '[') return 0;
  i++;
  size_t s = i;
  while (i < r->len && (isalnum((unsigned char)r->line[i]) || r->line[i] == '_')) i++;
  if (i == s) return 0;
  while (i < r->len && is_blank((unsigned char)r->line[i])) i++;
  return i < r->len && r->line[i] == '"';
}

/* ---- errors and recovery ------------------------------------------ */

static int game_fail(xq_pgn_reader *r, const xq_record *rec, xq_error *err, int code, int ply,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int game_fail(xq_pgn_reader *r, const xq_record *rec, xq_error *err, int code, int ply,
                     const char *fmt, ...)
{
  if (err) {
    char prefix[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->code = code;
    err->pos = r->lineno > 0x7FFFFFFF ? 0x7FFFFFFF : (int)r->lineno;
    err->ply = ply;
    if (ply > 0)
      snprintf(prefix, sizeof prefix, "game %ld, line %ld, ply %d: ", rec->game, r->lineno, ply);
    else
      snprintf(prefix, sizeof prefix, "game %ld, line %ld: ", rec->game, r->lineno);
    xq__text_error_prefix(err, prefix);
  }
  return code;
}

/* Skip the rest of a bad game: its remaining tag lines (when the problem
 * was among the tags), then its movetext up to the next tag line, which
 * stays for the next call. With `drop`, the current line is the bad one
 * and goes too (after its braces are counted). Braces are followed so
 * that a tag-like line inside a comment is not taken for the next game. */
static int skip_game(xq_pgn_reader *r, int in_tags, int in_comment, int drop)
{
  int rc;

  if (drop && r->have) {
    /* a line cut at the length limit tells nothing reliable about braces */
    for (size_t k = r->cur; k < r->len && !r->too_long; k++) {
      if (!in_comment && r->line[k] == '{') in_comment = 1;
      else if (in_comment && r->line[k] == '}') in_comment = 0;
    }
    r->have = 0;
  }
  for (;;) {
    if ((rc = need_line(r)) <= 0) return rc;
    size_t i = skip_blanks(r, 0);
    int blank = i == r->len;
    if (in_tags) {
      if (!blank && r->line[i] == '[') {
        r->have = 0;
        continue;
      }
      in_tags = 0;
      if (blank) {
        r->have = 0;
        continue;
      }
    }
    if (!in_comment && !blank && r->line[i] == '[') return 1; /* the next game */
    for (size_t k = i; k < r->len; k++) {
      if (!in_comment && r->line[k] == '{') in_comment = 1;
      else if (in_comment && r->line[k] == '}') in_comment = 0;
    }
    r->have = 0;
  }
}

/* ---- tags ---------------------------------------------------------- */

/* Offset of the first `"` at or after line[i] followed by blanks and ']'
 * (the end of a tag value), *after past that ']'; r->len if none. */
static size_t quote_bracket(const xq_pgn_reader *r, size_t i, size_t *after)
{
  for (; i < r->len; i++) {
    if (r->line[i] != '"') continue;
    size_t k = i + 1;
    while (k < r->len && is_blank((unsigned char)r->line[k])) k++;
    if (k < r->len && r->line[k] == ']') {
      *after = k + 1;
      return i;
    }
  }
  return r->len;
}

/* Where the value of a tag that starts at line[i] (after its opening quote)
 * ends: *end at its closing quote, *after past the ']' that closes the
 * tag. Returns 0 for a well-formed value; 1 for one with stray quotes
 * ([Event ""Huangshan Cup" ..."]: the value runs to the `"]` that ends the
 * tag) or without its closing quote or ']' (to the line's last ']' or its
 * end). Cannot fail. */
static int tag_extent(const xq_pgn_reader *r, size_t i, size_t *end, size_t *after)
{
  size_t j = i;
  while (j < r->len && r->line[j] != '"') j += r->line[j] == '\\' && j + 1 < r->len ? 2 : 1;
  if (j < r->len && quote_bracket(r, j, after) == j) {
    *end = j;
    return 0;
  }
  if ((*end = quote_bracket(r, i, after)) < r->len) return 1;
  size_t e = r->len;
  while (e > i && r->line[e - 1] != ']') e--;
  *after = e > i ? e : r->len;
  e = e > i ? e - 1 : r->len;
  while (e > i && (is_blank((unsigned char)r->line[e - 1]) || r->line[e - 1] == '"')) e--;
  *end = e;
  return 1;
}

/* Parse the tag pairs of line[]. Returns XQ_OK, 1 when a tag name repeats
 * (the line starts the next game; nothing consumed), or an error. */
static int parse_tags(xq_pgn_reader *r, xq_record *rec, xq_error *err)
{
  size_t i = skip_blanks(r, 0);
  char name[XQ_REC_TAG_NAME_MAX];
  char value[XQ_REC_TAG_VALUE_MAX];
  int first = 1;

  while (i < r->len) {
    if (r->line[i] != '[')
      return game_fail(r, rec, err, XQ_ENOTATION, 0, "text after a tag pair: \"%.20s\"",
                       r->line + i);
    i++;
    while (i < r->len && is_blank((unsigned char)r->line[i])) i++;
    size_t s = i;
    while (i < r->len && (isalnum((unsigned char)r->line[i]) || r->line[i] == '_')) i++;
    if (i == s) return game_fail(r, rec, err, XQ_ENOTATION, 0, "malformed tag: no name");
    if (i - s >= sizeof name)
      return game_fail(r, rec, err, XQ_ELIMIT, 0, "tag name longer than %d bytes",
                       XQ_REC_TAG_NAME_MAX - 1);
    memcpy(name, r->line + s, i - s);
    name[i - s] = '\0';
    if (first && xq_record_tag(rec, name)) return 1;
    first = 0;
    while (i < r->len && is_blank((unsigned char)r->line[i])) i++;
    if (i >= r->len || r->line[i] != '"')
      return game_fail(r, rec, err, XQ_ENOTATION, 0, "malformed tag %s: no opening quote", name);
    size_t end, after;
    if (tag_extent(r, i + 1, &end, &after))
      xq__record_warn(rec,
                      "line %ld: tag %s has stray or missing quotes, read to the end of its line",
                      r->lineno, name);
    size_t n = 0;
    for (i++; i < end;) {
      char c = r->line[i++];
      if (c == '\\' && i < end && (r->line[i] == '"' || r->line[i] == '\\')) c = r->line[i++];
      if (n + 1 >= sizeof value)
        return game_fail(r, rec, err, XQ_ELIMIT, 0, "tag %s longer than %d bytes", name,
                         XQ_REC_TAG_VALUE_MAX - 1);
      value[n++] = c;
    }
    value[n] = '\0';
    i = skip_blanks(r, after);
    int rc = xq_record_set_tag(rec, name, value);
    if (rc == XQ_ELIMIT)
      return game_fail(r, rec, err, rc, 0, "more than %d tags", XQ_REC_TAGS_MAX);
  }
  return XQ_OK;
}

/* Apply the tags that change how the game is read: FEN, Format, Variant. */
static int apply_tags(xq_pgn_reader *r, xq_record *rec, game_state *gs, xq_error *err)
{
  const char *v;

  if ((v = xq_record_tag(rec, "FEN")) && *v) {
    xq_error e;
    xq_pos pos;
    if (xq_fen_parse(&pos, v, 0, &e) != XQ_OK)
      return game_fail(r, rec, err, XQ_EFEN, 0, "bad FEN tag: %s", e.msg);
    rec->start = pos;
  }
  if ((v = xq_record_tag(rec, "Format"))) {
    gs->have_format = 1;
    if (!strcasecmp(v, "WXF")) gs->notation = XQ_NOTE_WXF;
    else if (!strcasecmp(v, "ICCS")) gs->notation = XQ_NOTE_ICCS;
    else gs->have_format = 0;
  }
  if ((v = xq_record_tag(rec, "Variant")) && !strcasecmp(v, "xiangqi")) gs->ranks_from_1 = 1;
  if ((v = xq_record_tag(rec, "Result"))) rec->result = xq_result_parse(v);
  return XQ_OK;
}

/* ---- movetext ------------------------------------------------------ */

/* With ranks 1-10 (Fairy-Stockfish, lichess tools), rewrite an ICCS token
 * such as h3e3 or h10g8 to ranks 0-9 (README.md, "Move notations"). Other tokens stay. */
static void ranks_to_0(char *t)
{
  char out[XQ__PGN_TOKEN_MAX];
  size_t n = 0, i = 0;
  for (int half = 0; half < 2; half++) {
    if (!(t[i] >= 'a' && t[i] <= 'i') && !(t[i] >= 'A' && t[i] <= 'I')) return;
    out[n++] = t[i++];
    int rank;
    if (t[i] == '1' && t[i + 1] == '0') {
      rank = 10;
      i += 2;
    } else if (t[i] >= '1' && t[i] <= '9') {
      rank = t[i++] - '0';
    } else {
      return;
    }
    out[n++] = (char)('0' + rank - 1);
    if (half == 0 && t[i] == '-') out[n++] = t[i++];
  }
  if (t[i]) return;
  out[n] = '\0';
  memcpy(t, out, n + 1);
}

static int is_result(const char *t, xq_result *res)
{
  if (!strcmp(t, "*")) {
    *res = XQ_RESULT_UNKNOWN;
    return 1;
  }
  xq_result x = xq_result_parse(t);
  if (x == XQ_RESULT_UNKNOWN) return 0;
  *res = x;
  return 1;
}

/* Close the open comment: store it unless comments are dropped. */
static int end_comment(xq_pgn_reader *r, xq_record *rec, game_state *gs, xq_error *err)
{
  gs->in_comment = 0;
  if (r->flags & XQ_PGN_NO_COMMENTS) return XQ_OK;
  if (gs->comment_line_no < 0) return XQ_OK; /* inside a skipped variation */
  /* trim the blanks PGN writers put inside the braces */
  size_t b = 0, e = gs->clen;
  while (b < e && (is_blank((unsigned char)r->comment[b]) || r->comment[b] == '\n')) b++;
  while (e > b && (is_blank((unsigned char)r->comment[e - 1]) || r->comment[e - 1] == '\n')) e--;
  if (e == b) return XQ_OK;
  /* past the record's limits the comment is left out, with a warning */
  int rc = xq__text_add_comment_or_drop(rec, gs->comment_line_no, gs->comment_after, r->comment + b,
                                   e - b, &gs->dropped);
  if (rc != XQ_OK) return game_fail(r, rec, err, rc, 0, "out of memory for a comment");
  return XQ_OK;
}

static int comment_append(xq_pgn_reader *r, xq_record *rec, game_state *gs, const char *s,
                          size_t n, xq_error *err)
{
  if (gs->clen + n > XQ_REC_COMMENT_MAX)
    return game_fail(r, rec, err, XQ_ELIMIT, 0,
                     "comment opened on line %ld longer than %d bytes (unterminated?)",
                     gs->comment_line, XQ_REC_COMMENT_MAX);
  if (!reserve(&r->comment, &r->comment_cap, gs->clen + n + 1, XQ_REC_COMMENT_MAX + 1))
    return game_fail(r, rec, err, XQ_ENOMEM, 0, "out of memory for a comment");
  memcpy(r->comment + gs->clen, s, n);
  gs->clen += n;
  return XQ_OK;
}

static void begin_comment(xq_pgn_reader *r, game_state *gs)
{
  line_ctx *c = &r->ctx[(r->flags & XQ_PGN_VARIATIONS) ? gs->depth : 0];
  gs->in_comment = 1;
  gs->comment_line = r->lineno;
  gs->clen = 0;
  int skipped = (gs->depth > 0 && !(r->flags & XQ_PGN_VARIATIONS)) ||
                (gs->cut_depth && gs->depth >= gs->cut_depth);
  gs->comment_line_no = skipped ? -1 : c->line;
  gs->comment_after = c->n;
}

/* SAN (WinBoard's and pychess's xiangqi PGN) for a token the notations
 * did not read (rc, *m, *e: their result), or for every token of a game
 * already read as SAN: a token both read as two different legal moves is
 * ambiguous. Returns the token's result with *m / *e. */
static int san_token(game_state *gs, const xq_pos *pos, const char *t, int rc, xq_move *m,
                     xq_error *e)
{
  xq_move sm;
  xq_error se;
  int base = gs->san_base, src = xq__san_parse(pos, t, &base, &sm, &se);
  if (src == XQ_OK && rc == XQ_OK && sm != *m)
    return xq_error_set(e, XQ_EAMBIGUOUS, -1, -1, "'%.24s' is ambiguous: it is another legal "
                                                  "move as SAN", t);
  if (src == XQ_OK) {
    *m = sm;
    gs->san = 1;
    gs->san_base = base;
    return XQ_OK;
  }
  if (rc != XQ_OK && (gs->san || src != XQ_ENOTATION)) { /* a SAN game, or SAN text: its error */
    *e = se;
    return src;
  }
  return rc;
}

/* Resolve move text `t` on the current line of play and play it. */
static int play_token(xq_pgn_reader *r, xq_record *rec, game_state *gs, char *t, xq_error *err)
{
  int keep = (r->flags & XQ_PGN_VARIATIONS) != 0;
  if (gs->depth > 0 && !keep) return XQ_OK; /* inside a skipped variation */
  if (gs->cut_depth && gs->depth >= gs->cut_depth) return XQ_OK; /* after a cut */
  line_ctx *c = &r->ctx[keep ? gs->depth : 0];
  xq_move m = XQ_MOVE_NONE;
  xq_error e;
  int rc;

  /* annotation marks are not part of the move */
  size_t n = strlen(t);
  while (n > 0 && (t[n - 1] == '!' || t[n - 1] == '?')) t[--n] = '\0';
  if (n == 0) return XQ_OK;
  char orig[XQ__PGN_TOKEN_MAX + 1]; /* as written, for SAN: ranks_to_0 rewrites ICCS-looking text */
  memcpy(orig, t, n + 1);
  if (gs->ranks_from_1) ranks_to_0(t);
  /* Non-ASCII text can only be Chinese: going straight there spares the
   * ICCS and WXF parsers' error reports (the same result as parse_any).
   * Text that starts with a full-width ASCII character (Ｃ２＝５) may be
   * full-width WXF or ICCS, which the parsers read too. */
  int wide = 0;
  for (size_t i = 0; i < n && !wide; i++) wide = (unsigned char)t[i] >= 0x80;
  if (n >= 3 && (unsigned char)t[0] == 0xEF &&
      ((unsigned char)t[1] == 0xBC || (unsigned char)t[1] == 0xBD))
    wide = 0;
  if (wide) {
    rc = xq_move_parse(&c->pos, t, XQ_NOTE_CHINESE, &m, &e);
  } else if (gs->have_format) {
    rc = xq_move_parse(&c->pos, t, gs->notation, &m, &e);
    if (rc == XQ_ENOTATION) rc = xq_move_parse_any(&c->pos, t, &m, &e);
  } else {
    rc = xq_move_parse_any(&c->pos, t, &m, &e);
  }
  if (!wide && (rc != XQ_OK || gs->san)) rc = san_token(gs, &c->pos, orig, rc, &m, &e);
  if (rc != XQ_OK && gs->depth > 0 && rc != XQ_ENOMEM) {
    /* A kept variation that goes wrong is cut before the bad move and the
     * game is kept, as XQF's are. */
    gs->cut_depth = gs->depth;
    xq__record_warn(rec, "line %ld: variation cut before its move %d: %s", r->lineno, c->n + 1,
                    e.msg);
    return XQ_OK;
  }
  if (rc != XQ_OK) return game_fail(r, rec, err, rc, c->n + 1, "%s", e.msg);
  if (xq_record_add_line_move(rec, c->line, m) != XQ_OK) {
    if (gs->depth == 0)
      return game_fail(r, rec, err, XQ_ELIMIT, c->n + 1, "more than %d plies in the main line",
                       XQ_REC_PLIES_MAX);
    gs->cut_depth = gs->depth; /* the variation moves are full, as in XQF */
    xq__record_warn(rec, "line %ld: variation cut: more than %d variation moves", r->lineno,
                    XQ_REC_VAR_MOVES_MAX);
    return XQ_OK;
  }
  xq_undo u;
  c->prev = c->pos;
  xq_make(&c->pos, m, &u);
  c->n++;
  return XQ_OK;
}

static int open_variation(xq_pgn_reader *r, xq_record *rec, game_state *gs, xq_error *err)
{
  int keep = (r->flags & XQ_PGN_VARIATIONS) != 0;
  if (gs->depth >= XQ_REC_VAR_DEPTH_MAX)
    return game_fail(r, rec, err, XQ_ELIMIT, 0, "variations nested deeper than %d",
                     XQ_REC_VAR_DEPTH_MAX);
  if (gs->depth == 0) gs->var_line = r->lineno;
  if (keep && !(gs->cut_depth && gs->depth >= gs->cut_depth)) {
    line_ctx *p = &r->ctx[gs->depth];
    if (p->n == 0)
      return game_fail(r, rec, err, XQ_ENOTATION, 0, "variation before the first move");
    int line = xq_record_add_variation(rec, p->line, p->n - 1);
    if (line < 0) { /* past the limit the variation is left out, not the game */
      gs->cut_depth = ++gs->depth;
      xq__record_warn(rec, "line %ld: variation left out: more than %d variations", r->lineno,
                      XQ_REC_VARS_MAX);
      return XQ_OK;
    }
    line_ctx *c = &r->ctx[gs->depth + 1];
    c->line = line;
    c->n = 0;
    c->pos = p->prev;
    c->prev = p->prev;
  }
  gs->depth++;
  return XQ_OK;
}

/* The next line of movetext, once the current one is used up. Returns 1
 * to read on, 2 for a line with nothing to read (a PGN escape line), 0
 * when the movetext ends (the line that ends it, if any, stays for the
 * next game) or an error. */
static int movetext_line(xq_pgn_reader *r, xq_record *rec, game_state *gs, xq_error *err)
{
  r->have = 0;
  int rc = need_line(r);
  if (rc < 0) return game_fail(r, rec, err, XQ_EIO, 0, r->nomem ? "out of memory" : "read error");
  if (rc == 0) {
    if (gs->in_comment)
      return game_fail(r, rec, err, XQ_ENOTATION, 0, "comment opened on line %ld is never closed",
                       gs->comment_line);
    if (gs->depth)
      return game_fail(r, rec, err, XQ_ENOTATION, 0,
                       "variation opened on line %ld is never closed", gs->var_line);
    return 0;
  }
  if (r->too_long)
    return game_fail(r, rec, err, XQ_ELIMIT, 0, "line longer than %d bytes", XQ_PGN_LINE_MAX);
  if (gs->in_comment) {
    /* A tag pair inside an open comment means the comment was never
     * closed: the tag line belongs to the next game. */
    if (looks_like_tag(r))
      return game_fail(r, rec, err, XQ_ENOTATION, 0, "comment opened on line %ld is never closed",
                       gs->comment_line);
    if ((rc = comment_append(r, rec, gs, "\n", 1, err)) != XQ_OK) return rc;
  } else if (tag_start(r)) {
    if (gs->depth)
      return game_fail(r, rec, err, XQ_ENOTATION, 0,
                       "variation opened on line %ld is never closed", gs->var_line);
    return 0; /* next game */
  } else if (r->len && r->line[0] == '%') {
    r->cur = r->len; /* PGN escape line */
    return 2;
  }
  return 1;
}

/* Inside an open comment: its text up to '}' or the end of the line. */
static int movetext_comment(xq_pgn_reader *r, xq_record *rec, game_state *gs, xq_error *err)
{
  const char *s = r->line + r->cur;
  const char *e = memchr(s, '}', r->len - r->cur);
  size_t n = e ? (size_t)(e - s) : r->len - r->cur;
  int rc = comment_append(r, rec, gs, s, n, err);
  if (rc != XQ_OK) return rc;
  r->cur += n;
  if (!e) return XQ_OK;
  r->cur++;
  return end_comment(r, rec, gs, err);
}

/* The mark `c` at the cursor: comments, variations, annotation glyphs.
 * Returns 1 when it was one (and was read), 0 when a token starts here,
 * or an error for a character that has no place in movetext. */
static int movetext_mark(xq_pgn_reader *r, xq_record *rec, game_state *gs, char c, xq_error *err)
{
  int rc;
  switch (c) {
  case '{':
    r->cur++;
    begin_comment(r, gs);
    return 1;
  case ';': /* comment to the end of the line */
    begin_comment(r, gs);
    if ((rc = comment_append(r, rec, gs, r->line + r->cur + 1, r->len - r->cur - 1, err)))
      return rc;
    r->cur = r->len;
    return (rc = end_comment(r, rec, gs, err)) != XQ_OK ? rc : 1;
  case '(':
    r->cur++;
    return (rc = open_variation(r, rec, gs, err)) != XQ_OK ? rc : 1;
  case ')':
    r->cur++;
    if (gs->depth == 0) return game_fail(r, rec, err, XQ_ENOTATION, 0, "')' without '('");
    gs->depth--;
    if (gs->cut_depth > gs->depth) gs->cut_depth = 0;
    return 1;
  case '$': /* numeric annotation glyph */
    r->cur++;
    while (r->cur < r->len && isdigit((unsigned char)r->line[r->cur])) r->cur++;
    return 1;
  case '}':
  case '[':
  case ']':
    return game_fail(r, rec, err, XQ_ENOTATION, 0, "unexpected '%c'", c);
  case '\0':
    /* a NUL byte ends no token (strchr in movetext_token would match the
     * terminator and leave the cursor where it is: the reader would spin) */
    return game_fail(r, rec, err, XQ_ENOTATION, 0, "NUL byte in the moves");
  default:
    return 0;
  }
}

/* The token at the cursor, up to a blank or a delimiter: the result, a
 * move number or a move. Returns 1 when the movetext ends with it (the
 * result), 0 to read on, or an error. */
static int movetext_token(xq_pgn_reader *r, xq_record *rec, game_state *gs, xq_error *err)
{
  char tok[XQ__PGN_TOKEN_MAX + 1];
  size_t s = r->cur, n;
  while (r->cur < r->len && !is_blank((unsigned char)r->line[r->cur]) &&
         !strchr("{}()[];$", r->line[r->cur]) &&
         !(r->cur + 2 < r->len && (unsigned char)r->line[r->cur] == 0xE3 &&
           (unsigned char)r->line[r->cur + 1] == 0x80 &&
           (unsigned char)r->line[r->cur + 2] == 0x80))
    r->cur++;
  n = r->cur - s;
  if (n > XQ__PGN_TOKEN_MAX) {
    line_ctx *lc = &r->ctx[(r->flags & XQ_PGN_VARIATIONS) ? gs->depth : 0];
    return game_fail(r, rec, err, XQ_ENOTATION, lc->n + 1, "not a move: \"%.24s...\"",
                     r->line + s);
  }
  memcpy(tok, r->line + s, n);
  tok[n] = '\0';

  xq_result res;
  if (is_result(tok, &res)) {
    if (gs->depth)
      return game_fail(r, rec, err, XQ_ENOTATION, 0,
                       "result inside the variation opened on line %ld", gs->var_line);
    gs->token_result = res;
    gs->have_result_token = 1;
    r->cur = r->len;
    r->have = 0;
    r->trailer = 1; /* xqbase writes an advertisement after the result */
    return 1;
  }
  /* Move numbers: "12." "12..." and "12.炮二平五"; "33.4" is a WXF move. */
  char *t = tok;
  if (isdigit((unsigned char)t[0])) {
    size_t d = 0;
    while (isdigit((unsigned char)t[d])) d++;
    if (t[d] == '.') {
      size_t e = d;
      while (t[e] == '.') e++;
      if (!t[e]) return 0;
      if (!isdigit((unsigned char)t[e])) t += e;
    }
  }
  if (!strcmp(t, "...") || !strcmp(t, "\xE2\x80\xA6")) return 0;
  return play_token(r, rec, gs, t, err);
}

/* Read the movetext of the game. Returns XQ_OK at its end (the line that
 * ends it, if any, stays for the next game) or an error; gs->in_comment
 * and gs->depth then tell the recovery what was left open. */
static int movetext(xq_pgn_reader *r, xq_record *rec, game_state *gs, xq_error *err)
{
  int rc;

  for (;;) {
    if (!r->have || r->cur >= r->len) {
      rc = movetext_line(r, rec, gs, err);
      if (rc <= 0) return rc;
      if (rc == 2) continue;
    }
    if (gs->in_comment) {
      if ((rc = movetext_comment(r, rec, gs, err)) != XQ_OK) return rc;
      continue;
    }
    r->cur = skip_blanks(r, r->cur);
    if (r->cur >= r->len) continue;
    rc = movetext_mark(r, rec, gs, r->line[r->cur], err);
    if (rc < 0) return rc;
    if (rc > 0) continue;
    rc = movetext_token(r, rec, gs, err);
    if (rc < 0) return rc;
    if (rc > 0) return XQ_OK; /* the result ends the movetext */
  }
}

/* ---- games --------------------------------------------------------- */

int xq_pgn_next(xq_pgn_reader *r, xq_record *rec, xq_error *err)
{
  int rc;

  if (!r || !rec) return XQ_EINVAL;
  xq_record_reset(rec);

  /* Find the start of the next game. */
  for (;;) {
    if ((rc = need_line(r)) < 0)
      return xq_error_set(err, XQ_EIO, -1, 0, r->nomem ? "out of memory" : "read error");
    if (rc == 0) return 0;
    size_t i = skip_blanks(r, 0);
    if (i == r->len || r->line[i] == '%' || (r->trailer && !looks_like_tag(r))) {
      r->have = 0;
      continue;
    }
    break;
  }
  r->trailer = 0;
  rec->game = ++r->games;
  rec->line = r->lineno;

  game_state gs;
  memset(&gs, 0, sizeof gs);
  gs.notation = XQ_NOTE_CHINESE;
  gs.san_base = -1;

  /* Tag section: tag lines, then blank lines; a tag line after a blank
   * line, or one repeating a tag, starts the next game. */
  int saw_blank = 0, saw_tags = 0, eof = 0;
  for (;;) {
    if ((rc = need_line(r)) < 0)
      return xq_error_set(err, XQ_EIO, -1, 0, r->nomem ? "out of memory" : "read error");
    if (rc == 0) {
      eof = 1;
      break;
    }
    if (r->too_long) {
      rc = game_fail(r, rec, err, XQ_ELIMIT, 0, "line longer than %d bytes", XQ_PGN_LINE_MAX);
      skip_game(r, 1, 0, 1);
      return rc;
    }
    size_t i = skip_blanks(r, 0);
    if (i == r->len) {
      saw_blank = 1;
      r->have = 0;
      continue;
    }
    if (r->line[i] != '[') break;
    if (saw_blank && saw_tags) break;
    rc = parse_tags(r, rec, err);
    if (rc == 1) break;
    if (rc < 0) {
      skip_game(r, 1, 0, 1);
      return rc;
    }
    saw_tags = 1;
    r->have = 0;
  }

  if ((rc = apply_tags(r, rec, &gs, err)) != XQ_OK) {
    skip_game(r, 0, 0, 0); /* the pending line, if any, is not this game's tags */
    return rc;
  }
  r->ctx[0].line = 0;
  r->ctx[0].n = 0;
  r->ctx[0].pos = rec->start;
  r->ctx[0].prev = rec->start;

  /* The movetext, unless the input ended or the next game follows. */
  if (!eof && !tag_start(r)) {
    r->cur = 0;
    if ((rc = movetext(r, rec, &gs, err)) != XQ_OK) {
      if (rc == XQ_EIO) return rc;
      /* An unterminated comment or variation stopped at the next game's
       * tag line: that line is the next game, nothing to skip. */
      if (r->have && r->cur == 0 && tag_start(r) && (gs.in_comment || gs.depth)) return rc;
      skip_game(r, 0, gs.in_comment, 1);
      return rc;
    }
  }

  if (r->doubt_line) {
    xq__record_warn(rec, "line %ld reads both as UTF-8 and as GBK: read as %s", r->doubt_line,
                    r->dec.legacy ? "GBK, as the file's other text" : "UTF-8");
    r->doubt_line = 0;
  }
  rec->end = r->ctx[0].pos;
  if (gs.have_result_token && gs.token_result != XQ_RESULT_UNKNOWN) rec->result = gs.token_result;
  xq_record_pack(rec);
  return 1;
}
