/*
 * bench.c -- `xqref bench`: its options, --help text and exit status; the
 * bench itself is the perft module's (perft/perft.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "perft.h"

static const char bench_usage[] =
  "usage: xqref bench [--threads T] [--quick]\n"
  "\n"
  "Run perft on a fixed set of positions and print, per position and in\n"
  "total, nodes, time and nodes per second. Each count is checked against\n"
  "the perft suite; a mismatch makes the exit status 1.\n"
  "\n"
  "  --threads T   root moves shared by T threads (default 1)\n"
  "  --quick       one ply less everywhere (a short signature run)\n";


/* `xqref bench [--threads T] [--quick]`. */
int xq_bench_main(int argc, char **argv)
{
  xq_bench_opts o = {1, 0};
  xq_error err;

  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(bench_usage, stdout);
      return 0;
    } else if (!strcmp(argv[i], "--quick")) {
      o.quick = 1;
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || v < 1 || v > XQ_PERFT_MAX_THREADS) {
        fprintf(stderr, "xqref bench: --threads must be 1..%d\n", XQ_PERFT_MAX_THREADS);
        return 2;
      }
      o.threads = (int)v;
    } else {
      fprintf(stderr, "xqref bench: unknown or incomplete option '%s'\n%s", argv[i],
              bench_usage);
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
