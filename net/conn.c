/*
 * conn.c -- one struct per connection.
 *
 * The uv_tcp_t is the first member, so a handle converts to its
 * connection. Reads land in the connection's own buffer (no allocation per
 * read); the protocol consumes what it can and the rest moves to the
 * front. Writes take a reference on a shared buffer and try uv_try_write
 * first; what is left goes to uv_write with a small heap request that owns
 * the reference until its callback. Output in flight is counted: a
 * request/response client stops being read above XQ_OUT_HIGH, a
 * subscriber is dropped above XQ_OUT_VIEWER_MAX. The struct is freed only
 * after both handles have closed and every asynchronous holder (a worker
 * job, a reply waiting for a commit) has let go of it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "internal.h"

/* ------------------------------------------------------------------ */
/* Lifetime                                                            */
/* ------------------------------------------------------------------ */

static void conn_free(xq__conn *c)
{
  if (c->sink) {
    /* a virtual session leaves the server's list of them */
    if (c->prev) c->prev->next = c->next;
    else if (c->srv->vconns == c) c->srv->vconns = c->next;
    if (c->next) c->next->prev = c->prev;
  }
  free(c->in);
  free(c);
}

void xq__conn_ref(xq__conn *c) { c->refs++; }

void xq__conn_unref(xq__conn *c)
{
  if (--c->refs == 0 && c->open_handles == 0) conn_free(c);
}

int xq__conn_dead(const xq__conn *c) { return c->closing; }

static void on_handle_closed(uv_handle_t *h)
{
  xq__conn *c = h->data;
  if (--c->open_handles == 0) xq__conn_unref(c); /* the server's reference */
}

void xq__conn_close(xq__conn *c)
{
  if (c->closing) return;
  c->closing = 1;
  xq__server *s = c->srv;
  if (c->sink) {
    /* a virtual session: in no list, no handles; the refs free it, and
     * on_close may drop the last one: nothing touches c after it */
    if (c->proto->on_close) c->proto->on_close(c);
    return;
  }
  if (c->proto->on_close) c->proto->on_close(c);
  /* unlink now: nobody may find a closing connection */
  if (c->prev) c->prev->next = c->next;
  else s->conns = c->next;
  if (c->next) c->next->prev = c->prev;
  c->prev = c->next = NULL;
  s->nconns--;
  if (!c->trusted) {
    if (c->reserve) s->nreserve--;
    else s->nanon--;
  }
  if (!uv_is_closing((uv_handle_t *)&c->timer)) uv_close((uv_handle_t *)&c->timer, on_handle_closed);
  if (!uv_is_closing((uv_handle_t *)&c->tcp)) uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
}

int xq__conn_detach(xq__conn *c, uv_os_sock_t *out)
{
  if (c->sink || c->closing || c->out_bytes) return XQ_EINVAL;
  uv_os_fd_t fd;
  if (uv_fileno((uv_handle_t *)&c->tcp, &fd) != 0) return XQ_EIO;
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return XQ_EIO; /* out of descriptors: the connection stays as it was */
  /* libuv takes the descriptor out of its epoll set and closes it; the
   * socket lives on in the copy, and no shutdown is sent */
  xq__conn_close(c);
  *out = copy;
  return XQ_OK;
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
  (void)status;
  xq__conn *c = req->data;
  free(req);
  xq__conn_close(c);
  xq__conn_unref(c);
}

void xq__conn_end(xq__conn *c)
{
  if (c->closing) return;
  if (c->sink) {
    xq__conn_close(c); /* nothing is queued: the sink took it all */
    return;
  }
  if (c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
  }
  uv_shutdown_t *req = malloc(sizeof *req);
  if (!req) {
    xq__conn_close(c);
    return;
  }
  req->data = c;
  xq__conn_ref(c);
  if (uv_shutdown(req, (uv_stream_t *)&c->tcp, on_shutdown) != 0) {
    free(req);
    xq__conn_unref(c);
    xq__conn_close(c);
  }
}

/* ------------------------------------------------------------------ */
/* Writes                                                              */
/* ------------------------------------------------------------------ */

/* One uv_write in flight: the request and the reference it owns. */
typedef struct write_req {
  uv_write_t req;
  xq__buf *buf;
  size_t bytes;
} write_req;

static void update_reading(xq__conn *c);

static void on_write(uv_write_t *req, int status)
{
  write_req *w = (write_req *)req;
  xq__conn *c = req->data;
  xq__buf_unref(w->buf);
  c->out_bytes -= w->bytes;
  c->progress_at = uv_now(c->srv->loop);
  free(w);
  /* UV_ECANCELED: the connection is closing; only the buffers matter */
  if (status < 0) xq__conn_close(c);
  else update_reading(c);
  xq__conn_unref(c);
}

int xq__conn_write(xq__conn *c, xq__buf *b, size_t off)
{
  if (c->closing) return XQ_EIO;
  size_t len = b->len - off;
  if (len == 0) return XQ_OK;
  if (c->sink) {
    c->sink(c, b->data + off, len);
    return XQ_OK;
  }
  if (c->out_mode == XQ__OUT_DROP && c->out_bytes + len > XQ_OUT_VIEWER_MAX) {
    /* a subscriber that does not read is dropped, not buffered */
    xq__log(c->srv, "drop %s: %zu bytes waiting", c->peer, c->out_bytes);
    xq__conn_close(c);
    return XQ_EIO;
  }
  if (c->out_mode == XQ__OUT_PAUSE && c->out_bytes + len > XQ_OUT_HARD) {
    /* past the hard mark: the client reads nothing of what it asked for */
    xq__log(c->srv, "close %s: %zu bytes unsent, over the hard limit of %d", c->peer,
            c->out_bytes + len, XQ_OUT_HARD);
    xq__conn_close(c);
    return XQ_EIO;
  }
  if (c->out_bytes == 0) {
    uv_buf_t ub = uv_buf_init(b->data + off, (unsigned)len);
    int n = uv_try_write((uv_stream_t *)&c->tcp, &ub, 1);
    if (n > 0) {
      off += (size_t)n;
      len -= (size_t)n;
      if (len == 0) return XQ_OK;
    } else if (n != UV_EAGAIN && n != UV_ENOSYS) {
      xq__conn_close(c);
      return XQ_EIO;
    }
  }
  write_req *w = malloc(sizeof *w);
  if (!w) {
    xq__conn_close(c);
    return XQ_ENOMEM;
  }
  if (c->out_bytes == 0) c->progress_at = uv_now(c->srv->loop); /* its clock runs from now */
  uv_buf_t ub = uv_buf_init(b->data + off, (unsigned)len);
  w->buf = b;
  w->bytes = len;
  w->req.data = c;
  xq__buf_ref(b);
  if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &ub, 1, on_write) != 0) {
    xq__buf_unref(b);
    free(w);
    xq__conn_close(c);
    return XQ_EIO;
  }
  xq__conn_ref(c);
  c->out_bytes += len;
  update_reading(c);
  return XQ_OK;
}

int xq__conn_send(xq__conn *c, const char *data, size_t len)
{
  if (c->closing) return XQ_EIO;
  if (c->sink) {
    c->sink(c, data, len);
    return XQ_OK;
  }
  /* the common case writes everything at once: no copy at all */
  if (c->out_bytes == 0) {
    uv_buf_t ub = uv_buf_init((char *)data, (unsigned)len);
    int n = uv_try_write((uv_stream_t *)&c->tcp, &ub, 1);
    if (n == (int)len) return XQ_OK;
    if (n > 0) {
      data += n;
      len -= (size_t)n;
    } else if (n != UV_EAGAIN && n != UV_ENOSYS) {
      xq__conn_close(c);
      return XQ_EIO;
    }
  }
  xq__buf *b = xq__buf_copy(data, len);
  if (!b) {
    xq__conn_close(c);
    return XQ_ENOMEM;
  }
  int rc = xq__conn_write(c, b, 0);
  xq__buf_unref(b);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Reads                                                               */
/* ------------------------------------------------------------------ */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
  (void)suggested;
  xq__conn *c = h->data;
  /* the free tail of the connection's own buffer; empty -> UV_ENOBUFS */
  buf->base = c->in + c->len;
  buf->len = c->proto->in_cap - c->len;
}

/* Hand the buffered bytes to the protocol; keep what it did not use. The
 * time it took counts in the connection's turn (turns.c). */
static void process(xq__conn *c)
{
  xq__conn_ref(c);
  c->consuming = 1;
  c->consume_t0 = uv_hrtime();
  size_t used = c->proto->consume(c);
  uint64_t took = uv_hrtime() - c->consume_t0;
  if (c->turn == c->srv->turn) c->turn_ns += took;
  if (!c->trusted) c->srv->anon_ns += took;
  c->consume_t0 = 0;
  c->consuming = 0;
  if (!c->closing) {
    if (used > c->len) used = c->len;
    memmove(c->in, c->in + used, c->len - used);
    c->len -= used;
    if (c->len == c->proto->in_cap && !c->held && !c->stalled && !c->yielded) c->proto->overflow(c);
  }
  xq__conn_unref(c);
}

void xq__conn_process(xq__conn *c) { process(c); }

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
  (void)buf;
  xq__conn *c = stream->data;
  if (nread == 0) return; /* nothing now; not EOF */
  if (nread < 0) {
    xq__conn_close(c);
    return;
  }
  c->len += (size_t)nread;
  process(c);
}

static void deadline_rearm(xq__conn *c);

/* The output and the replies owed are down to where a stalled
 * connection may be served again. */
static int drained(const xq__conn *c)
{
  size_t low = c->stall_mark < XQ_OUT_LOW ? c->stall_mark : XQ_OUT_LOW;
  return c->out_bytes + c->owed_bytes <= low && c->pending_replies <= XQ_OWED_LOW;
}

/* Start or stop reading from the output budget and the replies waiting
 * for a commit (a client that pipelines without reading its answers
 * stops being read, docs/server.md). A stalled connection that drained
 * has its buffered requests served first. */
static void update_reading(xq__conn *c)
{
  if (c->proto->hold_reading && c->proto->hold_reading(c)) return;
  if (c->closing || c->held || c->sink || c->yielded) return;
  if (c->stalled) {
    if (c->consuming || !drained(c)) return;
    c->stalled = 0;
    /* the deadline the connection had before, counted from now */
    xq__conn_deadline(c, c->prestall_ms, c->prestall_why);
    if (c->len) process(c);
    if (c->closing || c->held || c->stalled) return;
  }
  /* only a request/response session pauses for what it owes; a subscriber
   * is bounded by XQ_OUT_VIEWER_MAX instead, and one paused before it
   * subscribed (a hold, a backlog) reads again now */
  int pausing = c->out_mode == XQ__OUT_PAUSE;
  int over = pausing && (c->out_bytes > XQ_OUT_HIGH || c->pending_replies > XQ_OWED_HIGH);
  int under = !pausing || (c->out_bytes <= XQ_OUT_LOW && c->pending_replies <= XQ_OWED_LOW);
  if (over && c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
    c->paused = 1;
  } else if (under && c->paused && !c->srv->stopping) {
    c->paused = 0;
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0) c->reading = 1;
  }
}

int xq__conn_stall(xq__conn *c, size_t mark)
{
  if (c->sink) return 0;
  if (c->stalled) return 1;
  if (c->out_bytes + c->owed_bytes <= mark && c->pending_replies <= XQ_OWED_HIGH) return 0;
  c->stalled = 1;
  c->stall_mark = mark;
  c->prestall_ms = c->deadline_ms;
  c->prestall_why = c->deadline_why;
  if (c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
    c->paused = 1;
  }
  /* the client's to read what it asked for; owed replies are ours */
  if (c->out_bytes + c->owed_bytes > mark) xq__conn_deadline(c, XQ_STALL_MS, "its replies unread");
  return 1;
}

void xq__conn_resume(xq__conn *c) { update_reading(c); }

uint64_t xq__conn_scaled_ms(const xq__server *s, uint64_t ms)
{
  double scale = s->opts.deadline_scale; /* tests only (net.h) */
  long long v;
  if (!(scale > 0)) return ms;
  return xq_whole_part((double)ms * scale, 0, UINT32_MAX, &v) ? (uint64_t)v : UINT32_MAX;
}

int xq__conn_drop_deaf(xq__server *s)
{
  int dropped = 0;
  uint64_t stall = xq__conn_scaled_ms(s, XQ_STALL_MS), now = uv_now(s->loop);
  for (xq__conn *c = s->conns, *next; c; c = next) {
    next = c->next;
    if (c->closing || c->out_mode != XQ__OUT_DROP || !c->out_bytes || now - c->progress_at < stall) continue;
    xq__log(s, "drop %s: took nothing of %zu bytes for %llu ms", c->peer, c->out_bytes, (unsigned long long)stall);
    xq__conn_close(c);
    dropped++;
  }
  return dropped;
}

void xq__conn_hold(xq__conn *c)
{
  c->held = 1;
  if (c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
    c->paused = 1;
  }
}

xq__conn *xq__conn_virtual(xq__server *s, const xq__proto *proto,
                           void (*sink)(xq__conn *c, const char *data, size_t len), void *ext)
{
  xq__conn *c = calloc(1, sizeof *c);
  char *in = malloc(proto->in_cap);
  if (!c || !in) {
    free(c);
    free(in);
    return NULL;
  }
  c->in = in;
  c->srv = s;
  c->proto = proto;
  c->sink = sink;
  c->ext = ext;
  c->refs = 1;      /* the caller's; no handles to close */
  c->gen = ++s->next_gen;
  snprintf(c->peer, sizeof c->peer, "session %llu", (unsigned long long)c->gen);
  /* listed, so that a revocation reaches it (xq__proto_revoked) */
  c->next = s->vconns;
  if (s->vconns) s->vconns->prev = c;
  s->vconns = c;
  return c;
}

int xq__conn_feed(xq__conn *c, const char *data, size_t len)
{
  if (len > c->proto->in_cap - c->len) return XQ_ELIMIT;
  memcpy(c->in + c->len, data, len);
  c->len += len;
  if (!c->held && !c->closing) process(c);
  return XQ_OK;
}

void xq__conn_unhold(xq__conn *c)
{
  if (!c->held) return;
  c->held = 0;
  if (c->closing) return;
  if (c->len) process(c);
  if (!c->closing && !c->held) update_reading(c);
}

/* ------------------------------------------------------------------ */
/* Deadlines and slots                                                 */
/* ------------------------------------------------------------------ */

static void on_deadline(uv_timer_t *t)
{
  xq__conn *c = t->data;
  /* a connection that waits for its own replies is not late, and a
   * watcher listens: like an SSE stream it is not closed for silence (its
   * output budget bounds what a dead one costs, XQ_OUT_VIEWER_MAX) */
  int ours = c->pending_replies > 0 || c->jobs > 0 || c->held;
  if (c->hub_watch || (ours && !(c->stalled && c->out_bytes > 0))) {
    deadline_rearm(c);
    return;
  }
  xq__log(c->srv, "close %s: %s", c->peer, c->deadline_why ? c->deadline_why : "deadline");
  xq__conn_close(c);
}

void xq__conn_deadline(xq__conn *c, unsigned ms, const char *why)
{
  if (c->sink || c->closing) return;
  c->deadline_ms = ms;
  c->deadline_why = why;
  uint64_t run = c->srv->opts.deadline_scale > 0 ? xq__conn_scaled_ms(c->srv, ms) + 1 : ms;
  if (ms) uv_timer_start(&c->timer, on_deadline, run, 0);
  else uv_timer_stop(&c->timer);
}

/* The deadline armed last, counted again from now. */
static void deadline_rearm(xq__conn *c)
{
  if (c->deadline_ms) xq__conn_deadline(c, c->deadline_ms, c->deadline_why);
}

void xq__conn_trust(xq__conn *c, int trusted)
{
  if (c->sink || c->closing || c->trusted == !!trusted) return;
  xq__server *s = c->srv;
  if (trusted) {
    if (c->reserve) s->nreserve--;
    else s->nanon--;
    c->reserve = 0;
  } else {
    s->nanon++; /* may pass XQ_ANON_CONNS_MAX for a moment: no newcomer does */
  }
  c->trusted = !!trusted;
}

/* Every reserved slot is taken: the one that waited longest for its
 * token gives way to the newcomer, so that trying many connections at
 * once cannot keep a board out for longer than one XQ_RESERVE_HELLO_MS. */
static void evict_oldest_reserve(xq__server *s)
{
  xq__conn *old = NULL;
  for (xq__conn *c = s->conns; c; c = c->next)
    if (c->reserve && !c->trusted) old = c; /* the list is newest first */
  if (!old) return;
  xq__log(s, "close %s: a reserved slot without a token, given to a newcomer", old->peer);
  xq__conn_close(old);
}

/* Admit a new connection to a slot: XQ_OK (c->reserve says which kind)
 * or XQ_ELIMIT when it must be refused. */
static int admit(xq__server *s, xq__conn *c)
{
  if (s->stopping || s->nconns >= XQ_MAX_CONNS) {
    if (s->stopping || s->nreserve == 0) return XQ_ELIMIT;
    evict_oldest_reserve(s);
  }
  int anon_max = s->opts.anon_conns_max > 0 ? s->opts.anon_conns_max : XQ_ANON_CONNS_MAX; /* tests: net.h */
  if (s->nanon < anon_max) {
    s->nanon++;
    return XQ_OK;
  }
  if (s->nreserve >= XQ_CONNS_RESERVED) evict_oldest_reserve(s);
  c->reserve = 1;
  s->nreserve++;
  return XQ_OK;
}

void xq__conn_accept(xq__server *s, uv_stream_t *server, const xq__proto *proto)
{
  xq__conn *c = calloc(1, sizeof *c);
  char *in = malloc(proto->in_cap);
  if (!c || !in) {
    free(c);
    free(in);
    return;
  }
  uv_tcp_init(s->loop, &c->tcp);
  c->in = in;
  c->srv = s;
  c->proto = proto;
  c->tcp.data = c;
  c->open_handles = 1;
  c->refs = 1;
  if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0 || admit(s, c) != XQ_OK) {
    /* over the limit: refuse by closing at once */
    c->closing = 1;
    uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
    return;
  }
  uv_timer_init(s->loop, &c->timer);
  c->timer.data = c;
  c->open_handles = 2;
  c->gen = ++s->next_gen;
  c->next = s->conns;
  if (s->conns) s->conns->prev = c;
  s->conns = c;
  s->nconns++;
  uv_tcp_nodelay(&c->tcp, 1);
  int sndbuf = XQ_SOCK_SNDBUF;
  uv_send_buffer_size((uv_handle_t *)&c->tcp, &sndbuf);
  struct sockaddr_storage sa;
  int salen = sizeof sa;
  c->peer[0] = 0;
  if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&sa, &salen) == 0) {
    char host[48] = "";
    int port = 0;
    if (sa.ss_family == AF_INET) {
      uv_ip4_name((struct sockaddr_in *)&sa, host, sizeof host);
      port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
    } else {
      uv_ip6_name((struct sockaddr_in6 *)&sa, host, sizeof host);
      port = ntohs(((struct sockaddr_in6 *)&sa)->sin6_port);
    }
    snprintf(c->peer, sizeof c->peer, "%s:%d", host, port);
  }
  if (c->reserve) xq__conn_deadline(c, XQ_RESERVE_HELLO_MS, "no token on a reserved slot");
  else if (proto->first_ms) xq__conn_deadline(c, proto->first_ms, proto->first_why);
  if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0) c->reading = 1;
  else xq__conn_close(c);
}
