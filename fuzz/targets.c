/*
 * targets.c -- the table of fuzz entries by name (fuzz.h).
 */
#include "fuzz.h"

const xq_fuzz_target xq_fuzz_targets[] = {
  {"fen", xq_fuzz_fen},
  {"iccs", xq_fuzz_iccs},
  {"wxf", xq_fuzz_wxf},
  {"chinese", xq_fuzz_chinese},
  {"pgn", xq_fuzz_pgn},
  {"xqf", xq_fuzz_xqf},
  {"dhtmlxq", xq_fuzz_dhtmlxq},
  {"trf", xq_fuzz_trf},
  {"jsonl", xq_fuzz_jsonl},
  {"http", xq_fuzz_http},
  {"url", xq_fuzz_url},
  {"prize", xq_fuzz_prize},
  {"rules", xq_fuzz_rules},
  {"event", xq_fuzz_event},
  {NULL, NULL},
};
