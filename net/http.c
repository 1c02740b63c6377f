/*
 * http.c -- HTTP/1.1 on the --http socket (docs/http.md): the read-only
 * API (event, pairings, standings, games, PGN, TRF), the event stream
 * (Server-Sent Events, resumable with Last-Event-ID), the PGN push, the
 * JSON-lines operations for a token (POST /api/op), and the live page
 * (web/, embedded at build time: docs/web.md).
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

#include "conn.h"
#include "http.h"
#include "http_parse.h"
#include "hub.h"
#include "ingest.h"
#include "internal.h"
#include "live.h"
#include "ops.h"
#include "proto.h"

/* What a request asks for, known from its head (resolve); the kinds
 * from RT_PGN on are those of a round, under /api/rounds/N. */
enum {
  RT_ASSET, RT_OP, RT_EVENT, RT_STANDINGS, RT_KNOCKOUT, RT_TRF, RT_EVENTS,
  RT_PGN, RT_PAIRINGS, RT_GAMES, RT_PUSH
};

typedef struct http_conn {
  xq__http_parser p;
  xq__conn *c;
  int busy;                    /* a push waits for its commit */
  int processing;              /* inside process(): it goes on by itself */
  int ended;                   /* the last answer went: no more requests */
  int sse;                     /* the connection is an event stream */
  int head_only;               /* the request being answered is HEAD */
  int keep_alive;              /* of the request being answered */
  const char *cache;           /* Cache-Control of a 200 (or 304) answer; NULL: no-store */
  int etag;                    /* a 200 answer carries an ETag, and a matching If-None-Match
                                  gets a 304 instead */
  int kind;                    /* RT_* of the request being answered ... */
  int round, table;            /* ... its round (standings: up to; stream: filter), table */
  const char *asset;           /* ... RT_ASSET: the file of web/ */
  long long unread;            /* body bytes of a refused request to drop as they come
                                  before the close (XQ_HTTP_LINGER_MAX at most) */
} http_conn;

static size_t process(xq__conn *c, http_conn *h);

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
static void respond(xq__conn *c, http_conn *h, int status, const char *ctype, const char *body,
                    size_t len, const char *extra)
{
  char head[512], tag[20], etag[40] = "";
  if (c->srv->stopping || h->unread) h->keep_alive = 0; /* the last answer before the close */
  if (status == 200 && h->etag) {
    body_tag(body, len, tag);
    snprintf(etag, sizeof etag, "ETag: %s\r\n", tag);
    if (tag_listed(xq__http_header(&h->p.req, "If-None-Match"), tag)) status = 304;
  }
  int n = snprintf(head, sizeof head,
                   "HTTP/1.1 %d %s\r\n"
                   "Content-Type: %s\r\n"
                   "Content-Length: %zu\r\n"
                   "Cache-Control: %s\r\n"
                   "Access-Control-Allow-Origin: *\r\n"
                   "%s%s%s"
                   "\r\n",
                   status, xq__http_status_text(status), ctype, len,
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
static void respond_error(xq__conn *c, http_conn *h, int status, const char *code, const char *msg,
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
  respond(c, h, status, "application/json", text, n + 1, extra);
  free(text);
}

/* A cJSON value (consumed) as a 200 application/json response. */
static void respond_json(xq__conn *c, http_conn *h, cJSON *o)
{
  char *text = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (!text) {
    respond_error(c, h, 500, NULL, "out of memory", NULL);
    return;
  }
  size_t n = strlen(text);
  text[n] = '\n';
  respond(c, h, 200, "application/json", text, n + 1, NULL);
  free(text);
}

/* ------------------------------------------------------------------ */
/* Read-only API                                                       */
/* ------------------------------------------------------------------ */

static cJSON *player_brief(const xq__server *s, int id)
{
  if (id < 1 || !s->ev || id > s->ev->n) return cJSON_CreateNull();
  const xq_tplayer *p = &s->ev->players[id - 1];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "id", id);
  cJSON_AddNumberToObject(o, "pno", p->pno);
  cJSON_AddStringToObject(o, "name", p->name);
  cJSON_AddNumberToObject(o, "rating", p->rating);
  return o;
}

static void get_event(xq__server *s, xq__conn *c, http_conn *h)
{
  const xq_tevent *ev = s->ev;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", ev ? ev->name : "");
  cJSON_AddNumberToObject(o, "rounds", ev ? ev->cfg.rounds : 0);
  /* the rounds 1..R whose games all have a result */
  cJSON_AddNumberToObject(o, "rounds_complete", ev ? xq_tevent_rounds_complete(ev) : 0);
  cJSON *pub = cJSON_AddArrayToObject(o, "published");
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX; r++)
    if (s->rounds[r]) cJSON_AddItemToArray(pub, cJSON_CreateNumber(r));
  /* the knockout tables are round XQ_KO_ROUND of "published" */
  if (s->ko && s->ko->after) cJSON_AddNumberToObject(o, "knockout_round", XQ_KO_ROUND);
  cJSON *pl = cJSON_AddArrayToObject(o, "players");
  for (int i = 0; ev && i < ev->n; i++) {
    const xq_tplayer *p = &ev->players[i];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "id", i + 1);
    cJSON_AddNumberToObject(x, "pno", p->pno);
    cJSON_AddStringToObject(x, "name", p->name);
    cJSON_AddNumberToObject(x, "rating", p->rating);
    if (p->region[0]) cJSON_AddStringToObject(x, "region", p->region);
    if (p->club[0]) cJSON_AddStringToObject(x, "club", p->club);
    if (p->team[0]) cJSON_AddStringToObject(x, "team", p->team);
    if (p->withdrawn) cJSON_AddNumberToObject(x, "withdrawn", p->withdrawn);
    cJSON_AddItemToArray(pl, x);
  }
  respond_json(c, h, o);
}

static int round_published(const xq__server *s, int round)
{
  return round >= 1 && round <= XQ_ROUNDS_LIVE_MAX && s->rounds[round];
}

static void get_pairings(xq__server *s, xq__conn *c, http_conn *h, int round)
{
  const xq_tevent *ev = s->ev;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", round);
  cJSON *boards = cJSON_AddArrayToObject(o, "boards");
  for (int b = 1; b <= s->nboards[round]; b++) {
    xq__live *lv = xq__live_get(s, round, b);
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "table", b);
    if (lv) {
      cJSON *red = player_brief(s, lv->red), *black = player_brief(s, lv->black);
      if (cJSON_IsObject(red))
        cJSON_AddNumberToObject(red, "points", xq_tevent_points(ev, lv->red, round - 1) / 2.0);
      if (cJSON_IsObject(black))
        cJSON_AddNumberToObject(black, "points", xq_tevent_points(ev, lv->black, round - 1) / 2.0);
      cJSON_AddItemToObject(x, "red", red);
      cJSON_AddItemToObject(x, "black", black);
      cJSON_AddStringToObject(x, "result", xq__game_result_text(s, lv));
    } else {
      /* the bye: the player whose slot of this round is the PAB */
      int id = 0;
      for (int i = 1; ev && i <= ev->n && !id; i++)
        if (xq_tevent_slot(ev, i, round)->res == XQ_TR_PAB) id = i;
      cJSON *red = player_brief(s, id);
      if (cJSON_IsObject(red)) cJSON_AddNumberToObject(red, "points", xq_tevent_points(ev, id, round - 1) / 2.0);
      cJSON_AddItemToObject(x, "red", red);
      cJSON_AddNullToObject(x, "black");
      cJSON_AddTrueToObject(x, "bye");
    }
    cJSON_AddItemToArray(boards, x);
  }
  respond_json(c, h, o);
}

static void get_standings(xq__server *s, xq__conn *c, http_conn *h, int upto)
{
  const xq_tevent *ev = s->ev;
  if (!ev) {
    respond_error(c, h, 404, NULL, "no event", NULL);
    return;
  }
  /* by default after the last round whose games are all in */
  if (upto <= 0 || upto > ev->nrounds) upto = xq_tevent_standings_round(ev);
  xq_tstanding *st = calloc((size_t)ev->n + 1, sizeof *st);
  if (!st || xq_standings(ev, upto, st) != XQ_OK) {
    free(st);
    respond_error(c, h, 500, NULL, "standings failed", NULL);
    return;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", upto);
  /* "after round R" only when its games are all in */
  cJSON_AddBoolToObject(o, "complete", upto <= xq_tevent_rounds_complete(ev));
  cJSON *tbs = cJSON_AddArrayToObject(o, "tiebreaks");
  for (int t = 0; t < ev->cfg.ntb; t++) cJSON_AddItemToArray(tbs, cJSON_CreateString(xq_tb_name(ev->cfg.tb[t])));
  cJSON *rows = cJSON_AddArrayToObject(o, "standings");
  for (int i = 0; i < ev->n; i++) {
    cJSON *x = player_brief(s, st[i].id);
    cJSON_AddNumberToObject(x, "rank", st[i].rank);
    cJSON *v = cJSON_AddObjectToObject(x, "tb");
    for (int t = 0; t < ev->cfg.ntb; t++) {
      int tb = ev->cfg.tb[t];
      double val = (double)st[i].val[t];
      /* as the sheets print them: point sums are in half-units, SB in
       * quarter-units, DE is a level counted from 0 */
      switch (tb) {
      case XQ_TB_PTS: case XQ_TB_OS: case XQ_TB_OS_C1: case XQ_TB_PS: val /= 2.0; break;
      case XQ_TB_SB: val /= 4.0; break;
      case XQ_TB_DE: /* -1: it separates nobody, and is not shown */
        if (val < 0) continue;
        val += 1;
        break;
      case XQ_TB_ROUNDBACK_LAST: case XQ_TB_ROUNDBACK_FIRST: continue;
      default: break;
      }
      cJSON_AddNumberToObject(v, xq_tb_name(tb), val);
    }
    cJSON_AddNumberToObject(x, "w", st[i].wins);
    cJSON_AddNumberToObject(x, "d", st[i].draws);
    cJSON_AddNumberToObject(x, "l", st[i].losses);
    const xq_tplayer *pl = &ev->players[st[i].id - 1];
    if (pl->club[0]) cJSON_AddStringToObject(x, "club", pl->club);
    if (pl->region[0]) cJSON_AddStringToObject(x, "region", pl->region);
    int byes = 0; /* 轮空: points without a game, not in W-D-L */
    for (int r = 1; r <= upto; r++) byes += xq_tevent_slot(ev, st[i].id, r)->res == XQ_TR_PAB;
    cJSON_AddNumberToObject(x, "byes", byes);
    cJSON_AddItemToArray(rows, x);
  }
  free(st);
  respond_json(c, h, o);
}

static void get_games(xq__server *s, xq__conn *c, http_conn *h, int round)
{
  char *text = xq__round_state_json(s, round);
  if (!text) {
    respond_error(c, h, 500, NULL, "out of memory", NULL);
    return;
  }
  size_t n = strlen(text);
  char *body = malloc(n + 64);
  if (!body) {
    free(text);
    respond_error(c, h, 500, NULL, "out of memory", NULL);
    return;
  }
  int k = snprintf(body, n + 64, "{\"round\":%d,\"games\":%s}\n", round, text);
  free(text);
  respond(c, h, 200, "application/json", body, (size_t)k, NULL);
  free(body);
}

static int notation_of(const char *query, xq_notation *out)
{
  char v[16];
  *out = XQ_NOTE_CHINESE;
  if (xq__http_query(query, "notation", v, sizeof v) < 0) return 1;
  if (!strcmp(v, "iccs")) *out = XQ_NOTE_ICCS_PGN;
  else if (!strcmp(v, "wxf")) *out = XQ_NOTE_WXF;
  else if (!strcmp(v, "chinese")) *out = XQ_NOTE_CHINESE;
  else return 0;
  return 1;
}

static void get_pgn(xq__server *s, xq__conn *c, http_conn *h, int round, int table)
{
  xq_notation nt;
  if (!notation_of(h->p.req.query, &nt)) {
    respond_error(c, h, 400, NULL, "notation is iccs, wxf or chinese", NULL);
    return;
  }
  size_t len = 0;
  char *text;
  if (table > 0) {
    xq__live *lv = xq__live_get(s, round, table);
    if (!lv) {
      respond_error(c, h, 404, NULL, "no game at that table (or it is the bye)", NULL);
      return;
    }
    text = xq__pgn_game(s, lv, nt, &len);
  } else {
    text = xq__pgn_round(s, round, nt, &len);
  }
  if (!text) {
    respond_error(c, h, 500, NULL, "out of memory", NULL);
    return;
  }
  respond(c, h, 200, "application/x-chess-pgn; charset=utf-8", text, len, NULL);
  free(text);
}

static void get_trf(xq__server *s, xq__conn *c, http_conn *h)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  int rc = f && s->ev ? xq_trf_write(s->ev, f) : XQ_EIO;
  if (f) fclose(f);
  if (rc != XQ_OK) respond_error(c, h, 500, NULL, "TRF export failed", NULL);
  else respond(c, h, 200, "text/plain; charset=utf-8", text, len, NULL);
  free(text);
}

/* The live page: a file of web/ embedded at build time, with an ETag
 * (respond: FNV-1a of its bytes) so that browsers revalidate instead of
 * fetching it again; a new binary with a changed file gets a new tag. */
static void get_asset(xq__conn *c, http_conn *h, const char *name)
{
  const xq__web_asset *a = NULL;
  for (const xq__web_asset *w = xq__web_assets; w->path && !a; w++)
    if (!strcmp(w->path, name)) a = w;
  if (!a) {
    respond_error(c, h, 404, NULL, "no such file", NULL);
    return;
  }
  h->cache = "no-cache";
  respond(c, h, 200, a->type, (const char *)a->data, a->len, NULL);
}

/* ------------------------------------------------------------------ */
/* Event stream                                                        */
/* ------------------------------------------------------------------ */

static int parse_id(const char *v, long long *out)
{
  if (!v || !*v) return 0;
  char *end;
  long long x = strtoll(v, &end, 10);
  while (*end == ' ') end++;
  if (*end || x < -1) return 0;
  *out = x;
  return 1;
}

static void get_events(xq__server *s, xq__conn *c, http_conn *h, int round)
{
  /* resume after Last-Event-ID (the browser's reconnect) or ?last_event;
   * a fresh stream starts with a snapshot of the games */
  long long last = -1;
  char q[32];
  const char *lei = xq__http_header(&h->p.req, "Last-Event-ID");
  if (lei && !parse_id(lei, &last)) last = -1;
  else if (!lei && xq__http_query(h->p.req.query, "last_event", q, sizeof q) >= 0 && !parse_id(q, &last)) {
    respond_error(c, h, 400, NULL, "last_event is an event id", NULL);
    return;
  }
  static const char head[] = "HTTP/1.1 200 OK\r\n"
                             "Content-Type: text/event-stream\r\n"
                             "Cache-Control: no-cache\r\n"
                             "Connection: keep-alive\r\n"
                             "X-Accel-Buffering: no\r\n"
                             "Access-Control-Allow-Origin: *\r\n"
                             "\r\n"
                             "retry: 3000\n\n";
  h->sse = 1;
  /* a stream is idle by nature: no deadline */
  xq__conn_deadline(c, 0, NULL);
  /* the connection leaves this loop for the fan-out's, which sends the
   * head first (c is closed then: its slot is free) */
  int rc = xq__hub_stream(s, c, round, last, head, sizeof head - 1);
  if (rc != XQ_OK && !c->closing) {
    static const char full[] = "event: error\ndata: {\"code\":\"LIMIT\",\"msg\":\"too many subscribers\"}\n\n";
    static const char stop[] = "event: error\ndata: {\"code\":\"SHUTTING_DOWN\",\"msg\":\"the server is stopping\"}\n\n";
    const char *why = s->stopping ? stop : full;
    if (xq__conn_send(c, head, sizeof head - 1) == XQ_OK) xq__conn_send(c, why, strlen(why));
    xq__conn_end(c);
  }
}

/* ------------------------------------------------------------------ */
/* PGN push                                                            */
/* ------------------------------------------------------------------ */

/* The live token of "Authorization: Bearer TOKEN", or NULL (*unknown
 * says whether a token was sent). Answers nothing. */
static const xq_ttoken *token_of(xq__server *s, http_conn *h, int *unknown)
{
  const char *a = xq__http_header(&h->p.req, "Authorization");
  *unknown = 0;
  if (!a || strncasecmp(a, "Bearer ", 7)) return NULL;
  const char *tok = a + 7;
  while (*tok == ' ') tok++;
  const xq_ttoken *t = xq__token_find(s, tok);
  *unknown = !t;
  return t;
}

/* The live token of "Authorization: Bearer TOKEN" in *out. Returns 0,
 * or the status sent (401) when there is none or it is unknown. */
static int bearer(xq__server *s, xq__conn *c, http_conn *h, const char *need, const xq_ttoken **out)
{
  static const char challenge[] = "WWW-Authenticate: Bearer realm=\"xqref\"\r\n";
  int unknown;
  if ((*out = token_of(s, h, &unknown))) return 0;
  if (unknown) respond_error(c, h, 401, XQ__E_BAD_TOKEN, "unknown or revoked token", challenge);
  else respond_error(c, h, 401, XQ__E_AUTH, need, challenge);
  return 401;
}

/* The token of "Authorization: Bearer TOKEN", checked for staff roles.
 * Returns 0 when allowed, else the status sent. */
static int authorise(xq__server *s, xq__conn *c, http_conn *h)
{
  const xq_ttoken *t = NULL;
  int st = bearer(s, c, h, "send Authorization: Bearer TOKEN (admin or arbiter)", &t);
  if (st) return st;
  if (t->role == XQ_ROLE_ADMIN || t->role == XQ_ROLE_ARBITER) return 0;
  respond_error(c, h, 403, XQ__E_FORBIDDEN, "pushing games takes an admin or arbiter token", NULL);
  return 403;
}

static void request_over(xq__conn *c, http_conn *h);

/* A request answered later (a push, an operation) has been answered:
 * the requests that came behind it are served now. */
static void async_done(xq__conn *c, http_conn *h)
{
  h->busy = 0;
  c->pending_replies--;
  if (c->closing) {
    /* http_on_close left the state to us (or to process(), under way) */
    if (!h->processing) {
      xq__http_parser_reset(&h->p);
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

/* The reply to a push, once its rows are durable. */
static void push_done(void *arg, int status, char *json)
{
  http_conn *h = arg;
  xq__conn *c = h->c;
  if (!c->closing) {
    if (status == XQ_OK && json) {
      size_t n = strlen(json);
      char *body = realloc(json, n + 2);
      if (body) {
        json = body;
        json[n] = '\n';
        respond(c, h, 200, "application/json", json, n + 1, NULL);
      } else {
        respond_error(c, h, 500, NULL, "out of memory", NULL);
      }
    } else {
      respond_error(c, h, status == XQ_ESTORE ? 503 : 500,
                    status == XQ_ESTORE ? XQ__E_STORE : XQ__E_INTERNAL,
                    json ? json : "the push could not be stored", NULL);
    }
  }
  free(json);
  async_done(c, h);
}

static void post_push(xq__server *s, xq__conn *c, http_conn *h, int round)
{
  /* checked on the head already; again, as the token may have been
   * revoked while the body came */
  if (authorise(s, c, h)) return;
  const xq__http_req *r = &h->p.req;
  if (!r->body || !r->body_len) {
    respond_error(c, h, 400, NULL, "the body is empty: send the round's PGN", NULL);
    return;
  }
  xq_error err = {0};
  h->busy = 1;
  c->pending_replies++;
  xq__conn_ref(c);
  int rc = xq__ingest_pgn(s, round, r->body, r->body_len, push_done, h, &err);
  if (rc != XQ_OK) {
    h->busy = 0;
    c->pending_replies--;
    xq__conn_unref(c);
    int status = rc == XQ_ELIMIT ? 413 : rc == XQ_EINVAL ? 400 : rc == XQ_ENOMEM ? 500 : 422;
    respond_error(c, h, status, rc == XQ_ELIMIT ? XQ__E_LIMIT : NULL, err.msg[0] ? err.msg : xq_strerror(rc),
                  NULL);
  }
}

/* ------------------------------------------------------------------ */
/* Operations for a token (POST /api/op)                               */
/* ------------------------------------------------------------------ */

/* 413 for a body over what the route takes (`max` bytes; 0: none). */
static void too_large(xq__conn *c, http_conn *h, size_t max)
{
  char msg[96];
  if (h->kind == RT_OP) snprintf(msg, sizeof msg, "at most %d requests and %d bytes", XQ_OP_LINES_MAX, XQ_HTTP_OP_BODY_MAX);
  else if (max) snprintf(msg, sizeof msg, "a request body of at most %zu bytes", max);
  else snprintf(msg, sizeof msg, "this resource takes no request body");
  respond_error(c, h, 413, XQ__E_LIMIT, msg, NULL);
}

/* Every request of the body has its reply (some waited for a commit or a
 * worker job): they go back as the body of the answer, in request order. */
static void op_done(void *arg, const char *lines, size_t n)
{
  http_conn *h = arg;
  xq__conn *c = h->c;
  if (!c->closing) {
    if (!lines) {
      respond_error(c, h, 500, NULL, "out of memory", NULL);
    } else {
      /* one reply is a JSON document; several are JSON lines */
      const char *nl = memchr(lines, '\n', n);
      int one = nl && (size_t)(nl - lines) + 1 == n;
      respond(c, h, 200, one ? "application/json" : "application/x-ndjson", lines, n, NULL);
    }
  }
  async_done(c, h);
}

/* The JSON-lines operations (docs/protocol.md) for the token of the
 * Authorization header, with that token's role: the same dispatcher and
 * role checks as a TCP session after hello, and the same replies. */
static void post_op(xq__server *s, xq__conn *c, http_conn *h)
{
  const xq_ttoken *t = NULL;
  /* checked on the head already; again for the token's role now */
  if (bearer(s, c, h, "send Authorization: Bearer TOKEN", &t)) return;
  const xq__http_req *r = &h->p.req;
  if (!r->body || !r->body_len) {
    respond_error(c, h, 400, NULL, "the body is empty: send one JSON request a line", NULL);
    return;
  }
  h->busy = 1;
  c->pending_replies++;
  xq__conn_ref(c);
  int rc = xq__op_run(s, t, r->body, r->body_len, op_done, h);
  if (rc != XQ_OK) {
    h->busy = 0;
    c->pending_replies--;
    xq__conn_unref(c);
    if (rc == XQ_ELIMIT) too_large(c, h, XQ_HTTP_OP_BODY_MAX);
    else
      respond_error(c, h, rc == XQ_EINVAL ? 400 : 500, NULL,
                    rc == XQ_EINVAL ? "the body has no request" : "out of memory", NULL);
  }
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

/* The kind of a path under /api/rounds/ (`p` past that prefix), with its
 * round and table into h; -1 when there is none. */
static int round_path(http_conn *h, const char *p)
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
static int path_kind(http_conn *h, const char *path)
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
               {"/api/knockout", RT_KNOCKOUT}, {"/api/trf", RT_TRF},     {"/api/events", RT_EVENTS}};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (!strcmp(path, fixed[i].path)) return fixed[i].kind;
  return -1;
}

/* The ?round=N of a request into *out (0 when absent). 0, or answers 400
 * and returns -1. */
static int round_query(xq__conn *c, http_conn *h, int *out)
{
  char q[32];
  *out = 0;
  if (xq__http_query(h->p.req.query, "round", q, sizeof q) < 0) return 0;
  const char *p = q;
  if ((*out = number(&p)) >= 0 && !*p) return 0;
  respond_error(c, h, 400, NULL, "round is a number", NULL);
  return -1;
}

/* What the head asks for, into h->kind and its arguments: 0, or the
 * answer sent (404, 405, 400) and -1. */
static int resolve(xq__server *s, xq__conn *c, http_conn *h)
{
  const char *m = h->p.req.method;
  h->round = h->table = 0;
  h->asset = NULL;
  if ((h->kind = path_kind(h, h->p.req.path)) < 0) {
    respond_error(c, h, 404, NULL, "no such resource", NULL);
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
    respond_error(c, h, 405, NULL, "method not allowed", extra);
    return -1;
  }
  if ((h->kind == RT_STANDINGS || h->kind == RT_EVENTS) && round_query(c, h, &h->round) < 0) return -1;
  int in_round = h->kind >= RT_PGN; /* the kinds under /api/rounds/ */
  if (in_round && !round_published(s, h->round)) {
    respond_error(c, h, 404, NULL, "round not published", NULL);
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
static int reserve_pass(xq__server *s, xq__conn *c, http_conn *h)
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
  respond_error(c, h, 503, XQ__E_LIMIT, "the server is full for clients without a token", extra);
  return 0;
}

/* A head is complete: judge the request on it before a byte of its body
 * is read (docs/http.md): a reserved slot without a token (503), the
 * route and method (404, 405, 400), the body the route takes (413), the
 * token (401, 403). A refused request's body is never read: its answer
 * ends the connection (respond). Returns 1 when the request goes on (its
 * body, if any, follows), 0 when it was answered. */
static int judge_head(xq__server *s, xq__conn *c, http_conn *h)
{
  const xq__http_req *r = &h->p.req;
  long long body = r->content_length > 0 ? r->content_length : 0;
  h->keep_alive = r->keep_alive && !s->stopping;
  h->head_only = !strcmp(r->method, "HEAD");
  h->cache = NULL;
  h->etag = 0;
  /* until the request is let through: what a refusal drops of the body */
  h->unread = body < XQ_HTTP_LINGER_MAX ? body : XQ_HTTP_LINGER_MAX;
  if (c->reserve && !reserve_pass(s, c, h)) return 0;
  if (resolve(s, c, h) < 0) return 0;
  size_t max = h->kind == RT_OP ? XQ_HTTP_OP_BODY_MAX : h->kind == RT_PUSH ? XQ_HTTP_BODY_MAX : 0;
  const xq_ttoken *t;
  if ((unsigned long long)body > max) {
    too_large(c, h, max);
    return 0;
  }
  if (h->kind == RT_OP && bearer(s, c, h, "send Authorization: Bearer TOKEN", &t)) return 0;
  if (h->kind == RT_PUSH && authorise(s, c, h)) return 0;
  h->unread = 0;
  if (xq__http_parser_body(&h->p, max) < 0) {
    xq__conn_close(c); /* out of memory */
    return 0;
  }
  if (h->p.state == XQ__HP_BODY) {
    xq__conn_deadline(c, XQ_HTTP_BODY_MS, "a request body not received in time");
    /* RFC 9110 10.1.1: the client waits for this before it sends the body */
    const char *expect = xq__http_header(r, "Expect");
    static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
    if (expect && r->minor == 1 && !strcasecmp(expect, "100-continue")) xq__conn_send(c, cont, sizeof cont - 1);
  }
  return 1;
}

/* Answer a request that is whole (its body read). The reads (every GET
 * but the stream) carry an ETag; those of the API may be cached for
 * XQ_HTTP_MAX_AGE_S (docs/http.md). */
static void serve(xq__server *s, xq__conn *c, http_conn *h)
{
  h->etag = h->kind != RT_OP && h->kind != RT_PUSH && h->kind != RT_EVENTS;
  if (h->etag && h->kind != RT_ASSET) h->cache = live_cache;
  switch (h->kind) {
  case RT_ASSET: get_asset(c, h, h->asset); break;
  case RT_OP: post_op(s, c, h); break;
  case RT_EVENT: get_event(s, c, h); break;
  case RT_STANDINGS: get_standings(s, c, h, h->round); break;
  case RT_KNOCKOUT: respond_json(c, h, xq__ko_json(s)); break;
  case RT_TRF: get_trf(s, c, h); break;
  case RT_EVENTS: get_events(s, c, h, h->round); break;
  case RT_PGN: get_pgn(s, c, h, h->round, h->table); break;
  case RT_PAIRINGS: get_pairings(s, c, h, h->round); break;
  case RT_GAMES: get_games(s, c, h, h->round); break;
  default: post_push(s, c, h, h->round); break;
  }
}

/* ------------------------------------------------------------------ */
/* The connection kind                                                 */
/* ------------------------------------------------------------------ */

/* A request was answered: wait for the next one, XQ_HTTP_IDLE_MS at
 * most until its first byte. */
static void request_over(xq__conn *c, http_conn *h)
{
  xq__http_parser_reset(&h->p);
  c->part_since = 0;
  if (!h->sse && !h->ended && !c->reserve) xq__conn_deadline(c, XQ_HTTP_IDLE_MS, "idle");
}

/* Bytes of a head wait in the buffer: the whole head within
 * XQ_HTTP_HEAD_MS of the first (armed once; more bytes move nothing). */
static void head_deadline(xq__conn *c, http_conn *h, size_t left)
{
  if (!left || c->part_since || c->closing || c->stalled || c->reserve || h->busy) return;
  if (h->p.state != XQ__HP_HEAD) return;
  c->part_since = uv_now(c->srv->loop);
  xq__conn_deadline(c, XQ_HTTP_HEAD_MS, "a request head not received in time");
}

/* process() is over, having used `used` bytes: a connection closed
 * meanwhile (an answer that could not be written, an event stream handed
 * to the fan-out) left its state to it (http_on_close), freed now unless
 * a push or an op still holds it. */
static size_t process_over(xq__conn *c, http_conn *h, size_t used)
{
  h->processing = 0;
  if (c->closing && !h->busy) {
    xq__http_parser_reset(&h->p);
    free(h);
    c->ext = NULL;
  }
  return used;
}

/* Parse and answer the requests in c->in; returns the bytes used. Stops
 * at a push waiting for its commit, at an event stream, at a close, and
 * before a request while the answer before it is still unsent. */
static size_t process(xq__conn *c, http_conn *h)
{
  size_t used = 0;
  h->processing = 1; /* a push answered at once must not re-enter */
  while (!c->closing && !h->busy && !h->sse && !h->ended) {
    /* one response at a time: a client that does not read what it asked
     * for gets nothing more made for it (docs/http.md) */
    if (h->p.state == XQ__HP_HEAD && xq__conn_stall(c, XQ_HTTP_OUT_HIGH)) break;
    long r = xq__http_parse(&h->p, c->in + used, c->len - used);
    if (r < 0) {
      /* the stream cannot be resynced: answer and close */
      h->keep_alive = 0;
      h->head_only = 0;
      respond_error(c, h, h->p.status, NULL, h->p.reason, NULL);
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
  http_conn *h = c->ext;
  if (!h) {
    if (!(h = calloc(1, sizeof *h))) {
      xq__conn_close(c);
      return c->len;
    }
    xq__http_parser_init(&h->p);
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
  http_conn *h = c->ext;
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
  http_conn tmp = {.keep_alive = 0};
  if (h) h->keep_alive = 0;
  respond_error(c, h ? h : &tmp, 431, NULL, "request head too large", NULL);
}

static void http_on_close(xq__conn *c)
{
  http_conn *h = c->ext;
  if (c->hub_watch) xq__hub_unwatch(c->srv, c);
  if (!h) return;
  if (h->busy || h->processing) {
    /* push_done still runs (it holds a reference) and frees nothing of
     * ours but the request, or process() is under way: keep the state
     * until then (async_done, process_over) */
    return;
  }
  xq__http_parser_reset(&h->p);
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
