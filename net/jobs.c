/*
 * jobs.c -- CPU-heavy work in libuv's worker pool: deep
 * perft, adjudicating a long move list, pairing a large round, making the
 * staff's sheets (the board slips, the exports).
 *
 * The jobs run in three lanes, each with its own slots in the pool: the
 * engine lane (perft, adjudicate: a client's question, seconds to minutes
 * of a thread) has XQ_ENGINE_RUNNING_MAX, the tournament lane (pair) has
 * XQ_TOURNEY_RUNNING_MAX, the sheets lane XQ_SHEETS_RUNNING_MAX. A lane
 * never lends its slots to another, so however many engine jobs wait, a
 * pairing starts as soon as the one before it is done. The pool
 * (XQ_POOL_THREADS, set at start-up, server.c) has threads beyond the
 * lanes for the group commit (commit.c) and the rulings of live games
 * (ops_game.c), which queue their work directly: no job of a lane can
 * delay them.
 *
 * In a lane at most one job of a client (its owner) runs at a time: a
 * client that queues several long jobs cannot keep another client's short
 * one waiting. The others wait in arrival order. How many jobs a client
 * or a role may have queued is the callers' rule (ops_engine.c,
 * ops_tourney.c, task.c), counted here by xq__jobs_count. The queue's state exists
 * while there is a job and is freed when the last one is done, so the
 * server keeps nothing for it between jobs and needs no clean-up at
 * shutdown (the loop runs until every job has finished).
 */
#include <stdlib.h>

#include "conn.h"
#include "internal.h"
#include "jobs.h"

#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define SLOTS_MAX MAX2(MAX2(XQ_ENGINE_RUNNING_MAX, XQ_TOURNEY_RUNNING_MAX), XQ_SHEETS_RUNNING_MAX)

/* The slots of each lane in the pool. */
static const int lane_slots[XQ__LANES] = {
  [XQ__LANE_ENGINE] = XQ_ENGINE_RUNNING_MAX,
  [XQ__LANE_TOURNEY] = XQ_TOURNEY_RUNNING_MAX,
  [XQ__LANE_SHEETS] = XQ_SHEETS_RUNNING_MAX,
};

typedef struct lane {
  xq__job *run[SLOTS_MAX];           /* in the pool (NULL = a free slot) */
  int running;
  xq__job *head, *tail;              /* waiting, oldest first */
} lane;

struct xq__jobs {
  lane lanes[XQ__LANES];
};

static void work_cb(uv_work_t *w)
{
  xq__job *j = w->data;
  j->run(j);
}

static void after_cb(uv_work_t *w, int status);

/* Put `j` in a free slot of lane `l` and into the pool. XQ_OK or XQ_EIO. */
static int start(lane *l, xq__job *j)
{
  j->work.data = j;
  if (uv_queue_work(j->s->loop, &j->work, work_cb, after_cb) != 0) return XQ_EIO;
  for (int i = 0; i < lane_slots[j->lane]; i++)
    if (!l->run[i]) {
      l->run[i] = j;
      break;
    }
  l->running++;
  return XQ_OK;
}

/* True when a job of `owner` runs in lane `l` of `slots` slots. */
static int owner_running(const lane *l, int slots, const xq__conn *owner)
{
  for (int i = 0; owner && i < slots; i++)
    if (l->run[i] && l->run[i]->owner == owner) return 1;
  return 0;
}

/* Take `j` out of the waiting list of `l`; `prev` is the job before it
 * there (NULL: j is the first). */
static void unlink_waiting(lane *l, xq__job *prev, xq__job *j)
{
  if (prev) prev->next = j->next;
  else l->head = j->next;
  if (l->tail == j) l->tail = prev;
  j->next = NULL;
}

/* Start the oldest waiting jobs of lane `k` whose owners have none
 * running there, while the lane has free slots. */
static void pump(xq__jobs *q, int k)
{
  lane *l = &q->lanes[k];
  xq__job *prev = NULL, *j = l->head;
  while (j && l->running < lane_slots[k]) {
    xq__job *next = j->next;
    if (owner_running(l, lane_slots[k], j->owner)) {
      prev = j;
      j = next;
      continue;
    }
    unlink_waiting(l, prev, j);
    if (start(l, j)) j->after(j, UV_ECANCELED); /* cannot happen with a live loop */
    j = next;
  }
}

/* Free the queue's state once no lane holds a job. */
static void free_if_idle(xq__server *s)
{
  xq__jobs *q = s->jobs;
  if (!q) return;
  for (int k = 0; k < XQ__LANES; k++)
    if (q->lanes[k].running || q->lanes[k].head) return;
  free(q);
  s->jobs = NULL;
}

static void after_cb(uv_work_t *w, int status)
{
  xq__job *j = w->data;
  xq__server *s = j->s;
  int k = j->lane;
  lane *l = &s->jobs->lanes[k];
  for (int i = 0; i < lane_slots[k]; i++)
    if (l->run[i] == j) l->run[i] = NULL;
  l->running--;
  j->after(j, status); /* may free j, and queue or drop jobs (a reply may let
                          the client's next lines be read) */
  if (!s->jobs) return;
  pump(s->jobs, k);
  free_if_idle(s);
}

int xq__jobs_queue(xq__server *s, xq__job *j, int lane_no, xq__conn *owner, int role,
                  void (*run)(xq__job *), void (*after)(xq__job *, int))
{
  if (lane_no < 0 || lane_no >= XQ__LANES) return XQ_EINVAL;
  if (!s->jobs && !(s->jobs = calloc(1, sizeof *s->jobs))) return XQ_ENOMEM;
  lane *l = &s->jobs->lanes[lane_no];
  j->s = s;
  j->lane = lane_no;
  j->owner = owner;
  j->role = role;
  j->run = run;
  j->after = after;
  j->next = NULL;
  /* after every pump, a free slot means no waiting job of the lane may
   * start: a newcomer that may start goes first without breaking arrival
   * order */
  if (l->running < lane_slots[lane_no] && !owner_running(l, lane_slots[lane_no], owner)) {
    int rc = start(l, j);
    if (rc) free_if_idle(s);
    return rc;
  }
  if (l->tail) l->tail->next = j;
  else l->head = j;
  l->tail = j;
  return XQ_OK;
}

/* True when `j` is counted: of `owner` (NULL: any) and of `role` (< 0:
 * any). */
static int counted(const xq__job *j, const xq__conn *owner, int role)
{
  return (!owner || j->owner == owner) && (role < 0 || j->role == role);
}

int xq__jobs_count(const xq__server *s, int lane_no, const xq__conn *owner, int role)
{
  if (!s->jobs || lane_no < 0 || lane_no >= XQ__LANES) return 0;
  const lane *l = &s->jobs->lanes[lane_no];
  int n = 0;
  for (int i = 0; i < lane_slots[lane_no]; i++) n += l->run[i] && counted(l->run[i], owner, role);
  for (const xq__job *j = l->head; j; j = j->next) n += counted(j, owner, role);
  return n;
}

void xq__jobs_drop_gone(xq__server *s, int lane_no)
{
  if (!s->jobs || lane_no < 0 || lane_no >= XQ__LANES) return;
  lane *l = &s->jobs->lanes[lane_no];
  xq__job *gone = NULL, *prev = NULL;
  for (xq__job *j = l->head, *next; j; j = next) {
    next = j->next;
    if (!j->owner || !xq__conn_dead(j->owner)) {
      prev = j;
      continue;
    }
    unlink_waiting(l, prev, j);
    j->next = gone;
    gone = j;
  }
  /* answered once the lane is consistent again: an after may queue */
  for (xq__job *j = gone, *next; j; j = next) {
    next = j->next;
    j->next = NULL;
    j->after(j, UV_ECANCELED); /* may free j */
  }
  free_if_idle(s);
}

int xq__jobs_running(const xq__server *s, int lane_no)
{
  if (!s->jobs || lane_no < 0 || lane_no >= XQ__LANES) return 0;
  return s->jobs->lanes[lane_no].running;
}
