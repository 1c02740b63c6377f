/*
 * perft.c -- the command lines of `xqref perft` and `xqref uci`: their
 * options, --help texts and exit statuses; the work is the perft
 * module's (perft/perft.h).
 */
#include <stdio.h>

#include "cli.h"
#include "opts.h"
#include "perft.h"

static const xq__opt perft_rows[] = {
  XQ__STR("--fen", xq_perft_opts, fen, "FEN",
          "start from FEN (default: the standard start position);\n"
          "H/E letters, side 'r' and two-field FENs are accepted"),
  XQ__INT("--depth", xq_perft_opts, depth, 0, XQ_PERFT_MAX_DEPTH, "N", "plies to search, 0..20",
          .flags = XQ__OPT_REQUIRED),
  XQ__FLAG("--divide", xq_perft_opts, divide, 1,
           "one line per root move as it finishes, 'h2e2: N time T ms'\n"
           "(T since the start), in ICCS/UCCI coordinates: files a-i\n"
           "from Red's left, ranks 0-9 from Red's back rank"),
  XQ__INT("--threads", xq_perft_opts, threads, 1, XQ_PERFT_MAX_THREADS, "T",
          "T threads share the subtrees below the ply-2 moves\n(default 1)"),
  XQ__INT("--hash", xq_perft_opts, hash_mb, 0, XQ_PERFT_HASH_MAX_MB, "MB",
          "count through a transposition table of MB MiB shared by\n"
          "the threads (default 0: none); the counts are the same"),
};

static const xq__cmd perft_cmd = {
  .name = "perft",
  .about = "Count the leaf nodes of the legal-move tree N plies deep.\n",
  .after = "The last line always begins 'nodes N', followed by the time in ms and\n"
           "the nodes per second. Runs longer than a few seconds print progress\n"
           "lines on stderr: root moves done, leaves per second, time left.\n",
  .opts = perft_rows,
  .nopts = XQ__NROWS(perft_rows),
};

int xq_perft_main(int argc, char **argv)
{
  xq_perft_opts o = {NULL, -1, 0, 1, 0, stderr};
  xq_error err;
  int status = xq__opts_parse(&perft_cmd, argc, argv, &o, NULL, NULL);
  if (status >= 0) return status;
  int rc = xq_perft_run(&o, stdout, &err);
  if (rc == XQ_EFEN) {
    /* a position the rules forbid has no byte to point at (err.pos -1) */
    if (err.pos >= 0) fprintf(stderr, "xqref perft: bad FEN at byte %d: %s\n", err.pos, err.msg);
    else fprintf(stderr, "xqref perft: bad FEN: %s\n", err.msg);
    return 1;
  }
  if (rc != XQ_OK) {
    fprintf(stderr, "xqref perft: %s\n", err.msg);
    return 1;
  }
  return 0;
}

static const xq__cmd uci_cmd = {
  .name = "uci",
  .about = "A UCI/UCCI text mode on stdin/stdout for GUIs and scripts. Commands:\n"
           "  uci | ucci                      identify (answers uciok / ucciok)\n"
           "  isready                         answers readyok\n"
           "  position startpos|fen FEN [moves M...]\n"
           "                                  moves in ICCS/UCCI coordinates such as h2e2\n"
           "                                  (files a-i, ranks 0-9 from Red's side)\n"
           "  setoption name Hash value MB    perft table size in MiB (0: none)\n"
           "  setoption name Threads value N  threads for perft (1..64)\n"
           "  go perft N | perft N            divide lines, then 'Nodes searched: N'\n"
           "  d                               the board, FEN, key and checking pieces\n"
           "  quit\n",
};

int xq_uci_main(int argc, char **argv)
{
  int status = xq__opts_parse(&uci_cmd, argc, argv, NULL, NULL, NULL);
  if (status >= 0) return status;
  return xq_uci_run(stdin, stdout);
}
