/*
 * samples.c -- latency samples and their percentiles (samples.h).
 */
#include <stdlib.h>

#include "clientlimits.h"
#include "engine.h"
#include "samples.h"

void xq__samples_add(xq__samples *s, uint64_t ns)
{
  if (s->n == s->cap) {
    if (s->cap >= XQ_LOADGEN_SAMPLES_MAX) {
      s->dropped++;
      return;
    }
    long cap = s->cap ? s->cap * 2 : 65536;
    uint64_t *p = realloc(s->v, (size_t)cap * sizeof *p);
    if (!p) {
      s->dropped++;
      return;
    }
    s->v = p;
    s->cap = cap;
  }
  s->v[s->n++] = ns;
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static double percentile_ms(const uint64_t *v, long n, double q)
{
  if (n == 0) return 0;
  double at = q * (double)n + 0.999999999; /* the nearest rank, 1..n ... */
  long long rank;
  if (!xq_whole_part(at, 1, (double)n, &rank)) rank = at > (double)n ? n : 1; /* ... q outside 0..1 */
  long k = (long)rank - 1;
  return (double)v[k] / 1e6;
}

void xq__samples_print(xq__samples *s, FILE *out, const char *label)
{
  if (s->n) qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_u64);
  fprintf(out, "%s p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f\n", label, percentile_ms(s->v, s->n, 0.50),
          percentile_ms(s->v, s->n, 0.90), percentile_ms(s->v, s->n, 0.99), percentile_ms(s->v, s->n, 0.999),
          s->n ? (double)s->v[s->n - 1] / 1e6 : 0.0);
  if (s->dropped) fprintf(out, "%s: samples beyond %ld not kept: %ld\n", label, (long)XQ_LOADGEN_SAMPLES_MAX, s->dropped);
}

void xq__samples_free(xq__samples *s)
{
  free(s->v);
  *s = (xq__samples){0};
}
