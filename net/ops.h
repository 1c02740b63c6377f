/*
 * ops.h -- the operations (ops_*.c, and poller.c's ingest ops): their
 * tables, which proto.c dispatches by name, and what one operation file
 * lends another or the HTTP API. Internal to net/.
 */
#ifndef XQ_NET_OPS_H
#define XQ_NET_OPS_H

#include <cjson/cJSON.h>

#include "internal.h"
#include "tourney.h"

/* The operation tables, each ended by {NULL, 0, NULL}. */
extern const xq__op xq__engine_ops[];   /* ops_engine.c: stateless engine services */
extern const xq__op xq__game_ops[];     /* ops_game.c: boards and arbiters on live games */
extern const xq__op xq__tourney_ops[];  /* ops_tourney.c: players, rounds, tokens, exports */
extern const xq__op xq__players_ops[];  /* ops_players.c: edit_player, numbers, withdraw, reinstate, absent */
extern const xq__op xq__ingest_ops[];   /* poller.c: ingest_url, ingest_stop */
extern const xq__op xq__settings_ops[]; /* ops_settings.c: settings (the event's) */
extern const xq__op xq__desk_ops[];     /* ops_desk.c: seen (the arbiters' marks on rulings) */
extern const xq__op xq__ko_ops[];       /* ops_ko.c: knockout, ko_start, ko_publish */
extern const xq__op xq__team_ops[];     /* ops_team.c: teams, team_new, team_add, lineup, team_pair, ... */

/* The knockout stage as JSON (ops_ko.c; needed by http_api.c): seeds,
 * matches with their games, winners and table in play, the knockout
 * tables, the places; {"started":false} before it starts. A new object,
 * NULL when out of memory. */
cJSON *xq__ops_ko_json(const xq__server *s);

/* The knockout the event's regulation states (the preset whose title the
 * event bears), added to `o` as "knockout": {after, size, seeding, format,
 * clause}; nothing when it states none (or `ev` is NULL). The console's
 * knockout form starts from it; the page marks the places that go
 * through before the knockout starts. */
void xq__ops_tourney_ko_plan(const xq_tournament *ev, cJSON *o);

/* The boards of `pr` as a JSON array (ops_tourney.c): {table, red,
 * black, result}, the bye with black null and result "bye". `results`:
 * read them from `ev` (a published round), else every result is null. A
 * new array. */
cJSON *xq__ops_tourney_boards(const xq_tournament *ev, const xq_tpairing *pr, int results);

/* 1 when the event is a team event (ops_team.c: its store holds a team
 * log), whose rounds team_pair pairs, not pair. */
int xq__ops_team_event(xq__server *s);
/* The team event as the server last read it (ops_team.c; read from the
 * store when not yet, or after a change), its board results taken from
 * the games of s->ev as it is now (a delayed view's, delay.h); NULL when
 * the event is not a team event (or it could not be read). The server's:
 * valid until the next change. */
struct xq_tm_event *xq__ops_team_now(xq__server *s);
/* GET /api/teams.json (ops_team.c): the team event as anyone may read it
 * -- settings, teams and rosters (number and name), the matches of the
 * published rounds (round `round` alone when > 0) with boards, tables,
 * results and scores, the team standings after `round` (0: the last
 * decided) with the board prizes; no birth date nor sex, and no lineup of
 * a round not published. NULL when not a team event. */
cJSON *xq__ops_team_public(xq__server *s, int round);

/* export {format, what, round, lang, mode, count, preset, prizes}
 * (ops_export.c; a row of the table of ops_tourney.c). */
void xq__ops_export(xq__server *s, xq__req *r);

/* slips {round, connect, lang} (ops_slips.c; a row of the table of
 * ops_tourney.c). */
void xq__ops_slips(xq__server *s, xq__req *r);

#endif /* XQ_NET_OPS_H */
