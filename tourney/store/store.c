/*
 * store.c -- the SQLite event store (tourney.md §2, issue "Store").
 *
 * What happens is appended to an event log (registration, numbering,
 * pairing published, result, forfeit, foul, absence, withdrawal); the
 * event state, standings and TRF are derived by replaying it, so any
 * standing can be recomputed and audited. The log is append-only (triggers
 * refuse UPDATE and DELETE). Corrections of a player's details and the
 * numbers drawn before round 1 are in store_players.c. The database runs in WAL mode with
 * synchronous=FULL: a write returns only after its transaction is on disk,
 * so a committed event survives a crash or power loss. Every write is one
 * BEGIN IMMEDIATE ... COMMIT transaction; a failed write is rolled back
 * and leaves nothing behind. Inside a group-commit batch (store_games.c)
 * the same writes run as savepoints of the batch's transaction, so a
 * failed one undoes only itself.
 *
 * The connection is opened with SQLITE_OPEN_FULLMUTEX, and every public
 * call that keeps state between SQLite calls (a transaction, a cached
 * statement) holds the connection's own recursive mutex for its whole
 * length: two threads may share a store, one call at a time.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tourney_internal.h"
#include "../pair/pair_internal.h"
#include "knockout.h"
#include "pair/pair.h"
#include "store_internal.h"

struct xq_tstore {
  sqlite3 *db;
  int version;
  int depth;       /* open transaction levels: 0 none, 1 a transaction
                      (or the batch), more = savepoints inside it */
  int batch;       /* a group-commit batch is open (store_games.c) */
  int lost;        /* SQLite rolled the batch's transaction back itself */
  sqlite3_stmt *q[XQ__STORE_Q_COUNT]; /* cached statements, finalized on close */
};

/* Schema migrations, in order: migrations[i] takes version i to i + 1.
 * Append new steps; never edit a published one. */
static const char *const migrations[] = {
  /* 1: configuration, the event log and the rows that belong to events */
  "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
  "CREATE TABLE events("
  "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  kind TEXT NOT NULL CHECK (kind IN ('register', 'numbering', 'pairing', 'result',"
  "                                     'forfeit', 'foul', 'absence', 'withdrawal')),"
  "  round INTEGER, player INTEGER, board INTEGER, value INTEGER, code TEXT);"
  "CREATE TABLE registrations("
  "  seq INTEGER PRIMARY KEY REFERENCES events(seq),"
  "  player INTEGER NOT NULL UNIQUE, name TEXT NOT NULL, rating INTEGER NOT NULL,"
  "  birth TEXT NOT NULL, sex TEXT NOT NULL, region TEXT NOT NULL, club TEXT NOT NULL,"
  "  team TEXT NOT NULL, local INTEGER NOT NULL);"
  "CREATE TABLE numbers(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  player INTEGER NOT NULL UNIQUE, pno INTEGER NOT NULL UNIQUE, PRIMARY KEY(seq, player));"
  "CREATE TABLE pairing_boards(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  board INTEGER NOT NULL, red INTEGER NOT NULL, black INTEGER NOT NULL,"
  "  PRIMARY KEY(seq, board));"
  "CREATE TRIGGER events_no_update BEFORE UPDATE ON events"
  "  BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;"
  "CREATE TRIGGER events_no_delete BEFORE DELETE ON events"
  "  BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;",
  /* 2: find a round's events without a scan */
  "CREATE INDEX events_by_round ON events(round, kind);",
  /* 3: the FIDE fields a TRF file carries */
  "ALTER TABLE registrations ADD COLUMN title TEXT NOT NULL DEFAULT '';"
  "ALTER TABLE registrations ADD COLUMN fed TEXT NOT NULL DEFAULT '';"
  "ALTER TABLE registrations ADD COLUMN fide_id TEXT NOT NULL DEFAULT '';",
  /* 4: the knockout stage's own append-only log (knockout.h): one 'start'
   * row (cut round, size, seeding, format, choice, seeds as "id,id,...")
   * and one 'game' row per game played */
  "CREATE TABLE ko_log("
  "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  kind TEXT NOT NULL CHECK (kind IN ('start', 'game')),"
  "  after_round INTEGER, size INTEGER, seeding INTEGER, format INTEGER, choice INTEGER,"
  "  seeds TEXT, match INTEGER, type INTEGER, red INTEGER, black INTEGER, res INTEGER);"
  "CREATE TRIGGER ko_log_no_update BEFORE UPDATE ON ko_log"
  "  BEGIN SELECT RAISE(ABORT, 'the knockout log is append-only'); END;"
  "CREATE TRIGGER ko_log_no_delete BEFORE DELETE ON ko_log"
  "  BEGIN SELECT RAISE(ABORT, 'the knockout log is append-only'); END;",
  /* 5: the live server (docs/store.md): access tokens, which are revoked
   * and never changed otherwise, and the append-only per-game log of the
   * events the adjudicator replays with the replies sent for them; a
   * board's sequence number is stored once per game and source */
  "CREATE TABLE tokens("
  "  token TEXT PRIMARY KEY CHECK (length(token) = 32),"
  "  role TEXT NOT NULL CHECK (role IN ('admin', 'arbiter', 'board', 'viewer')),"
  "  round INTEGER NOT NULL DEFAULT 0, board INTEGER NOT NULL DEFAULT 0,"
  "  label TEXT NOT NULL DEFAULT '',"
  "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  revoked_at TEXT);"
  "CREATE TRIGGER tokens_revoke_only BEFORE UPDATE ON tokens"
  "  WHEN OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL OR NEW.token IS NOT OLD.token"
  "    OR NEW.role IS NOT OLD.role OR NEW.round IS NOT OLD.round OR NEW.board IS NOT OLD.board"
  "    OR NEW.label IS NOT OLD.label OR NEW.created_at IS NOT OLD.created_at"
  "  BEGIN SELECT RAISE(ABORT, 'a token can only be revoked, once'); END;"
  "CREATE TRIGGER tokens_no_delete BEFORE DELETE ON tokens"
  "  BEGIN SELECT RAISE(ABORT, 'tokens are revoked, not deleted'); END;"
  "CREATE TABLE game_log("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  round INTEGER NOT NULL CHECK (round >= 1), board INTEGER NOT NULL CHECK (board >= 1),"
  "  source INTEGER NOT NULL CHECK (source BETWEEN 1 AND 3),"
  "  seq INTEGER NOT NULL CHECK (seq >= 0),"
  "  event TEXT NOT NULL, reply TEXT NOT NULL DEFAULT '', at_ms INTEGER NOT NULL);"
  /* seq leads: the boards of a tournament move in step, so the rows of one
   * group commit share a few index pages instead of one page per game
   * (the commit writes, and syncs, every page it touches) */
  "CREATE UNIQUE INDEX game_log_seq ON game_log(seq, round, board, source) WHERE seq > 0;"
  "CREATE TRIGGER game_log_no_update BEFORE UPDATE ON game_log"
  "  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;"
  "CREATE TRIGGER game_log_no_delete BEFORE DELETE ON game_log"
  "  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;",
  /* 6: tokens are kept hashed (docs/security.md): the table is rebuilt
   * with each token replaced by its SHA-256 in hex (xq_sha256, a function
   * of this connection), in the same order */
  "DROP TRIGGER tokens_revoke_only;"
  "DROP TRIGGER tokens_no_delete;"
  "CREATE TABLE tokens6("
  "  hash TEXT PRIMARY KEY CHECK (length(hash) = 64),"
  "  role TEXT NOT NULL CHECK (role IN ('admin', 'arbiter', 'board', 'viewer')),"
  "  round INTEGER NOT NULL DEFAULT 0, board INTEGER NOT NULL DEFAULT 0,"
  "  label TEXT NOT NULL DEFAULT '',"
  "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  revoked_at TEXT);"
  "INSERT INTO tokens6 SELECT xq_sha256(token), role, round, board, label, created_at, revoked_at"
  "  FROM tokens ORDER BY rowid;"
  "DROP TABLE tokens;"
  "ALTER TABLE tokens6 RENAME TO tokens;"
  "CREATE TRIGGER tokens_revoke_only BEFORE UPDATE ON tokens"
  "  WHEN OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL OR NEW.hash IS NOT OLD.hash"
  "    OR NEW.role IS NOT OLD.role OR NEW.round IS NOT OLD.round OR NEW.board IS NOT OLD.board"
  "    OR NEW.label IS NOT OLD.label OR NEW.created_at IS NOT OLD.created_at"
  "  BEGIN SELECT RAISE(ABORT, 'a token can only be revoked, once'); END;"
  "CREATE TRIGGER tokens_no_delete BEFORE DELETE ON tokens"
  "  BEGIN SELECT RAISE(ABORT, 'tokens are revoked, not deleted'); END;",
  /* 7: knockout games played on the live server (docs/store.md): the
   * games published to knockout tables, append-only like the log, and in
   * the knockout log the table a game's result came from */
  "CREATE TABLE ko_tables("
  "  board INTEGER PRIMARY KEY CHECK (board >= 1),"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  match INTEGER NOT NULL, type INTEGER NOT NULL, red INTEGER NOT NULL, black INTEGER NOT NULL);"
  "CREATE TRIGGER ko_tables_no_update BEFORE UPDATE ON ko_tables"
  "  BEGIN SELECT RAISE(ABORT, 'knockout tables are published, not changed'); END;"
  "CREATE TRIGGER ko_tables_no_delete BEFORE DELETE ON ko_tables"
  "  BEGIN SELECT RAISE(ABORT, 'knockout tables are published, not changed'); END;"
  "ALTER TABLE ko_log ADD COLUMN board INTEGER;"
  "CREATE UNIQUE INDEX ko_log_board ON ko_log(board) WHERE board IS NOT NULL;",
  /* 8: the arbiter's changes to a pairing before it was published
   * (xq_pairing_amend), in order, each with its reason */
  "CREATE TABLE pairing_changes(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  n INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('swap', 'colours', 'move')),"
  "  a INTEGER NOT NULL, b INTEGER NOT NULL, reason TEXT NOT NULL, PRIMARY KEY(seq, n));",
  /* 9: the players besides their registration (store_players.c,
   * docs/store.md): corrections of a player's details, a row per field
   * with its old and new text and the last event of the log when it was
   * made, applied over the registrations on replay; and the numbers of a
   * drawing before round 1 (a 'numbering' event without a round; the
   * numbers table holds one number per player for good, so drawings made
   * again need their own rows). Both append-only. */
  "CREATE TABLE player_edits("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  edit INTEGER NOT NULL, after_seq INTEGER NOT NULL,"
  "  player INTEGER NOT NULL REFERENCES registrations(player),"
  "  field TEXT NOT NULL CHECK (field IN ('name', 'sex', 'birth', 'region', 'club', 'team', 'rating', 'local')),"
  "  old TEXT NOT NULL, new TEXT NOT NULL);"
  "CREATE INDEX player_edits_after ON player_edits(after_seq);"
  "CREATE TRIGGER player_edits_no_update BEFORE UPDATE ON player_edits"
  "  BEGIN SELECT RAISE(ABORT, 'edits are appended, not changed'); END;"
  "CREATE TRIGGER player_edits_no_delete BEFORE DELETE ON player_edits"
  "  BEGIN SELECT RAISE(ABORT, 'edits are appended, not changed'); END;"
  "CREATE TABLE draw_numbers(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  player INTEGER NOT NULL REFERENCES registrations(player), pno INTEGER NOT NULL CHECK (pno >= 1),"
  "  PRIMARY KEY(seq, player), UNIQUE(seq, pno));"
  "CREATE TRIGGER draw_numbers_no_update BEFORE UPDATE ON draw_numbers"
  "  BEGIN SELECT RAISE(ABORT, 'drawn numbers are appended, not changed'); END;"
  "CREATE TRIGGER draw_numbers_no_delete BEFORE DELETE ON draw_numbers"
  "  BEGIN SELECT RAISE(ABORT, 'drawn numbers are appended, not changed'); END;",
};

#define XQ_STORE_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))
_Static_assert(XQ_STORE_MIGRATIONS == XQ_STORE_SCHEMA_VERSION,
               "one migration per schema version");

static int dberr(xq_tstore *st, xq_error *err, const char *what)
{
  if (err) {
    err->code = XQ_ESTORE; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.40s: %.110s", what, st && st->db ? sqlite3_errmsg(st->db) : "no database");
  }
  return XQ_ESTORE;
}

static int usererr(xq_error *err, int code, const char *msg)
{
  if (err) {
    err->code = code; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.150s", msg);
  }
  return code;
}

static int exec(xq_tstore *st, const char *sql)
{
  return sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK ? XQ_OK : XQ_ESTORE;
}

void xq__store_lock(xq_tstore *st) { sqlite3_mutex_enter(sqlite3_db_mutex(st->db)); }
void xq__store_unlock(xq_tstore *st) { sqlite3_mutex_leave(sqlite3_db_mutex(st->db)); }

/* Transactions nest: the outermost level is BEGIN (IMMEDIATE for writes,
 * so a writer waits for the write lock up front instead of failing half
 * way) ... COMMIT; inner levels, such as a write inside an open batch,
 * are savepoints that a failure rolls back alone. */
int xq__store_begin(xq_tstore *st, int write, xq_error *err)
{
  if (xq__store_writable(st, err)) return XQ_ESTORE;
  const char *sql = st->depth ? "SAVEPOINT xq_tx" : write ? "BEGIN IMMEDIATE" : "BEGIN";
  if (exec(st, sql)) return dberr(st, err, "begin");
  st->depth++;
  return XQ_OK;
}

/* After a failure inside a transaction: some errors (disk full, I/O,
 * out of memory) make SQLite roll the whole transaction back on its own.
 * A batch that lost its transaction refuses writes until it is closed. */
static void check_lost(xq_tstore *st)
{
  if (st->depth > 0 && sqlite3_get_autocommit(st->db)) {
    st->depth = 0;
    if (st->batch) st->lost = 1;
  }
}

void xq__store_rollback(xq_tstore *st)
{
  if (st->depth <= 0) return;
  if (st->depth == 1) {
    exec(st, "ROLLBACK");
    st->depth = 0;
    return;
  }
  exec(st, "ROLLBACK TO xq_tx");
  exec(st, "RELEASE xq_tx");
  st->depth--;
  check_lost(st);
}

int xq__store_commit(xq_tstore *st, xq_error *err)
{
  if (st->depth <= 0) return usererr(err, XQ_ESTORE, "no transaction to commit");
  if (exec(st, st->depth == 1 ? "COMMIT" : "RELEASE xq_tx")) {
    int rc = dberr(st, err, "commit");
    xq__store_rollback(st);
    return rc;
  }
  st->depth--;
  return XQ_OK;
}

void xq__store_failed(xq_tstore *st) { check_lost(st); }

int xq__store_writable(xq_tstore *st, xq_error *err)
{
  return st->lost ? usererr(err, XQ_ESTORE, "the open batch failed and was rolled back: close it first") : XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Group commit                                                        */
/* ------------------------------------------------------------------ */

int xq_tstore_batch_begin(xq_tstore *st, xq_error *err)
{
  if (!st) return usererr(err, XQ_EINVAL, "no store");
  xq__store_lock(st);
  int rc;
  if (st->batch || st->depth) rc = usererr(err, XQ_EINVAL, "a batch or a transaction is already open");
  else if (!(rc = xq__store_begin(st, 1, err))) st->batch = 1;
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_batch_commit(xq_tstore *st, xq_error *err)
{
  if (!st) return usererr(err, XQ_EINVAL, "no store");
  xq__store_lock(st);
  int rc;
  if (!st->batch) {
    rc = usererr(err, XQ_EINVAL, "no batch is open");
  } else if (st->lost) {
    rc = usererr(err, XQ_ESTORE, "the batch failed and was rolled back");
    st->batch = st->lost = 0;
  } else if (st->depth != 1) {
    rc = usererr(err, XQ_EINVAL, "a write inside the batch is still running");
  } else {
    /* synchronous=FULL: COMMIT returns once the WAL is on disk */
    rc = xq__store_commit(st, err);
    st->batch = 0;
  }
  xq__store_unlock(st);
  return rc;
}

void xq_tstore_batch_rollback(xq_tstore *st)
{
  if (!st) return;
  xq__store_lock(st);
  if (st->batch) {
    if (!st->lost) {
      exec(st, "ROLLBACK");
      st->depth = 0;
    }
    st->batch = st->lost = 0;
  }
  xq__store_unlock(st);
}

int xq_tstore_in_batch(xq_tstore *st)
{
  if (!st) return 0;
  xq__store_lock(st);
  int b = st->batch;
  xq__store_unlock(st);
  return b;
}

sqlite3_stmt *xq__store_stmt(xq_tstore *st, int which, const char *sql)
{
  if (which < 0 || which >= XQ__STORE_Q_COUNT) return NULL;
  if (!st->q[which] &&
      sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st->q[which], NULL) != SQLITE_OK)
    st->q[which] = NULL;
  if (st->q[which]) {
    sqlite3_reset(st->q[which]);
    sqlite3_clear_bindings(st->q[which]);
  }
  return st->q[which];
}

static int begin(xq_tstore *st, xq_error *err) { return xq__store_begin(st, 1, err); }
static int commit(xq_tstore *st, xq_error *err) { return xq__store_commit(st, err); }
static void rollback(xq_tstore *st) { xq__store_rollback(st); }

/* One integer from a query with up to two integer parameters; `dflt`
 * when there is no row. */
static int64_t scalar(xq_tstore *st, const char *sql, int64_t a, int64_t b, int64_t dflt)
{
  sqlite3_stmt *q;
  int64_t v = dflt;
  if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK) return dflt;
  int np = sqlite3_bind_parameter_count(q);
  if (np >= 1) sqlite3_bind_int64(q, 1, a);
  if (np >= 2) sqlite3_bind_int64(q, 2, b);
  if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL) v = sqlite3_column_int64(q, 0);
  sqlite3_finalize(q);
  return v;
}

/* SQL xq_sha256(text): the SHA-256 of a text in lowercase hex, NULL for
 * NULL (migration 6 hashes the tokens of a schema-5 store with it). */
static void sql_sha256(sqlite3_context *ctx, int nargs, sqlite3_value **args)
{
  (void)nargs;
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  const unsigned char *t = sqlite3_value_text(args[0]);
  char hex[2 * XQ_SHA256_LEN + 1];
  xq_sha256_hex(t, (size_t)sqlite3_value_bytes(args[0]), hex);
  sqlite3_result_text(ctx, hex, -1, SQLITE_TRANSIENT);
}

static int migrate(xq_tstore *st, xq_error *err)
{
  int has_version = (int)scalar(st, "SELECT count(*) FROM sqlite_master WHERE name = 'schema_version'", 0, 0, 0);
  int tables = (int)scalar(st, "SELECT count(*) FROM sqlite_master", 0, 0, -1);
  if (tables < 0) return dberr(st, err, "cannot read the schema");
  if (!has_version && tables > 0)
    return usererr(err, XQ_ESTORE, "not an xqref event store (no schema_version table)");
  if (!has_version) {
    if (begin(st, err)) return XQ_ESTORE;
    if (exec(st, "CREATE TABLE schema_version(version INTEGER NOT NULL);"
                 "INSERT INTO schema_version VALUES (0);")) {
      rollback(st);
      return dberr(st, err, "create schema_version");
    }
    if (commit(st, err)) return XQ_ESTORE;
  }
  int v = (int)scalar(st, "SELECT version FROM schema_version", 0, 0, -1);
  if (v < 0) return usererr(err, XQ_ESTORE, "schema_version table is empty");
  if (v > XQ_STORE_SCHEMA_VERSION)
    return usererr(err, XQ_ESTORE, "the store was written by a newer xqref (schema too new)");
  /* one transaction per step: a crash between steps leaves a store at a
   * known version, which the next open continues from */
  for (; v < XQ_STORE_SCHEMA_VERSION; v++) {
    char sql[64];
    if (begin(st, err)) return XQ_ESTORE;
    snprintf(sql, sizeof sql, "UPDATE schema_version SET version = %d", v + 1);
    if (exec(st, migrations[v]) || exec(st, sql)) {
      int rc = dberr(st, err, "migration");
      rollback(st);
      return rc;
    }
    if (commit(st, err)) return XQ_ESTORE;
  }
  st->version = v;
  return XQ_OK;
}

/* The system's reason for the last failure on st->db when it was one of
 * opening or I/O (SQLite keeps the errno of those only), else 0. */
static int sys_errno(xq_tstore *st)
{
  int ec = st->db ? sqlite3_errcode(st->db) & 0xff : 0;
  return ec == SQLITE_CANTOPEN || ec == SQLITE_IOERR ? sqlite3_system_errno(st->db) : 0;
}

/* SQLite's own words for the last failure on st->db, after `what`; with
 * the system's reason when SQLite has one (a file it could not open). */
static int sqlerr(xq_tstore *st, xq_error *err, int code, const char *what)
{
  if (err) {
    int sys = sys_errno(st);
    err->code = code; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.30s%s%.70s%s%.40s%s", what, what[0] ? ": " : "",
             st->db ? sqlite3_errmsg(st->db) : "out of memory", sys ? " (" : "", sys ? strerror(sys) : "",
             sys ? ")" : "");
  }
  return code;
}

/* What an existing file is before SQLite touches it: an empty (0-byte)
 * file is a new store only for XQ_TSTORE_INIT. Anything else (a missing
 * path, a directory, a file that is not a database) is left to SQLite,
 * which says what is wrong with it. */
static int check_file(const char *path, int mode, xq_error *err)
{
  struct stat sb;
  if (mode == XQ_TSTORE_INIT || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > 0)
    return XQ_OK;
  return usererr(err, XQ_ESTORE,
                 mode == XQ_TSTORE_CREATE ? "the file is empty (0 bytes); --init makes a new store in it"
                                          : "the file is empty (0 bytes), not an event store");
}

/* sqlite3_open_v2 failed. When it could not create a missing file, the
 * system's reason it keeps is that of its read-only retry ("No such file
 * or directory"); the directory's own refusal is the one to tell. */
static int open_failed(xq_tstore *st, const char *path, int mode, xq_error *err)
{
  if (mode == XQ_TSTORE_OPEN || sys_errno(st) != ENOENT) return sqlerr(st, err, XQ_EIO, "");
  char dir[4096];
  const char *slash = strrchr(path, '/');
  size_t n = slash ? (size_t)(slash - path) + (slash == path) : 0;
  if (n >= sizeof dir) return sqlerr(st, err, XQ_EIO, "");
  memcpy(dir, path, n);
  strcpy(dir + n, n ? "" : ".");
  struct stat sb;
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(dir, W_OK | X_OK) == 0)
    return sqlerr(st, err, XQ_EIO, "");
  return xq_error_set(err, XQ_EIO, -1, -1, "%.70s (directory: %.40s)", sqlite3_errmsg(st->db), strerror(errno));
}

/* Open st->db on `path` and set it up: WAL, synchronous=FULL, foreign
 * keys, xq_sha256, the schema migrated. `err` says what failed in
 * SQLite's words, without the path. */
static int open_db(xq_tstore *st, const char *path, int mode, xq_error *err)
{
  int rc = check_file(path, mode, err);
  if (rc) return rc;
  /* serialized: the server commits on a worker thread, reads on its loop */
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (mode != XQ_TSTORE_OPEN ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) return open_failed(st, path, mode, err);
  sqlite3_busy_timeout(st->db, XQ_STORE_BUSY_MS);
  /* WAL + synchronous=FULL: every COMMIT is durable (tourney.md §2). This
   * is the first statement that reads the file: one that is not a
   * database, or is damaged or cannot be written, fails here. */
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(st->db, "PRAGMA journal_mode=WAL", -1, &q, NULL) != SQLITE_OK)
    return sqlerr(st, err, XQ_ESTORE, "");
  int step = sqlite3_step(q);
  const char *jm = step == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
  if (step != SQLITE_ROW) rc = sqlerr(st, err, XQ_ESTORE, "cannot switch to WAL mode");
  else if (!jm || strcmp(jm, "wal"))
    rc = xq_error_set(err, XQ_ESTORE, -1, -1, "cannot switch to WAL mode (the journal stays '%.20s')",
                      jm ? jm : "?");
  sqlite3_finalize(q);
  if (rc) return rc;
  if (exec(st, "PRAGMA synchronous=FULL") || exec(st, "PRAGMA foreign_keys=ON"))
    return sqlerr(st, err, XQ_ESTORE, "pragma");
  if (sqlite3_create_function(st->db, "xq_sha256", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_sha256,
                              NULL, NULL) != SQLITE_OK)
    return sqlerr(st, err, XQ_ESTORE, "register xq_sha256");
  return migrate(st, err);
}

int xq_tstore_open(const char *path, int mode, xq_tstore **out, xq_error *err)
{
  if (!path || !out || mode < XQ_TSTORE_OPEN || mode > XQ_TSTORE_INIT)
    return usererr(err, XQ_EINVAL, "bad arguments to open a store");
  *out = NULL;
  xq_tstore *st = calloc(1, sizeof *st);
  if (!st) return usererr(err, XQ_ENOMEM, "out of memory");
  xq_error why = {0};
  int rc = open_db(st, path, mode, &why);
  if (rc) {
    /* the path, its tail when it is long (the file's name), then why */
    size_t n = strlen(path);
    xq_error_set(err, rc, -1, -1, "cannot open %s%s: %s", n > 60 ? "..." : "", path + (n > 60 ? n - 57 : 0),
                 why.msg);
    sqlite3_close(st->db);
    free(st);
    return rc;
  }
  *out = st;
  return XQ_OK;
}

void xq_tstore_close(xq_tstore *st)
{
  if (!st) return;
  for (int i = 0; i < XQ__STORE_Q_COUNT; i++) sqlite3_finalize(st->q[i]);
  sqlite3_close(st->db); /* an open batch is rolled back */
  free(st);
}

int xq_tstore_schema_version(xq_tstore *st) { return st ? st->version : 0; }

sqlite3 *xq__store_db(xq_tstore *st) { return st ? st->db : NULL; }

long xq_tstore_event_count(xq_tstore *st)
{
  if (!st) return XQ_EINVAL;
  return (long)scalar(st, "SELECT count(*) FROM events", 0, 0, XQ_ESTORE);
}

/* True when the store holds nothing at all: no event, no log rows, no
 * tokens; -1 when it cannot tell. */
static int store_empty(xq_tstore *st)
{
  sqlite3_stmt *q;
  int empty = 0;
  if (sqlite3_prepare_v2(st->db, "SELECT (SELECT count(*) FROM meta) + (SELECT count(*) FROM events)"
                         " + (SELECT count(*) FROM ko_log) + (SELECT count(*) FROM tokens)"
                         " + (SELECT count(*) FROM game_log)", -1, &q, NULL) != SQLITE_OK)
    return -1;
  if (sqlite3_step(q) == SQLITE_ROW) empty = sqlite3_column_int64(q, 0) == 0;
  else empty = -1;
  sqlite3_finalize(q);
  return empty;
}

int xq__store_fill_new(xq_tstore *st, const char *what, int (*fill)(void *ctx, xq_error *err), void *ctx,
                        xq_error *err)
{
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err);
  if (!rc) {
    int empty = store_empty(st);
    if (empty < 0) rc = xq__error(err, XQ_ESTORE, "%.30s: %.120s", what, sqlite3_errmsg(st->db));
    else if (!empty) rc = xq__error(err, XQ_EINVAL, "the store is not empty: a %.30s needs a new store", what);
    else rc = fill(ctx, err);
    if (rc) xq__store_rollback(st);
    else rc = xq__store_commit(st, err);
  }
  xq__store_unlock(st);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

typedef struct cfgkey { const char *key; size_t off; } cfgkey;
#define K(f) {#f, offsetof(xq_tconfig, f)}
static const cfgkey cfg_keys[] = {
  K(rounds), K(win), K(draw), K(loss), K(pab), K(fwin), K(floss), K(first_round),
  K(max_colour_diff), K(forbid_three), K(last_round_relax), K(forfeit_counts_as_met),
  K(missed_rounds_withdraw), K(withdraw_consecutive), K(wins_count_forfeits), K(bye_os), K(de_mode),
};
#undef K

static int put_meta(xq_tstore *st, const char *key, const char *value)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(st->db, "INSERT INTO meta(key, value) VALUES (?, ?)", -1, &q, NULL) != SQLITE_OK)
    return XQ_ESTORE;
  sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, 2, value, -1, SQLITE_STATIC);
  int ok = sqlite3_step(q) == SQLITE_DONE;
  sqlite3_finalize(q);
  return ok ? XQ_OK : XQ_ESTORE;
}

/* The bodies below run inside a transaction the caller opened; on failure
 * they return a code (err filled) and the caller rolls back. Each public
 * write is one transaction around one body; xq_tstore_import runs many
 * bodies in one transaction. */

static int create_tx(xq_tstore *st, const char *name, const xq_tconfig *cfg, xq_error *err)
{
  if (xq_utf8_len(name) < 0 || strlen(name) >= XQ_TOURNEY_NAME_MAX)
    return usererr(err, XQ_EINVAL, "event name must be valid UTF-8 under 256 bytes");
  if (scalar(st, "SELECT count(*) FROM meta", 0, 0, 0))
    return usererr(err, XQ_EINVAL, "this store already holds an event");
  char buf[64], tb[256];
  int rc = put_meta(st, "name", name);
  for (size_t i = 0; !rc && i < sizeof cfg_keys / sizeof cfg_keys[0]; i++) {
    snprintf(buf, sizeof buf, "%d", *(const int *)((const char *)cfg + cfg_keys[i].off));
    rc = put_meta(st, cfg_keys[i].key, buf);
  }
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)cfg->lot_seed);
  if (!rc) rc = put_meta(st, "lot_seed", buf);
  if (!rc) rc = xq_tconfig_tb_format(cfg, tb, sizeof tb) ? XQ_ESTORE : put_meta(st, "tiebreaks", tb);
  return rc ? dberr(st, err, "create event") : XQ_OK;
}

/* Run `body` in its own transaction (a savepoint inside an open batch),
 * holding the store's lock. */
#define XQ_TX(st, err, body)                                  \
  do {                                                        \
    xq__store_lock(st);                                      \
    int rc_ = begin((st), (err));                             \
    if (!rc_) {                                               \
      rc_ = (body);                                           \
      if (rc_) rollback(st);                                  \
      else rc_ = commit((st), (err));                         \
    }                                                         \
    xq__store_unlock(st);                                    \
    return rc_;                                               \
  } while (0)

int xq_tstore_create_event(xq_tstore *st, const char *name, const xq_tconfig *cfg, xq_error *err)
{
  if (!st || !name || !cfg) return XQ_EINVAL;
  XQ_TX(st, err, create_tx(st, name, cfg, err));
}

/* ------------------------------------------------------------------ */
/* Appending events                                                    */
/* ------------------------------------------------------------------ */

/* Insert one event row; returns its seq or -1. */
static int64_t add_event(xq_tstore *st, const char *kind, int round, int player, int board,
                         int value, const char *code)
{
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_ADD_EVENT, "INSERT INTO events(kind, round, player, board,"
                                    " value, code) VALUES (?, ?, ?, ?, ?, ?)");
  if (!q) return -1;
  sqlite3_bind_text(q, 1, kind, -1, SQLITE_STATIC);
  if (round) sqlite3_bind_int(q, 2, round);
  if (player) sqlite3_bind_int(q, 3, player);
  if (board) sqlite3_bind_int(q, 4, board);
  sqlite3_bind_int(q, 5, value);
  if (code) sqlite3_bind_text(q, 6, code, -1, SQLITE_STATIC);
  int ok = sqlite3_step(q) == SQLITE_DONE;
  sqlite3_reset(q);
  return ok ? sqlite3_last_insert_rowid(st->db) : -1;
}

static int need_event(xq_tstore *st, xq_error *err)
{
  if (!scalar(st, "SELECT count(*) FROM meta WHERE key = 'name'", 0, 0, 0))
    return usererr(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)");
  return XQ_OK;
}

static int register_tx(xq_tstore *st, const xq_tplayer *c, int *id, xq_error *err)
{
  int rc;
  if ((rc = need_event(st, err))) return rc;
  int next = (int)scalar(st, "SELECT count(*) FROM registrations", 0, 0, 0) + 1;
  if (next > XQ_TOURNEY_PLAYERS_MAX) return usererr(err, XQ_ELIMIT, "too many players");
  int64_t seq = add_event(st, "register", 0, next, 0, 0, NULL);
  sqlite3_stmt *q = NULL;
  int ok = seq > 0 &&
    sqlite3_prepare_v2(st->db, "INSERT INTO registrations(seq, player, name, rating, birth, sex,"
                       " region, club, team, local, title, fed, fide_id)"
                       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &q, NULL) == SQLITE_OK;
  if (ok) {
    char sex[2] = {c->sex, 0};
    sqlite3_bind_int64(q, 1, seq);
    sqlite3_bind_int(q, 2, next);
    sqlite3_bind_text(q, 3, c->name, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, c->rating);
    sqlite3_bind_text(q, 5, c->birth, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, sex, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 7, c->region, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 8, c->club, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 9, c->team, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 10, c->local != 0);
    sqlite3_bind_text(q, 11, c->title, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 12, c->fed, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 13, c->fide_id, -1, SQLITE_STATIC);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  if (!ok) return dberr(st, err, "register");
  if (id) *id = next;
  return XQ_OK;
}

int xq_tstore_register(xq_tstore *st, const xq_tplayer *p, int *id, xq_error *err)
{
  if (!st || !p) return XQ_EINVAL;
  xq_tplayer c = *p;
  int rc = xq_player_check(&c, err);
  if (rc) return rc;
  c.title[sizeof c.title - 1] = c.fed[sizeof c.fed - 1] = c.fide_id[sizeof c.fide_id - 1] = 0;
  XQ_TX(st, err, register_tx(st, &c, id, err));
}

/* The changes ch[0..n) of the pairing event `seq`. 1, or 0 on failure. */
static int changes_insert(xq_tstore *st, int64_t seq, const xq_tchange *ch, int n)
{
  static const char *const kinds[] = {"", "swap", "colours", "move"};
  sqlite3_stmt *q = NULL;
  int ok = !n || sqlite3_prepare_v2(st->db, "INSERT INTO pairing_changes(seq, n, kind, a, b, reason)"
                                    " VALUES (?,?,?,?,?,?)", -1, &q, NULL) == SQLITE_OK;
  for (int k = 0; ok && k < n; k++) {
    if (ch[k].kind < XQ_TCH_SWAP || ch[k].kind > XQ_TCH_MOVE) { ok = 0; break; }
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, seq);
    sqlite3_bind_int(q, 2, k + 1);
    sqlite3_bind_text(q, 3, kinds[ch[k].kind], -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, ch[k].a);
    sqlite3_bind_int(q, 5, ch[k].b);
    sqlite3_bind_text(q, 6, ch[k].reason, -1, SQLITE_TRANSIENT);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  return ok;
}

static int publish_tx(xq_tstore *st, const xq_tevent *ev, const xq_tpairing *pr, const xq_tchange *ch, int nch,
                      xq_error *err)
{
  int rc;
  if ((rc = need_event(st, err))) return rc;
  if (scalar(st, "SELECT count(*) FROM events WHERE kind = 'pairing' AND round = ?", pr->round, 0, 0))
    return usererr(err, XQ_EINVAL, "this round is already paired");
  int nplayers = (int)scalar(st, "SELECT count(*) FROM registrations", 0, 0, 0);
  uint8_t *seen = calloc((size_t)nplayers + 1, 1);
  if (!seen) return XQ_ENOMEM;
  for (int b = 0; b < pr->nboards; b++) {
    int r = pr->boards[b].red, k = pr->boards[b].black;
    if (r < 1 || r > nplayers || k < 0 || k > nplayers || seen[r]++ || (k && seen[k]++)) {
      free(seen);
      return usererr(err, XQ_EINVAL, "pairing names an unknown player or one player twice");
    }
  }
  free(seen);
  sqlite3_stmt *q = NULL;
  int ok = 1;
  /* pairing numbers not yet recorded (round 1, late entries) go first */
  int64_t nseq = 0;
  for (int id = 1; ok && id <= ev->n && id <= nplayers; id++) {
    if (!ev->players[id - 1].pno) continue;
    if (scalar(st, "SELECT count(*) FROM numbers WHERE player = ?", id, 0, 0)) continue;
    if (!nseq && (nseq = add_event(st, "numbering", pr->round, 0, 0, 0, NULL)) < 0) { ok = 0; break; }
    ok = sqlite3_prepare_v2(st->db, "INSERT INTO numbers(seq, player, pno) VALUES (?,?,?)", -1, &q, NULL) == SQLITE_OK;
    if (ok) {
      sqlite3_bind_int64(q, 1, nseq);
      sqlite3_bind_int(q, 2, id);
      sqlite3_bind_int(q, 3, ev->players[id - 1].pno);
      ok = sqlite3_step(q) == SQLITE_DONE;
    }
    sqlite3_finalize(q);
    q = NULL;
  }
  int64_t seq = ok ? add_event(st, "pairing", pr->round, 0, 0, pr->nboards, NULL) : -1;
  ok = seq > 0 && sqlite3_prepare_v2(st->db, "INSERT INTO pairing_boards(seq, board, red, black)"
                                     " VALUES (?,?,?,?)", -1, &q, NULL) == SQLITE_OK;
  for (int b = 0; ok && b < pr->nboards; b++) {
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, seq);
    sqlite3_bind_int(q, 2, b + 1);
    sqlite3_bind_int(q, 3, pr->boards[b].red);
    sqlite3_bind_int(q, 4, pr->boards[b].black);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  ok = ok && changes_insert(st, seq, ch, nch);
  return ok ? XQ_OK : dberr(st, err, "publish pairing");
}

int xq_tstore_publish(xq_tstore *st, const xq_tevent *ev, const xq_tpairing *pr, xq_error *err)
{
  return xq_tstore_publish_amended(st, ev, pr, NULL, 0, err);
}

int xq_tstore_publish_amended(xq_tstore *st, const xq_tevent *ev, const xq_tpairing *pr, const xq_tchange *ch,
                              int n, xq_error *err)
{
  if (!st || !ev || !pr || pr->round < 1 || pr->round > XQ_TOURNEY_ROUNDS_MAX || n < 0 || (n && !ch))
    return XQ_EINVAL;
  XQ_TX(st, err, publish_tx(st, ev, pr, ch, n, err));
}

int xq_tstore_pairing(xq_tstore *st, int round, xq_tpairing *out, xq_error *err)
{
  sqlite3 *db = st ? st->db : NULL;
  sqlite3_stmt *q;
  if (!db || !out) return XQ_EINVAL;
  memset(out, 0, sizeof *out);
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) {
    if (err) {
      err->code = XQ_EINVAL; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "no round is paired yet");
      if (round > 0) snprintf(err->msg, sizeof err->msg, "round %d is not paired", round);
    }
    return XQ_EINVAL;
  }
  /* a round is published once (xq_tstore_publish); take its boards in order */
  if (sqlite3_prepare_v2(db, "SELECT b.red, b.black FROM pairing_boards b JOIN events e"
                         " ON e.seq = b.seq WHERE e.kind = 'pairing' AND e.round = ?"
                         " ORDER BY b.board", -1, &q, NULL) != SQLITE_OK) {
    if (err) {
      err->code = XQ_ESTORE; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "read pairing: %.100s", sqlite3_errmsg(db));
    }
    return XQ_ESTORE;
  }
  sqlite3_bind_int(q, 1, round);
  int cap = 0, rc = XQ_OK, step;
  while ((step = sqlite3_step(q)) == SQLITE_ROW) {
    if (out->nboards == cap) {
      int ncap = cap ? cap * 2 : 16;
      if (out->nboards >= XQ_TOURNEY_PLAYERS_MAX) { rc = XQ_ELIMIT; break; }
      xq_tboard *nb = realloc(out->boards, sizeof *nb * (size_t)ncap);
      if (!nb) { rc = XQ_ENOMEM; break; }
      out->boards = nb;
      cap = ncap;
    }
    out->boards[out->nboards].red = sqlite3_column_int(q, 0);
    out->boards[out->nboards].black = sqlite3_column_int(q, 1);
    out->nboards++;
  }
  if (rc == XQ_OK && step != SQLITE_DONE) rc = XQ_ESTORE;
  sqlite3_finalize(q);
  if (rc == XQ_OK && !out->nboards) rc = XQ_EINVAL;
  if (rc) {
    xq_tpairing_clear(out);
    out->nboards = 0;
    if (err) {
      err->code = rc; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, rc == XQ_EINVAL ? "round %d is not paired"
               : rc == XQ_ENOMEM ? "out of memory reading round %d"
               : rc == XQ_ELIMIT ? "round %d has too many boards" : "cannot read round %d",
               round);
    }
    return rc;
  }
  out->round = round;
  return XQ_OK;
}

/* Red and Black of a published board, or XQ_EINVAL. */
static int board_players(xq_tstore *st, int round, int board, int *red, int *black)
{
  sqlite3_stmt *q;
  int rc = XQ_EINVAL;
  if (sqlite3_prepare_v2(st->db, "SELECT b.red, b.black FROM pairing_boards b JOIN events e"
                         " ON e.seq = b.seq WHERE e.kind = 'pairing' AND e.round = ? AND b.board = ?",
                         -1, &q, NULL) != SQLITE_OK)
    return XQ_ESTORE;
  sqlite3_bind_int(q, 1, round);
  sqlite3_bind_int(q, 2, board);
  if (sqlite3_step(q) == SQLITE_ROW) {
    *red = sqlite3_column_int(q, 0);
    *black = sqlite3_column_int(q, 1);
    rc = XQ_OK;
  }
  sqlite3_finalize(q);
  return rc;
}

/* Normalise a result code; returns the canonical text or NULL. */
static const char *result_code(const char *c, int *forfeit)
{
  static const struct { const char *in, *out; int forfeit; } map[] = {
    {"1-0", "1-0", 0}, {"0-1", "0-1", 0}, {"=", "=", 0}, {"1/2", "=", 0}, {"0.5-0.5", "=", 0},
    {"2-0", "1-0", 0}, {"0-2", "0-1", 0}, {"1-1", "=", 0},
    {"+-", "+-", 1}, {"-+", "-+", 1}, {"--", "--", 1},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(c, map[i].in)) { *forfeit = map[i].forfeit; return map[i].out; }
  return NULL;
}

static int result_tx(xq_tstore *st, int round, int board, const char *code, xq_error *err)
{
  int forfeit, red, black, rc;
  const char *c = result_code(code, &forfeit);
  if (!c) return usererr(err, XQ_EINVAL, "result must be 1-0, 0-1, =, +-, -+ or --");
  if ((rc = board_players(st, round, board, &red, &black)))
    return rc == XQ_ESTORE ? dberr(st, err, "result") : usererr(err, XQ_EINVAL, "no such board in that round");
  if (!black) return usererr(err, XQ_EINVAL, "that board is the bye");
  if (add_event(st, forfeit ? "forfeit" : "result", round, 0, board, 0, c) < 0)
    return dberr(st, err, "result");
  return XQ_OK;
}

int xq_tstore_result(xq_tstore *st, int round, int board, const char *code, xq_error *err)
{
  if (!st || !code) return XQ_EINVAL;
  if (round == XQ_KO_ROUND) {
    /* a knockout table's game (knockout.h) */
    int res;
    if (xq_ko_result_code(code, &res))
      return usererr(err, XQ_EINVAL, "a knockout result is 1-0, 0-1, =, +- or -+");
    return xq_tstore_ko_result(st, board, res, err);
  }
  XQ_TX(st, err, result_tx(st, round, board, code, err));
}

static int player_event_tx(xq_tstore *st, const char *kind, int round, int id, int value, xq_error *err)
{
  int rc;
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return usererr(err, XQ_EINVAL, "bad round");
  if ((rc = need_event(st, err))) return rc;
  if (id < 1 || id > scalar(st, "SELECT count(*) FROM registrations", 0, 0, 0))
    return usererr(err, XQ_EINVAL, "no such player");
  if (!strcmp(kind, "absence") &&
      scalar(st, "SELECT count(*) FROM events WHERE kind = 'pairing' AND round = ?", round, 0, 0))
    return usererr(err, XQ_EINVAL, "that round is already paired");
  if (add_event(st, kind, round, id, 0, value, NULL) < 0) return dberr(st, err, kind);
  return XQ_OK;
}

int xq_tstore_foul(xq_tstore *st, int round, int id, int count, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (count < 1 || count > 99) return usererr(err, XQ_EINVAL, "foul count must be 1..99");
  XQ_TX(st, err, player_event_tx(st, "foul", round, id, count, err));
}

/* The value of an absence event: 0 zero-point, 1 half-point, 2 full-point bye. */
static int bye_value(int bye)
{
  return bye == XQ_TR_HPB ? 1 : bye == XQ_TR_FPB ? 2 : 0;
}

int xq_tstore_absence(xq_tstore *st, int round, int id, int bye, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (bye != XQ_TR_ZPB && bye != XQ_TR_HPB && bye != XQ_TR_FPB)
    return usererr(err, XQ_EINVAL, "an absence is a zero-, half- or full-point bye");
  XQ_TX(st, err, player_event_tx(st, "absence", round, id, bye_value(bye), err));
}

int xq_tstore_withdraw(xq_tstore *st, int round, int id, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  XQ_TX(st, err, player_event_tx(st, "withdrawal", round, id, 0, err));
}

/* A withdrawal is taken back with a withdrawal event of value 1: the
 * events' kinds are fixed by the table's CHECK, and the withdrawal
 * itself stays on the record. */
static int reinstate_tx(xq_tstore *st, int round, int id, xq_error *err)
{
  int rc;
  if ((rc = need_event(st, err))) return rc;
  if (id < 1 || id > scalar(st, "SELECT count(*) FROM registrations", 0, 0, 0))
    return usererr(err, XQ_EINVAL, "no such player");
  if (scalar(st, "SELECT value FROM events WHERE kind = 'withdrawal' AND player = ? ORDER BY seq DESC LIMIT 1", id,
             0, 1) != 0)
    return usererr(err, XQ_EINVAL, "that player is not withdrawn");
  if (scalar(st, "SELECT count(*) FROM events WHERE kind = 'pairing' AND round >= ?", round, 0, 0))
    return usererr(err, XQ_EINVAL, "that round is already paired: a player comes back from the next one");
  if (add_event(st, "withdrawal", round, id, 0, 1, NULL) < 0) return dberr(st, err, "reinstate");
  return XQ_OK;
}

int xq_tstore_reinstate(xq_tstore *st, int round, int id, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return usererr(err, XQ_EINVAL, "bad round");
  XQ_TX(st, err, reinstate_tx(st, round, id, err));
}

/* ------------------------------------------------------------------ */
/* Import                                                              */
/* ------------------------------------------------------------------ */

/* The result code of a TRF board from Red's and Black's slots. */
static const char *board_code(int r, int b)
{
  if (r == XQ_TR_WIN && b == XQ_TR_LOSS) return "1-0";
  if (r == XQ_TR_LOSS && b == XQ_TR_WIN) return "0-1";
  if (r == XQ_TR_DRAW && b == XQ_TR_DRAW) return "=";
  if (r == XQ_TR_FWIN && b == XQ_TR_FLOSS) return "+-";
  if (r == XQ_TR_FLOSS && b == XQ_TR_FWIN) return "-+";
  if (r == XQ_TR_FLOSS && b == XQ_TR_FLOSS) return "--";
  return NULL;
}

static int import_tx(xq_tstore *st, const xq_tevent *ev, const xq_tconfig *cfg, xq_error *err)
{
  int rc = create_tx(st, ev->name, cfg, err);
  if (rc) return rc;
  /* players in TRF order: the store's ids are then the TRF numbers */
  for (int id = 1; id <= ev->n; id++) {
    xq_tplayer p = ev->players[id - 1];
    if (xq_player_check(&p, NULL) && p.birth[0]) p.birth[0] = 0; /* TRF's 1990/00/00 */
    if ((rc = xq_player_check(&p, err))) return rc;
    if ((rc = register_tx(st, &p, NULL, err))) return rc;
  }
  xq_tpairing pr = {0};
  pr.boards = malloc(sizeof *pr.boards * (size_t)(ev->n / 2 + 2));
  if (!pr.boards) return XQ_ENOMEM;
  for (int r = 1; r <= ev->nrounds && !rc; r++) {
    pr.round = r;
    pr.nboards = 0;
    for (int id = 1; id <= ev->n && !rc; id++) {
      const xq_tslot *s = xq_tevent_slot(ev, id, r);
      if (s->res == XQ_TR_ZPB || s->res == XQ_TR_KO || s->res == XQ_TR_HPB || s->res == XQ_TR_FPB) {
        rc = player_event_tx(st, "absence", r, id, bye_value(s->res), err);
      } else if (s->res == XQ_TR_PAB) {
        pr.boards[pr.nboards++] = (xq_tboard){id, 0};
      } else if (!s->opp && s->res != XQ_TR_NONE) {
        char m[96];
        snprintf(m, sizeof m, "round %d, player %d: a forfeit without an opponent cannot be stored", r, id);
        rc = usererr(err, XQ_EINVAL, m);
      } else if (s->opp && s->colour == XQ_TC_RED) {
        pr.boards[pr.nboards++] = (xq_tboard){id, s->opp};
      }
    }
    if (rc || pr.nboards == 0) continue; /* absences only: the round to pair */
    xq__pair_sort_boards(ev, &pr);
    if ((rc = publish_tx(st, ev, &pr, NULL, 0, err))) break;
    for (int b = 0; b < pr.nboards && !rc; b++) {
      if (!pr.boards[b].black) continue;
      int rr = xq_tevent_slot(ev, pr.boards[b].red, r)->res, br = xq_tevent_slot(ev, pr.boards[b].black, r)->res;
      if (rr == XQ_TR_NONE && br == XQ_TR_NONE) continue; /* not played yet */
      const char *code = board_code(rr, br);
      if (!code) {
        char m[96];
        snprintf(m, sizeof m, "round %d: players %d and %d have results that do not fit", r,
                 pr.boards[b].red, pr.boards[b].black);
        rc = usererr(err, XQ_EINVAL, m);
      } else {
        rc = result_tx(st, r, b + 1, code, err);
      }
    }
  }
  free(pr.boards);
  return rc;
}

int xq_tstore_import(xq_tstore *st, const xq_tevent *ev, const xq_tconfig *cfg, xq_error *err)
{
  if (!st || !ev || !cfg) return XQ_EINVAL;
  for (int id = 1; id <= ev->n; id++)
    if (ev->players[id - 1].pno != id) return usererr(err, XQ_EINVAL, "players must be numbered 1..n");
  XQ_TX(st, err, import_tx(st, ev, cfg, err));
}

/* ------------------------------------------------------------------ */
/* Replaying the log                                                   */
/* ------------------------------------------------------------------ */

const char *xq__store_col_text(sqlite3_stmt *q, int i)
{
  const unsigned char *t = sqlite3_column_text(q, i);
  return t ? (const char *)t : "";
}

int xq__store_count(sqlite3 *db, const char *sql, int a)
{
  sqlite3_stmt *q;
  int v = -1;
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) return -1;
  if (sqlite3_bind_parameter_count(q) >= 1) sqlite3_bind_int(q, 1, a);
  if (sqlite3_step(q) == SQLITE_ROW) v = sqlite3_column_int(q, 0);
  sqlite3_finalize(q);
  return v;
}

static int load_config(xq_tstore *st, xq_tevent *ev, xq_error *err)
{
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_LOAD_META, "SELECT key, value FROM meta");
  int have = 0;
  if (!q) return dberr(st, err, "load");
  while (sqlite3_step(q) == SQLITE_ROW) {
    const char *k = xq__store_col_text(q, 0), *v = xq__store_col_text(q, 1);
    if (!strcmp(k, "name")) { snprintf(ev->name, sizeof ev->name, "%s", v); have = 1; }
    else if (!strcmp(k, "lot_seed")) ev->cfg.lot_seed = strtoull(v, NULL, 10);
    else if (!strcmp(k, "tiebreaks")) xq_tconfig_tiebreaks(&ev->cfg, v, NULL);
    for (size_t i = 0; i < sizeof cfg_keys / sizeof cfg_keys[0]; i++)
      if (!strcmp(k, cfg_keys[i].key)) *(int *)((char *)&ev->cfg + cfg_keys[i].off) = atoi(v);
  }
  sqlite3_reset(q);
  return have ? XQ_OK : usererr(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)");
}

/* The statements of a reload: the log in order, and the rows that
 * belong to its events. */
typedef struct load_q {
  sqlite3_stmt *q, *reg, *num, *brd, *b2;
} load_q;

/* A register event: the player of registration row `seq`, who must get
 * the next id. */
static int load_register(xq_tstore *st, const load_q *L, int64_t seq, xq_tevent *ev, xq_error *err)
{
  sqlite3_stmt *reg = L->reg;
  xq_tplayer p;
  int id, rc;
  memset(&p, 0, sizeof p);
  sqlite3_reset(reg);
  sqlite3_bind_int64(reg, 1, seq);
  if (sqlite3_step(reg) != SQLITE_ROW) return dberr(st, err, "registration row missing");
  snprintf(p.name, sizeof p.name, "%s", xq__store_col_text(reg, 1));
  p.rating = sqlite3_column_int(reg, 2);
  snprintf(p.birth, sizeof p.birth, "%s", xq__store_col_text(reg, 3));
  p.sex = xq__store_col_text(reg, 4)[0];
  snprintf(p.region, sizeof p.region, "%s", xq__store_col_text(reg, 5));
  snprintf(p.club, sizeof p.club, "%s", xq__store_col_text(reg, 6));
  snprintf(p.team, sizeof p.team, "%s", xq__store_col_text(reg, 7));
  p.local = sqlite3_column_int(reg, 8);
  snprintf(p.title, sizeof p.title, "%s", xq__store_col_text(reg, 9));
  snprintf(p.fed, sizeof p.fed, "%s", xq__store_col_text(reg, 10));
  snprintf(p.fide_id, sizeof p.fide_id, "%s", xq__store_col_text(reg, 11));
  if ((rc = xq_tevent_add(ev, &p, &id, err))) return rc;
  if (id != sqlite3_column_int(reg, 0)) return usererr(err, XQ_ESTORE, "registrations out of order");
  return XQ_OK;
}

/* A pairing event: the `nboards` boards of pairing row `seq` applied to
 * round `round`. */
static int load_pairing(const load_q *L, int64_t seq, int round, int nboards, xq_tevent *ev, xq_error *err)
{
  xq_tpairing pr = {.round = round};
  pr.boards = malloc(sizeof *pr.boards * (size_t)(nboards > 0 ? nboards : 1));
  if (!pr.boards) return XQ_ENOMEM;
  sqlite3_reset(L->brd);
  sqlite3_bind_int64(L->brd, 1, seq);
  while (sqlite3_step(L->brd) == SQLITE_ROW && pr.nboards < nboards) {
    pr.boards[pr.nboards].red = sqlite3_column_int(L->brd, 1);
    pr.boards[pr.nboards].black = sqlite3_column_int(L->brd, 2);
    pr.nboards++;
  }
  int rc = xq_tevent_apply_pairing(ev, &pr);
  xq_tpairing_clear(&pr);
  return rc ? usererr(err, XQ_ESTORE, "a published pairing names an unknown player") : XQ_OK;
}

/* A result or forfeit event: `code` on the board `board` of round
 * `round` as published before event `seq`. */
static void load_result(const load_q *L, int64_t seq, int round, int board, const char *code, xq_tevent *ev)
{
  int red = 0, black = 0;
  sqlite3_reset(L->b2);
  sqlite3_bind_int(L->b2, 1, round);
  sqlite3_bind_int(L->b2, 2, board);
  sqlite3_bind_int64(L->b2, 3, seq);
  if (sqlite3_step(L->b2) == SQLITE_ROW) {
    red = sqlite3_column_int(L->b2, 0);
    black = sqlite3_column_int(L->b2, 1);
  }
  if (red >= 1 && red <= ev->n && black >= 1 && black <= ev->n) xq_tevent_set_result(ev, round, red, black, code);
}

/* Apply the event of the log row L->q stands on. */
static int load_event(xq_tstore *st, const load_q *L, xq_tevent *ev, xq_error *err)
{
  sqlite3_stmt *q = L->q;
  int64_t seq = sqlite3_column_int64(q, 0);
  const char *kind = xq__store_col_text(q, 1);
  int round = sqlite3_column_int(q, 2), player = sqlite3_column_int(q, 3);
  int board = sqlite3_column_int(q, 4), value = sqlite3_column_int(q, 5);
  const char *code = xq__store_col_text(q, 6);
  int needs_player = !strcmp(kind, "foul") || !strcmp(kind, "absence") || !strcmp(kind, "withdrawal");
  if (round < 0 || round > XQ_TOURNEY_ROUNDS_MAX || player < 0 || player > ev->n + 1 ||
      (needs_player && (player < 1 || player > ev->n || round < 1)))
    return usererr(err, XQ_ESTORE, "event log holds an out-of-range round or player");
  if (!strcmp(kind, "register")) return load_register(st, L, seq, ev, err);
  if (!strcmp(kind, "numbering") && round == 0) {
    return xq__store_draw_load(st, seq, ev, err); /* drawn before round 1 */
  } else if (!strcmp(kind, "numbering")) {
    sqlite3_reset(L->num);
    sqlite3_bind_int64(L->num, 1, seq);
    while (sqlite3_step(L->num) == SQLITE_ROW) {
      int id = sqlite3_column_int(L->num, 0);
      if (id >= 1 && id <= ev->n) ev->players[id - 1].pno = sqlite3_column_int(L->num, 1);
    }
  } else if (!strcmp(kind, "pairing")) {
    return load_pairing(L, seq, round, value, ev, err);
  } else if (!strcmp(kind, "result") || !strcmp(kind, "forfeit")) {
    load_result(L, seq, round, board, code, ev);
  } else if (!strcmp(kind, "foul")) {
    xq_tevent_add_fouls(ev, player, round, value);
  } else if (!strcmp(kind, "absence")) {
    xq_tevent_slot(ev, player, round)->absent =
      (uint8_t)(value == 1 ? XQ_TR_HPB : value == 2 ? XQ_TR_FPB : XQ_TR_ZPB);
  } else if (!strcmp(kind, "withdrawal") && value == 1) {
    ev->players[player - 1].withdrawn = 0; /* taken back (xq_tstore_reinstate) */
  } else if (!strcmp(kind, "withdrawal")) {
    xq_tplayer *p = &ev->players[player - 1];
    if (!p->withdrawn || p->withdrawn > round) p->withdrawn = round;
  }
  return XQ_OK;
}

int xq_tstore_load(xq_tstore *st, xq_tevent **out, xq_error *err)
{
  if (!st || !out) return XQ_EINVAL;
  *out = NULL;
  xq_tevent *ev = xq_tevent_new(NULL, NULL);
  if (!ev) return XQ_ENOMEM;
  load_q L = {0};
  int rc = XQ_ESTORE, began = 0;
  /* one read transaction (a savepoint inside a batch): a consistent
   * snapshot of the log */
  xq__store_lock(st);
  if (xq__store_begin(st, 0, err)) goto out;
  began = 1;
  if ((rc = load_config(st, ev, err))) goto out;
  rc = XQ_ESTORE;
  L.q = xq__store_stmt(st, XQ__STORE_Q_LOAD_EVENTS, "SELECT seq, kind, round, player, board, value, code"
                       " FROM events ORDER BY seq");
  L.reg = xq__store_stmt(st, XQ__STORE_Q_LOAD_REG, "SELECT player, name, rating, birth, sex, region, club,"
                         " team, local, title, fed, fide_id FROM registrations WHERE seq = ?");
  L.num = xq__store_stmt(st, XQ__STORE_Q_LOAD_NUM, "SELECT player, pno FROM numbers WHERE seq = ?");
  L.brd = xq__store_stmt(st, XQ__STORE_Q_LOAD_BOARDS, "SELECT board, red, black FROM pairing_boards"
                         " WHERE seq = ? ORDER BY board");
  /* the board of a result: prepared once, not once per result (a load
   * per result made the server's reloads quadratic) */
  L.b2 = xq__store_stmt(st, XQ__STORE_Q_LOAD_RESULT, "SELECT b.red, b.black FROM pairing_boards b JOIN events e"
                        " ON e.seq = b.seq WHERE e.kind = 'pairing' AND e.round = ? AND b.board = ?"
                        " AND e.seq < ?");
  if (!L.q || !L.reg || !L.num || !L.brd || !L.b2) {
    rc = dberr(st, err, "load");
    goto out;
  }
  int s;
  while ((s = sqlite3_step(L.q)) == SQLITE_ROW)
    if ((rc = load_event(st, &L, ev, err))) goto out;
  rc = s == SQLITE_DONE ? XQ_OK : dberr(st, err, "load");
  if (!rc) rc = xq__store_edits_load(st, ev, err);
  if (!rc) rc = xq__store_ko_mark(st, ev, err);
out:
  /* reset, not finalized: the statements stay cached for the next load
   * (sqlite3_reset of NULL is a no-op) */
  sqlite3_reset(L.q);
  sqlite3_reset(L.reg);
  sqlite3_reset(L.num);
  sqlite3_reset(L.brd);
  sqlite3_reset(L.b2);
  if (began) xq__store_commit(st, NULL); /* ends a read: nothing to lose */
  xq__store_unlock(st);
  if (rc) { xq_tevent_free(ev); return rc; }
  *out = ev;
  return XQ_OK;
}

/* The changes of pairing event `seq`, a line each under it. */
static void changes_dump(xq_tstore *st, int64_t seq, FILE *f)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(st->db, "SELECT n, kind, a, b, reason FROM pairing_changes WHERE seq = ? ORDER BY n",
                         -1, &q, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_int64(q, 1, seq);
  while (sqlite3_step(q) == SQLITE_ROW)
    fprintf(f, "    change %d %s a=%d b=%d reason=%s\n", sqlite3_column_int(q, 0), xq__store_col_text(q, 1),
            sqlite3_column_int(q, 2), sqlite3_column_int(q, 3), xq__store_col_text(q, 4));
  sqlite3_finalize(q);
}

int xq_tstore_dump(xq_tstore *st, FILE *f)
{
  sqlite3_stmt *q;
  if (!st || !f) return XQ_EINVAL;
  xq__store_lock(st);
  if (sqlite3_prepare_v2(st->db, "SELECT seq, at, kind, round, player, board, value, code,"
                         " (SELECT name FROM registrations r WHERE r.seq = e.seq)"
                         " FROM events e ORDER BY seq", -1, &q, NULL) != SQLITE_OK) {
    xq__store_unlock(st);
    return XQ_ESTORE;
  }
  while (sqlite3_step(q) == SQLITE_ROW) {
    fprintf(f, "%lld %s %-10s", (long long)sqlite3_column_int64(q, 0), xq__store_col_text(q, 1), xq__store_col_text(q, 2));
    if (sqlite3_column_type(q, 3) != SQLITE_NULL) fprintf(f, " round=%d", sqlite3_column_int(q, 3));
    if (sqlite3_column_type(q, 4) != SQLITE_NULL) fprintf(f, " player=%d", sqlite3_column_int(q, 4));
    if (sqlite3_column_type(q, 5) != SQLITE_NULL) fprintf(f, " board=%d", sqlite3_column_int(q, 5));
    const char *kind = xq__store_col_text(q, 2);
    int draw = !strcmp(kind, "numbering") && sqlite3_column_type(q, 3) == SQLITE_NULL;
    long long value = (long long)sqlite3_column_int64(q, 6);
    if (draw) { /* a drawing before round 1: its method and the lot's seed */
      fprintf(f, " by=%s", xq__store_col_text(q, 7));
      if (!strcmp(xq__store_col_text(q, 7), "lot")) fprintf(f, " seed=%lld", value);
    } else if (!strcmp(kind, "withdrawal") && value == 1) {
      fprintf(f, " reinstated");
    } else {
      if (value) fprintf(f, " value=%lld", value);
      if (sqlite3_column_type(q, 7) != SQLITE_NULL) fprintf(f, " code=%s", xq__store_col_text(q, 7));
    }
    if (sqlite3_column_type(q, 8) != SQLITE_NULL) fprintf(f, " name=%s", xq__store_col_text(q, 8));
    fputc('\n', f);
    int64_t seq = sqlite3_column_int64(q, 0);
    if (!strcmp(kind, "pairing")) changes_dump(st, seq, f);
    if (draw) xq__store_draw_dump(st, seq, f);
    xq__store_edits_dump(st, seq, f);
  }
  sqlite3_finalize(q);
  xq__store_ko_dump(st, f);
  xq__store_unlock(st);
  return ferror(f) ? XQ_EIO : XQ_OK;
}
