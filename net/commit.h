/*
 * commit.h -- the group commit of the game log (commit.c): rows queued
 * during a turn of the loop are written in one transaction on the worker
 * pool; nothing is acknowledged before it is durable. Internal to net/.
 */
#ifndef XQ_NET_COMMIT_H
#define XQ_NET_COMMIT_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "conn.h"
#include "internal.h"

/* One row waiting for the next group commit. Strings are owned (freed
 * after the commit). */
typedef struct xq__row {
  xq_tgame_rec rec;            /* rec.event / rec.reply point into the owned strings */
  char *event, *reply;         /* event: the text form of the row's events */
  char *bcast;                 /* broadcast data published once durable, NULL none */
  const char *bcast_type;      /* "move", "verdict", "result", ... (static) */
  xq__conn *c;                 /* reply destination (referenced), NULL none */
  char *idtext;                /* the request id to splice into the reply */
  char tresult[4];             /* a result for the tournament log, written in the row's
                                  transaction ("" none; xq__commit_attach_result) */
} xq__row;

/* Queue a game-log row of round/board/source/seq of `rec` holding the
 * events ev[0..n) (stored in their text form, xq_events_format; rec->event
 * is not read) and rec->reply (body text "{...}", copied); the reply goes
 * to `c` (may be NULL) with the id of `id` once the row is durable, and
 * `bcast` (may be NULL) is published to the hub then. Returns XQ_OK or
 * XQ_ENOMEM / XQ_ELIMIT (nothing queued). */
int xq__commit_row(xq__server *s, const xq_tgame_rec *rec, const xq_event *ev, int n, xq__conn *c,
                   const cJSON *id, const char *bcast_type, const char *bcast);
/* Rows queued for the next group commit (replies-only rows included). */
int xq__commit_queued(const xq__server *s);
/* Write the tournament result `code` (as xq_tstore_result takes it) in the
 * same transaction as the row queued last, which must be the game-log row
 * of round/board: when that row's reply says it is durable, the result is
 * in the tournament log too, and a crash cannot keep one without the
 * other. XQ_OK, or XQ_EINVAL when the last row is not that game's (nothing
 * attached). A result the store refuses does not fail the batch: it is
 * logged. */
int xq__commit_attach_result(xq__server *s, int round, int board, const char *code);
/* Run fn(arg, status) once everything queued so far is durable (status
 * XQ_OK) or failed to commit (XQ_ESTORE), with no batch open: store
 * writes are safe inside fn. */
void xq__commit_then(xq__server *s, void (*fn)(void *arg, int status), void *arg);
/* Send the reply line `line` (len bytes, copied) to `c` after everything
 * queued so far: used by the reply helpers while c has replies waiting
 * for a commit, so that replies keep request order. */
int xq__commit_reply(xq__server *s, xq__conn *c, const char *line, size_t len);
/* True when no commit is running: the loop thread may use the store. */
int xq__store_idle(const xq__server *s);

/* The group commit (commit.c): init at start; at shutdown the pending rows
 * are committed, then xq__commit_drained is true and close releases its
 * handles. */
int xq__commit_init(xq__server *s);
int xq__commit_drained(const xq__server *s);
void xq__commit_close(xq__server *s);
void xq__commit_free(xq__server *s);

#endif /* XQ_NET_COMMIT_H */
