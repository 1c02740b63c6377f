/*
 * fanout.c -- the SSE viewers, on a thread of their own with a libuv loop
 * of their own (docs/server.md, "Fan-out"): the loop of the boards,
 * arbiters and organisers writes nothing to viewers, however many watch.
 *
 * The loop hands the fan-out two things through one queue under a mutex,
 * woken by uv_async_send, in the order it queued them: events (the hub's
 * SSE encoding, made once and shared: a buffer's count of references is
 * atomic) and viewers (a socket taken out of the loop, xq__conn_detach,
 * with the start of its stream: the response head, then a snapshot or the
 * events it missed). A viewer thus gets every event published after its
 * start, with no gap and none twice.
 *
 * Each viewer has a list of the buffers waiting for it. A flush sends
 * them in one writev (uv_try_write), and what the socket does not take in
 * one uv_write; a viewer has one write in flight at most, and what comes
 * meanwhile goes in the next. A viewer is written at most every
 * XQ_FANOUT_TICK_MS, a fifth of them at a time (XQ_FANOUT_SLOTS, their
 * writes spread over the tick), so that under load several events go out
 * in one write; after a quiet tick the next event goes out at once. The
 * thread runs at nice XQ_FANOUT_NICE: boards first. A viewer with
 * more than XQ_OUT_VIEWER_MAX bytes waiting (besides the start of its
 * stream) is dropped. What a viewer sends is read and dropped: reading
 * tells when it has gone.
 */
#include <stdlib.h> /* and features.h: __GLIBC__ */
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "conn.h"
#include "fanout.h"
#include "internal.h"

/* What the loop hands over: an event, or a viewer (start not NULL). */
typedef struct fo_item {
  struct fo_item *next;
  int round;                   /* the event's round, or the viewer's filter (0: all) */
  xq__buf *buf;                /* the event's SSE encoding (a reference) */
  uv_os_sock_t fd;             /* the viewer's socket ... */
  xq__buf **start;             /* ... and the start of its stream (references) */
  int nstart;
  char peer[64];
} fo_item;

typedef struct fo_viewer {
  uv_tcp_t tcp;                /* first member */
  uv_write_t wreq;             /* the one write in flight */
  uv_shutdown_t sreq;
  xq__fanout *f;
  struct fo_viewer *prev, *next;
  int round;                   /* 0: every round */
  int slot;                    /* the ticks it is written at (XQ_FANOUT_SLOTS) */
  xq__buf **wait;              /* buffers waiting, in order (references) */
  int nwait, capwait;
  size_t wait_bytes;
  xq__buf **fly;               /* the buffers of the write in flight (XQ_FANOUT_IOV_MAX) */
  int nfly;
  size_t fly_bytes;            /* ... the bytes of them the socket has not taken */
  size_t start_left;           /* bytes of the stream's start not written yet: allowed
                                  besides XQ_OUT_VIEWER_MAX */
  uint64_t progress_at;        /* loop time its socket last took bytes (or it had none waiting) */
  int writing, ending, shutting, closing;
  char peer[64];
} fo_viewer;

struct xq__fanout {
  xq__server *s;               /* for its log only */
  /* shared by both threads: under mu, or atomic */
  uv_mutex_t mu;
  fo_item *head, *tail;        /* the queue */
  int stop;
  atomic_int nviewers;
  int max;                     /* XQ_VIEWERS_MAX (tests: xq_server_opts) */
  /* the server loop's */
  uv_async_t done;             /* the thread has ended */
  int stopped, joined;
  /* the fan-out thread's (set up before it starts) */
  uv_thread_t thread;
  uv_loop_t loop;
  uv_async_t wake;
  uv_timer_t tick, keepalive, grace, deaf;
  unsigned stall_ms;           /* a viewer whose socket takes nothing this long is dropped */
  int give_back;               /* viewers were dropped: their memory goes back to the system */
  uint64_t turn;               /* the last turn written (loop time / the tick's slot length) */
  int quiet;                   /* ticks in a row after which nothing waited */
  unsigned next_slot;          /* the slot of the next viewer */
  int ending, grace_closed;
  fo_viewer *viewers;
  xq__buf *ka;                 /* ": keepalive\n\n" */
  char scratch[XQ_FANOUT_READ];
  int status;                  /* uv_loop_close of its loop (read after the join) */
};

/* ------------------------------------------------------------------ */
/* Viewers (on the fan-out thread)                                     */
/* ------------------------------------------------------------------ */

static void flush(fo_viewer *v);

static void on_viewer_closed(uv_handle_t *h)
{
  fo_viewer *v = h->data;
  xq__fanout *f = v->f;
  for (int i = 0; i < v->nwait; i++) xq__buf_unref(v->wait[i]);
  for (int i = 0; i < v->nfly; i++) xq__buf_unref(v->fly[i]);
  free(v->wait);
  free(v->fly);
  free(v);
  atomic_fetch_sub(&f->nviewers, 1);
  if (f->ending && !f->viewers && !f->grace_closed) {
    f->grace_closed = 1;
    uv_close((uv_handle_t *)&f->grace, NULL);
  }
}

/* Close now: nobody finds it from here on; what waits is dropped. */
static void viewer_close(fo_viewer *v)
{
  if (v->closing) return;
  v->closing = 1;
  xq__fanout *f = v->f;
  if (v->prev) v->prev->next = v->next;
  else f->viewers = v->next;
  if (v->next) v->next->prev = v->prev;
  v->prev = v->next = NULL;
  uv_close((uv_handle_t *)&v->tcp, on_viewer_closed);
}

/* `n` more bytes went to the socket: the start is written first. */
static void written(fo_viewer *v, size_t n)
{
  v->start_left -= n < v->start_left ? n : v->start_left;
  if (n) v->progress_at = uv_now(&v->f->loop);
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
  (void)status;
  viewer_close(req->data);
}

/* A viewer being ended (shutdown) whose output has all gone is shut. */
static void maybe_end(fo_viewer *v)
{
  if (!v->ending || v->writing || v->nwait || v->shutting || v->closing) return;
  v->shutting = 1;
  v->sreq.data = v;
  if (uv_shutdown(&v->sreq, (uv_stream_t *)&v->tcp, on_shutdown) != 0) viewer_close(v);
}

static void on_write(uv_write_t *req, int status)
{
  fo_viewer *v = req->data;
  for (int i = 0; i < v->nfly; i++) xq__buf_unref(v->fly[i]);
  v->nfly = 0;
  size_t n = v->fly_bytes;
  v->fly_bytes = 0;
  v->writing = 0;
  if (v->closing) return; /* UV_ECANCELED: only the buffers mattered */
  if (status < 0) {
    viewer_close(v);
    return;
  }
  written(v, n);
  flush(v);
}

/* Write what waits for `v`: up to XQ_FANOUT_IOV_MAX buffers a writev;
 * what the socket does not take goes in one uv_write, and the rest waits
 * for its end. */
static void flush(fo_viewer *v)
{
  while (!v->writing && !v->closing && v->nwait) {
    int n = v->nwait < XQ_FANOUT_IOV_MAX ? v->nwait : XQ_FANOUT_IOV_MAX;
    uv_buf_t iov[XQ_FANOUT_IOV_MAX];
    size_t chunk = 0;
    for (int i = 0; i < n; i++) {
      iov[i] = uv_buf_init(v->wait[i]->data, (unsigned)v->wait[i]->len);
      chunk += v->wait[i]->len;
    }
    int r = uv_try_write((uv_stream_t *)&v->tcp, iov, (unsigned)n);
    if (r == UV_EAGAIN) r = 0;
    if (r < 0) {
      viewer_close(v);
      return;
    }
    written(v, (size_t)r);
    int done = 0;
    size_t left = (size_t)r;
    while (done < n && left >= iov[done].len) {
      left -= iov[done].len;
      xq__buf_unref(v->wait[done++]);
    }
    int rest = n - done;
    if (rest && !v->fly && !(v->fly = malloc(sizeof *v->fly * XQ_FANOUT_IOV_MAX))) {
      /* the close unreferences what is still waiting: not what went */
      memmove(v->wait, v->wait + done, sizeof *v->wait * (size_t)(v->nwait - done));
      v->nwait -= done;
      viewer_close(v);
      return;
    }
    for (int i = 0; i < rest; i++) v->fly[i] = v->wait[done + i];
    v->nfly = rest;
    v->fly_bytes = chunk - (size_t)r;
    v->wait_bytes -= chunk;
    memmove(v->wait, v->wait + n, sizeof *v->wait * (size_t)(v->nwait - n));
    v->nwait -= n;
    if (!rest) continue; /* all of it went: the next chunk */
    /* the socket is full: the rest of this chunk goes in one uv_write */
    iov[done].base += left;
    iov[done].len -= (unsigned)left;
    v->wreq.data = v;
    v->writing = 1;
    if (uv_write(&v->wreq, (uv_stream_t *)&v->tcp, iov + done, (unsigned)rest, on_write) != 0) {
      v->writing = 0;
      viewer_close(v); /* the buffers of fly go with it */
    }
    return;
  }
  maybe_end(v);
}

/* Queue the live event `b` for `v` (a reference is taken); a viewer
 * over its budget is dropped. */
static void append(fo_viewer *v, xq__buf *b)
{
  size_t behind = v->wait_bytes + v->fly_bytes;
  if (!behind) v->progress_at = uv_now(&v->f->loop); /* its clock runs from now */
  if (behind + b->len > XQ_OUT_VIEWER_MAX + v->start_left) {
    /* a viewer that does not read is dropped, not buffered */
    xq__log(v->f->s, "drop %s: %zu bytes waiting", v->peer, behind);
    viewer_close(v);
    return;
  }
  if (v->nwait == v->capwait) {
    int cap = v->capwait ? v->capwait * 2 : 8;
    xq__buf **w = realloc(v->wait, sizeof *w * (size_t)cap);
    if (!w) {
      viewer_close(v);
      return;
    }
    v->wait = w;
    v->capwait = cap;
  }
  xq__buf_ref(b);
  v->wait[v->nwait++] = b;
  v->wait_bytes += b->len;
}

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
  (void)hint;
  fo_viewer *v = h->data;
  buf->base = v->f->scratch;
  buf->len = sizeof v->f->scratch;
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *buf)
{
  (void)buf;
  if (n < 0) viewer_close(st->data); /* gone */
}

/* ------------------------------------------------------------------ */
/* The queue and the ticks (on the fan-out thread)                     */
/* ------------------------------------------------------------------ */

/* A viewer is written at the turns of its slot: a turn every
 * XQ_FANOUT_TICK_MS / XQ_FANOUT_SLOTS of loop time, the slots in turn, so
 * that each viewer is written once every XQ_FANOUT_TICK_MS with all that
 * came meanwhile and the viewers' writes are spread over the tick, not
 * made all at once. */
enum { TURN_MS = XQ_FANOUT_TICK_MS / XQ_FANOUT_SLOTS };

/* Write to the viewers of the slots whose turn has come since the last
 * (all of them after a quiet while). Returns 1 when something still
 * waits. */
static int run_turns(xq__fanout *f)
{
  uint64_t now = uv_now(&f->loop) / TURN_MS, from = f->turn + 1;
  if (now >= XQ_FANOUT_SLOTS && from + XQ_FANOUT_SLOTS <= now) from = now - XQ_FANOUT_SLOTS + 1;
  unsigned due = 0;
  for (uint64_t t = from; t <= now; t++) due |= 1u << (t % XQ_FANOUT_SLOTS);
  f->turn = now;
  int more = 0;
  for (fo_viewer *v = f->viewers, *next; v; v = next) {
    next = v->next;
    if (v->nwait && due >> v->slot & 1) flush(v);
    more |= v->nwait > 0;
  }
  return more;
}

/* The ticks run while events come, and stop once nothing has waited for
 * a whole tick: the next event is then written at once. */
static void on_tick(uv_timer_t *t)
{
  xq__fanout *f = t->data;
  if (run_turns(f)) f->quiet = 0;
  else if (++f->quiet >= XQ_FANOUT_SLOTS) uv_timer_stop(t);
}

/* Something waits for the viewers: the turns that came while the ticks
 * were stopped are written now, the others at their ticks. */
static void schedule(xq__fanout *f)
{
  if (f->ending || uv_is_active((uv_handle_t *)&f->tick)) return;
  f->quiet = 0;
  run_turns(f);
  uv_timer_start(&f->tick, on_tick, TURN_MS, TURN_MS);
}

static void on_keepalive(uv_timer_t *t)
{
  xq__fanout *f = t->data;
  for (fo_viewer *v = f->viewers, *next; v; v = next) {
    next = v->next;
    append(v, f->ka);
  }
  schedule(f);
}

/* Viewers whose socket took nothing of what waits for them for
 * stall_ms (XQ_STALL_MS) are dropped: one that never reads holds its
 * start and its events for that long at most. */
static void on_deaf(uv_timer_t *t)
{
  xq__fanout *f = t->data;
  uint64_t now = uv_now(&f->loop);
  /* the memory of the viewers dropped by the last run (their handles are
   * closed by now) goes back to the system, as the main loop gives back
   * its own drops' (server.c: on_recheck) */
#ifdef __GLIBC__
  if (f->give_back) malloc_trim(0);
#endif
  f->give_back = 0;
  for (fo_viewer *v = f->viewers, *next; v; v = next) {
    next = v->next;
    if (v->closing || v->wait_bytes + v->fly_bytes == 0 || now - v->progress_at < f->stall_ms) continue;
    xq__log(f->s, "drop %s: took nothing of %zu bytes for %u ms", v->peer, v->wait_bytes + v->fly_bytes,
            f->stall_ms);
    viewer_close(v);
    f->give_back = 1;
  }
}

/* A viewer handed over: its socket opened on this loop, its start first
 * in what waits for it. */
static void adopt(xq__fanout *f, fo_item *it)
{
  fo_viewer *v = calloc(1, sizeof *v);
  if (!v || uv_tcp_init(&f->loop, &v->tcp) != 0) {
    close(it->fd);
    for (int i = 0; i < it->nstart; i++) xq__buf_unref(it->start[i]);
    free(v);
    atomic_fetch_sub(&f->nviewers, 1);
    return;
  }
  v->tcp.data = v;
  v->f = f;
  v->progress_at = uv_now(&f->loop);
  v->round = it->round;
  v->slot = (int)(f->next_slot++ % XQ_FANOUT_SLOTS);
  memcpy(v->peer, it->peer, sizeof v->peer);
  v->next = f->viewers;
  if (f->viewers) f->viewers->prev = v;
  f->viewers = v;
  /* the start's references become the viewer's */
  v->wait = it->start;
  v->nwait = v->capwait = it->nstart;
  it->start = NULL;
  for (int i = 0; i < v->nwait; i++) v->wait_bytes += v->wait[i]->len;
  v->start_left = v->wait_bytes;
  if (uv_tcp_open(&v->tcp, it->fd) != 0) {
    close(it->fd);
    viewer_close(v);
    return;
  }
  if (uv_read_start((uv_stream_t *)&v->tcp, on_alloc, on_read) != 0) viewer_close(v);
  else flush(v); /* its start at once; the events with the next tick */
}

static void on_grace(uv_timer_t *t)
{
  xq__fanout *f = t->data;
  while (f->viewers) viewer_close(f->viewers);
}

/* Stop: every viewer gets what waits for it and is shut, within
 * XQ_SHUTDOWN_GRACE_MS; then the last handles close and the loop ends. */
static void begin_end(xq__fanout *f)
{
  f->ending = 1;
  uv_close((uv_handle_t *)&f->wake, NULL);
  uv_close((uv_handle_t *)&f->tick, NULL);
  uv_close((uv_handle_t *)&f->keepalive, NULL);
  uv_close((uv_handle_t *)&f->deaf, NULL);
  for (fo_viewer *v = f->viewers, *next; v; v = next) {
    next = v->next;
    v->ending = 1;
    flush(v);
  }
  if (f->viewers) {
    uv_timer_start(&f->grace, on_grace, XQ_SHUTDOWN_GRACE_MS, 0);
  } else {
    f->grace_closed = 1; /* viewers still closing see it */
    uv_close((uv_handle_t *)&f->grace, NULL);
  }
}

static void on_wake(uv_async_t *a)
{
  xq__fanout *f = a->data;
  uv_mutex_lock(&f->mu);
  fo_item *it = f->head;
  f->head = f->tail = NULL;
  int stop = f->stop;
  uv_mutex_unlock(&f->mu);
  int any = it != NULL;
  while (it) {
    fo_item *next = it->next;
    if (it->start) {
      adopt(f, it);
    } else {
      for (fo_viewer *v = f->viewers, *vn; v; v = vn) {
        vn = v->next;
        if (v->round <= 0 || it->round <= 0 || v->round == it->round) append(v, it->buf);
      }
      xq__buf_unref(it->buf);
    }
    free(it->start);
    free(it);
    it = next;
  }
  if (any) schedule(f);
  if (stop && !f->ending) begin_end(f);
}

static void thread_main(void *arg)
{
  xq__fanout *f = arg;
  /* boards first: when both want a core, the loop of the boards gets it
   * (on Linux a thread has a nice value of its own; failing that, the
   * thread keeps the process's) */
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), XQ_FANOUT_NICE);
  uv_run(&f->loop, UV_RUN_DEFAULT);
  f->status = uv_loop_close(&f->loop);
  uv_async_send(&f->done); /* the last thing this thread does with f */
}

/* ------------------------------------------------------------------ */
/* The server loop's side                                              */
/* ------------------------------------------------------------------ */

static void on_done(uv_async_t *a)
{
  xq__fanout *f = a->data;
  if (f->joined) return;
  uv_thread_join(&f->thread);
  f->joined = 1;
  uv_close((uv_handle_t *)&f->done, NULL);
}

static void free_items(fo_item *it)
{
  while (it) {
    fo_item *next = it->next;
    if (it->start) {
      close(it->fd);
      for (int i = 0; i < it->nstart; i++) xq__buf_unref(it->start[i]);
      free(it->start);
    }
    xq__buf_unref(it->buf);
    free(it);
    it = next;
  }
}

static void fanout_release(xq__fanout *f)
{
  free_items(f->head);
  xq__buf_unref(f->ka);
  uv_mutex_destroy(&f->mu);
  free(f);
}

static void on_done_closed_free(uv_handle_t *h) { fanout_release(h->data); }

int xq__fanout_start(xq__server *s, uv_loop_t *loop, xq__fanout **out)
{
  static const char ka[] = ": keepalive\n\n";
  *out = NULL;
  xq__fanout *f = calloc(1, sizeof *f);
  if (!f) return XQ_ENOMEM;
  if (!(f->ka = xq__buf_copy(ka, sizeof ka - 1)) || uv_mutex_init(&f->mu) != 0) {
    xq__buf_unref(f->ka);
    free(f);
    return XQ_ENOMEM;
  }
  if (uv_loop_init(&f->loop) != 0) {
    uv_mutex_destroy(&f->mu);
    xq__buf_unref(f->ka);
    free(f);
    return XQ_EIO;
  }
  f->s = s;
  f->max = s->opts.viewers_max > 0 ? s->opts.viewers_max : XQ_VIEWERS_MAX; /* tests: net.h */
  atomic_init(&f->nviewers, 0);
  uv_async_init(&f->loop, &f->wake, on_wake);
  uv_timer_init(&f->loop, &f->tick);
  uv_timer_init(&f->loop, &f->keepalive);
  uv_timer_init(&f->loop, &f->grace);
  uv_timer_init(&f->loop, &f->deaf);
  f->wake.data = f->tick.data = f->keepalive.data = f->grace.data = f->deaf.data = f;
  uv_timer_start(&f->keepalive, on_keepalive, XQ_SSE_KEEPALIVE_MS, XQ_SSE_KEEPALIVE_MS);
  f->stall_ms = (unsigned)xq__conn_scaled_ms(s, XQ_STALL_MS); /* tests scale it: net.h */
  uv_timer_start(&f->deaf, on_deaf, f->stall_ms / 2 + 1, f->stall_ms / 2 + 1);
  uv_async_init(loop, &f->done, on_done);
  f->done.data = f;
  if (uv_thread_create(&f->thread, thread_main, f) != 0) {
    /* no thread: its loop's handles are closed here, and f with the last
     * of the server loop's */
    f->ending = 1;
    uv_close((uv_handle_t *)&f->wake, NULL);
    uv_close((uv_handle_t *)&f->tick, NULL);
    uv_close((uv_handle_t *)&f->keepalive, NULL);
    uv_close((uv_handle_t *)&f->deaf, NULL);
    uv_close((uv_handle_t *)&f->grace, NULL);
    uv_run(&f->loop, UV_RUN_DEFAULT);
    uv_loop_close(&f->loop);
    uv_close((uv_handle_t *)&f->done, on_done_closed_free);
    return XQ_EIO;
  }
  *out = f;
  return XQ_OK;
}

/* (Never after xq__fanout_stop: the thread is running, and its wake
 * handle open, until it has seen the stop.) */
static void enqueue(xq__fanout *f, fo_item *it)
{
  uv_mutex_lock(&f->mu);
  if (f->tail) f->tail->next = it;
  else f->head = it;
  f->tail = it;
  uv_mutex_unlock(&f->mu);
  uv_async_send(&f->wake);
}

int xq__fanout_adopt(xq__fanout *f, xq__conn *c, int round, xq__buf **start, int n)
{
  if (!f || f->stopped || n < 1) return XQ_EINVAL;
  if (xq__fanout_full(f)) return XQ_ELIMIT;
  fo_item *it = calloc(1, sizeof *it);
  if (!it) return XQ_ENOMEM;
  memcpy(it->peer, c->peer, sizeof it->peer);
  int rc = xq__conn_detach(c, &it->fd);
  if (rc != XQ_OK) {
    xq__log(f->s, "viewer %s not handed to the fan-out: %s", it->peer, xq_strerror(rc));
    free(it);
    return rc;
  }
  it->round = round;
  it->start = start;
  it->nstart = n;
  atomic_fetch_add(&f->nviewers, 1);
  enqueue(f, it);
  return XQ_OK;
}

void xq__fanout_event(xq__fanout *f, xq__buf *b, int round)
{
  if (!f || f->stopped) return;
  fo_item *it = calloc(1, sizeof *it);
  if (!it) {
    xq__log(f->s, "fan-out: out of memory, an event does not reach the viewers");
    return;
  }
  xq__buf_ref(b);
  it->buf = b;
  it->round = round;
  enqueue(f, it);
}

int xq__fanout_viewers(const xq__fanout *f) { return f ? atomic_load(&f->nviewers) : 0; }

int xq__fanout_full(const xq__fanout *f) { return f && atomic_load(&f->nviewers) >= f->max; }

void xq__fanout_stop(xq__fanout *f)
{
  if (!f || f->stopped) return;
  f->stopped = 1;
  /* sent under the lock: the thread sees the stop (and closes its loop)
   * only once this send is over */
  uv_mutex_lock(&f->mu);
  f->stop = 1;
  uv_async_send(&f->wake);
  uv_mutex_unlock(&f->mu);
}

int xq__fanout_status(const xq__fanout *f)
{
  if (!f) return 0;
  return f->joined ? f->status : UV_EBUSY; /* the thread has not ended */
}

void xq__fanout_free(xq__fanout *f)
{
  if (!f) return;
  if (!f->joined) uv_thread_join(&f->thread); /* (the loop always waits for the thread) */
  fanout_release(f);
}
