/*
 * fen.c -- reading and writing FEN (README.md, "FEN").
 *
 * The parser walks the text once, byte by byte, and stops at the first
 * problem. It never looks past the terminator: every look-ahead is guarded
 * by the byte before it being non-NUL. Error messages name the problem;
 * err->pos gives the 0-based byte where it was found.
 */
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

/* Record a FEN error at byte `at`; returns XQ_EFEN. */
#define fen_fail(err, at, ...) xq_error_set((err), XQ_EFEN, (at), -1, __VA_ARGS__)

/* Field separators. CR and LF count so that a line read from a file with
 * its end-of-line still parses. */
static int is_space(int ch)
{
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* End of a field: a separator or the terminator. */
static int is_end(int ch)
{
  return ch == 0 || is_space(ch);
}

/* `ch` quoted for a message: 'x' when printable ASCII, byte 0xNN
 * otherwise. `buf` needs 12 bytes. */
static const char *show_byte(int ch, char *buf)
{
  if (ch > 0x20 && ch < 0x7F) snprintf(buf, 12, "'%c'", ch);
  else snprintf(buf, 12, "byte 0x%02X", ch & 0xFF);
  return buf;
}

/* Kind and colour of a FEN piece letter; XQ_NONE if it is not one. Only
 * ASCII letters reach the switch, so no other byte can alias one. */
static xq_kind letter_kind(int ch, int flags, xq_color *color)
{
  if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'))) return XQ_NONE;
  *color = ch >= 'a' ? XQ_BLACK : XQ_RED;
  switch (ch | 0x20) {
  case 'k': return XQ_KING;
  case 'a': return XQ_ADVISOR;
  case 'b': case 'e': return XQ_ELEPHANT; /* E: WXF / CXBoard */
  case 'n': case 'h': return XQ_HORSE;    /* H: WXF / CXBoard */
  case 'r': return XQ_ROOK;
  case 'c': return XQ_CANNON;
  case 'p': return XQ_PAWN;
  case 'g': return (flags & XQ_FEN_ALLOW_GS) ? XQ_KING : XQ_NONE;
  case 's': return (flags & XQ_FEN_ALLOW_GS) ? XQ_PAWN : XQ_NONE;
  }
  return XQ_NONE;
}

/* Field 1 into `pos` (cleared by the caller), starting at fen[*i]; leaves
 * *i on the byte that ended the field. */
static int parse_placement(xq_pos *pos, const char *fen, int *i, int flags,
                           xq_error *err)
{
  static const char *const names[8] = {"", "generals", "advisors", "elephants",
                                       "horses", "rooks", "cannons", "pawns"};
  static const int most[8] = {0, 1, 2, 2, 2, 2, 2, 5};
  int rank = 9, file = 0; /* rank 9 (Black's back rank) comes first */
  char b[12];

  for (;; (*i)++) {
    int at = *i, ch = (unsigned char)fen[at];
    if (is_end(ch)) break;
    if (ch == '/') {
      if (file != 9) return fen_fail(err, at, "rank %d has %d files, not 9", rank, file);
      if (rank == 0) return fen_fail(err, at, "more than 10 ranks");
      rank--;
      file = 0;
    } else if (ch == '0') {
      return fen_fail(err, at, "'0' is not a run of empty points (use 1-9)");
    } else if (ch >= '1' && ch <= '9') {
      file += ch - '0';
      if (file > 9) return fen_fail(err, at, "rank %d has more than 9 files", rank);
    } else {
      xq_color c = XQ_RED;
      xq_kind k = letter_kind(ch, flags, &c);
      if (k == XQ_NONE) {
        if ((ch | 0x20) == 'g' || (ch | 0x20) == 's')
          return fen_fail(err, at, "letter '%c' (%s) needs the G/S compatibility "
                          "option; the standard letter is '%c'", ch,
                          (ch | 0x20) == 'g' ? "general" : "soldier",
                          (ch | 0x20) == 'g' ? (ch == 'g' ? 'k' : 'K')
                                             : (ch == 's' ? 'p' : 'P'));
        return fen_fail(err, at, "invalid piece letter %s", show_byte(ch, b));
      }
      if (file >= 9) return fen_fail(err, at, "rank %d has more than 9 files", rank);
      /* Per-kind limits (rule 4) come from the id layout: xq_pos_put
       * refuses a piece once all ids of its kind are taken. */
      int rc = xq_pos_put(pos, XQ_SQ(file, rank), c, k);
      if (rc == XQ_ELIMIT)
        return fen_fail(err, at, "too many %s %s (at most %d)",
                        c == XQ_RED ? "Red" : "Black", names[k], most[k]);
      if (rc != XQ_OK) return fen_fail(err, at, "cannot place a piece here");
      file++;
    }
  }
  if (file != 9) return fen_fail(err, *i, "rank %d has %d files, not 9", rank, file);
  if (rank != 0) return fen_fail(err, *i, "only %d ranks, not 10", 10 - rank);
  return XQ_OK;
}

/* A move counter occupying fen[at..end): digits only, at most 65535.
 * Returns the value, or -1 after recording the error. */
static long parse_counter(const char *fen, int at, int end, xq_error *err)
{
  long v = 0;
  for (int j = at; j < end; j++) {
    int ch = (unsigned char)fen[j];
    if (ch < '0' || ch > '9') {
      fen_fail(err, j, "move counter must be a number from 0 to 65535");
      return -1;
    }
    v = v * 10 + (ch - '0');
    if (v > 65535) {
      fen_fail(err, at, "move counter must be a number from 0 to 65535");
      return -1;
    }
  }
  return v;
}

int xq_fen_parse(xq_pos *out, const char *fen, int flags, xq_error *err)
{
  xq_pos pos;
  int i = 0, rc;
  char b[12];

  if (!out || !fen) {
    if (err) {
      err->code = XQ_EINVAL;
      err->pos = -1;
      err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "no %s given", fen ? "position" : "FEN");
    }
    return XQ_EINVAL;
  }
  /* Bounds the work and makes every index below fit an int. */
  if (strnlen(fen, XQ_FEN_INPUT_MAX + 1) > XQ_FEN_INPUT_MAX)
    return fen_fail(err, XQ_FEN_INPUT_MAX, "FEN longer than %d bytes", XQ_FEN_INPUT_MAX);
  while (is_space((unsigned char)fen[i])) i++;
  if (!fen[i]) return fen_fail(err, i, "empty FEN");

  /* Field 1: placement. */
  xq_pos_clear(&pos);
  rc = parse_placement(&pos, fen, &i, flags, err);
  if (rc != XQ_OK) return rc;

  /* Field 2: side to move, w or b; r (xiangqi.js, CXBoard) also means
   * Red. Required: a placement alone does not say who moves. */
  while (is_space((unsigned char)fen[i])) i++;
  if (!fen[i]) return fen_fail(err, i, "missing side to move ('w' or 'b')");
  {
    int ch = (unsigned char)fen[i];
    if (ch == 'w' || ch == 'r') pos.side = XQ_RED;
    else if (ch == 'b') pos.side = XQ_BLACK;
    else return fen_fail(err, i, "side to move must be 'w', 'b' or 'r', not %s",
                         show_byte(ch, b));
    i++;
    if (!is_end((unsigned char)fen[i]))
      return fen_fail(err, i, "side to move must be one letter");
  }
  if (pos.side == XQ_BLACK) pos.key ^= xq__zobrist_side;

  /* Fields 3-6: castling and en passant (always '-'), halfmove and
   * fullmove, any trailing part of them missing. CXBoard's three-field
   * form has the move number right after the side. */
  int dashes = 0, nums = 0;
  long val[2] = {0, 0};
  for (;;) {
    while (is_space((unsigned char)fen[i])) i++;
    if (!fen[i]) break;
    int at = i;
    while (!is_end((unsigned char)fen[i])) i++;
    int ch = (unsigned char)fen[at];
    if (ch == '-' && i == at + 1) {
      if (nums) return fen_fail(err, at, "'-' after a move counter");
      if (dashes == 2) return fen_fail(err, at, "more than two '-' fields");
      dashes++;
    } else if (nums == 2) {
      return fen_fail(err, at, "unexpected text after the move counters");
    } else if (dashes == 1) {
      return fen_fail(err, at, "en passant field must be '-'");
    } else if ((ch >= '0' && ch <= '9') || ch == '-' || ch == '+') {
      long v = parse_counter(fen, at, i, err);
      if (v < 0) return XQ_EFEN;
      val[nums++] = v;
    } else {
      return fen_fail(err, at, "expected '-' or a move counter, not %s",
                      show_byte(ch, b));
    }
  }
  if (nums == 2) {
    pos.halfmove = (uint16_t)val[0];
    pos.fullmove = (uint16_t)val[1];
  } else if (nums == 1 && dashes == 2) {
    pos.halfmove = (uint16_t)val[0]; /* "- - 12": fullmove missing */
  } else if (nums == 1) {
    pos.fullmove = (uint16_t)val[0]; /* CXBoard "r 1" */
  }
  if (pos.fullmove == 0) pos.fullmove = 1; /* as Pikafish: a common slip */

  if (!(flags & XQ_FEN_LAX)) {
    rc = xq_pos_validate(&pos, err);
    if (rc != XQ_OK) return rc;
  }
  *out = pos;
  return XQ_OK;
}

int xq_fen_format(const xq_pos *pos, char *buf, size_t len)
{
  static const char letters[8] = {'?', 'k', 'a', 'b', 'n', 'r', 'c', 'p'};
  /* Longest: 90 points + 9 slashes + " b - - 65535 65535" < XQ_FEN_MAX. */
  char tmp[XQ_FEN_MAX];
  int n = 0;

  if (!pos || !buf) return XQ_EINVAL;
  for (int r = 9; r >= 0; r--) {
    int empty = 0;
    for (int f = 0; f < 9; f++) {
      xq_color c;
      xq_kind k = xq_piece_at(pos, XQ_SQ(f, r), &c);
      if (k == XQ_NONE) {
        empty++;
        continue;
      }
      if (empty) tmp[n++] = (char)('0' + empty);
      empty = 0;
      tmp[n++] = (char)(c == XQ_RED ? letters[k] - 32 : letters[k]);
    }
    if (empty) tmp[n++] = (char)('0' + empty);
    if (r) tmp[n++] = '/';
  }
  n += snprintf(tmp + n, sizeof tmp - (size_t)n, " %c - - %u %u",
                pos->side == XQ_RED ? 'w' : 'b', pos->halfmove, pos->fullmove);
  if ((size_t)n >= len) return XQ_EINVAL;
  memcpy(buf, tmp, (size_t)n + 1);
  return n;
}
