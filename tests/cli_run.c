/*
 * cli_run.c -- the command line run in a forked child of the test
 * process (support.h: xq_test_cli_run), for the suites that link xq_cli.
 *
 * xq_test_run's command is a line for /bin/sh. When it is made only of
 * words (bare, '...' or "..." without $, ` or \) and the redirections
 * N>FILE, N>>FILE, N<FILE and N>&M, the child runs xq_cli_main with those
 * words as argv (when no thread but Criterion's is running: threads()),
 * the same code as the binary's main, without a shell, an
 * exec and the sanitizers' start in a new process (about 35 ms a run
 * under ASan, 12 ms in a Release tree). Anything else is left to the
 * shell and the binary. XQ_TEST_CLI_EXEC=1 in the environment sends every
 * line there.
 *
 * The child ends with its output flushed and _exit: AddressSanitizer and
 * UBSan report in it as in the binary, but LeakSanitizer does not check
 * it. Its check cannot stop Criterion's thread, which the child's
 * registry still lists, and so reports false leaks; and it costs 45 ms a
 * run, most of a run's time. The leaks of the command line's runs are
 * checked where the binary runs: test_tourney_refuse, every refusal of
 * the tourney commands, runs the binary in the sanitizer tree
 * (tests/CMakeLists.txt), and scripts/cli-leaks.sh runs every suite so.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"


#define XQ_TEST_ARGS_MAX 128 /* words of one command line */
#define XQ_TEST_REDIRS_MAX 8 /* redirections of one command line */
#define XQ_TEST_FORK_THREADS 2 /* the test's and Criterion's message poller (idle in epoll_wait while a test passes) */

int xq_cli_main(int argc, char **argv); /* cli/cli.h: the whole command line */

typedef struct redir {
  int fd;          /* the descriptor redirected */
  int to;          /* N>&M: M; else -1 */
  int flags;       /* open(2) flags of the file */
  const char *path; /* the file, in the line's copy */
} redir;

typedef struct line {
  char *argv[XQ_TEST_ARGS_MAX + 1];
  int argc;
  redir r[XQ_TEST_REDIRS_MAX];
  int nr;
} line;

/* Read one word of `s` (bare or quoted parts, joined) into `out`, which
 * has room; returns the character after it, or NULL when the word needs
 * the shell. */
static const char *word(const char *s, char *out)
{
  while (*s && *s != ' ' && *s != '\t') {
    if (*s == '\'') {
      const char *e = strchr(s + 1, '\'');
      if (!e) return NULL;
      memcpy(out, s + 1, (size_t)(e - s - 1));
      out += e - s - 1;
      s = e + 1;
    } else if (*s == '"') {
      const char *e = s + 1 + strcspn(s + 1, "\"$`\\");
      if (*e != '"') return NULL;
      memcpy(out, s + 1, (size_t)(e - s - 1));
      out += e - s - 1;
      s = e + 1;
    } else if (strchr("|&;<>()$`\\*?[]{}~#!", *s)) {
      return NULL;
    } else {
      *out++ = *s++;
    }
  }
  *out = '\0';
  return s;
}

/* A redirection at `s` (N>, N>>, N<, N>&M, the N optional): fill `r` and
 * return the character after the operator (its file follows, for all but
 * N>&M); NULL when `s` starts none. */
static const char *redirection(const char *s, redir *r)
{
  int fd = -1;
  if (*s >= '0' && *s <= '9' && (s[1] == '>' || s[1] == '<')) fd = *s++ - '0';
  if (*s == '<') {
    *r = (redir){fd < 0 ? 0 : fd, -1, O_RDONLY, NULL};
    return s + 1;
  }
  if (*s != '>') return NULL;
  *r = (redir){fd < 0 ? 1 : fd, -1, O_WRONLY | O_CREAT | O_TRUNC, NULL};
  if (s[1] == '>') {
    r->flags = O_WRONLY | O_CREAT | O_APPEND;
    return s + 2;
  }
  if (s[1] == '&' && s[2] >= '0' && s[2] <= '9' && (s[3] == '\0' || s[3] == ' ')) {
    r->to = s[2] - '0';
    return s + 3;
  }
  return s + 1;
}

/* Split `text` into `l`, words and redirections written into `buf` (as
 * long as text, plus one); 0, or -1 when the line needs the shell. */
static int split(const char *text, char *buf, line *l)
{
  const char *s = text;
  l->argc = 1; /* argv[0], the binary's name, is the caller's */
  l->nr = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) break;
    redir r;
    const char *after = redirection(s, &r);
    if (after) {
      if (l->nr == XQ_TEST_REDIRS_MAX) return -1;
      s = after;
      if (r.to < 0) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || !(s = word(s, buf)) || !*buf) return -1;
        r.path = buf;
        buf += strlen(buf) + 1;
      }
      l->r[l->nr++] = r;
      continue;
    }
    if (l->argc == XQ_TEST_ARGS_MAX || !(s = word(s, buf))) return -1;
    l->argv[l->argc++] = buf;
    buf += strlen(buf) + 1;
  }
  l->argv[l->argc] = NULL;
  return 0;
}

/* The number of threads of this process. A fork copies only the calling
 * one, and a lock another held would never be let go in the child: the
 * child runs only while no thread but Criterion's message poller is
 * there, which sleeps in epoll_wait while a test passes (a passing
 * assertion sends nothing), and glibc's malloc is made safe across fork.
 * A suite that runs its own threads (a server, libuv's pool) gets the
 * binary. */
static int threads(void)
{
  DIR *d = opendir("/proc/self/task");
  int n = 0;
  if (!d) return -1;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

/* The child: standard output to `out`, the redirections of `l` in order,
 * then the command line; never returns. */
static void child(const line *l, int out)
{
  if (dup2(out, 1) < 0) _exit(127);
  close(out);
  for (int i = 0; i < l->nr; i++) {
    const redir *r = &l->r[i];
    int fd = r->to >= 0 ? r->to : open(r->path, r->flags, 0644);
    if (fd < 0 || dup2(fd, r->fd) < 0) {
      dprintf(2, "sh: cannot redirect to %s\n", r->path ? r->path : "a descriptor");
      _exit(2);
    }
    if (r->to < 0) close(fd);
  }
  char *argv[XQ_TEST_ARGS_MAX + 1];
  memcpy(argv, l->argv, sizeof argv);
  int rc = xq_cli_main(l->argc, argv);
  fflush(NULL);
  _exit(rc); /* no exit(): neither this process's atexit work nor a leak check (see the top) */
}

int xq_test_cli_run(const char *args, char **out, int *status)
{
  const char *cmd = args;
  size_t len = strlen(cmd);
  char *buf = malloc(2 * len + 2);
  line l;
  cr_assert_not_null(buf);
  const char *exec = getenv("XQ_TEST_CLI_EXEC");
  if ((exec && *exec && strcmp(exec, "0")) || split(cmd, buf, &l) < 0 || threads() > XQ_TEST_FORK_THREADS) {
    free(buf);
    return 0;
  }
  l.argv[0] = "xqref";
  int p[2];
  cr_assert_eq(pipe(p), 0);
  fflush(NULL); /* nothing of this process's buffers written twice */
  pid_t pid = fork();
  cr_assert_geq(pid, 0, "cannot fork for %s", cmd);
  if (pid == 0) {
    close(p[0]);
    child(&l, p[1]);
  }
  close(p[1]);
  free(buf);
  size_t n = 0;
  FILE *m = open_memstream(out, &n);
  cr_assert_not_null(m);
  char chunk[4096];
  ssize_t got;
  while ((got = read(p[0], chunk, sizeof chunk)) != 0) {
    if (got > 0) fwrite(chunk, 1, (size_t)got, m);
    else if (errno != EINTR) break;
  }
  fclose(m);
  close(p[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0) cr_assert_eq(errno, EINTR, "waitpid: %s", strerror(errno));
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return 1;
}
