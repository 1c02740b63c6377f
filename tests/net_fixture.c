/*
 * net_fixture.c -- the server fixture of the net suites (net_fixture.h).
 */
#include "net_fixture.h"

xq_tserver ts;

void xq_fx_up(int players) { cr_assert_eq(xq_ts_start(&ts, players), 0, "server starts"); }

void xq_fx_up_tuned(int players, const xq_ts_tuning *t)
{
  cr_assert_eq(xq_ts_start_tuned(&ts, players, t), 0, "server starts");
}

static void stop_checked(void) { cr_assert_eq(xq_ts_stop(&ts), 0, "uv_loop_close: no handle left open"); }

void xq_fx_down(void)
{
  stop_checked();
  xq_ts_cleanup(&ts);
}

void xq_fx_end(void)
{
  if (ts.srv) stop_checked();
  xq_ts_cleanup(&ts);
}

void xq_fx_connect(xq_tclient *c, const char *token)
{
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.port), 0, "client connects");
  if (token) xq_tc_okf(c, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", token);
}
