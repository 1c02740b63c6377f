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
