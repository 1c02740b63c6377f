/*
 * process.c -- what a process that runs the server or its clients sets
 * once, at its start, before either runs (xq_net_process_init, net.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "net.h"

int xq_net_process_init(void)
{
  /* a peer that closes during a write must not end the process: the
   * write fails with EPIPE instead (server.md §1.6) */
  signal(SIGPIPE, SIG_IGN);
  xq_raise_nofile(); /* a descriptor a connection */
  /* both job lanes, the group commit and the rulings at once (jobs.c):
   * libuv reads the variable once, when the process first queues work */
  const char *env = getenv("UV_THREADPOOL_SIZE");
  long n = env ? strtol(env, NULL, 10) : 0;
  if (n >= XQ_POOL_THREADS) return XQ_OK;
  char text[16];
  snprintf(text, sizeof text, "%d", XQ_POOL_THREADS);
  return setenv("UV_THREADPOOL_SIZE", text, 1) == 0 ? XQ_OK : XQ_ENOMEM;
}
