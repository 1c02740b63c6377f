/*
 * pair/pair.h -- the pairing room of the tourney module: the pairing of a
 * round (its boards and the bye), the pairing numbers (序号: by rating, by
 * lot or by hand), round 1, the Chinese adjacent method (积分编排), the
 * FIDE Dutch system, the arbiter's amendments to a computed pairing, and
 * the next round of an event read from TRF (docs/tourney.md, "Pairing"). The files of
 * tourney/pair/ share pair_internal.h besides.
 */
#ifndef XQ_TOURNEY_PAIR_H
#define XQ_TOURNEY_PAIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "tourney.h"

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

#define XQ_PAIR_NODES_MAX 20000000L   /* search steps of one pairing */
#define XQ_PAIR_BRACKET_NODES 200000L /* steps one score group may spend on one
                                         leftover count (or bye candidate)
                                         before the next is tried */
#define XQ_TOURNEY_CHANGES_MAX 64     /* an arbiter's changes to one pairing */
#define XQ_TOURNEY_REASON_MAX 200     /* bytes of the reason of one, NUL included */
#define XQ_TOURNEY_WARN_MAX 2048      /* the warnings about one amended pairing */
#define XQ_NUM_SEED_MAX UINT64_C(999999999999999) /* 15 digits: a seed every JSON writer prints exactly */
#define XQ_WMATCH_LIMBS_MAX 64        /* 4096-bit weights at most (the Dutch matching, wmatch.c) */
#define XQ_WMATCH_VERTICES_MAX 10000  /* TRF pairing numbers have 4 digits */
#define XQ_RR_ENTRANTS_MAX 50        /* a single round robin's: 49 rounds, XQ_TOURNEY_ROUNDS_MAX */
#define XQ_WMATCH_SPECIAL_MAX 16      /* weight widths (limbs) with code of their own in wmatch.c */

/* ------------------------------------------------------------------ */
/* Pairings, amendments and pairing numbers                            */
/* ------------------------------------------------------------------ */

typedef struct xq_tboard {
  int red;    /* player id */
  int black;  /* player id, 0 = the bye (red holds the recipient) */
} xq_tboard;

typedef struct xq_tpairing {
  int round;
  int nboards;        /* boards including the bye */
  xq_tboard *boards;  /* [nboards], in board order, the bye last */
} xq_tpairing;

/* Free the boards of a pairing (not the struct). NULL-safe. */
void xq_tpairing_clear(xq_tpairing *pr);

/* A change an arbiter makes to a computed pairing before publishing it. */
enum {
  XQ_TCH_SWAP = 1, /* players a and b (ids) trade places */
  XQ_TCH_COLOURS,  /* board a's players trade colours */
  XQ_TCH_MOVE      /* board a goes to table b, the boards between shift */
};
typedef struct xq_tchange {
  int kind;                          /* XQ_TCH_* */
  int a, b;
  char reason[XQ_TOURNEY_REASON_MAX]; /* why (kept in the event log with the pairing) */
} xq_tchange;

/* Apply ch[0..n) to `pr` (a pairing of round pr->round computed for
 * `ev`), in order; then write into warn[0..cap) one line for each
 * absolute rule the pairing breaks (a pair that met before, a colour
 * beyond the limits, a second bye), "" when none: an arbiter may still
 * publish it. XQ_OK, or XQ_EINVAL with `err` when a change names no such
 * player or board (pr is then partly changed: compute it again). */
int xq_pairing_amend(const xq_tournament *ev, xq_tpairing *pr, const xq_tchange *ch, int n, char *warn,
                     size_t cap, xq_error *err);

/* Give every player a pairing number 1..n for the whole event (docs/tourney.md,
 * "Round 1"): by rating (descending, then registration order) or, with
 * XQ_FIRST_BY_LOT, by a shuffle seeded from cfg.lot_seed. Players that
 * already have a number keep it; late entries get the next numbers.
 * Returns XQ_OK. */
int xq_assign_pnos(xq_tournament *ev);

/* How the pairing numbers are given before round 1 (抽签/种子). */
enum { XQ_NUM_RATING = 0, XQ_NUM_LOT, XQ_NUM_MANUAL };

typedef struct xq_tnumbering {
  int method;          /* XQ_NUM_* */
  uint64_t seed;       /* XQ_NUM_LOT: the shuffle's seed, 0..XQ_NUM_SEED_MAX */
  const int *manual;   /* XQ_NUM_MANUAL: [ev->n], manual[id - 1] = that player's number */
} xq_tnumbering;

/* Give every player of `ev` a new pairing number 1..n as `how` says,
 * replacing any it had: XQ_NUM_RATING as xq_assign_pnos does by rating
 * (descending, then registration order), XQ_NUM_LOT by its shuffle
 * seeded from how->seed, XQ_NUM_MANUAL the numbers given, which must be
 * 1..n each once. Returns XQ_OK, or XQ_EINVAL with `err` (a bad method or
 * seed; a manual number out of range, given twice or missing, named)
 * and `ev` unchanged; XQ_ENOMEM. */
int xq_number_players(xq_tournament *ev, const xq_tnumbering *how, xq_error *err);

/* A seed for a drawing of lots from the system's random source
 * (getrandom), 0..XQ_NUM_SEED_MAX. Returns XQ_OK or XQ_EIO. */
int xq_lot_seed_random(uint64_t *seed);

/* The names "rating", "lot", "manual" of XQ_NUM_*; xq_num_method_parse
 * is the inverse (-1 for anything else). */
const char *xq_num_method_name(int method);
int xq_num_method_parse(const char *s);

/* ------------------------------------------------------------------ */
/* The pairing systems                                                 */
/* ------------------------------------------------------------------ */

/* Pair round 1 (docs/tourney.md, "Round 1"): players by pairing number, boards
 * 1–2, 4–3, 5–6, 8–7 (odd board: smaller number Red, even board: larger
 * number Red), the last player of an odd count gets the bye. Absent and
 * withdrawn players are left out. Fills `out` (caller frees with
 * xq_tpairing_clear). Returns XQ_OK, XQ_EINVAL (players without pairing
 * numbers) or XQ_ENOMEM. */
int xq_pair_round1(const xq_tournament *ev, xq_tpairing *out);

/* Statistics of a pairing search. */
typedef struct xq_pair_stats {
  long nodes;       /* search steps */
  int floaters;     /* players paired below their score group */
} xq_pair_stats;

/* Pair round `round` >= 2 with the Chinese adjacent method (docs/tourney.md,
 * "Rounds ≥ 2: Chinese adjacent pairing"): score groups from the top, 异行 (cross-row) then 同行 pairs of
 * the nearest compatible players, fewest leftovers per group (floaters
 * placed first in the next group), no rematch, colour limits, bye to
 * the lowest eligible player and never twice; colours by the steps 1,
 * 2, 3 and 5C of "Pairing"; boards in board order. Rounds before `round` must be complete.
 * Round 1 is delegated to xq_pair_round1. Fills `out` and, if non-NULL,
 * `st`. Returns XQ_OK; XQ_ENOPAIRING when no pairing satisfies the pairing rules;
 * XQ_ELIMIT when the search exceeded XQ_PAIR_NODES_MAX; XQ_EINVAL;
 * XQ_ENOMEM. `out` is untouched on failure. */
int xq_pair_cn(const xq_tournament *ev, int round, xq_tpairing *out, xq_pair_stats *st);

/* Pair round `round` with the FIDE Dutch system (C.04.3, 2025 rules) as
 * bbpPairings does it (docs/tourney.md, "FIDE Dutch"): maximum-weight matchings bracket
 * by bracket, round 1 top half against bottom half, forfeited games not
 * counted as played, PAB by C.2/C.9, colours by C.04.3 E with the initial
 * colour of ev->initial_black, boards in bbpPairings' order (the bye
 * last). Paired are the players without a block for `round` (withdrawal
 * rules are not applied); cfg.rounds tells the last round. Fills `out`
 * (caller frees with xq_tpairing_clear). Returns XQ_OK; XQ_ENOPAIRING
 * when the absolute criteria cannot be met; XQ_ELIMIT when the weights
 * do not fit; XQ_EINVAL; XQ_ENOMEM. */
int xq_pair_dutch(const xq_tournament *ev, int round, xq_tpairing *out);

/* ------------------------------------------------------------------ */
/* The round-robin table (pair_berger.c)                               */
/* ------------------------------------------------------------------ */

/* The table's size N for n entrants: n, or n + 1 (the bye) when n is odd. */
int xq_rr_size(int n);

/* Rounds of a round robin of n entrants played `cycles` (1 or 2) times:
 * (N − 1)·cycles; 0 for n < 2 or another number of cycles. */
int xq_rr_rounds(int n, int cycles);

/* Board k (1..N/2) of round r (1..N−1) of the table of size N (even,
 * >= 2), by number: the first-named is Red (docs/tourney.md, "Round
 * robins"): N meets p(r) on board 1 (N Red in even rounds), and the
 * other boards pair the numbers either side of p(r), modulo N − 1. The
 * same numbers as FIDE's Berger tables. Cannot fail. */
void xq_rr_table_board(int N, int r, int k, int *red, int *black);

/* Which table round round `round` (1..xq_rr_rounds(n, cycles)) of the
 * event plays, and whether its colours are reversed (the second cycle).
 * With `swap` set and two cycles the first cycle's last two rounds are
 * played in the other order. Returns XQ_OK, or XQ_EINVAL for a round or
 * a number of cycles out of range. */
int xq_rr_schedule(int n, int cycles, int swap, int round, int *table_round, int *reversed);

/* The boards of round `round` of a round robin of n entrants, by number,
 * into out[] (room for n/2 + 1): the games in board order, then, when n
 * is odd, the entrant who meets the phantom number as {red = it, black =
 * 0} (the bye, last). Returns the number of boards, or -1 for a round or
 * a number of cycles out of range. */
int xq_rr_round(int n, int cycles, int swap, int round, xq_tboard *out);

/* Pair round `round` of a round-robin event (cfg.format XQ_FORMAT_RR)
 * from the table, every registered player by his pairing number, which
 * must be 1..n each once (in groups, cfg.rr_groups: each group from its
 * own table by the numbers inside it, xq_rr_group_members; the games
 * group by group, then every bye); withdrawn players stay in their boards (the
 * standings apply the withdrawal rule, xq_rr_withdrawals). Fills `out`
 * (caller frees with xq_tpairing_clear). Returns XQ_OK, XQ_EINVAL (not a
 * round robin, a round out of range, numbers missing or not 1..n) or
 * XQ_ENOMEM. */
int xq_pair_rr(const xq_tournament *ev, int round, xq_tpairing *out);

/* Pairing systems: the Swiss ones an event or `xqref pair` may choose. */
enum { XQ_PAIR_CN = 0, XQ_PAIR_DUTCH = 1 };

/* "cn" -> XQ_PAIR_CN, "dutch" -> XQ_PAIR_DUTCH, anything else -> -1. */
int xq_pair_system_parse(const char *s);

/* Pair round `round` of a round-robin event from its table (xq_pair_rr:
 * `system` is not read), of a Swiss event with `system` (XQ_PAIR_*), leaving out the players
 * withdrawn for the round under either system. For Dutch the withdrawn
 * are marked absent (zero-point) in `ev`'s slots of that round, so pass
 * an event you own (a loaded copy). `st` (may be NULL) gets the search
 * statistics of the Chinese pairer (zeros for Dutch). Returns what the
 * pairer returns (XQ_OK, XQ_ENOPAIRING, XQ_ELIMIT, ...), XQ_EINVAL for a
 * bad system or round. */
int xq_pair_system(xq_tournament *ev, int round, int system, xq_tpairing *out, xq_pair_stats *st);

/* Write a pairing into the event's round table (opponents, colours, the
 * PAB for the bye; results pending) and mark announced-absent players of
 * that round ZPB. Returns XQ_OK or XQ_EINVAL for a bad round or id. */
int xq_tournament_apply_pairing(xq_tournament *ev, const xq_tpairing *pr);

/* Forget the pairing of `round` (a withdrawn pairing, xq_tstore_unpublish):
 * every player's opponent, colour and result of that round cleared (an
 * absence announced for it stays), and the rounds back to round - 1 when
 * it was the last. Returns XQ_OK or XQ_EINVAL for a bad round. */
int xq_tournament_unapply_pairing(xq_tournament *ev, int round);

/* True when players a and b may meet in `round` ("Pairing": no rematch,
 * a colour allocation within the limits). Used by tests and the CLI. */
int xq_pair_compatible(const xq_tournament *ev, int round, int a, int b);

/* True when Red `red` and Black `black` in `round` keep both players within
 * the colour limits (with the last-round top-scorer relaxation). */
int xq_pair_colours_ok(const xq_tournament *ev, int round, int red, int black);

/* ------------------------------------------------------------------ */
/* The next round of an event read from TRF (next_round.c)             */
/* ------------------------------------------------------------------ */

/* How xq_trf_pair_next pairs. */
typedef struct xq_trf_pair_opts {
  int system;  /* XQ_PAIR_CN or XQ_PAIR_DUTCH */
  int round;   /* pair this round as if only rounds 1..round-1 were in the
                  file (blocks of it other than games and the PAB kept as
                  announced absences); 0 = the round after the last */
  int rounds;  /* the event's rounds, overriding XXR / 142; 0 = the file's */
} xq_trf_pair_opts;

/* Pair the next round of `ev` (xq_trf_next_round, after o->round and
 * o->rounds are applied to `ev`, which is changed) with xq_pair_cn or
 * xq_pair_dutch into `out` (caller frees with xq_tpairing_clear). Returns
 * XQ_OK; XQ_EINVAL for bad options, or with `err` (may be NULL) saying
 * why when the round cannot be paired (not the round asked for, every
 * round paired, games without a result); the pairer's code (XQ_ENOPAIRING,
 * XQ_ELIMIT, ...) with `err` naming the round. */
int xq_trf_pair_next(xq_tournament *ev, const xq_trf_pair_opts *o, xq_tpairing *out, xq_error *err);

/* Write `pr` as bbpPairings does: the number of boards (the bye counts),
 * then "red black" a line, 0 for the bye. Returns XQ_OK, XQ_EINVAL or
 * XQ_EIO. */
int xq_pairing_write_bbp(const xq_tpairing *pr, FILE *f);

#endif /* XQ_TOURNEY_PAIR_H */
