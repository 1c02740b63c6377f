/*
 * bench_store.c -- xq_bench_store, a benchmark helper: the speed of the
 * game log (docs/store.md). For each batch size it appends ROWS rows to a
 * new store, BATCH rows per group commit (each commit durable: WAL,
 * synchronous=FULL), spread over 100 games the way a server sees them
 * (moves with increasing sequence numbers and a reply each), and prints
 * rows per second; then it times a full scan and the reply look-ups of a
 * retried message.
 *
 *   xq_bench_store [ROWS [DIR]]      (defaults: 100000, /tmp)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tourney.h"

#define BENCH_ROWS_MAX 100000000L
#define BENCH_GAMES 100

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void remove_db(const char *path)
{
  char side[600];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

static int count_row(void *ctx, const xq_tgame_rec *r)
{
  (void)r;
  ++*(long *)ctx;
  return 0;
}

/* Append `rows` rows in batches of `batch`; returns the seconds taken or
 * a negative value on failure. */
static double run(const char *path, long rows, int batch)
{
  static const char *const moves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "b7b3"};
  xq_tstore *st;
  xq_error err = {0};
  remove_db(path);
  if (xq_tstore_open(path, 1, &st, &err)) { fprintf(stderr, "xq_bench_store: %s\n", err.msg); return -1; }
  int64_t seq[BENCH_GAMES + 1] = {0};
  char reply[128];
  double t0 = now_s();
  for (long i = 0; i < rows;) {
    if (xq_tstore_batch_begin(st, &err)) break;
    for (int k = 0; k < batch && i < rows; k++, i++) {
      int board = 1 + (int)(i % BENCH_GAMES);
      xq_tgame_rec r = {.round = 1, .board = board, .source = XQ_GSRC_BOARD, .seq = ++seq[board],
                        .event = moves[seq[board] % 8], .reply = reply};
      snprintf(reply, sizeof reply, "{\"ok\":true,\"seq\":%lld,\"ply\":%lld,\"verdict\":null}",
               (long long)r.seq, (long long)r.seq);
      if (xq_tstore_game_append(st, &r, NULL, &err)) { i = rows + 1; break; }
    }
    if (i > rows || xq_tstore_batch_commit(st, &err)) {
      fprintf(stderr, "xq_bench_store: %s\n", err.msg);
      xq_tstore_close(st);
      return -1;
    }
  }
  double took = now_s() - t0;
  xq_tstore_close(st);
  return took;
}

/* Time a scan of every row and reply look-ups on the store `run` left. */
static int reads(const char *path, long rows)
{
  xq_tstore *st;
  xq_error err = {0};
  if (xq_tstore_open(path, 0, &st, &err)) { fprintf(stderr, "xq_bench_store: %s\n", err.msg); return 1; }
  long n = 0;
  double t0 = now_s();
  xq_tstore_game_scan(st, 0, 0, count_row, &n, NULL);
  double scan = now_s() - t0;
  printf("scan of every game: %ld rows in %.3f s, %.0f rows/s\n", n, scan, n / scan);
  long lookups = rows < 100000 ? rows : 100000, found = 0;
  t0 = now_s();
  for (long i = 0; i < lookups; i++) {
    char *rep;
    int board = 1 + (int)(i % BENCH_GAMES);
    if (!xq_tstore_game_reply(st, 1, board, 1 + i / BENCH_GAMES, &rep)) { found++; free(rep); }
  }
  double look = now_s() - t0;
  printf("reply look-ups: %ld of %ld found in %.3f s, %.0f look-ups/s\n", found, lookups, look, lookups / look);
  xq_tstore_close(st);
  return found == lookups ? 0 : 1;
}

int main(int argc, char **argv)
{
  long rows = 100000;
  const char *dir = "/tmp";
  if (argc > 3 || (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))) {
    fprintf(stderr, "usage: xq_bench_store [ROWS [DIR]]\n");
    return 2;
  }
  if (argc > 1) {
    char *end;
    rows = strtol(argv[1], &end, 10);
    if (*end || rows < 1 || rows > BENCH_ROWS_MAX) {
      fprintf(stderr, "xq_bench_store: ROWS must be 1..%ld\n", BENCH_ROWS_MAX);
      return 2;
    }
  }
  if (argc > 2) dir = argv[2];
  char path[512];
  snprintf(path, sizeof path, "%s/xq_bench_store_%ld.db", dir, (long)getpid());
  static const int batches[] = {1, 50, 500};
  for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
    double s = run(path, rows, batches[b]);
    if (s < 0) { remove_db(path); return 1; }
    printf("batch %3d: %ld rows in %.3f s, %.0f rows/s, %.0f commits/s\n", batches[b], rows, s, rows / s,
           (double)(rows + batches[b] - 1) / batches[b] / s);
    fflush(stdout);
  }
  int rc = reads(path, rows);
  remove_db(path);
  return rc;
}
