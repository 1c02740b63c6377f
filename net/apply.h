/*
 * apply.h -- a staff write applied to the server's copy of the event
 * (apply.c) as the store's replay would apply it, instead of loading the
 * whole log again. Used by ops_tourney.c and ops_players.c. Internal to
 * net/.
 */
#ifndef XQ_NET_APPLY_H
#define XQ_NET_APPLY_H

#include "internal.h"

/* Each is called after the store took the write (XQ_OK, inside an open
 * batch or committed) and changes s->ev as xq_tstore_load would, then
 * tells the answers (xq__live_changed). Each returns XQ_OK, or an error
 * with s->ev unchanged -- the caller then reloads the event
 * (xq__task_reload): the copy is never left half-changed. */

/* Player `id` registered as `p` (as given to xq_tstore_register): the
 * event's next player, normalised as the store normalised it. XQ_EINVAL
 * when `id` is not the event's next id (the copy was behind the store),
 * XQ_ENOMEM, or xq_tournament_add's code. */
int xq__apply_registered(xq__server *s, const xq_tplayer *p, int id);
/* Player `id` edited: the details an edit may change read back from the
 * store (xq_tstore_player). XQ_EINVAL for an id the copy does not have,
 * or the store's code. */
int xq__apply_edited(xq__server *s, int id);
/* Player `id` withdrawn from round `round` on, or reinstated (taken back:
 * paired again). XQ_EINVAL for an id or round out of range. */
int xq__apply_withdrawal(xq__server *s, int id, int round, int reinstated);
/* The announced absence `bye` (XQ_TR_ZPB, XQ_TR_HPB, XQ_TR_FPB; XQ_TR_NONE: taken back) of
 * player `id` from round `round`. XQ_EINVAL for an id or round out of
 * range. */
int xq__apply_absence(xq__server *s, int id, int round, int bye);

#endif /* XQ_NET_APPLY_H */
