/*
 * internal.h -- helpers shared by the files of the tourney module (xq__
 * prefix) that belong to the tournament model itself: slots, withdrawals,
 * lots, TRF acceleration and knockout seeds. The rooms of the module have
 * their own: pair/pair_internal.h (pairing), store/store_internal.h (the
 * SQLite store) and sheet/sheet_internal.h (printed sheets). Not part of
 * the public interface.
 */
#ifndef XQ_TOURNEY_INTERNAL_H
#define XQ_TOURNEY_INTERNAL_H

#include "tourney.h"

/* True when the slot is a game played over the board (W, D, L) (event.c). */
int xq__played(const xq_tslot *s);

/* Acceleration of every player in round `round`, from the event's TRF
 * XXA and 250 lines (trf.c): acc[id] for id 1..ev->n (acc has ev->n + 1
 * entries), in half-units, 0 without such lines. Returns 1 when some
 * player has a non-zero acceleration in that round, else 0. */
int xq__trf_accel(const xq_tevent *ev, int round, int *acc);

/* True when player `id` is withdrawn for `round` (explicitly, or by the
 * missed-rounds rule over rounds before it) (event.c). */
int xq__withdrawn(const xq_tevent *ev, int id, int round);
/* The round (1..upto) whose missed game makes player `id` reach the
 * withdrawal rule's count (cfg.missed_rounds_withdraw; only missed rounds
 * in a row with cfg.withdraw_consecutive), or 0 when it is not reached
 * (event.c). */
int xq__missed_out(const xq_tevent *ev, int id, int upto);

/* 64-bit mixer (splitmix64) for lots (event.c). */
uint64_t xq__mix64(uint64_t x);

/* The knockout seed (1..) of player `id` -- in a drawn bracket its
 * position -- or 0 when it is not in the bracket (knockout.c). */
struct xq_ko;
int xq__ko_seed(const struct xq_ko *ko, int id);

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
/* places, teams, prizes, groups (cli_final.c): returns 0, 1 or 2. */
int xq__tourney_results(const xq__kopts *o, const char *action);

/* The live-server actions of `xqref tourney` (cli_live.c): true when
 * `action` is one of demo, token, tokens, revoke, games; then
 * xq__tourney_live_main runs it (returns 0, 1 or 2). */
int xq__tourney_live_action(const char *action);
int xq__tourney_live_main(int argc, char **argv);

#endif /* XQ_TOURNEY_INTERNAL_H */
