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

/* The half (1 or 2) of the final seed s of a fixed bracket of `size`
 * falls in: seeds s and size+1-s meet first, and the pair goes on as the
 * smaller of them in a bracket half the size. */
static int half_of(int s, int size)
{
  while (size > 2) {
    if (s > size + 1 - s) s = size + 1 - s;
    size /= 2;
  }
  return s;
}

/* The first q of each group's standings after round `after` (players who
 * have withdrawn passed over) into q_ids[g * q + place]. NULL or what is
 * wrong. */
static const char *group_qualifiers(const xq_tournament *ev, int after, int q, int *q_ids)
{
  for (int g = 0; g < ev->cfg.rr_groups; g++) {
    int *ids = NULL, got = 0;
    xq_tournament *sub = xq_rr_group_event(ev, g, &ids);
    xq_tstanding *s = sub ? malloc(sizeof *s * (size_t)(sub->n ? sub->n : 1)) : NULL;
    if (s && !xq_standings(sub, after, s))
      for (int i = 0; i < sub->n && got < q; i++)
        if (!s[i].annulled && !withdrawn_now(ev, ids[s[i].id - 1])) q_ids[g * q + got++] = ids[s[i].id - 1];
    free(s);
    free(ids);
    xq_tournament_free(sub);
    if (got < q) return "a group has too few players still in the event for its qualifiers";
  }
  return NULL;
}

/* A round robin in groups into a knockout of `size`: the first q = size /
 * G of each group, crossed (docs/tourney.md, "Round robins"): with two a
 * group, group pairs (A, B), (C, D), ... play A1–B2 in one half and B1–A2
 * in the other, so group-mates meet in the final at the earliest; with two
 * groups and four each, A1–B4, B2–A3 | B1–A4, A2–B3. The seeds are then a
 * fixed bracket's. */
static int setup_groups(const xq_tournament *ev, const xq_ko_opts *o, xq_ko *ko, xq_error *err)
{
  int G = ev->cfg.rr_groups, size = o->size, q = G ? size / G : 0;
  int q_ids[XQ_KO_SIZE_MAX], seeds[XQ_KO_SIZE_MAX];
  if ((size != 4 && size != 8 && size != 16) || q * G != size || (q != 2 && !(q == 4 && G == 2)))
    return xq__error(err, XQ_EINVAL, "%d groups cross into a knockout of 4, 8 or 16 with 2 a group (or 4 a group"
                     " of two groups), not %d", G, size);
  if (o->after > ev->nrounds || !xq_tournament_round_complete(ev, o->after))
    return xq__error(err, XQ_EINVAL, "round %d is not complete", o->after);
  const char *bad = group_qualifiers(ev, o->after, q, q_ids);
  if (bad) return xq__error(err, XQ_EINVAL, "%s", bad);
  if (q == 4) { /* two groups: A1 B1 A2 B2 A3 B3 A4 B4 */
    for (int i = 0; i < size; i++) seeds[i] = q_ids[(i % 2) * q + i / 2];
  } else {
    int next[3] = {0, 0, 0};
    for (int j = 1; j <= size / 2; j++) {
      int h = half_of(j, size), pair = next[h]++, x = 2 * pair, y = x + 1;
      /* half 1: X1–Y2; half 2: Y1–X2 */
      seeds[j - 1] = q_ids[(h == 1 ? x : y) * 2];
      seeds[size - j] = q_ids[(h == 1 ? y : x) * 2 + 1];
    }
  }
  xq_tstanding st[XQ_KO_SIZE_MAX];
  memset(st, 0, sizeof st);
  for (int i = 0; i < size; i++) st[i].id = seeds[i];
  if (xq_ko_setup(ko, st, size, o->after, size, XQ_KO_FIXED, o->format, 0))
    return xq__error(err, XQ_EINVAL, "the groups' qualifiers do not make a bracket");
  return XQ_OK;
}

int xq_ko_setup_event(const xq_tournament *ev, const xq_ko_opts *o, xq_ko *ko, xq_error *err)
{
  if (!ev || !o || !ko) return XQ_EINVAL;
  if (o->seeding == XQ_KO_LOT) return setup_lot(ev, o, ko, err);
  if (ev->cfg.format == XQ_FORMAT_RR && ev->cfg.rr_groups > 1) {
    if (o->seeding != XQ_KO_FIXED) return xq__error(err, XQ_EINVAL, "groups cross into a fixed bracket");
    return setup_groups(ev, o, ko, err);
  }
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
