/*
 * judge.c -- `xqref judge`: its options, --help text and exit status; a
 * game given as a FEN and a list of moves and events, fed to the game
 * state machine token by token; case files; and every game of recorded
 * game files replayed through the rules (adjudicator/adjudicator.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "cli.h"
#include "opts.h"
#include "progress.h"
#include "records.h"


/* What the command line asked for. */
typedef struct judge_opts {
  const char *rules, *fen, *moves, *cases;
  int all, verbose, timed;
  int nfiles;
  const char *files[XQ_CLI_JUDGE_FILES_MAX];
} judge_opts;

static const xq__opt judge_rows[] = {
  XQ__STR("--rules", judge_opts, rules, "NAME|FILE|JSON",
          "preset (cxa2011 default, cxa2020, axf, xinjiang2018,\n"
          "burqin2018, shaanxi2019, wujiaqu2024, tangshan2018),\n"
          "a JSON rules file, or the JSON itself:\n"
          "'{\"preset\":\"axf\",\"repetition_occurrences\":4}'"),
  XQ__STR("--fen", judge_opts, fen, "FEN", "start position (default: the standard start)"),
  XQ__STR("--moves", judge_opts, moves, "LIST",
          "moves in any notation, and events, separated by spaces:\n"
          "  claim | claim-red | claim-black   natural-limit claim\n"
          "  repetition                        repetition claim\n"
          "  offer | accept | decline          draw offer and answer\n"
          "  resign                            side to move resigns\n"
          "  foul-red | foul-black             arbiter's foul\n"
          "  held:MOVE | release | lift:SQ     hand on a piece\n"
          "  flag:MOVE                         move made after the flag fell\n"
          "  clock:RED_MS/BLACK_MS | tick:MS   clock reading, elapsed time"),
  XQ__FLAG("--all", judge_opts, all, 1, "print every verdict, plain accepted moves too"),
  XQ__STR("--cases", judge_opts, cases, "FILE",
          "run a JSON-lines case file (fen, moves, ruleset, expect):\n"
          "prints failures and ends with \"N passed, M failed\""),
  XQ__FLAG("--verbose", judge_opts, verbose, 1, "with --cases: every case, passed ones too", .alias = 'v'),
  XQ__FLAG("--time", judge_opts, timed, 1, "with GAME files: print the rate on stderr"),
};

static const xq__cmd judge_cmd = {
  .name = "judge",
  .synopsis = "[--rules NAME|FILE|JSON] [--fen FEN] --moves \"h2e2 h9g7 ...\" [--all]\n"
              "       xqref judge [--rules NAME|FILE|JSON] [--all] [--time] GAME.pgn|GAME.xqf|GAME.html|- ...\n"
              "       xqref judge --cases FILE [--verbose]",
  .args_max = XQ_CLI_JUDGE_FILES_MAX,
  .about = "Rules a game move by move as a chief arbiter would and prints one JSON\n"
           "verdict per event that was ruled on (every event with --all), then a JSON\n"
           "object with \"result\" and \"reason\". The result is red_wins, black_wins,\n"
           "draw, ongoing (play goes on) or needs_arbiter: play is paused until the\n"
           "arbiter rules (a cycle the rules leave to him or the search cannot settle,\n"
           "a natural-limit claim or a draw offer that is his to decide).\n"
           "GAME ... judges every game of these files (XQ-PGN, XQF, DhtmlXQ; '-' reads\n"
           "standard input, as convert and stats do): the verdicts, then one JSON line\n"
           "per game with the ruled and the recorded result.\n",
  .opts = judge_rows,
  .nopts = XQ__NROWS(judge_rows),
};

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

/* Split `list` on blanks and commas and feed each token to the game,
 * printing the verdicts that are not a plain accept of a move (all with
 * `all`). Returns 0, or 1 after printing an error. `last` receives the
 * last verdict. */
static int run_list(xq_game *g, const char *list, int all, xq_verdict *last)
{
  const char *p = list;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\n') p++;
    if (!*p) break;
    size_t n = strcspn(p, " \t,\n");
    if (n >= XQ_CLI_JUDGE_TOKEN_MAX) {
      fprintf(stderr, "xqref judge: token longer than %d bytes: %.20s...\n",
              XQ_CLI_JUDGE_TOKEN_MAX - 1, p);
      return 1;
    }
    char tok[XQ_CLI_JUDGE_TOKEN_MAX];
    memcpy(tok, p, n);
    tok[n] = '\0';
    p += n;
    xq_error err = {0};
    int rc = xq_game_event(g, tok, last, &err);
    if (rc != XQ_OK) {
      fprintf(stderr, "xqref judge: ply %d: %s: %s\n", g->nply, tok,
              err.msg[0] ? err.msg : xq_strerror(rc));
      return 1;
    }
    if (all || last->kind != XQ_VERDICT_ACCEPTED ||
        (last->changed && strcmp(last->event, "move") != 0))
      print_verdict(last);
  }
  return 0;
}

/* --fen and --moves: the verdicts, then the game's summary. */
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
  if (moves && run_list(&g, moves, all, &v)) return 1;
  char *s = xq_game_summary_json(&g);
  if (s) puts(s);
  free(s);
  return 0;
}

/* --cases FILE. */
static int judge_cases(const char *path, int verbose)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "xqref judge: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  int failed = 0;
  int rc = xq_judge_cases(f, stdout, verbose, NULL, &failed);
  fclose(f);
  if (rc != XQ_OK) {
    fprintf(stderr, "xqref judge: out of memory\n");
    return 1;
  }
  return failed ? 1 : 0;
}

/* Print each verdict of a replay that is not a plain accept (all with
 * *all). */
static void print_each(const xq_verdict *v, void *all)
{
  if (!*(const int *)all && v->kind == XQ_VERDICT_ACCEPTED) return;
  print_verdict(v);
}

/* Every game of the file `path`: its verdicts and its line. Adds to the
 * counts; returns 0, or 1 when the file or a game could not be read. */
static int judge_file(const char *path, xq_game *g, const xq_rules *rules, xq_record *rec,
                      int all, long *games, long *bad, long long *plies)
{
  xq_error err = {0};
  xq_games *gs;
  int status = 0, rc;
  long read = *games + *bad;
  if (xq_games_open(&gs, path, XQ_PGN_NO_COMMENTS, &err) != XQ_OK) {
    fprintf(stderr, "xqref judge: %s: %s\n", path, err.msg);
    return 1;
  }
  while ((rc = xq_games_next(gs, rec, &err)) != 0) {
    if (rc == XQ_EIO) {
      fprintf(stderr, "xqref judge: %s: %s\n", path, err.msg);
      status = 1;
      break;
    }
    if (rc < 0 || xq_game_replay(g, rules, rec, print_each, &all, &err) != XQ_OK) {
      fprintf(stderr, "xqref judge: %s: %s\n", path, err.msg);
      (*bad)++;
      status = 1;
      continue;
    }
    (*games)++;
    *plies += g->nply;
    char *s = xq_game_record_json(g, rec, path);
    if (s) puts(s);
    free(s);
  }
  xq_games_close(gs);
  if (*games + *bad == read && !status) { /* nothing in the file reads: never a success */
    fprintf(stderr, "xqref judge: %s: no game found\n", path);
    status = 1;
  }
  return status;
}

/* GAME...: every game of every file, then with `timed` the rate on
 * stderr. */
static int judge_files(const char *rules_spec, const char *const *paths, int npaths, int all, int timed)
{
  xq_rules rules;
  xq_error err = {0};
  if (xq_rules_from_spec(rules_spec, &rules, &err) != XQ_OK) {
    fprintf(stderr, "xqref judge: rules: %s\n", err.msg);
    return 1;
  }
  xq_game *g = malloc(sizeof *g);
  xq_record *rec = malloc(sizeof *rec);
  if (!g || !rec) {
    free(g);
    free(rec);
    fprintf(stderr, "xqref judge: out of memory\n");
    return 1;
  }
  xq_record_init(rec);
  long games = 0, bad = 0;
  long long plies = 0;
  int status = 0;
  double t0 = xq__progress_now();
  for (int f = 0; f < npaths; f++)
    status |= judge_file(paths[f], g, &rules, rec, all, &games, &bad, &plies);
  double dt = xq__progress_now() - t0;
  if (timed) {
    if (dt < 1e-9) dt = 1e-9;
    fprintf(stderr, "xqref judge: %ld games, %lld plies, %ld bad in %.3f s: %.0f games/s, %.0f plies/s\n",
            games, plies, bad, dt, (double)(games + bad) / dt, (double)plies / dt);
  }
  xq_record_free(rec);
  free(rec);
  free(g);
  return status;
}

int xq_judge_main(int argc, char **argv)
{
  judge_opts o = {.rules = "cxa2011"};
  int status = xq__opts_parse(&judge_cmd, argc, argv, &o, o.files, &o.nfiles);
  if (status >= 0) return status;
  if (o.cases) return judge_cases(o.cases, o.verbose);
  if (o.nfiles) {
    if (o.fen || o.moves) {
      fprintf(stderr, "xqref judge: give game files or --fen/--moves, not both\n");
      return 2;
    }
    return judge_files(o.rules, o.files, o.nfiles, o.all, o.timed);
  }
  if (!o.fen && !o.moves) return xq__opts_error(&judge_cmd, "nothing to judge: give --moves, --fen, --cases or game files");
  return judge_one(o.rules, o.fen, o.moves, o.all);
}
