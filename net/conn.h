/*
 * conn.h -- buffers and connections (conn.c): reference-counted output
 * buffers shared by every connection that sends them, and one struct per
 * connection with its reads, writes, budgets, deadline and closing. The
 * protocols above (proto.c, http.c) plug in through xq__proto; conn.c
 * calls them through its hooks only. Internal to net/.
 */
#ifndef XQ_NET_CONN_H
#define XQ_NET_CONN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "internal.h"

/* ------------------------------------------------------------------ */
/* Shared output buffers (conn.c)                                      */
/* ------------------------------------------------------------------ */

/* A reference-counted payload: one encoding of a broadcast line is shared
 * by every connection that sends it (docs/server.md), on the loop
 * and on the fan-out thread (the count is atomic). */
typedef struct xq__buf {
  atomic_int refs;
  size_t len;
  char data[];
} xq__buf;

/* A buffer of `len` bytes with one reference, contents uninitialised, or
 * NULL when out of memory. */
xq__buf *xq__buf_new(size_t len);
/* A buffer holding a copy of data[0..len), or NULL. */
xq__buf *xq__buf_copy(const char *data, size_t len);
void xq__buf_ref(xq__buf *b);
/* Drop one reference; the last one frees. NULL is a no-op. */
void xq__buf_unref(xq__buf *b);

/* ------------------------------------------------------------------ */
/* Connections (conn.c)                                                */
/* ------------------------------------------------------------------ */

/* What a connection speaks. conn.c reads into c->in and hands the bytes
 * to `consume`; the protocol never allocates per read. */
typedef struct xq__proto {
  const char *name;            /* "json", "http" */
  size_t in_cap;               /* input buffer size */
  unsigned first_ms;           /* deadline from the accept (0 none): the protocol moves it */
  const char *first_why;       /* ... and the reason logged when it passes */
  /* Consume the buffered bytes c->in[0..c->len): return how many were
   * used (the rest moves to the front and waits for more). May queue
   * writes and may close the connection (then return anything). When
   * the buffer is full and nothing could be used, `overflow` runs. */
  size_t (*consume)(xq__conn *c);
  void (*overflow)(xq__conn *c);
  /* The connection is closing: release protocol state (c->ext) and
   * whatever the protocol set up for it (a broadcast subscription). The
   * only call conn.c makes into the layers above when closing. */
  void (*on_close)(xq__conn *c);
  /* Reading may start again (what the connection owes fell): return 1 to
   * keep it unread, having done what that needs (a revoked session is
   * ended once nothing is owed), 0 to let conn.c decide. NULL: 0. */
  int (*hold_reading)(xq__conn *c);
} xq__proto;

/* Kinds of output budget. */
enum {
  XQ__OUT_PAUSE = 0,  /* request/response: pause reading over XQ_OUT_HIGH */
  XQ__OUT_DROP = 1    /* subscriber: disconnect over XQ_OUT_VIEWER_MAX */
};

struct xq__conn {
  uv_tcp_t tcp;                /* first member: (xq__conn *)handle works */
  uv_timer_t timer;            /* the connection's one deadline (xq__conn_deadline) */
  unsigned deadline_ms;        /* the deadline armed (0 none) ... */
  const char *deadline_why;    /* ... and what is logged when it passes */
  uint64_t part_since;         /* loop time the request being received began, 0 none */
  xq__server *srv;
  const xq__proto *proto;
  uint64_t gen;                /* unique per connection over the server's life */
  int refs;                    /* the server's plus one per pending job/reply */
  int open_handles;            /* tcp, idle: freed when both closed and refs 0 */
  int closing;
  int reading;                 /* uv_read_start is in force */
  int paused;                  /* reads stopped for backpressure */
  int stalled;                 /* no request is served until the output drains (xq__conn_stall) */
  int consuming;               /* inside proto->consume */
  size_t stall_mark;           /* ... to at most this and XQ_OUT_LOW */
  unsigned prestall_ms;        /* the deadline before the stall, armed again after it */
  const char *prestall_why;
  int trusted;                 /* authenticated by a token: outside the anonymous slots */
  int reserve;                 /* took a reserved slot: a token or the close (XQ_CONNS_RESERVED) */
  int out_mode;                /* XQ__OUT_* */
  size_t out_bytes;            /* queued in uv_write, not completed ... */
  uint64_t progress_at;        /* ... and the loop time the socket last took some (or it had none) */
  size_t owed_bytes;           /* reply lines waiting behind earlier replies (proto.c) */
  int pending_replies;         /* replies that come later (xq__reply_wait) */
  int flushing;                /* a waiting reply has its turn (xq__reply_turn): write at once */
  int jobs;                    /* worker-pool jobs queued for this client */
  int held;                    /* no line is dispatched until a ruling, a task or its job is done */
  int whole;                   /* a virtual session dispatched at once, never yielding (an atomic batch) */
  int yielded;                 /* served its turn's budget: waits in the ready queue (turns.c) */
  uint64_t turn;               /* the loop turn its budget counts in ... */
  unsigned turn_n;             /* ... the requests it was served in it ... */
  uint64_t turn_ns;            /* ... and the time they took (ns), before the consume under way */
  uint64_t consume_t0;         /* uv_hrtime() when the consume under way began */
  xq__conn *ready_next;        /* the ready queue (turns.c) */
  char *in;                    /* input buffer, proto->in_cap bytes */
  size_t len;
  size_t scanned;              /* JSON lines: bytes of in[] known to hold no '\n' */
  char peer[64];               /* "127.0.0.1:50312" for the log */
  /* session (JSON lines) */
  int role;                    /* xq_role, XQ_ROLE_NONE before hello */
  int said_hello;              /* a hello was answered ok (its deadline is over) */
  int round, board;            /* a board token's table */
  int has_tok;                 /* the session said hello with a token ... */
  unsigned char tok[XQ_SHA256_LEN]; /* ... of this SHA-256 (to end it when revoked) */
  int revoked;                 /* its token was revoked: 1 ending once its replies are out, 2 ended */
  int hub_watch;               /* subscribed to the broadcast (hub.c) */
  void *ext;                   /* protocol state (HTTP request, ...) */
  xq__conn *prev, *next;       /* the server's list (s->conns, or s->vconns when virtual) */
  /* A session with no socket (xq__conn_virtual): what would be written
   * goes to sink(c, data, len) instead; NULL for a real connection. */
  void (*sink)(xq__conn *c, const char *data, size_t len);
};

/* Queue `len` bytes of `b` from offset `off` (takes a reference; tries
 * uv_try_write first when nothing is queued). Over the budget of the
 * connection's out_mode the connection is paused or closed. Returns
 * XQ_OK, or XQ_EIO when the connection is closing (nothing queued). */
int xq__conn_write(xq__conn *c, xq__buf *b, size_t off);
/* Copy data[0..len) into a new buffer and queue it. As xq__conn_write. */
int xq__conn_send(xq__conn *c, const char *data, size_t len);
/* Take the socket of `c` out of the loop: a copy of its descriptor (close
 * on exec) into *out, and `c` closed without a shutdown (proto->on_close
 * runs, its slot is free), so that another loop may open the socket
 * (uv_tcp_open) and own it. Nothing may be queued on `c` (out_bytes 0).
 * XQ_OK; XQ_EINVAL (a virtual, closing or writing connection) or XQ_EIO
 * (no descriptor left), and then `c` is as it was. */
int xq__conn_detach(xq__conn *c, uv_os_sock_t *out);
/* Close after the queued writes have gone (uv_shutdown, then close). */
void xq__conn_end(xq__conn *c);
/* Close now; queued writes are cancelled. Safe to call twice and from
 * inside consume(). */
void xq__conn_close(xq__conn *c);
/* Keep the struct alive across an asynchronous step (a job, a commit);
 * the matching unref may free it once closed. */
void xq__conn_ref(xq__conn *c);
void xq__conn_unref(xq__conn *c);
/* True when the connection is closing (a reply may be dropped). */
int xq__conn_dead(const xq__conn *c);
/* Accept a connection from listener `server` into a new xq__conn of
 * `proto` (called by the listener's connection callback). */
void xq__conn_accept(xq__server *s, uv_stream_t *server, const xq__proto *proto);
/* A connection with no socket, for running JSON-lines requests on behalf
 * of another protocol (POST /api/op): `proto` consumes its input, and
 * every byte written to it goes to sink(c, data, len), in order. It is in
 * no list of the server, has no handles and no idle timer; closing it only
 * marks it closed (and runs proto->on_close). One reference, the caller's;
 * the last unref frees it. NULL when out of memory. */
xq__conn *xq__conn_virtual(xq__server *s, const xq__proto *proto,
                           void (*sink)(xq__conn *c, const char *data, size_t len), void *ext);
/* Append data[0..len) to a virtual connection's input and let its
 * protocol consume it. XQ_OK, or XQ_ELIMIT when it does not fit in
 * proto->in_cap (nothing appended). */
int xq__conn_feed(xq__conn *c, const char *data, size_t len);
/* Re-check the pause state after out_bytes or pending_replies fell. */
void xq__conn_resume(xq__conn *c);
/* Close every subscriber (a `watch` session) whose socket has taken
 * nothing of what waits for it for XQ_STALL_MS: one that never reads
 * holds its snapshot and its events that long at most (server.c calls
 * this every XQ_TOKEN_RECHECK_MS). Returns how many were closed. */
int xq__conn_drop_deaf(xq__server *s);
/* A deadline of `ms` times the tests' deadline_scale (net.h): `ms` itself
 * when the scale is 0 (or not above 0); the product is clamped to
 * 0..UINT32_MAX ms before it becomes an integer. Cannot fail. */
uint64_t xq__conn_scaled_ms(const xq__server *s, uint64_t ms);
/* Output budgets checked on every reply (docs/security.md): when what
 * `c` has queued and not sent (out_bytes + owed_bytes) is over `mark`, or
 * it is owed over XQ_OWED_HIGH replies, the connection stalls: it is not
 * read and its protocol must serve none of its buffered requests (they
 * wait, in order). Once the output is down to min(mark, XQ_OUT_LOW) and
 * the replies owed to XQ_OWED_LOW, conn.c hands the buffered bytes to
 * consume() again and reads again. A stalled connection whose output does
 * not drain within XQ_STALL_MS is closed (logged). Returns 1 when `c`
 * stalled (or already was), 0 when it may go on. A virtual session never
 * stalls. */
int xq__conn_stall(xq__conn *c, size_t mark);
/* Arm the connection's one deadline: `ms` from now it is closed with
 * `why` logged, unless the deadline is moved or cleared first (ms 0
 * clears it). Reading does not move it: a protocol arms it for what it
 * waits for (a hello, the rest of a line or of a request head, the next
 * request), so a client trickling bytes cannot extend it. While the
 * connection waits for its own replies (a commit, a job, a ruling) the
 * deadline is not its fault and starts again. No-op for a virtual
 * session. A test server runs every deadline `deadline_scale` times as
 * long (xq_server_opts). */
void xq__conn_deadline(xq__conn *c, unsigned ms, const char *why);
/* `c` was authenticated by a token (1) or lost it (0): a trusted
 * connection holds none of the XQ_ANON_CONNS_MAX anonymous slots, and
 * one that came in on a reserved slot keeps its place. */
void xq__conn_trust(xq__conn *c, int trusted);
/* Hand the buffered bytes to the protocol again (what a read does). */
void xq__conn_process(xq__conn *c);

/* ------------------------------------------------------------------ */
/* Fair turns (turns.c)                                                */
/* ------------------------------------------------------------------ */

/* Called by a protocol before it serves each request of `c`: 0 to serve
 * it, 1 when `c` has had its share of this loop turn (XQ_TURN_*; less
 * for an anonymous connection, and anonymous connections together at
 * most XQ_TURN_ANON_ALL_US). Then `c` is not read, its protocol must
 * serve nothing more (the request waits in c->in, its deadline not
 * running) and it is queued: the next turn hands its bytes to consume()
 * again before the loop polls, the boards' and staff's connections before
 * the anonymous ones, each queue in its order. A virtual session yields
 * too (its lines wait in its buffer), unless it is dispatched whole
 * (c->whole); nobody yields while the server stops. */
int xq__turns_yield(xq__conn *c);
/* Count `ns` of the loop's time, spent on `c`'s behalf outside its reads
 * (a task that waited for a commit), in its share of this turn: what it
 * is served next in the turn is less, or nothing. */
void xq__turns_charge(xq__conn *c, uint64_t ns);
/* The loop turn is over (after the poll): budgets start again. */
void xq__turns_next(xq__server *s);
/* Start the ready queue's idle handle (server start) / close it and let
 * go of the connections waiting in it (server stop). */
int xq__turns_init(xq__server *s);
void xq__turns_close(xq__server *s);

/* Hold a connection while one of its requests is judged off the loop
 * (or waits for its turn, or its job: task.c):
 * nothing more is read or dispatched from it until xq__conn_unhold, which
 * dispatches what was buffered meanwhile and reads again. */
void xq__conn_hold(xq__conn *c);
void xq__conn_unhold(xq__conn *c);


#endif /* XQ_NET_CONN_H */
