/*
 * store_internal.h -- what the files of the SQLite store (tourney/store/)
 * share: the connection, its lock, nested transactions, the cache of
 * prepared statements, and the knockout log's part of a reload and of the
 * dump. xq__store_ prefix; not part of the public interface. Only the files of
 * this folder hold SQL.
 */
#ifndef XQ_TOURNEY_STORE_INTERNAL_H
#define XQ_TOURNEY_STORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store.h"
#include "tourney.h"

/* Mark the knockout seeds of the store's knockout log, if any, with
 * result KO in the unpaired Swiss rounds after the cut (docs/tourney.md, "Knockout stage").
 * `st` is the open store (knockout_store.c). Returns XQ_OK or XQ_ESTORE. */
int xq__store_ko_mark(xq_tstore *st, xq_tournament *ev, xq_error *err);

/* Print the knockout log (after the event log), one row a line. */
void xq__store_ko_dump(xq_tstore *st, FILE *f);

/* Print the team log, a row a line ("team id at kind round= a= b= c=
 * list= text="), after the tournament log (team_store.c). */
void xq__store_team_dump(xq_tstore *st, FILE *f);

/* The players' part of a reload and of the dump (store_players.c), with
 * the lock held inside the reload's read transaction. xq__store_draw_load
 * applies the numbers of drawing event `seq` (a 'numbering' event without
 * a round) to every player; xq__store_edits_load applies every edit, in order,
 * once the whole log is replayed. XQ_OK or XQ_ESTORE. xq__store_edits_dump
 * prints the edits made right after event `after`, xq__store_draw_dump the
 * numbers of drawing `seq`. */
int xq__store_draw_load(xq_tstore *st, int64_t seq, xq_tournament *ev, xq_error *err);
int xq__store_edits_load(xq_tstore *st, xq_tournament *ev, xq_error *err);
void xq__store_edits_dump(xq_tstore *st, int64_t after, FILE *f);
void xq__store_draw_dump(xq_tstore *st, int64_t seq, FILE *f);

/* The event's configuration and what it says of itself (name, dates,
 * venue, organiser, chief arbiter) as the meta rows and the settings
 * changed since give them (the view config, schema 10) into `ev`
 * (store_load.c); a round robin's rounds are left as stored. XQ_OK, or
 * XQ_ESTORE with `err` (no event, a failed read). With the lock held,
 * inside a transaction. */
int xq__store_config_load(xq_tstore *st, xq_tournament *ev, xq_error *err);

/* Print the settings changed right after event `after` (0: before the
 * first), a line a key (store_settings.c). */
void xq__store_settings_dump(xq_tstore *st, int64_t after, FILE *f);

/* Deleted players (store_players.c, docs/store.md "Deleting a player").
 * The store keys a player for good by his registration number
 * (registrations.player: 1, 2, ... in registration order, never
 * reused); a deletion is a 'withdrawal' event with code "removed" naming
 * that number, and the event's ids are the players not deleted, 1..n in
 * registration order. Every other row of the event log names a player by
 * his id at its place in the log; player_edits and draw_numbers name the
 * registration number. Without a deletion, number and id are one.
 * XQ__STORE_NOW as `seq`: after the whole log.
 * xq__store_reg_at: the registration number of the player who was `id`
 * just after log row `seq`, 0 for none. xq__store_id_at: the id just
 * after row `seq` of registration number `reg`, 0 when not registered
 * then or deleted by then. xq__store_players: the players not deleted.
 * xq__store_last_of: the last event of kind `kind` (of round `round`;
 * 0: any) that names the player who is `id` now, through the deletions
 * since: 1 with its round and value (either pointer may be NULL), or 0. */
#define XQ__STORE_NOW INT64_MAX
/* a deletion, or an entry merged into another (code "merged", value the
 * registration number of the entry kept): both leave the event alike */
#define XQ__STORE_REMOVED "round IS NULL AND kind = 'withdrawal' AND code IN ('removed', 'merged')"
int xq__store_reg_at(xq_tstore *st, int64_t seq, int id);
int xq__store_id_at(xq_tstore *st, int64_t seq, int reg);
int xq__store_players(xq_tstore *st);
int xq__store_last_of(xq_tstore *st, const char *kind, int round, int id, int *ev_round, int *value);

/* The SQLite handle of an open store, for the store files of the module. */
struct sqlite3;
struct sqlite3 *xq__store_db(xq_tstore *st);

/* The first column of the first row of `sql` as an int, with `a` bound
 * to its parameter when it has one; -1 when the query fails or has no
 * row. And column i of the current row as text, "" for NULL (store_open.c). */
struct sqlite3_stmt;
int xq__store_count(struct sqlite3 *db, const char *sql, int a);
const char *xq__store_col_text(struct sqlite3_stmt *q, int i);

/* The store's lock (store_open.c): the connection's recursive mutex. Every
 * public store call that spans several SQLite calls (a transaction, a
 * cached statement, the batch state) holds it from start to end, so two
 * threads may share one store. */
void xq__store_lock(xq_tstore *st);
void xq__store_unlock(xq_tstore *st);

/* Nested transactions (store_open.c), called with the lock held: the outermost
 * level is BEGIN IMMEDIATE (`write`) or BEGIN ... COMMIT, inner levels
 * (for instance a write inside an open batch) are savepoints, so a failed
 * inner level undoes only itself. begin returns XQ_OK or XQ_ESTORE (`err`
 * filled; also when a batch lost its transaction); commit returns XQ_OK,
 * or XQ_ESTORE after rolling the level back; rollback cannot fail. */
int xq__store_begin(xq_tstore *st, int write, xq_error *err);
int xq__store_commit(xq_tstore *st, xq_error *err);
void xq__store_rollback(xq_tstore *st);
/* Call after a failed statement inside a transaction: notices when SQLite
 * rolled the whole transaction back on its own (disk full, I/O error). */
void xq__store_failed(xq_tstore *st);
/* XQ_OK, or XQ_ESTORE (`err` filled) while a batch whose transaction
 * SQLite rolled back is still open: writes that run without
 * xq__store_begin check this first. */
int xq__store_writable(xq_tstore *st, xq_error *err);

/* Cached prepared statements (finalized by xq_tstore_close): the slot
 * `which` is prepared from `sql` on first use, and comes back reset with
 * no bindings. Callers hold the lock and sqlite3_reset the statement
 * before they release it (a stepped SELECT left unreset keeps its read
 * transaction open). NULL when the SQL does not prepare. The statements
 * of every reload live here: the server reloads the event after each
 * change, and parsing the same SQL again each time was a tenth of its
 * work. */
enum {
  XQ__STORE_Q_GAME_APPEND, XQ__STORE_Q_GAME_REPLY, XQ__STORE_Q_GAME_LAST_SEQ,
  XQ__STORE_Q_TOKEN_NEW, XQ__STORE_Q_TOKEN_FIND, XQ__STORE_Q_TOKEN_REVOKE, XQ__STORE_Q_TOKEN_LIST,
  XQ__STORE_Q_ADD_EVENT, XQ__STORE_Q_LOAD_META, XQ__STORE_Q_LOAD_EVENTS, XQ__STORE_Q_LOAD_REG, XQ__STORE_Q_LOAD_NUM,
  XQ__STORE_Q_LOAD_BOARDS, XQ__STORE_Q_LOAD_RESULT, XQ__STORE_Q_KO_TABLES, XQ__STORE_Q_KO_LOG,
  XQ__STORE_Q_LOAD_DRAW, XQ__STORE_Q_LOAD_EDITS, XQ__STORE_Q_SEEN_SET, XQ__STORE_Q_SEEN_SCAN,
  XQ__STORE_Q_COUNT
};
struct sqlite3_stmt;
struct sqlite3_stmt *xq__store_stmt(xq_tstore *st, int which, const char *sql);

/* Errors and small queries (store_open.c). dberr fills `err` (may be
 * NULL) with XQ_ESTORE and "WHAT: " and SQLite's last message; error with
 * `code` and `msg`; both return the code. exec runs `sql` (one or more
 * statements, no result) and returns XQ_OK or XQ_ESTORE. scalar returns
 * the first column of the first row of `sql`, with up to two integer
 * parameters bound to `a` and `b`, or `dflt` when it fails or has no row
 * (or the value is NULL). All with the lock held. */
int xq__store_dberr(xq_tstore *st, xq_error *err, const char *what);
int xq__store_error(xq_error *err, int code, const char *msg);
int xq__store_exec(xq_tstore *st, const char *sql);
int64_t xq__store_scalar(xq_tstore *st, const char *sql, int64_t a, int64_t b, int64_t dflt);

/* The schema (store_schema.c). functions registers the SQL functions the
 * migrations call (xq_sha256(text): the SHA-256 of a text in lowercase
 * hex) on `db`: XQ_OK or XQ_ESTORE. migrate brings an open store up to
 * XQ_STORE_SCHEMA_VERSION, one transaction per step, and stores the
 * version reached in *version: XQ_OK, or XQ_ESTORE with `err` saying why
 * (not an xqref store, one from a newer version, a failed step). */
int xq__store_functions(struct sqlite3 *db);
int xq__store_migrate(xq_tstore *st, int *version, xq_error *err);

/* libsodium set up for this process (store_crypto.c): sodium_init() on
 * the first call, then nothing. XQ_OK, or XQ_EIO when libsodium cannot
 * start (no random source). Thread-safe. */
int xq__store_sodium(void);

/* A new token (store_crypto.c): XQ_TOKEN_CHARS / 2 random bytes from
 * libsodium (randombytes_buf) as XQ_TOKEN_CHARS lowercase hex characters
 * and a NUL. XQ_OK, or XQ_EIO when libsodium cannot start. */
int xq__store_token_random(char out[XQ_TOKEN_CHARS + 1]);

/* The configuration fields of xq_tconfig the meta table holds, a row
 * each under the field's name (store_schema.c): written by
 * xq_tstore_create_event, read back by xq_tstore_load. */
typedef struct xq__store_cfgkey {
  const char *key;
  size_t off;   /* offsetof(xq_tconfig, the int field) */
} xq__store_cfgkey;
extern const xq__store_cfgkey xq__store_cfg_keys[];
extern const int xq__store_ncfg_keys;

/* Run fill(ctx, err) in one write transaction of a store that holds
 * nothing yet (no event, no log rows, no knockout log, no tokens, no game
 * log), with the lock held: committed when fill returns XQ_OK, rolled
 * back otherwise, so what it writes is there whole or not at all (store_open.c;
 * the demo). `what` names the caller in the messages. Returns what fill
 * returns, XQ_EINVAL ("the store is not empty: a WHAT needs a new store")
 * or XQ_ESTORE, with `err` filled. */
int xq__store_fill_new(xq_tstore *st, const char *what, int (*fill)(void *ctx, xq_error *err), void *ctx,
                        xq_error *err);

#endif /* XQ_TOURNEY_STORE_INTERNAL_H */
