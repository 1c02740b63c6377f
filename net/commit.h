/*
 * commit.h -- the durability queue (commit.c): the group commit of the
 * game log. Rows queued during a turn of the loop are written in one
 * transaction on the worker pool; each row carries the completion that
 * runs once it is durable (or failed), so that whoever queued it replies,
 * broadcasts or takes the game back then. The queue calls nothing of the
 * server but those completions. Internal to net/.
 */
#ifndef XQ_NET_COMMIT_H
#define XQ_NET_COMMIT_H

#include "internal.h"

/* A row's completion: runs once, on the loop, after the commit of the
 * row's batch, with XQ_OK (the row is durable) or XQ_ESTORE (it is not,
 * nor is any row queued after it in the same turn or the next). Rows
 * complete in the order they were queued. The store is idle (no batch
 * open) while it runs: it may read or write the store, and queue rows. */
typedef void (*xq__commit_cb)(xq__server *s, void *arg, int status);

/* Queue a game-log row: round/board/source/seq of `rec` holding the
 * events ev[0..n) (stored in their text form, xq_events_format; rec->event
 * is not read) and rec->reply (body text "{...}", copied). With `rec`
 * NULL the row writes nothing and only keeps its place in the order of
 * completions (a reply that must not overtake those queued before it).
 * done(s, arg, status) runs once the row is durable or failed. Returns
 * XQ_OK (done will run), or XQ_ENOMEM / XQ_ELIMIT (XQ_PENDING_MAX rows
 * wait) / XQ_EINVAL (no queue, no done): nothing queued, done will not
 * run. */
int xq__commit_row(xq__server *s, const xq_tgame_rec *rec, const xq_event *ev, int n, xq__commit_cb done,
                   void *arg);
/* What the last failed commit said (the store's message), for a reply. */
const char *xq__commit_why(const xq__server *s);
/* Rows queued for the next group commit (rows without a record included). */
int xq__commit_queued(const xq__server *s);
/* Write the tournament result `code` (as xq_tstore_result takes it) in the
 * same transaction as the row queued last, which must be the game-log row
 * of round/board: when that row's reply says it is durable, the result is
 * in the tournament log too, and a crash cannot keep one without the
 * other. XQ_OK, or XQ_EINVAL when the last row is not that game's (nothing
 * attached). A result the store refuses does not fail the batch: it is
 * logged. */
int xq__commit_attach_result(xq__server *s, int round, int board, const char *code);
/* Run fn(s, arg, status) once everything queued so far is durable
 * (status XQ_OK) or failed to commit (XQ_ESTORE), after the completions
 * of those rows, with no batch open: store writes are safe inside fn. At
 * once when nothing is queued or being written. Called from a completion,
 * it runs after the other completions of that batch. */
void xq__commit_then(xq__server *s, xq__commit_cb fn, void *arg);
/* True when no commit is running: the loop thread may use the store. */
int xq__commit_idle(const xq__server *s);

/* The group commit (commit.c): init at start; at shutdown the pending rows
 * are committed, then xq__commit_drained is true and close releases its
 * handles. */
int xq__commit_init(xq__server *s);
int xq__commit_drained(const xq__server *s);
void xq__commit_close(xq__server *s);
void xq__commit_free(xq__server *s);

#endif /* XQ_NET_COMMIT_H */
