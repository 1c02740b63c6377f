/*
 * test_net_start.c -- the server's start-up on its store (docs/store.md,
 * docs/server.md): why a store does not open is told in SQLite's words
 * with its path; an empty (0-byte) store file starts only with --init and
 * is left as it was otherwise; DB.admin is never overwritten, whether the
 * store is new, empty or has lost its admin token, and a refusal leaves
 * no token made that nobody saw. Servers start in-process on a loop of
 * the test's own (and stop at once); `xqref serve` runs where it exits.
 * Before any of it, the process start (xq_net_process_init) sets what it
 * says it sets.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net.h"
#include "store/store.h"
#include "support.h"
#include "tourney.h"

TestSuite(net_start, .timeout = 60);

/* The process start ignores SIGPIPE, raises a smaller UV_THREADPOOL_SIZE
 * (or a missing one) to XQ_POOL_THREADS and keeps a larger one, and
 * raises the open-file limit to the hard limit. (Each test runs in a
 * process of its own: what this one changes ends with it.) */
Test(net_start, the_process_start_sets_signal_pool_and_files)
{
  char want[16];
  snprintf(want, sizeof want, "%d", XQ_POOL_THREADS);
  struct rlimit rl;
  cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
  rlim_t hard = rl.rlim_max;
  rl.rlim_cur = hard < 64 ? hard : 64;
  cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
  signal(SIGPIPE, SIG_DFL);
  cr_assert_eq(setenv("UV_THREADPOOL_SIZE", "2", 1), 0);
  cr_assert_eq(xq_net_process_init(), XQ_OK);
  cr_assert_str_eq(getenv("UV_THREADPOOL_SIZE"), want);
  struct sigaction sa;
  cr_assert_eq(sigaction(SIGPIPE, NULL, &sa), 0);
  cr_assert(sa.sa_handler == SIG_IGN, "SIGPIPE is ignored");
  cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
  cr_assert_eq(rl.rlim_cur, hard, "the open-file limit is the hard limit");
  cr_assert_eq(setenv("UV_THREADPOOL_SIZE", "999", 1), 0);
  cr_assert_eq(xq_net_process_init(), XQ_OK);
  cr_assert_str_eq(getenv("UV_THREADPOOL_SIZE"), "999", "a larger pool asked for is kept");
  cr_assert_eq(unsetenv("UV_THREADPOOL_SIZE"), 0);
  cr_assert_eq(xq_net_process_init(), XQ_OK);
  cr_assert_str_eq(getenv("UV_THREADPOOL_SIZE"), want);
}

static char dir[256];

/* A fresh directory for the test; `path` gets dir/name. */
static void in_dir(char *path, size_t len, const char *name)
{
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "%s/xq_net_start_XXXXXX", getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
  }
  snprintf(path, len, "%s/%s", dir, name);
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  cr_assert_eq(fclose(f), 0);
}

static long file_size(const char *path)
{
  struct stat sb;
  return stat(path, &sb) ? -1 : (long)sb.st_size;
}

/* One start of a server on `db` (with --init when `init`, the demo of 4
 * players when `demo`), stopped at once. *printed gets what it printed
 * (the caller frees). Returns what xq_server_start returned, `err`
 * filled; the test fails unless every handle was closed again. */
static int start_once(const char *db, int init, int demo, char **printed, xq_error *err)
{
  uv_loop_t loop;
  cr_assert_eq(uv_loop_init(&loop), 0);
  xq_server_opts o;
  xq_server_opts_default(&o);
  o.db = db;
  o.init = init;
  o.demo = demo;
  o.demo_players = 4;
  o.listen = "127.0.0.1:0";
  o.http = NULL;
  size_t len = 0;
  *printed = NULL;
  o.out = open_memstream(printed, &len);
  xq_server *s = NULL;
  memset(err, 0, sizeof *err);
  int rc = xq_server_start(&loop, &o, &s, err);
  fclose(o.out);
  if (rc == XQ_OK) {
    xq_server_stop(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    xq_server_free(s);
  }
  cr_assert_eq(uv_loop_close(&loop), 0, "every handle closed");
  return rc;
}

/* A start on `db` that must fail with `code`; `err` says why. */
static void start_refused(const char *db, int init, int demo, int code, xq_error *err)
{
  char *out;
  cr_assert_eq(start_once(db, init, demo, &out, err), code, "%s", err->msg);
  free(out);
}

/* The admin token a start printed ("admin TOKEN (also in DB.admin)"),
 * checked against DB.admin: that token and a newline, mode 0600. */
static void admin_printed_and_kept(const char *db, const char *printed, char *token)
{
  char want[800];
  snprintf(want, sizeof want, " (also in %s.admin)\n", db);
  const char *line = strstr(printed, "admin ");
  cr_assert(line && sscanf(line, "admin %32s", token) == 1 && strlen(token) == 32, "%s", printed);
  cr_assert(!strncmp(line + 6 + 32, want, strlen(want)), "%s", printed);
  char path[400];
  snprintf(path, sizeof path, "%s.admin", db);
  char *kept = xq_test_slurp(path);
  cr_assert_not_null(kept, "%s was written", path);
  char line_want[64];
  snprintf(line_want, sizeof line_want, "%s\n", token);
  cr_assert_str_eq(kept, line_want);
  free(kept);
  struct stat sb;
  cr_assert_eq(stat(path, &sb), 0);
  cr_assert_eq(sb.st_mode & 0777, 0600);
}

/* How many live tokens the store at `db` holds. */
static int live_tokens(const char *db)
{
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(db, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  xq_ttoken *t = NULL;
  int n = 0;
  cr_assert_eq(xq_tstore_tokens(st, &t, &n, &err), XQ_OK, "%s", err.msg);
  free(t);
  xq_tstore_close(st);
  return n;
}

static void end_test(void)
{
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (dir[0]) cr_expect_eq(system(cmd), 0);
  dir[0] = 0;
}

/* An empty store file is not taken for a new store: the server does not
 * start on it, writes nothing to it and makes no DB.admin, until it is
 * started with --init; then it is an ordinary store. */
Test(net_start, an_empty_store_file_starts_only_with_init, .fini = end_test)
{
  char db[300], admin[320], want[800], token[48], *out;
  xq_error err;
  in_dir(db, sizeof db, "empty.db");
  snprintf(admin, sizeof admin, "%s.admin", db);
  write_file(db, "");
  start_refused(db, 0, 1, XQ_ESTORE, &err);
  snprintf(want, sizeof want, "cannot open %s: the file is empty (0 bytes); --init makes a new store in it", db);
  cr_assert_str_eq(err.msg, want);
  cr_assert_eq(file_size(db), 0, "the file is left as it was");
  cr_assert_neq(access(admin, F_OK), 0, "no admin file is made");

  cr_assert_eq(start_once(db, 1, 1, &out, &err), XQ_OK, "%s", err.msg);
  admin_printed_and_kept(db, out, token);
  cr_assert(strstr(out, "\nboard 1 2 "), "the demo's tokens: %s", out);
  free(out);
  cr_assert_gt(file_size(db), 0);
  /* started again without --init: the same store, no new admin token */
  cr_assert_eq(start_once(db, 0, 0, &out, &err), XQ_OK, "%s", err.msg);
  cr_assert_null(strstr(out, "admin "), "%s", out);
  free(out);
  char *kept = xq_test_slurp(admin), line[64];
  snprintf(line, sizeof line, "%s\n", token);
  cr_assert_str_eq(kept, line);
  free(kept);
}

/* DB.admin is never overwritten. Where the server would make an admin
 * token and the file exists, it refuses before it writes anything to the
 * store (the demo's board tokens are shown once: none is made unseen),
 * tells what to do, and the file keeps its bytes: for a new store, an
 * empty one started with --init, and a store whose admin token was
 * revoked. */
Test(net_start, an_admin_file_is_never_overwritten, .fini = end_test)
{
  char db[300], admin[320], db2[300], admin2[320], want[800], token[48], *out, *kept;
  xq_error err;
  in_dir(db, sizeof db, "event.db");
  snprintf(admin, sizeof admin, "%s.admin", db);
  write_file(admin, "an earlier store's token\n");
  start_refused(db, 0, 1, XQ_EIO, &err);
  snprintf(want, sizeof want, "%s exists (from an earlier store?) and is never overwritten: "
           "move it away, then start again", admin);
  cr_assert_str_eq(err.msg, want);
  cr_assert_str_eq(kept = xq_test_slurp(admin), "an earlier store's token\n");
  free(kept);
  cr_assert_eq(live_tokens(db), 0, "no token was made");

  in_dir(db2, sizeof db2, "zero.db");
  snprintf(admin2, sizeof admin2, "%s.admin", db2);
  write_file(db2, "");
  write_file(admin2, "keep\n");
  start_refused(db2, 1, 1, XQ_EIO, &err);
  cr_assert(strstr(err.msg, "zero.db.admin exists") && strstr(err.msg, "never overwritten"), "%s", err.msg);
  cr_assert_str_eq(kept = xq_test_slurp(admin2), "keep\n");
  free(kept);

  /* the file moved away, the first store starts with its demo */
  cr_assert_eq(unlink(admin), 0);
  cr_assert_eq(start_once(db, 0, 1, &out, &err), XQ_OK, "%s", err.msg);
  admin_printed_and_kept(db, out, token);
  cr_assert(strstr(out, "\nboard 1 1 "), "%s", out);
  free(out);

  /* the admin token revoked: a new one is due, but DB.admin holds the old */
  xq_tstore *st;
  cr_assert_eq(xq_tstore_open(db, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_token_revoke(st, token, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  int before = live_tokens(db);
  start_refused(db, 0, 0, XQ_EIO, &err);
  snprintf(want, sizeof want, "no live admin token, and %s exists (a revoked one?): it is never "
           "overwritten; move it away, then start again", admin);
  cr_assert_str_eq(err.msg, want);
  char line[64];
  snprintf(line, sizeof line, "%s\n", token);
  cr_assert_str_eq(kept = xq_test_slurp(admin), line);
  free(kept);
  cr_assert_eq(live_tokens(db), before, "no token was made");
  /* moved away: a new admin token, in a new file */
  cr_assert_eq(unlink(admin), 0);
  char fresh[48];
  cr_assert_eq(start_once(db, 0, 0, &out, &err), XQ_OK, "%s", err.msg);
  admin_printed_and_kept(db, out, fresh);
  cr_assert_str_neq(fresh, token);
  free(out);
}

/* `xqref serve --db F` with F that cannot be a store: exit 1 and one line
 * that names F and says why in SQLite's words. */
static void serve_fails(const char *db, const char *extra, const char *why)
{
  char args[1024], want[700];
  int st;
  snprintf(args, sizeof args, "serve --db '%s' %s --listen 127.0.0.1:0 --http none --quiet", db, extra);
  char *out = xq_test_run(args, &st);
  cr_assert_eq(st, 1, "xqref %s: exit %d\n%s", args, st, out);
  snprintf(want, sizeof want, "xqref serve: %s\n", why);
  cr_assert_str_eq(out, want);
  free(out);
}

Test(net_start, serve_says_why_a_store_does_not_open, .fini = end_test)
{
  char db[300], sub[400], why[700];
  in_dir(db, sizeof db, "x.db");
  cr_assert_eq(mkdir(db, 0700), 0);
  snprintf(why, sizeof why, "cannot open %s: unable to open database file (Is a directory)", db);
  serve_fails(db, "", why);
  cr_assert_eq(rmdir(db), 0);
  write_file(db, "");
  snprintf(sub, sizeof sub, "%s/event.db", db);
  snprintf(why, sizeof why, "cannot open %s: unable to open database file (Not a directory)", sub);
  serve_fails(sub, "", why);
  snprintf(sub, sizeof sub, "%s/no-such-dir/event.db", dir);
  snprintf(why, sizeof why, "cannot open %s: unable to open database file (No such file or directory)", sub);
  serve_fails(sub, "", why);
  write_file(db, "this is a list of players, not a store\n"
                 "1 张强 2600\n2 李来群 2580\n3 胡荣华 2560\n4 吕钦 2540\n5 许银川 2520\n6 赵国荣 2500\n"
                 "7 徐天红 2480\n8 柳大华 2460\n9 蒋川 2440\n10 洪智 2420\n11 王天一 2400\n12 郑惟桐 2380\n");
  snprintf(why, sizeof why, "cannot open %s: file is not a database", db);
  serve_fails(db, "", why);
  /* a store cut short */
  cr_assert_eq(unlink(db), 0);
  char args[400];
  int st;
  snprintf(args, sizeof args, "tourney demo --db '%s' --players 8", db);
  free(xq_test_run(args, &st));
  cr_assert_eq(st, 0);
  cr_assert_eq(truncate(db, 5000), 0);
  snprintf(why, sizeof why, "cannot open %s: database disk image is malformed", db);
  serve_fails(db, "", why);
  /* --init on an empty file whose admin file exists: refused, kept */
  char admin[320];
  snprintf(admin, sizeof admin, "%s.admin", db);
  xq_test_db_remove(db);
  write_file(db, "");
  write_file(admin, "keep\n");
  snprintf(why, sizeof why, "%s exists (from an earlier store?) and is never overwritten: "
           "move it away, then start again", admin);
  serve_fails(db, "--init", why);
  char *kept = xq_test_slurp(admin);
  cr_assert_str_eq(kept, "keep\n");
  free(kept);
}
