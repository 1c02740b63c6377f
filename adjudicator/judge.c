/*
 * judge.c -- `xqref judge`: rule one game given as a FEN and a list of
 * moves and events, or run a file of cases with known rulings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "adjudicator.h"
#include "game_internal.h"

#define XQ_JUDGE_LINE_MAX (256 * 1024) /* longest line of a case file */
#define XQ_JUDGE_TOKEN_MAX 64          /* longest move or event token */
#define XQ_JUDGE_FILES_MAX 256         /* game files on one command line */

static void usage(FILE *out)
{
  fprintf(out,
          "usage: xqref judge [--rules NAME|FILE] [--fen FEN] --moves \"h2e2 h9g7 ...\" [--all]\n"
          "       xqref judge [--rules NAME|FILE] [--all] [--time] GAME.pgn|GAME.xqf|GAME.html ...\n"
          "       xqref judge --cases FILE [--verbose]\n"
          "\n"
          "Rules a game move by move as a chief arbiter would and prints one JSON\n"
          "verdict per event that was ruled on (every event with --all), then a JSON\n"
          "object with \"result\" (red_wins|black_wins|draw|ongoing) and \"reason\".\n"
          "\n"
          "  --rules NAME|FILE  preset (cxa2011 default, cxa2020, axf, xinjiang2018,\n"
          "                     burqin2018, shaanxi2019, wujiaqu2024, tangshan2018)\n"
          "                     or a JSON rules file\n"
          "  --fen FEN          start position (default: the standard start)\n"
          "  --moves LIST       moves in any notation, and events, separated by spaces:\n"
          "                       claim | claim-red | claim-black   natural-limit claim\n"
          "                       repetition                        repetition claim\n"
          "                       offer | accept | decline          draw offer and answer\n"
          "                       resign                            side to move resigns\n"
          "                       foul-red | foul-black             arbiter's foul\n"
          "                       held:MOVE | release | lift:SQ     hand on a piece\n"
          "                       flag:MOVE                         move made after the flag fell\n"
          "                       clock:RED_MS/BLACK_MS | tick:MS   clock reading, elapsed time\n"
          "  --cases FILE       run a JSON-lines case file (fen, moves, ruleset, expect):\n"
          "                     prints failures and ends with \"N passed, M failed\"\n"
          "  GAME ...           judge every game of these files (XQ-PGN, XQF, DhtmlXQ):\n"
          "                     the verdicts, then one JSON line per game with the\n"
          "                     ruled and the recorded result\n"
          "  --time             with GAME files: print the rate on stderr\n");
}

static int load_rules(const char *spec, xq_rules *r)
{
  xq_error err = {0};
  if (xq_rules_from_spec(spec, r, &err) == XQ_OK) return 0;
  fprintf(stderr, "xqref judge: %s is not a preset: %s\n", spec, err.msg);
  return 1;
}

static void print_verdict(const xq_verdict *v)
{
  char *s = xq_verdict_json(v);
  if (s) puts(s);
  free(s);
}

/* Split `list` on blanks and commas and feed each token to the game. With
 * `print`, verdicts are printed (all with `all`). Returns 0, or 1 after
 * printing an error. `last` receives the last verdict. */
static int run_list(xq_game *g, const char *list, int print, int all, const char *who,
                    xq_verdict *last)
{
  const char *p = list;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\n') p++;
    if (!*p) break;
    size_t n = strcspn(p, " \t,\n");
    if (n >= XQ_JUDGE_TOKEN_MAX) {
      fprintf(stderr, "%s: token longer than %d bytes: %.20s...\n", who, XQ_JUDGE_TOKEN_MAX - 1, p);
      return 1;
    }
    char tok[XQ_JUDGE_TOKEN_MAX];
    memcpy(tok, p, n);
    tok[n] = '\0';
    p += n;
    xq_error err = {0};
    int rc = xq_game_event(g, tok, last, &err);
    if (rc != XQ_OK) {
      fprintf(stderr, "%s: ply %d: %s: %s\n", who, g->nply, tok,
              err.msg[0] ? err.msg : xq_strerror(rc));
      return 1;
    }
    if (print && (all || last->kind != XQ_VERDICT_ACCEPTED ||
                  (last->changed && strcmp(last->event, "move") != 0)))
      print_verdict(last);
  }
  return 0;
}

static int judge_one(const char *rules_spec, const char *fen, const char *moves, int all)
{
  xq_rules r;
  if (load_rules(rules_spec, &r)) return 1;
  static xq_game g;
  xq_error err = {0};
  if (xq_game_init(&g, &r, fen, &err) != XQ_OK) {
    fprintf(stderr, "xqref judge: bad FEN: %s\n", err.msg);
    return 1;
  }
  xq_verdict v;
  if (moves && run_list(&g, moves, 1, all, "xqref judge", &v)) return 1;
  char buf[XQ_FEN_MAX];
  xq_fen_format(&g.pos, buf, sizeof buf);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "result", xq_outcome_name(g.result));
  cJSON_AddStringToObject(o, "reason", xq_reason_name(g.result_reason));
  cJSON_AddStringToObject(o, "rules", g.rules.name);
  cJSON_AddNumberToObject(o, "plies", g.nply);
  cJSON *f = cJSON_AddObjectToObject(o, "fouls");
  cJSON_AddNumberToObject(f, "red", g.fouls[0]);
  cJSON_AddNumberToObject(f, "black", g.fouls[1]);
  cJSON_AddStringToObject(o, "fen", buf);
  char *s = cJSON_PrintUnformatted(o);
  if (s) puts(s);
  free(s);
  cJSON_Delete(o);
  return 0;
}

/* Run one case line. Returns 1 when it passes; prints why not. */
static int run_case(const char *line, int lineno, int verbose)
{
  static xq_game g;
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
    printf("FAIL line %d (%s): not a case (needs fen, moves, expect)\n", lineno, name);
    cJSON_Delete(c);
    return 0;
  }
  xq_rules r;
  xq_error err = {0};
  int ok = 0;
  const char *rname = rs ? rs->valuestring : "cxa2011";
  if (xq_rules_preset(rname, &r) != XQ_OK) {
    printf("FAIL %s: unknown ruleset %s\n", name, rname);
    goto out;
  }
  if (xq_game_init(&g, &r, fen->valuestring, &err) != XQ_OK) {
    printf("FAIL %s: bad FEN: %s\n", name, err.msg);
    goto out;
  }
  xq_verdict v;
  memset(&v, 0, sizeof v);
  int n = cJSON_GetArraySize(moves), i = 0, early = -1;
  for (const cJSON *m = moves->child; m; m = m->next, i++) {
    if (!cJSON_IsString(m)) {
      printf("FAIL %s: move %d is not a string\n", name, i);
      goto out;
    }
    int rc = xq_game_move_text(&g, m->valuestring, 0, &v, &err);
    if (rc != XQ_OK) {
      printf("FAIL %s: move %d %s: %s\n", name, i, m->valuestring, err.msg);
      goto out;
    }
    if (g.result != XQ_OUT_NONE && i + 1 < n && early < 0) early = i;
  }
  /* A must-change ruling matches "must_change" or the side-specific
   * "red_must_change" / "black_must_change". */
  const char *got = xq_outcome_name(g.result);
  if (v.kind == XQ_VERDICT_MUST_CHANGE)
    got = strcmp(expect->valuestring, "must_change") == 0 ? "must_change"
          : v.side == XQ_RED                               ? "red_must_change"
                                                           : "black_must_change";
  if (early >= 0) {
    printf("FAIL %s: ruled %s (%s) at move %d of %d, before the last move\n", name,
           xq_outcome_name(g.result), xq_reason_name(g.result_reason), early + 1, n);
  } else if (strcmp(got, expect->valuestring)) {
    printf("FAIL %s: expected %s, got %s (%s)\n", name, expect->valuestring, got,
           xq_reason_name(v.kind == XQ_VERDICT_MUST_CHANGE ? v.reason : g.result_reason));
  } else {
    ok = 1;
    if (verbose) printf("pass %s: %s (%s)\n", name, got, xq_reason_name(v.reason));
  }
out:
  cJSON_Delete(c);
  return ok;
}

static int judge_cases(const char *path, int verbose)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "xqref judge: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  char *line = malloc(XQ_JUDGE_LINE_MAX);
  if (!line) {
    fclose(f);
    fprintf(stderr, "xqref judge: out of memory\n");
    return 1;
  }
  int pass = 0, failed = 0, lineno = 0;
  while (fgets(line, XQ_JUDGE_LINE_MAX, f)) {
    lineno++;
    size_t len = strlen(line);
    if (len == XQ_JUDGE_LINE_MAX - 1 && line[len - 1] != '\n') {
      printf("FAIL line %d: longer than %d bytes\n", lineno, XQ_JUDGE_LINE_MAX - 2);
      failed++;
      int ch;
      while ((ch = fgetc(f)) != EOF && ch != '\n') {}
      continue;
    }
    const char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (!*p || *p == '#') continue;
    if (run_case(p, lineno, verbose))
      pass++;
    else
      failed++;
  }
  free(line);
  fclose(f);
  printf("%d passed, %d failed\n", pass, failed);
  return failed ? 1 : 0;
}

int xq_judge_main(int argc, char **argv)
{
  const char *rules = "cxa2011", *fen = NULL, *moves = NULL, *cases = NULL;
  int all = 0, verbose = 0, timed = 0, nfiles = 0;
  char *files[XQ_JUDGE_FILES_MAX];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--all")) {
      all = 1;
      continue;
    }
    if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
      verbose = 1;
      continue;
    }
    if (!strcmp(a, "--time")) {
      timed = 1;
      continue;
    }
    if (a[0] != '-') {
      if (nfiles == XQ_JUDGE_FILES_MAX) {
        fprintf(stderr, "xqref judge: more than %d game files\n", XQ_JUDGE_FILES_MAX);
        return 2;
      }
      files[nfiles++] = argv[i];
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "xqref judge: unknown option or missing value: %s\n", a);
      usage(stderr);
      return 2;
    }
    if (!strcmp(a, "--rules"))
      rules = argv[++i];
    else if (!strcmp(a, "--fen"))
      fen = argv[++i];
    else if (!strcmp(a, "--moves"))
      moves = argv[++i];
    else if (!strcmp(a, "--cases"))
      cases = argv[++i];
    else {
      fprintf(stderr, "xqref judge: unknown option %s\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (cases) return judge_cases(cases, verbose);
  if (nfiles) {
    if (fen || moves) {
      fprintf(stderr, "xqref judge: give game files or --fen/--moves, not both\n");
      return 2;
    }
    return xq__judge_files(rules, files, nfiles, all, timed);
  }
  return judge_one(rules, fen, moves, all);
}
