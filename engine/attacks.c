/*
 * attacks.c -- is a point attacked, is a general in check, what does a
 * piece attack. Tests run on a hypothetical occupancy so that a move can be
 * checked for legality without playing it.
 */
#include "engine_internal.h"

int xq__attacks_occ(const xq_pos *pos, int sq, int by, xq_bb occ,
                    xq_bb occ_t, int ignore)
{
  int f = XQ_FILE(sq), r = XQ_RANK(sq);
  unsigned orank = xq__engine_rank_bits(occ, r), ofile = xq__engine_file_bits(occ_t, f);
  const uint8_t *at = pos->sq + (by << 4);

  /* Pawns: a fixed pattern, no blocking. */
  xq_bb pawns = pos->kind[by][XQ_PAWN];
  if (ignore != XQ_NO_SQ) pawns &= ~xq__sq_bb[ignore];
  if (pawns & xq__pawn_from[by][sq]) return 1;

  /* Horses: attack when the leg next to the horse is empty. */
  for (int i = 5; i < 7; i++) {
    int h = at[i];
    if (h == XQ_NO_SQ || h == ignore) continue;
    int leg = xq__horse_leg_for[h][sq];
    if (leg != XQ_NO_SQ && !(occ & xq__sq_bb[leg])) return 1;
  }

  /* Rooks, cannons and the facing general all move along the line. */
  for (int i = 7; i < 11; i++) {
    int s = at[i];
    if (s == XQ_NO_SQ || s == ignore) continue;
    int cannon = i >= 9;
    if (XQ_RANK(s) == r) {
      unsigned reach = cannon ? xq__rank_cannon[f][orank] : xq__rank_rook[f][orank];
      if (reach & (1u << XQ_FILE(s))) return 1;
    } else if (XQ_FILE(s) == f) {
      unsigned reach = cannon ? xq__file_cannon[r][ofile] : xq__file_rook[r][ofile];
      if (reach & (1u << XQ_RANK(s))) return 1;
    }
  }
  int k = at[0];
  if (k != XQ_NO_SQ && XQ_FILE(k) == f && (xq__file_rook[r][ofile] & (1u << XQ_RANK(k))))
    return 1;
  return 0;
}

int xq__attacks_safe_after(const xq_pos *pos, int from, int to)
{
  int us = pos->side;
  xq_bb occ = (pos->occ & ~xq__sq_bb[from]) | xq__sq_bb[to];
  xq_bb occ_t = (pos->occ_t & ~xq__sq_bb_t[from]) | xq__sq_bb_t[to];
  int ksq = pos->board[from] == XQ__KING_PID(us) ? to : pos->sq[XQ__KING_PID(us)];
  return !xq__attacks_occ(pos, ksq, us ^ 1, occ, occ_t, to);
}

int xq_attacked(const xq_pos *pos, int sq, xq_color by)
{
  if (xq__attacks_occ(pos, sq, by, pos->occ, pos->occ_t, XQ_NO_SQ)) return 1;
  /* Pieces that can never reach the enemy general but guard other points. */
  const uint8_t *at = pos->sq + (by << 4);
  if (at[0] != XQ_NO_SQ && (xq__king_bb[at[0]] & xq__sq_bb[sq])) return 1;
  for (int i = 1; i < 3; i++)
    if (at[i] != XQ_NO_SQ && (xq__advisor_bb[at[i]] & xq__sq_bb[sq])) return 1;
  for (int i = 3; i < 5; i++) {
    int e = at[i];
    if (e == XQ_NO_SQ) continue;
    for (int d = 0; d < 4; d++)
      if (xq__elephant_to[e][d] == sq && !(pos->occ & xq__sq_bb[xq__elephant_eye[e][d]]))
        return 1;
  }
  return 0;
}

int xq_in_check(const xq_pos *pos, xq_color color)
{
  int k = pos->sq[XQ__KING_PID(color)];
  if (k == XQ_NO_SQ) return 0;
  return xq__attacks_occ(pos, k, color ^ 1, pos->occ, pos->occ_t, XQ_NO_SQ);
}

/* Points reached along a rank and a file from sq with the given line
 * tables, as a board. */
static xq_bb line_reach(const xq_pos *pos, int sq, int cannon)
{
  int f = XQ_FILE(sq), r = XQ_RANK(sq);
  unsigned rk = (cannon ? xq__rank_cannon : xq__rank_rook)[f][xq__engine_rank_bits(pos->occ, r)];
  unsigned fl = (cannon ? xq__file_cannon : xq__file_rook)[r][xq__engine_file_bits(pos->occ_t, f)];
  xq_bb b = (xq_bb)rk << (9 * r);
  while (fl) {
    int rr = __builtin_ctz(fl);
    fl &= fl - 1;
    b |= xq__sq_bb[XQ_SQ(f, rr)];
  }
  return b;
}

xq_bb xq_attacks_from(const xq_pos *pos, int sq)
{
  if (!pos || sq < 0 || sq >= XQ_SQUARES) return 0;
  int pid = pos->board[sq];
  if (pid == XQ_NO_PID) return 0;
  int c = XQ_PID_COLOR(pid);
  switch (xq__pid_kind[pid]) {
  case XQ_KING:
    return xq__king_bb[sq];
  case XQ_ADVISOR:
    return xq__advisor_bb[sq];
  case XQ_ELEPHANT:
    return xq__engine_elephant_reach(pos, sq);
  case XQ_HORSE:
    return xq__engine_horse_reach(pos, sq);
  case XQ_ROOK:
    return line_reach(pos, sq, 0);
  case XQ_CANNON:
    return line_reach(pos, sq, 1);
  case XQ_PAWN:
    return xq__pawn_bb[c][sq];
  }
  return 0;
}
