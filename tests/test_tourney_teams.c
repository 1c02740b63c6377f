/*
 * test_tourney_teams.c -- team competitions (团体赛, tourney/teammatch.h;
 * docs/tourney.md "Team competitions"): the worked examples of a
 * four-team double round robin on four boards and of a team Swiss round
 * of eight teams, reproduced number for number; lineups under the
 * board-order rule; forfeits of a board and of a whole match; the
 * league's home/away draw; byes and withdrawals; board prizes.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "pair/pair.h"
#include "teammatch.h"

/* Team t's roster: players t·10 + 1 .. t·10 + n, the last one a reserve;
 * team T1 of the Swiss example is 甲 乙 丙 丁 + 戊. */
static void add_team(xq_tm_event *ev, const char *name, int t, int n)
{
  static const char *const t1[] = {"甲", "乙", "丙", "丁", "戊"};
  xq_tm_member r[XQ_TM_ROSTER_MAX];
  for (int i = 0; i < n; i++) {
    r[i].id = t * 10 + i + 1;
    if (!strcmp(name, "T1") && i < 5) snprintf(r[i].name, sizeof r[i].name, "%s", t1[i]);
    else snprintf(r[i].name, sizeof r[i].name, "%s-%d", name, i + 1);
  }
  xq_error err = {0};
  int id = 0;
  cr_assert_eq(xq_tm_team_add(ev, name, r, n, n - 1, &id, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(id, t);
}

static int team(const xq_tm_event *ev, const char *name)
{
  int t = xq_tm_team_find(ev, name);
  cr_assert(t, "no team %s", name);
  return t;
}

/* Match first v second of `round` must exist in that order; its boards
 * get `res` (W, D, L from the first team's side). Returns its index. */
static int play(xq_tm_event *ev, int round, const char *first, const char *second, const char *res)
{
  int m = xq_tm_match_of(ev, round, team(ev, first));
  cr_assert(m >= 0, "round %d: %s not paired", round, first);
  cr_assert_eq(ev->matches[m].first, team(ev, first), "round %d: %s is not first", round, first);
  cr_assert_eq(ev->matches[m].second, team(ev, second), "round %d: %s v %s", round, first, second);
  for (int b = 0; res[b]; b++) {
    int r = res[b] == 'W' ? XQ_TR_WIN : res[b] == 'D' ? XQ_TR_DRAW : XQ_TR_LOSS;
    xq_error err = {0};
    cr_assert_eq(xq_tm_set_result(ev, m, b + 1, r, &err), XQ_OK, "%s", err.msg);
  }
  return m;
}

/* The matches of `round` in match order, "A-D B-C". */
static void round_text(const xq_tm_event *ev, int round, char *out, size_t cap)
{
  out[0] = 0;
  for (int m = 0; m < ev->nmatches; m++) {
    const xq_tm_match *x = &ev->matches[m];
    if (x->round != round) continue;
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s%s-%s", len ? " " : "", ev->teams[x->first - 1].name,
             x->second ? ev->teams[x->second - 1].name : "bye");
  }
}

static void order_text(const xq_tm_event *ev, const xq_tm_row *rows, char *out, size_t cap)
{
  out[0] = 0;
  for (int i = 0; i < ev->nteams; i++) {
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s%d%s", len ? " " : "", rows[i].place, ev->teams[rows[i].team - 1].name);
  }
}

static const xq_tm_row *row_of(const xq_tm_event *ev, const xq_tm_row *rows, const char *name)
{
  for (int i = 0; i < ev->nteams; i++)
    if (rows[i].team == team(ev, name)) return &rows[i];
  cr_assert_fail("no row for %s", name);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Four teams, double round robin, four boards                          */
/* ------------------------------------------------------------------ */

static xq_tm_event *league(const char *mp)
{
  xq_tm_config cfg;
  xq_tm_config_default(&cfg, XQ_TM_RR, 4);
  cfg.cycles = 2;
  cfg.rr_swap = 0;
  cfg.prize_min_games = 3;
  cr_assert_eq(xq_tm_config_match_points(&cfg, mp, NULL), XQ_OK);
  xq_tm_event *ev = xq_tm_event_new(&cfg);
  const char *names[] = {"A", "B", "C", "D"};
  for (int t = 0; t < 4; t++) add_team(ev, names[t], t + 1, 5);
  static const struct { const char *a, *b, *res; } games[6][2] = {
    {{"A", "D", "WWDW"}, {"B", "C", "WDLD"}}, {{"D", "C", "LDDL"}, {"A", "B", "DDWL"}},
    {{"B", "D", "WDWD"}, {"C", "A", "DLWL"}}, {{"D", "A", "LLDD"}, {"C", "B", "WDLD"}},
    {{"C", "D", "WWDD"}, {"B", "A", "DLDW"}}, {{"D", "B", "DLLD"}, {"A", "C", "WDLL"}}};
  for (int r = 1; r <= 6; r++) {
    xq_error err = {0};
    cr_assert_eq(xq_tm_pair(ev, r, &err), XQ_OK, "%s", err.msg);
    char text[64], want[64];
    round_text(ev, r, text, sizeof text);
    snprintf(want, sizeof want, "%s-%s %s-%s", games[r - 1][0].a, games[r - 1][0].b, games[r - 1][1].a,
             games[r - 1][1].b);
    cr_assert_str_eq(text, want, "round %d", r);
    for (int k = 0; k < 2; k++) play(ev, r, games[r - 1][k].a, games[r - 1][k].b, games[r - 1][k].res);
  }
  return ev;
}

Test(teams, league_worked_example)
{
  xq_tm_event *ev = league("2/1/0");
  xq_tm_row rows[4];
  cr_assert_eq(xq_tm_standings(ev, 6, rows), XQ_OK);
  char text[64];
  order_text(ev, rows, text, sizeof text);
  cr_assert_str_eq(text, "1A 2C 3B 4D");
  static const struct { const char *t; int mp, gp, b[4], bc, wins; } want[] = {
    {"A", 8, 29, {9, 10, 5, 5}, 64, 10}, {"B", 8, 28, {7, 6, 7, 8}, 72, 8},
    {"C", 8, 28, {7, 6, 8, 7}, 71, 9}, {"D", 0, 11, {1, 2, 4, 4}, 33, 0}};
  int board_sum[4] = {0}, gp_sum = 0;
  for (int i = 0; i < 4; i++) {
    const xq_tm_row *r = row_of(ev, rows, want[i].t);
    cr_assert_eq(r->mp, want[i].mp, "%s MP", want[i].t);
    cr_assert_eq(r->gp, want[i].gp, "%s GP", want[i].t);
    for (int b = 0; b < 4; b++) {
      cr_assert_eq(r->board_gp[b], want[i].b[b], "%s board %d", want[i].t, b + 1);
      board_sum[b] += r->board_gp[b];
    }
    cr_assert_eq(r->bc, want[i].bc, "%s BC", want[i].t);
    cr_assert_eq(r->wins, want[i].wins, "%s wins", want[i].t);
    gp_sum += r->gp;
  }
  cr_assert_eq(gp_sum, 96);
  for (int b = 0; b < 4; b++) cr_assert_eq(board_sum[b], 24);
  /* without TBR, B and C stay tied: the direct encounter (4:4 twice) does not split them */
  cr_assert_eq(xq_tm_config_tiebreaks(&ev->cfg, "MP,GP,TDE", NULL), XQ_OK);
  cr_assert_eq(xq_tm_standings(ev, 6, rows), XQ_OK);
  order_text(ev, rows, text, sizeof text);
  cr_assert(!strcmp(text, "1A 2B 2C 4D") || !strcmp(text, "1A 2C 2B 4D"), "%s", text);
  /* board count (lower first) and the board-1 win rate agree: C before B */
  cr_assert_eq(xq_tm_config_tiebreaks(&ev->cfg, "MP,GP,BC", NULL), XQ_OK);
  cr_assert_eq(xq_tm_standings(ev, 6, rows), XQ_OK);
  order_text(ev, rows, text, sizeof text);
  cr_assert_str_eq(text, "1A 2C 3B 4D");
  cr_assert_eq(xq_tm_config_tiebreaks(&ev->cfg, "league_2leg", NULL), XQ_OK);
  cr_assert_eq(xq_tm_standings(ev, 6, rows), XQ_OK);
  order_text(ev, rows, text, sizeof text);
  cr_assert_str_eq(text, "1A 2C 3B 4D");
  xq_tm_event_free(ev);
}

Test(teams, league_three_one_zero)
{
  xq_tm_event *ev = league("3/1/0");
  xq_tm_row rows[4];
  cr_assert_eq(xq_tm_standings(ev, 6, rows), XQ_OK);
  char text[64];
  order_text(ev, rows, text, sizeof text);
  cr_assert_str_eq(text, "1A 2C 3B 4D");
  cr_assert_eq(row_of(ev, rows, "A")->mp, 11);
  cr_assert_eq(row_of(ev, rows, "C")->mp, 11);
  cr_assert_eq(row_of(ev, rows, "B")->mp, 10);
  xq_tm_event_free(ev);
}

Test(teams, league_colours)
{
  xq_tm_event *ev = league("2/1/0");
  int want[4] = {1, 0, 1, 0};
  for (int b = 1; b <= 4; b++) cr_assert_eq(xq_tm_first_red(&ev->cfg, b), want[b - 1], "board %d", b);
  /* round 1 A–D: A is first; the second cycle's round 4 D–A: D is first */
  cr_assert_eq(ev->matches[xq_tm_match_of(ev, 1, 1)].first, 1);
  cr_assert_eq(ev->matches[xq_tm_match_of(ev, 4, 1)].first, 4);
  ev->cfg.board_colours = XQ_TM_COLOURS_SAME;
  for (int b = 1; b <= 4; b++) cr_assert_eq(xq_tm_first_red(&ev->cfg, b), 1);
  xq_tm_event_free(ev);
}

Test(teams, league_board_prizes)
{
  xq_tm_event *ev = league("2/1/0");
  static const struct { int team, points; } want[4] = {{1, 9}, {1, 10}, {3, 8}, {2, 8}};
  for (int b = 1; b <= 4; b++) {
    xq_tm_board_row rows[8];
    int n = xq_tm_board_prizes(ev, b, 6, rows, 8);
    cr_assert_eq(n, 4, "board %d", b);
    cr_assert_eq(rows[0].team, want[b - 1].team, "board %d", b);
    cr_assert_eq(rows[0].player, want[b - 1].team * 10 + b);
    cr_assert_eq(rows[0].points, want[b - 1].points, "board %d", b);
    cr_assert_eq(rows[0].games, 6);
    cr_assert(rows[0].eligible);
  }
  /* a minimum the players have not reached: nobody qualifies */
  ev->cfg.prize_min_games = 7;
  xq_tm_board_row rows[8];
  cr_assert_eq(xq_tm_board_prizes(ev, 1, 6, rows, 8), 4);
  cr_assert(!rows[0].eligible);
  xq_tm_event_free(ev);
}

/* ------------------------------------------------------------------ */
/* A team Swiss round, eight 4-board teams                              */
/* ------------------------------------------------------------------ */

static xq_tm_event *swiss(int nteams, int system)
{
  xq_tm_config cfg;
  xq_tm_config_default(&cfg, XQ_TM_SWISS, 4);
  cfg.system = system;
  xq_tm_event *ev = xq_tm_event_new(&cfg);
  for (int t = 1; t <= nteams; t++) {
    char name[16];
    snprintf(name, sizeof name, "T%d", t);
    add_team(ev, name, t, 5);
  }
  return ev;
}

Test(teams, swiss_worked_example)
{
  xq_tm_event *ev = swiss(8, XQ_PAIR_CN);
  xq_error err = {0};
  char text[128];
  cr_assert_eq(xq_tm_pair(ev, 1, &err), XQ_OK, "%s", err.msg);
  round_text(ev, 1, text, sizeof text);
  cr_assert_str_eq(text, "T1-T2 T4-T3 T5-T6 T8-T7");
  play(ev, 1, "T1", "T2", "WWLD"); /* 5:3 */
  play(ev, 1, "T4", "T3", "WLDD"); /* 4:4 */
  play(ev, 1, "T5", "T6", "LLWL"); /* 2:6 */
  play(ev, 1, "T8", "T7", "LDWL"); /* 3:5 */
  cr_assert_eq(xq_tm_pair(ev, 2, &err), XQ_OK, "%s", err.msg);
  round_text(ev, 2, text, sizeof text);
  cr_assert_str_eq(text, "T6-T1 T7-T4 T3-T5 T2-T8");
  /* T1's 丁 rests: 戊 comes in on board 4, never above 丙 */
  int m = xq_tm_match_of(ev, 2, 1), bad[4] = {11, 12, 15, 13}, good[4] = {11, 12, 13, 15};
  cr_assert_eq(xq_tm_set_lineup(ev, m, 1, bad, 4, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "reserve 戊") && strstr(err.msg, "above regular 丙"), "%s", err.msg);
  cr_assert_eq(xq_tm_set_lineup(ev, m, 1, good, 4, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->matches[m].lineup[1][3], 15);
  play(ev, 2, "T6", "T1", "WLDD"); /* 4:4 */
  play(ev, 2, "T7", "T4", "WWLD"); /* 5:3 */
  play(ev, 2, "T3", "T5", "WWDD"); /* 6:2 */
  play(ev, 2, "T2", "T8", "WWLD"); /* 5:3 */
  xq_tm_row rows[8];
  cr_assert_eq(xq_tm_standings(ev, 2, rows), XQ_OK);
  order_text(ev, rows, text, sizeof text);
  cr_assert_str_eq(text, "1T7 2T6 3T3 4T1 5T2 6T4 7T8 8T5");
  static const struct { const char *t; int mp, gp, tbh, emmsb, emgsb; } want[] = {
    {"T7", 4, 10, 1, 2, 5}, {"T6", 3, 10, 3, 3, 12}, {"T3", 3, 10, 1, 1, 4}, {"T1", 3, 9, 5, 7, 22},
    {"T2", 2, 8, 3, 0, 9},  {"T4", 1, 7, 7, 3, 24},  {"T8", 0, 6, 6, 0, 18}, {"T5", 0, 4, 6, 0, 12}};
  for (int i = 0; i < 8; i++) {
    const xq_tm_row *r = row_of(ev, rows, want[i].t);
    cr_assert_eq(r->mp, want[i].mp, "%s MP", want[i].t);
    cr_assert_eq(r->gp, want[i].gp, "%s GP", want[i].t);
    cr_assert_eq(r->tbh, want[i].tbh, "%s TBH", want[i].t);
    cr_assert_eq(r->emmsb, want[i].emmsb, "%s EMMSB", want[i].t);
    cr_assert_eq(r->emgsb, want[i].emgsb, "%s EMGSB", want[i].t);
  }
  /* MP then EMMSB: T1 (7) first of the three-point teams */
  cr_assert_eq(xq_tm_config_tiebreaks(&ev->cfg, "MP,EMMSB,LOT", NULL), XQ_OK);
  cr_assert_eq(xq_tm_standings(ev, 2, rows), XQ_OK);
  cr_assert_eq(rows[1].team, 1);
  xq_tm_event_free(ev);
}

Test(teams, swiss_dutch_and_bye)
{
  xq_tm_event *ev = swiss(5, XQ_PAIR_DUTCH);
  xq_error err = {0};
  for (int r = 1; r <= 3; r++) {
    cr_assert_eq(xq_tm_pair(ev, r, &err), XQ_OK, "round %d: %s", r, err.msg);
    for (int m = 0; m < ev->nmatches; m++) {
      xq_tm_match *x = &ev->matches[m];
      if (x->round != r || !x->second) continue;
      for (int b = 1; b <= 4; b++) cr_assert_eq(xq_tm_set_result(ev, m, b, b <= 2 ? XQ_TR_WIN : XQ_TR_DRAW, &err), XQ_OK);
      for (int o = 0; o < m; o++) /* never a rematch */
        cr_assert(!(ev->matches[o].first == x->second && ev->matches[o].second == x->first) &&
                  !(ev->matches[o].first == x->first && ev->matches[o].second == x->second));
    }
  }
  /* one bye a round, three different teams, each scored B 局分 and a win */
  int byes = 0, seen[6] = {0};
  for (int m = 0; m < ev->nmatches; m++) {
    if (ev->matches[m].second) continue;
    byes++;
    cr_assert(!seen[ev->matches[m].first]++);
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    cr_assert_eq(sc.gp[0], 4);
    cr_assert_eq(sc.mp[0], 2);
  }
  cr_assert_eq(byes, 3);
  cr_assert_eq(xq_tm_pair(ev, 5, &err), XQ_EINVAL); /* not the next round */
  xq_tm_event_free(ev);
}

Test(teams, swiss_withdrawal)
{
  /* six teams; T6 withdraws from round 2: five are paired, one has the bye */
  xq_tm_event *ev = swiss(6, XQ_PAIR_CN);
  xq_error err = {0};
  cr_assert_eq(xq_tm_pair(ev, 1, &err), XQ_OK);
  for (int m = 0; m < ev->nmatches; m++)
    for (int b = 1; b <= 4; b++) cr_assert_eq(xq_tm_set_result(ev, m, b, XQ_TR_DRAW, &err), XQ_OK);
  cr_assert_eq(xq_tm_withdraw(ev, 6, 2), XQ_OK);
  cr_assert_eq(xq_tm_pair(ev, 2, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tm_match_of(ev, 2, 6), -1);
  int games = 0, byes = 0;
  for (int m = 0; m < ev->nmatches; m++)
    if (ev->matches[m].round == 2) ev->matches[m].second ? games++ : byes++;
  cr_assert(games == 2 && byes == 1);
  xq_tm_event_free(ev);
}

/* ------------------------------------------------------------------ */
/* Lineups, forfeits, the home/away draw, withdrawals                   */
/* ------------------------------------------------------------------ */

Test(teams, lineups)
{
  xq_tm_event *ev = swiss(2, XQ_PAIR_CN);
  int out[4];
  xq_error err = {0};
  /* an absent player (0): the ones after him move up */
  int gap[5] = {11, 0, 13, 14, 15};
  cr_assert_eq(xq_tm_lineup_make(ev, 1, gap, 5, out, &err), XQ_OK, "%s", err.msg);
  cr_assert(out[0] == 11 && out[1] == 13 && out[2] == 14 && out[3] == 15);
  /* three players: the last board is empty */
  int three[3] = {12, 13, 14};
  cr_assert_eq(xq_tm_lineup_make(ev, 1, three, 3, out, &err), XQ_OK);
  cr_assert(out[0] == 12 && out[3] == 0);
  /* regulars out of order, a stranger, a player twice, too many */
  int swapped[2] = {12, 11}, stranger[1] = {21}, twice[2] = {11, 11}, five[5] = {11, 12, 13, 14, 15};
  cr_assert_eq(xq_tm_lineup_make(ev, 1, swapped, 2, out, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "before him on the roster"), "%s", err.msg);
  cr_assert_eq(xq_tm_lineup_make(ev, 1, stranger, 1, out, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "not on its roster"), "%s", err.msg);
  cr_assert_eq(xq_tm_lineup_make(ev, 1, twice, 2, out, &err), XQ_EINVAL);
  cr_assert_eq(xq_tm_lineup_make(ev, 1, five, 5, out, &err), XQ_EINVAL);
  /* the free order (自由排阵) takes any order */
  ev->cfg.board_order = XQ_TM_ORDER_FREE;
  int any[4] = {15, 13, 12, 11};
  cr_assert_eq(xq_tm_lineup_make(ev, 1, any, 4, out, &err), XQ_OK);
  cr_assert_eq(out[0], 15);
  /* a roster player on two teams is refused */
  xq_tm_member dup[4] = {{11, "x"}, {31, "y"}, {32, "z"}, {33, "w"}};
  cr_assert_eq(xq_tm_team_add(ev, "T3", dup, 4, 4, NULL, &err), XQ_EINVAL);
  xq_tm_event_free(ev);
}

Test(teams, board_and_match_forfeits)
{
  xq_tm_event *ev = swiss(2, XQ_PAIR_CN);
  xq_error err = {0};
  cr_assert_eq(xq_tm_pair(ev, 1, &err), XQ_OK);
  /* T2 fields three: board 4 is a forfeit win of T1's board-4 player */
  int three[3] = {21, 22, 23};
  cr_assert_eq(xq_tm_set_lineup(ev, 0, 2, three, 3, &err), XQ_OK);
  cr_assert_eq(xq_tm_set_result(ev, 0, 4, XQ_TR_DRAW, &err), XQ_EINVAL); /* empty board */
  for (int b = 1; b <= 3; b++) cr_assert_eq(xq_tm_set_result(ev, 0, b, XQ_TR_LOSS, &err), XQ_OK);
  xq_tm_score sc;
  xq_tm_match_score(ev, 0, &sc);
  cr_assert(sc.decided && !sc.forfeit);
  cr_assert_eq(sc.gp[0], 2);
  cr_assert_eq(sc.gp[1], 6);
  cr_assert_eq(sc.board_res[0][3], XQ_TR_FWIN);
  cr_assert_eq(sc.mp[1], 2);
  /* T2 fields two, fewer than min_players (3): the whole match is T1's,
   * with the event's forfeit value (2·B by default, 6 when set) */
  int two[2] = {21, 22};
  for (int b = 1; b <= 3; b++) xq_tm_set_result(ev, 0, b, XQ_TR_NONE, &err);
  cr_assert_eq(xq_tm_set_lineup(ev, 0, 2, two, 2, &err), XQ_OK);
  xq_tm_match_score(ev, 0, &sc);
  cr_assert(sc.decided);
  cr_assert_eq(sc.forfeit, XQ_TMF_SECOND);
  cr_assert(sc.gp[0] == 8 && sc.gp[1] == 0 && sc.mp[0] == 2 && sc.mp[1] == 0);
  ev->cfg.forfeit_match_gp = 6;
  xq_tm_match_score(ev, 0, &sc);
  cr_assert_eq(sc.gp[0], 6);
  /* both declared absent: nothing to either, a loss each */
  cr_assert_eq(xq_tm_set_forfeit(ev, 0, XQ_TMF_BOTH, &err), XQ_OK);
  xq_tm_match_score(ev, 0, &sc);
  cr_assert(sc.gp[0] == 0 && sc.gp[1] == 0 && sc.outcome[0] == -1 && sc.outcome[1] == -1);
  xq_tm_row rows[2];
  cr_assert_eq(xq_tm_standings(ev, 1, rows), XQ_OK);
  cr_assert(rows[0].ml == 1 && rows[1].ml == 1 && rows[0].played == 1);
  xq_tm_event_free(ev);
}

Test(teams, home_away_draw)
{
  xq_tm_config cfg;
  xq_tm_config_default(&cfg, XQ_TM_RR, 4);
  xq_error err = {0};
  cr_assert_eq(xq_tm_config_match_points(&cfg, "3/1/0/1/2", &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tm_config_match_points(&cfg, "1/2/0", &err), XQ_EINVAL);
  cr_assert_eq(xq_tm_config_match_points(&cfg, "3/1", &err), XQ_EINVAL);
  xq_tm_event *ev = xq_tm_event_new(&cfg);
  add_team(ev, "H", 1, 5);
  add_team(ev, "V", 2, 5);
  cr_assert_eq(xq_tm_pair(ev, 1, &err), XQ_OK);
  play(ev, 1, "H", "V", "WLDD");
  xq_tm_score sc;
  xq_tm_match_score(ev, 0, &sc);
  cr_assert(sc.gp[0] == 4 && sc.gp[1] == 4);
  cr_assert_eq(sc.mp[0], 1); /* home */
  cr_assert_eq(sc.mp[1], 2); /* away */
  xq_tm_event_free(ev);
}

/* Four teams, single round robin; D withdraws. */
static xq_tm_event *withdrawal(int from)
{
  xq_tm_config cfg;
  xq_tm_config_default(&cfg, XQ_TM_RR, 4);
  xq_tm_event *ev = xq_tm_event_new(&cfg);
  const char *names[] = {"A", "B", "C", "D"};
  for (int t = 0; t < 4; t++) add_team(ev, names[t], t + 1, 5);
  xq_error err = {0};
  cr_assert_eq(xq_tm_withdraw(ev, 4, from), XQ_OK);
  xq_tm_member late[4] = {{91, "a"}, {92, "b"}, {93, "c"}, {94, "d"}};
  for (int r = 1; r <= 3; r++) {
    cr_assert_eq(xq_tm_pair(ev, r, &err), XQ_OK, "%s", err.msg);
    for (int m = 0; m < ev->nmatches; m++) {
      xq_tm_match *x = &ev->matches[m];
      int dout = (x->first == 4 || x->second == 4) && r >= from;
      for (int b = 1; x->round == r && !dout && b <= 4; b++)
        cr_assert_eq(xq_tm_set_result(ev, m, b, x->first < x->second ? XQ_TR_WIN : XQ_TR_LOSS, &err), XQ_OK);
    }
    if (r == 1) { /* once paired, a round robin takes no other team */
      cr_assert_eq(xq_tm_team_add(ev, "E", late, 4, 4, NULL, &err), XQ_EINVAL);
      cr_assert(strstr(err.msg, "once round 1 is paired"), "%s", err.msg);
    }
  }
  return ev;
}

Test(teams, withdrawal_before_half)
{
  /* D played one of three matches: all its results are annulled */
  xq_tm_event *ev = withdrawal(2);
  xq_tm_row rows[4];
  cr_assert_eq(xq_tm_standings(ev, 3, rows), XQ_OK);
  cr_assert_eq(rows[3].team, 4);
  cr_assert(rows[3].annulled && rows[3].place == 0);
  for (int i = 0; i < 3; i++) cr_assert_eq(rows[i].played, 2, "team %d", rows[i].team);
  cr_assert_eq(row_of(ev, rows, "A")->mp, 4);
  xq_tm_event_free(ev);
}

Test(teams, withdrawal_after_half)
{
  /* D played two of three: its results stand, round 3 is forfeited to its opponent */
  xq_tm_event *ev = withdrawal(3);
  xq_tm_row rows[4];
  cr_assert_eq(xq_tm_standings(ev, 3, rows), XQ_OK);
  const xq_tm_row *d = row_of(ev, rows, "D");
  cr_assert(!d->annulled && d->place == 4 && d->played == 3 && d->ml == 3);
  int m = xq_tm_match_of(ev, 3, 4);
  xq_tm_score sc;
  xq_tm_match_score(ev, m, &sc);
  int side = ev->matches[m].first == 4 ? 0 : 1;
  cr_assert(sc.forfeit && sc.gp[!side] == 8 && sc.mp[!side] == 2 && sc.gp[side] == 0);
  xq_tm_event_free(ev);
}

Test(teams, settings)
{
  xq_tm_config cfg;
  xq_tm_config_default(&cfg, XQ_TM_SWISS, 4);
  xq_error err = {0};
  cr_assert_eq(cfg.tb[2], XQ_TTB_TBH);
  cr_assert_eq(xq_tm_config_tiebreaks(&cfg, "MP,GP,NOPE", &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "NOPE"));
  cr_assert_eq(cfg.ntb, 6); /* unchanged */
  cr_assert_eq(xq_tm_config_tiebreaks(&cfg, "fide_team", &err), XQ_OK);
  cr_assert_eq(cfg.ntb, 6);
  cr_assert_str_eq(xq_ttb_name(cfg.tb[3]), "EMGSB");
  xq_tm_event *ev = xq_tm_event_new(&cfg);
  xq_tm_member few[3] = {{1, "a"}, {2, "b"}, {3, "c"}};
  cr_assert_eq(xq_tm_team_add(ev, "X", few, 3, 3, NULL, &err), XQ_EINVAL); /* three for four boards */
  xq_tm_event_free(ev);
}

/* ------------------------------------------------------------------ */
/* The team log: settings as text, rows replayed                        */
/* ------------------------------------------------------------------ */

Test(teams, log_replay)
{
  xq_tm_config cfg, back;
  xq_tm_config_default(&cfg, XQ_TM_SWISS, 3);
  cr_assert_eq(xq_tm_config_match_points(&cfg, "3/1/0/1/2", NULL), XQ_OK);
  cr_assert_eq(xq_tm_config_tiebreaks(&cfg, "MP,BBE,EGGSB,LOT", NULL), XQ_OK);
  cfg.board_order = XQ_TM_ORDER_FREE, cfg.lot_seed = 987654321, cfg.forfeit_match_gp = 5;
  xq_tm_logrow row = {.kind = XQ_TML_CONFIG};
  cr_assert_eq(xq_tm_config_write(&cfg, row.text, sizeof row.text), XQ_OK);
  xq_tm_config_default(&back, XQ_TM_RR, 4);
  xq_error err = {0};
  cr_assert_eq(xq_tm_config_read(&back, row.text, &err), XQ_OK, "%s", err.msg);
  char again[XQ_TM_LOG_TEXT_MAX];
  cr_assert_eq(xq_tm_config_write(&back, again, sizeof again), XQ_OK);
  cr_assert_str_eq(again, row.text);
  cr_assert(back.format == XQ_TM_SWISS && back.boards == 3 && back.home_away && back.mp_draw_away == 2 &&
            back.board_order == XQ_TM_ORDER_FREE && back.lot_seed == 987654321 && back.forfeit_match_gp == 5);
  cr_assert(back.ntb == 4 && back.tb[1] == XQ_TTB_BBE && back.tb[2] == XQ_TTB_EGGSB);
  cr_assert_eq(xq_tm_config_read(&back, "boards=4;colour=1", &err), XQ_EINVAL);
  cr_assert_eq(xq_tm_config_write(&cfg, row.text, 20), XQ_ELIMIT);
  /* a result row before the settings, then the event built row by row */
  xq_tm_event *ev = NULL;
  xq_tm_logrow early = {.kind = XQ_TML_RESULT, .round = 1, .a = 1, .b = 1, .c = XQ_TR_WIN};
  cr_assert_eq(xq_tm_log_apply(&ev, NULL, &early, &err), XQ_EINVAL);
  xq_tournament *people = xq_tournament_new(NULL, "people");
  for (int i = 1; i <= 8; i++) {
    xq_tplayer p = {0};
    snprintf(p.name, sizeof p.name, "P%d", i);
    cr_assert_eq(xq_tournament_add(people, &p, NULL, NULL), XQ_OK);
  }
  xq_tm_config_write(&cfg, row.text, sizeof row.text);
  cr_assert_eq(xq_tm_log_apply(&ev, people, &row, &err), XQ_OK);
  xq_tm_logrow team1 = {.kind = XQ_TML_TEAM, .a = 3, .nlist = 4, .list = {1, 2, 3, 4}, .text = "North"};
  xq_tm_logrow team2 = {.kind = XQ_TML_TEAM, .a = 3, .nlist = 4, .list = {5, 6, 7, 8}, .text = "South"};
  xq_tm_logrow match = {.kind = XQ_TML_MATCH, .round = 1, .a = 2, .b = 1};
  xq_tm_logrow lineup = {.kind = XQ_TML_LINEUP, .round = 1, .a = 1, .nlist = 3, .list = {4, 1, 2}};
  xq_tm_logrow forfeit = {.kind = XQ_TML_FORFEIT, .round = 1, .a = 1, .b = XQ_TMF_FIRST};
  const xq_tm_logrow *rows[] = {&team1, &team2, &match, &lineup, &forfeit};
  for (int i = 0; i < 5; i++) cr_assert_eq(xq_tm_log_apply(&ev, people, rows[i], &err), XQ_OK, "row %d: %s", i, err.msg);
  cr_assert_str_eq(ev->teams[0].roster[3].name, "P4");
  cr_assert_eq(ev->nrounds, 1);
  const xq_tm_match *x = &ev->matches[0];
  cr_assert(x->first == 2 && x->second == 1 && x->lineup[1][0] == 4); /* the free order: P4 on board 1 */
  xq_tm_score sc;
  xq_tm_match_score(ev, 0, &sc);
  cr_assert(sc.forfeit == XQ_TMF_FIRST && sc.gp[1] == 5 && sc.mp[1] == 3 && sc.gp[0] == 0);
  xq_tm_logrow stranger = {.kind = XQ_TML_TEAM, .a = 3, .nlist = 3, .list = {1, 9, 10}, .text = "East"};
  cr_assert_neq(xq_tm_log_apply(&ev, people, &stranger, &err), XQ_OK); /* no player 9 */
  xq_tm_event_free(ev);
  xq_tournament_free(people);
}

Test(teams, result_codes)
{
  static const int res[] = {XQ_TR_WIN, XQ_TR_LOSS, XQ_TR_DRAW, XQ_TR_FWIN, XQ_TR_FLOSS};
  for (int i = 0; i < 5; i++) cr_assert_eq(xq_tm_result_parse(xq_tm_result_code(res[i])), res[i]);
  cr_assert_eq(xq_tm_result_parse("*"), XQ_TR_NONE);
  cr_assert_eq(xq_tm_result_parse("1:0"), -1);
  cr_assert_str_eq(xq_tm_result_code(XQ_TR_PAB), "");
}
