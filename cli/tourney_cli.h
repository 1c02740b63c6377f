/*
 * tourney_cli.h -- what the files of `xqref tourney` share: the options
 * of every action (read by the one table of tourney.c), each action
 * family's entry point, and the helpers one family lends another.
 */
#ifndef XQ_CLI_TOURNEY_H
#define XQ_CLI_TOURNEY_H

#include <stdio.h>

#include "knockout.h"
#include "paths.h"
#include "store/store.h"
#include "tourney.h"

/* The options of the actions, as the command line gave them; a field
 * not given keeps the value tourney.c starts it with: NULL, or as said. */
typedef struct xq__topts {
  const char *db;            /* --db FILE: the store (every action) */
  int init;                  /* --init: new, import and demo may take an empty file */
  const char *arg;           /* the argument: a result code (result, ko-result), the TRF file
                                (import), the CSV file (import-players) or the token (revoke) */
  /* the event and its players (tourney_event.c, tourney_players.c) */
  const char *name, *tiebreaks, *birth, *sex, *region, *club, *team;
  const char *dates, *venue, *organiser, *arbiter; /* settings: what the event says of itself */
  const char *delay;         /* settings --delay: SECONDS or "server" (not set) */
  int scoring;               /* --scoring: 0 2/1/0, 1 1/0.5/0; -1 */
  int evformat;              /* new --format: 0 swiss, 1 rr, 2 rr2, 3 team-rr, 4 team-rr2, 5 team-swiss; -1 */
  int first, byeos, de, bye; /* --first-round, --bye-os, --de (xq_tconfig's), --bye (XQ_TR_*PB); -1 */
  int local;                 /* 1 --local, 0 --not-local, -1 */
  long rounds, rating, board, player, id, after, seed, games, rr_groups; /* -1 */
  long keep, drop;           /* merge --keep, --drop: the players' numbers; -1 */
  long round;                /* 0 */
  long fouls;                /* foul --count, 1 */
  const char *system, *out, *format, *what, *lang, *by, *file;
  /* the knockout and the results (tourney_ko.c, tourney_final.c) */
  const char *seeding, *pools, *lot, *preset, *group;
  const char *prize_table;   /* teams, prizes: --table FILE */
  int mode;                  /* teams --mode: XQ_TEAM_*; -1 */
  long size;                 /* 8 */
  long choice, match, red;   /* -1 */
  long count;                /* teams --count: players counted, 0 */
  int swiss;
  int dry_run;               /* import-players --dry-run: the preview only */
  int force;                 /* --force: add a namesake, delete, change a result the knockout was seeded on */
  const char *options[XQ_REG_OPTIONS_MAX]; /* --option KEY=VALUE: readings of --preset */
  int noptions;
  /* the live server's (tourney_live.c) */
  const char *role, *label;
  long players;              /* demo --players, XQ_CLI_DEMO_PLAYERS */
  long table;                /* token, games --table T, 0 */
  /* a team event's (tourney_team.c) */
  const char *list;          /* team, lineup --players NO,NO,... */
  const char *match_points, *board_order, *forfeit;
  long boards, regulars, min_players; /* -1 */
} xq__topts;

/* The action families: each runs `action` (one of its own, the options
 * checked by tourney.c) and returns the exit status, 0, 1 or 2. */
int xq__tourney_event_main(const xq__topts *o, const char *action);   /* tourney_event.c: new, settings, add,
                                       import, players, pair, result, foul, absent, withdraw, standings,
                                       export, log */
int xq__tourney_players_main(const xq__topts *o, const char *action); /* tourney_players.c: edit,
                                       reinstate, remove, merge, numbers, import-players */
int xq__tourney_ko_main(const xq__topts *o, const char *action);      /* tourney_ko.c: knockout,
                                       bracket, ko-result */
int xq__tourney_final_main(const xq__topts *o, const char *action);   /* tourney_final.c: places, teams,
                                       prizes, groups */
int xq__tourney_live_main(const xq__topts *o, const char *action);    /* tourney_live.c: demo, token,
                                       tokens, revoke, games */

int xq__tourney_team_main(const xq__topts *o, const char *action);    /* tourney_team.c: team, lineup,
                                       match-result, team-withdraw, board-prizes, match-sheet */
/* new --format team-rr|team-rr2|team-swiss (tourney_team.c). Returns the exit status. */
int xq__tourney_team_new(const xq__topts *o);
/* Run pair, standings, settings or export on a team event (tourney_team.c): the exit
 * status, or -1 when the store holds an individual event. */
int xq__tourney_team_dispatch(const xq__topts *o, const char *action);

/* Open the store of o->db and load the event and its knockout stage
 * (tourney_ko.c); errors go to stderr. Returns 0, or 1 with nothing left
 * open. */
int xq__tourney_ko_open(const xq__topts *o, xq_tstore **st, xq_tournament **ev, xq_ko *ko);

/* Before a result of Swiss round `round` is changed (tourney_ko.c): the
 * stage of `st` into *ko, and whether the round decided it
 * (xq_ko_decided_by): then refused, with a message, unless --force.
 * Returns 0 (go on), or 1 after a message. */
int xq__tourney_ko_guard(const xq__topts *o, xq_tstore *st, int round, xq_ko *ko);

/* After such a result was changed: the seeds of `ko` that the standings
 * of `st` now give to another player (xq_ko_reseed), a line each, or that
 * the seeding still matches, to stdout. */
void xq__tourney_ko_difference(xq_tstore *st, const xq_ko *ko);

/* Where a sheet goes (tourney_final.c): --out FILE (written whole through
 * a temporary file, paths.h: xq__paths_close puts it in place), else
 * stdout. An XLSX workbook is binary: refused for a terminal stdout
 * (redirect it or give --out). `cmd` names the command in the messages.
 * Returns 0 with w open, or 2 (usage) or 1 (the file) after a message. */
int xq__tourney_final_sheet_out(const char *cmd, const char *out, int format, xq__paths_out *w);

#endif /* XQ_CLI_TOURNEY_H */
