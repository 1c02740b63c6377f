/*
 * board.c -- `xqref board`: the options and --help; the session is
 * clients/'s (xq_board_run).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "clients.h"
#include "netlimits.h"
#include "opts.h"

/* The command line: the session's options and what becomes of them. */
typedef struct board_cli {
  xq_board_opts o;
  int lang_zh, no_board;
} board_cli;

static const xq__opt board_rows[] = {
  XQ__STR("--connect", board_cli, o.connect, "HOST:PORT", "the server's JSON lines", .flags = XQ__OPT_REQUIRED),
  XQ__STR("--token", board_cli, o.token, "K", "the table's board token", .flags = XQ__OPT_REQUIRED),
  XQ__INT("--table", board_cli, o.table, 1, XQ_BOARDS_MAX, "T", "check that the token is for table T"),
  XQ__ENUM("--lang", board_cli, lang_zh, "en|zh", NULL, "verdicts in Chinese with zh (default English)"),
  XQ__FLAG("--no-board", board_cli, no_board, 1, "do not print the board after each reply"),
};

static const xq__cmd board_cmd = {
  .name = "board",
  .about = "Play the table of board token K from a terminal, as a digital board does.\n"
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
           "  quit\n",
  .after = "Exit status 0 when every event was accepted by the server (verdicts such\n"
           "as fouls included), 1 when one was answered with an error or the\n"
           "connection failed, 2 for a usage error.\n",
  .opts = board_rows,
  .nopts = XQ__NROWS(board_rows),
};

int xq_board_main(int argc, char **argv)
{
  board_cli c = {.o = {.help = board_cmd.about}};
  int status = xq__opts_parse(&board_cmd, argc, argv, &c, NULL, NULL);
  if (status >= 0) return status;
  c.o.lang_zh = c.lang_zh;
  c.o.show_board = !c.no_board;
  if (!strrchr(c.o.connect, ':')) return xq__opts_error(&board_cmd, "--connect wants HOST:PORT, not %s", c.o.connect);
  int rc = xq_board_run(&c.o, stdin, stdout, stderr);
  if (rc == XQ_EINVAL) return xq__opts_error(&board_cmd, "--connect wants HOST:PORT, not %s", c.o.connect);
  return rc == XQ_OK ? 0 : 1;
}
