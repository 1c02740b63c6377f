/*
 * test_tourney_players.c -- the players in the store besides their
 * registration (schema 9): edits applied after a reload and refused for a
 * bad field or the team after round 1, a withdrawn player not paired and
 * one taken back paired again, the pairing numbers before round 1 by
 * rating, by lot and by hand (refused when not 1..n each once, or after
 * round 1), a late entry after a drawing, the migration of a version-8
 * store, `xqref tourney edit|numbers|reinstate`, and a duplicate player
 * found whatever the birth date's written form.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pair/pair.h"
#include "store/store.h"
#include "store_fixture.h"
#include "support.h"
#include "tourney.h"

/* A new store at `path` with `n` players of ratings 2000 + 10 * id (the
 * last registered rated highest). */
static xq_tstore *store_with(const char *path, int n)
{
  xq_tstore *st = xq_test_store_new(path, "棋手测试赛", 5);
  xq_error err = {0};
  for (int i = 1; i <= n; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "棋手%d", i);
    p.rating = 2000 + 10 * i;
    snprintf(p.team, sizeof p.team, "队%d", (i + 1) / 2);
    cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK, "%s", err.msg);
  }
  return st;
}

static char *dump(xq_tstore *st)
{
  char *log = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&log, &len);
  cr_assert_eq(xq_tstore_dump(st, m), XQ_OK);
  fclose(m);
  return log;
}

/* Pair and publish the next round; results for every board (Red wins). */
static void play_round(xq_tstore *st, int results)
{
  xq_tournament *ev = xq_test_store_load(st);
  xq_tpairing pr = {0};
  xq_error err = {0};
  cr_assert_eq(xq_tstore_pair_next(st, ev, XQ_PAIR_CN, &pr, &err), XQ_OK, "%s", err.msg);
  for (int b = 0; results && b < pr.nboards; b++)
    if (pr.boards[b].black) cr_assert_eq(xq_tstore_result(st, pr.round, b + 1, "1-0", &err), XQ_OK, "%s", err.msg);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

/* True when player `id` has a board in round `round`. */
static int paired(const xq_tournament *ev, int id, int round)
{
  const xq_tslot *s = xq_tournament_slot(ev, id, round);
  return s->opp || s->res == XQ_TR_PAB;
}

Test(edit, applied_after_a_reload_and_shown_in_the_log)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "edit");
  xq_tstore *st = store_with(path, 4);
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  strcpy(p.name, "张珊");
  p.rating = 2345;
  strcpy(p.birth, "2001-02-03");
  p.sex = 'w';
  strcpy(p.club, "上海队");
  unsigned changed = 0;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_edit(st, 2, &p, XQ_PE_NAME | XQ_PE_RATING | XQ_PE_BIRTH | XQ_PE_SEX | XQ_PE_CLUB, &changed,
                              &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(changed, XQ_PE_NAME | XQ_PE_RATING | XQ_PE_BIRTH | XQ_PE_SEX | XQ_PE_CLUB);
  /* a second edit of one field: the fields not named stay */
  memset(&p, 0, sizeof p);
  p.local = 1;
  cr_assert_eq(xq_tstore_edit(st, 2, &p, XQ_PE_LOCAL, &changed, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(changed, XQ_PE_LOCAL);
  xq_tstore_close(st);

  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  xq_tournament *ev = xq_test_store_load(st);
  const xq_tplayer *q = &ev->players[1];
  cr_assert_str_eq(q->name, "张珊");
  cr_assert_eq(q->rating, 2345);
  cr_assert_str_eq(q->birth, "2001/02/03", "normalised as at registration");
  cr_assert_eq(q->sex, 'w');
  cr_assert_str_eq(q->club, "上海队");
  cr_assert_str_eq(q->team, "队1", "not named: kept");
  cr_assert_eq(q->local, 1);
  cr_assert_str_eq(ev->players[0].name, "棋手1", "the others untouched");
  xq_tournament_free(ev);
  cr_assert_eq(xq_tstore_event_count(st), 4, "edits are not events of the log");
  char *log = dump(st);
  cr_assert(strstr(log, "player=2 name: 棋手2 -> 张珊"), "%s", log);
  cr_assert(strstr(log, "player=2 rating: 2020 -> 2345"), "%s", log);
  cr_assert(strstr(log, "player=2 local: 0 -> 1"), "%s", log);
  /* after the last registration, in the order made */
  cr_assert(strstr(log, "name=棋手4\n  edit 1 "), "%s", log);
  cr_assert_lt(strstr(log, "edit 1"), strstr(log, "edit 2"));
  free(log);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(edit, refused_for_a_bad_field_with_nothing_stored)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "edit_bad");
  xq_tstore *st = store_with(path, 4);
  xq_tplayer p;
  xq_error err = {0};
  memset(&p, 0, sizeof p);
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_NAME, NULL, &err), XQ_EINVAL, "an empty name");
  strcpy(p.name, "\xff\xfe");
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_NAME, NULL, &err), XQ_EINVAL, "not UTF-8");
  strcpy(p.birth, "2001-02-30");
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_BIRTH, NULL, &err), XQ_EINVAL, "no such day");
  cr_assert(strstr(err.msg, "birth"), "%s", err.msg);
  p.rating = 10000;
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_RATING, NULL, &err), XQ_EINVAL);
  p.sex = 'x';
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_SEX, NULL, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_edit(st, 9, &p, XQ_PE_LOCAL, NULL, &err), XQ_EINVAL, "no player 9");
  cr_assert_eq(xq_tstore_edit(st, 1, &p, 0, NULL, &err), XQ_EINVAL, "no field");
  cr_assert_eq(xq_tstore_edit(st, 1, &p, 1u << 12, NULL, &err), XQ_EINVAL, "no such field");
  /* the same details again change nothing */
  memset(&p, 0, sizeof p);
  strcpy(p.name, "棋手1");
  p.rating = 2010;
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_NAME | XQ_PE_RATING, NULL, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "changes nothing"), "%s", err.msg);
  /* a good field with a bad one: all or nothing */
  strcpy(p.name, "新名字");
  p.sex = 'q';
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_NAME | XQ_PE_SEX, NULL, &err), XQ_EINVAL);
  xq_tournament *ev = xq_test_store_load(st);
  cr_assert_str_eq(ev->players[0].name, "棋手1");
  xq_tournament_free(ev);
  char *log = dump(st);
  cr_assert_null(strstr(log, "edit "), "%s", log);
  free(log);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(edit, after_round_1_renumbers_no_one_and_keeps_the_team)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "edit_r1");
  xq_tstore *st = store_with(path, 6);
  play_round(st, 0);
  xq_tournament *ev = xq_test_store_load(st);
  int before[6];
  for (int i = 0; i < 6; i++) before[i] = ev->players[i].pno;
  cr_assert_eq(before[5], 1, "the highest rating is number 1");
  xq_tournament_free(ev);
  /* the lowest-rated player's rating corrected to the highest */
  xq_tplayer p;
  xq_error err = {0};
  memset(&p, 0, sizeof p);
  p.rating = 2800;
  strcpy(p.team, "别的队");
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_RATING, NULL, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_edit(st, 1, &p, XQ_PE_TEAM, NULL, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "team"), "%s", err.msg);
  ev = xq_test_store_load(st);
  cr_assert_eq(ev->players[0].rating, 2800);
  cr_assert_str_eq(ev->players[0].team, "队1");
  for (int i = 0; i < 6; i++) cr_assert_eq(ev->players[i].pno, before[i], "player %d keeps number %d", i + 1, before[i]);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(withdraw, a_withdrawn_player_is_not_paired_and_one_taken_back_is)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "withdraw");
  xq_tstore *st = store_with(path, 6);
  xq_error err = {0};
  cr_assert_eq(xq_tstore_reinstate(st, 1, 3, &err), XQ_EINVAL, "not withdrawn");
  cr_assert_eq(xq_tstore_withdraw(st, 1, 3, &err), XQ_OK, "%s", err.msg);
  play_round(st, 1);
  xq_tournament *ev = xq_test_store_load(st);
  cr_assert_eq(ev->players[2].withdrawn, 1);
  cr_assert_not(paired(ev, 3, 1));
  for (int id = 1; id <= 6; id++)
    if (id != 3) cr_assert(paired(ev, id, 1), "player %d is paired", id);
  xq_tournament_free(ev);
  cr_assert_eq(xq_tstore_reinstate(st, 1, 3, &err), XQ_EINVAL, "round 1 is paired");
  cr_assert(strstr(err.msg, "already paired"), "%s", err.msg);
  cr_assert_eq(xq_tstore_reinstate(st, 2, 3, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_reinstate(st, 2, 3, &err), XQ_EINVAL, "taken back once");
  play_round(st, 0);
  ev = xq_test_store_load(st);
  cr_assert_eq(ev->players[2].withdrawn, 0);
  cr_assert(paired(ev, 3, 2), "paired again in round 2");
  xq_tournament_free(ev);
  char *log = dump(st);
  cr_assert(strstr(log, "withdrawal round=1 player=3\n"), "%s", log);
  cr_assert(strstr(log, "withdrawal round=2 player=3 reinstated"), "%s", log);
  free(log);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* Number the players of a fresh load as `how` says (stored, asserted). */
static void number_by(xq_tstore *st, xq_tnumbering how)
{
  xq_error err = {0};
  xq_tournament *ev = xq_test_store_load(st);
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_OK, "%s", err.msg);
  xq_tournament_free(ev);
}

/* The numbers of players 1..n of a fresh load. */
static void numbers_of(xq_tstore *st, int *no, int n)
{
  xq_tournament *ev = xq_test_store_load(st);
  cr_assert_eq(ev->n, n);
  for (int i = 0; i < n; i++) no[i] = ev->players[i].pno;
  xq_tournament_free(ev);
}

Test(numbers, by_rating_by_lot_and_by_hand_the_last_counts)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "numbers");
  xq_tstore *st = store_with(path, 6);
  xq_error err = {0};
  int no[6];
  /* by rating: the last registered is rated highest */
  number_by(st, (xq_tnumbering){.method = XQ_NUM_RATING});
  numbers_of(st, no, 6);
  for (int i = 0; i < 6; i++) cr_assert_eq(no[i], 6 - i);
  /* by lot: the shuffle of its seed, the same as xq_assign_pnos makes */
  number_by(st, (xq_tnumbering){.method = XQ_NUM_LOT, .seed = 20240501});
  numbers_of(st, no, 6);
  xq_tournament *same = xq_test_store_load(st);
  for (int i = 0; i < 6; i++) same->players[i].pno = 0;
  same->cfg.first_round = XQ_FIRST_BY_LOT;
  same->cfg.lot_seed = 20240501;
  xq_assign_pnos(same);
  int identity = 1;
  for (int i = 0; i < 6; i++) {
    cr_assert_eq(no[i], same->players[i].pno);
    identity &= no[i] == 6 - i;
  }
  cr_assert_not(identity, "a lot, not the rating order");
  xq_tournament_free(same);
  /* by hand */
  int manual[6] = {3, 1, 2, 6, 5, 4};
  xq_tournament *ev = xq_test_store_load(st);
  xq_tnumbering how = {.method = XQ_NUM_MANUAL, .manual = manual};
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_OK, "%s", err.msg);
  for (int i = 0; i < 6; i++) cr_assert_eq(ev->players[i].pno, manual[i], "the caller's event has them");
  xq_tournament_free(ev);
  numbers_of(st, no, 6);
  for (int i = 0; i < 6; i++) cr_assert_eq(no[i], manual[i]);
  /* every drawing is in the log, the lot with its seed */
  char *log = dump(st);
  cr_assert(strstr(log, "numbering  by=rating\n    number 1 player=6 name=棋手6"), "%s", log);
  cr_assert(strstr(log, "numbering  by=lot seed=20240501\n"), "%s", log);
  cr_assert(strstr(log, "numbering  by=manual\n    number 1 player=2 name=棋手2"), "%s", log);
  free(log);
  /* round 1 is paired by the last numbers: 2 (no. 1) - 3 (no. 2) */
  play_round(st, 0);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_tstore_pairing(st, 1, &pr, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(pr.boards[0].red, 2);
  cr_assert_eq(pr.boards[0].black, 3);
  xq_tpairing_clear(&pr);
  numbers_of(st, no, 6);
  for (int i = 0; i < 6; i++) cr_assert_eq(no[i], manual[i], "round 1 fixes the drawn numbers");
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(numbers, manual_not_a_permutation_is_refused)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "numbers_bad");
  xq_tstore *st = store_with(path, 4);
  xq_error err = {0};
  xq_tournament *ev = xq_test_store_load(st);
  long events = xq_tstore_event_count(st);
  int twice[4] = {1, 2, 2, 4}, out[4] = {1, 2, 3, 5}, missing[4] = {1, 2, 0, 4};
  xq_tnumbering how = {.method = XQ_NUM_MANUAL, .manual = twice};
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "number 2 is given twice (ids 2 and 3)"), "%s", err.msg);
  how.manual = out;
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "number 5 is not 1..4"), "%s", err.msg);
  how.manual = missing;
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "棋手3 (id 3)"), "%s", err.msg);
  how.manual = NULL;
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  how = (xq_tnumbering){.method = XQ_NUM_LOT, .seed = XQ_NUM_SEED_MAX + 1};
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL, "a seed of 16 digits");
  how = (xq_tnumbering){.method = 7};
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  for (int i = 0; i < 4; i++) cr_assert_eq(ev->players[i].pno, 0, "the event is unchanged");
  xq_tournament_free(ev);
  cr_assert_eq(xq_tstore_event_count(st), events, "nothing stored");
  /* an event loaded before a registration is stale */
  ev = xq_test_store_load(st);
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  strcpy(p.name, "后来者");
  cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK);
  how = (xq_tnumbering){.method = XQ_NUM_RATING};
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "load it again"), "%s", err.msg);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(numbers, refused_after_round_1_and_a_late_entry_gets_the_next)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "numbers_late");
  xq_tstore *st = store_with(path, 5);
  xq_error err = {0};
  number_by(st, (xq_tnumbering){.method = XQ_NUM_LOT, .seed = 99});
  int drawn[5];
  numbers_of(st, drawn, 5);
  /* registered after the drawing: number 6, and the others keep theirs */
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  strcpy(p.name, "迟到者");
  p.rating = 2900;
  cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK);
  xq_tournament *ev = xq_test_store_load(st);
  cr_assert_eq(ev->players[5].pno, 0, "not numbered yet");
  cr_assert_eq(xq_tplayer_no(ev, 6), 6, "known by its id meanwhile, which no drawn number takes");
  xq_tournament_free(ev);
  play_round(st, 0);
  int no[6];
  numbers_of(st, no, 6);
  for (int i = 0; i < 5; i++) cr_assert_eq(no[i], drawn[i]);
  cr_assert_eq(no[5], 6);
  /* round 1 is paired: the numbers are fixed */
  ev = xq_test_store_load(st);
  xq_tnumbering how = {.method = XQ_NUM_RATING};
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "round 1 is paired"), "%s", err.msg);
  for (int i = 0; i < 6; i++) cr_assert_eq(ev->players[i].pno, no[i]);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* Migration                                                           */
/* ------------------------------------------------------------------ */

Test(migration, a_version_8_store_keeps_everything)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "v8");
  xq_test_copy_file(XQ_TEST_DATA "/store/v8.db", path);
  cr_assert_eq(xq_test_sql_int(path, "SELECT version FROM schema_version"), 8);
  cr_assert_eq(xq_test_sql_int(path, "SELECT count(*) FROM sqlite_master WHERE name IN ('player_edits', 'draw_numbers')"), 0);

  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_schema_version(st), XQ_STORE_SCHEMA_VERSION);
  cr_assert_eq(xq_tstore_event_count(st), 13);
  xq_tournament *ev = xq_test_store_load(st);
  cr_assert_str_eq(ev->name, "八版测试杯");
  cr_assert_eq(ev->n, 6);
  cr_assert_str_eq(ev->players[2].name, "许银川");
  cr_assert_str_eq(ev->players[2].team, "广东");
  for (int id = 1; id <= 6; id++) cr_assert_eq(ev->players[id - 1].pno, id, "numbered by rating at round 1");
  cr_assert_eq(xq_tournament_slot(ev, 1, 1)->res, XQ_TR_WIN);
  cr_assert_eq(xq_tournament_slot(ev, 4, 1)->res, XQ_TR_DRAW);
  cr_assert_eq(xq_tournament_slot(ev, 6, 1)->res, XQ_TR_WIN);
  cr_assert_eq(xq_tournament_slot(ev, 3, 1)->fouls, 1);
  cr_assert_eq(ev->players[5].withdrawn, 2);
  xq_tournament_free(ev);
  xq_ttoken *all;
  int nt;
  cr_assert_eq(xq_tstore_tokens(st, &all, &nt, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(nt, 1);
  cr_assert_str_eq(all[0].label, "desk");
  free(all);
  /* the new tables work on it: an edit, a player taken back; numbers are fixed */
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  strcpy(p.name, "许银川（广东）");
  cr_assert_eq(xq_tstore_edit(st, 3, &p, XQ_PE_NAME, NULL, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_reinstate(st, 2, 6, &err), XQ_OK, "%s", err.msg);
  ev = xq_test_store_load(st);
  xq_tnumbering how = {.method = XQ_NUM_RATING};
  cr_assert_eq(xq_tstore_numbers(st, ev, &how, &err), XQ_EINVAL);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  cr_assert_eq(xq_test_sql_int(path, "SELECT version FROM schema_version"), XQ_STORE_SCHEMA_VERSION);
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  ev = xq_test_store_load(st);
  cr_assert_str_eq(ev->players[2].name, "许银川（广东）");
  cr_assert_eq(ev->players[5].withdrawn, 0);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  /* append-only, as the log */
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
  cr_assert_neq(sqlite3_exec(db, "UPDATE player_edits SET new = 'x'", NULL, NULL, NULL), SQLITE_OK);
  cr_assert_neq(sqlite3_exec(db, "DELETE FROM player_edits", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* xqref tourney edit, numbers, reinstate                              */
/* ------------------------------------------------------------------ */

Test(cli, edit_numbers_reinstate)
{
  char db[512], file[600];
  xq_test_db_fresh(db, sizeof db, "cli_players");
  free(xq_test_run_db(0, "tourney new --db %s --rounds 3%s", db, NULL));
  const char *players[] = {"--name 甲 --rating 2100", "--name 乙 --rating 2300", "--name 丙 --rating 2200",
                           "--name 丁 --rating 2000"};
  for (int i = 0; i < 4; i++) free(xq_test_run_db(0, "tourney add --db %s %s", db, players[i]));
  xq_test_run_db_says(0, "player 1 (id 1): name club rating local changed",
                      "tourney edit --db %s %s", db, "--player 1 --name 甲一 --rating 2400 --club 北京 --local");
  xq_test_run_db_says(1, "birth", "tourney edit --db %s %s", db, "--player 1 --birth 2001-13-01");
  free(xq_test_run_db(2, "tourney edit --db %s %s", db, "--player 1"));
  free(xq_test_run_db(1, "tourney edit --db %s %s", db, "--player 7 --name X"));
  char *out = xq_test_run_db(0, "tourney numbers --db %s %s", db, "--by rating");
  cr_assert(strstr(out, "4 players numbered by rating"), "%s", out);
  cr_assert(strstr(out, "   1   1  甲一"), "the edited rating counts:\n%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney numbers --db %s %s", db, "--by lot");
  cr_assert(strstr(out, "numbered by lot, seed "), "a random seed, printed:\n%s", out);
  free(out);
  snprintf(file, sizeof file, "%s.numbers", db);
  FILE *f = fopen(file, "w");
  fputs("# id no\n1 4\n2,3\n3 2\n4 4\n", f);
  fclose(f);
  char extra[700];
  snprintf(extra, sizeof extra, "--by manual --file %s", file);
  xq_test_run_db_says(1, "number 4 is given twice", "tourney numbers --db %s %s", db, extra);
  f = fopen(file, "w");
  fputs("# id no\n1 4\n2,3\n3 2\n4 1\n", f);
  fclose(f);
  xq_test_run_db_says(0, "   4   1  丁", "tourney numbers --db %s %s", db, extra);
  free(xq_test_run_db(2, "tourney numbers --db %s %s", db, "--by manual"));
  free(xq_test_run_db(2, "tourney numbers --db %s %s", db, "--by rating --seed 3"));
  free(xq_test_run_db(2, "tourney numbers --db %s %s", db, "--by chance"));
  /* player 3 (丙, number 2) withdrawn: round 1 has 丁 (1) against 乙 (3) */
  free(xq_test_run_db(0, "tourney withdraw --db %s %s", db, "--round 1 --player 2"));
  out = xq_test_run_db(0, "tourney pair --db %s%s", db, NULL);
  cr_assert(strstr(out, "   1     1 丁"), "%s", out);
  char *off = strstr(out, "not on a board:");
  cr_assert(off && strstr(off, "丙") && strstr(off, "withdrawn"), "listed under the boards: %s", out);
  *off = 0;
  cr_assert_null(strstr(out, "丙"), "on no board: %s", out);
  free(out);
  xq_test_run_db_says(1, "round 1 is paired", "tourney numbers --db %s %s", db, "--by rating");
  xq_test_run_db_says(1, "team", "tourney edit --db %s %s", db, "--player 4 --team 新队");
  xq_test_run_db_says(0, "player 2 paired again from round 2 on", "tourney reinstate --db %s %s", db, "--player 2");
  out = xq_test_run_db(0, "tourney log --db %s%s", db, NULL);
  cr_assert(strstr(out, "player=1 name: 甲 -> 甲一"), "%s", out);
  cr_assert(strstr(out, "player=1 rating: 2100 -> 2400"), "%s", out);
  cr_assert(strstr(out, "numbering  by=lot seed="), "%s", out);
  cr_assert(strstr(out, "withdrawal round=2 player=3 reinstated"), "%s", out);
  free(out);
  unlink(file);
  xq_test_db_remove(db);
}

/* A duplicate whatever the birth date's written form (issue 35, Deliver
 * 5; issue 33): a player read from a TRF file keeps the date as the file
 * wrote it (1989-03-15), and the same player added as 1989/03/15, or in a
 * CSV line as 1989.03.15 or 1989年3月15日, is that player; a line that
 * repeats an earlier line with the date written otherwise is a duplicate
 * too. Another club, or another date, is another player. */
Test(duplicate, the_birth_date_in_any_written_form)
{
  char text[512];
  snprintf(text, sizeof text, "012 t\nXXR 3\n001 %4d %c%-3s %-33s %4d %-3s %11s %-10s %4.1f\n", 1, ' ', "",
           "Luo Guohua", 2100, "", "", "1989-03-15", 0.0);
  xq_tournament *ev;
  xq_error err = {0};
  cr_assert_eq(xq_trf_parse(text, strlen(text), &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_str_eq(ev->players[0].birth, "1989-03-15", "the TRF date is kept as written");
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "Luo Guohua");
  snprintf(p.birth, sizeof p.birth, "1989/03/15");
  cr_assert_eq(xq_tournament_same_player(ev, &p), 1);
  snprintf(p.birth, sizeof p.birth, "1989/03/16");
  cr_assert_eq(xq_tournament_same_player(ev, &p), 0, "another date");
  snprintf(p.birth, sizeof p.birth, "1989.03.15");
  snprintf(p.club, sizeof p.club, "北屯");
  cr_assert_eq(xq_tournament_same_player(ev, &p), 0, "another club");
  const char *csv = "name,birth,club\nLuo Guohua,1989.03.15,\nWang,1990年1月2日,\nWang,1990-01-02,\nWang,1990-01-02,X\n";
  xq_csv_players lines;
  cr_assert_eq(xq_csv_players_read(csv, strlen(csv), ev, &lines, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(lines.nlines, 4);
  cr_assert(!lines.lines[0].ok && strstr(lines.lines[0].error, "registered already: 1. Luo Guohua"), "%s",
            lines.lines[0].error);
  cr_assert(lines.lines[1].ok, "%s", lines.lines[1].error);
  cr_assert(!lines.lines[2].ok && strstr(lines.lines[2].error, "the same as line 3"), "%s", lines.lines[2].error);
  cr_assert(lines.lines[3].ok, "another club: %s", lines.lines[3].error);
  xq_csv_players_free(&lines);
  /* two headings of one field (name and 姓名): refused, not one of them taken */
  const char *twice = "name,姓名,club\nWang,Li,X\n";
  cr_assert_eq(xq_csv_players_read(twice, strlen(twice), ev, &lines, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "headings 1 (name) and 2 (姓名) name the same field"), "%s", err.msg);
  xq_tournament_free(ev);
}

/* The names of players 1..n of `ev`, a line each with the number. */
static void roster(const xq_tournament *ev, char *out, size_t cap)
{
  size_t at = 0;
  out[0] = 0;
  for (int i = 0; i < ev->n && at < cap; i++)
    at += (size_t)snprintf(out + at, cap - at, "%d:%s#%d%s ", i + 1, ev->players[i].name, ev->players[i].pno,
                           ev->players[i].withdrawn ? "w" : "");
}

/* A player deleted before round 1 (issue 35, Deliver 5; issue 33): the
 * players after him move down one id with their withdrawal and edits, the
 * numbers drawn above his close up, a late entry gets the next id, the
 * store's checks follow the new ids, the TRF has 1..n, a store opened
 * again replays the same event, and once round 1 is paired the deletion
 * is refused (withdraw then). */
Test(remove, before_round_1_the_ids_and_numbers_close_up)
{
  char path[512], got[512], again[512];
  xq_test_db_fresh(path, sizeof path, "remove");
  xq_tstore *st = store_with(path, 6); /* 棋手1..6, 棋手6 rated highest: numbers 6..1 */
  xq_error err = {0};
  number_by(st, (xq_tnumbering){.method = XQ_NUM_RATING});
  cr_assert_eq(xq_tstore_withdraw(st, 2, 5, &err), XQ_OK, "%s", err.msg);
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "六号");
  cr_assert_eq(xq_tstore_edit(st, 6, &p, XQ_PE_NAME, NULL, &err), XQ_OK, "%s", err.msg);
  int reg = 0;
  cr_assert_eq(xq_tstore_remove(st, 2, &reg, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(reg, 2);
  cr_assert_eq(xq_tstore_remove(st, 6, NULL, &err), XQ_EINVAL, "5 players are left");
  xq_test_store_add(st, "晚到", 1900); /* id 6, registration 7 */
  xq_tournament *ev = xq_test_store_load(st);
  roster(ev, got, sizeof got);
  cr_assert_str_eq(got, "1:棋手1#5 2:棋手3#4 3:棋手4#3 4:棋手5#2w 5:六号#1 6:晚到#0 ", "%s", got);
  xq_tournament_free(ev);
  /* the store's checks and edits name the ids of now */
  cr_assert_eq(xq_tstore_withdraw(st, 2, 4, &err), XQ_EINVAL, "棋手5 is withdrawn already");
  cr_assert(strstr(err.msg, "withdrawn already"), "%s", err.msg);
  cr_assert_eq(xq_tstore_reinstate(st, 2, 5, &err), XQ_EINVAL, "六号 is not withdrawn");
  cr_assert_eq(xq_tstore_reinstate(st, 2, 4, &err), XQ_OK, "%s", err.msg);
  snprintf(p.name, sizeof p.name, "晚到者");
  cr_assert_eq(xq_tstore_edit(st, 6, &p, XQ_PE_NAME, NULL, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_player(st, 6, &p, &err), XQ_OK, "%s", err.msg);
  cr_assert_str_eq(p.name, "晚到者");
  cr_assert_eq(xq_tstore_remove(st, 1, NULL, &err), XQ_OK, "%s", err.msg);
  ev = xq_test_store_load(st);
  roster(ev, got, sizeof got);
  cr_assert_str_eq(got, "1:棋手3#4 2:棋手4#3 3:棋手5#2 4:六号#1 5:晚到者#0 ", "%s", got);
  /* numbers for the rest, round 1 paired with every player on a board */
  xq_tournament_free(ev);
  number_by(st, (xq_tnumbering){.method = XQ_NUM_RATING});
  play_round(st, 1);
  ev = xq_test_store_load(st);
  cr_assert_eq(ev->n, 5);
  for (int id = 1; id <= 5; id++) cr_assert(paired(ev, id, 1), "player %d is on a board", id);
  roster(ev, got, sizeof got);
  char *trf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&trf, &len);
  cr_assert_eq(xq_trf_write(ev, m), XQ_OK);
  fclose(m);
  cr_assert(strstr(trf, "\n001    5 ") && !strstr(trf, "\n001    6 "), "%s", trf);
  free(trf);
  xq_tournament_free(ev);
  cr_assert_eq(xq_tstore_remove(st, 1, NULL, &err), XQ_EINVAL, "round 1 is paired");
  cr_assert(strstr(err.msg, "round 1 is paired") && strstr(err.msg, "withdraw him instead"), "%s", err.msg);
  char *log = dump(st);
  cr_assert(strstr(log, "withdrawal player=2 deleted"), "%s", log);
  free(log);
  xq_tstore_close(st);
  /* a restart replays the same event */
  st = xq_test_store_open(path);
  ev = xq_test_store_load(st);
  roster(ev, again, sizeof again);
  cr_assert_str_eq(again, got);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* The TRF of `ev` (the caller frees it). */
static char *trf_of(const xq_tournament *ev)
{
  char *trf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&trf, &len);
  cr_assert_eq(xq_trf_write(ev, m), XQ_OK);
  fclose(m);
  return trf;
}

/* Two entries of one player merged before round 1 (issue 35): the entry
 * kept keeps its id and number and takes the club it lacked (not the
 * team it has), the other leaves as a deletion (the ids after it and the
 * numbers above it close up), the log says merged into which, and a
 * store opened again replays the same event. */
Test(merge, before_round_1_fills_and_closes_up)
{
  char path[512], got[512], again[512];
  xq_test_db_fresh(path, sizeof path, "merge1");
  xq_tstore *st = store_with(path, 6); /* numbers by rating: 棋手6 1 .. 棋手1 6 */
  xq_error err = {0};
  number_by(st, (xq_tnumbering){.method = XQ_NUM_RATING});
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.club, sizeof p.club, "北京");
  cr_assert_eq(xq_tstore_edit(st, 5, &p, XQ_PE_CLUB, NULL, &err), XQ_OK, "%s", err.msg);
  unsigned filled = 0;
  cr_assert_eq(xq_tstore_merge(st, 2, 2, &filled, &err), XQ_EINVAL, "not into himself");
  cr_assert_eq(xq_tstore_merge(st, 2, 9, &filled, &err), XQ_EINVAL, "no player 9");
  cr_assert_eq(xq_tstore_merge(st, 2, 5, &filled, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(filled, XQ_PE_CLUB, "the club only: the team and the rating are set");
  xq_tournament *ev = xq_test_store_load(st);
  roster(ev, got, sizeof got);
  cr_assert_str_eq(got, "1:棋手1#5 2:棋手2#4 3:棋手3#3 4:棋手4#2 5:棋手6#1 ", "%s", got);
  cr_assert_str_eq(ev->players[1].club, "北京");
  cr_assert_str_eq(ev->players[1].team, "队1");
  char *trf = trf_of(ev);
  cr_assert(strstr(trf, "\n001    5 ") && !strstr(trf, "\n001    6 "), "%s", trf);
  free(trf);
  xq_tournament_free(ev);
  char *log = dump(st);
  cr_assert(strstr(log, "withdrawal player=5 merged into=2"), "%s", log);
  cr_assert(strstr(log, "player=2 club:  -> 北京"), "%s", log);
  free(log);
  xq_tstore_close(st);
  st = xq_test_store_open(path);
  ev = xq_test_store_load(st);
  roster(ev, again, sizeof again);
  cr_assert_str_eq(again, got, "the replay gives the same players");
  cr_assert_str_eq(ev->players[1].club, "北京");
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* After round 1 is paired: an entry that has played (a game or the bye)
 * is refused with the reason; a late entry registered twice, never
 * paired, merges when it is the last; one with players registered after
 * it is refused (their ids would move); the TRF and a store opened again
 * number the players alike. */
Test(merge, after_round_1_only_an_entry_never_paired)
{
  char path[512], got[512], again[512];
  xq_test_db_fresh(path, sizeof path, "merge2");
  xq_tstore *st = store_with(path, 5);
  xq_error err = {0};
  play_round(st, 1); /* five players: two boards and the bye */
  xq_tournament *ev = xq_test_store_load(st);
  int bye = 0;
  for (int id = 1; id <= 5; id++)
    if (xq_tournament_slot(ev, id, 1)->res == XQ_TR_PAB) bye = id;
  xq_tournament_free(ev);
  cr_assert(bye, "someone has the bye");
  cr_assert_eq(xq_tstore_merge(st, bye == 1 ? 2 : 1, bye, NULL, &err), XQ_EINVAL, "the bye counts as paired");
  cr_assert(strstr(err.msg, "has a bye in round 1") && strstr(err.msg, "cannot be merged away"), "%s", err.msg);
  cr_assert_eq(xq_tstore_merge(st, 5, bye == 1 ? 2 : 1, NULL, &err), XQ_EINVAL, "played round 1");
  cr_assert(strstr(err.msg, "is paired in round 1"), "%s", err.msg);
  xq_test_store_add(st, "晚到", 1900);  /* id 6 */
  xq_test_store_add(st, "晚到", 0);     /* id 7, the same player again */
  xq_test_store_add(st, "又晚到", 1800); /* id 8 */
  cr_assert_eq(xq_tstore_merge(st, 6, 7, NULL, &err), XQ_EINVAL, "player 8 was registered after him");
  cr_assert(strstr(err.msg, "only the last entry"), "%s", err.msg);
  cr_assert_eq(xq_tstore_merge(st, 7, 8, NULL, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_merge(st, 6, 7, NULL, &err), XQ_OK, "%s", err.msg);
  ev = xq_test_store_load(st);
  cr_assert_eq(ev->n, 6);
  cr_assert_eq(ev->players[5].rating, 1900, "the entry kept keeps its own rating");
  for (int id = 1; id <= 5; id++) cr_assert(paired(ev, id, 1), "round 1 stays as it was");
  roster(ev, got, sizeof got);
  char *trf = trf_of(ev);
  cr_assert(strstr(trf, "\n001    6 ") && !strstr(trf, "\n001    7 "), "%s", trf);
  free(trf);
  xq_tournament_free(ev);
  play_round(st, 1); /* round 2 pairs the six */
  ev = xq_test_store_load(st);
  for (int id = 1; id <= 6; id++) cr_assert(paired(ev, id, 2), "player %d is paired in round 2", id);
  roster(ev, got, sizeof got);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  st = xq_test_store_open(path);
  ev = xq_test_store_load(st);
  roster(ev, again, sizeof again);
  cr_assert_str_eq(again, got, "the replay gives the same players");
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* The model alone: the fields filled (sex, birth date, region, club,
 * rating, the team before a round is paired), a merge into himself
 * refused, the entry's forbidden pairs gone. */
Test(merge, the_model_fills_what_the_kept_entry_lacks)
{
  xq_tournament *ev = xq_tournament_new(NULL, "t");
  xq_tplayer a, b, c;
  memset(&a, 0, sizeof a);
  snprintf(a.name, sizeof a.name, "张三");
  snprintf(a.club, sizeof a.club, "甲");
  b = a;
  b.sex = 'm';
  snprintf(b.birth, sizeof b.birth, "1990/01/02");
  snprintf(b.region, sizeof b.region, "新疆");
  snprintf(b.club, sizeof b.club, "乙");
  snprintf(b.team, sizeof b.team, "队");
  b.rating = 1500;
  memset(&c, 0, sizeof c);
  snprintf(c.name, sizeof c.name, "李四");
  cr_assert_eq(xq_tournament_add(ev, &a, NULL, NULL), XQ_OK);
  cr_assert_eq(xq_tournament_add(ev, &b, NULL, NULL), XQ_OK);
  cr_assert_eq(xq_tournament_add(ev, &c, NULL, NULL), XQ_OK);
  cr_assert_eq(xq_tournament_forbid(ev, 2, 3, 1, XQ_TOURNEY_ROUNDS_MAX), XQ_OK);
  xq_error err = {0};
  unsigned filled = 0;
  cr_assert_eq(xq_tournament_merge(ev, 1, 1, &filled, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "into himself"), "%s", err.msg);
  cr_assert_eq(xq_tournament_merge(ev, 1, 2, &filled, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(filled, XQ_PE_SEX | XQ_PE_BIRTH | XQ_PE_REGION | XQ_PE_TEAM | XQ_PE_RATING);
  cr_assert_eq(ev->n, 2);
  cr_assert_str_eq(ev->players[0].club, "甲", "a field set stays");
  cr_assert_str_eq(ev->players[0].region, "新疆");
  cr_assert_eq(ev->players[0].rating, 1500);
  cr_assert_str_eq(ev->players[1].name, "李四", "the ids after it close up");
  cr_assert_eq(ev->nforbid, 0, "the pair named the entry merged away");
  xq_tournament_free(ev);
}

/* ------------------------------------------------------------------ */
/* xqref tourney settings                                              */
/* ------------------------------------------------------------------ */

Test(cli, settings_shown_changed_and_locked)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "cli_settings");
  free(xq_test_run_db(0, "tourney new --db %s --rounds 5%s", db, NULL));
  char *out = xq_test_run_db(0, "tourney settings --db %s%s", db, NULL);
  cr_assert(strstr(out, "format: swiss\nrounds: 5\nsystem: cn\n") && strstr(out, "scoring: 2-1-0\npaired: 0\n") &&
            !strstr(out, "locked:"), "%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney settings --db %s %s", db,
                       "--name 全国象棋赛 --dates 2026年5月1日至5日 --venue 北京 --arbiter 张三 --rounds 7"
                       " --system dutch --tiebreaks ps --scoring 1-0.5-0");
  cr_assert(strstr(out, "changed: name dates venue arbiter rounds system tiebreaks scoring\n"), "%s", out);
  cr_assert(strstr(out, "name: 全国象棋赛\ndates: 2026年5月1日至5日\nvenue: 北京\norganiser: \narbiter: 张三\n"), "%s",
            out);
  cr_assert(strstr(out, "rounds: 7\nsystem: dutch\ntiebreaks: PTS,PS,"), "%s", out);
  free(out);
  xq_test_run_db_says(0, "changed: nothing", "tourney settings --db %s %s", db, "--venue 北京");
  /* bad values are refused at the edge, with the field named */
  xq_test_run_db_says(2, "venue", "tourney settings --db %s %s", db, "--venue a\x7f" "b");
  xq_test_run_db_says(2, "tie-break", "tourney settings --db %s %s", db, "--tiebreaks PTS,XYZ");
  free(xq_test_run_db(2, "tourney settings --db %s %s", db, "--rounds 50"));
  free(xq_test_run_db(2, "tourney settings --db %s %s", db, "--system swiss"));
  /* a round robin and back: a Swiss event needs its rounds again */
  xq_test_run_db_says(0, "format: rr2", "tourney settings --db %s %s", db, "--format rr2");
  xq_test_run_db_says(1, "a round robin's rounds follow", "tourney settings --db %s %s", db, "--rounds 4");
  xq_test_run_db_says(1, "needs its rounds", "tourney settings --db %s %s", db, "--format swiss");
  xq_test_run_db_says(0, "format: swiss\nrounds: 4\n", "tourney settings --db %s %s", db, "--format swiss --rounds 4");
  /* once round 1 is paired: the format and the scoring are fixed, the
   * rounds not fewer than those paired; the rest still changes */
  const char *players[] = {"甲", "乙", "丙", "丁"};
  for (int i = 0; i < 4; i++) free(xq_test_run_db(0, "tourney add --db %s --name %s", db, players[i]));
  xq_test_run_db_says(0, "round 1: 2 boards", "tourney pair --db %s%s", db, NULL);
  xq_test_run_db_says(1, "the format can no longer change", "tourney settings --db %s %s", db, "--format rr");
  xq_test_run_db_says(1, "the scoring can no longer change", "tourney settings --db %s %s", db, "--scoring 210");
  out = xq_test_run_db(0, "tourney settings --db %s %s", db, "--rounds 1 --organiser 某协会");
  cr_assert(strstr(out, "changed: organiser rounds\n") && strstr(out, "locked: format: round 1 is paired"), "%s", out);
  free(out);
  /* the log keeps every change; a new process reads them back */
  out = xq_test_run_db(0, "tourney log --db %s%s", db, NULL);
  cr_assert(strstr(out, "    settings 1 ") && strstr(out, " venue=北京\n") && strstr(out, " organiser=某协会\n"), "%s",
            out);
  free(out);
  xq_test_run_db_says(0, "venue: 北京\norganiser: 某协会\n", "tourney settings --db %s%s", db, NULL);
  xq_test_db_remove(db);
}

/* The broadcast's delay (docs/http.md "Delay"): seconds, 0 none, or the
 * server's (--delay server); changed any time, a round paired or not. */
/* xqref tourney merge (issue 35): required options, the entries by
 * number, the fields taken, the players listed without the duplicate,
 * the log's line, and after round 1 the refusal with its reason. */
Test(cli, merge_two_entries)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "cli_merge");
  free(xq_test_run_db(0, "tourney new --db %s --rounds 3%s", db, NULL));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 张三 --rating 1800"));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 李四"));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 张三 --club 北京 --birth 1990-01-02 --force"));
  free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name 王五"));
  xq_test_run_db_says(0, "--keep NO", "tourney merge --help%s%s", "", NULL);
  xq_test_run_db_says(2, "--drop", "tourney merge --db %s %s", db, "--keep 1");
  xq_test_run_db_says(1, "no player has the number 9", "tourney merge --db %s %s", db, "--keep 1 --drop 9");
  xq_test_run_db_says(1, "into himself", "tourney merge --db %s %s", db, "--keep 1 --drop 1");
  xq_test_run_db_says(0, "merged 张三 (number 3) into 张三 (number 1); taken from it: birth club",
                      "tourney merge --db %s %s", db, "--keep 1 --drop 3");
  char *out = xq_test_run_db(0, "tourney players --db %s%s", db, NULL);
  cr_assert(strstr(out, "1990/01/02") && strstr(out, "   3   3  王五") && !strstr(out, "   4   "), "%s", out);
  free(out);
  xq_test_run_db_says(0, "withdrawal player=3 merged into=1", "tourney log --db %s%s", db, NULL);
  free(xq_test_run_db(0, "tourney pair --db %s%s", db, NULL));
  xq_test_run_db_says(1, "player 2 is paired in round 1", "tourney merge --db %s %s", db, "--keep 1 --drop 2");
  xq_test_db_remove(db);
  /* a team event: once a team is entered its roster names the ids */
  xq_test_db_fresh(db, sizeof db, "cli_merge_team");
  free(xq_test_run_db(0, "tourney new --db %s %s", db, "--format team-rr --boards 2"));
  for (int i = 1; i <= 3; i++) free(xq_test_run_db(0, "tourney add --db %s %s", db, "--name A --team A --force"));
  free(xq_test_run_db(0, "tourney team --db %s %s", db, "--name A"));
  xq_test_run_db_says(1, "the teams are entered", "tourney merge --db %s %s", db, "--keep 1 --drop 3");
  /* ... nor deleted: the ids after it would move under the roster */
  xq_test_run_db_says(1, "the teams are entered", "tourney remove --db %s %s", db, "--player 2");
  xq_test_db_remove(db);
}

Test(cli, settings_delay)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "cli_delay");
  free(xq_test_run_db(0, "tourney new --db %s --rounds 5%s", db, NULL));
  xq_test_run_db_says(0, "\ndelay: server\n", "tourney settings --db %s%s", db, NULL);
  xq_test_run_db_says(0, "changed: delay\n", "tourney settings --db %s %s", db, "--delay 900");
  xq_test_run_db_says(0, "\ndelay: 900\n", "tourney settings --db %s%s", db, NULL);
  xq_test_run_db_says(0, "\ndelay: 0\n", "tourney settings --db %s %s", db, "--delay 0");
  xq_test_run_db_says(0, "changed: nothing", "tourney settings --db %s %s", db, "--delay 0");
  xq_test_run_db_says(0, "\ndelay: server\n", "tourney settings --db %s %s", db, "--delay server");
  xq_test_run_db_says(2, "--delay is 0..3600", "tourney settings --db %s %s", db, "--delay 3601");
  xq_test_run_db_says(2, "--delay is 0..3600", "tourney settings --db %s %s", db, "--delay soon");
  xq_test_db_remove(db);
}

/* A preset's title stays the event's name: its groups and prizes are
 * found by it. */
Test(cli, settings_keep_a_presets_title)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "cli_settings_preset");
  free(xq_test_run_db(0, "tourney new --db %s --preset xinjiang2018 --rounds 7%s", db, NULL));
  xq_test_run_db_says(1, "regulation's title", "tourney settings --db %s %s", db, "--name 别的");
  xq_test_run_db_says(0, "locked: name:", "tourney settings --db %s %s", db, "--venue 乌鲁木齐");
  xq_test_db_remove(db);
}
