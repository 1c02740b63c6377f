/*
 * main.c -- one libFuzzer target (built once per entry of fuzz.h with
 * -DXQ_FUZZ_ENTRY=xq_fuzz_<name>, only with -DXQ_FUZZ=ON and clang).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  return XQ_FUZZ_ENTRY(data, size);
}
