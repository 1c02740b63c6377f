/*
 * test_simulate_team.c -- `xqref simulate --format team-rr|team-swiss`
 * (docs/simulate.md "Team events"): a whole team event on the real
 * server, every round paired and published by team_pair and every board
 * played as a game; the store then holds every match decided, and the
 * final standings printed add up to the match points the matches give.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simulate.h"
#include "store/store.h"
#include "store/team_store.h"
#include "teammatch.h"
#include "tourney.h"

/* Run a team event of `teams` teams on `boards` boards (`rounds` for a
 * Swiss) and check what the store and the output hold. */
static void run_team(int format, int teams, int boards, int rounds, int want_rounds)
{
  char dir[] = "/tmp/xqref-simteam-XXXXXX", db[128];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(db, sizeof db, "%s/event.db", dir);
  xq_sim_opts o;
  xq_sim_opts_default(&o);
  o.preset = "wujiaqu2024";
  o.format = format;
  o.teams = teams;
  o.team_boards = boards;
  o.rounds = rounds;
  o.seed = 7;
  o.min_plies = 16;
  o.max_plies = 50;
  o.db = db;
  char *text = NULL;
  size_t len = 0;
  o.out = open_memstream(&text, &len);
  xq_sim_report rep;
  xq_error err = {0};
  int rc = xq_simulate(&o, &rep, &err);
  fclose(o.out);
  cr_assert_eq(rc, XQ_OK, "simulate: %s", err.msg);
  cr_assert_eq(rep.rounds, want_rounds);
  cr_assert_eq(rep.players, teams * boards);

  /* the store: every match of every round decided */
  xq_tstore *st = NULL;
  xq_tournament *people = NULL;
  xq_tm_event *ev = NULL;
  cr_assert_eq(xq_tstore_open(db, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_load(st, &people, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_team_load(st, people, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_not_null(ev);
  cr_assert_eq(ev->nteams, teams);
  cr_assert_eq(ev->nrounds, want_rounds);
  cr_assert_eq(people->nrounds, want_rounds, "every team round published as a round of games");
  int mp = 0, games = 0;
  for (int m = 0; m < ev->nmatches; m++) {
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    cr_assert(sc.decided, "round %d match %d-%d decided", ev->matches[m].round, ev->matches[m].first,
              ev->matches[m].second);
    mp += sc.mp[0] + sc.mp[1];
    games += ev->matches[m].second ? boards : 0;
  }
  cr_assert_eq(rep.boards, games, "every board played as a game");
  /* the standings printed: a line per team, their match points adding up */
  const char *p = strstr(text, "Team standings");
  cr_assert_not_null(p, "%s", text);
  int rows = 0, sum = 0;
  for (p = strchr(p, '\n') + 1, p = strchr(p, '\n') + 1; *p && rows < teams; rows++) {
    int place, pts, gp;
    cr_assert_eq(sscanf(p, "%d %d %d", &place, &pts, &gp), 3, "%s", p);
    sum += pts;
    p = strchr(p, '\n') + 1;
  }
  cr_assert_eq(rows, teams);
  cr_assert_eq(sum, mp, "the standings' match points are the matches'");
  xq_tm_event_free(ev);
  xq_tournament_free(people);
  xq_tstore_close(st);
  free(text);
  const char *sfx[] = {"", "-wal", "-shm", ".admin"};
  char path[192];
  for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
    snprintf(path, sizeof path, "%s%s", db, sfx[i]);
    unlink(path);
  }
  rmdir(dir);
}

Test(simulate_team, four_teams_of_three_play_a_round_robin, .timeout = 120)
{
  /* 3 rounds of 2 matches, 2 match points each */
  run_team(XQ_SIM_TEAM_RR, 4, 3, 0, 3);
}

Test(simulate_team, six_teams_play_three_swiss_rounds, .timeout = 120)
{
  run_team(XQ_SIM_TEAM_SWISS, 6, 3, 3, 3);
}

Test(simulate_team, five_teams_double_round_robin_with_byes, .timeout = 120)
{
  /* an odd count: a bye a round, worth nothing in a round robin */
  run_team(XQ_SIM_TEAM_RR2, 5, 2, 0, 10);
}

Test(simulate_team, refuses_bad_team_options)
{
  xq_sim_opts o;
  xq_sim_opts_default(&o);
  o.preset = "wujiaqu2024";
  o.format = XQ_SIM_TEAM_SWISS;
  o.teams = 4;
  o.rounds = 4; /* as many rounds as teams */
  xq_sim_report rep;
  xq_error err = {0};
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "fewer than"), "%s", err.msg);
  o.format = XQ_SIM_TEAM_RR;
  o.rounds = 0;
  o.team_boards = 1;
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "--boards"), "%s", err.msg);
}
