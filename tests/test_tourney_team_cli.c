/*
 * test_tourney_team_cli.c -- a team competition run with `xqref tourney`
 * as an organiser runs one (docs/tourney.md "Team competitions"): the
 * four-team double round robin of the worked example entered board by
 * board, its standings and board prizes, the same standings after the
 * store is reopened (the team log replayed), a lineup refused with its
 * reason and nothing logged, a whole match forfeited in a team Swiss,
 * and the match sheet.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_fixture.h"
#include "support.h"

/* Four teams A–D of five players (A1..A5: numbers 1..5, B1.. 6..10, ...). */
static void teams_of(const char *db, const char *new_args, int nteams)
{
  free(xq_test_run_db(0, "tourney new --db %s %s", db, new_args));
  for (int t = 0; t < nteams; t++) {
    char extra[64];
    for (int i = 1; i <= 5; i++) {
      snprintf(extra, sizeof extra, "--name %c%d --team %c", 'A' + t, i, 'A' + t);
      free(xq_test_run_db(0, "tourney add --db %s %s", db, extra));
    }
    snprintf(extra, sizeof extra, "--name %c", 'A' + t);
    free(xq_test_run_db(0, "tourney team --db %s %s", db, extra));
  }
}

/* The boards of match `m` of round `r`, "W D L" from the first team's side. */
static void results(const char *db, int r, int m, const char *res)
{
  for (int b = 0; res[b]; b++) {
    char extra[64];
    const char *code = res[b] == 'W' ? "1-0" : res[b] == 'D' ? "=" : "0-1";
    snprintf(extra, sizeof extra, "--round %d --match %d --board %d %s", r, m, b + 1, code);
    free(xq_test_run_db(0, "tourney match-result --db %s %s", db, extra));
  }
}

/* Whether the line of `out` beginning with the place and the team's name
 * exists ("2     C"). */
static int has_line(const char *out, int place, const char *team)
{
  char want[32];
  snprintf(want, sizeof want, "\n%-5d %s ", place, team);
  return strstr(out, want) != NULL;
}

Test(team_cli, league_worked_example_and_replay)
{
  char db[256];
  xq_test_db_path(db, sizeof db, "team_league");
  xq_test_db_remove(db);
  teams_of(db, "--format team-rr2 --boards 4 --seed 0 --name 象甲", 4);
  /* the example's matches, each once, whatever round the table (with the
   * double round robin's swap of rounds 2 and 3) puts it in */
  static const struct { const char *match, *res; } games[12] = {
    {"A - D", "WWDW"}, {"B - C", "WDLD"}, {"D - C", "LDDL"}, {"A - B", "DDWL"}, {"B - D", "WDWD"}, {"C - A", "DLWL"},
    {"D - A", "LLDD"}, {"C - B", "WDLD"}, {"C - D", "WWDD"}, {"B - A", "DLDW"}, {"D - B", "DLLD"}, {"A - C", "WDLL"}};
  int used[12] = {0};
  for (int r = 1; r <= 6; r++) {
    char *out = xq_test_run_db(0, "tourney pair --db %s %s", db, "");
    for (int m = 1; m <= 2; m++) {
      char head[16], text[32];
      snprintf(head, sizeof head, "match %d  ", m);
      const char *at = strstr(out, head);
      cr_assert(at, "%s", out);
      cr_assert_eq(sscanf(at + strlen(head), "%31[^\n]", text), 1);
      int k = 0;
      while (k < 12 && strcmp(games[k].match, text)) k++;
      cr_assert(k < 12 && !used[k]++, "round %d: %s", r, text);
      results(db, r, m, games[k].res);
    }
    free(out);
  }
  char *first = xq_test_run_db(0, "tourney standings --db %s %s", db, "");
  cr_assert(has_line(first, 1, "A") && has_line(first, 2, "C") && has_line(first, 3, "B") && has_line(first, 4, "D"),
            "%s", first);
  cr_assert(strstr(first, "  9 10 5 5\n") && strstr(first, "  7 6 8 7\n"), "%s", first);
  /* the store reopened: the same table from the replayed team log */
  char *again = xq_test_run_db(0, "tourney standings --db %s %s", db, "");
  cr_assert_str_eq(first, again);
  free(first);
  free(again);
  xq_test_run_db_says(0, "board 1\n   1  A1", "tourney board-prizes --db %s %s", db, "--board 1");
  xq_test_run_db_says(0, "match 1  A - D  7:1  2:0\n  board 1  red A1  -  black D1  1-0",
                      "tourney match-sheet --db %s %s", db, "--round 1");
  /* the sheets: CSV standings, the Chinese match sheet, a board's prizes, a workbook */
  xq_test_run_db_says(0, "Place,Team,Played,W,D,L,MP,GP,Board 1,Board 2,Board 3,Board 4\r\n1,A,6,3,2,1,8,29,9,10,5,5\r\n"
                         "2,C,6,3,2,1,8,28,7,6,8,7\r\n",
                      "tourney standings --db %s %s", db, "--format csv");
  xq_test_run_db_says(0, "第1轮 第1场 A – D 局分 7:1 场分 2:0", "tourney match-sheet --db %s %s", db,
                      "--round 1 --format text --lang zh");
  xq_test_run_db_says(0, "\r\n1,C3,C,6,3,2,1,8/12,\r\n2,B3,B,6,3,1,2,7/12,", "tourney board-prizes --db %s %s", db,
                      "--board 3 --format csv");
  /* the team cross table (团体成绩表): both legs in each cell */
  xq_test_run_db_says(0, "\r\n1,A,×,4:4 4:4,5:3 3:5,7:1 6:2,8,29,1\r\n", "tourney export --db %s %s", db,
                      "--what crosstable --format csv");
  xq_test_run_db_says(2, "a team event exports", "tourney export --db %s %s", db, "");
  char xlsx[300], extra[320];
  snprintf(xlsx, sizeof xlsx, "%s.xlsx", db);
  snprintf(extra, sizeof extra, "--format xlsx --out %s", xlsx);
  free(xq_test_run_db(0, "tourney standings --db %s %s", db, extra));
  char *book = xq_test_slurp(xlsx);
  cr_assert(book && !strncmp(book, "PK", 2), "not a workbook");
  free(book);
  remove(xlsx);
  /* every round is paired: no seventh */
  xq_test_run_db_says(1, "the event has 6 rounds", "tourney pair --db %s %s", db, "");
  xq_test_db_remove(db);
}

Test(team_cli, lineup_refused_and_match_forfeit)
{
  char db[256];
  xq_test_db_path(db, sizeof db, "team_swiss");
  xq_test_db_remove(db);
  teams_of(db, "--format team-swiss --boards 4 --rounds 3", 4);
  free(xq_test_run_db(0, "tourney pair --db %s %s", db, ""));
  int64_t rows = xq_test_sql_int(db, "SELECT count(*) FROM team_log");
  /* A's reserve A5 (number 5) above the regular A3 (3) */
  xq_test_run_db_says(1, "reserve A5 may not play board 3 above regular A3 (fixed board order)",
                      "tourney lineup --db %s %s", db, "--round 1 --team A --players 1,2,5,3");
  cr_assert_eq(xq_test_sql_int(db, "SELECT count(*) FROM team_log"), rows);
  /* A2 absent: the next ones move up, the reserve plays board 4 */
  xq_test_run_db_says(0, "round 1, A: 1 A1 2 A3 3 A4 4 A5", "tourney lineup --db %s %s", db,
                      "--round 1 --team A --players 1,0,3,4,5");
  /* round 1 is 1-2, 4-3: B does not come, the whole match is A's */
  xq_test_run_db_says(0, "match 1  A - B  8:0  2:0  (forfeited by B)", "tourney match-result --db %s %s", db,
                      "--round 1 --match 1 --forfeit second");
  results(db, 1, 2, "WDDL");
  char *out = xq_test_run_db(0, "tourney standings --db %s %s", db, "");
  cr_assert(has_line(out, 1, "A") && has_line(out, 4, "B"), "%s", out);
  free(out);
  /* the lineup and the forfeit survive the reopening: the match sheet */
  xq_test_run_db_says(0, "match 1  A - B  8:0  2:0  (forfeited by B)\n  board 1  red A1  -  black B1  *\n"
                         "  board 2  black A3",
                      "tourney match-sheet --db %s %s", db, "--round 1");
  xq_test_run_db_says(0, "round 2", "tourney pair --db %s %s", db, "");
  xq_test_run_db_says(0, "D withdraws from round 3", "tourney team-withdraw --db %s %s", db, "--team D --round 3");
  xq_test_run_db_says(2, "no team 'Z'", "tourney team-withdraw --db %s %s", db, "--team Z --round 3");
  /* the audit trail names every row of the team log */
  xq_test_run_db_says(0, "withdraw round=3 a=4", "tourney log --db %s %s", db, "");
  xq_test_run_db_says(0, "lineup   round=1 a=1 list=1,0,3,4,5", "tourney log --db %s %s", db, "");
  xq_test_run_db_says(0, "forfeit  round=1 a=1 b=2", "tourney log --db %s %s", db, "");
  xq_test_run_db_says(0, "format: team swiss\nboards: 4\nrounds: 3", "tourney settings --db %s %s", db, "");
  xq_test_run_db_says(2, "settings are those it was made with", "tourney settings --db %s %s", db, "--rounds 4");
  xq_test_db_remove(db);
}

Test(team_cli, team_options_refused)
{
  char db[256];
  xq_test_db_path(db, sizeof db, "team_refuse");
  xq_test_db_remove(db);
  xq_test_run_db_says(2, "a team event needs --boards", "tourney new --db %s %s", db, "--format team-rr");
  xq_test_run_db_says(2, "are a team", "tourney new --db %s %s", db, "--rounds 5 --boards 4");
  xq_test_run_db_says(2, "--board-order is fixed or free", "tourney new --db %s %s", db,
                      "--format team-rr --boards 4 --board-order any");
  xq_test_run_db_says(2, "match points", "tourney new --db %s %s", db, "--format team-rr --boards 4 --match-points 1/2/0");
  free(xq_test_run_db(0, "tourney new --db %s %s", db, "--rounds 5"));
  xq_test_run_db_says(1, "holds no team event", "tourney team --db %s %s", db, "--name X");
  xq_test_run_db_says(2, "an individual event's", "tourney standings --db %s %s", db, "--format csv");
  xq_test_db_remove(db);
}
