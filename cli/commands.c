/*
 * commands.c -- the xqref command line as a whole: the subcommand found
 * in the table and handed the rest of the command line (xq_cli_main).
 * Each subcommand's command line is a file of cli/ (cli.h); its work
 * lives in the libraries; main.c is the process around it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine.h"
#include "net.h"

typedef struct subcommand {
  const char *name;
  int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
  const char *summary;
  int net; /* it runs the server or its clients: xq_net_process_init first */
} subcommand;

static const subcommand commands[] = {
  {"perft", xq_perft_main, "count legal-move tree leaves (--divide per root move)", 0},
  {"bench", xq_bench_main, "perft over a fixed set of positions: nodes, time, nodes/s", 0},
  {"uci", xq_uci_main, "UCI/UCCI text mode: position, go perft, d", 0},
  {"convert", xq_convert_main, "convert game files (PGN, XQF, DhtmlXQ) to PGN or DhtmlXQ", 0},
  {"stats", xq_stats_main, "count games, plies, results and bad records of a game file", 0},
  {"judge", xq_judge_main, "rule a game move by move (--moves), or run a case file (--cases)", 0},
  {"tourney", xq_tourney_main, "tournament store: new, add, pair, result, standings, export", 0},
  {"pair", xq_pair_main, "pair the next round of a TRF file (Chinese, or --system dutch), bbpPairings output", 0},
  {"serve", xq_serve_main, "the tournament server: JSON lines for boards and arbiters, HTTP for viewers", 1},
  {"loadgen", xq_loadgen_main, "replay games as N boards against a server: moves/s and latency", 1},
  {"board", xq_board_main, "play a table from the terminal as a digital board would", 1},
  {"simulate", xq_simulate_main, "a whole event under a regulation preset on the real server, with incidents", 1},
  {"presets", xq_presets_main, "the five regulations as presets; show NAME: every value with its clause", 0},
};

static void usage(FILE *out)
{
  fprintf(out, "usage: xqref COMMAND [OPTIONS]    (xqref COMMAND --help, or xqref help COMMAND, for each)\n\n"
               "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "\nMoves in ICCS/UCCI coordinates use files a-i from Red's left and\n"
               "ranks 0-9 from Red's back rank: h2e2 is 炮二平五.\n");
}

/* The process's start, once, before the command `c` runs: the one place
 * of the process-wide set-up after the engine's own (xq_engine_init,
 * which main.c calls first). The commands that run
 * the server or its clients then get xq_net_process_init; the others
 * keep SIGPIPE's default, so that `xqref ... | head` ends them. */
static void process_start(const subcommand *c)
{
  if (c->net && xq_net_process_init() != XQ_OK)
    fprintf(stderr, "xqref: cannot set UV_THREADPOOL_SIZE: the worker pool keeps libuv's default size\n");
}

/* Run the command argv[0] with its arguments. */
static int run(int argc, char **argv)
{
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[0], commands[i].name)) {
      process_start(&commands[i]);
      return commands[i].run(argc, argv);
    }
  fprintf(stderr, "xqref: unknown command '%s'\n\n", argv[0]);
  usage(stderr);
  return 2;
}

/* `xqref help COMMAND [ACTION...]`: what `xqref COMMAND [ACTION...]
 * --help` prints. */
static int help(int argc, char **argv)
{
  char *args[XQ_CLI_HELP_WORDS + 2];
  if (argc > XQ_CLI_HELP_WORDS) {
    fprintf(stderr, "xqref help: at most %d words\n", XQ_CLI_HELP_WORDS);
    return 2;
  }
  for (int i = 0; i < argc; i++) args[i] = argv[i];
  args[argc] = "--help";
  args[argc + 1] = NULL;
  return run(argc + 1, args);
}

/* The exit status of a command that returned `status`: a success whose
 * standard output could not be written whole (a full disk, a closed
 * pipe's reader gone: `xqref perft ... >/dev/full`) is a failure, said
 * once. */
static int finish(int status)
{
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return status;
  int e = errno ? errno : EIO;
  if (status) return status; /* the command has said what went wrong */
  fprintf(stderr, "xqref: cannot write the standard output: %s\n", strerror(e));
  return 1;
}

int xq_cli_main(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "help") && argc > 2) return finish(help(argc - 2, argv + 2));
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return finish(0);
  }
  if (!strcmp(argv[1], "--version")) {
    puts("xqref " XQ_VERSION);
    return finish(0);
  }
  return finish(run(argc - 1, argv + 1));
}
