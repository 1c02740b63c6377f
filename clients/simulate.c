/*
 * simulate.c -- a whole event under a regulation preset on the real
 * server (`xqref simulate`, simulate.h, docs/simulate.md): the run, from
 * the options and the store to the final lists.
 *
 * One loop runs the server and every client (simulate_server.c). The
 * organiser's connection registers the players (add_player) and pairs and
 * publishes each round (pair, Chinese system; round 1 by the preset's
 * method); every table was given a board token in the store before the
 * server started, and the arbiter's connection enters the late forfeits
 * (result with +- / -+ / --). The other tables are played by board
 * connections (simulate_boards.c); the server judges, stores and records
 * the results in the tournament as for real boards. The knockout
 * (simulate_ko.c) starts between the cut round and the next and plays a
 * stage a round beside the Swiss, or after it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pair/pair.h"
#include "simulate_internal.h"

static double now_s(void) { return (double)uv_hrtime() / 1e9; }

/* ------------------------------------------------------------------ */
/* The store before the server: event, admin and arbiter tokens        */
/* ------------------------------------------------------------------ */

/* The staff's tokens and the boards': S->admin, S->arbiter (the chief
 * arbiter's) and S->tokens (allocated here), a board token for each of
 * S->tables tables of each of `rounds` rounds, made in one transaction
 * of `st`. XQ_OK, or the store's code with its message in *e. */
int xq__simulate_tokens(xq__sim *S, xq_tstore *st, int rounds, xq_error *e)
{
  xq_ttoken tk;
  int created = 0;
  int rc = xq_tstore_admin_token(st, &tk, &created, e);
  if (!rc) snprintf(S->admin, sizeof S->admin, "%s", tk.token);
  if (!rc) rc = xq_tstore_token_new(st, XQ_ROLE_ARBITER, 0, 0, "chief arbiter", &tk, e);
  if (!rc) snprintf(S->arbiter, sizeof S->arbiter, "%s", tk.token);
  S->tokens = calloc(rounds ? (size_t)rounds * (size_t)S->tables : 1, XQ_SIM_TOKEN_SIZE);
  if (!S->tokens && !rc) rc = XQ_ENOMEM;
  if (!rc) rc = xq_tstore_batch_begin(st, e);
  for (int round = 1; round <= rounds && !rc; round++)
    for (int t = 1; t <= S->tables && !rc; t++) {
      char label[XQ_TOURNEY_FIELD_MAX];
      snprintf(label, sizeof label, "round %d table %d", round, t);
      rc = xq_tstore_token_new(st, XQ_ROLE_BOARD, round, t, label, &tk, e);
      if (!rc) memcpy(S->tokens + ((size_t)(round - 1) * (size_t)S->tables + (size_t)(t - 1)) * XQ_SIM_TOKEN_SIZE,
                      tk.token, XQ_SIM_TOKEN_SIZE);
    }
  if (!rc) rc = xq_tstore_batch_commit(st, e);
  else if (xq_tstore_in_batch(st)) xq_tstore_batch_rollback(st);
  return rc;
}

static int create_store(xq__sim *S)
{
  const xq_regulation *r = S->r;
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cfg.rounds = r->rounds;
  cfg.lot_seed = S->o->seed;
  /* the event's settings as `tourney new --preset` makes them: rounds,
   * scoring, round 1, tie-breaks, the withdrawal rule */
  xq_error e = {0};
  if (xq_regulation_tconfig(r, &cfg, &e))
    return xq__simulate_server_fail(S, XQ_EINVAL, "preset %s: tie-breaks: %s", r->name, e.msg);
  if (S->o->format) {
    xq_tconfig_round_robin(&cfg, S->o->format); /* the preset's scoring kept */
    cfg.rr_groups = S->o->rr_groups > 1 ? S->o->rr_groups : 0;
  }
  xq_tstore *st = NULL;
  int rc = xq_tstore_open(S->db, XQ_TSTORE_CREATE, &st, &e);
  char title[XQ_TOURNEY_NAME_MAX];
  if (S->o->group) snprintf(title, sizeof title, "%.180s %.60s", r->title, S->group.name);
  else snprintf(title, sizeof title, "%s", r->title);
  if (!rc) rc = xq_tstore_create_event(st, title, &cfg, &e);
  /* A board token for every table of every round, printed on the table
   * cards before the event (the server loads them when it starts). */
  S->tables = (S->n + 1) / 2;
  /* (a knockout-only event has no rounds: its tables get tokens when
   * they are published) */
  if (!rc) rc = xq__simulate_tokens(S, st, r->rounds, &e);
  xq_tstore_close(st);
  if (rc) return xq__simulate_server_fail(S, rc, "%s: %s", S->db, e.msg[0] ? e.msg : xq_strerror(rc));
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

int xq__simulate_register_players(xq__sim *S, const xq_tplayer *pl)
{
  for (int i = 0; i < S->n; i++) {
    const xq_tplayer *p = &pl[i];
    cJSON *req = cJSON_CreateObject(), *pj = cJSON_CreateObject();
    cJSON_AddNumberToObject(req, "id", (double)++S->next_id);
    cJSON_AddStringToObject(req, "op", "add_player");
    cJSON_AddStringToObject(pj, "name", p->name);
    cJSON_AddNumberToObject(pj, "rating", p->rating);
    cJSON_AddStringToObject(pj, "birth", p->birth);
    char sex[2] = {p->sex, 0};
    cJSON_AddStringToObject(pj, "sex", sex);
    cJSON_AddStringToObject(pj, "region", p->region);
    cJSON_AddStringToObject(pj, "club", p->club);
    if (p->team[0]) cJSON_AddStringToObject(pj, "team", p->team);
    cJSON_AddBoolToObject(pj, "local", p->local);
    cJSON_AddItemToObject(req, "player", pj);
    char *line = cJSON_PrintUnformatted(req);
    cJSON_Delete(req);
    if (!line) return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
    cJSON *r = xq__simulate_server_call(S, &S->adm, line);
    free(line);
    if (!r) return XQ_EIO;
    const char *code = xq__jsonl_error(r);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "player");
    int ok = !code && cJSON_IsNumber(id) && id->valueint == i + 1;
    cJSON_Delete(r);
    if (!ok) return xq__simulate_server_fail(S, XQ_EIO, "add_player %s: %s", p->name, code ? code : "unexpected reply");
  }
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* A Swiss round                                                       */
/* ------------------------------------------------------------------ */

static int is_late(xq__sim *S, int id, int round)
{
  if (S->stop_round[id] && round >= S->stop_round[id]) return 1;
  return xq__simulate_games_below(&S->rng, XQ_SIM_RATE_MAX) < S->o->rate_late;
}

static int play_round(xq__sim *S, int round)
{
  double t0 = now_s();
  const char *system = round == 1 && !S->r->round1_adjacent ? "dutch" : "cn";
  char line[XQ_SIM_LINE];
  /* Round 1 without the adjacent method is top half against bottom half
   * (docs/presets.md "round 1": by number), which the Dutch round 1 is;
   * every later round is the Chinese system. */
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"pair\",\"round\":%d,\"system\":\"%s\",\"publish\":true}",
           ++S->next_id, round, system);
  cJSON *pr = xq__simulate_server_call(S, &S->adm, line);
  if (!pr) return XQ_EIO;
  const char *code = xq__jsonl_error(pr);
  if (code) {
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(pr, "error");
    int rc = xq__simulate_server_fail(S, XQ_EIO, "round %d: pair: %s %s", round, code, xq__jsonl_str(e, "msg") ? xq__jsonl_str(e, "msg") : "");
    cJSON_Delete(pr);
    return rc;
  }
  const cJSON *boards = cJSON_GetObjectItemCaseSensitive(pr, "boards");
  int nb = cJSON_GetArraySize(boards);
  S->boards = calloc((size_t)(nb ? nb : 1), sizeof *S->boards);
  if (!S->boards) {
    cJSON_Delete(pr);
    return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  }
  S->nboards = 0;
  S->done = 0;
  int rc = XQ_OK, forfeits = 0;
  for (int i = 0; i < nb && !rc; i++) {
    const cJSON *bd = cJSON_GetArrayItem(boards, i);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(bd, "table");
    const cJSON *red = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(bd, "red"), "id");
    const cJSON *black = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(bd, "black"), "id");
    if (!cJSON_IsNumber(t) || !cJSON_IsNumber(red)) {
      rc = xq__simulate_server_fail(S, XQ_EIO, "round %d: a board without table or Red", round);
      break;
    }
    if (!cJSON_IsNumber(black)) continue; /* the bye */
    S->rep->boards++;
    int late_r = is_late(S, red->valueint, round), late_b = is_late(S, black->valueint, round);
    if (late_r || late_b) {
      /* docs/presets.md "late → forfeit": the arbiter enters it */
      rc = xq__simulate_server_result(S, round, t->valueint, late_r && late_b ? "--" : late_r ? "-+" : "+-", "late");
      forfeits += late_r + late_b;
      S->rep->forfeited_boards++;
      continue;
    }
    xq__sim_board *b = &S->boards[S->nboards++];
    b->S = S;
    b->table = t->valueint;
    b->red = red->valueint;
    b->black = black->valueint;
    b->round = round;
    b->rules = S->rules;
    if (b->table > S->tables) rc = xq__simulate_server_fail(S, XQ_EINVAL, "round %d: table %d has no token", round, b->table);
    else b->token = S->tokens + ((size_t)(round - 1) * (size_t)S->tables + (size_t)(b->table - 1)) * XQ_SIM_TOKEN_SIZE;
  }
  cJSON_Delete(pr);
  /* the knockout plays a stage a round beside the Swiss (Xinjiang: the
   * quarter-finals in round 9, ...): its standard games with the round's,
   * its tie-break games after them */
  int stage = S->rep->ko_after && round > S->rep->ko_after ? round - S->rep->ko_after : 0, added = 0;
  if (!rc && stage) rc = xq__simulate_ko_add_tables(S, stage, &added);
  double t_setup = now_s();
  S->rep->forfeits += forfeits;
  if (!rc) rc = xq__simulate_boards_play(S);
  int games = S->nboards - added, ko_games = added;
  free(S->boards);
  S->boards = NULL;
  for (int n = 1; !rc && stage && n > 0; ko_games += n) rc = xq__simulate_ko_batch(S, stage, &n);
  S->rep->rounds = round;
  if (S->o->log) {
    fprintf(S->o->log, "round %d: %d boards, %d games, %d forfeits", round, nb, games, forfeits);
    if (stage) fprintf(S->o->log, "; knockout stage %d: %d games", stage, ko_games);
    fprintf(S->o->log, "; %.2f s (pairing and tokens %.2f s)\n", now_s() - t0, t_setup - t0);
  }
  return rc;
}

/* ------------------------------------------------------------------ */
/* The run                                                             */
/* ------------------------------------------------------------------ */

void xq_sim_opts_default(xq_sim_opts *o)
{
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->min_plies = 40;
  o->max_plies = 160;
  o->rate_illegal = 30;
  o->rate_suicide = 15;
  o->rate_flag = 20;
  o->rate_repetition = 40;
  o->rate_natural = 10;
  o->rate_late = 10;
  o->absentees = -1;
  o->women = -1;
  o->window = XQ_SIM_WINDOW_DEFAULT;
  o->teams = XQ_SIM_TEAMS_DEFAULT;
  o->team_boards = XQ_SIM_TEAM_BOARDS_DEFAULT;
}

/* --group: the event of one of the preset's groups that plays apart
 * (Tangshan 七: 分别进行比赛): its players only, the preset's rules and
 * rounds, no knockout (the open group's) and no team competition. */
static int rc_group(xq__sim *S, const char *name)
{
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  int ng = 0, gi = -1;
  if (xq__simulate_final_reg_groups(S->r, groups, XQ_REG_GROUPS_MAX, &ng)) ng = 0;
  for (int i = 1; i < ng && gi < 0; i++)
    if (name[0] && strstr(groups[i].name, name)) gi = i;
  if (gi < 0) return xq__simulate_server_fail(S, XQ_EINVAL, "%s has no group '%s' besides its open group", S->r->name, name);
  S->group = groups[gi];
  S->reg.ko_size = 0;
  S->reg.ko_after_round = 0;
  S->reg.team_size = 0;
  /* Tangshan 八.2 7或9轮 (option group_rounds) */
  if (xq_regulation_option(S->r, "group_rounds") == 1) S->reg.rounds = 7;
  return XQ_OK;
}

/* --group of a knockout-only sub-event (Shaanxi 十(二)2 乡村棋王): its
 * entrants only, no Swiss rounds, no teams, the sub-event's format and
 * prizes (simulate_final.c). */
static void rc_ko_event(xq__sim *S, const xq_ko_event *e)
{
  S->kev = e;
  memset(&S->group, 0, sizeof S->group);
  snprintf(S->group.name, sizeof S->group.name, "%s", e->name);
  S->reg.rounds = 0;
  S->reg.ko_size = 0;
  S->reg.ko_after_round = 0;
  S->reg.ko_format = e->format;
  S->reg.team_size = 0;
  S->reg.entry_limit = 0;
  S->reg.lucky_amount = 0;
}

/* The readings chosen on S->reg (check_opts) that are rules of play
 * (rules_key): a rules file beside the store for the server, and the
 * boards' rules. Returns XQ_OK, XQ_EINVAL or XQ_EIO. */
static int apply_options(xq__sim *S)
{
  char json[XQ_SIM_LINE];
  int n = snprintf(json, sizeof json, "{\"preset\":\"%s\"", S->r->rules_preset), extra = 0;
  const xq_reg_option *ro;
  for (int i = 0; (ro = xq_regulation_option_at(S->r, i)); i++)
    if (ro->rules_key && S->reg.opt[i] && n < (int)sizeof json - 80) {
      n += snprintf(json + n, sizeof json - (size_t)n, ",\"%s\":%d", ro->rules_key, S->reg.opt[i]);
      extra = 1;
    }
  if (!extra) return XQ_OK;
  snprintf(json + n, sizeof json - (size_t)n, "}");
  xq_error e = {0};
  if (xq_rules_load_json(json, &S->rules, &e)) return xq__simulate_server_fail(S, XQ_EINVAL, "options: %s", e.msg);
  snprintf(S->rules_file, sizeof S->rules_file, "%.*s.rules.json", (int)sizeof S->rules_file - 16, S->db);
  FILE *f = fopen(S->rules_file, "w");
  if (!f || fputs(json, f) < 0 || fclose(f)) {
    if (f) fclose(f);
    return xq__simulate_server_fail(S, XQ_EIO, "cannot write %s", S->rules_file);
  }
  return XQ_OK;
}

/* --format rr|rr2: the preset's rules of play and scoring for a round
 * robin of S->n entrants; the preset's Swiss rounds, knockout, teams,
 * entry limit and lucky prizes do not apply. XQ_OK or XQ_EINVAL. */
static int rr_event(xq__sim *S, const xq_sim_opts *o)
{
  int G = o->rr_groups > 1 ? o->rr_groups : 1, per = (S->n + G - 1) / G, rounds = xq_rr_rounds(per, o->format);
  if (o->format < 1 || o->format > 2 || o->group)
    return xq__simulate_server_fail(S, XQ_EINVAL, "--format is rr or rr2, without --group");
  if (G > 1 && (G > XQ_RR_GROUPS_MAX || S->n / G < 3))
    return xq__simulate_server_fail(S, XQ_EINVAL, "%d players make no %d groups of 3 or more", S->n, G);
  if (per < 3 || per > XQ_RR_ENTRANTS_MAX || rounds > XQ_TOURNEY_ROUNDS_MAX)
    return xq__simulate_server_fail(S, XQ_EINVAL, "a %sround robin takes 3..%d entrants%s, not %d",
                                    o->format == 2 ? "double " : "", o->format == 2 ? 25 : XQ_RR_ENTRANTS_MAX,
                                    G > 1 ? " a group" : "", per);
  int k = o->ko_size;
  if (k && ((k != 4 && k != 8 && k != 16) || k > S->n || (G > 1 && k / G != 2 && !(G == 2 && k == 8))))
    return xq__simulate_server_fail(S, XQ_EINVAL, "--ko is 4, 8 or 16: two of each group (or four of each of two),"
                                    " not %d of %d groups", k, G);
  S->reg.rounds = rounds;
  S->reg.ko_size = k;
  S->reg.ko_after_round = k ? rounds : 0;
  S->reg.ko_top_chooses = 0;
  if (k && !S->reg.ko_format) S->reg.ko_format = "xinjiang";
  S->reg.team_size = S->reg.entry_limit = 0;
  S->reg.lucky_amount = 0;
  S->reg.title = o->format == 2 ? "双循环赛 Double round robin" : "单循环赛 Round robin";
  return XQ_OK;
}

static int check_opts(xq__sim *S, const xq_sim_opts *o)
{
  const xq_regulation *found;
  if (!o->preset || xq_regulation_find(o->preset, &found))
    return xq__simulate_server_fail(S, XQ_EINVAL, "unknown preset '%s' (xqref presets lists them)", o->preset ? o->preset : "");
  /* a copy: the options' readings and a group's event change it */
  S->reg = *found;
  S->r = &S->reg;
  for (int i = 0; i < o->noptions; i++) {
    xq_error e = {0};
    if (xq_regulation_option_set(&S->reg, o->options[i], &e)) return xq__simulate_server_fail(S, XQ_EINVAL, "%s", e.msg);
  }
  if (xq_rules_preset(S->r->rules_preset, &S->rules))
    return xq__simulate_server_fail(S, XQ_EINVAL, "preset %s: no rules preset %s", S->r->name, S->r->rules_preset);
  if (o->format >= XQ_SIM_TEAM_RR) return xq__simulate_team_check(S);
  const xq_ko_event *kev;
  if (o->group && o->group[0] && xq_regulation_ko_event(S->r, o->group, &kev) == XQ_OK) rc_ko_event(S, kev);
  else if (o->group && (rc_group(S, o->group))) return XQ_EINVAL;
  int limit = o->group || o->format ? 0 : S->r->entry_limit;
  S->n = o->players ? o->players : o->format ? XQ_SIM_RR_PLAYERS_DEFAULT : limit ? limit : S->kev ? S->kev->entrants_default
                                                 : o->group ? XQ_SIM_GROUP_PLAYERS_DEFAULT : XQ_SIM_PLAYERS_DEFAULT;
  if (o->format && rr_event(S, o)) return XQ_EINVAL;
  if (limit && S->n > limit)
    return xq__simulate_server_fail(S, XQ_EINVAL, "%s admits at most %d players (its entry limit), not %d", S->r->name, limit, S->n);
  int least = o->format ? 3 : S->r->rounds + 5;
  if (S->r->ko_size && least < 2 * S->r->ko_size) least = 2 * S->r->ko_size;
  if (S->kev) {
    /* the entrants alternate between the pools: each pool at least one,
     * at most half the largest bracket */
    int most = XQ_KO_SIZE_MAX / S->kev->pools * S->kev->pools;
    if (S->n < 2 || S->n < S->kev->pools || S->n > most)
      return xq__simulate_server_fail(S, XQ_EINVAL, "%s %s takes 2..%d entrants (%d a pool), not %d", S->r->name, S->kev->name, most,
                  XQ_KO_SIZE_MAX / S->kev->pools, S->n);
    least = 2;
  }
  if (S->n < least || S->n > XQ_SIM_PLAYERS_MAX)
    return xq__simulate_server_fail(S, XQ_EINVAL, "%s needs %d..%d players for its %d rounds, not %d", S->r->name, least,
                XQ_SIM_PLAYERS_MAX, S->r->rounds, S->n);
  int rates[] = {o->rate_illegal, o->rate_suicide, o->rate_flag, o->rate_repetition, o->rate_natural};
  int sum = 0;
  for (size_t i = 0; i < sizeof rates / sizeof *rates; i++) {
    if (rates[i] < 0 || rates[i] > XQ_SIM_RATE_MAX) return xq__simulate_server_fail(S, XQ_EINVAL, "incident rates are 0..1000 per mille");
    sum += rates[i];
  }
  if (sum > XQ_SIM_RATE_MAX) return xq__simulate_server_fail(S, XQ_EINVAL, "the game incident rates add up to more than 1000 per mille");
  if (o->rate_late < 0 || o->rate_late > XQ_SIM_RATE_MAX) return xq__simulate_server_fail(S, XQ_EINVAL, "--late is 0..1000 per mille");
  if (o->min_plies < 0 || o->max_plies > XQ_SIM_PLIES_MAX || o->min_plies > o->max_plies)
    return xq__simulate_server_fail(S, XQ_EINVAL, "game lengths must satisfy 0 <= min <= max <= %d plies", XQ_SIM_PLIES_MAX);
  if (o->window < 0 || o->window > XQ_SIM_WINDOW_MAX)
    return xq__simulate_server_fail(S, XQ_EINVAL, "the window is 0..%d events in flight per board", XQ_SIM_WINDOW_MAX);
  if (o->women > S->n || o->absentees > S->n / 4)
    return xq__simulate_server_fail(S, XQ_EINVAL, "at most all players can be women and a quarter absentees");
  if (o->db && strlen(o->db) >= XQ_SIM_PATH_MAX - 16) return xq__simulate_server_fail(S, XQ_EINVAL, "--db path too long");
  if (o->db && access(o->db, F_OK) == 0) return xq__simulate_server_fail(S, XQ_EINVAL, "%s exists: the simulation needs a new store", o->db);
  /* the files made beside the store are new too: none is overwritten */
  static const char *const beside[] = {".rules.json", ".admin"};
  for (size_t i = 0; o->db && i < sizeof beside / sizeof beside[0]; i++) {
    char p[XQ_SIM_PATH_MAX + 16];
    snprintf(p, sizeof p, "%s%s", o->db, beside[i]);
    if (access(p, F_OK) == 0) return xq__simulate_server_fail(S, XQ_EINVAL, "%s exists: the simulation writes it anew", p);
  }
  return XQ_OK;
}

static void remove_store(xq__sim *S)
{
  if (!S->tmpdir[0]) return;
  const char *sfx[] = {"", "-wal", "-shm", "-journal", ".admin", ".rules.json"};
  char p[XQ_SIM_PATH_MAX + 16];
  for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
    snprintf(p, sizeof p, "%s%s", S->db, sfx[i]);
    unlink(p);
  }
  rmdir(S->tmpdir);
}

static int run(xq__sim *S)
{
  const xq_sim_opts *o = S->o;
  const xq_regulation *r = S->r;
  int rc;
  if (o->db) {
    snprintf(S->db, sizeof S->db, "%s", o->db);
  } else {
    const char *tmp = getenv("TMPDIR");
    snprintf(S->tmpdir, sizeof S->tmpdir, "%.900s/xqref-sim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(S->tmpdir)) {
      S->tmpdir[0] = 0;
      return xq__simulate_server_fail(S, XQ_EIO, "cannot make a temporary directory: %s", strerror(errno));
    }
    snprintf(S->db, sizeof S->db, "%s/sim.db", S->tmpdir);
  }
  if ((rc = apply_options(S))) return rc;
  if (o->format >= XQ_SIM_TEAM_RR) return xq__simulate_team_run(S);
  if ((rc = create_store(S))) return rc;

  /* the entrants, shaped by the regulation's groups and prizes */
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  int ng = 0;
  if (o->group) groups[0] = S->group, ng = 1; /* every entrant is of the group */
  else if (xq__simulate_final_open_groups(r, groups, XQ_REG_GROUPS_MAX, &ng)) ng = 0;
  xq_prize_table *pt = calloc(1, sizeof *pt);
  xq_tplayer *pl = calloc((size_t)S->n, sizeof *pl);
  S->stop_round = calloc((size_t)S->n + 1, sizeof *S->stop_round);
  if (!pt || !pl || !S->stop_round) {
    free(pt);
    free(pl);
    return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  }
  int have_prizes = !o->format && xq__simulate_final_reg_prizes(r, S->n, pt) == XQ_OK;
  xq__simulate_players_make(r, groups, ng, have_prizes ? pt : NULL, S->n, o->women, o->seed, pl);
  free(pt);
  if (!(S->rating = calloc((size_t)S->n + 1, sizeof *S->rating))) {
    free(pl);
    return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  }
  for (int i = 0; i < S->n; i++) S->rating[i + 1] = pl[i].rating;
  if (S->kev) {
    /* a knockout-only event: each entrant of a pool (township, its name
     * as the club), alternately, so the pools differ by one at most */
    if (!(S->pool = calloc((size_t)S->n + 1, sizeof *S->pool))) {
      free(pl);
      return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
    }
    /* Shaanxi 九: players of 榆阳区, 佳县 and 神木县 may enter */
    static const char *const counties[] = {"榆林/佳县", "榆林/榆阳区", "榆林/神木县"};
    for (int i = 0; i < S->n; i++) {
      S->pool[i + 1] = i % S->kev->pools;
      snprintf(pl[i].club, sizeof pl[i].club, "%s", S->kev->pool_names[i % S->kev->pools]);
      snprintf(pl[i].region, sizeof pl[i].region, "%s", counties[(i / S->kev->pools) % 3]);
      pl[i].team[0] = 0;
    }
  }
  /* absentees stop coming after a random round; with the withdrawal rule
   * they forfeit their way out of the event */
  int absentees = S->kev ? 0 : o->absentees >= 0 ? o->absentees : S->n / 50; /* no rounds to miss */
  for (int k = 0; k < absentees; k++) {
    int id;
    do id = 1 + xq__simulate_games_below(&S->rng, S->n); while (S->stop_round[id]);
    int last = r->ko_after_round ? r->ko_after_round : r->rounds;
    S->stop_round[id] = 2 + xq__simulate_games_below(&S->rng, last > 4 ? last - 3 : 1);
  }

  if (uv_loop_init(&S->loop)) {
    free(pl);
    return xq__simulate_server_fail(S, XQ_EIO, "cannot start an event loop");
  }
  S->loop_open = 1;
  if ((rc = xq__simulate_server_up(S)) || (rc = xq__simulate_register_players(S, pl))) {
    free(pl);
    return rc;
  }
  free(pl);
  S->rep->players = S->n;

  double t0 = now_s();
  for (int round = 1; round <= r->rounds && !rc; round++) {
    if (r->ko_size && round == r->ko_after_round + 1 && (rc = xq__simulate_ko_start(S))) break;
    rc = play_round(S, round);
  }
  S->rep->swiss_seconds = now_s() - t0;
  /* a knockout after the last Swiss round (Tangshan: top 4 after 9) */
  if (!rc && r->ko_size && !S->rep->ko_after) rc = xq__simulate_ko_start(S);
  if (!rc && r->ko_size) rc = xq__simulate_ko_run(S);
  /* a knockout-only event: the drawn bracket, played to its final */
  if (!rc && S->kev && !(rc = xq__simulate_ko_start_lot(S))) rc = xq__simulate_ko_run(S);
  xq__simulate_server_down(S);
  if (rc) return rc;
  if (S->errors) return xq__simulate_server_fail(S, XQ_EIO, "%ld protocol errors", S->errors);

  xq_tstore *st = NULL;
  xq_error e = {0};
  if ((rc = xq_tstore_open(S->db, XQ_TSTORE_OPEN, &st, &e))) return xq__simulate_server_fail(S, rc, "%s", e.msg);
  rc = xq__simulate_final_lists(o, r, st, S->rep, S->err);
  xq_tstore_close(st);
  return rc;
}

int xq_simulate(const xq_sim_opts *o, xq_sim_report *rep, xq_error *err)
{
  xq__sim *S = calloc(1, sizeof *S);
  xq_error e0 = {0};
  if (!err) err = &e0;
  memset(err, 0, sizeof *err);
  if (!S) {
    err->code = XQ_ENOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return XQ_ENOMEM;
  }
  memset(rep, 0, sizeof *rep);
  S->o = o;
  S->rep = rep;
  S->err = err;
  S->rng = o ? o->seed * 0x9E3779B97F4A7C15ULL + 0x73696dULL : 1;
  double t0 = now_s();
  int rc = o ? check_opts(S, o) : xq__simulate_server_fail(S, XQ_EINVAL, "no options");
  if (!rc) {
    snprintf(rep->preset, sizeof rep->preset, "%s", S->r->name);
    rep->round_robin = o->format != 0 && o->format != XQ_SIM_TEAM_SWISS;
    rc = run(S);
  }
  if (S->loop_open) {
    xq__simulate_server_down(S);
    if (uv_loop_close(&S->loop)) rc = rc ? rc : xq__simulate_server_fail(S, XQ_EIO, "handles left open at the end");
  }
  remove_store(S); /* only a temporary store */
  free(S->stop_round);
  free(S->rating);
  free(S->pool);
  free(S->tokens);
  free(S);
  rep->seconds = now_s() - t0;
  return rc;
}
