/*
 * table.c -- the perft transposition table: allocation, and the second
 * key that verifies its entries (perft/table.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "table.h"

uint64_t xq__perft_z2[XQ_PIDS][XQ_SQUARES];
uint64_t xq__perft_z2_side;

static pthread_once_t z2_once = PTHREAD_ONCE_INIT;

static void z2_fill(void)
{
  /* A seed of its own ("perft-k2"), far from the engine's in the stream. */
  uint64_t seed = 0x70657266742D6B32ull;
  uint64_t z[2][8][XQ_SQUARES];
  for (int c = 0; c < 2; c++)
    for (int k = 0; k < 8; k++)
      for (int s = 0; s < XQ_SQUARES; s++) z[c][k][s] = xq_random_next(&seed);
  xq__perft_z2_side = xq_random_next(&seed);
  for (int pid = 0; pid < XQ_PIDS; pid++)
    for (int s = 0; s < XQ_SQUARES; s++)
      xq__perft_z2[pid][s] = z[XQ_PID_COLOR(pid)][xq_pid_kind(pid)][s];
}

void xq__perft_key2_init(void)
{
  pthread_once(&z2_once, z2_fill);
}

uint64_t xq__perft_key2(const xq_pos *pos)
{
  uint64_t k = pos->side == XQ_BLACK ? xq__perft_z2_side : 0;
  for (int pid = 0; pid < XQ_PIDS; pid++)
    if (pos->sq[pid] != XQ_NO_SQ) k ^= xq__perft_z2[pid][pos->sq[pid]];
  return k;
}

int xq_perft_table_new(size_t bytes, xq_perft_table **out)
{
  if (!out) return XQ_EINVAL;
  *out = NULL;
  size_t nb = bytes / sizeof(xq__perft_bucket);
  if (nb < 1 || bytes > (size_t)XQ_PERFT_HASH_MAX_MB << 20) return XQ_EINVAL;
  xq__perft_key2_init();
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
