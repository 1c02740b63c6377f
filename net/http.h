/*
 * http.h -- HTTP/1.1 for viewers, the page and the staff's requests: the
 * protocol (http.c: parsing, routing, judging a request on its head,
 * writing answers) plugged into conn.c, and the API's answers
 * (http_api.c); the embedded files of the live page. Internal to net/.
 */
#ifndef XQ_NET_HTTP_H
#define XQ_NET_HTTP_H

#include <stddef.h>

#include "conn.h"
#include "http_parse.h"
#include "internal.h"

extern const xq__proto xq__http_proto;

/* The state of one HTTP connection (c->ext). */
typedef struct xq__http_conn {
  xq__http_parser p;
  xq__conn *c;
  int busy;                    /* a push waits for its commit */
  int processing;              /* inside process(): it goes on by itself */
  int ended;                   /* the last answer went: no more requests */
  int sse;                     /* the connection is an event stream */
  int head_only;               /* the request being answered is HEAD */
  int keep_alive;              /* of the request being answered */
  const char *cache;           /* Cache-Control of a 200 (or 304) answer; NULL: no-store */
  int etag;                    /* a 200 answer carries an ETag, and a matching If-None-Match
                                  gets a 304 instead */
  const char *tag;             /* ... that tag, when the body came with one (a kept answer),
                                  else its hash */
  int kind;                    /* RT_* of the request being answered ... */
  int round, table;            /* ... its round (standings: up to; stream: filter), table */
  const char *asset;           /* ... RT_ASSET: the file of web/ */
  const struct xq__answer_key *keep; /* a 200 answer is kept for this (answers.c), NULL not */
  long long unread;            /* body bytes of a refused request to drop as they come
                                  before the close (XQ_HTTP_LINGER_MAX at most) */
} xq__http_conn;

/* ------------------------------------------------------------------ */
/* Answers (http.c)                                                    */
/* ------------------------------------------------------------------ */

/* Send a complete response of `status` with body[0..len) of `ctype` and
 * the head lines `extra` (each ending "\r\n"; NULL none); closes after it
 * unless keep-alive. The answer to a request whose body is left unread (a
 * refusal on its head) closes too, once XQ_HTTP_LINGER_MAX bytes of that
 * body (or all of it) were dropped or XQ_HTTP_LINGER_MS passed. A 200
 * with h->etag carries the body's tag, and is a 304 without the body when
 * the request's If-None-Match names it. */
void xq__http_respond(xq__conn *c, xq__http_conn *h, int status, const char *ctype, const char *body,
                      size_t len, const char *extra);
/* {"error":{"code":CODE,"msg":MSG}} with `status` (code NULL: the one of
 * the status). */
void xq__http_error(xq__conn *c, xq__http_conn *h, int status, const char *code, const char *msg,
                    const char *extra);
/* A cJSON value (consumed) as a 200 application/json response (500 when
 * NULL: out of memory). */
void xq__http_json(xq__conn *c, xq__http_conn *h, cJSON *o);
/* 413 for a body over what the route takes (`max` bytes; 0: none). */
void xq__http_too_large(xq__conn *c, xq__http_conn *h, size_t max);
/* The live token of "Authorization: Bearer TOKEN", or NULL: none was
 * sent, or (*unknown set) the one sent is unknown or revoked. Answers
 * nothing. */
const xq_ttoken *xq__http_token(xq__server *s, xq__http_conn *h, int *unknown);
/* The live token of "Authorization: Bearer TOKEN" in *out. Returns 0, or
 * the status sent (401, with `need` as the message when no token came). */
int xq__http_bearer(xq__server *s, xq__conn *c, xq__http_conn *h, const char *need, const xq_ttoken **out);
/* The same, for an admin or arbiter token: 0, or the status sent (401,
 * 403). */
int xq__http_staff(xq__server *s, xq__conn *c, xq__http_conn *h);
/* A request answered later (h->busy set, c->pending_replies counted and
 * a reference on c taken when it was taken: a push, an operation) has
 * been answered: the requests that came behind it are served now. Drops
 * that reference. */
void xq__http_done(xq__conn *c, xq__http_conn *h);

/* ------------------------------------------------------------------ */
/* The API (http_api.c): the answer of one whole request               */
/* ------------------------------------------------------------------ */

/* GET /api/event: the event, its rounds and players (no personal data). */
void xq__http_api_event(xq__server *s, xq__conn *c, xq__http_conn *h);
/* GET /api/rounds/N/pairings.json of a published round. */
void xq__http_api_pairings(xq__server *s, xq__conn *c, xq__http_conn *h, int round);
/* GET /api/standings.json after round `upto` (0: the last complete). */
void xq__http_api_standings(xq__server *s, xq__conn *c, xq__http_conn *h, int upto);
/* GET /api/rounds/N/games.json: every game of a published round. */
void xq__http_api_games(xq__server *s, xq__conn *c, xq__http_conn *h, int round);
/* GET /api/rounds/N.pgn, or N/T.pgn for table `table` (> 0). */
void xq__http_api_pgn(xq__server *s, xq__conn *c, xq__http_conn *h, int round, int table);
/* GET /api/teams.json[?round=R]: a team event's teams, the matches of
 * its published rounds (of round R) with their scores, the team
 * standings (xq__ops_team_public); 404 when the event is not a team event. */
void xq__http_api_teams(xq__server *s, xq__conn *c, xq__http_conn *h, int round);
/* GET /api/knockout: the knockout stage. */
void xq__http_api_knockout(xq__server *s, xq__conn *c, xq__http_conn *h);
/* GET /api/trf: the event in TRF; birth dates and sex blank unless the
 * Authorization header holds an admin's or arbiter's token (that answer
 * no-store); an unknown token gets 401. */
void xq__http_api_trf(xq__server *s, xq__conn *c, xq__http_conn *h);
/* GET / and /web/NAME: a file of the live page. */
void xq__http_api_asset(xq__conn *c, xq__http_conn *h, const char *name);
/* GET /api/events: the event stream of round `round` (0: all), handed
 * to the hub. */
void xq__http_api_events(xq__server *s, xq__conn *c, xq__http_conn *h, int round);
/* POST /api/rounds/N/push: a PGN document, answered once durable. */
void xq__http_api_push(xq__server *s, xq__conn *c, xq__http_conn *h, int round);
/* POST /api/op: JSON-lines operations for the request's token. */
void xq__http_api_op(xq__server *s, xq__conn *c, xq__http_conn *h);

/* The files of the live page (web/), embedded at build time
 * (web_assets.c, generated by net/embed_web.cmake); the table ends with a
 * row whose path is NULL. */
typedef struct xq__web_asset {
  const char *path;            /* "index.html", "app.js", ... */
  const char *type;            /* Content-Type */
  const unsigned char *data;
  size_t len;
} xq__web_asset;
extern const xq__web_asset xq__web_assets[];

#endif /* XQ_NET_HTTP_H */
