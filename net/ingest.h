/*
 * ingest.h -- PGN ingestion (ingest.c): a pushed or polled PGN document
 * matched to the boards of a round and applied as the boards' own events
 * would be. Used by http.c (POST .../push) and poller.c. Internal to net/.
 */
#ifndef XQ_NET_INGEST_H
#define XQ_NET_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* PGN ingestion (ingest.c; needed by http.c for POST .../push): match the
 * games of `text` (len bytes) to the boards of round `round`, apply what
 * is new, and once every row is durable call done(arg, status, json)
 * with the reply body {"games":[...]} (malloc'd, the callee frees it;
 * NULL with status < 0 when the push could not be taken at all: json
 * then holds an error message or NULL). Returns XQ_OK (done will run,
 * possibly before this returns) or an engine status (done will not run:
 * `err` says why, e.g. too many games, no such round). */
typedef void (*xq__ingest_done)(void *arg, int status, char *json);
int xq__ingest_pgn(xq__server *s, int round, const char *text, size_t len, xq__ingest_done done,
                   void *arg, xq_error *err);

/* Ingestion state (the illegal moves already recorded per table): init at
 * start, free after the loop ran dry; free is safe when init never ran
 * (s->ingest NULL). */
int xq__ingest_init(xq__server *s);
void xq__ingest_free(xq__server *s);

#endif /* XQ_NET_INGEST_H */
