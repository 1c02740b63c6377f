/*
 * position.c -- the board: setting pieces up, make/unmake, Zobrist keys.
 */
#include <string.h>

#include "engine_internal.h"

xq_kind xq_pid_kind(int pid)
{
  return pid >= 0 && pid < XQ_PIDS ? (xq_kind)xq__pid_kind[pid] : XQ_NONE;
}

xq_kind xq_piece_at(const xq_pos *pos, int sq, xq_color *color)
{
  int pid = pos->board[sq];
  if (pid == XQ_NO_PID) return XQ_NONE;
  if (color) *color = (xq_color)XQ_PID_COLOR(pid);
  return (xq_kind)xq__pid_kind[pid];
}

void xq_pos_clear(xq_pos *pos)
{
  memset(pos, 0, sizeof *pos);
  memset(pos->board, XQ_NO_PID, sizeof pos->board);
  memset(pos->sq, XQ_NO_SQ, sizeof pos->sq);
  pos->side = XQ_RED;
  pos->fullmove = 1;
}

int xq_pos_put(xq_pos *pos, int sq, xq_color color, xq_kind kind)
{
  if (!pos || sq < 0 || sq >= XQ_SQUARES || (color != XQ_RED && color != XQ_BLACK) ||
      kind < XQ_KING || kind > XQ_PAWN)
    return XQ_EINVAL;
  if (pos->board[sq] != XQ_NO_PID) return XQ_EINVAL;
  XQ__REQUIRE_TABLES();
  int base = color == XQ_RED ? 0 : 16;
  int pid = -1;
  for (int i = xq__kind_first[kind]; i < xq__kind_end[kind]; i++)
    if (pos->sq[base + i] == XQ_NO_SQ) {
      pid = base + i;
      break;
    }
  if (pid < 0) return XQ_ELIMIT;
  pos->board[sq] = (uint8_t)pid;
  pos->sq[pid] = (uint8_t)sq;
  pos->occ |= xq__sq_bb[sq];
  pos->occ_t |= xq__sq_bb_t[sq];
  pos->color[color] |= xq__sq_bb[sq];
  pos->color_t[color] |= xq__sq_bb_t[sq];
  pos->kind[color][kind] |= xq__sq_bb[sq];
  pos->key ^= xq__zobrist[color][kind][sq];
  return XQ_OK;
}

void xq_pos_startpos(xq_pos *pos)
{
  static const uint8_t back[9] = {XQ_ROOK, XQ_HORSE, XQ_ELEPHANT, XQ_ADVISOR,
                                  XQ_KING, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE,
                                  XQ_ROOK};
  xq_pos_clear(pos);
  for (int c = 0; c < 2; c++) {
    int r0 = c == XQ_RED ? 0 : 9, r2 = c == XQ_RED ? 2 : 7, r3 = c == XQ_RED ? 3 : 6;
    for (int f = 0; f < 9; f++) xq_pos_put(pos, XQ_SQ(f, r0), (xq_color)c, (xq_kind)back[f]);
    xq_pos_put(pos, XQ_SQ(1, r2), (xq_color)c, XQ_CANNON);
    xq_pos_put(pos, XQ_SQ(7, r2), (xq_color)c, XQ_CANNON);
    for (int f = 0; f < 9; f += 2) xq_pos_put(pos, XQ_SQ(f, r3), (xq_color)c, XQ_PAWN);
  }
}

uint64_t xq_pos_key_full(const xq_pos *pos)
{
  uint64_t k = pos->side == XQ_BLACK ? xq__zobrist_side : 0;
  for (int pid = 0; pid < XQ_PIDS; pid++)
    if (pos->sq[pid] != XQ_NO_SQ)
      k ^= xq__zobrist[XQ_PID_COLOR(pid)][xq__pid_kind[pid]][pos->sq[pid]];
  return k;
}

void xq_make(xq_pos *pos, xq_move m, xq_undo *u)
{
  int from = XQ_FROM(m), to = XQ_TO(m);
  int pid = pos->board[from], cap = pos->board[to];
  int us = XQ_PID_COLOR(pid), kind = xq__pid_kind[pid];
  xq_bb fb = xq__sq_bb[from], tb = xq__sq_bb[to];
  xq_bb fbt = xq__sq_bb_t[from], tbt = xq__sq_bb_t[to];
  uint64_t key = pos->key ^ xq__zobrist_side ^ xq__zobrist[us][kind][from] ^
                 xq__zobrist[us][kind][to];

  u->key = pos->key;
  u->halfmove = pos->halfmove;
  u->captured = (uint8_t)cap;
  if (cap != XQ_NO_PID) {
    int them = us ^ 1, ck = xq__pid_kind[cap];
    pos->color[them] ^= tb;
    pos->color_t[them] ^= tbt;
    pos->kind[them][ck] ^= tb;
    pos->sq[cap] = XQ_NO_SQ;
    key ^= xq__zobrist[them][ck][to];
    pos->occ ^= fb; /* `to` stays occupied */
    pos->occ_t ^= fbt;
    pos->halfmove = 0;
  } else {
    pos->occ ^= fb | tb;
    pos->occ_t ^= fbt | tbt;
    pos->halfmove++;
  }
  pos->color[us] ^= fb | tb;
  pos->color_t[us] ^= fbt | tbt;
  pos->kind[us][kind] ^= fb | tb;
  pos->board[from] = XQ_NO_PID;
  pos->board[to] = (uint8_t)pid;
  pos->sq[pid] = (uint8_t)to;
  pos->key = key;
  pos->side = (uint8_t)(us ^ 1);
  pos->fullmove += (uint16_t)us; /* +1 after Black's move */
}

void xq_unmake(xq_pos *pos, xq_move m, const xq_undo *u)
{
  int from = XQ_FROM(m), to = XQ_TO(m);
  int pid = pos->board[to], cap = u->captured;
  int us = XQ_PID_COLOR(pid), kind = xq__pid_kind[pid];
  xq_bb fb = xq__sq_bb[from], tb = xq__sq_bb[to];
  xq_bb fbt = xq__sq_bb_t[from], tbt = xq__sq_bb_t[to];

  pos->color[us] ^= fb | tb;
  pos->color_t[us] ^= fbt | tbt;
  pos->kind[us][kind] ^= fb | tb;
  pos->board[from] = (uint8_t)pid;
  pos->sq[pid] = (uint8_t)from;
  if (cap != XQ_NO_PID) {
    int them = us ^ 1, ck = xq__pid_kind[cap];
    pos->color[them] ^= tb;
    pos->color_t[them] ^= tbt;
    pos->kind[them][ck] ^= tb;
    pos->sq[cap] = (uint8_t)to;
    pos->board[to] = (uint8_t)cap;
    pos->occ ^= fb;
    pos->occ_t ^= fbt;
  } else {
    pos->board[to] = XQ_NO_PID;
    pos->occ ^= fb | tb;
    pos->occ_t ^= fbt | tbt;
  }
  pos->key = u->key;
  pos->halfmove = u->halfmove;
  pos->side = (uint8_t)us;
  pos->fullmove -= (uint16_t)us;
}
