/*
 * natural.c -- the natural move limit (自然限着, R9): which plies
 * count for a claimant under P6, the automatic draw under P7/P17, and
 * claims with their penalties (P8) and the attacker limit.
 */
#include <stdio.h>
#include <string.h>

#include "game_internal.h"

/* True when move `i` of the window by `side` is excluded for a claimant
 * `side` under a policy that does not depend on order (all checks, or all
 * 将/杀/捉). `pos` is the position before the move. */
static int forcing(const xq_game *g, const xq_pos *pos, int i)
{
  const xq_game_ply *h = &g->hist[i];
  if (h->check) return 1;
  xq_move_class c;
  if (xq_classify_move(pos, h->move, &g->rules, &c) != XQ_OK) return 1;
  /* A move the classifier cannot decide counts as forcing: no draw is
   * granted on a guess. */
  return c.cls != XQ_CLS_IDLE;
}

/* Plies excluded for claimant `side`: each excluded move of the claimant
 * removes itself and the opponent's reply when made (R9). `cap` < 0 means
 * every check of the claimant is excluded. */
static int excluded_checks(const xq_game *g, int side, int cap, int from)
{
  int checks = 0, drop = 0;
  for (int i = from; i < g->nply; i++) {
    const xq_game_ply *h = &g->hist[i];
    if (h->mover != side || !h->check) continue;
    /* CXA 2011 22.2: 提出方“将军”最多只计10着 -- checks beyond the cap
     * drop out with their replies. */
    if (cap >= 0 && ++checks <= cap) continue;
    drop += 1 + (i + 1 < g->nply);
  }
  return drop;
}

static int excluded_forcing(const xq_game *g, int side, int from)
{
  xq_pos pos = g->window_pos;
  xq_undo u;
  int drop = 0;
  for (int i = g->window_start; i < g->nply; i++) {
    if (i >= from && g->hist[i].mover == side && forcing(g, &pos, i)) drop += 1 + (i + 1 < g->nply);
    xq_make(&pos, g->hist[i].move, &u);
  }
  return drop;
}

/* Where `side`'s count starts: the last capture, or with
 * natural_count_from_claim the ply its claim was approved at (a capture
 * since voids that: -1). */
static int count_start(const xq_game *g, int side)
{
  if (!g->rules.natural_count_from_claim) return g->window_start;
  int from = g->natural_from[side] - 1;
  return from >= g->window_start ? from : -1;
}

static int count_for(const xq_game *g, int side)
{
  int from = count_start(g, side);
  if (from < 0) return 0;
  int w = from == g->window_start ? xq__game_window_plies(g) : g->nply - from;
  switch (g->rules.natural_check_policy) {
  case XQ_NAT_CHECKS_CAP: return w - excluded_checks(g, side, g->rules.natural_check_cap, from);
  case XQ_NAT_CHECKS_EXCLUDE_CLAIMANT: return w - excluded_checks(g, side, -1, from);
  case XQ_NAT_FORCING_EXCLUDE_CLAIMANT: return w - excluded_forcing(g, side, from);
  case XQ_NAT_CHECKS_COUNT_ALL: return w;
  }
  return w;
}

static int checks_of(const xq_game *g, int side)
{
  int n = 0;
  for (int i = g->window_start; i < g->nply; i++) n += g->hist[i].mover == side && g->hist[i].check;
  return n;
}

int xq_game_natural_count(const xq_game *g, int side)
{
  if (!g) return 0;
  if (side == XQ_RED || side == XQ_BLACK) return count_for(g, side);
  int w = xq__game_window_plies(g), cap = g->rules.natural_check_cap;
  switch (g->rules.natural_auto_mode) {
  case XQ_NAT_AUTO_SYMMETRIC:
    /* Pikafish: both sides' excess checks and their replies drop out. */
    return w - excluded_checks(g, XQ_RED, cap, g->window_start) - excluded_checks(g, XQ_BLACK, cap, g->window_start);
  case XQ_NAT_AUTO_MAX_SIDE: {
    /* Fairy-Stockfish: the limit grows by two plies per excess check of
     * the side with more checks. */
    int r = checks_of(g, XQ_RED), b = checks_of(g, XQ_BLACK), mx = r > b ? r : b;
    return w - 2 * (mx > cap ? mx - cap : 0);
  }
  case XQ_NAT_AUTO_EITHER:
  default: {
    /* The earliest moment a claim by either side would be valid. */
    int r = count_for(g, XQ_RED), b = count_for(g, XQ_BLACK);
    return r > b ? r : b;
  }
  }
}

int xq__natural_auto_reached(const xq_game *g)
{
  int limit = 2 * g->rules.natural_limit_moves;
  if (g->rules.natural_trigger != XQ_TRIGGER_AUTO || limit <= 0) return 0;
  /* Every count is at most W: skip the work until W reaches the limit. */
  if (xq__game_window_plies(g) < limit) return 0;
  return xq_game_natural_count(g, -1) >= limit;
}

int xq__natural_attackers(const xq_pos *p, int side)
{
  int n = 0;
  static const int kinds[] = {XQ_ROOK, XQ_HORSE, XQ_CANNON, XQ_PAWN};
  for (int i = 0; i < 4; i++) {
    xq_bb b = p->kind[side][kinds[i]];
    n += __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
  }
  return n;
}

int xq_game_claim_natural(xq_game *g, int side, xq_verdict *v)
{
  if (!g || !v || (side != XQ_RED && side != XQ_BLACK)) return XQ_EINVAL;
  xq__verdict_begin(g, v, "claim_natural");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  const xq_rules *r = &g->rules;
  v->side = side;
  if (r->natural_limit_moves <= 0) {
    /* Tangshan 八.5: 裁判按照具体局面区别对待. */
    xq__verdict_pause(g, v, XQ_REASON_NATURAL_LIMIT, "P5");
    snprintf(v->zh, sizeof v->zh, "%s提出自然限着，由裁判按具体局面裁决", xq__side_zh[side]);
    snprintf(v->en, sizeof v->en, "%s claims the natural limit; the arbiter decides on the position",
             xq__side_en[side]);
    return XQ_OK;
  }
  int att = xq__natural_attackers(&g->pos, side);
  if (r->claim_attackers_crossed_pawns) {
    /* an uncrossed pawn does not attack (the Wujiaqu pawns=crossed reading) */
    xq_bb pawns = g->pos.kind[side][XQ_PAWN];
    for (int sq = 0; sq < XQ_SQUARES; sq++)
      if (((pawns >> sq) & 1) && (side == XQ_RED ? XQ_RANK(sq) <= 4 : XQ_RANK(sq) >= 5)) att--;
  }
  if (r->claim_max_attackers > 0 && att >= r->claim_max_attackers) {
    /* Wujiaqu 补充规定 2: 提出方有三个或以上进攻子力，裁判不予受理. */
    v->kind = XQ_VERDICT_REFUSED;
    v->reason = XQ_REASON_CLAIM_REFUSED;
    snprintf(v->rule, sizeof v->rule, "claim_max_attackers");
    snprintf(v->zh, sizeof v->zh, "%s有%d个进攻子力（不少于%d个），自然限着提议不予受理",
             xq__side_zh[side], att, r->claim_max_attackers);
    snprintf(v->en, sizeof v->en,
             "%s has %d attacking pieces (%d or more): the natural-limit claim is not entertained",
             xq__side_en[side], att, r->claim_max_attackers);
    return XQ_OK;
  }
  if (r->natural_count_from_claim && count_start(g, side) < 0) {
    /* the count runs forward from the arbiter's approval (Wujiaqu
     * natural_from=approval: 裁判员审查盘面同意后方可执行，由提出方计数) */
    g->natural_from[side] = g->nply + 1;
    v->kind = XQ_VERDICT_ACCEPTED;
    v->reason = XQ_REASON_NATURAL_LIMIT;
    v->changed = 1;
    snprintf(v->rule, sizeof v->rule, "natural_count_from_claim");
    snprintf(v->zh, sizeof v->zh, "%s提出自然限着，裁判同意，自此计数%d回合", xq__side_zh[side],
             r->natural_limit_moves);
    snprintf(v->en, sizeof v->en, "%s's natural-limit claim is approved: %d moves count from now",
             xq__side_en[side], r->natural_limit_moves);
    return XQ_OK;
  }
  int count = count_for(g, side), need = 2 * r->natural_limit_moves;
  if (count >= need) {
    xq__verdict_end(g, v, XQ_VERDICT_DRAW, XQ_OUT_DRAW, XQ_REASON_NATURAL_LIMIT, -1, "R9");
    snprintf(v->zh, sizeof v->zh, "%s提出自然限着：计%d着（需%d着），判和%s", xq__side_zh[side],
             count, need, v->result == XQ_OUT_DRAW ? "" : "（和棋黑胜）");
    snprintf(v->en, sizeof v->en, "%s claims the natural limit: %d plies count (%d needed), a draw%s",
             xq__side_en[side], count, need, /* count >= need > 1: plural */
             v->result == XQ_OUT_DRAW ? "" : " (armageddon: Black wins)");
    return XQ_OK;
  }
  /* P8: a false claim. */
  g->false_claims[side]++;
  v->reason = XQ_REASON_FALSE_CLAIM;
  char zh[160], en[160];
  snprintf(zh, sizeof zh, "自然限着提议不属实（计%d着，需%d着）", count, need);
  snprintf(en, sizeof en, "a false natural-limit claim (%d %s, %d needed)", count,
           count == 1 ? "ply counts" : "plies count", need);
  if (r->false_claims_to_lose > 0 && g->false_claims[side] >= r->false_claims_to_lose) {
    /* Shaanxi 补充规定 5: 提出方再次提出，仍不够40回合，即判负. */
    xq__verdict_end(g, v, XQ_VERDICT_LOSS, side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                    XQ_REASON_FALSE_CLAIM, side, "P8");
    snprintf(v->zh, sizeof v->zh, "%s第%d次%s，判负", xq__side_zh[side], g->false_claims[side], zh);
    snprintf(v->en, sizeof v->en, "%s: %s; false claim number %d, which loses",
             xq__side_en[side], en, g->false_claims[side]);
    return XQ_OK;
  }
  if (r->false_claim_penalty_s > 0 && g->clock_ms[side] >= 0) {
    g->clock_ms[side] -= 1000L * r->false_claim_penalty_s;
    v->changed = 1;
    if (g->clock_ms[side] <= 0) {
      /* 若因此超时则判负. */
      g->clock_ms[side] = 0;
      xq__verdict_end(g, v, XQ_VERDICT_LOSS, side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                      XQ_REASON_FLAG_FALL, side, "P8");
      snprintf(v->zh, sizeof v->zh, "%s%s，扣时%d秒后超时，判负", xq__side_zh[side], zh,
               r->false_claim_penalty_s);
      snprintf(v->en, sizeof v->en, "%s: %s; %d s off the clock run it out: loses",
               xq__side_en[side], en, r->false_claim_penalty_s);
      return XQ_OK;
    }
    char t[64];
    snprintf(t, sizeof t, "，扣除%d秒", r->false_claim_penalty_s);
    strncat(zh, t, sizeof zh - strlen(zh) - 1);
    snprintf(t, sizeof t, "; %d s off the clock", r->false_claim_penalty_s);
    strncat(en, t, sizeof en - strlen(en) - 1);
  }
  if (r->false_claim_fouls > 0) {
    xq__verdict_foul(g, v, side, r->false_claim_fouls, XQ_REASON_FALSE_CLAIM, "P8", zh, en);
    return XQ_OK;
  }
  v->kind = XQ_VERDICT_REFUSED;
  v->changed = 1;
  snprintf(v->rule, sizeof v->rule, "P8");
  snprintf(v->zh, sizeof v->zh, "%s%s", xq__side_zh[side], zh);
  snprintf(v->en, sizeof v->en, "%s: %s", xq__side_en[side], en);
  return XQ_OK;
}
