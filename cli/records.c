/*
 * records.c -- `xqref convert`: its options, --help text and exit status,
 * and the loop that writes each good game of the input to the output
 * through the records module (records/records.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "progress.h"
#include "records.h"

static const char convert_usage[] =
  "usage: xqref convert IN OUT [--to pgn|dhtmlxq] [--notation iccs|wxf|chinese]\n"
  "                    [--no-variations] [--no-comments] [--crlf]\n"
  "\n"
  "Read the games of IN (XQ-PGN, XQF, DhtmlXQ, 象棋桥 CBL/CBR/CBF, move lists\n"
  "in text or pages, MXQ, CHE or PFC, told from the content; PGN may be\n"
  "UTF-8 or GBK, and hold many games) and write each good game\n"
  "to OUT ('-' = standard output). Bad games are reported on stderr, naming\n"
  "the game, line and ply, and left out; the exit status is then 1, as it is\n"
  "when no game is found. A variation that goes wrong is cut before its bad\n"
  "move and a tag with stray quotes read to the end of its line: the game is\n"
  "kept, with a warning.\n"
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

/* What the command line asked for. */
typedef struct convert_opts {
  const char *in, *outname;
  int to;               /* XQ_FMT_PGN or XQ_FMT_DHTMLXQ */
  int flags, wflags;    /* XQ_PGN_* reader and writer flags */
  xq_notation notation; /* of PGN moves */
} convert_opts;

/* Parse argv into *o. Returns -1 to go on, or the exit status. */
static int convert_options(int argc, char **argv, convert_opts *o)
{
  *o = (convert_opts){NULL, NULL, -1, XQ_PGN_VARIATIONS, 0, XQ_NOTE_CHINESE};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(convert_usage, stdout);
      return 0;
    } else if (!strcmp(a, "--to") && i + 1 < argc) {
      a = argv[++i];
      if (!strcmp(a, "pgn")) o->to = XQ_FMT_PGN;
      else if (!strcmp(a, "dhtmlxq")) o->to = XQ_FMT_DHTMLXQ;
      else {
        fprintf(stderr, "xqref convert: --to must be pgn or dhtmlxq, not '%s'\n", a);
        return 2;
      }
    } else if (!strcmp(a, "--notation") && i + 1 < argc) {
      a = argv[++i];
      if (!strcmp(a, "iccs")) o->notation = XQ_NOTE_ICCS_PGN;
      else if (!strcmp(a, "wxf")) o->notation = XQ_NOTE_WXF;
      else if (!strcmp(a, "chinese")) o->notation = XQ_NOTE_CHINESE;
      else {
        fprintf(stderr, "xqref convert: --notation must be iccs, wxf or chinese, not '%s'\n", a);
        return 2;
      }
    } else if (!strcmp(a, "--no-variations")) {
      o->flags &= ~XQ_PGN_VARIATIONS;
      o->wflags |= XQ_PGN_NO_VARS_OUT;
    } else if (!strcmp(a, "--no-comments")) {
      o->flags |= XQ_PGN_NO_COMMENTS;
      o->wflags |= XQ_PGN_NO_COMMENTS;
    } else if (!strcmp(a, "--crlf")) {
      o->wflags |= XQ_PGN_CRLF;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "xqref convert: unknown option '%s'\n\n%s", a, convert_usage);
      return 2;
    } else if (!o->in) {
      o->in = a;
    } else if (!o->outname) {
      o->outname = a;
    } else {
      fprintf(stderr, "xqref convert: too many arguments\n\n%s", convert_usage);
      return 2;
    }
  }
  if (!o->in || !o->outname) {
    fprintf(stderr, "%s", convert_usage);
    return 2;
  }
  if (o->to < 0)
    o->to = (ends_with(o->outname, ".txt") || ends_with(o->outname, ".htm") ||
             ends_with(o->outname, ".html") || ends_with(o->outname, ".dhtml"))
                ? XQ_FMT_DHTMLXQ
                : XQ_FMT_PGN;
  return -1;
}

void xq__cli_warn(const char *command, const char *path, const xq_record *rec)
{
  if (!rec->n_warnings) return;
  if (rec->n_warnings == 1)
    fprintf(stderr, "xqref %s: %s: game %ld: warning: %s\n", command, path, rec->game,
            rec->warning);
  else
    fprintf(stderr, "xqref %s: %s: game %ld: warning: %s (and %d more)\n", command, path,
            rec->game, rec->warning, rec->n_warnings - 1);
}

/* Write each good game of g to `out`, reporting the bad ones; counts in
 * *good and *bad. Returns 0, or 1 when reading or writing failed. */
static int convert_games(const convert_opts *o, xq_games *g, FILE *out, xq_record *rec,
                         long *good, long *bad)
{
  xq__progress pr;
  xq_error err;
  int status = 0, rc;
  xq__progress_start(&pr, g, o->in);
  while ((rc = xq_games_next(g, rec, &err)) != 0) {
    if (rc < 0) {
      if (rc == XQ_EIO) {
        fprintf(stderr, "xqref convert: %s: %s\n", o->in, err.msg);
        status = 1;
        break;
      }
      fprintf(stderr, "xqref convert: %s: %s\n", o->in, err.msg);
      (*bad)++;
      continue;
    }
    rc = o->to == XQ_FMT_PGN ? xq_pgn_write(out, rec, o->notation, o->wflags, &err)
                             : xq_dhtmlxq_write(out, rec, &err);
    if (rc != XQ_OK) {
      fprintf(stderr, "xqref convert: %s: %s\n", o->outname, err.msg);
      status = 1;
      break;
    }
    xq__cli_warn("convert", o->in, rec);
    (*good)++;
    xq__progress_tick(&pr, g, *good + *bad);
  }
  xq__progress_end(&pr);
  return status;
}

int xq_convert_main(int argc, char **argv)
{
  convert_opts o;
  int status = convert_options(argc, argv, &o);
  if (status >= 0) return status;

  xq_error err;
  xq_games *g;
  if (xq_games_open(&g, o.in, o.flags, &err) != XQ_OK) {
    fprintf(stderr, "xqref convert: %s: %s\n", o.in, err.msg);
    return 1;
  }
  FILE *out = strcmp(o.outname, "-") ? fopen(o.outname, "wb") : stdout;
  if (!out) {
    fprintf(stderr, "xqref convert: cannot create %s\n", o.outname);
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

  long good = 0, bad = 0;
  status = convert_games(&o, g, out, rec, &good, &bad);
  if (out != stdout ? fclose(out) != 0 : fflush(out) != 0) {
    fprintf(stderr, "xqref convert: cannot write %s\n", o.outname);
    status = 1;
  }
  if (good == 0 && bad == 0 && !status) fprintf(stderr, "xqref convert: %s: no game found\n", o.in);
  fprintf(stderr, "xqref convert: %ld game%s written, %ld bad\n", good, good == 1 ? "" : "s",
          bad);
  xq_record_free(rec);
  free(rec);
  xq_games_close(g);
  return status || bad || good == 0 ? 1 : 0;
}
