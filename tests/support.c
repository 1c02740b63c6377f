/*
 * support.c -- what every test executable shares: its process start
 * (xq_engine_init) and the helpers of support.h.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"
#include "support.h"

/* The process start of every test executable. Criterion runs each test in
 * a fresh process of the same executable (BoxFort), in which neither its
 * main nor its report hooks run: a constructor of the test program is the
 * one place that runs first in every one of them, as cli/main.c's first
 * line does for xqref. */
__attribute__((constructor)) static void xq_test_process_start(void)
{
  xq_engine_init();
}

char *xq_test_run(const char *args, int *status)
{
  char cmd[4096], *buf = NULL, chunk[4096];
  size_t n = 0, got;
  snprintf(cmd, sizeof cmd, "%s 2>&1", args);
  if (xq_test_cli_run && xq_test_cli_run(cmd, &buf, status)) return buf;
  snprintf(cmd, sizeof cmd, "%s %s 2>&1", XQ_BINARY, args);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p, "cannot run %s", cmd);
  FILE *m = open_memstream(&buf, &n);
  cr_assert_not_null(m);
  while ((got = fread(chunk, 1, sizeof chunk, p)) > 0) fwrite(chunk, 1, got, m);
  fclose(m);
  int st = pclose(p);
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return buf;
}

void xq_test_expect(int status, const char *fmt, ...)
{
  char args[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  int got;
  char *out = xq_test_run(args, &got);
  cr_assert_eq(got, status, "xqref %s: exit %d, expected %d: %s", args, got, status, out);
  free(out);
}

char *xq_test_run_db(int status, const char *fmt, const char *db, const char *extra)
{
  char args[1024];
  int got;
  snprintf(args, sizeof args, fmt, db, extra ? extra : "");
  char *out = xq_test_run(args, &got);
  cr_assert_eq(got, status, "xqref %s: exit %d, expected %d\n%s", args, got, status, out);
  return out;
}

void xq_test_run_db_says(int status, const char *want, const char *fmt, const char *db, const char *extra)
{
  char *out = xq_test_run_db(status, fmt, db, extra);
  cr_assert(strstr(out, want), "xqref %s (%s, %s) says\n%s\nnot '%s'", fmt, db, extra ? extra : "", out, want);
  free(out);
}

char *xq_test_slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL, chunk[4096];
  size_t n = 0, got;
  FILE *m = open_memstream(&buf, &n);
  cr_assert_not_null(m);
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, got, m);
  fclose(m);
  fclose(f);
  return buf;
}

void xq_test_db_path(char *buf, size_t len, const char *tag)
{
  const char *dir = getenv("TMPDIR");
  snprintf(buf, len, "%s/xq_%s_%ld.db", dir && *dir ? dir : "/tmp", tag, (long)getpid());
}

void xq_test_db_remove(const char *path)
{
  char side[600];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}
