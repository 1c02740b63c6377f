/*
 * bench_store.c -- `xqref bench --store [ROWS [DIR]]`: the speed of the
 * store's game log (xq_tstore_bench, tourney/store/bench.c;
 * docs/store.md).
 */
#include <stdio.h>

#include "cli.h"
#include "opts.h"
#include "store/store.h"
#include "tourney.h"

/* `bench --store` has one option, the one that names it. */
typedef struct store_bench_opts {
  int store;
} store_bench_opts;

static const xq__opt store_bench_rows[] = {
  XQ__FLAG("--store", store_bench_opts, store, 1, "the game log's bench", .flags = XQ__OPT_REQUIRED),
};

const xq__cmd xq__bench_store_cmd = {
  .name = "bench",
  .args = "[ROWS [DIR]]",
  .args_max = 2,
  .about = "bench --store appends ROWS game-log rows (default 100000) to a new\n"
           "store in DIR (default /tmp) in group commits of 1, 50 and 500 rows, each\n"
           "durable, and prints rows and commits per second; then the time of a scan\n"
           "of every row and of reply look-ups. The store is removed at the end.\n",
  .opts = store_bench_rows,
  .nopts = XQ__NROWS(store_bench_rows),
};

int xq_bench_store_main(int argc, char **argv)
{
  xq_tstore_bench_opts o = {.rows = XQ_CLI_BENCH_STORE_ROWS, .dir = "/tmp"};
  store_bench_opts so = {0};
  const char *arg[2];
  int nargs;
  int status = xq__opts_parse(&xq__bench_store_cmd, argc, argv, &so, arg, &nargs);
  if (status >= 0) return status;
  long long rows;
  if (nargs >= 1 && !xq__opts_number(arg[0], 1, XQ_STORE_BENCH_ROWS_MAX, &rows)) {
    fprintf(stderr, "xqref bench: ROWS must be 1..%ld\n", XQ_STORE_BENCH_ROWS_MAX);
    return 2;
  }
  if (nargs >= 1) o.rows = (long)rows;
  if (nargs == 2) o.dir = arg[1];
  xq_error err = {0};
  int rc = xq_tstore_bench(&o, stdout, &err);
  if (fflush(stdout) && !rc) rc = XQ_EIO;
  if (rc) {
    fprintf(stderr, "xqref bench: %s\n", err.msg[0] ? err.msg : xq_strerror(rc));
    return 1;
  }
  return 0;
}
