/*
 * test_net_ko.c -- the knockout stage on the live server (docs/protocol.md
 * "Knockout"): ko_start seeds the bracket from the Swiss standings,
 * ko_publish puts each waiting match's next game on a knockout table
 * (round XQ_KO_ROUND), boards play those tables with board tokens like
 * Swiss games, their results decide the matches, a drawn game brings the
 * regulation's tie-break game, and all of it survives a restart. Every
 * test ends with the server stopped and uv_loop_close() == 0.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knockout.h"
#include "net_fixture.h"

/* The id of the player object member `k` of `o`. */
static int pid(const cJSON *o, const char *k) { return (int)xq_tj_num(xq_tj_get(o, k), "id"); }

/* The knockout state (op knockout) as seen by client `c`. */
static cJSON *state(xq_tclient *c)
{
  cJSON *r = xq_tc_callf(c, "{\"id\":50,\"op\":\"knockout\"}");
  xq_tc_expect_ok(r);
  return r;
}

/* Match m (1-based) of a knockout state. */
static const cJSON *match(const cJSON *st, int m)
{
  const cJSON *x = cJSON_GetArrayItem(xq_tj_get(st, "matches"), m - 1);
  cr_assert(x, "match %d", m);
  cr_assert_eq((int)xq_tj_num(x, "match"), m);
  return x;
}

/* A board token for knockout table k, and a session with it. */
static void board_session(xq_tclient *adm, xq_tclient *b, int k)
{
  cJSON *r = xq_tc_callf(adm, "{\"id\":60,\"op\":\"token\",\"role\":\"board\",\"round\":%d,\"table\":%d}",
                         XQ_KO_ROUND, k);
  xq_tc_expect_ok(r);
  char tok[64];
  snprintf(tok, sizeof tok, "%s", xq_tj_str(r, "token"));
  cJSON_Delete(r);
  xq_fx_connect(b, tok);
}

Test(knockout, stage_played_on_knockout_tables)
{
  xq_fx_up(8);
  xq_tclient adm, arb, b1, b3, w;
  xq_fx_connect(&adm, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);
  xq_fx_connect(&w, NULL);

  /* before the stage: nothing to show or publish, and round 1 unfinished */
  cJSON *r = state(&w);
  cr_assert(cJSON_IsFalse(xq_tj_get(r, "started")));
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":1,\"op\":\"ko_publish\"}");
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":2,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"xinjiang\"}");
  for (int t = 1; t <= 4; t++) {
    xq_tc_okf(&arb, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"1-0\"}", 10 + t, t);
  }
  /* only the admin starts it; a bad format is refused */
  xq_tc_errf(&arb, "FORBIDDEN", "{\"id\":3,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"xinjiang\"}");
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":4,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"chess\"}");

  /* the top 4 after round 1 */
  r = xq_tc_callf(&adm, "{\"id\":5,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"xinjiang\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(r, "round"), XQ_KO_ROUND);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "matches")), 3, "two semi-finals and the final");
  int seed[4];
  for (int i = 0; i < 4; i++) seed[i] = (int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(r, "seeds"), i), "id");
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":6,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"xinjiang\"}");

  /* the final waits for the semi-finals' winners: the page names them */
  r = state(&adm);
  const cJSON *from = xq_tj_get(match(r, 3), "from");
  cr_assert_not_null(from);
  cr_assert_eq((int)cJSON_GetArrayItem(xq_tj_get(from, "matches"), 0)->valuedouble, 1);
  cr_assert_eq((int)cJSON_GetArrayItem(xq_tj_get(from, "matches"), 1)->valuedouble, 2);
  cr_assert(cJSON_IsFalse(xq_tj_get(from, "losers")));
  cr_assert_null(xq_tj_get(match(r, 1), "from"), "a first-stage match is seeded");
  cJSON_Delete(r);
  /* the semi-finals on knockout tables 1 and 2: 1–4 and 2–3, the higher
   * seed Red in the standard game */
  r = xq_tc_callf(&adm, "{\"id\":7,\"op\":\"ko_publish\"}");
  xq_tc_expect_ok(r);
  const cJSON *tabs = xq_tj_get(r, "tables");
  cr_assert_eq(cJSON_GetArraySize(tabs), 2);
  const cJSON *t1 = cJSON_GetArrayItem(tabs, 0), *t2 = cJSON_GetArrayItem(tabs, 1);
  cr_assert_eq((int)xq_tj_num(t1, "table"), 1);
  cr_assert_str_eq(xq_tj_str(t1, "type"), "standard");
  cr_assert(pid(t1, "red") == seed[0] && pid(t1, "black") == seed[3]);
  cr_assert(pid(t2, "red") == seed[1] && pid(t2, "black") == seed[2]);
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":8,\"op\":\"ko_publish\"}"); /* both matches have a game in play */

  /* the seeds are out of the Swiss: round 2 pairs the other four */
  r = xq_tc_callf(&adm, "{\"id\":9,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 2);
  for (const cJSON *b = xq_tj_get(r, "boards")->child; b; b = b->next)
    for (int i = 0; i < 4; i++) cr_assert(pid(b, "red") != seed[i] && pid(b, "black") != seed[i]);
  cJSON_Delete(r);

  /* table 1 played by its board: Black resigns */
  board_session(&adm, &b1, 1);
  xq_tc_okf(&b1, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  xq_tc_okf(&b1, "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  r = xq_tc_callf(&b1, "{\"id\":3,\"op\":\"resign\",\"seq\":3,\"side\":\"black\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "result"), "1-0");
  cJSON_Delete(r);

  /* table 2 drawn by the arbiter; no double forfeit, no clearing, once */
  xq_tc_errf(&arb, "BAD_REQUEST", "{\"id\":20,\"op\":\"result\",\"round\":%d,\"table\":2,\"result\":\"--\"}", XQ_KO_ROUND);
  xq_tc_errf(&arb, "BAD_REQUEST", "{\"id\":21,\"op\":\"result\",\"round\":%d,\"table\":2,\"result\":\"none\"}", XQ_KO_ROUND);
  xq_tc_okf(&arb, "{\"id\":22,\"op\":\"result\",\"round\":%d,\"table\":2,\"result\":\"=\"}", XQ_KO_ROUND);
  xq_tc_errf(&arb, "CONFLICT", "{\"id\":23,\"op\":\"result\",\"round\":%d,\"table\":2,\"result\":\"1-0\"}", XQ_KO_ROUND);

  /* match 1 is decided at its table; match 2 waits for its tie-break */
  r = state(&w);
  const cJSON *m1 = match(r, 1), *m2 = match(r, 2);
  cr_assert_eq(pid(m1, "winner"), seed[0]);
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(m1, "games"), 0), "table"), 1);
  cr_assert(cJSON_IsNull(xq_tj_get(m2, "winner")) && cJSON_IsNull(xq_tj_get(m2, "in_play")));
  cr_assert_str_eq(xq_tj_str(cJSON_GetArrayItem(xq_tj_get(m2, "games"), 0), "result"), "1/2-1/2");
  cJSON_Delete(r);

  /* Xinjiang: the colour-swapped rapid game at table 3; the final (stage
   * 2) waits for it */
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":18,\"op\":\"ko_publish\",\"stage\":2}");
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":19,\"op\":\"ko_publish\",\"stage\":-1}");
  r = xq_tc_callf(&adm, "{\"id\":10,\"op\":\"ko_publish\",\"stage\":1}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "tables")), 1);
  const cJSON *t3 = cJSON_GetArrayItem(xq_tj_get(r, "tables"), 0);
  cr_assert_eq((int)xq_tj_num(t3, "table"), 3);
  cr_assert_eq((int)xq_tj_num(t3, "match"), 2);
  cr_assert_str_eq(xq_tj_str(t3, "type"), "rapid");
  cr_assert_str_eq(xq_tj_str(t3, "time_control"), xq_ko_time_control(XQ_KO_FMT_RAPID_ARMAGEDDON, XQ_KG_RAPID));
  cr_assert(pid(t3, "red") == seed[2] && pid(t3, "black") == seed[1], "colours swapped");
  cJSON_Delete(r);

  /* the live page sees it as a knockout game */
  xq_tresp h;
  char req[128];
  snprintf(req, sizeof req, "GET /api/rounds/%d/games.json HTTP/1.1\r\nHost: x\r\n\r\n", XQ_KO_ROUND);
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &h), 0);
  cr_assert_eq(h.status, 200);
  cJSON *games = cJSON_Parse(h.body);
  xq_tresp_free(&h);
  cr_assert(games);
  const cJSON *g3 = cJSON_GetArrayItem(cJSON_IsArray(games) ? games : xq_tj_get(games, "games"), 2);
  cr_assert_str_eq(xq_tj_str(xq_tj_get(g3, "knockout"), "type"), "rapid");
  cJSON_Delete(games);

  /* one move at table 3, then a restart */
  board_session(&adm, &b3, 3);
  xq_tc_okf(&b3, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"b2e2\"}");
  xq_tc_close(&b1);
  xq_tc_close(&b3);
  xq_tc_close(&adm);
  xq_tc_close(&arb);
  xq_tc_close(&w);
  cr_assert_eq(xq_ts_stop(&ts), 0, "uv_loop_close: no handle left open");
  cr_assert_eq(xq_ts_restart(&ts), 0, "restarts on the same store");
  xq_fx_connect(&adm, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);

  r = state(&adm);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "tables")), 3);
  cr_assert_eq((int)xq_tj_num(match(r, 2), "in_play"), 3);
  cJSON_Delete(r);
  r = xq_tc_callf(&arb, "{\"id\":30,\"op\":\"game\",\"round\":%d,\"table\":3}", XQ_KO_ROUND);
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "moves")), 1, "the move before the restart");
  cr_assert_str_eq(xq_tj_str(r, "state"), "playing");
  cJSON_Delete(r);

  /* Black wins the rapid game: seed 2 (Black) goes to the final */
  xq_tc_okf(&arb, "{\"id\":31,\"op\":\"result\",\"round\":%d,\"table\":3,\"result\":\"0-1\"}", XQ_KO_ROUND);
  r = xq_tc_callf(&adm, "{\"id\":11,\"op\":\"ko_publish\"}");
  xq_tc_expect_ok(r);
  const cJSON *t4 = cJSON_GetArrayItem(xq_tj_get(r, "tables"), 0);
  cr_assert_eq((int)xq_tj_num(t4, "table"), 4);
  cr_assert_eq((int)xq_tj_num(t4, "match"), 3);
  cr_assert(pid(t4, "red") == seed[0] && pid(t4, "black") == seed[1], "the final: seeds 1 and 2");
  cJSON_Delete(r);
  /* the knockout's score sheets name each table's match and game (issue 35) */
  r = xq_tc_callf(&adm, "{\"id\":40,\"op\":\"export\",\"format\":\"csv\",\"what\":\"scoresheets\",\"round\":%d,\"lang\":\"zh\"}",
                  XQ_KO_ROUND);
  xq_tc_expect_ok(r);
  const char *sheet = xq_tj_str(r, "text");
  cr_assert(strstr(sheet, "台次,场次,序号,红方"), "%s", sheet);
  cr_assert(strstr(sheet, "\r\n3,半决赛第2场 · 第2局 快棋,"), "%s", sheet);
  cr_assert(strstr(sheet, "\r\n4,决赛第1场 · 第1局 慢棋,"), "%s", sheet);
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":41,\"op\":\"export\",\"format\":\"html\",\"what\":\"scoresheets\",\"round\":%d}",
                  XQ_KO_ROUND);
  xq_tc_expect_ok(r);
  cr_assert(strstr(xq_tj_str(r, "text"), "knockout · semi-final 1 · game 1, standard · table 1"), "%s", xq_tj_str(r, "text"));
  cJSON_Delete(r);
  xq_tc_okf(&arb, "{\"id\":32,\"op\":\"result\",\"round\":%d,\"table\":4,\"result\":\"0-1\"}", XQ_KO_ROUND);
  r = state(&adm);
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "decided")));
  const cJSON *pl = xq_tj_get(r, "places");
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(pl, 0), "id"), seed[1]);
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(pl, 1), "id"), seed[0]);
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":12,\"op\":\"ko_publish\"}");

  xq_tc_close(&adm);
  xq_tc_close(&arb);
  xq_fx_down();
}

/* The Red player a ko_publish asks for: taken for the standard game, and
 * refused when it is no player of the match. */
Test(knockout, publish_with_red_chosen)
{
  xq_fx_up(8);
  xq_tclient adm, arb;
  xq_fx_connect(&adm, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);
  for (int t = 1; t <= 4; t++) {
    xq_tc_okf(&arb, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"0-1\"}", t, t);
  }
  cJSON *r = xq_tc_callf(&adm, "{\"id\":5,\"op\":\"ko_start\",\"after\":1,\"size\":2,\"format\":\"tangshan\"}");
  xq_tc_expect_ok(r);
  int s1 = (int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(r, "seeds"), 0), "id");
  int s2 = (int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(r, "seeds"), 1), "id");
  cJSON_Delete(r);
  int other = 1;
  while (other == s1 || other == s2) other++;
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":6,\"op\":\"ko_publish\",\"red\":[{\"match\":1,\"player\":%d}]}", other);
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":7,\"op\":\"ko_publish\",\"red\":{\"match\":1}}");
  r = xq_tc_callf(&adm, "{\"id\":8,\"op\":\"ko_publish\",\"red\":[{\"match\":1,\"player\":%d}]}", s2);
  xq_tc_expect_ok(r);
  const cJSON *t1 = cJSON_GetArrayItem(xq_tj_get(r, "tables"), 0);
  cr_assert_eq((int)xq_tj_num(t1, "table"), 1, "the refused request published nothing");
  cr_assert(pid(t1, "red") == s2 && pid(t1, "black") == s1);
  cJSON_Delete(r);
  /* Tangshan: a drawn game goes straight to the armageddon */
  xq_tc_okf(&arb, "{\"id\":9,\"op\":\"result\",\"round\":%d,\"table\":1,\"result\":\"=\"}", XQ_KO_ROUND);
  /* its Red is drawn (or chosen) at the table: no default, the Red named */
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":10,\"op\":\"ko_publish\"}");
  r = xq_tc_callf(&adm, "{\"id\":10,\"op\":\"ko_publish\",\"red\":[{\"match\":1,\"player\":%d}]}", s1);
  xq_tc_expect_ok(r);
  const cJSON *t2 = cJSON_GetArrayItem(xq_tj_get(r, "tables"), 0);
  cr_assert_str_eq(xq_tj_str(t2, "type"), "armageddon");
  cr_assert_eq((int)xq_tj_num(t2, "table"), 2, "the refused request published nothing");
  cr_assert(pid(t2, "red") == s1 && pid(t2, "black") == s2);
  cJSON_Delete(r);
  /* a drawn armageddon is a Black win */
  xq_tc_okf(&arb, "{\"id\":11,\"op\":\"result\",\"round\":%d,\"table\":2,\"result\":\"=\"}", XQ_KO_ROUND);
  r = xq_tc_callf(&adm, "{\"id\":12,\"op\":\"knockout\"}");
  xq_tc_expect_ok(r);
  const cJSON *m1 = cJSON_GetArrayItem(xq_tj_get(r, "matches"), 0);
  const cJSON *games = xq_tj_get(m1, "games");
  int black = (int)xq_tj_num(cJSON_GetArrayItem(games, 1), "black");
  cr_assert_eq(pid(m1, "winner"), black);
  cJSON_Delete(r);
  xq_tc_close(&adm);
  xq_tc_close(&arb);
  xq_fx_down();
}

/* A knockout-only event (seeding "lot", docs/village-king.md) wants no
 * Swiss before it and entrants that are registered players; its request
 * is checked before the store is touched. */
Test(knockout, lot_bracket_refused_after_a_swiss_and_for_bad_entrants)
{
  xq_fx_up(8);
  xq_tclient adm;
  xq_fx_connect(&adm, ts.admin);
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":1,\"op\":\"ko_start\",\"seeding\":\"lot\",\"format\":\"shaanxi\",\"lot\":-3}");
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":2,\"op\":\"ko_start\",\"seeding\":\"draw\",\"format\":\"shaanxi\"}");
  /* the demo's round 1 is paired: no knockout-only event in this store */
  const cJSON *e;
  cJSON *r = xq_tc_callf(&adm, "{\"id\":3,\"op\":\"ko_start\",\"seeding\":\"lot\",\"format\":\"shaanxi\"}");
  e = xq_tc_expect_error(r, "CONFLICT");
  cr_assert(strstr(xq_tj_str(e, "msg"), "Swiss"), "%s", xq_tj_str(e, "msg"));
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":4,\"op\":\"knockout\"}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsFalse(xq_tj_get(r, "started")), "a refused start leaves no stage");
  cJSON_Delete(r);
  xq_tc_close(&adm);
  xq_fx_down();
}

/* ko_start seeds as `tourney knockout` does (xq_ko_setup_event): the
 * player 4th after round 1 withdraws from round 2 before the stage is
 * seeded, so the 5th is seeded 4th and the withdrawn player is no seed. */
Test(knockout, a_withdrawn_player_is_not_seeded)
{
  xq_fx_up(8);
  xq_tclient adm, arb;
  xq_fx_connect(&adm, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);
  for (int t = 1; t <= 4; t++)
    xq_tc_okf(&arb, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"1-0\"}", 10 + t, t);
  cJSON *r = xq_tc_callf(&adm, "{\"id\":20,\"op\":\"standings\",\"round\":1}");
  xq_tc_expect_ok(r);
  const cJSON *rows = xq_tj_get(r, "standings");
  int no4 = (int)xq_tj_num(cJSON_GetArrayItem(rows, 3), "no"), id4 = (int)xq_tj_num(cJSON_GetArrayItem(rows, 3), "id");
  int id5 = (int)xq_tj_num(cJSON_GetArrayItem(rows, 4), "id");
  cJSON_Delete(r);
  xq_tc_okf(&arb, "{\"id\":21,\"op\":\"withdraw\",\"player\":%d,\"round\":2}", no4);
  r = xq_tc_callf(&adm, "{\"id\":22,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"xinjiang\"}");
  xq_tc_expect_ok(r);
  const cJSON *seeds = xq_tj_get(r, "seeds");
  for (int i = 0; i < 4; i++)
    cr_assert_neq((int)xq_tj_num(cJSON_GetArrayItem(seeds, i), "id"), id4, "the withdrawn player is seed %d", i + 1);
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(seeds, 3), "id"), id5, "the 5th takes the 4th seed");
  cJSON_Delete(r);
  xq_tc_close(&adm);
  xq_tc_close(&arb);
  xq_fx_down();
}

/* A result of the round the knockout was seeded on is refused once the
 * stage has started (CONFLICT, saying so) unless confirmed; confirmed,
 * it is stored. */
Test(knockout, a_result_of_the_cut_round_needs_confirm)
{
  xq_fx_up(8);
  xq_tclient adm, arb;
  xq_fx_connect(&adm, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);
  for (int t = 1; t <= 4; t++)
    xq_tc_okf(&arb, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"1-0\"}", t, t);
  xq_tc_okf(&adm, "{\"id\":5,\"op\":\"ko_start\",\"after\":1,\"size\":4,\"format\":\"xinjiang\"}");
  cJSON *r = xq_tc_callf(&arb, "{\"id\":6,\"op\":\"result\",\"round\":1,\"table\":1,\"result\":\"0-1\"}");
  cr_assert_str_eq(xq_tc_error(r), "CONFLICT");
  const char *msg = xq_tj_str(xq_tj_get(r, "error"), "msg");
  cr_assert(msg && strstr(msg, "round 1 decided the knockout"), "%s", msg ? msg : "no message");
  cJSON_Delete(r);
  xq_tc_okf(&arb, "{\"id\":7,\"op\":\"result\",\"round\":1,\"table\":1,\"result\":\"0-1\",\"confirm\":true}");
  xq_tc_close(&adm);
  xq_tc_close(&arb);
  xq_fx_down();
}
