/*
 * pair_dutch.c -- FIDE Dutch pairing (C.04.3, 2025 rules) for rounds >= 2
 * and round 1 alike, as a sequence of maximum-weight matchings
 * (docs/tourney.md, "FIDE Dutch"): every pair of players that may meet is an edge
 * whose weight packs the quality criteria as bit fields in strict
 * priority order; score brackets are processed from the top, and each
 * decision of the bracket (which downfloaters are paired, which players
 * are exchanged between S1 and S2, who meets whom) is fixed one player at
 * a time by re-solving the matching with a small bonus on the preferred
 * choice, so the final pairing is the one the FIDE order of transpositions
 * and exchanges prefers among the optimal ones.
 *
 * Players taking part: every player without a block in the round to pair
 * (a written block means absence). Forfeited games are not games played
 * (C.04.1.b): the two may meet again and the colours do not count.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "pair.h"
#include "wmatch.h"

enum { FL_DOWN, FL_UP, FL_NONE };

typedef struct dplayer {
  int id;          /* 1-based player id */
  int rank;        /* rank index (0-based, in 序号 order) */
  int score;       /* pairing score: points after the rounds played plus
                    * the acceleration of this round, half-units */
  int raw;         /* the points alone (board order) */
  int float1, float2; /* float in the last round / two rounds back */
  int pref;        /* XQ_TC_RED (white), XQ_TC_BLACK or XQ_TC_NONE */
  int imbalance;   /* |#white - #black| over played games */
  int repeated;    /* colour played twice in a row last, else NONE */
  int strong;      /* strong (not absolute) preference */
  int played;      /* games played */
  int bye_ok;      /* may receive the PAB */
} dplayer;

typedef struct dctx {
  const xq_tournament *ev;
  int n, L;        /* players to pair, weight limbs */
  dplayer *p;      /* [n] sorted by score desc, rank asc */
  uint8_t *met;    /* [n*n] played each other */
  int played_rounds, last_round;
  int thr;         /* top-scorer threshold */
  int sgb, sgs;    /* score-group size bits, sum of group bits */
  int *gshift;     /* [n] shift of the score group of player k */
  int bye_score, single_df_bye;
  int *urank;      /* [XQ_TOURNEY_ROUNDS_MAX + 1] rank of a played-games count */
  uint64_t *tmp;
  xq__wmatch *wm;
} dctx;

/* ---- multi-word weights (L limbs) ---- */

static void wshl(uint64_t *w, int L, int k)
{
  int limbs = k / 64, bits = k % 64;
  for (int i = L - 1; i >= 0; i--) {
    uint64_t v = 0;
    if (i - limbs >= 0) {
      v = w[i - limbs] << bits;
      if (bits && i - limbs - 1 >= 0) v |= w[i - limbs - 1] >> (64 - bits);
    }
    w[i] = v;
  }
}

static void wadd_small(uint64_t *w, int L, uint64_t v)
{
  for (int i = 0; i < L && v; i++) {
    uint64_t s = w[i] + v;
    v = s < w[i];
    w[i] = s;
  }
}

static void wsub_small(uint64_t *w, int L, uint64_t v)
{
  for (int i = 0; i < L && v; i++) {
    uint64_t s = w[i] - v;
    v = s > w[i];
    w[i] = s;
  }
}

static void wadd_bit(uint64_t *w, int L, int bit)
{
  int i = bit / 64;
  uint64_t v = 1ull << (bit % 64);
  for (; i < L && v; i++) {
    uint64_t s = w[i] + v;
    v = s < w[i];
    w[i] = s;
  }
}

static int wzero(const uint64_t *w, int L)
{
  for (int i = 0; i < L; i++) if (w[i]) return 0;
  return 1;
}

static int bits_for(int v)
{
  int b = 0;
  while (v) { b++; v >>= 1; }
  return b;
}

/* ---- player state (FIDE A.6, A.7; C.04.1) ---- */

static int invert(int c)
{
  return c == XQ_TC_RED ? XQ_TC_BLACK : c == XQ_TC_BLACK ? XQ_TC_RED : XQ_TC_NONE;
}

static int abs_imb(const dplayer *p) { return p->imbalance > 1; }
static int abs_pref(const dplayer *p) { return abs_imb(p) || p->repeated != XQ_TC_NONE; }

/* Float of `id` in round r (1-based): C.04.3 A.4, the two pairing
 * scores of that round compared (points before it plus acc_r, the
 * accelerations of round r, as bbpPairings does). */
static int float_of(const xq_tournament *ev, int id, int r, const int *acc_r)
{
  const xq_tslot *s = xq_tournament_slot(ev, id, r);
  if (!xq__event_played(s))
    return xq_tslot_points(ev, s) > ev->cfg.loss ? FL_DOWN : FL_NONE;
  int a = xq_tournament_points(ev, id, r - 1), b = xq_tournament_points(ev, s->opp, r - 1);
  if (s->opp >= 1 && s->opp <= ev->n) {
    a += acc_r[id];
    b += acc_r[s->opp];
  }
  return a > b ? FL_DOWN : a < b ? FL_UP : FL_NONE;
}

/* acc[0..2]: the accelerations of rounds pr + 1 (the one paired), pr and
 * pr - 1, indexed by player id. */
static void fill_player(const xq_tournament *ev, int id, int rank, int pr, int *const acc[3],
                        dplayer *p)
{
  int white = 0, black = 0, consec = 0, rep = XQ_TC_NONE;
  memset(p, 0, sizeof *p);
  p->id = id;
  p->rank = rank;
  p->raw = xq_tournament_points(ev, id, pr);
  p->score = p->raw + acc[0][id];
  p->float1 = pr >= 1 ? float_of(ev, id, pr, acc[1]) : FL_NONE;
  p->float2 = pr >= 2 ? float_of(ev, id, pr - 1, acc[2]) : FL_NONE;
  p->bye_ok = 1;
  for (int r = 1; r <= pr; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    if (!xq__event_played(s)) {
      /* C.04.1.d (2025): no PAB after a PAB or an unplayed full-point
       * result (forfeit win, full-point bye) */
      if (s->res == XQ_TR_PAB || xq_tslot_points(ev, s) >= ev->cfg.win) p->bye_ok = 0;
      continue;
    }
    p->played++;
    if (s->colour == XQ_TC_RED) white++;
    else black++;
    consec = consec && s->colour == rep ? consec + 1 : 1;
    rep = s->colour;
  }
  int lower = white > black ? XQ_TC_BLACK : XQ_TC_RED;
  p->imbalance = white > black ? white - black : black - white;
  /* A.6: absolute (CD > 1 or two in a row), strong (CD = 1), mild */
  p->pref = p->imbalance > 1 ? lower
          : consec > 1 ? invert(rep)
          : p->imbalance > 0 ? lower
          : consec ? invert(rep) : XQ_TC_NONE;
  p->repeated = consec > 1 ? rep : XQ_TC_NONE;
  p->strong = !abs_pref(p) && p->imbalance;
}

static int prefs_compatible(int a, int b)
{
  return a != b || a == XQ_TC_NONE || b == XQ_TC_NONE;
}

/* no rematch; C3: two non-top-scorers with the same absolute
 * colour preference do not meet (relaxed in the last round only). */
static int compatible(const dctx *c, int a, int b)
{
  const dplayer *x = &c->p[a], *y = &c->p[b];
  if (c->met[(size_t)a * (size_t)c->n + (size_t)b]) return 0;
  return !abs_pref(x) || !abs_pref(y) || x->pref != y->pref ||
         (c->last_round && (x->score > c->thr || y->score > c->thr));
}

static int bye_candidate(const dctx *c, int k, int bye_score)
{
  return c->p[k].bye_ok && c->p[k].score <= bye_score;
}

/* The weight of the pair (hi, lo), hi before lo in the sorted order, in
 * the bracket being paired (docs/tourney.md, "FIDE Dutch"; the fields from the most
 * important): completion and PAB eligibility, pairs and paired scores in
 * the current and the next bracket, the PAB recipient's unplayed games
 * (C9), colour criteria (C10-C13), repeated floats and their scores
 * (C14-C21), then room for the ordering of S1/S2 exchanges. */
static void edge_weight(dctx *c, int hi, int lo, int in_cur, int in_next, uint64_t *w)
{
  int L = c->L, sgb = c->sgb, sgs = c->sgs;
  const dplayer *H = &c->p[hi], *P = &c->p[lo];
  memset(w, 0, (size_t)L * sizeof *w);
  if (!compatible(c, hi, lo)) return;
  wadd_small(w, L, 1u + !bye_candidate(c, hi, c->bye_score) + !bye_candidate(c, lo, c->bye_score));
  wshl(w, L, sgb);
  wadd_small(w, L, (uint64_t)in_cur);
  wshl(w, L, sgs);
  if (in_cur) wadd_bit(w, L, c->gshift[hi]);
  wshl(w, L, sgb);
  wadd_small(w, L, (uint64_t)in_next);
  wshl(w, L, sgs);
  if (in_next) wadd_bit(w, L, c->gshift[hi]);
  wshl(w, L, 2 * sgb);
  if (c->single_df_bye) {
    if (H->score == c->bye_score) wadd_small(w, L, (uint64_t)c->urank[H->played]);
    if (P->score == c->bye_score) wadd_small(w, L, (uint64_t)c->urank[P->played]);
  }
  /* colours, seen from the lower player against the higher */
  wshl(w, L, sgb);
  wadd_small(w, L, in_cur && (!abs_imb(P) || !abs_imb(H) || P->pref != H->pref));
  wshl(w, L, sgb);
  if (in_cur) {
    int ok = !abs_pref(P) || !abs_pref(H) || P->pref != H->pref;
    if (!ok) {
      if (P->imbalance == H->imbalance)
        ok = P->repeated == XQ_TC_NONE || P->repeated != H->repeated;
      else
        ok = (P->imbalance > H->imbalance ? H : P)->repeated != invert(P->pref);
    }
    wadd_small(w, L, (uint64_t)ok);
  }
  wshl(w, L, sgb);
  wadd_small(w, L, in_cur && prefs_compatible(P->pref, H->pref));
  wshl(w, L, sgb);
  wadd_small(w, L, in_cur && ((!P->strong && !abs_pref(P)) || (!H->strong && !abs_pref(H)) ||
                              (abs_pref(P) && abs_pref(H)) || P->pref != H->pref));
  /* repeated floats */
  for (int back = 1; back <= 2; back++) {
    if (c->played_rounds < back) break;
    int fp = back == 1 ? P->float1 : P->float2, fh = back == 1 ? H->float1 : H->float2;
    wshl(w, L, sgb);
    if (in_cur) wadd_small(w, L, (uint64_t)(fp == FL_DOWN) + (H->score <= P->score && fh == FL_DOWN));
    wshl(w, L, sgb);
    if (in_cur) wadd_small(w, L, !(H->score > P->score && fp == FL_UP));
  }
  for (int back = 1; back <= 2; back++) {
    if (c->played_rounds < back) break;
    int fp = back == 1 ? P->float1 : P->float2, fh = back == 1 ? H->float1 : H->float2;
    wshl(w, L, sgs);
    if (in_cur) {
      if (fp == FL_DOWN) wadd_bit(w, L, c->gshift[lo]);
      if (fh == FL_DOWN) wadd_bit(w, L, c->gshift[hi]);
    }
    wshl(w, L, sgs);
    if (in_cur && !(fp == FL_UP && H->score > P->score)) wadd_bit(w, L, c->gshift[hi]);
  }
  /* room for the exchange ordering */
  wshl(w, L, 3 * sgb + 1);
}

/* Bits of the widest weight. */
static int weight_bits(const dctx *c)
{
  int b = 2 + 2 * (c->sgb + c->sgs) + 2 * c->sgb + 4 * c->sgb;
  int fr = c->played_rounds >= 2 ? 2 : c->played_rounds;
  b += fr * (2 * c->sgb + 2 * c->sgs);
  return b + 3 * c->sgb + 1;
}

/* ---- the bracket-by-bracket matching ---- */

typedef struct run {
  dctx *c;
  int *vi, nvi;       /* bracket players (vertex = sorted index) */
  uint64_t *base;     /* [nvi * nvi * L] base weights [larger][smaller] */
  int *sm;            /* current matching */
  uint8_t *matched;
  uint64_t *maxw, *w;
  long solves;
} run;

#define BASE(R, a, b) ((R)->base + ((size_t)(a) * (size_t)(R)->nvi + (size_t)(b)) * (size_t)(R)->c->L)

static void solve(run *R)
{
  xq__wmatch_solve(R->c->wm, R->sm);
  R->solves++;
}

static void setw(run *R, int a, int b, const uint64_t *w)
{
  xq__wmatch_set(R->c->wm, a, b, w);
}

/* Fix the pair (a, b): as if its edge had the largest weight and every
 * other edge of a and b were removed. */
static void finalize(run *R, int a, int b)
{
  xq__wmatch_fix(R->c->wm, a, b);
}

/* The base weight of (smaller, larger) with the exchange preferences of a
 * remainder: C.04.3 B.3/B.4 -- fewest exchanges, then the smallest
 * difference of the exchanged BSNs. */
static void exch_weight(run *R, int smaller, int larger, int sri, int rpairs, uint64_t *w)
{
  int L = R->c->L;
  memcpy(w, BASE(R, larger, smaller), (size_t)L * sizeof *w);
  if (wzero(w, L)) return;
  if (sri < rpairs) wadd_bit(w, L, 2 * R->c->sgb + 1);
  wsub_small(w, L, 2u * (uint64_t)sri);
}

static int in_range(int v, int lo, int hi) { return v >= lo && v < hi; }

/* One bracket being paired: vi[0..sgb) are the players moved down from
 * above (their score groups' vertices were sgbv and up), vi[sgb..nsgb)
 * the bracket's own score group, vi[nsgb..nvi) the next score group
 * (from sgit in the sorted order), which the weights look ahead into;
 * nsgbv is the first vertex below the bracket. rem[0..nrem) are the
 * positions in vi of the remainder (homogeneous part), S1 its first
 * rpairs, and exch the exchanges between S1 and S2 it needs. */
typedef struct bracket {
  int sgb, sgbv, nsgb, nsgbv, sgit;
  int *rem, nrem, rpairs, exch;
} bracket;

/* The weight of (vi[lo], vi[hi]) from the base, plus `add`, set when the
 * pair is possible at all. */
static void bonus(run *R, int lo, int hi, uint64_t add)
{
  int L = R->c->L;
  memcpy(R->w, BASE(R, hi, lo), (size_t)L * sizeof *R->w);
  if (wzero(R->w, L)) return;
  wadd_small(R->w, L, add);
  setw(R, R->vi[lo], R->vi[hi], R->w);
}

/* Take the next score group into the bracket (and the weights), and
 * solve. Returns XQ_OK or XQ_ENOMEM. */
static int bracket_open(run *R, bracket *B, int *next)
{
  dctx *c = R->c;
  int n = c->n, L = c->L, *vi = R->vi;
  B->nsgb = R->nvi;
  B->nsgbv = B->sgbv + (B->nsgb - B->sgb);
  B->sgit = *next;
  while (*next < n && c->p[*next].score >= c->p[B->sgit].score) vi[R->nvi++] = (*next)++;
  int nvi = R->nvi;
  free(R->base);
  R->base = calloc((size_t)nvi * (size_t)nvi * (size_t)L + 1, sizeof(uint64_t));
  if (!R->base) return XQ_ENOMEM;
  for (int lg = B->sgb; lg < nvi; lg++)
    for (int s = 0; s < lg; s++) {
      edge_weight(c, vi[s], vi[lg], lg < B->nsgb, lg >= B->nsgb, BASE(R, lg, s));
      setw(R, vi[lg], vi[s], BASE(R, lg, s));
    }
  solve(R);
  return XQ_OK;
}

/* C.04.3 B.1-B.2: which downfloaters (moved-down players) are paired in
 * this bracket, the highest first; then their opponents, the
 * lowest-weighted choice last (B.5 order). */
static void pair_downfloaters(run *R, const bracket *B)
{
  dctx *c = R->c;
  int *vi = R->vi, *sm = R->sm, nvi = R->nvi, sgb = B->sgb, nsgb = B->nsgb;
  int mds = 0, rem_md = 0, rem_mm = 0;
  for (int pi = 0; pi < sgb; pi++) {
    if (!pi || c->p[vi[pi]].score < mds) {
      mds = c->p[vi[pi]].score;
      rem_mm = rem_md = 0;
      for (int k = pi; k < nvi && c->p[vi[k]].score >= mds; k++) {
        rem_md++;
        if (in_range(sm[vi[k]], B->sgbv, B->nsgbv)) rem_mm++;
      }
    }
    if (!rem_mm) continue;
    int pv = vi[pi];
    if (rem_md <= rem_mm) { R->matched[pv] = 1; continue; }
    rem_md--;
    if (!in_range(sm[pv], B->sgbv, B->nsgbv)) {
      for (int oi = sgb; oi < nsgb; oi++) bonus(R, pi, oi, 1);
      solve(R);
    }
    if (in_range(sm[pv], B->sgbv, B->nsgbv)) {
      R->matched[pv] = 1;
      rem_mm--;
      for (int oi = sgb; oi < nsgb; oi++) bonus(R, pi, oi, (uint64_t)(nsgb - sgb) + 1u);
    }
  }
  for (int pi = 0; pi < sgb; pi++) {
    int pv = vi[pi];
    if (!R->matched[pv]) continue;
    uint64_t add = (uint64_t)nvi;
    int best = -1;
    for (int oi = nsgb - 1; oi >= sgb; oi--) {
      int ov = vi[oi];
      if (R->matched[ov]) continue;
      memcpy(R->w, BASE(R, oi, pi), (size_t)c->L * sizeof *R->w);
      if (wzero(R->w, c->L)) continue;
      wadd_small(R->w, c->L, add);
      setw(R, pv, ov, R->w);
      add++;
      best = ov;
    }
    /* only pv's edges gained, the most on the edge to `best`: a matching
     * that already uses it stays optimal */
    if (sm[pv] != best) solve(R);
    int mv = sm[pv];
    R->matched[mv] = 1;
    finalize(R, pv, mv);
  }
}

/* The remainder: S1 = its first rpairs players; the weights of its
 * exchanges, and how many it needs. */
static void remainder_open(run *R, bracket *B)
{
  int *vi = R->vi, *sm = R->sm, *rem = B->rem;
  B->nrem = B->rpairs = 0;
  for (int pi = B->sgb; pi < B->nsgb; pi++) {
    int pv = vi[pi];
    if (sm[pv] < B->sgbv) continue;
    rem[B->nrem++] = pi;
    if (sm[pv] < pv) B->rpairs++;
  }
  int nrem = B->nrem, rpairs = B->rpairs;
  int fge = rpairs < nrem ? rem[rpairs] : 1 << 30;
  for (int a = 0; a < nrem; a++)
    for (int b = 0, pri = 0; b < nrem && rem[b] < rem[a]; b++, pri++) {
      exch_weight(R, rem[b], rem[a], pri, rpairs, R->w);
      setw(R, vi[rem[b]], vi[rem[a]], R->w);
    }
  solve(R);
  B->exch = 0;
  for (int i = 0; i < nrem && rem[i] < fge; i++) {
    int pv = vi[rem[i]];
    B->exch += sm[pv] <= pv || sm[pv] >= B->nsgbv;
  }
}

/* B.4: exchange the lowest S1 players possible ... */
static void exchange_s1(run *R, const bracket *B)
{
  int L = R->c->L, *vi = R->vi, *sm = R->sm, *rem = B->rem, nrem = B->nrem, rpairs = B->rpairs;
  int left = B->exch, pri = rpairs;
  for (int pit = rpairs; pit != 0 && left;) {
    int oit = pit;
    pri--;
    pit--;
    int pv = vi[rem[pit]];
    if (sm[pv] > pv && sm[pv] < B->nsgbv) {
      for (int o = oit; o < nrem; o++) {
        exch_weight(R, rem[pit], rem[o], pri, rpairs, R->w);
        if (wzero(R->w, L)) continue;
        wsub_small(R->w, L, 1);
        setw(R, pv, vi[rem[o]], R->w);
      }
      solve(R);
    }
    int ex = sm[pv] <= pv || sm[pv] >= B->nsgbv;
    left -= ex;
    for (int o = pit + 1; o < nrem; o++) {
      if (ex) memset(BASE(R, rem[o], rem[pit]), 0, (size_t)L * sizeof(uint64_t));
      exch_weight(R, rem[pit], rem[o], pri, rpairs, R->w);
      setw(R, pv, vi[rem[o]], R->w);
    }
  }
}

/* ... against the highest S2 players possible; then the S1/S2 split
 * found is fixed. */
static void exchange_s2(run *R, const bracket *B)
{
  int L = R->c->L, *vi = R->vi, *sm = R->sm, *rem = B->rem, nrem = B->nrem, rpairs = B->rpairs;
  int nsgbv = B->nsgbv, left = B->exch, ri = rpairs;
  for (int pit = rpairs; pit < nrem && left > 1; pit++, ri++) {
    int pv = vi[rem[pit]];
    int already = sm[pv] > pv && sm[pv] < nsgbv;
    if (!already) {
      for (int o = pit + 1; o < nrem; o++) {
        exch_weight(R, rem[pit], rem[o], ri, rpairs, R->w);
        if (wzero(R->w, L)) continue;
        wadd_small(R->w, L, 1);
        setw(R, pv, vi[rem[o]], R->w);
      }
      solve(R);
    }
    if (sm[pv] > pv && sm[pv] < nsgbv) {
      left--;
      for (int o = 0; o < pit; o++) {
        memset(BASE(R, rem[pit], rem[o]), 0, (size_t)L * sizeof(uint64_t));
        setw(R, pv, vi[rem[o]], BASE(R, rem[pit], rem[o]));
      }
      for (int oi = B->nsgb; oi < R->nvi; oi++) {
        memset(BASE(R, oi, rem[pit]), 0, (size_t)L * sizeof(uint64_t));
        setw(R, pv, vi[oi], BASE(R, oi, rem[pit]));
      }
    }
    if (!already)
      for (int o = pit + 1; o < nrem; o++) {
        exch_weight(R, rem[pit], rem[o], ri, rpairs, R->w);
        setw(R, pv, vi[rem[o]], R->w);
      }
  }
  for (int i = 0; i < nrem; i++) {
    int pv = vi[rem[i]];
    for (int j = i + 1; j < nrem; j++) {
      int ov = vi[rem[j]];
      if (sm[pv] <= pv || sm[pv] >= nsgbv || (sm[ov] > ov && sm[ov] < nsgbv))
        memset(BASE(R, rem[j], rem[i]), 0, (size_t)L * sizeof(uint64_t));
      setw(R, pv, ov, BASE(R, rem[j], rem[i]));
    }
  }
}

/* B.5-B.6: each S1 player in order meets the first S2 player possible. */
static void pair_remainder(run *R, const bracket *B)
{
  int L = R->c->L, *vi = R->vi, *sm = R->sm, *rem = B->rem, nrem = B->nrem;
  for (int i = 0; i < nrem; i++) {
    int pi = rem[i], pv = vi[pi];
    if (!(sm[pv] > pv && sm[pv] < B->nsgbv)) continue;
    uint64_t add = 0;
    int best = -1;
    for (int j = nrem - 1; j >= 0; j--) {
      int oi = rem[j], ov = vi[oi];
      if (oi <= pi || R->matched[ov]) continue;
      memcpy(R->w, BASE(R, oi, pi), (size_t)L * sizeof *R->w);
      if (!wzero(R->w, L)) {
        wadd_small(R->w, L, add);
        setw(R, pv, ov, R->w);
        best = ov;
      }
      add++;
    }
    /* as above: the current matching stays optimal if it uses `best` */
    if (sm[pv] != best) solve(R);
    int mv = sm[pv];
    R->matched[pv] = R->matched[mv] = 1;
    finalize(R, pv, mv);
  }
}

/* The pairs of the bracket into partner[]; the unpaired players float
 * down into the next bracket (nv: scratch of n). */
static void bracket_close(run *R, bracket *B, int *partner, int *nv)
{
  dctx *c = R->c;
  int *vi = R->vi, *sm = R->sm, nn = 0, nsg = 0;
  int single = (c->n & 1) && B->sgit != c->n && c->bye_score >= c->p[B->sgit].score;
  for (int pi = 0; pi < R->nvi; pi++) {
    int pv = vi[pi];
    if (pi < B->nsgb && R->matched[pv]) {
      partner[pv] = sm[pv];
      partner[sm[pv]] = pv;
    } else {
      nv[nn++] = pv;
      if (pi < B->nsgb) nsg++;
      if (single && c->p[sm[pv]].score < c->p[B->sgit].score) single = 0;
    }
  }
  c->single_df_bye = single;
  memcpy(vi, nv, (size_t)nn * sizeof *vi);
  R->nvi = nn;
  B->sgb = nsg;
  B->sgbv = B->nsgbv;
}

/* Pair the brackets from the top; partner[k] = sorted index of k's
 * opponent, or -1. */
static int pair_brackets(run *R, int *partner)
{
  dctx *c = R->c;
  int n = c->n, rc = XQ_OK;
  int *nv = malloc((size_t)n * sizeof *nv);
  bracket B = {.rem = malloc((size_t)n * sizeof *B.rem)};
  if (!nv || !B.rem) { free(nv); free(B.rem); return XQ_ENOMEM; }
  int next = 0;
  R->nvi = 0;
  while (next < n && c->p[next].score >= c->p[0].score) R->vi[R->nvi++] = next++;
  while (R->nvi > 1 || next != n) {
    if ((rc = bracket_open(R, &B, &next))) break;
    pair_downfloaters(R, &B);
    remainder_open(R, &B);
    exchange_s1(R, &B);
    exchange_s2(R, &B);
    pair_remainder(R, &B);
    bracket_close(R, &B, partner, nv);
  }
  free(nv);
  free(B.rem);
  return rc;
}

/* ---- colours (C.04.3 E) ---- */

/* Colour of a against b when no rank decides (E.1-E.3), or NONE. */
static int neutral_colour(const xq_tournament *ev, int pr, const dplayer *a, const dplayer *b)
{
  if (prefs_compatible(a->pref, b->pref)) {
    if (a->pref != XQ_TC_NONE) return a->pref;
    return invert(b->pref);
  }
  if (abs_pref(a) && (a->imbalance > b->imbalance || !abs_pref(b))) return a->pref;
  if (abs_pref(b) && (b->imbalance > a->imbalance || !abs_pref(a))) return invert(b->pref);
  if (a->strong && !b->strong) return a->pref;
  if (b->strong && !a->strong) return invert(b->pref);
  /* E.3: the latest round, counted in played games of each, in which
   * the two had different colours: a takes b's colour of then */
  int ra = pr, rb = pr;
  for (;;) {
    while (ra >= 1 && !xq__event_played(xq_tournament_slot(ev, a->id, ra))) ra--;
    while (rb >= 1 && !xq__event_played(xq_tournament_slot(ev, b->id, rb))) rb--;
    if (ra < 1 || rb < 1) return XQ_TC_NONE;
    int ca = xq_tournament_slot(ev, a->id, ra)->colour, cb = xq_tournament_slot(ev, b->id, rb)->colour;
    if (ca != cb) return cb;
    ra--;
    rb--;
  }
}

static int ranks_lower(const dplayer *a, const dplayer *b)
{
  return a->score < b->score || (a->score == b->score && a->rank > b->rank);
}

/* The same by the points alone: the board order does not count the
 * acceleration (as bbpPairings lists the boards). */
static int ranks_lower_raw(const dplayer *a, const dplayer *b)
{
  return a->raw < b->raw || (a->raw == b->raw && a->rank > b->rank);
}

/* The initial colour (white1 / black1) when a TRF file does not state it
 * (no XXC or 152 line), inferred as bbpPairings does: in the first round
 * with a colour written, the colour of the highest player (by pairing
 * number) that took part in a pairing up to then, reversed when an odd
 * number of such players above him had no colour in that round. Returns
 * XQ_TC_RED or XQ_TC_BLACK. */
static int initial_colour(const xq_tournament *ev, int pr)
{
  int stated = ev->initial_black ? XQ_TC_BLACK : XQ_TC_RED;
  if (!ev->extra) return stated; /* not read from a TRF file */
  for (size_t i = 0; i < ev->extra_len;) {
    if (i + 3 <= ev->extra_len && (!memcmp(ev->extra + i, "XXC", 3) || !memcmp(ev->extra + i, "152", 3)))
      return stated;
    while (i < ev->extra_len && ev->extra[i] != '\n') i++;
    i++;
  }
  int first = 0;
  for (int r = 1; r <= pr && !first; r++)
    for (int id = 1; id <= ev->n && !first; id++)
      if (xq_tournament_slot(ev, id, r)->colour != XQ_TC_NONE) first = r;
  if (!first) return stated;
  for (int id = 1, k = 0; id <= ev->n; id++) {
    int took_part = 0;
    for (int r = 1; r <= first && !took_part; r++) {
      const xq_tslot *t = xq_tournament_slot(ev, id, r);
      took_part = t->opp || t->res == XQ_TR_PAB || t->res == XQ_TR_FWIN;
    }
    if (!took_part) continue;
    int c = xq_tournament_slot(ev, id, first)->colour;
    if (c != XQ_TC_NONE) return (k & 1) ? invert(c) : c;
    k++;
  }
  return stated;
}

static int colour_of(const xq_tournament *ev, int pr, int white, const dplayer *a, const dplayer *b)
{
  int c = neutral_colour(ev, pr, a, b);
  if (c != XQ_TC_NONE) return c;
  int lower = ranks_lower(a, b);
  if (a->pref == XQ_TC_NONE) {
    /* E.5: the higher-ranked player takes the initial colour when his
     * rank index is even (odd pairing number) */
    if (lower) return (b->rank & 1) ? white : invert(white);
    return (a->rank & 1) ? invert(white) : white;
  }
  /* E.4: the higher-ranked player's preference */
  return lower ? invert(b->pref) : a->pref;
}

static int cmp_sorted(const void *x, const void *y)
{
  const dplayer *a = x, *b = y;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  return (a->rank > b->rank) - (a->rank < b->rank);
}

typedef struct bkey { int bye, hs, ls, hr; xq_tboard b; } bkey;

static int cmp_board(const void *x, const void *y)
{
  const bkey *a = x, *b = y;
  if (a->bye != b->bye) return a->bye - b->bye;
  if (a->hs != b->hs) return a->hs > b->hs ? -1 : 1;
  if (a->ls != b->ls) return a->ls > b->ls ? -1 : 1;
  return (a->hr > b->hr) - (a->hr < b->hr);
}

/* Weights of the completion check (C.04.3 C.4 and the PAB, C.2/C.9):
 * with an odd count, prefer pairing the PAB-ineligible and the high
 * scorers, so that the one left over is the lowest eligible player. */
static void completion_weights(dctx *c, uint64_t *w)
{
  int L = c->L;
  for (int pi = 0; pi < c->n; pi++)
    for (int oi = 0; oi < pi; oi++) {
      if (c->n & 1) {
        memset(w, 0, (size_t)L * sizeof *w);
        if (compatible(c, oi, pi)) {
          wadd_small(w, L, 1u + !c->p[pi].bye_ok + !c->p[oi].bye_ok);
          wshl(w, L, c->sgs);
          wadd_small(w, L, (uint64_t)c->gshift[pi] + (uint64_t)c->gshift[oi]);
          wshl(w, L, c->sgb);
          wadd_small(w, L, c->p[pi].score >= c->p[0].score);
        }
      } else
        edge_weight(c, oi, pi, 0, 0, w);
      xq__wmatch_set(c->wm, pi, oi, w);
    }
}

/* Pairing number order (xq_tplayer_no: the 序号, or the id of a player
 * without one), then id, for qsort_r over player ids. */
static int cmp_pno(const void *x, const void *y, void *arg)
{
  const xq_tournament *ev = arg;
  int a = *(const int *)x, b = *(const int *)y;
  int na = xq_tplayer_no(ev, a), nb = xq_tplayer_no(ev, b);
  if (na != nb) return na - nb;
  return a - b;
}

/* The players of `round` into C->p, sorted by score and rank, with
 * idx[id] their sorted index (-1 when not paired); acc[0..2] get the
 * accelerations of this round and the two before it (TRF XXA / 250:
 * extra points for the pairing only, in the round paired -- score
 * groups, C.04.3 A.2 -- and in the two before it -- their floats, A.4).
 * Returns 1 when some player is accelerated in this round, else 0. */
static int dutch_players(dctx *C, int round, int *idx, int *accbuf, int *acc[3])
{
  const xq_tournament *ev = C->ev;
  int accel = 0, n = 0;
  for (int k = 0; k < 3; k++) {
    acc[k] = accbuf + (size_t)k * ((size_t)ev->n + 1);
    int r = round - k;
    if (r >= 1) accel |= xq__trf_accel(ev, r, acc[k]) && k == 0;
    else memset(acc[k], 0, ((size_t)ev->n + 1) * sizeof *acc[k]);
  }
  /* the rank order is the pairing numbers' (序号, C.04.2 A.2: the
   * initial ranking), not the order of registration; idx[] holds the
   * players in that order until it is filled below */
  for (int k = 0; k < ev->n; k++) idx[k] = k + 1;
  qsort_r(idx, (size_t)ev->n, sizeof *idx, cmp_pno, (void *)ev);
  /* who is paired: every player without a block in this round (a block
   * written for it marks an absence, docs/tourney.md, "TRF") */
  int rank = 0;
  for (int k = 0; k < ev->n; k++) {
    int id = idx[k];
    const xq_tslot *s = xq_tournament_slot(ev, id, round);
    int absent = s->opp || s->res != XQ_TR_NONE || s->absent, seen = 0;
    /* rank indices count the players in the event: those paired now, and
     * those that took part in an earlier pairing (a game, a forfeit, a
     * PAB); players only ever absent are skipped, so the colour rule of
     * E.5 alternates over the others */
    for (int r = 1; r <= round && absent && !seen; r++) {
      const xq_tslot *t = xq_tournament_slot(ev, id, r);
      seen = t->opp || t->res == XQ_TR_PAB || t->res == XQ_TR_FWIN;
    }
    if (absent) { rank += seen; continue; }
    fill_player(ev, id, rank++, C->played_rounds, acc, &C->p[n++]);
  }
  C->n = n;
  qsort(C->p, (size_t)n, sizeof *C->p, cmp_sorted);
  for (int id = 0; id <= ev->n; id++) idx[id] = -1;
  for (int k = 0; k < n; k++) idx[C->p[k].id] = k;
  return accel;
}

/* Who may not meet: the games played (C.04.1.b: forfeited games are not
 * games played) and the forbidden pairs (TRF XXP / 260), which count as
 * games played, as in bbpPairings. */
static void dutch_met(dctx *C, int round, const int *idx)
{
  const xq_tournament *ev = C->ev;
  size_t n = (size_t)C->n;
  for (size_t k = 0; k < n; k++)
    for (int r = 1; r <= C->played_rounds; r++) {
      const xq_tslot *s = xq_tournament_slot(ev, C->p[k].id, r);
      if (!xq__event_played(s) || s->opp < 1 || s->opp > ev->n || idx[s->opp] < 0) continue;
      C->met[k * n + (size_t)idx[s->opp]] = 1;
      C->met[(size_t)idx[s->opp] * n + k] = 1;
    }
  for (int k = 0; k < ev->nforbid; k++) {
    const xq_tforbid *f = &ev->forbid[k];
    int a = f->a <= ev->n ? idx[f->a] : -1, b = f->b <= ev->n ? idx[f->b] : -1;
    if (a < 0 || b < 0 || round < f->from || round > f->to) continue;
    C->met[(size_t)a * n + (size_t)b] = C->met[(size_t)b * n + (size_t)a] = 1;
  }
}

/* The top-scorer threshold, the last round, and the score-group bit
 * fields of the weights, from the lowest group up. */
static void score_groups(dctx *C)
{
  const xq_tournament *ev = C->ev;
  int hi = ev->cfg.win > ev->cfg.draw ? ev->cfg.win : ev->cfg.draw;
  C->thr = (C->played_rounds * hi) >> 1;
  C->last_round = ev->cfg.rounds > 0 && C->played_rounds >= ev->cfg.rounds - 1;
  int maxg = 0;
  for (int k = C->n - 1; k >= 0;) {
    int j = k;
    while (j >= 0 && C->p[j].score == C->p[k].score) j--;
    int size = k - j;
    for (int t = j + 1; t <= k; t++) C->gshift[t] = C->sgs;
    C->sgs += bits_for(size);
    if (size > maxg) maxg = size;
    k = j;
  }
  C->sgb = bits_for(maxg);
}

/* Can the round be paired at all, and who would get the PAB? With an
 * odd count, the PAB's score group and (C9, 2025) the rank of its
 * played-games counts, most games first, then the weights for them.
 * Returns XQ_OK or XQ_ENOPAIRING. */
static int completion(dctx *C, run *R)
{
  int n = C->n, unmatched = 0, bye = -1;
  completion_weights(C, R->w);
  solve(R);
  for (int k = 0; k < n; k++)
    if (R->sm[k] == k) {
      if (unmatched++ || !C->p[k].bye_ok) return XQ_ENOPAIRING;
      bye = k;
    }
  if (!(n & 1)) return XQ_OK;
  C->bye_score = C->p[bye].score;
  int top = C->p[0].score;
  C->single_df_bye = C->bye_score >= top;
  for (int k = 0; k < n && C->single_df_bye && C->p[k].score >= top; k++)
    if (C->p[R->sm[k]].score < top) C->single_df_bye = 0;
  int cnt[XQ_TOURNEY_ROUNDS_MAX + 2] = {0}, r = 0;
  for (int k = 0; k < n; k++)
    if (C->p[k].score == C->bye_score) cnt[C->p[k].played]++;
  for (int g = XQ_TOURNEY_ROUNDS_MAX + 1; g >= 0; g--)
    if (cnt[g]) { r += cnt[g]; C->urank[g] = r - 1; }
  for (int pi = 0; pi < n; pi++)
    for (int oi = 0; oi < pi; oi++) {
      edge_weight(C, oi, pi, 0, 0, R->w);
      xq__wmatch_set(C->wm, pi, oi, R->w);
    }
  return XQ_OK;
}

/* The boards of partner[] with their colours (C.04.3 E), in the order
 * bbpPairings lists them: higher score of the pair, lower score, rank of
 * the higher player; the bye last. Returns XQ_OK or XQ_ENOMEM. */
static int dutch_boards(const dctx *C, const int *partner, xq_tpairing *out)
{
  const xq_tournament *ev = C->ev;
  int n = C->n, nb = (n + 1) / 2;
  bkey *keys = calloc((size_t)nb + 1, sizeof *keys);
  out->boards = calloc((size_t)nb + 1, sizeof *out->boards);
  if (!keys || !out->boards) { free(keys); free(out->boards); out->boards = NULL; return XQ_ENOMEM; }
  int m = 0, white = initial_colour(ev, C->played_rounds);
  for (int k = 0; k < n; k++) {
    int q = partner[k];
    if (q < 0) {
      keys[m].bye = 1;
      keys[m].hs = keys[m].ls = C->p[k].raw;
      keys[m].hr = C->p[k].rank;
      keys[m].b.red = C->p[k].id;
      keys[m++].b.black = 0;
      continue;
    }
    if (C->p[k].id > C->p[q].id) continue;
    const dplayer *a = &C->p[k], *b = &C->p[q];
    int ca = colour_of(ev, C->played_rounds, white, a, b);
    const dplayer *h = ranks_lower_raw(a, b) ? b : a, *l = h == a ? b : a;
    keys[m].hs = h->raw;
    keys[m].ls = l->raw;
    keys[m].hr = h->rank;
    keys[m].b.red = ca == XQ_TC_RED ? a->id : b->id;
    keys[m++].b.black = ca == XQ_TC_RED ? b->id : a->id;
  }
  qsort(keys, (size_t)m, sizeof *keys, cmp_board);
  for (int i = 0; i < m; i++) out->boards[i] = keys[i].b;
  out->nboards = m;
  free(keys);
  return XQ_OK;
}

/* Allocate the solver and the run of `C` (weights of C->L limbs, every
 * weight below 2^bits). Returns XQ_OK or XQ_ENOMEM. */
static int run_new(dctx *C, run *R, int bits)
{
  int n = C->n;
  /* one bit of margin over the widest weight: the bonuses of the
   * decisions are added on top of it */
  C->wm = xq__wmatch_new(n, C->L, bits + 1);
  R->c = C;
  R->vi = malloc((size_t)n * sizeof *R->vi);
  R->sm = malloc((size_t)n * sizeof *R->sm);
  R->matched = calloc((size_t)n, 1);
  R->maxw = calloc((size_t)C->L * 2, sizeof *R->maxw);
  if (!C->wm || !R->vi || !R->sm || !R->matched || !R->maxw) return XQ_ENOMEM;
  R->w = R->maxw + C->L;
  for (int b = 0; b < bits; b++) R->maxw[b / 64] |= 1ull << (b % 64);
  return XQ_OK;
}

int xq_pair_dutch(const xq_tournament *ev, int round, xq_tpairing *out)
{
  if (!ev || !out || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  dctx C;
  run R;
  memset(&C, 0, sizeof C);
  memset(&R, 0, sizeof R);
  C.ev = ev;
  C.played_rounds = round - 1;
  int rc = XQ_ENOMEM, *partner = NULL;
  int *idx = malloc(((size_t)ev->n + 1) * sizeof *idx);
  int *accbuf = malloc(3 * ((size_t)ev->n + 1) * sizeof *accbuf), *acc[3];
  C.p = malloc(((size_t)ev->n + 1) * sizeof *C.p);
  C.urank = calloc(XQ_TOURNEY_ROUNDS_MAX + 2, sizeof *C.urank);
  if (!idx || !accbuf || !C.p || !C.urank) goto out;
  int accel = dutch_players(&C, round, idx, accbuf, acc), n = C.n;
  memset(out, 0, sizeof *out);
  out->round = round;
  if (n == 0) { rc = XQ_OK; goto out; }
  C.met = calloc((size_t)n * (size_t)n, 1);
  C.gshift = calloc((size_t)n, sizeof *C.gshift);
  if (!C.met || !C.gshift) goto out;
  dutch_met(&C, round, idx);
  score_groups(&C);
  int bits = weight_bits(&C);
  C.L = (bits + 4) / 64 + 1;
  if (C.L > XQ_WMATCH_LIMBS_MAX) { rc = XQ_ELIMIT; goto out; }
  partner = malloc((size_t)n * sizeof *partner);
  if (run_new(&C, &R, bits) || !partner) goto out;
  if ((rc = completion(&C, &R))) goto out;
  for (int k = 0; k < n; k++) partner[k] = -1;
  if (C.played_rounds == 0 && !accel) {
    /* round 1 (without acceleration): one homogeneous bracket with
     * every pair allowed and no colour preferences, so the matching ends in S1 = the top half
     * against S2 = the bottom half in order (C.04.3 B.2, B.5), and the
     * lowest player left for the PAB -- the same result, without the
     * n/2 matchings */
    for (int k = 0; k < n / 2; k++) {
      partner[k] = k + n / 2;
      partner[k + n / 2] = k;
    }
  } else if ((rc = pair_brackets(&R, partner))) {
    goto out;
  }
  rc = dutch_boards(&C, partner, out);
out:
  free(partner);
  xq__wmatch_free(C.wm);
  free(R.vi); free(R.sm); free(R.matched); free(R.maxw); free(R.base);
  free(C.met); free(C.gshift); free(C.p); free(C.urank); free(idx); free(accbuf);
  return rc;
}
