/*
 * simulate.c -- `xqref simulate`: the options and --help, the run
 * (clients/simulate.h) and the summary of incidents (docs/simulate.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "simulate.h"
#include "tourney.h"

static const char sim_usage[] =
  "usage: xqref simulate --preset NAME [--group NAME] [--players N] [--seed S] [--db FILE]\n"
  "                      [--out DIR] [--plies MIN-MAX] [--illegal R] [--suicide R] [--flag R]\n"
  "                      [--repetition R] [--natural R] [--late R] [--absentees N]\n"
  "                      [--women N] [--window W] [--option KEY=VALUE]... [--quiet]\n"
  "\n"
  "Run a whole event under a regulation preset (xqref presets) on the real\n"
  "server: N players registered (default: the preset's entry limit, or 150),\n"
  "every Swiss round paired and published by the server, every board a random\n"
  "legal game over the JSON-lines protocol with incidents at the given rates,\n"
  "the knockout stage with its tie-break games, then the final places,\n"
  "standings, team and group standings and the prize list (text on stdout,\n"
  "HTML pages in DIR) and a summary of the incidents.\n"
  "\n"
  "  --group NAME    the event of one of the preset's groups that plays apart\n"
  "                  (e.g. tangshan2018 --group seniors): its players only\n"
  "                  (default 30), its prize list, no knockout, no teams;\n"
  "                  or a knockout-only sub-event (shaanxi2019 --group village:\n"
  "                  the 乡村棋王, 48 entrants by default, bracket by lot)\n"
  "  --seed S        everything random follows from S (default 1)\n"
  "  --db FILE       keep the event in FILE (must not exist; default: a\n"
  "                  temporary store, removed at the end)\n"
  "  --out DIR       write places.html, standings.html, teams.html,\n"
  "                  groups.html and prizes.html into DIR (created)\n"
  "  --plies MIN-MAX a game stops by resignation or agreement between these\n"
  "                  plies (default 40-160)\n"
  "  --illegal R ... per mille of games with an illegal move (30), a suicide\n"
  "                  (15), a flag fall (20), a repeated cycle (40), a\n"
  "                  natural-limit claim (10); --late: of players late for a\n"
  "                  round, forfeiting it (10)\n"
  "  --absentees N   players who stop coming after a random round (n/50)\n"
  "  --women N       women among the players (about one in eight)\n"
  "  --window W      plain moves a board keeps in flight (default 4; 1: wait\n"
  "                  for every reply, as a slow board would)\n"
  "  --option K=V    another reading of a clause the text leaves open\n"
  "                  (xqref presets show NAME lists them; docs/presets.md)\n"
  "  --quiet         no progress lines on stderr\n";

static const char usage_line[] =
  "usage: xqref simulate --preset NAME [--players N] [--seed S] [--db FILE] [--out DIR] ...";

static int usage_error(const char *msg, const char *arg)
{
  return xq_cli_usage_error("simulate", usage_line, msg, arg);
}

static int int_arg(const char *v, int lo, int hi, int *out)
{
  char *end;
  long x = strtol(v, &end, 10);
  if (!*v || *end || x < lo || x > hi) return -1;
  *out = (int)x;
  return 0;
}

static void summary(const xq_sim_report *r)
{
  printf("Summary 赛况统计 (%s)\n", r->preset);
  if (r->ko_after < 0) /* a knockout-only event: no Swiss boards */
    printf("  players %d, knockout only: a drawn bracket of %d (%d byes), knockout games %d%s%s\n", r->players,
           r->ko_size, r->ko_size - r->ko_entrants, r->ko_games, r->king[0] ? ", king " : "", r->king);
  else
    printf("  players %d, Swiss rounds %d, boards %d (%d played on the server, %d forfeited), knockout games %d\n",
           r->players, r->rounds, r->boards, r->boards - r->forfeited_boards, r->forfeited_boards, r->ko_games);
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
  else printf("  time %.2f s (Swiss rounds on the server %.2f s)\n", r->seconds, r->swiss_seconds);
}

int xq_simulate_main(int argc, char **argv)
{
  xq_sim_opts o;
  xq_sim_opts_default(&o);
  o.out = stdout;
  o.log = stderr;
  const char *options[XQ_REG_OPTIONS_MAX];
  o.options = options;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(sim_usage, stdout);
      return 0;
    }
    if (!strcmp(a, "--quiet")) {
      o.log = NULL;
      continue;
    }
    if (i + 1 >= argc) return usage_error("missing value after", a);
    const char *v = argv[++i];
    int bad = 0;
    if (!strcmp(a, "--preset")) o.preset = v;
    else if (!strcmp(a, "--group")) o.group = v;
    else if (!strcmp(a, "--db")) o.db = v;
    else if (!strcmp(a, "--out")) o.out_dir = v;
    else if (!strcmp(a, "--players")) bad = int_arg(v, 1, 100000, &o.players);
    else if (!strcmp(a, "--seed")) {
      char *end;
      o.seed = strtoull(v, &end, 10);
      bad = !*v || *end;
    } else if (!strcmp(a, "--plies")) {
      bad = sscanf(v, "%d-%d", &o.min_plies, &o.max_plies) != 2;
    } else if (!strcmp(a, "--illegal")) bad = int_arg(v, 0, 1000, &o.rate_illegal);
    else if (!strcmp(a, "--suicide")) bad = int_arg(v, 0, 1000, &o.rate_suicide);
    else if (!strcmp(a, "--flag")) bad = int_arg(v, 0, 1000, &o.rate_flag);
    else if (!strcmp(a, "--repetition")) bad = int_arg(v, 0, 1000, &o.rate_repetition);
    else if (!strcmp(a, "--natural")) bad = int_arg(v, 0, 1000, &o.rate_natural);
    else if (!strcmp(a, "--late")) bad = int_arg(v, 0, 1000, &o.rate_late);
    else if (!strcmp(a, "--absentees")) bad = int_arg(v, 0, 100000, &o.absentees);
    else if (!strcmp(a, "--women")) bad = int_arg(v, 0, 100000, &o.women);
    else if (!strcmp(a, "--window")) bad = int_arg(v, 1, 64, &o.window);
    else if (!strcmp(a, "--option")) {
      if (o.noptions == XQ_REG_OPTIONS_MAX) return usage_error("too many", a);
      options[o.noptions++] = v;
    }
    else return usage_error("unknown option", a);
    if (bad) return usage_error("bad value for", a);
  }
  if (!o.preset) return usage_error("--preset is required", NULL);
  xq_sim_report rep;
  xq_error err = {0};
  int rc = xq_simulate(&o, &rep, &err);
  if (rc) {
    fprintf(stderr, "xqref simulate: %s\n", err.msg[0] ? err.msg : xq_strerror(rc));
    return rc == XQ_EINVAL ? 2 : 1;
  }
  summary(&rep);
  return fflush(stdout) ? 1 : 0;
}
