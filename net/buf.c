/*
 * buf.c -- reference-counted output buffers: one encoding of a reply or a
 * broadcast, shared by every connection that sends it, on the loop and on
 * the fan-out thread (the count is atomic).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"

xq__buf *xq__buf_new(size_t len)
{
  xq__buf *b = malloc(sizeof *b + len + 1);
  if (!b) return NULL;
  atomic_init(&b->refs, 1);
  b->len = len;
  b->data[len] = 0;
  return b;
}

xq__buf *xq__buf_copy(const char *data, size_t len)
{
  xq__buf *b = xq__buf_new(len);
  if (b) memcpy(b->data, data, len);
  return b;
}

/* The references are atomic: the fan-out thread shares the broadcast's
 * buffers with the loop (fanout.c). */
void xq__buf_ref(xq__buf *b) { atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed); }

void xq__buf_unref(xq__buf *b)
{
  if (b && atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) == 1) free(b);
}
