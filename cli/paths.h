/*
 * paths.h -- what keeps the command line from destroying what it reads:
 * every command that writes a file checks, before it opens anything, that
 * none of its outputs is one of its inputs or the store (the same name, a
 * symbolic link to it, a hard link of it), and writes each output file
 * whole or not at all (a temporary file beside it, renamed over it once
 * complete). Internal to cli/.
 */
#ifndef XQ_CLI_PATHS_H
#define XQ_CLI_PATHS_H

#include <stdio.h>

/* One file a command reads or writes, as the command line named it. */
typedef struct xq__path {
  const char *path; /* NULL: not given (skipped); "-": standard input or output */
  const char *what; /* how the messages name it: "IN", "--out", "the store" */
  int store;        /* an event store: its -wal, -shm, -journal and .admin files are its own */
} xq__path;

/* Refuse outs[] that are ins[] or one another: two names of one file (the
 * same file after links are followed: st_dev and st_ino; an output that
 * does not exist yet, by its name in its real folder), a store standing
 * for itself and its side files. "-" among the outputs is standard
 * output when that is a file. Prints "xqref CMD: ..." on stderr for the
 * first clash. Returns 0, or 1 (the exit status) when a clash was found;
 * nothing is opened or changed either way. */
int xq__paths_check(const char *cmd, const xq__path *outs, int nouts, const xq__path *ins, int nins);

/* An output file being written: the temporary file it is written to, and
 * where it goes once complete. */
typedef struct xq__paths_out {
  FILE *f;    /* the stream to write: stdout, the file itself, or the temporary file */
  char *tmp;  /* the temporary file, NULL when written in place */
  char *dest; /* the real name it takes (links followed) */
  const char *cmd, *path;
} xq__paths_out;

/* Open `path` ("-": standard output) for writing as `cmd`. A regular
 * file, or one that does not exist, is written to a temporary file in the
 * same folder (its mode that of the old file, or 0666 less the umask),
 * which xq__paths_close renames over it; anything else (a device, a FIFO)
 * is written in place. Returns 0, or 1 after a message on stderr. */
int xq__paths_open(const char *cmd, const char *path, xq__paths_out *w);

/* Finish w: when `ok`, flush and sync the file and put it in place (the
 * old file replaced at once); else remove the temporary file and leave the
 * old file as it was. Returns 0, or 1 after a message on stderr (the old
 * file then kept). Safe on a w that was never opened (all zero). */
int xq__paths_close(xq__paths_out *w, int ok);

#endif /* XQ_CLI_PATHS_H */
