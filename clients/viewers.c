/*
 * viewers.c -- the viewers of xqref loadgen (viewers.h).
 *
 * The viewers run on a loop and a thread of their own, as the people they
 * stand for are other clients: reading ten thousand streams does not
 * delay the boards' replies on the run's loop, nor their latency
 * figures (the thread runs at nice XQ_LOADGEN_VIEWER_NICE). The run's loop hears from them through one async handle (the
 * viewers are ready; their loop ran dry) and tells them to end through
 * another; everything else is read after their thread has been joined.
 *
 * Every viewer is one TCP connection on the viewers' loop. A JSON-lines
 * viewer sends `watch` and counts lines. An SSE viewer sends one GET and
 * reads the stream as it comes, a byte at a time and nothing kept: the
 * response head (status 200, or the viewer is lost), then lines. Each
 * "data:" line is an event (both xqref and nchan write an event's data on
 * one line); the "event:" and "data:" lines go into a digest (FNV-1a), so
 * that viewers are compared without keeping their streams, and the value
 * of the last "at": of a data line, the server's clock when it broadcast
 * the event (µs since 1970), gives its delivery time on arrival. "id:"
 * lines are left out of the digest: an edge numbers events its own way.
 * Comments (": keepalive", nchan's ": hi") are skipped. A `batch` event
 * of an edge (events posted together: a data line each, "TYPE DATA",
 * docs/scale.md) goes into the digest as the events it carries, "event:
 * TYPE" and "data: DATA" each, as the server's own stream has them, so
 * that an edge's viewer and the server's compare.
 *
 * A stream has begun when its first byte after the head comes: by then
 * the server (after the head: the subscription is made with it) or nchan
 * (its ": hi" comes once subscribed) sends this viewer every event.
 */
#define _GNU_SOURCE 1 /* pthread_setaffinity_np */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clientlimits.h"
#include "jsonl.h"
#include "samples.h"
#include "viewers.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

enum { V_JSONL, V_SSE };

typedef struct viewer {
  uv_tcp_t tcp;                /* first member */
  uv_connect_t creq;
  xq__viewers *vs;
  int kind;                    /* V_* */
  int url;                     /* SSE: the index in urls[], -1 for sse_addr's /api/events */
  int connected, begun, closed, lost;
  long events;                 /* data lines (SSE), lines (JSON lines) */
  long bytes;
  /* the SSE stream being read */
  int in_head;                 /* still in the response head */
  int head_col;                /* bytes of the head's current line */
  char status[13];             /* the head's first 12 bytes: "HTTP/1.1 200" */
  int status_done;             /* the status line has been read */
  int col;                     /* bytes of the current line */
  char kind_of_line;           /* 'd' data, 'e' event, 'x' another, 0 not known yet */
  char pre[8];                 /* the line's first bytes, until its kind is known */
  int at_state;                /* bytes of "\"at\":" matched; 5: reading its digits */
  long long at_val, at_last;   /* the number being read, the last one of the line */
  uint64_t digest;
  /* what is held back until it is known whether a batch is meant */
  int typing;                  /* 'e' an event line's value, 'b' a batch line's type, 0 none */
  char type[XQ_LOADGEN_EVENT_TYPE_MAX];
  int tlen;
  int in_batch;                /* the event being read is a batch */
} viewer;

struct xq__viewers {
  xq__view_opts o;
  viewer *v;
  int n;
  int open;                    /* handles not closed yet (the viewers' loop) */
  atomic_int pending;          /* neither begun nor lost (read by the run's loop) */
  int ready_said;
  int closing;
  uv_timer_t quiet;            /* the end: closes once nothing comes */
  uint64_t end_at;             /* loop time the end began, 0 before */
  long seen;                   /* bytes received when the timer last looked */
  int quiet_ticks;
  xq__samples lat;             /* delivery times */
  /* the viewers' own loop and thread (none without viewers) */
  uv_loop_t loop;
  uv_thread_t thread;
  int threaded;
  uv_async_t ask;              /* on the viewers' loop: `asked` says what */
  atomic_int asked;            /* 0, ASK_END or ASK_CLOSE */
  uv_async_t note;             /* on the run's loop: ready, or done */
  atomic_int ready, done;      /* set by the viewers' thread */
  int ready_called;            /* the run's loop called o.ready */
};

enum { ASK_END = 1, ASK_CLOSE = 2 };
static void close_now(xq__viewers *vs);

/* ------------------------------------------------------------------ */
/* Life of a connection                                                */
/* ------------------------------------------------------------------ */

/* Every viewer has begun or is lost: the run's loop is told. */
static void say_ready(xq__viewers *vs)
{
  if (atomic_load(&vs->pending) || vs->ready_said) return;
  vs->ready_said = 1;
  atomic_store(&vs->ready, 1);
  uv_async_send(&vs->note);
}

static void begun(viewer *v)
{
  if (v->begun || v->lost) return;
  v->begun = 1;
  atomic_fetch_sub(&v->vs->pending, 1);
  say_ready(v->vs);
}

static void on_close(uv_handle_t *h)
{
  viewer *v = h->data;
  v->vs->open--;
}

/* The server or the edge ended or refused a viewer before the run did:
 * counted (an error of the run) and closed. */
static void lose(viewer *v, const char *why)
{
  xq__viewers *vs = v->vs;
  if (v->closed) return;
  if (vs->o.log) fprintf(vs->o.log, "xqref loadgen: viewer %d: %s\n", (int)(v - vs->v), why);
  v->lost = 1;
  v->closed = 1;
  if (!v->begun) atomic_fetch_sub(&vs->pending, 1);
  uv_close((uv_handle_t *)&v->tcp, on_close);
  say_ready(vs);
}

/* ------------------------------------------------------------------ */
/* The SSE stream                                                      */
/* ------------------------------------------------------------------ */

/* What a line that starts with pre[0..n) is: 'd', 'e', 'x', or 0 while
 * it could still be either. */
static char line_kind(const char *pre, int n)
{
  static const char *const names[] = {"data:", "event:"};
  if (pre[0] == ':') return 'x';
  int maybe = 0;
  for (int i = 0; i < 2; i++) {
    int len = (int)strlen(names[i]);
    if (n > len || memcmp(pre, names[i], (size_t)n)) continue;
    if (n == len) return names[i][0];
    maybe = 1;
  }
  return maybe ? 0 : 'x';
}

/* Bytes of an event or data line: into the digest, and for the first SSE
 * viewer into the stream log. */
static void keep(viewer *v, const char *p, size_t n)
{
  for (size_t i = 0; i < n; i++) v->digest = (v->digest ^ (unsigned char)p[i]) * FNV_PRIME;
  if (v->vs->o.stream_log && v == &v->vs->v[v->vs->o.jsonl]) fwrite(p, 1, n, v->vs->o.stream_log);
}

/* The digits after "at": in a data line. */
static void scan_at(viewer *v, char ch)
{
  static const char pat[] = "\"at\":";
  if (v->at_state == 5) {
    if (ch >= '0' && ch <= '9') {
      v->at_val = v->at_val * 10 + (ch - '0');
      return;
    }
    v->at_last = v->at_val;
    v->at_state = 0;
  }
  if (ch == pat[v->at_state]) {
    if (++v->at_state == 5) v->at_val = 0;
  } else {
    v->at_state = ch == '"';
  }
}

/* What was held back goes into the digest: an event line's "event:" and
 * value, a batch line's "event: TYPE" line and "data: ". */
static void flush_typing(viewer *v)
{
  if (v->typing == 'e') {
    keep(v, "event:", 6);
    keep(v, v->type, (size_t)v->tlen);
  } else if (v->typing == 'b') {
    keep(v, "event: ", 7);
    keep(v, v->type, (size_t)v->tlen);
    keep(v, "\ndata: ", 7);
  }
  v->typing = 0;
}

/* A byte of a held-back line's start; 1 when it was taken. */
static int type_byte(viewer *v, char ch)
{
  if (v->typing == 'b' && ch == ' ') {
    if (v->tlen) flush_typing(v); /* the type ends: the data follows as it comes */
    return 1;
  }
  if (v->tlen < (int)sizeof v->type) {
    v->type[v->tlen++] = ch;
    return 1;
  }
  flush_typing(v); /* too long to be a batch's: kept as it is */
  return 0;
}

/* The end of an event line held back: "event: batch" starts a batch and
 * is not kept. Returns 1 when the line was kept. */
static int end_typing(viewer *v)
{
  int skip = 0;
  while (skip < v->tlen && v->type[skip] == ' ') skip++;
  if (v->typing == 'e' && v->tlen - skip == 5 && !memcmp(v->type + skip, "batch", 5)) {
    v->typing = 0;
    v->in_batch = 1;
    return 0;
  }
  if (v->typing == 'e') v->in_batch = 0;
  flush_typing(v);
  return 1;
}

/* The end of a line of the stream, received at `now_us`. */
static void end_line(viewer *v, long long now_us)
{
  int kept = v->kind_of_line == 'd' || v->kind_of_line == 'e';
  if (v->typing) kept = end_typing(v);
  if (!v->col) v->in_batch = 0; /* an event ends */
  if (v->kind_of_line == 'd') {
    if (v->at_state == 5) v->at_last = v->at_val;
    v->events++;
    if (v->at_last > 0) {
      long long us = now_us - v->at_last;
      xq__samples_add(&v->vs->lat, (uint64_t)(us > 0 ? us : 0) * 1000);
    }
  }
  if (kept) keep(v, "\n", 1);
  v->col = 0;
  v->kind_of_line = 0;
  v->at_state = 0;
  v->at_last = 0;
}

/* One byte of the response head; 0, or -1 when the viewer was lost. */
static int head_byte(viewer *v, char ch)
{
  if (!v->status_done && v->head_col < 12) v->status[v->head_col] = ch;
  if (ch != '\n') {
    v->head_col++;
    return 0;
  }
  /* a line of nothing (but its '\r') ends the head */
  if (v->status_done && v->head_col <= 1) {
    v->in_head = 0;
    if (strncmp(v->status, "HTTP/1.1 200", 12) && strncmp(v->status, "HTTP/1.0 200", 12)) {
      lose(v, "the stream was refused");
      return -1;
    }
  }
  v->status_done = 1;
  v->head_col = 0;
  return 0;
}

static void sse_bytes(viewer *v, const char *p, size_t n, long long now_us)
{
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (v->in_head) {
      if (head_byte(v, ch)) return;
      continue;
    }
    begun(v);
    if (ch == '\r') continue;
    if (ch == '\n') {
      end_line(v, now_us);
      continue;
    }
    if (!v->kind_of_line) {
      v->pre[v->col] = ch;
      v->kind_of_line = line_kind(v->pre, v->col + 1);
      v->tlen = 0;
      if (v->kind_of_line == 'e') v->typing = 'e';
      else if (v->kind_of_line == 'd' && v->in_batch) v->typing = 'b';
      else if (v->kind_of_line == 'd') keep(v, v->pre, (size_t)v->col + 1);
    } else if (v->kind_of_line != 'x' && !(v->typing && type_byte(v, ch))) {
      keep(v, &ch, 1);
      if (v->kind_of_line == 'd') scan_at(v, ch);
    }
    v->col++;
  }
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
  static char scratch[XQ_LOADGEN_VIEWER_BUF]; /* one loop thread: bytes are not kept */
  (void)h;
  (void)hint;
  *buf = uv_buf_init(scratch, sizeof scratch);
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  viewer *v = st->data;
  if (nread == 0 || v->closed) return;
  if (nread < 0) {
    if (!v->vs->closing) lose(v, nread == UV_EOF ? "the stream was ended" : uv_strerror((int)nread));
    return;
  }
  v->bytes += nread;
  if (v->kind == V_JSONL) {
    begun(v);
    for (ssize_t i = 0; i < nread; i++) v->events += buf->base[i] == '\n';
    return;
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts); /* the server's "at" is its wall clock */
  sse_bytes(v, buf->base, (size_t)nread, (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

static void on_connected(uv_connect_t *req, int status)
{
  viewer *v = req->data;
  xq__viewers *vs = v->vs;
  if (v->closed) return;
  if (status < 0) {
    lose(v, uv_strerror(status));
    return;
  }
  v->connected = 1;
  char text[XQ_URL_MAX + XQ_URL_HOST_MAX + 128];
  int len;
  if (v->kind == V_JSONL) {
    len = snprintf(text, sizeof text, "{\"id\":0,\"op\":\"watch\"}\n");
  } else {
    const xq_http_url *u = v->url >= 0 ? &vs->o.urls[v->url] : NULL;
    len = snprintf(text, sizeof text, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n",
                   u ? u->target : "/api/events", u ? u->hostport : "xqref");
  }
  uv_buf_t b = uv_buf_init(text, (unsigned)len);
  xq__jsonl_write_queued((uv_stream_t *)&v->tcp, &b, 1); /* a failed write shows as a read error */
  uv_read_start((uv_stream_t *)&v->tcp, on_alloc, on_read);
}

/* ------------------------------------------------------------------ */
/* The viewers                                                         */
/* ------------------------------------------------------------------ */

/* Connect every viewer (on the viewers' loop, in their thread). */
static void connect_all(xq__viewers *vs)
{
  const xq__view_opts *o = &vs->o;
  for (int i = 0; i < vs->n; i++) {
    viewer *v = &vs->v[i];
    v->vs = vs;
    v->kind = i < o->jsonl ? V_JSONL : V_SSE;
    v->url = v->kind == V_SSE && o->nurls ? (i - o->jsonl) % o->nurls : -1;
    v->in_head = v->kind == V_SSE;
    v->digest = FNV_OFFSET;
    uv_tcp_init(&vs->loop, &v->tcp);
    v->tcp.data = v->creq.data = v;
    vs->open++;
    const struct sockaddr *sa = v->kind == V_JSONL ? o->jsonl_addr
                                : v->url >= 0      ? (const struct sockaddr *)&o->url_addrs[v->url]
                                                   : o->sse_addr;
    int rc = uv_tcp_connect(&v->creq, &v->tcp, sa, on_connected);
    if (rc) lose(v, uv_strerror(rc));
  }
}

static void end_now(xq__viewers *vs);

/* The run's loop asked (xq__viewers_end, xq__viewers_close). */
static void on_ask(uv_async_t *a)
{
  xq__viewers *vs = a->data;
  int what = atomic_load(&vs->asked);
  if (what == ASK_CLOSE) close_now(vs);
  else if (what == ASK_END) end_now(vs);
}

/* The viewers' thread: connect, then run until every viewer and the
 * timer are closed (the ask handle stays open: the run's loop may still
 * send to it; it is closed after the join). */
static void viewers_thread(void *arg)
{
  xq__viewers *vs = arg;
  /* the viewers stand for other machines' clients: where they share the
   * cores, the boards they are measured against go first */
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), XQ_LOADGEN_VIEWER_NICE);
  if (vs->o.cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(vs->o.cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) && vs->o.log)
      fprintf(vs->o.log, "xqref loadgen: the viewers cannot be put on core %d\n", vs->o.cpu);
  }
  connect_all(vs);
  say_ready(vs);
  while (vs->open > 0) uv_run(&vs->loop, UV_RUN_ONCE);
  atomic_store(&vs->done, 1);
  uv_async_send(&vs->note);
}

static void on_note_closed(uv_handle_t *h) { (void)h; }

/* On the run's loop: the viewers are ready (o.ready, once), or their
 * thread is done (joined, their loop closed, and this handle with it). */
static void on_note(uv_async_t *a)
{
  xq__viewers *vs = a->data;
  if (atomic_load(&vs->ready) && !vs->ready_called) {
    vs->ready_called = 1;
    if (vs->o.ready) vs->o.ready(vs->o.arg);
  }
  if (!atomic_load(&vs->done) || !vs->threaded) return;
  uv_thread_join(&vs->thread);
  vs->threaded = 0;
  uv_close((uv_handle_t *)&vs->ask, NULL);
  uv_run(&vs->loop, UV_RUN_DEFAULT);
  uv_loop_close(&vs->loop);
  uv_close((uv_handle_t *)&vs->note, on_note_closed);
}

int xq__viewers_start(uv_loop_t *loop, const xq__view_opts *o, xq__viewers **out)
{
  *out = NULL;
  xq__viewers *vs = calloc(1, sizeof *vs);
  int n = o->jsonl + o->sse;
  if (!vs || (n && !(vs->v = calloc((size_t)n, sizeof *vs->v)))) {
    free(vs);
    return XQ_ENOMEM;
  }
  vs->o = *o;
  vs->n = n;
  atomic_init(&vs->pending, n);
  *out = vs;
  if (!n) { /* nobody watches: ready at once, no thread */
    vs->ready_said = vs->ready_called = 1;
    if (o->ready) o->ready(o->arg);
    return XQ_OK;
  }
  if (uv_loop_init(&vs->loop)) return XQ_EIO;
  uv_timer_init(&vs->loop, &vs->quiet);
  vs->quiet.data = vs;
  vs->open = 1;
  uv_async_init(&vs->loop, &vs->ask, on_ask);
  vs->ask.data = vs;
  uv_async_init(loop, &vs->note, on_note);
  vs->note.data = vs;
  if (uv_thread_create(&vs->thread, viewers_thread, vs)) {
    uv_close((uv_handle_t *)&vs->note, on_note_closed);
    uv_close((uv_handle_t *)&vs->ask, NULL);
    uv_close((uv_handle_t *)&vs->quiet, NULL);
    uv_run(&vs->loop, UV_RUN_DEFAULT);
    uv_loop_close(&vs->loop);
    vs->n = 0;
    return XQ_EIO;
  }
  vs->threaded = 1;
  return XQ_OK;
}

int xq__viewers_pending(const xq__viewers *vs) { return vs ? atomic_load(&((xq__viewers *)vs)->pending) : 0; }

static long bytes_received(const xq__viewers *vs)
{
  long n = 0;
  for (int i = 0; i < vs->n; i++) n += vs->v[i].bytes;
  return n;
}


static void on_quiet(uv_timer_t *t)
{
  xq__viewers *vs = t->data;
  long now = bytes_received(vs);
  vs->quiet_ticks = now == vs->seen ? vs->quiet_ticks + 1 : 0;
  vs->seen = now;
  if (vs->quiet_ticks >= XQ_LOADGEN_VIEWER_QUIET_TICKS || uv_now(t->loop) - vs->end_at >= XQ_LOADGEN_VIEWER_DRAIN_MS)
    close_now(vs);
}

/* Tell the viewers' thread; nothing once it is done. */
static void ask(xq__viewers *vs, int what)
{
  if (!vs || !vs->threaded || atomic_load(&vs->asked) == ASK_CLOSE) return;
  atomic_store(&vs->asked, what);
  uv_async_send(&vs->ask);
}

void xq__viewers_end(xq__viewers *vs) { ask(vs, ASK_END); }

void xq__viewers_close(xq__viewers *vs) { ask(vs, ASK_CLOSE); }

/* The end, in the viewers' thread: the quiet timer watches the bytes. */
static void end_now(xq__viewers *vs)
{
  if (vs->closing || vs->end_at) return;
  vs->end_at = uv_now(vs->quiet.loop);
  vs->seen = bytes_received(vs);
  uv_timer_start(&vs->quiet, on_quiet, XQ_LOADGEN_VIEWER_QUIET_MS / XQ_LOADGEN_VIEWER_QUIET_TICKS,
                 XQ_LOADGEN_VIEWER_QUIET_MS / XQ_LOADGEN_VIEWER_QUIET_TICKS);
}

long xq__viewers_lost(const xq__viewers *vs)
{
  long n = 0;
  for (int i = 0; vs && i < vs->n; i++) n += vs->v[i].lost;
  return n;
}

static void on_timer_closed(uv_handle_t *h)
{
  xq__viewers *vs = h->data;
  vs->open--;
}

/* Close every connection and the timer, in the viewers' thread. */
static void close_now(xq__viewers *vs)
{
  if (vs->closing) return;
  vs->closing = 1;
  uv_close((uv_handle_t *)&vs->quiet, on_timer_closed);
  for (int i = 0; i < vs->n; i++) {
    viewer *v = &vs->v[i];
    if (v->closed) continue;
    v->closed = 1;
    uv_close((uv_handle_t *)&v->tcp, on_close);
  }
}

/* The SSE line of the report for the viewers of URL `url` (-2: all).
 * Returns those whose stream differs from the first SSE viewer's. */
static long report_sse(xq__viewers *vs, FILE *out, int url)
{
  const viewer *first = vs->o.sse ? &vs->v[vs->o.jsonl] : NULL;
  long n = 0, same = 0, lo = -1, hi = 0;
  for (int i = vs->o.jsonl; i < vs->n; i++) {
    const viewer *v = &vs->v[i];
    if (url != -2 && v->url != url) continue;
    n++;
    same += v->digest == first->digest && v->events == first->events;
    if (lo < 0 || v->events < lo) lo = v->events;
    if (v->events > hi) hi = v->events;
  }
  if (url >= 0) fprintf(out, "  at http://%s%s: ", vs->o.urls[url].hostport, vs->o.urls[url].target);
  else fprintf(out, "sse streams: ");
  fprintf(out, "%ld viewers, events per viewer fewest %ld most %ld, the first viewer's stream exactly: %ld of %ld\n",
          n, lo < 0 ? 0 : lo, hi, same, n);
  return n - same;
}

long xq__viewers_report(xq__viewers *vs, FILE *out)
{
  if (!vs || !vs->n) return 0;
  long ev[2] = {0, 0}, by = 0, conn = 0;
  for (int i = 0; i < vs->n; i++) {
    ev[vs->v[i].kind] += vs->v[i].events;
    by += vs->v[i].bytes;
    conn += vs->v[i].connected;
  }
  fprintf(out, "viewers %d (watch %d, sse %d): connected %ld, lost %ld, events received watch %ld sse %ld, %ld bytes\n",
          vs->n, vs->o.jsonl, vs->o.sse, conn, xq__viewers_lost(vs), ev[V_JSONL], ev[V_SSE], by);
  if (!vs->o.sse) return 0;
  long differ = report_sse(vs, out, -2);
  for (int u = 0; vs->o.nurls > 1 && u < vs->o.nurls; u++) report_sse(vs, out, u);
  xq__samples_print(&vs->lat, out, "delivery latency ms (broadcast to received)");
  return differ;
}

void xq__viewers_free(xq__viewers *vs)
{
  if (!vs) return;
  xq__samples_free(&vs->lat);
  free(vs->v);
  free(vs);
}
