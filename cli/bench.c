/*
 * bench.c -- `xqref bench` and its variants: their options, --help texts
 * and exit statuses. Plain `bench` is the perft bench (perft/perft.h);
 * `bench --judge` the adjudicator's throughput (adjudicator/adjudicator.h);
 * `bench --gen-pgn` writes an archive of random games to measure with
 * (records/records.h); `bench --store` the game log's group commit
 * (bench_store.c). The option that names a variant may stand anywhere on
 * the command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "cli.h"
#include "perft.h"
#include "records.h"

static const char bench_usage[] =
  "usage: xqref bench [--threads T] [--quick] [--hash [MB]]\n"
  "\n"
  "Run perft on a fixed set of positions and print, per position and in\n"
  "total, nodes, time and nodes per second. Each count is checked against\n"
  "the perft suite; a mismatch makes the exit status 1.\n"
  "\n"
  "  --threads T   ply-2 subtrees shared by T threads (default 1)\n"
  "  --quick       one ply less everywhere (a short signature run)\n"
  "  --hash [MB]   count through a fresh transposition table of MB MiB per\n"
  "                position (default %d): the hashed figures, same counts\n";


/* `xqref bench [--threads T] [--quick] [--hash [MB]]`. */
static int perft_bench_main(int argc, char **argv)
{
  xq_bench_opts o = {1, 0, 0};
  xq_error err;

  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf(bench_usage, XQ_PERFT_BENCH_HASH_MB);
      return 0;
    } else if (!strcmp(argv[i], "--quick")) {
      o.quick = 1;
    } else if (!strcmp(argv[i], "--hash")) {
      long v = XQ_PERFT_BENCH_HASH_MB;
      if (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9' &&
          !xq__cli_number(argv[++i], 1, XQ_PERFT_HASH_MAX_MB, &v)) {
        fprintf(stderr, "xqref bench: --hash must be 1..%d (MiB)\n", XQ_PERFT_HASH_MAX_MB);
        return 2;
      }
      o.hash_mb = (int)v;
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      long v;
      if (!xq__cli_number(argv[++i], 1, XQ_PERFT_MAX_THREADS, &v)) {
        fprintf(stderr, "xqref bench: --threads must be 1..%d\n", XQ_PERFT_MAX_THREADS);
        return 2;
      }
      o.threads = (int)v;
    } else {
      fprintf(stderr, "xqref bench: unknown or incomplete option '%s'\n", argv[i]);
      fprintf(stderr, bench_usage, XQ_PERFT_BENCH_HASH_MB);
      return 2;
    }
  }
  int bad = xq_perft_bench(&o, stdout, &err);
  if (bad < 0) {
    fprintf(stderr, "xqref bench: %s\n", err.msg);
    return 1;
  }
  if (bad) fprintf(stderr, "xqref bench: node counts differ from the perft suite\n");
  return bad ? 1 : 0;
}

/* `xqref bench --judge [--games FILE] [--random N] [--rounds R] [--seed S]
 * [--rules NAME]`. */
static int judge_bench_main(int argc, char **argv)
{
  const char *file = NULL, *rules_name = "cxa2011";
  int ngames = 500, rounds = 5;
  unsigned long long seed = 20240601ULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: xqref bench --judge [--games FILE] [--random N] [--rounds R] [--seed S] "
             "[--rules NAME]\n"
             "Replays games through the full rules and reports plies/s and the mean time\n"
             "of one verdict. --games reads real games from a PGN, XQF or DhtmlXQ file\n"
             "(up to %d). Without --games: N seeded random games (default 500) that\n"
             "cycle now and then, so repetition rulings run too.\n", XQ_BENCH_GAMES_MAX);
      return 0;
    }
    if (!strcmp(argv[i], "--judge")) continue;
    if (i + 1 >= argc) {
      fprintf(stderr, "xqref bench: missing value for %s\n", argv[i]);
      return 2;
    }
    if (!strcmp(argv[i], "--games")) file = argv[++i];
    else if (!strcmp(argv[i], "--random")) ngames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--rules")) rules_name = argv[++i];
    else {
      fprintf(stderr, "xqref bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (ngames < 1 || ngames > XQ_BENCH_GAMES_MAX || rounds < 1) {
    fprintf(stderr, "xqref bench: --random takes 1..%d, --rounds 1 or more\n", XQ_BENCH_GAMES_MAX);
    return 2;
  }
  xq_rules r;
  if (xq_rules_preset(rules_name, &r) != XQ_OK) {
    fprintf(stderr, "xqref bench: unknown rules %s\n", rules_name);
    return 2;
  }
  xq_bench_game *games = malloc(sizeof *games * XQ_BENCH_GAMES_MAX);
  if (!games) {
    fprintf(stderr, "xqref bench: out of memory\n");
    return 1;
  }
  int n = ngames;
  if (file) {
    xq_error err;
    n = xq_bench_games_read(file, games, XQ_BENCH_GAMES_MAX, &err);
    if (n < 0) fprintf(stderr, "xqref bench: %s: %s\n", file, err.msg);
    if (n <= 0) {
      fprintf(stderr, "xqref bench: no games read from %s\n", file);
      free(games);
      return 1;
    }
  } else {
    xq_bench_games_random(games, n, seed);
  }
  int rc = xq_judge_bench(&r, games, n, rounds, stdout);
  free(games);
  if (rc != XQ_OK) {
    fprintf(stderr, "xqref bench: out of memory\n");
    return 1;
  }
  return 0;
}

static const char gen_pgn_usage[] =
  "usage: xqref bench --gen-pgn N OUT.pgn [SEED]\n"
  "\n"
  "Write N games of random legal play (1..10000000) from the start position\n"
  "to OUT.pgn as one PGN file, 40-199 plies each, moves in ICCS, WXF and\n"
  "Chinese in turn: an archive for timing `xqref stats --time`, `xqref bench\n"
  "--judge --games` and the load tools. The same SEED (default 0) writes\n"
  "the same games on every machine.\n";

/* `xqref bench --gen-pgn N OUT.pgn [SEED]`. */
static int gen_pgn_main(int argc, char **argv)
{
  const char *arg[3];
  int nargs = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--gen-pgn")) continue;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(gen_pgn_usage, stdout);
      return 0;
    }
    if (a[0] == '-' && a[1] == '-') {
      fprintf(stderr, "xqref bench: unknown option %s\n\n%s", a, gen_pgn_usage);
      return 2;
    }
    if (nargs == 3) {
      fprintf(stderr, "xqref bench: too many arguments\n\n%s", gen_pgn_usage);
      return 2;
    }
    arg[nargs++] = a;
  }
  if (nargs < 2) {
    fprintf(stderr, "%s", gen_pgn_usage);
    return 2;
  }
  long n = strtol(arg[0], NULL, 10);
  if (n < 1 || n > XQ_GEN_PGN_GAMES_MAX) {
    fprintf(stderr, "xqref bench: N must be 1..%ld\n", XQ_GEN_PGN_GAMES_MAX);
    return 2;
  }
  uint64_t seed = nargs == 3 ? strtoull(arg[2], NULL, 10) : 0;
  FILE *out = fopen(arg[1], "wb");
  if (!out) {
    fprintf(stderr, "xqref bench: cannot create %s\n", arg[1]);
    return 1;
  }
  xq_error err;
  int rc = xq_pgn_write_random(out, n, seed, &err);
  if (fclose(out) != 0 && rc == XQ_OK) {
    rc = XQ_EIO;
    snprintf(err.msg, sizeof err.msg, "write error");
  }
  if (rc != XQ_OK) {
    fprintf(stderr, "xqref bench: %s: %s\n", arg[1], err.msg);
    return 1;
  }
  return 0;
}

/* The variants, each named by an option that may stand anywhere among
 * the arguments (the first one found wins); without one, the perft bench. */
static const struct {
  const char *option;
  int (*run)(int argc, char **argv); /* argv[0] is "bench" */
} variants[] = {
  {"--judge", judge_bench_main},
  {"--gen-pgn", gen_pgn_main},
  {"--store", xq_bench_store_main},
};

int xq_bench_main(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++)
      if (!strcmp(argv[i], variants[k].option)) return variants[k].run(argc, argv);
  return perft_bench_main(argc, argv);
}
