/*
 * event.c -- the event language: one game event as a short text token,
 * so that a game can be written down, stored and replayed exactly (the
 * judge command's --moves, the server's game log).
 */
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"

/* "red"/"black" suffix of a token such as "claim-red": the side, or
 * `dflt` when the token is the bare verb. Returns -2 for another text. */
static int side_suffix(const char *tok, const char *verb, int dflt)
{
  size_t n = strlen(verb);
  if (strncmp(tok, verb, n)) return -2;
  if (!tok[n]) return dflt;
  if (!strcmp(tok + n, "-red")) return XQ_RED;
  if (!strcmp(tok + n, "-black")) return XQ_BLACK;
  return -2;
}

static int parse_long(const char *s, char stop, long *out, const char **end)
{
  char *e;
  long v = strtol(s, &e, 10);
  if (e == s || *e != stop) return 0;
  *out = v;
  if (end) *end = e;
  return 1;
}

int xq_game_event(xq_game *g, const char *tok, xq_verdict *v, xq_error *err)
{
  if (!g || !tok || !v) return XQ_EINVAL;
  int stm = g->pos.side, side;
  if ((side = side_suffix(tok, "claim", stm)) >= 0) return xq_game_claim_natural(g, side, v);
  if ((side = side_suffix(tok, "repetition", stm)) >= 0) return xq_game_claim_repetition(g, side, v);
  if ((side = side_suffix(tok, "offer", stm)) >= 0) return xq_game_offer_draw(g, side, v);
  if ((side = side_suffix(tok, "resign", stm)) >= 0) return xq_game_resign(g, side, v);
  /* an answer comes from the side the standing offer was made to */
  int answerer = g->draw_offer_pending >= 0 ? !g->draw_offer_pending : !stm;
  if ((side = side_suffix(tok, "accept", answerer)) >= 0) return xq_game_answer_draw(g, side, 1, v);
  if ((side = side_suffix(tok, "decline", answerer)) >= 0) return xq_game_answer_draw(g, side, 0, v);
  if (!strcmp(tok, "foul-red")) return xq_game_arbiter_foul(g, XQ_RED, v);
  if (!strcmp(tok, "foul-black")) return xq_game_arbiter_foul(g, XQ_BLACK, v);
  if (!strcmp(tok, "release")) return xq_game_release(g, v);
  if (!strncmp(tok, "held:", 5)) return xq_game_move_text(g, tok + 5, XQ_MV_HELD, v, err);
  if (!strncmp(tok, "flag:", 5)) return xq_game_move_text(g, tok + 5, XQ_MV_FLAG_FELL, v, err);
  if (!strncmp(tok, "snap:", 5)) return xq_game_snapshot(g, tok + 5, v, err);
  if (!strncmp(tok, "lift:", 5)) {
    const char *s = tok + 5;
    if (s[0] < 'a' || s[0] > 'i' || s[1] < '0' || s[1] > '9' || s[2]) return XQ_EINVAL;
    return xq_game_lift(g, XQ_SQ(s[0] - 'a', s[1] - '0'), v);
  }
  if (!strncmp(tok, "clock:", 6)) {
    long r, b;
    const char *e;
    if (!parse_long(tok + 6, '/', &r, &e) || !parse_long(e + 1, 0, &b, NULL)) return XQ_EINVAL;
    return xq_game_clock(g, r, b, v);
  }
  if (!strncmp(tok, "tick:", 5)) {
    long ms;
    if (!parse_long(tok + 5, 0, &ms, NULL)) return XQ_EINVAL;
    return xq_game_tick(g, ms, v);
  }
  if (!strncmp(tok, "result:", 7)) {
    const char *r = tok + 7;
    xq_outcome o;
    if (!strcmp(r, "1-0")) o = XQ_OUT_RED_WINS;
    else if (!strcmp(r, "0-1")) o = XQ_OUT_BLACK_WINS;
    else if (!strcmp(r, "=") || !strcmp(r, "1/2-1/2")) o = XQ_OUT_DRAW;
    else if (!strcmp(r, "none") || !strcmp(r, "*")) o = XQ_OUT_NONE;
    else return XQ_EINVAL;
    return xq_game_arbiter_result(g, o, v);
  }
  return xq_game_move_text(g, tok, 0, v, err);
}
