/*
 * process.c -- what a process that runs the server or its clients sets
 * once, at its start, before either runs (xq_net_process_init, net.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "net.h"

/* As many open files as the hard limit allows (a descriptor a
 * connection); where that fails the limit stays as it was. */
static void raise_nofile(void)
{
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

int xq_net_process_init(void)
{
  /* a peer that closes during a write must not end the process: the
   * write fails with EPIPE instead */
  signal(SIGPIPE, SIG_IGN);
  raise_nofile(); /* XQ_MAX_CONNS clients, a descriptor each */
  /* both job lanes, the group commit and the rulings at once (jobs.c):
   * libuv reads the variable once, when the process first queues work */
  const char *env = getenv("UV_THREADPOOL_SIZE");
  long n = env ? strtol(env, NULL, 10) : 0;
  if (n >= XQ_POOL_THREADS) return XQ_OK;
  char text[16];
  snprintf(text, sizeof text, "%d", XQ_POOL_THREADS);
  return setenv("UV_THREADPOOL_SIZE", text, 1) == 0 ? XQ_OK : XQ_ENOMEM;
}
