/*
 * publish.h -- the broadcast posted to an nginx + nchan edge
 * (publish.c, --publish). Internal to net/.
 */
#ifndef XQ_NET_PUBLISH_H
#define XQ_NET_PUBLISH_H

#include <stddef.h>

#include "conn.h"
#include "internal.h"

/* Queue the event whose SSE encoding is `b` (the hub's buffer: a
 * reference is taken, nothing copied) for the edge of --publish: its type
 * is b->data[type_off..+type_len), its data, the body of the post,
 * b->data[data_off..+data_len); `round` picks its channels (0: every live
 * round's). Events go out in the order they were queued. Never waits:
 * with the queue full (XQ_PUBLISH_QUEUE_MAX events or
 * XQ_PUBLISH_QUEUE_BYTES) the event is dropped, counted and logged. A
 * no-op without --publish. Cannot fail. */
void xq__publish_event(xq__server *s, xq__buf *b, size_t type_off, size_t type_len, size_t data_off,
                       size_t data_len, int round);

/* What the publisher did, for the log and the tests. */
typedef struct xq__publish_info {
  long long posted;            /* events the edge took (2xx) */
  long long refused;           /* events the edge answered 4xx: dropped, logged */
  long long dropped;           /* events not queued: the queue was full */
  long long retried;           /* posts written again because the connection broke before their
                                  answer (the edge may have taken them: viewers may see them twice) */
  long long connects;          /* connections made to the edge */
  long long posts;             /* posts the edge took: an event each, or a batch of them */
  int queued;                  /* events waiting now (posts in flight included) */
  int up;                      /* connected now */
} xq__publish_info;

/* The counts of the publisher: XQ_OK, or XQ_EINVAL without --publish. */
int xq__publish_info_get(const xq__server *s, xq__publish_info *out);

/* The publisher's life, as the hub's: init at start (without --publish it
 * does nothing: XQ_OK), close its handles at shutdown (the counts go to
 * the log), free it after the loop ran dry; close and free are safe when
 * init never ran. xq__publish_drained is true once nothing is left to
 * post or the edge is unreachable: a shutdown waits for it no longer
 * than its grace period. */
int xq__publish_init(xq__server *s);
int xq__publish_drained(const xq__server *s);
void xq__publish_close(xq__server *s);
void xq__publish_free(xq__server *s);


#endif /* XQ_NET_PUBLISH_H */
