/*
 * answers.h -- answers kept until what they show changes (answers.c;
 * docs/http.md "Kept answers"): the reads that every viewer asks for
 * (the event, the standings, a round's pairings and PGN, the knockout) are
 * made once per change of the tournament or of their round and answered
 * from the kept text after that, a 304 without making anything. Internal
 * to net/.
 */
#ifndef XQ_NET_ANSWERS_H
#define XQ_NET_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* What an answer is of: the kind of read (the HTTP routes' RT_* or an
 * operation's XQ__ANSWER_OP_*), its round and table, and a short text
 * that tells its variants apart (a PGN's query). */
typedef struct xq__answer_key {
  int kind;
  int round, table;
  int pub;                     /* made for anonymous readers of a delayed broadcast (delay.h) */
  char arg[32];
} xq__answer_key;

enum {
  XQ__ANSWER_OP_STANDINGS = 1000, /* the `standings` operation's body */
  XQ__ANSWER_OP_PLAYERS,          /* the `players` operation's body (table: 1 with personal data) */
  XQ__ANSWER_OP_PAIRINGS,         /* the `pairings` operation's body */
  XQ__ANSWER_TRF_PUBLIC,          /* GET /api/trf without a token: without personal data */
  XQ__ANSWER_OP_TEAMS,            /* the `teams` operation's body (ops_team.c) */
  XQ__ANSWER_OP_TEAM_STANDINGS,   /* the `team_standings` operation's body */
};

typedef struct xq__answer {
  xq__answer_key key;
  uint64_t tv, rv;             /* the tournament's and the round's version it was made at */
  const char *ctype;           /* its content type (a static string) */
  char *text;
  size_t len;
  char tag[20];                /* its entity tag, "\"hex\"" */
  uint64_t used;               /* when last answered (least recently used goes first) */
} xq__answer;

/* The kept answer for `k`, still true (made at the versions now), or
 * NULL. Valid until the next xq__answers_put or xq__answers_free. */
const xq__answer *xq__answers_get(xq__server *s, const xq__answer_key *k);
/* Keep a copy of text[0..len) of `ctype` as the answer for `k` at the
 * versions now, dropping the least recently used past XQ_HTTP_ANSWERS or
 * XQ_HTTP_ANSWERS_BYTES; an answer over XQ_HTTP_ANSWER_MAX is not kept.
 * Returns it, or NULL (not kept, out of memory). */
const xq__answer *xq__answers_put(xq__server *s, const xq__answer_key *k, const char *ctype,
                                  const char *text, size_t len);
/* The tournament changed (names, results, rounds published): every kept
 * answer is made again when next asked. */
void xq__answers_changed(xq__server *s);
/* Free every kept answer (server stop). */
void xq__answers_free(xq__server *s);

#endif /* XQ_NET_ANSWERS_H */
