/*
 * test_number.c -- doubles to integers (engine/number.c): every value
 * outside the caller's range or the range of long long, every NaN,
 * infinity and (for a whole number) fraction refused before it is
 * converted, so that a clang UBSan build (float-cast-overflow) stays
 * quiet on any input; and the values inside converted exactly.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "engine.h"

#define LL_MAX_D 9223372036854775807.0 /* rounds to 2^63: no long long holds it */

Test(number, whole_numbers_in_range_convert)
{
  long long v = 7;
  cr_assert(xq_whole_number(0, 0, 1, &v) && v == 0);
  cr_assert(xq_whole_number(-0.0, 0, 1, &v) && v == 0);
  cr_assert(xq_whole_number(1, 0, 1, &v) && v == 1);
  cr_assert(xq_whole_number(-2147483648.0, -2147483648.0, 2147483647.0, &v) && v == -2147483648LL);
  cr_assert(xq_whole_number(9007199254740992.0, 0, 9007199254740992.0, &v) && v == 9007199254740992LL);
  cr_assert(xq_whole_number(-9223372036854775808.0, -INFINITY, INFINITY, &v) && v == -9223372036854775807LL - 1);
  cr_assert(xq_whole_number(9223372036854774784.0, 0, INFINITY, &v) && v == 9223372036854774784LL);
  cr_assert(xq_whole_number(5, 0, 10, NULL), "a check only");
}

Test(number, everything_else_is_refused_and_out_untouched)
{
  const double bad[] = {NAN, -NAN, INFINITY, -INFINITY, 1e300, -1e300, -1.3e110, LL_MAX_D, 0x1p63, 0x1p64,
                        -0x1p63 * 1.0000001, 0.5, -0.5, 2.000001, 1e-300};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    long long v = 42;
    cr_assert(!xq_whole_number(bad[i], -INFINITY, INFINITY, &v), "%g", bad[i]);
    cr_assert_eq(v, 42, "%g: out untouched", bad[i]);
  }
  long long v = 42;
  cr_assert(!xq_whole_number(11, 0, 10, &v) && !xq_whole_number(-1, 0, 10, &v) && v == 42, "outside lo..hi");
  cr_assert(!xq_whole_number(-1.3e110, 0, 100, &v) && v == 42, "fouls_to_lose of issue 32");
}

Test(number, whole_part_drops_the_fraction_toward_zero)
{
  long long v = 7;
  cr_assert(xq_whole_part(2.9, 0, 10, &v) && v == 2);
  cr_assert(xq_whole_part(-2.9, -10, 0, &v) && v == -2);
  cr_assert(xq_whole_part(0.999, 0, 1, &v) && v == 0);
  cr_assert(xq_whole_part(9223372036854774784.0, 0, INFINITY, &v) && v == 9223372036854774784LL);
  const double bad[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, LL_MAX_D, 0x1p63, -0x1p63 * 1.0000001};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    v = 42;
    cr_assert(!xq_whole_part(bad[i], -INFINITY, INFINITY, &v), "%g", bad[i]);
    cr_assert_eq(v, 42, "%g: out untouched", bad[i]);
  }
  cr_assert(!xq_whole_part(10.5, 0, 10, &v) && v == 42, "the range is on the value, fraction included");
}
