/*
 * ingest.h -- shared by ingest.c (PGN ingestion) and poll.c (polling a
 * PGN URL); not used elsewhere.
 */
#ifndef XQ_NET_INGEST_H
#define XQ_NET_INGEST_H

#include "internal.h"

typedef struct xq__poller xq__poller;

struct xq__ingest {
  /* per round and table: a digest of the last illegal move recorded from
   * a source (prefix, ply and text), so that pushing the same PGN again
   * does not record the same foul twice */
  uint64_t *illegal_seen[XQ_ROUNDS_LIVE_MAX + 1];
  int illegal_n[XQ_ROUNDS_LIVE_MAX + 1];
  xq__poller *polls[XQ_ROUNDS_LIVE_MAX + 1];   /* poll.c, NULL when not polled */
  int npolls;
  int closed;
};

/* poll.c: stop every poller and close its handles (shutdown), and free
 * what is left once the loop ran dry. */
void xq__poll_close_all(xq__server *s);
void xq__poll_free_all(xq__server *s);

#endif /* XQ_NET_INGEST_H */
