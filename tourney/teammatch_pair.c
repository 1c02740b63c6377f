/*
 * teammatch_pair.c -- the pairing of a team competition's round
 * (teammatch.h): a team round robin from the Berger table
 * (xq_rr_round), a team Swiss (团体积分编排) by the individual engines run
 * on a stand-in event whose players are the teams and whose games are
 * the matches, scored in match points.
 */
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "teammatch.h"
#include "tourney_internal.h"

int xq_tm_match_add(xq_tm_event *ev, int round, int first, int second)
{
  if (!ev || first < 1 || first > ev->nteams || second < 0 || second > ev->nteams || second == first || round < 1 ||
      round > XQ_TOURNEY_ROUNDS_MAX)
    return XQ_EINVAL;
  if (ev->nmatches == ev->cap) {
    int cap = ev->cap ? ev->cap * 2 : 16;
    xq_tm_match *m = realloc(ev->matches, sizeof *m * (size_t)cap);
    if (!m) return XQ_ENOMEM;
    ev->matches = m, ev->cap = cap;
  }
  xq_tm_match *x = &ev->matches[ev->nmatches++];
  memset(x, 0, sizeof *x);
  x->round = round, x->first = first, x->second = second;
  xq_tm_lineup_default(ev, first, x->lineup[0]);
  if (second) xq_tm_lineup_default(ev, second, x->lineup[1]);
  if (round > ev->nrounds) ev->nrounds = round;
  return XQ_OK;
}

static int pair_rr(xq_tm_event *ev, int round, xq_error *err)
{
  int n = ev->nteams, by_no[XQ_RR_ENTRANTS_MAX + 1] = {0};
  if (n > XQ_RR_ENTRANTS_MAX) return xq__error(err, XQ_ELIMIT, "a round robin of more than %d teams", XQ_RR_ENTRANTS_MAX);
  for (int t = 1; t <= n; t++) {
    int no = ev->teams[t - 1].pno;
    if (no < 1 || no > n || by_no[no]) return xq__error(err, XQ_EINVAL, "team numbers are not 1..%d", n);
    by_no[no] = t;
  }
  xq_tboard b[XQ_RR_ENTRANTS_MAX / 2 + 1];
  int nb = xq_rr_round(n, ev->cfg.cycles, ev->cfg.rr_swap, round, b);
  if (nb < 0) return xq__error(err, XQ_EINVAL, "a round robin of %d teams has no round %d", n, round);
  for (int i = 0; i < nb; i++) {
    int rc = xq_tm_match_add(ev, round, by_no[b[i].red], b[i].black ? by_no[b[i].black] : 0);
    if (rc) return xq__error(err, rc, "out of memory");
  }
  return XQ_OK;
}

/* The stand-in event of the Swiss: team t is player t, with its pairing
 * number; each match of rounds 1..round-1 a game won, drawn or lost as
 * the match was (by 局分), worth the match points; the first team Red. */
static xq_tournament *stand_in(const xq_tm_event *ev, int round)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  const xq_tm_config *c = &ev->cfg;
  cfg.win = cfg.fwin = 2 * c->mp_win;
  cfg.draw = 2 * c->mp_draw;
  cfg.loss = cfg.floss = 2 * c->mp_loss;
  cfg.pab = 2 * c->bye_mp;
  cfg.rounds = c->rounds;
  cfg.missed_rounds_withdraw = 0;
  cfg.lot_seed = c->lot_seed;
  xq_tournament *sh = xq_tournament_new(&cfg, "teams");
  if (!sh) return NULL;
  for (int t = 0; t < ev->nteams; t++) {
    xq_tplayer p = {0};
    memcpy(p.name, ev->teams[t].name, sizeof p.name);
    p.pno = ev->teams[t].pno;
    p.withdrawn = ev->teams[t].withdrawn;
    if (xq_tournament_add(sh, &p, NULL, NULL)) {
      xq_tournament_free(sh);
      return NULL;
    }
  }
  for (int m = 0; m < ev->nmatches; m++) {
    const xq_tm_match *x = &ev->matches[m];
    if (x->round >= round) continue;
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    xq_tslot *a = xq_tournament_slot(sh, x->first, x->round);
    if (!x->second) {
      a->res = XQ_TR_PAB;
      continue;
    }
    xq_tslot *b = xq_tournament_slot(sh, x->second, x->round);
    a->opp = (uint16_t)x->second, b->opp = (uint16_t)x->first;
    a->colour = XQ_TC_RED, b->colour = XQ_TC_BLACK;
    for (int s = 0; s < 2; s++) {
      xq_tslot *sl = s ? b : a;
      int o = sc.outcome[s];
      sl->res = sc.forfeit ? (o > 0 ? XQ_TR_FWIN : XQ_TR_FLOSS) : o > 0 ? XQ_TR_WIN : o < 0 ? XQ_TR_LOSS : XQ_TR_DRAW;
    }
  }
  sh->nrounds = round - 1;
  return sh;
}

static int pair_swiss(xq_tm_event *ev, int round, xq_error *err)
{
  xq_tournament *sh = stand_in(ev, round);
  if (!sh) return xq__error(err, XQ_ENOMEM, "out of memory");
  xq_tpairing pr = {0};
  int rc = xq_pair_system(sh, round, ev->cfg.system, &pr, NULL);
  xq_tournament_free(sh);
  if (rc) return xq__error(err, rc, "round %d of the teams cannot be paired: %s", round, xq_strerror(rc));
  for (int i = 0; i < pr.nboards && !rc; i++) rc = xq_tm_match_add(ev, round, pr.boards[i].red, pr.boards[i].black);
  xq_tpairing_clear(&pr);
  return rc ? xq__error(err, rc, "out of memory") : XQ_OK;
}

int xq_tm_pair(xq_tm_event *ev, int round, xq_error *err)
{
  if (!ev) return xq__error(err, XQ_EINVAL, "no event");
  if (round != ev->nrounds + 1) return xq__error(err, XQ_EINVAL, "round %d is not the next (%d)", round, ev->nrounds + 1);
  if (ev->nteams < 2) return xq__error(err, XQ_EINVAL, "fewer than two teams");
  int last = ev->cfg.format == XQ_TM_RR ? xq_rr_rounds(ev->nteams, ev->cfg.cycles) : ev->cfg.rounds;
  if (last && round > last) return xq__error(err, XQ_EINVAL, "the event has %d rounds", last);
  for (int m = 0; m < ev->nmatches; m++) {
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    if (!sc.decided)
      return xq__error(err, XQ_EINVAL, "round %d, match %s v %s is not decided", ev->matches[m].round,
                       ev->teams[ev->matches[m].first - 1].name, ev->teams[ev->matches[m].second - 1].name);
  }
  int before = ev->nmatches, before_rounds = ev->nrounds;
  int rc = ev->cfg.format == XQ_TM_RR ? pair_rr(ev, round, err) : pair_swiss(ev, round, err);
  if (rc) {
    ev->nmatches = before, ev->nrounds = before_rounds;
    return rc;
  }
  ev->nrounds = round;
  return XQ_OK;
}
