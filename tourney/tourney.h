/*
 * tourney.h -- public interface of the xqref tournament core: players and
 * groups, the event state derived from the event log, round-1 and Chinese
 * adjacent (积分编排) pairing, standings with the Chinese tie-breaks, FIDE
 * TRF-16 import/export and the SQLite event store (tourney.md).
 *
 * Points are integers in half-units everywhere (tourney.md §1): a 2/1/0
 * win is 4, a 1/½/0 win is 2. Players of an event are addressed by their
 * id, 1..n in registration (or TRF) order; pno is the pairing number
 * (序号) that orders players inside a score group.
 *
 * Only this module opens SQLite. Functions return XQ_OK or a negative
 * XQ_E* code (engine.h, plus XQ_ENOPAIRING and XQ_ESTORE below).
 */
#ifndef XQ_TOURNEY_H
#define XQ_TOURNEY_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* ------------------------------------------------------------------ */
/* Limits and status codes                                             */
/* ------------------------------------------------------------------ */

#define XQ_TOURNEY_PLAYERS_MAX 9999  /* TRF pairing numbers have 4 digits */
#define XQ_TOURNEY_ROUNDS_MAX 49     /* keeps TRF points within 4 columns */
#define XQ_TOURNEY_NAME_MAX 256      /* bytes of a UTF-8 name, NUL included */
#define XQ_TOURNEY_FIELD_MAX 64      /* region, club, team, title, ... */
#define XQ_TOURNEY_TB_MAX 16         /* tie-break codes in one order */
#define XQ_TRF_LINE_MAX 8192         /* longest TRF line we read */
#define XQ_TRF_NAME_CHARS 33         /* name field, in code points */
#define XQ_TRF_EXTRA_MAX (1L << 20)  /* bytes of non-player TRF lines kept */
#define XQ_TRF_FILE_MAX (64L << 20)  /* largest TRF file read */
#define XQ_PAIR_NODES_MAX 20000000L  /* search steps of one pairing */
#define XQ_PAIR_BRACKET_NODES 200000L /* steps one score group may spend on one
                                         leftover count (or bye candidate)
                                         before the next is tried */

enum {
  XQ_ENOPAIRING = -20, /* no pairing satisfies the absolute constraints */
  XQ_ESTORE = -21      /* the SQLite store failed or is not an event */
};

/* Text of a status code, including the two above. Never NULL. */
const char *xq_tourney_strerror(int code);

/* ------------------------------------------------------------------ */
/* Results and per-round state (tourney.md §2)                         */
/* ------------------------------------------------------------------ */

typedef enum {
  XQ_TR_NONE = 0, /* nothing recorded (not paired, or result pending) */
  XQ_TR_WIN,      /* over-the-board win */
  XQ_TR_DRAW,
  XQ_TR_LOSS,
  XQ_TR_FWIN,     /* forfeit win: the opponent did not play */
  XQ_TR_FLOSS,    /* forfeit loss (late, absent at the board) */
  XQ_TR_PAB,      /* pairing-allocated bye (轮空) */
  XQ_TR_HPB,      /* half-point bye (TRF H) */
  XQ_TR_FPB,      /* requested full-point bye (TRF F) */
  XQ_TR_ZPB,      /* announced absence, 0 points (TRF Z) */
  XQ_TR_KO        /* in the knockout stage, not paired in the Swiss */
} xq_tres;

typedef enum { XQ_TC_NONE = 0, XQ_TC_RED = 1, XQ_TC_BLACK = 2 } xq_tcolour;

/* One player in one round. */
typedef struct xq_tslot {
  uint16_t opp;     /* opponent id, 0 = none */
  uint8_t colour;   /* xq_tcolour */
  uint8_t res;      /* xq_tres */
  uint8_t fouls;    /* fouls recorded in this round */
  uint8_t absent;   /* announced absence: 0 none; XQ_TR_HPB or XQ_TR_FPB for a
                       requested half- or full-point bye, else a zero-point one */
  char code;        /* TRF result character kept for round trips, 0 = derive */
} xq_tslot;

/* ------------------------------------------------------------------ */
/* Players and groups                                                  */
/* ------------------------------------------------------------------ */

typedef struct xq_tplayer {
  int pno;                              /* pairing number 序号, 0 = not yet */
  char name[XQ_TOURNEY_NAME_MAX];       /* UTF-8, "Last, First" or 张三 */
  int rating;                           /* 0 = unrated */
  char birth[11];                       /* YYYY/MM/DD or "" */
  char sex;                             /* 'm', 'w' or 0 */
  char title[4];
  char fed[4];
  char fide_id[12];
  char region[XQ_TOURNEY_FIELD_MAX];    /* 地区 */
  char club[XQ_TOURNEY_FIELD_MAX];      /* 单位 */
  char team[XQ_TOURNEY_FIELD_MAX];
  int local;                            /* local-player flag (本地棋手) */
  int withdrawn;                        /* first round not paired, 0 = in */
  int trf_rank;                         /* rank column read from TRF, 0 */
} xq_tplayer;

/* Check and normalise a player before registration: the name must be
 * valid UTF-8, 1..XQ_TOURNEY_NAME_MAX-1 bytes without control characters;
 * the birth date, if set, is rewritten as YYYY/MM/DD (YYYY-MM-DD and
 * YYYY.MM.DD are accepted) and must be a real date; sex must be 'm', 'w'
 * or 0; rating 0..9999. Returns XQ_OK or XQ_EINVAL with `err` (may be
 * NULL) naming the field. Modifies only the birth field. */
int xq_player_check(xq_tplayer *p, xq_error *err);

/* The details of a registered player an edit may correct
 * (xq_tstore_edit), as bits; XQ_PE_NAMES names them in bit order. */
enum {
  XQ_PE_NAME = 1 << 0, XQ_PE_SEX = 1 << 1, XQ_PE_BIRTH = 1 << 2, XQ_PE_REGION = 1 << 3,
  XQ_PE_CLUB = 1 << 4, XQ_PE_TEAM = 1 << 5, XQ_PE_RATING = 1 << 6, XQ_PE_LOCAL = 1 << 7,
  XQ_PE_ALL = (1 << 8) - 1
};
#define XQ_PE_COUNT 8
#define XQ_PE_NAMES {"name", "sex", "birth", "region", "club", "team", "rating", "local"}

/* Number of Unicode code points in UTF-8 `s`, or -1 if it is not valid
 * UTF-8. */
int xq_utf8_len(const char *s);

/* A group (组别) by birth-date band, sex and the local flag. Dates are
 * inclusive YYYY/MM/DD bounds; "" leaves that side open. */
typedef struct xq_tgroup {
  char name[XQ_TOURNEY_FIELD_MAX];
  char born_from[11];   /* born on or after, "" = open */
  char born_to[11];     /* born on or before, "" = open */
  char sex;             /* 'm', 'w', 0 = both */
  int local_only;
  int sections;         /* men and women ranked apart (xq_group_sections) */
  int apart;            /* plays an event of its own, not the open group's (Tangshan: the other
                           groups' own rounds and clocks, 八.2, 八.4) */
} xq_tgroup;

/* True when `p` belongs to group `g`. A player without a birth date
 * belongs only to groups with no date bound. Cannot fail. */
int xq_group_match(const xq_tgroup *g, const xq_tplayer *p);

/* True when `want` names group `g`: its whole name, or one word of it
 * ("老年组 seniors": 老年组 or seniors). Cannot fail. */
int xq_group_named(const xq_tgroup *g, const char *want);

#define XQ_WOMEN_SECTION_MIN 3  /* Tangshan: 女子组不足三人…混入男子组 */

/* Split the members of group `g` (sex ignored) among `players[0..n-1]`
 * into a men's and a women's section: ids (1-based) go to men[] and
 * women[] (room for n each) and the counts to *nmen, *nwomen. When the
 * women are fewer than XQ_WOMEN_SECTION_MIN they are merged into the
 * men's section (women[] stays empty) and *merged is set. Players with
 * no sex recorded count as men. Returns XQ_OK or XQ_EINVAL. */
int xq_group_sections(const xq_tgroup *g, const xq_tplayer *players, int n,
                      int *men, int *nmen, int *women, int *nwomen, int *merged);

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

/* Tie-break codes (tourney.md §5.2). */
typedef enum {
  XQ_TB_PTS = 0,        /* 积分 */
  XQ_TB_OS,             /* 对手分 (Buchholz) */
  XQ_TB_OS_C1,          /* 对手分去一 */
  XQ_TB_PS,             /* 累进分 */
  XQ_TB_WINS,           /* 胜局 */
  XQ_TB_BWINS,          /* 后手胜局 */
  XQ_TB_RWINS,          /* 先手胜局 */
  XQ_TB_BLACK,          /* 后手局数 */
  XQ_TB_FOULS,          /* 犯规, fewer first */
  XQ_TB_DE,             /* 直胜 */
  XQ_TB_SB,             /* 胜手和 + ½·和手和 */
  XQ_TB_ROUNDBACK_LAST, /* 逐轮比较 from the last round */
  XQ_TB_ROUNDBACK_FIRST,/* 去除第一轮再比 */
  XQ_TB_LOT,            /* drawing of lots with the stored seed */
  XQ_TB_COUNT
} xq_tb;

typedef enum { XQ_BYE_OS_ZERO = 0, XQ_BYE_OS_LOWEST } xq_bye_os;
typedef enum { XQ_DE_FIDE = 0, XQ_DE_TWO_ONLY } xq_de_mode;
typedef enum { XQ_FIRST_BY_RATING = 0, XQ_FIRST_BY_LOT } xq_first_round;

typedef struct xq_tconfig {
  int rounds;              /* planned Swiss rounds, 0 = unknown */
  /* points in half-units (tourney.md §1) */
  int win, draw, loss, pab, fwin, floss;
  int first_round;         /* xq_first_round */
  int max_colour_diff;     /* 2: |red - black| = 3 forbidden (禁止多三) */
  int forbid_three;        /* 禁止连三 */
  int last_round_relax;    /* top-scorers may break both in the last round */
  int forfeit_counts_as_met;
  int missed_rounds_withdraw; /* missed rounds that withdraw a player, 0 off */
  int withdraw_consecutive;   /* only missed rounds in a row count (Shaanxi 连续弃权两轮) */
  int wins_count_forfeits; /* WINS includes forfeit wins */
  int bye_os;              /* xq_bye_os */
  int de_mode;             /* xq_de_mode */
  uint64_t lot_seed;       /* LOT and by_lot numbering */
  int ntb;
  int tb[XQ_TOURNEY_TB_MAX];
} xq_tconfig;

/* Defaults: 2/1/0 scoring, bye and forfeit win = win, first round by
 * rating, colour limits 2 and 禁止连三 with the last-round relaxation,
 * forfeits count as meetings, two missed rounds withdraw, OS with a zero
 * bye, FIDE direct encounter, the 对手分方案 tie-break order. */
void xq_tconfig_default(xq_tconfig *cfg);

/* Set 2/1/0 (`halves` = 0) or 1/½/0 (`halves` = 1) points for win, draw,
 * loss, bye and forfeits. Cannot fail. */
void xq_tconfig_scoring(xq_tconfig *cfg, int halves);

/* Parse a comma-separated tie-break order such as
 * "PTS,OS,WINS,FOULS,BWINS,BLACK,ROUNDBACK,LOT" (codes of tourney.md §5.2;
 * ROUNDBACK alone means from the last round, ROUNDBACK_FIRST the other
 * way), or the name of a preset: "os" (对手分方案), "ps" (累进分方案),
 * "xinjiang", "burqin", "shaanxi", "wujiaqu", "tangshan" (regulations.md).
 * Fills cfg->tb/ntb only on success. Returns XQ_OK or XQ_EINVAL with
 * `err` naming the bad code. */
int xq_tconfig_tiebreaks(xq_tconfig *cfg, const char *spec, xq_error *err);

/* Code name of a tie-break ("OS", ...). Never NULL. */
const char *xq_tb_name(int tb);

/* Write the tie-break order of `cfg` as a comma list into buf (len bytes).
 * Returns XQ_OK or XQ_ELIMIT when it does not fit. */
int xq_tconfig_tb_format(const xq_tconfig *cfg, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Event: players and the per-round table                              */
/* ------------------------------------------------------------------ */

/* Two players who may not be paired with each other in rounds from..to
 * (tourney.md §3.2.4: same team, club or family; TRF XXP for the whole
 * event, TRF-2026 260 for some rounds). */
typedef struct xq_tforbid {
  int a, b;
  int from, to;            /* rounds, inclusive */
} xq_tforbid;

#define XQ_TOURNEY_FORBID_MAX 100000 /* forbidden pairs of one event */

typedef struct xq_tevent {
  char name[XQ_TOURNEY_NAME_MAX];
  xq_tconfig cfg;
  int n;                   /* players */
  int cap;                 /* allocated players */
  xq_tplayer *players;     /* [n], id = index + 1 */
  xq_tslot *slots;         /* [cap * XQ_TOURNEY_ROUNDS_MAX] */
  int nrounds;             /* rounds with any pairing or result recorded */
  int initial_black;       /* TRF XXC black1: round-1 colours flipped */
  char *extra;             /* TRF lines other than 001, kept verbatim */
  size_t extra_len;
  int extra_at;            /* offset in extra where the 001 lines go */
  int trf_zero_pad;        /* TRF opponents written as 0007 */
  xq_tforbid *forbid;      /* [nforbid] pairs never to pair (from TRF XXP / 260) */
  int nforbid;
} xq_tevent;

/* Allocate an empty event with `cfg` (NULL = defaults) and the given name
 * (NULL = ""). Returns the event, which the caller frees with
 * xq_tevent_free, or NULL when out of memory. */
xq_tevent *xq_tevent_new(const xq_tconfig *cfg, const char *name);

/* Free an event and everything it owns. NULL is a no-op. */
void xq_tevent_free(xq_tevent *ev);

/* Forbid pairing players a and b (a != b) in rounds from..to (1 and
 * XQ_TOURNEY_ROUNDS_MAX for the whole event). Returns XQ_OK, XQ_EINVAL
 * (a == b, bad rounds), XQ_ELIMIT (XQ_TOURNEY_FORBID_MAX) or XQ_ENOMEM. */
int xq_tevent_forbid(xq_tevent *ev, int a, int b, int from, int to);

/* True when a and b may not be paired in round `round` (a forbidden pair;
 * both pairing systems treat it as a rematch, tourney.md §3.2.4). */
int xq_tevent_forbidden(const xq_tevent *ev, int a, int b, int round);

/* Append a copy of `p` (checked with xq_player_check) and store its id
 * in *id (may be NULL). Returns XQ_OK, XQ_EINVAL (bad player), XQ_ELIMIT
 * (XQ_TOURNEY_PLAYERS_MAX) or XQ_ENOMEM; the event is unchanged on
 * failure. */
int xq_tevent_add(xq_tevent *ev, const xq_tplayer *p, int *id, xq_error *err);

/* The slot of player `id` (1..n) in round `r` (1..XQ_TOURNEY_ROUNDS_MAX).
 * Callers pass valid ids and rounds; out-of-range values are clamped to
 * the nearest valid slot rather than read outside the table. */
xq_tslot *xq_tevent_slot(const xq_tevent *ev, int id, int r);

/* Points of one slot under the event's scoring, in half-units. */
int xq_tslot_points(const xq_tevent *ev, const xq_tslot *s);

/* Points of player `id` after rounds 1..upto. */
int xq_tevent_points(const xq_tevent *ev, int id, int upto);
/* The number a player is known by on every sheet, listing and command
 * (`--player N`): the pairing number 序号 once drawn, before that the
 * registration id. xq_tevent_player_no is the inverse: the id of the
 * player known as `no`, or 0. */
int xq_tplayer_no(const xq_tevent *ev, int id);
int xq_tevent_player_no(const xq_tevent *ev, int no);
/* The last round R such that every game of rounds 1..R has its result
 * (0 before any round is complete): what "after round R" may say. */
int xq_tevent_rounds_complete(const xq_tevent *ev);

/* The result `code` of the game red v black in round `round`, as the
 * store's log records it ("1-0", "0-1", "=", "+-", "-+", "--"; anything
 * else clears it), set on both players' slots: what xq_tstore_load does
 * for a result event, for a caller that keeps its event in step with the
 * log instead of reloading it. Ids or round out of range: nothing. */
void xq_tevent_set_result(xq_tevent *ev, int round, int red, int black, const char *code);

/* Add `count` fouls (may be negative) to player `id` in round `round`,
 * clamped to 0..255, as xq_tstore_load does for a foul event. Ids or
 * round out of range: nothing. */
void xq_tevent_add_fouls(xq_tevent *ev, int id, int round, int count);

/* Apply the automatic withdrawal rule (tourney.md §3.1.2, §4.2): a player
 * with cfg.missed_rounds_withdraw missed rounds (forfeit losses or
 * announced absences) within rounds 1..upto is not paired after that
 * round. Sets players[].withdrawn where it was 0. Cannot fail. */
void xq_tevent_apply_withdrawals(xq_tevent *ev, int upto);

/* True when every pairing of rounds 1..r has a result. */
int xq_tevent_round_complete(const xq_tevent *ev, int r);

/* ------------------------------------------------------------------ */
/* Pairing                                                             */
/* ------------------------------------------------------------------ */

typedef struct xq_tboard {
  int red;    /* player id */
  int black;  /* player id, 0 = the bye (red holds the recipient) */
} xq_tboard;

typedef struct xq_tpairing {
  int round;
  int nboards;        /* boards including the bye */
  xq_tboard *boards;  /* [nboards], in board order, the bye last */
} xq_tpairing;

/* Free the boards of a pairing (not the struct). NULL-safe. */
void xq_tpairing_clear(xq_tpairing *pr);

#define XQ_TOURNEY_CHANGES_MAX 64     /* an arbiter's changes to one pairing */
#define XQ_TOURNEY_REASON_MAX 200     /* bytes of the reason of one, NUL included */
#define XQ_TOURNEY_WARN_MAX 2048      /* the warnings about one amended pairing */

/* A change an arbiter makes to a computed pairing before publishing it. */
enum {
  XQ_TCH_SWAP = 1, /* players a and b (ids) trade places */
  XQ_TCH_COLOURS,  /* board a's players trade colours */
  XQ_TCH_MOVE      /* board a goes to table b, the boards between shift */
};
typedef struct xq_tchange {
  int kind;                          /* XQ_TCH_* */
  int a, b;
  char reason[XQ_TOURNEY_REASON_MAX]; /* why (kept in the event log with the pairing) */
} xq_tchange;

/* Apply ch[0..n) to `pr` (a pairing of round pr->round computed for
 * `ev`), in order; then write into warn[0..cap) one line for each
 * absolute rule the pairing breaks (a pair that met before, a colour
 * beyond the limits, a second bye), "" when none: an arbiter may still
 * publish it. XQ_OK, or XQ_EINVAL with `err` when a change names no such
 * player or board (pr is then partly changed: compute it again). */
int xq_pairing_amend(const xq_tevent *ev, xq_tpairing *pr, const xq_tchange *ch, int n, char *warn,
                     size_t cap, xq_error *err);

/* Give every player a pairing number 1..n for the whole event (tourney.md
 * §3.4.1): by rating (descending, then registration order) or, with
 * XQ_FIRST_BY_LOT, by a shuffle seeded from cfg.lot_seed. Players that
 * already have a number keep it; late entries get the next numbers.
 * Returns XQ_OK. */
int xq_assign_pnos(xq_tevent *ev);

/* How the pairing numbers are given before round 1 (抽签/种子). */
enum { XQ_NUM_RATING = 0, XQ_NUM_LOT, XQ_NUM_MANUAL };
#define XQ_NUM_SEED_MAX UINT64_C(999999999999999) /* 15 digits: a seed every JSON writer prints exactly */

typedef struct xq_tnumbering {
  int method;          /* XQ_NUM_* */
  uint64_t seed;       /* XQ_NUM_LOT: the shuffle's seed, 0..XQ_NUM_SEED_MAX */
  const int *manual;   /* XQ_NUM_MANUAL: [ev->n], manual[id - 1] = that player's number */
} xq_tnumbering;

/* Give every player of `ev` a new pairing number 1..n as `how` says,
 * replacing any it had: XQ_NUM_RATING as xq_assign_pnos does by rating
 * (descending, then registration order), XQ_NUM_LOT by its shuffle
 * seeded from how->seed, XQ_NUM_MANUAL the numbers given, which must be
 * 1..n each once. Returns XQ_OK, or XQ_EINVAL with `err` (a bad method or
 * seed; a manual number out of range, given twice or missing, named)
 * and `ev` unchanged; XQ_ENOMEM. */
int xq_number_players(xq_tevent *ev, const xq_tnumbering *how, xq_error *err);

/* A seed for a drawing of lots from the system's random source
 * (getrandom), 0..XQ_NUM_SEED_MAX. Returns XQ_OK or XQ_EIO. */
int xq_lot_seed_random(uint64_t *seed);

/* The names "rating", "lot", "manual" of XQ_NUM_*; xq_num_method_parse
 * is the inverse (-1 for anything else). */
const char *xq_num_method_name(int method);
int xq_num_method_parse(const char *s);

/* Pair round 1 (tourney.md §3.4): players by pairing number, boards
 * 1–2, 4–3, 5–6, 8–7 (odd board: smaller number Red, even board: larger
 * number Red), the last player of an odd count gets the bye. Absent and
 * withdrawn players are left out. Fills `out` (caller frees with
 * xq_tpairing_clear). Returns XQ_OK, XQ_EINVAL (players without pairing
 * numbers) or XQ_ENOMEM. */
int xq_pair_round1(const xq_tevent *ev, xq_tpairing *out);

/* Statistics of a pairing search. */
typedef struct xq_pair_stats {
  long nodes;       /* search steps */
  int floaters;     /* players paired below their score group */
} xq_pair_stats;

/* Pair round `round` >= 2 with the Chinese adjacent method (tourney.md
 * §3.5): score groups from the top, 异行 (cross-row) then 同行 pairs of
 * the nearest compatible players, fewest leftovers per group (floaters
 * placed first in the next group), no rematch, colour limits, bye to
 * the lowest eligible player and never twice; colours by §3.7 steps 1,
 * 2, 3, 5C; boards in §3.8 order. Rounds before `round` must be complete.
 * Round 1 is delegated to xq_pair_round1. Fills `out` and, if non-NULL,
 * `st`. Returns XQ_OK; XQ_ENOPAIRING when no pairing satisfies §3.2;
 * XQ_ELIMIT when the search exceeded XQ_PAIR_NODES_MAX; XQ_EINVAL;
 * XQ_ENOMEM. `out` is untouched on failure. */
int xq_pair_cn(const xq_tevent *ev, int round, xq_tpairing *out, xq_pair_stats *st);

/* Pair round `round` with the FIDE Dutch system (C.04.3, 2025 rules) as
 * bbpPairings does it (tourney.md §3.6): maximum-weight matchings bracket
 * by bracket, round 1 top half against bottom half, forfeited games not
 * counted as played, PAB by C.2/C.9, colours by C.04.3 E with the initial
 * colour of ev->initial_black, boards in bbpPairings' order (the bye
 * last). Paired are the players without a block for `round` (withdrawal
 * rules are not applied); cfg.rounds tells the last round. Fills `out`
 * (caller frees with xq_tpairing_clear). Returns XQ_OK; XQ_ENOPAIRING
 * when the absolute criteria cannot be met; XQ_ELIMIT when the weights
 * do not fit; XQ_EINVAL; XQ_ENOMEM. */
int xq_pair_dutch(const xq_tevent *ev, int round, xq_tpairing *out);

/* Pairing systems. */
enum { XQ_PAIR_CN = 0, XQ_PAIR_DUTCH = 1 };

/* "cn" -> XQ_PAIR_CN, "dutch" -> XQ_PAIR_DUTCH, anything else -> -1. */
int xq_pair_system_parse(const char *s);

/* Pair round `round` with `system` (XQ_PAIR_*), leaving out the players
 * withdrawn for the round under either system. For Dutch the withdrawn
 * are marked absent (zero-point) in `ev`'s slots of that round, so pass
 * an event you own (a loaded copy). `st` (may be NULL) gets the search
 * statistics of the Chinese pairer (zeros for Dutch). Returns what the
 * pairer returns (XQ_OK, XQ_ENOPAIRING, XQ_ELIMIT, ...), XQ_EINVAL for a
 * bad system or round. */
int xq_pair_system(xq_tevent *ev, int round, int system, xq_tpairing *out, xq_pair_stats *st);

/* Write a pairing into the event's round table (opponents, colours, the
 * PAB for the bye; results pending) and mark announced-absent players of
 * that round ZPB. Returns XQ_OK or XQ_EINVAL for a bad round or id. */
int xq_tevent_apply_pairing(xq_tevent *ev, const xq_tpairing *pr);

/* True when players a and b may meet in `round` under §3.2 (no rematch,
 * a colour allocation within the limits). Used by tests and the CLI. */
int xq_pair_compatible(const xq_tevent *ev, int round, int a, int b);

/* True when Red `red` and Black `black` in `round` keep both players within
 * the colour limits (with the last-round top-scorer relaxation). */
int xq_pair_colours_ok(const xq_tevent *ev, int round, int red, int black);

/* ------------------------------------------------------------------ */
/* Standings                                                           */
/* ------------------------------------------------------------------ */

typedef struct xq_tstanding {
  int id;                         /* player id */
  int rank;                       /* 1..n, never shared */
  int64_t val[XQ_TOURNEY_TB_MAX]; /* value per configured code (half-units
                                     for point sums; DE: level in its tie,
                                     lower first, -1 where it separates
                                     nobody; ROUNDBACK: 0) */
  int wins, draws, losses;        /* over the board, forfeits as W/L */
} xq_tstanding;

/* Rank every player after rounds 1..upto (0 or beyond the last recorded
 * round = all recorded rounds) by cfg.tb, then LOT, then pairing number
 * (tourney.md §5, no shared places); before any game of those rounds has
 * a result, by points (a bye's) and then the starting order (pairing
 * number, else registration). A game paired and not over yet counts in
 * no score and no tie-break (OS, OS_C1, SB, DE, FOULS, ...): standings
 * during a round are of its finished games only.
 * Fills out[0..n-1] in rank order (room for ev->n). Returns XQ_OK,
 * XQ_EINVAL or XQ_ENOMEM. */
int xq_standings(const xq_tevent *ev, int upto, xq_tstanding *out);

/* The round the standings are of when none is asked for: the last round
 * whose games are all in (xq_tevent_rounds_complete), else round 1 in
 * progress once it is paired, else 0 (nothing paired: before round 1).
 * The CLI, the sheets and /api/standings.json use it alike. */
int xq_tevent_standings_round(const xq_tevent *ev);

/* One tie-break value of player `id` over rounds 1..upto that does not
 * depend on the tied group (every code except DE and ROUNDBACK_*). */
int64_t xq_tb_value(const xq_tevent *ev, int tb, int id, int upto);

/* ------------------------------------------------------------------ */
/* TRF (tourney.md §9)                                                 */
/* ------------------------------------------------------------------ */

/* Parse TRF-16 / TRF(x) text (`len` bytes; CR, LF or CRLF line ends) into
 * a new event (*out, caller frees). Reads 001 player lines, XXR/142
 * (rounds), XXC/152 (initial colour), 162 and BBW/BBD/BBL/BBU/BBF lines
 * (scoring); keeps every other line verbatim for export. Points in
 * columns 81-84 must equal the sum of the results. Names are measured in
 * code points. Returns XQ_OK, or XQ_EINVAL / XQ_ELIMIT / XQ_ENOMEM with
 * `err->pos` = 1-based line number and a message; *out is NULL then. */
int xq_trf_parse(const char *text, size_t len, xq_tevent **out, xq_error *err);

/* Read and parse a TRF file. As xq_trf_parse; XQ_EIO if unreadable. */
int xq_trf_read(const char *path, xq_tevent **out, xq_error *err);

/* Write `ev` as TRF-16 to `f` with LF line ends: the kept header lines
 * (or a generated header: 012, XXR, XXC and, for scoring other than
 * 1/½/0, the 162 and BBW/BBD/BBL lines), then one 001 line per player
 * with the name padded to 33 code points and the rank from the standings
 * (or the rank read from TRF). Returns XQ_OK or XQ_EIO. */
int xq_trf_write(const xq_tevent *ev, FILE *f);

/* The first round with no game or PAB recorded: the round to pair next. */
int xq_trf_next_round(const xq_tevent *ev);

/* Pairing the next round of an event read from TRF (next_round.c). */
typedef struct xq_trf_pair_opts {
  int system;  /* XQ_PAIR_CN or XQ_PAIR_DUTCH */
  int round;   /* pair this round as if only rounds 1..round-1 were in the
                  file (blocks of it other than games and the PAB kept as
                  announced absences); 0 = the round after the last */
  int rounds;  /* the event's rounds, overriding XXR / 142; 0 = the file's */
} xq_trf_pair_opts;

/* Pair the next round of `ev` (xq_trf_next_round, after o->round and
 * o->rounds are applied to `ev`, which is changed) with xq_pair_cn or
 * xq_pair_dutch into `out` (caller frees with xq_tpairing_clear). Returns
 * XQ_OK; XQ_EINVAL for bad options, or with `err` (may be NULL) saying
 * why when the round cannot be paired (not the round asked for, every
 * round paired, games without a result); the pairer's code (XQ_ENOPAIRING,
 * XQ_ELIMIT, ...) with `err` naming the round. */
int xq_trf_pair_next(xq_tevent *ev, const xq_trf_pair_opts *o, xq_tpairing *out, xq_error *err);

/* Write `pr` as bbpPairings does: the number of boards (the bye counts),
 * then "red black" a line, 0 for the bye. Returns XQ_OK, XQ_EINVAL or
 * XQ_EIO. */
int xq_pairing_write_bbp(const xq_tpairing *pr, FILE *f);

/* ------------------------------------------------------------------ */
/* SQLite event store                                                  */
/* ------------------------------------------------------------------ */

#define XQ_STORE_SCHEMA_VERSION 9
#define XQ_STORE_BUSY_MS 5000

typedef struct xq_tstore xq_tstore;

/* How xq_tstore_open takes the file at its path. */
enum {
  XQ_TSTORE_OPEN = 0,   /* an existing store only */
  XQ_TSTORE_CREATE = 1, /* an existing store, or a new one when the file is missing */
  XQ_TSTORE_INIT = 2    /* as CREATE, and a new store in an existing empty (0-byte)
                           file (the command line's --init) */
};

/* Open the store at `path` as `mode` says: WAL journal, synchronous=FULL,
 * foreign keys, busy timeout XQ_STORE_BUSY_MS, and the schema migrated up
 * to XQ_STORE_SCHEMA_VERSION in one transaction per step. An empty
 * (0-byte) file is refused, untouched, unless mode is XQ_TSTORE_INIT: a
 * store truncated to nothing is not taken for a new one. Returns XQ_OK
 * with *out set (close with xq_tstore_close), or XQ_EIO (SQLite cannot
 * open the file), XQ_ESTORE (an empty file, not an SQLite database, a
 * damaged one, not an xqref store, one written by a newer version),
 * XQ_EINVAL, XQ_ENOMEM; `err` then says "cannot open PATH: " and why in
 * SQLite's own words (with the system's reason when there is one), and
 * *out is NULL. */
int xq_tstore_open(const char *path, int mode, xq_tstore **out, xq_error *err);

/* Close the store. NULL is a no-op. Every committed event stays. */
void xq_tstore_close(xq_tstore *st);

/* Schema version of the open store. */
int xq_tstore_schema_version(xq_tstore *st);

/* Record the event's name and configuration (once, by `tourney new`).
 * Returns XQ_OK, XQ_EINVAL if already set, or XQ_ESTORE. */
int xq_tstore_create_event(xq_tstore *st, const char *name, const xq_tconfig *cfg,
                           xq_error *err);

/* The event kinds of the log. */
typedef enum {
  XQ_EV_REGISTER = 1, XQ_EV_NUMBERING, XQ_EV_PAIRING, XQ_EV_RESULT,
  XQ_EV_FORFEIT, XQ_EV_FOUL, XQ_EV_ABSENCE, XQ_EV_WITHDRAWAL
} xq_evkind;

/* Register a player (checked with xq_player_check); *id gets the new id.
 * One committed transaction. Returns XQ_OK, XQ_EINVAL or XQ_ESTORE. */
int xq_tstore_register(xq_tstore *st, const xq_tplayer *p, int *id, xq_error *err);

/* Publish the pairing of a round, together with the pairing numbers when
 * it is round 1 (taken from ev, which must be the loaded event with
 * numbers assigned). Fails with XQ_EINVAL if the round is already paired.
 * One committed transaction. */
/* As xq_tstore_publish, with the arbiter's changes ch[0..n) that made
 * `pr` (xq_pairing_amend: already applied) kept with it, in order, each
 * with its reason (`tourney log` prints them under the pairing). */
int xq_tstore_publish_amended(xq_tstore *st, const xq_tevent *ev, const xq_tpairing *pr, const xq_tchange *ch,
                              int n, xq_error *err);
int xq_tstore_publish(xq_tstore *st, const xq_tevent *ev, const xq_tpairing *pr,
                      xq_error *err);

/* The published boards of round `round`, in board order, into `out`
 * (caller frees with xq_tpairing_clear). Returns XQ_OK, XQ_EINVAL (round
 * not paired) with `err` saying so, XQ_ELIMIT, XQ_ENOMEM or XQ_ESTORE;
 * `out` holds no boards on failure. */
int xq_tstore_pairing(xq_tstore *st, int round, xq_tpairing *out, xq_error *err);

/* Pair and publish the next round of `ev`, the event loaded from `st`
 * (xq_tstore_load; the caller's copy, which this numbers and the Dutch
 * pairer may mark): the round after the last one paired, which must be
 * one of cfg.rounds (when set), follow complete rounds and have two
 * players or more; the pairing numbers (xq_assign_pnos), the pairing
 * with `system` (xq_pair_system), then xq_tstore_publish (next_round.c).
 * Fills `out` (caller frees with xq_tpairing_clear; no boards on
 * failure). Returns XQ_OK; XQ_EINVAL when the round cannot be paired
 * yet; the pairer's code; what xq_tstore_publish returns; `err` (may be
 * NULL) says why. */
int xq_tstore_pair_next(xq_tstore *st, xq_tevent *ev, int system, xq_tpairing *out, xq_error *err);

/* Record the result of board `board` of round `round`: "1-0" (Red wins),
 * "0-1", "=" (also "1/2" or "0.5-0.5"), "+-" / "-+" (forfeit: the side
 * with '-' did not play), "--" (both forfeit). A later result for the
 * same board replaces the earlier one in the derived state; both stay in
 * the log. Round XQ_KO_ROUND (knockout.h) is the knockout tables: the
 * result of table `board` (xq_tstore_ko_result; no "--", once only).
 * Returns XQ_OK, XQ_EINVAL (no such board, bad code) or XQ_ESTORE. */
int xq_tstore_result(xq_tstore *st, int round, int board, const char *code,
                     xq_error *err);

/* Record `count` fouls (犯规) of player `id` in round `round`. */
int xq_tstore_foul(xq_tstore *st, int round, int id, int count, xq_error *err);

/* Record the announced absence of `id` in `round` (not yet paired): `bye`
 * is XQ_TR_ZPB (0 points), XQ_TR_HPB or XQ_TR_FPB (a requested half- or
 * full-point bye, scoring the draw or win points). */
int xq_tstore_absence(xq_tstore *st, int round, int id, int bye, xq_error *err);

/* Withdraw `id` from round `round` on; points earned stay. */
int xq_tstore_withdraw(xq_tstore *st, int round, int id, xq_error *err);

/* Take a withdrawn player `id` back from round `round` on, which must
 * not be paired yet (a withdrawal event with value 1: the withdrawal
 * stays in the log; docs/store.md). Returns XQ_OK, XQ_EINVAL with `err`
 * (no such player, not withdrawn, the round already paired) or
 * XQ_ESTORE. */
int xq_tstore_reinstate(xq_tstore *st, int round, int id, xq_error *err);

/* Correct the details of player `id`: each field of `fields` (XQ_PE_*)
 * takes its value from `p`; the candidate player (the current details
 * with those changed) must pass xq_player_check. Once round 1 is paired
 * the team may not change (the team standings count the player's every
 * round for one team); the id and the pairing number never change (a
 * rating corrected after the numbers are drawn renumbers no one). One
 * transaction: a row per field that changes, with its old and new text,
 * in the table of edits (schema 9), which xq_tstore_load applies after
 * the log and `tourney log` prints. *changed (may be NULL) gets the
 * fields changed. Returns XQ_OK; XQ_EINVAL with `err` (no such player, a
 * bad field, the team after round 1, nothing changes); XQ_ESTORE. */
int xq_tstore_edit(xq_tstore *st, int id, const xq_tplayer *p, unsigned fields, unsigned *changed,
                   xq_error *err);

/* Number the players before round 1: xq_number_players(ev, how), then
 * the numbers stored as a numbering event without a round (its method,
 * the lot's seed, every player's number; docs/store.md). `ev` is the
 * event loaded from `st` (it gets the numbers). Allowed until round 1 is
 * published, again and again: every drawing stays in the log and the
 * last one counts; round 1's publication then fixes them (players
 * registered after the drawing get the next numbers). Returns XQ_OK;
 * XQ_EINVAL with `err` (round 1 already paired, `ev` not the store's
 * current event, what xq_number_players refuses); XQ_ESTORE. */
int xq_tstore_numbers(xq_tstore *st, xq_tevent *ev, const xq_tnumbering *how, xq_error *err);

/* Import a whole event read from TRF (xq_trf_parse) into an empty store,
 * with configuration `cfg` (typically ev->cfg with the store's own rules
 * set): the players in TRF order (ids = TRF numbers; birth dates TRF uses
 * as placeholders, like 1990/00/00, are dropped), then per round the
 * announced absences, the pairing and the results, as if entered one by
 * one — in one transaction, so a file that cannot be stored leaves the
 * store empty. Returns XQ_OK, XQ_EINVAL with `err` naming the player or round,
 * or XQ_ESTORE. */
int xq_tstore_import(xq_tstore *st, const xq_tevent *ev, const xq_tconfig *cfg, xq_error *err);

/* Rebuild the event from the configuration and the whole log, in log
 * order (*out, caller frees with xq_tevent_free). Returns XQ_OK,
 * XQ_ESTORE or XQ_ENOMEM. */
int xq_tstore_load(xq_tstore *st, xq_tevent **out, xq_error *err);

/* Number of events in the log (0 for a new store), or a negative code. */
long xq_tstore_event_count(xq_tstore *st);

/* Print the log, one event a line, to `f` (the audit trail). */
int xq_tstore_dump(xq_tstore *st, FILE *f);

/* The speed of the game log (store/bench.c; `xqref bench --store`,
 * docs/store.md). */
#define XQ_STORE_BENCH_ROWS_MAX 100000000L /* rows one run appends per batch size */
#define XQ_STORE_BENCH_PATH_MAX 512        /* bytes of the scratch store's path */
typedef struct xq_tstore_bench_opts {
  long rows;        /* rows appended per batch size, 1..XQ_STORE_BENCH_ROWS_MAX */
  const char *dir;  /* where the scratch store is made (and removed again) */
} xq_tstore_bench_opts;

/* Append o->rows game-log rows (moves with replies, over 100 games) to a
 * new store in o->dir in group commits of 1, 50 and 500 rows, each
 * durable, then scan them all and look up replies as a retried message
 * does; one line of rows (or look-ups) per second for each to `out`. The
 * scratch store is removed at the end. Returns XQ_OK; XQ_EINVAL for bad
 * options (a directory name too long: `err` says so); what the store
 * returned, or XQ_ESTORE when a stored reply was not found, with `err`
 * (may be NULL) saying why. */
int xq_tstore_bench(const xq_tstore_bench_opts *o, FILE *out, xq_error *err);

/* ------------------------------------------------------------------ */
/* Live games, tokens and the demo (docs/store.md)                     */
/* ------------------------------------------------------------------ */

/* What the live server keeps in the store (schema versions 5 and 6).
 *
 * Threads: a store may be shared by two threads (the server commits on a
 * worker thread and reads on its loop thread); every call below, and
 * every xq_tstore_* call above, runs whole under the store's lock, so
 * calls from different threads never interleave. A batch belongs to the
 * store, not to a thread: while it is open, writes from either thread
 * join it.
 *
 * Tokens: role names "admin", "arbiter", "board", "viewer". A token is
 * 32 lowercase hex characters (128 bits from getrandom(2)); lookups of
 * anything else are XQ_EINVAL without touching the database. The store
 * keeps only each token's SHA-256 (schema 6, docs/security.md): the
 * token text is in xq_ttoken.token only as token_new and admin_token
 * (when it creates one) return it, and "" in what tokens and token_find
 * return; xq_ttoken.hash is always there. token_revoke takes the token
 * or the XQ_TOKEN_PREFIX_CHARS-character prefix of its hash that
 * `tourney tokens` prints (it must name one live token). Board tokens
 * take round 1..XQ_TOURNEY_ROUNDS_MAX and board 1..XQ_TOURNEY_PLAYERS_MAX
 * (the board need not be paired yet); labels are UTF-8 under
 * XQ_TOURNEY_FIELD_MAX bytes without control characters (NULL = "").
 * token_new and token_revoke fill `err` (may be NULL) and return XQ_OK,
 * XQ_EINVAL (bad role, binding or label; unknown or already revoked
 * token), XQ_ELIMIT (XQ_TOKENS_MAX live tokens), XQ_EIO (no random
 * source) or XQ_ESTORE; nothing is written on failure. token_find may
 * take out = NULL (a validity check); it returns XQ_ESTORE on a database
 * error. tokens returns the live tokens in creation order (*out NULL when
 * there are none; on failure *out = NULL, *n = 0). admin_token returns the
 * oldest live admin token and creates one (label "admin") when there is
 * none, also after the last one was revoked; created may be NULL (the
 * token text comes back only when it was created).
 *
 * Game log: rows take round 1..XQ_TOURNEY_ROUNDS_MAX, board
 * 1..XQ_TOURNEY_PLAYERS_MAX, a source XQ_GSRC_*, seq >= 0, an event of 1
 * to XQ_GAME_TEXT_MAX-1 bytes without control characters (one line) and
 * a reply under XQ_GAME_TEXT_MAX bytes (NULL = ""); anything else is
 * XQ_EINVAL with nothing written. An append is one statement, atomic on
 * its own: a refused row leaves an open batch as it was. game_reply and
 * game_last_seq return XQ_EINVAL for a bad round, board (or seq <= 0) and
 * XQ_ESTORE / XQ_ENOMEM on failure. game_scan holds the lock while it
 * runs; fn may call the store (on the same thread), including writes.
 *
 * Batches: batch_begin returns XQ_EINVAL when a batch (or a write) is
 * already open, else XQ_OK or XQ_ESTORE (the write lock was not had within
 * XQ_STORE_BUSY_MS). batch_commit returns XQ_OK once the batch is on disk,
 * XQ_EINVAL when no batch is open, XQ_ESTORE when the commit failed (the
 * batch is then rolled back) or when SQLite had already rolled it back
 * itself (disk full, I/O error: writes made meanwhile are refused with
 * XQ_ESTORE until the batch is committed or rolled back). Both close the
 * batch. batch_rollback drops everything written since batch_begin (no
 * batch: a no-op). Closing a store with a batch open rolls it back. */

#define XQ_GAME_TEXT_MAX 65536   /* bytes of a game-log event or reply text */
#define XQ_TOKENS_MAX 100000     /* live tokens of one store */

/* Roles of a server access token (net/ issue "server"). */
typedef enum { XQ_ROLE_NONE = 0, XQ_ROLE_ADMIN, XQ_ROLE_ARBITER, XQ_ROLE_BOARD, XQ_ROLE_VIEWER } xq_role;
const char *xq_role_name(int role);          /* "admin", ...; "none" */
int xq_role_parse(const char *s);             /* name -> role, XQ_ROLE_NONE if unknown */
#define XQ_TOKEN_CHARS 32                     /* lowercase hex characters of a token */
#define XQ_TOKEN_HASH_CHARS 64                /* its SHA-256, in hex: what the store keeps */
#define XQ_TOKEN_PREFIX_CHARS 16              /* the hash prefix `tourney tokens` shows */
typedef struct xq_ttoken {
  char token[XQ_TOKEN_CHARS + 1];             /* the token itself: only when just made, else "" */
  char hash[XQ_TOKEN_HASH_CHARS + 1];         /* SHA-256 of the token, lowercase hex */
  int role;                                   /* xq_role */
  int round, board;                           /* the table a board token is bound to; 0 otherwise */
  char label[XQ_TOURNEY_FIELD_MAX];           /* free text, e.g. "table 7" */
} xq_ttoken;
/* SHA-256 (FIPS 180-4) of data[0..len) into out (32 bytes), and as 64
 * lowercase hex characters + NUL; used to keep tokens hashed (sha256.c,
 * docs/security.md). Cannot fail. */
#define XQ_SHA256_LEN 32
void xq_sha256(const void *data, size_t len, unsigned char out[XQ_SHA256_LEN]);
void xq_sha256_hex(const void *data, size_t len, char out[2 * XQ_SHA256_LEN + 1]);
/* 1 when a[0..n) equals b[0..n), else 0, in time that depends on n only
 * (no early exit: token comparisons leak nothing by their timing). */
int xq_ct_equal(const void *a, const void *b, size_t n);
/* New token from the OS random source (getrandom(2)); board tokens need round >= 1 and board >= 1, other roles take 0, 0. One committed transaction (or part of an open batch). */
int xq_tstore_token_new(xq_tstore *st, int role, int round, int board, const char *label, xq_ttoken *out, xq_error *err);
/* Look a token up: XQ_OK and *out, or XQ_EINVAL when unknown or revoked. */
int xq_tstore_token_find(xq_tstore *st, const char *token, xq_ttoken *out);
int xq_tstore_token_revoke(xq_tstore *st, const char *token, xq_error *err);
/* Every live (not revoked) token, malloc'd array *out of *n (caller frees). */
int xq_tstore_tokens(xq_tstore *st, xq_ttoken **out, int *n, xq_error *err);
/* The store's admin token, created on first call (*created = 1 then, else 0). */
int xq_tstore_admin_token(xq_tstore *st, xq_ttoken *out, int *created, xq_error *err);
/* A number (>= 0) that changes when another connection to the store's file
 * -- another process, such as `xqref tourney revoke` while the server runs
 * -- has committed since it was last read; commits through `st` itself do
 * not change it (SQLite's PRAGMA data_version). Cheap: no table is read.
 * The server polls it to learn of tokens made or revoked behind its back
 * (docs/security.md). Returns the number, or XQ_EINVAL / XQ_ESTORE. */
int64_t xq_tstore_data_version(xq_tstore *st);

/* Sources of a game-log row. */
enum { XQ_GSRC_BOARD = 1, XQ_GSRC_ARBITER = 2, XQ_GSRC_INGEST = 3 };
/* One row of the per-game log: an event the adjudicator replays, and the reply that was sent for it. */
typedef struct xq_tgame_rec {
  int64_t id;        /* row id, increasing over the whole store (filled on read) */
  int round, board;
  int source;        /* XQ_GSRC_* */
  int64_t seq;       /* the sender's sequence number (boards), 0 = none */
  const char *event; /* event text, e.g. "h2e2", "clock:5400000/5390000", "foul-red", "result:1-0", "start:<fen>" */
  const char *reply; /* reply JSON sent for it, "" for none */
  int64_t at_ms;     /* Unix time in ms (filled by append when 0) */
} xq_tgame_rec;
/* Group commit: everything between begin and commit is one transaction; COMMIT returns only when it is durable. Other xq_tstore_* writes made while a batch is open join it (as savepoints, so a failed one undoes only itself). */
int xq_tstore_batch_begin(xq_tstore *st, xq_error *err);
int xq_tstore_batch_commit(xq_tstore *st, xq_error *err);
void xq_tstore_batch_rollback(xq_tstore *st);
int xq_tstore_in_batch(xq_tstore *st);
/* Append a row (its own transaction outside a batch). A second row with the same (round, board, source, seq) for seq > 0 is refused with XQ_EINVAL ("duplicate sequence number") and changes nothing. *id (may be NULL) gets the row id. */
int xq_tstore_game_append(xq_tstore *st, const xq_tgame_rec *r, int64_t *id, xq_error *err);
/* The reply stored for (round, board, XQ_GSRC_BOARD, seq): XQ_OK with *reply malloc'd (caller frees), XQ_EINVAL when there is no such row. */
int xq_tstore_game_reply(xq_tstore *st, int round, int board, int64_t seq, char **reply);
/* Highest board seq stored for (round, board), 0 when none. */
int xq_tstore_game_last_seq(xq_tstore *st, int round, int board, int64_t *seq);
/* Call fn for every row of game (round, board) in id order -- round 0 = every game of the store, ordered by id; fn's pointers are valid during the call only; a non-zero return from fn stops the scan and is returned. */
int xq_tstore_game_scan(xq_tstore *st, int round, int board, int (*fn)(void *ctx, const xq_tgame_rec *r), void *ctx, xq_error *err);

/* Fill an empty store with a demo tournament: event "xqref demo open" (2/1/0 scoring, 7 rounds, CXA tie-breaks), `players` (2..XQ_TOURNEY_PLAYERS_MAX) players with plausible Chinese names, ratings, regions and clubs made deterministically, pairing numbers, round 1 paired and published, one board token per round-1 board (label "round 1 table N") and one arbiter token. Returns XQ_OK, XQ_EINVAL (store not empty, bad count) or XQ_ESTORE. */
int xq_tourney_demo(xq_tstore *st, int players, xq_error *err);
/* As xq_tourney_demo, and the tokens it made, with their text (the store
 * keeps only their hashes): a malloc'd array *made of *nmade (caller
 * frees; NULL, 0 on failure). */
int xq_tourney_demo_tokens(xq_tstore *st, int players, xq_ttoken **made, int *nmade, xq_error *err);

/* ------------------------------------------------------------------ */
/* Sheets: CSV, printable HTML, text and XLSX (sheet/sheet.c); listings */
/* ------------------------------------------------------------------ */

/* XQ_SHEET_XLSX is an Office Open XML workbook (sheet/sheet_xlsx.c): one
 * worksheet, the event's name and the sheet's title in its first two
 * rows, bold headings repeated on every printed page, numbers (player
 * numbers, points, tie-break values) stored as numbers, A4. Every sheet
 * writer below takes it besides CSV, HTML and text; it fails with XQ_EIO
 * when the workbook cannot be made (no temporary file, a write error). */
enum { XQ_SHEET_TRF = 0, XQ_SHEET_CSV = 1, XQ_SHEET_HTML = 2, XQ_SHEET_TEXT = 3, XQ_SHEET_XLSX = 4 };
enum { XQ_LANG_EN = 0, XQ_LANG_ZH = 1 };

#define XQ_SHEET_XLSX_MAX (32L << 20) /* bytes of one XLSX workbook read back */

/* "trf", "csv", "html", "text", "xlsx" -> XQ_SHEET_*; anything else (or
 * NULL) -> -1. */
int xq_sheet_format_parse(const char *s);

/* "en", "zh" -> XQ_LANG_*; anything else (or NULL) -> -1. */
int xq_sheet_lang_parse(const char *s);

/* Write the standings after rounds 1..upto (0 or beyond the last round =
 * all recorded rounds) to `f`: XQ_SHEET_CSV gives a heading row and one
 * row per player in rank order (rank, pairing number, name, one column per
 * configured tie-break, W-D-L), RFC 4180 quoting, CRLF records, UTF-8;
 * XQ_SHEET_HTML a standalone HTML5 page (inline CSS, names escaped);
 * XQ_SHEET_TEXT aligned columns (widths in display columns, a CJK
 * character taking two; LF line ends). Headings are English or Chinese
 * by `lang`. Returns XQ_OK, XQ_EINVAL
 * (bad format or language), XQ_ENOMEM or XQ_EIO (write error); on
 * failure part of the output may have been written. */
int xq_sheet_standings(const xq_tevent *ev, int upto, int format, int lang, FILE *f);

#define XQ_SLIP_CONNECT_MAX 255   /* the boards' server address on a slip, "HOST:PORT" */
#define XQ_SLIP_LINK_MAX 512      /* the connection details a slip's QR code holds */
/* The board slips of round pr->round (slips.c): an HTML page to print, a
 * slip per table with two players (the bye has none) holding the table,
 * both players by number and name, tokens[b] (the board token of table
 * b + 1, NULL: no slip) and a QR code of
 * "xqref://CONNECT/?round=R&table=T&token=TOKEN". XQ_OK, XQ_EINVAL,
 * XQ_ENOMEM (the QR encoder) or XQ_EIO. */
int xq_sheet_slips(const xq_tevent *ev, const xq_tpairing *pr, const char *const *tokens, const char *connect,
                   int lang, FILE *f);

/* Write the boards of `pr` (ids of `ev`) as a pairing sheet: board, Red's
 * number, name and points before the round, the result when recorded
 * (1-0, 0-1, =, +-, -+, --), Black's number, name and points; the bye
 * row says so in the result column. Formats and languages as
 * xq_sheet_standings. Returns XQ_OK, XQ_EINVAL (bad arguments or ids) or
 * XQ_EIO. */
int xq_sheet_pairings(const xq_tevent *ev, const xq_tpairing *pr, int format, int lang, FILE *f);

#define XQ_SCORESHEET_MOVES 60   /* numbered move lines of a score sheet (记分表) */
/* The score sheets (记分表) of round pr->round (sheet/scoresheet.c; the
 * knockout's tables when it is XQ_KO_ROUND, headed 淘汰赛). HTML:
 * a page to print, one sheet per table with two players (the bye has
 * none), each on its own A4 page: the event, round, table and a date
 * line, Red's and Black's number and name, XQ_SCORESHEET_MOVES numbered
 * lines for Red's and Black's move in two columns, the result boxes
 * (红胜 / 和 / 黑胜), the time each side used and the signatures of Red,
 * Black and the arbiter. CSV, text and XLSX: the result-collection sheet,
 * one row per such table (table, Red's number and name, Black's number
 * and name, then blank result and signature columns). Returns XQ_OK,
 * XQ_EINVAL (bad arguments or ids), XQ_ENOMEM or XQ_EIO. */
int xq_sheet_scoresheets(const xq_tevent *ev, const xq_tpairing *pr, int format, int lang, FILE *f);

/* The plain listings of `xqref tourney` (sheet/listing.c), one line a
 * row, English, names padded by display width (a CJK character taking
 * two columns). Each returns XQ_OK, XQ_EINVAL (a NULL argument; for the
 * boards, ids outside the event; nothing written) or XQ_EIO (write
 * error).
 *
 * players: id, pairing number, name, rating, birth date, sex, team and
 * the local flag. boards: "round R: N boards", then board, Red's id, name
 * and points before the round, Black's (or "bye"). standings: after
 * rounds 1..upto (0 or beyond the last round = all recorded rounds):
 * rank, id, name, one column per tie-break, W-D-L; also XQ_ENOMEM, with
 * nothing written. token: "ROLE ROUND TABLE TOKEN" ('-' for a round or
 * table of 0; a token read back from the store has no text, the first
 * XQ_TOKEN_PREFIX_CHARS characters of its hash stand there), then its
 * label when `with_label` is set. */
int xq_list_players(const xq_tevent *ev, FILE *f);
int xq_list_boards(const xq_tevent *ev, const xq_tpairing *pr, FILE *f);
int xq_list_standings(const xq_tevent *ev, int upto, FILE *f);
int xq_list_token(const xq_ttoken *t, int with_label, FILE *f);

/* ------------------------------------------------------------------ */
/* Regulations: one preset per real event (tourney/regulation.c)        */
/* ------------------------------------------------------------------ */

/* A value of a regulation and the clause it comes from, both static
 * one-line strings. A value the regulation does not state is "—" with
 * the clause "not stated". Where a supplementary rule (补充规定)
 * contradicts the main text the value follows the supplement and the
 * clause says "overrides ...". */
#define XQ_REG_OPTIONS_MAX 8        /* options (ambiguous readings) of one preset */
#define XQ_REG_OPTION_VALUES_MAX 4  /* readings of one option, with the NULL end */

typedef struct xq_reg_item {
  const char *value;
  const char *clause;
} xq_reg_item;

/* The rows of a regulation other than the rules of play (those are the
 * adjudicator preset of the same name, xq_rules_preset()). */
typedef enum {
  XQ_REG_RULE_BOOK = 0, /* rule book edition */
  XQ_REG_ROUNDS,        /* Swiss rounds */
  XQ_REG_ROUND1,        /* round-1 pairing method */
  XQ_REG_SCORING,       /* win/draw/loss points */
  XQ_REG_TIME_SWISS,    /* time control of the Swiss stage */
  XQ_REG_KNOCKOUT,      /* knockout stage: format, size, after which round */
  XQ_REG_KO_GAMES,      /* knockout game and its tie-break games */
  XQ_REG_TIEBREAKS,     /* tie-break order */
  XQ_REG_TB_FALLBACK,   /* the final fallback of the order */
  XQ_REG_SHARED_PLACES, /* whether places may be shared */
  XQ_REG_LATE,          /* lateness that forfeits the game */
  XQ_REG_WITHDRAWAL,    /* forfeits that withdraw a player */
  XQ_REG_FLAG_FALL,     /* what a flag fall means */
  XQ_REG_OTHER_RULES,   /* other game-room rules (phones, displaced pieces, ...) */
  XQ_REG_RECORDING,     /* game recording duty */
  XQ_REG_GROUPS,        /* groups: names, birth bands, sex, local */
  XQ_REG_TEAMS,         /* team competition and how it is scored */
  XQ_REG_PRIZES,        /* prize tables and the share cap */
  XQ_REG_LUCKY,         /* lucky prizes */
  XQ_REG_ENTRY_LIMIT,   /* most entries accepted */
  XQ_REG_NROWS
} xq_reg_row;

/* How the tie-break order ends when every criterion is equal. */
typedef enum {
  XQ_REG_FALLBACK_NONE = 0,
  XQ_REG_FALLBACK_DROP_ROUND,     /* drop round 1, then round 2, ... (ROUNDBACK_FIRST) */
  XQ_REG_FALLBACK_PREVIOUS_ROUND, /* the last round's result, then the one before (ROUNDBACK) */
  XQ_REG_FALLBACK_PROGRESSIVE     /* the progressive-score (累进分) method */
} xq_reg_fallback;

/* One regulation: its rows as text with clauses, and the values a program
 * acts on as numbers and preset names (each also shown, with its clause,
 * in the row named in the comment). 0 / NULL = the regulation sets none. */
typedef struct xq_regulation {
  const char *name;          /* preset name, "xinjiang2018" */
  const char *title;         /* the event's name as printed */
  int year;
  const char *file;          /* the original text's file name */
  const char *rules_preset;  /* adjudicator preset (xq_rules_preset) for the rules of play */
  xq_reg_item rows[XQ_REG_NROWS];
  int rounds;                /* XQ_REG_ROUNDS (the largest when it depends on entries) */
  int round1_adjacent;       /* XQ_REG_ROUND1: 1-2, 4-3, ... instead of top half v bottom half */
  int win_points, draw_points; /* XQ_REG_SCORING */
  const char *ko_format;     /* XQ_REG_KNOCKOUT: format name for `tourney knockout --format` */
  int ko_size;               /* XQ_REG_KNOCKOUT: players entering the knockout */
  int ko_after_round;        /* XQ_REG_KNOCKOUT: Swiss round after which it starts */
  int ko_top_chooses;        /* XQ_REG_KNOCKOUT: the Swiss winner picks its semi-final opponent */
  const char *tb_order;      /* XQ_REG_TIEBREAKS: xq_tconfig_tiebreaks() preset */
  xq_reg_fallback tb_fallback; /* XQ_REG_TB_FALLBACK */
  int late_minutes;          /* XQ_REG_LATE */
  int withdraw_after;        /* XQ_REG_WITHDRAWAL: forfeits that withdraw */
  int withdraw_consecutive;  /* XQ_REG_WITHDRAWAL: only forfeits in a row count */
  int team_size;             /* XQ_REG_TEAMS */
  int prize_cap_pct;         /* XQ_REG_PRIZES: prizes for at most this % of entrants */
  int lucky_start, lucky_step, lucky_last, lucky_amount; /* XQ_REG_LUCKY (last 0 = open-ended) */
  int lucky_active_only;     /* XQ_REG_LUCKY: not for withdrawn players or 2+ forfeits */
  int entry_limit;           /* XQ_REG_ENTRY_LIMIT */
  unsigned char opt[XQ_REG_OPTIONS_MAX]; /* the reading chosen for each of the preset's options
                                            (xq_regulation_option_set on a copy), 0 = the preset's */
} xq_regulation;

/* A preset option: a clause the text leaves open, the readings an
 * arbiter may choose (values[0] is the preset's own) and what each does
 * (docs/presets.md "Ambiguous readings"). */
typedef struct xq_reg_option {
  const char *preset;        /* xq_regulation.name */
  const char *key;           /* "ko_places" */
  const char *values[XQ_REG_OPTION_VALUES_MAX]; /* NULL-ended; [0] = the preset's reading */
  const char *meaning[XQ_REG_OPTION_VALUES_MAX]; /* what each value does */
  const char *clause;        /* the text that admits both */
  const char *rules_key;     /* an adjudicator rules field it sets (value index = field value), or NULL */
} xq_reg_option;

/* The i-th option of `r` (0-based), NULL past the last. Static data. */
const xq_reg_option *xq_regulation_option_at(const xq_regulation *r, int i);

/* The reading chosen for option `key` of `r`: its value index (0 = the
 * preset's), or -1 when `r` has no such option. */
int xq_regulation_option(const xq_regulation *r, const char *key);

/* Choose a reading on `r` (a copy of a preset): `assign` is "KEY=VALUE"
 * with one of the option's values. Returns XQ_OK, or XQ_EINVAL with
 * `err` (may be NULL) naming the preset's options or the key's values. */
int xq_regulation_option_set(xq_regulation *r, const char *assign, xq_error *err);

/* Find the regulation `name` (case-insensitive). On success stores a
 * pointer to static, read-only data in *out and returns XQ_OK; returns
 * XQ_EINVAL for a NULL argument or an unknown name (*out untouched). */
int xq_regulation_find(const char *name, const xq_regulation **out);

/* The regulation whose title is `title` (the event name `xqref simulate`
 * gives its events), NULL when none is. Static data. */
const xq_regulation *xq_regulation_titled(const char *title);

/* The i-th regulation (0-based), NULL past the last: for (i = 0;
 * (r = xq_regulation_at(i)); i++). Static data. */
const xq_regulation *xq_regulation_at(int i);

/* The printed name of row `row` ("Swiss rounds"), NULL when out of range. */
const char *xq_regulation_row_name(int row);

/* Print the regulations, one line each (name, year, title), and every
 * row of `r` with the clause it comes from under its name, title, year
 * and original text, as `xqref presets` does (sheet/presets.c; the
 * groups, teams and prizes: xq_regulation_print_tables, prize.h). Return
 * XQ_OK, XQ_EINVAL (a NULL argument) or XQ_EIO (write error). */
int xq_regulation_list(FILE *f);
int xq_regulation_print(const xq_regulation *r, FILE *f);

#endif /* XQ_TOURNEY_H */
