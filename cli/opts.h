/*
 * opts.h -- the option tables of the subcommands: one row an option (its
 * name, short form, kind, where its value goes, the value's name and its
 * help), one parser for every command line, and the --help text and the
 * usage line printed from the same rows, so that neither can miss an
 * option. Internal to cli/.
 */
#ifndef XQ_CLI_OPTS_H
#define XQ_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* What an option's value is, and where it goes (`at` in the option
 * struct, of the C type named). */
enum {
  XQ__OPT_FLAG,   /* no value: the int takes `lo` */
  XQ__OPT_INT,    /* a whole number lo..hi: an int */
  XQ__OPT_LONG,   /* a whole number lo..hi: a long */
  XQ__OPT_U64,    /* a whole number 0..2^64-1: a uint64_t */
  XQ__OPT_DOUBLE, /* a number above lo and at most hi: a double */
  XQ__OPT_STRING, /* the word itself (argv's, not copied): a const char * */
  XQ__OPT_ENUM,   /* one of the words of `value` ("pgn|dhtmlxq"): an int, map[k] for the k-th word (k without map) */
  XQ__OPT_CALL,   /* the word handed to `call`, which keeps it where it likes */
};

/* Row flags. */
#define XQ__OPT_REQUIRED 1u /* the command line must give it */
#define XQ__OPT_OPTIONAL 2u /* INT and LONG: the value may be left out (taken when the next word begins
                               with a digit); then `dflt` */
#define XQ__OPT_REPEAT 4u   /* may be given again (the usage line says "..."); the others too, the last counts */

/* One option. `only` is for commands with actions (xqref tourney): the
 * actions that take it, as bits of xq__cmd.mask; 0, every one. */
typedef struct xq__opt {
  const char *name;  /* "--depth" */
  char alias;        /* 'v' for -v; 0: none */
  unsigned char kind, flags;
  uint64_t only;
  size_t at;         /* offsetof the value in the command's option struct (none for CALL) */
  long long lo, hi;  /* a number's range; FLAG: the value set, in lo */
  long long dflt;    /* XQ__OPT_OPTIONAL: the value when none is given */
  const int *map;    /* ENUM: the value of each word; NULL: its index */
  int (*call)(void *opts, const char *value, xq_error *err); /* CALL: XQ_OK, or an error with err->msg */
  const char *value; /* the value's name in the help ("N"); ENUM: its words, '|' between */
  const char *help;  /* its help: one line; a '\n' goes on on the next, indented as the first */
} xq__opt;

/* offsetof(T, f), refused by the compiler unless T.f has the type `type`. */
#define XQ__OPT_AT(T, f, type) _Generic(((T *)0)->f, type: offsetof(T, f))

/* The rows, by kind: option NAME of struct T's field F. Further
 * designated initializers may follow (.alias = 'v', .flags =
 * XQ__OPT_REQUIRED, .only = ...). */
#define XQ__FLAG(NAME, T, F, V, HELP, ...) \
  {.name = NAME, .kind = XQ__OPT_FLAG, .at = XQ__OPT_AT(T, F, int), .lo = V, .help = HELP, __VA_ARGS__}
#define XQ__INT(NAME, T, F, LO, HI, VAL, HELP, ...)                                                           \
  {.name = NAME, .kind = XQ__OPT_INT, .at = XQ__OPT_AT(T, F, int), .lo = LO, .hi = HI, .value = VAL, .help = HELP, \
   __VA_ARGS__}
#define XQ__LONG(NAME, T, F, LO, HI, VAL, HELP, ...)                                                            \
  {.name = NAME, .kind = XQ__OPT_LONG, .at = XQ__OPT_AT(T, F, long), .lo = LO, .hi = HI, .value = VAL, .help = HELP, \
   __VA_ARGS__}
#define XQ__U64(NAME, T, F, VAL, HELP, ...) \
  {.name = NAME, .kind = XQ__OPT_U64, .at = XQ__OPT_AT(T, F, uint64_t), .value = VAL, .help = HELP, __VA_ARGS__}
#define XQ__DOUBLE(NAME, T, F, LO, HI, VAL, HELP, ...)                                                   \
  {.name = NAME, .kind = XQ__OPT_DOUBLE, .at = XQ__OPT_AT(T, F, double), .lo = LO, .hi = HI, .value = VAL, \
   .help = HELP, __VA_ARGS__}
#define XQ__STR(NAME, T, F, VAL, HELP, ...)                                                                 \
  {.name = NAME, .kind = XQ__OPT_STRING, .at = XQ__OPT_AT(T, F, const char *), .value = VAL, .help = HELP, \
   __VA_ARGS__}
#define XQ__ENUM(NAME, T, F, WORDS, MAP, HELP, ...)                                                            \
  {.name = NAME, .kind = XQ__OPT_ENUM, .at = XQ__OPT_AT(T, F, int), .map = MAP, .value = WORDS, .help = HELP, \
   __VA_ARGS__}
#define XQ__CALL(NAME, FN, VAL, HELP, ...) \
  {.name = NAME, .kind = XQ__OPT_CALL, .call = FN, .value = VAL, .help = HELP, __VA_ARGS__}

/* A command line: its name, its rows and its help. */
typedef struct xq__cmd {
  const char *name;     /* after "xqref " in messages and the usage: "perft", "tourney new" */
  const char *synopsis; /* the usage after "usage: xqref NAME " (a '\n' starts another usage line);
                           NULL: made from the rows, then `args` */
  const char *args;     /* the arguments' names in a made usage ("FILE.trf"), NULL: none */
  int args_max;         /* arguments (words that are no option) taken at most */
  int dash_words;       /* "--", "-+" and "-1..." are arguments, not options ("-" always is one) */
  const char *about;    /* the help between the usage and the options (NULL: none) */
  const char *after;    /* the help after the options (NULL: none) */
  const xq__opt *opts;
  int nopts;            /* at most XQ_CLI_OPT_ROWS */
  uint64_t mask;        /* the action parsed: rows whose `only` misses it are not its options */
  const char *const *actions; /* the actions' names, bit k the k-th: for "applies only to ..." */
  const struct xq__cmd *const *variants; /* the command's other command lines (bench --judge, ...),
                                            NULL-terminated; NULL: none. Its help shows their usage
                                            after its own, and their about text and options after
                                            its options. */
} xq__cmd;

/* The text of a number macro, for help strings ("64"). */
#define XQ__OPT_TEXT(x) XQ__OPT_TEXT_(x)
#define XQ__OPT_TEXT_(x) #x

#define XQ__NROWS(rows) ((int)(sizeof(rows) / sizeof((rows)[0])))

/* Read argv[1..argc-1] (argv[0] names the command) by the rows of `c`:
 * each option's value into the struct `opts`, the other words into
 * args[0..c->args_max-1] with their count in *nargs (args and nargs may
 * be NULL when c->args_max is 0). --help or -h prints the help on stdout.
 * A usage error (an unknown option, a missing value, a bad number or
 * word, an option of another action, too many arguments, a required
 * option missing) is printed on stderr, each in its own words, with the
 * usage line. Returns -1 when the command goes on, 0 after the help, 2
 * after a usage error: the exit status. */
int xq__opts_parse(const xq__cmd *c, int argc, char **argv, void *opts, const char **args, int *nargs);

/* Print the help of `c` on `out`: the usage (and its variants'), the
 * about text, one line (or more) a row that the action takes, --help,
 * each variant's about text and rows, the after text. */
void xq__opts_help(const xq__cmd *c, FILE *out);

/* Print the usage of `c` after its name (the synopsis, or one word a row
 * that the action takes, then the arguments), from column `at` of the
 * line: wrapped at XQ_CLI_USAGE_WIDTH, each further line indented by
 * `indent`; then a newline. */
void xq__opts_synopsis(const xq__cmd *c, int at, int indent, FILE *out);

/* Print "xqref NAME: MESSAGE" (printf-formatted) and the usage of `c` on
 * stderr. Returns 2, the status of a usage error. */
int xq__opts_error(const xq__cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* True when `s` is a whole decimal in [lo, hi] with nothing after it,
 * stored in *out; false leaves *out. */
int xq__opts_number(const char *s, long long lo, long long hi, long long *out);

#endif /* XQ_CLI_OPTS_H */
