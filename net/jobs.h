/*
 * jobs.h -- CPU-heavy jobs on the worker pool (jobs.c), in lanes with
 * their own slots, one job per client at a time. Used by ops_engine.c,
 * ops_tourney.c and, through task.c, ops_slips.c and ops_export.c.
 * Internal to net/.
 */
#ifndef XQ_NET_JOBS_H
#define XQ_NET_JOBS_H

#include <uv.h>

#include "conn.h"
#include "internal.h"


typedef struct xq__jobs xq__jobs;
/* The lanes: each has its own slots in the pool (netlimits.h), so a
 * pairing never waits behind an engine job, nor a sheet behind either. */
enum {
  XQ__LANE_ENGINE,    /* perft, adjudicate (ops_engine.c): XQ_ENGINE_RUNNING_MAX */
  XQ__LANE_TOURNEY,   /* pair (ops_tourney.c): XQ_TOURNEY_RUNNING_MAX */
  XQ__LANE_SHEETS,    /* slips, export (ops_slips.c, ops_export.c): XQ_SHEETS_RUNNING_MAX */
  XQ__LANES
};
/* One job: embed it as the first member of the job's own struct. */
typedef struct xq__job {
  uv_work_t work;
  xq__server *s;
  int lane;                                     /* XQ__LANE_* */
  xq__conn *owner;                              /* the client (one job of it runs at a time), NULL none */
  int role;                                     /* the client's role when queued (xq__jobs_count) */
  void (*run)(struct xq__job *j);              /* on a worker thread */
  void (*after)(struct xq__job *j, int status); /* on the loop; may free j */
  struct xq__job *next;                         /* the waiting queue */
} xq__job;
/* Run run(j) in the worker pool and then after(j, status) on the loop
 * (status 0, or UV_ECANCELED), in lane `lane` (XQ__LANE_*): at most the
 * lane's slots of its jobs are in the pool at once server-wide, whatever
 * the other lane holds, and one per `owner` (a connection; NULL: no such
 * limit); the others wait in arrival order. `role` is kept for
 * xq__jobs_count. The caller checks its caps first (xq__jobs_count).
 * Returns XQ_OK (after will run), or XQ_ENOMEM / XQ_EIO / XQ_EINVAL (a
 * lane that does not exist): then it will not. */
int xq__jobs_queue(xq__server *s, xq__job *j, int lane, xq__conn *owner, int role,
                  void (*run)(xq__job *), void (*after)(xq__job *, int));
/* The jobs of lane `lane` queued or running, of `owner` only when not
 * NULL and of role `role` only when >= 0 (the callers' caps per client
 * and per role). */
int xq__jobs_count(const xq__server *s, int lane, const xq__conn *owner, int role);
/* Take out of lane `lane` the waiting jobs whose owner is closing (it
 * would start them only to abandon them) and run their after with
 * UV_ECANCELED, so that they count for no cap any more. For a lane whose
 * jobs are of no use once their client has gone (the engine lane; a
 * pairing with publish is carried out all the same). */
void xq__jobs_drop_gone(xq__server *s, int lane);
/* The jobs of lane `lane` in the pool now (for tests and the log). */
int xq__jobs_running(const xq__server *s, int lane);

#endif /* XQ_NET_JOBS_H */
