/*
 * delay.h -- the delayed broadcast (delay.c, serve --delay, docs/http.md
 * "Delay"): what anonymous readers see of the games -- the event stream,
 * games.json, the PGN, the standings, the edge, an anonymous watch -- is
 * what happened DELAY seconds ago, released in order; staff see
 * everything at once. Internal to net/.
 */
#ifndef XQ_NET_DELAY_H
#define XQ_NET_DELAY_H

#include <stddef.h>
#include <stdint.h>

#include "conn.h"
#include "internal.h"
#include "live.h"

/* The delay now, in µs (serve --delay, or the event's setting: 0 none). */
int64_t xq__delay_us(const xq__server *s);
/* True while anonymous readers are shown a delayed view: a delay is set,
 * or something held is still to be released (a delay just lowered to 0
 * lets what it held go out in order first). */
int xq__delay_on(const xq__server *s);
/* The wall clock in µs since 1970, the same all through one turn of the
 * loop: a view and the event published with it are held and released
 * together. */
int64_t xq__delay_now(xq__server *s);

/* At start, before the games are loaded: the release timer. XQ_OK or
 * XQ_ENOMEM. Close at shutdown (what is held is dropped: its viewers are
 * gone), free after the loop ran dry; both safe when init never ran. */
int xq__delay_init(xq__server *s);
void xq__delay_close(xq__server *s);
void xq__delay_free(xq__server *s);

/* Game `lv`'s view becomes `v` (the old one `old`, NULL for the first):
 * with a delay, anonymous readers keep seeing the views before until
 * v's time is up. Returns 1 when it kept `old` (the caller must not free
 * it), 0 when not (no delay, the first view, out of memory: then anonymous
 * readers see `v` at once, logged). */
int xq__delay_view(xq__server *s, xq__live *lv, xq__view *old, xq__view *v);
/* At start, a stored row of game `lv` made at `at_ms` (ms since 1970)
 * moved its view from `before` to `after` (both taken from the game as it
 * was replayed, owned here from now on): when its time + delay is still
 * to come, anonymous readers see `before` until then, and a "game" event
 * with `after` goes out then. Returns 1 when held, 0 when not (both
 * freed). */
int xq__delay_replayed(xq__server *s, xq__live *lv, xq__view *before, xq__view *after, int64_t at_ms);
/* Game `lv` is freed: what is held of it goes. */
void xq__delay_forget(xq__server *s, xq__live *lv);
/* Hold the broadcast event `id` (its SSE encoding `sse` with type at
 * [toff,+tlen) and data at [doff,+dlen), its JSON-lines encoding `jsonl`:
 * references are taken) of round `round` for the anonymous readers:
 * released through xq__hub_release at its time + delay. XQ_OK, or
 * XQ_ENOMEM (not held: the caller sends it at once). */
int xq__delay_event(xq__server *s, int64_t id, int round, xq__buf *sse, xq__buf *jsonl, size_t toff, size_t tlen,
                    size_t doff, size_t dlen);
/* The delay was changed (the event's setting): what is now due goes out,
 * the release timer follows the new delay. */
void xq__delay_changed(xq__server *s);
/* The events held for a restart's "game" announcements take their ids
 * now, from *next (the hub's next id), in their order. */
void xq__delay_number(xq__server *s, int64_t *next);

/* What anonymous readers see: between enter and leave (nested: counted),
 * every game shows its released view (lv->view) and the event (s->ev) its
 * released results -- the results of games with moves still held are
 * taken out -- so every answer made meanwhile (games.json, PGN,
 * standings, the event, pairings, snapshots) is the delayed one. On the
 * loop, with no write to the games or the event in between. No-ops
 * without a delay. */
void xq__delay_enter(xq__server *s);
void xq__delay_leave(xq__server *s);
/* True between enter and leave (answers made then are kept apart from
 * the staff's). */
int xq__delay_public(const xq__server *s);

/* What the delay did, for the log and the tests. */
typedef struct xq__delay_info {
  long held;                   /* items held now (views and events) */
  size_t bytes;                /* their bytes */
  long long released;          /* released at their time */
  long long early;             /* released before their time: the limit was reached */
} xq__delay_info;
void xq__delay_info_get(const xq__server *s, xq__delay_info *out);

#endif /* XQ_NET_DELAY_H */
