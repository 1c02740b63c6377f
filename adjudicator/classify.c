/*
 * classify.c -- the character of one move (R6): 将 check, 杀 kill
 * (mate threat), 捉 chase or 闲 idle.
 *
 * AXF (R11) is mechanical: a chase is a new attack by a piece other than
 * the general or a pawn on a piece that can be taken with a legal capture
 * and cannot be retaken legally, or on a chariot by a horse or cannon.
 *
 * The CXA rule sets (R10) ask whether the move creates a threat to win
 * material next move: a static exchange with a legality check on every
 * capture, pieces valued 车 8, 马 炮 4, 士 相 2, pawns floating, a check
 * followed by a capture (抽吃), and a mate threat (杀) by a bounded search
 * for mate at once or by unbroken checks. Every search counts nodes
 * against rules->kill_search_nodes; running out makes the move
 * XQ_CLS_UNDECIDED.
 *
 * "New" is judged by sets: the threats of the mover in the position
 * before the move (as if it were to move there) against those after it
 * (as if the opponent passed). AXF keys a threat by (chaser, victim) piece
 * ids, CXA by the victim alone (从捉到捉 is 闲 whoever makes the threat).
 */
#include <string.h>

#include "adjudicator.h"
#include "repetition.h"

/* Search state of one classification. */
typedef struct budget {
  long nodes;
  long limit;
  int exhausted;
} budget;

/* 2011 棋例释义: 车 = 马+马 = 炮+炮 = 马+炮; 马 = 炮; 士 = 相. The general
 * can never be taken legally; its value only keeps it last in line. */
static const int piece_value[8] = {0, 100, 2, 2, 4, 8, 4, 1};

static int kind_of(int pid) { return (int)xq_pid_kind(pid); }

/* Lowest square of a non-empty board, removed from it. */
static int pop_sq(xq_bb *b)
{
  uint64_t lo = (uint64_t)*b;
  int sq = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(*b >> 64));
  *b &= *b - 1;
  return sq;
}

int xq__classify_is_cxa(const xq_rules *rules) { return rules->ruleset != XQ_RULESET_AXF; }

static int spend(budget *b)
{
  if (b->exhausted) return 0;
  if (++b->nodes > b->limit) {
    b->exhausted = 1;
    return 0;
  }
  return 1;
}

/* A pawn is 子力 only once across the river. */
static int crossed_pawn(int pid, int sq)
{
  int r = XQ_RANK(sq);
  return XQ_PID_COLOR(pid) == XQ_RED ? r >= 5 : r <= 4;
}

/* Victims of chases (AXF R11.2, CXA R10.3): not the general, not an
 * uncrossed pawn. */
static int is_material(const xq_pos *p, int pid)
{
  int k = kind_of(pid);
  if (k == XQ_KING) return 0;
  if (k == XQ_PAWN) return crossed_pawn(pid, p->sq[pid]);
  return 1;
}

/* `p` with `side` to move (the key is not updated: only legality and
 * attacks are asked of the copy). */
static void with_side(const xq_pos *p, int side, xq_pos *q)
{
  *q = *p;
  q->side = (uint8_t)side;
}

/* True when the side to move in `p` has a legal capture on `sq`. */
static int legal_capture_onto(const xq_pos *p, int sq)
{
  int base = p->side << 4;
  for (int id = base; id < base + 16; id++) {
    int s = p->sq[id];
    if (s == XQ_NO_SQ) continue;
    if (!(xq_attacks_from(p, s) & ((xq_bb)1 << sq))) continue;
    if (xq_is_legal(p, XQ_MOVE(s, sq))) return 1;
  }
  return 0;
}

/* Every point the piece on `sq` may move to, own pieces included:
 * xq_attacks_from gives a cannon's captures only, so its quiet moves
 * along the lines are added here. */
static xq_bb reach(const xq_pos *p, int sq)
{
  xq_bb b = xq_attacks_from(p, sq);
  if (kind_of(p->board[sq]) != XQ_CANNON) return b;
  static const int df[4] = {1, -1, 0, 0}, dr[4] = {0, 0, 1, -1};
  for (int d = 0; d < 4; d++) {
    int f = XQ_FILE(sq) + df[d], r = XQ_RANK(sq) + dr[d];
    while (f >= 0 && f < XQ_FILES && r >= 0 && r < XQ_RANKS &&
           p->board[XQ_SQ(f, r)] == XQ_NO_PID) {
      b |= (xq_bb)1 << XQ_SQ(f, r);
      f += df[d];
      r += dr[d];
    }
  }
  return b;
}

/* True when the side to move in `p` has a legal move. Same answer as
 * xq_count_legal(p) > 0, but stops at the first legal move found, which is
 * what the mate and stalemate tests of the searches need. */
static int has_legal_move(const xq_pos *p)
{
  int base = p->side << 4;
  xq_bb own = p->color[p->side];
  for (int id = base; id < base + 16; id++) {
    int s = p->sq[id];
    if (s == XQ_NO_SQ) continue;
    xq_bb t = reach(p, s) & ~own;
    while (t) {
      int to = pop_sq(&t);
      if (xq_is_legal(p, XQ_MOVE(s, to))) return 1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* AXF chase (R11)                                                     */
/* ------------------------------------------------------------------ */

/* The pieces giving check to the general of `c` in `p` (piece-id bits):
 * the enemy pieces other than the general whose captures reach it. */
static uint32_t checkers(const xq_pos *p, int c)
{
  int k = p->sq[c << 4];
  uint32_t by = 0;
  if (k == XQ_NO_SQ) return 0;
  for (int e = ((c ^ 1) << 4) + 1; e < ((c ^ 1) << 4) + 16; e++)
    if (p->sq[e] != XQ_NO_SQ && (xq_attacks_from(p, p->sq[e]) & ((xq_bb)1 << k)))
      by |= 1u << e;
  return by;
}

/* True when move `m` of the side to move in `p` is legal once the checks
 * of the pieces in `ignore` are not there: their attacks on the general's
 * point do not count, while they still stand, block and screen as pieces
 * (a move of the general itself is tested as it is). A
 * standing attack is only suspended by a check (AXF: a piece that could
 * take or retake but for the check still attacks or protects). */
static int legal_but_for(const xq_pos *p, xq_move m, uint32_t ignore)
{
  if (xq_is_legal(p, m)) return 1;
  if (!ignore || !xq_is_pseudo_legal(p, m)) return 0;
  /* A general that moves meets the checking pieces' attacks where it goes:
   * only the check on the point it stands on is set aside. */
  if (kind_of(p->board[XQ_FROM(m)]) == XQ_KING) return 0;
  xq_pos r = *p;
  xq_undo u;
  xq_make(&r, m, &u);
  int us = p->side, k = r.sq[us << 4], ek = r.sq[(us ^ 1) << 4];
  for (int e = ((us ^ 1) << 4) + 1; e < ((us ^ 1) << 4) + 16; e++)
    if (r.sq[e] != XQ_NO_SQ && !(ignore >> e & 1) &&
        (xq_attacks_from(&r, r.sq[e]) & ((xq_bb)1 << k)))
      return 0;
  if (ek == XQ_NO_SQ || XQ_FILE(ek) != XQ_FILE(k)) return 1;
  int lo = k < ek ? k : ek, hi = k < ek ? ek : k;
  for (int s = lo + XQ_FILES; s < hi; s += XQ_FILES)
    if (r.board[s] != XQ_NO_PID) return 1;
  return 0; /* the generals would face each other */
}

/* True when the side to move in `p` has a capture on `sq` that is legal
 * but for the checks of the pieces in `ignore`. */
static int retake_but_for(const xq_pos *p, int sq, uint32_t ignore)
{
  int base = p->side << 4;
  for (int id = base; id < base + 16; id++) {
    int s = p->sq[id];
    if (s == XQ_NO_SQ) continue;
    if (!(xq_attacks_from(p, s) & ((xq_bb)1 << sq))) continue;
    if (legal_but_for(p, XQ_MOVE(s, sq), ignore)) return 1;
  }
  return 0;
}

/* The enemy pieces pinning piece `a` of the side to move in `q`: those
 * that would attack its general were `a` to step to an empty point (its
 * general not being in check now). */
static uint32_t pinners(const xq_pos *q, int a)
{
  int asq = q->sq[a], us = q->side, k = q->sq[us << 4];
  if (k == XQ_NO_SQ || xq_in_check(q, (xq_color)us)) return 0;
  xq_bb t = reach(q, asq) & ~q->occ;
  while (t) {
    int to = pop_sq(&t);
    xq_move m = XQ_MOVE(asq, to);
    if (xq_is_legal(q, m)) continue;
    xq_pos r = *q;
    xq_undo u;
    xq_make(&r, m, &u);
    uint32_t by = 0;
    int base = (us ^ 1) << 4;
    for (int e = base; e < base + 16; e++)
      if (r.sq[e] != XQ_NO_SQ && kind_of(e) == XQ_HORSE &&
          (xq_attacks_from(&r, r.sq[e]) & ((xq_bb)1 << k)))
        by |= 1u << e;
    if (by) return by;
  }
  return 0;
}

/* For each chaser of `side` (index id - 16*side) the set of victims it
 * chases in `pos`, `side` to move. */
static void axf_pairs(const xq_pos *pos, int side, int moved, uint32_t pairs[16],
                      uint32_t pinpairs[16])
{
  xq_pos q;
  with_side(pos, side, &q);
  int opp = side ^ 1, base = side << 4;
  /* Checks in `pos` suspend attacks without ending them: the chaser's
   * captures and the victim's retakes are tested as if they were not
   * there (a check evasion makes no new chase of what it attacked
   * before; a check that opens an attack on an unprotected piece chases
   * it). */
  uint32_t chk_us = checkers(pos, side), chk_them = checkers(pos, opp);
  memset(pairs, 0, 16 * sizeof pairs[0]);
  if (pinpairs) memset(pinpairs, 0, 16 * sizeof pinpairs[0]);
  for (int a = base; a < base + 16; a++) {
    int asq = q.sq[a], ak = kind_of(a);
    /* R11.1: the general and pawns never chase (AXF 3, 28). */
    if (asq == XQ_NO_SQ || ak == XQ_KING || ak == XQ_PAWN) continue;
    xq_bb t = xq_attacks_from(&q, asq) & q.color[opp];
    /* AXF 19 (D39-41): a piece held by a horse pin that is itself chased
     * does not chase the horse back. Whether it is chased is known only
     * over the cycle: such pairs are reported apart (pinpairs), except
     * when the piece has just moved there itself (a direct attack). */
    uint32_t pin = t && a != moved ? pinners(&q, a) : 0;
    while (t) {
      int vsq = pop_sq(&t);
      int v = q.board[vsq], vk = kind_of(v);
      if (!is_material(&q, v)) continue;
      xq_move m = XQ_MOVE(asq, vsq);
      /* R11.3: only a legal capture attacks. */
      if (!legal_but_for(&q, m, chk_us)) continue;
      int chase = 0;
      if ((ak == XQ_HORSE || ak == XQ_CANNON) && vk == XQ_ROOK) {
        chase = 1; /* R11.4(a), AXF 15: protected or not */
      } else if ((ak == XQ_ADVISOR || ak == XQ_ELEPHANT) &&
                 (vk == XQ_ROOK || vk == XQ_HORSE || vk == XQ_CANNON)) {
        chase = 1; /* R11.4(a): value rule of the engines */
      } else {
        xq_pos r = q;
        xq_undo u;
        xq_make(&r, m, &u);
        /* R11.4(b): unprotected = no legal recapture (fake roots fail). */
        if (!retake_but_for(&r, vsq, chk_them)) {
          if (ak == vk) {
            /* R11.5: same kinds attacking each other offer an exchange,
             * unless the victim cannot take back (AXF 24). */
            xq_pos o;
            with_side(&q, opp, &o);
            chase = !legal_but_for(&o, XQ_MOVE(vsq, asq), chk_them);
          } else {
            chase = 1;
          }
        }
      }
      if (chase) pairs[a - base] |= 1u << v;
      if (chase && (pin >> v & 1) && pinpairs) pinpairs[a - base] |= 1u << v;
    }
  }
}

/* A move that parries one of the opponent's chases (the chased piece
 * escapes, is protected, or the line is closed) does not chase a piece it
 * already attacked by merely taking that piece's root away: the
 * undermining is a by-product of the defence (AXF diagram 61). New attacks
 * it makes still count. Removes such pairs from pa. */
static void drop_parry_undermining(const xq_pos *before, const xq_pos *after, int s,
                                   int moved, const uint32_t pb[16], uint32_t pa[16])
{
  uint32_t ob[16], oa[16];
  int parried = 0;
  axf_pairs(before, s ^ 1, -1, ob, NULL);
  axf_pairs(after, s ^ 1, -1, oa, NULL);
  for (int i = 0; i < 16; i++)
    if (ob[i] & ~oa[i]) parried = 1;
  if (!parried) return;
  xq_pos q;
  with_side(before, s, &q);
  for (int i = 0; i < 16; i++) {
    int a = (s << 4) + i;
    if (a == moved || q.sq[a] == XQ_NO_SQ) continue;
    uint32_t fresh = pa[i] & ~pb[i];
    for (int v = 0; v < 32; v++) {
      if (!(fresh >> v & 1) || q.sq[v] == XQ_NO_SQ) continue;
      if ((xq_attacks_from(&q, q.sq[a]) & ((xq_bb)1 << q.sq[v])) &&
          xq_is_legal(&q, XQ_MOVE(q.sq[a], q.sq[v])))
        pa[i] &= ~(1u << v);
    }
  }
}

static void classify_axf(const xq_pos *before, const xq_pos *after, xq_move m,
                         int s, xq_move_class *out)
{
  uint32_t pb[16], pa[16], pp[16];
  int to = XQ_TO(m), moved = after->board[to];
  axf_pairs(before, s, -1, pb, NULL);
  axf_pairs(after, s, moved, pa, pp);
  drop_parry_undermining(before, after, s, moved, pb, pa);
  /* R11.6: only attacks the move created (direct, discovered, or by
   * removing or pinning a protector) count. */
  for (int i = 0; i < 16; i++) {
    uint32_t fresh = pa[i] & ~pb[i];
    if (!fresh) continue;
    out->victims |= fresh;
    out->attackers |= 1u << ((s << 4) + i);
    if (fresh & pp[i]) {
      out->pinned_victims |= fresh & pp[i];
      out->pinned_chasers |= 1u << ((s << 4) + i);
    }
  }
  if (out->victims) {
    if (out->cls == XQ_CLS_IDLE) out->cls = XQ_CLS_CHASE;
    uint32_t minor = 1;
    for (int i = 0; i < 16; i++) {
      uint32_t fresh = pa[i] & ~pb[i];
      if (!fresh) continue;
      int ak = kind_of((s << 4) + i);
      for (int v = 0; v < 32; v++)
        if ((fresh >> v & 1) &&
            !((ak == XQ_HORSE || ak == XQ_CANNON) && kind_of(v) == XQ_ROOK))
          minor = 0;
    }
    if (minor) out->flags |= XQ_CF_MINOR_ROOK;
  }
}

/* ------------------------------------------------------------------ */
/* CXA material gain (R10)                                             */
/* ------------------------------------------------------------------ */

/* Result of an exchange for the side that starts it: the scalar value,
 * the non-pawn material and the pawns won (negative: lost), and how many
 * captures the line has (both sides). */
typedef struct gain {
  int v, pieces, pawns, caps;
} gain;

static int value_of(int pid) { return piece_value[kind_of(pid)]; }
static int pieces_of(int pid) { return kind_of(pid) == XQ_PAWN ? 0 : value_of(pid); }
static int pawns_of(int pid) { return kind_of(pid) == XQ_PAWN ? 1 : 0; }

/* Least valuable piece of the side to move with a legal capture on sq. */
static int least_attacker(const xq_pos *p, int sq)
{
  static const int order[16] = {11, 12, 13, 14, 15, 1, 2, 3, 4, 5, 6, 9, 10, 7, 8, 0};
  int base = p->side << 4;
  for (int i = 0; i < 16; i++) {
    int id = base + order[i], s = p->sq[id];
    if (s == XQ_NO_SQ) continue;
    if (!(xq_attacks_from(p, s) & ((xq_bb)1 << sq))) continue;
    if (xq_is_legal(p, XQ_MOVE(s, sq))) return id;
  }
  return -1;
}

/* Static exchange on `sq` for the side to move, which may stop at any
 * point (the zero result); every capture is checked for legality (pins,
 * facing generals). */
static gain see(xq_pos *p, int sq, int depth, budget *b)
{
  gain best = {0, 0, 0, 0};
  if (depth >= XQ_SEE_DEPTH_MAX || !spend(b)) return best;
  int a = least_attacker(p, sq);
  if (a < 0) return best;
  int victim = p->board[sq];
  xq_move m = XQ_MOVE(p->sq[a], sq);
  xq_undo u;
  xq_make(p, m, &u);
  gain c = see(p, sq, depth + 1, b);
  xq_unmake(p, m, &u);
  gain mine = {value_of(victim) - c.v, pieces_of(victim) - c.pieces,
               pawns_of(victim) - c.pawns, 1 + c.caps};
  if (mine.v > best.v) best = mine;
  return best;
}

/* 细则3 and 图24: material is won when the exchange gains pieces without
 * giving pawns, or pawns without giving pieces; a piece for a pawn, or
 * pawns for a piece, is not 得子 (the pawn's value floats). */
static int wins_material(gain g)
{
  return g.v > 0 && g.pieces >= 0 && g.pawns >= 0 && (g.pieces > 0 || g.pawns > 0);
}

/* True when the side to move can leave the opponent without a legal move
 * at once (29.4 细则7: a capture answered by mate is no gain). -1: budget. */
static int mate_in_one(xq_pos *p, budget *b)
{
  xq_movelist ml;
  xq_gen_legal(p, &ml);
  for (int i = 0; i < ml.n; i++) {
    if (!spend(b)) return -1;
    xq_undo u;
    xq_make(p, ml.m[i], &u);
    int any = has_legal_move(p);
    xq_unmake(p, ml.m[i], &u);
    if (!any) return 1;
  }
  return 0;
}

/* Threats of the side to move in `q` (CXA R10): the victims it can win
 * material from next move. Per victim: vflags (XQ_CF_*) and the pieces
 * that win it. */
typedef struct threats {
  uint32_t victims;       /* won by a piece other than the general or a pawn, or by 抽 */
  uint32_t pawn_victims;  /* won by pawns only */
  uint32_t king_victims;  /* won by the general only */
  uint32_t attackers;
  uint32_t vflags[XQ_PIDS];
  uint32_t chasers[XQ_PIDS];
} threats;

/* Material won on `vsq` by first capture `m` of the side to move in `q`:
 * 1 with *g and *protected filled, 0 none, -1 budget. */
static int capture_wins(const xq_pos *q, xq_move m, gain *g, int *protected,
                        budget *b)
{
  int vsq = XQ_TO(m), victim = q->board[vsq];
  xq_pos r = *q;
  xq_undo u;
  if (!spend(b)) return -1;
  xq_make(&r, m, &u);
  gain c = see(&r, vsq, 1, b);
  if (b->exhausted) return -1;
  g->v = value_of(victim) - c.v;
  g->pieces = pieces_of(victim) - c.pieces;
  g->pawns = pawns_of(victim) - c.pawns;
  g->caps = 1 + c.caps;
  if (!wins_material(*g)) return 0;
  /* R10.4: not 捉 when the capture is answered by mate. */
  int mated = mate_in_one(&r, b);
  if (mated < 0) return -1;
  if (mated) return 0;
  *protected = legal_capture_onto(&r, vsq);
  return 1;
}

/* R10.2(c) 抽吃: a check after which, whatever the reply, a capture wins
 * material worth more than anything the reply took. Adds the victims. */
static int discovered_wins(const xq_pos *q, threats *t, budget *b)
{
  int us = q->side, them = us ^ 1;
  xq_movelist ml;
  xq_gen_legal(q, &ml);
  for (int i = 0; i < ml.n; i++) {
    xq_move c = ml.m[i];
    if (q->board[XQ_TO(c)] != XQ_NO_PID) continue; /* captures: R10.2(a)(b) */
    xq_pos r = *q;
    xq_undo u;
    if (!spend(b)) return -1;
    xq_make(&r, c, &u);
    if (!xq_in_check(&r, (xq_color)them)) continue;
    xq_movelist rl;
    xq_gen_legal(&r, &rl);
    if (rl.n == 0) continue; /* mate: that is 杀, not 捉 */
    uint32_t won = 0;
    int all = 1;
    for (int j = 0; j < rl.n && all; j++) {
      xq_pos s = r;
      xq_undo u2;
      if (!spend(b)) return -1;
      int lost = s.board[XQ_TO(rl.m[j])];
      int lost_v = lost == XQ_NO_PID ? 0 : value_of(lost);
      xq_make(&s, rl.m[j], &u2);
      int best = 0;
      uint32_t best_v = 0;
      int base = us << 4;
      for (int a = base; a < base + 16; a++) {
        int asq = s.sq[a];
        if (asq == XQ_NO_SQ) continue;
        xq_bb tg = xq_attacks_from(&s, asq) & s.color[them];
        while (tg) {
          int vsq = pop_sq(&tg);
          int v = s.board[vsq];
          if (!is_material(&s, v)) continue;
          xq_move m = XQ_MOVE(asq, vsq);
          if (!xq_is_legal(&s, m)) continue;
          gain g;
          int prot = 0;
          int w = capture_wins(&s, m, &g, &prot, b);
          if (w < 0) return -1;
          if (w && g.v - lost_v > best) {
            best = g.v - lost_v;
            best_v = 1u << v;
          }
        }
      }
      if (best <= 0) all = 0;
      won |= best_v;
    }
    if (all) {
      for (int v = 0; v < 32; v++)
        if (won >> v & 1) {
          t->vflags[v] |= XQ_CF_DISCOVERED_WIN | XQ_CF_JOINT;
          t->chasers[v] |= 1u << q->board[XQ_FROM(c)] ;
        }
      t->victims |= won;
      t->attackers |= 1u << r.board[XQ_TO(c)];
    }
  }
  return 0;
}

/* Threats of `side` in `pos` as if it were to move. 0, or -1 when the
 * budget ran out. */
static int cxa_threats(const xq_pos *pos, int side, threats *t, budget *b)
{
  xq_pos q, o;
  with_side(pos, side, &q);
  with_side(pos, side ^ 1, &o);
  memset(t, 0, sizeof *t);
  int base = side << 4, opp = side ^ 1;
  for (int a = base; a < base + 16; a++) {
    int asq = q.sq[a], ak = kind_of(a);
    if (asq == XQ_NO_SQ) continue;
    xq_bb tg = xq_attacks_from(&q, asq) & q.color[opp];
    while (tg) {
      int vsq = pop_sq(&tg);
      int v = q.board[vsq];
      if (!is_material(&q, v)) continue; /* R10.3 */
      xq_move m = XQ_MOVE(asq, vsq);
      if (!xq_is_legal(&q, m)) continue;
      /* 兑 (图30): a victim of equal value that can take its attacker
       * first is offered an exchange, not chased, through that attacker. */
      if (value_of(a) == value_of(v) && xq_is_legal(&o, XQ_MOVE(vsq, asq))) continue;
      gain g;
      int prot = 0;
      int w = capture_wins(&q, m, &g, &prot, b);
      if (w < 0) return -1;
      if (!w) continue;
      t->chasers[v] |= 1u << a;
      if (ak == XQ_KING) {
        t->king_victims |= 1u << v;
      } else if (ak == XQ_PAWN) {
        t->pawn_victims |= 1u << v;
      } else {
        t->victims |= 1u << v;
        t->attackers |= 1u << a;
        /* 无根 / 少根: a protected victim that needs a second capture by
         * the chasing side is won by numbers, jointly. A protected piece
         * of higher value won by one capture (马 takes 车) is neither. */
        if (!prot) t->vflags[v] |= XQ_CF_UNPROTECTED;
        else if (g.caps >= 3) t->vflags[v] |= XQ_CF_UNDERPROTECTED | XQ_CF_JOINT;
        if ((ak == XQ_HORSE || ak == XQ_CANNON) && kind_of(v) == XQ_ROOK)
          t->vflags[v] |= XQ_CF_MINOR_ROOK;
      }
    }
  }
  /* 27.1/27.2: the general or a pawn chasing alone is 闲; with another
   * piece able to win the same victim the chase stands. */
  t->pawn_victims &= ~t->victims;
  t->king_victims &= ~t->victims;
  if (discovered_wins(&q, t, b) < 0) return -1;
  return 0;
}

/* ------------------------------------------------------------------ */
/* CXA kill (杀, R6)                                                   */
/* ------------------------------------------------------------------ */

/* Can the side to move in `p` leave the opponent without a legal move
 * within `depth` own moves, every move before the last a check? 1 yes,
 * 0 no, -1 the budget ran out before a proof. */
static int kill_search(xq_pos *p, int depth, budget *b)
{
  int us = p->side, unknown = 0;
  xq_movelist ml;
  xq_move checks[XQ_MAX_MOVES];
  int nc = 0;
  xq_gen_legal(p, &ml);
  for (int i = 0; i < ml.n; i++) {
    if (!spend(b)) return -1;
    xq_undo u;
    xq_make(p, ml.m[i], &u);
    int chk = xq_in_check(p, (xq_color)(us ^ 1));
    int any = has_legal_move(p);
    xq_unmake(p, ml.m[i], &u);
    if (!any) return 1; /* mate, or 困毙 (which loses too) */
    if (chk && depth > 1) checks[nc++] = ml.m[i];
  }
  for (int i = 0; i < nc; i++) {
    xq_undo u;
    xq_make(p, checks[i], &u);
    xq_movelist rl;
    xq_gen_legal(p, &rl);
    int all = 1, unk = 0;
    for (int j = 0; j < rl.n; j++) {
      xq_undo u2;
      xq_make(p, rl.m[j], &u2);
      int r = kill_search(p, depth - 1, b);
      xq_unmake(p, rl.m[j], &u2);
      if (r == 0) { all = 0; break; }
      if (r < 0) unk = 1;
    }
    xq_unmake(p, checks[i], &u);
    if (all && !unk) return 1;
    if (all && unk) unknown = 1;
    if (b->exhausted) return -1;
  }
  return unknown ? -1 : 0;
}

/* Does `side` threaten mate in `pos` (the opponent passing)? */
static int kill_threat(const xq_pos *pos, int side, const xq_rules *rules, budget *b)
{
  xq_pos q;
  with_side(pos, side, &q);
  if (xq_in_check(&q, (xq_color)(side ^ 1))) return 0; /* not a position after a pass */
  int depth = rules->kill_search_depth;
  if (depth < 1) depth = 1;
  if (depth > XQ_KILL_DEPTH_MAX) depth = XQ_KILL_DEPTH_MAX;
  return kill_search(&q, depth, b);
}

/* R6 exception 1 (图7, 图29): a piece whose every move off its line lets
 * the opponent mate cannot leave the line; its moves along it are 拦.
 * 1 yes, 0 no, -1 budget. */
static int line_holder(const xq_pos *before, xq_move m, const xq_rules *rules, budget *b)
{
  int from = XQ_FROM(m), to = XQ_TO(m);
  int k = kind_of(before->board[from]);
  if (k != XQ_ROOK && k != XQ_CANNON) return 0;
  int horiz = XQ_RANK(from) == XQ_RANK(to);
  int d = rules->kill_search_depth < 1 ? 1 : rules->kill_search_depth;
  if (d > XQ_KILL_DEPTH_MAX) d = XQ_KILL_DEPTH_MAX;
  xq_movelist ml;
  xq_gen_legal(before, &ml);
  int off = 0;
  for (int i = 0; i < ml.n; i++) {
    if (XQ_FROM(ml.m[i]) != from) continue;
    int t = XQ_TO(ml.m[i]);
    if (horiz ? XQ_RANK(t) == XQ_RANK(from) : XQ_FILE(t) == XQ_FILE(from)) continue;
    off++;
    xq_pos r = *before;
    xq_undo u;
    if (!spend(b)) return -1;
    xq_make(&r, ml.m[i], &u);
    int kr = kill_search(&r, d, b);
    if (kr < 0) return -1;
    if (!kr) return 0;
  }
  if (!off) return 0;
  /* Only a line that holds off a mate: if the opponent mates anyway, the
   * piece is not held by the line. */
  xq_pos stay = *before;
  xq_undo su;
  xq_make(&stay, m, &su);
  int lost = kill_search(&stay, d, b);
  if (lost < 0) return -1;
  return !lost;
}

static int classify_cxa(const xq_pos *before, const xq_pos *after, xq_move m,
                        int s, const xq_rules *rules, budget *b, xq_move_class *out)
{
  int king_move = kind_of(before->board[XQ_FROM(m)]) == XQ_KING;
  /* R6 exception 2 (图17): the general answering a check makes no 杀/捉. */
  if (king_move && xq_in_check(before, (xq_color)s)) {
    out->flags |= XQ_CF_CHECK_ANSWER;
    return 0;
  }
  int kill = kill_threat(after, s, rules, b);
  if (kill < 0) return -1;
  if (kill) {
    int kept = kill_threat(before, s, rules, b);
    if (kept < 0) return -1;
    if (kept) out->flags |= XQ_CF_KILL_KEPT;
    if (!kept || rules->kill_continuation_is_kill) {
      out->cls = XQ_CLS_KILL;
      out->flags |= XQ_CF_KILL;
    }
  }
  threats tb, ta;
  if (cxa_threats(before, s, &tb, b) < 0) return -1;
  if (cxa_threats(after, s, &ta, b) < 0) return -1;
  /* R10.1: only threats the move created; victims already winnable before
   * it (by any piece) are 从捉到捉 = 闲. */
  uint32_t old = tb.victims | tb.pawn_victims | tb.king_victims;
  uint32_t fresh = ta.victims & ~old;
  uint32_t pawn = ta.pawn_victims & ~old, king = ta.king_victims & ~old;
  if (pawn) out->flags |= XQ_CF_PAWN_CHASE;
  if (king) out->flags |= XQ_CF_KING_CHASE;
  if (fresh && out->cls == XQ_CLS_IDLE) {
    out->cls = XQ_CLS_CHASE;
    out->victims = fresh;
    uint32_t single = 1, minor = 1;
    for (int v = 0; v < 32; v++) {
      if (!(fresh >> v & 1)) continue;
      out->attackers |= ta.chasers[v];
      uint32_t f = ta.vflags[v];
      out->flags |= f & (XQ_CF_UNPROTECTED | XQ_CF_UNDERPROTECTED | XQ_CF_JOINT |
                         XQ_CF_DISCOVERED_WIN);
      if (!(f & XQ_CF_MINOR_ROOK)) minor = 0;
      if (__builtin_popcount(ta.chasers[v]) != 1 || (f & XQ_CF_JOINT) ||
          !(f & XQ_CF_UNPROTECTED))
        single = 0;
    }
    if (minor) out->flags |= XQ_CF_MINOR_ROOK;
    if (single) out->flags |= XQ_CF_SINGLE;
  } else if (out->cls == XQ_CLS_IDLE && pawn) {
    out->victims = pawn; /* recorded for 27.2; the class stays 闲 */
  }
  if (out->cls == XQ_CLS_KILL || out->cls == XQ_CLS_CHASE) {
    /* R6 exception 1: a piece held on its line by a mate threat only 拦. */
    int h = line_holder(before, m, rules, b);
    if (h < 0) return -1;
    if (h) {
      out->cls = XQ_CLS_IDLE;
      out->flags |= XQ_CF_LINE_HOLDER;
    }
  }
  return 0;
}

int xq_classify_move(const xq_pos *pos, xq_move m, const xq_rules *rules,
                     xq_move_class *out)
{
  if (!pos || !rules || !out) return XQ_EINVAL;
  if (!xq_is_legal(pos, m)) return XQ_EILLEGAL;
  xq_move_class c;
  memset(&c, 0, sizeof c);
  c.move = m;
  c.mover = pos->side;
  int s = pos->side;
  xq_pos after = *pos;
  xq_undo u;
  xq_make(&after, m, &u);
  if (xq_in_check(&after, (xq_color)(s ^ 1))) {
    c.cls = XQ_CLS_CHECK; /* R6: the most severe character */
    /* AXF: a check that also chases (by the checking piece or by any
     * attack it opens) keeps its victims, so that a chase of one piece by
     * checks and chases in turn stays a perpetual chase (R7 common
     * victim); axf_pairs tests the retakes as if the check were not
     * there. */
    if (!xq__classify_is_cxa(rules)) classify_axf(pos, &after, m, s, &c);
    *out = c;
    return XQ_OK;
  }
  if (xq__classify_is_cxa(rules)) {
    budget b = {0, rules->kill_search_nodes > 0 ? rules->kill_search_nodes : 1, 0};
    if (classify_cxa(pos, &after, m, s, rules, &b, &c) < 0 || b.exhausted) {
      c.cls = XQ_CLS_UNDECIDED; /* P13: never a guess */
      c.flags |= XQ_CF_BUDGET;
    }
  } else {
    classify_axf(pos, &after, m, s, &c);
  }
  *out = c;
  return XQ_OK;
}
