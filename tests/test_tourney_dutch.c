/*
 * test_tourney_dutch.c -- the FIDE Dutch pairing (docs/tourney.md, "FIDE Dutch") against
 * bbpPairings v6.0.0: its own Dutch fixtures, the chesspairing fixtures
 * paired by bbpPairings, and two 100-player 11-round events made by its
 * random tournament generator, replayed round by round (every round of
 * those files is a bbpPairings pairing of the rounds before it); and the
 * matching solver kept between solves (wmatch.c) against brute force.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pair/wmatch.h"
#include "tourney.h"
#include "pair/pair.h"

#define DATA XQ_TEST_DATA "/pairing/"

/* Read a whole file; CR and CRLF line ends become LF, blank lines go. */
static char *slurp_lines(const char *path)
{
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  char *buf = malloc(1 << 20);
  cr_assert_not_null(buf);
  size_t n = fread(buf, 1, (1 << 20) - 1, f);
  fclose(f);
  buf[n] = 0;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    char c = buf[i] == '\r' ? '\n' : buf[i];
    if (c == '\n' && (o == 0 || buf[o - 1] == '\n')) continue;
    buf[o++] = c;
  }
  buf[o] = 0;
  return buf;
}

/* `xqref pair --system dutch FILE` must print exactly `expected`. */
static void check_cli(const char *input, const char *expected)
{
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s pair --system dutch %s", XQ_BINARY, input);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  char *got = calloc(1, 1 << 16);
  size_t n = fread(got, 1, (1 << 16) - 1, p);
  int rc = pclose(p);
  got[n] = 0;
  char *want = slurp_lines(expected);
  cr_expect_eq(rc, 0, "%s exited with %d", input, rc);
  cr_expect_str_eq(got, want, "%s: got\n%s\nwant\n%s", input, got, want);
  free(got);
  free(want);
}

Test(bbp_fixtures, dutch_2025_C5_absent_player_and_pab)
{
  check_cli(DATA "dutch_2025_C5.input", DATA "dutch_2025_C5.output.expected");
}

Test(bbp_fixtures, dutch_2025_C9_pab_to_fewest_unplayed)
{
  check_cli(DATA "dutch_2025_C9.input", DATA "dutch_2025_C9.output.expected");
}

Test(bbp_fixtures, issue_7_last_round_of_60)
{
  check_cli(DATA "issue_7.input", DATA "issue_7.output.expected");
}

Test(bbp_fixtures, d21_round3_no_C3_violation)
{
  /* players 1 and 2 both had White twice: they must not meet (C3) */
  check_cli(DATA "d21-round3.trf", DATA "d21-round3.expected_bbpPairings.txt");
}

Test(bbp_fixtures, round1_top_half_against_bottom_half)
{
  check_cli(DATA "bbp-8p5r-input.trf", DATA "bbp-8p5r-input.round1_expected_bbpPairings.txt");
}

Test(bbp_fixtures, scoring_210_and_utf8_names)
{
  check_cli(DATA "c5_xiangqi_210_scoring_162.trf", DATA "c5_xiangqi_210_scoring_162.expected_bbp.txt");
  check_cli(DATA "c5_utf8_chinese_name.trf", DATA "c5_utf8_chinese_name.expected_bbp.txt");
}

/* Forbidden pairs (docs/tourney.md, "TRF"): a 100-player event before
 * round 5 with XXP lines (4-22 and every two of 12, 7, 9) and TRF-2026
 * 260 lines for round 5 and for round 6 only; the expected pairings are
 * bbpPairings' on the same files. */
Test(bbp_fixtures, forbidden_pairs_xxp_and_260)
{
  check_cli(DATA "forbidden_xxp.trf", DATA "forbidden_xxp.expected_bbp.txt");
  check_cli(DATA "forbidden_260.trf", DATA "forbidden_260.expected_bbp.txt");
  check_cli(DATA "forbidden_260_later_round.trf", DATA "forbidden_260_later_round.expected_bbp.txt");
}

/* Acceleration (TRF XXA and TRF-2026 250 lines: extra points for the
 * pairing only): states of the generated events with the top half
 * accelerated, paired by bbpPairings (tests/data/pairing/README-accel.md
 * says how they were made). Round 1 is paired as brackets then; the
 * boards are listed by the points without acceleration. */
Test(bbp_fixtures, acceleration_xxa_and_250)
{
  check_cli(DATA "accel_xxa_r1.trf", DATA "accel_xxa_r1.expected_bbp.txt");
  check_cli(DATA "accel_xxa_r3.trf", DATA "accel_xxa_r3.expected_bbp.txt");
  check_cli(DATA "accel_xxa_r5.trf", DATA "accel_xxa_r5.expected_bbp.txt");
  check_cli(DATA "accel_250_r3.trf", DATA "accel_250_r3.expected_bbp.txt");
}

/* 300 players: round 2 has two players without a game in round 1 (a
 * forfeit and the PAB) paired together, so the E.5 initial colour counts;
 * the file has no XXC line and it is inferred from round 1. */
Test(bbp_fixtures, acceleration_300_players_and_initial_colour)
{
  check_cli(DATA "accel_xxa_n300_r2.trf", DATA "accel_xxa_n300_r2.expected_bbp.txt");
  check_cli(DATA "accel_xxa_n300_r5.trf", DATA "accel_xxa_n300_r5.expected_bbp.txt");
}

/* The acceleration changes the pairing: the same state without the XXA
 * lines pairs differently (so the fixtures above test something). */
Test(bbp_fixtures, acceleration_changes_the_pairing)
{
  char *with = slurp_lines(DATA "accel_xxa_r3.trf");
  char *p = strstr(with, "\nXXA");
  cr_assert_not_null(p);
  p[1] = 0; /* the XXA lines come last */
  char path[] = "/tmp/xq_accel_XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(with, f);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s pair --system dutch %s", XQ_BINARY, path);
  FILE *pp = popen(cmd, "r");
  char got[1 << 14] = {0};
  size_t n = fread(got, 1, sizeof got - 1, pp);
  cr_expect_eq(pclose(pp), 0);
  got[n] = 0;
  remove(path);
  char *want = slurp_lines(DATA "accel_xxa_r3.expected_bbp.txt");
  cr_expect(strcmp(got, want) != 0, "the pairing without acceleration is the same");
  free(want);
  free(with);
}

/* ------------------------------------------------------------------ */
/* Round-by-round replay of a generated event                          */
/* ------------------------------------------------------------------ */

#define GEN100 DATA "rtg_dutch_n100_r11_seed12345.trf"
#define GEN_ROUNDS 11

/* Keep rounds 1..k of `ev`, plus the round k+1 blocks of players announced
 * absent (opponent 0000 and H, Z, F, - or blank; not the PAB). */
static void truncate_to(xq_tournament *ev, int k)
{
  for (int id = 1; id <= ev->n; id++)
    for (int r = k + 1; r <= GEN_ROUNDS; r++) {
      xq_tslot *s = xq_tournament_slot(ev, id, r);
      int absence = !s->opp && (s->res == XQ_TR_HPB || s->res == XQ_TR_ZPB || s->res == XQ_TR_FPB);
      if (r == k + 1 && absence) continue;
      memset(s, 0, sizeof *s);
    }
  ev->nrounds = k + 1;
  ev->cfg.rounds = GEN_ROUNDS;
}

static void replay(const char *path, int round)
{
  xq_tournament *full, *ev;
  xq_error err = {0};
  cr_assert_eq(xq_trf_read(path, &full, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_trf_read(path, &ev, &err), XQ_OK, "%s", err.msg);
  truncate_to(ev, round - 1);
  /* the file has no XXC line: its round 1 shows that the generator drew
   * Black for player 1 (1 plays 51 with Black) */
  if (round == 1) ev->initial_black = 1;
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_dutch(ev, round, &pr), XQ_OK, "round %d", round);
  int boards = 0;
  for (int id = 1; id <= full->n; id++) {
    const xq_tslot *s = xq_tournament_slot(full, id, round);
    boards += (s->opp && s->colour == XQ_TC_RED) || s->res == XQ_TR_PAB;
  }
  cr_expect_eq(pr.nboards, boards, "round %d: %d boards, want %d", round, pr.nboards, boards);
  for (int b = 0; b < pr.nboards; b++) {
    const xq_tboard *bd = &pr.boards[b];
    const xq_tslot *s = xq_tournament_slot(full, bd->red, round);
    if (!bd->black)
      cr_expect_eq(s->res, XQ_TR_PAB, "round %d: bye to %d", round, bd->red);
    else
      cr_expect(s->opp == bd->black && s->colour == XQ_TC_RED,
                "round %d: %d-%d not in the file (it has %d-%d)", round, bd->red, bd->black,
                bd->red, s->opp);
  }
  /* bbpPairings lists the bye last */
  for (int b = 0; b + 1 < pr.nboards; b++)
    cr_expect_neq(pr.boards[b].black, 0, "round %d: the bye is not last", round);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_tournament_free(full);
}

Test(replay100, round1) { replay(GEN100, 1); }
Test(replay100, round2) { replay(GEN100, 2); }
Test(replay100, round3) { replay(GEN100, 3); }
Test(replay100, round4) { replay(GEN100, 4); }
Test(replay100, round5) { replay(GEN100, 5); }
Test(replay100, round6) { replay(GEN100, 6); }
Test(replay100, round7) { replay(GEN100, 7); }
Test(replay100, round8) { replay(GEN100, 8); }
Test(replay100, round9) { replay(GEN100, 9); }
Test(replay100, round10) { replay(GEN100, 10); }
Test(replay100, round11) { replay(GEN100, 11); }

/* a second event of the same generator (gen100.cfg, seed 202), not in the
 * shared data; its round 1 colours come from the generator's draw */
#define GEN100B DATA "rtg_dutch_n100_r11_seed202.trf"

Test(replay100_seed202, round2) { replay(GEN100B, 2); }
Test(replay100_seed202, round3) { replay(GEN100B, 3); }
Test(replay100_seed202, round4) { replay(GEN100B, 4); }
Test(replay100_seed202, round5) { replay(GEN100B, 5); }
Test(replay100_seed202, round6) { replay(GEN100B, 6); }
Test(replay100_seed202, round7) { replay(GEN100B, 7); }
Test(replay100_seed202, round8) { replay(GEN100B, 8); }
Test(replay100_seed202, round9) { replay(GEN100B, 9); }
Test(replay100_seed202, round10) { replay(GEN100B, 10); }
Test(replay100_seed202, round11) { replay(GEN100B, 11); }

/* ------------------------------------------------------------------ */
/* The matching solver kept between solves, against brute force        */
/* ------------------------------------------------------------------ */

#define WM_N 9
#define WM_BITS 100

typedef unsigned __int128 u128;

static u128 wm_w[WM_N][WM_N];
static int wm_alive[WM_N];

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void)
{
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 7;
  rnd_state ^= rnd_state << 17;
  return rnd_state;
}

/* A weight below 2^WM_BITS, often 0 (no edge) and often tied with
 * others: a few priority levels over few values, as the pairing makes. */
static u128 rnd_weight(void)
{
  if (rnd() % 5 == 0) return 0;
  u128 w = (u128)(1 + rnd() % 3) << 90;
  w += (u128)(rnd() % 3) << 60;
  w += (u128)(rnd() % 4);
  return w;
}

static void wm_put(xq__wmatch *m, int i, int j, u128 w)
{
  uint64_t limbs[2] = {(uint64_t)w, (uint64_t)(w >> 64)};
  wm_w[i][j] = wm_w[j][i] = w;
  xq__wmatch_set(m, i, j, limbs);
}

/* Largest total weight of a matching of the alive vertices >= v. */
static u128 brute(int v, int *used)
{
  while (v < WM_N && (used[v] || !wm_alive[v])) v++;
  if (v >= WM_N) return 0;
  used[v] = 1;
  u128 best = brute(v + 1, used); /* v unmatched */
  for (int x = v + 1; x < WM_N; x++) {
    if (used[x] || !wm_alive[x] || !wm_w[v][x]) continue;
    used[x] = 1;
    u128 t = wm_w[v][x] + brute(v + 1, used);
    if (t > best) best = t;
    used[x] = 0;
  }
  used[v] = 0;
  return best;
}

static void wm_check(xq__wmatch *m, int step)
{
  int mate[WM_N], used[WM_N] = {0};
  xq__wmatch_solve(m, mate);
  u128 got = 0;
  for (int v = 0; v < WM_N; v++) {
    int u = mate[v];
    cr_assert(u >= 0 && u < WM_N && mate[u] == v, "step %d: mate[%d] = %d", step, v, u);
    if (!wm_alive[v] || u == v) continue;
    cr_assert(wm_alive[u] && wm_w[v][u], "step %d: %d-%d is no edge", step, v, u);
    if (v < u) got += wm_w[v][u];
  }
  u128 want = brute(0, used);
  cr_assert(got == want, "step %d: weight %llx:%016llx, the best is %llx:%016llx", step,
            (unsigned long long)(got >> 64), (unsigned long long)got,
            (unsigned long long)(want >> 64), (unsigned long long)want);
}

Test(wmatch, incremental_solves_stay_optimal)
{
  for (int trial = 0; trial < 2000; trial++) {
    xq__wmatch *m = xq__wmatch_new(WM_N, 2, WM_BITS);
    cr_assert_not_null(m);
    for (int v = 0; v < WM_N; v++) wm_alive[v] = 1;
    for (int i = 0; i < WM_N; i++)
      for (int j = 0; j < i; j++) wm_put(m, i, j, rnd_weight());
    wm_check(m, 0);
    for (int step = 1; step <= 25; step++) {
      int kind = (int)(rnd() % 10), v = (int)(rnd() % WM_N);
      if (!wm_alive[v]) continue;
      if (kind < 5) {
        /* the edges at one vertex change, as a decision's bonus does */
        for (int x = 0; x < WM_N; x++)
          if (x != v && rnd() % 2) wm_put(m, v, x, rnd() % 3 ? wm_w[v][x] + (rnd() % 5) : rnd_weight());
      } else if (kind < 8) {
        /* many edges change at once, as at the start of a bracket */
        for (int i = 0; i < WM_N; i++)
          for (int j = 0; j < i; j++)
            if (rnd() % 3 == 0) wm_put(m, i, j, rnd_weight());
      } else {
        /* fix v with its partner, if any, as a decided pair */
        int mate[WM_N];
        xq__wmatch_solve(m, mate);
        if (mate[v] == v) continue;
        wm_alive[v] = wm_alive[mate[v]] = 0;
        xq__wmatch_fix(m, v, mate[v]);
      }
      wm_check(m, step);
    }
    xq__wmatch_free(m);
  }
}
