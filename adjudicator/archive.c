/*
 * archive.c -- recorded games through the rules: `xqref judge GAME...`
 * (every game of PGN, XQF or DhtmlXQ files, verdicts as JSON lines) and
 * the judge behind `xqref stats`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "adjudicator.h"
#include "records.h"

int xq_rules_from_spec(const char *spec, xq_rules *out, xq_error *err)
{
  if (!spec || !out) {
    if (err) {
      err->code = XQ_EINVAL;
      err->pos = err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "rules: NULL argument");
    }
    return XQ_EINVAL;
  }
  if (xq_rules_preset(spec, out) == XQ_OK) return XQ_OK;
  return xq_rules_load_json(spec, out, err);
}

/* The record's result as an outcome (NONE when unknown). */
static xq_outcome recorded_outcome(const xq_record *rec)
{
  switch (rec->result) {
  case XQ_RESULT_RED_WINS: return XQ_OUT_RED_WINS;
  case XQ_RESULT_BLACK_WINS: return XQ_OUT_BLACK_WINS;
  case XQ_RESULT_DRAW: return XQ_OUT_DRAW;
  default: return XQ_OUT_NONE;
  }
}

/* Play the record's main line into `g` until the rules end the game.
 * `each` (may be NULL) sees every verdict. Returns XQ_OK or the status of
 * a move the game refused to take (with `err`). */
static int replay(xq_game *g, const xq_rules *rules, const xq_record *rec,
                  void (*each)(const xq_verdict *v, void *ctx), void *ctx, xq_error *err)
{
  char fen[XQ_FEN_MAX];
  xq_fen_format(&rec->start, fen, sizeof fen);
  int rc = xq_game_init(g, rules, fen, err);
  if (rc != XQ_OK) return rc;
  for (int i = 0; i < rec->n_moves && g->result == XQ_OUT_NONE; i++) {
    xq_verdict v;
    rc = xq_game_move(g, rec->moves[i], 0, &v);
    if (rc != XQ_OK) {
      if (err) {
        err->code = rc;
        err->pos = -1;
        err->ply = i;
        snprintf(err->msg, sizeof err->msg, "game %ld, ply %d: %s", rec->game, i + 1,
                 xq_strerror(rc));
      }
      return rc;
    }
    if (each) each(&v, ctx);
  }
  return XQ_OK;
}

/* ---- the judge behind xqref stats --------------------------------- */

typedef struct stats_judge {
  xq_rules rules;
  xq_game *game;
} stats_judge;

static int stats_begin(void *ctx, const char *rules, xq_error *err)
{
  stats_judge *j = ctx;
  int rc = xq_rules_from_spec(rules ? rules : "cxa2011", &j->rules, err);
  if (rc != XQ_OK) return rc;
  if (!j->game && !(j->game = malloc(sizeof *j->game))) {
    if (err) snprintf(err->msg, sizeof err->msg, "out of memory");
    return XQ_ENOMEM;
  }
  return XQ_OK;
}

static int stats_game(void *ctx, const xq_record *rec, xq_error *err)
{
  stats_judge *j = ctx;
  int rc = replay(j->game, &j->rules, rec, NULL, NULL, err);
  if (rc != XQ_OK) return rc;
  xq_outcome got = j->game->result;
  if (got != XQ_OUT_RED_WINS && got != XQ_OUT_BLACK_WINS && got != XQ_OUT_DRAW)
    return XQ_JUDGED_OPEN;
  return got == recorded_outcome(rec) ? XQ_JUDGED_AGREE : XQ_JUDGED_DIFFER;
}

static const char *stats_rules_name(void *ctx)
{
  return ((stats_judge *)ctx)->rules.name;
}

int xq_archive_stats_main(int argc, char **argv)
{
  stats_judge j = {0};
  xq_stats_judge hook = {&j, stats_begin, stats_game, stats_rules_name};
  int rc = xq_stats_run(argc, argv, &hook);
  free(j.game);
  return rc;
}

/* ---- xqref judge GAME... ------------------------------------------ */

typedef struct print_ctx {
  int all;
} print_ctx;

static void print_each(const xq_verdict *v, void *ctx)
{
  const print_ctx *pc = ctx;
  if (!pc->all && v->kind == XQ_VERDICT_ACCEPTED) return;
  char *s = xq_verdict_json(v);
  if (s) puts(s);
  free(s);
}

int xq__judge_files(const char *rules_spec, char **paths, int npaths, int all, int timed)
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
  print_ctx pc = {all};
  long games = 0, bad = 0;
  long long plies = 0;
  int status = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int f = 0; f < npaths; f++) {
    xq_games *gs;
    if (xq_games_open(&gs, paths[f], XQ_PGN_NO_COMMENTS, &err) != XQ_OK) {
      fprintf(stderr, "xqref judge: %s: %s\n", paths[f], err.msg);
      status = 1;
      continue;
    }
    int rc;
    while ((rc = xq_games_next(gs, rec, &err)) != 0) {
      if (rc == XQ_EIO) {
        fprintf(stderr, "xqref judge: %s: %s\n", paths[f], err.msg);
        status = 1;
        break;
      }
      if (rc < 0 || replay(g, &rules, rec, print_each, &pc, &err) != XQ_OK) {
        fprintf(stderr, "xqref judge: %s: %s\n", paths[f], err.msg);
        bad++;
        status = 1;
        continue;
      }
      games++;
      plies += g->nply;
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "file", paths[f]);
      cJSON_AddNumberToObject(o, "game", (double)rec->game);
      const char *red = xq_record_tag(rec, "Red"), *black = xq_record_tag(rec, "Black");
      if (red) cJSON_AddStringToObject(o, "red", red);
      if (black) cJSON_AddStringToObject(o, "black", black);
      cJSON_AddStringToObject(o, "result", xq_outcome_name(g->result));
      cJSON_AddStringToObject(o, "reason", xq_reason_name(g->result_reason));
      cJSON_AddStringToObject(o, "recorded", xq_result_pgn(rec->result));
      cJSON_AddNumberToObject(o, "plies", g->nply);
      cJSON_AddNumberToObject(o, "recorded_plies", rec->n_moves);
      cJSON_AddStringToObject(o, "rules", rules.name);
      char *s = cJSON_PrintUnformatted(o);
      if (s) puts(s);
      free(s);
      cJSON_Delete(o);
    }
    xq_games_close(gs);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (timed) {
    double dt = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (dt < 1e-9) dt = 1e-9;
    fprintf(stderr, "xqref judge: %ld games, %lld plies, %ld bad in %.3f s: %.0f games/s, %.0f plies/s\n",
            games, plies, bad, dt, (double)(games + bad) / dt, (double)plies / dt);
  }
  xq_record_free(rec);
  free(rec);
  free(g);
  return status;
}
