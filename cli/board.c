/*
 * board.c -- `xqref board`: the options and --help; the session is
 * clients/'s (xq_board_run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clients.h"
#include "netlimits.h"

static const char board_usage[] =
  "usage: xqref board --connect HOST:PORT --token K [--table T] [--lang en|zh] [--no-board]\n"
  "\n"
  "Play the table of board token K from a terminal, as a digital board does.\n"
  "Each line of standard input is one event, sent with the next sequence\n"
  "number; the verdict is printed in words, then the board.\n"
  "\n"
  "  a move          in ICCS (h2e2), WXF (C2.5) or Chinese (炮二平五)\n"
  "  clock R B       clock reading, each h:mm:ss, m:ss or seconds\n"
  "  claim natural|repetition [red|black]\n"
  "  draw offer|accept|decline [red|black]\n"
  "  resign [red|black]   (default: the side to move)\n"
  "  position FEN    the board as sensed (FEN or its placement field)\n"
  "  lift SQUARE / release   touch-move: a piece lifted / the hand left it\n"
  "  quit\n"
  "\n"
  "  --table T       check that the token is for table T\n"
  "  --lang zh       verdicts in Chinese (default English)\n"
  "  --no-board      do not print the board after each reply\n"
  "\n"
  "Exit status 0 when every event was accepted by the server (verdicts such\n"
  "as fouls included), 1 when one was answered with an error or the\n"
  "connection failed, 2 for a usage error.\n";

static const char usage_line[] =
  "usage: xqref board --connect HOST:PORT --token K [--table T] [--lang en|zh] [--no-board]";

static int usage_error(const char *msg, const char *arg)
{
  return xq_cli_usage_error("board", usage_line, msg, arg);
}

int xq_board_main(int argc, char **argv)
{
  xq_board_opts o = {.show_board = 1, .help = board_usage};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(board_usage, stdout);
      return 0;
    }
    if (!strcmp(a, "--no-board")) {
      o.show_board = 0;
      continue;
    }
    if (i + 1 >= argc) return usage_error("missing value after", a);
    const char *v = argv[++i];
    if (!strcmp(a, "--connect")) o.connect = v;
    else if (!strcmp(a, "--token")) o.token = v;
    else if (!strcmp(a, "--table")) {
      char *end;
      long table = strtol(v, &end, 10);
      if (*end || table < 1 || table > XQ_BOARDS_MAX) return usage_error("--table wants a table number, not", v);
      o.table = (int)table;
    } else if (!strcmp(a, "--lang")) {
      if (strcmp(v, "en") && strcmp(v, "zh")) return usage_error("--lang is en or zh, not", v);
      o.lang_zh = !strcmp(v, "zh");
    } else {
      return usage_error("unknown option", a);
    }
  }
  if (!o.connect || !o.token) return usage_error("--connect and --token are required", NULL);
  if (!strrchr(o.connect, ':')) return usage_error("--connect wants HOST:PORT, not", o.connect);
  int rc = xq_board_run(&o, stdin, stdout, stderr);
  if (rc == XQ_EINVAL) return usage_error("--connect wants HOST:PORT, not", o.connect);
  return rc == XQ_OK ? 0 : 1;
}
