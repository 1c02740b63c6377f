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

/* Fill `err` (may be NULL) with `code`, no position and the message
 * printf-formatted from `fmt` (cut to the record's length); returns
 * `code`. */
#define xq__error(err, code, ...) xq_error_set((err), (code), -1, -1, __VA_ARGS__)

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

#endif /* XQ_TOURNEY_INTERNAL_H */
