/*
 * test_net_budget.c -- what a board token may write, and the store under
 * the server (docs/security.md "Budgets"): a game's events that are not
 * moves are bounded a second and in all, and a store file deleted or
 * replaced under the running server stops every acknowledgement. Each
 * test ends with uv_loop_close() == 0.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net_fixture.h"
#include "netlimits.h"

XQ_NET_SUITE(net_budget, 8);

/* A board sends clock readings as fast as it can: past the game's
 * budget each is refused with LIMIT and its seq stays free; moves are
 * still taken; once time has passed, readings are taken again. */
Test(net_budget, a_flood_of_events_that_are_not_moves_is_refused_past_its_budget)
{
  xq_tclient b;
  xq_fx_connect(&b, ts.board[0]);
  int seq = 1, refused = 0, taken = 0;
  uint64_t t0 = uv_hrtime();
  for (int i = 0; i < 1000 && !refused; i++) {
    cJSON *r = xq_tc_callf(&b, "{\"id\":%d,\"op\":\"clock\",\"seq\":%d,\"clock\":[600000,600000]}", i, seq);
    if (xq_tj_ok(r)) {
      taken++;
      seq++;
    } else {
      cr_assert_str_eq(xq_tc_error(r), "LIMIT", "refused past the budget, as LIMIT");
      refused = 1;
    }
    cJSON_Delete(r);
  }
  cr_assert(refused, "a flood of clock readings is refused (%d taken)", taken);
  cr_assert_geq(taken, XQ_GAME_QUIET_BURST - 1, "a burst within the budget is taken");
  /* the burst, and what the budget grew by while they were sent */
  double secs = (double)(uv_hrtime() - t0) / 1e9;
  cr_assert_leq(taken, XQ_GAME_QUIET_BURST + (int)(XQ_GAME_QUIET_PER_S * secs) + 1,
                "no more than the burst and what came meanwhile (%d in %.2f s)", taken, secs);
  /* lift and release are the same budget */
  xq_tc_errf(&b, "LIMIT", "{\"id\":900,\"op\":\"lift\",\"seq\":%d,\"square\":\"h2\"}", seq);
  /* a move is never refused for it, and takes the seq left free */
  xq_tc_okf(&b, "{\"id\":901,\"op\":\"move\",\"seq\":%d,\"move\":\"h2e2\"}", seq++);
  /* a second later the budget has grown again */
  xq_tc_spin(&ts.loop, 1000 / XQ_GAME_QUIET_PER_S * 3);
  xq_tc_okf(&b, "{\"id\":902,\"op\":\"clock\",\"seq\":%d,\"clock\":[599000,600000]}", seq++);
  xq_tc_close(&b);
}

/* The store's file unlinked (its WAL too) under the running server: the
 * next move is not acknowledged -- it would go to a file nobody opens
 * again -- and the error says why. */
Test(net_budget, a_store_deleted_under_the_server_stops_every_acknowledgement)
{
  xq_tclient b;
  xq_fx_connect(&b, ts.board[0]);
  xq_tc_okf(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  char wal[256];
  snprintf(wal, sizeof wal, "%s-wal", ts.db);
  cr_assert_eq(unlink(ts.db), 0);
  unlink(wal);
  cJSON *r = xq_tc_callf(&b, "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  cr_assert(!xq_tj_ok(r), "a move into a deleted store is not acknowledged");
  const cJSON *e = cJSON_GetObjectItem(r, "error");
  const char *msg = e ? cJSON_GetStringValue(cJSON_GetObjectItem(e, "msg")) : NULL;
  cr_assert(msg && strstr(msg, "deleted or replaced"), "the error says why: %s", msg ? msg : "(none)");
  cJSON_Delete(r);
  xq_tc_close(&b);
}

/* The rows of the game log of table 1 in the file `path` alone (no
 * write-ahead log beside it). */
static int rows_in_file(const char *path)
{
  sqlite3 *db;
  cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  sqlite3_stmt *q;
  cr_assert_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM game_log WHERE round = 1 AND board = 1", -1, &q, NULL),
               SQLITE_OK, "%s", sqlite3_errmsg(db));
  cr_assert_eq(sqlite3_step(q), SQLITE_ROW);
  int n = sqlite3_column_int(q, 0);
  sqlite3_finalize(q);
  sqlite3_close(db);
  return n;
}

/* Only the store's write-ahead log unlinked under the running server (a
 * cleaning script, a copy that moved it): it holds every commit not yet
 * checkpointed -- a new store's everything -- and the process's handle is
 * its last. The next move is not acknowledged, and what was acknowledged
 * before is written into the store's file, where a restart finds it. */
Test(net_budget, a_write_ahead_log_deleted_under_the_server_loses_nothing_acknowledged)
{
  xq_tclient b;
  xq_fx_connect(&b, ts.board[0]);
  xq_tc_okf(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  char wal[256], copy[300], cmd[700];
  snprintf(wal, sizeof wal, "%s-wal", ts.db);
  cr_assert_eq(unlink(wal), 0);
  cJSON *r = xq_tc_callf(&b, "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  cr_assert(!xq_tj_ok(r), "a move into a store without its log is not acknowledged");
  const cJSON *e = cJSON_GetObjectItem(r, "error");
  const char *msg = e ? cJSON_GetStringValue(cJSON_GetObjectItem(e, "msg")) : NULL;
  cr_assert(msg && strstr(msg, "-wal was deleted or replaced"), "the error says why: %s", msg ? msg : "(none)");
  cJSON_Delete(r);
  xq_tc_close(&b);
  /* the file as a kill would leave it: the acknowledged move is in it */
  snprintf(copy, sizeof copy, "%s.copy", ts.db);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", ts.db, copy);
  cr_assert_eq(system(cmd), 0);
  cr_assert_eq(rows_in_file(copy), 1, "the acknowledged move is in the store's file");
  unlink(copy);
}

/* Another file renamed onto the store's path is no better. */
Test(net_budget, a_store_replaced_under_the_server_stops_every_acknowledgement)
{
  xq_tclient b;
  xq_fx_connect(&b, ts.board[0]);
  char other[256];
  snprintf(other, sizeof other, "%s.other", ts.db);
  FILE *f = fopen(other, "w");
  cr_assert(f);
  fputs("not the store\n", f);
  fclose(f);
  cr_assert_eq(rename(other, ts.db), 0);
  cJSON *r = xq_tc_callf(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(!xq_tj_ok(r), "a move into a replaced store is not acknowledged");
  cJSON_Delete(r);
  xq_tc_close(&b);
}
