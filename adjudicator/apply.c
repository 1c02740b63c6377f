/*
 * apply.c -- events into the game: each typed event to the state
 * machine call that judges it, the lists of one request or one game-log
 * row, and the cheap test that tells a caller which events may search.
 */
#include <string.h>

#include "game_internal.h"

int xq_game_apply_one(xq_game *g, const xq_event *ev, xq_verdict *v, xq_error *err)
{
  if (!g || !ev || !v) return XQ_EINVAL;
  /* an implied side: the side to move, or for an answer the side the
   * standing offer was made to */
  int side = ev->side != XQ_SIDE_IMPLIED ? ev->side : g->pos.side;
  int answerer = ev->side != XQ_SIDE_IMPLIED ? ev->side
                 : g->draw_offer_pending >= 0 ? !g->draw_offer_pending : !g->pos.side;
  switch (ev->kind) {
  case XQ_EVENT_MOVE: return xq_game_move_text(g, ev->text, ev->flags, v, err);
  case XQ_EVENT_SNAPSHOT: return xq_game_snapshot(g, ev->text, v, err);
  case XQ_EVENT_LIFT: return xq_game_lift(g, ev->square, v);
  case XQ_EVENT_RELEASE: return xq_game_release(g, v);
  case XQ_EVENT_CLOCK: return xq_game_clock(g, ev->ms[0], ev->ms[1], v);
  case XQ_EVENT_TICK: return xq_game_tick(g, ev->ms[0], v);
  case XQ_EVENT_CLAIM_NATURAL: return xq_game_claim_natural(g, side, v);
  case XQ_EVENT_CLAIM_REPETITION: return xq_game_claim_repetition(g, side, v);
  case XQ_EVENT_OFFER: return xq_game_offer_draw(g, side, v);
  case XQ_EVENT_ACCEPT: return xq_game_answer_draw(g, answerer, 1, v);
  case XQ_EVENT_DECLINE: return xq_game_answer_draw(g, answerer, 0, v);
  case XQ_EVENT_RESIGN: return xq_game_resign(g, side, v);
  case XQ_EVENT_FOUL: return xq_game_arbiter_foul(g, ev->side, v);
  case XQ_EVENT_RESULT: return xq_game_arbiter_result(g, ev->result, v);
  case XQ_EVENT_PAUSE: return xq_game_pause(g, 1, v);
  case XQ_EVENT_RESUME: return xq_game_pause(g, 0, v);
  case XQ_EVENT_TRUNCATE: return xq_game_truncate(g, ev->plies, v, err);
  }
  return XQ_EINVAL;
}

int xq_game_apply(xq_game *g, const xq_event *ev, int n, xq_verdict *v, xq_error *err)
{
  if (!g || !ev || !v || n < 1) return XQ_EINVAL;
  xq_verdict tmp;
  for (int i = 0; i < n; i++) {
    int rc = xq_game_apply_one(g, &ev[i], &tmp, err);
    if (rc != XQ_OK) return rc;
    /* the verdict that matters: the first that is not a plain acceptance */
    if (!i || (v->kind == XQ_VERDICT_ACCEPTED && tmp.kind != XQ_VERDICT_ACCEPTED)) *v = tmp;
  }
  return XQ_OK;
}

int xq_game_event(xq_game *g, const char *tok, xq_verdict *v, xq_error *err)
{
  if (!g || !tok || !v) return XQ_EINVAL;
  xq_event ev;
  int rc = xq_event_parse(tok, strlen(tok), &ev, err);
  return rc == XQ_OK ? xq_game_apply_one(g, &ev, v, err) : rc;
}

/* True when playing `m` leads to a position the game may have seen since
 * repetitions count. */
static int may_repeat(const xq_game *g, xq_move m)
{
  xq_pos p = g->pos;
  xq_undo u;
  xq_make(&p, m, &u);
  return g->key_filter[p.key & 255] != 0;
}

static int any_move_may_repeat(const xq_game *g)
{
  xq_movelist ml;
  xq_gen_legal(&g->pos, &ml);
  for (int i = 0; i < ml.n; i++)
    if (may_repeat(g, ml.m[i])) return 1;
  return 0;
}

int xq_game_may_search(xq_game *g, const xq_event *ev, int n)
{
  if (!g || !ev) return 0;
  for (int i = 0; i < n; i++) {
    xq_move m;
    switch (ev[i].kind) {
    case XQ_EVENT_CLAIM_NATURAL:
    case XQ_EVENT_CLAIM_REPETITION: return 1;
    case XQ_EVENT_SNAPSHOT:
      /* the move is not known yet: any legal move that may repeat */
      if (any_move_may_repeat(g)) return 1;
      break;
    case XQ_EVENT_RELEASE:
      if (g->held != XQ_MOVE_NONE && may_repeat(g, g->held)) return 1;
      break;
    case XQ_EVENT_MOVE:
      /* read once: xq_game_move_text takes the move from g->read_ahead */
      if (xq__game_read_ahead(g, ev[i].text, &m) == XQ_OK && may_repeat(g, m)) return 1;
      break;
    default: break;
    }
  }
  return 0;
}
