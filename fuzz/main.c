/*
 * main.c -- one libFuzzer target (built once per entry of fuzz.h with
 * -DXQ_FUZZ_ENTRY=xq_fuzz_<name>, only with -DXQ_FUZZ=ON and clang): the
 * process start, then every input to the entry.
 */
#include "engine.h"
#include "fuzz.h"
#include "net.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer's main calls it once, before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  xq_engine_init();
  xq_net_process_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  return XQ_FUZZ_ENTRY(data, size);
}
