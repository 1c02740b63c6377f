/*
 * answers.c -- answers kept until what they show changes (answers.h). A
 * small table, searched whole (XQ_HTTP_ANSWERS entries): an answer is
 * true while the tournament's version and its round's are those it was
 * made at; a change bumps them (xq__answers_changed, xq__live_changed)
 * and the next read makes it again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "internal.h"
#include "netlimits.h"

struct xq__answers {
  xq__answer a[XQ_HTTP_ANSWERS];
  size_t bytes;                /* text kept in all */
  uint64_t tick;
};

static uint64_t round_version(const xq__server *s, int round)
{
  return round >= 1 && round <= XQ_ROUNDS_LIVE_MAX ? s->round_version[round] : 0;
}

static int same_key(const xq__answer_key *a, const xq__answer_key *b)
{
  return a->kind == b->kind && a->pub == b->pub && a->round == b->round && a->table == b->table && !strcmp(a->arg, b->arg);
}

const xq__answer *xq__answers_get(xq__server *s, const xq__answer_key *k)
{
  struct xq__answers *t = s->answers;
  for (int i = 0; t && i < XQ_HTTP_ANSWERS; i++) {
    xq__answer *a = &t->a[i];
    if (!a->text || !same_key(&a->key, k)) continue;
    if (a->tv != s->tournament_version || a->rv != round_version(s, k->round)) return NULL;
    a->used = ++t->tick;
    return a;
  }
  return NULL;
}

static void drop(struct xq__answers *t, xq__answer *a)
{
  t->bytes -= a->len;
  free(a->text);
  memset(a, 0, sizeof *a);
}

/* The entry for `k`: its old one, an empty one, or the least recently
 * used (emptied). */
static xq__answer *slot_for(struct xq__answers *t, const xq__answer_key *k)
{
  xq__answer *empty = NULL, *old = NULL;
  for (int i = 0; i < XQ_HTTP_ANSWERS; i++) {
    xq__answer *a = &t->a[i];
    if (a->text && same_key(&a->key, k)) return a;
    if (!a->text && !empty) empty = a;
    if (a->text && (!old || a->used < old->used)) old = a;
  }
  return empty ? empty : old;
}

const xq__answer *xq__answers_put(xq__server *s, const xq__answer_key *k, const char *ctype,
                                  const char *text, size_t len)
{
  if (len > XQ_HTTP_ANSWER_MAX) return NULL;
  struct xq__answers *t = s->answers;
  if (!t && !(t = s->answers = calloc(1, sizeof *t))) return NULL;
  xq__answer *a = slot_for(t, k);
  if (a->text) drop(t, a);
  /* room for it: the least recently used go first */
  while (t->bytes + len > XQ_HTTP_ANSWERS_BYTES) {
    xq__answer *old = NULL;
    for (int i = 0; i < XQ_HTTP_ANSWERS; i++)
      if (t->a[i].text && (!old || t->a[i].used < old->used)) old = &t->a[i];
    if (!old) break;
    drop(t, old);
  }
  char *copy = malloc(len + 1);
  if (!copy) return NULL;
  memcpy(copy, text, len);
  copy[len] = 0;
  a->key = *k;
  a->tv = s->tournament_version;
  a->rv = round_version(s, k->round);
  a->ctype = ctype;
  a->text = copy;
  a->len = len;
  a->used = ++t->tick;
  t->bytes += len;
  uint64_t h = 1469598103934665603ull; /* FNV-1a, as every other entity tag */
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
  snprintf(a->tag, sizeof a->tag, "\"%016llx\"", (unsigned long long)h);
  return a;
}

void xq__answers_changed(xq__server *s) { s->tournament_version++; }

void xq__answers_free(xq__server *s)
{
  struct xq__answers *t = s->answers;
  for (int i = 0; t && i < XQ_HTTP_ANSWERS; i++) free(t->a[i].text);
  free(t);
  s->answers = NULL;
}
