/*
 * perft.c -- leaf counting: the plain recursion, and the one through the
 * shared transposition table (perft/table.h).
 */
#include <time.h>

#include "table.h"

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

/* perft_rec for depth >= 1 with the table: *k holds pos's keys. Even a
 * last-but-one ply is looked up: a lookup whose line the parent has
 * prefetched costs less than counting some 40 moves' replies. */
static uint64_t perft_hash_rec(xq_pos *pos, const xq__perft_keys *k, int depth,
                               xq_perft_table *t)
{
  xq_movelist list;
  xq_undo u;
  uint64_t n = 0, idx, ver;

  xq__perft_canon(k, &idx, &ver);
  if (xq__perft_probe(t, idx, ver, depth, &n)) return n;
  if (depth == 1) {
    n = (uint64_t)xq_count_legal(pos);
  } else {
    /* The children's buckets first, so their lines are on the way while
     * the moves are played. */
    xq__perft_keys kc[XQ_MAX_MOVES];
    xq_gen_legal(pos, &list);
    for (int i = 0; i < list.n; i++) {
      uint64_t ci, cv;
      xq__perft_keys_after(pos, list.m[i], k, &kc[i]);
      xq__perft_canon(&kc[i], &ci, &cv);
      __builtin_prefetch(xq__perft_bucket_of(t, ci));
    }
    for (int i = 0; i < list.n; i++) {
      xq_make(pos, list.m[i], &u);
      n += perft_hash_rec(pos, &kc[i], depth - 1, t);
      xq_unmake(pos, list.m[i], &u);
    }
  }
  xq__perft_store(t, idx, ver, depth, n);
  return n;
}

uint64_t xq_perft_hashed(xq_pos *pos, int depth, xq_perft_table *t)
{
  xq__perft_keys k;
  if (!t || depth < 1) return xq_perft(pos, depth);
  xq__perft_keys_of(pos, &k);
  return perft_hash_rec(pos, &k, depth, t);
}

double xq_perft_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
