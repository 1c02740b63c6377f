/*
 * internal.h -- the parts of the server shared by the files of net/ (xq__
 * prefix); not a public interface. The public one is net.h.
 *
 * Files: server.c (listeners, signals, shutdown, serve), conn.c (one
 * struct per connection: reads, writes, budgets, idle timers, closing),
 * proto.c (JSON lines: framing, dispatch, authentication, replies),
 * ops_engine.c / ops_game.c / ops_tourney.c / ops_ko.c (the operations;
 * task.c runs those that need the store), live.c (the games in play,
 * the knockout tables among them), commit.c (group commit of the game
 * log), hub.c (the broadcast: numbering, encoding, resume, JSON-lines
 * subscribers), fanout.c (the SSE viewers, on a thread and loop of their
 * own), http.c (HTTP/1.1 requests
 * and the read-only API), http_parse.c (the HTTP/1.1 request and response
 * parser), game_state.c (live games as JSON), pgn_out.c (live games as
 * PGN), ingest.c (PGN ingestion: push and polled documents), poll.c (the
 * PGN URL poller), url.c (http:// URLs), publish.c (the broadcast posted
 * to an nginx + nchan edge), jobs.c (the queue of CPU-heavy jobs), log.c (the server log).
 */
#ifndef XQ_NET_INTERNAL_H
#define XQ_NET_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdatomic.h>
#include <stdint.h>
#include <uv.h>

#include "adjudicator.h"
#include "knockout.h"
#include "netlimits.h"
#include "net.h"
#include "pair/pair.h"
#include "store/store.h"
#include "tourney.h"

typedef struct xq__server xq__server;
typedef struct xq__conn xq__conn;

/* ------------------------------------------------------------------ */
/* Shared output buffers (conn.c)                                      */
/* ------------------------------------------------------------------ */

/* A reference-counted payload: one encoding of a broadcast line is shared
 * by every connection that sends it (server.md §1.3 fan-out), on the loop
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
  size_t out_bytes;            /* queued in uv_write, not completed */
  size_t owed_bytes;           /* reply lines waiting behind a commit (xq__commit_reply) */
  int pending_replies;         /* replies waiting for a commit */
  int flushing;                /* commit.c is sending a waiting reply: write it now */
  int jobs;                    /* worker-pool jobs queued for this client */
  int held;                    /* no line is dispatched until a ruling off the loop is done */
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
/* Hold a connection while one of its requests is judged off the loop:
 * nothing more is read or dispatched from it until xq__conn_unhold, which
 * dispatches what was buffered meanwhile and reads again. */
void xq__conn_hold(xq__conn *c);
void xq__conn_unhold(xq__conn *c);

/* ------------------------------------------------------------------ */
/* JSON lines (proto.c)                                                */
/* ------------------------------------------------------------------ */

extern const xq__proto xq__json_proto;

/* One request being served. */
typedef struct xq__req {
  xq__conn *c;
  const cJSON *json;           /* the whole request object */
  const cJSON *id;             /* the "id" member, NULL when absent */
  const char *op;
} xq__req;

typedef void (*xq__op_fn)(xq__server *s, xq__req *r);

/* Role bits of an operation; 0 = anyone, before or after hello. */
#define XQ__R(role) (1u << (role))
#define XQ__STAFF (XQ__R(XQ_ROLE_ADMIN) | XQ__R(XQ_ROLE_ARBITER))
typedef struct xq__op {
  const char *name;
  unsigned roles;
  xq__op_fn fn;
} xq__op;

/* The operation tables, each ended by {NULL, 0, NULL}. */
extern const xq__op xq__engine_ops[];   /* ops_engine.c: stateless engine services */
extern const xq__op xq__game_ops[];     /* ops_game.c: boards and arbiters on live games */
extern const xq__op xq__tourney_ops[];  /* ops_tourney.c: players, rounds, tokens, exports */
extern const xq__op xq__players_ops[];  /* ops_players.c: edit_player, numbers, withdraw, reinstate, absent */
extern const xq__op xq__ingest_ops[];   /* ingest.c: ingest_url, ingest_stop */
extern const xq__op xq__ko_ops[];       /* ops_ko.c: knockout, ko_start, ko_publish */

/* The knockout stage as JSON (ops_ko.c; needed by http.c): seeds,
 * matches with their games, winners and table in play, the knockout
 * tables, the places; {"started":false} before it starts. A new object,
 * NULL when out of memory. */
cJSON *xq__ko_json(const xq__server *s);

/* Stable error codes (docs/protocol.md). */
#define XQ__E_BAD_JSON "BAD_JSON"
#define XQ__E_BAD_REQUEST "BAD_REQUEST"
#define XQ__E_UNKNOWN_OP "UNKNOWN_OP"
#define XQ__E_LINE_TOO_LONG "LINE_TOO_LONG"
#define XQ__E_AUTH "AUTH_REQUIRED"
#define XQ__E_BAD_TOKEN "BAD_TOKEN"
#define XQ__E_FORBIDDEN "FORBIDDEN"
#define XQ__E_WRONG_TABLE "WRONG_TABLE"
#define XQ__E_SEQ "BAD_SEQ"
#define XQ__E_NOTATION "BAD_NOTATION"
#define XQ__E_AMBIGUOUS "AMBIGUOUS_MOVE"
#define XQ__E_ILLEGAL "ILLEGAL_MOVE"
#define XQ__E_FEN "BAD_FEN"
#define XQ__E_NOT_FOUND "NOT_FOUND"
#define XQ__E_CONFLICT "CONFLICT"
#define XQ__E_GAME_OVER "GAME_OVER"
#define XQ__E_PAUSED "GAME_PAUSED"
#define XQ__E_BUSY "BUSY"
#define XQ__E_LIMIT "LIMIT"
#define XQ__E_STORE "STORE_FAILED"
#define XQ__E_SHUTDOWN "SHUTTING_DOWN"
#define XQ__E_INTERNAL "INTERNAL"
#define XQ__E_REVOKED "REVOKED"

/* Reply {"id":ID,"ok":true,FIELDS}\n where `fields` is the text of zero
 * or more JSON members without braces ("" or NULL for none). */
void xq__reply(xq__conn *c, const cJSON *id, const char *fields);
/* Reply with the members of object `obj` (consumed), plus id and ok. */
void xq__reply_obj(xq__conn *c, const cJSON *id, cJSON *obj);
/* Reply {"id":ID,"error":{"code":CODE,"msg":MSG[,"ply":PLY]}}\n; ply < 0
 * leaves it out. */
void xq__reply_error(xq__conn *c, const cJSON *id, const char *code, const char *msg, int ply);
/* The error code for an engine status (XQ_EILLEGAL -> ILLEGAL_MOVE, ...). */
const char *xq__error_code(int status);
/* The request id as JSON text ("7", "\"a\"", "null"), malloc'd. */
char *xq__id_text(const cJSON *id);
/* Send a reply whose body was stored without an id: `body` is a JSON
 * object text "{...}"; the id is spliced in front of its members. */
void xq__reply_stored(xq__conn *c, const char *idtext, const char *body);

/* End every JSON-lines session whose token is no longer in the server's
 * token cache (revoked, here or by another process): its role is gone at
 * once, nothing more it sent is dispatched, it gets one line
 * {"id":null,"error":{"code":"REVOKED",...}} after the replies it is still
 * owed, and is then closed (docs/security.md). Call after every refresh
 * of the cache. Sessions already ending are left alone; those whose
 * replies are still coming are ended when the last one has gone
 * (commit.c) or at the next token re-check (server.c). */
void xq__sessions_revoked(xq__server *s);
/* End a revoked session now if nothing is owed to it any more. */
void xq__session_end_if_done(xq__conn *c);

/* Run the JSON-lines requests of `text` (len bytes, one request a line,
 * blank lines skipped) for a session with the role of `tok` (one of
 * s->tokens; a board token's table) that has no socket: the same
 * dispatcher, role checks, ordering and replies as a TCP connection that
 * said hello with that token. When the token is revoked while the
 * requests run, those not dispatched yet are answered as for a session
 * without a role (AUTH_REQUIRED where a role is needed). `hello`, `watch` and `unwatch` are refused (BAD_REQUEST): the
 * token comes with the caller, streams go over SSE. Once every request has
 * its reply -- replies that wait for a group commit or a worker job come
 * when those are done -- done(arg, lines, n) runs once with the reply
 * lines in the order they were given (each ending in '\n'; lines NULL
 * when out of memory); it may run before this returns. Returns XQ_OK
 * (done will run), or XQ_EINVAL (no request), XQ_ELIMIT (over
 * XQ_OP_LINES_MAX requests or XQ_MAX_LINE bytes) or XQ_ENOMEM, and then
 * done will not run. */
typedef void (*xq__op_done)(void *arg, const char *lines, size_t n);
int xq__op_run(xq__server *s, const xq_ttoken *tok, const char *text, size_t len, xq__op_done done,
               void *arg);

/* True when `v` is a JSON number holding a whole value in the range of
 * int: only then may it be cast to int (a cast of 1e300 is undefined
 * behaviour, C11 6.3.1.4). */
int xq__is_int(const cJSON *v);
/* Request field helpers: NULL / default when absent or of another type. */
const char *xq__str(const cJSON *o, const char *key);
int xq__int(const cJSON *o, const char *key, int dflt, int *ok);

/* ------------------------------------------------------------------ */
/* Live games (live.c) and the group commit (commit.c)                 */
/* ------------------------------------------------------------------ */

/* One game being played or followed: a published board of a round. */
typedef struct xq__live {
  int round, board;
  int red, black;              /* player ids (black 0: the bye, no game) */
  xq_game *g;                  /* the adjudicator's state */
  int64_t last_seq;            /* highest board sequence number applied */
  int recorded;                /* the result is in the tourney log */
  int busy;                    /* an event is being judged off the loop */
  int rebuild;                 /* marked for xq__live_rebuild_marked */
  long clock_ms[2];            /* last clock reading, -1 none */
  int64_t clock_at;            /* wall clock (µs since 1970) of the last reading, 0 unknown (a
                                  game replayed at start): the side to move's clock runs since */
  char *verdict;               /* the JSON of the last ruling that was not a plain acceptance
                                  (games.json keeps it across reloads), NULL none */
  struct {
    int64_t seq;
    char *reply;               /* stored reply body "{...}" */
  } cache[XQ_REPLY_CACHE];     /* the last board replies, by seq % size */
} xq__live;

/* The game of board `board` in round `round`, or NULL when not paired. */
xq__live *xq__live_get(xq__server *s, int round, int board);
/* Add the games of a newly published round (pairings from the store). */
int xq__live_add_round(xq__server *s, int round, xq_error *err);
/* The game's clocks as the state and every event say them, in ms: the
 * adjudicator's (increments and penalties applied) once it has a
 * reading, else the board's last reading; -1 none. */
void xq__live_clock(const xq__live *lv, long out[2]);
/* Keep `v` as the game's last ruling when it is not a plain acceptance
 * (a foul, a claim, an arbiter's decision, a must-change order...), for
 * the games' state; `json` is its xq_verdict_json text when the caller
 * has it (copied), NULL to make it here. On the loop only. Out of memory
 * keeps the one before. */
void xq__live_note_verdict(xq__live *lv, const xq_verdict *v, const char *json);
/* Note the reply to board seq `seq` (copied) for resends; last_seq grows. */
void xq__live_remember(xq__live *lv, int64_t seq, const char *reply);
/* When the game has a final result not yet in the tournament log, record
 * it there once the game's rows are durable, and broadcast "result". */
void xq__live_settle(xq__server *s, xq__live *lv);
/* Put the game's fouls (犯规) that the tournament log does not hold yet
 * into it, for the FOULS tie-break; called with the result, with the store
 * idle. */
void xq__live_record_fouls(xq__server *s, xq__live *lv);
/* Set the result `code` of the game in the server's event (s->ev), as the
 * tournament log now records it: the event stays in step with the log
 * without a reload. */
void xq__live_note_result(xq__server *s, const xq__live *lv, const char *code);
/* The knockout tables (round XQ_KO_ROUND): reload the stage from the
 * store into s->ko and start a game for every table published since (its
 * rules from xq__ko_rules). XQ_OK, or a store or memory status. */
int xq__live_add_ko(xq__server *s, xq_error *err);
/* The rules of a knockout game of `type` in match `match` of `ko`:
 * `base` with the clock of xq_ko_clock (Black's own base time in an
 * armageddon; a final's own time control) and the armageddon flag (a
 * draw is a Black win). */
void xq__ko_rules(const xq_rules *base, const xq_ko *ko, int match, int type, xq_rules *out);
/* Rebuild a game from the store's log (after a failed commit). */
int xq__live_rebuild(xq__server *s, xq__live *lv, xq_error *err);
/* Rebuild every game marked with lv->rebuild in one pass over the log. */
int xq__live_rebuild_marked(xq__server *s, xq_error *err);
/* "1-0", "0-1", "1/2-1/2" or "*" for the game's result. */
const char *xq__live_result(const xq__live *lv);
/* Apply events ev[0..n) (one request's or one log row's) to the game, in
 * memory (xq_game_apply), and keep the last clock reading. Returns XQ_OK
 * with *v the verdict that matters, or an engine status with `err`. */
int xq__live_apply(xq__live *lv, const xq_event *ev, int n, xq_verdict *v, xq_error *err);

/* One row waiting for the next group commit. Strings are owned (freed
 * after the commit). */
typedef struct xq__row {
  xq_tgame_rec rec;            /* rec.event / rec.reply point into the owned strings */
  char *event, *reply;         /* event: the text form of the row's events */
  char *bcast;                 /* broadcast data published once durable, NULL none */
  const char *bcast_type;      /* "move", "verdict", "result", ... (static) */
  xq__conn *c;                 /* reply destination (referenced), NULL none */
  char *idtext;                /* the request id to splice into the reply */
  char tresult[4];             /* a result for the tournament log, written in the row's
                                  transaction ("" none; xq__commit_attach_result) */
} xq__row;

/* Queue a game-log row of round/board/source/seq of `rec` holding the
 * events ev[0..n) (stored in their text form, xq_events_format; rec->event
 * is not read) and rec->reply (body text "{...}", copied); the reply goes
 * to `c` (may be NULL) with the id of `id` once the row is durable, and
 * `bcast` (may be NULL) is published to the hub then. Returns XQ_OK or
 * XQ_ENOMEM / XQ_ELIMIT (nothing queued). */
int xq__commit_row(xq__server *s, const xq_tgame_rec *rec, const xq_event *ev, int n, xq__conn *c,
                   const cJSON *id, const char *bcast_type, const char *bcast);
/* Rows queued for the next group commit (replies-only rows included). */
int xq__commit_queued(const xq__server *s);
/* Write the tournament result `code` (as xq_tstore_result takes it) in the
 * same transaction as the row queued last, which must be the game-log row
 * of round/board: when that row's reply says it is durable, the result is
 * in the tournament log too, and a crash cannot keep one without the
 * other. XQ_OK, or XQ_EINVAL when the last row is not that game's (nothing
 * attached). A result the store refuses does not fail the batch: it is
 * logged. */
int xq__commit_attach_result(xq__server *s, int round, int board, const char *code);
/* Run fn(arg, status) once everything queued so far is durable (status
 * XQ_OK) or failed to commit (XQ_ESTORE), with no batch open: store
 * writes are safe inside fn. */
void xq__commit_then(xq__server *s, void (*fn)(void *arg, int status), void *arg);
/* Send the reply line `line` (len bytes, copied) to `c` after everything
 * queued so far: used by the reply helpers while c has replies waiting
 * for a commit, so that replies keep request order. */
int xq__commit_reply(xq__server *s, xq__conn *c, const char *line, size_t len);
/* True when no commit is running: the loop thread may use the store. */
int xq__store_idle(const xq__server *s);

/* ------------------------------------------------------------------ */
/* CPU jobs in the worker pool (jobs.c; needed by ops_engine.c and      */
/* ops_tourney.c)                                                      */
/* ------------------------------------------------------------------ */

typedef struct xq__jobs xq__jobs;
/* The lanes: each has its own slots in the pool (netlimits.h), so a
 * pairing never waits behind an engine job. */
enum {
  XQ__LANE_ENGINE,    /* perft, adjudicate (ops_engine.c): XQ_ENGINE_RUNNING_MAX */
  XQ__LANE_TOURNEY,   /* pair (ops_tourney.c): XQ_TOURNEY_RUNNING_MAX */
  XQ__LANES
};
/* One job: embed it as the first member of the job's own struct. */
typedef struct xq__job {
  uv_work_t work;
  xq__server *s;
  int lane;                                     /* XQ__LANE_* */
  xq__conn *owner;                              /* the client (one job of it runs at a time), NULL none */
  int role;                                     /* the client's role when queued (xq__jobs_count) */
  void (*run)(struct xq__job *j);              /* on a worker thread */
  void (*after)(struct xq__job *j, int status); /* on the loop; may free j */
  struct xq__job *next;                         /* the waiting queue */
} xq__job;
/* Run run(j) in the worker pool and then after(j, status) on the loop
 * (status 0, or UV_ECANCELED), in lane `lane` (XQ__LANE_*): at most the
 * lane's slots of its jobs are in the pool at once server-wide, whatever
 * the other lane holds, and one per `owner` (a connection; NULL: no such
 * limit); the others wait in arrival order. `role` is kept for
 * xq__jobs_count. The caller checks its caps first (xq__jobs_count).
 * Returns XQ_OK (after will run), or XQ_ENOMEM / XQ_EIO / XQ_EINVAL (a
 * lane that does not exist): then it will not. */
int xq__job_queue(xq__server *s, xq__job *j, int lane, xq__conn *owner, int role,
                  void (*run)(xq__job *), void (*after)(xq__job *, int));
/* The jobs of lane `lane` queued or running, of `owner` only when not
 * NULL and of role `role` only when >= 0 (the callers' caps per client
 * and per role). */
int xq__jobs_count(const xq__server *s, int lane, const xq__conn *owner, int role);
/* Take out of lane `lane` the waiting jobs whose owner is closing (it
 * would start them only to abandon them) and run their after with
 * UV_ECANCELED, so that they count for no cap any more. For a lane whose
 * jobs are of no use once their client has gone (the engine lane; a
 * pairing with publish is carried out all the same). */
void xq__jobs_drop_gone(xq__server *s, int lane);
/* The jobs of lane `lane` in the pool now (for tests and the log). */
int xq__jobs_running(const xq__server *s, int lane);

/* ------------------------------------------------------------------ */
/* Broadcast (hub.c)                                                   */
/* ------------------------------------------------------------------ */

/* Publish an event of `type` ("move", "verdict", "result", "pairing",
 * "standings", "game", "players") about round/board (0 = none) with data `json` (an
 * object's text). Returns its event id (increasing). */
int64_t xq__hub_publish(xq__server *s, const char *type, int round, int board, const char *json);

/* Tell the open pages that the players changed (a name, a number, who
 * plays): a `players` event, after which they read the event and the
 * round again (ops_players.c). */
void xq__players_changed(xq__server *s);

/* The tables of `round` as a pairing (ops_ko.c): a Swiss round's
 * published boards, or for XQ_KO_ROUND every knockout table published
 * (its red and black), for the slips and the score sheets. XQ_OK with
 * *pr filled (free with xq_tpairing_clear), XQ_EINVAL (not published;
 * `err` says so), XQ_ENOMEM or the store's code. */
int xq__round_tables(xq__server *s, int round, xq_tpairing *pr, xq_error *err);
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

/* ------------------------------------------------------------------ */
/* The SSE fan-out: a thread and a loop of its own (fanout.c)          */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* The edge: the broadcast posted to nchan (publish.c)                 */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* HTTP (http.c) and ingestion (ingest.c)                              */
/* ------------------------------------------------------------------ */

extern const xq__proto xq__http_proto;

/* Game state as JSON (game_state.c; needed by http.c and hub.c): one
 * game {"round","table","red","black","fen","moves",...} as a new cJSON
 * object (NULL when out of memory), and every game of round `round` as
 * the malloc'd text of an array (NULL when the round is not published). */
cJSON *xq__game_state(xq__server *s, const xq__live *lv);
char *xq__round_state_json(xq__server *s, int round);
/* The result as the tournament knows it: "1-0", "0-1", "1/2-1/2", "*",
 * or a forfeit recorded by an arbiter: "+-", "-+", "--". */
const char *xq__game_result_text(const xq__server *s, const xq__live *lv);

/* The files of the live page (web/), embedded at build time
 * (web_assets.c, generated by net/embed_web.cmake); the table ends with a
 * row whose path is NULL. */
typedef struct xq__web_asset {
  const char *path;            /* "index.html", "app.js", ... */
  const char *type;            /* Content-Type */
  const unsigned char *data;
  size_t len;
} xq__web_asset;
extern const xq__web_asset xq__web_assets[];

/* XQ-PGN of live games (pgn_out.c): one game, or every game of a round in
 * board order, with moves in `notation`, as malloc'd text (*len bytes);
 * NULL when out of memory or not published. Tags from the pairing (Event,
 * Round "R.T", Table, Red, Black, RedElo, BlackElo, Result, FEN when not
 * the standard start). */
char *xq__pgn_game(xq__server *s, const xq__live *lv, xq_notation notation, size_t *len);
char *xq__pgn_round(xq__server *s, int round, xq_notation notation, size_t *len);

/* PGN ingestion (ingest.c; needed by http.c for POST .../push): match the
 * games of `text` (len bytes) to the boards of round `round`, apply what
 * is new, and once every row is durable call done(arg, status, json)
 * with the reply body {"games":[...]} (malloc'd, the callee frees it;
 * NULL with status < 0 when the push could not be taken at all: json
 * then holds an error message or NULL). Returns XQ_OK (done will run,
 * possibly before this returns) or an engine status (done will not run:
 * `err` says why, e.g. too many games, no such round). */
typedef void (*xq__ingest_done)(void *arg, int status, char *json);
int xq__ingest_pgn(xq__server *s, int round, const char *text, size_t len, xq__ingest_done done,
                   void *arg, xq_error *err);
/* Where host:port is, for a TCP connection (url.c; needed by poll.c and
 * publish.c): an IP address goes into *sa at once (returns 1); a name is
 * looked up on the worker pool with `req` (returns 0: cb runs with the
 * answer); a libuv error when no lookup could start. */
int xq__url_lookup(uv_loop_t *loop, uv_getaddrinfo_t *req, uv_getaddrinfo_cb cb, const char *host,
                   const char *port, struct sockaddr_storage *sa);
/* The state of the poller of round `round` (for tests and ingest_status):
 * XQ_OK with the fields, XQ_EINVAL when the round is not polled. */
typedef struct xq__poll_info {
  int period_ms;               /* the asked interval, clamped */
  int failures;                /* failures in a row */
  int next_ms;                 /* delay before the next fetch */
  int fetches, successes;      /* counts since ingest_url */
  int last_status;             /* HTTP status of the last fetch, 0 none or no answer */
  char last_error[XQ_ERR_MSG_LEN];
} xq__poll_info;
int xq__ingest_poll_info(xq__server *s, int round, xq__poll_info *out);

/* Ingestion state (pollers) as the hub's: init at start, close handles
 * (timers, fetch connections) at shutdown, free after the loop ran dry. */
int xq__ingest_init(xq__server *s);
/* close and free must be safe when init never ran (s->ingest NULL). */
void xq__ingest_close(xq__server *s);
void xq__ingest_free(xq__server *s);

/* The group commit (commit.c): init at start; at shutdown the pending rows
 * are committed, then xq__commit_drained is true and close releases its
 * handles. */
int xq__commit_init(xq__server *s);
int xq__commit_drained(const xq__server *s);
void xq__commit_close(xq__server *s);
void xq__commit_free(xq__server *s);

/* Live games (live.c): load every published round and replay the game log
 * at start; free them at the end. */
int xq__live_load(xq__server *s, xq_error *err);
/* At start, once the commit and the hub run: put into the tournament log
 * the result of every replayed game that is over but has none there (the
 * server was killed after the game's last row was durable and before its
 * result was written: bench/crash-ops.sh), and the fouls of every game
 * with a result there that the log does not hold yet (written after the
 * result: a kill between the two, or a result entered while the server
 * was down). */
void xq__live_settle_all(xq__server *s);
void xq__live_free(xq__server *s);

/* ------------------------------------------------------------------ */
/* The server (server.c)                                               */
/* ------------------------------------------------------------------ */

typedef struct xq__commit xq__commit;  /* commit.c */
typedef struct xq__hub xq__hub;        /* hub.c */
typedef struct xq__ingest xq__ingest;  /* ingest.c */
typedef struct xq__publish xq__publish; /* publish.c */

struct xq__server {
  uv_loop_t *loop;
  xq_server_opts opts;
  uv_tcp_t json_listener, http_listener;
  int json_port, http_port;
  int listening;               /* listeners open */
  uv_check_t pace;             /* after each loop turn, the next burst of connections */
  int pace_on;                 /* the pace handle was started (closed at stop) */
  int accepted[2];             /* accepted this turn on the JSON-lines (0), HTTP (1) listener ... */
  int held[2];                 /* ... and whether it holds the next one back */
  uv_signal_t sigint, sigterm;
  int signals;                 /* signal handles started */
  uv_timer_t grace;            /* shutdown: drain tick */
  uint64_t grace_started;      /* loop time the shutdown began */
  uv_check_t check;            /* starts a group commit after each loop turn */
  int stopping;
  int judging;                 /* rulings running on the worker pool */
  xq_tstore *store;
  xq_tevent *ev;               /* the event as loaded from the store */
  xq_ko *ko;                   /* its knockout stage and tables (live.c), NULL before loading */
  xq_rules rules;              /* the rule set games are judged by */
  xq_ttoken *tokens;           /* live tokens, refreshed on change */
  uv_timer_t recheck;          /* every XQ_TOKEN_RECHECK_MS: did another process change the store? */
  int recheck_on;              /* the timer was started (closed at stop) */
  int recheck_waiting;         /* a re-check waits for the commit under way */
  int64_t data_version;        /* xq_tstore_data_version when the tokens were last read */
  unsigned char (*token_hash)[XQ_SHA256_LEN]; /* SHA-256 of tokens[i] (security.md) */
  int ntokens;
  xq__conn *conns;             /* every open connection */
  xq__conn *vconns;            /* sessions without a socket (POST /api/op) in flight */
  int nconns;
  int nanon;                   /* connections without a token on the anonymous slots */
  int nreserve;                /* connections on a reserved slot, not authenticated yet */
  uint64_t next_gen;
  xq__live **rounds[XQ_ROUNDS_LIVE_MAX + 1]; /* [round][board - 1], NULL for a bye */
  int nboards[XQ_ROUNDS_LIVE_MAX + 1];        /* boards of each published round */
  int nlive;                   /* games in all rounds */
  xq__commit *commit;
  xq__hub *hub;
  xq__ingest *ingest;
  xq__publish *publish;        /* --publish, NULL without */
  xq__jobs *jobs;              /* CPU jobs running and waiting, NULL none (jobs.c; needed by ops_engine.c) */
  FILE *log;                   /* one line per notable event, NULL quiet */
};

/* Printf one line to the server log (s->log) with the time of day, when
 * there is a log (log.c). */
void xq__log(xq__server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reload s->ev from the store (after a tourney write). XQ_OK or XQ_ESTORE. */
int xq__server_reload(xq__server *s, xq_error *err);
/* Refresh the token cache from the store. */
int xq__server_tokens(xq__server *s, xq_error *err);
/* The live token `token` (any text, NULL accepted), or NULL: its SHA-256
 * is compared with every cached token's in constant time, all of them
 * looked at, so neither the answer's timing nor an early exit tells how
 * much of a guess was right (proto.c; docs/security.md). */
const xq_ttoken *xq__token_find(xq__server *s, const char *token);

#endif /* XQ_NET_INTERNAL_H */
