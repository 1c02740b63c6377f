/*
 * knockout_start.c -- the knockout stage of an event set up from the
 * event itself, as `xqref tourney knockout` starts it: after a Swiss
 * round from the standings of the cut (docs/tourney.md, "Knockout stage"), or as a
 * knockout-only event with every registered player drawn into the
 * bracket by lot, the values of one player field making its halves
 * (docs/village-king.md). The bracket itself is knockout.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "tourney_internal.h"
#include "knockout.h"

/* The pool field of a player: "region", "club" or "team"; NULL for
 * another name. */
static const char *pool_field(const xq_tplayer *p, const char *field)
{
  return !strcmp(field, "region") ? p->region : !strcmp(field, "club") ? p->club
       : !strcmp(field, "team") ? p->team : NULL;
}

/* Every registered player an entrant; with `field`, the players of each
 * value of that field a pool (in order of first registration), at most
 * XQ_KO_POOLS_MAX of them. Returns NULL or what is wrong. */
static const char *lot_pools(const xq_tournament *ev, const char *field, int *ids, int *pool, int *np)
{
  const char *names[XQ_KO_POOLS_MAX];
  *np = 1;
  if (field && !pool_field(&ev->players[0], field)) return "--pools takes region, club or team";
  for (int i = 0; i < ev->n; i++) {
    ids[i] = i + 1;
    pool[i] = 0;
    if (!field) continue;
    const char *v = pool_field(&ev->players[i], field);
    if (!v[0]) return "a player has no value in the --pools field";
    int k = 0;
    if (i == 0) names[0] = v;
    while (k < *np && strcmp(names[k], v)) k++;
    if (k == *np) {
      if (*np == XQ_KO_POOLS_MAX) return "more than two values in the --pools field: a bracket has two halves";
      names[(*np)++] = v;
    }
    pool[i] = k;
  }
  return NULL;
}

/* A knockout-only event: the entrants drawn by lot. */
static int setup_lot(const xq_tournament *ev, const xq_ko_opts *o, xq_ko *ko, xq_error *err)
{
  int ids[XQ_KO_SIZE_MAX], pool[XQ_KO_SIZE_MAX], np = 1;
  const char *bad = ev->n < 2 ? "a bracket needs 2 or more registered players"
                  : ev->n > XQ_KO_SIZE_MAX ? "more players than a bracket holds (128)"
                  : ev->nrounds > 0 ? "a knockout-only event cannot follow Swiss rounds"
                  : lot_pools(ev, o->pools, ids, pool, &np);
  if (!bad) {
    int r = xq_ko_setup_lot(ko, ids, pool, ev->n, np, o->lot_given ? o->lot : ev->cfg.lot_seed, o->format);
    if (r == XQ_ELIMIT) bad = "more entrants than a bracket holds (64 a pool with two pools)";
    else if (r) bad = "the entrants do not make a bracket";
  }
  return bad ? xq__error(err, XQ_EINVAL, "%s", bad) : XQ_OK;
}

/* Has player `id` withdrawn by now: a withdrawal recorded for any round,
 * or the missed rounds that withdraw him (xq__event_missed_out) in the
 * rounds recorded so far? */
static int withdrawn_now(const xq_tournament *ev, int id)
{
  return ev->players[id - 1].withdrawn > 0 || xq__event_missed_out(ev, id, ev->nrounds) > 0;
}

int xq_ko_setup_event(const xq_tournament *ev, const xq_ko_opts *o, xq_ko *ko, xq_error *err)
{
  if (!ev || !o || !ko) return XQ_EINVAL;
  if (o->seeding == XQ_KO_LOT) return setup_lot(ev, o, ko, err);
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  int rc = XQ_OK, n = 0;
  if (!s) {
    rc = xq__error(err, XQ_ENOMEM, "out of memory");
  } else if (o->after > ev->nrounds || !xq_tournament_round_complete(ev, o->after)) {
    rc = xq__error(err, XQ_EINVAL, "round %d is not complete", o->after);
  } else if (xq_standings(ev, o->after, s)) { /* the Swiss after the cut, every tie-break */
    rc = xq__error(err, XQ_EINVAL, "round %d: no standings", o->after);
  } else {
    /* a player who has withdrawn is never seeded: the next in the
     * standings takes his place (Xinjiang 九(二) 取前8名 are players
     * still in the event) */
    for (int i = 0; i < ev->n; i++)
      if (!withdrawn_now(ev, s[i].id)) s[n++] = s[i];
    if (n < o->size)
      rc = xq__error(err, XQ_EINVAL, "%d players still in the event cannot fill a bracket of %d", n, o->size);
    else if (xq_ko_setup(ko, s, n, o->after, o->size, o->seeding, o->format, o->choice))
      rc = xq__error(err, XQ_EINVAL, "size must be 2, 4, 8 or 16 and at most the players (choose: size 4)");
  }
  free(s);
  return rc;
}

int xq_ko_reseed(const xq_tournament *ev, const xq_ko *ko, xq_ko *now, xq_error *err)
{
  if (!ev || !ko || !now) return XQ_EINVAL;
  if (ko->after < 1) return xq__error(err, XQ_EINVAL, "the knockout was not seeded after a Swiss round");
  xq_ko_opts o = {.seeding = ko->seeding, .format = ko->format, .after = ko->after, .size = ko->size,
                  .choice = ko->choice};
  return xq_ko_setup_event(ev, &o, now, err);
}

int xq_ko_decided_by(const xq_ko *ko, int round)
{
  return ko && ko->after >= 1 && round >= 1 && round <= ko->after;
}
