/*
 * rules.c -- fuzz entry for rules files (fuzz.h): xq_rules_load_json on
 * the text, and what it loads printed, loaded again and printed the same.
 */
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "fuzz.h"

int xq_fuzz_rules(const uint8_t *data, size_t size)
{
  if (size > XQ_FUZZ_INPUT_MAX) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  /* text that does not open with '{' names a file: not the fuzzer's to
   * open, so it is read as a preset name (xq_rules_from_spec's first try) */
  const char *p = text + strspn(text, " \t\r\n\f\v");
  xq_rules r;
  xq_error err;
  int rc = *p == '{' ? xq_rules_load_json(text, &r, &err) : xq_rules_preset(text, &r);
  if (rc == XQ_OK) {
    char *json = xq_rules_to_json(&r);
    if (!json) abort();
    xq_rules back;
    if (xq_rules_load_json(json, &back, &err) != XQ_OK) abort();
    char *again = xq_rules_to_json(&back);
    if (!again || strcmp(json, again)) abort();
    free(again);
    free(json);
  }
  free(text);
  return 0;
}
