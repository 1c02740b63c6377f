/*
 * test_net_delay.c -- serve --delay (docs/http.md "Delay"): what
 * anonymous readers see -- the event stream, an anonymous watch,
 * games.json, the PGN, the standings, the event, the pairings, the TRF --
 * comes DELAY seconds after the board's move was acknowledged, in order
 * and with nothing dropped; a staff watch and the staff's reads have it
 * at once; a restart neither loses nor bursts what was held; a game's
 * result is never shown anonymously before its moves.
 *
 * No timing is asserted as "within": "not before" is checked against the
 * wall clock taken before the move was sent (a reader that has the move
 * earlier than that + DELAY proves a breach), and "eventually" with
 * generous timeouts.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "knockout.h"
#include "net_fixture.h"

static void delay_up(void) {}
TestSuite(delay, .init = delay_up, .fini = xq_fx_end, .timeout = 120);

/* Start `ts` with a demo of 16 players and a delay of `sec` seconds. */
static void up(int sec)
{
  xq_ts_tuning t = {.delay_s = sec};
  xq_fx_up_tuned(16, &t);
}

static int64_t wall_us(void)
{
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* The board of table 1, connected and said hello. */
static void board1(xq_tclient *b) { xq_fx_connect(b, ts.board[0]); }

/* Board b sends move `mv` as `seq`; returns the wall clock before it was
 * sent (the move cannot have happened before). The reply is ok. */
static int64_t move(xq_tclient *b, int seq, const char *mv)
{
  int64_t t = wall_us();
  xq_tc_okf(b, "{\"id\":%d,\"op\":\"move\",\"seq\":%d,\"move\":\"%s\"}", seq, seq, mv);
  return t;
}

/* An SSE viewer of every round from the start (a snapshot first). */
static void sse_open(xq_tclient *c)
{
  static const char req[] = "GET /api/events HTTP/1.1\r\nHost: t\r\n\r\n";
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(c, req, sizeof req - 1);
  char *head = xq_tc_line(c, 5000);
  cr_assert(head && !strncmp(head, "HTTP/1.1 200", 12));
  free(head);
}

/* A watcher: anonymous (token NULL) or with `token`, from a snapshot. */
static void watch(xq_tclient *c, const char *token)
{
  xq_fx_connect(c, token);
  xq_tc_send(c, "{\"id\":90,\"op\":\"watch\",\"last_event\":-1}");
}

/* The ply and result of table 1 of round 1 in `games` (an array of game
 * objects); -1 when absent. */
static int table1(const cJSON *games, char *result, size_t n)
{
  const cJSON *g;
  cJSON_ArrayForEach(g, games)
  {
    const cJSON *tb = cJSON_GetObjectItem(g, "table"), *rd = cJSON_GetObjectItem(g, "round");
    if (!cJSON_IsNumber(tb) || tb->valueint != 1 || !cJSON_IsNumber(rd) || rd->valueint != 1) continue;
    const cJSON *r = cJSON_GetObjectItem(g, "result");
    if (result) snprintf(result, n, "%s", cJSON_IsString(r) ? r->valuestring : "?");
    return (int)cJSON_GetNumberValue(cJSON_GetObjectItem(g, "ply"));
  }
  return -1;
}

/* What a stream of events told of table 1: its ply and result after the
 * last event, the moves in order (each move's ply one more than the one
 * before it, or a whole state: a snapshot, a game), `bad` when not. */
typedef struct told {
  int ply;
  char result[16];
  int bad;
} told;

static void tell(told *t, const char *type, const cJSON *data)
{
  if (!data) return;
  if (!strcmp(type, "snapshot")) {
    int p = table1(cJSON_GetObjectItem(data, "games"), t->result, sizeof t->result);
    if (p >= 0) t->ply = p;
  } else if (!strcmp(type, "game")) {
    const cJSON *one = cJSON_GetObjectItem(data, "table");
    if (cJSON_IsNumber(one) && one->valueint == 1) {
      cJSON *arr = cJSON_CreateArray();
      cJSON_AddItemReferenceToArray(arr, (cJSON *)data);
      int p = table1(arr, t->result, sizeof t->result);
      cJSON_Delete(arr);
      if (p >= 0) t->ply = p;
    }
  } else if (!strcmp(type, "move") || !strcmp(type, "result")) {
    const cJSON *tb = cJSON_GetObjectItem(data, "table");
    if (tb && (!cJSON_IsNumber(tb) || tb->valueint != 1)) return;
    const cJSON *ply = cJSON_GetObjectItem(data, "ply"), *r = cJSON_GetObjectItem(data, "result");
    if (!strcmp(type, "move")) {
      int p = (int)cJSON_GetNumberValue(ply);
      if (p != t->ply + 1) t->bad = 1; /* out of order, or one missing */
      t->ply = p;
    }
    if (cJSON_IsString(r)) snprintf(t->result, sizeof t->result, "%s", r->valuestring);
  }
}

/* What the SSE stream `c` told so far. */
static told sse_told(const xq_tclient *c)
{
  told t = {-1, "*", 0};
  const char *p = c->in;
  while ((p = strstr(p, "event: "))) {
    char type[32] = "";
    sscanf(p + 7, "%31[a-z]", type);
    const char *d = strstr(p, "\ndata: "), *end = d ? strstr(d, "\n\n") : NULL;
    if (!end) break;
    cJSON *data = cJSON_ParseWithLength(d + 7, (size_t)(end - d - 7));
    /* a move's data names its table only when it is about one */
    tell(&t, type, data);
    cJSON_Delete(data);
    p = end;
  }
  return t;
}

/* What the JSON-lines watcher `c` told so far. */
static told watch_told(const xq_tclient *c)
{
  told t = {-1, "*", 0};
  const char *p = c->in;
  while (*p) {
    const char *nl = strchr(p, '\n');
    if (!nl) break;
    cJSON *o = cJSON_ParseWithLength(p, (size_t)(nl - p));
    const cJSON *ev = cJSON_GetObjectItem(o, "event"), *tb = cJSON_GetObjectItem(o, "table");
    if (cJSON_IsString(ev)) {
      cJSON *data = cJSON_GetObjectItem(o, "data");
      /* the envelope names the table of a move */
      if (cJSON_IsNumber(tb) && cJSON_IsObject(data) && !cJSON_GetObjectItem(data, "table"))
        cJSON_AddNumberToObject(data, "table", tb->valueint);
      tell(&t, ev->valuestring, data);
    }
    cJSON_Delete(o);
    p = nl + 1;
  }
  return t;
}

/* GET `path` anonymously: its body (malloc'd), the status 200 asserted. */
static char *get(const char *path)
{
  char req[256];
  snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", path);
  xq_tresp r;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &r), 0, "GET %s", path);
  cr_assert_eq(r.status, 200, "GET %s: %d", path, r.status);
  char *b = r.body;
  r.body = NULL;
  xq_tresp_free(&r);
  return b;
}

/* games.json of round 1: table 1's ply and result. */
static int games_ply(char *result, size_t n)
{
  char *b = get("/api/rounds/1/games.json");
  cJSON *o = cJSON_Parse(b);
  free(b);
  int p = table1(cJSON_GetObjectItem(o, "games"), result, n);
  cJSON_Delete(o);
  return p;
}

/* The moves of table 1's game in its PGN as anonymous readers get it
 * (the tokens of its movetext that are neither move numbers, comments
 * nor the result), and whether its Result tag is other than "*". */
static int pgn_moves(int *decided)
{
  char *b = get("/api/rounds/1/1.pgn?notation=iccs");
  const char *res = strstr(b, "[Result \"");
  *decided = res && strncmp(res + 9, "*\"", 2);
  int n = 0, depth = 0;
  const char *m = strstr(b, "\n\n"); /* the movetext, after the tags */
  for (char *tok = m ? strtok((char *)m, " \n") : NULL; tok; tok = strtok(NULL, " \n")) {
    if (tok[0] == '{') depth = 1;
    int comment = depth;
    if (strchr(tok, '}')) depth = 0;
    size_t l = strlen(tok);
    if (comment || tok[l - 1] == '.' || !strcmp(tok, "*") || strchr(tok, '/') || !strcmp(tok, "1-0") ||
        !strcmp(tok, "0-1"))
      continue;
    n++;
  }
  free(b);
  return n;
}

/* What the anonymous readers showed of the move with ply `ply`, checked
 * against the time it may first be seen. */
typedef struct readers {
  xq_tclient *sse, *anon;      /* anonymous stream and watch */
  int ply;                     /* the ply waited for */
  int64_t not_before;          /* wall clock before which none may show it */
  int64_t next_http;           /* when games.json and the PGN are read next */
  int sse_at, anon_at, games_at, pgn_at; /* shown (1) */
  int early;                   /* a reader showed it before not_before: the breach */
  int bad;                     /* a stream out of order or with a move missing */
} readers;

static int all_shown(void *a)
{
  readers *r = a;
  told s = sse_told(r->sse), w = watch_told(r->anon);
  r->bad |= s.bad | w.bad;
  int64_t now = wall_us(); /* what was read so far came before now */
  if (s.ply >= r->ply) r->sse_at = 1;
  if (w.ply >= r->ply) r->anon_at = 1;
  if (now >= r->next_http) {
    int d = 0;
    if (games_ply(NULL, 0) >= r->ply) r->games_at = 1;
    if (pgn_moves(&d) >= r->ply) r->pgn_at = 1;
    now = wall_us();
    r->next_http = now + 100000;
  }
  if ((r->sse_at || r->anon_at || r->games_at || r->pgn_at) && now < r->not_before) r->early = 1;
  return r->sse_at && r->anon_at && r->games_at && r->pgn_at;
}

/* Wait (30 s at most) until every anonymous reader shows ply `ply`,
 * asserting none did before `sent` + `sec` seconds, in order. */
static void shown_not_before(xq_tclient *sse, xq_tclient *anon, int ply, int64_t sent, int sec)
{
  /* 5 ms: the server's wall clock of a loop turn is read once per turn */
  readers r = {sse, anon, ply, sent + (int64_t)sec * 1000000 - 5000, 0, 0, 0, 0, 0, 0, 0};
  int ok = xq_tc_run_until(&ts.loop, all_shown, &r, 30000);
  cr_assert(!r.early, "ply %d shown to anonymous readers before the delay was over", ply);
  cr_assert(!r.bad, "an anonymous stream had a move out of order or missing");
  cr_assert(ok, "ply %d not shown (sse %d, watch %d, games.json %d, pgn %d)", ply, r.sse_at, r.anon_at,
            r.games_at, r.pgn_at);
}

/* The staff watcher `c` has table 1 at ply `ply`. */
typedef struct staff_wait {
  xq_tclient *c;
  int ply;
} staff_wait;
static int staff_has(void *a)
{
  staff_wait *w = a;
  return watch_told(w->c).ply >= w->ply;
}

Test(delay, stream_json_pgn_not_before_the_delay)
{
  up(2);
  xq_tclient sse, anon, arb, b;
  sse_open(&sse);
  watch(&anon, NULL);
  watch(&arb, ts.arbiter);
  board1(&b);
  static const char *const mv[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
  for (int i = 0; i < 4; i++) {
    int64_t sent = move(&b, i + 1, mv[i]);
    shown_not_before(&sse, &anon, i + 1, sent, 2);
  }
  /* the staff's watch had every move too, in order */
  told w = watch_told(&arb);
  cr_assert_eq(w.ply, 4);
  cr_assert(!w.bad);
  xq_tc_close(&b);
  xq_tc_close(&arb);
  xq_tc_close(&anon);
  xq_tc_close(&sse);
}

Test(delay, staff_at_once_anonymous_not)
{
  up(600); /* ten minutes: nothing anonymous can show the move meanwhile */
  xq_tclient sse, anon, arb, b, who;
  sse_open(&sse);
  watch(&anon, NULL);
  watch(&arb, ts.arbiter);
  board1(&b);
  move(&b, 1, "h2e2");
  staff_wait sw = {&arb, 1};
  cr_assert(xq_tc_run_until(&ts.loop, staff_has, &sw, 10000), "the arbiter's watch did not get the move");
  /* the staff's read of the game has it */
  xq_fx_connect(&who, ts.arbiter);
  cJSON *g = xq_tc_callf(&who, "{\"id\":1,\"op\":\"game\",\"round\":1,\"table\":1}");
  xq_tc_expect_ok(g);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(g, "moves")), 1);
  cJSON_Delete(g);
  /* a read with the arbiter's token has it too, and no cache keeps it */
  char req[256];
  snprintf(req, sizeof req, "GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n\r\n",
           ts.arbiter);
  xq_tresp rs;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &rs), 0);
  cJSON *live = cJSON_Parse(rs.body);
  cr_assert_eq(table1(cJSON_GetObjectItem(live, "games"), NULL, 0), 1);
  cr_assert(strstr(rs.head, "no-store"), "%s", rs.head);
  cJSON_Delete(live);
  xq_tresp_free(&rs);
  /* anonymous readers: the game as it was (a token that is no token too) */
  snprintf(req, sizeof req, "GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer nothing\r\n\r\n");
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &rs), 0);
  live = cJSON_Parse(rs.body);
  cr_assert_eq(table1(cJSON_GetObjectItem(live, "games"), NULL, 0), 0);
  cJSON_Delete(live);
  xq_tresp_free(&rs);
  int d = 0;
  cr_assert_eq(games_ply(NULL, 0), 0);
  cr_assert_eq(pgn_moves(&d), 0);
  cr_assert_eq(sse_told(&sse).ply, 0);
  cr_assert_eq(watch_told(&anon).ply, 0);
  /* the page is told how late it is */
  char *ev = get("/api/event");
  cJSON *e = cJSON_Parse(ev);
  free(ev);
  cr_assert_eq((int)xq_tj_num(e, "delay"), 600);
  cJSON_Delete(e);
  xq_tc_close(&who);
  xq_tc_close(&b);
  xq_tc_close(&arb);
  xq_tc_close(&anon);
  xq_tc_close(&sse);
}

/* Every anonymous answer that can show a result: table 1's in games.json,
 * the PGN, the pairings (HTTP and the `pairings` op), the standings
 * (HTTP and the `standings` op: a win or a loss), the event's
 * rounds_complete, the TRF. 1 when any shows it decided; *moves the
 * moves games.json and the PGN show AFTER those answers were read: the
 * delay releases in order, so a result any of them showed has its moves
 * shown by then (the moves read first would race the release). */
static int any_result(xq_tclient *anon, int *moves)
{
  int shown = 0, d = 0;
  char res[16] = "";
  games_ply(res, sizeof res);
  shown |= strcmp(res, "*") != 0;
  pgn_moves(&d);
  shown |= d;
  char *b = get("/api/rounds/1/pairings.json");
  shown |= strstr(b, "\"result\":\"1-0\"") || strstr(b, "\"result\":\"0-1\"");
  free(b);
  b = get("/api/standings.json?round=1");
  cJSON *o = cJSON_Parse(b);
  free(b);
  const cJSON *row;
  cJSON_ArrayForEach(row, cJSON_GetObjectItem(o, "standings"))
  {
    shown |= xq_tj_num(row, "w") + xq_tj_num(row, "l") > 0;
  }
  cJSON_Delete(o);
  b = get("/api/event");
  o = cJSON_Parse(b);
  free(b);
  shown |= xq_tj_num(o, "rounds_complete") > 0;
  cJSON_Delete(o);
  cJSON *r = xq_tc_callf(anon, "{\"id\":7,\"op\":\"pairings\",\"round\":1}");
  char *t = cJSON_PrintUnformatted(r);
  shown |= strstr(t, "\"1-0\"") || strstr(t, "\"0-1\"");
  free(t);
  cJSON_Delete(r);
  r = xq_tc_callf(anon, "{\"id\":8,\"op\":\"standings\",\"round\":1}");
  t = cJSON_PrintUnformatted(r);
  shown |= strstr(t, "\"w\":1") || strstr(t, "\"l\":1");
  free(t);
  cJSON_Delete(r);
  *moves = games_ply(NULL, 0);
  int pm = pgn_moves(&d);
  if (pm < *moves) *moves = pm;
  return shown;
}

typedef struct result_wait {
  xq_tclient *anon;
  int early;                   /* a result shown with its moves not yet all shown */
} result_wait;
static int result_shown(void *a)
{
  result_wait *w = a;
  xq_tc_spin(&ts.loop, 50); /* a look every 50 ms */
  int moves = 0;
  int shown = any_result(w->anon, &moves);
  if (shown && moves < 2) w->early = 1;
  return shown && moves >= 2;
}

Test(delay, result_never_before_its_moves)
{
  up(2);
  xq_tclient b, anon, arb;
  board1(&b);
  xq_fx_connect(&anon, NULL);
  xq_fx_connect(&arb, ts.arbiter);
  move(&b, 1, "h2e2");
  move(&b, 2, "h9g7");
  xq_tc_okf(&b, "{\"id\":3,\"op\":\"resign\",\"seq\":3,\"side\":\"black\"}");
  /* the staff see the result at once */
  cJSON *g = xq_tc_callf(&arb, "{\"id\":2,\"op\":\"game\",\"round\":1,\"table\":1}");
  cr_assert_str_eq(xq_tj_str(g, "result"), "1-0");
  cJSON_Delete(g);
  result_wait w = {&anon, 0};
  cr_assert(xq_tc_run_until(&ts.loop, result_shown, &w, 30000), "the result never showed");
  cr_assert(!w.early, "an anonymous answer had the result before the moves that led to it");
  xq_tc_close(&arb);
  xq_tc_close(&anon);
  xq_tc_close(&b);
}

Test(delay, restart_neither_loses_nor_bursts)
{
  up(3);
  xq_tclient b, sse, anon;
  board1(&b);
  int64_t sent = move(&b, 1, "h2e2");
  move(&b, 2, "h9g7");
  xq_tc_close(&b);
  cr_assert_eq(xq_ts_stop(&ts), 0);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  /* after the restart: nothing before its time, then every move */
  sse_open(&sse);
  watch(&anon, NULL);
  shown_not_before(&sse, &anon, 2, sent, 3);
  board1(&b);
  int64_t again = move(&b, 3, "h0g2");
  shown_not_before(&sse, &anon, 3, again, 3);
  xq_tc_close(&b);
  xq_tc_close(&anon);
  xq_tc_close(&sse);
}

/* games.json's ply of table 1 is `ply` (eventually). */
static int games_at(void *a) { return games_ply(NULL, 0) == *(int *)a; }

Test(delay, the_events_setting_sets_and_lifts_it)
{
  up(0); /* no --delay: the event's setting decides */
  xq_tclient adm, b, arb;
  xq_fx_connect(&adm, ts.admin);
  cJSON *r = xq_tc_callf(&adm, "{\"id\":1,\"op\":\"settings\"}");
  cr_assert(cJSON_IsNull(xq_tj_get(r, "delay")), "not set: the server's");
  cJSON_Delete(r);
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":2,\"op\":\"settings\",\"set\":{\"delay\":3601}}");
  r = xq_tc_callf(&adm, "{\"id\":3,\"op\":\"settings\",\"set\":{\"delay\":600}}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(r, "delay"), 600);
  cJSON_Delete(r);
  char *ev = get("/api/event");
  cr_assert(strstr(ev, "\"delay\":600"), "%s", ev);
  free(ev);
  board1(&b);
  move(&b, 1, "h2e2");
  /* the arbiter has the move; anonymous readers do not */
  xq_fx_connect(&arb, ts.arbiter);
  r = xq_tc_callf(&arb, "{\"id\":1,\"op\":\"game\",\"round\":1,\"table\":1}");
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "moves")), 1);
  cJSON_Delete(r);
  cr_assert_eq(games_ply(NULL, 0), 0);
  /* lifted: what was held goes out, in order */
  r = xq_tc_callf(&adm, "{\"id\":4,\"op\":\"settings\",\"set\":{\"delay\":0}}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(r, "delay"), 0);
  cJSON_Delete(r);
  int one = 1;
  cr_assert(xq_tc_run_until(&ts.loop, games_at, &one, 10000), "the held move did not come out");
  ev = get("/api/event");
  cr_assert(strstr(ev, "\"delay\":0"), "%s", ev);
  free(ev);
  xq_tc_close(&arb);
  xq_tc_close(&b);
  xq_tc_close(&adm);
}

/* A knockout table's result is held with its moves: the bracket an
 * anonymous reader gets (the knockout op, /api/knockout) has no winner
 * while the staff's has. */
Test(delay, a_knockout_result_waits_for_its_moves)
{
  xq_ts_tuning t = {.delay_s = 600};
  xq_fx_up_tuned(8, &t);
  xq_tclient adm, arb, anon, b;
  xq_fx_connect(&adm, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);
  xq_fx_connect(&anon, NULL);
  for (int k = 1; k <= 4; k++)
    xq_tc_okf(&arb, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"1-0\"}", k, k);
  xq_tc_okf(&adm, "{\"id\":5,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"xinjiang\"}");
  xq_tc_okf(&adm, "{\"id\":6,\"op\":\"ko_publish\"}");
  cJSON *r = xq_tc_callf(&adm, "{\"id\":7,\"op\":\"token\",\"role\":\"board\",\"round\":%d,\"table\":1}",
                         XQ_KO_ROUND);
  xq_tc_expect_ok(r);
  char tok[64];
  snprintf(tok, sizeof tok, "%s", xq_tj_str(r, "token"));
  cJSON_Delete(r);
  xq_fx_connect(&b, tok);
  xq_tc_okf(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  xq_tc_okf(&b, "{\"id\":2,\"op\":\"resign\",\"seq\":2,\"side\":\"black\"}");
  /* the staff: match 1 decided (its result is written once the game's
   * rows are durable: eventually) */
  int decided = 0;
  for (int i = 0; i < 200 && !decided; i++) {
    r = xq_tc_callf(&arb, "{\"id\":8,\"op\":\"knockout\"}");
    const cJSON *m1 = cJSON_GetArrayItem(xq_tj_get(r, "matches"), 0);
    decided = cJSON_IsObject(xq_tj_get(m1, "winner"));
    cJSON_Delete(r);
    if (!decided) xq_tc_spin(&ts.loop, 20);
  }
  cr_assert(decided, "the staff's bracket has match 1's winner");
  /* anonymous: neither the op nor /api/knockout says it */
  r = xq_tc_callf(&anon, "{\"id\":9,\"op\":\"knockout\"}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsNull(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(r, "matches"), 0), "winner")),
            "the anonymous bracket has the winner before the moves");
  cJSON_Delete(r);
  char *ko = get("/api/knockout");
  r = cJSON_Parse(ko);
  free(ko);
  cr_assert(cJSON_IsNull(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(r, "matches"), 0), "winner")));
  cJSON_Delete(r);
  char *g = get("/api/rounds/50/games.json");
  cr_assert(!strstr(g, "\"1-0\""), "%s", g);
  free(g);
  xq_tc_close(&b);
  xq_tc_close(&anon);
  xq_tc_close(&arb);
  xq_tc_close(&adm);
}
