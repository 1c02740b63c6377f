/*
 * teammatch.c -- the team competition's model (teammatch.h): settings,
 * teams and rosters, lineups under the board-order rule, board results,
 * and what a match scores (局分, 场分, forfeits, byes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "teammatch.h"
#include "tourney_internal.h"

/* ------------------------------------------------------------------ */
/* Settings                                                            */
/* ------------------------------------------------------------------ */

void xq_tm_config_default(xq_tm_config *cfg, int format, int boards)
{
  memset(cfg, 0, sizeof *cfg);
  cfg->format = format == XQ_TM_SWISS ? XQ_TM_SWISS : XQ_TM_RR;
  cfg->boards = boards;
  cfg->cycles = 1;
  cfg->rr_swap = 1;
  cfg->system = XQ_PAIR_CN;
  cfg->min_players = boards > 1 ? boards - 1 : 1;
  cfg->gp_win = 2, cfg->gp_draw = 1, cfg->gp_loss = 0;
  cfg->mp_win = 2, cfg->mp_draw = 1, cfg->mp_loss = 0;
  cfg->forfeit_match_gp = 2 * boards;
  if (cfg->format == XQ_TM_SWISS) {
    cfg->rounds = 7;
    cfg->bye_gp = boards, cfg->bye_mp = cfg->mp_win;
  }
  xq_tm_config_tiebreaks(cfg, cfg->format == XQ_TM_SWISS ? "cxa_team_swiss" : "cxa_team_rr", NULL);
}

int xq_tm_config_match_points(xq_tm_config *cfg, const char *spec, xq_error *err)
{
  int v[5], k = 0;
  const char *p = spec ? spec : "";
  while (k < 5) {
    char *end;
    long x = strtol(p, &end, 10);
    if (end == p || x < 0 || x > XQ_TM_POINTS_MAX) break;
    v[k++] = (int)x;
    if (*end != '/') { p = end; break; }
    p = end + 1;
  }
  if (*p || (k != 3 && k != 5) || v[0] < v[1] || v[1] < v[2])
    return xq__error(err, XQ_EINVAL, "match points \"%s\": W/D/L (2/1/0, 3/1/0) or W/D/L/home draw/away draw",
                     spec ? spec : "");
  cfg->mp_win = v[0], cfg->mp_draw = v[1], cfg->mp_loss = v[2];
  cfg->home_away = k == 5;
  cfg->mp_draw_home = k == 5 ? v[3] : v[1];
  cfg->mp_draw_away = k == 5 ? v[4] : v[1];
  if (cfg->format == XQ_TM_SWISS) cfg->bye_mp = cfg->mp_win;
  return XQ_OK;
}

static const char *const ttb_names[XQ_TTB_COUNT] = {
  "MP", "GP", "MW", "TDE", "TDE2W", "TBR", "TBRW", "BC", "BBE", "TBH",
  "EMMSB", "EMGSB", "EGMSB", "EGGSB", "WINS", "BWINS", "LOT"};

const char *xq_ttb_name(int code)
{
  return code >= 0 && code < XQ_TTB_COUNT ? ttb_names[code] : "?";
}

static const struct { const char *name, *codes; } ttb_presets[] = {
  {"cxa_team_rr", "MP,GP,TDE,TBR,LOT"},
  {"cxa_team_swiss", "MP,GP,TBH,TDE,TBR,LOT"},
  {"league_2leg", "MP,GP,TDE2W,TBRW,LOT"},
  {"fide_team", "MP,GP,TDE,EMGSB,BC,LOT"},
};

int xq_tm_config_tiebreaks(xq_tm_config *cfg, const char *spec, xq_error *err)
{
  if (!cfg || !spec) return xq__error(err, XQ_EINVAL, "no tie-break order");
  for (size_t i = 0; i < sizeof ttb_presets / sizeof *ttb_presets; i++)
    if (!strcmp(spec, ttb_presets[i].name)) spec = ttb_presets[i].codes;
  int tb[XQ_TM_TB_MAX], n = 0;
  const char *p = spec;
  while (*p) {
    size_t len = strcspn(p, ",");
    int code = -1;
    for (int c = 0; c < XQ_TTB_COUNT; c++)
      if (strlen(ttb_names[c]) == len && !strncmp(p, ttb_names[c], len)) code = c;
    if (code < 0) return xq__error(err, XQ_EINVAL, "unknown team tie-break \"%.*s\"", (int)len, p);
    if (n == XQ_TM_TB_MAX) return xq__error(err, XQ_EINVAL, "more than %d team tie-breaks", XQ_TM_TB_MAX);
    tb[n++] = code;
    p += len + (p[len] == ',');
  }
  if (!n) return xq__error(err, XQ_EINVAL, "empty team tie-break order");
  memcpy(cfg->tb, tb, sizeof tb[0] * (size_t)n);
  cfg->ntb = n;
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* The event and its teams                                             */
/* ------------------------------------------------------------------ */

xq_tm_event *xq_tm_event_new(const xq_tm_config *cfg)
{
  if (!cfg) return NULL;
  xq_tm_event *ev = calloc(1, sizeof *ev);
  if (ev) ev->cfg = *cfg;
  return ev;
}

void xq_tm_event_free(xq_tm_event *ev)
{
  if (!ev) return;
  free(ev->teams);
  free(ev->matches);
  free(ev);
}

int xq_tm_team_find(const xq_tm_event *ev, const char *name)
{
  for (int t = 1; ev && name && t <= ev->nteams; t++)
    if (!strcmp(ev->teams[t - 1].name, name)) return t;
  return 0;
}

/* The team whose roster holds player `id`, or 0. */
static int team_of_player(const xq_tm_event *ev, int id)
{
  for (int t = 0; t < ev->nteams; t++)
    for (int i = 0; i < ev->teams[t].nroster; i++)
      if (ev->teams[t].roster[i].id == id) return t + 1;
  return 0;
}

/* Whether roster[0..n) of nregular regulars may be team `self`'s (0: a
 * new team's) named `name`. XQ_OK, or XQ_EINVAL / XQ_ELIMIT with `err`. */
static int roster_check(const xq_tm_event *ev, int self, const char *name, const xq_tm_member *roster, int n,
                        int nregular, xq_error *err)
{
  if (n > XQ_TM_ROSTER_MAX) return xq__error(err, XQ_ELIMIT, "team %s: more than %d players", name, XQ_TM_ROSTER_MAX);
  if (nregular < ev->cfg.boards || n < nregular)
    return xq__error(err, XQ_EINVAL, "team %s: %d regulars of %d players for %d boards", name, nregular, n,
                     ev->cfg.boards);
  for (int i = 0; i < n; i++) {
    if (roster[i].id <= 0) return xq__error(err, XQ_EINVAL, "team %s: player %d has no id", name, i + 1);
    int other = team_of_player(ev, roster[i].id);
    if (other && other != self)
      return xq__error(err, XQ_EINVAL, "%s plays for team %s already", roster[i].name, ev->teams[other - 1].name);
    for (int j = 0; j < i; j++)
      if (roster[j].id == roster[i].id) return xq__error(err, XQ_EINVAL, "team %s: %s twice", name, roster[i].name);
  }
  return XQ_OK;
}

int xq_tm_team_roster(xq_tm_event *ev, int team, const xq_tm_member *roster, int n, int nregular, xq_error *err)
{
  if (!ev || !roster || team < 1 || team > ev->nteams) return xq__error(err, XQ_EINVAL, "no such team");
  xq_tm_team *t = &ev->teams[team - 1];
  int rc = roster_check(ev, team, t->name, roster, n, nregular, err);
  if (rc) return rc;
  t->nroster = n, t->nregular = nregular;
  memcpy(t->roster, roster, sizeof *roster * (size_t)n);
  return XQ_OK;
}

int xq_tm_team_add(xq_tm_event *ev, const char *name, const xq_tm_member *roster, int n, int nregular,
                   int *team, xq_error *err)
{
  if (!ev || !roster) return xq__error(err, XQ_EINVAL, "no team");
  if (!name || !*name || strlen(name) >= XQ_TOURNEY_NAME_MAX) return xq__error(err, XQ_EINVAL, "a team needs a name");
  if (xq_tm_team_find(ev, name)) return xq__error(err, XQ_EINVAL, "team %s is registered already", name);
  if (ev->nrounds && ev->cfg.format == XQ_TM_RR)
    return xq__error(err, XQ_EINVAL, "a round robin takes no team once round 1 is paired");
  if (ev->nteams >= XQ_TM_TEAMS_MAX) return xq__error(err, XQ_ELIMIT, "more than %d teams", XQ_TM_TEAMS_MAX);
  int rc = roster_check(ev, 0, name, roster, n, nregular, err);
  if (rc) return rc;
  xq_tm_team *t = realloc(ev->teams, sizeof *t * (size_t)(ev->nteams + 1));
  if (!t) return xq__error(err, XQ_ENOMEM, "out of memory");
  ev->teams = t;
  t = &ev->teams[ev->nteams++];
  memset(t, 0, sizeof *t);
  snprintf(t->name, sizeof t->name, "%s", name);
  t->pno = ev->nteams;
  t->nroster = n, t->nregular = nregular;
  memcpy(t->roster, roster, sizeof *roster * (size_t)n);
  if (team) *team = ev->nteams;
  return XQ_OK;
}

int xq_tm_number_teams(xq_tm_event *ev, uint64_t seed)
{
  if (!ev || ev->nrounds) return XQ_EINVAL;
  for (int t = 0; t < ev->nteams; t++) ev->teams[t].pno = t + 1;
  if (!seed) return XQ_OK;
  ev->cfg.lot_seed = seed;
  uint64_t st = seed;
  for (int i = ev->nteams - 1; i > 0; i--) { /* Fisher–Yates on the numbers */
    int j = (int)(xq_random_next(&st) % (uint64_t)(i + 1));
    int x = ev->teams[i].pno;
    ev->teams[i].pno = ev->teams[j].pno;
    ev->teams[j].pno = x;
  }
  return XQ_OK;
}

int xq_tm_withdraw(xq_tm_event *ev, int team, int round)
{
  if (!ev || team < 1 || team > ev->nteams || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  ev->teams[team - 1].withdrawn = round;
  return XQ_OK;
}

int xq_tm_first_red(const xq_tm_config *cfg, int board)
{
  return cfg->board_colours == XQ_TM_COLOURS_SAME || board % 2 == 1;
}

/* ------------------------------------------------------------------ */
/* Lineups (出场名单)                                                    */
/* ------------------------------------------------------------------ */

void xq_tm_lineup_default(const xq_tm_event *ev, int team, int *out)
{
  const xq_tm_team *t = &ev->teams[team - 1];
  for (int b = 0; b < ev->cfg.boards; b++) out[b] = b < t->nroster ? t->roster[b].id : 0;
}

static int roster_index(const xq_tm_team *t, int id)
{
  for (int i = 0; i < t->nroster; i++)
    if (t->roster[i].id == id) return i;
  return -1;
}

int xq_tm_lineup_make(const xq_tm_event *ev, int team, const int *players, int n, int *out, xq_error *err)
{
  if (!ev || team < 1 || team > ev->nteams || (!players && n) || !out || n < 0)
    return xq__error(err, XQ_EINVAL, "no such team");
  const xq_tm_team *t = &ev->teams[team - 1];
  int B = ev->cfg.boards, k = 0, idx[XQ_TM_BOARDS_MAX];
  for (int i = 0; i < n; i++) {
    if (!players[i]) continue; /* absent: the next ones move up */
    int at = roster_index(t, players[i]);
    if (at < 0) return xq__error(err, XQ_EINVAL, "team %s: player %d is not on its roster", t->name, players[i]);
    if (k == B) return xq__error(err, XQ_EINVAL, "team %s: more than %d players for %d boards", t->name, B, B);
    for (int j = 0; j < k; j++)
      if (idx[j] == at) return xq__error(err, XQ_EINVAL, "team %s: %s is on two boards", t->name, t->roster[at].name);
    idx[k++] = at;
  }
  for (int j = 1; ev->cfg.board_order == XQ_TM_ORDER_FIXED && j < k; j++) {
    if (idx[j] > idx[j - 1]) continue;
    const xq_tm_member *hi = &t->roster[idx[j - 1]], *lo = &t->roster[idx[j]];
    if (idx[j - 1] >= t->nregular && idx[j] < t->nregular)
      return xq__error(err, XQ_EINVAL,
                       "team %s: reserve %s may not play board %d above regular %s (fixed board order)",
                       t->name, hi->name, j, lo->name);
    return xq__error(err, XQ_EINVAL,
                     "team %s: %s may not play board %d above %s, who comes before him on the roster "
                     "(fixed board order)", t->name, hi->name, j, lo->name);
  }
  for (int b = 0; b < B; b++) out[b] = b < k ? t->roster[idx[b]].id : 0;
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Matches                                                             */
/* ------------------------------------------------------------------ */

int xq_tm_match_of(const xq_tm_event *ev, int round, int team)
{
  for (int m = 0; ev && m < ev->nmatches; m++) {
    const xq_tm_match *x = &ev->matches[m];
    if (x->round == round && (x->first == team || x->second == team)) return m;
  }
  return -1;
}

static int match_has_result(const xq_tm_match *x)
{
  for (int b = 0; b < XQ_TM_BOARDS_MAX; b++)
    if (x->res[b] != XQ_TR_NONE) return 1;
  return 0;
}

int xq_tm_set_lineup(xq_tm_event *ev, int m, int team, const int *players, int n, xq_error *err)
{
  if (!ev || m < 0 || m >= ev->nmatches) return xq__error(err, XQ_EINVAL, "no such match");
  xq_tm_match *x = &ev->matches[m];
  int side = x->first == team ? 0 : x->second == team && team ? 1 : -1;
  if (side < 0) return xq__error(err, XQ_EINVAL, "team %d does not play match %d", team, m + 1);
  if (match_has_result(x)) return xq__error(err, XQ_EINVAL, "the match has results: its lineups are final");
  int out[XQ_TM_BOARDS_MAX];
  int rc = xq_tm_lineup_make(ev, team, players, n, out, err);
  if (rc) return rc;
  memcpy(x->lineup[side], out, sizeof out);
  x->lineup_set[side] = 1;
  return XQ_OK;
}

int xq_tm_set_result(xq_tm_event *ev, int m, int board, int res, xq_error *err)
{
  if (!ev || m < 0 || m >= ev->nmatches) return xq__error(err, XQ_EINVAL, "no such match");
  xq_tm_match *x = &ev->matches[m];
  if (!x->second) return xq__error(err, XQ_EINVAL, "a bye has no boards");
  if (board < 1 || board > ev->cfg.boards) return xq__error(err, XQ_EINVAL, "no board %d", board);
  if (res != XQ_TR_NONE && res != XQ_TR_WIN && res != XQ_TR_DRAW && res != XQ_TR_LOSS && res != XQ_TR_FWIN &&
      res != XQ_TR_FLOSS)
    return xq__error(err, XQ_EINVAL, "not a board result");
  if (!x->lineup[0][board - 1] || !x->lineup[1][board - 1])
    return xq__error(err, XQ_EINVAL, "board %d is empty: a forfeit already", board);
  x->res[board - 1] = (uint8_t)res;
  return XQ_OK;
}

static const struct { int res; const char *code; } result_codes[] = {
  {XQ_TR_WIN, "1-0"}, {XQ_TR_LOSS, "0-1"}, {XQ_TR_DRAW, "="}, {XQ_TR_FWIN, "+-"}, {XQ_TR_FLOSS, "-+"}};

const char *xq_tm_result_code(int res)
{
  for (size_t i = 0; i < sizeof result_codes / sizeof *result_codes; i++)
    if (result_codes[i].res == res) return result_codes[i].code;
  return "";
}

int xq_tm_result_parse(const char *code)
{
  if (code && !strcmp(code, "*")) return XQ_TR_NONE;
  for (size_t i = 0; code && i < sizeof result_codes / sizeof *result_codes; i++)
    if (!strcmp(result_codes[i].code, code)) return result_codes[i].res;
  return -1;
}

int xq_tm_set_forfeit(xq_tm_event *ev, int m, int forfeit, xq_error *err)
{
  if (!ev || m < 0 || m >= ev->nmatches || forfeit < XQ_TMF_NONE || forfeit > XQ_TMF_BOTH)
    return xq__error(err, XQ_EINVAL, "no such match or forfeit");
  if (!ev->matches[m].second) return xq__error(err, XQ_EINVAL, "a bye cannot be forfeited");
  ev->matches[m].forfeit = forfeit;
  return XQ_OK;
}

/* The other side's result of a board result. */
static int flip(int r)
{
  switch (r) {
  case XQ_TR_WIN: return XQ_TR_LOSS;
  case XQ_TR_LOSS: return XQ_TR_WIN;
  case XQ_TR_FWIN: return XQ_TR_FLOSS;
  case XQ_TR_FLOSS: return XQ_TR_FWIN;
  default: return r;
  }
}

static int game_points(const xq_tm_config *c, int r)
{
  if (r == XQ_TR_WIN || r == XQ_TR_FWIN) return c->gp_win;
  if (r == XQ_TR_DRAW) return c->gp_draw;
  return c->gp_loss;
}

/* Which side is absent as a whole: declared, withdrawn (a round robin),
 * or fewer than min_players fielded. */
static int absent_sides(const xq_tm_event *ev, const xq_tm_match *x)
{
  int f = x->forfeit;
  for (int s = 0; s < 2; s++) {
    const xq_tm_team *t = &ev->teams[(s ? x->second : x->first) - 1];
    int k = 0;
    for (int b = 0; b < ev->cfg.boards; b++) k += x->lineup[s][b] != 0;
    int out = k < ev->cfg.min_players || (ev->cfg.format == XQ_TM_RR && t->withdrawn && x->round >= t->withdrawn);
    if (out) f |= s ? XQ_TMF_SECOND : XQ_TMF_FIRST;
  }
  return f;
}

/* 场分 of each side from the match outcome. */
static void match_points(const xq_tm_config *c, xq_tm_score *o)
{
  for (int s = 0; s < 2; s++) {
    int d = o->gp[s] - o->gp[!s];
    o->outcome[s] = d > 0 ? 1 : d < 0 ? -1 : 0;
    o->mp[s] = d > 0 ? c->mp_win : d < 0 ? c->mp_loss : c->home_away ? (s ? c->mp_draw_away : c->mp_draw_home)
                                                                     : c->mp_draw;
  }
}

void xq_tm_match_score(const xq_tm_event *ev, int m, xq_tm_score *o)
{
  const xq_tm_config *c = &ev->cfg;
  const xq_tm_match *x = &ev->matches[m];
  memset(o, 0, sizeof *o);
  if (!x->second) {
    o->bye = o->decided = 1;
    o->gp[0] = c->bye_gp, o->mp[0] = c->bye_mp, o->outcome[0] = 1;
    return;
  }
  o->forfeit = absent_sides(ev, x);
  o->decided = 1;
  if (o->forfeit) {
    for (int s = 0; s < 2; s++) {
      int away = o->forfeit & (s ? XQ_TMF_SECOND : XQ_TMF_FIRST);
      o->gp[s] = away ? 0 : c->forfeit_match_gp;
      o->outcome[s] = away ? -1 : 1;
      o->mp[s] = away ? c->mp_loss : c->mp_win;
    }
    return;
  }
  for (int b = 0; b < c->boards; b++) {
    int p0 = x->lineup[0][b], p1 = x->lineup[1][b], r;
    if (!p0 && !p1) continue;                    /* both empty: nothing to either */
    if (!p0 || !p1) r = p0 ? XQ_TR_FWIN : XQ_TR_FLOSS;
    else r = x->res[b];
    if (r == XQ_TR_NONE) { o->decided = 0; continue; }
    for (int s = 0; s < 2; s++) {
      int rs = s ? flip(r) : r, red = xq_tm_first_red(c, b + 1) ? !s : s;
      o->board_res[s][b] = rs;
      o->board_gp[s][b] = game_points(c, rs);
      o->gp[s] += o->board_gp[s][b];
      int won = rs == XQ_TR_WIN || rs == XQ_TR_FWIN;
      o->wins[s] += won;
      o->bwins[s] += won && !red && rs == XQ_TR_WIN;
    }
  }
  match_points(c, o);
}
