/*
 * next_round.c -- pairing the round after the last one: of an event kept
 * in a store (the checks, the pairing numbers, the pairing and its
 * publication: `xqref tourney pair`), and of an event read from TRF,
 * replayed up to a given round if asked, with the boards written as
 * bbpPairings writes them (`xqref pair`).
 */
#include <stdio.h>
#include <string.h>

#include "tourney_internal.h"
#include "pair/pair.h"
#include "store/store.h"

int xq_tstore_pair_next(xq_tstore *st, xq_tournament *ev, int system, xq_tpairing *out, xq_error *err)
{
  if (!st || !ev || !out) return XQ_EINVAL;
  memset(out, 0, sizeof *out);
  int round = ev->nrounds + 1;
  if (ev->cfg.rounds && round > ev->cfg.rounds)
    return xq__error(err, XQ_EINVAL, "all %d rounds are paired", ev->cfg.rounds);
  if (!xq_tournament_round_complete(ev, round - 1))
    return xq__error(err, XQ_EINVAL, "round %d still has boards without a result", round - 1);
  if (ev->n < 2) return xq__error(err, XQ_EINVAL, "at least two players are needed");
  xq_assign_pnos(ev);
  /* ev is the caller's own copy: the Dutch pairer may mark it */
  int rc = xq_pair_system(ev, round, system, out, NULL);
  if (rc) return xq__error(err, rc, "round %d: %s", round, xq_strerror(rc));
  if ((rc = xq_tstore_publish(st, ev, out, err))) xq_tpairing_clear(out);
  return rc;
}

/* Forget rounds k and later, keeping round k's announced absences
 * (data/pairing README: replaying a generated event). */
static void truncate_rounds(xq_tournament *ev, int k)
{
  for (int id = 1; id <= ev->n; id++)
    for (int r = k; r <= ev->nrounds; r++) {
      xq_tslot *s = xq_tournament_slot(ev, id, r);
      if (r == k && !s->opp && s->res != XQ_TR_PAB && s->res != XQ_TR_NONE) continue;
      memset(s, 0, sizeof *s);
    }
  if (ev->nrounds > k) ev->nrounds = k;
}

int xq_trf_pair_next(xq_tournament *ev, const xq_trf_pair_opts *o, xq_tpairing *out, xq_error *err)
{
  if (!ev || !o || !out || (o->system != XQ_PAIR_CN && o->system != XQ_PAIR_DUTCH) || o->round < 0 ||
      o->round > XQ_TOURNEY_ROUNDS_MAX || o->rounds < 0 || o->rounds > XQ_TOURNEY_ROUNDS_MAX)
    return XQ_EINVAL;
  memset(out, 0, sizeof *out);
  if (o->rounds) ev->cfg.rounds = o->rounds;
  if (o->round) truncate_rounds(ev, o->round);
  int round = xq_trf_next_round(ev);
  if (o->round && round != o->round)
    return xq__error(err, XQ_EINVAL, "round %d cannot be paired: the file ends at round %d", o->round, round - 1);
  if (ev->cfg.rounds && round > ev->cfg.rounds)
    return xq__error(err, XQ_EINVAL, "all %d rounds are already paired", ev->cfg.rounds);
  if (round > XQ_TOURNEY_ROUNDS_MAX || !xq_tournament_round_complete(ev, round - 1))
    return xq__error(err, XQ_EINVAL, "round %d has games without a result", round - 1);
  int rc = o->system == XQ_PAIR_DUTCH ? xq_pair_dutch(ev, round, out) : xq_pair_cn(ev, round, out, NULL);
  return rc ? xq__error(err, rc, "round %d: %s", round, xq_strerror(rc)) : XQ_OK;
}

int xq_pairing_write_bbp(const xq_tpairing *pr, FILE *f)
{
  if (!pr || !f) return XQ_EINVAL;
  fprintf(f, "%d\n", pr->nboards);
  for (int b = 0; b < pr->nboards; b++) fprintf(f, "%d %d\n", pr->boards[b].red, pr->boards[b].black);
  return ferror(f) ? XQ_EIO : XQ_OK;
}
