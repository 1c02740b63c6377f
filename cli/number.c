/*
 * number.c -- the bounded-number check the command-line parsers share.
 */
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
