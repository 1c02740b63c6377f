/*
 * store_tokens.c -- access tokens of the live server (docs/store.md):
 * 128 random bits (libsodium, store_crypto.c) written as 32 lowercase hex
 * characters, each with a role (admin, arbiter, board, viewer), the table
 * a board token is bound to and a label. The store keeps the token's
 * SHA-256 (schema 6, docs/security.md), never the token: a copy of the
 * database opens nothing. A token is revoked, never deleted or changed
 * (triggers refuse both).
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "knockout.h"
#include "store_internal.h"

static const char *const role_names[] = {"none", "admin", "arbiter", "board", "viewer"};
#define ROLES ((int)(sizeof role_names / sizeof role_names[0]))

const char *xq_role_name(int role)
{
  return role > XQ_ROLE_NONE && role < ROLES ? role_names[role] : "none";
}

int xq_role_parse(const char *s)
{
  for (int r = XQ_ROLE_ADMIN; s && r < ROLES; r++)
    if (!strcmp(s, role_names[r])) return r;
  return XQ_ROLE_NONE;
}

static int fail(xq_error *err, int code, const char *msg, sqlite3 *db)
{
  if (err) {
    err->code = code; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%.60s%s%.90s", msg, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
  }
  return code;
}

/* True for `n` lowercase hex digits and then the end. */
static int hex_syntax(const char *t, int n)
{
  if (!t) return 0;
  for (int i = 0; i < n; i++)
    if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f'))) return 0;
  return t[n] == 0;
}

/* Fill *t from a row: hash, role, round, board, label (the token text is
 * not in the store: "" here). */
static void read_row(sqlite3_stmt *q, xq_ttoken *t)
{
  const char *hash = (const char *)sqlite3_column_text(q, 0), *lab = (const char *)sqlite3_column_text(q, 4);
  memset(t, 0, sizeof *t);
  snprintf(t->hash, sizeof t->hash, "%s", hash ? hash : "");
  t->role = xq_role_parse((const char *)sqlite3_column_text(q, 1));
  t->round = sqlite3_column_int(q, 2);
  t->board = sqlite3_column_int(q, 3);
  snprintf(t->label, sizeof t->label, "%s", lab ? lab : "");
}

/* Room for `n` more live tokens (XQ_TOKENS_MAX); the caller holds the
 * lock. XQ_OK, XQ_ELIMIT or XQ_ESTORE. */
static int token_room(sqlite3 *db, int n, xq_error *err)
{
  sqlite3_stmt *cnt;
  int live = -1;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM tokens WHERE revoked_at IS NULL", -1, &cnt, NULL) == SQLITE_OK) {
    if (sqlite3_step(cnt) == SQLITE_ROW) live = sqlite3_column_int(cnt, 0);
    sqlite3_finalize(cnt);
  }
  if (live < 0) return fail(err, XQ_ESTORE, "tokens", db);
  if (live > XQ_TOKENS_MAX - n) return fail(err, XQ_ELIMIT, "too many live tokens", NULL);
  return XQ_OK;
}

/* Insert a new token (room checked); the caller holds the lock (and a
 * transaction). */
static int token_insert(xq_tstore *st, int role, int round, int board, const char *label, xq_ttoken *out,
                        xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_TOKEN_NEW,
    "INSERT INTO tokens(hash, role, round, board, label) VALUES (?,?,?,?,?)");
  if (!q) return fail(err, XQ_ESTORE, "tokens", db);
  xq_ttoken t;
  memset(&t, 0, sizeof t);
  t.role = role;
  t.round = round;
  t.board = board;
  snprintf(t.label, sizeof t.label, "%s", label);
  /* 128 random bits: a collision is all but impossible, but a retry costs
   * nothing */
  for (int attempt = 0; attempt < 3; attempt++) {
    if (xq__store_token_random(t.token)) return fail(err, XQ_EIO, "no random source (libsodium did not start)", NULL);
    xq_sha256_hex(t.token, XQ_TOKEN_CHARS, t.hash);
    sqlite3_bind_text(q, 1, t.hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, xq_role_name(role), -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 3, round);
    sqlite3_bind_int(q, 4, board);
    sqlite3_bind_text(q, 5, t.label, -1, SQLITE_STATIC);
    int s = sqlite3_step(q);
    int unique = s != SQLITE_DONE && sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_PRIMARYKEY;
    int rc = s == SQLITE_DONE ? XQ_OK : fail(err, XQ_ESTORE, "new token", db);
    sqlite3_reset(q);
    if (!rc) {
      if (out) *out = t;
      return XQ_OK;
    }
    if (!unique) return rc;
  }
  return fail(err, XQ_ESTORE, "new token: the random source repeats itself", NULL);
}

/* A token's role, binding and label as token_new takes them. XQ_OK or
 * XQ_EINVAL with `err`. */
static int token_check(int role, int round, int board, const char *label, xq_error *err)
{
  if (role < XQ_ROLE_ADMIN || role > XQ_ROLE_VIEWER) return fail(err, XQ_EINVAL, "unknown role", NULL);
  if (role == XQ_ROLE_BOARD) {
    /* a Swiss round's table, or a knockout table (XQ_KO_ROUND) */
    if (round < 1 || round > XQ_KO_ROUND || board < 1 || board > XQ_TOURNEY_PLAYERS_MAX)
      return fail(err, XQ_EINVAL, "a board token needs a round and a table", NULL);
  } else if (round || board) {
    return fail(err, XQ_EINVAL, "only board tokens are bound to a table", NULL);
  }
  if (strlen(label) >= XQ_TOURNEY_FIELD_MAX || xq_utf8_len(label) < 0)
    return fail(err, XQ_EINVAL, "the label must be valid UTF-8 under 64 bytes", NULL);
  for (const unsigned char *p = (const unsigned char *)label; *p; p++)
    if (*p < 0x20 || *p == 0x7f) return fail(err, XQ_EINVAL, "the label holds a control character", NULL);
  return XQ_OK;
}

int xq_tstore_token_new(xq_tstore *st, int role, int round, int board, const char *label, xq_ttoken *out,
                        xq_error *err)
{
  if (!xq__store_db(st)) return fail(err, XQ_EINVAL, "no store", NULL);
  if (!label) label = "";
  int rc = token_check(role, round, board, label, err);
  if (rc) return rc;
  xq__store_lock(st);
  rc = xq__store_begin(st, 1, err);
  if (!rc) {
    rc = token_room(xq__store_db(st), 1, err);
    if (!rc) rc = token_insert(st, role, round, board, label, out, err);
    if (rc) xq__store_rollback(st);
    else rc = xq__store_commit(st, err);
  }
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_board_tokens(xq_tstore *st, int round, const int *boards, int n, const char *label, xq_ttoken *out,
                           xq_error *err)
{
  if (!xq__store_db(st) || n < 0 || (n && (!boards || !out))) return fail(err, XQ_EINVAL, "no store", NULL);
  if (!label) label = "";
  int rc = XQ_OK;
  for (int i = 0; !rc && i < n; i++) rc = token_check(XQ_ROLE_BOARD, round, boards[i], label, err);
  if (rc) memset(out, 0, sizeof *out * (size_t)n);
  if (rc || !n) return rc;
  xq__store_lock(st);
  rc = xq__store_begin(st, 1, err);
  if (!rc) {
    rc = token_room(xq__store_db(st), n, err);
    for (int i = 0; !rc && i < n; i++) rc = token_insert(st, XQ_ROLE_BOARD, round, boards[i], label, &out[i], err);
    if (rc) xq__store_rollback(st);
    else rc = xq__store_commit(st, err);
  }
  xq__store_unlock(st);
  if (rc) memset(out, 0, sizeof *out * (size_t)n);
  return rc;
}

int xq_tstore_token_find(xq_tstore *st, const char *token, xq_ttoken *out)
{
  if (!xq__store_db(st) || !hex_syntax(token, XQ_TOKEN_CHARS)) return XQ_EINVAL;
  xq__store_lock(st);
  int rc = XQ_EINVAL;
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_TOKEN_FIND,
    "SELECT hash, role, round, board, label FROM tokens WHERE hash = ? AND revoked_at IS NULL");
  if (!q) {
    rc = XQ_ESTORE;
  } else {
    char hash[XQ_TOKEN_HASH_CHARS + 1];
    xq_sha256_hex(token, XQ_TOKEN_CHARS, hash);
    sqlite3_bind_text(q, 1, hash, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(q);
    if (s == SQLITE_ROW) {
      if (out) read_row(q, out);
      rc = XQ_OK;
    } else if (s != SQLITE_DONE) {
      rc = XQ_ESTORE;
    }
    sqlite3_reset(q);
  }
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_token_revoke(xq_tstore *st, const char *token, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db) return fail(err, XQ_EINVAL, "no store", NULL);
  /* the token, or the hash prefix `tourney tokens` prints */
  int by_prefix = hex_syntax(token, XQ_TOKEN_PREFIX_CHARS);
  if (!by_prefix && !hex_syntax(token, XQ_TOKEN_CHARS))
    return fail(err, XQ_EINVAL, "a token is 32 lowercase hex characters (or give the 16 of its hash prefix)", NULL);
  char key[XQ_TOKEN_HASH_CHARS + 2];
  if (by_prefix) snprintf(key, sizeof key, "%s*", token);
  else xq_sha256_hex(token, XQ_TOKEN_CHARS, key);
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err);
  if (!rc) {
    sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_TOKEN_REVOKE,
      "UPDATE tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
      " WHERE hash GLOB ? AND revoked_at IS NULL");
    if (!q) {
      rc = fail(err, XQ_ESTORE, "revoke", db);
    } else {
      /* a prefix must name one live token: more than one is refused (the
       * whole update is rolled back below) */
      sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
      if (sqlite3_step(q) != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "revoke", db);
      else if (sqlite3_changes(db) > 1) rc = fail(err, XQ_EINVAL, "the hash prefix names several tokens", NULL);
      else if (sqlite3_changes(db) != 1) rc = fail(err, XQ_EINVAL, "unknown or already revoked token", NULL);
      sqlite3_reset(q);
    }
    if (rc) xq__store_rollback(st);
    else rc = xq__store_commit(st, err);
  }
  xq__store_unlock(st);
  return rc;
}

int64_t xq_tstore_data_version(xq_tstore *st)
{
  sqlite3 *db = xq__store_db(st);
  if (!db) return XQ_EINVAL;
  int64_t v = XQ_ESTORE;
  sqlite3_stmt *q;
  xq__store_lock(st);
  if (sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &q, NULL) == SQLITE_OK) {
    if (sqlite3_step(q) == SQLITE_ROW) v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
  }
  xq__store_unlock(st);
  return v;
}

int xq_tstore_tokens(xq_tstore *st, xq_ttoken **out, int *n, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !out || !n) return fail(err, XQ_EINVAL, "no store", NULL);
  *out = NULL;
  *n = 0;
  xq__store_lock(st);
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_TOKEN_LIST, "SELECT hash, role, round, board, label FROM tokens"
                                    " WHERE revoked_at IS NULL ORDER BY rowid");
  if (!q) {
    int rc = fail(err, XQ_ESTORE, "tokens", db);
    xq__store_unlock(st);
    return rc;
  }
  int rc = XQ_OK, cap = 0, s;
  while ((s = sqlite3_step(q)) == SQLITE_ROW) {
    if (*n == cap) {
      if (cap >= XQ_TOKENS_MAX) { rc = fail(err, XQ_ELIMIT, "too many live tokens", NULL); break; }
      int ncap = cap ? cap * 2 : 16;
      xq_ttoken *nt = realloc(*out, sizeof *nt * (size_t)ncap);
      if (!nt) { rc = fail(err, XQ_ENOMEM, "out of memory", NULL); break; }
      *out = nt;
      cap = ncap;
    }
    read_row(q, &(*out)[(*n)++]);
  }
  if (!rc && s != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "tokens", db);
  sqlite3_reset(q);
  xq__store_unlock(st);
  if (rc) {
    free(*out);
    *out = NULL;
    *n = 0;
  }
  return rc;
}

int xq_tstore_admin_token(xq_tstore *st, xq_ttoken *out, int *created, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !out) return fail(err, XQ_EINVAL, "no store", NULL);
  if (created) *created = 0;
  /* look and create in one write transaction: two processes opening a
   * new store agree on one admin token */
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err), found = 0;
  if (!rc) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT hash, role, round, board, label FROM tokens WHERE role = 'admin'"
                           " AND revoked_at IS NULL ORDER BY rowid LIMIT 1", -1, &q, NULL) != SQLITE_OK) {
      rc = fail(err, XQ_ESTORE, "admin token", db);
    } else {
      int s = sqlite3_step(q);
      if (s == SQLITE_ROW) { read_row(q, out); found = 1; }
      else if (s != SQLITE_DONE) rc = fail(err, XQ_ESTORE, "admin token", db);
      sqlite3_finalize(q);
    }
    if (!rc && !found) rc = token_insert(st, XQ_ROLE_ADMIN, 0, 0, "admin", out, err);
    if (rc) xq__store_rollback(st);
    else rc = xq__store_commit(st, err);
  }
  xq__store_unlock(st);
  if (!rc && !found && created) *created = 1;
  return rc;
}

int xq_tstore_round_tables(xq_tstore *st, int round, xq_tpairing *pr, xq_error *err)
{
  if (round != XQ_KO_ROUND) return xq_tstore_pairing(st, round, pr, err);
  xq_ko *ko = calloc(1, sizeof *ko);
  if (!ko) return XQ_ENOMEM;
  int rc = xq_tstore_ko_load(st, ko, err);
  if (rc == XQ_OK && (!ko->after || !ko->ntables)) {
    xq_error_set(err, XQ_EINVAL, -1, -1, "no knockout table is published");
    rc = XQ_EINVAL;
  }
  if (rc == XQ_OK && !(pr->boards = calloc((size_t)ko->ntables, sizeof *pr->boards))) rc = XQ_ENOMEM;
  if (rc == XQ_OK) {
    pr->round = round;
    pr->nboards = ko->ntables;
    for (int k = 0; k < ko->ntables; k++) pr->boards[k] = (xq_tboard){ko->tables[k].red, ko->tables[k].black};
  }
  free(ko);
  return rc;
}

int xq_tstore_board_table(xq_tstore *st, int round, int board, xq_error *err)
{
  xq_tpairing pr = {0};
  int rc = xq_tstore_round_tables(st, round, &pr, err);
  if (rc == XQ_OK && (board < 1 || board > pr.nboards)) {
    xq_error_set(err, XQ_EINVAL, -1, -1, "round %d has %d tables: there is no table %d", round, pr.nboards, board);
    rc = XQ_EINVAL;
  } else if (rc == XQ_OK && !pr.boards[board - 1].black) {
    xq_error_set(err, XQ_EINVAL, -1, -1, "table %d of round %d is the bye: no game is played there", board, round);
    rc = XQ_EINVAL;
  }
  xq_tpairing_clear(&pr);
  return rc;
}
