/*
 * merge.c -- two entries of one player merged into one (docs/tourney.md,
 * "Merging two entries"): the entry kept keeps its id and number, takes
 * the details it lacks from the other, and the other leaves the event as
 * a deleted player does (the ids after it close up). The store records it
 * as a deletion with code "merged" naming the entry kept, and replays it
 * with this function.
 */
#include <string.h>

#include "tourney_internal.h"

/* The fields (XQ_PE_*) of `keep` that are empty and set in `drop`: sex,
 * birth date, region, club, rating, and the team while no round is
 * paired (`paired` 0). The name is never empty; the local flag has no
 * empty value. */
static unsigned empty_fields(const xq_tplayer *keep, const xq_tplayer *drop, int paired)
{
  unsigned f = 0;
  if (!keep->sex && drop->sex) f |= XQ_PE_SEX;
  if (!keep->birth[0] && drop->birth[0]) f |= XQ_PE_BIRTH;
  if (!keep->region[0] && drop->region[0]) f |= XQ_PE_REGION;
  if (!keep->club[0] && drop->club[0]) f |= XQ_PE_CLUB;
  if (!paired && !keep->team[0] && drop->team[0]) f |= XQ_PE_TEAM;
  if (!keep->rating && drop->rating) f |= XQ_PE_RATING;
  return f;
}

/* XQ_OK when entry `drop` was never paired (no game, no bye, no result of
 * any kind in any round), else XQ_EINVAL with `err` naming the round. */
static int never_paired(const xq_tournament *ev, int drop, int no, xq_error *err)
{
  for (int r = 1; r <= XQ_TOURNEY_ROUNDS_MAX; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, drop, r);
    int bye = s->res == XQ_TR_PAB || s->absent == XQ_TR_HPB || s->absent == XQ_TR_FPB;
    if (!s->opp && s->res == XQ_TR_NONE && !bye) continue;
    return xq__error(err, XQ_EINVAL, "player %d %s in round %d: an entry that has played cannot be merged away"
                     " (merge the other way, or withdraw it)", no, s->opp ? "is paired" : bye ? "has a bye"
                     : "has a result", r);
  }
  return XQ_OK;
}

/* XQ_OK when no other player's id or pairing number changes as `drop`
 * leaves an event with a paired round: he is the last registered, and
 * his number is 0 or the highest. Else XQ_EINVAL with `err` saying why. */
static int nothing_moves(const xq_tournament *ev, int drop, int no, xq_error *err)
{
  if (drop != ev->n)
    return xq__error(err, XQ_EINVAL, "round 1 is paired and players registered after player %d would change"
                     " their ids: only the last entry can be merged away now (withdraw it instead)", no);
  int pno = ev->players[drop - 1].pno;
  for (int i = 0; pno > 0 && i < ev->n; i++)
    if (ev->players[i].pno > pno)
      return xq__error(err, XQ_EINVAL, "round 1 is paired and the pairing numbers above %d would close up:"
                       " player %d cannot be merged away now (withdraw it instead)", pno, no);
  return XQ_OK;
}

int xq_tournament_merge(xq_tournament *ev, int keep, int drop, unsigned *filled, xq_error *err)
{
  if (filled) *filled = 0;
  if (!ev) return XQ_EINVAL;
  if (keep < 1 || keep > ev->n || drop < 1 || drop > ev->n)
    return xq__error(err, XQ_EINVAL, "no player %d", keep < 1 || keep > ev->n ? keep : drop);
  int no = xq_tplayer_no(ev, drop);
  if (keep == drop) return xq__error(err, XQ_EINVAL, "player %d cannot be merged into himself", no);
  int paired = xq__event_paired(ev), rc;
  if (paired && ((rc = never_paired(ev, drop, no, err)) || (rc = nothing_moves(ev, drop, no, err)))) return rc;
  xq_tplayer *k = &ev->players[keep - 1];
  const xq_tplayer *d = &ev->players[drop - 1];
  unsigned f = empty_fields(k, d, paired);
  if (f & XQ_PE_SEX) k->sex = d->sex;
  if (f & XQ_PE_BIRTH) memcpy(k->birth, d->birth, sizeof k->birth);
  if (f & XQ_PE_REGION) memcpy(k->region, d->region, sizeof k->region);
  if (f & XQ_PE_CLUB) memcpy(k->club, d->club, sizeof k->club);
  if (f & XQ_PE_TEAM) memcpy(k->team, d->team, sizeof k->team);
  if (f & XQ_PE_RATING) k->rating = d->rating;
  xq__event_close_up(ev, drop);
  if (filled) *filled = f;
  return XQ_OK;
}
