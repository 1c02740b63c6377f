/*
 * notation.c -- fuzz entries for the move notations (fuzz.h): ICCS, WXF
 * and Chinese text parsed against a few fixed positions; a move that
 * parses must print and parse back to itself.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fuzz.h"

#define TEXT_MAX 256 /* longer move text is not tried */

/* Positions with what the notations must tell apart: the start, a
 * middlegame, doubled pawns and pieces on one file (WXF +/-, Chinese
 * 前/后/中), and a Black-to-move endgame. */
static const char *const fens[] = {
  XQ_START_FEN,
  "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P3P2/P3P3P/1CN1C1N2/9/R1BAKAB1R b - - 4 5",
  "3k5/4P4/4P4/4P4/9/2P1P4/9/4R4/4R4/4K4 w - - 0 1",
  "3ak4/4a4/4b4/2p1p1p2/4p4/9/9/9/9/4K4 b - - 0 1",
  "2bak4/4a4/4b2R1/p3p4/2r6/2P6/P3P3R/4B4/4A4/2BAK4 w - - 0 1",
};
#define NFENS (sizeof fens / sizeof fens[0])

static int fuzz_notation(const uint8_t *data, size_t size, xq_notation note)
{
  if (size < 1 || size > TEXT_MAX) return 0;
  static xq_pos pos[NFENS];
  static int ready;
  if (!ready) {
    for (size_t i = 0; i < NFENS; i++)
      if (xq_fen_parse(&pos[i], fens[i], 0, NULL) != XQ_OK) abort();
    ready = 1;
  }
  const xq_pos *p = &pos[data[0] % NFENS];
  char text[TEXT_MAX + 1];
  memcpy(text, data + 1, size - 1);
  text[size - 1] = 0;
  xq_move m;
  xq_error err;
  int rc = xq_move_parse(p, text, note, &m, &err);
  if (rc == XQ_OK) {
    if (!xq_is_legal(p, m)) abort();
    char out[XQ_MOVE_TEXT_MAX];
    if (xq_move_format(p, m, note, out, sizeof out) <= 0) abort();
    xq_move back;
    if (xq_move_parse(p, out, note, &back, NULL) != XQ_OK || back != m) abort();
  } else if (rc != XQ_ENOTATION && rc != XQ_EILLEGAL && rc != XQ_EAMBIGUOUS) {
    abort();
  }
  /* the any-notation parser must agree with itself on success too */
  if (xq_move_parse_any(p, text, &m, NULL) == XQ_OK && !xq_is_legal(p, m)) abort();
  return 0;
}

int xq_fuzz_iccs(const uint8_t *data, size_t size) { return fuzz_notation(data, size, XQ_NOTE_ICCS); }
int xq_fuzz_wxf(const uint8_t *data, size_t size) { return fuzz_notation(data, size, XQ_NOTE_WXF); }
int xq_fuzz_chinese(const uint8_t *data, size_t size) { return fuzz_notation(data, size, XQ_NOTE_CHINESE); }
