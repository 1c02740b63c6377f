/*
 * notation.h -- internals shared by the move-notation files (notation.c,
 * iccs.c, wxf.c, chinese.c). Not for use outside engine/.
 *
 * WXF and Chinese are parsed the way README.md, "Move notations" prescribes: normalise
 * the input, then print every legal move and compare. Each printer can
 * also produce the other ways a move may be written, each with a tier:
 *   0  the canonical printed form;
 *   1  an exact spelling in another dialect or family (keypad piece codes,
 *      xqbase pawn positions, traditional 前/二/三/四/后, 前兵四平五);
 *   2  a loose spelling that leaves the choice to legality (a tandem piece
 *      written with its plain file number, 前兵 with two doubled files).
 * Matches in a lower tier win, so a looser reading can never make a
 * stricter text ambiguous; several matches within the best tier are.
 */
#ifndef XQ_ENGINE_NOTATION_H
#define XQ_ENGINE_NOTATION_H

#include "engine_internal.h"

/* ---- how a move looks on the vertical-line grid ------------------ */

/* Direction of a move seen from the mover. */
enum { XQ__SIDEWAYS = 0, XQ__FORWARD = 1, XQ__BACKWARD = 2 };

/* The vertical-line description shared by WXF and Chinese (README.md, "Move notations"):
 * everything but the piece-identification part. */
typedef struct xq__vline {
  int kind;     /* xq_kind of the moving piece */
  int color;    /* its colour */
  int file;     /* file it stands on, 1..9 from the mover's right */
  int dir;      /* XQ__SIDEWAYS / XQ__FORWARD / XQ__BACKWARD */
  int value;    /* destination file (sideways, and H/A/E) or steps */
} xq__vline;

/* How the moving piece is told apart from others of its kind and colour
 * standing on its file. */
typedef struct xq__tandem {
  int n;          /* pieces of the kind and colour on the file, mover included */
  int idx;        /* the mover's place among them, 0 = front (nearest the enemy) */
  int pawn_files; /* pawns only: files holding two or more of the colour's pawns */
  int series;     /* pawns on one of two such files: 0-based place in xqbase's
                     series (right to left from the mover, then front to back);
                     -1 otherwise */
} xq__tandem;

/* Mover's file number (1..9) of board file x (0..8) for `color`. */
static inline int xq__notation_vfile(int color, int x)
{
  return color == XQ_RED ? 9 - x : x + 1;
}

/* Describe move `m` (from a piece of the side to move) of `pos`. */
void xq__notation_vline_of(const xq_pos *pos, xq_move m, xq__vline *v);

/* Find how the piece on `sq` is told apart from its twins (see above). */
void xq__notation_tandem_of(const xq_pos *pos, int sq, xq__tandem *t);

/* ---- matching ---------------------------------------------------- */

/* One way of writing the identification part of a move, normalised. */
typedef struct xq__alt {
  char s[XQ__PREFIX_LEN];
  int tier; /* 0 canonical, 1 exact alternative, 2 loose */
} xq__alt;

/* Fills alts[] (room for XQ__ALTS_MAX) with the normalised prefixes under
 * which legal move `m`, described by `v`, may be written; returns how many. */
typedef int (*xq__alts_fn)(const xq_pos *pos, xq_move m, const xq__vline *v,
                           xq__alt *alts);

/* Result of matching a normalised text against every legal move. */
typedef struct xq__matches {
  int n;          /* matching moves in the best tier that matched */
  xq_move m[2];   /* the first two of them */
} xq__matches;

/* Print every legal move of `pos` with `fn` and keep those whose direction
 * is `dir`, value is `value` and one of whose prefixes equals `prefix`.
 * Only the best tier that matched counts. Cannot fail. */
void xq__notation_match(const xq_pos *pos, const char *prefix, int dir, int value,
                        xq__alts_fn fn, xq__matches *out);

/* ---- errors ------------------------------------------------------ */

/* Fill `err` (may be NULL) with `code`, byte position `at` (-1: the whole
 * input), ply -1 and a printf-style message; returns `code`. */
#define xq__notation_fail(err, code, at, ...) xq_error_set((err), (code), (at), -1, __VA_ARGS__)

/* Fill `err` for a text `q` (quoted) that matches no legal move, saying
 * whether the side to move has a `kind` on `file` (1..9 from its right) at
 * all; kind or file 0 when the text names none. Returns XQ_EILLEGAL. */
int xq__notation_explain_illegal(const xq_pos *pos, const char *q, int kind, int file, int base,
                                 xq_error *err);

/* Copy `len` bytes of `text` into `out` (`cap` bytes) for quoting in a
 * message: printable ASCII and well-formed UTF-8 kept, other bytes shown
 * as '?', long texts cut with "...". Always terminates `out`. */
void xq__notation_quote(const char *text, size_t len, char *out, size_t cap);

/* Name of `color` ("Red"/"Black") and English name of `kind` ("cannon"). */
const char *xq__notation_color_name(int color);
const char *xq__notation_kind_name(int kind);

/* ---- the notations ----------------------------------------------- */

/* Each printer writes the move (legal in `pos`) into `out`, which has room
 * for XQ_MOVE_TEXT_MAX bytes, and returns the length. Cannot fail. */
int xq__iccs_format(const xq_pos *pos, xq_move m, int pgn, char *out);
int xq__wxf_format(const xq_pos *pos, xq_move m, char *out);
int xq__chinese_format(const xq_pos *pos, xq_move m, char *out);

/* Each parser reads `len` bytes of `text` (already trimmed of surrounding
 * blanks, at most XQ__MOVE_INPUT_MAX, no NUL inside); `base` is the offset
 * of text[0] in the caller's string, for error positions. Returns XQ_OK
 * with *m set, or XQ_ENOTATION / XQ_EILLEGAL / XQ_EAMBIGUOUS with `err`
 * (may be NULL) filled. */
int xq__iccs_parse(const xq_pos *pos, const char *text, size_t len, int base,
                   xq_move *m, xq_error *err);
int xq__wxf_parse(const xq_pos *pos, const char *text, size_t len, int base,
                  xq_move *m, xq_error *err);
int xq__chinese_parse(const xq_pos *pos, const char *text, size_t len,
                      int base, xq_move *m, xq_error *err);

#endif /* XQ_ENGINE_NOTATION_H */
