/*
 * cycle.c -- the ruling of a repeated cycle (R5, R7, R8): replay
 * the window, classify every move, summarise each side and apply the
 * verdict table of the rule set, then the early-cycle override (P12).
 */
#include <string.h>

#include "adjudicator.h"
#include "repetition.h"

/* One verdict, before P12. */
typedef struct verdict {
  xq_outcome outcome;
  int side;
  xq_reason reason;
} verdict;

static verdict make_verdict(xq_outcome o, int side, xq_reason r)
{
  verdict v = {o, side, r};
  return v;
}

/* A loss at once for `side` (P3) or an order to change. */
static verdict offender(int side, int is_check, const xq_rules *rules, xq_reason r)
{
  if (is_check && rules->perpetual_check_loses)
    return make_verdict(side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS, side, r);
  return make_verdict(XQ_OUT_MUST_CHANGE, side, r);
}

/* Class of move i, with an undecided move of side s read as und[s]. */
static xq_cls cls_of(const xq_cycle_ruling *w, int i, const xq_cls und[2])
{
  xq_cls c = w->cls[i].cls;
  return c == XQ_CLS_UNDECIDED ? und[w->cls[i].mover] : c;
}

static int is_attack(xq_cls c) { return c == XQ_CLS_CHECK || c == XQ_CLS_KILL || c == XQ_CLS_CHASE; }

/* CXA 2011 R8 clauses 3-5 (1 and 2, perpetual check, are decided before). */
static verdict cxa_attacks(const xq_cycle_ruling *w, const xq_rules *rules, const xq_cls und[2])
{
  int strict[2] = {1, 1}, loose[2] = {1, 1}, all_chase[2] = {1, 1}, moves[2] = {0, 0};
  uint32_t common[2] = {~0u, ~0u};
  for (int i = 0; i < w->n; i++) {
    int s = w->cls[i].mover;
    moves[s]++;
    xq_cls c = cls_of(w, i, und);
    if (!is_attack(c)) strict[s] = 0;
    if (c != XQ_CLS_CHASE) all_chase[s] = 0;
    common[s] &= w->cls[i].victims;
    if (!is_attack(c) && !(c == XQ_CLS_IDLE && (w->cls[i].flags & XQ_CF_PAWN_CHASE)))
      loose[s] = 0;
  }
  for (int s = 0; s < 2; s++)
    if (!moves[s]) strict[s] = loose[s] = 0; /* no move, no 长打 */
  /* P18 off: 长捉 of different pieces in turn (分捉) is not prohibited. */
  if (!rules->cxa_chase_distinct_victims)
    for (int s = 0; s < 2; s++)
      if (all_chase[s] && !common[s]) strict[s] = loose[s] = 0;
  /* 27.2: a pawn's chase counts as 捉 when both sides 长打. */
  int pr[2];
  for (int s = 0; s < 2; s++) pr[s] = strict[s] || (loose[s] && strict[s ^ 1]);
  if (pr[0] != pr[1]) {
    int s = pr[0] ? XQ_RED : XQ_BLACK;
    return make_verdict(XQ_OUT_MUST_CHANGE, s, XQ_REASON_PERPETUAL_ATTACK);
  }
  if (!pr[0]) return make_verdict(XQ_OUT_DRAW, -1, XQ_REASON_BOTH_PERMITTED);
  if (!rules->cxa_mutual_refinements)
    return make_verdict(XQ_OUT_DRAW, -1, XQ_REASON_MUTUAL_ATTACK);
  /* R8.5 (P16): the 互打 refinements, which need the details of every
   * chase: an undecided move read as a chase has none. */
  for (int i = 0; i < w->n; i++)
    if (w->cls[i].cls == XQ_CLS_UNDECIDED && und[w->cls[i].mover] == XQ_CLS_CHASE)
      return make_verdict(XQ_OUT_NEEDS_ARBITER, -1, XQ_REASON_SEARCH_BUDGET);
  int chases[2] = {0, 0}, minor_all[2] = {1, 1}, other[2] = {0, 0};
  int single_all[2] = {1, 1}, joint[2] = {0, 0};
  for (int i = 0; i < w->n; i++) {
    int s = w->cls[i].mover;
    uint32_t f = w->cls[i].flags;
    if (cls_of(w, i, und) != XQ_CLS_CHASE) {
      single_all[s] = 0;
      continue;
    }
    chases[s]++;
    if (f & XQ_CF_MINOR_ROOK) {
      /* (a) counts 马/炮 chasing 车 */
    } else {
      minor_all[s] = 0;
      other[s] = 1;
    }
    if (!(f & XQ_CF_SINGLE)) single_all[s] = 0;
    if (f & (XQ_CF_JOINT | XQ_CF_UNDERPROTECTED)) joint[s] = 1;
  }
  int a[2], b[2];
  for (int s = 0; s < 2; s++) {
    a[s] = chases[s] > 0 && minor_all[s] && other[s ^ 1];          /* 图10, 25, 26, 28 */
    b[s] = chases[s] > 0 && single_all[s] && joint[s ^ 1];         /* 图11, 27 */
  }
  int x0 = a[0] || b[0], x1 = a[1] || b[1];
  if (x0 && x1) return make_verdict(XQ_OUT_NEEDS_ARBITER, -1, XQ_REASON_MUTUAL_ATTACK);
  if (x0 || x1) {
    int s = x0 ? XQ_RED : XQ_BLACK;
    return make_verdict(XQ_OUT_MUST_CHANGE, s,
                        a[s] ? XQ_REASON_MINOR_CHASES_ROOK : XQ_REASON_SINGLE_CHASES_UNPROTECTED);
  }
  return make_verdict(XQ_OUT_DRAW, -1, XQ_REASON_MUTUAL_ATTACK);
}

/* AXF level of side s (R7) over moves [lo, hi) of the window (R5: all of
 * it, even when it holds different cycles): 2 perpetual check, 1
 * perpetual chase (every move chases one common victim, checks that also
 * chase it included; AXF 12: other checks break the chase), 0 else. */
static int axf_level(const xq_cycle_ruling *w, int s, int lo, int hi)
{
  int all_check = 1, any = 0;
  uint32_t common = ~0u, chased = 0;
  for (int i = lo; i < hi; i++)
    if (w->cls[i].mover != s) chased |= w->cls[i].victims;
  for (int i = lo; i < hi; i++) {
    if (w->cls[i].mover != s) continue;
    any = 1;
    if (w->cls[i].cls != XQ_CLS_CHECK) all_check = 0;
    uint32_t v = w->cls[i].victims;
    /* AXF 19 (D39-41): a chased piece held by a horse pin does not chase
     * its pinner. */
    if (w->cls[i].pinned_chasers & chased) v &= ~w->cls[i].pinned_victims;
    common &= v;
  }
  if (!any) return 0;
  if (all_check) return 2;
  return common ? 1 : 0;
}

static verdict axf_verdict(const xq_cycle_ruling *w, const xq_rules *rules)
{
  int l0 = axf_level(w, XQ_RED, 0, w->n);
  int l1 = axf_level(w, XQ_BLACK, 0, w->n);
  if (l0 == l1)
    return make_verdict(XQ_OUT_DRAW, -1,
                        l0 == 2 ? XQ_REASON_MUTUAL_PERPETUAL_CHECK : XQ_REASON_AXF_EQUAL);
  int s = l0 > l1 ? XQ_RED : XQ_BLACK;
  int hi = l0 > l1 ? l0 : l1, lo = l0 > l1 ? l1 : l0;
  xq_reason r = hi == 2 ? (lo == 1 ? XQ_REASON_AXF_CHECK_OVER_CHASE : XQ_REASON_PERPETUAL_CHECK)
                        : XQ_REASON_AXF_PERPETUAL_CHASE;
  return offender(s, hi == 2, rules, r);
}

static verdict cxa_verdict(const xq_cycle_ruling *w, const xq_rules *rules)
{
  int all_check[2] = {1, 1}, undecided = 0, moves[2] = {0, 0};
  for (int i = 0; i < w->n; i++) {
    moves[w->cls[i].mover]++;
    if (w->cls[i].cls != XQ_CLS_CHECK) all_check[w->cls[i].mover] = 0;
    if (w->cls[i].cls == XQ_CLS_UNDECIDED) undecided = 1;
  }
  for (int s = 0; s < 2; s++)
    if (!moves[s]) all_check[s] = 0;
  /* R8.1: unilateral 长将 loses at once, whatever the other side does. */
  if (all_check[0] != all_check[1])
    return offender(all_check[0] ? XQ_RED : XQ_BLACK, 1, rules, XQ_REASON_PERPETUAL_CHECK);
  if (all_check[0]) return make_verdict(XQ_OUT_DRAW, -1, XQ_REASON_MUTUAL_PERPETUAL_CHECK);
  static const xq_cls read[4][2] = {{XQ_CLS_IDLE, XQ_CLS_IDLE},
                                    {XQ_CLS_CHASE, XQ_CLS_IDLE},
                                    {XQ_CLS_IDLE, XQ_CLS_CHASE},
                                    {XQ_CLS_CHASE, XQ_CLS_CHASE}};
  verdict v = cxa_attacks(w, rules, read[0]);
  if (!undecided) return v;
  /* A search ran out (P13): rule only when every reading of the undecided
   * moves, side by side, gives the same answer; never guess. */
  for (int k = 1; k < 4; k++) {
    verdict o = cxa_attacks(w, rules, read[k]);
    if (o.outcome != v.outcome || o.side != v.side || o.outcome == XQ_OUT_NEEDS_ARBITER)
      return make_verdict(XQ_OUT_NEEDS_ARBITER, -1, XQ_REASON_SEARCH_BUDGET);
  }
  return v;
}

int xq_rule_classified(xq_cycle_ruling *r, const xq_rules *rules, int last_fullmove)
{
  if (!r || !rules || r->n < 1 || r->n > XQ_CYCLE_MAX) return XQ_EINVAL;
  for (int i = 0; i < r->n; i++)
    if (r->cls[i].mover > XQ_BLACK || r->cls[i].cls > XQ_CLS_UNDECIDED) return XQ_EINVAL;
  int axf = !xq__classify_is_cxa(rules);
  verdict v = axf ? axf_verdict(r, rules) : cxa_verdict(r, rules);
  /* P12: a 不变作和 cycle completed before full move N must be changed by
   * Red or by the cycle's first mover. */
  if (v.outcome == XQ_OUT_DRAW && rules->early_cycle_move_limit > 0 &&
      last_fullmove < rules->early_cycle_move_limit &&
      (axf || v.reason != XQ_REASON_MUTUAL_PERPETUAL_CHECK)) {
    int s = rules->early_cycle_changer == XQ_EARLY_RED ? XQ_RED : r->cls[0].mover;
    v = make_verdict(XQ_OUT_MUST_CHANGE, s, XQ_REASON_EARLY_CYCLE);
  }
  r->outcome = v.outcome;
  r->side = v.side;
  r->reason = v.reason;
  return XQ_OK;
}

int xq_rule_cycle(const xq_pos *start, const xq_move *moves, int n,
                  const xq_rules *rules, xq_cycle_ruling *out)
{
  if (!start || !moves || !rules || !out || n < 1 || n > XQ_CYCLE_MAX) return XQ_EINVAL;
  int last_fullmove = start->fullmove;
  xq_pos p = *start;
  memset(out, 0, sizeof *out);
  for (int i = 0; i < n; i++) {
    int rc = xq_classify_move(&p, moves[i], rules, &out->cls[i]);
    if (rc != XQ_OK) return rc;
    last_fullmove = p.fullmove;
    xq_undo u;
    xq_make(&p, moves[i], &u);
  }
  out->n = n;
  return xq_rule_classified(out, rules, last_fullmove);
}
