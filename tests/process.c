/*
 * process.c -- the process start of every suite that runs the server or
 * its clients in its own process (tests/CMakeLists.txt adds it to them):
 * xq_net_process_init once, before the runner starts the tests, which
 * inherit what it set (SIGPIPE ignored, the pool's size, the open-file
 * limit), as xqref's main does before such a command.
 */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>

#include "net.h"

ReportHook(PRE_ALL)(struct criterion_test_set *tests)
{
  (void)tests;
  if (xq_net_process_init() != XQ_OK) fprintf(stderr, "xq_net_process_init: UV_THREADPOOL_SIZE not set\n");
}
