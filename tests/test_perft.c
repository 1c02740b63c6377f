/*
 * test_perft.c -- perft counts of the whole suite (tests/data/perft_suite.txt),
 * divide over threads, and the `xqref perft` / `xqref uci` interfaces.
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

static unsigned long long node_limit(void)
{
  const char *s = getenv("XQ_TEST_PERFT_NODES");
  return s && *s ? strtoull(s, NULL, 10) : 4000000ull;
}

Test(perft, whole_suite_up_to_the_node_limit)
{
  FILE *f = fopen(XQ_TEST_DATA "/perft_suite.txt", "r");
  char line[1024];
  int positions = 0, checks = 0;
  unsigned long long limit = node_limit();

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
      unsigned long long got = xq_perft(&pos, depth);
      cr_assert_eq(got, want, "%s depth %d: %llu, expected %llu", id, depth, got, want);
      checks++;
    }
  }
  fclose(f);
  cr_assert_eq(positions, 54);
  cr_log_info("perft suite: %d positions, %d counts checked (limit %llu)", positions, checks, limit);
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

/* Run the xqref binary; returns its output (static buffer) and exit status. */
static const char *run(const char *args, int *status)
{
  static char out[1 << 16];
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s %s 2>&1", XQ_BINARY, args);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  size_t n = fread(out, 1, sizeof out - 1, p);
  out[n] = 0;
  int rc = pclose(p);
  *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
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

Test(cli, perft_rejects_bad_input_clearly)
{
  int status;
  const char *out = run("perft --depth 2 --fen 'rnbakabnr/9/1c5c1 w'", &status);
  cr_assert_eq(status, 1);
  cr_assert(strstr(out, "bad FEN"), "%s", out);
  out = run("perft --depth x", &status);
  cr_assert_eq(status, 2);
  cr_assert(strstr(out, "--depth must be"), "%s", out);
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
