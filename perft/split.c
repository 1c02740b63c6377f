/*
 * split.c -- perft shared by threads below the root: the subtrees of the
 * ply-2 moves form one queue, taken a subtree at a time in root-move
 * order, so the threads stay busy to the end whatever the sizes of the
 * root moves; a root move is reported when its last subtree is counted.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "perft.h"

/* One ply-2 subtree: the root move's index and the reply. */
typedef struct split_item {
  uint8_t root;
  xq_move reply;
} split_item;

typedef struct split_job {
  const xq_pos *root;
  const xq_perft_ctl *ctl;
  int depth;
  xq_movelist moves;                  /* root moves */
  xq_divide_entry *out;
  split_item items[XQ_MAX_MOVES * XQ_MAX_MOVES];
  int n_items;
  atomic_int next;                    /* next item to take */
  _Atomic uint64_t nodes[XQ_MAX_MOVES]; /* per root move, so far */
  atomic_int left[XQ_MAX_MOVES];      /* items of each root move not done */
  _Atomic uint64_t done_nodes;        /* leaves of the finished items */
  atomic_int done_items;
  pthread_mutex_t lock;               /* serializes the callbacks */
  int roots_done;                     /* under lock */
  double t0, next_report;             /* next_report under lock */
} split_job;

/* Root move r is complete: record it and report it (lock held). */
static void root_done(split_job *job, int r, double now)
{
  job->out[r].nodes = atomic_load(&job->nodes[r]);
  job->roots_done++;
  if (job->ctl->on_root) job->ctl->on_root(job->ctl->ctx, &job->out[r], now - job->t0);
}

/* After an item: a progress report when one is due. */
static void maybe_progress(split_job *job)
{
  const xq_perft_ctl *c = job->ctl;
  if (!c->on_progress || c->progress_every <= 0) return;
  double now = xq_perft_now();
  if (now < job->next_report) return; /* a racy peek; checked again under the lock */
  pthread_mutex_lock(&job->lock);
  if (now >= job->next_report) {
    job->next_report = now + c->progress_every;
    xq_perft_status s = {job->roots_done, job->moves.n, atomic_load(&job->done_items),
                         job->n_items, atomic_load(&job->done_nodes), now - job->t0};
    c->on_progress(c->ctx, &s);
  }
  pthread_mutex_unlock(&job->lock);
}

static void *split_worker(void *arg)
{
  split_job *job = arg;
  xq_pos pos = *job->root;
  for (;;) {
    int k = atomic_fetch_add(&job->next, 1);
    if (k >= job->n_items) break;
    int r = job->items[k].root;
    xq_undo u1, u2;
    xq_make(&pos, job->moves.m[r], &u1);
    xq_make(&pos, job->items[k].reply, &u2);
    uint64_t n = xq_perft_hashed(&pos, job->depth - 2, job->ctl->table);
    xq_unmake(&pos, job->items[k].reply, &u2);
    xq_unmake(&pos, job->moves.m[r], &u1);
    atomic_fetch_add(&job->nodes[r], n);
    atomic_fetch_add(&job->done_nodes, n);
    atomic_fetch_add(&job->done_items, 1);
    if (atomic_fetch_sub(&job->left[r], 1) == 1) {
      double now = xq_perft_now();
      pthread_mutex_lock(&job->lock);
      root_done(job, r, now);
      pthread_mutex_unlock(&job->lock);
    }
    maybe_progress(job);
  }
  return NULL;
}

/* Depths 1 and 2, and root moves without replies: counted at once. Lists
 * the ply-2 items for depth >= 3. */
static void split_plan(split_job *job)
{
  xq_pos pos = *job->root;
  job->n_items = 0;
  for (int r = 0; r < job->moves.n; r++) {
    xq_undo u;
    xq_movelist replies;
    job->out[r].move = job->moves.m[r];
    xq_make(&pos, job->moves.m[r], &u);
    xq_gen_legal(&pos, &replies);
    xq_unmake(&pos, job->moves.m[r], &u);
    uint64_t now_known = job->depth == 1 ? 1 : job->depth == 2 ? (uint64_t)replies.n : 0;
    atomic_init(&job->nodes[r], now_known);
    atomic_init(&job->left[r], job->depth >= 3 ? replies.n : 0);
    if (job->depth >= 3)
      for (int i = 0; i < replies.n; i++) {
        job->items[job->n_items].root = (uint8_t)r;
        job->items[job->n_items++].reply = replies.m[i];
      }
    if (job->depth < 3 || replies.n == 0) root_done(job, r, xq_perft_now());
  }
}

uint64_t xq_perft_split(const xq_pos *pos, int depth, const xq_perft_ctl *ctl,
                        xq_divide_entry *out, int *n_out)
{
  static const xq_perft_ctl plain = {1, NULL, NULL, NULL, 0, NULL};
  pthread_t tid[XQ_PERFT_MAX_THREADS];
  int started = 0, threads = ctl ? ctl->threads : 1;
  uint64_t total = 0;

  *n_out = 0;
  if (depth <= 0) return 1;
  if (threads < 1) threads = 1;
  if (threads > XQ_PERFT_MAX_THREADS) threads = XQ_PERFT_MAX_THREADS;
  split_job job; /* about 70 KB: the queue holds every ply-2 move */
  job.root = pos;
  job.ctl = ctl ? ctl : &plain;
  job.depth = depth;
  job.out = out;
  job.roots_done = 0;
  job.t0 = xq_perft_now();
  job.next_report = job.t0 + job.ctl->progress_every;
  atomic_init(&job.next, 0);
  atomic_init(&job.done_nodes, 0);
  atomic_init(&job.done_items, 0);
  pthread_mutex_init(&job.lock, NULL);
  xq_gen_legal(pos, &job.moves);
  split_plan(&job);
  /* The calling thread works too: threads - 1 helpers. */
  for (int t = 1; t < threads && t < job.n_items; t++) {
    /* A helper that cannot start just leaves more items to the others. */
    if (pthread_create(&tid[started], NULL, split_worker, &job) != 0) break;
    started++;
  }
  split_worker(&job);
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  pthread_mutex_destroy(&job.lock);
  for (int i = 0; i < job.moves.n; i++) total += out[i].nodes;
  *n_out = job.moves.n;
  return total;
}

uint64_t xq_perft_divide(const xq_pos *pos, int depth, int threads,
                         xq_divide_entry *out, int *n_out)
{
  xq_perft_ctl c = {threads, NULL, NULL, NULL, 0, NULL};
  return xq_perft_split(pos, depth, &c, out, n_out);
}
