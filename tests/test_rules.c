/*
 * test_rules.c -- rule-set presets (rule books and the five regulations)
 * and JSON rules files: loading, overriding, printing and rejecting.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"

#define DATA XQ_TEST_DATA "/rules_files/"

static xq_rules preset(const char *name)
{
  xq_rules r;
  cr_assert_eq(xq_rules_preset(name, &r), XQ_OK, "preset %s", name);
  return r;
}

Test(presets, every_listed_name_loads_and_keeps_its_name)
{
  int n = 0;
  for (const char *name; (name = xq_rules_preset_name(n)); n++) {
    xq_rules r = preset(name);
    cr_assert_str_eq(r.name, name);
    cr_assert_geq(r.repetition_occurrences, 2, "%s", name);
  }
  cr_assert_eq(n, 8);
  cr_assert_null(xq_rules_preset_name(-1));
}

Test(presets, unknown_name_is_rejected_and_output_untouched)
{
  xq_rules r;
  memset(&r, 0x5a, sizeof r);
  cr_assert_eq(xq_rules_preset("fide", &r), XQ_EINVAL);
  cr_assert_eq(xq_rules_preset(NULL, &r), XQ_EINVAL);
  cr_assert_eq(((unsigned char *)&r)[0], 0x5a);
  cr_assert_eq(xq_rules_preset("CXA2011", &r), XQ_OK, "names are case-insensitive");
}

Test(presets, rule_books)
{
  xq_rules c = preset("cxa2011"), c20 = preset("cxa2020"), a = preset("axf");
  cr_assert_eq(c.ruleset, XQ_RULESET_CXA2011);
  cr_assert_eq(c.repetition_occurrences, 3);
  cr_assert_eq(c.cycles_after_change_order, 1);
  cr_assert_eq(c.natural_limit_moves, 60);
  cr_assert_eq(c.natural_check_policy, XQ_NAT_CHECKS_CAP);
  cr_assert_eq(c.natural_check_cap, 10);
  cr_assert_eq(c.illegal_policy, XQ_ILLEGAL_FOUL_THEN_LOSS);
  cr_assert_eq(c.fouls_to_lose, 3);
  cr_assert_eq(c.early_cycle_move_limit, 0);
  /* CXA 2020 = 2011 but for its name and P1. */
  cr_assert_eq(c20.ruleset, XQ_RULESET_CXA2020);
  c20.ruleset = c.ruleset;
  memcpy(c20.name, c.name, sizeof c.name);
  char *j1 = xq_rules_to_json(&c), *j2 = xq_rules_to_json(&c20);
  cr_assert_str_eq(j1, j2);
  free(j1);
  free(j2);
  cr_assert_eq(a.ruleset, XQ_RULESET_AXF);
  cr_assert_eq(a.cycles_after_change_order, 0, "AXF rules the loss at once");
  cr_assert_eq(a.cxa_chase_distinct_victims, 0);
}

Test(presets, regulations_follow_their_clauses)
{
  xq_rules x = preset("xinjiang2018");
  cr_assert_eq(x.natural_limit_moves, 50);
  cr_assert_eq(x.early_cycle_move_limit, 25);
  cr_assert_eq(x.early_cycle_changer, XQ_EARLY_RED);
  cr_assert_eq(x.clock_base_s, 1500);
  cr_assert_eq(x.clock_increment_s, 10, "the supplement's 10 s wins over the main text's 5 s");
  cr_assert_eq(x.draw_offer_max_lead, 2);

  xq_rules b = preset("burqin2018");
  cr_assert_eq(b.natural_limit_moves, 40);
  cr_assert_eq(b.natural_check_policy, XQ_NAT_CHECKS_CAP, "supplement: 8 checks count");
  cr_assert_eq(b.natural_check_cap, 8);
  cr_assert_eq(b.fouls_to_lose, 2);
  cr_assert_eq(b.draw_offers_per_game, 2);
  cr_assert_eq(b.draw_offer_min_clock_s, 180);

  xq_rules s = preset("shaanxi2019");
  cr_assert_eq(s.natural_check_policy, XQ_NAT_CHECKS_EXCLUDE_CLAIMANT);
  cr_assert_eq(s.false_claims_to_lose, 2);
  cr_assert_eq(s.false_claim_penalty_s, 300);
  cr_assert_eq(s.clock_base_s, 1800);

  xq_rules w = preset("wujiaqu2024");
  cr_assert_eq(w.ruleset, XQ_RULESET_CXA2020);
  cr_assert_eq(w.natural_check_policy, XQ_NAT_FORCING_EXCLUDE_CLAIMANT);
  cr_assert_eq(w.claim_max_attackers, 3);
  cr_assert_eq(w.repetition_occurrences, 4);
  cr_assert_eq(w.early_cycle_move_limit, 26);
  cr_assert_eq(w.early_cycle_comply_moves, 2);
  cr_assert_eq(w.change_order_comply_moves, 2);
  cr_assert_eq(w.draw_offer_min_move, 26);

  xq_rules t = preset("tangshan2018");
  cr_assert_eq(t.natural_limit_moves, 0, "the arbiter decides natural-limit claims");
  cr_assert_eq(t.suicide_released_loses, 1);
}

Test(presets, clauses_are_traced)
{
  const char *c = xq_rules_preset_clause("burqin2018", "natural_check_cap");
  cr_assert_not_null(c);
  cr_assert_not_null(strstr(c, "8"));
  cr_assert_not_null(xq_rules_preset_clause("wujiaqu2024", "early_cycle_comply_moves"));
  cr_assert_null(xq_rules_preset_clause("cxa2011", "natural_limit_moves"));
  cr_assert_null(xq_rules_preset_clause("xinjiang2018", "kill_search_depth"));
  cr_assert_null(xq_rules_preset_clause("nosuch", "ruleset"));
}

Test(json, text_overrides_fields_on_the_default)
{
  xq_rules r;
  xq_error err = {0};
  int rc = xq_rules_load_json("{\"natural_limit_moves\": 40, \"natural_check_policy\": "
                              "\"exclude_claimant_forcing\", \"armageddon\": true}",
                              &r, &err);
  cr_assert_eq(rc, XQ_OK, "%s", err.msg);
  cr_assert_eq(r.natural_limit_moves, 40);
  cr_assert_eq(r.natural_check_policy, XQ_NAT_FORCING_EXCLUDE_CLAIMANT);
  cr_assert_eq(r.armageddon, 1);
  cr_assert_eq(r.ruleset, XQ_RULESET_CXA2011);
  cr_assert_eq(r.fouls_to_lose, 3, "untouched fields keep the default");
}

Test(json, ruleset_and_preset_pick_the_base)
{
  xq_rules r;
  xq_error err = {0};
  cr_assert_eq(xq_rules_load_json("{\"ruleset\": \"axf\"}", &r, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(r.ruleset, XQ_RULESET_AXF);
  cr_assert_eq(r.cycles_after_change_order, 0, "the AXF preset's P4");
  cr_assert_eq(xq_rules_load_json("{\"preset\": \"wujiaqu2024\", \"fouls_to_lose\": 4}", &r, &err),
               XQ_OK, "%s", err.msg);
  cr_assert_eq(r.claim_max_attackers, 3);
  cr_assert_eq(r.fouls_to_lose, 4);
}

Test(json, file_loads)
{
  xq_rules r;
  xq_error err = {0};
  int rc = xq_rules_load_json(DATA "county40.json", &r, &err);
  cr_assert_eq(rc, XQ_OK, "%s", err.msg);
  cr_assert_str_eq(r.name, "county40");
  cr_assert_eq(r.natural_limit_moves, 40);
  cr_assert_eq(r.natural_check_cap, 8);
  cr_assert_eq(r.natural_trigger, XQ_TRIGGER_AUTO);
  cr_assert_eq(r.illegal_policy, XQ_ILLEGAL_LOSS);
}

static void expect_error(const char *src, int code, const char *needle)
{
  xq_rules r;
  memset(&r, 0x33, sizeof r);
  xq_error err = {0};
  int rc = xq_rules_load_json(src, &r, &err);
  cr_assert_eq(rc, code, "%s: rc %d (%s)", src, rc, err.msg);
  cr_assert_not_null(strstr(err.msg, needle), "%s: message '%s' lacks '%s'", src, err.msg, needle);
  cr_assert_eq(((unsigned char *)&r)[0], 0x33, "nothing written on failure");
}

Test(json, bad_content_is_rejected_with_a_clear_message)
{
  expect_error("{\"natural_limit\": 40}", XQ_EINVAL, "unknown key \"natural_limit\"");
  expect_error("{\"illegal_policy\": \"warning\"}", XQ_EINVAL, "no value \"warning\"");
  expect_error("{\"illegal_policy\": 1}", XQ_EINVAL, "foul_then_loss");
  expect_error("{\"fouls_to_lose\": -1}", XQ_EINVAL, "outside");
  expect_error("{\"fouls_to_lose\": 2.5}", XQ_EINVAL, "integer");
  expect_error("{\"armageddon\": \"yes\"}", XQ_EINVAL, "true or false");
  expect_error("{\"preset\": \"fide\"}", XQ_EINVAL, "unknown preset");
  expect_error("{\"ruleset\": \"xinjiang2018\"}", XQ_EINVAL, "ruleset");
  expect_error("{\"natural_limit_moves\": 40", XQ_EINVAL, "malformed JSON");
  expect_error("{\"name\": \"0123456789012345678901234567890123\"}", XQ_EINVAL, "longer");
  expect_error(DATA "bad_key.json", XQ_EINVAL, "unknown key");
  expect_error(DATA "no_such_file.json", XQ_EIO, "cannot open");
  expect_error("[1, 2]", XQ_EIO, "cannot open"); /* not an object and not a file */
  expect_error(" {\"a\": [1, 2]}", XQ_EINVAL, "unknown key \"a\"");
}

/* Numbers no integer type holds are refused before any conversion (the
 * conversion would be undefined: a clang UBSan build aborts on it), with
 * the field named; the same for a bool field. */
Test(json, numbers_out_of_every_range_are_refused_unconverted)
{
  static const char *const huge[] = {"-1.3e110", "1e300", "-1e300", "1e19", "9223372036854775808", "1e999",
                                     "-1e999"};
  char src[128];
  for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
    snprintf(src, sizeof src, "{\"fouls_to_lose\": %s}", huge[i]);
    expect_error(src, XQ_EINVAL, "\"fouls_to_lose\" is ");
    expect_error(src, XQ_EINVAL, "outside 0..100");
    snprintf(src, sizeof src, "{\"kill_search_nodes\": %s}", huge[i]);
    expect_error(src, XQ_EINVAL, "\"kill_search_nodes\" is ");
    snprintf(src, sizeof src, "{\"armageddon\": %s}", huge[i]);
    expect_error(src, XQ_EINVAL, "true or false");
  }
  xq_error err = {0};
  expect_error("{\"fouls_to_lose\": -1.3e110}", XQ_EINVAL, "is -1.3e+110, outside");
  expect_error("{\"fouls_to_lose\": 2.000001}", XQ_EINVAL, "integer");
  /* the edges of a range still load */
  xq_rules r;
  cr_assert_eq(xq_rules_load_json("{\"fouls_to_lose\": 1, \"armageddon\": 1}", &r, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(r.fouls_to_lose, 1);
  cr_assert_eq(r.armageddon, 1);
  cr_assert_eq(xq_rules_load_json("{\"fouls_to_lose\": 10.0, \"armageddon\": false}", &r, &err), XQ_OK, "%s",
               err.msg);
  cr_assert_eq(r.fouls_to_lose, 10);
  cr_assert_eq(r.armageddon, 0);
}

Test(json, printed_rules_load_back_identically)
{
  for (int i = 0; xq_rules_preset_name(i); i++) {
    xq_rules r = preset(xq_rules_preset_name(i)), back;
    char *j = xq_rules_to_json(&r);
    cr_assert_not_null(j);
    xq_error err = {0};
    cr_assert_eq(xq_rules_load_json(j, &back, &err), XQ_OK, "%s: %s", j, err.msg);
    char *j2 = xq_rules_to_json(&back);
    cr_assert_str_eq(j, j2);
    free(j);
    free(j2);
  }
}
