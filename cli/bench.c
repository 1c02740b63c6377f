/*
 * bench.c -- `xqref bench` and its variants: their options, --help texts
 * and exit statuses. Plain `bench` is the perft bench (perft/perft.h);
 * `bench --judge` the adjudicator's throughput (adjudicator/adjudicator.h);
 * `bench --gen-pgn` writes an archive of random games to measure with
 * (records/records.h); `bench --store` the game log's group commit
 * (bench_store.c). The option that names a variant may stand anywhere on
 * the command line.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "cli.h"
#include "opts.h"
#include "paths.h"
#include "perft.h"
#include "records.h"

static const xq__opt perft_bench_rows[] = {
  XQ__INT("--threads", xq_bench_opts, threads, 1, XQ_PERFT_MAX_THREADS, "T", "ply-2 subtrees shared by T threads (default 1)"),
  XQ__FLAG("--quick", xq_bench_opts, quick, 1, "one ply less everywhere (a short signature run)"),
  XQ__INT("--hash", xq_bench_opts, hash_mb, 1, XQ_PERFT_HASH_MAX_MB, "MB",
          "count through a fresh transposition table of MB MiB per\n"
          "position (default " XQ__OPT_TEXT(XQ_PERFT_BENCH_HASH_MB) "): the hashed figures, same counts",
          .flags = XQ__OPT_OPTIONAL, .dflt = XQ_PERFT_BENCH_HASH_MB),
};

/* What `bench --judge` was asked for. */
typedef struct judge_bench_opts {
  int judge; /* the option that names the variant */
  const char *file, *rules;
  int ngames, rounds;
  uint64_t seed;
} judge_bench_opts;

static const xq__opt judge_bench_rows[] = {
  XQ__FLAG("--judge", judge_bench_opts, judge, 1, "the adjudicator's bench", .flags = XQ__OPT_REQUIRED),
  XQ__STR("--games", judge_bench_opts, file, "FILE",
          "real games from a PGN, XQF or DhtmlXQ file (up to " XQ__OPT_TEXT(XQ_BENCH_GAMES_MAX) ")"),
  XQ__INT("--random", judge_bench_opts, ngames, 1, XQ_BENCH_GAMES_MAX, "N",
          "without --games: N seeded random games (default 500) that\n"
          "cycle now and then, so repetition rulings run too"),
  XQ__INT("--rounds", judge_bench_opts, rounds, 1, INT_MAX, "R", "replay every game R times (default 5)"),
  XQ__U64("--seed", judge_bench_opts, seed, "S", "the random games' seed (default 20240601)"),
  XQ__STR("--rules", judge_bench_opts, rules, "NAME", "the rules preset (default cxa2011)"),
};

static const xq__cmd judge_bench_cmd = {
  .name = "bench",
  .about = "bench --judge replays games through the full rules and reports plies/s\n"
           "and the mean time of one verdict.\n",
  .opts = judge_bench_rows,
  .nopts = XQ__NROWS(judge_bench_rows),
};

/* `xqref bench --judge [--games FILE] [--random N] [--rounds R] [--seed S]
 * [--rules NAME]`. */
static int judge_bench_main(int argc, char **argv)
{
  judge_bench_opts o = {.rules = "cxa2011", .ngames = 500, .rounds = 5, .seed = 20240601ULL};
  int status = xq__opts_parse(&judge_bench_cmd, argc, argv, &o, NULL, NULL);
  if (status >= 0) return status;
  xq_rules r;
  if (xq_rules_preset(o.rules, &r) != XQ_OK) {
    fprintf(stderr, "xqref bench: unknown rules %s\n", o.rules);
    return 2;
  }
  xq_bench_game *games = malloc(sizeof *games * XQ_BENCH_GAMES_MAX);
  if (!games) {
    fprintf(stderr, "xqref bench: out of memory\n");
    return 1;
  }
  int n = o.ngames;
  if (o.file) {
    xq_error err;
    n = xq_bench_games_read(o.file, games, XQ_BENCH_GAMES_MAX, &err);
    if (n < 0) fprintf(stderr, "xqref bench: %s: %s\n", o.file, err.msg);
    if (n <= 0) {
      fprintf(stderr, "xqref bench: no games read from %s\n", o.file);
      free(games);
      return 1;
    }
  } else {
    xq_bench_games_random(games, n, o.seed);
  }
  int rc = xq_judge_bench(&r, games, n, o.rounds, stdout);
  free(games);
  if (rc != XQ_OK) {
    fprintf(stderr, "xqref bench: out of memory\n");
    return 1;
  }
  return 0;
}

/* `bench --gen-pgn` has one option, the one that names it. */
typedef struct gen_pgn_opts {
  int gen_pgn;
} gen_pgn_opts;

static const xq__opt gen_pgn_rows[] = {
  XQ__FLAG("--gen-pgn", gen_pgn_opts, gen_pgn, 1, "write random games", .flags = XQ__OPT_REQUIRED),
};

static const xq__cmd gen_pgn_cmd = {
  .name = "bench",
  .args = "N OUT.pgn [SEED]",
  .args_max = 3,
  .about = "bench --gen-pgn writes N games of random legal play (1..10000000)\n"
           "from the start position to OUT.pgn as one PGN file, 40-199 plies each,\n"
           "moves in ICCS, WXF and Chinese in turn: an archive for timing\n"
           "`xqref stats --time`, `xqref bench --judge --games` and the load tools.\n"
           "The same SEED (default 0) writes the same games on every machine.\n",
  .opts = gen_pgn_rows,
  .nopts = XQ__NROWS(gen_pgn_rows),
};

/* `xqref bench --gen-pgn N OUT.pgn [SEED]`. */
static int gen_pgn_main(int argc, char **argv)
{
  gen_pgn_opts o = {0};
  const char *arg[3];
  int nargs;
  int status = xq__opts_parse(&gen_pgn_cmd, argc, argv, &o, arg, &nargs);
  if (status >= 0) return status;
  if (nargs < 2) return xq__opts_error(&gen_pgn_cmd, "N and OUT.pgn are required");
  long long n;
  if (!xq__opts_number(arg[0], 1, XQ_GEN_PGN_GAMES_MAX, &n)) {
    fprintf(stderr, "xqref bench: N must be 1..%ld\n", XQ_GEN_PGN_GAMES_MAX);
    return 2;
  }
  char *end;
  errno = 0;
  uint64_t seed = nargs == 3 ? strtoull(arg[2], &end, 10) : 0;
  if (nargs == 3 && (!isdigit((unsigned char)arg[2][0]) || *end || errno)) {
    fprintf(stderr, "xqref bench: SEED must be a whole number, not '%s'\n", arg[2]);
    return 2;
  }
  xq__paths_out w;
  if (xq__paths_open("bench", arg[1], &w)) return 1;
  xq_error err;
  int rc = xq_pgn_write_random(w.f, (long)n, seed, &err);
  if (xq__paths_close(&w, rc == XQ_OK)) return 1;
  if (rc != XQ_OK) {
    fprintf(stderr, "xqref bench: %s: %s\n", arg[1], err.msg);
    return 1;
  }
  return 0;
}

/* The other benches, each named by its option: `bench --help` shows them
 * all. */
static const xq__cmd *const bench_variants[] = {&judge_bench_cmd, &gen_pgn_cmd, &xq__bench_store_cmd, NULL};

static const xq__cmd perft_bench_cmd = {
  .name = "bench",
  .about = "bench runs perft on a fixed set of positions and prints, per position\n"
           "and in total, nodes, time and nodes per second. Each count is checked against\n"
           "the perft suite; a mismatch makes the exit status 1.\n",
  .after = "Each variant's own help: xqref bench --judge --help (--gen-pgn, --store).\n",
  .opts = perft_bench_rows,
  .nopts = XQ__NROWS(perft_bench_rows),
  .variants = bench_variants,
};

/* `xqref bench [--threads T] [--quick] [--hash [MB]]`. */
static int perft_bench_main(int argc, char **argv)
{
  xq_bench_opts o = {1, 0, 0};
  xq_error err;
  int status = xq__opts_parse(&perft_bench_cmd, argc, argv, &o, NULL, NULL);
  if (status >= 0) return status;
  int bad = xq_perft_bench(&o, stdout, &err);
  if (bad < 0) {
    fprintf(stderr, "xqref bench: %s\n", err.msg);
    return 1;
  }
  if (bad) fprintf(stderr, "xqref bench: node counts differ from the perft suite\n");
  return bad ? 1 : 0;
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
