/*
 * tourney_cli.h -- what the files of `xqref tourney` share: the action
 * families besides the event's own (tourney.c), the options of the
 * final-stage actions and the store they open.
 */
#ifndef XQ_CLI_TOURNEY_H
#define XQ_CLI_TOURNEY_H

#include "knockout.h"
#include "tourney.h"

/* The knockout's actions (tourney_ko.c): true when `action` is one of
 * knockout, bracket, ko-result; then xq__tourney_ko_main runs it (argv
 * as xq_tourney_main's; returns 0, 1 or 2). */
int xq__tourney_ko_action(const char *action);
int xq__tourney_ko_main(int argc, char **argv);

/* The options of the final stage's actions, the knockout's and the
 * results' (parsed in tourney_ko.c; 0 / NULL = not given). --format is the knockout's tie-break format for `knockout` and
 * the sheet format (text, html, csv) for places, teams, prizes, groups. */
typedef struct xq__kopts {
  const char *db, *seeding, *format, *mode, *table, *code, *preset, *lang, *group, *pools, *lot;
  const char *out;          /* --out FILE: the sheet of places, teams, prizes, groups */
  long after, size, choice, match, red, count;
  int swiss;
  const char *options[XQ_REG_OPTIONS_MAX]; /* --option KEY=VALUE: readings of --preset */
  int noptions;
} xq__kopts;

/* Parse the options after the action (argv as xq_tourney_main's) into
 * *o; errors go to stderr. Returns 0, or 2 (a usage error). */
int xq__tourney_ko_parse(int argc, char **argv, xq__kopts *o);

/* Open the store of o->db and load the event and its knockout stage;
 * errors go to stderr. Returns 0, or 1 with nothing left open. */
int xq__ko_open(const xq__kopts *o, xq_tstore **st, xq_tevent **ev, xq_ko *ko);

/* The results' actions (tourney_final.c): true when `action` is one of
 * places, teams, prizes, groups; then xq__tourney_results_main runs it
 * (argv as xq_tourney_main's; returns 0, 1 or 2). */
int xq__tourney_results_action(const char *action);
int xq__tourney_results_main(int argc, char **argv);

/* Where a sheet goes (tourney_final.c): --out FILE (created), else
 * stdout. An XLSX workbook is binary: refused for a terminal stdout
 * (redirect it or give --out). `cmd` names the command in the messages.
 * Returns the stream, or NULL after a message (*rc: 2 usage, 1 the
 * file). */
FILE *xq__sheet_out(const char *cmd, const char *out, int format, int *rc);

/* The live-server actions (tourney_live.c): true when `action` is one of
 * demo, token, tokens, revoke, games; then xq__tourney_live_main runs it
 * (returns 0, 1 or 2). */
int xq__tourney_live_action(const char *action);
int xq__tourney_live_main(int argc, char **argv);

/* The players' actions (tourney_players.c): true when `action` is one of
 * edit, reinstate, numbers; then xq__tourney_players_main runs it
 * (returns 0, 1 or 2). */
int xq__tourney_players_action(const char *action);
int xq__tourney_players_main(int argc, char **argv);

#endif /* XQ_CLI_TOURNEY_H */
