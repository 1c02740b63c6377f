/*
 * test_net_team.c -- team competitions on the live server (docs/protocol.md
 * "Team events"): team_new makes the event a team event, team_add
 * registers the teams, team_pair pairs a round, lineup is refused with the
 * board-order rule's reason, team_publish puts each board of each match on
 * a table as an ordinary game, the arbiter's results make the match
 * scores, team_standings ranks the teams, and all of it survives a restart
 * of the server on its store. Every test ends with the server stopped and
 * uv_loop_close() == 0.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_fixture.h"
#include "store/team_store.h"
#include "store_fixture.h"
#include "support.h"
#include "teammatch.h"

XQ_NET_SUITE(team, 0);

/* Twelve players in teams A, B, C, D of three (ids 1-3 A, 4-6 B, ...). */
static void register_teams(xq_tclient *adm)
{
  for (int i = 0; i < 12; i++)
    xq_tc_okf(adm, "{\"id\":%d,\"op\":\"add_player\",\"player\":{\"name\":\"P%02d\",\"team\":\"%c\"}}", 100 + i, i + 1,
              'A' + i / 3);
  for (int t = 0; t < 4; t++) {
    cJSON *r = xq_tc_callf(adm, "{\"id\":%d,\"op\":\"team_add\",\"name\":\"%c\"}", 200 + t, 'A' + t);
    xq_tc_expect_ok(r);
    cr_assert_eq((int)xq_tj_num(r, "team"), t + 1);
    const cJSON *team = cJSON_GetArrayItem(xq_tj_get(r, "teams"), t);
    cr_assert_eq(cJSON_GetArraySize(xq_tj_get(team, "roster")), 3, "the players registered with the team");
    cr_assert_eq((int)xq_tj_num(team, "regulars"), 2, "B regulars by default");
    cJSON_Delete(r);
  }
}

/* Connect `c` as an arbiter with a token the admin makes (a server
 * without a demo prints none). */
static void arbiter(xq_tclient *adm, xq_tclient *c)
{
  cJSON *r = xq_tc_callf(adm, "{\"id\":90,\"op\":\"token\",\"role\":\"arbiter\"}");
  xq_tc_expect_ok(r);
  char tok[64];
  snprintf(tok, sizeof tok, "%s", xq_tj_str(r, "token"));
  cJSON_Delete(r);
  xq_fx_connect(c, tok);
}

/* Match k (1..) of round `round` in a `teams` reply. */
static const cJSON *match(const cJSON *teams, int round, int k)
{
  const cJSON *x = cJSON_GetArrayItem(cJSON_GetArrayItem(xq_tj_get(teams, "matches"), round - 1), k - 1);
  cr_assert_not_null(x, "round %d match %d", round, k);
  return x;
}

static int num_at(const cJSON *o, const char *k, int i) { return (int)cJSON_GetArrayItem(xq_tj_get(o, k), i)->valuedouble; }

Test(team, round_robin_played_as_games_and_kept)
{
  xq_tclient adm, arb, w;
  xq_fx_connect(&adm, ts.admin);
  arbiter(&adm, &arb);
  xq_fx_connect(&w, NULL);

  xq_tc_errf(&w, "CONFLICT", "{\"id\":1,\"op\":\"teams\"}"); /* not a team event yet */
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":2,\"op\":\"team_new\",\"format\":\"team-ko\",\"boards\":2}");
  xq_tc_errf(&arb, "FORBIDDEN", "{\"id\":3,\"op\":\"team_new\",\"format\":\"team-rr\",\"boards\":2}");
  cJSON *r = xq_tc_callf(&adm, "{\"id\":4,\"op\":\"team_new\",\"format\":\"team-rr\",\"boards\":2,\"seed\":0}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "format"), "team-rr");
  cr_assert_eq((int)xq_tj_num(r, "boards"), 2);
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":5,\"op\":\"team_new\",\"format\":\"team-rr\",\"boards\":2}");
  register_teams(&adm);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":6,\"op\":\"team_add\",\"name\":\"A\"}"); /* the name is taken */
  /* a roster edited: D's players in another order; B's player refused */
  r = xq_tc_callf(&adm, "{\"id\":14,\"op\":\"team_edit\",\"team\":4,\"players\":[12,10,11]}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(r, "teams"), 3), "roster"), 0),
                              "id"), 12);
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":15,\"op\":\"team_edit\",\"team\":4,\"players\":[12,10,4]}");
  cr_assert(strstr(xq_tj_str(xq_tc_expect_error(r, "CONFLICT"), "msg"), "plays for team B"));
  cJSON_Delete(r);

  /* round 1 paired by the Berger table (registration order): 1-4, 2-3 */
  r = xq_tc_callf(&adm, "{\"id\":7,\"op\":\"team_pair\"}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsFalse(xq_tj_get(r, "published")));
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "matches")), 2);
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":8,\"op\":\"team_pair\"}"); /* round 1 is not published */
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":16,\"op\":\"pair\"}");      /* team_pair pairs a team event */

  /* A fields reserve P03 above regular P01: refused with the rule's reason */
  r = xq_tc_callf(&adm, "{\"id\":9,\"op\":\"lineup\",\"round\":1,\"team\":1,\"players\":[3,1]}");
  const cJSON *e = xq_tc_expect_error(r, "CONFLICT");
  cr_assert(strstr(xq_tj_str(e, "msg"), "fixed board order"), "%s", xq_tj_str(e, "msg"));
  cJSON_Delete(r);
  /* P01 and P03 (P02 absent) is the order of the roster */
  r = xq_tc_callf(&adm, "{\"id\":10,\"op\":\"lineup\",\"round\":1,\"team\":1,\"players\":[1,0,3]}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(r, "boards"), 1), "first"), "id"), 3);
  cJSON_Delete(r);

  /* published: four games, each board a table of round 1 */
  r = xq_tc_callf(&adm, "{\"id\":11,\"op\":\"team_publish\"}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "published")));
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":12,\"op\":\"lineup\",\"round\":1,\"team\":1,\"players\":[1,2]}");
  r = xq_tc_callf(&w, "{\"id\":13,\"op\":\"pairings\",\"round\":1}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 4);
  cJSON_Delete(r);

  /* the games' results: the matches' scores follow */
  static const char *const res[] = {"1-0", "=", "0-1", "1-0"};
  for (int t = 1; t <= 4; t++)
    xq_tc_okf(&arb, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"%s\"}", 20 + t, t, res[t - 1]);
  r = xq_tc_callf(&w, "{\"id\":30,\"op\":\"teams\"}");
  xq_tc_expect_ok(r);
  const cJSON *m1 = match(r, 1, 1), *m2 = match(r, 1, 2);
  cr_assert(cJSON_IsTrue(xq_tj_get(m1, "decided")) && cJSON_IsTrue(xq_tj_get(m2, "decided")));
  /* board 1 Red 1-0 (the first team Red), board 2 drawn: 3:1 */
  cr_assert_eq(num_at(m1, "gp", 0), 3);
  cr_assert_eq(num_at(m1, "gp", 1), 1);
  cr_assert_eq(num_at(m1, "mp", 0), 2);
  /* board 1 0-1 (first Red), board 2 1-0 (first Black): 0:4 */
  cr_assert_eq(num_at(m2, "gp", 0), 0);
  cr_assert_eq(num_at(m2, "gp", 1), 4);
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(m1, "boards"), 0), "table"), 1);
  cJSON_Delete(r);
  r = xq_tc_callf(&w, "{\"id\":31,\"op\":\"team_standings\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(r, "after"), 1);
  int mp = 0;
  for (const cJSON *x = xq_tj_get(r, "rows")->child; x; x = x->next) mp += (int)xq_tj_num(x, "mp");
  cr_assert_eq(mp, 4, "two matches of 2 match points");
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "board_prizes")), 2);
  cJSON_Delete(r);

  /* a restart: the team event as it was */
  xq_tc_close(&adm);
  xq_tc_close(&arb);
  xq_tc_close(&w);
  cr_assert_eq(xq_ts_stop(&ts), 0, "uv_loop_close: no handle left open");
  cr_assert_eq(xq_ts_restart(&ts), 0, "restarts on the same store");
  xq_fx_connect(&adm, ts.admin);
  r = xq_tc_callf(&adm, "{\"id\":40,\"op\":\"teams\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "teams")), 4);
  cr_assert_eq((int)xq_tj_num(r, "published"), 1);
  cr_assert_eq(num_at(match(r, 1, 1), "gp", 0), 3);
  cr_assert_eq((int)xq_tj_num(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(match(r, 1, 1), "boards"), 1), "first"), "id"), 3,
               "the lineup entered");
  cJSON_Delete(r);
  /* round 2 paired and published at once; a whole match forfeited */
  r = xq_tc_callf(&adm, "{\"id\":41,\"op\":\"team_pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(r, "round"), 2);
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "published")));
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":42,\"op\":\"team_forfeit\",\"round\":2,\"match\":1,\"forfeit\":\"second\"}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "decided")));
  cr_assert_eq(num_at(r, "gp", 0), 4, "2·B game points to the present team");
  cJSON_Delete(r);
  xq_tc_close(&adm);
}

/* GET `path` without a token: its status, the JSON body into *out (NULL
 * when none). */
static int get_anon(const char *path, cJSON **out)
{
  char req[256];
  snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", path);
  xq_tresp r;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &r), 0, "a response to GET %s", path);
  *out = r.body ? cJSON_Parse(r.body) : NULL;
  if (r.status == 200) {
    cr_assert_not_null(*out, "JSON from %s", path);
    /* no personal data: no birth date, no sex, anywhere in the answer */
    cr_assert_null(strstr(r.body, "birth"), "%s", r.body);
    cr_assert_null(strstr(r.body, "\"sex\""), "%s", r.body);
    cr_assert_null(strstr(r.body, "1990"), "%s", r.body);
  }
  int status = r.status;
  xq_tresp_free(&r);
  return status;
}

/* GET /api/teams.json: anyone's read of the team event; the matches of
 * the published rounds only (no lineup before its round is published),
 * their scores following the games' results; the team standings; /api/event
 * says the event is a team event. */
Test(team, teams_json_anonymous_and_following_results)
{
  xq_tclient adm, arb;
  xq_fx_connect(&adm, ts.admin);
  arbiter(&adm, &arb);
  cJSON *j;
  cr_assert_eq(get_anon("/api/teams.json", &j), 404, "not a team event yet");
  cJSON_Delete(j);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":5,\"op\":\"export\",\"what\":\"team-standings\",\"format\":\"csv\"}");
  for (int i = 0; i < 12; i++)
    xq_tc_okf(&adm, "{\"id\":%d,\"op\":\"add_player\",\"player\":{\"name\":\"P%02d\",\"team\":\"%c\","
                    "\"birth\":\"1990-01-0%d\",\"sex\":\"f\"}}", 100 + i, i + 1, 'A' + i / 3, 1 + i % 9);
  xq_tc_okf(&adm, "{\"id\":1,\"op\":\"team_new\",\"format\":\"team-rr\",\"boards\":2,\"seed\":0}");
  for (int t = 0; t < 4; t++) xq_tc_okf(&adm, "{\"id\":%d,\"op\":\"team_add\",\"name\":\"%c\"}", 200 + t, 'A' + t);
  cr_assert_eq(get_anon("/api/event", &j), 200);
  cr_assert(cJSON_IsTrue(xq_tj_get(j, "team")), "/api/event says a team event");
  cJSON_Delete(j);
  cr_assert_eq(get_anon("/api/teams.json", &j), 200);
  cr_assert_str_eq(xq_tj_str(j, "format"), "team-rr");
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(j, "teams")), 4);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(j, "teams"), 0), "roster")), 3);
  cJSON_Delete(j);

  /* paired, a lineup entered, not published: none of it shows */
  xq_tc_okf(&adm, "{\"id\":2,\"op\":\"team_pair\"}");
  xq_tc_okf(&adm, "{\"id\":3,\"op\":\"lineup\",\"round\":1,\"team\":1,\"players\":[1,0,3]}");
  cr_assert_eq(get_anon("/api/teams.json?round=1", &j), 200);
  cr_assert_eq((int)xq_tj_num(j, "published"), 0);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(j, "matches")), 0, "no lineup of a round not published");
  cJSON_Delete(j);
  /* nor in the teams operation of a session without a token; the arbiter's has it */
  xq_tclient w;
  xq_fx_connect(&w, NULL);
  j = xq_tc_callf(&w, "{\"id\":6,\"op\":\"teams\"}");
  xq_tc_expect_ok(j);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(j, "matches")), 0);
  cJSON_Delete(j);
  j = xq_tc_callf(&arb, "{\"id\":7,\"op\":\"teams\"}");
  xq_tc_expect_ok(j);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(j, "matches")), 1, "round 1 paired, for the staff");
  cJSON_Delete(j);
  xq_tc_close(&w);

  /* published: two matches of two boards, each board on its table */
  xq_tc_okf(&adm, "{\"id\":4,\"op\":\"team_publish\"}");
  cr_assert_eq(get_anon("/api/teams.json?round=1", &j), 200);
  cr_assert_eq((int)xq_tj_num(j, "round"), 1);
  const cJSON *ms = xq_tj_get(j, "matches");
  cr_assert_eq(cJSON_GetArraySize(ms), 2);
  const cJSON *m1 = cJSON_GetArrayItem(ms, 0);
  cr_assert_str_eq(xq_tj_str(xq_tj_get(m1, "first"), "name"), "A");
  cr_assert_eq((int)xq_tj_num(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(m1, "boards"), 1), "first"), "id"), 3,
               "the lineup entered");
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(m1, "boards"), 0), "table"), 1);
  cr_assert_eq(num_at(m1, "gp", 0), 0);
  cr_assert(cJSON_IsFalse(xq_tj_get(m1, "decided")));
  cJSON_Delete(j);

  /* the results, one by one: the score follows each (the kept answer is made again) */
  static const char *const res[] = {"1-0", "=", "0-1", "1-0"};
  static const int gp1[] = {2, 3, 3, 3}, gp2[] = {0, 0, 2, 4};
  for (int t = 1; t <= 4; t++) {
    xq_tc_okf(&arb, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"%s\"}", 20 + t, t, res[t - 1]);
    cr_assert_eq(get_anon("/api/teams.json?round=1", &j), 200);
    ms = xq_tj_get(j, "matches");
    cr_assert_eq(num_at(cJSON_GetArrayItem(ms, 0), "gp", 0), gp1[t - 1], "after table %d", t);
    cr_assert_eq(num_at(cJSON_GetArrayItem(ms, 1), "gp", 1), gp2[t - 1], "after table %d", t);
    cJSON_Delete(j);
  }
  cr_assert_eq(get_anon("/api/teams.json", &j), 200);
  const cJSON *st = xq_tj_get(j, "standings");
  cr_assert_eq((int)xq_tj_num(st, "after"), 1);
  cr_assert(cJSON_IsTrue(xq_tj_get(st, "decided")));
  int mp = 0;
  for (const cJSON *x = xq_tj_get(st, "rows")->child; x; x = x->next) mp += (int)xq_tj_num(x, "mp");
  cr_assert_eq(mp, 4, "two matches of 2 match points");
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(st, "board_prizes")), 2);
  cJSON_Delete(j);
  cr_assert_eq(get_anon("/api/teams.json?round=x", &j), 400);
  cJSON_Delete(j);

  /* the team sheets of the export op: the match sheet of round 1 with
   * each board, the team standings, the board prizes, the cross table */
  cJSON *r = xq_tc_callf(&adm, "{\"id\":50,\"op\":\"export\",\"what\":\"matches\",\"format\":\"html\","
                               "\"lang\":\"zh\",\"round\":1}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "filename"), "xqref-matches-r1.html");
  const char *html = xq_tj_str(r, "text");
  cr_assert(strstr(html, "第1场 A – D 局分 3:1") && strstr(html, "P01") && strstr(html, "P10"), "%s", html);
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":51,\"op\":\"export\",\"what\":\"team-standings\",\"format\":\"csv\"}");
  xq_tc_expect_ok(r);
  cr_assert(strstr(xq_tj_str(r, "text"), "\nA") || strstr(xq_tj_str(r, "text"), ",A"), "%s", xq_tj_str(r, "text"));
  cJSON_Delete(r);
  r = xq_tc_callf(&adm, "{\"id\":52,\"op\":\"export\",\"what\":\"board-prizes\",\"format\":\"xlsx\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "filename"), "xqref-board-prizes-r1.xlsx");
  cr_assert(strlen(xq_tj_str(r, "base64")) > 100);
  cJSON_Delete(r);
  xq_tc_okf(&adm, "{\"id\":53,\"op\":\"export\",\"what\":\"team-crosstable\",\"format\":\"text\"}");
  xq_tc_errf(&adm, "BAD_REQUEST", "{\"id\":54,\"op\":\"export\",\"what\":\"teams\",\"round\":1}");
  xq_tc_close(&adm);
  xq_tc_close(&arb);
}

/* A published team round withdrawn by unpair while none of its games has
 * begun: the team round stays paired, its lineups may change again and
 * team_publish puts it on the tables again; once a game has a result,
 * unpair is refused. team_withdraw takes a team out from the next round. */
Test(team, unpair_and_withdraw)
{
  xq_tclient adm;
  xq_fx_connect(&adm, ts.admin);
  xq_tc_okf(&adm, "{\"id\":1,\"op\":\"team_new\",\"format\":\"team-swiss\",\"boards\":2,\"rounds\":3}");
  register_teams(&adm);
  xq_tc_okf(&adm, "{\"id\":2,\"op\":\"team_pair\",\"publish\":true}");
  xq_tc_okf(&adm, "{\"id\":3,\"op\":\"unpair\",\"round\":1}");
  cJSON *j;
  cr_assert_eq(get_anon("/api/teams.json", &j), 200);
  cr_assert_eq((int)xq_tj_num(j, "published"), 0, "withdrawn: the team round is paired, not published");
  cJSON_Delete(j);
  xq_tc_okf(&adm, "{\"id\":4,\"op\":\"lineup\",\"round\":1,\"team\":1,\"players\":[1,0,3]}");
  xq_tc_okf(&adm, "{\"id\":5,\"op\":\"team_publish\"}");
  cr_assert_eq(get_anon("/api/teams.json?round=1", &j), 200);
  cr_assert_eq((int)xq_tj_num(j, "published"), 1);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(j, "matches")), 2);
  cJSON_Delete(j);
  xq_tc_okf(&adm, "{\"id\":6,\"op\":\"result\",\"round\":1,\"table\":1,\"result\":\"1-0\"}");
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":7,\"op\":\"unpair\",\"round\":1}");

  xq_tc_errf(&adm, "CONFLICT", "{\"id\":8,\"op\":\"team_withdraw\",\"team\":2,\"round\":1}"); /* published */
  xq_tc_errf(&adm, "NOT_FOUND", "{\"id\":9,\"op\":\"team_withdraw\",\"team\":9}");
  cJSON *r = xq_tc_callf(&adm, "{\"id\":10,\"op\":\"team_withdraw\",\"team\":2}");
  xq_tc_expect_ok(r);
  cr_assert_eq((int)xq_tj_num(r, "from"), 2, "from the next round to pair");
  cr_assert_eq((int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(r, "teams"), 1), "withdrawn"), 2);
  cJSON_Delete(r);
  xq_tc_errf(&adm, "CONFLICT", "{\"id\":11,\"op\":\"team_withdraw\",\"team\":2}");
  xq_tc_close(&adm);
}

/* A store of schema 13 with a team event (tests/data/store/README.md):
 * migration 14 keeps its team log, and a roster may then be replaced. */
Test(team_store, a_version_13_team_store_takes_a_roster_row)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "v13");
  xq_test_copy_file(XQ_TEST_DATA "/store/v13-team.db", path);
  cr_assert_eq(xq_test_sql_int(path, "SELECT version FROM schema_version"), 13);
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_schema_version(st), XQ_STORE_SCHEMA_VERSION);
  xq_tournament *people = xq_test_store_load(st);
  xq_tm_event *ev = NULL;
  cr_assert_eq(xq_tstore_team_load(st, people, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->nteams, 2);
  cr_assert_eq(ev->nrounds, 1);
  cr_assert_str_eq(ev->teams[0].name, "甲");
  xq_tm_logrow row = {.kind = XQ_TML_ROSTER, .a = 1, .b = 2, .nlist = 3, .list = {3, 1, 2}};
  cr_assert_eq(xq_tstore_team_record(st, people, &ev, &row, 1, &err), XQ_OK, "%s", err.msg);
  xq_tm_event_free(ev);
  ev = NULL;
  cr_assert_eq(xq_tstore_team_load(st, people, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->teams[0].roster[0].id, 3, "the roster replaced");
  cr_assert_eq(ev->matches[0].lineup[0][0], 1, "the lineup of the round paired before stands");
  xq_tm_event_free(ev);
  xq_tournament_free(people);
  xq_tstore_close(st);
  cr_assert_eq(xq_test_sql_int(path, "SELECT count(*) FROM team_log"), 6);
  xq_test_db_remove(path);
}
