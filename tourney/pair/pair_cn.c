/*
 * pair_cn.c -- Chinese adjacent pairing for rounds >= 2 (docs/tourney.md, "Rounds ≥ 2: Chinese adjacent pairing").
 *
 * Players are sorted by (积分 desc, 序号 asc) and cut into score groups.
 * Each group, with the floaters from above placed first, is a bracket. A
 * bracket is arranged by a depth-first search that takes the players in
 * order and pairs each with the nearest compatible player of the other
 * row (异行: the two want different colours) before the nearest of its own
 * row (同行); leaving a player over is the last choice. Arrangements are
 * tried with the fewest leftovers first (k = 0 or 1, then k + 2, ...: the
 * 下调 floaters), and the first one whose leftovers let the lower groups
 * be paired wins, so a group sends players down only when it must. The
 * lowest bracket ends with no leftover or one bye-eligible player, who
 * gets the bye: the lowest one for whom the rest can be
 * paired. Compatibility: no rematch, and a
 * colour allocation within 禁止多三 / 禁止连三.
 *
 * A perfect-matching oracle (matching.c) answers, for every pair the
 * search is about to fix, whether the rest of the round can still be
 * paired; branches that cannot are cut at once, and a round that has no
 * pairing at all is reported without any search.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "pair_internal.h"
#include "matching.h"

typedef struct cn {
  const xq_tournament *ev;
  int round;
  int n;
  int *id;          /* [n] player ids in pairing order */
  int *pts;         /* [n] points before the round */
  int *pref;        /* [n] colour the player is due (行), 0 none */
  int ngroups;
  int *gstart;      /* [ngroups + 1] */
  int N;            /* n, plus one dummy bye vertex when n is odd */
  uint8_t *compat;  /* [N * N]; the dummy is joined to bye-eligible players */
  xq__matching m;      /* perfect matching of the players not yet fixed */
  uint8_t *byeok;   /* [n] */
  int *partner;     /* [n] index of the partner, -1 none, -2 the bye */
  int *state;       /* [n] scratch: 0 undecided, 1 paired, 2 leftover */
  int *deg;         /* [n] undecided compatible partners in the bracket */
  long nodes;
  int limit;        /* XQ_PAIR_NODES_MAX reached (2: out of memory) */
} cn;

typedef struct bracket {
  int g;
  int *pool, np;    /* pool indices (into cn arrays), floaters first */
  int k, used;      /* leftovers allowed and used */
  int zero;         /* undecided players with no undecided partner */
  long nodes;
} bracket;

static int solve(cn *c, int g, const int *floaters, int nf);

static int cmp_order(const void *x, const void *y, void *arg)
{
  const xq_tournament *ev = arg;
  const int *a = x, *b = y;
  if (a[1] != b[1]) return b[1] - a[1];
  return ev->players[a[0] - 1].pno - ev->players[b[0] - 1].pno;
}

/* Mark pool member at position i decided and update degrees. */
static void decide(cn *c, bracket *b, int i, int how)
{
  int p = b->pool[i];
  c->state[p] = how;
  if (c->deg[p] == 0) b->zero--;
  for (int j = 0; j < b->np; j++) {
    int x = b->pool[j];
    if (c->state[x] || !c->compat[(size_t)p * c->N + x]) continue;
    if (--c->deg[x] == 0) b->zero++;
  }
}

static void undecide(cn *c, bracket *b, int i)
{
  int p = b->pool[i];
  for (int j = 0; j < b->np; j++) {
    int x = b->pool[j];
    if (c->state[x] || !c->compat[(size_t)p * c->N + x]) continue;
    if (c->deg[x]++ == 0) b->zero--;
  }
  c->state[p] = 0;
  if (c->deg[p] == 0) b->zero++;
}

/* The bracket is arranged: hand the leftovers down, or end the round. */
static int leaf(cn *c, bracket *b)
{
  int left[b->np > 0 ? b->np : 1], nl = 0;
  for (int i = 0; i < b->np; i++)
    if (c->state[b->pool[i]] == 2) left[nl++] = b->pool[i];
  if (b->g == c->ngroups - 1) {
    /* the lowest group ends with 0 leftovers or 1 bye-eligible */
    if (nl == 0) return 1;
    if (nl == 1 && c->byeok[left[0]]) { c->partner[left[0]] = -2; return 1; }
    return 0;
  }
  for (int i = 0; i < nl; i++) c->state[left[i]] = 0;
  int r = solve(c, b->g + 1, left, nl);
  if (r == 0)
    for (int i = 0; i < nl; i++) c->state[left[i]] = 2;
  return r;
}

/* Depth-first arrangement of the bracket. Returns 1 when it and every
 * lower bracket are paired, 0 when not, -1 when a budget ran out. */
static int arrange(cn *c, bracket *b, int from)
{
  if (++c->nodes > XQ_PAIR_NODES_MAX) { c->limit = 1; return -1; }
  if (++b->nodes > XQ_PAIR_BRACKET_NODES) return -1;
  /* players with nobody left to pair must all be leftovers */
  if (b->zero > b->k - b->used) return 0;
  int i = from;
  while (i < b->np && c->state[b->pool[i]]) i++;
  if (i == b->np) return leaf(c, b);
  int p = b->pool[i];
  decide(c, b, i, 1);
  /* 异行 pairs first, then 同行, each time the nearest first */
  for (int pass = 0; pass < 2; pass++)
    for (int j = i + 1; j < b->np; j++) {
      int q = b->pool[j];
      if (c->state[q] || !c->compat[(size_t)p * c->N + q]) continue;
      int cross = !c->pref[p] || !c->pref[q] || c->pref[p] != c->pref[q];
      if (cross != (pass == 0)) continue;
      int mark = c->m.nlog, ok = xq__matching_fix(&c->m, p, q);
      if (ok < 0) { c->limit = 2; return -1; }
      if (!ok) { xq__matching_unfix(&c->m, p, q, mark); continue; } /* rest unpairable */
      decide(c, b, j, 1);
      c->partner[p] = q;
      c->partner[q] = p;
      int r = arrange(c, b, i + 1);
      if (r) return r;
      c->partner[p] = c->partner[q] = -1;
      undecide(c, b, j);
      xq__matching_unfix(&c->m, p, q, mark);
    }
  undecide(c, b, i);
  if (b->used < b->k) {
    decide(c, b, i, 2);
    b->used++;
    int r = arrange(c, b, i + 1);
    if (r) return r;
    b->used--;
    undecide(c, b, i);
  }
  return 0;
}

/* Prepare bracket b for an arrangement with k leftovers: clear the marks a
 * failed or abandoned attempt may have left, count the degrees. */
static void start(cn *c, bracket *b, int k)
{
  for (int i = 0; i < b->np; i++) {
    c->state[b->pool[i]] = 0;
    c->partner[b->pool[i]] = -1;
  }
  b->k = k;
  b->used = 0;
  b->nodes = 0;
  b->zero = 0;
  for (int i = 0; i < b->np; i++) {
    int d = 0;
    for (int j = 0; j < b->np; j++) d += c->compat[(size_t)b->pool[i] * c->N + b->pool[j]];
    c->deg[b->pool[i]] = d;
    if (!d) b->zero++;
  }
}

/* Undo what an abandoned attempt left fixed in the oracle: the matching
 * back to `mark`, this bracket, the lower groups and the bye vertex alive. */
static void abandon(cn *c, bracket *b, int mark)
{
  xq__matching_undo(&c->m, mark);
  for (int i = 0; i < b->np; i++) c->m.alive[b->pool[i]] = 1;
  for (int i = c->gstart[b->g + 1]; i < c->n; i++) c->m.alive[i] = 1;
  if (c->N > c->n) c->m.alive[c->n] = 1;
}

static int solve(cn *c, int g, const int *floaters, int nf)
{
  int np = nf + c->gstart[g + 1] - c->gstart[g];
  int *pool = malloc(sizeof *pool * (size_t)np);
  if (!pool) return -2;
  if (nf) memcpy(pool, floaters, sizeof *pool * (size_t)nf);
  for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++) pool[nf++] = i;
  bracket b = {.g = g, .pool = pool, .np = np};
  int last = g == c->ngroups - 1, r = 0;
  if (last && np % 2) {
    /* the bye goes to the lowest eligible player (lowest score, then
     * highest pairing number) for whom the rest can be paired. The pool
     * runs from high scores to low, so try it from the end; the oracle
     * rules out a recipient without a complete pairing at once. */
    for (int i = np - 1; i >= 0 && r != 1 && !c->limit; i--) {
      int p = pool[i], mark = c->m.nlog;
      if (!c->byeok[p]) continue;
      start(c, &b, 1);
      int ok = xq__matching_fix(&c->m, p, c->n); /* pair p with the bye vertex */
      if (ok < 0) { c->limit = 2; break; }
      if (ok) {
        decide(c, &b, i, 2);
        b.used = 1;
        r = arrange(c, &b, 0);
      }
      if (r != 1 && !c->limit) {
        abandon(c, &b, mark);
        r = 0;
      }
    }
  } else {
    for (int k = np % 2; k <= np && !(last && k > 0); k += 2) {
      int mark = c->m.nlog;
      start(c, &b, k);
      r = arrange(c, &b, 0);
      if (r == 1 || c->limit) break;
      /* this count failed or hit the bracket budget: float two more */
      abandon(c, &b, mark);
      r = 0;
    }
  }
  free(pool);
  return c->limit ? -1 : r;
}

/* The compatibility matrix: met-before from the round table,
 * colours from each player's two possible colours, forbidden pairs, and
 * the bye vertex joined to the bye-eligible. Returns XQ_OK or XQ_ENOMEM. */
static int build_compat(cn *c)
{
  const xq_tournament *ev = c->ev;
  int n = c->n, round = c->round;
  size_t nn = (size_t)(n ? n : 1), NN = (size_t)(c->N ? c->N : 1);
  uint8_t *okr = malloc(nn), *okb = malloc(nn);
  int *index = malloc(sizeof(int) * (size_t)(ev->n + 1));
  if (!okr || !okb || !index) { free(okr); free(okb); free(index); return XQ_ENOMEM; }
  for (int id = 0; id <= ev->n; id++) index[id] = -1;
  for (int i = 0; i < n; i++) {
    index[c->id[i]] = i;
    okr[i] = (uint8_t)xq__pair_colour_ok(ev, c->id[i], round, XQ_TC_RED);
    okb[i] = (uint8_t)xq__pair_colour_ok(ev, c->id[i], round, XQ_TC_BLACK);
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      c->compat[(size_t)i * NN + j] = i != j && ((okr[i] && okb[j]) || (okb[i] && okr[j]));
  for (int i = 0; i < n; i++)
    for (int r = 1; r < round; r++) {
      const xq_tslot *s = xq_tournament_slot(ev, c->id[i], r);
      int j = s->opp ? index[s->opp] : -1;
      if (j < 0) continue;
      if (xq__event_played(s) || ev->cfg.forfeit_counts_as_met)
        c->compat[(size_t)i * NN + j] = c->compat[(size_t)j * NN + i] = 0;
    }
  /* a forbidden pair is paired no more than a rematch */
  for (int k = 0; k < ev->nforbid; k++) {
    const xq_tforbid *f = &ev->forbid[k];
    int i = f->a <= ev->n ? index[f->a] : -1, j = f->b <= ev->n ? index[f->b] : -1;
    if (i >= 0 && j >= 0 && round >= f->from && round <= f->to)
      c->compat[(size_t)i * NN + j] = c->compat[(size_t)j * NN + i] = 0;
  }
  free(okr); free(okb); free(index);
  if (c->N > n) /* the bye is a partner only bye-eligible players may take */
    for (int i = 0; i < n; i++) c->compat[(size_t)i * NN + n] = c->compat[(size_t)n * NN + i] = c->byeok[i];
  return XQ_OK;
}

/* The boards of the pairing found, colours as "Pairing" says, in board order; the
 * floaters counted into *floaters. Returns XQ_OK or XQ_ENOMEM. */
static int make_boards(const cn *c, xq_tpairing *out, int *floaters)
{
  const xq_tournament *ev = c->ev;
  int n = c->n, round = c->round;
  xq_tboard *bd = malloc(sizeof *bd * (size_t)(n / 2 + 1));
  if (!bd) return XQ_ENOMEM;
  int nb = 0;
  *floaters = 0;
  for (int i = 0; i < n; i++) {
    int j = c->partner[i];
    if (j == -2) continue;
    if (j < i) continue;
    int col = xq__pair_allocate(ev, round, c->id[i], c->id[j]);
    bd[nb].red = col == XQ_TC_RED ? c->id[i] : c->id[j];
    bd[nb].black = col == XQ_TC_RED ? c->id[j] : c->id[i];
    if (c->pts[i] != c->pts[j]) ++*floaters;
    nb++;
  }
  for (int i = 0; i < n; i++)
    if (c->partner[i] == -2) { bd[nb].red = c->id[i]; bd[nb].black = 0; nb++; }
  out->round = round;
  out->nboards = nb;
  out->boards = bd;
  xq__pair_sort_boards(ev, out);
  return XQ_OK;
}

int xq_pair_cn(const xq_tournament *ev, int round, xq_tpairing *out, xq_pair_stats *st)
{
  if (!ev || !out || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  if (round == 1) return xq_pair_round1(ev, out);
  if (!xq_tournament_round_complete(ev, round - 1)) return XQ_EINVAL;
  for (int id = 1; id <= ev->n; id++)
    if (!ev->players[id - 1].pno) return XQ_EINVAL;

  cn c = {.ev = ev, .round = round};
  int rc = XQ_ENOMEM, n;
  int *ids = malloc(sizeof *ids * (size_t)(ev->n + 1));
  int *order = malloc(sizeof *order * 2 * (size_t)(ev->n + 1));
  if (!ids || !order) goto done;
  n = xq__pair_pool(ev, round, ids);
  for (int i = 0; i < n; i++) {
    order[2 * i] = ids[i];
    order[2 * i + 1] = xq_tournament_points(ev, ids[i], round - 1);
  }
  /* 积分 desc, then 序号 asc */
  qsort_r(order, (size_t)n, 2 * sizeof *order, cmp_order, (void *)ev);
  c.n = n;
  size_t nn = (size_t)(n ? n : 1);
  c.id = malloc(sizeof(int) * nn);
  c.pts = malloc(sizeof(int) * nn);
  c.pref = malloc(sizeof(int) * nn);
  c.gstart = malloc(sizeof(int) * (nn + 1));
  c.N = n + (n % 2);
  size_t NN = (size_t)(c.N ? c.N : 1);
  c.compat = calloc(NN * NN, 1);
  c.byeok = malloc(nn);
  c.partner = malloc(sizeof(int) * nn);
  c.state = calloc(nn, sizeof(int));
  c.deg = malloc(sizeof(int) * nn);
  if (!c.id || !c.pts || !c.pref || !c.gstart || !c.compat || !c.byeok || !c.partner ||
      !c.state || !c.deg)
    goto done;
  for (int i = 0; i < n; i++) {
    xq__pair_colhist h;
    c.id[i] = order[2 * i];
    c.pts[i] = order[2 * i + 1];
    c.byeok[i] = (uint8_t)xq__pair_bye_eligible(ev, c.id[i], round);
    c.partner[i] = -1;
    xq__pair_colour_history(ev, c.id[i], round - 1, &h);
    int cd = h.reds - h.blacks;
    /* rows: 要先 (due Red) / 要后 (due Black), none without games */
    c.pref[i] = h.reds + h.blacks == 0 ? 0
              : (cd < 0 || (cd == 0 && h.last[0] == XQ_TC_BLACK)) ? XQ_TC_RED : XQ_TC_BLACK;
    if (i == 0 || c.pts[i] != c.pts[i - 1]) c.gstart[c.ngroups++] = i;
  }
  c.gstart[c.ngroups] = n;
  if (build_compat(&c)) goto done;
  if (n == 0) {
    out->round = round;
    out->nboards = 0;
    out->boards = NULL;
    rc = XQ_OK;
    goto done;
  }
  if (xq__matching_init(&c.m, c.N, c.compat)) goto done;
  {
    int *seq = malloc(sizeof *seq * NN);
    if (!seq) goto done;
    for (int i = 0; i < c.N; i++) seq[i] = i;
    int ok = xq__matching_complete(&c.m, seq, c.N);
    free(seq);
    if (ok < 0) goto done;
    if (!ok) { rc = XQ_ENOPAIRING; goto done; }
  }
  int r = solve(&c, 0, NULL, 0);
  if (r == -2) goto done;
  if (c.limit == 2) goto done;
  if (r != 1) { rc = c.limit ? XQ_ELIMIT : XQ_ENOPAIRING; goto done; }

  int floaters;
  if (make_boards(&c, out, &floaters)) goto done;
  if (st) { st->nodes = c.nodes; st->floaters = floaters; }
  rc = XQ_OK;
done:
  free(ids); free(order);
  free(c.id); free(c.pts); free(c.pref); free(c.gstart); free(c.compat);
  free(c.byeok); free(c.partner); free(c.state); free(c.deg);
  xq__matching_free(&c.m);
  return rc;
}
