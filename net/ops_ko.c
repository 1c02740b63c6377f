/*
 * ops_ko.c -- the knockout stage on the server (docs/protocol.md
 * "Knockout"; docs/tourney.md, "Knockout stage"): ko_start cuts the Swiss standings and seeds
 * the bracket, ko_publish puts the next game of every waiting match on a
 * knockout table, knockout shows the bracket.
 *
 * A knockout table is table k of round XQ_KO_ROUND: boards stream it with
 * a board token of that round and table, arbiters rule on it, viewers
 * follow it, as any Swiss game. Its result goes to the knockout log
 * (xq_tstore_result dispatches on the round); a drawn game's match then
 * waits for its tie-break game, which the next ko_publish puts on a new
 * table with the type, colours and clock the regulation's format gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub.h"
#include "internal.h"
#include "live.h"
#include "ops.h"
#include "proto.h"
#include "task.h"

#define ADMIN XQ__R(XQ_ROLE_ADMIN)

/* {"id","name"} of player `id`, or null. */
static cJSON *player_json(const xq__server *s, int id)
{
  if (!s->ev || id < 1 || id > s->ev->n) return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "id", id);
  cJSON_AddStringToObject(o, "name", s->ev->players[id - 1].name);
  return o;
}

static const char *res_text(int res) { return res > 0 ? "1-0" : res < 0 ? "0-1" : "1/2-1/2"; }

/* A match whose players are not known yet: where they come from,
 * {"matches":[a,b],"losers":false} (the winners of matches a and b; the
 * losers for a third-place match), so that the page names it
 * ("半决赛第1场胜者 – 第2场胜者") instead of leaving it blank. */
static void from_json(cJSON *x, const xq_ko *ko, int m)
{
  int a, b, kind = xq_ko_match_feeders(ko, m, &a, &b);
  if (kind < 1) return;
  cJSON *f = cJSON_AddObjectToObject(x, "from");
  cJSON *ms = cJSON_AddArrayToObject(f, "matches");
  cJSON_AddItemToArray(ms, cJSON_CreateNumber(a));
  cJSON_AddItemToArray(ms, cJSON_CreateNumber(b));
  cJSON_AddBoolToObject(f, "losers", kind == 2);
}

/* One knockout table as JSON. */
static cJSON *table_json(const xq__server *s, int k)
{
  const xq_ko *ko = s->ko;
  const xq_ko_table *t = &ko->tables[k - 1];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "table", k);
  cJSON_AddNumberToObject(o, "match", t->match);
  cJSON_AddNumberToObject(o, "stage", xq_ko_stage(ko, t->match));
  cJSON_AddStringToObject(o, "type", xq_ko_gtype_name(t->type));
  cJSON_AddStringToObject(o, "time_control", xq_ko_game_time_control(ko, t->match, t->type));
  cJSON_AddItemToObject(o, "red", player_json(s, t->red));
  cJSON_AddItemToObject(o, "black", player_json(s, t->black));
  const char *res = NULL;
  for (int i = 0; t->done && i < ko->ngames; i++)
    if (ko->games[i].table == k) res = res_text(ko->games[i].res);
  if (res) cJSON_AddStringToObject(o, "result", res);
  else cJSON_AddNullToObject(o, "result");
  return o;
}

cJSON *xq__ops_ko_json(const xq__server *s)
{
  const xq_ko *ko = s->ko;
  cJSON *o = cJSON_CreateObject();
  if (!ko || !ko->after) {
    cJSON_AddBoolToObject(o, "started", 0);
    return o;
  }
  cJSON_AddBoolToObject(o, "started", 1);
  cJSON_AddNumberToObject(o, "round", XQ_KO_ROUND);
  /* a knockout-only event (no Swiss before it): after -1 */
  cJSON_AddNumberToObject(o, "after", ko->after);
  cJSON_AddNumberToObject(o, "size", ko->size);
  cJSON_AddNumberToObject(o, "entrants", xq_ko_entrants(ko));
  cJSON_AddStringToObject(o, "seeding", xq_ko_seeding_name(ko->seeding));
  cJSON_AddStringToObject(o, "format", xq_ko_format_name(ko->format));
  if (ko->choice) cJSON_AddNumberToObject(o, "choice", ko->choice);
  if (ko->pools) cJSON_AddNumberToObject(o, "pools", ko->pools);
  /* seeds in seed order; a drawn bracket's by position, a bye null */
  cJSON *seeds = cJSON_AddArrayToObject(o, "seeds");
  for (int i = 0; i < ko->size; i++) cJSON_AddItemToArray(seeds, player_json(s, ko->seeds[i]));
  cJSON *ms = cJSON_AddArrayToObject(o, "matches");
  for (int m = 1; m <= xq_ko_nmatches(ko); m++) {
    int a, b, kind = xq_ko_match_players(ko, m, &a, &b), known = kind == 1, w = xq_ko_winner(ko, m);
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "match", m);
    cJSON_AddNumberToObject(x, "stage", xq_ko_stage(ko, m));
    cJSON_AddItemToObject(x, "players", cJSON_CreateArray());
    if (known) {
      cJSON_AddItemToArray(cJSON_GetObjectItem(x, "players"), player_json(s, a));
      cJSON_AddItemToArray(cJSON_GetObjectItem(x, "players"), player_json(s, b));
    }
    if (kind == 2) cJSON_AddItemToObject(x, "bye", player_json(s, a)); /* goes on without a game */
    if (!known) from_json(x, ko, m);
    xq_ko_game next;
    if (known && !w && !xq_ko_next_game(ko, m, 0, &next)) {
      /* the game the match waits for: its type and clock (colours by lot
       * or choice where the format leaves them open) */
      cJSON *nx = cJSON_AddObjectToObject(x, "next");
      cJSON_AddStringToObject(nx, "type", xq_ko_gtype_name(next.type));
      cJSON_AddStringToObject(nx, "time_control", xq_ko_game_time_control(ko, m, next.type));
      cJSON_AddBoolToObject(nx, "colours_open", next.type == XQ_KG_STANDARD || next.type == XQ_KG_ARMAGEDDON);
      cJSON_AddBoolToObject(nx, "red_drawn", xq_ko_red_drawn(ko, &next)); /* no default: the lot at the table */
    }
    cJSON *gs = cJSON_AddArrayToObject(x, "games");
    for (int i = 0; i < ko->ngames; i++) {
      const xq_ko_game *g = &ko->games[i];
      if (g->match != m) continue;
      cJSON *gj = cJSON_CreateObject();
      cJSON_AddStringToObject(gj, "type", xq_ko_gtype_name(g->type));
      cJSON_AddNumberToObject(gj, "red", g->red);
      cJSON_AddNumberToObject(gj, "black", g->black);
      cJSON_AddStringToObject(gj, "result", res_text(g->res));
      if (g->table) cJSON_AddNumberToObject(gj, "table", g->table);
      cJSON_AddItemToArray(gs, gj);
    }
    int k = xq_ko_in_play(ko, m);
    if (k) cJSON_AddNumberToObject(x, "in_play", k);
    else cJSON_AddNullToObject(x, "in_play");
    cJSON_AddItemToObject(x, "winner", w ? player_json(s, w) : cJSON_CreateNull());
    cJSON_AddItemToArray(ms, x);
  }
  cJSON *ts = cJSON_AddArrayToObject(o, "tables");
  for (int k = 1; k <= ko->ntables; k++) cJSON_AddItemToArray(ts, table_json(s, k));
  int ids[XQ_KO_SIZE_MAX];
  int fin = xq_ko_places(ko, ids);
  cJSON_AddBoolToObject(o, "decided", fin == 1);
  cJSON *pl = cJSON_AddArrayToObject(o, "places");
  for (int i = 0, e = xq_ko_entrants(ko); fin >= 0 && i < e; i++) cJSON_AddItemToArray(pl, player_json(s, ids[i]));
  /* a drawn bracket of pools: each pool's places (a township's) */
  for (int p = 0; ko->seeding == XQ_KO_LOT && ko->pools > 1 && p < ko->pools; p++) {
    cJSON *pp = cJSON_GetObjectItem(o, "pool_places");
    if (!pp) pp = cJSON_AddArrayToObject(o, "pool_places");
    cJSON *one = cJSON_CreateArray();
    int n = xq_ko_pool_places(ko, p, ids);
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(one, player_json(s, ids[i]));
    cJSON_AddItemToArray(pp, one);
  }
  return o;
}

/* ------------------------------------------------------------------ */
/* knockout                                                            */
/* ------------------------------------------------------------------ */

static void run_knockout(xq__server *s, xq__task *t) { xq__task_send(t, xq__ops_ko_json(s)); }

/* knockout: the stage: seeds, matches with their games and winners, the
 * tables, and the knockout places. */
static void op_knockout(xq__server *s, xq__req *r) { xq__task_read(s, r, run_knockout); }

/* ------------------------------------------------------------------ */
/* ko_start                                                            */
/* ------------------------------------------------------------------ */

/* ko_start: the request, parsed. */
typedef struct ko_start_task {
  xq__task t;
  int after, size, seeding, format, choice;
  /* seeding lot (a knockout-only event): */
  int given;                 /* entrants or pools were given (else every registered player) */
  int ids[XQ_KO_SIZE_MAX + 1], pool[XQ_KO_SIZE_MAX + 1]; /* the entrants and their pools */
  int n, np;                 /* entrants, pools */
  int has_lot;               /* a lot seed was given ... */
  uint64_t lot;              /* ... this one */
} ko_start_task;

/* The entrants of a knockout-only event from the request into t:
 * "pools" (a list of id lists, one per pool) or "entrants" (one list),
 * default every registered player (t->given 0). Returns NULL, or what is
 * wrong with the request. */
static const char *entrants_parse(const cJSON *req, ko_start_task *t)
{
  const cJSON *pools = cJSON_GetObjectItemCaseSensitive(req, "pools");
  const cJSON *ent = cJSON_GetObjectItemCaseSensitive(req, "entrants");
  t->n = 0;
  t->np = 1;
  if (!pools && !ent) return NULL;
  if (pools && ent) return "give pools or entrants, not both";
  const cJSON *lists = pools ? pools : ent;
  if (!cJSON_IsArray(lists)) return "pools is a list of id lists, entrants a list of ids";
  t->given = 1;
  t->np = pools ? cJSON_GetArraySize(pools) : 1;
  if (t->np < 1 || t->np > XQ_KO_POOLS_MAX) return "one or two pools";
  for (int p = 0; p < t->np; p++) {
    const cJSON *l = pools ? cJSON_GetArrayItem(pools, p) : ent, *x;
    if (!cJSON_IsArray(l)) return "pools is a list of id lists";
    cJSON_ArrayForEach(x, l) {
      if (!xq__field_is_int(x) || x->valueint < 1) return "an entrant is a player's id";
      if (t->n >= XQ_KO_SIZE_MAX) return "more entrants than a bracket holds";
      t->ids[t->n] = x->valueint;
      t->pool[t->n++] = p;
    }
  }
  return NULL;
}

/* The entrants of t for event `ev`: the request's, each a registered
 * player, or every registered player. NULL, or what is wrong. */
static const char *lot_entrants(const xq_tournament *ev, ko_start_task *t)
{
  if (!t->given) {
    if (ev->n > XQ_KO_SIZE_MAX) return "more players than a bracket holds";
    for (int i = 0; i < ev->n; i++) t->ids[i] = i + 1, t->pool[i] = 0;
    t->n = ev->n;
    return NULL;
  }
  for (int i = 0; i < t->n; i++)
    if (t->ids[i] > ev->n) return "an entrant is not a registered player";
  return NULL;
}

/* A stage just stored: open its tables on the live server, broadcast the
 * bracket and answer with it. */
static void ko_started(xq__server *s, xq__task *t)
{
  xq_error err = {0};
  int rc = xq__live_add_ko(s, &err);
  if (rc) {
    xq__task_error(t, xq__reply_code(rc), err.msg);
    return;
  }
  cJSON *o = xq__ops_ko_json(s);
  char *data = cJSON_PrintUnformatted(o);
  if (data) xq__hub_publish(s, "knockout", XQ_KO_ROUND, 0, data);
  free(data);
  xq__task_send(t, o);
}

/* ko_start of a knockout-only event: the bracket drawn by lot. */
static void run_ko_lot(xq__server *s, ko_start_task *t, xq_ko *ko)
{
  const xq_tournament *ev = s->ev;
  int rc = XQ_OK;
  xq_error err = {0};
  const char *bad = ev->nrounds > 0 ? "a knockout-only event cannot follow Swiss rounds" : NULL;
  if (!bad) bad = lot_entrants(ev, t);
  if (!bad) {
    /* the lot: the request's, else the event's drawing seed */
    rc = xq_ko_setup_lot(ko, t->ids, t->pool, t->n, t->np, t->has_lot ? t->lot : ev->cfg.lot_seed, t->format);
    if (rc == XQ_ELIMIT) bad = "more entrants than a bracket holds (128, or 64 a pool)";
    else if (rc) bad = "a bracket needs 2 or more entrants, each once, and no empty pool";
  }
  if (bad) {
    xq__task_error(&t->t, XQ__E_CONFLICT, bad);
    return;
  }
  if ((rc = xq_tstore_ko_start(s->store, ko, &err))) {
    xq__task_error(&t->t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "knockout-only event started: %d entrants, bracket of %d", xq_ko_entrants(ko), ko->size);
  ko_started(s, &t->t);
}

static void run_ko_start(xq__server *s, xq__task *task)
{
  ko_start_task *t = (ko_start_task *)task;
  const xq_tournament *ev = s->ev;
  xq_error err = {0};
  char msg[160] = "";
  if (t->seeding == XQ_KO_LOT) {
    xq_ko *ko = malloc(sizeof *ko);
    if (!ko) xq__task_error(task, XQ__E_INTERNAL, "out of memory");
    else run_ko_lot(s, t, ko);
    free(ko);
    return;
  }
  if (t->after > ev->nrounds) snprintf(msg, sizeof msg, "round %d is not paired yet", t->after);
  else if (!xq_tournament_round_complete(ev, t->after))
    snprintf(msg, sizeof msg, "round %d still has boards without a result", t->after);
  else if (ev->n < t->size) snprintf(msg, sizeof msg, "%d players cannot fill a bracket of %d", ev->n, t->size);
  if (msg[0]) {
    xq__task_error(task, XQ__E_CONFLICT, msg);
    return;
  }
  /* the seeds as `tourney knockout` makes them: the standings after the
   * cut without the players who have withdrawn (xq_ko_setup_event) */
  xq_ko_opts ko_o = {.seeding = t->seeding, .format = t->format, .after = t->after, .size = t->size,
                     .choice = t->choice};
  xq_ko *ko = malloc(sizeof *ko);
  int rc = ko ? xq_ko_setup_event(ev, &ko_o, ko, &err) : XQ_ENOMEM;
  if (!rc) rc = xq_tstore_ko_start(s->store, ko, &err);
  free(ko);
  if (rc) {
    xq__task_error(task, xq__reply_write_code(rc), err.msg[0] ? err.msg : xq_strerror(rc));
    return;
  }
  xq__log(s, "knockout started: top %d after round %d", t->size, t->after);
  /* the seeds are out of the later Swiss rounds: the event reloads */
  if (xq__task_reload(s, task, 0)) return;
  ko_started(s, task);
}

/* ko_start {after, size, seeding, format, choice}: the top `size` of the
 * standings after round `after` become the seeds (docs/tourney.md, "Knockout stage");
 * seeding "fixed" (1–8, 2–7, ...) or "choose" (the top seed picks seed
 * `choice`, 3 or 4); format the tie-break games' sequence by regulation
 * ("xinjiang", "tangshan", "wujiaqu", ...).
 * ko_start {seeding:"lot", format, pools|entrants, lot}: a knockout-only
 * event (docs/village-king.md): the entrants (every player by default;
 * "entrants" [ids], or "pools" [[ids], [ids]] for a half each) draw their
 * bracket positions by lot from `lot` (default the event's lot seed). */
static void op_ko_start(xq__server *s, xq__req *r)
{
  const char *seeding, *format;
  int after, size, choice, sd = XQ_KO_FIXED, fm;
  if (xq__field_str(r, "seeding", 0, &seeding) || xq__field_str(r, "format", 1, &format)) return;
  if ((seeding && xq_ko_parse_seeding(seeding, &sd)) || xq_ko_parse_format(format, &fm)) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST,
                    "seeding is fixed, choose or lot; format is a regulation's (xinjiang, shaanxi, tangshan, "
                    "wujiaqu) or rapid-armageddon, armageddon, rapid-blitz, village", -1);
    return;
  }
  /* lot: a knockout-only event, no Swiss round to cut after */
  if (sd == XQ_KO_LOT) after = size = choice = 0;
  else if (xq__field_int(r, "after", 1, XQ_TOURNEY_ROUNDS_MAX, 0, &after) ||
           xq__field_int(r, "size", 2, XQ_KO_SIZE_MAX, 0, &size) || xq__field_int(r, "choice", 0, 4, 0, &choice))
    return;
  const cJSON *lot = cJSON_GetObjectItemCaseSensitive(r->json, "lot");
  long long lw = 0;
  if (lot && !cJSON_IsNull(lot) && !xq__field_whole(lot, 0, 9007199254740992.0, &lw)) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "lot is a whole number 0..2^53", -1);
    return;
  }
  ko_start_task *t = (ko_start_task *)xq__task_new(s, r, run_ko_start, sizeof *t, NULL);
  if (!t) return;
  t->after = after;
  t->size = size;
  t->seeding = sd;
  t->format = fm;
  t->choice = choice;
  t->has_lot = cJSON_IsNumber(lot);
  t->lot = t->has_lot ? (uint64_t)lw : 0;
  const char *bad = sd == XQ_KO_LOT ? entrants_parse(r->json, t) : NULL;
  if (bad) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
    xq__task_free(&t->t);
    return;
  }
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* ko_publish                                                          */
/* ------------------------------------------------------------------ */

/* ko_publish: the request, parsed. */
typedef struct ko_publish_task {
  xq__task t;
  int stage;                 /* only this stage's matches, 0 any */
  int red[XQ_KO_SIZE_MAX + 1]; /* red[m]: the Red player asked for in match m, 0 none */
} ko_publish_task;

/* The request's "red" list ([{"match":m,"player":id}, ...]) into t->red.
 * NULL, or what is wrong. */
static const char *red_parse(const cJSON *red, ko_publish_task *t)
{
  const cJSON *x;
  if (red && !cJSON_IsArray(red) && !cJSON_IsNull(red)) return "red is a list of {\"match\":M,\"player\":ID}";
  if (!cJSON_IsArray(red)) return NULL;
  cJSON_ArrayForEach(x, red) {
    const cJSON *mm = cJSON_GetObjectItemCaseSensitive(x, "match");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(x, "player");
    if (!xq__field_is_int(mm) || !xq__field_is_int(p)) continue; /* (ignored, as always) */
    if (mm->valueint < 1 || mm->valueint > XQ_KO_SIZE_MAX) return "red names a match of the bracket";
    if (!t->red[mm->valueint]) t->red[mm->valueint] = p->valueint;
  }
  return NULL;
}

static void run_ko_publish(xq__server *s, xq__task *task)
{
  const ko_publish_task *t = (ko_publish_task *)task;
  xq_error err = {0};
  const xq_ko *ko = s->ko;
  if (!ko || !ko->after) {
    xq__task_error(task, XQ__E_CONFLICT, "the knockout stage has not started");
    return;
  }
  int first = ko->ntables + 1, rc = xq_tstore_batch_begin(s->store, &err), n = 0;
  for (int m = 1; !rc && m <= xq_ko_nmatches(ko); m++) {
    int a, b;
    if (xq_ko_match_players(ko, m, &a, &b) != 1 || xq_ko_winner(ko, m) || xq_ko_in_play(ko, m) ||
        (t->stage && xq_ko_stage(ko, m) != t->stage))
      continue;
    xq_ko_game g;
    int table, red = m <= XQ_KO_SIZE_MAX ? t->red[m] : 0;
    rc = xq_ko_next_game(ko, m, red, &g);
    if (rc) {
      snprintf(err.msg, sizeof err.msg, "match %d: %s", m,
               rc == XQ_ELIMIT ? "too many games" : "the Red player asked for does not fit the next game");
      break;
    }
    if (xq_ko_red_drawn(ko, &g) && !red) { /* drawn or chosen at the table; an armageddon's draw is Black's win */
      snprintf(err.msg, sizeof err.msg, "match %d: the %s's Red is drawn (or chosen) at the table: "
               "name him (red: [{\"match\":%d,\"player\":ID}])", m, g.type == XQ_KG_ARMAGEDDON ? "armageddon" : "game", m);
      rc = XQ_EINVAL;
      break;
    }
    if (!(rc = xq_tstore_ko_publish(s->store, &g, &table, &err))) n++;
  }
  /* all the tables or none */
  if (!rc && !n) {
    xq_tstore_batch_rollback(s->store);
    xq__task_error(task, XQ__E_CONFLICT, t->stage ? "no match of that stage is waiting for a game"
                                               : "no match is waiting for a game");
    return;
  }
  if (!rc) rc = xq_tstore_batch_commit(s->store, &err);
  else xq_tstore_batch_rollback(s->store);
  if (rc) {
    xq__task_error(task, rc == XQ_EINVAL || rc == XQ_ELIMIT ? XQ__E_CONFLICT : xq__reply_code(rc), err.msg);
    return;
  }
  if ((rc = xq__live_add_ko(s, &err))) {
    char msg[XQ_ERR_MSG_LEN + 64];
    snprintf(msg, sizeof msg, "the knockout games are published, but could not start: %s", err.msg);
    xq__task_error(task, xq__reply_code(rc), msg);
    return;
  }
  xq__log(s, "knockout tables %d-%d published", first, first + n - 1);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", XQ_KO_ROUND);
  cJSON *a = cJSON_AddArrayToObject(o, "tables");
  for (int k = first; k < first + n; k++) cJSON_AddItemToArray(a, table_json(s, k));
  char *data = cJSON_PrintUnformatted(o);
  if (data) xq__hub_publish(s, "pairing", XQ_KO_ROUND, 0, data);
  free(data);
  xq__task_send(task, o);
}

/* ko_publish {stage, red}: the next game of every match (of `stage` only,
 * when given) whose players are known, that is undecided and has no game
 * in play, each on a new knockout table; `red` ([{"match":m,"player":id}])
 * names Red where the regulation leaves it to a draw or a choice (the
 * standard game, the armageddon). */
static void op_ko_publish(xq__server *s, xq__req *r)
{
  int stage;
  if (xq__field_int(r, "stage", 0, XQ_KO_SIZE_MAX, 0, &stage)) return;
  ko_publish_task *t = (ko_publish_task *)xq__task_new(s, r, run_ko_publish, sizeof *t, NULL);
  if (!t) return;
  t->stage = stage;
  const char *bad = red_parse(cJSON_GetObjectItemCaseSensitive(r->json, "red"), t);
  if (bad) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
    xq__task_free(&t->t);
    return;
  }
  xq__task_go(s, &t->t, 1);
}

const xq__op xq__ko_ops[] = {
  {"knockout", 0, op_knockout},
  {"ko_start", ADMIN, op_ko_start},
  {"ko_publish", ADMIN, op_ko_publish},
  {NULL, 0, NULL},
};
