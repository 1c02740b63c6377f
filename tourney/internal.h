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

/* Acceleration of every player in round `round`, from the event's TRF
 * XXA and 250 lines (trf.c): acc[id] for id 1..ev->n (acc has ev->n + 1
 * entries), in half-units, 0 without such lines. Returns 1 when some
 * player has a non-zero acceleration in that round, else 0. */
int xq__trf_accel(const xq_tevent *ev, int round, int *acc);

/* True when player `id` is withdrawn for `round` (explicitly, or by the
 * missed-rounds rule over rounds before it). */
int xq__withdrawn(const xq_tevent *ev, int id, int round);
/* The round (1..upto) whose missed game makes player `id` reach the
 * withdrawal rule's count (cfg.missed_rounds_withdraw; only missed rounds
 * in a row with cfg.withdraw_consecutive), or 0 when it is not reached
 * (event.c). */
int xq__missed_out(const xq_tevent *ev, int id, int upto);

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
 * `which` is prepared from `sql` on first use, and comes back reset with
 * no bindings. Callers hold the lock and sqlite3_reset the statement
 * before they release it (a stepped SELECT left unreset keeps its read
 * transaction open). NULL when the SQL does not prepare. The statements
 * of every reload live here: the server reloads the event after each
 * change, and parsing the same SQL again each time was a tenth of its
 * work. */
enum {
  XQ__Q_GAME_APPEND, XQ__Q_GAME_REPLY, XQ__Q_GAME_LAST_SEQ,
  XQ__Q_TOKEN_NEW, XQ__Q_TOKEN_FIND, XQ__Q_TOKEN_REVOKE, XQ__Q_TOKEN_LIST,
  XQ__Q_ADD_EVENT, XQ__Q_LOAD_META, XQ__Q_LOAD_EVENTS, XQ__Q_LOAD_REG, XQ__Q_LOAD_NUM,
  XQ__Q_LOAD_BOARDS, XQ__Q_LOAD_RESULT, XQ__Q_KO_TABLES, XQ__Q_KO_LOG,
  XQ__Q_COUNT
};
struct sqlite3_stmt;
struct sqlite3_stmt *xq__tstore_stmt(xq_tstore *st, int which, const char *sql);

/* A command-line number (cli.c): true when `s` is a whole decimal in
 * [lo, hi] with nothing after it, stored in *out; false leaves *out. */
int xq__cli_number(const char *s, long lo, long hi, long *out);

/* The final-stage actions of `xqref tourney` (cli_ko.c): true when
 * `action` is one of knockout, bracket, ko-result, places, teams, prizes;
 * then xq__tourney_final_main runs it (argv as xq_tourney_main's;
 * returns 0, 1 or 2). */
int xq__tourney_final_action(const char *action);
int xq__tourney_final_main(int argc, char **argv);

/* The options of those actions (parsed in cli_ko.c; 0 / NULL = not
 * given). --format is the knockout's tie-break format for `knockout` and
 * the sheet format (text, html, csv) for places, teams, prizes, groups. */
typedef struct xq__kopts {
  const char *db, *seeding, *format, *mode, *table, *code, *preset, *lang, *group, *pools, *lot;
  long after, size, choice, match, red, count;
  int swiss;
} xq__kopts;
struct xq_ko;
/* Open the store of o->db and load the event and its knockout stage;
 * errors go to stderr. Returns 0, or 1 with nothing left open. */
int xq__ko_open(const xq__kopts *o, xq_tstore **st, xq_tevent **ev, struct xq_ko *ko);
/* The knockout seed (1..) of player `id`, 0 when not in the knockout. */
int xq__ko_seed(const struct xq_ko *ko, int id);
/* How a knockout placed `id` (sheet_final.c): its last match played and
 * the outcome ("won the final", "lost in the semi-final", "in the
 * quarter-final" while undecided), in `lang`, into buf (always ended). */
void xq__ko_reached(char *buf, size_t cap, const struct xq_ko *ko, int id, int lang);
/* A bracket stage by the number of stages after it (`left`: 0 the final,
 * 1 the semi-final, ...), in `lang`; "early round" past the round of 128
 * (sheet_final.c). */
const char *xq__ko_stage_word(int left, int lang);
/* places, teams, prizes, groups (cli_final.c): returns 0, 1 or 2. */
int xq__tourney_results(const xq__kopts *o, const char *action);

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

/* One table of a sheet (sheet_table.c), written as CSV (RFC 4180, CRLF),
 * a standalone HTML5 page (event name as <h1>, "title, sub" as <h2>,
 * cells escaped) or aligned text (the same two heading lines, a blank
 * line, the column headings, a rule, the rows; widths in display columns,
 * a CJK character taking two; control characters as spaces; LF ends).
 * cls[c] aligns column c: "n" right (numbers), "c" centred, NULL left; it
 * is also the HTML cell class. CSV and HTML rows are written as they
 * come; text rows are kept until xq__sheet_end, which writes them and
 * frees the copies. begin returns XQ_OK or XQ_EINVAL (bad format,
 * language, column count); row returns XQ_OK, XQ_ENOMEM or XQ_ELIMIT
 * (XQ__SHEET_ROWS_MAX); end returns the first error met, or XQ_EIO when
 * the stream failed, and must be called after a successful begin.
 * Several tables make one sheet with `flags`: XQ__SHEET_BEFORE on every
 * table but the last (another follows: the HTML page stays open),
 * XQ__SHEET_AFTER on every table but the first (no page head or event
 * line: its title as <h2>, or a blank line and the title in text); CSV
 * then writes each table's title as a record of its own, the tables
 * apart by an empty record. 0 = a sheet of one table. */
#define XQ__SHEET_COLS_MAX (XQ_TOURNEY_TB_MAX + 8) /* standings: a column per tie-break and 4 more */
#define XQ__SHEET_ROWS_MAX 100000
enum { XQ__SHEET_BEFORE = 1, XQ__SHEET_AFTER = 2 };
typedef struct xq__sheet {
  FILE *f;
  int format, lang, ncols, rc, flags;
  const char *cls[XQ__SHEET_COLS_MAX];
  int width[XQ__SHEET_COLS_MAX];
  char **rows;          /* text: nrows x ncols copies, row 0 = headings */
  int nrows, cap;
} xq__sheet;
int xq__sheet_begin(xq__sheet *s, FILE *f, int format, int lang, const xq_tevent *ev,
                    const char *title, const char *sub, int ncols, const char *const *head,
                    const char *const *cls, int flags);
int xq__sheet_row(xq__sheet *s, const char *const *cells);
int xq__sheet_end(xq__sheet *s);

/* Display columns of UTF-8 text (2 for a CJK character, 1 for a byte
 * that is not valid UTF-8), and the text written with control characters
 * as spaces (sheet_table.c). */
int xq__text_width(const char *s);
void xq__text_put(FILE *f, const char *s);

#endif /* XQ_TOURNEY_INTERNAL_H */
