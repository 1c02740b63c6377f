/*
 * net.h -- the tournament server (libuv). The programs that talk to it
 * are in clients/, its command line (`xqref serve`) in cli/serve.c.
 *
 * `xqref serve` keeps a tournament store open and serves, on one event
 * loop: JSON lines over TCP for digital boards, arbiters and organisers
 * (docs/protocol.md), and HTTP for broadcast viewers (PGN, read-only
 * JSON, PGN push); the viewers of the event stream (Server-Sent Events)
 * are handed to a thread with a loop of its own (docs/server.md,
 * "Fan-out"). Board events are judged by the adjudicator and committed to
 * the store in groups before any reply or broadcast says they happened.
 */
#ifndef XQ_NET_H
#define XQ_NET_H

#include <stdio.h>
#include <uv.h>

#include "engine.h"
#include "netlimits.h"

/* An http:// URL split once, where it is given (xq_http_url_parse):
 * where to connect and what to ask. */
typedef struct xq_http_url {
  char host[XQ_URL_HOST_MAX];    /* a name or an IP address (IPv6 without brackets) */
  char port[8];                  /* decimal, 1..65535 */
  char hostport[XQ_URL_HOST_MAX + 8]; /* the Host header, as the URL spells it */
  char target[XQ_URL_MAX];       /* the request target: path and query, "/" at least */
} xq_http_url;

/* Parse `url`, "http://HOST[:PORT][/PATH][?QUERY]" (port 80 by default;
 * HOST a name, an IPv4 address or a bracketed IPv6 one; at most
 * XQ_URL_MAX bytes, without blanks, control characters or a user name)
 * into *out; a '#' fragment is dropped. Returns XQ_OK, or XQ_EINVAL with
 * `err` saying why (another scheme, https included: xqref has no TLS). */
int xq_http_url_parse(const char *url, xq_http_url *out, xq_error *err);

/* The URL of `serve --publish`, an nchan publisher location of an nginx
 * edge (docs/scale.md): as xq_http_url_parse, with a target that is a
 * path of letters, digits and -._~/ only, shorter than
 * XQ_PUBLISH_PATH_MAX, to which a '/' is added when it does not end with
 * one (each event's channels follow it). XQ_OK or XQ_EINVAL with `err`. */
int xq_publish_url_parse(const char *url, xq_http_url *out, xq_error *err);

/* How a server starts. */
typedef struct xq_server_opts {
  const char *db;          /* store file; created when missing */
  int init;                /* also make a new store in an empty (0-byte) db file */
  const char *listen;      /* "host:port" for JSON lines, port 0 = any free */
  const char *http;        /* "host:port" for HTTP, NULL = no HTTP */
  const char *board_address; /* "host:port" the boards reach, printed on the board slips; NULL = the
                              --listen address (none when it is a wildcard: 0.0.0.0, ::) */
  const char *rules;       /* rule set spec (preset or JSON file), NULL = cxa2011 */
  int demo;                /* fill a new store with the demo tournament */
  int demo_players;        /* players of the demo (0 = 16) */
  int signals;             /* handle SIGINT/SIGTERM (the CLI; tests say 0) */
  FILE *out;               /* where the listening lines and tokens go, NULL = none */
  FILE *log;               /* server log, NULL = none */
  const xq_http_url *publish; /* post every broadcast event there too (xq_publish_url_parse), NULL = none */
  int delay_s;             /* viewers without a token see everything this many seconds late
                              (0..XQ_DELAY_MAX_S; 0 = at once: docs/http.md "Delay") */
  int publish_batch_ms;    /* events within this of the last post go in the next (0 = XQ_PUBLISH_BATCH_MS,
                              -1 = every event its own post) */
  /* For tests only, so that a deadline or a full server can be tried in
   * a moment (the command line never sets them); 0 keeps the limit named
   * in net/netlimits.h. */
  double deadline_scale;   /* every connection deadline (XQ_HTTP_HEAD_MS, XQ_LINE_MS, ...) times this */
  int anon_conns_max;      /* in place of XQ_ANON_CONNS_MAX */
  int viewers_max;         /* in place of XQ_VIEWERS_MAX */
} xq_server_opts;

typedef struct xq__server xq_server;

/* Defaults: xqref.db, 127.0.0.1:7878, HTTP 127.0.0.1:8080, cxa2011. */
void xq_server_opts_default(xq_server_opts *o);

/* Open the store, load the event and its games, bind the sockets and
 * start serving on `loop` (the caller runs it). Prints one line per
 * listening socket with the real address to o->out ("json 127.0.0.1:7878",
 * "http 127.0.0.1:8080"), and, when the store is new (or has no live
 * admin token), its admin token, also written to DB.admin with mode 0600;
 * DB.admin is never overwritten: when it exists then, nothing is made and
 * `err` says so. An empty (0-byte) db file is refused unless o->init.
 * Returns XQ_OK with *out, or an engine status with `err`; nothing is left
 * open on failure. */
int xq_server_start(uv_loop_t *loop, const xq_server_opts *o, xq_server **out, xq_error *err);

/* The bound port of the JSON-lines (which 0) or HTTP (which 1) socket. */
int xq_server_port(const xq_server *s, int which);

/* Begin a graceful shutdown: stop accepting, tell clients, let queued
 * writes and commits finish, close every handle after the grace period.
 * The loop then runs dry; call xq_server_free after uv_run returns. */
void xq_server_stop(xq_server *s);

/* Free a stopped server (its handles must be closed: uv_run returned). */
void xq_server_free(xq_server *s);

/* Set this process up for the server and its clients, once at its start
 * (a main, a test runner, a fuzzer's initialisation), before libuv first
 * uses its worker pool: SIGPIPE ignored (a peer that closes during a
 * write must not end the process: the write fails with EPIPE instead);
 * UV_THREADPOOL_SIZE set to XQ_POOL_THREADS when the environment asks for
 * fewer (libuv reads it once, when the process first queues work: a pool
 * started earlier keeps its size); the open-file limit raised to the hard
 * limit. Returns XQ_OK, or XQ_ENOMEM when the
 * environment could not take UV_THREADPOOL_SIZE (the pool keeps libuv's
 * default size; the rest is done). Changes the environment: call it
 * before any thread starts. */
int xq_net_process_init(void);

/* Serve as `xqref serve` does (after xq_net_process_init, which the
 * program calls at its start): start a server with `o` (o->signals aside: SIGINT
 * and SIGTERM are always handled) on a loop of its own and run it until
 * one of those signals has shut it down gracefully. Returns XQ_OK; the
 * status of xq_server_start with `err` when it cannot start; XQ_EIO when
 * a handle was left open at the end (`err` says which). */
int xq_serve(const xq_server_opts *o, xq_error *err);

#endif /* XQ_NET_H */
