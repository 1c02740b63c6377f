/*
 * test_tourney_pair.c -- round 1 (docs/tourney.md, "Round 1"), colour allocation
 * ("Pairing") and a property test of the Chinese adjacent pairing ("Rounds ≥ 2") over
 * many random events with fixed seeds.
 *
 * The property checks are written from the spec, independently of the
 * pairing code: no rematch (forfeits count), colour limits 禁止多三 and
 * 禁止连三 (relaxed only for last-round top-scorers), every player to pair
 * paired once, at most one bye and never twice, to a bye-eligible player,
 * determinism; and on small pools a brute force over every valid pairing
 * confirms that each score group sends players down only when it must
 * (its leftover count is the least any complete pairing sharing the
 * higher groups' pairs allows), that the bye goes to the lowest score such
 * a pairing allows, and that a round reported unpairable is.
 */
#define _GNU_SOURCE /* qsort_r */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "tourney.h"

static uint64_t rnd(uint64_t *s)
{
  uint64_t x = (*s += 0x9E3779B97F4A7C15ull);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static xq_tournament *event_with(int n, int rounds, uint64_t *seed)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cfg.rounds = rounds;
  xq_tournament *ev = xq_tournament_new(&cfg, "test");
  cr_assert_not_null(ev);
  for (int i = 0; i < n; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "棋手%d", i + 1);
    p.rating = seed ? 1200 + (int)(rnd(seed) % 1400) : 2600 - 10 * i;
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  cr_assert_eq(xq_assign_pnos(ev), XQ_OK);
  return ev;
}

/* ------------------------------------------------------------------ */
/* Round 1 and colours                                                 */
/* ------------------------------------------------------------------ */

Test(round1, adjacent_pairs_with_board_parity_colours)
{
  /* Shaanxi 2019: 首轮以临近配对…单号台次小号先走，双号台次大号先走
   * (1对2、4对3、5对6、8对7); 9 players: the 9th gets the bye */
  xq_tournament *ev = event_with(9, 7, NULL);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_round1(ev, &pr), XQ_OK);
  const int want[5][2] = {{1, 2}, {4, 3}, {5, 6}, {8, 7}, {9, 0}};
  cr_assert_eq(pr.nboards, 5);
  for (int b = 0; b < 5; b++) {
    cr_assert_eq(pr.boards[b].red, want[b][0], "board %d", b + 1);
    cr_assert_eq(pr.boards[b].black, want[b][1], "board %d", b + 1);
  }
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

Test(round1, numbers_by_rating_and_absent_players_left_out)
{
  xq_tournament *ev = xq_tournament_new(NULL, "r1");
  const int ratings[6] = {1800, 2400, 2000, 2400, 1500, 2100};
  for (int i = 0; i < 6; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "P%d", i + 1);
    p.rating = ratings[i];
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  cr_assert_eq(xq_assign_pnos(ev), XQ_OK);
  /* by rating, equal ratings in registration order: 2, 4, 6, 3, 1, 5 */
  const int pno[6] = {5, 1, 4, 2, 6, 3};
  for (int i = 0; i < 6; i++) cr_assert_eq(ev->players[i].pno, pno[i], "player %d", i + 1);
  xq_tournament_slot(ev, 6, 1)->absent = 1; /* pairing number 3 is absent */
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_round1(ev, &pr), XQ_OK);
  /* numbers 1, 2, 4, 5, 6 remain: 1–2, 5(no.4) Red? board 2 is even: the
   * larger number, no.5 (player 1), is Red against no.4 (player 3); then no.6
   * (player 5) has the bye */
  cr_assert_eq(pr.nboards, 3);
  cr_assert_eq(pr.boards[0].red, 2); cr_assert_eq(pr.boards[0].black, 4);
  cr_assert_eq(pr.boards[1].red, 1); cr_assert_eq(pr.boards[1].black, 3);
  cr_assert_eq(pr.boards[2].red, 5); cr_assert_eq(pr.boards[2].black, 0);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

Test(round1, numbers_by_lot_are_a_reproducible_permutation)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cfg.first_round = XQ_FIRST_BY_LOT;
  cfg.lot_seed = 77;
  int first[20];
  for (int run = 0; run < 2; run++) {
    xq_tournament *ev = xq_tournament_new(&cfg, "lot");
    for (int i = 0; i < 20; i++) {
      xq_tplayer p;
      memset(&p, 0, sizeof p);
      snprintf(p.name, sizeof p.name, "P%d", i + 1);
      cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
    }
    cr_assert_eq(xq_assign_pnos(ev), XQ_OK);
    int seen[21] = {0}, identity = 1;
    for (int i = 0; i < 20; i++) {
      int k = ev->players[i].pno;
      cr_assert(k >= 1 && k <= 20);
      cr_assert_eq(seen[k]++, 0);
      if (run == 0) first[i] = k;
      else cr_assert_eq(first[i], k);
      identity &= k == i + 1;
    }
    cr_assert_not(identity, "a drawing of lots that changes nothing");
    xq_tournament_free(ev);
  }
}

static void set_game(xq_tournament *ev, int r, int red, int black, int res_red)
{
  xq_tslot *a = xq_tournament_slot(ev, red, r), *b = xq_tournament_slot(ev, black, r);
  a->opp = (uint16_t)black; a->colour = XQ_TC_RED;
  b->opp = (uint16_t)red; b->colour = XQ_TC_BLACK;
  a->res = (uint8_t)res_red;
  b->res = (uint8_t)(res_red == XQ_TR_WIN ? XQ_TR_LOSS : res_red == XQ_TR_LOSS ? XQ_TR_WIN
                     : res_red == XQ_TR_FWIN ? XQ_TR_FLOSS : res_red == XQ_TR_FLOSS ? XQ_TR_FWIN : res_red);
  if (r > ev->nrounds) ev->nrounds = r;
}

Test(colours, identical_histories_even_round_larger_number_red)
{
  /* Round 1: 1–2 and 4–3, both Red players win. Round 2 pairs the two
   * winners (1, 4) and the two losers (2, 3). Each pair has the same
   * colour history, so colour rule 5C decides: 双数轮次大号先走 — 4 Red against
   * 1, 3 Red against 2. Boards: the 2-point pair first. */
  xq_tournament *ev = event_with(4, 5, NULL);
  set_game(ev, 1, 1, 2, XQ_TR_WIN);
  set_game(ev, 1, 4, 3, XQ_TR_WIN);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_cn(ev, 2, &pr, NULL), XQ_OK);
  cr_assert_eq(pr.nboards, 2);
  cr_assert_eq(pr.boards[0].red, 4); cr_assert_eq(pr.boards[0].black, 1);
  cr_assert_eq(pr.boards[1].red, 3); cr_assert_eq(pr.boards[1].black, 2);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

Test(colours, preferences_granted_and_odd_round_smaller_number_red)
{
  /* Round 1: 1–2 draw, 4–3 draw: everyone on 1 point, one group.
   * 1 (Red) and 4 (Red) want Black, 2 and 3 want Red. 1 meets the nearest
   * player of the other row that he has not met: 3 (2 is a rematch); then
   * 4 meets 2. Step 1 grants both preferences: 3 Red v 1, 2 Red v 4.
   * Boards by the smaller pairing number: 3–1 (1) before 2–4 (2). */
  xq_tournament *ev = event_with(4, 5, NULL);
  set_game(ev, 1, 1, 2, XQ_TR_DRAW);
  set_game(ev, 1, 4, 3, XQ_TR_DRAW);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_cn(ev, 2, &pr, NULL), XQ_OK);
  cr_assert_eq(pr.nboards, 2);
  cr_assert_eq(pr.boards[0].red, 3); cr_assert_eq(pr.boards[0].black, 1);
  cr_assert_eq(pr.boards[1].red, 2); cr_assert_eq(pr.boards[1].black, 4);
  xq_tpairing_clear(&pr);

  /* Round 3 after 3–1 and 2–4 drawn: 1 has R,B; 2 B,R; 3 B,R; 4 R,B. All
   * met except 1–4 and 2–3. 1 and 4 have the same history (CD 0, last
   * Black: both want Red) and 2, 3 too: 5C in an odd round, the smaller
   * number is Red: 1–4 and 2–3. */
  set_game(ev, 2, 3, 1, XQ_TR_DRAW);
  set_game(ev, 2, 2, 4, XQ_TR_DRAW);
  cr_assert_eq(xq_pair_cn(ev, 3, &pr, NULL), XQ_OK);
  cr_assert_eq(pr.nboards, 2);
  cr_assert_eq(pr.boards[0].red, 1); cr_assert_eq(pr.boards[0].black, 4);
  cr_assert_eq(pr.boards[1].red, 2); cr_assert_eq(pr.boards[1].black, 3);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

Test(colours, no_third_red_in_a_row)
{
  /* 1 had Red twice; against 2 (who had Black twice and wants Red just as
   * strongly) 禁止连三 gives 1 Black anyway. */
  xq_tournament *ev = event_with(4, 7, NULL);
  set_game(ev, 1, 1, 3, XQ_TR_WIN);
  set_game(ev, 1, 4, 2, XQ_TR_LOSS);
  set_game(ev, 2, 1, 4, XQ_TR_WIN);
  set_game(ev, 2, 3, 2, XQ_TR_LOSS);
  cr_assert_not(xq_pair_colours_ok(ev, 3, 1, 2), "a third Red in a row");
  cr_assert(xq_pair_colours_ok(ev, 3, 2, 1));
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_cn(ev, 3, &pr, NULL), XQ_OK);
  cr_assert_eq(pr.boards[0].red, 2); cr_assert_eq(pr.boards[0].black, 1);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

Test(pairing, no_pairing_when_everyone_has_met)
{
  /* 4 players, 3 rounds of a round robin: round 4 has no pairing */
  xq_tournament *ev = event_with(4, 5, NULL);
  set_game(ev, 1, 1, 2, XQ_TR_DRAW); set_game(ev, 1, 3, 4, XQ_TR_DRAW);
  set_game(ev, 2, 3, 1, XQ_TR_DRAW); set_game(ev, 2, 2, 4, XQ_TR_DRAW);
  set_game(ev, 3, 1, 4, XQ_TR_DRAW); set_game(ev, 3, 2, 3, XQ_TR_DRAW);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_cn(ev, 4, &pr, NULL), XQ_ENOPAIRING);
  cr_assert_null(pr.boards);
  xq_tournament_free(ev);
}

/* ------------------------------------------------------------------ */
/* The property test                                                   */
/* ------------------------------------------------------------------ */

static int is_played(const xq_tslot *s)
{
  return s->opp && (s->res == XQ_TR_WIN || s->res == XQ_TR_DRAW || s->res == XQ_TR_LOSS);
}

static int met_before(const xq_tournament *ev, int a, int b, int round)
{
  for (int r = 1; r < round; r++)
    if (xq_tournament_slot(ev, a, r)->opp == b) return 1; /* forfeits count */
  return 0;
}

static int may_take(const xq_tournament *ev, int id, int round, int c)
{
  int reds = 0, blacks = 0, l1 = 0, l2 = 0;
  if (round == ev->cfg.rounds && 2 * xq_tournament_points(ev, id, round - 1) > (round - 1) * ev->cfg.win)
    return 1; /* last-round top-scorer */
  for (int r = 1; r < round; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    if (!is_played(s)) continue;
    reds += s->colour == XQ_TC_RED;
    blacks += s->colour == XQ_TC_BLACK;
    l2 = l1;
    l1 = s->colour;
  }
  reds += c == XQ_TC_RED;
  blacks += c == XQ_TC_BLACK;
  return abs(reds - blacks) <= 2 && !(l1 == c && l2 == c);
}

static int bye_ok(const xq_tournament *ev, int id, int round)
{
  for (int r = 1; r < round; r++) {
    int res = xq_tournament_slot(ev, id, r)->res;
    if (res == XQ_TR_PAB || res == XQ_TR_FWIN) return 0;
  }
  return 1;
}

static int to_pair(const xq_tournament *ev, int id, int round)
{
  const xq_tslot *s = xq_tournament_slot(ev, id, round);
  const xq_tplayer *p = &ev->players[id - 1];
  if (s->absent || s->opp || s->res != XQ_TR_NONE) return 0;
  if (p->withdrawn && p->withdrawn <= round) return 0;
  int missed = 0;
  for (int r = 1; r < round; r++) {
    int res = xq_tournament_slot(ev, id, r)->res;
    missed += res == XQ_TR_FLOSS || res == XQ_TR_ZPB;
  }
  return missed < 2; /* two missed rounds withdraw */
}

static int can_meet(const xq_tournament *ev, int round, int a, int b)
{
  return !met_before(ev, a, b, round) &&
         ((may_take(ev, a, round, XQ_TC_RED) && may_take(ev, b, round, XQ_TC_BLACK)) ||
          (may_take(ev, a, round, XQ_TC_BLACK) && may_take(ev, b, round, XQ_TC_RED)));
}

#define BF_MAX 12  /* brute force up to this many vertices (incl. the bye) */

typedef struct bf {
  const xq_tournament *ev;
  int round, np, nv;
  int id[BF_MAX];     /* pool in pairing order (points desc, number asc) */
  int pts[BF_MAX];
  int adj[BF_MAX][BF_MAX];
  int ours[BF_MAX];   /* our partner index, np = the bye */
  int mate[BF_MAX];
  long valid;         /* complete pairings enumerated */
  int violation;
  int minbye;         /* lowest score of a bye recipient in such pairings */
} bf;

/* Walk the groups of matching `m`; returns in lcount[g] the leftovers and
 * in arr[g][v] the partner inside the group's pool (-1 none). */
static int decompose(const bf *b, const int *m, int lcount[BF_MAX], int arr[BF_MAX][BF_MAX])
{
  int pool[BF_MAX], inpool[BF_MAX], np = 0, g = 0;
  for (int i = 0; i < b->np;) {
    int j = i;
    while (j < b->np && b->pts[j] == b->pts[i]) j++;
    for (int k = i; k < j; k++) pool[np++] = k;
    memset(inpool, 0, sizeof inpool);
    for (int k = 0; k < np; k++) inpool[pool[k]] = 1;
    int left[BF_MAX], nl = 0;
    for (int v = 0; v < BF_MAX; v++) arr[g][v] = -1;
    for (int k = 0; k < np; k++) {
      int v = pool[k], w = m[v];
      if (w < b->np && inpool[w]) arr[g][v] = w;
      else left[nl++] = v;
    }
    lcount[g] = nl;
    memcpy(pool, left, sizeof(int) * (size_t)nl);
    np = nl;
    g++;
    i = j;
  }
  return g;
}

static void bf_leaf(bf *b)
{
  int lq[BF_MAX], lo[BF_MAX], aq[BF_MAX][BF_MAX], ao[BF_MAX][BF_MAX];
  int ng = decompose(b, b->mate, lq, aq), first = ng;
  decompose(b, b->ours, lo, ao);
  b->valid++;
  for (int g = 0; g < ng && first == ng; g++)
    if (memcmp(aq[g], ao[g], sizeof aq[g])) first = g;
  /* same higher groups, a different arrangement here: it must not leave
   * fewer players over than ours */
  if (first < ng && lq[first] < lo[first] && !b->violation) b->violation = first + 1;
  /* the same groups above the lowest: the bye must go to the lowest score
   * any such pairing allows */
  if (first >= ng - 1 && b->nv > b->np) {
    int who = b->mate[b->np];
    if (b->minbye < 0 || b->pts[who] < b->minbye) b->minbye = b->pts[who];
  }
}

static void bf_rec(bf *b)
{
  int i = 0;
  while (i < b->nv && b->mate[i] >= 0) i++;
  if (i == b->nv) { bf_leaf(b); return; }
  for (int j = i + 1; j < b->nv; j++) {
    if (b->mate[j] >= 0 || !b->adj[i][j]) continue;
    b->mate[i] = j; b->mate[j] = i;
    bf_rec(b);
    b->mate[i] = b->mate[j] = -1;
  }
}

static int cmp_pool(const void *x, const void *y, void *arg)
{
  const bf *b = arg;
  int a = *(const int *)x, c = *(const int *)y;
  int pa = xq_tournament_points(b->ev, a, b->round - 1), pc = xq_tournament_points(b->ev, c, b->round - 1);
  if (pa != pc) return pc - pa;
  return b->ev->players[a - 1].pno - b->ev->players[c - 1].pno;
}

/* Set up the brute force for the pool; returns 0 when it is too big. */
static int bf_setup(bf *b, const xq_tournament *ev, int round)
{
  memset(b, 0, sizeof *b);
  b->ev = ev;
  b->round = round;
  for (int id = 1; id <= ev->n; id++)
    if (to_pair(ev, id, round)) {
      if (b->np == BF_MAX) return 0;
      b->id[b->np++] = id;
    }
  b->nv = b->np + b->np % 2;
  b->minbye = -1;
  if (b->nv > BF_MAX) return 0;
  qsort_r(b->id, (size_t)b->np, sizeof b->id[0], cmp_pool, b);
  for (int i = 0; i < b->np; i++) b->pts[i] = xq_tournament_points(ev, b->id[i], round - 1);
  for (int i = 0; i < b->nv; i++) {
    b->mate[i] = -1;
    for (int j = 0; j < b->nv; j++) {
      if (i == j) continue;
      if (i == b->np || j == b->np) b->adj[i][j] = bye_ok(ev, b->id[i == b->np ? j : i], round);
      else b->adj[i][j] = can_meet(ev, round, b->id[i], b->id[j]);
    }
  }
  return 1;
}

/* Brute-force check of a round's pairing: -1 when the pool is too big,
 * 0 when every score group leaves over no more players than it must and
 * the bye went to the lowest score it could, g + 1 for the first group g
 * that sends down more than needed, or BF_BAD_BYE. */
#define BF_BAD_BYE 100
static int brute_check(const xq_tournament *ev, int round, const xq_tpairing *pr)
{
  bf b;
  if (!bf_setup(&b, ev, round)) return -1;
  for (int i = 0; i < b.np; i++) {
    b.ours[i] = -1;
    for (int k = 0; k < pr->nboards; k++) {
      int other = pr->boards[k].red == b.id[i] ? pr->boards[k].black
                : pr->boards[k].black == b.id[i] ? pr->boards[k].red : -1;
      if (other < 0) continue;
      b.ours[i] = b.np; /* the bye, unless found below */
      for (int j = 0; j < b.np; j++)
        if (b.id[j] == other) b.ours[i] = j;
    }
    cr_assert(b.ours[i] >= 0);
  }
  if (b.nv > b.np) b.ours[b.np] = -1;
  bf_rec(&b);
  cr_assert_gt(b.valid, 0);
  if (b.violation) return b.violation;
  for (int i = 0; i < b.np; i++)
    if (b.ours[i] == b.np && b.pts[i] != b.minbye) return BF_BAD_BYE;
  return 0;
}

typedef struct stats { int rounds, boards, byes, brute, floats; } stats;

static void check_round(const xq_tournament *ev, int round, const xq_tpairing *pr, stats *st)
{
  int *seen = calloc((size_t)ev->n + 1, sizeof *seen), byes = 0, npool = 0;
  for (int b = 0; b < pr->nboards; b++) {
    int r = pr->boards[b].red, k = pr->boards[b].black;
    cr_assert(r >= 1 && r <= ev->n);
    cr_assert_eq(seen[r]++, 0, "round %d: player %d paired twice", round, r);
    if (!k) {
      byes++;
      cr_assert_eq(b, pr->nboards - 1, "the bye is the last board");
      cr_assert(bye_ok(ev, r, round), "round %d: player %d gets a second bye", round, r);
      continue;
    }
    cr_assert_eq(seen[k]++, 0, "round %d: player %d paired twice", round, k);
    cr_assert_not(met_before(ev, r, k, round), "round %d: %d and %d meet again", round, r, k);
    cr_assert(may_take(ev, r, round, XQ_TC_RED), "round %d: %d may not be Red", round, r);
    cr_assert(may_take(ev, k, round, XQ_TC_BLACK), "round %d: %d may not be Black", round, k);
    if (xq_tournament_points(ev, r, round - 1) != xq_tournament_points(ev, k, round - 1)) st->floats++;
  }
  for (int id = 1; id <= ev->n; id++) {
    int want = to_pair(ev, id, round);
    npool += want;
    cr_assert_eq(seen[id], want, "round %d: player %d %s", round, id, want ? "left out" : "paired");
  }
  cr_assert_eq(byes, npool % 2, "round %d: %d byes for %d players", round, byes, npool);
  st->byes += byes;
  st->boards += pr->nboards;
  st->rounds++;
  free(seen);

  int v = brute_check(ev, round, pr);
  cr_assert_neq(v, BF_BAD_BYE, "round %d: the bye could have gone to a lower score", round);
  cr_assert(v <= 0, "round %d: score group %d sends down more players than it must", round, v);
  if (v == 0) st->brute++;
}

/* Random results: mostly games, some forfeits (+-, -+, --). */
static void play_round(xq_tournament *ev, const xq_tpairing *pr, uint64_t *seed)
{
  cr_assert_eq(xq_tournament_apply_pairing(ev, pr), XQ_OK);
  for (int b = 0; b < pr->nboards; b++) {
    int r = pr->boards[b].red, k = pr->boards[b].black;
    if (!k) continue;
    int x = (int)(rnd(seed) % 100), res;
    if (x < 40) res = XQ_TR_WIN;
    else if (x < 70) res = XQ_TR_DRAW;
    else if (x < 95) res = XQ_TR_LOSS;
    else if (x < 97) res = XQ_TR_FWIN;
    else if (x < 99) res = XQ_TR_FLOSS;
    else res = -1;
    if (res < 0) { /* both absent: a double forfeit */
      xq_tournament_slot(ev, r, pr->round)->res = XQ_TR_FLOSS;
      xq_tournament_slot(ev, k, pr->round)->res = XQ_TR_FLOSS;
    } else {
      set_game(ev, pr->round, r, k, res);
    }
  }
}

static void run_event(int n, int rounds, uint64_t seed, stats *st)
{
  uint64_t s = seed;
  xq_tournament *ev = event_with(n, rounds, &s);
  for (int round = 1; round <= rounds; round++) {
    /* announced absences (3 %) and withdrawals (1 %) before the round */
    for (int id = 1; id <= n; id++) {
      int x = (int)(rnd(&s) % 100);
      if (x < 3) xq_tournament_slot(ev, id, round)->absent = 1;
      else if (x < 4 && !ev->players[id - 1].withdrawn) ev->players[id - 1].withdrawn = round;
    }
    xq_tpairing pr = {0}, again = {0};
    xq_pair_stats ps;
    int rc = xq_pair_cn(ev, round, &pr, &ps);
    if (rc == XQ_ENOPAIRING) {
      bf b;
      if (bf_setup(&b, ev, round)) {
        bf_rec(&b);
        cr_assert_eq(b.valid, 0, "seed %llu round %d: reported unpairable, but %ld pairings exist",
                     (unsigned long long)seed, round, b.valid);
      }
      break;
    }
    cr_assert_eq(rc, XQ_OK, "seed %llu n %d round %d: %s", (unsigned long long)seed, n, round,
                 xq_strerror(rc));
    check_round(ev, round, &pr, st);
    cr_assert_eq(xq_pair_cn(ev, round, &again, NULL), XQ_OK);
    cr_assert_eq(again.nboards, pr.nboards);
    cr_assert_arr_eq(again.boards, pr.boards, sizeof *pr.boards * (size_t)pr.nboards,
                     "seed %llu round %d: not deterministic", (unsigned long long)seed, round);
    play_round(ev, &pr, &s);
    for (int id = 1; id <= n; id++) /* an absence becomes a zero-point bye */
      if (xq_tournament_slot(ev, id, round)->absent) cr_assert_eq(xq_tournament_slot(ev, id, round)->res, XQ_TR_ZPB);
    xq_tpairing_clear(&pr);
    xq_tpairing_clear(&again);
  }
  xq_tournament_free(ev);
}

Test(property, checker_catches_needless_floats)
{
  /* 1 and 2 won round 1, 3 and 4 lost. Pairing the winners with the
   * losers (1–3, 2–4) floats both winners although 1–2 is possible. */
  xq_tournament *ev = event_with(6, 5, NULL);
  set_game(ev, 1, 1, 5, XQ_TR_WIN);
  set_game(ev, 1, 6, 2, XQ_TR_LOSS);
  set_game(ev, 1, 3, 4, XQ_TR_DRAW);
  xq_tboard bad[3] = {{1, 3}, {4, 2}, {5, 6}}, good[3] = {{1, 2}, {5, 3}, {4, 6}};
  xq_tpairing pr = {.round = 2, .nboards = 3, .boards = bad};
  cr_assert_eq(brute_check(ev, 2, &pr), 1);
  /* 3–4 drew in round 1, so both must float down to 5 and 6 */
  pr.boards = good;
  cr_assert_eq(brute_check(ev, 2, &pr), 0);
  /* 7 players: 7 joins round 2 with 0 points; giving the bye to 3
   * (1 point) while 7 could have it is caught */
  xq_tournament_free(ev);
  ev = event_with(7, 5, NULL);
  set_game(ev, 1, 1, 5, XQ_TR_WIN);
  set_game(ev, 1, 6, 2, XQ_TR_LOSS);
  set_game(ev, 1, 3, 4, XQ_TR_DRAW);
  xq_tournament_slot(ev, 7, 1)->res = XQ_TR_ZPB;
  xq_tboard badbye[4] = {{1, 2}, {4, 5}, {6, 7}, {3, 0}}, goodbye[4] = {{1, 2}, {5, 3}, {4, 6}, {7, 0}};
  pr.nboards = 4;
  pr.boards = badbye;
  cr_assert_eq(brute_check(ev, 2, &pr), BF_BAD_BYE);
  pr.boards = goodbye;
  cr_assert_eq(brute_check(ev, 2, &pr), 0);
  xq_tpairing ours = {0};
  cr_assert_eq(xq_pair_cn(ev, 2, &ours, NULL), XQ_OK);
  cr_assert_eq(brute_check(ev, 2, &ours), 0);
  cr_assert_eq(ours.boards[0].red + ours.boards[0].black, 3, "the winners meet on board 1");
  xq_tpairing_clear(&ours);
  xq_tournament_free(ev);
}

Test(property, small_events_checked_by_brute_force)
{
  stats st = {0};
  for (uint64_t seed = 1; seed <= 150; seed++) {
    uint64_t s = seed * 7919;
    int n = 4 + (int)(rnd(&s) % 9);       /* 4..12 players */
    int rounds = 3 + (int)(rnd(&s) % 5);  /* 3..7 rounds */
    run_event(n, rounds, seed, &st);
  }
  cr_log_info("small events: %d rounds, %d boards, %d byes, %d brute-force checks, %d floats",
              st.rounds, st.boards, st.byes, st.brute, st.floats);
  cr_assert_gt(st.brute, 300);
  cr_assert_gt(st.byes, 50);
  cr_assert_gt(st.floats, 50);
}

Test(property, larger_events)
{
  stats st = {0};
  for (uint64_t seed = 1000; seed < 1060; seed++) {
    uint64_t s = seed;
    int n = 13 + (int)(rnd(&s) % 120);    /* 13..132 players */
    int rounds = 5 + (int)(rnd(&s) % 9);  /* 5..13 rounds */
    run_event(n, rounds, seed, &st);
  }
  cr_log_info("larger events: %d rounds, %d boards, %d byes, %d floats", st.rounds, st.boards,
              st.byes, st.floats);
  cr_assert_gt(st.rounds, 400);
}

/* two missed rounds withdraw a player, consecutive or not; a
 * regulation may count only missed rounds in a row (Shaanxi 补充规定 四.1:
 * 连续弃权两轮者不再编排). Player 1 forfeits rounds 1 and 3, player 3
 * rounds 2 and 3; round 4 is paired under both rules. */
static int paired_in(const xq_tpairing *pr, int id)
{
  for (int b = 0; b < pr->nboards; b++)
    if (pr->boards[b].red == id || pr->boards[b].black == id) return 1;
  return 0;
}

Test(withdrawal, two_missed_rounds_or_two_in_a_row)
{
  for (int consecutive = 0; consecutive <= 1; consecutive++) {
    xq_tournament *ev = event_with(8, 5, NULL);
    ev->cfg.withdraw_consecutive = consecutive;
    set_game(ev, 1, 1, 2, XQ_TR_FLOSS);
    set_game(ev, 1, 3, 4, XQ_TR_WIN);
    set_game(ev, 1, 5, 6, XQ_TR_DRAW);
    set_game(ev, 1, 7, 8, XQ_TR_LOSS);
    set_game(ev, 2, 1, 4, XQ_TR_WIN);
    set_game(ev, 2, 3, 2, XQ_TR_FLOSS);
    set_game(ev, 2, 6, 7, XQ_TR_DRAW);
    set_game(ev, 2, 8, 5, XQ_TR_LOSS);
    set_game(ev, 3, 1, 5, XQ_TR_FLOSS);
    set_game(ev, 3, 3, 6, XQ_TR_FLOSS);
    set_game(ev, 3, 2, 7, XQ_TR_WIN);
    set_game(ev, 3, 4, 8, XQ_TR_DRAW);
    xq_tpairing pr = {0};
    cr_assert_eq(xq_pair_cn(ev, 4, &pr, NULL), XQ_OK);
    cr_assert_eq(paired_in(&pr, 1), consecutive, "rounds 1 and 3 missed: withdrawn only when any two count");
    cr_assert_not(paired_in(&pr, 3), "rounds 2 and 3 missed: withdrawn under both rules");
    cr_assert(paired_in(&pr, 2) && paired_in(&pr, 5));
    xq_tournament_apply_withdrawals(ev, 3);
    cr_assert_eq(ev->players[0].withdrawn, consecutive ? 0 : 4);
    cr_assert_eq(ev->players[2].withdrawn, 4);
    xq_tpairing_clear(&pr);
    xq_tournament_free(ev);
  }
}

/* Does pairing `pr` seat a and b at one board? */
static int seated_together(const xq_tpairing *pr, int a, int b)
{
  for (int i = 0; i < pr->nboards; i++) {
    const xq_tboard *d = &pr->boards[i];
    if ((d->red == a && d->black == b) || (d->red == b && d->black == a)) return 1;
  }
  return 0;
}

/* forbidden pairs (TRF XXP 4 22, XXP 12 7 9) are never paired;
 * the same event without them pairs 4-22 and 7-9, so the lines are what
 * kept them apart. */
Test(pairing, forbidden_pairs_are_not_paired)
{
  xq_tournament *ev;
  xq_error err = {0};
  cr_assert_eq(xq_trf_read(XQ_TEST_DATA "/pairing/forbidden_xxp.trf", &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->nforbid, 4, "4-22, 12-7, 12-9, 7-9");
  cr_assert(xq_tournament_forbidden(ev, 22, 4, 5) && xq_tournament_forbidden(ev, 9, 7, 1) && !xq_tournament_forbidden(ev, 4, 12, 5));
  int round = xq_trf_next_round(ev);
  xq_tpairing pr;
  cr_assert_eq(xq_pair_cn(ev, round, &pr, NULL), XQ_OK);
  const int pairs[4][2] = {{4, 22}, {12, 7}, {12, 9}, {7, 9}};
  for (int k = 0; k < 4; k++)
    cr_assert(!seated_together(&pr, pairs[k][0], pairs[k][1]), "%d-%d paired", pairs[k][0], pairs[k][1]);
  xq_tpairing_clear(&pr);
  ev->nforbid = 0;
  cr_assert_eq(xq_pair_cn(ev, round, &pr, NULL), XQ_OK);
  cr_assert(seated_together(&pr, 4, 22) && seated_together(&pr, 7, 9), "without the lines they meet");
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

/* TRF-2026 260: forbidden for the rounds it names only; a bad line is an
 * error with its line number. */
Test(pairing, forbidden_pairs_by_round_and_bad_lines)
{
  const char *head = "012 t\nXXR 3\n"
                     "001    1      A                                 2000                               0.0\n"
                     "001    2      B                                 1990                               0.0\n";
  char text[1024];
  xq_tournament *ev;
  xq_error err = {0};
  snprintf(text, sizeof text, "%s260   2   3    1    2\n", head);
  cr_assert_eq(xq_trf_parse(text, strlen(text), &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert(!xq_tournament_forbidden(ev, 1, 2, 1) && xq_tournament_forbidden(ev, 1, 2, 2) && xq_tournament_forbidden(ev, 2, 1, 3));
  xq_tpairing pr;
  cr_assert_eq(xq_pair_cn(ev, 1, &pr, NULL), XQ_OK);
  cr_assert(seated_together(&pr, 1, 2), "round 1 is not forbidden");
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  const char *bad[] = {"XXP 1\n", "XXP 1 x\n", "260   2   3    1\n", "XXP 1 3\n", "260   3   2    1    2\n"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    snprintf(text, sizeof text, "%s%s", head, bad[i]);
    memset(&err, 0, sizeof err);
    cr_assert_eq(xq_trf_parse(text, strlen(text), &ev, &err), XQ_EINVAL, "%s", bad[i]);
    cr_assert(strstr(err.msg, "forbidden"), "%s: %s", bad[i], err.msg);
  }
}

/* ------------------------------------------------------------------ */
/* The arbiter's changes before publishing (pair_amend.c)              */
/* ------------------------------------------------------------------ */

Test(amend, swaps_colours_and_moves_in_order_and_warns_of_broken_rules)
{
  xq_tournament *ev = event_with(6, 5, NULL);
  /* round 1 was 1-2, 3-4, 5-6, Red winning each */
  set_game(ev, 1, 1, 2, XQ_TR_WIN);
  set_game(ev, 1, 3, 4, XQ_TR_WIN);
  set_game(ev, 1, 5, 6, XQ_TR_WIN);
  xq_tboard b[3] = {{2, 3}, {4, 5}, {6, 1}};
  xq_tpairing pr = {2, 3, b};
  char warn[XQ_TOURNEY_WARN_MAX];
  xq_error err = {0};
  cr_assert_eq(xq_pairing_amend(ev, &pr, NULL, 0, warn, sizeof warn, &err), XQ_OK);
  cr_assert_str_eq(warn, "", "the computed pairing breaks nothing");
  /* 3 and 6 trade places, board 2 trades colours, board 3 becomes board 1 */
  xq_tchange ch[3] = {{XQ_TCH_SWAP, 3, 6, "same club"}, {XQ_TCH_COLOURS, 2, 0, "red twice"}, {XQ_TCH_MOVE, 3, 1, "stage board"}};
  cr_assert_eq(xq_pairing_amend(ev, &pr, ch, 3, warn, sizeof warn, &err), XQ_OK, "%s", err.msg);
  /* after the swap: {2,6} {4,5} {3,1}; colours of board 2: {5,4}; board 3 to 1: {3,1} {2,6} {5,4} */
  cr_assert(b[0].red == 3 && b[0].black == 1 && b[1].red == 2 && b[1].black == 6 && b[2].red == 5 && b[2].black == 4,
            "%d-%d %d-%d %d-%d", b[0].red, b[0].black, b[1].red, b[1].black, b[2].red, b[2].black);
  /* 5 had Red and has it again, 4 had Black: within the limits; no rematch */
  cr_assert_str_eq(warn, "", "%s", warn);
  /* a swap that makes a rematch is said, not refused */
  xq_tchange again = {XQ_TCH_SWAP, 3, 2, "a mistake"};
  cr_assert_eq(xq_pairing_amend(ev, &pr, &again, 1, warn, sizeof warn, &err), XQ_OK);
  cr_assert(strstr(warn, "board 1: these players met in round 1"), "%s", warn);
  /* a change that names nothing is refused */
  xq_tchange none = {XQ_TCH_COLOURS, 9, 0, "x"};
  cr_assert_eq(xq_pairing_amend(ev, &pr, &none, 1, warn, sizeof warn, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "no board 9"), "%s", err.msg);
  xq_tournament_free(ev);
}

/* ------------------------------------------------------------------ */
/* The round-robin table (docs/tourney.md, "Round robins")             */
/* ------------------------------------------------------------------ */

/* One round of the table by 韩宽's construction, independently of the
 * closed form: round 1 first against last moving inward; then N meets
 * the number listed last in the round before (N Red in even rounds), and
 * the others, N taken out, are listed again from the end: Black, then
 * Red. prev/next: 2·(N/2) numbers in listing order. */
static void rotate(int N, int r, const int *prev, int *next)
{
  if (r == 1) {
    for (int b = 0; b < N / 2; b++) { next[2 * b] = b + 1; next[2 * b + 1] = N - b; }
    return;
  }
  int L[64], n = 0;
  for (int i = 0; i < N; i++)
    if (prev[i] != N) L[n++] = prev[i];
  int x = L[--n];
  next[0] = r % 2 == 0 ? N : x;
  next[1] = r % 2 == 0 ? x : N;
  for (int b = 1; b < N / 2; b++) {
    next[2 * b + 1] = L[--n];
    next[2 * b] = L[--n];
  }
}

Test(roundrobin, the_closed_form_is_the_rotation_and_everyone_meets_once)
{
  for (int N = 2; N <= 60; N += 2) {
    int prev[64], cur[64];
    unsigned char met[64][64];
    memset(met, 0, sizeof met);
    for (int r = 1; r <= N - 1; r++) {
      rotate(N, r, prev, cur);
      for (int k = 1; k <= N / 2; k++) {
        int red, black;
        xq_rr_table_board(N, r, k, &red, &black);
        cr_assert(red == cur[2 * k - 2] && black == cur[2 * k - 1], "N %d round %d board %d: %d-%d, rotation %d-%d",
                  N, r, k, red, black, cur[2 * k - 2], cur[2 * k - 1]);
        cr_assert(!met[red][black] && red != black, "N %d: %d and %d meet twice", N, red, black);
        met[red][black] = met[black][red] = 1;
      }
      memcpy(prev, cur, sizeof cur);
    }
  }
}

Test(roundrobin, the_tables_are_the_published_ones)
{
  FILE *f = fopen(XQ_TEST_DATA "/berger-tables.txt", "r");
  cr_assert_not_null(f);
  char line[256];
  int checked = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    int N, r, at, twice = strstr(line, "double") != NULL;
    char *p = strchr(line, ':');
    cr_assert(p && sscanf(line, "%d", &N) == 1 && sscanf(p - 2, "%d", &r) == 1, "%s", line);
    xq_tboard b[32];
    int nb = xq_rr_round(N, twice ? 2 : 1, 1, r, b);
    cr_assert_eq(nb, N / 2, "%s", line);
    p++;
    for (int k = 0; k < nb; k++) {
      int red, black;
      cr_assert_eq(sscanf(p, " %d-%d%n", &red, &black, &at), 2, "%s", line);
      p += at;
      cr_assert(b[k].red == red && b[k].black == black, "%s: board %d is %d-%d", line, k + 1, b[k].red, b[k].black);
      checked++;
    }
  }
  fclose(f);
  cr_assert_geq(checked, 70);
}

Test(roundrobin, an_odd_count_gives_each_entrant_one_bye_listed_last)
{
  for (int n = 3; n <= 21; n += 2) {
    int byes[32] = {0};
    for (int r = 1; r <= xq_rr_rounds(n, 1); r++) {
      xq_tboard b[32];
      int nb = xq_rr_round(n, 1, 1, r, b);
      cr_assert_eq(nb, n / 2 + 1);
      for (int k = 0; k < nb - 1; k++) cr_assert(b[k].red <= n && b[k].black >= 1 && b[k].black <= n);
      cr_assert_eq(b[nb - 1].black, 0, "n %d round %d: the bye is last", n, r);
      byes[b[nb - 1].red]++;
    }
    for (int no = 1; no <= n; no++) cr_assert_eq(byes[no], 1, "n %d: number %d sits out %d times", n, no, byes[no]);
  }
  xq_tboard b[4];
  xq_rr_round(5, 1, 1, 1, b);
  cr_assert(b[2].red == 1 && b[2].black == 0, "5 entrants: number 1 sits out in round 1 (人数逢单，1号轮空)");
  cr_assert_eq(xq_rr_round(5, 1, 1, 6, b), -1, "round 6 of 5 entrants");
  cr_assert_eq(xq_rr_round(5, 3, 1, 1, b), -1, "three cycles");
}

/* The longest run of one colour of any entrant over a double round robin. */
static int longest_run(int n, int swap)
{
  int worst = 0;
  for (int no = 1; no <= n; no++) {
    int run = 0, last = 0;
    for (int r = 1; r <= xq_rr_rounds(n, 2); r++) {
      xq_tboard b[32];
      int nb = xq_rr_round(n, 2, swap, r, b), c = 0;
      for (int k = 0; k < nb; k++)
        if (b[k].black && (b[k].red == no || b[k].black == no)) c = b[k].red == no ? 1 : 2;
      if (!c) { run = 0; last = 0; continue; } /* the bye breaks a run */
      run = c == last ? run + 1 : 1;
      last = c;
      if (run > worst) worst = run;
    }
  }
  return worst;
}

Test(roundrobin, a_double_round_robin_swaps_two_rounds_against_three_like_colours)
{
  for (int n = 4; n <= 20; n++) {
    cr_assert_leq(longest_run(n, 1), 2, "n %d with the swap: %d like colours running", n, longest_run(n, 1));
    if (n % 2 == 0) cr_assert_eq(longest_run(n, 0), 3, "n %d without the swap", n);
    /* the second cycle is the first with colours reversed */
    xq_tboard a[16], b[16];
    int per = xq_rr_rounds(n, 1);
    for (int r = 1; r <= per; r++) {
      int nb = xq_rr_round(n, 1, 0, r, a);
      cr_assert_eq(xq_rr_round(n, 2, 1, per + r, b), nb);
      for (int k = 0; k < nb; k++)
        cr_assert(a[k].black ? a[k].red == b[k].black && a[k].black == b[k].red : b[k].red == a[k].red);
    }
  }
}
