/*
 * table.h -- the perft transposition table shared by the perft files:
 * (key, depth, count) entries that the threads read and write without
 * locks, and the second, independent key that verifies them. Internal
 * to perft/ (and its tests).
 *
 * A position is looked up by its perft keys (xq__perft_keys): two
 * independent 64-bit Zobrist keys of the placement and the side to move,
 * and the same two of its mirror image (files a-i swapped). The rules are
 * symmetric about the e file, so a position and its mirror have the same
 * counts: the table uses whichever of the two pairs has the smaller first
 * key (xq__perft_canon), and a subtree is counted once for both. The
 * recursion keeps the keys itself, so a parent knows its children's
 * buckets before playing their moves and prefetches them. Of the chosen
 * pair, `idx` picks the bucket and `ver` is stored in the entry. An entry
 * is two words, lock = ver ^ data and data = count << 8 | depth, written
 * and read as independent relaxed atomics: a reader that sees the lock of
 * one write and the data of another finds lock ^ data != ver and treats
 * the entry as absent, so torn entries cost a miss, never a wrong count.
 */
#ifndef XQ_PERFT_TABLE_H
#define XQ_PERFT_TABLE_H

#include <stdatomic.h>

#include "perft.h"

/* ---- limits -------------------------------------------------------- */

#define XQ__PERFT_WAYS 4             /* entries per bucket: four 16-byte entries fill
                                        one 64-byte cache line */
#define XQ__PERFT_COUNT_BITS 56      /* counts from 2^56 up are not stored: the data
                                        word keeps 8 bits for the depth */
#define XQ__PERFT_HUGE_PAGE ((size_t)2 << 20) /* tables are aligned to a 2 MiB page, the
                                        size of a huge page on x86-64 */

typedef struct xq__perft_entry {
  _Atomic uint64_t lock; /* ver ^ data */
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

/* The perft keys of a position: a, b its two keys, am, bm those of its
 * mirror image. */
typedef struct xq__perft_keys {
  uint64_t a, b, am, bm;
} xq__perft_keys;

/* Key numbers per piece id (ids of one colour and kind share theirs, as
 * interchangeable pieces must) and point, with the mirrored point's in
 * am, bm; and the side to move's. Filled once by xq_perft_table_new, from
 * a splitmix64 stream of their own seed. */
extern xq__perft_keys xq__perft_z[XQ_PIDS][XQ_SQUARES];
extern xq__perft_keys xq__perft_z_side;

/* Fill the key numbers (once; safe from any thread). */
void xq__perft_keys_init(void);

/* The keys of `pos` from scratch (xq__perft_keys_init first). */
void xq__perft_keys_of(const xq_pos *pos, xq__perft_keys *k);

static inline void xq__perft_keys_xor(xq__perft_keys *k, const xq__perft_keys *z)
{
  k->a ^= z->a;
  k->b ^= z->b;
  k->am ^= z->am;
  k->bm ^= z->bm;
}

/* The keys after legal move `m` of `pos`, whose keys are *k, into *out. */
static inline void xq__perft_keys_after(const xq_pos *pos, xq_move m, const xq__perft_keys *k,
                                        xq__perft_keys *out)
{
  int from = XQ_FROM(m), to = XQ_TO(m), pid = pos->board[from], cap = pos->board[to];
  *out = *k;
  xq__perft_keys_xor(out, &xq__perft_z_side);
  xq__perft_keys_xor(out, &xq__perft_z[pid][from]);
  xq__perft_keys_xor(out, &xq__perft_z[pid][to]);
  if (cap != XQ_NO_PID) xq__perft_keys_xor(out, &xq__perft_z[cap][to]);
}

/* The pair the table uses: the same for a position and its mirror. */
static inline void xq__perft_canon(const xq__perft_keys *k, uint64_t *idx, uint64_t *ver)
{
  int mirror = k->am < k->a;
  *idx = mirror ? k->am : k->a;
  *ver = mirror ? k->bm : k->b;
}

/* The bucket of the position whose pair is (idx, ...). */
static inline xq__perft_bucket *xq__perft_bucket_of(const xq_perft_table *t, uint64_t idx)
{
  return &t->b[(size_t)(((unsigned __int128)idx * t->nb) >> 64)];
}

/* True, with the count in *n, when the table holds the position of pair
 * (idx, ver) at `depth`. */
static inline int xq__perft_probe(const xq_perft_table *t, uint64_t idx, uint64_t ver, int depth,
                                  uint64_t *n)
{
  xq__perft_bucket *b = xq__perft_bucket_of(t, idx);
  for (int i = 0; i < XQ__PERFT_WAYS; i++) {
    uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
    uint64_t l = atomic_load_explicit(&b->e[i].lock, memory_order_relaxed);
    if ((l ^ d) == ver && (int)(d & 0xFF) == depth) {
      *n = d >> 8;
      return 1;
    }
  }
  return 0;
}

/* Record `n` leaves at `depth` (1..255) for the position of pair (idx,
 * ver), over the shallowest entry of its bucket (the first of equals).
 * Counts of 2^XQ__PERFT_COUNT_BITS and more are not recorded. */
static inline void xq__perft_store(xq_perft_table *t, uint64_t idx, uint64_t ver, int depth,
                                   uint64_t n)
{
  if (n >> XQ__PERFT_COUNT_BITS) return;
  xq__perft_bucket *b = xq__perft_bucket_of(t, idx);
  int victim = 0, shallowest = 256;
  for (int i = 0; i < XQ__PERFT_WAYS; i++) {
    int dep = (int)(atomic_load_explicit(&b->e[i].data, memory_order_relaxed) & 0xFF);
    if (dep < shallowest) {
      shallowest = dep;
      victim = i;
    }
  }
  uint64_t d = n << 8 | (uint64_t)depth;
  atomic_store_explicit(&b->e[victim].lock, ver ^ d, memory_order_relaxed);
  atomic_store_explicit(&b->e[victim].data, d, memory_order_relaxed);
}

#endif /* XQ_PERFT_TABLE_H */
