/*
 * matching.c -- a perfect-matching oracle for the pairing search: Edmonds'
 * blossom algorithm over the compatibility graph, kept up to date as the
 * search fixes pairs, with an undo log for backtracking.
 *
 * The search asks one question: once these two players are paired, can
 * everybody else still be paired? The oracle holds a perfect matching of
 * the players not yet fixed (plus a dummy "bye" vertex joined to the
 * bye-eligible players when the count is odd). Fixing a pair that the
 * matching already holds costs nothing; otherwise the two freed partners
 * are re-matched by one augmenting-path search. No augmenting path means
 * no complete pairing exists: the search prunes that branch at once
 * instead of discovering it by exhaustion.
 */
#include <stdlib.h>
#include <string.h>

#include "matching.h"

int xq__matching_init(xq__matching *m, int n, const uint8_t *adj)
{
  memset(m, 0, sizeof *m);
  m->n = n;
  m->adj = adj;
  size_t nn = (size_t)(n ? n : 1);
  m->mate = malloc(sizeof(int) * nn);
  m->p = malloc(sizeof(int) * nn);
  m->base = malloc(sizeof(int) * nn);
  m->q = malloc(sizeof(int) * nn);
  m->used = malloc(nn);
  m->blossom = malloc(nn);
  m->mark = malloc(nn);
  m->alive = malloc(nn);
  m->cap = 1024;
  m->log = malloc(sizeof(int) * 2 * (size_t)m->cap);
  if (!m->mate || !m->p || !m->base || !m->q || !m->used || !m->blossom || !m->mark ||
      !m->alive || !m->log) {
    xq__matching_free(m);
    return XQ_ENOMEM;
  }
  for (int i = 0; i < n; i++) m->mate[i] = -1;
  memset(m->alive, 1, nn);
  return XQ_OK;
}

void xq__matching_free(xq__matching *m)
{
  free(m->mate); free(m->p); free(m->base); free(m->q); free(m->used);
  free(m->blossom); free(m->mark); free(m->alive); free(m->log);
  memset(m, 0, sizeof *m);
}

/* Change a mate, remembering the old value for xq__matching_undo. */
static int setmate(xq__matching *m, int v, int to)
{
  if (m->nlog == m->cap) {
    int *l = realloc(m->log, sizeof(int) * 4 * (size_t)m->cap);
    if (!l) return XQ_ENOMEM;
    m->log = l;
    m->cap *= 2;
  }
  m->log[2 * m->nlog] = v;
  m->log[2 * m->nlog + 1] = m->mate[v];
  m->nlog++;
  m->mate[v] = to;
  return XQ_OK;
}

void xq__matching_undo(xq__matching *m, int mark)
{
  while (m->nlog > mark) {
    m->nlog--;
    m->mate[m->log[2 * m->nlog]] = m->log[2 * m->nlog + 1];
  }
}

static int lca(xq__matching *m, int a, int b)
{
  memset(m->mark, 0, (size_t)m->n);
  for (;;) {
    a = m->base[a];
    m->mark[a] = 1;
    if (m->mate[a] == -1) break;
    a = m->p[m->mate[a]];
  }
  for (;;) {
    b = m->base[b];
    if (m->mark[b]) return b;
    b = m->p[m->mate[b]];
  }
}

static void mark_path(xq__matching *m, int v, int b, int child)
{
  while (m->base[v] != b) {
    m->blossom[m->base[v]] = m->blossom[m->base[m->mate[v]]] = 1;
    m->p[v] = child;
    child = m->mate[v];
    v = m->p[m->mate[v]];
  }
}

/* Breadth-first search for an augmenting path from the exposed `root`,
 * contracting odd cycles (blossoms). Returns the exposed vertex reached,
 * with p[] describing the path, or -1. */
static int find_path(xq__matching *m, int root)
{
  int n = m->n, qh = 0, qt = 0;
  memset(m->used, 0, (size_t)n);
  for (int i = 0; i < n; i++) { m->p[i] = -1; m->base[i] = i; }
  m->used[root] = 1;
  m->q[qt++] = root;
  while (qh < qt) {
    int v = m->q[qh++];
    const uint8_t *row = m->adj + (size_t)v * n;
    for (int to = 0; to < n; to++) {
      if (!row[to] || !m->alive[to]) continue;
      if (m->base[v] == m->base[to] || m->mate[v] == to) continue;
      if (to == root || (m->mate[to] != -1 && m->p[m->mate[to]] != -1)) {
        int cur = lca(m, v, to);
        memset(m->blossom, 0, (size_t)n);
        mark_path(m, v, cur, to);
        mark_path(m, to, cur, v);
        for (int i = 0; i < n; i++)
          if (m->alive[i] && m->blossom[m->base[i]]) {
            m->base[i] = cur;
            if (!m->used[i]) { m->used[i] = 1; m->q[qt++] = i; }
          }
      } else if (m->p[to] == -1) {
        m->p[to] = v;
        if (m->mate[to] == -1) return to;
        m->used[m->mate[to]] = 1;
        m->q[qt++] = m->mate[to];
      }
    }
  }
  return -1;
}

static int augment(xq__matching *m, int v)
{
  while (v != -1) {
    int pv = m->p[v], next = m->mate[pv];
    if (setmate(m, v, pv) || setmate(m, pv, v)) return XQ_ENOMEM;
    v = next;
  }
  return XQ_OK;
}

int xq__matching_complete(xq__matching *m, const int *order, int norder)
{
  /* greedy first, in the order the search will prefer, so that the
   * search's own choices mostly coincide with the matching */
  for (int a = 0; a < norder; a++) {
    int v = order[a];
    if (!m->alive[v] || m->mate[v] != -1) continue;
    for (int b = a + 1; b < norder; b++) {
      int u = order[b];
      if (m->alive[u] && m->mate[u] == -1 && m->adj[(size_t)v * m->n + u]) {
        if (setmate(m, v, u) || setmate(m, u, v)) return XQ_ENOMEM;
        break;
      }
    }
  }
  for (int v = 0; v < m->n; v++) {
    if (!m->alive[v] || m->mate[v] != -1) continue;
    int t = find_path(m, v);
    if (t < 0) return 0;
    if (augment(m, t)) return XQ_ENOMEM;
  }
  return 1;
}

int xq__matching_fix(xq__matching *m, int a, int b)
{
  int x = m->mate[a], y = m->mate[b];
  m->alive[a] = m->alive[b] = 0;
  if (x == b) return 1;
  /* a and b leave; their partners x and y are exposed and must find each
   * other through an augmenting path */
  if (setmate(m, a, -1) || setmate(m, b, -1) || setmate(m, x, -1) || setmate(m, y, -1))
    return XQ_ENOMEM;
  int t = find_path(m, x);
  if (t < 0) return 0;
  return augment(m, t) ? XQ_ENOMEM : 1;
}

void xq__matching_unfix(xq__matching *m, int a, int b, int mark)
{
  xq__matching_undo(m, mark);
  m->alive[a] = m->alive[b] = 1;
}
