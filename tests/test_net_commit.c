/*
 * test_net_commit.c -- the durability queue (net/commit.c): every row's
 * completion runs once, after its batch's commit, with the commit's
 * status, in the order the rows were queued; a failed commit fails the
 * rows queued after it too; a callback that waits for everything queued
 * runs after those rows' completions. The commit is made to fail by a
 * trigger that another connection puts on the store's game log.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "commit.h"
#include "internal.h"
#include "net_fixture.h"

XQ_NET_SUITE(commit, 8);

/* What the completions saw, in the order they ran. */
typedef struct seen {
  int n;
  int who[16];          /* the row's tag */
  int status[16];
  long long stored[16]; /* game-log rows of round 1 table 1 when it ran */
} seen;

typedef struct tag {
  seen *log;
  int who;
} tag;

static int count_row(void *arg, const xq_tgame_rec *r)
{
  (void)r;
  (*(long long *)arg)++;
  return 0;
}

static void completion(xq__server *s, void *arg, int status)
{
  tag *t = arg;
  seen *l = t->log;
  cr_assert_lt(l->n, 16);
  long long rows = 0;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_game_scan(s->store, 1, 1, count_row, &rows, &err), XQ_OK, "%s", err.msg);
  l->who[l->n] = t->who;
  l->status[l->n] = status;
  l->stored[l->n] = rows;
  l->n++;
}

/* Queue a row of round 1 table 1 holding one clock reading. */
static void queue_row(tag *t)
{
  xq_event ev;
  xq_event_init(&ev, XQ_EVENT_CLOCK);
  ev.ms[0] = 1000, ev.ms[1] = 2000;
  xq_tgame_rec rec = {.round = 1, .board = 1, .source = XQ_GSRC_ARBITER, .reply = "{}"};
  cr_assert_eq(xq__commit_row(ts.srv, &rec, &ev, 1, completion, t), XQ_OK);
}

static int all_seen(void *arg)
{
  seen *l = arg;
  return l->n == l->who[15];
}

/* Run the loop until `want` completions were seen. */
static void wait_for(seen *l, int want)
{
  l->who[15] = want;
  cr_assert(xq_tc_run_until(&ts.loop, all_seen, l, 5000), "%d of %d completions ran", l->n, want);
  xq_tc_spin(&ts.loop, 50); /* and no more come */
  cr_assert_eq(l->n, want, "each completion runs once");
}

/* Make every insert into the game log fail, from a connection of its own. */
static void break_the_log(int on)
{
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(ts.db, &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  const char *sql = on ? "CREATE TRIGGER no_rows BEFORE INSERT ON game_log BEGIN SELECT RAISE(ABORT, 'refused'); END;"
                       : "DROP TRIGGER no_rows;";
  char *msg = NULL;
  cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, &msg), SQLITE_OK, "%s", msg ? msg : "");
  sqlite3_close(db);
}

Test(commit, a_completion_runs_once_after_its_row_is_durable)
{
  seen l = {0};
  tag a = {&l, 1}, b = {&l, 2};
  long long before = 0;
  xq_error err = {0};
  xq_tstore_game_scan(ts.srv->store, 1, 1, count_row, &before, &err);
  queue_row(&a);
  queue_row(&b);
  cr_assert_eq(l.n, 0, "nothing completes before the commit");
  wait_for(&l, 2);
  cr_assert_eq(l.who[0], 1, "in the order queued");
  cr_assert_eq(l.who[1], 2);
  cr_assert_eq(l.status[0], XQ_OK);
  cr_assert_eq(l.status[1], XQ_OK);
  cr_assert_eq(l.stored[0], before + 2, "both rows are in the store when the first completes");
}

Test(commit, a_failed_commit_completes_its_rows_and_the_later_ones_with_its_status)
{
  seen l = {0};
  tag a = {&l, 1}, b = {&l, 2}, c = {&l, 3};
  long long before = 0;
  xq_error err = {0};
  xq_tstore_game_scan(ts.srv->store, 1, 1, count_row, &before, &err);
  break_the_log(1);
  queue_row(&a);
  queue_row(&b);
  xq_tc_spin(&ts.loop, 0); /* one turn: the batch goes to the worker */
  queue_row(&c);             /* judged on top of it */
  wait_for(&l, 3);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(l.who[i], i + 1, "in the order queued");
    cr_assert_eq(l.status[i], XQ_ESTORE, "row %d fails", i + 1);
    cr_assert_eq(l.stored[i], before, "and nothing of it is in the store");
  }
  cr_assert_neq(strstr(xq__commit_why(ts.srv), "refused"), NULL, "the store's message is kept: %s",
                xq__commit_why(ts.srv));
  /* the queue goes on once the store takes rows again */
  break_the_log(0);
  memset(&l, 0, sizeof l);
  queue_row(&a);
  wait_for(&l, 1);
  cr_assert_eq(l.status[0], XQ_OK);
  cr_assert_eq(l.stored[0], before + 1);
}

/* A callback that waits for everything queued so far. */
static void then_cb(xq__server *s, void *arg, int status)
{
  completion(s, arg, status);
}

/* From a completion: wait for the rest of the batch. */
static tag late;
static void completion_then(xq__server *s, void *arg, int status)
{
  completion(s, arg, status);
  xq__commit_then(s, then_cb, &late);
}

Test(commit, a_waiting_callback_runs_after_the_rows_queued_before_it)
{
  seen l = {0};
  tag a = {&l, 1}, w = {&l, 2}, b = {&l, 3};
  queue_row(&a);
  xq__commit_then(ts.srv, then_cb, &w);
  queue_row(&b);
  wait_for(&l, 3);
  for (int i = 0; i < 3; i++) cr_assert_eq(l.who[i], i + 1, "completion %d in the order queued", i + 1);

  /* one asked from a completion runs after the other completions of the
   * batch, within the same turn */
  memset(&l, 0, sizeof l);
  tag x = {&l, 1}, y = {&l, 2};
  late = (tag){&l, 3};
  xq_event ev;
  xq_event_init(&ev, XQ_EVENT_CLOCK);
  xq_tgame_rec rec = {.round = 1, .board = 1, .source = XQ_GSRC_ARBITER, .reply = "{}"};
  cr_assert_eq(xq__commit_row(ts.srv, &rec, &ev, 1, completion_then, &x), XQ_OK);
  queue_row(&y);
  wait_for(&l, 3);
  for (int i = 0; i < 3; i++) cr_assert_eq(l.who[i], i + 1, "completion %d in order", i + 1);
}

Test(commit, with_nothing_queued_a_waiting_callback_runs_at_once)
{
  seen l = {0};
  tag w = {&l, 1};
  xq__commit_then(ts.srv, then_cb, &w);
  cr_assert_eq(l.n, 1);
  cr_assert_eq(l.status[0], XQ_OK);
}

/* ------------------------------------------------------------------ */
/* Acknowledged means durable (issue 32, item 1)                       */
/* ------------------------------------------------------------------ */

/* Hold the store's write lock from a connection of the test's own (as
 * `xqref tourney` does while it writes): the server's next group commit
 * waits for it, XQ_STORE_BUSY_MS at most, then fails. NULL: released. */
static sqlite3 *hold_the_store(void)
{
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(ts.db, &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  char *msg = NULL;
  cr_assert_eq(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg), SQLITE_OK, "%s", msg ? msg : "");
  return db;
}

static void release_the_store(sqlite3 *db)
{
  cr_assert_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
}

/* A board session of table 1; its hello's last_seq into *last. */
static void board_hello(xq_tclient *c, double *last)
{
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.port), 0);
  cJSON *r = xq_tc_callf(c, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  xq_tc_expect_ok(r);
  *last = xq_tj_num(r, "last_seq");
  cJSON_Delete(r);
}

/* GET `path`: 200, its body (caller frees). */
static char *http_body(const char *path)
{
  char req[256];
  snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", path);
  xq_tresp r;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &r), 0, "an answer to %s", path);
  cr_assert_eq(r.status, 200, "GET %s: %d %s", path, r.status, r.body);
  return r.body;
}

/* Whether any answer shows a move at table 1 of round 1: games.json, the
 * round's PGN and the table's, the arbiter's `game` (its moves and
 * last_seq) and a new board session's hello. 0 none, 1 all; a mix
 * fails the test. */
static int move_shown(xq_tclient *arb)
{
  int shown = 0, asked = 0;
  char *b = http_body("/api/rounds/1/games.json");
  cJSON *j = cJSON_Parse(b);
  const cJSON *g = cJSON_GetArrayItem(xq_tj_get(j, "games"), 0);
  cr_assert_eq(xq_tj_num(g, "table"), 1);
  shown += cJSON_GetArraySize(xq_tj_get(g, "moves")) > 0, asked++;
  cJSON_Delete(j);
  free(b);
  b = http_body("/api/rounds/1.pgn?notation=iccs");
  shown += strstr(b, "H2-E2") != NULL, asked++;
  free(b);
  b = http_body("/api/rounds/1/1.pgn?notation=iccs");
  shown += strstr(b, "H2-E2") != NULL, asked++;
  free(b);
  cJSON *r = xq_tc_callf(arb, "{\"id\":1,\"op\":\"game\",\"round\":1,\"table\":1}");
  xq_tc_expect_ok(r);
  shown += cJSON_GetArraySize(xq_tj_get(r, "moves")) > 0, asked++;
  shown += xq_tj_num(r, "last_seq") > 0, asked++;
  cJSON_Delete(r);
  xq_tclient h;
  double last;
  board_hello(&h, &last);
  shown += last > 0, asked++;
  xq_tc_close(&h);
  cr_assert(shown == 0 || shown == asked, "%d of %d answers show the move", shown, asked);
  return shown == asked;
}

static const char move1[] = "{\"id\":7,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"clock\":[600000,600000]}";

Test(commit, a_resend_of_an_event_on_its_way_gets_its_outcome_a_failed_commit_an_error)
{
  xq_tclient a, b, arb;
  double last;
  board_hello(&a, &last);
  xq_fx_connect(&arb, ts.arbiter);
  sqlite3 *lock = hold_the_store();
  xq_tc_send(&a, move1);
  cJSON *r = xq_tc_reply(&a, 300);
  cr_assert_null(r, "no answer while the store is held: %s", r ? cJSON_PrintUnformatted(r) : "");
  /* the board lost its WiFi: a second connection, and the same event */
  board_hello(&b, &last);
  cr_assert_eq(last, 0, "hello reports only durable sequence numbers");
  xq_tc_send(&b, move1);
  r = xq_tc_reply(&b, 300);
  cr_assert_null(r, "the resend waits for the event's outcome: %s", r ? cJSON_PrintUnformatted(r) : "");
  cr_assert_eq(move_shown(&arb), 0, "a move on its way shows nowhere");
  /* the commit gives up after the busy timeout: both are told */
  r = xq_tc_reply(&a, 3 * XQ_STORE_BUSY_MS);
  cr_assert_not_null(r, "the first connection is answered");
  xq_tc_expect_error(r, "STORE_FAILED");
  cJSON_Delete(r);
  r = xq_tc_reply(&b, 3 * XQ_STORE_BUSY_MS);
  cr_assert_not_null(r, "the resend is answered");
  xq_tc_expect_error(r, "STORE_FAILED");
  cr_assert_eq(xq_tj_num(r, "id"), 7);
  cJSON_Delete(r);
  release_the_store(lock);
  /* nothing of it anywhere: not in the store, not in an answer */
  long long rows = 0;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_game_scan(ts.srv->store, 1, 1, count_row, &rows, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(rows, 0, "the store holds no row of table 1");
  cr_assert_eq(move_shown(&arb), 0, "the failed move shows nowhere");
  /* and the board sends it again, now to a store that takes it */
  r = xq_tc_callf(&b, "%s", move1);
  xq_tc_expect_ok(r);
  cJSON_Delete(r);
  cr_assert_eq(move_shown(&arb), 1, "once durable, every answer shows it");
  xq_tc_close(&arb);
  xq_tc_close(&b);
  xq_tc_close(&a);
}

Test(commit, a_move_on_its_way_shows_in_no_answer_until_it_is_durable)
{
  xq_tclient a, b, arb;
  double last;
  board_hello(&a, &last);
  board_hello(&b, &last);
  xq_fx_connect(&arb, ts.arbiter);
  sqlite3 *lock = hold_the_store();
  xq_tc_send(&a, move1);
  xq_tc_spin(&ts.loop, 100); /* judged and queued: the commit waits for the store */
  xq_tc_send(&b, move1);     /* a resend, on another connection */
  xq_tc_spin(&ts.loop, 100);
  cr_assert_eq(move_shown(&arb), 0, "games.json, the PGN, the arbiter's game and hello show no move on its way");
  cJSON *r = xq_tc_reply(&b, 0);
  cr_assert_null(r, "no acknowledgement before the commit");
  release_the_store(lock);
  r = xq_tc_reply(&a, 3 * XQ_STORE_BUSY_MS);
  xq_tc_expect_ok(r);
  char *first = cJSON_PrintUnformatted(r);
  cJSON_Delete(r);
  r = xq_tc_reply(&b, 3 * XQ_STORE_BUSY_MS);
  xq_tc_expect_ok(r);
  char *second = cJSON_PrintUnformatted(r);
  cJSON_Delete(r);
  cr_assert_str_eq(second, first, "the resend gets the event's own reply");
  free(first);
  free(second);
  cr_assert_eq(move_shown(&arb), 1, "durable: every answer shows it");
  xq_tc_close(&arb);
  xq_tc_close(&b);
  xq_tc_close(&a);
}
