/*
 * pair_round1.c -- pairing numbers and round 1 (docs/tourney.md, "Round 1"): the
 * numbers by rating or by lot at round 1, or drawn, seeded or entered by
 * hand before it; adjacent numbers 1–2, 4–3, 5–6, 8–7, colours by board
 * parity.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../tourney_internal.h"
#include "pair_internal.h"

static int cmp_rating(const void *x, const void *y, void *arg)
{
  const xq_tournament *ev = arg;
  int a = *(const int *)x, b = *(const int *)y;
  const xq_tplayer *pa = &ev->players[a - 1], *pb = &ev->players[b - 1];
  if (pa->rating != pb->rating) return pb->rating - pa->rating;
  return a - b;
}

int xq_assign_pnos(xq_tournament *ev)
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
      s = xq__event_mix64(s);
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

static const char *const num_methods[] = {"rating", "lot", "manual"};

const char *xq_num_method_name(int method)
{
  return method >= XQ_NUM_RATING && method <= XQ_NUM_MANUAL ? num_methods[method] : "?";
}

int xq_num_method_parse(const char *s)
{
  for (int m = XQ_NUM_RATING; s && m <= XQ_NUM_MANUAL; m++)
    if (!strcmp(s, num_methods[m])) return m;
  return -1;
}

int xq_lot_seed_random(uint64_t *seed)
{
  uint64_t v = 0;
  size_t got = 0;
  while (got < sizeof v) {
    ssize_t n = getrandom((char *)&v + got, sizeof v - got, 0);
    if (n <= 0) return XQ_EIO;
    got += (size_t)n;
  }
  *seed = v % (XQ_NUM_SEED_MAX + 1);
  return XQ_OK;
}

/* XQ_OK when manual[0..n) is a permutation of 1..n; else XQ_EINVAL with
 * the first fault named by the player number it concerns. */
static int check_manual(const xq_tournament *ev, const int *manual, xq_error *err)
{
  int n = ev->n, *by = calloc((size_t)n + 1, sizeof *by);
  if (!by) return XQ_ENOMEM;
  int rc = XQ_OK;
  for (int id = 1; id <= n && !rc; id++) {
    int no = manual[id - 1];
    if (no == 0) /* the numbering left this player out */
      rc = xq_error_set(err, XQ_EINVAL, -1, -1, "%s (id %d) is missing: every player needs a number 1..%d",
                        ev->players[id - 1].name, id, n);
    else if (no < 1 || no > n)
      rc = xq_error_set(err, XQ_EINVAL, -1, -1, "%s (id %d): number %d is not 1..%d", ev->players[id - 1].name, id,
                        no, n);
    else if (by[no])
      rc = xq_error_set(err, XQ_EINVAL, -1, -1, "number %d is given twice (ids %d and %d)", no, by[no], id);
    else
      by[no] = id;
  }
  free(by);
  return rc;
}

int xq_number_players(xq_tournament *ev, const xq_tnumbering *how, xq_error *err)
{
  if (!ev || !how || how->method < XQ_NUM_RATING || how->method > XQ_NUM_MANUAL)
    return xq_error_set(err, XQ_EINVAL, -1, -1, "the numbers are by rating, by lot or given by hand");
  if (how->method == XQ_NUM_LOT && how->seed > XQ_NUM_SEED_MAX)
    return xq_error_set(err, XQ_EINVAL, -1, -1, "a seed is a whole number of up to 15 digits");
  if (how->method == XQ_NUM_MANUAL) {
    int rc = how->manual ? check_manual(ev, how->manual, err)
                         : xq_error_set(err, XQ_EINVAL, -1, -1, "no numbers given");
    if (rc) return rc;
    for (int id = 1; id <= ev->n; id++) ev->players[id - 1].pno = how->manual[id - 1];
    return XQ_OK;
  }
  /* xq_assign_pnos over a clean slate, under the method asked for */
  int *keep = malloc(sizeof *keep * (size_t)(ev->n + 1));
  if (!keep) return XQ_ENOMEM;
  for (int id = 1; id <= ev->n; id++) {
    keep[id - 1] = ev->players[id - 1].pno;
    ev->players[id - 1].pno = 0;
  }
  xq_tconfig cfg = ev->cfg;
  ev->cfg.first_round = how->method == XQ_NUM_LOT ? XQ_FIRST_BY_LOT : XQ_FIRST_BY_RATING;
  ev->cfg.lot_seed = how->seed;
  int rc = xq_assign_pnos(ev);
  ev->cfg = cfg;
  for (int id = 1; rc && id <= ev->n; id++) ev->players[id - 1].pno = keep[id - 1];
  free(keep);
  return rc;
}

static int cmp_pno(const void *x, const void *y, void *arg)
{
  const xq_tournament *ev = arg;
  int a = *(const int *)x, b = *(const int *)y;
  return ev->players[a - 1].pno - ev->players[b - 1].pno;
}

int xq_pair_round1(const xq_tournament *ev, xq_tpairing *out)
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
    /* odd boards smaller number Red, even boards larger number
     * Red; XXC black1 (TRF) turns the pattern round */
    int odd_board = (nb % 2 == 0) != (ev->initial_black != 0);
    b[nb].red = odd_board ? ids[i] : ids[i + 1];
    b[nb].black = odd_board ? ids[i + 1] : ids[i];
  }
  if (n % 2) { b[nb].red = ids[n - 1]; b[nb].black = 0; nb++; } /* the last player's bye */
  free(ids);
  out->round = 1;
  out->nboards = nb;
  out->boards = b;
  return XQ_OK;
}
