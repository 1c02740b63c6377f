/*
 * ops_players.c -- the organisers' operations on the registered players
 * (docs/protocol.md "Organisers"): edit_player (a player's details
 * corrected), remove_player (one deleted before round 1), merge_players
 * (two entries of one player made one), withdraw and reinstate, absent, and numbers (the pairing
 * numbers before round 1: by rating, by lot or by hand, previewed or
 * stored). Players are named by their number (序号 once drawn, else the
 * id: xq_tplayer_no), as every sheet and listing shows them; numbers
 * names them by id, since it gives the numbers.
 *
 * Every operation is a task (task.h): its request parsed here, at the
 * edge, into the task's fields, its store part run when the client's
 * earlier requests are done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "hub.h"
#include "internal.h"
#include "ops.h"
#include "proto.h"
#include "task.h"

/* An operation on one player: edit_player, withdraw, reinstate, absent. */
typedef struct player_task {
  xq__task t;
  int no;                    /* the player, by number */
  int round;                 /* withdraw, reinstate (0: the next to pair), absent */
  int reinstate;             /* withdraw or reinstate */
  int bye;                   /* absent: XQ_TR_ZPB, XQ_TR_HPB or XQ_TR_FPB */
  xq_tplayer player;         /* edit_player: the new details ... */
  unsigned fields;           /* ... of these fields (XQ_PE_*) */
} player_task;

/* A new player task for `r` on the player numbered `no`, or NULL after
 * answering INTERNAL. */
static player_task *player_task_new(xq__server *s, xq__req *r, xq__task_fn run, int no)
{
  player_task *p = (player_task *)xq__task_new(s, r, run, sizeof *p, NULL);
  if (p) p->no = no;
  return p;
}

/* The id of the player known as p->no (a number), or 0 after answering
 * NOT_FOUND. */
static int player_id(xq__server *s, player_task *p)
{
  int id = xq_tournament_player_no(s->ev, p->no);
  if (id) return id;
  char msg[96];
  snprintf(msg, sizeof msg, "no player has the number %d (the event has %d players)", p->no, s->ev->n);
  xq__task_error(&p->t, XQ__E_NOT_FOUND, msg);
  return 0;
}

/* {player: NO, registration: ID} of player `id` (a reply's "id" is the
 * request's). */
static cJSON *named(const xq_tournament *ev, int id)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "player", xq_tplayer_no(ev, id));
  cJSON_AddNumberToObject(o, "registration", id);
  return o;
}

/* ------------------------------------------------------------------ */
/* edit_player                                                         */
/* ------------------------------------------------------------------ */

static void run_edit(xq__server *s, xq__task *t)
{
  player_task *p = (player_task *)t;
  xq_error err = {0};
  unsigned changed = 0;
  int id = player_id(s, p);
  if (!id) return;
  int rc = xq_tstore_edit(s->store, id, &p->player, p->fields, &changed, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "player %d (id %d) edited", p->no, id);
  /* the copy of the event gets the edit, not a reload (apply.c) */
  if (xq__apply_edited(s, id) != XQ_OK && xq__task_reload(s, t, 0)) return;
  static const char *const names[XQ_PE_COUNT] = XQ_PE_NAMES;
  cJSON *o = named(s->ev, id);
  cJSON *a = cJSON_AddArrayToObject(o, "changed");
  for (int k = 0; a && k < XQ_PE_COUNT; k++)
    if (changed & (1u << k)) cJSON_AddItemToArray(a, cJSON_CreateString(names[k]));
  cJSON_AddStringToObject(o, "name", s->ev->players[id - 1].name);
  xq__hub_players_changed(s);
  xq__task_send(t, o);
}

/* Text field `key` of an edit into its place in *p. NULL, or what is
 * wrong (in msg). */
static const char *edit_text(const cJSON *v, const char *key, xq_tplayer *p, char *msg, size_t cap)
{
  struct { const char *key; char *dst; size_t cap; } f[] = {
    {"name", p->name, sizeof p->name}, {"birth", p->birth, sizeof p->birth}, {"region", p->region, sizeof p->region},
    {"club", p->club, sizeof p->club}, {"team", p->team, sizeof p->team},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    if (strcmp(key, f[i].key)) continue;
    if (cJSON_IsNull(v)) { f[i].dst[0] = 0; return NULL; }
    if (!cJSON_IsString(v)) { snprintf(msg, cap, "%s must be a string", key); return msg; }
    if (strlen(v->valuestring) >= f[i].cap) {
      snprintf(msg, cap, "%s is longer than %zu bytes", key, f[i].cap - 1);
      return msg;
    }
    strcpy(f[i].dst, v->valuestring);
    return NULL;
  }
  return "unknown field";
}

/* The fields of an edit_player request into *p and *fields. NULL, or
 * what is wrong (possibly in msg, cap bytes). */
static const char *edit_parse(const cJSON *req, xq_tplayer *p, unsigned *fields, char *msg, size_t cap)
{
  static const char *const names[XQ_PE_COUNT] = XQ_PE_NAMES;
  memset(p, 0, sizeof *p);
  *fields = 0;
  for (const cJSON *v = req->child; v; v = v->next) {
    if (!strcmp(v->string, "id") || !strcmp(v->string, "op") || !strcmp(v->string, "player")) continue;
    int k = 0;
    while (k < XQ_PE_COUNT && strcmp(v->string, names[k])) k++;
    if (k == XQ_PE_COUNT) {
      snprintf(msg, cap, "unknown field \"%.40s\" (name, sex, birth, region, club, team, rating, local)",
               v->string);
      return msg;
    }
    *fields |= 1u << k;
    const char *bad = NULL;
    if (1 << k == XQ_PE_SEX) {
      if (!cJSON_IsNull(v) && (!cJSON_IsString(v) || (strcmp(v->valuestring, "m") && strcmp(v->valuestring, "w") &&
                                                      v->valuestring[0])))
        bad = "sex is \"m\", \"w\" or null";
      else p->sex = cJSON_IsString(v) ? v->valuestring[0] : 0;
    } else if (1 << k == XQ_PE_RATING) {
      if (!xq__field_is_int(v) || v->valueint < 0 || v->valueint > 9999) bad = "rating is a whole number 0..9999";
      else p->rating = v->valueint;
    } else if (1 << k == XQ_PE_LOCAL) {
      if (!cJSON_IsBool(v)) bad = "local is true or false";
      else p->local = cJSON_IsTrue(v);
    } else {
      bad = edit_text(v, names[k], p, msg, cap);
    }
    if (bad) return bad;
  }
  if (!*fields) return "nothing to edit: give name, sex, birth, region, club, team, rating or local";
  /* the fields given, judged alone (the store judges the whole player) */
  xq_tplayer c = *p;
  xq_error err = {0};
  if (!(*fields & XQ_PE_NAME)) strcpy(c.name, "-");
  if (xq_player_check(&c, &err) != XQ_OK) {
    snprintf(msg, cap, "%s", err.msg);
    return msg;
  }
  return NULL;
}

/* edit_player {player: NO, name, sex, birth, region, club, team, rating,
 * local}: the fields given replace the player's; null clears a text. */
static void op_edit_player(xq__server *s, xq__req *r)
{
  int no;
  xq_tplayer p;
  unsigned fields;
  char msg[XQ_ERR_MSG_LEN + 32];
  if (xq__field_int(r, "player", 1, XQ_TOURNEY_PLAYERS_MAX, 0, &no)) return;
  const char *bad = edit_parse(r->json, &p, &fields, msg, sizeof msg);
  if (bad) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
    return;
  }
  player_task *t = player_task_new(s, r, run_edit, no);
  if (!t) return;
  t->player = p;
  t->fields = fields;
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* withdraw, reinstate, absent                                         */
/* ------------------------------------------------------------------ */

static void run_withdraw(xq__server *s, xq__task *t)
{
  player_task *p = (player_task *)t;
  xq_error err = {0};
  int id = player_id(s, p);
  if (!id) return;
  int round = p->round ? p->round : s->ev->nrounds + 1;
  if (round > XQ_TOURNEY_ROUNDS_MAX) {
    xq__task_error(t, XQ__E_CONFLICT, "every round is paired");
    return;
  }
  int rc = p->reinstate ? xq_tstore_reinstate(s->store, round, id, &err) : xq_tstore_withdraw(s->store, round, id, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "player %d (id %d) %s from round %d on", p->no, id, p->reinstate ? "reinstated" : "withdrawn", round);
  if (xq__apply_withdrawal(s, id, round, p->reinstate) != XQ_OK && xq__task_reload(s, t, 0)) return;
  cJSON *o = named(s->ev, id);
  cJSON_AddNumberToObject(o, "round", round);
  xq__hub_players_changed(s);
  xq__task_send(t, o);
}

/* withdraw {player: NO, round}: not paired from that round on (default:
 * the next round to pair); reinstate {player: NO, round}: a withdrawn
 * player paired again from that round on, which is not paired yet. */
static void withdraw_or_reinstate(xq__server *s, xq__req *r, int reinstate)
{
  int no, round;
  if (xq__field_int(r, "player", 1, XQ_TOURNEY_PLAYERS_MAX, 0, &no) ||
      xq__field_int(r, "round", 0, XQ_TOURNEY_ROUNDS_MAX, 0, &round))
    return;
  player_task *t = player_task_new(s, r, run_withdraw, no);
  if (!t) return;
  t->round = round;
  t->reinstate = reinstate;
  xq__task_go(s, &t->t, 1);
}

static void op_withdraw(xq__server *s, xq__req *r) { withdraw_or_reinstate(s, r, 0); }
static void op_reinstate(xq__server *s, xq__req *r) { withdraw_or_reinstate(s, r, 1); }

/* remove_player: the store deletes him, the event is read again (the ids
 * after his close up: no copy of the event is patched). */
static void run_remove(xq__server *s, xq__task *t)
{
  player_task *p = (player_task *)t;
  xq_error err = {0};
  int id = player_id(s, p), reg = 0;
  if (!id) return;
  char name[XQ_TOURNEY_NAME_MAX];
  snprintf(name, sizeof name, "%s", s->ev->players[id - 1].name);
  int rc = xq_tstore_remove(s->store, id, &reg, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "player %d (id %d, registration %d) deleted", p->no, id, reg);
  if (xq__task_reload(s, t, 0)) return;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "player", p->no);
  cJSON_AddNumberToObject(o, "registration", id);
  cJSON_AddStringToObject(o, "name", name);
  xq__hub_players_changed(s);
  xq__task_send(t, o);
}

/* remove_player {player: NO}: a player registered by mistake deleted
 * before round 1 is paired; CONFLICT after (withdraw him then). */
static void op_remove_player(xq__server *s, xq__req *r)
{
  int no;
  if (xq__field_int(r, "player", 1, XQ_TOURNEY_PLAYERS_MAX, 0, &no)) return;
  player_task *t = player_task_new(s, r, run_remove, no);
  if (t) xq__task_go(s, &t->t, 1);
}

/* merge_players: two entries of one player, by number. */
typedef struct merge_task {
  xq__task t;
  int keep, drop;            /* the entry kept, the one merged into it: numbers */
} merge_task;

/* The store merges them (committed before the answer), the event is read
 * again (the ids after the dropped entry close up). */
static void run_merge(xq__server *s, xq__task *t)
{
  merge_task *m = (merge_task *)t;
  xq_error err = {0};
  int keep = xq_tournament_player_no(s->ev, m->keep), drop = xq_tournament_player_no(s->ev, m->drop);
  if (!keep || !drop) {
    char msg[96];
    snprintf(msg, sizeof msg, "no player has the number %d (the event has %d players)", keep ? m->drop : m->keep,
             s->ev->n);
    xq__task_error(t, XQ__E_NOT_FOUND, msg);
    return;
  }
  char kname[XQ_TOURNEY_NAME_MAX], dname[XQ_TOURNEY_NAME_MAX];
  snprintf(kname, sizeof kname, "%s", s->ev->players[keep - 1].name);
  snprintf(dname, sizeof dname, "%s", s->ev->players[drop - 1].name);
  unsigned filled = 0;
  int rc = xq_tstore_merge(s->store, keep, drop, &filled, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  xq__log(s, "player %d (id %d) merged into player %d (id %d)", m->drop, drop, m->keep, keep);
  if (xq__task_reload(s, t, 0)) return;
  static const char *const names[XQ_PE_COUNT] = XQ_PE_NAMES;
  cJSON *o = cJSON_CreateObject();
  cJSON *k = cJSON_AddObjectToObject(o, "keep"), *d = cJSON_AddObjectToObject(o, "drop");
  if (k) {
    int now = xq_tournament_player_no(s->ev, m->keep); /* the number stays; its id may close up */
    cJSON_AddNumberToObject(k, "player", m->keep);
    cJSON_AddNumberToObject(k, "registration", now ? now : keep);
    cJSON_AddStringToObject(k, "name", kname);
  }
  if (d) {
    cJSON_AddNumberToObject(d, "player", m->drop);
    cJSON_AddNumberToObject(d, "registration", drop);
    cJSON_AddStringToObject(d, "name", dname);
  }
  cJSON *a = cJSON_AddArrayToObject(o, "filled");
  for (int f = 0; a && f < XQ_PE_COUNT; f++)
    if (filled & (1u << f)) cJSON_AddItemToArray(a, cJSON_CreateString(names[f]));
  xq__hub_players_changed(s);
  xq__task_send(t, o);
}

/* merge_players {keep: NO, drop: NO}: entry `drop` merged into `keep`
 * (docs/tourney.md "Merging two entries"); CONFLICT with the reason when
 * the model refuses (drop has played, ...). */
static void op_merge_players(xq__server *s, xq__req *r)
{
  int keep, drop;
  if (xq__field_int(r, "keep", 1, XQ_TOURNEY_PLAYERS_MAX, 0, &keep) ||
      xq__field_int(r, "drop", 1, XQ_TOURNEY_PLAYERS_MAX, 0, &drop))
    return;
  if (keep == drop) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "keep and drop are two different numbers", -1);
    return;
  }
  merge_task *t = (merge_task *)xq__task_new(s, r, run_merge, sizeof *t, NULL);
  if (!t) return;
  t->keep = keep;
  t->drop = drop;
  xq__task_go(s, &t->t, 1);
}

static void run_absent(xq__server *s, xq__task *t)
{
  player_task *p = (player_task *)t;
  xq_error err = {0};
  int id = player_id(s, p);
  if (!id) return;
  int rc = xq_tstore_absence(s->store, p->round, id, p->bye, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  if (xq__apply_absence(s, id, p->round, p->bye) != XQ_OK && xq__task_reload(s, t, 0)) return;
  cJSON *o = named(s->ev, id);
  cJSON_AddNumberToObject(o, "round", p->round);
  cJSON_AddStringToObject(o, "bye", p->bye == XQ_TR_HPB ? "half" : p->bye == XQ_TR_FPB ? "full"
                                  : p->bye == XQ_TR_NONE ? "none" : "zero");
  xq__hub_players_changed(s);
  xq__task_send(t, o);
}

/* absent {player: NO, round, bye}: an announced absence from a round not
 * yet paired, with a zero- (default), half- or full-point bye; bye "none"
 * takes the round's absence back. */
static void op_absent(xq__server *s, xq__req *r)
{
  int no, round;
  const char *bye;
  if (xq__field_int(r, "player", 1, XQ_TOURNEY_PLAYERS_MAX, 0, &no) ||
      xq__field_int(r, "round", 1, XQ_TOURNEY_ROUNDS_MAX, 0, &round) || xq__field_str(r, "bye", 0, &bye))
    return;
  int b = !bye || !strcmp(bye, "zero") ? XQ_TR_ZPB : !strcmp(bye, "half") ? XQ_TR_HPB
        : !strcmp(bye, "full") ? XQ_TR_FPB : !strcmp(bye, "none") ? XQ_TR_NONE : -1;
  if (b < 0) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "bye is zero, half, full or none (the absence taken back)", -1);
    return;
  }
  player_task *t = player_task_new(s, r, run_absent, no);
  if (!t) return;
  t->round = round;
  t->bye = b;
  xq__task_go(s, &t->t, 1);
}

/* ------------------------------------------------------------------ */
/* numbers                                                             */
/* ------------------------------------------------------------------ */

/* numbers: the request. */
typedef struct numbers_task {
  xq__task t;
  int method;                /* XQ_NUM_* */
  int preview;               /* only computed, not stored */
  uint64_t seed;             /* the lot's seed */
  int *pairs, npairs;        /* by hand: npairs (id, number) pairs */
} numbers_task;

static void numbers_fini(xq__task *t) { free(((numbers_task *)t)->pairs); }

/* The reply of numbers: the method, the lot's seed, whether stored, and
 * every player in number order. */
static cJSON *numbers_json(const xq_tournament *ev, const numbers_task *t)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "method", xq_num_method_name(t->method));
  if (t->method == XQ_NUM_LOT) cJSON_AddNumberToObject(o, "seed", (double)t->seed);
  cJSON_AddBoolToObject(o, "stored", !t->preview);
  cJSON *a = cJSON_AddArrayToObject(o, "numbers");
  int *by = calloc((size_t)ev->n + 1, sizeof *by);
  for (int id = 1; by && id <= ev->n; id++) {
    int no = ev->players[id - 1].pno;
    if (no >= 1 && no <= ev->n) by[no] = id;
  }
  for (int no = 1; a && by && no <= ev->n; no++) {
    const xq_tplayer *p = &ev->players[by[no] - 1];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "no", no);
    cJSON_AddNumberToObject(x, "id", by[no]);
    cJSON_AddStringToObject(x, "name", p->name);
    cJSON_AddNumberToObject(x, "rating", p->rating);
    cJSON_AddItemToArray(a, x);
  }
  free(by);
  return o;
}

/* The request's {player: ID, no: N} pairs as manual[id - 1] = N for the
 * event's n players (0 where none is given). NULL with *bad set. */
static int *manual_numbers(const numbers_task *t, int n, char *bad, size_t cap)
{
  int *m = calloc((size_t)n + 1, sizeof *m);
  if (!m) { snprintf(bad, cap, "out of memory"); return NULL; }
  for (int i = 0; i < t->npairs; i++) {
    int id = t->pairs[2 * i], no = t->pairs[2 * i + 1];
    if (id > n) snprintf(bad, cap, "no player has the id %d (the event has %d)", id, n);
    else if (m[id - 1]) snprintf(bad, cap, "player %d is given a number twice", id);
    else { m[id - 1] = no; continue; }
    free(m);
    return NULL;
  }
  return m;
}

static void run_numbers(xq__server *s, xq__task *task)
{
  const numbers_task *t = (numbers_task *)task;
  char bad[XQ_ERR_MSG_LEN + 32] = "";
  xq_error err = {0};
  if (s->ev->nrounds > 0) {
    xq__task_error(task, XQ__E_CONFLICT, "round 1 is paired: the pairing numbers are fixed");
    return;
  }
  int *manual = t->method == XQ_NUM_MANUAL ? manual_numbers(t, s->ev->n, bad, sizeof bad) : NULL;
  if (bad[0]) {
    xq__task_error(task, XQ__E_BAD_REQUEST, bad);
    return;
  }
  xq_tnumbering how = {.method = t->method, .seed = t->seed, .manual = manual};
  xq_tournament *ev = xq_tournament_copy(s->ev);
  int rc = !ev ? XQ_ENOMEM
         : t->preview ? xq_number_players(ev, &how, &err)
         : xq_tstore_numbers(s->store, ev, &how, &err);
  free(manual);
  if (rc != XQ_OK) {
    xq_tournament_free(ev);
    /* numbers that are not 1..n each once are the request's fault */
    xq__task_error(task, rc == XQ_EINVAL && t->method == XQ_NUM_MANUAL ? XQ__E_BAD_REQUEST : xq__reply_write_code(rc),
                   err.msg[0] ? err.msg : xq_strerror(rc));
    return;
  }
  if (!t->preview) {
    xq__log(s, "pairing numbers by %s stored", xq_num_method_name(t->method));
    if (xq__task_reload(s, task, 0)) {
      xq_tournament_free(ev);
      return;
    }
  }
  if (!t->preview) xq__hub_players_changed(s);
  xq__task_send(task, numbers_json(ev, t));
  xq_tournament_free(ev);
}

/* The numbers of a manual request as ID, N pairs in a malloc'd *out.
 * NULL, or what is wrong. */
static const char *numbers_parse(const cJSON *a, int **out, int *n)
{
  const cJSON *x;
  *out = NULL;
  *n = 0;
  if (!cJSON_IsArray(a)) return "manual numbers are an array numbers: [{player: ID, no: N}, ...]";
  int len = cJSON_GetArraySize(a);
  if (len > XQ_TOURNEY_PLAYERS_MAX) return "more numbers than players an event may have";
  if (!(*out = calloc((size_t)len * 2 + 2, sizeof **out))) return "out of memory";
  cJSON_ArrayForEach(x, a) {
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(x, "player"), *no = cJSON_GetObjectItemCaseSensitive(x, "no");
    if (!xq__field_is_int(p) || !xq__field_is_int(no) || p->valueint < 1 || no->valueint < 1 ||
        p->valueint > XQ_TOURNEY_PLAYERS_MAX || no->valueint > XQ_TOURNEY_PLAYERS_MAX) {
      free(*out);
      *out = NULL;
      return "each number is {player: ID, no: N} with whole numbers from 1";
    }
    (*out)[2 * *n] = p->valueint;
    (*out)[2 * *n + 1] = no->valueint;
    (*n)++;
  }
  return NULL;
}

/* numbers {method, seed, numbers, preview}: the pairing numbers before
 * round 1 by rating, by lot (from `seed`, else a random one, given back)
 * or by hand (`numbers`, every player's); stored unless `preview`. */
static void op_numbers(xq__server *s, xq__req *r)
{
  const char *method;
  if (xq__field_str(r, "method", 1, &method)) return;
  const cJSON *seed = cJSON_GetObjectItemCaseSensitive(r->json, "seed");
  const cJSON *nums = cJSON_GetObjectItemCaseSensitive(r->json, "numbers");
  const cJSON *pv = cJSON_GetObjectItemCaseSensitive(r->json, "preview");
  long long sw = 0;
  int m = xq_num_method_parse(method), *pairs = NULL, npairs = 0;
  const char *bad = m < 0 ? "method is rating, lot or manual"
                  : pv && !cJSON_IsBool(pv) ? "preview is true or false"
                  : seed && (m != XQ_NUM_LOT || !xq__field_whole(seed, 0, (double)XQ_NUM_SEED_MAX, &sw))
                    ? "seed goes with lot: a whole number of up to 15 digits"
                  : (m == XQ_NUM_MANUAL) != (nums != NULL) ? "numbers goes with manual, and manual needs them"
                  : m == XQ_NUM_MANUAL ? numbers_parse(nums, &pairs, &npairs)
                  : NULL;
  uint64_t sd = 0;
  int failed = 0;
  if (!bad && m == XQ_NUM_LOT && seed) sd = (uint64_t)sw;
  else if (!bad && m == XQ_NUM_LOT && (failed = xq_lot_seed_random(&sd) != XQ_OK)) bad = "the system's random source failed";
  if (bad) {
    xq__reply_error(r->c, r->id, failed ? XQ__E_INTERNAL : XQ__E_BAD_REQUEST, bad, -1);
    free(pairs);
    return;
  }
  numbers_task *t = (numbers_task *)xq__task_new(s, r, run_numbers, sizeof *t, numbers_fini);
  if (!t) {
    free(pairs);
    return;
  }
  t->method = m;
  t->seed = sd;
  t->pairs = pairs;
  t->npairs = npairs;
  t->preview = cJSON_IsTrue(pv);
  xq__task_go(s, &t->t, 1);
}

#define ADMIN XQ__R(XQ_ROLE_ADMIN)

const xq__op xq__players_ops[] = {
  {"edit_player", ADMIN, op_edit_player},
  {"numbers", ADMIN, op_numbers},
  {"remove_player", ADMIN, op_remove_player},
  {"merge_players", ADMIN, op_merge_players},
  {"withdraw", XQ__STAFF, op_withdraw},
  {"reinstate", XQ__STAFF, op_reinstate},
  {"absent", XQ__STAFF, op_absent},
  {NULL, 0, NULL},
};
