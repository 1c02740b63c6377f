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

/* ---- limits and defaults ------------------------------------------ */

#define XQ_PERFT_MAX_DEPTH 20       /* plies of a perft: about 40 moves a ply, so a
                                       deeper run would not finish anyway */
#define XQ_PERFT_MAX_THREADS 64     /* threads of one count (split.c keeps their ids
                                       on its stack): more than the machine's cores */
#define XQ_PERFT_HASH_MAX_MB 65536  /* largest perft table, in MiB (64 GiB): a typo in
                                       --hash is refused before it is allocated */
#define XQ_PERFT_BENCH_HASH_MB 64   /* `bench --hash` without a size: the table of each
                                       position, enough for its counts to hit */
#define XQ_PERFT_PROGRESS_EVERY 5.0 /* seconds between progress lines (the first after
                                       as long): a long run shows life, a short says
                                       nothing */
#define XQ_UCI_LINE_MAX (64 * 1024) /* a command line of the UCI mode: a `position`
                                       with XQ_UCI_PLIES_MAX moves takes 20 KB */
#define XQ_UCI_PLIES_MAX 4096       /* moves after `position ... moves`: a game as long
                                       as the adjudicator follows (XQ_GAME_PLIES_MAX) */

/* Number of leaf nodes `depth` plies below `pos` (1 for depth 0). `pos`
 * is used as scratch and restored before returning. Cannot fail. */
uint64_t xq_perft(xq_pos *pos, int depth);

/* The perft transposition table: (key, depth, count) entries shared by
 * any number of threads without locks (perft/table.h says how torn
 * entries are caught). Counts stay exact whatever its size. */
typedef struct xq_perft_table xq_perft_table;

/* Allocate a table of `bytes` (rounded down to whole 64-byte buckets of
 * four entries), zeroed. Stores it in *out and returns XQ_OK; XQ_EINVAL
 * for a NULL `out`, less than one bucket or more than
 * XQ_PERFT_HASH_MAX_MB MiB; XQ_ENOMEM. *out is NULL on failure. */
int xq_perft_table_new(size_t bytes, xq_perft_table **out);

/* Free a table (NULL is ignored). No perft may be using it. */
void xq_perft_table_free(xq_perft_table *t);

/* Number of entries of `t` (0 for NULL). */
size_t xq_perft_table_entries(const xq_perft_table *t);

/* xq_perft through the table `t` (NULL: the same as xq_perft): nodes of
 * 1 ply and more to go are looked up and recorded. The same count as
 * xq_perft. Cannot fail. */
uint64_t xq_perft_hashed(xq_pos *pos, int depth, xq_perft_table *t);

/* One root move and the leaves below it. */
typedef struct xq_divide_entry {
  xq_move move;
  uint64_t nodes;
} xq_divide_entry;

/* How far a split perft has gone (for xq_perft_ctl.on_progress). */
typedef struct xq_perft_status {
  int roots_done, roots; /* root moves finished, root moves */
  int jobs_done, jobs;   /* ply-2 subtrees finished, ply-2 subtrees */
  uint64_t nodes;        /* leaves of the finished subtrees */
  double elapsed;        /* seconds since the start */
} xq_perft_status;

/* How to run a split perft. Zero fields but `threads` mean: no table, no
 * reports. The callbacks are called one at a time (under a lock), from
 * whichever thread finished the work. */
typedef struct xq_perft_ctl {
  int threads;             /* 1..XQ_PERFT_MAX_THREADS */
  xq_perft_table *table;   /* shared table, or NULL */
  /* A root move's count is complete; `elapsed`: seconds since the start. */
  void (*on_root)(void *ctx, const xq_divide_entry *e, double elapsed);
  /* Every `progress_every` seconds (> 0), after a subtree finishes. */
  void (*on_progress)(void *ctx, const xq_perft_status *s);
  double progress_every;
  void *ctx;
} xq_perft_ctl;

/* Perft of `pos`, split into the subtrees below its ply-2 moves, which
 * ctl->threads threads take from a shared queue one at a time in root-move
 * order (depths 1 and 2 are counted by the calling thread alone). Fills
 * out[] (room for XQ_MAX_MOVES entries) in the order of xq_gen_legal,
 * stores the number of root moves in *n_out and returns the total. With
 * depth 0 the total is 1 and there are no entries. The calling thread
 * takes part, so a thread that cannot be started only slows the count
 * down. Cannot fail. */
uint64_t xq_perft_split(const xq_pos *pos, int depth, const xq_perft_ctl *ctl,
                        xq_divide_entry *out, int *n_out);

/* xq_perft_split over `threads` threads, without table or reports. */
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
  int divide;      /* a line per root move as it finishes */
  int threads;     /* 1..XQ_PERFT_MAX_THREADS */
  int hash_mb;     /* table size in MiB, 0..XQ_PERFT_HASH_MAX_MB; 0: no table */
  FILE *progress;  /* progress lines every XQ_PERFT_PROGRESS_EVERY s, or NULL */
} xq_perft_opts;

/* Count the leaves o->depth plies below o->fen over o->threads threads
 * (through a table of o->hash_mb MiB when not 0) and print the report to
 * `out`: with o->divide a line "h2e2: N time T ms" per root move as it
 * finishes (T: since the start); then always "nodes N time T ms nps R"
 * (plus " hash M MB" with a table). Long runs print "perft: ..." progress
 * lines to o->progress. Returns XQ_OK; XQ_EINVAL for a NULL argument or a
 * depth, thread count or size out of range; XQ_ENOMEM when the table
 * cannot be had; XQ_EFEN for a bad FEN, with `err` (may be NULL) as
 * xq_fen_parse fills it (err->pos: the byte) and nothing printed. */
int xq_perft_run(const xq_perft_opts *o, FILE *out, xq_error *err);

/* A bench run (`xqref bench`). */
typedef struct xq_bench_opts {
  int threads; /* 1..XQ_PERFT_MAX_THREADS */
  int quick;   /* one ply less everywhere: a short run, not checked */
  int hash_mb; /* 0: the unhashed signature; else a fresh table of this many MiB per position */
} xq_bench_opts;

/* Perft over the fixed bench positions (openings, middlegames with cannon
 * screens and pins, sparse endings), printing to `out` a header, a line
 * per position (name, depth, nodes, ms, nodes/s, "  MISMATCH" when the
 * count differs from the perft suite's) and a total line. Returns the
 * number of mismatches (0: the signature holds; always 0 with o->quick),
 * XQ_EINVAL for a NULL argument or a thread count or size out of range,
 * XQ_ENOMEM when a table cannot be had, or XQ_EFEN
 * should a position of the table not parse (err->msg names it: "NAME:
 * why"). */
int xq_perft_bench(const xq_bench_opts *o, FILE *out, xq_error *err);

/* The UCI/UCCI text mode on the given streams (`xqref uci` uses stdin and
 * stdout); the options Hash (MiB, 0 = none) and Threads apply to `go
 * perft`. Returns 0 after `quit` or end of input. */
int xq_uci_run(FILE *in, FILE *out);

#endif /* XQ_PERFT_H */
