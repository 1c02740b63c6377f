/*
 * progress.h -- the progress line that `xqref convert` and `xqref stats`
 * print on stderr while they read a big file, and the clock the commands
 * that read game files time with. Internal to cli/.
 */
#ifndef XQ_CLI_PROGRESS_H
#define XQ_CLI_PROGRESS_H

#include "cli.h"
#include "records.h"

/* Progress through the games of one file. */
typedef struct xq__progress {
  int on, tty;
  double last, every;
  long long size;
  const char *name;
} xq__progress;

/* Seconds on a monotonic clock. */
double xq__progress_now(void);

/* Start reporting on `g`, read from the file called `name` (kept, not
 * copied): on only for files of XQ_CLI_PROGRESS_MIN_BYTES and more. Cannot
 * fail. */
void xq__progress_start(xq__progress *p, const xq_games *g, const char *name);

/* `games` games read so far: every 256th game, when the time has come, a
 * line on stderr (redrawn in place on a terminal). Cannot fail. */
void xq__progress_tick(xq__progress *p, const xq_games *g, long games);

/* Clear the line on a terminal. Cannot fail. */
void xq__progress_end(xq__progress *p);

#endif /* XQ_CLI_PROGRESS_H */
