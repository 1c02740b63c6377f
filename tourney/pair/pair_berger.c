/*
 * pair_berger.c -- the round-robin table (循环赛对局秩序表, identical to
 * FIDE's Berger tables) and the pairing of a round-robin event's rounds
 * from it (docs/tourney.md, "Round robins").
 *
 * Numbers 1..n are drawn before round 1; with n odd the phantom number
 * N = n + 1 is the bye. Round 1 is 1–N, 2–(N−1), … (首尾相对，依次靠拢);
 * from round 2 N meets the number that stood last in the round before
 * and is Red in even rounds; the other boards follow by rotation. The
 * closed form below gives board k of table round r directly. A double
 * round robin plays the table twice, the second time with colours
 * reversed; FIDE's advice to play the first cycle's last two rounds in
 * the other order (so that nobody has three like colours in a row) is
 * the cfg.rr_swap setting. Two games a pairing (两局制, cfg.rr_games)
 * play each table round twice in a row, colours swapped.
 */
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "pair.h"

int xq_rr_size(int n)
{
  return n + (n & 1);
}

int xq_rr_rounds(int n, int cycles)
{
  if (n < 2 || cycles < 1 || cycles > 2) return 0;
  return (xq_rr_size(n) - 1) * cycles;
}

void xq_rr_table_board(int N, int r, int k, int *red, int *black)
{
  int m = N - 1;
  /* p: the number on board 1 besides N; 2p ≡ r + 1 (mod m) */
  int p = (int)(((long)(r + 1) * (N / 2) - 1) % m) + 1;
  if (k == 1) {
    *red = r % 2 == 0 ? N : p;
    *black = r % 2 == 0 ? p : N;
    return;
  }
  *red = (p - 1 + (k - 1)) % m + 1;
  *black = ((p - 1 - (k - 1)) % m + m) % m + 1;
}

int xq_rr_schedule(int n, int cycles, int swap, int round, int *table_round, int *reversed)
{
  int per = xq_rr_rounds(n, 1);
  if (!per || round < 1 || round > per * (cycles == 2 ? 2 : 1) || cycles < 1 || cycles > 2) return XQ_EINVAL;
  int r = round > per ? round - per : round;
  /* the first cycle's last two rounds in the other order: only when a
   * second cycle follows and the cycle has two rounds to swap */
  if (swap && cycles == 2 && round <= per && per >= 3 && r >= per - 1) r = r == per ? per - 1 : per;
  *table_round = r;
  *reversed = round > per;
  return XQ_OK;
}

int xq_rr_round(int n, int cycles, int swap, int round, xq_tboard *out)
{
  int tr, rev;
  if (!out || xq_rr_schedule(n, cycles, swap, round, &tr, &rev)) return -1;
  int N = xq_rr_size(n), nb = 0, bye = 0;
  for (int k = 1; k <= N / 2; k++) {
    int red, black;
    xq_rr_table_board(N, tr, k, &red, &black);
    if (rev) { int t = red; red = black; black = t; }
    if (red > n || black > n) { /* the phantom: its opponent has the bye, listed last */
      bye = red > n ? black : red;
      continue;
    }
    out[nb].red = red;
    out[nb++].black = black;
  }
  if (bye) {
    out[nb].red = bye;
    out[nb++].black = 0;
  }
  return nb;
}

/* The boards of `round` for n entrants whose numbers 1..n are the ids
 * by_no[1..n], as cfg plays them (cycles, the swap, two games a pairing):
 * into out[] (room for n/2 + 1), the bye last; the count, 0 when this
 * table has no such round (past its last; a smaller group done). */
static int table_boards(const xq_tconfig *cfg, int n, const int *by_no, int round, xq_tboard *out)
{
  /* two games a pairing: table round k is played in rounds 2k − 1 and
   * 2k, the second with colours swapped */
  int two = cfg->rr_games == 2, at = two ? (round + 1) / 2 : round;
  if (n < 2 || at > xq_rr_rounds(n, cfg->cycles)) return 0;
  int nb = xq_rr_round(n, cfg->cycles, cfg->rr_swap, at, out);
  for (int i = 0; i < nb; i++) {
    int red = by_no[out[i].red], black = out[i].black ? by_no[out[i].black] : 0;
    int swap = two && round % 2 == 0 && black;
    out[i].red = swap ? black : red;
    out[i].black = swap ? red : black;
  }
  return nb;
}

/* Every group's boards of `round` into b[] (room for n/2 + G): the games
 * group by group (A first), then the byes. Returns the count, or -1 for
 * a group too large for a table. m: scratch room for n + 1 ids. */
static int group_boards(const xq_tournament *ev, int round, int *m, xq_tboard *b)
{
  int nb = 0, nbye = 0, G = ev->cfg.rr_groups;
  xq_tboard byes[XQ_RR_GROUPS_MAX], part[XQ_RR_ENTRANTS_MAX / 2 + 1];
  for (int g = 0; g < G; g++) {
    int n = xq_rr_group_members(ev, g, m + 1), k = n > XQ_RR_ENTRANTS_MAX ? -1 : table_boards(&ev->cfg, n, m, round, part);
    if (k < 0) return -1;
    for (int i = 0; i < k; i++)
      if (part[i].black) b[nb++] = part[i];
      else byes[nbye++] = part[i];
  }
  for (int i = 0; i < nbye; i++) b[nb++] = byes[i];
  return nb;
}

int xq_pair_rr(const xq_tournament *ev, int round, xq_tpairing *out)
{
  if (!ev || !out || ev->cfg.format != XQ_FORMAT_RR || round < 1) return XQ_EINVAL;
  int n = ev->n, G = ev->cfg.rr_groups > 1 ? ev->cfg.rr_groups : 1;
  int *by_no = calloc((size_t)n + 1, sizeof *by_no);
  xq_tboard *b = malloc(sizeof *b * (size_t)(n / 2 + G + 1));
  if (!by_no || !b) {
    free(by_no); free(b);
    return XQ_ENOMEM;
  }
  int rc = XQ_OK, nb = -1;
  for (int id = 1; id <= n && !rc; id++) {
    int no = ev->players[id - 1].pno;
    if (no < 1 || no > n || by_no[no]) rc = XQ_EINVAL; /* numbers must be 1..n, each once */
    else by_no[no] = id;
  }
  if (!rc) nb = G > 1 ? group_boards(ev, round, by_no, b) : table_boards(&ev->cfg, n, by_no, round, b);
  if (nb <= 0) rc = XQ_EINVAL;
  free(by_no);
  if (rc) {
    free(b);
    return rc;
  }
  out->round = round;
  out->nboards = nb;
  out->boards = b;
  return XQ_OK;
}
