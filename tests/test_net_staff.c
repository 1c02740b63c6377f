/*
 * test_net_staff.c -- the staff's operations beside the boards (issue 32,
 * item 6; docs/security.md "Staff operations"): the board slips and the
 * exports are made in the worker pool, so a board is answered while they
 * are made, and their client's replies stay in request order; a player's
 * write keeps the server's copy of the event as the store replays it,
 * without a reload; a client that pipelines writes behind the commits is
 * served in its turns, not all of them at once. Each test ends with
 * uv_loop_close() == 0.
 *
 * To see a sheet "being made" without timing it, the tests fill the
 * sheets lane with a job of their own that runs until they let it go:
 * the sheet waits for the lane, the boards do not.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "jobs.h"
#include "net_fixture.h"

XQ_NET_SUITE(staff, 40);

/* ------------------------------------------------------------------ */
/* The sheets lane, held                                               */
/* ------------------------------------------------------------------ */

typedef struct blocker {
  xq__job job;               /* first (jobs.c) */
  atomic_int go;             /* set by the test: the job ends */
  int done;                  /* its after ran */
} blocker;

static void block_run(xq__job *j)
{
  blocker *b = (blocker *)j;
  while (!atomic_load(&b->go)) usleep(1000);
}

static void block_after(xq__job *j, int status)
{
  (void)status;
  ((blocker *)j)->done = 1;
}

/* Fill the sheets lane with a job that runs until release(). */
static void hold_the_lane(blocker *b)
{
  memset(b, 0, sizeof *b);
  cr_assert_eq(xq__jobs_queue(ts.srv, &b->job, XQ__LANE_SHEETS, NULL, XQ_ROLE_NONE, block_run, block_after), XQ_OK);
  cr_assert_eq(xq__jobs_running(ts.srv, XQ__LANE_SHEETS), 1);
}

static int released(void *arg) { return ((blocker *)arg)->done; }

static void release(blocker *b)
{
  atomic_store(&b->go, 1);
  cr_assert(xq_tc_run_until(&ts.loop, released, b, 5000), "the test's job ends");
}

/* A board session of table 1 and the next seq it may send. */
static int board_hello(xq_tclient *b)
{
  cr_assert_eq(xq_tc_connect(b, &ts.loop, ts.port), 0);
  cJSON *r = xq_tc_callf(b, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  xq_tc_expect_ok(r);
  int seq = (int)xq_tj_num(r, "last_seq") + 1;
  cJSON_Delete(r);
  return seq;
}

/* The board's clock event `seq` is acknowledged (stored). */
static void board_clock_ok(xq_tclient *b, int seq)
{
  xq_tc_okf(b, "{\"id\":%d,\"op\":\"clock\",\"seq\":%d,\"clock\":[600000,599000]}", 1000 + seq, seq);
}

/* The id of reply `r`, which must be ok. */
static int ok_id(const cJSON *r)
{
  xq_tc_expect_ok(r);
  return (int)xq_tj_num(r, "id");
}

Test(staff, slips_are_made_off_the_loop_a_board_is_answered_meanwhile)
{
  xq_tclient a, b;
  xq_fx_connect(&a, ts.admin);
  int seq = board_hello(&b);
  int tokens = ts.srv->ntokens;
  blocker blk;
  hold_the_lane(&blk);
  /* slips, then two more requests on the same connection */
  xq_tc_send(&a, "{\"id\":1,\"op\":\"slips\",\"round\":1,\"connect\":\"10.0.0.5:7878\",\"lang\":\"en\"}\n"
                 "{\"id\":2,\"op\":\"add_player\",\"player\":{\"name\":\"Late\"}}\n"
                 "{\"id\":3,\"op\":\"ping\"}");
  xq_tc_spin(&ts.loop, 100);
  /* the tokens are stored and known before the page is made */
  cr_assert_eq(ts.srv->ntokens, tokens + ts.nboards, "a new token per table, in the cache");
  /* the board plays while the slips wait for the pool */
  board_clock_ok(&b, seq++);
  board_clock_ok(&b, seq++);
  cJSON *r = xq_tc_reply(&a, 0);
  cr_assert_null(r, "nothing is answered before the slips: %s", r ? cJSON_PrintUnformatted(r) : "");
  cr_assert_eq(ts.srv->ev->n, 40, "the add_player after the slips waits for them");
  release(&blk);
  r = xq_tc_reply(&a, 5000);
  cr_assert_not_null(r, "the slips come");
  cr_assert_eq(ok_id(r), 1, "in request order");
  const char *html = xq_tj_str(r, "html");
  int qrs = 0;
  for (const char *p = html; (p = strstr(p, "<svg class=\"qr\"")); p++) qrs++;
  cr_assert_eq(qrs, ts.nboards, "a QR code per table");
  const char *at = "xqref://10.0.0.5:7878/?round=1&amp;table=1&amp;token=";
  const char *link = strstr(html, at);
  cr_assert_not_null(link);
  char token[64] = "";
  sscanf(link + strlen(at), "%32[0-9a-f]", token);
  cJSON_Delete(r);
  r = xq_tc_reply(&a, 5000);
  cr_assert_eq(ok_id(r), 2);
  cJSON_Delete(r);
  r = xq_tc_reply(&a, 5000);
  cr_assert_eq(ok_id(r), 3);
  cJSON_Delete(r);
  /* the slip's token opens table 1, from the cache (no reload) */
  xq_tclient t;
  cr_assert_eq(xq_tc_connect(&t, &ts.loop, ts.port), 0);
  r = xq_tc_callf(&t, "{\"id\":1,\"op\":\"hello\",\"token\":\"%s\"}", token);
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "table"), 1);
  cJSON_Delete(r);
  xq_tc_close(&t);
  xq_tc_close(&b);
  xq_tc_close(&a);
}

Test(staff, an_export_is_made_off_the_loop_a_board_is_answered_meanwhile)
{
  xq_tclient a, b;
  xq_fx_connect(&a, ts.arbiter);
  int seq = board_hello(&b);
  blocker blk;
  hold_the_lane(&blk);
  xq_tc_send(&a, "{\"id\":1,\"op\":\"export\",\"format\":\"xlsx\",\"what\":\"scoresheets\"}\n"
                 "{\"id\":2,\"op\":\"export\",\"format\":\"html\",\"what\":\"standings\"}\n"
                 "{\"id\":3,\"op\":\"ping\"}");
  xq_tc_spin(&ts.loop, 50);
  board_clock_ok(&b, seq++);
  cJSON *r = xq_tc_reply(&a, 0);
  cr_assert_null(r, "the sheets wait for the pool: %s", r ? cJSON_PrintUnformatted(r) : "");
  release(&blk);
  r = xq_tc_reply(&a, 5000);
  cr_assert_eq(ok_id(r), 1);
  cr_assert_str_eq(xq_tj_str(r, "filename"), "xqref-scoresheets-r1.xlsx");
  cr_assert(strlen(xq_tj_str(r, "base64")) > 100, "a workbook");
  cJSON_Delete(r);
  r = xq_tc_reply(&a, 5000);
  cr_assert_eq(ok_id(r), 2);
  cr_assert_not_null(strstr(xq_tj_str(r, "text"), "<table"), "an HTML sheet");
  cJSON_Delete(r);
  r = xq_tc_reply(&a, 5000);
  cr_assert_eq(ok_id(r), 3);
  cJSON_Delete(r);
  xq_tc_close(&b);
  xq_tc_close(&a);
}

/* Sheet jobs queued past a role's cap are BUSY, and slips refused so
 * write no token. */
Test(staff, sheet_jobs_past_the_roles_cap_are_busy_and_write_nothing)
{
  enum { N = XQ_SHEET_JOBS_ADMIN };
  xq_tclient a[N + 1];
  blocker blk;
  hold_the_lane(&blk);
  for (int i = 0; i < N; i++) {
    xq_fx_connect(&a[i], ts.admin);
    xq_tc_send(&a[i], "{\"id\":1,\"op\":\"slips\",\"round\":1}");
  }
  xq_tc_spin(&ts.loop, 100);
  cr_assert_eq(xq__jobs_count(ts.srv, XQ__LANE_SHEETS, NULL, XQ_ROLE_ADMIN), N);
  int tokens = ts.srv->ntokens;
  xq_fx_connect(&a[N], ts.admin);
  xq_tc_errf(&a[N], "BUSY", "{\"id\":1,\"op\":\"slips\",\"round\":1}");
  cr_assert_eq(ts.srv->ntokens, tokens, "no token is made for slips that are refused");
  release(&blk);
  for (int i = 0; i < N; i++) {
    cJSON *r = xq_tc_reply(&a[i], 5000);
    cr_assert_eq(ok_id(r), 1);
    cJSON_Delete(r);
  }
  for (int i = 0; i <= N; i++) xq_tc_close(&a[i]);
}

/* ------------------------------------------------------------------ */
/* The event kept in step                                              */
/* ------------------------------------------------------------------ */

/* The server's copy of the event is what the store's replay gives. */
static void same_as_the_store(void)
{
  const xq_tournament *ev = ts.srv->ev;
  xq_tournament *fresh = NULL;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_load(ts.srv->store, &fresh, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->n, fresh->n);
  cr_assert_eq(ev->nrounds, fresh->nrounds);
  for (int i = 0; i < ev->n; i++) {
    const xq_tplayer *p = &ev->players[i], *q = &fresh->players[i];
    cr_assert_str_eq(p->name, q->name, "player %d", i + 1);
    cr_assert_str_eq(p->birth, q->birth, "player %d", i + 1);
    cr_assert_str_eq(p->region, q->region, "player %d", i + 1);
    cr_assert_str_eq(p->club, q->club, "player %d", i + 1);
    cr_assert_str_eq(p->team, q->team, "player %d", i + 1);
    cr_assert_str_eq(p->title, q->title, "player %d", i + 1);
    cr_assert_str_eq(p->fed, q->fed, "player %d", i + 1);
    cr_assert_str_eq(p->fide_id, q->fide_id, "player %d", i + 1);
    cr_assert(p->rating == q->rating && p->sex == q->sex && p->local == q->local && p->pno == q->pno &&
                p->withdrawn == q->withdrawn && p->trf_rank == q->trf_rank,
              "player %d", i + 1);
    for (int r = 1; r <= XQ_TOURNEY_ROUNDS_MAX; r++)
      cr_assert_eq(memcmp(xq_tournament_slot(ev, i + 1, r), xq_tournament_slot(fresh, i + 1, r), sizeof(xq_tslot)), 0,
                   "player %d round %d", i + 1, r);
  }
  xq_tournament_free(fresh);
}

Test(staff, player_writes_keep_the_event_as_the_store_replays_it_without_a_reload)
{
  xq_tclient a;
  xq_fx_connect(&a, ts.admin);
  const xq_tournament *ev = ts.srv->ev; /* a reload would replace it */
  xq_tc_okf(&a, "{\"id\":1,\"op\":\"add_player\",\"player\":{\"name\":\"后来者\",\"rating\":1700,\"birth\":\"2001-02-03\","
                "\"sex\":\"w\",\"region\":\"上海\",\"club\":\"C\",\"team\":\"T\",\"local\":true}}");
  xq_tc_okf(&a, "{\"id\":2,\"op\":\"add_player\",\"player\":{\"name\":\"Late Two\"}}");
  xq_tc_okf(&a, "{\"id\":3,\"op\":\"edit_player\",\"player\":3,\"name\":\"改名\",\"birth\":\"1999.12.31\",\"sex\":null,"
                "\"rating\":2001,\"local\":true,\"club\":null}");
  xq_tc_okf(&a, "{\"id\":4,\"op\":\"withdraw\",\"player\":5,\"round\":4}");
  /* a second withdrawal is refused: taken back first, then from round 3 */
  xq_tc_errf(&a, "CONFLICT", "{\"id\":5,\"op\":\"withdraw\",\"player\":5,\"round\":3}");
  xq_tc_okf(&a, "{\"id\":51,\"op\":\"reinstate\",\"player\":5,\"round\":4}");
  xq_tc_okf(&a, "{\"id\":52,\"op\":\"withdraw\",\"player\":5,\"round\":3}");
  xq_tc_okf(&a, "{\"id\":6,\"op\":\"withdraw\",\"player\":6}");
  xq_tc_okf(&a, "{\"id\":7,\"op\":\"reinstate\",\"player\":6}");
  xq_tc_okf(&a, "{\"id\":8,\"op\":\"absent\",\"player\":7,\"round\":2,\"bye\":\"half\"}");
  xq_tc_okf(&a, "{\"id\":9,\"op\":\"absent\",\"player\":8,\"round\":3,\"bye\":\"full\"}");
  xq_tc_okf(&a, "{\"id\":10,\"op\":\"absent\",\"player\":9,\"round\":2}");
  cr_assert_eq(ts.srv->ev, ev, "no write reloaded the event");
  cr_assert_eq(ts.srv->ev->n, 42);
  same_as_the_store();
  /* what the answers show changed with it */
  cJSON *r = xq_tc_callf(&a, "{\"id\":11,\"op\":\"players\"}");
  const cJSON *p = cJSON_GetArrayItem(xq_tj_get(r, "players"), 40);
  cr_assert_str_eq(xq_tj_str(p, "name"), "后来者");
  cr_assert_str_eq(xq_tj_str(p, "birth"), "2001/02/03");
  cJSON_Delete(r);
  xq_tc_close(&a);
}

/* POST /api/op as the admin: the reply lines (caller frees). */
static char *op_lines(const char *body)
{
  size_t n = strlen(body) + 512;
  char *req = malloc(n);
  snprintf(req, n, "POST /api/op HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n%s",
           ts.admin, strlen(body), body);
  xq_tresp r;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &r), 0);
  cr_assert_eq(r.status, 200, "%s", r.body);
  free(req);
  return r.body;
}

static int count(const char *text, const char *what)
{
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)); p++) n++;
  return n;
}

Test(staff, a_batch_of_player_writes_keeps_the_event_without_a_reload_or_undoes_it_whole)
{
  enum { N = XQ_OP_LINES_MAX };
  const xq_tournament *ev = ts.srv->ev;
  char *body = malloc(N * 128), *out;
  size_t len = 0;
  for (int i = 0; i < N - 2; i++)
    len += (size_t)sprintf(body + len, "{\"id\":%d,\"op\":\"add_player\",\"player\":{\"name\":\"Import %d\",\"rating\":%d}}\n",
                           i, i, 1000 + i);
  len += (size_t)sprintf(body + len, "{\"id\":%d,\"op\":\"edit_player\",\"player\":41,\"club\":\"New\"}\n", N - 2);
  sprintf(body + len, "{\"id\":%d,\"op\":\"withdraw\",\"player\":42}\n", N - 1);
  out = op_lines(body);
  cr_assert_eq(count(out, "\"ok\":true"), N, "%s", out);
  free(out);
  cr_assert_eq(ts.srv->ev, ev, "a good batch reloads nothing");
  cr_assert_eq(ts.srv->ev->n, 40 + N - 2);
  same_as_the_store();
  /* a batch whose last line fails: undone whole, and the copy with it */
  len = 0;
  for (int i = 0; i < 3; i++)
    len += (size_t)sprintf(body + len, "{\"id\":%d,\"op\":\"add_player\",\"player\":{\"name\":\"Undone %d\"}}\n", i, i);
  sprintf(body + len, "{\"id\":9,\"op\":\"edit_player\",\"player\":9999,\"club\":\"X\"}\n");
  out = op_lines(body);
  cr_assert_eq(count(out, "NOT_APPLIED"), 3, "%s", out);
  free(out);
  cr_assert_eq(ts.srv->ev->n, 40 + N - 2, "none of it is in the event");
  same_as_the_store();
  free(body);
}

/* ------------------------------------------------------------------ */
/* Writes behind the commits, in turns                                 */
/* ------------------------------------------------------------------ */

/* Hold the store's write lock from a connection of the test's own: the
 * server's next group commit waits for it. */
static sqlite3 *hold_the_store(void)
{
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(ts.db, &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  cr_assert_eq(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
  return db;
}

static void release_the_store(sqlite3 *db)
{
  cr_assert_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
}

static int lines_in(const xq_tclient *c)
{
  int n = 0;
  for (size_t i = c->line_start; i < c->len; i++) n += c->in[i] == '\n';
  return n;
}

/* An admin pipelines many player writes while a commit runs: they wait
 * behind it one at a time, and when it is done the admin is served in
 * its turns -- a board's event sent after them is acknowledged long
 * before the last of them, not after all of them. */
Test(staff, writes_pipelined_behind_a_commit_are_served_in_turns_beside_the_boards)
{
  enum { N = 256 };
  xq_tclient a, b;
  xq_fx_connect(&a, ts.admin);
  int seq = board_hello(&b);
  sqlite3 *lock = hold_the_store();
  char line[128];
  snprintf(line, sizeof line, "{\"id\":1,\"op\":\"clock\",\"seq\":%d,\"clock\":[600000,600000]}", seq++);
  xq_tc_send(&b, line);
  xq_tc_spin(&ts.loop, 100); /* queued: its commit waits for the store */
  char *burst = malloc(N * 96);
  size_t len = 0;
  for (int i = 1; i <= N; i++)
    len += (size_t)sprintf(burst + len, "{\"id\":%d,\"op\":\"add_player\",\"player\":{\"name\":\"Late %d\"}}\n", i, i);
  xq_tc_send_raw(&a, burst, len);
  xq_tc_spin(&ts.loop, 100);
  snprintf(line, sizeof line, "{\"id\":2,\"op\":\"clock\",\"seq\":%d,\"clock\":[600000,599000]}", seq++);
  xq_tc_send(&b, line);
  xq_tc_spin(&ts.loop, 50);
  cr_assert_eq(lines_in(&a), 0, "no write ran while the commit waited");
  release_the_store(lock);
  cJSON *r = xq_tc_reply(&b, 10000);
  cr_assert_eq(ok_id(r), 1);
  cJSON_Delete(r);
  r = xq_tc_reply(&b, 10000);
  cr_assert_eq(ok_id(r), 2);
  cJSON_Delete(r);
  int before = lines_in(&a);
  cr_assert_lt(before, N / 2, "the board was answered after %d of the admin's %d writes", before, N);
  for (int i = 1; i <= N; i++) {
    r = xq_tc_reply(&a, 10000);
    cr_assert_not_null(r, "write %d is answered", i);
    cr_assert_eq(ok_id(r), i, "in request order");
    cJSON_Delete(r);
  }
  cr_assert_eq(ts.srv->ev->n, 40 + N);
  same_as_the_store();
  free(burst);
  xq_tc_close(&b);
  xq_tc_close(&a);
}
