/*
 * convert.c -- the `xqref convert` and `xqref stats` subcommands: game
 * files in, PGN or DhtmlXQ out; counts of games, plies, results and bad
 * records, with the reading rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define PROGRESS_MIN_BYTES (4LL << 20) /* files from this size report progress */
#define PROGRESS_EVERY 0.5             /* seconds between progress lines */

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Progress on stderr for big files: one line redrawn on a terminal, a
 * line every few seconds otherwise. */
typedef struct progress {
  int on, tty;
  double last, every;
  long long size;
  const char *name;
} progress;

static void progress_start(progress *p, const xq_games *g, const char *name)
{
  p->size = xq_games_size(g);
  p->on = p->size >= PROGRESS_MIN_BYTES;
  p->tty = isatty(fileno(stderr));
  p->every = p->tty ? PROGRESS_EVERY : 5.0;
  p->last = now();
  p->name = name;
}

static void progress_tick(progress *p, const xq_games *g, long games)
{
  if (!p->on || (games & 255)) return;
  double t = now();
  if (t - p->last < p->every) return;
  p->last = t;
  long long at = xq_games_offset(g);
  fprintf(stderr, "%s%s: %.1f of %.1f MB (%d%%), %ld games%s", p->tty ? "\r" : "", p->name,
          at / 1048576.0, p->size / 1048576.0, (int)(100.0 * at / (double)p->size), games,
          p->tty ? "" : "\n");
  fflush(stderr);
}

static void progress_end(progress *p)
{
  if (p->on && p->tty) fputs("\r\033[K", stderr);
}

/* ---- convert ------------------------------------------------------- */

static const char convert_usage[] =
  "usage: xqref convert IN OUT [--to pgn|dhtmlxq] [--notation iccs|wxf|chinese]\n"
  "                    [--no-variations] [--no-comments] [--crlf]\n"
  "\n"
  "Read the games of IN (XQ-PGN, XQF or DhtmlXQ, told from the content;\n"
  "PGN may be UTF-8 or GBK, and hold many games) and write each good game\n"
  "to OUT ('-' = standard output). Bad games are reported on stderr, naming\n"
  "the game, line and ply, and left out; the exit status is then 1.\n"
  "\n"
  "  --to F          pgn (default; also chosen by OUT ending in .pgn) or\n"
  "                  dhtmlxq (default for OUT ending in .txt, .htm, .html,\n"
  "                  .dhtml)\n"
  "  --notation N    PGN moves in chinese (default: 炮二平五), wxf (C2.5) or\n"
  "                  iccs (xqbase form H2-E2)\n"
  "  --no-variations leave variations out\n"
  "  --no-comments   leave comments out\n"
  "  --crlf          PGN lines end in CR LF (as xqbase writes them)\n";

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcasecmp(s + n - k, suffix);
}

int xq_convert_main(int argc, char **argv)
{
  const char *in = NULL, *outname = NULL;
  int to = -1, flags = XQ_PGN_VARIATIONS, wflags = 0;
  xq_notation notation = XQ_NOTE_CHINESE;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(convert_usage, stdout);
      return 0;
    } else if (!strcmp(a, "--to") && i + 1 < argc) {
      a = argv[++i];
      if (!strcmp(a, "pgn")) to = XQ_FMT_PGN;
      else if (!strcmp(a, "dhtmlxq")) to = XQ_FMT_DHTMLXQ;
      else {
        fprintf(stderr, "xqref convert: --to must be pgn or dhtmlxq, not '%s'\n", a);
        return 2;
      }
    } else if (!strcmp(a, "--notation") && i + 1 < argc) {
      a = argv[++i];
      if (!strcmp(a, "iccs")) notation = XQ_NOTE_ICCS_PGN;
      else if (!strcmp(a, "wxf")) notation = XQ_NOTE_WXF;
      else if (!strcmp(a, "chinese")) notation = XQ_NOTE_CHINESE;
      else {
        fprintf(stderr, "xqref convert: --notation must be iccs, wxf or chinese, not '%s'\n", a);
        return 2;
      }
    } else if (!strcmp(a, "--no-variations")) {
      flags &= ~XQ_PGN_VARIATIONS;
      wflags |= XQ_PGN_NO_VARS_OUT;
    } else if (!strcmp(a, "--no-comments")) {
      flags |= XQ_PGN_NO_COMMENTS;
      wflags |= XQ_PGN_NO_COMMENTS;
    } else if (!strcmp(a, "--crlf")) {
      wflags |= XQ_PGN_CRLF;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "xqref convert: unknown option '%s'\n\n%s", a, convert_usage);
      return 2;
    } else if (!in) {
      in = a;
    } else if (!outname) {
      outname = a;
    } else {
      fprintf(stderr, "xqref convert: too many arguments\n\n%s", convert_usage);
      return 2;
    }
  }
  if (!in || !outname) {
    fprintf(stderr, "%s", convert_usage);
    return 2;
  }
  if (to < 0)
    to = (ends_with(outname, ".txt") || ends_with(outname, ".htm") ||
          ends_with(outname, ".html") || ends_with(outname, ".dhtml"))
             ? XQ_FMT_DHTMLXQ
             : XQ_FMT_PGN;

  xq_error err;
  xq_games *g;
  if (xq_games_open(&g, in, flags, &err) != XQ_OK) {
    fprintf(stderr, "xqref convert: %s: %s\n", in, err.msg);
    return 1;
  }
  FILE *out = strcmp(outname, "-") ? fopen(outname, "wb") : stdout;
  if (!out) {
    fprintf(stderr, "xqref convert: cannot create %s\n", outname);
    xq_games_close(g);
    return 1;
  }
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) {
    fprintf(stderr, "xqref convert: out of memory\n");
    xq_games_close(g);
    if (out != stdout) fclose(out);
    return 1;
  }
  xq_record_init(rec);

  progress pr;
  progress_start(&pr, g, in);
  long good = 0, bad = 0;
  int status = 0, rc;
  while ((rc = xq_games_next(g, rec, &err)) != 0) {
    if (rc < 0) {
      if (rc == XQ_EIO) {
        fprintf(stderr, "xqref convert: %s: %s\n", in, err.msg);
        status = 1;
        break;
      }
      fprintf(stderr, "xqref convert: %s: %s\n", in, err.msg);
      bad++;
      continue;
    }
    rc = to == XQ_FMT_PGN ? xq_pgn_write(out, rec, notation, wflags, &err)
                          : xq_dhtmlxq_write(out, rec, &err);
    if (rc != XQ_OK) {
      fprintf(stderr, "xqref convert: %s: %s\n", outname, err.msg);
      status = 1;
      break;
    }
    good++;
    progress_tick(&pr, g, good + bad);
  }
  progress_end(&pr);
  if (out != stdout ? fclose(out) != 0 : fflush(out) != 0) {
    fprintf(stderr, "xqref convert: cannot write %s\n", outname);
    status = 1;
  }
  fprintf(stderr, "xqref convert: %ld game%s written, %ld bad\n", good, good == 1 ? "" : "s",
          bad);
  xq_record_free(rec);
  free(rec);
  xq_games_close(g);
  return status || bad ? 1 : 0;
}

/* ---- stats --------------------------------------------------------- */

static const char stats_usage[] =
  "usage: xqref stats FILE [--time] [--quiet] [--rules NAME|FILE] [--no-judge]\n"
  "\n"
  "Read every game of FILE (XQ-PGN, XQF or DhtmlXQ) and print the number\n"
  "of games, plies, each result and bad records (each one is also reported\n"
  "on stderr, naming the game, line and ply). Every move is checked against\n"
  "the legal moves; variations are skipped. Each good game is then judged\n"
  "move by move (rules cxa2011 unless --rules says otherwise): the report\n"
  "counts the games the rules ended (mate, stalemate, repetition, natural\n"
  "limit) and whether that ruling agrees with the recorded result.\n"
  "\n"
  "  --time         also print the time taken and the rate in games/s and\n"
  "                 plies/s (reading and judging)\n"
  "  --quiet        do not report each bad record\n"
  "  --rules R      a rules preset or JSON rules file for judging\n"
  "  --no-judge     read only\n";

int xq_stats_main(int argc, char **argv)
{
  return xq_stats_run(argc, argv, NULL);
}

int xq_stats_run(int argc, char **argv, const xq_stats_judge *judge)
{
  const char *path = NULL, *rules = NULL;
  int timed = 0, quiet = 0;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(stats_usage, stdout);
      return 0;
    } else if (!strcmp(a, "--time")) {
      timed = 1;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(a, "--no-judge")) {
      judge = NULL;
    } else if (!strcmp(a, "--rules") && i + 1 < argc) {
      rules = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "xqref stats: unknown or incomplete option '%s'\n\n%s", a, stats_usage);
      return 2;
    } else if (!path) {
      path = a;
    } else {
      fprintf(stderr, "xqref stats: too many arguments\n\n%s", stats_usage);
      return 2;
    }
  }
  if (!path) {
    fprintf(stderr, "%s", stats_usage);
    return 2;
  }

  xq_error err;
  xq_games *g;
  if (judge && judge->begin(judge->ctx, rules, &err) != XQ_OK) {
    fprintf(stderr, "xqref stats: rules: %s\n", err.msg);
    return 1;
  }
  double t0 = now();
  if (xq_games_open(&g, path, XQ_PGN_NO_COMMENTS, &err) != XQ_OK) {
    fprintf(stderr, "xqref stats: %s: %s\n", path, err.msg);
    return 1;
  }
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) {
    fprintf(stderr, "xqref stats: out of memory\n");
    xq_games_close(g);
    return 1;
  }
  xq_record_init(rec);

  progress pr;
  progress_start(&pr, g, path);
  long games = 0, bad = 0, results[4] = {0, 0, 0, 0}, judged[3] = {0, 0, 0};
  long long plies = 0;
  int status = 0, rc;
  while ((rc = xq_games_next(g, rec, &err)) != 0) {
    if (rc == XQ_EIO) {
      fprintf(stderr, "xqref stats: %s: %s\n", path, err.msg);
      status = 1;
      break;
    }
    if (rc >= 0 && judge) {
      int j = judge->game(judge->ctx, rec, &err);
      if (j < 0) rc = j; /* err names the problem */
      else judged[j]++;
    }
    if (rc < 0) {
      if (!quiet) fprintf(stderr, "xqref stats: %s: %s\n", path, err.msg);
      bad++;
    } else {
      games++;
      plies += rec->n_moves;
      results[rec->result]++;
    }
    progress_tick(&pr, g, games + bad);
  }
  progress_end(&pr);
  double dt = now() - t0;

  printf("games       %ld\n", games);
  printf("plies       %lld\n", plies);
  printf("red wins    %ld\n", results[XQ_RESULT_RED_WINS]);
  printf("black wins  %ld\n", results[XQ_RESULT_BLACK_WINS]);
  printf("draws       %ld\n", results[XQ_RESULT_DRAW]);
  printf("unknown     %ld\n", results[XQ_RESULT_UNKNOWN]);
  printf("bad         %ld\n", bad);
  if (judge) {
    printf("judged      %ld (rules %s)\n", judged[0] + judged[1] + judged[2],
           judge->rules_name(judge->ctx));
    printf("  ruled, agrees with the record   %ld\n", judged[XQ_JUDGED_AGREE]);
    printf("  ruled, differs from the record  %ld\n", judged[XQ_JUDGED_DIFFER]);
    printf("  not ended by the rules          %ld\n", judged[XQ_JUDGED_OPEN]);
  }
  if (timed) {
    double s = dt > 1e-9 ? dt : 1e-9;
    printf("time        %.3f s\n", dt);
    printf("rate        %.0f games/s, %.0f plies/s (%s)\n", (games + bad) / s, (double)plies / s,
           judge ? "read and judged" : "read");
  }
  xq_record_free(rec);
  free(rec);
  xq_games_close(g);
  return status;
}
