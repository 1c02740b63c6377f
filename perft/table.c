/*
 * table.c -- the perft transposition table: allocation, and the keys
 * of positions and their mirror images (perft/table.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "table.h"

xq__perft_keys xq__perft_z[XQ_PIDS][XQ_SQUARES];
xq__perft_keys xq__perft_z_side;

static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void keys_fill(void)
{
  /* A seed of its own ("perft-k2"), not the engine's. */
  uint64_t seed = 0x70657266742D6B32ull;
  uint64_t z[2][2][8][XQ_SQUARES]; /* [key][colour][kind][point] */
  for (int w = 0; w < 2; w++)
    for (int c = 0; c < 2; c++)
      for (int k = 0; k < 8; k++)
        for (int s = 0; s < XQ_SQUARES; s++) z[w][c][k][s] = xq_random_next(&seed);
  xq__perft_z_side.a = xq__perft_z_side.am = xq_random_next(&seed);
  xq__perft_z_side.b = xq__perft_z_side.bm = xq_random_next(&seed);
  for (int pid = 0; pid < XQ_PIDS; pid++)
    for (int s = 0; s < XQ_SQUARES; s++) {
      int c = XQ_PID_COLOR(pid), k = xq_pid_kind(pid);
      int m = XQ_SQ(8 - XQ_FILE(s), XQ_RANK(s)); /* the mirrored point */
      xq__perft_keys *e = &xq__perft_z[pid][s];
      e->a = z[0][c][k][s];
      e->b = z[1][c][k][s];
      e->am = z[0][c][k][m];
      e->bm = z[1][c][k][m];
    }
}

void xq__perft_keys_init(void)
{
  pthread_once(&keys_once, keys_fill);
}

void xq__perft_keys_of(const xq_pos *pos, xq__perft_keys *k)
{
  xq__perft_keys zero = {0, 0, 0, 0};
  *k = zero;
  if (pos->side == XQ_BLACK) xq__perft_keys_xor(k, &xq__perft_z_side);
  for (int pid = 0; pid < XQ_PIDS; pid++)
    if (pos->sq[pid] != XQ_NO_SQ) xq__perft_keys_xor(k, &xq__perft_z[pid][pos->sq[pid]]);
}

int xq_perft_table_new(size_t bytes, xq_perft_table **out)
{
  if (!out) return XQ_EINVAL;
  *out = NULL;
  size_t nb = bytes / sizeof(xq__perft_bucket);
  if (nb < 1 || bytes > (size_t)XQ_PERFT_HASH_MAX_MB << 20) return XQ_EINVAL;
  xq__perft_keys_init();
  xq_perft_table *t = malloc(sizeof *t);
  if (!t) return XQ_ENOMEM;
  /* A fresh mapping comes zeroed, page by page as it is touched; aligned
   * to a huge page and marked for them, a big table takes a TLB entry
   * per 2 MiB instead of per 4 KiB. */
  size_t size = nb * sizeof(xq__perft_bucket);
  t->raw_size = size + XQ__PERFT_HUGE_PAGE;
  t->raw = mmap(NULL, t->raw_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (t->raw == MAP_FAILED) {
    free(t);
    return XQ_ENOMEM;
  }
  uintptr_t p = ((uintptr_t)t->raw + XQ__PERFT_HUGE_PAGE - 1) & ~(uintptr_t)(XQ__PERFT_HUGE_PAGE - 1);
  t->b = (xq__perft_bucket *)p;
  t->nb = nb;
  if (size >= XQ__PERFT_HUGE_PAGE) madvise(t->b, size, MADV_HUGEPAGE); /* advice only */
  *out = t;
  return XQ_OK;
}

void xq_perft_table_free(xq_perft_table *t)
{
  if (!t) return;
  munmap(t->raw, t->raw_size);
  free(t);
}

size_t xq_perft_table_entries(const xq_perft_table *t)
{
  return t ? t->nb * XQ__PERFT_WAYS : 0;
}
