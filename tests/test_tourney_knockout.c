/*
 * test_tourney_knockout.c -- the knockout stage (docs/tourney.md, "Knockout stage"): the fixed
 * bracket 1–8, 2–7, 3–6, 4–5 and its semi-finals, the Tangshan top-seed
 * choice with a third-place match, the tie-break game sequences of the
 * regulations (swapped rapid, armageddon where a draw is a Black win,
 * repeated short games), and a small event in the store whose final
 * places merge the knockout with the Swiss that went on without it; the
 * knockout-only event (Shaanxi's 乡村棋王): brackets drawn by lot with
 * byes for 2..128 entrants in one or two pools, its places, the final's
 * clocks and the armageddon a draw gives to Black, in the store.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knockout.h"
#include "pair/pair.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "support.h"
#include "tourney.h"

/* Standings rows whose ids are base+1, base+2, ... in rank order. */
static void ranks(xq_tstanding *st, int n, int base)
{
  memset(st, 0, sizeof *st * (size_t)n);
  for (int i = 0; i < n; i++) { st[i].id = base + i + 1; st[i].rank = i + 1; }
}

/* Play the next game of match m with result res (colours by default). */
static void play(xq_ko *ko, int m, int red, int res)
{
  xq_ko_game g;
  cr_assert_eq(xq_ko_next_game(ko, m, red, &g), XQ_OK, "match %d", m);
  g.res = res;
  cr_assert_eq(xq_ko_add_game(ko, &g), XQ_OK);
}

static void pair_is(const xq_ko *ko, int m, int a, int b)
{
  int x, y;
  cr_assert_eq(xq_ko_match_players(ko, m, &x, &y), 1, "match %d not known", m);
  cr_assert(x == a && y == b, "match %d: %d-%d, want %d-%d", m, x, y, a, b);
}

Test(bracket, top_eight_meet_one_eight_two_seven_three_six_four_five)
{
  xq_tstanding st[12];
  xq_ko ko;
  /* ids 101..112 ranked in that order: seed k = id 100+k */
  ranks(st, 12, 100);
  cr_assert_eq(xq_ko_setup(&ko, st, 12, 8, 8, XQ_KO_FIXED, XQ_KO_FMT_RAPID_ARMAGEDDON, 0), XQ_OK);
  cr_assert_eq(xq_ko_nmatches(&ko), 7);
  pair_is(&ko, 1, 101, 108);
  pair_is(&ko, 2, 102, 107);
  pair_is(&ko, 3, 103, 106);
  pair_is(&ko, 4, 104, 105);
  int a, b;
  cr_assert_eq(xq_ko_match_players(&ko, 5, &a, &b), 0, "semi-final known before the quarter-finals");
  cr_assert_eq(xq_ko_stage(&ko, 4), 1);
  cr_assert_eq(xq_ko_stage(&ko, 6), 2);
  cr_assert_eq(xq_ko_stage(&ko, 7), 3);
  /* upsets in 1–8 and 3–6: seed 8 and seed 6 go on */
  play(&ko, 1, 0, -1);  /* 101 Red loses to 108 */
  play(&ko, 2, 0, 1);   /* 102 */
  play(&ko, 3, 0, -1);  /* 106 */
  play(&ko, 4, 0, 1);   /* 104 */
  /* (1/8 winner) – (4/5 winner), (2/7 winner) – (3/6 winner),
   * the better seed first */
  pair_is(&ko, 5, 104, 108);
  pair_is(&ko, 6, 102, 106);
  play(&ko, 5, 0, -1);  /* Red 104 loses: 108 */
  play(&ko, 6, 0, 1);   /* 102 */
  pair_is(&ko, 7, 102, 108);
  cr_assert_eq(xq_ko_match_players(&ko, 8, &a, &b), -1);
  /* places before the final: the finalists by seed, then the semi-final
   * losers 104 (seed 4), 106 (seed 6), then quarter-final losers by seed */
  int ids[8];
  cr_assert_eq(xq_ko_places(&ko, ids), 0);
  int prov[8] = {102, 108, 104, 106, 101, 103, 105, 107};
  for (int i = 0; i < 8; i++) cr_assert_eq(ids[i], prov[i], "provisional place %d", i + 1);
  play(&ko, 7, 108, 1);  /* 108 takes Red and wins the final */
  cr_assert_eq(xq_ko_places(&ko, ids), 1);
  int fin[8] = {108, 102, 104, 106, 101, 103, 105, 107};
  for (int i = 0; i < 8; i++) cr_assert_eq(ids[i], fin[i], "place %d", i + 1);
}

/* Where an undecided match's players come from, as the page names them:
 * the fixed bracket's semi-finals the winners of 1-8 and 4-5, of 2-7 and
 * 3-6; Tangshan's final and third-place match the winners and the losers
 * of the two semi-finals; a first-stage match nothing. */
Test(bracket, each_later_match_names_the_matches_it_waits_for)
{
  xq_tstanding st[12];
  xq_ko ko;
  int a, b;
  ranks(st, 12, 100);
  cr_assert_eq(xq_ko_setup(&ko, st, 12, 8, 8, XQ_KO_FIXED, XQ_KO_FMT_RAPID_ARMAGEDDON, 0), XQ_OK);
  cr_assert_eq(xq_ko_match_feeders(&ko, 1, &a, &b), 0);
  cr_assert_eq(xq_ko_match_feeders(&ko, 5, &a, &b), 1);
  cr_assert(a == 1 && b == 4, "seeds 1 and 4's side: %d %d", a, b);
  cr_assert_eq(xq_ko_match_feeders(&ko, 6, &a, &b), 1);
  cr_assert(a == 2 && b == 3, "%d %d", a, b);
  cr_assert_eq(xq_ko_match_feeders(&ko, 7, &a, &b), 1);
  cr_assert(a == 5 && b == 6, "%d %d", a, b);
  cr_assert_eq(xq_ko_match_feeders(&ko, 8, &a, &b), -1);
  ranks(st, 9, 0);
  cr_assert_eq(xq_ko_setup(&ko, st, 9, 9, 4, XQ_KO_TOP_CHOOSES, XQ_KO_FMT_ARMAGEDDON, 4), XQ_OK);
  cr_assert_eq(xq_ko_match_feeders(&ko, 3, &a, &b), 1);
  cr_assert(a == 1 && b == 2);
  cr_assert_eq(xq_ko_match_feeders(&ko, 4, &a, &b), 2, "the third-place match: the losers");
  cr_assert(a == 1 && b == 2);
}

Test(bracket, bad_setups_are_refused)
{
  xq_tstanding st[6];
  xq_ko ko;
  ranks(st, 6, 0);
  cr_assert_eq(xq_ko_setup(&ko, st, 6, 5, 8, XQ_KO_FIXED, 0, 0), XQ_EINVAL, "8 of 6 players");
  cr_assert_eq(xq_ko_setup(&ko, st, 6, 5, 6, XQ_KO_FIXED, 0, 0), XQ_EINVAL, "size 6");
  cr_assert_eq(xq_ko_setup(&ko, st, 6, 5, 4, XQ_KO_TOP_CHOOSES, 0, 2), XQ_EINVAL, "#1 may pick only #3/#4");
  cr_assert_eq(xq_ko_setup(&ko, st, 6, 0, 4, XQ_KO_FIXED, 0, 0), XQ_EINVAL, "no cut round");
  cr_assert_eq(xq_ko_setup(&ko, st, 6, 5, 4, XQ_KO_FIXED, 0, 0), XQ_OK);
  /* a game of a match whose players are unknown, or with an outsider Red */
  xq_ko_game g;
  cr_assert_eq(xq_ko_next_game(&ko, 3, 0, &g), XQ_EINVAL);
  cr_assert_eq(xq_ko_next_game(&ko, 1, 5, &g), XQ_EINVAL);
  cr_assert_eq(xq_ko_next_game(&ko, 1, 4, &g), XQ_OK, "seed 4 may take Red by lot");
  cr_assert(g.red == 4 && g.black == 1);
}

Test(tangshan, top_seed_chooses_opponent_and_colours)
{
  xq_tstanding st[9];
  xq_ko ko;
  ranks(st, 9, 0);
  /* 第1名决定下半区对手: #1 picks #4, so #2 meets #3 */
  cr_assert_eq(xq_ko_setup(&ko, st, 9, 9, 4, XQ_KO_TOP_CHOOSES, XQ_KO_FMT_ARMAGEDDON, 4), XQ_OK);
  cr_assert_eq(xq_ko_nmatches(&ko), 4, "two semi-finals, final, third place");
  pair_is(&ko, 1, 1, 4);
  pair_is(&ko, 2, 2, 3);
  /* and the colours: #1 takes Black in the standard game */
  xq_ko_game g;
  cr_assert_eq(xq_ko_next_game(&ko, 1, 4, &g), XQ_OK);
  cr_assert(g.type == XQ_KG_STANDARD && g.red == 4 && g.black == 1);
  g.res = 0;
  cr_assert_eq(xq_ko_add_game(&ko, &g), XQ_OK);
  /* Tangshan: a draw goes straight to the armageddon, #1 chooses Red */
  cr_assert_eq(xq_ko_next_game(&ko, 1, 1, &g), XQ_OK);
  cr_assert(g.type == XQ_KG_ARMAGEDDON && g.red == 1 && g.black == 4);
  g.res = 0;
  cr_assert_eq(xq_ko_add_game(&ko, &g), XQ_OK);
  cr_assert_eq(xq_ko_winner(&ko, 1), 4, "armageddon draw: Black (#4) wins");
  play(&ko, 2, 0, 1);  /* #2 beats #3 */
  pair_is(&ko, 3, 2, 4);  /* final */
  pair_is(&ko, 4, 1, 3);  /* 负者争夺第三名 */
  play(&ko, 3, 0, -1);  /* #4 (Black) wins the final */
  int ids[4];
  cr_assert_eq(xq_ko_places(&ko, ids), 0, "third-place match still to play");
  play(&ko, 4, 0, -1);  /* #3 beats #1 */
  cr_assert_eq(xq_ko_places(&ko, ids), 1);
  cr_assert(ids[0] == 4 && ids[1] == 2 && ids[2] == 3 && ids[3] == 1,
            "places %d %d %d %d", ids[0], ids[1], ids[2], ids[3]);

  /* the other pick: #1 takes #3, #2 meets #4 */
  cr_assert_eq(xq_ko_setup(&ko, st, 9, 9, 4, XQ_KO_TOP_CHOOSES, XQ_KO_FMT_ARMAGEDDON, 3), XQ_OK);
  pair_is(&ko, 1, 1, 3);
  pair_is(&ko, 2, 2, 4);
}

Test(tiebreak_games, draw_goes_to_swapped_rapid_then_armageddon_draw_is_black_win)
{
  xq_tstanding st[8];
  xq_ko ko;
  ranks(st, 8, 0);
  cr_assert_eq(xq_ko_setup(&ko, st, 8, 8, 8, XQ_KO_FIXED, XQ_KO_FMT_RAPID_ARMAGEDDON, 0), XQ_OK);
  xq_ko_game g;
  /* standard game: seed 1 Red by default; drawn */
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_OK);
  cr_assert(g.type == XQ_KG_STANDARD && g.red == 1 && g.black == 8);
  cr_assert_str_eq(xq_ko_time_control(ko.format, g.type), "20+5");
  g.res = 0;
  cr_assert_eq(xq_ko_add_game(&ko, &g), XQ_OK);
  cr_assert_eq(xq_ko_winner(&ko, 1), 0, "a drawn standard game decides nothing");
  /* 换先快棋: colours swapped, and a Red that breaks the swap is refused */
  cr_assert_eq(xq_ko_next_game(&ko, 1, 1, &g), XQ_EINVAL);
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_OK);
  cr_assert(g.type == XQ_KG_RAPID && g.red == 8 && g.black == 1);
  cr_assert_str_eq(xq_ko_time_control(ko.format, g.type), "10+5");
  g.res = 0;
  cr_assert_eq(xq_ko_add_game(&ko, &g), XQ_OK);
  cr_assert_eq(xq_ko_winner(&ko, 1), 0);
  /* armageddon, colours by lot: seed 8 drew Red */
  cr_assert_eq(xq_ko_next_game(&ko, 1, 8, &g), XQ_OK);
  cr_assert(g.type == XQ_KG_ARMAGEDDON && g.red == 8 && g.black == 1);
  cr_assert_str_eq(xq_ko_time_control(ko.format, g.type), "R6+3/B4+3");
  g.res = 0;
  cr_assert_eq(xq_ko_add_game(&ko, &g), XQ_OK);
  /* 和棋黑胜: seed 1 had Black */
  cr_assert_eq(xq_ko_winner(&ko, 1), 1);
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_EINVAL, "no game after the decision");
  /* a game that is not the expected next one is refused */
  xq_ko_game bad = {.match = 2, .type = XQ_KG_RAPID, .red = 7, .black = 2, .res = 1};
  cr_assert_eq(xq_ko_add_game(&ko, &bad), XQ_EINVAL);

  /* match 2: the armageddon won outright by Red counts as any win */
  play(&ko, 2, 0, 0);
  play(&ko, 2, 0, 0);
  play(&ko, 2, 0, 1);  /* Red = seed 2 (default: the higher seed) */
  cr_assert_eq(xq_ko_winner(&ko, 2), 2);
}

/* Whose colours are drawn at the table, so that no Red is a default: the
 * armageddon everywhere; Wujiaqu's first knockout stage (九(一) 淘汰赛第一轮
 * …先后手抽签决定) but not its later stages; the village king's final
 * (Shaanxi 十(二)2 总决赛抽签定先); Xinjiang's standard games not. */
Test(tiebreak_games, the_colours_drawn_at_the_table)
{
  xq_tstanding st[8];
  xq_ko ko;
  xq_ko_game g = {0};
  ranks(st, 8, 0);
  cr_assert_eq(xq_ko_setup(&ko, st, 8, 10, 8, XQ_KO_FIXED, XQ_KO_FMT_RAPID_BLITZ, 0), XQ_OK);
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_OK);
  cr_assert_eq(g.type, XQ_KG_STANDARD);
  cr_assert_eq(xq_ko_red_drawn(&ko, &g), 1, "Wujiaqu's quarter-final");
  g.match = 5; /* a semi-final's standard game */
  cr_assert_eq(xq_ko_red_drawn(&ko, &g), 0, "the text is silent after the first stage");
  cr_assert_eq(xq_ko_setup(&ko, st, 8, 10, 8, XQ_KO_FIXED, XQ_KO_FMT_RAPID_ARMAGEDDON, 0), XQ_OK);
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_OK);
  cr_assert_eq(xq_ko_red_drawn(&ko, &g), 0, "Xinjiang's standard game: the higher seed Red");
  g.type = XQ_KG_ARMAGEDDON;
  cr_assert_eq(xq_ko_red_drawn(&ko, &g), 1);
  g.type = XQ_KG_RAPID;
  cr_assert_eq(xq_ko_red_drawn(&ko, &g), 0, "the rapid game swaps the colours");
  cr_assert_eq(xq_ko_setup(&ko, st, 8, 10, 8, XQ_KO_FIXED, XQ_KO_FMT_VILLAGE, 0), XQ_OK);
  g = (xq_ko_game){.match = 7, .type = XQ_KG_STANDARD};
  cr_assert_eq(xq_ko_red_drawn(&ko, &g), 1, "the village final");
  g.match = 5;
  cr_assert_eq(xq_ko_red_drawn(&ko, &g), 0);
}

Test(tiebreak_games, wujiaqu_repeats_short_games_until_decided)
{
  xq_tstanding st[8];
  xq_ko ko;
  ranks(st, 8, 0);
  cr_assert_eq(xq_ko_setup(&ko, st, 8, 10, 8, XQ_KO_FIXED, XQ_KO_FMT_RAPID_BLITZ, 0), XQ_OK);
  /* 先后手抽签决定: seed 5 drew Red in the standard game */
  play(&ko, 4, 5, 0);
  play(&ko, 4, 0, 0);  /* rapid 10+3: 4 Red */
  xq_ko_game g;
  for (int i = 0; i < 3; i++) {
    /* 附加赛 5+3 drawn, colours alternating: 5, 4, 5 */
    cr_assert_eq(xq_ko_next_game(&ko, 4, 0, &g), XQ_OK);
    cr_assert_eq(g.type, XQ_KG_BLITZ);
    cr_assert_eq(g.red, i % 2 ? 4 : 5, "blitz %d", i + 1);
    cr_assert_str_eq(xq_ko_time_control(ko.format, g.type), "5+3");
    g.res = 0;
    cr_assert_eq(xq_ko_add_game(&ko, &g), XQ_OK);
    cr_assert_eq(xq_ko_winner(&ko, 4), 0, "a drawn short game is not an armageddon");
  }
  play(&ko, 4, 0, -1);  /* sixth game: 4 Red loses, 5 wins */
  cr_assert_eq(xq_ko_winner(&ko, 4), 5);
  /* the limit on games per match */
  for (int i = 0; i < XQ_KO_MATCH_GAMES_MAX; i++) play(&ko, 1, 0, 0);
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_ELIMIT);
}

/* ------------------------------------------------------------------ */
/* A small event in the store                                          */
/* ------------------------------------------------------------------ */

static xq_tournament *reload(xq_tstore *st)
{
  xq_tournament *ev;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  return ev;
}

static void publish(xq_tstore *st, int round, const int (*b)[2], int nb, const char *const *res)
{
  xq_tournament *ev = reload(st);
  xq_error err = {0};
  if (round == 1) cr_assert_eq(xq_assign_pnos(ev), XQ_OK);
  xq_tpairing pr = {.round = round, .nboards = nb};
  xq_tboard boards[8];
  for (int i = 0; i < nb; i++) boards[i] = (xq_tboard){b[i][0], b[i][1]};
  pr.boards = boards;
  cr_assert_eq(xq_tstore_publish(st, ev, &pr, &err), XQ_OK, "%s", err.msg);
  for (int i = 0; i < nb; i++)
    cr_assert_eq(xq_tstore_result(st, round, i + 1, res[i], &err), XQ_OK, "%s", err.msg);
  xq_tournament_free(ev);
}

/* A new store at a temporary path (filled in) with an event `name` of
 * `rounds` rounds (2/1/0, PTS, OS, ...) and `n` players 棋手1.. whose
 * ratings make the pairing numbers equal the ids. */
static xq_tstore *new_event(char *path, size_t len, const char *name, int n, int rounds)
{
  xq_tstore *st;
  xq_error err = {0};
  xq_tconfig cfg;
  xq_test_db_path(path, len, "tourney_ko");
  xq_test_db_remove(path);
  xq_tconfig_default(&cfg);
  cfg.rounds = rounds;
  cr_assert_eq(xq_tstore_open(path, 1, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_schema_version(st), XQ_STORE_SCHEMA_VERSION);
  cr_assert_eq(xq_tstore_create_event(st, name, &cfg, &err), XQ_OK, "%s", err.msg);
  for (int i = 1; i <= n; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "棋手%d", i);
    p.rating = 2100 - 10 * i;
    cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK, "%s", err.msg);
  }
  return st;
}

static void store_game(xq_tstore *st, xq_ko *ko, int m, int red, int res)
{
  xq_ko_game g;
  xq_error err = {0};
  cr_assert_eq(xq_ko_next_game(ko, m, red, &g), XQ_OK);
  g.res = res;
  cr_assert_eq(xq_tstore_ko_game(st, &g, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, ko, &err), XQ_OK, "%s", err.msg);
}

Test(store, knockout_beside_the_swiss_and_merged_places)
{
  char path[512];
  xq_error err = {0};
  xq_tstore *st = new_event(path, sizeof path, "淘汰赛测试", 6, 4);
  /* R1: 1-2, 3-4, 5-6 all won by Red.  R2: 1-3 1-0, 5-2 1-0, 4-6 draw.
   * Points after R2 (2/1/0): P1 4, P5 4, P3 2, P4 1, P6 1, P2 0.
   * OS: P1 = P2 0 + P3 2 = 2, P5 = P6 1 + P2 0 = 1 -> P1 before P5;
   * P6 = P5 4 + P4 1 = 5, P4 = P3 2 + P6 1 = 3 -> P6 before P4.
   * Ranking at the cut: 1, 5, 3, 6, 4, 2. */
  const int r1[3][2] = {{1, 2}, {3, 4}, {5, 6}};
  const char *w3[] = {"1-0", "1-0", "1-0"};
  publish(st, 1, r1, 3, w3);
  const int r2[3][2] = {{1, 3}, {5, 2}, {4, 6}};
  const char *res2[] = {"1-0", "1-0", "="};
  publish(st, 2, r2, 3, res2);

  xq_tournament *ev = reload(st);
  xq_tstanding s[6];
  xq_ko ko;
  cr_assert_eq(xq_standings(ev, 2, s), XQ_OK);
  cr_assert_eq(xq_ko_setup(&ko, s, 6, 2, 4, XQ_KO_FIXED, XQ_KO_FMT_RAPID_ARMAGEDDON, 0), XQ_OK);
  int seeds[4] = {1, 5, 3, 6};
  for (int i = 0; i < 4; i++) cr_assert_eq(ko.seeds[i], seeds[i], "seed %d", i + 1);
  xq_tournament_free(ev);
  cr_assert_eq(xq_tstore_ko_start(st, &ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_start(st, &ko, &err), XQ_EINVAL, "started twice");
  /* a stage after a Swiss reads back as one: no pools, its choice column its own */
  xq_ko *back = malloc(sizeof *back);
  cr_assert_not_null(back);
  cr_assert_eq(xq_tstore_ko_load(st, back, &err), XQ_OK, "%s", err.msg);
  cr_assert(back->after == 2 && back->pools == 0 && back->seeding == XQ_KO_FIXED);
  free(back);

  /* the seeds are KO in rounds 3 and 4; only 2 and 4 are paired */
  ev = reload(st);
  for (int i = 0; i < 4; i++)
    for (int r = 3; r <= 4; r++)
      cr_assert_eq(xq_tournament_slot(ev, seeds[i], r)->res, XQ_TR_KO, "player %d round %d", seeds[i], r);
  xq_tpairing pr;
  cr_assert_eq(xq_pair_cn(ev, 3, &pr, NULL), XQ_OK);
  cr_assert_eq(pr.nboards, 1);
  cr_assert(pr.boards[0].red + pr.boards[0].black == 2 + 4 && pr.boards[0].black);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  const int r3[1][2] = {{4, 2}};
  const char *res3[] = {"1-0"};
  publish(st, 3, r3, 1, res3);
  const int r4[1][2] = {{2, 4}};
  const char *res4[] = {"="};
  publish(st, 4, r4, 1, res4);  /* P4 4 points, P2 1 */

  /* semi-finals 1–4 (P1–P6) and 2–3 (P5–P3) */
  cr_assert_eq(xq_tstore_ko_load(st, &ko, &err), XQ_OK, "%s", err.msg);
  pair_is(&ko, 1, 1, 6);
  pair_is(&ko, 2, 5, 3);
  store_game(st, &ko, 1, 0, -1);  /* P6 (Black) wins */
  store_game(st, &ko, 2, 0, 0);   /* drawn, then the swapped rapid: P3 Red wins */
  store_game(st, &ko, 2, 0, 1);
  cr_assert_eq(ko.ngames, 3);
  cr_assert_eq(ko.games[2].type, XQ_KG_RAPID);
  cr_assert_eq(ko.games[2].red, 3);
  pair_is(&ko, 3, 3, 6);
  /* a game for a decided match is refused and leaves the log as it was */
  xq_ko_game dup = ko.games[0];
  cr_assert_eq(xq_tstore_ko_game(st, &dup, &err), XQ_EINVAL);
  store_game(st, &ko, 3, 0, -1);  /* final: P3 Red, P6 wins */

  /* P6, P3, then semi-final losers by seed (P1 #1, P5 #2), then
   * the Swiss: P4 (4 points) before P2 (1) */
  ev = reload(st);
  int ids[6], want[6] = {6, 3, 1, 5, 4, 2};
  cr_assert_eq(xq_final_places(ev, &ko, ids), XQ_OK);
  for (int i = 0; i < 6; i++) cr_assert_eq(ids[i], want[i], "place %d: %d", i + 1, ids[i]);
  /* with no knockout the same call gives the Swiss order of all rounds:
   * final points P1 4, P5 4, P4 4 (0+1+2+1), P3 2, P2 1, P6 1; OS: P4 =
   * P3 2 + P6 1 + P2 1 + P2 1 = 5, P1 = P2 1 + P3 2 = 3, P5 = P6 1 + P2 1
   * = 2 (the KO rounds add nothing) -- so P4, P1, P5 */
  xq_ko none;
  memset(&none, 0, sizeof none);
  cr_assert_eq(xq_final_places(ev, &none, ids), XQ_OK);
  cr_assert(ids[0] == 4 && ids[1] == 1 && ids[2] == 5, "Swiss order %d %d %d", ids[0], ids[1], ids[2]);
  xq_tournament_free(ev);
  xq_tstore_close(st);

  /* everything survives a reopen */
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  xq_ko again;
  cr_assert_eq(xq_tstore_ko_load(st, &again, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(again.ngames, 4);
  cr_assert_eq(xq_ko_winner(&again, 3), 6);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* Knockout games on the live server's tables (XQ_KO_ROUND): published
 * one at a time per match, decided only by their table's result, kept
 * across a reopen. */
Test(store, knockout_tables_published_and_decided_by_their_result)
{
  char path[512];
  xq_error err = {0};
  xq_tstore *st = new_event(path, sizeof path, "淘汰赛台次", 4, 2);
  const int r1[2][2] = {{1, 2}, {3, 4}};
  const char *w[] = {"1-0", "1-0"};
  publish(st, 1, r1, 2, w);
  xq_tournament *ev = reload(st);
  xq_tstanding s[4];
  xq_ko ko;
  cr_assert_eq(xq_standings(ev, 1, s), XQ_OK);
  xq_tournament_free(ev);
  cr_assert_eq(xq_ko_setup(&ko, s, 4, 1, 4, XQ_KO_FIXED, XQ_KO_FMT_RAPID_ARMAGEDDON, 0), XQ_OK);
  int a = ko.seeds[0], d = ko.seeds[3];
  xq_ko_game g;
  int table = 0;
  /* nothing to publish before the stage starts */
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_OK);
  cr_assert_eq(xq_tstore_ko_publish(st, &g, &table, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_ko_start(st, &ko, &err), XQ_OK, "%s", err.msg);

  /* match 1 at table 1, match 2 at table 2 */
  cr_assert_eq(xq_tstore_ko_publish(st, &g, &table, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(table, 1);
  cr_assert_eq(xq_tstore_ko_publish(st, &g, &table, &err), XQ_EINVAL, "a match has one game in play");
  cr_assert_eq(xq_tstore_ko_load(st, &ko, &err), XQ_OK, "%s", err.msg);
  xq_ko_game g2;
  cr_assert_eq(xq_ko_next_game(&ko, 2, 0, &g2), XQ_OK);
  cr_assert_eq(xq_tstore_ko_publish(st, &g2, &table, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(table, 2);
  cr_assert_eq(xq_tstore_ko_load(st, &ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ko.ntables, 2);
  cr_assert_eq(xq_ko_in_play(&ko, 1), 1);
  cr_assert_eq(xq_ko_in_play(&ko, 2), 2);
  cr_assert(ko.tables[0].red == a && ko.tables[0].black == d && ko.tables[0].type == XQ_KG_STANDARD);

  /* the game in play is not entered by hand */
  g.res = 1;
  cr_assert_eq(xq_tstore_ko_game(st, &g, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "knockout table"), "%s", err.msg);
  /* table 1 drawn: the result through the common entry point */
  cr_assert_eq(xq_tstore_result(st, XQ_KO_ROUND, 1, "--", &err), XQ_EINVAL, "no double forfeit");
  cr_assert_eq(xq_tstore_result(st, XQ_KO_ROUND, 3, "1-0", &err), XQ_EINVAL, "no table 3");
  cr_assert_eq(xq_tstore_result(st, XQ_KO_ROUND, 1, "=", &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_result(st, XQ_KO_ROUND, 1, "1-0", &err), XQ_EINVAL, "decided once");
  cr_assert_eq(xq_tstore_result(st, XQ_KO_ROUND, 2, "-+", &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, &ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ko.ngames, 2);
  cr_assert_eq(ko.games[0].table, 1);
  cr_assert_eq(ko.games[0].res, 0);
  cr_assert(ko.tables[0].done && ko.tables[1].done);
  cr_assert_eq(xq_ko_in_play(&ko, 1), 0);
  cr_assert_eq(xq_ko_winner(&ko, 2), ko.tables[1].black);

  /* the draw leads to the colour-swapped rapid game at table 3 */
  cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_OK);
  cr_assert_eq(g.type, XQ_KG_RAPID);
  cr_assert_eq(g.red, d);
  cr_assert_eq(xq_tstore_ko_publish(st, &g, &table, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(table, 3);
  xq_tstore_close(st);
  /* `tourney bracket` says where the game is being played */
  char args[600];
  int status;
  snprintf(args, sizeof args, "tourney bracket --db %s", path);
  char *out = xq_test_run(args, &status);
  cr_assert_eq(status, 0, "%s", out);
  cr_assert(strstr(out, "playing: game 2 rapid"), "%s", out);
  cr_assert(strstr(out, "at knockout table 3 (round 50)"), "%s", out);
  free(out);

  /* a reopen keeps the tables, which is done and which in play */
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, &ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ko.ntables, 3);
  cr_assert_eq(xq_ko_in_play(&ko, 1), 3);
  cr_assert_eq(xq_tstore_result(st, XQ_KO_ROUND, 3, "0-1", &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, &ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_ko_winner(&ko, 1), a, "the rapid game's Black, seed 1, won");
  /* the final: the winners meet */
  int x, y;
  cr_assert_eq(xq_ko_match_players(&ko, 3, &x, &y), 1);
  cr_assert(x == a && y == ko.tables[1].black);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

static char *run(const char *args, int *status) { return xq_test_run(args, status); }

/* Run `xqref` with the arguments printf makes of `fmt`; assert its exit
 * status and that its output holds `says` (NULL: anything). */
static void cli_says(int want, const char *says, const char *fmt, ...)
{
  char args[1024];
  int status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  char *out = run(args, &status);
  cr_assert_eq(status, want, "%s: %s", args, out);
  if (says) cr_assert(strstr(out, says), "%s: wants '%s' in: %s", args, says, out);
  free(out);
}

Test(cli, knockout_actions)
{
  char path[512], args[1024];
  int status;
  xq_test_db_path(path, sizeof path, "tourney_ko");
  xq_test_db_remove(path);
  cli_says(0, NULL, "tourney new --db %s --rounds 3", path);
  for (int i = 1; i <= 4; i++)
    cli_says(0, NULL, "tourney add --db %s --name P%d --rating %d", path, i, 2000 - i);
  cli_says(0, NULL, "tourney pair --db %s", path);
  /* round 1: 1–2 and 4–3 (even board: larger number Red); Red wins both */
  for (int b = 1; b <= 2; b++) cli_says(0, NULL, "tourney result --db %s --round 1 --board %d 1-0", path, b);
  /* the winners P1 and P4 (2 points each) meet in the final: standard
   * game, swapped rapid, armageddon drawn = the Black player wins */
  cli_says(1, NULL, "tourney knockout --db %s --after 1 --size 3", path);          /* size 3 */
  cli_says(1, "not complete", "tourney knockout --db %s --after 2 --size 2", path); /* round 2 not played */
  cli_says(0, "match 1 (final)", "tourney knockout --db %s --after 1 --size 2", path);
  cli_says(0, "next: rapid 10+5", "tourney ko-result --db %s --match 1 =", path);
  /* the armageddon's colours are the lot's at the table (九(二) 抽签决定先后手):
   * none is announced */
  cli_says(0, "next: armageddon R6+3/B4+3, colours drawn or chosen at the table (--red NO)\n",
           "tourney ko-result --db %s --match 1 =", path);
  cli_says(0, "  next: game 3 armageddon R6+3/B4+3, colours drawn or chosen at the table (--red NO)\n",
           "tourney bracket --db %s", path);
  /* the armageddon's Red comes from the table, never by default */
  cli_says(1, "give --red NO, the player who had Red", "tourney ko-result --db %s --match 1 =", path);
  snprintf(args, sizeof args, "tourney ko-result --db %s --match 1 --red 1 =", path);
  char *out = run(args, &status);
  cr_assert_eq(status, 0, "%s", out);
  cr_assert(strstr(out, "armageddon") && strstr(out, "winner:"), "%s", out);
  free(out);
  /* a decided match takes no more games */
  cli_says(1, NULL, "tourney ko-result --db %s --match 1 1-0", path);
  cli_says(0, "final places\n", "tourney places --db %s", path); /* not provisional */
  snprintf(args, sizeof args, "tourney log --db %s", path);
  out = run(args, &status);
  cr_assert_eq(status, 0, "%s", out);
  cr_assert(strstr(out, "ko-start") && strstr(out, "armageddon red="), "knockout log rows: %s", out);
  free(out);
  xq_test_db_remove(path);
}

/* Issue 33: an event made with a preset (its title names the regulation)
 * plays the regulation's knockout unless an option says otherwise:
 * Tangshan 八.3 top 4, #1 chooses (so --choice is asked for), the
 * armageddon; Wujiaqu 九(一) top 8, fixed, rapid then 5+3 games; the round
 * the regulation names (Tangshan after round 9); an event of no
 * regulation still needs --after. */
Test(cli, knockout_takes_the_regulation_s_when_options_are_left_out)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "tourney_ko_reg");
  const char *presets[] = {"tangshan2018", "wujiaqu2024"};
  for (int k = 0; k < 2; k++) {
    xq_test_db_remove(path);
    cli_says(0, NULL, "tourney new --db %s --preset %s --rounds 2", path, presets[k]);
    for (int i = 1; i <= 8; i++) cli_says(0, NULL, "tourney add --db %s --name P%d --rating %d", path, i, 2000 - i);
    cli_says(0, NULL, "tourney pair --db %s", path);
    for (int b = 1; b <= 4; b++) cli_says(0, NULL, "tourney result --db %s --round 1 --board %d 1-0", path, b);
    if (k == 0) {
      cli_says(2, "--seeding choose needs --choice", "tourney knockout --db %s", path);
      cli_says(1, "round 9 is not complete", "tourney knockout --db %s --choice 3", path);
      cli_says(0, "knockout after round 1: top 4, seeding choose, tie-breaks armageddon",
               "tourney knockout --db %s --after 1 --choice 3", path);
    } else {
      cli_says(0, "knockout after round 1: top 8, seeding fixed, tie-breaks rapid-blitz",
               "tourney knockout --db %s --after 1", path);
    }
  }
  xq_test_db_remove(path);
  cli_says(0, NULL, "tourney new --db %s --rounds 2", path);
  cli_says(2, "--after K is required", "tourney knockout --db %s", path);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* A knockout-only event: the bracket drawn by lot (docs/village-king.md) */
/* ------------------------------------------------------------------ */

static int pow2_up(int n)
{
  int k = 2;
  while (k < n) k *= 2;
  return k;
}

/* Every entrant once, byes where the positions are left, no first-stage
 * match of two byes unless a pool has fewer entrants than half its half. */
static void bracket_is_sound(const xq_ko *ko, const int *ids, const int *pool, int n, int two_byes_ok)
{
  cr_assert_eq(ko->after, XQ_KO_NO_SWISS);
  cr_assert_eq(ko->seeding, XQ_KO_LOT);
  cr_assert_eq(xq_ko_entrants(ko), n);
  cr_assert_eq(xq_ko_nmatches(ko), ko->size - 1);
  for (int i = 0; i < n; i++) {
    int seen = 0;
    for (int p = 0; p < ko->size; p++) seen += ko->seeds[p] == ids[i];
    cr_assert_eq(seen, 1, "entrant %d is in the bracket %d times", ids[i], seen);
    cr_assert_eq(xq_ko_pool_of(ko, ids[i]), pool ? pool[i] : 0, "entrant %d drawn into the other half", ids[i]);
  }
  int byes = 0;
  for (int m = 1; m <= ko->size / 2; m++) {
    int a, b, k = xq_ko_match_players(ko, m, &a, &b);
    cr_assert(k == 1 || k == 2, "stage-1 match %d: %d", m, k);
    if (k == 2) {
      byes += a ? 1 : 2;
      if (!two_byes_ok) cr_assert_neq(a, 0, "match %d: two byes", m);
      cr_assert(xq_ko_decided(ko, m), "a bye match needs no game");
      cr_assert_eq(xq_ko_winner(ko, m), a);
    }
  }
  cr_assert_eq(byes, ko->size - n);
}

Test(lot_bracket, every_entry_count_from_2_to_128_gets_its_byes)
{
  xq_ko *ko = malloc(sizeof *ko);
  int ids[XQ_KO_SIZE_MAX], pool[XQ_KO_SIZE_MAX];
  cr_assert_not_null(ko);
  for (int n = 2; n <= XQ_KO_SIZE_MAX; n++) {
    for (int i = 0; i < n; i++) ids[i] = 1000 + 7 * i, pool[i] = i % 2;
    /* one pool: the smallest power of two that holds them */
    cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, n, 1, (uint64_t)n, XQ_KO_FMT_VILLAGE), XQ_OK, "n %d", n);
    cr_assert_eq(ko->size, pow2_up(n), "n %d", n);
    bracket_is_sound(ko, ids, NULL, n, 0);
    /* two pools, a half each, the size of the larger pool's */
    cr_assert_eq(xq_ko_setup_lot(ko, ids, pool, n, 2, (uint64_t)n, XQ_KO_FMT_VILLAGE), XQ_OK, "n %d", n);
    cr_assert_eq(ko->size, 2 * pow2_up((n + 1) / 2) / ((n + 1) / 2 == 1 ? 2 : 1), "n %d: size %d", n, ko->size);
    cr_assert_eq(ko->pools, 2);
    bracket_is_sound(ko, ids, pool, n, 0);
  }
  free(ko);
}

Test(lot_bracket, the_same_lot_draws_the_same_bracket)
{
  xq_ko *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  int ids[48];
  cr_assert(a && b);
  for (int i = 0; i < 48; i++) ids[i] = i + 1;
  cr_assert_eq(xq_ko_setup_lot(a, ids, NULL, 48, 1, 12345, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_eq(xq_ko_setup_lot(b, ids, NULL, 48, 1, 12345, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_eq(memcmp(a->seeds, b->seeds, sizeof a->seeds), 0);
  cr_assert_eq(xq_ko_setup_lot(b, ids, NULL, 48, 1, 54321, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_neq(memcmp(a->seeds, b->seeds, sizeof a->seeds), 0, "another lot, the same draw");
  free(a);
  free(b);
}

Test(lot_bracket, uneven_pools_still_send_each_winner_to_the_final)
{
  xq_ko *ko = malloc(sizeof *ko);
  int ids[35], pool[35], w[XQ_KO_SIZE_MAX];
  cr_assert_not_null(ko);
  /* 5 in the first pool, 30 in the second: halves of 32 */
  for (int i = 0; i < 35; i++) ids[i] = i + 1, pool[i] = i >= 5;
  cr_assert_eq(xq_ko_setup_lot(ko, ids, pool, 35, 2, 9, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_eq(ko->size, 64);
  bracket_is_sound(ko, ids, pool, 35, 1);
  /* Red wins every game */
  int nm = xq_ko_nmatches(ko), games = 0;
  for (int m = 1; m <= nm; m++) {
    int a, b, k = xq_ko_match_players(ko, m, &a, &b);
    cr_assert(k == 1 || k == 2, "match %d waits after the earlier stages are played", m);
    if (k == 1) play(ko, m, 0, 1), games++;
  }
  cr_assert_eq(games, 34, "every game puts one entrant out");
  int fa, fb;
  cr_assert_eq(xq_ko_match_players(ko, nm, &fa, &fb), 1);
  cr_assert_eq(xq_ko_pool_of(ko, fa), 0);
  cr_assert_eq(xq_ko_pool_of(ko, fb), 1);
  cr_assert_eq(xq_ko_places(ko, w), 1);
  cr_assert_eq(w[0], xq_ko_winner(ko, nm));
  cr_assert_eq(xq_ko_pool_places(ko, 0, w), 5);
  cr_assert_eq(w[0], fa, "a pool's first place is its winner");
  cr_assert_eq(xq_ko_pool_places(ko, 1, w), 30);
  cr_assert_eq(w[0], fb);
  free(ko);
}

/* The index of `id` in ids[0..n-1], -1 when absent. */
static int index_of(const int *ids, int n, int id)
{
  for (int i = 0; i < n; i++)
    if (ids[i] == id) return i;
  return -1;
}

Test(lot_bracket, a_bracket_of_64_is_placed_by_stage_then_by_the_winner_s_place)
{
  xq_ko *ko = malloc(sizeof *ko);
  int ids[40], w[XQ_KO_SIZE_MAX], loser_stage[41] = {0}, conq[41] = {0};
  cr_assert_not_null(ko);
  for (int i = 0; i < 40; i++) ids[i] = i + 1;
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 40, 1, 77, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_eq(ko->size, 64, "a bracket larger than 16");
  /* results: Black wins in even-numbered matches, Red in the others */
  int nm = xq_ko_nmatches(ko);
  for (int m = 1; m <= nm; m++) {
    int a, b;
    if (xq_ko_match_players(ko, m, &a, &b) != 1) continue;
    cr_assert_eq(xq_ko_places(ko, w), 0, "provisional while match %d is unplayed", m);
    play(ko, m, 0, m % 2 ? 1 : -1);
    int win = xq_ko_winner(ko, m), lose = win == a ? b : a;
    loser_stage[lose] = xq_ko_stage(ko, m);
    conq[lose] = win;
  }
  cr_assert_eq(xq_ko_places(ko, w), 1);
  for (int i = 0; i < 40; i++) cr_assert_eq(index_of(w, 40, ids[i]) >= 0, 1, "player %d has no place", ids[i]);
  cr_assert_eq(loser_stage[w[0]], 0, "the champion lost no match");
  cr_assert_eq(loser_stage[w[1]], 6, "second: the final's loser");
  for (int i = 1; i + 1 < 40; i++) {
    int x = w[i], y = w[i + 1];
    /* a later stage first; in one stage the loser to the better-placed
     * winner first */
    cr_assert_geq(loser_stage[x], loser_stage[y], "places %d, %d", i + 1, i + 2);
    if (loser_stage[x] == loser_stage[y])
      cr_assert_lt(index_of(w, 40, conq[x]), index_of(w, 40, conq[y]), "places %d, %d", i + 1, i + 2);
  }
  free(ko);
}

Test(lot_bracket, bad_entries_get_a_clear_refusal)
{
  xq_ko *ko = malloc(sizeof *ko);
  int ids[XQ_KO_SIZE_MAX + 2], pool[XQ_KO_SIZE_MAX + 2];
  cr_assert_not_null(ko);
  for (int i = 0; i < XQ_KO_SIZE_MAX + 2; i++) ids[i] = i + 1, pool[i] = 0;
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 0, 1, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL, "no entrant");
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 1, 1, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL, "one entrant");
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, XQ_KO_SIZE_MAX + 1, 1, 1, XQ_KO_FMT_VILLAGE), XQ_ELIMIT);
  /* two pools: at most half the bracket each */
  pool[XQ_KO_SIZE_MAX / 2 + 1] = 1;
  cr_assert_eq(xq_ko_setup_lot(ko, ids, pool, XQ_KO_SIZE_MAX / 2 + 2, 2, 1, XQ_KO_FMT_VILLAGE), XQ_ELIMIT);
  pool[XQ_KO_SIZE_MAX / 2 + 1] = 0;
  cr_assert_eq(xq_ko_setup_lot(ko, ids, pool, 4, 2, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL, "an empty pool");
  pool[0] = 2;
  cr_assert_eq(xq_ko_setup_lot(ko, ids, pool, 4, 2, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL, "pool out of range");
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 4, 3, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL, "three pools");
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 4, 1, 1, 99), XQ_EINVAL, "no such format");
  int dup[3] = {4, 5, 4}, zero[3] = {4, 0, 5};
  cr_assert_eq(xq_ko_setup_lot(ko, dup, NULL, 3, 1, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL, "an entrant twice");
  cr_assert_eq(xq_ko_setup_lot(ko, zero, NULL, 3, 1, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL, "id 0");
  cr_assert_eq(xq_ko_setup_lot(NULL, ids, NULL, 4, 1, 1, XQ_KO_FMT_VILLAGE), XQ_EINVAL);
  /* two entrants: the final at once */
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 2, 1, 1, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_eq(ko->size, 2);
  cr_assert_eq(xq_ko_nmatches(ko), 1);
  free(ko);
}

/* Shaanxi 十(二)2: games of 20 minutes, then 5 minutes sudden death; the
 * final 20+10 with colours by lot, a draw to the colour-swapped 10+5, a
 * draw again to the armageddon by lot, Red 6+3 v Black 4+3, where a draw
 * is a Black win. Played in the store, the final on knockout tables. */
Test(village, the_final_drawn_twice_goes_to_armageddon_won_by_black_on_a_draw)
{
  char path[512];
  xq_error err = {0};
  xq_tstore *st = new_event(path, sizeof path, "乡村棋王", 5, 0);
  xq_ko *ko = malloc(sizeof *ko);
  cr_assert_not_null(ko);
  int ids[5] = {1, 2, 3, 4, 5}, pool[5] = {0, 1, 0, 1, 0};
  int format;
  cr_assert_eq(xq_ko_parse_format("shaanxi", &format), XQ_OK);
  cr_assert_eq(format, XQ_KO_FMT_VILLAGE);
  cr_assert_eq(xq_ko_setup_lot(ko, ids, pool, 5, 2, 2019, format), XQ_OK);
  cr_assert_eq(ko->size, 8);
  cr_assert_eq(xq_tstore_ko_start(st, ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ko->after, XQ_KO_NO_SWISS, "a knockout-only event, not 'no stage'");
  cr_assert_eq(ko->pools, 2);
  cr_assert_eq(xq_ko_entrants(ko), 5);
  /* every match but the final: Red wins its game of 20 min + 5 min SD */
  int nm = xq_ko_nmatches(ko), base, bb, inc;
  for (int m = 1; m < nm; m++) {
    int a, b;
    if (xq_ko_match_players(ko, m, &a, &b) != 1) continue;
    cr_assert_str_eq(xq_ko_game_time_control(ko, m, XQ_KG_STANDARD), "20m+5m SD");
    cr_assert_eq(xq_ko_clock(ko, m, XQ_KG_STANDARD, &base, &bb, &inc), XQ_OK);
    cr_assert(base == 25 * 60 && bb == 0 && inc == 0, "20 min then 5 min sudden death: %d/%d/%d", base, bb, inc);
    store_game(st, ko, m, 0, 1);
  }
  int a, b;
  cr_assert_eq(xq_ko_match_players(ko, nm, &a, &b), 1, "the townships' winners meet");
  cr_assert_neq(xq_ko_pool_of(ko, a), xq_ko_pool_of(ko, b));
  /* the final, colours by lot (here: b Red), on a knockout table */
  xq_ko_game g;
  int table = 0;
  cr_assert_eq(xq_ko_next_game(ko, nm, b, &g), XQ_OK);
  cr_assert_eq(g.type, XQ_KG_STANDARD);
  cr_assert_str_eq(xq_ko_game_time_control(ko, nm, g.type), "20+10");
  cr_assert_eq(xq_ko_clock(ko, nm, g.type, &base, &bb, &inc), XQ_OK);
  cr_assert(base == 20 * 60 && bb == 0 && inc == 10);
  cr_assert_eq(xq_tstore_ko_publish(st, &g, &table, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_result(st, table, 0, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, ko, &err), XQ_OK, "%s", err.msg);
  /* 和棋换先10分+5秒 */
  cr_assert_eq(xq_ko_next_game(ko, nm, 0, &g), XQ_OK);
  cr_assert_eq(g.type, XQ_KG_RAPID);
  cr_assert(g.red == a && g.black == b, "the rapid game swaps the colours");
  cr_assert_str_eq(xq_ko_game_time_control(ko, nm, g.type), "10+5");
  cr_assert_eq(xq_ko_next_game(ko, nm, b, &g), XQ_EINVAL, "the swap is not open to the lot");
  cr_assert_eq(xq_ko_next_game(ko, nm, 0, &g), XQ_OK);
  cr_assert_eq(xq_tstore_ko_publish(st, &g, &table, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_result(st, table, 0, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_ko_winner(ko, nm), 0, "two draws decide nothing");
  /* 再和抽签定先 红方6分+3秒 黑方4分+3秒: the lot gives a Red */
  cr_assert_eq(xq_ko_next_game(ko, nm, a, &g), XQ_OK);
  cr_assert_eq(g.type, XQ_KG_ARMAGEDDON);
  cr_assert_str_eq(xq_ko_game_time_control(ko, nm, g.type), "R6+3/B4+3");
  cr_assert_eq(xq_ko_clock(ko, nm, g.type, &base, &bb, &inc), XQ_OK);
  cr_assert(base == 6 * 60 && bb == 4 * 60 && inc == 3);
  cr_assert_eq(xq_tstore_ko_publish(st, &g, &table, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_result(st, table, 0, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, ko, &err), XQ_OK, "%s", err.msg);
  /* 和棋黑胜 */
  cr_assert_eq(xq_ko_winner(ko, nm), b, "a drawn armageddon is Black's");
  cr_assert_eq(ko->ntables, 3, "each game of the final at its own table");
  int w[XQ_KO_SIZE_MAX];
  cr_assert_eq(xq_ko_places(ko, w), 1);
  cr_assert(w[0] == b && w[1] == a);
  cr_assert_eq(xq_ko_pool_places(ko, xq_ko_pool_of(ko, a), w), xq_ko_pool_of(ko, a) ? 2 : 3);
  cr_assert_eq(w[0], a, "the final's loser is still his township's first");
  /* final places over the whole event: the knockout's, nobody left out */
  xq_tournament *ev = reload(st);
  int fp[5];
  cr_assert_eq(xq_final_places(ev, ko, fp), XQ_OK);
  cr_assert(fp[0] == b && fp[1] == a);
  /* the places sheet of a knockout-only event: stage and bracket
   * position, no Swiss points or W-D-L */
  char *sheet = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&sheet, &len);
  cr_assert_not_null(f);
  cr_assert_eq(xq_sheet_ko_places(ev, ko, NULL, fp, NULL, 5, XQ_SHEET_TEXT, XQ_LANG_EN, f), XQ_OK);
  fclose(f);
  cr_assert(strstr(sheet, "Bracket position") && strstr(sheet, "Stage reached"), "%s", sheet);
  cr_assert(!strstr(sheet, "Points") && !strstr(sheet, "W-D-L"), "Swiss columns:\n%s", sheet);
  cr_assert(strstr(sheet, "won the final") && strstr(sheet, "lost in the final"), "%s", sheet);
  free(sheet);
  xq_ko none;
  memset(&none, 0, sizeof none);
  f = fopen("/dev/null", "w");
  cr_assert_not_null(f);
  cr_assert_eq(xq_sheet_ko_places(ev, &none, NULL, fp, NULL, 5, XQ_SHEET_TEXT, XQ_LANG_EN, f), XQ_EINVAL,
               "not a knockout-only event");
  fclose(f);
  xq_tournament_free(ev);
  free(ko);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(village, the_store_refuses_a_drawn_bracket_after_a_swiss_or_of_strangers)
{
  char path[512];
  xq_error err = {0};
  xq_tstore *st = new_event(path, sizeof path, "乡村棋王", 4, 2);
  xq_ko *ko = malloc(sizeof *ko);
  cr_assert_not_null(ko);
  int ids[5] = {1, 2, 3, 4, 9};
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 5, 1, 1, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_eq(xq_tstore_ko_start(st, ko, &err), XQ_EINVAL, "player 9 is not registered");
  cr_assert(strstr(err.msg, "not registered"), "%s", err.msg);
  const int r1[2][2] = {{1, 2}, {3, 4}};
  const char *w[] = {"1-0", "="};
  publish(st, 1, r1, 2, w);
  cr_assert_eq(xq_ko_setup_lot(ko, ids, NULL, 4, 1, 1, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_eq(xq_tstore_ko_start(st, ko, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "Swiss"), "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ko->after, 0, "nothing was started");
  free(ko);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* `xqref tourney knockout --seeding lot`: the same drawn bracket from
 * the command line, a township a half (--pools region), and the refusals */
Test(village, the_command_line_draws_a_bracket_a_township_a_half)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "tourney_ko_lot");
  xq_test_db_remove(path);
  cli_says(0, NULL, "tourney new --db %s --rounds 1", path);
  /* five players of two townships: the bracket of 8, three byes */
  const char *town[] = {"东镇", "西镇", "东镇", "西镇", "东镇"};
  for (int i = 1; i <= 5; i++)
    cli_says(0, NULL, "tourney add --db %s --name V%d --rating 1500 --region %s", path, i, town[i - 1]);
  const struct { const char *opts; int status; const char *says; } bad[] = {
    {"--seeding lot --after 1", 2, "no --after"},
    {"--seeding lot --lot -1", 2, "--lot wants a whole number"},
    {"--seeding lot --lot 7x", 2, "--lot wants a whole number"},
    {"--seeding lot --format nowhere", 2, "bad --format"},
    {"--seeding lot --pools rating", 1, "--pools takes region, club or team"},
    {"--seeding lot --pools club", 1, "no value in the --pools field"},
    {"--after 1 --size 2 --pools region", 2, "go with --seeding lot"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cli_says(bad[i].status, bad[i].says, "tourney knockout --db %s %s", path, bad[i].opts);
  cli_says(0, "knockout-only event: 5 entrants drawn into a bracket of 8 (a half per pool",
           "tourney knockout --db %s --seeding lot --pools region --lot 7", path);
  /* what the store holds: townships in halves, the same draw as the call */
  xq_tstore *st;
  xq_error err = {0};
  xq_ko *ko = malloc(sizeof *ko), *same = malloc(sizeof *same);
  cr_assert(ko && same);
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(st, ko, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  int ids[5] = {1, 2, 3, 4, 5}, pool[5] = {0, 1, 0, 1, 0};
  bracket_is_sound(ko, ids, pool, 5, 1);
  cr_assert_eq(ko->format, XQ_KO_FMT_VILLAGE, "the village games by default");
  cr_assert_eq(xq_ko_setup_lot(same, ids, pool, 5, 2, 7, XQ_KO_FMT_VILLAGE), XQ_OK);
  cr_assert_arr_eq(ko->seeds, same->seeds, sizeof ko->seeds[0] * 8, "lot 7 draws the same bracket");
  free(ko);
  free(same);
  /* a second start is refused; the bracket is still there, byes shown */
  cli_says(1, "already started", "tourney knockout --db %s --seeding lot", path);
  cli_says(0, "has a bye", "tourney bracket --db %s", path);
  xq_test_db_remove(path);

  /* three townships do not fit two halves; after a Swiss round no draw */
  cli_says(0, NULL, "tourney new --db %s --rounds 2", path);
  for (int i = 1; i <= 4; i++)
    cli_says(0, NULL, "tourney add --db %s --name W%d --rating 1500 --region T%d", path, i, i % 3);
  cli_says(1, "more than two values", "tourney knockout --db %s --seeding lot --pools region", path);
  cli_says(0, NULL, "tourney pair --db %s", path);
  cli_says(1, "cannot follow Swiss rounds", "tourney knockout --db %s --seeding lot", path);
  xq_test_db_remove(path);
}

Test(village, the_regulation_s_sub_event_and_its_prizes)
{
  const xq_regulation *r;
  const xq_ko_event *e;
  cr_assert_eq(xq_regulation_find("shaanxi2019", &r), XQ_OK);
  cr_assert_eq(xq_regulation_ko_event(r, "village", &e), XQ_OK);
  cr_assert_eq(xq_regulation_ko_event(r, "乡村棋王", &e), XQ_OK);
  int format;
  cr_assert_eq(xq_ko_parse_format(e->format, &format), XQ_OK);
  cr_assert_eq(format, XQ_KO_FMT_VILLAGE);
  cr_assert_eq(e->pools, 2, "两乡镇");
  /* 十二(二)5: 第一名300 第二名200 第三名100第四-六50元; 棋王另加200元 */
  static const int want[6] = {300, 200, 100, 50, 50, 50};
  cr_assert_eq(e->nplaces, 6);
  for (int i = 0; i < 6; i++) cr_assert_eq(e->amount[i], want[i], "place %d", i + 1);
  cr_assert_eq(e->final_bonus, 200);
  cr_assert(strstr(e->bonus_clause, "另加200元"));
  cr_assert_geq(e->entrants_default, 32);
  cr_assert_eq(xq_regulation_ko_event(r, "seniors", &e), XQ_EINVAL);
  cr_assert_eq(xq_regulation_find("tangshan2018", &r), XQ_OK);
  cr_assert_eq(xq_regulation_ko_event(r, NULL, &e), XQ_EINVAL, "Tangshan has no knockout-only event");
}

Test(village, presets_show_lists_the_sub_event_with_its_clauses)
{
  int status;
  char *out = run("presets show shaanxi2019", &status);
  cr_assert_eq(status, 0, "%s", out);
  const char *want[] = {"knockout-only sub-event 乡村棋王 village king", "--group village", "20m+5m SD",
                        "final 20+10", "R6+3/B4+3", "1 300, 2 200, 3 100, 4 50, 5 50, 6 50", "另加200元",
                        "免报名费", "和棋黑胜"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) cr_assert(strstr(out, want[i]), "no '%s' in\n%s", want[i], out);
  free(out);
  out = run("presets show tangshan2018", &status);
  cr_assert_eq(status, 0);
  cr_assert_null(strstr(out, "knockout-only"), "Tangshan has no knockout-only event");
  free(out);
}

/* The text of the nth (0: zh, 1: en) console label `key` of
 * web/console_pairing.js, into out. */
static void console_label(const char *js, const char *key, int nth, char *out, size_t cap)
{
  char pat[64];
  snprintf(pat, sizeof pat, key[0] == 'f' && strchr(key, '-') ? "'%s': '" : "%s: '", key);
  const char *p = js;
  for (int i = 0; i <= nth; i++) {
    p = strstr(p, pat);
    cr_assert_not_null(p, "label %s (%d)", key, nth);
    p += strlen(pat);
  }
  const char *e = strchr(p, '\'');
  cr_assert_not_null(e);
  snprintf(out, cap, "%.*s", (int)(e - p), p);
}

/* Issue 33: what the console says a format plays (web/console_pairing.js,
 * zh and en) and docs/tourney.md say is what xq_ko_next_game plays:
 * every clock of a match drawn game after game, one rapid game where the
 * play has one (not "两局"), and a drawn armageddon won by Black. */
Test(tiebreak_games, the_console_label_and_the_docs_say_what_is_played)
{
  char *js = xq_test_slurp(XQ_TEST_DATA "/../../web/console_pairing.js");
  char *md = xq_test_slurp(XQ_TEST_DATA "/../../docs/tourney.md");
  cr_assert(js && md);
  static const struct { const char *tc, *zh, *en; } words[] = {
    {"20+5", "20分+5秒", "20+5"}, {"20m+5m SD", "20分钟后加5分钟包干", "20 minutes, then 5 minutes sudden death"},
    {"10+5", "10分+5秒", "10+5"}, {"10+3", "10分+3秒", "10+3"}, {"5+3", "5分+3秒", "5+3"},
    {"R6+3/B4+3", "红6分+3秒，黑4分+3秒", "Red 6+3 v Black 4+3"},
    {"R6+5/B4+5", "红6分+5秒，黑4分+5秒", "Red 6+5 v Black 4+5"},
  };
  static const int formats[] = {XQ_KO_FMT_RAPID_ARMAGEDDON, XQ_KO_FMT_ARMAGEDDON, XQ_KO_FMT_RAPID_BLITZ,
                                XQ_KO_FMT_VILLAGE};
  for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
    xq_tstanding st[2];
    xq_ko ko;
    ranks(st, 2, 0);
    cr_assert_eq(xq_ko_setup(&ko, st, 2, 1, 2, XQ_KO_FIXED, formats[f], 0), XQ_OK);
    char key[64], zh[512], en[512];
    snprintf(key, sizeof key, "f_%s", xq_ko_format_name(formats[f]));
    console_label(js, key, 0, zh, sizeof zh);
    console_label(js, key, 1, en, sizeof en);
    int rapid = 0, armageddon = 0;
    for (int i = 0; i < 4 && !xq_ko_winner(&ko, 1); i++) {
      xq_ko_game g;
      cr_assert_eq(xq_ko_next_game(&ko, 1, 0, &g), XQ_OK);
      const char *tc = xq_ko_game_time_control(&ko, 1, g.type);
      for (size_t w = 0; w < sizeof words / sizeof *words; w++)
        if (!strcmp(tc, words[w].tc)) {
          cr_assert(strstr(zh, words[w].zh), "%s plays %s; the console says %s", key, tc, zh);
          cr_assert(strstr(en, words[w].en), "%s plays %s; the console says %s", key, tc, en);
        }
      rapid += g.type == XQ_KG_RAPID;
      armageddon += g.type == XQ_KG_ARMAGEDDON;
      g.res = 0;
      cr_assert_eq(xq_ko_add_game(&ko, &g), XQ_OK);
    }
    cr_assert_leq(rapid, 1);
    cr_assert_null(strstr(zh, "两局"), "%s: %s", key, zh);
    if (rapid) {
      cr_assert(strstr(zh, "换先快棋一局"), "%s: %s", key, zh);
      cr_assert(strstr(en, "one rapid game"), "%s: %s", key, en);
    }
    if (armageddon) {
      cr_assert_eq(xq_ko_winner(&ko, 1), 1 + (ko.games[ko.ngames - 1].black == 2), "a drawn armageddon: Black");
      cr_assert(strstr(zh, "和棋黑胜") && strstr(en, "a draw wins for Black"), "%s: %s / %s", key, zh, en);
    }
    /* docs/tourney.md's row of the format */
    char row[64];
    snprintf(row, sizeof row, "= `%s` | ", xq_ko_format_name(formats[f]));
    const char *r = strstr(md, row);
    cr_assert_not_null(r, "docs/tourney.md has no row for %s", row);
    const char *eol = strchr(r, '\n');
    cr_assert(rapid ? strstr(r, "**one** colour-swapped rapid game") < eol && strstr(r, "**one** colour-swapped rapid game")
                    : strstr(r, "**one** armageddon game") < eol && strstr(r, "**one** armageddon game"),
              "%.*s", (int)(eol - r), r);
  }
  free(js);
  free(md);
}
