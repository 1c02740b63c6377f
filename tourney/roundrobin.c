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
 */
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
