/*
 * test_cli.c -- the option tables of the command line (cli/opts.c): a
 * table of every kind read and refused, each usage error in its own
 * words; and, on the built binary, that every subcommand's and every
 * tourney action's help is the same as `xqref help ...` and lists every
 * option its usage names; and that no command overwrites what it reads
 * (convert, tourney export and the sheets, import), `serve` on a port
 * that is taken leaves nothing behind, and `judge` explains a refused
 * claim in both languages; and that a command line run in a forked child
 * (tests/cli_run.c) is the binary's run.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "opts.h"
#include "support.h"

/* Every kind of row. */
typedef struct t_opts {
  int flag, n, word, optional;
  long big;
  uint64_t seed;
  double rate;
  const char *text;
  int calls;
  const char *last_call;
} t_opts;

static int t_call(void *opts, const char *v, xq_error *err)
{
  t_opts *o = opts;
  if (!strcmp(v, "no")) {
    snprintf(err->msg, sizeof err->msg, "not this one");
    return XQ_EINVAL;
  }
  o->calls++;
  o->last_call = v;
  return XQ_OK;
}

static const int t_map[] = {10, 20, 30};

enum { T_ONE = 1u << 0, T_TWO = 1u << 1, T_THREE = 1u << 2 };
static const char *const t_actions[] = {"one", "two", "three"};

static const xq__opt t_rows[] = {
  XQ__FLAG("--flag", t_opts, flag, 7, "a flag", .alias = 'f'),
  XQ__INT("--n", t_opts, n, -5, 5, "N", "an int", .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--big", t_opts, big, 0, 3000000000LL, "B", "a long"),
  XQ__U64("--seed", t_opts, seed, "S", "a seed"),
  XQ__DOUBLE("--rate", t_opts, rate, 0, 10, "R", "a rate"),
  XQ__STR("--text", t_opts, text, "TEXT", "a text\non two lines"),
  XQ__ENUM("--word", t_opts, word, "red|green|blue", t_map, "a word"),
  XQ__INT("--optional", t_opts, optional, 1, 9, "K", "an optional value", .flags = XQ__OPT_OPTIONAL, .dflt = 4),
  XQ__CALL("--call", t_call, "X", "a call", .flags = XQ__OPT_REPEAT),
  XQ__INT("--n2", t_opts, n, 0, 1, "N", "the same field for action two", .only = T_TWO),
  XQ__FLAG("--three", t_opts, flag, 3, "of actions one and three", .only = T_ONE | T_THREE),
};

static const xq__cmd t_cmd = {
  .name = "test",
  .args = "[A [B]]",
  .args_max = 2,
  .about = "A command to test with.",
  .opts = t_rows,
  .nopts = XQ__NROWS(t_rows),
  .mask = T_ONE,
  .actions = t_actions,
};

/* Parse `line` (words split at spaces) by `c` into *o; what the parser
 * printed on stderr goes to *err (caller frees). Returns the status. */
static int parse(const xq__cmd *c, const char *line, t_opts *o, const char **args, int *nargs, char **err)
{
  static char buf[512];
  char *argv[32];
  int argc = 0;
  snprintf(buf, sizeof buf, "%s", line);
  argv[argc++] = "test";
  for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " ")) argv[argc++] = w;
  argv[argc] = NULL;
  fflush(stderr);
  int saved = dup(2);
  FILE *tmp = tmpfile();
  cr_assert_not_null(tmp);
  dup2(fileno(tmp), 2);
  memset(o, 0, sizeof *o);
  int status = xq__opts_parse(c, argc, argv, o, args, nargs);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  long len = ftell(tmp);
  *err = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
  rewind(tmp);
  if (len > 0) cr_assert_eq(fread(*err, 1, (size_t)len, tmp), (size_t)len);
  fclose(tmp);
  return status;
}

/* The status and the message of a bad line. */
static void refused(const char *line, const char *says)
{
  t_opts o;
  const char *args[2];
  int nargs;
  char *err;
  int status = parse(&t_cmd, line, &o, args, &nargs, &err);
  cr_expect_eq(status, 2, "'%s': status %d", line, status);
  cr_expect(strstr(err, says), "'%s' says\n%s\nnot '%s'", line, err, says);
  cr_expect(strstr(err, "\nusage: xqref test [--flag] --n N [--big B]"), "'%s': the usage follows\n%s", line, err);
  free(err);
}

Test(opts, every_kind_reads_its_value)
{
  t_opts o;
  const char *args[2];
  int nargs;
  char *err;
  int status = parse(&t_cmd,
                     "A -f --n -3 --big 2999999999 --seed 18446744073709551615 --rate 2.5 --text x "
                     "--word blue --optional --call a --call b B --three",
                     &o, args, &nargs, &err);
  cr_assert_eq(status, -1, "%s", err);
  cr_assert_str_empty(err);
  cr_assert_eq(o.flag, 3, "the last of two flags on one field counts");
  cr_assert_eq(o.n, -3, "a value may begin with '-'");
  cr_assert_eq(o.big, 2999999999L);
  cr_assert_eq(o.seed, UINT64_MAX);
  cr_assert_float_eq(o.rate, 2.5, 1e-12);
  cr_assert_str_eq(o.text, "x");
  cr_assert_eq(o.word, 30, "the map's value of the third word");
  cr_assert_eq(o.optional, 4, "an optional value left out: the default");
  cr_assert_eq(o.calls, 2);
  cr_assert_str_eq(o.last_call, "b");
  cr_assert_eq(nargs, 2);
  cr_assert_str_eq(args[0], "A");
  cr_assert_str_eq(args[1], "B");
  free(err);
  cr_assert_eq(parse(&t_cmd, "--optional 6 - --n 0", &o, args, &nargs, &err), -1, "%s", err);
  cr_assert_eq(o.optional, 6, "an optional value given");
  cr_assert_eq(nargs, 1);
  cr_assert_str_eq(args[0], "-", "'-' alone is an argument");
  free(err);
}

Test(opts, each_usage_error_in_its_own_words)
{
  refused("--n 1 --nope", "xqref test: unknown option '--nope'\n");
  refused("--n", "xqref test: missing value for --n\n");
  refused("--n x", "xqref test: bad number for --n: x (-5..5)\n");
  refused("--n 6", "bad number for --n: 6 (-5..5)");
  refused("--n 1x", "bad number for --n: 1x (-5..5)");
  refused("--n 1 --big -1", "bad number for --big: -1 (0..3000000000)");
  refused("--n 1 --seed -1", "bad number for --seed: -1 (a whole number, 0 or more)");
  refused("--n 1 --rate 0", "bad number for --rate: 0 (above 0, at most 10)");
  refused("--n 1 --rate 10.5", "bad number for --rate: 10.5 (above 0, at most 10)");
  refused("--n 1 --optional 0", "bad number for --optional: 0 (1..9)");
  refused("--n 1 --word pink", "bad value for --word: pink (red, green or blue)");
  refused("--n 1 --call no", "xqref test: --call: not this one\n");
  refused("--n 1 --n2 0", "xqref test: --n2 applies only to two\n");
  refused("", "xqref test: --n N is required\n");
  refused("--flag", "--n N is required");
  refused("--n 1 A B C", "unexpected argument 'C'");
  refused("--n 1 -+", "unknown option '-+'");
  /* a value left out is told as such, also before another option and in
   * the --name=VALUE form */
  refused("--n 1 --text", "xqref test: missing value for --text\n");
  refused("--n 1 --text --flag", "xqref test: missing value for --text\n");
  refused("--text --help", "xqref test: missing value for --text\n");
  refused("--n=", "xqref test: missing value for --n\n");
  refused("--n 1 --flag=1", "xqref test: --flag takes no value (given '1')\n");
  refused("--n 1 --nope=1", "xqref test: unknown option '--nope'\n");
}

Test(opts, a_value_after_an_equals_sign)
{
  t_opts o;
  char *err;
  cr_assert_eq(parse(&t_cmd, "--n=3 --text=a=b --word=blue --optional=", &o, NULL, NULL, &err), -1, "%s", err);
  cr_assert_eq(o.n, 3);
  cr_assert_str_eq(o.text, "a=b");
  cr_assert_eq(o.word, 30);
  cr_assert_eq(o.optional, 4, "an optional value left out: its default");
  free(err);
  cr_assert_eq(parse(&t_cmd, "--n 1 --text -", &o, NULL, NULL, &err), -1, "'-' is a value: %s", err);
  cr_assert_str_eq(o.text, "-");
  free(err);
}

Test(opts, dash_words_and_actions)
{
  xq__cmd c = t_cmd;
  t_opts o;
  const char *args[2];
  int nargs;
  char *err;
  c.dash_words = 1;
  cr_assert_eq(parse(&c, "--n 1 -+ --", &o, args, &nargs, &err), -1, "%s", err);
  cr_assert_eq(nargs, 2);
  cr_assert_str_eq(args[0], "-+");
  cr_assert_str_eq(args[1], "--");
  free(err);
  cr_assert_eq(parse(&c, "--n 1 -1", &o, args, &nargs, &err), -1, "%s", err);
  cr_assert_str_eq(args[0], "-1", "a number is a word");
  free(err);
  cr_assert_eq(parse(&c, "--n 1 -x", &o, args, &nargs, &err), 2, "a letter after '-' is an option");
  cr_assert(strstr(err, "unknown option '-x'"), "%s", err);
  free(err);
  c.mask = T_TWO;
  cr_assert_eq(parse(&c, "--n2 1 --n 0", &o, args, &nargs, &err), -1, "%s", err);
  cr_assert_eq(o.n, 0);
  free(err);
  cr_assert_eq(parse(&c, "--n 0 --three", &o, args, &nargs, &err), 2);
  cr_assert(strstr(err, "xqref test: --three applies only to one and three\n"), "%s", err);
  free(err);
}

/* The help of `c` as printed. */
static char *help_text(const xq__cmd *c)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  cr_assert_not_null(m);
  xq__opts_help(c, m);
  fclose(m);
  return buf;
}

Test(opts, the_help_is_made_from_the_rows_the_action_takes)
{
  char *h = help_text(&t_cmd);
  cr_assert(strstr(h, "usage: xqref test [--flag] --n N [--big B] [--seed S] [--rate R] [--text TEXT]\n"
                      "                  [--word red|green|blue] [--optional [K]] [--call X]... [--three] [A [B]]\n"
                      "\nA command to test with.\n\noptions:\n"),
            "%s", h);
  cr_assert(strstr(h, "\n  -f, --flag             a flag\n"), "%s", h);
  cr_assert(strstr(h, "\n  --text TEXT            a text\n                         on two lines\n"), "%s", h);
  cr_assert(strstr(h, "\n  --optional [K]         an optional value\n"), "%s", h);
  cr_assert(strstr(h, "\n  -h, --help             this help\n"), "%s", h);
  cr_assert_null(strstr(h, "--n2"), "not an option of action one: %s", h);
  free(h);
  xq__cmd c = t_cmd;
  c.mask = T_TWO;
  h = help_text(&c);
  cr_assert(strstr(h, "--n2 N"), "%s", h);
  cr_assert_null(strstr(h, "--three"), "%s", h);
  free(h);
}

/* ------------------------------------------------------------------ */
/* The binary                                                          */
/* ------------------------------------------------------------------ */

/* `xqref CMD --help` and `xqref help CMD` print the same help, which
 * begins with the command's usage; unless it is the overview of an
 * action's command, it lists, under "options:", every option that its
 * usage lines name, and names in its usage every option that it lists. */
static void same_help(const char *cmd)
{
  char args[256];
  int st1, st2;
  snprintf(args, sizeof args, "%s --help", cmd);
  char *a = xq_test_run(args, &st1);
  snprintf(args, sizeof args, "help %s", cmd);
  char *b = xq_test_run(args, &st2);
  cr_expect_eq(st1, 0, "%s --help: %s", cmd, a);
  cr_expect_eq(st2, 0, "help %s: %s", cmd, b);
  cr_expect_str_eq(a, b, "xqref %s --help and xqref help %s differ", cmd, cmd);
  char want[128];
  snprintf(want, sizeof want, "usage: xqref %s", cmd);
  cr_expect(!strncmp(a, want, strlen(want)), "%s", a);
  char *list = strstr(a, "\noptions:\n");
  if (!list) { /* an overview of actions (tourney) has no options of its own */
    cr_expect(strstr(a, "\nactions:\n"), "%s: neither options nor actions\n%s", cmd, a);
    free(a);
    free(b);
    return;
  }
  *list = '\0'; /* a: the usage and the about text; list: the rows */
  list += 10;
  char *usage_end = strstr(a, "\n\n");
  if (usage_end) *usage_end = '\0';
  for (char *p = strstr(a, "--"); p; p = strstr(p + 2, "--")) {
    char opt[48], row[56];
    if (sscanf(p, "%40[-a-z]", opt) != 1 || strlen(opt) < 3) continue;
    snprintf(row, sizeof row, "  %s", opt);
    char row2[60];
    snprintf(row2, sizeof row2, ", %s", opt);
    cr_expect(strstr(list, row) || strstr(list, row2), "%s: the usage names %s, the list does not", cmd, opt);
  }
  for (char *line = list; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    char opt[48];
    if (sscanf(line, "  -%*c, %40[-a-z]", opt) != 1 && sscanf(line, "  %40[-a-z]", opt) != 1) continue;
    if (strncmp(opt, "--", 2) || !strcmp(opt, "--help")) continue;
    cr_expect(strstr(a, opt), "%s: %s is listed, not in the usage", cmd, opt);
  }
  free(a);
  free(b);
}

Test(cli, every_command_and_action_has_one_help)
{
  int st;
  char *top = xq_test_run("--help", &st);
  cr_assert_eq(st, 0);
  char *cmds = strstr(top, "commands:\n");
  cr_assert_not_null(cmds);
  int n = 0;
  for (char *line = strchr(cmds, '\n') + 1; line && !strncmp(line, "  ", 2); line = strchr(line, '\n') + 1) {
    char cmd[32];
    cr_assert_eq(sscanf(line, "  %31s", cmd), 1);
    same_help(cmd);
    n++;
  }
  cr_assert_geq(n, 13, "%s", top);
  free(top);
  static const char *const variants[] = {"bench --judge", "bench --gen-pgn", "bench --store"};
  for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) same_help(variants[i]);
  char *all = xq_test_run("tourney --help", &st);
  cr_assert_eq(st, 0);
  char *acts = strstr(all, "actions:\n");
  cr_assert_not_null(acts);
  n = 0;
  for (char *line = acts; (line = strstr(line, "\n  ")); line++) {
    char act[32], cmd[48];
    if (line[3] == ' ' || sscanf(line + 3, "%31s", act) != 1) continue;
    snprintf(cmd, sizeof cmd, "tourney %s", act);
    same_help(cmd);
    n++;
  }
  cr_assert_eq(n, 38, "%s", all);
  free(all);
}

/* ---- no command overwrites what it reads ----------------------------- */

/* A new folder for one test: $TMPDIR (or /tmp)/xq_cli_XXXXXX. */
static void new_dir(char *dir, size_t len)
{
  const char *t = getenv("TMPDIR");
  snprintf(dir, len, "%s/xq_cli_XXXXXX", t && *t ? t : "/tmp");
  cr_assert_not_null(mkdtemp(dir));
}

/* The bytes of `path` (*n of them; malloc'd), NULL when it cannot be read. */
static char *bytes_of(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL, chunk[4096];
  size_t got;
  FILE *m = open_memstream(&buf, n);
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, got, m);
  fclose(m);
  fclose(f);
  return buf;
}

/* Fail unless `path` holds exactly want[0..n). */
static void same_bytes(const char *path, const char *want, size_t n, const char *after)
{
  size_t m = 0;
  char *got = bytes_of(path, &m);
  cr_assert_not_null(got, "%s is gone after %s", path, after);
  cr_assert(m == n && !memcmp(got, want, n), "%s changed after %s (%zu bytes, was %zu)", path, after, m, n);
  free(got);
}

/* Run xqref `args`; fail unless it is refused (exit 1, the refusal's
 * words) and `path` still holds want[0..n). */
static void unchanged_after(const char *args, const char *path, const char *want, size_t n)
{
  int st;
  char *out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "xqref %s: exit %d\n%s", args, st, out);
  cr_expect(strstr(out, "no command overwrites what it reads"), "xqref %s:\n%s", args, out);
  free(out);
  same_bytes(path, want, n, args);
}

Test(cli, convert_never_overwrites_its_input)
{
  char dir[256], a[300], l[300], h[300], b[300], args[1024];
  new_dir(dir, sizeof dir);
  snprintf(a, sizeof a, "%s/a.pgn", dir);
  snprintf(l, sizeof l, "%s/link.pgn", dir);
  snprintf(h, sizeof h, "%s/hard.pgn", dir);
  snprintf(b, sizeof b, "%s/b.pgn", dir);
  size_t n;
  char *orig = bytes_of(XQ_TEST_DATA "/records/gameA_iccs.pgn", &n);
  cr_assert(orig && n > 0);
  FILE *f = fopen(a, "wb");
  cr_assert_not_null(f);
  fwrite(orig, 1, n, f);
  fclose(f);
  cr_assert_eq(symlink(a, l), 0);
  cr_assert_eq(link(a, h), 0);

  snprintf(args, sizeof args, "convert '%s' '%s'", a, a); /* the same name */
  unchanged_after(args, a, orig, n);
  snprintf(args, sizeof args, "convert '%s' '%s/../%s/a.pgn'", a, dir, strrchr(dir, '/') + 1); /* another spelling */
  unchanged_after(args, a, orig, n);
  snprintf(args, sizeof args, "convert '%s' '%s'", a, l); /* onto a link to it */
  unchanged_after(args, a, orig, n);
  snprintf(args, sizeof args, "convert '%s' '%s'", l, a); /* from a link to it */
  unchanged_after(args, a, orig, n);
  snprintf(args, sizeof args, "convert '%s' '%s'", h, a); /* a hard link */
  unchanged_after(args, a, orig, n);
  /* standard output appended to it (its message is not read: the
   * harness's 2>&1 would send it into the file) */
  snprintf(args, sizeof args, "convert '%s' - >> '%s' 2>/dev/null || exit $?; :", a, a);
  int st;
  free(xq_test_run(args, &st));
  cr_expect_eq(st, 1);
  same_bytes(a, orig, n, args);

  /* another file is written, and written again */
  for (int k = 0; k < 2; k++) {
    snprintf(args, sizeof args, "convert '%s' '%s' --notation wxf", a, b);
    char *out = xq_test_run(args, &st);
    cr_expect_eq(st, 0, "%s", out);
    free(out);
    size_t m;
    char *got = bytes_of(b, &m);
    cr_expect(got && m > 100 && strstr(got, "C2.5"), "%s", got ? got : "(none)");
    free(got);
  }
  same_bytes(a, orig, n, "the conversions");
  free(orig);
  unlink(l), unlink(h), unlink(a), unlink(b), rmdir(dir);
}

Test(cli, tourney_never_overwrites_the_store_or_its_input)
{
  char dir[256], db[300], wal[300], link_db[300], trf[300], args[1024];
  new_dir(dir, sizeof dir);
  snprintf(db, sizeof db, "%s/e.db", dir);
  snprintf(wal, sizeof wal, "%s/e.db-wal", dir);
  snprintf(link_db, sizeof link_db, "%s/link.db", dir);
  snprintf(trf, sizeof trf, "%s/e.trf", dir);
  free(xq_test_run_db(0, "tourney demo --db '%s' --players 8%s", db, NULL));
  cr_assert_eq(symlink(db, link_db), 0);
  size_t n;
  char *orig = bytes_of(db, &n);
  cr_assert(orig && n > 0);

  static const char *const onto[][2] = {
    {"tourney export --db '%s' --out '%s'", "db"},          /* TRF text over the store */
    {"tourney export --db '%s' --out '%s' --format xlsx", "db"},
    {"tourney export --db '%s' --out '%s'", "link"},        /* through a link */
    {"tourney export --db '%s' --out '%s'", "wal"},         /* over its write-ahead log */
    {"tourney places --db '%s' --format html --out '%s'", "db"},
    {"tourney prizes --db '%s' --preset xinjiang2018 --format csv --out '%s'", "db"},
  };
  for (size_t i = 0; i < sizeof onto / sizeof onto[0]; i++) {
    const char *out = !strcmp(onto[i][1], "db") ? db : !strcmp(onto[i][1], "wal") ? wal : link_db;
    snprintf(args, sizeof args, onto[i][0], db, out);
    unchanged_after(args, db, orig, n);
  }
  cr_expect_neq(access(wal, F_OK), 0, "no write-ahead log made up");
  /* a link to a file of the store that is not there yet (the write would
   * make it through the link), relative and through a second link */
  char dangling[300], dangling2[300], admin[300];
  snprintf(dangling, sizeof dangling, "%s/wal.trf", dir);
  snprintf(dangling2, sizeof dangling2, "%s/admin.trf", dir);
  snprintf(admin, sizeof admin, "%s/e.db.admin", dir);
  cr_assert_eq(symlink("./e.db-wal", dangling), 0);
  cr_assert_eq(symlink("admin.link", dangling2), 0);
  snprintf(args, sizeof args, "%s/admin.link", dir);
  cr_assert_eq(symlink(admin, args), 0);
  snprintf(args, sizeof args, "tourney export --db '%s' --out '%s'", db, dangling);
  unchanged_after(args, db, orig, n);
  cr_expect_neq(access(wal, F_OK), 0, "no write-ahead log written through a link");
  snprintf(args, sizeof args, "tourney export --db '%s' --out '%s'", db, dangling2);
  unchanged_after(args, db, orig, n);
  cr_expect_neq(access(admin, F_OK), 0, "no admin file written through two links");
  unlink(dangling), unlink(dangling2);
  snprintf(args, sizeof args, "%s/admin.link", dir);
  unlink(args);
  free(xq_test_run_db(0, "tourney players --db '%s'%s", db, NULL)); /* the store still opens */

  /* an export is fine; importing it into itself is not */
  snprintf(args, sizeof args, "tourney export --db '%s' --out '%s'", db, trf);
  xq_test_expect(0, "%s", args);
  size_t tn;
  char *t = bytes_of(trf, &tn);
  cr_assert(t && tn > 0);
  snprintf(args, sizeof args, "tourney import '%s' --db '%s'", trf, trf);
  unchanged_after(args, trf, t, tn);
  free(t);
  free(orig);
  unlink(trf), unlink(link_db), xq_test_db_remove(db), rmdir(dir);
}

/* A board token is made only for a table that is there, as the server
 * makes them: not a table past the round's last, not the bye, not a
 * round that is not paired; the store is left without such a token. */
Test(cli, a_board_token_only_for_a_table_that_is_there)
{
  char dir[256], db[300];
  new_dir(dir, sizeof dir);
  snprintf(db, sizeof db, "%s/e.db", dir);
  free(xq_test_run_db(0, "tourney demo --db '%s' --players 8%s", db, NULL));
  xq_test_run_db_says(1, "round 1 has 4 tables: there is no table 99",
                      "tourney token --db '%s' --role board --round 1 --table 99%s", db, NULL);
  xq_test_run_db_says(1, "round 2 is not paired", "tourney token --db '%s' --role board --round 2 --table 1%s", db, NULL);
  char *tokens = xq_test_run_db(0, "tourney tokens --db '%s'%s", db, NULL);
  cr_assert_null(strstr(tokens, " 99 "), "no token for table 99: %s", tokens);
  free(tokens);
  char *ok = xq_test_run_db(0, "tourney token --db '%s' --role board --round 1 --table 4%s", db, NULL);
  cr_assert_eq(strlen(ok), 33, "a token and its newline: %s", ok);
  free(ok);
  xq_test_db_remove(db), rmdir(dir);
}

/* A repetition claimed on a position seen once is refused, and both
 * sentences give the count and the rule's number: the Chinese once read
 * the English plural's pointer as the number (未满-663217114次). */
Test(cli, judge_a_false_repetition_claim_counts_in_both_languages)
{
  int st;
  char *out = xq_test_run("judge --moves \"c3c4 c6c5 repetition\"", &st);
  cr_assert_eq(st, 0, "%s", out);
  cr_assert(strstr(out, "\"zh\":\"本局面出现1次，未满3次，不构成待判局面\""), "%s", out);
  cr_assert(strstr(out, "\"en\":\"the position has occurred 1 time, fewer than 3: no ruling yet\""), "%s", out);
  free(out);
}

/* A listening socket on 127.0.0.1 (a port taken); *port gets its port. */
static int take_port(int *port)
{
  int s = socket(AF_INET, SOCK_STREAM, 0);
  cr_assert_geq(s, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof sa;
  cr_assert_eq(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
  cr_assert_eq(listen(s, 4), 0);
  cr_assert_eq(getsockname(s, (struct sockaddr *)&sa, &len), 0);
  *port = ntohs(sa.sin_port);
  return s;
}

/* Start `xqref serve ARGS...` and read its standard output up to the
 * line "http ..." (the last it prints when it has started) into out;
 * then stop it with SIGTERM. Returns its exit status. */
static int serve_until_started(char *const argv[], char *out, size_t cap)
{
  int fd[2];
  cr_assert_eq(pipe(fd), 0);
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    dup2(fd[1], STDOUT_FILENO);
    close(fd[0]);
    close(fd[1]);
    execv(XQ_BINARY, argv);
    _exit(127);
  }
  close(fd[1]);
  size_t n = 0;
  ssize_t got;
  out[0] = 0;
  while (n + 1 < cap && !strstr(out, "\nhttp ") && (got = read(fd[0], out + n, cap - n - 1)) > 0) {
    n += (size_t)got;
    out[n] = 0;
  }
  kill(pid, SIGTERM);
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(cli, serve_on_a_taken_port_leaves_nothing_behind)
{
  char dir[256], db[300], admin[320], args[1024];
  new_dir(dir, sizeof dir);
  snprintf(db, sizeof db, "%s/s.db", dir);
  snprintf(admin, sizeof admin, "%s.admin", db);
  int port, s = take_port(&port);
  /* the HTTP port taken, then the JSON-lines port */
  snprintf(args, sizeof args, "serve --demo --players 4 --db '%s' --listen 127.0.0.1:0 --http 127.0.0.1:%d --quiet", db, port);
  int st;
  char *out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "%s", out);
  cr_expect(strstr(out, "cannot listen") && !strstr(out, "admin ") && !strstr(out, "board "), "%s", out);
  free(out);
  snprintf(args, sizeof args, "serve --demo --players 4 --db '%s' --listen 127.0.0.1:%d --http none --quiet", db, port);
  out = xq_test_run(args, &st);
  cr_expect_eq(st, 1, "%s", out);
  free(out);
  cr_expect_neq(access(db, F_OK), 0, "no store made");
  cr_expect_neq(access(admin, F_OK), 0, "no %s written", admin);
  close(s);

  /* the next start is a first start: the admin token and every board's */
  char text[8192];
  char *const argv[] = {"xqref", "serve", "--demo", "--players", "4", "--db", db, "--listen", "127.0.0.1:0",
                        "--http", "127.0.0.1:0", "--quiet", NULL};
  serve_until_started(argv, text, sizeof text);
  cr_expect(strstr(text, "admin ") && strstr(text, "board 1 1 ") && strstr(text, "board 1 2 "), "%s", text);
  cr_expect_eq(access(admin, F_OK), 0);
  unlink(admin), xq_test_db_remove(db), rmdir(dir);
}

/* A command line the suites run in a forked child (xq_test_cli_run)
 * gives what the binary gives through the shell: the same words (quoted
 * or not), the same redirections in the same order, the same output and
 * exit status; and a line that needs the shell is left to it. */
Test(cli, a_forked_run_is_the_binarys_run)
{
  unsetenv("XQ_TEST_CLI_EXEC"); /* scripts/cli-leaks.sh's: the binary for every line */
  char dir[] = "/tmp/xq_fork_XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char lines[6][512];
  snprintf(lines[0], sizeof lines[0], "presets show 'tangshan2018' 2>&1");
  snprintf(lines[1], sizeof lines[1], "perft --fen \"4k4/9/9/9/9/9/9/9/9/4K4 w\" --depth 1 2>&1");
  snprintf(lines[2], sizeof lines[2], "tourney add --db %s/none.db --name '张 三' 2>&1", dir);
  snprintf(lines[3], sizeof lines[3], "presets show xinjiang2018 >%s/out.txt 2>&1", dir);
  snprintf(lines[4], sizeof lines[4], "perft --depth x 2>%s/err.txt", dir);
  snprintf(lines[5], sizeof lines[5], "judge --moves h2e2 2>&1");
  for (int i = 0; i < 6; i++) {
    char *forked = NULL, cmd[4096];
    int fst, bst;
    cr_assert_eq(xq_test_cli_run(lines[i], &forked, &fst), 1, "not forked: %s", lines[i]);
    char *ffile = NULL;
    if (i == 3 || i == 4) {
      snprintf(cmd, sizeof cmd, "%s/%s", dir, i == 3 ? "out.txt" : "err.txt");
      ffile = xq_test_slurp(cmd);
      cr_assert_not_null(ffile);
    }
    snprintf(cmd, sizeof cmd, "%s %s", XQ_BINARY, lines[i]);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char *bin = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&bin, &n);
    for (int c; (c = fgetc(p)) != EOF;) fputc(c, m);
    fclose(m);
    int st = pclose(p);
    bst = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    cr_expect_eq(fst, bst, "%s: exit %d forked, %d by the binary", lines[i], fst, bst);
    cr_expect_str_eq(forked, bin, "%s: forked\n%s\nthe binary\n%s", lines[i], forked, bin);
    if (ffile) {
      snprintf(cmd, sizeof cmd, "%s/%s", dir, i == 3 ? "out.txt" : "err.txt");
      char *bfile = xq_test_slurp(cmd);
      cr_assert_not_null(bfile);
      cr_expect(strlen(ffile) > 0, "%s: the redirected file is empty", lines[i]);
      cr_expect_str_eq(ffile, bfile, "%s: the redirected files differ", lines[i]);
      free(bfile);
      free(ffile);
    }
    free(forked);
    free(bin);
  }
  /* the shell's own lines are not parsed here */
  char *out = NULL;
  int st;
  const char *shell_lines[] = {"presets | head -1", "perft --depth $HOME", "perft --depth 1; true", "perft *",
                               "perft \"--depth\\ 1\""};
  for (size_t i = 0; i < sizeof shell_lines / sizeof *shell_lines; i++)
    cr_expect_eq(xq_test_cli_run(shell_lines[i], &out, &st), 0, "forked: %s", shell_lines[i]);
  snprintf(lines[0], sizeof lines[0], "rm -rf %s", dir);
  cr_expect_eq(system(lines[0]), 0);
}

/* `convert` keeps a PGN's clock comments, to PGN and through DhtmlXQ
 * (docs/records.md, "Clocks"). */
Test(cli, convert_keeps_clock_comments)
{
  char dir[256], a[300], b[300], c[300], d[300], args[1024];
  new_dir(dir, sizeof dir);
  snprintf(a, sizeof a, "%s/a.pgn", dir);
  snprintf(b, sizeof b, "%s/b.pgn", dir);
  snprintf(c, sizeof c, "%s/c.txt", dir);
  snprintf(d, sizeof d, "%s/d.pgn", dir);
  FILE *f = fopen(a, "wb");
  cr_assert_not_null(f);
  fputs("[Game \"Chinese Chess\"]\n\n1. h2e2 {[%clk 1:29:51]} h9g7 {[%clk 1:29:47.5]}\n"
        "2. h0g2 {[%clk 1:29:30.25]} *\n", f);
  fclose(f);
  static const char *const want = "H2-E2 {[%clk 1:29:51]} 1... H9-G7 {[%clk 1:29:47.5]}\n"
                                  "  2. H0-G2 {[%clk 1:29:30.25]}";
  const char *runs[3][2] = {{a, b}, {a, c}, {c, d}};
  for (int i = 0; i < 3; i++) {
    int st;
    snprintf(args, sizeof args, "convert '%s' '%s' --notation iccs", runs[i][0], runs[i][1]);
    char *out = xq_test_run(args, &st);
    cr_assert_eq(st, 0, "xqref %s: exit %d\n%s", args, st, out);
    free(out);
  }
  size_t n;
  char *text = bytes_of(b, &n);
  cr_assert(text && strstr(text, want), "PGN to PGN:\n%s", text);
  free(text);
  text = bytes_of(c, &n);
  cr_assert(text && strstr(text, "[DhtmlXQ_comment2]［%clk 1:29:47.5］[/DhtmlXQ_comment2]"), "DhtmlXQ:\n%s", text);
  free(text);
  text = bytes_of(d, &n);
  cr_assert(text && strstr(text, want), "DhtmlXQ to PGN:\n%s", text);
  free(text);
}
