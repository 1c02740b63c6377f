/*
 * games.c -- the games of a file of any record format, one at a time:
 * PGN streamed through the PGN reader, the other formats read whole (they
 * are small) and handed out game by game.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "records_internal.h"


struct xq_games {
  xq_rec_format fmt;
  FILE *f;
  int own;            /* f is ours to close */
  int flags;
  xq_pgn_reader *pgn;
  const struct whole_format *whole; /* the format of a file read whole */
  char *data;         /* its bytes (DhtmlXQ: text in UTF-8) */
  size_t len, at;
  long index;         /* games handed out */
  long lines;         /* line breaks in data[0..at) */
  int done;
  int doubt;          /* a text file read whole reads both as UTF-8 and as GBK: the first game says so */
  long long size;
};

/* Read all of `f` (at most `max` bytes) into a new buffer. */
static int slurp(FILE *f, size_t max, char **out, size_t *len, xq_error *err)
{
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  if (!b) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  for (;;) {
    if (n == cap) {
      if (cap > max) {
        free(b);
        return xq_error_set(err, XQ_ELIMIT, -1, 0, "file larger than %zu bytes", max);
      }
      char *nb = realloc(b, cap * 2);
      if (!nb) {
        free(b);
        return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
      }
      b = nb;
      cap *= 2;
    }
    size_t k = fread(b + n, 1, cap - n, f);
    n += k;
    if (k == 0) break;
  }
  if (ferror(f)) {
    free(b);
    return xq_error_set(err, XQ_EIO, -1, 0, "read error");
  }
  if (n > max) {
    free(b);
    return xq_error_set(err, XQ_ELIMIT, -1, 0, "file larger than %zu bytes", max);
  }
  *out = b;
  *len = n;
  return XQ_OK;
}

/* The format a file starting with b[0..n) says it is by its signature
 * (XQ_FMT_PGN: none). */
static xq_rec_format signature(const char *b, size_t n)
{
  if (n >= 3 && b[0] == 'X' && b[1] == 'Q' && (unsigned char)b[2] < 0x20)
    return XQ_FMT_XQF; /* "XQ" and a version byte, not text ("XQF tools") */
  static const struct { const char *magic; size_t len; xq_rec_format fmt; } sigs[] = {
    {"CCBridge Record", 16, XQ_FMT_CBR},    /* the NUL included */
    {"CCBridgeLibrary", 16, XQ_FMT_CBL},
    {"CCBridge\x15\0\0", 11, XQ_FMT_CBL}, /* an older book, version 21 */
  };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (n >= sigs[i].len && !memcmp(b, sigs[i].magic, sigs[i].len)) return sigs[i].fmt;
  size_t head = n < 1024 ? n : 1024;
  if (memmem(b, head, "<ChineseChessRecord", 19)) return XQ_FMT_CBF;
  if (memmem(b, head, "<n version", 10) || memmem(b, head, "[pfchessrecord]", 15))
    return XQ_FMT_PFC;
  if (xq__sitegames_mxq_sniff(b, n)) return XQ_FMT_MXQ;
  if (xq__sitegames_che_sniff(b, n)) return XQ_FMT_CHE;
  return XQ_FMT_PGN;
}

/* The format of the file `f` (read from its start): by its signature,
 * DhtmlXQ when a block starts anywhere in its first XQ_DHTMLXQ_INPUT_MAX
 * bytes (pages carry them after long scripts and other text), PGN when a
 * tag line comes first in its first bytes, else games as plain text (or
 * none). Returns XQ_OK, XQ_EIO or XQ_ENOMEM. */
static int sniff(FILE *f, xq_rec_format *fmt)
{
  static const char *const opens[2] = {"[DhtmlXQ]", "[DhtmlXQiFrame]"};
  enum { KEEP = 15 }; /* bytes kept between chunks: an opening tag cut in two */
  char *b = malloc(XQ__SNIFF_LEN + KEEP);
  if (!b) return XQ_ENOMEM;
  size_t have = 0, total = 0, n;
  int text = 0;
  *fmt = XQ_FMT_PGN;
  while (total < XQ_DHTMLXQ_INPUT_MAX && (n = fread(b + have, 1, XQ__SNIFF_LEN, f)) > 0) {
    if (total == 0 && (*fmt = signature(b, n)) != XQ_FMT_PGN) break;
    if (total == 0) text = xq__textgames_sniff(b, n);
    total += n;
    have += n;
    if (memmem(b, have, opens[0], strlen(opens[0])) || memmem(b, have, opens[1], strlen(opens[1]))) {
      *fmt = XQ_FMT_DHTMLXQ;
      break;
    }
    size_t keep = have < KEEP ? have : KEEP;
    memmove(b, b + have - keep, keep);
    have = keep;
  }
  /* no tag line and no move list: no PGN either (prose, a page, data of
   * another kind), whose lines the text reader finds no game in */
  if (*fmt == XQ_FMT_PGN && text != 2) *fmt = XQ_FMT_TEXT;
  int rc = ferror(f) ? XQ_EIO : XQ_OK;
  free(b);
  return rc;
}

/* ---- the formats read whole ---------------------------------------- */

/* One game a file (XQF, CBR): read at the first call, done after it. */
static int xqf_next(xq_games *g, xq_record *rec, xq_error *err)
{
  if (g->at) return 0;
  g->at = g->len;
  int rc = xq_xqf_read((const unsigned char *)g->data, g->len, rec, NULL, err);
  return rc == XQ_OK ? 1 : rc;
}

static int cbr_next(xq_games *g, xq_record *rec, xq_error *err)
{
  if (g->at) return 0;
  g->at = g->len;
  int rc = xq__ccbridge_cbr_read((const unsigned char *)g->data, g->len, rec, err);
  return rc == XQ_OK ? 1 : rc;
}

static int cbf_next(xq_games *g, xq_record *rec, xq_error *err)
{
  if (g->at) return 0;
  g->at = g->len;
  int rc = xq__cbf_read(g->data, g->len, rec, err);
  return rc == XQ_OK ? 1 : rc;
}

/* One game a file (MXQ, CHE, PFC): read at the first call. */
static int once(xq_games *g, int (*read)(const char *, size_t, xq_record *, xq_error *),
                xq_record *rec, xq_error *err)
{
  if (g->at) return 0;
  g->at = g->len;
  int rc = read(g->data, g->len, rec, err);
  return rc == XQ_OK ? 1 : rc;
}

static int mxq_next(xq_games *g, xq_record *rec, xq_error *err)
{
  return once(g, xq__sitegames_mxq_read, rec, err);
}

static int che_next(xq_games *g, xq_record *rec, xq_error *err)
{
  return once(g, xq__sitegames_che_read, rec, err);
}

static int pfc_next(xq_games *g, xq_record *rec, xq_error *err)
{
  return once(g, xq__pfc_read, rec, err);
}

static int cbl_next(xq_games *g, xq_record *rec, xq_error *err)
{
  return xq__ccbridge_cbl_next((const unsigned char *)g->data, g->len, &g->at, rec, err);
}

/* rec->line, counted from g->at, made a line of the file once g->at
 * moved on by `used` bytes. */
static void count_lines(xq_games *g, xq_record *rec, size_t used)
{
  long line = g->lines + rec->line;
  for (size_t i = g->at; i < g->at + used; i++) g->lines += g->data[i] == '\n';
  g->at += used;
  rec->line = line;
}

/* The next DhtmlXQ block, its line counted from the start of the file. */
static int dhtmlxq_next(xq_games *g, xq_record *rec, xq_error *err)
{
  size_t used = 0;
  int rc = xq_dhtmlxq_read(g->data + g->at, g->len - g->at, rec, &used, err);
  count_lines(g, rec, used);
  return rc;
}

static int text_next(xq_games *g, xq_record *rec, xq_error *err)
{
  size_t at = g->at;
  int rc = xq__textgames_next(g->data, g->len, &at, rec, err);
  count_lines(g, rec, at - g->at);
  return rc;
}

static const struct whole_format {
  xq_rec_format fmt;
  size_t max; /* bytes of a file */
  int (*prepare)(char **data, size_t *len, xq_error *err); /* NULL: read as it is */
  int (*next)(xq_games *g, xq_record *rec, xq_error *err); /* 1 game, 0 end, < 0 bad game */
  int text; /* text in UTF-8, GBK or BIG5 (prepare makes it UTF-8) */
} wholes[] = {
  {XQ_FMT_XQF, XQ_XQF_FILE_MAX, NULL, xqf_next, 0},
  {XQ_FMT_DHTMLXQ, XQ_DHTMLXQ_INPUT_MAX, xq__text_page_utf8, dhtmlxq_next, 1},
  {XQ_FMT_CBL, XQ_CCBRIDGE_FILE_MAX, xq__ccbridge_cbl_prepare, cbl_next, 0},
  {XQ_FMT_CBR, XQ_CCBRIDGE_FILE_MAX, NULL, cbr_next, 0},
  {XQ_FMT_CBF, XQ_CCBRIDGE_FILE_MAX, NULL, cbf_next, 0},
  {XQ_FMT_TEXT, XQ_DHTMLXQ_INPUT_MAX, xq__textgames_prepare, text_next, 1},
  {XQ_FMT_MXQ, XQ_DHTMLXQ_INPUT_MAX, NULL, mxq_next, 0},
  {XQ_FMT_CHE, XQ_DHTMLXQ_INPUT_MAX, NULL, che_next, 0},
  {XQ_FMT_PFC, XQ_DHTMLXQ_INPUT_MAX, xq__text_page_utf8, pfc_next, 1},
};

int xq_games_open(xq_games **out, const char *path, int flags, xq_error *err)
{
  if (!out || !path) return xq_error_set(err, XQ_EINVAL, -1, 0, "NULL argument");
  xq_games *g = calloc(1, sizeof *g);
  if (!g) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  g->flags = flags;
  g->size = -1;
  int rc;

  if (!strcmp(path, "-")) {
    g->f = stdin;
  } else {
    g->f = fopen(path, "rb");
    if (!g->f) {
      free(g);
      return xq_error_set(err, XQ_EIO, -1, 0, "cannot open %s", path);
    }
    g->own = 1;
    struct stat st;
    if (fstat(fileno(g->f), &st) == 0 && S_ISREG(st.st_mode)) g->size = (long long)st.st_size;
  }

  /* Tell the format from the content of a regular file; a pipe is PGN.
   * A PGN file is scanned whole once: whether it is all UTF-8 decides how
   * a line valid both as UTF-8 and as GBK is read. */
  g->fmt = XQ_FMT_PGN;
  int utf8 = 1;
  if (g->size >= 0) {
    rc = sniff(g->f, &g->fmt);
    if (rc == XQ_OK && fseek(g->f, 0, SEEK_SET) != 0) rc = XQ_EIO;
    if (rc == XQ_OK && g->fmt == XQ_FMT_PGN && (utf8 = xq__text_file_utf8(g->f)) < 0) rc = utf8;
    if (rc == XQ_OK && g->fmt == XQ_FMT_PGN && fseek(g->f, 0, SEEK_SET) != 0) rc = XQ_EIO;
    if (rc != XQ_OK) {
      xq_games_close(g);
      return xq_error_set(err, rc, -1, 0, rc == XQ_ENOMEM ? "out of memory" : "cannot read %s",
                          path);
    }
  }

  if (g->fmt == XQ_FMT_PGN) {
    rc = xq_pgn_open(&g->pgn, g->f, flags);
    if (rc != XQ_OK) {
      xq_games_close(g);
      return xq_error_set(err, rc, -1, 0, "out of memory");
    }
    if (!utf8) xq__pgn_legacy(g->pgn);
  } else {
    for (size_t i = 0; i < sizeof wholes / sizeof wholes[0]; i++)
      if (wholes[i].fmt == g->fmt) g->whole = &wholes[i];
    rc = slurp(g->f, g->whole->max, &g->data, &g->len, err);
    /* text read whole: judged whole, a tie kept as UTF-8 with a warning */
    if (rc == XQ_OK && g->whole->text && xq_utf8_valid(g->data, g->len))
      g->doubt = xq__text_judge(g->data, g->len) == XQ__TEXT_EITHER;
    if (rc != XQ_OK || (g->whole->prepare && (rc = g->whole->prepare(&g->data, &g->len, err)) != XQ_OK)) {
      xq_games_close(g);
      return rc;
    }
  }
  *out = g;
  return XQ_OK;
}

/* Apply the reader flags to a record read whole. */
static void strip(xq_record *rec, int flags)
{
  if (flags & XQ_PGN_NO_COMMENTS) {
    rec->n_comments = 0;
    rec->text_len = 0;
  }
  if (!(flags & XQ_PGN_VARIATIONS)) {
    int k = 0;
    for (int i = 0; i < rec->n_comments; i++)
      if (rec->comments[i].line == 0) rec->comments[k++] = rec->comments[i];
    rec->n_comments = k;
    rec->n_vars = 0;
    rec->n_var_moves = 0;
    rec->vars_packed = 1;
  }
}

/* Prefix err->msg with "game N: " for the whole-file formats. */
static int name_game(xq_error *err, long game, int rc)
{
  if (err) {
    char prefix[48];
    snprintf(prefix, sizeof prefix, "game %ld: ", game);
    xq__text_error_prefix(err, prefix);
  }
  return rc;
}

int xq_games_next(xq_games *g, xq_record *rec, xq_error *err)
{
  if (!g || !rec) return xq_error_set(err, XQ_EINVAL, -1, 0, "NULL argument");
  if (g->fmt == XQ_FMT_PGN) return xq_pgn_next(g->pgn, rec, err);
  if (g->done) return 0;
  int rc = g->whole->next(g, rec, err);
  if (rc == 0) {
    g->done = 1;
    return 0;
  }
  rec->game = ++g->index;
  if (rc < 0) return name_game(err, rec->game, rc);
  if (g->doubt) {
    xq__record_warn(rec, "the file reads both as UTF-8 and as GBK: read as UTF-8");
    g->doubt = 0;
  }
  strip(rec, g->flags);
  return 1;
}

xq_rec_format xq_games_format(const xq_games *g)
{
  return g ? g->fmt : XQ_FMT_PGN;
}

long long xq_games_offset(const xq_games *g)
{
  if (!g) return 0;
  return g->fmt == XQ_FMT_PGN ? xq_pgn_offset(g->pgn) : (long long)g->at;
}

long long xq_games_size(const xq_games *g)
{
  return g ? g->size : -1;
}

void xq_games_close(xq_games *g)
{
  if (!g) return;
  xq_pgn_close(g->pgn);
  if (g->own && g->f) fclose(g->f);
  free(g->data);
  free(g);
}

int xq_record_read_file(const char *path, xq_record *rec, xq_error *err)
{
  xq_games *g;
  int rc = xq_games_open(&g, path, XQ_PGN_VARIATIONS, err);
  if (rc != XQ_OK) return rc;
  rc = xq_games_next(g, rec, err);
  xq_games_close(g);
  if (rc == 0) return xq_error_set(err, XQ_ENOTATION, -1, 0, "no game in %s", path);
  return rc < 0 ? rc : XQ_OK;
}
