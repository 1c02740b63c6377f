/*
 * simulate.h -- a whole event under one regulation preset, run on the
 * real server, as `xqref simulate` does (docs/simulate.md).
 *
 * A server is started on a private loop with a fresh store configured
 * from the preset; players are registered over the protocol (add_player);
 * every Swiss round is paired and published by the server (pair), and
 * every board plays a random legal game over the JSON-lines protocol with
 * its board token, with incidents injected at configurable rates (illegal
 * moves, suicides, flag falls, repetitions, natural-limit claims, late
 * forfeits entered by the arbiter). The knockout stage, where the preset
 * has one, is started in the store between the cut round and the next
 * (the server is restarted on it, as after any maintenance) and its games
 * are played through the adjudicator in this process and recorded in the
 * store's knockout log. At the end: final places, standings, team and
 * group standings and the prize list, as text and as HTML files.
 */
#ifndef XQ_SIMULATE_H
#define XQ_SIMULATE_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* How a simulation runs. Rates are per mille of games (lateness: of
 * players per round). */
typedef struct xq_sim_opts {
  const char *preset;     /* regulation name (xqref presets), required */
  const char *group;      /* NULL: the preset's main (open) event; else the event of the
                             preset's group whose name contains this ("seniors", "老年组"):
                             its players only, its own prize list, no knockout, no teams;
                             or the preset's knockout-only sub-event ("village": Shaanxi's
                             乡村棋王, docs/village-king.md): no Swiss, a drawn bracket */
  int players;            /* 0 = the preset's entry limit, or XQ_SIM_PLAYERS_DEFAULT */
  uint64_t seed;          /* everything random follows from it */
  const char *db;         /* store file (must not exist); NULL = a temporary one, removed */
  const char *out_dir;    /* HTML sheets go here (created); NULL = none */
  FILE *out;              /* the text report; NULL = none */
  FILE *log;              /* one progress line per round; NULL = none */
  int min_plies, max_plies; /* a game ends by resignation/agreement between these */
  int rate_illegal;       /* games with an illegal move (some get a second one) */
  int rate_suicide;       /* games with a move that leaves the own general attacked */
  int rate_flag;          /* games that end on a flag fall */
  int rate_repetition;    /* games that repeat a cycle of idle moves */
  int rate_natural;       /* games played without captures up to a natural-limit claim */
  int rate_late;          /* players late (forfeit) in a round */
  int absentees;          /* players who stop coming after a random round (-1 = n/50) */
  int women;              /* women among the players (-1 = about one in eight) */
  int window;             /* plain moves a board keeps in flight (0 = 4; 1 = one at a time) */
  const char *const *options; /* noptions "KEY=VALUE" readings of the preset (xq_regulation_option_set;
                                 docs/presets.md "Ambiguous readings"), NULL = the preset's own */
  int noptions;
  int format;             /* 0: the preset's Swiss event; XQ_SIM_TEAM_*: a team event;
                             1, 2: a round robin of the entrants
                             played once, twice (单循环, 双循环), under the preset's rules of
                             play and scoring: no knockout, teams, groups or prizes */
  int rr_groups;          /* a round robin in this many groups (分组循环), 0 = one */
  int ko_size;            /* a round robin: then a knockout of this many (4, 8, 16; 0 none),
                             from the groups crossed (A1–B2, B1–A2, ...) */
  /* format XQ_SIM_TEAM_*: a team competition of `teams` teams meeting over
   * `team_boards` boards, each team's roster its B players; a team Swiss
   * of `rounds` rounds (fewer than the teams; 0: 5, or half the teams
   * when fewer) */
  int teams, team_boards, rounds;
} xq_sim_opts;

/* xq_sim_opts.format of a team competition (团体赛): a team round robin,
 * once or twice, or a team Swiss. */
enum { XQ_SIM_TEAM_RR = 3, XQ_SIM_TEAM_RR2 = 4, XQ_SIM_TEAM_SWISS = 5 };

/* Defaults: no preset, players 0, seed 1, rates illegal 30, suicide 15,
 * flag 20, repetition 40, natural 10, late 10 per mille, absentees -1,
 * women -1, games of 40..160 plies, window 4. */
void xq_sim_opts_default(xq_sim_opts *o);

/* What happened, counted from the server's replies (and, for the
 * knockout, from the adjudicator's verdicts). */
typedef struct xq_sim_report {
  char preset[32];
  int round_robin;        /* the event was a round robin (xq_sim_opts.format) */
  int players, rounds, boards, games, forfeits, withdrawn;
  int forfeited_boards;   /* Swiss boards decided by a late forfeit, not played (boards - this: played) */
  long events, moves;
  long fouls, illegal, suicides, flag_falls;
  long rep_draws, rep_losses, must_change, early_orders, changed_after_order, order_losses;
  long natural_claims, natural_draws, claims_refused, false_claims;
  long mates, resignations, agreements, offers_refused;
  long offers_declined;   /* offers the opponent declined (play went on) */
  long arbiter_rulings;   /* games stopped for the arbiter, each counted once */
  int ko_after, ko_size, ko_games, ko_choice; /* ko_after XQ_KO_NO_SWISS: a knockout-only event */
  int ko_entrants;        /* a knockout-only event's entrants (ko_size - ko_entrants byes) */
  char king[256];         /* a knockout-only event of pools: the final's winner (its name, XQ_TOURNEY_NAME_MAX bytes) */
  int king_bonus;         /* the sub-event's amount for the king, awarded */
  int women_merged;       /* the women's section was merged into the men's */
  int prizes;             /* awards made (0 when the preset has no table) */
  long prize_total;       /* their sum */
  long team_prize_total;  /* team prizes awarded (shown in the team list) */
  double seconds;         /* wall time of the whole run */
  double swiss_seconds;   /* of which on the server's rounds */
} xq_sim_report;

/* Run a whole event. Fills *rep (zeroed first). Returns XQ_OK; XQ_EINVAL
 * for bad options (unknown preset, more players than its entry limit,
 * an existing db, bad rates) with `err` saying which; XQ_EIO, XQ_ESTORE,
 * XQ_ENOMEM or another status when the server, the store or the output
 * failed (`err` says where). A run that fails leaves the store of o->db
 * as it was at the failure, for inspection (a temporary one is removed).
 * Needs xq_net_process_init (net.h) to have run: a board that hangs up
 * while owed replies must not end the process with SIGPIPE. */
int xq_simulate(const xq_sim_opts *o, xq_sim_report *rep, xq_error *err);

#endif /* XQ_SIMULATE_H */
