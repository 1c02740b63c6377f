/*
 * test_net_tools.c -- the server's client tools, run as the real binary
 * against a real `xqref serve` on 127.0.0.1 (port 0, a temporary store
 * with a demo tournament): `xqref loadgen` replays games as boards and
 * its figures add up and match the store; `xqref board` fed from a pipe
 * plays moves and prints verdicts; usage errors.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support.h"

extern char **environ;

#define DATA XQ_TEST_DATA "/records/"

/* The server of one test. */
static char dir[256];
static char db[300], serve_out[300];
static char addr[64], http_addr[64];
static pid_t server = -1;

/* Start `xqref serve` with a demo of `players` players; wait for its
 * "json HOST:PORT" and "http HOST:PORT" lines. */
static void start_server(int players)
{
  snprintf(dir, sizeof dir, "%s/xq_net_tools_XXXXXX", getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  cr_assert_not_null(mkdtemp(dir));
  snprintf(db, sizeof db, "%s/t.db", dir);
  snprintf(serve_out, sizeof serve_out, "%s/serve.out", dir);
  char nplayers[16];
  snprintf(nplayers, sizeof nplayers, "%d", players);
  char *argv[] = {XQ_BINARY, "serve", "--db", db, "--demo", "--players", nplayers,
                  "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--quiet", NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, serve_out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int rc = posix_spawn(&server, XQ_BINARY, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  cr_assert_eq(rc, 0, "cannot start %s serve", XQ_BINARY);
  /* Wait for the listening line (the store and demo are made first). */
  for (int i = 0; i < 600 && !http_addr[0]; i++) {
    char *out = xq_test_slurp(serve_out);
    const char *j = out ? strstr(out, "json ") : NULL, *h = out ? strstr(out, "http ") : NULL;
    if (j && h && strchr(h, '\n')) {
      sscanf(j, "json %63s", addr);
      sscanf(h, "http %63s", http_addr);
    }
    free(out);
    if (!http_addr[0]) {
      int st;
      cr_assert_eq(waitpid(server, &st, WNOHANG), 0, "xqref serve exited early");
      struct timespec ts = {0, 50 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  cr_assert(addr[0], "xqref serve printed no json address");
}

static void stop_server(void)
{
  if (server > 0) {
    int st = 0;
    kill(server, SIGTERM);
    waitpid(server, &st, 0);
    server = -1;
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "xqref serve did not stop cleanly");
  }
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (dir[0]) cr_expect_eq(system(cmd), 0);
  dir[0] = addr[0] = http_addr[0] = 0;
}

/* The board token of table `table` from the server's output. */
static void board_token(int table, char *tok, size_t len)
{
  char *out = xq_test_slurp(serve_out);
  cr_assert_not_null(out);
  int round, t;
  char buf[128];
  tok[0] = 0;
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
    if (sscanf(line, "board %d %d %127s", &round, &t, buf) == 3 && t == table) snprintf(tok, len, "%s", buf);
  free(out);
  cr_assert(tok[0], "no board token for table %d", table);
}

/* Value of the first "KEY N" line of `out`, -1 when absent. */
static long field(const char *out, const char *key)
{
  size_t k = strlen(key);
  for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
    if (!strncmp(p, key, k) && p[k] == ' ') return strtol(p + k + 1, NULL, 10);
  return -1;
}

/* Plies of the main line of a game file, by `xqref stats`. */
static long plies_of(const char *file)
{
  char args[512];
  int st;
  snprintf(args, sizeof args, "stats '%s' --no-judge", file);
  char *out = xq_test_run(args, &st);
  long n = field(out, "plies");
  free(out);
  cr_assert_gt(n, 0, "cannot count the plies of %s", file);
  return n;
}

/* Write `text` to a file in the test's directory; its path in `path`. */
static void write_input(char *path, size_t len, const char *text)
{
  snprintf(path, len, "%s/input.txt", dir);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs(text, f);
  cr_assert_eq(fclose(f), 0);
}

static void write_games(const char *path)
{
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cat '%sgameA_iccs.pgn' '%sgameB_wxf.pgn' '%sgameC_chinese.pgn' > '%s'", DATA, DATA, DATA,
           path);
  cr_assert_eq(system(cmd), 0);
}

TestSuite(net_tools, .fini = stop_server, .timeout = 120);

Test(net_tools, loadgen_full_speed_numbers_add_up_and_match_the_store)
{
  start_server(8); /* 4 boards */
  char games[400], ack[400], args[1600];
  snprintf(games, sizeof games, "%s/games.pgn", dir);
  snprintf(ack, sizeof ack, "%s/ack.txt", dir);
  write_games(games);
  long a = plies_of(DATA "gameA_iccs.pgn"), b = plies_of(DATA "gameB_wxf.pgn"), c = plies_of(DATA "gameC_chinese.pgn");

  snprintf(args, sizeof args, "loadgen --connect %s --tokens '%s' --boards 4 --games '%s' --ack-log '%s'", addr,
           serve_out, games, ack);
  int st;
  char *out = xq_test_run(args, &st);
  cr_assert_eq(st, 0, "loadgen failed:\n%s", out);
  /* Boards 1-4 play games A, B, C, A to their last move. */
  cr_expect_eq(field(out, "boards"), 4, "%s", out);
  cr_expect_eq(field(out, "acked"), 2 * a + b + c, "%s", out);
  cr_expect_eq(field(out, "errors"), 0, "%s", out);
  cr_expect(strstr(out, "left the record 0,"), "%s", out);
  cr_expect(strstr(out, "connection lost 0"), "%s", out);

  /* The verdict counts add up to the acknowledged moves. */
  const char *v = strstr(out, "verdicts");
  cr_assert_not_null(v);
  long sum = 0;
  for (const char *p = strchr(v, '='); p && p < strchr(v, '\n'); p = strchr(p + 1, '=')) sum += strtol(p + 1, NULL, 10);
  cr_expect_eq(sum, 2 * a + b + c, "%s", out);

  /* Percentiles are in order and positive. */
  double p50, p90, p99, p999, max;
  const char *l = strstr(out, "latency ms");
  cr_assert_not_null(l, "%s", out);
  cr_assert_eq(sscanf(l, "latency ms p50 %lf p90 %lf p99 %lf p99.9 %lf max %lf", &p50, &p90, &p99, &p999, &max), 5);
  cr_expect(p50 > 0 && p50 <= p90 && p90 <= p99 && p99 <= p999 && p999 <= max, "%s", l);

  /* Every acknowledged move is in the store with its sequence number. */
  char *acks = xq_test_slurp(ack);
  cr_assert_not_null(acks);
  long lines = 0;
  for (const char *p = acks; *p; p++) lines += *p == '\n';
  cr_expect_eq(lines, 2 * a + b + c);
  snprintf(args, sizeof args, "tourney games --db '%s'", db);
  char *rows = xq_test_run(args, &st);
  cr_assert_eq(st, 0, "%s", rows);
  char *save = NULL;
  for (char *line = strtok_r(acks, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    int round, table;
    long seq;
    char mv[16], want[64];
    cr_assert_eq(sscanf(line, "%d %d %ld %15s", &round, &table, &seq, mv), 4, "ack line %s", line);
    snprintf(want, sizeof want, " %d %d board %ld %s", round, table, seq, mv);
    cr_expect_not_null(strstr(rows, want), "acknowledged '%s' is not in the store", line);
  }
  free(rows);
  free(acks);
  free(out);

  /* The tables are no longer fresh: a second run replays nothing and
   * says why, with exit status 1. */
  snprintf(args, sizeof args, "loadgen --connect %s --tokens '%s' --boards 2 --games '%s'", addr, serve_out, games);
  out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "%s", out);
  cr_expect(strstr(out, "errors 2 NOT_FRESH=2"), "%s", out);
  cr_expect_eq(field(out, "acked"), 0, "%s", out);
  free(out);
}

Test(net_tools, loadgen_paced_for_a_duration)
{
  start_server(4); /* 2 boards */
  char games[400], args[1200];
  snprintf(games, sizeof games, "%s/games.pgn", dir);
  write_games(games);
  snprintf(args, sizeof args, "loadgen --connect %s --tokens '%s' --boards 2 --games '%s' --rate 20 --duration 1",
           addr, serve_out, games);
  int st;
  char *out = xq_test_run(args, &st);
  cr_assert_eq(st, 0, "%s", out);
  long acked = field(out, "acked");
  /* Timer-paced: at most one move per 50 ms tick per board, plus the tick at 0. */
  cr_expect(acked > 0 && acked <= 2 * 21, "%s", out);
  cr_expect_eq(field(out, "errors"), 0, "%s", out);
  cr_expect(strstr(out, "timer-paced"), "%s", out);
  free(out);
}

Test(net_tools, loadgen_viewers_follow_the_broadcast)
{
  start_server(4); /* 2 boards */
  char games[400], args[1200];
  snprintf(games, sizeof games, "%s/games.pgn", dir);
  write_games(games);
  snprintf(args, sizeof args,
           "loadgen --connect %s --tokens '%s' --boards 2 --games '%s' --rate 20 --duration 1 --viewers 3", addr,
           serve_out, games);
  int st;
  char *out = xq_test_run(args, &st);
  cr_assert_eq(st, 0, "%s", out);
  long acked = field(out, "acked");
  cr_assert_gt(acked, 0, "%s", out);
  /* "viewers 3 (watch 3, sse 0): connected 3, lost 0, events received watch N sse 0, B bytes" */
  const char *v = strstr(out, "viewers 3 (watch 3, sse 0): ");
  cr_assert(v, "%s", out);
  long conn = -1, lost = -1, nw = -1, ns = -1;
  cr_assert_eq(sscanf(v, "viewers 3 (watch 3, sse 0): connected %ld, lost %ld, events received watch %ld sse %ld", &conn,
                      &lost, &nw, &ns), 4, "%s", out);
  cr_expect_eq(conn, 3, "%s", out);
  cr_expect_eq(lost, 0, "%s", out);
  cr_expect_eq(ns, 0, "%s", out);
  /* every acknowledged move is broadcast, once durable, to every watcher
   * (the watchers ask before the boards' first move is sent) */
  cr_expect_geq(nw, 3 * acked, "%s", out);
  free(out);
  /* an SSE viewer needs the HTTP address */
  snprintf(args, sizeof args, "loadgen --connect %s --tokens '%s' --boards 2 --games '%s' --sse 1", addr, serve_out,
           games);
  out = xq_test_run(args, &st);
  cr_expect_eq(st, 2, "%s", out);
  cr_expect(strstr(out, "--sse needs --http"), "%s", out);
  free(out);
}

Test(net_tools, loadgen_sse_viewers_on_urls_share_one_stream_and_time_it)
{
  start_server(4); /* 2 boards */
  char games[400], vlog[400], args[1600];
  snprintf(games, sizeof games, "%s/games.pgn", dir);
  snprintf(vlog, sizeof vlog, "%s/viewer.txt", dir);
  write_games(games);
  /* the server's own stream by two URLs, as two edges would be */
  snprintf(args, sizeof args,
           "loadgen --connect %s --tokens '%s' --boards 2 --games '%s' --rate 20 --duration 1 --sse 4 "
           "--viewer-url http://%s/api/events?round=1 --viewer-url http://%s/api/events --viewer-log '%s'",
           addr, serve_out, games, http_addr, http_addr, vlog);
  int st;
  char *out = xq_test_run(args, &st);
  cr_assert_eq(st, 0, "%s", out);
  long acked = field(out, "acked");
  cr_assert_gt(acked, 0, "%s", out);
  long lo = -1, hi = -1, same = -1, n = -1;
  const char *v = strstr(out, "sse streams: 4 viewers, ");
  cr_assert(v, "%s", out);
  cr_assert_eq(sscanf(v, "sse streams: 4 viewers, events per viewer fewest %ld most %ld, the first viewer's stream "
                         "exactly: %ld of %ld", &lo, &hi, &same, &n), 4, "%s", out);
  /* every viewer: the snapshot, then every acknowledged move, the same */
  cr_expect_eq(same, 4, "%s", out);
  cr_expect_eq(lo, hi, "%s", out);
  cr_expect_geq(lo, acked + 1, "%s", out);
  char line[200];
  snprintf(line, sizeof line, "  at http://%s/api/events?round=1: 2 viewers, events per viewer fewest %ld", http_addr, lo);
  cr_expect(strstr(out, line), "%s", out);
  double p50 = -1;
  v = strstr(out, "delivery latency ms (broadcast to received) p50 ");
  cr_assert(v && sscanf(v, "delivery latency ms (broadcast to received) p50 %lf", &p50) == 1, "%s", out);
  cr_expect_geq(p50, 0, "%s", out);
  free(out);
  /* the first viewer's event and data lines, a pair per event */
  char *log = xq_test_slurp(vlog);
  cr_assert_not_null(log);
  static const char first[] = "event: snapshot\ndata: {";
  cr_expect(!strncmp(log, first, sizeof first - 1), "%s", log);
  long lines = 0;
  for (const char *p = log; *p; p++) lines += *p == '\n';
  cr_expect_eq(lines, 2 * lo);
  free(log);
}

Test(net_tools, board_cli_plays_from_a_pipe)
{
  start_server(4);
  char tok[128], args[1200];
  board_token(2, tok, sizeof tok);
  /* Two moves in two notations, a line in no notation (an error: no seq
   * used), a move that is not legal (a foul, recorded), a resignation. */
  char input[400];
  write_input(input, sizeof input, "h2e2\n马8进7\nzz9\nh0h9\nresign red\nquit\nh2e2\n");
  snprintf(args, sizeof args, "board --connect %s --token %s --table 2 < '%s'", addr, tok, input);
  int st;
  char *out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "an error reply makes the exit status 1:\n%s", out);
  cr_expect(strstr(out, "round 1 table 2, next seq 1"), "%s", out);
  cr_expect(strstr(out, "seq 1 ply 1: accepted"), "%s", out);
  cr_expect(strstr(out, "seq 2 ply 2: accepted"), "%s", out);
  cr_expect(strstr(out, "error BAD_NOTATION"), "%s", out);
  /* The illegal move is a foul with its words, and takes seq 3. */
  const char *foul = strstr(out, "seq 3 ");
  cr_assert_not_null(foul, "%s", out);
  cr_expect(strstr(foul, "foul") && strstr(foul, " -- "), "%s", out);
  cr_expect(strstr(out, "result 0-1"), "%s", out);
  /* The board after 炮二平五 马8进7: the cannon on e2, the horse on g7. */
  cr_expect(strstr(out, "  2  . C . . C . . . .\n"), "%s", out);
  cr_expect(strstr(out, "  7  . c . . . . n c .\n"), "%s", out);
  free(out);

  /* A second session on the same table continues with the next seq. */
  snprintf(args, sizeof args, "board --connect %s --token %s --no-board </dev/null", addr, tok);
  out = xq_test_run(args, &st);
  cr_expect_eq(st, 0, "%s", out);
  cr_expect(strstr(out, "next seq 5"), "%s", out);
  free(out);
}

Test(net_tools, board_cli_in_chinese)
{
  start_server(4);
  char tok[128], args[1200];
  board_token(1, tok, sizeof tok);
  /* A move, then a move that is not legal: its verdict in Chinese. */
  char input[400];
  write_input(input, sizeof input, "炮二平五\nh0h9\n");
  snprintf(args, sizeof args, "board --connect %s --token %s --lang zh < '%s'", addr, tok, input);
  int st;
  char *out = xq_test_run(args, &st);
  cr_expect_eq(st, 0, "%s", out);
  cr_expect(strstr(out, "  2 ．炮．．炮．．．．\n"), "%s", out);
  cr_expect(strstr(out, "  0 俥傌相仕帅仕相傌俥\n"), "%s", out);
  const char *foul = strstr(out, "seq 2 ply 1: foul -- ");
  cr_assert_not_null(foul, "%s", out);
  cr_expect(strstr(foul, "犯规"), "%s", out);
  free(out);
}

Test(net_tools, board_cli_wrong_table_and_bad_token)
{
  start_server(4);
  char tok[128], args[1200];
  board_token(1, tok, sizeof tok);
  int st;
  snprintf(args, sizeof args, "board --connect %s --token %s --table 2 </dev/null", addr, tok);
  char *out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "%s", out);
  cr_expect(strstr(out, "table 1, not 2"), "%s", out);
  free(out);
  snprintf(args, sizeof args, "board --connect %s --token nosuchtoken </dev/null", addr);
  out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "%s", out);
  cr_expect(strstr(out, "BAD_TOKEN"), "%s", out);
  free(out);
}

Test(net_tools, usage_errors)
{
  static const struct {
    const char *args;
    int status;
    const char *says;
  } cases[] = {
    {"loadgen --help", 0, "usage: xqref loadgen"},
    {"board --help", 0, "usage: xqref board"},
    {"loadgen", 2, "usage: xqref loadgen"},
    {"loadgen --connect 127.0.0.1:1 --tokens x --games y --boards 0", 2, "--boards"},
    {"loadgen --connect 127.0.0.1:1 --tokens x --games y --boards 1 --rate -1", 2, "--rate"},
    {"loadgen --connect nohost --tokens x --games y --boards 1", 2, "HOST:PORT"},
    {"loadgen --connect 127.0.0.1:1 --tokens x --games y --boards 1 --frob 1", 2, "unknown option"},
    {"loadgen --connect 127.0.0.1:1 --tokens /nonexistent --games y --boards 1", 1, "cannot open"},
    {"board", 2, "usage: xqref board"},
    {"board --connect 127.0.0.1:1", 2, "--token"},
    {"board --connect 127.0.0.1:1 --token t --lang fr", 2, "--lang"},
    {"board --connect 127.0.0.1:1 --token t </dev/null", 1, "cannot connect"},
    {"loadgen --connect 127.0.0.1:1 --tokens x --games y --boards 1 --viewer-cpu x", 2, "--viewer-cpu"},
    {"loadgen --connect 127.0.0.1:1 --tokens x --games y --boards 1 --viewer-cpu -1", 2, "--viewer-cpu"},
    {"serve --publish http://127.0.0.1:1/pub/ --publish-batch 20000", 2, "bad number for --publish-batch: 20000 (0..10000)"},
    {"serve --publish http://127.0.0.1:1/pub/ --publish-batch ms", 2, "bad number for --publish-batch: ms (0..10000)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int st;
    char *out = xq_test_run(cases[i].args, &st);
    cr_expect_eq(st, cases[i].status, "%s: status %d\n%s", cases[i].args, st, out);
    cr_expect_not_null(strstr(out, cases[i].says), "%s:\n%s", cases[i].args, out);
    free(out);
  }
}

Test(net_tools, loadgen_too_few_tokens_and_no_server)
{
  char tokens[] = "/tmp/xq_net_tools_tokens_XXXXXX";
  int fd = mkstemp(tokens);
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, "board 1 1 abc\n", 14), 14);
  close(fd);
  char args[600];
  int st;
  snprintf(args, sizeof args, "loadgen --connect 127.0.0.1:1 --tokens %s --boards 2 --games %sgameA_iccs.pgn", tokens,
           DATA);
  char *out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "%s", out);
  cr_expect(strstr(out, "1 board tokens, 2 needed"), "%s", out);
  free(out);
  /* Nothing listens on port 1: the board cannot connect. */
  snprintf(args, sizeof args, "loadgen --connect 127.0.0.1:1 --tokens %s --boards 1 --games %sgameA_iccs.pgn", tokens,
           DATA);
  out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "%s", out);
  cr_expect(strstr(out, "connection lost 1"), "%s", out);
  cr_expect_eq(field(out, "acked"), 0, "%s", out);
  free(out);
  unlink(tokens);
}
