/*
 * validate.c -- is a position one the rules allow (README.md, "FEN",
 * validation rules 3, 5, 8 and 9; rules 1, 2, 4, 6 and 7 are about the
 * text and belong to the FEN parser, with rule 4 also enforced by
 * xq_pos_put).
 */
#include <stdio.h>

#include "engine_internal.h"

static const char *const color_name[2] = {"Red", "Black"};
static const char *const kind_name[8] = {"?", "general", "advisor", "elephant",
                                         "horse", "rook", "cannon", "pawn"};

/* Record a validation failure; returns XQ_EFEN. The problem concerns the
 * whole position, not a byte of some text, so pos and ply are -1. */
#define invalid(err, ...) xq_error_set((err), XQ_EFEN, -1, -1, __VA_ARGS__)

/* Why a piece of `color` and `kind` cannot stand on `sq` (which
 * xq__tables_on_board_for has rejected), as the end of a sentence. */
static const char *why_unreachable(int kind, int color, int sq)
{
  int r = XQ_RANK(sq);
  int rr = color == XQ_RED ? r : 9 - r; /* rank from the owner's side */
  switch (kind) {
  case XQ_KING: return "is outside its palace";
  case XQ_ADVISOR: return "is off its palace points";
  case XQ_ELEPHANT:
    /* Elephants never cross the river (rr 5-9 is the enemy half). */
    return rr >= 5 ? "is across the river" : "is off its 7 points";
  case XQ_PAWN:
    if (rr <= 2) return "is behind its starting rank";
    return "is off files a, c, e, g, i before crossing the river";
  }
  return "is on an impossible point";
}

int xq_pos_validate(const xq_pos *pos, xq_error *err)
{
  if (!pos) {
    if (err) {
      err->code = XQ_EINVAL;
      err->pos = -1;
      err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "no position given");
    }
    return XQ_EINVAL;
  }
  if (pos->side != XQ_RED && pos->side != XQ_BLACK)
    return invalid(err, "side to move is neither Red nor Black");

  /* Rule 3: exactly one general each. The id layout allows at most one,
   * so "exactly" reduces to "present". */
  for (int c = 0; c < 2; c++)
    if (pos->sq[XQ__KING_PID(c)] == XQ_NO_SQ)
      return invalid(err, "%s has no general", color_name[c]);

  /* Rule 5: every piece on a point it could have reached. Ids go Red
   * first, then by kind, so the first problem reported is stable. */
  for (int pid = 0; pid < XQ_PIDS; pid++) {
    int sq = pos->sq[pid];
    if (sq == XQ_NO_SQ) continue;
    int c = XQ_PID_COLOR(pid), k = xq__pid_kind[pid];
    if (!xq__tables_on_board_for(k, c, sq))
      return invalid(err, "%s %s on %c%d %s", color_name[c], kind_name[k],
                     'a' + XQ_FILE(sq), XQ_RANK(sq),
                     why_unreachable(k, c, sq));
  }

  /* Rule 9: generals facing on an open file. Checked before rule 8
   * because the flying-general rule makes this a "check" of the side not
   * to move too, and this message says more. */
  int rk = pos->sq[XQ__KING_PID(XQ_RED)], bk = pos->sq[XQ__KING_PID(XQ_BLACK)];
  if (XQ_FILE(rk) == XQ_FILE(bk)) {
    unsigned between = xq__between10[XQ_RANK(rk)][XQ_RANK(bk)];
    if (!(xq__engine_file_bits(pos->occ_t, XQ_FILE(rk)) & between))
      return invalid(err, "the generals face each other on file %c",
                     'a' + XQ_FILE(rk));
  }

  /* Rule 8: the side not to move in check means the side to move could
   * capture a general -- the last move was illegal. */
  int idle = pos->side ^ 1;
  if (xq_in_check(pos, (xq_color)idle))
    return invalid(err, "%s (not to move) is in check", color_name[idle]);
  return XQ_OK;
}
