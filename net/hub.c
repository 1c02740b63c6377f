/*
 * hub.c -- the broadcast (docs/server.md): every durable board
 * event, verdict, result and pairing goes to the viewers of the HTTP
 * event stream (Server-Sent Events) and to the JSON-lines `watch` op.
 *
 * Each event is numbered and encoded once per format into a shared,
 * reference-counted buffer; every subscriber's write takes a reference to
 * that same buffer. The last XQ_HUB_RING events stay in a ring for
 * Last-Event-ID resume. JSON-lines watchers are served here, on the loop;
 * SSE viewers are handed with the start of their stream (a snapshot made
 * on the loop, which holds the games, or the events they missed) to the
 * fan-out thread (fanout.c), which gets every event after it in order.
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

#include "commit.h"
#include "conn.h"
#include "delay.h"
#include "fanout.h"
#include "hub.h"
#include "internal.h"
#include "live.h"
#include "publish.h"

typedef struct hub_event {
  int64_t id;
  int round;
  xq__buf *sse;                /* "id: N\nevent: T\ndata: {...}\n\n" */
  xq__buf *jsonl;              /* {"event":T,"eid":N,...,"data":{...}}\n */
} hub_event;

typedef struct hub_sub {
  xq__conn *c;                 /* NULL: left during a publish, compacted after */
  int round;                   /* 0: every round */
  int pub;                     /* anonymous: gets the events as the delay releases them */
} hub_sub;

enum { FMT_SSE, FMT_JSONL };

/* A fresh stream (hub_stream) or watcher (hub_watch) waiting for the
 * games to be as broadcast before its snapshot is made. */
typedef struct hub_wait {
  xq__conn *c;                 /* referenced */
  int round;
  xq__buf *head;               /* a stream's response head; NULL for a watcher */
  int gone;                    /* the watcher unwatched meanwhile */
} hub_wait;

struct xq__hub {
  hub_event ring[XQ_HUB_RING];
  int head;                    /* index of the oldest event */
  int count;
  int64_t next_id;
  int64_t pub_newest;          /* the newest event anonymous readers have had (the delay) */
  hub_sub *subs;               /* JSON-lines watchers */
  int nsubs, cap;
  int publishing;              /* a loop over subs is running */
  int holes;                   /* subs[].c set to NULL meanwhile */
  xq__fanout *fanout;          /* the SSE viewers */
  hub_wait *waits;             /* fresh streams waiting for their snapshot */
  int nwaits, capwaits;
  uint64_t wait_since;         /* loop time the oldest of them began to wait */
  int wait_armed;              /* a commit callback will look at them */
  struct {
    xq__buf *buf;              /* the last snapshot made in each format (shared_snapshot) ... */
    int round;                 /* ... of this round ... */
    int64_t id;                /* ... with this id ... */
    uint64_t version;          /* ... at this version of the round ... */
    int pub;                   /* ... for anonymous readers (delayed) or not */
  } snap[2];
};

int xq__hub_init(xq__server *s)
{
  xq__hub *h = calloc(1, sizeof *h);
  if (!h) return XQ_ENOMEM;
  int rc = xq__fanout_start(s, s->loop, &h->fanout);
  if (rc != XQ_OK) {
    free(h);
    return rc;
  }
  struct timeval tv;
  gettimeofday(&tv, NULL);
  h->next_id = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
  h->pub_newest = h->next_id - 1;
  /* a restart's held announcements come before anything new */
  xq__delay_number(s, &h->next_id);
  s->hub = h;
  return XQ_OK;
}

void xq__hub_close(xq__server *s)
{
  if (s->hub) xq__fanout_stop(s->hub->fanout);
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
  xq__fanout_free(h->fanout);
  for (int i = 0; i < h->nwaits; i++) { /* (none once the commit drained) */
    xq__buf_unref(h->waits[i].head);
    xq__conn_unref(h->waits[i].c);
  }
  free(h->waits);
  xq__buf_unref(h->snap[FMT_SSE].buf);
  xq__buf_unref(h->snap[FMT_JSONL].buf);
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

/* Send event `id` to the watchers of its round: the staff's (pub 0),
 * the anonymous ones and the fan-out's viewers (pub 2), or all (1). */
static void deliver(xq__server *s, int pub, int64_t id, int round, xq__buf *sse, xq__buf *jsonl)
{
  xq__hub *h = s->hub;
  if (pub) {
    /* the viewers, on the fan-out thread, in this order */
    xq__fanout_event(h->fanout, sse, round);
    h->pub_newest = id;
  }
  h->publishing++;
  for (int i = 0; i < h->nsubs; i++) {
    hub_sub *u = &h->subs[i];
    if (!u->c || (u->round > 0 && round > 0 && u->round != round)) continue;
    if ((pub == 0 && u->pub) || (pub == 2 && !u->pub)) continue;
    /* may drop the subscriber (over budget): unwatch leaves a hole */
    xq__conn_write(u->c, jsonl, 0);
  }
  h->publishing--;
  compact(h);
}

void xq__hub_release(xq__server *s, int64_t id, int round, xq__buf *sse, xq__buf *jsonl, size_t toff, size_t tlen,
                     size_t doff, size_t dlen)
{
  if (!s->hub || s->stopping) return;
  deliver(s, 2, id, round, sse, jsonl);
  xq__publish_event(s, sse, toff, tlen, doff, dlen, round);
}

void xq__hub_announce(xq__server *s, int64_t id, int round, int board, const char *json)
{
  if (!s->hub || s->stopping) return;
  xq__buf *sse, *jsonl;
  size_t data_off = 0;
  encode("game", id, round, board, json, (long long)xq__delay_now(s), &sse, &jsonl, &data_off);
  if (!sse) {
    xq__log(s, "hub: out of memory, event %lld (game) not broadcast", (long long)id);
    return;
  }
  xq__hub_release(s, id, round, sse, jsonl, data_off - 11, 4, data_off, sse->len - 2 - data_off);
  xq__buf_unref(sse);
  xq__buf_unref(jsonl);
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

  /* the edge: type after "event: ", data up to the final "\n\n" */
  size_t tl = strlen(type), toff = data_off - 7 - tl, dlen = sse->len - 2 - data_off;
  /* staff at once; anonymous readers now, or as the delay releases it */
  int held = xq__delay_on(s) && xq__delay_event(s, id, round, sse, jsonl, toff, tl, data_off, dlen) == XQ_OK;
  deliver(s, held ? 0 : 1, id, round, sse, jsonl);
  if (!held) xq__publish_event(s, sse, toff, tl, data_off, dlen, round);
  return id;
}

void xq__hub_players_changed(xq__server *s) { xq__hub_publish(s, "players", 0, 0, "{}"); }

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

/* A "snapshot" event in format FMT_* carrying id `id` (the newest event,
 * so a stream resumed after it misses nothing), or NULL. */
static xq__buf *snapshot(xq__server *s, int format, int round, int64_t id)
{
  int r = snapshot_round(s, round);
  size_t gl = 0;
  /* {"round":R,"games":[...]}\n as games.json has it, made once per change
   * (as the reader may see it: delayed for anonymous ones) */
  const char *games = r > 0 ? xq__live_json_round(s, r, &gl, NULL) : NULL;
  char none[48];
  if (!games) gl = (size_t)snprintf(none, sizeof none, "{\"round\":%d,\"games\":[]}\n", r), games = none;
  gl--; /* without its newline */
  size_t cap = gl + 160;
  xq__buf *b = xq__buf_new(cap);
  if (!b) return NULL;
  int n;
  if (format == FMT_SSE)
    n = snprintf(b->data, cap, "id: %lld\nevent: snapshot\ndata: %.*s\n\n", (long long)id, (int)gl, games);
  else
    n = snprintf(b->data, cap, "{\"event\":\"snapshot\",\"eid\":%lld,\"round\":%d,\"data\":%.*s}\n", (long long)id,
                 r, (int)gl, games);
  b->len = (size_t)n;
  return b;
}

/* The snapshot in format FMT_* of round `round` with id `id` (a new
 * reference), or NULL: the one made last while it is of the same round,
 * event and version of the round, so that every stream and watcher
 * starting meanwhile shares one buffer (counted in each one's budget),
 * and a crowd arriving at once costs the loop one snapshot. */
static xq__buf *shared_snapshot(xq__server *s, int format, int round, int64_t id, int pub)
{
  xq__hub *h = s->hub;
  int r = snapshot_round(s, round);
  uint64_t v = r >= 1 && r <= XQ_ROUNDS_LIVE_MAX ? s->round_version[r] : 0;
  if (!h->snap[format].buf || h->snap[format].round != r || h->snap[format].id != id ||
      h->snap[format].version != v || h->snap[format].pub != pub) {
    if (pub) xq__delay_enter(s);
    xq__buf *b = snapshot(s, format, round, id);
    if (pub) xq__delay_leave(s);
    if (!b) return NULL;
    xq__buf_unref(h->snap[format].buf);
    h->snap[format].buf = b;
    h->snap[format].round = r;
    h->snap[format].id = id;
    h->snap[format].version = v;
    h->snap[format].pub = pub;
  }
  xq__buf_ref(h->snap[format].buf);
  return h->snap[format].buf;
}

/* What a subscriber resuming after `last_id` gets first: START_NONE
 * (0, or the newest id: only what follows), START_SNAPSHOT (-1, or an id
 * the ring does not hold) or START_REPLAY (the kept events after it);
 * *newest is the newest event's id. An anonymous reader (`pub`) of a
 * delayed broadcast resumes from the newest event released to it, or
 * gets a snapshot of the delayed games. Returns the pub mode of the
 * start in *pub (1: delayed). */
enum { START_NONE, START_SNAPSHOT, START_REPLAY };
static int start_kind(const xq__server *s, int64_t last_id, int64_t *newest, int *pub)
{
  const xq__hub *h = s->hub;
  *pub = *pub && xq__delay_on(s);
  if (*pub) {
    *newest = h->pub_newest;
    return last_id == 0 || last_id == h->pub_newest ? START_NONE : START_SNAPSHOT;
  }
  *newest = h->count ? h->ring[(h->head + h->count - 1) % XQ_HUB_RING].id : h->next_id - 1;
  int64_t oldest = h->count ? h->ring[h->head].id : h->next_id;
  if (last_id == 0 || (last_id > 0 && last_id == *newest)) return START_NONE;
  if (last_id < 0 || last_id < oldest - 1 || last_id > *newest) return START_SNAPSHOT;
  return START_REPLAY;
}

/* The kept event i (0: the oldest) when it is after `last_id` and of
 * round `round` (0: any), else NULL. */
static const hub_event *replayed(const xq__hub *h, int i, int round, int64_t last_id)
{
  const hub_event *e = &h->ring[(h->head + i) % XQ_HUB_RING];
  if (e->id <= last_id || (round > 0 && e->round > 0 && e->round != round)) return NULL;
  return e;
}

/* Make the watcher `c` a subscriber and write the start of its stream: a
 * snapshot or the replay after last_id. XQ_OK, XQ_ELIMIT or XQ_ENOMEM. */
static int subscribe(xq__server *s, xq__conn *c, int round, int64_t last_id)
{
  xq__hub *h = s->hub;
  if (h->nsubs >= XQ_MAX_CONNS) return XQ_ELIMIT;
  if (h->nsubs == h->cap) {
    int cap = h->cap ? h->cap * 2 : 16;
    hub_sub *n = realloc(h->subs, (size_t)cap * sizeof *n);
    if (!n) return XQ_ENOMEM;
    h->subs = n;
    h->cap = cap;
  }
  int pub = c->role == XQ_ROLE_NONE; /* anonymous: delayed, when there is a delay */
  h->subs[h->nsubs++] = (hub_sub){c, round, pub};

  int64_t newest;
  int kind = start_kind(s, last_id, &newest, &pub);
  if (kind == START_SNAPSHOT) {
    xq__buf *b = shared_snapshot(s, FMT_JSONL, round, newest, pub);
    if (!b) return XQ_ENOMEM;
    xq__conn_write(c, b, 0);
    xq__buf_unref(b);
  }
  /* resume: every kept event after last_id, in order */
  for (int i = 0; kind == START_REPLAY && i < h->count && !c->closing; i++) {
    const hub_event *e = replayed(h, i, round, last_id);
    if (e) xq__conn_write(c, e->jsonl, 0);
  }
  return XQ_OK;
}

static int wait_for_level(xq__server *s, xq__conn *c, int round, xq__buf *head);
static int level(const xq__server *s);

int xq__hub_watch(xq__server *s, xq__conn *c, int round, int64_t last_id)
{
  xq__hub *h = s->hub;
  if (!h || c->closing) return XQ_EINVAL;
  if (c->hub_watch) xq__hub_unwatch(s, c);
  if (h->nsubs >= XQ_MAX_CONNS) return XQ_ELIMIT;
  c->out_mode = XQ__OUT_DROP;
  c->hub_watch = 1;
  int64_t newest;
  int pub = c->role == XQ_ROLE_NONE;
  /* a snapshot made while a move is judged and its event not out would
   * hold the move, and its event would follow: wait, as a stream does
   * (what the delay released is level always) */
  if (start_kind(s, last_id, &newest, &pub) == START_SNAPSHOT && !pub && !level(s))
    return wait_for_level(s, c, round, NULL);
  return subscribe(s, c, round, last_id);
}

/* Hand `c` to the fan-out with the start of its stream: `head` (a
 * reference: the fan-out's, or dropped), then a snapshot or the replay. */
static int hand_over(xq__server *s, xq__conn *c, int round, int64_t last_id, xq__buf *head)
{
  xq__hub *h = s->hub;
  int64_t newest;
  int pub = 1; /* a viewer of the event stream is anonymous */
  int kind = start_kind(s, last_id, &newest, &pub);
  xq__buf **start = malloc(sizeof *start * (size_t)(2 + (kind == START_REPLAY ? h->count : 0)));
  if (!start) {
    xq__buf_unref(head);
    return XQ_ENOMEM;
  }
  int n = 0, rc = XQ_ENOMEM;
  start[n++] = head;
  if (kind == START_SNAPSHOT) {
    if (!(start[n] = shared_snapshot(s, FMT_SSE, round, newest, pub))) goto fail;
    n++;
  }
  for (int i = 0; kind == START_REPLAY && i < h->count; i++) {
    const hub_event *e = replayed(h, i, round, last_id);
    if (!e) continue;
    xq__buf_ref(e->sse);
    start[n++] = e->sse;
  }
  /* from here on the fan-out has the connection and its start */
  if ((rc = xq__fanout_adopt(h->fanout, c, round, start, n)) == XQ_OK) return XQ_OK;
fail:
  for (int i = 0; i < n; i++) xq__buf_unref(start[i]);
  free(start);
  return rc;
}

/* The games are as broadcast: no event is judged whose row is not yet
 * durable and its event published (the group commit has nothing queued
 * and none under way). */
static int level(const xq__server *s) { return xq__commit_queued(s) == 0 && xq__commit_idle(s); }

/* After a group commit: the streams waiting for a snapshot get it once
 * the games are level with the broadcast, or once the oldest has waited
 * XQ_SNAPSHOT_WAIT_MS; else after the next commit. */
static void waits_check(xq__server *s, void *arg, int status)
{
  (void)status, (void)arg;
  xq__hub *h = s->hub;
  h->wait_armed = 0;
  if (!h->nwaits) return;
  int late = uv_now(s->loop) - h->wait_since >= XQ_SNAPSHOT_WAIT_MS;
  if (!level(s) && !late && !s->stopping) {
    h->wait_armed = 1;
    xq__commit_then(s, waits_check, NULL);
    return;
  }
  hub_wait *w = h->waits;
  int n = h->nwaits;
  h->waits = NULL;
  h->nwaits = h->capwaits = 0;
  for (int i = 0; i < n; i++) {
    xq__conn *c = w[i].c;
    int rc = XQ_EINVAL, watcher = !w[i].head;
    if (watcher && w[i].gone) rc = XQ_OK; /* unwatched meanwhile: nothing to do */
    else if (c->closing || s->stopping) xq__buf_unref(w[i].head);
    else if (watcher) rc = subscribe(s, c, w[i].round, -1);
    else rc = hand_over(s, c, w[i].round, -1, w[i].head);
    if (rc != XQ_OK && !c->closing) {
      xq__log(s, "close %s: the %s could not begin (%s)", c->peer, watcher ? "watch" : "event stream",
              xq_strerror(rc));
      xq__conn_close(c);
    }
    xq__conn_unref(c);
  }
  free(w);
}

int xq__hub_stream(xq__server *s, xq__conn *c, int round, int64_t last_id, const char *head, size_t len)
{
  xq__hub *h = s->hub;
  if (!h || !h->fanout || c->closing || s->stopping) return XQ_EINVAL;
  /* refused before a snapshot is made for nothing */
  if (xq__fanout_full(h->fanout)) return XQ_ELIMIT;
  xq__buf *hb = xq__buf_copy(head, len);
  if (!hb) return XQ_ENOMEM;
  int64_t newest;
  int pub = 1;
  if (start_kind(s, last_id, &newest, &pub) != START_SNAPSHOT || pub || level(s))
    return hand_over(s, c, round, last_id, hb);
  /* a move is judged and its event not out yet: a snapshot now would
   * hold it, and its event would follow. The stream waits until the
   * games are level with the broadcast (a commit or two). */
  return wait_for_level(s, c, round, hb);
}

/* Queue `c` (a stream with its response head `head`, or a watcher with
 * NULL) until the games are level with the broadcast; waits_check runs
 * after the next commit. XQ_OK, or XQ_ENOMEM (head dropped). */
static int wait_for_level(xq__server *s, xq__conn *c, int round, xq__buf *head)
{
  xq__hub *h = s->hub;
  if (h->nwaits == h->capwaits) {
    int cap = h->capwaits ? h->capwaits * 2 : 16;
    hub_wait *w = realloc(h->waits, sizeof *w * (size_t)cap);
    if (!w) {
      xq__buf_unref(head);
      return XQ_ENOMEM;
    }
    h->waits = w;
    h->capwaits = cap;
  }
  if (!h->nwaits) h->wait_since = uv_now(s->loop);
  h->waits[h->nwaits++] = (hub_wait){c, round, head, 0};
  xq__conn_ref(c);
  if (!h->wait_armed) {
    h->wait_armed = 1;
    xq__commit_then(s, waits_check, NULL);
  }
  return XQ_OK;
}

void xq__hub_unwatch(xq__server *s, xq__conn *c)
{
  xq__hub *h = s->hub;
  if (!c->hub_watch) return;
  c->hub_watch = 0;
  if (!h) return;
  for (int i = 0; i < h->nwaits; i++) /* waiting for its snapshot */
    if (h->waits[i].c == c && !h->waits[i].head) h->waits[i].gone = 1;
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
  return h->nsubs - h->holes + xq__fanout_viewers(h->fanout);
}

int xq__hub_fanout_status(const xq__server *s) { return s->hub ? xq__fanout_status(s->hub->fanout) : 0; }
