/*
 * proto.h -- JSON lines (proto.c): the protocol of boards, arbiters and
 * organisers, its stable error codes, the reply writers every operation
 * uses, the request-field helpers, sessions without a socket (POST
 * /api/op) and the end of revoked sessions. Internal to net/.
 */
#ifndef XQ_NET_PROTO_H
#define XQ_NET_PROTO_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "conn.h"
#include "internal.h"

extern const xq__proto xq__json_proto;

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
#define XQ__E_NOT_APPLIED "NOT_APPLIED" /* a line of a batch applied all or none (batch.c) */

/* Reply {"id":ID,"ok":true,FIELDS}\n where `fields` is the text of zero
 * or more JSON members without braces ("" or NULL for none). */
void xq__reply(xq__conn *c, const cJSON *id, const char *fields);
/* Send the whole reply line in `b` (made elsewhere, a worker's job:
 * "{...}\n"), in the connection's order: written from `b` itself, no
 * copy, when it is the line's turn (the caller keeps its reference). */
void xq__reply_buf(xq__conn *c, xq__buf *b);
/* Reply with the members of object `obj` (consumed), plus id and ok. */
void xq__reply_obj(xq__conn *c, const cJSON *id, cJSON *obj);
/* Reply {"id":ID,"error":{"code":CODE,"msg":MSG[,"ply":PLY]}}\n; ply < 0
 * leaves it out. */
void xq__reply_error(xq__conn *c, const cJSON *id, const char *code, const char *msg, int ply);
/* A reply that comes later -- after a commit, a task, a read of the
 * store -- keeps its place in the connection's order: xq__reply_wait when
 * the request is taken (a reference on `c`, counted in
 * c->pending_replies: the replies of later requests wait behind it);
 * then, in its turn (a commit's completion, a task's run), xq__reply_turn,
 * the reply written with the functions above (at once: it is its turn),
 * and xq__reply_turn_end. xq__reply_turn returns 0 when the connection is
 * closing (nothing to write); xq__reply_turn_end always follows it, and
 * drops the reference (`c` may be freed). */
void xq__reply_wait(xq__conn *c);
int xq__reply_turn(xq__conn *c);
void xq__reply_turn_end(xq__conn *c);
/* The error code for an engine status (XQ_EILLEGAL -> ILLEGAL_MOVE, ...). */
const char *xq__reply_code(int status);
/* The request id as JSON text ("7", "\"a\"", "null"), malloc'd. */
char *xq__reply_id(const cJSON *id);
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
void xq__proto_revoked(xq__server *s);
/* End a revoked session now if nothing is owed to it any more. */
void xq__proto_end_if_done(xq__conn *c);

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
typedef void (*xq__proto_done)(void *arg, const char *lines, size_t n);
int xq__proto_run(xq__server *s, const xq_ttoken *tok, const char *text, size_t len, xq__proto_done done,
               void *arg);

/* True when `v` is a JSON number holding a whole value in the range of
 * int: only then may it be cast to int (a cast of 1e300 is undefined
 * behaviour, C11 6.3.1.4). */
int xq__field_is_int(const cJSON *v);
/* True when `v` is a JSON number holding a whole value from lo to hi,
 * with *out (which may be NULL) set to it: xq_whole_number (engine.h) on
 * its double, the range compared before any conversion. */
int xq__field_whole(const cJSON *v, double lo, double hi, long long *out);
/* Request field helpers: NULL / default when absent or of another type. */
const char *xq__field_text(const cJSON *o, const char *key);
int xq__field_num(const cJSON *o, const char *key, int dflt, int *ok);

/* Integer field `key` of the request in lo..hi: absent = `dflt` (when
 * `dflt` < lo the field is required). Returns 0 with *out, or -1 after
 * replying BAD_REQUEST. */
int xq__field_int(xq__req *r, const char *key, int lo, int hi, int dflt, int *out);
/* String field `key`: absent = NULL (an error when `required`). Returns 0
 * with *out, or -1 after replying BAD_REQUEST. */
int xq__field_str(xq__req *r, const char *key, int required, const char **out);
/* The error code of a store write's failure: a refusal by the store's
 * checks (XQ_EINVAL after ours passed) is a conflict with its state. */
const char *xq__reply_write_code(int rc);

/* Whether the JSON text line[0..len) may hold more than `max` values (its
 * brackets, commas and colons outside strings counted, nothing parsed):
 * such a line is LIMIT (XQ_JSON_VALUES_ANON, XQ_JSON_VALUES_MAX), never
 * given to the parser. */
int xq__proto_over_values(const char *line, size_t len, long max);

/* Batches applied all or none (batch.c). xq__batch_atomic: 1 when the
 * JSON lines text[0..len) are two or more, each one of the player writes
 * that run on the loop at once (add_player, edit_player, withdraw,
 * reinstate, absent), which run as one store transaction (the caller
 * opened it with xq_tstore_batch_begin). xq__batch_settle: their replies
 * out[0..len) all in: commits when every line is ok (then the same text),
 * else rolls back, reloads the event, and answers every ok line
 * NOT_APPLIED (naming the line that failed), or every line STORE_FAILED
 * when the commit failed. The new replies (malloc'd, *nlen bytes), or
 * NULL when out of memory. */
int xq__batch_atomic(const char *text, size_t len);
char *xq__batch_settle(xq__server *s, const char *out, size_t len, size_t *nlen);

#endif /* XQ_NET_PROTO_H */
