/*
 * test_cli_messages.c -- what a newcomer reads from the built binary: each
 * message says what is wrong in its own words, and the exit status agrees
 * with it. A FEN the rules forbid has no byte to point at; an option left
 * without its value says so, for every option of every command that takes
 * one; a write that fails fails the command, with no success line after
 * it; a file that cannot be opened is named, not a line of it; ko-result
 * and numbers say which match or player is wrong and why; an empty game
 * file is an error; judge without anything to judge prints its usage and
 * reads standard input as `-`; the Chinese verdicts name moves in Chinese
 * notation and results in Chinese; one version everywhere.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

/* Run the shell command made from `fmt` (printf-formatted; "%1$s" style
 * is not used: the binary is XQ_BINARY, put in by the caller) and return
 * what it printed on stdout (caller frees); *status its exit status. */
static char *shell(int *status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *shell(int *status, const char *fmt, ...)
{
  char cmd[4096], *buf = NULL, chunk[4096];
  size_t n = 0, got;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p, "cannot run %s", cmd);
  FILE *m = open_memstream(&buf, &n);
  while ((got = fread(chunk, 1, sizeof chunk, p)) > 0) fwrite(chunk, 1, got, m);
  fclose(m);
  int st = pclose(p);
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return buf;
}

/* Fail unless `xqref ARGS` exits with `status` and prints `want` (stdout
 * and stderr together); and, when `never` is not NULL, never prints it. */
static void says(int status, const char *args, const char *want, const char *never)
{
  int st;
  char *out = xq_test_run(args, &st);
  cr_expect_eq(st, status, "xqref %s: exit %d, expected %d\n%s", args, st, status, out);
  cr_expect(strstr(out, want), "xqref %s: no '%s' in\n%s", args, want, out);
  if (never) cr_expect_null(strstr(out, never), "xqref %s: '%s' in\n%s", args, never, out);
  free(out);
}

/* A new folder for one test. */
static void new_dir(char *dir, size_t len)
{
  const char *t = getenv("TMPDIR");
  snprintf(dir, len, "%s/xq_msg_XXXXXX", t && *t ? t : "/tmp");
  cr_assert_not_null(mkdtemp(dir));
}

Test(messages, a_fen_the_rules_forbid_has_no_byte)
{
  says(1, "perft --fen '4k4/9/9/9/9/9/9/9/9/4K4 w' --depth 1", "xqref perft: bad FEN: the generals face",
       "byte -1");
  says(1, "perft --fen 'xx' --depth 1", "bad FEN at byte 0", NULL);
  int st;
  char *out = shell(&st, "printf 'position fen 4k4/9/9/9/9/9/9/9/9/4K4 w\\nquit\\n' | %s uci", XQ_BINARY);
  cr_expect(strstr(out, "info string bad FEN: the generals face"), "%s", out);
  cr_expect_null(strstr(out, "byte -1"), "%s", out);
  free(out);
}

/* The options of the help text `help` that take a value: "--name" of
 * each row "  --name VALUE  help" or "  -x, --name VALUE  help" of its
 * first option list (not an optional "[VALUE]"), into names[]. Returns
 * their count. */
static int value_options(const char *help, char names[][48], int cap)
{
  const char *list = strstr(help, "\noptions:\n");
  int n = 0;
  if (!list) return 0;
  for (const char *line = list + 10; *line && *line != '\n' && n < cap; line = strchr(line, '\n') + 1) {
    const char *p = line + 2;
    if (strncmp(line, "  -", 3)) goto next;          /* a help line going on */
    if (p[1] != '-' && !strncmp(p + 2, ", ", 2)) p += 4; /* "-x, " */
    size_t len = strspn(p, "-abcdefghijklmnopqrstuvwxyz");
    /* one space, then a value that is no optional one */
    if (strncmp(p, "--", 2) || len >= 48 || p[len] != ' ' || p[len + 1] == ' ' || p[len + 1] == '[' ||
        p[len + 1] == '\n')
      goto next;
    memcpy(names[n], p, len);
    names[n++][len] = '\0';
  next:
    if (!strchr(line, '\n')) break;
  }
  return n;
}

/* `xqref CMD --opt` for every option of CMD that takes a value, and
 * `--opt=` and `--opt --help` for its first one (the forms are the one
 * parser's, whatever the option): "missing value for --opt", exit 2. */
static int every_value_option(const char *cmd)
{
  char args[256], names[64][48];
  int st;
  snprintf(args, sizeof args, "%s --help", cmd);
  char *help = xq_test_run(args, &st);
  cr_assert_eq(st, 0, "%s", help);
  int n = value_options(help, names, 64);
  for (int i = 0; i < n; i++) {
    char want[96];
    snprintf(want, sizeof want, "missing value for %.47s\n", names[i]);
    snprintf(args, sizeof args, "%s %.47s", cmd, names[i]);
    says(2, args, want, "unknown option");
    if (i > 0) continue;
    snprintf(args, sizeof args, "%s %.47s=", cmd, names[i]);
    says(2, args, want, "unknown option");
    snprintf(args, sizeof args, "%s %.47s --help", cmd, names[i]);
    says(2, args, want, NULL);
  }
  free(help);
  return n;
}

Test(messages, an_option_without_its_value_says_so, .timeout = 120)
{
  static const char *const cmds[] = {"perft", "bench", "bench --judge", "convert", "stats", "judge", "pair",
                                     "serve", "loadgen", "board", "simulate", "presets"};
  int n = 0;
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) n += every_value_option(cmds[i]);
  static const char *const actions[] = {"new", "add", "numbers", "pair", "result", "export", "knockout",
                                        "ko-result", "prizes", "token"};
  for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
    char cmd[64];
    snprintf(cmd, sizeof cmd, "tourney %s", actions[i]);
    n += every_value_option(cmd);
  }
  cr_assert_geq(n, 60, "only %d options found", n);
  says(2, "convert a.pgn b.pgn --to", "xqref convert: missing value for --to\n", NULL);
  says(2, "convert a.pgn b.pgn --crlf=1", "xqref convert: --crlf takes no value (given '1')", NULL);
  says(2, "serve --board-address 'a b'", "xqref serve: --board-address is HOST:PORT, the address the boards reach",
       NULL);
}

Test(messages, a_failed_write_fails_the_command)
{
  char dir[256], pgn[300];
  int st;
  new_dir(dir, sizeof dir);
  snprintf(pgn, sizeof pgn, "%s/g.pgn", dir);
  free(xq_test_run_db(0, "bench --gen-pgn 2 '%s' 1%s", pgn, NULL));
  char args[512];
  snprintf(args, sizeof args, "convert '%s' /dev/full", pgn);
  says(1, args, "xqref convert: cannot write /dev/full", "written,");
  snprintf(args, sizeof args, "convert '%s' -", pgn);
  /* stdout to /dev/full, stderr to the pipe */
  char *out = shell(&st, "%s %s 2>&1 >/dev/full", XQ_BINARY, args);
  cr_expect_eq(st, 1, "%s", out);
  cr_expect(strstr(out, "cannot write -"), "%s", out);
  cr_expect_null(strstr(out, "written,"), "%s", out);
  free(out);
  static const char *const to_stdout[] = {"perft --depth 2", "judge --moves h2e2", "presets", "presets show burqin2018",
                                          "--version", "--help", "help perft", "pair " XQ_TEST_DATA "/pairing/basic.trf"};
  for (size_t i = 0; i < sizeof to_stdout / sizeof to_stdout[0]; i++) {
    out = shell(&st, "%s %s 2>&1 >/dev/full", XQ_BINARY, to_stdout[i]);
    cr_expect_eq(st, 1, "xqref %s >/dev/full: exit %d\n%s", to_stdout[i], st, out);
    cr_expect(strstr(out, "cannot write the standard output"), "xqref %s >/dev/full:\n%s", to_stdout[i], out);
    free(out);
  }
  out = shell(&st, "%s stats '%s' 2>&1 >/dev/full", XQ_BINARY, pgn);
  cr_expect_eq(st, 1, "%s", out);
  free(out);
  unlink(pgn), rmdir(dir);
}

Test(messages, a_file_that_cannot_be_opened_is_named)
{
  says(1, "pair /nonexistent/e.trf", "xqref pair: /nonexistent/e.trf: cannot open the file: No such file", "line 0");
  char dir[256], db[300], args[600];
  new_dir(dir, sizeof dir);
  snprintf(db, sizeof db, "%s/e.db", dir);
  snprintf(args, sizeof args, "tourney import /nonexistent/e.trf --db '%s'", db);
  says(1, args, "/nonexistent/e.trf: cannot open the file", "line 0");
  free(xq_test_run_db(0, "tourney demo --db '%s' --players 4%s", db, NULL));
  snprintf(args, sizeof args, "tourney prizes --db '%s' --table /nonexistent/p.txt", db);
  says(1, args, "/nonexistent/p.txt: cannot open the prize table: No such file", "line 0");
  xq_test_db_remove(db);
  char admin[320];
  snprintf(admin, sizeof admin, "%s.admin", db);
  unlink(admin), rmdir(dir);
}

/* A 4-player event after one round, its knockout of 4 seeded. */
static void ko_event(const char *db)
{
  free(xq_test_run_db(0, "tourney new --db '%s' --rounds 1%s", db, NULL));
  static const char *const names[] = {"A", "B", "C", "D"};
  for (int i = 0; i < 4; i++) free(xq_test_run_db(0, "tourney add --db '%s' --name %s", db, names[i]));
  free(xq_test_run_db(0, "tourney pair --db '%s'%s", db, NULL));
  free(xq_test_run_db(0, "tourney result --db '%s' --round 1 --board 1 1-0%s", db, NULL));
  free(xq_test_run_db(0, "tourney result --db '%s' --round 1 --board 2 1-0%s", db, NULL));
  free(xq_test_run_db(0, "tourney knockout --db '%s' --after 1 --size 4 --format wujiaqu%s", db, NULL));
}

Test(messages, ko_result_says_what_is_wrong)
{
  char dir[256], db[300];
  new_dir(dir, sizeof dir);
  snprintf(db, sizeof db, "%s/k.db", dir);
  ko_event(db);
  xq_test_run_db_says(1, "match 3 is not ready: an earlier match still has no winner",
                      "tourney ko-result --db '%s' --match 3 1-0%s", db, NULL);
  xq_test_run_db_says(1, "match 9 is not in the bracket (matches 1..3)", "tourney ko-result --db '%s' --match 9 1-0%s",
                      db, NULL);
  char *bracket = xq_test_run_db(0, "tourney bracket --db '%s'%s", db, NULL);
  /* match 1 is #1 v #4, match 2 #2 v #3: a player of match 2 as Red of
   * match 1. Wujiaqu's first stage draws its colours at the table (九(一)
   * 先后手抽签决定): none is printed, none is a default */
  int a, r1;
  const char *m1 = strstr(bracket, "match 1"), *m2 = strstr(bracket, "match 2");
  cr_assert(m1 && m2, "%s", bracket);
  cr_assert(strstr(m1, "colours drawn or chosen at the table (--red NO)"), "%s", bracket);
  cr_assert_eq(sscanf(strchr(strchr(m2, '#'), '(') + 1, "%d", &a), 1, "%s", bracket);
  cr_assert_eq(sscanf(strchr(strchr(m1, '#'), '(') + 1, "%d", &r1), 1, "%s", bracket);
  char extra[64];
  snprintf(extra, sizeof extra, " --red %d", a);
  xq_test_run_db_says(1, "is not one of them", "tourney ko-result --db '%s' --match 1 1-0%s", db, extra);
  free(bracket);
  xq_test_run_db_says(1, "colours are drawn by lot at the table, as the regulation says: give --red NO",
                      "tourney ko-result --db '%s' --match 1 1-0%s", db, NULL);
  snprintf(extra, sizeof extra, " --red %d", r1);
  free(xq_test_run_db(0, "tourney ko-result --db '%s' --match 1 1-0%s", db, extra));
  xq_test_run_db_says(1, "match 1 is decided: no more games", "tourney ko-result --db '%s' --match 1 1-0%s", db,
                      NULL);
  xq_test_db_remove(db), rmdir(dir);
}

Test(messages, numbers_name_a_missing_player)
{
  char dir[256], db[300], file[300];
  new_dir(dir, sizeof dir);
  snprintf(db, sizeof db, "%s/n.db", dir);
  snprintf(file, sizeof file, "%s/numbers.txt", dir);
  free(xq_test_run_db(0, "tourney new --db '%s' --rounds 3%s", db, NULL));
  static const char *const names[] = {"A", "B", "C", "D"};
  for (int i = 0; i < 4; i++) free(xq_test_run_db(0, "tourney add --db '%s' --name %s", db, names[i]));
  FILE *f = fopen(file, "w");
  cr_assert_not_null(f);
  fputs("1 2\n2 1\n3 4\n", f); /* player 4 left out */
  fclose(f);
  char extra[400];
  snprintf(extra, sizeof extra, " --file '%s'", file);
  xq_test_run_db_says(1, "D (id 4) is missing: every player needs a number 1..4",
                      "tourney numbers --db '%s' --by manual%s", db, extra);
  f = fopen(file, "w");
  fputs("1 2\n2 1\n3 4\n4 9\n", f);
  fclose(f);
  xq_test_run_db_says(1, ":4: number 9 is not 1..4", "tourney numbers --db '%s' --by manual%s", db, extra);
  unlink(file), xq_test_db_remove(db), rmdir(dir);
}

Test(messages, an_empty_game_file_is_an_error)
{
  char dir[256], empty[300], args[700];
  new_dir(dir, sizeof dir);
  snprintf(empty, sizeof empty, "%s/empty.pgn", dir);
  fclose(fopen(empty, "w"));
  snprintf(args, sizeof args, "stats '%s'", empty);
  says(1, args, "no game read", NULL);
  snprintf(args, sizeof args, "convert '%s' '%s/o.pgn'", empty, dir);
  says(1, args, "no game found", NULL);
  says(1, "stats - </dev/null", "-: no game read", NULL);
  says(1, "judge - </dev/null", "-: no game", NULL);
  unlink(empty), rmdir(dir);
}

Test(messages, judge_without_a_game_prints_its_usage_and_reads_stdin)
{
  says(2, "judge", "usage: xqref judge", "{\"result\"");
  char dir[256], pgn[300], args[400];
  new_dir(dir, sizeof dir);
  snprintf(pgn, sizeof pgn, "%s/g.pgn", dir);
  free(xq_test_run_db(0, "bench --gen-pgn 2 '%s' 1%s", pgn, NULL));
  snprintf(args, sizeof args, "judge - < '%s'", pgn);
  says(0, args, "{\"file\":\"-\",\"game\":2,", NULL);
  unlink(pgn), rmdir(dir);
}

Test(messages, chinese_verdicts_name_moves_in_chinese)
{
  says(0, "judge --fen '3k5/R8/9/9/9/9/9/9/1R7/4K4 w' --moves 'b1b9 d9e9'",
       "\"zh\":\"红方走车八进八，将死，黑方负\",\"en\":\"Red plays b1b9: checkmate, Black loses\"", "走b1b9");
  says(0, "judge --fen '3k5/R8/9/9/9/9/9/9/1R7/4K4 w' --moves 'b1b9 d9e9'",
       "\"zh\":\"对局已结束（红胜）\",\"en\":\"the game is over (Red wins)\"", "black_wins）");
  says(0, "judge --all --moves h2e2", "\"zh\":\"红方走炮二平五\"", NULL);
  says(0, "judge --all --moves 'held:h2e2'", "\"zh\":\"红方走炮二平五，尚未离手\"", NULL);
}

Test(messages, one_version_everywhere)
{
  int st;
  char *v = xq_test_run("--version", &st);
  cr_assert_eq(st, 0);
  char ver[48], want[80];
  cr_assert_eq(sscanf(v, "xqref %40s", ver), 1, "%s", v);
  snprintf(want, sizeof want, "id name xqref %s\n", ver);
  char *uci = shell(&st, "printf 'uci\\nquit\\n' | %s uci", XQ_BINARY);
  cr_expect(strstr(uci, want), "--version says %s; uci says\n%s", v, uci);
  free(uci);
  free(v);
}
