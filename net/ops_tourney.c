/*
 * ops_tourney.c -- the organisers' operations of the JSON-lines protocol
 * (docs/protocol.md "Organisers"): the event, its players, pairing and
 * publishing a round, pairings, standings, exports and access tokens
 * (edits, numbers, withdrawals and absences: ops_players.c; the board
 * slips: ops_slips.c).
 *
 * Every operation is a task (task.h). Reads come from the server's copies
 * of the event and the tokens (s->ev, s->tokens), which every write
 * reloads, or brings up to date itself when it changes one player or adds
 * a token (apply.c, xq__server_tokens_add); the store is used only when
 * no group commit runs (xq__commit_idle).
 *
 * Pairing a round can take seconds for a large event (docs/tourney.md, "FIDE Dutch"),
 * so it runs in the worker pool (jobs.c), in the tournament lane whose
 * slots no engine job may take, on a private copy of the event (docs/server.md)
 * and is answered when done; publishing it is a task again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "delay.h"
#include "prize.h"
#include "apply.h"
#include "commit.h"
#include "hub.h"
#include "internal.h"
#include "jobs.h"
#include "live.h"
#include "ops.h"
#include "proto.h"
#include "task.h"

/* ------------------------------------------------------------------ */
/* JSON pieces                                                         */
/* ------------------------------------------------------------------ */

/* Points in half-units as a JSON number of points (2/1/0: a win is 2). */
static double points(int64_t half) { return (double)half / 2.0; }

/* A tie-break value as a number (null for the ordering-only codes). */
static cJSON *tb_json(int tb, int64_t v)
{
  switch (tb) {
  case XQ_TB_PTS: case XQ_TB_OS: case XQ_TB_OS_C1: case XQ_TB_PS:
    return cJSON_CreateNumber(points(v));
  case XQ_TB_SB: /* quarter-points */
    return cJSON_CreateNumber((double)v / 4.0);
  case XQ_TB_DE: /* the level inside its tie, 1 first; null where it separates nobody */
    return v < 0 ? cJSON_CreateNull() : cJSON_CreateNumber((double)v + 1);
  case XQ_TB_ROUNDBACK_LAST: case XQ_TB_ROUNDBACK_FIRST:
    return cJSON_CreateNull();
  default:
    return cJSON_CreateNumber((double)v);
  }
}

/* {id, no, name, points} of player `id` before round `round`. */
static cJSON *player_ref(const xq_tournament *ev, int id, int round)
{
  const xq_tplayer *p = &ev->players[id - 1];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "id", id);
  cJSON_AddNumberToObject(o, "no", p->pno);
  cJSON_AddStringToObject(o, "name", p->name);
  cJSON_AddNumberToObject(o, "points", points(xq_tournament_points(ev, id, round - 1)));
  return o;
}

/* The result of a board as `result` takes it, from Red's slot: "1-0",
 * "0-1", "=", "+-", "-+", "--"; NULL while pending. */
static const char *board_result(const xq_tournament *ev, int round, const xq_tboard *b)
{
  if (round > XQ_TOURNEY_ROUNDS_MAX || b->red > ev->n || b->black > ev->n) return NULL;
  const xq_tslot *r = xq_tournament_slot(ev, b->red, round);
  if (r->opp != b->black) return NULL;
  switch (r->res) {
  case XQ_TR_WIN: return "1-0";
  case XQ_TR_LOSS: return "0-1";
  case XQ_TR_DRAW: return "=";
  case XQ_TR_FWIN: return "+-";
  case XQ_TR_FLOSS: return xq_tournament_slot(ev, b->black, round)->res == XQ_TR_FWIN ? "-+" : "--";
  default: return NULL;
  }
}

cJSON *xq__ops_tourney_boards(const xq_tournament *ev, const xq_tpairing *pr, int results)
{
  cJSON *a = cJSON_CreateArray();
  for (int b = 0; a && b < pr->nboards; b++) {
    const xq_tboard *bd = &pr->boards[b];
    if (bd->red < 1 || bd->red > ev->n || bd->black < 0 || bd->black > ev->n) continue;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "table", b + 1);
    cJSON_AddItemToObject(o, "red", player_ref(ev, bd->red, pr->round));
    if (bd->black) {
      cJSON_AddItemToObject(o, "black", player_ref(ev, bd->black, pr->round));
      const char *res = results ? board_result(ev, pr->round, bd) : NULL;
      if (res) cJSON_AddStringToObject(o, "result", res);
      else cJSON_AddNullToObject(o, "result");
    } else {
      cJSON_AddNullToObject(o, "black");
      cJSON_AddStringToObject(o, "result", "bye");
    }
    cJSON_AddItemToArray(a, o);
  }
  return a;
}

/* ------------------------------------------------------------------ */
/* event, players, standings, tokens (from the server's copies)        */
/* ------------------------------------------------------------------ */

void xq__ops_tourney_ko_plan(const xq_tournament *ev, cJSON *o)
{
  const xq_regulation *own = ev ? xq_regulation_titled(ev->name) : NULL;
  int kf;
  if (!own || own->ko_size <= 0 || own->ko_after_round <= 0 || !own->ko_format || xq_ko_parse_format(own->ko_format, &kf))
    return;
  cJSON *k = cJSON_AddObjectToObject(o, "knockout");
  cJSON_AddNumberToObject(k, "after", own->ko_after_round);
  cJSON_AddNumberToObject(k, "size", own->ko_size);
  cJSON_AddStringToObject(k, "seeding", own->ko_top_chooses ? "choose" : "fixed");
  cJSON_AddStringToObject(k, "format", xq_ko_format_name(kf));
  cJSON_AddStringToObject(k, "clause", own->rows[XQ_REG_KNOCKOUT].clause);
}

static void run_event(xq__server *s, xq__task *t)
{
  const xq_tournament *ev = s->ev;
  char tb[256] = "";
  xq_tconfig_tb_format(&ev->cfg, tb, sizeof tb);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", ev->name);
  cJSON_AddStringToObject(o, "dates", ev->info.dates);
  cJSON_AddStringToObject(o, "venue", ev->info.venue);
  cJSON_AddNumberToObject(o, "rounds", ev->cfg.rounds);
  cJSON_AddNumberToObject(o, "paired", ev->nrounds);
  cJSON_AddBoolToObject(o, "complete", xq_tournament_round_complete(ev, ev->nrounds));
  cJSON_AddNumberToObject(o, "players", ev->n);
  cJSON_AddStringToObject(o, "scoring", ev->cfg.win == 4 ? "2/1/0" : "1/0.5/0");
  cJSON_AddStringToObject(o, "tiebreaks", tb);
  cJSON_AddStringToObject(o, "rules", s->rules.name);
  /* the event's regulation (the preset whose title it bears) and the
   * knockout it states: the console's knockout form starts from it */
  const xq_regulation *own = xq_regulation_titled(ev->name);
  if (own) cJSON_AddStringToObject(o, "preset", own->name);
  xq__ops_tourney_ko_plan(ev, o);
  /* the regulations whose prize tables and team rules export takes */
  cJSON *pre = cJSON_AddArrayToObject(o, "presets");
  const xq_regulation *reg;
  for (int i = 0; (reg = xq_regulation_at(i)); i++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", reg->name);
    cJSON_AddStringToObject(x, "title", reg->title);
    cJSON_AddItemToArray(pre, x);
  }
  xq__task_send(t, o);
}

/* event: name, dates, venue, rounds planned and paired, players, scoring, tie-breaks,
 * the event's own preset and the knockout it states, the presets (name, title). */
static void op_event(xq__server *s, xq__req *r) { xq__task_read(s, r, run_event); }

/* players: who asked, as it was when the request came (a hello after it
 * changes nothing of its answer). */
typedef struct players_task {
  xq__task t;
  int personal;              /* birth dates and sex shown: an admin or arbiter asked */
} players_task;

/* The body text of `o` (consumed) kept as the answer for `key` and sent
 * as t's reply (answers.c: made again once what it shows changes). */
static void send_kept(xq__server *s, xq__task *t, const xq__answer_key *key, cJSON *o)
{
  char *text = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (!text) {
    xq__task_error(t, XQ__E_INTERNAL, "out of memory");
    return;
  }
  xq__answers_put(s, key, "application/json", text, strlen(text));
  xq__task_send_text(t, text);
  free(text);
}

static void run_players(xq__server *s, xq__task *t)
{
  const xq_tournament *ev = s->ev;
  int personal = ((players_task *)t)->personal;
  /* made once for each change of the tournament: 29 ms at 4,000 players */
  xq__answer_key key = {.kind = XQ__ANSWER_OP_PLAYERS, .table = personal, .pub = xq__delay_public(s)};
  const xq__answer *kept = xq__answers_get(s, &key);
  if (kept) {
    xq__task_send_text(t, kept->text);
    return;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON *a = cJSON_AddArrayToObject(o, "players");
  for (int id = 1; a && id <= ev->n; id++) {
    const xq_tplayer *p = &ev->players[id - 1];
    cJSON *q = cJSON_CreateObject();
    cJSON_AddNumberToObject(q, "id", id);
    cJSON_AddNumberToObject(q, "no", p->pno);
    cJSON_AddStringToObject(q, "name", p->name);
    cJSON_AddNumberToObject(q, "rating", p->rating);
    if (personal) { /* personal data: staff only (security.md "Personal data") */
      cJSON_AddStringToObject(q, "birth", p->birth);
      if (p->sex) cJSON_AddStringToObject(q, "sex", p->sex == 'w' ? "w" : "m");
      else cJSON_AddNullToObject(q, "sex");
    }
    cJSON_AddStringToObject(q, "region", p->region);
    cJSON_AddStringToObject(q, "club", p->club);
    cJSON_AddStringToObject(q, "team", p->team);
    cJSON_AddBoolToObject(q, "local", p->local);
    cJSON_AddNumberToObject(q, "withdrawn", p->withdrawn);
    cJSON_AddItemToArray(a, q);
  }
  send_kept(s, t, &key, o);
}

/* players: every player in id order; birth date and sex only for an
 * admin or arbiter. */
static void op_players(xq__server *s, xq__req *r)
{
  players_task *t = (players_task *)xq__task_new(s, r, run_players, sizeof *t, NULL);
  if (!t) return;
  t->personal = r->c->role == XQ_ROLE_ADMIN || r->c->role == XQ_ROLE_ARBITER;
  xq__task_go(s, &t->t, 0);
}

/* An operation on a round: standings, pairings. */
typedef struct round_task {
  xq__task t;
  int round;                 /* 0: the default */
  xq_tpairing pr;            /* pairings: the round's boards */
} round_task;

static void round_fini(xq__task *t) { xq_tpairing_clear(&((round_task *)t)->pr); }

/* A new round task for `r` that runs `run` on `round`, or NULL after
 * answering INTERNAL. */
static round_task *round_new(xq__server *s, xq__req *r, xq__task_fn run, int round)
{
  round_task *rt = (round_task *)xq__task_new(s, r, run, sizeof *rt, round_fini);
  if (rt) rt->round = round;
  return rt;
}

static void run_standings(xq__server *s, xq__task *t)
{
  const xq_tournament *ev = s->ev;
  int round = ((round_task *)t)->round;
  int upto = round ? round : ev->nrounds;
  if (upto > ev->nrounds) {
    char msg[64];
    snprintf(msg, sizeof msg, "round %d is not paired (%d are)", upto, ev->nrounds);
    xq__task_error(t, XQ__E_NOT_FOUND, msg);
    return;
  }
  /* made once for each change of the tournament (answers.c) */
  xq__answer_key key = {.kind = XQ__ANSWER_OP_STANDINGS, .round = upto, .pub = xq__delay_public(s)};
  const xq__answer *kept = xq__answers_get(s, &key);
  if (kept) {
    xq__task_send_text(t, kept->text);
    return;
  }
  xq_tstanding *st = malloc(sizeof *st * (size_t)(ev->n ? ev->n : 1));
  if (!st || xq_standings(ev, upto, st) != XQ_OK) {
    free(st);
    xq__task_error(t, XQ__E_INTERNAL, "out of memory");
    return;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", upto);
  cJSON *tbs = cJSON_AddArrayToObject(o, "tiebreaks");
  for (int k = 0; tbs && k < ev->cfg.ntb; k++)
    cJSON_AddItemToArray(tbs, cJSON_CreateString(xq_tb_name(ev->cfg.tb[k])));
  cJSON *a = cJSON_AddArrayToObject(o, "standings");
  for (int i = 0; a && i < ev->n; i++) {
    const xq_tplayer *p = &ev->players[st[i].id - 1];
    cJSON *q = cJSON_CreateObject();
    cJSON_AddNumberToObject(q, "rank", st[i].rank);
    if (st[i].annulled) cJSON_AddTrueToObject(q, "annulled"); /* a round robin's withdrawal: unranked */
    cJSON_AddNumberToObject(q, "id", st[i].id);
    cJSON_AddNumberToObject(q, "no", p->pno);
    cJSON_AddStringToObject(q, "name", p->name);
    cJSON_AddNumberToObject(q, "points", points(xq_tournament_points(ev, st[i].id, upto)));
    cJSON *v = cJSON_AddArrayToObject(q, "values");
    for (int k = 0; v && k < ev->cfg.ntb; k++) cJSON_AddItemToArray(v, tb_json(ev->cfg.tb[k], st[i].val[k]));
    cJSON_AddNumberToObject(q, "wins", st[i].wins);
    cJSON_AddNumberToObject(q, "draws", st[i].draws);
    cJSON_AddNumberToObject(q, "losses", st[i].losses);
    cJSON_AddItemToArray(a, q);
  }
  free(st);
  send_kept(s, t, &key, o);
}

/* standings {round}: ranks after rounds 1..round (default: every round
 * paired), with the event's tie-breaks. */
static void op_standings(xq__server *s, xq__req *r)
{
  int round;
  if (xq__field_int(r, "round", 0, XQ_TOURNEY_ROUNDS_MAX, 0, &round)) return;
  round_task *rt = round_new(s, r, run_standings, round);
  if (rt) xq__task_go(s, &rt->t, 0);
}

/* ------------------------------------------------------------------ */
/* pairings (export: ops_export.c)                                     */
/* ------------------------------------------------------------------ */

static void run_pairings(xq__server *s, xq__task *t)
{
  round_task *rt = (round_task *)t;
  /* the round asked for, or the last paired (1 when none is) */
  if (!rt->round) rt->round = s->ev->nrounds ? s->ev->nrounds : 1;
  /* made once for each change of the tournament or the round */
  xq__answer_key key = {.kind = XQ__ANSWER_OP_PAIRINGS, .round = rt->round, .pub = xq__delay_public(s)};
  const xq__answer *kept = xq__answers_get(s, &key);
  if (kept) {
    xq__task_send_text(t, kept->text);
    return;
  }
  xq_error err = {0};
  int rc = xq_tstore_pairing(s->store, rt->round, &rt->pr, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, rc == XQ_EINVAL ? XQ__E_NOT_FOUND : xq__reply_code(rc), err.msg);
    return;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", rt->round);
  cJSON_AddItemToObject(o, "boards", xq__ops_tourney_boards(s->ev, &rt->pr, 1));
  send_kept(s, t, &key, o);
}

/* pairings {round}: the boards of a published round (default: the last
 * paired) with names, points before the round and results. */
static void op_pairings(xq__server *s, xq__req *r)
{
  int round;
  if (xq__field_int(r, "round", 0, XQ_TOURNEY_ROUNDS_MAX, 0, &round)) return;
  round_task *rt = round_new(s, r, run_pairings, round);
  if (rt) xq__task_go(s, &rt->t, 1);
}

/* ------------------------------------------------------------------ */
/* add_player (the other player operations: ops_players.c)            */
/* ------------------------------------------------------------------ */

typedef struct add_task {
  xq__task t;
  xq_tplayer player;
  int force; /* a namesake of a registered player */
} add_task;

static void run_add_player(xq__server *s, xq__task *t)
{
  const xq_tplayer *p = &((add_task *)t)->player;
  xq_error err = {0};
  int id = 0, same = ((add_task *)t)->force ? 0 : xq_tournament_same_player(s->ev, p);
  if (same) {
    char msg[XQ_ERR_MSG_LEN + XQ_TOURNEY_NAME_MAX];
    snprintf(msg, sizeof msg, "%s (born %s, club %s) is registered already as player %d; force: true registers"
             " a namesake", p->name, p->birth[0] ? p->birth : "not given", p->club[0] ? p->club : "none",
             xq_tplayer_no(s->ev, same));
    xq__task_error(t, XQ__E_CONFLICT, msg);
    return;
  }
  char warn[512] = "", full[256] = "";
  int rc = xq_regulation_entry(s->ev ? s->ev->name : NULL, p, warn, sizeof warn, &err);
  if (s->ev && xq_regulation_entry_count(s->ev->name, s->ev->n, full, sizeof full)) {
    size_t k = strlen(warn);
    snprintf(warn + k, sizeof warn - k, "%s%s", k ? "; " : "", full);
  }
  if (!rc) rc = xq_tstore_register(s->store, p, &id, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "player %d registered: %s", id, p->name);
  /* the copy of the event gets the player, not a reload (apply.c) */
  if (xq__apply_registered(s, p, id) != XQ_OK && xq__task_reload(s, t, 0)) return;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "player", id);
  cJSON_AddStringToObject(o, "name", p->name);
  if (warn[0]) cJSON_AddStringToObject(o, "warning", warn);
  xq__hub_players_changed(s);
  xq__task_send(t, o);
}

/* Copy string member `key` of `p` into dst (cap bytes). Returns 0, or -1
 * with `msg` filled. */
static int player_field(const cJSON *p, const char *key, char *dst, size_t cap, char *msg, size_t msglen)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(p, key);
  if (!f || cJSON_IsNull(f)) return 0;
  if (!cJSON_IsString(f)) {
    snprintf(msg, msglen, "player.%s must be a string", key);
    return -1;
  }
  if (strlen(f->valuestring) >= cap) {
    snprintf(msg, msglen, "player.%s is longer than %zu bytes", key, cap - 1);
    return -1;
  }
  strcpy(dst, f->valuestring);
  return 0;
}

/* Read request member "player" into *pl. Returns 0, or -1 with `msg`. */
static int read_new_player(const cJSON *p, xq_tplayer *pl, char *msg, size_t msglen)
{
  static const char *const known[] = {"name", "rating", "birth", "sex", "region", "club", "team", "local"};
  const size_t nknown = sizeof known / sizeof known[0];
  memset(pl, 0, sizeof *pl);
  if (!cJSON_IsObject(p)) {
    snprintf(msg, msglen, "player must be an object {name, rating, ...}");
    return -1;
  }
  for (const cJSON *f = p->child; f; f = f->next) {
    size_t k = 0;
    while (k < nknown && strcmp(f->string, known[k])) k++;
    if (k == nknown) {
      snprintf(msg, msglen, "unknown player field \"%.40s\"", f->string);
      return -1;
    }
  }
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
  const cJSON *rating = cJSON_GetObjectItemCaseSensitive(p, "rating");
  const cJSON *sex = cJSON_GetObjectItemCaseSensitive(p, "sex");
  const cJSON *local = cJSON_GetObjectItemCaseSensitive(p, "local");
  if (!cJSON_IsString(name)) {
    snprintf(msg, msglen, "player.name is required");
    return -1;
  }
  if (rating && !cJSON_IsNull(rating) &&
      !xq__field_is_int(rating)) {
    snprintf(msg, msglen, "player.rating must be a whole number");
    return -1;
  }
  if (sex && !cJSON_IsNull(sex) && (!cJSON_IsString(sex) || xq_player_sex_parse(sex->valuestring) < 0)) {
    snprintf(msg, msglen, "player.sex is \"m\" or \"w\" (\"男\" or \"女\")");
    return -1;
  }
  if (local && !cJSON_IsNull(local) && !cJSON_IsBool(local)) {
    snprintf(msg, msglen, "player.local must be true or false");
    return -1;
  }
  if (player_field(p, "name", pl->name, sizeof pl->name, msg, msglen) ||
      player_field(p, "birth", pl->birth, sizeof pl->birth, msg, msglen) ||
      player_field(p, "region", pl->region, sizeof pl->region, msg, msglen) ||
      player_field(p, "club", pl->club, sizeof pl->club, msg, msglen) ||
      player_field(p, "team", pl->team, sizeof pl->team, msg, msglen))
    return -1;
  pl->rating = cJSON_IsNumber(rating) ? rating->valueint : 0;
  pl->sex = cJSON_IsString(sex) ? (char)xq_player_sex_parse(sex->valuestring) : 0;
  pl->local = cJSON_IsTrue(local);
  xq_error err = {0};
  /* the store checks again; a bad player is answered without waiting */
  if (xq_player_check(pl, &err) != XQ_OK) {
    snprintf(msg, msglen, "%s", err.msg);
    return -1;
  }
  return 0;
}

/* add_player {player: {name, rating, birth, sex, region, club, team,
 * local}, force}: registers a player; the reply names the new id. A
 * player with the name, birth date and club of one registered already is
 * refused (CONFLICT) unless force is true (a namesake). */
static void op_add_player(xq__server *s, xq__req *r)
{
  xq_tplayer pl;
  char msg[XQ_ERR_MSG_LEN + 32];
  if (read_new_player(cJSON_GetObjectItemCaseSensitive(r->json, "player"), &pl, msg, sizeof msg)) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, msg, -1);
    return;
  }
  add_task *a = (add_task *)xq__task_new(s, r, run_add_player, sizeof *a, NULL);
  if (!a) return;
  a->player = pl;
  a->force = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->json, "force"));
  xq__task_go(s, &a->t, 1);
}

/* ------------------------------------------------------------------ */
/* pair                                                                */
/* ------------------------------------------------------------------ */

/* pair: the request, and the pairing made of it. */
typedef struct pair_task {
  xq__task t;                /* first: its job is the task's (jobs.c) */
  int round;                 /* asked for (0: the next), then the one paired */
  int system, publish;       /* dutch (else cn; -1 until run: the event's); store and start it */
  xq_tchange *changes;       /* the arbiter's changes, in order (swap: player numbers until
                                applied, then ids) ... */
  int nchanges;
  char *warnings;            /* ... and the absolute rules the changed pairing breaks, a line each */
  xq_tournament *ev;             /* the private copy it is paired on */
  int ev_n, ev_rounds;       /* s->ev's players and rounds then */
  xq_tpairing pr;            /* the boards */
  int rc;                    /* the pairing's status */
  xq_pair_stats st;
} pair_task;

static void pair_fini(xq__task *t)
{
  pair_task *p = (pair_task *)t;
  xq_tournament_free(p->ev);
  xq_tpairing_clear(&p->pr);
  free(p->changes);
  free(p->warnings);
}

/* Worker: number the players (round 1) and pair. */
static void pair_work(xq__job *w)
{
  pair_task *t = (pair_task *)w;
  xq_tournament *ev = t->ev;
  xq_assign_pnos(ev);
  t->rc = xq_pair_system(ev, t->round, t->system ? XQ_PAIR_DUTCH : XQ_PAIR_CN, &t->pr, &t->st);
}

/* The pairing as a reply object (and the broadcast's data). */
static cJSON *pairing_json(const pair_task *t, const xq_tournament *ev)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", t->round);
  cJSON_AddStringToObject(o, "system", t->system ? "dutch" : "cn");
  cJSON_AddBoolToObject(o, "published", t->publish);
  cJSON_AddItemToObject(o, "boards", xq__ops_tourney_boards(ev, &t->pr, 0));
  if (t->nchanges) {
    /* the arbiter's changes: how many, and what they break */
    cJSON_AddNumberToObject(o, "changes", t->nchanges);
    cJSON *w = cJSON_AddArrayToObject(o, "warnings");
    for (const char *p = t->warnings; p && *p;) {
      const char *nl = strchr(p, '\n');
      size_t n = nl ? (size_t)(nl - p) : strlen(p);
      char line[256];
      snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
      cJSON_AddItemToArray(w, cJSON_CreateString(line));
      p += n + (nl != NULL);
    }
  }
  return o;
}

/* Apply the request's changes to the computed pairing (players named by
 * their number in it). 0, or -1 after answering BAD_REQUEST. */
static int amend(pair_task *t)
{
  if (!t->nchanges) return 0;
  xq_error err = {0};
  for (int k = 0; k < t->nchanges; k++) {
    xq_tchange *c = &t->changes[k];
    if (c->kind != XQ_TCH_SWAP) continue;
    int a = xq_tournament_player_no(t->ev, c->a), b = xq_tournament_player_no(t->ev, c->b);
    if (!a || !b) {
      char msg[96];
      snprintf(msg, sizeof msg, "change %d: no player has the number %d", k + 1, a ? c->b : c->a);
      xq__task_error(&t->t, XQ__E_BAD_REQUEST, msg);
      return -1;
    }
    c->a = a;
    c->b = b;
  }
  if (!(t->warnings = malloc(XQ_TOURNEY_WARN_MAX)) ||
      xq_pairing_amend(t->ev, &t->pr, t->changes, t->nchanges, t->warnings, XQ_TOURNEY_WARN_MAX, &err) != XQ_OK) {
    xq__task_error(&t->t, XQ__E_BAD_REQUEST, err.msg[0] ? err.msg : "out of memory");
    return -1;
  }
  return 0;
}

/* Store, start and broadcast the pairing (the store part of pair). */
static void run_publish(xq__server *s, xq__task *task)
{
  pair_task *t = (pair_task *)task;
  xq_error err = {0};
  /* the event changed while the job ran (a player, a round, numbers
   * drawn): the pairing may be stale */
  int renumbered = 0;
  for (int id = 1; id <= s->ev->n && id <= t->ev->n && !renumbered; id++)
    renumbered = s->ev->players[id - 1].pno && s->ev->players[id - 1].pno != t->ev->players[id - 1].pno;
  if (s->ev->n != t->ev_n || s->ev->nrounds != t->ev_rounds || renumbered) {
    xq__task_error(&t->t, XQ__E_CONFLICT, "the event changed while the round was paired: pair again");
    return;
  }
  int rc = xq_tstore_publish_amended(s->store, t->ev, &t->pr, t->changes, t->nchanges, &err);
  if (rc != XQ_OK) {
    xq__task_error(&t->t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "round %d published: %d boards, %d changed by hand", t->round, t->pr.nboards, t->nchanges);
  if (xq__task_reload(s, &t->t, 0)) return;
  if ((rc = xq__live_add_round(s, t->round, &err)) != XQ_OK) {
    char msg[XQ_ERR_MSG_LEN + 64];
    snprintf(msg, sizeof msg, "round %d is published, but its games could not start: %s", t->round,
             err.msg[0] ? err.msg : xq_strerror(rc));
    xq__task_error(&t->t, xq__reply_code(rc), msg);
    return;
  }
  cJSON *o = pairing_json(t, s->ev);
  char *data = cJSON_PrintUnformatted(o);
  if (data) xq__hub_publish(s, "pairing", t->round, 0, data);
  free(data);
  xq__task_send(&t->t, o);
}

static void pair_after(xq__job *w, int status)
{
  pair_task *t = (pair_task *)w;
  xq__task *task = &t->t;
  xq__server *s = task->s;
  task->c->jobs--;
  if (status != 0) {
    xq__task_error(&t->t, XQ__E_INTERNAL, "the pairing job was cancelled");
  } else if (t->rc != XQ_OK) {
    char msg[128];
    snprintf(msg, sizeof msg, "round %d: %s", t->round, xq_strerror(t->rc));
    xq__task_error(&t->t, t->rc == XQ_ENOPAIRING ? XQ__E_CONFLICT : xq__reply_code(t->rc), msg);
  } else if (amend(t)) {
    /* answered */
  } else if (t->publish) {
    /* carried out even when the client has gone: it asked for it */
    task->run = run_publish;
    xq__task_go(s, task, 1);
    return;
  } else {
    xq__task_send(&t->t, pairing_json(t, t->ev));
  }
  xq__task_free(task);
}

/* Check that the next round may be paired now and start the job. */
static void run_pair(xq__server *s, xq__task *task)
{
  pair_task *t = (pair_task *)task;
  const xq_tournament *ev = s->ev;
  int next = ev->nrounds + 1;
  char msg[96] = "";
  if (t->round && t->round != next) snprintf(msg, sizeof msg, "the next round to pair is %d, not %d", next, t->round);
  else if (next > XQ_TOURNEY_ROUNDS_MAX || (ev->cfg.rounds && next > ev->cfg.rounds))
    snprintf(msg, sizeof msg, "all %d rounds are paired", ev->nrounds);
  else if (!xq_tournament_round_complete(ev, next - 1))
    snprintf(msg, sizeof msg, "round %d still has boards without a result", next - 1);
  else if (ev->n < 2)
    snprintf(msg, sizeof msg, "at least two players are needed");
  else if (xq__ops_team_event(s))
    snprintf(msg, sizeof msg, "a team event: team_pair pairs its rounds");
  if (msg[0]) {
    xq__task_error(task, XQ__E_CONFLICT, msg);
    return;
  }
  /* the tournament lane: its own slots, whatever engine jobs wait */
  int queued = xq__jobs_count(s, XQ__LANE_TOURNEY, task->c, -1);
  if (queued >= XQ_TOURNEY_JOBS_PER_CONN) {
    snprintf(msg, sizeof msg, "%d pairings are queued for this connection already", queued);
    xq__task_error(task, XQ__E_BUSY, msg);
    return;
  }
  t->round = next;
  if (t->system < 0) t->system = ev->cfg.system == XQ_PAIR_DUTCH;
  t->ev_n = ev->n;
  t->ev_rounds = ev->nrounds;
  if (!(t->ev = xq_tournament_copy(ev)) ||
      xq__jobs_queue(s, &task->job, XQ__LANE_TOURNEY, task->c, task->c->role, pair_work, pair_after) != XQ_OK) {
    xq__task_error(task, XQ__E_INTERNAL, "cannot start the pairing");
    return;
  }
  task->c->jobs++;
  task->handed = 1;
}

/* One change of a pair request: {"swap":[NO,NO]}, {"colours":TABLE} or
 * {"move":[TABLE,TABLE]}, with a "reason". NULL, or what is wrong. */
static const char *change_parse(const cJSON *x, xq_tchange *c)
{
  const cJSON *sw = cJSON_GetObjectItemCaseSensitive(x, "swap"), *co = cJSON_GetObjectItemCaseSensitive(x, "colours");
  const cJSON *mv = cJSON_GetObjectItemCaseSensitive(x, "move"), *why = cJSON_GetObjectItemCaseSensitive(x, "reason");
  if (!cJSON_IsObject(x) || !!sw + !!co + !!mv != 1) return "a change is one of swap, colours or move";
  if (!cJSON_IsString(why) || !why->valuestring[0] || strlen(why->valuestring) >= XQ_TOURNEY_REASON_MAX)
    return "every change has a reason (at most 199 bytes)";
  const cJSON *two = sw ? sw : mv;
  if (co) {
    if (!xq__field_is_int(co) || co->valueint < 1) return "colours names a table";
    *c = (xq_tchange){XQ_TCH_COLOURS, co->valueint, 0, {0}};
  } else {
    const cJSON *a = cJSON_GetArrayItem(two, 0), *b = cJSON_GetArrayItem(two, 1);
    if (!cJSON_IsArray(two) || cJSON_GetArraySize(two) != 2 || !xq__field_is_int(a) || !xq__field_is_int(b) || a->valueint < 1 ||
        b->valueint < 1)
      return "swap names two player numbers, move two tables";
    *c = (xq_tchange){sw ? XQ_TCH_SWAP : XQ_TCH_MOVE, a->valueint, b->valueint, {0}};
  }
  snprintf(c->reason, sizeof c->reason, "%s", why->valuestring);
  return NULL;
}

/* The request's "changes" (optional) into a malloc'd *out. 0, or -1
 * after answering BAD_REQUEST. */
static int changes_parse(xq__req *r, xq_tchange **out, int *n)
{
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(r->json, "changes"), *x;
  *out = NULL;
  *n = 0;
  if (!a || cJSON_IsNull(a)) return 0;
  const char *bad = !cJSON_IsArray(a) ? "changes is an array"
                    : cJSON_GetArraySize(a) > XQ_TOURNEY_CHANGES_MAX ? "too many changes" : NULL;
  if (!bad && cJSON_GetArraySize(a) && !(*out = calloc((size_t)cJSON_GetArraySize(a), sizeof **out))) bad = "out of memory";
  cJSON_ArrayForEach(x, a) if (!bad) bad = change_parse(x, &(*out)[(*n)++]);
  if (!bad) return 0;
  free(*out);
  *out = NULL;
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
  return -1;
}

/* pair {round, system, publish}: pairs the next round (cn or dutch; by
 * default the system of the event's settings) in the worker pool; with
 * publish it is stored, its games start and a "pairing" event is
 * broadcast. */
static void op_pair(xq__server *s, xq__req *r)
{
  const char *sys;
  int round;
  const cJSON *pub = cJSON_GetObjectItemCaseSensitive(r->json, "publish");
  if (xq__field_int(r, "round", 0, XQ_TOURNEY_ROUNDS_MAX + 1, 0, &round) || xq__field_str(r, "system", 0, &sys)) return;
  if ((sys && strcmp(sys, "cn") && strcmp(sys, "dutch")) || (pub && !cJSON_IsBool(pub) && !cJSON_IsNull(pub))) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "system is cn or dutch; publish is true or false", -1);
    return;
  }
  xq_tchange *ch = NULL;
  int nch = 0;
  if (changes_parse(r, &ch, &nch)) return;
  pair_task *t = (pair_task *)xq__task_new(s, r, run_pair, sizeof *t, pair_fini);
  if (!t) {
    free(ch);
    return;
  }
  t->round = round;
  t->system = !sys ? -1 : !strcmp(sys, "dutch"); /* -1: the event's (run_pair) */
  t->publish = cJSON_IsTrue(pub);
  t->changes = ch;
  t->nchanges = nch;
  xq__task_go(s, &t->t, 0);
}

/* ------------------------------------------------------------------ */
/* unpair                                                              */
/* ------------------------------------------------------------------ */

/* unpair: the request, parsed. */
typedef struct unpair_task {
  xq__task t;
  int round;                 /* the round whose pairing is withdrawn */
} unpair_task;

/* Withdraw the round's pairing: refused while a game of it has begun
 * here or in the store; then its games are taken down, the event and the
 * tokens reloaded, its board sessions ended and "unpair" broadcast. */
static void run_unpair(xq__server *s, xq__task *task)
{
  int round = ((unpair_task *)task)->round, table = xq__live_round_begun(s, round);
  xq_error err = {0};
  if (table) {
    char msg[96];
    snprintf(msg, sizeof msg, "the game of round %d table %d has begun: the round stands", round, table);
    xq__task_error(task, XQ__E_CONFLICT, msg);
    return;
  }
  int rc = xq_tstore_unpublish(s->store, round, &err);
  if (rc != XQ_OK) {
    xq__task_error(task, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "round %d withdrawn", round);
  xq__live_drop_round(s, round);
  if (xq__task_reload(s, task, 0) || xq__task_reload(s, task, 1)) return;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", round);
  cJSON_AddBoolToObject(o, "withdrawn", 1);
  char *data = cJSON_PrintUnformatted(o);
  if (data) xq__hub_publish(s, "unpair", round, 0, data);
  free(data);
  xq__task_send(task, o);
  xq__proto_revoked(s); /* the round's board sessions end */
}

/* unpair {round}: the published pairing of `round`, the last paired, is
 * withdrawn while none of its games has begun (CONFLICT with the reason
 * after); the round can be paired again. */
static void op_unpair(xq__server *s, xq__req *r)
{
  int round;
  if (xq__field_int(r, "round", 1, XQ_TOURNEY_ROUNDS_MAX, 0, &round)) return;
  unpair_task *t = (unpair_task *)xq__task_new(s, r, run_unpair, sizeof *t, NULL);
  if (!t) return;
  t->round = round;
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* token, tokens, revoke                                               */
/* ------------------------------------------------------------------ */

static cJSON *token_json(const xq_ttoken *k)
{
  cJSON *o = cJSON_CreateObject();
  /* the text of a token exists only when it was just made: the store
   * keeps its hash, of which a prefix names it in lists */
  if (k->token[0]) cJSON_AddStringToObject(o, "token", k->token);
  char prefix[XQ_TOKEN_PREFIX_CHARS + 1];
  memcpy(prefix, k->hash, XQ_TOKEN_PREFIX_CHARS);
  prefix[XQ_TOKEN_PREFIX_CHARS] = 0;
  cJSON_AddStringToObject(o, "hash", prefix);
  cJSON_AddStringToObject(o, "role", xq_role_name(k->role));
  if (k->role == XQ_ROLE_BOARD) {
    cJSON_AddNumberToObject(o, "round", k->round);
    cJSON_AddNumberToObject(o, "table", k->board);
  }
  cJSON_AddStringToObject(o, "label", k->label);
  return o;
}

typedef struct token_task {
  xq__task t;
  int role, round, board;    /* round and board: a board token's table */
  char label[XQ_TOURNEY_FIELD_MAX];
} token_task;

static void run_token(xq__server *s, xq__task *t)
{
  const token_task *a = (token_task *)t;
  xq_error err = {0};
  xq_ttoken k;
  if (a->role == XQ_ROLE_BOARD) {
    /* a board token opens a table that is there: one of the round's
     * published tables (the knockout's for XQ_KO_ROUND), not the bye */
    int rc = xq_tstore_board_table(s->store, a->round, a->board, &err);
    if (rc != XQ_OK) {
      xq__task_error(t, rc == XQ_EINVAL ? XQ__E_NOT_FOUND : xq__reply_code(rc), err.msg[0] ? err.msg : xq_strerror(rc));
      return;
    }
  }
  int rc = xq_tstore_token_new(s->store, a->role, a->round, a->board, a->label, &k, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "new %s token, hash %.16s", xq_role_name(k.role), k.hash); /* no token text in logs */
  if (xq__server_tokens_add(s, &k, 1) != XQ_OK && xq__task_reload(s, t, 1)) return;
  xq__task_send(t, token_json(&k));
}

/* token {role, round, table, label}: a new token; a board token is bound
 * to one table of one round (round XQ_KO_ROUND: a knockout table), which
 * must be published and not the bye (NOT_FOUND). */
static void op_token(xq__server *s, xq__req *r)
{
  const char *role, *label;
  int round, table;
  if (xq__field_str(r, "role", 1, &role) || xq__field_str(r, "label", 0, &label) ||
      xq__field_int(r, "round", 0, XQ_KO_ROUND, 0, &round) ||
      xq__field_int(r, "table", 0, XQ_BOARDS_MAX, 0, &table))
    return;
  int ro = xq_role_parse(role);
  const char *bad = !ro ? "role is admin, arbiter, board or viewer"
                  : ro == XQ_ROLE_BOARD && (!round || !table) ? "a board token needs round and table"
                  : ro != XQ_ROLE_BOARD && (round || table) ? "only board tokens take round and table"
                  : label && strlen(label) >= XQ_TOURNEY_FIELD_MAX ? "label is too long"
                  : NULL;
  if (bad) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
    return;
  }
  token_task *t = (token_task *)xq__task_new(s, r, run_token, sizeof *t, NULL);
  if (!t) return;
  t->role = ro;
  t->round = round;
  t->board = table;
  snprintf(t->label, sizeof t->label, "%s", label ? label : "");
  xq__task_go(s, &t->t, 1);
}

static void run_tokens(xq__server *s, xq__task *t)
{
  cJSON *o = cJSON_CreateObject();
  cJSON *a = cJSON_AddArrayToObject(o, "tokens");
  for (int i = 0; a && i < s->ntokens; i++) cJSON_AddItemToArray(a, token_json(&s->tokens[i]));
  xq__task_send(t, o);
}

/* tokens: every live token (from the server's cache). */
static void op_tokens(xq__server *s, xq__req *r) { xq__task_read(s, r, run_tokens); }

typedef struct revoke_task {
  xq__task t;
  char token[XQ_TOKEN_CHARS + 1]; /* the token, or the prefix of its hash the tokens op lists */
  int by_hash;
} revoke_task;

/* The live token whose hash begins with `prefix`, when one does. */
static const xq_ttoken *token_by_hash(const xq__server *s, const char *prefix)
{
  for (int i = 0; i < s->ntokens; i++)
    if (!strncmp(s->tokens[i].hash, prefix, XQ_TOKEN_PREFIX_CHARS)) return &s->tokens[i];
  return NULL;
}

static void run_revoke(xq__server *s, xq__task *t)
{
  const revoke_task *a = (revoke_task *)t;
  const char *token = a->token;
  xq_error err = {0};
  int admins = 0, is_admin = 0;
  const xq_ttoken *k = a->by_hash ? token_by_hash(s, token) : xq__server_token(s, token);
  for (int i = 0; i < s->ntokens; i++) admins += s->tokens[i].role == XQ_ROLE_ADMIN;
  is_admin = k && k->role == XQ_ROLE_ADMIN;
  if (is_admin && admins == 1) {
    xq__task_error(t, XQ__E_CONFLICT, "the last admin token cannot be revoked");
    return;
  }
  int rc = xq_tstore_token_revoke(s->store, token, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, rc == XQ_EINVAL ? XQ__E_NOT_FOUND : xq__reply_code(rc), err.msg);
    return;
  }
  xq__log(s, "token with hash %.16s revoked", k ? k->hash : "(not live)");
  if (xq__task_reload(s, t, 1)) return;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, a->by_hash ? "revoked_hash" : "revoked", token);
  xq__task_send(t, o);
  /* after the reply: an admin revoking its own token is answered first */
  xq__proto_revoked(s);
}

/* revoke {token} or {hash}: the token (or the live token whose hash the
 * tokens op lists) no longer opens a session, and the sessions open with
 * it end (REVOKED, security.md). The last admin token stays. */
static void op_revoke(xq__server *s, xq__req *r)
{
  const char *tok, *hash;
  if (xq__field_str(r, "token", 0, &tok) || xq__field_str(r, "hash", 0, &hash)) return;
  const char *key = tok ? tok : hash;
  size_t want = tok ? XQ_TOKEN_CHARS : XQ_TOKEN_PREFIX_CHARS;
  size_t n = key ? strspn(key, "0123456789abcdef") : 0;
  if (!key || (tok && hash) || n != want || key[n]) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST,
                    "give token (32 lowercase hex characters) or hash (the 16 of its hash that tokens lists)", -1);
    return;
  }
  revoke_task *t = (revoke_task *)xq__task_new(s, r, run_revoke, sizeof *t, NULL);
  if (!t) return;
  memcpy(t->token, key, n + 1);
  t->by_hash = !tok;
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

#define ADMIN XQ__R(XQ_ROLE_ADMIN)

const xq__op xq__tourney_ops[] = {
  {"event", 0, op_event},
  {"players", 0, op_players},
  {"add_player", ADMIN, op_add_player},
  {"pair", ADMIN, op_pair},
  {"unpair", ADMIN, op_unpair},
  {"pairings", 0, op_pairings},
  {"standings", 0, op_standings},
  {"export", XQ__STAFF, xq__ops_export},
  {"token", ADMIN, op_token},
  {"slips", ADMIN, xq__ops_slips},
  {"tokens", ADMIN, op_tokens},
  {"revoke", ADMIN, op_revoke},
  {NULL, 0, NULL},
};
