/*
 * ops_settings.c -- the organisers' operation on the event's settings
 * (docs/protocol.md "Organisers"): settings reads them (name, dates,
 * venue, organiser, chief arbiter, format, rounds, pairing system,
 * tie-breaks, scoring) with what may no longer change and why; with
 * "set" it changes those given. The request is parsed here, at the edge,
 * into an xq_tsettings and the fields given; the store refuses what the
 * event's state locks (tourney/settings.c), and the server's event is
 * read again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delay.h"
#include "hub.h"
#include "internal.h"
#include "ops.h"
#include "proto.h"
#include "task.h"

static const char *const formats[] = {"swiss", "rr", "rr2"};

/* settings with "set": the fields to change. */
typedef struct settings_task {
  xq__task t;
  xq_tsettings set;
  unsigned fields;           /* XQ_TS_* given */
} settings_task;

/* The settings of `ev` as a reply: every field, the rounds paired, and
 * "locked": {field: why} for those that may no longer change. */
static cJSON *settings_json(const xq_tournament *ev)
{
  static const char *const names[XQ_TS_COUNT] = XQ_TS_NAMES;
  xq_tsettings st;
  xq_tsettings_of(ev, &st);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", st.name);
  cJSON_AddStringToObject(o, "dates", st.info.dates);
  cJSON_AddStringToObject(o, "venue", st.info.venue);
  cJSON_AddStringToObject(o, "organiser", st.info.organiser);
  cJSON_AddStringToObject(o, "arbiter", st.info.arbiter);
  cJSON_AddNumberToObject(o, "rounds", st.rounds);
  cJSON_AddStringToObject(o, "format", formats[st.format]);
  cJSON_AddStringToObject(o, "system", st.system == XQ_PAIR_DUTCH ? "dutch" : "cn");
  cJSON_AddStringToObject(o, "tiebreaks", st.tiebreaks);
  cJSON_AddStringToObject(o, "scoring", st.halves ? "1-0.5-0" : "2-1-0");
  /* the broadcast's delay for viewers, seconds; null: the server's (serve --delay) */
  if (st.delay < 0) cJSON_AddNullToObject(o, "delay");
  else cJSON_AddNumberToObject(o, "delay", st.delay);
  cJSON_AddNumberToObject(o, "paired", ev->nrounds);
  /* the fewest rounds the event may have: those paired */
  cJSON_AddNumberToObject(o, "rounds_min", ev->nrounds > 1 ? ev->nrounds : 1);
  cJSON *locked = cJSON_AddObjectToObject(o, "locked");
  for (int k = 0; locked && k < XQ_TS_COUNT; k++) {
    const char *why = xq_tsettings_locked(ev->name, &ev->cfg, ev->nrounds, 1u << k);
    if (why) cJSON_AddStringToObject(locked, names[k], why);
  }
  return o;
}

/* settings without "set": from the server's copy of the event. */
static void run_settings_read(xq__server *s, xq__task *t) { xq__task_send(t, settings_json(s->ev)); }

static void run_settings(xq__server *s, xq__task *t)
{
  settings_task *p = (settings_task *)t;
  static const char *const names[XQ_TS_COUNT] = XQ_TS_NAMES;
  unsigned changed = 0;
  xq_error err = {0};
  int rc = xq_tstore_settings(s->store, &p->set, p->fields, &changed, &err);
  if (rc != XQ_OK) {
    xq__task_error(t, xq__reply_write_code(rc), err.msg);
    return;
  }
  if (changed) {
    xq__log(s, "event settings changed");
    if (xq__task_reload(s, t, 0)) return;
    if (changed & XQ_TS_DELAY) xq__delay_changed(s);
    xq__hub_players_changed(s); /* the pages read the event again */
  }
  cJSON *o = settings_json(s->ev);
  cJSON *a = cJSON_AddArrayToObject(o, "changed");
  for (int k = 0; a && k < XQ_TS_COUNT; k++)
    if (changed & (1u << k)) cJSON_AddItemToArray(a, cJSON_CreateString(names[k]));
  xq__task_send(t, o);
}

/* A word of `words` (n of them) as its index, or -1. */
static int word(const cJSON *v, const char *const *words, int n)
{
  for (int i = 0; cJSON_IsString(v) && i < n; i++)
    if (!strcmp(v->valuestring, words[i])) return i;
  return -1;
}

/* One field `k` (XQ_TS_NAMES' k-th) of "set" into *st. NULL, or what is
 * wrong. */
static const char *set_field(int k, const cJSON *v, xq_tsettings *st)
{
  static const char *const scorings[] = {"2-1-0", "1-0.5-0"};
  static const char *const systems[] = {"cn", "dutch"};
  char *texts[] = {st->name, st->info.dates, st->info.venue, st->info.organiser, st->info.arbiter};
  size_t caps[] = {sizeof st->name, sizeof st->info.dates, sizeof st->info.venue, sizeof st->info.organiser,
                   sizeof st->info.arbiter};
  unsigned bit = 1u << k;
  if (bit <= XQ_TS_ARBITER) {
    if (cJSON_IsNull(v) && bit != XQ_TS_NAME) return NULL; /* cleared */
    if (!cJSON_IsString(v)) return "name, dates, venue, organiser and arbiter are strings (null clears all but name)";
    if (strlen(v->valuestring) >= caps[k]) return "a text of the settings is too long";
    strcpy(texts[k], v->valuestring);
  } else if (bit == XQ_TS_TIEBREAKS) {
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= sizeof st->tiebreaks)
      return "tiebreaks is a string: codes such as \"PTS,OS,WINS\" or a preset";
    strcpy(st->tiebreaks, v->valuestring);
  } else if (bit == XQ_TS_ROUNDS) {
    if (!xq__field_is_int(v) || v->valueint < 1 || v->valueint > XQ_TOURNEY_ROUNDS_MAX) return "rounds is 1..49";
    st->rounds = v->valueint;
  } else if (bit == XQ_TS_FORMAT) {
    if ((st->format = word(v, formats, 3)) < 0) return "format is swiss, rr or rr2";
  } else if (bit == XQ_TS_SYSTEM) {
    if ((st->system = word(v, systems, 2)) < 0) return "system is cn or dutch";
    st->system = st->system ? XQ_PAIR_DUTCH : XQ_PAIR_CN;
  } else if (bit == XQ_TS_DELAY) {
    if (cJSON_IsNull(v)) st->delay = -1; /* not set: the server's */
    else if (!xq__field_is_int(v) || v->valueint < 0 || v->valueint > XQ_TOURNEY_DELAY_MAX)
      return "delay is 0..3600 seconds, or null (the server's, serve --delay)";
    else st->delay = v->valueint;
  } else if ((st->halves = word(v, scorings, 2)) < 0) {
    return "scoring is 2-1-0 or 1-0.5-0";
  }
  return NULL;
}

/* The request's "set" into *st and *fields. NULL, or what is wrong
 * (possibly in msg, cap bytes). */
static const char *set_parse(const cJSON *set, xq_tsettings *st, unsigned *fields, char *msg, size_t cap)
{
  static const char *const names[XQ_TS_COUNT] = XQ_TS_NAMES;
  memset(st, 0, sizeof *st);
  *fields = 0;
  if (!set || cJSON_IsNull(set)) return NULL;
  if (!cJSON_IsObject(set)) return "set is an object of the settings to change";
  for (const cJSON *v = set->child; v; v = v->next) {
    int k = 0;
    while (k < XQ_TS_COUNT && strcmp(v->string, names[k])) k++;
    if (k == XQ_TS_COUNT) {
      snprintf(msg, cap, "unknown setting \"%.40s\" (name, dates, venue, organiser, arbiter, rounds, format, system,"
               " tiebreaks, scoring, delay)", v->string);
      return msg;
    }
    const char *bad = set_field(k, v, st);
    if (bad) return bad;
    *fields |= 1u << k;
  }
  xq_error err = {0};
  if (xq_tsettings_check(st, *fields, &err) != XQ_OK) {
    snprintf(msg, cap, "%s", err.msg);
    return msg;
  }
  return NULL;
}

/* settings {set: {name, dates, venue, organiser, arbiter, rounds,
 * format, system, tiebreaks, scoring}}: the event's settings, after
 * changing those given. */
static void op_settings(xq__server *s, xq__req *r)
{
  xq_tsettings st;
  unsigned fields;
  char msg[XQ_ERR_MSG_LEN + 64];
  const char *bad = set_parse(cJSON_GetObjectItemCaseSensitive(r->json, "set"), &st, &fields, msg, sizeof msg);
  if (bad) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
    return;
  }
  if (!fields) { /* a read: no store, no wait for the commits under way */
    xq__task_read(s, r, run_settings_read);
    return;
  }
  settings_task *t = (settings_task *)xq__task_new(s, r, run_settings, sizeof *t, NULL);
  if (!t) return;
  t->set = st;
  t->fields = fields;
  xq__task_go(s, &t->t, 1);
}

#define ADMIN XQ__R(XQ_ROLE_ADMIN)

const xq__op xq__settings_ops[] = {
  {"settings", ADMIN, op_settings},
  {NULL, 0, NULL},
};
