/*
 * commit.c -- the durability queue: the group commit of the game log. An
 * event is durable before it is acknowledged; group commit keeps the
 * throughput.
 *
 * Rows queued during one turn of the loop form a batch. After the turn
 * (a check handle) the batch goes to the worker pool, which writes it as
 * one transaction and returns once COMMIT is durable (WAL, synchronous =
 * FULL). Meanwhile the loop goes on judging and queueing the next batch.
 * When the worker is done, each row's completion callback runs on the
 * loop, in the order the rows were queued, with the batch's status (a
 * callback that waits for everything queued so far, xq__commit_then, is
 * a row without a record). A batch that
 * fails fails the rows queued after it too (they were judged on top of
 * it). What a completion means -- a reply, a broadcast, a rebuilt game --
 * is the business of whoever queued the row: this file writes rows and
 * calls back, and calls nothing else of the server.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "internal.h"

typedef struct then_cb {
  xq__commit_cb fn;
  void *arg;
} then_cb;

/* One row: a game-log record (or none: a row that only keeps its place
 * in the order of completions) and its completion. */
typedef struct row {
  xq_tgame_rec rec;            /* rec.event / rec.reply point into the owned strings */
  char *event, *reply;         /* event: the text form of the row's events; NULL for no record */
  char tresult[4];             /* a result for the tournament log, written in the row's
                                  transaction ("" none; xq__commit_attach_result) */
  xq__commit_cb done;
  void *arg;
} row;

/* A batch: rows in arrival order, and the callbacks that came to wait for
 * it once nothing was queued after it (the batch being filled has none:
 * a callback that waits for it is a row without a record). */
typedef struct batch {
  row *rows;
  int n, cap;
  then_cb *then;
  int nthen, capthen;
} batch;

struct xq__commit {
  batch acc;             /* being filled by the loop */
  batch flight;          /* being written by the worker */
  batch *finishing;      /* whose callbacks run now, NULL none */
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

int xq__commit_idle(const xq__server *s) { return !s->commit || !s->commit->busy; }

int xq__commit_drained(const xq__server *s)
{
  const xq__commit *k = s->commit;
  return !k || (!k->busy && k->acc.n == 0);
}

static void nudge_cb(uv_idle_t *h) { uv_idle_stop(h); }

/* Make sure this turn of the loop ends in the check handle without
 * blocking in poll, so a row queued from a timer is not left waiting. */
static void nudge(xq__commit *k)
{
  if (!k->closed && !uv_is_active((uv_handle_t *)&k->nudge)) uv_idle_start(&k->nudge, nudge_cb);
}

/* Append a row to the batch being filled (`limited`: XQ_PENDING_MAX
 * rows at most). XQ_OK, XQ_ELIMIT or XQ_ENOMEM. */
static int queue(xq__commit *k, const xq_tgame_rec *rec, const xq_event *ev, int n, xq__commit_cb done,
                 void *arg, int limited)
{
  if (limited && k->acc.n >= XQ_PENDING_MAX) return XQ_ELIMIT;
  if (grow((void **)&k->acc.rows, &k->acc.cap, k->acc.n + 1, sizeof(row))) return XQ_ENOMEM;
  row *r = &k->acc.rows[k->acc.n];
  memset(r, 0, sizeof *r);
  if (rec) {
    r->rec = *rec;
    r->event = xq_events_format(ev, n);
    r->reply = strdup(rec->reply ? rec->reply : "");
    if (!r->event || !r->reply) {
      free(r->event), free(r->reply);
      return XQ_ENOMEM;
    }
    r->rec.event = r->event;
    r->rec.reply = r->reply;
  }
  r->done = done;
  r->arg = arg;
  k->acc.n++;
  nudge(k);
  return XQ_OK;
}

int xq__commit_row(xq__server *s, const xq_tgame_rec *rec, const xq_event *ev, int n, xq__commit_cb done,
                   void *arg)
{
  if (!s->commit || !done) return XQ_EINVAL;
  return queue(s->commit, rec, ev, n, done, arg, 1);
}

int xq__commit_queued(const xq__server *s) { return s->commit ? s->commit->acc.n : 0; }

const char *xq__commit_why(const xq__server *s)
{
  const xq__commit *k = s->commit;
  return k && k->err.msg[0] ? k->err.msg : "the store could not commit";
}

int xq__commit_attach_result(xq__server *s, int round, int board, const char *code)
{
  xq__commit *k = s->commit;
  if (!k || k->acc.n == 0 || strlen(code) >= sizeof k->acc.rows[0].tresult) return XQ_EINVAL;
  row *r = &k->acc.rows[k->acc.n - 1];
  if (!r->event || r->rec.round != round || r->rec.board != board) return XQ_EINVAL;
  memcpy(r->tresult, code, strlen(code) + 1);
  return XQ_OK;
}

void xq__commit_then(xq__server *s, xq__commit_cb fn, void *arg)
{
  xq__commit *k = s->commit;
  if (k && k->acc.n) {
    /* after the rows queued so far, in their order: a row of its own */
    if (queue(k, NULL, NULL, 0, fn, arg, 0) != XQ_OK) fn(s, arg, XQ_ENOMEM);
    return;
  }
  /* nothing queued: after the batch being written, or the one completing */
  batch *b = k && k->busy ? &k->flight : k ? k->finishing : NULL;
  if (!b) {
    fn(s, arg, XQ_OK);
    return;
  }
  if (grow((void **)&b->then, &b->capthen, b->nthen + 1, sizeof(then_cb))) {
    fn(s, arg, XQ_ENOMEM);
    return;
  }
  b->then[b->nthen++] = (then_cb){fn, arg};
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
    row *r = &k->flight.rows[i];
    if (r->event) k->status = xq_tstore_game_append(s->store, &r->rec, &r->rec.id, &k->err);
    if (k->status == XQ_OK && r->event && r->tresult[0]) {
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

/* Complete every row of `b` (after a commit with `status`) in order, then
 * the callbacks that waited for it -- those added meanwhile too -- and
 * empty it. */
static void finish(xq__server *s, batch *b, int status)
{
  xq__commit *k = s->commit;
  k->finishing = b;
  for (int i = 0; i < b->n; i++) {
    row *r = &b->rows[i];
    if (status == XQ_OK && r->tresult[0] == '!')
      xq__log(s, "round %d table %d: the store refused the result", r->rec.round, r->rec.board);
    free(r->event);
    free(r->reply);
    r->event = r->reply = NULL;
    r->done(s, r->arg, status);
  }
  b->n = 0;
  /* waiting callbacks last: they may use the store (no batch is open) */
  for (int i = 0; i < b->nthen; i++) b->then[i].fn(s, b->then[i].arg, status);
  b->nthen = 0;
  k->finishing = NULL;
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
    xq__log(s, "commit failed: %s", k->err.msg[0] ? k->err.msg : "the store could not commit");
    /* the rows queued meanwhile were judged on top of the failed ones:
     * they fail with them, after them */
    batch later = k->acc;
    memset(&k->acc, 0, sizeof k->acc);
    batch *f = &k->flight;
    if (grow((void **)&f->rows, &f->cap, f->n + later.n, sizeof(row)) == XQ_OK) {
      if (later.n) memcpy(f->rows + f->n, later.rows, sizeof(row) * (size_t)later.n); /* (rows NULL when none) */
      f->n += later.n;
      later.n = 0;
    }
    finish(s, f, status);
    finish(s, &later, status); /* (out of memory to merge: the later rows second) */
    free(later.rows);
    free(later.then);
  } else {
    finish(s, &k->flight, XQ_OK);
  }
  if (k->acc.n) start(s);
}

/* Hand the filled batch to the worker (or, with no record to write,
 * complete it at once). */
static void start(xq__server *s)
{
  xq__commit *k = s->commit;
  if (k->busy || k->finishing || k->acc.n == 0) return;
  int records = 0;
  for (int i = 0; i < k->acc.n && !records; i++) records = k->acc.rows[i].event != NULL;
  batch b = k->flight;
  k->flight = k->acc;
  k->acc = b;
  k->acc.n = 0;
  if (!records) {
    /* completions and callbacks only: nothing to make durable */
    finish(s, &k->flight, XQ_OK);
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
