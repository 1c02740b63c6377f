/*
 * teammatch.h -- team competitions (团体赛): teams that meet team against
 * team over B boards (docs/tourney.md, "Team competitions"). Teams with a
 * roster in board order and reserves, a lineup (出场名单) per match under
 * the event's board-order rule, colours per board, game points (局分) and
 * match points (场分), forfeits of a board and of a whole match, team
 * byes and withdrawals, team standings with their tie-breaks, board
 * prizes (台次奖), and the pairing of a team round robin (the Berger
 * table of pair/pair_berger.c) or a team Swiss (团体积分编排: the Chinese
 * adjacent engine or the Dutch, on match points).
 *
 * Not to be confused with team.c (prize.h): team classifications DERIVED
 * from the individual results of a Swiss, where no team meets another.
 *
 * Players are known by an id the caller gives (in the store: the event's
 * player id) and a name the messages use. Teams are 1..nteams in
 * registration order; matches are kept round by round in match order.
 * Points are plain integers (a 2/1/0 win is 2), not the half-units of
 * tourney.h.
 */
#ifndef XQ_TOURNEY_TEAMMATCH_H
#define XQ_TOURNEY_TEAMMATCH_H

#include <stdint.h>

#include "tourney.h"

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

#define XQ_TM_BOARDS_MAX 10     /* boards of a match (seen: 2, 3, 4) */
#define XQ_TM_ROSTER_MAX 16     /* players on a team's roster, reserves included */
#define XQ_TM_TEAMS_MAX 500     /* teams of one event */
#define XQ_TM_TB_MAX 16         /* codes of a team tie-break order */
#define XQ_TM_POINTS_MAX 100    /* any one game, match, forfeit or bye value */

/* ------------------------------------------------------------------ */
/* Settings                                                            */
/* ------------------------------------------------------------------ */

enum { XQ_TM_RR = 1, XQ_TM_SWISS = 2 };                /* format */
enum { XQ_TM_ORDER_FIXED = 0, XQ_TM_ORDER_FREE = 1 };  /* board_order */
enum { XQ_TM_COLOURS_ALTERNATE = 0, XQ_TM_COLOURS_SAME = 1 }; /* board_colours */

/* Team tie-break codes (docs/tourney.md, "Team standings"). */
typedef enum {
  XQ_TTB_MP = 0, /* 场分 */
  XQ_TTB_GP,     /* 局分 */
  XQ_TTB_MW,     /* 胜场: matches won */
  XQ_TTB_TDE,    /* 直胜: the tied teams' mutual MP, then GP, recursive */
  XQ_TTB_TDE2W,  /* two teams tied: game wins in their mutual matches */
  XQ_TTB_TBR,    /* GP on board 1, then board 2, ... */
  XQ_TTB_TBRW,   /* win rate on board 1, then board 2, ... */
  XQ_TTB_BC,     /* board count Σ b·GP_b, lower first */
  XQ_TTB_BBE,    /* GP without the bottom board, then the two bottom, ... */
  XQ_TTB_TBH,    /* Σ opponents' MP */
  XQ_TTB_EMMSB,  /* Σ opponent's MP × own MP of the match */
  XQ_TTB_EMGSB,  /* Σ opponent's MP × own GP */
  XQ_TTB_EGMSB,  /* Σ opponent's GP × own MP */
  XQ_TTB_EGGSB,  /* Σ opponent's GP × own GP */
  XQ_TTB_WINS,   /* games won */
  XQ_TTB_BWINS,  /* games won with Black */
  XQ_TTB_LOT,    /* the lot with the stored seed */
  XQ_TTB_COUNT
} xq_ttb;

typedef struct xq_tm_config {
  int format;            /* XQ_TM_RR or XQ_TM_SWISS */
  int boards;            /* B, 2..XQ_TM_BOARDS_MAX */
  int rounds;            /* a Swiss's rounds; a round robin's: (N − 1)·cycles */
  int cycles;            /* round robin: 1 (单循环) or 2 (双循环, the second reversed) */
  int rr_swap;           /* double round robin: the first cycle's last two rounds swapped */
  int system;            /* Swiss: XQ_PAIR_CN (default) or XQ_PAIR_DUTCH (pair/pair.h) */
  int board_order;       /* XQ_TM_ORDER_* */
  int board_colours;     /* XQ_TM_COLOURS_* */
  int min_players;       /* fewer fielded: the whole match is forfeited (default B − 1) */
  int gp_win, gp_draw, gp_loss;   /* 局分 of a game: 2/1/0 */
  int mp_win, mp_draw, mp_loss;   /* 场分 of a match: 2/1/0 */
  int home_away;         /* 1: a drawn match gives the home (first-named) team
                            mp_draw_home and the other mp_draw_away */
  int mp_draw_home, mp_draw_away;
  int forfeit_match_gp;  /* 局分 of the present team in a whole-match forfeit (default 2·B) */
  int bye_gp, bye_mp;    /* a team bye's 局分 and 场分 */
  int prize_min_games;   /* board prizes: games on the board to qualify (0: ⌈rounds/2⌉) */
  uint64_t lot_seed;     /* LOT and numbers by lot */
  int ntb;
  int tb[XQ_TM_TB_MAX];  /* xq_ttb, the first is the primary score */
} xq_tm_config;

/* Defaults for `format` with `boards` boards: 局分 and 场分 2/1/0, fixed
 * board order, alternate colours, min_players B − 1, a whole-match
 * forfeit worth 2·B 局分 and a win; a Swiss (7 rounds, Chinese adjacent)
 * scores a bye as a draw on every board (局分 B) and a win, a round robin
 * (single, no swap) gives its byes nothing; tie-breaks cxa_team_rr or
 * cxa_team_swiss. Cannot fail. */
void xq_tm_config_default(xq_tm_config *cfg, int format, int boards);

/* Set the match points: "2/1/0", "3/1/0", or "3/1/0/home1/away2" style
 * "W/D/L/H/A" for the league's home/away draw. Returns XQ_OK or XQ_EINVAL
 * with `err`, `cfg` unchanged. */
int xq_tm_config_match_points(xq_tm_config *cfg, const char *spec, xq_error *err);

/* Parse a team tie-break order, a comma list of codes (MP, GP, MW, TDE,
 * TDE2W, TBR, TBRW, BC, BBE, TBH, EMMSB, EMGSB, EGMSB, EGGSB, WINS, BWINS,
 * LOT) or a preset: cxa_team_rr (MP,GP,TDE,TBR,LOT), cxa_team_swiss
 * (MP,GP,TBH,TDE,TBR,LOT), league_2leg (MP,GP,TDE2W,TBRW,LOT), fide_team
 * (MP,GP,TDE,EMGSB,BC,LOT). Fills cfg->tb/ntb only on success. Returns
 * XQ_OK or XQ_EINVAL with `err` naming the bad code. */
int xq_tm_config_tiebreaks(xq_tm_config *cfg, const char *spec, xq_error *err);

/* The code's name ("TBR"). Never NULL. */
const char *xq_ttb_name(int code);

/* ------------------------------------------------------------------ */
/* Teams, matches and the event                                        */
/* ------------------------------------------------------------------ */

typedef struct xq_tm_member {
  int id;                               /* the caller's player id, > 0 */
  char name[XQ_TOURNEY_NAME_MAX];
} xq_tm_member;

typedef struct xq_tm_team {
  char name[XQ_TOURNEY_NAME_MAX];
  int pno;                              /* team pairing number 1..nteams */
  int nroster, nregular;                /* regulars are roster[0..nregular) */
  xq_tm_member roster[XQ_TM_ROSTER_MAX];/* board order: regulars, then reserves */
  int withdrawn;                        /* first round it does not play, 0 = in */
} xq_tm_team;

/* A whole match not played (弃权): who was absent. */
enum { XQ_TMF_NONE = 0, XQ_TMF_FIRST, XQ_TMF_SECOND, XQ_TMF_BOTH };

typedef struct xq_tm_match {
  int round;
  int first, second;                    /* teams; second 0: first has the bye */
  int forfeit;                          /* XQ_TMF_*, declared by the arbiter */
  int lineup_set[2];                    /* 1: entered; 0: the default lineup */
  int lineup[2][XQ_TM_BOARDS_MAX];      /* player ids by board, 0 = board left empty */
  uint8_t res[XQ_TM_BOARDS_MAX];        /* xq_tres of the first team's player:
                                           WIN, DRAW, LOSS, FWIN, FLOSS; NONE pending */
} xq_tm_match;

typedef struct xq_tm_event {
  xq_tm_config cfg;
  int nteams;
  xq_tm_team *teams;                    /* [nteams] */
  int nmatches, cap;
  xq_tm_match *matches;                 /* round by round, in match order */
  int nrounds;                          /* rounds paired */
} xq_tm_event;

/* A new event with `cfg` (copied). Returns it (free with xq_tm_event_free)
 * or NULL when out of memory or `cfg` is NULL. */
xq_tm_event *xq_tm_event_new(const xq_tm_config *cfg);
/* Free an event. NULL is a no-op. */
void xq_tm_event_free(xq_tm_event *ev);

/* Register a team: `name`, its roster[0..n) in board order of which the
 * first `nregular` are regulars (the rest reserves; nregular >= B, n >=
 * nregular); its pairing number is its registration number until
 * xq_tm_number_teams. Its id (1..) into *team (may be NULL). Returns
 * XQ_OK; XQ_EINVAL with `err` (no name, a name taken, a round robin paired
 * already, fewer players than boards, a player twice or already on another team, a bad id);
 * XQ_ELIMIT (XQ_TM_TEAMS_MAX, XQ_TM_ROSTER_MAX); XQ_ENOMEM. */
int xq_tm_team_add(xq_tm_event *ev, const char *name, const xq_tm_member *roster, int n, int nregular,
                   int *team, xq_error *err);

/* Replace the roster of team `team` (1..nteams) by roster[0..n), the
 * first `nregular` regulars, under the checks of xq_tm_team_add (a player
 * on another team's roster refused). The lineups of the matches paired
 * before stand; later default lineups follow the new roster. Returns
 * XQ_OK; XQ_EINVAL or XQ_ELIMIT with `err`, the team unchanged. */
int xq_tm_team_roster(xq_tm_event *ev, int team, const xq_tm_member *roster, int n, int nregular, xq_error *err);

/* Draw the teams' pairing numbers by lot (seed != 0: a shuffle seeded
 * with it, recorded as cfg.lot_seed) or give them in registration order
 * (seed 0). Before round 1 only. Returns XQ_OK or XQ_EINVAL. */
int xq_tm_number_teams(xq_tm_event *ev, uint64_t seed);

/* The team's id whose name is `name`, or 0. */
int xq_tm_team_find(const xq_tm_event *ev, const char *name);

/* Team `team` withdraws from round `round` on: a Swiss pairs it no more;
 * in a round robin its matches from then on are forfeited, and when it
 * played fewer than half of its scheduled matches all of its results are
 * annulled (xq_tm_standings). Returns XQ_OK or XQ_EINVAL. */
int xq_tm_withdraw(xq_tm_event *ev, int team, int round);

/* 1 when the team named first in a match is Red on board `board`
 * (1..B): alternate colours, odd boards; same colours, every board. */
int xq_tm_first_red(const xq_tm_config *cfg, int board);

/* Make team `team`'s lineup from players[0..n) (ids, 0 = absent, dropped)
 * into out[0..B): the players move up, empty boards are the last ones.
 * Refused with XQ_EINVAL and `err` saying why: a player not on the
 * roster, a player twice, more than B players, or under the fixed board
 * order a player above one who comes before him on the roster (a
 * reserve above a regular named as such). */
int xq_tm_lineup_make(const xq_tm_event *ev, int team, const int *players, int n, int *out, xq_error *err);

/* The default lineup of `team`: its first B roster players. */
void xq_tm_lineup_default(const xq_tm_event *ev, int team, int *out);

/* Pair round `round` (nrounds + 1, every match of the rounds before
 * decided): a round robin from the Berger table of the teams' numbers
 * (the first-named team is the first team), a Swiss with cfg.system on
 * match points, withdrawn teams left out; each match gets the default
 * lineups. Returns XQ_OK; XQ_EINVAL with `err` (a round out of order or
 * past the last, fewer than two teams, a match undecided);
 * XQ_ENOPAIRING; XQ_ENOMEM. */
int xq_tm_pair(xq_tm_event *ev, int round, xq_error *err);

/* Index into ev->matches of team `team`'s match in round `round`, or -1. */
int xq_tm_match_of(const xq_tm_event *ev, int round, int team);

/* Set the lineup of `team` in match `m` (xq_tm_lineup_make), before any
 * result of the match. Returns XQ_OK or XQ_EINVAL with `err`. */
int xq_tm_set_lineup(xq_tm_event *ev, int m, int team, const int *players, int n, xq_error *err);

/* Record the result of board `board` of match `m`, from the first team's
 * side (XQ_TR_WIN, DRAW, LOSS, FWIN, FLOSS, or NONE to clear). Returns
 * XQ_OK or XQ_EINVAL with `err` (no such board, an empty board). */
int xq_tm_set_result(xq_tm_event *ev, int m, int board, int res, xq_error *err);

/* A board result's code as `tourney match-result` takes it and the
 * sheets print it: "1-0", "0-1", "=", "+-", "-+" for XQ_TR_WIN, LOSS,
 * DRAW, FWIN, FLOSS, "" for anything else. xq_tm_result_parse is the
 * inverse, with "*" for XQ_TR_NONE; -1 for any other text. */
const char *xq_tm_result_code(int res);
int xq_tm_result_parse(const char *code);

/* Declare match `m` forfeited as a whole (XQ_TMF_*; XQ_TMF_NONE takes it
 * back). Returns XQ_OK or XQ_EINVAL. */
int xq_tm_set_forfeit(xq_tm_event *ev, int m, int forfeit, xq_error *err);

/* What a match gives each side ([0] the first team, [1] the second). */
typedef struct xq_tm_score {
  int decided;                        /* every board has its result (or none is needed) */
  int forfeit;                        /* XQ_TMF_*: declared, or too few players fielded */
  int bye;
  int gp[2], mp[2];                   /* 局分, 场分 */
  int outcome[2];                     /* +1 won the match, 0 drawn, -1 lost (by 局分) */
  int board_gp[2][XQ_TM_BOARDS_MAX];  /* 局分 board by board (whole-match forfeits: none) */
  int board_res[2][XQ_TM_BOARDS_MAX]; /* xq_tres of each side's board, NONE when not counted */
  int wins[2], bwins[2];              /* games won, won with Black (forfeits included) */
} xq_tm_score;

/* Score match `m`. An empty board loses by forfeit (both empty: nothing
 * to either); a team that fields fewer than min_players, or one the
 * arbiter declared absent, forfeits the match: the other team gets
 * forfeit_match_gp 局分 and a win (both absent: 0 and a loss each); a
 * withdrawn team (round robin, its withdrawal round on) is absent. A bye
 * gives bye_gp and bye_mp. Cannot fail. */
void xq_tm_match_score(const xq_tm_event *ev, int m, xq_tm_score *out);

/* ------------------------------------------------------------------ */
/* Standings and board prizes                                          */
/* ------------------------------------------------------------------ */

typedef struct xq_tm_row {
  int team;
  int place;                          /* 1.., shared when every tie-break is equal */
  int annulled;                       /* withdrew before half its matches: unranked */
  int played;                         /* matches with an opponent (forfeits included) */
  int mp, gp, mw, md, ml, wins, bwins;
  int board_gp[XQ_TM_BOARDS_MAX];     /* GP_b over the event */
  int board_games[XQ_TM_BOARDS_MAX], board_wins[XQ_TM_BOARDS_MAX];
  int64_t tbh, emmsb, emgsb, egmsb, eggsb, bc;
} xq_tm_row;

/* The team standings after rounds 1..upto into rows[0..nteams): ordered
 * by cfg.tb, the annulled last. A round robin's withdrawal rule is
 * applied (a team out before half its matches: annulled, its matches
 * count for nobody). Returns XQ_OK, XQ_EINVAL or XQ_ENOMEM. */
int xq_tm_standings(const xq_tm_event *ev, int upto, xq_tm_row *rows);

/* The value of tie-break `code` of a row as the table prints it (TDE,
 * TDE2W, TBR, TBRW, BBE and LOT have none: 0). */
int64_t xq_tm_row_value(const xq_tm_row *row, int code);

typedef struct xq_tm_board_row {
  int player, team;
  int games, wins, draws, losses, points;  /* games over the board on this board */
  int forfeits;                           /* boards won or lost by forfeit, not games */
  int eligible;                           /* games >= the minimum */
} xq_tm_board_row;

/* The players of board `board` (1..B) after rounds 1..upto, best first
 * (台次奖, docs/tourney.md "Board prizes"): the eligible first, then by
 * score rate (points / (gp_win · games), compared exactly), points,
 * games, team place, player id. A game counts on the board where it was
 * played. Fills rows[0..cap) and returns the number of players (which
 * may exceed cap), or a negative XQ_E* code. */
int xq_tm_board_prizes(const xq_tm_event *ev, int board, int upto, xq_tm_board_row *rows, int cap);

/* ------------------------------------------------------------------ */
/* The team log: what the store keeps, applied in order (docs/store.md) */
/* ------------------------------------------------------------------ */

#define XQ_TM_LOG_TEXT_MAX 512  /* bytes of a log row's text, NUL included */

/* The kinds of the team log's rows, and what their fields hold. */
enum {
  XQ_TML_CONFIG = 1, /* text: the settings (xq_tm_config_write) */
  XQ_TML_TEAM,       /* text: the team's name; list: roster ids; a: regulars */
  XQ_TML_NUMBERS,    /* text: the lot's seed in decimal, "0": registration order */
  XQ_TML_MATCH,      /* round; a: first team, b: second (0 the bye) */
  XQ_TML_LINEUP,     /* round; a: team; list: player ids in board order (0 absent) */
  XQ_TML_RESULT,     /* round; a: match (1.. in the round), b: board, c: xq_tres */
  XQ_TML_FORFEIT,    /* round; a: match, b: XQ_TMF_* */
  XQ_TML_WITHDRAW,   /* a: team, round: from */
  XQ_TML_ROSTER,     /* a: team; list: its new roster's ids; b: regulars */
  XQ_TML_KINDS
};

typedef struct xq_tm_logrow {
  int kind;                       /* XQ_TML_* */
  int round, a, b, c;
  int nlist;
  int list[XQ_TM_ROSTER_MAX];
  char text[XQ_TM_LOG_TEXT_MAX];
} xq_tm_logrow;

/* The kind's name in the store ("team", "lineup", ...), and the inverse
 * (0 for an unknown name). */
const char *xq_tm_log_kind_name(int kind);
int xq_tm_log_kind_parse(const char *name);

/* The settings as one line of "key=value;" pairs into buf (cap bytes).
 * Returns XQ_OK or XQ_ELIMIT. xq_tm_config_read is the inverse: keys it
 * does not know are an error; XQ_OK or XQ_EINVAL with `err`. */
int xq_tm_config_write(const xq_tm_config *cfg, char *buf, size_t cap);
int xq_tm_config_read(xq_tm_config *cfg, const char *text, xq_error *err);

/* Apply one row of the log to `*ev` (a CONFIG row makes the event when
 * *ev is NULL; any other row needs it); roster names come from `people`
 * (the store's players, by id). A MATCH row appends the match as it was
 * paired, so a replay never pairs again. Returns XQ_OK, or the code of
 * the call that refused the row, with `err`. */
int xq_tm_log_apply(xq_tm_event **ev, const xq_tournament *people, const xq_tm_logrow *row, xq_error *err);

/* Append a match of `round` as paired (xq_tm_pair does it for each of a
 * round's): first v second (0: the bye), default lineups; nrounds follows.
 * Returns XQ_OK, XQ_EINVAL (a team out of range) or XQ_ENOMEM. */
int xq_tm_match_add(xq_tm_event *ev, int round, int first, int second);

/* The index of the k-th match (1..) of `round`, or -1. */
int xq_tm_match_at(const xq_tm_event *ev, int round, int k);

/* ------------------------------------------------------------------ */
/* The games of a round (teammatch_games.c)                            */
/* ------------------------------------------------------------------ */

/* A team round is played as the individual round of the same number of
 * the store's event: each board of each match with both players fielded
 * (not a bye, not a match forfeited as a whole) is one game, the first
 * team's player Red on the boards xq_tm_first_red gives. */
struct xq_tpairing;

/* The games of team round `round` (paired) into `out` (pair/pair.h; the
 * caller frees it with xq_tpairing_clear): match by match, board by
 * board. Returns XQ_OK; XQ_EINVAL with `err` (a round not paired, no
 * game in it); XQ_ENOMEM. */
int xq_tm_round_games(const xq_tm_event *ev, int round, struct xq_tpairing *out, xq_error *err);

/* The board results of every match whose round `games` (the store's
 * event) has published: each board played as a game takes that game's
 * result for the first team's player (pending again when the game has
 * none). Cannot fail. */
void xq_tm_sync_games(xq_tm_event *ev, const xq_tournament *games);

/* The table (1..) of pairing `pr` where board `board` of match `m` is
 * played, or 0. */
int xq_tm_board_game(const xq_tm_event *ev, int m, int board, const struct xq_tpairing *pr);

#endif /* XQ_TOURNEY_TEAMMATCH_H */
