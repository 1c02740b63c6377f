/*
 * pair.c -- `xqref pair [--system cn|dutch] FILE.trf`: the next round of a
 * TRF file paired and printed in bbpPairings' output format (the pairing:
 * xq_trf_pair_next, tourney/next_round.c).
 */
#include <stdio.h>

#include "cli.h"
#include "opts.h"
#include "pair/pair.h"
#include "tourney.h"

/* What the command line asked for. */
typedef struct pair_cli {
  const char *system;
  int round, rounds;
} pair_cli;

static const xq__opt pair_rows[] = {
  XQ__STR("--system", pair_cli, system, "cn|dutch",
          "cn: Chinese adjacent pairing (the default); dutch: FIDE\n"
          "Dutch, the pairing bbpPairings gives"),
  XQ__INT("--round", pair_cli, round, 1, XQ_TOURNEY_ROUNDS_MAX, "K",
          "pair round K as if only rounds 1..K-1 were in the file\n"
          "(blocks of round K other than games and the PAB are kept\n"
          "as announced absences): replays an event round by round"),
  XQ__INT("--rounds", pair_cli, rounds, 1, XQ_TOURNEY_ROUNDS_MAX, "N", "the event has N rounds (overrides XXR / 142)"),
};

static const xq__cmd pair_cmd = {
  .name = "pair",
  .args = "FILE.trf",
  .args_max = 1,
  .about = "Pair the round after the last one in the TRF file and print the boards:\n"
           "the number of boards (the bye counts), then `red black` per board, 0 for\n"
           "the bye. Players with a block already written for that round are absent.\n",
  .opts = pair_rows,
  .nopts = XQ__NROWS(pair_rows),
};

int xq_pair_main(int argc, char **argv)
{
  pair_cli c = {.system = "cn"};
  const char *file = NULL;
  int nargs;
  int status = xq__opts_parse(&pair_cmd, argc, argv, &c, &file, &nargs);
  if (status >= 0) return status;
  if (!nargs) return xq__opts_error(&pair_cmd, "which TRF file?");
  const char *system = c.system;
  xq_trf_pair_opts po = {.system = xq_pair_system_parse(system), .round = c.round, .rounds = c.rounds};
  if (po.system < 0) {
    fprintf(stderr, "xqref pair: unknown system '%s' (cn or dutch)\n", system);
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
