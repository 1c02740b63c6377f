/*
 * pair_round1.c -- pairing numbers and round 1 (tourney.md §3.4): adjacent
 * numbers 1–2, 4–3, 5–6, 8–7, colours by board parity.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>

#include "../internal.h"
#include "pair_internal.h"

static int cmp_rating(const void *x, const void *y, void *arg)
{
  const xq_tevent *ev = arg;
  int a = *(const int *)x, b = *(const int *)y;
  const xq_tplayer *pa = &ev->players[a - 1], *pb = &ev->players[b - 1];
  if (pa->rating != pb->rating) return pb->rating - pa->rating;
  return a - b;
}

int xq_assign_pnos(xq_tevent *ev)
{
  if (!ev) return XQ_EINVAL;
  int *ids = malloc(sizeof *ids * (size_t)(ev->n + 1)), m = 0, next = 1;
  if (!ids) return XQ_ENOMEM;
  for (int id = 1; id <= ev->n; id++) {
    if (ev->players[id - 1].pno >= next) next = ev->players[id - 1].pno + 1;
    if (!ev->players[id - 1].pno) ids[m++] = id;
  }
  if (ev->cfg.first_round == XQ_FIRST_BY_LOT) {
    /* drawn numbers: a Fisher-Yates shuffle from the stored lot seed */
    uint64_t s = ev->cfg.lot_seed;
    for (int i = m - 1; i > 0; i--) {
      s = xq__mix64(s);
      int j = (int)(s % (uint64_t)(i + 1)), t = ids[i];
      ids[i] = ids[j];
      ids[j] = t;
    }
  } else {
    qsort_r(ids, (size_t)m, sizeof *ids, cmp_rating, ev);
  }
  for (int i = 0; i < m; i++) ev->players[ids[i] - 1].pno = next++;
  free(ids);
  return XQ_OK;
}

static int cmp_pno(const void *x, const void *y, void *arg)
{
  const xq_tevent *ev = arg;
  int a = *(const int *)x, b = *(const int *)y;
  return ev->players[a - 1].pno - ev->players[b - 1].pno;
}

int xq_pair_round1(const xq_tevent *ev, xq_tpairing *out)
{
  if (!ev || !out) return XQ_EINVAL;
  int *ids = malloc(sizeof *ids * (size_t)(ev->n + 1));
  if (!ids) return XQ_ENOMEM;
  int n = xq__pair_pool(ev, 1, ids);
  for (int i = 0; i < n; i++)
    if (!ev->players[ids[i] - 1].pno) { free(ids); return XQ_EINVAL; }
  qsort_r(ids, (size_t)n, sizeof *ids, cmp_pno, (void *)ev);
  xq_tboard *b = malloc(sizeof *b * (size_t)((n + 1) / 2 + 1));
  if (!b) { free(ids); return XQ_ENOMEM; }
  int nb = 0;
  for (int i = 0; i + 1 < n; i += 2, nb++) {
    /* §3.4.3: odd boards smaller number Red, even boards larger number
     * Red; XXC black1 (TRF) turns the pattern round */
    int odd_board = (nb % 2 == 0) != (ev->initial_black != 0);
    b[nb].red = odd_board ? ids[i] : ids[i + 1];
    b[nb].black = odd_board ? ids[i + 1] : ids[i];
  }
  if (n % 2) { b[nb].red = ids[n - 1]; b[nb].black = 0; nb++; } /* §3.4.4 */
  free(ids);
  out->round = 1;
  out->nboards = nb;
  out->boards = b;
  return XQ_OK;
}
