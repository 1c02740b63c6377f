/*
 * matching.h -- the perfect-matching oracle of the pairing search
 * (matching.c). Internal to the tourney module.
 */
#ifndef XQ_TOURNEY_MATCHING_H
#define XQ_TOURNEY_MATCHING_H

#include <stdint.h>

#include "tourney.h"

typedef struct xq__matching {
  int n;                /* vertices */
  const uint8_t *adj;   /* [n * n] 1 = may be paired; owned by the caller */
  int *mate;            /* [n] partner or -1 */
  uint8_t *alive;       /* [n] not yet fixed by the search */
  int *p, *base, *q;    /* search scratch */
  uint8_t *used, *blossom, *mark;
  int *log;             /* undo log: (vertex, old mate) pairs */
  int nlog, cap;
} xq__matching;

/* Set up an empty matching over n vertices and the caller's adjacency
 * matrix (kept by reference). Returns XQ_OK or XQ_ENOMEM. */
int xq__matching_init(xq__matching *m, int n, const uint8_t *adj);

void xq__matching_free(xq__matching *m);

/* Make the matching perfect on the alive vertices, trying the greedy
 * choice in `order` first. Returns 1 (perfect), 0 (no perfect matching
 * exists) or XQ_ENOMEM. */
int xq__matching_complete(xq__matching *m, const int *order, int norder);

/* Fix the pair (a, b), both alive and adjacent, and repair the matching
 * of the rest. Returns 1 when the rest still has a perfect matching, 0
 * when not (undo with xq__matching_unfix either way), or XQ_ENOMEM. */
int xq__matching_fix(xq__matching *m, int a, int b);

/* Undo a fix: restore the log to `mark` (m->nlog before the fix). */
void xq__matching_unfix(xq__matching *m, int a, int b, int mark);

/* Restore the mates to the log position `mark`. */
void xq__matching_undo(xq__matching *m, int mark);

#endif /* XQ_TOURNEY_MATCHING_H */
