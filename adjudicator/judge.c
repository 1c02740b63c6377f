/*
 * judge.c -- the reports of the rules on one game: its state as a JSON
 * line, and case files (JSON lines of a position, moves and the expected
 * ruling) played through the game state machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "adjudicator.h"

char *xq_game_summary_json(const xq_game *g)
{
  if (!g) return NULL;
  char buf[XQ_FEN_MAX];
  xq_fen_format(&g->pos, buf, sizeof buf);
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  cJSON_AddStringToObject(o, "result", xq_outcome_name(g->result));
  cJSON_AddStringToObject(o, "reason", xq_reason_name(g->result_reason));
  cJSON_AddStringToObject(o, "rules", g->rules.name);
  cJSON_AddNumberToObject(o, "plies", g->nply);
  cJSON *f = cJSON_AddObjectToObject(o, "fouls");
  cJSON_AddNumberToObject(f, "red", g->fouls[0]);
  cJSON_AddNumberToObject(f, "black", g->fouls[1]);
  cJSON_AddStringToObject(o, "fen", buf);
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return s;
}

/* Run one case line in `g`. Returns 1 when it passes; prints why not to
 * `out`. */
static int run_case(xq_game *g, const char *line, int lineno, int verbose, FILE *out)
{
  cJSON *c = cJSON_Parse(line);
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
  const cJSON *rs = cJSON_GetObjectItemCaseSensitive(c, "ruleset");
  const cJSON *fen = cJSON_GetObjectItemCaseSensitive(c, "fen");
  const cJSON *moves = cJSON_GetObjectItemCaseSensitive(c, "moves");
  const cJSON *expect = cJSON_GetObjectItemCaseSensitive(c, "expect");
  char name[64];
  snprintf(name, sizeof name, "%s", cJSON_IsString(id) ? id->valuestring : "?");
  if (!c || !cJSON_IsString(fen) || !cJSON_IsArray(moves) || !cJSON_IsString(expect) ||
      (rs && !cJSON_IsString(rs))) {
    fprintf(out, "FAIL line %d (%s): not a case (needs fen, moves, expect)\n", lineno, name);
    cJSON_Delete(c);
    return 0;
  }
  xq_rules r;
  xq_error err = {0};
  int ok = 0;
  const char *rname = rs ? rs->valuestring : "cxa2011";
  if (xq_rules_preset(rname, &r) != XQ_OK) {
    fprintf(out, "FAIL %s: unknown ruleset %s\n", name, rname);
    goto done;
  }
  if (xq_game_init(g, &r, fen->valuestring, &err) != XQ_OK) {
    fprintf(out, "FAIL %s: bad FEN: %s\n", name, err.msg);
    goto done;
  }
  xq_verdict v;
  memset(&v, 0, sizeof v);
  int n = cJSON_GetArraySize(moves), i = 0, early = -1;
  for (const cJSON *m = moves->child; m; m = m->next, i++) {
    if (!cJSON_IsString(m)) {
      fprintf(out, "FAIL %s: move %d is not a string\n", name, i);
      goto done;
    }
    int rc = xq_game_move_text(g, m->valuestring, 0, &v, &err);
    if (rc != XQ_OK) {
      fprintf(out, "FAIL %s: move %d %s: %s\n", name, i, m->valuestring, err.msg);
      goto done;
    }
    if (g->result != XQ_OUT_NONE && i + 1 < n && early < 0) early = i;
  }
  /* A must-change ruling matches "must_change" or the side-specific
   * "red_must_change" / "black_must_change". */
  const char *got = xq_outcome_name(g->result);
  if (v.kind == XQ_VERDICT_MUST_CHANGE)
    got = strcmp(expect->valuestring, "must_change") == 0 ? "must_change"
          : v.side == XQ_RED                               ? "red_must_change"
                                                           : "black_must_change";
  if (early >= 0) {
    fprintf(out, "FAIL %s: ruled %s (%s) at move %d of %d, before the last move\n", name,
            xq_outcome_name(g->result), xq_reason_name(g->result_reason), early + 1, n);
  } else if (strcmp(got, expect->valuestring)) {
    fprintf(out, "FAIL %s: expected %s, got %s (%s)\n", name, expect->valuestring, got,
            xq_reason_name(v.kind == XQ_VERDICT_MUST_CHANGE ? v.reason : g->result_reason));
  } else {
    ok = 1;
    if (verbose) fprintf(out, "pass %s: %s (%s)\n", name, got, xq_reason_name(v.reason));
  }
done:
  cJSON_Delete(c);
  return ok;
}

int xq_judge_cases(FILE *in, FILE *out, int verbose, int *passed, int *failed)
{
  if (passed) *passed = 0;
  if (failed) *failed = 0;
  if (!in || !out) return XQ_EINVAL;
  char *line = malloc(XQ_JUDGE_LINE_MAX);
  xq_game *g = malloc(sizeof *g);
  if (!line || !g) {
    free(line);
    free(g);
    return XQ_ENOMEM;
  }
  int pass = 0, fail = 0, lineno = 0;
  while (fgets(line, XQ_JUDGE_LINE_MAX, in)) {
    lineno++;
    size_t len = strlen(line);
    if (len == XQ_JUDGE_LINE_MAX - 1 && line[len - 1] != '\n') {
      fprintf(out, "FAIL line %d: longer than %d bytes\n", lineno, XQ_JUDGE_LINE_MAX - 2);
      fail++;
      int ch;
      while ((ch = fgetc(in)) != EOF && ch != '\n') {}
      continue;
    }
    const char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (!*p || *p == '#') continue;
    if (run_case(g, p, lineno, verbose, out))
      pass++;
    else
      fail++;
  }
  free(line);
  free(g);
  fprintf(out, "%d passed, %d failed\n", pass, fail);
  if (passed) *passed = pass;
  if (failed) *failed = fail;
  return XQ_OK;
}
