/*
 * knockout_store.c -- the knockout stage in the SQLite store: the
 * append-only ko_log table (schema version 4), its replay into an xq_ko,
 * and the KO marks it puts on the Swiss rounds after the cut. Writes use
 * the store's nested transactions (store.c), so they join an open batch.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "knockout.h"

static int fail(xq_error *err, int code, const char *msg, sqlite3 *db)
{
  if (err) {
    err->code = code; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.60s%s%.90s", msg, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
  }
  return code;
}

static int count(sqlite3 *db, const char *sql, int a)
{
  sqlite3_stmt *q;
  int v = -1;
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) return -1;
  if (sqlite3_bind_parameter_count(q) >= 1) sqlite3_bind_int(q, 1, a);
  if (sqlite3_step(q) == SQLITE_ROW) v = sqlite3_column_int(q, 0);
  sqlite3_finalize(q);
  return v;
}

int xq_tstore_ko_start(xq_tstore *st, const xq_ko *ko, xq_error *err)
{
  sqlite3 *db = xq__tstore_db(st);
  if (!db || !ko || ko->after < 1 || ko->size < 2 || ko->size > XQ_KO_SIZE_MAX)
    return fail(err, XQ_EINVAL, "no knockout stage to start", NULL);
  char seeds[XQ_KO_SIZE_MAX * 6 + 1];
  size_t len = 0;
  for (int i = 0; i < ko->size; i++)
    len += (size_t)snprintf(seeds + len, sizeof seeds - len, "%s%d", i ? "," : "", ko->seeds[i]);
  /* one transaction (a savepoint inside an open batch), under the lock */
  xq__tstore_lock(st);
  if (xq__tstore_begin(st, 1, err)) { xq__tstore_unlock(st); return XQ_ESTORE; }
  int rc = XQ_OK;
  sqlite3_stmt *q = NULL;
  if (count(db, "SELECT count(*) FROM ko_log WHERE kind = 'start'", 0) != 0) {
    rc = fail(err, XQ_EINVAL, "the knockout stage has already started", NULL);
  } else if (count(db, "SELECT count(*) FROM events WHERE kind = 'pairing' AND round > ?", ko->after) != 0) {
    /* §6.4: the seeds leave the Swiss before the next round is paired */
    rc = fail(err, XQ_EINVAL, "a Swiss round after the cut is already paired", NULL);
  } else if (sqlite3_prepare_v2(db, "INSERT INTO ko_log(kind, after_round, size, seeding, format,"
                                " choice, seeds) VALUES ('start', ?, ?, ?, ?, ?, ?)", -1, &q, NULL) != SQLITE_OK) {
    rc = fail(err, XQ_ESTORE, "knockout start", db);
  } else {
    sqlite3_bind_int(q, 1, ko->after);
    sqlite3_bind_int(q, 2, ko->size);
    sqlite3_bind_int(q, 3, ko->seeding);
    sqlite3_bind_int(q, 4, ko->format);
    sqlite3_bind_int(q, 5, ko->choice);
    sqlite3_bind_text(q, 6, seeds, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout start", db);
  }
  sqlite3_finalize(q);
  if (rc) xq__tstore_rollback(st);
  else rc = xq__tstore_commit(st, err);
  xq__tstore_unlock(st);
  return rc;
}

int xq_tstore_ko_game(xq_tstore *st, const xq_ko_game *g, xq_error *err)
{
  sqlite3 *db = xq__tstore_db(st);
  if (!db || !g) return fail(err, XQ_EINVAL, "no game", NULL);
  xq_ko ko;
  /* check against the log as it stands inside the write transaction */
  xq__tstore_lock(st);
  if (xq__tstore_begin(st, 1, err)) { xq__tstore_unlock(st); return XQ_ESTORE; }
  int rc = xq_tstore_ko_load(st, &ko, err);
  sqlite3_stmt *q = NULL;
  if (!rc && !ko.after) rc = fail(err, XQ_EINVAL, "no knockout stage started", NULL);
  if (!rc && xq_ko_add_game(&ko, g)) rc = fail(err, XQ_EINVAL, "not the next game of that match", NULL);
  if (!rc) {
    if (sqlite3_prepare_v2(db, "INSERT INTO ko_log(kind, match, type, red, black, res)"
                           " VALUES ('game', ?, ?, ?, ?, ?)", -1, &q, NULL) != SQLITE_OK) {
      rc = fail(err, XQ_ESTORE, "knockout game", db);
    } else {
      sqlite3_bind_int(q, 1, g->match);
      sqlite3_bind_int(q, 2, g->type);
      sqlite3_bind_int(q, 3, g->red);
      sqlite3_bind_int(q, 4, g->black);
      sqlite3_bind_int(q, 5, g->res);
      if (sqlite3_step(q) != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout game", db);
    }
  }
  sqlite3_finalize(q);
  if (rc) xq__tstore_rollback(st);
  else rc = xq__tstore_commit(st, err);
  xq__tstore_unlock(st);
  return rc;
}

int xq_tstore_ko_load(xq_tstore *st, xq_ko *ko, xq_error *err)
{
  sqlite3 *db = xq__tstore_db(st);
  sqlite3_stmt *q;
  if (!db || !ko) return XQ_EINVAL;
  memset(ko, 0, sizeof *ko);
  xq__tstore_lock(st);
  if (sqlite3_prepare_v2(db, "SELECT kind, after_round, size, seeding, format, choice, seeds,"
                         " match, type, red, black, res FROM ko_log ORDER BY seq", -1, &q, NULL) != SQLITE_OK) {
    xq__tstore_unlock(st);
    return fail(err, XQ_ESTORE, "knockout log", db);
  }
  int rc = XQ_OK, s;
  while ((s = sqlite3_step(q)) == SQLITE_ROW) {
    const char *kind = (const char *)sqlite3_column_text(q, 0);
    if (kind && !strcmp(kind, "start")) {
      ko->after = sqlite3_column_int(q, 1);
      ko->size = sqlite3_column_int(q, 2);
      ko->seeding = sqlite3_column_int(q, 3);
      ko->format = sqlite3_column_int(q, 4);
      ko->choice = sqlite3_column_int(q, 5);
      const char *p = (const char *)sqlite3_column_text(q, 6);
      int n = 0;
      while (p && *p && n < XQ_KO_SIZE_MAX) {
        ko->seeds[n++] = (int)strtol(p, (char **)&p, 10);
        if (*p == ',') p++;
      }
      if (ko->size < 2 || ko->size > XQ_KO_SIZE_MAX || n != ko->size || ko->after < 1) {
        rc = fail(err, XQ_ESTORE, "the knockout log holds a bad start record", NULL);
        break;
      }
    } else {
      xq_ko_game g = {
        .match = sqlite3_column_int(q, 7), .type = sqlite3_column_int(q, 8),
        .red = sqlite3_column_int(q, 9), .black = sqlite3_column_int(q, 10),
        .res = sqlite3_column_int(q, 11)
      };
      if (!ko->after || xq_ko_add_game(ko, &g)) {
        rc = fail(err, XQ_ESTORE, "the knockout log holds a game out of sequence", NULL);
        break;
      }
    }
  }
  if (!rc && s != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout log", db);
  sqlite3_finalize(q);
  xq__tstore_unlock(st);
  return rc;
}

int xq__ko_mark(xq_tstore *st, xq_tevent *ev, xq_error *err)
{
  xq_ko ko;
  int rc = xq_tstore_ko_load(st, &ko, err);
  if (rc || !ko.after) return rc;
  int last = ev->cfg.rounds > 0 ? ev->cfg.rounds : XQ_TOURNEY_ROUNDS_MAX;
  for (int i = 0; i < ko.size; i++) {
    int id = ko.seeds[i];
    if (id < 1 || id > ev->n) return fail(err, XQ_ESTORE, "the knockout log names an unknown player", NULL);
    /* §6.4: KO players are not paired in the Swiss rounds after the cut */
    for (int r = ko.after + 1; r <= last && r <= XQ_TOURNEY_ROUNDS_MAX; r++) {
      xq_tslot *s = xq_tevent_slot(ev, id, r);
      if (!s->opp && s->res == XQ_TR_NONE) s->res = XQ_TR_KO;
    }
  }
  return XQ_OK;
}

void xq__ko_dump(xq_tstore *st, FILE *f)
{
  sqlite3 *db = xq__tstore_db(st);
  sqlite3_stmt *q;
  if (!db || sqlite3_prepare_v2(db, "SELECT seq, at, kind, after_round, size, seeding, format, choice,"
                                " seeds, match, type, red, black, res FROM ko_log ORDER BY seq",
                                -1, &q, NULL) != SQLITE_OK)
    return;
  while (sqlite3_step(q) == SQLITE_ROW) {
    const char *at = (const char *)sqlite3_column_text(q, 1);
    const char *kind = (const char *)sqlite3_column_text(q, 2);
    fprintf(f, "ko%lld %s ko-%-7s", (long long)sqlite3_column_int64(q, 0), at ? at : "", kind ? kind : "");
    if (kind && !strcmp(kind, "start")) {
      const char *seeds = (const char *)sqlite3_column_text(q, 8);
      fprintf(f, " after=%d size=%d seeding=%s format=%s", sqlite3_column_int(q, 3),
              sqlite3_column_int(q, 4), xq_ko_seeding_name(sqlite3_column_int(q, 5)),
              xq_ko_format_name(sqlite3_column_int(q, 6)));
      if (sqlite3_column_int(q, 7)) fprintf(f, " choice=%d", sqlite3_column_int(q, 7));
      fprintf(f, " seeds=%s\n", seeds ? seeds : "");
    } else {
      int res = sqlite3_column_int(q, 13);
      fprintf(f, " match=%d %s red=%d black=%d code=%s\n", sqlite3_column_int(q, 9),
              xq_ko_gtype_name(sqlite3_column_int(q, 10)), sqlite3_column_int(q, 11),
              sqlite3_column_int(q, 12), res > 0 ? "1-0" : res < 0 ? "0-1" : "=");
    }
  }
  sqlite3_finalize(q);
}
