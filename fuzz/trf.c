/*
 * trf.c -- fuzz entry for TRF (fuzz.h): parse, and write what was read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "tourney.h"

int xq_fuzz_trf(const uint8_t *data, size_t size)
{
  if (size > XQ_FUZZ_INPUT_MAX) return 0;
  static FILE *sink;
  if (!sink && !(sink = fopen("/dev/null", "w"))) abort();
  xq_tournament *ev = NULL;
  xq_error err;
  if (xq_trf_parse((const char *)data, size, &ev, &err) == XQ_OK) {
    if (!ev) abort();
    xq_trf_next_round(ev);
    if (xq_trf_write(ev, sink) != XQ_OK) abort();
    xq_tournament_free(ev);
  } else if (ev) {
    abort(); /* the contract: *out is NULL on failure */
  }
  return 0;
}
