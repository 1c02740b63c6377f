/*
 * test_net_players.c -- the organisers' operations on the players over
 * the JSON-lines protocol: edit_player (the change in players and in the
 * store, bad fields refused at the edge, the team after round 1 a
 * conflict), withdraw and reinstate by player number, numbers before
 * round 1 (by rating, by lot with its seed given back, by hand; a
 * preview stores nothing; not 1..n refused; after round 1 a conflict)
 * and that only an admin may edit or number, an arbiter withdraw; and
 * that a store made with `xqref tourney new --preset` keeps the preset's
 * withdrawal rule when the server pairs it; and settings, the event's
 * (read, changed, refused when bad, locked once round 1 is paired).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net_fixture.h"
#include "store/store.h"
#include "store_fixture.h"
#include "support.h"
#include "tourney.h"

/* A server on a new store holding an event of `n` players (ratings
 * 2000 + 10 * id), none paired yet. */
static void up_unpaired(int n)
{
  memset(&ts, 0, sizeof ts);
  snprintf(ts.dir, sizeof ts.dir, "/tmp/xqref-test-XXXXXX");
  cr_assert_not_null(mkdtemp(ts.dir));
  snprintf(ts.db, sizeof ts.db, "%s/t.db", ts.dir);
  xq_tstore *st;
  xq_error err = {0};
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cfg.rounds = 3;
  cr_assert_eq(xq_tstore_open(ts.db, XQ_TSTORE_CREATE, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_create_event(st, "Players Cup", &cfg, &err), XQ_OK, "%s", err.msg);
  for (int i = 1; i <= n; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "Player %d", i);
    p.rating = 2000 + 10 * i;
    snprintf(p.team, sizeof p.team, "T%d", i % 3);
    cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK, "%s", err.msg);
  }
  xq_tstore_close(st);
  cr_assert_eq(xq_ts_restart(&ts), 0, "the server starts on the store");
  cr_assert(ts.admin[0], "an admin token is printed");
}

/* Player `id` of a players reply. */
static const cJSON *listed(const cJSON *r, int id) { return cJSON_GetArrayItem(xq_tj_get(r, "players"), id - 1); }

/* The numbers of a numbers reply as no_of[id - 1]. */
static void numbers_of(const cJSON *r, int *no_of, int n)
{
  const cJSON *a = xq_tj_get(r, "numbers"), *x;
  cr_assert_eq(cJSON_GetArraySize(a), n);
  int want = 1;
  cJSON_ArrayForEach(x, a) {
    cr_assert_eq(xq_tj_num(x, "no"), want++, "in number order");
    no_of[(int)xq_tj_num(x, "id") - 1] = (int)xq_tj_num(x, "no");
  }
}

Test(players, edit_player)
{
  up_unpaired(4);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"edit_player\",\"player\":2,\"name\":\"王天一\",\"rating\":2650,"
                             "\"sex\":\"m\",\"birth\":\"1989-05-06\",\"club\":\"杭州\",\"local\":true,\"region\":null}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "player"), 2);
  cr_assert_eq(xq_tj_num(r, "registration"), 2);
  cr_assert_str_eq(xq_tj_str(r, "name"), "王天一");
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "changed")), 6, "region was empty already");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"players\"}");
  const cJSON *p = listed(r, 2);
  cr_assert_str_eq(xq_tj_str(p, "name"), "王天一");
  cr_assert_eq(xq_tj_num(p, "rating"), 2650);
  cr_assert_str_eq(xq_tj_str(p, "birth"), "1989/05/06");
  cr_assert_str_eq(xq_tj_str(p, "club"), "杭州");
  cr_assert(cJSON_IsTrue(xq_tj_get(p, "local")));
  cr_assert_str_eq(xq_tj_str(p, "team"), "T2", "not given: kept");
  cJSON_Delete(r);
  xq_tournament *ev = xq_test_store_event(ts.db, 0, NULL);
  cr_assert_str_eq(ev->players[1].name, "王天一");
  cr_assert_eq(ev->players[1].sex, 'm');
  xq_tournament_free(ev);
  /* refused at the edge, nothing stored */
  static const char *const bad[] = {
    "{\"id\":3,\"op\":\"edit_player\",\"name\":\"X\"}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"nick\":\"X\"}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"name\":\"\"}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"name\":7}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"sex\":\"x\"}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"birth\":\"1990-02-30\"}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"rating\":12000}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"rating\":\"high\"}",
    "{\"id\":3,\"op\":\"edit_player\",\"player\":1,\"local\":1}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) xq_tc_errf(&c, "BAD_REQUEST", "%s", bad[i]);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":4,\"op\":\"edit_player\",\"player\":9,\"name\":\"X\"}");
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"edit_player\",\"player\":2,\"rating\":2650}");
  const cJSON *e = xq_tc_expect_error(r, "CONFLICT");
  cr_assert(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(e, "msg")), "changes nothing"));
  cJSON_Delete(r);
  /* after round 1: the number names the player, the team stays */
  xq_tc_okf(&c, "{\"id\":6,\"op\":\"pair\",\"publish\":true}");
  r = xq_tc_callf(&c, "{\"id\":7,\"op\":\"players\"}");
  int no1 = (int)xq_tj_num(listed(r, 1), "no");
  cr_assert_eq(no1, 4, "the lowest rating is number 4");
  cJSON_Delete(r);
  xq_tc_errf(&c, "CONFLICT", "{\"id\":8,\"op\":\"edit_player\",\"player\":%d,\"team\":\"New\"}", no1);
  r = xq_tc_callf(&c, "{\"id\":9,\"op\":\"edit_player\",\"player\":%d,\"rating\":2900}", no1);
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "registration"), 1);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":10,\"op\":\"players\"}");
  cr_assert_eq(xq_tj_num(listed(r, 1), "rating"), 2900);
  cr_assert_eq(xq_tj_num(listed(r, 1), "no"), 4, "no one is renumbered");
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_fx_down();
}

Test(players, withdraw_and_reinstate_by_number)
{
  up_unpaired(5);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  xq_tc_okf(&c, "{\"id\":1,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":1,\"no\":5},"
                "{\"player\":2,\"no\":4},{\"player\":3,\"no\":3},{\"player\":4,\"no\":2},{\"player\":5,\"no\":1}]}");
  /* number 1 is player 5 */
  cJSON *r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"withdraw\",\"player\":1}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "registration"), 5);
  cr_assert_eq(xq_tj_num(r, "round"), 1);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"pair\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 2, "four players: two boards, no bye");
  for (const cJSON *b = xq_tj_get(r, "boards")->child; b; b = b->next)
    cr_assert(xq_tj_num(xq_tj_get(b, "red"), "id") != 5 && xq_tj_num(xq_tj_get(b, "black"), "id") != 5);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"reinstate\",\"player\":2}");
  xq_tc_expect_error(r, "CONFLICT"); /* not withdrawn */
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"reinstate\",\"player\":1}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "registration"), 5);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":6,\"op\":\"pair\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 3, "five players again: the bye");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":7,\"op\":\"players\"}");
  cr_assert_eq(xq_tj_num(listed(r, 5), "withdrawn"), 0);
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_fx_down();
}

Test(players, numbers_before_round_1)
{
  up_unpaired(6);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  int no[6];
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"numbers\",\"method\":\"rating\"}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "stored")));
  numbers_of(r, no, 6);
  for (int i = 0; i < 6; i++) cr_assert_eq(no[i], 6 - i);
  cJSON_Delete(r);
  /* a lot: previewed with a random seed, then stored with it, the same */
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"numbers\",\"method\":\"lot\",\"preview\":true}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsFalse(xq_tj_get(r, "stored")));
  double seed = xq_tj_num(r, "seed");
  int seen[6];
  numbers_of(r, seen, 6);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"players\"}");
  for (int i = 0; i < 6; i++) cr_assert_eq(xq_tj_num(listed(r, i + 1), "no"), 6 - i, "a preview stores nothing");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"numbers\",\"method\":\"lot\",\"seed\":%.0f}", seed);
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "seed"), seed);
  numbers_of(r, no, 6);
  for (int i = 0; i < 6; i++) cr_assert_eq(no[i], seen[i]);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"players\"}");
  for (int i = 0; i < 6; i++) cr_assert_eq(xq_tj_num(listed(r, i + 1), "no"), no[i]);
  cJSON_Delete(r);
  /* the largest seeds come back exactly, digit for digit */
  static const char *const big[] = {"999999999999999", "987654321987651"};
  for (int i = 0; i < 2; i++) {
    r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"numbers\",\"method\":\"lot\",\"seed\":%s,\"preview\":true}", big[i]);
    xq_tc_expect_ok(r);
    char *text = cJSON_PrintUnformatted(r);
    char want[64];
    snprintf(want, sizeof want, "\"seed\":%s,", big[i]);
    cr_assert(strstr(text, want), "%s", text);
    free(text);
    cJSON_Delete(r);
  }
  /* by hand, refused unless 1..6 each once */
  static const char *const bad[] = {
    "{\"id\":6,\"op\":\"numbers\"}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"dice\"}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"manual\"}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"rating\",\"seed\":4}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"lot\",\"seed\":-1}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"lot\",\"seed\":1.5}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"lot\",\"seed\":1000000000000000}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":{}}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":1}]}",
    ("{\"id\":6,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":1,\"no\":1},{\"player\":2,\"no\":1},"
     "{\"player\":3,\"no\":3},{\"player\":4,\"no\":4},{\"player\":5,\"no\":5},{\"player\":6,\"no\":6}]}"),
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":1,\"no\":1},{\"player\":2,\"no\":2}]}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":7,\"no\":1}]}",
    "{\"id\":6,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":1,\"no\":1},{\"player\":1,\"no\":2}]}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) xq_tc_errf(&c, "BAD_REQUEST", "%s", bad[i]);
  r = xq_tc_call(&c, "{\"id\":7,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":1,\"no\":2},"
                     "{\"player\":2,\"no\":1},{\"player\":3,\"no\":4},{\"player\":4,\"no\":3},{\"player\":5,\"no\":6},"
                     "{\"player\":6,\"no\":5}]}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "method"), "manual");
  cJSON_Delete(r);
  /* the pairing preview follows the last numbers: 2 (no. 1) - 1 (no. 2) */
  r = xq_tc_callf(&c, "{\"id\":8,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  const cJSON *b1 = cJSON_GetArrayItem(xq_tj_get(r, "boards"), 0);
  cr_assert_eq(xq_tj_num(xq_tj_get(b1, "red"), "id"), 2);
  cr_assert_eq(xq_tj_num(xq_tj_get(b1, "red"), "no"), 1);
  cr_assert_eq(xq_tj_num(xq_tj_get(b1, "black"), "id"), 1);
  cJSON_Delete(r);
  xq_tc_errf(&c, "CONFLICT", "{\"id\":9,\"op\":\"numbers\",\"method\":\"rating\"}");
  xq_tournament *ev = xq_test_store_event(ts.db, 0, NULL);
  cr_assert_eq(ev->players[0].pno, 2);
  cr_assert_eq(ev->players[5].pno, 5);
  xq_tournament_free(ev);
  xq_tc_close(&c);
  xq_fx_down();
}

Test(players, only_an_admin_edits_and_numbers)
{
  up_unpaired(4);
  xq_tclient admin, anon, arb;
  xq_fx_connect(&admin, ts.admin);
  cJSON *r = xq_tc_callf(&admin, "{\"id\":1,\"op\":\"token\",\"role\":\"arbiter\"}");
  xq_tc_expect_ok(r);
  char tok[64];
  snprintf(tok, sizeof tok, "%s", xq_tj_str(r, "token"));
  cJSON_Delete(r);
  xq_fx_connect(&anon, NULL);
  xq_fx_connect(&arb, tok);
  static const char *const admin_only[] = {
    "{\"id\":2,\"op\":\"edit_player\",\"player\":1,\"name\":\"X\"}",
    "{\"id\":3,\"op\":\"numbers\",\"method\":\"rating\"}",
    "{\"id\":3,\"op\":\"remove_player\",\"player\":1}",
    "{\"id\":4,\"op\":\"merge_players\",\"keep\":1,\"drop\":2}",
  };
  for (size_t i = 0; i < sizeof admin_only / sizeof admin_only[0]; i++) {
    xq_tc_errf(&anon, "AUTH_REQUIRED", "%s", admin_only[i]);
    xq_tc_errf(&arb, "FORBIDDEN", "%s", admin_only[i]);
  }
  /* an arbiter withdraws and takes back */
  xq_tc_okf(&arb, "{\"id\":4,\"op\":\"withdraw\",\"player\":3}");
  xq_tc_okf(&arb, "{\"id\":5,\"op\":\"reinstate\",\"player\":3}");
  xq_tc_errf(&anon, "AUTH_REQUIRED", "{\"id\":6,\"op\":\"withdraw\",\"player\":3}");
  xq_tournament *ev = xq_test_store_event(ts.db, 0, NULL);
  cr_assert_str_eq(ev->players[0].name, "Player 1", "nothing edited");
  cr_assert_eq(ev->players[0].pno, 0, "nothing numbered");
  cr_assert_eq(ev->players[2].withdrawn, 0);
  xq_tournament_free(ev);
  xq_tc_close(&admin);
  xq_tc_close(&anon);
  xq_tc_close(&arb);
  xq_fx_down();
}

/* The next event a watcher hears, of any type but the snapshot: its type
 * into `type` (cap bytes), or "" when none comes within two seconds. */
static void next_event(xq_tclient *w, char *type, size_t cap)
{
  type[0] = 0;
  for (int i = 0; i < 20; i++) {
    cJSON *e = xq_tc_json(w, 2000);
    if (!e) return;
    const char *k = xq_tj_str(e, "event");
    if (k && strcmp(k, "snapshot")) {
      snprintf(type, cap, "%s", k);
      cJSON_Delete(e);
      return;
    }
    cJSON_Delete(e);
  }
}

Test(players, the_pages_hear_that_the_players_changed)
{
  up_unpaired(4);
  xq_tclient c, w;
  xq_fx_connect(&c, ts.admin);
  xq_fx_connect(&w, NULL);
  cJSON *r = xq_tc_callf(&w, "{\"id\":1,\"op\":\"watch\"}");
  xq_tc_expect_ok(r);
  cJSON_Delete(r);
  char type[32];
  const char *ops[] = {
    "{\"id\":2,\"op\":\"edit_player\",\"player\":1,\"name\":\"许银川\"}",
    "{\"id\":3,\"op\":\"add_player\",\"player\":{\"name\":\"吕钦\",\"rating\":2600}}",
    "{\"id\":4,\"op\":\"withdraw\",\"player\":2}",
    "{\"id\":5,\"op\":\"reinstate\",\"player\":2}",
    "{\"id\":6,\"op\":\"absent\",\"player\":3,\"round\":1}",
    "{\"id\":7,\"op\":\"numbers\",\"method\":\"rating\"}",
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    r = xq_tc_callf(&c, "%s", ops[i]);
    xq_tc_expect_ok(r);
    cJSON_Delete(r);
    next_event(&w, type, sizeof type);
    cr_assert_str_eq(type, "players", "after %s", ops[i]);
  }
  /* a preview changes nothing: the next event is the edit after it */
  r = xq_tc_callf(&c, "{\"id\":8,\"op\":\"numbers\",\"method\":\"lot\",\"seed\":7,\"preview\":true}");
  xq_tc_expect_ok(r);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":9,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cJSON_Delete(r);
  next_event(&w, type, sizeof type);
  cr_assert_str_eq(type, "pairing", "the preview of numbers is not told");
  xq_tc_close(&w);
  xq_tc_close(&c);
  xq_fx_down();
}

/* Pair round `round` by the server (publish) and play it: the player
 * numbered `forfeits` loses by forfeit, every other Red wins. Returns
 * whether the player numbered `watch` was paired. */
static int server_round(xq_tclient *adm, int round, int forfeits, int watch)
{
  cJSON *r = xq_tc_callf(adm, "{\"id\":%d,\"op\":\"pair\",\"publish\":true}", 100 + round);
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "round"), round);
  const cJSON *b;
  int seated = 0;
  cJSON_ArrayForEach(b, xq_tj_get(r, "boards")) {
    const cJSON *red = xq_tj_get(b, "red"), *black = xq_tj_get(b, "black");
    if (cJSON_IsNull(black)) {
      seated |= (int)xq_tj_num(red, "no") == watch;
      continue;
    }
    int rn = (int)xq_tj_num(red, "no"), bn = (int)xq_tj_num(black, "no");
    seated |= rn == watch || bn == watch;
    const char *res = rn == forfeits ? "-+" : bn == forfeits ? "+-" : "1-0";
    xq_tc_okf(adm, "{\"id\":%d,\"op\":\"result\",\"round\":%d,\"table\":%d,\"result\":\"%s\"}", 200 + round, round,
              (int)xq_tj_num(b, "table"), res);
  }
  cJSON_Delete(r);
  return seated;
}

/* An event made as an organiser makes it, `xqref tourney new --preset
 * shaanxi2019` (补充规定 四.1: 连续弃权两轮者不再编排), keeps its rule when
 * the server pairs it: a player who forfeits rounds 1 and 3 and wins
 * round 2 is paired in round 4. */
Test(players, a_preset_s_withdrawal_rule_holds_when_the_server_pairs)
{
  memset(&ts, 0, sizeof ts);
  snprintf(ts.dir, sizeof ts.dir, "/tmp/xqref-test-XXXXXX");
  cr_assert_not_null(mkdtemp(ts.dir));
  snprintf(ts.db, sizeof ts.db, "%s/t.db", ts.dir);
  free(xq_test_run_db(0, "tourney new --db %s %s", ts.db, "--preset shaanxi2019"));
  for (int i = 1; i <= 8; i++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--name P%d --rating %d", i, 1500 + 50 * i);
    free(xq_test_run_db(0, "tourney add --db %s %s", ts.db, extra));
  }
  cr_assert_eq(xq_ts_restart(&ts), 0, "the server starts on the store");
  xq_tclient adm;
  xq_fx_connect(&adm, ts.admin);
  cr_assert(server_round(&adm, 1, 3, 3));
  cr_assert(server_round(&adm, 2, 0, 3));
  cr_assert(server_round(&adm, 3, 3, 3));
  cr_assert(server_round(&adm, 4, 0, 3), "two forfeits, not in a row: still paired");
  xq_tc_close(&adm);
  xq_fx_down();
}

/* add_player refuses a player with the name, birth date (in either
 * written form) and club of one registered already, unless force: true
 * (a namesake); sex takes 男 and 女. A withdrawal twice, or from a round
 * beyond the event's, is refused as on the command line. */
Test(players, add_player_refuses_a_duplicate_and_withdraw_a_second_time)
{
  up_unpaired(4);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  xq_tc_okf(&c, "{\"id\":1,\"op\":\"add_player\",\"player\":{\"name\":\"罗国华\",\"birth\":\"1989-03-15\","
                "\"club\":\"北屯\",\"sex\":\"男\"}}");
  cJSON *r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"add_player\",\"player\":{\"name\":\"罗国华\",\"birth\":\"1989/03/15\","
                             "\"club\":\"北屯\",\"rating\":2100}}");
  cr_assert_str_eq(xq_tc_error(r), "CONFLICT");
  const char *msg = xq_tj_str(xq_tj_get(r, "error"), "msg");
  cr_assert(msg && strstr(msg, "is registered already as player 5"), "%s", msg ? msg : "no message");
  cJSON_Delete(r);
  xq_tc_okf(&c, "{\"id\":3,\"op\":\"add_player\",\"force\":true,\"player\":{\"name\":\"罗国华\","
                "\"birth\":\"1989/03/15\",\"club\":\"北屯\",\"sex\":\"女\"}}");
  r = xq_tc_callf(&c, "{\"id\":7,\"op\":\"players\"}");
  const cJSON *ps = xq_tj_get(r, "players");
  cr_assert_eq(cJSON_GetArraySize(ps), 6);
  cr_assert_str_eq(xq_tj_str(cJSON_GetArrayItem(ps, 4), "sex"), "m");
  cr_assert_str_eq(xq_tj_str(cJSON_GetArrayItem(ps, 5), "sex"), "w");
  cJSON_Delete(r);
  xq_tc_okf(&c, "{\"id\":4,\"op\":\"withdraw\",\"player\":1,\"round\":2}");
  xq_tc_errf(&c, "CONFLICT", "{\"id\":5,\"op\":\"withdraw\",\"player\":1,\"round\":3}");
  xq_tc_errf(&c, "CONFLICT", "{\"id\":6,\"op\":\"withdraw\",\"player\":2,\"round\":4}");
  xq_tc_close(&c);
  xq_fx_down();
}

/* Issue 33 (Xinjiang 七, 十(一), 九(三)): on an event made with `xqref
 * tourney new --preset xinjiang2018` the server's add_player refuses a
 * junior (his group plays an event of its own), so the server pairs no
 * junior against an open or senior player; a player without a birth
 * date is taken with a warning in the reply. */
Test(players, the_server_keeps_xinjiangs_juniors_out_of_the_open_event)
{
  memset(&ts, 0, sizeof ts);
  snprintf(ts.dir, sizeof ts.dir, "/tmp/xqref-test-XXXXXX");
  cr_assert_not_null(mkdtemp(ts.dir));
  snprintf(ts.db, sizeof ts.db, "%s/t.db", ts.dir);
  free(xq_test_run_db(0, "tourney new --db %s %s", ts.db, "--preset xinjiang2018 --rounds 3"));
  cr_assert_eq(xq_ts_restart(&ts), 0, "the server starts on the store");
  xq_tclient adm;
  xq_fx_connect(&adm, ts.admin);
  for (int i = 1; i <= 4; i++)
    xq_tc_okf(&adm, "{\"id\":%d,\"op\":\"add_player\",\"player\":{\"name\":\"A%d\",\"rating\":%d,\"birth\":\"19%d0/01/01\"}}",
              i, i, 1500 + 10 * i, 4 + i);
  cJSON *r = xq_tc_callf(&adm, "{\"id\":10,\"op\":\"add_player\",\"player\":{\"name\":\"J\",\"rating\":2500,"
                               "\"birth\":\"2008/06/01\"}}");
  const cJSON *e = xq_tc_expect_error(r, "CONFLICT");
  cr_assert(strstr(xq_tj_str(e, "msg"), "10岁组"), "%s", xq_tj_str(e, "msg"));
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":11,\"op\":\"add_player\",\"player\":{\"name\":\"N\",\"rating\":1400}}");
  xq_tc_expect_ok(r);
  cr_assert(xq_tj_str(r, "warning") && strstr(xq_tj_str(r, "warning"), "no birth date"), "a warning for N");
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":12,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  const cJSON *b;
  cJSON_ArrayForEach(b, xq_tj_get(r, "boards")) {
    const cJSON *black = xq_tj_get(b, "black");
    cr_assert_str_neq(xq_tj_str(xq_tj_get(b, "red"), "name"), "J");
    if (!cJSON_IsNull(black)) cr_assert_str_neq(xq_tj_str(black, "name"), "J");
  }
  cJSON_Delete(r);
  xq_tc_close(&adm);
  xq_fx_down();
}

/* Issue 33 (Shaanxi 十三(一)1 公开赛限报100人): the server's add_player
 * registers the 101st player of a Shaanxi event with a warning that the
 * entry limit is passed, as `tourney add` does. */
Test(players, the_server_warns_past_the_entry_limit)
{
  memset(&ts, 0, sizeof ts);
  snprintf(ts.dir, sizeof ts.dir, "/tmp/xqref-test-XXXXXX");
  cr_assert_not_null(mkdtemp(ts.dir));
  snprintf(ts.db, sizeof ts.db, "%s/t.db", ts.dir);
  char csv[600], arg[620];
  snprintf(csv, sizeof csv, "%s/p.csv", ts.dir);
  FILE *f = fopen(csv, "w");
  cr_assert_not_null(f);
  fputs("name,rating\n", f);
  for (int i = 1; i <= 100; i++) fprintf(f, "P%d,%d\n", i, 2000 - i);
  cr_assert_eq(fclose(f), 0);
  free(xq_test_run_db(0, "tourney new --db %s %s", ts.db, "--preset shaanxi2019"));
  snprintf(arg, sizeof arg, " %s", csv);
  free(xq_test_run_db(0, "tourney import-players --db %s%s", ts.db, arg));
  unlink(csv);
  cr_assert_eq(xq_ts_restart(&ts), 0, "the server starts on the store");
  xq_tclient adm;
  xq_fx_connect(&adm, ts.admin);
  cJSON *r = xq_tc_callf(&adm, "{\"id\":1,\"op\":\"add_player\",\"player\":{\"name\":\"Late\",\"rating\":1400}}");
  xq_tc_expect_ok(r);
  const char *w = xq_tj_str(r, "warning");
  cr_assert(w && strstr(w, "101 players registered, more than shaanxi2019's entry limit of 100"), "%s", w ? w : "none");
  cJSON_Delete(r);
  xq_tc_close(&adm);
  xq_fx_down();
}

/* The names of a players reply, "name#no" each, in id order. */
static void names_of(const cJSON *r, char *out, size_t cap)
{
  const cJSON *x;
  size_t at = 0;
  out[0] = 0;
  cJSON_ArrayForEach(x, xq_tj_get(r, "players"))
    if (at < cap) at += (size_t)snprintf(out + at, cap - at, "%s#%d ", xq_tj_str(x, "name"), (int)xq_tj_num(x, "no"));
}

/* Issue 35 (Deliver 5), issue 33: remove_player deletes a player, named
 * by his number, before round 1 is paired: the ids after his and the
 * numbers above his close up, and a restarted server replays the same
 * event (an arbiter may not: only_an_admin_edits_and_numbers); once round 1 is paired it is CONFLICT with
 * the reason (withdraw then). */
Test(players, remove_player_before_round_1_only)
{
  up_unpaired(5);
  xq_tclient c;
  char got[256], again[256];
  xq_fx_connect(&c, ts.admin);
  xq_tc_okf(&c, "{\"id\":1,\"op\":\"numbers\",\"method\":\"manual\",\"numbers\":[{\"player\":1,\"no\":5},"
                "{\"player\":2,\"no\":4},{\"player\":3,\"no\":3},{\"player\":4,\"no\":2},{\"player\":5,\"no\":1}]}");
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":2,\"op\":\"remove_player\",\"player\":9}");
  cJSON *r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"remove_player\",\"player\":2}"); /* number 2: Player 4 */
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "name"), "Player 4");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"players\"}");
  names_of(r, got, sizeof got);
  cr_assert_str_eq(got, "Player 1#4 Player 2#3 Player 3#2 Player 5#1 ", "%s", got);
  cJSON_Delete(r);
  xq_tc_close(&c);
  cr_assert_eq(xq_ts_stop(&ts), 0, "uv_loop_close: no handle left open");
  cr_assert_eq(xq_ts_restart(&ts), 0, "restarts on the same store");
  xq_fx_connect(&c, ts.admin);
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"players\"}");
  names_of(r, again, sizeof again);
  cr_assert_str_eq(again, got, "the replay gives the same event");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":6,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 2, "four players: two boards");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":7,\"op\":\"remove_player\",\"player\":1}");
  cr_assert_str_eq(xq_tc_error(r), "CONFLICT");
  const char *msg = xq_tj_str(xq_tj_get(r, "error"), "msg");
  cr_assert(msg && strstr(msg, "round 1 is paired") && strstr(msg, "withdraw him instead"), "%s", msg ? msg : "-");
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_fx_down();
}

/* settings: read, changed (texts, rounds, the pairing system), refused
 * at the edge when bad, locked with the reason once round 1 is paired;
 * the server's event and the store both have them. */
Test(players, settings_read_changed_and_locked)
{
  up_unpaired(4);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"settings\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "name"), "Players Cup");
  cr_assert_str_eq(xq_tj_str(r, "format"), "swiss");
  cr_assert_str_eq(xq_tj_str(r, "system"), "cn");
  cr_assert_eq(xq_tj_num(r, "rounds"), 3);
  cr_assert_null(xq_tj_get(r, "locked")->child, "nothing is locked before round 1");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"settings\",\"set\":{\"name\":\"全国象棋赛\",\"dates\":\"2026年5月1日至5日\","
                      "\"venue\":\"北京\",\"rounds\":5,\"system\":\"dutch\",\"arbiter\":null}}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "changed")), 5, "the arbiter was empty already");
  cr_assert_str_eq(xq_tj_str(r, "venue"), "北京");
  cr_assert_eq(xq_tj_num(r, "rounds"), 5);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"event\"}");
  cr_assert_str_eq(xq_tj_str(r, "name"), "全国象棋赛");
  cr_assert_str_eq(xq_tj_str(r, "dates"), "2026年5月1日至5日");
  cr_assert_eq(xq_tj_num(r, "rounds"), 5);
  cJSON_Delete(r);
  static const char *const bad[] = {
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"city\":\"X\"}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"name\":\"\"}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"name\":null}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"venue\":\"a\\u0007b\"}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"rounds\":0}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"rounds\":\"7\"}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"format\":\"knockout\"}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"tiebreaks\":\"PTS,XYZ\"}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":{\"scoring\":\"3-1-0\"}}",
    "{\"id\":4,\"op\":\"settings\",\"set\":[1]}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) xq_tc_errf(&c, "BAD_REQUEST", "%s", bad[i]);
  /* the event's system pairs by default */
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "system"), "dutch");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":6,\"op\":\"settings\",\"set\":{\"scoring\":\"1-0.5-0\"}}");
  const cJSON *e = xq_tc_expect_error(r, "CONFLICT");
  cr_assert(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(e, "msg")), "round 1 is paired"));
  cJSON_Delete(r);
  xq_tc_errf(&c, "CONFLICT", "{\"id\":7,\"op\":\"settings\",\"set\":{\"format\":\"rr\"}}");
  r = xq_tc_callf(&c, "{\"id\":8,\"op\":\"settings\",\"set\":{\"rounds\":1,\"organiser\":\"某协会\"}}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_GetStringValue(xq_tj_get(xq_tj_get(r, "locked"), "format")), "the format is shown locked");
  cr_assert(cJSON_GetStringValue(xq_tj_get(xq_tj_get(r, "locked"), "scoring")));
  cr_assert_eq(xq_tj_num(r, "rounds_min"), 1);
  cJSON_Delete(r);
  xq_tc_close(&c);
  /* only an admin */
  xq_fx_connect(&c, NULL);
  xq_tc_errf(&c, "AUTH_REQUIRED", "{\"id\":9,\"op\":\"settings\"}");
  xq_tc_close(&c);
  xq_tournament *ev = xq_test_store_event(ts.db, 0, NULL);
  cr_assert_str_eq(ev->name, "全国象棋赛");
  cr_assert_str_eq(ev->info.venue, "北京");
  cr_assert_str_eq(ev->info.organiser, "某协会");
  cr_assert_eq(ev->cfg.rounds, 1);
  xq_tournament_free(ev);
  xq_fx_down();
}

/* Issue 35 (Deliver 5): merge_players makes two entries of one player
 * one: the entry kept takes the club it lacked, the other leaves as a
 * deletion does (the ids after it close up), a restarted server replays
 * the same event; refused at the edge for one number twice, NOT_FOUND
 * for no such number, CONFLICT with the reason once the entry dropped
 * has played. */
Test(players, merge_players_op)
{
  up_unpaired(5);
  xq_tclient c;
  char got[256], again[256];
  xq_fx_connect(&c, ts.admin);
  xq_tc_okf(&c, "{\"id\":1,\"op\":\"edit_player\",\"player\":4,\"club\":\"Club X\"}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":2,\"op\":\"merge_players\",\"keep\":2,\"drop\":2}");
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":3,\"op\":\"merge_players\",\"keep\":2,\"drop\":9}");
  cJSON *r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"merge_players\",\"keep\":2,\"drop\":4}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(xq_tj_get(r, "drop"), "name"), "Player 4");
  cr_assert_str_eq(xq_tj_str(xq_tj_get(r, "keep"), "name"), "Player 2");
  const cJSON *filled = xq_tj_get(r, "filled");
  cr_assert(cJSON_GetArraySize(filled) == 1 && !strcmp(cJSON_GetArrayItem(filled, 0)->valuestring, "club"));
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"players\"}");
  names_of(r, got, sizeof got);
  cr_assert_str_eq(got, "Player 1#0 Player 2#0 Player 3#0 Player 5#0 ", "%s", got);
  cJSON_Delete(r);
  xq_tc_close(&c);
  cr_assert_eq(xq_ts_stop(&ts), 0, "uv_loop_close: no handle left open");
  cr_assert_eq(xq_ts_restart(&ts), 0, "restarts on the same store");
  xq_fx_connect(&c, ts.admin);
  r = xq_tc_callf(&c, "{\"id\":6,\"op\":\"players\"}");
  names_of(r, again, sizeof again);
  cr_assert_str_eq(again, got, "the replay gives the same event");
  cJSON_Delete(r);
  xq_tc_okf(&c, "{\"id\":7,\"op\":\"pair\",\"publish\":true}");
  r = xq_tc_callf(&c, "{\"id\":8,\"op\":\"merge_players\",\"keep\":2,\"drop\":1}");
  cr_assert_str_eq(xq_tc_error(r), "CONFLICT");
  const char *msg = xq_tj_str(xq_tj_get(r, "error"), "msg");
  cr_assert(msg && strstr(msg, "is paired in round 1"), "%s", msg ? msg : "-");
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_fx_down();
}
