/*
 * test_net_fanout.c -- the SSE viewers on the fan-out thread (fanout.c),
 * against a real server on 127.0.0.1: 2,000 viewers and 100 boards, the
 * boards' replies complete and in order and every viewer given every
 * event once and in order; viewers that join during play (a snapshot,
 * then every event after it: no gap, none twice), and JSON-lines
 * watchers that do (the same, on the loop: hub.c); a viewer that
 * reconnects with Last-Event-ID; viewers that take no connection slot
 * of the boards; the viewers' own cap. (A viewer that stops reading is
 * dropped: test_net_http.c.) Every test ends with uv_loop_close() == 0 on
 * the server's loop and on the fan-out's.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "conn.h"
#include "hub.h"
#include "net_fixture.h"

TestSuite(net_fanout, .fini = xq_fx_end, .timeout = 120);

#define TABLES_MAX 100   /* boards of the tests' rounds */
#define VIEWER_LINE 1024 /* a viewer keeps a line this long (a snapshot: VIEWER_BIG) */
#define VIEWER_BIG (256 * 1024)
#define VIEWER_IDS 1024  /* event ids a viewer keeps */

/* The moves each board plays: legal in turn from the start. */
static const char *const moves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"};
#define MOVES ((int)(sizeof moves / sizeof moves[0]))

/* ------------------------------------------------------------------ */
/* A lean SSE viewer: it checks its stream as it comes                 */
/* ------------------------------------------------------------------ */

typedef struct viewer {
  uv_tcp_t tcp;
  uv_connect_t creq;
  uv_write_t wreq;
  char req[256];
  int connected, failed, eof, closed;
  int head;                    /* the response head is over (the stream has begun) */
  char tail[4];                /* the last bytes of the head */
  char *line;                  /* the line being received ... */
  size_t ll, cap;
  int truncated;               /* ... longer than cap: not kept */
  char type[32];               /* the event being received: its type and id */
  long long id;
  long long ids[VIEWER_IDS];   /* the ids of the events received, in order */
  int nids;
  long moves;                  /* "move" events */
  int ply[TABLES_MAX + 1];     /* the last ply seen at each table */
  long long snapshot_id;       /* the snapshot's id, 0 none */
  int errors;                  /* out of order, twice, a ply skipped ... */
  char error[160];             /* ... the first */
} viewer;

static void v_error(viewer *v, const char *fmt, long long a, long long b)
{
  if (!v->errors++) snprintf(v->error, sizeof v->error, fmt, a, b);
}

static int field(const char *text, const char *key)
{
  const char *p = strstr(text, key);
  return p ? atoi(p + strlen(key)) : -1;
}

/* The snapshot's games: the ply each table is at. */
static void v_snapshot(viewer *v, const char *data)
{
  cJSON *j = cJSON_Parse(data);
  const cJSON *g;
  cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "games"))
  {
    int t = (int)cJSON_GetObjectItemCaseSensitive(g, "table")->valuedouble;
    if (t >= 1 && t <= TABLES_MAX) v->ply[t] = (int)cJSON_GetObjectItemCaseSensitive(g, "ply")->valuedouble;
  }
  if (!j) v_error(v, "a snapshot that is not JSON (%lld, %lld)", v->id, 0);
  cJSON_Delete(j);
  v->snapshot_id = v->id;
}

/* One line of the stream (without its '\n'). */
static void v_line(viewer *v, const char *l, int truncated)
{
  if (!strncmp(l, "id: ", 4)) {
    v->id = atoll(l + 4);
  } else if (!strncmp(l, "event: ", 7)) {
    snprintf(v->type, sizeof v->type, "%s", l + 7);
  } else if (!strncmp(l, "data: ", 6) && !strcmp(v->type, "snapshot")) {
    if (truncated) v_error(v, "a snapshot over the line buffer (%lld, %lld)", v->id, 0);
    else v_snapshot(v, l + 6);
  } else if (!strncmp(l, "data: ", 6) && !strcmp(v->type, "move")) {
    int t = field(l, "\"table\":"), p = field(l, "\"ply\":");
    if (t < 1 || t > TABLES_MAX || p != v->ply[t] + 1) v_error(v, "table %lld: ply %lld out of turn", t, p);
    else v->ply[t] = p;
    v->moves++;
  } else if (!*l && v->type[0]) {
    /* the event is over: its id after the one before */
    long long last = v->nids ? v->ids[v->nids - 1] : 0;
    if (v->id <= last) v_error(v, "event %lld after %lld", v->id, last);
    if (v->nids < VIEWER_IDS) v->ids[v->nids++] = v->id;
    v->type[0] = 0;
  }
}

static void v_bytes(viewer *v, const char *p, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (!v->head) {
      /* the response head ends with an empty line */
      memmove(v->tail, v->tail + 1, 3);
      v->tail[3] = ch;
      v->head = !memcmp(v->tail, "\r\n\r\n", 4);
      continue;
    }
    if (ch != '\n') {
      if (v->ll + 1 < v->cap) v->line[v->ll++] = ch;
      else v->truncated = 1;
      continue;
    }
    v->line[v->ll] = 0;
    v_line(v, v->line, v->truncated);
    v->ll = 0;
    v->truncated = 0;
  }
}

static void v_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
  (void)h, (void)hint;
  static char scratch[65536]; /* one loop, one read at a time */
  *buf = uv_buf_init(scratch, sizeof scratch);
}

static void v_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
  viewer *v = s->data;
  if (n > 0) v_bytes(v, buf->base, (size_t)n);
  else if (n < 0) {
    v->eof = 1;
    uv_read_stop(s);
  }
}

static void v_written(uv_write_t *w, int status) { (void)w, (void)status; }

static void v_connected(uv_connect_t *req, int status)
{
  viewer *v = req->data;
  if (status) {
    v->failed = 1;
    return;
  }
  v->connected = 1;
  uv_buf_t b = uv_buf_init(v->req, (unsigned)strlen(v->req));
  uv_write(&v->wreq, (uv_stream_t *)&v->tcp, &b, 1, v_written);
  uv_read_start((uv_stream_t *)&v->tcp, v_alloc, v_read);
}

/* Connect and ask for the stream with `extra` header lines ("" none)
 * and the query `query` ("" none); returns at once. */
static void v_open(viewer *v, const char *query, const char *extra, size_t cap)
{
  memset(v, 0, sizeof *v);
  v->cap = cap;
  v->line = malloc(cap);
  cr_assert_not_null(v->line);
  snprintf(v->req, sizeof v->req, "GET /api/events%s HTTP/1.1\r\nHost: t\r\n%s\r\n", query, extra);
  uv_tcp_init(&ts.loop, &v->tcp);
  v->tcp.data = v->creq.data = v;
  struct sockaddr_in sa;
  uv_ip4_addr("127.0.0.1", ts.http_port, &sa);
  cr_assert_eq(uv_tcp_connect(&v->creq, &v->tcp, (const struct sockaddr *)&sa, v_connected), 0);
}

static void v_closed(uv_handle_t *h) { ((viewer *)h->data)->closed = 1; }

typedef struct crowd {
  viewer *v;
  int from, n;                 /* viewers v[from..n) */
  long moves;                  /* ... each with this many moves */
  int tables, ply;             /* ... each with tables 1..tables at this ply */
} crowd;

static int crowd_closed(void *a)
{
  crowd *c = a;
  for (int i = c->from; i < c->n; i++)
    if (!c->v[i].closed) return 0;
  return 1;
}

/* Close viewers v[from..n). */
static void v_close(viewer *v, int from, int n)
{
  for (int i = from; i < n; i++) uv_close((uv_handle_t *)&v[i].tcp, v_closed);
  crowd c = {v, from, n, 0, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_closed, &c, 10000));
  for (int i = from; i < n; i++) free(v[i].line);
}

/* ------------------------------------------------------------------ */
/* Waiting                                                             */
/* ------------------------------------------------------------------ */

static int crowd_begun(void *a)
{
  crowd *c = a;
  for (int i = c->from; i < c->n; i++)
    if (!c->v[i].head && !c->v[i].failed && !c->v[i].eof) return 0;
  return 1;
}

static int crowd_moved(void *a)
{
  crowd *c = a;
  for (int i = c->from; i < c->n; i++)
    if (c->v[i].moves < c->moves && !c->v[i].eof) return 0;
  return 1;
}

static int crowd_at(void *a)
{
  crowd *c = a;
  for (int i = c->from; i < c->n; i++)
    for (int t = 1; t <= c->tables; t++)
      if (c->v[i].ply[t] < c->ply && !c->v[i].eof) return 0;
  return 1;
}

static int crowd_ended(void *a)
{
  crowd *c = a;
  for (int i = c->from; i < c->n; i++)
    if (!c->v[i].eof) return 0;
  return 1;
}

static int subscribed(void *a) { return xq__hub_subscribers(ts.srv) == *(int *)a; }

/* Open viewers v[from..n) with `query`, a batch at a time (the listen
 * backlog), until each stream has begun. */
static void crowd_open(viewer *v, int from, int n, const char *query, size_t cap)
{
  int batch = 1000; /* past XQ_ACCEPT_BURST, within XQ_LISTEN_BACKLOG */
  for (int b = from; b < n; b += batch) {
    int e = b + batch < n ? b + batch : n;
    for (int i = b; i < e; i++) v_open(&v[i], query, "", cap);
    crowd c = {v, b, e, 0, 0, 0};
    cr_assert(xq_tc_run_until(&ts.loop, crowd_begun, &c, 20000), "viewers %d..%d began", b, e);
    for (int i = b; i < e; i++) cr_assert(v[i].head && !v[i].eof, "viewer %d has its stream", i);
  }
}

/* Run until the hub counts `n` subscribers. */
static void subscribers(int n)
{
  cr_assert(xq_tc_run_until(&ts.loop, subscribed, &n, 10000), "%d subscribers, not %d", n,
            xq__hub_subscribers(ts.srv));
}

/* ------------------------------------------------------------------ */
/* Boards                                                              */
/* ------------------------------------------------------------------ */

static void board_hello(xq_tclient *c, const char *token)
{
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.port), 0);
  xq_tc_okf(c, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", token);
}

/* Send moves [from, to) of every board at once, pipelined. */
static void boards_send(xq_tclient *b, int n, int from, int to)
{
  char line[128];
  for (int i = 0; i < n; i++)
    for (int k = from; k < to; k++) {
      snprintf(line, sizeof line, "{\"id\":%d,\"op\":\"move\",\"seq\":%d,\"move\":\"%s\"}", k + 1, k + 1, moves[k]);
      xq_tc_send(&b[i], line);
    }
}

/* The replies to moves [from, to) of every board: all of them, ok, in
 * the order sent. */
static void boards_replies(xq_tclient *b, int n, int from, int to)
{
  for (int i = 0; i < n; i++)
    for (int k = from; k < to; k++) {
      cJSON *r = xq_tc_reply(&b[i], 20000);
      cr_assert_not_null(r, "board %d: the reply to move %d", i + 1, k + 1);
      const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
      cr_assert(cJSON_IsNumber(id) && id->valueint == k + 1, "board %d: reply %d in order", i + 1, k + 1);
      cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "ok")), "board %d: move %d accepted", i + 1, k + 1);
      cJSON_Delete(r);
    }
}

/* Every viewer of v[0..n): no error, and the events of `ref` after its
 * start (its snapshot, or the first event it saw when `from_id` is 0)
 * exactly. */
static void same_events(const viewer *v, int n, const viewer *ref)
{
  for (int i = 0; i < n; i++) {
    cr_assert_eq(v[i].errors, 0, "viewer %d: %s", i, v[i].error);
    int k = 0;
    /* the reference's events from the first that follows v's start */
    long long after = v[i].snapshot_id ? v[i].snapshot_id : v[i].nids ? v[i].ids[0] - 1 : 0;
    while (k < ref->nids && ref->ids[k] <= after) k++;
    int first = v[i].snapshot_id ? 1 : 0; /* the snapshot is the first id */
    cr_assert_eq(v[i].nids - first, ref->nids - k, "viewer %d: %d events, the reference %d after %lld", i,
                 v[i].nids - first, ref->nids - k, after);
    for (int j = first; j < v[i].nids; j++)
      cr_assert_eq(v[i].ids[j], ref->ids[k + j - first], "viewer %d: event %d", i, j);
  }
}

/* A server with `players` / 2 boards in round 1 and their tokens. */
static void up(int players, const xq_ts_tuning *t)
{
  xq_fx_up_tuned(players, t);
  cr_assert_geq(ts.nboards, players / 2);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

Test(net_fanout, two_thousand_viewers_and_a_hundred_boards)
{
  /* a descriptor per viewer on each side, and the boards' */
  struct rlimit rl;
  cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
  int nv = 2000, nb = TABLES_MAX;
  if (rl.rlim_cur < (rlim_t)(2 * nv + 2 * nb + 64)) {
    nv = (int)(rl.rlim_cur - 2 * nb - 64) / 2;
    cr_log_warn("an open-file limit of %ld: %d viewers, not 2000", (long)rl.rlim_cur, nv);
  }
  up(2 * nb, NULL);
  viewer *v = calloc((size_t)nv, sizeof *v);
  cr_assert_not_null(v);
  /* most follow only what is new, a few start with a snapshot */
  crowd_open(v, 0, nv - 20, "?last_event=0", VIEWER_LINE);
  crowd_open(v, nv - 20, nv, "", VIEWER_BIG);
  subscribers(nv);

  xq_tclient *b = calloc((size_t)nb, sizeof *b);
  for (int i = 0; i < nb; i++) board_hello(&b[i], ts.board[i]);
  int per = 3;
  boards_send(b, nb, 0, per);
  boards_replies(b, nb, 0, per);
  crowd all = {v, 0, nv, (long)nb * per, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_moved, &all, 60000), "every viewer got every move");
  for (int i = 0; i < nv; i++) {
    cr_assert(!v[i].eof, "viewer %d still has its stream", i);
    cr_assert_eq(v[i].moves, (long)nb * per, "viewer %d: %ld moves", i, v[i].moves);
    for (int t = 1; t <= nb; t++) cr_assert_eq(v[i].ply[t], per, "viewer %d, table %d", i, t);
  }
  same_events(v, nv, &v[0]);
  cr_assert_eq(v[0].nids, nb * per, "the move events and nothing else");
  for (int i = 0; i < nb; i++) xq_tc_close(&b[i]);
  /* the viewers are open when the server stops: it ends them */
  xq_server_stop(ts.srv);
  cr_assert(xq_tc_run_until(&ts.loop, crowd_ended, &all, 20000), "the server ended every stream");
  v_close(v, 0, nv);
  free(v);
  free(b);
}

Test(net_fanout, viewers_that_join_during_play_get_a_snapshot_then_every_event_after_it)
{
  int nb = 8, nv = 40;
  up(2 * nb, NULL);
  viewer *v = calloc((size_t)nv + 1, sizeof *v);
  viewer *ref = &v[nv];
  crowd_open(ref, 0, 1, "?last_event=0", VIEWER_LINE);
  xq_tclient b[8];
  for (int i = 0; i < nb; i++) board_hello(&b[i], ts.board[i]);
  /* a move of every board at a time, and viewers asking for the stream
   * while it is judged and committed: their snapshots fall between
   * events, anywhere */
  for (int k = 0; k < MOVES; k++) {
    boards_send(b, nb, k, k + 1);
    for (int i = k * nv / MOVES; i < (k + 1) * nv / MOVES; i++) v_open(&v[i], "", "", VIEWER_BIG);
    boards_replies(b, nb, k, k + 1);
  }
  crowd all = {v, 0, nv + 1, 0, nb, MOVES};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_begun, &all, 10000));
  cr_assert(xq_tc_run_until(&ts.loop, crowd_at, &all, 10000), "every viewer has every table at the last ply");
  for (int i = 0; i <= nv; i++)
    for (int t = 1; t <= nb; t++) cr_assert_eq(v[i].ply[t], MOVES, "viewer %d, table %d: %s", i, t, v[i].error);
  for (int i = 0; i < nv; i++) cr_assert_gt(v[i].snapshot_id, 0, "viewer %d started with a snapshot", i);
  same_events(v, nv, ref);
  v_close(v, 0, nv + 1);
  for (int i = 0; i < nb; i++) xq_tc_close(&b[i]);
  free(v);
}

/* A JSON-lines watcher that asked for a snapshot: its snapshot, then
 * every move event the next ply of its table, until each of the `nb`
 * tables is at ply `to`. */
static void watcher_check(xq_tclient *w, int nb, int to, int who)
{
  int ply[TABLES_MAX + 1] = {0}, snap = 0, done = 0;
  cJSON *ok = xq_tc_reply(w, 10000);
  cr_assert(ok && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ok, "ok")), "watcher %d: the watch is answered", who);
  cJSON_Delete(ok);
  while (done < nb) {
    char *l = xq_tc_line(w, 10000);
    cr_assert_not_null(l, "watcher %d: %d of %d tables at ply %d", who, done, nb, to);
    cJSON *j = cJSON_Parse(l);
    free(l);
    const char *ev = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "event"));
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(j, "data"), *g;
    cr_assert(ev && data, "watcher %d: an event", who);
    if (!strcmp(ev, "snapshot")) {
      cr_assert(!snap, "watcher %d: one snapshot", who);
      snap = 1;
      cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(data, "games"))
      {
        int t = (int)cJSON_GetObjectItemCaseSensitive(g, "table")->valuedouble;
        if (t < 1 || t > nb) continue;
        ply[t] = (int)cJSON_GetObjectItemCaseSensitive(g, "ply")->valuedouble;
        done += ply[t] == to;
      }
    } else if (!strcmp(ev, "move")) {
      cr_assert(snap, "watcher %d: the snapshot comes first", who);
      int t = (int)cJSON_GetObjectItemCaseSensitive(j, "table")->valuedouble;
      int p = (int)cJSON_GetObjectItemCaseSensitive(data, "ply")->valuedouble;
      cr_assert_eq(p, ply[t] + 1, "watcher %d, table %d: the event of ply %d after a snapshot at %d", who, t, p, ply[t]);
      ply[t] = p;
      done += p == to;
    }
    cJSON_Delete(j);
  }
}

Test(net_fanout, watchers_that_join_during_play_get_a_snapshot_without_a_move_whose_event_follows)
{
  int nb = 8, nw = 3 * MOVES;
  up(2 * nb, NULL);
  xq_tclient b[8], *w = calloc((size_t)nw, sizeof *w);
  for (int i = 0; i < nb; i++) board_hello(&b[i], ts.board[i]);
  /* the watches come right behind each move of every board: judged,
   * not yet durable nor broadcast */
  for (int k = 0; k < MOVES; k++) {
    boards_send(b, nb, k, k + 1);
    for (int i = 3 * k; i < 3 * k + 3; i++) {
      cr_assert_eq(xq_tc_connect(&w[i], &ts.loop, ts.port), 0);
      xq_tc_send(&w[i], "{\"id\":1,\"op\":\"watch\",\"last_event\":-1}");
    }
    boards_replies(b, nb, k, k + 1);
  }
  for (int i = 0; i < nw; i++) watcher_check(&w[i], nb, MOVES, i);
  for (int i = 0; i < nw; i++) xq_tc_close(&w[i]);
  for (int i = 0; i < nb; i++) xq_tc_close(&b[i]);
  free(w);
}

Test(net_fanout, a_viewer_that_reconnects_with_last_event_id_gets_what_it_missed)
{
  int nb = 4;
  up(2 * nb, NULL);
  viewer *v = calloc(2, sizeof *v), *ref = &v[0], *a = &v[1];
  crowd_open(v, 0, 2, "?last_event=0", VIEWER_LINE);
  xq_tclient b[4];
  for (int i = 0; i < nb; i++) board_hello(&b[i], ts.board[i]);
  boards_send(b, nb, 0, 2);
  boards_replies(b, nb, 0, 2);
  crowd c = {v, 1, 2, 2L * nb, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_moved, &c, 10000));
  long long last = a->ids[a->nids - 1];
  int before = a->nids;
  v_close(v, 1, 2);
  subscribers(1);
  /* what it misses meanwhile */
  boards_send(b, nb, 2, 4);
  boards_replies(b, nb, 2, 4);
  crowd r = {v, 0, 1, 4L * nb, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_moved, &r, 10000));
  /* back, as a browser comes back */
  char hdr[64];
  snprintf(hdr, sizeof hdr, "Last-Event-ID: %lld\r\n", last);
  v_open(a, "", hdr, VIEWER_LINE);
  for (int t = 1; t <= nb; t++) a->ply[t] = 2;
  crowd back = {v, 1, 2, 0, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_begun, &back, 10000));
  subscribers(2);
  boards_send(b, nb, 4, 6);
  boards_replies(b, nb, 4, 6);
  crowd both = {v, 0, 2, 0, nb, 6};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_at, &both, 10000), "%ld moves after the resume", a->moves);
  cr_assert_eq(a->snapshot_id, 0, "a resume, not a snapshot");
  cr_assert_eq(a->errors, 0, "%s", a->error);
  cr_assert_eq(a->moves, 4L * nb, "what it missed and what followed, each once");
  /* the events after `last`, in order: the reference's */
  int k = 0;
  while (ref->ids[k] <= last) k++;
  cr_assert_eq(k, before);
  cr_assert_eq(a->nids, ref->nids - k);
  for (int j = 0; j < a->nids; j++) cr_assert_eq(a->ids[j], ref->ids[k + j]);
  v_close(v, 0, 2);
  for (int i = 0; i < nb; i++) xq_tc_close(&b[i]);
  free(v);
}

Test(net_fanout, viewers_take_no_connection_slot_of_the_boards)
{
  /* four anonymous slots: the viewers pass through them one by one */
  xq_ts_tuning four = {.anon_conns_max = 4};
  up(8, &four);
  int nv = 60;
  viewer *v = calloc((size_t)nv, sizeof *v);
  for (int i = 0; i < nv; i += 4) crowd_open(v, i, i + 4, "?last_event=0", VIEWER_LINE);
  subscribers(nv);
  cr_assert_eq(ts.srv->nanon, 0, "no viewer holds an anonymous slot");
  cr_assert_eq(ts.srv->nconns, 0, "nor any slot");
  /* an anonymous request and a board are served as ever */
  xq_tresp r;
  cr_assert_eq(xq_tc_http(&ts.loop, ts.http_port, "GET /api/event HTTP/1.1\r\nHost: t\r\n\r\n", &r), 0);
  cr_assert_eq(r.status, 200);
  xq_tresp_free(&r);
  xq_tclient b;
  board_hello(&b, ts.board[0]);
  boards_send(&b, 1, 0, 1);
  boards_replies(&b, 1, 0, 1);
  crowd all = {v, 0, nv, 1, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_moved, &all, 10000), "every viewer got the move");
  xq_tc_close(&b);
  v_close(v, 0, nv);
  /* with the four anonymous slots held, a viewer comes in on a reserved
   * one and leaves it as its stream begins */
  xq_tclient idle[4];
  for (int i = 0; i < 4; i++) cr_assert_eq(xq_tc_connect(&idle[i], &ts.loop, ts.http_port), 0);
  subscribers(0);
  v_open(&v[0], "?last_event=0", "", VIEWER_LINE);
  crowd one = {v, 0, 1, 0, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_begun, &one, 5000));
  cr_assert(v[0].head && !v[0].eof, "the stream began");
  subscribers(1);
  cr_assert_eq(ts.srv->nreserve, 0, "and holds no reserved slot");
  cr_assert_eq(ts.srv->nanon, 4);
  v_close(v, 0, 1);
  for (int i = 0; i < 4; i++) xq_tc_close(&idle[i]);
  free(v);
}

Test(net_fanout, viewers_have_a_cap_of_their_own)
{
  xq_ts_tuning three = {.viewers_max = 3};
  up(8, &three);
  viewer *v = calloc(4, sizeof *v);
  crowd_open(v, 0, 3, "?last_event=0", VIEWER_LINE);
  subscribers(3);
  /* the fourth is told and ended */
  v_open(&v[3], "?last_event=0", "", VIEWER_LINE);
  crowd fourth = {v, 3, 4, 0, 0, 0};
  cr_assert(xq_tc_run_until(&ts.loop, crowd_ended, &fourth, 5000), "the fourth viewer was ended");
  cr_assert(v[3].head, "after an answer");
  cr_assert_eq(xq__hub_subscribers(ts.srv), 3);
  v_close(v, 3, 4);
  /* a place freed is a place taken again */
  v_close(v, 0, 1);
  subscribers(2);
  crowd_open(v, 0, 1, "?last_event=0", VIEWER_LINE);
  subscribers(3);
  v_close(v, 0, 3);
  free(v);
}
