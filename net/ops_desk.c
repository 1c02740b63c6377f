/*
 * ops_desk.c -- what the arbiters share at the desk (docs/protocol.md,
 * docs/web.md): `seen`, an arbiter marking a game's rulings seen, kept in
 * the store (a restart keeps it), shown in every game's state (`seen`)
 * and broadcast (a `seen` event) so that every arbiter's desk shows it.
 */
#include <stdio.h>
#include <string.h>

#include "conn.h"
#include "hub.h"
#include "internal.h"
#include "live.h"
#include "ops.h"
#include "proto.h"
#include "task.h"

typedef struct seen_task {
  xq__task t;
  int round, table, seen;
  char who[XQ_TOKEN_PREFIX_CHARS + 1]; /* the arbiter's token, by its hash prefix */
} seen_task;

static void run_seen(xq__server *s, xq__task *t)
{
  const seen_task *a = (seen_task *)t;
  xq__live *lv = xq__live_get(s, a->round, a->table);
  if (!lv) {
    xq__task_error(t, XQ__E_NOT_FOUND, "no game at this round and table");
    return;
  }
  /* as many as the game has: a mark cannot run ahead of its rulings */
  int n = a->seen < lv->nrulings ? a->seen : lv->nrulings;
  xq_error err = {0};
  int rc = xq_tstore_seen_set(s->store, a->round, a->table, n, a->who, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  lv->seen = n;
  xq__live_changed(s, a->round);
  char data[48];
  snprintf(data, sizeof data, "{\"seen\":%d}", n);
  xq__hub_publish(s, "seen", a->round, a->table, data);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", a->round);
  cJSON_AddNumberToObject(o, "table", a->table);
  cJSON_AddNumberToObject(o, "seen", n);
  xq__task_send(t, o);
}

/* seen {round, table, seen}: the first `seen` rulings of the game are
 * marked seen by the arbiters (at most as many as it has). */
static void op_seen(xq__server *s, xq__req *r)
{
  int round, table, seen;
  if (xq__field_int(r, "round", 1, XQ_ROUNDS_LIVE_MAX, 0, &round) ||
      xq__field_int(r, "table", 1, XQ_BOARDS_MAX, 0, &table) ||
      xq__field_int(r, "seen", 0, XQ_GAME_RULINGS_MAX, -1, &seen))
    return;
  seen_task *t = (seen_task *)xq__task_new(s, r, run_seen, sizeof *t, NULL);
  if (!t) return;
  t->round = round;
  t->table = table;
  t->seen = seen;
  for (int i = 0; i < XQ_TOKEN_PREFIX_CHARS / 2; i++) snprintf(t->who + 2 * i, 3, "%02x", r->c->tok[i]);
  xq__task_go(s, &t->t, 1);
}

const xq__op xq__desk_ops[] = {
  {"seen", XQ__STAFF, op_seen},
  {NULL, 0, NULL},
};
