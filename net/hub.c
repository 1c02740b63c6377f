/*
 * hub.c -- the broadcast (server.md §1.3, §2 SSE): every durable board
 * event, verdict, result and pairing goes to the subscribers of the HTTP
 * event stream (Server-Sent Events) and of the JSON-lines `watch` op.
 *
 * Each event is encoded once per format into a shared, reference-counted
 * buffer; every subscriber's write takes a reference to that same buffer.
 * The last XQ_HUB_RING events stay in a ring for Last-Event-ID resume.
 * Subscribers have the XQ__OUT_DROP budget: one that stops reading is
 * disconnected once XQ_OUT_VIEWER_MAX bytes wait for it.
 *
 * Event ids increase for the life of the store, not only of the process:
 * they start from the wall clock in microseconds, so an id remembered by a
 * browser from before a restart is older than anything in the ring and
 * gets a snapshot instead of a wrong replay.
 *
 * The SSE data of every event ends with "at": the wall clock when it was
 * broadcast, in microseconds since 1970, from which a viewer (xqref
 * loadgen) measures its delivery. With --publish the same data goes to
 * the edge (publish.c), straight from the SSE buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "internal.h"

typedef struct hub_event {
  int64_t id;
  int round;
  xq__buf *sse;                /* "id: N\nevent: T\ndata: {...}\n\n" */
  xq__buf *jsonl;              /* {"event":T,"eid":N,...,"data":{...}}\n */
} hub_event;

typedef struct hub_sub {
  xq__conn *c;                 /* NULL: left during a publish, compacted after */
  int format;                  /* XQ__HUB_* */
  int round;                   /* 0: every round */
} hub_sub;

struct xq__hub {
  hub_event ring[XQ_HUB_RING];
  int head;                    /* index of the oldest event */
  int count;
  int64_t next_id;
  hub_sub *subs;
  int nsubs, cap;
  int publishing;              /* a loop over subs is running */
  int holes;                   /* subs[].c set to NULL meanwhile */
  uv_timer_t keepalive;
  int timer_open;
  xq__buf *ka;                 /* ": keepalive\n\n" */
};

static void on_keepalive(uv_timer_t *t);

int xq__hub_init(xq__server *s)
{
  xq__hub *h = calloc(1, sizeof *h);
  if (!h) return XQ_ENOMEM;
  static const char ka[] = ": keepalive\n\n";
  if (!(h->ka = xq__buf_copy(ka, sizeof ka - 1))) {
    free(h);
    return XQ_ENOMEM;
  }
  struct timeval tv;
  gettimeofday(&tv, NULL);
  h->next_id = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
  uv_timer_init(s->loop, &h->keepalive);
  h->keepalive.data = s;
  h->timer_open = 1;
  uv_timer_start(&h->keepalive, on_keepalive, XQ_SSE_KEEPALIVE_MS, XQ_SSE_KEEPALIVE_MS);
  uv_unref((uv_handle_t *)&h->keepalive); /* never keeps the loop alive */
  s->hub = h;
  return XQ_OK;
}

static void on_timer_closed(uv_handle_t *handle) { (void)handle; }

void xq__hub_close(xq__server *s)
{
  xq__hub *h = s->hub;
  if (!h || !h->timer_open) return;
  h->timer_open = 0;
  uv_close((uv_handle_t *)&h->keepalive, on_timer_closed);
}

void xq__hub_free(xq__server *s)
{
  xq__hub *h = s->hub;
  if (!h) return;
  for (int i = 0; i < h->count; i++) {
    hub_event *e = &h->ring[(h->head + i) % XQ_HUB_RING];
    xq__buf_unref(e->sse);
    xq__buf_unref(e->jsonl);
  }
  xq__buf_unref(h->ka);
  free(h->subs);
  free(h);
  s->hub = NULL;
}

/* Drop the holes left by subscribers that went away during a loop. */
static void compact(xq__hub *h)
{
  if (h->publishing || !h->holes) return;
  int j = 0;
  for (int i = 0; i < h->nsubs; i++)
    if (h->subs[i].c) h->subs[j++] = h->subs[i];
  h->nsubs = j;
  h->holes = 0;
}

static void on_keepalive(uv_timer_t *t)
{
  xq__server *s = t->data;
  xq__hub *h = s->hub;
  h->publishing++;
  for (int i = 0; i < h->nsubs; i++)
    if (h->subs[i].c && h->subs[i].format == XQ__HUB_SSE) xq__conn_write(h->subs[i].c, h->ka, 0);
  h->publishing--;
  compact(h);
}

/* The data text on one line: JSON never needs a raw line break, and one
 * would end an SSE data field early. */
static void one_line(char *d, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (d[i] == '\n' || d[i] == '\r') d[i] = ' ';
}

/* The SSE and JSON-lines encodings of one event broadcast at `at` (µs
 * since 1970), or NULLs when out of memory; *data_off is where the SSE
 * data begins (it ends before the final "\n\n"). */
static void encode(const char *type, int64_t id, int round, int board, const char *json, long long at,
                   xq__buf **sse, xq__buf **jsonl, size_t *data_off)
{
  size_t jl = strlen(json), tl = strlen(type);
  size_t cap = jl + tl + 160;
  *sse = xq__buf_new(cap);
  *jsonl = xq__buf_new(cap);
  if (!*sse || !*jsonl) {
    xq__buf_unref(*sse);
    xq__buf_unref(*jsonl);
    *sse = *jsonl = NULL;
    return;
  }
  char where[64] = "";
  if (round > 0 && board > 0) snprintf(where, sizeof where, ",\"round\":%d,\"table\":%d", round, board);
  else if (round > 0) snprintf(where, sizeof where, ",\"round\":%d", round);

  int n = snprintf((*sse)->data, cap, "id: %lld\nevent: %s\ndata: ", (long long)id, type);
  *data_off = (size_t)n;
  memcpy((*sse)->data + n, json, jl);
  one_line((*sse)->data + n, jl);
  size_t k = (size_t)n + jl;
  if (jl >= 2 && json[jl - 1] == '}') {
    k--; /* the object goes on: */
    /* SSE has no envelope: an event about one game (move, verdict, result)
     * names it inside its data, after the members it has; a game's whole
     * state ({"round":...) names it already */
    if (board > 0 && jl > 2 && strncmp(json, "{\"round\":", 9)) {
      size_t wl = strlen(where);
      memcpy((*sse)->data + k, where, wl);
      k += wl;
    }
    /* ... and the time it was broadcast, last */
    k += (size_t)snprintf((*sse)->data + k, cap - k, "%s\"at\":%lld}", json[jl - 2] == '{' ? "" : ",", at);
  }
  memcpy((*sse)->data + k, "\n\n", 3);
  (*sse)->len = k + 2;

  n = snprintf((*jsonl)->data, cap, "{\"event\":\"%s\",\"eid\":%lld%s,\"data\":", type, (long long)id,
               where);
  memcpy((*jsonl)->data + n, json, jl);
  one_line((*jsonl)->data + n, jl);
  memcpy((*jsonl)->data + n + jl, "}\n", 3);
  (*jsonl)->len = (size_t)n + jl + 2;
}

int64_t xq__hub_publish(xq__server *s, const char *type, int round, int board, const char *json)
{
  xq__hub *h = s->hub;
  if (!h || !type) return 0;
  if (!json || !*json) json = "{}";
  int64_t id = h->next_id++;
  struct timeval tv;
  gettimeofday(&tv, NULL);
  xq__buf *sse, *jsonl;
  size_t data_off = 0;
  encode(type, id, round, board, json, (long long)tv.tv_sec * 1000000 + tv.tv_usec, &sse, &jsonl, &data_off);
  if (!sse) {
    xq__log(s, "hub: out of memory, event %lld (%s) not broadcast", (long long)id, type);
    return id;
  }
  /* keep it for resume; the oldest falls out of a full ring */
  int slot;
  if (h->count == XQ_HUB_RING) {
    slot = h->head;
    xq__buf_unref(h->ring[slot].sse);
    xq__buf_unref(h->ring[slot].jsonl);
    h->head = (h->head + 1) % XQ_HUB_RING;
  } else {
    slot = (h->head + h->count++) % XQ_HUB_RING;
  }
  h->ring[slot] = (hub_event){id, round, sse, jsonl};

  h->publishing++;
  for (int i = 0; i < h->nsubs; i++) {
    hub_sub *u = &h->subs[i];
    if (!u->c || (u->round > 0 && round > 0 && u->round != round)) continue;
    /* may drop the subscriber (over budget): unwatch leaves a hole */
    xq__conn_write(u->c, u->format == XQ__HUB_SSE ? sse : jsonl, 0);
  }
  h->publishing--;
  compact(h);
  /* the edge: type after "event: ", data up to the final "\n\n" */
  size_t tl = strlen(type);
  xq__publish_event(s, sse, data_off - 7 - tl, tl, data_off, sse->len - 2 - data_off, round);
  return id;
}

/* The games a snapshot shows: round `round`, or the latest published
 * round when 0 (the one being played; older rounds are final and served
 * by /api/rounds/N/games.json). */
static int snapshot_round(xq__server *s, int round)
{
  if (round > 0) return round;
  for (int r = XQ_ROUNDS_LIVE_MAX; r >= 1; r--)
    if (s->rounds[r]) return r;
  return 0;
}

/* Send `c` a "snapshot" event carrying id `id` (the newest event, so a
 * stream resumed after it misses nothing). */
static int send_snapshot(xq__server *s, xq__conn *c, int format, int round, int64_t id)
{
  int r = snapshot_round(s, round);
  char *games = r > 0 ? xq__round_state_json(s, r) : NULL;
  size_t gl = games ? strlen(games) : 2;
  size_t cap = gl + 160;
  xq__buf *b = xq__buf_new(cap);
  if (!b) {
    free(games);
    return XQ_ENOMEM;
  }
  int n;
  if (format == XQ__HUB_SSE)
    n = snprintf(b->data, cap, "id: %lld\nevent: snapshot\ndata: {\"round\":%d,\"games\":%s}\n\n",
                 (long long)id, r, games ? games : "[]");
  else
    n = snprintf(b->data, cap, "{\"event\":\"snapshot\",\"eid\":%lld,\"round\":%d,\"data\":"
                 "{\"round\":%d,\"games\":%s}}\n", (long long)id, r, r, games ? games : "[]");
  free(games);
  b->len = (size_t)n;
  int rc = xq__conn_write(c, b, 0);
  xq__buf_unref(b);
  return rc;
}

int xq__hub_watch(xq__server *s, xq__conn *c, int format, int round, int64_t last_id)
{
  xq__hub *h = s->hub;
  if (!h || c->closing) return XQ_EINVAL;
  if (c->hub_watch) xq__hub_unwatch(s, c);
  if (h->nsubs >= XQ_MAX_CONNS) return XQ_ELIMIT;
  if (h->nsubs == h->cap) {
    int cap = h->cap ? h->cap * 2 : 16;
    hub_sub *n = realloc(h->subs, (size_t)cap * sizeof *n);
    if (!n) return XQ_ENOMEM;
    h->subs = n;
    h->cap = cap;
  }
  c->out_mode = XQ__OUT_DROP;
  c->hub_watch = 1;
  h->subs[h->nsubs++] = (hub_sub){c, format, round};

  int64_t newest = h->count ? h->ring[(h->head + h->count - 1) % XQ_HUB_RING].id : h->next_id - 1;
  int64_t oldest = h->count ? h->ring[h->head].id : h->next_id;
  if (last_id == 0 || (last_id > 0 && last_id == newest)) return XQ_OK;
  if (last_id < 0 || last_id < oldest - 1 || last_id > newest)
    return send_snapshot(s, c, format, round, newest) == XQ_ENOMEM ? XQ_ENOMEM : XQ_OK;
  /* resume: every kept event after last_id, in order */
  for (int i = 0; i < h->count && !c->closing; i++) {
    hub_event *e = &h->ring[(h->head + i) % XQ_HUB_RING];
    if (e->id <= last_id || (round > 0 && e->round > 0 && e->round != round)) continue;
    xq__conn_write(c, format == XQ__HUB_SSE ? e->sse : e->jsonl, 0);
  }
  return XQ_OK;
}

void xq__hub_unwatch(xq__server *s, xq__conn *c)
{
  xq__hub *h = s->hub;
  if (!c->hub_watch) return;
  c->hub_watch = 0;
  if (!h) return;
  for (int i = 0; i < h->nsubs; i++) {
    if (h->subs[i].c != c) continue;
    if (h->publishing) {
      h->subs[i].c = NULL;
      h->holes++;
    } else {
      h->subs[i] = h->subs[--h->nsubs];
    }
    return;
  }
}

int xq__hub_subscribers(const xq__server *s)
{
  const xq__hub *h = s->hub;
  if (!h) return 0;
  return h->nsubs - h->holes;
}
