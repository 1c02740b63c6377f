/*
 * simulate.c -- `xqref simulate`: the options and --help, the run
 * (clients/simulate.h) and the summary of incidents (docs/simulate.md).
 */
#include <stdio.h>

#include "cli.h"
#include "clientlimits.h"
#include "opts.h"
#include "paths.h"
#include "simulate.h"
#include "teammatch.h"
#include "tourney.h"

/* The command line: the run's options and what becomes of them. */
typedef struct sim_cli {
  xq_sim_opts o;
  const char *options[XQ_REG_OPTIONS_MAX];
  int quiet;
} sim_cli;

/* --plies MIN-MAX. */
static int plies(void *opts, const char *v, xq_error *err)
{
  sim_cli *c = opts;
  int lo, hi, n = 0;
  if (sscanf(v, "%d-%d%n", &lo, &hi, &n) == 2 && !v[n]) {
    c->o.min_plies = lo;
    c->o.max_plies = hi;
    return XQ_OK;
  }
  snprintf(err->msg, sizeof err->msg, "want MIN-MAX, not '%s'", v);
  return XQ_EINVAL;
}

/* --option KEY=VALUE, once more. */
static int option(void *opts, const char *v, xq_error *err)
{
  sim_cli *c = opts;
  if (c->o.noptions == XQ_REG_OPTIONS_MAX) {
    snprintf(err->msg, sizeof err->msg, "given at most %d times", XQ_REG_OPTIONS_MAX);
    return XQ_EINVAL;
  }
  c->options[c->o.noptions++] = v;
  return XQ_OK;
}

static const int rr_formats[] = {1, 2, XQ_SIM_TEAM_RR, XQ_SIM_TEAM_RR2, XQ_SIM_TEAM_SWISS};

static const xq__opt sim_rows[] = {
  XQ__STR("--preset", sim_cli, o.preset, "NAME", "the regulation (xqref presets lists them; with --format\n"
          "its rules of play and scoring, default wujiaqu2024: CXA 2020)"),
  XQ__ENUM("--format", sim_cli, o.format, "rr|rr2|team-rr|team-rr2|team-swiss", rr_formats,
           "a round robin of the players (default 10) instead of the\n"
           "preset's Swiss: rr once (单循环), rr2 twice (双循环); the\n"
           "standings and the cross table (交叉表), no prizes; or a\n"
           "team event (团体赛): team-rr, team-rr2 (a team round robin\n"
           "once, twice) or team-swiss, the team standings at the end"),
  XQ__INT("--teams", sim_cli, o.teams, 2, XQ_SIM_TEAM_EVENT_TEAMS_MAX, "T", "a team event's teams (default 6)"),
  XQ__INT("--boards", sim_cli, o.team_boards, 2, XQ_TM_BOARDS_MAX, "B",
          "boards of a team event's matches, the players of a roster (default 4)"),
  XQ__INT("--rounds", sim_cli, o.rounds, 1, XQ_TOURNEY_ROUNDS_MAX, "R",
          "--format team-swiss: its rounds (fewer than the teams;\n"
          "default 5, or half the teams when fewer)"),
  XQ__INT("--groups", sim_cli, o.rr_groups, 2, XQ_RR_GROUPS_MAX, "G",
          "--format rr|rr2: the players in G groups (分组循环), each its\n"
          "own round robin"),
  XQ__INT("--ko", sim_cli, o.ko_size, 4, 16, "K",
          "--format rr|rr2: then a knockout of K (4, 8 or 16): the top K,\n"
          "or with groups two of each group crossed (A1-B2, B1-A2, ...)"),
  XQ__STR("--group", sim_cli, o.group, "NAME",
          "the event of one of the preset's groups that plays apart\n"
          "(e.g. tangshan2018 --group seniors): its players only\n"
          "(default 30), its prize list, no knockout, no teams;\n"
          "or a knockout-only sub-event (shaanxi2019 --group village:\n"
          "the 乡村棋王, 48 entrants by default, bracket by lot)"),
  XQ__INT("--players", sim_cli, o.players, 1, XQ_SIM_PLAYERS_MAX, "N",
          "players registered (default: the preset's entry limit, or 150)"),
  XQ__U64("--seed", sim_cli, o.seed, "S", "everything random follows from S (default 1)"),
  XQ__STR("--db", sim_cli, o.db, "FILE",
          "keep the event in FILE (must not exist; default: a\n"
          "temporary store, removed at the end)"),
  XQ__STR("--out", sim_cli, o.out_dir, "DIR",
          "write places.html, standings.html, teams.html,\n"
          "groups.html and prizes.html into DIR (created)"),
  XQ__CALL("--plies", plies, "MIN-MAX",
           "a game stops by resignation or agreement between these\n"
           "plies (default 40-160)"),
  XQ__INT("--illegal", sim_cli, o.rate_illegal, 0, XQ_SIM_RATE_MAX, "R", "per mille of games with an illegal move (30)"),
  XQ__INT("--suicide", sim_cli, o.rate_suicide, 0, XQ_SIM_RATE_MAX, "R", "... with a suicide (15)"),
  XQ__INT("--flag", sim_cli, o.rate_flag, 0, XQ_SIM_RATE_MAX, "R", "... with a flag fall (20)"),
  XQ__INT("--repetition", sim_cli, o.rate_repetition, 0, XQ_SIM_RATE_MAX, "R", "... with a repeated cycle (40)"),
  XQ__INT("--natural", sim_cli, o.rate_natural, 0, XQ_SIM_RATE_MAX, "R", "... with a natural-limit claim (10)"),
  XQ__INT("--late", sim_cli, o.rate_late, 0, XQ_SIM_RATE_MAX, "R",
          "per mille of players late for a round, forfeiting it (10)"),
  XQ__INT("--absentees", sim_cli, o.absentees, 0, XQ_SIM_PLAYERS_MAX, "N",
          "players who stop coming after a random round (n/50)"),
  XQ__INT("--women", sim_cli, o.women, 0, XQ_SIM_PLAYERS_MAX, "N", "women among the players (about one in eight)"),
  XQ__INT("--window", sim_cli, o.window, 1, XQ_SIM_WINDOW_MAX, "W",
          "plain moves a board keeps in flight (default 4; 1: wait\n"
          "for every reply, as a slow board would)"),
  XQ__CALL("--option", option, "KEY=VALUE",
           "another reading of a clause the text leaves open\n"
           "(xqref presets show NAME lists them; docs/presets.md)",
           .flags = XQ__OPT_REPEAT),
  XQ__FLAG("--quiet", sim_cli, quiet, 1, "no progress lines on stderr"),
};

static const xq__cmd sim_cmd = {
  .name = "simulate",
  .about = "Run a whole event under a regulation preset (xqref presets) on the real\n"
           "server: N players registered (default: the preset's entry limit, or 150),\n"
           "every Swiss round paired and published by the server, every board a random\n"
           "legal game over the JSON-lines protocol with incidents at the given rates,\n"
           "the knockout stage with its tie-break games, then the final places,\n"
           "standings, team and group standings and the prize list (text on stdout,\n"
           "HTML pages in DIR) and a summary of the incidents. With --format rr|rr2\n"
           "the event is a round robin instead, paired from the round-robin table.\n",
  .opts = sim_rows,
  .nopts = XQ__NROWS(sim_rows),
};

static void summary(const xq_sim_report *r)
{
  printf("Summary 赛况统计 (%s)\n", r->preset);
  if (r->ko_after < 0) /* a knockout-only event: no Swiss boards */
    printf("  players %d, knockout only: a drawn bracket of %d (%d byes), knockout games %d%s%s\n", r->players,
           r->ko_size, r->ko_size - r->ko_entrants, r->ko_games, r->king[0] ? ", king " : "", r->king);
  else
    printf("  players %d, %s rounds %d, boards %d (%d played on the server, %d forfeited), knockout games %d\n",
           r->players, r->round_robin ? "round-robin" : "Swiss", r->rounds, r->boards, r->boards - r->forfeited_boards,
           r->forfeited_boards, r->ko_games);
  printf("  moves %ld, other judged events %ld\n", r->moves, r->events);
  printf("  results: mates %ld, resignations %ld, draws agreed %ld (offers declined %ld, refused by the rules %ld)\n",
         r->mates, r->resignations, r->agreements, r->offers_declined, r->offers_refused);
  printf("  illegal moves %ld, suicides %ld, false claims %ld (each a foul or, where the rules say so, a loss);"
         " fouls recorded %ld\n", r->illegal, r->suicides, r->false_claims, r->fouls);
  printf("  flag falls %ld\n", r->flag_falls);
  printf("  repetition: drawn %ld, lost %ld, change orders %ld (early-cycle %ld), lost for not changing %ld\n",
         r->rep_draws, r->rep_losses, r->must_change, r->early_orders, r->order_losses);
  printf("  natural-limit claims %ld (drawn %ld, refused %ld)\n", r->natural_claims, r->natural_draws,
         r->claims_refused);
  printf("  forfeits (late) %d, players withdrawn %d, arbiter rulings %ld\n", r->forfeits, r->withdrawn,
         r->arbiter_rulings);
  if (r->women_merged) printf("  women merged into the men's section: %d\n", r->women_merged);
  if (r->prizes) printf("  prizes %d, total %ld%s\n", r->prizes, r->prize_total,
                        r->king_bonus ? " (the king's bonus included)" : "");
  if (r->team_prize_total) printf("  team prizes, total %ld\n", r->team_prize_total);
  if (r->ko_after < 0) printf("  time %.2f s\n", r->seconds); /* no Swiss rounds */
  else printf("  time %.2f s (%s rounds on the server %.2f s)\n", r->seconds, r->round_robin ? "the" : "Swiss",
              r->swiss_seconds);
}

int xq_simulate_main(int argc, char **argv)
{
  sim_cli c = {.quiet = 0};
  xq_sim_opts_default(&c.o);
  c.o.options = c.options;
  int status = xq__opts_parse(&sim_cmd, argc, argv, &c, NULL, NULL);
  if (status >= 0) return status;
  xq_sim_opts o = c.o;
  if (!o.preset && !o.format) return xq__opts_error(&sim_cmd, "which regulation? --preset NAME (xqref presets lists them)");
  int team = o.format >= XQ_SIM_TEAM_RR;
  if (!team && (o.teams != XQ_SIM_TEAMS_DEFAULT || o.team_boards != XQ_SIM_TEAM_BOARDS_DEFAULT || o.rounds))
    return xq__opts_error(&sim_cmd, "--teams, --boards and --rounds are for a team event (--format team-rr|team-rr2|team-swiss)");
  if (!o.format && (o.rr_groups || o.ko_size))
    return xq__opts_error(&sim_cmd, "--groups and --ko are for a round robin (--format rr|rr2); a preset has its own knockout");
  if (!o.preset) o.preset = "wujiaqu2024";
  o.out = stdout;
  o.log = c.quiet ? NULL : stderr;
  /* the pages written into DIR are never the store */
  static const char *const pages[] = {"places", "standings", "teams", "groups", "prizes", "townships", "crosstable"};
  for (size_t i = 0; o.db && o.out_dir && i < sizeof pages / sizeof pages[0]; i++) {
    char page[XQ_CLI_PATH_TEXT];
    snprintf(page, sizeof page, "%s/%s.html", o.out_dir, pages[i]);
    const xq__path outs[] = {{o.db, "--db", 1}, {page, "the page", 0}};
    if (xq__paths_check("simulate", outs, 2, NULL, 0)) return 1;
  }
  xq_sim_report rep;
  xq_error err = {0};
  int rc = xq_simulate(&o, &rep, &err);
  if (rc) {
    fprintf(stderr, "xqref simulate: %s\n", err.msg[0] ? err.msg : xq_strerror(rc));
    return rc == XQ_EINVAL ? 2 : 1;
  }
  summary(&rep);
  return 0; /* a write that failed: main says so (cli/main.c) */
}
