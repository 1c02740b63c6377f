/*
 * perft.h -- perft, divide and bench: whole-program checks and speed
 * figures for the move generator, and the UCI/UCCI text mode.
 */
#ifndef XQ_PERFT_H
#define XQ_PERFT_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

#define XQ_PERFT_MAX_DEPTH 20   /* deeper runs would not finish anyway */
#define XQ_PERFT_MAX_THREADS 64

/* Number of leaf nodes `depth` plies below `pos` (1 for depth 0). `pos`
 * is used as scratch and restored before returning. Cannot fail. */
uint64_t xq_perft(xq_pos *pos, int depth);

/* One root move and the leaves below it. */
typedef struct xq_divide_entry {
  xq_move move;
  uint64_t nodes;
} xq_divide_entry;

/* Perft split by root move over `threads` threads (1..XQ_PERFT_MAX_THREADS).
 * Fills out[] (room for XQ_MAX_MOVES entries) in the order of
 * xq_gen_legal, stores the number of root moves in *n_out and returns the
 * total. With depth 0 the total is 1 and there are no entries. The
 * calling thread takes part, so a thread that cannot be started only
 * slows the count down. Cannot fail. */
uint64_t xq_perft_divide(const xq_pos *pos, int depth, int threads,
                         xq_divide_entry *out, int *n_out);

/* Seconds on a monotonic clock. */
double xq_perft_now(void);

/* Subcommands: parse argv (argv[0] is the subcommand name), do the work,
 * print to stdout, errors to stderr. Return the process exit status (0
 * success, 1 failure, 2 usage error). */
int xq_perft_main(int argc, char **argv);
int xq_bench_main(int argc, char **argv);
int xq_uci_main(int argc, char **argv);

/* The UCI/UCCI text mode on the given streams (xq_uci_main uses stdin and
 * stdout). Returns 0 after `quit` or end of input. */
int xq_uci_run(FILE *in, FILE *out);

#endif /* XQ_PERFT_H */
