/*
 * roundrobin.c -- what a round robin ranks differently from a Swiss: a
 * player who withdraws during the event (中途退出; docs/tourney.md,
 * "Round robins"). The table is fixed, so his remaining games stay in it;
 * the rule then decides how they and the games he played count:
 *
 *   - fewer than half of his scheduled games played (已赛对手不足半数):
 *     all his results are annulled (一概注销), for him and for every
 *     opponent, and he is not ranked;
 *   - half or more: his results stand and each game he does not play is
 *     a forfeit won by the opponent (弃权，对方获胜).
 *
 * The same threshold is FIDE's (Tournament Rules V.4). The rule is
 * applied to a copy of the event when the standings are computed; the
 * store keeps what happened.
 *
 * And a round robin in groups (分组循环): who is in which group, and each
 * group as an event of its own for its standings and cross table.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "tourney_internal.h"

int xq_rr_games_played(const xq_tournament *ev, int id)
{
  int played = 0;
  for (int r = 1; r <= ev->nrounds; r++) played += xq__event_played(xq_tournament_slot(ev, id, r));
  return played;
}

/* Remove every game of `id` from the event: his and his opponents' slots
 * become rounds without a game. */
static void annul(xq_tournament *ev, int id)
{
  for (int r = 1; r <= ev->nrounds; r++) {
    xq_tslot *s = xq_tournament_slot(ev, id, r);
    if (s->opp) memset(xq_tournament_slot(ev, s->opp, r), 0, sizeof *s);
    memset(s, 0, sizeof *s);
  }
}

/* The games of `id` from round `from` on that have no result become
 * forfeits won by the opponents. */
static void forfeit_rest(xq_tournament *ev, int id, int from)
{
  for (int r = from; r <= ev->nrounds; r++) {
    xq_tslot *s = xq_tournament_slot(ev, id, r);
    if (!s->opp || s->res != XQ_TR_NONE) continue;
    s->res = XQ_TR_FLOSS;
    xq_tournament_slot(ev, s->opp, r)->res = XQ_TR_FWIN;
  }
}

int xq_rr_withdrawals(xq_tournament *ev, unsigned char *annulled)
{
  if (!ev || ev->cfg.format != XQ_FORMAT_RR || !annulled) return 0;
  int scheduled = (ev->n - 1) * (ev->cfg.cycles == 2 ? 2 : 1), count = 0;
  /* decided on the games as played, before any is annulled */
  for (int id = 1; id <= ev->n; id++) {
    annulled[id] = ev->players[id - 1].withdrawn && xq_rr_games_played(ev, id) * 2 < scheduled;
    count += annulled[id];
  }
  for (int id = 1; id <= ev->n; id++) {
    if (annulled[id]) annul(ev, id);
    else if (ev->players[id - 1].withdrawn) forfeit_rest(ev, id, ev->players[id - 1].withdrawn);
  }
  return count;
}

/* ------------------------------------------------------------------ */
/* Groups (分组循环)                                                     */
/* ------------------------------------------------------------------ */

int xq_rr_group_of(const xq_tournament *ev, int id)
{
  int G = ev->cfg.rr_groups;
  if (ev->cfg.format != XQ_FORMAT_RR || G < 2) return 0;
  int k = ev->players[id - 1].pno - 1;
  if (k < 0) return -1;
  int col = k % G;
  return (k / G) % 2 ? G - 1 - col : col; /* serpentine */
}

/* Members before: by their lot draw (the event's seed and their number). */
static int lot_order(const void *x, const void *y, void *arg)
{
  const xq_tournament *ev = arg;
  uint64_t a = xq__lot_draw(ev, *(const int *)x), b = xq__lot_draw(ev, *(const int *)y);
  return a < b ? -1 : a > b;
}

int xq_rr_group_members(const xq_tournament *ev, int g, int *ids)
{
  int n = 0;
  for (int id = 1; id <= ev->n; id++)
    if (xq_rr_group_of(ev, id) == g) ids[n++] = id;
  qsort_r(ids, (size_t)n, sizeof *ids, lot_order, (void *)ev);
  return n;
}

xq_tournament *xq_rr_group_event(const xq_tournament *ev, int g, int **ids)
{
  if (ids) *ids = NULL;
  if (!ev || g < 0 || (g > 0 && g >= ev->cfg.rr_groups)) return NULL;
  int *m = malloc(sizeof *m * (size_t)(ev->n ? ev->n : 1)), *sub_of = calloc((size_t)ev->n + 1, sizeof *sub_of);
  xq_tconfig cfg = ev->cfg;
  cfg.rr_groups = 0;
  char name[XQ_TOURNEY_NAME_MAX];
  snprintf(name, sizeof name, "%.240s%s%c组", ev->name, ev->name[0] ? " " : "", 'A' + g);
  xq_tournament *sub = m && sub_of ? xq_tournament_new(&cfg, name) : NULL;
  int n = sub ? xq_rr_group_members(ev, g, m) : 0;
  for (int i = 0; sub && i < n; i++) {
    xq_tplayer p = ev->players[m[i] - 1];
    p.pno = i + 1;
    if (xq_tournament_add(sub, &p, NULL, NULL)) {
      xq_tournament_free(sub);
      sub = NULL;
    }
    sub_of[m[i]] = i + 1;
  }
  for (int i = 0; sub && i < n; i++)
    for (int r = 1; r <= ev->nrounds; r++) {
      xq_tslot s = *xq_tournament_slot(ev, m[i], r);
      if (s.opp) s.opp = (uint16_t)sub_of[s.opp]; /* a game in the group (no other is paired) */
      *xq_tournament_slot(sub, i + 1, r) = s;
    }
  if (sub) sub->nrounds = ev->nrounds;
  free(sub_of);
  if (sub && ids) *ids = m;
  else free(m);
  return sub;
}
