/*
 * archive.c -- recorded games through the rules: a record's main line
 * replayed into a game, the ruling compared with the recorded result, and
 * the one JSON line per game that `xqref judge GAME...` prints.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "adjudicator.h"
#include "records.h"

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

int xq_game_replay(xq_game *g, const xq_rules *rules, const xq_record *rec,
                   void (*each)(const xq_verdict *v, void *ctx), void *ctx, xq_error *err)
{
  if (!g || !rules || !rec) {
    if (err) {
      err->code = XQ_EINVAL;
      err->pos = err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "replay: NULL argument");
    }
    return XQ_EINVAL;
  }
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

int xq_judge_record(xq_game *g, const xq_rules *rules, const xq_record *rec, xq_error *err)
{
  int rc = xq_game_replay(g, rules, rec, NULL, NULL, err);
  if (rc != XQ_OK) return rc;
  xq_outcome got = g->result;
  if (got != XQ_OUT_RED_WINS && got != XQ_OUT_BLACK_WINS && got != XQ_OUT_DRAW)
    return XQ_JUDGED_OPEN;
  return got == recorded_outcome(rec) ? XQ_JUDGED_AGREE : XQ_JUDGED_DIFFER;
}

char *xq_game_record_json(const xq_game *g, const xq_record *rec, const char *file)
{
  if (!g || !rec || !file) return NULL;
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  cJSON_AddStringToObject(o, "file", file);
  cJSON_AddNumberToObject(o, "game", (double)rec->game);
  const char *red = xq_record_tag(rec, "Red"), *black = xq_record_tag(rec, "Black");
  if (red) cJSON_AddStringToObject(o, "red", red);
  if (black) cJSON_AddStringToObject(o, "black", black);
  cJSON_AddStringToObject(o, "result", xq_outcome_name(g->result));
  cJSON_AddStringToObject(o, "reason", xq_reason_name(g->result_reason));
  cJSON_AddStringToObject(o, "recorded", xq_result_pgn(rec->result));
  cJSON_AddNumberToObject(o, "plies", g->nply);
  cJSON_AddNumberToObject(o, "recorded_plies", rec->n_moves);
  cJSON_AddStringToObject(o, "rules", g->rules.name);
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return s;
}
