/*
 * net_client.h -- a scripted client and an in-process server for the
 * protocol tests: the server runs on a loop the test owns, the client on
 * the same loop, and the test drives the loop until what it waits for
 * has happened (or a timeout passed). Stopping the server runs the loop
 * dry and returns uv_loop_close's result: 0 proves no handle leaked.
 */
#ifndef XQ_TEST_NET_CLIENT_H
#define XQ_TEST_NET_CLIENT_H

#include <cjson/cJSON.h>
#include <uv.h>

#include "net.h"

#define XQ_TC_IN_MAX (4 * 1024 * 1024) /* bytes a test client keeps */
#define XQ_TC_LINES_MAX 65536
#define XQ_TS_TOKENS_MAX 128
#define XQ_TC_TICK_MS 5 /* xq_tc_run_until looks at its condition at least this often */

/* What a test may change in the server it starts, to try a deadline or
 * a full server in a moment (xq_server_opts; 0: the server's own limit). */
typedef struct xq_ts_tuning {
  double deadline_scale;          /* every connection deadline times this */
  int anon_conns_max;             /* in place of XQ_ANON_CONNS_MAX */
  int viewers_max;                /* in place of XQ_VIEWERS_MAX */
  int publish_batch_ms;           /* serve's opts.publish_batch_ms (-1: every event its own post) */
  const char *listen;             /* the JSON-lines address, in place of 127.0.0.1:0 */
  const char *board_address;      /* serve's opts.board_address (--board-address) */
  int delay_s;                    /* serve's opts.delay_s (--delay) */
} xq_ts_tuning;

/* A server on a test-owned loop with a fresh store. */
typedef struct xq_tserver {
  uv_loop_t loop;
  xq_server *srv;
  char dir[128];                  /* temporary directory of the store */
  char db[192];
  int port, http_port;
  char admin[64];                 /* the admin token */
  char arbiter[64];               /* an arbiter token (demo) */
  int nboards;                    /* board tokens of round 1 (demo) */
  char board[XQ_TS_TOKENS_MAX][64]; /* board[t - 1] = token of table t */
  xq_ts_tuning tune;              /* what the server was started with */
} xq_tserver;

/* Start a server with a demo of `players` players (0 = no demo) on
 * 127.0.0.1 port 0 (JSON and HTTP). Returns 0 or -1. */
int xq_ts_start(xq_tserver *ts, int players);
/* As xq_ts_start, with the limits of `t` (NULL: none changed), which a
 * restart keeps. */
int xq_ts_start_tuned(xq_tserver *ts, int players, const xq_ts_tuning *t);
/* As xq_ts_start_tuned, posting its broadcast to `publish` too (serve
 * --publish; NULL: not). Returns 0 or -1. */
int xq_ts_start_publish(xq_tserver *ts, int players, const xq_http_url *publish, const xq_ts_tuning *t);
/* Restart on the same store (after xq_ts_stop). Returns 0 or -1. */
int xq_ts_restart(xq_tserver *ts);
/* Stop gracefully, run the loop dry, free; returns uv_loop_close's result
 * (0: every handle closed), or when that is 0 the fan-out loop's (its
 * thread's: 0 when it closed with every handle closed too). The store
 * stays until xq_ts_cleanup. */
int xq_ts_stop(xq_tserver *ts);
/* Remove the store's directory. */
void xq_ts_cleanup(xq_tserver *ts);

/* A client connection. */
typedef struct xq_tclient {
  uv_tcp_t tcp;
  uv_connect_t creq;
  uv_loop_t *loop;
  int connected, failed, eof, closed;
  int full;                       /* XQ_TC_IN_MAX bytes kept: reading stopped (xq_tc_reading) */
  char *in;                       /* everything received, NUL-terminated */
  size_t len;
  size_t line_start;              /* where the next unread line begins */
} xq_tclient;

/* Connect to 127.0.0.1:port, running the loop until connected. 0 / -1. */
int xq_tc_connect(xq_tclient *c, uv_loop_t *loop, int port);
/* Send raw bytes (copied). */
void xq_tc_send_raw(xq_tclient *c, const char *data, size_t len);
/* Send `line` and a '\n'. */
void xq_tc_send(xq_tclient *c, const char *line);
/* The next complete line received (malloc'd, without '\n'), running the
 * loop up to timeout_ms for it; NULL on timeout or EOF. */
char *xq_tc_line(xq_tclient *c, int timeout_ms);
/* The next line parsed as JSON (caller deletes), or NULL. */
cJSON *xq_tc_json(xq_tclient *c, int timeout_ms);
/* The next line that is not a broadcast event (no "event" member), as
 * JSON (caller deletes), or NULL. */
cJSON *xq_tc_reply(xq_tclient *c, int timeout_ms);
/* Send a request line and return the next line as JSON. */
cJSON *xq_tc_call(xq_tclient *c, const char *line);
/* Run the loop until the server closed the connection (EOF); 1 if so. */
int xq_tc_wait_eof(xq_tclient *c, int timeout_ms);
/* Close and run the loop until closed. */
void xq_tc_close(xq_tclient *c);
/* Stop (on 0) or start again (on 1) reading what the server sends: a
 * client that does not read its answers; or one whose buffer was full
 * (`full`) and that made room. */
void xq_tc_reading(xq_tclient *c, int on);
/* Run the loop until done(arg) is true or timeout_ms passed; returns
 * done(arg), looked at after every turn of the loop and at least every
 * XQ_TC_TICK_MS (for what another thread changes). */
int xq_tc_run_until(uv_loop_t *loop, int (*done)(void *), void *arg, int timeout_ms);
/* Run the loop for up to ms milliseconds (lets the server work). */
void xq_tc_spin(uv_loop_t *loop, int ms);

/* The "error"."code" of a reply, or NULL when it has none. */
const char *xq_tc_error(const cJSON *reply);

/* One HTTP response read by the scripted client. */
typedef struct xq_tresp {
  int status;
  char head[4096];             /* the head, cut at 4095 bytes */
  char *body;                  /* NUL-terminated, malloc'd (xq_tresp_free) */
  size_t len;
} xq_tresp;

/* Read the next HTTP response on `c` into *r, running the loop up to
 * timeout_ms for it. `head_only` (an answer to HEAD) expects no body; a
 * 304 never has one; a response without Content-Length ends at EOF.
 * Returns 0, or -1 on timeout or a malformed head (*r then empty). */
int xq_tc_response(xq_tclient *c, xq_tresp *r, int head_only, int timeout_ms);
/* Connect to 127.0.0.1:port, send `req` raw, read one response (HEAD
 * requests expect no body) and close. Returns 0 or -1. */
int xq_tc_http(uv_loop_t *loop, int port, const char *req, xq_tresp *r);
void xq_tresp_free(xq_tresp *r);

/* Replies, asserted (Criterion: a failed check fails the current test).
 * xq_tc_callf: send the printf-formatted request line and return its
 * reply (never NULL; the caller deletes it). xq_tj_*: a reply's "ok",
 * a member, a string member (NULL when not a string), a number member
 * (must be one). xq_tc_expect_error: the reply is an error with `code`
 * (returns the error object); xq_tc_expect_ok: the reply is ok. */
cJSON *xq_tc_callf(xq_tclient *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int xq_tj_ok(const cJSON *r);
const cJSON *xq_tj_get(const cJSON *o, const char *k);
const char *xq_tj_str(const cJSON *o, const char *k);
double xq_tj_num(const cJSON *o, const char *k);
const cJSON *xq_tc_expect_error(const cJSON *r, const char *code);
void xq_tc_expect_ok(const cJSON *r);
/* Send the printf-formatted request line and check that its reply is ok
 * (xq_tc_okf) or the error `code` (xq_tc_errf); the reply is freed. */
void xq_tc_okf(xq_tclient *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void xq_tc_errf(xq_tclient *c, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* XQ_TEST_NET_CLIENT_H */
