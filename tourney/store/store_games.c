/*
 * store_games.c -- the per-game log of the live server (schema version 5,
 * docs/store.md): one append-only row per event the adjudicator replays
 * (a move, a clock reading, a foul, a result, the start position), with
 * the reply that was sent for it, so a restarted server rebuilds every
 * game and answers a board's retried message with the same reply.
 *
 * The server appends tens of thousands of rows a second inside group-
 * commit batches (store_open.c), so an append is one cached INSERT: no
 * prepare, no savepoint (one statement is atomic on its own: a refused
 * row leaves nothing, inside a batch or not).
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tourney_internal.h"
#include "knockout.h"
#include "store_internal.h"

static int fail(xq_error *err, int code, const char *msg, sqlite3 *db)
{
  if (err) {
    err->code = code; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.60s%s%.90s", msg, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
  }
  return code;
}

static int64_t now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A Swiss round's board, or a knockout table (round XQ_KO_ROUND). */
static int game_ok(int round, int board)
{
  return round >= 1 && round <= XQ_KO_ROUND && board >= 1 && board <= XQ_TOURNEY_PLAYERS_MAX;
}

/* Event text: 1..XQ_GAME_TEXT_MAX-1 bytes, one line (the log prints one
 * row a line). Returns the length or -1. */
static long event_len(const char *s)
{
  if (!s) return -1;
  const unsigned char *p = (const unsigned char *)s;
  long n = 0;
  for (; p[n]; n++)
    if (p[n] < 0x20 || p[n] == 0x7f || n >= XQ_GAME_TEXT_MAX - 1) return -1;
  return n ? n : -1;
}

int xq_tstore_game_append(xq_tstore *st, const xq_tgame_rec *r, int64_t *id, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !r) return fail(err, XQ_EINVAL, "no store or row", NULL);
  if (!game_ok(r->round, r->board)) return fail(err, XQ_EINVAL, "round or board out of range", NULL);
  if (r->source < XQ_GSRC_BOARD || r->source > XQ_GSRC_INGEST) return fail(err, XQ_EINVAL, "bad source", NULL);
  if (r->seq < 0) return fail(err, XQ_EINVAL, "negative sequence number", NULL);
  long elen = event_len(r->event);
  if (elen < 0) return fail(err, XQ_EINVAL, "event text must be one non-empty line under 64 KiB", NULL);
  const char *reply = r->reply ? r->reply : "";
  size_t rlen = strlen(reply);
  if (rlen >= XQ_GAME_TEXT_MAX) return fail(err, XQ_EINVAL, "reply text over 64 KiB", NULL);
  xq__store_lock(st);
  int rc = XQ_OK;
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_GAME_APPEND,
    "INSERT INTO game_log(round, board, source, seq, event, reply, at_ms) VALUES (?,?,?,?,?,?,?)");
  if (xq__store_writable(st, err)) {
    rc = XQ_ESTORE;
  } else if (!q) {
    rc = fail(err, XQ_ESTORE, "game log", db);
  } else {
    sqlite3_bind_int(q, 1, r->round);
    sqlite3_bind_int(q, 2, r->board);
    sqlite3_bind_int(q, 3, r->source);
    sqlite3_bind_int64(q, 4, r->seq);
    sqlite3_bind_text(q, 5, r->event, (int)elen, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, reply, (int)rlen, SQLITE_STATIC);
    sqlite3_bind_int64(q, 7, r->at_ms ? r->at_ms : now_ms());
    int s = sqlite3_step(q);
    if (s == SQLITE_DONE) {
      if (id) *id = sqlite3_last_insert_rowid(db);
    } else if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE) {
      rc = fail(err, XQ_EINVAL, "duplicate sequence number", NULL);
    } else {
      rc = fail(err, XQ_ESTORE, "game log", db);
    }
    sqlite3_reset(q);
    if (rc) xq__store_failed(st);
  }
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_game_reply(xq_tstore *st, int round, int board, int64_t seq, char **reply)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !reply) return XQ_EINVAL;
  *reply = NULL;
  if (!game_ok(round, board) || seq <= 0) return XQ_EINVAL;
  xq__store_lock(st);
  int rc = XQ_EINVAL;
  /* "seq > 0" lets the partial unique index answer */
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_GAME_REPLY,
    "SELECT reply FROM game_log WHERE round = ? AND board = ? AND source = 1 AND seq = ? AND seq > 0");
  if (!q) {
    rc = XQ_ESTORE;
  } else {
    sqlite3_bind_int(q, 1, round);
    sqlite3_bind_int(q, 2, board);
    sqlite3_bind_int64(q, 3, seq);
    int s = sqlite3_step(q);
    if (s == SQLITE_ROW) {
      const char *t = (const char *)sqlite3_column_text(q, 0);
      size_t n = (size_t)sqlite3_column_bytes(q, 0);
      if ((*reply = malloc(n + 1))) {
        memcpy(*reply, t ? t : "", n);
        (*reply)[n] = 0;
        rc = XQ_OK;
      } else {
        rc = XQ_ENOMEM;
      }
    } else if (s != SQLITE_DONE) {
      rc = XQ_ESTORE;
    }
    sqlite3_reset(q);
  }
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_game_last_seq(xq_tstore *st, int round, int board, int64_t *seq)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !seq) return XQ_EINVAL;
  *seq = 0;
  if (!game_ok(round, board)) return XQ_EINVAL;
  xq__store_lock(st);
  int rc = XQ_OK;
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_GAME_LAST_SEQ,
    "SELECT max(seq) FROM game_log WHERE round = ? AND board = ? AND source = 1 AND seq > 0");
  if (!q) {
    rc = XQ_ESTORE;
  } else {
    sqlite3_bind_int(q, 1, round);
    sqlite3_bind_int(q, 2, board);
    if (sqlite3_step(q) == SQLITE_ROW) *seq = sqlite3_column_int64(q, 0); /* NULL reads 0 */
    else rc = XQ_ESTORE;
    sqlite3_reset(q);
  }
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_game_scan(xq_tstore *st, int round, int board, int (*fn)(void *ctx, const xq_tgame_rec *r),
                        void *ctx, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !fn) return fail(err, XQ_EINVAL, "no store or callback", NULL);
  if (round != 0 && !game_ok(round, board)) return fail(err, XQ_EINVAL, "round or board out of range", NULL);
  sqlite3_stmt *q;
  /* prepared per scan, not cached: fn may call the store again, even
   * start another scan */
  xq__store_lock(st);
  if (sqlite3_prepare_v2(db, round ? "SELECT id, round, board, source, seq, event, reply, at_ms FROM game_log"
                                     " WHERE round = ? AND board = ? ORDER BY id"
                                   : "SELECT id, round, board, source, seq, event, reply, at_ms FROM game_log"
                                     " ORDER BY id", -1, &q, NULL) != SQLITE_OK) {
    int rc = fail(err, XQ_ESTORE, "game log", db);
    xq__store_unlock(st);
    return rc;
  }
  if (round) {
    sqlite3_bind_int(q, 1, round);
    sqlite3_bind_int(q, 2, board);
  }
  int rc = XQ_OK, s;
  while ((s = sqlite3_step(q)) == SQLITE_ROW) {
    const char *ev = (const char *)sqlite3_column_text(q, 5), *rp = (const char *)sqlite3_column_text(q, 6);
    xq_tgame_rec r = {
      .id = sqlite3_column_int64(q, 0), .round = sqlite3_column_int(q, 1), .board = sqlite3_column_int(q, 2),
      .source = sqlite3_column_int(q, 3), .seq = sqlite3_column_int64(q, 4),
      .event = ev ? ev : "", .reply = rp ? rp : "", .at_ms = sqlite3_column_int64(q, 7)
    };
    if ((rc = fn(ctx, &r))) break;
  }
  if (!rc && s != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "game log", db);
  sqlite3_finalize(q);
  xq__store_unlock(st);
  return rc;
}
