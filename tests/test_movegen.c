/*
 * test_movegen.c -- the move generator against an independent, deliberately
 * naive one (a 9x10 array, every rule spelled out), on random playouts;
 * make/unmake and Zobrist consistency; piece identity; single-rule cases;
 * the random stream.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* ---- the naive reference ------------------------------------------ */

/* cell: 0 empty, else (colour << 3) | kind */
typedef struct naive {
  int cell[10][9];
  int side;
} naive;

static void to_naive(const xq_pos *p, naive *n)
{
  for (int r = 0; r < 10; r++)
    for (int f = 0; f < 9; f++) {
      xq_color c;
      xq_kind k = xq_piece_at(p, XQ_SQ(f, r), &c);
      n->cell[r][f] = k == XQ_NONE ? 0 : (int)(c << 3 | k);
    }
  n->side = p->side;
}

static int on(int f, int r) { return f >= 0 && f < 9 && r >= 0 && r < 10; }
static int palace(int c, int f, int r)
{
  return f >= 3 && f <= 5 && (c == 0 ? r <= 2 : r >= 7);
}
static int color_of(int cell) { return cell >> 3; }
static int kind_of(int cell) { return cell & 7; }

/* Can the piece on (f,r) move to (tf,tr) by its own rules, ignoring the
 * safety of its general? Target must be empty or an enemy. */
static int naive_reach(const naive *n, int f, int r, int tf, int tr)
{
  int me = n->cell[r][f], c = color_of(me), t = n->cell[tr][tf];
  int df = tf - f, dr = tr - r, adf = abs(df), adr = abs(dr);
  if (!on(tf, tr) || (df == 0 && dr == 0)) return 0;
  if (t && color_of(t) == c) return 0;
  switch (kind_of(me)) {
  case XQ_KING:
    return adf + adr == 1 && palace(c, tf, tr);
  case XQ_ADVISOR:
    return adf == 1 && adr == 1 && palace(c, tf, tr);
  case XQ_ELEPHANT:
    return adf == 2 && adr == 2 && !n->cell[r + dr / 2][f + df / 2] &&
           (c == 0 ? tr <= 4 : tr >= 5);
  case XQ_HORSE:
    if (adf == 1 && adr == 2) return !n->cell[r + dr / 2][f];
    if (adf == 2 && adr == 1) return !n->cell[r][f + df / 2];
    return 0;
  case XQ_ROOK:
  case XQ_CANNON: {
    if (df && dr) return 0;
    int sf = df > 0 ? 1 : df < 0 ? -1 : 0, sr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
    int between = 0;
    for (int x = f + sf, y = r + sr; on(x, y) && (x != tf || y != tr); x += sf, y += sr)
      between += n->cell[y][x] != 0;
    if (kind_of(me) == XQ_ROOK) return between == 0;
    return t ? between == 1 : between == 0;
  }
  case XQ_PAWN: {
    int fwd = c == 0 ? 1 : -1;
    int crossed = c == 0 ? r >= 5 : r <= 4;
    if (df == 0 && dr == fwd) return 1;
    return crossed && dr == 0 && adf == 1;
  }
  }
  return 0;
}

/* Is the general of colour c attacked, the facing generals included? */
static int naive_in_check(const naive *n, int c)
{
  int kf = -1, kr = -1, ef = -1, er = -1;
  for (int r = 0; r < 10; r++)
    for (int f = 0; f < 9; f++) {
      int x = n->cell[r][f];
      if (x && kind_of(x) == XQ_KING) {
        if (color_of(x) == c) kf = f, kr = r;
        else ef = f, er = r;
      }
    }
  if (kf < 0) return 0;
  if (ef == kf) {
    int blocked = 0;
    for (int r = (er < kr ? er : kr) + 1; r < (er < kr ? kr : er); r++) blocked |= n->cell[r][kf] != 0;
    if (!blocked) return 1;
  }
  for (int r = 0; r < 10; r++)
    for (int f = 0; f < 9; f++) {
      int x = n->cell[r][f];
      if (x && color_of(x) != c && kind_of(x) != XQ_KING && naive_reach(n, f, r, kf, kr))
        return 1;
    }
  return 0;
}

/* All legal moves, sorted. */
static int naive_legal(const naive *n, xq_move *out)
{
  int k = 0;
  for (int r = 0; r < 10; r++)
    for (int f = 0; f < 9; f++) {
      int x = n->cell[r][f];
      if (!x || color_of(x) != n->side) continue;
      for (int tr = 0; tr < 10; tr++)
        for (int tf = 0; tf < 9; tf++) {
          if (!naive_reach(n, f, r, tf, tr)) continue;
          naive m = *n;
          m.cell[tr][tf] = x;
          m.cell[r][f] = 0;
          if (!naive_in_check(&m, n->side)) out[k++] = XQ_MOVE(XQ_SQ(f, r), XQ_SQ(tf, tr));
        }
    }
  return k;
}

static int cmp_move(const void *a, const void *b)
{
  return (int)*(const xq_move *)a - (int)*(const xq_move *)b;
}

/* xq_gen_legal, xq_count_legal and xq_is_legal agree with the reference. */
static void check_against_naive(const xq_pos *p)
{
  naive n;
  xq_move want[256];
  xq_movelist got;
  char fen[XQ_FEN_MAX];

  to_naive(p, &n);
  int nw = naive_legal(&n, want);
  xq_gen_legal(p, &got);
  xq_fen_format(p, fen, sizeof fen);
  cr_assert_eq(got.n, nw, "%s: %d legal moves, reference has %d", fen, got.n, nw);
  cr_assert_eq(xq_count_legal(p), nw, "%s: count %d, reference %d", fen, xq_count_legal(p), nw);
  qsort(want, (size_t)nw, sizeof want[0], cmp_move);
  qsort(got.m, (size_t)got.n, sizeof got.m[0], cmp_move);
  for (int i = 0; i < nw; i++) {
    cr_assert_eq(got.m[i], want[i], "%s: move lists differ", fen);
    cr_assert(xq_is_legal(p, want[i]), "%s: is_legal refuses a legal move", fen);
  }
  cr_assert_eq(xq_in_check(p, (xq_color)p->side), naive_in_check(&n, p->side), "%s: in_check", fen);
}

/* xq_is_pseudo_legal agrees with the reference's piece rules on every
 * (own piece, point) pair. */
static void check_pseudo_against_naive(const xq_pos *p)
{
  naive n;
  to_naive(p, &n);
  for (int from = 0; from < XQ_SQUARES; from++) {
    int x = n.cell[XQ_RANK(from)][XQ_FILE(from)];
    for (int to = 0; to < XQ_SQUARES; to++) {
      int want = x && color_of(x) == p->side &&
                 naive_reach(&n, XQ_FILE(from), XQ_RANK(from), XQ_FILE(to), XQ_RANK(to));
      cr_assert_eq(xq_is_pseudo_legal(p, XQ_MOVE(from, to)), want, "pseudo-legal %d-%d", from, to);
    }
  }
}

static uint64_t rng_state = 0x1234567;
static unsigned rnd(unsigned n)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned)(rng_state % n);
}

/* Random games from `fen`: every position checked against the reference,
 * every make checked against the from-scratch key, every unmake against
 * the position before. */
static void playouts(const char *fen, int games, int plies)
{
  for (int g = 0; g < games; g++) {
    xq_pos p, before;
    xq_error err;
    cr_assert_eq(xq_fen_parse(&p, fen, 0, &err), XQ_OK, "%s: %s", fen, err.msg);
    for (int ply = 0; ply < plies; ply++) {
      xq_movelist l;
      xq_undo u;
      check_against_naive(&p);
      if (ply % 8 == 0) check_pseudo_against_naive(&p);
      xq_gen_legal(&p, &l);
      if (!l.n) break;
      xq_move m = l.m[rnd((unsigned)l.n)];
      int gives = xq_gives_check(&p, m);
      before = p;
      xq_make(&p, m, &u);
      cr_assert_eq(p.key, xq_pos_key_full(&p), "incremental key differs");
      cr_assert_eq(gives, xq_in_check(&p, (xq_color)p.side), "gives_check differs");
      xq_unmake(&p, m, &u);
      cr_assert(!memcmp(&p, &before, sizeof p), "unmake does not restore the position");
      xq_make(&p, m, &u);
    }
  }
}

Test(movegen, random_playouts_from_start)
{
  playouts(XQ_START_FEN, 60, 200);
}

Test(movegen, random_playouts_from_suite_positions)
{
  static const char *fens[] = {
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "3k1a3/2P1aP3/4b1n2/8C/6b2/1R5R1/9/9/1rcpr4/3c1K3 w - - 0 1",
    "5k3/9/4c4/6N2/9/R3p4/9/9/9/3AK4 w - - 0 1",
    "4k4/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1",
  };
  for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) playouts(fens[i], 15, 150);
}

/* ---- single rules -------------------------------------------------- */

static int count_fen(const char *fen)
{
  xq_pos p;
  xq_error err;
  cr_assert_eq(xq_fen_parse(&p, fen, 0, &err), XQ_OK, "%s: %s", fen, err.msg);
  check_against_naive(&p);
  return xq_count_legal(&p);
}

static int legal_fen(const char *fen, const char *move)
{
  xq_pos p;
  xq_error err;
  cr_assert_eq(xq_fen_parse(&p, fen, 0, &err), XQ_OK, "%s: %s", fen, err.msg);
  int from = XQ_SQ(move[0] - 'a', move[1] - '0'), to = XQ_SQ(move[2] - 'a', move[3] - '0');
  return xq_is_legal(&p, XQ_MOVE(from, to));
}

Test(rules, flying_general_pins_the_lone_blocker)
{
  /* The red cannon e3 is the only piece between the generals: it may move
   * along the file but never leave it. */
  const char *fen = "4k4/9/9/9/9/9/4C4/9/9/4K4 w - - 0 1";
  cr_assert(legal_fen(fen, "e3e8"));
  cr_assert(!legal_fen(fen, "e3d3"));
  /* The general may not step onto an open file facing the other. */
  cr_assert(!legal_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0d0"));
  cr_assert(legal_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0e1"));
}

Test(rules, cannon_needs_exactly_one_screen)
{
  /* Red cannon e2 with its screen on e5: it captures the black horse on
   * e7, cannot reach the rook on e8 beyond a second piece, and cannot
   * jump to an empty point. */
  const char *fen = "3k5/4r4/4n4/9/4P4/9/9/4C4/9/5K3 w - - 0 1";
  cr_assert(!legal_fen(fen, "e2e8"));
  cr_assert(legal_fen(fen, "e2e7"));
  cr_assert(!legal_fen(fen, "e2e6"));
  cr_assert(legal_fen(fen, "e2e3"));
}

Test(rules, moving_onto_an_open_cannon_line_screens_it)
{
  /* Black cannon e7 faces the red general e0 with nothing between: any red
   * piece stepping onto e1..e6 becomes its screen. */
  const char *fen = "3k5/9/4c4/9/9/9/9/9/R8/4K4 w - - 0 1";
  cr_assert(!legal_fen(fen, "a1e1"));
  cr_assert(legal_fen(fen, "a1a2"));
  /* Rook: 8 along rank 1 less e1, 9 along file a; general: e1 and f0
   * (d0 faces the black general). */
  cr_assert_eq(count_fen(fen), 7 + 9 + 2);
}

Test(rules, one_of_two_screens_may_not_leave)
{
  /* Red horse e2 and red pawn e4 stand between the black cannon e7 and
   * the red general e0: either leaving the file gives check. */
  const char *fen = "3k5/9/4c4/9/9/4P4/9/4N4/9/4K4 w - - 0 1";
  cr_assert(!legal_fen(fen, "e2d4"));
  cr_assert(!legal_fen(fen, "e2f4"));
  cr_assert(legal_fen(fen, "e4e5"));
  count_fen(fen);
}

Test(rules, horse_leg_and_elephant_eye)
{
  /* Red horse b0 with its leg b1 blocked cannot go to a2 or c2. */
  cr_assert(!legal_fen("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w - - 0 1", "b0c2"));
  cr_assert(legal_fen("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w - - 0 1", "b0d1"));
  /* Elephant c0 with its eye d1 blocked cannot reach e2. */
  cr_assert(!legal_fen("5k3/9/9/9/9/9/9/9/3R5/2B1K4 w - - 0 1", "c0e2"));
  cr_assert(legal_fen("5k3/9/9/9/9/9/9/9/3R5/2B1K4 w - - 0 1", "c0a2"));
  /* Elephants never cross the river. */
  cr_assert(!legal_fen("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1", "c4e6"));
}

Test(rules, horse_leg_blocker_is_pinned)
{
  /* The black horse d2 would attack the red general e0 through its leg
   * d1, where a red rook stands: the rook may only take the horse. */
  const char *fen = "5k3/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1";
  cr_assert(!legal_fen(fen, "d1a1"));
  cr_assert(!legal_fen(fen, "d1d0"));
  cr_assert(legal_fen(fen, "d1d2"));
  count_fen(fen);
}

Test(rules, pawn_moves_sideways_only_after_the_river)
{
  cr_assert(!legal_fen("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1", "e3d3"));
  cr_assert(legal_fen("3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", "e5d5"));
  cr_assert(!legal_fen("3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", "e5e4"));
}

Test(rules, stalemate_and_mate_have_no_moves)
{
  /* In check from the rook on d8, the black general can only take it
   * (e9 faces the red general). */
  cr_assert_eq(count_fen("3k5/3R5/9/9/9/9/9/9/9/4K4 b - - 0 1"), 1);
  /* Mate: the pawn e7 guards the rook on e8, d9 faces the red general and
   * the horse g7 covers f9. */
  cr_assert_eq(count_fen("4k4/4R4/4P1N2/9/9/9/9/9/9/3K5 b - - 0 1"), 0);
}

Test(identity, piece_ids_follow_the_piece)
{
  xq_pos p;
  xq_undo u1, u2;
  xq_pos_startpos(&p);
  int cannon = p.board[XQ_SQ(7, 2)];
  cr_assert_eq(xq_pid_kind(cannon), XQ_CANNON);
  xq_make(&p, XQ_MOVE(XQ_SQ(7, 2), XQ_SQ(4, 2)), &u1);
  cr_assert_eq(p.board[XQ_SQ(4, 2)], cannon);
  cr_assert_eq(p.sq[cannon], XQ_SQ(4, 2));
  xq_make(&p, XQ_MOVE(XQ_SQ(7, 7), XQ_SQ(4, 7)), &u2);
  /* Red's cannon takes the pawn e6: the pawn's id leaves the board. */
  int pawn = p.board[XQ_SQ(4, 6)];
  xq_undo u3;
  xq_make(&p, XQ_MOVE(XQ_SQ(4, 2), XQ_SQ(4, 6)), &u3);
  cr_assert_eq(p.sq[pawn], XQ_NO_SQ);
  cr_assert_eq(p.sq[cannon], XQ_SQ(4, 6));
  xq_unmake(&p, XQ_MOVE(XQ_SQ(4, 2), XQ_SQ(4, 6)), &u3);
  cr_assert_eq(p.sq[pawn], XQ_SQ(4, 6));
}

Test(identity, is_legal_rejects_every_malformed_value)
{
  xq_pos p;
  xq_movelist l;
  int legal = 0;
  xq_pos_startpos(&p);
  xq_gen_legal(&p, &l);
  for (unsigned v = 0; v < 65536; v++) legal += xq_is_legal(&p, (xq_move)v);
  cr_assert_eq(legal, l.n);
}

/* Every choice that must repeat (Zobrist keys, lots, simulations) rests on
 * this exact sequence: splitmix64's published values from seed 0. */
Test(random, the_stream_is_splitmix64)
{
  uint64_t s = 0;
  cr_assert_eq(xq_random_next(&s), 0xE220A8397B1DCDAFull);
  cr_assert_eq(xq_random_next(&s), 0x6E789E6AA1B965F4ull);
  cr_assert_eq(xq_random_next(&s), 0x06C45D188009454Full);
  cr_assert_eq(s, 3 * 0x9E3779B97F4A7C15ull, "the state advances by the golden gamma");
}
