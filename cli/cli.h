/*
 * cli.h -- the subcommands of the xqref binary: one entry point per
 * command, each reading its command line by its option table (opts.h,
 * which also prints its --help) and calling the libraries with an option
 * struct; and the limits of cli/. Each returns the process exit status:
 * 0 success, 1 failure, 2 a usage error. argv[0] is the subcommand's name.
 */
#ifndef XQ_CLI_H
#define XQ_CLI_H

/* The limits of the command line, every one of cli/ (as clientlimits.h
 * is for clients/). */
#define XQ_CLI_OPT_ROWS 128                   /* option rows of one command (opts.c) */
#define XQ_CLI_HELP_LEFT_MAX 22               /* widest option column of --help; a wider row's help starts
                                                 a line below */
#define XQ_CLI_USAGE_WIDTH 100                /* usage lines made from the rows wrap before this column */
#define XQ_CLI_HELP_WORDS 4                   /* words after `xqref help` (COMMAND and its action) */
#define XQ_CLI_JUDGE_TOKEN_MAX 64             /* longest move or event token of `judge --moves` */
#define XQ_CLI_JUDGE_FILES_MAX 256            /* game files on one `judge` command line */
#define XQ_CLI_STATS_FILES_MAX 4096           /* files on one `stats` command line (records-corpus.sh: 300) */
#define XQ_CLI_PRESETS_KEY_MAX 64             /* longest rules key `presets show` prints */
#define XQ_CLI_PRESETS_VALUE_MAX 64           /* longest rules value it prints */
#define XQ_CLI_BENCH_STORE_ROWS 100000        /* `bench --store` rows per batch size without ROWS */
#define XQ_CLI_DEMO_PLAYERS 16                /* `tourney demo` players without --players */
#define XQ_CLI_RATING_MAX 9999                /* `tourney add|edit --rating` */
#define XQ_CLI_FOULS_MAX 99                   /* `tourney foul --count` */
#define XQ_CLI_LOT_SEED_MAX 2147483647L       /* `tourney new --seed` */
#define XQ_CLI_PUBLISH_BATCH_MS_MAX 10000     /* `serve --publish-batch` */
#define XQ_CLI_PROGRESS_MIN_BYTES (4LL << 20) /* convert, stats: files from this size report progress */
#define XQ_CLI_PROGRESS_EVERY 0.5             /* seconds between progress lines on a terminal */
#define XQ_CLI_PROGRESS_EVERY_LOG 5.0         /* seconds between progress lines otherwise */
#define XQ_CLI_PATH_TEXT 1200                 /* a file named in a refusal (paths.c), its role included */
#define XQ_CLI_LINK_HOPS 40                   /* symbolic links followed to the file a dangling one would
                                                 make (paths.c; the kernel's own limit) */

/* The whole command line of xqref: `argv[1]` names the subcommand (or
 * help, --help, --version) and the rest is its own. Returns the exit
 * status, a success whose standard output could not be written whole
 * turned into 1. The process must have run xq_engine_init first (main.c;
 * a test that runs the command line in a forked child of its own process
 * has: tests/support.c). */
int xq_cli_main(int argc, char **argv);

int xq_perft_main(int argc, char **argv);         /* perft */
int xq_bench_main(int argc, char **argv);         /* bench, bench --judge, --gen-pgn, --store */
int xq_uci_main(int argc, char **argv);           /* uci */
int xq_convert_main(int argc, char **argv);       /* convert */
int xq_stats_main(int argc, char **argv);         /* stats */
int xq_judge_main(int argc, char **argv);         /* judge */
int xq_tourney_main(int argc, char **argv);       /* tourney */
int xq_pair_main(int argc, char **argv);          /* pair */
int xq_presets_main(int argc, char **argv);       /* presets */
int xq_serve_main(int argc, char **argv);         /* serve */
int xq_loadgen_main(int argc, char **argv);       /* loadgen */
int xq_board_main(int argc, char **argv);         /* board */
int xq_simulate_main(int argc, char **argv);      /* simulate */
int xq_bench_store_main(int argc, char **argv);   /* bench --store */

/* The command line of `bench --store` (bench_store.c), for the help of
 * `bench`, which shows every bench. */
struct xq__cmd;
extern const struct xq__cmd xq__bench_store_cmd;

/* Report on stderr the warnings of game `rec` read from `path` by
 * `xqref COMMAND` (nothing when it has none). Cannot fail. */
struct xq_record;
void xq__records_warn(const char *command, const char *path, const struct xq_record *rec);

#endif /* XQ_CLI_H */
