/*
 * pair.c -- `xqref pair [--system cn|dutch] FILE.trf`: the next round of a
 * TRF file paired and printed in bbpPairings' output format (the pairing:
 * xq_trf_pair_next, tourney/next_round.c); `xqref pair --system berger
 * --players N [--double]`: the whole round-robin table (tourney/pair/pair_berger.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "pair/pair.h"
#include "tourney.h"

/* What the command line asked for. */
typedef struct pair_cli {
  const char *system;
  int round, rounds;
  int players, twice, no_swap; /* berger */
} pair_cli;

static const xq__opt pair_rows[] = {
  XQ__STR("--system", pair_cli, system, "cn|dutch|berger",
          "cn: Chinese adjacent pairing (the default); dutch: FIDE\n"
          "Dutch, the pairing bbpPairings gives; berger: the round-robin\n"
          "table (循环赛对局秩序表) of --players N, no file"),
  XQ__INT("--round", pair_cli, round, 1, XQ_TOURNEY_ROUNDS_MAX, "K",
          "pair round K as if only rounds 1..K-1 were in the file\n"
          "(blocks of round K other than games and the PAB are kept\n"
          "as announced absences): replays an event round by round"),
  XQ__INT("--rounds", pair_cli, rounds, 1, XQ_TOURNEY_ROUNDS_MAX, "N", "the event has N rounds (overrides XXR / 142)"),
  XQ__INT("--players", pair_cli, players, 2, XQ_RR_ENTRANTS_MAX, "N", "berger: N entrants, numbered 1..N"),
  XQ__FLAG("--double", pair_cli, twice, 1, "berger: a double round robin (双循环), the second cycle\n"
           "with colours reversed"),
  XQ__FLAG("--no-swap", pair_cli, no_swap, 1, "berger --double: the first cycle's last two rounds in\n"
           "table order (by default they are swapped: no three like colours running)"),
};

static const xq__cmd pair_cmd = {
  .name = "pair",
  .args = "FILE.trf",
  .args_max = 1,
  .about = "Pair the round after the last one in the TRF file and print the boards:\n"
           "the number of boards (the bye counts), then `red black` per board, 0 for\n"
           "the bye. Players with a block already written for that round are absent.\n"
           "\n"
           "With --system berger, print the round-robin table of --players N instead,\n"
           "one line per round: `round R: A-B C-D ...` in board order, the first-named\n"
           "Red; with an odd N the entrant who sits out is last, as `bye A`.\n",
  .opts = pair_rows,
  .nopts = XQ__NROWS(pair_rows),
};

/* The whole table of a round robin of c->players entrants. */
static int berger_table(const pair_cli *c)
{
  int cycles = c->twice ? 2 : 1, rounds = xq_rr_rounds(c->players, cycles);
  xq_tboard b[XQ_RR_ENTRANTS_MAX / 2 + 1];
  if (rounds > XQ_TOURNEY_ROUNDS_MAX) {
    fprintf(stderr, "xqref pair: %d entrants twice make %d rounds; an event has %d at most\n", c->players,
            rounds, XQ_TOURNEY_ROUNDS_MAX);
    return 2;
  }
  for (int r = 1; r <= rounds; r++) {
    int nb = xq_rr_round(c->players, cycles, !c->no_swap, r, b);
    printf("round %d:", r);
    for (int i = 0; i < nb; i++)
      if (b[i].black) printf(" %d-%d", b[i].red, b[i].black);
      else printf(" bye %d", b[i].red);
    putchar('\n');
  }
  return 0;
}

int xq_pair_main(int argc, char **argv)
{
  pair_cli c = {.system = "cn"};
  const char *file = NULL;
  int nargs;
  int status = xq__opts_parse(&pair_cmd, argc, argv, &c, &file, &nargs);
  if (status >= 0) return status;
  if (!strcmp(c.system, "berger")) {
    if (nargs) return xq__opts_error(&pair_cmd, "--system berger reads no file");
    if (!c.players) return xq__opts_error(&pair_cmd, "--system berger needs --players N");
    return berger_table(&c);
  }
  if (c.players || c.twice || c.no_swap)
    return xq__opts_error(&pair_cmd, "--players, --double and --no-swap are for --system berger");
  if (!nargs) return xq__opts_error(&pair_cmd, "which TRF file?");
  const char *system = c.system;
  xq_trf_pair_opts po = {.system = xq_pair_system_parse(system), .round = c.round, .rounds = c.rounds};
  if (po.system < 0) {
    fprintf(stderr, "xqref pair: unknown system '%s' (cn, dutch or berger)\n", system);
    return 2;
  }
  xq_tournament *ev;
  xq_error err = {0};
  int rc = xq_trf_read(file, &ev, &err);
  if (rc) { fprintf(stderr, "xqref pair: %s: %s\n", file, err.msg); return 1; }
  xq_tpairing pr = {0};
  rc = xq_trf_pair_next(ev, &po, &pr, &err);
  xq_tournament_free(ev);
  if (rc) {
    fprintf(stderr, "xqref pair: %s: %s\n", file, err.msg);
    return 1;
  }
  xq_pairing_write_bbp(&pr, stdout);
  xq_tpairing_clear(&pr);
  return 0; /* a write that failed: main says so (cli/main.c) */
}
