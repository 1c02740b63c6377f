/*
 * adjudicator.h -- public interface of the xqref adjudicator: rules on
 * every move as a chief arbiter would (rules.md), under CXA 2011, AXF and
 * each tournament's supplementary rules.
 *
 * Three layers, each usable alone:
 *   rules        the parameters P1..P18 of rules.md §2 and the tournament
 *                additions, as a plain struct; named presets; JSON files.
 *   repetition   classification of moves (将/杀/捉/闲, R6, R10, R11) and
 *                the ruling of a repeated cycle (R7, R8): pure functions of
 *                positions and moves.
 *   game         a per-game state machine taking events (moves, board
 *                snapshots, clocks, claims, offers, overrides) and giving
 *                a verdict for each.
 *
 * Depends on the engine and on nothing else but cJSON (rules files and
 * verdicts as JSON).
 */
#ifndef XQ_ADJUDICATOR_H
#define XQ_ADJUDICATOR_H

#include <stdint.h>

#include "engine.h"

/* ================================================================== */
/* Rules (adjudicator/rules.c)                                         */
/* ================================================================== */

typedef enum { XQ_RULESET_CXA2011 = 0, XQ_RULESET_CXA2020, XQ_RULESET_AXF } xq_ruleset;

/* P6: how checks count toward the natural move limit. */
typedef enum {
  XQ_NAT_CHECKS_CAP = 0,          /* the claimant's checks count at most natural_check_cap */
  XQ_NAT_CHECKS_EXCLUDE_CLAIMANT, /* none of the claimant's checks count */
  XQ_NAT_FORCING_EXCLUDE_CLAIMANT,/* none of the claimant's 将/杀/捉 count */
  XQ_NAT_CHECKS_COUNT_ALL
} xq_nat_check_policy;

typedef enum { XQ_TRIGGER_CLAIM = 0, XQ_TRIGGER_AUTO } xq_trigger;          /* P7 */
typedef enum { XQ_NAT_AUTO_EITHER = 0, XQ_NAT_AUTO_SYMMETRIC, XQ_NAT_AUTO_MAX_SIDE } xq_nat_auto; /* P17 */
typedef enum { XQ_ILLEGAL_LOSS = 0, XQ_ILLEGAL_FOUL_THEN_LOSS } xq_illegal_policy; /* P9 */
typedef enum { XQ_EARLY_RED = 0, XQ_EARLY_FIRST_MOVER } xq_early_changer;  /* P12 */
typedef enum { XQ_SIMPLE_DRAW_OFF = 0, XQ_SIMPLE_DRAW_MINIMAL, XQ_SIMPLE_DRAW_EXTENDED } xq_simple_draw; /* P14 */

#define XQ_RULES_NAME_MAX 32

/* Every rule choice of one event. Fill with xq_rules_preset() and
 * override fields, or load a JSON file with xq_rules_load(). */
typedef struct xq_rules {
  char name[XQ_RULES_NAME_MAX];    /* preset or file name, for verdicts */
  xq_ruleset ruleset;              /* P1 */
  int repetition_occurrences;      /* P2: occurrence that makes a 待判局面 (3) */
  int perpetual_check_loses;       /* P3: unilateral 长将 loses at once */
  int cycles_after_change_order;   /* P4: further cycles allowed after 变着 order */
  int natural_limit_moves;         /* P5: full moves without a capture (60) */
  xq_nat_check_policy natural_check_policy; /* P6 */
  int natural_check_cap;           /* P6 CAP(n): 10, or 8 */
  xq_trigger natural_trigger;      /* P7 */
  int false_claim_fouls;           /* P8: fouls for a false natural-limit claim (1) */
  int false_claim_penalty_s;       /* P8: seconds taken off the claimant's clock (300) */
  int false_claims_to_lose;        /* P8: the n-th false claim loses (2; 0 = never) */
  xq_illegal_policy illegal_policy;/* P9 */
  int suicide_released_loses;      /* P10: released 自杀 loses (else a foul) */
  int fouls_to_lose;               /* P11: fouls in one game that lose (3) */
  int early_cycle_move_limit;      /* P12: a drawn cycle before this move must change (0 = off) */
  xq_early_changer early_cycle_changer; /* P12 */
  int early_cycle_comply_moves;    /* P12: moves allowed to comply after the order (Wujiaqu 2) */
  int kill_search_depth;           /* P13: attacker moves searched for 杀 */
  long kill_search_nodes;          /* P13: node budget of one classification */
  xq_simple_draw simple_draw;      /* P14 */
  int kill_continuation_is_kill;   /* P15 */
  int cxa_mutual_refinements;      /* P16 */
  xq_nat_auto natural_auto_mode;   /* P17 */
  int cxa_chase_distinct_victims;  /* P18 */
  int claim_max_attackers;         /* no natural-limit claim with this many attacking pieces or more (0 = off) */
  int draw_offers_per_game;        /* draw offers allowed per player (0 = unlimited) */
  int draw_offer_min_move;         /* no draw offer before this move (0 = any time) */
  /* Clocks (seconds): base time, increment per move, and armageddon (a
   * draw counts as a Black win). base 0 = no clock. */
  int clock_base_s;
  int clock_increment_s;
  int armageddon;
} xq_rules;

/* ================================================================== */
/* Classification and cycle rulings (adjudicator/classify.c,           */
/* adjudicator/cycle.c)                                                */
/* ================================================================== */

/* Character of one move (rules.md R6), in increasing severity. */
typedef enum {
  XQ_CLS_IDLE = 0,     /* 闲, including 兑 献 拦 跟 */
  XQ_CLS_CHASE = 1,    /* 捉 */
  XQ_CLS_KILL = 2,     /* 杀 (CXA only) */
  XQ_CLS_CHECK = 3,    /* 将 */
  XQ_CLS_UNDECIDED = 4 /* a search budget ran out: a human arbiter decides */
} xq_cls;

/* Longest window (plies) a cycle ruling looks at. */
#define XQ_CYCLE_MAX 256

/* Final outcome of a ruling, a game, or an event. */
typedef enum {
  XQ_OUT_NONE = 0,        /* nothing decided: play on */
  XQ_OUT_RED_WINS,
  XQ_OUT_BLACK_WINS,
  XQ_OUT_DRAW,
  XQ_OUT_MUST_CHANGE,     /* 变着: a side must leave the cycle */
  XQ_OUT_NEEDS_ARBITER    /* the rules or the budget cannot decide */
} xq_outcome;

/* Why a verdict was given. Stable numbers: they appear in JSON verdicts
 * and in the store. xq_reason_name() gives the snake_case name and
 * xq_reason_text() one line in Chinese or English. */
typedef enum {
  XQ_REASON_NONE = 0,
  /* single moves and game events */
  XQ_REASON_ILLEGAL_MOVE = 1,      /* 违反行棋规定 */
  XQ_REASON_SUICIDE = 2,           /* 自杀 */
  XQ_REASON_FOUL_LIMIT = 3,        /* fouls reached P11 */
  XQ_REASON_CHECKMATE = 4,         /* 将死 */
  XQ_REASON_STALEMATE = 5,         /* 困毙 */
  XQ_REASON_NATURAL_LIMIT = 6,     /* 自然限着 */
  XQ_REASON_FALSE_CLAIM = 7,       /* P8 */
  XQ_REASON_FLAG_FALL = 8,
  XQ_REASON_ARMAGEDDON_DRAW = 9,   /* a draw in armageddon: Black wins */
  XQ_REASON_RESIGNATION = 10,
  XQ_REASON_AGREEMENT = 11,
  XQ_REASON_ARBITER = 12,          /* an arbiter's override */
  XQ_REASON_SIMPLE_DRAW = 13,      /* P14: neither side can win */
  /* repetition (待判局面) */
  XQ_REASON_PERPETUAL_CHECK = 20,        /* 单方长将 */
  XQ_REASON_MUTUAL_PERPETUAL_CHECK = 21, /* 双方长将: draw */
  XQ_REASON_PERPETUAL_ATTACK = 22,       /* CXA 长打 against 允许着法 */
  XQ_REASON_MUTUAL_ATTACK = 23,          /* 双方长打: draw */
  XQ_REASON_MINOR_CHASES_ROOK = 24,      /* R8.5(a) 马/炮长捉车 */
  XQ_REASON_SINGLE_CHASES_UNPROTECTED = 25, /* R8.5(b) 单子长捉无根子 */
  XQ_REASON_BOTH_PERMITTED = 26,         /* 不变作和 */
  XQ_REASON_AXF_PERPETUAL_CHASE = 27,    /* AXF level 1 against level 0 */
  XQ_REASON_AXF_CHECK_OVER_CHASE = 28,   /* AXF level 2 against level 1 */
  XQ_REASON_AXF_EQUAL = 29,              /* AXF equal levels: draw */
  XQ_REASON_EARLY_CYCLE = 30,            /* P12: a drawn cycle before move N */
  XQ_REASON_CHANGE_ORDER_IGNORED = 31,   /* did not change after a 变着 order */
  XQ_REASON_SEARCH_BUDGET = 32           /* P13 budget ran out */
} xq_reason;

/* One classified move of a cycle. Victims and attackers are sets of piece
 * ids (bit i = piece id i, stable across moves: engine.h). */
typedef struct xq_move_class {
  xq_move move;
  uint8_t mover;        /* xq_color */
  xq_cls cls;
  uint32_t victims;     /* pieces chased (捉) or threatened */
  uint32_t attackers;   /* own pieces that chase */
  uint32_t flags;       /* XQ_CF_* details for R8.5 and for explanations */
} xq_move_class;

/* The ruling of a repeated cycle (rules.md R5-R8). */
typedef struct xq_cycle_ruling {
  xq_outcome outcome;   /* RED_WINS / BLACK_WINS (a loss at once), DRAW,
                           MUST_CHANGE, NEEDS_ARBITER */
  int side;             /* MUST_CHANGE: the side that must change */
  xq_reason reason;
  int n;                /* plies classified, cls[0..n) */
  xq_move_class cls[XQ_CYCLE_MAX];
} xq_cycle_ruling;

/* Rule the cycle that starts at `start` (the position at the first
 * occurrence of the repeated position) and consists of moves[0..n), which
 * end where that position stands again (rules.md R5 analysis window). The
 * ruling ignores any earlier 变着 order and P4 -- the game applies those
 * -- but applies P12 (early cycle). Returns XQ_OK, XQ_EINVAL (NULL, n out
 * of 1..XQ_CYCLE_MAX) or XQ_EILLEGAL (a move that is not legal). */
int xq_rule_cycle(const xq_pos *start, const xq_move *moves, int n,
                  const xq_rules *rules, xq_cycle_ruling *out);

/* ================================================================== */
/* Games (adjudicator/game.c)                                          */
/* ================================================================== */

#endif /* XQ_ADJUDICATOR_H */
