/*
 * stats.c -- `xqref stats`: its options, --help text and exit status, and
 * the command itself, composed of the records module (every game of a
 * file, counted) and the adjudicator (every good game judged under the
 * rules, the ruling compared with the recorded result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "cli.h"
#include "opts.h"
#include "progress.h"
#include "records.h"

/* What the command line asked for. */
typedef struct stats_opts {
  const char *paths[XQ_CLI_STATS_FILES_MAX]; /* the files, n_paths of them */
  int n_paths;
  const char *path;  /* the file being read */
  const char *rules; /* --rules, NULL: cxa2011 */
  int timed, quiet;
  int no_judge;      /* read only */
} stats_opts;

static const xq__opt stats_rows[] = {
  XQ__FLAG("--time", stats_opts, timed, 1,
           "also print the time taken and the rate in games/s and\n"
           "plies/s (reading and judging)"),
  XQ__FLAG("--quiet", stats_opts, quiet, 1, "do not report each bad record"),
  XQ__STR("--rules", stats_opts, rules, "NAME|FILE", "a rules preset or JSON rules file for judging"),
  XQ__FLAG("--no-judge", stats_opts, no_judge, 1, "read only"),
};

static const xq__cmd stats_cmd = {
  .name = "stats",
  .synopsis = "FILE... [--time] [--quiet] [--rules NAME|FILE] [--no-judge]",
  .args_max = XQ_CLI_STATS_FILES_MAX,
  .about = "Read every game of FILE (any format convert reads) and print the number\n"
           "of games, plies, each result and bad records (each one is also reported\n"
           "on stderr, naming the game, line and ply). Every move is checked against\n"
           "the legal moves; variations are skipped. Each good game is then judged\n"
           "move by move (rules cxa2011 unless --rules says otherwise): the report\n"
           "counts the games the rules ended (mate, stalemate, repetition, natural\n"
           "limit) and whether that ruling agrees with the recorded result (a game\n"
           "recorded without a result, '*', is counted apart). Repairs made to keep\n"
           "a game (a tag with stray quotes) are reported on stderr as warnings.\n"
           "The exit status is 1 when no game of FILE reads (none found included).\n"
           "With several files (up to 4096) the counts are their sums, each message\n"
           "names its file, and the exit status is 1 when one of them reads no game.\n",
  .opts = stats_rows,
  .nopts = XQ__NROWS(stats_rows),
};

/* The counts of the report. */
typedef struct stats_tally {
  long games, bad;
  long long plies;
  long results[4];   /* by xq_result */
  long judged[3];    /* by xq_judged */
  long unrecorded;   /* ruled, the record giving no result (counted apart from judged[]) */
} stats_tally;

/* The rules every game is judged under, and the game they play in. */
typedef struct stats_judge {
  xq_rules rules;
  xq_game *game;
} stats_judge;

/* Parse argv into *o. Returns -1 to go on, or the exit status. */
static int stats_options(int argc, char **argv, stats_opts *o)
{
  memset(o, 0, sizeof *o);
  int status = xq__opts_parse(&stats_cmd, argc, argv, o, o->paths, &o->n_paths);
  if (status >= 0) return status;
  if (!o->n_paths) return xq__opts_error(&stats_cmd, "which FILE?");
  return -1;
}

/* Read every game of `g` into `rec`, judging the good ones with `j` (NULL:
 * read only), and count them in *t. Returns 0, or 1 after a read error. */
static int stats_read(const stats_opts *o, xq_games *g, xq_record *rec, stats_judge *j,
                      stats_tally *t)
{
  xq__progress pr;
  xq_error err;
  int status = 0, rc;
  xq__progress_start(&pr, g, o->path);
  while ((rc = xq_games_next(g, rec, &err)) != 0) {
    if (rc == XQ_EIO) {
      fprintf(stderr, "xqref stats: %s: %s\n", o->path, err.msg);
      status = 1;
      break;
    }
    if (rc >= 0 && j) {
      int k = xq_judge_record(j->game, &j->rules, rec, &err);
      if (k < 0) rc = k; /* err names the problem */
      else if (k == XQ_JUDGED_DIFFER && rec->result == XQ_RESULT_UNKNOWN) t->unrecorded++;
      else t->judged[k]++;
    }
    if (rc < 0) {
      if (!o->quiet) fprintf(stderr, "xqref stats: %s: %s\n", o->path, err.msg);
      t->bad++;
    } else {
      if (!o->quiet) xq__records_warn("stats", o->path, rec);
      t->games++;
      t->plies += rec->n_moves;
      t->results[rec->result]++;
    }
    xq__progress_tick(&pr, g, t->games + t->bad);
  }
  xq__progress_end(&pr);
  return status;
}

static void stats_print(const stats_opts *o, const stats_tally *t, const stats_judge *j,
                        double dt)
{
  printf("games       %ld\n", t->games);
  printf("plies       %lld\n", t->plies);
  printf("red wins    %ld\n", t->results[XQ_RESULT_RED_WINS]);
  printf("black wins  %ld\n", t->results[XQ_RESULT_BLACK_WINS]);
  printf("draws       %ld\n", t->results[XQ_RESULT_DRAW]);
  printf("unknown     %ld\n", t->results[XQ_RESULT_UNKNOWN]);
  printf("bad         %ld\n", t->bad);
  if (j) {
    printf("judged      %ld (rules %s)\n",
           t->judged[0] + t->judged[1] + t->judged[2] + t->unrecorded, j->rules.name);
    printf("  ruled, agrees with the record   %ld\n", t->judged[XQ_JUDGED_AGREE]);
    printf("  ruled, differs from the record  %ld\n", t->judged[XQ_JUDGED_DIFFER]);
    printf("  ruled, the record has no result %ld\n", t->unrecorded);
    printf("  not ended by the rules          %ld\n", t->judged[XQ_JUDGED_OPEN]);
  }
  if (o->timed) {
    double s = dt > 1e-9 ? dt : 1e-9;
    printf("time        %.3f s\n", dt);
    printf("rate        %.0f games/s, %.0f plies/s (%s)\n", (t->games + t->bad) / s,
           (double)t->plies / s, j ? "read and judged" : "read");
  }
}

/* Count (and judge with `j`, may be NULL) every game of o->path into *t.
 * Returns 0, or 1 when the file cannot be read or no game of it reads. */
static int stats_file(const stats_opts *o, stats_judge *j, xq_record *rec, stats_tally *t)
{
  xq_error err;
  xq_games *g;
  if (xq_games_open(&g, o->path, XQ_PGN_NO_COMMENTS, &err) != XQ_OK) {
    fprintf(stderr, "xqref stats: %s: %s\n", o->path, err.msg);
    return 1;
  }
  long before = t->games;
  int status = stats_read(o, g, rec, j, t);
  xq_games_close(g);
  if (t->games == before) { /* nothing in the file reads: never a success */
    if (!status) fprintf(stderr, "xqref stats: %s: no game read\n", o->path);
    status = 1;
  }
  return status;
}

/* Count (and judge with `j`, may be NULL) every game of every file and
 * print the report. Returns the exit status. */
static int stats_run(stats_opts *o, stats_judge *j)
{
  double t0 = xq__progress_now();
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) {
    fprintf(stderr, "xqref stats: out of memory\n");
    return 1;
  }
  xq_record_init(rec);
  stats_tally t = {0};
  int status = 0;
  for (int i = 0; i < o->n_paths; i++) {
    o->path = o->paths[i];
    status |= stats_file(o, j, rec, &t);
  }
  if (o->n_paths > 1) printf("files       %d\n", o->n_paths);
  stats_print(o, &t, j, xq__progress_now() - t0);
  xq_record_free(rec);
  free(rec);
  return status;
}

int xq_stats_main(int argc, char **argv)
{
  static stats_opts o; /* (XQ_CLI_STATS_FILES_MAX paths) */
  int status = stats_options(argc, argv, &o);
  if (status >= 0) return status;
  if (o.no_judge) return stats_run(&o, NULL);

  stats_judge j;
  xq_error err;
  if (xq_rules_from_spec(o.rules ? o.rules : "cxa2011", &j.rules, &err) != XQ_OK) {
    fprintf(stderr, "xqref stats: rules: %s\n", err.msg);
    return 1;
  }
  if (!(j.game = malloc(sizeof *j.game))) {
    fprintf(stderr, "xqref stats: rules: out of memory\n");
    return 1;
  }
  status = stats_run(&o, &j);
  free(j.game);
  return status;
}
