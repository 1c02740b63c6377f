/*
 * commit.c -- group commit of the game log (issue "server": an event is
 * committed before it is acknowledged; group commit keeps throughput).
 *
 * Rows queued during one turn of the loop form a batch. After the turn
 * (a check handle) the batch goes to the worker pool, which writes it as
 * one transaction and returns once COMMIT is durable (WAL, synchronous =
 * FULL). Meanwhile the loop goes on judging and queueing the next batch.
 * When the worker is done, the loop sends the batch's replies in order,
 * publishes its broadcasts and runs the callbacks that waited for it; the
 * loop thread touches the store only then (or when no commit runs). A
 * batch that fails is answered with STORE_FAILED, and the games it
 * touched are rebuilt from what the store really holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "conn.h"
#include "hub.h"
#include "internal.h"
#include "live.h"
#include "proto.h"

typedef struct then_cb {
  void (*fn)(void *arg, int status);
  void *arg;
} then_cb;

/* A batch: rows in arrival order and the callbacks waiting for it. */
typedef struct batch {
  xq__row *rows;
  int n, cap;
  then_cb *then;
  int nthen, capthen;
} batch;

struct xq__commit {
  batch acc;             /* being filled by the loop */
  batch flight;          /* being written by the worker */
  int busy;              /* a worker job runs */
  int status;            /* its result */
  xq_error err;
  uv_work_t work;
  uv_check_t check;
  uv_idle_t nudge;       /* keeps the loop from blocking while rows wait */
  int closed;
  long batches, rows;    /* totals, for the log */
  uint64_t busy_ns;      /* time spent writing batches */
};

static int grow(void **p, int *cap, int need, size_t size)
{
  if (need <= *cap) return XQ_OK;
  int nc = *cap ? *cap * 2 : 64;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, (size_t)nc * size);
  if (!q) return XQ_ENOMEM;
  *p = q;
  *cap = nc;
  return XQ_OK;
}

int xq__store_idle(const xq__server *s) { return !s->commit || !s->commit->busy; }

int xq__commit_drained(const xq__server *s)
{
  const xq__commit *k = s->commit;
  return !k || (!k->busy && k->acc.n == 0 && k->acc.nthen == 0);
}

static void nudge_cb(uv_idle_t *h) { uv_idle_stop(h); }

/* Make sure this turn of the loop ends in the check handle without
 * blocking in poll, so a row queued from a timer is not left waiting. */
static void nudge(xq__commit *k)
{
  if (!k->closed && !uv_is_active((uv_handle_t *)&k->nudge)) uv_idle_start(&k->nudge, nudge_cb);
}

static xq__row *add_row(xq__server *s)
{
  xq__commit *k = s->commit;
  if (k->acc.n >= XQ_PENDING_MAX) return NULL;
  if (grow((void **)&k->acc.rows, &k->acc.cap, k->acc.n + 1, sizeof(xq__row))) return NULL;
  xq__row *r = &k->acc.rows[k->acc.n];
  memset(r, 0, sizeof *r);
  nudge(k);
  return r;
}

int xq__commit_row(xq__server *s, const xq_tgame_rec *rec, const xq_event *ev, int n, xq__conn *c,
                   const cJSON *id, const char *bcast_type, const char *bcast)
{
  xq__row *r = add_row(s);
  if (!r) return XQ_ELIMIT;
  r->rec = *rec;
  r->event = xq_events_format(ev, n);
  r->reply = strdup(rec->reply ? rec->reply : "");
  r->bcast = bcast ? strdup(bcast) : NULL;
  r->idtext = c ? xq__id_text(id) : NULL;
  if (!r->event || !r->reply || (bcast && !r->bcast) || (c && !r->idtext)) {
    free(r->event), free(r->reply), free(r->bcast), free(r->idtext);
    return XQ_ENOMEM;
  }
  r->rec.event = r->event;
  r->rec.reply = r->reply;
  r->bcast_type = bcast_type;
  if (c) {
    r->c = c;
    xq__conn_ref(c);
    c->pending_replies++;
    xq__conn_resume(c);
  }
  s->commit->acc.n++;
  return XQ_OK;
}

int xq__commit_reply(xq__server *s, xq__conn *c, const char *line, size_t len)
{
  xq__commit *k = s->commit;
  if (!k || (!k->busy && k->acc.n == 0)) return xq__conn_send(c, line, len);
  xq__row *r = add_row(s);
  if (!r) return XQ_ELIMIT;
  /* a reply-only row: no game-log record (rec.event stays NULL) */
  r->reply = malloc(len + 1);
  if (!r->reply) return XQ_ENOMEM;
  memcpy(r->reply, line, len);
  r->reply[len] = 0;
  r->c = c;
  xq__conn_ref(c);
  c->pending_replies++;
  c->owed_bytes += len; /* counted in its output budget (xq__conn_stall) */
  k->acc.n++;
  return XQ_OK;
}

int xq__commit_queued(const xq__server *s) { return s->commit ? s->commit->acc.n : 0; }

int xq__commit_attach_result(xq__server *s, int round, int board, const char *code)
{
  xq__commit *k = s->commit;
  if (!k || k->acc.n == 0 || strlen(code) >= sizeof k->acc.rows[0].tresult) return XQ_EINVAL;
  xq__row *r = &k->acc.rows[k->acc.n - 1];
  if (!r->rec.event || r->rec.round != round || r->rec.board != board) return XQ_EINVAL;
  memcpy(r->tresult, code, strlen(code) + 1);
  return XQ_OK;
}

void xq__commit_then(xq__server *s, void (*fn)(void *arg, int status), void *arg)
{
  xq__commit *k = s->commit;
  if (!k || (!k->busy && k->acc.n == 0 && k->acc.nthen == 0)) {
    fn(arg, XQ_OK);
    return;
  }
  /* with nothing queued, waiting for the batch in flight is enough */
  batch *b = k->acc.n == 0 && k->acc.nthen == 0 && k->busy ? &k->flight : &k->acc;
  if (grow((void **)&b->then, &b->capthen, b->nthen + 1, sizeof(then_cb))) {
    fn(arg, XQ_ENOMEM);
    return;
  }
  b->then[b->nthen++] = (then_cb){fn, arg};
  if (b == &k->acc) nudge(k);
}

/* ------------------------------------------------------------------ */
/* The worker                                                          */
/* ------------------------------------------------------------------ */

static void work_cb(uv_work_t *w)
{
  xq__server *s = w->data;
  xq__commit *k = s->commit;
  uint64_t t0 = uv_hrtime();
  k->status = xq_tstore_batch_begin(s->store, &k->err);
  for (int i = 0; k->status == XQ_OK && i < k->flight.n; i++) {
    xq__row *r = &k->flight.rows[i];
    if (r->rec.event) k->status = xq_tstore_game_append(s->store, &r->rec, &r->rec.id, &k->err);
    if (k->status == XQ_OK && r->rec.event && r->tresult[0]) {
      /* the tournament result in the row's own transaction (crash-ops.sh:
       * a result acknowledged is a result in the standings) */
      xq_error e = {0};
      int rc = xq_tstore_result(s->store, r->rec.round, r->rec.board, r->tresult, &e);
      if (rc == XQ_ESTORE) k->status = rc, k->err = e;
      else if (rc) r->tresult[0] = '!'; /* refused: said on the loop */
    }
  }
  if (k->status == XQ_OK) k->status = xq_tstore_batch_commit(s->store, &k->err);
  else xq_tstore_batch_rollback(s->store);
  k->busy_ns += uv_hrtime() - t0;
}

static void start(xq__server *s);

/* A failed batch: the games it touched are marked for a rebuild. */
static void mark_touched(xq__server *s, batch *b)
{
  for (int i = 0; i < b->n; i++) {
    xq__row *r = &b->rows[i];
    xq__live *lv = r->rec.event ? xq__live_get(s, r->rec.round, r->rec.board) : NULL;
    if (lv) lv->rebuild = 1;
  }
}

/* Answer every row of `b` (after a commit with `status`) and free it. */
static void finish(xq__server *s, batch *b, int status, const char *why)
{
  for (int i = 0; i < b->n; i++) {
    xq__row *r = &b->rows[i];
    xq__conn *c = r->c;
    if (c) {
      c->pending_replies--;
      if (!xq__conn_dead(c)) {
        c->flushing = 1; /* this reply's turn has come: no queueing */
        if (!r->rec.event) {
          /* a reply-only row: the line as it was written */
          size_t n = strlen(r->reply);
          c->owed_bytes -= n;
          xq__conn_send(c, r->reply, n);
        } else if (status == XQ_OK) {
          xq__reply_stored(c, r->idtext, r->reply);
        } else {
          cJSON *id = cJSON_Parse(r->idtext);
          xq__reply_error(c, id, XQ__E_STORE, why, -1);
          cJSON_Delete(id);
        }
        c->flushing = 0;
        if (c->pending_replies == 0 && s->stopping) xq__conn_end(c);
        else xq__conn_resume(c);
      }
      xq__conn_unref(c);
    }
    if (status == XQ_OK && r->bcast)
      xq__hub_publish(s, r->bcast_type, r->rec.round, r->rec.board, r->bcast);
    if (status == XQ_OK && r->tresult[0] == '!')
      xq__log(s, "round %d table %d: the store refused the result", r->rec.round, r->rec.board);
    free(r->event);
    free(r->reply);
    free(r->bcast);
    free(r->idtext);
  }
  b->n = 0;
  /* callbacks last: they may use the store (no batch is open now) */
  int nthen = b->nthen;
  then_cb *then = b->then;
  b->then = NULL;
  b->nthen = b->capthen = 0;
  for (int i = 0; i < nthen; i++) then[i].fn(then[i].arg, status);
  free(then);
}

static void after_work_cb(uv_work_t *w, int uvstatus)
{
  xq__server *s = w->data;
  xq__commit *k = s->commit;
  int status = uvstatus ? XQ_ESTORE : k->status;
  k->busy = 0;
  k->batches++;
  k->rows += k->flight.n;
  if (status != XQ_OK) {
    const char *why = k->err.msg[0] ? k->err.msg : "the store could not commit";
    xq__log(s, "commit failed: %s", why);
    /* later rows were judged on top of the failed ones: they fail too */
    batch later = k->acc;
    memset(&k->acc, 0, sizeof k->acc);
    mark_touched(s, &k->flight);
    mark_touched(s, &later);
    xq_error err = {0};
    if (xq__live_rebuild_marked(s, &err) != XQ_OK) xq__log(s, "rebuild failed: %s", err.msg);
    finish(s, &k->flight, status, why);
    finish(s, &later, status, why);
    free(later.rows);
    free(later.then);
  } else {
    finish(s, &k->flight, XQ_OK, NULL);
  }
  if (k->acc.n || k->acc.nthen) start(s);
}

/* Hand the filled batch to the worker (or, with no rows to write, answer
 * it at once). */
static void start(xq__server *s)
{
  xq__commit *k = s->commit;
  if (k->busy || (k->acc.n == 0 && k->acc.nthen == 0)) return;
  int records = 0;
  for (int i = 0; i < k->acc.n && !records; i++) records = k->acc.rows[i].rec.event != NULL;
  batch b = k->flight;
  k->flight = k->acc;
  k->acc = b;
  k->acc.n = 0;
  if (!records) {
    /* replies and callbacks only: nothing to make durable */
    finish(s, &k->flight, XQ_OK, NULL);
    return;
  }
  k->busy = 1;
  k->err.msg[0] = 0;
  k->work.data = s;
  if (uv_queue_work(s->loop, &k->work, work_cb, after_work_cb) != 0) {
    k->busy = 0;
    k->status = XQ_ESTORE;
    snprintf(k->err.msg, sizeof k->err.msg, "cannot queue the commit");
    after_work_cb(&k->work, 0);
  }
}

static void check_cb(uv_check_t *h)
{
  xq__server *s = h->data;
  start(s);
}

int xq__commit_init(xq__server *s)
{
  xq__commit *k = calloc(1, sizeof *k);
  if (!k) return XQ_ENOMEM;
  s->commit = k;
  uv_check_init(s->loop, &k->check);
  uv_idle_init(s->loop, &k->nudge);
  k->check.data = k->nudge.data = s;
  uv_check_start(&k->check, check_cb);
  uv_unref((uv_handle_t *)&k->check);
  return XQ_OK;
}

static void on_closed(uv_handle_t *h) { (void)h; }

void xq__commit_close(xq__server *s)
{
  xq__commit *k = s->commit;
  if (!k || k->closed) return;
  k->closed = 1;
  uv_close((uv_handle_t *)&k->check, on_closed);
  uv_close((uv_handle_t *)&k->nudge, on_closed);
  xq__log(s, "committed %ld game-log rows in %ld batches (%.2f ms a batch)", k->rows, k->batches,
          k->batches ? k->busy_ns / 1e6 / (double)k->batches : 0.0);
}

void xq__commit_free(xq__server *s)
{
  xq__commit *k = s->commit;
  if (!k) return;
  free(k->acc.rows);
  free(k->acc.then);
  free(k->flight.rows);
  free(k->flight.then);
  free(k);
  s->commit = NULL;
}
