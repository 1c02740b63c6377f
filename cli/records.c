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
#include "opts.h"
#include "paths.h"
#include "progress.h"
#include "records.h"

/* What the command line asked for. */
typedef struct convert_opts {
  const char *in, *outname;
  int to;                      /* XQ_FMT_PGN or XQ_FMT_DHTMLXQ; -1: by OUT's name */
  int flags, wflags;           /* XQ_PGN_* reader and writer flags */
  int notation;                /* xq_notation of PGN moves */
  int no_vars, no_comments, crlf;
} convert_opts;

static const int to_formats[] = {XQ_FMT_PGN, XQ_FMT_DHTMLXQ};
static const int notations[] = {XQ_NOTE_ICCS_PGN, XQ_NOTE_WXF, XQ_NOTE_CHINESE};

static const xq__opt convert_rows[] = {
  XQ__ENUM("--to", convert_opts, to, "pgn|dhtmlxq", to_formats,
           "pgn (default; also chosen by OUT ending in .pgn) or\n"
           "dhtmlxq (default for OUT ending in .txt, .htm, .html, .dhtml)"),
  XQ__ENUM("--notation", convert_opts, notation, "iccs|wxf|chinese", notations,
           "PGN moves in chinese (default: 炮二平五), wxf (C2.5) or\n"
           "iccs (xqbase form H2-E2)"),
  XQ__FLAG("--no-variations", convert_opts, no_vars, 1, "leave variations out"),
  XQ__FLAG("--no-comments", convert_opts, no_comments, 1, "leave comments out"),
  XQ__FLAG("--crlf", convert_opts, crlf, 1, "PGN lines end in CR LF (as xqbase writes them)"),
};

static const xq__cmd convert_cmd = {
  .name = "convert",
  .synopsis = "IN OUT [--to pgn|dhtmlxq] [--notation iccs|wxf|chinese]\n"
              "                    [--no-variations] [--no-comments] [--crlf]",
  .args_max = 2,
  .about = "Read the games of IN (XQ-PGN, XQF, DhtmlXQ, 象棋桥 CBL/CBR/CBF, move lists\n"
           "in text or pages, MXQ, CHE or PFC, told from the content; PGN may be\n"
           "UTF-8 or GBK, and hold many games) and write each good game\n"
           "to OUT ('-' = standard output). Bad games are reported on stderr, naming\n"
           "the game, line and ply, and left out; the exit status is then 1, as it is\n"
           "when no game is found. A variation that goes wrong is cut before its bad\n"
           "move and a tag with stray quotes read to the end of its line: the game is\n"
           "kept, with a warning.\n",
  .opts = convert_rows,
  .nopts = XQ__NROWS(convert_rows),
};

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcasecmp(s + n - k, suffix);
}

/* Parse argv into *o. Returns -1 to go on, or the exit status. */
static int convert_options(int argc, char **argv, convert_opts *o)
{
  const char *args[2];
  int nargs;
  *o = (convert_opts){.to = -1, .notation = XQ_NOTE_CHINESE};
  int status = xq__opts_parse(&convert_cmd, argc, argv, o, args, &nargs);
  if (status >= 0) return status;
  if (nargs < 2) return xq__opts_error(&convert_cmd, "IN and OUT are required");
  o->in = args[0];
  o->outname = args[1];
  o->flags = o->no_vars ? 0 : XQ_PGN_VARIATIONS;
  o->wflags = o->no_vars ? XQ_PGN_NO_VARS_OUT : 0;
  if (o->no_comments) {
    o->flags |= XQ_PGN_NO_COMMENTS;
    o->wflags |= XQ_PGN_NO_COMMENTS;
  }
  if (o->crlf) o->wflags |= XQ_PGN_CRLF;
  if (o->to < 0)
    o->to = (ends_with(o->outname, ".txt") || ends_with(o->outname, ".htm") ||
             ends_with(o->outname, ".html") || ends_with(o->outname, ".dhtml"))
                ? XQ_FMT_DHTMLXQ
                : XQ_FMT_PGN;
  return -1;
}

void xq__records_warn(const char *command, const char *path, const xq_record *rec)
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
    rc = o->to == XQ_FMT_PGN ? xq_pgn_write(out, rec, (xq_notation)o->notation, o->wflags, &err)
                             : xq_dhtmlxq_write(out, rec, &err);
    if (rc != XQ_OK) {
      fprintf(stderr, "xqref convert: %s: %s\n", o->outname, err.msg);
      status = 1;
      break;
    }
    xq__records_warn("convert", o->in, rec);
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

  xq__path in = {o.in, "IN", 0}, out = {o.outname, "OUT", 0};
  if (xq__paths_check("convert", &out, 1, &in, 1)) return 1;
  xq_error err;
  xq_games *g;
  if (xq_games_open(&g, o.in, o.flags, &err) != XQ_OK) {
    fprintf(stderr, "xqref convert: %s: %s\n", o.in, err.msg);
    return 1;
  }
  xq__paths_out w;
  if (xq__paths_open("convert", o.outname, &w)) {
    xq_games_close(g);
    return 1;
  }
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) {
    fprintf(stderr, "xqref convert: out of memory\n");
    xq_games_close(g);
    xq__paths_close(&w, 0);
    return 1;
  }
  xq_record_init(rec);

  long good = 0, bad = 0;
  status = convert_games(&o, g, w.f, rec, &good, &bad);
  /* a failed read or write leaves OUT as it was */
  int whole = w.tmp != NULL;
  if (xq__paths_close(&w, !status)) status = 1;
  if (good == 0 && bad == 0 && !status) fprintf(stderr, "xqref convert: %s: no game found\n", o.in);
  /* a failed write is no success: no count of games written */
  if (status && whole)
    fprintf(stderr, "xqref convert: %s not written (left as it was)\n", o.outname);
  else if (status)
    fprintf(stderr, "xqref convert: %s not written whole\n", o.outname);
  else
    fprintf(stderr, "xqref convert: %ld game%s written, %ld bad\n", good, good == 1 ? "" : "s", bad);
  xq_record_free(rec);
  free(rec);
  xq_games_close(g);
  return status || bad || good == 0 ? 1 : 0;
}
