/*
 * test_fuzz_regress.c -- every input the fuzzers ever crashed on, and the
 * seed corpora, replayed through the same entry points (fuzz/fuzz.h) in
 * the normal build: tests/data/fuzz-regress/<target>/ and
 * fuzz/corpus/<target>/. An entry aborts on a finding, so a test passes
 * when every file was replayed and the process is still alive.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define XQ_FUZZ_CORPUS XQ_TEST_DATA "/../../fuzz/corpus"

/* Replay every regular file of dir/<target>; returns how many. */
static int replay_dir(const char *dir, const xq_fuzz_target *t)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, t->name);
  DIR *d = opendir(path);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char file[1024];
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    FILE *f = fopen(file, "rb");
    cr_assert(f, "cannot open %s", file);
    static uint8_t buf[XQ_FUZZ_INPUT_MAX + 1];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    cr_assert(len <= XQ_FUZZ_INPUT_MAX, "%s is over XQ_FUZZ_INPUT_MAX", file);
    cr_assert_eq(t->fn(buf, len), 0, "%s", file);
    n++;
  }
  closedir(d);
  return n;
}

static void replay(const char *name)
{
  const xq_fuzz_target *t = xq_fuzz_targets;
  while (t->name && strcmp(t->name, name)) t++;
  cr_assert(t->name, "no fuzz target %s", name);
  int seeds = replay_dir(XQ_FUZZ_CORPUS, t);
  replay_dir(XQ_TEST_DATA "/fuzz-regress", t);
  cr_assert_gt(seeds, 0, "fuzz/corpus/%s holds no seed", name);
}

Test(fuzz_regress, fen) { replay("fen"); }
Test(fuzz_regress, iccs) { replay("iccs"); }
Test(fuzz_regress, wxf) { replay("wxf"); }
Test(fuzz_regress, chinese) { replay("chinese"); }
Test(fuzz_regress, pgn) { replay("pgn"); }
Test(fuzz_regress, xqf) { replay("xqf"); }
Test(fuzz_regress, dhtmlxq) { replay("dhtmlxq"); }
Test(fuzz_regress, trf) { replay("trf"); }
Test(fuzz_regress, jsonl, .timeout = 120) { replay("jsonl"); }
Test(fuzz_regress, http) { replay("http"); }
Test(fuzz_regress, url) { replay("url"); }
Test(fuzz_regress, prize) { replay("prize"); }
Test(fuzz_regress, rules) { replay("rules"); }
Test(fuzz_regress, event) { replay("event"); }
