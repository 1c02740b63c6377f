/*
 * ops_team.c -- team competitions on the server (docs/protocol.md "Team
 * events"; docs/tourney.md "Team competitions"): team_new makes the
 * store's event a team event, team_add registers a team and its roster,
 * team_edit replaces a roster,
 * lineup enters a team's lineup for a round, team_pair pairs the next
 * team round and team_publish puts its boards on the tables, team_forfeit
 * declares a whole match forfeited, team_withdraw takes a team out from a
 * round on; teams and team_standings show them, and GET /api/teams.json
 * shows anyone the published rounds (xq__ops_team_public).
 *
 * The team log (store/team_store.h) keeps the teams, matches and
 * lineups; each board of a match with both players fielded is a game of
 * the individual round of the same number (xq_tm_round_games), which the
 * boards, the desk and the viewers play as any Swiss game, its result
 * entered by the usual result path. The team event is rebuilt from the
 * store for every operation, its board results taken from those games
 * (xq_tm_sync_games): the match scores follow the games.
 *
 * Every operation is a task that runs its store part in its turn
 * (task.h); what it writes is committed before it answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "delay.h"
#include "hub.h"
#include "internal.h"
#include "live.h"
#include "ops.h"
#include "proto.h"
#include "store/team_store.h"
#include "task.h"
#include "teammatch.h"

#define ADMIN XQ__R(XQ_ROLE_ADMIN)

/* A team operation's request, parsed at the edge. */
typedef struct team_task {
  xq__task t;
  int round, team, match, regulars, publish;
  int forfeit;                    /* team_forfeit: XQ_TMF_* */
  int nplayers;                   /* team_add, lineup: the players (by number, 0 absent) */
  int players[XQ_TM_ROSTER_MAX];
  char name[XQ_TOURNEY_NAME_MAX]; /* team_add */
  xq_tm_config cfg;               /* team_new */
} team_task;

/* The store's team event into *out (free with xq_tm_event_free), its
 * board results from the published games. 0, or -1 after answering
 * (CONFLICT when the event is not a team event). */
static int team_load(xq__server *s, xq__task *t, xq_tm_event **out)
{
  xq_error err = {0};
  int rc = xq_tstore_team_load(s->store, s->ev, out, &err);
  if (rc) {
    xq__task_error(t, xq__reply_code(rc), err.msg);
    return -1;
  }
  if (!*out) {
    xq__task_error(t, XQ__E_CONFLICT, "the event is not a team event (team_new makes it one)");
    return -1;
  }
  return 0;
}

int xq__ops_team_event(xq__server *s)
{
  xq_tm_event *ev = NULL;
  if (xq_tstore_team_load(s->store, s->ev, &ev, NULL)) return 1; /* a team log that does not load: not a Swiss */
  xq_tm_event_free(ev);
  return ev != NULL;
}

/* Append rows[0..n) to the team log (applied to a fresh copy of the
 * event first, which *ev becomes). 0, or -1 after answering with the
 * reason a row is refused. */
static int team_record(xq__server *s, xq__task *t, xq_tm_event **ev, const xq_tm_logrow *rows, int n)
{
  xq_error err = {0};
  int rc = xq_tstore_team_record(s->store, s->ev, ev, rows, n, &err);
  if (!rc) {
    xq__answers_changed(s); /* the kept teams and team standings show it */
    return 0;
  }
  xq__task_error(t, rc == XQ_EINVAL || rc == XQ_ELIMIT ? XQ__E_CONFLICT : xq__reply_code(rc), err.msg);
  return -1;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static const char *format_name(const xq_tm_config *c)
{
  return c->format == XQ_TM_SWISS ? "team-swiss" : c->cycles == 2 ? "team-rr2" : "team-rr";
}

/* The rounds of the event: a Swiss's, or its round robin's. */
static int event_rounds(const xq_tm_event *ev)
{
  if (ev->cfg.format == XQ_TM_SWISS) return ev->cfg.rounds;
  return ev->nteams < 2 ? 0 : xq_rr_rounds(ev->nteams, ev->cfg.cycles);
}

/* {id, no, name} of player `id`, or null. */
static cJSON *player_json(const xq__server *s, int id)
{
  if (id < 1 || id > s->ev->n) return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "id", id);
  cJSON_AddNumberToObject(o, "no", xq_tplayer_no(s->ev, id));
  cJSON_AddStringToObject(o, "name", s->ev->players[id - 1].name);
  return o;
}

static cJSON *team_ref(const xq_tm_event *ev, int team)
{
  if (team < 1 || team > ev->nteams) return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "team", team);
  cJSON_AddStringToObject(o, "name", ev->teams[team - 1].name);
  return o;
}

static const char *const forfeit_names[] = {"none", "first", "second", "both"};

/* Match m (the k-th of its round) with its lineups, board results,
 * tables (from `pr`, its round's published games; NULL none) and score. */
static cJSON *match_json(const xq__server *s, const xq_tm_event *ev, int m, int k, const xq_tpairing *pr)
{
  const xq_tm_match *x = &ev->matches[m];
  xq_tm_score sc;
  xq_tm_match_score(ev, m, &sc);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", x->round);
  cJSON_AddNumberToObject(o, "match", k);
  cJSON_AddItemToObject(o, "first", team_ref(ev, x->first));
  cJSON_AddItemToObject(o, "second", team_ref(ev, x->second));
  cJSON_AddBoolToObject(o, "bye", !x->second);
  cJSON_AddStringToObject(o, "forfeit", forfeit_names[sc.forfeit & 3]);
  cJSON_AddBoolToObject(o, "decided", sc.decided);
  cJSON *gp = cJSON_AddArrayToObject(o, "gp"), *mp = cJSON_AddArrayToObject(o, "mp");
  for (int i = 0; i < 2; i++) {
    cJSON_AddItemToArray(gp, cJSON_CreateNumber(sc.gp[i]));
    cJSON_AddItemToArray(mp, cJSON_CreateNumber(sc.mp[i]));
  }
  cJSON *bs = cJSON_AddArrayToObject(o, "boards");
  for (int b = 1; x->second && b <= ev->cfg.boards; b++) {
    cJSON *bo = cJSON_CreateObject();
    cJSON_AddNumberToObject(bo, "board", b);
    cJSON_AddBoolToObject(bo, "first_red", xq_tm_first_red(&ev->cfg, b));
    cJSON_AddItemToObject(bo, "first", player_json(s, x->lineup[0][b - 1]));
    cJSON_AddItemToObject(bo, "second", player_json(s, x->lineup[1][b - 1]));
    int r = sc.forfeit ? XQ_TR_NONE : sc.board_res[0][b - 1];
    if (r == XQ_TR_NONE && !sc.forfeit) r = x->res[b - 1];
    const char *code = xq_tm_result_code(r);
    if (*code) cJSON_AddStringToObject(bo, "result", code);
    else cJSON_AddNullToObject(bo, "result");
    int table = pr ? xq_tm_board_game(ev, m, b, pr) : 0;
    if (table) cJSON_AddNumberToObject(bo, "table", table);
    else cJSON_AddNullToObject(bo, "table");
    cJSON_AddItemToArray(bs, bo);
  }
  return o;
}

/* The matches of round `round` as an array. */
static cJSON *round_json(xq__server *s, const xq_tm_event *ev, int round)
{
  xq_tpairing pr = {0};
  int published = round <= s->ev->nrounds && !xq_tstore_pairing(s->store, round, &pr, NULL);
  cJSON *a = cJSON_CreateArray();
  for (int k = 1, m; (m = xq_tm_match_at(ev, round, k)) >= 0; k++)
    cJSON_AddItemToArray(a, match_json(s, ev, m, k, published ? &pr : NULL));
  xq_tpairing_clear(&pr);
  return a;
}

/* The event: settings, teams with their rosters, rounds with their matches. */
static cJSON *teams_json(xq__server *s, const xq_tm_event *ev)
{
  cJSON *o = cJSON_CreateObject();
  char tb[XQ_TM_TB_MAX * 8] = "";
  for (int i = 0; i < ev->cfg.ntb; i++)
    snprintf(tb + strlen(tb), sizeof tb - strlen(tb), "%s%s", i ? "," : "", xq_ttb_name(ev->cfg.tb[i]));
  cJSON_AddStringToObject(o, "format", format_name(&ev->cfg));
  cJSON_AddNumberToObject(o, "boards", ev->cfg.boards);
  cJSON_AddNumberToObject(o, "rounds", event_rounds(ev));
  cJSON_AddNumberToObject(o, "paired", ev->nrounds);
  cJSON_AddNumberToObject(o, "published", s->ev->nrounds < ev->nrounds ? s->ev->nrounds : ev->nrounds);
  cJSON_AddStringToObject(o, "board_order", ev->cfg.board_order == XQ_TM_ORDER_FREE ? "free" : "fixed");
  char pts[64];
  snprintf(pts, sizeof pts, "%d/%d/%d", ev->cfg.mp_win, ev->cfg.mp_draw, ev->cfg.mp_loss);
  cJSON_AddStringToObject(o, "match_points", pts);
  cJSON_AddStringToObject(o, "tiebreaks", tb);
  cJSON *ts = cJSON_AddArrayToObject(o, "teams");
  for (int i = 0; i < ev->nteams; i++) {
    const xq_tm_team *t = &ev->teams[i];
    cJSON *x = team_ref(ev, i + 1);
    cJSON_AddNumberToObject(x, "pno", t->pno);
    cJSON_AddNumberToObject(x, "regulars", t->nregular);
    cJSON_AddNumberToObject(x, "withdrawn", t->withdrawn);
    cJSON *r = cJSON_AddArrayToObject(x, "roster");
    for (int j = 0; j < t->nroster; j++) cJSON_AddItemToArray(r, player_json(s, t->roster[j].id));
    cJSON_AddItemToArray(ts, x);
  }
  cJSON *rs = cJSON_AddArrayToObject(o, "matches");
  for (int r = 1; r <= ev->nrounds; r++) cJSON_AddItemToArray(rs, round_json(s, ev, r));
  return o;
}

/* The last round whose every match is decided (0 none). */
static int rounds_decided(const xq_tm_event *ev)
{
  int upto = 0;
  for (int r = 1; r <= ev->nrounds; r++) {
    for (int k = 1, m; (m = xq_tm_match_at(ev, r, k)) >= 0; k++) {
      xq_tm_score sc;
      xq_tm_match_score(ev, m, &sc);
      if (!sc.decided) return upto;
    }
    upto = r;
  }
  return upto;
}

/* The board prizes of board b after rounds 1..upto, as an array. */
static cJSON *prizes_json(xq__server *s, const xq_tm_event *ev, int b, int upto)
{
  cJSON *a = cJSON_CreateArray();
  int cap = ev->nteams * XQ_TM_ROSTER_MAX;
  xq_tm_board_row *rows = cap ? calloc((size_t)cap, sizeof *rows) : NULL;
  int n = rows ? xq_tm_board_prizes(ev, b, upto, rows, cap) : 0;
  for (int i = 0; i < n && i < cap; i++) {
    const xq_tm_board_row *r = &rows[i];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddItemToObject(x, "player", player_json(s, r->player));
    cJSON_AddNumberToObject(x, "team", r->team);
    cJSON_AddNumberToObject(x, "games", r->games);
    cJSON_AddNumberToObject(x, "wins", r->wins);
    cJSON_AddNumberToObject(x, "draws", r->draws);
    cJSON_AddNumberToObject(x, "losses", r->losses);
    cJSON_AddNumberToObject(x, "points", r->points);
    cJSON_AddNumberToObject(x, "forfeits", r->forfeits);
    cJSON_AddBoolToObject(x, "eligible", r->eligible);
    cJSON_AddItemToArray(a, x);
  }
  free(rows);
  return a;
}

static cJSON *standings_after(xq__server *s, const xq_tm_event *ev, int after, int upto, int valued);

/* 1 when tie-break `code` has a value of its own in a row (the others
 * only order: xq_tm_row_value gives 0). */
static int tb_valued(int code)
{
  return code != XQ_TTB_TDE && code != XQ_TTB_TDE2W && code != XQ_TTB_TBR && code != XQ_TTB_TBRW &&
         code != XQ_TTB_BBE && code != XQ_TTB_LOT;
}

/* The team standings and board prizes after the last decided round (the
 * first round in progress when none is). NULL when out of memory. */
static cJSON *standings_json(xq__server *s, const xq_tm_event *ev)
{
  int upto = rounds_decided(ev);
  return standings_after(s, ev, upto, upto ? upto : ev->nrounds, 0);
}

/* The team standings and board prizes after rounds 1..upto, "after"
 * saying `after`; `valued`: only the tie-breaks with a value of their own
 * (tb_valued) in each row. NULL when out of memory. */
static cJSON *standings_after(xq__server *s, const xq_tm_event *ev, int after, int upto, int valued)
{
  int n = ev->nteams;
  xq_tm_row *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
  if (!rows || xq_tm_standings(ev, upto, rows)) {
    free(rows);
    return NULL;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "after", after);
  cJSON_AddBoolToObject(o, "complete", after == event_rounds(ev) && after > 0);
  cJSON *a = cJSON_AddArrayToObject(o, "rows");
  for (int i = 0; i < n; i++) {
    const xq_tm_row *r = &rows[i];
    cJSON *x = team_ref(ev, r->team);
    cJSON_AddNumberToObject(x, "place", r->place);
    cJSON_AddBoolToObject(x, "annulled", r->annulled);
    cJSON_AddNumberToObject(x, "played", r->played);
    cJSON_AddNumberToObject(x, "mp", r->mp);
    cJSON_AddNumberToObject(x, "gp", r->gp);
    cJSON_AddNumberToObject(x, "won", r->mw);
    cJSON_AddNumberToObject(x, "drawn", r->md);
    cJSON_AddNumberToObject(x, "lost", r->ml);
    cJSON *tb = cJSON_AddObjectToObject(x, "tiebreaks");
    for (int k = 0; k < ev->cfg.ntb; k++)
      if (!valued || tb_valued(ev->cfg.tb[k]))
        cJSON_AddNumberToObject(tb, xq_ttb_name(ev->cfg.tb[k]), (double)xq_tm_row_value(r, ev->cfg.tb[k]));
    cJSON *bg = cJSON_AddArrayToObject(x, "board_gp");
    for (int b = 0; b < ev->cfg.boards; b++) cJSON_AddItemToArray(bg, cJSON_CreateNumber(r->board_gp[b]));
    cJSON_AddItemToArray(a, x);
  }
  free(rows);
  cJSON *bp = cJSON_AddArrayToObject(o, "board_prizes");
  for (int b = 1; b <= ev->cfg.boards; b++) cJSON_AddItemToArray(bp, prizes_json(s, ev, b, upto));
  return o;
}

/* ------------------------------------------------------------------ */
/* What anyone may read (GET /api/teams.json)                          */
/* ------------------------------------------------------------------ */

xq_tm_event *xq__ops_team_now(xq__server *s)
{
  if (!s->team_read) {
    xq_tm_event_free(s->team);
    s->team = NULL;
    if (!s->ev || xq_tstore_team_load(s->store, s->ev, &s->team, NULL)) return NULL; /* read again when next asked */
    s->team_read = 1;
  }
  /* the results of the games as the reader is shown them (delay.h) */
  if (s->team) xq_tm_sync_games(s->team, s->ev);
  return s->team;
}

/* The team event changed (a team operation): read it again when next
 * asked. */
static void team_changed(xq__server *s)
{
  xq_tm_event_free(s->team);
  s->team = NULL;
  s->team_read = 0;
}

/* Round `round`'s games as the tables hold them, into *pr (for
 * xq_tm_board_game; free with xq_tpairing_clear): no store read. */
static void live_pairing(xq__server *s, int round, xq_tpairing *pr)
{
  memset(pr, 0, sizeof *pr);
  int n = round >= 1 && round <= XQ_ROUNDS_LIVE_MAX ? s->nboards[round] : 0;
  if (!n || !(pr->boards = calloc((size_t)n, sizeof *pr->boards))) return;
  pr->round = round;
  pr->nboards = n;
  for (int t = 1; t <= n; t++) {
    const xq__live *lv = xq__live_get(s, round, t);
    if (lv) pr->boards[t - 1] = (xq_tboard){lv->red, lv->black};
  }
}

cJSON *xq__ops_team_public(xq__server *s, int round)
{
  const xq_tm_event *ev = xq__ops_team_now(s);
  if (!ev) return NULL;
  int published = s->ev->nrounds < ev->nrounds ? s->ev->nrounds : ev->nrounds;
  if (round > published) round = published;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "format", format_name(&ev->cfg));
  cJSON_AddNumberToObject(o, "boards", ev->cfg.boards);
  cJSON_AddNumberToObject(o, "rounds", event_rounds(ev));
  cJSON_AddNumberToObject(o, "published", published);
  char pts[64];
  snprintf(pts, sizeof pts, "%d/%d/%d", ev->cfg.mp_win, ev->cfg.mp_draw, ev->cfg.mp_loss);
  cJSON_AddStringToObject(o, "match_points", pts);
  cJSON *tbs = cJSON_AddArrayToObject(o, "tiebreaks");
  for (int i = 0; i < ev->cfg.ntb; i++)
    if (tb_valued(ev->cfg.tb[i])) cJSON_AddItemToArray(tbs, cJSON_CreateString(xq_ttb_name(ev->cfg.tb[i])));
  cJSON *ts = cJSON_AddArrayToObject(o, "teams");
  for (int i = 0; i < ev->nteams; i++) {
    const xq_tm_team *t = &ev->teams[i];
    cJSON *x = team_ref(ev, i + 1);
    cJSON_AddNumberToObject(x, "pno", t->pno);
    cJSON_AddNumberToObject(x, "withdrawn", t->withdrawn);
    cJSON *r = cJSON_AddArrayToObject(x, "roster");
    for (int j = 0; j < t->nroster; j++) cJSON_AddItemToArray(r, player_json(s, t->roster[j].id));
    cJSON_AddItemToArray(ts, x);
  }
  /* the published rounds' matches only: a lineup is not shown before its round is */
  cJSON_AddNumberToObject(o, "round", round);
  cJSON *ms = cJSON_AddArrayToObject(o, "matches");
  for (int r = round ? round : 1; r <= (round ? round : published); r++) {
    xq_tpairing pr;
    live_pairing(s, r, &pr);
    for (int k = 1, m; (m = xq_tm_match_at(ev, r, k)) >= 0; k++) cJSON_AddItemToArray(ms, match_json(s, ev, m, k, &pr));
    xq_tpairing_clear(&pr);
  }
  int decided = rounds_decided(ev), upto = round ? round : decided ? decided : published;
  if (upto > published) upto = published;
  cJSON *st = standings_after(s, ev, upto, upto, 1);
  if (st) cJSON_AddBoolToObject(st, "decided", upto <= decided);
  cJSON_AddItemToObject(o, "standings", st ? st : cJSON_CreateNull());
  return o;
}

/* Broadcast that the team event changed ("team" {"round":R}, 0 for the
 * teams: the viewers read GET /api/teams.json again; the answer itself
 * goes to the staff alone, as it may hold a lineup of a round not yet
 * published) and answer with `o`. */
static void team_send(xq__server *s, xq__task *t, const char *what, int round, cJSON *o)
{
  team_changed(s); /* the readers' copy is read again, their kept answers made again */
  xq__live_changed(s, 0);
  char data[32];
  snprintf(data, sizeof data, "{\"round\":%d}", round);
  xq__hub_publish(s, what, round, 0, data);
  xq__task_send(t, o);
}

/* ------------------------------------------------------------------ */
/* teams, team_standings                                               */
/* ------------------------------------------------------------------ */

/* Answer t with the kept answer of `kind` when what it shows is unchanged
 * (answers.c: the answer made from the server's copy of the team event,
 * xq__ops_team_now; replaying the team log for it cost 0.2-0.6 s
 * of the loop at 500 teams of 16, and both operations are open to
 * anyone); else make it with `make`, keep it and answer it. */
static void team_read(xq__server *s, xq__task *t, int kind, cJSON *(*make)(xq__server *, const xq_tm_event *))
{
  int staff = t->c->role == XQ_ROLE_ADMIN || t->c->role == XQ_ROLE_ARBITER;
  xq__answer_key key = {.kind = kind, .table = staff, .pub = xq__delay_public(s)}; /* table: the staff's */
  const xq__answer *kept = xq__answers_get(s, &key);
  if (kept) {
    xq__task_send_text(t, kept->text);
    return;
  }
  const xq_tm_event *ev = xq__ops_team_now(s); /* the server's copy: no store read */
  if (!ev) {
    xq__task_error(t, XQ__E_CONFLICT, "the event is not a team event (team_new makes it one)");
    return;
  }
  cJSON *o = make(s, ev);
  /* a round paired and not published: its matches and lineups are the
   * staff's (a lineup is not told to the other team before the round is) */
  cJSON *rs = kind == XQ__ANSWER_OP_TEAMS ? cJSON_GetObjectItemCaseSensitive(o, "matches") : NULL;
  while (!staff && rs && cJSON_GetArraySize(rs) > s->ev->nrounds)
    cJSON_DeleteItemFromArray(rs, cJSON_GetArraySize(rs) - 1);
  char *text = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (!text) {
    xq__task_error(t, XQ__E_INTERNAL, "out of memory");
    return;
  }
  xq__answers_put(s, &key, "application/json", text, strlen(text));
  xq__task_send_text(t, text);
  free(text);
}

static void run_teams(xq__server *s, xq__task *t) { team_read(s, t, XQ__ANSWER_OP_TEAMS, teams_json); }

/* teams: the settings, the teams with their rosters, every paired
 * round's matches with lineups, results, tables and scores. */
static void op_teams(xq__server *s, xq__req *r)
{
  xq__task *t = xq__task_new(s, r, run_teams, sizeof(team_task), NULL);
  if (t) xq__task_go(s, t, 1);
}

static void run_standings(xq__server *s, xq__task *t)
{
  team_read(s, t, XQ__ANSWER_OP_TEAM_STANDINGS, standings_json);
}

/* team_standings: the team standings (场分, 局分, the tie-breaks) and
 * each board's prize list (台次奖). */
static void op_team_standings(xq__server *s, xq__req *r)
{
  xq__task *t = xq__task_new(s, r, run_standings, sizeof(team_task), NULL);
  if (t) xq__task_go(s, t, 1);
}

/* ------------------------------------------------------------------ */
/* team_new                                                            */
/* ------------------------------------------------------------------ */

static void run_team_new(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev = NULL;
  xq_error err = {0};
  if (xq_tstore_team_load(s->store, s->ev, &ev, &err) || ev) {
    xq_tm_event_free(ev);
    xq__task_error(task, XQ__E_CONFLICT, err.msg[0] ? err.msg : "the event is a team event already");
    return;
  }
  if (s->ev->nrounds) {
    xq__task_error(task, XQ__E_CONFLICT, "round 1 is paired: the event can no longer become a team event");
    return;
  }
  xq_tm_logrow row = {.kind = XQ_TML_CONFIG};
  if (xq_tm_config_write(&t->cfg, row.text, sizeof row.text)) {
    xq__task_error(task, XQ__E_BAD_REQUEST, "settings too long");
    return;
  }
  if (team_record(s, task, &ev, &row, 1)) {
    xq_tm_event_free(ev);
    return;
  }
  xq__log(s, "team event: %s on %d boards", format_name(&ev->cfg), ev->cfg.boards);
  team_send(s, task, "team", 0, teams_json(s, ev));
  xq_tm_event_free(ev);
}

/* team_new {format, boards, rounds, match_points, tiebreaks, board_order,
 * system, min_players, seed}: the event becomes a team competition
 * (before round 1 and once only). */
static void op_team_new(xq__server *s, xq__req *r)
{
  const char *format, *mpts, *tbs, *order, *sys;
  int boards, rounds, minp, seed;
  if (xq__field_str(r, "format", 1, &format) || xq__field_int(r, "boards", 2, XQ_TM_BOARDS_MAX, 0, &boards) ||
      xq__field_int(r, "rounds", 0, XQ_TOURNEY_ROUNDS_MAX, 0, &rounds) ||
      xq__field_int(r, "min_players", 0, XQ_TM_BOARDS_MAX, 0, &minp) ||
      xq__field_int(r, "seed", 0, 2000000000, 20260101, &seed) || xq__field_str(r, "match_points", 0, &mpts) ||
      xq__field_str(r, "tiebreaks", 0, &tbs) || xq__field_str(r, "board_order", 0, &order) ||
      xq__field_str(r, "system", 0, &sys))
    return;
  int swiss = !strcmp(format, "team-swiss"), rr2 = !strcmp(format, "team-rr2");
  const char *bad = NULL;
  if (!swiss && !rr2 && strcmp(format, "team-rr")) bad = "format is team-rr, team-rr2 or team-swiss";
  else if (!swiss && rounds) bad = "a round robin's rounds follow from its teams: no rounds";
  else if (order && strcmp(order, "fixed") && strcmp(order, "free")) bad = "board_order is fixed or free";
  else if (sys && strcmp(sys, "cn") && strcmp(sys, "dutch")) bad = "system is cn or dutch";
  else if (minp > boards) bad = "min_players is at most the boards";
  team_task *t = bad ? NULL : (team_task *)xq__task_new(s, r, run_team_new, sizeof *t, NULL);
  if (bad) xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
  if (!t) return;
  xq_tm_config_default(&t->cfg, swiss ? XQ_TM_SWISS : XQ_TM_RR, boards);
  t->cfg.cycles = rr2 ? 2 : 1;
  if (swiss && rounds) t->cfg.rounds = rounds;
  t->cfg.lot_seed = (uint64_t)seed;
  if (order) t->cfg.board_order = !strcmp(order, "free") ? XQ_TM_ORDER_FREE : XQ_TM_ORDER_FIXED;
  if (sys) t->cfg.system = xq_pair_system_parse(sys);
  if (minp) t->cfg.min_players = minp;
  xq_error err = {0};
  if ((mpts && xq_tm_config_match_points(&t->cfg, mpts, &err)) ||
      (tbs && xq_tm_config_tiebreaks(&t->cfg, tbs, &err))) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, err.msg, -1);
    xq__task_free(&t->t);
    return;
  }
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* team_add, team_edit, lineup                                        */
/* ------------------------------------------------------------------ */

/* The request's "players" (numbers; 0 an absent player when `zero`) into
 * t->players. 0, or -1 after answering BAD_REQUEST. */
static int players_parse(xq__req *r, team_task *t, int zero)
{
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(r->json, "players"), *x;
  t->nplayers = 0;
  if (!a || cJSON_IsNull(a)) return 0;
  const char *bad = cJSON_IsArray(a) ? NULL : "players is a list of player numbers";
  cJSON_ArrayForEach(x, a) {
    if (bad) break;
    if (!xq__field_is_int(x) || x->valueint < (zero ? 0 : 1) || x->valueint > XQ_TOURNEY_PLAYERS_MAX)
      bad = zero ? "players are player numbers, 0 for an absent player" : "players are player numbers";
    else if (t->nplayers == XQ_TM_ROSTER_MAX) bad = "more players than a roster holds (16)";
    else t->players[t->nplayers++] = x->valueint;
  }
  if (bad) xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
  return bad ? -1 : 0;
}

/* t->players (numbers) as ids into row->list. 0, or -1 after answering
 * NOT_FOUND. */
static int players_ids(xq__server *s, team_task *t, xq_tm_logrow *row)
{
  row->nlist = 0;
  for (int i = 0; i < t->nplayers; i++) {
    int id = t->players[i] ? xq_tournament_player_no(s->ev, t->players[i]) : 0;
    if (t->players[i] && !id) {
      char msg[96];
      snprintf(msg, sizeof msg, "no player has the number %d (the event has %d players)", t->players[i], s->ev->n);
      xq__task_error(&t->t, XQ__E_NOT_FOUND, msg);
      return -1;
    }
    row->list[row->nlist++] = id;
  }
  return 0;
}

static void run_team_add(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev;
  if (team_load(s, task, &ev)) return;
  xq_tm_logrow row = {.kind = XQ_TML_TEAM};
  snprintf(row.text, sizeof row.text, "%s", t->name);
  if (t->nplayers && players_ids(s, t, &row)) goto out;
  /* no list: the players registered with this team, in registration order */
  for (int id = 1; !t->nplayers && id <= s->ev->n && row.nlist < XQ_TM_ROSTER_MAX; id++)
    if (!strcmp(s->ev->players[id - 1].team, t->name)) row.list[row.nlist++] = id;
  row.a = t->regulars ? t->regulars : ev->cfg.boards;
  if (row.a > row.nlist) row.a = row.nlist;
  if (team_record(s, task, &ev, &row, 1)) goto out;
  xq__log(s, "team %d %s registered: %d players", ev->nteams, t->name, row.nlist);
  cJSON *o = teams_json(s, ev);
  cJSON_AddNumberToObject(o, "team", ev->nteams);
  team_send(s, task, "team", 0, o);
out:
  xq_tm_event_free(ev);
}

/* team_add {name, players, regulars}: register a team, its roster the
 * players numbered `players` in board order (default: the players
 * registered with this team), the first `regulars` (default B) regulars,
 * the rest reserves. */
static void op_team_add(xq__server *s, xq__req *r)
{
  const char *name;
  int regulars;
  if (xq__field_str(r, "name", 1, &name) || xq__field_int(r, "regulars", 0, XQ_TM_ROSTER_MAX, 0, &regulars)) return;
  if (!*name || strlen(name) >= XQ_TOURNEY_NAME_MAX) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "name is 1..255 bytes", -1);
    return;
  }
  team_task *t = (team_task *)xq__task_new(s, r, run_team_add, sizeof *t, NULL);
  if (!t) return;
  snprintf(t->name, sizeof t->name, "%s", name);
  t->regulars = regulars;
  if (players_parse(r, t, 0)) {
    xq__task_free(&t->t);
    return;
  }
  xq__task_go(s, &t->t, 1);
}

static void run_team_edit(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev;
  if (team_load(s, task, &ev)) return;
  xq_tm_logrow row = {.kind = XQ_TML_ROSTER, .a = t->team};
  if (t->team > ev->nteams) {
    char msg[64];
    snprintf(msg, sizeof msg, "no team %d (the event has %d)", t->team, ev->nteams);
    xq__task_error(task, XQ__E_NOT_FOUND, msg);
  } else if (!players_ids(s, t, &row)) {
    const xq_tm_team *tm = &ev->teams[t->team - 1];
    row.b = t->regulars ? t->regulars : row.nlist < tm->nregular ? row.nlist : tm->nregular;
    if (!team_record(s, task, &ev, &row, 1)) {
      xq__log(s, "team %d %s: roster of %d players", t->team, tm->name, row.nlist);
      cJSON *o = teams_json(s, ev);
      cJSON_AddNumberToObject(o, "team", t->team);
      team_send(s, task, "team", 0, o);
    }
  }
  xq_tm_event_free(ev);
}

/* team_edit {team, players, regulars}: team `team`'s roster replaced by
 * the players numbered `players` in board order, the first `regulars`
 * (default: as many as before) regulars. The lineups of the rounds paired
 * stand. */
static void op_team_edit(xq__server *s, xq__req *r)
{
  int team, regulars;
  if (xq__field_int(r, "team", 1, XQ_TM_TEAMS_MAX, 0, &team) ||
      xq__field_int(r, "regulars", 0, XQ_TM_ROSTER_MAX, 0, &regulars))
    return;
  team_task *t = (team_task *)xq__task_new(s, r, run_team_edit, sizeof *t, NULL);
  if (!t) return;
  t->team = team;
  t->regulars = regulars;
  if (players_parse(r, t, 0)) {
    xq__task_free(&t->t);
    return;
  }
  if (!t->nplayers) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "players: the roster, by number in board order", -1);
    xq__task_free(&t->t);
    return;
  }
  xq__task_go(s, &t->t, 1);
}

static void run_lineup(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev;
  char msg[128] = "";
  if (team_load(s, task, &ev)) return;
  xq_tm_logrow row = {.kind = XQ_TML_LINEUP, .round = t->round, .a = t->team};
  if (t->team > ev->nteams) snprintf(msg, sizeof msg, "no team %d (the event has %d)", t->team, ev->nteams);
  else if (t->round > ev->nrounds) snprintf(msg, sizeof msg, "round %d is not paired yet", t->round);
  else if (t->round <= s->ev->nrounds)
    snprintf(msg, sizeof msg, "round %d is published: its lineups stand", t->round);
  if (msg[0]) {
    xq__task_error(task, XQ__E_CONFLICT, msg);
  } else if (!players_ids(s, t, &row) && !team_record(s, task, &ev, &row, 1)) {
    int m = xq_tm_match_of(ev, t->round, t->team);
    int k = 1;
    while (xq_tm_match_at(ev, t->round, k) != m) k++;
    xq__log(s, "round %d: team %d's lineup entered", t->round, t->team);
    team_send(s, task, "team", t->round, match_json(s, ev, m, k, NULL));
  }
  xq_tm_event_free(ev);
}

/* lineup {round, team, players}: team `team`'s lineup (出场名单) for
 * round `round`, paired and not yet published: the players by number in
 * board order, 0 an absent player (those after him move up). Refused
 * with the board-order rule's reason. */
static void op_lineup(xq__server *s, xq__req *r)
{
  int round, team;
  if (xq__field_int(r, "round", 1, XQ_TOURNEY_ROUNDS_MAX, 0, &round) ||
      xq__field_int(r, "team", 1, XQ_TM_TEAMS_MAX, 0, &team))
    return;
  team_task *t = (team_task *)xq__task_new(s, r, run_lineup, sizeof *t, NULL);
  if (!t) return;
  t->round = round;
  t->team = team;
  if (players_parse(r, t, 1)) {
    xq__task_free(&t->t);
    return;
  }
  if (!t->nplayers) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "players: the lineup, by number in board order", -1);
    xq__task_free(&t->t);
    return;
  }
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* team_pair, team_publish                                             */
/* ------------------------------------------------------------------ */

/* Put the games of team round `round` on the tables: the individual
 * round, stored, started and broadcast. 0, or -1 after answering. */
static int publish_games(xq__server *s, xq__task *task, const xq_tm_event *ev, int round)
{
  xq_error err = {0};
  xq_tpairing pr = {0};
  char msg[XQ_ERR_MSG_LEN + 64] = "";
  if (round != s->ev->nrounds + 1)
    snprintf(msg, sizeof msg, "the next round to publish is %d, not %d", s->ev->nrounds + 1, round);
  else if (round > ev->nrounds) snprintf(msg, sizeof msg, "team round %d is not paired yet", round);
  if (msg[0]) {
    xq__task_error(task, XQ__E_CONFLICT, msg);
    return -1;
  }
  int rc = xq_tm_round_games(ev, round, &pr, &err);
  if (!rc) rc = xq_tstore_publish(s->store, s->ev, &pr, &err);
  if (rc) {
    xq_tpairing_clear(&pr);
    xq__task_error(task, xq__reply_write_code(rc), err.msg);
    return -1;
  }
  xq__log(s, "team round %d published: %d games", round, pr.nboards);
  if (xq__task_reload(s, task, 0)) {
    xq_tpairing_clear(&pr);
    return -1;
  }
  if ((rc = xq__live_add_round(s, round, &err)) != XQ_OK) {
    snprintf(msg, sizeof msg, "round %d is published, but its games could not start: %s", round, err.msg);
    xq__task_error(task, xq__reply_code(rc), msg);
    xq_tpairing_clear(&pr);
    return -1;
  }
  /* the boards as the viewers and boards take any round's */
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", round);
  cJSON_AddBoolToObject(o, "published", 1);
  cJSON_AddBoolToObject(o, "team", 1);
  cJSON_AddItemToObject(o, "boards", xq__ops_tourney_boards(s->ev, &pr, 0));
  char *data = cJSON_PrintUnformatted(o);
  if (data) xq__hub_publish(s, "pairing", round, 0, data);
  free(data);
  cJSON_Delete(o);
  xq_tpairing_clear(&pr);
  return 0;
}

/* The round's matches and the event's state as the answer. */
static void round_send(xq__server *s, xq__task *task, const xq_tm_event *ev, int round)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", round);
  cJSON_AddBoolToObject(o, "published", round <= s->ev->nrounds);
  cJSON_AddItemToObject(o, "matches", round_json(s, ev, round));
  team_send(s, task, "team", round, o);
}

static void run_team_pair(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev, *fresh = NULL;
  xq_error err = {0};
  if (team_load(s, task, &ev)) return;
  int round = ev->nrounds + 1, before = ev->nmatches, k = round == 1, n = 0;
  xq_tm_logrow *rows = NULL;
  char msg[XQ_ERR_MSG_LEN + 64] = "";
  if (t->round && t->round != round) snprintf(msg, sizeof msg, "the next round to pair is %d, not %d", round, t->round);
  else if (ev->nrounds > s->ev->nrounds)
    snprintf(msg, sizeof msg, "team round %d is paired and not yet published", ev->nrounds);
  if (!msg[0] && k) xq_tm_number_teams(ev, ev->cfg.format == XQ_TM_RR ? ev->cfg.lot_seed : 0);
  if (!msg[0] && xq_tm_pair(ev, round, &err)) snprintf(msg, sizeof msg, "%s", err.msg);
  if (msg[0]) {
    xq__task_error(task, XQ__E_CONFLICT, msg);
    goto out;
  }
  n = ev->nmatches - before;
  if (!(rows = calloc((size_t)n + 1, sizeof *rows))) {
    xq__task_error(task, XQ__E_INTERNAL, "out of memory");
    goto out;
  }
  if (k) {
    rows[0].kind = XQ_TML_NUMBERS;
    snprintf(rows[0].text, sizeof rows[0].text, "%llu",
             ev->cfg.format == XQ_TM_RR ? (unsigned long long)ev->cfg.lot_seed : 0ULL);
  }
  for (int i = 0; i < n; i++)
    rows[k + i] = (xq_tm_logrow){.kind = XQ_TML_MATCH, .round = round, .a = ev->matches[before + i].first,
                                 .b = ev->matches[before + i].second};
  /* the rows applied again to the event as stored, then kept */
  if (team_load(s, task, &fresh) || team_record(s, task, &fresh, rows, n + k)) goto out;
  xq__log(s, "team round %d paired: %d matches", round, n);
  if (t->publish && publish_games(s, task, fresh, round)) goto out;
  round_send(s, task, fresh, round);
out:
  free(rows);
  xq_tm_event_free(fresh);
  xq_tm_event_free(ev);
}

/* team_pair {round, publish}: pair the next team round (the round robin's
 * table, or the team Swiss on match points) with the default lineups;
 * with publish true its games are put on the tables at once (else
 * team_publish does it, after the lineups). */
static void op_team_pair(xq__server *s, xq__req *r)
{
  int round;
  const cJSON *pub = cJSON_GetObjectItemCaseSensitive(r->json, "publish");
  if (xq__field_int(r, "round", 0, XQ_TOURNEY_ROUNDS_MAX, 0, &round)) return;
  if (pub && !cJSON_IsBool(pub) && !cJSON_IsNull(pub)) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "publish is true or false", -1);
    return;
  }
  team_task *t = (team_task *)xq__task_new(s, r, run_team_pair, sizeof *t, NULL);
  if (!t) return;
  t->round = round;
  t->publish = cJSON_IsTrue(pub);
  xq__task_go(s, &t->t, 1);
}

static void run_team_publish(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev;
  if (team_load(s, task, &ev)) return;
  int round = t->round ? t->round : s->ev->nrounds + 1;
  if (!publish_games(s, task, ev, round)) round_send(s, task, ev, round);
  xq_tm_event_free(ev);
}

/* team_publish {round}: the games of the paired team round (default the
 * next) on the tables, from the lineups entered. */
static void op_team_publish(xq__server *s, xq__req *r)
{
  int round;
  if (xq__field_int(r, "round", 0, XQ_TOURNEY_ROUNDS_MAX, 0, &round)) return;
  team_task *t = (team_task *)xq__task_new(s, r, run_team_publish, sizeof *t, NULL);
  if (!t) return;
  t->round = round;
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* team_forfeit                                                        */
/* ------------------------------------------------------------------ */

static void run_team_forfeit(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev;
  if (team_load(s, task, &ev)) return;
  int m = xq_tm_match_at(ev, t->round, t->match);
  xq_tm_logrow row = {.kind = XQ_TML_FORFEIT, .round = t->round, .a = t->match, .b = t->forfeit};
  if (m < 0) xq__task_error(task, XQ__E_NOT_FOUND, "no such match");
  else if (!team_record(s, task, &ev, &row, 1)) {
    xq__log(s, "round %d match %d: forfeit %s", t->round, t->match, forfeit_names[t->forfeit & 3]);
    team_send(s, task, "team", t->round, match_json(s, ev, m, t->match, NULL));
  }
  xq_tm_event_free(ev);
}

/* team_forfeit {round, match, forfeit}: match `match` of `round` not
 * played (弃权): "first", "second" or "both" absent; "none" takes it back. */
static void op_team_forfeit(xq__server *s, xq__req *r)
{
  int round, match, f = -1;
  const char *who;
  if (xq__field_int(r, "round", 1, XQ_TOURNEY_ROUNDS_MAX, 0, &round) ||
      xq__field_int(r, "match", 1, XQ_TM_TEAMS_MAX, 0, &match) || xq__field_str(r, "forfeit", 1, &who))
    return;
  for (int i = 0; i < 4; i++)
    if (!strcmp(who, forfeit_names[i])) f = i;
  if (f < 0) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "forfeit is none, first, second or both", -1);
    return;
  }
  team_task *t = (team_task *)xq__task_new(s, r, run_team_forfeit, sizeof *t, NULL);
  if (!t) return;
  t->round = round;
  t->match = match;
  t->forfeit = f;
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* team_withdraw                                                       */
/* ------------------------------------------------------------------ */

static void run_team_withdraw(xq__server *s, xq__task *task)
{
  team_task *t = (team_task *)task;
  xq_tm_event *ev;
  char msg[128] = "";
  if (team_load(s, task, &ev)) return;
  int round = t->round ? t->round : ev->nrounds + 1;
  if (t->team > ev->nteams) {
    snprintf(msg, sizeof msg, "no team %d (the event has %d)", t->team, ev->nteams);
    xq__task_error(task, XQ__E_NOT_FOUND, msg);
    xq_tm_event_free(ev);
    return;
  }
  if (round <= s->ev->nrounds)
    snprintf(msg, sizeof msg, "round %d is published: its games stand (withdraw from round %d)", round,
             s->ev->nrounds + 1);
  else if (ev->teams[t->team - 1].withdrawn)
    snprintf(msg, sizeof msg, "team %d has withdrawn already (from round %d)", t->team, ev->teams[t->team - 1].withdrawn);
  xq_tm_logrow row = {.kind = XQ_TML_WITHDRAW, .round = round, .a = t->team};
  if (msg[0]) {
    xq__task_error(task, XQ__E_CONFLICT, msg);
  } else if (!team_record(s, task, &ev, &row, 1)) {
    xq__log(s, "team %d %s withdraws from round %d", t->team, ev->teams[t->team - 1].name, round);
    cJSON *o = teams_json(s, ev);
    cJSON_AddNumberToObject(o, "team", t->team);
    cJSON_AddNumberToObject(o, "from", round);
    team_send(s, task, "team", 0, o);
  }
  xq_tm_event_free(ev);
}

/* team_withdraw {team, round}: team `team` withdraws from round `round`
 * (default: the next to pair) on, a round not yet published: a Swiss pairs
 * it no more, a round robin forfeits its matches from then on (and
 * annuls its results when it played fewer than half). */
static void op_team_withdraw(xq__server *s, xq__req *r)
{
  int team, round;
  if (xq__field_int(r, "team", 1, XQ_TM_TEAMS_MAX, 0, &team) ||
      xq__field_int(r, "round", 0, XQ_TOURNEY_ROUNDS_MAX, 0, &round))
    return;
  team_task *t = (team_task *)xq__task_new(s, r, run_team_withdraw, sizeof *t, NULL);
  if (!t) return;
  t->team = team;
  t->round = round;
  xq__task_go(s, &t->t, 1);
}

const xq__op xq__team_ops[] = {
  {"teams", 0, op_teams},
  {"team_standings", 0, op_team_standings},
  {"team_new", ADMIN, op_team_new},
  {"team_add", ADMIN, op_team_add},
  {"team_edit", ADMIN, op_team_edit},
  {"lineup", ADMIN, op_lineup},
  {"team_pair", ADMIN, op_team_pair},
  {"team_publish", ADMIN, op_team_publish},
  {"team_forfeit", XQ__STAFF, op_team_forfeit},
  {"team_withdraw", ADMIN, op_team_withdraw},
  {NULL, 0, NULL},
};
