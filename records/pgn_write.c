/*
 * pgn_write.c -- the XQ-PGN writer (docs/records.md, "PGN reading"): xqbase's tag order and
 * movetext layout ("%3d. " + Red move + Black move, one move pair a line),
 * UTF-8, comments in braces and variations in parentheses.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "records_internal.h"

#define WRAP_COLUMN 78 /* variations and comments wrap before this column */

typedef struct emitter {
  FILE *out;
  const char *eol;
  xq_notation notation;
  int flags;
  int col;        /* bytes on the current output line */
  int interrupted; /* a comment or variation since the last move */
  int glue;        /* the next word follows without a space (after '(') */
  /* The comments and the variations in the order they are written: by
   * line, then by place on it (comment: after; variation: at), then as
   * stored; and for each line the next one of it to write. A line is
   * written once, place after place, so each is a cursor that only moves
   * forward: writing a game costs its moves plus its comments and
   * variations, not their product. */
  int corder[XQ_REC_COMMENTS_MAX], ccur[XQ_REC_VARS_MAX + 1];
  int vorder[XQ_REC_VARS_MAX], vcur[XQ_REC_VARS_MAX + 1];
} emitter;

typedef struct sort_key {
  int line, place, index;
} sort_key;

static int by_key(const void *a, const void *b)
{
  const sort_key *x = a, *y = b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->place != y->place) return x->place < y->place ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* Sort n keys into order[] and point cur[line] (lines 0..n_lines-1) at
 * the first entry of each line (n when it has none). */
static void index_keys(sort_key *keys, int n, int *order, int *cur, int n_lines)
{
  qsort(keys, (size_t)n, sizeof keys[0], by_key);
  for (int l = 0; l < n_lines; l++) cur[l] = n;
  for (int i = n - 1; i >= 0; i--) {
    order[i] = keys[i].index;
    if (keys[i].line >= 0 && keys[i].line < n_lines) cur[keys[i].line] = i;
  }
}

static void build_index(emitter *em, const xq_record *rec)
{
  sort_key keys[XQ_REC_COMMENTS_MAX > XQ_REC_VARS_MAX ? XQ_REC_COMMENTS_MAX : XQ_REC_VARS_MAX];
  int n_lines = rec->n_vars + 1;
  for (int i = 0; i < rec->n_comments; i++)
    keys[i] = (sort_key){rec->comments[i].line, rec->comments[i].after, i};
  index_keys(keys, rec->n_comments, em->corder, em->ccur, n_lines);
  for (int v = 0; v < rec->n_vars; v++) keys[v] = (sort_key){rec->vars[v].parent, rec->vars[v].at, v};
  index_keys(keys, rec->n_vars, em->vorder, em->vcur, n_lines);
}

static void newline(emitter *em)
{
  fputs(em->eol, em->out);
  em->col = 0;
}

/* Write `s` as one word, preceded by a space unless at a line start,
 * moving to a new line first when the line would get too long. */
static void word(emitter *em, const char *s)
{
  int n = (int)strlen(s);
  if (em->col > 0 && em->col + 1 + n > WRAP_COLUMN) newline(em);
  if (em->col > 0 && !em->glue) {
    fputc(' ', em->out);
    em->col++;
  }
  em->glue = 0;
  fputs(s, em->out);
  em->col += n;
}

static void write_comment(emitter *em, const xq_record *rec, const xq_comment *c)
{
  if (em->col > 0 && em->col + 3 + (int)c->len > WRAP_COLUMN) newline(em);
  if (em->col > 0 && !em->glue) fputc(' ', em->out);
  em->glue = 0;
  fputc('{', em->out);
  for (size_t i = 0; i < c->len; i++) {
    char ch = rec->text[c->off + i];
    if (ch == '}') fputs("\xEF\xBD\x9D", em->out); /* ｝: PGN has no escape for '}' */
    else if (ch == '\n') fputs(em->eol, em->out);
    else fputc(ch, em->out);
  }
  fputc('}', em->out);
  em->col += 3 + (int)c->len;
  em->interrupted = 1;
}

/* The comments of `line` standing after `after` moves, in stored order.
 * Called with after = 0, 1, 2, ... for each line. */
static void write_comments(emitter *em, const xq_record *rec, int line, int after)
{
  if (em->flags & XQ_PGN_NO_COMMENTS) return;
  int *cur = &em->ccur[line];
  for (; *cur < rec->n_comments; (*cur)++) {
    const xq_comment *c = &rec->comments[em->corder[*cur]];
    if (c->line != line || c->after > after) break;
    if (c->after == after) write_comment(em, rec, c);
  }
}

/* Write line `line` (0 = main line) played from `pos`. */
static void write_line(emitter *em, xq_record *rec, int line, const xq_pos *start)
{
  const xq_move *moves;
  int n;
  xq_pos pos = *start;
  char text[XQ_MOVE_TEXT_MAX], num[32];

  xq_record_line(rec, line, &moves, &n);
  write_comments(em, rec, line, 0);
  em->interrupted = 1;
  for (int k = 0; k < n; k++) {
    xq_pos before = pos;
    xq_undo u;
    if (line == 0) {
      /* xqbase layout: each Red move starts a line; a Black-first game
       * leaves Red's slot blank. */
      if (pos.side == XQ_RED) {
        if (em->col > 0) newline(em);
        fprintf(em->out, "%3d.", pos.fullmove);
        em->col = 4;
      } else if (k == 0) {
        if (em->col > 0) newline(em);
        fprintf(em->out, "%3d.       ", pos.fullmove);
        em->col = 11;
      } else if (em->interrupted) {
        snprintf(num, sizeof num, "%d...", pos.fullmove);
        word(em, num);
      }
    } else if (pos.side == XQ_RED || em->interrupted) {
      snprintf(num, sizeof num, pos.side == XQ_RED ? "%d." : "%d...", pos.fullmove);
      word(em, num);
    }
    xq_move_format(&pos, moves[k], em->notation, text, sizeof text);
    word(em, text);
    em->interrupted = 0;
    xq_make(&pos, moves[k], &u);
    write_comments(em, rec, line, k + 1);
    if (em->flags & XQ_PGN_NO_VARS_OUT) continue;
    /* the variations replacing move k, in stored order (k = 0, 1, ...) */
    for (int *cur = &em->vcur[line]; *cur < rec->n_vars; (*cur)++) {
      int v = em->vorder[*cur];
      if (rec->vars[v].parent != line || rec->vars[v].at > k) break;
      if (rec->vars[v].at != k) continue;
      word(em, "(");
      em->glue = 1;
      write_line(em, rec, v + 1, &before);
      em->glue = 0;
      fputc(')', em->out);
      em->col++;
      em->interrupted = 1;
    }
  }
}

static void write_tag(emitter *em, const char *name, const char *value)
{
  fprintf(em->out, "[%s \"", name);
  for (const char *p = value; *p; p++) {
    if (*p == '"' || *p == '\\') fputc('\\', em->out);
    fputc((unsigned char)*p < ' ' ? ' ' : *p, em->out); /* a tag stays on its line */
  }
  fprintf(em->out, "\"]%s", em->eol);
}

int xq_pgn_write(FILE *out, xq_record *rec, xq_notation notation, int flags, xq_error *err)
{
  static const char *const order[] = {"Event", "Round", "Date",      "Site",   "RedTeam",
                                      "Red",   "RedElo", "BlackTeam", "Black",  "BlackElo",
                                      "Result", "ECCO", "Opening",   "Variation"};
  static const char *const special[] = {"Game", "Format", "FEN"};
  const int n_order = (int)(sizeof order / sizeof order[0]);
  emitter em;

  if (!out || !rec || notation < XQ_NOTE_ICCS || notation > XQ_NOTE_CHINESE)
    return xq_error_set(err, XQ_EINVAL, -1, 0, "bad argument");
  em.out = out;
  em.eol = (flags & XQ_PGN_CRLF) ? "\r\n" : "\n";
  em.notation = notation;
  em.flags = flags;
  em.col = em.interrupted = em.glue = 0;
  build_index(&em, rec);
  if (notation == XQ_NOTE_ICCS) em.notation = XQ_NOTE_ICCS_PGN; /* xqbase writes H2-E2 */

  write_tag(&em, "Game", "Chinese Chess");
  for (int i = 0; i < n_order; i++) {
    if (!strcmp(order[i], "Result")) {
      write_tag(&em, "Result", xq_result_pgn(rec->result));
      continue;
    }
    const char *v = xq_record_tag(rec, order[i]);
    if (v) write_tag(&em, order[i], v);
  }
  for (int t = 0; t < rec->n_tags; t++) {
    int skip = 0;
    for (int i = 0; i < n_order && !skip; i++) skip = !strcasecmp(rec->tags[t].name, order[i]);
    for (int i = 0; i < 3 && !skip; i++) skip = !strcasecmp(rec->tags[t].name, special[i]);
    if (!skip) write_tag(&em, rec->tags[t].name, rec->tags[t].value);
  }
  if (em.notation == XQ_NOTE_ICCS_PGN) write_tag(&em, "Format", "ICCS");
  else if (em.notation == XQ_NOTE_WXF) write_tag(&em, "Format", "WXF");
  const xq_pos *std = xq__record_startpos();
  if (rec->start.key != std->key || rec->start.halfmove || rec->start.fullmove != 1) {
    char fen[XQ_FEN_MAX];
    xq_fen_format(&rec->start, fen, sizeof fen);
    write_tag(&em, "FEN", fen);
  }
  fputs(em.eol, out);

  write_line(&em, rec, 0, &rec->start);
  if (em.col > 0) newline(&em);
  fprintf(out, " %s%s%s", xq_result_pgn(rec->result), em.eol, em.eol);
  if (ferror(out)) return xq_error_set(err, XQ_EIO, -1, 0, "write error");
  return XQ_OK;
}
