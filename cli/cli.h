/*
 * cli.h -- the subcommands of the xqref binary: one entry point per
 * command, each parsing its own options (with --help) and calling the
 * libraries with an option struct. Each returns the process exit status:
 * 0 success, 1 failure, 2 a usage error. argv[0] is the subcommand's name.
 */
#ifndef XQ_CLI_H
#define XQ_CLI_H

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

/* Report on stderr the warnings of game `rec` read from `path` by
 * `xqref COMMAND` (nothing when it has none). Cannot fail. */
struct xq_record;
void xq__cli_warn(const char *command, const char *path, const struct xq_record *rec);

/* A command-line number (number.c): true when `s` is a whole decimal in
 * [lo, hi] with nothing after it, stored in *out; false leaves *out. */
int xq__cli_number(const char *s, long lo, long hi, long *out);

/* The value `v` of option `opt` of `xqref CMD [ACT]` (ACT may be NULL;
 * the messages name "xqref tourney edit:" or "xqref tourney:"): kept in
 * *str when str is not NULL, else read as a number lo..hi into *num
 * (number.c). Returns 0, or 2 (a usage error, printed: no value, or not
 * such a number). */
int xq__cli_value(const char *cmd, const char *act, const char *opt, const char *v, const char **str, long lo, long hi,
                  long *num);

/* Print "xqref COMMAND: MSG ARG" (ARG may be NULL) and the one-line
 * `usage` to stderr; returns 2, the status of a usage error. */
int xq_cli_usage_error(const char *command, const char *usage, const char *msg, const char *arg);

#endif /* XQ_CLI_H */
