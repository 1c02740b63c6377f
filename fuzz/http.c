/*
 * http.c -- fuzz entry for the HTTP request path (fuzz.h): the request
 * parser fed in pieces as a connection would feed it (http.c keeps what
 * was not used and offers it again with what follows), and the response
 * helpers of the PGN poller.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "http_parse.h"

#define REQUESTS_MAX 16 /* requests parsed from one input */

/* What a complete request offers http.c: headers and query values. */
static void probe(const xq__http_req *r)
{
  if (!r->method || !r->target || !r->path || !r->query) abort();
  if (r->content_length > XQ_HTTP_BODY_MAX) abort();
  if (r->content_length > 0 && (!r->body || r->body_len != (size_t)r->content_length)) abort();
  xq__http_parse_header(r, "Host");
  xq__http_parse_header(r, "Last-Event-ID");
  char v[64];
  static const char *const keys[] = {"round", "notation", "table", ""};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    int n = xq__http_parse_query(r->query, keys[i], v, sizeof v);
    if (n >= (int)sizeof v || (n >= 0 && strlen(v) != (size_t)n)) abort();
  }
}

int xq_fuzz_http(const uint8_t *data, size_t size)
{
  if (size < 1 || size > XQ_FUZZ_INPUT_MAX) return 0;
  size_t piece = data[0] ? data[0] : size; /* bytes that arrive per read */
  const char *in = (const char *)data + 1;
  size_t len = size - 1;

  /* the request side: a buffer that grows by `piece` bytes per read */
  xq__http_parser p;
  xq__http_parse_init(&p);
  size_t start = 0, avail = 0;
  int requests = 0;
  while (requests < REQUESTS_MAX) {
    avail = avail + piece < len ? avail + piece : len;
    long used;
    while ((used = xq__http_parse(&p, in + start, avail - start)) > 0) {
      if ((size_t)used > avail - start) abort();
      start += (size_t)used;
      /* a head is complete: take its body, as http.c does for a route
       * that takes the largest one */
      if (p.state == XQ__HP_HEAD_DONE && xq__http_parse_body(&p, XQ_HTTP_BODY_MAX) < 0) {
        used = -1;
        break;
      }
      if (p.state == XQ__HP_DONE) {
        probe(&p.req);
        xq__http_parse_reset(&p);
        requests++;
      }
    }
    if (used < 0) {
      if (p.state != XQ__HP_ERROR || p.status < 400 || !p.reason) abort();
      break;
    }
    if (p.state == XQ__HP_DONE) { /* a request with no body bytes left to use */
      probe(&p.req);
      xq__http_parse_reset(&p);
      requests++;
      continue;
    }
    if (avail == len) break;
  }
  xq__http_parse_reset(&p);

  /* the response side: a head, then the body de-chunked in place */
  int status;
  long long clen;
  int chunked;
  long head = xq__http_parse_response(in, len, &status, &clen, &chunked);
  if (head > (long)len) abort();
  if (head > 0) {
    if (status < 0 || status > 999) abort();
    size_t blen = len - (size_t)head;
    char *body = malloc(blen + 1);
    if (!body) return 0;
    memcpy(body, in + head, blen);
    long n = xq__http_parse_dechunk(body, blen);
    if (n > (long)blen) abort();
    free(body);
  }
  return 0;
}
