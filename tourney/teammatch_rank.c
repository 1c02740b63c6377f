/*
 * teammatch_rank.c -- team standings and board prizes of a team
 * competition (teammatch.h; docs/tourney.md "Team standings", "Board
 * prizes"): the totals of each team, its tie-breaks compared exactly
 * (fractions by cross-multiplication), the direct encounter of tied teams,
 * the round robin's withdrawal rule, and each board's players.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "teammatch.h"
#include "tourney_internal.h"

/* A tie-break value: a vector of fractions, compared lexicographically,
 * larger first. */
typedef struct tkey {
  int n;
  int64_t num[XQ_TM_BOARDS_MAX], den[XQ_TM_BOARDS_MAX];
} tkey;

typedef struct rk {
  const xq_tm_event *ev;
  int upto;
  xq_tm_row *row;        /* [nteams + 1] by team */
  unsigned char *out;    /* [nteams + 1] annulled */
  unsigned char *tied;   /* [nteams + 1] 1: equal to the team ranked just above */
  tkey *key;             /* [nteams + 1] of the level being sorted */
} rk;

/* Whether match m counts: played by round upto, no annulled team in it. */
static int counts(const rk *k, const xq_tm_match *x)
{
  return x->round <= k->upto && !k->out[x->first] && !(x->second && k->out[x->second]);
}

/* The round robin's withdrawal rule: a team out before it played half of
 * its scheduled matches is annulled. */
static void annulments(const xq_tm_event *ev, unsigned char *out)
{
  int scheduled = (ev->nteams - 1) * (ev->cfg.cycles == 2 ? 2 : 1);
  for (int t = 1; t <= ev->nteams; t++) {
    int w = ev->teams[t - 1].withdrawn, played = 0;
    if (ev->cfg.format != XQ_TM_RR || !w) continue;
    for (int m = 0; m < ev->nmatches; m++) {
      const xq_tm_match *x = &ev->matches[m];
      played += x->round < w && x->second && (x->first == t || x->second == t);
    }
    out[t] = played * 2 < scheduled;
  }
}

static void add_side(const xq_tm_event *ev, xq_tm_row *r, const xq_tm_score *sc, int s)
{
  r->mp += sc->mp[s];
  r->gp += sc->gp[s];
  if (sc->bye) return;
  r->played++;
  r->mw += sc->outcome[s] > 0, r->md += sc->outcome[s] == 0, r->ml += sc->outcome[s] < 0;
  r->wins += sc->wins[s], r->bwins += sc->bwins[s];
  for (int b = 0; b < ev->cfg.boards; b++) {
    int res = sc->board_res[s][b];
    if (res == XQ_TR_NONE) continue;
    r->board_gp[b] += sc->board_gp[s][b];
    r->board_games[b]++;
    r->board_wins[b] += res == XQ_TR_WIN || res == XQ_TR_FWIN;
  }
}

static void totals(rk *k)
{
  const xq_tm_event *ev = k->ev;
  for (int m = 0; m < ev->nmatches; m++) {
    const xq_tm_match *x = &ev->matches[m];
    if (!counts(k, x)) continue;
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    add_side(ev, &k->row[x->first], &sc, 0);
    if (x->second) add_side(ev, &k->row[x->second], &sc, 1);
  }
  for (int m = 0; m < ev->nmatches; m++) { /* the opponents' final scores */
    const xq_tm_match *x = &ev->matches[m];
    if (!counts(k, x) || !x->second) continue;
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    for (int s = 0; s < 2; s++) {
      xq_tm_row *me = &k->row[s ? x->second : x->first];
      const xq_tm_row *op = &k->row[s ? x->first : x->second];
      me->tbh += op->mp;
      me->emmsb += (int64_t)op->mp * sc.mp[s], me->emgsb += (int64_t)op->mp * sc.gp[s];
      me->egmsb += (int64_t)op->gp * sc.mp[s], me->eggsb += (int64_t)op->gp * sc.gp[s];
    }
  }
  for (int t = 1; t <= ev->nteams; t++)
    for (int b = 0; b < ev->cfg.boards; b++) k->row[t].bc += (int64_t)(b + 1) * k->row[t].board_gp[b];
}

int64_t xq_tm_row_value(const xq_tm_row *r, int code)
{
  switch (code) {
  case XQ_TTB_MP: return r->mp;
  case XQ_TTB_GP: return r->gp;
  case XQ_TTB_MW: return r->mw;
  case XQ_TTB_BC: return r->bc;
  case XQ_TTB_TBH: return r->tbh;
  case XQ_TTB_EMMSB: return r->emmsb;
  case XQ_TTB_EMGSB: return r->emgsb;
  case XQ_TTB_EGMSB: return r->egmsb;
  case XQ_TTB_EGGSB: return r->eggsb;
  case XQ_TTB_WINS: return r->wins;
  case XQ_TTB_BWINS: return r->bwins;
  default: return 0;
  }
}

/* ------------------------------------------------------------------ */
/* Direct encounter of tied teams                                      */
/* ------------------------------------------------------------------ */

static int in_set(const int *set, int m, int t)
{
  for (int i = 0; i < m; i++)
    if (set[i] == t) return 1;
  return 0;
}

/* What each member of set[0..m) scored against the others: MP (gp = 0)
 * or GP (gp = 1) into sc[], game wins into wins[] (may be NULL). Returns
 * 1 when every pair of the set has met (a forfeit counts as met). */
static int mutual(const rk *k, const int *set, int m, int gp, int64_t *sc, int64_t *wins)
{
  int met[m][m];
  memset(met, 0, sizeof met);
  for (int i = 0; i < m; i++) {
    sc[i] = 0;
    if (wins) wins[i] = 0;
  }
  for (int x = 0; x < k->ev->nmatches; x++) {
    const xq_tm_match *mt = &k->ev->matches[x];
    if (!counts(k, mt) || !mt->second || !in_set(set, m, mt->first) || !in_set(set, m, mt->second)) continue;
    xq_tm_score s;
    xq_tm_match_score(k->ev, x, &s);
    int i0 = 0, i1 = 0;
    for (int i = 0; i < m; i++) {
      if (set[i] == mt->first) i0 = i;
      if (set[i] == mt->second) i1 = i;
    }
    met[i0][i1] = met[i1][i0] = 1;
    sc[i0] += gp ? s.gp[0] : s.mp[0], sc[i1] += gp ? s.gp[1] : s.mp[1];
    if (wins) wins[i0] += s.wins[0], wins[i1] += s.wins[1];
  }
  for (int i = 0; i < m; i++)
    for (int j = i + 1; j < m; j++)
      if (!met[i][j]) return 0;
  return 1;
}

static int cmp_level(const void *x, const void *y, void *arg)
{
  const int64_t *v = arg;
  int a = *(const int *)x, b = *(const int *)y;
  return v[a] != v[b] ? (v[a] > v[b] ? -1 : 1) : a - b;
}

/* TDE levels (0 best) of the tied set from `base`: mutual MP, else GP
 * (from score type `type` on); each sub-group still tied again with the
 * type that split its parent (FIDE EDE). Only when all of the set met. */
static void tde_levels(const rk *k, int *set, int m, int base, int type, int *level)
{
  if (m == 1) { level[set[0]] = base; return; }
  int64_t sc[m], v[k->ev->nteams + 1];
  for (; type < 2; type++) {
    if (!mutual(k, set, m, type, sc, NULL)) break;
    int split = 0;
    for (int i = 1; i < m; i++) split |= sc[i] != sc[0];
    if (!split) continue;
    for (int i = 0; i < m; i++) v[set[i]] = sc[i];
    qsort_r(set, (size_t)m, sizeof *set, cmp_level, v);
    for (int i = 0; i < m;) {
      int j = i;
      while (j < m && v[set[j]] == v[set[i]]) j++;
      tde_levels(k, set + i, j - i, base + i, type, level);
      i = j;
    }
    return;
  }
  for (int i = 0; i < m; i++) level[set[i]] = base;
}

/* ------------------------------------------------------------------ */
/* Ranking                                                             */
/* ------------------------------------------------------------------ */

static void set_key(tkey *key, int n, const int64_t *num, const int64_t *den)
{
  key->n = n;
  for (int i = 0; i < n; i++) key->num[i] = num[i], key->den[i] = den ? den[i] : 1;
}

/* The key of team t for `code` (group codes are filled by the caller). */
static void row_key(const rk *k, int code, int t, tkey *key)
{
  const xq_tm_row *r = &k->row[t];
  int B = k->ev->cfg.boards;
  int64_t num[XQ_TM_BOARDS_MAX], den[XQ_TM_BOARDS_MAX];
  if (code == XQ_TTB_TBR || code == XQ_TTB_TBRW) {
    for (int b = 0; b < B; b++) {
      num[b] = code == XQ_TTB_TBR ? r->board_gp[b] : r->board_wins[b];
      den[b] = code == XQ_TTB_TBR || !r->board_games[b] ? 1 : r->board_games[b];
    }
    set_key(key, B, num, den);
  } else if (code == XQ_TTB_BBE) {
    for (int cut = 1; cut < B; cut++) {
      num[cut - 1] = 0;
      for (int b = 0; b < B - cut; b++) num[cut - 1] += r->board_gp[b];
    }
    set_key(key, B - 1, num, NULL);
  } else if (code == XQ_TTB_LOT) {
    num[0] = (int64_t)(xq__event_mix64(k->ev->cfg.lot_seed ^ xq__event_mix64((uint64_t)k->ev->teams[t - 1].pno + 1)) >> 1);
    set_key(key, 1, num, NULL);
  } else {
    int64_t v = xq_tm_row_value(r, code);
    num[0] = code == XQ_TTB_BC ? -v : v; /* board count: lower first */
    set_key(key, 1, num, NULL);
  }
}

static int key_cmp(const tkey *a, const tkey *b)
{
  for (int i = 0; i < a->n && i < b->n; i++) {
    __int128 l = (__int128)a->num[i] * b->den[i], r = (__int128)b->num[i] * a->den[i];
    if (l != r) return l > r ? -1 : 1;
  }
  return 0;
}

static int cmp_team(const void *x, const void *y, void *arg)
{
  const rk *k = arg;
  int a = *(const int *)x, b = *(const int *)y;
  int c = key_cmp(&k->key[a], &k->key[b]);
  return c ? c : k->ev->teams[a - 1].pno - k->ev->teams[b - 1].pno;
}

/* The keys of the tied set[0..m) for a group code (TDE, TDE2W). */
static void group_keys(rk *k, int code, int *set, int m)
{
  int64_t zero = 0;
  for (int i = 0; i < m; i++) set_key(&k->key[set[i]], 1, &zero, NULL);
  if (code == XQ_TTB_TDE) {
    int level[k->ev->nteams + 1], copy[m];
    memcpy(copy, set, sizeof copy);
    tde_levels(k, copy, m, 0, 0, level);
    for (int i = 0; i < m; i++) k->key[set[i]].num[0] = -level[set[i]];
  } else if (m == 2) { /* TDE2W: two teams only */
    int64_t sc[2], wins[2];
    if (mutual(k, set, 2, 0, sc, wins))
      for (int i = 0; i < 2; i++) k->key[set[i]].num[0] = wins[i];
  }
}

static void rank_rec(rk *k, int *ids, int m, int level)
{
  if (m <= 1) return;
  if (level == k->ev->cfg.ntb) {
    for (int i = 1; i < m; i++) k->tied[ids[i]] = 1;
    return;
  }
  int code = k->ev->cfg.tb[level];
  if (code == XQ_TTB_TDE || code == XQ_TTB_TDE2W) group_keys(k, code, ids, m);
  else
    for (int i = 0; i < m; i++) row_key(k, code, ids[i], &k->key[ids[i]]);
  qsort_r(ids, (size_t)m, sizeof *ids, cmp_team, k);
  for (int i = 0; i < m;) {
    int j = i + 1;
    while (j < m && !key_cmp(&k->key[ids[i]], &k->key[ids[j]])) j++;
    rank_rec(k, ids + i, j - i, level + 1);
    i = j;
  }
}

int xq_tm_standings(const xq_tm_event *ev, int upto, xq_tm_row *rows)
{
  if (!ev || !rows || upto < 0) return XQ_EINVAL;
  int n = ev->nteams;
  rk k = {.ev = ev, .upto = upto};
  k.row = calloc((size_t)n + 1, sizeof *k.row);
  k.out = calloc((size_t)n + 1, 1);
  k.tied = calloc((size_t)n + 1, 1);
  k.key = calloc((size_t)n + 1, sizeof *k.key);
  int *ids = calloc((size_t)n + 1, sizeof *ids);
  int rc = k.row && k.out && k.tied && k.key && ids ? XQ_OK : XQ_ENOMEM;
  if (!rc) {
    annulments(ev, k.out);
    for (int t = 1; t <= n; t++) k.row[t].team = t, k.row[t].annulled = k.out[t];
    totals(&k);
    int m = 0, a = 0;
    for (int t = 1; t <= n; t++)
      if (!k.out[t]) ids[m++] = t;
    rank_rec(&k, ids, m, 0);
    for (int t = 1; t <= n; t++)
      if (k.out[t]) ids[m + a++] = t;
    for (int i = 0; i < n; i++) {
      rows[i] = k.row[ids[i]];
      rows[i].place = k.out[ids[i]] ? 0 : i && k.tied[ids[i]] ? rows[i - 1].place : i + 1;
    }
  }
  free(k.row), free(k.out), free(k.tied), free(k.key), free(ids);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Board prizes (台次奖)                                                 */
/* ------------------------------------------------------------------ */

typedef struct bctx { const int *place; } bctx;

static int cmp_board(const void *x, const void *y, void *arg)
{
  const bctx *c = arg;
  const xq_tm_board_row *a = x, *b = y;
  if (a->eligible != b->eligible) return b->eligible - a->eligible;
  /* score rate points / (gp_win · games), larger first: cross-multiplied */
  int64_t l = (int64_t)a->points * b->games, r = (int64_t)b->points * a->games;
  if (l != r) return l > r ? -1 : 1;
  if (a->points != b->points) return b->points - a->points;
  if (a->games != b->games) return b->games - a->games;
  if (c->place[a->team] != c->place[b->team]) return c->place[a->team] - c->place[b->team];
  return a->player - b->player;
}

static xq_tm_board_row *board_row(xq_tm_board_row *rows, int *n, int player, int team)
{
  for (int i = 0; i < *n; i++)
    if (rows[i].player == player) return &rows[i];
  xq_tm_board_row *r = &rows[(*n)++];
  memset(r, 0, sizeof *r);
  r->player = player, r->team = team;
  return r;
}

int xq_tm_board_prizes(const xq_tm_event *ev, int board, int upto, xq_tm_board_row *rows, int cap)
{
  if (!ev || board < 1 || board > ev->cfg.boards || (!rows && cap) || cap < 0) return XQ_EINVAL;
  int n = ev->nteams, cnt = 0, rc = XQ_OK;
  xq_tm_row *st = calloc((size_t)n + 1, sizeof *st);
  int *place = calloc((size_t)n + 1, sizeof *place);
  xq_tm_board_row *all = calloc((size_t)n * XQ_TM_ROSTER_MAX + 1, sizeof *all);
  unsigned char *out = calloc((size_t)n + 1, 1);
  if (!st || !place || !all || !out || xq_tm_standings(ev, upto, st)) rc = XQ_ENOMEM;
  for (int i = 0; !rc && i < n; i++) place[st[i].team] = st[i].annulled ? n + 1 : st[i].place;
  if (!rc) annulments(ev, out);
  rk k = {.ev = ev, .upto = upto, .out = out};
  for (int m = 0; !rc && m < ev->nmatches; m++) {
    const xq_tm_match *x = &ev->matches[m];
    if (!counts(&k, x) || !x->second) continue;
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    for (int s = 0; s < 2 && !sc.forfeit; s++) {
      int p = x->lineup[s][board - 1], res = sc.board_res[s][board - 1];
      if (!p || res == XQ_TR_NONE) continue;
      xq_tm_board_row *r = board_row(all, &cnt, p, s ? x->second : x->first);
      if (res == XQ_TR_FWIN || res == XQ_TR_FLOSS) { r->forfeits++; continue; }
      r->games++;
      r->wins += res == XQ_TR_WIN, r->draws += res == XQ_TR_DRAW, r->losses += res == XQ_TR_LOSS;
      r->points += sc.board_gp[s][board - 1];
    }
  }
  int last = ev->cfg.format == XQ_TM_RR ? xq_rr_rounds(n, ev->cfg.cycles) : ev->cfg.rounds;
  int min = ev->cfg.prize_min_games ? ev->cfg.prize_min_games : (last + 1) / 2;
  for (int i = 0; i < cnt; i++) all[i].eligible = all[i].games > 0 && all[i].games >= min;
  bctx c = {place};
  if (!rc) qsort_r(all, (size_t)cnt, sizeof *all, cmp_board, &c);
  for (int i = 0; !rc && i < cnt && i < cap; i++) rows[i] = all[i];
  free(st), free(place), free(all), free(out);
  return rc ? rc : cnt;
}
