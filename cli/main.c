/*
 * main.c -- the xqref binary: find the subcommand in the table and hand it
 * the rest of the command line. Each subcommand's command line is a file
 * of cli/ (cli.h); its work lives in the libraries.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct subcommand {
  const char *name;
  int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
  const char *summary;
} subcommand;

static const subcommand commands[] = {
  {"perft", xq_perft_main, "count legal-move tree leaves (--divide per root move)"},
  {"bench", xq_bench_main, "perft over a fixed set of positions: nodes, time, nodes/s"},
  {"uci", xq_uci_main, "UCI/UCCI text mode: position, go perft, d"},
  {"convert", xq_convert_main, "convert game files (PGN, XQF, DhtmlXQ) to PGN or DhtmlXQ"},
  {"stats", xq_stats_main, "count games, plies, results and bad records of a game file"},
  {"judge", xq_judge_main, "rule a game move by move (--moves), or run a case file (--cases)"},
  {"tourney", xq_tourney_main, "tournament store: new, add, pair, result, standings, export"},
  {"pair", xq_pair_main, "pair the next round of a TRF file (--system cn|dutch), bbpPairings output"},
  {"serve", xq_serve_main, "the tournament server: JSON lines for boards and arbiters, HTTP for viewers"},
  {"loadgen", xq_loadgen_main, "replay games as N boards against a server: moves/s and latency"},
  {"board", xq_board_main, "play a table from the terminal as a digital board would"},
  {"simulate", xq_simulate_main, "a whole event under a regulation preset on the real server, with incidents"},
  {"presets", xq_presets_main, "the five regulations as presets; show NAME: every value with its clause"},
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

/* Run the command argv[0] with its arguments. */
static int run(int argc, char **argv)
{
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[0], commands[i].name)) return commands[i].run(argc, argv);
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

int main(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "help") && argc > 2) return help(argc - 2, argv + 2);
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    puts("xqref 0.1.0");
    return 0;
  }
  return run(argc - 1, argv + 1);
}
