/*
 * verdict.c -- building verdicts: explanations in two languages, the end
 * of a game, fouls, and the JSON form.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "game_internal.h"

const char *const xq__side_zh[2] = {"红方", "黑方"};
const char *const xq__side_en[2] = {"Red", "Black"};

void xq__verdict_begin(const xq_game *g, xq_verdict *v, const char *event)
{
  v->event = event;
  v->kind = XQ_VERDICT_ACCEPTED;
  v->reason = XQ_REASON_NONE;
  v->side = -1;
  v->result = g->result;
  v->ply = g->nply;
  v->changed = 0;
  v->fouls[0] = g->fouls[0];
  v->fouls[1] = g->fouls[1];
  v->rule[0] = '\0';
  v->nmoves = 0;
  v->first_side = g->pos.side;
  v->has_cls = 0;
  v->zh[0] = v->en[0] = '\0';
}

static void vformat_both(xq_verdict *v, size_t at_zh, size_t at_en, const char *zh,
                         const char *en, va_list ap)
{
  va_list ap2;
  va_copy(ap2, ap);
  if (at_zh < sizeof v->zh) vsnprintf(v->zh + at_zh, sizeof v->zh - at_zh, zh, ap);
  if (at_en < sizeof v->en) vsnprintf(v->en + at_en, sizeof v->en - at_en, en, ap2);
  va_end(ap2);
}

void xq__verdict_explain(xq_verdict *v, const char *zh, const char *en, ...)
{
  va_list ap;
  va_start(ap, en);
  vformat_both(v, 0, 0, zh, en, ap);
  va_end(ap);
}

void xq__verdict_sq_name(int sq, char buf[3])
{
  buf[0] = (char)('a' + XQ_FILE(sq));
  buf[1] = (char)('0' + XQ_RANK(sq));
  buf[2] = '\0';
}

/* A file as `side` counts it: Chinese numerals for Red from its right
 * (file i is 一), full-width digits for Black from its right (file a is １). */
static const char *file_zh(int sq, int side)
{
  static const char *const red[9] = {"九", "八", "七", "六", "五", "四", "三", "二", "一"};
  static const char *const black[9] = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};
  return side == XQ_BLACK ? black[XQ_FILE(sq)] : red[XQ_FILE(sq)];
}

void xq__verdict_sq_zh(int sq, int side, char buf[XQ__SQ_ZH_MAX])
{
  int rank = side == XQ_BLACK ? 10 - XQ_RANK(sq) : XQ_RANK(sq) + 1;
  snprintf(buf, XQ__SQ_ZH_MAX, "%s路第%d横线", file_zh(sq, side), rank);
}

void xq__verdict_piece_zh(int sq, int side, int kind, char buf[XQ__SQ_ZH_MAX])
{
  static const char *const names[2][8] = {{"", "帅", "仕", "相", "马", "车", "炮", "兵"},
                                          {"", "将", "士", "象", "马", "车", "炮", "卒"}};
  snprintf(buf, XQ__SQ_ZH_MAX, "%s%s", names[side == XQ_BLACK][kind >= 0 && kind < 8 ? kind : 0], file_zh(sq, side));
}

void xq__verdict_move_name(xq_move m, char buf[5])
{
  xq__verdict_sq_name(XQ_FROM(m), buf);
  xq__verdict_sq_name(XQ_TO(m), buf + 2);
}

void xq__verdict_move_zh(const xq_pos *pos, xq_move m, char buf[XQ_MOVE_TEXT_MAX])
{
  /* the move was found legal already: its test is not made again (this
   * runs on every move, bench --judge) */
  if (xq_move_format_legal(pos, m, XQ_NOTE_CHINESE, buf, XQ_MOVE_TEXT_MAX) < 0) xq__verdict_move_name(m, buf);
}

void xq__verdict_end(xq_game *g, xq_verdict *v, xq_verdict_kind kind, xq_outcome result,
                     xq_reason reason, int side, const char *rule)
{
  /* Armageddon (加赛超快棋): 和棋黑胜, whatever made the draw. */
  if (result == XQ_OUT_DRAW && g->rules.armageddon) {
    kind = XQ_VERDICT_LOSS;
    result = XQ_OUT_BLACK_WINS;
    side = XQ_RED;
    reason = XQ_REASON_ARMAGEDDON_DRAW;
    rule = "armageddon";
  }
  g->result = result;
  g->result_reason = reason;
  g->draw_offer_pending = -1;
  g->held = XQ_MOVE_NONE;
  v->kind = kind;
  v->result = result;
  v->reason = reason;
  v->side = side;
  v->changed = 1;
  snprintf(v->rule, sizeof v->rule, "%s", rule);
}

void xq__verdict_pause(xq_game *g, xq_verdict *v, xq_reason reason, const char *rule)
{
  g->result = XQ_OUT_NEEDS_ARBITER;
  g->result_reason = reason;
  v->kind = XQ_VERDICT_NEEDS_ARBITER;
  v->result = g->result;
  v->reason = reason;
  v->changed = 1;
  snprintf(v->rule, sizeof v->rule, "%s", rule);
}

void xq__verdict_foul(xq_game *g, xq_verdict *v, int side, int n, xq_reason reason,
                      const char *rule, const char *what_zh, const char *what_en)
{
  g->fouls[side] += n;
  v->fouls[side] = g->fouls[side];
  v->changed = 1;
  int limit = g->rules.fouls_to_lose;
  if (limit > 0 && g->fouls[side] >= limit && g->result == XQ_OUT_NONE) {
    xq__verdict_end(g, v, XQ_VERDICT_LOSS, side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                    XQ_REASON_FOUL_LIMIT, side, "P11");
    snprintf(v->zh, sizeof v->zh, "%s%s，累计犯规%d次，判负", xq__side_zh[side], what_zh,
             g->fouls[side]);
    snprintf(v->en, sizeof v->en, "%s: %s; that is foul %d, which loses", xq__side_en[side],
             what_en, g->fouls[side]);
    return;
  }
  v->kind = XQ_VERDICT_FOUL;
  v->reason = reason;
  v->side = side;
  snprintf(v->rule, sizeof v->rule, "%s", rule);
  if (limit > 0)
    snprintf(v->en, sizeof v->en, "%s: %s; foul %d of %d", xq__side_en[side], what_en,
             g->fouls[side], limit);
  else
    snprintf(v->en, sizeof v->en, "%s: %s; foul %d", xq__side_en[side], what_en, g->fouls[side]);
  snprintf(v->zh, sizeof v->zh, "%s%s，记犯规一次（共%d次）", xq__side_zh[side], what_zh,
           g->fouls[side]);
}

int xq__verdict_refuse_if_over(const xq_game *g, xq_verdict *v)
{
  if (g->result == XQ_OUT_NONE) return 0;
  v->kind = XQ_VERDICT_REFUSED;
  if (g->result == XQ_OUT_NEEDS_ARBITER) {
    v->reason = XQ_REASON_AWAITING_ARBITER;
    xq__verdict_explain(v, "对局暂停，等待裁判裁决", "play is paused until the arbiter rules");
  } else {
    v->reason = XQ_REASON_GAME_OVER;
    snprintf(v->zh, sizeof v->zh, "对局已结束（%s）", xq_outcome_text(g->result, "zh"));
    snprintf(v->en, sizeof v->en, "the game is over (%s)", xq_outcome_text(g->result, "en"));
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */
/* ------------------------------------------------------------------ */

static const char *cls_name(int c)
{
  static const char *const names[] = {"idle", "chase", "kill", "check", "undecided"};
  return c >= 0 && c < 5 ? names[c] : "unknown";
}

static const char *side_name(int side)
{
  return side == XQ_RED ? "red" : side == XQ_BLACK ? "black" : NULL;
}

char *xq_verdict_json(const xq_verdict *v)
{
  if (!v) return NULL;
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  char mv[5];
  cJSON_AddStringToObject(o, "event", v->event ? v->event : "");
  cJSON_AddNumberToObject(o, "ply", v->ply);
  cJSON_AddStringToObject(o, "verdict", xq_verdict_kind_name(v->kind));
  if (side_name(v->side))
    cJSON_AddStringToObject(o, "side", side_name(v->side));
  else
    cJSON_AddNullToObject(o, "side");
  cJSON_AddStringToObject(o, "reason", xq_reason_name(v->reason));
  cJSON_AddNumberToObject(o, "reason_code", v->reason);
  cJSON_AddStringToObject(o, "rule", v->rule);
  cJSON *moves = cJSON_AddArrayToObject(o, "moves");
  for (int i = 0; moves && i < v->nmoves; i++) {
    xq__verdict_move_name(v->moves[i], mv);
    cJSON_AddItemToArray(moves, cJSON_CreateString(mv));
  }
  if (v->has_cls) {
    cJSON *cyc = cJSON_AddArrayToObject(o, "cycle");
    for (int i = 0; cyc && i < v->nmoves; i++) {
      cJSON *c = cJSON_CreateObject();
      xq__verdict_move_name(v->moves[i], mv);
      cJSON_AddStringToObject(c, "move", mv);
      cJSON_AddStringToObject(c, "side", side_name((v->first_side + i) & 1));
      cJSON_AddStringToObject(c, "class", cls_name(v->cls[i]));
      cJSON_AddItemToArray(cyc, c);
    }
  }
  cJSON *f = cJSON_AddObjectToObject(o, "fouls");
  if (f) {
    cJSON_AddNumberToObject(f, "red", v->fouls[0]);
    cJSON_AddNumberToObject(f, "black", v->fouls[1]);
  }
  cJSON_AddStringToObject(o, "result", xq_outcome_name(v->result));
  cJSON_AddBoolToObject(o, "changed", v->changed);
  cJSON_AddStringToObject(o, "zh", v->zh);
  cJSON_AddStringToObject(o, "en", v->en);
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return s;
}
