/*
 * http_parse.h -- a small incremental HTTP/1.1 parser: requests for the
 * server's --http socket and responses for the PGN poller (ingest.c).
 * Pure code: no libuv, no sockets, no allocation but the request's own
 * copy of its head and body. Limits from netlimits.h: XQ_HTTP_HEAD_MAX,
 * XQ_HTTP_HEADERS_MAX, XQ_HTTP_BODY_MAX.
 *
 * Feeding: hand the parser whatever bytes are buffered. It says how many
 * it used; the caller drops those and keeps the rest for the next call.
 * A head is used only once it is complete (nothing is taken from a
 * partial head), so the caller's buffer holds at most one head at a time.
 * The parser stops after the head: the caller judges the request on its
 * head (route, method, token, the length announced) before it lets the
 * parser take a byte of the body (xq__http_parse_body).
 */
#ifndef XQ_NET_HTTP_PARSE_H
#define XQ_NET_HTTP_PARSE_H

#include <stddef.h>

#include "netlimits.h"

typedef struct xq__http_field {
  const char *name;            /* as sent (compare case-insensitively) */
  const char *value;           /* optional white space trimmed */
} xq__http_field;

/* One request. Every string points into `raw`, which the request owns. */
typedef struct xq__http_req {
  char *raw;                   /* copy of the head, split into strings */
  const char *method;          /* "GET", "POST", ... (case-sensitive, RFC 9110 9.1) */
  const char *target;          /* the request target as sent */
  char *path;                  /* its path, percent-decoded ("/api/event") */
  const char *query;           /* the raw text after '?', "" when none */
  int minor;                   /* HTTP/1.minor: 0 or 1 */
  int nfields;
  xq__http_field fields[XQ_HTTP_HEADERS_MAX];
  long long content_length;    /* -1 when the request has no body; one over
                                  XQ_HTTP_BODY_MAX is some value over it */
  int keep_alive;              /* the connection may carry another request */
  char *body;                  /* content_length bytes + NUL, owned; NULL when none */
  size_t body_len;
} xq__http_req;

enum {
  XQ__HP_HEAD = 0,             /* reading a head */
  XQ__HP_HEAD_DONE,            /* a head is complete: the caller judges it (xq__http_parse_body) */
  XQ__HP_BODY,                 /* reading the body the caller took */
  XQ__HP_DONE,                 /* a request is complete */
  XQ__HP_ERROR
};

typedef struct xq__http_parser {
  int state;                   /* XQ__HP_* */
  size_t scan;                 /* bytes of the pending head already searched */
  int status;                  /* after an error: 400, 411, 413, 431, 501, 505 */
  const char *reason;          /* after an error: one line, static */
  xq__http_req req;            /* the request (complete when state is DONE) */
} xq__http_parser;

/* Make `p` ready for the first request. Cannot fail. */
void xq__http_parse_init(xq__http_parser *p);

/* Free the request's head and body and wait for the next request.
 * Call after handling a DONE request and when the connection closes.
 * Cannot fail. */
void xq__http_parse_reset(xq__http_parser *p);

/* Feed buf[0..len): returns the number of bytes used (0 when the head is
 * still incomplete; those bytes must be offered again with what follows).
 * Once a head is complete p->state becomes XQ__HP_HEAD_DONE and no byte
 * after it is used until xq__http_parse_body; once a request is complete
 * it becomes XQ__HP_DONE and no further byte is used until
 * xq__http_parse_reset. Returns -1 for a request that cannot be served
 * (p->state XQ__HP_ERROR, p->status and p->reason say why): a head of
 * XQ_HTTP_HEAD_MAX bytes or more without its end, or more than
 * XQ_HTTP_HEADERS_MAX fields (431); a chunked body (411); another
 * transfer coding (501); an HTTP version other than 1.0/1.1 (505); no
 * Host in HTTP/1.1, or more than one (400, RFC 9112 3.2); anything
 * malformed (400). After an error the connection must be closed: the
 * stream cannot be resynced. Returns -1 with status 500 when out of
 * memory. */
long xq__http_parse(xq__http_parser *p, const char *buf, size_t len);

/* After XQ__HP_HEAD_DONE: take the body the head announced, at most
 * `max` bytes (the route's own limit, at most XQ_HTTP_BODY_MAX). Returns
 * 0 with the state XQ__HP_BODY (feed the body to xq__http_parse) or, when
 * there is none, XQ__HP_DONE; -1 with the state XQ__HP_ERROR and status
 * 413 when Content-Length is over `max` (no byte of the body was taken),
 * 500 when out of memory. */
int xq__http_parse_body(xq__http_parser *p, size_t max);

/* Value of header `name` (ASCII case-insensitive) of `r`, or NULL. */
const char *xq__http_parse_header(const xq__http_req *r, const char *name);

/* Value of the query parameter `key` in query text `query` (form
 * encoding: '+' is a space, %XX decoded) copied into out[0..cap)
 * NUL-terminated. Returns its length, -1 when absent, or -2 when present
 * but too long for `cap`, badly escaped or holding a NUL: a caller
 * refuses that, never takes it for an absent parameter (a round
 * defaulted to the last one). */
int xq__http_parse_query(const char *query, const char *key, char *out, size_t cap);

/* Reason phrase of a status code ("Not Found"); "Unknown" otherwise. */
const char *xq__http_parse_status_text(int status);

/* A response head at the start of buf[0..len) (for the poller): returns
 * its length once complete (the body follows), 0 when more is needed, -1
 * when malformed or XQ_HTTP_HEAD_MAX bytes pass without its end. Fills
 * *status, *content_length (-1 when absent) and *chunked. */
long xq__http_parse_response(const char *buf, size_t len, int *status, long long *content_length,
                            int *chunked);

/* Decode a complete chunked body in place: buf[0..len) becomes the data,
 * whose length is returned; -1 when the chunks are malformed or
 * incomplete. Chunk extensions and trailers are skipped. */
long xq__http_parse_dechunk(char *buf, size_t len);

#endif /* XQ_NET_HTTP_PARSE_H */
