/*
 * test_net_publish.c -- `serve --publish` (net/publish.c, docs/scale.md):
 * the --publish URL, the "at" of every event's SSE data, and a real
 * server posting its broadcast to a small fake nchan publisher on the
 * test's loop: every event once and in order, with its channels and type,
 * its body the SSE data; an edge that ends its connections with
 * "Connection: close"; an edge that is down while boards play (the
 * server serves on, and the queue goes out once it is up); a full queue
 * (events dropped and counted, the shutdown not held); an edge that
 * refuses. Every server test ends with uv_loop_close() == 0.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "conn.h"
#include "http_parse.h"
#include "hub.h"
#include "net_fixture.h"
#include "publish.h"

TestSuite(net_publish, .fini = xq_fx_end, .timeout = 60);

/* ------------------------------------------------------------------ */
/* The URL                                                             */
/* ------------------------------------------------------------------ */

Test(publish_url, parsed_once_into_host_port_and_path)
{
  xq_http_url u;
  xq_error err = {0};
  cr_assert_eq(xq_publish_url_parse("http://127.0.0.1:8091/pub/", &u, &err), XQ_OK);
  cr_assert_str_eq(u.host, "127.0.0.1");
  cr_assert_str_eq(u.port, "8091");
  cr_assert_str_eq(u.hostport, "127.0.0.1:8091");
  cr_assert_str_eq(u.target, "/pub/");
  cr_assert_eq(xq_publish_url_parse("http://edge.example/nchan/pub", &u, &err), XQ_OK);
  cr_assert_str_eq(u.port, "80");
  cr_assert_str_eq(u.hostport, "edge.example");
  cr_assert_str_eq(u.target, "/nchan/pub/", "a '/' is added: the channels follow it");
  cr_assert_eq(xq_publish_url_parse("http://[::1]:9000", &u, &err), XQ_OK);
  cr_assert_str_eq(u.host, "::1");
  cr_assert_str_eq(u.hostport, "[::1]:9000");
  cr_assert_str_eq(u.target, "/");
  const char *bad[] = {"https://127.0.0.1/pub/", "ftp://x/", "127.0.0.1:8091/pub/", "http://x:0/",
                       "http://x:65536/", "http:///pub/", "http://x/pub?x=1", "http://x/a b",
                       "http://x/%2e/", "http://u@x/"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_assert_eq(xq_publish_url_parse(bad[i], &u, &err), XQ_EINVAL, "%s", bad[i]);
  /* a viewer's URL (xqref loadgen) keeps its query */
  cr_assert_eq(xq_http_url_parse("http://127.0.0.1:8090/api/events?round=2#x", &u, &err), XQ_OK);
  cr_assert_str_eq(u.target, "/api/events?round=2");
  cr_assert_eq(xq_http_url_parse("http://127.0.0.1:8090?round=2", &u, &err), XQ_OK);
  cr_assert_str_eq(u.target, "/?round=2");
}

/* ------------------------------------------------------------------ */
/* A fake nchan publisher on the test's loop                           */
/* ------------------------------------------------------------------ */

#define POSTS_MAX 256

/* An event the edge took: a post of one event, or one line of a batch
 * post ("TYPE DATA" a line), split again here as the page splits it. */
typedef struct post {
  char target[128];
  char type[32];
  char *body;
  int post;                    /* the index of the post that carried it */
  int batch;                   /* 1 when that post was a batch */
  int64_t at;                  /* wall clock (µs) when the edge read it */
} post;

typedef struct fake_edge {
  uv_tcp_t listener;
  int fd;                      /* bound (edge_bind), then the listener's */
  int port;
  int listening;
  int status;                  /* of every answer (201 unless set) */
  int close_every;             /* answers a connection gets, the last with "Connection: close" (0: no end) */
  post posts[POSTS_MAX];       /* every event taken, in order */
  int nevents;
  int nposts;                  /* posts taken */
  int accepted;
  int open;                    /* connections not closed yet */
} fake_edge;

typedef struct edge_conn {
  uv_tcp_t tcp;
  fake_edge *e;
  xq__http_parser p;
  char in[65536];
  size_t len;
  int answered;
  int ending;                  /* the close answer was queued: nothing more is read */
} edge_conn;

typedef struct edge_write {
  uv_write_t w;
  edge_conn *c;
  int last;
  char text[256];
} edge_write;

static void edge_closed(uv_handle_t *h)
{
  edge_conn *c = h->data;
  c->e->open--;
  xq__http_parse_reset(&c->p);
  free(c);
}

static void edge_written(uv_write_t *w, int status)
{
  (void)status;
  edge_write *ew = w->data;
  if (ew->last && !uv_is_closing((uv_handle_t *)&ew->c->tcp)) uv_close((uv_handle_t *)&ew->c->tcp, edge_closed);
  free(ew);
}

static void edge_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
  (void)hint;
  edge_conn *c = h->data;
  *b = uv_buf_init(c->in + c->len, (unsigned)(sizeof c->in - c->len));
}

/* Keep the event `type` with data body[0..n) of the post being answered. */
static void edge_keep(fake_edge *e, const char *target, const char *type, size_t tlen, const char *body,
                      size_t n, int batch)
{
  cr_assert(e->nevents < POSTS_MAX);
  post *p = &e->posts[e->nevents++];
  snprintf(p->target, sizeof p->target, "%s", target);
  snprintf(p->type, sizeof p->type, "%.*s", (int)tlen, type);
  p->body = strndup(body, n);
  p->post = e->nposts;
  p->batch = batch;
  struct timeval tv;
  gettimeofday(&tv, NULL);
  p->at = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* Keep one request's events and answer it as nchan would. */
static void edge_answer(edge_conn *c)
{
  fake_edge *e = c->e;
  xq__http_req *q = &c->p.req;
  cr_assert_str_eq(q->method, "POST");
  const char *type = xq__http_parse_header(q, "X-EventSource-Event");
  const char *line = q->body ? q->body : "", *end = line + q->body_len;
  if (type && !strcmp(type, "batch")) {
    while (line < end) { /* a line each: "TYPE DATA" */
      const char *nl = memchr(line, '\n', (size_t)(end - line)), *le = nl ? nl : end;
      const char *sp = memchr(line, ' ', (size_t)(le - line));
      cr_assert(sp, "a batch line is TYPE DATA");
      edge_keep(e, q->target, line, (size_t)(sp - line), sp + 1, (size_t)(le - sp - 1), 1);
      line = nl ? nl + 1 : end;
    }
  } else {
    edge_keep(e, q->target, type ? type : "", type ? strlen(type) : 0, line, q->body_len, 0);
  }
  e->nposts++;
  edge_write *w = calloc(1, sizeof *w);
  w->c = c;
  w->w.data = w;
  w->last = e->close_every && ++c->answered == e->close_every;
  int st = e->status ? e->status : 201;
  int n = snprintf(w->text, sizeof w->text, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\n%sContent-Length: 18\r\n\r\n"
                   "queued messages: 1", st, xq__http_parse_status_text(st), w->last ? "Connection: close\r\n" : "");
  uv_buf_t b = uv_buf_init(w->text, (unsigned)n);
  uv_write(&w->w, (uv_stream_t *)&c->tcp, &b, 1, edge_written);
  if (w->last) {
    /* what was pipelined behind it is never read, as nginx does */
    c->ending = 1;
    uv_read_stop((uv_stream_t *)&c->tcp);
  }
}

static void edge_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
  (void)b;
  edge_conn *c = st->data;
  if (n < 0) {
    if (!uv_is_closing((uv_handle_t *)st)) uv_close((uv_handle_t *)st, edge_closed);
    return;
  }
  c->len += (size_t)n;
  size_t used = 0;
  while (!c->ending && used < c->len) {
    long r = xq__http_parse(&c->p, c->in + used, c->len - used);
    cr_assert_geq(r, 0, "the publisher's request parses");
    used += (size_t)r;
    /* the edge takes every body it is offered */
    if (c->p.state == XQ__HP_HEAD_DONE)
      cr_assert_eq(xq__http_parse_body(&c->p, XQ_HTTP_BODY_MAX), 0, "the body's length is fine");
    if (c->p.state != XQ__HP_DONE) {
      if (r == 0) break;
      continue;
    }
    edge_answer(c);
    xq__http_parse_reset(&c->p);
  }
  memmove(c->in, c->in + used, c->len - used);
  c->len -= used;
}

static void edge_accept(uv_stream_t *l, int status)
{
  fake_edge *e = l->data;
  if (status) return;
  edge_conn *c = calloc(1, sizeof *c);
  c->e = e;
  xq__http_parse_init(&c->p);
  uv_tcp_init(l->loop, &c->tcp);
  c->tcp.data = c;
  uv_accept(l, (uv_stream_t *)&c->tcp);
  e->accepted++;
  e->open++;
  uv_read_start((uv_stream_t *)&c->tcp, edge_alloc, edge_read);
}

/* Bind a socket to a free port of 127.0.0.1 (e->port), not listening:
 * the port stays the test's, and a connection to it is refused until
 * edge_listen. */
static void edge_bind(fake_edge *e)
{
  e->fd = socket(AF_INET, SOCK_STREAM, 0);
  cr_assert_geq(e->fd, 0);
  struct sockaddr_in sa;
  uv_ip4_addr("127.0.0.1", 0, &sa);
  cr_assert_eq(bind(e->fd, (const struct sockaddr *)&sa, sizeof sa), 0);
  socklen_t len = sizeof sa;
  getsockname(e->fd, (struct sockaddr *)&sa, &len);
  e->port = ntohs(sa.sin_port);
}

/* Listen on the bound socket, on the test's loop. */
static void edge_listen(fake_edge *e)
{
  uv_tcp_init(&ts.loop, &e->listener);
  e->listener.data = e;
  cr_assert_eq(uv_tcp_open(&e->listener, e->fd), 0);
  cr_assert_eq(uv_listen((uv_stream_t *)&e->listener, 16, edge_accept), 0);
  e->listening = 1;
}

static void listener_closed(uv_handle_t *h) { (void)h; }

/* Stop listening (or close the bound socket) and let the connections end
 * (the server's shutdown closes its side). */
static void edge_stop(fake_edge *e)
{
  if (e->listening) uv_close((uv_handle_t *)&e->listener, listener_closed);
  else if (e->fd >= 0) close(e->fd);
  e->listening = 0;
  e->fd = -1;
}

static void edge_free(fake_edge *e)
{
  for (int i = 0; i < e->nevents; i++) free(e->posts[i].body);
}

/* A server that posts to 127.0.0.1:port; the publisher connects at the
 * first event, so the fake edge can listen on the server's loop after it
 * started. */
static void start_with_edge_tuned(int port, const xq_ts_tuning *t)
{
  static xq_http_url u;
  char url[64];
  snprintf(url, sizeof url, "http://127.0.0.1:%d/pub/", port);
  xq_error err = {0};
  cr_assert_eq(xq_publish_url_parse(url, &u, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_ts_start_publish(&ts, 16, &u, t), 0, "server starts");
}

static void start_with_edge(int port) { start_with_edge_tuned(port, NULL); }

/* A server posting to the fake edge `e` (set up by the caller), both on
 * the test's loop; and their end, which proves that no handle was left. */
static void up_with_edge_tuned(fake_edge *e, const xq_ts_tuning *t)
{
  edge_bind(e);
  start_with_edge_tuned(e->port, t);
  edge_listen(e);
}

static void up_with_edge(fake_edge *e) { up_with_edge_tuned(e, NULL); }

static void down_with_edge(fake_edge *e)
{
  edge_stop(e);
  xq_fx_down();
  edge_free(e);
}

/* ------------------------------------------------------------------ */
/* Boards, a direct stream, and what reached the edge                  */
/* ------------------------------------------------------------------ */

/* What a test waits for: n events at the edge e, or n data lines on the
 * stream s. */
typedef struct wait_n {
  fake_edge *e;
  xq_tclient *s;
  int n;
} wait_n;

static int has_posts(void *a)
{
  wait_n *w = a;
  return w->e->nevents >= w->n;
}

static void wait_posts(fake_edge *e, int n, int ms)
{
  wait_n w = {.e = e, .n = n};
  cr_assert(xq_tc_run_until(&ts.loop, has_posts, &w, ms), "%d of %d events reached the edge", e->nevents, n);
}

static xq__publish_info info(void)
{
  xq__publish_info i;
  cr_assert_eq(xq__publish_info_get(ts.srv, &i), XQ_OK);
  return i;
}

/* The direct stream, without a snapshot: only what follows. */
static void sse_open(xq_tclient *c)
{
  static const char req[] = "GET /api/events?last_event=0 HTTP/1.1\r\nHost: t\r\n\r\n";
  cr_assert_eq(xq_tc_connect(c, &ts.loop, ts.http_port), 0);
  xq_tc_send_raw(c, req, sizeof req - 1);
  char *head = xq_tc_line(c, 5000);
  cr_assert(head && !strncmp(head, "HTTP/1.1 200", 12));
  free(head);
}

/* Boards 1..boards of round 1 play h2e2 and h9g7: 2 * boards moves,
 * each acknowledged (so, durable and broadcast). */
static void play(int boards)
{
  static const char *const moves[] = {"h2e2", "h9g7"};
  for (int t = 1; t <= boards; t++) {
    xq_tclient b;
    cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
    xq_tc_okf(&b, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[t - 1]);
    for (int m = 0; m < 2; m++) xq_tc_okf(&b, "{\"id\":%d,\"op\":\"move\",\"seq\":%d,\"move\":\"%s\"}", m + 1, m + 1, moves[m]);
    xq_tc_close(&b);
  }
}

/* The i-th (0-based) "data: " line of the stream s, or NULL; malloc'd. */
static char *nth_data(const xq_tclient *s, int i)
{
  const char *p = s->in;
  while ((p = strstr(p, "\ndata: "))) {
    p += 7;
    if (i-- == 0) return strndup(p, strcspn(p, "\n"));
  }
  return NULL;
}

static int has_data_lines(void *a)
{
  wait_n *w = a;
  char *d = nth_data(w->s, w->n - 1);
  free(d);
  return d != NULL;
}

/* The edge got exactly the `n` events of the direct stream, in order: as
 * moves of round 1 on channels all and r1, their data as the body. */
static void same_as_stream(fake_edge *e, xq_tclient *s, int n)
{
  wait_n w = {.s = s, .n = n};
  cr_assert(xq_tc_run_until(&ts.loop, has_data_lines, &w, 10000));
  wait_posts(e, n, 5000); /* the last may wait for the next post's time */
  xq_tc_spin(&ts.loop, 50);
  cr_assert_eq(e->nevents, n, "each event once");
  for (int i = 0; i < n; i++) {
    char *d = nth_data(s, i);
    cr_assert_str_eq(e->posts[i].target, "/pub/all,r1");
    cr_assert_str_eq(e->posts[i].type, "move");
    cr_assert_str_eq(e->posts[i].body, d, "event %d at the edge is event %d of the stream", i, i);
    free(d);
  }
}

/* A server posting to `e`, a direct stream `s` (left open), six boards
 * that play two moves each: the edge got the stream's 12 events, each
 * once, in order. Returns the publisher's counts. */
static xq__publish_info six_boards_play(fake_edge *e, xq_tclient *s, const xq_ts_tuning *t)
{
  up_with_edge_tuned(e, t);
  sse_open(s);
  play(6);
  same_as_stream(e, s, 12);
  xq__publish_info i = info();
  cr_assert_eq(i.posted, 12);
  return i;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

Test(net_publish, every_sse_event_ends_with_the_time_it_was_broadcast)
{
  xq_fx_up(16);
  xq_tclient s;
  sse_open(&s);
  struct timeval tv;
  gettimeofday(&tv, NULL);
  long long before = (long long)tv.tv_sec * 1000000 + tv.tv_usec;
  xq__hub_publish(ts.srv, "pairing", 2, 0, "{\"round\":2}");
  xq__hub_publish(ts.srv, "standings", 0, 0, "{}");
  xq__hub_publish(ts.srv, "verdict", 1, 3, "{\"kind\":\"foul\"}");
  wait_n w = {.s = &s, .n = 3};
  cr_assert(xq_tc_run_until(&ts.loop, has_data_lines, &w, 5000));
  gettimeofday(&tv, NULL);
  long long after = (long long)tv.tv_sec * 1000000 + tv.tv_usec;
  const char *shape[] = {"{\"round\":2,\"at\":", "{\"at\":", "{\"kind\":\"foul\",\"round\":1,\"table\":3,\"at\":"};
  for (int i = 0; i < 3; i++) {
    char *d = nth_data(&s, i);
    size_t k = strlen(shape[i]);
    cr_assert(!strncmp(d, shape[i], k), "%s", d);
    char *end;
    long long at = strtoll(d + k, &end, 10);
    cr_assert_str_eq(end, "}");
    cr_assert(at >= before && at <= after, "at %lld within [%lld, %lld]", at, before, after);
    free(d);
  }
  xq_tc_close(&s);
}

Test(net_publish, every_event_is_posted_once_in_order_with_its_channels)
{
  fake_edge e = {0};
  xq_tclient s;
  xq__publish_info i = six_boards_play(&e, &s, NULL);
  cr_assert_eq(i.connects, 1, "one keep-alive connection carries every post");
  cr_assert_eq(i.dropped + i.refused + i.retried + i.queued, 0);
  /* an event of no round goes to every live round's channel too */
  xq__hub_publish(ts.srv, "standings", 0, 0, "{}");
  wait_posts(&e, 13, 5000);
  cr_assert_str_eq(e.posts[12].target, "/pub/all,r1");
  cr_assert_str_eq(e.posts[12].type, "standings");
  xq_tc_close(&s);
  down_with_edge(&e);
}

Test(net_publish, connections_the_edge_ends_lose_and_double_nothing)
{
  fake_edge e = {.close_every = 3};
  xq_tclient s;
  xq_ts_tuning alone = {.publish_batch_ms = -1}; /* a post an event: twelve answers */
  xq__publish_info i = six_boards_play(&e, &s, &alone);
  cr_assert_eq(i.posts, 12);
  cr_assert_geq(i.connects, 4, "a new connection after each third answer");
  cr_assert_eq(i.retried, 0, "what followed a close answer was not read: sent again, not doubled");
  xq_tc_close(&s);
  down_with_edge(&e);
}

Test(net_publish, with_the_edge_down_boards_play_and_the_queue_waits_for_it)
{
  fake_edge e = {0};
  edge_bind(&e); /* nothing listens: connections are refused */
  start_with_edge(e.port);
  xq_tclient s;
  sse_open(&s);
  play(4); /* every move acknowledged and on the direct stream: */
  wait_n w = {.s = &s, .n = 8};
  cr_assert(xq_tc_run_until(&ts.loop, has_data_lines, &w, 5000));
  xq__publish_info i = info();
  cr_assert_eq(i.up, 0);
  cr_assert_eq(i.queued, 8);
  cr_assert_eq(i.posted, 0);
  /* the edge comes up: the next attempt (back-off) takes the queue */
  edge_listen(&e);
  wait_posts(&e, 8, 20000);
  same_as_stream(&e, &s, 8);
  i = info();
  cr_assert_eq(i.posted, 8);
  cr_assert_eq(i.queued + i.dropped + i.retried, 0);
  xq_tc_close(&s);
  down_with_edge(&e);
}

Test(net_publish, a_full_queue_drops_and_counts_and_holds_no_shutdown)
{
  fake_edge e = {0};
  edge_bind(&e);
  start_with_edge(e.port);
  for (int k = 0; k < XQ_PUBLISH_QUEUE_MAX + 10; k++) xq__hub_publish(ts.srv, "test", 1, 1, "{\"n\":1}");
  xq__publish_info i = info();
  cr_assert_eq(i.queued, XQ_PUBLISH_QUEUE_MAX);
  cr_assert_eq(i.dropped, 10);
  cr_assert_eq(i.posted, 0);
  /* the stop does not wait for an edge that is down: the fixture's end
   * proves that every handle closed */
  down_with_edge(&e);
}

Test(net_publish, events_the_edge_refuses_are_dropped_not_retried)
{
  fake_edge e = {.status = 403};
  up_with_edge(&e);
  play(2);
  wait_posts(&e, 4, 5000);
  xq_tc_spin(&ts.loop, 50);
  xq__publish_info i = info();
  cr_assert_eq(i.refused, 4);
  cr_assert_eq(i.posted + i.queued + i.retried, 0);
  cr_assert_eq(e.nevents, 4, "nothing posted twice");
  down_with_edge(&e);
}

/* ------------------------------------------------------------------ */
/* Batches                                                             */
/* ------------------------------------------------------------------ */

/* Publish `n` events of `round` ("t<k>" types, data {"k":K}) from k0. */
static void publish_n(int k0, int n, int round)
{
  for (int k = k0; k < k0 + n; k++) {
    char type[16], json[32];
    snprintf(type, sizeof type, "t%d", k);
    snprintf(json, sizeof json, "{\"k\":%d}", k);
    xq__hub_publish(ts.srv, type, round, 1, json);
  }
}

/* Event i at the edge is event k of publish_n, on round `round`'s channels. */
static void is_event(const fake_edge *e, int i, int k, int round)
{
  char type[16], pre[32], target[32];
  snprintf(type, sizeof type, "t%d", k);
  snprintf(pre, sizeof pre, "{\"k\":%d,\"round\":%d,", k, round);
  snprintf(target, sizeof target, "/pub/all,r%d", round);
  cr_assert_str_eq(e->posts[i].type, type, "event %d", i);
  cr_assert(!strncmp(e->posts[i].body, pre, strlen(pre)), "event %d: %s", i, e->posts[i].body);
  cr_assert_str_eq(e->posts[i].target, target, "event %d", i);
}

Test(net_publish, events_that_wait_together_go_in_one_batch_post_in_order)
{
  fake_edge e = {0};
  up_with_edge(&e);
  /* eleven events before the publisher is even connected: one post */
  publish_n(0, 11, 1);
  wait_posts(&e, 11, 5000);
  cr_assert_eq(e.nposts, 1, "one post carries the eleven");
  for (int i = 0; i < 11; i++) {
    cr_assert(e.posts[i].batch && e.posts[i].post == 0);
    is_event(&e, i, i, 1);
  }
  /* one more, alone: an event as it is, not a batch */
  publish_n(11, 1, 1);
  wait_posts(&e, 12, 5000);
  cr_assert_eq(e.nposts, 2);
  cr_assert(!e.posts[11].batch);
  is_event(&e, 11, 11, 1);
  xq__publish_info i = info();
  cr_assert_eq(i.posted, 12, "the counts are of events");
  cr_assert_eq(i.posts, 2);
  cr_assert_eq(i.queued + i.dropped + i.refused + i.retried, 0);
  down_with_edge(&e);
}

Test(net_publish, a_batch_holds_one_round_and_a_backlog_goes_in_full_batches)
{
  fake_edge e = {0};
  up_with_edge(&e);
  publish_n(0, 2, 1);
  publish_n(2, 1, 2); /* another round's channels: a post of its own */
  publish_n(3, 2 * XQ_PUBLISH_BATCH_MAX + 5, 1);
  int n = 3 + 2 * XQ_PUBLISH_BATCH_MAX + 5;
  wait_posts(&e, n, 10000);
  cr_assert_eq(e.nposts, 5, "2, 1, then %d, %d and 5", XQ_PUBLISH_BATCH_MAX, XQ_PUBLISH_BATCH_MAX);
  int first_of[] = {0, 2, 3, 3 + XQ_PUBLISH_BATCH_MAX, 3 + 2 * XQ_PUBLISH_BATCH_MAX, n};
  for (int p = 0; p < 5; p++)
    for (int i = first_of[p]; i < first_of[p + 1]; i++) cr_assert_eq(e.posts[i].post, p, "event %d", i);
  for (int i = 0; i < n; i++) is_event(&e, i, i, i == 2 ? 2 : 1);
  cr_assert(!e.posts[2].batch, "a lone event is posted as it is");
  down_with_edge(&e);
}

Test(net_publish, without_batches_every_event_is_its_own_post)
{
  fake_edge e = {0};
  xq_ts_tuning alone = {.publish_batch_ms = -1};
  up_with_edge_tuned(&e, &alone);
  publish_n(0, 11, 1);
  wait_posts(&e, 11, 5000);
  cr_assert_eq(e.nposts, 11);
  for (int i = 0; i < 11; i++) {
    cr_assert(!e.posts[i].batch && e.posts[i].post == i);
    is_event(&e, i, i, 1);
  }
  down_with_edge(&e);
}

Test(net_publish, a_delayed_broadcast_reaches_the_edge_late_and_in_order)
{
  /* serve --delay 2: the edge (and its cache) gets each move no earlier
   * than 2 s after the board sent it, in order, none missing */
  fake_edge e = {0};
  xq_ts_tuning late = {.delay_s = 2};
  up_with_edge_tuned(&e, &late);
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  xq_tc_okf(&b, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  static const char *const moves[] = {"h2e2", "h9g7", "h0g2"};
  int64_t sent[3];
  for (int m = 0; m < 3; m++) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    sent[m] = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    xq_tc_okf(&b, "{\"id\":%d,\"op\":\"move\",\"seq\":%d,\"move\":\"%s\"}", m + 1, m + 1, moves[m]);
  }
  xq_tc_close(&b);
  wait_posts(&e, 3, 30000);
  int ply = 0;
  for (int i = 0; i < e.nevents; i++) {
    cr_assert_str_eq(e.posts[i].type, "move");
    char want[16];
    snprintf(want, sizeof want, "\"ply\":%d,", ++ply);
    cr_assert(strstr(e.posts[i].body, want), "move %d in order: %s", ply, e.posts[i].body);
    /* 5 ms: the server's wall clock of a loop turn is read once per turn */
    cr_assert_geq(e.posts[i].at, sent[ply - 1] + 2000000 - 5000, "move %d reached the edge before the delay", ply);
  }
  down_with_edge(&e);
}
