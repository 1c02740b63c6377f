/*
 * number.c -- doubles to integers, the range compared before the
 * conversion (a conversion of a value the type cannot hold, or of a NaN,
 * is undefined behaviour: C11 6.3.1.4).
 */
#include "engine.h"

/* Every double strictly between these converts to long long: -2^63 is
 * LLONG_MIN itself, 2^63 is one above LLONG_MAX (both exact doubles). */
#define LL_FLOOR (-9223372036854775808.0)
#define LL_CEIL 9223372036854775808.0

int xq_whole_part(double v, double lo, double hi, long long *out)
{
  /* written so that a NaN fails every comparison */
  if (!(v >= lo && v <= hi && v >= LL_FLOOR && v < LL_CEIL)) return 0;
  if (out) *out = (long long)v;
  return 1;
}

int xq_whole_number(double v, double lo, double hi, long long *out)
{
  long long w;
  if (!xq_whole_part(v, lo, hi, &w) || (double)w != v) return 0;
  if (out) *out = w;
  return 1;
}
