/*
 * number.c -- the bounded-number check the command-line parsers share.
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>

#include "cli.h"

int xq__cli_number(const char *s, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

int xq__cli_value(const char *cmd, const char *act, const char *opt, const char *v, const char **str, long lo, long hi,
                  long *num)
{
  const char *sp = act ? " " : "";
  if (!act) act = "";
  if (!v) {
    fprintf(stderr, "xqref %s%s%s: %s needs a value\n", cmd, sp, act, opt);
    return 2;
  }
  if (str) *str = v;
  else if (!xq__cli_number(v, lo, hi, num)) {
    fprintf(stderr, "xqref %s%s%s: %s wants a number %ld..%ld, not '%s'\n", cmd, sp, act, opt, lo, hi, v);
    return 2;
  }
  return 0;
}
