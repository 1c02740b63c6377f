/*
 * bench_store.c -- `xqref bench --store [ROWS [DIR]]`: the speed of the
 * store's game log (xq_tstore_bench, tourney/store/bench.c;
 * docs/store.md).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "store/store.h"
#include "tourney.h"

#define BENCH_STORE_ROWS 100000 /* rows per batch size without ROWS */

static const char usage_text[] =
  "usage: xqref bench --store [ROWS [DIR]]\n"
  "Appends ROWS game-log rows (default 100000) to a new store in DIR\n"
  "(default /tmp) in group commits of 1, 50 and 500 rows, each durable, and\n"
  "prints rows and commits per second; then the time of a scan of every row\n"
  "and of reply look-ups. The store is removed at the end.\n";

int xq_bench_store_main(int argc, char **argv)
{
  xq_tstore_bench_opts o = {.rows = BENCH_STORE_ROWS, .dir = "/tmp"};
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (!strcmp(a, "--store")) continue;
    if (a[0] == '-' || npos == 2) {
      fprintf(stderr, "xqref bench: unexpected argument '%s'\n%s", a, usage_text);
      return 2;
    }
    if (npos++ == 1) {
      o.dir = a;
    } else if (!xq__cli_number(a, 1, XQ_STORE_BENCH_ROWS_MAX, &o.rows)) {
      fprintf(stderr, "xqref bench: ROWS must be 1..%ld\n", XQ_STORE_BENCH_ROWS_MAX);
      return 2;
    }
  }
  xq_error err = {0};
  int rc = xq_tstore_bench(&o, stdout, &err);
  if (fflush(stdout) && !rc) rc = XQ_EIO;
  if (rc) {
    fprintf(stderr, "xqref bench: %s\n", err.msg[0] ? err.msg : xq_tourney_strerror(rc));
    return 1;
  }
  return 0;
}
