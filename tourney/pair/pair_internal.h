/*
 * pair_internal.h -- what the pairing methods of tourney/pair/ share
 * (pair_util.c): who is paired, bye eligibility, colour history, limits
 * and allocation (docs/tourney.md, "Who is paired", "Pairing"), and the board order,
 * which the store's TRF import uses too. xq__pair_ prefix; not part of
 * the public interface.
 */
#ifndef XQ_TOURNEY_PAIR_INTERNAL_H
#define XQ_TOURNEY_PAIR_INTERNAL_H

#include "pair.h"
#include "tourney.h"

/* Colour history of a player over the played games (W/D/L) of rounds
 * 1..upto: counts, and the last two colours (last[0] most recent,
 * XQ_TC_NONE when missing). */
typedef struct xq__pair_colhist {
  int reds, blacks;
  int last[2];
} xq__pair_colhist;

void xq__pair_colour_history(const xq_tournament *ev, int id, int upto, xq__pair_colhist *h);

/* Ids of the players to pair in `round` (docs/tourney.md, "Who is paired") into ids[] (room
 * for ev->n); returns their number. */
int xq__pair_pool(const xq_tournament *ev, int round, int *ids);

/* True when `id` may still receive the PAB. */
int xq__pair_bye_eligible(const xq_tournament *ev, int id, int round);

/* True when `id` may take colour `c` in `round` within the limits. */
int xq__pair_colour_ok(const xq_tournament *ev, int id, int round, int c);

/* Colour of `a` against `b` in `round` by docs/tourney.md, "Pairing" (Chinese mode:
 * steps 1, 2, 3, 5C), corrected to keep both within the colour limits. */
int xq__pair_allocate(const xq_tournament *ev, int round, int a, int b);

/* Sort the boards of a pairing into board order, the bye last ("Pairing"). */
void xq__pair_sort_boards(const xq_tournament *ev, xq_tpairing *pr);

#endif /* XQ_TOURNEY_PAIR_INTERNAL_H */
