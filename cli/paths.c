/*
 * paths.c -- no command overwrites what it reads: the check of a
 * command's outputs against its inputs and its store, and output files
 * written whole through a temporary file renamed into place (paths.h).
 */
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "paths.h"

/* The files of a store besides the store itself (SQLite's and the
 * server's), "" the store. */
static const char *const store_files[] = {"", "-wal", "-shm", "-journal", ".admin"};
#define NSTORE_FILES (int)(sizeof store_files / sizeof store_files[0])

/* What one name is: the file it reaches and its real name. */
typedef struct ident {
  int exists;  /* dev and ino are known */
  dev_t dev;
  ino_t ino;
  char *name;  /* the real name (links followed; of the folder when the file is missing); NULL: none */
} ident;

/* The file a write to `path` reaches (malloc'd; NULL when out of
 * memory): `path` itself, or for a symbolic link to nothing (which a
 * write follows, making its target) the name at the end of its chain,
 * relative targets taken from the link's folder. */
static char *link_end(const char *path)
{
  char *cur = strdup(path);
  for (int hop = 0; cur && hop < XQ_CLI_LINK_HOPS; hop++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break;
    char target[PATH_MAX];
    ssize_t n = readlink(cur, target, sizeof target - 1);
    if (n <= 0) break;
    target[n] = '\0';
    char *next;
    if (target[0] == '/') {
      next = strdup(target);
    } else {
      char *d = strdup(cur);
      size_t len = strlen(cur) + (size_t)n + 2;
      next = d ? malloc(len) : NULL;
      if (next) snprintf(next, len, "%s/%s", dirname(d), target);
      free(d);
    }
    free(cur);
    cur = next;
  }
  return cur;
}

/* The real name of `path`: realpath() when it exists, else its folder's
 * real name and its last component (a dangling link's: of the file it
 * would make). NULL when out of memory. */
static char *real_name(const char *path)
{
  char *r = realpath(path, NULL);
  if (r) return r;
  char *end = link_end(path);
  if (!end) return NULL;
  if (strcmp(end, path) && (r = realpath(end, NULL))) {
    free(end);
    return r;
  }
  path = end;
  char *d = strdup(path), *b = strdup(path);
  char *out = NULL;
  if (d && b) {
    char *dir = realpath(dirname(d), NULL);
    const char *base = basename(b);
    size_t n = (dir ? strlen(dir) : strlen(path)) + strlen(base) + 2;
    if ((out = malloc(n))) {
      if (dir) snprintf(out, n, "%s/%s", dir, base);
      else snprintf(out, n, "%s", path);
    }
    free(dir);
  }
  free(d);
  free(b);
  free(end);
  return out;
}

/* The ident of `path` + `suffix`; "-" is standard input (`out` 0) or
 * output (`out` 1), known only when it is a regular file. */
static void ident_of(const char *path, const char *suffix, int out, ident *id)
{
  struct stat st;
  memset(id, 0, sizeof *id);
  if (!strcmp(path, "-")) {
    if (fstat(out ? STDOUT_FILENO : STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
      id->exists = 1;
      id->dev = st.st_dev;
      id->ino = st.st_ino;
    }
    return;
  }
  size_t n = strlen(path) + strlen(suffix) + 1;
  char *p = malloc(n);
  if (!p) return;
  snprintf(p, n, "%s%s", path, suffix);
  if (stat(p, &st) == 0) {
    id->exists = 1;
    id->dev = st.st_dev;
    id->ino = st.st_ino;
  }
  id->name = real_name(p);
  free(p);
}

/* Whether a and b are one file: by device and inode when both exist,
 * else by their real names. */
static int same(const ident *a, const ident *b)
{
  if (a->exists && b->exists) return a->dev == b->dev && a->ino == b->ino;
  return a->name && b->name && !strcmp(a->name, b->name);
}

/* Whether `out` and `p` are one file: any file of each (a store's side
 * files among its own) against any of the other; *ko and *kp get which
 * (indices of store_files[]). */
static int clash(const xq__path *out, const xq__path *p, int *ko, int *kp)
{
  int hit = 0;
  for (*ko = 0; !hit && *ko < (out->store ? NSTORE_FILES : 1); (*ko)++) {
    ident a;
    ident_of(out->path, store_files[*ko], 1, &a);
    for (*kp = 0; !hit && *kp < (p->store ? NSTORE_FILES : 1); (*kp)++) {
      ident b;
      ident_of(p->path, store_files[*kp], 0, &b);
      hit = same(&a, &b);
      free(b.name);
    }
    free(a.name);
  }
  (*ko)--;
  (*kp)--;
  return hit;
}

/* Name one file of a clash: "--out e.db", "the -wal file of the store
 * e.db", "OUT - (standard output)". */
static void name_file(char *buf, size_t len, const xq__path *p, int k, int out)
{
  if (k > 0) snprintf(buf, len, "the %s file of %s %s", store_files[k], p->what, p->path);
  else if (!strcmp(p->path, "-")) snprintf(buf, len, "%s - (standard %s)", p->what, out ? "output" : "input");
  else snprintf(buf, len, "%s %s", p->what, p->path);
}

static int refuse(const char *cmd, const xq__path *out, int ko, const xq__path *p, int kp, int p_out)
{
  char a[XQ_CLI_PATH_TEXT], b[XQ_CLI_PATH_TEXT];
  name_file(a, sizeof a, out, ko, 1);
  name_file(b, sizeof b, p, kp, p_out);
  fprintf(stderr, "xqref %s: %s is %s (one file): refused, no command overwrites what it reads\n", cmd, a, b);
  return 1;
}

int xq__paths_check(const char *cmd, const xq__path *outs, int nouts, const xq__path *ins, int nins)
{
  int ko, kp;
  for (int i = 0; i < nouts; i++) {
    if (!outs[i].path) continue;
    for (int j = 0; j < nins; j++)
      if (ins[j].path && clash(&outs[i], &ins[j], &ko, &kp)) return refuse(cmd, &outs[i], ko, &ins[j], kp, 0);
    for (int j = i + 1; j < nouts; j++)
      if (outs[j].path && clash(&outs[j], &outs[i], &ko, &kp)) return refuse(cmd, &outs[i], kp, &outs[j], ko, 1);
  }
  return 0;
}

/* ---- output files written whole ------------------------------------ */

int xq__paths_open(const char *cmd, const char *path, xq__paths_out *w)
{
  memset(w, 0, sizeof *w);
  w->cmd = cmd;
  w->path = path;
  if (!strcmp(path, "-")) {
    w->f = stdout;
    return 0;
  }
  struct stat st, lst;
  int exists = stat(path, &st) == 0;
  int dangling = !exists && lstat(path, &lst) == 0; /* a link to nothing: made through it */
  if ((exists && !S_ISREG(st.st_mode)) || dangling) {
    if (!(w->f = fopen(path, "wb"))) goto fail;
    return 0;
  }
  mode_t mask = umask(0);
  umask(mask);
  mode_t mode = exists ? st.st_mode & 07777 : 0666 & ~mask;
  w->dest = exists ? realpath(path, NULL) : strdup(path);
  char *d = w->dest ? strdup(w->dest) : NULL, *b = w->dest ? strdup(w->dest) : NULL;
  size_t n = w->dest ? strlen(w->dest) + 16 : 0;
  if (d && b && (w->tmp = malloc(n))) snprintf(w->tmp, n, "%s/.%s.XXXXXX", dirname(d), basename(b));
  free(d);
  free(b);
  if (!w->tmp) {
    errno = ENOMEM;
    goto fail;
  }
  int fd = mkstemp(w->tmp);
  if (fd < 0) {
    free(w->tmp);
    w->tmp = NULL;
    goto fail;
  }
  if (fchmod(fd, mode) != 0 || !(w->f = fdopen(fd, "wb"))) {
    int e = errno;
    close(fd);
    unlink(w->tmp);
    errno = e;
    goto fail;
  }
  return 0;
fail:
  fprintf(stderr, "xqref %s: cannot create %s: %s\n", cmd, path, strerror(errno));
  free(w->tmp);
  free(w->dest);
  w->tmp = w->dest = NULL;
  w->f = NULL;
  return 1;
}

int xq__paths_close(xq__paths_out *w, int ok)
{
  if (!w->f) return 0;
  int bad = 0, e = 0;
  if (w->f == stdout) {
    bad = fflush(stdout) != 0;
    e = errno;
  } else {
    /* the temporary file is synced before it replaces the old one (a
     * device or FIFO written in place is not) */
    if (ok && (fflush(w->f) != 0 || ferror(w->f) || (w->tmp && fsync(fileno(w->f)) != 0))) bad = 1, e = errno;
    if (fclose(w->f) != 0 && !bad) bad = 1, e = errno;
    if (w->tmp) {
      if (ok && !bad && rename(w->tmp, w->dest) != 0) bad = 1, e = errno;
      if (!ok || bad) unlink(w->tmp);
    }
  }
  int kept = w->tmp != NULL;
  w->f = NULL;
  free(w->tmp);
  free(w->dest);
  w->tmp = w->dest = NULL;
  if (!ok || !bad) return 0;
  fprintf(stderr, "xqref %s: cannot write %s: %s%s\n", w->cmd, w->path, strerror(e),
          kept ? " (the file, if it was there, is as it was)" : "");
  return 1;
}
