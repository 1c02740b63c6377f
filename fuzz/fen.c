/*
 * fen.c -- fuzz entry for FEN (fuzz.h): parse under every flag set,
 * validate, and check that formatting is a fixed point of parsing.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fuzz.h"

/* A formatted FEN must parse back (with the same flags) and format to the
 * same text: engine.h promises xq_fen_format output parses back. */
static void round_trip(const xq_pos *pos, int flags)
{
  char a[XQ_FEN_MAX], b[XQ_FEN_MAX];
  xq_pos back;
  if (xq_fen_format(pos, a, sizeof a) < 0) abort();
  if (xq_fen_parse(&back, a, flags, NULL) != XQ_OK) abort();
  if (xq_fen_format(&back, b, sizeof b) < 0 || strcmp(a, b)) abort();
  if (back.key != pos->key) abort();
}

int xq_fuzz_fen(const uint8_t *data, size_t size)
{
  if (size > XQ_FEN_INPUT_MAX + 16) return 0;
  char text[XQ_FEN_INPUT_MAX + 17];
  memcpy(text, data, size);
  text[size] = 0;
  static const int flag_sets[] = {0, XQ_FEN_LAX, XQ_FEN_ALLOW_GS, XQ_FEN_LAX | XQ_FEN_ALLOW_GS};
  for (size_t i = 0; i < sizeof flag_sets / sizeof flag_sets[0]; i++) {
    xq_pos pos;
    xq_error err;
    int rc = xq_fen_parse(&pos, text, flag_sets[i], &err);
    if (rc != XQ_OK) {
      if (rc != XQ_EFEN) abort(); /* the contract: XQ_EFEN for any bad text */
      continue;
    }
    int valid = xq_pos_validate(&pos, NULL) == XQ_OK;
    /* a strict parse only gives positions that pass validation */
    if (!(flag_sets[i] & XQ_FEN_LAX) && !valid) abort();
    round_trip(&pos, valid ? 0 : XQ_FEN_LAX);
    if (valid) {
      /* a legal position: its move list must be computable */
      xq_movelist ml;
      xq_gen_legal(&pos, &ml);
      if (ml.n < 0 || ml.n > XQ_MAX_MOVES) abort();
    }
  }
  return 0;
}
