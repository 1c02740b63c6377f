/*
 * engine_internal.h -- engine internals shared across the engine
 * sources: precomputed geometry tables and small inline helpers. Not for
 * use outside engine/.
 *
 * Sliders (rook, cannon, the flying general) never look at the 128-bit
 * board: the occupancy of one rank (9 bits of occ) or one file (10 bits of
 * occ_t) indexes a small table of reachable points on that line. The four
 * line tables take 58 KiB, so they stay in L2 and mostly in L1.
 */
#ifndef XQ_ENGINE_INTERNAL_H
#define XQ_ENGINE_INTERNAL_H

#include "engine.h"

/* ---- limits ------------------------------------------------------ */

/* Bytes of move text the parsers look at: twice the longest printed
 * move, for full-width forms (Ｃ２＝５ takes 12 bytes) and trailing
 * annotation marks. Longer input is refused as XQ_ENOTATION unread. */
#define XQ__MOVE_INPUT_MAX (XQ_MOVE_TEXT_MAX * 2)

/* Tokens chinese.c reads from one text: one per byte of the longest
 * input; a move has 5, the rest can only be trailing annotation marks. */
#define XQ__CN_TOKENS_MAX XQ__MOVE_INPUT_MAX

/* Room for one normalised way of writing the part of a move before its
 * direction (notation.h: xq__alt): at most 3 tokens and a terminator. */
#define XQ__PREFIX_LEN 4

/* Alternative prefixes of one move (notation.h): wxf.c and chinese.c
 * stay well below it, so an array of this size on the stack suffices. */
#define XQ__ALTS_MAX 24

/* Bytes of an input quoted in a message, terminator included: short
 * enough that the sentence around it fits XQ_ERR_MSG_LEN. */
#define XQ__QUOTE_MAX 48

/* ---- bit helpers ------------------------------------------------- */

#define XQ__ONE ((xq_bb)1)

static inline int xq__engine_popcount(xq_bb b)
{
  return __builtin_popcountll((uint64_t)b) +
         __builtin_popcountll((uint64_t)(b >> 64));
}

/* Index of the lowest set bit; b must be non-zero. */
static inline int xq__engine_lsb(xq_bb b)
{
  uint64_t lo = (uint64_t)b;
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* Remove and return the lowest set bit of *b (non-zero). */
static inline int xq__engine_pop_lsb(xq_bb *b)
{
  int s = xq__engine_lsb(*b);
  *b &= *b - 1;
  return s;
}

/* Occupancy of rank r as 9 bits (bit f = file f). */
static inline unsigned xq__engine_rank_bits(xq_bb occ, int r)
{
  return (unsigned)(occ >> (9 * r)) & 0x1FFu;
}

/* Occupancy of file f as 10 bits (bit r = rank r), from a file-major board. */
static inline unsigned xq__engine_file_bits(xq_bb occ_t, int f)
{
  return (unsigned)(occ_t >> (10 * f)) & 0x3FFu;
}

/* ---- tables (engine/tables.c) ------------------------------------ */

extern xq_bb xq__sq_bb[XQ_SQUARES];    /* bit sq, rank-major */
extern xq_bb xq__sq_bb_t[XQ_SQUARES];  /* bit file*10+rank, file-major */

/* Line tables. For a slider on file f of a rank whose occupancy is o
 * (bit f set): rook = points reachable up to and including the first
 * piece each way; cannon = the piece just past the first screen each way
 * (a capture target when it is an enemy). Same per rank on a file. */
extern uint16_t xq__rank_rook[9][512];
extern uint16_t xq__rank_cannon[9][512];
extern uint16_t xq__file_rook[10][1024];
extern uint16_t xq__file_cannon[10][1024];

/* Points strictly between two points of a line: rank files a,b or file
 * ranks a,b. */
extern uint16_t xq__between9[9][9];
extern uint16_t xq__between10[10][10];

/* Horse: for each of the four legs of a horse on sq, the leg point and the
 * two destinations it opens (XQ_NO_SQ where off board). */
extern uint8_t xq__horse_leg[XQ_SQUARES][4];
extern uint8_t xq__horse_to[XQ_SQUARES][4][2];
/* The leg a horse on `h` must have empty to reach `t`, or XQ_NO_SQ when a
 * horse on h never reaches t. */
extern uint8_t xq__horse_leg_for[XQ_SQUARES][XQ_SQUARES];

/* Elephant: eye point and destination for each diagonal, kept on the
 * source's side of the river. */
extern uint8_t xq__elephant_eye[XQ_SQUARES][4];
extern uint8_t xq__elephant_to[XQ_SQUARES][4];

/* Whole move sets by blocker pattern. Bit d of the index is set when the
 * d-th leg (horse) or eye (elephant) is occupied; the block points come
 * from *_block[sq][d], where a direction that leads off the board (or
 * across the river) names sq itself, which is always occupied by the
 * piece, so that direction counts as blocked. */
extern uint8_t xq__horse_block[XQ_SQUARES][4];
extern xq_bb xq__horse_moves[XQ_SQUARES][16];
extern uint8_t xq__elephant_block[XQ_SQUARES][4];
extern xq_bb xq__elephant_moves[XQ_SQUARES][16];

/* Destinations of a horse or elephant on sq given the board. */
static inline xq_bb xq__engine_horse_reach(const xq_pos *pos, int sq)
{
  const uint8_t *b = xq__horse_block[sq];
  unsigned idx = (pos->board[b[0]] != XQ_NO_PID) | (pos->board[b[1]] != XQ_NO_PID) << 1 |
                 (pos->board[b[2]] != XQ_NO_PID) << 2 | (pos->board[b[3]] != XQ_NO_PID) << 3;
  return xq__horse_moves[sq][idx];
}

static inline xq_bb xq__engine_elephant_reach(const xq_pos *pos, int sq)
{
  const uint8_t *b = xq__elephant_block[sq];
  unsigned idx = (pos->board[b[0]] != XQ_NO_PID) | (pos->board[b[1]] != XQ_NO_PID) << 1 |
                 (pos->board[b[2]] != XQ_NO_PID) << 2 | (pos->board[b[3]] != XQ_NO_PID) << 3;
  return xq__elephant_moves[sq][idx];
}

extern xq_bb xq__board_bb;            /* all 90 points */
extern xq_bb xq__file_a_bb, xq__file_i_bb; /* the edge files */
extern xq_bb xq__crossed_bb[2];       /* enemy half of each colour */
extern xq_bb xq__advisor_bb[XQ_SQUARES]; /* one diagonal step in a palace */
extern xq_bb xq__king_bb[XQ_SQUARES];    /* one straight step in a palace */
extern xq_bb xq__pawn_bb[2][XQ_SQUARES]; /* pawn moves of each colour */
/* Points from which a pawn of colour c attacks sq. */
extern xq_bb xq__pawn_from[2][XQ_SQUARES];

/* Zobrist numbers: [colour][kind][sq], and the side-to-move key. */
extern uint64_t xq__zobrist[2][8][XQ_SQUARES];
extern uint64_t xq__zobrist_side;

/* Kind of each piece id. */
extern const uint8_t xq__pid_kind[XQ_PIDS];

/* First and one-past-last id of `kind` within a colour (add 16 for Black). */
extern const uint8_t xq__kind_first[8];
extern const uint8_t xq__kind_end[8];

#define XQ__KING_PID(c) ((c) << 4)

/* Abort with a message unless xq_engine_init has built the tables. Only
 * trees built with XQ_CHECKS call it (XQ__REQUIRE_TABLES), where a
 * position is set up (xq_pos_put): never on the search path. */
void xq__tables_require(void);
#ifdef XQ_CHECKS
#define XQ__REQUIRE_TABLES() xq__tables_require()
#else
#define XQ__REQUIRE_TABLES() ((void)0)
#endif

/* True when a piece of `kind` and `color` can ever stand on `sq` (palace,
 * elephant points, pawns never behind their start): FEN validation. */
int xq__tables_on_board_for(int kind, int color, int sq);

/* ---- attack tests (engine/attacks.c) ----------------------------- */

/* True when `sq` is attacked by a piece of colour `by` that can attack a
 * general -- pawn, horse, rook, cannon, or the general itself along an open
 * file -- on a board whose occupancy is `occ`/`occ_t` instead of pos's own.
 * A piece of `by` standing on `ignore` (a point just captured) counts as
 * gone; XQ_NO_SQ ignores nothing. Advisors, elephants and the general's
 * own step are left out: they never reach the enemy general. */
int xq__attacks_occ(const xq_pos *pos, int sq, int by, xq_bb occ,
                    xq_bb occ_t, int ignore);

/* True when moving the piece on `from` to `to` leaves the mover's general
 * safe. `from` must hold a piece of the side to move. */
int xq__attacks_safe_after(const xq_pos *pos, int from, int to);

#endif /* XQ_ENGINE_INTERNAL_H */
