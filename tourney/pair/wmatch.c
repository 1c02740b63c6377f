/*
 * wmatch.c -- maximum-weight matching on a general graph: Edmonds'
 * blossom algorithm with vertex and blossom dual variables, kept between
 * solves. Weights are multi-word unsigned integers, so that the FIDE
 * Dutch criteria can be packed into one weight in strict priority order
 * (docs/tourney.md, "FIDE Dutch").
 *
 * The solver keeps an optimal solution (matching, duals, blossoms) from
 * one solve to the next. When the weights at a vertex v change, v is
 * re-opened: the blossoms containing v are dissolved (their dual moves
 * onto their vertices, so every edge stays feasible), v's dual is set to
 * the least value that keeps all its edges feasible, and v keeps its
 * partner when their edge still attains that bound (it stays tight);
 * otherwise both are unmatched. Every free vertex whose dual is still
 * positive ("deficient") is then the root of an alternating tree, and
 * all these trees grow in one phase, sharing every dual change: a tree
 * ends when its root is matched (a tight edge to a free vertex or to
 * another tree) or some vertex of it reaches a zero dual (the even path
 * to that vertex is flipped, so the root is matched and that vertex is
 * left free), and the other trees keep their labels. When a bracket is
 * re-opened, most of its vertices are roots, and two trees meet after a
 * few scans; one tree at a time would first label the whole component of
 * tight edges, again for every root. Each vertex keeps the least slack
 * of its edges to S vertices as a key that stays constant while the
 * labels do (e_exact), and a vertex whose tree ended keeps a lower bound
 * of it, computed again only when it could be the least (phase).
 *
 * Optimality (LP duality): duals y >= 0 and z >= 0 with every edge of
 * slack >= 0, every matched edge of slack 0, every free vertex of dual 0
 * and every blossom with z > 0 full. Slack of (u, v):
 * y[u] + y[v] - 2 w(u, v) + 2 * (sum of z over blossoms holding both);
 * the weights are stored shifted left by at least one bit (doubled), so
 * that no shift is needed and a slack between S vertices is even. Vertices
 * 0..n-1, blossoms n..2n-1; the children of a blossom form a circular
 * doubly linked list starting at the child that holds its base, with the
 * edge to the next child stored at each child (enx in it, eny in the
 * next one).
 *
 * Memory and width: the weight and adjacency matrices hold the alive
 * vertices only (compact: the rows of the fixed ones are dropped as the
 * pairs get fixed, so that a scan reads a short dense row), and the hot
 * loops are compiled for each width up to 16 words (BY_WIDTH).
 */
#include <stdlib.h>
#include <string.h>

#include "wmatch.h"

enum { LB_NONE = 0, LB_S = 1, LB_T = 2 };



struct xq__wmatch {
  int n, L;
  int sh;             /* weights are stored shifted left by sh bits */
  uint64_t *w;        /* [nc * nc * L] weights << sh, of the alive
                       * vertices only (row and column col[v]) */
  uint8_t *adj;       /* [nc * nc] weight != 0 */
  int nc;             /* size of the matrices */
  int *col;           /* [n] row and column of a vertex, -1 once dropped */
  uint64_t *dual;     /* [2n * L] y of vertices, z of blossoms */
  int *mate;          /* [n] partner or -1 */
  int *inb;           /* [n] top-level blossom (or the vertex itself) */
  int *parent;        /* [2n] enclosing blossom or -1 */
  int *base;          /* [2n] base vertex; -1 for an unused blossom id */
  int *first;         /* [2n] child holding the base */
  int *next, *prev;   /* [2n] siblings in the parent's cycle */
  int *enx, *eny;     /* [2n] edge to the next sibling */
  int *label, *lfrom, *lto; /* [2n] label of a top-level blossom, and the
                             * edge it got it through (lfrom outside) */
  int *beste;         /* [n] non-S vertex: S neighbour of least slack */
  int *bests;         /* [n] S vertex: S neighbour (other blossom) of least
                       * slack (see e_exact for the values) */
  uint64_t *bev, *bsv;   /* [n * L] their slacks plus dtot (beste) or 2 dtot
                          * (bests): constant while both ends keep their
                          * labels; a lower bound once the record is stale */
  unsigned *gen;      /* [n] times the vertex stopped being an S vertex */
  unsigned *egen, *sgen; /* [n] gen of the beste / bests vertex when recorded */
  int *unused, nunused;  /* free blossom ids */
  uint8_t *alive;     /* [n] not fixed */
  int *alist, nalive; /* alive vertices */
  int *fixed;         /* [n] fixed partner or -1 */
  uint8_t *dirty;     /* [n] weights changed since the last solve */
  int *dlist, ndirty;
  uint8_t *incand;    /* [n] in clist */
  int *clist, ncand;  /* vertices that may have become deficient */
  int *q, qh, qn;     /* S vertices to scan: a ring of n, from qh, qn of them */
  uint8_t *inq;       /* [n] in q */
  int *tree;          /* [2n] root of the tree of a labelled top-level blossom */
  int *dead;          /* [n] trees ended by an augmentation (scratch) */
  int ntrees;         /* trees still growing */
  int *mark, stamp;   /* [2n] for the base search */
  int *lv;            /* [n] scratch leaves */
  int *pc, *px, *py;  /* [n] scratch paths */
  uint64_t *t1, *t2, *d;
  uint64_t *dtot, *dtot2; /* sum of the dual changes of the phase, twice it */
  uint64_t *t3, *sk;
  int fresh;          /* never solved */
};

/* ---- multi-word arithmetic (L limbs, least significant first) ---- */

/* The hot loops (scan, recompute_best, the dual change of a phase) are
 * compiled once for each width up to XQ_WMATCH_SPECIAL_MAX limbs, with
 * every helper inlined, so that the compiler unrolls the carry chains and
 * comparisons of the width it knows (scan dispatches on m->L). */
#if defined(__GNUC__) || defined(__clang__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

HOT int bzero_(const uint64_t *a, int L)
{
  for (int i = 0; i < L; i++) if (a[i]) return 0;
  return 1;
}

HOT int bcmp_(const uint64_t *a, const uint64_t *b, int L)
{
  for (int i = L - 1; i >= 0; i--)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

HOT void badd(uint64_t *r, const uint64_t *a, const uint64_t *b, int L)
{
  uint64_t c = 0;
  for (int i = 0; i < L; i++) {
    uint64_t s = a[i] + c;
    c = s < c;
    uint64_t t = s + b[i];
    c += t < s;
    r[i] = t;
  }
}

HOT void bsub(uint64_t *r, const uint64_t *a, const uint64_t *b, int L)
{
  uint64_t br = 0;
  for (int i = 0; i < L; i++) {
    uint64_t x = a[i], y = b[i];
    uint64_t d = x - y - br;
    br = (x < y) || (x == y && br);
    r[i] = d;
  }
}

HOT void bshr1(uint64_t *r, const uint64_t *a, int L)
{
  for (int i = 0; i < L; i++) r[i] = (a[i] >> 1) | (i + 1 < L ? a[i + 1] << 63 : 0);
}

HOT void bcpy(uint64_t *r, const uint64_t *a, int L)
{
  memcpy(r, a, (size_t)L * sizeof *a);
}

/* r = x + y - w2 modulo 2^(64 L): the slack of an edge from the duals
 * of its ends and its doubled weight (never negative, so exact). */
HOT void slack_limbs(const uint64_t *x, const uint64_t *y, const uint64_t *w2,
                               uint64_t *r, int L)
{
  uint64_t c = 0, br = 0; /* carry and borrow, 0 or 1 */
  for (int i = 0; i < L; i++) {
    /* branch-free: at most one of each pair of flags is set */
    uint64_t s = x[i] + y[i], c1 = s < x[i];
    uint64_t t = s + c, c2 = t < s;
    c = c1 | c2;
    uint64_t d = t - w2[i], b1 = t < w2[i];
    r[i] = d - br;
    br = b1 | (d < br);
  }
}

HOT void slack_of(const uint64_t *x, const uint64_t *y, const uint64_t *w2, uint64_t *r, int L)
{
  if (L == 1) r[0] = x[0] + y[0] - w2[0];
  else slack_limbs(x, y, w2, r, L);
}

/* The top two words of a number as one (its only word when L = 1): the
 * pruning tests of scan and recompute_best compare these first. */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 hword;
HOT hword hi_of(const uint64_t *a, int L)
{
  return L >= 2 ? ((hword)a[L - 1] << 64) | a[L - 2] : a[0];
}
#else
typedef uint64_t hword;
HOT hword hi_of(const uint64_t *a, int L)
{
  return a[L - 1];
}
#endif

/* ---- accessors ---- */

#define W(m, u, v) \
  ((m)->w + ((size_t)(m)->col[u] * (size_t)(m)->nc + (size_t)(m)->col[v]) * (size_t)(m)->L)
#define ADJ(m, u, v) ((m)->adj[(size_t)(m)->col[u] * (size_t)(m)->nc + (size_t)(m)->col[v]])
#define Y(m, x) ((m)->dual + (size_t)(x) * (size_t)(m)->L)
/* the same, for a width L known to the compiler */
#define YL(m, x) ((m)->dual + (size_t)(x) * (size_t)L)
#define WROW(m, u) ((m)->w + (size_t)(m)->col[u] * (size_t)(m)->nc * (size_t)L)
#define AROW(m, u) ((m)->adj + (size_t)(m)->col[u] * (size_t)(m)->nc)

xq__wmatch *xq__wmatch_new(int n, int limbs, int bits)
{
  if (n < 0 || n > XQ_WMATCH_VERTICES_MAX || limbs < 1 || limbs > XQ_WMATCH_LIMBS_MAX ||
      bits < 1 || bits > 64 * limbs - 4) return NULL;
  xq__wmatch *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->n = n;
  m->L = limbs;
  /* doubled at least (the slack of an edge between two S vertices stays
   * even), and as far up as allows every dual below 2^(64 L - 3) (so the
   * keys of the best-edge records, a slack plus twice the dual changes of
   * a phase, stay below 2^(64 L - 1)), so that the top word of a slack
   * tells many edges apart (scan) */
  m->sh = 64 * limbs - 3 - bits;
  size_t N = (size_t)n + 1, N2 = 2 * N, L = (size_t)limbs;
  m->w = calloc(N * N * L, sizeof *m->w);
  m->adj = calloc(N * N, 1);
  m->dual = calloc(N2 * L, sizeof *m->dual);
  m->mate = malloc(N * sizeof(int));
  m->inb = malloc(N * sizeof(int));
  m->parent = malloc(N2 * sizeof(int));
  m->base = malloc(N2 * sizeof(int));
  m->first = calloc(N2, sizeof(int));
  m->next = calloc(N2, sizeof(int));
  m->prev = calloc(N2, sizeof(int));
  m->enx = calloc(N2, sizeof(int));
  m->eny = calloc(N2, sizeof(int));
  m->label = calloc(N2, sizeof(int));
  m->lfrom = calloc(N2, sizeof(int));
  m->lto = calloc(N2, sizeof(int));
  m->beste = calloc(N, sizeof(int));
  m->bests = calloc(N, sizeof(int));
  m->bev = calloc(N * L, sizeof(uint64_t));
  m->bsv = calloc(N * L, sizeof(uint64_t));
  m->gen = calloc(N * 3, sizeof(unsigned));
  m->unused = calloc(N, sizeof(int));
  m->alive = calloc(N, 1);
  m->alist = calloc(N, sizeof(int));
  m->fixed = malloc(N * sizeof(int));
  m->dirty = calloc(N, 1);
  m->dlist = calloc(N, sizeof(int));
  m->incand = calloc(N, 1);
  m->clist = calloc(N, sizeof(int));
  m->q = calloc(N, sizeof(int));
  m->inq = calloc(N, 1);
  m->tree = calloc(N2, sizeof(int));
  m->dead = calloc(N, sizeof(int));
  m->mark = calloc(N2, sizeof(int));
  m->lv = calloc(N, sizeof(int));
  m->col = calloc(N, sizeof(int));
  m->pc = calloc(N * 3, sizeof(int));
  m->t1 = calloc(L * 7, sizeof(uint64_t));
  if (!m->w || !m->adj || !m->dual || !m->mate || !m->inb || !m->parent || !m->base ||
      !m->first || !m->next || !m->prev || !m->enx || !m->eny || !m->label || !m->lfrom ||
      !m->lto || !m->beste || !m->bests || !m->bev || !m->bsv || !m->gen ||
      !m->unused || !m->alive || !m->alist || !m->fixed || !m->dirty || !m->dlist ||
      !m->incand || !m->clist || !m->q || !m->inq || !m->tree || !m->dead || !m->mark ||
      !m->lv || !m->pc || !m->t1 || !m->col) {
    xq__wmatch_free(m);
    return NULL;
  }
  m->px = m->pc + N;
  m->py = m->px + N;
  m->t2 = m->t1 + limbs;
  m->egen = m->gen + N;
  m->sgen = m->egen + N;
  m->d = m->t2 + limbs;
  m->dtot = m->d + limbs;
  m->t3 = m->dtot + limbs;
  m->sk = m->t3 + limbs;
  m->dtot2 = m->sk + limbs;
  m->nc = n;
  for (int v = 0; v < n; v++) {
    m->col[v] = v;
    m->mate[v] = -1;
    m->inb[v] = v;
    m->base[v] = v;
    m->fixed[v] = -1;
    m->alive[v] = 1;
    m->alist[v] = v;
  }
  m->nalive = n;
  for (int x = 0; x < 2 * n; x++) m->parent[x] = -1;
  for (int b = 2 * n - 1; b >= n; b--) {
    m->base[b] = -1;
    m->unused[m->nunused++] = b;
  }
  m->fresh = 1;
  return m;
}

void xq__wmatch_free(xq__wmatch *m)
{
  if (!m) return;
  free(m->w); free(m->adj); free(m->dual); free(m->mate); free(m->inb); free(m->parent);
  free(m->base); free(m->first); free(m->next); free(m->prev); free(m->enx); free(m->eny);
  free(m->label); free(m->lfrom); free(m->lto); free(m->beste); free(m->bests); free(m->bev);
  free(m->bsv); free(m->gen); free(m->unused); free(m->alive); free(m->alist);
  free(m->fixed); free(m->dirty); free(m->dlist); free(m->incand); free(m->clist); free(m->q);
  free(m->inq); free(m->tree); free(m->dead);
  free(m->mark); free(m->lv); free(m->pc); free(m->t1); free(m->col);
  free(m);
}

void xq__wmatch_set(xq__wmatch *m, int i, int j, const uint64_t *w)
{
  int L = m->L;
  if (!m->alive[i] || !m->alive[j]) return; /* never read again */
  uint64_t *a = W(m, i, j), *b = W(m, j, i), *t = m->t1;
  /* stored as w * 2^sh (sh >= 1): the slack y[u] + y[v] - 2 w needs no
   * shift, and every dual stays below 2^(64 L - 3) */
  int lw = m->sh / 64, bw = m->sh % 64;
  for (int k = L - 1; k >= 0; k--) {
    uint64_t v = 0;
    if (k - lw >= 0) {
      v = w[k - lw] << bw;
      if (bw && k - lw - 1 >= 0) v |= w[k - lw - 1] >> (64 - bw);
    }
    t[k] = v;
  }
  if (!bcmp_(a, t, L)) return;
  bcpy(a, t, L);
  bcpy(b, t, L);
  ADJ(m, i, j) = ADJ(m, j, i) = !bzero_(t, L);
  if (m->fresh || m->dirty[i] || m->dirty[j]) return;
  /* one end re-opened covers the edge: the first, which the callers
   * pass as the vertex whose edges change together */
  m->dirty[i] = 1;
  m->dlist[m->ndirty++] = i;
}

/* ---- blossom structure ---- */

static int leaves(const xq__wmatch *m, int b, int *out)
{
  if (b < m->n) { out[0] = b; return 1; }
  int k = 0, c = m->first[b];
  do {
    k += leaves(m, c, out + k);
    c = m->next[c];
  } while (c != m->first[b]);
  return k;
}

static void set_inb(xq__wmatch *m, int b, int top)
{
  int k = leaves(m, b, m->lv);
  for (int i = 0; i < k; i++) m->inb[m->lv[i]] = top;
}

static void free_blossom(xq__wmatch *m, int b)
{
  m->base[b] = -1;
  m->parent[b] = -1;
  m->label[b] = LB_NONE;
  memset(Y(m, b), 0, (size_t)m->L * sizeof(uint64_t));
  m->unused[m->nunused++] = b;
}

static int child_index(const xq__wmatch *m, int b, int t)
{
  int i = 0;
  for (int c = m->first[b]; c != t; c = m->next[c]) i++;
  return i;
}

static void link_(xq__wmatch *m, int a, int c, int x, int y)
{
  m->next[a] = c;
  m->prev[c] = a;
  m->enx[a] = x;
  m->eny[a] = y;
}

/* Make v the base of blossom b, swapping the matched and unmatched edges
 * along the even path of the cycle from v's child to the base child. */
static void aug_blossom(xq__wmatch *m, int b, int v)
{
  int n = m->n, t = v;
  while (m->parent[t] != b) t = m->parent[t];
  if (t >= n) aug_blossom(m, t, v);
  int f = m->first[b], cur = t;
  if (child_index(m, b, t) & 1) {
    while (cur != f) { /* odd position: forward, wrapping to the base */
      int a = m->next[cur], c = m->next[a], x = m->enx[a], y = m->eny[a];
      if (a >= n) aug_blossom(m, a, x);
      if (c >= n) aug_blossom(m, c, y);
      m->mate[x] = y;
      m->mate[y] = x;
      cur = c;
    }
  } else {
    while (cur != f) { /* even position: backward */
      int a = m->prev[cur], c = m->prev[a], x = m->eny[c], y = m->enx[c];
      if (a >= n) aug_blossom(m, a, x);
      if (c >= n) aug_blossom(m, c, y);
      m->mate[x] = y;
      m->mate[y] = x;
      cur = c;
    }
  }
  m->first[b] = t;
  m->base[b] = m->base[t];
}

static void add_cand(xq__wmatch *m, int v)
{
  if (m->incand[v]) return;
  m->incand[v] = 1;
  m->clist[m->ncand++] = v;
}

static void unmatch(xq__wmatch *m, int v)
{
  int u = m->mate[v];
  if (u < 0) return;
  m->mate[u] = m->mate[v] = -1;
  add_cand(m, u);
  add_cand(m, v);
}

/* Dissolve the top-level blossom b outside a search. Its dual moves onto
 * its vertices (y += z for each: the slack of every edge inside stays,
 * the slack of every edge leaving grows), so the edge matching its base
 * outside may lose its tightness: then both ends are unmatched. */
static void dissolve(xq__wmatch *m, int b)
{
  int L = m->L;
  if (!bzero_(Y(m, b), L)) {
    int k = leaves(m, b, m->lv);
    for (int i = 0; i < k; i++) badd(Y(m, m->lv[i]), Y(m, m->lv[i]), Y(m, b), L);
    unmatch(m, m->base[b]);
    add_cand(m, m->base[b]); /* a free base now has a positive dual */
  }
  int c = m->first[b];
  do {
    m->parent[c] = -1;
    set_inb(m, c, c);
    c = m->next[c];
  } while (c != m->first[b]);
  free_blossom(m, b);
}

static void dissolve_around(xq__wmatch *m, int v)
{
  while (m->inb[v] != v) {
    int b = m->inb[v];
    dissolve(m, b);
  }
}

/* ---- one phase: a tree from every deficient root ---- */

/* Best-edge records. beste[x] (x not S) and bests[x] (x S) name the S
 * vertex of another blossom at the least slack from x: >= 0 a vertex
 * (exact while it is an S vertex of another blossom, else a lower
 * bound), -1 none, -2 a lower bound only, -3 unknown. Their keys (bev,
 * bsv) are the slack plus dtot or 2 dtot, constant while the labels
 * stay: an S dual falls by each change, the slack between two S vertices
 * by twice it. A bound stays one as long as every new S vertex offers
 * its edges (scan), and is replaced by the exact value when it could be
 * the least one (phase). */
static int e_exact(const xq__wmatch *m, int x)
{
  int b = m->beste[x];
  return b >= 0 && m->label[m->inb[b]] == LB_S && m->egen[x] == m->gen[b];
}

static int s_exact(const xq__wmatch *m, int x)
{
  int b = m->bests[x];
  return b >= 0 && m->inb[b] != m->inb[x] && m->label[m->inb[b]] == LB_S &&
         m->sgen[x] == m->gen[b];
}

/* A T vertex x becomes unlabelled: its record is a lower bound (the
 * slacks to S vertices stayed while its dual rose), negative ones
 * counting as 0. */
static void bound_e(xq__wmatch *m, int x)
{
  uint64_t *kx = m->bev + (size_t)x * (size_t)m->L;
  if (m->beste[x] < 0 && m->beste[x] != -2) return;
  m->beste[x] = -2;
  if (bcmp_(kx, m->dtot, m->L) < 0) bcpy(kx, m->dtot, m->L);
}

HOT void cur_e(const xq__wmatch *m, int x, uint64_t *r, int L)
{
  bsub(r, m->bev + (size_t)x * (size_t)L, m->dtot, L);
}

HOT void cur_s(const xq__wmatch *m, int x, uint64_t *r, int L)
{
  bsub(r, m->bsv + (size_t)x * (size_t)L, m->dtot2, L);
}

/* S vertex x meets S vertex c of another blossom, slack sl. */
HOT void offer_s(xq__wmatch *m, int x, int c, const uint64_t *sl, int L)
{
  if (m->bests[x] == -3) return; /* unknown until x is scanned */
  uint64_t *k = m->t3, *kx = m->bsv + (size_t)x * (size_t)L;
  badd(k, sl, m->dtot2, L);
  if (m->bests[x] == -1 || bcmp_(k, kx, L) < 0) {
    m->bests[x] = c;
    m->sgen[x] = m->gen[c];
    bcpy(kx, k, L);
  }
}

/* Non-S vertex x meets S vertex c, slack sl. */
HOT void offer_e(xq__wmatch *m, int x, int c, const uint64_t *sl, int L)
{
  if (m->beste[x] == -3) return; /* recomputed before the next dual change */
  uint64_t *k = m->t3, *kx = m->bev + (size_t)x * (size_t)L;
  badd(k, sl, m->dtot, L);
  if (m->beste[x] == -1 || bcmp_(k, kx, L) < 0) {
    m->beste[x] = c;
    m->egen[x] = m->gen[c];
    bcpy(kx, k, L);
  }
}

/* x has just become an S vertex: until its scan, its record bests is a
 * lower bound made from beste (the slacks to S vertices fall by twice
 * each dual change now), lowered by the offers of the S vertices scanned
 * meanwhile. */
static void push(xq__wmatch *m, int x)
{
  int L = m->L, e = m->beste[x];
  if (e == -3 || e == -1) {
    m->bests[x] = e;
  } else {
    uint64_t *k = m->bsv + (size_t)x * (size_t)L;
    if (bcmp_(m->bev + (size_t)x * (size_t)L, m->dtot, L) < 0) bcpy(k, m->dtot, L);
    else bcpy(k, m->bev + (size_t)x * (size_t)L, L); /* bound + dtot */
    badd(k, k, m->dtot, L); /* bound + 2 dtot */
    m->bests[x] = -2;
  }
  if (m->inq[x]) return;
  m->inq[x] = 1;
  m->q[(m->qh + m->qn++) % m->n] = x;
}

static void push_leaves(xq__wmatch *m, int b)
{
  int k = leaves(m, b, m->lv);
  for (int i = 0; i < k; i++) push(m, m->lv[i]);
}

/* Base of the blossom closed by the tight edge (v, w) of the tree. */
static int find_base(xq__wmatch *m, int v, int w)
{
  m->stamp++;
  while (v != -1 || w != -1) {
    if (v != -1) {
      int b = m->inb[v];
      if (m->mark[b] == m->stamp) return m->base[b];
      m->mark[b] = m->stamp;
      v = m->lfrom[b] < 0 ? -1 : m->lfrom[m->inb[m->lfrom[b]]];
    }
    if (w != -1) { int t = v; v = w; w = t; }
  }
  return -1;
}

static void add_blossom(xq__wmatch *m, int bv0, int v0, int w0)
{
  int bb = m->inb[bv0], bv = m->inb[v0], bw = m->inb[w0];
  int b = m->unused[--m->nunused];
  m->base[b] = bv0;
  m->parent[b] = -1;
  m->parent[bb] = b;
  memset(Y(m, b), 0, (size_t)m->L * sizeof(uint64_t));
  int k = 0;
  while (bv != bb) {
    m->parent[bv] = b;
    m->pc[k] = bv;
    m->px[k] = m->lfrom[bv];
    m->py[k++] = m->lto[bv];
    bv = m->inb[m->lfrom[bv]];
  }
  int last = bb;
  m->first[b] = bb;
  for (int i = k - 1; i >= 0; i--) {
    link_(m, last, m->pc[i], m->px[i], m->py[i]);
    last = m->pc[i];
  }
  if (bw == bb) {
    link_(m, last, bb, v0, w0);
  } else {
    link_(m, last, bw, v0, w0);
    while (bw != bb) {
      m->parent[bw] = b;
      int up = m->inb[m->lfrom[bw]];
      link_(m, bw, up, m->lto[bw], m->lfrom[bw]);
      bw = up;
    }
  }
  m->label[b] = LB_S;
  m->tree[b] = m->tree[bb];
  m->lfrom[b] = m->lfrom[bb];
  m->lto[b] = m->lto[bb];
  int nl = leaves(m, b, m->lv);
  for (int i = 0; i < nl; i++) {
    int x = m->lv[i];
    if (m->label[m->inb[x]] == LB_T) push(m, x);
    m->inb[x] = b;
  }
}

/* Flip the even path from S vertex s up to the root: s gets partner p
 * (or stays free when p < 0) and the root gets matched. */
static void flip_to_root(xq__wmatch *m, int s, int p)
{
  for (;;) {
    int bs = m->inb[s];
    if (bs >= m->n) aug_blossom(m, bs, s);
    m->mate[s] = p;
    if (m->lfrom[bs] < 0) return;
    int bt = m->inb[m->lfrom[bs]], s2 = m->lfrom[bt], j = m->lto[bt];
    if (bt >= m->n) aug_blossom(m, bt, j);
    m->mate[j] = s2;
    p = j;
    s = s2;
  }
}

static void expand_zero(xq__wmatch *m, int b);

/* The trees of roots ta and tb (-1: none) ended with an augmentation:
 * their blossoms lose their labels (an S-blossom of zero dual is
 * expanded) and their vertices get a lower bound for their least slack
 * to an S vertex. The other trees go on. */
static void kill(xq__wmatch *m, int ta, int tb)
{
  int nz = 0, L = m->L;
  m->stamp += 2;
  int ks = m->stamp, kt = m->stamp - 1; /* marks of the S and T blossoms killed */
  for (int i = 0; i < m->nalive; i++) {
    int x = m->alist[i], b = m->inb[x];
    if (m->mark[b] != ks && m->mark[b] != kt) {
      if (m->label[b] == LB_NONE || (m->tree[b] != ta && m->tree[b] != tb)) continue;
      m->mark[b] = m->label[b] == LB_S ? ks : kt;
      if (b >= m->n && m->label[b] == LB_S && bzero_(Y(m, b), L)) m->dead[nz++] = b;
      m->label[b] = LB_NONE;
    }
    /* x now unlabelled: a lower bound of its least slack to an S vertex
     * (the records stay bounds while their ends keep their labels, and
     * each S vertex scanned later offers its edges). A T vertex: its own
     * record (those slacks did not fall while its dual rose). An S
     * vertex scanned: its least slack to the S vertices of other
     * blossoms (which fell twice as fast). Else unknown. */
    if (m->mark[b] == kt) {
      bound_e(m, x);
    } else if (m->bests[x] == -3) {
      m->beste[x] = -3;
    } else if (m->bests[x] == -1) {
      m->beste[x] = -1;
    } else {
      uint64_t *kx = m->bev + (size_t)x * (size_t)L, *bs = m->bsv + (size_t)x * (size_t)L;
      /* key max(0, bound) + dtot, with bound = bsv - 2 dtot */
      if (bcmp_(bs, m->dtot2, L) < 0) bcpy(kx, m->dtot, L);
      else bsub(kx, bs, m->dtot, L);
      m->beste[x] = -2;
    }
    m->bests[x] = -1;
    m->gen[x]++;
  }
  for (int i = 0; i < nz; i++) expand_zero(m, m->dead[i]);
  m->ntrees -= (ta >= 0) + (tb >= 0 && tb != ta);
}

/* Augment through the tight edge (v, w) between S vertices of two
 * different trees: both roots get matched. */
static void augment2(xq__wmatch *m, int v, int w)
{
  int ta = m->tree[m->inb[v]], tb = m->tree[m->inb[w]];
  flip_to_root(m, v, w);
  flip_to_root(m, w, v);
  kill(m, ta, tb);
}

/* The tight edge (v, w) joins two S vertices of other blossoms: a new
 * blossom in one tree, an augmentation between two. */
static void join(xq__wmatch *m, int v, int w)
{
  if (m->tree[m->inb[v]] == m->tree[m->inb[w]]) add_blossom(m, find_base(m, v, w), v, w);
  else augment2(m, v, w);
}

/* Tight edge from S vertex v to w of an unlabelled blossom: label it T
 * and its partner's blossom S, or augment when it is free. 1 after an
 * augmentation. */
static int grow(xq__wmatch *m, int v, int w)
{
  int bw = m->inb[w], bb = m->base[bw], t = m->tree[m->inb[v]];
  if (m->mate[bb] < 0) {
    if (bw >= m->n) aug_blossom(m, bw, w);
    m->mate[w] = v;
    flip_to_root(m, v, w);
    kill(m, t, -1);
    return 1;
  }
  m->label[bw] = LB_T;
  m->tree[bw] = t;
  m->lfrom[bw] = v;
  m->lto[bw] = w;
  int u = m->mate[bb], bu = m->inb[u];
  m->label[bu] = LB_S;
  m->tree[bu] = t;
  m->lfrom[bu] = bb;
  m->lto[bu] = u;
  push_leaves(m, bu);
  return 0;
}

HOT int scan_l(xq__wmatch *m, int v, const int L)
{
  const uint64_t *wv = WROW(m, v);
  const uint8_t *av = AROW(m, v);
  const int *col = m->col;
  uint64_t *t = m->t1, *lk = m->sk; /* lk: least slack to an S vertex */
  hword dt1 = hi_of(m->dtot, L), dt2 = hi_of(m->dtot2, L), hv = hi_of(YL(m, v), L), hk = 0;
  int lbest = -1;
  unsigned lgen = 0;
  /* v's own record is built aside and stored at the end: if v's tree
   * ends during the scan, the bound it had stays */
  for (int i = 0; i < m->nalive; i++) {
    int x = m->alist[i];
    size_t cx = (size_t)col[x];
    if (!av[cx]) continue;
    int bv = m->inb[v], bx = m->inb[x];
    if (bx == bv) continue;
    int lx = m->label[bx];
    /* the top two words alone show most edges to be no better than the
     * best ones known: each dual is below 2^(64 L - 3), so the sum of the
     * top parts does not wrap, and the lower words move it by one at most */
    hword hs = hv + hi_of(YL(m, x), L), hw = hi_of(wv + cx * (size_t)L, L);
    if (hs > hw + 1) {
      hword lo = hs - hw - 1; /* the top part of the slack is at least lo */
      /* the top part of a record key - dtot (key - 2 dtot) is at most
       * the difference of the top parts: keys are at least dtot (2 dtot) */
      if (lx != LB_S) {
        if (m->beste[x] != -1 && m->beste[x] != -3 &&
            lo > hi_of(m->bev + (size_t)x * (size_t)L, L) - dt1)
          continue;
      } else if (m->bests[x] != -1 && m->bests[x] != -3 && lbest >= 0 &&
                 lo > hi_of(m->bsv + (size_t)x * (size_t)L, L) - dt2 && lo > hk) {
        continue;
      }
    }
    slack_of(YL(m, v), YL(m, x), wv + cx * (size_t)L, t, L);
    if (lx == LB_S) {
      if (lbest < 0 || bcmp_(t, lk, L) < 0) {
        lbest = x;
        lgen = m->gen[x];
        bcpy(lk, t, L);
        hk = hi_of(lk, L);
      }
      offer_s(m, x, v, t, L);
      if (bzero_(t, L)) {
        join(m, v, x);
        if (m->label[m->inb[v]] != LB_S) return 1; /* its tree ended */
      }
    } else {
      offer_e(m, x, v, t, L);
      if (lx == LB_NONE && bzero_(t, L) && grow(m, v, x)) return 1;
    }
  }
  m->bests[v] = lbest;
  if (lbest >= 0) {
    m->sgen[v] = lgen;
    badd(m->bsv + (size_t)v * (size_t)L, lk, m->dtot2, L);
  }
  return 0;
}

/* Call f(..., L) with L a constant for the widths up to
 * XQ_WMATCH_SPECIAL_MAX (pair.h), a case each. The trees built to find
 * errors (XQ_CHECKS: the sanitizer and fuzz builds) compile the one
 * loop of any width instead: UBSan's checks of seventeen unrolled copies
 * took clang over two minutes for this file alone, and every copy is the
 * same source with L folded. */
_Static_assert(XQ_WMATCH_SPECIAL_MAX == 16, "BY_WIDTH has one case for each width up to XQ_WMATCH_SPECIAL_MAX");
#ifdef XQ_CHECKS
#define BY_WIDTH(L, call) call(L);
#else
#define BY_WIDTH(L, call) \
  switch (L) { \
  case 1: call(1); case 2: call(2); case 3: call(3); case 4: call(4); \
  case 5: call(5); case 6: call(6); case 7: call(7); case 8: call(8); \
  case 9: call(9); case 10: call(10); case 11: call(11); case 12: call(12); \
  case 13: call(13); case 14: call(14); case 15: call(15); case 16: call(16); \
  default: call(L); \
  }
#endif

static int scan(xq__wmatch *m, int v)
{
#define SCAN_(k) return scan_l(m, v, k)
  BY_WIDTH(m->L, SCAN_)
#undef SCAN_
}

/* The least slack from x to an S vertex of another blossom: bests for
 * an S vertex, beste for another. */
HOT void recompute_best(xq__wmatch *m, int x, int *bestv, uint64_t *vals, unsigned *gv,
                        int twice, const int L)
{
  int bx = m->inb[x], best = -1;
  uint64_t *bv = vals + (size_t)x * (size_t)L;
  hword hx = hi_of(YL(m, x), L), hb = 0;
  const uint64_t *wx = WROW(m, x);
  const uint8_t *ax = AROW(m, x);
  const int *col = m->col;
  for (int i = 0; i < m->nalive; i++) {
    int y = m->alist[i];
    size_t cy = (size_t)col[y];
    if (!ax[cy] || m->inb[y] == bx || m->label[m->inb[y]] != LB_S) continue;
    /* the top parts alone (as in scan) */
    hword hs = hx + hi_of(YL(m, y), L), hw = hi_of(wx + cy * (size_t)L, L);
    if (best >= 0 && hs > hw + 1 && hs - hw - 1 > hb) continue;
    slack_of(YL(m, x), YL(m, y), wx + cy * (size_t)L, m->t1, L);
    if (best < 0 || bcmp_(m->t1, bv, L) < 0) {
      best = y;
      bcpy(bv, m->t1, L);
      hb = hi_of(bv, L);
    }
  }
  bestv[x] = best;
  if (best >= 0) {
    gv[x] = m->gen[best];
    badd(bv, bv, twice ? m->dtot2 : m->dtot, L);
  }
}

/* Expand the T-blossom b whose dual reached zero during a search: the
 * children on the even path from the entry child to the base child get
 * T and S labels, the others none. */
static void expand_t(xq__wmatch *m, int b)
{
  int entry = m->lto[b];
  while (m->parent[entry] != b) entry = m->parent[entry];
  int f = m->first[b], fwd = child_index(m, b, entry) & 1;
  /* the best-edge keys of T vertices are lower bounds only (their duals
   * grew, so their slacks to S vertices stayed) */
  int k = leaves(m, b, m->lv);
  for (int i = 0; i < k; i++)
    bound_e(m, m->lv[i]);
  int c = f;
  do {
    m->parent[c] = -1;
    set_inb(m, c, c);
    m->label[c] = LB_NONE;
    m->tree[c] = m->tree[b];
    c = m->next[c];
  } while (c != f);
  int pf = m->lfrom[b], pt = m->lto[b], cur = entry;
  while (cur != f) {
    int a, xc, xa, nn, xa2, xn;
    m->label[cur] = LB_T;
    m->lfrom[cur] = pf;
    m->lto[cur] = pt;
    if (fwd) {
      a = m->next[cur]; xc = m->enx[cur]; xa = m->eny[cur];
      nn = m->next[a]; xa2 = m->enx[a]; xn = m->eny[a];
    } else {
      a = m->prev[cur]; xc = m->eny[a]; xa = m->enx[a];
      nn = m->prev[a]; xa2 = m->eny[nn]; xn = m->enx[nn];
    }
    m->label[a] = LB_S;
    m->lfrom[a] = xc;
    m->lto[a] = xa;
    push_leaves(m, a);
    pf = xa2;
    pt = xn;
    cur = nn;
  }
  m->label[f] = LB_T;
  m->lfrom[f] = pf;
  m->lto[f] = pt;
  free_blossom(m, b);
}

/* Expand a blossom of zero dual at the end of a search, and its
 * children of zero dual. */
static void expand_zero(xq__wmatch *m, int b)
{
  int f = m->first[b], c = f;
  do {
    int nx = m->next[c];
    m->parent[c] = -1;
    m->label[c] = LB_NONE;
    if (c >= m->n && bzero_(Y(m, c), m->L)) expand_zero(m, c);
    else set_inb(m, c, c);
    c = nx;
  } while (c != f);
  free_blossom(m, b);
}

/* The dual change of a phase once no tight edge is left to follow: the
 * largest change that keeps every constraint, applied; *dxp is the
 * vertex or blossom that stopped it, of the type returned. */
HOT int dual_step_l(xq__wmatch *m, int *dxp, const int L)
{
  int n = m->n;
  uint64_t *d = m->d;
  /* the largest dual change that keeps every constraint: y >= 0 for S
   * vertices (type 1), slack >= 0 of S-free edges (2) and S-S edges
   * (3, half the slack), z >= 0 of T blossoms (4) */
  int dt = 0, dx = -1;
  for (int i = 0; i < m->nalive; i++) {
    int x = m->alist[i];
    if (m->label[m->inb[x]] == LB_S && (!dt || bcmp_(YL(m, x), d, L) < 0)) {
      bcpy(d, YL(m, x), L);
      dt = 1;
      dx = x;
    }
  }
  for (int i = 0; i < m->nalive; i++) {
    int x = m->alist[i], lb = m->label[m->inb[x]];
    if (lb == LB_S) {
      if (m->bests[x] == -1) continue;
      cur_s(m, x, m->t2, L);
      bshr1(m->t2, m->t2, L);
      if (bcmp_(m->t2, d, L) >= 0) continue; /* the bound is enough */
      if (!s_exact(m, x)) {
        recompute_best(m, x, m->bests, m->bsv, m->sgen, 1, L);
        if (m->bests[x] < 0) continue;
        cur_s(m, x, m->t2, L);
        bshr1(m->t2, m->t2, L);
        if (bcmp_(m->t2, d, L) >= 0) continue;
      }
      bcpy(d, m->t2, L);
      dt = 3;
      dx = x;
    } else if (lb == LB_NONE) {
      if (m->beste[x] == -1) continue;
      if (m->beste[x] != -3) {
        cur_e(m, x, m->t2, L);
        if (bcmp_(m->t2, d, L) >= 0) continue;
      }
      if (!e_exact(m, x)) {
        recompute_best(m, x, m->beste, m->bev, m->egen, 0, L);
        if (m->beste[x] < 0) continue;
        cur_e(m, x, m->t2, L);
        if (bcmp_(m->t2, d, L) >= 0) continue;
      }
      bcpy(d, m->t2, L);
      dt = 2;
      dx = x;
    }
  }
  for (int b = n; b < 2 * n; b++)
    if (m->base[b] >= 0 && m->parent[b] < 0 && m->label[b] == LB_T &&
        bcmp_(YL(m, b), d, L) < 0) {
      bcpy(d, YL(m, b), L);
      dt = 4;
      dx = b;
    }
  if (!bzero_(d, L)) {
    for (int i = 0; i < m->nalive; i++) {
      int x = m->alist[i], lb = m->label[m->inb[x]];
      if (lb == LB_S) bsub(YL(m, x), YL(m, x), d, L);
      else if (lb == LB_T) badd(YL(m, x), YL(m, x), d, L);
    }
    for (int b = n; b < 2 * n; b++) {
      if (m->base[b] < 0 || m->parent[b] >= 0) continue;
      if (m->label[b] == LB_S) badd(YL(m, b), YL(m, b), d, L);
      else if (m->label[b] == LB_T) bsub(YL(m, b), YL(m, b), d, L);
    }
    badd(m->dtot, m->dtot, d, L);
    badd(m->dtot2, m->dtot2, d, L);
    badd(m->dtot2, m->dtot2, d, L);
  }
  *dxp = dx;
  return dt;
}

static int dual_step(xq__wmatch *m, int *dxp)
{
#define STEP_(k) return dual_step_l(m, dxp, k)
  BY_WIDTH(m->L, STEP_)
#undef STEP_
}

/* One phase: every deficient free vertex in `roots` is the root of an
 * alternating tree, if its dual has the parity of the first root's (a
 * lone root is raised by one unit to it); the trees grow together and
 * share every dual change, so the slack of an edge between S vertices of
 * two trees, all of one parity, stays even. A tree ends
 * when its root is matched (an augmenting path to a free vertex or to
 * another tree) or a vertex of it reaches a zero dual (the even path to
 * it is flipped, so the root is matched and that vertex is left free);
 * the others keep their labels. Returns the number of roots left for a
 * later phase (their duals have the other parity). */
static int phase(xq__wmatch *m, int *roots, int nroots)
{
  int L = m->L, n = m->n, left = 0, par = -1;
  for (int i = 0; i < m->nalive; i++) m->beste[m->alist[i]] = m->bests[m->alist[i]] = -1;
  memset(m->dtot, 0, (size_t)L * sizeof *m->dtot);
  memset(m->dtot2, 0, (size_t)L * sizeof *m->dtot2);
  m->qh = m->qn = 0;
  m->ntrees = 0;
  for (int i = 0; i < nroots; i++) {
    int r = roots[i], br = m->inb[r];
    if (!m->alive[r] || m->mate[r] >= 0 || bzero_(Y(m, r), L) || m->label[br] != LB_NONE) continue;
    /* a lone root may be raised by one unit (it is free: every edge
     * stays feasible) to the parity of the phase */
    if (br == r && par >= 0 && (int)(Y(m, r)[0] & 1) != par) {
      uint64_t one[XQ_WMATCH_LIMBS_MAX] = {1};
      badd(Y(m, r), Y(m, r), one, L);
    }
    int pr = (int)(Y(m, r)[0] & 1);
    if (par < 0) par = pr;
    if (pr != par) { roots[left++] = r; continue; }
    m->label[br] = LB_S;
    m->tree[br] = r;
    m->lfrom[br] = m->lto[br] = -1;
    push_leaves(m, br);
    m->ntrees++;
  }
  for (;;) {
    /* any order of scanning is right; first in, first out lets the trees
     * grow together and meet early */
    while (m->qn > 0) {
      int v = m->q[m->qh];
      m->qh = (m->qh + 1) % m->n;
      m->qn--;
      /* still "in the queue" while scanned: its record is not complete
       * if its tree ends meanwhile */
      if (m->label[m->inb[v]] == LB_S) scan(m, v);
      m->inq[v] = 0;
    }
    if (m->ntrees <= 0) break;
    int dx = -1, dt = dual_step(m, &dx);
    if (dt == 1) {
      int t = m->tree[m->inb[dx]];
      flip_to_root(m, dx, -1);
      kill(m, t, -1);
    } else if (dt == 2) {
      grow(m, m->beste[dx], dx);
    } else if (dt == 3) {
      join(m, dx, m->bests[dx]);
    } else {
      expand_t(m, dx);
    }
  }
  for (int b = n; b < 2 * n; b++)
    if (m->base[b] >= 0 && m->parent[b] < 0 && m->label[b] == LB_S && bzero_(Y(m, b), L))
      expand_zero(m, b);
  for (int x = 0; x < 2 * n; x++) m->label[x] = LB_NONE;
  return left;
}

/* ---- re-opening, fixing, solving ---- */

/* The weights at the dirty vertices changed (after their blossoms were
 * dissolved). First guess (retarget): a dirty vertex matched to a clean
 * one takes the dual that keeps their edge tight; two dirty partners
 * share the change of their edge equally; a free one starts at 0. Then
 * (repair) each dirty vertex is raised to the least dual that makes all
 * its edges feasible; one raised above its guess loses its partner. Duals
 * only grow during the repair, so an edge checked stays feasible. */
static void retarget(xq__wmatch *m, int v)
{
  int L = m->L, u = m->mate[v];
  uint64_t *y = Y(m, v), *t = m->t1;
  if (u >= 0 && !ADJ(m, v, u)) { /* the pair may no longer meet */
    unmatch(m, v);
    u = -1;
  }
  if (u < 0) { memset(y, 0, (size_t)L * sizeof *y); return; }
  const uint64_t *w = W(m, v, u);
  if (!m->dirty[u]) {
    if (bcmp_(w, Y(m, u), L) < 0) { unmatch(m, v); memset(y, 0, (size_t)L * sizeof *y); }
    else bsub(y, w, Y(m, u), L);
    return;
  }
  if (u < v) return; /* the pair is done from its smaller end */
  uint64_t *yu = Y(m, u);
  badd(t, y, yu, L); /* the old weight: the edge was tight */
  if (bcmp_(w, t, L) >= 0) {
    bsub(t, w, t, L);
    bshr1(t, t, L); /* even: weights are even, the sum was one */
    badd(y, y, t, L);
    badd(yu, yu, t, L);
  } else {
    bsub(t, t, w, L);
    bshr1(t, t, L);
    if (bcmp_(y, t, L) < 0) { memset(y, 0, (size_t)L * sizeof *y); bcpy(yu, w, L); }
    else if (bcmp_(yu, t, L) < 0) { memset(yu, 0, (size_t)L * sizeof *yu); bcpy(y, w, L); }
    else { bsub(y, y, t, L); bsub(yu, yu, t, L); }
  }
}

static void repair(xq__wmatch *m, int v)
{
  int L = m->L, raised = 0;
  uint64_t *y = Y(m, v), *t = m->t1;
  for (int i = 0; i < m->nalive; i++) {
    int x = m->alist[i];
    if (x == v || !ADJ(m, v, x)) continue;
    const uint64_t *w = W(m, v, x), *yx = Y(m, x);
    if (bcmp_(w, yx, L) <= 0) continue;
    bsub(t, w, yx, L);
    if (bcmp_(t, y, L) > 0) { bcpy(y, t, L); raised = 1; }
  }
  if (raised) unmatch(m, v);
  add_cand(m, v);
}

/* Drop the rows and columns of the fixed vertices from the weight and
 * adjacency matrices: the scans read one row each, so the rows of the
 * alive vertices stay short and dense (fewer cache lines, less memory
 * traffic) as the pairs get fixed. In place: alist is in increasing
 * order of col, so every entry moves towards the front. */
static void compact(xq__wmatch *m)
{
  size_t L = (size_t)m->L, nc = (size_t)m->nc, k = (size_t)m->nalive;
  for (size_t i = 0; i < k; i++) {
    size_t ri = (size_t)m->col[m->alist[i]];
    for (size_t j = 0; j < k; j++) {
      size_t cj = (size_t)m->col[m->alist[j]];
      memmove(m->w + (i * k + j) * L, m->w + (ri * nc + cj) * L, L * sizeof *m->w);
      m->adj[i * k + j] = m->adj[ri * nc + cj];
    }
  }
  for (int v = 0; v < m->n; v++) m->col[v] = -1;
  for (size_t i = 0; i < k; i++) m->col[m->alist[i]] = (int)i;
  m->nc = (int)k;
}

void xq__wmatch_fix(xq__wmatch *m, int a, int b)
{
  m->fixed[a] = b;
  m->fixed[b] = a;
  if (!m->fresh) {
    dissolve_around(m, a);
    dissolve_around(m, b);
    unmatch(m, a);
    unmatch(m, b);
  }
  m->alive[a] = m->alive[b] = 0;
  m->mate[a] = m->mate[b] = -1;
  int k = 0;
  for (int i = 0; i < m->nalive; i++)
    if (m->alive[m->alist[i]]) m->alist[k++] = m->alist[i];
  m->nalive = k;
  if (4 * k <= 3 * m->nc) compact(m);
}

void xq__wmatch_solve(xq__wmatch *m, int *mate)
{
  if (m->fresh) {
    m->fresh = 0;
    m->ndirty = 0;
    for (int i = 0; i < m->nalive; i++) {
      m->dirty[m->alist[i]] = 1;
      m->dlist[m->ndirty++] = m->alist[i];
    }
  }
  int k = 0;
  for (int i = 0; i < m->ndirty; i++)
    if (m->alive[m->dlist[i]]) m->dlist[k++] = m->dlist[i];
    else m->dirty[m->dlist[i]] = 0;
  m->ndirty = k;
  /* first make every dirty vertex a top-level vertex, then set the duals
   * (dissolving moves blossom duals onto vertices) */
  for (int i = 0; i < m->ndirty; i++) dissolve_around(m, m->dlist[i]);
  for (int i = 0; i < m->ndirty; i++) retarget(m, m->dlist[i]);
  for (int i = 0; i < m->ndirty; i++) repair(m, m->dlist[i]);
  for (int i = 0; i < m->ndirty; i++) m->dirty[m->dlist[i]] = 0;
  m->ndirty = 0;
  /* a phase never leaves a new deficient vertex behind */
  for (int i = 0; i < m->ncand; i++) m->incand[m->clist[i]] = 0;
  while (m->ncand > 0) m->ncand = phase(m, m->clist, m->ncand);
  for (int v = 0; v < m->n; v++)
    mate[v] = !m->alive[v] ? m->fixed[v] : m->mate[v] >= 0 ? m->mate[v] : v;
}
