/*
 * test_tourney_results.c -- who plays whom and who is seeded, on events
 * made as an organiser makes them, with `xqref tourney`: FIDE Dutch pairs
 * by the pairing numbers (序号), not the order of registration; an event
 * made with a preset keeps the preset's withdrawal rule (Shaanxi: two
 * forfeits in a row); a player who has withdrawn is not seeded into the
 * knockout; the listings of the results name each player by his
 * number, not his registration id; and a double forfeit (--) is a loss
 * for both in the standings and the TRF, a result taken back (*) none.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_fixture.h"
#include "support.h"

/* One board of a `tourney pair` listing: board, the Red and Black
 * players' numbers (0: a bye). */
typedef struct board { int b, red, black; } board;

/* The boards of a `tourney pair` listing into bd[]; returns their count. */
static int boards_of(const char *listing, board *bd, int cap)
{
  int n = 0;
  for (const char *l = listing; l && *l && n < cap;) {
    board x = {0};
    if (sscanf(l, "%d %d %*s %*d - %d", &x.b, &x.red, &x.black) == 3) bd[n++] = x;
    const char *nl = strchr(l, '\n');
    l = nl ? nl + 1 : NULL;
  }
  return n;
}

/* A new event in `db` made by `new_args`, with n players P1..Pn whose
 * ratings rise with registration (so rating order is the reverse). */
static void event_of(const char *db, const char *new_args, int n)
{
  free(xq_test_run_db(0, "tourney new --db %s %s", db, new_args));
  for (int i = 1; i <= n; i++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--name P%d --rating %d", i, 1500 + 50 * i);
    free(xq_test_run_db(0, "tourney add --db %s %s", db, extra));
  }
}

/* Pair the next round (`system` as given to --system) and play it: the
 * player numbered `forfeits` loses by forfeit, every other Red wins.
 * Returns the boards' count; bd[] gets them. */
static int pair_and_play(const char *db, const char *system, int round, int forfeits, board *bd, int cap)
{
  char *out = xq_test_run_db(0, "tourney pair --db %s %s", db, system);
  int n = boards_of(out, bd, cap);
  cr_assert_gt(n, 0, "round %d paired:\n%s", round, out);
  free(out);
  for (int i = 0; i < n; i++) {
    const char *code = bd[i].red == forfeits ? "-+" : bd[i].black == forfeits ? "+-" : "1-0";
    char extra[64];
    snprintf(extra, sizeof extra, "--round %d --board %d %s", round, bd[i].b, code);
    free(xq_test_run_db(0, "tourney result --db %s %s", db, extra));
  }
  return n;
}

static int seated(const board *bd, int n, int no)
{
  for (int i = 0; i < n; i++)
    if (bd[i].red == no || bd[i].black == no) return 1;
  return 0;
}

/* FIDE C.04.3 B.2 round 1: S1 = the top half by pairing number against
 * S2 = the bottom half, 1–5, 6–2, 3–7, 8–4 for 8 players; the numbers by
 * rating are the reverse of registration here, so a pairing by
 * registration order is not this one. */
Test(dutch, round1_by_the_pairing_numbers_not_registration)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_dutch");
  event_of(db, "--rounds 5", 8);
  xq_test_run_db_says(0, "   8   1  P8", "tourney numbers --db %s %s", db, "--by rating");
  char *out = xq_test_run_db(0, "tourney pair --db %s %s", db, "--system dutch");
  board bd[8];
  cr_assert_eq(boards_of(out, bd, 8), 4, "%s", out);
  static const int want[4][2] = {{1, 5}, {6, 2}, {3, 7}, {8, 4}};
  for (int i = 0; i < 4; i++)
    cr_assert(bd[i].red == want[i][0] && bd[i].black == want[i][1], "board %d is %d-%d, not %d-%d:\n%s", i + 1,
              bd[i].red, bd[i].black, want[i][0], want[i][1], out);
  free(out);
  xq_test_db_remove(db);
}

/* Shaanxi 补充规定 四.1: 连续弃权两轮者不再编排. A player who forfeits round
 * 1, wins round 2 and forfeits round 3 is paired in round 4 of an event
 * made with --preset shaanxi2019, and is not in an event with the rule
 * book's default (any two missed rounds), with either pairing system. */
Test(withdrawal, a_preset_s_rule_holds_in_an_event_made_with_it)
{
  static const char *const systems[] = {"--system cn", "--system dutch"};
  for (int s = 0; s < 2; s++)
    for (int shaanxi = 0; shaanxi <= 1; shaanxi++) {
      char db[512];
      xq_test_db_fresh(db, sizeof db, shaanxi ? "res_shaanxi" : "res_default");
      event_of(db, shaanxi ? "--preset shaanxi2019" : "--rounds 9", 8);
      free(xq_test_run_db(0, "tourney numbers --db %s %s", db, "--by rating"));
      board bd[8];
      pair_and_play(db, systems[s], 1, 3, bd, 8);
      pair_and_play(db, systems[s], 2, 0, bd, 8);
      pair_and_play(db, systems[s], 3, 3, bd, 8);
      char *out = xq_test_run_db(0, "tourney pair --db %s %s", db, systems[s]);
      int n = boards_of(out, bd, 8);
      cr_assert_eq(seated(bd, n, 3), shaanxi, "%s, %s: player 3 (forfeits in rounds 1 and 3) %s in round 4:\n%s",
                   shaanxi ? "shaanxi2019" : "default", systems[s], shaanxi ? "paired" : "not paired", out);
      free(out);
      xq_test_db_remove(db);
    }
}

/* `tourney new --preset` takes the preset's settings and says the
 * withdrawal rule; an option given overrides the preset's. */
Test(withdrawal, new_with_a_preset_says_its_settings)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_new");
  char *out = xq_test_run_db(0, "tourney new --db %s %s", db, "--preset shaanxi2019");
  cr_assert(strstr(out, "9 rounds, scoring 2/1/0"), "%s", out);
  cr_assert(strstr(out, "after 2 missed rounds in a row"), "%s", out);
  free(out);
  xq_test_db_remove(db);
  out = xq_test_run_db(0, "tourney new --db %s %s", db, "--preset xinjiang2018 --rounds 7");
  cr_assert(strstr(out, "7 rounds"), "%s", out);
  cr_assert(strstr(out, "after 2 missed rounds\n"), "%s", out);
  free(out);
  xq_test_db_remove(db);
  xq_test_run_db_says(2, "no preset 'atlantis'", "tourney new --db %s %s", db, "--preset atlantis");
  xq_test_db_remove(db);
}

/* Rank `rank` of `tourney standings` output: its number and name. */
static void ranked(const char *standings, int rank, int *no, char name[32])
{
  for (const char *l = standings; l && *l;) {
    int r, n;
    char nm[32];
    if (sscanf(l, "%d %d %31s", &r, &n, nm) == 3 && r == rank) {
      *no = n;
      memcpy(name, nm, sizeof nm);
      return;
    }
    const char *nl = strchr(l, '\n');
    l = nl ? nl + 1 : NULL;
  }
  cr_assert_fail("no rank %d in:\n%s", rank, standings);
}

/* Xinjiang 九(二) 取前8名, Tangshan 八.3 前4名: the players still in the
 * event. The 4th after round 2 withdraws from round 3 before the
 * knockout is seeded: the 5th is seeded 4th, and he is nowhere in the
 * bracket. */
Test(knockout, a_withdrawn_player_is_not_seeded)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_ko");
  event_of(db, "--rounds 5", 8);
  free(xq_test_run_db(0, "tourney numbers --db %s %s", db, "--by rating"));
  board bd[8];
  pair_and_play(db, "--system cn", 1, 0, bd, 8);
  pair_and_play(db, "--system cn", 2, 0, bd, 8);
  char *st = xq_test_run_db(0, "tourney standings --db %s %s", db, "--after 2");
  int no4, no5;
  char name4[32], name5[32];
  ranked(st, 4, &no4, name4);
  ranked(st, 5, &no5, name5);
  free(st);
  char extra[64], want[64], gone[64];
  snprintf(extra, sizeof extra, "--round 3 --player %d", no4);
  free(xq_test_run_db(0, "tourney withdraw --db %s %s", db, extra));
  char *out = xq_test_run_db(0, "tourney knockout --db %s %s", db, "--after 2 --size 4");
  snprintf(want, sizeof want, "#4 %s ", name5);
  snprintf(gone, sizeof gone, " %s ", name4);
  cr_assert(strstr(out, want), "the 5th (%s) takes the withdrawn 4th's place:\n%s", name5, out);
  cr_assert_null(strstr(out, gone), "the withdrawn %s is not seeded:\n%s", name4, out);
  free(out);
  xq_test_db_remove(db);
}

/* Every player named P<k> (or his team T<k>) in line `l` is given the
 * number `nos[k]`, not his registration id k: "P<k> (NO)" in the
 * bracket, "NO P<k>" in places and prizes, "T<k>: NO" in the teams. */
static void numbers_in_line(const char *l, size_t len, const int *nos, const char *what)
{
  for (size_t i = 0; i + 1 < len; i++) {
    if ((l[i] != 'P' && l[i] != 'T') || l[i + 1] < '1' || l[i + 1] > '8' || (i && l[i - 1] != ' ')) continue;
    int k = l[i + 1] - '0', no = -1;
    if (l[i] == 'T' && l[i + 2] == ':') sscanf(l + i + 3, "%d", &no);
    else if (l[i] == 'T') continue;
    else if (l[i + 2] == ' ' && l[i + 3] == '(') sscanf(l + i + 4, "%d", &no);
    else {
      size_t j = i; /* the number before the name */
      while (j > 0 && l[j - 1] == ' ') j--;
      while (j > 0 && l[j - 1] >= '0' && l[j - 1] <= '9') j--;
      sscanf(l + j, "%d", &no);
    }
    cr_assert_eq(no, nos[k], "%s: %c%d is number %d, printed %d (his registration id is %d): %.*s", what, l[i], k,
                 nos[k], no, k, (int)len, l);
  }
}

/* Every line of a listing. */
static void numbers_in(const char *out, const int *nos, const char *what)
{
  int seen = 0;
  for (const char *l = out; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    numbers_in_line(l, len, nos, what);
    seen += strstr(l, " P") && strstr(l, " P") < l + len;
    l = nl ? nl + 1 : NULL;
  }
  cr_assert(seen || strstr(out, " T"), "%s names no player:\n%s", what, out);
}

/* One number per player: once the numbers are given (here the reverse of
 * registration), the bracket, a knockout game recorded, the final places,
 * the team standings and the prize list print each player's 序号 and no
 * registration id; ko-result --red takes the number too. */
Test(listings, every_listing_says_the_number_not_the_id)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_numbers");
  free(xq_test_run_db(0, "tourney new --db %s %s", db, "--rounds 3"));
  for (int i = 1; i <= 8; i++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--name P%d --rating %d --team T%d", i, 1500 + 50 * i, i);
    free(xq_test_run_db(0, "tourney add --db %s %s", db, extra));
  }
  free(xq_test_run_db(0, "tourney numbers --db %s %s", db, "--by rating"));
  int nos[9];
  for (int k = 1; k <= 8; k++) nos[k] = 9 - k;
  board bd[8];
  pair_and_play(db, "--system cn", 1, 0, bd, 8);
  pair_and_play(db, "--system cn", 2, 0, bd, 8);
  char *out = xq_test_run_db(0, "tourney knockout --db %s %s", db, "--after 2 --size 4");
  numbers_in(out, nos, "knockout");
  free(out);
  /* match 1 is seed 1 (P1, number 8) against seed 4 (P8, number 1): Red by number */
  xq_test_run_db_says(1, "no player numbered 99", "tourney ko-result --db %s %s", db, "--match 1 --red 99 1-0");
  out = xq_test_run_db(0, "tourney ko-result --db %s %s", db, "--match 1 --red 1 0-1");
  cr_assert(strstr(out, "red 1 black 8 0-1"), "--red 1 is P8, number 1:\n%s", out);
  numbers_in(out, nos, "ko-result");
  free(out);
  static const char *const listings[][2] = {
    {"tourney bracket --db %s%s", NULL},
    {"tourney places --db %s%s", NULL},
    {"tourney places --db %s %s", "--swiss"},
    {"tourney teams --db %s %s", "--count 1"},
    {"tourney prizes --db %s %s", "--preset shaanxi2019"},
  };
  for (size_t i = 0; i < sizeof listings / sizeof listings[0]; i++) {
    out = xq_test_run_db(0, listings[i][0], db, listings[i][1]);
    numbers_in(out, nos, listings[i][0]);
    free(out);
  }
  xq_test_db_remove(db);
}

/* The TRF player line of `name` in `trf` into line[] (empty when none). */
static void trf_line(const char *trf, const char *name, char *line, size_t cap)
{
  line[0] = 0;
  for (const char *l = trf; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), l);
    if (!strncmp(buf, "001", 3) && strstr(buf, name)) snprintf(line, cap, "%s", buf);
    l = nl ? nl + 1 : NULL;
  }
  while (line[0] && line[strlen(line) - 1] == ' ') line[strlen(line) - 1] = 0;
}

/* The W-D-L of `name` in a standings listing (its last column) and his
 * points (PTS, the fourth; -1 when he is not listed). */
static void wdl_of(const char *st, const char *name, char *wdl, size_t cap, int *pts)
{
  wdl[0] = 0;
  *pts = -1;
  for (const char *l = st; l && *l;) {
    const char *nl = strchr(l, '\n');
    char buf[256], word[16];
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), l);
    int rank, no, p;
    if (sscanf(buf, "%d %d %15s %d", &rank, &no, word, &p) == 4 && !strcmp(word, name)) {
      *pts = p;
      const char *last = strrchr(buf, ' ');
      snprintf(wdl, cap, "%s", last ? last + 1 : "");
    }
    l = nl ? nl + 1 : NULL;
  }
}

/* A double forfeit (双方弃权, --) is a forfeit loss for both players: no
 * point, a loss each, "-" against each other in the TRF (FIDE's code of a
 * forfeit loss); a result taken back ("*", the server's resume) leaves the
 * board pending again. */
Test(listings, a_double_forfeit_loses_for_both_and_a_result_taken_back_is_pending)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_double_forfeit");
  event_of(db, "--rounds 3", 4);
  char *out = xq_test_run_db(0, "tourney pair --db %s %s", db, "--system cn");
  /* the boards' players by name: "   1     1 P4      0  -     2 P3      0" */
  char names[2][2][16];
  int n = 0;
  for (const char *l = out; l && *l && n < 2;) {
    int b, r, k;
    if (sscanf(l, "%d %d %15s %*d - %d %15s", &b, &r, names[n][0], &k, names[n][1]) == 5) n++;
    const char *nl = strchr(l, '\n');
    l = nl ? nl + 1 : NULL;
  }
  cr_assert_eq(n, 2, "%s", out);
  free(out);
  free(xq_test_run_db(0, "tourney result --db %s %s", db, "--round 1 --board 1 --"));
  free(xq_test_run_db(0, "tourney result --db %s %s", db, "--round 1 --board 2 1-0"));
  free(xq_test_run_db(0, "tourney result --db %s %s", db, "--round 1 --board 2 '*'"));
  xq_test_run_db_says(1, "are not results", "tourney result --db %s %s", db, "--round 1 --board 2 2-0");
  char *st = xq_test_run_db(0, "tourney standings --db %s%s", db, "");
  char *trf = xq_test_run_db(0, "tourney export --db %s %s", db, "--format trf");
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 2; k++) {
      const char *name = names[i][k];
      char wdl[16], line[256];
      int pts;
      wdl_of(st, name, wdl, sizeof wdl, &pts);
      cr_assert_eq(pts, 0, "no point for %s:\n%s", name, st);
      cr_assert_str_eq(wdl, i == 0 ? "0-0-1" : "0-0-0", "%s (board %d):\n%s", name, i + 1, st);
      trf_line(trf, name, line, sizeof line);
      size_t len = strlen(line);
      cr_assert(len > 2, "%s in the TRF:\n%s", name, trf);
      if (i == 0) cr_assert_str_eq(line + len - 2, " -", "a forfeit loss for %s: %s", name, line);
      else cr_assert(line[len - 1] == 'w' || line[len - 1] == 'b', "no result for %s: %s", name, line);
    }
  free(st);
  free(trf);
  xq_test_db_remove(db);
}

/* A round robin made with `tourney new --format rr`: every round is the
 * table's (`xqref pair --system berger` prints the same boards), with
 * five entrants each sits out once, nobody joins after round 1, the
 * rounds end at N − 1, and the cross table is exported. */
Test(roundrobin, an_event_made_with_the_command_line_plays_the_table)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_rr");
  event_of(db, "--format rr", 5);
  free(xq_test_run_db(0, "tourney numbers --db %s %s", db, "--by lot --seed 7"));
  int status;
  char *table = xq_test_run("pair --system berger --players 5", &status);
  cr_assert_eq(status, 0, "%s", table);
  int byes[6] = {0};
  for (int r = 1; r <= 5; r++) {
    board bd[8];
    int n = pair_and_play(db, "", r, 0, bd, 8); /* the games; the bye's line has no Black */
    cr_assert_eq(n, 2);
    char want[128], *at = want;
    at += sprintf(at, "round %d:", r);
    for (int i = 0; i < n; i++) at += sprintf(at, " %d-%d", bd[i].red, bd[i].black);
    sprintf(at, " bye ");
    const char *line = strstr(table, want);
    cr_assert_not_null(line, "%s not in the table:\n%s", want, table);
    int bye = atoi(line + strlen(want));
    cr_assert(bye >= 1 && bye <= 5 && !seated(bd, n, bye), "round %d: bye %d", r, bye);
    byes[bye]++;
    if (r == 1)
      xq_test_run_db_says(1, "a round robin takes no entries after round 1 is paired", "tourney add --db %s %s", db,
                          "--name Late");
  }
  for (int no = 1; no <= 5; no++) cr_assert_eq(byes[no], 1, "number %d sat out %d times", no, byes[no]);
  xq_test_run_db_says(1, "all 5 rounds are paired", "tourney pair --db %s %s", db, "");
  /* every Red won: the cross table has 2 and 0 off the diagonal, and the
   * points column agrees with the standings */
  char *out = xq_test_run_db(0, "tourney export --db %s %s", db, "--format csv --what crosstable");
  cr_assert_not_null(strstr(out, "No,Name,1,2,3,4,5,Points,Place\r\n"), "%s", out);
  int rows = 0;
  for (const char *l = strstr(out, "\r\n"); l && l[2]; l = strstr(l + 2, "\r\n")) rows++;
  cr_assert_eq(rows, 5, "%s", out);
  free(out);
  free(table);
  xq_test_db_remove(db);
}

/* `tourney new --format rr --games 2`: two-game pairings (两局制), six
 * rounds for four entrants, round 2 the same pairs as round 1 with
 * colours swapped, ranked by 场分 first; --games 2 is for a single round
 * robin only. */
Test(roundrobin, two_game_pairings_from_the_command_line)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_rr2g");
  event_of(db, "--format rr --games 2", 4);
  board r1[4], r2[4];
  cr_assert_eq(pair_and_play(db, "", 1, 0, r1, 4), 2);
  cr_assert_eq(pair_and_play(db, "", 2, 0, r2, 4), 2);
  for (int i = 0; i < 2; i++)
    cr_assert(r2[i].red == r1[i].black && r2[i].black == r1[i].red, "board %d: %d-%d, then %d-%d", i + 1, r1[i].red,
              r1[i].black, r2[i].red, r2[i].black);
  /* every Red won: each pairing so far is 1:1, a drawn mini-match */
  char *out = xq_test_run_db(0, "tourney standings --db %s %s", db, "");
  cr_assert(strstr(out, "MATCHPTS") && strstr(out, "after round 2"), "%s", out);
  free(out);
  xq_test_db_remove(db);
  xq_test_db_fresh(db, sizeof db, "res_rr2g_bad");
  xq_test_run_db_says(2, "--games 2 is for a single round robin", "tourney new --db %s %s", db, "--format rr2 --games 2");
  xq_test_db_remove(db);
}
