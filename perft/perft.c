/*
 * perft.c -- leaf counting, split by root move and spread over threads,
 * and the `xqref perft` subcommand.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perft.h"

static uint64_t perft_rec(xq_pos *pos, int depth)
{
  xq_movelist list;
  xq_undo u;
  uint64_t n = 0;

  /* Bulk counting: the last ply is counted, not played. */
  if (depth == 1) return (uint64_t)xq_count_legal(pos);
  xq_gen_legal(pos, &list);
  for (int i = 0; i < list.n; i++) {
    xq_make(pos, list.m[i], &u);
    n += perft_rec(pos, depth - 1);
    xq_unmake(pos, list.m[i], &u);
  }
  return n;
}

uint64_t xq_perft(xq_pos *pos, int depth)
{
  if (depth <= 0) return 1;
  return perft_rec(pos, depth);
}

double xq_perft_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Work shared by the divide threads: each takes the next root move. */
typedef struct divide_job {
  const xq_pos *root;
  int depth;
  xq_movelist moves;
  xq_divide_entry *out;
  atomic_int next;
} divide_job;

static void *divide_worker(void *arg)
{
  divide_job *job = arg;
  xq_pos pos = *job->root;
  for (;;) {
    int i = atomic_fetch_add(&job->next, 1);
    if (i >= job->moves.n) break;
    xq_undo u;
    xq_make(&pos, job->moves.m[i], &u);
    job->out[i].move = job->moves.m[i];
    job->out[i].nodes = xq_perft(&pos, job->depth - 1);
    xq_unmake(&pos, job->moves.m[i], &u);
  }
  return NULL;
}

uint64_t xq_perft_divide(const xq_pos *pos, int depth, int threads,
                         xq_divide_entry *out, int *n_out)
{
  divide_job job;
  pthread_t tid[XQ_PERFT_MAX_THREADS];
  int started = 0;
  uint64_t total = 0;

  *n_out = 0;
  if (depth <= 0) return 1;
  if (threads < 1) threads = 1;
  if (threads > XQ_PERFT_MAX_THREADS) threads = XQ_PERFT_MAX_THREADS;
  job.root = pos;
  job.depth = depth;
  job.out = out;
  atomic_init(&job.next, 0);
  xq_gen_legal(pos, &job.moves);
  /* The calling thread works too: threads - 1 helpers. */
  for (int t = 1; t < threads && t < job.moves.n; t++) {
    /* A helper that cannot start just leaves more moves to the others. */
    if (pthread_create(&tid[started], NULL, divide_worker, &job) != 0) break;
    started++;
  }
  divide_worker(&job);
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  for (int i = 0; i < job.moves.n; i++) total += out[i].nodes;
  *n_out = job.moves.n;
  return total;
}

/* ---- xqref perft --------------------------------------------------- */

static const char perft_usage[] =
  "usage: xqref perft [--fen FEN] --depth N [--divide] [--threads T]\n"
  "\n"
  "Count the leaf nodes of the legal-move tree N plies deep.\n"
  "\n"
  "  --fen FEN     start from FEN (default: the standard start position);\n"
  "                H/E letters, side 'r' and two-field FENs are accepted\n"
  "  --depth N     plies to search, 0..20\n"
  "  --divide      one line per root move, 'h2e2: N', in ICCS/UCCI\n"
  "                coordinates: files a-i from Red's left, ranks 0-9 from\n"
  "                Red's back rank\n"
  "  --threads T   root moves shared by T threads (default 1)\n"
  "\n"
  "The last line always begins 'nodes N', followed by the time in ms and\n"
  "the nodes per second.\n";

static int cmp_entry_text(const void *a, const void *b)
{
  const xq_divide_entry *x = a, *y = b;
  int d = XQ_FROM(x->move) % 9 - XQ_FROM(y->move) % 9;
  if (!d) d = XQ_FROM(x->move) / 9 - XQ_FROM(y->move) / 9;
  if (!d) d = XQ_TO(x->move) % 9 - XQ_TO(y->move) % 9;
  if (!d) d = XQ_TO(x->move) / 9 - XQ_TO(y->move) / 9;
  return d;
}

/* Parse a whole decimal number in [lo, hi]; returns 0 on success. */
static int parse_int(const char *s, int lo, int hi, int *out)
{
  char *end;
  long v;
  if (!s || !*s) return -1;
  v = strtol(s, &end, 10);
  if (*end || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

int xq_perft_main(int argc, char **argv)
{
  const char *fen = NULL;
  int depth = -1, divide = 0, threads = 1;
  xq_pos pos;
  xq_error err;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(perft_usage, stdout);
      return 0;
    } else if (!strcmp(a, "--divide")) {
      divide = 1;
    } else if (!strcmp(a, "--fen") && i + 1 < argc) {
      fen = argv[++i];
    } else if (!strcmp(a, "--depth") && i + 1 < argc) {
      if (parse_int(argv[++i], 0, XQ_PERFT_MAX_DEPTH, &depth)) {
        fprintf(stderr, "xqref perft: --depth must be 0..%d, not '%s'\n",
                XQ_PERFT_MAX_DEPTH, argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--threads") && i + 1 < argc) {
      if (parse_int(argv[++i], 1, XQ_PERFT_MAX_THREADS, &threads)) {
        fprintf(stderr, "xqref perft: --threads must be 1..%d, not '%s'\n",
                XQ_PERFT_MAX_THREADS, argv[i]);
        return 2;
      }
    } else {
      fprintf(stderr, "xqref perft: unknown or incomplete option '%s'\n%s", a, perft_usage);
      return 2;
    }
  }
  if (depth < 0) {
    fprintf(stderr, "xqref perft: --depth is required\n%s", perft_usage);
    return 2;
  }
  if (fen) {
    if (xq_fen_parse(&pos, fen, 0, &err) != XQ_OK) {
      fprintf(stderr, "xqref perft: bad FEN at byte %d: %s\n", err.pos, err.msg);
      return 1;
    }
  } else {
    xq_pos_startpos(&pos);
  }

  xq_divide_entry entries[XQ_MAX_MOVES];
  int n = 0;
  double t0 = xq_perft_now();
  uint64_t nodes = xq_perft_divide(&pos, depth, threads, entries, &n);
  double dt = xq_perft_now() - t0;
  if (divide) {
    qsort(entries, (size_t)n, sizeof entries[0], cmp_entry_text);
    for (int i = 0; i < n; i++) {
      char text[XQ_MOVE_TEXT_MAX];
      xq_move_format(&pos, entries[i].move, XQ_NOTE_ICCS, text, sizeof text);
      printf("%s: %llu\n", text, (unsigned long long)entries[i].nodes);
    }
  }
  printf("nodes %llu time %.0f ms nps %.0f\n", (unsigned long long)nodes, dt * 1000.0,
         dt > 0 ? (double)nodes / dt : 0.0);
  return 0;
}
