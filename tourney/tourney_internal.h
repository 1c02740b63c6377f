/*
 * tourney_internal.h -- helpers shared by the files of the tourney module
 * that belong to the tournament model itself: slots, withdrawals, lots,
 * TRF acceleration and knockout seeds. Not part of the public interface.
 *
 * Names: a helper shared across files is xq__ and the name of the file
 * that defines it (xq__event_played in event.c, xq__trf_accel in trf.c).
 * The rooms keep their own private headers, and their helpers carry the
 * room's name, whichever file of the room defines them: xq__pair_
 * (pair/pair_internal.h), xq__store_ (store/store_internal.h), xq__sheet_
 * (sheet/sheet_internal.h); the two matchers of pair/ have a header each
 * and their file's name (xq__matching_, xq__wmatch_).
 */
#ifndef XQ_TOURNEY_INTERNAL_H
#define XQ_TOURNEY_INTERNAL_H

#include "tourney.h"

/* Fill `err` (may be NULL) with `code`, no position and the message
 * printf-formatted from `fmt` (cut to the record's length); returns
 * `code`. */
#define xq__error(err, code, ...) xq_error_set((err), (code), -1, -1, __VA_ARGS__)

/* True when the slot is a game played over the board (W, D, L) (event.c). */
int xq__event_played(const xq_tslot *s);

/* Acceleration of every player in round `round`, from the event's TRF
 * XXA and 250 lines (trf.c): acc[id] for id 1..ev->n (acc has ev->n + 1
 * entries), in half-units, 0 without such lines. Returns 1 when some
 * player has a non-zero acceleration in that round, else 0. */
int xq__trf_accel(const xq_tournament *ev, int round, int *acc);

/* True when player `id` is withdrawn for `round` (explicitly, or by the
 * missed-rounds rule over rounds before it) (event.c). */
int xq__event_withdrawn(const xq_tournament *ev, int id, int round);
/* The round (1..upto) whose missed game makes player `id` reach the
 * withdrawal rule's count (cfg.missed_rounds_withdraw; only missed rounds
 * in a row with cfg.withdraw_consecutive), or 0 when it is not reached
 * (event.c). */
int xq__event_missed_out(const xq_tournament *ev, int id, int upto);

/* True when any slot of `ev` holds an opponent or a result: a round is
 * paired (event.c). */
int xq__event_paired(const xq_tournament *ev);
/* Take player `id` (1..ev->n) out of `ev` as if never registered: the
 * players after him move down one id with their slots, the pairing
 * numbers above his close up, forbidden pairs naming him go (event.c;
 * xq_tournament_remove and xq_tournament_merge check first). */
void xq__event_close_up(xq_tournament *ev, int id);

/* 64-bit mixer (splitmix64) for lots (event.c). */
uint64_t xq__event_mix64(uint64_t x);
/* Player id's draw in the event's lot (LOT, 不并列): a hash of the stored
 * seed and his pairing number, the lowest ranking first (standings.c). */
uint64_t xq__lot_draw(const xq_tournament *ev, int id);

/* The knockout seed (1..) of player `id` -- in a drawn bracket its
 * position -- or 0 when it is not in the bracket (knockout.c). */
struct xq_ko;
int xq__knockout_seed(const struct xq_ko *ko, int id);

#endif /* XQ_TOURNEY_INTERNAL_H */
