/*
 * san.c -- moves as WinBoard and pychess write them in xiangqi PGN
 * (standard algebraic notation): an optional piece letter (K A E/B H/N R
 * C P; none for a pawn), an optional origin file and/or rank, an
 * optional 'x', the destination square, then '+' or '#'. WinBoard counts
 * ranks 0-9 (`Cbe2`, `Rb0`), pychess and Fairy-Stockfish 1-10 (`Cbe3`,
 * `Rb10`): a game keeps to one, which the first move only one count reads
 * decides.
 */
#include <string.h>

#include "records_internal.h"

/* The parts of a SAN text: piece (XQ_NONE: a pawn written bare), origin
 * file and rank (-1: not given; the rank as written), destination file and
 * rank as written. */
typedef struct san {
  int kind, ffile, frank, tfile, trank;
} san;

static int piece_kind(int c)
{
  switch (c) {
  case 'K': return XQ_KING;
  case 'A': return XQ_ADVISOR;
  case 'E': case 'B': return XQ_ELEPHANT;
  case 'H': case 'N': return XQ_HORSE;
  case 'R': return XQ_ROOK;
  case 'C': return XQ_CANNON;
  case 'P': return XQ_PAWN;
  }
  return -1;
}

/* A rank of 1 or 2 digits at t[*i] (at most 10), or -1. */
static int rank_at(const char *t, size_t *i, size_t n)
{
  if (*i >= n || t[*i] < '0' || t[*i] > '9') return -1;
  int r = t[(*i)++] - '0';
  if (r == 1 && *i < n && t[*i] == '0') {
    (*i)++;
    r = 10;
  }
  return r;
}

/* Split t[0..n) (check marks and annotations stripped) into *s. Returns
 * 1 for a SAN text, 0 otherwise. */
static int split(const char *t, size_t n, san *s)
{
  size_t i = 0;
  s->kind = XQ_NONE;
  s->ffile = s->frank = -1;
  if (i < n && piece_kind((unsigned char)t[i]) >= 0) s->kind = piece_kind((unsigned char)t[i++]);
  /* the destination is the last file letter and its rank */
  size_t d = n;
  while (d > i && !(t[d - 1] >= 'a' && t[d - 1] <= 'i')) d--;
  if (d == i || d == 0) return 0;
  size_t k = d;
  s->tfile = t[d - 1] - 'a';
  if ((s->trank = rank_at(t, &k, n)) < 0 || k != n) return 0;
  size_t e = d - 1;
  if (e > i && t[e - 1] == 'x') e--;
  if (i < e && t[i] >= 'a' && t[i] <= 'i') s->ffile = t[i++] - 'a';
  if (i < e && (s->frank = rank_at(t, &i, e)) < 0) return 0;
  return i == e;
}

/* The legal moves of `pos` that s reads with ranks counted from `base`
 * (0 or 1): how many, the first in *m. */
static int matches(const xq_pos *pos, const san *s, int base, xq_move *m)
{
  int tr = s->trank - base, fr = s->frank < 0 ? -1 : s->frank - base, found = 0;
  if (tr < 0 || tr > 9 || (s->frank >= 0 && (fr < 0 || fr > 9))) return 0;
  xq_movelist list;
  xq_gen_legal(pos, &list);
  for (int i = 0; i < list.n; i++) {
    int from = XQ_FROM(list.m[i]), to = XQ_TO(list.m[i]);
    xq_color c;
    xq_kind k = xq_piece_at(pos, from, &c);
    if (to != XQ_SQ(s->tfile, tr) || (s->ffile >= 0 && XQ_FILE(from) != s->ffile) ||
        (fr >= 0 && XQ_RANK(from) != fr))
      continue;
    if (s->kind == XQ_NONE ? k != XQ_PAWN : (int)k != s->kind) continue;
    if (!found++) *m = list.m[i];
  }
  return found;
}

int xq__san_parse(const xq_pos *pos, const char *text, int *base, xq_move *m, xq_error *err)
{
  size_t n = strlen(text);
  while (n && strchr("+#!?", text[n - 1])) n--;
  san s;
  if (!split(text, n, &s))
    return xq_error_set(err, XQ_ENOTATION, -1, -1, "'%.24s' is not SAN", text);
  xq_move m0 = XQ_MOVE_NONE, m1 = XQ_MOVE_NONE;
  int n0 = *base != 1 ? matches(pos, &s, 0, &m0) : 0;
  int n1 = *base != 0 ? matches(pos, &s, 1, &m1) : 0;
  if (n0 > 1 || n1 > 1 || (n0 && n1 && m0 != m1))
    return xq_error_set(err, XQ_EAMBIGUOUS, -1, -1, "'%.24s' is ambiguous: it fits two legal moves",
                        text);
  if (!n0 && !n1)
    return xq_error_set(err, XQ_EILLEGAL, -1, -1, "%.24s is not legal: it names no legal move", text);
  *m = n0 ? m0 : m1;
  if (n0 != n1) *base = n0 ? 0 : 1; /* only one count reads it: the game keeps to it */
  return XQ_OK;
}
