/*
 * pair_system.c -- pair a round with the event's chosen system: a round
 * robin's table, or for a Swiss the Chinese adjacent method (积分编排, the
 * default) or FIDE Dutch. Both leave
 * out the players withdrawn for the round (docs/tourney.md, "Who is paired"): the Chinese
 * pairer reads the withdrawals itself; the Dutch pairer pairs everyone
 * without a block in the round, so the withdrawn get one here.
 */
#include <string.h>

#include "../tourney_internal.h"
#include "pair.h"

int xq_pair_system_parse(const char *s)
{
  if (!s) return -1;
  if (!strcmp(s, "cn")) return XQ_PAIR_CN;
  if (!strcmp(s, "dutch")) return XQ_PAIR_DUTCH;
  return -1;
}

int xq_pair_system(xq_tournament *ev, int round, int system, xq_tpairing *out, xq_pair_stats *st)
{
  if (!ev || !out || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  if (ev->cfg.format == XQ_FORMAT_RR) {
    if (st) memset(st, 0, sizeof *st);
    return xq_pair_rr(ev, round, out);
  }
  if (system == XQ_PAIR_CN) return xq_pair_cn(ev, round, out, st);
  if (system != XQ_PAIR_DUTCH) return XQ_EINVAL;
  xq_tournament_apply_withdrawals(ev, round - 1);
  for (int id = 1; id <= ev->n; id++) {
    xq_tslot *sl = xq_tournament_slot(ev, id, round);
    int w = ev->players[id - 1].withdrawn;
    if (w && w <= round && !sl->absent) sl->absent = XQ_TR_ZPB;
  }
  if (st) memset(st, 0, sizeof *st);
  return xq_pair_dutch(ev, round, out);
}
