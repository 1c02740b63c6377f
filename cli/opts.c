/*
 * opts.c -- the one command-line parser of the subcommands and the help
 * it prints, both from a command's option table (opts.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

int xq__opts_number(const char *s, long long lo, long long hi, long long *out)
{
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

/* Whether the action being parsed takes row `o`. */
static int applies(const xq__cmd *c, const xq__opt *o)
{
  return !o->only || (o->only & c->mask);
}

/* Whether the word `a` is an option (else an argument). */
static int is_option(const xq__cmd *c, const char *a)
{
  if (a[0] != '-' || !a[1]) return 0;
  if (!c->dash_words) return 1;
  return isalpha((unsigned char)a[1]) || (a[1] == '-' && isalpha((unsigned char)a[2]));
}

/* ------------------------------------------------------------------ */
/* Help                                                                */
/* ------------------------------------------------------------------ */

/* Print `text` on `out`, each line after the first indented by `indent`. */
static void put_indented(const char *text, int indent, FILE *out)
{
  for (const char *p = text; *p; p++) {
    fputc(*p, out);
    if (*p == '\n' && p[1]) fprintf(out, "%*s", indent, "");
  }
}

/* The row's left column, "-v, --verbose N", into buf. Returns its width
 * in columns (the value names are ASCII). */
static int left_column(const xq__opt *o, char *buf, size_t len)
{
  char alias[8] = "";
  if (o->alias) snprintf(alias, sizeof alias, "-%c, ", o->alias);
  const char *v = o->value ? o->value : "";
  int opt = (o->flags & XQ__OPT_OPTIONAL) != 0;
  int n = snprintf(buf, len, "%s%s%s%s%s%s", alias, o->name, *v ? " " : "", opt ? "[" : "", v, opt ? "]" : "");
  return n < (int)len ? n : (int)len - 1;
}

/* One row of the option list, its help from column `col`. */
static void help_row(const xq__opt *o, int col, FILE *out)
{
  char left[96];
  int w = left_column(o, left, sizeof left);
  fprintf(out, "  %s", left);
  if (2 + w + 2 > col) fprintf(out, "\n%*s", col, "");
  else fprintf(out, "%*s", col - 2 - w, "");
  put_indented(o->help ? o->help : "", col, out);
  fputc('\n', out);
}

/* Usage lines wrapped at XQ_CLI_USAGE_WIDTH: the column reached. */
static int put_word(const char *w, int at, int indent, FILE *out)
{
  int n = (int)strlen(w), first = at == indent;
  if (!first && at + 1 + n > XQ_CLI_USAGE_WIDTH) {
    fprintf(out, "\n%*s%s", indent, "", w);
    return indent + n;
  }
  fprintf(out, "%s%s", first ? "" : " ", w);
  return at + !first + n;
}

void xq__opts_synopsis(const xq__cmd *c, int at, int indent, FILE *out)
{
  if (c->synopsis) {
    if (at != indent) fputc(' ', out);
    put_indented(c->synopsis, 0, out);
    fputc('\n', out);
    return;
  }
  char w[160];
  for (int i = 0; i < c->nopts; i++) {
    const xq__opt *o = &c->opts[i];
    if (!applies(c, o)) continue;
    int req = (o->flags & XQ__OPT_REQUIRED) != 0, opt = (o->flags & XQ__OPT_OPTIONAL) != 0;
    snprintf(w, sizeof w, "%s%s%s%s%s%s%s%s", req ? "" : "[", o->name, o->value ? " " : "", opt ? "[" : "",
             o->value ? o->value : "", opt ? "]" : "", req ? "" : "]", o->flags & XQ__OPT_REPEAT ? "..." : "");
    at = put_word(w, at, indent, out);
  }
  if (c->args) put_word(c->args, at, indent, out);
  fputc('\n', out);
}

/* "usage: xqref NAME ...", the usage lines of `c`. */
static void usage(const xq__cmd *c, FILE *out)
{
  int n = fprintf(out, "usage: xqref %s", c->name);
  xq__opts_synopsis(c, n, n + 1, out);
}

/* A paragraph of the help, after a blank line, ending its last line. */
static void put_text(const char *text, FILE *out)
{
  if (!text) return;
  fprintf(out, "\n%s", text);
  if (*text && text[strlen(text) - 1] != '\n') fputc('\n', out);
}

static const xq__opt help_opt = {.name = "--help", .alias = 'h', .kind = XQ__OPT_FLAG, .help = "this help"};

/* The column where the help of the rows of `c` starts. */
static int help_column(const xq__cmd *c)
{
  char left[96];
  int width = left_column(&help_opt, left, sizeof left);
  for (int i = 0; i < c->nopts; i++) {
    int w = left_column(&c->opts[i], left, sizeof left);
    if (applies(c, &c->opts[i]) && w > width && w <= XQ_CLI_HELP_LEFT_MAX) width = w;
  }
  return 2 + width + 2;
}

void xq__opts_help(const xq__cmd *c, FILE *out)
{
  int col = help_column(c);
  usage(c, out);
  for (const xq__cmd *const *v = c->variants; v && *v; v++) {
    int n = fprintf(out, "       xqref %s", (*v)->name);
    xq__opts_synopsis(*v, n, n + 1, out);
  }
  put_text(c->about, out);
  fputs("\noptions:\n", out);
  for (int i = 0; i < c->nopts; i++)
    if (applies(c, &c->opts[i])) help_row(&c->opts[i], col, out);
  help_row(&help_opt, col, out);
  for (const xq__cmd *const *v = c->variants; v && *v; v++) {
    put_text((*v)->about, out);
    int vcol = help_column(*v);
    for (int i = 0; i < (*v)->nopts; i++)
      if (applies(*v, &(*v)->opts[i])) help_row(&(*v)->opts[i], vcol, out);
  }
  put_text(c->after, out);
}

int xq__opts_error(const xq__cmd *c, const char *fmt, ...)
{
  va_list ap;
  fprintf(stderr, "xqref %s: ", c->name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  usage(c, stderr);
  return 2;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */
/* ------------------------------------------------------------------ */

/* "--x applies only to a, b and c": the actions whose bits are in `only`. */
static int not_here(const xq__cmd *c, const char *name, uint64_t only)
{
  char list[256] = "";
  size_t len = 0;
  int n = 0, total = 0;
  for (uint64_t b = only; b; b &= b - 1) total++;
  for (int k = 0; k < 64 && c->actions; k++) {
    if (!(only & ((uint64_t)1 << k))) continue;
    n++;
    len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0, "%s%s",
                            n == 1 ? "" : n == total ? " and " : ", ", c->actions[k]);
    if (len >= sizeof list) break;
  }
  return xq__opts_error(c, "%s applies only to %s", name, list);
}

/* The index of the row of `a` that the action takes; -1 when no row has
 * that name, -2 - k when only rows of other actions do (k: the first). */
static int find(const xq__cmd *c, const char *a, uint64_t *others)
{
  int other = -1;
  *others = 0;
  for (int i = 0; i < c->nopts; i++) {
    const xq__opt *o = &c->opts[i];
    int alias = o->alias && a[0] == '-' && a[1] == o->alias && !a[2];
    if (strcmp(a, o->name) && !alias) continue;
    if (applies(c, o)) return i;
    *others |= o->only;
    if (other < 0) other = i;
  }
  return other < 0 ? -1 : -2 - other;
}

/* "(pgn or dhtmlxq)": the words of an ENUM row, into buf. */
static const char *words_list(const char *words, char *buf, size_t len)
{
  size_t n = 0, k = 0, count = 1;
  for (const char *p = words; *p; p++) count += *p == '|';
  for (const char *p = words; *p && n + 6 < len; p++) {
    if (*p != '|') {
      buf[n++] = *p;
      continue;
    }
    k++;
    const char *sep = k + 1 == count ? " or " : ", ";
    memcpy(buf + n, sep, strlen(sep));
    n += strlen(sep);
  }
  buf[n] = '\0';
  return buf;
}

/* The index of `v` among the '|'-separated `words`, or -1. */
static int word_index(const char *words, const char *v)
{
  size_t n = strlen(v);
  int k = 0;
  for (const char *p = words;; k++) {
    size_t len = strcspn(p, "|");
    if (len == n && !strncmp(p, v, n)) return k;
    if (!p[len]) return -1;
    p += len + 1;
  }
}

/* Read the number `v` of an INT, LONG, U64 or DOUBLE row into `dst`.
 * Returns 0, or 2 after the message. */
static int store_number(const xq__cmd *c, const xq__opt *o, const char *v, char *dst)
{
  long long x = o->dflt;
  char *end;
  if (o->kind == XQ__OPT_DOUBLE) {
    errno = 0;
    double d = strtod(v, &end);
    if (!*v || *end || errno || !(d > (double)o->lo && d <= (double)o->hi) || isnan(d))
      return xq__opts_error(c, "bad number for %s: %s (above %lld, at most %lld)", o->name, v, o->lo, o->hi);
    *(double *)dst = d;
    return 0;
  }
  if (o->kind == XQ__OPT_U64) {
    errno = 0;
    unsigned long long u = strtoull(v, &end, 10);
    if (!isdigit((unsigned char)v[0]) || *end || errno)
      return xq__opts_error(c, "bad number for %s: %s (a whole number, 0 or more)", o->name, v);
    *(uint64_t *)dst = u;
    return 0;
  }
  if (v && !xq__opts_number(v, o->lo, o->hi, &x))
    return xq__opts_error(c, "bad number for %s: %s (%lld..%lld)", o->name, v, o->lo, o->hi);
  if (o->kind == XQ__OPT_INT) *(int *)dst = (int)x;
  else *(long *)dst = (long)x;
  return 0;
}

/* Keep the value `v` (NULL: none given) of row `o` in `opts`. Returns 0,
 * or 2 after the message. */
static int store(const xq__cmd *c, const xq__opt *o, const char *v, void *opts)
{
  char *dst = (char *)opts + o->at, buf[160];
  switch (o->kind) {
  case XQ__OPT_FLAG:
    *(int *)dst = (int)o->lo;
    return 0;
  case XQ__OPT_STRING:
    *(const char **)dst = v;
    return 0;
  case XQ__OPT_ENUM: {
    int k = word_index(o->value, v);
    if (k < 0) return xq__opts_error(c, "bad value for %s: %s (%s)", o->name, v, words_list(o->value, buf, sizeof buf));
    *(int *)dst = o->map ? o->map[k] : k;
    return 0;
  }
  case XQ__OPT_CALL: {
    xq_error err = {0};
    if (o->call(opts, v, &err) == XQ_OK) return 0;
    return xq__opts_error(c, "%s: %s", o->name, err.msg);
  }
  default:
    return store_number(c, o, v, dst);
  }
}

/* Whether the word `a` names an option of the command (any action's) or
 * the help: a value that reads so is a value left out. */
static int names_option(const xq__cmd *c, const char *a)
{
  uint64_t others;
  if (strncmp(a, "--", 2) || !a[2]) return 0;
  return !strcmp(a, "--help") || find(c, a, &others) != -1;
}

/* The value of row `o` at argv[*i] (advanced past it), or `inline_v`
 * when the word was "--name=VALUE": *v, NULL for a flag or an optional
 * value left out. A value left out is told as such, also when the next
 * word is another option. Returns 0, or 2 after the message. */
static int take_value(const xq__cmd *c, const xq__opt *o, const char *inline_v, int argc, char **argv, int *i,
                      const char **v)
{
  *v = NULL;
  if (o->kind == XQ__OPT_FLAG) {
    if (inline_v) return xq__opts_error(c, "%s takes no value (given '%s')", o->name, inline_v);
    return 0;
  }
  if (inline_v) {
    if (!*inline_v && !(o->flags & XQ__OPT_OPTIONAL))
      return xq__opts_error(c, "missing value for %s", o->name);
    *v = *inline_v ? inline_v : NULL;
    return 0;
  }
  if (o->flags & XQ__OPT_OPTIONAL) {
    if (*i + 1 < argc && isdigit((unsigned char)argv[*i + 1][0])) *v = argv[++*i];
    return 0;
  }
  if (*i + 1 >= argc || names_option(c, argv[*i + 1]))
    return xq__opts_error(c, "missing value for %s", o->name);
  *v = argv[++*i];
  return 0;
}

/* The required rows of the action that were not given: 2 after the
 * message about the first, else 0. */
static int check_required(const xq__cmd *c, const unsigned char *given)
{
  for (int i = 0; i < c->nopts; i++) {
    const xq__opt *o = &c->opts[i];
    if (!(o->flags & XQ__OPT_REQUIRED) || !applies(c, o) || given[i]) continue;
    return xq__opts_error(c, "%s%s%s is required", o->name, o->value ? " " : "", o->value ? o->value : "");
  }
  return 0;
}

int xq__opts_parse(const xq__cmd *c, int argc, char **argv, void *opts, const char **args, int *nargs)
{
  unsigned char given[XQ_CLI_OPT_ROWS] = {0};
  int n = 0;
  if (nargs) *nargs = 0;
  if (c->nopts > XQ_CLI_OPT_ROWS) return xq__opts_error(c, "more than %d option rows", XQ_CLI_OPT_ROWS);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (!is_option(c, a)) {
      if (n >= c->args_max) return xq__opts_error(c, "unexpected argument '%s'", a);
      args[n++] = a;
      if (nargs) *nargs = n;
      continue;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      xq__opts_help(c, stdout);
      return 0;
    }
    /* "--name=VALUE" is "--name VALUE" */
    char name[64];
    const char *eq = a[1] == '-' ? strchr(a, '=') : NULL, *inline_v = NULL;
    if (eq && (size_t)(eq - a) < sizeof name) {
      memcpy(name, a, (size_t)(eq - a));
      name[eq - a] = '\0';
      a = name;
      inline_v = eq + 1;
    }
    uint64_t others;
    int k = find(c, a, &others);
    if (k == -1) return xq__opts_error(c, "unknown option '%s'", a);
    if (k < -1) return not_here(c, c->opts[-2 - k].name, others);
    if (take_value(c, &c->opts[k], inline_v, argc, argv, &i, &v) || store(c, &c->opts[k], v, opts)) return 2;
    given[k] = 1;
  }
  return check_required(c, given) ? 2 : -1;
}
