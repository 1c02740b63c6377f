/*
 * test_regletter.c -- the five regulations to the letter (issue 23): the
 * places where the presets said otherwise than the texts. Xinjiang's
 * juniors play on the open tables for their own prizes and its 40% cap
 * is each group's; Burqin's team competition is Altay's; Shaanxi's 榆林籍
 * is every county of Yulin (a region hierarchy in data); Tangshan's teams
 * are ranked on the Swiss (预赛) results.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prize.h"
#include "support.h"

static const xq_regulation *reg(const char *name)
{
  const xq_regulation *r = NULL;
  cr_assert_eq(xq_regulation_find(name, &r), XQ_OK, "%s", name);
  return r;
}

static void table(const char *name, int entrants, xq_prize_table *t)
{
  xq_error err = {0};
  cr_assert_eq(xq_regulation_prizes(reg(name), entrants, t, &err), XQ_OK, "%s", err.msg);
}

static int cat_index(const xq_prize_table *t, const char *name)
{
  for (int c = 0; c < t->ncats; c++)
    if (!strcmp(t->cats[c].name, name)) return c;
  cr_assert_fail("no category %s", name);
  return -1;
}

/* n players P1..Pn born `birth`, places[i] = i + 1. */
static xq_tevent *event(int n, const char *birth, int *places)
{
  xq_tevent *ev = xq_tevent_new(NULL, "letter");
  cr_assert_not_null(ev);
  for (int i = 1; i <= n; i++) {
    xq_tplayer p;
    xq_error err = {0};
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "P%d", i);
    snprintf(p.birth, sizeof p.birth, "%s", birth);
    cr_assert_eq(xq_tevent_add(ev, &p, NULL, &err), XQ_OK, "%s", err.msg);
    places[i - 1] = i;
  }
  return ev;
}

static xq_award *award(const xq_tevent *ev, const int *places, const xq_prize_table *t, int *na)
{
  int cap = XQ_AWARDS_MAX(t, ev->n);
  xq_award *aw = malloc(sizeof *aw * (size_t)cap);
  cr_assert_not_null(aw);
  cr_assert_eq(xq_prizes_award(ev, places, t, aw, cap, na), XQ_OK);
  return aw;
}

/* The award of player `id` in category `c`, NULL when none. */
static const xq_award *won(const xq_award *aw, int na, int id, int c)
{
  for (int i = 0; i < na; i++)
    if (aw[i].id == id && aw[i].cat == c) return &aw[i];
  return NULL;
}

static int count_in(const xq_award *aw, int na, int c)
{
  int k = 0;
  for (int i = 0; i < na; i++) k += aw[i].cat == c;
  return k;
}

/* ------------------------------------------------------------------ */
/* Xinjiang                                                            */
/* ------------------------------------------------------------------ */

Test(xinjiang, juniors_on_the_open_tables_play_for_their_own_prizes)
{
  xq_prize_table t;
  table("xinjiang2018", 60, &t);
  int open = cat_index(&t, "公开组 open"), u12 = cat_index(&t, "12岁组 under 12");
  /* 七(一) 公开组 1958-2001 and 七(三) 老年组 (同场竞技): born up to 2001/12/31 */
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  static const struct { const char *birth; int open, u12; } cases[] = {
    {"1980/05/05", 1, 0}, {"1950/01/01", 1, 0}, {"2001/12/31", 1, 0},
    {"2002/01/01", 0, 0}, {"2006/03/01", 0, 1}, {"2007/12/31", 0, 1}, {"2008/01/01", 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(p.birth, sizeof p.birth, "%s", cases[i].birth);
    cr_assert_eq(xq_prize_member(&t.cats[open], &p), cases[i].open, "open %s", cases[i].birth);
    cr_assert_eq(xq_prize_member(&t.cats[u12], &p), cases[i].u12, "u12 %s", cases[i].birth);
  }
  /* a 12-year-old first and eighth: the open 6000 and 900 go to the best
   * placed of the open and senior players; the boy has his group's place */
  int places[60], na;
  xq_tevent *ev = event(60, "1980/01/01", places);
  snprintf(ev->players[0].birth, sizeof ev->players[0].birth, "2006/05/01");
  snprintf(ev->players[7].birth, sizeof ev->players[7].birth, "2007/02/01");
  for (int i = 20; i <= 40; i += 10) snprintf(ev->players[i].birth, sizeof ev->players[i].birth, "2006/09/09");
  xq_award *aw = award(ev, places, &t, &na);
  cr_assert_null(won(aw, na, 1, open), "the junior in 1st wins no open prize");
  cr_assert_null(won(aw, na, 8, open));
  cr_assert_not_null(won(aw, na, 2, open));
  cr_assert_not_null(won(aw, na, 10, open));
  cr_assert_eq(won(aw, na, 2, open)->amount, 6000);
  cr_assert_eq(won(aw, na, 2, open)->cat_place, 1);
  cr_assert_eq(won(aw, na, 10, open)->amount, 900, "the 8th of the open group is 10th overall");
  cr_assert_not_null(won(aw, na, 1, u12));
  cr_assert_eq(won(aw, na, 1, u12)->cat_place, 1, "the 12岁组's first");
  cr_assert_eq(won(aw, na, 8, u12)->cat_place, 2, "⌊40%% × 5⌋ = 2 places");
  cr_assert_eq(count_in(aw, na, u12), 2);
  cr_assert_eq(count_in(aw, na, open), 22, "⌊40%% × 55⌋");
  free(aw);
  xq_tevent_free(ev);
}

Test(xinjiang, the_forty_percent_cap_is_on_each_groups_entrants)
{
  /* 十(一) 各组录取名次均按不高于40%的比例执行: 60 entrants, 39 open and
   * senior players (cap 15), 21 born 2009 (10岁组: cap 8) */
  xq_prize_table t;
  table("xinjiang2018", 60, &t);
  int places[60], na;
  xq_tevent *ev = event(60, "1985/06/01", places);
  for (int i = 0; i < 21; i++) snprintf(ev->players[2 * i + 1].birth, sizeof ev->players[0].birth, "2009/04/01");
  xq_award *aw = award(ev, places, &t, &na);
  int open = cat_index(&t, "公开组 open"), u10 = cat_index(&t, "10岁组 under 10");
  cr_assert_eq(count_in(aw, na, open), 15, "⌊40%% × 39⌋");
  cr_assert_eq(count_in(aw, na, u10), 8, "⌊40%% × 21⌋");
  cr_assert_eq(na, 23);
  /* the whole table above one hundred open and senior entrants: 40 */
  free(aw);
  xq_tevent_free(ev);
  int big[150];
  ev = event(150, "1970/01/01", big);
  aw = award(ev, big, &t, &na);
  cr_assert_eq(count_in(aw, na, open), 40);
  free(aw);
  xq_tevent_free(ev);
}

/* ------------------------------------------------------------------ */
/* Regions                                                             */
/* ------------------------------------------------------------------ */

Test(regions, the_counties_of_yulin_are_yulin)
{
  /* 十二(二)2 榆林籍: the prefecture's twelve counties and districts */
  static const char *const yulin[] = {"榆林", "榆林市", "榆阳", "榆阳区", "横山", "神木", "神木县", "神木市",
                                      "府谷", "靖边", "定边", "绥德", "米脂", "佳县", "吴堡", "清涧", "子洲",
                                      "榆林/佳县", "陕西/榆林/神木"};
  for (size_t i = 0; i < sizeof yulin / sizeof *yulin; i++)
    cr_assert(xq_region_within(yulin[i], "榆林"), "%s is in Yulin", yulin[i]);
  static const char *const not_yulin[] = {"西安", "延安", "", "榆", "佳县县", "神木/西安"};
  for (size_t i = 0; i < sizeof not_yulin / sizeof *not_yulin; i++)
    cr_assert(!xq_region_within(not_yulin[i], "榆林") || strchr(not_yulin[i], '/'),
              "%s is not in Yulin", not_yulin[i]);
  cr_assert(xq_region_within("神木/西安", "榆林"), "a path with one part in Yulin");
  cr_assert(xq_region_within("佳县", "陕西"), "up two levels");
  cr_assert(xq_region_within("佳县", "佳县"));
  cr_assert(!xq_region_within("佳县", "神木"), "a sibling county");
  cr_assert(!xq_region_within("榆林", "佳县"), "the prefecture is not in its county");
  cr_assert(!xq_region_within(NULL, "榆林"));
  cr_assert(xq_region_within("", ""));
  char up[XQ_REGION_NAME_MAX];
  cr_assert(xq_region_parent("神木县", up, sizeof up));
  cr_assert_str_eq(up, "榆林");
  cr_assert(!xq_region_parent("火星", up, sizeof up));
  cr_assert_str_eq(up, "");
  /* Altay: 六县一市, Kanas (in Burqin county) and Beitun (四(二)) */
  static const char *const altay[] = {"阿勒泰市", "布尔津", "哈巴河", "福海", "富蕴", "青河", "吉木乃",
                                      "喀纳斯", "北屯", "十师北屯市"};
  for (size_t i = 0; i < sizeof altay / sizeof *altay; i++)
    cr_assert(xq_region_within(altay[i], "阿勒泰"), "%s is in Altay", altay[i]);
  static const char *const not_altay[] = {"乌鲁木齐", "克拉玛依", "昌吉", "奎屯", "塔城"};
  for (size_t i = 0; i < sizeof not_altay / sizeof *not_altay; i++)
    cr_assert(!xq_region_within(not_altay[i], "阿勒泰"), "%s is not in Altay", not_altay[i]);
}

Test(shaanxi, yulin_prizes_go_to_the_counties_players)
{
  xq_prize_table t;
  table("shaanxi2019", 100, &t);
  int cy = cat_index(&t, "榆林籍 Yulin"), cj = cat_index(&t, "佳县籍 Jia county");
  int places[30], na;
  xq_tevent *ev = event(30, "1980/01/01", places);
  static const char *const region[] = {"神木", "佳县", "府谷", "西安", "米脂", "绥德", "延安", "榆林",
                                       "榆阳区", "子洲", "佳县"};
  for (int i = 0; i < 11; i++) snprintf(ev->players[i].region, XQ_TOURNEY_FIELD_MAX, "%s", region[i]);
  for (int i = 11; i < 30; i++) snprintf(ev->players[i].region, XQ_TOURNEY_FIELD_MAX, "宝鸡");
  xq_award *aw = award(ev, places, &t, &na);
  /* 1500 1200 1000 800 500 300 300 300 to places 1 2 3 5 6 8 9 10 */
  static const int ids[8] = {1, 2, 3, 5, 6, 8, 9, 10}, amounts[8] = {1500, 1200, 1000, 800, 500, 300, 300, 300};
  for (int k = 0; k < 8; k++) {
    const xq_award *a = won(aw, na, ids[k], cy);
    cr_assert_not_null(a, "place %d wins a Yulin prize", ids[k]);
    cr_assert_eq(a->amount, amounts[k]);
    cr_assert_eq(a->cat_place, k + 1);
  }
  cr_assert_eq(count_in(aw, na, cy), 8);
  cr_assert_null(won(aw, na, 4, cy), "西安");
  cr_assert_null(won(aw, na, 7, cy), "延安");
  cr_assert_eq(won(aw, na, 2, cj)->amount, 1000, "Jia county: its own list too");
  cr_assert_eq(won(aw, na, 11, cj)->amount, 800);
  cr_assert_eq(count_in(aw, na, cj), 2);
  free(aw);
  xq_tevent_free(ev);
}

/* ------------------------------------------------------------------ */
/* Teams                                                               */
/* ------------------------------------------------------------------ */

static void team(xq_tevent *ev, const char *name, const char *region, const int *ids, int k)
{
  for (int i = 0; i < k; i++) {
    snprintf(ev->players[ids[i] - 1].team, XQ_TOURNEY_FIELD_MAX, "%s", name);
    snprintf(ev->players[ids[i] - 1].region, XQ_TOURNEY_FIELD_MAX, "%s", region);
  }
}

Test(teams, burqin_ranks_and_pays_only_altay_teams)
{
  xq_team_rule rule;
  cr_assert_eq(xq_regulation_team_rule(reg("burqin2018"), &rule), XQ_OK);
  cr_assert_eq(rule.counted, 3);
  cr_assert_eq(rule.mode, XQ_TEAM_POINTS_SUM);
  cr_assert_str_eq(rule.area, "阿勒泰");
  cr_assert_not_null(rule.clause);
  cr_assert_not_null(strstr(rule.clause, "四(二)"));
  int places[12];
  xq_tevent *ev = event(12, "1980/01/01", places);
  team(ev, "乌鲁木齐一队", "乌鲁木齐", (int[]){1, 2, 3}, 3);
  team(ev, "布尔津一队", "布尔津", (int[]){4, 5, 6}, 3);
  team(ev, "北屯一队", "北屯", (int[]){7, 8, 9}, 3);
  team(ev, "奎屯一队", "奎屯", (int[]){10, 11, 12}, 3);
  for (int id = 1; id <= 12; id++) xq_tevent_slot(ev, id, 1)->res = id <= 6 ? XQ_TR_WIN : XQ_TR_LOSS;
  ev->nrounds = 1;
  xq_team_row rows[8];
  int n;
  cr_assert_eq(xq_team_standings_rule(ev, places, &rule, rows, 8, &n), XQ_OK);
  cr_assert_eq(n, 2, "Urumqi and Kuytun are outside the team competition");
  cr_assert_str_eq(rows[0].team, "布尔津一队");
  cr_assert_eq(rows[0].rank, 1);
  cr_assert_str_eq(rows[1].team, "北屯一队");
  xq_prize_table t;
  table("burqin2018", 12, &t);
  xq_team_prizes(&t, rows, n);
  cr_assert_eq(rows[0].amount, 1800, "the first team prize to Burqin's team, not Urumqi's");
  cr_assert_eq(rows[1].amount, 1500);
  /* the rule without an area: everyone (xq_team_standings) */
  cr_assert_eq(xq_team_standings(ev, places, rule.mode, 3, rows, 8, &n), XQ_OK);
  cr_assert_eq(n, 4);
  xq_tevent_free(ev);
}

Test(teams, tangshan_ranks_teams_on_the_swiss_results)
{
  xq_team_rule rule;
  cr_assert_eq(xq_regulation_team_rule(reg("tangshan2018"), &rule), XQ_OK);
  cr_assert_eq(rule.basis, XQ_TEAM_BASIS_SWISS, "八.3 团体成绩按照预赛成绩计算");
  cr_assert_eq(rule.counted, 4);
  cr_assert_eq(rule.mode, XQ_TEAM_RANK_SUM);
  xq_team_rule other;
  cr_assert_eq(xq_regulation_team_rule(reg("xinjiang2018"), &other), XQ_OK);
  cr_assert_eq(other.basis, XQ_TEAM_BASIS_FINAL);
  cr_assert_eq(xq_regulation_team_rule(reg("shaanxi2019"), &other), XQ_OK);
  cr_assert_eq(other.counted, 0);
  /* eight players, one round: the odd ids win; the "final" places are
   * the reverse of the ids */
  int places[8];
  xq_tevent *ev = event(8, "1980/01/01", places);
  for (int id = 1; id <= 8; id++) xq_tevent_slot(ev, id, 1)->res = id % 2 ? XQ_TR_WIN : XQ_TR_LOSS;
  ev->nrounds = 1;
  int final[8], swiss[8];
  for (int i = 0; i < 8; i++) final[i] = 8 - i;
  team(ev, "A", "路北区", (int[]){1, 3, 5, 7}, 4);
  team(ev, "B", "路南区", (int[]){2, 4, 6, 8}, 4);
  cr_assert_eq(xq_team_order(ev, NULL, XQ_TEAM_BASIS_SWISS, swiss), XQ_OK);
  xq_tstanding s[8];
  cr_assert_eq(xq_standings(ev, 1, s), XQ_OK);
  for (int i = 0; i < 8; i++) cr_assert_eq(swiss[i], s[i].id);
  xq_team_row rows[4];
  int n;
  cr_assert_eq(xq_team_standings_rule(ev, swiss, &rule, rows, 4, &n), XQ_OK);
  cr_assert_str_eq(rows[0].team, "A");
  cr_assert_eq(rows[0].value, 1 + 2 + 3 + 4, "the winners hold Swiss places 1-4");
  cr_assert_eq(xq_team_standings_rule(ev, final, &rule, rows, 4, &n), XQ_OK);
  cr_assert_str_eq(rows[0].team, "B", "on the final places B would lead");
  cr_assert_eq(xq_team_order(ev, NULL, 7, swiss), XQ_EINVAL);
  xq_tevent_free(ev);
}

/* ------------------------------------------------------------------ */
/* Options: the readings a text leaves open                            */
/* ------------------------------------------------------------------ */

Test(options, each_ambiguity_is_a_preset_option)
{
  static const struct { const char *preset, *key, *other; } want[] = {
    {"xinjiang2018", "ko_places", "shared"}, {"xinjiang2018", "u14", "to2005"},
    {"wujiaqu2024", "pawns", "crossed"}, {"wujiaqu2024", "natural_from", "approval"},
    {"tangshan2018", "seniors", "one"}, {"tangshan2018", "group_rounds", "7"},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    xq_regulation r = *reg(want[i].preset);
    cr_assert_eq(xq_regulation_option(&r, want[i].key), 0, "%s %s: the preset's reading", want[i].preset,
                 want[i].key);
    char assign[64];
    snprintf(assign, sizeof assign, "%s=%s", want[i].key, want[i].other);
    xq_error err = {0};
    cr_assert_eq(xq_regulation_option_set(&r, assign, &err), XQ_OK, "%s", err.msg);
    cr_assert_eq(xq_regulation_option(&r, want[i].key), 1);
  }
  xq_regulation r = *reg("xinjiang2018");
  xq_error err = {0};
  cr_assert_eq(xq_regulation_option_set(&r, "ko_places=coin", &err), XQ_EINVAL);
  cr_assert_not_null(strstr(err.msg, "seed or shared"), "%s", err.msg);
  cr_assert_eq(xq_regulation_option_set(&r, "pawns=crossed", &err), XQ_EINVAL, "Wujiaqu's, not Xinjiang's");
  cr_assert_not_null(strstr(err.msg, "ko_places, u14"), "%s", err.msg);
  cr_assert_eq(xq_regulation_option(reg("burqin2018"), "ko_places"), -1);
  cr_assert_null(xq_regulation_option_at(reg("burqin2018"), 0));
  const xq_reg_option *o = xq_regulation_option_at(reg("wujiaqu2024"), 0);
  cr_assert_str_eq(o->rules_key, "claim_attackers_crossed_pawns");
}

Test(options, xinjiang_shared_knockout_places_split_the_prizes)
{
  xq_regulation r = *reg("xinjiang2018");
  cr_assert_eq(xq_regulation_option_set(&r, "ko_places=shared", NULL), XQ_OK);
  xq_prize_table t;
  cr_assert_eq(xq_regulation_prizes(&r, 40, &t, NULL), XQ_OK);
  int places[40], na;
  xq_tevent *ev = event(40, "1980/01/01", places);
  xq_award *aw = award(ev, places, &t, &na);
  /* 3rd-4th: (2500 + 2000) / 2; 5th-8th: (1100 + 1000 + 1000 + 900) / 4 */
  static const int want[9] = {0, 6000, 3500, 2250, 2250, 1000, 1000, 1000, 1000};
  for (int p = 1; p <= 8; p++) cr_assert_eq(won(aw, na, p, 0)->amount, want[p], "place %d", p);
  cr_assert_eq(won(aw, na, 9, 0)->amount, 800);
  free(aw);
  xq_tevent_free(ev);
}

Test(options, xinjiang_u14_band_and_tangshan_seniors_list)
{
  xq_regulation r = *reg("xinjiang2018");
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int n;
  cr_assert_eq(xq_regulation_groups(&r, g, XQ_REG_GROUPS_MAX, &n, NULL), XQ_OK);
  cr_assert_str_eq(g[5].born_to, "2004/01/01", "as printed");
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.birth, sizeof p.birth, "2005/06/01");
  int in = 0;
  for (int i = 0; i < n; i++) in += xq_group_match(&g[i], &p);
  cr_assert_eq(in, 0, "born 2005/06/01 fits no group as printed");
  cr_assert_eq(xq_regulation_option_set(&r, "u14=to2005", NULL), XQ_OK);
  cr_assert_eq(xq_regulation_groups(&r, g, XQ_REG_GROUPS_MAX, &n, NULL), XQ_OK);
  cr_assert_str_eq(g[5].born_to, "2005/12/31");
  cr_assert(xq_group_match(&g[5], &p));
  xq_prize_table t;
  cr_assert_eq(xq_regulation_prizes(&r, 40, &t, NULL), XQ_OK);
  cr_assert(xq_prize_member(&t.cats[cat_index(&t, "14岁以上组 14 and over")], &p), "the junior prize list too");
  xq_regulation ts = *reg("tangshan2018");
  cr_assert_eq(xq_regulation_groups(&ts, g, XQ_REG_GROUPS_MAX, &n, NULL), XQ_OK);
  cr_assert(g[1].sections && g[1].apart);
  cr_assert_eq(xq_regulation_option_set(&ts, "seniors=one", NULL), XQ_OK);
  cr_assert_eq(xq_regulation_groups(&ts, g, XQ_REG_GROUPS_MAX, &n, NULL), XQ_OK);
  cr_assert(!g[1].sections, "one list");
}

/* ------------------------------------------------------------------ */
/* Titles and qualification                                            */
/* ------------------------------------------------------------------ */

Test(honours, xinjiang_sections_and_shaanxi_players)
{
  xq_prize_table t;
  cr_assert_eq(xq_regulation_honours(reg("xinjiang2018"), &t, NULL), XQ_OK);
  cr_assert_eq(t.ncats, 6, "公开组、老年组、儿童男子、女子组，少年男子、女子组 (十(二))");
  int girls = cat_index(&t, "儿童女子组 girls (children)");
  cr_assert_str_eq(t.cats[girls].title, "儿童女子组棋王");
  cr_assert_eq(t.cats[girls].nplaces, 6, "各组前六名 qualify");
  int places[12], na;
  xq_tevent *ev = event(12, "2009/01/01", places);
  for (int i = 0; i < 12; i += 3) ev->players[i].sex = 'w';
  for (int i = 0; i < 12; i++) if (!ev->players[i].sex) ev->players[i].sex = 'm';
  xq_award *aw = award(ev, places, &t, &na);
  cr_assert_eq(won(aw, na, 1, girls)->cat_place, 1);
  cr_assert_eq(won(aw, na, 4, girls)->cat_place, 2);
  cr_assert_eq(count_in(aw, na, girls), 4);
  int boys = cat_index(&t, "儿童男子组 boys (children)");
  cr_assert_eq(won(aw, na, 2, boys)->cat_place, 1, "boys apart");
  cr_assert_eq(count_in(aw, na, boys), 6);
  free(aw);
  xq_tevent_free(ev);
  cr_assert_eq(xq_regulation_honours(reg("shaanxi2019"), &t, NULL), XQ_OK);
  cr_assert_eq(t.ncats, 1);
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.region, sizeof p.region, "神木");
  cr_assert(xq_prize_member(&t.cats[0], &p), "a Shenmu player is a Shaanxi player");
  snprintf(p.region, sizeof p.region, "山西");
  cr_assert(!xq_prize_member(&t.cats[0], &p));
  cr_assert_eq(xq_regulation_honours(reg("burqin2018"), &t, NULL), XQ_OK);
  cr_assert_eq(t.ncats, 0);
}

Test(eligibility, said_in_words_with_the_clause)
{
  xq_prize_table t;
  table("shaanxi2019", 100, &t);
  char who[600];
  xq_prize_eligibility(&t.cats[cat_index(&t, "榆林籍 Yulin")], who, sizeof who);
  cr_assert_not_null(strstr(who, "region within 榆林 (榆阳, 横山, 神木, 府谷"), "%s", who);
  cr_assert_not_null(strstr(who, "won on top of another prize"), "%s", who);
  cr_assert_not_null(strstr(t.cats[cat_index(&t, "榆林籍 Yulin")].clause, "十二(二)2"));
  xq_prize_eligibility(&t.cats[0], who, sizeof who);
  cr_assert_str_eq(who, "everyone");
  table("xinjiang2018", 60, &t);
  xq_prize_eligibility(&t.cats[0], who, sizeof who);
  cr_assert_str_eq(who, "born ..2001/12/31");
  for (int c = 0; c < t.ncats; c++) cr_assert_not_null(t.cats[c].clause, "%s", t.cats[c].name);
  char small[8];
  xq_prize_eligibility(&t.cats[0], small, sizeof small);
  cr_assert_eq(strlen(small), 7, "cut to fit");
}

/* `xqref presets show` says for every prize table who is eligible and why */
Test(eligibility, presets_show_lists_who_and_the_clause)
{
  int st;
  char *out = xq_test_run("presets show xinjiang2018", &st);
  cr_assert_eq(st, 0);
  cr_assert_not_null(strstr(out, "       eligible: born ..2001/12/31; at most 40% of them placed\n"
                                 "       [七(一) 公开组"), "%s", out);
  cr_assert_not_null(strstr(out, "prize  8岁组 under 8 (born): places 1-40, amounts not stated\n"), "%s", out);
  cr_assert_not_null(strstr(out, "honour 少年女子组 girls (juniors): 1st 少年女子组棋王, places 1-6 qualify\n"), "%s", out);
  cr_assert_not_null(strstr(out, "ko_places=shared: the semi-finals' losers share"), "%s", out);
  free(out);
  out = xq_test_run("presets show burqin2018", &st);
  cr_assert_not_null(strstr(out, "       eligible: players of a region within 阿勒泰 (阿勒泰市, 布尔津"), "%s", out);
  cr_assert_not_null(strstr(out, "[四(二) 团体赛：仅限阿勒泰地区"), "%s", out);
  free(out);
  out = xq_test_run("presets show tangshan2018", &st);
  cr_assert_not_null(strstr(out, "on the Swiss standings (预赛), not the final places"), "%s", out);
  free(out);
  out = xq_test_run("presets show wujiaqu2024", &st);
  cr_assert_not_null(strstr(out, "natural_from=approval"), "%s", out);
  cr_assert_not_null(strstr(out, "natural_count_from_claim"), "%s", out);
  free(out);
}
