/*
 * net_fixture.h -- the one server fixture of the net suites (libuv's
 * test/task.h is the model: one fixture, not a copy per file): a server
 * with a fresh store in `ts` on a test-owned loop, and its end, which
 * proves with uv_loop_close() == 0 that no handle was left open.
 *
 * A suite whose tests all start the same server says XQ_NET_SUITE; a
 * test that picks its own calls xq_fx_up and xq_fx_down itself.
 */
#ifndef XQ_TEST_NET_FIXTURE_H
#define XQ_TEST_NET_FIXTURE_H

#include <criterion/criterion.h>

#include "net_client.h"

/* The server of the running test. */
extern xq_tserver ts;

/* Start `ts` on 127.0.0.1 with a demo of `players` players (0 = no
 * demo); the test fails unless it starts. */
void xq_fx_up(int players);
/* As xq_fx_up, with the server's limits changed by `t` (net_client.h). */
void xq_fx_up_tuned(int players, const xq_ts_tuning *t);

/* Stop `ts` gracefully and remove its store; the test fails unless
 * uv_loop_close returned 0 (no handle left open). */
void xq_fx_down(void);

/* A suite's end of every test: xq_fx_down when `ts` still runs (a test
 * may have stopped it), else only remove the store. */
void xq_fx_end(void);

/* Connect `c` to `ts` and, unless `token` is NULL, say hello with it;
 * the test fails unless both succeed. */
void xq_fx_connect(xq_tclient *c, const char *token);

/* XQ_NET_SUITE(NAME, PLAYERS): the Criterion suite NAME, each of whose
 * tests runs on a fresh server `ts` with a demo of PLAYERS players and
 * ends with xq_fx_end; 60 s a test. */
#define XQ_NET_SUITE(name, players)                 \
  static void name##_up(void) { xq_fx_up(players); } \
  TestSuite(name, .init = name##_up, .fini = xq_fx_end, .timeout = 60)

#endif /* XQ_TEST_NET_FIXTURE_H */
