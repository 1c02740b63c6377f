/*
 * notation.c -- move notations: the public entry points, input limits and
 * trimming, and what the notation files share: the vertical-line view of a
 * move, tandem pieces, matching a text against every legal move, errors.
 */
#include <stdio.h>
#include <string.h>

#include "notation.h"

/* ------------------------------------------------------------------ */
/* Errors and quoting                                                  */
/* ------------------------------------------------------------------ */

/* Length of the well-formed UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
  size_t k;
  if (s[0] < 0xC2 || s[0] > 0xF4) return 0;
  k = s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
  if (k > n) return 0;
  for (size_t i = 1; i < k; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  return k;
}

void xq__notation_quote(const char *text, size_t len, char *out, size_t cap)
{
  const unsigned char *s = (const unsigned char *)text;
  size_t o = 0, i = 0;
  while (i < len) {
    size_t k = s[i] >= 0x20 && s[i] < 0x7F ? 1 : utf8_len(s + i, len - i);
    if (o + (k ? k : 1) + 4 > cap) { /* keep room for "..." and NUL */
      memcpy(out + o, "...", 3);
      o += 3;
      break;
    }
    if (k) {
      memcpy(out + o, s + i, k);
      o += k;
      i += k;
    } else {
      out[o++] = '?';
      i++;
    }
  }
  out[o] = '\0';
}

const char *xq__notation_color_name(int color)
{
  return color == XQ_RED ? "Red" : "Black";
}

const char *xq__notation_kind_name(int kind)
{
  static const char *const names[8] = {"piece",  "general", "advisor", "elephant",
                                        "horse",  "rook",    "cannon",  "pawn"};
  return kind >= 0 && kind < 8 ? names[kind] : "piece";
}

/* ------------------------------------------------------------------ */
/* The vertical-line view shared by WXF and Chinese                    */
/* ------------------------------------------------------------------ */

void xq__notation_vline_of(const xq_pos *pos, xq_move m, xq__vline *v)
{
  int from = XQ_FROM(m), to = XQ_TO(m);
  int pid = pos->board[from];
  int dr = XQ_RANK(to) - XQ_RANK(from);

  v->kind = xq__pid_kind[pid];
  v->color = XQ_PID_COLOR(pid);
  v->file = xq__notation_vfile(v->color, XQ_FILE(from));
  if (v->color == XQ_BLACK) dr = -dr; /* Black's forward is down the board */
  if (dr == 0) {
    v->dir = XQ__SIDEWAYS;
    v->value = xq__notation_vfile(v->color, XQ_FILE(to));
    return;
  }
  v->dir = dr > 0 ? XQ__FORWARD : XQ__BACKWARD;
  /* Straight movers count steps; diagonal movers name the file they reach. */
  if (v->kind == XQ_HORSE || v->kind == XQ_ADVISOR || v->kind == XQ_ELEPHANT)
    v->value = xq__notation_vfile(v->color, XQ_FILE(to));
  else
    v->value = dr > 0 ? dr : -dr;
}

/* True when square a is in front of square b for `color` (nearer the enemy). */
static int in_front(int color, int a, int b)
{
  return color == XQ_RED ? XQ_RANK(a) > XQ_RANK(b) : XQ_RANK(a) < XQ_RANK(b);
}

void xq__notation_tandem_of(const xq_pos *pos, int sq, xq__tandem *t)
{
  int pid = pos->board[sq];
  int color = XQ_PID_COLOR(pid), kind = xq__pid_kind[pid];
  int base = color << 4, x = XQ_FILE(sq);
  int first = xq__kind_first[kind], end = xq__kind_end[kind];

  t->n = 0;
  t->idx = 0;
  t->pawn_files = 0;
  t->series = -1;
  for (int i = first; i < end; i++) {
    int s = pos->sq[base + i];
    if (s == XQ_NO_SQ || XQ_FILE(s) != x) continue;
    t->n++;
    if (in_front(color, s, sq)) t->idx++;
  }
  if (kind != XQ_PAWN || t->n < 2) return;

  /* Pawns: with two doubled files, xqbase numbers the pawns of both files in
   * one series, files right to left as the mover sees them, then front to
   * back (README.md, "Move notations"; the tandem table of tests/data/notation). */
  int per_file[9] = {0};
  for (int i = first; i < end; i++) {
    int s = pos->sq[base + i];
    if (s != XQ_NO_SQ) per_file[XQ_FILE(s)]++;
  }
  for (int f = 0; f < 9; f++)
    if (per_file[f] >= 2) t->pawn_files++;
  if (t->pawn_files < 2) return;
  int me = xq__notation_vfile(color, x);
  t->series = t->idx;
  for (int f = 0; f < 9; f++)
    if (per_file[f] >= 2 && xq__notation_vfile(color, f) < me) t->series += per_file[f];
}

/* ------------------------------------------------------------------ */
/* Matching a normalised text against every legal move                 */
/* ------------------------------------------------------------------ */

void xq__notation_match(const xq_pos *pos, const char *prefix, int dir, int value,
                        xq__alts_fn fn, xq__matches *out)
{
  xq_movelist list;
  xq__alt alts[XQ__ALTS_MAX];
  int best = 3; /* best tier matched so far; 3 = none */

  out->n = 0;
  out->m[0] = out->m[1] = XQ_MOVE_NONE;
  xq_gen_legal(pos, &list);
  for (int i = 0; i < list.n; i++) {
    xq__vline v;
    xq__notation_vline_of(pos, list.m[i], &v);
    /* Direction and value are printed the same way in every form, so
     * they filter cheaply before the prefixes are worked out. */
    if (v.dir != dir || v.value != value) continue;
    int na = fn(pos, list.m[i], &v, alts), tier = 3;
    for (int a = 0; a < na; a++)
      if (alts[a].tier < tier && strcmp(alts[a].s, prefix) == 0) tier = alts[a].tier;
    if (tier == 3 || tier > best) continue; /* no match, or a worse tier */
    if (tier < best) {
      best = tier;
      out->n = 0;
    }
    if (out->n < 2) out->m[out->n] = list.m[i];
    out->n++;
  }
}

/* ------------------------------------------------------------------ */
/* Public entry points                                                 */
/* ------------------------------------------------------------------ */

int xq_move_format(const xq_pos *pos, xq_move m, xq_notation notation,
                   char *buf, size_t len)
{
  if (!pos || !xq_is_legal(pos, m)) return XQ_EINVAL;
  return xq_move_format_legal(pos, m, notation, buf, len);
}

int xq_move_format_legal(const xq_pos *pos, xq_move m, xq_notation notation,
                         char *buf, size_t len)
{
  char tmp[XQ_MOVE_TEXT_MAX];
  int n;

  /* no legality test, but never a move of an empty square or an
   * out-of-range one: the formatters index tables by the piece */
  if (!pos || !buf || len == 0 || (m >> 14) || XQ_FROM(m) >= XQ_SQUARES || XQ_TO(m) >= XQ_SQUARES ||
      pos->board[XQ_FROM(m)] == XQ_NO_PID)
    return XQ_EINVAL;
  switch (notation) {
  case XQ_NOTE_ICCS: n = xq__iccs_format(pos, m, 0, tmp); break;
  case XQ_NOTE_ICCS_PGN: n = xq__iccs_format(pos, m, 1, tmp); break;
  case XQ_NOTE_WXF: n = xq__wxf_format(pos, m, tmp); break;
  case XQ_NOTE_CHINESE: n = xq__chinese_format(pos, m, tmp); break;
  default: return XQ_EINVAL;
  }
  if ((size_t)n >= len) return XQ_EINVAL;
  memcpy(buf, tmp, (size_t)n + 1);
  return n;
}

/* Blank at s[0] (n bytes left): its length in bytes, 0 if none. ASCII
 * blanks and the ideographic space U+3000 that Chinese texts use. */
static size_t blank_len(const unsigned char *s, size_t n)
{
  if (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n') return 1;
  if (n >= 3 && s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) return 3;
  return 0;
}

/* Check `text` against the input limit and strip surrounding blanks.
 * Returns XQ_OK with *start and *len set, or XQ_ENOTATION. */
static int trim_input(const char *text, size_t *start, size_t *len, xq_error *err)
{
  const unsigned char *s = (const unsigned char *)text;
  size_t n = 0, b = 0, k;

  while (n <= XQ__MOVE_INPUT_MAX && s[n]) n++; /* never past the NUL */
  if (n > XQ__MOVE_INPUT_MAX)
    return xq__notation_fail(err, XQ_ENOTATION, -1,
                             "move text too long (more than %d bytes)", XQ__MOVE_INPUT_MAX);
  while (b < n && (k = blank_len(s + b, n - b))) b += k;
  while (n > b) {
    if (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')
      n--;
    else if (n - b >= 3 && s[n - 3] == 0xE3 && s[n - 2] == 0x80 && s[n - 1] == 0x80)
      n -= 3;
    else
      break;
  }
  if (n == b) return xq__notation_fail(err, XQ_ENOTATION, -1, "empty move text");
  *start = b;
  *len = n - b;
  return XQ_OK;
}

/* The text of a move for the ASCII notations (ICCS, WXF): t[0..n) with the
 * full-width forms of ASCII (U+FF01-U+FF5E: Ｃ２＝５, Ｈ２－Ｅ２) folded into
 * their ASCII letters, digits and signs, which are the same notation.
 * `buf` has room for n bytes (folding only shrinks). Returns the text to
 * parse, t itself when there is nothing to fold; *fn is its length. */
static const char *fold_fullwidth(const char *t, size_t n, char *buf, size_t *fn)
{
  const unsigned char *s = (const unsigned char *)t;
  size_t i = 0, k = 0;
  int folded = 0;
  while (i < n) {
    /* U+FF01-FF3F is EF BC 81-BF, U+FF40-FF5E is EF BD 80-9E */
    if (i + 2 < n && s[i] == 0xEF &&
        ((s[i + 1] == 0xBC && s[i + 2] >= 0x81 && s[i + 2] <= 0xBF) ||
         (s[i + 1] == 0xBD && s[i + 2] >= 0x80 && s[i + 2] <= 0x9E))) {
      buf[k++] = (char)((s[i + 1] == 0xBC ? 0x20 : 0x60) + (s[i + 2] - 0x80));
      i += 3;
      folded = 1;
    } else {
      buf[k++] = t[i++];
    }
  }
  *fn = folded ? k : n;
  return folded ? buf : t;
}

int xq_move_parse(const xq_pos *pos, const char *text, xq_notation notation,
                  xq_move *m, xq_error *err)
{
  size_t b, n, fn;
  char buf[XQ__MOVE_INPUT_MAX];
  const char *ft;
  int rc;

  if (!pos || !text || !m)
    return xq__notation_fail(err, XQ_EINVAL, -1, "NULL argument");
  if ((rc = trim_input(text, &b, &n, err)) != XQ_OK) return rc;
  switch (notation) {
  case XQ_NOTE_ICCS:
  case XQ_NOTE_ICCS_PGN:
    ft = fold_fullwidth(text + b, n, buf, &fn);
    return xq__iccs_parse(pos, ft, fn, (int)b, m, err);
  case XQ_NOTE_WXF:
    ft = fold_fullwidth(text + b, n, buf, &fn);
    return xq__wxf_parse(pos, ft, fn, (int)b, m, err);
  case XQ_NOTE_CHINESE:
    return xq__chinese_parse(pos, text + b, n, (int)b, m, err);
  }
  return xq__notation_fail(err, XQ_EINVAL, -1, "unknown notation %d", (int)notation);
}

int xq_move_parse_any(const xq_pos *pos, const char *text, xq_move *m,
                      xq_error *err)
{
  typedef int (*parse_fn)(const xq_pos *, const char *, size_t, int, xq_move *,
                          xq_error *);
  static const parse_fn order[3] = {xq__iccs_parse, xq__wxf_parse, xq__chinese_parse};
  xq_error e[3];
  size_t b, n, fn;
  char buf[XQ__MOVE_INPUT_MAX];
  int rc;

  if (!pos || !text || !m)
    return xq__notation_fail(err, XQ_EINVAL, -1, "NULL argument");
  if ((rc = trim_input(text, &b, &n, err)) != XQ_OK) return rc;
  /* ICCS and WXF read the text with full-width ASCII folded; Chinese, which
   * has its own full-width digits, reads it as it is. */
  const char *t = fold_fullwidth(text + b, n, buf, &fn);
  /* The first notation in which the text is well-formed decides, even when
   * the move it names is illegal or ambiguous. */
  for (int i = 0; i < 3; i++) {
    rc = order[i](pos, i < 2 ? t : text + b, i < 2 ? fn : n, (int)b, m, &e[i]);
    if (rc != XQ_ENOTATION) {
      if (err && rc != XQ_OK) *err = e[i];
      return rc;
    }
  }

  /* Malformed in all three: report the notation the text most looks like.
   * Any non-ASCII byte (full-width ASCII folded) means Chinese; a file letter and a rank digit not
   * followed by a WXF direction mean ICCS; anything else WXF. */
  if (err) {
    int which = 1;
    for (size_t i = 0; i < fn; i++)
      if ((unsigned char)t[i] >= 0x80) which = 2;
    if (which == 1 && fn >= 2 && (t[0] | 0x20) >= 'a' && (t[0] | 0x20) <= 'i' &&
        t[1] >= '0' && t[1] <= '9' && (fn == 2 || !strchr("+-.=", t[2])))
      which = 0;
    *err = e[which];
  }
  return XQ_ENOTATION;
}

/* Explain, for a text that matches no legal move, what is missing: `kind`
 * and `file` (1..9 from the mover's right) are what the text names, 0 when
 * it names no plain piece and file. Returns XQ_EILLEGAL. */
int xq__notation_explain_illegal(const xq_pos *pos, const char *q, int kind, int file, int base,
                                 xq_error *err)
{
  if (kind && file) {
    int us = pos->side, found = 0;
    for (int i = xq__kind_first[kind]; i < xq__kind_end[kind]; i++) {
      int s = pos->sq[(us << 4) + i];
      if (s != XQ_NO_SQ && xq__notation_vfile(us, XQ_FILE(s)) == file) found++;
    }
    if (!found)
      return xq__notation_fail(err, XQ_EILLEGAL, base, "%s is not legal: %s has no %s on file %d",
                               q, xq__notation_color_name(us), xq__notation_kind_name(kind), file);
    return xq__notation_fail(err, XQ_EILLEGAL, base,
                             "%s is not legal: no %s %s on file %d can make that move", q,
                             xq__notation_color_name(us), xq__notation_kind_name(kind), file);
  }
  return xq__notation_fail(err, XQ_EILLEGAL, base, "%s is not legal: it names no legal move", q);
}
