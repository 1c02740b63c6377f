/*
 * simulate_internal.h -- the parts of `xqref simulate` shared by its files
 * (xq__simulate_<file>_ functions, xq__sim types); not a public interface
 * (that is simulate.h).
 *
 * Files: simulate.c (the run: options, store, registration, Swiss
 * rounds), simulate_server.c (the server and the staff's connections),
 * simulate_boards.c (the tables played), simulate_ko.c (the knockout),
 * simulate_players.c (the made-up entrants), simulate_games.c (the random
 * games and their incidents, as adjudicator event tokens),
 * simulate_team.c (a team competition), simulate_final.c (final places, team, group and prize lists; text and
 * HTML). The connections are the JSON-lines client's (jsonl.h).
 */
#ifndef XQ_SIM_INTERNAL_H
#define XQ_SIM_INTERNAL_H

#include <stdint.h>

#include <netinet/in.h>

#include "adjudicator.h"
#include "clientlimits.h"
#include "jsonl.h"
#include "knockout.h"
#include "pair/pair.h"
#include "teammatch.h"
#include "net.h"
#include "prize.h"
#include "simulate.h"
#include "store/store.h"
#include "tourney.h"

/* Uniform in 0..n-1 (n >= 1) from the random stream *state
 * (xq_random_next; the simulation keeps one stream per purpose). */
int xq__simulate_games_below(uint64_t *state, int n);

/* ------------------------------------------------------------------ */
/* Players (simulate_players.c)                                       */
/* ------------------------------------------------------------------ */

/* Make `n` entrants for regulation `r` into out[0..n-1]: Chinese names
 * (unique), ratings, birth dates spread over the regulation's groups
 * (`groups`, ng; none = adults), sex (`women` of them women, -1 = about
 * one in eight), regions (the prize table's regions among them), teams
 * of the regulation's size by region, local flags where the regulation
 * has local players or prizes. Deterministic for `seed`. Cannot fail. */
void xq__simulate_players_make(const xq_regulation *r, const xq_tgroup *groups, int ng,
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
void xq__simulate_games_init(xq__sim_game *g, uint64_t rng, const xq_sim_opts *o, const xq_rules *rules);

/* The next event of the game in the adjudicator's event language
 * ("h2e2", "held:h2e2", "clock:R/B", "claim-red", "offer-black",
 * "accept-red", "resign-black", ...) for position `pos` after `ply`
 * plies, into tok (XQ_SIM_TOKEN_MAX bytes). Returns 1, or 0 when there is
 * nothing to play (no legal move: the game should be over). */
int xq__simulate_games_next(xq__sim_game *g, const xq_pos *pos, int ply, char *tok);

/* True when the script's next events may go without waiting for the
 * rulings on the earlier ones (no repeated cycle under way). */
int xq__simulate_games_steady(const xq__sim_game *g);

/* Tell the script how its last event was judged: verdict kind name
 * ("accepted", "foul", "must_change", "refused", ...), the side it
 * concerns (XQ_RED, XQ_BLACK or -1). */
void xq__simulate_games_feed(xq__sim_game *g, const char *kind, int side);

/* Count one verdict into the report (names as the verdict JSON has them;
 * `ply` = plies before the event). */
void xq__simulate_games_count(xq_sim_report *rep, const char *kind, const char *reason, int ply);

/* ------------------------------------------------------------------ */
/* The run's state (simulate.c) and its server (simulate_server.c)    */
/* ------------------------------------------------------------------ */

typedef struct xq__sim xq__sim;

/* One table: its board's connection playing the game's script. */
typedef struct xq__sim_board {
  xq_jsonl c;                 /* its connection (c.data: the board) */
  xq__sim *S;
  int round, table, red, black; /* round XQ_KO_ROUND: a knockout table */
  const char *token;          /* in sim.tokens, or ko_token */
  char ko_token[XQ_SIM_TOKEN_SIZE];  /* a knockout table's, made when it is published */
  xq_rules rules;             /* its game's: the clock of a knockout game's type */
  xq__sim_game g;
  xq_pos pos;
  int ply;
  int64_t seq;
  int state;
  int inflight;               /* events sent and not answered yet */
  int stashed;                /* tok holds an event not sent yet */
  int solo;                   /* the event in flight must be answered before the next */
  int arbiter;                /* play stopped for an arbiter's ruling */
  char tok[XQ_SIM_TOKEN_MAX];
} xq__sim_board;

/* The whole run: the options, the server, the staff's connections, the
 * tables being played and what is counted. */
struct xq__sim {
  const xq_sim_opts *o;
  const xq_regulation *r;     /* the preset, or `reg` for a group's event */
  xq_regulation reg;          /* --group: the preset without knockout and teams */
  xq_tgroup group;            /* --group: the group whose event this is */
  xq_rules rules;
  xq_sim_report *rep;
  xq_error *err;
  uv_loop_t loop;
  int loop_open;
  xq_server *srv;
  int port;
  char db[XQ_SIM_PATH_MAX];
  char rules_file[XQ_SIM_PATH_MAX]; /* an option's rules of play (rules_key), "" = the preset's */
  char tmpdir[XQ_SIM_PATH_MAX - 16]; /* room for "/sim.db" in db */
  char admin[XQ_TOKEN_CHARS + 1], arbiter[XQ_TOKEN_CHARS + 1];
  struct sockaddr_in addr;    /* the server: 127.0.0.1:port */
  xq_jsonl adm, arb;
  int conns_open;
  int n;
  uint64_t rng;               /* lateness, colours, choices */
  int *stop_round;            /* [n+1]: absentee from this round on, 0 = never */
  xq__sim_board *boards;
  int nboards, done;
  long errors;
  char *tokens;               /* board tokens [round-1][table-1], XQ_SIM_TOKEN_SIZE bytes each */
  int *rating;                /* [n+1]: each player's rating (the Tangshan choice) */
  int tables;                 /* tables of a round (tokens made for each) */
  int64_t next_id;
  const xq_ko_event *kev;     /* --group of a knockout-only sub-event (village king), else NULL */
  int *pool;                  /* [n+1]: with kev, each player's pool (township) */
};

/* The staff's tokens and the boards': S->admin, S->arbiter (the chief
 * arbiter's) and S->tokens (allocated here), a board token for each of
 * S->tables tables of each of `rounds` rounds, made in one transaction
 * of `st`. XQ_OK, or the store's code with its message in *e. */
int xq__simulate_tokens(xq__sim *S, xq_tstore *st, int rounds, xq_error *e);

/* Keep the first failure of the run: `code` and the printf-formatted
 * message in S->err (a later one does not overwrite it). Returns code. */
int xq__simulate_server_fail(xq__sim *S, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Send `line` on the staff's connection `c` and wait for the reply (at
 * most XQ_SIM_CALL_MS): the reply (caller deletes), or NULL after
 * failing the run. */
cJSON *xq__simulate_server_call(xq__sim *S, xq_jsonl *c, const char *line);

/* xq__simulate_server_call as the organiser: an error reply too fails the
 * run (`what`, the code and the server's message) and gives NULL. */
cJSON *xq__simulate_server_staff(xq__sim *S, const char *line, const char *what);

/* Connect `c` to the server with `hooks` and `data` (the loop runs until
 * it is connected). Returns 0 or a failure of xq__jsonl_connect. */
int xq__simulate_server_connect(xq__sim *S, xq_jsonl *c, const xq_jsonl_hooks *hooks, void *data);

/* The chief arbiter enters result `code` of round `round`, table `table`
 * for the reason `why`. Returns XQ_OK, or XQ_EIO after failing the run. */
int xq__simulate_server_result(xq__sim *S, int round, int table, const char *code, const char *why);

/* Start the server on S->loop over the store S->db and say hello as the
 * organiser and the chief arbiter. Returns XQ_OK or a failure (set in S). */
int xq__simulate_server_up(xq__sim *S);

/* Close the staff's connections, stop and free the server, and run the
 * loop until every handle is closed. Cannot fail. */
void xq__simulate_server_down(xq__sim *S);

/* ------------------------------------------------------------------ */
/* The tables played (simulate_boards.c) and the knockout (_ko.c)     */
/* ------------------------------------------------------------------ */

/* Play the games of S->boards[0..nboards) at once (a Swiss round's and
 * knockout tables), each board with its token and its game's rules;
 * games stopped for a ruling are drawn by the arbiter. Returns XQ_OK or a
 * failure (set in S). */
int xq__simulate_boards_play(xq__sim *S);

/* Start the knockout stage from the standings after the cut round (the
 * Tangshan top seed's choice made as a player would). Returns XQ_OK or a
 * failure (set in S). */
int xq__simulate_ko_start(xq__sim *S);

/* Start a knockout-only event (S->kev): every registered player an
 * entrant, in the pool (township) S->pool gives, the bracket positions
 * drawn by lot from the seed. Returns XQ_OK or a failure (set in S). */
int xq__simulate_ko_start_lot(xq__sim *S);

/* Publish the next games of the waiting matches (of `stage`, 0 any) and
 * add their tables to S->boards (grown), each with a board token made
 * for it and the clock of its game's type. *added: the tables, 0 when no
 * match waits. Returns XQ_OK or a failure (set in S). */
int xq__simulate_ko_add_tables(xq__sim *S, int stage, int *added);

/* Publish the next games of the waiting matches (of `stage`, 0 any) and
 * play them. Returns XQ_OK (*n tables played, 0 when no match waits) or
 * a failure (set in S). */
int xq__simulate_ko_batch(xq__sim *S, int stage, int *n);

/* Play every match of the stage to its end on the knockout tables.
 * Returns XQ_OK, or a failure (set in S), XQ_EINVAL when it ended
 * undecided. */
int xq__simulate_ko_run(xq__sim *S);

/* Register the players pl[0..S->n) over the protocol (add_player), in
 * order: ids 1..n (simulate.c). Returns XQ_OK or a failure (set in S). */
int xq__simulate_register_players(xq__sim *S, const xq_tplayer *pl);

/* ------------------------------------------------------------------ */
/* A team competition (simulate_team.c)                               */
/* ------------------------------------------------------------------ */

/* Check the options of a team event (format XQ_SIM_TEAM_*: teams,
 * boards, rounds) and set S->n, its players. Returns XQ_OK or XQ_EINVAL
 * (set in S). */
int xq__simulate_team_check(xq__sim *S);

/* Run the team event on the store S->db (new): the store and its tokens,
 * the server, the teams, every round paired, published and played, the
 * final team standings to o->out. Returns XQ_OK or a failure (set in S). */
int xq__simulate_team_run(xq__sim *S);

/* ------------------------------------------------------------------ */
/* The end of the event (simulate_final.c)                            */
/* ------------------------------------------------------------------ */

/* Write the final lists of the event in the store `db` to o->out (text)
 * and o->out_dir (HTML): final places, standings, team standings, group
 * standings (with the men's and women's sections) and the prize list,
 * as regulation `r` requires; counts prizes into rep. Returns XQ_OK or a
 * status with `err`. */
int xq__simulate_final_lists(const xq_sim_opts *o, const xq_regulation *r, xq_tstore *st,
                  xq_sim_report *rep, xq_error *err);

/* The regulation's prize table and groups: the calls of prize.h
 * (xq_regulation_prizes, _groups), in one place. Return what those
 * return. */
int xq__simulate_final_reg_prizes(const xq_regulation *r, int entrants, xq_prize_table *t);
int xq__simulate_final_reg_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n);
/* The groups of the open event of `r` (every group but those that play
 * an event of their own, xq_tgroup.apart: the store refuses their
 * players there), as xq__simulate_final_reg_groups fills them. */
int xq__simulate_final_open_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n);

#endif /* XQ_SIM_INTERNAL_H */
