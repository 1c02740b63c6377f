/*
 * pair_amend.c -- the changes an arbiter makes to a computed pairing
 * before it is published (docs/tourney.md, "Pairing"): two players trade places, a
 * board's colours are swapped, a board moves to another table. Each is
 * applied in order and the result checked against the absolute rules
 * (no pair meets twice, the colour limits, one bye a player): what
 * breaks one is said, not refused -- the arbiter decides.
 */
#include <stdio.h>
#include <string.h>

#include "../tourney_internal.h"
#include "pair_internal.h"

/* The board and side (0 Red, 1 Black) of player `id`, or -1. */
static int seat_of(const xq_tpairing *pr, int id, int *side)
{
  for (int b = 0; b < pr->nboards; b++) {
    if (pr->boards[b].red == id) { *side = 0; return b; }
    if (pr->boards[b].black == id) { *side = 1; return b; }
  }
  return -1;
}

static int *seat(xq_tpairing *pr, int b, int side) { return side ? &pr->boards[b].black : &pr->boards[b].red; }

static int apply_one(const xq_tournament *ev, xq_tpairing *pr, const xq_tchange *c, int k, xq_error *err)
{
  switch (c->kind) {
  case XQ_TCH_SWAP: {
    int sa = 0, sb = 0, ba = seat_of(pr, c->a, &sa), bb = seat_of(pr, c->b, &sb);
    if (c->a < 1 || c->a > ev->n || c->b < 1 || c->b > ev->n || ba < 0 || bb < 0 || c->a == c->b)
      return xq_error_set(err, XQ_EINVAL, -1, -1, "change %d: both players must be paired in this round", k + 1);
    *seat(pr, ba, sa) = c->b;
    *seat(pr, bb, sb) = c->a;
    return XQ_OK;
  }
  case XQ_TCH_COLOURS: {
    if (c->a < 1 || c->a > pr->nboards || !pr->boards[c->a - 1].black)
      return xq_error_set(err, XQ_EINVAL, -1, -1, "change %d: no board %d with two players", k + 1, c->a);
    xq_tboard *b = &pr->boards[c->a - 1];
    int r = b->red;
    b->red = b->black;
    b->black = r;
    return XQ_OK;
  }
  case XQ_TCH_MOVE: {
    if (c->a < 1 || c->a > pr->nboards || c->b < 1 || c->b > pr->nboards)
      return xq_error_set(err, XQ_EINVAL, -1, -1, "change %d: boards are 1..%d", k + 1, pr->nboards);
    xq_tboard m = pr->boards[c->a - 1];
    if (c->a < c->b) memmove(&pr->boards[c->a - 1], &pr->boards[c->a], sizeof m * (size_t)(c->b - c->a));
    else memmove(&pr->boards[c->b], &pr->boards[c->b - 1], sizeof m * (size_t)(c->a - c->b));
    pr->boards[c->b - 1] = m;
    return XQ_OK;
  }
  default:
    return xq_error_set(err, XQ_EINVAL, -1, -1, "change %d: not a kind of change", k + 1);
  }
}

/* Append one warning line to warn[0..cap) (cut when full). */
static void say(char *warn, size_t cap, const char *fmt, int a, int b)
{
  size_t n = strlen(warn);
  if (n + 1 < cap) snprintf(warn + n, cap - n, fmt, a, b);
}

/* The absolute rules the pairing now breaks, a line each. */
static void check(const xq_tournament *ev, const xq_tpairing *pr, char *warn, size_t cap)
{
  for (int b = 0; b < pr->nboards; b++) {
    int r = pr->boards[b].red, k = pr->boards[b].black;
    if (!k) {
      if (!xq__pair_bye_eligible(ev, r, pr->round))
        say(warn, cap, "board %d: player %d has had the bye already\n", b + 1, xq_tplayer_no(ev, r));
      continue;
    }
    for (int x = 1; x < pr->round; x++)
      if (xq_tournament_slot(ev, r, x)->opp == k)
        say(warn, cap, "board %d: these players met in round %d\n", b + 1, x);
    if (!xq__pair_colour_ok(ev, r, pr->round, XQ_TC_RED))
      say(warn, cap, "board %d: Red again is beyond the colour limits for player %d\n", b + 1, xq_tplayer_no(ev, r));
    if (!xq__pair_colour_ok(ev, k, pr->round, XQ_TC_BLACK))
      say(warn, cap, "board %d: Black again is beyond the colour limits for player %d\n", b + 1, xq_tplayer_no(ev, k));
  }
}

int xq_pairing_amend(const xq_tournament *ev, xq_tpairing *pr, const xq_tchange *ch, int n, char *warn,
                     size_t cap, xq_error *err)
{
  if (!ev || !pr || (n && !ch) || !warn || !cap) return XQ_EINVAL;
  warn[0] = '\0';
  for (int k = 0; k < n; k++) {
    int rc = apply_one(ev, pr, &ch[k], k, err);
    if (rc != XQ_OK) return rc;
  }
  check(ev, pr, warn, cap);
  return XQ_OK;
}
