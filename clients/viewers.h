/*
 * viewers.h -- the viewers of xqref loadgen (viewers.c; xq__viewers_ prefix;
 * not a public interface): connections that follow the broadcast for a
 * whole run, JSON-lines `watch` on the server, or Server-Sent Events on
 * the server's /api/events or on any URL (an edge: docs/scale.md). What
 * they receive is counted, compared from viewer to viewer and timed from
 * the server's "at" (the time an event was broadcast) to its arrival.
 */
#ifndef XQ_CLIENTS_VIEWERS_H
#define XQ_CLIENTS_VIEWERS_H

#include <stdio.h>
#include <sys/socket.h>
#include <uv.h>

#include "net.h"

typedef struct xq__viewers xq__viewers;

/* Who watches, and where. */
typedef struct xq__view_opts {
  int jsonl;                   /* JSON-lines viewers on jsonl_addr */
  int sse;                     /* SSE viewers: on urls[] in turn, or without urls on sse_addr's /api/events */
  const struct sockaddr *jsonl_addr, *sse_addr;
  const xq_http_url *urls;     /* nurls of them (0: none) */
  const struct sockaddr_storage *url_addrs; /* where each of urls[] connects */
  int nurls;
  FILE *stream_log;            /* NULL, or gets the event and data lines of the first SSE viewer */
  FILE *log;                   /* the run's messages ("viewer N: ..."), NULL none */
  int cpu;                     /* the viewers' thread's core, -1 any */
  void (*ready)(void *arg);    /* called once every viewer is subscribed or lost */
  void *arg;
} xq__view_opts;

/* Connect o->jsonl + o->sse viewers (each subscribes at once: a `watch`,
 * or a GET of its stream) on a loop and thread of their own; `loop`, the
 * run's, keeps one handle open until their thread is done. Returns XQ_OK
 * with *out, XQ_ENOMEM, or XQ_EIO when no thread could be made. o->ready
 * runs on `loop` (before this returns when there is no viewer) once
 * every viewer's stream has begun -- the server or the edge took its
 * subscription -- or it was lost. The calls below are made on `loop`;
 * lost, report and free only after it ran dry. */
int xq__viewers_start(uv_loop_t *loop, const xq__view_opts *o, xq__viewers **out);
/* Viewers whose stream has not begun and that were not lost. */
int xq__viewers_pending(const xq__viewers *v);
/* Viewers the server or the edge ended, refused (an HTTP status but
 * 200) or never let in. */
long xq__viewers_lost(const xq__viewers *v);
/* The run is over: close every connection once no viewer has received a
 * byte for XQ_LOADGEN_VIEWER_QUIET_MS (the last events are still on
 * their way, through an edge perhaps), at the latest after
 * XQ_LOADGEN_VIEWER_DRAIN_MS. */
void xq__viewers_end(xq__viewers *v);
/* Close every connection now (the loop then runs dry). Safe twice. */
void xq__viewers_close(xq__viewers *v);
/* Print the viewers' lines of the loadgen report to `out`: connections,
 * events and bytes received; for SSE the events of each viewer (fewest,
 * most), how many received exactly the stream of the first SSE viewer
 * (the event and data lines, ids aside: ids are the server's or the
 * edge's), by URL when there are several; and the delivery latency,
 * broadcast ("at") to arrival, p50 p90 p99 p99.9 max in ms. Returns
 * the number of SSE viewers whose stream differs from the first's. */
long xq__viewers_report(xq__viewers *v, FILE *out);
/* Free (after the loop ran dry). NULL is a no-op. */
void xq__viewers_free(xq__viewers *v);

#endif /* XQ_CLIENTS_VIEWERS_H */
