/*
 * test_net_web.c -- the live page's side of the server (docs/web.md): the
 * files of web/ embedded in the binary and served at / and /web/<file>
 * with their content types and ETags, and POST /api/op, which runs
 * JSON-lines operations for the token of the Authorization header with
 * the same role checks and replies as a TCP session (replies that wait
 * for a group commit or a worker job included). A real server on
 * 127.0.0.1 with a temporary store; every test ends with
 * uv_loop_close() == 0.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "http.h"
#include "net_fixture.h"
#include "records.h"

XQ_NET_SUITE(net_web, 8);

/* ------------------------------------------------------------------ */
/* HTTP over the scripted client                                       */
/* ------------------------------------------------------------------ */

typedef xq_tresp resp;

/* The next response on `c`; fails the test after 10 s. */
static void next_response(xq_tclient *c, resp *r)
{
  cr_assert_eq(xq_tc_response(c, r, 0, 10000), 0, "a response");
}

/* Send `req` raw on a new connection and read one response. */
static void http(const char *req, resp *r)
{
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, r), 0, "a response to %.40s", req);
}

/* The text of a POST /api/op request with `body` (token NULL: none). */
static char *op_request(const char *token, const char *body)
{
  size_t n = strlen(body) + 512;
  char *req = malloc(n);
  char auth[128] = "";
  if (token) snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", token);
  snprintf(req, n, "POST /api/op HTTP/1.1\r\nHost: t\r\n%sContent-Type: application/json\r\n"
           "Content-Length: %zu\r\n\r\n%s", auth, strlen(body), body);
  return req;
}

/* POST /api/op; the response (caller frees r->body). */
static void op(const char *token, const char *body, resp *r)
{
  char *req = op_request(token, body);
  http(req, r);
  free(req);
}

/* POST /api/op with one request: its reply as JSON (caller deletes). */
static cJSON *op1(const char *token, const char *body, int *status)
{
  resp r;
  op(token, body, &r);
  *status = r.status;
  cJSON *j = cJSON_Parse(r.body);
  cr_assert_not_null(j, "JSON reply: %s", r.body);
  free(r.body);
  return j;
}

static const cJSON *item(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

static const char *str(const cJSON *o, const char *k)
{
  const cJSON *v = item(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *error_code(const cJSON *o) { return str(item(o, "error"), "code"); }

/* A whole file, malloc'd, with its length. */
static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  buf[n] = 0;
  *len = (size_t)n;
  return buf;
}

/* The value of header `name` in a response head, copied into out. */
static int header(const char *head, const char *name, char *out, size_t cap)
{
  char key[64];
  snprintf(key, sizeof key, "\r\n%s: ", name);
  const char *p = strstr(head, key);
  if (!p) return 0;
  p += strlen(key);
  size_t n = strcspn(p, "\r\n");
  snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
  return 1;
}

/* ------------------------------------------------------------------ */
/* The embedded page                                                   */
/* ------------------------------------------------------------------ */

/* GET `path`: 200 with `type` and exactly the bytes of web/<file>. */
static void serves_file(const char *path, const char *file, const char *type)
{
  char req[256], disk[512], got[128];
  snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", path);
  resp r;
  http(req, &r);
  cr_assert_eq(r.status, 200, "GET %s: %d", path, r.status);
  cr_assert(header(r.head, "Content-Type", got, sizeof got));
  cr_assert_str_eq(got, type, "Content-Type of %s", path);
  snprintf(disk, sizeof disk, "%s/../../web/%s", XQ_TEST_DATA, file);
  size_t n;
  char *want = slurp(disk, &n);
  cr_assert_eq(r.len, n, "%s: %zu bytes, web/%s has %zu", path, r.len, file, n);
  cr_assert(!memcmp(r.body, want, n), "%s: the bytes of web/%s", path, file);
  free(want);
  free(r.body);
}

Test(net_web, the_page_and_its_files_are_the_embedded_bytes)
{
  serves_file("/", "index.html", "text/html; charset=utf-8");
  serves_file("/index.html", "index.html", "text/html; charset=utf-8");
  serves_file("/web/app.js", "app.js", "text/javascript; charset=utf-8");
  serves_file("/web/style.css", "style.css", "text/css; charset=utf-8");
  /* every embedded file is served, by the table's own entries */
  int files = 0;
  for (const xq__web_asset *a = xq__web_assets; a->path; a++, files++) {
    char path[128];
    snprintf(path, sizeof path, "/web/%s", a->path);
    serves_file(path, a->path, a->type);
  }
  cr_assert_geq(files, 3);

  resp r;
  http("GET /web/nothing.js HTTP/1.1\r\nHost: t\r\n\r\n", &r);
  cr_assert_eq(r.status, 404);
  free(r.body);
  http("GET /web/../net/http.c HTTP/1.1\r\nHost: t\r\n\r\n", &r);
  cr_assert_eq(r.status, 404);
  free(r.body);
  http("POST /web/app.js HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n", &r);
  cr_assert_eq(r.status, 405);
  free(r.body);
}

Test(net_web, an_etag_makes_a_304_without_a_body)
{
  resp r;
  http("GET /web/app.js HTTP/1.1\r\nHost: t\r\n\r\n", &r);
  char etag[64], cc[64];
  cr_assert(header(r.head, "ETag", etag, sizeof etag), "%s", r.head);
  cr_assert(header(r.head, "Cache-Control", cc, sizeof cc));
  cr_assert_str_eq(cc, "no-cache");
  size_t full = r.len;
  free(r.body);

  /* two requests on one connection: the 304 has no body, so the next
   * answer follows it directly */
  char req[512];
  snprintf(req, sizeof req,
           "GET /web/app.js HTTP/1.1\r\nHost: t\r\nIf-None-Match: %s\r\n\r\n"
           "GET /web/app.js HTTP/1.1\r\nHost: t\r\nIf-None-Match: \"0000\"\r\n\r\n", etag);
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&c, req, strlen(req));
  next_response(&c, &r);
  cr_assert_eq(r.status, 304);
  cr_assert_eq(r.len, 0);
  free(r.body);
  next_response(&c, &r);
  cr_assert_eq(r.status, 200);
  cr_assert_eq(r.len, full);
  free(r.body);
  xq_tc_close(&c);
}

/* GET (or HEAD) `path` with If-None-Match: `inm` (NULL: none); the
 * response, its ETag into tag[] ("" none). */
static void get_tagged(const char *method, const char *path, const char *inm, resp *r, char *tag, size_t cap)
{
  char req[512], cond[128] = "";
  if (inm) snprintf(cond, sizeof cond, "If-None-Match: %.100s\r\n", inm);
  snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: t\r\n%s\r\n", method, path, cond);
  http(req, r);
  if (!header(r->head, "ETag", tag, cap)) tag[0] = 0;
}

/* The answer to a read: 200 with an ETag and max-age=1, or 304 with the
 * same ETag and no body. */
static void read_answer(const resp *r, int status, const char *path)
{
  char cc[64];
  cr_assert_eq(r->status, status, "%s: %d, not %d", path, r->status, status);
  cr_assert(header(r->head, "Cache-Control", cc, sizeof cc), "%s: %s", path, r->head);
  cr_assert_str_eq(cc, "max-age=1", "%s", path);
  if (status == 304) cr_assert_eq(r->len, 0, "%s: a 304 has no body", path);
}

Test(net_web, every_read_has_an_etag_and_a_matching_if_none_match_is_a_304)
{
  static const char *const paths[] = {
    "/api/event", "/api/rounds/1/pairings.json", "/api/standings.json", "/api/standings.json?round=1",
    "/api/rounds/1/games.json", "/api/rounds/1.pgn", "/api/rounds/1/1.pgn", "/api/rounds/1/1.pgn?notation=iccs",
    "/api/knockout", "/api/trf"};
  char tags[10][64];
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    const char *p = paths[i];
    char tag[64], again[64], cond[160];
    resp r;
    get_tagged("GET", p, NULL, &r, tags[i], sizeof tags[i]);
    read_answer(&r, 200, p);
    cr_assert(tags[i][0] == '"', "%s has an ETag: %s", p, r.head);
    size_t full = r.len;
    free(r.body);
    /* the same tag, as sent, weak, in a list, or any */
    snprintf(cond, sizeof cond, "\"0\", W/%.63s", tags[i]);
    const char *conds[] = {tags[i], cond, "*"};
    for (int k = 0; k < 3; k++) {
      get_tagged("GET", p, conds[k], &r, again, sizeof again);
      read_answer(&r, 304, p);
      cr_assert_str_eq(again, tags[i], "%s: the 304 names the tag", p);
      free(r.body);
    }
    get_tagged("HEAD", p, tags[i], &r, again, sizeof again);
    read_answer(&r, 304, p);
    free(r.body);
    /* another tag: the whole answer */
    get_tagged("GET", p, "\"0000000000000000\"", &r, tag, sizeof tag);
    read_answer(&r, 200, p);
    cr_assert_eq(r.len, full, "%s", p);
    free(r.body);
  }

  /* a move changes the games and the game's PGN, not the event */
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  xq_tc_okf(&b, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  xq_tc_okf(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  xq_tc_close(&b);
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    const char *p = paths[i];
    int changed = strstr(p, "games.json") || strstr(p, ".pgn");
    char tag[64];
    resp r;
    get_tagged("GET", p, tags[i], &r, tag, sizeof tag);
    read_answer(&r, changed ? 200 : 304, p);
    if (changed) cr_assert_str_neq(tag, tags[i], "%s: a new body, a new tag", p);
    free(r.body);
  }

  /* errors are not cached */
  resp r;
  char tag[64], cc[64];
  get_tagged("GET", "/api/rounds/9/games.json", "*", &r, tag, sizeof tag);
  cr_assert_eq(r.status, 404);
  cr_assert_str_eq(tag, "");
  cr_assert(header(r.head, "Cache-Control", cc, sizeof cc));
  cr_assert_str_eq(cc, "no-store");
  free(r.body);
}

/* ------------------------------------------------------------------ */
/* POST /api/op                                                        */
/* ------------------------------------------------------------------ */

Test(net_web, op_needs_a_live_token)
{
  int status;
  cJSON *j = op1(NULL, "{\"id\":1,\"op\":\"ping\"}", &status);
  cr_assert_eq(status, 401);
  cr_assert_str_eq(error_code(j), "AUTH_REQUIRED");
  cJSON_Delete(j);
  j = op1("0123456789abcdef0123456789abcdef", "{\"id\":1,\"op\":\"ping\"}", &status);
  cr_assert_eq(status, 401);
  cr_assert_str_eq(error_code(j), "BAD_TOKEN");
  cJSON_Delete(j);

  resp r;
  http("GET /api/op HTTP/1.1\r\nHost: t\r\n\r\n", &r);
  cr_assert_eq(r.status, 405);
  free(r.body);
  op(ts.arbiter, "\n\r\n", &r);
  cr_assert_eq(r.status, 400, "%s", r.body);
  free(r.body);
  /* more requests than XQ_OP_LINES_MAX: nothing runs */
  char many[(XQ_OP_LINES_MAX + 1) * 64];
  size_t k = 0;
  for (int i = 0; i <= XQ_OP_LINES_MAX; i++) k += (size_t)snprintf(many + k, sizeof many - k, "{\"op\":\"foul\",\"round\":1,\"table\":2,\"side\":\"red\"}\n");
  op(ts.arbiter, many, &r);
  cr_assert_eq(r.status, 413, "%s", r.body);
  free(r.body);
  cJSON *g = op1(ts.arbiter, "{\"op\":\"game\",\"round\":1,\"table\":2}", &status);
  cr_assert_eq(cJSON_GetArrayItem(item(g, "fouls"), 0)->valueint, 0, "no foul was recorded");
  cJSON_Delete(g);
}

Test(net_web, op_bodies_that_are_not_utf8_or_hold_nul_are_refused_unechoed)
{
  /* invalid UTF-8 in a string: BAD_JSON, and the reply is JSON itself
   * (the bytes are never echoed) */
  static const char *const bad[] = {"{\"op\":\"ping\",\"id\":\"\xff\xfe\"}",
                                    "{\"op\":\"\xc0\xaf\",\"id\":1}",
                                    "{\"op\":\"nosuchop\xe2\x82\",\"id\":2}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    resp r;
    op(ts.arbiter, bad[i], &r);
    cr_assert_eq(r.status, 200, "case %zu: %s", i, r.body);
    cr_assert(xq_utf8_valid(r.body, r.len), "case %zu: the answer is UTF-8", i);
    cJSON *j = cJSON_Parse(r.body);
    cr_assert_not_null(j, "case %zu: the answer is JSON: %s", i, r.body);
    cr_assert_str_eq(error_code(j), "BAD_JSON", "case %zu: %s", i, r.body);
    cJSON_Delete(j);
    free(r.body);
  }
  /* \u0000 in a string (a token, a move would be cut there): BAD_REQUEST */
  int status;
  cJSON *j = op1(ts.board[1], "{\"id\":3,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\\u0000zz\"}", &status);
  cr_assert_eq(status, 200);
  cr_assert_str_eq(error_code(j), "BAD_REQUEST");
  cJSON_Delete(j);
  j = op1(ts.arbiter, "{\"op\":\"game\",\"round\":1,\"table\":2}", &status);
  cr_assert_eq(cJSON_GetArraySize(item(j, "moves")), 0, "nothing was stored");
  cJSON_Delete(j);
}

Test(net_web, op_role_checks_are_the_protocols)
{
  int status;
  /* a board token may not record a foul: the reply is the protocol's */
  cJSON *j = op1(ts.board[0], "{\"id\":7,\"op\":\"foul\",\"round\":1,\"table\":1,\"side\":\"red\"}", &status);
  cr_assert_eq(status, 200);
  cr_assert_str_eq(error_code(j), "FORBIDDEN");
  cr_assert_eq(item(j, "id")->valueint, 7);
  cJSON_Delete(j);
  /* nor may an arbiter pair a round */
  j = op1(ts.arbiter, "{\"id\":8,\"op\":\"pair\"}", &status);
  cr_assert_str_eq(error_code(j), "FORBIDDEN");
  cJSON_Delete(j);
  /* the arbiter may: the foul is judged, committed, and then answered */
  j = op1(ts.arbiter, "{\"id\":9,\"op\":\"foul\",\"round\":1,\"table\":1,\"side\":\"black\"}", &status);
  cr_assert_eq(status, 200);
  cr_assert(cJSON_IsTrue(item(j, "ok")), "%s", cJSON_PrintUnformatted(j));
  cr_assert_str_eq(str(item(j, "verdict"), "verdict"), "foul");
  cJSON_Delete(j);
  /* a board token plays its own table, as over TCP */
  j = op1(ts.board[0], "{\"id\":10,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}", &status);
  cr_assert(cJSON_IsTrue(item(j, "ok")), "%s", cJSON_PrintUnformatted(j));
  cJSON_Delete(j);
  /* the store has both: games.json after a restart would too */
  j = op1(ts.arbiter, "{\"op\":\"game\",\"round\":1,\"table\":1}", &status);
  cr_assert_eq(cJSON_GetArrayItem(item(j, "fouls"), 1)->valueint, 1);
  cr_assert_str_eq(cJSON_GetArrayItem(item(j, "moves"), 0)->valuestring, "h2e2");
  cJSON_Delete(j);
  /* a session bound to a socket or a stream has no meaning here */
  j = op1(ts.arbiter, "{\"id\":11,\"op\":\"watch\"}", &status);
  cr_assert_str_eq(error_code(j), "BAD_REQUEST");
  cJSON_Delete(j);
  j = op1(ts.arbiter, "{\"id\":12,\"op\":\"hello\",\"token\":\"x\"}", &status);
  cr_assert_str_eq(error_code(j), "BAD_REQUEST");
  cJSON_Delete(j);
}

Test(net_web, op_lines_are_answered_in_order_after_their_commits)
{
  /* a foul (waits for the group commit), a read that must see it, a
   * perft (runs on the worker pool), a bad line, and a result */
  const char *body = "{\"id\":1,\"op\":\"foul\",\"round\":1,\"table\":3,\"side\":\"red\"}\r\n"
                     "{\"id\":2,\"op\":\"game\",\"round\":1,\"table\":3}\n"
                     "\n"
                     "{\"id\":3,\"op\":\"perft\",\"depth\":2}\n"
                     "not json\n"
                     "{\"id\":5,\"op\":\"result\",\"round\":1,\"table\":3,\"result\":\"0-1\"}";
  resp r;
  op(ts.arbiter, body, &r);
  cr_assert_eq(r.status, 200);
  char ct[64];
  cr_assert(header(r.head, "Content-Type", ct, sizeof ct));
  cr_assert_str_eq(ct, "application/x-ndjson");
  cJSON *lines[5];
  char *p = r.body;
  for (int i = 0; i < 5; i++) {
    char *nl = strchr(p, '\n');
    cr_assert_not_null(nl, "reply %d of 5 in %s", i + 1, r.body);
    *nl = 0;
    lines[i] = cJSON_Parse(p);
    cr_assert_not_null(lines[i], "%s", p);
    p = nl + 1;
  }
  cr_assert_eq(*p, 0, "five replies, no more");
  cr_assert(cJSON_IsTrue(item(lines[0], "ok")));
  cr_assert_eq(cJSON_GetArrayItem(item(lines[1], "fouls"), 0)->valueint, 1, "the read sees the foul");
  /* perft is answered when the worker is done: matched by id */
  int perft = -1, bad = -1, result = -1;
  for (int i = 2; i < 5; i++) {
    const cJSON *id = item(lines[i], "id");
    if (cJSON_IsNumber(id) && id->valueint == 3) perft = i;
    else if (cJSON_IsNumber(id) && id->valueint == 5) result = i;
    else bad = i;
  }
  cr_assert(perft >= 0 && bad >= 0 && result >= 0, "%s", r.body);
  cr_assert_eq(item(lines[perft], "nodes")->valuedouble, 1920.0);
  cr_assert_str_eq(error_code(lines[bad]), "BAD_JSON");
  cr_assert_str_eq(str(lines[result], "result"), "0-1");
  for (int i = 0; i < 5; i++) cJSON_Delete(lines[i]);
  free(r.body);

  /* the tournament has the result */
  http("GET /api/rounds/1/pairings.json HTTP/1.1\r\nHost: t\r\n\r\n", &r);
  cJSON *j = cJSON_Parse(r.body);
  cr_assert_str_eq(str(cJSON_GetArrayItem(item(j, "boards"), 2), "result"), "0-1");
  cJSON_Delete(j);
  free(r.body);
}

Test(net_web, a_request_behind_an_op_waits_for_it)
{
  /* pipelined: the op waits for its commit, the GET behind it sees it */
  char *req = op_request(ts.arbiter, "{\"id\":1,\"op\":\"foul\",\"round\":1,\"table\":4,\"side\":\"black\"}\n");
  size_t n = strlen(req);
  const char *get = "GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\n\r\n";
  char *both = malloc(n + strlen(get) + 1);
  memcpy(both, req, n);
  strcpy(both + n, get);
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&c, both, strlen(both));
  resp r;
  next_response(&c, &r);
  cr_assert_eq(r.status, 200);
  cr_assert(strstr(r.body, "\"ok\":true"), "%s", r.body);
  free(r.body);
  next_response(&c, &r);
  cJSON *j = cJSON_Parse(r.body);
  const cJSON *g4 = cJSON_GetArrayItem(item(j, "games"), 3);
  cr_assert_eq(cJSON_GetArrayItem(item(g4, "fouls"), 1)->valueint, 1);
  cJSON_Delete(j);
  free(r.body);
  xq_tc_close(&c);
  free(req);
  free(both);
}

/* ------------------------------------------------------------------ */
/* What the page reads                                                 */
/* ------------------------------------------------------------------ */

typedef struct wait_text {
  xq_tclient *c;
  const char *text;
} wait_text;

static int has_text(void *a)
{
  wait_text *w = a;
  return w->c->in && strstr(w->c->in, w->text) != NULL;
}

Test(net_web, moves_carry_three_notations_and_events_name_their_game)
{
  xq_tclient sse;
  cr_assert_eq(xq_tc_connect(&sse, &ts.loop, ts.http_port), 0);
  const char *sub = "GET /api/events?last_event=0 HTTP/1.1\r\nHost: t\r\n\r\n";
  xq_tc_send_raw(&sse, sub, strlen(sub));
  wait_text w = {&sse, "retry: 3000"};
  cr_assert(xq_tc_run_until(&ts.loop, has_text, &w, 5000));
  int status;
  cJSON *j = op1(ts.board[1], "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}", &status);
  cr_assert(cJSON_IsTrue(item(j, "ok")));
  cJSON_Delete(j);
  j = op1(ts.board[1], "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"a9a5\"}", &status);
  cr_assert_str_eq(str(item(j, "verdict"), "verdict"), "foul");
  cJSON_Delete(j);
  /* SSE has no envelope: the data of a move or a verdict names its game
   * (then says when it was broadcast) */
  w.text = "\"result\":\"*\",\"round\":1,\"table\":2,\"at\":";
  cr_assert(xq_tc_run_until(&ts.loop, has_text, &w, 5000), "%s", sse.in);
  cr_assert(strstr(sse.in, "event: move\ndata: {\"ply\":1,\"move\":\"h2e2\",\"wxf\":\"C2.5\",\"zh\":\"炮二平五\""));
  /* the verdict may come in a later write of the fan-out than the move */
  w.text = "event: verdict\ndata: {";
  cr_assert(xq_tc_run_until(&ts.loop, has_text, &w, 5000), "%s", sse.in);
  w.text = "\"round\":1,\"table\":2,\"at\":";
  const char *verdict = strstr(sse.in, "event: verdict\ndata: {");
  cr_assert(verdict && strstr(verdict, w.text), "%s", sse.in);
  xq_tc_close(&sse);

  /* games.json: ICCS, WXF and Chinese for each move */
  resp r;
  http("GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\n\r\n", &r);
  j = cJSON_Parse(r.body);
  const cJSON *g = cJSON_GetArrayItem(item(j, "games"), 1);
  cr_assert_str_eq(cJSON_GetArrayItem(item(g, "moves"), 0)->valuestring, "h2e2");
  cr_assert_str_eq(cJSON_GetArrayItem(item(g, "wxf"), 0)->valuestring, "C2.5");
  cr_assert_str_eq(cJSON_GetArrayItem(item(g, "zh"), 0)->valuestring, "炮二平五");
  cr_assert_eq(cJSON_GetArraySize(item(g, "zh")), 1);
  cJSON_Delete(j);
  free(r.body);
}

/* Table `t` of round 1 in games.json (a copy; the caller deletes it). */
static cJSON *game_of(int t)
{
  resp r;
  http("GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\n\r\n", &r);
  cr_assert_eq(r.status, 200);
  cJSON *j = cJSON_Parse(r.body), *g, *found = NULL;
  xq_tresp_free(&r);
  cJSON_ArrayForEach(g, item(j, "games")) if (item(g, "table")->valueint == t) found = cJSON_Duplicate(g, 1);
  cJSON_Delete(j);
  cr_assert_not_null(found, "table %d in games.json", t);
  return found;
}

Test(net_web, games_json_keeps_each_games_last_ruling_across_a_restart)
{
  cJSON *g = game_of(2);
  cr_assert_null(item(g, "verdict"), "no ruling yet");
  cJSON_Delete(g);
  int status;
  cJSON *j = op1(ts.arbiter, "{\"id\":1,\"op\":\"foul\",\"round\":1,\"table\":2,\"side\":\"red\"}", &status);
  cr_assert(cJSON_IsTrue(item(j, "ok")), "%s", cJSON_PrintUnformatted(j));
  cJSON_Delete(j);
  /* a plain move after it leaves the ruling as the game's last */
  j = op1(ts.board[1], "{\"id\":2,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}", &status);
  cr_assert(cJSON_IsTrue(item(j, "ok")), "%s", cJSON_PrintUnformatted(j));
  cJSON_Delete(j);
  for (int pass = 0; pass < 2; pass++) {
    g = game_of(2);
    const cJSON *v = item(g, "verdict");
    cr_assert_not_null(v, "the ruling is in the state (%s)", pass ? "after a restart" : "live");
    cr_assert_str_eq(str(v, "verdict"), "foul");
    cr_assert_str_eq(str(v, "event"), "arbiter_foul");
    cr_assert(str(v, "zh")[0] && str(v, "en")[0], "both sentences");
    cJSON_Delete(g);
    if (pass) break;
    cr_assert_eq(xq_ts_stop(&ts), 0);
    cr_assert_eq(xq_ts_restart(&ts), 0, "the server starts again on its store");
  }
}

/* ------------------------------------------------------------------ */
/* The arbiter's desk: every ruling of a game, the shared "seen" marks,  */
/* tokens revoked by the hash the tokens op lists                       */
/* ------------------------------------------------------------------ */

/* op1 that must succeed: its reply (caller deletes). */
static cJSON *op_ok(const char *token, const char *body)
{
  int status;
  cJSON *j = op1(token, body, &status);
  cr_assert(cJSON_IsTrue(item(j, "ok")), "%s -> %s", body, cJSON_PrintUnformatted(j));
  return j;
}

Test(net_web, every_ruling_is_listed_and_marked_seen_for_every_arbiter_across_a_restart)
{
  cJSON *g = game_of(3);
  cr_assert_eq(cJSON_GetArraySize(item(g, "rulings")), 0, "no ruling yet");
  cr_assert_eq(item(g, "seen")->valueint, 0);
  cJSON_Delete(g);
  cJSON_Delete(op_ok(ts.arbiter, "{\"id\":1,\"op\":\"foul\",\"round\":1,\"table\":3,\"side\":\"red\"}"));
  cJSON_Delete(op_ok(ts.board[2], "{\"id\":2,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}"));
  cJSON_Delete(op_ok(ts.arbiter, "{\"id\":3,\"op\":\"foul\",\"round\":1,\"table\":3,\"side\":\"black\"}"));
  /* a second arbiter's token, made by the admin */
  cJSON *k = op_ok(ts.admin, "{\"id\":4,\"op\":\"token\",\"role\":\"arbiter\",\"label\":\"second arbiter\"}");
  char second[64];
  snprintf(second, sizeof second, "%s", str(k, "token"));
  cJSON_Delete(k);
  xq_tclient sse;
  cr_assert_eq(xq_tc_connect(&sse, &ts.loop, ts.http_port), 0);
  const char *sub = "GET /api/events HTTP/1.1\r\nHost: t\r\n\r\n";
  xq_tc_send_raw(&sse, sub, strlen(sub));
  wait_text w = {&sse, "retry: 3000"};
  cr_assert(xq_tc_run_until(&ts.loop, has_text, &w, 5000));
  /* the first arbiter marks the first ruling seen: every page is told */
  cJSON *j = op_ok(ts.arbiter, "{\"id\":5,\"op\":\"seen\",\"round\":1,\"table\":3,\"seen\":1}");
  cr_assert_eq(item(j, "seen")->valueint, 1);
  cJSON_Delete(j);
  w.text = "event: seen\ndata: {\"seen\":1,\"round\":1,\"table\":3";
  cr_assert(xq_tc_run_until(&ts.loop, has_text, &w, 5000), "%s", sse.in);
  xq_tc_close(&sse);
  /* the second marks more than there are: as many as the game has */
  j = op_ok(second, "{\"id\":6,\"op\":\"seen\",\"round\":1,\"table\":3,\"seen\":9}");
  cr_assert_eq(item(j, "seen")->valueint, 2);
  cJSON_Delete(j);
  int status;
  j = op1(second, "{\"id\":7,\"op\":\"seen\",\"round\":1,\"table\":99,\"seen\":1}", &status);
  cr_assert_str_eq(error_code(j), "NOT_FOUND");
  cJSON_Delete(j);
  j = op1(ts.board[2], "{\"id\":8,\"op\":\"seen\",\"round\":1,\"table\":3,\"seen\":1}", &status);
  cr_assert_str_eq(error_code(j), "FORBIDDEN", "a board marks nothing");
  cJSON_Delete(j);
  for (int pass = 0; pass < 2; pass++) {
    g = game_of(3);
    const cJSON *rs = item(g, "rulings");
    cr_assert_eq(cJSON_GetArraySize(rs), 2, "both fouls listed (%s)", pass ? "after a restart" : "live");
    const cJSON *r0 = cJSON_GetArrayItem(rs, 0), *r1 = cJSON_GetArrayItem(rs, 1);
    cr_assert_str_eq(str(r0, "side"), "red");
    cr_assert_str_eq(str(r1, "side"), "black");
    cr_assert(str(r0, "zh")[0] && str(r0, "en")[0] && str(r0, "rule")[0], "sentences and article");
    cr_assert_eq(item(g, "seen")->valueint, 2, "the marks are kept (%s)", pass ? "after a restart" : "live");
    cJSON_Delete(g);
    if (pass) break;
    cr_assert_eq(xq_ts_stop(&ts), 0);
    cr_assert_eq(xq_ts_restart(&ts), 0, "the server starts again on its store");
  }
}

Test(net_web, a_token_is_revoked_by_the_hash_the_tokens_op_lists)
{
  cJSON *k = op_ok(ts.admin, "{\"id\":1,\"op\":\"token\",\"role\":\"arbiter\",\"label\":\"to revoke\"}");
  char tok[64], hash[32];
  snprintf(tok, sizeof tok, "%s", str(k, "token"));
  snprintf(hash, sizeof hash, "%s", str(k, "hash"));
  cJSON_Delete(k);
  cJSON_Delete(op_ok(tok, "{\"id\":2,\"op\":\"games\",\"round\":1}"));
  int status;
  cJSON *j = op1(ts.admin, "{\"id\":3,\"op\":\"revoke\",\"hash\":\"0123\"}", &status);
  cr_assert_str_eq(error_code(j), "BAD_REQUEST");
  cJSON_Delete(j);
  j = op1(ts.admin, "{\"id\":4,\"op\":\"revoke\",\"hash\":\"0000000000000000\"}", &status);
  cr_assert_str_eq(error_code(j), "NOT_FOUND", "no live token has that hash");
  cJSON_Delete(j);
  char body[160];
  snprintf(body, sizeof body, "{\"id\":5,\"op\":\"revoke\",\"hash\":\"%s\"}", hash);
  j = op_ok(ts.admin, body);
  cr_assert_str_eq(str(j, "revoked_hash"), hash);
  cJSON_Delete(j);
  j = op1(tok, "{\"id\":6,\"op\":\"games\",\"round\":1}", &status);
  cr_assert_eq(status, 401, "the revoked token is refused");
  cr_assert_str_eq(error_code(j), "BAD_TOKEN");
  cJSON_Delete(j);
  j = op_ok(ts.admin, "{\"id\":7,\"op\":\"tokens\"}");
  const cJSON *t;
  cJSON_ArrayForEach(t, item(j, "tokens")) cr_assert_str_neq(str(t, "hash"), hash, "no longer listed");
  cJSON_Delete(j);
}
