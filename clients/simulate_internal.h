/*
 * simulate_internal.h -- the parts of `xqref simulate` shared by its files
 * (xq__sim prefix); not a public interface (that is simulate.h).
 *
 * Files: simulate.c (the run: server, registration, rounds, knockout),
 * simulate_players.c (the made-up entrants), simulate_games.c (the random
 * games and their incidents, as adjudicator event tokens),
 * simulate_final.c (final places, team, group and prize lists; text and
 * HTML). The connections are the JSON-lines client's (jsonl.h).
 */
#ifndef XQ_SIM_INTERNAL_H
#define XQ_SIM_INTERNAL_H

#include <stdint.h>

#include "adjudicator.h"
#include "clientlimits.h"
#include "prize.h"
#include "simulate.h"
#include "store/store.h"
#include "tourney.h"

/* Uniform in 0..n-1 (n >= 1) from the random stream *state
 * (xq_random_next; the simulation keeps one stream per purpose). */
int xq__sim_below(uint64_t *state, int n);

/* ------------------------------------------------------------------ */
/* Players (simulate_players.c)                                       */
/* ------------------------------------------------------------------ */

/* Make `n` entrants for regulation `r` into out[0..n-1]: Chinese names
 * (unique), ratings, birth dates spread over the regulation's groups
 * (`groups`, ng; none = adults), sex (`women` of them women, -1 = about
 * one in eight), regions (the prize table's regions among them), teams
 * of the regulation's size by region, local flags where the regulation
 * has local players or prizes. Deterministic for `seed`. Cannot fail. */
void xq__sim_players(const xq_regulation *r, const xq_tgroup *groups, int ng,
                     const xq_prize_table *prizes, int n, int women, uint64_t seed,
                     xq_tplayer *out);

/* ------------------------------------------------------------------ */
/* Games (simulate_games.c)                                           */
/* ------------------------------------------------------------------ */

enum {
  XQ__PLAN_PLAIN = 0, XQ__PLAN_ILLEGAL, XQ__PLAN_SUICIDE, XQ__PLAN_FLAG, XQ__PLAN_REPEAT,
  XQ__PLAN_NATURAL
};

/* One game's script: what the two players will do. */
typedef struct xq__sim_game {
  uint64_t rng;
  int plan;               /* XQ__PLAN_* */
  int at;                 /* ply where the incident begins */
  int twice;              /* ILLEGAL: a second illegal move later; SUICIDE: held in hand */
  int end_ply;            /* play stops here: resignation or a draw offer */
  int natural_plies;      /* plies without capture that allow a claim */
  int draw_min_ply;       /* no draw offers before this ply (the rules) */
  int step;               /* progress of the incident */
  int stalled;            /* tries to place an incident that found no move */
  xq_move rep[4];         /* the cycle of a repetition */
  int rep_sent;           /* cycle moves sent */
  int ordered;            /* a change order stands against a side (1 + side) */
  int comply;             /* the ordered side leaves the cycle */
  int offered;            /* a draw offer awaits its answer (1 + side that answers) */
  int finishing;          /* 1: resign / offer sent */
  long clock[2];          /* clock readings sent with the moves (ms) */
  long increment_ms;
} xq__sim_game;

/* Plan a game from `rng` under `rules` with the rates of `o`. */
void xq__sim_game_init(xq__sim_game *g, uint64_t rng, const xq_sim_opts *o, const xq_rules *rules);

/* The next event of the game in the adjudicator's event language
 * ("h2e2", "held:h2e2", "clock:R/B", "claim-red", "offer-black",
 * "accept-red", "resign-black", ...) for position `pos` after `ply`
 * plies, into tok (XQ_SIM_TOKEN_MAX bytes). Returns 1, or 0 when there is
 * nothing to play (no legal move: the game should be over). */
int xq__sim_next(xq__sim_game *g, const xq_pos *pos, int ply, char *tok);

/* True when the script's next events may go without waiting for the
 * rulings on the earlier ones (no repeated cycle under way). */
int xq__sim_steady(const xq__sim_game *g);

/* Tell the script how its last event was judged: verdict kind name
 * ("accepted", "foul", "must_change", "refused", ...), the side it
 * concerns (XQ_RED, XQ_BLACK or -1). */
void xq__sim_feed(xq__sim_game *g, const char *kind, int side);

/* Count one verdict into the report (names as the verdict JSON has them;
 * `ply` = plies before the event). */
void xq__sim_count(xq_sim_report *rep, const char *kind, const char *reason, int ply);

/* ------------------------------------------------------------------ */
/* The end of the event (simulate_final.c)                            */
/* ------------------------------------------------------------------ */

/* Write the final lists of the event in the store `db` to o->out (text)
 * and o->out_dir (HTML): final places, standings, team standings, group
 * standings (with the men's and women's sections) and the prize list,
 * as regulation `r` requires; counts prizes into rep. Returns XQ_OK or a
 * status with `err`. */
int xq__sim_final(const xq_sim_opts *o, const xq_regulation *r, xq_tstore *st,
                  xq_sim_report *rep, xq_error *err);

/* The regulation's prize table and groups: the calls of prize.h
 * (xq_regulation_prizes, _groups), in one place. Return what those
 * return. */
int xq__sim_reg_prizes(const xq_regulation *r, int entrants, xq_prize_table *t);
int xq__sim_reg_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n);

#endif /* XQ_SIM_INTERNAL_H */
