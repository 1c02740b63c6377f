/*
 * offer.c -- draw offers and their answers under the regulations' limits:
 * offers per game, before a move, beyond the opponent's count, with too
 * little time left (and the exemption for bare positions), and the two
 * cases only the arbiter can settle: Xinjiang's late offer by the side
 * with the advantage, Burqin's offer the weaker side may not refuse.
 */
#include <stdio.h>

#include "game_internal.h"

/* Material of `side` by XQ_CLEAR_LEAD's values. */
static int material(const xq_pos *pos, int side)
{
  static const int val[8] = {0, 0, 2, 2, 4, 9, 4, 1}; /* by xq_pid_kind */
  int sum = 0;
  for (int pid = side * 16; pid < side * 16 + 16; pid++) {
    int sq = pos->sq[pid];
    if (sq == XQ_NO_SQ) continue;
    int k = xq_pid_kind(pid);
    /* a pawn across the river (Red's ranks 5-9, Black's 0-4) counts 2 */
    sum += val[k] + (k == XQ_PAWN && (side == XQ_RED ? XQ_RANK(sq) >= 5 : XQ_RANK(sq) <= 4));
  }
  return sum;
}

/* Burqin 补充规定 2: 公认优胜方由于时间不够而提和 -- the offerer has less
 * time left than the opponent and is clearly ahead. */
static int short_and_better(const xq_game *g, int side)
{
  if (g->clock_ms[side] < 0 || g->clock_ms[!side] < 0 || g->clock_ms[side] >= g->clock_ms[!side]) return 0;
  return material(&g->pos, side) - material(&g->pos, !side) >= XQ_CLEAR_LEAD;
}

/* True when the offerer's clock is under `s` seconds (no clock: never). */
static int clock_under(const xq_game *g, int side, int s)
{
  return s > 0 && g->clock_ms[side] >= 0 && g->clock_ms[side] < 1000L * s;
}

int xq_game_offer_draw(xq_game *g, int side, xq_verdict *v)
{
  if (!g || !v || (side != XQ_RED && side != XQ_BLACK)) return XQ_EINVAL;
  xq__verdict_begin(g, v, "draw_offer");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  const xq_rules *r = &g->rules;
  v->side = side;
  v->reason = XQ_REASON_DRAW_OFFER;
  const char *rule = NULL;
  char zh[128] = "", en[128] = "";
  /* Burqin 补充规定 2: 提出方剩余时间不足3分钟提和，裁判不予受理（少于两个
   * 进攻子的简明公认官和局面除外） -- 双方少于两个进攻子 (补充规定 3) */
  int bare = r->draw_offer_exempt_attackers > 0 &&
             xq__natural_attackers(&g->pos, XQ_RED) < r->draw_offer_exempt_attackers &&
             xq__natural_attackers(&g->pos, XQ_BLACK) < r->draw_offer_exempt_attackers;
  if (r->draw_offer_own_time && side != g->pos.side) {
    /* Xinjiang 补充规定 八: 提议作和必须在自己用时内提出 */
    rule = "draw_offer_own_time";
    snprintf(zh, sizeof zh, "提议作和必须在自己用时内提出");
    snprintf(en, sizeof en, "an offer only in one's own time (on one's own move)");
  } else if (r->draw_offers_per_game > 0 && g->draw_offers[side] >= r->draw_offers_per_game) {
    rule = "draw_offers_per_game";
    snprintf(zh, sizeof zh, "每方提和不得超过%d次", r->draw_offers_per_game);
    snprintf(en, sizeof en, "at most %d offers per player", r->draw_offers_per_game);
  } else if (r->draw_offer_min_move > 0 && g->pos.fullmove < r->draw_offer_min_move) {
    rule = "draw_offer_min_move";
    snprintf(zh, sizeof zh, "第%d回合前不得提和", r->draw_offer_min_move);
    snprintf(en, sizeof en, "no offer before move %d", r->draw_offer_min_move);
  } else if (r->draw_offer_max_lead > 0 &&
             g->draw_offers[side] - g->draw_offers[!side] >= r->draw_offer_max_lead) {
    rule = "draw_offer_max_lead";
    snprintf(zh, sizeof zh, "提和次数不得多于对方%d次", r->draw_offer_max_lead);
    snprintf(en, sizeof en, "no more than %d offers beyond the opponent's", r->draw_offer_max_lead);
  } else if (clock_under(g, side, r->draw_offer_min_clock_s) && !bare) {
    rule = "draw_offer_min_clock_s";
    snprintf(zh, sizeof zh, "剩余时间不足%d秒不得提和", r->draw_offer_min_clock_s);
    snprintf(en, sizeof en, "no offer with less than %d s left", r->draw_offer_min_clock_s);
  } else if (g->draw_offer_pending == side) {
    rule = "";
    snprintf(zh, sizeof zh, "已有提和待对方答复");
    snprintf(en, sizeof en, "an offer already stands");
  }
  if (rule) {
    v->kind = XQ_VERDICT_REFUSED;
    snprintf(v->rule, sizeof v->rule, "%s", rule);
    snprintf(v->zh, sizeof v->zh, "%s提和不予受理：%s", xq__side_zh[side], zh);
    snprintf(v->en, sizeof v->en, "%s's draw offer is not allowed: %s", xq__side_en[side], en);
    return XQ_OK;
  }
  g->draw_offers[side]++;
  g->draw_offer_pending = side;
  /* Xinjiang 补充规定 九: 优势方3分钟前可提和 -- a later offer stands
   * unless the offerer holds the advantage, which the arbiter judges
   * when it is accepted */
  g->draw_offer_late = clock_under(g, side, r->draw_offer_advantage_cutoff_s);
  g->draw_offer_short = r->draw_decline_to_arbiter && short_and_better(g, side);
  v->changed = 1;
  if (g->draw_offer_late) {
    snprintf(v->rule, sizeof v->rule, "draw_offer_advantage_cutoff_s");
    snprintf(v->zh, sizeof v->zh, "%s提和（第%d次），待对方答复；剩余时间不足%d秒，如为优势方则提和无效",
             xq__side_zh[side], g->draw_offers[side], r->draw_offer_advantage_cutoff_s);
    snprintf(v->en, sizeof v->en,
             "%s offers a draw (offer %d); the opponent answers; with less than %d s left it is void "
             "if %s holds the advantage", xq__side_en[side], g->draw_offers[side],
             r->draw_offer_advantage_cutoff_s, xq__side_en[side]);
    return XQ_OK;
  }
  snprintf(v->zh, sizeof v->zh, "%s提和（第%d次），待对方答复", xq__side_zh[side],
           g->draw_offers[side]);
  snprintf(v->en, sizeof v->en, "%s offers a draw (offer %d); the opponent answers",
           xq__side_en[side], g->draw_offers[side]);
  return XQ_OK;
}

/* Pause play for the arbiter on the answer to an offer. */
static void to_arbiter(xq_game *g, xq_verdict *v, const char *rule)
{
  g->draw_offer_pending = -1; /* answered: the arbiter settles it */
  g->draw_offer_late = 0;
  g->draw_offer_short = 0;
  xq__verdict_pause(g, v, XQ_REASON_DRAW_OFFER, rule);
}

int xq_game_answer_draw(xq_game *g, int side, int accept, xq_verdict *v)
{
  if (!g || !v || (side != XQ_RED && side != XQ_BLACK)) return XQ_EINVAL;
  xq__verdict_begin(g, v, "draw_answer");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  v->side = side;
  if (g->draw_offer_pending != !side) {
    v->kind = XQ_VERDICT_REFUSED;
    v->reason = XQ_REASON_DRAW_OFFER;
    snprintf(v->zh, sizeof v->zh, "%s没有可答复的提和", xq__side_zh[side]);
    snprintf(v->en, sizeof v->en, "%s has no draw offer to answer", xq__side_en[side]);
    return XQ_OK;
  }
  if (!accept && g->rules.draw_decline_to_arbiter && g->draw_offer_short) {
    /* Burqin 补充规定 2: 公认优胜方由于时间不够而提和，劣势方不得拒绝 -- an
     * offer by the side with less time and a clear lead: the arbiter
     * confirms it is that side (a draw, xq_game_arbiter_result) or lets
     * play go on; any other refusal is just a refusal */
    to_arbiter(g, v, "draw_decline_to_arbiter");
    snprintf(v->zh, sizeof v->zh, "%s拒绝和棋；公认优胜方因时间不够提和，劣势方不得拒绝，由裁判裁决",
             xq__side_zh[side]);
    snprintf(v->en, sizeof v->en,
             "%s declines the draw; the weaker side may not refuse the clearly better side's offer "
             "made for lack of time: the arbiter rules", xq__side_en[side]);
    return XQ_OK;
  }
  if (!accept) {
    g->draw_offer_pending = -1;
    g->draw_offer_late = 0;
    g->draw_offer_short = 0;
    v->changed = 1;
    v->reason = XQ_REASON_DRAW_OFFER;
    snprintf(v->zh, sizeof v->zh, "%s拒绝和棋", xq__side_zh[side]);
    snprintf(v->en, sizeof v->en, "%s declines the draw", xq__side_en[side]);
    return XQ_OK;
  }
  if (g->draw_offer_late) {
    /* Xinjiang 补充规定 九: the late offer is void if the offerer held
     * the advantage: the arbiter rules the draw or play on */
    to_arbiter(g, v, "draw_offer_advantage_cutoff_s");
    snprintf(v->zh, sizeof v->zh, "%s同意和棋；提和时对方剩余时间不足%d秒，优势方不得提和，由裁判裁决",
             xq__side_zh[side], g->rules.draw_offer_advantage_cutoff_s);
    snprintf(v->en, sizeof v->en,
             "%s accepts; the offer came with less than %d s left, when the side with the advantage "
             "may not offer: the arbiter rules", xq__side_en[side], g->rules.draw_offer_advantage_cutoff_s);
    return XQ_OK;
  }
  xq__verdict_end(g, v, XQ_VERDICT_DRAW, XQ_OUT_DRAW, XQ_REASON_AGREEMENT, -1, "R4");
  snprintf(v->zh, sizeof v->zh, "双方同意作和%s", v->result == XQ_OUT_DRAW ? "" : "，和棋黑胜");
  snprintf(v->en, sizeof v->en, "draw by agreement%s",
           v->result == XQ_OUT_DRAW ? "" : "; armageddon: Black wins");
  return XQ_OK;
}
