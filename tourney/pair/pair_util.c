/*
 * pair_util.c -- what every pairing method needs: who is paired, bye
 * eligibility, colour history and limits, colour allocation (docs/tourney.md,
 * "Who is paired", "Pairing") and board order.
 */
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "pair_internal.h"

void xq__pair_colour_history(const xq_tournament *ev, int id, int upto, xq__pair_colhist *h)
{
  memset(h, 0, sizeof *h);
  for (int r = 1; r <= upto; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    /* docs/tourney.md, "Pairing": colour counts use played games only */
    if (!xq__event_played(s) || s->colour == XQ_TC_NONE) continue;
    if (s->colour == XQ_TC_RED) h->reds++;
    else h->blacks++;
    h->last[1] = h->last[0];
    h->last[0] = s->colour;
  }
}

int xq__pair_pool(const xq_tournament *ev, int round, int *ids)
{
  int n = 0;
  for (int id = 1; id <= ev->n; id++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, round);
    /* withdrawn, knockout and announced-absent players are not
     * paired; a TRF block already written for the round marks absence */
    if (s->absent || s->opp || s->res != XQ_TR_NONE) continue;
    if (xq__event_withdrawn(ev, id, round)) continue;
    ids[n++] = id;
  }
  return n;
}

int xq__pair_bye_eligible(const xq_tournament *ev, int id, int round)
{
  for (int r = 1; r < round; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    /* a PAB or a forfeit win already received */
    if (s->res == XQ_TR_PAB || s->res == XQ_TR_FWIN) return 0;
  }
  return 1;
}

/* top-scorers (more than half the maximum score before the last
 * round) may break the colour limits in the last round. */
static int relaxed(const xq_tournament *ev, int id, int round)
{
  const xq_tconfig *c = &ev->cfg;
  if (!c->last_round_relax || c->rounds <= 0 || round != c->rounds) return 0;
  return 2 * xq_tournament_points(ev, id, round - 1) > (round - 1) * c->win;
}

int xq__pair_colour_ok(const xq_tournament *ev, int id, int round, int c)
{
  xq__pair_colhist h;
  if (relaxed(ev, id, round)) return 1;
  xq__pair_colour_history(ev, id, round - 1, &h);
  int reds = h.reds + (c == XQ_TC_RED), blacks = h.blacks + (c == XQ_TC_BLACK);
  if (abs(reds - blacks) > ev->cfg.max_colour_diff) return 0;  /* 禁止多三 */
  if (ev->cfg.forbid_three && h.last[0] == c && h.last[1] == c) return 0; /* 禁止连三 */
  return 1;
}

int xq_pair_colours_ok(const xq_tournament *ev, int round, int red, int black)
{
  return xq__pair_colour_ok(ev, red, round, XQ_TC_RED) && xq__pair_colour_ok(ev, black, round, XQ_TC_BLACK);
}

int xq_pair_compatible(const xq_tournament *ev, int round, int a, int b)
{
  if (a == b) return 0;
  for (int r = 1; r < round; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, a, r);
    if (s->opp != b) continue;
    /* a forfeited pairing counts as a meeting in Chinese practice */
    if (xq__event_played(s) || ev->cfg.forfeit_counts_as_met) return 0;
  }
  return xq_pair_colours_ok(ev, round, a, b) || xq_pair_colours_ok(ev, round, b, a);
}

/* Preferred colour and its strength (3 absolute, 2 strong, 1 mild, 0 none). */
static int preference(const xq__pair_colhist *h, int *strength)
{
  int cd = h->reds - h->blacks;
  if (h->reds + h->blacks == 0) { *strength = 0; return XQ_TC_NONE; }
  if (abs(cd) > 1 || (h->last[1] && h->last[0] == h->last[1])) *strength = 3;
  else *strength = abs(cd) == 1 ? 2 : 1;
  /* Chinese rows: 要先 with more black games, or equal with black last */
  if (cd < 0 || (cd == 0 && h->last[0] == XQ_TC_BLACK)) return XQ_TC_RED;
  if (cd > 0) return XQ_TC_BLACK;
  return h->last[0] == XQ_TC_RED ? XQ_TC_BLACK : XQ_TC_RED;
}

/* Step 3: the colour strings read backwards; the player who was Red in the
 * most recent differing game gets Black. 0 when undecided. */
static int alternate(const xq_tournament *ev, int round, int a, int b)
{
  int ca[XQ_TOURNEY_ROUNDS_MAX], cb[XQ_TOURNEY_ROUNDS_MAX], na = 0, nb = 0;
  for (int r = round - 1; r >= 1; r--) {
    const xq_tslot *s = xq_tournament_slot(ev, a, r), *t = xq_tournament_slot(ev, b, r);
    if (xq__event_played(s)) ca[na++] = s->colour;
    if (xq__event_played(t)) cb[nb++] = t->colour;
  }
  for (int i = 0; i < na && i < nb; i++)
    if (ca[i] != cb[i]) return ca[i] == XQ_TC_RED ? XQ_TC_BLACK : XQ_TC_RED;
  return XQ_TC_NONE;
}

int xq__pair_allocate(const xq_tournament *ev, int round, int a, int b)
{
  xq__pair_colhist ha, hb;
  int sa, sb, col = XQ_TC_NONE;
  xq__pair_colour_history(ev, a, round - 1, &ha);
  xq__pair_colour_history(ev, b, round - 1, &hb);
  int pa = preference(&ha, &sa), pb = preference(&hb, &sb);
  if (pa && pb && pa != pb) col = pa;                        /* step 1 */
  else if (pa && !pb) col = pa;
  else if (!pa && pb) col = pb == XQ_TC_RED ? XQ_TC_BLACK : XQ_TC_RED;
  else if (pa && pb) {                                       /* step 2 */
    int cda = ha.reds - ha.blacks, cdb = hb.reds - hb.blacks;
    if (sa != sb) col = sa > sb ? pa : (pb == XQ_TC_RED ? XQ_TC_BLACK : XQ_TC_RED);
    else if (cda != cdb) col = cda > cdb ? XQ_TC_BLACK : XQ_TC_RED; /* more reds ⇒ black */
    else col = alternate(ev, round, a, b);                  /* step 3 */
  }
  if (!col) {
    /* 5C: 单数轮次小号先走，双数轮次大号先走 */
    int smaller = ev->players[a - 1].pno < ev->players[b - 1].pno;
    col = (round % 2 == 1) == smaller ? XQ_TC_RED : XQ_TC_BLACK;
  }
  int other = col == XQ_TC_RED ? XQ_TC_BLACK : XQ_TC_RED;
  if (!(xq__pair_colour_ok(ev, a, round, col) && xq__pair_colour_ok(ev, b, round, other)) &&
      xq__pair_colour_ok(ev, a, round, other) && xq__pair_colour_ok(ev, b, round, col))
    col = other;
  return col;
}

typedef struct bkey { int hi, lo, pno; xq_tboard b; } bkey;

static int cmp_board(const void *x, const void *y)
{
  const bkey *a = x, *b = y;
  int abye = a->b.black == 0, bbye = b->b.black == 0;
  if (abye != bbye) return abye - bbye;
  if (a->hi != b->hi) return b->hi - a->hi;
  if (a->lo != b->lo) return b->lo - a->lo;
  return a->pno - b->pno;
}

void xq__pair_sort_boards(const xq_tournament *ev, xq_tpairing *pr)
{
  bkey *k = malloc(sizeof *k * (size_t)(pr->nboards ? pr->nboards : 1));
  if (!k) return; /* order stays as produced; still a valid pairing */
  for (int i = 0; i < pr->nboards; i++) {
    int r = pr->boards[i].red, b = pr->boards[i].black;
    int pr_ = xq_tournament_points(ev, r, pr->round - 1), pb = b ? xq_tournament_points(ev, b, pr->round - 1) : -1;
    int nr = ev->players[r - 1].pno, nb = b ? ev->players[b - 1].pno : nr;
    k[i].hi = pr_ > pb ? pr_ : pb;
    k[i].lo = pr_ > pb ? pb : pr_;
    k[i].pno = nr < nb ? nr : nb;
    k[i].b = pr->boards[i];
  }
  qsort(k, (size_t)pr->nboards, sizeof *k, cmp_board);
  for (int i = 0; i < pr->nboards; i++) pr->boards[i] = k[i].b;
  free(k);
}
