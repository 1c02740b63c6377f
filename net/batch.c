/*
 * batch.c -- a POST /api/op batch of player writes applied all or none
 * (docs/protocol.md "Batches"). When every line of a batch is one of the
 * writes that run on the loop at once (add_player, edit_player, withdraw,
 * reinstate, absent), the batch waits until no group commit runs, then
 * runs inside one store transaction: if every line is answered ok it is
 * committed (and durable before any answer goes), else it is rolled back,
 * the event reloaded, and every line that had been ok answers
 * NOT_APPLIED, naming the line that failed. A crash mid-batch leaves none
 * of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "netlimits.h"
#include "proto.h"

static const char *const atomic_ops[] = {"add_player", "edit_player", "withdraw", "reinstate", "absent", NULL};

int xq__batch_atomic(const char *text, size_t len)
{
  int lines = 0;
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(text + i, '\n', len - i);
    size_t end = nl ? (size_t)(nl - text) : len;
    if (end > i && !(end == i + 1 && text[i] == '\r')) {
      /* a line of more values than a request holds is refused unparsed
       * when it is dispatched: not parsed here either */
      if (xq__proto_over_values(text + i, end - i, XQ_JSON_VALUES_MAX)) return 0;
      cJSON *j = cJSON_ParseWithLength(text + i, end - i);
      const char *op = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "op"));
      int ok = 0;
      for (int k = 0; op && atomic_ops[k] && !ok; k++) ok = !strcmp(op, atomic_ops[k]);
      cJSON_Delete(j);
      if (!ok) return 0;
      lines++;
    }
    i = end + 1;
  }
  return lines > 1;
}

/* Each reply line of out[0..len) in turn: its parsed JSON (NULL when it
 * does not parse) and its number from 1; fn returns the line to put in
 * its place (malloc'd), or NULL to keep it. The new text (malloc'd), or
 * NULL when out of memory. */
static char *each_line(const char *out, size_t len, size_t *nlen,
                       char *(*fn)(const cJSON *line, int no, void *arg), void *arg)
{
  size_t cap = len + 256, n = 0;
  char *res = malloc(cap);
  int no = 0;
  for (size_t i = 0; res && i < len;) {
    const char *nl = memchr(out + i, '\n', len - i);
    size_t end = nl ? (size_t)(nl - out) : len;
    cJSON *j = cJSON_ParseWithLength(out + i, end - i);
    char *repl = fn(j, ++no, arg);
    cJSON_Delete(j);
    const char *src = repl ? repl : out + i;
    size_t sl = repl ? strlen(repl) : end - i;
    if (n + sl + 1 > cap) {
      cap = (n + sl + 1) * 2;
      char *p = realloc(res, cap);
      if (!p) free(res);
      res = p;
    }
    if (res) memcpy(res + n, src, sl), n += sl, res[n++] = '\n';
    free(repl);
    i = end + 1;
  }
  *nlen = n;
  return res;
}

typedef struct why {
  const char *code;
  char msg[160];
  int all;                     /* every line (a failed commit), else the ok ones */
  int first_bad;               /* the first line that failed, 0 none */
} why;

static char *first_error(const cJSON *line, int no, void *arg)
{
  why *w = arg;
  if (!w->first_bad && (!line || cJSON_GetObjectItemCaseSensitive(line, "error"))) w->first_bad = no;
  return NULL;
}

static char *not_applied(const cJSON *line, int no, void *arg)
{
  (void)no;
  why *w = arg;
  if (!line || (!w->all && cJSON_GetObjectItemCaseSensitive(line, "error"))) return NULL;
  cJSON *o = cJSON_CreateObject();
  cJSON *id = cJSON_GetObjectItemCaseSensitive(line, "id");
  cJSON_AddItemToObject(o, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
  cJSON *e = cJSON_AddObjectToObject(o, "error");
  cJSON_AddStringToObject(e, "code", w->code);
  cJSON_AddStringToObject(e, "msg", w->msg);
  char *t = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return t;
}

char *xq__batch_settle(xq__server *s, const char *out, size_t len, size_t *nlen)
{
  why w = {.code = XQ__E_NOT_APPLIED};
  size_t ignored;
  free(each_line(out, len, &ignored, first_error, &w));
  xq_error err = {0};
  if (!w.first_bad) {
    if (xq_tstore_batch_commit(s->store, &err) == XQ_OK) {
      char *same = malloc(len + 1);
      if (same) memcpy(same, out, len), *nlen = len;
      return same;
    }
    w.code = XQ__E_STORE;
    w.all = 1;
    snprintf(w.msg, sizeof w.msg, "the batch could not be stored, none of it was: %.100s", err.msg);
  } else {
    xq_tstore_batch_rollback(s->store);
    snprintf(w.msg, sizeof w.msg, "not applied: the batch is applied all or none, and line %d failed", w.first_bad);
  }
  /* what the event showed of the batch is gone with it */
  if (xq__server_reload(s, &err) != XQ_OK) xq__log(s, "after a batch not applied: %s", err.msg);
  return each_line(out, len, nlen, not_applied, &w);
}
