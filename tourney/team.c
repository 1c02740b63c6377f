/*
 * team.c -- team results (docs/tourney.md, "Teams"): Σ of places or Σ of points of a
 * team's counted players, ties by the best individual place; only the
 * players of the competition's area count, and under a unit (Xinjiang's
 * 地州市) only those of the team's one place within it, on the order its
 * basis names (final places or the Swiss standings).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knockout.h"
#include "prize.h"
#include "region.h"
#include "tourney.h"

static int row_cmp(const xq_team_row *a, const xq_team_row *b, int mode)
{
  /* teams short of players come after the ranked ones */
  if ((a->rank == 0) != (b->rank == 0)) return a->rank == 0 ? 1 : -1;
  if (a->value != b->value) {
    /* Σ places: lower first; Σ points: higher first */
    if (mode == XQ_TEAM_RANK_SUM) return a->value < b->value ? -1 : 1;
    return a->value > b->value ? -1 : 1;
  }
  /* 数值相同，队中最好个人名次靠前者优 */
  if (a->best != b->best) return a->best - b->best;
  return strcmp(a->team, b->team);
}

/* Xinjiang 十(一) 以地州市为单位: true when player `id` of region `region`
 * counts for team row `r` under the unit area `unit` (the team's place
 * set by its first player who has one); else he is noted in r->left. */
static int of_unit(xq_team_row *r, int id, const char *region, const char *unit)
{
  char place[XQ_TOURNEY_FIELD_MAX];
  int found = xq_region_unit(region, unit, place, sizeof place);
  if (found && !r->unit[0]) snprintf(r->unit, sizeof r->unit, "%s", place);
  if (found && !strcmp(r->unit, place)) return 1;
  if (r->nleft < XQ_TEAM_LEFT_MAX) {
    r->left_why[r->nleft] = found ? 'o' : 'n';
    r->left[r->nleft++] = id;
  }
  return 0;
}

int xq_team_standings(const xq_tournament *ev, const int *places, int mode, int counted,
                      xq_team_row *out, int cap, int *nout)
{
  xq_team_rule rule = {.mode = mode, .counted = counted};
  return xq_team_standings_rule(ev, places, &rule, out, cap, nout);
}

int xq_team_standings_rule(const xq_tournament *ev, const int *places, const xq_team_rule *rule,
                           xq_team_row *out, int cap, int *nout)
{
  if (!ev || !places || !rule || !out || !nout || cap < 0) return XQ_EINVAL;
  int mode = rule->mode, counted = rule->counted;
  if ((mode != XQ_TEAM_RANK_SUM && mode != XQ_TEAM_POINTS_SUM) || counted < 1 ||
      counted > XQ_TEAM_COUNTED_MAX)
    return XQ_EINVAL;
  int nt = 0;
  /* walk the places in order: each team's members arrive best first */
  for (int i = 0; i < ev->n; i++) {
    int id = places[i];
    if (id < 1 || id > ev->n) return XQ_EINVAL;
    const xq_tplayer *p = &ev->players[id - 1];
    if (!p->team[0]) continue;
    /* Burqin 四(二): 团体赛仅限阿勒泰地区…: players of another area are
     * outside the team competition */
    if (rule->area[0] && !xq_region_within(p->region, rule->area)) continue;
    int t = 0;
    while (t < nt && strcmp(out[t].team, p->team)) t++;
    if (t == nt) {
      if (nt == cap) return XQ_ELIMIT;
      memset(&out[nt], 0, sizeof out[nt]);
      snprintf(out[nt].team, sizeof out[nt].team, "%s", p->team);
      nt++;
    }
    xq_team_row *r = &out[t];
    if (rule->unit[0] && !of_unit(r, id, p->region, rule->unit)) continue;
    if (!r->best) r->best = i + 1;
    if (r->nmembers >= counted) continue;
    r->members[r->nmembers++] = id;
    r->value += mode == XQ_TEAM_RANK_SUM ? i + 1 : xq_tournament_points(ev, id, XQ_TOURNEY_ROUNDS_MAX);
  }
  for (int t = 0; t < nt; t++) out[t].rank = out[t].nmembers == counted ? 1 : 0;
  /* insertion sort: few teams, and the comparison needs the mode */
  for (int i = 1; i < nt; i++) {
    xq_team_row r = out[i];
    int j = i;
    for (; j > 0 && row_cmp(&out[j - 1], &r, mode) > 0; j--) out[j] = out[j - 1];
    out[j] = r;
  }
  for (int t = 0, k = 0; t < nt; t++)
    if (out[t].rank) out[t].rank = ++k;
  *nout = nt;
  return XQ_OK;
}

long xq_team_prizes(const xq_prize_table *t, xq_team_row *rows, int n)
{
  long sum = 0;
  if (!t || !rows) return 0;
  for (int i = 0; i < n; i++) {
    int k = rows[i].rank;
    /* only ranked teams are paid (Burqin 不足三名棋手，不计团体名次) */
    rows[i].amount = k >= 1 && k <= t->nteam && k <= XQ_TEAM_PRIZES_MAX ? t->team_amount[k - 1] : 0;
    sum += rows[i].amount;
  }
  return sum;
}

int xq_team_order(const xq_tournament *ev, const struct xq_ko *ko, int basis, int *ids)
{
  if (!ev || !ids) return XQ_EINVAL;
  if (basis == XQ_TEAM_BASIS_FINAL) return xq_final_places(ev, ko, ids);
  if (basis != XQ_TEAM_BASIS_SWISS) return XQ_EINVAL;
  /* Tangshan 八.3: 团体成绩按照预赛成绩计算 -- the Swiss after its last round */
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  if (!s) return XQ_ENOMEM;
  int rc = xq_standings(ev, ev->nrounds, s);
  for (int i = 0; !rc && i < ev->n; i++) ids[i] = s[i].id;
  free(s);
  return rc;
}

int xq_team_results(const xq_tournament *ev, const int *places, const xq_regulation *r, int mode, int counted,
                    const xq_prize_table *t, xq_team_row *rows, int cap, int *n, xq_team_rule *used,
                    xq_error *err)
{
  if (!ev || !places || !rows || !n || cap < 0 || (mode != -1 && mode != XQ_TEAM_RANK_SUM &&
      mode != XQ_TEAM_POINTS_SUM) || counted < 0 || counted > XQ_TEAM_COUNTED_MAX)
    return xq_error_set(err, XQ_EINVAL, 0, 0, "bad team standings arguments");
  xq_team_rule rule = {.mode = XQ_TEAM_RANK_SUM, .counted = 3};
  /* the regulation's team competition: who is in it (Burqin: Altay's
   * teams) and on what (Tangshan: the Swiss) */
  if (r && xq_regulation_team_rule(r, &rule))
    return xq_error_set(err, XQ_EINVAL, 0, 0, "no such regulation");
  if (r && !rule.counted && !counted)
    return xq_error_set(err, XQ_EINVAL, 0, 0, "%s has no team competition", r->name);
  if (mode != -1) rule.mode = mode;
  if (counted) rule.counted = counted;
  /* the order of the basis: the Swiss standings (Tangshan 八.3), or the
   * final places given */
  int *order = NULL, rc = XQ_OK;
  if (rule.basis == XQ_TEAM_BASIS_SWISS) {
    order = malloc(sizeof *order * (size_t)(ev->n ? ev->n : 1));
    if (!order) return xq_error_set(err, XQ_ENOMEM, 0, 0, "out of memory");
    rc = xq_team_order(ev, NULL, rule.basis, order);
  }
  if (!rc) rc = xq_team_standings_rule(ev, order ? order : places, &rule, rows, cap, n);
  free(order);
  if (rc) return xq_error_set(err, rc, 0, 0, "cannot compute the team standings");
  xq_team_prizes(t, rows, *n);
  if (used) *used = rule;
  return XQ_OK;
}
