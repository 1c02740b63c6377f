/*
 * wmatch.c -- maximum-weight matching on a general graph: Edmonds'
 * blossom algorithm with vertex and blossom dual variables (primal-dual,
 * O(n^3) on a dense graph). Weights are multi-word unsigned integers, so
 * that the FIDE Dutch criteria can be packed into one weight in strict
 * priority order (tourney.md §3.6).
 *
 * Conventions: vertices 1..n inside, blossoms n+1..2n; st[x] is the
 * outermost blossom containing x; lab[] the duals (doubled: the slack of
 * edge uv is lab[u] + lab[v] - 2 w(uv)); S[] is 0 for outer (even), 1 for
 * inner (odd), -1 for unlabelled top-level blossoms.
 */
#include <stdlib.h>
#include <string.h>

#include "wmatch.h"

struct xq__wmatch {
  int n, L, S;      /* vertices, limbs, row stride (2n + 1) */
  int nx;           /* highest blossom index in use */
  uint64_t *w;      /* [(n+1)^2 * L] doubled weights by original vertices
                     * (2 w fits: the two top bits of w are clear) */
  uint64_t *lab;    /* [S * L] duals */
  int *eu, *ev;     /* [S * S] best edge between two top-level blossoms */
  int *match, *slack, *st, *pa, *lbl, *vis;
  int *flo, *nflo;  /* [S * (n+1)] members of each blossom, count */
  int *flo_from;    /* [S * (n+1)] member of blossom b containing x */
  int *q, qh, qt;
  int stamp;
  int k;            /* active vertices in this solve */
  int *ord;         /* [n + 1] internal vertex -> original + 1 */
  int *fixed;       /* [n] fixed partner, or -1 */
  uint64_t *t1, *t2, *t3;
  uint64_t *bestval; /* [S * L] slack of slack[x], valid while bestver[x] == ver */
  unsigned *bestver, ver;
};

/* ---- multi-word arithmetic (L limbs, least significant first) ---- */

static int bzero_(const uint64_t *a, int L)
{
  for (int i = 0; i < L; i++) if (a[i]) return 0;
  return 1;
}

static int bcmp_(const uint64_t *a, const uint64_t *b, int L)
{
  for (int i = L - 1; i >= 0; i--)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

static void badd(uint64_t *r, const uint64_t *a, const uint64_t *b, int L)
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

static void bsub(uint64_t *r, const uint64_t *a, const uint64_t *b, int L)
{
  uint64_t br = 0;
  for (int i = 0; i < L; i++) {
    uint64_t x = a[i], y = b[i];
    uint64_t d = x - y - br;
    br = (x < y) || (x == y && br);
    r[i] = d;
  }
}

static void bshr1(uint64_t *r, const uint64_t *a, int L)
{
  for (int i = 0; i < L; i++) r[i] = (a[i] >> 1) | (i + 1 < L ? a[i + 1] << 63 : 0);
}

/* ---- accessors ---- */

#define W(m, u, v) ((m)->w + ((size_t)(u) * ((m)->n + 1) + (size_t)(v)) * (size_t)(m)->L)
#define LAB(m, x) ((m)->lab + (size_t)(x) * (size_t)(m)->L)
#define EU(m, a, b) ((m)->eu[(size_t)(a) * (size_t)(m)->S + (size_t)(b)])
#define EV(m, a, b) ((m)->ev[(size_t)(a) * (size_t)(m)->S + (size_t)(b)])
#define FLO(m, b) ((m)->flo + (size_t)(b) * (size_t)((m)->n + 1))
#define FFROM(m, b, x) ((m)->flo_from[(size_t)(b) * (size_t)((m)->n + 1) + (size_t)(x)])

xq__wmatch *xq__wm_new(int n, int limbs)
{
  if (n < 0 || n > XQ_WMATCH_VERTICES_MAX || limbs < 1 || limbs > XQ_WMATCH_LIMBS_MAX) return NULL;
  xq__wmatch *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->n = n;
  m->L = limbs;
  m->S = 2 * n + 1;
  size_t S = (size_t)m->S, n1 = (size_t)n + 1;
  m->w = calloc(n1 * n1 * (size_t)limbs, sizeof *m->w);
  m->lab = calloc(S * (size_t)limbs, sizeof *m->lab);
  m->eu = calloc(S * S, sizeof(int));
  m->ev = calloc(S * S, sizeof(int));
  m->match = calloc(S, sizeof(int));
  m->slack = calloc(S, sizeof(int));
  m->st = calloc(S, sizeof(int));
  m->pa = calloc(S, sizeof(int));
  m->lbl = calloc(S, sizeof(int));
  m->vis = calloc(S, sizeof(int));
  m->nflo = calloc(S, sizeof(int));
  m->flo = calloc(S * n1, sizeof(int));
  m->flo_from = calloc(S * n1, sizeof(int));
  m->q = calloc(S + n1, sizeof(int));
  m->t1 = calloc((size_t)limbs * 3, sizeof(uint64_t));
  m->ord = calloc(n1, sizeof(int));
  m->bestval = calloc(S * (size_t)limbs, sizeof(uint64_t));
  m->bestver = calloc(S, sizeof(unsigned));
  m->fixed = malloc(n1 * sizeof(int));
  if (m->fixed) for (size_t i = 0; i < n1; i++) m->fixed[i] = -1;
  if (!m->w || !m->lab || !m->eu || !m->ev || !m->match || !m->slack || !m->st || !m->pa ||
      !m->lbl || !m->vis || !m->nflo || !m->flo || !m->flo_from || !m->q || !m->t1 || !m->ord || !m->fixed || !m->bestval || !m->bestver) {
    xq__wm_free(m);
    return NULL;
  }
  m->t2 = m->t1 + limbs;
  m->t3 = m->t2 + limbs;
  return m;
}

void xq__wm_free(xq__wmatch *m)
{
  if (!m) return;
  free(m->w); free(m->lab); free(m->eu); free(m->ev); free(m->match); free(m->slack);
  free(m->st); free(m->pa); free(m->lbl); free(m->vis); free(m->nflo); free(m->flo);
  free(m->flo_from); free(m->q); free(m->t1); free(m->ord); free(m->fixed); free(m->bestval); free(m->bestver);
  free(m);
}

void xq__wm_set(xq__wmatch *m, int i, int j, const uint64_t *w)
{
  uint64_t *a = W(m, i + 1, j + 1), *b = W(m, j + 1, i + 1);
  /* stored doubled: the slack lab[u] + lab[v] - 2 w needs no shift */
  for (int k = 0; k < m->L; k++) a[k] = b[k] = (w[k] << 1) | (k ? w[k - 1] >> 63 : 0);
}

/* ---- the algorithm ---- */

/* r = x + y - w2 modulo 2^(64 L): the slack of an edge from the duals
 * of its ends and its doubled weight (never negative, so exact). */
static inline void slack_limbs(const uint64_t *x, const uint64_t *y, const uint64_t *w2,
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

static inline void slack_of(const uint64_t *x, const uint64_t *y, const uint64_t *w2,
                            uint64_t *r, int L)
{
  /* a constant width lets the compiler unroll the carry chain; the
   * result is the same for every width */
  switch (L) {
  case 1: r[0] = x[0] + y[0] - w2[0]; return;
  case 2: slack_limbs(x, y, w2, r, 2); return;
  case 3: slack_limbs(x, y, w2, r, 3); return;
  case 4: slack_limbs(x, y, w2, r, 4); return;
  case 5: slack_limbs(x, y, w2, r, 5); return;
  case 6: slack_limbs(x, y, w2, r, 6); return;
  case 7: slack_limbs(x, y, w2, r, 7); return;
  case 8: slack_limbs(x, y, w2, r, 8); return;
  case 9: slack_limbs(x, y, w2, r, 9); return;
  case 10: slack_limbs(x, y, w2, r, 10); return;
  case 11: slack_limbs(x, y, w2, r, 11); return;
  case 12: slack_limbs(x, y, w2, r, 12); return;
  default: slack_limbs(x, y, w2, r, L); return;
  }
}

/* r = slack of the edge stored between top-level a and b */
static void delta(xq__wmatch *m, int a, int b, uint64_t *r)
{
  int u = EU(m, a, b), v = EV(m, a, b);
  slack_of(LAB(m, u), LAB(m, v), W(m, m->ord[u], m->ord[v]), r, m->L);
}

static int has_edge(const xq__wmatch *m, int a, int b)
{
  return EU(m, a, b) != 0;
}

/* Slack of slack[x] to x, cached until the duals change. */
static const uint64_t *best_slack(xq__wmatch *m, int x)
{
  uint64_t *b = m->bestval + (size_t)x * (size_t)m->L;
  if (m->bestver[x] != m->ver) {
    delta(m, m->slack[x], x, b);
    m->bestver[x] = m->ver;
  }
  return b;
}

/* Offer u as the best neighbour of x; d = slack of (u, x) or NULL. */
static void update_slack_d(xq__wmatch *m, int u, int x, const uint64_t *d)
{
  if (!d) { delta(m, u, x, m->t1); d = m->t1; }
  if (m->slack[x] && bcmp_(d, best_slack(m, x), m->L) >= 0) return;
  m->slack[x] = u;
  memcpy(m->bestval + (size_t)x * (size_t)m->L, d, (size_t)m->L * sizeof *d);
  m->bestver[x] = m->ver;
}

static void update_slack(xq__wmatch *m, int u, int x)
{
  update_slack_d(m, u, x, NULL);
}

static void set_slack(xq__wmatch *m, int x)
{
  m->slack[x] = 0;
  for (int u = 1; u <= m->k; u++)
    if (has_edge(m, u, x) && m->st[u] != x && m->lbl[m->st[u]] == 0) update_slack(m, u, x);
}

static void q_push(xq__wmatch *m, int x)
{
  if (x <= m->k) { m->q[m->qt++] = x; return; }
  for (int i = 0; i < m->nflo[x]; i++) q_push(m, FLO(m, x)[i]);
}

static void set_st(xq__wmatch *m, int x, int b)
{
  m->st[x] = b;
  if (x > m->k)
    for (int i = 0; i < m->nflo[x]; i++) set_st(m, FLO(m, x)[i], b);
}

static void reverse(int *a, int lo, int hi) /* [lo, hi) */
{
  for (hi--; lo < hi; lo++, hi--) { int t = a[lo]; a[lo] = a[hi]; a[hi] = t; }
}

/* Position of member xr in blossom b, reorienting the cycle so that the
 * path from the base to xr has even length. */
static int get_pr(xq__wmatch *m, int b, int xr)
{
  int *f = FLO(m, b), k = m->nflo[b], pr = 0;
  while (f[pr] != xr) pr++;
  if (pr % 2 == 1) {
    reverse(f, 1, k);
    return k - pr;
  }
  return pr;
}

static void rotate_left(int *a, int k, int by)
{
  reverse(a, 0, by);
  reverse(a, by, k);
  reverse(a, 0, k);
}

static void set_match(xq__wmatch *m, int u, int v)
{
  m->match[u] = EV(m, u, v);
  if (u <= m->k) return;
  int xr = FFROM(m, u, EU(m, u, v)), pr = get_pr(m, u, xr);
  int *f = FLO(m, u);
  for (int i = 0; i < pr; i++) set_match(m, f[i], f[i ^ 1]);
  set_match(m, xr, v);
  rotate_left(f, m->nflo[u], pr);
}

static void augment(xq__wmatch *m, int u, int v)
{
  for (;;) {
    int xnv = m->st[m->match[u]];
    set_match(m, u, v);
    if (!xnv) return;
    set_match(m, xnv, m->st[m->pa[xnv]]);
    u = m->st[m->pa[xnv]];
    v = xnv;
  }
}

static int get_lca(xq__wmatch *m, int u, int v)
{
  ++m->stamp;
  while (u || v) {
    if (u) {
      if (m->vis[u] == m->stamp) return u;
      m->vis[u] = m->stamp;
      u = m->st[m->match[u]];
      if (u) u = m->st[m->pa[u]];
    }
    int t = u; u = v; v = t;
  }
  return 0;
}

static void add_blossom(xq__wmatch *m, int u, int lca, int v)
{
  int b = m->k + 1;
  while (b <= m->nx && m->st[b]) b++;
  if (b > m->nx) m->nx++;
  memset(LAB(m, b), 0, (size_t)m->L * sizeof(uint64_t));
  m->lbl[b] = 0;
  m->match[b] = m->match[lca];
  int *f = FLO(m, b), k = 0;
  f[k++] = lca;
  for (int x = u, y; x != lca; x = m->st[m->pa[y]]) {
    f[k++] = x;
    f[k++] = y = m->st[m->match[x]];
    q_push(m, y);
  }
  reverse(f, 1, k);
  for (int x = v, y; x != lca; x = m->st[m->pa[y]]) {
    f[k++] = x;
    f[k++] = y = m->st[m->match[x]];
    q_push(m, y);
  }
  m->nflo[b] = k;
  set_st(m, b, b);
  for (int x = 1; x <= m->nx; x++) EU(m, b, x) = EV(m, b, x) = EU(m, x, b) = EV(m, x, b) = 0;
  for (int x = 1; x <= m->k; x++) FFROM(m, b, x) = 0;
  for (int i = 0; i < k; i++) {
    int xs = f[i];
    for (int x = 1; x <= m->nx; x++) {
      if (!has_edge(m, xs, x) || x == b) continue;
      int take = !has_edge(m, b, x);
      if (!take) {
        delta(m, xs, x, m->t1);
        delta(m, b, x, m->t2);
        take = bcmp_(m->t1, m->t2, m->L) < 0;
      }
      if (take) {
        EU(m, b, x) = EU(m, xs, x); EV(m, b, x) = EV(m, xs, x);
        EU(m, x, b) = EU(m, x, xs); EV(m, x, b) = EV(m, x, xs);
      }
    }
    for (int x = 1; x <= m->k; x++)
      if (FFROM(m, xs, x)) FFROM(m, b, x) = xs;
  }
  set_slack(m, b);
}

static void expand_blossom(xq__wmatch *m, int b)
{
  int *f = FLO(m, b), k = m->nflo[b];
  for (int i = 0; i < k; i++) set_st(m, f[i], f[i]);
  int xr = FFROM(m, b, EU(m, b, m->pa[b])), pr = get_pr(m, b, xr);
  for (int i = 0; i < pr; i += 2) {
    int xs = f[i], xns = f[i + 1];
    m->pa[xs] = EU(m, xns, xs);
    m->lbl[xs] = 1;
    m->lbl[xns] = 0;
    m->slack[xs] = 0;
    set_slack(m, xns);
    q_push(m, xns);
  }
  m->lbl[xr] = 1;
  m->pa[xr] = m->pa[b];
  for (int i = pr + 1; i < k; i++) {
    m->lbl[f[i]] = -1;
    set_slack(m, f[i]);
  }
  m->st[b] = 0;
}

/* Edge (u in an outer blossom) -> returns 1 after an augmentation. */
static int on_found_edge(xq__wmatch *m, int eu, int ev)
{
  int u = m->st[eu], v = m->st[ev];
  if (m->lbl[v] == -1) {
    m->pa[v] = eu;
    m->lbl[v] = 1;
    int nu = m->st[m->match[v]];
    m->slack[v] = m->slack[nu] = 0;
    m->lbl[nu] = 0;
    q_push(m, nu);
  } else if (m->lbl[v] == 0) {
    int lca = get_lca(m, u, v);
    if (!lca) {
      augment(m, u, v);
      augment(m, v, u);
      return 1;
    }
    add_blossom(m, u, lca, v);
  }
  return 0;
}

static void dmin(uint64_t *d, int *dset, const uint64_t *x, int L)
{
  if (!*dset || bcmp_(x, d, L) < 0) { memcpy(d, x, (size_t)L * sizeof *x); *dset = 1; }
}

/* One augmentation phase; 1 when the matching grew, 0 when optimal. */
static int phase(xq__wmatch *m)
{
  int L = m->L, n = m->k;
  for (int x = 1; x <= m->nx; x++) { m->lbl[x] = -1; m->slack[x] = 0; }
  m->qh = m->qt = 0;
  for (int x = 1; x <= m->nx; x++)
    if (m->st[x] == x && !m->match[x]) { m->pa[x] = 0; m->lbl[x] = 0; q_push(m, x); }
  if (m->qh == m->qt) return 0;
  uint64_t *d = m->t3;
  for (;;) {
    while (m->qh < m->qt) {
      int u = m->q[m->qh++];
      if (m->lbl[m->st[u]] == 1) continue;
      const uint64_t *wu = W(m, m->ord[u], 0);
      for (int v = 1; v <= n; v++) {
        if (!has_edge(m, u, v) || m->st[u] == m->st[v]) continue;
        /* between vertices the stored edge is (u, v) itself */
        slack_of(LAB(m, u), LAB(m, v), wu + (size_t)m->ord[v] * (size_t)L, m->t1, L);
        if (bzero_(m->t1, L)) {
          if (on_found_edge(m, u, v)) return 1;
        } else
          update_slack_d(m, u, m->st[v], m->t1);
      }
    }
    int dset = 0;
    for (int b = n + 1; b <= m->nx; b++)
      if (m->st[b] == b && m->lbl[b] == 1) { bshr1(m->t1, LAB(m, b), L); dmin(d, &dset, m->t1, L); }
    for (int x = 1; x <= m->nx; x++) {
      if (m->st[x] != x || !m->slack[x]) continue;
      if (m->lbl[x] == -1) dmin(d, &dset, best_slack(m, x), L);
      else if (m->lbl[x] == 0) {
        bshr1(m->t1, best_slack(m, x), L);
        dmin(d, &dset, m->t1, L);
      }
    }
    for (int u = 1; u <= n; u++) {
      /* an outer vertex whose dual would reach zero: the matching is of
       * maximum weight (free vertices have the smallest outer duals) */
      if (m->lbl[m->st[u]] == 0 && (!dset || bcmp_(LAB(m, u), d, L) <= 0)) return 0;
    }
    m->ver++;
    for (int u = 1; u <= n; u++) {
      if (m->lbl[m->st[u]] == 0) bsub(LAB(m, u), LAB(m, u), d, L);
      else if (m->lbl[m->st[u]] == 1) badd(LAB(m, u), LAB(m, u), d, L);
    }
    for (int b = n + 1; b <= m->nx; b++) {
      if (m->st[b] != b) continue;
      if (m->lbl[b] == 0) { badd(LAB(m, b), LAB(m, b), d, L); badd(LAB(m, b), LAB(m, b), d, L); }
      else if (m->lbl[b] == 1) { bsub(LAB(m, b), LAB(m, b), d, L); bsub(LAB(m, b), LAB(m, b), d, L); }
    }
    m->qh = m->qt = 0;
    for (int x = 1; x <= m->nx; x++) {
      if (m->st[x] != x || !m->slack[x] || m->st[m->slack[x]] == x) continue;
      if (bzero_(best_slack(m, x), L) && on_found_edge(m, m->slack[x], x)) return 1;
    }
    for (int b = n + 1; b <= m->nx; b++)
      if (m->st[b] == b && m->lbl[b] == 1 && bzero_(LAB(m, b), L)) expand_blossom(m, b);
  }
}

void xq__wm_fix(xq__wmatch *m, int a, int b)
{
  m->fixed[a] = b;
  m->fixed[b] = a;
}

void xq__wm_solve(xq__wmatch *m, int *mate)
{
  int L = m->L, n = 0;
  /* fixed pairs are left out: their edge outweighs all others */
  for (int v = 0; v < m->n; v++)
    if (m->fixed[v] < 0) m->ord[++n] = v + 1;
  m->k = n;
  m->nx = n;
  m->ver++;
  memset(m->bestver, 0, (size_t)m->S * sizeof(unsigned));
  memset(m->match, 0, (size_t)m->S * sizeof(int));
  memset(m->st, 0, (size_t)m->S * sizeof(int));
  memset(m->nflo, 0, (size_t)m->S * sizeof(int));
  memset(m->lab, 0, (size_t)m->S * (size_t)L * sizeof(uint64_t));
  uint64_t *wmax = m->t3;
  memset(wmax, 0, (size_t)L * sizeof *wmax);
  for (int u = 1; u <= n; u++) {
    m->st[u] = u;
    for (int v = 1; v <= n; v++) {
      FFROM(m, u, v) = u == v ? u : 0;
      const uint64_t *w = W(m, m->ord[u], m->ord[v]);
      int e = u != v && !bzero_(w, L);
      EU(m, u, v) = e ? u : 0;
      EV(m, u, v) = e ? v : 0;
      if (e && bcmp_(w, wmax, L) > 0) memcpy(wmax, w, (size_t)L * sizeof *w);
    }
  }
  bshr1(wmax, wmax, L); /* the largest weight itself (stored doubled) */
  for (int u = 1; u <= n; u++) memcpy(LAB(m, u), wmax, (size_t)L * sizeof *wmax);
  while (phase(m)) {}
  for (int v = 0; v < m->n; v++) mate[v] = m->fixed[v] >= 0 ? m->fixed[v] : v;
  for (int u = 1; u <= n; u++)
    if (m->match[u]) mate[m->ord[u] - 1] = m->ord[m->match[u]] - 1;
}
