/*
 * pair.c -- `xqref pair --system cn|dutch FILE.trf`: the next round of a
 * TRF file paired and printed in bbpPairings' output format (the pairing:
 * xq_trf_pair_next, tourney/next_round.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pair/pair.h"
#include "tourney.h"

static const char pair_usage[] =
  "usage: xqref pair --system cn|dutch [--round K] [--rounds N] FILE.trf\n"
  "\n"
  "Pair the round after the last one in the TRF file and print the boards:\n"
  "the number of boards (the bye counts), then `red black` per board, 0 for\n"
  "the bye. Players with a block already written for that round are absent.\n"
  "\n"
  "  --system S   cn: Chinese adjacent pairing (the default); dutch: FIDE\n"
  "               Dutch, the pairing bbpPairings gives\n"
  "  --round K    pair round K as if only rounds 1..K-1 were in the file\n"
  "               (blocks of round K other than games and the PAB are kept\n"
  "               as announced absences): replays an event round by round\n"
  "  --rounds N   the event has N rounds (overrides XXR / 142)\n";

int xq_pair_main(int argc, char **argv)
{
  const char *system = NULL, *file = NULL;
  long round_opt = 0, rounds_opt = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(pair_usage, stdout); return 0; }
    if (!strcmp(argv[i], "--system") && i + 1 < argc) system = argv[++i];
    else if ((!strcmp(argv[i], "--round") || !strcmp(argv[i], "--rounds")) && i + 1 < argc) {
      long *dst = !strcmp(argv[i], "--round") ? &round_opt : &rounds_opt;
      if (!xq__cli_number(argv[i + 1], 1, XQ_TOURNEY_ROUNDS_MAX, dst)) {
        fprintf(stderr, "xqref pair: %s wants a number 1..%d\n", argv[i], XQ_TOURNEY_ROUNDS_MAX);
        return 2;
      }
      i++;
    }
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "xqref pair: unknown option '%s'\n%s", argv[i], pair_usage);
      return 2;
    } else if (!file) file = argv[i];
    else { fprintf(stderr, "xqref pair: one TRF file only\n"); return 2; }
  }
  if (!system) system = "cn";
  if (!file) { fputs(pair_usage, stderr); return 2; }
  xq_trf_pair_opts po = {.system = xq_pair_system_parse(system), .round = (int)round_opt,
                         .rounds = (int)rounds_opt};
  if (po.system < 0) {
    fprintf(stderr, "xqref pair: unknown system '%s' (cn or dutch)\n", system);
    return 2;
  }
  xq_tevent *ev;
  xq_error err = {0};
  int rc = xq_trf_read(file, &ev, &err);
  if (rc) { fprintf(stderr, "xqref pair: %s: %s\n", file, err.msg); return 1; }
  xq_tpairing pr = {0};
  rc = xq_trf_pair_next(ev, &po, &pr, &err);
  xq_tevent_free(ev);
  if (rc) {
    fprintf(stderr, "xqref pair: %s: %s\n", file, err.msg);
    return 1;
  }
  xq_pairing_write_bbp(&pr, stdout);
  xq_tpairing_clear(&pr);
  return fflush(stdout) ? 1 : 0;
}
