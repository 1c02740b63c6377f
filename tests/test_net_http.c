/*
 * test_net_http.c -- HTTP on the server's --http socket: the request
 * parser alone (split reads, pipelining, limits), then a real server on
 * 127.0.0.1 with a temporary store: the read-only API, Server-Sent Events
 * with Last-Event-ID resume, a subscriber that never reads, PGN push
 * (matching, illegal moves, duplicates, corrections, authorisation) and
 * polling a PGN URL served by a tiny HTTP server inside the test. Every
 * server test ends with uv_loop_close() == 0: no handle leaked.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "conn.h"
#include "http.h"
#include "http_parse.h"
#include "hub.h"
#include "net_fixture.h"
#include "poller.h"
#include "records.h"
#include "tourney.h"

/* ------------------------------------------------------------------ */
/* The request parser                                                  */
/* ------------------------------------------------------------------ */

/* Feed `text` to a parser `step` bytes at a time, as a connection would:
 * unused bytes stay buffered and are offered again with the next ones.
 * Completed requests are described into out (method path query
 * content-length body keep-alive, one per line). Returns the parser
 * status: 0 when every byte was used, an HTTP status after an error. */
static int feed_all(const char *text, size_t len, size_t step, char *out, size_t cap)
{
  xq__http_parser p;
  xq__http_parse_init(&p);
  char *buf = malloc(len + 1);
  size_t have = 0, given = 0, o = 0;
  int status = 0;
  out[0] = '\0';
  while (given < len || have) {
    size_t n = len - given < step ? len - given : step;
    memcpy(buf + have, text + given, n);
    have += n;
    given += n;
    size_t used = 0;
    for (;;) {
      long r = xq__http_parse(&p, buf + used, have - used);
      if (r < 0) {
        status = p.status;
        goto done;
      }
      used += (size_t)r;
      /* a head is whole: take its body, as the server does for a route
       * that takes the largest one */
      if (p.state == XQ__HP_HEAD_DONE && xq__http_parse_body(&p, XQ_HTTP_BODY_MAX) < 0) {
        status = p.status;
        goto done;
      }
      if (p.state == XQ__HP_DONE) {
        xq__http_req *q = &p.req;
        o += (size_t)snprintf(out + o, cap - o, "%s %s ?%s %lld %s %d\n", q->method, q->path,
                              q->query, q->content_length, q->body ? q->body : "-", q->keep_alive);
        xq__http_parse_reset(&p);
        continue;
      }
      if (r == 0) break;
    }
    memmove(buf, buf + used, have - used);
    have -= used;
    if (n == 0 && have) break; /* input ended inside a request */
  }
done:
  xq__http_parse_reset(&p);
  free(buf);
  return status;
}

Test(http_parse, one_request_whole_and_byte_by_byte)
{
  const char *req = "GET /api/rounds/1/pairings.json?x=1&y=a%20b HTTP/1.1\r\n"
                    "Host: localhost\r\nAccept: */*\r\n\r\n";
  char a[256], b[256];
  cr_assert_eq(feed_all(req, strlen(req), strlen(req), a, sizeof a), 0);
  cr_assert_str_eq(a, "GET /api/rounds/1/pairings.json ?x=1&y=a%20b -1 - 1\n");
  cr_assert_eq(feed_all(req, strlen(req), 1, b, sizeof b), 0);
  cr_assert_str_eq(a, b);
}

Test(http_parse, pipelined_requests_with_bodies_split_anywhere)
{
  const char *req = "POST /api/rounds/2/push HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
                    "GET /a%2Fb HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
                    "GET / HTTP/1.0\r\n\r\n"
                    "GET /k HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
  const char *want = "POST /api/rounds/2/push ? 5 hello 1\n"
                     "GET /a/b ? -1 - 0\n"
                     "GET / ? -1 - 0\n"
                     "GET /k ? -1 - 1\n";
  for (size_t step = 1; step <= strlen(req); step++) {
    char out[512];
    cr_assert_eq(feed_all(req, strlen(req), step, out, sizeof out), 0, "step %zu", step);
    cr_assert_str_eq(out, want, "step %zu", step);
  }
}

Test(http_parse, bare_lf_lines_and_leading_blank_lines)
{
  const char *req = "\r\n\nGET /x HTTP/1.1\nHost: h\n\n";
  char out[128];
  cr_assert_eq(feed_all(req, strlen(req), 3, out, sizeof out), 0);
  cr_assert_str_eq(out, "GET /x ? -1 - 1\n");
}

Test(http_parse, oversized_head_is_431)
{
  size_t n = XQ_HTTP_HEAD_MAX + 100;
  char *req = malloc(n + 1);
  int k = snprintf(req, n, "GET / HTTP/1.1\r\nHost: h\r\nX-Big: ");
  memset(req + k, 'a', n - (size_t)k);
  req[n] = '\0';
  char out[64];
  cr_assert_eq(feed_all(req, n, 4096, out, sizeof out), 431);
  cr_assert_str_eq(out, "");
  free(req);
}

Test(http_parse, too_many_fields_is_431)
{
  char req[8192];
  size_t o = (size_t)snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: h\r\n");
  for (int i = 0; i < XQ_HTTP_HEADERS_MAX; i++)
    o += (size_t)snprintf(req + o, sizeof req - o, "X-F%d: %d\r\n", i, i);
  o += (size_t)snprintf(req + o, sizeof req - o, "\r\n");
  char out[64];
  cr_assert_eq(feed_all(req, o, o, out, sizeof out), 431);
}

Test(http_parse, oversized_body_is_413_before_any_body_byte)
{
  char req[256];
  int n = snprintf(req, sizeof req, "POST /api/rounds/1/push HTTP/1.1\r\nHost: h\r\n"
                   "Content-Length: %d\r\n\r\n", XQ_HTTP_BODY_MAX + 1);
  char out[64];
  cr_assert_eq(feed_all(req, (size_t)n, (size_t)n, out, sizeof out), 413);
  n = snprintf(req, sizeof req, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n");
  cr_assert_eq(feed_all(req, (size_t)n, (size_t)n, out, sizeof out), 413);
}

Test(http_parse, malformed_requests_are_400_and_others_their_status)
{
  static const struct {
    const char *req;
    int status;
  } cases[] = {
    {"GET\r\n\r\n", 400},
    {"GET /x\r\n\r\n", 400},
    {"GET  /x HTTP/1.1\r\nHost: h\r\n\r\n", 400},
    {"GET /x HTTP/1.1 extra\r\nHost: h\r\n\r\n", 400},
    {"GET x HTTP/1.1\r\nHost: h\r\n\r\n", 400},
    {"G(T /x HTTP/1.1\r\nHost: h\r\n\r\n", 400},
    {"GET /x HTTX/1.1\r\nHost: h\r\n\r\n", 400},
    {"GET /x HTTP/2.0\r\nHost: h\r\n\r\n", 505},
    {"GET /x HTTP/1.2\r\nHost: h\r\n\r\n", 505},               /* only 1.0 and 1.1 */
    {"GET /x HTTP/1.9\r\nHost: h\r\n\r\n", 505},
    {"GET /x HTTP/0.9\r\nHost: h\r\n\r\n", 505},
    {"GET /x HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n", 400},   /* RFC 9112 3.2: one Host */
    {"GET /x HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", 400},
    {"GET /x HTTP/1.0\r\nHost: a\r\nHOST: a\r\n\r\n", 400},
    {"GET /x HTTP/1.1\r\n\r\n", 400},                         /* no Host */
    {"GET /x HTTP/1.1\r\nHost : h\r\n\r\n", 400},             /* space before ':' */
    {"GET /x HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400},
    {"GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400},
    {"GET /%00 HTTP/1.1\r\nHost: h\r\n\r\n", 400},
    {"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n", 400},
    {"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400},
    {"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", 411},
    {"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
    {"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", 400},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char out[128];
    cr_assert_eq(feed_all(cases[i].req, strlen(cases[i].req), 1, out, sizeof out), cases[i].status,
                 "case %zu: %s", i, cases[i].req);
    cr_assert_str_eq(out, "", "case %zu", i);
  }
}

Test(http_parse, the_parser_takes_no_body_byte_before_its_caller_judged_the_head)
{
  const char *req = "POST /api/op HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello";
  size_t head = strlen(req) - 5;
  xq__http_parser p;
  xq__http_parse_init(&p);
  /* the head, and not a byte more, however often it is offered */
  cr_assert_eq(xq__http_parse(&p, req, strlen(req)), (long)head);
  cr_assert_eq(p.state, XQ__HP_HEAD_DONE);
  cr_assert_eq(xq__http_parse(&p, req + head, 5), 0);
  cr_assert_null(p.req.body, "no room was taken for the body");
  cr_assert_eq(p.req.content_length, 5);
  /* over the route's limit: 413, the body never read */
  cr_assert_eq(xq__http_parse_body(&p, 4), -1);
  cr_assert_eq(p.status, 413);
  cr_assert_eq(p.state, XQ__HP_ERROR);
  xq__http_parse_reset(&p);
  /* within it: the body follows */
  cr_assert_eq(xq__http_parse(&p, req, strlen(req)), (long)head);
  cr_assert_eq(xq__http_parse_body(&p, 5), 0);
  cr_assert_eq(p.state, XQ__HP_BODY);
  cr_assert_eq(xq__http_parse(&p, req + head, 5), 5);
  cr_assert_eq(p.state, XQ__HP_DONE);
  cr_assert_str_eq(p.req.body, "hello");
  xq__http_parse_reset(&p);
  /* a length far over any limit is kept over it, never wrapped */
  const char *huge = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n";
  cr_assert_eq(xq__http_parse(&p, huge, strlen(huge)), (long)strlen(huge));
  cr_assert_gt(p.req.content_length, XQ_HTTP_BODY_MAX);
  cr_assert_eq(xq__http_parse_body(&p, XQ_HTTP_BODY_MAX), -1);
  cr_assert_eq(p.status, 413);
  xq__http_parse_reset(&p);
}

Test(http_parse, a_good_request_before_a_bad_one_is_served)
{
  const char *req = "GET /a HTTP/1.1\r\nHost: h\r\n\r\nBAD\r\n\r\n";
  char out[128];
  cr_assert_eq(feed_all(req, strlen(req), 1, out, sizeof out), 400);
  cr_assert_str_eq(out, "GET /a ? -1 - 1\n");
}

Test(http_parse, query_parameters_and_headers)
{
  char v[32];
  cr_assert_eq(xq__http_parse_query("round=3&last_event=17", "last_event", v, sizeof v), 2);
  cr_assert_str_eq(v, "17");
  cr_assert_eq(xq__http_parse_query("a=x+y%21&b", "a", v, sizeof v), 4);
  cr_assert_str_eq(v, "x y!");
  cr_assert_eq(xq__http_parse_query("a=x+y%21&b", "b", v, sizeof v), 0);
  cr_assert_eq(xq__http_parse_query("ab=1", "a", v, sizeof v), -1);
  /* present but unusable is not absent */
  cr_assert_eq(xq__http_parse_query("a=%2", "a", v, sizeof v), -2);
  cr_assert_eq(xq__http_parse_query("a=%00", "a", v, sizeof v), -2);
  cr_assert_eq(xq__http_parse_query("a=0123456789", "a", v, 5), -2);

  xq__http_parser p;
  xq__http_parse_init(&p);
  const char *req = "GET /x HTTP/1.1\r\nhost: h\r\nLast-Event-ID:  42 \r\n\r\n";
  cr_assert_eq(xq__http_parse(&p, req, strlen(req)), (long)strlen(req));
  cr_assert_eq(p.state, XQ__HP_HEAD_DONE);
  cr_assert_eq(xq__http_parse_body(&p, 0), 0);
  cr_assert_eq(p.state, XQ__HP_DONE);
  cr_assert_str_eq(xq__http_parse_header(&p.req, "last-event-id"), "42");
  cr_assert_str_eq(xq__http_parse_header(&p.req, "HOST"), "h");
  cr_assert_null(xq__http_parse_header(&p.req, "Authorization"));
  xq__http_parse_reset(&p);
}

Test(http_parse, response_heads_and_chunked_bodies)
{
  int status, chunked;
  long long cl;
  const char *h = "HTTP/1.1 404 Not Found\r\nContent-Length: 12\r\n\r\nnot here";
  cr_assert_eq(xq__http_parse_response(h, strlen(h), &status, &cl, &chunked),
               (long)(strstr(h, "not") - h));
  cr_assert_eq(status, 404);
  cr_assert_eq(cl, 12);
  cr_assert_eq(chunked, 0);
  cr_assert_eq(xq__http_parse_response(h, 20, &status, &cl, &chunked), 0);
  h = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  cr_assert_gt(xq__http_parse_response(h, strlen(h), &status, &cl, &chunked), 0);
  cr_assert_eq(status, 200);
  cr_assert_eq(chunked, 1);
  cr_assert_eq(xq__http_parse_response("HTTP/1.1 2x0 OK\r\n\r\n", 19, &status, &cl, &chunked), -1);

  char body[] = "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n";
  long n = xq__http_parse_dechunk(body, strlen(body));
  cr_assert_eq(n, 12);
  cr_assert_eq(memcmp(body, "hello, world", 12), 0);
  char bad[] = "5\r\nhel";
  cr_assert_eq(xq__http_parse_dechunk(bad, strlen(bad)), -1);
}

/* ------------------------------------------------------------------ */
/* A server, and HTTP over the scripted client                         */
/* ------------------------------------------------------------------ */

XQ_NET_SUITE(net_http, 8);


typedef xq_tresp resp;
#define resp_free xq_tresp_free

/* The next response on `c` (HEAD: no body expected). 0 or -1 (timeout). */
static int next_response(xq_tclient *c, resp *r, int head_only)
{
  return xq_tc_response(c, r, head_only, 10000);
}

/* Connect, send `req` raw and read one response; closes the client. */
static void http(const char *req, resp *r)
{
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, r), 0, "a response to %.40s", req);
}

static void get(const char *path, resp *r)
{
  char req[512];
  snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", path);
  http(req, r);
}

static cJSON *get_json(const char *path)
{
  resp r;
  get(path, &r);
  cr_assert_eq(r.status, 200, "GET %s: %d %s", path, r.status, r.body);
  cr_assert(strstr(r.head, "Content-Type: application/json"), "%s", r.head);
  cJSON *j = cJSON_Parse(r.body);
  cr_assert_not_null(j, "JSON from %s", path);
  resp_free(&r);
  return j;
}

/* POST body to path with an Authorization header (token NULL: none). */
static cJSON *post(const char *path, const char *token, const char *body, int *status)
{
  size_t n = strlen(body) + 512;
  char *req = malloc(n);
  char auth[128] = "";
  if (token) snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", token);
  snprintf(req, n, "POST %s HTTP/1.1\r\nHost: t\r\n%sContent-Type: text/plain\r\nContent-Length: %zu\r\n\r\n%s",
           path, auth, strlen(body), body);
  resp r;
  http(req, &r);
  free(req);
  *status = r.status;
  cJSON *j = cJSON_Parse(r.body);
  cr_assert_not_null(j, "JSON reply: %s", r.body);
  resp_free(&r);
  return j;
}

static const char *str(const cJSON *o, const char *k)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *k)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -999;
}

static const cJSON *item(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

static const char *error_code(const cJSON *o) { return str(item(o, "error"), "code"); }

/* The game at `table` of round 1 as games.json has it (caller deletes). */
static cJSON *game(int table)
{
  cJSON *j = get_json("/api/rounds/1/games.json");
  const cJSON *g;
  cJSON_ArrayForEach(g, item(j, "games")) if (num(g, "table") == table) {
    cJSON *copy = cJSON_Duplicate(g, 1);
    cJSON_Delete(j);
    return copy;
  }
  cJSON_Delete(j);
  cr_assert_fail("no game at table %d", table);
  return NULL;
}

/* The moves of a game as one space-separated string. */
static void moves_text(const cJSON *g, char *out, size_t cap)
{
  size_t o = 0;
  out[0] = 0;
  const cJSON *m;
  cJSON_ArrayForEach(m, item(g, "moves")) o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? " " : "", m->valuestring);
}

/* A JSON-lines session with `token`. */
static void hello(xq_tclient *c, const char *token)
{
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.port), 0);
  char line[256];
  snprintf(line, sizeof line, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", token);
  cJSON *r = xq_tc_call(c, line);
  cr_assert(r && cJSON_IsTrue(item(r, "ok")), "hello");
  cJSON_Delete(r);
}

/* ------------------------------------------------------------------ */
/* Read-only API                                                       */
/* ------------------------------------------------------------------ */

Test(net_http, event_pairings_standings_games_pgn_trf)
{
  cJSON *ev = get_json("/api/event");
  cr_assert_gt(strlen(str(ev, "name")), 0);
  cr_assert_eq(cJSON_GetArraySize(item(ev, "players")), 8);
  cr_assert_eq(cJSON_GetArraySize(item(ev, "published")), 1);
  cJSON_Delete(ev);

  cJSON *pr = get_json("/api/rounds/1/pairings.json");
  cr_assert_eq(num(pr, "round"), 1);
  cr_assert_eq(cJSON_GetArraySize(item(pr, "boards")), 4);
  const cJSON *b;
  int t = 0;
  cJSON_ArrayForEach(b, item(pr, "boards"))
  {
    cr_assert_eq(num(b, "table"), ++t);
    cr_assert_str_eq(str(b, "result"), "*");
    cr_assert_gt(strlen(str(item(b, "red"), "name")), 0);
    cr_assert_gt(strlen(str(item(b, "black"), "name")), 0);
  }
  cJSON_Delete(pr);

  cJSON *st = get_json("/api/standings.json");
  cr_assert_eq(cJSON_GetArraySize(item(st, "standings")), 8);
  cr_assert_eq(num(cJSON_GetArrayItem(item(st, "standings"), 0), "rank"), 1);
  cJSON_Delete(st);
  st = get_json("/api/standings.json?round=1");
  cr_assert_eq(cJSON_GetArraySize(item(st, "standings")), 8);
  cJSON_Delete(st);

  cJSON *gm = get_json("/api/rounds/1/games.json");
  cr_assert_eq(cJSON_GetArraySize(item(gm, "games")), 4);
  const cJSON *g0 = cJSON_GetArrayItem(item(gm, "games"), 0);
  cr_assert_str_eq(str(g0, "fen"), XQ_START_FEN);
  cr_assert_eq(cJSON_GetArraySize(item(g0, "moves")), 0);
  cJSON_Delete(gm);

  resp r;
  get("/api/rounds/1.pgn", &r);
  cr_assert_eq(r.status, 200);
  int games = 0;
  for (const char *p = r.body; (p = strstr(p, "[Game \"Chinese Chess\"]")); p++) games++;
  cr_assert_eq(games, 4);
  cr_assert(strstr(r.body, "[Round \"1.4\"]"));
  resp_free(&r);
  get("/api/rounds/1/2.pgn", &r);
  cr_assert_eq(r.status, 200);
  cr_assert(strstr(r.body, "[Round \"1.2\"]") && !strstr(r.body, "[Round \"1.1\"]"));
  resp_free(&r);

  get("/api/trf", &r);
  cr_assert_eq(r.status, 200);
  cr_assert(strstr(r.head, "text/plain"));
  cr_assert(strstr(r.body, "\n001 ") || !strncmp(r.body, "001 ", 4), "%s", r.body);
  resp_free(&r);

  get("/", &r);
  cr_assert_eq(r.status, 200);
  /* the live page (docs/web.md): its script follows the event stream */
  cr_assert(strstr(r.head, "text/html") && strstr(r.body, "/web/app.js"));
  resp_free(&r);
}

Test(net_http, errors_are_json_with_the_right_status)
{
  static const struct {
    const char *req;
    int status;
    const char *code;
  } cases[] = {
    {"GET /nope HTTP/1.1\r\nHost: t\r\n\r\n", 404, "NOT_FOUND"},
    {"GET /api/rounds/9/pairings.json HTTP/1.1\r\nHost: t\r\n\r\n", 404, "NOT_FOUND"},
    {"GET /api/rounds/1/9.pgn HTTP/1.1\r\nHost: t\r\n\r\n", 404, "NOT_FOUND"},
    {"GET /api/rounds/1/push HTTP/1.1\r\nHost: t\r\n\r\n", 405, "BAD_REQUEST"},
    {"DELETE /api/event HTTP/1.1\r\nHost: t\r\n\r\n", 405, "BAD_REQUEST"},
    {"GET /api/standings.json?round=x HTTP/1.1\r\nHost: t\r\n\r\n", 400, "BAD_REQUEST"},
    /* a round too long to hold, badly escaped or with a NUL: refused, never the default round */
    {"GET /api/standings.json?round=0000000000000000000000000000000099 HTTP/1.1\r\nHost: t\r\n\r\n", 400,
     "BAD_REQUEST"},
    {"GET /api/standings.json?round=1%00 HTTP/1.1\r\nHost: t\r\n\r\n", 400, "BAD_REQUEST"},
    {"GET /api/standings.json?round=%zz HTTP/1.1\r\nHost: t\r\n\r\n", 400, "BAD_REQUEST"},
    {"GET /api/events?round=1%00 HTTP/1.1\r\nHost: t\r\n\r\n", 400, "BAD_REQUEST"},
    {"GET /api/events?last_event=%zz HTTP/1.1\r\nHost: t\r\n\r\n", 400, "BAD_REQUEST"},
    {"GET /api/rounds/1.pgn?notation=iccsiccsiccsiccsiccs HTTP/1.1\r\nHost: t\r\n\r\n", 400, "BAD_REQUEST"},
    {"GET /api/events?round=99 HTTP/1.1\r\nHost: t\r\n\r\n", 404, "NOT_FOUND"},
    {"GET /api/rounds/1.pgn?notation=klingon HTTP/1.1\r\nHost: t\r\n\r\n", 400, "BAD_REQUEST"},
    {"GET /api/event HTTP/1.1\r\n\r\n", 400, "BAD_REQUEST"},
    {"GET /api/event HTTP/3.0\r\nHost: t\r\n\r\n", 505, "BAD_REQUEST"},
    {"GET /api/event HTTP/1.2\r\nHost: t\r\n\r\n", 505, "BAD_REQUEST"},
    {"GET /api/event HTTP/1.1\r\nHost: t\r\nHost: u\r\n\r\n", 400, "BAD_REQUEST"},
    {"POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n", 411, "BAD_REQUEST"},
    {"POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999\r\n\r\n", 413, "LIMIT"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    resp r;
    http(cases[i].req, &r);
    cr_assert_eq(r.status, cases[i].status, "case %zu: %d %s", i, r.status, r.body);
    cJSON *j = cJSON_Parse(r.body);
    cr_assert_str_eq(error_code(j), cases[i].code, "case %zu: %s", i, r.body);
    cr_assert_not_null(str(item(j, "error"), "msg"));
    cJSON_Delete(j);
    resp_free(&r);
  }
  /* an oversized head: 431, then the connection closes */
  size_t n = XQ_HTTP_HEAD_MAX + 64;
  char *big = malloc(n + 1);
  int k = snprintf(big, n, "GET /api/event HTTP/1.1\r\nHost: t\r\nX-Pad: ");
  memset(big + k, 'x', n - (size_t)k);
  big[n] = 0;
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&c, big, n);
  resp r;
  cr_assert_eq(next_response(&c, &r, 0), 0);
  cr_assert_eq(r.status, 431);
  cr_assert(xq_tc_wait_eof(&c, 5000), "closed after 431");
  resp_free(&r);
  xq_tc_close(&c);
  free(big);
}

Test(net_http, keep_alive_pipelining_and_head)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  const char *three = "GET /api/event HTTP/1.1\r\nHost: t\r\n\r\n"
                      "HEAD /api/rounds/1/pairings.json HTTP/1.1\r\nHost: t\r\n\r\n"
                      "GET /api/rounds/1/pairings.json HTTP/1.1\r\nHost: t\r\n\r\n";
  /* byte by byte, the way a slow client would send them */
  for (const char *p = three; *p; p++) xq_tc_send_raw(&c, p, 1);
  resp a, h, b;
  cr_assert_eq(next_response(&c, &a, 0), 0);
  cr_assert_eq(next_response(&c, &h, 1), 0);
  cr_assert_eq(next_response(&c, &b, 0), 0);
  cr_assert_eq(a.status, 200);
  cr_assert(strstr(a.body, "\"players\""));
  cr_assert_eq(h.status, 200);
  cr_assert_eq(b.status, 200);
  cr_assert(strstr(b.body, "\"boards\""), "the third answer is the pairings: %s", b.body);
  /* HEAD announced the length GET then sent */
  char want[64];
  snprintf(want, sizeof want, "Content-Length: %zu\r\n", b.len);
  cr_assert(strstr(h.head, want), "%s", h.head);
  resp_free(&a), resp_free(&h), resp_free(&b);
  /* Connection: close is honoured */
  const char *last = "GET /api/event HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
  xq_tc_send_raw(&c, last, strlen(last));
  cr_assert_eq(next_response(&c, &a, 0), 0);
  cr_assert_eq(a.status, 200);
  cr_assert(xq_tc_wait_eof(&c, 5000));
  resp_free(&a);
  xq_tc_close(&c);
}

/* Send `head` on a new connection: a request whose body is never sent.
 * Its answer must come at once, say the connection closes, and be the
 * error `code` with `status`. The client is left open in *c. */
static void refused_on_its_head(xq_tclient *c, const char *head, int status, const char *code)
{
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(c, head, strlen(head));
  resp r;
  cr_assert_eq(xq_tc_response(c, &r, 0, 5000), 0, "an answer without the body: %.60s", head);
  cr_assert_eq(r.status, status, "%.60s: %d %s", head, r.status, r.body);
  cr_assert(strstr(r.head, "Connection: close\r\n"), "the body is not read: the connection ends: %s", r.head);
  cJSON *j = cJSON_Parse(r.body);
  cr_assert_str_eq(error_code(j), code, "%.60s: %s", head, r.body);
  cJSON_Delete(j);
  resp_free(&r);
}

Test(net_http, a_request_is_judged_on_its_head_before_its_body)
{
  static const char big[] = "Content-Length: 4194304\r\n\r\n";
  char head[512];
  xq_tclient c;
  /* without a token, 4 MiB announced: no byte of it is awaited */
  refused_on_its_head(&c, "POST /api/event HTTP/1.1\r\nHost: t\r\nContent-Length: 4194304\r\n\r\n", 405, "BAD_REQUEST");
  xq_tc_close(&c);
  refused_on_its_head(&c, "POST /api/op HTTP/1.1\r\nHost: t\r\nContent-Length: 4194304\r\n\r\n", 413, "LIMIT");
  xq_tc_close(&c);
  refused_on_its_head(&c, "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nContent-Length: 4194304\r\n\r\n", 401,
                      "AUTH_REQUIRED");
  xq_tc_close(&c);
  refused_on_its_head(&c, "POST /nowhere HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n", 404, "NOT_FOUND");
  xq_tc_close(&c);
  /* a route that takes no body takes none, whatever the method */
  refused_on_its_head(&c, "GET /api/event HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n", 413, "LIMIT");
  xq_tc_close(&c);
  /* with a token: each route's own limit, then the token's role */
  snprintf(head, sizeof head, "POST /api/op HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n%s", ts.admin, big);
  refused_on_its_head(&c, head, 413, "LIMIT");
  xq_tc_close(&c);
  snprintf(head, sizeof head, "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n"
           "Content-Length: %d\r\n\r\n", ts.admin, XQ_HTTP_BODY_MAX + 1);
  refused_on_its_head(&c, head, 413, "LIMIT");
  xq_tc_close(&c);
  snprintf(head, sizeof head, "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n%s",
           ts.board[0], big);
  refused_on_its_head(&c, head, 403, "FORBIDDEN");
  xq_tc_close(&c);
  refused_on_its_head(&c, "POST /api/op HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer 0123456789abcdef0123456789abcdef\r\n"
                          "Content-Length: 100\r\n\r\n", 401, "BAD_TOKEN");
  xq_tc_close(&c);

  /* what then comes of a refused body is dropped unread, and the
   * connection ends with it */
  refused_on_its_head(&c, "POST /api/event HTTP/1.1\r\nHost: t\r\nContent-Length: 50\r\n\r\n", 405, "BAD_REQUEST");
  char body[50];
  memset(body, 'x', sizeof body);
  xq_tc_send_raw(&c, body, sizeof body);
  cr_assert(xq_tc_wait_eof(&c, 5000), "the connection ends once the refused body is dropped");
  xq_tc_close(&c);

  /* an empty body is no body: served, and the connection kept */
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  const char *empty = "GET /api/event HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n";
  xq_tc_send_raw(&c, empty, strlen(empty));
  xq_tc_send_raw(&c, empty, strlen(empty));
  resp a, b;
  cr_assert_eq(next_response(&c, &a, 0), 0);
  cr_assert_eq(next_response(&c, &b, 0), 0);
  cr_assert_eq(a.status, 200);
  cr_assert_eq(b.status, 200);
  resp_free(&a), resp_free(&b);
  xq_tc_close(&c);
}

Test(net_http, a_board_move_shows_in_games_and_pgn)
{
  xq_tclient b;
  hello(&b, ts.board[1]);
  cJSON *r = xq_tc_call(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(cJSON_IsTrue(item(r, "ok")), "move accepted");
  cJSON_Delete(r);
  xq_tc_close(&b);
  cJSON *g = game(2);
  char mv[256];
  moves_text(g, mv, sizeof mv);
  cr_assert_str_eq(mv, "h2e2");
  cr_assert_eq(num(g, "ply"), 1);
  cJSON_Delete(g);
  resp p;
  get("/api/rounds/1/2.pgn?notation=iccs", &p);
  cr_assert(strstr(p.body, "H2-E2"), "%s", p.body);
  resp_free(&p);
  get("/api/rounds/1/2.pgn", &p);
  cr_assert(strstr(p.body, "炮二平五"), "%s", p.body);
  resp_free(&p);
}

/* The ETag line of a response head, cut at its end of line, in out. */
static void etag_of(const resp *r, char *out, size_t cap)
{
  const char *e = strstr(r->head, "ETag: ");
  cr_assert(e, "an ETag: %s", r->head);
  size_t n = strcspn(e, "\r\n");
  snprintf(out, cap, "%.*s", (int)n, e);
}

/* GET path: its body (malloc'd) and ETag line. */
static char *get_tagged(const char *path, char *tag, size_t cap)
{
  resp r;
  get(path, &r);
  cr_assert_eq(r.status, 200, "GET %s: %d", path, r.status);
  etag_of(&r, tag, cap);
  char *body = strdup(r.body);
  resp_free(&r);
  return body;
}

/* The reads every viewer asks for are made once and kept (answers.c):
 * asked again they are the kept text, and each shows a change as soon as
 * it is made -- a move its round's PGN (not the standings), a result the
 * standings, a name every answer. */
Test(net_http, reads_are_kept_until_what_they_show_changes)
{
  char t1[64], t2[64];
  char *st1 = get_tagged("/api/standings.json", t1, sizeof t1);
  char *st2 = get_tagged("/api/standings.json", t2, sizeof t2);
  cr_assert_str_eq(st1, st2);
  cr_assert_str_eq(t1, t2);
  xq__answer_key k = {.kind = 0};
  int kept = 0;
  for (k.kind = 0; k.kind < 16 && !kept; k.kind++) kept = xq__answers_get(ts.srv, &k) != NULL;
  cr_assert(kept, "the standings were kept");
  char *pg1 = get_tagged("/api/rounds/1/2.pgn", t1, sizeof t1);
  cr_assert(!strstr(pg1, "炮二平五"));
  /* a move: the round's PGN shows it, the standings are the same */
  xq_tclient b;
  hello(&b, ts.board[1]);
  xq_tc_okf(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  xq_tc_close(&b);
  char *pg2 = get_tagged("/api/rounds/1/2.pgn", t2, sizeof t2);
  cr_assert(strstr(pg2, "炮二平五"), "the kept PGN shows the move: %s", pg2);
  cr_assert_str_neq(t1, t2);
  char *st3 = get_tagged("/api/standings.json", t2, sizeof t2);
  cr_assert_str_eq(st3, st1, "a move changes no standing");
  /* a result: the standings show it */
  xq_tclient a;
  hello(&a, ts.admin);
  xq_tc_okf(&a, "{\"id\":2,\"op\":\"result\",\"round\":1,\"table\":1,\"result\":\"1-0\"}");
  char *st4 = get_tagged("/api/standings.json", t2, sizeof t2);
  cr_assert_str_neq(st4, st1, "the kept standings show the result");
  cJSON *op = xq_tc_call(&a, "{\"id\":3,\"op\":\"standings\"}");
  cr_assert(xq_tj_ok(op));
  const cJSON *top = cJSON_GetArrayItem(item(op, "standings"), 0);
  cr_assert_gt(xq_tj_num(top, "points"), 0, "the standings operation shows it too");
  cJSON_Delete(op);
  /* a name: the event, the pairings and the standings show it */
  xq_tc_okf(&a, "{\"id\":4,\"op\":\"edit_player\",\"player\":1,\"name\":\"改了名\"}");
  xq_tc_close(&a);
  static const char *const reads[] = {"/api/event", "/api/rounds/1/pairings.json", "/api/standings.json",
                                      "/api/rounds/1.pgn"};
  for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
    char *body = get_tagged(reads[i], t2, sizeof t2);
    cr_assert(strstr(body, "改了名"), "%s shows the new name", reads[i]);
    free(body);
  }
  free(st1), free(st2), free(st3), free(st4), free(pg1), free(pg2);
}

/* The reads open to anyone that cost most at a large event -- the
 * `players` and `pairings` operations, the anonymous TRF (29, 12 and 9
 * ms at 4,000 players) -- are kept like the viewers' reads, each variant
 * apart: the anonymous ones without personal data (the TRF with its Vary
 * when kept), the staff's with it; a change shows in each at once. */
Test(net_http, open_reads_are_kept_and_personal_data_stays_apart)
{
  xq_tclient v, a;
  cr_assert_eq(xq_tc_connect(&v, &ts.loop, ts.port), 0);
  hello(&a, ts.admin);
  for (int k = 0; k < 2; k++) {
    cJSON *r = xq_tc_call(&v, "{\"id\":1,\"op\":\"players\"}");
    cr_assert(xq_tj_ok(r));
    cr_assert_null(item(cJSON_GetArrayItem(item(r, "players"), 0), "birth"), "anyone's players: no birth date");
    cJSON_Delete(r);
    r = xq_tc_call(&a, "{\"id\":2,\"op\":\"players\"}");
    cr_assert_not_null(item(cJSON_GetArrayItem(item(r, "players"), 0), "birth"), "the staff's players: birth dates");
    cJSON_Delete(r);
    r = xq_tc_call(&v, "{\"id\":3,\"op\":\"pairings\",\"round\":1}");
    cr_assert(xq_tj_ok(r));
    cJSON_Delete(r);
    resp t;
    get("/api/trf", &t);
    cr_assert_eq(t.status, 200);
    cr_assert(strstr(t.head, "Vary: Authorization"), "%s", t.head);
    cr_assert(strstr(t.head, "max-age"), "anyone's TRF may be cached: %s", t.head);
    resp_free(&t);
  }
  xq__answer_key pub = {.kind = XQ__ANSWER_OP_PLAYERS}, staff = {.kind = XQ__ANSWER_OP_PLAYERS, .table = 1},
                 pairings = {.kind = XQ__ANSWER_OP_PAIRINGS, .round = 1}, trf = {.kind = XQ__ANSWER_TRF_PUBLIC};
  cr_assert_not_null(xq__answers_get(ts.srv, &pub), "anyone's players kept");
  cr_assert_not_null(xq__answers_get(ts.srv, &staff), "the staff's players kept apart");
  cr_assert_not_null(xq__answers_get(ts.srv, &pairings), "the pairings kept");
  cr_assert_not_null(xq__answers_get(ts.srv, &trf), "anyone's TRF kept");
  cr_assert_null(strstr(xq__answers_get(ts.srv, &pub)->text, "\"birth\""));
  /* a name and a result: each shows them */
  xq_tc_okf(&a, "{\"id\":4,\"op\":\"edit_player\",\"player\":1,\"name\":\"新名字\"}");
  xq_tc_okf(&a, "{\"id\":5,\"op\":\"result\",\"round\":1,\"table\":3,\"result\":\"0-1\"}");
  cJSON *r = xq_tc_call(&v, "{\"id\":6,\"op\":\"players\"}");
  char *text = cJSON_PrintUnformatted(r);
  cr_assert(strstr(text, "新名字"), "%s", text);
  free(text);
  cJSON_Delete(r);
  r = xq_tc_call(&v, "{\"id\":7,\"op\":\"pairings\",\"round\":1}");
  text = cJSON_PrintUnformatted(r);
  cr_assert(strstr(text, "新名字") && strstr(text, "\"result\":\"0-1\""), "%s", text);
  free(text);
  cJSON_Delete(r);
  resp t;
  get("/api/trf", &t);
  cr_assert(strstr(t.body, "新名字"), "%s", t.body);
  resp_free(&t);
  xq_tc_close(&v);
  xq_tc_close(&a);
}

/* POST /api/op with a token: a line of more values than a request holds
 * (a 64 KiB array of 30,000 numbers) is LIMIT, unparsed -- by the check
 * of a batch for player writes too -- and the other lines are served. */
Test(net_http, op_lines_of_too_many_values_are_refused_unparsed)
{
  size_t n = 64 + 2 * 30000 + 64;
  char *body = malloc(n), *req = malloc(n + 512);
  int k = snprintf(body, n, "{\"id\":1,\"op\":\"ping\",\"x\":[1");
  for (int i = 1; i < 30000; i++) k += snprintf(body + k, n - (size_t)k, ",1");
  snprintf(body + k, n - (size_t)k, "]}\n{\"id\":2,\"op\":\"ping\"}\n");
  snprintf(req, n + 512, "POST /api/op HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n%s",
           ts.board[0], strlen(body), body);
  resp r;
  http(req, &r);
  cr_assert_eq(r.status, 200, "%s", r.body);
  char *nl = strchr(r.body, '\n');
  cr_assert_not_null(nl);
  *nl = 0;
  cJSON *first = cJSON_Parse(r.body), *second = cJSON_Parse(nl + 1);
  cr_assert_str_eq(error_code(first), "LIMIT", "%s", r.body);
  cr_assert(xq_tj_ok(second), "the next line is served: %s", nl + 1);
  cJSON_Delete(first);
  cJSON_Delete(second);
  resp_free(&r);
  free(body);
  free(req);
}

/* POST /api/op with the admin token: the raw reply lines (malloc'd). */
static char *op_lines(const char *body)
{
  char req[4096];
  snprintf(req, sizeof req, "POST /api/op HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n%s",
           ts.admin, strlen(body), body);
  resp r;
  http(req, &r);
  cr_assert_eq(r.status, 200, "%s", r.body);
  char *out = strdup(r.body);
  resp_free(&r);
  return out;
}

static int players_now(void)
{
  cJSON *ev = get_json("/api/event");
  int n = cJSON_GetArraySize(item(ev, "players"));
  cJSON_Delete(ev);
  return n;
}

/* A batch of player writes is applied all or none: one bad line and
 * none is stored, the others answered NOT_APPLIED naming it; a good
 * batch is stored whole. */
Test(net_http, a_batch_of_player_writes_is_applied_all_or_none)
{
  int before = players_now();
  char *out = op_lines("{\"id\":1,\"op\":\"add_player\",\"player\":{\"name\":\"甲\",\"rating\":1500}}\n"
                       "{\"id\":2,\"op\":\"add_player\",\"player\":{\"name\":\"乙\",\"rating\":1500}}\n"
                       "{\"id\":3,\"op\":\"add_player\",\"player\":{\"rating\":1500}}\n");
  cr_assert_eq(strstr(out, "\"ok\":true") != NULL, 0, "no line is ok: %s", out);
  cr_assert(strstr(out, "NOT_APPLIED") && strstr(out, "line 3 failed"), "%s", out);
  int na = 0;
  for (const char *p = out; (p = strstr(p, "NOT_APPLIED")); p++) na++;
  cr_assert_eq(na, 2, "the two good lines are not applied: %s", out);
  free(out);
  cr_assert_eq(players_now(), before, "none of the batch is stored");
  /* after a restart too: nothing of it is in the store */
  out = op_lines("{\"id\":4,\"op\":\"add_player\",\"player\":{\"name\":\"丙\",\"rating\":1500}}\n"
                 "{\"id\":5,\"op\":\"add_player\",\"player\":{\"name\":\"丁\",\"rating\":1500}}\n");
  int ok = 0;
  for (const char *p = out; (p = strstr(p, "\"ok\":true")); p++) ok++;
  cr_assert_eq(ok, 2, "%s", out);
  free(out);
  cr_assert_eq(players_now(), before + 2);
  cr_assert_eq(xq_ts_stop(&ts), 0);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  cr_assert_eq(players_now(), before + 2, "the good batch is durable, the bad one nowhere");
}

/* ------------------------------------------------------------------ */
/* One response at a time                                              */
/* ------------------------------------------------------------------ */

/* Tests that start their own server (a larger demo, changed limits). */
TestSuite(net_http_own, .fini = xq_fx_end, .timeout = 60);

/* The server's side of the only HTTP connection open, or NULL. */
static xq__conn *http_conn_of_server(void)
{
  for (xq__conn *k = ts.srv->conns; k; k = k->next)
    if (k->proto == &xq__http_proto) return k;
  return NULL;
}

static int output_backs_up(void *a)
{
  (void)a;
  xq__conn *k = http_conn_of_server();
  return k && k->out_bytes > 0;
}

/* Drop the responses read so far from the client's buffer, and read
 * again if it was full. */
static void compact(xq_tclient *c)
{
  memmove(c->in, c->in + c->line_start, c->len - c->line_start + 1);
  c->len -= c->line_start;
  c->line_start = 0;
  if (c->full) xq_tc_reading(c, 1);
}

Test(net_http_own, pipelined_requests_are_answered_one_at_a_time)
{
  xq_fx_up(400); /* 200 boards: games.json is about 55 KB */
  resp one;
  get("/api/rounds/1/games.json", &one);
  cr_assert_eq(one.status, 200);
  size_t biggest = strlen(one.head) + one.len;
  resp_free(&one);

  /* requests for the big games.json and a small table PGN in turn, as
   * many as fill the server's 16 KiB input buffer, from a client that
   * reads none of its answers */
  enum { N = 300 };
  static char burst[N * 64];
  size_t k = 0;
  for (int i = 0; i < N; i++) {
    if (i % 2 == 0) k += (size_t)snprintf(burst + k, sizeof burst - k, "GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\n\r\n");
    else k += (size_t)snprintf(burst + k, sizeof burst - k, "GET /api/rounds/1/%d.pgn HTTP/1.1\r\nHost: t\r\n\r\n", 1 + i / 2 % 200);
  }
  cr_assert_lt(k, (size_t)XQ_HTTP_HEAD_MAX, "the burst fits in the server's input buffer");
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_reading(&c, 0);
  xq_tc_send_raw(&c, burst, k);
  cr_assert(xq_tc_run_until(&ts.loop, output_backs_up, NULL, 10000), "the socket took all the server had to send");
  xq_tc_spin(&ts.loop, 100);

  /* the server made one answer and no more: the rest of the requests wait,
   * unparsed, until that one is handed to the socket */
  xq__conn *sc = http_conn_of_server();
  cr_assert_not_null(sc);
  cr_assert_leq(sc->out_bytes, biggest, "one answer waits, not many: %zu bytes for answers of %zu", sc->out_bytes,
                biggest);
  cr_assert(sc->stalled, "the connection is not served until it reads");
  cr_assert_gt(sc->len, 0, "requests wait in its buffer");

  /* meanwhile another client is answered */
  cJSON *ev = get_json("/api/event");
  cr_assert_eq(cJSON_GetArraySize(item(ev, "players")), 400);
  cJSON_Delete(ev);

  /* the client reads at last: every answer, in request order */
  xq_tc_reading(&c, 1);
  for (int i = 0; i < N; i++) {
    resp r;
    cr_assert_eq(next_response(&c, &r, 0), 0, "answer %d", i);
    cr_assert_eq(r.status, 200, "answer %d: %d", i, r.status);
    if (i % 2 == 0) {
      cr_assert(!strncmp(r.body, "{\"round\":1,\"games\":", 19), "answer %d is games.json", i);
    } else {
      char tag[32];
      snprintf(tag, sizeof tag, "[Round \"1.%d\"]", 1 + i / 2 % 200);
      cr_assert(strstr(r.body, tag), "answer %d is the PGN of table %d", i, 1 + i / 2 % 200);
    }
    resp_free(&r);
    compact(&c);
  }
  xq_tc_close(&c);
}

static int no_http_conn(void *a)
{
  (void)a;
  return http_conn_of_server() == NULL;
}

Test(net_http_own, a_client_that_never_reads_its_answers_is_closed)
{
  xq_ts_tuning quick = {.deadline_scale = 0.05}; /* XQ_STALL_MS 30 s -> 1.5 s */
  xq_fx_up_tuned(400, &quick);
  static char burst[XQ_HTTP_HEAD_MAX];
  size_t k = 0;
  while (k + 64 < sizeof burst)
    k += (size_t)snprintf(burst + k, sizeof burst - k, "GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\n\r\n");
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_reading(&c, 0);
  xq_tc_send_raw(&c, burst, k);
  cr_assert(xq_tc_run_until(&ts.loop, output_backs_up, NULL, 10000), "the server's output backs up");
  cr_assert(xq_tc_run_until(&ts.loop, no_http_conn, NULL, 10000), "the connection is closed, its answers unread");
  xq_tc_close(&c);
}

/* ------------------------------------------------------------------ */
/* Server-Sent Events                                                  */
/* ------------------------------------------------------------------ */

typedef struct wait_text {
  xq_tclient *c;
  const char *text;
  size_t from;
} wait_text;

static int has_text(void *a)
{
  wait_text *w = a;
  return w->c->len > w->from && strstr(w->c->in + w->from, w->text) != NULL;
}

/* Run until `text` arrives on c after offset `from`; returns 1 if so. */
static int wait_for(xq_tclient *c, const char *text, size_t from)
{
  wait_text w = {c, text, from};
  return xq_tc_run_until(&ts.loop, has_text, &w, 10000);
}

static long long event_id_before(const char *in, const char *marker)
{
  const char *m = strstr(in, marker);
  cr_assert_not_null(m);
  const char *id = NULL;
  for (const char *p = in; p < m; p++)
    if (!strncmp(p, "id: ", 4)) id = p + 4;
  cr_assert_not_null(id);
  return atoll(id);
}

static void sse_open(xq_tclient *c, const char *extra)
{
  char req[256];
  snprintf(req, sizeof req, "GET /api/events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n%s\r\n", extra);
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(c, req, strlen(req));
  cr_assert(wait_for(c, "\r\n\r\n", 0));
  cr_assert(!strncmp(c->in, "HTTP/1.1 200", 12));
  cr_assert(strstr(c->in, "Content-Type: text/event-stream\r\n"));
  cr_assert(strstr(c->in, "Cache-Control: no-cache\r\n"));
}

Test(net_http, sse_gets_moves_and_resumes_after_last_event_id)
{
  xq_tclient s1;
  sse_open(&s1, "");
  cr_assert(wait_for(&s1, "event: snapshot\n", 0), "a fresh stream starts with a snapshot");
  cr_assert(wait_for(&s1, "\"games\":[", 0));

  xq_tclient b;
  hello(&b, ts.board[0]);
  cJSON *r = xq_tc_call(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(cJSON_IsTrue(item(r, "ok")));
  cJSON_Delete(r);
  cr_assert(wait_for(&s1, "event: move\ndata: {\"ply\":1,\"move\":\"h2e2\"", 0), "%s", s1.in);
  long long id1 = event_id_before(s1.in, "event: move\n");

  /* a second stream resuming after the event before the move replays it
   * (and sends no snapshot) */
  xq_tclient s2;
  char hdr[64];
  snprintf(hdr, sizeof hdr, "Last-Event-ID: %lld\r\n", id1 - 1);
  sse_open(&s2, hdr);
  cr_assert(wait_for(&s2, "event: move\n", 0), "%s", s2.in);
  cr_assert_eq(event_id_before(s2.in, "event: move\n"), id1);
  cr_assert_null(strstr(s2.in, "snapshot"));

  /* one resuming after the move itself gets only what follows; so does
   * ?last_event= */
  xq_tclient s3, s4;
  snprintf(hdr, sizeof hdr, "Last-Event-ID: %lld\r\n", id1);
  sse_open(&s3, hdr);
  char path[128];
  snprintf(path, sizeof path, "GET /api/events?round=1&last_event=%lld HTTP/1.1\r\nHost: t\r\n\r\n", id1);
  cr_assert_eq(xq_tc_connect(&s4, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&s4, path, strlen(path));
  cr_assert(wait_for(&s4, "\r\n\r\n", 0));
  size_t from3 = s3.len, from4 = s4.len;
  r = xq_tc_call(&b, "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  cr_assert(cJSON_IsTrue(item(r, "ok")));
  cJSON_Delete(r);
  cr_assert(wait_for(&s3, "\"move\":\"h9g7\"", from3));
  cr_assert(wait_for(&s4, "\"move\":\"h9g7\"", from4));
  cr_assert_null(strstr(s3.in, "\"move\":\"h2e2\""), "nothing before the resume point");
  cr_assert_null(strstr(s4.in, "\"move\":\"h2e2\""));
  cr_assert(wait_for(&s1, "\"move\":\"h9g7\"", 0));
  cr_assert_eq(xq__hub_subscribers(ts.srv), 4);
  xq_tc_close(&b);
  xq_tc_close(&s1), xq_tc_close(&s2), xq_tc_close(&s3), xq_tc_close(&s4);
}

/* A client that connects, asks for the stream and never reads. */
typedef struct slow {
  uv_tcp_t tcp;
  uv_connect_t creq;
  uv_write_t wreq;
  int connected, closed;
} slow;

static void slow_written(uv_write_t *w, int status) { (void)w, (void)status; }

static void slow_connected(uv_connect_t *req, int status)
{
  slow *s = req->data;
  cr_assert_eq(status, 0);
  static char get[] = "GET /api/events?last_event=0 HTTP/1.1\r\nHost: t\r\n\r\n";
  uv_buf_t b = uv_buf_init(get, sizeof get - 1);
  uv_write(&s->wreq, (uv_stream_t *)&s->tcp, &b, 1, slow_written);
  s->connected = 1;
}

static int subscribers_are(void *a) { return xq__hub_subscribers(ts.srv) == *(int *)a; }

typedef struct batch_wait {
  xq_tclient *c;
  int want;
} batch_wait;

static int count_events(const xq_tclient *c)
{
  int n = 0;
  for (const char *p = c->in; (p = strstr(p, "event: test\n")); p++) n++;
  return n;
}

/* The whole batch arrived: `want` events, the last one complete. */
static int batch_in(void *a)
{
  batch_wait *w = a;
  return count_events(w->c) == w->want && w->c->len >= 2 && !strcmp(w->c->in + w->c->len - 2, "\n\n");
}

static void slow_closed(uv_handle_t *h) { ((slow *)h->data)->closed = 1; }
static int slow_is_closed(void *a) { return ((slow *)a)->closed; }

Test(net_http, a_subscriber_that_never_reads_is_dropped)
{
  slow s = {0};
  uv_tcp_init(&ts.loop, &s.tcp);
  s.tcp.data = s.creq.data = &s;
  struct sockaddr_in sa;
  uv_ip4_addr("127.0.0.1", ts.http_port, &sa);
  uv_tcp_connect(&s.creq, &s.tcp, (const struct sockaddr *)&sa, slow_connected);
  xq_tclient fast;
  sse_open(&fast, "Last-Event-ID: 0\r\n");
  int two = 2;
  cr_assert(xq_tc_run_until(&ts.loop, subscribers_are, &two, 5000), "both subscribed");

  cr_assert(wait_for(&fast, "retry: 3000\n\n", 0));
  fast.len = fast.line_start = 0;
  fast.in[0] = 0;

  /* 1 KiB events until the slow one is gone; the fast one keeps up, and
   * its buffer is emptied after each batch */
  char data[1024];
  memset(data, 'x', sizeof data);
  memcpy(data, "{\"pad\":\"", 8);
  memcpy(data + sizeof data - 3, "\"}", 3);
  long sent = 0, received = 0;
  int one = 1;
  while (xq__hub_subscribers(ts.srv) == 2 && sent < 20000) {
    for (int i = 0; i < 64; i++, sent++) xq__hub_publish(ts.srv, "test", 1, 1, data);
    batch_wait w = {&fast, 64};
    cr_assert(xq_tc_run_until(&ts.loop, batch_in, &w, 10000), "the reading subscriber got the batch");
    received += count_events(&fast);
    fast.len = 0;
    fast.in[0] = 0;
  }
  cr_assert(xq_tc_run_until(&ts.loop, subscribers_are, &one, 5000), "the slow subscriber was dropped after %ld events", sent);
  /* it was dropped only once more than the budget was waiting for it */
  cr_assert_gt((size_t)sent * sizeof data, (size_t)XQ_OUT_VIEWER_MAX);
  /* the reading one got every event and is still subscribed */
  cr_assert_eq(received, sent);
  cr_assert_eq(xq__hub_subscribers(ts.srv), 1);
  uv_close((uv_handle_t *)&s.tcp, slow_closed);
  xq_tc_run_until(&ts.loop, slow_is_closed, &s, 5000);
  xq_tc_close(&fast);
}

static int subscribers_none(void *a)
{
  (void)a;
  return xq__hub_subscribers(ts.srv) == 0;
}

/* An event stream and a watcher that never read (their sockets' buffers
 * small) are dropped once nothing of what waits for them has gone for
 * XQ_STALL_MS (here scaled down), though far below their byte budget:
 * what a deaf client holds is bounded in time too (docs/security.md). */
Test(net_http_own, streams_and_watchers_that_never_read_are_dropped_in_time)
{
  xq_ts_tuning quick = {.deadline_scale = 0.02}; /* XQ_STALL_MS: 600 ms */
  xq_fx_up_tuned(8, &quick);
  slow s = {0};
  uv_tcp_init(&ts.loop, &s.tcp);
  s.tcp.data = s.creq.data = &s;
  struct sockaddr_in sa;
  uv_ip4_addr("127.0.0.1", ts.http_port, &sa);
  uv_tcp_connect(&s.creq, &s.tcp, (const struct sockaddr *)&sa, slow_connected);
  int small = 4096;
  xq_tclient w;
  cr_assert_eq(xq_tc_connect(&w, &ts.loop, ts.port), 0);
  uv_recv_buffer_size((uv_handle_t *)&w.tcp, &small);
  xq_tc_send(&w, "{\"id\":1,\"op\":\"watch\"}");
  int two = 2;
  cr_assert(xq_tc_run_until(&ts.loop, subscribers_are, &two, 5000), "both subscribed");
  uv_recv_buffer_size((uv_handle_t *)&s.tcp, &small);
  xq_tc_reading(&w, 0); /* the watcher reads no more */
  /* 600 events of 1 KiB: more than the sockets hold, less than the budget */
  char data[1024];
  memset(data, 'x', sizeof data);
  memcpy(data, "{\"pad\":\"", 8);
  memcpy(data + sizeof data - 3, "\"}", 3);
  for (int i = 0; i < 600; i++) xq__hub_publish(ts.srv, "test", 1, 1, data);
  cr_assert_lt(600 * sizeof data, (size_t)XQ_OUT_VIEWER_MAX);
  cr_assert(xq_tc_run_until(&ts.loop, subscribers_none, NULL, 5000),
            "a deaf stream and a deaf watcher are dropped (%d left)", xq__hub_subscribers(ts.srv));
  uv_close((uv_handle_t *)&s.tcp, slow_closed);
  xq_tc_run_until(&ts.loop, slow_is_closed, &s, 5000);
  xq_tc_close(&w);
}

/* ------------------------------------------------------------------ */
/* PGN push                                                            */
/* ------------------------------------------------------------------ */

/* Red and Black names at `table` of round 1. */
static void names(int table, char *red, char *black, size_t cap)
{
  cJSON *pr = get_json("/api/rounds/1/pairings.json");
  const cJSON *b = cJSON_GetArrayItem(item(pr, "boards"), table - 1);
  snprintf(red, cap, "%s", str(item(b, "red"), "name"));
  snprintf(black, cap, "%s", str(item(b, "black"), "name"));
  cJSON_Delete(pr);
}

/* One PGN game; `tags` are extra tag lines. */
static int pgn(char *out, size_t cap, const char *tags, const char *moves, const char *result)
{
  return snprintf(out, cap, "[Game \"Chinese Chess\"]\n[Event \"test\"]\n%s[Result \"%s\"]\n\n%s %s\n\n", tags,
                  result, moves, result);
}

static const cJSON *reply_game(const cJSON *reply, int i) { return cJSON_GetArrayItem(item(reply, "games"), i); }

Test(net_http, push_matches_tables_appends_and_repeats_as_no_op)
{
  char red[256], black[256], tags[700], body[4096];
  names(3, red, black, sizeof red);
  size_t o = (size_t)pgn(body, sizeof body, "[Round \"1.1\"]\n[Red \"someone\"]\n", "1. h2e2 h9g7 2. h0g2 i9h9", "*");
  snprintf(tags, sizeof tags, "[Round \"1\"]\n[Red \"%s\"]\n[Black \"%s\"]\n", red, black);
  o += (size_t)pgn(body + o, sizeof body - o, tags, "1. 炮二平五 马8进7", "*");
  o += (size_t)pgn(body + o, sizeof body - o, "[Table \"4\"]\n", "1. C2.5 H8+7 2. H2+3", "*");

  xq_tclient sse;
  sse_open(&sse, "Last-Event-ID: 0\r\n");
  int status;
  cJSON *r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(status, 200, "%s", cJSON_PrintUnformatted(r));
  cr_assert_eq(cJSON_GetArraySize(item(r, "games")), 3);
  const cJSON *g0 = reply_game(r, 0), *g1 = reply_game(r, 1), *g2 = reply_game(r, 2);
  cr_assert_eq(num(g0, "table"), 1);
  cr_assert_eq(num(g0, "moves"), 4);
  cr_assert_eq(num(g0, "applied"), 4);
  cr_assert_str_eq(str(item(g0, "tags"), "Round"), "1.1");
  cr_assert_null(item(g0, "error"));
  cr_assert_eq(num(g1, "table"), 3, "matched by the players' names");
  cr_assert_eq(num(g1, "moves"), 2);
  cr_assert_eq(num(g2, "table"), 4);
  cr_assert_eq(num(g2, "moves"), 3);
  cJSON_Delete(r);

  char mv[512];
  cJSON *g = game(1);
  moves_text(g, mv, sizeof mv);
  cr_assert_str_eq(mv, "h2e2 h9g7 h0g2 i9h9");
  cJSON_Delete(g);
  g = game(3);
  moves_text(g, mv, sizeof mv);
  cr_assert_str_eq(mv, "h2e2 h9g7");
  cJSON_Delete(g);
  g = game(4);
  moves_text(g, mv, sizeof mv);
  cr_assert_str_eq(mv, "h2e2 h9g7 h0g2");
  cJSON_Delete(g);
  /* viewers saw the moves once they were durable */
  cr_assert(wait_for(&sse, "\"move\":\"i9h9\"", 0));
  cr_assert(strstr(sse.in, "\"source\":\"pgn\""));

  /* the same document again changes nothing */
  cJSON *before = get_json("/api/rounds/1/games.json");
  size_t seen = sse.len;
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(status, 200);
  for (int i = 0; i < 3; i++) cr_assert_eq(num(reply_game(r, i), "applied"), 0, "game %d", i);
  cJSON_Delete(r);
  cJSON *after = get_json("/api/rounds/1/games.json");
  cr_assert(cJSON_Compare(before, after, 1), "games unchanged");
  cJSON_Delete(before);
  cJSON_Delete(after);
  xq_tc_spin(&ts.loop, 20);
  cr_assert_null(strstr(sse.in + seen, "event: move"), "nothing broadcast");
  xq_tc_close(&sse);
}

Test(net_http, push_reports_games_it_cannot_place)
{
  char red[256], black[256], tags[700], body[8192];
  names(2, red, black, sizeof red);
  size_t o = (size_t)pgn(body, sizeof body, "[Round \"2.1\"]\n", "1. h2e2", "*");
  snprintf(tags, sizeof tags, "[Red \"%s\"]\n[Black \"%s\"]\n", black, red); /* the other way round */
  o += (size_t)pgn(body + o, sizeof body - o, tags, "1. h2e2", "*");
  o += (size_t)pgn(body + o, sizeof body - o, "[Red \"nobody\"]\n[Black \"at all\"]\n", "1. h2e2", "*");
  o += (size_t)pgn(body + o, sizeof body - o, "[Board \"2\"]\n", "1. h2e2", "*");
  o += (size_t)pgn(body + o, sizeof body - o, "[Round \"1.2\"]\n", "1. h2e2 h9g7", "*");
  o += (size_t)pgn(body + o, sizeof body - o, "[Table \"9\"]\n", "1. h2e2", "*");
  int status;
  cJSON *r = post("/api/rounds/1/push", ts.arbiter, body, &status);
  cr_assert_eq(status, 200);
  cr_assert_eq(cJSON_GetArraySize(item(r, "games")), 6);
  cr_assert(strstr(str(reply_game(r, 0), "error"), "round 2"));
  cr_assert(strstr(str(reply_game(r, 1), "error"), "other way round"));
  cr_assert(strstr(str(reply_game(r, 2), "error"), "no board"));
  cr_assert_null(item(reply_game(r, 3), "error"));
  cr_assert(strstr(str(reply_game(r, 4), "error"), "earlier in this push"));
  cr_assert(strstr(str(reply_game(r, 5), "error"), "no game at table 9"));
  cJSON_Delete(r);
  cJSON *g = game(2);
  cr_assert_eq(num(g, "ply"), 1, "only the first game for table 2 was taken");
  cJSON_Delete(g);

  /* a body that is no PGN at all, and too many games */
  r = post("/api/rounds/1/push", ts.admin, "\n \n", &status);
  cr_assert_eq(status, 400);
  cr_assert_str_eq(error_code(r), "BAD_REQUEST");
  cJSON_Delete(r);
  r = post("/api/rounds/1/push", ts.admin, "hello there", &status);
  cr_assert_eq(status, 200);
  cr_assert_not_null(str(reply_game(r, 0), "error"), "text that is no game is reported, not taken");
  cJSON_Delete(r);
  size_t cap = (XQ_PGN_PUSH_GAMES_MAX + 1) * 128;
  char *many = malloc(cap);
  o = 0;
  for (int i = 0; i <= XQ_PGN_PUSH_GAMES_MAX; i++) o += (size_t)pgn(many + o, cap - o, "[Table \"1\"]\n", "1. h2e2", "*");
  r = post("/api/rounds/1/push", ts.admin, many, &status);
  cr_assert_eq(status, 413);
  cr_assert_str_eq(error_code(r), "LIMIT");
  cJSON_Delete(r);
  free(many);
  g = game(1);
  cr_assert_eq(num(g, "ply"), 0, "a refused push changes nothing");
  cJSON_Delete(g);
}

Test(net_http, push_records_an_illegal_move_once)
{
  char body[1024];
  pgn(body, sizeof body, "[Round \"1.2\"]\n", "1. h2e2 h9g7 2. a0a9", "*");
  int status;
  cJSON *r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(status, 200);
  const cJSON *g0 = reply_game(r, 0);
  cr_assert_eq(num(g0, "table"), 2);
  cr_assert_eq(num(g0, "ply"), 3, "%s", cJSON_PrintUnformatted(r));
  cr_assert(strstr(str(g0, "error"), "ply 3") && strstr(str(g0, "error"), "recorded"), "%s", str(g0, "error"));
  cr_assert_eq(num(g0, "applied"), 3, "two moves and the illegal one");
  cJSON_Delete(r);
  cJSON *g = game(2);
  cr_assert_eq(num(g, "ply"), 2);
  const cJSON *fouls = item(g, "fouls");
  /* CXA: the breach is a foul, or a loss when the rules say so */
  cr_assert(cJSON_GetArrayItem(fouls, 0)->valueint == 1 || !strcmp(str(g, "result"), "0-1"), "%s",
            cJSON_PrintUnformatted(g));
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(num(reply_game(r, 0), "applied"), 0);
  cr_assert(strstr(str(reply_game(r, 0), "error"), "already recorded"));
  cJSON_Delete(r);
  cJSON *again = game(2);
  cr_assert(cJSON_Compare(g, again, 1), "the same push records nothing twice");
  cJSON_Delete(g);
  cJSON_Delete(again);

  /* the bad move found among comments, variations and move numbers, in
   * Chinese: the adjudicator gets its text */
  pgn(body, sizeof body, "[Round \"1.3\"]\n",
      "1.炮二平五 {a comment (not a variation) 3. h0h9} 马8进7 (1... 马2进3 2. 车九进三) 2.车九进三", "*");
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  g0 = reply_game(r, 0);
  cr_assert_eq(num(g0, "ply"), 3, "%s", cJSON_PrintUnformatted(r));
  cr_assert_eq(num(g0, "applied"), 3);
  /* the verdict quotes the move the adjudicator was given */
  cr_assert(strstr(str(g0, "error"), "recorded: ") && strstr(strstr(str(g0, "error"), "recorded: "), "车九进三"), "%s",
            str(g0, "error"));
  cJSON_Delete(r);
  g = game(3);
  cr_assert_eq(num(g, "ply"), 2);
  cr_assert(cJSON_GetArrayItem(item(g, "fouls"), 0)->valueint == 1 || !strcmp(str(g, "result"), "0-1"));
  cJSON_Delete(g);
}

Test(net_http, a_correction_replaces_the_line_from_the_first_difference)
{
  char body[1024];
  int status;
  pgn(body, sizeof body, "[Round \"1.4\"]\n", "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0", "*");
  cJSON *r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(num(reply_game(r, 0), "moves"), 5);
  cJSON_Delete(r);
  /* the source corrects ply 3 and goes on */
  pgn(body, sizeof body, "[Round \"1.4\"]\n", "1. h2e2 h9g7 2. b0c2 i9h9 3. a0b0 b9c7", "*");
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(status, 200);
  cr_assert_eq(num(reply_game(r, 0), "replaced_from"), 3, "%s", cJSON_PrintUnformatted(r));
  cr_assert_eq(num(reply_game(r, 0), "moves"), 6);
  cJSON_Delete(r);
  char mv[256];
  cJSON *g = game(4);
  moves_text(g, mv, sizeof mv);
  cr_assert_str_eq(mv, "h2e2 h9g7 b0c2 i9h9 a0b0 b9c7");
  cJSON_Delete(g);
  /* an older copy of the source (a prefix) changes nothing */
  pgn(body, sizeof body, "[Round \"1.4\"]\n", "1. h2e2 h9g7", "*");
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(num(reply_game(r, 0), "applied"), 0);
  cr_assert_eq(num(reply_game(r, 0), "behind"), 4);
  cJSON_Delete(r);
  /* a result tag ends the game and goes into the standings */
  pgn(body, sizeof body, "[Round \"1.4\"]\n", "1. h2e2 h9g7 2. b0c2 i9h9 3. a0b0 b9c7", "1-0");
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(num(reply_game(r, 0), "applied"), 1);
  cJSON_Delete(r);
  g = game(4);
  cr_assert_str_eq(str(g, "result"), "1-0");
  cJSON_Delete(g);
  cJSON *pr = get_json("/api/rounds/1/pairings.json");
  cr_assert_str_eq(str(cJSON_GetArrayItem(item(pr, "boards"), 3), "result"), "1-0");
  cJSON_Delete(pr);
}

Test(net_http, push_needs_an_admin_or_arbiter_token)
{
  char body[512];
  pgn(body, sizeof body, "[Round \"1.1\"]\n", "1. h2e2", "*");
  int status;
  cJSON *r = post("/api/rounds/1/push", NULL, body, &status);
  cr_assert_eq(status, 401);
  cr_assert_str_eq(error_code(r), "AUTH_REQUIRED");
  cJSON_Delete(r);
  r = post("/api/rounds/1/push", "0123456789abcdef0123456789abcdef", body, &status);
  cr_assert_eq(status, 401);
  cr_assert_str_eq(error_code(r), "BAD_TOKEN");
  cJSON_Delete(r);
  r = post("/api/rounds/1/push", ts.board[0], body, &status);
  cr_assert_eq(status, 403);
  cr_assert_str_eq(error_code(r), "FORBIDDEN");
  cJSON_Delete(r);
  cJSON *g = game(1);
  cr_assert_eq(num(g, "ply"), 0, "nothing applied without the right token");
  cJSON_Delete(g);
  r = post("/api/rounds/1/push", ts.arbiter, body, &status);
  cr_assert_eq(status, 200);
  cJSON_Delete(r);
  g = game(1);
  cr_assert_eq(num(g, "ply"), 1);
  cJSON_Delete(g);
}

Test(net_http, a_body_is_invited_by_100_continue_once_its_head_passed)
{
  char game_text[512], head[512];
  int n = pgn(game_text, sizeof game_text, "[Round \"1.2\"]\n", "1. h2e2", "*");
  snprintf(head, sizeof head, "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n"
           "Expect: 100-continue\r\nContent-Length: %d\r\n\r\n", ts.arbiter, n);
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&c, head, strlen(head));
  static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
  cr_assert(wait_for(&c, cont, 0), "100 Continue before the body: %s", c.in);
  c.line_start = sizeof cont - 1;
  xq_tc_send_raw(&c, game_text, (size_t)n);
  resp r;
  cr_assert_eq(next_response(&c, &r, 0), 0);
  cr_assert_eq(r.status, 200, "%s", r.body);
  cr_assert(strstr(r.body, "\"applied\":1"), "%s", r.body);
  resp_free(&r);
  xq_tc_close(&c);
  /* refused on its head: the final answer instead, and no body is awaited */
  snprintf(head, sizeof head, "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\n"
           "Expect: 100-continue\r\nContent-Length: %d\r\n\r\n", n);
  refused_on_its_head(&c, head, 401, "AUTH_REQUIRED");
  cr_assert_null(strstr(c.in, " 100 "), "no 100 Continue for a refused request");
  xq_tc_close(&c);
}

/* ------------------------------------------------------------------ */
/* Polling                                                             */
/* ------------------------------------------------------------------ */

/* A tiny HTTP server on the test's loop: answers every request with
 * `status` and `body` (chunked when `chunked`), then closes. */
typedef struct tiny {
  uv_tcp_t listener;
  int port;
  int status;
  int chunked;
  char body[2048];
  int requests;
  char last[1024];
  int open;                    /* handles not yet closed */
} tiny;

typedef struct tiny_conn {
  uv_tcp_t tcp;
  tiny *t;
  char in[2048];
  size_t len;
  uv_write_t w;
  char out[4096];
  int answered;
} tiny_conn;

static void tiny_closed(uv_handle_t *h)
{
  tiny_conn *c = h->data;
  c->t->open--;
  free(c);
}

static void tiny_written(uv_write_t *w, int status)
{
  (void)status;
  tiny_conn *c = w->data;
  uv_close((uv_handle_t *)&c->tcp, tiny_closed);
}

static void tiny_alloc(uv_handle_t *h, size_t s, uv_buf_t *b)
{
  (void)s;
  tiny_conn *c = h->data;
  b->base = c->in + c->len;
  b->len = sizeof c->in - 1 - c->len;
}

static void tiny_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
  (void)b;
  tiny_conn *c = st->data;
  if (n < 0) {
    if (!c->answered) uv_close((uv_handle_t *)&c->tcp, tiny_closed);
    else uv_read_stop(st);
    return;
  }
  c->len += (size_t)n;
  c->in[c->len] = 0;
  if (c->answered || !strstr(c->in, "\r\n\r\n")) return;
  c->answered = 1;
  tiny *t = c->t;
  t->requests++;
  snprintf(t->last, sizeof t->last, "%.1000s", c->in);
  size_t bl = strlen(t->body);
  int k;
  if (t->status == 200 && t->chunked)
    k = snprintf(c->out, sizeof c->out, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                 "%zx\r\n%s\r\n0\r\n\r\n", bl, t->body);
  else
    k = snprintf(c->out, sizeof c->out, "HTTP/1.1 %d X\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                 t->status, bl, t->body);
  uv_buf_t ub = uv_buf_init(c->out, (unsigned)k);
  c->w.data = c;
  uv_read_stop(st);
  uv_write(&c->w, st, &ub, 1, tiny_written);
}

static void tiny_accept(uv_stream_t *l, int status)
{
  cr_assert_eq(status, 0);
  tiny *t = l->data;
  tiny_conn *c = calloc(1, sizeof *c);
  c->t = t;
  uv_tcp_init(l->loop, &c->tcp);
  c->tcp.data = c;
  t->open++;
  cr_assert_eq(uv_accept(l, (uv_stream_t *)&c->tcp), 0);
  uv_read_start((uv_stream_t *)&c->tcp, tiny_alloc, tiny_read);
}

static void tiny_start(tiny *t)
{
  uv_tcp_init(&ts.loop, &t->listener);
  t->listener.data = t;
  t->open = 1;
  struct sockaddr_in sa;
  uv_ip4_addr("127.0.0.1", 0, &sa);
  cr_assert_eq(uv_tcp_bind(&t->listener, (const struct sockaddr *)&sa, 0), 0);
  cr_assert_eq(uv_listen((uv_stream_t *)&t->listener, 16, tiny_accept), 0);
  struct sockaddr_storage ss;
  int len = sizeof ss;
  uv_tcp_getsockname(&t->listener, (struct sockaddr *)&ss, &len);
  t->port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void tiny_listener_closed(uv_handle_t *h) { ((tiny *)h->data)->open--; }
static int tiny_done(void *a) { return ((tiny *)a)->open == 0; }

static void tiny_stop(tiny *t)
{
  uv_close((uv_handle_t *)&t->listener, tiny_listener_closed);
  cr_assert(xq_tc_run_until(&ts.loop, tiny_done, t, 5000));
}

typedef struct poll_wait {
  int fetches, successes, failures;
} poll_wait;

static int poll_reached(void *a)
{
  poll_wait *w = a;
  xq__poller_info in;
  if (xq__poller_state(ts.srv, 1, &in) != XQ_OK) return 0;
  return in.fetches >= w->fetches && in.successes == w->successes && in.failures == w->failures &&
         (in.successes + in.failures > 0);
}

static xq__poller_info poll_state(void)
{
  xq__poller_info in;
  cr_assert_eq(xq__poller_state(ts.srv, 1, &in), XQ_OK);
  return in;
}

Test(net_http, polling_a_url_with_backoff)
{
  tiny t = {0};
  t.status = 200;
  t.chunked = 1;
  pgn(t.body, sizeof t.body, "[Round \"1.1\"]\n", "1. h2e2 h9g7", "*");
  tiny_start(&t);
  xq_tclient a;
  hello(&a, ts.admin);
  char line[512];
  snprintf(line, sizeof line,
           "{\"id\":1,\"op\":\"ingest_url\",\"round\":1,\"url\":\"http://127.0.0.1:%d/r1.pgn\",\"period\":1}", t.port);
  cJSON *r = xq_tc_call(&a, line);
  cr_assert(cJSON_IsTrue(item(r, "ok")), "%s", cJSON_PrintUnformatted(r));
  cr_assert_eq(num(r, "period"), XQ_POLL_MIN_MS / 1000.0, "the period is clamped");
  cJSON_Delete(r);

  /* the first fetch goes at once */
  poll_wait w = {1, 1, 0};
  cr_assert(xq_tc_run_until(&ts.loop, poll_reached, &w, 10000), "fetched and ingested");
  xq__poller_info in = poll_state();
  cr_assert_eq(in.next_ms, XQ_POLL_MIN_MS);
  cr_assert_eq(in.last_status, 200);
  cr_assert_eq(t.requests, 1);
  char host[64];
  snprintf(host, sizeof host, "GET /r1.pgn HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n", t.port);
  cr_assert(!strncmp(t.last, host, strlen(host)), "%s", t.last);
  char mv[256];
  cJSON *g = game(1);
  moves_text(g, mv, sizeof mv);
  cr_assert_str_eq(mv, "h2e2 h9g7");
  cJSON_Delete(g);

  /* failures back off: twice the period, then four times */
  t.status = 404;
  r = xq_tc_call(&a, "{\"id\":2,\"op\":\"ingest_now\",\"round\":1}");
  cJSON_Delete(r);
  w = (poll_wait){2, 1, 1};
  cr_assert(xq_tc_run_until(&ts.loop, poll_reached, &w, 10000));
  in = poll_state();
  cr_assert_eq(in.last_status, 404);
  cr_assert_eq(in.next_ms, 2 * XQ_POLL_MIN_MS);
  r = xq_tc_call(&a, "{\"id\":3,\"op\":\"ingest_now\",\"round\":1}");
  cJSON_Delete(r);
  w = (poll_wait){3, 1, 2};
  cr_assert(xq_tc_run_until(&ts.loop, poll_reached, &w, 10000));
  cr_assert_eq(poll_state().next_ms, 4 * XQ_POLL_MIN_MS);

  /* a success brings the period back and the new move in */
  t.status = 200;
  t.chunked = 0;
  pgn(t.body, sizeof t.body, "[Round \"1.1\"]\n", "1. h2e2 h9g7 2. h0g2", "*");
  r = xq_tc_call(&a, "{\"id\":4,\"op\":\"ingest_now\",\"round\":1}");
  cJSON_Delete(r);
  w = (poll_wait){4, 2, 0};
  cr_assert(xq_tc_run_until(&ts.loop, poll_reached, &w, 10000));
  cr_assert_eq(poll_state().next_ms, XQ_POLL_MIN_MS);
  g = game(1);
  cr_assert_eq(num(g, "ply"), 3);
  cJSON_Delete(g);

  r = xq_tc_call(&a, "{\"id\":5,\"op\":\"ingest_status\"}");
  cr_assert_eq(cJSON_GetArraySize(item(r, "polls")), 1);
  cJSON_Delete(r);
  r = xq_tc_call(&a, "{\"id\":6,\"op\":\"ingest_stop\",\"round\":1}");
  cr_assert(cJSON_IsTrue(item(r, "ok")));
  cr_assert_eq(num(r, "fetches"), 4);
  cJSON_Delete(r);
  xq__poller_info none;
  cr_assert_eq(xq__poller_state(ts.srv, 1, &none), XQ_EINVAL);

  /* bad requests */
  r = xq_tc_call(&a, "{\"id\":7,\"op\":\"ingest_url\",\"round\":1,\"url\":\"https://example.org/x.pgn\"}");
  cr_assert_str_eq(xq_tc_error(r), "BAD_REQUEST");
  cr_assert(strstr(str(item(r, "error"), "msg"), "TLS"));
  cJSON_Delete(r);
  r = xq_tc_call(&a, "{\"id\":8,\"op\":\"ingest_url\",\"round\":5,\"url\":\"http://127.0.0.1:1/x\"}");
  cr_assert_str_eq(xq_tc_error(r), "NOT_FOUND");
  cJSON_Delete(r);
  r = xq_tc_call(&a, "{\"id\":9,\"op\":\"ingest_stop\",\"round\":1}");
  cr_assert_str_eq(xq_tc_error(r), "NOT_FOUND");
  cJSON_Delete(r);
  xq_tc_close(&a);
  xq_tclient arb;
  hello(&arb, ts.arbiter);
  r = xq_tc_call(&arb, "{\"id\":1,\"op\":\"ingest_url\",\"round\":1,\"url\":\"http://127.0.0.1:1/x\"}");
  cr_assert_str_eq(xq_tc_error(r), "FORBIDDEN");
  cJSON_Delete(r);
  xq_tc_close(&arb);
  tiny_stop(&t);
}

Test(net_http, a_poller_left_running_is_closed_at_shutdown)
{
  tiny t = {0};
  t.status = 404;
  tiny_start(&t);
  xq_tclient a;
  hello(&a, ts.admin);
  char line[256];
  snprintf(line, sizeof line, "{\"id\":1,\"op\":\"ingest_url\",\"round\":1,\"url\":\"http://127.0.0.1:%d/\",\"period\":3}",
           t.port);
  cJSON *r = xq_tc_call(&a, line);
  cr_assert(cJSON_IsTrue(item(r, "ok")));
  cJSON_Delete(r);
  poll_wait w = {1, 0, 1};
  cr_assert(xq_tc_run_until(&ts.loop, poll_reached, &w, 10000));
  cr_assert_eq(poll_state().next_ms, 6000);
  xq_tc_close(&a);
  tiny_stop(&t);
  /* teardown stops the server with the poller's timer pending: the loop
   * must still close with no handle left */
}

Test(net_http, sse_round_filter_and_a_stream_open_at_shutdown)
{
  xq_tclient s;
  sse_open(&s, "");
  cr_assert(wait_for(&s, "event: snapshot\n", 0));
  xq_tclient two;
  cr_assert_eq(xq_tc_connect(&two, &ts.loop, ts.http_port), 0);
  const char *req = "GET /api/events?round=2&last_event=0 HTTP/1.1\r\nHost: t\r\n\r\n";
  xq_tc_send_raw(&two, req, strlen(req));
  cr_assert(wait_for(&two, "retry: 3000\n\n", 0));
  xq__hub_publish(ts.srv, "pairing", 2, 0, "{\"round\":2}");
  xq__hub_publish(ts.srv, "verdict", 1, 3, "{\"kind\":\"foul\"}");
  xq__hub_publish(ts.srv, "standings", 0, 0, "{}");
  cr_assert(wait_for(&s, "event: standings\n", 0));
  cr_assert(strstr(s.in, "event: pairing\n") && strstr(s.in, "event: verdict\n"));
  cr_assert(wait_for(&two, "event: standings\n", 0), "events of no round go to every stream");
  cr_assert(strstr(two.in, "event: pairing\ndata: {\"round\":2,\"at\":"), "the data, then when it was broadcast");
  cr_assert_null(strstr(two.in, "event: verdict"), "round 1 is filtered out");
  /* a shutdown with the streams open ends them at once (no grace wait);
   * teardown then proves nothing was left open */
  xq_server_stop(ts.srv);
  cr_assert(xq_tc_wait_eof(&s, 5000));
  cr_assert(xq_tc_wait_eof(&two, 5000));
  xq_tc_close(&s);
  xq_tc_close(&two);
}

Test(net_http, a_request_pipelined_behind_a_push_waits_for_it)
{
  char game_text[512], req[2048];
  int n = pgn(game_text, sizeof game_text, "[Round \"1.1\"]\n", "1. h2e2 h9g7", "*");
  snprintf(req, sizeof req,
           "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s"
           "GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\n\r\n"
           "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s"
           "GET /api/rounds/1/1.pgn?notation=iccs HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
           ts.admin, n, game_text, ts.admin, n, game_text);
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&c, req, strlen(req));
  resp a, b, d, e;
  cr_assert_eq(next_response(&c, &a, 0), 0);
  cr_assert_eq(next_response(&c, &b, 0), 0);
  cr_assert_eq(next_response(&c, &d, 0), 0);
  cr_assert_eq(next_response(&c, &e, 0), 0);
  cr_assert(strstr(a.body, "\"applied\":2"), "%s", a.body);
  cr_assert(strstr(b.body, "\"moves\":[\"h2e2\",\"h9g7\"]"), "answered after the push: %s", b.body);
  cr_assert(strstr(d.body, "\"applied\":0"), "%s", d.body);
  cr_assert(strstr(e.body, "H2-E2") && strstr(e.body, "H9-G7"), "%s", e.body);
  cr_assert(xq_tc_wait_eof(&c, 5000), "Connection: close honoured after the pipeline");
  resp_free(&a), resp_free(&b), resp_free(&d), resp_free(&e);
  xq_tc_close(&c);
}

Test(net_http, push_takes_clock_comments_and_only_moves_from_the_movetext)
{
  char body[1024];
  int status;
  xq_tclient sse;
  sse_open(&sse, "Last-Event-ID: 0\r\n");
  pgn(body, sizeof body, "[Round \"1.3\"]\n",
      "1. h2e2 {[%clk 0:14:50]} h9g7 { [%clk 0:14:41.5] } 2. h0g2 {[%clk 0:14:30]}", "*");
  cJSON *r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(status, 200);
  cr_assert_eq(num(reply_game(r, 0), "moves"), 3, "%s", cJSON_PrintUnformatted(r));
  cJSON_Delete(r);
  cJSON *g = game(3);
  const cJSON *clock = item(g, "clock");
  cr_assert_eq(cJSON_GetArraySize(clock), 2, "%s", cJSON_PrintUnformatted(g));
  cr_assert_eq(cJSON_GetArrayItem(clock, 0)->valuedouble, 870000);
  cr_assert_eq(cJSON_GetArrayItem(clock, 1)->valuedouble, 881500);
  cJSON_Delete(g);
  cr_assert(wait_for(&sse, "\"move\":\"h0g2\"", 0));
  cr_assert(strstr(sse.in, "\"clock\":[870000,881500]"), "the move event carries the clocks");
  xq_tc_close(&sse);

  /* a reading past a clock's range (2^31-1 ms), or with more digits than
   * any clock shows, is no reading: the moves are taken, the clocks kept */
  pgn(body, sizeof body, "[Round \"1.2\"]\n",
      "1. h2e2 {[%clk 99999999999999999999:00:00]} h9g7 {[%clk 999:00:00]}", "*");
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(status, 200);
  cr_assert_eq(num(reply_game(r, 0), "moves"), 2, "%s", cJSON_PrintUnformatted(r));
  cJSON_Delete(r);
  g = game(2);
  clock = item(g, "clock");
  for (int i = 0; i < cJSON_GetArraySize(clock); i++)
    cr_assert_lt(cJSON_GetArrayItem(clock, i)->valuedouble, 1e9, "%s", cJSON_PrintUnformatted(g));
  cJSON_Delete(g);

  /* a word of the adjudicator's event language in the movetext is not a
   * move: it is reported and never applied */
  pgn(body, sizeof body, "[Round \"1.4\"]\n", "1. h2e2 result:0-1", "*");
  r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(num(reply_game(r, 0), "ply"), 2);
  cr_assert(strstr(str(reply_game(r, 0), "error"), "not recorded"), "%s", str(reply_game(r, 0), "error"));
  cJSON_Delete(r);
  g = game(4);
  cr_assert_str_eq(str(g, "result"), "*");
  cr_assert_eq(num(g, "ply"), 1);
  cJSON_Delete(g);
}

/* The [%clk] comments of the first game of PGN `text`, as xqref's reader
 * reads them: "ply=text;" for each, in out. */
static void clk_comments(const char *text, char *out, size_t cap)
{
  FILE *f = fmemopen((void *)text, strlen(text), "r");
  xq_pgn_reader *rd = NULL;
  xq_record *rec = malloc(sizeof *rec);
  cr_assert(f && rec && xq_pgn_open(&rd, f, 0) == XQ_OK);
  xq_record_init(rec);
  cr_assert_eq(xq_pgn_next(rd, rec, NULL), 1, "%s", text);
  size_t o = 0;
  out[0] = 0;
  for (int i = 0; i < rec->n_comments && o < cap; i++) {
    const xq_comment *c = &rec->comments[i];
    o += (size_t)snprintf(out + o, cap - o, "%d=%.*s;", c->after, (int)c->len, rec->text + c->off);
  }
  xq_record_free(rec);
  free(rec);
  xq_pgn_close(rd);
  fclose(f);
}

Test(net_http, a_boards_clock_readings_are_the_pgns_clk_after_every_move)
{
  xq_tclient b;
  hello(&b, ts.board[1]);
  static const char *const events[] = {
    "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"clock\":[5391000,5400000]}",
    "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\",\"clock\":[5391000,5387500]}",
    /* Red thinks: Black's last move keeps its time */
    "{\"id\":3,\"op\":\"clock\",\"seq\":3,\"clock\":[5380000,5387500]}",
    "{\"id\":4,\"op\":\"move\",\"seq\":4,\"move\":\"h0g2\"}",
    /* the reading after Red's move is its time */
    "{\"id\":5,\"op\":\"clock\",\"seq\":5,\"clock\":[5370250,5387500]}",
    "{\"id\":6,\"op\":\"move\",\"seq\":6,\"move\":\"i9h9\",\"clock\":[5370250,5381000]}",
  };
  resp p;
  for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
    cJSON *r = xq_tc_call(&b, events[i]);
    cr_assert(cJSON_IsTrue(item(r, "ok")), "%s: %s", events[i], cJSON_PrintUnformatted(r));
    cJSON_Delete(r);
    if (i != 3) continue;
    /* a move sent without a reading: the game's clock (the last reading,
     * the increment added) until one comes */
    get("/api/rounds/1/2.pgn?notation=iccs", &p);
    char t[64];
    long red = 5380000 + 1000L * ts.srv->rules.clock_increment_s;
    snprintf(t, sizeof t, "H0-G2 {[%%clk 1:%02ld:%02ld]}", red / 60000 % 60, red / 1000 % 60);
    cr_assert(strstr(p.body, t), "%s in\n%s", t, p.body);
    resp_free(&p);
  }
  xq_tc_close(&b);
  /* [%emt]: the move's time where readings tell its start and end */
  static const char *const want = "1=[%clk 1:29:51];2=[%clk 1:29:47.5] [%emt 0:00:12.5];"
                                  "3=[%clk 1:29:30.25] [%emt 0:00:20.75];4=[%clk 1:29:41] [%emt 0:00:06.5];";
  get("/api/rounds/1/2.pgn?notation=iccs", &p);
  cr_assert(strstr(p.body, "H2-E2 {[%clk 1:29:51]} 1... H9-G7 {[%clk 1:29:47.5] [%emt 0:00:12.5]}"), "%s", p.body);
  char got[512];
  clk_comments(p.body, got, sizeof got);
  cr_assert_str_eq(got, want, "read back by the PGN reader: %s", got);
  char *before = strdup(p.body);
  resp_free(&p);
  /* the round's PGN carries them too */
  get("/api/rounds/1.pgn?notation=iccs", &p);
  cr_assert(strstr(p.body, "{[%clk 1:29:30.25] [%emt 0:00:20.75]}"), "%s", p.body);
  resp_free(&p);

  /* pushed to another table, the clocks are read (each reading needs
   * both clocks: the first is known from the second move on, and so the
   * second move's time is not) */
  const char *movetext = strstr(before, "\n\n");
  cr_assert(movetext);
  char body[2048];
  pgn(body, sizeof body, "[Round \"1.3\"]\n[Format \"ICCS\"]\n", movetext + 2, "");
  int status;
  cJSON *r = post("/api/rounds/1/push", ts.admin, body, &status);
  cr_assert_eq(status, 200, "%s", cJSON_PrintUnformatted(r));
  cr_assert_eq(num(reply_game(r, 0), "applied"), 4, "%s", cJSON_PrintUnformatted(r));
  cJSON_Delete(r);
  get("/api/rounds/1/3.pgn?notation=iccs", &p);
  clk_comments(p.body, got, sizeof got);
  cr_assert_str_eq(got, "2=[%clk 1:29:47.5];3=[%clk 1:29:30.25] [%emt 0:00:20.75];4=[%clk 1:29:41] [%emt 0:00:06.5];",
                   "%s", p.body);
  resp_free(&p);

  /* a restart rebuilds them from the stored events */
  cr_assert_eq(xq_ts_stop(&ts), 0);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  get("/api/rounds/1/2.pgn?notation=iccs", &p);
  cr_assert_str_eq(p.body, before, "the same PGN after a restart");
  resp_free(&p);
  free(before);
}

/* /api/event states the knockout of the event's regulation (the preset
 * whose title the event bears) as the event op does: the page marks the
 * places that go through from it; none for an event without one. */
Test(net_http, the_event_states_its_regulations_knockout)
{
  cJSON *ev = get_json("/api/event");
  cr_assert_null(item(ev, "knockout"), "a plain event states no knockout");
  cJSON_Delete(ev);
  const xq_regulation *reg;
  cr_assert_eq(xq_regulation_find("tangshan2018", &reg), XQ_OK);
  char body[512];
  snprintf(body, sizeof body, "{\"id\":1,\"op\":\"settings\",\"set\":{\"name\":\"%s\"}}\n", reg->title);
  char *out = op_lines(body);
  cr_assert(strstr(out, "\"ok\":true"), "%s", out);
  free(out);
  ev = get_json("/api/event");
  const cJSON *k = item(ev, "knockout");
  cr_assert_not_null(k, "the regulation's knockout");
  cr_assert_eq(num(k, "after"), reg->ko_after_round);
  cr_assert_eq(num(k, "size"), reg->ko_size);
  cr_assert_eq(num(k, "after"), 9, "Tangshan 八.3: after round 9");
  cr_assert_eq(num(k, "size"), 4);
  cr_assert_str_eq(str(k, "seeding"), "choose");
  cr_assert_null(item(ev, "knockout_round"), "not started");
  cJSON_Delete(ev);
}
