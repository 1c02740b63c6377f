/*
 * fanout.h -- the SSE viewers on a thread and a loop of their own
 * (fanout.c). Only the hub (hub.c) hands viewers and events to it.
 * Internal to net/.
 */
#ifndef XQ_NET_FANOUT_H
#define XQ_NET_FANOUT_H

#include <uv.h>

#include "conn.h"
#include "internal.h"

typedef struct xq__fanout xq__fanout;

/* Start the fan-out thread and its loop; `loop` is the server's, on which
 * the fan-out says when its thread has ended. The thread reads nothing
 * of `s` but its log. *out, XQ_OK, or XQ_ENOMEM / XQ_EIO. */
int xq__fanout_start(xq__server *s, uv_loop_t *loop, xq__fanout **out);
/* On the loop: the HTTP connection `c` (nothing queued on it) becomes a
 * viewer of round `round` (0: every round): its socket is taken out of
 * the loop (xq__conn_detach closes `c`) and opened on the fan-out's, which
 * sends start[0..n) first (a malloc'd array of references: the
 * fan-out's), then every event queued after this call. XQ_OK; XQ_ELIMIT
 * (XQ_VIEWERS_MAX viewers), XQ_EINVAL (stopping), XQ_ENOMEM or XQ_EIO (no
 * descriptor left), and then `c` and `start` are as they were, the
 * caller's. */
int xq__fanout_adopt(xq__fanout *f, xq__conn *c, int round, xq__buf **start, int n);
/* On the loop: the event whose SSE encoding is `b` (a reference is
 * taken) goes to every viewer of round `round`, or of every round when
 * `round` is 0, after the events and viewers queued before it. */
void xq__fanout_event(xq__fanout *f, xq__buf *b, int round);
/* Viewers now, those on their way to the fan-out thread included. */
int xq__fanout_viewers(const xq__fanout *f);
/* True when XQ_VIEWERS_MAX viewers are there (xq__fanout_adopt refuses). */
int xq__fanout_full(const xq__fanout *f);
/* On the loop, at shutdown: what waits for each viewer is sent, then it
 * is ended (XQ_SHUTDOWN_GRACE_MS at most); nothing is queued from then
 * on. The thread ends once every viewer is closed, and says so to the
 * loop, which then joins it and closes its last handle. */
void xq__fanout_stop(xq__fanout *f);
/* After the loop ran dry: the uv_loop_close status of the fan-out's loop
 * (0: every handle closed); free it (NULL: no-op). */
int xq__fanout_status(const xq__fanout *f);
void xq__fanout_free(xq__fanout *f);


#endif /* XQ_NET_FANOUT_H */
