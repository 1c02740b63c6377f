/*
 * test_tourney_regdata.c -- the five regulations' prize tables, groups
 * and team competitions (tourney/regulation_data.c) against their texts
 * (spec docs/presets.md, the seeds), awarded over small events; the
 * results commands with presets (`xqref tourney places|teams|prizes|
 * groups`); and the regulations to the letter: juniors on the open
 * tables, the cap per group, Altay's teams, the Yulin counties, teams on
 * the Swiss, the preset options, titles and qualification, eligibility in
 * `presets show`. The sheets of these results are tested in
 * test_tourney_sheet_final.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prize.h"
#include "region.h"
#include "regulation_fixture.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "support.h"
#include "tourney.h"

static const xq_prize_cat *cat(const xq_prize_table *t, const char *name)
{
  for (int c = 0; c < t->ncats; c++)
    if (!strcmp(t->cats[c].name, name)) return &t->cats[c];
  cr_assert_fail("no category %s", name);
  return NULL;
}

static long cat_sum(const xq_prize_cat *c)
{
  long s = 0;
  for (int i = 0; i < c->nplaces; i++) s += c->amount[i];
  return s;
}

static long team_sum(const xq_prize_table *t)
{
  long s = 0;
  for (int i = 0; i < t->nteam; i++) s += t->team_amount[i];
  return s;
}

/* The amount player `id` won in category `c` (-1 = lucky), 0 if none. */
static int won(const xq_award *aw, int na, int id, int c)
{
  for (int i = 0; i < na; i++)
    if (aw[i].id == id && aw[i].cat == c) return aw[i].amount;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Prize tables against the texts                                      */
/* ------------------------------------------------------------------ */

Test(prizes, xinjiang_forty_places_above_one_hundred)
{
  xq_prize_table t;
  xq_test_prize_table("xinjiang2018", 150, &t);
  /* 十(一): 各组录取名次均按不高于40%的比例执行 */
  cr_assert_eq(t.cap_pct, 40);
  cr_assert_eq(t.ncats, 5, "the open table and the four junior groups' (十(一) 少儿组…另发细则)");
  const xq_prize_cat *c = &t.cats[0];
  /* the seniors play in the open group (同场竞技): born up to 2001 */
  cr_assert_eq(c->filter, XQ_PF_GROUP);
  cr_assert_str_eq(c->group.born_from, "");
  cr_assert_str_eq(c->group.born_to, "2001/12/31");
  cr_assert_eq(c->nplaces, 40);
  /* 冠军6000 亚军3500 季军2500 第四名2000 第五名1100 第六七名各1000 第八名900 */
  static const int head[8] = {6000, 3500, 2500, 2000, 1100, 1000, 1000, 900};
  for (int i = 0; i < 8; i++) cr_assert_eq(c->amount[i], head[i], "place %d", i + 1);
  /* 9-12 800, 13-16 500, 17-24 350, 25-32 300, 33-40 200 */
  static const int runs[][3] = {{9, 12, 800}, {13, 16, 500}, {17, 24, 350}, {25, 32, 300}, {33, 40, 200}};
  for (int r = 0; r < 5; r++)
    for (int p = runs[r][0]; p <= runs[r][1]; p++) cr_assert_eq(c->amount[p - 1], runs[r][2], "place %d", p);
  cr_assert_eq(cat_sum(c), 30000);
  /* 团体: 1500, 800, 500, 300, 200, 200 */
  cr_assert_eq(t.nteam, 6);
  cr_assert_eq(t.team_amount[0], 1500);
  cr_assert_eq(t.team_amount[5], 200);
  cr_assert_eq(team_sum(&t), 3500);
  cr_assert_eq(t.lucky_amount, 0);

  int places[150], na;
  xq_tournament *ev = xq_test_event(150, places);
  for (int i = 0; i < 150; i++) snprintf(ev->players[i].birth, sizeof ev->players[i].birth, "1975/03/03");
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  cr_assert_eq(na, 40);
  cr_assert_eq(aw[39].place, 40);
  cr_assert_eq(aw[39].amount, 200);
  free(aw);
  xq_tournament_free(ev);
}

Test(prizes, xinjiang_forty_percent_of_a_small_field)
{
  xq_prize_table t;
  /* the table is the same for any entry count: the cap on each
   * category's own members leaves ⌊40%⌋ of a field of 100 or fewer */
  xq_test_prize_table("xinjiang2018", 60, &t);
  cr_assert_eq(t.cats[0].nplaces, 40);
  int places[60], na;
  xq_tournament *ev = xq_test_event(60, places);
  for (int i = 0; i < 60; i++) snprintf(ev->players[i].birth, sizeof ev->players[i].birth, "1975/03/03");
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  cr_assert_eq(na, 24, "⌊40%% × 60⌋ = 24 prizes");
  cr_assert_eq(aw[23].amount, 350);
  free(aw);
  xq_tournament_free(ev);
  int p30[30];
  ev = xq_test_event(30, p30);
  for (int i = 0; i < 30; i++) snprintf(ev->players[i].birth, sizeof ev->players[i].birth, "1975/03/03");
  aw = xq_test_award(ev, p30, &t, &na);
  cr_assert_eq(na, 12, "⌊40%% × 30⌋ = 12 prizes");
  free(aw);
  xq_tournament_free(ev);
}

Test(prizes, burqin_lucky_places_and_local_prizes_won_twice)
{
  xq_prize_table t;
  xq_test_prize_table("burqin2018", 45, &t);
  cr_assert_eq(t.cap_pct, 0);
  const xq_prize_cat *open = cat(&t, "个人 open"), *local = cat(&t, "布尔津籍 Burqin players");
  /* 六(四)1: 5000, 2000, 1000, 800, 600, 500, 400, 400, 300 x4, 200 x4 = 12700 */
  cr_assert_eq(open->nplaces, 16);
  cr_assert_eq(open->amount[0], 5000);
  cr_assert_eq(open->amount[7], 400);
  cr_assert_eq(open->amount[11], 300);
  cr_assert_eq(open->amount[15], 200);
  cr_assert_eq(cat_sum(open), 12700);
  /* 六(四)3: 1000, 600, 500, 300, 200, 200 = 2800; 奖金可重复领取 */
  cr_assert_eq(local->nplaces, 6);
  cr_assert_eq(local->filter, XQ_PF_LOCAL);
  cr_assert(local->repeat);
  cr_assert(!open->repeat);
  cr_assert_eq(cat_sum(local), 2800);
  /* 六(四)2: teams 1800, 1500, 1200 = 4500; 赛事总奖金2万 */
  cr_assert_eq(team_sum(&t), 4500);
  cr_assert_eq(t.stated_total, 20000);
  cr_assert_eq(cat_sum(open) + cat_sum(local) + team_sum(&t), t.stated_total);
  /* 六(六): 18、28、38、48… 100 each, open-ended */
  cr_assert_eq(t.lucky_start, 18);
  cr_assert_eq(t.lucky_step, 10);
  cr_assert_eq(t.lucky_last, 0);
  cr_assert_eq(t.lucky_amount, 100);

  int places[45], na;
  xq_tournament *ev = xq_test_event(45, places);
  /* local players at places 1, 3, 18, 20 */
  int locals[] = {1, 3, 18, 20};
  for (int i = 0; i < 4; i++) ev->players[locals[i] - 1].local = 1;
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  int co = (int)(open - t.cats), cl = (int)(local - t.cats);
  cr_assert_eq(won(aw, na, 1, co), 5000);
  cr_assert_eq(won(aw, na, 1, cl), 1000, "the champion takes the local first prize as well");
  cr_assert_eq(won(aw, na, 3, co), 1000);
  cr_assert_eq(won(aw, na, 3, cl), 600);
  cr_assert_eq(won(aw, na, 18, cl), 500);
  cr_assert_eq(won(aw, na, 18, -1), 100, "and the lucky prize at 18th");
  cr_assert_eq(won(aw, na, 20, cl), 300);
  cr_assert_eq(won(aw, na, 28, -1), 100);
  cr_assert_eq(won(aw, na, 38, -1), 100);
  cr_assert_eq(won(aw, na, 17, -1), 0);
  int lucky = 0;
  for (int i = 0; i < na; i++) lucky += aw[i].cat == -1;
  cr_assert_eq(lucky, 3);
  free(aw);
  xq_tournament_free(ev);
}

Test(prizes, shaanxi_regions_and_lucky_prizes_for_active_players)
{
  xq_prize_table t;
  xq_test_prize_table("shaanxi2019", 100, &t);
  const xq_prize_cat *open = cat(&t, "公开 open"), *yulin = cat(&t, "榆林籍 Yulin"),
                     *jia = cat(&t, "佳县籍 Jia county");
  /* 十二(二)1: 20000 10000 5000 3000, 2000 1500 1300 1000, 9-12 700, 13-18 500, 19-25 200 */
  cr_assert_eq(open->nplaces, 25);
  static const int head[8] = {20000, 10000, 5000, 3000, 2000, 1500, 1300, 1000};
  for (int i = 0; i < 8; i++) cr_assert_eq(open->amount[i], head[i]);
  cr_assert_eq(open->amount[11], 700);
  cr_assert_eq(open->amount[12], 500);
  cr_assert_eq(open->amount[17], 500);
  cr_assert_eq(open->amount[18], 200);
  cr_assert_eq(cat_sum(open), 43800 + 2800 + 3000 + 1400);
  /* 十二(二)2-3: Yulin top 8, Jia county top 6, both 可重复拿奖 */
  cr_assert_eq(yulin->nplaces, 8);
  cr_assert_eq(cat_sum(yulin), 1500 + 1200 + 1000 + 800 + 500 + 3 * 300);
  cr_assert_eq(jia->nplaces, 6);
  cr_assert_eq(cat_sum(jia), 1000 + 800 + 500 + 3 * 300);
  cr_assert(yulin->repeat && jia->repeat && !open->repeat);
  /* 十二(二)4: 29 39 … 119, 100 each, not for 退赛和弃权两轮或以上 */
  cr_assert_eq(t.lucky_start, 29);
  cr_assert_eq(t.lucky_last, 119);
  cr_assert(t.lucky_active);
  cr_assert_eq(t.nteam, 0);

  int places[100], na;
  xq_tournament *ev = xq_test_event(100, places);
  /* 2nd: a Jia county player (a Yulin player too); 5th: Yulin city */
  snprintf(ev->players[1].region, XQ_TOURNEY_FIELD_MAX, "榆林/佳县");
  snprintf(ev->players[4].region, XQ_TOURNEY_FIELD_MAX, "榆林");
  snprintf(ev->players[6].region, XQ_TOURNEY_FIELD_MAX, "榆林市"); /* another spelling of Yulin */
  snprintf(ev->players[7].region, XQ_TOURNEY_FIELD_MAX, "西安");
  ev->players[38].withdrawn = 1; /* 39th */
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  int co = (int)(open - t.cats), cy = (int)(yulin - t.cats), cj = (int)(jia - t.cats);
  cr_assert_eq(won(aw, na, 2, co), 10000);
  cr_assert_eq(won(aw, na, 2, cy), 1500);
  cr_assert_eq(won(aw, na, 2, cj), 1000);
  cr_assert_eq(won(aw, na, 5, cy), 1200);
  cr_assert_eq(won(aw, na, 5, cj), 0);
  cr_assert_eq(won(aw, na, 7, cy), 1000, "榆林市 is 榆林");
  cr_assert_eq(won(aw, na, 8, cy), 0);
  cr_assert_eq(won(aw, na, 29, -1), 100);
  cr_assert_eq(won(aw, na, 39, -1), 0, "withdrawn: no lucky prize");
  cr_assert_eq(won(aw, na, 99, -1), 100);
  int lucky = 0;
  for (int i = 0; i < na; i++) lucky += aw[i].cat == -1;
  cr_assert_eq(lucky, 7, "29..99 less the withdrawn 39th");
  free(aw);
  xq_tournament_free(ev);
}

Test(prizes, wujiaqu_states_only_a_total)
{
  xq_prize_table t;
  xq_test_prize_table("wujiaqu2024", 150, &t);
  cr_assert_eq(t.ncats, 0);
  cr_assert_eq(t.stated_total, 151000);
  cr_assert_eq(t.nteam, 0);
  cr_assert_eq(t.lucky_amount, 0);
}

Test(prizes, tangshan_seniors_list_is_their_own_event)
{
  xq_prize_table t;
  xq_test_prize_table("tangshan2018", 120, &t);
  const xq_prize_cat *open = cat(&t, "公开组 open"), *sen = cat(&t, "老年组 seniors");
  /* 九.2: 3000 2500 2000 1500 1000 800 600 500, 9-12 300, 13-16 200 */
  cr_assert_eq(open->nplaces, 16);
  cr_assert_eq(cat_sum(open), 13900);
  /* 九.3: 600 500 400 300 200 200 */
  cr_assert_eq(sen->nplaces, 6);
  cr_assert_eq(cat_sum(sen), 2200);
  cr_assert_str_eq(sen->group.born_to, "1957/12/31");
  cr_assert(sen->apart && !open->apart);
  cr_assert_eq(t.nteam, 0, "九.5: cups and diplomas, no money");

  int places[20], na;
  xq_tournament *ev = xq_test_event(20, places);
  for (int i = 0; i < 20; i++) snprintf(ev->players[i].birth, 11, "%s", i % 2 ? "1950/05/05" : "1980/05/05");
  /* the open event: the seniors' list is not awarded in it */
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  cr_assert_eq(na, 16);
  for (int i = 0; i < na; i++) cr_assert_eq(aw[i].cat, (int)(open - t.cats));
  free(aw);
  /* the seniors' own event */
  cr_assert_eq(xq_prize_table_only(&t, "老年组 seniors"), XQ_OK);
  cr_assert_eq(t.ncats, 1);
  aw = xq_test_award(ev, places, &t, &na);
  cr_assert_eq(na, 6);
  cr_assert_eq(aw[0].id, 2, "the best-placed senior");
  cr_assert_eq(aw[0].amount, 600);
  cr_assert_eq(aw[5].id, 12);
  free(aw);
  cr_assert_eq(xq_prize_table_only(&t, "nobody"), XQ_EINVAL);
  xq_tournament_free(ev);
}

Test(prizes, bad_arguments)
{
  xq_prize_table t;
  xq_error err = {0};
  cr_assert_eq(xq_regulation_prizes(NULL, 10, &t, &err), XQ_EINVAL);
  cr_assert_eq(xq_regulation_prizes(xq_test_reg("burqin2018"), 10, NULL, &err), XQ_EINVAL);
  cr_assert_eq(xq_regulation_prizes(xq_test_reg("burqin2018"), -1, &t, &err), XQ_EINVAL);
  cr_assert_neq(err.msg[0], 0);
}

/* ------------------------------------------------------------------ */
/* Groups and teams                                                    */
/* ------------------------------------------------------------------ */

static xq_tplayer born(const char *date, char sex)
{
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "x");
  snprintf(p.birth, sizeof p.birth, "%s", date);
  p.sex = sex;
  return p;
}

Test(groups, xinjiang_bands)
{
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int n = xq_test_groups("xinjiang2018", g);
  cr_assert_eq(n, 6);
  cr_assert(strstr(g[0].name, "公开组"), "the open group first");
  xq_tplayer a = born("1958/01/01", 'm'), b = born("1957/12/31", 'm'), c = born("2001/12/31", 'w');
  cr_assert(xq_group_match(&g[0], &a) && !xq_group_match(&g[1], &a));
  cr_assert(!xq_group_match(&g[0], &b) && xq_group_match(&g[1], &b));
  cr_assert(xq_group_match(&g[0], &c));
  /* juniors: each child in one band */
  const char *kids[] = {"2010/01/01", "2009/12/31", "2008/01/01", "2006/01/01", "2002/01/01", "2004/01/01"};
  for (int k = 0; k < 6; k++) {
    xq_tplayer p = born(kids[k], 'm');
    int in = 0;
    for (int i = 0; i < n; i++) in += xq_group_match(&g[i], &p);
    cr_assert_eq(in, 1, "%s", kids[k]);
  }
}

Test(groups, local_groups_and_open_groups)
{
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  cr_assert_eq(xq_test_groups("burqin2018", g), 2);
  cr_assert(!g[0].local_only && g[1].local_only);
  cr_assert_eq(xq_test_groups("wujiaqu2024", g), 2);
  cr_assert(g[1].local_only);
  cr_assert_eq(xq_test_groups("shaanxi2019", g), 1);
  xq_tplayer p = born("", 0);
  cr_assert(xq_group_match(&g[0], &p), "the open group has no bounds");
}

Test(groups, tangshan_women_merged_when_under_three)
{
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int n = xq_test_groups("tangshan2018", g);
  cr_assert_eq(n, 4);
  cr_assert(!g[0].sections, "open: 性别均不限");
  for (int i = 1; i < 4; i++) cr_assert(g[i].sections, "%s: 男、女分开录取成绩", g[i].name);
  cr_assert_str_eq(g[2].born_from, "2002/01/01");
  cr_assert_str_eq(g[2].born_to, "2006/12/31");
  cr_assert_str_eq(g[3].born_from, "2007/01/01");
  /* seniors: 3 men, 2 women -> merged; one more woman -> two sections */
  xq_tplayer pl[7] = {born("1950/01/01", 'm'), born("1951/01/01", 'w'), born("1952/01/01", 'm'),
                      born("1980/01/01", 'w'), born("1953/01/01", 'w'), born("1954/01/01", 'm'),
                      born("1955/01/01", 'm')};
  int men[7], women[7], nm, nw, merged;
  pl[6].sex = 'm';
  cr_assert_eq(xq_group_sections(&g[1], pl, 6, men, &nm, women, &nw, &merged), XQ_OK);
  cr_assert(merged);
  cr_assert_eq(nm, 5);
  cr_assert_eq(nw, 0);
  pl[6].sex = 'w';
  cr_assert_eq(xq_group_sections(&g[1], pl, 7, men, &nm, women, &nw, &merged), XQ_OK);
  cr_assert(!merged);
  cr_assert_eq(nw, 3);
  cr_assert_eq(nm, 3);
}

Test(groups, room_and_arguments)
{
  xq_tgroup g[2];
  int n;
  cr_assert_eq(xq_regulation_groups(xq_test_reg("tangshan2018"), g, 2, &n, NULL), XQ_ELIMIT);
  cr_assert_eq(xq_regulation_groups(NULL, g, 2, &n, NULL), XQ_EINVAL);
  cr_assert_eq(xq_regulation_groups(xq_test_reg("burqin2018"), g, 2, NULL, NULL), XQ_EINVAL);
}

Test(teams, mode_and_count_per_regulation)
{
  static const struct { const char *name; int mode, counted; } want[] = {
    {"xinjiang2018", XQ_TEAM_RANK_SUM, 3},   /* 十(一): 个人名次之和，数值低者名次靠前 */
    {"burqin2018", XQ_TEAM_POINTS_SUM, 3},   /* 五(七): 个人积分总和排列，多者列前 */
    {"shaanxi2019", XQ_TEAM_RANK_SUM, 0},    /* no team competition */
    {"wujiaqu2024", XQ_TEAM_RANK_SUM, 0},
    {"tangshan2018", XQ_TEAM_RANK_SUM, 4},   /* 八.8: 名次分总和少者列前，不够4人不计 */
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    int mode = -1, counted = -1;
    cr_assert_eq(xq_regulation_teams(xq_test_reg(want[i].name), &mode, &counted), XQ_OK);
    cr_assert_eq(counted, want[i].counted, "%s", want[i].name);
    if (counted) cr_assert_eq(mode, want[i].mode, "%s", want[i].name);
  }
  int m, c;
  cr_assert_eq(xq_regulation_teams(NULL, &m, &c), XQ_EINVAL);
  cr_assert_eq(xq_regulation_teams(xq_test_reg("burqin2018"), NULL, &c), XQ_EINVAL);
}

Test(teams, burqin_team_prizes_for_ranked_teams)
{
  xq_prize_table t;
  xq_test_prize_table("burqin2018", 12, &t);
  int places[12], nt, mode, counted;
  xq_tournament *ev = xq_test_event(12, places);
  const char *teams[12] = {"A", "B", "C", "A", "B", "C", "A", "B", "C", "D", "D", NULL};
  for (int i = 0; i < 12; i++)
    if (teams[i]) snprintf(ev->players[i].team, XQ_TOURNEY_FIELD_MAX, "%s", teams[i]);
  cr_assert_eq(xq_regulation_teams(xq_test_reg("burqin2018"), &mode, &counted), XQ_OK);
  xq_team_row rows[8];
  cr_assert_eq(xq_team_standings(ev, places, mode, counted, rows, 8, &nt), XQ_OK);
  cr_assert_eq(nt, 4);
  cr_assert_eq(xq_team_prizes(&t, rows, nt), 4500);
  cr_assert_eq(rows[0].amount, 1800);
  cr_assert_eq(rows[2].amount, 1200);
  cr_assert_eq(rows[3].rank, 0, "D has two players: 不足三名棋手，不计团体名次");
  cr_assert_eq(rows[3].amount, 0);
  xq_tournament_free(ev);
}

/* Xinjiang 十(一) 团体名次规定: 以地州市为单位 (issue 33): a team's players
 * count when they are of one prefecture of 新疆, a county (布尔津县,
 * 阿勒泰地区北屯市 written in full) counting for its prefecture; a player of
 * another prefecture than the team's, or of none (no region, the province
 * itself), does not count and is listed as such. */
Test(teams, xinjiang_teams_by_prefecture)
{
  char u[64];
  cr_assert(xq_region_unit("布尔津县", "新疆", u, sizeof u) && !strcmp(u, "阿勒泰"), "%s", u);
  cr_assert(xq_region_unit("阿勒泰地区北屯市", "新疆", u, sizeof u) && !strcmp(u, "阿勒泰"), "%s", u);
  cr_assert(xq_region_unit("博乐", "新疆", u, sizeof u) && !strcmp(u, "博州"), "%s", u);
  cr_assert(xq_region_unit("乌鲁木齐市", "新疆", u, sizeof u) && !strcmp(u, "乌鲁木齐"), "%s", u);
  cr_assert(!xq_region_unit("新疆", "新疆", u, sizeof u) && !u[0], "the province is no prefecture");
  cr_assert(!xq_region_unit("榆林", "新疆", u, sizeof u), "Shaanxi's");
  cr_assert(!xq_region_unit("", "新疆", u, sizeof u));
  int places[9], nt = 0;
  xq_tournament *ev = xq_test_event(9, places);
  static const char *const team[9] = {"乌鲁木齐一队", "乌鲁木齐一队", "乌鲁木齐一队", "阿勒泰队", "阿勒泰队",
                                      "阿勒泰队", "乌鲁木齐一队", "无地区队", "无地区队"};
  static const char *const region[9] = {"乌鲁木齐", "乌鲁木齐市", "昌吉", "布尔津县", "阿勒泰地区北屯市", "哈巴河",
                                        "乌鲁木齐", "", "新疆"};
  for (int i = 0; i < 9; i++) {
    snprintf(ev->players[places[i] - 1].team, XQ_TOURNEY_FIELD_MAX, "%s", team[i]);
    snprintf(ev->players[places[i] - 1].region, XQ_TOURNEY_FIELD_MAX, "%s", region[i]);
  }
  xq_team_row rows[8];
  xq_team_rule rule;
  xq_error err = {0};
  cr_assert_eq(xq_team_results(ev, places, xq_test_reg("xinjiang2018"), -1, 0, NULL, rows, 8, &nt, &rule, &err), XQ_OK,
               "%s", err.msg);
  cr_assert_str_eq(rule.unit, "新疆");
  cr_assert_eq(nt, 3);
  cr_assert_str_eq(rows[0].team, "乌鲁木齐一队");
  cr_assert_eq(rows[0].value, 1 + 2 + 7, "the 昌吉 player (place 3) does not count: place 7 does");
  cr_assert_str_eq(rows[0].unit, "乌鲁木齐");
  cr_assert(rows[0].nleft == 1 && rows[0].left[0] == places[2] && rows[0].left_why[0] == 'o');
  cr_assert_str_eq(rows[1].team, "阿勒泰队");
  cr_assert_eq(rows[1].value, 4 + 5 + 6);
  cr_assert_str_eq(rows[1].unit, "阿勒泰");
  cr_assert_eq(rows[1].nleft, 0);
  cr_assert_str_eq(rows[2].team, "无地区队");
  cr_assert_eq(rows[2].rank, 0, "no player of a prefecture: not ranked");
  cr_assert(rows[2].nleft == 2 && rows[2].left_why[0] == 'n' && rows[2].left_why[1] == 'n');
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  cr_assert_eq(xq_list_teams(ev, rows, nt, rule.mode, rule.counted, 0, m), XQ_OK);
  fclose(m);
  cr_assert(strstr(text, "乌鲁木齐一队: 1 2 7  [乌鲁木齐]") && strstr(text, "another prefecture than the team's") &&
            strstr(text, "within no prefecture (地州市)"), "%s", text);
  free(text);
  m = open_memstream(&text, &len); /* the sheet says the same */
  cr_assert_eq(xq_sheet_teams(ev, rows, nt, rule.mode, XQ_SHEET_CSV, XQ_LANG_ZH, m), XQ_OK);
  fclose(m);
  cr_assert(strstr(text, "P1、P2、P7 [乌鲁木齐]；不计：P3（昌吉）") && strstr(text, "不计：P8（无地区）、P9（新疆）"), "%s", text);
  free(text);
  /* Burqin's teams are not by prefecture: the same players all count */
  cr_assert_eq(xq_team_results(ev, places, xq_test_reg("burqin2018"), -1, 0, NULL, rows, 8, &nt, &rule, &err), XQ_OK);
  cr_assert_str_eq(rule.unit, "");
  xq_tournament_free(ev);
}

/* ------------------------------------------------------------------ */
/* xqref tourney places|teams|prizes|groups                            */
/* ------------------------------------------------------------------ */

Test(cli, results_with_presets)
{
  char db[512];
  xq_test_db_path(db, sizeof db, "regdata");
  xq_test_db_remove(db);
  free(xq_test_run_db(0, "tourney new --db %s --rounds 1%s", db, ""));
  /* P1..P6; P1 local, P5 local; teams A (P1, P3, P5), B (P2, P4, P6) */
  static const char *const extra[6] = {"--local --team A --region 布尔津 --sex m --birth 1950/01/01",
                                       "--team B --region 哈巴河 --sex w", "--team A --region 布尔津",
                                       "--team B --region 哈巴河", "--local --team A --region 布尔津",
                                       "--team B --region 哈巴河"};
  for (int i = 0; i < 6; i++) {
    char more[256];
    snprintf(more, sizeof more, " --name 'P%d <%d>' --rating %d %s", i + 1, i + 1, 2000 - i, extra[i]);
    free(xq_test_run_db(0, "tourney add --db %s%s", db, more));
  }
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, ""));
  for (int b = 1; b <= 3; b++) {
    char more[64];
    snprintf(more, sizeof more, " --round 1 --board %d 1-0", b);
    free(xq_test_run_db(0, "tourney result --db %s%s", db, more));
  }
  /* Burqin: open prizes, the local prize on top, team prizes by points */
  xq_test_run_db_says(0, "布尔津籍 Burqin players    1", "tourney prizes --db %s --preset %s", db, "burqin2018");
  char *out = xq_test_run_db(0, "tourney prizes --db %s --preset burqin2018 --format csv%s", db, "");
  cr_assert(strstr(out, "Category,Place,Overall,Name,Prize\r\n"), "%s", out);
  /* the best-placed local player (P1 or P5) has his open prize and the
   * local first prize as well */
  const char *loc = strstr(out, "布尔津籍 Burqin players,1,");
  cr_assert_not_null(loc, "%s", out);
  const char *nm = strstr(loc, ",P");
  cr_assert_not_null(nm);
  char who[16];
  snprintf(who, sizeof who, "%.7s", nm + 1); /* "P1 <1>," */
  cr_assert(!strcmp(who, "P1 <1>,") || !strcmp(who, "P5 <5>,"), "%s", who);
  cr_assert(strstr(loc, ",1000\r\n") == strchr(loc, '\r') - 5, "%s", out);
  char open_row[64];
  snprintf(open_row, sizeof open_row, "个人 open,");
  const char *o1 = strstr(out, open_row);
  cr_assert(o1 && strstr(o1, who) && strstr(o1, who) < loc, "%s also in the open list:\n%s", who, out);
  cr_assert(strstr(out, "布尔津籍 Burqin players,2,"), "%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney teams --db %s --preset %s", db, "burqin2018");
  cr_assert(strstr(out, "sum of points, 3 counted"), "%s", out);
  cr_assert(strstr(out, "prize 1800"), "%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney teams --db %s --preset xinjiang2018 --format html --lang zh%s", db, "");
  cr_assert(strstr(out, "<th>名次分</th>"), "%s", out);
  cr_assert(strstr(out, "P1 &lt;1&gt;"), "%s", out);
  free(out);
  xq_test_run_db_says(1, "no team competition", "tourney teams --db %s --preset %s", db, "shaanxi2019");
  xq_test_run_db_says(0, "a total of 151000 and no table", "tourney prizes --db %s --preset %s", db, "wujiaqu2024");
  /* Tangshan: the seniors' list over the seniors' event */
  out = xq_test_run_db(0, "tourney prizes --db %s --preset tangshan2018 --group '老年组 seniors'%s", db, "");
  cr_assert(strstr(out, "P1 <1>  600\n"), "the only senior:\n%s", out);
  cr_assert(strstr(out, "total 600\n"), "%s", out);
  free(out);
  free(xq_test_run_db(1, "tourney prizes --db %s --preset tangshan2018 --group %s", db, "nobody"));
  xq_test_run_db_says(0, "老年组 seniors (1)", "tourney groups --db %s --preset tangshan2018 --group %s", db, "seniors");
  xq_test_run_db_says(0, "最终名次\n\n名次", "tourney places --db %s --format text --lang zh%s", db, "");
  /* `presets show` prints the tables the commands use */
  int st;
  out = xq_test_run("presets show burqin2018", &st);
  cr_assert_eq(st, 0);
  cr_assert(strstr(out, "prize  布尔津籍 Burqin players (local players, won on top of another): "
                        "1 1000, 2 600, 3 500, 4 300, 5-6 200\n"), "%s", out);
  cr_assert(strstr(out, "lucky  places 18, 28, ...: 100 each\n"), "%s", out);
  cr_assert(strstr(out, "stated total  20000\n"), "%s", out);
  free(out);
  /* a preset option (docs/presets.md "Ambiguous readings") */
  out = xq_test_run_db(0, "tourney groups --db %s --preset tangshan2018 --group seniors --option %s", db, "seniors=one");
  cr_assert(strstr(out, "老年组 seniors (1)"), "the option taken: %s", out);
  free(out);
  free(xq_test_run_db(2, "tourney prizes --db %s --preset xinjiang2018 --option %s", db, "ko_places=coin"));
  free(xq_test_run_db(2, "tourney prizes --db %s --option %s", db, "ko_places=shared"));
  /* usage errors */
  free(xq_test_run_db(2, "tourney prizes --db %s%s", db, ""));
  free(xq_test_run_db(2, "tourney prizes --db %s --preset burqin2018 --table %s", db, "x"));
  /* a table file with a team prize and a list apart */
  char tab[600], more[700];
  snprintf(tab, sizeof tab, "%s.prizes", db);
  FILE *tf = fopen(tab, "w");
  cr_assert_not_null(tf);
  fputs("category open all\n1 100\nteam 1 70\ncategory old born ..1957/12/31 apart\n1 50\n", tf);
  cr_assert_eq(fclose(tf), 0);
  snprintf(more, sizeof more, " --count 3 --table %s", tab);
  xq_test_run_db_says(0, "prize 70", "tourney teams --db %s%s", db, more);
  snprintf(more, sizeof more, " --table %s --group old", tab);
  out = xq_test_run_db(0, "tourney prizes --db %s%s", db, more);
  cr_assert(strstr(out, "P1 <1>  50\n"), "%s", out);
  cr_assert(strstr(out, "total 50\n"), "%s", out);
  free(out);
  unlink(tab);
  free(xq_test_run_db(2, "tourney places --db %s --format %s", db, "trf"));
  free(xq_test_run_db(2, "tourney places --db %s --lang %s", db, "zh"));
  free(xq_test_run_db(2, "tourney teams --db %s --preset %s", db, "nosuch"));
  free(xq_test_run_db(1, "tourney groups --db %s%s", db, ""));
  xq_test_db_remove(db);
}

Test(prizes, a_table_file_says_what_a_preset_says)
{
  /* Burqin 六(四) as a table file: the same table as the preset */
  static const char file[] =
    "category open all\n1 5000\n2 2000\n3 1000\n4 800\n5 600\n6 500\n7-8 400\n9-12 300\n13-16 200\n"
    "category local local repeat\n1 1000\n2 600\n3 500\n4 300\n5-6 200\n"
    "lucky 18 10 100\n"
    "team 1 1800\nteam 2 1500\nteam 3 1200\n"
    "category seniors born ..1957/12/31 apart\n1 600\n";
  xq_prize_table f, p;
  xq_error err = {0};
  cr_assert_eq(xq_prize_parse(file, sizeof file - 1, &f, &err), XQ_OK, "%s", err.msg);
  xq_test_prize_table("burqin2018", 40, &p);
  for (int c = 0; c < 2; c++) {
    cr_assert_eq(f.cats[c].nplaces, p.cats[c].nplaces);
    cr_assert_eq(f.cats[c].repeat, p.cats[c].repeat);
    cr_assert_eq(memcmp(f.cats[c].amount, p.cats[c].amount, sizeof f.cats[c].amount), 0);
  }
  cr_assert_eq(f.nteam, p.nteam);
  cr_assert_eq(memcmp(f.team_amount, p.team_amount, sizeof f.team_amount), 0);
  cr_assert_eq(f.lucky_start, p.lucky_start);
  cr_assert(f.cats[2].apart);
  static const char gap[] = "team 2 100\n";
  cr_assert_eq(xq_prize_parse(gap, sizeof gap - 1, &f, &err), XQ_EINVAL);
  static const char many[] = "team 1-17 100\n";
  cr_assert_eq(xq_prize_parse(many, sizeof many - 1, &f, &err), XQ_EINVAL);
}

/* ------------------------------------------------------------------ */
/* The regulations to the letter: Xinjiang's juniors on the            */
/* open tables for their own prizes and its 40% cap per group; Burqin's */
/* Altay teams; Shaanxi's Yulin counties (a region hierarchy in data);  */
/* Tangshan's teams on the Swiss; the options, titles, eligibility.     */
/* ------------------------------------------------------------------ */

static int cat_index(const xq_prize_table *t, const char *name)
{
  return (int)(cat(t, name) - t->cats);
}

/* n players born `birth`, places[i] = i + 1. */
static xq_tournament *event_born(int n, const char *birth, int *places)
{
  xq_tournament *ev = xq_test_event(n, places);
  for (int i = 0; i < n; i++) snprintf(ev->players[i].birth, sizeof ev->players[i].birth, "%s", birth);
  return ev;
}

/* The award of player `id` in category `c`, NULL when none. */
static const xq_award *award_of(const xq_award *aw, int na, int id, int c)
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

Test(xinjiang, juniors_win_their_own_lists_over_their_own_events)
{
  xq_prize_table t;
  xq_test_prize_table("xinjiang2018", 60, &t);
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
  xq_tournament *ev = event_born(60, "1980/01/01", places);
  snprintf(ev->players[0].birth, sizeof ev->players[0].birth, "2006/05/01");
  snprintf(ev->players[7].birth, sizeof ev->players[7].birth, "2007/02/01");
  for (int i = 20; i <= 40; i += 10) snprintf(ev->players[i].birth, sizeof ev->players[i].birth, "2006/09/09");
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  cr_assert_null(award_of(aw, na, 1, open), "the junior in 1st wins no open prize");
  cr_assert_null(award_of(aw, na, 8, open));
  cr_assert_not_null(award_of(aw, na, 2, open));
  cr_assert_not_null(award_of(aw, na, 10, open));
  cr_assert_eq(award_of(aw, na, 2, open)->amount, 6000);
  cr_assert_eq(award_of(aw, na, 2, open)->cat_place, 1);
  cr_assert_eq(award_of(aw, na, 10, open)->amount, 900, "the 8th of the open group is 10th overall");
  /* the 12岁组 plays an event of its own (issue 33): its list is not the
   * open event's, and over its own event it has ⌊40% × 5⌋ = 2 places */
  cr_assert_eq(count_in(aw, na, u12), 0, "the 12岁组's list is over its own event");
  cr_assert_eq(count_in(aw, na, open), 22, "⌊40%% × 55⌋");
  free(aw);
  xq_tournament_free(ev);
  cr_assert_eq(xq_prize_table_only(&t, "12岁组 under 12"), XQ_OK);
  ev = event_born(5, "2006/05/01", places);
  aw = xq_test_award(ev, places, &t, &na);
  cr_assert_eq(na, 2, "⌊40%% × 5⌋ = 2 places");
  cr_assert_eq(award_of(aw, na, 1, 0)->cat_place, 1, "the 12岁组's first");
  cr_assert_eq(award_of(aw, na, 2, 0)->cat_place, 2);
  free(aw);
  xq_tournament_free(ev);
}

Test(xinjiang, the_forty_percent_cap_is_on_each_groups_entrants)
{
  /* 十(一) 各组录取名次均按不高于40%的比例执行: 60 entrants, 39 open and
   * senior players (cap 15), 21 born 2009 (10岁组: cap 8) */
  xq_prize_table t;
  xq_test_prize_table("xinjiang2018", 60, &t);
  int places[60], na;
  xq_tournament *ev = event_born(60, "1985/06/01", places);
  for (int i = 0; i < 21; i++) snprintf(ev->players[2 * i + 1].birth, sizeof ev->players[0].birth, "2009/04/01");
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  int open = cat_index(&t, "公开组 open"), u10 = cat_index(&t, "10岁组 under 10");
  cr_assert_eq(count_in(aw, na, open), 15, "⌊40%% × 39⌋");
  cr_assert_eq(count_in(aw, na, u10), 0, "the 10岁组's list is over its own event");
  cr_assert_eq(na, 15);
  free(aw);
  xq_tournament_free(ev);
  xq_prize_table u10t = t;
  cr_assert_eq(xq_prize_table_only(&u10t, "10岁组 under 10"), XQ_OK);
  ev = event_born(21, "2009/04/01", places);
  aw = xq_test_award(ev, places, &u10t, &na);
  cr_assert_eq(na, 8, "⌊40%% × 21⌋");
  /* the whole table above one hundred open and senior entrants: 40 */
  free(aw);
  xq_tournament_free(ev);
  int big[150];
  ev = event_born(150, "1970/01/01", big);
  aw = xq_test_award(ev, big, &t, &na);
  cr_assert_eq(count_in(aw, na, open), 40);
  free(aw);
  xq_tournament_free(ev);
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
  xq_test_prize_table("shaanxi2019", 100, &t);
  int cy = cat_index(&t, "榆林籍 Yulin"), cj = cat_index(&t, "佳县籍 Jia county");
  int places[30], na;
  xq_tournament *ev = event_born(30, "1980/01/01", places);
  static const char *const region[] = {"神木", "佳县", "府谷", "西安", "米脂", "绥德", "延安", "榆林",
                                       "榆阳区", "子洲", "佳县"};
  for (int i = 0; i < 11; i++) snprintf(ev->players[i].region, XQ_TOURNEY_FIELD_MAX, "%s", region[i]);
  for (int i = 11; i < 30; i++) snprintf(ev->players[i].region, XQ_TOURNEY_FIELD_MAX, "宝鸡");
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  /* 1500 1200 1000 800 500 300 300 300 to places 1 2 3 5 6 8 9 10 */
  static const int ids[8] = {1, 2, 3, 5, 6, 8, 9, 10}, amounts[8] = {1500, 1200, 1000, 800, 500, 300, 300, 300};
  for (int k = 0; k < 8; k++) {
    const xq_award *a = award_of(aw, na, ids[k], cy);
    cr_assert_not_null(a, "place %d wins a Yulin prize", ids[k]);
    cr_assert_eq(a->amount, amounts[k]);
    cr_assert_eq(a->cat_place, k + 1);
  }
  cr_assert_eq(count_in(aw, na, cy), 8);
  cr_assert_null(award_of(aw, na, 4, cy), "西安");
  cr_assert_null(award_of(aw, na, 7, cy), "延安");
  cr_assert_eq(award_of(aw, na, 2, cj)->amount, 1000, "Jia county: its own list too");
  cr_assert_eq(award_of(aw, na, 11, cj)->amount, 800);
  cr_assert_eq(count_in(aw, na, cj), 2);
  free(aw);
  xq_tournament_free(ev);
}

/* ------------------------------------------------------------------ */
/* Teams                                                               */
/* ------------------------------------------------------------------ */

static void team_in(xq_tournament *ev, const char *name, const char *region, const int *ids, int k)
{
  for (int i = 0; i < k; i++) {
    snprintf(ev->players[ids[i] - 1].team, XQ_TOURNEY_FIELD_MAX, "%s", name);
    snprintf(ev->players[ids[i] - 1].region, XQ_TOURNEY_FIELD_MAX, "%s", region);
  }
}

/* Twelve players born 1980, four teams of three (Urumqi 1-3, Burqin 4-6,
 * Beitun 7-9, Kuytun 10-12) with their regions written as `regions`
 * gives them; the first six win round 1, the rest lose. */
static xq_tournament *four_teams(const char *const regions[4], int places[12])
{
  xq_tournament *ev = event_born(12, "1980/01/01", places);
  team_in(ev, "乌鲁木齐一队", regions[0], (int[]){1, 2, 3}, 3);
  team_in(ev, "布尔津一队", regions[1], (int[]){4, 5, 6}, 3);
  team_in(ev, "北屯一队", regions[2], (int[]){7, 8, 9}, 3);
  team_in(ev, "奎屯一队", regions[3], (int[]){10, 11, 12}, 3);
  for (int id = 1; id <= 12; id++) xq_tournament_slot(ev, id, 1)->res = id <= 6 ? XQ_TR_WIN : XQ_TR_LOSS;
  ev->nrounds = 1;
  return ev;
}

Test(teams, burqin_ranks_and_pays_only_altay_teams)
{
  xq_team_rule rule;
  cr_assert_eq(xq_regulation_team_rule(xq_test_reg("burqin2018"), &rule), XQ_OK);
  cr_assert_eq(rule.counted, 3);
  cr_assert_eq(rule.mode, XQ_TEAM_POINTS_SUM);
  cr_assert_str_eq(rule.area, "阿勒泰");
  cr_assert_not_null(rule.clause);
  cr_assert_not_null(strstr(rule.clause, "四(二)"));
  int places[12];
  xq_tournament *ev = four_teams((const char *const[]){"乌鲁木齐", "布尔津", "北屯", "奎屯"}, places);
  xq_team_row rows[8];
  int n;
  cr_assert_eq(xq_team_standings_rule(ev, places, &rule, rows, 8, &n), XQ_OK);
  cr_assert_eq(n, 2, "Urumqi and Kuytun are outside the team competition");
  cr_assert_str_eq(rows[0].team, "布尔津一队");
  cr_assert_eq(rows[0].rank, 1);
  cr_assert_str_eq(rows[1].team, "北屯一队");
  xq_prize_table t;
  xq_test_prize_table("burqin2018", 12, &t);
  xq_team_prizes(&t, rows, n);
  cr_assert_eq(rows[0].amount, 1800, "the first team prize to Burqin's team, not Urumqi's");
  cr_assert_eq(rows[1].amount, 1500);
  /* the rule without an area: everyone (xq_team_standings) */
  cr_assert_eq(xq_team_standings(ev, places, rule.mode, 3, rows, 8, &n), XQ_OK);
  cr_assert_eq(n, 4);
  xq_tournament_free(ev);
}

/* Issue 33, Tangshan 六.2 老年组…男、女分开录取成绩 and 九.3 女子组不足三人取消
 * 该组，混入男子组: the seniors' prizes are a men's and a women's list,
 * each places 1-6 with 九.3's amounts (奖金不分男女: the same money); two
 * women merge into the men's list; the option seniors=one makes one list
 * of six. */
Test(tangshan, seniors_men_and_women_are_paid_from_their_own_lists)
{
  const xq_regulation *r0 = xq_test_reg("tangshan2018");
  for (int variant = 0; variant < 3; variant++) {
    xq_regulation r = *r0;
    xq_error err = {0};
    if (variant == 2) cr_assert_eq(xq_regulation_option_set(&r, "seniors=one", &err), XQ_OK, "%s", err.msg);
    xq_prize_table t;
    cr_assert_eq(xq_regulation_prizes(&r, 12, &t, &err), XQ_OK, "%s", err.msg);
    cr_assert_eq(xq_prize_table_only(&t, "老年组 seniors"), XQ_OK);
    int places[12], na;
    xq_tournament *ev = event_born(12, "1950/01/01", places);
    int women = variant == 1 ? 2 : 4;
    for (int i = 0; i < 12; i++) ev->players[i].sex = i % 3 == 1 && i / 3 < women ? 'w' : 'm';
    xq_award *aw = xq_test_award(ev, places, &t, &na);
    long total = 0;
    int w = 0;
    for (int i = 0; i < na; i++) {
      total += aw[i].amount;
      w += aw[i].section == 'w';
      if (aw[i].section) cr_assert_eq(aw[i].section == 'w', ev->players[aw[i].id - 1].sex == 'w');
    }
    if (variant == 0) {
      cr_assert_eq(na, 6 + 4, "a men's list of six and a women's of four");
      cr_assert_eq(w, 4);
      cr_assert_eq(total, 2200 + 1800);
    } else {
      cr_assert_eq(na, 6, "variant %d: one list (two women merged; seniors=one)", variant);
      cr_assert_eq(w, 0);
      cr_assert_eq(total, 2200);
    }
    free(aw);
    xq_tournament_free(ev);
  }
}

/* Issue 33, Tangshan 九.4 少年组、儿童组分别取前6名，颁发奖品、证书 (女子组不足
 * 三人…混入男子组): the juniors and the children each have a list of six
 * places over their own event, paid in goods (no amount), men and women
 * apart, as the seniors'. */
Test(tangshan, juniors_and_children_have_their_six_places)
{
  xq_prize_table t;
  xq_test_prize_table("tangshan2018", 12, &t);
  const xq_prize_cat *jun = cat(&t, "少年组 juniors"), *chi = cat(&t, "儿童组 children");
  cr_assert_eq(jun->nplaces, 6);
  cr_assert_eq(chi->nplaces, 6);
  cr_assert_eq(cat_sum(jun) + cat_sum(chi), 0, "goods and certificates: no amount");
  cr_assert(jun->apart && chi->apart, "each group's own event (八.2-4)");
  cr_assert_str_eq(jun->group.born_from, "2002/01/01");
  cr_assert_str_eq(jun->group.born_to, "2006/12/31");
  cr_assert_str_eq(chi->group.born_from, "2007/01/01");
  cr_assert(jun->group.sections && chi->group.sections, "六.3-4 男、女分开录取成绩");
  cr_assert_eq(xq_prize_table_only(&t, "少年组 juniors"), XQ_OK);
  int places[12], na;
  xq_tournament *ev = event_born(12, "2004/06/01", places);
  for (int i = 0; i < 12; i++) ev->players[i].sex = i % 4 == 3 ? 'w' : 'm';
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  int w = 0;
  for (int i = 0; i < na; i++) {
    cr_assert_eq(aw[i].amount, 0);
    w += aw[i].section == 'w';
  }
  cr_assert_eq(na, 6 + 3, "a men's list of six and a women's of three");
  cr_assert_eq(w, 3);
  free(aw);
  xq_tournament_free(ev);
  int st;
  char *out = xq_test_run("presets show tangshan2018", &st);
  cr_assert_eq(st, 0);
  cr_assert(strstr(out, "prize  儿童组 children (born, its own event): places 1-6, amounts not stated\n"), "%s", out);
  cr_assert(strstr(out, "juniors and children top 6 each: goods and certificates"), "%s", out);
  free(out);
}

/* Issue 33, the entry limits (Xinjiang 十一(一) 限报150人…报满截止, Shaanxi
 * 十三(一)1 公开赛限报100人, Tangshan 十.1 限报180人，先报先得): a player
 * registered past the limit of the regulation whose title the event bears
 * is registered with a warning, by `tourney add` and `import-players`;
 * Burqin and Wujiaqu state none, a group's own event is not counted. */
Test(entry, past_the_entry_limit_a_warning)
{
  char warn[256] = "";
  const char *sx = xq_test_reg("shaanxi2019")->title;
  cr_assert_eq(xq_regulation_entry_count(sx, 99, warn, sizeof warn), 0, "the 100th is within");
  cr_assert_eq(warn[0], 0);
  cr_assert_eq(xq_regulation_entry_count(sx, 100, warn, sizeof warn), 1);
  cr_assert(strstr(warn, "101 players registered, more than shaanxi2019's entry limit of 100 (十三(一)1"), "%s", warn);
  cr_assert_eq(xq_regulation_entry_count(xq_test_reg("xinjiang2018")->title, 150, warn, sizeof warn), 1);
  cr_assert_eq(xq_regulation_entry_count(xq_test_reg("tangshan2018")->title, 179, warn, sizeof warn), 0);
  cr_assert_eq(xq_regulation_entry_count(xq_test_reg("tangshan2018")->title, 180, warn, sizeof warn), 1);
  cr_assert_eq(xq_regulation_entry_count(xq_test_reg("burqin2018")->title, 1000, warn, sizeof warn), 0);
  cr_assert_eq(xq_regulation_entry_count(xq_test_reg("wujiaqu2024")->title, 1000, warn, sizeof warn), 0);
  cr_assert_eq(xq_regulation_entry_count("测试", 1000, warn, sizeof warn), 0);
  cr_assert_eq(xq_regulation_entry_count(NULL, 1000, warn, sizeof warn), 0);
  char group[300];
  snprintf(group, sizeof group, "%s 老年组 seniors", xq_test_reg("tangshan2018")->title);
  cr_assert_eq(xq_regulation_entry_count(group, 1000, warn, sizeof warn), 0);

  /* the commands: 100 from a list, then the 101st by hand and by list */
  char db[512], csv[600], more[700];
  xq_test_db_path(db, sizeof db, "entry_limit");
  xq_test_db_remove(db);
  snprintf(csv, sizeof csv, "%s.csv", db);
  FILE *f = fopen(csv, "w");
  cr_assert_not_null(f);
  fputs("name,rating\n", f);
  for (int i = 1; i <= 100; i++) fprintf(f, "P%d,%d\n", i, 2000 - i);
  cr_assert_eq(fclose(f), 0);
  free(xq_test_run_db(0, "tourney new --db %s --preset shaanxi2019%s", db, ""));
  char *out = xq_test_run_db(0, "tourney import-players --db %s %s", db, csv);
  cr_assert_null(strstr(out, "entry limit"), "%s", out);
  free(out);
  xq_test_run_db_says(0, "warning: 101 players registered, more than shaanxi2019's entry limit of 100",
                      "tourney add --db %s --name %s", db, "P101");
  f = fopen(csv, "w");
  cr_assert_not_null(f);
  fputs("name\nP102\n", f);
  cr_assert_eq(fclose(f), 0);
  snprintf(more, sizeof more, " %s", csv);
  xq_test_run_db_says(0, "102 players registered, more than shaanxi2019's entry limit", "tourney import-players --db %s%s",
                      db, more);
  unlink(csv);
  xq_test_db_remove(db);
}

/* Issue 33, Burqin 四(一) 年龄要求70周岁以下 on the first day (2018/07/07):
 * a player born before 1948/07/08 is entered with a warning naming the
 * clause; one born that day, one of no birth date, and every event of
 * another regulation take him without one. */
Test(entry, burqin_age_limit_a_warning)
{
  const xq_regulation *r = xq_test_reg("burqin2018");
  const char *from = NULL, *clause = NULL;
  cr_assert_eq(xq_regulation_age_limit(r, &from, &clause), 1);
  cr_assert_str_eq(from, "1948/07/08");
  cr_assert(strstr(clause, "四(一)"), "%s", clause);
  cr_assert_eq(xq_regulation_age_limit(xq_test_reg("shaanxi2019"), NULL, NULL), 0);
  xq_tplayer p = {0};
  char warn[512];
  xq_error err = {0};
  snprintf(p.name, sizeof p.name, "老将");
  snprintf(p.birth, sizeof p.birth, "1948/07/07");
  cr_assert_eq(xq_regulation_entry(r->title, &p, warn, sizeof warn, &err), XQ_OK);
  cr_assert(strstr(warn, "老将 (born 1948/07/07) is over burqin2018's age limit: born on or after 1948/07/08"), "%s",
            warn);
  snprintf(p.birth, sizeof p.birth, "1948/07/08");
  cr_assert_eq(xq_regulation_entry(r->title, &p, warn, sizeof warn, &err), XQ_OK);
  cr_assert_null(strstr(warn, "age limit"), "%s", warn);
  p.birth[0] = 0;
  cr_assert_eq(xq_regulation_entry(r->title, &p, warn, sizeof warn, &err), XQ_OK);
  cr_assert_null(strstr(warn, "age limit"), "%s", warn);
  snprintf(p.birth, sizeof p.birth, "1930/01/01");
  cr_assert_eq(xq_regulation_entry(xq_test_reg("wujiaqu2024")->title, &p, warn, sizeof warn, &err), XQ_OK);
  cr_assert_null(strstr(warn, "age limit"), "%s", warn);

  char db[512];
  xq_test_db_path(db, sizeof db, "age_limit");
  xq_test_db_remove(db);
  free(xq_test_run_db(0, "tourney new --db %s --preset burqin2018%s", db, ""));
  xq_test_run_db_says(0, "is over burqin2018's age limit", "tourney add --db %s --name 老将 --birth %s", db,
                      "1940/01/01");
  xq_test_db_remove(db);
}

/* Issue 33: a region written in full, its levels run together, is the
 * place it names: a Beitun team so written is ranked (second, 1,500). */
Test(teams, burqin_ranks_a_team_whose_region_is_written_in_full)
{
  xq_team_rule rule;
  cr_assert_eq(xq_regulation_team_rule(xq_test_reg("burqin2018"), &rule), XQ_OK);
  int places[12];
  xq_tournament *ev = four_teams((const char *const[]){"乌鲁木齐", "阿勒泰地区布尔津县", "阿勒泰地区北屯市",
                                                       "伊犁哈萨克自治州奎屯市"}, places);
  xq_team_row rows[8];
  int n;
  cr_assert_eq(xq_team_standings_rule(ev, places, &rule, rows, 8, &n), XQ_OK);
  cr_assert_eq(n, 2, "Urumqi and Kuytun are outside the team competition");
  cr_assert_str_eq(rows[0].team, "布尔津一队");
  cr_assert_str_eq(rows[1].team, "北屯一队");
  cr_assert_eq(rows[1].rank, 2);
  xq_prize_table t;
  xq_test_prize_table("burqin2018", 12, &t);
  xq_team_prizes(&t, rows, n);
  cr_assert_eq(rows[1].amount, 1500);
  xq_tournament_free(ev);
}

Test(regions, written_in_full_by_the_hierarchy)
{
  static const struct { const char *place, *area; int in; } cases[] = {
    {"阿勒泰地区北屯市", "阿勒泰", 1}, {"阿勒泰地区北屯市", "北屯", 1}, {"阿勒泰地区北屯市", "新疆", 1},
    {"阿勒泰地区北屯市", "布尔津", 0}, {"新疆维吾尔自治区阿勒泰地区布尔津县", "布尔津", 1},
    {"榆林市佳县", "榆林", 1}, {"榆林市佳县", "佳县", 1}, {"陕西省榆林市佳县", "陕西", 1},
    {"榆林市佳县", "神木", 0}, {"榆林市神木市", "神木", 1}, {"榆林/佳县", "佳县", 1},
    {"火星北屯", "阿勒泰", 0}, {"阿勒泰市", "布尔津", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    cr_assert_eq(xq_region_within(cases[i].place, cases[i].area), cases[i].in, "%s within %s", cases[i].place,
                 cases[i].area);
}

Test(shaanxi, jia_county_written_in_full_wins_its_prize)
{
  xq_prize_table t;
  xq_test_prize_table("shaanxi2019", 100, &t);
  int cj = cat_index(&t, "佳县籍 Jia county"), places[30], na;
  xq_tournament *ev = event_born(30, "1980/01/01", places);
  for (int i = 0; i < 30; i++) snprintf(ev->players[i].region, XQ_TOURNEY_FIELD_MAX, "宝鸡");
  snprintf(ev->players[1].region, XQ_TOURNEY_FIELD_MAX, "榆林市佳县");
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  cr_assert_not_null(award_of(aw, na, 2, cj), "榆林市佳县 is 佳县");
  free(aw);
  xq_tournament_free(ev);
}

/* Issue 33 (Xinjiang 七, 十(一), 九(三)): the junior groups play events of
 * their own. The open event an organiser makes with `tourney new
 * --preset` refuses a junior, so no board, seed or open prize is his; a
 * junior group's event (--group) takes its own players only; a player
 * without a birth date is warned at registration and on the prize list. */
Test(cli, xinjiang_juniors_are_refused_in_the_open_event)
{
  char db[512], gdb[540];
  xq_test_db_path(db, sizeof db, "xjopen");
  snprintf(gdb, sizeof gdb, "%s.u12", db);
  xq_test_db_remove(db);
  xq_test_db_remove(gdb);
  free(xq_test_run_db(0, "tourney new --db %s --preset xinjiang2018 --rounds 3%s", db, ""));
  static const char *const adults[] = {"1980/01/01", "1950/02/02", "1990/03/03", "1970/04/04", "2001/12/31", "1957/12/31"};
  for (int i = 0; i < 6; i++) {
    char more[128];
    snprintf(more, sizeof more, " --name A%d --rating %d --birth %s", i + 1, 1900 - 10 * i, adults[i]);
    free(xq_test_run_db(0, "tourney add --db %s%s", db, more));
  }
  static const char *const juniors[] = {"2002/01/01", "2007/05/05", "2009/09/09", "2012/12/12"};
  for (int i = 0; i < 4; i++) {
    char more[128];
    snprintf(more, sizeof more, " --name J%d --rating 2400 --birth %s", i + 1, juniors[i]);
    xq_test_run_db_says(1, "which plays an event of its own", "tourney add --db %s%s", db, more);
  }
  xq_test_run_db_says(0, "warning: N has no birth date", "tourney add --db %s --name N%s", db, " --rating 1000");
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, ""));
  xq_tstore *st;
  xq_tournament *ev;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(db, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->n, 7, "six adults and N");
  for (int id = 1; id <= ev->n; id++) {
    cr_assert_neq(ev->players[id - 1].name[0], 'J', "a junior registered");
    cr_assert(!ev->players[id - 1].birth[0] || strcmp(ev->players[id - 1].birth, "2001/12/31") <= 0);
  }
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_run_db_says(0, "warning: 7 N has no birth date", "tourney prizes --db %s --preset %s", db, "xinjiang2018");
  /* a junior group's own event */
  free(xq_test_run_db(0, "tourney new --db %s --preset xinjiang2018 --group 12岁组%s", gdb, ""));
  xq_test_run_db_says(1, "is not of 12岁组", "tourney add --db %s --name A --birth 1980/01/01%s", gdb, "");
  xq_test_run_db_says(1, "is not of 12岁组", "tourney add --db %s --name B --birth 2009/01/01%s", gdb, "");
  xq_test_run_db_says(0, "player 1: C", "tourney add --db %s --name C --birth 2007/05/05%s", gdb, "");
  xq_test_run_db_says(2, "no group '老年组' that plays an event of its own",
                      "tourney new --db %s.x --preset xinjiang2018 --group %s", db, "老年组");
  xq_test_db_remove(db);
  xq_test_db_remove(gdb);
}

Test(teams, tangshan_ranks_teams_on_the_swiss_results)
{
  xq_team_rule rule;
  cr_assert_eq(xq_regulation_team_rule(xq_test_reg("tangshan2018"), &rule), XQ_OK);
  cr_assert_eq(rule.basis, XQ_TEAM_BASIS_SWISS, "八.3 团体成绩按照预赛成绩计算");
  cr_assert_eq(rule.counted, 4);
  cr_assert_eq(rule.mode, XQ_TEAM_RANK_SUM);
  xq_team_rule other;
  cr_assert_eq(xq_regulation_team_rule(xq_test_reg("xinjiang2018"), &other), XQ_OK);
  cr_assert_eq(other.basis, XQ_TEAM_BASIS_FINAL);
  cr_assert_eq(xq_regulation_team_rule(xq_test_reg("shaanxi2019"), &other), XQ_OK);
  cr_assert_eq(other.counted, 0);
  /* eight players, one round: the odd ids win; the "final" places are
   * the reverse of the ids */
  int places[8];
  xq_tournament *ev = event_born(8, "1980/01/01", places);
  for (int id = 1; id <= 8; id++) xq_tournament_slot(ev, id, 1)->res = id % 2 ? XQ_TR_WIN : XQ_TR_LOSS;
  ev->nrounds = 1;
  int final[8], swiss[8];
  for (int i = 0; i < 8; i++) final[i] = 8 - i;
  team_in(ev, "A", "路北区", (int[]){1, 3, 5, 7}, 4);
  team_in(ev, "B", "路南区", (int[]){2, 4, 6, 8}, 4);
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
  xq_tournament_free(ev);
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
    xq_regulation r = *xq_test_reg(want[i].preset);
    cr_assert_eq(xq_regulation_option(&r, want[i].key), 0, "%s %s: the preset's reading", want[i].preset,
                 want[i].key);
    char assign[64];
    snprintf(assign, sizeof assign, "%s=%s", want[i].key, want[i].other);
    xq_error err = {0};
    cr_assert_eq(xq_regulation_option_set(&r, assign, &err), XQ_OK, "%s", err.msg);
    cr_assert_eq(xq_regulation_option(&r, want[i].key), 1);
  }
  xq_regulation r = *xq_test_reg("xinjiang2018");
  xq_error err = {0};
  cr_assert_eq(xq_regulation_option_set(&r, "ko_places=coin", &err), XQ_EINVAL);
  cr_assert_not_null(strstr(err.msg, "seed or shared"), "%s", err.msg);
  cr_assert_eq(xq_regulation_option_set(&r, "pawns=crossed", &err), XQ_EINVAL, "Wujiaqu's, not Xinjiang's");
  cr_assert_not_null(strstr(err.msg, "ko_places, u14"), "%s", err.msg);
  cr_assert_eq(xq_regulation_option(xq_test_reg("burqin2018"), "ko_places"), -1);
  cr_assert_null(xq_regulation_option_at(xq_test_reg("burqin2018"), 0));
  const xq_reg_option *o = xq_regulation_option_at(xq_test_reg("wujiaqu2024"), 0);
  cr_assert_str_eq(o->rules_key, "claim_attackers_crossed_pawns");
}

Test(options, xinjiang_shared_knockout_places_split_the_prizes)
{
  xq_regulation r = *xq_test_reg("xinjiang2018");
  cr_assert_eq(xq_regulation_option_set(&r, "ko_places=shared", NULL), XQ_OK);
  xq_prize_table t;
  cr_assert_eq(xq_regulation_prizes(&r, 40, &t, NULL), XQ_OK);
  int places[40], na;
  xq_tournament *ev = event_born(40, "1980/01/01", places);
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  /* 3rd-4th: (2500 + 2000) / 2; 5th-8th: (1100 + 1000 + 1000 + 900) / 4 */
  static const int want[9] = {0, 6000, 3500, 2250, 2250, 1000, 1000, 1000, 1000};
  for (int p = 1; p <= 8; p++) cr_assert_eq(award_of(aw, na, p, 0)->amount, want[p], "place %d", p);
  cr_assert_eq(award_of(aw, na, 9, 0)->amount, 800);
  free(aw);
  xq_tournament_free(ev);
}

Test(options, xinjiang_u14_band_and_tangshan_seniors_list)
{
  xq_regulation r = *xq_test_reg("xinjiang2018");
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
  xq_regulation ts = *xq_test_reg("tangshan2018");
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
  cr_assert_eq(xq_regulation_honours(xq_test_reg("xinjiang2018"), &t, NULL), XQ_OK);
  cr_assert_eq(t.ncats, 6, "公开组、老年组、儿童男子、女子组，少年男子、女子组 (十(二))");
  int girls = cat_index(&t, "儿童女子组 girls (children)");
  cr_assert_str_eq(t.cats[girls].title, "儿童女子组棋王");
  cr_assert_eq(t.cats[girls].nplaces, 6, "各组前六名 qualify");
  int places[12], na;
  xq_tournament *ev = event_born(12, "2009/01/01", places);
  for (int i = 0; i < 12; i += 3) ev->players[i].sex = 'w';
  for (int i = 0; i < 12; i++) if (!ev->players[i].sex) ev->players[i].sex = 'm';
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  cr_assert_eq(award_of(aw, na, 1, girls)->cat_place, 1);
  cr_assert_eq(award_of(aw, na, 4, girls)->cat_place, 2);
  cr_assert_eq(count_in(aw, na, girls), 4);
  int boys = cat_index(&t, "儿童男子组 boys (children)");
  cr_assert_eq(award_of(aw, na, 2, boys)->cat_place, 1, "boys apart");
  cr_assert_eq(count_in(aw, na, boys), 6);
  free(aw);
  xq_tournament_free(ev);
  cr_assert_eq(xq_regulation_honours(xq_test_reg("shaanxi2019"), &t, NULL), XQ_OK);
  cr_assert_eq(t.ncats, 1);
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.region, sizeof p.region, "神木");
  cr_assert(xq_prize_member(&t.cats[0], &p), "a Shenmu player is a Shaanxi player");
  snprintf(p.region, sizeof p.region, "山西");
  cr_assert(!xq_prize_member(&t.cats[0], &p));
  cr_assert_eq(xq_regulation_honours(xq_test_reg("burqin2018"), &t, NULL), XQ_OK);
  cr_assert_eq(t.ncats, 0);
}

Test(eligibility, said_in_words_with_the_clause)
{
  xq_prize_table t;
  xq_test_prize_table("shaanxi2019", 100, &t);
  char who[600];
  xq_prize_eligibility(&t.cats[cat_index(&t, "榆林籍 Yulin")], who, sizeof who);
  cr_assert_not_null(strstr(who, "region within 榆林 (榆阳, 横山, 神木, 府谷"), "%s", who);
  cr_assert_not_null(strstr(who, "won on top of another prize"), "%s", who);
  cr_assert_not_null(strstr(t.cats[cat_index(&t, "榆林籍 Yulin")].clause, "十二(二)2"));
  xq_prize_eligibility(&t.cats[0], who, sizeof who);
  cr_assert_str_eq(who, "everyone");
  xq_test_prize_table("xinjiang2018", 60, &t);
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
  cr_assert_not_null(strstr(out, "prize  8岁组 under 8 (born, its own event): places 1-40, amounts not stated\n"), "%s", out);
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
