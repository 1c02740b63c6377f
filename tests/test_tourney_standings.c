/*
 * test_tourney_standings.c -- tie-break formulas on small events computed
 * by hand (docs/tourney.md, "Standings and tie-breaks"), presets, no shared places, players and groups,
 * and the event itself (its deep copy).
 *
 * Points are half-units inside xqref: at 2/1/0 a win is 4, a draw 2. The
 * hand computations below are in ordinary points; the asserts double them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knockout.h"
#include "pair/pair.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "tourney.h"

static void game(xq_tournament *ev, int r, int red, int black, const char *res)
{
  xq_tslot *a = xq_tournament_slot(ev, red, r), *b = xq_tournament_slot(ev, black, r);
  a->opp = (uint16_t)black; a->colour = XQ_TC_RED;
  b->opp = (uint16_t)red; b->colour = XQ_TC_BLACK;
  if (!strcmp(res, "1-0")) { a->res = XQ_TR_WIN; b->res = XQ_TR_LOSS; }
  else if (!strcmp(res, "0-1")) { a->res = XQ_TR_LOSS; b->res = XQ_TR_WIN; }
  else if (!strcmp(res, "=")) { a->res = b->res = XQ_TR_DRAW; }
  else if (!strcmp(res, "+-")) { a->res = XQ_TR_FWIN; b->res = XQ_TR_FLOSS; }
  else if (!strcmp(res, "*")) { a->res = b->res = XQ_TR_NONE; } /* paired, not over */
  else cr_assert_fail("bad result");
  if (r > ev->nrounds) ev->nrounds = r;
}

static void bye(xq_tournament *ev, int r, int id)
{
  xq_tslot *s = xq_tournament_slot(ev, id, r);
  s->res = XQ_TR_PAB;
  if (r > ev->nrounds) ev->nrounds = r;
}

static xq_tournament *players(int n, const char *tb)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  if (tb) cr_assert_eq(xq_tconfig_tiebreaks(&cfg, tb, NULL), XQ_OK, "%s", tb);
  xq_tournament *ev = xq_tournament_new(&cfg, "tb");
  for (int i = 0; i < n; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%c", 'A' + i);
    p.pno = i + 1;
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  return ev;
}

/* A, B, C, D, 3 rounds at 2/1/0 (Red first):
 *   R1: A–B 1-0, C–D =      R2: B–C 0-1, D–A 1-0      R3: A–C =, B–D 1-0
 * Points: A 2+0+1 = 3, B 0+0+2 = 2, C 1+2+1 = 4, D 1+2+0 = 3.
 * OS (对手分): A: B2+D3+C4 = 9; B: A3+C4+D3 = 10; C: D3+B2+A3 = 8; D: C4+A3+B2 = 9.
 * OS_C1: A 9-2 = 7; B 10-3 = 7; C 8-2 = 6; D 9-2 = 7.
 * PS (累进分): A 2+2+3 = 7; B 0+0+2 = 2; C 1+3+4 = 8; D 1+3+3 = 7.
 * WINS: one each. BWINS: C 1 (R2 as Black), others 0.
 * RWINS: A 1, B 1, C 0, D 1. BLACK: A 1 (R2), B 1 (R1), C 2 (R2, R3), D 2 (R1, R3).
 * SB (小分: Σ the final score of each opponent beaten + ½ Σ of each drawn,
 *   played games): A 2 + ½·4 = 4; B 3; C ½·3 + 2 + ½·3 = 5; D ½·4 + 3 = 5
 *   (the same whether a win scores 2 or 1). */
static xq_tournament *four(const char *tb)
{
  xq_tournament *ev = players(4, tb);
  game(ev, 1, 1, 2, "1-0"); game(ev, 1, 3, 4, "=");
  game(ev, 2, 2, 3, "0-1"); game(ev, 2, 4, 1, "1-0");
  game(ev, 3, 1, 3, "=");   game(ev, 3, 2, 4, "1-0");
  return ev;
}

Test(tiebreak, formulas_on_a_four_player_event)
{
  xq_tournament *ev = four(NULL);
  const struct { int tb; int64_t v[4]; } want[] = {
    {XQ_TB_PTS, {6, 4, 8, 6}},          /* half-units */
    {XQ_TB_OS, {18, 20, 16, 18}},
    {XQ_TB_OS_C1, {14, 14, 12, 14}},
    {XQ_TB_PS, {14, 4, 16, 14}},
    {XQ_TB_WINS, {1, 1, 1, 1}},
    {XQ_TB_BWINS, {0, 0, 1, 0}},
    {XQ_TB_RWINS, {1, 1, 0, 1}},
    {XQ_TB_BLACK, {1, 1, 2, 2}},
    {XQ_TB_SB, {16, 12, 20, 20}},       /* quarter-points: 4, 3, 5, 5 */
    {XQ_TB_FOULS, {0, 0, 0, 0}},
  };
  for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
    for (int id = 1; id <= 4; id++)
      cr_assert_eq(xq_tb_value(ev, want[k].tb, id, 3), want[k].v[id - 1], "%s of %c: %lld",
                   xq_tb_name(want[k].tb), 'A' + id - 1, (long long)xq_tb_value(ev, want[k].tb, id, 3));
  /* after round 2: A 2, B 0, C 3, D 3; PS A 2+2, C 1+3, D 1+3 */
  cr_assert_eq(xq_tb_value(ev, XQ_TB_PTS, 1, 2), 4);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_PS, 3, 2), 8);
  xq_tournament_free(ev);
}

static void ranks(xq_tournament *ev, const int *want, int n)
{
  xq_tstanding st[16];
  cr_assert_eq(xq_standings(ev, 0, st), XQ_OK);
  for (int i = 0; i < n; i++)
    cr_assert_eq(st[i].id, want[i], "place %d: %c, expected %c", i + 1, 'A' + st[i].id - 1, 'A' + want[i] - 1);
  for (int i = 0; i < n; i++) cr_assert_eq(st[i].rank, i + 1);
}

Test(tiebreak, presets_order_the_ties)
{
  /* 对手分方案 PTS, OS, WINS, FOULS, BWINS, BLACK, ...: C (4), then A and D
   * (3, OS 9, 1 win, no fouls, no Black win) split by games as Black:
   * D 2 > A 1. */
  xq_tournament *ev = four("os");
  const int os[4] = {3, 4, 1, 2};
  ranks(ev, os, 4);
  /* one foul for D: FOULS comes before BLACK, fewer ranks higher */
  xq_tournament_slot(ev, 4, 2)->fouls = 1;
  const int fouled[4] = {3, 1, 4, 2};
  ranks(ev, fouled, 4);
  xq_tournament_free(ev);
  /* PTS then DE: D beat A */
  ev = four("PTS,DE");
  ranks(ev, os, 4);
  xq_tournament_free(ev);
  /* PTS then RWINS, then LOT: A and D have one Red win each, so the lots
   * decide; whatever they say, the order is reproducible */
  ev = four("PTS,RWINS,LOT");
  xq_tstanding a[4], b[4];
  cr_assert_eq(xq_standings(ev, 0, a), XQ_OK);
  cr_assert_eq(xq_standings(ev, 0, b), XQ_OK);
  cr_assert_arr_eq(a, b, sizeof a);
  cr_assert_eq(a[0].id, 3);
  cr_assert_eq(a[3].id, 2);
  xq_tournament_free(ev);
}

Test(tiebreak, regulation_presets_on_the_fixture_event)
{
  /* On the four-player event A and D tie on 3 points, OS 9, PS 7, one win
   * each, no Black win; D beat A (DE), D has more games as Black (2 to 1)
   * and the better running totals both ways (S2: 3 to 2; PTS − pts1: 2 to
   * 1). Every preset therefore puts D before A — until D has a foul, which
   * every preset looks at before BLACK, DE and ROUNDBACK: then A is first.
   * C (4 points) and B (2) keep their places. */
  const char *presets[] = {"os", "ps", "xinjiang", "burqin", "shaanxi", "wujiaqu", "tangshan"};
  for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
    xq_tournament *ev = four(presets[i]);
    const int clean[4] = {3, 4, 1, 2}, fouled[4] = {3, 1, 4, 2};
    ranks(ev, clean, 4);
    xq_tournament_slot(ev, 4, 1)->fouls = 1;
    ranks(ev, fouled, 4);
    xq_tournament_free(ev);
  }
}

Test(tiebreak, roundback_directions)
{
  /* Two players on 3 points after 3 rounds (2/1/0):
   *   X scored 2, 0, 1: S = 2, 2, 3      Y scored 0, 2, 1: S = 0, 2, 3
   * from_last compares (S2, S1) = X (2, 2), Y (2, 0): X first.
   * from_first compares (PTS−pts1, PTS−pts1−pts2) = X (1, 1), Y (3, 1): Y first.
   * Opponents Z and W absorb the other results. */
  for (int dir = 0; dir < 2; dir++) {
    xq_tournament *ev = players(4, dir ? "PTS,ROUNDBACK_FIRST" : "PTS,ROUNDBACK");
    /* X = 1, Y = 2, Z = 3, W = 4 */
    game(ev, 1, 1, 3, "1-0"); game(ev, 1, 2, 4, "0-1");
    game(ev, 2, 1, 4, "0-1"); game(ev, 2, 2, 3, "1-0");
    game(ev, 3, 1, 2, "=");   game(ev, 3, 3, 4, "=");
    /* W: 2 + 2 + 1 = 5; X 3; Y 3; Z 0 + 0 + 1 = 1 */
    const int last[4] = {4, 1, 2, 3}, first[4] = {4, 2, 1, 3};
    ranks(ev, dir ? first : last, 4);
    xq_tournament_free(ev);
  }
}

Test(tiebreak, byes_forfeits_and_opponent_score)
{
  /* 3 players, 2 rounds:
   *   R1: 1–2 1-0, 3 bye (PAB, 2 points)
   *   R2: 2–3 =, 1 bye
   * Points: 1: 2+2 = 4; 2: 0+1 = 1; 3: 2+1 = 3.
   * OS, bye = 0: 1: 1 + 0 = 1; 2: 4 + 3 = 7; 3: 0 + 1 = 1.
   * OS, bye = lowest final score (1): 1: 1 + 1 = 2; 3: 1 + 1 = 2.
   * OS_C1 (bye = 0): 1: (1, 0) → 1; 2: (4, 3) → 4; 3: (0, 1) → 1.
   * WINS: the bye is no win: 1 has 1, 3 has 0. */
  xq_tournament *ev = players(3, NULL);
  game(ev, 1, 1, 2, "1-0"); bye(ev, 1, 3);
  game(ev, 2, 2, 3, "=");   bye(ev, 2, 1);
  const int64_t os0[3] = {2, 14, 2}, c1[3] = {2, 8, 2};
  for (int id = 1; id <= 3; id++) {
    cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, id, 2), os0[id - 1], "OS of %d", id);
    cr_assert_eq(xq_tb_value(ev, XQ_TB_OS_C1, id, 2), c1[id - 1], "OS_C1 of %d", id);
  }
  cr_assert_eq(xq_tb_value(ev, XQ_TB_WINS, 1, 2), 1);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_WINS, 3, 2), 0);
  ev->cfg.bye_os = XQ_BYE_OS_LOWEST;
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, 1, 2), 4);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, 3, 2), 4);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, 2, 2), 14);
  xq_tournament_free(ev);

  /* A forfeit: 1 wins by forfeit against 2 in R1, then 1–3 = in R2.
   * The forfeit counts in OS with the scheduled opponent's score (2 has 0
   * points), as a win in WINS, not as a game in BLACK.
   * Points of 1: 2 + 1 = 3 (6 half-units); OS of 1: 2's 0 + 3's 1. */
  ev = players(3, NULL);
  game(ev, 1, 2, 1, "+-");
  xq_tournament_slot(ev, 1, 1)->res = XQ_TR_FWIN;
  xq_tournament_slot(ev, 2, 1)->res = XQ_TR_FLOSS;
  game(ev, 2, 1, 3, "=");
  cr_assert_eq(xq_tb_value(ev, XQ_TB_PTS, 1, 2), 6);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, 1, 2), 0 + 2);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_WINS, 1, 2), 1);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_BLACK, 1, 2), 0);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_BWINS, 1, 2), 0);
  ev->cfg.wins_count_forfeits = 0;
  cr_assert_eq(xq_tb_value(ev, XQ_TB_WINS, 1, 2), 0);
  xq_tournament_free(ev);
}

Test(tiebreak, direct_encounter_fide_and_two_only)
{
  /* 5 players. A beats B; C, D, E play among themselves and against A, B so
   * that A, B and C finish on the same points without C having met A or B.
   *   R1: A–B 1-0, C–D 1-0 (E bye)   R2: B–E 1-0, D–A 1-0, (C bye)
   * Points (2/1/0): A 2+0 = 2, B 0+2 = 2, C 2+2 = 4 ... adjust: give C a
   * loss instead of the bye: R2: E–C 1-0, D–A 1-0, B bye.
   *   A: W, L = 2; B: L, PAB = 2; C: W, L = 2; D: L, W = 2; E: PAB, W = 4.
   * Tied on 2: A, B, C, D. Among them: A beat B, C beat D, D beat A.
   * Scores inside the tie: A 2 (v B), B 0, C 2 (v D), D 2 (v A); not all
   * met, so FIDE Art. 6 separates a player only when his score beats what
   * every other could still reach (unplayed games as wins): nobody. */
  xq_tournament *ev = players(5, "PTS,DE");
  game(ev, 1, 1, 2, "1-0"); game(ev, 1, 3, 4, "1-0"); bye(ev, 1, 5);
  game(ev, 2, 5, 3, "1-0"); game(ev, 2, 4, 1, "1-0"); bye(ev, 2, 2);
  xq_tstanding st[5];
  cr_assert_eq(xq_standings(ev, 0, st), XQ_OK);
  cr_assert_eq(st[0].id, 5);
  /* DE separates nobody of the four: shown as nothing (-1) */
  for (int i = 1; i < 5; i++) cr_assert_eq(st[i].val[1], -1, "DE of %c", 'A' + st[i].id - 1);

  /* two players tied: the winner of their game first, in both modes */
  xq_tournament_free(ev);
  for (int mode = 0; mode < 2; mode++) {
    ev = players(4, "PTS,DE");
    ev->cfg.de_mode = mode ? XQ_DE_TWO_ONLY : XQ_DE_FIDE;
    /* R1: C–A 0-1 ... A and C tied on 2 after: A beat C, C beat D */
    game(ev, 1, 3, 1, "0-1"); game(ev, 1, 2, 4, "1-0");
    game(ev, 2, 1, 2, "0-1"); game(ev, 2, 3, 4, "1-0");
    /* A: W, L = 2; B: W, W = 4; C: L, W = 2; D: L, L = 0 */
    const int want[4] = {2, 1, 3, 4};
    ranks(ev, want, 4);
    xq_tournament_free(ev);
  }

  /* all met: a three-way tie in a round robin, ranked by the mutual score:
   * A beats B, B beats C, A draws C → A 3, C 1, B 2 (2/1/0) */
  ev = players(3, "PTS,DE");
  game(ev, 1, 1, 2, "1-0");
  game(ev, 2, 2, 3, "1-0");
  game(ev, 3, 3, 1, "=");
  /* PTS: A 2+1 = 3, B 0+2 = 2, C 0+1 = 1: not tied; make DE the first code */
  cr_assert_eq(xq_tconfig_tiebreaks(&ev->cfg, "DE,LOT", NULL), XQ_OK);
  const int rr[3] = {1, 2, 3};
  ranks(ev, rr, 3);
  xq_tournament_free(ev);
}

Test(tiebreak, no_shared_places_and_codes)
{
  /* 6 players, three draws: every value is equal, LOT decides, the
   * places are 1..6 and the same every time */
  xq_tournament *ev = players(6, "PTS,OS,WINS");
  game(ev, 1, 1, 2, "="); game(ev, 1, 3, 4, "="); game(ev, 1, 5, 6, "=");
  xq_tstanding a[6], b[6];
  cr_assert_eq(xq_standings(ev, 0, a), XQ_OK);
  cr_assert_eq(xq_standings(ev, 0, b), XQ_OK);
  int seen[7] = {0};
  for (int i = 0; i < 6; i++) {
    cr_assert_eq(a[i].rank, i + 1);
    cr_assert_eq(a[i].id, b[i].id);
    cr_assert_eq(seen[a[i].id]++, 0);
  }
  ev->cfg.lot_seed ^= 0x5555;
  cr_assert_eq(xq_standings(ev, 0, b), XQ_OK);
  int same = 1;
  for (int i = 0; i < 6; i++) same &= a[i].id == b[i].id;
  cr_assert_not(same, "another lot seed gives the same order");
  xq_tournament_free(ev);

  xq_tconfig cfg;
  xq_error err;
  xq_tconfig_default(&cfg);
  cr_assert_eq(xq_tconfig_tiebreaks(&cfg, "PTS,OS,XYZ", &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "XYZ"));
  cr_assert_eq(xq_tconfig_tiebreaks(&cfg, "PTS,OS,PTS", &err), XQ_EINVAL);
  char buf[256];
  const char *presets[][2] = {
    {"os", "PTS,OS,WINS,FOULS,BWINS,BLACK,ROUNDBACK,LOT"},
    {"ps", "PTS,PS,WINS,FOULS,BWINS,BLACK,ROUNDBACK_FIRST,LOT"},
    {"xinjiang", "PTS,PS,WINS,FOULS,BLACK,ROUNDBACK_FIRST,LOT"},
    {"burqin", "PTS,OS,PS,WINS,BWINS,FOULS,ROUNDBACK,LOT"},
    {"shaanxi", "PTS,OS,WINS,FOULS,DE,BLACK,PS,ROUNDBACK_FIRST,LOT"},
    {"wujiaqu", "PTS,OS,WINS,FOULS,DE,BLACK,ROUNDBACK,LOT"},
    {"tangshan", "PTS,PS,OS,WINS,FOULS,BLACK,ROUNDBACK,LOT"},
  };
  for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
    cr_assert_eq(xq_tconfig_tiebreaks(&cfg, presets[i][0], &err), XQ_OK);
    cr_assert_eq(xq_tconfig_tb_format(&cfg, buf, sizeof buf), XQ_OK);
    cr_assert_str_eq(buf, presets[i][1]);
  }
}

static int count_of(const char *hay, const char *needle)
{
  int k = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) k++;
  return k;
}

/* Four players, table 1 won by the first, table 2 ending `second`, the
 * lot's seed 4242; their standings after round 1 into a[0..4). */
static xq_tournament *lot_event(const char *second, xq_tstanding a[4])
{
  xq_tournament *ev = players(4, "PTS,WINS");
  game(ev, 1, 1, 2, "1-0"); game(ev, 1, 3, 4, second);
  ev->cfg.lot_seed = 4242;
  cr_assert_eq(xq_standings(ev, 0, a), XQ_OK);
  return ev;
}

/* Issue 33 (不并列): where the drawing of lots places a player the
 * standings say so, and the listing prints the ranks it decided with the
 * lot's seed and method; where the codes before it separate everyone it
 * says nothing. */
Test(tiebreak, the_lot_says_where_it_decides_with_its_seed)
{
  xq_tstanding a[4];
  xq_tournament *ev = lot_event("1-0", a);
  for (int i = 0; i < 4; i++) cr_assert_eq(a[i].by_lot, 1, "rank %d: tied on PTS and WINS", i + 1);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(xq_list_standings(ev, 0, f), XQ_OK);
  fclose(f);
  cr_assert(strstr(buf, "decided by lot (抽签), ranks: 1, 2, 3, 4\n"), "%s", buf);
  cr_assert(strstr(buf, "the lot: seed 4242; "), "%s", buf);
  free(buf);
  xq_tournament_free(ev);
  ev = players(4, "PTS,WINS");
  game(ev, 1, 1, 2, "1-0"); game(ev, 1, 3, 4, "=");
  cr_assert_eq(xq_standings(ev, 0, a), XQ_OK);
  cr_assert_eq(a[0].by_lot + a[3].by_lot, 0, "1st and 4th by points");
  cr_assert_eq(a[1].by_lot + a[2].by_lot, 2, "the two draws: by lot");
  buf = NULL;
  f = open_memstream(&buf, &len);
  cr_assert_eq(xq_list_standings(ev, 0, f), XQ_OK);
  fclose(f);
  cr_assert(strstr(buf, "ranks: 2, 3\n"), "%s", buf);
  free(buf);
  /* the final places say it too */
  int ids[4] = {a[0].id, a[1].id, a[2].id, a[3].id};
  buf = NULL;
  f = open_memstream(&buf, &len);
  cr_assert_eq(xq_list_places(ev, NULL, ids, 0, f), XQ_OK);
  fclose(f);
  cr_assert_eq(count_of(buf, "(by lot)\n"), 2, "%s", buf);
  cr_assert(strstr(buf, "the lot: seed 20260101, "), "%s", buf);
  free(buf);
  xq_tournament_free(ev);
}

/* The printed standings (HTML, text) say the same: a table of the
 * players the lot placed, with each draw, under the seed and method;
 * none where the lot decided nothing. CSV and XLSX stay one table of
 * data (the LOT column). */
static char *standings_sheet(const xq_tournament *ev, int format, int lang)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(xq_sheet_standings(ev, 0, format, lang, f), XQ_OK);
  fclose(f);
  return buf;
}

Test(tiebreak, the_printed_standings_show_the_lot_and_its_draws)
{
  xq_tstanding a[4];
  xq_tournament *ev = lot_event("=", a);
  char *text = standings_sheet(ev, XQ_SHEET_TEXT, XQ_LANG_EN);
  const char *lot = strstr(text, "Placed by lot (不并列), seed 4242, tied on every tie-break before the lot");
  cr_assert(lot, "%s", text);
  /* ranks 2 and 3, each with a 16-digit draw, the lower draw ranked first */
  unsigned long long d[2] = {0, 0}, draw;
  int rows = 0, rank, no;
  for (const char *l = strchr(lot, '\n'); l; l = strchr(l + 1, '\n')) {
    if (sscanf(l + 1, "%d %d %*s %16llx", &rank, &no, &draw) != 3) continue;
    cr_assert(rank == 2 || rank == 3, "only the ranks the lot decided: %s", text);
    cr_assert_eq(no, xq_tplayer_no(ev, a[rank - 1].id), "%s", text);
    d[rank - 2] = draw;
    rows++;
  }
  cr_assert_eq(rows, 2, "%s", text);
  cr_assert_lt(d[0], d[1], "the lower draw ranks first");
  free(text);
  char *html = standings_sheet(ev, XQ_SHEET_HTML, XQ_LANG_ZH);
  cr_assert(strstr(html, "抽签决定名次（不并列），种子 4242"), "%s", html);
  cr_assert(strstr(html, "SplitMix64"), "the method: %s", html);
  free(html);
  char *csv = standings_sheet(ev, XQ_SHEET_CSV, XQ_LANG_EN);
  cr_assert_null(strstr(csv, "Placed by lot"), "CSV is one table of data: %s", csv);
  free(csv);
  xq_tournament_free(ev);
  /* everyone apart before the lot: no such table */
  ev = players(2, "PTS,WINS");
  game(ev, 1, 1, 2, "1-0");
  cr_assert_eq(xq_standings(ev, 0, a), XQ_OK);
  cr_assert_eq(a[0].by_lot + a[1].by_lot, 0);
  text = standings_sheet(ev, XQ_SHEET_TEXT, XQ_LANG_EN);
  cr_assert_null(strstr(text, "lot"), "%s", text);
  free(text);
  xq_tournament_free(ev);
}

/* The places sheet of a Swiss event carries the same lot table when the
 * lot decided a listed player's place; a list of players the lot did not
 * touch, and CSV, have none. */
Test(tiebreak, the_places_sheet_shows_the_lot_where_it_decides)
{
  xq_tstanding a[4];
  xq_tournament *ev = lot_event("=", a);
  int ids[4] = {a[0].id, a[1].id, a[2].id, a[3].id};
  for (int fmt = 0; fmt < 3; fmt++) {
    int format = fmt == 0 ? XQ_SHEET_TEXT : fmt == 1 ? XQ_SHEET_HTML : XQ_SHEET_CSV;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_eq(xq_sheet_places(ev, NULL, ids, NULL, 4, format, XQ_LANG_ZH, f), XQ_OK);
    fclose(f);
    const char *lot = strstr(buf, "抽签决定名次（不并列），种子 4242");
    if (format == XQ_SHEET_CSV) cr_assert_null(lot, "CSV is one table of data: %s", buf);
    else cr_assert(lot, "%s", buf);
    if (format == XQ_SHEET_TEXT) {
      int rows = 0, rank, no;
      unsigned long long d;
      for (const char *l = strchr(lot, '\n'); l; l = strchr(l + 1, '\n'))
        if (sscanf(l + 1, "%d %d %*s %16llx", &rank, &no, &d) == 3) {
          cr_assert(rank == 2 || rank == 3, "only the places the lot decided: %s", buf);
          rows++;
        }
      cr_assert_eq(rows, 2, "%s", buf);
    }
    free(buf);
  }
  /* the winner alone: the lot decided nothing on this list */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(xq_sheet_places(ev, NULL, ids, NULL, 1, XQ_SHEET_TEXT, XQ_LANG_ZH, f), XQ_OK);
  fclose(f);
  cr_assert_null(strstr(buf, "抽签"), "%s", buf);
  free(buf);
  xq_tournament_free(ev);
}

Test(tiebreak, scoring_one_half_zero)
{
  /* the same event at 1/½/0: half-units 2/1/0, same order */
  xq_tournament *ev = four("os");
  xq_tconfig_scoring(&ev->cfg, 1);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_PTS, 3, 3), 4); /* C: 2 points = 4 halves */
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, 2, 3), 10);
  const int os[4] = {3, 4, 1, 2};
  ranks(ev, os, 4);
  xq_tournament_free(ev);
}

/* ------------------------------------------------------------------ */
/* Players and groups                                                  */
/* ------------------------------------------------------------------ */

Test(players, checks_and_utf8)
{
  xq_tplayer p;
  xq_error err;
  memset(&p, 0, sizeof p);
  strcpy(p.name, "王天一");
  strcpy(p.birth, "1988-03-23");
  cr_assert_eq(xq_player_check(&p, &err), XQ_OK);
  cr_assert_str_eq(p.birth, "1988/03/23");
  cr_assert_eq(xq_utf8_len(p.name), 3);
  strcpy(p.birth, "2023/02/29");
  cr_assert_eq(xq_player_check(&p, &err), XQ_EINVAL);
  strcpy(p.birth, "2024/02/29");
  cr_assert_eq(xq_player_check(&p, &err), XQ_OK);
  strcpy(p.name, "\xe7\x8e\x8b\xe5");  /* truncated UTF-8 */
  cr_assert_eq(xq_player_check(&p, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "UTF-8"));
  p.name[0] = 0;
  cr_assert_eq(xq_player_check(&p, &err), XQ_EINVAL);
  strcpy(p.name, "ok");
  p.sex = 'x';
  cr_assert_eq(xq_player_check(&p, &err), XQ_EINVAL);
}

Test(players, groups_by_birth_date_and_women_merged)
{
  /* Tangshan 2018: 老年组 born on or before 1957/12/31; 少年组 2002/01/01 to
   * 2006/12/31; 儿童组 from 2007/01/01; a women's section of fewer than
   * three merges into the men's. Xinjiang 2018: 公开组 1958/01/01–2001/12/31. */
  const struct { const char *birth; char sex; } who[] = {
    {"1957/12/31", 'm'}, {"1958/01/01", 'w'}, {"2002/01/01", 'm'}, {"2006/12/31", 'w'},
    {"2007/01/01", 'm'}, {"2001/12/31", 'm'}, {"", 'w'}, {"1950/05/05", 'w'},
  };
  xq_tplayer ps[8];
  for (int i = 0; i < 8; i++) {
    memset(&ps[i], 0, sizeof ps[i]);
    snprintf(ps[i].name, sizeof ps[i].name, "P%d", i + 1);
    strcpy(ps[i].birth, who[i].birth);
    ps[i].sex = who[i].sex;
  }
  xq_tgroup senior = {.name = "老年组", .born_to = "1957/12/31"};
  xq_tgroup junior = {.name = "少年组", .born_from = "2002/01/01", .born_to = "2006/12/31"};
  xq_tgroup child = {.name = "儿童组", .born_from = "2007/01/01"};
  xq_tgroup open = {.name = "公开组", .born_from = "1958/01/01", .born_to = "2001/12/31"};
  const int in_senior[8] = {1, 0, 0, 0, 0, 0, 0, 1}, in_junior[8] = {0, 0, 1, 1, 0, 0, 0, 0};
  const int in_child[8] = {0, 0, 0, 0, 1, 0, 0, 0}, in_open[8] = {0, 1, 0, 0, 0, 1, 0, 0};
  for (int i = 0; i < 8; i++) {
    cr_assert_eq(xq_group_match(&senior, &ps[i]), in_senior[i], "senior %d", i + 1);
    cr_assert_eq(xq_group_match(&junior, &ps[i]), in_junior[i], "junior %d", i + 1);
    cr_assert_eq(xq_group_match(&child, &ps[i]), in_child[i], "child %d", i + 1);
    cr_assert_eq(xq_group_match(&open, &ps[i]), in_open[i], "open %d", i + 1);
  }
  int men[8], women[8], nm, nw, merged;
  cr_assert_eq(xq_group_sections(&senior, ps, 8, men, &nm, women, &nw, &merged), XQ_OK);
  /* seniors: P1 (m) and P8 (w): one woman, merged */
  cr_assert_eq(merged, 1);
  cr_assert_eq(nm, 2);
  cr_assert_eq(nw, 0);
  cr_assert_eq(men[0], 1);
  cr_assert_eq(men[1], 8);
  /* everyone, no date bound: women P2, P4, P7, P8 = 4 → own section */
  xq_tgroup all = {.name = "all"};
  cr_assert_eq(xq_group_sections(&all, ps, 8, men, &nm, women, &nw, &merged), XQ_OK);
  cr_assert_eq(merged, 0);
  cr_assert_eq(nw, 4);
  cr_assert_eq(nm, 4);
  xq_tgroup local = {.name = "本地", .local_only = 1};
  ps[2].local = 1;
  cr_assert(xq_group_match(&local, &ps[2]));
  cr_assert_not(xq_group_match(&local, &ps[3]));
}

Test(tiebreak, before_any_result_the_starting_order)
{
  /* 5 players paired in round 1, no game over yet: the bye's points first,
   * then the pairing numbers -- not the lots, whatever their seed -- and
   * DE separates nobody */
  xq_tournament *ev = players(5, "PTS,DE,LOT");
  int pno[6] = {0, 4, 2, 5, 1, 3};
  for (int id = 1; id <= 5; id++) ev->players[id - 1].pno = pno[id];
  game(ev, 1, 4, 2, "*"); game(ev, 1, 5, 1, "*"); bye(ev, 1, 3);
  int want[5] = {3, 4, 2, 5, 1}; /* bye (no. 5), then no. 1, 2, 3, 4 */
  for (int seed = 0; seed < 3; seed++) {
    ev->cfg.lot_seed = 0x9e37u * (unsigned)seed;
    xq_tstanding st[5];
    cr_assert_eq(xq_standings(ev, 0, st), XQ_OK);
    for (int i = 0; i < 5; i++) {
      cr_assert_eq(st[i].id, want[i], "place %d: player %d, not %d", i + 1, st[i].id, want[i]);
      cr_assert_eq(st[i].val[1], -1, "DE of player %d is not shown", st[i].id);
    }
  }
  /* one result in: the tie-breaks rank again */
  game(ev, 1, 4, 2, "0-1");
  xq_tstanding st[5];
  cr_assert_eq(xq_standings(ev, 0, st), XQ_OK);
  cr_assert(st[0].id == 3 || st[0].id == 2);
  cr_assert(st[1].id == 3 || st[1].id == 2);
  cr_assert_eq(st[4].id, 4, "the loser last");
  xq_tournament_free(ev);
}

Test(tiebreak, during_a_round_only_finished_games_count)
{
  /* A, B, C, D at 2/1/0; round 1: A–B 1-0, C–D =; round 2: A–C in play,
   * B–D 1-0 (D is Black and loses). After round 2 so far:
   * points A 2, B 0+2 = 2, C 1, D 1.
   * OS counts finished games only: A's only finished opponent is B (2);
   * C's is D (1); B: A 2 + D 1 = 3; D: C 1 + B 2 = 3.
   * OS_C1 takes the lowest finished part: A 2-2 = 0, B 3-1 = 2.
   * SB (quarter-points): A beat B (2): 2 (the game with C not counted);
   * B beat D (1): 1; C drew D (1): ½; D drew C (1): ½.
   * FOULS: a foul in A's game in play is not counted yet. */
  xq_tournament *ev = players(4, "PTS,OS,SB,FOULS,LOT");
  game(ev, 1, 1, 2, "1-0"); game(ev, 1, 3, 4, "=");
  game(ev, 2, 1, 3, "*");   game(ev, 2, 2, 4, "1-0");
  xq_tournament_slot(ev, 1, 2)->fouls = 1;
  const int64_t os[4] = {4, 6, 2, 6}, sb[4] = {2 * 4, 1 * 4, 2, 2};
  for (int id = 1; id <= 4; id++) {
    cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, id, 2), os[id - 1], "OS of %d: %lld", id,
                 (long long)xq_tb_value(ev, XQ_TB_OS, id, 2));
    cr_assert_eq(xq_tb_value(ev, XQ_TB_SB, id, 2), sb[id - 1], "SB of %d: %lld", id,
                 (long long)xq_tb_value(ev, XQ_TB_SB, id, 2));
  }
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS_C1, 1, 2), 0, "OS_C1 of A: its one finished part taken off");
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS_C1, 2, 2), 6 - 2);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_FOULS, 1, 2), 0, "a foul of a game in play waits for its end");
  /* the ranking uses the same values: A (2 points, OS 2) under B (2, OS 3) */
  xq_tstanding st[4];
  cr_assert_eq(xq_standings(ev, 2, st), XQ_OK);
  cr_assert_eq(st[0].id, 2, "B first on OS 3 against A's 2, not A on a game not over");
  cr_assert_eq(st[1].id, 1);
  cr_assert_eq(st[0].val[1], 6);
  cr_assert_eq(st[1].val[1], 4);
  /* the default round: none complete, round 2 paired: round 1 is complete here */
  cr_assert_eq(xq_tournament_rounds_complete(ev), 1);
  cr_assert_eq(xq_tournament_standings_round(ev), 1);
  /* the game ends: it counts */
  game(ev, 2, 1, 3, "1-0");
  cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, 1, 2), 4 + 2);
  cr_assert_eq(xq_tb_value(ev, XQ_TB_FOULS, 1, 2), 1);
  cr_assert_eq(xq_tournament_standings_round(ev), 2);
  xq_tournament_free(ev);

  /* nothing complete yet: round 1 in progress once it is paired, 0 before */
  ev = players(2, NULL);
  cr_assert_eq(xq_tournament_standings_round(ev), 0);
  game(ev, 1, 1, 2, "*");
  cr_assert_eq(xq_tournament_standings_round(ev), 1);
  xq_tournament_free(ev);
}

/* The draws of a made-up name: a script, then zeros; the taken names
 * refused until `free_from` calls. */
typedef struct script {
  const int *v;
  int n, at, calls, free_from;
} script;

static int script_draw(void *ctx, int n)
{
  script *s = ctx;
  int v = s->at < s->n ? s->v[s->at] : 0;
  s->at++;
  cr_assert(v >= 0 && v < n, "draw %d of %d", v, n);
  return v;
}

static int script_taken(void *ctx, const char *name)
{
  script *s = ctx;
  (void)name;
  return ++s->calls < s->free_from;
}

Test(players, made_up_chinese_names)
{
  char name[XQ_TOURNEY_NAME_MAX];
  /* surname, first given character, a second or not, the second */
  script s = {(const int[]){0, 0, 0}, 3, 0, 0, 0};
  xq_namegen g = {script_draw, NULL, &s};
  xq_chinese_name(&g, 'm', 1, name, sizeof name);
  cr_assert_str_eq(name, "王伟");
  cr_assert_eq(s.at, 3, "no second character: three draws");
  s = (script){(const int[]){1, 2, 1, 3}, 4, 0, 0, 0};
  xq_chinese_name(&g, 'm', 1, name, sizeof name);
  cr_assert_str_eq(name, "李磊军");
  s = (script){(const int[]){71, 0, 2, 1}, 4, 0, 0, 0};
  xq_chinese_name(&g, 'w', 1, name, sizeof name);
  cr_assert_str_eq(name, "欧阳芳娜", "a compound surname, women's characters");
  /* taken names are drawn again; after XQ_NAME_TRIES_MAX the number follows */
  s = (script){NULL, 0, 0, 0, XQ_NAME_TRIES_MAX + 1};
  g.taken = script_taken;
  xq_chinese_name(&g, 'm', 17, name, sizeof name);
  cr_assert_str_eq(name, "王伟17");
  cr_assert_eq(s.calls, XQ_NAME_TRIES_MAX + 1);
  s = (script){NULL, 0, 0, 0, 3};
  xq_chinese_name(&g, 'm', 17, name, sizeof name);
  cr_assert_str_eq(name, "王伟", "the third try is free");
  cr_assert_eq(s.at, 9);
  cr_assert_eq(xq_utf8_len(name), 2);
}

/* ------------------------------------------------------------------ */
/* The event itself                                                    */
/* ------------------------------------------------------------------ */

/* An event with every field of xq_tournament set away from its default. */
static xq_tournament *populated(void)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cfg.rounds = 9;
  cfg.lot_seed = 0x1234567890abcdefULL;
  cr_assert_eq(xq_tconfig_tiebreaks(&cfg, "PTS,PS,WINS,LOT", NULL), XQ_OK);
  xq_tournament *ev = xq_tournament_new(&cfg, "全国象棋个人赛 copy");
  static const char *const names[] = {"王天一", "郑惟桐", "Smith, Bob"};
  static const char *const births[] = {"1990/01/10", "1991/02/11", "1992/03/12"};
  static const char *const fide_ids[] = {"8600", "8601", "8602"};
  for (int i = 0; i < 3; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", names[i]);
    p.pno = 3 - i;
    p.rating = 2600 - 10 * i;
    snprintf(p.birth, sizeof p.birth, "%s", births[i]);
    p.sex = i == 2 ? 'w' : 'm';
    snprintf(p.title, sizeof p.title, "GM");
    snprintf(p.fed, sizeof p.fed, "CHN");
    snprintf(p.fide_id, sizeof p.fide_id, "%s", fide_ids[i]);
    snprintf(p.region, sizeof p.region, "四川");
    snprintf(p.club, sizeof p.club, "club %d", i);
    snprintf(p.team, sizeof p.team, "team %d", i % 2);
    p.local = i == 1;
    p.withdrawn = i == 2 ? 3 : 0;
    p.trf_rank = i + 1;
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  game(ev, 1, 1, 2, "1-0");
  bye(ev, 1, 3);
  game(ev, 2, 3, 1, "=");
  xq_tournament_slot(ev, 2, 2)->absent = XQ_TR_HPB;
  xq_tournament_slot(ev, 2, 2)->code = 'H';
  xq_tournament_add_fouls(ev, 1, 2, 2);
  ev->initial_black = 1;
  ev->extra = strdup("012 copy\nXXR 9\n");
  ev->extra_len = strlen(ev->extra);
  ev->extra_at = 9;
  ev->trf_zero_pad = 1;
  cr_assert_eq(xq_tournament_forbid(ev, 1, 3, 1, 5), XQ_OK);
  cr_assert_eq(xq_tournament_forbid(ev, 2, 3, 4, 9), XQ_OK);
  return ev;
}

Test(event, copy_is_deep_and_whole)
{
  xq_tournament *ev = populated(), *c = xq_tournament_copy(ev);
  cr_assert_not_null(c);
  /* every field, in the struct's order */
  cr_assert_str_eq(c->name, ev->name);
  cr_assert_eq(memcmp(&c->cfg, &ev->cfg, sizeof c->cfg), 0);
  cr_assert_eq(c->n, 3);
  cr_assert_geq(c->cap, c->n);
  cr_assert_neq(c->players, ev->players);
  cr_assert_eq(memcmp(c->players, ev->players, sizeof *c->players * 3), 0);
  cr_assert_neq(c->slots, ev->slots);
  cr_assert_eq(memcmp(c->slots, ev->slots, sizeof *c->slots * 3 * XQ_TOURNEY_ROUNDS_MAX), 0);
  cr_assert_eq(c->nrounds, 2);
  cr_assert_eq(c->initial_black, 1);
  cr_assert_neq(c->extra, ev->extra);
  cr_assert_eq(c->extra_len, ev->extra_len);
  cr_assert_str_eq(c->extra, "012 copy\nXXR 9\n", "the kept lines, and the NUL after them");
  cr_assert_eq(c->extra_at, 9);
  cr_assert_eq(c->trf_zero_pad, 1);
  cr_assert_neq(c->forbid, ev->forbid);
  cr_assert_eq(c->nforbid, 2);
  cr_assert_eq(memcmp(c->forbid, ev->forbid, sizeof *c->forbid * 2), 0);
  cr_assert_eq(xq_tournament_points(c, 1, 2), xq_tournament_points(ev, 1, 2));
  cr_assert_eq(xq_tournament_forbidden(c, 3, 2, 5), 1);

  /* apart: the copy grows and changes, the original stays, and the copy
   * outlives it */
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "赵鑫鑫");
  int id;
  cr_assert_eq(xq_tournament_add(c, &p, &id, NULL), XQ_OK);
  cr_assert_eq(id, 4);
  cr_assert_eq(xq_tournament_slot(c, 4, 1)->res, XQ_TR_NONE, "a new player's rounds start empty");
  xq_tournament_slot(c, 1, 1)->res = XQ_TR_LOSS;
  c->players[0].name[0] = 'X';
  c->extra[0] = 'Y';
  c->forbid[0].to = 9;
  cr_assert_eq(ev->n, 3);
  cr_assert_eq(xq_tournament_slot(ev, 1, 1)->res, XQ_TR_WIN);
  cr_assert_str_eq(ev->players[0].name, "王天一");
  cr_assert_eq(ev->extra[0], '0');
  cr_assert_eq(ev->forbid[0].to, 5);
  xq_tournament_free(ev);
  cr_assert_eq(xq_tournament_forbidden(c, 1, 3, 9), 1);
  cr_assert_str_eq(c->players[1].name, "郑惟桐");
  xq_tournament_free(c);

  /* an event without players, kept lines or forbidden pairs */
  ev = xq_tournament_new(NULL, NULL);
  c = xq_tournament_copy(ev);
  cr_assert_not_null(c);
  cr_assert_eq(c->n, 0);
  cr_assert_null(c->extra);
  cr_assert_null(c->forbid);
  cr_assert_eq(c->extra_at, -1);
  cr_assert_eq(xq_tournament_add(c, &p, &id, NULL), XQ_OK);
  cr_assert_eq(xq_tournament_slot(c, 1, XQ_TOURNEY_ROUNDS_MAX)->opp, 0);
  xq_tournament_free(ev);
  xq_tournament_free(c);
  cr_assert_null(xq_tournament_copy(NULL));
}

/* Every tie-break code has its name, and the name reads back as that code
 * (tb_names is indexed by code: a code added without its name is caught
 * here, not by a NULL at run time). */
Test(tiebreak, every_code_has_a_name_that_reads_back)
{
  for (int c = 0; c < XQ_TB_COUNT; c++) {
    const char *name = xq_tb_name(c);
    cr_assert(name && name[0] && strcmp(name, "?"), "tie-break %d has no name", c);
    xq_tconfig cfg;
    memset(&cfg, 0, sizeof cfg);
    xq_error err = {0};
    char list[64]; /* a list, not a preset's name ("OS" alone is the 对手分方案) */
    snprintf(list, sizeof list, "%s,%s", name, c == XQ_TB_LOT ? "PTS" : "LOT");
    cr_assert_eq(xq_tconfig_tiebreaks(&cfg, list, &err), XQ_OK, "%s: %s", list, err.msg);
    cr_assert_eq((int)cfg.tb[0], c, "%s reads back as %d", name, (int)cfg.tb[0]);
  }
}

/* ------------------------------------------------------------------ */
/* Round robins (docs/tourney.md, "Round robins")                      */
/* ------------------------------------------------------------------ */

/* Six entrants, numbers 1..6, paired from the table (xq_pair_rr), with
 * the results of a round robin worked by hand (2/1/0, the first-named
 * Red):
 *   R1 1–6 1-0, 2–5 1-0, 3–4 0-1     R2 6–4 1-0, 5–3 =, 1–2 1-0
 *   R3 2–6 1-0, 3–1 0-1, 4–5 =       R4 6–5 0-1, 1–4 =, 2–3 0-1
 *   R5 3–6 =, 4–2 0-1, 5–1 1-0
 * Points 1: 7, 2: 6, 3: 4, 4: 4, 5: 6, 6: 3 (30 in all).
 * 小分 (SB): 1: 3+6+4+½·4 = 15; 2: 6+3+4 = 13; 5: 3+7+½·4+½·4 = 14;
 *   3: 6+½·6+½·3 = 10.5; 4: 4+½·6+½·7 = 10.5; 6: 4+½·4 = 6.
 * 胜局 1: 3, 2: 3, 5: 2, 3: 1, 4: 1, 6: 1. 累进分 (PS): 1: 26, 2: 18, 5: 13,
 *   3: 9, 4: 15, 6: 9. 4 beat 3 in round 1. */
static const char *const rr6_results[5][3] = {
  {"1-0", "1-0", "0-1"}, {"1-0", "=", "1-0"}, {"1-0", "0-1", "="}, {"0-1", "=", "0-1"}, {"=", "0-1", "1-0"},
};

/* An event of `cfg` named `name` with n players P1..Pn numbered 1..n. */
static xq_tournament *numbered(const xq_tconfig *cfg, const char *name, int n)
{
  xq_tournament *ev = xq_tournament_new(cfg, name);
  for (int i = 0; i < n; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "P%d", i + 1);
    p.pno = i + 1;
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  return ev;
}

static xq_tournament *rr6(const char *tb, int rounds)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  xq_tconfig_round_robin(&cfg, 1);
  if (tb) cr_assert_eq(xq_tconfig_tiebreaks(&cfg, tb, NULL), XQ_OK, "%s", tb);
  xq_tournament *ev = numbered(&cfg, "rr", 6);
  for (int r = 1; r <= rounds; r++) {
    xq_tpairing pr = {0};
    cr_assert_eq(xq_pair_system(ev, r, XQ_PAIR_CN, &pr, NULL), XQ_OK, "round %d", r);
    cr_assert_eq(pr.nboards, 3);
    cr_assert_eq(xq_tournament_apply_pairing(ev, &pr), XQ_OK);
    for (int b = 0; b < 3; b++) game(ev, r, pr.boards[b].red, pr.boards[b].black, rr6_results[r - 1][b]);
    xq_tpairing_clear(&pr);
  }
  return ev;
}

static void rr_order(xq_tournament *ev, const int *want)
{
  xq_tstanding s[6];
  cr_assert_eq(xq_standings(ev, 0, s), XQ_OK);
  for (int i = 0; i < 6; i++) cr_assert_eq(s[i].id, want[i], "place %d: %d, not %d", i + 1, s[i].id, want[i]);
}

Test(roundrobin, the_worked_six_player_example_ranks_by_each_order)
{
  xq_tournament *ev = rr6(NULL, 5);
  const int64_t sb[6] = {60, 52, 42, 42, 56, 24}, ps[6] = {52, 36, 18, 30, 26, 18}; /* quarter-, half-points */
  for (int id = 1; id <= 6; id++) {
    cr_assert_eq(xq_tb_value(ev, XQ_TB_SB, id, 5), sb[id - 1], "SB of %d: %lld", id,
                 (long long)xq_tb_value(ev, XQ_TB_SB, id, 5));
    cr_assert_eq(xq_tb_value(ev, XQ_TB_PS, id, 5), ps[id - 1], "PS of %d", id);
    /* everyone met everyone: 对手分 is the others' total and breaks no tie */
    cr_assert_eq(xq_tb_value(ev, XQ_TB_OS, id, 5) + xq_tb_value(ev, XQ_TB_PTS, id, 5), 60);
  }
  /* CXA 2011 14.1 (cxa_rr1, a round robin's default): 5 ahead of 2 on 小分
   * although 2 beat 5; 4 and 3 equal on 小分 and 胜局, 4 ahead on 直胜 */
  rr_order(ev, (const int[]){1, 5, 2, 4, 3, 6});
  xq_tournament_free(ev);
  ev = rr6("wuwei2021", 5); /* 累进分 first: 2 ahead of 5, 4 ahead of 3 */
  rr_order(ev, (const int[]){1, 2, 5, 4, 3, 6});
  xq_tournament_free(ev);
  ev = rr6("PTS,DE,SB,WINS,LOT", 5); /* 直胜 first: 2 beat 5 */
  rr_order(ev, (const int[]){1, 2, 5, 4, 3, 6});
  xq_tournament_free(ev);
}

Test(roundrobin, a_withdrawal_before_half_annuls_after_half_forfeits_the_rest)
{
  /* player 6 withdraws after round 2 (2 of 5 games played: fewer than
   * half): every game of his is annulled, for his opponents too (1 loses
   * his round-1 win over 6, 4 his round-2 loss; 3's draw with 6 in round
   * 5, 2's and 5's wins of rounds 3 and 4 were never played), and he is
   * listed last */
  xq_tournament *ev = rr6(NULL, 5);
  ev->players[5].withdrawn = 3;
  for (int r = 3; r <= 5; r++) { /* his games from round 3 were not played */
    xq_tslot *s = xq_tournament_slot(ev, 6, r);
    s->res = xq_tournament_slot(ev, s->opp, r)->res = XQ_TR_NONE;
  }
  xq_tstanding s[6];
  cr_assert_eq(xq_standings(ev, 0, s), XQ_OK);
  cr_assert(s[5].id == 6 && s[5].annulled && s[5].rank == 6);
  for (int i = 0; i < 5; i++) {
    cr_assert(!s[i].annulled);
    const int64_t pts[7] = {0, 5, 4, 3, 4, 4, 0}; /* 7-2, 6-2, 4-1, 4, 6-2 */
    cr_assert_eq(s[i].val[0], pts[s[i].id] * 2, "points of %d: %lld", s[i].id, (long long)s[i].val[0]);
  }
  cr_assert_eq(xq_rr_games_played(ev, 6), 2);
  xq_tournament_free(ev);
  /* after round 3 (3 of 5: half or more): his results stand, his games of
   * rounds 4 and 5 are forfeits won by 5 and 3 */
  ev = rr6(NULL, 5);
  ev->players[5].withdrawn = 4;
  for (int r = 4; r <= 5; r++) {
    xq_tslot *s6 = xq_tournament_slot(ev, 6, r);
    s6->res = xq_tournament_slot(ev, s6->opp, r)->res = XQ_TR_NONE;
  }
  cr_assert_eq(xq_standings(ev, 0, s), XQ_OK);
  for (int i = 0; i < 6; i++) {
    cr_assert(!s[i].annulled);
    if (s[i].id == 5) cr_assert_eq(s[i].val[0], 6 * 2, "5's win over 6 in round 4 is a forfeit win: 6 points");
    if (s[i].id == 3) cr_assert_eq(s[i].val[0], 5 * 2, "3's draw with 6 in round 5 became a forfeit win: 4 - 1 + 2");
    if (s[i].id == 6) cr_assert_eq(s[i].val[0], 2 * 2, "6 keeps his round-2 win and loses the rest");
  }
  /* the stored event is unchanged: the rule is applied to a copy */
  cr_assert_eq(xq_tournament_slot(ev, 6, 5)->res, XQ_TR_NONE);
  xq_tournament_free(ev);
}

Test(roundrobin, the_cross_table_shows_every_game_and_the_places)
{
  xq_tournament *ev = rr6(NULL, 5);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(xq_sheet_crosstable(ev, 0, XQ_SHEET_CSV, XQ_LANG_EN, f), XQ_OK);
  fclose(f);
  const char *want = "No,Name,1,2,3,4,5,6,Points,Place\r\n"
                     "1,P1,×,2,2,1,0,2,7,1\r\n"
                     "2,P2,0,×,0,2,2,2,6,3\r\n"
                     "3,P3,0,2,×,0,1,1,4,5\r\n"
                     "4,P4,1,0,2,×,1,0,4,4\r\n"
                     "5,P5,2,0,1,1,×,2,6,2\r\n"
                     "6,P6,0,0,1,2,0,×,3,6\r\n";
  cr_assert_str_eq(buf, want);
  free(buf);
  xq_tournament_free(ev);
}

/* Two games a pairing (两局制): four entrants, each table round played
 * twice in a row with colours swapped (R1 1–4 2–3, R2 4–1 3–2, R3 4–3
 * 1–2, R4 3–4 2–1, R5 2–4 3–1, R6 4–2 1–3), with
 *   R1 1-0, =   R2 1-0, 0-1   R3 =, 1-0   R4 =, =   R5 0-1, 0-1   R6 =, 1-0
 * Points 1: 9, 2: 5, 3: 3, 4: 7. The pairings' totals: 1–4 2:2, 1–2 3:1,
 * 1–3 4:0, 2–3 3:1, 2–4 1:3, 3–4 2:2, so 场分 (MATCHPTS, 2/1/0 a pairing)
 * 1: 1+2+2 = 5, 2: 0+2+0 = 2, 3: 0+0+1 = 1, 4: 1+2+1 = 4. */
Test(roundrobin, two_games_a_pairing_swap_colours_and_rank_by_match_points)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  xq_tconfig_round_robin(&cfg, 1);
  cr_assert_eq(xq_tconfig_two_games(&cfg), XQ_OK);
  cr_assert_eq(xq_rr_event_rounds(&cfg, 4), 6);
  char tb[128];
  xq_tconfig_tb_format(&cfg, tb, sizeof tb);
  cr_assert_str_eq(tb, "MATCHPTS,PTS,WINS,DE,FOULS,BWINS,LOT", "CXA 2011 14.2");
  xq_tournament *ev = numbered(&cfg, "rr", 4);
  static const int want[6][2][2] = {{{1, 4}, {2, 3}}, {{4, 1}, {3, 2}}, {{4, 3}, {1, 2}},
                                    {{3, 4}, {2, 1}}, {{2, 4}, {3, 1}}, {{4, 2}, {1, 3}}};
  static const char *const res[6][2] = {{"1-0", "="}, {"1-0", "0-1"}, {"=", "1-0"}, {"=", "="}, {"0-1", "0-1"},
                                        {"=", "1-0"}};
  for (int r = 1; r <= 6; r++) {
    xq_tpairing pr = {0};
    cr_assert_eq(xq_pair_system(ev, r, XQ_PAIR_CN, &pr, NULL), XQ_OK);
    cr_assert_eq(pr.nboards, 2);
    for (int b = 0; b < 2; b++) {
      cr_assert(pr.boards[b].red == want[r - 1][b][0] && pr.boards[b].black == want[r - 1][b][1],
                "round %d board %d: %d-%d", r, b + 1, pr.boards[b].red, pr.boards[b].black);
      game(ev, r, pr.boards[b].red, pr.boards[b].black, res[r - 1][b]);
    }
    xq_tpairing_clear(&pr);
  }
  const int64_t mp[4] = {5, 2, 1, 4}, pts[4] = {9, 5, 3, 7};
  for (int id = 1; id <= 4; id++) {
    cr_assert_eq(xq_tb_value(ev, XQ_TB_MATCHPTS, id, 6), mp[id - 1], "场分 of %d: %lld", id,
                 (long long)xq_tb_value(ev, XQ_TB_MATCHPTS, id, 6));
    cr_assert_eq(xq_tb_value(ev, XQ_TB_PTS, id, 6), pts[id - 1] * 2);
  }
  xq_tstanding s[4];
  cr_assert_eq(xq_standings(ev, 0, s), XQ_OK);
  const int order[4] = {1, 4, 2, 3};
  for (int i = 0; i < 4; i++) cr_assert_eq(s[i].id, order[i]);
  xq_tournament_free(ev);
  /* a double round robin of two-game pairings is not offered */
  xq_tconfig_round_robin(&cfg, 2);
  cr_assert_eq(xq_tconfig_two_games(&cfg), XQ_EINVAL);
}

/* A round robin in groups (分组循环): nine entrants numbered by rating in
 * two groups, dealt serpentine (numbers 1 4 5 8 9 to A, 2 3 6 7 to B);
 * each group plays its own table (A five rounds with a bye each, B
 * three), no game crosses groups, and each group is ranked and crossed
 * on its own. */
Test(roundrobin, groups_are_dealt_serpentine_and_play_their_own_tables)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  xq_tconfig_round_robin(&cfg, 1);
  cfg.rr_groups = 2;
  cr_assert_eq(xq_rr_event_rounds(&cfg, 9), 5, "the largest group's: 5 entrants");
  xq_tournament *ev = numbered(&cfg, "groups", 9);
  static const int group[10] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0};
  for (int id = 1; id <= 9; id++) cr_assert_eq(xq_rr_group_of(ev, id), group[id], "P%d", id);
  int met[10][10] = {{0}}, byes[10] = {0};
  for (int r = 1; r <= 5; r++) {
    xq_tpairing pr = {0};
    cr_assert_eq(xq_pair_system(ev, r, XQ_PAIR_CN, &pr, NULL), XQ_OK, "round %d", r);
    cr_assert_eq(pr.nboards, r <= 3 ? 5 : 3, "round %d: A's two games and bye, B's two games to round 3", r);
    for (int b = 0; b < pr.nboards; b++) {
      int red = pr.boards[b].red, black = pr.boards[b].black;
      if (!black) {
        cr_assert_eq(b, pr.nboards - 1, "the bye last");
        byes[red]++;
        continue;
      }
      cr_assert_eq(group[red], group[black], "round %d: P%d and P%d are of one group", r, red, black);
      met[red][black]++;
      met[black][red]++;
    }
    cr_assert_eq(xq_tournament_apply_pairing(ev, &pr), XQ_OK);
    for (int b = 0; b < pr.nboards; b++)
      if (pr.boards[b].black) game(ev, r, pr.boards[b].red, pr.boards[b].black, "1-0");
    xq_tpairing_clear(&pr);
  }
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_system(ev, 6, XQ_PAIR_CN, &pr, NULL), XQ_EINVAL, "every group is done");
  for (int a = 1; a <= 9; a++) {
    cr_assert_eq(byes[a], group[a] == 0, "P%d: %d byes", a, byes[a]);
    for (int b = 1; b <= 9; b++)
      if (a != b) cr_assert_eq(met[a][b], group[a] == group[b], "P%d and P%d met %d times", a, b, met[a][b]);
  }
  /* each group an event of its own: its members only, numbered inside it */
  int *ids;
  xq_tournament *a = xq_rr_group_event(ev, 0, &ids);
  cr_assert_not_null(a);
  cr_assert_eq(a->n, 5);
  for (int i = 0; i < 5; i++) cr_assert_eq(group[ids[i]], 0);
  xq_tstanding s[5];
  cr_assert_eq(xq_standings(a, 0, s), XQ_OK);
  int64_t sum = 0;
  for (int i = 0; i < 5; i++) sum += s[i].val[0];
  cr_assert_eq(sum, 10 * 4, "group A: ten games of two points, in half-units");
  free(ids);
  xq_tournament_free(a);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(xq_sheet_crosstable(ev, 0, XQ_SHEET_CSV, XQ_LANG_ZH, f), XQ_OK);
  fclose(f);
  cr_assert(strstr(buf, "A组 交叉表") && strstr(buf, "B组 交叉表"), "%s", buf);
  cr_assert(strstr(buf, "序号,姓名,1,2,3,4,5,积分,名次\r\n") && strstr(buf, "序号,姓名,1,2,3,4,积分,名次\r\n"), "%s", buf);
  free(buf);
  xq_tournament_free(ev);
}

/* Groups into a knockout (crossed): eight entrants in two groups of four,
 * every game won by the lower number inside the group, so each group's
 * places are its numbers 1, 2, 3, 4; the top two of each cross into a
 * knockout of four: A1–B2 and B1–A2. Sizes the groups cannot fill are
 * refused. */
Test(roundrobin, groups_cross_into_a_knockout)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  xq_tconfig_round_robin(&cfg, 1);
  cfg.rr_groups = 2;
  xq_tournament *ev = numbered(&cfg, "groups", 8);
  int place[9] = {0}; /* the number inside the group: the place */
  for (int g = 0; g < 2; g++) {
    int m[8], n = xq_rr_group_members(ev, g, m);
    cr_assert_eq(n, 4);
    for (int i = 0; i < n; i++) place[m[i]] = i + 1;
  }
  for (int r = 1; r <= 3; r++) {
    xq_tpairing pr = {0};
    cr_assert_eq(xq_pair_system(ev, r, XQ_PAIR_CN, &pr, NULL), XQ_OK);
    cr_assert_eq(xq_tournament_apply_pairing(ev, &pr), XQ_OK);
    for (int b = 0; b < pr.nboards; b++) {
      int red = pr.boards[b].red, black = pr.boards[b].black;
      game(ev, r, red, black, place[red] < place[black] ? "1-0" : "0-1");
    }
    xq_tpairing_clear(&pr);
  }
  int first[2][2]; /* [group][place - 1] */
  for (int id = 1; id <= 8; id++)
    if (place[id] <= 2) first[xq_rr_group_of(ev, id)][place[id] - 1] = id;
  xq_ko ko;
  xq_error err = {0};
  xq_ko_opts o = {.seeding = XQ_KO_FIXED, .format = XQ_KO_FMT_RAPID_ARMAGEDDON, .after = 3, .size = 4};
  cr_assert_eq(xq_ko_setup_event(ev, &o, &ko, &err), XQ_OK, "%s", err.msg);
  int a, b;
  cr_assert_eq(xq_ko_match_players(&ko, 1, &a, &b), 1);
  cr_assert(a == first[0][0] && b == first[1][1], "match 1: A1–B2, not P%d–P%d", a, b);
  cr_assert_eq(xq_ko_match_players(&ko, 2, &a, &b), 1);
  cr_assert(a == first[1][0] && b == first[0][1], "match 2: B1–A2, not P%d–P%d", a, b);
  o.size = 8; /* two groups of four: A1–B4, B2–A3 | B1–A4, A2–B3 */
  cr_assert_eq(xq_ko_setup_event(ev, &o, &ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_ko_match_players(&ko, 1, &a, &b), 1);
  cr_assert(place[a] == 1 && place[b] == 4 && xq_rr_group_of(ev, a) == 0 && xq_rr_group_of(ev, b) == 1);
  o.size = 2;
  cr_assert_eq(xq_ko_setup_event(ev, &o, &ko, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "knockout of 4, 8 or 16"), "%s", err.msg);
  o.size = 4;
  o.after = 2;
  ev->nrounds = 3;
  xq_tournament_slot(ev, 1, 2)->res = xq_tournament_slot(ev, xq_tournament_slot(ev, 1, 2)->opp, 2)->res = XQ_TR_NONE;
  cr_assert_eq(xq_ko_setup_event(ev, &o, &ko, &err), XQ_EINVAL, "round 2 has a game without a result");
  xq_tournament_free(ev);
}
