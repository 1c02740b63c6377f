/*
 * samples.h -- latency samples of xqref loadgen (samples.c; not a public
 * interface): the boards' send-to-reply times and the viewers' delivery
 * times, kept up to XQ_LOADGEN_SAMPLES_MAX each, then sorted and printed
 * as percentiles.
 */
#ifndef XQ_CLIENTS_SAMPLES_H
#define XQ_CLIENTS_SAMPLES_H

#include <stdint.h>
#include <stdio.h>

typedef struct xq__samples {
  uint64_t *v;                 /* nanoseconds */
  long n, cap;
  long dropped;                /* beyond XQ_LOADGEN_SAMPLES_MAX, or out of memory */
} xq__samples;

/* Keep one sample of `ns` nanoseconds (counted in `dropped` when it
 * cannot be kept). Cannot fail. */
void xq__samples_add(xq__samples *s, uint64_t ns);
/* Sort the samples and print "LABEL p50 X p90 X p99 X p99.9 X max X" in
 * milliseconds (nearest rank; 0 without samples) and, when some were not
 * kept, a line that says how many. */
void xq__samples_print(xq__samples *s, FILE *out, const char *label);
/* Free the samples (the struct may be used again, empty). */
void xq__samples_free(xq__samples *s);

#endif /* XQ_CLIENTS_SAMPLES_H */
