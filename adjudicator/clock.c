/*
 * clock.c -- game clocks: base time plus increment, readings from a
 * physical clock, elapsed time, and the flag fall (超时判负; a move that
 * mates or stalemates stands over it: game.c).
 */
#include <stdio.h>

#include "game_internal.h"

void xq__clock_init(xq_game *g)
{
  const xq_rules *r = &g->rules;
  if (r->clock_base_s <= 0) {
    g->clock_ms[0] = g->clock_ms[1] = -1;
    return;
  }
  /* Armageddon gives Black less time (Xinjiang: Red 6 min, Black 4 min). */
  g->clock_ms[XQ_RED] = 1000L * r->clock_base_s;
  g->clock_ms[XQ_BLACK] = 1000L * (r->clock_base_black_s > 0 ? r->clock_base_black_s : r->clock_base_s);
}

void xq__clock_after_move(xq_game *g, int mover)
{
  if (g->clock_ms[mover] >= 0) g->clock_ms[mover] += 1000L * g->rules.clock_increment_s;
}

static void flag(xq_game *g, xq_verdict *v, int side)
{
  g->clock_ms[side] = 0;
  xq__verdict_end(g, v, XQ_VERDICT_LOSS, side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                  XQ_REASON_FLAG_FALL, side, "clock");
  snprintf(v->zh, sizeof v->zh, "%s超时，判负", xq__side_zh[side]);
  snprintf(v->en, sizeof v->en, "%s's flag fell: loses on time", xq__side_en[side]);
}

int xq_game_clock(xq_game *g, long red_ms, long black_ms, xq_verdict *v)
{
  /* a reading past the range would overflow the clock with the next
   * increment (a game log's "clock:9223372036854775807/1", then a move) */
  if (!g || !v || red_ms < -XQ_CLOCK_MS_MAX || red_ms > XQ_CLOCK_MS_MAX || black_ms < -XQ_CLOCK_MS_MAX ||
      black_ms > XQ_CLOCK_MS_MAX)
    return XQ_EINVAL;
  xq__verdict_begin(g, v, "clock");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  g->clock_ms[XQ_RED] = red_ms;
  g->clock_ms[XQ_BLACK] = black_ms;
  v->changed = 1;
  int stm = g->pos.side;
  /* The running clock is the side to move's: its flag is the one that
   * can fall first. */
  if (g->clock_ms[stm] <= 0)
    flag(g, v, stm);
  else if (g->clock_ms[!stm] <= 0)
    flag(g, v, !stm);
  else
    xq__verdict_explain(v, "计时：红方%ld.%03ld秒，黑方%ld.%03ld秒",
                        "clock: Red %ld.%03ld s, Black %ld.%03ld s", red_ms / 1000,
                        red_ms % 1000, black_ms / 1000, black_ms % 1000);
  return XQ_OK;
}

int xq_game_tick(xq_game *g, long elapsed_ms, xq_verdict *v)
{
  if (!g || !v || elapsed_ms < 0 || elapsed_ms > XQ_CLOCK_MS_MAX) return XQ_EINVAL;
  int stm = g->pos.side;
  if (g->clock_ms[stm] < 0) return XQ_EINVAL; /* the rules set no clock */
  xq__verdict_begin(g, v, "tick");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  g->clock_ms[stm] -= elapsed_ms;
  v->changed = 1;
  if (g->clock_ms[stm] <= 0) {
    flag(g, v, stm);
    return XQ_OK;
  }
  snprintf(v->zh, sizeof v->zh, "%s剩余%ld.%03ld秒", xq__side_zh[stm], g->clock_ms[stm] / 1000,
           g->clock_ms[stm] % 1000);
  snprintf(v->en, sizeof v->en, "%s has %ld.%03ld s left", xq__side_en[stm],
           g->clock_ms[stm] / 1000, g->clock_ms[stm] % 1000);
  return XQ_OK;
}
