/*
 * perft.c -- the command lines of `xqref perft` and `xqref uci`: their
 * options, --help texts and exit statuses; the work is the perft
 * module's (perft/perft.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "perft.h"

static const char perft_usage[] =
  "usage: xqref perft [--fen FEN] --depth N [--divide] [--threads T] [--hash MB]\n"
  "\n"
  "Count the leaf nodes of the legal-move tree N plies deep.\n"
  "\n"
  "  --fen FEN     start from FEN (default: the standard start position);\n"
  "                H/E letters, side 'r' and two-field FENs are accepted\n"
  "  --depth N     plies to search, 0..20\n"
  "  --divide      one line per root move as it finishes, 'h2e2: N time T ms'\n"
  "                (T since the start), in ICCS/UCCI coordinates: files a-i\n"
  "                from Red's left, ranks 0-9 from Red's back rank\n"
  "  --threads T   T threads share the subtrees below the ply-2 moves\n"
  "                (default 1)\n"
  "  --hash MB     count through a transposition table of MB MiB shared by\n"
  "                the threads (default 0: none); the counts are the same\n"
  "\n"
  "The last line always begins 'nodes N', followed by the time in ms and\n"
  "the nodes per second. Runs longer than a few seconds print progress\n"
  "lines on stderr: root moves done, leaves per second, time left.\n";

/* Parse a whole decimal number in [lo, hi]; returns 0 on success. */
static int parse_int(const char *s, int lo, int hi, int *out)
{
  char *end;
  long v;
  if (!s || !*s) return -1;
  v = strtol(s, &end, 10);
  if (*end || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

int xq_perft_main(int argc, char **argv)
{
  xq_perft_opts o = {NULL, -1, 0, 1, 0, stderr};
  xq_error err;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(perft_usage, stdout);
      return 0;
    } else if (!strcmp(a, "--divide")) {
      o.divide = 1;
    } else if (!strcmp(a, "--fen") && i + 1 < argc) {
      o.fen = argv[++i];
    } else if (!strcmp(a, "--depth") && i + 1 < argc) {
      if (parse_int(argv[++i], 0, XQ_PERFT_MAX_DEPTH, &o.depth)) {
        fprintf(stderr, "xqref perft: --depth must be 0..%d, not '%s'\n",
                XQ_PERFT_MAX_DEPTH, argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--threads") && i + 1 < argc) {
      if (parse_int(argv[++i], 1, XQ_PERFT_MAX_THREADS, &o.threads)) {
        fprintf(stderr, "xqref perft: --threads must be 1..%d, not '%s'\n",
                XQ_PERFT_MAX_THREADS, argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--hash") && i + 1 < argc) {
      if (parse_int(argv[++i], 0, XQ_PERFT_HASH_MAX_MB, &o.hash_mb)) {
        fprintf(stderr, "xqref perft: --hash must be 0..%d (MiB), not '%s'\n",
                XQ_PERFT_HASH_MAX_MB, argv[i]);
        return 2;
      }
    } else {
      fprintf(stderr, "xqref perft: unknown or incomplete option '%s'\n%s", a, perft_usage);
      return 2;
    }
  }
  if (o.depth < 0) {
    fprintf(stderr, "xqref perft: --depth is required\n%s", perft_usage);
    return 2;
  }
  int rc = xq_perft_run(&o, stdout, &err);
  if (rc == XQ_EFEN) {
    fprintf(stderr, "xqref perft: bad FEN at byte %d: %s\n", err.pos, err.msg);
    return 1;
  }
  if (rc != XQ_OK) {
    fprintf(stderr, "xqref perft: %s\n", err.msg);
    return 1;
  }
  return 0;
}

static const char uci_usage[] =
  "usage: xqref uci\n"
  "\n"
  "A UCI/UCCI text mode on stdin/stdout for GUIs and scripts. Commands:\n"
  "  uci | ucci                      identify (answers uciok / ucciok)\n"
  "  isready                         answers readyok\n"
  "  position startpos|fen FEN [moves M...]\n"
  "                                  moves in ICCS/UCCI coordinates such as h2e2\n"
  "                                  (files a-i, ranks 0-9 from Red's side)\n"
  "  setoption name Hash value MB    perft table size in MiB (0: none)\n"
  "  setoption name Threads value N  threads for perft (1..64)\n"
  "  go perft N | perft N            divide lines, then 'Nodes searched: N'\n"
  "  d                               the board, FEN, key and checking pieces\n"
  "  quit\n";

int xq_uci_main(int argc, char **argv)
{
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    fputs(uci_usage, stdout);
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "xqref uci: unexpected argument '%s'\n", argv[1]);
    return 2;
  }
  return xq_uci_run(stdin, stdout);
}
