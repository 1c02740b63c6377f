/*
 * tables.c -- geometry tables computed once at process start
 * (xq_engine_init): line tables for sliders, leg and eye tables for horses
 * and elephants, palace and pawn steps, Zobrist numbers.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine_internal.h"

xq_bb xq__sq_bb[XQ_SQUARES];
xq_bb xq__sq_bb_t[XQ_SQUARES];
uint16_t xq__rank_rook[9][512];
uint16_t xq__rank_cannon[9][512];
uint16_t xq__file_rook[10][1024];
uint16_t xq__file_cannon[10][1024];
uint16_t xq__between9[9][9];
uint16_t xq__between10[10][10];
uint8_t xq__horse_leg[XQ_SQUARES][4];
uint8_t xq__horse_to[XQ_SQUARES][4][2];
uint8_t xq__horse_leg_for[XQ_SQUARES][XQ_SQUARES];
uint8_t xq__elephant_eye[XQ_SQUARES][4];
uint8_t xq__elephant_to[XQ_SQUARES][4];
uint8_t xq__horse_block[XQ_SQUARES][4];
xq_bb xq__horse_moves[XQ_SQUARES][16];
uint8_t xq__elephant_block[XQ_SQUARES][4];
xq_bb xq__elephant_moves[XQ_SQUARES][16];
xq_bb xq__board_bb;
xq_bb xq__file_a_bb, xq__file_i_bb;
xq_bb xq__crossed_bb[2];
xq_bb xq__advisor_bb[XQ_SQUARES];
xq_bb xq__king_bb[XQ_SQUARES];
xq_bb xq__pawn_bb[2][XQ_SQUARES];
xq_bb xq__pawn_from[2][XQ_SQUARES];
uint64_t xq__zobrist[2][8][XQ_SQUARES];
uint64_t xq__zobrist_side;

const uint8_t xq__pid_kind[XQ_PIDS] = {
#define XQ__IDS XQ_KING, XQ_ADVISOR, XQ_ADVISOR, XQ_ELEPHANT, XQ_ELEPHANT, \
  XQ_HORSE, XQ_HORSE, XQ_ROOK, XQ_ROOK, XQ_CANNON, XQ_CANNON,              \
  XQ_PAWN, XQ_PAWN, XQ_PAWN, XQ_PAWN, XQ_PAWN
  XQ__IDS, XQ__IDS
#undef XQ__IDS
};
/*                                     -  K  A  B  N  R  C   P */
const uint8_t xq__kind_first[8] = {0, 0, 1, 3, 5, 7, 9, 11};
const uint8_t xq__kind_end[8] = {0, 1, 3, 5, 7, 9, 11, 16};

static int in_palace(int f, int r)
{
  return f >= 3 && f <= 5 && r >= 0 && r <= 9 && (r <= 2 || r >= 7);
}

static int on_board(int f, int r)
{
  return f >= 0 && f < 9 && r >= 0 && r < 10;
}

int xq__tables_on_board_for(int kind, int color, int sq)
{
  int f = XQ_FILE(sq), r = XQ_RANK(sq);
  int rr = color == XQ_RED ? r : 9 - r; /* rank from the owner's side */
  switch (kind) {
  case XQ_KING:
    return f >= 3 && f <= 5 && rr <= 2;
  case XQ_ADVISOR:
    return rr <= 2 && ((f == 4 && rr == 1) ||
                       ((f == 3 || f == 5) && (rr == 0 || rr == 2)));
  case XQ_ELEPHANT:
    return ((rr == 0 || rr == 4) && (f == 2 || f == 6)) ||
           (rr == 2 && (f == 0 || f == 4 || f == 8));
  case XQ_PAWN:
    /* Before the river a pawn stands on its start file or has not moved
     * yet; it can never go back, so ranks 0-2 are unreachable. */
    if (rr <= 2) return 0;
    if (rr <= 4) return f % 2 == 0;
    return 1;
  default:
    return 1;
  }
}

/* Points reachable by a rook on `pos` of a line of `n` points with
 * occupancy `occ`, and the cannon capture points. */
static void line_scan(int n, int pos, unsigned occ, uint16_t *rook,
                      uint16_t *cannon)
{
  unsigned rk = 0, cn = 0;
  for (int dir = -1; dir <= 1; dir += 2) {
    int i = pos + dir;
    for (; i >= 0 && i < n; i += dir) { /* rook: up to the first piece */
      rk |= 1u << i;
      if (occ & (1u << i)) break;
    }
    for (i += dir; i >= 0 && i < n; i += dir) { /* past the screen */
      if (occ & (1u << i)) {
        cn |= 1u << i;
        break;
      }
    }
  }
  *rook = (uint16_t)rk;
  *cannon = (uint16_t)cn;
}

static void tables_build(void)
{
  static const int orth[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
  static const int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

  for (int s = 0; s < XQ_SQUARES; s++) {
    xq__sq_bb[s] = XQ__ONE << s;
    xq__board_bb |= xq__sq_bb[s];
    if (XQ_FILE(s) == 0) xq__file_a_bb |= xq__sq_bb[s];
    if (XQ_FILE(s) == 8) xq__file_i_bb |= xq__sq_bb[s];
    xq__crossed_bb[XQ_RANK(s) >= 5 ? XQ_RED : XQ_BLACK] |= xq__sq_bb[s];
    xq__sq_bb_t[s] = XQ__ONE << (XQ_FILE(s) * 10 + XQ_RANK(s));
  }
  for (int f = 0; f < 9; f++)
    for (unsigned o = 0; o < 512; o++)
      line_scan(9, f, o, &xq__rank_rook[f][o], &xq__rank_cannon[f][o]);
  for (int r = 0; r < 10; r++)
    for (unsigned o = 0; o < 1024; o++)
      line_scan(10, r, o, &xq__file_rook[r][o], &xq__file_cannon[r][o]);
  for (int a = 0; a < 10; a++)
    for (int b = 0; b < 10; b++) {
      unsigned m = 0;
      for (int i = (a < b ? a : b) + 1; i < (a < b ? b : a); i++) m |= 1u << i;
      xq__between10[a][b] = (uint16_t)m;
      if (a < 9 && b < 9) xq__between9[a][b] = (uint16_t)m;
    }

  for (int s = 0; s < XQ_SQUARES; s++) {
    int f = XQ_FILE(s), r = XQ_RANK(s);
    for (int t = 0; t < XQ_SQUARES; t++) xq__horse_leg_for[s][t] = XQ_NO_SQ;
    /* Horse: one straight step (the leg), then one diagonal step outward. */
    for (int d = 0; d < 4; d++) {
      int lf = f + orth[d][0], lr = r + orth[d][1];
      xq__horse_leg[s][d] = XQ_NO_SQ;
      xq__horse_to[s][d][0] = xq__horse_to[s][d][1] = XQ_NO_SQ;
      if (!on_board(lf, lr)) continue;
      xq__horse_leg[s][d] = (uint8_t)XQ_SQ(lf, lr);
      for (int k = 0; k < 2; k++) {
        int side = k ? 1 : -1;
        int tf = lf + orth[d][0] + (orth[d][0] ? 0 : side);
        int tr = lr + orth[d][1] + (orth[d][1] ? 0 : side);
        if (!on_board(tf, tr)) continue;
        xq__horse_to[s][d][k] = (uint8_t)XQ_SQ(tf, tr);
        xq__horse_leg_for[s][XQ_SQ(tf, tr)] = (uint8_t)XQ_SQ(lf, lr);
      }
    }
    /* Elephant: two diagonal steps, the first (the eye) must be empty, and
     * it never crosses the river. */
    for (int d = 0; d < 4; d++) {
      int ef = f + diag[d][0], er = r + diag[d][1];
      int tf = f + 2 * diag[d][0], tr = r + 2 * diag[d][1];
      xq__elephant_eye[s][d] = xq__elephant_to[s][d] = XQ_NO_SQ;
      if (!on_board(tf, tr) || (r <= 4) != (tr <= 4)) continue;
      xq__elephant_eye[s][d] = (uint8_t)XQ_SQ(ef, er);
      xq__elephant_to[s][d] = (uint8_t)XQ_SQ(tf, tr);
    }
    for (int d = 0; d < 4; d++) {
      xq__horse_block[s][d] = xq__horse_leg[s][d] == XQ_NO_SQ ? (uint8_t)s : xq__horse_leg[s][d];
      xq__elephant_block[s][d] =
        xq__elephant_to[s][d] == XQ_NO_SQ ? (uint8_t)s : xq__elephant_eye[s][d];
    }
    for (unsigned idx = 0; idx < 16; idx++) {
      xq_bb hm = 0, em = 0;
      for (int d = 0; d < 4; d++) {
        if (idx & (1u << d)) continue;
        for (int k = 0; k < 2; k++)
          if (xq__horse_to[s][d][k] != XQ_NO_SQ) hm |= XQ__ONE << xq__horse_to[s][d][k];
        if (xq__elephant_to[s][d] != XQ_NO_SQ) em |= XQ__ONE << xq__elephant_to[s][d];
      }
      xq__horse_moves[s][idx] = hm;
      xq__elephant_moves[s][idx] = em;
    }
    xq__advisor_bb[s] = xq__king_bb[s] = 0;
    if (in_palace(f, r)) {
      for (int d = 0; d < 4; d++) {
        int af = f + diag[d][0], ar = r + diag[d][1];
        int kf = f + orth[d][0], kr = r + orth[d][1];
        /* Stay in the same palace: ranks 2 and 7 are its edges. */
        if (in_palace(af, ar) && (ar <= 2) == (r <= 2))
          xq__advisor_bb[s] |= XQ__ONE << XQ_SQ(af, ar);
        if (on_board(kf, kr) && in_palace(kf, kr) && (kr <= 2) == (r <= 2))
          xq__king_bb[s] |= XQ__ONE << XQ_SQ(kf, kr);
      }
    }
    /* Pawns: forward one; sideways too once across the river. */
    for (int c = 0; c < 2; c++) {
      int fwd = c == XQ_RED ? 1 : -1;
      int crossed = c == XQ_RED ? r >= 5 : r <= 4;
      xq_bb m = 0;
      if (on_board(f, r + fwd)) m |= XQ__ONE << XQ_SQ(f, r + fwd);
      if (crossed) {
        if (f > 0) m |= XQ__ONE << (s - 1);
        if (f < 8) m |= XQ__ONE << (s + 1);
      }
      xq__pawn_bb[c][s] = m;
    }
  }
  for (int c = 0; c < 2; c++)
    for (int s = 0; s < XQ_SQUARES; s++) {
      xq__pawn_from[c][s] = 0;
      for (int t = 0; t < XQ_SQUARES; t++)
        if (xq__pawn_bb[c][t] & xq__sq_bb[s])
          xq__pawn_from[c][s] |= xq__sq_bb[t];
    }

  uint64_t seed = 0x78717265662D3031ull; /* "xqref-01" */
  for (int c = 0; c < 2; c++)
    for (int k = 0; k < 8; k++)
      for (int s = 0; s < XQ_SQUARES; s++)
        xq__zobrist[c][k][s] = xq_random_next(&seed);
  xq__zobrist_side = xq_random_next(&seed);
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static atomic_int tables_ready; /* set once tables_build has returned */

static void tables_init_once(void)
{
  tables_build();
  atomic_store_explicit(&tables_ready, 1, memory_order_release);
}

void xq_engine_init(void)
{
  pthread_once(&tables_once, tables_init_once);
}

void xq__tables_require(void)
{
  if (atomic_load_explicit(&tables_ready, memory_order_acquire)) return;
  fputs("xqref: an engine call before xq_engine_init(): the engine's tables are empty\n", stderr);
  abort();
}
