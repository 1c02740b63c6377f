/*
 * test_net_proto.c -- the JSON-lines protocol against a real server on
 * 127.0.0.1: framing, sessions and roles, board events with sequence
 * numbers, arbiter rulings, durability across a restart, shutdown. Every
 * test ends with uv_loop_close() == 0: no handle leaked.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_fixture.h"
#include "netlimits.h"
#include "store/store.h"
#include "tourney.h"

XQ_NET_SUITE(net_proto, 16);

static const char *str(const cJSON *o, const char *k)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *k)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -999;
}

static int ok(const cJSON *o) { return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ok")); }

/* Connect and say hello with `token` (NULL: none). */
static void hello(xq_tclient *c, const char *token)
{
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.port), 0);
  char line[256];
  if (token) snprintf(line, sizeof line, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", token);
  else snprintf(line, sizeof line, "{\"id\":0,\"op\":\"hello\"}");
  cJSON *r = xq_tc_call(c, line);
  cr_assert(r && ok(r), "hello accepted");
  cJSON_Delete(r);
}

/* A board move; returns the reply. */
static cJSON *move(xq_tclient *c, int id, int seq, const char *mv)
{
  char line[256];
  snprintf(line, sizeof line, "{\"id\":%d,\"op\":\"move\",\"seq\":%d,\"move\":\"%s\"}", id, seq, mv);
  return xq_tc_call(c, line);
}

static const char *verdict_kind(const cJSON *r)
{
  return str(cJSON_GetObjectItemCaseSensitive(r, "verdict"), "verdict");
}

Test(net_proto, ping_echoes_id_of_any_type)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  cJSON *r = xq_tc_call(&c, "{\"id\":42,\"op\":\"ping\"}");
  cr_assert(ok(r));
  cr_assert_eq(num(r, "id"), 42);
  cr_assert_gt(num(r, "time"), 0);
  cJSON_Delete(r);
  r = xq_tc_call(&c, "{\"id\":\"abc\",\"op\":\"ping\"}");
  cr_assert_str_eq(str(r, "id"), "abc");
  cJSON_Delete(r);
  xq_tc_close(&c);
}

Test(net_proto, bad_json_keeps_the_connection)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  cJSON *r = xq_tc_call(&c, "{\"id\":1,\"op\":");
  cr_assert_str_eq(xq_tc_error(r), "BAD_JSON");
  cJSON_Delete(r);
  r = xq_tc_call(&c, "[1,2,3]");
  cr_assert_str_eq(xq_tc_error(r), "BAD_JSON");
  cJSON_Delete(r);
  r = xq_tc_call(&c, "{\"id\":2}");
  cr_assert_str_eq(xq_tc_error(r), "BAD_REQUEST");
  cJSON_Delete(r);
  r = xq_tc_call(&c, "{\"id\":3,\"op\":\"fly\"}");
  cr_assert_str_eq(xq_tc_error(r), "UNKNOWN_OP");
  cr_assert_eq(num(r, "id"), 3);
  cJSON_Delete(r);
  r = xq_tc_call(&c, "{\"id\":4,\"op\":\"ping\"}");
  cr_assert(ok(r), "still served after errors");
  cJSON_Delete(r);
  xq_tc_close(&c);
}

Test(net_proto, framing_split_joined_and_crlf)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  /* one request byte by byte */
  const char *req = "{\"id\":1,\"op\":\"ping\"}\n";
  for (const char *p = req; *p; p++) {
    xq_tc_send_raw(&c, p, 1);
    xq_tc_spin(&ts.loop, 1);
  }
  cJSON *r = xq_tc_json(&c, 5000);
  cr_assert(ok(r));
  cJSON_Delete(r);
  /* three requests in one write, CRLF endings, an empty line between */
  const char *three = "{\"id\":2,\"op\":\"ping\"}\r\n\r\n{\"id\":3,\"op\":\"ping\"}\n{\"id\":4,\"op\":\"ping\"}\r\n";
  xq_tc_send_raw(&c, three, strlen(three));
  for (int want = 2; want <= 4; want++) {
    r = xq_tc_json(&c, 5000);
    cr_assert(r && ok(r));
    cr_assert_eq(num(r, "id"), want, "replies in request order");
    cJSON_Delete(r);
  }
  xq_tc_close(&c);
}

Test(net_proto, line_over_the_limit_gets_an_error_and_a_close)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  size_t n = 70 * 1024;
  char *big = malloc(n);
  memset(big, 'x', n);
  xq_tc_send_raw(&c, big, n);
  free(big);
  cJSON *r = xq_tc_json(&c, 5000);
  cr_assert_str_eq(xq_tc_error(r), "LINE_TOO_LONG");
  cJSON_Delete(r);
  cr_assert(xq_tc_wait_eof(&c, 5000), "the server closes the connection");
  xq_tc_close(&c);
}

/* A line of `values` numbers in an array ("{"id":7,"op":"ping","x":[1,1,...]}");
 * malloc'd. */
static char *many_values(int values)
{
  size_t n = 64 + 2 * (size_t)values;
  char *line = malloc(n);
  int k = snprintf(line, n, "{\"id\":7,\"op\":\"ping\",\"x\":[");
  for (int i = 0; i < values; i++) k += snprintf(line + k, n - (size_t)k, i ? ",1" : "1");
  snprintf(line + k, n - (size_t)k, "]}");
  return line;
}

/* A line of many JSON values costs the parser a node each (30,000 in 64
 * KiB: 8-10 ms of the loop): refused before it is parsed past what a
 * request takes, XQ_JSON_VALUES_ANON without a token, XQ_JSON_VALUES_MAX
 * with one; the connection lives on and the largest open request is
 * served. */
Test(net_proto, lines_of_too_many_values_are_refused_unparsed)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  char *line = many_values(30000);
  cJSON *r = xq_tc_call(&c, line);
  free(line);
  cr_assert_str_eq(xq_tc_error(r), "LIMIT");
  cr_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r, "id")), "not parsed: no id");
  cJSON_Delete(r);
  line = many_values(XQ_JSON_VALUES_ANON);
  r = xq_tc_call(&c, line);
  free(line);
  cr_assert_str_eq(xq_tc_error(r), "LIMIT");
  cJSON_Delete(r);
  /* apply of XQ_API_MOVES_MAX moves, each a string of the array */
  size_t n = 64 + 8 * (size_t)XQ_API_MOVES_MAX;
  char *apply = malloc(n);
  static const char *const cycle[] = {"h0g2", "h9g7", "g2h0", "g7h9"};
  int k = snprintf(apply, n, "{\"id\":8,\"op\":\"apply\",\"moves\":[");
  for (int i = 0; i < XQ_API_MOVES_MAX; i++)
    k += snprintf(apply + k, n - (size_t)k, "%s\"%s\"", i ? "," : "", cycle[i % 4]);
  snprintf(apply + k, n - (size_t)k, "]}");
  r = xq_tc_call(&c, apply);
  free(apply);
  cr_assert(ok(r), "apply of %d moves served", XQ_API_MOVES_MAX);
  cJSON_Delete(r);
  xq_tc_close(&c);
  /* with a token: more, up to its own limit */
  hello(&c, ts.arbiter);
  line = many_values(XQ_JSON_VALUES_ANON * 2);
  r = xq_tc_call(&c, line);
  free(line);
  cr_assert(ok(r), "a session with a token: %d values served", XQ_JSON_VALUES_ANON * 2);
  cJSON_Delete(r);
  line = many_values(XQ_JSON_VALUES_MAX + 1);
  r = xq_tc_call(&c, line);
  free(line);
  cr_assert_str_eq(xq_tc_error(r), "LIMIT");
  cJSON_Delete(r);
  r = xq_tc_call(&c, "{\"id\":9,\"op\":\"ping\"}");
  cr_assert(ok(r), "the connection lives on");
  cJSON_Delete(r);
  xq_tc_close(&c);
}

Test(net_proto, tokens_and_roles)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  cJSON *r = xq_tc_call(&c, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert_str_eq(xq_tc_error(r), "AUTH_REQUIRED");
  cJSON_Delete(r);
  r = xq_tc_call(&c, "{\"id\":2,\"op\":\"hello\",\"token\":\"0123456789abcdef0123456789abcdef\"}");
  cr_assert_str_eq(xq_tc_error(r), "BAD_TOKEN");
  cJSON_Delete(r);
  char line[256];
  snprintf(line, sizeof line, "{\"id\":3,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  r = xq_tc_call(&c, line);
  cr_assert(ok(r));
  cr_assert_str_eq(str(r, "role"), "board");
  cr_assert_eq(num(r, "round"), 1);
  cr_assert_eq(num(r, "table"), 1);
  cr_assert_eq(num(r, "last_seq"), 0);
  cJSON_Delete(r);
  /* a board may not rule */
  r = xq_tc_call(&c, "{\"id\":4,\"op\":\"foul\",\"round\":1,\"table\":1,\"side\":\"red\"}");
  cr_assert_str_eq(xq_tc_error(r), "FORBIDDEN");
  cJSON_Delete(r);
  /* nor play at another table */
  r = xq_tc_call(&c, "{\"id\":5,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\",\"table\":2}");
  cr_assert_str_eq(xq_tc_error(r), "WRONG_TABLE");
  cJSON_Delete(r);
  xq_tc_close(&c);
  /* the arbiter may rule but not play a board's move */
  hello(&c, ts.arbiter);
  r = xq_tc_call(&c, "{\"id\":6,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert_str_eq(xq_tc_error(r), "FORBIDDEN");
  cJSON_Delete(r);
  r = xq_tc_call(&c, "{\"id\":7,\"op\":\"game\",\"round\":1,\"table\":1}");
  cr_assert(ok(r));
  cr_assert_str_eq(str(r, "state"), "playing");
  cJSON_Delete(r);
  xq_tc_close(&c);
}

Test(net_proto, board_moves_in_every_notation_with_verdicts)
{
  xq_tclient c;
  hello(&c, ts.board[1]);
  cJSON *r = move(&c, 1, 1, "h2e2");
  cr_assert(ok(r));
  cr_assert_eq(num(r, "seq"), 1);
  cr_assert_eq(num(r, "ply"), 1);
  cr_assert_str_eq(verdict_kind(r), "accepted");
  cr_assert_str_eq(str(r, "result"), "*");
  cJSON_Delete(r);
  r = move(&c, 2, 2, "H8+7"); /* WXF: Black's horse */
  cr_assert(ok(r));
  cr_assert_eq(num(r, "ply"), 2);
  cJSON_Delete(r);
  r = move(&c, 3, 3, "马二进三");
  cr_assert(ok(r));
  cr_assert_eq(num(r, "ply"), 3);
  cJSON_Delete(r);
  /* an illegal move is a foul: recorded, seq used, position kept */
  r = move(&c, 4, 4, "a9a5");
  cr_assert(ok(r));
  cr_assert_str_eq(verdict_kind(r), "foul");
  cr_assert_eq(num(r, "ply"), 3);
  cJSON_Delete(r);
  /* text in no notation is an error and uses no seq */
  r = move(&c, 5, 5, "zz99");
  cr_assert_str_eq(xq_tc_error(r), "BAD_NOTATION");
  cJSON_Delete(r);
  /* touch-move: the rook lifted from a9 must be the piece moved */
  r = move(&c, 6, 5, "a9a8");
  cr_assert(ok(r));
  cr_assert_eq(num(r, "ply"), 4);
  cr_assert_str_eq(str(r, "result"), "*");
  cJSON_Delete(r);
  xq_tc_close(&c);
}

Test(net_proto, resend_gets_the_same_answer_and_gap_is_refused)
{
  xq_tclient c;
  hello(&c, ts.board[2]);
  cJSON *a = move(&c, 1, 1, "h2e2");
  cJSON *b = move(&c, 2, 2, "h9g7");
  cr_assert(ok(a) && ok(b));
  /* resend seq 1 with a different move text: the first answer, not applied */
  cJSON *again = move(&c, 3, 1, "b2e2");
  cr_assert(ok(again));
  cr_assert_eq(num(again, "id"), 3, "the new request's id");
  cr_assert_str_eq(str(again, "fen"), str(a, "fen"));
  cr_assert_eq(num(again, "ply"), 1);
  cJSON *gap = move(&c, 4, 9, "b2e2");
  cr_assert_str_eq(xq_tc_error(gap), "BAD_SEQ");
  cJSON *bad = xq_tc_call(&c, "{\"id\":5,\"op\":\"move\",\"seq\":0,\"move\":\"b2e2\"}");
  cr_assert_str_eq(xq_tc_error(bad), "BAD_REQUEST");
  cJSON_Delete(a), cJSON_Delete(b), cJSON_Delete(again), cJSON_Delete(gap), cJSON_Delete(bad);
  /* the game has two plies */
  xq_tclient arb;
  hello(&arb, ts.arbiter);
  cJSON *g = xq_tc_call(&arb, "{\"id\":1,\"op\":\"game\",\"round\":1,\"table\":3}");
  cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(g, "moves")), 2);
  cr_assert_eq(num(g, "last_seq"), 2);
  cJSON_Delete(g);
  xq_tc_close(&arb);
  xq_tc_close(&c);
}

Test(net_proto, pipelined_moves_answered_in_order)
{
  xq_tclient c;
  hello(&c, ts.board[3]);
  const char *moves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"};
  char line[160];
  for (int i = 0; i < 6; i++) {
    snprintf(line, sizeof line, "{\"id\":%d,\"op\":\"move\",\"seq\":%d,\"move\":\"%s\"}", i + 1, i + 1, moves[i]);
    xq_tc_send(&c, line);
  }
  xq_tc_send(&c, "{\"id\":99,\"op\":\"ping\"}");
  for (int i = 0; i < 6; i++) {
    cJSON *r = xq_tc_json(&c, 5000);
    cr_assert(r && ok(r));
    cr_assert_eq(num(r, "id"), i + 1);
    cr_assert_eq(num(r, "ply"), i + 1);
    cJSON_Delete(r);
  }
  cJSON *p = xq_tc_json(&c, 5000);
  cr_assert_eq(num(p, "id"), 99, "the ping waits behind the moves");
  cJSON_Delete(p);
  xq_tc_close(&c);
}

Test(net_proto, arbiter_result_goes_into_the_standings)
{
  xq_tclient arb;
  hello(&arb, ts.arbiter);
  cJSON *r = xq_tc_call(&arb, "{\"id\":1,\"op\":\"result\",\"round\":1,\"table\":5,\"result\":\"+-\"}");
  cr_assert(ok(r));
  cJSON_Delete(r);
  r = xq_tc_call(&arb, "{\"id\":2,\"op\":\"game\",\"round\":1,\"table\":5}");
  cr_assert_str_eq(str(r, "result"), "1-0");
  cJSON_Delete(r);
  r = xq_tc_call(&arb, "{\"id\":3,\"op\":\"result\",\"round\":1,\"table\":5,\"result\":\"2-0\"}");
  cr_assert_str_eq(xq_tc_error(r), "BAD_REQUEST");
  cJSON_Delete(r);
  r = xq_tc_call(&arb, "{\"id\":4,\"op\":\"result\",\"round\":1,\"table\":99,\"result\":\"1-0\"}");
  cr_assert_str_eq(xq_tc_error(r), "NOT_FOUND");
  cJSON_Delete(r);
  /* the board of a finished game is told so, and nothing is stored */
  xq_tclient c;
  hello(&c, ts.board[4]);
  cJSON *m = move(&c, 1, 1, "h2e2");
  cr_assert_str_eq(xq_tc_error(m), "GAME_OVER");
  cr_assert(strstr(str(cJSON_GetObjectItem(m, "error"), "msg"), "+-"), "the result is named");
  cJSON_Delete(m);
  r = xq_tc_call(&arb, "{\"id\":5,\"op\":\"game\",\"round\":1,\"table\":5}");
  cr_assert(cJSON_IsArray(cJSON_GetObjectItem(r, "moves")));
  cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(r, "moves")), 0, "no move after the end");
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_tc_close(&arb);
  cr_assert_eq(xq_ts_stop(&ts), 0);
  /* the forfeit is in the tournament log after a restart */
  cr_assert_eq(xq_ts_restart(&ts), 0);
  hello(&arb, ts.admin);
  r = xq_tc_call(&arb, "{\"id\":1,\"op\":\"game\",\"round\":1,\"table\":5}");
  cr_assert_str_eq(str(r, "result"), "1-0");
  cJSON_Delete(r);
  xq_tc_close(&arb);
}

Test(net_proto, pause_refuses_board_events_until_resumed)
{
  xq_tclient arb, c;
  hello(&arb, ts.arbiter);
  hello(&c, ts.board[5]);
  cJSON *r = xq_tc_call(&arb, "{\"id\":1,\"op\":\"pause\",\"round\":1,\"table\":6}");
  cr_assert(ok(r));
  cJSON_Delete(r);
  r = move(&c, 1, 1, "h2e2");
  cr_assert_str_eq(xq_tc_error(r), "GAME_PAUSED");
  cJSON_Delete(r);
  r = xq_tc_call(&arb, "{\"id\":2,\"op\":\"resume\",\"round\":1,\"table\":6}");
  cr_assert(ok(r));
  cJSON_Delete(r);
  r = move(&c, 2, 1, "h2e2");
  cr_assert(ok(r));
  cJSON_Delete(r);
  r = xq_tc_call(&arb, "{\"id\":3,\"op\":\"foul\",\"round\":1,\"table\":6,\"side\":\"black\"}");
  cr_assert(ok(r));
  cr_assert_str_eq(verdict_kind(r), "foul");
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_tc_close(&arb);
}

Test(net_proto, events_survive_a_restart_with_the_same_replies)
{
  xq_tclient c;
  hello(&c, ts.board[6]);
  cJSON *r1 = move(&c, 1, 1, "h2e2");
  cJSON *r2 = xq_tc_call(&c, "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\",\"clock\":[5390000,5400000]}");
  cr_assert(ok(r1) && ok(r2));
  xq_tc_close(&c);
  char *fen2 = strdup(str(r2, "fen"));
  cJSON_Delete(r1);
  cJSON_Delete(r2);
  cr_assert_eq(xq_ts_stop(&ts), 0);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  /* tokens are in the store: the same board token works */
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  char line[256];
  snprintf(line, sizeof line, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[6]);
  cJSON *h = xq_tc_call(&c, line);
  cr_assert_eq(num(h, "last_seq"), 2, "the board learns where it was");
  cJSON_Delete(h);
  cJSON *again = move(&c, 7, 2, "h9g7");
  cr_assert(ok(again));
  cr_assert_str_eq(str(again, "fen"), fen2);
  cJSON *next = move(&c, 8, 3, "h0g2");
  cr_assert(ok(next));
  cr_assert_eq(num(next, "ply"), 3);
  cJSON_Delete(again);
  cJSON_Delete(next);
  free(fen2);
  xq_tc_close(&c);
}

Test(net_proto, shutdown_with_clients_connected)
{
  xq_tclient a, b;
  hello(&a, ts.board[7]);
  hello(&b, NULL);
  cJSON *r = move(&a, 1, 1, "h2e2");
  cr_assert(ok(r));
  cJSON_Delete(r);
  /* a move in flight when the server stops is still answered */
  xq_tc_send(&a, "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  xq_tc_spin(&ts.loop, 5); /* the server reads it */
  xq_server_stop(ts.srv);
  uv_run(&ts.loop, UV_RUN_DEFAULT);
  xq_server_free(ts.srv);
  ts.srv = NULL;
  char *l1 = xq_tc_line(&a, 100);
  int got_reply = 0, got_bye = 0;
  while (l1) {
    if (strstr(l1, "\"id\":2")) got_reply = 1;
    if (strstr(l1, "shutdown")) got_bye = 1;
    free(l1);
    l1 = xq_tc_line(&a, 100);
  }
  cr_assert(got_reply, "the in-flight move was answered");
  cr_assert(got_bye, "the client was told");
  cr_assert(a.eof && b.eof);
  xq_tc_close(&a);
  xq_tc_close(&b);
  cr_assert_eq(uv_loop_close(&ts.loop), 0);
}

Test(net_proto, repetition_ruled_off_the_loop_keeps_reply_order)
{
  xq_tclient c;
  hello(&c, ts.board[0]);
  /* both horses go out and back: the start position comes back at plies
   * 4 and 8, and those moves are judged on the worker pool */
  const char *mv[] = {"h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9", "b0c2"};
  char line[160];
  for (int i = 0; i < 9; i++) {
    snprintf(line, sizeof line, "{\"id\":%d,\"op\":\"move\",\"seq\":%d,\"move\":\"%s\"}", i + 1, i + 1, mv[i]);
    xq_tc_send(&c, line);
  }
  xq_tc_send(&c, "{\"id\":100,\"op\":\"ping\"}");
  int ruled = 0;
  for (int i = 0; i < 8; i++) {
    cJSON *r = xq_tc_json(&c, 5000);
    cr_assert(r && ok(r));
    cr_assert_eq(num(r, "id"), i + 1, "reply %d in order: %s", i + 1, cJSON_PrintUnformatted(r));
    cr_assert_eq(num(r, "seq"), i + 1);
    if (strcmp(verdict_kind(r), "accepted")) ruled++;
    cJSON_Delete(r);
  }
  /* the third occurrence drew the game: the move after it is refused */
  cJSON *r = xq_tc_json(&c, 5000);
  cr_assert_eq(num(r, "id"), 9);
  cr_assert_str_eq(xq_tc_error(r), "GAME_OVER");
  cJSON_Delete(r);
  cJSON *p = xq_tc_json(&c, 5000);
  cr_assert_eq(num(p, "id"), 100);
  cJSON_Delete(p);
  cr_assert_geq(ruled, 1, "the third occurrence is ruled on");
  xq_tc_close(&c);
}

Test(net_proto, fouls_of_a_finished_game_count_in_the_standings)
{
  xq_tclient arb;
  hello(&arb, ts.admin);
  cJSON *g = xq_tc_call(&arb, "{\"id\":1,\"op\":\"games\",\"round\":1}");
  const cJSON *g8 = cJSON_GetArrayItem(cJSON_GetObjectItem(g, "games"), 7);
  int black = (int)num(g8, "black");
  cr_assert_eq(num(g8, "table"), 8);
  cJSON_Delete(g);
  cJSON *r = xq_tc_call(&arb, "{\"id\":2,\"op\":\"foul\",\"round\":1,\"table\":8,\"side\":\"black\"}");
  cr_assert(ok(r));
  cJSON_Delete(r);
  r = xq_tc_call(&arb, "{\"id\":3,\"op\":\"result\",\"round\":1,\"table\":8,\"result\":\"1-0\"}");
  cr_assert(ok(r));
  cJSON_Delete(r);
  /* the same result again records no second foul */
  r = xq_tc_call(&arb, "{\"id\":4,\"op\":\"result\",\"round\":1,\"table\":8,\"result\":\"1-0\"}");
  cJSON_Delete(r);
  xq_tc_spin(&ts.loop, 50);
  cJSON *st = xq_tc_call(&arb, "{\"id\":5,\"op\":\"standings\"}");
  cr_assert(ok(st));
  int k = -1, i = 0;
  const cJSON *tb;
  cJSON_ArrayForEach(tb, cJSON_GetObjectItem(st, "tiebreaks")) {
    if (!strcmp(tb->valuestring, "FOULS")) k = i;
    i++;
  }
  cr_assert_geq(k, 0, "the demo's tie-breaks count fouls");
  const cJSON *row;
  int seen = 0;
  cJSON_ArrayForEach(row, cJSON_GetObjectItem(st, "standings")) {
    if ((int)num(row, "id") != black) continue;
    seen = 1;
    cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(row, "values"), k)->valuedouble, 1,
                 "one foul, recorded once");
  }
  cr_assert(seen);
  cJSON_Delete(st);
  xq_tc_close(&arb);
}

/* The fouls of player `id` in round `round` as the store's tournament log
 * has them (read with the server stopped or idle). */
static int fouls_in_store(int id, int round)
{
  xq_tstore *st;
  xq_tournament *ev;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(ts.db, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  int n = xq_tournament_slot(ev, id, round)->fouls;
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return n;
}

/* A result entered with the server down (xqref tourney result on the
 * store): the game's fouls, in its game log only, reach the tournament
 * log when the server starts again -- as after a kill between a result
 * and its fouls. */
Test(net_proto, fouls_of_a_result_entered_while_down_are_recorded_at_start)
{
  xq_tclient arb;
  hello(&arb, ts.admin);
  cJSON *r = xq_tc_call(&arb, "{\"id\":1,\"op\":\"foul\",\"round\":1,\"table\":7,\"side\":\"red\"}");
  cr_assert(ok(r));
  cJSON_Delete(r);
  r = xq_tc_call(&arb, "{\"id\":2,\"op\":\"games\",\"round\":1}");
  int red = (int)num(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "games"), 6), "red");
  cJSON_Delete(r);
  xq_tc_close(&arb);
  cr_assert_eq(xq_ts_stop(&ts), 0);
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(ts.db, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_result(st, 1, 7, "0-1", &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  cr_assert_eq(fouls_in_store(red, 1), 0, "the store has the result, not the foul");
  cr_assert_eq(xq_ts_restart(&ts), 0);
  xq_tc_spin(&ts.loop, 20);
  cr_assert_eq(fouls_in_store(red, 1), 1, "the foul is recorded at start");
  /* a second start adds nothing */
  cr_assert_eq(xq_ts_stop(&ts), 0);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  cr_assert_eq(fouls_in_store(red, 1), 1, "once");
}

/* The standings the server computes from its event in memory, as text:
 * the event is kept in step with the log at each result and foul rather
 * than reloaded, so it must equal what a fresh load gives. */
static char *standings_text(void)
{
  xq_tclient c;
  hello(&c, ts.admin);
  cJSON *st = xq_tc_call(&c, "{\"id\":9,\"op\":\"standings\"}");
  cr_assert(ok(st));
  cJSON_DeleteItemFromObject(st, "id");
  char *text = cJSON_PrintUnformatted(st);
  cJSON_Delete(st);
  xq_tc_close(&c);
  return text;
}

Test(net_proto, results_and_fouls_in_memory_equal_a_reload_from_the_store)
{
  xq_tclient arb, b1, b2;
  hello(&arb, ts.admin);
  /* table 1: Red resigns after a move (the adjudicator's result) */
  hello(&b1, ts.board[0]);
  cJSON *r = move(&b1, 1, 1, "h2e2");
  cr_assert(ok(r));
  cJSON_Delete(r);
  r = xq_tc_call(&b1, "{\"id\":2,\"op\":\"resign\",\"seq\":2,\"side\":\"red\"}");
  cr_assert(ok(r), "%s", cJSON_PrintUnformatted(r));
  cJSON_Delete(r);
  /* table 2: an illegal move (a foul), then Black resigns */
  hello(&b2, ts.board[1]);
  r = move(&b2, 1, 1, "h2h9");
  cJSON_Delete(r);
  r = xq_tc_call(&b2, "{\"id\":2,\"op\":\"resign\",\"seq\":2,\"side\":\"black\"}");
  cJSON_Delete(r);
  /* tables 3-5: an arbiter's draw, a forfeit, a result corrected */
  static const char *const lines[] = {
    "{\"id\":3,\"op\":\"result\",\"round\":1,\"table\":3,\"result\":\"=\"}",
    "{\"id\":4,\"op\":\"result\",\"round\":1,\"table\":4,\"result\":\"-+\"}",
    "{\"id\":5,\"op\":\"foul\",\"round\":1,\"table\":5,\"side\":\"red\"}",
    "{\"id\":6,\"op\":\"result\",\"round\":1,\"table\":5,\"result\":\"1-0\"}",
    "{\"id\":7,\"op\":\"result\",\"round\":1,\"table\":5,\"result\":\"0-1\"}",
  };
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
    r = xq_tc_call(&arb, lines[i]);
    cr_assert(ok(r), "%s: %s", lines[i], cJSON_PrintUnformatted(r));
    cJSON_Delete(r);
  }
  xq_tc_spin(&ts.loop, 100);
  xq_tc_close(&b1);
  xq_tc_close(&b2);
  xq_tc_close(&arb);
  char *live = standings_text();
  cr_assert(strstr(live, "\"standings\""), "%s", live);
  cr_assert_eq(xq_ts_stop(&ts), 0);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  char *loaded = standings_text();
  cr_assert_str_eq(live, loaded, "the event in memory equals the store's");
  free(live);
  free(loaded);
}

Test(net_proto, watch_pipelined_after_a_ruling_off_the_loop_keeps_reading)
{
  xq_tclient c;
  hello(&c, ts.board[0]);
  /* the claim is judged on the worker pool, the connection held until it
   * is done; the watch waiting behind it makes the session a subscriber,
   * which must not leave it unread once the ruling is in */
  const char *both = "{\"id\":1,\"op\":\"claim\",\"seq\":1,\"kind\":\"repetition\"}\n"
                     "{\"id\":2,\"op\":\"watch\",\"round\":0}\n";
  xq_tc_send_raw(&c, both, strlen(both)); /* one read: the watch waits behind the hold */
  cJSON *r = xq_tc_reply(&c, 5000);
  cr_assert(r && ok(r) && num(r, "id") == 1, "the claim is answered");
  cr_assert_str_eq(verdict_kind(r), "refused");
  cJSON_Delete(r);
  r = xq_tc_reply(&c, 5000);
  cr_assert(r && ok(r) && num(r, "id") == 2, "the watch is answered");
  cJSON_Delete(r);
  xq_tc_send(&c, "{\"id\":3,\"op\":\"ping\"}");
  r = xq_tc_reply(&c, 5000);
  cr_assert(r && num(r, "id") == 3, "a line sent after the watch is read and answered");
  cJSON_Delete(r);
  xq_tc_close(&c);
}

/* Table `table` of round 1 as the tournament has it: its result ("1-0",
 * "--", ..., "" while pending) and its players' ids. */
static void board_state(xq_tclient *c, int table, char *res, size_t cap, int ids[2])
{
  cJSON *r = xq_tc_call(c, "{\"id\":40,\"op\":\"pairings\",\"round\":1}");
  cr_assert(ok(r), "%s", cJSON_PrintUnformatted(r));
  const cJSON *b = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "boards"), table - 1);
  cr_assert_eq(num(b, "table"), table);
  snprintf(res, cap, "%s", str(b, "result") ? str(b, "result") : "");
  ids[0] = (int)num(cJSON_GetObjectItem(b, "red"), "id");
  ids[1] = (int)num(cJSON_GetObjectItem(b, "black"), "id");
  cJSON_Delete(r);
}

/* Player `id`'s points and losses in the standings. */
static void standing_of(xq_tclient *c, int id, double *points, double *losses)
{
  cJSON *r = xq_tc_call(c, "{\"id\":41,\"op\":\"standings\"}");
  const cJSON *q;
  *points = *losses = -1;
  cJSON_ArrayForEach(q, cJSON_GetObjectItem(r, "standings"))
    if (num(q, "id") == id) *points = num(q, "points"), *losses = num(q, "losses");
  cJSON_Delete(r);
}

static void arbiter_result(xq_tclient *arb, int table, const char *code, const char *game_result)
{
  char line[128];
  snprintf(line, sizeof line, "{\"id\":42,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"%s\"}", table, code);
  cJSON *r = xq_tc_call(arb, line);
  cr_assert(ok(r), "%s: %s", line, cJSON_PrintUnformatted(r));
  cr_assert_str_eq(str(r, "result"), game_result, "%s", line);
  cJSON_Delete(r);
  xq_tc_spin(&ts.loop, 100); /* the tournament log's write, after the game's */
}

Test(net_proto, a_game_ended_by_the_arbiter_is_resumed_with_its_result_taken_back)
{
  xq_tclient arb, c;
  char res[8];
  int ids[2];
  double pts, losses;
  hello(&arb, ts.admin);
  hello(&c, ts.board[6]);
  cJSON *r = move(&c, 1, 1, "h2e2");
  cr_assert(ok(r));
  cJSON_Delete(r);
  arbiter_result(&arb, 7, "1-0", "1-0");
  r = move(&c, 2, 2, "h9g7");
  cr_assert_str_eq(xq_tc_error(r), "GAME_OVER");
  cJSON_Delete(r);
  board_state(&arb, 7, res, sizeof res, ids);
  cr_assert_str_eq(res, "1-0");
  /* resume: the game in play again and the tournament without its result */
  arbiter_result(&arb, 7, "none", "*");
  board_state(&arb, 7, res, sizeof res, ids);
  cr_assert_str_eq(res, "", "pending again");
  standing_of(&arb, ids[0], &pts, &losses);
  cr_assert(pts == 0 && losses == 0, "no point for the win taken back: %g %g", pts, losses);
  r = move(&c, 3, 2, "h9g7");
  cr_assert(ok(r), "the board plays on: %s", cJSON_PrintUnformatted(r));
  cJSON_Delete(r);
  /* a double forfeit: both players lose by forfeit, none scores */
  arbiter_result(&arb, 7, "--", "*");
  board_state(&arb, 7, res, sizeof res, ids);
  cr_assert_str_eq(res, "--");
  for (int side = 0; side < 2; side++) {
    standing_of(&arb, ids[side], &pts, &losses);
    cr_assert(pts == 0 && losses == 1, "player %d: %g points, %g losses", ids[side], pts, losses);
  }
  r = move(&c, 4, 3, "h0g2");
  cr_assert_str_eq(xq_tc_error(r), "GAME_OVER", "a double forfeit ends the game");
  cJSON_Delete(r);
  /* taken back once more, and so it stays after a restart */
  arbiter_result(&arb, 7, "none", "*");
  xq_tc_close(&c);
  xq_tc_close(&arb);
  cr_assert_eq(xq_ts_stop(&ts), 0);
  cr_assert_eq(xq_ts_restart(&ts), 0);
  hello(&arb, ts.admin);
  board_state(&arb, 7, res, sizeof res, ids);
  cr_assert_str_eq(res, "", "pending after a restart");
  hello(&c, ts.board[6]);
  r = move(&c, 5, 3, "h0g2");
  cr_assert(ok(r), "the board plays on after a restart: %s", cJSON_PrintUnformatted(r));
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_tc_close(&arb);
}
