/*
 * wmatch.h -- maximum-weight matching on a general graph (Edmonds'
 * blossom algorithm with dual variables), with multi-word unsigned edge
 * weights. The solution is kept between solves: after the weights at a
 * few vertices change, or a pair is fixed, the next solve only repairs
 * it (one phase of alternating trees from the vertices re-opened, O(n)
 * per vertex scanned, instead of O(n^3) from scratch). Used by the FIDE
 * Dutch pairing (pair_dutch.c). Internal to the tourney module.
 */
#ifndef XQ_TOURNEY_WMATCH_H
#define XQ_TOURNEY_WMATCH_H

#include <stdint.h>

#include "pair.h" /* the limits: XQ_WMATCH_LIMBS_MAX, XQ_WMATCH_VERTICES_MAX */

typedef struct xq__wmatch xq__wmatch;

/* Create a solver for n vertices (0..n-1) and weights of `limbs` 64-bit
 * words (least significant first), every weight below 2^bits (bits <=
 * 64 limbs - 4: room for the dual variables). All weights start at 0
 * (no edge). Returns the solver (free with xq__wmatch_free) or NULL when out
 * of memory or the sizes are out of range. */
xq__wmatch *xq__wmatch_new(int n, int limbs, int bits);

void xq__wmatch_free(xq__wmatch *m);

/* Set the weight of edge {i, j} (i != j; copied), `limbs` words below
 * 2^bits; a weight of 0 means that the two may not be matched. When the
 * weight changes, i is re-opened by the next solve (unless j already is):
 * pass first the vertex whose edges change together. Ignored once i or j
 * is fixed (those weights are never read again). */
void xq__wmatch_set(xq__wmatch *m, int i, int j, const uint64_t *w);

/* Fix the pair {a, b}: later solves match them together and leave both
 * out of the computation (their edge weights are no longer read, and are
 * dropped from the weight matrix once a quarter of it is unused). Fixing
 * cannot be undone. */
void xq__wmatch_fix(xq__wmatch *m, int a, int b);

/* Compute a matching of maximum total weight (not necessarily of maximum
 * cardinality) and store it in mate[0..n-1]: the partner, or the vertex
 * itself when unmatched. Which of several optimal matchings is returned
 * depends on the history of the solver. Allocates nothing; cannot fail
 * once the solver exists. */
void xq__wmatch_solve(xq__wmatch *m, int *mate);

#endif /* XQ_TOURNEY_WMATCH_H */
