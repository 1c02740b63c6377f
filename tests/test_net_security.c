/*
 * test_net_security.c -- intruders against a real server on 127.0.0.1
 * (docs/security.md): wrong and revoked tokens (a revocation, here or by
 * another process, ends the sessions open with the token), roles that may not write,
 * a board token aimed at another table, forged and replayed sequence
 * numbers, malformed UTF-8, huge numbers, deeply nested JSON, slow and
 * silent clients. Every refusal must be a clear error on a connection
 * that keeps working, and every test ends with uv_loop_close() == 0.
 * Then servers with their deadlines scaled down (xq_ts_tuning): heads,
 * bodies and JSON lines trickled, silent clients, none of which a trickle
 * can keep open past its deadline; and a server whose anonymous slots are
 * full, whose reserved ones serve only sessions with a token.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answers.h"
#include "internal.h"
#include "net_fixture.h"
#include "store/store.h"

XQ_NET_SUITE(net_security, 8);

static int ok(const cJSON *o) { return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ok")); }

static const char *str(const cJSON *o, const char *k)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Send `line`; the reply must be the error `code`. */
static void expect_error(xq_tclient *c, const char *line, const char *code)
{
  cJSON *r = xq_tc_call(c, line);
  cr_assert(r, "a reply to %s", line);
  const char *got = xq_tc_error(r);
  cr_assert(got && !strcmp(got, code), "%s -> %s, expected %s", line, got ? got : "ok", code);
  cJSON_Delete(r);
}

/* The connection still answers. */
static void alive(xq_tclient *c)
{
  cJSON *r = xq_tc_call(c, "{\"id\":\"alive\",\"op\":\"ping\"}");
  cr_assert(r && ok(r), "the connection still works");
  cJSON_Delete(r);
}

/* Connect and say hello with `token`; the reply must be ok. */
static void hello(xq_tclient *c, const char *token)
{
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.port), 0);
  char line[256];
  snprintf(line, sizeof line, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", token);
  cJSON *r = xq_tc_call(c, line);
  cr_assert(r && ok(r), "hello with %s", token);
  cJSON_Delete(r);
}

Test(net_security, wrong_and_malformed_tokens_open_nothing)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  /* a well-formed guess, a near miss of the admin token, junk */
  char near[64];
  snprintf(near, sizeof near, "%s", ts.admin);
  near[31] = near[31] == '0' ? '1' : '0';
  char line[256];
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%s\"}", near);
  expect_error(&c, line, "BAD_TOKEN");
  expect_error(&c, "{\"op\":\"hello\",\"token\":\"0123456789abcdef0123456789abcdef\"}", "BAD_TOKEN");
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%s \"}", ts.admin);
  expect_error(&c, line, "BAD_TOKEN");
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%.16s\"}", ts.admin);
  expect_error(&c, line, "BAD_TOKEN");
  expect_error(&c, "{\"op\":\"hello\",\"token\":\"\"}", "BAD_TOKEN");
  /* still no role: writes need a token */
  expect_error(&c, "{\"op\":\"add_player\",\"player\":{\"name\":\"x\"}}", "AUTH_REQUIRED");
  expect_error(&c, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}", "AUTH_REQUIRED");
  alive(&c);
  xq_tc_close(&c);
}

Test(net_security, revoked_token_opens_nothing)
{
  xq_tclient a, c;
  hello(&a, ts.admin);
  char line[256];
  snprintf(line, sizeof line, "{\"op\":\"revoke\",\"token\":\"%s\"}", ts.board[1]);
  cJSON *r = xq_tc_call(&a, line);
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%s\"}", ts.board[1]);
  expect_error(&c, line, "BAD_TOKEN");
  xq_tc_close(&c);
  xq_tc_close(&a);
}

/* A new token from the admin session `a`: role, and for a board its
 * table of round 1 (0 otherwise); its text into out[64]. */
static void make_token(xq_tclient *a, const char *role, int table, char *out)
{
  char line[256];
  if (table) snprintf(line, sizeof line, "{\"op\":\"token\",\"role\":\"%s\",\"round\":1,\"table\":%d}", role, table);
  else snprintf(line, sizeof line, "{\"op\":\"token\",\"role\":\"%s\"}", role);
  cJSON *r = xq_tc_call(a, line);
  cr_assert(r && ok(r) && str(r, "token"), "a new %s token", role);
  snprintf(out, 64, "%s", str(r, "token"));
  cJSON_Delete(r);
}

/* The session `c` is told REVOKED (an error with id null) and closed. */
static void expect_revoked(xq_tclient *c, int timeout_ms)
{
  cJSON *r = xq_tc_reply(c, timeout_ms);
  const char *code = r ? xq_tc_error(r) : NULL;
  cr_assert(code && !strcmp(code, "REVOKED"), "the session is told its token was revoked (got %s)",
            r ? (code ? code : "a reply") : "nothing");
  cr_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r, "id")), "REVOKED answers no request");
  cJSON_Delete(r);
  cr_assert(xq_tc_wait_eof(c, 5000), "and the server closes it");
}

/* The game of round 1 table `table` as a board sees it at hello: last_seq
 * and ply, through a new board token. */
static void table_state(xq_tclient *a, int table, int *last_seq, int *ply)
{
  char tok[64];
  make_token(a, "board", table, tok);
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  char line[256];
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%s\"}", tok);
  cJSON *r = xq_tc_call(&b, line);
  cr_assert(r && ok(r));
  *last_seq = cJSON_GetObjectItemCaseSensitive(r, "last_seq")->valueint;
  *ply = cJSON_GetObjectItemCaseSensitive(r, "ply")->valueint;
  cJSON_Delete(r);
  xq_tc_close(&b);
}

Test(net_security, revoking_a_board_token_ends_its_open_session)
{
  xq_tclient a, b, other;
  hello(&a, ts.admin);
  hello(&b, ts.board[1]);     /* table 2 */
  hello(&other, ts.board[2]); /* table 3 */
  cJSON *r = xq_tc_call(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(r && ok(r), "the board plays before the revocation");
  cJSON_Delete(r);
  char line[256];
  snprintf(line, sizeof line, "{\"op\":\"revoke\",\"token\":\"%s\"}", ts.board[1]);
  r = xq_tc_call(&a, line);
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  /* the open session ends at once, not at its next hello */
  expect_revoked(&b, 5000);
  /* what it sends now is not served: the connection is closed, and the
   * game still holds the one move made before */
  xq_tc_send(&b, "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  xq_tc_spin(&ts.loop, 50);
  int last_seq, ply;
  table_state(&a, 2, &last_seq, &ply);
  cr_assert_eq(last_seq, 1, "the move before the revocation stays, nothing after it came in");
  cr_assert_eq(ply, 1);
  /* the revoked token opens no new session */
  xq_tclient again;
  cr_assert_eq(xq_tc_connect(&again, &ts.loop, ts.port), 0);
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%s\"}", ts.board[1]);
  expect_error(&again, line, "BAD_TOKEN");
  /* other sessions are untouched */
  r = xq_tc_call(&other, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(r && ok(r), "another board plays on");
  cJSON_Delete(r);
  alive(&a);
  xq_tc_close(&again);
  xq_tc_close(&b);
  xq_tc_close(&other);
  xq_tc_close(&a);
}

Test(net_security, revoking_ends_every_session_of_the_token_and_its_watch)
{
  xq_tclient a, w1, w2;
  hello(&a, ts.admin);
  char arb[64];
  make_token(&a, "arbiter", 0, arb);
  hello(&w1, arb);
  hello(&w2, arb);
  /* one of them follows the broadcast */
  cJSON *r = xq_tc_call(&w1, "{\"id\":1,\"op\":\"watch\",\"round\":1}");
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  char line[256];
  snprintf(line, sizeof line, "{\"op\":\"revoke\",\"token\":\"%s\"}", arb);
  r = xq_tc_call(&a, line);
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  expect_revoked(&w1, 5000);
  expect_revoked(&w2, 5000);
  /* the demo's own arbiter token still works */
  xq_tclient arb0;
  hello(&arb0, ts.arbiter);
  alive(&arb0);
  xq_tc_close(&arb0);
  xq_tc_close(&w1);
  xq_tc_close(&w2);
  xq_tc_close(&a);
}

Test(net_security, an_admin_revoking_its_own_token_is_answered_first)
{
  xq_tclient a, a2;
  hello(&a, ts.admin);
  char adm2[64];
  make_token(&a, "admin", 0, adm2);
  hello(&a2, adm2);
  char line[256];
  snprintf(line, sizeof line, "{\"id\":7,\"op\":\"revoke\",\"token\":\"%s\"}", adm2);
  cJSON *r = xq_tc_call(&a2, line);
  cr_assert(r && ok(r), "the revoke itself is answered");
  cr_assert_eq(cJSON_GetObjectItemCaseSensitive(r, "id")->valueint, 7);
  cJSON_Delete(r);
  expect_revoked(&a2, 5000);
  alive(&a);
  xq_tc_close(&a2);
  xq_tc_close(&a);
}

/* A POST /api/op batch whose token is revoked part-way (here by its own
 * first request): the requests after it run without the token's role. */
Test(net_security, a_batch_loses_its_role_when_its_token_is_revoked)
{
  xq_tclient a;
  hello(&a, ts.admin);
  char adm2[64];
  make_token(&a, "admin", 0, adm2);
  char req[1024], body[512];
  int n = snprintf(body, sizeof body,
                   "{\"id\":1,\"op\":\"tokens\"}\n{\"id\":2,\"op\":\"revoke\",\"token\":\"%s\"}\n"
                   "{\"id\":3,\"op\":\"token\",\"role\":\"viewer\"}\n{\"id\":4,\"op\":\"event\"}\n", adm2);
  snprintf(req, sizeof req,
           "POST /api/op HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s",
           adm2, n, body);
  xq_tresp h;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &h), 0);
  cr_assert_eq(h.status, 200);
  const char *codes[4] = {NULL, NULL, "AUTH_REQUIRED", NULL};
  const char *p = h.body;
  for (int i = 0; i < 4; i++) {
    const char *nl = strchr(p, '\n');
    cr_assert(nl, "reply %d of 4: %s", i + 1, h.body);
    cJSON *r = cJSON_ParseWithLength(p, (size_t)(nl - p));
    cr_assert(r, "reply %d is JSON", i + 1);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(r, "id")->valueint, i + 1);
    if (codes[i]) cr_assert_str_eq(xq_tc_error(r), codes[i], "reply %d", i + 1);
    else cr_assert(ok(r), "reply %d is ok: %.*s", i + 1, (int)(nl - p), p);
    cJSON_Delete(r);
    p = nl + 1;
  }
  xq_tresp_free(&h);
  alive(&a);
  xq_tc_close(&a);
}

/* Run `cmd` (the xqref binary on this test's store) and return its
 * status, with the loop left alone meanwhile: another process. */
static int run_xqref(const char *args)
{
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s tourney %s --db %s >/dev/null 2>&1", XQ_BINARY, args, ts.db);
  return system(cmd);
}

Test(net_security, a_token_revoked_by_another_process_ends_its_session)
{
  xq_tclient b, other;
  hello(&b, ts.board[3]); /* table 4 */
  hello(&other, ts.board[0]);
  /* `xqref tourney revoke` while the server runs: another connection to
   * the store, which the server learns of within XQ_TOKEN_RECHECK_MS */
  char args[256];
  snprintf(args, sizeof args, "revoke %s", ts.board[3]);
  cr_assert_eq(run_xqref(args), 0, "xqref tourney revoke");
  expect_revoked(&b, 10000);
  xq_tclient again;
  cr_assert_eq(xq_tc_connect(&again, &ts.loop, ts.port), 0);
  char line[256];
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%s\"}", ts.board[3]);
  expect_error(&again, line, "BAD_TOKEN");
  cJSON *r = xq_tc_call(&other, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(r && ok(r), "another board plays on");
  cJSON_Delete(r);
  xq_tc_close(&again);
  xq_tc_close(&other);
  xq_tc_close(&b);
}

Test(net_security, a_token_made_by_another_process_opens_a_session)
{
  /* `xqref tourney token` while the server runs: the server reads the
   * tokens again once it sees the store changed */
  char out[256];
  snprintf(out, sizeof out, "%s/token.txt", ts.dir);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s tourney token --role viewer --db %s >%s 2>&1", XQ_BINARY, ts.db, out);
  cr_assert_eq(system(cmd), 0, "xqref tourney token");
  FILE *f = fopen(out, "r");
  cr_assert(f);
  char tok[64] = "";
  int n = fscanf(f, "%63s", tok);
  fclose(f);
  unlink(out);
  cr_assert(n == 1 && strlen(tok) == 32, "a token was printed");
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  char line[256];
  snprintf(line, sizeof line, "{\"op\":\"hello\",\"token\":\"%s\"}", tok);
  /* it may take one re-check (XQ_TOKEN_RECHECK_MS) before it is known */
  int opened = 0;
  for (int i = 0; i < 50 && !opened; i++) {
    cJSON *r = xq_tc_call(&c, line);
    cr_assert(r, "hello is answered");
    opened = ok(r);
    cJSON_Delete(r);
    if (!opened) xq_tc_spin(&ts.loop, 200);
  }
  cr_assert(opened, "the new token opens a session");
  xq_tc_close(&c);
}

/* The result of round 1 table `table` as `pairings` gives it ("1-0", ...,
 * or NULL while pending), into out[16]. */
static void pairing_result(xq_tclient *c, int table, char *out)
{
  cJSON *r = xq_tc_call(c, "{\"op\":\"pairings\",\"round\":1}");
  cr_assert(r && ok(r));
  const cJSON *b = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "boards"), table - 1);
  const cJSON *res = cJSON_GetObjectItemCaseSensitive(b, "result");
  snprintf(out, 16, "%s", cJSON_IsString(res) ? res->valuestring : "");
  cJSON_Delete(r);
}

Test(net_security, a_result_cut_off_by_a_crash_is_recorded_at_restart)
{
  /* the game log holds a finished game whose result never reached the
   * tournament log: the server was killed between the two (an
   * adjudicator's ruling is written there after its row is durable) */
  cr_assert_eq(xq_ts_stop(&ts), 0);
  xq_tstore *st = NULL;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(ts.db, 0, &st, &err), XQ_OK, "%s", err.msg);
  xq_tgame_rec rec = {0};
  rec.round = 1;
  rec.board = 3;
  rec.source = XQ_GSRC_ARBITER;
  rec.event = "result:0-1";
  rec.reply = "";
  cr_assert_eq(xq_tstore_game_append(st, &rec, NULL, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  char res[16];
  pairing_result(&c, 3, res);
  cr_assert_str_eq(res, "0-1", "the finished game's result is in the tournament log after the restart");
  pairing_result(&c, 2, res);
  cr_assert_str_eq(res, "", "a game still in play has none");
  xq_tc_close(&c);
}

Test(net_security, an_arbiter_result_is_in_the_standings_when_acknowledged)
{
  xq_tclient arb;
  hello(&arb, ts.arbiter);
  cJSON *r = xq_tc_call(&arb, "{\"op\":\"result\",\"round\":1,\"table\":2,\"result\":\"+-\"}");
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  /* read by another process: the store itself has it, a forfeit as given */
  char out[256], cmd[1024];
  snprintf(out, sizeof out, "%s/log.txt", ts.dir);
  snprintf(cmd, sizeof cmd, "%s tourney log --db %s >%s 2>&1", XQ_BINARY, ts.db, out);
  cr_assert_eq(system(cmd), 0);
  FILE *f = fopen(out, "r");
  cr_assert(f);
  char line[512];
  int found = 0;
  while (fgets(line, sizeof line, f))
    found += strstr(line, "round=1 board=2") && (strstr(line, "forfeit") || strstr(line, "code=+-"));
  fclose(f);
  unlink(out);
  cr_assert_eq(found, 1, "the forfeit is in the tournament log once");
  xq_tc_close(&arb);
}

Test(net_security, roles_may_not_do_what_is_not_theirs)
{
  xq_tclient arb, brd;
  hello(&arb, ts.arbiter);
  expect_error(&arb, "{\"op\":\"pair\"}", "FORBIDDEN");
  expect_error(&arb, "{\"op\":\"token\",\"role\":\"admin\"}", "FORBIDDEN");
  expect_error(&arb, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}", "FORBIDDEN");
  hello(&brd, ts.board[0]);
  expect_error(&brd, "{\"op\":\"result\",\"round\":1,\"table\":1,\"result\":\"1-0\"}", "FORBIDDEN");
  expect_error(&brd, "{\"op\":\"foul\",\"round\":1,\"table\":1,\"side\":\"red\"}", "FORBIDDEN");
  expect_error(&brd, "{\"op\":\"token\",\"role\":\"admin\"}", "FORBIDDEN");
  expect_error(&brd, "{\"op\":\"tokens\"}", "FORBIDDEN");
  expect_error(&brd, "{\"op\":\"pause\",\"round\":1,\"table\":1}", "FORBIDDEN");
  alive(&brd);
  xq_tc_close(&brd);
  xq_tc_close(&arb);
}

Test(net_security, viewer_writes_nothing)
{
  xq_tclient a, v;
  hello(&a, ts.admin);
  cJSON *r = xq_tc_call(&a, "{\"op\":\"token\",\"role\":\"viewer\",\"label\":\"hall\"}");
  cr_assert(r && ok(r) && str(r, "token"));
  char token[64];
  snprintf(token, sizeof token, "%s", str(r, "token"));
  cJSON_Delete(r);
  hello(&v, token);
  expect_error(&v, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}", "FORBIDDEN");
  expect_error(&v, "{\"op\":\"result\",\"round\":1,\"table\":1,\"result\":\"1-0\"}", "FORBIDDEN");
  expect_error(&v, "{\"op\":\"add_player\",\"player\":{\"name\":\"x\"}}", "FORBIDDEN");
  expect_error(&v, "{\"op\":\"revoke\",\"token\":\"0123456789abcdef0123456789abcdef\"}", "FORBIDDEN");
  expect_error(&v, "{\"op\":\"export\"}", "FORBIDDEN");
  /* a viewer token is handed out widely: no engine job */
  expect_error(&v, "{\"op\":\"perft\",\"depth\":3}", "FORBIDDEN");
  expect_error(&v, "{\"op\":\"adjudicate\",\"moves\":\"h2e2\"}", "FORBIDDEN");
  /* reading is allowed */
  r = xq_tc_call(&v, "{\"op\":\"standings\"}");
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  xq_tc_close(&v);
  xq_tc_close(&a);
}

Test(net_security, board_token_cannot_reach_another_table)
{
  xq_tclient b;
  hello(&b, ts.board[0]); /* round 1 table 1 */
  expect_error(&b, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"table\":2}", "WRONG_TABLE");
  expect_error(&b, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"round\":2,\"table\":1}", "WRONG_TABLE");
  expect_error(&b, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"table\":1e300}", "WRONG_TABLE");
  expect_error(&b, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"table\":\"2\"}", "WRONG_TABLE");
  expect_error(&b, "{\"op\":\"resign\",\"seq\":1,\"side\":\"red\",\"table\":2}", "WRONG_TABLE");
  /* table 2 is untouched: its game still waits for seq 1 */
  xq_tclient b2;
  hello(&b2, ts.board[1]);
  cJSON *r = xq_tc_call(&b2, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(r && ok(r), "table 2 takes its first move");
  cJSON_Delete(r);
  /* and the board's own table works with or without naming it */
  r = xq_tc_call(&b, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"round\":1,\"table\":1}");
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  xq_tc_close(&b2);
  xq_tc_close(&b);
}

Test(net_security, forged_and_replayed_sequence_numbers)
{
  xq_tclient b;
  hello(&b, ts.board[0]);
  static const char *const bad[] = {"0", "-1", "1e300", "-1e300", "1.5", "\"1\"", "null", "true", "[1]", "{}",
                                    "9007199254740993"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char line[160];
    snprintf(line, sizeof line, "{\"op\":\"move\",\"seq\":%s,\"move\":\"h2e2\"}", bad[i]);
    expect_error(&b, line, "BAD_REQUEST");
  }
  expect_error(&b, "{\"op\":\"move\",\"move\":\"h2e2\"}", "BAD_REQUEST");
  /* a gap is refused and changes nothing */
  expect_error(&b, "{\"op\":\"move\",\"seq\":2,\"move\":\"h2e2\"}", "BAD_SEQ");
  expect_error(&b, "{\"op\":\"move\",\"seq\":1000000,\"move\":\"h2e2\"}", "BAD_SEQ");
  cJSON *first = xq_tc_call(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(first && ok(first));
  /* a replay of seq 1 with another move is answered as the first time
   * and not applied: the game is still at ply 1 */
  cJSON *again = xq_tc_call(&b, "{\"id\":2,\"op\":\"move\",\"seq\":1,\"move\":\"b2e2\"}");
  cr_assert(again && ok(again));
  cr_assert_str_eq(str(again, "fen"), str(first, "fen"));
  cJSON_Delete(first);
  cJSON_Delete(again);
  expect_error(&b, "{\"op\":\"move\",\"seq\":3,\"move\":\"h9g7\"}", "BAD_SEQ");
  cJSON *r = xq_tc_call(&b, "{\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  cr_assert(r && ok(r), "seq 2 follows");
  cJSON_Delete(r);
  xq_tc_close(&b);
}

Test(net_security, malformed_utf8_is_refused)
{
  xq_tclient a, b;
  hello(&b, ts.board[0]);
  /* raw invalid bytes, an overlong '/', a surrogate, a cut sequence:
   * the request is not UTF-8 text, wherever the bytes are */
  static const char *const moves[] = {"\xff\xfe", "\xc0\xaf", "\xed\xa0\x80", "\xe7\x82", "\xe7\x82\xae\xff"};
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
    char line[128];
    snprintf(line, sizeof line, "{\"op\":\"move\",\"seq\":1,\"move\":\"%s\"}", moves[i]);
    expect_error(&b, line, "BAD_JSON");
  }
  /* an escaped lone surrogate is not JSON text at all */
  expect_error(&b, "{\"op\":\"move\",\"seq\":1,\"move\":\"\\ud800\"}", "BAD_JSON");
  alive(&b);
  hello(&a, ts.admin);
  expect_error(&a, "{\"op\":\"add_player\",\"player\":{\"name\":\"\xff\xfe\"}}", "BAD_JSON");
  expect_error(&a, "{\"op\":\"add_player\",\"player\":{\"name\":\"ok\",\"club\":\"\xc0\xaf\"}}", "BAD_JSON");
  expect_error(&a, "{\"op\":\"token\",\"role\":\"viewer\",\"label\":\"\xe7\x82\"}", "BAD_JSON");
  alive(&a);
  xq_tc_close(&a);
  xq_tc_close(&b);
}

/* The engine jobs (perft, adjudicate: seconds to minutes of a worker
 * thread each) need a token; the cheap engine services stay open. */
Test(net_security, engine_jobs_need_a_token)
{
  xq_tclient e;
  cr_assert_eq(xq_tc_connect(&e, &ts.loop, ts.port), 0);
  expect_error(&e, "{\"id\":1,\"op\":\"perft\",\"depth\":7}", "AUTH_REQUIRED");
  expect_error(&e, "{\"id\":2,\"op\":\"adjudicate\",\"moves\":\"h2e2 h9g7\"}", "AUTH_REQUIRED");
  static const char *const open_ops[] = {
    "{\"id\":3,\"op\":\"validate_fen\",\"fen\":\"" XQ_START_FEN "\"}",
    "{\"id\":4,\"op\":\"legal_moves\",\"moves\":\"h2e2\"}",
    "{\"id\":5,\"op\":\"apply\",\"moves\":\"h2e2 h9g7\"}",
    "{\"id\":6,\"op\":\"convert\",\"moves\":\"h2e2\",\"to\":\"wxf\"}",
  };
  for (size_t i = 0; i < sizeof open_ops / sizeof open_ops[0]; i++) {
    cJSON *r = xq_tc_call(&e, open_ops[i]);
    cr_assert(r && ok(r), "%s is open to anyone", open_ops[i]);
    cJSON_Delete(r);
  }
  alive(&e);
  xq_tc_close(&e);
  /* a board may adjudicate, not count trees */
  xq_tclient b;
  hello(&b, ts.board[0]);
  expect_error(&b, "{\"id\":1,\"op\":\"perft\",\"depth\":3}", "FORBIDDEN");
  cJSON *r = xq_tc_call(&b, "{\"id\":2,\"op\":\"adjudicate\",\"moves\":\"h2e2 resign\"}");
  cr_assert(r && ok(r), "a board adjudicates");
  cr_assert_str_eq(str(r, "result"), "red_wins");
  cJSON_Delete(r);
  xq_tc_close(&b);
}

Test(net_security, huge_numbers_in_every_numeric_field)
{
  xq_tclient a, b, e;
  hello(&a, ts.admin);
  hello(&b, ts.board[0]);
  cr_assert_eq(xq_tc_connect(&e, &ts.loop, ts.port), 0);
  /* clocks are whole milliseconds that fit an int */
  static const char *const huge_ms[] = {"1e300", "-1e300", "1e19", "1e13"};
  char line[256];
  for (size_t i = 0; i < sizeof huge_ms / sizeof huge_ms[0]; i++) {
    const char *h = huge_ms[i];
    snprintf(line, sizeof line, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"clock\":[%s,1]}", h);
    expect_error(&b, line, "BAD_REQUEST");
    snprintf(line, sizeof line, "{\"op\":\"clock\",\"seq\":1,\"clock\":[1,%s]}", h);
    expect_error(&b, line, "BAD_REQUEST");
  }
  /* the integer fields take no value outside int, and no fraction */
  static const char *const huge[] = {"1e300", "-1e300", "2147483648", "-2147483649", "1e19", "1.5"};
  for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
    const char *h = huge[i];
#define REFUSED(conn, fmt, code)                 \
    snprintf(line, sizeof line, fmt, h, h);     \
    expect_error(conn, line, code)
    REFUSED(&a, "{\"op\":\"game\",\"round\":%s,\"table\":%s}", "BAD_REQUEST");
    REFUSED(&a, "{\"op\":\"pairings\",\"round\":%s%.0s}", "BAD_REQUEST");
    REFUSED(&a, "{\"op\":\"standings\",\"round\":%s%.0s}", "BAD_REQUEST");
    REFUSED(&a, "{\"op\":\"withdraw\",\"player\":%s,\"round\":%s}", "BAD_REQUEST");
    REFUSED(&a, "{\"op\":\"add_player\",\"player\":{\"name\":\"n\",\"rating\":%s%.0s}}", "BAD_REQUEST");
    REFUSED(&a, "{\"op\":\"token\",\"role\":\"board\",\"round\":%s,\"table\":%s}", "BAD_REQUEST");
    REFUSED(&a, "{\"op\":\"perft\",\"depth\":%s%.0s}", "BAD_REQUEST");
    REFUSED(&e, "{\"op\":\"watch\",\"round\":%s,\"last_event\":%s}", "BAD_REQUEST");
    REFUSED(&a, "{\"op\":\"adjudicate\",\"moves\":\"h2e2\",\"ruleset\":{\"fouls_to_lose\":%s%.0s}}",
            "BAD_REQUEST");
#undef REFUSED
  }
  /* and the fields wider than int take no value outside their own range,
   * NaN-like or fractional: each is compared before it is converted
   * (xq_whole_number), so a clang UBSan server (float-cast-overflow)
   * stays up. The rules of an adjudicate: every integer and bool field. */
  static const char *const wide[] = {"1e300", "-1e300", "-1.3e110", "1e19", "9.1e15", "1.5", "1e999"};
  for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
    const char *h = wide[i];
    static const char *const refused[][2] = {
      {"b", "{\"op\":\"move\",\"seq\":%s,\"move\":\"h2e2\"}"},
      {"e", "{\"op\":\"watch\",\"round\":1,\"last_event\":%s}"},
      {"a", "{\"op\":\"numbers\",\"method\":\"lot\",\"seed\":%s,\"preview\":true}"},
      {"a", "{\"op\":\"ko_start\",\"seeding\":\"lot\",\"format\":\"village\",\"lot\":%s}"},
      {"a", "{\"op\":\"adjudicate\",\"moves\":\"h2e2\",\"ruleset\":{\"fouls_to_lose\":%s}}"},
      {"a", "{\"op\":\"adjudicate\",\"moves\":\"h2e2\",\"ruleset\":{\"natural_limit_moves\":%s}}"},
      {"a", "{\"op\":\"adjudicate\",\"moves\":\"h2e2\",\"ruleset\":{\"armageddon\":%s}}"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
      xq_tclient *conn = refused[k][0][0] == 'a' ? &a : refused[k][0][0] == 'b' ? &b : &e;
      snprintf(line, sizeof line, refused[k][1], h);
      expect_error(conn, line, "BAD_REQUEST");
    }
  }
  /* a huge id is echoed, not converted */
  cJSON *r = xq_tc_call(&e, "{\"id\":1e300,\"op\":\"ping\"}");
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  alive(&a);
  alive(&b);
  alive(&e);
  xq_tc_close(&e);
  xq_tc_close(&b);
  xq_tc_close(&a);
}

/* "[" x depth, a value, "]" x depth (or objects), as a request field. */
static char *nested(int depth, int objects)
{
  size_t n = (size_t)depth * 6 + 64;
  char *s = malloc(n), *p = s;
  p += sprintf(p, "{\"op\":\"ping\",\"x\":");
  for (int i = 0; i < depth; i++) p += sprintf(p, objects ? "{\"a\":" : "[");
  *p++ = '1';
  for (int i = 0; i < depth; i++) *p++ = objects ? '}' : ']';
  *p++ = '}';
  *p = 0;
  return s;
}

Test(net_security, deeply_nested_json_is_refused)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  for (int objects = 0; objects < 2; objects++) {
    /* past cJSON's 1,000 levels: not parsed further */
    char *line = nested(1010, objects);
    expect_error(&c, line, "BAD_JSON");
    free(line);
    /* more values than a request without a token holds: not parsed */
    line = nested(10000, objects);
    expect_error(&c, line, "LIMIT");
    free(line);
  }
  alive(&c);
  xq_tc_close(&c);
}

Test(net_security, slow_line_does_not_hold_other_clients)
{
  xq_tclient slow, fast;
  cr_assert_eq(xq_tc_connect(&slow, &ts.loop, ts.port), 0);
  cr_assert_eq(xq_tc_connect(&fast, &ts.loop, ts.port), 0);
  const char *line = "{\"id\":\"slow\",\"op\":\"ping\"}\n";
  for (const char *p = line; *p; p++) {
    xq_tc_send_raw(&slow, p, 1);
    xq_tc_spin(&ts.loop, 2);
    if (p[1] && (p - line) % 5 == 0) {
      /* the other client is served between the slow one's bytes */
      cJSON *r = xq_tc_call(&fast, "{\"id\":\"fast\",\"op\":\"ping\"}");
      cr_assert(r && ok(r) && !strcmp(str(r, "id"), "fast"));
      cJSON_Delete(r);
    }
  }
  cJSON *r = xq_tc_json(&slow, 5000);
  cr_assert(r && ok(r) && !strcmp(str(r, "id"), "slow"), "the slow line is answered once complete");
  cJSON_Delete(r);
  xq_tc_close(&fast);
  xq_tc_close(&slow);
}

Test(net_security, http_head_that_never_ends_is_closed_at_the_limit)
{
  xq_tclient h, c;
  cr_assert_eq(xq_tc_connect(&h, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&h, "GET /api/event HTTP/1.1\r\nHost: x\r\n", 35);
  /* header lines that never end the head, past XQ_HTTP_HEAD_MAX */
  char field[1024];
  memset(field, 'a', sizeof field);
  memcpy(field, "X-Pad: ", 7);
  field[sizeof field - 2] = '\r';
  field[sizeof field - 1] = '\n';
  for (int i = 0; i < 20 && !h.eof; i++) {
    xq_tc_send_raw(&h, field, sizeof field);
    xq_tc_spin(&ts.loop, 2);
  }
  cr_assert(xq_tc_wait_eof(&h, 5000), "the connection is closed");
  cr_assert(h.in && strstr(h.in, " 431 "), "431 before the close: %s", h.in ? h.in : "");
  /* the JSON-lines side was never held up */
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  alive(&c);
  xq_tc_close(&c);
  xq_tc_close(&h);
}

Test(net_security, silent_client_holds_nothing)
{
  xq_tclient silent[8], c;
  for (int i = 0; i < 8; i++) cr_assert_eq(xq_tc_connect(&silent[i], &ts.loop, ts.port), 0);
  xq_tclient hs;
  cr_assert_eq(xq_tc_connect(&hs, &ts.loop, ts.http_port), 0);
  hello(&c, ts.board[0]);
  cJSON *r = xq_tc_call(&c, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(r && ok(r), "a board is served while silent clients sit connected");
  cJSON_Delete(r);
  for (int i = 0; i < 8; i++) cr_assert(!silent[i].eof && silent[i].len == 0, "the server sent nothing unasked");
  xq_tc_close(&c);
  xq_tc_close(&hs);
  for (int i = 0; i < 8; i++) xq_tc_close(&silent[i]);
}

Test(net_security, a_board_move_is_a_move_and_nothing_else)
{
  /* the words an arbiter's or a player's other events are stored as,
   * sent as a board's move: none may set a result, record a foul,
   * resign, pause or replace the game */
  xq_tclient c;
  hello(&c, ts.board[0]);
  static const char *const words[] = {"result:0-1", "foul-red", "resign", "resign-black", "pause",
                                      "truncate:0", "claim-red", "offer", "held:h2e2", "snap:9/9"};
  char line[160];
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    snprintf(line, sizeof line, "{\"id\":%zu,\"op\":\"move\",\"seq\":1,\"move\":\"%s\"}", i, words[i]);
    expect_error(&c, line, "BAD_REQUEST");
  }
  /* nothing happened to the game: its first move still goes with seq 1 */
  cJSON *r = xq_tc_call(&c, "{\"id\":99,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(r && ok(r), "the game was not touched");
  cr_assert_str_eq(str(r, "result"), "*");
  cJSON_Delete(r);
  alive(&c);
  xq_tc_close(&c);
}

/* ------------------------------------------------------------------ */
/* Personal data (issue 32, item 8)                                    */
/* ------------------------------------------------------------------ */

/* GET `path` with the token `bearer` (NULL: none) into *r. */
static void http_get(const char *path, const char *bearer, xq_tresp *r)
{
  char req[512], auth[128] = "";
  if (bearer) snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", bearer);
  snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n%s\r\n", path, auth);
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, r), 0, "an answer to %s", path);
}

/* The players reply on `c` carries no birth date nor sex, and its text
 * none of the event's birth dates `births[0..n)`. */
static void players_without_personal_data(xq_tclient *c, char births[][16], int n, const char *who)
{
  char *line = NULL;
  xq_tc_send(c, "{\"id\":5,\"op\":\"players\"}");
  cr_assert_not_null(line = xq_tc_line(c, 5000), "%s: a players reply", who);
  cJSON *r = cJSON_Parse(line);
  cr_assert(r && ok(r), "%s: %s", who, line);
  const cJSON *p;
  int count = 0;
  cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r, "players")) {
    count++;
    cr_assert(str(p, "name"), "%s: the names are public", who);
    cr_assert_null(cJSON_GetObjectItemCaseSensitive(p, "birth"), "%s: no birth date", who);
    cr_assert_null(cJSON_GetObjectItemCaseSensitive(p, "sex"), "%s: no sex", who);
  }
  cr_assert_eq(count, n);
  for (int i = 0; i < n; i++) cr_assert_null(strstr(line, births[i]), "%s: %s in %s", who, births[i], line);
  cJSON_Delete(r);
  free(line);
}

Test(net_security, anonymous_answers_carry_no_personal_data)
{
  /* what the staff see: every player's birth date and sex */
  xq_tclient a, arb, anon, brd;
  hello(&a, ts.admin);
  hello(&arb, ts.arbiter);
  char births[8][16];
  int n = 0;
  for (int k = 0; k < 2; k++) {
    cJSON *r = xq_tc_call(k ? &arb : &a, "{\"id\":1,\"op\":\"players\"}");
    cr_assert(r && ok(r));
    const cJSON *p;
    n = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r, "players")) {
      const char *b = str(p, "birth");
      cr_assert(b && strlen(b) == 10 && strlen(b) < sizeof births[0], "staff see the birth date");
      cr_assert(str(p, "sex"), "staff see the sex");
      snprintf(births[n++], sizeof births[0], "%s", b);
    }
    cJSON_Delete(r);
  }
  cr_assert_eq(n, 8);
  /* the players op: no token (before and after an anonymous hello), a board's */
  cr_assert_eq(xq_tc_connect(&anon, &ts.loop, ts.port), 0);
  players_without_personal_data(&anon, births, n, "before hello");
  cJSON *r = xq_tc_call(&anon, "{\"id\":0,\"op\":\"hello\"}");
  cr_assert(r && ok(r));
  cJSON_Delete(r);
  players_without_personal_data(&anon, births, n, "anonymous");
  hello(&brd, ts.board[0]);
  players_without_personal_data(&brd, births, n, "a board");
  /* the same op over HTTP with a board's token */
  char req[512];
  static const char body[] = "{\"id\":1,\"op\":\"players\"}\n";
  snprintf(req, sizeof req, "POST /api/op HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n%s",
           ts.board[0], sizeof body - 1, body);
  xq_tresp h;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, req, &h), 0);
  cr_assert_eq(h.status, 200);
  cr_assert_null(strstr(h.body, "\"birth\""), "%s", h.body);
  cr_assert_null(strstr(h.body, "\"sex\""), "%s", h.body);
  xq_tresp_free(&h);
  /* every anonymous read of the HTTP API */
  static const char *const reads[] = {
    "/api/event", "/api/standings.json", "/api/rounds/1/pairings.json", "/api/rounds/1/games.json",
    "/api/rounds/1.pgn", "/api/rounds/1/1.pgn", "/api/knockout", "/api/trf",
  };
  for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
    http_get(reads[i], NULL, &h);
    cr_assert_eq(h.status, 200, "%s: %d", reads[i], h.status);
    for (int k = 0; k < n; k++) cr_assert_null(strstr(h.body, births[k]), "%s gives %s", reads[i], births[k]);
    xq_tresp_free(&h);
  }
  /* the TRF: for the staff with birth and sex, never cached; for anyone
   * else the same lines with those columns blank */
  xq_tresp pub, staff;
  http_get("/api/trf", NULL, &pub);
  http_get("/api/trf", ts.arbiter, &staff);
  cr_assert_eq(staff.status, 200);
  cr_assert(strstr(staff.head, "Cache-Control: no-store"), "%s", staff.head);
  cr_assert(strstr(pub.head, "Cache-Control: max-age="), "%s", pub.head);
  cr_assert(strstr(pub.head, "Vary: Authorization") && strstr(staff.head, "Vary: Authorization"));
  for (int k = 0; k < n; k++) cr_assert(strstr(staff.body, births[k]), "the staff's TRF has %s", births[k]);
  cr_assert_eq(pub.len, staff.len, "the columns stay where they were");
  size_t blanked = 0;
  for (size_t i = 0; i < pub.len; i++) {
    if (pub.body[i] == staff.body[i]) continue;
    cr_assert_eq(pub.body[i], ' ', "only blanks differ, at byte %zu", i);
    blanked++;
  }
  cr_assert_geq(blanked, (size_t)n * 9, "every birth date and sex blanked");
  xq_tresp_free(&pub);
  xq_tresp_free(&staff);
  http_get("/api/trf", "0123456789abcdef0123456789abcdef", &h);
  cr_assert_eq(h.status, 401, "an unknown token is told so");
  xq_tresp_free(&h);
  xq_tc_close(&brd);
  xq_tc_close(&anon);
  xq_tc_close(&arb);
  xq_tc_close(&a);
}

/* ------------------------------------------------------------------ */
/* The smaller ones (issue 32, item 10)                                */
/* ------------------------------------------------------------------ */

Test(net_security, a_clock_reading_is_whole_milliseconds_that_fit_an_int)
{
  xq_tclient b;
  hello(&b, ts.board[0]);
  static const char *const bad[] = {"1.5", "600000.25", "2147483648", "4294967296", "-1", "1e12"};
  char line[256];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    snprintf(line, sizeof line, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"clock\":[%s,600000]}", bad[i]);
    cJSON *r = xq_tc_call(&b, line);
    cr_assert(r, "a reply to %s", line);
    cr_assert_str_eq(xq_tc_error(r) ? xq_tc_error(r) : "ok", "BAD_REQUEST", "%s", line);
    const char *msg = str(cJSON_GetObjectItemCaseSensitive(r, "error"), "msg");
    cr_assert(msg && strstr(msg, "whole milliseconds from 0 to 2147483647"), "%s", msg ? msg : "");
    cJSON_Delete(r);
    snprintf(line, sizeof line, "{\"op\":\"clock\",\"seq\":1,\"clock\":[600000,%s]}", bad[i]);
    expect_error(&b, line, "BAD_REQUEST");
  }
  /* the largest reading there is, and nothing was applied before it */
  cJSON *r = xq_tc_call(&b, "{\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"clock\":[2147483647,0]}");
  cr_assert(r && ok(r), "2^31 - 1 and 0 are readings");
  cr_assert_eq(cJSON_GetObjectItemCaseSensitive(r, "ply")->valueint, 1);
  cJSON_Delete(r);
  xq_tc_close(&b);
}

Test(net_security, a_board_token_opens_only_a_table_of_a_published_round)
{
  xq_tclient a;
  hello(&a, ts.admin);
  /* the demo's round 1 has 4 tables */
  static const char *const bad[] = {
    "{\"op\":\"token\",\"role\":\"board\",\"round\":1,\"table\":999}",
    "{\"op\":\"token\",\"role\":\"board\",\"round\":1,\"table\":5}",
    "{\"op\":\"token\",\"role\":\"board\",\"round\":2,\"table\":1}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) expect_error(&a, bad[i], "NOT_FOUND");
  cJSON *r = xq_tc_call(&a, bad[0]);
  const char *msg = str(cJSON_GetObjectItemCaseSensitive(r, "error"), "msg");
  cr_assert(msg && strstr(msg, "round 1 has 4 tables"), "%s", msg ? msg : "");
  cJSON_Delete(r);
  r = xq_tc_call(&a, "{\"op\":\"tokens\"}");
  int boards = 0;
  const cJSON *t;
  cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(r, "tokens")) boards += str(t, "role") && !strcmp(str(t, "role"), "board");
  cJSON_Delete(r);
  char tok[64];
  make_token(&a, "board", 4, tok);
  r = xq_tc_call(&a, "{\"op\":\"tokens\"}");
  int after = 0;
  cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(r, "tokens")) after += str(t, "role") && !strcmp(str(t, "role"), "board");
  cJSON_Delete(r);
  cr_assert_eq(after, boards + 1, "only the good one was made");
  xq_tc_close(&a);
}

Test(net_security, a_round_that_is_not_paired_is_404_on_every_route)
{
  static const char *const missing[] = {
    "/api/standings.json?round=99", "/api/standings.json?round=2", "/api/rounds/99/pairings.json",
    "/api/rounds/99/games.json",    "/api/rounds/99.pgn",          "/api/rounds/99/1.pgn",
    "/api/rounds/1/99.pgn",
  };
  xq_tresp h;
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
    http_get(missing[i], NULL, &h);
    cr_assert_eq(h.status, 404, "%s: %d %s", missing[i], h.status, h.body);
    cr_assert(strstr(h.body, "NOT_FOUND"), "%s: %s", missing[i], h.body);
    xq_tresp_free(&h);
  }
  http_get("/api/standings.json?round=1", NULL, &h);
  cr_assert_eq(h.status, 200);
  cr_assert(strstr(h.body, "\"round\":1"), "%s", h.body);
  xq_tresp_free(&h);
  xq_tclient e;
  cr_assert_eq(xq_tc_connect(&e, &ts.loop, ts.port), 0);
  expect_error(&e, "{\"op\":\"standings\",\"round\":5}", "NOT_FOUND");
  xq_tc_close(&e);
}

/* ------------------------------------------------------------------ */
/* Deadlines a trickle cannot move                                     */
/* ------------------------------------------------------------------ */

/* Tests that start their own server, with deadlines scaled down or the
 * anonymous slots few (xq_ts_tuning). */
TestSuite(net_deadlines, .fini = xq_fx_end, .timeout = 60);

/* Send `text` a byte every `gap_ms` until it is all sent or the server
 * closed the connection; returns the bytes sent. */
static size_t trickle(xq_tclient *c, const char *text, int gap_ms)
{
  size_t i = 0, n = strlen(text);
  while (i < n && !c->eof) {
    xq_tc_send_raw(c, text + i++, 1);
    xq_tc_spin(&ts.loop, gap_ms);
  }
  return i;
}

/* The next HTTP response on `c` has `status`. */
static void http_answer(xq_tclient *c, int status)
{
  xq_tresp r;
  cr_assert_eq(xq_tc_response(c, &r, 0, 5000), 0, "an answer");
  cr_assert_eq(r.status, status, "%d %s", r.status, r.body);
  xq_tresp_free(&r);
}

static const char ask[] = "GET /api/event HTTP/1.1\r\nHost: t\r\n\r\n";

Test(net_deadlines, an_http_head_is_whole_within_its_deadline_however_it_trickles)
{
  /* XQ_HTTP_HEAD_MS 10 s -> 0.5 s, XQ_HTTP_IDLE_MS 30 s -> 1.5 s */
  xq_ts_tuning quick = {.deadline_scale = 0.05};
  xq_fx_up_tuned(8, &quick);
  xq_tclient c;
  /* the first request: a byte every 27 ms would finish it in 1 s, after
   * its deadline (counted from the accept) and before the idle one */
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  size_t sent = trickle(&c, ask, 27);
  cr_assert_lt(sent, strlen(ask), "closed before the head was whole (%zu bytes sent)", sent);
  cr_assert_eq(c.len, 0, "and never answered: %s", c.in);
  xq_tc_close(&c);

  /* a later request on a kept connection: its head's deadline counts
   * from its first byte, however long the connection was idle before */
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&c, ask, strlen(ask));
  http_answer(&c, 200);
  xq_tc_spin(&ts.loop, 800); /* idle longer than a head may take */
  xq_tc_send_raw(&c, ask, 10);
  xq_tc_spin(&ts.loop, 100);
  xq_tc_send_raw(&c, ask + 10, strlen(ask) - 10);
  http_answer(&c, 200);
  sent = trickle(&c, ask, 27);
  cr_assert_lt(sent, strlen(ask), "the next head trickled is closed at its deadline (%zu bytes sent)", sent);
  cr_assert(xq_tc_wait_eof(&c, 5000));
  xq_tc_close(&c);
}

Test(net_deadlines, a_silent_http_connection_gets_a_head_deadline_not_an_idle_one)
{
  xq_ts_tuning quick = {.deadline_scale = 0.05};
  xq_fx_up_tuned(8, &quick);
  /* `kept` was answered and is idle (XQ_HTTP_IDLE_MS from now); `silent`
   * connects after it and never sends (XQ_HTTP_HEAD_MS from its accept):
   * the silent one goes first */
  xq_tclient kept, silent;
  cr_assert_eq(xq_tc_connect(&kept, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&kept, ask, strlen(ask));
  http_answer(&kept, 200);
  cr_assert_eq(xq_tc_connect(&silent, &ts.loop, ts.http_port), 0);
  cr_assert(xq_tc_wait_eof(&silent, 5000), "the silent connection is closed");
  cr_assert(!kept.eof, "before the idle one");
  cr_assert(xq_tc_wait_eof(&kept, 5000), "which is closed at its own deadline");
  cr_assert_eq(silent.len, 0, "nothing was sent to the silent one");
  xq_tc_close(&kept), xq_tc_close(&silent);
}

Test(net_deadlines, a_body_is_whole_within_its_deadline_and_a_stream_has_none)
{
  /* XQ_HTTP_BODY_MS 30 s -> 0.6 s, XQ_HTTP_IDLE_MS -> 0.6 s */
  xq_ts_tuning quick = {.deadline_scale = 0.02};
  xq_fx_up_tuned(8, &quick);
  xq_tclient sse, c;
  cr_assert_eq(xq_tc_connect(&sse, &ts.loop, ts.http_port), 0);
  static const char stream[] = "GET /api/events HTTP/1.1\r\nHost: t\r\n\r\n";
  xq_tc_send_raw(&sse, stream, sizeof stream - 1);

  char head[256];
  snprintf(head, sizeof head, "POST /api/rounds/1/push HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n"
           "Content-Length: 400\r\n\r\n[Round \"1.1\"]", ts.admin);
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&c, head, strlen(head));
  char body[400];
  memset(body, ' ', sizeof body);
  body[sizeof body - 1] = 0;
  /* the rest of the body a byte every 10 ms: 4 s, past its deadline */
  size_t sent = trickle(&c, body, 10);
  cr_assert_lt(sent, strlen(body), "closed before the body was whole (%zu bytes)", sent);
  cr_assert_eq(c.len, 0, "and not answered: %s", c.in);
  xq_tc_close(&c);
  /* the stream, open all that while, has no deadline */
  cr_assert(!sse.eof && strstr(sse.in, "event: snapshot"), "the event stream is still open");
  xq_tc_close(&sse);
}

Test(net_deadlines, a_json_line_is_whole_within_its_deadline_however_it_trickles)
{
  /* XQ_LINE_MS and XQ_HELLO_MS 10 s -> 0.5 s; XQ_IDLE_MS 600 s -> 30 s */
  xq_ts_tuning quick = {.deadline_scale = 0.05};
  xq_fx_up_tuned(8, &quick);
  xq_tclient b;
  hello(&b, ts.board[0]);
  /* said hello: idle is allowed for long, past the hello and line deadlines */
  xq_tc_spin(&ts.loop, 700);
  alive(&b);
  /* a line a byte every 50 ms would take 1 s: closed at its deadline,
   * counted from its first byte */
  static const char line[] = "{\"id\":\"late\",\"op\":\"ping\"}\n";
  size_t sent = trickle(&b, line, 50);
  cr_assert_lt(sent, sizeof line - 1, "closed before the line was whole (%zu bytes)", sent);
  cr_assert(xq_tc_wait_eof(&b, 5000));
  cr_assert_null(strstr(b.in, "late"), "the line was never answered");
  xq_tc_close(&b);
}

Test(net_deadlines, a_json_client_that_never_says_hello_is_closed)
{
  xq_ts_tuning quick = {.deadline_scale = 0.05};
  xq_fx_up_tuned(8, &quick);
  xq_tclient b, silent;
  hello(&b, ts.board[0]);
  cr_assert_eq(xq_tc_connect(&silent, &ts.loop, ts.port), 0);
  cr_assert(xq_tc_wait_eof(&silent, 5000), "closed at XQ_HELLO_MS");
  cr_assert_eq(silent.len, 0);
  /* the session that said hello is another matter */
  alive(&b);
  xq_tc_close(&b), xq_tc_close(&silent);
}

/* ------------------------------------------------------------------ */
/* Reserved slots                                                      */
/* ------------------------------------------------------------------ */

static int anon_slots_are(void *a) { return ts.srv->nanon == *(int *)a; }

Test(net_deadlines, with_the_anonymous_slots_full_only_a_token_is_served)
{
  xq_ts_tuning two = {.anon_conns_max = 2};
  xq_fx_up_tuned(8, &two);
  /* two anonymous connections fill the anonymous slots */
  xq_tclient j, h;
  cr_assert_eq(xq_tc_connect(&j, &ts.loop, ts.port), 0);
  cr_assert_eq(xq_tc_connect(&h, &ts.loop, ts.http_port), 0);
  int full = 2;
  cr_assert(xq_tc_run_until(&ts.loop, anon_slots_are, &full, 5000));

  /* (a) a board, on a reserved slot, says hello with its token and plays */
  xq_tclient b;
  hello(&b, ts.board[0]);
  cJSON *r = xq_tc_call(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(r && ok(r), "the board plays");
  cJSON_Delete(r);
  cr_assert_eq(ts.srv->nreserve, 0, "and holds no reserved slot once it has a token");

  /* (b) an anonymous hello on a reserved slot: LIMIT, and the close */
  xq_tclient anon;
  cr_assert_eq(xq_tc_connect(&anon, &ts.loop, ts.port), 0);
  expect_error(&anon, "{\"id\":2,\"op\":\"hello\"}", "LIMIT");
  cr_assert(xq_tc_wait_eof(&anon, 5000));
  xq_tc_close(&anon);

  /* (c) an HTTP request without a token on a reserved slot: 503 with
   * Retry-After, and the close */
  xq_tclient g;
  cr_assert_eq(xq_tc_connect(&g, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&g, ask, strlen(ask));
  xq_tresp resp;
  cr_assert_eq(xq_tc_response(&g, &resp, 0, 5000), 0);
  cr_assert_eq(resp.status, 503, "%d %s", resp.status, resp.body);
  cr_assert(strstr(resp.head, "Retry-After: "), "%s", resp.head);
  cr_assert(strstr(resp.body, "\"LIMIT\""), "%s", resp.body);
  xq_tresp_free(&resp);
  cr_assert(xq_tc_wait_eof(&g, 5000));
  xq_tc_close(&g);

  /* (d) with a token it is served, and the connection is one with a token */
  char auth[256];
  snprintf(auth, sizeof auth, "GET /api/event HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n\r\n", ts.arbiter);
  cr_assert_eq(xq_tc_connect(&g, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&g, auth, strlen(auth));
  http_answer(&g, 200);
  xq_tc_send_raw(&g, ask, strlen(ask));
  http_answer(&g, 200);
  xq_tc_close(&g);

  /* once an anonymous slot is free, anonymous clients are served again */
  xq_tc_close(&h);
  int one = 1;
  cr_assert(xq_tc_run_until(&ts.loop, anon_slots_are, &one, 5000));
  cr_assert_eq(xq_tc_connect(&g, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(&g, ask, strlen(ask));
  http_answer(&g, 200);
  xq_tc_close(&g);
  xq_tc_close(&b), xq_tc_close(&j);
}

/* The team reads open to anyone (`teams`, `team_standings`) replayed the
 * whole team log and made their answer on the boards' loop for every
 * request: 0.2-0.6 s each at 500 teams of 16, so four anonymous clients
 * asking `teams` in a loop put 50 boards' p99 at 811 ms. They are kept
 * like the other open reads (answers.c), anonymous and staff apart, until
 * a team write or a result changes what they show. */
static void team_reads_up(void) { xq_fx_up(0); }

static char *op_text(xq_tclient *c, const char *line)
{
  cJSON *r = xq_tc_call(c, line);
  cr_assert(ok(r), "%s", line);
  cJSON_DeleteItemFromObjectCaseSensitive(r, "id");
  char *t = cJSON_PrintUnformatted(r);
  cJSON_Delete(r);
  return t;
}

Test(net_team_reads, the_open_team_reads_are_kept_until_what_they_show_changes, .init = team_reads_up,
     .fini = xq_fx_end, .timeout = 60)
{
  xq_tclient adm, v;
  hello(&adm, ts.admin);
  cr_assert_eq(xq_tc_connect(&v, &ts.loop, ts.port), 0);
  xq_tc_okf(&adm, "{\"id\":1,\"op\":\"team_new\",\"format\":\"team-rr\",\"boards\":2,\"seed\":0}");
  for (int i = 0; i < 8; i++)
    xq_tc_okf(&adm, "{\"id\":2,\"op\":\"add_player\",\"player\":{\"name\":\"P%d\",\"team\":\"%c\","
                    "\"birth\":\"1990-01-02\",\"sex\":\"w\"}}", i + 1, 'A' + i / 2);
  for (int t = 0; t < 4; t++) xq_tc_okf(&adm, "{\"id\":3,\"op\":\"team_add\",\"name\":\"%c\"}", 'A' + t);
  char *t1 = op_text(&v, "{\"id\":4,\"op\":\"teams\"}");
  xq__answer_key k = {.kind = XQ__ANSWER_OP_TEAMS};
  cr_assert_not_null(xq__answers_get(ts.srv, &k), "the anonymous teams answer is kept");
  cr_assert_null(strstr(t1, "1990"), "no birth date: %s", t1);
  char *t2 = op_text(&v, "{\"id\":5,\"op\":\"teams\"}");
  cr_assert_str_eq(t1, t2);
  /* a roster edited: the kept answer is made again */
  xq_tc_okf(&adm, "{\"id\":6,\"op\":\"team_edit\",\"team\":1,\"players\":[2,1]}");
  char *t3 = op_text(&v, "{\"id\":7,\"op\":\"teams\"}");
  cr_assert_str_neq(t3, t1, "the edited roster shows");
  cJSON *r = cJSON_Parse(t3);
  const cJSON *p0 = cJSON_GetArrayItem(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(r, "teams"), 0), "roster"), 0);
  cr_assert_eq((int)xq_tj_num(p0, "id"), 2, "%s", t3);
  cJSON_Delete(r);
  /* round 1 published; the standings kept until a result */
  xq_tc_okf(&adm, "{\"id\":8,\"op\":\"team_pair\",\"publish\":true}");
  char *s1 = op_text(&v, "{\"id\":9,\"op\":\"team_standings\"}");
  k.kind = XQ__ANSWER_OP_TEAM_STANDINGS;
  cr_assert_not_null(xq__answers_get(ts.srv, &k), "the anonymous team standings are kept");
  char *s2 = op_text(&v, "{\"id\":10,\"op\":\"team_standings\"}");
  cr_assert_str_eq(s1, s2);
  xq_tc_okf(&adm, "{\"id\":11,\"op\":\"result\",\"round\":1,\"table\":1,\"result\":\"1-0\"}");
  char *s3 = op_text(&v, "{\"id\":12,\"op\":\"team_standings\"}");
  cr_assert_str_neq(s3, s1, "the result shows in the team standings");
  char *t4 = op_text(&v, "{\"id\":13,\"op\":\"teams\"}");
  cr_assert(strstr(t4, "\"result\":\"1-0\"") || strstr(t4, "\"result\":\"0-1\""), "the result shows: %s", t4);
  free(t1), free(t2), free(t3), free(t4), free(s1), free(s2), free(s3);
  xq_tc_close(&v);
  xq_tc_close(&adm);
}

/* A Swiss operation on a team event: `settings` changed the event's
 * format under the team competition (a team Swiss became a round robin
 * of its players, 7 rounds, in the event every page reads). Refused
 * (tourney/store/store_settings.c); the other settings stay open. */
Test(net_team_reads, a_team_event_keeps_its_format, .init = team_reads_up, .fini = xq_fx_end, .timeout = 60)
{
  xq_tclient adm;
  hello(&adm, ts.admin);
  xq_tc_okf(&adm, "{\"id\":1,\"op\":\"team_new\",\"format\":\"team-swiss\",\"boards\":2,\"rounds\":3}");
  for (const char *f = "rr"; f; f = strcmp(f, "rr") ? NULL : "rr2") {
    cJSON *r = xq_tc_callf(&adm, "{\"id\":2,\"op\":\"settings\",\"set\":{\"format\":\"%s\"}}", f);
    cr_assert(strstr(xq_tj_str(xq_tc_expect_error(r, "CONFLICT"), "msg"), "team event"), "format %s", f);
    cJSON_Delete(r);
  }
  cJSON *r = xq_tc_call(&adm, "{\"id\":3,\"op\":\"settings\",\"set\":{\"venue\":\"Hall\"}}");
  cr_assert(ok(r), "another setting");
  cr_assert_str_eq(xq_tj_str(r, "format"), "swiss");
  cr_assert_str_eq(xq_tj_str(r, "venue"), "Hall");
  cJSON_Delete(r);
  xq_tc_close(&adm);
}
