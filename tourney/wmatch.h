/*
 * wmatch.h -- maximum-weight matching on a general graph (Edmonds'
 * blossom algorithm with dual variables, O(n^3)), with multi-word
 * unsigned edge weights. Used by the FIDE Dutch pairing (pair_dutch.c).
 * Internal to the tourney module.
 */
#ifndef XQ_TOURNEY_WMATCH_H
#define XQ_TOURNEY_WMATCH_H

#include <stdint.h>

#define XQ_WMATCH_LIMBS_MAX 64        /* 4096-bit weights at most */
#define XQ_WMATCH_VERTICES_MAX 10000  /* TRF pairing numbers have 4 digits */

typedef struct xq__wmatch xq__wmatch;

/* Create a solver for n vertices (0..n-1) and weights of `limbs` 64-bit
 * words (least significant first). All weights start at 0 (no edge).
 * The two top bits of the top word must stay clear in every weight (room
 * for the dual variables). Returns the solver (free with xq__wm_free) or
 * NULL when out of memory or the sizes are out of range. */
xq__wmatch *xq__wm_new(int n, int limbs);

void xq__wm_free(xq__wmatch *m);

/* Set the weight of edge {i, j} (i != j; copied), `limbs` words; a
 * weight of 0 means that the two may not be matched. */
void xq__wm_set(xq__wmatch *m, int i, int j, const uint64_t *w);

/* Fix the pair {a, b}: later solves match them together and leave both
 * out of the computation (their edge weights are no longer read). */
void xq__wm_fix(xq__wmatch *m, int a, int b);

/* Compute a matching of maximum total weight (not necessarily of maximum
 * cardinality) and store it in mate[0..n-1]: the partner, or the vertex
 * itself when unmatched. Cannot fail once the solver exists. */
void xq__wm_solve(xq__wmatch *m, int *mate);

#endif /* XQ_TOURNEY_WMATCH_H */
