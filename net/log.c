/*
 * log.c -- the server log: one line per notable event, with the time of
 * day (UTC, milliseconds), written and flushed at once so that a killed
 * server's log ends with its last line. The fan-out thread logs too: a
 * line is written under the stream's lock, whole.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "internal.h"

void xq__log(xq__server *s, const char *fmt, ...)
{
  if (!s->log) return;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  flockfile(s->log);
  fprintf(s->log, "%02d:%02d:%02d.%03ld ", tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(s->log, fmt, ap);
  va_end(ap);
  fputc('\n', s->log);
  fflush(s->log);
  funlockfile(s->log);
}
