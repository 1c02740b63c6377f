/*
 * teammatch_games.c -- a team round as the individual games of the event
 * (teammatch.h, "The games of a round"): each board of each match whose
 * two players are fielded is a game of the individual round of the same
 * number, so that the server's boards, desk and viewers play it as any
 * Swiss game; the board results of the team matches follow the results
 * of those games.
 */
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "teammatch.h"
#include "tourney_internal.h"

/* 1 when board b (0..B-1) of match x is a game: both players fielded,
 * the match not a bye nor forfeited as a whole. */
static int is_game(const xq_tm_match *x, int b)
{
  return x->second && x->forfeit == XQ_TMF_NONE && x->lineup[0][b] && x->lineup[1][b];
}

int xq_tm_round_games(const xq_tm_event *ev, int round, xq_tpairing *out, xq_error *err)
{
  if (!ev || !out) return xq__error(err, XQ_EINVAL, "no team event");
  memset(out, 0, sizeof *out);
  if (round < 1 || round > ev->nrounds) return xq__error(err, XQ_EINVAL, "team round %d is not paired", round);
  int n = 0, B = ev->cfg.boards;
  for (int m = 0; m < ev->nmatches; m++)
    for (int b = 0; ev->matches[m].round == round && b < B; b++) n += is_game(&ev->matches[m], b);
  if (!n) return xq__error(err, XQ_EINVAL, "team round %d has no board with two players", round);
  if (!(out->boards = calloc((size_t)n, sizeof *out->boards))) return xq__error(err, XQ_ENOMEM, "out of memory");
  out->round = round;
  for (int k = 1, m; (m = xq_tm_match_at(ev, round, k)) >= 0; k++) {
    const xq_tm_match *x = &ev->matches[m];
    for (int b = 0; b < B; b++) {
      if (!is_game(x, b)) continue;
      int first_red = xq_tm_first_red(&ev->cfg, b + 1);
      xq_tboard *t = &out->boards[out->nboards++];
      t->red = x->lineup[first_red ? 0 : 1][b];
      t->black = x->lineup[first_red ? 1 : 0][b];
    }
  }
  return XQ_OK;
}

void xq_tm_sync_games(xq_tm_event *ev, const xq_tournament *games)
{
  if (!ev || !games) return;
  for (int m = 0; m < ev->nmatches; m++) {
    xq_tm_match *x = &ev->matches[m];
    if (x->round > games->nrounds) continue;
    for (int b = 0; b < ev->cfg.boards; b++) {
      int p = x->lineup[0][b], q = x->lineup[1][b];
      if (!is_game(x, b) || p > games->n || q > games->n) continue;
      const xq_tslot *sl = xq_tournament_slot(games, p, x->round);
      if (sl->opp != q) continue; /* not published as a game */
      int r = sl->res;
      if (r == XQ_TR_WIN || r == XQ_TR_DRAW || r == XQ_TR_LOSS || r == XQ_TR_FWIN || r == XQ_TR_FLOSS ||
          r == XQ_TR_NONE)
        x->res[b] = (uint8_t)r;
    }
  }
}

int xq_tm_board_game(const xq_tm_event *ev, int m, int board, const xq_tpairing *pr)
{
  if (!ev || !pr || m < 0 || m >= ev->nmatches || board < 1 || board > ev->cfg.boards) return 0;
  int p = ev->matches[m].lineup[0][board - 1];
  for (int t = 0; p && t < pr->nboards; t++)
    if (pr->boards[t].red == p || pr->boards[t].black == p) return t + 1;
  return 0;
}
