/*
 * standings.c -- primary score and tie-breaks (docs/tourney.md, "Standings and tie-breaks"): values per
 * code, direct encounter among a tied group, round-by-round
 * comparison, lots, and the ranking with no shared places.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "tourney_internal.h"

static int final_pts(const xq_tournament *ev, int id, int upto)
{
  return xq_tournament_points(ev, id, upto);
}

uint64_t xq__lot_draw(const xq_tournament *ev, int id)
{
  return xq__event_mix64(ev->cfg.lot_seed ^ xq__event_mix64((uint64_t)ev->players[id - 1].pno + 1));
}
/* The lowest final score in the event (docs/tourney.md, "Standings and tie-breaks" lowest_final_score). */
static int lowest_final(const xq_tournament *ev, int upto)
{
  int lo = 0;
  for (int id = 1; id <= ev->n; id++) {
    int p = final_pts(ev, id, upto);
    if (id == 1 || p < lo) lo = p;
  }
  return lo;
}

/* Whether slot s counts in a tie-break: anything but a game paired and
 * not over yet (standings during a round count finished games only). */
static int counts(const xq_tslot *s)
{
  return !(s->opp && s->res == XQ_TR_NONE);
}

/* Contribution of round r to 对手分: the (scheduled) opponent's final
 * score, the bye's value, or 0 for a round without a game or a game not
 * over yet. */
static int os_part(const xq_tournament *ev, int id, int r, int upto, int bye_value)
{
  const xq_tslot *s = xq_tournament_slot(ev, id, r);
  if (!counts(s)) return 0;
  if (s->opp) return final_pts(ev, s->opp, upto); /* forfeits: scheduled opponent */
  if (s->res == XQ_TR_PAB) return bye_value;
  return 0;
}

/* 场分 (CXA 2011 14.2): for each opponent met, 2 when the games between
 * them gave `id` more points than the opponent, 1 as many, 0 fewer. */
static int64_t match_points(const xq_tournament *ev, int id, int upto)
{
  int opp[XQ_TOURNEY_ROUNDS_MAX], diff[XQ_TOURNEY_ROUNDS_MAX], n = 0;
  for (int r = 1; r <= upto && r <= XQ_TOURNEY_ROUNDS_MAX; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    if (!s->opp || !counts(s)) continue;
    int k = 0;
    while (k < n && opp[k] != s->opp) k++;
    if (k == n) { opp[n] = s->opp; diff[n++] = 0; }
    diff[k] += xq_tslot_points(ev, s) - xq_tslot_points(ev, xq_tournament_slot(ev, s->opp, r));
  }
  int64_t v = 0;
  for (int k = 0; k < n; k++) v += diff[k] > 0 ? 2 : diff[k] == 0;
  return v;
}

static int64_t value(const xq_tournament *ev, int tb, int id, int upto, int bye_value, const int *lot)
{
  int64_t v = 0;
  switch (tb) {
  case XQ_TB_PTS:
    return final_pts(ev, id, upto);
  case XQ_TB_OS:
  case XQ_TB_OS_C1: {
    int lo = 0, parts = 0;
    for (int r = 1; r <= upto; r++) {
      if (!counts(xq_tournament_slot(ev, id, r))) continue; /* a game not over: no part */
      int part = os_part(ev, id, r, upto, bye_value);
      v += part;
      if (!parts++ || part < lo) lo = part;
    }
    /* OS_C1 (对手分去一): minus the lowest single contribution */
    return tb == XQ_TB_OS_C1 ? v - lo : v;
  }
  case XQ_TB_PS: /* 累进分: Σ S_r = Σ pts_r·(n − r + 1) */
    for (int r = 1; r <= upto; r++)
      v += (int64_t)xq_tslot_points(ev, xq_tournament_slot(ev, id, r)) * (upto - r + 1);
    return v;
  case XQ_TB_SB: /* Σ S_o over wins + ½ Σ S_o over draws, in quarter-points */
    for (int r = 1; r <= upto; r++) {
      const xq_tslot *s = xq_tournament_slot(ev, id, r);
      if (xq__event_played(s))
        v += (int64_t)xq_tslot_points(ev, s) * final_pts(ev, s->opp, upto);
    }
    /* a win's share of S_o is whole whatever a win scores: 2/1/0 and
     * 1/½/0 give the same 小分 (the game's points over a win's) */
    return ev->cfg.win > 0 ? v * 2 / ev->cfg.win : v;
  case XQ_TB_FOULS:
    for (int r = 1; r <= upto; r++) {
      const xq_tslot *s = xq_tournament_slot(ev, id, r);
      if (counts(s)) v += s->fouls;
    }
    return v;
  case XQ_TB_LOT:
    return lot ? lot[id] : 0;
  case XQ_TB_MATCHPTS:
    return match_points(ev, id, upto);
  default:
    break;
  }
  for (int r = 1; r <= upto; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    int win = s->res == XQ_TR_WIN, played = xq__event_played(s);
    switch (tb) {
    case XQ_TB_WINS:
      v += win || (s->res == XQ_TR_FWIN && ev->cfg.wins_count_forfeits);
      break;
    case XQ_TB_BWINS: v += win && s->colour == XQ_TC_BLACK; break;
    case XQ_TB_RWINS: v += win && s->colour == XQ_TC_RED; break;
    case XQ_TB_BLACK: v += played && s->colour == XQ_TC_BLACK; break;
    default: break;
    }
  }
  return v;
}

static int bye_value_of(const xq_tournament *ev, int upto)
{
  return ev->cfg.bye_os == XQ_BYE_OS_LOWEST ? lowest_final(ev, upto) : 0;
}

int64_t xq_tb_value(const xq_tournament *ev, int tb, int id, int upto)
{
  if (!ev || id < 1 || id > ev->n) return 0;
  return value(ev, tb, id, upto, bye_value_of(ev, upto), NULL);
}

/* ------------------------------------------------------------------ */
/* Ranking                                                             */
/* ------------------------------------------------------------------ */

typedef struct rk {
  const xq_tournament *ev;
  int upto, bye_value;
  int ntb, tb[XQ_TOURNEY_TB_MAX + 1];
  int *lot;         /* [n + 1] lot position, higher first */
  int64_t *key;     /* [n + 1] scratch key of the current level */
  int rb_first;     /* the ROUNDBACK level being sorted is from_first */
  uint8_t *by_lot;  /* [n + 1] 1: the player's tie reached LOT */
} rk;

static int cmp_key(const void *x, const void *y, void *arg)
{
  const rk *k = arg;
  int a = *(const int *)x, b = *(const int *)y;
  if (k->key[a] != k->key[b]) return k->key[a] > k->key[b] ? -1 : 1;
  return k->ev->players[a - 1].pno - k->ev->players[b - 1].pno;
}

/* Points a scored in played games against members of set[0..m-1]. */
static int mutual(const rk *k, int a, const int *set, int m, int *unmet)
{
  int s = 0, met = 0;
  for (int r = 1; r <= k->upto; r++) {
    const xq_tslot *t = xq_tournament_slot(k->ev, a, r);
    if (!xq__event_played(t)) continue;
    for (int i = 0; i < m; i++)
      if (set[i] == t->opp) { s += xq_tslot_points(k->ev, t); met++; }
  }
  *unmet = m - 1 - met;
  return s;
}

/* Direct encounter levels (0 best) of the tied set, from `base`
 * (docs/tourney.md, "Standings and tie-breaks"). set[] is reordered. */
static void de_levels(rk *k, int *set, int m, int base, int *level)
{
  if (m <= 0) return;
  if (m == 1) { level[set[0]] = base; return; }
  int s[m], unmet[m], all = 1;
  for (int i = 0; i < m; i++) {
    s[i] = mutual(k, set[i], set, m, &unmet[i]);
    if (unmet[i]) all = 0;
  }
  if (k->ev->cfg.de_mode == XQ_DE_TWO_ONLY && m > 2) {
    for (int i = 0; i < m; i++) level[set[i]] = base;
    return;
  }
  if (all) {
    /* everyone met: rank by the mutual score, then again inside each
     * sub-group that stays tied (FIDE Art. 6) */
    for (int i = 0; i < m; i++) k->key[set[i]] = s[i];
    qsort_r(set, (size_t)m, sizeof *set, cmp_key, k);
    for (int i = 0; i < m;) {
      int j = i;
      while (j < m && k->key[set[j]] == k->key[set[i]]) j++;
      if (j - i == m) {
        for (int t = i; t < j; t++) level[set[t]] = base;
      } else {
        int sub[j - i];
        memcpy(sub, set + i, sizeof sub);
        de_levels(k, sub, j - i, base + i, level);
      }
      i = j;
    }
    return;
  }
  /* not all met: a player is separated only when his score beats what
   * every other could still reach, unplayed mutual games counted as wins */
  for (int i = 0; i < m; i++) {
    int top = 1;
    for (int j = 0; j < m && top; j++)
      if (j != i && s[i] <= s[j] + unmet[j] * k->ev->cfg.win) top = 0;
    if (top) {
      level[set[i]] = base;
      int rest[m - 1], nr = 0;
      for (int j = 0; j < m; j++)
        if (j != i) rest[nr++] = set[j];
      de_levels(k, rest, nr, base + 1, level);
      return;
    }
  }
  for (int i = 0; i < m; i++) level[set[i]] = base;
}

/* ROUNDBACK key vector comparison (docs/tourney.md, "Standings and tie-breaks"), higher first. */
static int cmp_roundback(const void *x, const void *y, void *arg)
{
  const rk *k = arg;
  int a = *(const int *)x, b = *(const int *)y;
  int from_first = k->rb_first;
  int sa = 0, sb = 0;
  if (from_first) {
    /* (PTS − pts_1, PTS − pts_1 − pts_2, ...) */
    int ta = xq_tournament_points(k->ev, a, k->upto), tb = xq_tournament_points(k->ev, b, k->upto);
    for (int r = 1; r < k->upto; r++) {
      sa += xq_tslot_points(k->ev, xq_tournament_slot(k->ev, a, r));
      sb += xq_tslot_points(k->ev, xq_tournament_slot(k->ev, b, r));
      if (ta - sa != tb - sb) return ta - sa > tb - sb ? -1 : 1;
    }
  } else {
    /* (S_{n−1}, S_{n−2}, ..., S_1) */
    for (int r = k->upto - 1; r >= 1; r--) {
      sa = xq_tournament_points(k->ev, a, r);
      sb = xq_tournament_points(k->ev, b, r);
      if (sa != sb) return sa > sb ? -1 : 1;
    }
  }
  return 0;
}

static void rank_rec(rk *k, int *ids, int m, int level)
{
  if (m <= 1) return;
  if (level == k->ntb) {
    /* nothing left but the pairing number (after LOT this is unreachable
     * unless two lots collide) */
    for (int i = 0; i < m; i++) k->key[ids[i]] = 0;
    qsort_r(ids, (size_t)m, sizeof *ids, cmp_key, k);
    return;
  }
  int code = k->tb[level];
  if (code == XQ_TB_LOT)
    for (int i = 0; i < m; i++) k->by_lot[ids[i]] = 1;
  if (code == XQ_TB_ROUNDBACK_LAST || code == XQ_TB_ROUNDBACK_FIRST) {
    k->rb_first = code == XQ_TB_ROUNDBACK_FIRST;
    qsort_r(ids, (size_t)m, sizeof *ids, cmp_roundback, k);
    int run = 0;
    int64_t *tmp = malloc(sizeof *tmp * (size_t)m);
    if (!tmp) return;
    for (int i = 0; i < m; i++) {
      if (i && cmp_roundback(&ids[i - 1], &ids[i], k)) run++;
      tmp[i] = -run;
    }
    for (int i = 0; i < m; i++) k->key[ids[i]] = tmp[i];
    free(tmp);
  } else if (code == XQ_TB_DE) {
    int *set = malloc(sizeof *set * (size_t)m), *lev = calloc((size_t)k->ev->n + 1, sizeof *lev);
    if (!set || !lev) { free(set); free(lev); return; }
    memcpy(set, ids, sizeof *set * (size_t)m);
    de_levels(k, set, m, 0, lev);
    for (int i = 0; i < m; i++) k->key[ids[i]] = -lev[ids[i]];
    free(set);
    free(lev);
  } else {
    for (int i = 0; i < m; i++) {
      int64_t v = value(k->ev, code, ids[i], k->upto, k->bye_value, k->lot);
      k->key[ids[i]] = code == XQ_TB_FOULS ? -v : v; /* fewer fouls first */
    }
  }
  qsort_r(ids, (size_t)m, sizeof *ids, cmp_key, k);
  int64_t *keys = malloc(sizeof *keys * (size_t)m);
  if (!keys) return;
  for (int i = 0; i < m; i++) keys[i] = k->key[ids[i]];
  for (int i = 0; i < m;) {
    int j = i;
    while (j < m && keys[j] == keys[i]) j++;
    rank_rec(k, ids + i, j - i, level + 1);
    i = j;
  }
  free(keys);
}

typedef struct lotkey { uint64_t h; int id; } lotkey;

static int cmp_lot(const void *x, const void *y)
{
  const lotkey *a = x, *b = y;
  if (a->h != b->h) return a->h < b->h ? -1 : 1;
  return a->id - b->id;
}

/* Whether any game of rounds 1..upto has a result (byes and announced
 * absences are not games). */
static int any_game_result(const xq_tournament *ev, int upto)
{
  for (int id = 1; id <= ev->n; id++)
    for (int r = 1; r <= upto; r++) {
      int res = xq_tournament_slot(ev, id, r)->res;
      if (res >= XQ_TR_WIN && res <= XQ_TR_FLOSS) return 1;
    }
  return 0;
}

/* Before any game has a result: points (a bye's), then the starting order
 * -- pairing number, else registration. */
static int cmp_start(const void *x, const void *y, void *ctx)
{
  const rk *k = ctx;
  int a = *(const int *)x, b = *(const int *)y;
  int pa = xq_tournament_points(k->ev, a, k->upto), pb = xq_tournament_points(k->ev, b, k->upto);
  if (pa != pb) return pb - pa;
  int na = xq_tplayer_no(k->ev, a), nb = xq_tplayer_no(k->ev, b);
  return na != nb ? na - nb : a - b;
}

/* The displayed DE of each run of players tied on the codes before it
 * (column t): the level inside the run, or -1 where it separates nobody
 * (a run of one, or every level equal -- before any result, say). */
static int de_display(rk *k, xq_tstanding *out, int n, int t)
{
  for (int i = 0; i < n;) {
    int j = i + 1;
    while (j < n && !memcmp(out[j].val, out[i].val, sizeof(int64_t) * (size_t)t)) j++;
    int set[j - i], *lev = calloc((size_t)n + 1, sizeof *lev), sep = 0;
    if (!lev) return XQ_ENOMEM;
    for (int q = i; q < j; q++) set[q - i] = out[q].id;
    de_levels(k, set, j - i, 0, lev);
    for (int q = i; q < j; q++) sep |= lev[out[q].id] != 0;
    for (int q = i; q < j; q++) out[q].val[t] = sep ? lev[out[q].id] : -1;
    free(lev);
    i = j;
  }
  return XQ_OK;
}

int xq_tournament_standings_round(const xq_tournament *ev)
{
  if (!ev) return 0;
  int done = xq_tournament_rounds_complete(ev);
  return done ? done : ev->nrounds > 0;
}

static int rank_all(const xq_tournament *ev, int upto, xq_tstanding *out)
{
  if (upto <= 0 || upto > ev->nrounds) upto = ev->nrounds;
  int n = ev->n, rc = XQ_ENOMEM;
  rk k = {.ev = ev, .upto = upto, .bye_value = bye_value_of(ev, upto)};
  int has_lot = 0;
  for (int i = 0; i < ev->cfg.ntb && i < XQ_TOURNEY_TB_MAX; i++) {
    k.tb[k.ntb++] = ev->cfg.tb[i];
    has_lot |= ev->cfg.tb[i] == XQ_TB_LOT;
  }
  if (!has_lot) k.tb[k.ntb++] = XQ_TB_LOT; /* lots end every tie */
  int *ids = malloc(sizeof *ids * (size_t)(n + 1));
  lotkey *lk = malloc(sizeof *lk * (size_t)(n + 1));
  k.lot = malloc(sizeof *k.lot * (size_t)(n + 1));
  k.key = malloc(sizeof *k.key * (size_t)(n + 1));
  k.by_lot = calloc((size_t)n + 1, 1);
  if (!ids || !lk || !k.lot || !k.key || !k.by_lot) goto done;
  /* the drawing of lots is a hash of the stored seed and the pairing
   * number, so it is the same every time the standings are computed */
  for (int i = 0; i < n; i++) {
    lk[i].h = xq__lot_draw(ev, i + 1);
    lk[i].id = i + 1;
  }
  qsort(lk, (size_t)n, sizeof *lk, cmp_lot);
  for (int i = 0; i < n; i++) k.lot[lk[i].id] = n - i; /* first drawn ranks first */
  for (int i = 0; i < n; i++) ids[i] = i + 1;
  if (any_game_result(ev, upto)) {
    rank_rec(&k, ids, n, 0);
  } else {
    qsort_r(ids, (size_t)n, sizeof *ids, cmp_start, &k);
  }
  for (int i = 0; i < n; i++) {
    xq_tstanding *s = &out[i];
    memset(s, 0, sizeof *s);
    s->id = ids[i];
    s->rank = i + 1;
    s->by_lot = k.by_lot[ids[i]];
    for (int t = 0; t < ev->cfg.ntb; t++) {
      int code = ev->cfg.tb[t];
      if (code == XQ_TB_DE || code == XQ_TB_ROUNDBACK_LAST || code == XQ_TB_ROUNDBACK_FIRST) continue;
      s->val[t] = value(ev, code, ids[i], upto, k.bye_value, k.lot);
    }
    for (int r = 1; r <= upto; r++) {
      const xq_tslot *sl = xq_tournament_slot(ev, ids[i], r);
      s->wins += sl->res == XQ_TR_WIN || sl->res == XQ_TR_FWIN;
      s->draws += sl->res == XQ_TR_DRAW;
      s->losses += sl->res == XQ_TR_LOSS || sl->res == XQ_TR_FLOSS;
    }
  }
  /* DE levels for display: recomputed within each run of equal values
   * of the codes before it */
  for (int t = 0; t < ev->cfg.ntb; t++)
    if (ev->cfg.tb[t] == XQ_TB_DE && de_display(&k, out, n, t)) goto done;
  rc = XQ_OK;
done:
  free(ids); free(lk); free(k.lot); free(k.key); free(k.by_lot);
  return rc;
}

/* A round robin with withdrawn players: ranked on a copy with the
 * withdrawal rule applied, the annulled players moved to the end. */
static int rank_rr(const xq_tournament *ev, int upto, xq_tstanding *out)
{
  xq_tournament *cp = xq_tournament_copy(ev);
  unsigned char *annulled = calloc((size_t)ev->n + 1, 1);
  xq_tstanding *tmp = malloc(sizeof *tmp * (size_t)ev->n);
  int rc = XQ_ENOMEM;
  if (cp && annulled && tmp) {
    xq_rr_withdrawals(cp, annulled);
    rc = rank_all(cp, upto, tmp);
  }
  for (int pass = 0, at = 0; !rc && pass < 2; pass++)
    for (int i = 0; i < ev->n; i++)
      if (annulled[tmp[i].id] == pass) {
        out[at] = tmp[i];
        out[at].annulled = pass;
        out[at].rank = at + 1;
        at++;
      }
  xq_tournament_free(cp);
  free(annulled);
  free(tmp);
  return rc;
}

int xq_standings(const xq_tournament *ev, int upto, xq_tstanding *out)
{
  if (!ev || (!out && ev->n)) return XQ_EINVAL;
  if (ev->cfg.format == XQ_FORMAT_RR)
    for (int id = 1; id <= ev->n; id++)
      if (ev->players[id - 1].withdrawn) return rank_rr(ev, upto, out);
  return rank_all(ev, upto, out);
}
