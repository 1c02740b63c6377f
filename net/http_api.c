/*
 * http_api.c -- the answers of the HTTP API (docs/http.md): the reads
 * (event, pairings, standings, games, PGN, TRF, the page's files), the
 * event stream's start, the PGN push and the JSON-lines operations for a
 * token (POST /api/op). http.c parses, routes and judges each request on
 * its head, and hands the whole request here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "delay.h"
#include "http.h"
#include "http_parse.h"
#include "hub.h"
#include "ingest.h"
#include "internal.h"
#include "live.h"
#include "ops.h"
#include "proto.h"

/* ------------------------------------------------------------------ */
/* Reads                                                               */
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

void xq__http_api_event(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  const xq_tournament *ev = s->ev;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", ev ? ev->name : "");
  cJSON_AddStringToObject(o, "dates", ev ? ev->info.dates : "");
  cJSON_AddStringToObject(o, "venue", ev ? ev->info.venue : "");
  cJSON_AddNumberToObject(o, "rounds", ev ? ev->cfg.rounds : 0);
  /* swiss, rr (a round robin) or rr2 (a double one) */
  cJSON_AddStringToObject(o, "format", !ev || ev->cfg.format != XQ_FORMAT_RR ? "swiss" : ev->cfg.cycles == 2 ? "rr2" : "rr");
  /* the broadcast's delay for anonymous readers, in seconds (0 none) */
  cJSON_AddNumberToObject(o, "delay", (double)(xq__delay_us(s) / 1000000));
  /* a team event (GET /api/teams.json has its teams and matches) */
  if (xq__ops_team_now(s)) cJSON_AddTrueToObject(o, "team");
  /* the rounds 1..R whose games all have a result */
  cJSON_AddNumberToObject(o, "rounds_complete", ev ? xq_tournament_rounds_complete(ev) : 0);
  cJSON *pub = cJSON_AddArrayToObject(o, "published");
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX; r++)
    if (s->rounds[r]) cJSON_AddItemToArray(pub, cJSON_CreateNumber(r));
  /* the knockout tables are round XQ_KO_ROUND of "published" */
  if (s->ko && s->ko->after) cJSON_AddNumberToObject(o, "knockout_round", XQ_KO_ROUND);
  /* the knockout the regulation states: the places that go through */
  xq__ops_tourney_ko_plan(ev, o);
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
  xq__http_json(c, h, o);
}

void xq__http_api_pairings(xq__server *s, xq__conn *c, xq__http_conn *h, int round)
{
  const xq_tournament *ev = s->ev;
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
        cJSON_AddNumberToObject(red, "points", xq_tournament_points(ev, lv->red, round - 1) / 2.0);
      if (cJSON_IsObject(black))
        cJSON_AddNumberToObject(black, "points", xq_tournament_points(ev, lv->black, round - 1) / 2.0);
      cJSON_AddItemToObject(x, "red", red);
      cJSON_AddItemToObject(x, "black", black);
      cJSON_AddStringToObject(x, "result", xq__live_json_result(s, lv));
    } else {
      /* the bye: the player whose slot of this round is the PAB */
      int id = 0;
      for (int i = 1; ev && i <= ev->n && !id; i++)
        if (xq_tournament_slot(ev, i, round)->res == XQ_TR_PAB) id = i;
      cJSON *red = player_brief(s, id);
      if (cJSON_IsObject(red)) cJSON_AddNumberToObject(red, "points", xq_tournament_points(ev, id, round - 1) / 2.0);
      cJSON_AddItemToObject(x, "red", red);
      cJSON_AddNullToObject(x, "black");
      cJSON_AddTrueToObject(x, "bye");
    }
    cJSON_AddItemToArray(boards, x);
  }
  xq__http_json(c, h, o);
}

void xq__http_api_standings(xq__server *s, xq__conn *c, xq__http_conn *h, int upto)
{
  const xq_tournament *ev = s->ev;
  if (!ev) {
    xq__http_error(c, h, 404, NULL, "no event", NULL);
    return;
  }
  if (upto > ev->nrounds) {
    /* a round that is not paired has no standings: not those of another */
    char msg[64];
    snprintf(msg, sizeof msg, "round %d is not paired (%d are)", upto, ev->nrounds);
    xq__http_error(c, h, 404, NULL, msg, NULL);
    return;
  }
  /* by default after the last round whose games are all in */
  if (upto <= 0) upto = xq_tournament_standings_round(ev);
  xq_tstanding *st = calloc((size_t)ev->n + 1, sizeof *st);
  if (!st || xq_standings(ev, upto, st) != XQ_OK) {
    free(st);
    xq__http_error(c, h, 500, NULL, "standings failed", NULL);
    return;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", upto);
  /* "after round R" only when its games are all in */
  cJSON_AddBoolToObject(o, "complete", upto <= xq_tournament_rounds_complete(ev));
  cJSON *tbs = cJSON_AddArrayToObject(o, "tiebreaks");
  for (int t = 0; t < ev->cfg.ntb; t++) cJSON_AddItemToArray(tbs, cJSON_CreateString(xq_tb_name(ev->cfg.tb[t])));
  cJSON *rows = cJSON_AddArrayToObject(o, "standings");
  for (int i = 0; i < ev->n; i++) {
    cJSON *x = player_brief(s, st[i].id);
    cJSON_AddNumberToObject(x, "rank", st[i].rank);
    if (st[i].annulled) cJSON_AddTrueToObject(x, "annulled"); /* a round robin's withdrawal: unranked */
    cJSON *v = cJSON_AddObjectToObject(x, "tb");
    for (int t = 0; t < ev->cfg.ntb; t++) {
      int tb = ev->cfg.tb[t];
      double val = (double)st[i].val[t];
      /* as the sheets print them: point sums are in half-units, SB in
       * quarter-points, DE is a level counted from 0 */
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
    for (int r = 1; r <= upto; r++) byes += xq_tournament_slot(ev, st[i].id, r)->res == XQ_TR_PAB;
    cJSON_AddNumberToObject(x, "byes", byes);
    cJSON_AddItemToArray(rows, x);
  }
  free(st);
  xq__http_json(c, h, o);
}

void xq__http_api_games(xq__server *s, xq__conn *c, xq__http_conn *h, int round)
{
  size_t len = 0;
  const char *tag = NULL;
  /* made once for each change of the round, as the store holds it */
  const char *text = xq__live_json_round(s, round, &len, &tag);
  if (!text) {
    xq__http_error(c, h, 500, NULL, "out of memory", NULL);
    return;
  }
  h->tag = tag;
  xq__http_respond(c, h, 200, "application/json", text, len, NULL);
}

static int notation_of(const char *query, xq_notation *out)
{
  char v[16];
  *out = XQ_NOTE_CHINESE;
  int got = xq__http_parse_query(query, "notation", v, sizeof v);
  if (got == -1) return 1;
  if (got < 0) return 0;
  if (!strcmp(v, "iccs")) *out = XQ_NOTE_ICCS_PGN;
  else if (!strcmp(v, "wxf")) *out = XQ_NOTE_WXF;
  else if (!strcmp(v, "chinese")) *out = XQ_NOTE_CHINESE;
  else return 0;
  return 1;
}

void xq__http_api_pgn(xq__server *s, xq__conn *c, xq__http_conn *h, int round, int table)
{
  xq_notation nt;
  if (!notation_of(h->p.req.query, &nt)) {
    xq__http_error(c, h, 400, NULL, "notation is iccs, wxf or chinese", NULL);
    return;
  }
  size_t len = 0;
  char *text;
  if (table > 0) {
    xq__live *lv = xq__live_get(s, round, table);
    if (!lv) {
      xq__http_error(c, h, 404, NULL, "no game at that table (or it is the bye)", NULL);
      return;
    }
    text = xq__live_pgn_game(s, lv, nt, &len);
  } else {
    text = xq__live_pgn_round(s, round, nt, &len);
  }
  if (!text) {
    xq__http_error(c, h, 500, NULL, "out of memory", NULL);
    return;
  }
  xq__http_respond(c, h, 200, "application/x-chess-pgn; charset=utf-8", text, len, NULL);
  free(text);
}

void xq__http_api_knockout(xq__server *s, xq__conn *c, xq__http_conn *h) { xq__http_json(c, h, xq__ops_ko_json(s)); }

void xq__http_api_teams(xq__server *s, xq__conn *c, xq__http_conn *h, int round)
{
  cJSON *o = xq__ops_team_public(s, round);
  if (!o) xq__http_error(c, h, 404, NULL, "the event is not a team event", NULL);
  else xq__http_json(c, h, o);
}

void xq__http_api_trf(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  /* birth dates and sex are personal data: an admin's or arbiter's TRF
   * has them and is never kept by a cache (no-store); anyone else's has
   * those columns blank, its other columns where they were */
  int unknown;
  const xq_ttoken *t = xq__http_token(s, h, &unknown);
  if (unknown) {
    xq__http_bearer(s, c, h, "", &t); /* 401 BAD_TOKEN */
    return;
  }
  int staff = t && (t->role == XQ_ROLE_ADMIN || t->role == XQ_ROLE_ARBITER);
  xq_tournament *blank = s->ev && !staff ? xq_tournament_copy(s->ev) : NULL;
  for (int i = 0; blank && i < blank->n; i++) {
    blank->players[i].birth[0] = 0;
    blank->players[i].sex = 0;
  }
  const xq_tournament *ev = staff ? s->ev : blank;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  int rc = f && ev ? xq_trf_write(ev, f) : XQ_EIO;
  if (f) fclose(f);
  xq_tournament_free(blank);
  if (staff) h->cache = NULL; /* no-store */
  if (rc != XQ_OK) xq__http_error(c, h, 500, NULL, "TRF export failed", NULL);
  else xq__http_respond(c, h, 200, "text/plain; charset=utf-8", text, len, "Vary: Authorization\r\n");
  free(text);
}

/* The live page: a file of web/ embedded at build time, with an ETag
 * (respond: FNV-1a of its bytes) so that browsers revalidate instead of
 * fetching it again; a new binary with a changed file gets a new tag. */
void xq__http_api_asset(xq__conn *c, xq__http_conn *h, const char *name)
{
  const xq__web_asset *a = NULL;
  for (const xq__web_asset *w = xq__web_assets; w->path && !a; w++)
    if (!strcmp(w->path, name)) a = w;
  if (!a) {
    xq__http_error(c, h, 404, NULL, "no such file", NULL);
    return;
  }
  h->cache = "no-cache";
  xq__http_respond(c, h, 200, a->type, (const char *)a->data, a->len, NULL);
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

void xq__http_api_events(xq__server *s, xq__conn *c, xq__http_conn *h, int round)
{
  /* resume after Last-Event-ID (the browser's reconnect) or ?last_event;
   * a fresh stream starts with a snapshot of the games. A round not paired
   * yet may be followed (its events come when it is), one past any round
   * there can be may not. */
  if (round > XQ_ROUNDS_LIVE_MAX) {
    char msg[80];
    snprintf(msg, sizeof msg, "there is no round %d (rounds are 1 to %d)", round, XQ_ROUNDS_LIVE_MAX);
    xq__http_error(c, h, 404, NULL, msg, NULL);
    return;
  }
  long long last = -1;
  int got;
  char q[32];
  const char *lei = xq__http_parse_header(&h->p.req, "Last-Event-ID");
  if (lei && !parse_id(lei, &last)) last = -1;
  else if (!lei && (got = xq__http_parse_query(h->p.req.query, "last_event", q, sizeof q)) != -1 &&
           (got < 0 || !parse_id(q, &last))) {
    xq__http_error(c, h, 400, NULL, "last_event is an event id", NULL);
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

/* The reply to a push, once its rows are durable. */
static void push_done(void *arg, int status, char *json)
{
  xq__http_conn *h = arg;
  xq__conn *c = h->c;
  if (!c->closing) {
    if (status == XQ_OK && json) {
      size_t n = strlen(json);
      char *body = realloc(json, n + 2);
      if (body) {
        json = body;
        json[n] = '\n';
        xq__http_respond(c, h, 200, "application/json", json, n + 1, NULL);
      } else {
        xq__http_error(c, h, 500, NULL, "out of memory", NULL);
      }
    } else {
      xq__http_error(c, h, status == XQ_ESTORE ? 503 : 500,
                    status == XQ_ESTORE ? XQ__E_STORE : XQ__E_INTERNAL,
                    json ? json : "the push could not be stored", NULL);
    }
  }
  free(json);
  xq__http_done(c, h);
}

void xq__http_api_push(xq__server *s, xq__conn *c, xq__http_conn *h, int round)
{
  /* checked on the head already; again, as the token may have been
   * revoked while the body came */
  if (xq__http_staff(s, c, h)) return;
  const xq__http_req *r = &h->p.req;
  if (!r->body || !r->body_len) {
    xq__http_error(c, h, 400, NULL, "the body is empty: send the round's PGN", NULL);
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
    xq__http_error(c, h, status, rc == XQ_ELIMIT ? XQ__E_LIMIT : NULL, err.msg[0] ? err.msg : xq_strerror(rc),
                  NULL);
  }
}

/* Every request of the body has its reply (some waited for a commit or a
 * worker job): they go back as the body of the answer, in request order. */
static void op_done(void *arg, const char *lines, size_t n)
{
  xq__http_conn *h = arg;
  xq__conn *c = h->c;
  if (!c->closing) {
    if (!lines) {
      xq__http_error(c, h, 500, NULL, "out of memory", NULL);
    } else {
      /* one reply is a JSON document; several are JSON lines */
      const char *nl = memchr(lines, '\n', n);
      int one = nl && (size_t)(nl - lines) + 1 == n;
      xq__http_respond(c, h, 200, one ? "application/json" : "application/x-ndjson", lines, n, NULL);
    }
  }
  xq__http_done(c, h);
}

/* The JSON-lines operations (docs/protocol.md) for the token of the
 * Authorization header, with that token's role: the same dispatcher and
 * role checks as a TCP session after hello, and the same replies. */
void xq__http_api_op(xq__server *s, xq__conn *c, xq__http_conn *h)
{
  const xq_ttoken *t = NULL;
  /* checked on the head already; again for the token's role now */
  if (xq__http_bearer(s, c, h, "send Authorization: Bearer TOKEN", &t)) return;
  const xq__http_req *r = &h->p.req;
  if (!r->body || !r->body_len) {
    xq__http_error(c, h, 400, NULL, "the body is empty: send one JSON request a line", NULL);
    return;
  }
  h->busy = 1;
  c->pending_replies++;
  xq__conn_ref(c);
  int rc = xq__proto_run(s, t, r->body, r->body_len, op_done, h);
  if (rc != XQ_OK) {
    h->busy = 0;
    c->pending_replies--;
    xq__conn_unref(c);
    if (rc == XQ_ELIMIT) xq__http_too_large(c, h, XQ_HTTP_OP_BODY_MAX);
    else
      xq__http_error(c, h, rc == XQ_EINVAL ? 400 : 500, NULL,
                    rc == XQ_EINVAL ? "the body has no request" : "out of memory", NULL);
  }
}

