/*
 * proto.c -- JSON lines (docs/server.md; docs/protocol.md): framing
 * with a hard line limit, dispatch by "op" with role checks, the session
 * operations (hello, ping, watch, unwatch) and the reply writers.
 *
 * Replies keep request order on a connection: while a connection has
 * replies waiting (for a group commit, a task), an immediate reply waits
 * behind them, as a row of the commit queue that writes nothing
 * (send_line); a waiting reply is sent in its turn (xq__reply_turn).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "conn.h"
#include "delay.h"
#include "hub.h"
#include "internal.h"
#include "live.h"
#include "ops.h"
#include "proto.h"
#include "records.h"


/* ------------------------------------------------------------------ */
/* Session operations                                                  */
/* ------------------------------------------------------------------ */

static void op_ping(xq__server *s, xq__req *r)
{
  char f[64];
  snprintf(f, sizeof f, "\"time\":%llu", (unsigned long long)uv_now(s->loop));
  xq__reply(r->c, r->id, f);
}

/* The session has no role (before hello, after a failed one). */
static void session_clear(xq__conn *c)
{
  c->role = XQ_ROLE_NONE;
  c->round = c->board = 0;
  c->has_tok = 0;
  xq__conn_trust(c, 0);
}

/* A hello was answered ok: the session is idle, not late, from now. */
static void session_greeted(xq__conn *c)
{
  c->said_hello = 1;
  if (!c->hub_watch) xq__conn_deadline(c, XQ_IDLE_MS, "idle");
}

static void op_hello(xq__server *s, xq__req *r)
{
  const cJSON *tv = cJSON_GetObjectItemCaseSensitive(r->json, "token");
  const char *token = cJSON_IsString(tv) ? tv->valuestring : NULL;
  xq__conn *c = r->c;
  if (tv && !token && !cJSON_IsNull(tv)) {
    session_clear(c);
    xq__reply_error(c, r->id, XQ__E_BAD_REQUEST, "token is a string", -1);
    return;
  }
  if (!token && c->reserve) {
    /* the reserved slots are for sessions with a token */
    xq__reply_error(c, r->id, XQ__E_LIMIT, "the server is full for sessions without a token", -1);
    xq__conn_end(c);
    return;
  }
  if (!token) {
    /* no token: an anonymous session (engine services, reading, watching) */
    session_clear(c);
    session_greeted(c);
    xq__reply(c, r->id, "\"role\":\"none\",\"server\":\"xqref " XQ_VERSION "\"");
    return;
  }
  const xq_ttoken *t = xq__server_token(s, token);
  if (!t) {
    /* CONTRACT (security.md): a failed hello leaves no role behind */
    session_clear(c);
    xq__reply_error(c, r->id, XQ__E_BAD_TOKEN, "unknown or revoked token", -1);
    return;
  }
  xq__conn_trust(c, 1);
  session_greeted(c);
  c->role = t->role;
  c->round = t->round;
  c->board = t->board;
  /* the session remembers its token (as the hash) to end when it is revoked */
  c->has_tok = 1;
  memcpy(c->tok, s->token_hash[t - s->tokens], XQ_SHA256_LEN);
  char f[384];
  if (t->role == XQ_ROLE_BOARD) {
    /* a board that reconnects learns where its game stands */
    /* as the store holds it: an event on its way is not acknowledged yet,
     * and the board resends it (it then waits for its outcome) */
    xq__live *lv = xq__live_get(s, t->round, t->board);
    const xq__view *v = lv ? lv->view : NULL;
    char fen[XQ_FEN_MAX] = "";
    if (v) xq_fen_format(&v->pos, fen, sizeof fen);
    snprintf(f, sizeof f,
             "\"role\":\"board\",\"round\":%d,\"table\":%d,\"last_seq\":%lld,\"ply\":%d,"
             "\"fen\":\"%s\",\"server\":\"xqref " XQ_VERSION "\"",
             t->round, t->board, v ? (long long)v->last_seq : 0LL, v ? v->nply : 0, fen);
  } else {
    snprintf(f, sizeof f, "\"role\":\"%s\",\"server\":\"xqref " XQ_VERSION "\"", xq_role_name(t->role));
  }
  xq__reply(c, r->id, f);
}

static void op_watch(xq__server *s, xq__req *r)
{
  int ok = 1;
  int round = xq__field_num(r->json, "round", 0, &ok);
  const cJSON *le = cJSON_GetObjectItemCaseSensitive(r->json, "last_event");
  long long last = 0;
  if (le && !xq__field_whole(le, -1, XQ_SEQ_MAX, &last)) ok = 0;
  if (!ok || round < 0) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "round and last_event are numbers", -1);
    return;
  }
  xq__reply(r->c, r->id, NULL);
  if (xq__hub_watch(s, r->c, round, last) != XQ_OK)
    xq__reply_error(r->c, NULL, XQ__E_LIMIT, "too many watchers", -1);
}

static void op_unwatch(xq__server *s, xq__req *r)
{
  if (r->c->hub_watch) xq__hub_unwatch(s, r->c);
  r->c->out_mode = XQ__OUT_PAUSE;
  xq__reply(r->c, r->id, NULL);
}

static const xq__op session_ops[] = {
  {"hello", 0, op_hello},
  {"ping", 0, op_ping},
  {"watch", 0, op_watch},
  {"unwatch", 0, op_unwatch},
  {NULL, 0, NULL},
};

static const xq__op *const op_tables[] = {
  session_ops, xq__game_ops, xq__engine_ops, xq__tourney_ops, xq__players_ops, xq__ingest_ops, xq__ko_ops,
  xq__settings_ops, xq__desk_ops, xq__team_ops,
};

/* hello, watch, unwatch: they bind a token to a socket or stream to it */
static int streams_or_binds(const xq__op *op)
{
  for (const xq__op *o = session_ops; o->name; o++)
    if (o == op) return 1;
  return 0;
}

static const xq__op *find_op(const char *name)
{
  for (size_t t = 0; t < sizeof op_tables / sizeof op_tables[0]; t++)
    for (const xq__op *op = op_tables[t]; op->name; op++)
      if (!strcmp(op->name, name)) return op;
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Framing and dispatch                                                */
/* ------------------------------------------------------------------ */

/* True when a string of the JSON text line[0..len) holds the escape
 * \u0000 (which cJSON would turn into the end of the string: a token or a
 * move would be cut there). The text parsed already as JSON. */
static int has_nul_escape(const char *line, size_t len)
{
  int in_str = 0;
  for (size_t i = 0; i < len; i++) {
    if (!in_str) {
      in_str = line[i] == '"';
    } else if (line[i] == '"') {
      in_str = 0;
    } else if (line[i] == '\\' && i + 1 < len) {
      if (line[i + 1] == 'u' && i + 5 < len && !memcmp(line + i + 2, "0000", 4)) return 1;
      i++; /* the escaped character */
    }
  }
  return 0;
}

/* Each bracket, comma and colon outside a string starts at most one value
 * (or key). */
int xq__proto_over_values(const char *line, size_t len, long max)
{
  long n = 1;
  int in_str = 0;
  for (size_t i = 0; i < len; i++) {
    char ch = line[i];
    if (in_str) {
      if (ch == '\\') i++;
      else if (ch == '"') in_str = 0;
    } else if (ch == '"') {
      in_str = 1;
    } else if ((ch == ',' || ch == ':' || ch == '[' || ch == '{') && ++n > max) {
      return 1;
    }
  }
  return 0;
}

/* Parse one line into a request object, or reply BAD_JSON / BAD_REQUEST /
 * LIMIT (never echoing the line's bytes) and return NULL. */
static cJSON *parse_line(xq__conn *c, const char *line, size_t len)
{
  if (!xq_utf8_valid(line, len) || memchr(line, 0, len)) {
    xq__reply_error(c, NULL, XQ__E_BAD_JSON, "a request is UTF-8 text without NUL bytes", -1);
    return NULL;
  }
  long max = c->trusted ? XQ_JSON_VALUES_MAX : XQ_JSON_VALUES_ANON;
  if (xq__proto_over_values(line, len, max)) {
    /* refused before cJSON spends a node on each (docs/security.md) */
    char msg[96];
    snprintf(msg, sizeof msg, "a request holds at most %ld JSON values%s", max, c->trusted ? "" : " without a token");
    xq__reply_error(c, NULL, XQ__E_LIMIT, msg, -1);
    return NULL;
  }
  const char *end = NULL;
  cJSON *json = cJSON_ParseWithLengthOpts(line, len, &end, 0);
  char msg[96] = "";
  if (!json) snprintf(msg, sizeof msg, "not JSON (at byte %ld)", end ? (long)(end - line) : 0L);
  else if (!cJSON_IsObject(json)) snprintf(msg, sizeof msg, "a request is a JSON object");
  else {
    size_t k = (size_t)(end - line);
    while (k < len && strchr(" \t\r", line[k])) k++;
    if (k < len) snprintf(msg, sizeof msg, "one request a line: more text at byte %zu", k);
  }
  if (msg[0]) {
    xq__reply_error(c, NULL, XQ__E_BAD_JSON, msg, -1);
    cJSON_Delete(json);
    return NULL;
  }
  if (has_nul_escape(line, len)) {
    xq__reply_error(c, NULL, XQ__E_BAD_REQUEST, "a string holds \\u0000", -1);
    cJSON_Delete(json);
    return NULL;
  }
  return json;
}

static void dispatch(xq__conn *c, const char *line, size_t len)
{
  xq__server *s = c->srv;
  cJSON *json = parse_line(c, line, len);
  if (!json) return;
  xq__req r = {c, json, cJSON_GetObjectItemCaseSensitive(json, "id"), xq__field_text(json, "op")};
  const xq__op *op = r.op ? find_op(r.op) : NULL;
  if (!r.op) {
    xq__reply_error(c, r.id, XQ__E_BAD_REQUEST, "missing \"op\"", -1);
  } else if (!op) {
    char msg[96];
    snprintf(msg, sizeof msg, "unknown op \"%.60s\"", r.op);
    xq__reply_error(c, r.id, XQ__E_UNKNOWN_OP, msg, -1);
  } else if (s->stopping) {
    xq__reply_error(c, r.id, XQ__E_SHUTDOWN, "the server is shutting down", -1);
  } else if (c->reserve && op->fn != op_hello) {
    /* a reserved slot serves a hello with a token and nothing else */
    xq__reply_error(c, r.id, XQ__E_LIMIT, "the server is full for sessions without a token", -1);
    xq__conn_end(c);
  } else if (c->sink && op->fn != op_ping && streams_or_binds(op)) {
    /* a session without a socket: its token came with the request and it
     * cannot stream (POST /api/op; the event stream is /api/events) */
    char msg[96];
    snprintf(msg, sizeof msg, "\"%s\" is not available over HTTP", op->name);
    xq__reply_error(c, r.id, XQ__E_BAD_REQUEST, msg, -1);
  } else if (op->roles && c->role == XQ_ROLE_NONE) {
    xq__reply_error(c, r.id, XQ__E_AUTH, "this operation needs a token: say hello first", -1);
  } else if (op->roles && !(op->roles & XQ__R(c->role))) {
    char msg[96];
    const char *role = xq_role_name(c->role);
    snprintf(msg, sizeof msg, "%s %s may not use \"%s\"", strchr("aeiou", role[0]) ? "an" : "a", role, op->name);
    xq__reply_error(c, r.id, XQ__E_FORBIDDEN, msg, -1);
  } else {
    /* a session without a token reads what anonymous readers see: with a
     * delay, the games and results as they were (delay.h) */
    int anon = c->role == XQ_ROLE_NONE && op->fn != op_hello;
    if (anon) xq__delay_enter(s);
    op->fn(s, &r);
    if (anon) xq__delay_leave(s);
  }
  cJSON_Delete(json);
}

/* The deadline of what a session waits for once its buffered lines are
 * served (docs/security.md): the rest of a line within XQ_LINE_MS of its
 * first byte; else, after a request, the next one within XQ_IDLE_MS once
 * hello was said and XQ_HELLO_MS before. Bytes that finish nothing move
 * nothing. A watcher, a stalled session and one on a reserved slot keep
 * theirs. */
static void json_deadline(xq__conn *c, int served, int partial)
{
  if (c->sink || c->closing || c->stalled || c->hub_watch || c->reserve || c->revoked) return;
  if (served) c->part_since = 0;
  if (partial) {
    if (!c->part_since) {
      c->part_since = uv_now(c->srv->loop);
      xq__conn_deadline(c, XQ_LINE_MS, "a line not finished in time");
    }
  } else if (served) {
    if (c->said_hello) xq__conn_deadline(c, XQ_IDLE_MS, "idle");
    else xq__conn_deadline(c, XQ_HELLO_MS, "no hello");
  }
}

static size_t json_consume(xq__conn *c)
{
  /* a revoked session: nothing it sent after the revocation is served */
  if (c->revoked) return c->len;
  size_t start = 0, from = c->scanned;
  int served = 0;
  /* the output budget is checked before every request: a client that
   * does not read its replies stops being served (security.md) */
  while (!c->closing && !c->held && !c->revoked && !xq__conn_stall(c, XQ_OUT_HIGH)) {
    /* scan only the bytes not scanned before */
    char *nl = memchr(c->in + from, '\n', c->len - from);
    if (!nl) break;
    size_t end = (size_t)(nl - c->in);
    size_t n = end - start;
    if (n > XQ_MAX_LINE) break; /* overflow() reports it */
    if (n && c->in[end - 1] == '\r') n--;
    if (n && xq__turns_yield(c)) break; /* its turn is over: the line waits for the next */
    if (n) dispatch(c, c->in + start, n), served = 1;
    start = from = end + 1;
  }
  /* held or stalled: lines may wait after `start`, scan them again later */
  int waiting = c->held || c->stalled || c->yielded;
  c->scanned = waiting ? 0 : c->len - start;
  if (!waiting && c->len - start > XQ_MAX_LINE) {
    /* no newline within the limit: the buffer holds XQ_MAX_LINE + slack */
    c->proto->overflow(c);
    return c->len;
  }
  json_deadline(c, served, !waiting && c->len > start);
  return start;
}

static void json_overflow(xq__conn *c)
{
  if (c->closing) return;
  char msg[80];
  snprintf(msg, sizeof msg, "line longer than %d bytes", XQ_MAX_LINE);
  xq__reply_error(c, NULL, XQ__E_LINE_TOO_LONG, msg, -1);
  xq__conn_end(c);
}

static void json_on_close(xq__conn *c)
{
  if (c->hub_watch) xq__hub_unwatch(c->srv, c);
}

/* A revoked session reads nothing more; it ends once nothing is owed. */
static int json_hold_reading(xq__conn *c)
{
  if (!c->revoked) return 0;
  xq__proto_end_if_done(c);
  return 1;
}

const xq__proto xq__json_proto = {
  .name = "json",
  .in_cap = XQ_MAX_LINE + 4096,
  .first_ms = XQ_HELLO_MS,
  .first_why = "no hello",
  .consume = json_consume,
  .overflow = json_overflow,
  .on_close = json_on_close,
  .hold_reading = json_hold_reading,
};

/* ------------------------------------------------------------------ */
/* Revoked tokens (docs/security.md)                                   */
/* ------------------------------------------------------------------ */

static int hash_cmp(const void *a, const void *b) { return memcmp(a, b, XQ_SHA256_LEN); }

void xq__proto_end_if_done(xq__conn *c)
{
  if (c->revoked != 1 || c->closing) return;
  if (c->pending_replies > 0 || c->jobs > 0 || c->held) return;
  c->revoked = 2;
  xq__conn_end(c); /* after the REVOKED line and everything before it */
}

void xq__proto_revoked(xq__server *s)
{
  if (!s->conns && !s->vconns) return;
  /* the live hashes, sorted: one binary search per session. These are
   * hashes of tokens that already opened a session, not guesses: no need
   * for the constant-time scan of xq__server_token. */
  unsigned char (*live)[XQ_SHA256_LEN] = NULL;
  if (s->ntokens) {
    live = malloc(sizeof *live * (size_t)s->ntokens);
    if (!live) return; /* out of memory: the next re-check tries again */
    memcpy(live, s->token_hash, sizeof *live * (size_t)s->ntokens);
    qsort(live, (size_t)s->ntokens, sizeof *live, hash_cmp);
  }
  for (xq__conn *c = s->conns, *next; c; c = next) {
    next = c->next; /* ending may unlink c */
    if (c->proto != &xq__json_proto || c->closing || c->revoked || !c->has_tok) continue;
    if (live && bsearch(c->tok, live, (size_t)s->ntokens, sizeof *live, hash_cmp)) continue;
    /* CONTRACT (security.md): a revoked token's session loses its role at
     * once and is closed; it is told why, after the replies it is owed */
    xq__log(s, "%s: token revoked, session ended", c->peer);
    session_clear(c);
    c->revoked = 1;
    if (c->hub_watch) xq__hub_unwatch(s, c);
    c->out_mode = XQ__OUT_PAUSE;
    if (c->reading) {
      uv_read_stop((uv_stream_t *)&c->tcp);
      c->reading = 0;
      c->paused = 1;
    }
    xq__reply_error(c, NULL, XQ__E_REVOKED, "the token of this session was revoked", -1);
    xq__proto_end_if_done(c);
  }
  for (xq__conn *c = s->vconns; c; c = c->next) {
    if (c->closing || !c->has_tok) continue;
    if (live && bsearch(c->tok, live, (size_t)s->ntokens, sizeof *live, hash_cmp)) continue;
    /* a POST /api/op batch: every request still to come gets its one
     * reply, as from a session without a role (security.md) */
    xq__log(s, "%s: token revoked, the rest of the batch runs without its role", c->peer);
    session_clear(c);
  }
  free(live);
}

/* ------------------------------------------------------------------ */
/* Sessions without a socket (POST /api/op)                            */
/* ------------------------------------------------------------------ */

/* The replies of one run, gathered until every request has its own. */
typedef struct op_run {
  xq__proto_done done;
  void *arg;
  int want, got;               /* replies expected, replies seen */
  char *out;                   /* the reply lines so far */
  size_t len, cap;
  int oom;                     /* a reply could not be kept */
  int atomic;                  /* applied all or none (batch.c): settled after the feed */
  xq__server *s;               /* ... its server, session and text (a copy) */
  xq__conn *c;
  char *text;
  size_t tlen;
} op_run;

static void op_finish(xq__conn *c, op_run *o, const char *out, size_t len);

static void op_sink(xq__conn *c, const char *data, size_t len)
{
  op_run *o = c->ext;
  if (!o) return; /* every reply came already */
  if (!o->oom && o->len + len > o->cap) {
    size_t cap = o->cap ? o->cap : 256;
    while (cap < o->len + len) cap *= 2;
    char *p = realloc(o->out, cap);
    if (p) o->out = p, o->cap = cap;
    else o->oom = 1;
  }
  if (!o->oom) memcpy(o->out + o->len, data, len), o->len += len;
  /* every write is whole lines: each reply is one write ending in '\n' */
  for (size_t i = 0; i < len; i++) o->got += data[i] == '\n';
  if (o->got < o->want || o->atomic) return; /* an atomic batch is settled after its feed */
  /* the last reply: later writes (none are expected) find the session
   * closed; whoever wrote this holds a reference, so the unref below
   * cannot free the connection under its feet */
  op_finish(c, o, o->oom ? NULL : o->out, o->oom ? 0 : o->len);
}

/* The session was closed before every reply came (out of memory while
 * replying): the caller learns it now, with no lines, instead of never. */
static void op_closed(xq__conn *c)
{
  op_run *o = c->ext;
  if (c->hub_watch) xq__hub_unwatch(c->srv, c); /* (such a session cannot watch) */
  if (!o) return;
  c->ext = NULL;
  o->done(o->arg, NULL, 0);
  free(o->out);
  free(o);
  xq__conn_unref(c); /* the session's own reference */
}

/* JSON lines without a socket: the framing and dispatch of a connection */
static const xq__proto op_proto = {
  .name = "op",
  .in_cap = XQ_MAX_LINE + 4096,
  .first_ms = 0,
  .consume = json_consume,
  .overflow = json_overflow,
  .on_close = op_closed,
  .hold_reading = json_hold_reading,
};

/* Every reply of session `c` is in: hand them over and end it. */
static void op_finish(xq__conn *c, op_run *o, const char *out, size_t len)
{
  c->ext = NULL;
  c->closing = 1;
  o->done(o->arg, out, len);
  free(o->out);
  free(o->text);
  free(o);
  xq__conn_unref(c); /* the session's own reference */
}

/* An atomic batch, once no group commit runs (the store has one writer):
 * its lines in one transaction, then committed or undone (batch.c). */
static void run_atomic(xq__server *s, void *arg, int status)
{
  (void)status;
  op_run *o = arg;
  xq__conn *c = o->c;
  if (!xq__commit_idle(s)) {
    xq__commit_then(s, run_atomic, o);
    return;
  }
  xq_error err = {0};
  if (xq_tstore_batch_begin(s->store, &err) != XQ_OK) o->atomic = 0; /* line by line: each says why */
  /* its lines at once, in the one transaction (each is a cheap write:
   * apply.c): they never yield to other clients' turns */
  c->whole = o->atomic;
  xq__conn_feed(c, o->text, o->tlen);
  if (o->atomic && o->got < o->want) {
    /* a line went off the loop: what ran is kept, the rest follows alone */
    xq__log(s, "a batch could not be applied all or none: %d of %d lines ran at once", o->got, o->want);
    o->atomic = 0;
    if (xq_tstore_batch_commit(s->store, &err) != XQ_OK) xq__log(s, "batch: %s", err.msg);
    xq__conn_unref(c);
    return;
  }
  if (o->atomic) {
    size_t n = 0;
    char *out = o->oom ? NULL : xq__batch_settle(s, o->out, o->len, &n);
    op_finish(c, o, out, out ? n : 0);
    free(out);
  }
  xq__conn_unref(c); /* held while the lines were dispatched */
}

int xq__proto_run(xq__server *s, const xq_ttoken *tok, const char *text, size_t len, xq__proto_done done,
               void *arg)
{
  if (len > XQ_MAX_LINE) return XQ_ELIMIT;
  /* the requests json_consume will dispatch: lines not empty once a
   * trailing '\r' is cut; each gets exactly one reply */
  int want = 0;
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(text + i, '\n', len - i);
    size_t end = nl ? (size_t)(nl - text) : len, n = end - i;
    if (n && text[end - 1] == '\r') n--;
    want += n > 0;
    i = end + 1;
  }
  if (want == 0) return XQ_EINVAL;
  if (want > XQ_OP_LINES_MAX) return XQ_ELIMIT;
  op_run *o = calloc(1, sizeof *o);
  if (!o) return XQ_ENOMEM;
  o->done = done;
  o->arg = arg;
  o->want = want;
  xq__conn *c = xq__conn_virtual(s, &op_proto, op_sink, o);
  if (!c) {
    free(o);
    return XQ_ENOMEM;
  }
  c->role = tok->role;
  c->round = tok->round;
  c->board = tok->board;
  c->trusted = 1; /* it has a token: its turns are the staff's and boards' (turns.c) */
  /* its token's hash, as a TCP session keeps it: a revocation reaches it */
  ptrdiff_t k = tok - s->tokens;
  if (k >= 0 && k < s->ntokens) {
    memcpy(c->tok, s->token_hash[k], XQ_SHA256_LEN);
    c->has_tok = 1;
  }
  xq__conn_ref(c); /* held while the lines are dispatched */
  int end_line = text[len - 1] != '\n';
  if (xq__batch_atomic(text, len) && (o->text = malloc(len + 1))) {
    /* all or none: a copy of its lines, run once the store is ours */
    memcpy(o->text, text, len);
    o->text[len] = '\n';
    o->tlen = len + (size_t)end_line;
    o->atomic = 1;
    o->s = s;
    o->c = c;
    run_atomic(s, o, XQ_OK);
    return XQ_OK;
  }
  /* the input buffer holds XQ_MAX_LINE + 4096 bytes: the text and a final
   * newline always fit. `text` may be gone once done() ran: it is read
   * before. */
  xq__conn_feed(c, text, len);
  if (end_line) xq__conn_feed(c, "\n", 1);
  xq__conn_unref(c);
  return XQ_OK;
}
