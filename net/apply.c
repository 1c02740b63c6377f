/*
 * apply.c -- the server's copy of the event kept in step with a staff
 * write (apply.h). A write of a player used to reload the event: the
 * whole log replayed on the loop, a cost that grows with the event (about
 * 5 ms at 400 players, 18 ms at 4,000), paid by every line of an import.
 * A registration, an edit, a withdrawal and an absence change one player,
 * so each is applied here to s->ev with the same functions and rules as
 * the replay (tourney/store/store_load.c), and the write costs its own
 * row. Whatever cannot be applied leaves s->ev as it was, for the caller
 * to reload.
 */
#include "apply.h"
#include "internal.h"
#include "live.h"

int xq__apply_registered(xq__server *s, const xq_tplayer *p, int id)
{
  xq_tournament *ev = s->ev;
  if (id != ev->n + 1) return XQ_EINVAL;
  /* as the replay reads it back: what the store keeps (checked, so the
   * birth date rewritten; the short texts ended), nothing more */
  xq_tplayer c = *p;
  c.title[sizeof c.title - 1] = c.fed[sizeof c.fed - 1] = c.fide_id[sizeof c.fide_id - 1] = 0;
  c.local = c.local != 0;
  c.pno = c.withdrawn = c.trf_rank = 0;
  int got = 0, rc = xq_tournament_add(ev, &c, &got, NULL);
  if (rc) return rc;
  if (got != id) { /* cannot happen: the id was checked above */
    ev->n--;
    return XQ_EINVAL;
  }
  xq__live_changed(s, 0);
  return XQ_OK;
}

int xq__apply_edited(xq__server *s, int id)
{
  if (id < 1 || id > s->ev->n) return XQ_EINVAL;
  int rc = xq_tstore_player(s->store, id, &s->ev->players[id - 1], NULL);
  if (rc) return rc;
  xq__live_changed(s, 0);
  return XQ_OK;
}

int xq__apply_withdrawal(xq__server *s, int id, int round, int reinstated)
{
  if (id < 1 || id > s->ev->n || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  xq_tplayer *p = &s->ev->players[id - 1];
  if (reinstated) p->withdrawn = 0;
  else if (!p->withdrawn || p->withdrawn > round) p->withdrawn = round; /* the earliest counts */
  xq__live_changed(s, 0);
  return XQ_OK;
}

int xq__apply_absence(xq__server *s, int id, int round, int bye)
{
  if (id < 1 || id > s->ev->n || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  xq_tournament_slot(s->ev, id, round)->absent =
    (uint8_t)(bye == XQ_TR_HPB || bye == XQ_TR_FPB || bye == XQ_TR_NONE ? bye : XQ_TR_ZPB);
  xq__live_changed(s, 0);
  return XQ_OK;
}
