/*
 * test_net_ops.c -- the engine services and the organisers' operations of
 * the JSON-lines protocol (docs/protocol.md), against a real server on
 * 127.0.0.1 started in the test on a test-owned loop, with a demo event.
 * Answers are checked against the engine, the adjudicator and the
 * tournament store run here directly; every test ends with the server
 * stopped and uv_loop_close() == 0 (no handle left open).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adjudicator.h"
#include "commit.h"
#include "jobs.h"
#include "net_fixture.h"
#include "pair/pair.h"
#include "perft.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "store_fixture.h"
#include "tourney.h"

static void finish_round(xq_tclient *c, int round, int boards);

/* ================================================================== */
/* Engine services                                                     */
/* ================================================================== */

Test(engine, validate_fen)
{
  xq_fx_up(4);
  xq_tclient c;
  xq_fx_connect(&c, NULL);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"validate_fen\",\"fen\":\"%s\"}", XQ_START_FEN);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "fen"), XQ_START_FEN);
  cr_assert_str_eq(xq_tj_str(r, "side"), "red");
  cr_assert_eq(xq_tj_num(r, "id"), 1);
  cJSON_Delete(r);

  /* a short form is accepted and written out in full */
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"validate_fen\",\"fen\":\"4k4/R8/1R7/9/9/9/9/9/9/3K5 w\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "fen"), "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1");
  cJSON_Delete(r);

  /* the message names the byte where the FEN goes wrong */
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"validate_fen\",\"fen\":\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w\"}");
  const cJSON *e = xq_tc_expect_error(r, "BAD_FEN");
  cr_assert(strstr(xq_tj_str(e, "msg"), "byte"), "%s", xq_tj_str(e, "msg"));
  cr_assert_null(xq_tj_get(e, "ply"));
  cJSON_Delete(r);
  /* two generals facing each other: a position the rules forbid */
  xq_tc_errf(&c, "BAD_FEN", "{\"id\":4,\"op\":\"validate_fen\",\"fen\":\"4k4/9/9/9/9/9/9/9/9/4K4 w\"}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":5,\"op\":\"validate_fen\"}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":6,\"op\":\"validate_fen\",\"fen\":42}");
  xq_tc_close(&c);
  xq_fx_down();
}

/* The legal moves of `fen` after `moves` (ICCS), by the engine. */
static int engine_moves(const char *fen, const char *const *moves, int n, xq_pos *out)
{
  xq_pos p;
  cr_assert_eq(xq_fen_parse(&p, fen, 0, NULL), XQ_OK);
  for (int i = 0; i < n; i++) {
    xq_move m;
    cr_assert_eq(xq_move_parse_any(&p, moves[i], &m, NULL), XQ_OK);
    xq_undo u;
    xq_make(&p, m, &u);
  }
  if (out) *out = p;
  xq_movelist l;
  xq_gen_legal(&p, &l);
  return l.n;
}

Test(engine, legal_moves)
{
  xq_fx_up(4);
  xq_tclient c;
  xq_fx_connect(&c, NULL);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"legal_moves\"}");
  xq_tc_expect_ok(r);
  const cJSON *a = xq_tj_get(r, "moves");
  cr_assert_eq(cJSON_GetArraySize(a), 44, "44 legal moves from the start");
  cr_assert_eq(cJSON_GetArraySize(a), engine_moves(XQ_START_FEN, NULL, 0, NULL));
  cr_assert_str_eq(xq_tj_str(r, "fen"), XQ_START_FEN);
  int seen = 0;
  for (const cJSON *m = a->child; m; m = m->next) seen += !strcmp(m->valuestring, "h2e2");
  cr_assert_eq(seen, 1, "h2e2 is listed once");
  cJSON_Delete(r);

  /* after moves in three notations, in WXF: each parses back to a legal move */
  const char *played[] = {"h2e2", "h9g7", "h0g2"};
  xq_pos p;
  int n = engine_moves(XQ_START_FEN, played, 3, &p);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"legal_moves\",\"moves\":[\"炮二平五\",\"H8+7\",\"h0g2\"],\"notation\":\"wxf\"}");
  xq_tc_expect_ok(r);
  a = xq_tj_get(r, "moves");
  cr_assert_eq(cJSON_GetArraySize(a), n);
  for (const cJSON *m = a->child; m; m = m->next) {
    xq_move mv;
    cr_assert_eq(xq_move_parse(&p, m->valuestring, XQ_NOTE_WXF, &mv, NULL), XQ_OK, "%s", m->valuestring);
  }
  char fen[XQ_FEN_MAX];
  xq_fen_format(&p, fen, sizeof fen);
  cr_assert_str_eq(xq_tj_str(r, "fen"), fen);
  cJSON_Delete(r);

  /* a move list may be one string */
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"legal_moves\",\"moves\":\"h2e2 h9g7, h0g2\",\"notation\":\"chinese\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "moves")), n);
  cr_assert_str_eq(xq_tj_str(r, "fen"), fen);
  cJSON_Delete(r);

  /* errors carry the index of the offending move */
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"legal_moves\",\"moves\":[\"h2e2\",\"zz\"]}");
  cr_assert_eq(xq_tj_num(xq_tc_expect_error(r, "BAD_NOTATION"), "ply"), 1);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"legal_moves\",\"moves\":[\"h2e2\",\"h9g7\",\"h2e2\"]}");
  cr_assert_eq(xq_tj_num(xq_tc_expect_error(r, "ILLEGAL_MOVE"), "ply"), 2);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":6,\"op\":\"legal_moves\",\"moves\":[\"h2e2\",7]}");
  cr_assert_eq(xq_tj_num(xq_tc_expect_error(r, "BAD_REQUEST"), "ply"), 1);
  cJSON_Delete(r);
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":7,\"op\":\"legal_moves\",\"notation\":\"sanskrit\"}");
  xq_tc_errf(&c, "BAD_FEN", "{\"id\":8,\"op\":\"legal_moves\",\"fen\":\"9/9 w\"}");
  xq_tc_close(&c);
  xq_fx_down();
}

Test(engine, apply)
{
  xq_fx_up(4);
  xq_tclient c;
  xq_fx_connect(&c, NULL);
  /* the central cannon takes the pawn on e6 at the third ply */
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"apply\",\"moves\":[\"炮二平五\",\"h9g7\",\"C5+4\"],\"notation\":\"chinese\"}");
  xq_tc_expect_ok(r);
  const cJSON *a = xq_tj_get(r, "moves");
  cr_assert_eq(cJSON_GetArraySize(a), 3);
  const char *iccs[] = {"h2e2", "h9g7", "e2e6"};
  xq_pos p;
  xq_pos_startpos(&p);
  int i = 0;
  for (const cJSON *d = a->child; d; d = d->next, i++) {
    xq_move m;
    cr_assert_eq(xq_move_parse(&p, iccs[i], XQ_NOTE_ICCS, &m, NULL), XQ_OK);
    char w[XQ_MOVE_TEXT_MAX], z[XQ_MOVE_TEXT_MAX];
    xq_move_format(&p, m, XQ_NOTE_WXF, w, sizeof w);
    xq_move_format(&p, m, XQ_NOTE_CHINESE, z, sizeof z);
    cr_assert_str_eq(xq_tj_str(d, "iccs"), iccs[i]);
    cr_assert_str_eq(xq_tj_str(d, "wxf"), w);
    cr_assert_str_eq(xq_tj_str(d, "zh"), z);
    cr_assert_str_eq(xq_tj_str(d, "move"), z, "the requested notation");
    cr_assert_eq(cJSON_IsTrue(xq_tj_get(d, "check")), xq_gives_check(&p, m) != 0);
    cr_assert_eq(cJSON_IsTrue(xq_tj_get(d, "capture")), i == 2, "only e2e6 captures");
    cr_assert_null(xq_tj_get(d, "illegal"));
    xq_undo u;
    xq_make(&p, m, &u);
  }
  cr_assert_str_eq(xq_tj_str(a->child, "zh"), "炮二平五");
  char fen[XQ_FEN_MAX];
  xq_fen_format(&p, fen, sizeof fen);
  cr_assert_str_eq(xq_tj_str(r, "fen"), fen);
  cr_assert_eq(xq_tj_num(r, "illegal"), 0);
  cJSON_Delete(r);

  /* an illegal move stops the list... */
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"apply\",\"moves\":[\"h2e2\",\"a0a5\",\"h9g7\"]}");
  const cJSON *e = xq_tc_expect_error(r, "ILLEGAL_MOVE");
  cr_assert_eq(xq_tj_num(e, "ply"), 1);
  cJSON_Delete(r);
  /* ...or, with record_illegal, is listed and leaves the position as it was */
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"apply\",\"moves\":[\"h2e2\",\"a0a5\",\"h9g7\"],\"record_illegal\":true}");
  xq_tc_expect_ok(r);
  a = xq_tj_get(r, "moves");
  cr_assert_eq(cJSON_GetArraySize(a), 3);
  const cJSON *bad = cJSON_GetArrayItem(a, 1);
  cr_assert(cJSON_IsTrue(xq_tj_get(bad, "illegal")));
  cr_assert_str_eq(xq_tj_str(bad, "move"), "a0a5");
  cr_assert(xq_tj_str(bad, "reason") && *xq_tj_str(bad, "reason"));
  cr_assert_str_eq(xq_tj_str(cJSON_GetArrayItem(a, 2), "iccs"), "h9g7", "Black still to move after the illegal move");
  const char *two[] = {"h2e2", "h9g7"};
  engine_moves(XQ_START_FEN, two, 2, &p);
  xq_fen_format(&p, fen, sizeof fen);
  cr_assert_str_eq(xq_tj_str(r, "fen"), fen);
  cr_assert_eq(xq_tj_num(r, "illegal"), 1);
  cJSON_Delete(r);
  /* text in no notation is an error even then */
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"apply\",\"moves\":[\"h2e2\",\"hello\"],\"record_illegal\":true}");
  cr_assert_eq(xq_tj_num(xq_tc_expect_error(r, "BAD_NOTATION"), "ply"), 1);
  cJSON_Delete(r);
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":5,\"op\":\"apply\",\"moves\":[],\"record_illegal\":\"yes\"}");

  /* XQ_API_MOVES_MAX moves in one request */
  size_t cap = 64 + 8 * (XQ_API_MOVES_MAX + 1);
  char *line = malloc(cap);
  size_t k = (size_t)snprintf(line, cap, "{\"id\":6,\"op\":\"apply\",\"moves\":[");
  for (int j = 0; j <= XQ_API_MOVES_MAX; j++) k += (size_t)snprintf(line + k, cap - k, "%s\"h2e2\"", j ? "," : "");
  snprintf(line + k, cap - k, "]}");
  xq_tc_errf(&c, "LIMIT", "%s", line);
  free(line);
  xq_tc_close(&c);
  xq_fx_down();
}

Test(engine, convert)
{
  xq_fx_up(4);
  xq_tclient c;
  xq_fx_connect(&c, NULL);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"convert\",\"moves\":[\"炮二平五\"],\"to\":\"iccs\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(cJSON_GetArrayItem(xq_tj_get(r, "moves"), 0)->valuestring, "h2e2");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"convert\",\"moves\":[\"h2e2\",\"h9g7\"],\"to\":\"chinese\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(cJSON_GetArrayItem(xq_tj_get(r, "moves"), 0)->valuestring, "炮二平五");
  xq_pos p;
  const char *one[] = {"h2e2"};
  engine_moves(XQ_START_FEN, one, 1, &p);
  xq_move m;
  char zh[XQ_MOVE_TEXT_MAX];
  cr_assert_eq(xq_move_parse(&p, "h9g7", XQ_NOTE_ICCS, &m, NULL), XQ_OK);
  xq_move_format(&p, m, XQ_NOTE_CHINESE, zh, sizeof zh);
  cr_assert_str_eq(cJSON_GetArrayItem(xq_tj_get(r, "moves"), 1)->valuestring, zh);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"convert\",\"moves\":\"炮二平五 马8进7\",\"to\":\"wxf\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(cJSON_GetArrayItem(xq_tj_get(r, "moves"), 0)->valuestring, "C2.5");
  cr_assert_str_eq(cJSON_GetArrayItem(xq_tj_get(r, "moves"), 1)->valuestring, "H8+7");
  cJSON_Delete(r);
  /* "from" reads one notation only */
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"convert\",\"moves\":[\"炮二平五\",\"h9g7\"],\"from\":\"chinese\"}");
  cr_assert_eq(xq_tj_num(xq_tc_expect_error(r, "BAD_NOTATION"), "ply"), 1);
  cJSON_Delete(r);
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":5,\"op\":\"convert\",\"moves\":[\"h2e2\"],\"to\":\"klingon\"}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":6,\"op\":\"convert\",\"moves\":{\"a\":1}}");
  xq_tc_close(&c);
  xq_fx_down();
}

Test(engine, perft)
{
  xq_fx_up(4);
  xq_tclient c;
  xq_fx_connect(&c, ts.arbiter); /* engine jobs need a token */
  static const char *const fens[] = {
    XQ_START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
  };
  for (int i = 0; i < 3; i++) {
    xq_pos p;
    cr_assert_eq(xq_fen_parse(&p, fens[i], 0, NULL), XQ_OK);
    uint64_t want = xq_perft(&p, 3);
    cJSON *r = xq_tc_callf(&c, "{\"id\":%d,\"op\":\"perft\",\"fen\":\"%s\",\"depth\":3}", i, fens[i]);
    xq_tc_expect_ok(r);
    cr_assert_eq((uint64_t)xq_tj_num(r, "nodes"), want, "position %d", i);
    cr_assert_eq(xq_tj_num(r, "depth"), 3);
    cJSON_Delete(r);
  }
  /* docs/perft.md, "Tests": 79 666 from the start at depth 3 */
  cJSON *r = xq_tc_callf(&c, "{\"id\":9,\"op\":\"perft\",\"depth\":3}");
  cr_assert_eq(xq_tj_num(r, "nodes"), 79666);
  cJSON_Delete(r);
  /* after moves */
  const char *one[] = {"h2e2"};
  xq_pos p;
  engine_moves(XQ_START_FEN, one, 1, &p);
  r = xq_tc_callf(&c, "{\"id\":10,\"op\":\"perft\",\"moves\":[\"炮二平五\"],\"depth\":2}");
  cr_assert_eq((uint64_t)xq_tj_num(r, "nodes"), xq_perft(&p, 2));
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":11,\"op\":\"perft\",\"depth\":0}");
  cr_assert_eq(xq_tj_num(r, "nodes"), 1);
  cJSON_Delete(r);
  xq_tc_errf(&c, "LIMIT", "{\"id\":12,\"op\":\"perft\",\"depth\":%d}", XQ_PERFT_DEPTH_MAX + 1);
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":13,\"op\":\"perft\",\"depth\":2.5}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":14,\"op\":\"perft\"}");
  xq_tc_errf(&c, "BAD_FEN", "{\"id\":15,\"op\":\"perft\",\"depth\":2,\"fen\":\"x\"}");
  xq_tc_close(&c);
  xq_fx_down();
}

/* A connection may have XQ_ENGINE_JOBS_PER_CONN engine jobs at once; the
 * next one is BUSY. Jobs whose client leaves are abandoned and the server
 * still drains. */
Test(engine, busy_and_abandoned_jobs)
{
  xq_fx_up(4);
  xq_tclient c;
  xq_fx_connect(&c, ts.arbiter);
  char *batch = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&batch, &len);
  /* depth 7 from the start runs for minutes: these stay queued */
  for (int i = 1; i <= XQ_ENGINE_JOBS_PER_CONN + 1; i++) fprintf(f, "{\"id\":%d,\"op\":\"perft\",\"depth\":7}\n", i);
  fclose(f);
  xq_tc_send_raw(&c, batch, len);
  free(batch);
  cJSON *r = xq_tc_json(&c, 5000);
  cr_assert(r);
  const cJSON *e = xq_tc_expect_error(r, "BUSY");
  cr_assert(strstr(xq_tj_str(e, "msg"), "this connection"), "%s", xq_tj_str(e, "msg"));
  cr_assert_eq(xq_tj_num(r, "id"), XQ_ENGINE_JOBS_PER_CONN + 1);
  cJSON_Delete(r);
  /* the connection still serves other requests meanwhile */
  r = xq_tc_callf(&c, "{\"id\":99,\"op\":\"validate_fen\",\"fen\":\"%s\"}", XQ_START_FEN);
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "id"), 99);
  cJSON_Delete(r);
  /* another client is not limited by the first one's jobs */
  xq_tclient d;
  xq_fx_connect(&d, ts.admin);
  r = xq_tc_callf(&d, "{\"id\":1,\"op\":\"perft\",\"depth\":1}");
  cr_assert_eq(xq_tj_num(r, "nodes"), 44);
  cJSON_Delete(r);
  xq_tc_close(&d);
  /* leave with four jobs running: they stop, nobody is answered */
  xq_tc_close(&c);
  xq_tc_spin(&ts.loop, 50);
  xq_fx_down();
}

/* Send `n` perfts of depth 7 from the start (some 2e11 leaves: minutes of
 * work on any machine) with ids from `id`. */
static void deep_perfts(xq_tclient *c, int id, int n)
{
  for (int i = 0; i < n; i++) {
    char line[64];
    snprintf(line, sizeof line, "{\"id\":%d,\"op\":\"perft\",\"depth\":7}", id + i);
    xq_tc_send(c, line);
  }
}

/* Run the loop until the engine jobs of role `role` (-1: all) number
 * `n` (the fixture's timeout ends the test otherwise). */
typedef struct engine_jobs {
  int role, n;
} engine_jobs;
static int engine_jobs_are(void *a)
{
  const engine_jobs *w = a;
  return xq__jobs_count(ts.srv, XQ__LANE_ENGINE, NULL, w->role) == w->n;
}
static void wait_engine_jobs(int role, int n)
{
  engine_jobs w = {role, n};
  cr_assert(xq_tc_run_until(&ts.loop, engine_jobs_are, &w, 30000), "%d engine jobs of role %d (%d now)", n, role,
            xq__jobs_count(ts.srv, XQ__LANE_ENGINE, NULL, role));
}

static int engine_lane_full(void *a)
{
  (void)a;
  return xq__jobs_running(ts.srv, XQ__LANE_ENGINE) == XQ_ENGINE_RUNNING_MAX;
}

/* Engine jobs run in a lane of their own (jobs.c): with every engine slot
 * taken by perfts that run for minutes and more of them waiting, an
 * admin's results, pair and publish and a board's move are answered while
 * no perft has answered. Depth 7 from the start is some 2e11 leaves: the
 * perfts cannot finish during the test on any machine, so the order of
 * the replies, not a clock, is what is checked. */
Test(engine, jobs_never_hold_the_organiser, .timeout = 60)
{
  xq_fx_up(8);
  xq_tclient x, y, b, adm;
  xq_fx_connect(&x, ts.arbiter);
  xq_fx_connect(&y, ts.admin);
  xq_fx_connect(&b, ts.board[0]);
  xq_fx_connect(&adm, ts.admin);
  deep_perfts(&x, 1, XQ_ENGINE_JOBS_PER_CONN);
  deep_perfts(&y, 1, XQ_ENGINE_JOBS_PER_CONN);
  cr_assert(xq_tc_run_until(&ts.loop, engine_lane_full, NULL, 30000), "the engine lane fills");
  wait_engine_jobs(-1, 2 * XQ_ENGINE_JOBS_PER_CONN);
  xq_tc_okf(&b, "{\"id\":1,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  finish_round(&adm, 1, ts.nboards);
  cJSON *r = xq_tc_callf(&adm, "{\"id\":2,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "round"), 2);
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "published")));
  cJSON_Delete(r);
  /* the perfts held the engine lane all along, and not one has answered */
  cr_assert_eq(xq__jobs_running(ts.srv, XQ__LANE_ENGINE), XQ_ENGINE_RUNNING_MAX);
  cr_assert_eq(xq__jobs_count(ts.srv, XQ__LANE_ENGINE, NULL, -1), 2 * XQ_ENGINE_JOBS_PER_CONN);
  char *early = xq_tc_line(&x, 0);
  cr_assert_null(early, "no perft reply yet: %s", early);
  early = xq_tc_line(&y, 0);
  cr_assert_null(early, "no perft reply yet: %s", early);
  xq_tc_close(&x);
  xq_tc_close(&y);
  xq_tc_close(&b);
  xq_tc_close(&adm);
  xq_fx_down();
}

static int conns_are(void *a) { return ts.srv->nconns == *(int *)a; }

/* The caps of the engine lane (netlimits.h): per connection, per role
 * over every session, a board's one job; a role's cap leaves the others
 * alone, and the waiting jobs of a client that left count no more. */
Test(engine, caps_per_connection_and_per_role, .timeout = 60)
{
  xq_fx_up(8);
  enum { ARBS = XQ_ENGINE_JOBS_ARBITER / XQ_ENGINE_JOBS_PER_CONN };
  xq_tclient adm, arb[ARBS + 1], b;
  xq_fx_connect(&adm, ts.admin);
  for (int i = 0; i <= ARBS; i++) xq_fx_connect(&arb[i], ts.arbiter);
  xq_fx_connect(&b, ts.board[0]);
  /* an admin's perft and the first arbiter's take both slots ... */
  deep_perfts(&adm, 1, 1);
  deep_perfts(&arb[0], 1, XQ_ENGINE_JOBS_PER_CONN);
  cr_assert(xq_tc_run_until(&ts.loop, engine_lane_full, NULL, 30000), "the engine lane fills");
  /* ... and the other arbiters' wait: the role's cap is reached */
  for (int i = 1; i < ARBS; i++) deep_perfts(&arb[i], 1, XQ_ENGINE_JOBS_PER_CONN);
  wait_engine_jobs(XQ_ROLE_ARBITER, XQ_ENGINE_JOBS_ARBITER);
  cJSON *r = xq_tc_callf(&arb[0], "{\"id\":9,\"op\":\"adjudicate\",\"moves\":\"h2e2\"}");
  const cJSON *e = xq_tc_expect_error(r, "BUSY");
  cr_assert(strstr(xq_tj_str(e, "msg"), "this connection has"), "%s", xq_tj_str(e, "msg"));
  cJSON_Delete(r);
  r = xq_tc_callf(&arb[ARBS], "{\"id\":1,\"op\":\"perft\",\"depth\":7}");
  e = xq_tc_expect_error(r, "BUSY");
  cr_assert(strstr(xq_tj_str(e, "msg"), "the arbiter sessions have"), "%s", xq_tj_str(e, "msg"));
  cJSON_Delete(r);
  /* the admins' own cap is apart: a second admin job is taken */
  deep_perfts(&adm, 2, 1);
  wait_engine_jobs(XQ_ROLE_ADMIN, 2);
  /* a board: one adjudicate at a time (no perft: security suite) */
  xq_tc_send(&b, "{\"id\":1,\"op\":\"adjudicate\",\"moves\":\"h2e2 h9g7\"}");
  wait_engine_jobs(XQ_ROLE_BOARD, 1);
  r = xq_tc_callf(&b, "{\"id\":2,\"op\":\"adjudicate\",\"moves\":\"h2e2\"}");
  e = xq_tc_expect_error(r, "BUSY");
  cr_assert(strstr(xq_tj_str(e, "msg"), "the most for a board session"), "%s", xq_tj_str(e, "msg"));
  cJSON_Delete(r);
  /* the last arbiter with waiting jobs only leaves: they count no more */
  int left = ts.srv->nconns - 1;
  xq_tc_close(&arb[ARBS - 1]);
  cr_assert(xq_tc_run_until(&ts.loop, conns_are, &left, 30000), "the server saw the close");
  xq_tc_send(&arb[ARBS], "{\"id\":2,\"op\":\"perft\",\"depth\":7}");
  wait_engine_jobs(XQ_ROLE_ARBITER, XQ_ENGINE_JOBS_ARBITER - XQ_ENGINE_JOBS_PER_CONN + 1);
  /* nobody was answered but by the refusals */
  char *line = xq_tc_line(&adm, 0);
  cr_assert_null(line, "%s", line);
  line = xq_tc_line(&arb[ARBS], 0);
  cr_assert_null(line, "%s", line);
  xq_tc_close(&b);
  for (int i = 0; i <= ARBS; i++)
    if (i != ARBS - 1) xq_tc_close(&arb[i]);
  xq_tc_close(&adm);
  xq_fx_down();
}

/* The adjudicator's own answer for a list, as the server should give it. */
static void judge_here(const char *ruleset, const char *fen, const char *const *moves, int n, xq_game *g,
                       xq_verdict *last)
{
  xq_rules rules;
  cr_assert_eq(xq_rules_preset(ruleset, &rules), XQ_OK);
  cr_assert_eq(xq_game_init(g, &rules, fen, NULL), XQ_OK);
  for (int i = 0; i < n && g->result == XQ_OUT_NONE; i++)
    cr_assert_eq(xq_game_move_text(g, moves[i], 0, last, NULL), XQ_OK);
}

Test(engine, adjudicate)
{
  xq_fx_up(4);
  xq_tclient c;
  xq_fx_connect(&c, ts.arbiter);
  xq_game *g = malloc(sizeof *g);
  xq_verdict v;

  /* a mate in one: the rook closes the back rank */
  const char *mate_fen = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1";
  const char *mate[] = {"b7b9", "e9e8"};
  judge_here("cxa2011", mate_fen, mate, 1, g, &v);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"adjudicate\",\"fen\":\"%s\",\"moves\":[\"b7b9\",\"e9e8\"]}", mate_fen);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "result"), "red_wins");
  cr_assert_str_eq(xq_tj_str(r, "result"), xq_outcome_name(g->result));
  cr_assert_str_eq(xq_tj_str(r, "reason"), "checkmate");
  cr_assert_eq(xq_tj_num(r, "ply"), 0, "decided by the first move");
  cr_assert_eq(xq_tj_num(r, "unplayed"), 1, "the move after the mate is not played");
  cr_assert_str_eq(xq_tj_str(r, "rules"), "cxa2011");
  const cJSON *vj = xq_tj_get(r, "verdict");
  cr_assert_str_eq(xq_tj_str(vj, "verdict"), xq_verdict_kind_name(v.kind));
  cr_assert_str_eq(xq_tj_str(vj, "verdict"), "mate");
  cJSON_Delete(r);

  /* a unilateral perpetual check loses (a case of the rules suite) */
  FILE *f = fopen(XQ_TEST_DATA "/rules/cxa_check_cases.jsonl", "r");
  cr_assert(f);
  char *line = NULL;
  size_t cap = 0;
  cr_assert(getline(&line, &cap, f) > 0);
  fclose(f);
  cJSON *cs = cJSON_Parse(line);
  free(line);
  const char *fen = xq_tj_str(cs, "fen"), *rs = xq_tj_str(cs, "ruleset"), *expect = xq_tj_str(cs, "expect");
  const cJSON *mv = xq_tj_get(cs, "moves");
  int n = cJSON_GetArraySize(mv);
  const char **moves = calloc((size_t)n, sizeof *moves);
  for (int i = 0; i < n; i++) moves[i] = cJSON_GetArrayItem(mv, i)->valuestring;
  judge_here(rs, fen, moves, n, g, &v);
  char *mtext = cJSON_PrintUnformatted(mv);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"adjudicate\",\"fen\":\"%s\",\"moves\":%s,\"ruleset\":\"%s\"}", fen, mtext, rs);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "result"), expect);
  cr_assert_str_eq(xq_tj_str(r, "reason"), xq_reason_name(g->result_reason));
  cr_assert_str_eq(xq_tj_str(r, "reason"), "perpetual_check");
  cr_assert_eq(xq_tj_num(r, "plies"), g->nply);
  cr_assert_str_eq(xq_tj_str(xq_tj_get(r, "verdict"), "verdict"), xq_verdict_kind_name(v.kind));
  cJSON_Delete(r);
  /* the ruleset as a rules object; names are case-insensitive */
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"adjudicate\",\"fen\":\"%s\",\"moves\":%s,\"ruleset\":{\"preset\":\"axf\"}}", fen, mtext);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "rules"), "axf");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"adjudicate\",\"moves\":[],\"ruleset\":\"CXA2011\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "result"), "ongoing");
  cr_assert(cJSON_IsNull(xq_tj_get(r, "verdict")));
  cr_assert(cJSON_IsNull(xq_tj_get(r, "ply")));
  cJSON_Delete(r);
  free(mtext);
  free(moves);
  cJSON_Delete(cs);

  /* an illegal move is judged (a foul), not an error: the game goes on */
  const char *foul[] = {"h2h8", "h2e2"};
  judge_here("cxa2011", NULL, foul, 2, g, &v);
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"adjudicate\",\"moves\":[\"h2h8\",\"h2e2\"]}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "result"), xq_outcome_name(g->result));
  vj = xq_tj_get(r, "verdict");
  cr_assert_str_neq(xq_tj_str(vj, "verdict"), "accepted", "the illegal move's verdict is the one shown");
  cr_assert_eq(xq_tj_num(vj, "index"), 0);
  cr_assert_eq(xq_tj_num(r, "plies"), g->nply);
  cJSON_Delete(r);

  /* events of the judge's language: Black resigns after one move */
  r = xq_tc_callf(&c, "{\"id\":51,\"op\":\"adjudicate\",\"moves\":\"h2e2 resign\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "result"), "red_wins");
  cr_assert_str_eq(xq_tj_str(r, "reason"), xq_reason_name(XQ_REASON_RESIGNATION));
  cr_assert_eq(xq_tj_num(r, "ply"), 1);
  cr_assert_eq(xq_tj_num(r, "plies"), 1);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":6,\"op\":\"adjudicate\",\"moves\":[\"h2e2\",\"nonsense\"]}");
  cr_assert_eq(xq_tj_num(xq_tc_expect_error(r, "BAD_NOTATION"), "ply"), 1);
  cJSON_Delete(r);
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":7,\"op\":\"adjudicate\",\"moves\":[],\"ruleset\":\"fide\"}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":8,\"op\":\"adjudicate\",\"moves\":[],\"ruleset\":{\"no_such_key\":1}}");
  xq_tc_errf(&c, "BAD_FEN", "{\"id\":9,\"op\":\"adjudicate\",\"fen\":\"4k4/9 w\"}");
  /* a job whose client leaves before it is done */
  xq_tc_send(&c, "{\"id\":10,\"op\":\"adjudicate\",\"moves\":\"h2e2 h9g7 h0g2 i9h9\"}");
  free(g);
  xq_tc_close(&c);
  xq_tc_spin(&ts.loop, 20);
  xq_fx_down();
}

/* ================================================================== */
/* Organisers                                                          */
/* ================================================================== */

/* The event as the store holds it, read here through a second connection. */
static xq_tournament *store_event(xq_tstore **st)
{
  *st = xq_test_store_open(ts.db);
  return xq_test_store_load(*st);
}

Test(tourney, roles)
{
  xq_fx_up(8);
  xq_tclient anon, board, arb;
  xq_fx_connect(&anon, NULL);
  xq_fx_connect(&board, ts.board[0]);
  xq_fx_connect(&arb, ts.arbiter);
  xq_tc_errf(&anon, "AUTH_REQUIRED", "{\"id\":1,\"op\":\"add_player\",\"player\":{\"name\":\"X\"}}");
  xq_tc_okf(&anon, "{\"id\":2,\"op\":\"event\"}");
  xq_tc_errf(&anon, "AUTH_REQUIRED", "{\"id\":3,\"op\":\"export\"}");
  static const char *const admin_only[] = {
    "{\"id\":4,\"op\":\"add_player\",\"player\":{\"name\":\"X\"}}", "{\"id\":5,\"op\":\"pair\"}",
    "{\"id\":6,\"op\":\"token\",\"role\":\"viewer\"}", "{\"id\":7,\"op\":\"tokens\"}",
    "{\"id\":8,\"op\":\"revoke\",\"token\":\"00000000000000000000000000000000\"}",
    "{\"id\":9,\"op\":\"unpair\",\"round\":1}",
  };
  for (size_t i = 0; i < sizeof admin_only / sizeof admin_only[0]; i++) {
    xq_tc_errf(&board, "FORBIDDEN", "%s", admin_only[i]);
    xq_tc_errf(&arb, "FORBIDDEN", "%s", admin_only[i]);
  }
  static const char *const staff[] = {
    "{\"id\":9,\"op\":\"export\"}", "{\"id\":10,\"op\":\"withdraw\",\"player\":1,\"round\":6}",
    "{\"id\":11,\"op\":\"absent\",\"player\":2,\"round\":6}",
  };
  for (size_t i = 0; i < sizeof staff / sizeof staff[0]; i++) {
    xq_tc_errf(&board, "FORBIDDEN", "%s", staff[i]);
    xq_tc_okf(&arb, "%s", staff[i]);
  }
  /* anyone reads */
  xq_tc_okf(&board, "{\"id\":12,\"op\":\"standings\"}");
  xq_tc_okf(&anon, "{\"id\":13,\"op\":\"pairings\",\"round\":1}");
  xq_tc_close(&anon);
  xq_tc_close(&board);
  xq_tc_close(&arb);
  xq_fx_down();
}

Test(tourney, event_players_add_player)
{
  xq_fx_up(8);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  xq_tstore *st;
  xq_tournament *ev = store_event(&st);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"event\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "name"), ev->name);
  cr_assert_eq(xq_tj_num(r, "players"), ev->n);
  cr_assert_eq(xq_tj_num(r, "paired"), ev->nrounds);
  cr_assert_eq(xq_tj_num(r, "rounds"), ev->cfg.rounds);
  cr_assert_eq(cJSON_IsTrue(xq_tj_get(r, "complete")), 0, "round 1 is being played");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"players\"}");
  xq_tc_expect_ok(r);
  const cJSON *a = xq_tj_get(r, "players");
  cr_assert_eq(cJSON_GetArraySize(a), ev->n);
  for (int id = 1; id <= ev->n; id++) {
    const cJSON *p = cJSON_GetArrayItem(a, id - 1);
    cr_assert_eq(xq_tj_num(p, "id"), id);
    cr_assert_eq(xq_tj_num(p, "no"), ev->players[id - 1].pno);
    cr_assert_str_eq(xq_tj_str(p, "name"), ev->players[id - 1].name);
    cr_assert_eq(xq_tj_num(p, "rating"), ev->players[id - 1].rating);
  }
  cJSON_Delete(r);
  int n0 = ev->n;
  xq_tournament_free(ev);
  xq_tstore_close(st);

  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"add_player\",\"player\":{\"name\":\"王天一\",\"rating\":2650,"
               "\"birth\":\"1988-11-03\",\"sex\":\"m\",\"region\":\"浙江\",\"club\":\"杭州\",\"local\":true}}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "player"), n0 + 1);
  cJSON_Delete(r);
  ev = store_event(&st);
  cr_assert_eq(ev->n, n0 + 1, "registered in the store");
  const xq_tplayer *p = &ev->players[n0];
  cr_assert_str_eq(p->name, "王天一");
  cr_assert_str_eq(p->birth, "1988/11/03");
  cr_assert_eq(p->rating, 2650);
  cr_assert_eq(p->sex, 'm');
  cr_assert_str_eq(p->region, "浙江");
  cr_assert_eq(p->local, 1);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"players\"}");
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "players")), n0 + 1, "the server's copy is reloaded");
  cJSON_Delete(r);

  static const char *const bad[] = {
    "{\"id\":5,\"op\":\"add_player\"}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":\"X\"}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":{\"rating\":1}}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":{\"name\":\"X\",\"sex\":\"x\"}}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":{\"name\":\"X\",\"rating\":\"high\"}}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":{\"name\":\"X\",\"rating\":12000}}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":{\"name\":\"X\",\"birth\":\"2001-02-30\"}}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":{\"name\":\"X\",\"elo\":2000}}",
    "{\"id\":5,\"op\":\"add_player\",\"player\":{\"name\":\"\"}}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) xq_tc_errf(&c, "BAD_REQUEST", "%s", bad[i]);
  ev = store_event(&st);
  cr_assert_eq(ev->n, n0 + 1, "nothing registered by the bad requests");
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_tc_close(&c);
  xq_fx_down();
}

/* Record a result on every board of round `round` (a draw on even tables). */
static void finish_round(xq_tclient *c, int round, int boards)
{
  for (int t = 1; t <= boards; t++) {
    xq_tc_okf(c, "{\"id\":%d,\"op\":\"result\",\"round\":%d,\"table\":%d,\"result\":\"%s\"}", 100 + t, round,
                 t, t % 2 ? "1-0" : "=");
  }
}

/* The next event named `name` the watcher `w` gets (the caller deletes it). */
static cJSON *next_event(xq_tclient *w, const char *name)
{
  for (int i = 0; i < 20; i++) {
    cJSON *e = xq_tc_json(w, 2000);
    cr_assert(e, "the watcher gets %s", name);
    if (xq_tj_str(e, "event") && !strcmp(xq_tj_str(e, "event"), name)) return e;
    cJSON_Delete(e);
  }
  cr_assert_fail("no %s event", name);
  return NULL;
}

/* unpair: a published round withdrawn while none of its games has begun
 * (its games taken down, its board tokens revoked, watchers told), paired
 * again; refused with the reason once a board has moved (issue 35). */
Test(tourney, unpair_a_round_until_a_game_of_it_begins)
{
  xq_fx_up(8);
  xq_tclient c, w, b;
  xq_fx_connect(&c, ts.admin);
  xq_fx_connect(&w, NULL);
  xq_tc_okf(&w, "{\"id\":1,\"op\":\"watch\"}");
  xq_tc_errf(&c, "CONFLICT", "{\"id\":1,\"op\":\"unpair\",\"round\":2}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":2,\"op\":\"unpair\"}");
  cJSON *r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"unpair\",\"round\":1}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "round"), 1);
  cJSON_Delete(r);
  cJSON *e = next_event(&w, "unpair");
  cr_assert_eq(xq_tj_num(e, "round"), 1);
  cJSON_Delete(e);
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"event\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "published")), 0, "round 1 is no longer published");
  cJSON_Delete(r);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":5,\"op\":\"pairings\",\"round\":1}");
  /* its board tokens open nothing */
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  xq_tc_errf(&b, "BAD_TOKEN", "{\"id\":1,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  xq_tc_close(&b);
  /* paired and published again */
  r = xq_tc_callf(&c, "{\"id\":6,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "round"), 1);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":7,\"op\":\"token\",\"role\":\"board\",\"round\":1,\"table\":2}");
  xq_tc_expect_ok(r);
  char tok[64];
  snprintf(tok, sizeof tok, "%s", xq_tj_str(r, "token"));
  cJSON_Delete(r);
  xq_fx_connect(&b, tok);
  xq_tc_okf(&b, "{\"id\":2,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  r = xq_tc_callf(&c, "{\"id\":8,\"op\":\"unpair\",\"round\":1}");
  const cJSON *er = xq_tc_expect_error(r, "CONFLICT");
  cr_assert(strstr(xq_tj_str(er, "msg"), "the game of round 1 table 2 has begun"), "the reason");
  cJSON_Delete(r);
  r = xq_tc_callf(&b, "{\"id\":3,\"op\":\"move\",\"seq\":2,\"move\":\"h9g7\"}");
  xq_tc_expect_ok(r);
  cJSON_Delete(r);
  xq_tc_close(&b);
  xq_tc_close(&w);
  xq_tc_close(&c);
  xq_fx_down();
}

/* The (red, black) ids of a boards array, as "r-b r-b ...". */
static void board_ids(const cJSON *boards, char *buf, size_t len)
{
  size_t k = 0;
  buf[0] = 0;
  for (const cJSON *b = boards->child; b; b = b->next) {
    const cJSON *bl = xq_tj_get(b, "black");
    k += (size_t)snprintf(buf + k, len - k, "%d-%d ", (int)xq_tj_num(xq_tj_get(b, "red"), "id"),
                          cJSON_IsNull(bl) ? 0 : (int)xq_tj_num(bl, "id"));
  }
}

Test(tourney, pair_publish_pairings)
{
  xq_fx_up(8);
  xq_tclient c, w;
  xq_fx_connect(&c, ts.admin);
  xq_fx_connect(&w, NULL);
  xq_tc_errf(&c, "CONFLICT", "{\"id\":1,\"op\":\"pair\"}");
  finish_round(&c, 1, ts.nboards);
  cJSON *r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"event\"}");
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "complete")), "round 1 has every result");
  cJSON_Delete(r);

  /* results as the store records them */
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"pairings\",\"round\":1}");
  xq_tc_expect_ok(r);
  const cJSON *b1 = xq_tj_get(r, "boards");
  cr_assert_eq(cJSON_GetArraySize(b1), ts.nboards);
  for (int t = 1; t <= ts.nboards; t++)
    cr_assert_str_eq(xq_tj_str(cJSON_GetArrayItem(b1, t - 1), "result"), t % 2 ? "1-0" : "=");
  cJSON_Delete(r);

  /* a preview, in either system */
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"pair\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "round"), 2);
  cr_assert_eq(cJSON_IsTrue(xq_tj_get(r, "published")), 0);
  cr_assert_str_eq(xq_tj_str(r, "system"), "cn");
  char preview[256], published[256], listed[256];
  board_ids(xq_tj_get(r, "boards"), preview, sizeof preview);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 4);
  cJSON_Delete(r);
  /* the same pairing computed here from the store */
  xq_tstore *st;
  xq_tournament *ev = store_event(&st);
  xq_assign_pnos(ev);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_cn(ev, 2, &pr, NULL), XQ_OK);
  char here[256];
  size_t k = 0;
  for (int b = 0; b < pr.nboards; b++) k += (size_t)snprintf(here + k, sizeof here - k, "%d-%d ", pr.boards[b].red, pr.boards[b].black);
  cr_assert_str_eq(preview, here);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"pair\",\"system\":\"dutch\"}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "system"), "dutch");
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 4);
  cJSON_Delete(r);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":6,\"op\":\"pairings\",\"round\":2}");
  xq_tc_errf(&c, "CONFLICT", "{\"id\":7,\"op\":\"pair\",\"round\":3}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":8,\"op\":\"pair\",\"system\":\"swiss\"}");

  /* publish: stored, its games start, and watchers hear of it */
  xq_tc_okf(&w, "{\"id\":1,\"op\":\"watch\"}");
  r = xq_tc_callf(&c, "{\"id\":9,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  cr_assert(cJSON_IsTrue(xq_tj_get(r, "published")));
  board_ids(xq_tj_get(r, "boards"), published, sizeof published);
  cr_assert_str_eq(published, preview);
  cJSON_Delete(r);
  cJSON *evt = NULL;
  for (int i = 0; i < 20 && !evt; i++) {
    cJSON *e = xq_tc_json(&w, 2000);
    cr_assert(e, "the watcher gets the pairing");
    if (xq_tj_str(e, "event") && !strcmp(xq_tj_str(e, "event"), "pairing")) evt = e;
    else cJSON_Delete(e);
  }
  cr_assert_eq(xq_tj_num(evt, "round"), 2);
  board_ids(xq_tj_get(xq_tj_get(evt, "data"), "boards"), listed, sizeof listed);
  cr_assert_str_eq(listed, preview);
  cJSON_Delete(evt);
  r = xq_tc_callf(&c, "{\"id\":10,\"op\":\"pairings\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "round"), 2, "the last paired round by default");
  board_ids(xq_tj_get(r, "boards"), listed, sizeof listed);
  cr_assert_str_eq(listed, preview);
  cr_assert(cJSON_IsNull(xq_tj_get(cJSON_GetArrayItem(xq_tj_get(r, "boards"), 0), "result")), "not played yet");
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":11,\"op\":\"game\",\"round\":2,\"table\":1}");
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "state"), "playing");
  cJSON_Delete(r);
  ev = store_event(&st);
  cr_assert_eq(ev->nrounds, 2, "round 2 is in the store");
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_tc_errf(&c, "CONFLICT", "{\"id\":12,\"op\":\"pair\",\"publish\":true}");
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":13,\"op\":\"pairings\",\"round\":7}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":14,\"op\":\"pairings\",\"round\":\"one\"}");
  xq_tc_close(&w);
  xq_tc_close(&c);
  xq_fx_down();
}

/* Send export request `req` and check the reply: its text equals what
 * the tourney module writes for `ev` (TRF, or the pairing sheet of `pr`,
 * or the standings after round 1), its format and `what` fields. */
static void expect_export(xq_tclient *c, const char *req, const xq_tournament *ev, const xq_tpairing *pr, int format,
                          int lang, const char *what)
{
  static const char *const names[] = {"trf", "csv", "html", "text"};
  char *want = NULL;
  size_t wlen = 0;
  FILE *f = open_memstream(&want, &wlen);
  cr_assert_not_null(f);
  int rc = format == XQ_SHEET_TRF ? xq_trf_write(ev, f)
         : pr ? xq_sheet_pairings(ev, pr, format, lang, f)
         : xq_sheet_standings(ev, 1, format, lang, f);
  cr_assert_eq(rc, XQ_OK);
  fclose(f);
  cJSON *r = xq_tc_call(c, req);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "text"), want, "%s", req);
  cr_assert_str_eq(xq_tj_str(r, "format"), names[format], "%s", req);
  cr_assert_str_eq(xq_tj_str(r, "what"), what, "%s", req);
  cJSON_Delete(r);
  free(want);
}

Test(tourney, standings_and_exports)
{
  xq_fx_up(8);
  xq_tclient c;
  xq_fx_connect(&c, ts.arbiter);
  finish_round(&c, 1, ts.nboards);
  xq_tstore *st;
  xq_tournament *ev = store_event(&st);
  xq_tstanding *s = calloc((size_t)ev->n, sizeof *s);
  cr_assert_eq(xq_standings(ev, 1, s), XQ_OK);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"standings\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "round"), 1);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "tiebreaks")), ev->cfg.ntb);
  const cJSON *a = xq_tj_get(r, "standings");
  cr_assert_eq(cJSON_GetArraySize(a), ev->n);
  for (int i = 0; i < ev->n; i++) {
    const cJSON *q = cJSON_GetArrayItem(a, i);
    cr_assert_eq(xq_tj_num(q, "rank"), s[i].rank);
    cr_assert_eq(xq_tj_num(q, "id"), s[i].id);
    cr_assert_eq(xq_tj_num(q, "points") * 2, xq_tournament_points(ev, s[i].id, 1));
    cr_assert_eq(xq_tj_num(q, "wins"), s[i].wins);
    cr_assert_eq(cJSON_GetArraySize(xq_tj_get(q, "values")), ev->cfg.ntb);
  }
  /* the winner of board 1 has a win's points */
  cr_assert_eq(xq_tj_num(cJSON_GetArrayItem(a, 0), "points") * 2, ev->cfg.win);
  cJSON_Delete(r);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":2,\"op\":\"standings\",\"round\":2}");

  /* exports equal the tourney module's writers on the stored event */
  xq_tpairing pr = {0};
  cr_assert_eq(xq_tstore_pairing(st, 1, &pr, NULL), XQ_OK);
  expect_export(&c, "{\"id\":3,\"op\":\"export\",\"format\":\"trf\"}", ev, NULL, XQ_SHEET_TRF, XQ_LANG_EN, "event");
  expect_export(&c, "{\"id\":4,\"op\":\"export\",\"format\":\"csv\",\"what\":\"standings\",\"lang\":\"zh\"}", ev, NULL,
                XQ_SHEET_CSV, XQ_LANG_ZH, "standings");
  expect_export(&c, "{\"id\":5,\"op\":\"export\",\"format\":\"html\",\"what\":\"pairings\",\"round\":1}", ev, &pr,
                XQ_SHEET_HTML, XQ_LANG_EN, "pairings");
  /* text sheets, the kind the command line prints */
  expect_export(&c, "{\"id\":5,\"op\":\"export\",\"format\":\"text\",\"what\":\"pairings\",\"round\":1,\"lang\":\"zh\"}",
                ev, &pr, XQ_SHEET_TEXT, XQ_LANG_ZH, "pairings");
  expect_export(&c, "{\"id\":5,\"op\":\"export\",\"format\":\"text\",\"round\":1}", ev, NULL, XQ_SHEET_TEXT, XQ_LANG_EN,
                "standings");
  xq_tpairing_clear(&pr);
  static const char *const bad[] = {
    "{\"id\":6,\"op\":\"export\",\"format\":\"pdf\"}",
    "{\"id\":6,\"op\":\"export\",\"format\":\"csv\",\"what\":\"players\"}",
    "{\"id\":6,\"op\":\"export\",\"format\":\"csv\",\"lang\":\"fr\"}",
    "{\"id\":6,\"op\":\"export\",\"format\":\"trf\",\"what\":\"pairings\"}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) xq_tc_errf(&c, "BAD_REQUEST", "%s", bad[i]);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":7,\"op\":\"export\",\"format\":\"csv\",\"what\":\"pairings\",\"round\":4}");
  free(s);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_tc_close(&c);
  xq_fx_down();
}

/* The number (序号) of player `id`, from the players op. */
static int number_of(xq_tclient *c, int id)
{
  cJSON *r = xq_tc_callf(c, "{\"id\":\"no\",\"op\":\"players\"}");
  int no = (int)xq_tj_num(cJSON_GetArrayItem(xq_tj_get(r, "players"), id - 1), "no");
  cJSON_Delete(r);
  cr_assert_gt(no, 0, "player %d has a number", id);
  return no;
}

Test(tourney, withdraw_absent)
{
  xq_fx_up(8);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  /* players are named by their number, as the sheets print it */
  int three = number_of(&c, 3), four = number_of(&c, 4);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":1,\"op\":\"withdraw\",\"player\":99,\"round\":2}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":2,\"op\":\"withdraw\",\"player\":\"3\"}");
  /* without a round: from the next one to pair */
  cJSON *r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"withdraw\",\"player\":%d}", three);
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "player"), three);
  cr_assert_eq(xq_tj_num(r, "registration"), 3);
  cr_assert_eq(xq_tj_num(r, "round"), 2);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":4,\"op\":\"players\"}");
  cr_assert_eq(xq_tj_num(cJSON_GetArrayItem(xq_tj_get(r, "players"), 2), "withdrawn"), 2);
  cJSON_Delete(r);
  xq_tc_errf(&c, "CONFLICT", "{\"id\":5,\"op\":\"absent\",\"player\":%d,\"round\":1}", four);
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":6,\"op\":\"absent\",\"player\":%d,\"round\":2,\"bye\":\"quarter\"}", four);
  r = xq_tc_callf(&c, "{\"id\":7,\"op\":\"absent\",\"player\":%d,\"round\":2,\"bye\":\"half\"}", four);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "bye"), "half");
  cr_assert_eq(xq_tj_num(r, "registration"), 4);
  cJSON_Delete(r);
  /* neither is paired in round 2, by either system */
  finish_round(&c, 1, ts.nboards);
  r = xq_tc_callf(&c, "{\"id\":8,\"op\":\"pair\",\"system\":\"dutch\"}");
  xq_tc_expect_ok(r);
  cr_assert_eq(cJSON_GetArraySize(xq_tj_get(r, "boards")), 3, "six players left: three boards");
  for (const cJSON *b = xq_tj_get(r, "boards")->child; b; b = b->next) {
    int red = (int)xq_tj_num(xq_tj_get(b, "red"), "id"), black = (int)xq_tj_num(xq_tj_get(b, "black"), "id");
    cr_assert(red != 3 && red != 4 && black != 3 && black != 4);
  }
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":8,\"op\":\"pair\",\"publish\":true}");
  xq_tc_expect_ok(r);
  const cJSON *boards = xq_tj_get(r, "boards");
  cr_assert_eq(cJSON_GetArraySize(boards), 3, "six players left: three boards");
  for (const cJSON *b = boards->child; b; b = b->next) {
    int red = (int)xq_tj_num(xq_tj_get(b, "red"), "id"), black = (int)xq_tj_num(xq_tj_get(b, "black"), "id");
    cr_assert(red != 3 && red != 4 && black != 3 && black != 4);
  }
  cJSON_Delete(r);
  xq_tstore *st;
  xq_tournament *ev = store_event(&st);
  cr_assert_eq(xq_tournament_slot(ev, 4, 2)->res, XQ_TR_HPB, "the half-point bye is stored");
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_tc_close(&c);
  xq_fx_down();
}

Test(tourney, tokens)
{
  xq_fx_up(8);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"token\",\"role\":\"board\",\"round\":1,\"table\":2,\"label\":\"spare table 2\"}");
  xq_tc_expect_ok(r);
  char tok[64];
  snprintf(tok, sizeof tok, "%s", xq_tj_str(r, "token"));
  cr_assert_eq(strlen(tok), XQ_TOKEN_CHARS);
  cr_assert_str_eq(xq_tj_str(r, "role"), "board");
  cr_assert_eq(xq_tj_num(r, "table"), 2);
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"tokens\"}");
  xq_tc_expect_ok(r);
  int found = 0, admins = 0;
  /* listed by the prefix of its SHA-256, never in clear (security.md) */
  char hash[XQ_TOKEN_HASH_CHARS + 1];
  xq_sha256_hex(tok, XQ_TOKEN_CHARS, hash);
  hash[XQ_TOKEN_PREFIX_CHARS] = 0;
  for (const cJSON *t = xq_tj_get(r, "tokens")->child; t; t = t->next) {
    cr_assert_null(xq_tj_get(t, "token"), "no token text in the list");
    if (!strcmp(xq_tj_str(t, "hash"), hash)) found = !strcmp(xq_tj_str(t, "label"), "spare table 2");
    admins += !strcmp(xq_tj_str(t, "role"), "admin");
  }
  cr_assert(found, "the new token is listed with its label");
  cr_assert_eq(admins, 1);
  cJSON_Delete(r);
  /* it opens a board session at once */
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  r = xq_tc_callf(&b, "{\"id\":1,\"op\":\"hello\",\"token\":\"%s\"}", tok);
  xq_tc_expect_ok(r);
  cr_assert_eq(xq_tj_num(r, "table"), 2);
  cJSON_Delete(r);
  xq_tc_close(&b);
  xq_tc_okf(&c, "{\"id\":3,\"op\":\"revoke\",\"token\":\"%s\"}", tok);
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  xq_tc_errf(&b, "BAD_TOKEN", "{\"id\":1,\"op\":\"hello\",\"token\":\"%s\"}", tok);
  xq_tc_close(&b);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":4,\"op\":\"revoke\",\"token\":\"%s\"}", tok);
  xq_tc_errf(&c, "CONFLICT", "{\"id\":5,\"op\":\"revoke\",\"token\":\"%s\"}", ts.admin);
  static const char *const bad[] = {
    "{\"id\":6,\"op\":\"token\",\"role\":\"king\"}",
    "{\"id\":6,\"op\":\"token\"}",
    "{\"id\":6,\"op\":\"token\",\"role\":\"board\",\"round\":1}",
    "{\"id\":6,\"op\":\"token\",\"role\":\"viewer\",\"round\":1,\"table\":1}",
    "{\"id\":6,\"op\":\"revoke\",\"token\":\"ABC\"}",
    "{\"id\":6,\"op\":\"revoke\"}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) xq_tc_errf(&c, "BAD_REQUEST", "%s", bad[i]);
  /* a second admin may be made, and then the first revoked */
  xq_tc_okf(&c, "{\"id\":7,\"op\":\"token\",\"role\":\"admin\"}");
  xq_tc_okf(&c, "{\"id\":8,\"op\":\"revoke\",\"token\":\"%s\"}", ts.admin);
  xq_tc_close(&c);
  xq_fx_down();
}

/* Threads of libuv's pool held by the test (see writes_between_commits). */
static int release_pool;
static void hold_thread(uv_work_t *w)
{
  (void)w;
  while (!__atomic_load_n(&release_pool, __ATOMIC_ACQUIRE)) usleep(1000);
}
static int held_pending; /* requests queued whose done callback has not run */
static void held_done(uv_work_t *w, int status)
{
  (void)w;
  (void)status;
  held_pending--;
}

/* Run the loop until every held request is done: a uv_work_t is queued
 * again, or freed, only then (its done callback runs on a later turn of
 * the loop than the thread's return). */
static void held_drain(void)
{
  for (int k = 0; k < 1000000 && held_pending > 0; k++) uv_run(&ts.loop, UV_RUN_NOWAIT);
  cr_assert_eq(held_pending, 0, "the held requests are done");
}

/* Writes to the store while a group commit is under way: they wait for
 * it, every reply comes in request order, and every write lands. The
 * commit is an arbiter's foul on another connection. To hold it
 * deterministically, the test occupies every thread of libuv's pool
 * (shared by the whole process) before the commit starts, so the commit
 * stays queued until the test lets the threads go. */
Test(tourney, writes_between_commits)
{
  xq_fx_up(8);
  xq_tclient c, arb;
  xq_fx_connect(&c, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);
  const char *env = getenv("UV_THREADPOOL_SIZE");
  int threads = env && atoi(env) > 0 ? atoi(env) : 4;
  uv_work_t *held = calloc((size_t)threads, sizeof *held);
  int id = 1;
  for (int i = 0; i < 6; i++) {
    char line[512];
    int hold = i % 2 == 0;
    if (hold) {
      held_drain();
      __atomic_store_n(&release_pool, 0, __ATOMIC_RELEASE);
      for (int k = 0; k < threads; k++) {
        cr_assert_eq(uv_queue_work(&ts.loop, &held[k], hold_thread, held_done), 0);
        held_pending++;
      }
    }
    /* an arbiter's foul is a game-log row: it starts a group commit */
    snprintf(line, sizeof line, "{\"id\":%d,\"op\":\"foul\",\"round\":1,\"table\":%d,\"side\":\"%s\"}\n", id,
             i % 4 + 1, i % 2 ? "black" : "red");
    xq_tc_send_raw(&arb, line, strlen(line));
    if (hold) {
      for (int k = 0; k < 100000 && xq__commit_idle(ts.srv); k++) uv_run(&ts.loop, UV_RUN_NOWAIT);
      cr_assert(!xq__commit_idle(ts.srv), "the foul's commit is under way");
    }
    snprintf(line, sizeof line,
             "{\"id\":%d,\"op\":\"add_player\",\"player\":{\"name\":\"P%d\"}}\n"
             "{\"id\":%d,\"op\":\"token\",\"role\":\"viewer\"}\n{\"id\":%d,\"op\":\"event\"}\n",
             id + 1, i, id + 2, id + 3);
    xq_tc_send_raw(&c, line, strlen(line));
    if (hold) {
      /* the commit cannot run: the writes wait for it (the event read
       * waits behind them) */
      char *early = xq_tc_line(&c, 100);
      cr_assert_null(early, "no reply before the commit: %s", early);
      cr_assert(!xq__commit_idle(ts.srv));
      __atomic_store_n(&release_pool, 1, __ATOMIC_RELEASE);
    }
    cJSON *r = xq_tc_json(&arb, 5000);
    cr_assert(r);
    xq_tc_expect_ok(r);
    cJSON_Delete(r);
    for (int k = 1; k < 4; k++) {
      r = xq_tc_json(&c, 5000);
      cr_assert(r, "reply %d", id + k);
      xq_tc_expect_ok(r);
      cr_assert_eq(xq_tj_num(r, "id"), id + k, "replies in request order");
      if (k == 3) cr_assert_eq(xq_tj_num(r, "players"), 8 + i + 1);
      cJSON_Delete(r);
    }
    id += 4;
  }
  held_drain();
  free(held);
  xq_tstore *st;
  xq_tournament *ev = store_event(&st);
  cr_assert_eq(ev->n, 14);
  xq_ttoken *t = NULL;
  int n = 0;
  cr_assert_eq(xq_tstore_tokens(st, &t, &n, NULL), XQ_OK);
  int viewers = 0;
  for (int i = 0; i < n; i++) viewers += t[i].role == XQ_ROLE_VIEWER;
  cr_assert_eq(viewers, 6);
  free(t);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_tc_close(&arb);
  xq_tc_close(&c);
  xq_fx_down();
}

Test(tourney, pair_with_the_arbiters_changes_warns_and_keeps_each_reason)
{
  xq_fx_up(8);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  finish_round(&c, 1, ts.nboards);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"pair\"}");
  xq_tc_expect_ok(r);
  const cJSON *b = xq_tj_get(r, "boards");
  int red1 = (int)xq_tj_num(xq_tj_get(cJSON_GetArrayItem(b, 0), "red"), "no");
  int black1 = (int)xq_tj_num(xq_tj_get(cJSON_GetArrayItem(b, 0), "black"), "no");
  int red2 = (int)xq_tj_num(xq_tj_get(cJSON_GetArrayItem(b, 1), "red"), "no");
  cr_assert_null(xq_tj_get(r, "warnings"), "no change, no warning list");
  cJSON_Delete(r);
  /* board 1's Red and board 2's Red trade places; board 1's colours swap */
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"pair\",\"changes\":[{\"swap\":[%d,%d],\"reason\":\"同单位回避\"},"
                  "{\"colours\":1,\"reason\":\"red three times\"}]}", red1, red2);
  xq_tc_expect_ok(r);
  b = xq_tj_get(r, "boards");
  cr_assert_eq(xq_tj_num(xq_tj_get(cJSON_GetArrayItem(b, 0), "red"), "no"), black1);
  cr_assert_eq(xq_tj_num(xq_tj_get(cJSON_GetArrayItem(b, 0), "black"), "no"), red2);
  cr_assert_eq(xq_tj_num(xq_tj_get(cJSON_GetArrayItem(b, 1), "red"), "no"), red1);
  cr_assert_eq(xq_tj_num(r, "changes"), 2);
  cr_assert(cJSON_IsArray(xq_tj_get(r, "warnings")));
  cJSON_Delete(r);
  /* what names nothing, or gives no reason, is refused */
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":3,\"op\":\"pair\",\"changes\":[{\"swap\":[1,999],\"reason\":\"x\"}]}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":4,\"op\":\"pair\",\"changes\":[{\"colours\":1}]}");
  /* published with them: the boards as changed, the reasons in the log */
  xq_tc_okf(&c, "{\"id\":5,\"op\":\"pair\",\"publish\":true,\"changes\":[{\"swap\":[%d,%d],\"reason\":\"同单位回避\"}]}",
                red1, red2);
  xq_tstore *st;
  xq_tournament *ev = store_event(&st);
  xq_tpairing pr = {0};
  xq_error err = {0};
  cr_assert_eq(xq_tstore_pairing(st, 2, &pr, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tplayer_no(ev, pr.boards[0].red), red2);
  cr_assert_eq(xq_tplayer_no(ev, pr.boards[1].red), red1);
  char *log = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&log, &len);
  cr_assert_eq(xq_tstore_dump(st, f), XQ_OK);
  fclose(f);
  cr_assert(strstr(log, "change 1 swap") && strstr(log, "reason=同单位回避"), "%s", log);
  free(log);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_tc_close(&c);
}

/* The address on the slips: a server listening on every address names
 * none of its own (a QR code of 0.0.0.0 sends no board anywhere): the
 * request's connect or the server's --board-address, else refused. */
Test(tourney, slips_never_print_a_wildcard_address)
{
  static const xq_ts_tuning any = {.listen = "0.0.0.0:0"};
  xq_fx_up_tuned(8, &any);
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  cJSON *r = xq_tc_callf(&c, "{\"id\":1,\"op\":\"slips\",\"round\":1}");
  cr_assert_str_eq(xq_tj_str(xq_tj_get(r, "error"), "code"), "BAD_REQUEST");
  cr_assert(strstr(xq_tj_str(xq_tj_get(r, "error"), "msg"), "listens on every address"));
  cJSON_Delete(r);
  r = xq_tc_callf(&c, "{\"id\":2,\"op\":\"slips\",\"round\":1,\"connect\":\"192.168.1.20:7878\"}");
  xq_tc_expect_ok(r);
  cr_assert(strstr(xq_tj_str(r, "html"), "xqref://192.168.1.20:7878/?round=1&amp;table=1&amp;token="));
  cr_assert_null(strstr(xq_tj_str(r, "html"), "0.0.0.0"));
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_fx_down();
  static const xq_ts_tuning named = {.board_address = "10.1.2.3:7000"};
  xq_fx_up_tuned(8, &named);
  xq_fx_connect(&c, ts.admin);
  r = xq_tc_callf(&c, "{\"id\":3,\"op\":\"slips\",\"round\":1}");
  xq_tc_expect_ok(r);
  cr_assert(strstr(xq_tj_str(r, "html"), "xqref://10.1.2.3:7000/?round=1&amp;table=1&amp;token="));
  cJSON_Delete(r);
  xq_tc_close(&c);
  xq_fx_down();
}

Test(tourney, slips_make_a_token_and_a_qr_code_per_table_and_refuse_bad_input)
{
  xq_fx_up(8);
  xq_tclient c, arb;
  xq_fx_connect(&c, ts.admin);
  xq_fx_connect(&arb, ts.arbiter);
  xq_tc_errf(&arb, "FORBIDDEN", "{\"id\":1,\"op\":\"slips\",\"round\":1}");
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":2,\"op\":\"slips\",\"round\":2}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":3,\"op\":\"slips\",\"round\":1,\"connect\":\"a b/<x>\"}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":4,\"op\":\"slips\",\"round\":1,\"lang\":\"fr\"}");
  cJSON *r = xq_tc_callf(&c, "{\"id\":5,\"op\":\"slips\",\"round\":1,\"connect\":\"10.0.0.5:7878\",\"lang\":\"en\"}");
  xq_tc_expect_ok(r);
  const char *html = xq_tj_str(r, "html");
  int qrs = 0;
  for (const char *p = html; (p = strstr(p, "<svg class=\"qr\"")); p++) qrs++;
  cr_assert_eq(qrs, ts.nboards, "a QR code per table");
  const char *link = strstr(html, "xqref://10.0.0.5:7878/?round=1&amp;table=1&amp;token=");
  cr_assert_not_null(link, "%.400s", html);
  char token[64] = "";
  sscanf(link + strlen("xqref://10.0.0.5:7878/?round=1&amp;table=1&amp;token="), "%32[0-9a-f]", token);
  cr_assert_eq(strlen(token), 32);
  cJSON_Delete(r);
  /* the slip's token is table 1's board */
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  r = xq_tc_callf(&b, "{\"id\":1,\"op\":\"hello\",\"token\":\"%s\"}", token);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "role"), "board");
  cr_assert_eq(xq_tj_num(r, "table"), 1);
  cJSON_Delete(r);
  xq_tc_close(&b);
  xq_tc_close(&arb);
  xq_tc_close(&c);
}
