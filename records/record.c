/*
 * record.c -- one game as a struct: start, tags, main line, variations,
 * comments and result, with the calls that keep it consistent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "records_internal.h"

const xq_pos *xq__record_startpos(void)
{
  static _Thread_local xq_pos start;
  static _Thread_local int ready;
  if (!ready) {
    xq_pos_startpos(&start);
    ready = 1;
  }
  return &start;
}

void xq_record_reset(xq_record *rec)
{
  char *text = rec->text;
  size_t cap = rec->text_cap;

  rec->game = 0;
  rec->line = 0;
  rec->start = *xq__record_startpos();
  rec->end = rec->start;
  rec->result = XQ_RESULT_UNKNOWN;
  rec->n_tags = 0;
  rec->n_moves = 0;
  rec->n_vars = 0;
  rec->n_var_moves = 0;
  rec->vars_packed = 1;
  rec->n_comments = 0;
  rec->n_warnings = 0;
  rec->warning[0] = '\0';
  rec->text = text;
  rec->text_cap = cap;
  rec->text_len = 0;
}

void xq__record_warn(xq_record *rec, const char *fmt, ...)
{
  if (rec->n_warnings++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rec->warning, sizeof rec->warning, fmt, ap);
    va_end(ap);
  }
}

void xq_record_init(xq_record *rec)
{
  rec->text = NULL;
  rec->text_cap = 0;
  xq_record_reset(rec);
}

void xq_record_free(xq_record *rec)
{
  if (!rec) return;
  free(rec->text);
  xq_record_init(rec);
}

int xq_record_set_start(xq_record *rec, const xq_pos *start, xq_error *err)
{
  if (!rec || !start) return XQ_EINVAL;
  int rc = xq_pos_validate(start, err);
  if (rc != XQ_OK) return rc;
  rec->start = *start;
  rec->end = *start;
  rec->n_moves = 0;
  rec->n_vars = 0;
  rec->n_var_moves = 0;
  rec->vars_packed = 1;
  rec->n_comments = 0;
  rec->text_len = 0;
  return XQ_OK;
}

int xq_record_append(xq_record *rec, xq_move m)
{
  xq_undo u;

  if (!rec) return XQ_EINVAL;
  if (rec->n_moves >= XQ_REC_PLIES_MAX) return XQ_ELIMIT;
  if (!xq_is_legal(&rec->end, m)) return XQ_EILLEGAL;
  xq_make(&rec->end, m, &u);
  rec->moves[rec->n_moves++] = m;
  return XQ_OK;
}

const char *xq_record_tag(const xq_record *rec, const char *name)
{
  if (!rec || !name) return NULL;
  for (int i = 0; i < rec->n_tags; i++)
    if (!strcasecmp(rec->tags[i].name, name)) return rec->tags[i].value;
  return NULL;
}

int xq_record_set_tag(xq_record *rec, const char *name, const char *value)
{
  if (!rec || !name || !value || !name[0]) return XQ_EINVAL;
  for (const char *p = name; *p; p++)
    if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7F || *p == '"' || *p == ']')
      return XQ_EINVAL;
  size_t nl = strlen(name), vl = strlen(value);
  if (nl >= XQ_REC_TAG_NAME_MAX || vl >= XQ_REC_TAG_VALUE_MAX) return XQ_ELIMIT;
  int i;
  for (i = 0; i < rec->n_tags; i++)
    if (!strcasecmp(rec->tags[i].name, name)) break;
  if (i == rec->n_tags) {
    if (rec->n_tags >= XQ_REC_TAGS_MAX) return XQ_ELIMIT;
    rec->n_tags++;
  }
  memcpy(rec->tags[i].name, name, nl + 1);
  memcpy(rec->tags[i].value, value, vl + 1);
  return XQ_OK;
}

void xq_record_del_tag(xq_record *rec, const char *name)
{
  if (!rec || !name) return;
  for (int i = 0; i < rec->n_tags; i++)
    if (!strcasecmp(rec->tags[i].name, name)) {
      memmove(&rec->tags[i], &rec->tags[i + 1],
              (size_t)(rec->n_tags - i - 1) * sizeof rec->tags[0]);
      rec->n_tags--;
      return;
    }
}

/* Moves added so far to `line` (before packing). */
static int line_len(const xq_record *rec, int line)
{
  if (line == 0) return rec->n_moves;
  if (rec->vars_packed) return rec->vars[line - 1].n;
  int n = 0;
  for (int i = 0; i < rec->n_var_moves; i++) n += rec->var_line[i] == line;
  return n;
}

int xq_record_add_variation(xq_record *rec, int parent, int at)
{
  if (!rec || parent < 0 || parent > rec->n_vars || at < 0) return XQ_EINVAL;
  if (at >= line_len(rec, parent)) return XQ_EINVAL;
  if (rec->n_vars >= XQ_REC_VARS_MAX) return XQ_ELIMIT;
  int depth = 1;
  for (int p = parent; p; p = rec->vars[p - 1].parent) depth++;
  if (depth > XQ_REC_VAR_DEPTH_MAX) return XQ_ELIMIT;
  xq_variation *v = &rec->vars[rec->n_vars++];
  v->parent = parent;
  v->at = at;
  v->first = rec->n_var_moves;
  v->n = 0;
  return rec->n_vars;
}

int xq_record_add_line_move(xq_record *rec, int line, xq_move m)
{
  if (!rec || line < 0 || line > rec->n_vars) return XQ_EINVAL;
  if (line == 0) {
    if (rec->n_moves >= XQ_REC_PLIES_MAX) return XQ_ELIMIT;
    rec->moves[rec->n_moves++] = m;
    return XQ_OK;
  }
  if (rec->n_var_moves >= XQ_REC_VAR_MOVES_MAX) return XQ_ELIMIT;
  xq_variation *v = &rec->vars[line - 1];
  /* Moves stay grouped while each one goes to the newest line's end. */
  if (rec->vars_packed && v->first + v->n != rec->n_var_moves) rec->vars_packed = 0;
  rec->var_line[rec->n_var_moves] = (uint16_t)line;
  rec->var_moves[rec->n_var_moves++] = m;
  v->n++;
  return XQ_OK;
}

void xq_record_pack(xq_record *rec)
{
  if (!rec || rec->vars_packed) return;
  /* A stable counting sort of the variation moves by line. Each line's
   * `first` becomes its start; var_line is rebuilt to match. */
  static _Thread_local xq_move tmp[XQ_REC_VAR_MOVES_MAX];
  int pos = 0;
  for (int v = 0; v < rec->n_vars; v++) {
    rec->vars[v].first = pos;
    pos += rec->vars[v].n;
  }
  int fill[XQ_REC_VARS_MAX];
  for (int v = 0; v < rec->n_vars; v++) fill[v] = rec->vars[v].first;
  for (int i = 0; i < rec->n_var_moves; i++) tmp[fill[rec->var_line[i] - 1]++] = rec->var_moves[i];
  memcpy(rec->var_moves, tmp, (size_t)rec->n_var_moves * sizeof tmp[0]);
  for (int v = 0; v < rec->n_vars; v++)
    for (int i = 0; i < rec->vars[v].n; i++)
      rec->var_line[rec->vars[v].first + i] = (uint16_t)(v + 1);
  rec->vars_packed = 1;
}

int xq_record_line(xq_record *rec, int line, const xq_move **moves, int *n)
{
  if (!rec || !moves || !n || line < 0 || line > rec->n_vars) return XQ_EINVAL;
  if (line == 0) {
    *moves = rec->moves;
    *n = rec->n_moves;
    return XQ_OK;
  }
  xq_record_pack(rec);
  *moves = rec->var_moves + rec->vars[line - 1].first;
  *n = rec->vars[line - 1].n;
  return XQ_OK;
}

int xq_record_add_comment(xq_record *rec, int line, int after, const char *text, size_t len)
{
  if (!rec || (!text && len) || line < 0 || line > rec->n_vars || after < 0) return XQ_EINVAL;
  if (rec->n_comments >= XQ_REC_COMMENTS_MAX || len > XQ_REC_COMMENT_MAX ||
      rec->text_len + len > XQ_REC_TEXT_MAX)
    return XQ_ELIMIT;
  if (rec->text_len + len > rec->text_cap) {
    size_t cap = rec->text_cap ? rec->text_cap : 4096;
    while (cap < rec->text_len + len) cap *= 2;
    char *t = realloc(rec->text, cap);
    if (!t) return XQ_ENOMEM;
    rec->text = t;
    rec->text_cap = cap;
  }
  xq_comment *c = &rec->comments[rec->n_comments++];
  c->line = line;
  c->after = after;
  c->off = rec->text_len;
  c->len = len;
  if (len) memcpy(rec->text + rec->text_len, text, len);
  rec->text_len += len;
  return XQ_OK;
}

int xq_record_position(const xq_record *rec, int ply, xq_pos *out)
{
  xq_undo u;

  if (!rec || !out || ply < 0 || ply > rec->n_moves) return XQ_EINVAL;
  *out = rec->start;
  for (int i = 0; i < ply; i++) xq_make(out, rec->moves[i], &u);
  return XQ_OK;
}

const char *xq_result_pgn(xq_result r)
{
  switch (r) {
  case XQ_RESULT_RED_WINS: return "1-0";
  case XQ_RESULT_BLACK_WINS: return "0-1";
  case XQ_RESULT_DRAW: return "1/2-1/2";
  default: return "*";
  }
}

xq_result xq_result_parse(const char *text)
{
  if (!text) return XQ_RESULT_UNKNOWN;
  if (!strcmp(text, "1-0")) return XQ_RESULT_RED_WINS;
  if (!strcmp(text, "0-1")) return XQ_RESULT_BLACK_WINS;
  if (!strcmp(text, "1/2-1/2") || !strcmp(text, "\xC2\xBD-\xC2\xBD") || !strcmp(text, "1/2"))
    return XQ_RESULT_DRAW;
  return XQ_RESULT_UNKNOWN;
}
