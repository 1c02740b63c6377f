/*
 * test_tourney_prizes.c -- team results (docs/tourney.md, "Teams") by sum of places
 * and by sum of points with ties on the best individual place; prize
 * tables with the 40% cap, one prize per player, a local prize won
 * on top of a main prize, lucky prizes at 18th and 28th; age groups by
 * birth-date bands with birthdays on the bounds. The events are
 * regulation_fixture.h's: players P1..Pn, final places in id order.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "prize.h"
#include "regulation_fixture.h"
#include "tourney.h"

static void team(xq_tournament *ev, const char *name, const int *ids, int k)
{
  for (int i = 0; i < k; i++) snprintf(ev->players[ids[i] - 1].team, XQ_TOURNEY_FIELD_MAX, "%s", name);
}

/* ------------------------------------------------------------------ */
/* Teams                                                               */
/* ------------------------------------------------------------------ */

Test(teams, by_sum_of_places_ties_by_best_place)
{
  int places[10];
  xq_tournament *ev = xq_test_event(10, places);
  /* A {1,7,10} = 18, B {2,3,9} = 14, C {4,6,8} = 18, D {5}: too few */
  team(ev, "A", (int[]){1, 7, 10}, 3);
  team(ev, "B", (int[]){2, 3, 9}, 3);
  team(ev, "C", (int[]){4, 6, 8}, 3);
  team(ev, "D", (int[]){5}, 1);
  xq_team_row rows[8];
  int n;
  cr_assert_eq(xq_team_standings(ev, places, XQ_TEAM_RANK_SUM, 3, rows, 8, &n), XQ_OK);
  cr_assert_eq(n, 4);
  /* B 14; then A and C on 18: A's best place 1 beats C's 4; D unranked */
  cr_assert_str_eq(rows[0].team, "B");
  cr_assert_eq(rows[0].value, 14);
  cr_assert_eq(rows[0].rank, 1);
  cr_assert_str_eq(rows[1].team, "A");
  cr_assert_eq(rows[1].value, 18);
  cr_assert_eq(rows[1].best, 1);
  cr_assert_str_eq(rows[2].team, "C");
  cr_assert_eq(rows[2].value, 18);
  cr_assert_eq(rows[2].rank, 3);
  cr_assert_str_eq(rows[3].team, "D");
  cr_assert_eq(rows[3].rank, 0);
  /* counting the best 2: A 1+7 = 8, B 2+3 = 5, C 4+6 = 10, D still short */
  cr_assert_eq(xq_team_standings(ev, places, XQ_TEAM_RANK_SUM, 2, rows, 8, &n), XQ_OK);
  cr_assert(!strcmp(rows[0].team, "B") && rows[0].value == 5);
  cr_assert(!strcmp(rows[1].team, "A") && rows[1].value == 8);
  cr_assert(!strcmp(rows[2].team, "C") && rows[2].value == 10);
  cr_assert_eq(xq_team_standings(ev, places, XQ_TEAM_RANK_SUM, 3, rows, 3, &n), XQ_ELIMIT);
  cr_assert_eq(xq_team_standings(ev, places, 7, 3, rows, 8, &n), XQ_EINVAL);
  xq_tournament_free(ev);
}

Test(teams, by_sum_of_points_ties_by_best_place)
{
  int places[10];
  xq_tournament *ev = xq_test_event(10, places);
  team(ev, "A", (int[]){1, 7, 10}, 3);
  team(ev, "B", (int[]){2, 3, 9}, 3);
  team(ev, "C", (int[]){4, 6, 8}, 3);
  team(ev, "D", (int[]){5}, 1);
  /* two rounds of results (2/1/0, half-units: W 4, D 2):
   * P1 W W 8, P2 W D 6, P3 W D 6, P4 W L 4, P5 D D 4, P6 D L 2, P7 D L 2,
   * P8 L L 0, P9 L L 0, P10 D L 2 */
  const int res[10][2] = {
    {XQ_TR_WIN, XQ_TR_WIN}, {XQ_TR_WIN, XQ_TR_DRAW}, {XQ_TR_WIN, XQ_TR_DRAW},
    {XQ_TR_WIN, XQ_TR_LOSS}, {XQ_TR_DRAW, XQ_TR_DRAW}, {XQ_TR_DRAW, XQ_TR_LOSS},
    {XQ_TR_DRAW, XQ_TR_LOSS}, {XQ_TR_LOSS, XQ_TR_LOSS}, {XQ_TR_LOSS, XQ_TR_LOSS},
    {XQ_TR_DRAW, XQ_TR_LOSS}};
  for (int id = 1; id <= 10; id++)
    for (int r = 1; r <= 2; r++) xq_tournament_slot(ev, id, r)->res = (uint8_t)res[id - 1][r - 1];
  ev->nrounds = 2;
  xq_team_row rows[8];
  int n;
  /* A 8+2+2 = 12, B 6+6+0 = 12, C 4+2+0 = 6: A and B tie, A's best
   * place 1 beats B's 2 */
  cr_assert_eq(xq_team_standings(ev, places, XQ_TEAM_POINTS_SUM, 3, rows, 8, &n), XQ_OK);
  cr_assert(!strcmp(rows[0].team, "A") && rows[0].value == 12 && rows[0].rank == 1);
  cr_assert(!strcmp(rows[1].team, "B") && rows[1].value == 12 && rows[1].rank == 2);
  cr_assert(!strcmp(rows[2].team, "C") && rows[2].value == 6 && rows[2].rank == 3);
  cr_assert(!strcmp(rows[3].team, "D") && rows[3].rank == 0);
  /* the counted players are the best placed: A's are 1, 7, 10 */
  cr_assert(rows[0].nmembers == 3 && rows[0].members[0] == 1 && rows[0].members[2] == 10);
  xq_tournament_free(ev);
}

/* ------------------------------------------------------------------ */
/* Prizes                                                              */
/* ------------------------------------------------------------------ */

static void parse_ok(const char *text, xq_prize_table *t)
{
  xq_error err = {0};
  cr_assert_eq(xq_prize_parse(text, strlen(text), t, &err), XQ_OK, "%s", err.msg);
}

static const char burqin_like[] =
  "# main table of 16 places, capped at 40% of the entrants\n"
  "cap 40\n"
  "category open all\n"
  "1 5000\n2 2000\n3 1000\n4 800\n5 600\n6 500\n7-8 400\n9-12 300\n13-16 200\n"
  "category local local repeat   # may be won on top of another prize\n"
  "1 1000\n2 600\n3 500\n"
  "category seniors born ..1957/12/31\n"
  "1 600\n2 500\n3 400\n"
  "lucky 18 10 100\n";

Test(prizes, cap_one_prize_each_local_twice_lucky)
{
  int places[30];
  xq_tournament *ev = xq_test_event(30, places);
  xq_prize_table t;
  parse_ok(burqin_like, &t);
  cr_assert_eq(t.ncats, 3);
  cr_assert_eq(t.cats[0].nplaces, 16);
  /* local: 3, 14, 15, 20, 22, 25, 27 (7 members) */
  for (int i = 0; i < 7; i++) ev->players[(int[]){3, 14, 15, 20, 22, 25, 27}[i] - 1].local = 1;
  /* seniors (born on or before 1957/12/31): 2 on the bound, 11, 13, 19,
   * 23, 26 (6 members); 16 born the day after is not one */
  const char *born[30] = {0};
  born[2 - 1] = "1957/12/31"; born[11 - 1] = "1955/05/05"; born[13 - 1] = "1950/01/01";
  born[19 - 1] = "1940/02/29"; born[23 - 1] = "1949/09/09"; born[26 - 1] = "1957/01/01";
  born[16 - 1] = "1958/01/01";
  for (int i = 0; i < 30; i++)
    snprintf(ev->players[i].birth, sizeof ev->players[i].birth, "%s", born[i] ? born[i] : "1990/06/01");
  cr_assert(xq_prize_member(&t.cats[2], &ev->players[2 - 1]), "birthday on the bound");
  cr_assert(!xq_prize_member(&t.cats[2], &ev->players[16 - 1]), "a day too young");

  xq_award aw[64];
  int n;
  cr_assert_eq(xq_prizes_award(ev, places, &t, aw, 64, &n), XQ_OK);
  /* Hand-computed:
   * cap 40%: open 30 -> 12 places (13-16 not awarded), local 7 -> 2,
   * seniors 6 -> 2.
   * One prize each, highest first: open 1-5 to P1-P5 (P2, a senior, takes
   * open 2000); at 600 open place 5 comes before seniors (category
   * order); seniors 600 -> P11 (not yet holding; his open prize would be
   * 300); open 500 -> P6; seniors 500 -> P13; open 400 x2 -> P7, P8;
   * open 300 x4 -> P9, P10, P12 (P11 took seniors), P14 (P13 too).
   * Local (repeat): 1000 -> P3 (also open 3rd), 600 -> P14 (also open).
   * Lucky: places 18 and 28. */
  struct { int cat, cat_place, id, amount; } want[] = {
    {0, 1, 1, 5000}, {0, 2, 2, 2000}, {0, 3, 3, 1000}, {0, 4, 4, 800}, {0, 5, 5, 600},
    {0, 6, 6, 500}, {0, 7, 7, 400}, {0, 8, 8, 400}, {0, 9, 9, 300}, {0, 10, 10, 300},
    {0, 11, 12, 300}, {0, 12, 14, 300},
    {1, 1, 3, 1000}, {1, 2, 14, 600},
    {2, 1, 11, 600}, {2, 2, 13, 500},
    {-1, 18, 18, 100}, {-1, 28, 28, 100}};
  int nw = (int)(sizeof want / sizeof want[0]);
  cr_assert_eq(n, nw, "%d awards", n);
  for (int i = 0; i < nw; i++) {
    cr_assert(aw[i].cat == want[i].cat && aw[i].cat_place == want[i].cat_place &&
              aw[i].id == want[i].id && aw[i].amount == want[i].amount,
              "award %d: cat %d place %d P%d %d", i, aw[i].cat, aw[i].cat_place, aw[i].id, aw[i].amount);
    cr_assert_eq(aw[i].place, aw[i].id, "final place of P%d", aw[i].id);
  }
  cr_assert_eq(xq_prizes_award(ev, places, &t, aw, 10, &n), XQ_ELIMIT);
  xq_tournament_free(ev);
}

Test(prizes, without_cap_and_lucky_for_active_players_only)
{
  int places[40];
  xq_tournament *ev = xq_test_event(40, places);
  xq_prize_table t;
  /* Shaanxi: lucky at 29, 39, ... 119, not for players who withdrew */
  parse_ok("category open all\n1-3 100\nlucky 29 10 100 last 119 active\n", &t);
  xq_award aw[16];
  int n;
  cr_assert_eq(xq_prizes_award(ev, places, &t, aw, 16, &n), XQ_OK);
  /* no cap: 3 open places; lucky 29 and 39 (40 players) */
  cr_assert_eq(n, 5);
  cr_assert(aw[3].cat == -1 && aw[3].id == 29 && aw[4].id == 39);
  ev->players[29 - 1].withdrawn = 5;
  cr_assert_eq(xq_prizes_award(ev, places, &t, aw, 16, &n), XQ_OK);
  cr_assert_eq(n, 4);
  cr_assert_eq(aw[3].id, 39, "P29 withdrew: no lucky prize");
  /* the cap floors: 40% of 4 local players is 1 place */
  for (int i = 1; i <= 4; i++) ev->players[i * 5 - 1].local = 1;  /* P5 P10 P15 P20 */
  parse_ok("cap 40\ncategory local local repeat\n1 50\n2 40\n3 30\n", &t);
  cr_assert_eq(xq_prizes_award(ev, places, &t, aw, 16, &n), XQ_OK);
  cr_assert(n == 1 && aw[0].id == 5 && aw[0].amount == 50);
  xq_tournament_free(ev);
}

Test(prizes, bad_tables_are_refused_with_the_line)
{
  xq_prize_table t;
  xq_error err = {0};
  const char *bad[] = {
    "1 100\n",                               /* place before a category */
    "category a all\n2 100\n",               /* gap: place 1 missing */
    "category a all\n1 100\n1 50\n",         /* place repeated */
    "category a all\n1-0 100\n",             /* empty range */
    "category a nobody\n",                   /* unknown filter */
    "category a born 1990/02/30..\n",        /* no such date */
    "category a born 1990/01/01\n",          /* no .. */
    "category a all\n1 -5\n",                /* negative amount */
    "cap 0\n",
    "lucky 18 0 100\n",
    "category a all sex x\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(&err, 0, sizeof err);
    cr_assert_neq(xq_prize_parse(bad[i], strlen(bad[i]), &t, &err), XQ_OK, "accepted: %s", bad[i]);
    cr_assert_gt(err.pos, 0, "no line number for: %s", bad[i]);
  }
}

/* ------------------------------------------------------------------ */
/* Age groups                                                          */
/* ------------------------------------------------------------------ */

Test(age_groups, birth_date_bands_with_inclusive_bounds)
{
  xq_prize_table t;
  /* Xinjiang-style bands: open 1958–2001, seniors ≤ 1957, juniors by
   * band; dates also accepted as YYYY-MM-DD */
  parse_ok("category open born 1958/01/01..2001/12/31\n1 10\n"
           "category seniors born ..1957-12-31\n1 10\n"
           "category u12 born 2012/09/01..2014/08/31 sex w\n1 10\n"
           "category locals local\n1 10\n", &t);
  cr_assert_str_eq(t.cats[1].group.born_to, "1957/12/31");
  struct { const char *birth; char sex; int open, senior, u12; } cases[] = {
    {"1957/12/31", 'm', 0, 1, 0},  /* last day of the seniors */
    {"1958/01/01", 'm', 1, 0, 0},  /* first day of the open band */
    {"2001/12/31", 'w', 1, 0, 0},  /* last day of the open band */
    {"2002/01/01", 'm', 0, 0, 0},  /* between the bands */
    {"2012/09/01", 'w', 0, 0, 1},  /* first day of u12 */
    {"2014/08/31", 'w', 0, 0, 1},  /* last day of u12 */
    {"2014/09/01", 'w', 0, 0, 0},  /* a day too young */
    {"2013/01/01", 'm', 0, 0, 0},  /* u12 here is the girls' band */
    {"", 'm', 0, 0, 0},            /* no birth date: no age group */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.birth, sizeof p.birth, "%s", cases[i].birth);
    p.sex = cases[i].sex;
    cr_assert_eq(xq_prize_member(&t.cats[0], &p), cases[i].open, "open %s", cases[i].birth);
    cr_assert_eq(xq_prize_member(&t.cats[1], &p), cases[i].senior, "senior %s", cases[i].birth);
    cr_assert_eq(xq_prize_member(&t.cats[2], &p), cases[i].u12, "u12 %s", cases[i].birth);
    cr_assert_eq(xq_prize_member(&t.cats[3], &p), 0, "not local");
    p.local = 1;
    cr_assert_eq(xq_prize_member(&t.cats[3], &p), 1, "local");
  }
}
