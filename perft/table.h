/*
 * table.h -- the perft transposition table shared by the perft files:
 * (key, depth, count) entries that the threads read and write without
 * locks, and the second, independent key that verifies them. Internal
 * to perft/ (and its tests).
 *
 * A position is looked up by two independent 64-bit Zobrist keys, both
 * covering the placement and the side to move: the second key
 * (xq__perft_key2, kept by the perft recursion itself, so a parent knows
 * its children's buckets before playing their moves and prefetches them)
 * chooses the bucket; the engine's pos->key is stored in the entry. An
 * entry is two words, lock = pos->key ^ data and data = count << 8 |
 * depth, written and read as independent relaxed atomics: a reader that
 * sees the lock of one write and the data of another finds lock ^ data !=
 * pos->key and treats the entry as absent, so torn entries cost a miss,
 * never a wrong count.
 */
#ifndef XQ_PERFT_TABLE_H
#define XQ_PERFT_TABLE_H

#include <stdatomic.h>

#include "perft.h"

#define XQ__PERFT_WAYS 4             /* entries per bucket: one 64-byte line */
#define XQ__PERFT_COUNT_BITS 56      /* counts from 2^56 up are not stored */
#define XQ__PERFT_HUGE_PAGE ((size_t)2 << 20) /* tables are aligned to a 2 MiB page */

typedef struct xq__perft_entry {
  _Atomic uint64_t lock; /* pos->key ^ data */
  _Atomic uint64_t data; /* count << 8 | depth; 0: empty */
} xq__perft_entry;

typedef struct xq__perft_bucket {
  _Alignas(64) xq__perft_entry e[XQ__PERFT_WAYS];
} xq__perft_bucket;

struct xq_perft_table {
  xq__perft_bucket *b; /* nb buckets, 64-byte aligned */
  size_t nb;
  void *raw;           /* the mapping that holds b[], for munmap */
  size_t raw_size;
};

/* Second-key numbers: per piece id (ids of one colour and kind share
 * theirs, as interchangeable pieces must) and square, and the side to
 * move. Filled once by xq_perft_table_new; drawn from a splitmix64 stream
 * of its own seed, independent of the engine's Zobrist numbers. */
extern uint64_t xq__perft_z2[XQ_PIDS][XQ_SQUARES];
extern uint64_t xq__perft_z2_side;

/* Fill the second-key numbers (once; safe from any thread). */
void xq__perft_key2_init(void);

/* The second key of `pos` from scratch (xq__perft_key2_init first). */
uint64_t xq__perft_key2(const xq_pos *pos);

/* The second key after legal move `m` of `pos`, whose key is `k2`. */
static inline uint64_t xq__perft_key2_after(const xq_pos *pos, xq_move m, uint64_t k2)
{
  int from = XQ_FROM(m), to = XQ_TO(m), pid = pos->board[from], cap = pos->board[to];
  k2 ^= xq__perft_z2_side ^ xq__perft_z2[pid][from] ^ xq__perft_z2[pid][to];
  if (cap != XQ_NO_PID) k2 ^= xq__perft_z2[cap][to];
  return k2;
}

/* The bucket of the position whose second key is `k2`. */
static inline xq__perft_bucket *xq__perft_bucket_of(const xq_perft_table *t, uint64_t k2)
{
  return &t->b[(size_t)(((unsigned __int128)k2 * t->nb) >> 64)];
}

/* True, with the count in *n, when the table holds the position of keys
 * k2 (second) and k1 (the engine's) at `depth`. */
static inline int xq__perft_probe(const xq_perft_table *t, uint64_t k2, uint64_t k1, int depth,
                                  uint64_t *n)
{
  xq__perft_bucket *b = xq__perft_bucket_of(t, k2);
  for (int i = 0; i < XQ__PERFT_WAYS; i++) {
    uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
    uint64_t l = atomic_load_explicit(&b->e[i].lock, memory_order_relaxed);
    if ((l ^ d) == k1 && (int)(d & 0xFF) == depth) {
      *n = d >> 8;
      return 1;
    }
  }
  return 0;
}

/* Record `n` leaves at `depth` (1..255) for the position of keys k2, k1,
 * over the shallowest entry of its bucket (the first of equals). Counts
 * of 2^XQ__PERFT_COUNT_BITS and more are not recorded. */
static inline void xq__perft_store(xq_perft_table *t, uint64_t k2, uint64_t k1, int depth,
                                   uint64_t n)
{
  if (n >> XQ__PERFT_COUNT_BITS) return;
  xq__perft_bucket *b = xq__perft_bucket_of(t, k2);
  int victim = 0, shallowest = 256;
  for (int i = 0; i < XQ__PERFT_WAYS; i++) {
    int dep = (int)(atomic_load_explicit(&b->e[i].data, memory_order_relaxed) & 0xFF);
    if (dep < shallowest) {
      shallowest = dep;
      victim = i;
    }
  }
  uint64_t d = n << 8 | (uint64_t)depth;
  atomic_store_explicit(&b->e[victim].lock, k1 ^ d, memory_order_relaxed);
  atomic_store_explicit(&b->e[victim].data, d, memory_order_relaxed);
}

#endif /* XQ_PERFT_TABLE_H */
