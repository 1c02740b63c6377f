/*
 * internal.h -- helpers shared by the files of the tourney module (xq__
 * prefix); not part of the public interface.
 */
#ifndef XQ_TOURNEY_INTERNAL_H
#define XQ_TOURNEY_INTERNAL_H

#include "tourney.h"

/* Colour history of a player over the played games (W/D/L) of rounds
 * 1..upto: counts, and the last two colours (last[0] most recent,
 * XQ_TC_NONE when missing). */
typedef struct xq__colhist {
  int reds, blacks;
  int last[2];
} xq__colhist;

void xq__colour_history(const xq_tevent *ev, int id, int upto, xq__colhist *h);

/* True when the slot is a game played over the board (W, D, L). */
int xq__played(const xq_tslot *s);

/* True when player `id` is withdrawn for `round` (explicitly, or by the
 * missed-rounds rule over rounds before it). */
int xq__withdrawn(const xq_tevent *ev, int id, int round);

/* Ids of the players to pair in `round` (tourney.md §3.1) into ids[] (room
 * for ev->n); returns their number. */
int xq__pair_pool(const xq_tevent *ev, int round, int *ids);

/* True when `id` may still receive the PAB (§3.2.2). */
int xq__bye_eligible(const xq_tevent *ev, int id, int round);

/* True when `id` may take colour `c` in `round` within the limits. */
int xq__colour_ok(const xq_tevent *ev, int id, int round, int c);

/* Colour of `a` against `b` in `round` by tourney.md §3.7 (Chinese mode:
 * steps 1, 2, 3, 5C), corrected to keep both within the colour limits. */
int xq__allocate(const xq_tevent *ev, int round, int a, int b);

/* Sort the boards of a pairing into §3.8 order (bye last). */
void xq__sort_boards(const xq_tevent *ev, xq_tpairing *pr);

/* 64-bit mixer (splitmix64) for lots. */
uint64_t xq__mix64(uint64_t x);

/* Mark the knockout seeds of the store's knockout log, if any, with
 * result KO in the unpaired Swiss rounds after the cut (tourney.md §6.4).
 * `st` is the open store (knockout_store.c). Returns XQ_OK or XQ_ESTORE. */
int xq__ko_mark(xq_tstore *st, xq_tevent *ev, xq_error *err);

/* Print the knockout log (after the event log), one row a line. */
void xq__ko_dump(xq_tstore *st, FILE *f);

/* The SQLite handle of an open store, for the store files of the module. */
struct sqlite3;
struct sqlite3 *xq__tstore_db(xq_tstore *st);

/* The store's lock (store.c): the connection's recursive mutex. Every
 * public store call that spans several SQLite calls (a transaction, a
 * cached statement, the batch state) holds it from start to end, so two
 * threads may share one store. */
void xq__tstore_lock(xq_tstore *st);
void xq__tstore_unlock(xq_tstore *st);

/* Nested transactions (store.c), called with the lock held: the outermost
 * level is BEGIN IMMEDIATE (`write`) or BEGIN ... COMMIT, inner levels
 * (for instance a write inside an open batch) are savepoints, so a failed
 * inner level undoes only itself. begin returns XQ_OK or XQ_ESTORE (`err`
 * filled; also when a batch lost its transaction); commit returns XQ_OK,
 * or XQ_ESTORE after rolling the level back; rollback cannot fail. */
int xq__tstore_begin(xq_tstore *st, int write, xq_error *err);
int xq__tstore_commit(xq_tstore *st, xq_error *err);
void xq__tstore_rollback(xq_tstore *st);
/* Call after a failed statement inside a transaction: notices when SQLite
 * rolled the whole transaction back on its own (disk full, I/O error). */
void xq__tstore_failed(xq_tstore *st);
/* XQ_OK, or XQ_ESTORE (`err` filled) while a batch whose transaction
 * SQLite rolled back is still open: writes that run without
 * xq__tstore_begin check this first. */
int xq__tstore_writable(xq_tstore *st, xq_error *err);

/* Cached prepared statements (finalized by xq_tstore_close): the slot
 * `which` is prepared from `sql` on first use. Callers hold the lock and
 * sqlite3_reset the statement before they release it. NULL when the SQL
 * does not prepare. */
enum {
  XQ__Q_GAME_APPEND, XQ__Q_GAME_REPLY, XQ__Q_GAME_LAST_SEQ,
  XQ__Q_TOKEN_NEW, XQ__Q_TOKEN_FIND, XQ__Q_TOKEN_REVOKE,
  XQ__Q_COUNT
};
struct sqlite3_stmt;
struct sqlite3_stmt *xq__tstore_stmt(xq_tstore *st, int which, const char *sql);

/* The final-stage actions of `xqref tourney` (cli_ko.c): true when
 * `action` is one of knockout, bracket, ko-result, places, teams, prizes;
 * then xq__tourney_final_main runs it (argv as xq_tourney_main's;
 * returns 0, 1 or 2). */
int xq__tourney_final_action(const char *action);
int xq__tourney_final_main(int argc, char **argv);

/* The live-server actions of `xqref tourney` (cli_live.c): true when
 * `action` is one of demo, token, tokens, revoke, games; then
 * xq__tourney_live_main runs it (returns 0, 1 or 2). */
int xq__tourney_live_action(const char *action);
int xq__tourney_live_main(int argc, char **argv);

/* Points kept in half-units as text: "3", "2.5", "-0.5" (sheet.c). */
void xq__half_text(char *buf, size_t cap, int64_t half);

/* Text of one tie-break value `v` of code `tb` as the standings show it;
 * empty for ROUNDBACK, which has no value of its own (it compares the tied
 * players) (sheet.c). */
void xq__tb_text(char *buf, size_t cap, int tb, int64_t v);

#endif /* XQ_TOURNEY_INTERNAL_H */
