/*
 * snapshot.c -- a board reports what stands on its points, not moves:
 * find the one legal move whose result matches (docs/adjudicator.md, "Snapshots").
 */
#include <stdio.h>
#include <string.h>

#include "game_internal.h"

/* What a snapshot says about one point. */
enum { S_EMPTY = 0, S_PIECE, S_COLOR, S_ANY, S_UNKNOWN };

typedef struct cell {
  uint8_t what;
  uint8_t color;
  uint8_t kind;
} cell;

static int letter_kind(char c)
{
  switch (c) {
  case 'k': return XQ_KING;
  case 'a': return XQ_ADVISOR;
  case 'b': case 'e': return XQ_ELEPHANT;
  case 'n': case 'h': return XQ_HORSE;
  case 'r': return XQ_ROOK;
  case 'c': return XQ_CANNON;
  case 'p': return XQ_PAWN;
  }
  return XQ_NONE;
}

/* Parse the placement field of `s` into cells[90]. */
static int parse(const char *s, cell *cells, xq_error *err)
{
  int rank = 9, file = 0, i = 0;
  memset(cells, 0, sizeof(cell) * XQ_SQUARES);
  for (; s[i] && s[i] != ' ' && s[i] != '\t'; i++) {
    char c = s[i];
    if (i > XQ_FEN_INPUT_MAX) break;
    if (c == '/') {
      if (file != 9 || rank == 0) goto bad;
      rank--;
      file = 0;
      continue;
    }
    if (c >= '1' && c <= '9') {
      file += c - '0';
      if (file > 9) goto bad;
      continue;
    }
    if (file >= 9) goto bad;
    cell *x = &cells[XQ_SQ(file, rank)];
    char lc = (char)(c | 0x20);
    if (c == '?') {
      x->what = S_UNKNOWN;
    } else if (c == '*') {
      x->what = S_ANY;
    } else if (c == 'X' || c == 'x') {
      x->what = S_COLOR;
      x->color = c == 'X' ? XQ_RED : XQ_BLACK;
    } else if (letter_kind(lc) != XQ_NONE) {
      x->what = S_PIECE;
      x->color = c == lc ? XQ_BLACK : XQ_RED;
      x->kind = (uint8_t)letter_kind(lc);
    } else {
      goto bad;
    }
    file++;
  }
  if (rank == 0 && file == 9) return XQ_OK;
bad:
  if (err) {
    err->code = XQ_ENOTATION;
    err->pos = i;
    err->ply = -1;
    snprintf(err->msg, sizeof err->msg,
             "snapshot: expected 10 ranks of 9 points (FEN letters, digits, X x * ?) at byte %d", i);
  }
  return XQ_ENOTATION;
}

static int matches(const xq_pos *p, const cell *cells)
{
  for (int sq = 0; sq < XQ_SQUARES; sq++) {
    const cell *x = &cells[sq];
    xq_color c;
    xq_kind k = xq_piece_at(p, sq, &c);
    switch (x->what) {
    case S_EMPTY: if (k != XQ_NONE) return 0; break;
    case S_PIECE: if (k != x->kind || (int)c != x->color) return 0; break;
    case S_COLOR: if (k == XQ_NONE || (int)c != x->color) return 0; break;
    case S_ANY: if (k == XQ_NONE) return 0; break;
    default: break;
    }
  }
  return 1;
}

int xq_game_snapshot(xq_game *g, const char *board, xq_verdict *v, xq_error *err)
{
  if (!g || !board || !v) return XQ_EINVAL;
  cell cells[XQ_SQUARES];
  int rc = parse(board, cells, err);
  if (rc) return rc;
  xq_verdict tmp;
  xq__verdict_begin(g, &tmp, "snapshot");
  if (xq__verdict_refuse_if_over(g, &tmp)) {
    *v = tmp;
    return XQ_OK;
  }
  if (matches(&g->pos, cells)) {
    xq__verdict_explain(&tmp, "棋盘未变", "the board is unchanged");
    *v = tmp;
    return XQ_OK;
  }
  xq_movelist l;
  xq_gen_legal(&g->pos, &l);
  int found = 0;
  xq_move hit[2] = {0, 0};
  for (int i = 0; i < l.n; i++) {
    xq_pos q = g->pos;
    xq_undo u;
    xq_make(&q, l.m[i], &u);
    if (!matches(&q, cells)) continue;
    if (found < 2) hit[found] = l.m[i];
    found++;
  }
  if (found == 0) {
    if (err) {
      err->code = XQ_EILLEGAL;
      err->pos = -1;
      err->ply = g->nply;
      snprintf(err->msg, sizeof err->msg,
               "snapshot: no legal move of %s leads to the board shown; nothing changed",
               g->pos.side == XQ_RED ? "Red" : "Black");
    }
    return XQ_EILLEGAL;
  }
  if (found > 1) {
    if (err) {
      char a[5], b[5];
      xq__verdict_move_name(hit[0], a);
      xq__verdict_move_name(hit[1], b);
      err->code = XQ_EAMBIGUOUS;
      err->pos = -1;
      err->ply = g->nply;
      snprintf(err->msg, sizeof err->msg,
               "snapshot: %d legal moves fit the board shown (%s, %s, ...); nothing changed", found,
               a, b);
    }
    return XQ_EAMBIGUOUS;
  }
  rc = xq__game_play(g, hit[0], 0, &tmp);
  if (rc == XQ_OK) *v = tmp;
  return rc;
}
