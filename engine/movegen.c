/*
 * movegen.c -- legal moves: listing, counting and testing.
 *
 * Legality without playing each move. Before generating, one look from the
 * mover's general along its rank and file and at the enemy horses finds:
 *
 *   checks   the number of pieces giving check;
 *   special  our pieces that a move could uncover the general behind: the
 *            lone blocker of a rook or facing-general line, either of the
 *            two pieces between a cannon and the general (moving one off
 *            the line leaves a single screen), and a piece on the leg of a
 *            horse that would otherwise attack the general;
 *   noland   the empty points between an enemy cannon and the general when
 *            nothing stands between them: a piece landing there becomes
 *            the cannon's screen.
 *
 * When not in check, every move of a piece outside `special` is legal
 * unless it lands on `noland` -- removing one piece from a line that still
 * has a blocker, or adding one, can uncover nothing else. Moves of the
 * general and of `special` pieces, and all moves in check, are tested one
 * by one with xq__attacks_safe_after. Leaf counts (perft) then reduce to popcounts
 * of small line masks.
 */
#include "engine_internal.h"

typedef struct safety {
  xq_bb special;
  xq_bb noland;   /* rank-major */
  xq_bb noland_t; /* the same points, file-major */
  int checks;
} safety;

static void find_safety(const xq_pos *p, safety *s)
{
  int us = p->side, them = us ^ 1;
  int k = p->sq[XQ__KING_PID(us)];
  const uint8_t *at = p->sq + (them << 4);

  s->special = s->noland = s->noland_t = 0;
  s->checks = 0;
  if (k == XQ_NO_SQ) return; /* only in unvalidated positions */
  int kf = XQ_FILE(k), kr = XQ_RANK(k);
  unsigned orank = xq__engine_rank_bits(p->occ, kr), ofile = xq__engine_file_bits(p->occ_t, kf);
  xq_bb own = p->color[us];

  s->checks = xq__engine_popcount(p->kind[them][XQ_PAWN] & xq__pawn_from[them][k]);
  for (int i = 5; i < 7; i++) {
    int h = at[i];
    if (h == XQ_NO_SQ) continue;
    int leg = xq__horse_leg_for[h][k];
    if (leg == XQ_NO_SQ) continue;
    if (!(p->occ & xq__sq_bb[leg])) s->checks++;
    else s->special |= own & xq__sq_bb[leg];
  }
  /* Rooks (7, 8), cannons (9, 10), and the enemy general (0) on the file. */
  static const uint8_t sliders[5] = {0, 7, 8, 9, 10};
  for (int j = 0; j < 5; j++) {
    int i = sliders[j], a = at[i];
    if (a == XQ_NO_SQ) continue;
    unsigned btw;
    xq_bb pts = 0;
    if (XQ_RANK(a) == kr && i != 0) {
      unsigned line = xq__between9[XQ_FILE(a)][kf];
      btw = line & orank;
      if (i >= 9 && !btw) {
        s->noland |= (xq_bb)line << (9 * kr);
        for (unsigned l = line; l; l &= l - 1) s->noland_t |= xq__sq_bb_t[kr * 9 + __builtin_ctz(l)];
      }
      pts = (xq_bb)btw << (9 * kr);
    } else if (XQ_FILE(a) == kf) {
      unsigned line = xq__between10[XQ_RANK(a)][kr];
      btw = line & ofile;
      if (i >= 9 && !btw) {
        s->noland_t |= (xq_bb)line << (10 * kf);
        for (unsigned l = line; l; l &= l - 1) s->noland |= xq__sq_bb[__builtin_ctz(l) * 9 + kf];
      }
      for (unsigned b = btw; b; b &= b - 1) pts |= xq__sq_bb[__builtin_ctz(b) * 9 + kf];
    } else {
      continue;
    }
    int n = __builtin_popcount(btw);
    if (i >= 9) {
      if (n == 1) s->checks++;
      else if (n == 2) s->special |= pts & own;
    } else {
      if (n == 0) s->checks++;
      else if (n == 1) s->special |= pts & own;
    }
  }
}

/* Pseudo-legal moves of piece `pid` on `sq` that do not land on `avoid`
 * (given in both layouts), written to out[]; returns how many. */
static int gen_piece(const xq_pos *p, int pid, int sq, xq_bb avoid, xq_bb avoid_t,
                     xq_move *out)
{
  int n = 0, f = XQ_FILE(sq), r = XQ_RANK(sq);
  int us = XQ_PID_COLOR(pid);
  xq_bb t;
  switch (xq__pid_kind[pid]) {
  case XQ_KING:
    t = xq__king_bb[sq] & ~avoid;
    break;
  case XQ_ADVISOR:
    t = xq__advisor_bb[sq] & ~avoid;
    break;
  case XQ_PAWN:
    t = xq__pawn_bb[us][sq] & ~avoid;
    break;
  case XQ_ELEPHANT:
    t = xq__engine_elephant_reach(p, sq) & ~avoid;
    break;
  case XQ_HORSE:
    t = xq__engine_horse_reach(p, sq) & ~avoid;
    break;
  default: { /* rook, cannon */
    unsigned orank = xq__engine_rank_bits(p->occ, r), ofile = xq__engine_file_bits(p->occ_t, f);
    unsigned arank = xq__engine_rank_bits(avoid, r), afile = xq__engine_file_bits(avoid_t, f);
    unsigned mr, mf;
    if (xq__pid_kind[pid] == XQ_ROOK) {
      mr = xq__rank_rook[f][orank] & ~arank;
      mf = xq__file_rook[r][ofile] & ~afile;
    } else {
      mr = (xq__rank_rook[f][orank] & ~orank & ~arank) | (xq__rank_cannon[f][orank] & ~arank);
      mf = (xq__file_rook[r][ofile] & ~ofile & ~afile) | (xq__file_cannon[r][ofile] & ~afile);
    }
    for (; mr; mr &= mr - 1) out[n++] = XQ_MOVE(sq, r * 9 + __builtin_ctz(mr));
    for (; mf; mf &= mf - 1) out[n++] = XQ_MOVE(sq, __builtin_ctz(mf) * 9 + f);
    return n;
  }
  }
  while (t) out[n++] = XQ_MOVE(sq, xq__engine_pop_lsb(&t));
  return n;
}

/* Keep only the moves of out[0..n) that leave the general safe. */
static int filter_safe(const xq_pos *p, xq_move *out, int n)
{
  int k = 0;
  for (int i = 0; i < n; i++)
    if (xq__attacks_safe_after(p, XQ_FROM(out[i]), XQ_TO(out[i]))) out[k++] = out[i];
  return k;
}

void xq_gen_legal(const xq_pos *p, xq_movelist *list)
{
  safety s;
  int us = p->side, base = us << 4, n = 0;
  xq_bb own = p->color[us], own_t = p->color_t[us];
  xq_move *out = list->m;

  find_safety(p, &s);
  for (int i = 0; i < 16; i++) {
    int sq = p->sq[base + i];
    if (sq == XQ_NO_SQ) continue;
    if (s.checks || i == 0 || (s.special & xq__sq_bb[sq])) {
      int m = gen_piece(p, base + i, sq, own, own_t, out + n);
      n += filter_safe(p, out + n, m);
    } else {
      n += gen_piece(p, base + i, sq, own | s.noland, own_t | s.noland_t, out + n);
    }
  }
  list->n = n;
}

/* Legal moves of the special pieces and the general: each one tested. */
static int count_tested(const xq_pos *p, xq_bb pieces)
{
  xq_move tmp[XQ_MAX_MOVES];
  int us = p->side, n = 0;
  while (pieces) {
    int sq = xq__engine_pop_lsb(&pieces);
    int m = gen_piece(p, p->board[sq], sq, p->color[us], p->color_t[us], tmp);
    n += filter_safe(p, tmp, m);
  }
  return n;
}

int xq_count_legal(const xq_pos *p)
{
  safety s;
  int us = p->side, n;
  const uint8_t *at = p->sq + (us << 4);

  find_safety(p, &s);
  if (s.checks) {
    xq_movelist l;
    xq_gen_legal(p, &l);
    return l.n;
  }
  xq_bb avoid = p->color[us] | s.noland;
  xq_bb avoid_t = p->color_t[us] | s.noland_t;
  xq_bb them = p->color[us ^ 1], them_t = p->color_t[us ^ 1];
  xq_bb tested = s.special;
  if (at[0] != XQ_NO_SQ) tested |= xq__sq_bb[at[0]];
  n = count_tested(p, tested);

  /* Pawns in bulk: forward, and sideways once across the river. */
  xq_bb pawns = p->kind[us][XQ_PAWN] & ~tested;
  xq_bb fwd = us == XQ_RED ? pawns << 9 : pawns >> 9;
  xq_bb crossed = pawns & xq__crossed_bb[us];
  n += xq__engine_popcount(fwd & xq__board_bb & ~avoid) +
       xq__engine_popcount(((crossed & ~xq__file_a_bb) >> 1) & ~avoid) +
       xq__engine_popcount(((crossed & ~xq__file_i_bb) << 1) & ~avoid);

  for (int i = 1; i < 11; i++) {
    int sq = at[i];
    if (sq == XQ_NO_SQ || (tested & xq__sq_bb[sq])) continue;
    int f = XQ_FILE(sq), r = XQ_RANK(sq);
    if (i < 3) {
      n += xq__engine_popcount(xq__advisor_bb[sq] & ~avoid);
    } else if (i < 5) {
      n += xq__engine_popcount(xq__engine_elephant_reach(p, sq) & ~avoid);
    } else if (i < 7) {
      n += xq__engine_popcount(xq__engine_horse_reach(p, sq) & ~avoid);
    } else {
      unsigned orank = xq__engine_rank_bits(p->occ, r), ofile = xq__engine_file_bits(p->occ_t, f);
      if (i < 9) {
        n += __builtin_popcount(xq__rank_rook[f][orank] & ~xq__engine_rank_bits(avoid, r)) +
             __builtin_popcount(xq__file_rook[r][ofile] & ~xq__engine_file_bits(avoid_t, f));
      } else { /* cannon: quiet moves like a rook, captures over a screen */
        n += __builtin_popcount(xq__rank_rook[f][orank] & ~orank &
                                ~xq__engine_rank_bits(s.noland, r)) +
             __builtin_popcount(xq__file_rook[r][ofile] & ~ofile &
                                ~xq__engine_file_bits(s.noland_t, f)) +
             __builtin_popcount(xq__rank_cannon[f][orank] & xq__engine_rank_bits(them, r)) +
             __builtin_popcount(xq__file_cannon[r][ofile] & xq__engine_file_bits(them_t, f));
      }
    }
  }
  return n;
}

int xq_is_pseudo_legal(const xq_pos *p, xq_move m)
{
  xq_move tmp[XQ_MAX_MOVES];
  if (!p || m == XQ_MOVE_NONE || (m >> 14)) return 0;
  int from = XQ_FROM(m), to = XQ_TO(m);
  if (from >= XQ_SQUARES || to >= XQ_SQUARES) return 0;
  int pid = p->board[from];
  if (pid == XQ_NO_PID || XQ_PID_COLOR(pid) != p->side) return 0;
  int k = gen_piece(p, pid, from, p->color[p->side], p->color_t[p->side], tmp);
  for (int i = 0; i < k; i++)
    if (tmp[i] == m) return 1;
  return 0;
}

int xq_is_legal(const xq_pos *p, xq_move m)
{
  return xq_is_pseudo_legal(p, m) && xq__attacks_safe_after(p, XQ_FROM(m), XQ_TO(m));
}

int xq_gives_check(const xq_pos *p, xq_move m)
{
  xq_pos q = *p;
  xq_undo u;
  xq_make(&q, m, &u);
  return xq_in_check(&q, (xq_color)q.side);
}
