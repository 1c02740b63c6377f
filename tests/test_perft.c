/*
 * test_perft.c -- perft counts of the whole suite (tests/data/perft_suite.txt),
 * divide and split over threads, the transposition table (tiny tables,
 * torn entries, keys), and the `xqref perft` / `xqref bench` / `xqref
 * uci` interfaces.
 *
 * Each position runs every depth whose count is at most XQ_TEST_PERFT_NODES
 * (default 4 million; the environment variable of that name changes it, so
 * a sanitizer build can go shallower and a long run deeper).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perft.h"
#include "table.h"
#include "support.h"

static unsigned long long node_limit(void)
{
  const char *s = getenv("XQ_TEST_PERFT_NODES");
  return s && *s ? strtoull(s, NULL, 10) : 4000000ull;
}

/* A way of counting: xq_perft, or a split perft over threads and table. */
typedef struct counter {
  int threads;
  xq_perft_table *table; /* NULL: plain */
  int split;             /* 0: xq_perft */
} counter;

static uint64_t count_with(const counter *c, xq_pos *pos, int depth)
{
  if (!c->split) return xq_perft(pos, depth);
  xq_perft_ctl ctl = {c->threads, c->table, NULL, NULL, 0, NULL};
  xq_divide_entry e[XQ_MAX_MOVES];
  int n;
  return xq_perft_split(pos, depth, &ctl, e, &n);
}

/* Every count of the suite up to `limit` leaves, counted the way of `c`. */
static void check_suite(const counter *c, unsigned long long limit, const char *how)
{
  FILE *f = fopen(XQ_TEST_DATA "/perft_suite.txt", "r");
  char line[1024];
  int positions = 0, checks = 0;

  cr_assert_not_null(f, "cannot open the perft suite");
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char *save, *id = strtok_r(line, ";", &save), *fen = strtok_r(NULL, ";", &save), *t;
    xq_pos pos;
    xq_error err;
    cr_assert(id && fen);
    cr_assert_eq(xq_fen_parse(&pos, fen, 0, &err), XQ_OK, "%s: %s", id, err.msg);
    positions++;
    while ((t = strtok_r(NULL, ";", &save))) {
      int depth;
      unsigned long long want;
      cr_assert_eq(sscanf(t, "%d %llu", &depth, &want), 2, "%s: bad entry '%s'", id, t);
      if (want > limit && depth > 1) continue;
      unsigned long long got = count_with(c, &pos, depth);
      cr_assert_eq(got, want, "%s depth %d (%s): %llu, expected %llu", id, depth, how, got, want);
      checks++;
    }
  }
  fclose(f);
  cr_assert_eq(positions, 54);
  cr_log_info("perft suite (%s): %d positions, %d counts checked (limit %llu)", how, positions,
              checks, limit);
}

Test(perft, whole_suite_up_to_the_node_limit)
{
  counter plain = {1, NULL, 0};
  check_suite(&plain, node_limit(), "xq_perft");
}

Test(perft, whole_suite_split_over_two_threads)
{
  counter two = {2, NULL, 1};
  check_suite(&two, node_limit(), "2 threads");
}

Test(perft, whole_suite_through_the_table_on_one_and_two_threads)
{
  xq_perft_table *t;
  cr_assert_eq(xq_perft_table_new(8u << 20, &t), XQ_OK);
  counter one = {1, t, 1}, two = {2, t, 1};
  /* One table for every position and depth: entries of the others must
   * never be taken for a position's own. */
  check_suite(&one, node_limit(), "hash, 1 thread");
  check_suite(&two, node_limit(), "hash, 2 threads");
  xq_perft_table_free(t);
}

Test(perft, tiny_tables_keep_deep_counts_exact)
{
  static const struct {
    const char *fen;
    int depth;
    unsigned long long nodes;
  } deep[] = {
    {XQ_START_FEN, 4, 3290240ull},
    {"2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1", 6, 12250386ull},
    {"R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", 5, 3500505ull},
  };
  /* One bucket (every position fights for four entries), 16, and 1024. */
  static const size_t sizes[] = {64, 1024, 64 * 1024};
  for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
    if (deep[i].nodes > 4 * node_limit()) continue;
    xq_pos pos;
    cr_assert_eq(xq_fen_parse(&pos, deep[i].fen, 0, NULL), XQ_OK);
    cr_assert_eq(xq_perft(&pos, deep[i].depth), deep[i].nodes);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      xq_perft_table *t;
      cr_assert_eq(xq_perft_table_new(sizes[k], &t), XQ_OK);
      cr_assert_eq(xq_perft_table_entries(t), sizes[k] / 16);
      for (int threads = 1; threads <= 2; threads++) {
        counter c = {threads, t, 1};
        uint64_t got = count_with(&c, &pos, deep[i].depth);
        cr_assert_eq(got, deep[i].nodes, "%s depth %d, %zu bytes, %d threads: %llu",
                     deep[i].fen, deep[i].depth, sizes[k], threads, (unsigned long long)got);
      }
      /* And again on the filled table, one thread, unsplit. */
      cr_assert_eq(xq_perft_hashed(&pos, deep[i].depth, t), deep[i].nodes);
      xq_perft_table_free(t);
    }
  }
}

Test(perft, table_sizes_out_of_range_are_refused)
{
  xq_perft_table *t = (xq_perft_table *)1;
  cr_assert_eq(xq_perft_table_new(63, &t), XQ_EINVAL);
  cr_assert_null(t);
  cr_assert_eq(xq_perft_table_new(((size_t)XQ_PERFT_HASH_MAX_MB << 20) + 64, &t), XQ_EINVAL);
  cr_assert_eq(xq_perft_table_new(64, NULL), XQ_EINVAL);
  cr_assert_eq(xq_perft_table_entries(NULL), 0);
  xq_perft_table_free(NULL);
}

static int keys_eq(const xq__perft_keys *x, const xq__perft_keys *y)
{
  return x->a == y->a && x->b == y->b && x->am == y->am && x->bm == y->bm;
}

/* The keys, kept move by move, equal the keys computed afresh. */
Test(perft, keys_follow_the_moves)
{
  xq_pos pos;
  xq__perft_keys k, fresh;
  uint64_t seed = 7;
  xq__perft_keys_init();
  xq_pos_startpos(&pos);
  xq__perft_keys_of(&pos, &k);
  for (int ply = 0; ply < 400; ply++) {
    xq_movelist l;
    xq_undo u;
    xq_gen_legal(&pos, &l);
    if (l.n == 0) {
      xq_pos_startpos(&pos);
      xq__perft_keys_of(&pos, &k);
      continue;
    }
    xq_move m = l.m[xq_random_next(&seed) % (uint64_t)l.n];
    xq__perft_keys_after(&pos, m, &k, &k);
    xq_make(&pos, m, &u);
    xq__perft_keys_of(&pos, &fresh);
    cr_assert(keys_eq(&k, &fresh), "ply %d", ply);
  }
}

/* A position and its mirror image share the table's pair; the start
 * position is its own mirror; others differ. */
Test(perft, mirror_images_share_their_entry)
{
  xq_pos p, m, start;
  xq__perft_keys kp, km, ks;
  uint64_t ip, vp, im, vm;
  xq__perft_keys_init();
  cr_assert_eq(xq_fen_parse(&p, "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w", 0, NULL), XQ_OK);
  cr_assert_eq(xq_fen_parse(&m, "3a5/5k3/4Ra3/9/3r5/3n5/9/3A1A3/3K5/2B2CB2 w", 0, NULL), XQ_OK);
  xq__perft_keys_of(&p, &kp);
  xq__perft_keys_of(&m, &km);
  cr_assert_eq(kp.a, km.am);
  cr_assert_eq(kp.b, km.bm);
  cr_assert_neq(kp.a, km.a);
  xq__perft_canon(&kp, &ip, &vp);
  xq__perft_canon(&km, &im, &vm);
  cr_assert_eq(ip, im);
  cr_assert_eq(vp, vm);
  cr_assert_eq(xq_perft(&p, 4), xq_perft(&m, 4));
  xq_pos_startpos(&start);
  xq__perft_keys_of(&start, &ks);
  cr_assert_eq(ks.a, ks.am);
  cr_assert_eq(ks.b, ks.bm);
}

Test(perft, entries_are_verified_by_key_side_and_depth)
{
  xq_perft_table *t;
  xq_pos red, black;
  xq__perft_keys kr, kb;
  uint64_t n, r1, r2, b1, b2;
  cr_assert_eq(xq_perft_table_new(64, &t), XQ_OK);
  cr_assert_eq(xq_fen_parse(&red, "4k4/9/9/9/9/9/9/1R7/9/3K5 w - - 0 1", 0, NULL), XQ_OK);
  cr_assert_eq(xq_fen_parse(&black, "4k4/9/9/9/9/9/9/1R7/9/3K5 b - - 0 1", 0, NULL), XQ_OK);
  xq__perft_keys_of(&red, &kr);
  xq__perft_keys_of(&black, &kb);
  xq__perft_canon(&kr, &r2, &r1);
  xq__perft_canon(&kb, &b2, &b1);
  /* The same placement with the other side to move has other keys. */
  cr_assert_neq(r1, b1);
  cr_assert_neq(r2, b2);
  xq__perft_store(t, r2, r1, 3, 12345);
  cr_assert(xq__perft_probe(t, r2, r1, 3, &n));
  cr_assert_eq(n, 12345);
  cr_assert_not(xq__perft_probe(t, r2, r1, 4, &n), "another depth");
  cr_assert_not(xq__perft_probe(t, b2, b1, 3, &n), "the other side to move");
  cr_assert_not(xq__perft_probe(t, r2, r1 ^ 1, 3, &n), "another verification key");
  /* A torn entry: the lock of this write with the data of another. */
  xq__perft_entry *e = NULL;
  for (int i = 0; i < XQ__PERFT_WAYS; i++)
    if (atomic_load(&t->b[0].e[i].data) != 0) e = &t->b[0].e[i];
  cr_assert_not_null(e);
  atomic_store(&e->data, (uint64_t)999 << 8 | 3);
  cr_assert_not(xq__perft_probe(t, r2, r1, 3, &n), "a torn entry must read as absent");
  /* Counts too big for the entry are not kept. */
  xq__perft_store(t, r2, r1, 5, (uint64_t)1 << XQ__PERFT_COUNT_BITS);
  cr_assert_not(xq__perft_probe(t, r2, r1, 5, &n));
  xq_perft_table_free(t);
}

/* Reports of a split run, gathered by its callbacks. */
typedef struct seen {
  int roots, progress, last_roots_done, last_jobs_done;
  uint64_t root_nodes, last_nodes;
} seen;

static void seen_root(void *ctx, const xq_divide_entry *e, double elapsed)
{
  seen *s = ctx;
  s->roots++;
  s->root_nodes += e->nodes;
  cr_assert(elapsed >= 0);
}

static void seen_progress(void *ctx, const xq_perft_status *st)
{
  seen *s = ctx;
  s->progress++;
  cr_assert_geq(st->roots_done, s->last_roots_done);
  cr_assert_geq(st->jobs_done, s->last_jobs_done);
  cr_assert_geq(st->nodes, s->last_nodes);
  cr_assert_leq(st->roots_done, st->roots);
  cr_assert_leq(st->jobs_done, st->jobs);
  cr_assert_eq(st->roots, 44);
  cr_assert_eq(st->jobs, 1920);
  s->last_roots_done = st->roots_done;
  s->last_jobs_done = st->jobs_done;
  s->last_nodes = st->nodes;
}

Test(perft, split_reports_each_root_move_once_and_progress)
{
  xq_pos pos;
  xq_divide_entry e[XQ_MAX_MOVES];
  int n;
  xq_pos_startpos(&pos);
  for (int threads = 1; threads <= 2; threads++) {
    seen s = {0};
    /* A tiny interval: a report after every subtree. */
    xq_perft_ctl ctl = {threads, NULL, seen_root, seen_progress, 1e-9, &s};
    cr_assert_eq(xq_perft_split(&pos, 4, &ctl, e, &n), 3290240ull);
    cr_assert_eq(s.roots, 44);
    cr_assert_eq(s.root_nodes, 3290240ull);
    cr_assert_gt(s.progress, 0);
    cr_assert_leq(s.last_nodes, 3290240ull);
  }
  /* Depths 1 and 2 report every root move too. */
  seen s1 = {0};
  xq_perft_ctl ctl = {2, NULL, seen_root, NULL, 0, &s1};
  cr_assert_eq(xq_perft_split(&pos, 2, &ctl, e, &n), 1920ull);
  cr_assert_eq(s1.roots, 44);
  cr_assert_eq(s1.root_nodes, 1920ull);
}

Test(perft, divide_sums_and_agrees_across_threads)
{
  xq_pos pos;
  xq_divide_entry one[XQ_MAX_MOVES], two[XQ_MAX_MOVES];
  int n1, n2;
  xq_pos_startpos(&pos);
  uint64_t t1 = xq_perft_divide(&pos, 4, 1, one, &n1);
  uint64_t t2 = xq_perft_divide(&pos, 4, 2, two, &n2);
  cr_assert_eq(t1, 3290240ull);
  cr_assert_eq(t2, t1);
  cr_assert_eq(n1, 44);
  cr_assert_eq(n2, 44);
  uint64_t sum = 0;
  for (int i = 0; i < n1; i++) {
    cr_assert_eq(one[i].move, two[i].move);
    cr_assert_eq(one[i].nodes, two[i].nodes);
    sum += one[i].nodes;
  }
  cr_assert_eq(sum, t1);
  cr_assert_eq(xq_perft_divide(&pos, 0, 1, one, &n1), 1ull);
  cr_assert_eq(n1, 0);
}

/* Run xqref (support.h: xq_test_run); returns its output, kept until the
 * next run, and its exit status. */
static const char *run(const char *args, int *status)
{
  static char *out;
  free(out);
  out = xq_test_run(args, status);
  return out;
}

Test(cli, perft_divide_lines_and_last_line)
{
  int status;
  const char *out = run("perft --depth 3 --divide --threads 2", &status);
  cr_assert_eq(status, 0, "%s", out);
  unsigned long long sum = 0, total = 0;
  int lines = 0;
  const char *last = NULL;
  for (const char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
    char mv[8];
    unsigned long long n;
    if (sscanf(l, "%7[a-i0-9]: %llu", mv, &n) == 2 && strlen(mv) == 4) {
      sum += n;
      lines++;
    }
    if (*l) last = l;
  }
  cr_assert_eq(lines, 44);
  cr_assert_not_null(last);
  cr_assert_eq(sscanf(last, "nodes %llu", &total), 1, "last line: %s", last);
  cr_assert_eq(total, 79666ull);
  cr_assert_eq(sum, total);
  cr_assert(strstr(out, "h2e2: 1920") || strstr(out, "h2e2: "), "%s", out);
}

Test(cli, perft_hash_and_threads_give_the_same_divide)
{
  int status;
  const char *out = run("perft --depth 4 --divide --threads 2 --hash 1", &status);
  cr_assert_eq(status, 0, "%s", out);
  unsigned long long sum = 0, total = 0, h2e2 = 0, ms;
  int lines = 0;
  const char *last = NULL;
  for (const char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
    char mv[8];
    unsigned long long n;
    if (sscanf(l, "%7[a-i0-9]: %llu time %llu ms", mv, &n, &ms) == 3 && strlen(mv) == 4) {
      sum += n;
      lines++;
      if (!strcmp(mv, "h2e2")) h2e2 = n;
    }
    if (*l) last = l;
  }
  cr_assert_eq(lines, 44, "%s", out);
  cr_assert_eq(sscanf(last, "nodes %llu", &total), 1, "last line: %s", last);
  cr_assert_eq(total, 3290240ull);
  cr_assert_eq(sum, total);
  /* The same root count as an unhashed perft of that move. */
  xq_pos pos;
  xq_undo u;
  xq_pos_startpos(&pos);
  xq_make(&pos, XQ_MOVE(XQ_SQ(7, 2), XQ_SQ(4, 2)), &u);
  cr_assert_eq(h2e2, xq_perft(&pos, 3));
  cr_assert(strstr(last, "hash 1 MB"), "%s", last);
  out = run("perft --depth 2 --hash x", &status);
  cr_assert_eq(status, 2);
  cr_assert(strstr(out, "bad number for --hash: x (0..65536)"), "%s", out);
}

Test(cli, bench_hash_keeps_the_counts)
{
  int status;
  const char *out = run("bench --quick --hash 1 --threads 2", &status);
  cr_assert_eq(status, 0, "%s", out);
  cr_assert(strstr(out, "hash 1 MB"), "%s", out);
  cr_assert(strstr(out, "start            4       3290240"), "%s", out);
  out = run("bench --hash 0", &status);
  cr_assert_eq(status, 2, "%s", out);
}

Test(cli, perft_rejects_bad_input_clearly)
{
  int status;
  const char *out = run("perft --depth 2 --fen 'rnbakabnr/9/1c5c1 w'", &status);
  cr_assert_eq(status, 1);
  cr_assert(strstr(out, "bad FEN"), "%s", out);
  out = run("perft --depth x", &status);
  cr_assert_eq(status, 2);
  cr_assert(strstr(out, "bad number for --depth: x (0..20)"), "%s", out);
  out = run("perft", &status);
  cr_assert_eq(status, 2);
  out = run("perft --help", &status);
  cr_assert_eq(status, 0);
  cr_assert(strstr(out, "ranks 0-9"), "%s", out);
  out = run("nosuch", &status);
  cr_assert_eq(status, 2);
  cr_assert(strstr(out, "unknown command"), "%s", out);
}

Test(cli, every_subcommand_has_help)
{
  static const char *cmds[] = {"perft", "bench", "uci"};
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    char args[64];
    int status;
    snprintf(args, sizeof args, "%s --help", cmds[i]);
    const char *out = run(args, &status);
    cr_assert_eq(status, 0, "%s", args);
    cr_assert(strstr(out, "usage: xqref"), "%s: %s", args, out);
  }
}

/* Feed `script` to the UCI mode and return what it printed. */
static char *uci(const char *script)
{
  static char out[1 << 16];
  FILE *in = fmemopen((void *)script, strlen(script), "r");
  FILE *o = fmemopen(out, sizeof out, "w");
  cr_assert(in && o);
  xq_uci_run(in, o);
  fclose(in);
  fclose(o);
  return out;
}

Test(uci, position_moves_and_go_perft)
{
  char *out = uci("uci\nisready\nposition startpos moves h2e2 h7e7\ngo perft 2\nquit\n");
  cr_assert(strstr(out, "uciok"));
  cr_assert(strstr(out, "readyok"));
  /* After 1. 炮二平五 炮８平５: count checked against a direct perft. */
  xq_pos pos;
  xq_undo u;
  xq_pos_startpos(&pos);
  xq_make(&pos, XQ_MOVE(XQ_SQ(7, 2), XQ_SQ(4, 2)), &u);
  xq_make(&pos, XQ_MOVE(XQ_SQ(7, 7), XQ_SQ(4, 7)), &u);
  char want[64];
  snprintf(want, sizeof want, "Nodes searched: %llu", (unsigned long long)xq_perft(&pos, 2));
  cr_assert(strstr(out, want), "%s", out);
}

Test(uci, illegal_move_leaves_the_position_unchanged)
{
  char *out = uci("position startpos moves h2e2 h2e3\nd\n");
  cr_assert(strstr(out, "position unchanged"), "%s", out);
  cr_assert(strstr(out, "Fen: " XQ_START_FEN), "%s", out);
  out = uci("ucci\nposition fen 4k4/9/9/9/9/9/9/9/9/4K4 w\ngo depth 3\nfoo\nquit\n");
  cr_assert(strstr(out, "ucciok"));
  cr_assert(strstr(out, "position unchanged"), "facing generals must be refused: %s", out);
  cr_assert(strstr(out, "nobestmove"));
  cr_assert(strstr(out, "Unknown command: 'foo'"));
  cr_assert(strstr(out, "bye"));
}

Test(uci, hash_and_threads_options_apply_to_go_perft)
{
  char *out = uci("uci\nsetoption name Hash value 1\nsetoption name Threads value 2\n"
                  "go perft 4\nucinewgame\ngo perft 4\nsetoption name Hash value 0\n"
                  "go perft 3\nsetoption name Hash value -1\nsetoption name Threads value 0\n"
                  "setoption name Ponder value true\nquit\n");
  cr_assert(strstr(out, "option name Hash type spin"), "%s", out);
  cr_assert(strstr(out, "option name Threads type spin"), "%s", out);
  const char *p = strstr(out, "Nodes searched: 3290240");
  cr_assert_not_null(p, "%s", out);
  cr_assert(strstr(p + 1, "Nodes searched: 3290240"), "the second run, on the filled table: %s",
            out);
  cr_assert(strstr(out, "Nodes searched: 79666"), "%s", out);
  p = strstr(out, "info string options:");
  cr_assert_not_null(p, "a bad value is refused: %s", out);
  p = strstr(p + 1, "info string options:");
  cr_assert_not_null(p, "%s", out);
  cr_assert(strstr(p + 1, "info string options:"), "an unknown option is refused: %s", out);
}
