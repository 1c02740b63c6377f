/*
 * task.c -- tasks: the operations that need the store, run in request
 * order behind the commits their client waits for (task.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "conn.h"
#include "delay.h"
#include "internal.h"
#include "proto.h"
#include "task.h"

/* A connection held by a task serves its next lines again (and lets go
 * of the task's hold reference). Inside its own reads -- the task ran at
 * once -- the consume under way goes on with them. */
static void unhold(xq__conn *c)
{
  if (c->consuming) {
    c->held = 0;
    xq__conn_resume(c);
  } else {
    xq__conn_unhold(c);
  }
  xq__conn_unref(c);
}

/* `t` holds its connection (unless another hold is in force): nothing
 * more of the client is dispatched until the task is freed. */
static void hold(xq__task *t)
{
  xq__conn *c = t->c;
  if (t->holds || c->held || xq__conn_dead(c)) return;
  xq__conn_ref(c);
  xq__conn_hold(c);
  t->holds = 1;
}

void xq__task_free(xq__task *t)
{
  xq__conn *held = t->holds ? t->c : NULL;
  if (t->jobbed) t->c->jobs--;
  if (t->fini) t->fini(t);
  xq__conn_unref(t->c);
  free(t->idtext);
  free(t);
  if (held) unhold(held);
}

xq__task *xq__task_new(xq__server *s, xq__req *r, xq__task_fn run, size_t size, void (*fini)(xq__task *t))
{
  xq__task *t = calloc(1, size < sizeof *t ? sizeof *t : size);
  if (t) t->idtext = xq__reply_id(r->id);
  if (!t || !t->idtext) {
    free(t);
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
    return NULL;
  }
  t->s = s;
  t->c = r->c;
  t->run = run;
  t->fini = fini;
  xq__conn_ref(r->c);
  return t;
}

/* Answer the task with the members of `o` (consumed), if the client is
 * still there. */
void xq__task_send(xq__task *t, cJSON *o)
{
  if (xq__conn_dead(t->c) || !o) {
    cJSON_Delete(o);
    return;
  }
  cJSON *id = cJSON_Parse(t->idtext);
  xq__reply_obj(t->c, id, o);
  cJSON_Delete(id);
}

void xq__task_send_text(xq__task *t, const char *obj)
{
  size_t n = strlen(obj);
  if (xq__conn_dead(t->c) || n < 2) return;
  char *fields = strndup(obj + 1, n - 2); /* the members, without the braces */
  cJSON *id = cJSON_Parse(t->idtext);
  if (fields) xq__reply(t->c, id, fields);
  else xq__conn_close(t->c);
  cJSON_Delete(id);
  free(fields);
}

xq__buf *xq__task_line(const xq__task *t, const char *obj)
{
  size_t il = strlen(t->idtext), ol = strlen(obj);
  if (ol < 2) return NULL;
  int members = ol > 2; /* not "{}" */
  xq__buf *b = xq__buf_new(7 + il + 10 + ol); /* {"id": ID ,"ok":true ,MEMBERS} \n */
  if (!b) return NULL;
  size_t k = 0;
  memcpy(b->data + k, "{\"id\":", 6), k += 6;
  memcpy(b->data + k, t->idtext, il), k += il;
  memcpy(b->data + k, ",\"ok\":true", 10), k += 10;
  if (members) b->data[k++] = ',';
  memcpy(b->data + k, obj + 1, ol - 1), k += ol - 1; /* the members and the closing brace */
  b->data[k++] = '\n';
  b->len = k;
  b->data[k] = 0;
  return b;
}

void xq__task_send_buf(xq__task *t, xq__buf *b)
{
  if (!xq__conn_dead(t->c)) xq__reply_buf(t->c, b);
}

/* Answer the task with an error. */
void xq__task_error(xq__task *t, const char *code, const char *msg)
{
  if (xq__conn_dead(t->c)) return;
  cJSON *id = cJSON_Parse(t->idtext);
  xq__reply_error(t->c, id, code, msg, -1);
  cJSON_Delete(id);
}

/* The task's turn: it runs, and answers at once (the replies owed before
 * it have gone; those of later requests wait behind it). */
static void task_cb(xq__server *s, void *arg, int status)
{
  xq__task *t = arg;
  (void)status; /* the commits waited for were others': this work is its own */
  int waited = t->waited, holds = 0;
  xq__conn *c = t->c;
  /* (the reference of xq__reply_wait keeps the connection until the turn
   * ends, after the task may be freed) */
  if (waited) xq__reply_turn(c);
  uint64_t t0 = uv_hrtime();
  /* a session without a token reads what anonymous readers see (delay.h) */
  int anon = c->role == XQ_ROLE_NONE;
  if (anon) xq__delay_enter(s);
  t->run(s, t);
  if (anon) xq__delay_leave(s);
  /* run outside the client's reads (after a commit): its turn pays */
  if (!c->consuming) xq__turns_charge(c, uv_hrtime() - t0);
  if (t->handed) {
    t->handed = 0; /* a worker job owns it now, and its hold */
  } else {
    /* its hold ends after its turn: the lines it held back are answered
     * after its reply */
    holds = t->holds;
    t->holds = 0;
    xq__task_free(t);
  }
  if (waited) xq__reply_turn_end(c);
  if (holds) unhold(c);
}

/* Run `t` now when nothing of its client waits for a commit and, for
 * `store`, no commit runs; otherwise once the commits under way are done,
 * after the client's earlier requests (the commit queue keeps their
 * order): a request sees the effect of every request sent before it on
 * its connection (a result recorded, a player added). The task is freed
 * afterwards, unless it handed itself to a worker job. */
void xq__task_go(xq__server *s, xq__task *t, int store)
{
  if (t->c->pending_replies == 0 && (!store || xq__commit_idle(s))) {
    t->waited = 0;
    task_cb(s, t, XQ_OK);
    return;
  }
  t->waited = 1;
  xq__reply_wait(t->c);
  hold(t);
  xq__commit_then(s, task_cb, t);
}

int xq__task_busy(xq__task *t, int lane, int cap)
{
  const xq__conn *c = t->c;
  if (xq__jobs_count(t->s, lane, NULL, c->role) < cap) return 0;
  char msg[96];
  snprintf(msg, sizeof msg, "%d jobs of the %s sessions are queued already: try again", cap, xq_role_name(c->role));
  xq__task_error(t, XQ__E_BUSY, msg);
  return 1;
}

int xq__task_job(xq__task *t, int lane, void (*work)(xq__job *j), void (*after)(xq__job *j, int status))
{
  xq__conn *c = t->c;
  if (xq__jobs_queue(t->s, &t->job, lane, c, c->role, work, after) != XQ_OK) {
    xq__task_error(t, XQ__E_INTERNAL, "cannot start the job");
    return -1;
  }
  c->jobs++;
  t->jobbed = 1;
  t->handed = 1;
  hold(t);
  return 0;
}

/* After a write: reload the event, or the tokens alone. Returns 0, or -1
 * after answering STORE_FAILED. */
int xq__task_reload(xq__server *s, xq__task *t, int tokens)
{
  xq_error err = {0};
  if ((tokens ? xq__server_tokens(s, &err) : xq__server_reload(s, &err)) == XQ_OK) return 0;
  char msg[XQ_ERR_MSG_LEN + 64];
  snprintf(msg, sizeof msg, "written, but the event could not be reloaded: %s", err.msg);
  xq__task_error(t, XQ__E_STORE, msg);
  return -1;
}

/* Start a task for request `r` that reads the server's copies only (no
 * store): at once, or after the client's earlier requests. */
void xq__task_read(xq__server *s, xq__req *r, xq__task_fn run)
{
  xq__task *t = xq__task_new(s, r, run, sizeof *t, NULL);
  if (t) xq__task_go(s, t, 0);
}

