/*
 * perft.h -- perft, divide and bench: whole-program checks and speed
 * figures for the move generator, and the UCI/UCCI text mode. The
 * command lines that run them are in cli/ (cli/perft.c, cli/bench.c).
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

/* Print the divide entries e[0..n) of `pos` to `out` in their order, one
 * line "h2e2: N" each (ICCS/UCCI coordinates). Cannot fail. */
void xq_perft_print_divide(FILE *out, const xq_pos *pos, const xq_divide_entry *e, int n);

/* A perft run (`xqref perft`). */
typedef struct xq_perft_opts {
  const char *fen; /* start position (xq_fen_parse, flags 0); NULL = the standard start */
  int depth;       /* plies, 0..XQ_PERFT_MAX_DEPTH */
  int divide;      /* first a line per root move, sorted by its ICCS text */
  int threads;     /* 1..XQ_PERFT_MAX_THREADS */
} xq_perft_opts;

/* Count the leaves o->depth plies below o->fen over o->threads threads
 * and print the report to `out`: with o->divide the root moves as
 * xq_perft_print_divide prints them, in the order of their ICCS text;
 * then always "nodes N time T ms nps R". Returns XQ_OK; XQ_EINVAL for a
 * NULL argument or a depth or thread count out of range; XQ_EFEN for a
 * bad FEN, with `err` (may be NULL) as xq_fen_parse fills it (err->pos:
 * the byte) and nothing printed. */
int xq_perft_run(const xq_perft_opts *o, FILE *out, xq_error *err);

/* A bench run (`xqref bench`). */
typedef struct xq_bench_opts {
  int threads; /* 1..XQ_PERFT_MAX_THREADS */
  int quick;   /* one ply less everywhere: a short run, not checked */
} xq_bench_opts;

/* Perft over the fixed bench positions (openings, middlegames with cannon
 * screens and pins, sparse endings), printing to `out` a header, a line
 * per position (name, depth, nodes, ms, nodes/s, "  MISMATCH" when the
 * count differs from the perft suite's) and a total line. Returns the
 * number of mismatches (0: the signature holds; always 0 with o->quick),
 * XQ_EINVAL for a NULL argument or a thread count out of range, or XQ_EFEN
 * should a position of the table not parse (err->msg names it: "NAME:
 * why"). */
int xq_perft_bench(const xq_bench_opts *o, FILE *out, xq_error *err);

/* The UCI/UCCI text mode on the given streams (`xqref uci` uses stdin and
 * stdout). Returns 0 after `quit` or end of input. */
int xq_uci_run(FILE *in, FILE *out);

#endif /* XQ_PERFT_H */
