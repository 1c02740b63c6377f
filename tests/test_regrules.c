/*
 * test_regrules.c -- the regulations' rules of play that only a few
 * events have: Xinjiang's late draw offer by the side with the advantage
 * (补充规定 九) and its flag fall that a mate outlasts (补充规定 十);
 * Burqin's offers under three minutes with the exemption for bare
 * positions and the offer the weaker side may not refuse (补充规定 2, 3);
 * Shaanxi's suicide still in hand (补充规定 七.3); their clauses and their
 * JSON keys.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "support.h"

static xq_game G; /* ~70 KB: not on the stack */

static xq_rules rules(const char *name)
{
  xq_rules r;
  cr_assert_eq(xq_rules_preset(name, &r), XQ_OK, "%s", name);
  return r;
}

static void start(const xq_rules *r, const char *fen)
{
  xq_error err = {0};
  cr_assert_eq(xq_game_init(&G, r, fen, &err), XQ_OK, "%s", err.msg);
}

static xq_verdict ev(const char *tok)
{
  xq_verdict v;
  xq_error err = {0};
  cr_assert_eq(xq_game_event(&G, tok, &v, &err), XQ_OK, "%s: %s", tok, err.msg);
  return v;
}

/* Red: one rook; Black: nothing but the general -- fewer than two
 * attacking pieces each, not yet a P14 draw. */
static const char *BARE = "4k4/9/9/9/9/9/9/9/R8/3K5 w";
static const char *MATE1 = "4k4/R8/9/9/9/9/9/9/1R7/3K5 w";
/* the opening with Black's rooks gone: Red clearly better (18 ahead) */
static const char *AHEAD = "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
static const char *HELD_SUICIDE = "4k4/9/9/p8/9/9/9/9/4R4/3K5 b"; /* a6a5 ignores the check */

Test(xinjiang, late_offer_accepted_goes_to_the_arbiter)
{
  xq_rules r = rules("xinjiang2018");
  cr_assert_eq(r.draw_offer_advantage_cutoff_s, 180);
  start(&r, NULL);
  /* with 10 minutes left the offer and its acceptance are plain */
  ev("clock:600000/600000");
  xq_verdict v = ev("offer-red");
  cr_assert_eq(v.kind, XQ_VERDICT_ACCEPTED);
  cr_assert_eq(G.draw_offer_late, 0);
  v = ev("accept-black");
  cr_assert_eq(v.kind, XQ_VERDICT_DRAW);
  cr_assert_eq(v.reason, XQ_REASON_AGREEMENT);

  /* under 3 minutes: the offer stands, its acceptance is the arbiter's */
  start(&r, NULL);
  ev("clock:170000/600000");
  v = ev("offer-red");
  cr_assert_eq(v.kind, XQ_VERDICT_ACCEPTED);
  cr_assert_str_eq(v.rule, "draw_offer_advantage_cutoff_s");
  v = ev("accept-black");
  cr_assert_eq(v.kind, XQ_VERDICT_NEEDS_ARBITER);
  cr_assert_eq(G.result, XQ_OUT_NEEDS_ARBITER);
  cr_assert_eq(G.draw_offer_pending, -1);
  v = ev("h2e2");
  cr_assert_eq(v.kind, XQ_VERDICT_REFUSED, "play waits for the arbiter");
  /* the offerer was not the advantaged side: the arbiter rules the draw */
  v = ev("result:=");
  cr_assert_eq(v.kind, XQ_VERDICT_DRAW);
  cr_assert_eq(G.result, XQ_OUT_DRAW);

  /* or it was: the offer is void, play resumes */
  start(&r, NULL);
  ev("clock:170000/600000");
  ev("offer-red");
  ev("accept-black");
  v = ev("result:none");
  cr_assert_eq(G.result, XQ_OUT_NONE);
  cr_assert_eq(ev("h2e2").kind, XQ_VERDICT_ACCEPTED);

  /* a late offer declined is simply declined */
  start(&r, NULL);
  ev("clock:170000/600000");
  ev("offer-red");
  v = ev("decline-black");
  cr_assert_eq(v.kind, XQ_VERDICT_ACCEPTED);
  cr_assert_eq(G.result, XQ_OUT_NONE);

  /* other presets: no such rule */
  xq_rules c = rules("cxa2011");
  c.clock_base_s = 600;
  start(&c, NULL);
  ev("clock:100000/600000");
  ev("offer-red");
  cr_assert_eq(ev("accept-black").kind, XQ_VERDICT_DRAW);
}

Test(xinjiang, a_mate_outlasts_the_flag_fall_elsewhere_the_flag_loses)
{
  xq_rules x = rules("xinjiang2018");
  cr_assert(x.flag_fall_mate_stands);
  start(&x, MATE1);
  xq_verdict v = ev("flag:b1b9");
  cr_assert_eq(v.kind, XQ_VERDICT_MATE, "除出现将死、困毙外");
  start(&x, MATE1);
  v = ev("flag:b1b2");
  cr_assert_eq(v.kind, XQ_VERDICT_LOSS, "其他情况均应按“超时”判负");
  cr_assert_eq(v.reason, XQ_REASON_FLAG_FALL);
  /* the text names only mate and stalemate: a bare position (nobody can
   * win) still loses on time */
  start(&x, BARE);
  v = ev("flag:a1a2");
  cr_assert_eq(v.kind, XQ_VERDICT_LOSS);
  cr_assert_eq(G.result, XQ_OUT_BLACK_WINS);
  for (int i = 0; xq_rules_preset_name(i); i++) {
    xq_rules r = rules(xq_rules_preset_name(i));
    if (!strcmp(r.name, "xinjiang2018")) continue;
    cr_assert(!r.flag_fall_mate_stands, "%s: 超时判负", r.name);
    start(&r, MATE1);
    cr_assert_eq(ev("flag:b1b9").kind, XQ_VERDICT_LOSS, "%s", r.name);
  }
}

Test(burqin, offers_under_three_minutes_except_in_bare_positions)
{
  xq_rules b = rules("burqin2018");
  cr_assert_eq(b.draw_offer_min_clock_s, 180);
  cr_assert_eq(b.draw_offer_exempt_attackers, 2);
  start(&b, NULL);
  ev("clock:170000/600000");
  xq_verdict v = ev("offer-red");
  cr_assert_eq(v.kind, XQ_VERDICT_REFUSED);
  cr_assert_str_eq(v.rule, "draw_offer_min_clock_s");
  /* 少于两个进攻子的简明公认官和局面除外 */
  start(&b, BARE);
  ev("clock:170000/600000");
  v = ev("offer-red");
  cr_assert_eq(v.kind, XQ_VERDICT_ACCEPTED);
  cr_assert_eq(G.draw_offer_pending, XQ_RED);
  /* two attackers on one side: no exemption */
  start(&b, "4k4/9/9/9/9/9/9/9/R8/3K3R1 w");
  ev("clock:170000/600000");
  cr_assert_eq(ev("offer-red").kind, XQ_VERDICT_REFUSED);
}

Test(burqin, the_weaker_side_may_not_refuse)
{
  xq_rules b = rules("burqin2018");
  cr_assert(b.draw_decline_to_arbiter);
  start(&b, AHEAD);
  ev("clock:400000/1200000");
  ev("offer-red");
  xq_verdict v = ev("decline-black");
  cr_assert_eq(v.kind, XQ_VERDICT_NEEDS_ARBITER);
  cr_assert_str_eq(v.rule, "draw_decline_to_arbiter");
  /* the arbiter finds Red clearly better and short of time: a draw */
  v = ev("result:=");
  cr_assert_eq(G.result, XQ_OUT_DRAW);
  /* or not: play on, and the offer counts toward the two allowed */
  start(&b, AHEAD);
  ev("clock:400000/1200000");
  ev("offer-red");
  ev("decline-black");
  ev("result:none");
  ev("h2e2");
  ev("h9g7");
  ev("offer-red");
  cr_assert_eq(ev("decline-black").kind, XQ_VERDICT_NEEDS_ARBITER);
  ev("result:none");
  cr_assert_eq(ev("offer-red").kind, XQ_VERDICT_REFUSED);
  /* Xinjiang: a refusal is a refusal */
  xq_rules x = rules("xinjiang2018");
  start(&x, NULL);
  ev("offer-red");
  cr_assert_eq(ev("decline-black").kind, XQ_VERDICT_ACCEPTED);
}

Test(burqin, any_other_refusal_is_just_a_refusal)
{
  /* 补充规定 2 forbids refusing only the clearly better side's offer for
   * lack of time: an even position, or a leader with more time, is
   * refused like anywhere else */
  xq_rules b = rules("burqin2018");
  start(&b, NULL);
  ev("clock:400000/1200000");
  ev("offer-red");
  xq_verdict v = ev("decline-black");
  cr_assert_eq(v.kind, XQ_VERDICT_ACCEPTED, "even material: refused, play goes on");
  cr_assert_eq(G.result, XQ_OUT_NONE);
  cr_assert_eq(G.draw_offer_pending, -1);
  start(&b, AHEAD);
  ev("clock:1200000/400000");
  ev("offer-red");
  cr_assert_eq(ev("decline-black").kind, XQ_VERDICT_ACCEPTED, "the leader has more time");
  /* the weaker side offering short of time: refused */
  start(&b, "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
  ev("clock:1200000/400000");
  ev("offer-black");
  cr_assert_eq(ev("decline-red").kind, XQ_VERDICT_ACCEPTED, "Black is the weaker: no duty to accept");
  /* and Black, clearly better and short of time, may not be refused */
  start(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 b");
  ev("clock:400000/1200000");
  cr_assert_eq(ev("offer-black").kind, XQ_VERDICT_ACCEPTED);
  cr_assert_eq(ev("decline-red").kind, XQ_VERDICT_ACCEPTED, "Black has more time");
  start(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 b");
  ev("clock:1200000/400000");
  ev("offer-black");
  cr_assert_eq(ev("decline-red").kind, XQ_VERDICT_NEEDS_ARBITER, "Black, ahead and short of time");
}

Test(xinjiang, a_draw_offer_only_in_ones_own_time)
{
  xq_rules x = rules("xinjiang2018");
  cr_assert(x.draw_offer_own_time);
  start(&x, NULL);
  /* 补充规定 八: 提议作和必须在自己用时内提出 -- Red to move, Black's
   * offer comes in Red's time */
  xq_verdict v = ev("offer-black");
  cr_assert_eq(v.kind, XQ_VERDICT_REFUSED);
  cr_assert_str_eq(v.rule, "draw_offer_own_time");
  cr_assert_eq(G.draw_offers[XQ_BLACK], 0, "not counted");
  cr_assert_eq(ev("offer-red").kind, XQ_VERDICT_ACCEPTED);
  cr_assert_eq(ev("accept-black").kind, XQ_VERDICT_DRAW);
  /* the rule book lets either side offer */
  xq_rules c = rules("cxa2011");
  cr_assert(!c.draw_offer_own_time);
  start(&c, NULL);
  cr_assert_eq(ev("offer-black").kind, XQ_VERDICT_ACCEPTED);
}

Test(shaanxi, suicide_in_hand_costs_its_fouls)
{
  xq_rules s = rules("shaanxi2019");
  cr_assert_eq(s.suicide_held_fouls, 1);
  start(&s, HELD_SUICIDE);
  xq_verdict v = ev("held:a6a5");
  cr_assert_eq(v.kind, XQ_VERDICT_FOUL);
  cr_assert_str_eq(v.rule, "suicide_held_fouls");
  cr_assert_eq(G.fouls[1], 1);
  cr_assert_eq(G.nply, 0, "taken back");
  /* released, it loses (已离手直接判负) */
  start(&s, HELD_SUICIDE);
  v = ev("a6a5");
  cr_assert_eq(v.kind, XQ_VERDICT_LOSS);
  /* two held suicides and a third foul lose (九.3: 三次犯规判负) */
  start(&s, HELD_SUICIDE);
  ev("held:a6a5");
  ev("held:a6a5");
  v = ev("held:a6a5");
  cr_assert_eq(v.kind, XQ_VERDICT_LOSS);
  cr_assert_eq(v.reason, XQ_REASON_FOUL_LIMIT);
  /* other values of the parameter */
  xq_rules c = rules("cxa2011");
  c.suicide_held_fouls = 0;
  start(&c, HELD_SUICIDE);
  v = ev("held:a6a5");
  cr_assert_eq(v.kind, XQ_VERDICT_REFUSED);
  cr_assert_eq(G.fouls[1], 0);
  c.suicide_held_fouls = 2;
  start(&c, HELD_SUICIDE);
  v = ev("held:a6a5");
  cr_assert_eq(v.kind, XQ_VERDICT_FOUL);
  cr_assert_eq(G.fouls[1], 2);
}

Test(clauses, every_new_value_has_its_clause_and_json_key)
{
  static const struct { const char *preset, *key, *needle; } want[] = {
    {"xinjiang2018", "draw_offer_advantage_cutoff_s", "优势方3分钟前可提和"},
    {"xinjiang2018", "flag_fall_mate_stands", "除出现将死、困毙外"},
    {"burqin2018", "draw_offer_exempt_attackers", "少于两个进攻子"},
    {"burqin2018", "draw_decline_to_arbiter", "劣势方不得拒绝"},
    {"shaanxi2019", "suicide_held_fouls", "未离手判犯规一次"},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const char *c = xq_rules_preset_clause(want[i].preset, want[i].key);
    cr_assert_not_null(c, "%s %s", want[i].preset, want[i].key);
    cr_assert(strstr(c, want[i].needle), "%s", c);
  }
  cr_assert_null(xq_rules_preset_clause("wujiaqu2024", "flag_fall_mate_stands"));
  xq_rules r;
  xq_error err = {0};
  cr_assert_eq(xq_rules_load_json("{\"preset\":\"cxa2011\",\"suicide_held_fouls\":3,"
                                  "\"flag_fall_mate_stands\":true,\"draw_decline_to_arbiter\":true,"
                                  "\"draw_offer_exempt_attackers\":2,"
                                  "\"draw_offer_advantage_cutoff_s\":120}", &r, &err),
               XQ_OK, "%s", err.msg);
  cr_assert_eq(r.suicide_held_fouls, 3);
  cr_assert(r.flag_fall_mate_stands && r.draw_decline_to_arbiter);
  cr_assert_eq(r.draw_offer_advantage_cutoff_s, 120);
  char *j = xq_rules_to_json(&r);
  cr_assert(strstr(j, "\"suicide_held_fouls\":3"), "%s", j);
  free(j);
  cr_assert_eq(xq_rules_load_json("{\"suicide_held_fouls\":11}", &r, &err), XQ_EINVAL);
  /* `xqref presets show` prints them with their clauses */
  int status;
  char *out = xq_test_run("presets show xinjiang2018", &status);
  cr_assert_eq(status, 0, "%s", out);
  cr_assert(strstr(out, "flag_fall_mate_stands"), "%s", out);
  cr_assert(strstr(out, "优势方3分钟前可提和"), "%s", out);
  free(out);
}

/* The Wujiaqu readings (docs/presets.md): 进攻子力 with or without the
 * uncrossed pawns, and the 40 moves from the last capture or from the
 * arbiter's approval (补充规定 一.2). */
Test(wujiaqu, uncrossed_pawns_attack_or_not)
{
  /* Red: a rook and two pawns on their own side of the river */
  static const char *THREE = "4k4/9/9/9/9/9/P1P6/9/R8/3K5 w";
  xq_rules w = rules("wujiaqu2024");
  cr_assert(!w.claim_attackers_crossed_pawns);
  start(&w, THREE);
  xq_verdict v = ev("claim-red");
  cr_assert_eq(v.kind, XQ_VERDICT_REFUSED);
  cr_assert_str_eq(v.rule, "claim_max_attackers");
  w.claim_attackers_crossed_pawns = 1;
  start(&w, THREE);
  v = ev("claim-red");
  cr_assert_str_neq(v.rule, "claim_max_attackers", "one attacker when pawns must cross");
  /* a crossed pawn attacks either way */
  start(&w, "4k4/9/9/P1P6/9/9/9/9/R8/3K5 w");
  cr_assert_eq(ev("claim-red").kind, XQ_VERDICT_REFUSED, "a rook and two crossed pawns");
}

Test(wujiaqu, the_count_from_the_capture_or_from_the_approval)
{
  xq_rules w = rules("wujiaqu2024");
  w.natural_limit_moves = 2; /* 4 plies */
  w.claim_max_attackers = 0;
  w.natural_check_policy = XQ_NAT_CHECKS_COUNT_ALL; /* the start is the point here, not 捉/将/杀 */
  /* back from the last capture (the start): four idle plies, a draw */
  start(&w, BARE);
  const char *idle[] = {"a1b1", "e9f9", "b1c1", "f9f8", "c1b1", "f8e8", "b1a1", "e8e9"};
  for (int i = 0; i < 4; i++) ev(idle[i]);
  cr_assert_eq(ev("claim-red").kind, XQ_VERDICT_DRAW);
  /* forward from the approval: the first claim starts the count */
  w.natural_count_from_claim = 1;
  start(&w, BARE);
  ev(idle[0]);
  ev(idle[1]);
  xq_verdict v = ev("claim-red");
  cr_assert_eq(v.kind, XQ_VERDICT_ACCEPTED);
  cr_assert_str_eq(v.rule, "natural_count_from_claim");
  ev(idle[2]);
  ev(idle[3]);
  cr_assert_eq(xq_game_natural_count(&G, XQ_RED), 2, "two plies since the approval");
  cr_assert_neq(ev("claim-red").kind, XQ_VERDICT_DRAW);
  ev(idle[4]);
  ev(idle[5]);
  cr_assert_eq(xq_game_natural_count(&G, XQ_RED), 4);
  cr_assert_eq(ev("claim-red").kind, XQ_VERDICT_DRAW);
}
