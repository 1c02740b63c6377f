/*
 * tourney.h -- public interface of the xqref tournament core: players and
 * groups, the configuration, the event (the tournament: its players and
 * the per-round table), standings with the Chinese tie-breaks, FIDE TRF-16
 * import/export and the regulations (tourney.md). Each room of the module
 * has a header of its own on top of this one: pair/pair.h (pairing),
 * store/store.h (the SQLite store, tokens, the game log and the demo) and
 * sheet/sheet.h (printed sheets and listings); knockout.h, prize.h and
 * region.h hold the knockout stage, the prizes and teams, and the places.
 *
 * Points are integers in half-units everywhere (docs/tourney.md, "Standings and tie-breaks"): a 2/1/0
 * win is 4, a 1/½/0 win is 2. Players of an event are addressed by their
 * id, 1..n in registration (or TRF) order; pno is the pairing number
 * (序号) that orders players inside a score group.
 *
 * Only store/ opens SQLite. Functions return XQ_OK or a negative XQ_E*
 * code (engine.h: every module's codes, XQ_ENOPAIRING and XQ_ESTORE among
 * them; xq_strerror knows them all).
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
#define XQ_TOURNEY_DATES_MAX 64      /* bytes of the event's dates, NUL included */
#define XQ_TOURNEY_INFO_MAX 128      /* bytes of its venue, organiser or chief arbiter */
#define XQ_TOURNEY_TB_TEXT_MAX 256   /* bytes of a tie-break order written out */
#define XQ_TOURNEY_TB_MAX 16         /* tie-break codes in one order */
#define XQ_RR_GROUPS_MAX 26          /* groups of a round robin in groups: A..Z */
#define XQ_TOURNEY_DELAY_MAX 3600    /* the broadcast's delay, seconds (serve --delay, the delay setting) */
#define XQ_TRF_LINE_MAX 8192         /* longest TRF line we read */
#define XQ_TRF_NAME_CHARS 33         /* name field, in code points */
#define XQ_TRF_EXTRA_MAX (1L << 20)  /* bytes of non-player TRF lines kept */
#define XQ_TRF_FILE_MAX (64L << 20)  /* largest TRF file read */
#define XQ_TRF_ACCEL_MAX 200         /* acceleration of a round: 100 points at most (half-units) */
#define XQ_TRF_HALF_UNITS_MAX 1000000 /* a number of points read from TRF text: 500,000 at most
                                        either way (half-units) */
#define XQ_TOURNEY_FORBID_MAX 100000 /* forbidden pairs of one event */
#define XQ_REG_OPTIONS_MAX 8         /* options (ambiguous readings) of one preset */
#define XQ_REG_OPTION_VALUES_MAX 4   /* readings of one option, with the NULL end */
#define XQ_NAME_TRIES_MAX 51         /* made-up names drawn before a number is added (names.c) */
#define XQ_CSV_BYTES_MAX (4L << 20)  /* largest CSV list of players read (csv_players.c) */


/* ------------------------------------------------------------------ */
/* Results and per-round state (docs/tourney.md, "The event store")                         */
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

/* The sex written as the command line and the registration files take
 * it: "m", "M" or "男" is 'm'; "w", "W", "f", "F" or "女" is 'w'; "" is 0
 * (not known). Returns it, or -1 for anything else. */
int xq_player_sex_parse(const char *s);

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

/* Made-up players' names (names.c), for the demo tournament and the
 * simulations: the caller's random stream and what is in use already. */
typedef struct xq_namegen {
  int (*draw)(void *ctx, int n);             /* a number in 0..n-1 from the caller's stream */
  int (*taken)(void *ctx, const char *name); /* 1: `name` is in use, draw again; 0: it is the
                                                name (it may be recorded as used now); NULL: none */
  void *ctx;
} xq_namegen;

/* A plausible Chinese personal name into out (cap bytes, UTF-8): a
 * surname (the commonest Han ones, the first syllables of Uyghur names as
 * written in Chinese, a few compound ones), then one given character or,
 * two times in three, two; women's characters when `sex` is 'w', men's
 * otherwise. Each try draws, in this order, the surname, the first given
 * character, whether there is a second (draw(3) != 0) and the second; a
 * name g->taken calls in use is drawn again, and after XQ_NAME_TRIES_MAX
 * tries the number `no` (the caller's own for this player) follows the
 * name. The same draws give the same name. Cannot fail. */
void xq_chinese_name(const xq_namegen *g, int sex, int no, char *out, size_t cap);

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

/* Tie-break codes (docs/tourney.md, "Standings and tie-breaks"). */
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
  XQ_TB_MATCHPTS,       /* 场分: a round robin of two-game pairings, 2/1/0 a pairing */
  XQ_TB_COUNT
} xq_tb;

typedef enum { XQ_BYE_OS_ZERO = 0, XQ_BYE_OS_LOWEST } xq_bye_os;
typedef enum { XQ_DE_FIDE = 0, XQ_DE_TWO_ONLY } xq_de_mode;
typedef enum { XQ_FIRST_BY_RATING = 0, XQ_FIRST_BY_LOT } xq_first_round;

/* The format of an event (docs/tourney.md, "Round robins"). */
enum { XQ_FORMAT_SWISS = 0, XQ_FORMAT_RR = 1 };

typedef struct xq_tconfig {
  int rounds;              /* planned rounds, 0 = unknown (a round robin's:
                              (N − 1)·cycles, set when the event is loaded) */
  int format;              /* XQ_FORMAT_* */
  int cycles;              /* a round robin played once (单循环) or twice (双循环) */
  int rr_swap;             /* double round robin: the first cycle's last two
                              rounds swapped (no three like colours running) */
  int rr_games;            /* games per pairing of a single round robin: 1, or 2
                              (两局制: two rounds in a row, colours swapped) */
  int rr_groups;           /* a round robin in groups (分组循环): 2..XQ_RR_GROUPS_MAX
                              groups, each its own round robin; 0 or 1 one group */
  /* points in half-units (docs/tourney.md, "Standings and tie-breaks") */
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
  int system;              /* the pairing system by default: XQ_PAIR_CN (0) or
                              XQ_PAIR_DUTCH (pair/pair.h) */
  uint64_t lot_seed;       /* LOT and by_lot numbering */
  int delay;               /* the broadcast's delay for viewers (the delay setting): 0 not set
                              (the server's --delay), -1 none, 1..XQ_TOURNEY_DELAY_MAX seconds */
  int ntb;
  int tb[XQ_TOURNEY_TB_MAX];
} xq_tconfig;

/* Defaults: 2/1/0 scoring, bye and forfeit win = win, first round by
 * rating, colour limits 2 and 禁止连三 with the last-round relaxation,
 * forfeits count as meetings, two missed rounds withdraw, OS with a zero
 * bye, FIDE direct encounter, the 对手分方案 tie-break order. */
void xq_tconfig_default(xq_tconfig *cfg);

/* Make `cfg` a round robin played `cycles` times (1, else 2; docs/tourney.md,
 * "Round robins") with one game a pairing: the rounds left to the entrants ((N − 1)·cycles), the
 * double round robin's last-two swap on, a bye worth nothing, the
 * numbers drawn by lot, no withdrawal for missed rounds, and the
 * tie-breaks of CXA 2011 14.1 (cxa_rr1). The scoring and the lot's seed
 * are kept. Cannot fail. */
void xq_tconfig_round_robin(xq_tconfig *cfg, int cycles);

/* Make a single round robin of `cfg` one of two-game pairings (两局制,
 * docs/tourney.md "Round robins"): each table round played twice in a
 * row, colours swapped in the second game, and the tie-breaks of CXA
 * 2011 14.2 (cxa_rr2: 场分 first). Returns XQ_OK, or XQ_EINVAL when
 * `cfg` is not a single round robin. */
int xq_tconfig_two_games(xq_tconfig *cfg);

/* The rounds a round robin of n entrants plays under `cfg`: (N − 1) ·
 * cycles · games a pairing, N of the largest group when the entrants
 * play in cfg.rr_groups groups; 0 for fewer than two a group or a Swiss
 * event. */
int xq_rr_event_rounds(const xq_tconfig *cfg, int n);


/* Set 2/1/0 (`halves` = 0) or 1/½/0 (`halves` = 1) points for win, draw,
 * loss, bye and forfeits. Cannot fail. */
void xq_tconfig_scoring(xq_tconfig *cfg, int halves);

/* Parse a comma-separated tie-break order such as
 * "PTS,OS,WINS,FOULS,BWINS,BLACK,ROUNDBACK,LOT" (codes of docs/tourney.md, "Standings and tie-breaks";
 * ROUNDBACK alone means from the last round, ROUNDBACK_FIRST the other
 * way), or the name of a preset: "os" (对手分方案), "ps" (累进分方案),
 * "xinjiang", "burqin", "shaanxi", "wujiaqu", "tangshan" (docs/presets.md),
 * and the round robins' "cxa_rr1" and "wuwei2021".
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
 * (docs/tourney.md, "TRF": same team, club or family; TRF XXP for the whole
 * event, TRF-2026 260 for some rounds). */
typedef struct xq_tforbid {
  int a, b;
  int from, to;            /* rounds, inclusive */
} xq_tforbid;

/* What the sheets and slips say of the event besides its name (free
 * text, UTF-8 without control characters; "" when not given). */
typedef struct xq_tinfo {
  char dates[XQ_TOURNEY_DATES_MAX];     /* 日期, e.g. "2026年5月1日至5日" */
  char venue[XQ_TOURNEY_INFO_MAX];      /* 地点 */
  char organiser[XQ_TOURNEY_INFO_MAX];  /* 主办 */
  char arbiter[XQ_TOURNEY_INFO_MAX];    /* 裁判长 */
} xq_tinfo;

typedef struct xq_tournament {
  char name[XQ_TOURNEY_NAME_MAX];
  xq_tinfo info;
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
} xq_tournament;

/* Allocate an empty event with `cfg` (NULL = defaults) and the given name
 * (NULL = ""). Returns the event, which the caller frees with
 * xq_tournament_free, or NULL when out of memory. */
xq_tournament *xq_tournament_new(const xq_tconfig *cfg, const char *name);

/* A deep copy of `ev`: every field, and copies of what it owns (the
 * players, their slots, the kept TRF lines, the forbidden pairs), so that
 * either may change or be freed without the other. The copy's cap is
 * ev->n (at least 1); xq_tournament_add grows it as usual. Returns the copy,
 * which the caller frees with xq_tournament_free, or NULL when out of memory
 * (or `ev` is NULL). */
xq_tournament *xq_tournament_copy(const xq_tournament *ev);

/* Free an event and everything it owns. NULL is a no-op. */
void xq_tournament_free(xq_tournament *ev);

/* Forbid pairing players a and b (a != b) in rounds from..to (1 and
 * XQ_TOURNEY_ROUNDS_MAX for the whole event). Returns XQ_OK, XQ_EINVAL
 * (a == b, bad rounds), XQ_ELIMIT (XQ_TOURNEY_FORBID_MAX) or XQ_ENOMEM. */
int xq_tournament_forbid(xq_tournament *ev, int a, int b, int from, int to);

/* True when a and b may not be paired in round `round` (a forbidden pair;
 * both pairing systems treat it as a rematch, docs/tourney.md, "TRF"). */
int xq_tournament_forbidden(const xq_tournament *ev, int a, int b, int round);

/* Append a copy of `p` (checked with xq_player_check) and store its id
 * in *id (may be NULL). Returns XQ_OK, XQ_EINVAL (bad player), XQ_ELIMIT
 * (XQ_TOURNEY_PLAYERS_MAX) or XQ_ENOMEM; the event is unchanged on
 * failure. */
int xq_tournament_add(xq_tournament *ev, const xq_tplayer *p, int *id, xq_error *err);

/* True when a and b are one player for the duplicate checks: the same
 * name and club (byte for byte) and the same birth date whatever its
 * written form (1989-03-15, 1989/03/15 and 1989.03.15 are one date; a
 * text that is not a date compares as written; "" only equals ""). Every
 * duplicate check of the project (xq_tournament_same_player, the CSV
 * lines of xq_csv_players_read) compares with it. False for NULL. */
int xq_player_same(const xq_tplayer *a, const xq_tplayer *b);

/* Remove player `id` from `ev` as if never registered, before any round
 * is paired: the players after him move down one id (their slots, with
 * any absence or withdrawal, move with them), the pairing numbers above
 * his close up (1..n stays without a gap) and forbidden pairs naming him
 * go. The store's replay applies a deletion with it (docs/store.md,
 * "Deleting a player"). Returns XQ_OK, or XQ_EINVAL (no such player, or a
 * slot holds an opponent or a result: a round is paired) with `ev`
 * unchanged. */
int xq_tournament_remove(xq_tournament *ev, int id);

/* Merge entry `drop` into entry `keep` (ids 1..n, different), two
 * registrations of one player (docs/tourney.md, "Merging two entries"):
 * `keep` keeps its id and number and takes from `drop` each detail it
 * lacks (sex, birth date, region, club, rating; the team too while no
 * round is paired) -- *filled (may be NULL) gets those fields as XQ_PE_*
 * bits -- then `drop` leaves as xq_tournament_remove takes a player out.
 * Once a round is paired, `drop` must never have been paired (no game,
 * no bye, no result in any round), and no other player's id or number
 * may move: he must be the last registered, with number 0 or the
 * highest. Returns XQ_OK, or XQ_EINVAL with `err` (may be NULL) saying
 * why, `ev` unchanged. The store's replay applies a merge with it. */
int xq_tournament_merge(xq_tournament *ev, int keep, int drop, unsigned *filled, xq_error *err);

/* The id of the first player of `ev` who is p (xq_player_same: name,
 * club, and birth date in any written form, so a date kept as a TRF
 * file wrote it matches too), or 0 when there is none: the
 * registration of a player already registered, which the command line
 * and the server refuse unless told it is a namesake. */
int xq_tournament_same_player(const xq_tournament *ev, const xq_tplayer *p);

/* A list of players in a CSV file (csv_players.c), read as the
 * organiser's page reads it (docs/tourney.md "Players from a CSV file"). */
enum { XQ_CSV_UTF8, XQ_CSV_UTF8_BOM, XQ_CSV_GBK };  /* how the bytes were read */
enum {                                              /* the columns a heading names */
  XQ_CSV_COL_NAME, XQ_CSV_COL_SEX, XQ_CSV_COL_BIRTH, XQ_CSV_COL_REGION, XQ_CSV_COL_CLUB, XQ_CSV_COL_TEAM,
  XQ_CSV_COL_RATING, XQ_CSV_COL_NO, XQ_CSV_COLS
};
typedef struct xq_csv_line {
  int line;                     /* its record's number in the file; the headings are 1 */
  int ok;                       /* 1: `player` is to be registered; 0: `error` says why not */
  xq_tplayer player;            /* checked with xq_player_check (the birth date YYYY/MM/DD) */
  char error[XQ_ERR_MSG_LEN];
  char warning[XQ_ERR_MSG_LEN]; /* registered all the same: a fact the regulation's groups
                                 * go by is missing ("" when none; xq_regulation_entry) */
  char file_no[16];             /* the file's own number (序号 column), shown, not stored */
} xq_csv_line;
typedef struct xq_csv_players {
  int encoding;                 /* XQ_CSV_* */
  int doubt;                    /* the bytes read both as UTF-8 and as GBK: taken as UTF-8 */
  int file_numbers;             /* the file has a 序号 column */
  int nlines;
  xq_csv_line *lines;           /* a line per record after the headings */
} xq_csv_players;

/* Read the CSV bytes[0..len) into *out (caller frees with
 * xq_csv_players_free): UTF-8 after a BOM; else UTF-8 when valid and not
 * better read as GBK (most of the GBK reading common hanzi and most of the
 * UTF-8 reading characters no name holds); else GB18030. Records are split
 * on commas, "quoted" fields with "" for a quote; CRLF or LF; blank lines
 * skipped. The first record is the headings, in Chinese or English (姓名
 * or name, 性别, 出生日期, 地区, 单位, 队, 等级分, 序号, ...; others are
 * ignored); a name column is required. Each further record is a line: its
 * player, or why not -- no name, a sex not 男/女/m/w/f/male/female, a birth
 * date not YYYY-MM-DD, YYYY/MM/DD, YYYY.MM.DD or YYYY年M月D日 or one that
 * does not exist, a rating not 0..9999, a full-width comma, a field too
 * long, the same name, birth date and club as an earlier line or as a
 * player of `ev` (xq_tournament_same_player; ev may be NULL), or a player
 * the regulation of `ev` keeps out of this event (a group that plays its
 * own: xq_regulation_entry, whose warning a line keeps). Returns
 * XQ_OK; XQ_EINVAL (not text, no headings or no name column), XQ_ELIMIT
 * (over XQ_CSV_BYTES_MAX bytes or XQ_TOURNEY_PLAYERS_MAX lines) or
 * XQ_ENOMEM, with `err` saying so and *out empty. */
int xq_csv_players_read(const char *bytes, size_t len, const xq_tournament *ev, xq_csv_players *out, xq_error *err);
/* Free what xq_csv_players_read filled; NULL is a no-op. */
void xq_csv_players_free(xq_csv_players *p);
/* "UTF-8", "UTF-8 (BOM)" or "GBK". Never NULL. */
const char *xq_csv_encoding_name(int encoding);

/* The slot of player `id` (1..n) in round `r` (1..XQ_TOURNEY_ROUNDS_MAX).
 * Callers pass valid ids and rounds; out-of-range values are clamped to
 * the nearest valid slot rather than read outside the table. */
xq_tslot *xq_tournament_slot(const xq_tournament *ev, int id, int r);

/* Points of one slot under the event's scoring, in half-units. */
int xq_tslot_points(const xq_tournament *ev, const xq_tslot *s);

/* Points of player `id` after rounds 1..upto. */
int xq_tournament_points(const xq_tournament *ev, int id, int upto);
/* The number a player is known by on every sheet, listing and command
 * (`--player N`): the pairing number 序号 once drawn, before that the
 * registration id. xq_tournament_player_no is the inverse: the id of the
 * player known as `no`, or 0. */
int xq_tplayer_no(const xq_tournament *ev, int id);
int xq_tournament_player_no(const xq_tournament *ev, int no);
/* The last round R such that every game of rounds 1..R has its result
 * (0 before any round is complete): what "after round R" may say. */
int xq_tournament_rounds_complete(const xq_tournament *ev);

/* The result `code` of the game red v black in round `round`, as the
 * store's log records it ("1-0", "0-1", "=", "+-", "-+", "--"; anything
 * else clears it), set on both players' slots: what xq_tstore_load does
 * for a result event, for a caller that keeps its event in step with the
 * log instead of reloading it. Ids or round out of range: nothing. */
void xq_tournament_set_result(xq_tournament *ev, int round, int red, int black, const char *code);

/* Add `count` fouls (may be negative) to player `id` in round `round`,
 * clamped to 0..255, as xq_tstore_load does for a foul event. Ids or
 * round out of range: nothing. */
void xq_tournament_add_fouls(xq_tournament *ev, int id, int round, int count);

/* Apply the automatic withdrawal rule (docs/tourney.md, "Who is paired"): a player
 * with cfg.missed_rounds_withdraw missed rounds (forfeit losses or
 * announced absences) within rounds 1..upto is not paired after that
 * round. Sets players[].withdrawn where it was 0. Cannot fail. */
void xq_tournament_apply_withdrawals(xq_tournament *ev, int upto);

/* True when every pairing of rounds 1..r has a result. */
int xq_tournament_round_complete(const xq_tournament *ev, int r);

/* ------------------------------------------------------------------ */
/* The event's settings (docs/tourney.md, "Settings")                  */
/* ------------------------------------------------------------------ */

/* The settings an organiser may change after the event is made
 * (`tourney settings`, the settings op, the console's 赛事设置), a bit
 * each; XQ_TS_NAMES are their names, in bit order. */
enum {
  XQ_TS_NAME = 1u << 0, XQ_TS_DATES = 1u << 1, XQ_TS_VENUE = 1u << 2, XQ_TS_ORGANISER = 1u << 3,
  XQ_TS_ARBITER = 1u << 4, XQ_TS_ROUNDS = 1u << 5, XQ_TS_FORMAT = 1u << 6, XQ_TS_SYSTEM = 1u << 7,
  XQ_TS_TIEBREAKS = 1u << 8, XQ_TS_SCORING = 1u << 9, XQ_TS_DELAY = 1u << 10
};
#define XQ_TS_COUNT 11
#define XQ_TS_NAMES \
  {"name", "dates", "venue", "organiser", "arbiter", "rounds", "format", "system", "tiebreaks", "scoring", "delay"}

/* The format of xq_tsettings: Swiss, a round robin played once or twice. */
enum { XQ_TSF_SWISS = 0, XQ_TSF_RR = 1, XQ_TSF_RR2 = 2 };

typedef struct xq_tsettings {
  char name[XQ_TOURNEY_NAME_MAX];
  xq_tinfo info;
  int rounds;              /* a Swiss event's rounds, 1..XQ_TOURNEY_ROUNDS_MAX (shown: 0 not set) */
  int format;              /* XQ_TSF_* */
  int system;              /* XQ_PAIR_CN or XQ_PAIR_DUTCH: the pairing system by default */
  int halves;              /* scoring: 1 1-0.5-0, 0 2-1-0 */
  char tiebreaks[XQ_TOURNEY_TB_TEXT_MAX]; /* codes or a preset (xq_tconfig_tiebreaks) */
  int delay;               /* viewers see the games this many seconds late, 0..XQ_TOURNEY_DELAY_MAX;
                              -1 not set: the server's (serve --delay) */
} xq_tsettings;

/* The settings of `ev` into *out (tiebreaks as codes). Cannot fail. */
void xq_tsettings_of(const xq_tournament *ev, xq_tsettings *out);

/* Check the fields `fields` (XQ_TS_*) of *s, each alone, as they come
 * from a command line or a request: the texts valid UTF-8 without
 * control characters and within their sizes (the name not empty), the
 * rounds 1..XQ_TOURNEY_ROUNDS_MAX, the format, system and scoring known,
 * the tie-breaks an order xq_tconfig_tiebreaks takes (rewritten as its
 * codes). Returns XQ_OK, or XQ_EINVAL with `err` (may be NULL) naming
 * the field. */
int xq_tsettings_check(xq_tsettings *s, unsigned fields, xq_error *err);

/* Why setting `field` (one XQ_TS_* bit) of an event named `name` (NULL:
 * not asked) configured `cfg` whose rounds 1..`paired` are paired may
 * not change at all, or NULL when it may: the format and the scoring
 * once round 1 is paired, a round robin's rounds (they follow from its
 * entrants), a name that is a regulation's title (its groups, entry
 * limits and prizes are found by it). The rounds of a Swiss event may
 * change, not below `paired`. */
const char *xq_tsettings_locked(const char *name, const xq_tconfig *cfg, int paired, unsigned field);

/* Apply the fields `fields` of *s (checked with xq_tsettings_check) to
 * *cfg, rounds 1..`paired` being paired: the format first (a round robin
 * gets xq_tconfig_round_robin; a Swiss event the defaults but for the
 * scoring, the lot's seed and the system), then the scoring, rounds,
 * tie-breaks and system. Refuses a locked field (xq_tsettings_locked),
 * rounds below `paired`, and a format made Swiss without rounds. Returns
 * XQ_OK with *cfg changed, or XQ_EINVAL with `err` saying why and *cfg
 * untouched. */
int xq_tsettings_apply(xq_tconfig *cfg, const xq_tsettings *s, unsigned fields, int paired, xq_error *err);

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
  int by_lot;                     /* 1: tied with a neighbour on every code before LOT, so the
                                     drawing of lots (LOT, cfg.lot_seed) placed him (不并列) */
  int annulled;                   /* 1: a round robin annulled his results (withdrew
                                     before half his games): listed after everyone, unranked */
} xq_tstanding;

/* Rank every player after rounds 1..upto (0 or beyond the last recorded
 * round = all recorded rounds) by cfg.tb, then LOT, then pairing number
 * (docs/tourney.md, "Standings and tie-breaks", no shared places); before any game of those rounds has
 * a result, by points (a bye's) and then the starting order (pairing
 * number, else registration). A game paired and not over yet counts in
 * no score and no tie-break (OS, OS_C1, SB, DE, FOULS, ...): standings
 * during a round are of its finished games only.
 * Fills out[0..n-1] in rank order (room for ev->n). Returns XQ_OK,
 * XQ_EINVAL or XQ_ENOMEM. */
int xq_standings(const xq_tournament *ev, int upto, xq_tstanding *out);

/* Games player `id` of `ev` played over the board (a result 1-0, ½-½ or
 * 0-1; forfeits and byes are not played). */
int xq_rr_games_played(const xq_tournament *ev, int id);

/* Apply the round robin's withdrawal rule (docs/tourney.md, "Round
 * robins") to `ev`, a copy the caller owns: a withdrawn player who played
 * fewer than half of his scheduled games ((n − 1)·cycles) has every game
 * removed, his opponents' sides included, and annulled[id] set; one who
 * played half or more keeps his results, and each of his games from his
 * withdrawal on without a result becomes a forfeit won by the opponent.
 * annulled[] has room for ev->n + 1. Returns the number of annulled
 * players; 0 for a Swiss event. */
int xq_rr_withdrawals(xq_tournament *ev, unsigned char *annulled);

/* The groups of a round robin in groups (分组循环, docs/tourney.md "Round
 * robins"): entrants dealt to the G = cfg.rr_groups groups by pairing
 * number, serpentine (numbers 1..G to groups A..G, G+1..2G back from the
 * last group to A, ...): numbers by rating seed the groups, numbers by lot
 * draw them. Inside a group the entrants' own numbers 1..n_g, which the
 * group's table pairs, are drawn by lot from the event's seed.
 * xq_rr_group_of: the group (0 = A) of player `id`, 0 when the event has
 * no groups, -1 for a player without a pairing number. */
int xq_rr_group_of(const xq_tournament *ev, int id);

/* The members of group g into ids[] (room for ev->n), in the order of
 * their numbers inside the group; returns how many (0 for no such group). */
int xq_rr_group_members(const xq_tournament *ev, int g, int *ids);

/* Group g of `ev` as an event of its own (caller frees): its members,
 * numbered by their numbers inside the group, with their games between
 * them, name "EVENT A组" (B组, ...), the same configuration without
 * groups. *ids (malloc'd, caller frees, may be NULL) maps its ids to
 * `ev`'s: (*ids)[sub_id - 1]. NULL when out of memory or g is no group. */
xq_tournament *xq_rr_group_event(const xq_tournament *ev, int g, int **ids);

/* The round the standings are of when none is asked for: the last round
 * whose games are all in (xq_tournament_rounds_complete), else round 1 in
 * progress once it is paired, else 0 (nothing paired: before round 1).
 * The CLI, the sheets and /api/standings.json use it alike. */
int xq_tournament_standings_round(const xq_tournament *ev);

/* One tie-break value of player `id` over rounds 1..upto that does not
 * depend on the tied group (every code except DE and ROUNDBACK_*). */
int64_t xq_tb_value(const xq_tournament *ev, int tb, int id, int upto);

/* ------------------------------------------------------------------ */
/* TRF (docs/tourney.md, "TRF")                                                 */
/* ------------------------------------------------------------------ */

/* Parse TRF-16 / TRF(x) text (`len` bytes; CR, LF or CRLF line ends) into
 * a new event (*out, caller frees). Reads 001 player lines, XXR/142
 * (rounds), XXC/152 (initial colour), 162 and BBW/BBD/BBL/BBU/BBF lines
 * (scoring); keeps every other line verbatim for export. Points in
 * columns 81-84 must equal the sum of the results. Names are measured in
 * code points. Returns XQ_OK, or XQ_EINVAL / XQ_ELIMIT / XQ_ENOMEM with
 * `err->pos` = 1-based line number and a message; *out is NULL then. */
int xq_trf_parse(const char *text, size_t len, xq_tournament **out, xq_error *err);

/* Read and parse a TRF file. As xq_trf_parse; XQ_EIO when the file
 * cannot be opened or read, with err->pos -1 and a message that names no
 * line (the caller names the file). */
int xq_trf_read(const char *path, xq_tournament **out, xq_error *err);

/* Write `ev` as TRF-16 to `f` with LF line ends: the kept header lines
 * (or a generated header: 012, XXR, XXC and, for scoring other than
 * 1/½/0, the 162 and BBW/BBD/BBL lines), then one 001 line per player
 * with the name padded to 33 code points and the rank from the standings
 * (or the rank read from TRF). Returns XQ_OK or XQ_EIO. */
int xq_trf_write(const xq_tournament *ev, FILE *f);

/* The first round with no game or PAB recorded: the round to pair next. */
int xq_trf_next_round(const xq_tournament *ev);

/* ------------------------------------------------------------------ */
/* Regulations: one preset per real event (tourney/regulation.c)        */
/* ------------------------------------------------------------------ */

/* A value of a regulation and the clause it comes from, both static
 * one-line strings. A value the regulation does not state is "—" with
 * the clause "not stated". Where a supplementary rule (补充规定)
 * contradicts the main text the value follows the supplement and the
 * clause says "overrides ...". */
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

/* The event settings preset `r` gives, written over those in *cfg (set
 * by the caller, as xq_tconfig_default does): its Swiss rounds, scoring,
 * round 1 by drawn numbers or by rating, tie-break order, and the
 * withdrawal rule (XQ_REG_WITHDRAWAL: the forfeits that withdraw a
 * player, and whether only forfeits in a row count). The pairers apply
 * them from the event's config however the event is paired (the command
 * line, the server, a simulation). Returns XQ_OK; XQ_EINVAL (*cfg
 * untouched, `err` may be NULL) for a NULL argument or a tie-break order
 * that is not one. */
int xq_regulation_tconfig(const xq_regulation *r, xq_tconfig *cfg, xq_error *err);

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
