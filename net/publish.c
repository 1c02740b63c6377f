/*
 * publish.c -- the edge (docs/scale.md): with `serve --publish URL` every
 * event the hub broadcasts is also POSTed, in order, to an nchan
 * publisher location of nginx, which fans it out to any number of
 * viewers. The server never waits for the edge, and serves as before
 * when the edge is down.
 *
 * One keep-alive HTTP/1.1 connection carries the posts, up to
 * XQ_PUBLISH_INFLIGHT written ahead of their answers (nginx answers the
 * requests of a connection in order). An event leaves the queue when its
 * answer came: 2xx posted, 4xx refused by the edge (logged, not tried
 * again). A connection that fails, goes silent for XQ_PUBLISH_TIMEOUT_MS
 * or answers 5xx is closed and made again after a back-off that doubles
 * from XQ_PUBLISH_RETRY_MIN_MS to XQ_PUBLISH_RETRY_MAX_MS; the events
 * not answered are written again on the new connection, in order. An
 * answer saying "Connection: close" ends a connection cleanly: what was
 * written behind it was not read by the edge and goes again without
 * doubt. So each event is posted once; only a post under way when the
 * edge dies may be taken twice (counted as `retried`).
 *
 * The queue holds XQ_PUBLISH_QUEUE_MAX events and XQ_PUBLISH_QUEUE_BYTES
 * of data; when it is full -- the edge down for long, or slower than the
 * boards -- a new event is dropped and counted, never waited for.
 *
 * Channels (deploy/nginx/): "all" gets every event, "rN" the events of
 * round N and those of no round (every live round's channel gets them),
 * as /api/events and /api/events?round=N filter them. One post names all
 * its channels, "POST /pub/all,r3", and nchan splits the list. The body
 * is the event's SSE data, sent from the hub's own buffer; the type goes
 * in X-EventSource-Event, which nchan turns into the `event:` line.
 *
 * Batches: nchan writes each message to each of its viewers, so what an
 * edge costs is posts times viewers. An event that comes within
 * XQ_PUBLISH_BATCH_MS of the last post waits for the next one, which
 * carries every event of the same round that waited: a `batch` message
 * whose data lines are each one event, "TYPE DATA" (nchan makes each
 * line of the body a `data:` line; the page splits them again). An event
 * after a quiet spell goes at once, alone, as above; a full batch
 * (XQ_PUBLISH_BATCH_MAX events or XQ_PUBLISH_BATCH_BYTES) goes at once.
 * The counts are of events; a post's answer settles all its events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conn.h"
#include "http_parse.h"
#include "internal.h"
#include "publish.h"
#include "url.h"

typedef struct pub_item {
  xq__buf *b;                  /* the hub's SSE encoding (a reference) */
  size_t type_off, type_len;   /* the event type in b->data */
  size_t data_off, data_len;   /* the data: the body of the post */
  int round;
} pub_item;

/* One post being written: its head, and a reference that keeps the body
 * alive until libuv is done with it (a batch's body is its own). */
typedef struct pub_write {
  uv_write_t w;
  xq__buf *b;
  char *body;                  /* a batch's body, malloc'd; NULL for one event */
  char head[XQ_PUBLISH_HEAD_MAX];
} pub_write;

enum {
  P_DOWN,                      /* no connection, none being made */
  P_WAIT,                      /* backing off after a failure (the timer runs) */
  P_RESOLVING,                 /* looking the host up */
  P_CONNECTING,
  P_UP,
  P_CLOSING                    /* the socket is closing */
};

struct xq__publish {
  xq__server *s;
  xq_http_url url;
  pub_item *q;                 /* a ring of XQ_PUBLISH_QUEUE_MAX */
  int head, count;
  size_t bytes;                /* data bytes queued */
  int written;                 /* events from the head written on this connection, not answered */
  int inflight;                /* posts written, not answered (the events of each in post_len) */
  int post_head;               /* post_len[post_head] is the oldest post's */
  int post_len[XQ_PUBLISH_INFLIGHT];
  int batch_ms;                /* 0: every event its own post */
  uint64_t last_post;          /* loop time of the last post written */
  uv_timer_t tick;             /* the next post's time, while events wait for it */
  int tick_open;
  int state;                   /* P_* */
  int no_more;                 /* the edge said Connection: close: write nothing more here */
  int broken;                  /* the connection is closing because it failed */
  uv_tcp_t tcp;
  uv_connect_t creq;
  uv_getaddrinfo_t gai;
  uv_timer_t timer;            /* the deadline (connect, oldest answer), or the back-off */
  int timer_open, gai_busy, stopping;
  char in[XQ_PUBLISH_READ_MAX]; /* answers read, not parsed yet */
  size_t inlen;
  long long skip;              /* body bytes of the last answer still to skip (-1: up to the close) */
  unsigned delay;              /* the next back-off, ms (0: none yet) */
  int failing;                 /* an outage was logged and has not ended */
  long attempts;               /* failed attempts in this outage */
  long dropping;               /* events dropped since the queue became full (0: not full) */
  xq__publish_info st;
};

static void start_connect(xq__publish *p);
static void pump(xq__publish *p);

static pub_item *item(xq__publish *p, int i) { return &p->q[(p->head + i) % XQ_PUBLISH_QUEUE_MAX]; }

/* The oldest event leaves the queue. */
static void pop(xq__publish *p)
{
  pub_item *it = item(p, 0);
  p->bytes -= it->data_len;
  xq__buf_unref(it->b);
  it->b = NULL;
  p->head = (p->head + 1) % XQ_PUBLISH_QUEUE_MAX;
  p->count--;
  if (p->written > 0) p->written--;
}

/* ------------------------------------------------------------------ */
/* The connection                                                      */
/* ------------------------------------------------------------------ */

static void on_timer(uv_timer_t *t);

static void arm(xq__publish *p, unsigned ms) { uv_timer_start(&p->timer, on_timer, ms, 0); }

/* While connected: a deadline for the oldest answer, or, with nothing in
 * flight, the idle time after which the connection is ended by this
 * side (before the edge's keep-alive timeout can cross a post). */
static void rearm(xq__publish *p) { arm(p, p->inflight ? XQ_PUBLISH_TIMEOUT_MS : XQ_PUBLISH_IDLE_MS); }

/* The connection is closed (or there was none): what next. */
static void after_close(xq__publish *p)
{
  if (p->stopping) return;
  if (p->broken) {
    /* back off: 250 ms, 500 ms, ... up to the ceiling */
    p->delay = p->delay ? p->delay * 2 : XQ_PUBLISH_RETRY_MIN_MS;
    if (p->delay > XQ_PUBLISH_RETRY_MAX_MS) p->delay = XQ_PUBLISH_RETRY_MAX_MS;
    p->state = P_WAIT;
    arm(p, p->delay);
  } else {
    /* a clean end: a new connection at once if something waits */
    p->state = P_DOWN;
    if (p->count) start_connect(p);
  }
}

static void on_tcp_closed(uv_handle_t *h) { after_close(h->data); }

/* Close the connection (when there is one); a failure backs off. */
static void drop_connection(xq__publish *p, int broken)
{
  uv_timer_stop(&p->timer);
  p->broken = broken;
  p->written = 0;
  p->inflight = 0;
  p->no_more = 0;
  p->inlen = 0;
  p->skip = 0;
  if (p->state == P_CONNECTING || p->state == P_UP) {
    p->state = P_CLOSING;
    uv_close((uv_handle_t *)&p->tcp, on_tcp_closed);
  } else if (p->state != P_CLOSING) {
    p->state = P_DOWN;
    after_close(p); /* nothing to close */
  }
}

/* The connection failed: say so once per outage, keep what was not
 * answered, and try again after a back-off. */
static void fail(xq__publish *p, const char *what, const char *why)
{
  if (!p->failing)
    xq__log(p->s, "publish: the edge %s%s %s: %s; events wait in the queue (%d now, at most %d)",
            p->url.hostport, p->url.target, what, why, p->count, XQ_PUBLISH_QUEUE_MAX);
  p->failing = 1;
  p->attempts++;
  p->st.retried += p->written;
  drop_connection(p, 1);
}

static void on_timer(uv_timer_t *t)
{
  xq__publish *p = t->data;
  if (p->stopping) return;
  if (p->state == P_WAIT) {
    /* with nothing to post, the next event tries again */
    p->state = P_DOWN;
    if (p->count) start_connect(p);
  } else if (p->state == P_CONNECTING) {
    fail(p, "did not accept a connection", "timed out");
  } else if (p->state == P_UP && p->inflight) {
    fail(p, "did not answer", "timed out");
  } else if (p->state == P_UP) {
    drop_connection(p, 0); /* idle */
  }
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */
/* ------------------------------------------------------------------ */

/* 1 when the answer head h[0..n) has "Connection: close". */
static int says_close(const char *h, size_t n)
{
  static const char name[] = "\nconnection:";
  for (size_t i = 0; i + sizeof name - 1 < n; i++) {
    if (strncasecmp(h + i, name, sizeof name - 1)) continue;
    const char *v = h + i + sizeof name - 1;
    while (v < h + n && (*v == ' ' || *v == '\t')) v++;
    return (size_t)(h + n - v) >= 5 && !strncasecmp(v, "close", 5);
  }
  return 0;
}

/* The answer to the oldest post in flight has status `status`: it
 * settles every event of that post. Returns 0 to go on, -1 when the
 * connection was dropped. */
static int answered(xq__publish *p, int status)
{
  pub_item *it = item(p, 0);
  if (status >= 500 || status < 200) {
    char why[32];
    snprintf(why, sizeof why, "HTTP %d", status);
    fail(p, "answered", why);
    return -1;
  }
  int n = p->post_len[p->post_head];
  p->post_head = (p->post_head + 1) % XQ_PUBLISH_INFLIGHT;
  p->inflight--;
  if (status >= 300) {
    p->st.refused += n;
    xq__log(p->s, "publish: the edge refused %d event%s (HTTP %d; the first a '%.*s'): dropped", n, n > 1 ? "s" : "",
            status, (int)it->type_len, it->b->data + it->type_off);
  } else {
    p->st.posted += n;
    p->st.posts++;
  }
  while (n--) pop(p);
  p->delay = 0;
  if (p->failing) {
    xq__log(p->s, "publish: the edge takes events again (after %ld failed attempts); %d queued",
            p->attempts, p->count);
    p->failing = 0;
    p->attempts = 0;
  }
  return 0;
}

/* Parse the answers in p->in. Returns 0, or -1 when the connection was
 * dropped. */
static int parse_answers(xq__publish *p)
{
  size_t used = 0;
  while (used < p->inlen) {
    if (p->skip) { /* the body of the last answer */
      size_t n = p->skip < 0 || (unsigned long long)p->skip > p->inlen - used ? p->inlen - used : (size_t)p->skip;
      used += n;
      if (p->skip > 0) p->skip -= (long long)n;
      continue;
    }
    int status, chunked;
    long long clen;
    long h = xq__http_parse_response(p->in + used, p->inlen - used, &status, &clen, &chunked);
    if (h == 0) break;
    if (h < 0 || !p->inflight) {
      fail(p, "answered", h < 0 ? "not HTTP" : "an answer to no request");
      return -1;
    }
    if (says_close(p->in + used, (size_t)h)) p->no_more = 1;
    /* a body of unknown length runs to the close */
    if (chunked || (clen < 0 && status != 204 && status != 304)) {
      p->no_more = 1;
      p->skip = -1;
    } else {
      p->skip = clen > 0 ? clen : 0;
    }
    used += (size_t)h;
    if (status >= 100 && status < 200) continue; /* interim: the final answer follows */
    if (answered(p, status)) return -1;
  }
  memmove(p->in, p->in + used, p->inlen - used);
  p->inlen -= used;
  return 0;
}

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
  (void)hint;
  xq__publish *p = h->data;
  *buf = uv_buf_init(p->in + p->inlen, (unsigned)(sizeof p->in - p->inlen));
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *buf)
{
  (void)buf;
  xq__publish *p = st->data;
  if (n == 0 || p->state != P_UP) return;
  if (n < 0) {
    /* after "Connection: close" what was written behind is unread: it
     * goes again on the next connection, and nothing failed; nor did
     * anything when the edge ends an idle connection */
    if (p->no_more || !p->inflight) drop_connection(p, 0);
    else fail(p, "closed the connection", n == UV_ENOBUFS ? "an answer head too long" : uv_strerror((int)n));
    return;
  }
  p->inlen += (size_t)n;
  if (parse_answers(p)) return;
  if (p->no_more && !p->inflight) {
    drop_connection(p, 0);
    return;
  }
  rearm(p);
  pump(p);
}

/* ------------------------------------------------------------------ */
/* Posts                                                               */
/* ------------------------------------------------------------------ */

static void on_written(uv_write_t *w, int status)
{
  pub_write *pw = w->data;
  xq__publish *p = pw->w.handle->data;
  xq__buf_unref(pw->b);
  free(pw->body);
  free(pw);
  if (status < 0 && status != UV_ECANCELED && p->state == P_UP) fail(p, "took no post", uv_strerror(status));
}

/* The channel list of an event of `round`: "all,r3"; for no round,
 * "all" and every live round's channel. */
static void channels(const xq__server *s, int round, char *out, size_t cap)
{
  int n = snprintf(out, cap, "all");
  if (round > 0) {
    snprintf(out + n, cap - (size_t)n, ",r%d", round);
    return;
  }
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX && (size_t)n < cap; r++)
    if (s->rounds[r]) n += snprintf(out + n, cap - (size_t)n, ",r%d", r);
}

/* The body of the batch of the n events from queue index `first`: a
 * line "TYPE DATA" each, no newline after the last; malloc'd, its length
 * in *len; NULL when out of memory. */
static char *batch_body(xq__publish *p, int first, int n, size_t *len)
{
  size_t total = 0;
  for (int i = 0; i < n; i++) total += item(p, first + i)->type_len + item(p, first + i)->data_len + 2;
  char *body = malloc(total);
  if (!body) return NULL;
  char *w = body;
  for (int i = 0; i < n; i++) {
    const pub_item *it = item(p, first + i);
    if (i) *w++ = '\n';
    memcpy(w, it->b->data + it->type_off, it->type_len);
    w += it->type_len;
    *w++ = ' ';
    memcpy(w, it->b->data + it->data_off, it->data_len);
    w += it->data_len;
  }
  *len = (size_t)(w - body);
  return body;
}

/* Write the post of the n events from queue index `first` (one: the
 * event as it is; more: a batch). Returns 0, or -1 when the connection
 * was dropped. */
static int write_post(xq__publish *p, int first, int n)
{
  pub_item *it = item(p, first);
  pub_write *pw = calloc(1, sizeof *pw);
  size_t len = it->data_len;
  const char *type = it->b->data + it->type_off, *body = it->b->data + it->data_off;
  int type_len = (int)it->type_len;
  if (pw && n > 1) {
    body = pw->body = batch_body(p, first, n, &len);
    type = "batch";
    type_len = 5;
  }
  if (!pw || !body) {
    free(pw);
    fail(p, "cannot be posted to", "out of memory");
    return -1;
  }
  char ch[XQ_PUBLISH_HEAD_MAX / 2];
  channels(p->s, it->round, ch, sizeof ch);
  int hn = snprintf(pw->head, sizeof pw->head,
                    "POST %s%s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                    "X-EventSource-Event: %.*s\r\nContent-Length: %zu\r\n\r\n",
                    p->url.target, ch, p->url.hostport, type_len, type, len);
  uv_buf_t bufs[2] = {uv_buf_init(pw->head, (unsigned)hn), uv_buf_init((char *)body, (unsigned)len)};
  if (!pw->body) {
    pw->b = it->b;
    xq__buf_ref(pw->b);
  }
  pw->w.data = pw;
  int rc = uv_write(&pw->w, (uv_stream_t *)&p->tcp, bufs, 2, on_written);
  if (rc) {
    xq__buf_unref(pw->b);
    free(pw->body);
    free(pw);
    fail(p, "took no post", uv_strerror(rc));
    return -1;
  }
  return 0;
}

/* How many events from queue index `first` go in its post: those of the
 * same round that wait, up to XQ_PUBLISH_BATCH_MAX and
 * XQ_PUBLISH_BATCH_BYTES (one, without batches). *closed is 1 when the
 * post can take no more: full, or an event of another round follows. */
static int batch_len(xq__publish *p, int first, int *closed)
{
  const pub_item *a = item(p, first);
  size_t bytes = a->type_len + a->data_len + 1;
  int n = 1;
  *closed = 1;
  if (!p->batch_ms) return 1;
  for (; first + n < p->count; n++) {
    const pub_item *b = item(p, first + n);
    bytes += b->type_len + b->data_len + 2;
    if (n == XQ_PUBLISH_BATCH_MAX || b->round != a->round || bytes > XQ_PUBLISH_BATCH_BYTES) return n;
  }
  *closed = n == XQ_PUBLISH_BATCH_MAX;
  return n;
}

static void on_tick(uv_timer_t *t) { pump(t->data); }

/* 1 when a post that can still grow goes now: XQ_PUBLISH_BATCH_MS since
 * the last post. Else the tick is set for its time, and 0. */
static int post_due(xq__publish *p)
{
  uint64_t now = uv_now(p->s->loop), next = p->last_post + (uint64_t)p->batch_ms;
  if (!p->last_post || now >= next) return 1;
  if (!uv_is_active((uv_handle_t *)&p->tick)) uv_timer_start(&p->tick, on_tick, next - now, 0);
  return 0;
}

/* Write what waits, in posts of one event or a batch, up to
 * XQ_PUBLISH_INFLIGHT posts ahead of the answers. */
static void pump(xq__publish *p)
{
  if (p->state != P_UP || p->no_more) return;
  int was = p->inflight;
  while (p->written < p->count && p->inflight < XQ_PUBLISH_INFLIGHT) {
    int closed, n = batch_len(p, p->written, &closed);
    if (!closed && !post_due(p)) break;
    if (write_post(p, p->written, n)) return;
    p->post_len[(p->post_head + p->inflight) % XQ_PUBLISH_INFLIGHT] = n;
    p->inflight++;
    p->written += n;
    p->last_post = uv_now(p->s->loop);
    if (!p->last_post) p->last_post = 1;
  }
  if (!was && p->inflight) rearm(p); /* the first in flight: its answer's deadline */
}

static void on_connected(uv_connect_t *req, int status)
{
  xq__publish *p = req->data;
  if (status == UV_ECANCELED || p->stopping || p->state != P_CONNECTING) return;
  if (status < 0) {
    fail(p, "refused a connection", uv_strerror(status));
    return;
  }
  p->state = P_UP;
  p->st.connects++;
  uv_timer_stop(&p->timer);
  uv_tcp_nodelay(&p->tcp, 1);
  int rc = uv_read_start((uv_stream_t *)&p->tcp, on_alloc, on_read);
  if (rc) {
    fail(p, "cannot be read", uv_strerror(rc));
    return;
  }
  rearm(p);
  pump(p);
}

static void connect_to(xq__publish *p, const struct sockaddr *sa)
{
  uv_tcp_init(p->s->loop, &p->tcp);
  p->tcp.data = p;
  p->creq.data = p;
  p->state = P_CONNECTING;
  arm(p, XQ_PUBLISH_TIMEOUT_MS);
  int rc = uv_tcp_connect(&p->creq, &p->tcp, sa, on_connected);
  if (rc) fail(p, "cannot be connected to", uv_strerror(rc));
}

static void on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
  xq__publish *p = req->data;
  p->gai_busy = 0;
  if (!p->stopping && p->state == P_RESOLVING) {
    if (status < 0 || !res) {
      p->state = P_DOWN;
      fail(p, "cannot be found", uv_strerror(status));
    } else {
      connect_to(p, res->ai_addr);
    }
  }
  uv_freeaddrinfo(res);
}

/* Connect: at once to an IP address, else after a name lookup (on the
 * worker pool: the loop does not wait for it). */
static void start_connect(xq__publish *p)
{
  if (p->stopping || p->state != P_DOWN || p->gai_busy) return;
  struct sockaddr_storage sa;
  p->gai.data = p;
  p->state = P_RESOLVING;
  p->gai_busy = 1;
  int rc = xq__url_lookup(p->s->loop, &p->gai, on_resolved, p->url.host, p->url.port, &sa);
  if (rc == 0) return;
  p->gai_busy = 0;
  p->state = P_DOWN;
  if (rc == 1) connect_to(p, (struct sockaddr *)&sa);
  else fail(p, "cannot be found", uv_strerror(rc));
}

/* ------------------------------------------------------------------ */
/* The queue                                                           */
/* ------------------------------------------------------------------ */

void xq__publish_event(xq__server *s, xq__buf *b, size_t type_off, size_t type_len, size_t data_off,
                       size_t data_len, int round)
{
  xq__publish *p = s->publish;
  if (!p || !b) return;
  if (p->count == XQ_PUBLISH_QUEUE_MAX || p->bytes + data_len > XQ_PUBLISH_QUEUE_BYTES) {
    if (!p->dropping)
      xq__log(s, "publish: the queue is full (%d events, %zu bytes): events are dropped until the edge "
              "catches up", p->count, p->bytes);
    p->dropping++;
    p->st.dropped++;
    return;
  }
  if (p->dropping) {
    xq__log(s, "publish: %ld events were dropped while the queue was full", p->dropping);
    p->dropping = 0;
  }
  pub_item *it = item(p, p->count++);
  *it = (pub_item){b, type_off, type_len, data_off, data_len, round};
  xq__buf_ref(b);
  p->bytes += data_len;
  if (p->state == P_DOWN) start_connect(p);
  else pump(p);
}

/* ------------------------------------------------------------------ */
/* Life                                                                */
/* ------------------------------------------------------------------ */

int xq_publish_url_parse(const char *url, xq_http_url *out, xq_error *err)
{
  int rc = xq_http_url_parse(url, out, err);
  if (rc) return rc;
  size_t pl = strlen(out->target);
  if (strspn(out->target, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/") != pl)
    return xq_error_set(err, XQ_EINVAL, -1, -1, "the path may hold letters, digits and -._~/ only");
  /* the limit is on the path as it is kept, its '/' added: the same path
   * given with or without the '/' is taken or refused alike */
  int slash = out->target[pl - 1] != '/';
  if (pl + (size_t)slash >= XQ_PUBLISH_PATH_MAX)
    return xq_error_set(err, XQ_EINVAL, -1, -1, "the path is too long");
  if (slash) memcpy(out->target + pl, "/", 2);
  return XQ_OK;
}

int xq__publish_init(xq__server *s)
{
  if (!s->opts.publish) return XQ_OK;
  xq__publish *p = calloc(1, sizeof *p);
  if (p) p->q = calloc(XQ_PUBLISH_QUEUE_MAX, sizeof *p->q);
  if (!p || !p->q) {
    free(p);
    return XQ_ENOMEM;
  }
  p->s = s;
  p->url = *s->opts.publish;
  uv_timer_init(s->loop, &p->timer);
  p->timer.data = p;
  p->timer_open = 1;
  uv_timer_init(s->loop, &p->tick);
  p->tick.data = p;
  p->tick_open = 1;
  int ms = s->opts.publish_batch_ms;
  p->batch_ms = ms < 0 ? 0 : ms ? ms : XQ_PUBLISH_BATCH_MS;
  s->publish = p;
  xq__log(s, "publish: every broadcast event goes to http://%s%s too", p->url.hostport, p->url.target);
  return XQ_OK; /* the first event connects */
}

int xq__publish_drained(const xq__server *s)
{
  const xq__publish *p = s->publish;
  return !p || p->count == 0 || p->failing;
}

static void on_timer_closed(uv_handle_t *h) { (void)h; }

void xq__publish_close(xq__server *s)
{
  xq__publish *p = s->publish;
  if (!p || p->stopping) return;
  p->stopping = 1;
  if (p->timer_open) {
    p->timer_open = 0;
    uv_close((uv_handle_t *)&p->timer, on_timer_closed);
  }
  if (p->tick_open) {
    p->tick_open = 0;
    uv_close((uv_handle_t *)&p->tick, on_timer_closed);
  }
  if (p->state == P_CONNECTING || p->state == P_UP) uv_close((uv_handle_t *)&p->tcp, on_timer_closed);
  p->state = P_DOWN;
  xq__log(s, "publish: %lld events posted, %lld refused by the edge, %lld dropped (queue full), %lld "
          "written again after a broken connection, %d not posted; %lld connections, %lld posts",
          p->st.posted, p->st.refused, p->st.dropped, p->st.retried, p->count, p->st.connects, p->st.posts);
}

void xq__publish_free(xq__server *s)
{
  xq__publish *p = s->publish;
  if (!p) return;
  while (p->count) pop(p);
  free(p->q);
  free(p);
  s->publish = NULL;
}

int xq__publish_info_get(const xq__server *s, xq__publish_info *out)
{
  const xq__publish *p = s->publish;
  if (!p) return XQ_EINVAL;
  *out = p->st;
  out->queued = p->count;
  out->up = p->state == P_UP;
  return XQ_OK;
}
