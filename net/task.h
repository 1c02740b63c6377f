/*
 * task.h -- the operations that need the store (ops_tourney.c, ops_ko.c):
 * a task owns copies of its request's fields and a reference on the
 * connection, and runs its store part when the client's earlier requests
 * are done (task.c). Internal to net/.
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

/* One operation waiting for the store (and, for pair, the worker pool).
 * It owns copies of the request's fields: the request is freed when the
 * op returns. */
struct xq__task {
  xq__job job;               /* first: pair's pairing job (jobs.c) */
  xq__server *s;
  xq__conn *c;               /* referenced until the task is freed */
  char *idtext;              /* the request id */
  xq__task_fn run;           /* the store part */
  int waited;                /* waits for its turn (xq__reply_wait) */
  /* fields, by operation */
  int round, id, bye, role, board, lang, format, system, publish;
  xq_tplayer player;
  char label[XQ_TOURNEY_FIELD_MAX];
  char token[XQ_TOKEN_CHARS + 1];
  xq_tevent *ev;             /* pair: the private copy it was paired on */
  int ev_n, ev_rounds;       /* pair: s->ev's players and rounds then */
  xq_tpairing pr;            /* pair: the boards */
  int rc;                    /* pair: the pairing's status */
  xq_tchange *changes;       /* pair: the arbiter's changes, in order (swap: player numbers until
                                applied, then ids) ... */
  int nchanges;
  char *warnings;            /* ... and the absolute rules the changed pairing breaks, a line each */
  int handed;                /* pair: the task now belongs to its job */
  int what;                  /* export: the sheet (ops_export.c) ... */
  int mode, count;           /* ... teams: xq_team_mode (-1: the preset's) and players counted (0: the preset's) */
  const xq_regulation *reg;  /* ... teams, prizes: the preset named, NULL = none */
  struct xq_prize_table *prizes; /* ... teams, prizes: the prize table given as text, freed with the task */
  xq_pair_stats st;
  int size, seeding, choice;  /* ko_start */
  int stage;                 /* ko_publish: only this stage's matches, 0 = any */
  cJSON *args;               /* ko_publish: a copy of the request's fields, freed with the task */
  unsigned fields;           /* edit_player: the fields given (XQ_PE_*) */
  int reinstate;             /* withdraw / reinstate */
  int method, preview;       /* numbers: XQ_NUM_*, and only computed, not stored */
  uint64_t seed;             /* numbers: the lot's seed */
  int *pairs, npairs;        /* numbers: by hand, npairs (id, number) pairs, freed with the task */
};

/* A new task for request `r` that will run `run`, or NULL after replying
 * INTERNAL (out of memory). */
xq__task *xq__task_new(xq__server *s, xq__req *r, xq__task_fn run);

/* Release the task: its connection reference and fields. */
void xq__task_free(xq__task *t);
/* Run `t` now when nothing of its client waits for a commit and, for
 * `store`, no commit runs; otherwise once the commits under way are done.
 * The task is freed afterwards, unless it set t->handed (a worker job owns
 * it then). */
void xq__task_go(xq__server *s, xq__task *t, int store);
/* Start a task for request `r` that reads the server's copies only (no
 * store): at once, or after the client's earlier requests. */
void xq__task_read(xq__server *s, xq__req *r, xq__task_fn run);
/* Answer the task with the members of `o` (consumed), or with an error,
 * if the client is still there. */
void xq__task_send(xq__task *t, cJSON *o);
void xq__task_error(xq__task *t, const char *code, const char *msg);
/* After a write: reload the event, or only the tokens when `tokens` (a
 * token written or revoked changes nothing else). Returns 0, or -1 after
 * answering STORE_FAILED. */
int xq__task_reload(xq__server *s, xq__task *t, int tokens);

/* Integer field `key` of the request in lo..hi: absent = `dflt` (when
 * `dflt` < lo the field is required). Returns 0 with *out, or -1 after
 * replying BAD_REQUEST. */
int xq__field_int(xq__req *r, const char *key, int lo, int hi, int dflt, int *out);
/* String field `key`: absent = NULL (an error when `required`). Returns 0
 * with *out, or -1 after replying BAD_REQUEST. */
int xq__field_str(xq__req *r, const char *key, int required, const char **out);
/* The error code of a store write's failure: a refusal by the store's
 * checks (XQ_EINVAL after ours passed) is a conflict with its state. */
const char *xq__write_code(int rc);

#endif /* XQ_NET_TASK_H */
