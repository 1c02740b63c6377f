/*
 * test_tourney_refuse.c -- the organiser's command line refuses what it
 * cannot undo (issue 33): round numbers of fouls, absences and
 * withdrawals checked against the event's rounds and the rounds paired,
 * a second withdrawal refused, fouls and absences corrected by a later
 * event, `tourney new` without --rounds, match scores as results,
 * duplicate players (--force for a namesake) and the sex written 男/女.
 * Every event is made with `xqref tourney` as an organiser makes it.
 */
#include <criterion/criterion.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "store_fixture.h"
#include "support.h"
#include "tourney.h"

/* A new event of `rounds` rounds in `db` with players P1..Pn. */
static void event_of(const char *db, int rounds, int n)
{
  char extra[64];
  snprintf(extra, sizeof extra, "--rounds %d", rounds);
  free(xq_test_run_db(0, "tourney new --db %s %s", db, extra));
  for (int i = 1; i <= n; i++) {
    snprintf(extra, sizeof extra, "--name P%d --rating %d", i, 1500 + 50 * i);
    free(xq_test_run_db(0, "tourney add --db %s %s", db, extra));
  }
}

/* Pair the next round (`round`) and give every board's Red the win. */
static void play(const char *db, int round, int boards)
{
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, NULL));
  for (int b = 1; b <= boards; b++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--round %d --board %d 1-0", round, b);
    free(xq_test_run_db(0, "tourney result --db %s %s", db, extra));
  }
}

static xq_tournament *event_at(const char *db)
{
  return xq_test_store_event(db, 0, NULL);
}

Test(refuse, a_foul_needs_a_paired_round_of_the_event_and_zero_corrects_it)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_foul");
  event_of(db, 5, 4);
  play(db, 1, 2);
  xq_test_run_db_says(1, "round 9: the event has 5 rounds", "tourney foul --db %s %s", db,
                      "--round 9 --player 1");
  xq_test_run_db_says(1, "round 2 is not paired yet", "tourney foul --db %s %s", db, "--round 2 --player 1");
  free(xq_test_run_db(0, "tourney foul --db %s %s", db, "--round 1 --player 1 --count 2"));
  xq_tournament *ev = event_at(db);
  int id = xq_tournament_player_no(ev, 1);
  cr_assert_eq(xq_tournament_slot(ev, id, 1)->fouls, 2);
  xq_tournament_free(ev);
  /* a wrong foul is taken back: --count 0 sets the round's fouls to none */
  free(xq_test_run_db(0, "tourney foul --db %s %s", db, "--round 1 --player 1 --count 0"));
  free(xq_test_run_db(0, "tourney foul --db %s %s", db, "--round 1 --player 2"));
  ev = event_at(db);
  cr_assert_eq(xq_tournament_slot(ev, id, 1)->fouls, 0, "corrected to none");
  cr_assert_eq(xq_tournament_slot(ev, xq_tournament_player_no(ev, 2), 1)->fouls, 1, "others untouched");
  xq_tournament_free(ev);
  xq_test_run_db_says(0, "code=set", "tourney log --db %s%s", db, NULL);
  xq_test_db_remove(db);
}

Test(refuse, a_withdrawal_is_from_a_round_to_pair_and_once)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_withdraw");
  event_of(db, 3, 4);
  play(db, 1, 2);
  play(db, 2, 2);
  xq_test_run_db_says(1, "round 1 is already paired: a player withdraws from round 3 on",
                      "tourney withdraw --db %s %s", db, "--round 1 --player 3");
  xq_test_run_db_says(1, "round 4: the event has 3 rounds", "tourney withdraw --db %s %s", db,
                      "--round 4 --player 3");
  free(xq_test_run_db(0, "tourney withdraw --db %s %s", db, "--round 3 --player 3"));
  xq_test_run_db_says(1, "withdrawn already (from round 3 on", "tourney withdraw --db %s %s", db,
                      "--round 3 --player 3");
  /* taken back, then withdrawn again: a later event supersedes */
  xq_test_run_db_says(1, "round 4: the event has 3 rounds", "tourney reinstate --db %s %s", db,
                      "--round 4 --player 3");
  free(xq_test_run_db(0, "tourney reinstate --db %s %s", db, "--round 3 --player 3"));
  free(xq_test_run_db(0, "tourney withdraw --db %s %s", db, "--round 3 --player 3"));
  play(db, 3, 1);
  xq_test_run_db_says(1, "round 4: the event has 3 rounds", "tourney withdraw --db %s %s", db,
                      "--round 4 --player 4");
  xq_test_db_remove(db);
}

Test(refuse, an_absence_is_superseded_and_taken_back)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_absent");
  event_of(db, 5, 4);
  play(db, 1, 2);
  xq_test_run_db_says(1, "round 7: the event has 5 rounds", "tourney absent --db %s %s", db,
                      "--round 7 --player 2");
  xq_test_run_db_says(1, "no announced absence", "tourney absent --db %s %s", db,
                      "--round 2 --player 2 --bye none");
  free(xq_test_run_db(0, "tourney absent --db %s %s", db, "--round 2 --player 2 --bye half"));
  xq_tournament *ev = event_at(db);
  int id = xq_tournament_player_no(ev, 2);
  cr_assert_eq(xq_tournament_slot(ev, id, 2)->absent, XQ_TR_HPB);
  xq_tournament_free(ev);
  free(xq_test_run_db(0, "tourney absent --db %s %s", db, "--round 2 --player 2 --bye none"));
  ev = event_at(db);
  cr_assert_eq(xq_tournament_slot(ev, id, 2)->absent, XQ_TR_NONE, "taken back");
  xq_tournament_free(ev);
  char *out = xq_test_run_db(0, "tourney pair --db %s%s", db, NULL);
  cr_assert(strstr(out, "round 2: 2 boards"), "the player is paired again:\n%s", out);
  free(out);
  xq_test_db_remove(db);
}

Test(refuse, new_needs_its_rounds_and_results_are_one_game)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_new");
  xq_test_run_db_says(2, "--rounds N is required", "tourney new --db %s --name 无轮次%s", db, NULL);
  xq_test_db_remove(db);
  xq_test_run_db_says(0, "created", "tourney new --db %s %s", db, "--preset xinjiang2018");
  xq_tournament *ev = event_at(db);
  cr_assert_gt(ev->cfg.rounds, 0, "a preset gives its rounds");
  xq_tournament_free(ev);
  xq_test_db_remove(db);
  event_of(db, 3, 2);
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, NULL));
  const char *scores[] = {"2-0", "0-2", "1-1"};
  for (int i = 0; i < 3; i++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--round 1 --board 1 %s", scores[i]);
    xq_test_run_db_says(1, "match scores such as 2-0 or 1-1 are not results", "tourney result --db %s %s", db,
                        extra);
  }
  xq_test_db_remove(db);
}

Test(refuse, a_duplicate_player_needs_force_and_sex_is_taken_in_chinese)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_dup");
  free(xq_test_run_db(0, "tourney new --db %s %s", db, "--rounds 5"));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 罗国华 --birth 1989-03-15 --club 北屯 --sex 男"));
  xq_test_run_db_says(1, "罗国华 (born 1989/03/15, club 北屯) is registered already as player 1; --force",
                      "tourney add --db %s %s", db, "--name 罗国华 --birth 1989/03/15 --club 北屯 --rating 2100");
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 罗国华 --birth 1989/03/15 --club 北屯 --force"));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 罗国华 --birth 1989/03/15 --club 阿勒泰"));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 李丽 --sex 女"));
  xq_test_run_db_says(2, "--sex is m or w (男 or 女)", "tourney add --db %s %s", db, "--name 王五 --sex 中");
  xq_tournament *ev = event_at(db);
  cr_assert_eq(ev->n, 4);
  cr_assert_eq(ev->players[0].sex, 'm');
  cr_assert_eq(ev->players[3].sex, 'w');
  xq_tournament_free(ev);
  xq_test_db_remove(db);
}

/* True when `xqref pair`'s output (a count, then "RED BLACK" a line)
 * seats player `no`. */
static int seated(const char *out, int no)
{
  for (const char *l = strchr(out, '\n'); l; l = strchr(l + 1, '\n')) {
    int a, b;
    if (sscanf(l + 1, "%d %d", &a, &b) == 2 && (a == no || b == no)) return 1;
  }
  return 0;
}

/* The TRF export of a store writes 0000 - Z for a withdrawn player's
 * rounds not yet paired: the Dutch pairer given the file leaves him out. */
Test(refuse, the_trf_export_leaves_a_withdrawn_player_out_of_a_fide_pairing)
{
  char db[512], trf[600];
  xq_test_db_fresh(db, sizeof db, "refuse_trf");
  snprintf(trf, sizeof trf, "%s.trf", db);
  event_of(db, 5, 6);
  play(db, 1, 3);
  free(xq_test_run_db(0, "tourney withdraw --db %s %s", db, "--round 2 --id 6"));
  free(xq_test_run_db(0, "tourney export --db %s --out %s", db, trf));
  char *text = xq_test_slurp(trf);
  cr_assert_not_null(text);
  const char *line = strstr(text, "P6");
  cr_assert_not_null(line, "%s", text);
  const char *eol = strchr(line, '\n');
  cr_assert(strstr(line, "0000 - Z") && strstr(line, "0000 - Z") < eol, "round 2 of P6 is Z:\n%s", text);
  free(text);
  /* P6 is TRF number 1 (the highest rated): on no board of round 2 */
  char *out = xq_test_run_db(0, "pair --system dutch --rounds 5 %s%s", trf, NULL);
  cr_assert_eq(atoi(out), 3, "two boards and the bye:\n%s", out);
  cr_assert_not(seated(out, 1), "the withdrawn player is not paired:\n%s", out);
  free(out);
  out = xq_test_run_db(0, "pair --system cn --rounds 5 %s%s", trf, NULL);
  cr_assert_not(seated(out, 1), "nor by the Chinese system:\n%s", out);
  free(out);
  unlink(trf);
  xq_test_db_remove(db);
}

/* players and standings mark the withdrawn; the boards of a round list
 * the players on none, with why. */
Test(refuse, listings_mark_the_withdrawn_and_the_absent)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_lists");
  event_of(db, 5, 6);
  play(db, 1, 3);
  free(xq_test_run_db(0, "tourney withdraw --db %s %s", db, "--round 2 --id 6"));
  free(xq_test_run_db(0, "tourney absent --db %s %s", db, "--round 2 --id 5 --bye half"));
  char *out = xq_test_run_db(0, "tourney players --db %s%s", db, NULL);
  const char *p6 = strstr(out, "P6");
  cr_assert(p6 && strstr(p6, "退赛 (withdrawn from round 2)"), "%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney standings --db %s%s", db, NULL);
  p6 = strstr(out, "P6");
  cr_assert(p6 && strstr(p6, "退赛"), "%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney pair --db %s%s", db, NULL);
  const char *off = strstr(out, "not on a board:");
  cr_assert_not_null(off, "%s", out);
  cr_assert(strstr(off, "P5") && strstr(off, "absent: ½-point bye"), "%s", out);
  cr_assert(strstr(off, "P6") && strstr(off, "withdrawn"), "%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney export --db %s %s", db, "--format text --what pairings --lang zh --round 2");
  cr_assert(strstr(out, "请假（得和棋分）") && strstr(out, "退赛"), "%s", out);
  free(out);
  xq_test_db_remove(db);
}

/* A result of the round the knockout was seeded after is refused once
 * the bracket stands, unless --force; then the seeds the standings would
 * now give another player are printed. */
Test(refuse, a_result_the_knockout_was_seeded_on_needs_force)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_ko");
  event_of(db, 5, 8);
  play(db, 1, 4);
  play(db, 2, 4);
  free(xq_test_run_db(0, "tourney knockout --db %s %s", db, "--after 2 --size 4"));
  xq_test_run_db_says(1, "round 2 decided the knockout (seeded after round 2)", "tourney result --db %s %s", db,
                      "--round 2 --board 1 0-1");
  xq_test_run_db_says(1, "round 1 decided the knockout", "tourney result --db %s %s", db, "--round 1 --board 2 =");
  char *out = xq_test_run_db(0, "tourney result --db %s %s", db, "--round 2 --board 1 0-1 --force");
  cr_assert(strstr(out, "seeded now from the standings it would differ") && strstr(out, "  seed 2: "), "%s", out);
  free(out);
  xq_test_run_db_says(0, "its seeding still matches the standings", "tourney result --db %s %s", db,
                      "--round 2 --board 1 1-0 --force");
  xq_test_db_remove(db);
}

/* The file at `path` holds n bytes of `b` and nothing else. */
static void write_bytes(const char *path, const char *b, size_t n)
{
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fwrite(b, 1, n, f), n);
  cr_assert_eq(fclose(f), 0);
}

/* `text` (UTF-8) written to `path` as GB18030, as Chinese Excel saves a
 * CSV file. */
static void write_gbk(const char *path, const char *text)
{
  iconv_t cd = iconv_open("GB18030", "UTF-8");
  cr_assert_neq(cd, (iconv_t)-1);
  char out[4096], *o = out, *i = (char *)text;
  size_t in = strlen(text), left = sizeof out;
  cr_assert_neq(iconv(cd, &i, &in, &o, &left), (size_t)-1);
  iconv_close(cd);
  write_bytes(path, out, sizeof out - left);
}

/* import-players reads a GBK list as the page does: a preview with each
 * line's player or error (a duplicate in the file, one registered already
 * with the date written otherwise, a bad sex, date or rating, a
 * full-width comma); --dry-run registers nothing; then the good lines are
 * registered and the bad ones skipped (exit 1). */
Test(refuse, import_players_from_a_gbk_csv_with_its_preview_and_errors)
{
  char db[512], csv[600];
  xq_test_db_fresh(db, sizeof db, "refuse_csv");
  snprintf(csv, sizeof csv, "%s.csv", db);
  free(xq_test_run_db(0, "tourney new --db %s %s", db, "--rounds 5"));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 罗国华 --birth 1989-03-15 --club 北屯"));
  write_gbk(csv, "序号,姓名,性别,出生日期,单位,等级分\r\n"
                 "1,王天一,男,1988/11/03,杭州,2650\r\n"
                 "2,罗国华,男,1989/03/15,北屯,2100\r\n"
                 "3,\"唐丹\",女,1989年4月3日,北京,2400\r\n"
                 "4,王天一,男,1988-11-03,杭州,\r\n"
                 "5,张三,中,,,\r\n"
                 "6,李四,男,1990-02-30,,\r\n"
                 "7,赵五，男,,,\r\n"
                 "8,孙六,m,1990.1.2,,12.5\r\n");
  char *out = xq_test_run_db(1, "tourney import-players --db %s --dry-run %s", db, csv);
  cr_assert(strstr(out, ": GBK, 8 lines: 2 players, 6 with an error"), "%s", out);
  cr_assert(strstr(out, "line 2 no 1: 王天一, 男, 1988/11/03, -, 杭州, -, 2650"), "%s", out);
  cr_assert(strstr(out, "line 3 no 2: error: registered already: 1. 罗国华"), "%s", out);
  cr_assert(strstr(out, "line 4 no 3: 唐丹, 女, 1989/04/03"), "%s", out);
  cr_assert(strstr(out, "line 5 no 4: error: the same as line 2"), "%s", out);
  cr_assert(strstr(out, "line 6 no 5: error: the sex is 男 or 女"), "%s", out);
  cr_assert(strstr(out, "line 7 no 6: error: birth date 1990/02/30 does not exist"), "%s", out);
  cr_assert(strstr(out, "line 8 no 7: error: a full-width comma"), "%s", out);
  cr_assert(strstr(out, "line 9 no 8: error: the rating is a whole number"), "%s", out);
  cr_assert(strstr(out, "dry run: nothing registered"), "%s", out);
  free(out);
  xq_tournament *ev = event_at(db);
  cr_assert_eq(ev->n, 1, "a dry run registers nothing");
  xq_tournament_free(ev);
  out = xq_test_run_db(1, "tourney import-players --db %s %s", db, csv);
  cr_assert(strstr(out, "2 players registered: ids 2..3") && strstr(out, "6 lines with an error skipped"), "%s", out);
  free(out);
  ev = event_at(db);
  cr_assert_eq(ev->n, 3);
  cr_assert_str_eq(ev->players[1].name, "王天一");
  cr_assert_eq(ev->players[2].sex, 'w');
  xq_tournament_free(ev);
  /* the same file again: every line is registered already, or wrong */
  xq_test_run_db_says(1, "registered already: 2. 王天一", "tourney import-players --db %s %s", db, csv);
  xq_test_run_db_says(2, "which CSV file?", "tourney import-players --db %s%s", db, NULL);
  write_bytes(csv, "name;sex\n", strlen("name;sex\n"));
  xq_test_run_db_says(1, "no heading 姓名 (or name)", "tourney import-players --db %s %s", db, csv);
  unlink(csv);
  xq_test_db_remove(db);
}

/* import-players holds a regulation's entry rules as add does: on a
 * xinjiang2018 event a junior (his group plays its own event) is a line
 * with an error, and a player without a birth date is registered with a
 * warning in the preview. */
Test(refuse, import_players_keeps_a_regulation_s_juniors_out)
{
  char db[512], csv[600];
  xq_test_db_fresh(db, sizeof db, "refuse_csv_xj");
  snprintf(csv, sizeof csv, "%s.csv", db);
  free(xq_test_run_db(0, "tourney new --db %s %s", db, "--preset xinjiang2018 --rounds 3"));
  static const char list[] = "姓名,出生日期,等级分\n甲,1980/01/01,1900\n乙,2012/12/12,2400\n丙,,1000\n";
  write_bytes(csv, list, sizeof list - 1);
  char *out = xq_test_run_db(1, "tourney import-players --db %s %s", db, csv);
  cr_assert(strstr(out, "3 lines: 2 players, 1 with an error"), "%s", out);
  cr_assert(strstr(out, "line 3: error:") && strstr(out, "which plays an event of its own"), "%s", out);
  const char *w = strstr(out, "line 4: 丙");
  cr_assert(w && strstr(w, "warning:") && strstr(w, "no birth date"), "%s", out);
  free(out);
  xq_tournament *ev = event_at(db);
  cr_assert_eq(ev->n, 2, "甲 and 丙 registered, not the junior");
  xq_tournament_free(ev);
  unlink(csv);
  xq_test_db_remove(db);
}

/* tourney remove (issue 35, Deliver 5; issue 33): a player registered by
 * mistake is deleted before round 1 by his number or id, the listing
 * closes up; without --player or --id it is a usage error; once round 1
 * is paired, or a knockout-only event's bracket is drawn, it is refused
 * with the reason, nothing stored. */
Test(refuse, remove_a_player_before_round_1_only)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_remove");
  event_of(db, 5, 5);
  xq_test_run_db_says(2, "--player NO (or --id ID) is required", "tourney remove --db %s%s", db, NULL);
  xq_test_run_db_says(1, "no player has the id 9", "tourney remove --db %s %s", db, "--id 9");
  xq_test_run_db_says(0, "deleted P2 (id 2); the ids after his close up", "tourney remove --db %s %s", db, "--id 2");
  char *out = xq_test_run_db(0, "tourney players --db %s%s", db, NULL);
  cr_assert(strstr(out, "   2  ") && strstr(out, "P3") && !strstr(out, "P2 "), "%s", out);
  free(out);
  xq_tournament *ev = event_at(db);
  cr_assert_eq(ev->n, 4);
  cr_assert_str_eq(ev->players[1].name, "P3");
  xq_tournament_free(ev);
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, NULL));
  xq_test_run_db_says(1, "round 1 is paired: a player is deleted only before it (withdraw him instead)",
                      "tourney remove --db %s %s", db, "--player 1");
  ev = event_at(db);
  cr_assert_eq(ev->n, 4, "nothing stored");
  xq_tournament_free(ev);
  xq_test_db_remove(db);
  /* a knockout-only event has no round 1: its draw fixes the ids too */
  event_of(db, 1, 4);
  free(xq_test_run_db(0, "tourney knockout --db %s %s", db, "--seeding lot --lot 7"));
  xq_test_run_db_says(1, "the knockout has started: a player is deleted only before it", "tourney remove --db %s %s",
                      db, "--id 4");
  xq_test_db_remove(db);
}

/* A published round is withdrawn and paired again while nothing happened
 * in it; the last paired only, and refused with the reason once a
 * result, a foul or a game event is in (issue 35). */
Test(refuse, unpair_the_last_round_until_something_happened_in_it)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "refuse_unpair");
  event_of(db, 3, 4);
  xq_test_run_db_says(1, "no round is paired", "tourney unpair --db %s %s", db, "--round 1");
  play(db, 1, 2);
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, NULL));
  xq_test_run_db_says(1, "round 2 is paired after round 1: only the last paired round can be withdrawn",
                      "tourney unpair --db %s %s", db, "--round 1");
  xq_test_run_db_says(1, "round 3 is not paired", "tourney unpair --db %s %s", db, "--round 3");
  /* the round's board tokens go with it; others stay */
  xq_tstore *st = xq_test_store_open(db);
  xq_ttoken tk[2];
  int boards[] = {1, 2};
  xq_error err = {0};
  cr_assert_eq(xq_tstore_board_tokens(st, 2, boards, 2, "t", tk, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_board_tokens(st, 1, boards, 1, "t", &tk[1], &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  xq_test_run_db_says(0, "round 2 withdrawn: it can be paired again", "tourney unpair --db %s %s", db, "--round 2");
  st = xq_test_store_open(db);
  xq_ttoken *live = NULL;
  int nlive = 0;
  cr_assert_eq(xq_tstore_tokens(st, &live, &nlive, &err), XQ_OK);
  for (int i = 0; i < nlive; i++) cr_assert_neq(live[i].round, 2, "a board token of round 2 is revoked");
  cr_assert(nlive >= 1, "round 1's token stays");
  free(live);
  xq_tstore_close(st);
  xq_tournament *ev = event_at(db);
  cr_assert_eq(ev->nrounds, 1, "the replay forgets the pairing");
  cr_assert_eq(xq_tournament_slot(ev, 1, 2)->opp, 0);
  xq_tournament_free(ev);
  xq_test_run_db_says(0, "withdrawn (the round's pairing above is taken back)", "tourney log --db %s%s", db, NULL);
  xq_test_run_db_says(1, "round 1 has a result recorded since it was published: it stands",
                      "tourney unpair --db %s %s", db, "--round 1");
  /* paired again; a foul, then a game event, keep it */
  xq_test_run_db_says(0, "round 2: 2 boards", "tourney pair --db %s%s", db, NULL);
  ev = event_at(db);
  cr_assert_eq(ev->nrounds, 2);
  xq_tournament_free(ev);
  free(xq_test_run_db(0, "tourney foul --db %s %s", db, "--round 2 --player 1"));
  xq_test_run_db_says(1, "round 2 has a foul recorded since it was published: it stands",
                      "tourney unpair --db %s %s", db, "--round 2");
  xq_test_db_remove(db);
  event_of(db, 3, 4);
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, NULL));
  st = xq_test_store_open(db);
  xq_tgame_rec r = {.round = 1, .board = 2, .source = XQ_GSRC_BOARD, .seq = 1, .event = "h2e2", .reply = ""};
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  xq_test_run_db_says(1, "the game of round 1 table 2 has begun: the round stands", "tourney unpair --db %s %s", db,
                      "--round 1");
  xq_test_db_remove(db);
}
