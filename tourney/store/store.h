/*
 * store/store.h -- the store room of the tourney module: the SQLite store
 * of one tournament (docs/store.md). Its event log (registrations,
 * drawings of numbers, pairings, results, fouls, absences, withdrawals,
 * the players' edits), replayed into the event; the knockout log; the
 * live server's part (access tokens, kept as their SHA-256, and the game
 * log of every board); group commits; the store's bench; and the demo
 * tournament. The files of tourney/store/ are the only ones of the
 * project that hold SQL; they share store_internal.h besides.
 */
#ifndef XQ_TOURNEY_STORE_H
#define XQ_TOURNEY_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "knockout.h"
#include "pair/pair.h"
#include "tourney.h"

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

#define XQ_STORE_SCHEMA_VERSION 14
#define XQ_STORE_BUSY_MS 5000                  /* a locked database is waited for this long */
#define XQ_GAME_TEXT_MAX 65536                 /* bytes of a game-log event or reply text */
#define XQ_TOKENS_MAX 100000                   /* live tokens of one store */
#define XQ_TOKEN_CHARS 32                      /* lowercase hex characters of a token */
#define XQ_TOKEN_HASH_CHARS 64                 /* its SHA-256, in hex: what the store keeps */
#define XQ_TOKEN_PREFIX_CHARS 16               /* the hash prefix `tourney tokens` shows */
#define XQ_SHA256_LEN 32                       /* bytes of a SHA-256 */
#define XQ_STORE_BENCH_ROWS_MAX 100000000L     /* rows one bench run appends per batch size */
#define XQ_STORE_BENCH_PATH_MAX 512            /* bytes of the bench's scratch store's path */
#define XQ_FOULS_MAX 99                        /* fouls of one foul event, or of a correction */

/* ------------------------------------------------------------------ */
/* The store and its event log                                         */
/* ------------------------------------------------------------------ */

typedef struct xq_tstore xq_tstore;

/* How xq_tstore_open takes the file at its path. */
enum {
  XQ_TSTORE_OPEN = 0,   /* an existing store only */
  XQ_TSTORE_CREATE = 1, /* an existing store, or a new one when the file is missing */
  XQ_TSTORE_INIT = 2    /* as CREATE, and a new store in an existing empty (0-byte)
                           file (the command line's --init) */
};

/* Open the store at `path` as `mode` says: WAL journal, synchronous=FULL,
 * foreign keys, busy timeout XQ_STORE_BUSY_MS, and the schema migrated up
 * to XQ_STORE_SCHEMA_VERSION in one transaction per step. An empty
 * (0-byte) file is refused, untouched, unless mode is XQ_TSTORE_INIT: a
 * store truncated to nothing is not taken for a new one. Returns XQ_OK
 * with *out set (close with xq_tstore_close), or XQ_EIO (SQLite cannot
 * open the file), XQ_ESTORE (an empty file, not an SQLite database, a
 * damaged one, not an xqref store, one written by a newer version),
 * XQ_EINVAL, XQ_ENOMEM; `err` then says "cannot open PATH: " and why in
 * SQLite's own words (with the system's reason when there is one), and
 * *out is NULL. */
int xq_tstore_open(const char *path, int mode, xq_tstore **out, xq_error *err);

/* Close the store. NULL is a no-op. Every committed event stays. */
void xq_tstore_close(xq_tstore *st);

/* Schema version of the open store. */
int xq_tstore_schema_version(xq_tstore *st);

/* Record the event's name and configuration (once, by `tourney new`).
 * Returns XQ_OK, XQ_EINVAL if already set, or XQ_ESTORE. */
int xq_tstore_create_event(xq_tstore *st, const char *name, const xq_tconfig *cfg,
                           xq_error *err);

/* Change the event's settings (docs/tourney.md, "Settings"): the fields
 * `fields` (XQ_TS_*) of *s, checked with xq_tsettings_check and applied
 * with xq_tsettings_apply to the configuration the store holds, the
 * rounds paired being those the log has published (a knockout-only
 * event counts as paired). One transaction: a row per key whose text
 * changes in the settings table (schema 10), which xq_tstore_load reads
 * over the event's first configuration and `tourney log` prints.
 * *changed (may be NULL) gets the fields whose values changed (none:
 * nothing is written). Returns XQ_OK; XQ_EINVAL with `err` (a bad value;
 * a locked field, and why); XQ_ESTORE (no event); XQ_ENOMEM. */
int xq_tstore_settings(xq_tstore *st, const xq_tsettings *s, unsigned fields, unsigned *changed, xq_error *err);

/* The event kinds of the log. */
typedef enum {
  XQ_EV_REGISTER = 1, XQ_EV_NUMBERING, XQ_EV_PAIRING, XQ_EV_RESULT,
  XQ_EV_FORFEIT, XQ_EV_FOUL, XQ_EV_ABSENCE, XQ_EV_WITHDRAWAL
} xq_evkind;

/* Register a player (checked with xq_player_check); *id gets the new id.
 * One committed transaction. Returns XQ_OK, XQ_EINVAL or XQ_ESTORE. */
int xq_tstore_register(xq_tstore *st, const xq_tplayer *p, int *id, xq_error *err);

/* Publish the pairing of a round, together with the pairing numbers when
 * it is round 1 (taken from ev, which must be the loaded event with
 * numbers assigned). Fails with XQ_EINVAL if the round is already paired.
 * One committed transaction. */
/* As xq_tstore_publish, with the arbiter's changes ch[0..n) that made
 * `pr` (xq_pairing_amend: already applied) kept with it, in order, each
 * with its reason (`tourney log` prints them under the pairing). */
int xq_tstore_publish_amended(xq_tstore *st, const xq_tournament *ev, const xq_tpairing *pr, const xq_tchange *ch,
                              int n, xq_error *err);
int xq_tstore_publish(xq_tstore *st, const xq_tournament *ev, const xq_tpairing *pr,
                      xq_error *err);

/* Withdraw the published pairing of `round` (docs/tourney.md "Withdrawing
 * a pairing"): a 'pairing' event of value -1 that the replay applies by
 * forgetting the round's pairing, and the round's board tokens revoked,
 * in one committed transaction. Only the last paired round, and only
 * while nothing happened in it: no result, forfeit, foul or absence
 * recorded since it was published, no game event of any of its tables in
 * the game log, no knockout stage. The round can be paired again after.
 * Returns XQ_OK, XQ_EINVAL with `err` giving the reason, or XQ_ESTORE. */
int xq_tstore_unpublish(xq_tstore *st, int round, xq_error *err);

/* The published boards of round `round`, in board order, into `out`
 * (caller frees with xq_tpairing_clear). Returns XQ_OK, XQ_EINVAL (round
 * not paired) with `err` saying so, XQ_ELIMIT, XQ_ENOMEM or XQ_ESTORE;
 * `out` holds no boards on failure. */
int xq_tstore_pairing(xq_tstore *st, int round, xq_tpairing *out, xq_error *err);

/* Pair and publish the next round of `ev`, the event loaded from `st`
 * (xq_tstore_load; the caller's copy, which this numbers and the Dutch
 * pairer may mark): the round after the last one paired, which must be
 * one of cfg.rounds (when set), follow complete rounds and have two
 * players or more; the pairing numbers (xq_assign_pnos), the pairing
 * with `system` (xq_pair_system), then xq_tstore_publish (next_round.c).
 * Fills `out` (caller frees with xq_tpairing_clear; no boards on
 * failure). Returns XQ_OK; XQ_EINVAL when the round cannot be paired
 * yet; the pairer's code; what xq_tstore_publish returns; `err` (may be
 * NULL) says why. */
int xq_tstore_pair_next(xq_tstore *st, xq_tournament *ev, int system, xq_tpairing *out, xq_error *err);

/* Record the result of board `board` of round `round`: "1-0" (Red wins),
 * "0-1", "=" (also "1/2" or "0.5-0.5"), "+-" / "-+" (forfeit: the side
 * with '-' did not play), "--" (both forfeit), "*" (the result taken
 * back: pending again, the game resumed). A later result for the
 * same board replaces the earlier one in the derived state; both stay in
 * the log. Round XQ_KO_ROUND (knockout.h) is the knockout tables: the
 * result of table `board` (xq_tstore_ko_result; no "--", once only).
 * Returns XQ_OK, XQ_EINVAL (no such board, bad code) or XQ_ESTORE. */
int xq_tstore_result(xq_tstore *st, int round, int board, const char *code,
                     xq_error *err);

/* Record `count` (1..XQ_FOULS_MAX) fouls (犯规) of player `id` in round
 * `round`, added to those recorded before. The round must be one of the
 * event's planned rounds and paired. Returns XQ_OK, XQ_EINVAL with `err`
 * (no such player, a count or round out of range, the round not paired)
 * or XQ_ESTORE. */
int xq_tstore_foul(xq_tstore *st, int round, int id, int count, xq_error *err);

/* Correct the fouls of player `id` in round `round` to `count`
 * (0..XQ_FOULS_MAX; 0: none): a foul event with code "set" that
 * supersedes every foul of that player and round before it (later fouls
 * add to it). The same checks and returns as xq_tstore_foul. */
int xq_tstore_foul_set(xq_tstore *st, int round, int id, int count, xq_error *err);

/* Record the announced absence of `id` in `round` (one of the planned
 * rounds, not yet paired): `bye` is XQ_TR_ZPB (0 points), XQ_TR_HPB or
 * XQ_TR_FPB (a requested half- or full-point bye, scoring the draw or win
 * points). A later absence of the same round supersedes an earlier one;
 * XQ_TR_NONE takes the absence back (an absence event with code
 * "cancel"; there must be one to take back). Returns XQ_OK, XQ_EINVAL
 * with `err` or XQ_ESTORE. */
int xq_tstore_absence(xq_tstore *st, int round, int id, int bye, xq_error *err);

/* Withdraw `id` from round `round` on; points earned stay. The round must
 * be one of the planned rounds and not paired yet (a game of a paired
 * round not played is a forfeit result), and the player not withdrawn
 * already. Returns XQ_OK, XQ_EINVAL with `err` saying which, or
 * XQ_ESTORE. */
int xq_tstore_withdraw(xq_tstore *st, int round, int id, xq_error *err);

/* Delete player `id` (1..n), registered by mistake, before round 1 is
 * paired: an event row ('withdrawal', code "removed") naming his
 * registration number (*reg, may be NULL); the replay leaves him out and
 * the players after him move down one id, their pairing numbers closing
 * up (docs/store.md "Deleting a player"). Returns XQ_OK, XQ_EINVAL with
 * `err` (no such player; round 1 is paired, or the knockout has started:
 * withdraw him instead) or XQ_ESTORE. */
int xq_tstore_remove(xq_tstore *st, int id, int *reg, xq_error *err);

/* Merge entry `drop` into entry `keep` (ids 1..n), two registrations of
 * one player (xq_tournament_merge, docs/store.md "Merging two entries"),
 * in one transaction: an event row ('withdrawal', no round, code
 * "merged") naming the registration number of `drop`, with value that of
 * `keep` -- the replay leaves `drop` out as a deletion -- and the edits
 * that fill the details `keep` lacks (*filled, may be NULL: those fields,
 * XQ_PE_*). Allowed before round 1 is paired; after, only for an entry
 * never paired whose leaving moves no other id or number; never once the
 * knockout has started or a team competition's teams are entered. Returns XQ_OK, XQ_EINVAL with `err` saying why,
 * or XQ_ESTORE. */
int xq_tstore_merge(xq_tstore *st, int keep, int drop, unsigned *filled, xq_error *err);

/* Take a withdrawn player `id` back from round `round` on, which must
 * not be paired yet (a withdrawal event with value 1: the withdrawal
 * stays in the log; docs/store.md). Returns XQ_OK, XQ_EINVAL with `err`
 * (no such player, not withdrawn, the round already paired or beyond the
 * event's planned rounds) or XQ_ESTORE. */
int xq_tstore_reinstate(xq_tstore *st, int round, int id, xq_error *err);

/* Correct the details of player `id`: each field of `fields` (XQ_PE_*)
 * takes its value from `p`; the candidate player (the current details
 * with those changed) must pass xq_player_check. Once round 1 is paired
 * the team may not change (the team standings count the player's every
 * round for one team); the id and the pairing number never change (a
 * rating corrected after the numbers are drawn renumbers no one). One
 * transaction: a row per field that changes, with its old and new text,
 * in the table of edits (schema 9), which xq_tstore_load applies after
 * the log and `tourney log` prints. *changed (may be NULL) gets the
 * fields changed. Returns XQ_OK; XQ_EINVAL with `err` (no such player, a
 * bad field, the team after round 1, nothing changes); XQ_ESTORE. */
int xq_tstore_edit(xq_tstore *st, int id, const xq_tplayer *p, unsigned fields, unsigned *changed,
                   xq_error *err);

/* The details of player `id` that an edit may change (XQ_PE_*: name,
 * sex, birth, region, club, team, rating, local) as the registration and
 * its edits give them -- what xq_tstore_load puts in the event -- written
 * over those fields of *p; its other fields are left as they are. For a
 * caller that keeps a loaded event in step with its own edit instead of
 * loading it again. Returns XQ_OK, XQ_EINVAL (no such player; `err` says
 * so; *p unchanged) or XQ_ESTORE. */
int xq_tstore_player(xq_tstore *st, int id, xq_tplayer *p, xq_error *err);

/* Number the players before round 1: xq_number_players(ev, how), then
 * the numbers stored as a numbering event without a round (its method,
 * the lot's seed, every player's number; docs/store.md). `ev` is the
 * event loaded from `st` (it gets the numbers). Allowed until round 1 is
 * published, again and again: every drawing stays in the log and the
 * last one counts; round 1's publication then fixes them (players
 * registered after the drawing get the next numbers). Returns XQ_OK;
 * XQ_EINVAL with `err` (round 1 already paired, `ev` not the store's
 * current event, what xq_number_players refuses); XQ_ESTORE. */
int xq_tstore_numbers(xq_tstore *st, xq_tournament *ev, const xq_tnumbering *how, xq_error *err);

/* Import a whole event read from TRF (xq_trf_parse) into an empty store,
 * with configuration `cfg` (typically ev->cfg with the store's own rules
 * set): the players in TRF order (ids = TRF numbers; birth dates TRF uses
 * as placeholders, like 1990/00/00, are dropped), then per round the
 * announced absences, the pairing and the results, as if entered one by
 * one — in one transaction, so a file that cannot be stored leaves the
 * store empty. Returns XQ_OK, XQ_EINVAL with `err` naming the player or round,
 * or XQ_ESTORE. */
int xq_tstore_import(xq_tstore *st, const xq_tournament *ev, const xq_tconfig *cfg, xq_error *err);

/* Rebuild the event from the configuration and the whole log, in log
 * order (*out, caller frees with xq_tournament_free). Returns XQ_OK,
 * XQ_ESTORE or XQ_ENOMEM. */
int xq_tstore_load(xq_tstore *st, xq_tournament **out, xq_error *err);

/* Number of events in the log (0 for a new store), or a negative code. */
long xq_tstore_event_count(xq_tstore *st);

/* Print the log, one event a line, to `f` (the audit trail). */
int xq_tstore_dump(xq_tstore *st, FILE *f);


/* ------------------------------------------------------------------ */
/* Live games and tokens (docs/store.md)                               */
/* ------------------------------------------------------------------ */

/* What the live server keeps in the store (schema versions 5 and 6).
 *
 * Threads: a store may be shared by two threads (the server commits on a
 * worker thread and reads on its loop thread); every call below, and
 * every xq_tstore_* call above, runs whole under the store's lock, so
 * calls from different threads never interleave. A batch belongs to the
 * store, not to a thread: while it is open, writes from either thread
 * join it.
 *
 * Tokens: role names "admin", "arbiter", "board", "viewer". A token is
 * 32 lowercase hex characters (128 random bits from libsodium); lookups of
 * anything else are XQ_EINVAL without touching the database. The store
 * keeps only each token's SHA-256 (schema 6, docs/security.md): the
 * token text is in xq_ttoken.token only as token_new and admin_token
 * (when it creates one) return it, and "" in what tokens and token_find
 * return; xq_ttoken.hash is always there. token_revoke takes the token
 * or the XQ_TOKEN_PREFIX_CHARS-character prefix of its hash that
 * `tourney tokens` prints (it must name one live token). Board tokens
 * take round 1..XQ_TOURNEY_ROUNDS_MAX and board 1..XQ_TOURNEY_PLAYERS_MAX
 * (the board need not be paired yet); labels are UTF-8 under
 * XQ_TOURNEY_FIELD_MAX bytes without control characters (NULL = "").
 * token_new and token_revoke fill `err` (may be NULL) and return XQ_OK,
 * XQ_EINVAL (bad role, binding or label; unknown or already revoked
 * token), XQ_ELIMIT (XQ_TOKENS_MAX live tokens), XQ_EIO (no random
 * source: libsodium did not start) or XQ_ESTORE; nothing is written on failure. token_find may
 * take out = NULL (a validity check); it returns XQ_ESTORE on a database
 * error. tokens returns the live tokens in creation order (*out NULL when
 * there are none; on failure *out = NULL, *n = 0). admin_token returns the
 * oldest live admin token and creates one (label "admin") when there is
 * none, also after the last one was revoked; created may be NULL (the
 * token text comes back only when it was created).
 *
 * Game log: rows take round 1..XQ_TOURNEY_ROUNDS_MAX, board
 * 1..XQ_TOURNEY_PLAYERS_MAX, a source XQ_GSRC_*, seq >= 0, an event of 1
 * to XQ_GAME_TEXT_MAX-1 bytes without control characters (one line) and
 * a reply under XQ_GAME_TEXT_MAX bytes (NULL = ""); anything else is
 * XQ_EINVAL with nothing written. An append is one statement, atomic on
 * its own: a refused row leaves an open batch as it was. game_reply and
 * game_last_seq return XQ_EINVAL for a bad round, board (or seq <= 0) and
 * XQ_ESTORE / XQ_ENOMEM on failure. game_scan holds the lock while it
 * runs; fn may call the store (on the same thread), including writes.
 *
 * Batches: batch_begin returns XQ_EINVAL when a batch (or a write) is
 * already open, else XQ_OK or XQ_ESTORE (the write lock was not had within
 * XQ_STORE_BUSY_MS). batch_commit returns XQ_OK once the batch is on disk,
 * XQ_EINVAL when no batch is open, XQ_ESTORE when the commit failed (the
 * batch is then rolled back) or when SQLite had already rolled it back
 * itself (disk full, I/O error: writes made meanwhile are refused with
 * XQ_ESTORE until the batch is committed or rolled back). Both close the
 * batch. batch_rollback drops everything written since batch_begin (no
 * batch: a no-op). Closing a store with a batch open rolls it back. */

/* Roles of a server access token (docs/security.md). */
typedef enum { XQ_ROLE_NONE = 0, XQ_ROLE_ADMIN, XQ_ROLE_ARBITER, XQ_ROLE_BOARD, XQ_ROLE_VIEWER } xq_role;
const char *xq_role_name(int role);          /* "admin", ...; "none" */
int xq_role_parse(const char *s);             /* name -> role, XQ_ROLE_NONE if unknown */
typedef struct xq_ttoken {
  char token[XQ_TOKEN_CHARS + 1];             /* the token itself: only when just made, else "" */
  char hash[XQ_TOKEN_HASH_CHARS + 1];         /* SHA-256 of the token, lowercase hex */
  int role;                                   /* xq_role */
  int round, board;                           /* the table a board token is bound to; 0 otherwise */
  char label[XQ_TOURNEY_FIELD_MAX];           /* free text, e.g. "table 7" */
} xq_ttoken;
/* The tokens' cryptography is libsodium's (store_crypto.c), set up
 * lazily: the first call of xq_sha256, xq_sha256_hex, xq_ct_equal or
 * xq_tstore_token_new runs sodium_init() (idempotent, thread-safe), so a
 * program calls no init function before them.
 *
 * SHA-256 (FIPS 180-4; crypto_hash_sha256) of data[0..len) into out (32
 * bytes), and as 64 lowercase hex characters + NUL: what the store keeps
 * of a token (docs/security.md). Cannot fail. */
void xq_sha256(const void *data, size_t len, unsigned char out[XQ_SHA256_LEN]);
void xq_sha256_hex(const void *data, size_t len, char out[2 * XQ_SHA256_LEN + 1]);
/* 1 when a[0..n) equals b[0..n), else 0, in time that depends on n only
 * (sodium_memcmp, no early exit: token comparisons leak nothing by their
 * timing). */
int xq_ct_equal(const void *a, const void *b, size_t n);
/* New token of 128 random bits (libsodium's randombytes_buf); board tokens need round >= 1 and board >= 1, other roles take 0, 0. One committed transaction (or part of an open batch). */
int xq_tstore_token_new(xq_tstore *st, int role, int round, int board, const char *label, xq_ttoken *out, xq_error *err);
/* The tables of `round` into *pr (cleared first; xq_tpairing_clear it):
 * its published boards, or for XQ_KO_ROUND the knockout tables published
 * so far (red and black of each). XQ_OK; XQ_EINVAL with `err` saying why
 * (the round not paired, no knockout table published); XQ_ESTORE or
 * XQ_ENOMEM. */
int xq_tstore_round_tables(xq_tstore *st, int round, xq_tpairing *pr, xq_error *err);
/* Whether `board` of `round` is a table a board token may open: one of
 * the round's published tables, or for XQ_KO_ROUND one of the knockout
 * tables published, and not the bye. XQ_OK; XQ_EINVAL with `err` saying
 * why (the round not paired, no such table: it names how many there are,
 * the bye); XQ_ESTORE or XQ_ENOMEM. The server and `xqref tourney token`
 * both ask it before they make a board token. */
int xq_tstore_board_table(xq_tstore *st, int round, int board, xq_error *err);
/* A new board token for each table boards[0..n) of round `round`, out[i]
 * that of boards[i], with one label: as n calls of token_new, but in one
 * transaction (one sync to disk; all stored or none: out is zeroed on
 * failure) that counts the live tokens once. Returns XQ_OK or token_new's
 * codes; n = 0 writes nothing. */
int xq_tstore_board_tokens(xq_tstore *st, int round, const int *boards, int n, const char *label, xq_ttoken *out,
                           xq_error *err);
/* Look a token up: XQ_OK and *out, or XQ_EINVAL when unknown or revoked. */
int xq_tstore_token_find(xq_tstore *st, const char *token, xq_ttoken *out);

/* The arbiters' "seen" marks (schema 12, store_seen.c): an arbiter marks
 * the first `seen` rulings of the game at `board` of `round` as seen;
 * `who` is the hash prefix of the arbiter's token (under 32 bytes).
 * seen_set appends the mark (the game's last mark counts) and returns
 * XQ_OK, XQ_EINVAL (round or board under 1, seen under 0, who too long;
 * nothing written) or XQ_ESTORE, `err` filled (may be NULL). seen_scan
 * calls fn(arg, round, board, seen) for every game's last mark, in round
 * and board order; fn returning non-zero stops the scan (its value is
 * returned); XQ_OK, or XQ_ESTORE. */
int xq_tstore_seen_set(xq_tstore *st, int round, int board, int seen, const char *who, xq_error *err);
int xq_tstore_seen_scan(xq_tstore *st, int (*fn)(void *arg, int round, int board, int seen), void *arg,
                        xq_error *err);
int xq_tstore_token_revoke(xq_tstore *st, const char *token, xq_error *err);
/* Every live (not revoked) token, malloc'd array *out of *n (caller frees). */
int xq_tstore_tokens(xq_tstore *st, xq_ttoken **out, int *n, xq_error *err);
/* The store's admin token, created on first call (*created = 1 then, else 0). */
int xq_tstore_admin_token(xq_tstore *st, xq_ttoken *out, int *created, xq_error *err);
/* A number (>= 0) that changes when another connection to the store's file
 * -- another process, such as `xqref tourney revoke` while the server runs
 * -- has committed since it was last read; commits through `st` itself do
 * not change it (SQLite's PRAGMA data_version). Cheap: no table is read.
 * The server polls it to learn of tokens made or revoked behind its back
 * (docs/security.md). Returns the number, or XQ_EINVAL / XQ_ESTORE. */
int64_t xq_tstore_data_version(xq_tstore *st);
/* XQ_OK while the file at the path the store was opened on is the file
 * it opened, and so its write-ahead log (PATH-wal, which holds the commits
 * not yet checkpointed); XQ_ESTORE (`err` says so) once either was deleted
 * or replaced (another file renamed onto the path): from then on every write is
 * refused, since it would go to a file nobody will open again. Every
 * outermost write checks this first (one stat); the server also asks
 * every XQ_TOKEN_RECHECK_MS, to log it while idle. */
int xq_tstore_file_ok(xq_tstore *st, xq_error *err);

/* Sources of a game-log row. */
enum { XQ_GSRC_BOARD = 1, XQ_GSRC_ARBITER = 2, XQ_GSRC_INGEST = 3 };
/* One row of the per-game log: an event the adjudicator replays, and the reply that was sent for it. */
typedef struct xq_tgame_rec {
  int64_t id;        /* row id, increasing over the whole store (filled on read) */
  int round, board;
  int source;        /* XQ_GSRC_* */
  int64_t seq;       /* the sender's sequence number (boards), 0 = none */
  const char *event; /* event text, e.g. "h2e2", "clock:5400000/5390000", "foul-red", "result:1-0", "start:<fen>" */
  const char *reply; /* reply JSON sent for it, "" for none */
  int64_t at_ms;     /* Unix time in ms (filled by append when 0) */
} xq_tgame_rec;
/* Group commit: everything between begin and commit is one transaction; COMMIT returns only when it is durable. Other xq_tstore_* writes made while a batch is open join it (as savepoints, so a failed one undoes only itself). */
int xq_tstore_batch_begin(xq_tstore *st, xq_error *err);
int xq_tstore_batch_commit(xq_tstore *st, xq_error *err);
void xq_tstore_batch_rollback(xq_tstore *st);
int xq_tstore_in_batch(xq_tstore *st);
/* Append a row (its own transaction outside a batch). A second row with the same (round, board, source, seq) for seq > 0 is refused with XQ_EINVAL ("duplicate sequence number") and changes nothing. *id (may be NULL) gets the row id. */
int xq_tstore_game_append(xq_tstore *st, const xq_tgame_rec *r, int64_t *id, xq_error *err);
/* The reply stored for (round, board, XQ_GSRC_BOARD, seq): XQ_OK with *reply malloc'd (caller frees), XQ_EINVAL when there is no such row. */
int xq_tstore_game_reply(xq_tstore *st, int round, int board, int64_t seq, char **reply);
/* Highest board seq stored for (round, board), 0 when none. */
int xq_tstore_game_last_seq(xq_tstore *st, int round, int board, int64_t *seq);
/* Call fn for every row of game (round, board) in id order -- round 0 = every game of the store, ordered by id; fn's pointers are valid during the call only; a non-zero return from fn stops the scan and is returned. */
int xq_tstore_game_scan(xq_tstore *st, int round, int board, int (*fn)(void *ctx, const xq_tgame_rec *r), void *ctx, xq_error *err);

/* ------------------------------------------------------------------ */
/* The knockout log (store/knockout_store.c; the stage: knockout.h)    */
/* ------------------------------------------------------------------ */

/* Publish `g` (from xq_ko_next_game) at the next knockout table
 * (*table its number), and record a table's result (res 1, -1, 0; the
 * same as xq_tstore_result(st, XQ_KO_ROUND, table, code)). One committed
 * transaction each (joining an open batch), checked against the log as
 * it stands: XQ_OK, XQ_EINVAL (no stage, not the match's next game, a
 * game in play already; an unknown or decided table) or XQ_ESTORE. */
int xq_tstore_ko_publish(xq_tstore *st, const xq_ko_game *g, int *table, xq_error *err);
int xq_tstore_ko_result(xq_tstore *st, int table, int res, xq_error *err);

/* Start the stage (the seeds become result KO in the Swiss rounds
 * after ko->after, which must not be paired yet; a knockout-only event,
 * after = XQ_KO_NO_SWISS, wants no Swiss round paired at all and its
 * entrants registered) and record a game. One committed transaction
 * each, in the store's append-only knockout log (a drawn bracket keeps
 * its positions, byes as 0, and its pools in the start record's `choice`
 * column: no schema change). Return XQ_OK, XQ_EINVAL (already started,
 * rounds after the cut paired, no stage) or XQ_ESTORE. */
int xq_tstore_ko_start(xq_tstore *st, const xq_ko *ko, xq_error *err);
int xq_tstore_ko_game(xq_tstore *st, const xq_ko_game *g, xq_error *err);

/* Rebuild the stage from the store's knockout log into *ko (after = 0
 * when none was started). Returns XQ_OK or XQ_ESTORE. */
int xq_tstore_ko_load(xq_tstore *st, xq_ko *ko, xq_error *err);

/* ------------------------------------------------------------------ */
/* The bench of the game log (store_bench.c; `xqref bench --store`)    */
/* ------------------------------------------------------------------ */

typedef struct xq_tstore_bench_opts {
  long rows;        /* rows appended per batch size, 1..XQ_STORE_BENCH_ROWS_MAX */
  const char *dir;  /* where the scratch store is made (and removed again) */
} xq_tstore_bench_opts;

/* Append o->rows game-log rows (moves with replies, over 100 games) to a
 * new store in o->dir in group commits of 1, 50 and 500 rows, each
 * durable, then scan them all and look up replies as a retried message
 * does; one line of rows (or look-ups) per second for each to `out`. The
 * scratch store is removed at the end. Returns XQ_OK; XQ_EINVAL for bad
 * options (a directory name too long: `err` says so); what the store
 * returned, or XQ_ESTORE when a stored reply was not found, with `err`
 * (may be NULL) saying why. */
int xq_tstore_bench(const xq_tstore_bench_opts *o, FILE *out, xq_error *err);

/* ------------------------------------------------------------------ */
/* The demo tournament (demo.c)                                        */
/* ------------------------------------------------------------------ */

/* Fill an empty store with a demo tournament: event "xqref demo open" (2/1/0 scoring, 7 rounds, CXA tie-breaks), `players` (2..XQ_TOURNEY_PLAYERS_MAX) players with plausible Chinese names, ratings, regions and clubs made deterministically, pairing numbers, round 1 paired and published, one board token per round-1 board (label "round 1 table N") and one arbiter token. Returns XQ_OK, XQ_EINVAL (store not empty, bad count) or XQ_ESTORE. */
int xq_tourney_demo(xq_tstore *st, int players, xq_error *err);
/* As xq_tourney_demo, and the tokens it made, with their text (the store
 * keeps only their hashes): a malloc'd array *made of *nmade (caller
 * frees; NULL, 0 on failure). */
int xq_tourney_demo_tokens(xq_tstore *st, int players, xq_ttoken **made, int *nmade, xq_error *err);

#endif /* XQ_TOURNEY_STORE_H */
