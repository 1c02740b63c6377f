/*
 * http.c -- the HTTP/1.1 protocol on the --http socket (docs/http.md):
 * parsing, routing, judging each request on its head, writing answers,
 * deadlines and keep-alive. What each route answers is in http_api.c:
 * the read-only API, the event stream (Server-Sent Events, resumable with
 * Last-Event-ID), the PGN push, the JSON-lines operations for a token
 * (POST /api/op) and the live page (web/, embedded at build time).
 *
 * Requests are parsed by http_parse.c from the connection's buffer;
 * keep-alive and pipelining work, one response at a time: the next
 * request is parsed only once the answer before it has been handed to the
 * socket (XQ_HTTP_OUT_HIGH), and a push, which is answered only once its
 * rows are durable, holds back the requests behind it until then. A
 * request is judged on its head (route, method, length, token) before a
 * byte of its body is read; a refused one's body is never read. The
 * deadlines are the head's, the body's and the idle time between
 * requests (docs/http.md); reads never move them. An SSE request turns
 * the connection into a subscriber of the hub: no deadline, the
 * subscriber budget, and its input is ignored from then on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "conn.h"
#include "delay.h"
#include "http.h"
#include "http_parse.h"
#include "hub.h"
#include "internal.h"
#include "proto.h"

/* What a request asks for, known from its head (resolve); the kinds
 * from RT_PGN on are those of a round, under /api/rounds/N. */
enum {
  RT_ASSET, RT_OP, RT_EVENT, RT_STANDINGS, RT_KNOCKOUT, RT_TRF, RT_EVENTS, RT_TEAMS,
  RT_PGN, RT_PAIRINGS, RT_GAMES, RT_PUSH
};



static size_t process(xq__conn *c, xq__http_conn *h);

/* ------------------------------------------------------------------ */
/* Replies                                                             */
/* ------------------------------------------------------------------ */

#define STR_(x) #x
#define STR(x) STR_(x)
/* The Cache-Control of the reads: live data, a cache in front may serve
 * it this long without asking again. */
static const char live_cache[] = "max-age=" STR(XQ_HTTP_MAX_AGE_S);

/* The entity tag of a body: its FNV-1a hash, quoted (a changed body has
 * another tag but for a 64-bit collision). */
static void body_tag(const char *body, size_t len, char tag[20])
{
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++) hash = (hash ^ (unsigned char)body[i]) * 1099511628211ull;
  snprintf(tag, 20, "\"%016llx\"", (unsigned long long)hash);
}

/* True when the If-None-Match field `inm` (NULL: none) is "*" or lists
 * `tag`, weak (W/) or not (RFC 9110 13.1.2: the weak comparison). */
static int tag_listed(const char *inm, const char *tag)
{
  size_t tl = strlen(tag);
  for (const char *p = inm; p && *p;) {
    while (*p == ' ' || *p == '\t' || *p == ',') p++;
    if (*p == '*') return 1;
    if (!strncmp(p, "W/", 2)) p += 2;
    const char *end = *p == '"' ? strchr(p + 1, '"') : NULL;
    if (!end) return 0; /* not a list of tags */
    if ((size_t)(end + 1 - p) == tl && !memcmp(p, tag, tl)) return 1;
    p = end + 1;
  }
  return 0;
}

/* Send a complete response; closes after it unless keep-alive. The
 * answer to a request whose body is left unread (a refusal on its head)
 * closes too, once XQ_HTTP_LINGER_MAX bytes of that body (or all of it)
 * were dropped or XQ_HTTP_LINGER_MS passed. A 200 with h->etag carries
 * the body's tag, and is a 304 without the body when the request's
 * If-None-Match names it. */
void xq__http_respond(xq__conn *c, xq__http_conn *h, int status, const char *ctype, const char *body,
                    size_t len, const char *extra)
{
  char head[512], tag[20], etag[40] = "";
  if (c->srv->stopping || h->unread) h->keep_alive = 0; /* the last answer before the close */
  if (h->keep && status == 200) {
    /* made now: kept for the next reads until what it shows changes */
    const xq__answer *a = xq__answers_put(c->srv, h->keep, ctype, body, len);
    if (a) h->tag = a->tag;
  }
  h->keep = NULL;
  if (status == 200 && h->etag) {
    if (h->tag) snprintf(tag, sizeof tag, "%s", h->tag); /* made with the body, kept with it */
    else body_tag(body, len, tag);
    snprintf(etag, sizeof etag, "ETag: %s\r\n", tag);
    if (tag_listed(xq__http_parse_header(&h->p.req, "If-None-Match"), tag)) status = 304;
  }
  int n = snprintf(head, sizeof head,
                   "HTTP/1.1 %d %s\r\n"
                   "Content-Type: %s\r\n"
                   "Content-Length: %zu\r\n"
                   "Cache-Control: %s\r\n"
                   "Access-Control-Allow-Origin: *\r\n"
                   "%s%s%s"
                   "\r\n",
                   status, xq__http_parse_status_text(status), ctype, len,
                   h->cache && (status == 200 || status == 304) ? h->cache : "no-store", etag,
                   extra ? extra : "", h->keep_alive ? "" : "Connection: close\r\n");
  /* a 304 has the head the 200 would have, without the body */
  size_t blen = h->head_only || status == 304 ? 0 : len;
  xq__buf *b = xq__buf_new((size_t)n + blen);
  if (!b) {
    xq__conn_close(c);
    return;
  }
  memcpy(b->data, head, (size_t)n);
  if (blen) memcpy(b->data + n, body, blen);
  xq__conn_write(c, b, 0);
  xq__buf_unref(b);
  if (!h->keep_alive) {
    h->ended = 1;
    if (h->unread) xq__conn_deadline(c, XQ_HTTP_LINGER_MS, "the body of a refused request");
    else xq__conn_end(c);
  }
}

static const char *status_code(int status)
{
  switch (status) {
  case 401: return XQ__E_AUTH;
  case 403: return XQ__E_FORBIDDEN;
  case 404: return XQ__E_NOT_FOUND;
  case 409: return XQ__E_CONFLICT;
  case 413: case 431: return XQ__E_LIMIT;
  case 500: return XQ__E_INTERNAL;
  case 503: return XQ__E_SHUTDOWN;
  default: return XQ__E_BAD_REQUEST;
  }
}

/* {"error":{"code":CODE,"msg":MSG}} with `status`. */
void xq__http_error(xq__conn *c, xq__http_conn *h, int status, const char *code, const char *msg,
                          const char *extra)
{
  cJSON *o = cJSON_CreateObject();
  cJSON *e = cJSON_AddObjectToObject(o, "error");
  cJSON_AddStringToObject(e, "code", code ? code : status_code(status));
  cJSON_AddStringToObject(e, "msg", msg);
  char *text = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!text) {
    xq__conn_close(c);
    return;
  }
  size_t n = strlen(text);
  text[n] = '\n'; /* replaces the NUL: the body ends with a newline */
  xq__http_respond(c, h, status, "application/json", text, n + 1, extra);
  free(text);
}

/* A cJSON value (consumed) as a 200 application/json response. */
void xq__http_json(xq__conn *c, xq__http_conn *h, cJSON *o)
{
  char *text = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (!text) {
    xq__http_error(c, h, 500, NULL, "out of memory", NULL);
    return;
  }
  size_t n = strlen(text);
  text[n] = '\n';
  xq__http_respond(c, h, 200, "application/json", text, n + 1, NULL);
  free(text);
}

/* ------------------------------------------------------------------ */
/* PGN push                                                            */
/* ------------------------------------------------------------------ */

/* The live token of "Authorization: Bearer TOKEN", or NULL (*unknown
 * says whether a token was sent). Answers nothing. */
static const xq_ttoken *token_of(xq__server *s, xq__http_conn *h, int *unknown)
{
  const char *a = xq__http_parse_header(&h->p.req, "Authorization");
  *unknown = 0;
  if (!a || strncasecmp(a, "Bearer ", 7)) return NULL;
  const char *tok = a + 7;
  while (*tok == ' ') tok++;
  const xq_ttoken *t = xq__server_token(s, tok);
  *unknown = !t;
  return t;
}

const xq_ttoken *xq__http_token(xq__server *s, xq__http_conn *h, int *unknown) { return token_of(s, h, unknown); }

/* The live token of "Authorization: Bearer TOKEN" in *out. Returns 0,
 * or the status sent (401) when there is none or it is unknown. */
int xq__http_bearer(xq__server *s, xq__conn *c, xq__http_conn *h, const char *need, const xq_ttoken **out)
{
  static const char challenge[] = "WWW-Authenticate: Bearer realm=\"xqref\"\r\n";
  int unknown;
  if ((*out = token_of(s, h, &unknown))) return 0;
  if (unknown) xq__http_error(c, h, 401, XQ__E_BAD_TOKEN, "unknown or revoked token", challenge);
  else xq__http_error(c, h, 401, XQ__E_AUTH, need, challenge);
  return 401;
}

/* The token of "Authorization: Bearer TOKEN", checked for staff roles.
 * Returns 0 when allowed, else the status sent. */
int xq__http_staff(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  const xq_ttoken *t = NULL;
  int st = xq__http_bearer(s, c, h, "send Authorization: Bearer TOKEN (admin or arbiter)", &t);
  if (st) return st;
  if (t->role == XQ_ROLE_ADMIN || t->role == XQ_ROLE_ARBITER) return 0;
  xq__http_error(c, h, 403, XQ__E_FORBIDDEN, "pushing games takes an admin or arbiter token", NULL);
  return 403;
}

static void request_over(xq__conn *c, xq__http_conn *h);
/* A request answered later (a push, an operation) has been answered:
 * the requests that came behind it are served now. */
void xq__http_done(xq__conn *c, xq__http_conn *h)
{
  h->busy = 0;
  c->pending_replies--;
  if (c->closing) {
    /* http_on_close left the state to us (or to process(), under way) */
    if (!h->processing) {
      xq__http_parse_reset(&h->p);
      free(h);
      c->ext = NULL;
    }
  } else {
    request_over(c, h);
    if (!h->processing) {
      /* requests that came behind it wait in the buffer */
      size_t used = process(c, h);
      if (!c->closing) {
        if (used > c->len) used = c->len;
        memmove(c->in, c->in + used, c->len - used);
        c->len -= used;
        xq__conn_resume(c);
      }
    }
  }
  xq__conn_unref(c);
}

/* ------------------------------------------------------------------ */
/* Operations for a token (POST /api/op)                               */
/* ------------------------------------------------------------------ */

/* 413 for a body over what the route takes (`max` bytes; 0: none). */
void xq__http_too_large(xq__conn *c, xq__http_conn *h, size_t max)
{
  char msg[96];
  if (h->kind == RT_OP) snprintf(msg, sizeof msg, "at most %d requests and %d bytes", XQ_OP_LINES_MAX, XQ_HTTP_OP_BODY_MAX);
  else if (max) snprintf(msg, sizeof msg, "a request body of at most %zu bytes", max);
  else snprintf(msg, sizeof msg, "this resource takes no request body");
  xq__http_error(c, h, 413, XQ__E_LIMIT, msg, NULL);
}

/* ------------------------------------------------------------------ */
/* Routing                                                             */
/* ------------------------------------------------------------------ */

/* A positive decimal number at *p (advanced past it), or -1. */
static int number(const char **p)
{
  const char *s = *p;
  long v = 0;
  if (*s < '1' || *s > '9') return -1;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s++ - '0');
    if (v > 1000000) return -1;
  }
  *p = s;
  return (int)v;
}

static int round_published(const xq__server *s, int round)
{
  return round >= 1 && round <= XQ_ROUNDS_LIVE_MAX && s->rounds[round];
}

/* The kind of a path under /api/rounds/ (`p` past that prefix), with its
 * round and table into h; -1 when there is none. */
static int round_path(xq__http_conn *h, const char *p)
{
  if ((h->round = number(&p)) < 0) return -1;
  if (!strcmp(p, ".pgn")) return RT_PGN;
  if (!strcmp(p, "/pairings.json")) return RT_PAIRINGS;
  if (!strcmp(p, "/games.json")) return RT_GAMES;
  if (!strcmp(p, "/push")) return RT_PUSH;
  const char *t = p + 1;
  if (*p == '/' && (h->table = number(&t)) > 0 && !strcmp(t, ".pgn")) return RT_PGN;
  return -1;
}

/* The kind of a path (RT_*), with what the path names into h; -1 for
 * no such resource. */
static int path_kind(xq__http_conn *h, const char *path)
{
  if (!strcmp(path, "/") || !strcmp(path, "/index.html")) {
    h->asset = "index.html";
    return RT_ASSET;
  }
  if (!strncmp(path, "/web/", 5)) {
    h->asset = path + 5;
    return RT_ASSET;
  }
  if (!strncmp(path, "/api/rounds/", 12)) return round_path(h, path + 12);
  static const struct {
    const char *path;
    int kind;
  } fixed[] = {{"/api/op", RT_OP},         {"/api/event", RT_EVENT}, {"/api/standings.json", RT_STANDINGS},
               {"/api/knockout", RT_KNOCKOUT}, {"/api/trf", RT_TRF},     {"/api/events", RT_EVENTS},
               {"/api/teams.json", RT_TEAMS}};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (!strcmp(path, fixed[i].path)) return fixed[i].kind;
  return -1;
}

/* The ?round=N of a request into *out (0 when absent). 0, or answers 400
 * and returns -1. */
static int round_query(xq__conn *c, xq__http_conn *h, int *out)
{
  char q[32];
  *out = 0;
  int got = xq__http_parse_query(h->p.req.query, "round", q, sizeof q);
  if (got == -1) return 0;
  const char *p = q;
  if (got >= 0 && (*out = number(&p)) >= 0 && !*p) return 0;
  *out = 0;
  xq__http_error(c, h, 400, NULL, "round is a number", NULL);
  return -1;
}

/* What the head asks for, into h->kind and its arguments: 0, or the
 * answer sent (404, 405, 400) and -1. */
static int resolve(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  const char *m = h->p.req.method;
  h->round = h->table = 0;
  h->asset = NULL;
  if ((h->kind = path_kind(h, h->p.req.path)) < 0) {
    xq__http_error(c, h, 404, NULL, "no such resource", NULL);
    return -1;
  }
  /* the methods of each kind: POST for the two that take a body, GET
   * alone for the stream, GET and HEAD for every other */
  int posts = h->kind == RT_OP || h->kind == RT_PUSH;
  const char *allow = posts ? "POST" : h->kind == RT_EVENTS ? "GET" : "GET, HEAD";
  int ok = posts ? !strcmp(m, "POST") : !strcmp(m, "GET") || (h->kind != RT_EVENTS && !strcmp(m, "HEAD"));
  if (!ok) {
    char extra[64];
    snprintf(extra, sizeof extra, "Allow: %s\r\n", allow);
    xq__http_error(c, h, 405, NULL, "method not allowed", extra);
    return -1;
  }
  if ((h->kind == RT_STANDINGS || h->kind == RT_EVENTS || h->kind == RT_TEAMS) && round_query(c, h, &h->round) < 0) return -1;
  int in_round = h->kind >= RT_PGN; /* the kinds under /api/rounds/ */
  if (in_round && !round_published(s, h->round)) {
    xq__http_error(c, h, 404, NULL, "round not published", NULL);
    return -1;
  }
  return 0;
}

/* A request on a reserved slot (the anonymous ones are full): served
 * with a live token, which makes the connection one with a token
 * (xq__conn_trust); the event stream too, which leaves the slot as it
 * begins (a viewer of the fan-out holds none: a crowd arriving at once
 * is not turned away); else 503 with Retry-After, and the close. Returns
 * 1 when it may go on. */
static int reserve_pass(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  int unknown;
  if (token_of(s, h, &unknown)) {
    xq__conn_trust(c, 1);
    return 1;
  }
  if (!strcmp(h->p.req.method, "GET") && !strcmp(h->p.req.path, "/api/events")) return 1;
  char extra[48];
  snprintf(extra, sizeof extra, "Retry-After: %d\r\n", XQ_HTTP_RETRY_AFTER_S);
  h->keep_alive = 0;
  xq__http_error(c, h, 503, XQ__E_LIMIT, "the server is full for clients without a token", extra);
  return 0;
}

/* A head is complete: judge the request on it before a byte of its body
 * is read (docs/http.md): a reserved slot without a token (503), the
 * route and method (404, 405, 400), the body the route takes (413), the
 * token (401, 403). A refused request's body is never read: its answer
 * ends the connection (respond). Returns 1 when the request goes on (its
 * body, if any, follows), 0 when it was answered. */
static int judge_head(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  const xq__http_req *r = &h->p.req;
  long long body = r->content_length > 0 ? r->content_length : 0;
  h->keep_alive = r->keep_alive && !s->stopping;
  h->head_only = !strcmp(r->method, "HEAD");
  h->cache = NULL;
  h->etag = 0;
  h->tag = NULL;
  /* until the request is let through: what a refusal drops of the body */
  h->unread = body < XQ_HTTP_LINGER_MAX ? body : XQ_HTTP_LINGER_MAX;
  if (c->reserve && !reserve_pass(s, c, h)) return 0;
  if (resolve(s, c, h) < 0) return 0;
  size_t max = h->kind == RT_OP ? XQ_HTTP_OP_BODY_MAX : h->kind == RT_PUSH ? XQ_HTTP_BODY_MAX : 0;
  const xq_ttoken *t;
  if ((unsigned long long)body > max) {
    xq__http_too_large(c, h, max);
    return 0;
  }
  if (h->kind == RT_OP && xq__http_bearer(s, c, h, "send Authorization: Bearer TOKEN", &t)) return 0;
  if (h->kind == RT_PUSH && xq__http_staff(s, c, h)) return 0;
  h->unread = 0;
  if (xq__http_parse_body(&h->p, max) < 0) {
    xq__conn_close(c); /* out of memory */
    return 0;
  }
  if (h->p.state == XQ__HP_BODY) {
    xq__conn_deadline(c, XQ_HTTP_BODY_MS, "a request body not received in time");
    /* RFC 9110 10.1.1: the client waits for this before it sends the body */
    const char *expect = xq__http_parse_header(r, "Expect");
    static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
    if (expect && r->minor == 1 && !strcasecmp(expect, "100-continue")) xq__conn_send(c, cont, sizeof cont - 1);
  }
  return 1;
}

/* Answer a request that is whole (its body read). The reads (every GET
 * but the stream) carry an ETag; those of the API may be cached for
 * XQ_HTTP_MAX_AGE_S (docs/http.md). */
/* The key of a read that is kept (answers.c) into *k: 1, or 0 for one
 * made every time (the page's files are static already; games.json has
 * its own; the staff's reads depend on who asks: a TRF is kept only when
 * asked without a token, without personal data). */
static int answer_key(const xq__http_conn *h, xq__answer_key *k)
{
  int anyones_trf = h->kind == RT_TRF && !xq__http_parse_header(&h->p.req, "Authorization");
  int kept = h->kind == RT_EVENT || h->kind == RT_STANDINGS || h->kind == RT_KNOCKOUT || h->kind == RT_PGN ||
             h->kind == RT_PAIRINGS || h->kind == RT_TEAMS || anyones_trf;
  if (!kept) return 0;
  memset(k, 0, sizeof *k);
  k->kind = anyones_trf ? XQ__ANSWER_TRF_PUBLIC : h->kind;
  k->round = h->round;
  k->table = h->table;
  /* a PGN's variants by its query (the notation); any other query is read
   * once more each time, not kept */
  if (h->kind == RT_PGN) {
    if (strlen(h->p.req.query) >= sizeof k->arg) return 0;
    strcpy(k->arg, h->p.req.query);
  }
  /* the team event's answer shows every round's results: kept by the
   * tournament's version alone (a move changes nothing of it) */
  if (h->kind == RT_TEAMS) {
    k->round = 0;
    snprintf(k->arg, sizeof k->arg, "%d", h->round);
  }
  return 1;
}

static void serve_read(xq__server *s, xq__conn *c, xq__http_conn *h);
static void serve(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  h->etag = h->kind != RT_OP && h->kind != RT_PUSH && h->kind != RT_EVENTS;
  if (h->etag && h->kind != RT_ASSET) h->cache = live_cache;
  /* every read is anyone's, and with a delay shows the delayed games
   * (delay.h); a token's operations, and a read with a live token (a
   * board's, an arbiter's, the organiser's: kept by no cache), see them
   * as they are */
  int staff = h->kind == RT_OP || h->kind == RT_PUSH;
  if (!staff && xq__delay_on(s) && xq__http_parse_header(&h->p.req, "Authorization")) {
    int unknown = 0;
    const xq_ttoken *t = xq__http_token(s, h, &unknown);
    staff = t && !unknown;
    if (staff && h->kind != RT_EVENTS) h->cache = NULL; /* no-store */
  }
  if (!staff) xq__delay_enter(s);
  serve_read(s, c, h);
  if (!staff) xq__delay_leave(s);
}

static void serve_read(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  xq__answer_key k;
  if (answer_key(h, &k)) {
    k.pub = xq__delay_public(s);
    const xq__answer *a = xq__answers_get(s, &k);
    if (a) { /* kept: answered (or a 304) without making it */
      h->tag = a->tag;
      xq__http_respond(c, h, 200, a->ctype, a->text, a->len, h->kind == RT_TRF ? "Vary: Authorization\r\n" : NULL);
      return;
    }
    h->keep = &k; /* the handler's 200 is kept (xq__http_respond) */
  }
  switch (h->kind) {
  case RT_ASSET: xq__http_api_asset(c, h, h->asset); break;
  case RT_OP: xq__http_api_op(s, c, h); break;
  case RT_EVENT: xq__http_api_event(s, c, h); break;
  case RT_STANDINGS: xq__http_api_standings(s, c, h, h->round); break;
  case RT_KNOCKOUT: xq__http_api_knockout(s, c, h); break;
  case RT_TEAMS: xq__http_api_teams(s, c, h, h->round); break;
  case RT_TRF: xq__http_api_trf(s, c, h); break;
  case RT_EVENTS: xq__http_api_events(s, c, h, h->round); break;
  case RT_PGN: xq__http_api_pgn(s, c, h, h->round, h->table); break;
  case RT_PAIRINGS: xq__http_api_pairings(s, c, h, h->round); break;
  case RT_GAMES: xq__http_api_games(s, c, h, h->round); break;
  default: xq__http_api_push(s, c, h, h->round); break;
  }
  h->keep = NULL;
}

/* ------------------------------------------------------------------ */
/* The connection kind                                                 */
/* ------------------------------------------------------------------ */

/* A request was answered: wait for the next one, XQ_HTTP_IDLE_MS at
 * most until its first byte. */
static void request_over(xq__conn *c, xq__http_conn *h)
{
  xq__http_parse_reset(&h->p);
  c->part_since = 0;
  if (!h->sse && !h->ended && !c->reserve) xq__conn_deadline(c, XQ_HTTP_IDLE_MS, "idle");
}

/* Bytes of a head wait in the buffer: the whole head within
 * XQ_HTTP_HEAD_MS of the first (armed once; more bytes move nothing). */
static void head_deadline(xq__conn *c, xq__http_conn *h, size_t left)
{
  if (!left || c->part_since || c->closing || c->stalled || c->yielded || c->reserve || h->busy) return;
  if (h->p.state != XQ__HP_HEAD) return;
  c->part_since = uv_now(c->srv->loop);
  xq__conn_deadline(c, XQ_HTTP_HEAD_MS, "a request head not received in time");
}

/* process() is over, having used `used` bytes: a connection closed
 * meanwhile (an answer that could not be written, an event stream handed
 * to the fan-out) left its state to it (http_on_close), freed now unless
 * a push or an op still holds it. */
static size_t process_over(xq__conn *c, xq__http_conn *h, size_t used)
{
  h->processing = 0;
  if (c->closing && !h->busy) {
    xq__http_parse_reset(&h->p);
    free(h);
    c->ext = NULL;
  }
  return used;
}

/* Parse and answer the requests in c->in; returns the bytes used. Stops
 * at a push waiting for its commit, at an event stream, at a close, and
 * before a request while the answer before it is still unsent. */
static size_t process(xq__conn *c, xq__http_conn *h)
{
  size_t used = 0;
  h->processing = 1; /* a push answered at once must not re-enter */
  while (!c->closing && !h->busy && !h->sse && !h->ended) {
    /* one response at a time: a client that does not read what it asked
     * for gets nothing more made for it (docs/http.md) */
    if (h->p.state == XQ__HP_HEAD && xq__conn_stall(c, XQ_HTTP_OUT_HIGH)) break;
    /* a new request, its turn over: it waits for the next (turns.c) */
    if (h->p.state == XQ__HP_HEAD && h->p.scan == 0 && used < c->len && xq__turns_yield(c)) break;
    long r = xq__http_parse(&h->p, c->in + used, c->len - used);
    if (r < 0) {
      /* the stream cannot be resynced: answer and close */
      h->keep_alive = 0;
      h->head_only = 0;
      xq__http_error(c, h, h->p.status, NULL, h->p.reason, NULL);
      return process_over(c, h, c->len);
    }
    used += (size_t)r;
    if (h->p.state == XQ__HP_HEAD_DONE) {
      if (!judge_head(c->srv, c, h) && !c->closing) request_over(c, h);
    } else if (h->p.state == XQ__HP_DONE) {
      serve(c->srv, c, h);
      if (!h->busy && !c->closing && h->p.state == XQ__HP_DONE) request_over(c, h);
    } else if (r == 0 || used == c->len) {
      break;
    }
  }
  if (h->ended && h->unread) {
    /* a refused request's body: dropped unread (some of it at most),
     * then the close */
    size_t n = c->len - used;
    h->unread -= (long long)n < h->unread ? (long long)n : h->unread;
    if (!h->unread) xq__conn_end(c);
  }
  if (h->sse || h->ended) return process_over(c, h, c->len); /* a stream's input is ignored */
  head_deadline(c, h, c->len - used);
  return process_over(c, h, used);
}

static size_t http_consume(xq__conn *c)
{
  xq__http_conn *h = c->ext;
  if (!h) {
    if (!(h = calloc(1, sizeof *h))) {
      xq__conn_close(c);
      return c->len;
    }
    xq__http_parse_init(&h->p);
    h->c = c;
    c->ext = h;
    /* the first request's head has had its deadline since the accept */
    c->part_since = uv_now(c->srv->loop);
  }
  if (h->busy) return 0; /* behind a push: wait for its reply */
  return process(c, h);
}

static void http_overflow(xq__conn *c)
{
  xq__http_conn *h = c->ext;
  if (h && h->busy) {
    /* the buffer is full of requests behind a push: stop reading until
     * the push is answered (push_done resumes) */
    if (c->reading) {
      uv_read_stop((uv_stream_t *)&c->tcp);
      c->reading = 0;
      c->paused = 1;
    }
    return;
  }
  /* the parser takes bodies as they come, so only a head fills the
   * buffer: it is over XQ_HTTP_HEAD_MAX */
  xq__http_conn tmp = {.keep_alive = 0};
  if (h) h->keep_alive = 0;
  xq__http_error(c, h ? h : &tmp, 431, NULL, "request head too large", NULL);
}

static void http_on_close(xq__conn *c)
{
  xq__http_conn *h = c->ext;
  if (c->hub_watch) xq__hub_unwatch(c->srv, c);
  if (!h) return;
  if (h->busy || h->processing) {
    /* push_done still runs (it holds a reference) and frees nothing of
     * ours but the request, or process() is under way: keep the state
     * until then (async_done, process_over) */
    return;
  }
  xq__http_parse_reset(&h->p);
  free(h);
  c->ext = NULL;
}

const xq__proto xq__http_proto = {
  .name = "http",
  .in_cap = XQ_HTTP_HEAD_MAX,
  .first_ms = XQ_HTTP_HEAD_MS,
  .first_why = "a request head not received in time",
  .consume = http_consume,
  .overflow = http_overflow,
  .on_close = http_on_close,
};
