/*
 * store_seen.c -- the arbiters' "seen" marks on the rulings of live games
 * (schema 12, docs/store.md): how many of a game's rulings an arbiter has
 * marked seen, so that every arbiter's desk shows them as seen, also
 * after a restart. Appended, never changed; a game's last mark counts.
 */
#include <sqlite3.h>
#include <string.h>

#include "../tourney_internal.h"
#include "store_internal.h"

#define SEEN_WHO_MAX 32 /* the arbiter's token hash prefix, with room */

static int fail(xq_error *err, int code, const char *msg, sqlite3 *db)
{
  xq_error_set(err, code, -1, -1, "%.60s%s%.90s", msg, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
  return code;
}

int xq_tstore_seen_set(xq_tstore *st, int round, int board, int seen, const char *who, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db) return fail(err, XQ_EINVAL, "no store", NULL);
  if (round < 1 || board < 1 || seen < 0 || (who && strlen(who) >= SEEN_WHO_MAX))
    return fail(err, XQ_EINVAL, "a seen mark takes a round, a table, a count and a short name", NULL);
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err);
  if (!rc) {
    sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_SEEN_SET,
                                     "INSERT INTO seen_marks(round, board, seen, who) VALUES (?, ?, ?, ?)");
    if (!q) {
      rc = fail(err, XQ_ESTORE, "seen", db);
    } else {
      sqlite3_bind_int(q, 1, round);
      sqlite3_bind_int(q, 2, board);
      sqlite3_bind_int(q, 3, seen);
      sqlite3_bind_text(q, 4, who ? who : "", -1, SQLITE_STATIC);
      if (sqlite3_step(q) != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "seen", db);
      sqlite3_reset(q);
    }
    if (rc) xq__store_rollback(st);
    else rc = xq__store_commit(st, err);
  }
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_seen_scan(xq_tstore *st, int (*fn)(void *arg, int round, int board, int seen), void *arg,
                        xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !fn) return fail(err, XQ_EINVAL, "no store", NULL);
  xq__store_lock(st);
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_SEEN_SCAN,
                                   "SELECT round, board, seen FROM seen_marks m WHERE id ="
                                   " (SELECT max(id) FROM seen_marks n WHERE n.round = m.round AND n.board = m.board)"
                                   " ORDER BY round, board");
  int rc = q ? XQ_OK : fail(err, XQ_ESTORE, "seen", db), s = SQLITE_DONE;
  while (!rc && (s = sqlite3_step(q)) == SQLITE_ROW)
    rc = fn(arg, sqlite3_column_int(q, 0), sqlite3_column_int(q, 1), sqlite3_column_int(q, 2));
  if (!rc && s != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "seen", db);
  if (q) sqlite3_reset(q);
  xq__store_unlock(st);
  return rc;
}
