/*
 * jobs.c -- CPU-heavy work in libuv's worker pool (server.md §1.8): deep
 * perft, adjudicating a long move list, pairing a large round.
 *
 * The pool is shared with the group commit (commit.c), and libuv gives it
 * 4 threads by default. A few long jobs must never hold every thread, or
 * no board event could be made durable meanwhile. So at most
 * XQ_JOBS_RUNNING_MAX jobs are in the pool at once, server-wide, and at
 * most one per client: a client that queues several long jobs cannot
 * keep another client's short one waiting. The others wait here in
 * arrival order. The queue's state exists while there is a job and is
 * freed when the last one is done, so the server keeps nothing for it
 * between jobs and needs no clean-up at shutdown (the loop runs until
 * every job has finished).
 */
#include <stdlib.h>

#include "internal.h"

struct xq__jobs {
  xq__job *run[XQ_JOBS_RUNNING_MAX]; /* in the pool (NULL = a free slot) */
  int running;
  xq__job *head, *tail;              /* waiting, oldest first */
};

static void work_cb(uv_work_t *w)
{
  xq__job *j = w->data;
  j->run(j);
}

static void after_cb(uv_work_t *w, int status);

/* Put `j` in a free slot and into the pool. XQ_OK or XQ_EIO. */
static int start(xq__jobs *q, xq__job *j)
{
  j->work.data = j;
  if (uv_queue_work(j->s->loop, &j->work, work_cb, after_cb) != 0) return XQ_EIO;
  for (int i = 0; i < XQ_JOBS_RUNNING_MAX; i++)
    if (!q->run[i]) {
      q->run[i] = j;
      break;
    }
  q->running++;
  return XQ_OK;
}

/* True when a job of `owner` is in the pool. */
static int owner_running(const xq__jobs *q, const void *owner)
{
  for (int i = 0; owner && i < XQ_JOBS_RUNNING_MAX; i++)
    if (q->run[i] && q->run[i]->owner == owner) return 1;
  return 0;
}

/* Start the oldest waiting jobs whose owners have none running, while
 * there are free slots. */
static void pump(xq__jobs *q)
{
  xq__job *prev = NULL, *j = q->head;
  while (j && q->running < XQ_JOBS_RUNNING_MAX) {
    xq__job *next = j->next;
    if (owner_running(q, j->owner)) {
      prev = j;
      j = next;
      continue;
    }
    if (prev) prev->next = next;
    else q->head = next;
    if (q->tail == j) q->tail = prev;
    j->next = NULL;
    if (start(q, j)) j->after(j, UV_ECANCELED); /* cannot happen with a live loop */
    j = next;
  }
}

static void after_cb(uv_work_t *w, int status)
{
  xq__job *j = w->data;
  xq__server *s = j->s;
  xq__jobs *q = s->jobs;
  for (int i = 0; i < XQ_JOBS_RUNNING_MAX; i++)
    if (q->run[i] == j) q->run[i] = NULL;
  q->running--;
  j->after(j, status); /* may free j */
  pump(q);
  if (!q->running && !q->head) {
    free(q);
    s->jobs = NULL;
  }
}

int xq__job_queue(xq__server *s, xq__job *j, const void *owner, void (*run)(xq__job *),
                  void (*after)(xq__job *, int))
{
  if (!s->jobs && !(s->jobs = calloc(1, sizeof *s->jobs))) return XQ_ENOMEM;
  xq__jobs *q = s->jobs;
  j->s = s;
  j->owner = owner;
  j->run = run;
  j->after = after;
  j->next = NULL;
  /* after every pump, a free slot means no waiting job may start: a
   * newcomer that may start goes first without breaking arrival order */
  if (q->running < XQ_JOBS_RUNNING_MAX && !owner_running(q, owner)) {
    int rc = start(q, j);
    if (rc && !q->running && !q->head) {
      free(q);
      s->jobs = NULL;
    }
    return rc;
  }
  if (q->tail) q->tail->next = j;
  else q->head = j;
  q->tail = j;
  return XQ_OK;
}
