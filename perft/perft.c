/*
 * perft.c -- leaf counting, split by root move and spread over threads,
 * and the perft report (the divide lines and the node count).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "perft.h"

static uint64_t perft_rec(xq_pos *pos, int depth)
{
  xq_movelist list;
  xq_undo u;
  uint64_t n = 0;

  /* Bulk counting: the last ply is counted, not played. */
  if (depth == 1) return (uint64_t)xq_count_legal(pos);
  xq_gen_legal(pos, &list);
  for (int i = 0; i < list.n; i++) {
    xq_make(pos, list.m[i], &u);
    n += perft_rec(pos, depth - 1);
    xq_unmake(pos, list.m[i], &u);
  }
  return n;
}

uint64_t xq_perft(xq_pos *pos, int depth)
{
  if (depth <= 0) return 1;
  return perft_rec(pos, depth);
}

double xq_perft_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Work shared by the divide threads: each takes the next root move. */
typedef struct divide_job {
  const xq_pos *root;
  int depth;
  xq_movelist moves;
  xq_divide_entry *out;
  atomic_int next;
} divide_job;

static void *divide_worker(void *arg)
{
  divide_job *job = arg;
  xq_pos pos = *job->root;
  for (;;) {
    int i = atomic_fetch_add(&job->next, 1);
    if (i >= job->moves.n) break;
    xq_undo u;
    xq_make(&pos, job->moves.m[i], &u);
    job->out[i].move = job->moves.m[i];
    job->out[i].nodes = xq_perft(&pos, job->depth - 1);
    xq_unmake(&pos, job->moves.m[i], &u);
  }
  return NULL;
}

uint64_t xq_perft_divide(const xq_pos *pos, int depth, int threads,
                         xq_divide_entry *out, int *n_out)
{
  divide_job job;
  pthread_t tid[XQ_PERFT_MAX_THREADS];
  int started = 0;
  uint64_t total = 0;

  *n_out = 0;
  if (depth <= 0) return 1;
  if (threads < 1) threads = 1;
  if (threads > XQ_PERFT_MAX_THREADS) threads = XQ_PERFT_MAX_THREADS;
  job.root = pos;
  job.depth = depth;
  job.out = out;
  atomic_init(&job.next, 0);
  xq_gen_legal(pos, &job.moves);
  /* The calling thread works too: threads - 1 helpers. */
  for (int t = 1; t < threads && t < job.moves.n; t++) {
    /* A helper that cannot start just leaves more moves to the others. */
    if (pthread_create(&tid[started], NULL, divide_worker, &job) != 0) break;
    started++;
  }
  divide_worker(&job);
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  for (int i = 0; i < job.moves.n; i++) total += out[i].nodes;
  *n_out = job.moves.n;
  return total;
}

/* ---- the perft report ---------------------------------------------- */

/* Root moves in the order of their ICCS text: file, rank, then the
 * target's file and rank. */
static int cmp_entry_text(const void *a, const void *b)
{
  const xq_divide_entry *x = a, *y = b;
  int d = XQ_FROM(x->move) % 9 - XQ_FROM(y->move) % 9;
  if (!d) d = XQ_FROM(x->move) / 9 - XQ_FROM(y->move) / 9;
  if (!d) d = XQ_TO(x->move) % 9 - XQ_TO(y->move) % 9;
  if (!d) d = XQ_TO(x->move) / 9 - XQ_TO(y->move) / 9;
  return d;
}

void xq_perft_print_divide(FILE *out, const xq_pos *pos, const xq_divide_entry *e, int n)
{
  for (int i = 0; i < n; i++) {
    char text[XQ_MOVE_TEXT_MAX];
    xq_move_format(pos, e[i].move, XQ_NOTE_ICCS, text, sizeof text);
    fprintf(out, "%s: %llu\n", text, (unsigned long long)e[i].nodes);
  }
}

int xq_perft_run(const xq_perft_opts *o, FILE *out, xq_error *err)
{
  xq_pos pos;

  if (!o || !out || o->depth < 0 || o->depth > XQ_PERFT_MAX_DEPTH || o->threads < 1 ||
      o->threads > XQ_PERFT_MAX_THREADS) {
    if (err) {
      err->code = XQ_EINVAL;
      err->pos = err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "perft: NULL argument, or depth or threads out of range");
    }
    return XQ_EINVAL;
  }
  if (o->fen) {
    int rc = xq_fen_parse(&pos, o->fen, 0, err);
    if (rc != XQ_OK) return rc;
  } else {
    xq_pos_startpos(&pos);
  }

  xq_divide_entry entries[XQ_MAX_MOVES];
  int n = 0;
  double t0 = xq_perft_now();
  uint64_t nodes = xq_perft_divide(&pos, o->depth, o->threads, entries, &n);
  double dt = xq_perft_now() - t0;
  if (o->divide) {
    qsort(entries, (size_t)n, sizeof entries[0], cmp_entry_text);
    xq_perft_print_divide(out, &pos, entries, n);
  }
  fprintf(out, "nodes %llu time %.0f ms nps %.0f\n", (unsigned long long)nodes, dt * 1000.0,
          dt > 0 ? (double)nodes / dt : 0.0);
  return XQ_OK;
}
