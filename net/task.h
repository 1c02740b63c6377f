/*
 * task.h -- the operations that need the store or their turn
 * (ops_tourney.c, ops_ko.c, ops_players.c, ops_export.c): a task owns its
 * request's fields, parsed at the edge into the operation's own struct,
 * and a reference on the connection, and runs its store part when the
 * client's earlier requests are done (task.c). Internal to net/.
 *
 * A task runs at once when nothing of its client is still waiting for a
 * commit; otherwise it waits for the commits under way (xq__commit_then),
 * after the callbacks of the client's earlier requests, so that a request
 * sees the effect of every request sent before it on its connection, and
 * answers in request order. A waiting task counts as a reply waiting for
 * a commit (c->pending_replies): later replies queue behind it.
 */
#ifndef XQ_NET_TASK_H
#define XQ_NET_TASK_H

#include "internal.h"
#include "jobs.h"

typedef struct xq__task xq__task;
typedef void (*xq__task_fn)(xq__server *s, xq__task *t);

/* One operation waiting for its turn (and the store, or a worker job).
 * An operation's own fields -- its request parsed at the edge -- are a
 * struct of that operation whose first member is the task, made by
 * xq__task_new with its size:
 *
 *   typedef struct pair_task { xq__task t; int round; ... } pair_task;
 *   pair_task *p = (pair_task *)xq__task_new(s, r, run_pair, sizeof *p, pair_fini);
 *
 * and read back in its run as (pair_task *)t. The request is freed when
 * the op returns: the fields are copies. */
struct xq__task {
  xq__job job;               /* first: a task may run a worker job (jobs.c) */
  xq__server *s;
  xq__conn *c;               /* referenced until the task is freed */
  char *idtext;              /* the request id */
  xq__task_fn run;           /* the store part */
  void (*fini)(xq__task *t); /* frees what the operation's fields own, NULL none */
  int waited;                /* waits for its turn (xq__reply_wait) */
  int handed;                /* a worker job owns the task now (it frees it) */
  int holds;                 /* holds its connection: the client's next lines wait for it */
  int jobbed;                /* runs a job of xq__task_job (counted in c->jobs) */
};

/* A new task for request `r` that will run `run`: `size` bytes (the
 * operation's struct, whose first member is the task; sizeof(xq__task)
 * for none), zeroed, with `fini` (NULL none) to free what its fields own.
 * NULL after replying INTERNAL (out of memory). */
xq__task *xq__task_new(xq__server *s, xq__req *r, xq__task_fn run, size_t size, void (*fini)(xq__task *t));

/* Release the task: its connection reference and fields (its fini);
 * a connection it held serves its next lines again. */
void xq__task_free(xq__task *t);
/* Run `t` now when nothing of its client waits for a commit and, for
 * `store`, no commit runs; otherwise once the commits under way are done.
 * The task is freed afterwards, unless it set t->handed (a worker job owns
 * it then). A task that waits holds its connection until it has run: a
 * client has one task at most behind the commits, so that a commit's
 * completion runs one task of each client, not all that a pipeline
 * queued; the rest follow in the client's turns (its time counts in them,
 * turns.c). */
void xq__task_go(xq__server *s, xq__task *t, int store);
/* Start a task for request `r` that reads the server's copies only (no
 * store): at once, or after the client's earlier requests. */
void xq__task_read(xq__server *s, xq__req *r, xq__task_fn run);
/* Answer the task with the members of `o` (consumed), or with an error,
 * if the client is still there. */
void xq__task_send(xq__task *t, cJSON *o);
/* Answer the task with the members of `obj`, an object's text "{...}"
 * (a kept answer, answers.c), after "id" and "ok". */
void xq__task_send_text(xq__task *t, const char *obj);
void xq__task_error(xq__task *t, const char *code, const char *msg);
/* The task's whole reply line {"id":ID,"ok":true,...}\n with the members
 * of `obj`, an object's text "{...}", in a new buffer (NULL when out of
 * memory). Reads only what the task keeps from its request, so a worker
 * job may make it; xq__task_send_buf sends it, if the client is still
 * there (the buffer stays the caller's). */
xq__buf *xq__task_line(const xq__task *t, const char *obj);
void xq__task_send_buf(xq__task *t, xq__buf *b);
/* 1 after answering BUSY when `cap` jobs of the client's role are queued
 * or running in lane `lane` (XQ__LANE_*), else 0: asked before a task
 * writes what its job would show. */
int xq__task_busy(xq__task *t, int lane, int cap);
/* Hand `t` to a worker job in lane `lane` (XQ__LANE_*; its connection
 * the job's owner): work(j) runs on a worker thread, then after(j,
 * status) on the loop, which answers and frees the task (xq__task_free).
 * The client's next lines wait until then, so that its replies stay in
 * request order. Returns 0 (t->handed is set), or -1 after answering
 * INTERNAL. */
int xq__task_job(xq__task *t, int lane, void (*work)(xq__job *j), void (*after)(xq__job *j, int status));
/* After a write: reload the event, or only the tokens when `tokens` (a
 * token written or revoked changes nothing else). Returns 0, or -1 after
 * answering STORE_FAILED. */
int xq__task_reload(xq__server *s, xq__task *t, int tokens);

#endif /* XQ_NET_TASK_H */
