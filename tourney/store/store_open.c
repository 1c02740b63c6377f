/*
 * store_open.c -- the store's connection: opening a file as a store (WAL,
 * synchronous=FULL, the schema brought up to date by store_schema.c),
 * closing it, its lock, nested transactions, group-commit batches, the
 * cache of prepared statements and the query helpers the other files of
 * the store share (docs/tourney.md, "The event store", docs/store.md).
 *
 * The database runs in WAL mode with synchronous=FULL: a write returns
 * only after its transaction is on disk, so a committed event survives a
 * crash or power loss. Every write is one BEGIN IMMEDIATE ... COMMIT
 * transaction; a failed write is rolled back and leaves nothing behind.
 * Inside a group-commit batch the same writes run as savepoints of the
 * batch's transaction, so a failed one undoes only itself.
 *
 * The connection is opened with SQLITE_OPEN_FULLMUTEX, and every public
 * call that keeps state between SQLite calls (a transaction, a cached
 * statement) holds the connection's own recursive mutex for its whole
 * length: two threads may share a store, one call at a time.
 */
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tourney_internal.h"
#include "store_internal.h"


struct xq_tstore {
  sqlite3 *db;
  int version;
  int depth;       /* open transaction levels: 0 none, 1 a transaction
                      (or the batch), more = savepoints inside it */
  int batch;       /* a group-commit batch is open (store_games.c) */
  int lost;        /* SQLite rolled the batch's transaction back itself */
  int gone;        /* the file at the path is no longer the one opened (deleted, replaced): 1,
                      or 2 its write-ahead log */
  int watched;     /* dev/ino below were read at the open (a file, not ":memory:") */
  dev_t dev;
  ino_t ino;
  int wal_watched; /* wal_dev/wal_ino were read at the open: its write-ahead log, which holds
                      every commit not yet checkpointed into the file */
  dev_t wal_dev;
  ino_t wal_ino;
  char *path;
  sqlite3_stmt *q[XQ__STORE_Q_COUNT]; /* cached statements, finalized on close */
};

/* ------------------------------------------------------------------ */
/* Errors, the lock and nested transactions                            */
/* ------------------------------------------------------------------ */

int xq__store_dberr(xq_tstore *st, xq_error *err, const char *what)
{
  if (err) {
    err->code = XQ_ESTORE; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.40s: %.110s", what, st && st->db ? sqlite3_errmsg(st->db) : "no database");
  }
  return XQ_ESTORE;
}

int xq__store_error(xq_error *err, int code, const char *msg)
{
  if (err) {
    err->code = code; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.150s", msg);
  }
  return code;
}

int xq__store_exec(xq_tstore *st, const char *sql)
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
  if (xq__store_exec(st, sql)) return xq__store_dberr(st, err, "begin");
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
    xq__store_exec(st, "ROLLBACK");
    st->depth = 0;
    return;
  }
  xq__store_exec(st, "ROLLBACK TO xq_tx");
  xq__store_exec(st, "RELEASE xq_tx");
  st->depth--;
  check_lost(st);
}

int xq__store_commit(xq_tstore *st, xq_error *err)
{
  if (st->depth <= 0) return xq__store_error(err, XQ_ESTORE, "no transaction to commit");
  if (xq__store_exec(st, st->depth == 1 ? "COMMIT" : "RELEASE xq_tx")) {
    int rc = xq__store_dberr(st, err, "commit");
    xq__store_rollback(st);
    return rc;
  }
  st->depth--;
  return XQ_OK;
}

void xq__store_failed(xq_tstore *st) { check_lost(st); }

int xq_tstore_file_ok(xq_tstore *st, xq_error *err)
{
  if (!st) return xq__store_error(err, XQ_EINVAL, "no store");
  struct stat sb;
  if (!st->gone && st->watched && (stat(st->path, &sb) != 0 || sb.st_dev != st->dev || sb.st_ino != st->ino))
    st->gone = 1;
  if (!st->gone && st->wal_watched) {
    /* a log deleted under the store: what it holds (every commit since
     * the last checkpoint, a new store's all) is gone at the close */
    char wal[PATH_MAX];
    int n = snprintf(wal, sizeof wal, "%s-wal", st->path);
    if (n > 0 && (size_t)n < sizeof wal &&
        (stat(wal, &sb) != 0 || sb.st_dev != st->wal_dev || sb.st_ino != st->wal_ino)) {
      st->gone = 2;
      /* the open log still reads: its commits go into the file, which
       * keeps them once the log's last descriptor is closed */
      sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
  }
  if (!st->gone) return XQ_OK;
  size_t n = strlen(st->path);
  return xq_error_set(err, XQ_ESTORE, -1, -1,
                      "the store file %s%s%s was deleted or replaced while open: nothing more is written to it",
                      n > 60 ? "..." : "", st->path + (n > 60 ? n - 57 : 0), st->gone == 2 ? "-wal" : "");
}

int xq__store_writable(xq_tstore *st, xq_error *err)
{
  if (st->lost) return xq__store_error(err, XQ_ESTORE, "the open batch failed and was rolled back: close it first");
  /* each outermost write looks at the file first: a write to a deleted
   * file would be acknowledged and lost */
  return st->depth == 0 ? xq_tstore_file_ok(st, err) : XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Group commit                                                        */
/* ------------------------------------------------------------------ */

int xq_tstore_batch_begin(xq_tstore *st, xq_error *err)
{
  if (!st) return xq__store_error(err, XQ_EINVAL, "no store");
  xq__store_lock(st);
  int rc;
  if (st->batch || st->depth) rc = xq__store_error(err, XQ_EINVAL, "a batch or a transaction is already open");
  else if (!(rc = xq__store_begin(st, 1, err))) st->batch = 1;
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_batch_commit(xq_tstore *st, xq_error *err)
{
  if (!st) return xq__store_error(err, XQ_EINVAL, "no store");
  xq__store_lock(st);
  int rc;
  if (!st->batch) {
    rc = xq__store_error(err, XQ_EINVAL, "no batch is open");
  } else if (st->lost) {
    rc = xq__store_error(err, XQ_ESTORE, "the batch failed and was rolled back");
    st->batch = st->lost = 0;
  } else if (st->depth != 1) {
    rc = xq__store_error(err, XQ_EINVAL, "a write inside the batch is still running");
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
      xq__store_exec(st, "ROLLBACK");
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

/* ------------------------------------------------------------------ */
/* Cached statements and queries                                       */
/* ------------------------------------------------------------------ */

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

int64_t xq__store_scalar(xq_tstore *st, const char *sql, int64_t a, int64_t b, int64_t dflt)
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

/* ------------------------------------------------------------------ */
/* Opening and closing                                                 */
/* ------------------------------------------------------------------ */

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
  return xq__store_error(err, XQ_ESTORE,
                 mode == XQ_TSTORE_CREATE ? "the file is empty (0 bytes); --init makes a new store in it"
                                          : "the file is empty (0 bytes), not an event store");
}

/* An existing store file that this process cannot write, or whose
 * directory it cannot write while SQLite must make its -wal beside it: a
 * store is written to, so it is refused here, by its real reason
 * ("Permission denied", "Read-only file system"). SQLite would open such
 * a file read-only, and either fail later in words that do not say why
 * ("No such file or directory" on a read-only file system) or take the
 * store and fail every commit. A missing path is left to SQLite. */
static int check_writable(const char *path, xq_error *err)
{
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return XQ_OK;
  if (access(path, R_OK | W_OK) != 0)
    return xq_error_set(err, XQ_EIO, -1, -1, "the file is read-only (%s): a store must be writable", strerror(errno));
  char dir[4096], wal[4096 + 8];
  const char *slash = strrchr(path, '/');
  size_t n = slash ? (size_t)(slash - path) + (slash == path) : 0;
  if (n >= sizeof dir || strlen(path) + 5 > sizeof wal) return XQ_OK;
  memcpy(dir, path, n);
  strcpy(dir + n, n ? "" : ".");
  snprintf(wal, sizeof wal, "%s-wal", path);
  if (access(wal, F_OK) != 0 && access(dir, W_OK | X_OK) != 0)
    return xq_error_set(err, XQ_EIO, -1, -1,
                        "its directory is read-only (%s): the store's -wal and -shm files go beside it",
                        strerror(errno));
  return XQ_OK;
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
  if (!rc) rc = check_writable(path, err);
  if (rc) return rc;
  /* serialized: the server commits on a worker thread, reads on its loop */
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (mode != XQ_TSTORE_OPEN ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) return open_failed(st, path, mode, err);
  /* opened read-only after all (SQLite's fallback): refused, not served */
  if (sqlite3_db_readonly(st->db, "main") == 1)
    return xq_error_set(err, XQ_EIO, -1, -1, "the file is read-only: a store must be writable");
  sqlite3_busy_timeout(st->db, XQ_STORE_BUSY_MS);
  /* WAL + synchronous=FULL: every COMMIT is durable (docs/tourney.md, "The event store"). This
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
  if (xq__store_exec(st, "PRAGMA synchronous=FULL") || xq__store_exec(st, "PRAGMA foreign_keys=ON"))
    return sqlerr(st, err, XQ_ESTORE, "pragma");
  if (xq__store_functions(st->db)) return sqlerr(st, err, XQ_ESTORE, "register xq_sha256");
  return xq__store_migrate(st, &st->version, err);
}

int xq_tstore_open(const char *path, int mode, xq_tstore **out, xq_error *err)
{
  if (!path || !out || mode < XQ_TSTORE_OPEN || mode > XQ_TSTORE_INIT)
    return xq__store_error(err, XQ_EINVAL, "bad arguments to open a store");
  *out = NULL;
  xq_tstore *st = calloc(1, sizeof *st);
  if (!st) return xq__store_error(err, XQ_ENOMEM, "out of memory");
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
  struct stat sb;
  if ((st->path = strdup(path)) && stat(path, &sb) == 0) {
    st->watched = 1;
    st->dev = sb.st_dev;
    st->ino = sb.st_ino;
    char wal[PATH_MAX];
    int n = snprintf(wal, sizeof wal, "%s-wal", path);
    if (n > 0 && (size_t)n < sizeof wal && stat(wal, &sb) == 0) {
      st->wal_watched = 1;
      st->wal_dev = sb.st_dev;
      st->wal_ino = sb.st_ino;
    }
  }
  *out = st;
  return XQ_OK;
}

void xq_tstore_close(xq_tstore *st)
{
  if (!st) return;
  for (int i = 0; i < XQ__STORE_Q_COUNT; i++) sqlite3_finalize(st->q[i]);
  sqlite3_close(st->db); /* an open batch is rolled back */
  free(st->path);
  free(st);
}

int xq_tstore_schema_version(xq_tstore *st) { return st ? st->version : 0; }

sqlite3 *xq__store_db(xq_tstore *st) { return st ? st->db : NULL; }

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
