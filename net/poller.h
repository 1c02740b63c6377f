/*
 * poller.h -- polling a PGN URL per round (poller.c): the admin ops
 * ingest_url, ingest_stop, ingest_status and ingest_now (in ops.h's
 * tables), and the pollers' state. Internal to net/.
 */
#ifndef XQ_NET_POLLER_H
#define XQ_NET_POLLER_H

#include "internal.h"

/* The state of the poller of round `round` (for tests and ingest_status):
 * XQ_OK with the fields, XQ_EINVAL when the round is not polled. */
typedef struct xq__poller_info {
  int period_ms;               /* the asked interval, clamped */
  int failures;                /* failures in a row */
  int next_ms;                 /* delay before the next fetch */
  int fetches, successes;      /* counts since ingest_url */
  int last_status;             /* HTTP status of the last fetch, 0 none or no answer */
  char last_error[XQ_ERR_MSG_LEN];
} xq__poller_info;
int xq__poller_state(xq__server *s, int round, xq__poller_info *out);

/* The pollers: init at start, stop every poller and close its handles
 * (timers, fetch connections) at shutdown, free after the loop ran dry;
 * close and free are safe when init never ran (s->poll NULL). */
int xq__poller_init(xq__server *s);
void xq__poller_close(xq__server *s);
void xq__poller_free(xq__server *s);

#endif /* XQ_NET_POLLER_H */
