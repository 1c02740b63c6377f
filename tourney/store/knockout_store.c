/*
 * knockout_store.c -- the knockout stage in the SQLite store: the
 * append-only ko_log table (schema version 4) and the knockout tables
 * published to the live server (ko_tables, version 7), their replay into
 * an xq_ko, and the KO marks the stage puts on the Swiss rounds after the
 * cut. A knockout-only event (after_round = XQ_KO_NO_SWISS, a drawn
 * bracket with byes as 0 and its pools in the choice column) fits the
 * same columns. Writes use
 * the store's nested transactions (store.c), so they join an open batch.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* True when a position of the drawn bracket `ko` names no registered
 * player. */
static int bad_entrants(sqlite3 *db, const xq_ko *ko)
{
  int n = xq__store_count(db, "SELECT count(*) FROM registrations WHERE player NOT IN"
                          " (SELECT player FROM events WHERE " XQ__STORE_REMOVED ")", 0);
  for (int i = 0; i < ko->size; i++)
    if (ko->seeds[i] < 0 || ko->seeds[i] > n) return 1;
  return xq_ko_entrants(ko) < 2;
}

int xq_tstore_ko_start(xq_tstore *st, const xq_ko *ko, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  int only = ko && ko->after == XQ_KO_NO_SWISS;
  if (!db || !ko || (ko->after < 1 && !only) || ko->size < 2 || ko->size > XQ_KO_SIZE_MAX ||
      only != (ko->seeding == XQ_KO_LOT))
    return fail(err, XQ_EINVAL, "no knockout stage to start", NULL);
  char seeds[XQ_KO_SIZE_MAX * 6 + 1];
  size_t len = 0;
  for (int i = 0; i < ko->size; i++)
    len += (size_t)snprintf(seeds + len, sizeof seeds - len, "%s%d", i ? "," : "", ko->seeds[i]);
  /* one transaction (a savepoint inside an open batch), under the lock */
  xq__store_lock(st);
  if (xq__store_begin(st, 1, err)) { xq__store_unlock(st); return XQ_ESTORE; }
  int rc = XQ_OK;
  sqlite3_stmt *q = NULL;
  if (xq__store_count(db, "SELECT count(*) FROM ko_log WHERE kind = 'start'", 0) != 0) {
    rc = fail(err, XQ_EINVAL, "the knockout stage has already started", NULL);
  } else if (xq__store_count(db, "SELECT count(*) FROM pairings WHERE kind = 'pairing' AND round > ?", ko->after) != 0) {
    /* the seeds leave the Swiss before the next round is paired */
    rc = fail(err, XQ_EINVAL, only ? "a knockout-only event cannot follow Swiss rounds"
                                   : "a Swiss round after the cut is already paired", NULL);
  } else if (only && bad_entrants(db, ko)) {
    rc = fail(err, XQ_EINVAL, "the bracket names a player who is not registered, or has fewer than 2", NULL);
  } else if (sqlite3_prepare_v2(db, "INSERT INTO ko_log(kind, after_round, size, seeding, format,"
                                " choice, seeds) VALUES ('start', ?, ?, ?, ?, ?, ?)", -1, &q, NULL) != SQLITE_OK) {
    rc = fail(err, XQ_ESTORE, "knockout start", db);
  } else {
    sqlite3_bind_int(q, 1, ko->after);
    sqlite3_bind_int(q, 2, ko->size);
    sqlite3_bind_int(q, 3, ko->seeding);
    sqlite3_bind_int(q, 4, ko->format);
    /* a drawn bracket keeps its pools in the choice column */
    sqlite3_bind_int(q, 5, only ? ko->pools : ko->choice);
    sqlite3_bind_text(q, 6, seeds, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout start", db);
  }
  sqlite3_finalize(q);
  if (rc) xq__store_rollback(st);
  else rc = xq__store_commit(st, err);
  xq__store_unlock(st);
  return rc;
}

/* Insert the game `g` into the knockout log (its table in `board`, NULL
 * when 0). */
static int insert_game(sqlite3 *db, const xq_ko_game *g, xq_error *err)
{
  sqlite3_stmt *q = NULL;
  int rc = XQ_OK;
  if (sqlite3_prepare_v2(db, "INSERT INTO ko_log(kind, match, type, red, black, res, board)"
                         " VALUES ('game', ?, ?, ?, ?, ?, ?)", -1, &q, NULL) != SQLITE_OK)
    return fail(err, XQ_ESTORE, "knockout game", db);
  sqlite3_bind_int(q, 1, g->match);
  sqlite3_bind_int(q, 2, g->type);
  sqlite3_bind_int(q, 3, g->red);
  sqlite3_bind_int(q, 4, g->black);
  sqlite3_bind_int(q, 5, g->res);
  if (g->table) sqlite3_bind_int(q, 6, g->table);
  else sqlite3_bind_null(q, 6);
  if (sqlite3_step(q) != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout game", db);
  sqlite3_finalize(q);
  return rc;
}

static int insert_table(sqlite3 *db, int table, const xq_ko_game *g, xq_error *err)
{
  sqlite3_stmt *q = NULL;
  int rc = XQ_OK;
  if (sqlite3_prepare_v2(db, "INSERT INTO ko_tables(board, match, type, red, black) VALUES (?, ?, ?, ?, ?)",
                         -1, &q, NULL) != SQLITE_OK)
    return fail(err, XQ_ESTORE, "knockout table", db);
  sqlite3_bind_int(q, 1, table);
  sqlite3_bind_int(q, 2, g->match);
  sqlite3_bind_int(q, 3, g->type);
  sqlite3_bind_int(q, 4, g->red);
  sqlite3_bind_int(q, 5, g->black);
  if (sqlite3_step(q) != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout table", db);
  sqlite3_finalize(q);
  return rc;
}

enum { KO_GAME, KO_PUBLISH, KO_RESULT };

/* One knockout write, checked against the log as it stands inside its
 * own write transaction (a savepoint in an open batch), under the lock:
 * the game `g` entered by hand, `g` published at the next table (*table),
 * or the result `res` of table *table. */
static int ko_write(xq_tstore *st, int what, const xq_ko_game *g, int *table, int res, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || (what != KO_RESULT && !g) || !table) return fail(err, XQ_EINVAL, "no game", NULL);
  xq_ko *ko = malloc(sizeof *ko);
  if (!ko) return fail(err, XQ_ENOMEM, "out of memory", NULL);
  xq__store_lock(st);
  if (xq__store_begin(st, 1, err)) {
    xq__store_unlock(st);
    free(ko);
    return XQ_ESTORE;
  }
  int rc = xq_tstore_ko_load(st, ko, err), k;
  if (!rc && !ko->after) rc = fail(err, XQ_EINVAL, "no knockout stage started", NULL);
  if (!rc && what == KO_GAME) {
    if (g->table) rc = fail(err, XQ_EINVAL, "a table's result is entered for the table", NULL);
    else if (xq_ko_in_play(ko, g->match))
      rc = fail(err, XQ_EINVAL, "that match is being played at a knockout table: its result comes from there", NULL);
    else if (xq_ko_add_game(ko, g)) rc = fail(err, XQ_EINVAL, "not the next game of that match", NULL);
    else rc = insert_game(db, g, err);
  } else if (!rc && what == KO_PUBLISH) {
    if ((k = xq_ko_publish(ko, g)) < 0)
      rc = fail(err, k, k == XQ_ELIMIT ? "too many knockout tables"
                        : xq_ko_in_play(ko, g->match) ? "that match has a game in play"
                        : "not the next game of that match", NULL);
    else if (!(rc = insert_table(db, k, g, err))) *table = k;
  } else if (!rc) {
    int t = *table;
    if (t < 1 || t > ko->ntables) rc = fail(err, XQ_EINVAL, "no such knockout table", NULL);
    else if (ko->tables[t - 1].done) rc = fail(err, XQ_EINVAL, "that knockout table has its result", NULL);
    else if (xq_ko_table_result(ko, t, res)) rc = fail(err, XQ_EINVAL, "not a knockout result", NULL);
    else rc = insert_game(db, &ko->games[ko->ngames - 1], err);
  }
  free(ko);
  if (rc) xq__store_rollback(st);
  else rc = xq__store_commit(st, err);
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_ko_game(xq_tstore *st, const xq_ko_game *g, xq_error *err)
{
  int none = 0;
  return ko_write(st, KO_GAME, g, &none, 0, err);
}

int xq_tstore_ko_publish(xq_tstore *st, const xq_ko_game *g, int *table, xq_error *err)
{
  return ko_write(st, KO_PUBLISH, g, table, 0, err);
}

int xq_tstore_ko_result(xq_tstore *st, int table, int res, xq_error *err)
{
  return ko_write(st, KO_RESULT, NULL, &table, res, err);
}

/* The published knockout tables into ko->tables (none decided yet). */
static int load_tables(xq_tstore *st, sqlite3 *db, xq_ko *ko, xq_error *err)
{
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_KO_TABLES, "SELECT board, match, type, red, black"
                                    " FROM ko_tables ORDER BY board");
  if (!q) return fail(err, XQ_ESTORE, "knockout tables", db);
  int rc = XQ_OK, s;
  while ((s = sqlite3_step(q)) == SQLITE_ROW) {
    if (ko->ntables >= XQ_KO_TABLES_MAX || sqlite3_column_int(q, 0) != ko->ntables + 1) {
      rc = fail(err, XQ_ESTORE, "the knockout tables are not numbered 1, 2, ...", NULL);
      break;
    }
    ko->tables[ko->ntables++] = (xq_ko_table){sqlite3_column_int(q, 1), sqlite3_column_int(q, 2),
                                              sqlite3_column_int(q, 3), sqlite3_column_int(q, 4), 0};
  }
  if (!rc && s != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout tables", db);
  sqlite3_reset(q);
  return rc;
}

int xq_tstore_ko_load(xq_tstore *st, xq_ko *ko, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  sqlite3_stmt *q = NULL;
  if (!db || !ko) return XQ_EINVAL;
  memset(ko, 0, sizeof *ko);
  xq__store_lock(st);
  /* the tables first: a game's result names its table */
  int rc = load_tables(st, db, ko, err), s;
  if (!rc) q = xq__store_stmt(st, XQ__STORE_Q_KO_LOG, "SELECT kind, after_round, size, seeding, format, choice,"
                               " seeds, match, type, red, black, res, board FROM ko_log ORDER BY seq");
  if (rc || !q) {
    xq__store_unlock(st);
    return rc ? rc : fail(err, XQ_ESTORE, "knockout log", db);
  }
  while ((s = sqlite3_step(q)) == SQLITE_ROW) {
    const char *kind = (const char *)sqlite3_column_text(q, 0);
    if (kind && !strcmp(kind, "start")) {
      ko->after = sqlite3_column_int(q, 1);
      ko->size = sqlite3_column_int(q, 2);
      ko->seeding = sqlite3_column_int(q, 3);
      ko->format = sqlite3_column_int(q, 4);
      ko->choice = sqlite3_column_int(q, 5);
      if (ko->after == XQ_KO_NO_SWISS) {
        /* a drawn bracket: the choice column holds its pools */
        ko->pools = ko->choice;
        ko->choice = 0;
      }
      const char *p = (const char *)sqlite3_column_text(q, 6);
      int n = 0;
      while (p && *p && n < XQ_KO_SIZE_MAX) {
        ko->seeds[n++] = (int)strtol(p, (char **)&p, 10);
        if (*p == ',') p++;
      }
      int only = ko->after == XQ_KO_NO_SWISS;
      if (ko->size < 2 || ko->size > XQ_KO_SIZE_MAX || n != ko->size || (ko->after < 1 && !only) ||
          only != (ko->seeding == XQ_KO_LOT) || (only && (ko->pools < 1 || ko->pools > XQ_KO_POOLS_MAX))) {
        rc = fail(err, XQ_ESTORE, "the knockout log holds a bad start record", NULL);
        break;
      }
    } else {
      xq_ko_game g = {
        .match = sqlite3_column_int(q, 7), .type = sqlite3_column_int(q, 8),
        .red = sqlite3_column_int(q, 9), .black = sqlite3_column_int(q, 10),
        .res = sqlite3_column_int(q, 11), .table = sqlite3_column_int(q, 12)
      };
      if (!ko->after || xq_ko_add_game(ko, &g)) {
        rc = fail(err, XQ_ESTORE, "the knockout log holds a game out of sequence", NULL);
        break;
      }
    }
  }
  if (!rc && s != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "knockout log", db);
  sqlite3_reset(q);
  xq__store_unlock(st);
  return rc;
}

int xq__store_ko_mark(xq_tstore *st, xq_tournament *ev, xq_error *err)
{
  xq_ko ko;
  int rc = xq_tstore_ko_load(st, &ko, err);
  /* a knockout-only event has no Swiss rounds to take its players out of */
  if (rc || ko.after < 1) return rc;
  int last = ev->cfg.rounds > 0 ? ev->cfg.rounds : XQ_TOURNEY_ROUNDS_MAX;
  for (int i = 0; i < ko.size; i++) {
    int id = ko.seeds[i];
    if (id < 1 || id > ev->n) return fail(err, XQ_ESTORE, "the knockout log names an unknown player", NULL);
    /* KO players are not paired in the Swiss rounds after the cut */
    for (int r = ko.after + 1; r <= last && r <= XQ_TOURNEY_ROUNDS_MAX; r++) {
      xq_tslot *s = xq_tournament_slot(ev, id, r);
      if (!s->opp && s->res == XQ_TR_NONE) s->res = XQ_TR_KO;
    }
  }
  return XQ_OK;
}

void xq__store_ko_dump(xq_tstore *st, FILE *f)
{
  sqlite3 *db = xq__store_db(st);
  sqlite3_stmt *q;
  if (!db || sqlite3_prepare_v2(db, "SELECT seq, at, kind, after_round, size, seeding, format, choice,"
                                " seeds, match, type, red, black, res, board FROM ko_log ORDER BY seq",
                                -1, &q, NULL) != SQLITE_OK)
    return;
  while (sqlite3_step(q) == SQLITE_ROW) {
    const char *at = (const char *)sqlite3_column_text(q, 1);
    const char *kind = (const char *)sqlite3_column_text(q, 2);
    fprintf(f, "ko%lld %s ko-%-7s", (long long)sqlite3_column_int64(q, 0), at ? at : "", kind ? kind : "");
    if (kind && !strcmp(kind, "start")) {
      const char *seeds = (const char *)sqlite3_column_text(q, 8);
      int only = sqlite3_column_int(q, 3) == XQ_KO_NO_SWISS;
      if (only) fprintf(f, " knockout-only");
      else fprintf(f, " after=%d", sqlite3_column_int(q, 3));
      fprintf(f, " size=%d seeding=%s format=%s", sqlite3_column_int(q, 4),
              xq_ko_seeding_name(sqlite3_column_int(q, 5)), xq_ko_format_name(sqlite3_column_int(q, 6)));
      if (sqlite3_column_int(q, 7)) fprintf(f, " %s=%d", only ? "pools" : "choice", sqlite3_column_int(q, 7));
      fprintf(f, " seeds=%s\n", seeds ? seeds : "");
    } else {
      int res = sqlite3_column_int(q, 13);
      fprintf(f, " match=%d %s red=%d black=%d code=%s", sqlite3_column_int(q, 9),
              xq_ko_gtype_name(sqlite3_column_int(q, 10)), sqlite3_column_int(q, 11),
              sqlite3_column_int(q, 12), res > 0 ? "1-0" : res < 0 ? "0-1" : "=");
      if (sqlite3_column_type(q, 14) != SQLITE_NULL) fprintf(f, " table=%d", sqlite3_column_int(q, 14));
      fputc('\n', f);
    }
  }
  sqlite3_finalize(q);
  if (sqlite3_prepare_v2(db, "SELECT board, at, match, type, red, black FROM ko_tables ORDER BY board", -1, &q,
                         NULL) != SQLITE_OK)
    return;
  while (sqlite3_step(q) == SQLITE_ROW) {
    const char *at = (const char *)sqlite3_column_text(q, 1);
    fprintf(f, "kot%d %s ko-table   match=%d %s red=%d black=%d\n", sqlite3_column_int(q, 0), at ? at : "",
            sqlite3_column_int(q, 2), xq_ko_gtype_name(sqlite3_column_int(q, 3)), sqlite3_column_int(q, 4),
            sqlite3_column_int(q, 5));
  }
  sqlite3_finalize(q);
}
