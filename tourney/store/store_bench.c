/*
 * store_bench.c -- the speed of the game log (docs/store.md; `xqref bench
 * --store`). For each batch size it appends the rows to a new store,
 * BATCH rows per group commit (each commit durable: WAL,
 * synchronous=FULL), spread over BENCH_GAMES games the way a server sees
 * them (moves with increasing sequence numbers and a reply each), and
 * reports rows per second; then it times a full scan and the reply
 * look-ups of a retried message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tourney_internal.h"
#include "store.h"

#define BENCH_GAMES 100 /* games the rows are spread over */

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void remove_db(const char *path)
{
  char side[XQ_STORE_BENCH_PATH_MAX + 8];
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

/* Append `rows` rows in batches of `batch` to a new store at `path`;
 * *took gets the seconds taken. Returns XQ_OK or what the store
 * returned, `err` filled. */
static int run(const char *path, long rows, int batch, double *took, xq_error *err)
{
  static const char *const moves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "b7b3"};
  xq_tstore *st;
  int rc;
  remove_db(path);
  if ((rc = xq_tstore_open(path, XQ_TSTORE_CREATE, &st, err))) return rc;
  int64_t seq[BENCH_GAMES + 1] = {0};
  char reply[128];
  double t0 = now_s();
  for (long i = 0; i < rows && !rc;) {
    if ((rc = xq_tstore_batch_begin(st, err))) break;
    for (int k = 0; k < batch && i < rows && !rc; k++, i++) {
      int board = 1 + (int)(i % BENCH_GAMES);
      xq_tgame_rec r = {.round = 1, .board = board, .source = XQ_GSRC_BOARD, .seq = ++seq[board],
                        .event = moves[seq[board] % 8], .reply = reply};
      snprintf(reply, sizeof reply, "{\"ok\":true,\"seq\":%lld,\"ply\":%lld,\"verdict\":null}",
               (long long)r.seq, (long long)r.seq);
      rc = xq_tstore_game_append(st, &r, NULL, err);
    }
    if (rc) xq_tstore_batch_rollback(st);
    else rc = xq_tstore_batch_commit(st, err);
  }
  *took = now_s() - t0;
  xq_tstore_close(st);
  return rc;
}

/* Time a scan of every row and reply look-ups on the store `run` left. */
static int reads(const char *path, long rows, FILE *out, xq_error *err)
{
  xq_tstore *st;
  int rc = xq_tstore_open(path, XQ_TSTORE_OPEN, &st, err);
  if (rc) return rc;
  long n = 0;
  double t0 = now_s();
  xq_tstore_game_scan(st, 0, 0, count_row, &n, NULL);
  double scan = now_s() - t0;
  fprintf(out, "scan of every game: %ld rows in %.3f s, %.0f rows/s\n", n, scan, n / scan);
  long lookups = rows < 100000 ? rows : 100000, found = 0;
  t0 = now_s();
  for (long i = 0; i < lookups; i++) {
    char *rep;
    int board = 1 + (int)(i % BENCH_GAMES);
    if (!xq_tstore_game_reply(st, 1, board, 1 + i / BENCH_GAMES, &rep)) { found++; free(rep); }
  }
  double look = now_s() - t0;
  fprintf(out, "reply look-ups: %ld of %ld found in %.3f s, %.0f look-ups/s\n", found, lookups, look,
          lookups / look);
  xq_tstore_close(st);
  if (found == lookups) return XQ_OK;
  return xq__error(err, XQ_ESTORE, "%ld of %ld replies not found", lookups - found, lookups);
}

int xq_tstore_bench(const xq_tstore_bench_opts *o, FILE *out, xq_error *err)
{
  static const int batches[] = {1, 50, 500};
  char path[XQ_STORE_BENCH_PATH_MAX];
  if (!o || !o->dir || !out || o->rows < 1 || o->rows > XQ_STORE_BENCH_ROWS_MAX) return XQ_EINVAL;
  if (snprintf(path, sizeof path, "%s/xq_bench_store_%ld.db", o->dir, (long)getpid()) >= (int)sizeof path)
    return xq__error(err, XQ_EINVAL, "the directory's name is too long");
  int rc = XQ_OK;
  for (size_t b = 0; b < sizeof batches / sizeof batches[0] && !rc; b++) {
    double s = 0;
    if ((rc = run(path, o->rows, batches[b], &s, err))) break;
    fprintf(out, "batch %3d: %ld rows in %.3f s, %.0f rows/s, %.0f commits/s\n", batches[b], o->rows, s,
            o->rows / s, (double)(o->rows + batches[b] - 1) / batches[b] / s);
    fflush(out);
  }
  if (!rc) rc = reads(path, o->rows, out, err);
  remove_db(path);
  return rc;
}
