/*
 * simulate_team.c -- a whole team competition on the real server
 * (`xqref simulate --format team-rr|team-rr2|team-swiss --teams T
 * --boards B --rounds R`, docs/simulate.md "Team events"): the organiser
 * makes the event a team event (team_new), registers the players with
 * their teams (add_player) and the teams (team_add), then pairs and
 * publishes each team round (team_pair); every board of every match is
 * played by a board connection as any Swiss game, its result the
 * match's; the team standings (team_standings) close the run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simulate_internal.h"

static const char *const format_names[] = {"", "", "", "team-rr", "team-rr2", "team-swiss"};

/* Team k's name (0..): a city's, then numbered. */
static void team_name(int k, char *buf, size_t cap)
{
  static const char *const cities[] = {"北京", "上海", "广东", "浙江", "江苏", "四川", "湖北", "河北",
                                       "山东", "黑龙江", "深圳", "杭州", "成都", "厦门", "天津", "重庆"};
  int n = (int)(sizeof cities / sizeof *cities);
  if (k < n) snprintf(buf, cap, "%s队", cities[k]);
  else snprintf(buf, cap, "%s%d队", cities[k % n], k / n + 1);
}

/* The rounds of the event: a round robin's from its teams, a Swiss's
 * asked for (default XQ_SIM_TEAM_ROUNDS_DEFAULT, at most half the teams:
 * a Swiss of nearly as many rounds as teams may find no pairing). */
static int team_rounds(const xq_sim_opts *o)
{
  if (o->format != XQ_SIM_TEAM_SWISS) return xq_rr_rounds(o->teams, o->format == XQ_SIM_TEAM_RR2 ? 2 : 1);
  if (o->rounds) return o->rounds;
  int half = o->teams / 2 > 1 ? o->teams / 2 : 1;
  return half < XQ_SIM_TEAM_ROUNDS_DEFAULT ? half : XQ_SIM_TEAM_ROUNDS_DEFAULT;
}

int xq__simulate_team_check(xq__sim *S)
{
  const xq_sim_opts *o = S->o;
  if (o->group || o->rr_groups > 1 || o->ko_size)
    return xq__simulate_server_fail(S, XQ_EINVAL, "a team event takes no --group, --groups or --ko");
  if (o->teams < 2 || o->teams > XQ_SIM_TEAM_EVENT_TEAMS_MAX)
    return xq__simulate_server_fail(S, XQ_EINVAL, "--teams is 2..%d", XQ_SIM_TEAM_EVENT_TEAMS_MAX);
  if (o->team_boards < 2 || o->team_boards > XQ_TM_BOARDS_MAX)
    return xq__simulate_server_fail(S, XQ_EINVAL, "--boards is 2..%d", XQ_TM_BOARDS_MAX);
  if (o->format != XQ_SIM_TEAM_SWISS && o->rounds)
    return xq__simulate_server_fail(S, XQ_EINVAL, "a round robin's rounds follow from its teams: no --rounds");
  if (o->format == XQ_SIM_TEAM_SWISS && o->rounds >= o->teams)
    return xq__simulate_server_fail(S, XQ_EINVAL, "a team Swiss of %d teams has fewer than %d rounds", o->teams, o->teams);
  if (team_rounds(o) > XQ_TOURNEY_ROUNDS_MAX)
    return xq__simulate_server_fail(S, XQ_EINVAL, "more than %d rounds", XQ_TOURNEY_ROUNDS_MAX);
  S->n = o->teams * o->team_boards;
  if (o->db && access(o->db, F_OK) == 0) return xq__simulate_server_fail(S, XQ_EINVAL, "%s exists: the simulation needs a new store", o->db);
  return XQ_OK;
}

/* The store before the server: the event, the organiser's, the chief
 * arbiter's and a board token for every table of every round. */
static int create_store(xq__sim *S, int rounds)
{
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cfg.rounds = rounds;
  cfg.lot_seed = S->o->seed;
  xq_error e = {0};
  xq_tstore *st = NULL;
  char title[XQ_TOURNEY_NAME_MAX];
  snprintf(title, sizeof title, "团体赛 Team %s", format_names[S->o->format] + 5);
  int rc = xq_tstore_open(S->db, XQ_TSTORE_CREATE, &st, &e);
  if (!rc) rc = xq_tstore_create_event(st, title, &cfg, &e);
  S->tables = S->o->teams / 2 * S->o->team_boards;
  if (!rc) rc = xq__simulate_tokens(S, st, rounds, &e);
  xq_tstore_close(st);
  if (rc) return xq__simulate_server_fail(S, rc, "%s: %s", S->db, e.msg[0] ? e.msg : xq_strerror(rc));
  return XQ_OK;
}

/* team_new, the players (each with his team) and team_add for each team. */
static int register_teams(xq__sim *S)
{
  const xq_sim_opts *o = S->o;
  char line[XQ_SIM_LINE];
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"team_new\",\"format\":\"%s\",\"boards\":%d,\"seed\":%d%s",
           ++S->next_id, format_names[o->format], o->team_boards, (int)(o->seed % 1000000000u),
           o->format == XQ_SIM_TEAM_SWISS ? "" : "}");
  if (o->format == XQ_SIM_TEAM_SWISS)
    snprintf(line + strlen(line), sizeof line - strlen(line), ",\"rounds\":%d}", team_rounds(o));
  cJSON *r = xq__simulate_server_staff(S, line, "team_new");
  if (!r) return XQ_EIO;
  cJSON_Delete(r);
  xq_tplayer *pl = calloc((size_t)S->n, sizeof *pl);
  if (!pl) return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  xq__simulate_players_make(S->r, NULL, 0, NULL, S->n, o->women, o->seed, pl);
  for (int i = 0; i < S->n; i++) team_name(i / o->team_boards, pl[i].team, sizeof pl[i].team);
  int rc = xq__simulate_register_players(S, pl);
  free(pl);
  for (int k = 0; !rc && k < o->teams; k++) {
    char name[XQ_TOURNEY_FIELD_MAX];
    team_name(k, name, sizeof name);
    snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"team_add\",\"name\":\"%s\"}", ++S->next_id, name);
    if (!(r = xq__simulate_server_staff(S, line, "team_add"))) return XQ_EIO;
    cJSON_Delete(r);
  }
  return rc;
}

/* The id of a board's player `k` ("first", "second"), 0 none. */
static int board_player(const cJSON *b, const char *k)
{
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(b, k), "id");
  return cJSON_IsNumber(id) ? id->valueint : 0;
}

/* Round `round`: paired and published by the server, every game played. */
static int play_round(xq__sim *S, int round)
{
  char line[XQ_SIM_LINE];
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"team_pair\",\"round\":%d,\"publish\":true}", ++S->next_id,
           round);
  cJSON *pr = xq__simulate_server_staff(S, line, "team_pair");
  if (!pr) return XQ_EIO;
  const cJSON *ms = cJSON_GetObjectItemCaseSensitive(pr, "matches"), *m, *b;
  S->boards = calloc((size_t)S->tables + 1, sizeof *S->boards);
  if (!S->boards) {
    cJSON_Delete(pr);
    return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  }
  S->nboards = 0;
  int rc = XQ_OK, nm = 0;
  cJSON_ArrayForEach(m, ms) {
    nm++;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(m, "boards")) {
      const cJSON *t = cJSON_GetObjectItemCaseSensitive(b, "table");
      int first = board_player(b, "first"), second = board_player(b, "second");
      if (!cJSON_IsNumber(t) || !first || !second) continue; /* not a game */
      if (t->valueint < 1 || t->valueint > S->tables || S->nboards == S->tables) {
        rc = xq__simulate_server_fail(S, XQ_EINVAL, "round %d: table %d has no token", round, t->valueint);
        break;
      }
      int red = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "first_red"));
      xq__sim_board *x = &S->boards[S->nboards++];
      x->S = S;
      x->round = round;
      x->table = t->valueint;
      x->red = red ? first : second;
      x->black = red ? second : first;
      x->rules = S->rules;
      x->token = S->tokens + ((size_t)(round - 1) * (size_t)S->tables + (size_t)(x->table - 1)) * XQ_SIM_TOKEN_SIZE;
      S->rep->boards++;
    }
  }
  cJSON_Delete(pr);
  if (!rc) rc = xq__simulate_boards_play(S);
  free(S->boards);
  S->boards = NULL;
  S->rep->rounds = round;
  if (S->o->log && !rc) fprintf(S->o->log, "round %d: %d matches, %d games\n", round, nm, S->nboards);
  return rc;
}

/* A whole number member `k` of `o`, 0 when it has none. */
static int num(const cJSON *o, const char *k)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valueint : 0;
}

/* The final team standings from the server, printed to o->out; every
 * match must be decided. */
static int final_standings(xq__sim *S, int rounds)
{
  char line[XQ_SIM_LINE];
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"team_standings\"}", ++S->next_id);
  cJSON *r = xq__simulate_server_staff(S, line, "team_standings");
  if (!r) return XQ_EIO;
  const cJSON *after = cJSON_GetObjectItemCaseSensitive(r, "after"), *x;
  int rc = cJSON_IsNumber(after) && after->valueint == rounds
               ? XQ_OK
               : xq__simulate_server_fail(S, XQ_EIO, "team standings: not every match of %d rounds is decided", rounds);
  FILE *f = S->o->out;
  if (f && !rc) {
    fprintf(f, "Team standings 团体成绩 (%s, %d teams, %d boards, after round %d)\n", format_names[S->o->format],
            S->o->teams, S->o->team_boards, rounds);
    fprintf(f, "%5s %4s %4s  %-7s %s\n", "place", "MP", "GP", "W-D-L", "team");
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "rows")) {
      const char *name = xq__jsonl_str(x, "name");
      char wdl[40];
      snprintf(wdl, sizeof wdl, "%d-%d-%d", num(x, "won"), num(x, "drawn"), num(x, "lost"));
      fprintf(f, "%5d %4d %4d  %-7s %s\n", num(x, "place"), num(x, "mp"), num(x, "gp"), wdl, name ? name : "?");
    }
  }
  cJSON_Delete(r);
  return rc;
}

int xq__simulate_team_run(xq__sim *S)
{
  int rounds = team_rounds(S->o), rc = create_store(S, rounds);
  if (rc) return rc;
  if (uv_loop_init(&S->loop)) return xq__simulate_server_fail(S, XQ_EIO, "cannot start an event loop");
  S->loop_open = 1;
  if ((rc = xq__simulate_server_up(S)) || (rc = register_teams(S))) return rc;
  S->rep->players = S->n;
  uint64_t t0 = uv_hrtime();
  for (int round = 1; round <= rounds && !rc; round++) rc = play_round(S, round);
  S->rep->swiss_seconds = (double)(uv_hrtime() - t0) / 1e9;
  if (!rc) rc = final_standings(S, rounds);
  xq__simulate_server_down(S);
  if (!rc && S->errors) rc = xq__simulate_server_fail(S, XQ_EIO, "%ld protocol errors", S->errors);
  return rc;
}
