/*
 * hub.h -- the broadcast (hub.c): every durable event numbered, encoded
 * once and sent to the JSON-lines watchers and, through the fan-out
 * thread, to the SSE viewers; kept in a ring for resume. Internal to
 * net/.
 */
#ifndef XQ_NET_HUB_H
#define XQ_NET_HUB_H

#include <stdint.h>

#include "conn.h"
#include "internal.h"

/* ------------------------------------------------------------------ */
/* Broadcast (hub.c)                                                   */
/* ------------------------------------------------------------------ */

/* Publish an event of `type` ("move", "verdict", "result", "pairing",
 * "standings", "game", "players") about round/board (0 = none) with data `json` (an
 * object's text). Returns its event id (increasing). */
int64_t xq__hub_publish(xq__server *s, const char *type, int round, int board, const char *json);

/* For the delay (delay.c): send the held event `id` (its encodings, as
 * xq__delay_event took them) to the anonymous readers -- the event
 * stream's viewers, the anonymous watchers, the edge -- now. */
void xq__hub_release(xq__server *s, int64_t id, int round, xq__buf *sse, xq__buf *jsonl, size_t toff, size_t tlen,
                     size_t doff, size_t dlen);
/* For the delay: a "game" event `id` with the state `json` of round/board
 * to the anonymous readers only (a restart's held moves, as they come
 * due). */
void xq__hub_announce(xq__server *s, int64_t id, int round, int board, const char *json);

/* Tell the open pages that the players changed (a name, a number, who
 * plays): a `players` event, after which they read the event and the
 * round again. Every operation that changes the players calls it. */
void xq__hub_players_changed(xq__server *s);

/* Subscribe the JSON-lines session `c` (the `watch` op: sets c->hub_watch
 * and makes its output budget XQ__OUT_DROP), only round `round` when > 0,
 * replaying the kept events after `last_id` (0 = none, -1 = a snapshot of
 * every game first). A snapshot shows the games as broadcast: while a
 * move is judged and its event not out, the watch waits for it (as
 * xq__hub_stream; `c` is closed when it cannot begin then). Watchers stay
 * on the loop. Returns XQ_OK (subscribed, or waiting), XQ_ELIMIT or
 * XQ_ENOMEM. */
int xq__hub_watch(xq__server *s, xq__conn *c, int round, int64_t last_id);
void xq__hub_unwatch(xq__server *s, xq__conn *c);
/* Make the HTTP connection `c`, which asked for the event stream and has
 * nothing queued, a viewer of the fan-out (fanout.c): its socket leaves
 * the loop (xq__conn_detach: `c` is closed), and the fan-out thread sends
 * it head[0..len) (the response head, copied), then a snapshot of the
 * games (last_id -1, or an id the ring does not hold) or the kept events
 * after `last_id` (0: none), then every event published after that, of
 * round `round` only when > 0 (and those of no round), with no gap and
 * none twice. A snapshot shows the games as broadcast: while a move is
 * judged and its event not yet published, the stream waits for it
 * (XQ_SNAPSHOT_WAIT_MS at most; `c` stays open, and is closed when it
 * cannot be handed over then). XQ_OK (handed over, or waiting); XQ_ELIMIT
 * (XQ_VIEWERS_MAX viewers already), XQ_ENOMEM, XQ_EIO (no descriptor
 * left) or XQ_EINVAL (stopping), and then `c` is left open, nothing
 * sent. */
int xq__hub_stream(xq__server *s, xq__conn *c, int round, int64_t last_id, const char *head, size_t len);

/* Set up the hub's state and start the fan-out at server start; stop the
 * fan-out at shutdown (its viewers are ended once what waits for them has
 * gone; the loop stays alive until its thread has ended); free it after
 * the loop ran dry. */
int xq__hub_init(xq__server *s);
/* close and free must be safe when init never ran (s->hub NULL). */
void xq__hub_close(xq__server *s);
void xq__hub_free(xq__server *s);
/* Subscribers now: JSON-lines watchers and viewers of the fan-out (for
 * tests and the log). */
int xq__hub_subscribers(const xq__server *s);
/* After the loop ran dry: 0 when the fan-out's loop closed with no handle
 * left open (uv_loop_close() == 0 on its thread), else that status. */
int xq__hub_fanout_status(const xq__server *s);


#endif /* XQ_NET_HUB_H */
