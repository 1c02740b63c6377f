/*
 * adjudicator.h -- public interface of the xqref adjudicator: rules on
 * every move as a chief arbiter would, under CXA 2011, AXF and
 * each tournament's supplementary rules. The rules R1-R12 and the
 * parameters P1-P18 named below: docs/adjudicator.md, "Rule numbers".
 *
 * Three layers, each usable alone:
 *   rules        the parameters P1..P18 of docs/adjudicator.md, "Parameters and values" and the tournament
 *                additions, as a plain struct; named presets; JSON files.
 *   repetition   classification of moves (将/杀/捉/闲, R6, R10, R11) and
 *                the ruling of a repeated cycle (R7, R8): pure functions of
 *                positions and moves.
 *   game         a per-game state machine taking events (moves, board
 *                snapshots, clocks, claims, offers, overrides) and giving
 *                a verdict for each.
 *
 * Depends on the engine, on the records module (recorded games replayed
 * through the rules) and on nothing else but cJSON (rules files and
 * verdicts as JSON).
 */
#ifndef XQ_ADJUDICATOR_H
#define XQ_ADJUDICATOR_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* ================================================================== */
/* Limits                                                              */
/* ================================================================== */

/* Rules */
#define XQ_RULES_NAME_MAX 32      /* a rule set's name, terminator included: the
                                     longest preset (xinjiang2018) has 12 bytes */
#define XQ_RULES_JSON_MAX (64 * 1024) /* rules text (file or literal) xq_rules_load_json
                                     reads: far above a file setting every key; a
                                     wrong path is refused, not read whole */

/* Rulings */
#define XQ_CYCLE_MAX 256          /* plies of the window a cycle ruling classifies:
                                     each ply costs searches; a longer cycle goes to
                                     the arbiter (R5) */
#define XQ_SEE_DEPTH_MAX 16       /* captures the classifier follows on one point
                                     (8 a side); a longer exchange counts as stopped */
#define XQ_KILL_DEPTH_MAX 12      /* attacker moves of a kill search, whatever
                                     kill_search_depth asks (P13 suggests 5 to 7);
                                     kill_search_nodes bounds the time as well */

/* Games and verdicts */
#define XQ_GAME_PLIES_MAX 4096    /* plies the state machine follows: above the
                                     31 x 120 = 3720 the natural limit (60 moves
                                     between captures, 30 captures) lets a game last;
                                     a move past it is refused (XQ_ELIMIT) */
#define XQ_RULE_REF_MAX 32        /* a verdict's rule reference, terminator included:
                                     "P9", "R3", "draw_offer_min_move" */
#define XQ_VERDICT_TEXT_MAX 320   /* one line of explanation in UTF-8, terminator
                                     included: about 100 Chinese characters */
#define XQ_CLOCK_MS_MAX 2147483647L /* a clock reading or a tick, either way: 2^31-1 ms
                                     (24.8 days), the protocol's range; a game's clock
                                     then grows only by its increments */

/* Events */
#define XQ_EVENT_TEXT_MAX 128     /* an event's text, terminator included: a move
                                     (the engine reads 64 bytes of one at most) or a
                                     placement (99 bytes) */
#define XQ_EVENT_FORMAT_MAX (XQ_EVENT_TEXT_MAX + 24) /* one event's text form: a text
                                     with its prefix ("held:"), or a clock reading */

/* Case files and the judge bench */
#define XQ_JUDGE_LINE_MAX (256 * 1024) /* a line of a case file: the FEN and the moves
                                     of a XQ_GAME_PLIES_MAX-ply game in any notation */
#define XQ_BENCH_GAMES_MAX 4096   /* games the judge bench holds in memory (3.8 MB) */
#define XQ_BENCH_GAME_PLIES 400   /* plies it keeps of a game: the games of an
                                     archive end well before */

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
  /* Tournament additions (docs/presets.md). */
  int clock_base_black_s;          /* Black's base time when it differs (armageddon 6 vs 4 min; 0 = same) */
  int change_order_comply_moves;   /* moves the side ordered to change has to leave the cycle (0 = P4 cycles) */
  int draw_offer_max_lead;         /* offers allowed beyond the opponent's count (Xinjiang: 2; 0 = off) */
  int draw_offer_min_clock_s;      /* no offer with less than this on the offerer's clock (Burqin: 180) */
  int draw_offer_exempt_attackers; /* draw_offer_min_clock_s does not apply while each side has
                                      fewer attacking pieces than this (Burqin: 2; 0 = none) */
  int draw_decline_to_arbiter;     /* the clearly better side's offer made for lack of time may not
                                      be refused (Burqin): declining an offer made by the side with
                                      less time left and XQ_CLEAR_LEAD more material goes to the
                                      arbiter; any other declined offer is just declined */
  int draw_offer_advantage_cutoff_s; /* an offer with less than this on the offerer's clock is void
                                        if the offerer holds the advantage: its acceptance goes to
                                        the arbiter (Xinjiang: 180; 0 = off) */
  int suicide_held_fouls;          /* P10: fouls for a 自杀 still in hand, taken back (1; 0 = none) */
  int flag_fall_mate_stands;       /* a move made after the mover's flag fell stands when it mates or
                                      stalemates (Xinjiang); else the flag fall loses */
  int draw_offer_own_time;         /* an offer only in one's own time, i.e. by the side to move
                                      (Xinjiang 在自己用时内); else either side may offer */
  int claim_attackers_crossed_pawns; /* claim_max_attackers counts only pawns across the river
                                        (Wujiaqu option pawns=crossed); else every pawn */
  int natural_count_from_claim;    /* a first natural-limit claim, approved, starts the count (the
                                      draw comes on a claim once the limit has run from there; a
                                      capture voids it); else the count runs back from the last
                                      capture (Wujiaqu option natural_from=approval) */
} xq_rules;

/* Material lead (rook 9, horse and cannon 4, advisor and elephant 2,
 * pawn 1, crossed pawn 2) that makes a side "clearly better" for
 * draw_decline_to_arbiter: a minor piece less a pawn. */
#define XQ_CLEAR_LEAD 3

/* Fill *out with the preset `name`: "cxa2011" (the default), "cxa2020"
 * (ruled as cxa2011 until the two books are compared), "axf", or a regulation: "xinjiang2018",
 * "burqin2018", "shaanxi2019", "wujiaqu2024", "tangshan2018". Names are
 * case-insensitive. Returns XQ_OK, XQ_EINVAL (NULL or unknown name; *out
 * untouched). Never allocates. */
int xq_rules_preset(const char *name, xq_rules *out);

/* The i-th preset name (0-based), NULL past the last. Static strings. */
const char *xq_rules_preset_name(int i);

/* The clause of regulation preset `name` that sets field `key` (a JSON key
 * of xq_rules_to_json), as a static one-line string, or NULL when the
 * preset takes that field from its rule book. */
const char *xq_rules_preset_clause(const char *name, const char *key);

/* Load rules from `src`: JSON text when its first non-blank character is
 * '{', else the path of a JSON file. The object starts from the preset
 * named by its "preset" key, else by its "ruleset" key, else cxa2011, and
 * every other key overrides the field of the same name (the keys that
 * xq_rules_to_json prints; enums as strings such as "foul_then_loss",
 * flags as true/false, numbers as integers in range). An unknown key, a
 * value of the wrong type or out of range, or malformed JSON is an error.
 * On success fills *out and returns XQ_OK; otherwise returns XQ_EIO (file
 * unreadable or larger than XQ_RULES_JSON_MAX) or XQ_EINVAL (a NULL
 * argument or bad content), with `err` (may be NULL) naming the key and
 * the problem; *out is untouched. */
int xq_rules_load_json(const char *src, xq_rules *out, xq_error *err);

/* Rules from a command-line value: a preset name, else a JSON rules file
 * (or literal JSON). Returns XQ_OK or the error of xq_rules_load_json. */
int xq_rules_from_spec(const char *spec, xq_rules *out, xq_error *err);

/* The rules as a JSON object on one line, every field by its key: a
 * malloc'd string the caller frees with free(), or NULL when out of
 * memory or `r` is NULL. */
char *xq_rules_to_json(const xq_rules *r);

/* ================================================================== */
/* Classification and cycle rulings (adjudicator/classify.c,           */
/* adjudicator/cycle.c)                                                */
/* ================================================================== */

/* Character of one move (R6), in increasing severity. */
typedef enum {
  XQ_CLS_IDLE = 0,     /* 闲, including 兑 献 拦 跟 */
  XQ_CLS_CHASE = 1,    /* 捉 */
  XQ_CLS_KILL = 2,     /* 杀 (CXA only) */
  XQ_CLS_CHECK = 3,    /* 将 */
  XQ_CLS_UNDECIDED = 4 /* a search budget ran out: a human arbiter decides */
} xq_cls;

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
  XQ_REASON_SEARCH_BUDGET = 32,          /* P13 budget ran out */
  /* game events refused or noted (game.c) */
  XQ_REASON_CLAIM_REFUSED = 40,          /* a claim the rules do not entertain */
  XQ_REASON_DRAW_OFFER = 41,             /* a draw offer made, declined or not allowed */
  XQ_REASON_GAME_OVER = 42,              /* an event after the result */
  XQ_REASON_AWAITING_ARBITER = 43        /* play paused until an arbiter rules */
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
  uint32_t pinned_victims; /* AXF: victims chased by a piece pinned by that horse */
  uint32_t pinned_chasers; /* AXF: the pinned pieces making those chases */
} xq_move_class;

/* The ruling of a repeated cycle (R5-R8). */
typedef struct xq_cycle_ruling {
  xq_outcome outcome;   /* RED_WINS / BLACK_WINS (a loss at once), DRAW,
                           MUST_CHANGE, NEEDS_ARBITER */
  int side;             /* MUST_CHANGE: the side that must change; a loss:
                           the side that loses; -1 otherwise */
  xq_reason reason;
  int n;                /* plies classified, cls[0..n) */
  xq_move_class cls[XQ_CYCLE_MAX];
} xq_cycle_ruling;

/* xq_move_class.flags: details behind a classification. */
#define XQ_CF_CHECK_ANSWER   (1u << 0)  /* general answering a check: its threats are 闲 (CXA 图17) */
#define XQ_CF_PAWN_CHASE     (1u << 1)  /* CXA: a chase by pawns alone, 闲 unless both sides 长打 (27.2) */
#define XQ_CF_KING_CHASE     (1u << 2)  /* CXA: a chase by the general alone, 闲 (27.1) */
#define XQ_CF_MINOR_ROOK     (1u << 3)  /* every chase of the move is a 马/炮 attacking a 车 */
#define XQ_CF_UNPROTECTED    (1u << 4)  /* a victim with no legal recapture (无根) */
#define XQ_CF_UNDERPROTECTED (1u << 5)  /* a protected victim won by numbers (少根) */
#define XQ_CF_JOINT          (1u << 6)  /* a victim won by two or more pieces (联合捉) */
#define XQ_CF_SINGLE         (1u << 7)  /* every victim is won by one piece alone */
#define XQ_CF_DISCOVERED_WIN (1u << 8)  /* material won by a check first (抽吃, 要抽) */
#define XQ_CF_KILL_KEPT      (1u << 9)  /* the mate threat existed before the move (从杀到杀, P15) */
#define XQ_CF_LINE_HOLDER    (1u << 10) /* the piece cannot leave its line (不能离线): 拦 */
#define XQ_CF_BUDGET         (1u << 11) /* a search ran out of nodes (P13) */
#define XQ_CF_KILL           (1u << 12) /* the move also threatens mate (杀) */

/* Classify legal move `m` of the side to move in `pos` (R6 with
 * R10 for the CXA rule sets, R11 for AXF): fills *out with the move, the
 * mover, the class, the chased victims and their chasers (piece ids) and
 * XQ_CF_* flags. The kill (杀) and material searches of the CXA rule sets
 * share one budget of rules->kill_search_nodes nodes; when it runs out the
 * class is XQ_CLS_UNDECIDED (XQ_CF_BUDGET), never a guess. Checks are
 * always decided; under AXF a check keeps the victims its own piece
 * chases (a chase by checks and chases in turn). Context-free: rules that
 * depend on the rest of the cycle (pawn chases in mutual 长打, a chased
 * piece pinned by a horse chasing it back) are left to xq_rule_cycle
 * through the flags and pinned_* fields. Cost: a few microseconds under
 * AXF, about a hundred under CXA, at most the node budget. Returns XQ_OK, XQ_EINVAL (a NULL argument) or XQ_EILLEGAL
 * (`m` not legal in `pos`); *out is written only on XQ_OK. */
int xq_classify_move(const xq_pos *pos, xq_move m, const xq_rules *rules,
                     xq_move_class *out);

/* Rule the cycle that starts at `start` (the position at the first
 * occurrence of the repeated position) and consists of moves[0..n), which
 * end where that position stands again (R5 analysis window). The
 * ruling ignores any earlier 变着 order and P4 -- the game applies those
 * -- but applies P12 (early cycle). Returns XQ_OK, XQ_EINVAL (NULL, n out
 * of 1..XQ_CYCLE_MAX) or XQ_EILLEGAL (a move that is not legal). */
int xq_rule_cycle(const xq_pos *start, const xq_move *moves, int n,
                  const xq_rules *rules, xq_cycle_ruling *out);

/* The verdict part of xq_rule_cycle, for a window whose moves are already
 * classified (e.g. cached per move by a game): reads r->n and
 * r->cls[0..n) (cls[0].mover is the cycle's first mover), writes
 * r->outcome, r->side and r->reason. `last_fullmove` is the full-move
 * number of the window's last move (P12). Returns XQ_OK, or XQ_EINVAL for
 * a NULL argument, n out of 1..XQ_CYCLE_MAX, or a bad mover or class. */
int xq_rule_classified(xq_cycle_ruling *r, const xq_rules *rules, int last_fullmove);

/* ================================================================== */
/* Games (adjudicator/game.c, natural.c, clock.c, verdict.c, reason.c) */
/* ================================================================== */

/* snake_case name of a reason ("perpetual_check"); "unknown" for a value
 * outside the enum. Static string. */
const char *xq_reason_name(xq_reason reason);

/* One line explaining `reason` in `lang` ("zh" Chinese, anything else
 * English). Static string, never NULL. */
const char *xq_reason_text(xq_reason reason, const char *lang);

/* "ongoing", "red_wins", "black_wins", "draw", "must_change",
 * "needs_arbiter". Static string. */
const char *xq_outcome_name(xq_outcome outcome);

/* The outcome in words of `lang` ("zh": 红胜, 黑胜, 和棋...; anything
 * else English: "Red wins"...), for the sentences of the verdicts.
 * Static string, never NULL. */
const char *xq_outcome_text(xq_outcome outcome, const char *lang);

/* What an event did to the game. */
typedef enum {
  XQ_VERDICT_ACCEPTED = 0, /* taken as it is: play on */
  XQ_VERDICT_FOUL,         /* a foul recorded; a move is rejected, the position kept */
  XQ_VERDICT_LOSS,         /* `side` loses (foul limit, suicide, flag, resignation, ...) */
  XQ_VERDICT_MATE,         /* 将死: the side to move loses */
  XQ_VERDICT_STALEMATE,    /* 困毙: the side to move loses */
  XQ_VERDICT_DRAW,
  XQ_VERDICT_MUST_CHANGE,  /* 变着: `side` must leave the cycle */
  XQ_VERDICT_REFUSED,      /* the rules do not entertain the event: nothing changed */
  XQ_VERDICT_NEEDS_ARBITER /* the rules or a search budget cannot decide: play pauses */
} xq_verdict_kind;

/* "accepted", "foul", "loss", "mate", "stalemate", "draw", "must_change",
 * "refused", "needs_arbiter". Static string. */
const char *xq_verdict_kind_name(xq_verdict_kind kind);

/* The answer to one event. Plain data: copy it freely. */
typedef struct xq_verdict {
  const char *event;       /* "move", "snapshot", "claim_natural", ... (static) */
  xq_verdict_kind kind;
  xq_reason reason;
  int side;                /* the side concerned (mover, fouler, loser, side
                              ordered to change), -1 for none */
  xq_outcome result;       /* the game's result after the event (NONE = play on) */
  int ply;                 /* plies played before the event */
  int changed;             /* 1 when the event changed the game (position,
                              counters, result); 0 when nothing changed */
  int fouls[2];            /* fouls of Red and Black after the event */
  char rule[XQ_RULE_REF_MAX]; /* the article or parameter applied, "" for none */
  int nmoves;              /* moves involved: the move, or a cycle */
  int first_side;          /* mover of moves[0] (they alternate) */
  xq_move moves[XQ_CYCLE_MAX];
  int has_cls;             /* cls[] holds the cycle's classification */
  uint8_t cls[XQ_CYCLE_MAX];  /* xq_cls of each move in moves[] */
  char zh[XQ_VERDICT_TEXT_MAX]; /* explanation in Chinese */
  char en[XQ_VERDICT_TEXT_MAX]; /* explanation in English */
} xq_verdict;

/* The verdict as a one-line JSON object: a malloc'd string the caller
 * frees with free(), or NULL (NULL `v` or out of memory). */
char *xq_verdict_json(const xq_verdict *v);

/* Flags of a move event. */
#define XQ_MV_HELD 1u       /* the hand has not left the piece (未离手, P10) */
#define XQ_MV_FLAG_FELL 2u  /* the mover's flag fell before the clock was pressed */

/* A 变着 order in force (R5, P4, P12). */
typedef struct xq_change_order {
  int active;
  int side;                /* the side that must change */
  int early;               /* given under P12 (early cycle) */
  uint64_t key;            /* the position that was ruled */
  int occ;                 /* its occurrence count at the ruling */
  int comply;              /* own moves allowed before the loss (0 = P4 cycles) */
  int moves_made;          /* own moves made since the order, all in the cycle */
  int nkeys;               /* the cycle's positions: leaving them lapses the order */
  uint64_t keys[XQ_CYCLE_MAX];
} xq_change_order;

/* One played move of the history. */
typedef struct xq_game_ply {
  xq_move move;
  uint8_t mover;           /* xq_color */
  uint8_t check;           /* it gave check */
  uint8_t capture;         /* it captured */
} xq_game_ply;

/* A move text read ahead of its turn (xq_game_may_search) and the move it
 * read as on the position whose key is `key`; m is XQ_MOVE_NONE when
 * there is none. */
typedef struct xq_read_ahead {
  uint64_t key;
  xq_move m;
  char text[XQ_EVENT_TEXT_MAX];
} xq_read_ahead;

/* The state of one game. Callers read the fields; only xq_game_* calls
 * write them. About 70 KB: allocate it, or keep it static. */
typedef struct xq_game {
  xq_rules rules;
  xq_pos start;            /* the position the game began from */
  xq_pos pos;              /* the current position */
  xq_pos window_pos;       /* the position at window_start (after the last capture) */
  int nply;                /* plies played */
  int window_start;        /* position index of the last capture (0 = start) */
  int count_from;          /* repetitions count from this position index */
  int start_halfmove;      /* plies without capture before the start (FEN) */
  xq_outcome result;       /* NONE while play goes on; NEEDS_ARBITER pauses */
  xq_reason result_reason;
  int fouls[2];            /* fouls of any kind (P11) */
  int illegal[2];          /* breaches of the rules of movement (P9) */
  int false_claims[2];     /* false natural-limit claims (P8) */
  int draw_offers[2];      /* draw offers made */
  int draw_offer_pending;  /* side whose offer stands, -1 for none */
  int draw_offer_late;     /* it was made under draw_offer_advantage_cutoff_s */
  int draw_offer_short;    /* it was made by the side with less time and XQ_CLEAR_LEAD more
                              material (draw_decline_to_arbiter) */
  int natural_from[2];     /* natural_count_from_claim: 1 + the ply a side's claim was approved
                              at, 0 = none */
  int touched_sq;          /* own piece lifted by the side to move, -1 for none */
  xq_move held;            /* a move made but not released, XQ_MOVE_NONE for none */
  long clock_ms[2];        /* time left; -1 with no clock */
  int paused;              /* the arbiter stopped play (XQ_EVENT_PAUSE) until XQ_EVENT_RESUME;
                              not a result: NEEDS_ARBITER is the rules' own pause */
  xq_change_order order;
  uint16_t key_filter[256]; /* positions since count_from by the low key byte:
                               a zero means a first occurrence, no scan */
  uint64_t keys[XQ_GAME_PLIES_MAX + 1]; /* key of the position at each index */
  xq_game_ply hist[XQ_GAME_PLIES_MAX];  /* hist[i] leads from index i to i + 1 */
  xq_read_ahead read_ahead; /* what xq_game_may_search read last: xq_game_move_text plays it
                              without reading the text again while the game stands there */
} xq_game;

/* Start a game under `rules` (copied) from `fen` (NULL = the standard
 * start). Clocks start at the rules' base times (none when 0). A start
 * position without a legal move is decided at once (R3), and so is one
 * that P14 draws; g->result says so. Returns XQ_OK, XQ_EINVAL (NULL g or
 * rules) or XQ_EFEN with `err` (may be NULL); on failure *g is undefined. */
int xq_game_init(xq_game *g, const xq_rules *rules, const char *fen, xq_error *err);

/* Every event function below fills *v and returns XQ_OK whenever the
 * event could be judged -- a foul, a loss or a refusal is a verdict, not
 * an error. They return XQ_EINVAL for a NULL or out-of-range argument and
 * the notation or snapshot errors named in each contract, with `err` (may
 * be NULL) saying why, and XQ_ELIMIT for a move beyond XQ_GAME_PLIES_MAX;
 * on an error nothing changed and *v is untouched. */

/* A move from/to squares (docs/adjudicator.md, "The game state machine" pipeline): legality (R1, R2 with
 * P9/P10, touch-move), apply, mate and stalemate (R3), capture resets,
 * simple draw (P14), natural limit with P7 = AUTO (R9), repetition (R5-R8
 * with P2, P4, P12). `flags`: XQ_MV_HELD (not released: a legal move waits
 * for xq_game_release, a suicide costs suicide_held_fouls), XQ_MV_FLAG_FELL
 * (the mover loses on time; with flag_fall_mate_stands not when the move
 * mates or stalemates). */
int xq_game_move(xq_game *g, xq_move m, unsigned flags, xq_verdict *v);

/* A move written in any notation (xq_move_parse_any). A legal move, a
 * well-formed ICCS move that is illegal (judged as a foul or loss) and
 * text in no notation (XQ_ENOTATION) or ambiguous (XQ_EAMBIGUOUS) are told
 * apart; an illegal move in WXF or Chinese counts as a breach of the rules
 * of movement. */
int xq_game_move_text(xq_game *g, const char *text, unsigned flags,
                      xq_verdict *v, xq_error *err);

/* A board snapshot: a FEN placement (the first field is read) whose
 * squares may also hold X/x (a Red/Black piece of unknown kind), '*' (a
 * piece of unknown colour) or '?' (unknown). The move is the one legal
 * move whose result matches; the same position is no change (changed 0).
 * Returns XQ_ENOTATION (malformed), XQ_EILLEGAL (no legal move matches) or
 * XQ_EAMBIGUOUS (several do), changing nothing. */
int xq_game_snapshot(xq_game *g, const char *board, xq_verdict *v, xq_error *err);

/* A piece lifted from `sq` by the side to move (touch-move, 1999 5.1: an
 * own piece touched must be moved if it can). */
int xq_game_lift(xq_game *g, int sq, xq_verdict *v);

/* The hand leaves the piece of the held move: the move is complete. */
int xq_game_release(xq_game *g, xq_verdict *v);

/* A clock reading: time left for Red and Black in ms. A side at 0 or less
 * loses on time (the side to move first) unless the game is over.
 * XQ_EINVAL (nothing changed) for a reading beyond XQ_CLOCK_MS_MAX
 * either way. */
int xq_game_clock(xq_game *g, long red_ms, long black_ms, xq_verdict *v);

/* `elapsed_ms` of the side to move's time has passed (the game keeps the
 * clocks: base time, plus the increment after each move). XQ_EINVAL for
 * a negative time, one above XQ_CLOCK_MS_MAX or a game without clocks. */
int xq_game_tick(xq_game *g, long elapsed_ms, xq_verdict *v);

/* A natural-limit claim (自然限着, R9) by `side`: a draw when valid;
 * refused with claim_max_attackers attacking pieces or more; a false claim
 * costs P8 (fouls, time, a loss at the n-th). With natural_limit_moves 0
 * the claim goes to the arbiter. */
int xq_game_claim_natural(xq_game *g, int side, xq_verdict *v);

/* A repetition claim by `side`: the current position is ruled (R8) when it
 * has occurred repetition_occurrences times, else refused. */
int xq_game_claim_repetition(xq_game *g, int side, xq_verdict *v);

/* A draw offer by `side`, within the offer limits of the rules (count,
 * move, lead, clock with its attacker exemption); the offer stands until
 * the opponent answers or moves. */
int xq_game_offer_draw(xq_game *g, int side, xq_verdict *v);

/* `side` answers the opponent's standing offer: accept = draw; decline =
 * play on. The arbiter is called (NEEDS_ARBITER: play pauses, the offer
 * is settled by xq_game_arbiter_result) when accepting an offer that
 * draw_offer_advantage_cutoff_s may void, or declining one under
 * draw_decline_to_arbiter. */
int xq_game_answer_draw(xq_game *g, int side, int accept, xq_verdict *v);

/* `side` resigns. */
int xq_game_resign(xq_game *g, int side, xq_verdict *v);

/* The arbiter records a foul against `side` (P11 applies). */
int xq_game_arbiter_foul(xq_game *g, int side, xq_verdict *v);

/* The arbiter sets the result (XQ_OUT_RED_WINS, BLACK_WINS, DRAW, or NONE
 * to resume play). */
int xq_game_arbiter_result(xq_game *g, xq_outcome result, xq_verdict *v);

/* The arbiter stops play (`on` 1) or lets it go on (0): g->paused. The
 * state machine itself refuses nothing while paused; whoever takes events
 * from the players decides what a paused game accepts (the server refuses
 * a board's). Always changes the game (v->changed 1; the verdict carries
 * no fouls or side). */
int xq_game_pause(xq_game *g, int on, xq_verdict *v);

/* Restart the game from its start position under its own rules and
 * replay its first `plies` plies (a source that corrected a move: the
 * line is replaced from there). g->paused is kept. *v is the verdict of
 * the last replayed ply, or a "truncate" verdict for 0 plies. XQ_EINVAL
 * when plies is negative or more than were played (nothing changed). */
int xq_game_truncate(xq_game *g, int plies, xq_verdict *v, xq_error *err);

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

/* One event of a game as a typed value: what a board, a player or the
 * arbiter did. A request is parsed into events once, where it arrives;
 * they go to the rules (xq_game_apply) and to the game log as they are.
 * Their text form (docs/adjudicator.md, "Events as text") is only for
 * storing them: xq_event_format writes it, xq_event_parse reads it. */
typedef enum xq_event_kind {
  XQ_EVENT_MOVE = 1,          /* a move in any notation: text, flags */
  XQ_EVENT_SNAPSHOT,          /* a board snapshot: text is a FEN placement */
  XQ_EVENT_LIFT,              /* the side to move lifts its piece on `square` */
  XQ_EVENT_RELEASE,           /* the hand leaves the held move's piece */
  XQ_EVENT_CLOCK,             /* a clock reading: ms[0] Red, ms[1] Black */
  XQ_EVENT_TICK,              /* ms[0] of the side to move's time passed */
  XQ_EVENT_CLAIM_NATURAL,     /* a natural-limit claim by `side` */
  XQ_EVENT_CLAIM_REPETITION,  /* a repetition claim by `side` */
  XQ_EVENT_OFFER,             /* `side` offers a draw */
  XQ_EVENT_ACCEPT,            /* `side` accepts the standing offer */
  XQ_EVENT_DECLINE,           /* `side` declines it */
  XQ_EVENT_RESIGN,            /* `side` resigns */
  XQ_EVENT_FOUL,              /* the arbiter records a foul against `side` */
  XQ_EVENT_RESULT,            /* the arbiter sets `result` (XQ_OUT_NONE resumes play) */
  XQ_EVENT_PAUSE,             /* the arbiter stops play */
  XQ_EVENT_RESUME,            /* ... and lets it go on */
  XQ_EVENT_TRUNCATE           /* restart and replay the first `plies` plies */
} xq_event_kind;

/* A side the event leaves to the rules: the side to move (claims,
 * offers, resignation) or the side the standing offer was made to
 * (answers). */
#define XQ_SIDE_IMPLIED (-1)

/* Plain data: copy it freely. Fields a kind does not use are zero. */
typedef struct xq_event {
  xq_event_kind kind;
  int side;                /* XQ_RED, XQ_BLACK or XQ_SIDE_IMPLIED */
  unsigned flags;          /* MOVE: XQ_MV_HELD or XQ_MV_FLAG_FELL */
  int square;              /* LIFT */
  long ms[2];              /* CLOCK: Red, Black; TICK: ms[0] */
  xq_outcome result;       /* RESULT */
  int plies;               /* TRUNCATE */
  char text[XQ_EVENT_TEXT_MAX]; /* MOVE: the move as written; SNAPSHOT: the placement */
} xq_event;

/* Make *ev an event of `kind` with every field zero but the side, which
 * is XQ_SIDE_IMPLIED: the caller fills what the kind carries (a CLOCK's
 * ms, a RESULT's result, a TRUNCATE's plies, a LIFT's square). */
void xq_event_init(xq_event *ev, xq_event_kind kind);

/* A MOVE event of `text` (the move as the player or board wrote it, in
 * any notation) with `flags`. The text must be one word that reads as a
 * move and as nothing else of the event language: XQ_ENOTATION for text
 * that is empty, holds white space, is longer than XQ_EVENT_TEXT_MAX - 1
 * bytes or is another event's word ("resign", "result:1-0"), with `err`
 * (may be NULL); XQ_EINVAL for a NULL argument or other flags. */
int xq_event_move(xq_event *ev, const char *text, unsigned flags, xq_error *err);

/* A SNAPSHOT event of the placement `board` (its first field: the text
 * up to the first space). XQ_ENOTATION when that field is empty or
 * longer than XQ_EVENT_TEXT_MAX - 1 bytes (no placement is), with `err`. */
int xq_event_snapshot(xq_event *ev, const char *board, xq_error *err);

/* An event of a kind that takes no text, square or reading: RELEASE,
 * the claims, offers, answers, resignation, FOUL (side required), PAUSE,
 * RESUME. XQ_EINVAL for another kind or a side out of range. */
int xq_event_simple(xq_event *ev, xq_event_kind kind, int side);

/* Write the text form of `ev` (one word: "h2e2", "held:h2e2",
 * "clock:5400000/5399000", "claim-red", "truncate:12", ...) into
 * buf[0..cap) with its terminator. Returns its length, or XQ_ELIMIT when
 * it does not fit (XQ_EVENT_FORMAT_MAX always does), XQ_EINVAL for an
 * event of no kind. */
int xq_event_format(const xq_event *ev, char *buf, size_t cap);

/* Read one word of the text form, tok[0..len) (no terminator needed):
 * XQ_OK with *ev, or XQ_EINVAL with `err` for a malformed word of a
 * known kind ("lift:z9", "clock:1"), XQ_ENOTATION for a word too long to
 * be a move. A word of no other kind (the empty one too) is a MOVE event
 * of that text, judged when applied. */
int xq_event_parse(const char *tok, size_t len, xq_event *ev, xq_error *err);

/* A list of events: what one request or one game-log row holds. */
typedef struct xq_events {
  xq_event *v;
  int n, cap;
} xq_events;

/* Append a copy of `ev`. XQ_OK, XQ_ENOMEM or XQ_ELIMIT (more than
 * XQ_GAME_PLIES_MAX * 4 events). */
int xq_events_add(xq_events *l, const xq_event *ev);
/* Free the list's storage and empty it. */
void xq_events_clear(xq_events *l);
/* The text form of a list: its events' words separated by one space, as
 * a malloc'd string (NULL when out of memory or an event has no kind). */
char *xq_events_format(const xq_event *ev, int n);
/* Read a list written by xq_events_format (words separated by spaces)
 * into *out (cleared first). XQ_OK, XQ_EINVAL for an empty text, or the
 * first word's error from xq_event_parse with `err`. */
int xq_events_parse(const char *text, xq_events *out, xq_error *err);

/* Apply one event through the matching xq_game_* call (a MOVE through
 * xq_game_move_text, an answer whose side is implied by the side the
 * standing offer was made to, ...). Same contract as those calls. */
int xq_game_apply_one(xq_game *g, const xq_event *ev, xq_verdict *v, xq_error *err);

/* Apply events ev[0..n) in order: one request's (a move and the clock
 * reading that came with it) or one game-log row's. *v is the verdict
 * that matters: the first that is not a plain acceptance, else the first.
 * On an error the events before it stay applied and the error is
 * returned (*v undefined); XQ_EINVAL for n < 1. */
int xq_game_apply(xq_game *g, const xq_event *ev, int n, xq_verdict *v, xq_error *err);

/* True when applying ev[0..n) may rule on a repeated cycle, which can
 * search for a while: a claim, or a move (a snapshot's, a released
 * one's) that may reach a position the game has seen since repetitions
 * count. Cheap: callers use it to judge such events off their event
 * loop. The move a MOVE event's text reads as is kept in g->read_ahead,
 * so that applying the events next, to `g` or to a copy of it, reads
 * the text once in all; nothing else of `g` changes. */
int xq_game_may_search(xq_game *g, const xq_event *ev, int n);

/* One event written as a word of its text form, parsed and applied
 * (xq_event_parse, then xq_game_apply_one): the judge command's --moves.
 * Returns what those return. */
int xq_game_event(xq_game *g, const char *tok, xq_verdict *v, xq_error *err);

/* Plies that count toward the natural limit for claimant `side` (R9 with
 * P6), or with side -1 the count P17 uses when nobody claims. Under
 * EXCLUDE_CLAIMANT_FORCING a move the classifier cannot decide (budget)
 * counts as forcing, so no claim is granted on a guess. Cannot fail; 0 for
 * a NULL game. */
int xq_game_natural_count(const xq_game *g, int side);

/* ================================================================== */
/* Recorded games, case files and the judge bench (adjudicator/       */
/* archive.c, judge.c, judge_bench.c): the work of `xqref judge`,     */
/* `xqref stats` and `xqref bench --judge`, whose command lines are   */
/* in cli/                                                            */
/* ================================================================== */

struct xq_record; /* a game record (records.h) */

/* Play the main line of `rec` from its start into `g` under `rules`
 * (xq_game_init, then xq_game_move for each move) until the moves run out
 * or the rules end the game; `each` (may be NULL) sees every verdict, with
 * `ctx`. Returns XQ_OK; XQ_EINVAL for a NULL argument; the error of
 * xq_game_init; or the status of a move the game refused to take, with
 * err->ply its 0-based index and err->msg "game G, ply P: why". `err` may
 * be NULL. */
int xq_game_replay(xq_game *g, const xq_rules *rules, const struct xq_record *rec,
                   void (*each)(const xq_verdict *v, void *ctx), void *ctx, xq_error *err);

/* What the rules made of a recorded game. */
typedef enum {
  XQ_JUDGED_OPEN = 0, /* the rules did not end the game */
  XQ_JUDGED_AGREE,    /* the rules ended it with the recorded result */
  XQ_JUDGED_DIFFER    /* the rules ended it with another result */
} xq_judged;

/* Replay `rec` into `g` under `rules` (xq_game_replay, no verdict seen)
 * and compare the result the rules reached with the recorded one. Returns
 * an xq_judged value, or the negative status of xq_game_replay with
 * `err` (may be NULL). */
int xq_judge_record(xq_game *g, const xq_rules *rules, const struct xq_record *rec,
                    xq_error *err);

/* The line `xqref judge GAME...` prints for `rec`, read from `file` and
 * replayed into `g`: file, game, red and black (the tags present), the
 * ruled result and reason, the recorded result, plies ruled and recorded,
 * and the rules, as one JSON object on one line. A malloc'd string the
 * caller frees with free(), or NULL (a NULL argument or out of memory). */
char *xq_game_record_json(const xq_game *g, const struct xq_record *rec, const char *file);

/* The state of `g` as one JSON object on one line: result, reason, rules,
 * plies, fouls {red, black} and the FEN of the current position (the
 * summary `xqref judge --moves` ends with). A malloc'd string the caller
 * frees with free(), or NULL (NULL `g` or out of memory). */
char *xq_game_summary_json(const xq_game *g);

/* Play the case file `in` through the game state machine: one JSON object
 * a line (id, ruleset, fen, moves, expect; blank lines and lines starting
 * with '#' skipped), each case's moves in any notation, the ruling due on
 * the last move ("must_change", "red_must_change" or "black_must_change"
 * also match a 变着 order). Prints to `out` a FAIL line for each case that
 * fails (why, and the ruling it got), with `verbose` a pass line for each
 * that passes, and last "N passed, M failed"; the counts go to *passed and
 * *failed (either may be NULL). Returns XQ_OK, XQ_EINVAL (NULL stream) or
 * XQ_ENOMEM (nothing printed). */
int xq_judge_cases(FILE *in, FILE *out, int verbose, int *passed, int *failed);

/* One game of the judge bench: its start and its main line. */
typedef struct xq_bench_game {
  char fen[XQ_FEN_MAX];
  int n;
  xq_move m[XQ_BENCH_GAME_PLIES];
} xq_bench_game;

/* Fill games[0..n) with seeded random games from the start position:
 * random legal moves, and one ply in eight the move of four plies before
 * when it is legal (a cycle, so that repetition rulings run), until mate,
 * stalemate or XQ_BENCH_GAME_PLIES plies. A seed gives the same games on
 * every machine. Cannot fail. */
void xq_bench_games_random(xq_bench_game *games, int n, uint64_t seed);

/* Read up to `max` games of the file `path` (PGN, XQF or DhtmlXQ:
 * xq_games_open) into games[]: their main lines, cut at
 * XQ_BENCH_GAME_PLIES plies; bad games are skipped and a read error ends
 * the file. Returns the number read (0 when none), or XQ_EINVAL (NULL
 * argument), XQ_ENOMEM or the error of xq_games_open, with `err` (may be
 * NULL) saying why. */
int xq_bench_games_read(const char *path, xq_bench_game *games, int max, xq_error *err);

/* Replay games[0..n) `rounds` times through the full rules of xq_game
 * under `rules`, timed, then once more timing each verdict, and once more
 * as a board's moves reach the server (each move as Chinese text in a
 * MOVE event: xq_game_may_search, then xq_game_apply), and print to `out`
 * four lines: games, rounds, plies, repetition rulings and games decided;
 * the time, plies/s and the mean time of one verdict; the slowest verdict
 * and the mean of those that ruled a repeated cycle; the move-text
 * round's plies, plies/s, mean time of a move and how many moves
 * xq_game_may_search sent to a search.
 * Returns XQ_OK, XQ_EINVAL (a NULL argument, n or rounds below 1) or
 * XQ_ENOMEM (nothing printed). */
int xq_judge_bench(const xq_rules *rules, const xq_bench_game *games, int n, int rounds,
                   FILE *out);

#endif /* XQ_ADJUDICATOR_H */
