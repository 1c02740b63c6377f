/*
 * progress.c -- the progress line of the commands that read game files:
 * one line redrawn on a terminal, a line every few seconds otherwise.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

double xq__progress_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void xq__progress_start(xq__progress *p, const xq_games *g, const char *name)
{
  p->size = xq_games_size(g);
  p->on = p->size >= XQ_CLI_PROGRESS_MIN_BYTES;
  p->tty = isatty(fileno(stderr));
  p->every = p->tty ? XQ_CLI_PROGRESS_EVERY : XQ_CLI_PROGRESS_EVERY_LOG;
  p->last = xq__progress_now();
  p->name = name;
}

void xq__progress_tick(xq__progress *p, const xq_games *g, long games)
{
  if (!p->on || (games & 255)) return;
  double t = xq__progress_now();
  if (t - p->last < p->every) return;
  p->last = t;
  long long at = xq_games_offset(g), pct;
  if (!xq_whole_part(100.0 * (double)at / (double)p->size, 0, 100, &pct)) pct = 100; /* a file that grew */
  fprintf(stderr, "%s%s: %.1f of %.1f MB (%lld%%), %ld games%s", p->tty ? "\r" : "", p->name,
          at / 1048576.0, p->size / 1048576.0, pct, games,
          p->tty ? "" : "\n");
  fflush(stderr);
}

void xq__progress_end(xq__progress *p)
{
  if (p->on && p->tty) fputs("\r\033[K", stderr);
}
