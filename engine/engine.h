/*
 * engine.h -- public interface of the xqref engine: board, moves, legal
 * move generation, FEN and move notations.
 *
 * Geometry (README.md, "Using xqref"): files a..i are 0..8 from Red's left, ranks 0..9
 * from Red's back rank. A square is rank * 9 + file (a0 = 0, i9 = 89).
 * Red moves "up" (+rank), Black "down".
 *
 * Nothing here allocates; every object is a plain struct the caller owns.
 * Functions return XQ_OK (0) or a negative XQ_E* code.
 */
#ifndef XQ_ENGINE_H
#define XQ_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

/* Bytes of an error message (xq_error.msg), terminator included: a
 * sentence around a quoted input, which is cut to 48 bytes. */
#define XQ_ERR_MSG_LEN 160

/* Legal moves of one position (xq_movelist): above the most the pieces
 * can ever have together (rooks and cannons 17 each, horses 8, pawns 3,
 * elephants 4 + 2, advisors 4 + 1, the general 4: 114). */
#define XQ_MAX_MOVES 128

/* Bytes of a printed FEN, terminator included: the longest (10 ranks of
 * 9 letters and their slashes, the side, "- -" and two 5-digit counters)
 * takes 118. */
#define XQ_FEN_MAX 128

/* Bytes of FEN text read: four times the longest printed, for the blanks
 * and variants people write; longer text is refused unread. */
#define XQ_FEN_INPUT_MAX 512

/* Bytes of a printed move, terminator included: the longest is Chinese,
 * five glyphs of three bytes (前兵四平五: 16 with the terminator). */
#define XQ_MOVE_TEXT_MAX 32

/* ------------------------------------------------------------------ */
/* Process start                                                       */
/* ------------------------------------------------------------------ */

/* Build the engine's tables: the attack tables of every piece (sliders'
 * lines, horses' legs, elephants' eyes, palace and pawn steps) and the
 * Zobrist keys (engine/tables.c). Call it once at process start, before
 * any other engine call and so before any call into a library built on
 * the engine: cli/main.c, the test harness (tests/support.c) and the fuzz
 * targets (fuzz/main.c) do. Idempotent and thread-safe (pthread_once): a
 * later or concurrent call returns once the tables are built. Cannot
 * fail. Engine calls made before it work on empty tables; in the trees
 * built with XQ_CHECKS (the sanitizer, fuzz and Debug trees) setting up a
 * position (xq_pos_put, and so xq_pos_startpos and xq_fen_parse) aborts
 * with a message instead. */
void xq_engine_init(void);

/* ------------------------------------------------------------------ */
/* Status codes and the caller-owned error record                      */
/* ------------------------------------------------------------------ */

enum {
  XQ_OK = 0,
  XQ_EINVAL = -1,     /* bad argument (NULL pointer, out-of-range value) */
  XQ_EFEN = -2,       /* FEN malformed or describes an impossible position */
  XQ_EILLEGAL = -3,   /* well-formed move that is not legal here */
  XQ_EAMBIGUOUS = -4, /* move text that matches more than one legal move */
  XQ_ENOTATION = -5,  /* move text that is not a move in the notation */
  XQ_ENOMEM = -6,
  XQ_EIO = -7,
  XQ_ELIMIT = -8,     /* a named limit was exceeded */
  /* the modules above the engine return these too; every module's codes
   * are here, so that one xq_strerror knows them all */
  XQ_ENOPAIRING = -20, /* tourney: no pairing satisfies the absolute constraints */
  XQ_ESTORE = -21      /* tourney: the SQLite store failed or is not an event */
};

/* Filled by parsers on failure: the code, the 0-based byte position in the
 * input where the problem was found (-1 when it concerns the whole input),
 * the ply when parsing a game (-1 otherwise) and a one-line message. */
typedef struct xq_error {
  int code;
  int pos;
  int ply;
  char msg[XQ_ERR_MSG_LEN];
} xq_error;

/* Text of any status code of any module ("illegal move", "event store
 * error", ...). Never NULL. */
const char *xq_strerror(int code);

/* Fill *err, when err is not NULL, with `code`, byte position `pos` and
 * ply `ply` (-1 where they do not apply) and the printf-formatted message
 * (cut to XQ_ERR_MSG_LEN); returns `code`, so that a failing function can
 * end with `return xq_error_set(err, ...)`. Every module records its
 * errors through it. */
int xq_error_set(xq_error *err, int code, int pos, int ply, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The next value of the splitmix64 stream whose state is *state (which
 * it advances; any value is a valid seed): the same fixed sequence on
 * every machine, behind every choice that must repeat (Zobrist keys,
 * lots, simulated events, load generation). Cannot fail; keeps no state
 * of its own, so separate streams may run on separate threads. Not for
 * secrets (engine/random.c). */
uint64_t xq_random_next(uint64_t *state);

/* ------------------------------------------------------------------ */
/* Numbers read as doubles (engine/number.c)                           */
/* ------------------------------------------------------------------ */

/* Converting a double to an integer type that cannot hold its value (or
 * a NaN) is undefined behaviour in C: every double that becomes an
 * integer goes through one of these two, which compare before they
 * convert. `lo` and `hi` are the bounds the caller accepts (whole numbers;
 * whatever they say, a value outside the range of long long is refused).
 * `out` may be NULL (a check only). Neither can fail otherwise. */

/* True (1) when `v` is a whole number from `lo` to `hi` (finite, no
 * fraction: a JSON field, a count read as text), with *out set to it;
 * false (0), *out untouched, for a NaN, an infinity, a fraction or a
 * value outside lo..hi. */
int xq_whole_number(double v, double lo, double hi, long long *out);

/* True (1) when `v` is finite and from `lo` to `hi`, with *out set to
 * its whole part (the fraction dropped, toward zero: milliseconds of a
 * fractional count of seconds); false (0), *out untouched, otherwise. */
int xq_whole_part(double v, double lo, double hi, long long *out);

/* ------------------------------------------------------------------ */
/* Basic types                                                         */
/* ------------------------------------------------------------------ */

#define XQ_FILES 9
#define XQ_RANKS 10
#define XQ_SQUARES 90
#define XQ_NO_SQ 0xFF

#define XQ_SQ(file, rank) ((rank) * 9 + (file))
#define XQ_FILE(sq) ((sq) % 9)
#define XQ_RANK(sq) ((sq) / 9)

typedef enum { XQ_RED = 0, XQ_BLACK = 1 } xq_color;

/* Piece kinds, in the order of the FEN letters K A B N R C P. */
typedef enum {
  XQ_NONE = 0,
  XQ_KING = 1,     /* 帅/将 */
  XQ_ADVISOR = 2,  /* 仕/士 */
  XQ_ELEPHANT = 3, /* 相/象 */
  XQ_HORSE = 4,    /* 马 */
  XQ_ROOK = 5,     /* 车 */
  XQ_CANNON = 6,   /* 炮 */
  XQ_PAWN = 7      /* 兵/卒 */
} xq_kind;

/* Stable piece identity: 0..15 Red, 16..31 Black. Within a colour the ids
 * are grouped by kind: 0 king, 1-2 advisors, 3-4 elephants, 5-6 horses,
 * 7-8 rooks, 9-10 cannons, 11-15 pawns. An id keeps its meaning for the
 * whole game: a piece is the same id before and after it moves, which lets
 * the adjudicator follow a chased piece. XQ_NO_PID marks an empty square. */
#define XQ_PIDS 32
#define XQ_NO_PID 0xFF
#define XQ_PID_COLOR(pid) ((pid) >> 4)

/* A move: from-square in bits 0-6, to-square in bits 7-13. 0 is no move
 * (a move never has from == to). */
typedef uint16_t xq_move;
#define XQ_MOVE_NONE ((xq_move)0)
#define XQ_MOVE(from, to) ((xq_move)((from) | ((to) << 7)))
#define XQ_FROM(m) ((int)((m) & 0x7F))
#define XQ_TO(m) ((int)(((m) >> 7) & 0x7F))

/* The 90-square bitboard: bit sq of a 128-bit integer. */
typedef unsigned __int128 xq_bb;

typedef struct xq_movelist {
  int n;
  xq_move m[XQ_MAX_MOVES];
} xq_movelist;

/* ------------------------------------------------------------------ */
/* Position                                                            */
/* ------------------------------------------------------------------ */

/* The board. Fields are public for speed and for the adjudicator, but
 * only the engine writes them: change a position through xq_pos_* calls,
 * xq_make and xq_unmake so the redundant views stay consistent.
 *
 *   occ      all pieces, bit sq (rank-major)
 *   occ_t    all pieces, file-major: bit file*10+rank (a rank of occ and a
 *            file of occ_t are each one shift and mask away)
 *   color    pieces of each colour (rank-major), color_t file-major
 *   kind     pieces of each colour and kind (rank-major)              */
typedef struct xq_pos {
  xq_bb occ;
  xq_bb occ_t;
  xq_bb color[2];
  xq_bb color_t[2];
  xq_bb kind[2][8];
  uint64_t key;            /* Zobrist key of placement + side to move */
  uint8_t board[XQ_SQUARES];  /* piece id on each square, or XQ_NO_PID */
  uint8_t sq[XQ_PIDS];     /* square of each piece id, XQ_NO_SQ if off board */
  uint8_t side;            /* xq_color to move */
  uint16_t halfmove;       /* plies since the last capture */
  uint16_t fullmove;       /* move number, starts at 1, +1 after Black moves */
} xq_pos;

/* What xq_make saves for xq_unmake. */
typedef struct xq_undo {
  uint64_t key;
  uint16_t halfmove;
  uint8_t captured;        /* piece id taken, or XQ_NO_PID */
} xq_undo;

/* Kind of piece id `pid` (fixed by the id layout). */
xq_kind xq_pid_kind(int pid);

/* Piece on `sq`: XQ_NONE for an empty square; colour via *color if
 * non-NULL. `sq` must be 0..89. */
xq_kind xq_piece_at(const xq_pos *pos, int sq, xq_color *color);

/* Empty the board: no pieces, Red to move, counters 0 and 1. */
void xq_pos_clear(xq_pos *pos);

/* Put a piece of `color` and `kind` on empty square `sq`, taking the next
 * free id of that kind. Returns XQ_OK, XQ_EINVAL for a bad argument or an
 * occupied square, or XQ_ELIMIT when the colour already has all the ids of
 * that kind (1 king, 2 advisors/elephants/horses/rooks/cannons, 5 pawns).
 * Placement rules (palace, river) are checked by xq_pos_validate. */
int xq_pos_put(xq_pos *pos, int sq, xq_color color, xq_kind kind);

/* Check that `pos` is a position the rules allow (README.md, "FEN"
 * validation 3, 5, 8, 9: one general each, pieces on reachable points,
 * generals not facing on an open file, side not to move not in check;
 * rule 4 is enforced by xq_pos_put). Returns XQ_OK, XQ_EINVAL for a NULL
 * `pos`, or XQ_EFEN with `err` (may be NULL; pos and ply -1) naming the
 * first problem, e.g. "Red advisor on e0 is off its palace points". */
int xq_pos_validate(const xq_pos *pos, xq_error *err);

/* Set up the standard start position. Cannot fail. */
void xq_pos_startpos(xq_pos *pos);

/* The key of `pos` computed from scratch (tests compare it with the
 * incrementally maintained pos->key). */
uint64_t xq_pos_key_full(const xq_pos *pos);

/* Play `m`, which must be legal (or at least pseudo-legal: the moving
 * piece belongs to the side to move and does not capture its own), and
 * record what is needed to take it back in `u`. Cannot fail. */
void xq_make(xq_pos *pos, xq_move m, xq_undo *u);

/* Take back `m`, the last move made with xq_make, using its `u`. */
void xq_unmake(xq_pos *pos, xq_move m, const xq_undo *u);

/* ------------------------------------------------------------------ */
/* Attacks, checks and legal moves                                     */
/* ------------------------------------------------------------------ */

/* True when the general of `color` is attacked (including by the facing
 * enemy general: the flying-general rule). */
int xq_in_check(const xq_pos *pos, xq_color color);

/* True when `sq` is attacked by a piece of `by` in `pos`. A piece on `sq`
 * itself is treated as a target; the enemy general counts as attacking
 * along an open file. */
int xq_attacked(const xq_pos *pos, int sq, xq_color by);

/* Points the piece standing on `sq` could capture on, by its own rules
 * and ignoring its general's safety, pieces of its own colour included (it
 * "defends" them). For a cannon these are the first pieces past exactly
 * one screen, not its quiet moves; a pawn's and the general's are their
 * ordinary steps. 0 for an empty square or a bad `sq`. */
xq_bb xq_attacks_from(const xq_pos *pos, int sq);

/* Fill `list` with every legal move of the side to move. Order is fixed
 * for a given position (piece by piece, ids ascending). Cannot fail. */
void xq_gen_legal(const xq_pos *pos, xq_movelist *list);

/* Number of legal moves of the side to move, computed without listing
 * them where the position allows (perft leaves). Equals
 * xq_gen_legal(...)->n. */
int xq_count_legal(const xq_pos *pos);

/* True when `m` is a legal move in `pos` (any 16-bit value is accepted). */
int xq_is_legal(const xq_pos *pos, xq_move m);

/* True when `m` moves a piece of the side to move by that piece's own
 * rules (R1) -- ignoring whether its general is left attacked or
 * facing the other. A pseudo-legal move that is not legal is 自杀 (R2);
 * any other illegal move breaks the rules of movement. Any 16-bit value is
 * accepted. */
int xq_is_pseudo_legal(const xq_pos *pos, xq_move m);

/* True when legal move `m` would put the opponent in check. */
int xq_gives_check(const xq_pos *pos, xq_move m);

/* ------------------------------------------------------------------ */
/* FEN (README.md, "FEN")                                                 */
/* ------------------------------------------------------------------ */

/* FEN parsing options. */
enum {
  XQ_FEN_LAX = 1 << 0,       /* skip xq_pos_validate (analysis positions) */
  XQ_FEN_ALLOW_GS = 1 << 1   /* accept G (general) and S (soldier) letters */
};

/* Parse `fen` (NUL-terminated) into `pos`. Accepts the variants of
 * README.md, "FEN": H/E letters for horse/elephant, side `r` for Red, missing
 * trailing fields 3-6, and CXBoard's three fields (`... r 1`: side, then
 * the move number). G/S letters only with XQ_FEN_ALLOW_GS. Fields are
 * separated by spaces or tabs (CR/LF count as spaces); the side to move is
 * required. A missing halfmove counter is 0, a missing or 0 fullmove 1.
 * Unless XQ_FEN_LAX, the position must also pass xq_pos_validate.
 * `pos` is written only on success. Returns XQ_OK; XQ_EINVAL for a NULL
 * `pos` or `fen`; XQ_EFEN for anything else, with `err` (may be NULL)
 * holding the 0-based byte position of the problem (-1 when it is the
 * position as a whole) and a message naming it. Reads nothing past the
 * terminator and at most XQ_FEN_INPUT_MAX + 1 bytes: longer text is
 * rejected. Never allocates. */
int xq_fen_parse(xq_pos *pos, const char *fen, int flags, xq_error *err);

/* Write the FEN of `pos` (KABNRCP letters, `w`/`b`, `- -`, halfmove and
 * fullmove) into `buf` of `len` bytes, NUL-terminated. Returns the length
 * written (terminator excluded), or XQ_EINVAL for a NULL argument or a
 * `len` too small, leaving `buf` untouched (XQ_FEN_MAX always suffices).
 * The result parses back to the same position. */
int xq_fen_format(const xq_pos *pos, char *buf, size_t len);

#define XQ_START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

/* ------------------------------------------------------------------ */
/* Move notations (README.md, "Move notations")                                    */
/* ------------------------------------------------------------------ */

typedef enum {
  XQ_NOTE_ICCS = 0,   /* h2e2, ranks 0-9 (UCCI); printing gives lower case */
  XQ_NOTE_ICCS_PGN,   /* H2-E2 (xqbase PGN); parses like XQ_NOTE_ICCS */
  XQ_NOTE_WXF,        /* C2.5 */
  XQ_NOTE_CHINESE     /* 炮二平五, UTF-8 */
} xq_notation;

/* Print legal move `m` of `pos` in `notation` into `buf` (`len` bytes,
 * XQ_MOVE_TEXT_MAX always suffices). Returns the length, or XQ_EINVAL. */
int xq_move_format(const xq_pos *pos, xq_move m, xq_notation notation,
                   char *buf, size_t len);

/* As xq_move_format, for a move the caller knows to be legal in `pos`
 * (one it generated, or one xq_is_legal accepted): the legality test,
 * most of the cost, is left out, so a move that is not legal prints as
 * some text, not an error. Returns the length, or XQ_EINVAL for a bad
 * argument, an empty from-square or a notation it does not know. */
int xq_move_format_legal(const xq_pos *pos, xq_move m, xq_notation notation,
                         char *buf, size_t len);

/* Parse `text` (UTF-8, NUL-terminated) as a move of `pos` in `notation`
 * and match it against the legal moves. On success stores the move in *m
 * and returns XQ_OK; otherwise returns XQ_ENOTATION (not a move in that
 * notation), XQ_EILLEGAL (a move, but not legal here) or XQ_EAMBIGUOUS,
 * with `err` (may be NULL) saying why. ICCS and WXF text may use the
 * full-width forms of ASCII (Ｃ２＝５, Ｈ２－Ｅ２), which are read as ASCII. */
int xq_move_parse(const xq_pos *pos, const char *text, xq_notation notation,
                  xq_move *m, xq_error *err);

/* Like xq_move_parse, trying ICCS, then WXF, then Chinese: the first
 * notation the text is well-formed in decides. */
int xq_move_parse_any(const xq_pos *pos, const char *text, xq_move *m,
                      xq_error *err);

#endif /* XQ_ENGINE_H */
