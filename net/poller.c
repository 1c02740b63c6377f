/*
 * poller.c -- polling a PGN URL for a round (docs/http.md, "Polling a PGN URL", lichess's
 * schedule): a plain HTTP/1.1 GET over libuv every `period` (clamped to
 * [XQ_POLL_MIN_MS, XQ_POLL_MAX_MS]); XQ_POLL_TIMEOUT_MS for one fetch; no
 * redirects; any status but 200 is a failure; after failures the delay
 * doubles up to XQ_POLL_MAX_MS and a success brings it back to the
 * period. What is fetched goes through the same ingestion as a push.
 * Only http:// URLs: https needs a TLS library, which xqref does not use.
 *
 * The admin ops ingest_url, ingest_stop and ingest_status are here.
 *
 * A poller is freed when nothing refers to it any more: its place in the
 * table, its two timers, a TCP handle, a name lookup, an ingestion
 * waiting for the store each hold a reference.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http_parse.h"
#include "ingest.h"
#include "internal.h"
#include "ops.h"
#include "poller.h"
#include "proto.h"
#include "url.h"


typedef struct xq__poller xq__poller;

/* The pollers, one per round polled. */
struct xq__pollers {
  xq__poller *polls[XQ_ROUNDS_LIVE_MAX + 1];   /* NULL when the round is not polled */
  int npolls;
  int closed;
};

struct xq__poller {
  xq__server *s;
  int round;
  char url[XQ_POLL_URL_MAX];
  char host[XQ_URL_HOST_MAX];
  char port[8];
  char *request;               /* the GET request text */
  size_t request_len;
  xq__poller_info info;
  int refs;
  int stopped;
  uv_timer_t timer;            /* the next fetch */
  uv_timer_t timeout;          /* the fetch in progress */
  uv_tcp_t tcp;
  int tcp_open, tcp_closing;
  uv_connect_t connect;
  uv_write_t write;
  uv_getaddrinfo_t gai;
  int gai_busy;
  int fetching;
  char *buf;                   /* the response so far */
  size_t len, cap;
};

static void poller_unref(xq__poller *p)
{
  if (--p->refs > 0) return;
  free(p->request);
  free(p->buf);
  free(p);
}

static void on_closed(uv_handle_t *h)
{
  xq__poller *p = h->data;
  if (h == (uv_handle_t *)&p->tcp) p->tcp_closing = 0;
  poller_unref(p);
}

static void schedule(xq__poller *p);
static void start_fetch(xq__poller *p);
static void on_timer(uv_timer_t *t);

/* End the fetch in progress (if any): close its connection, stop its
 * timer, cancel a name lookup. */
static void end_fetch(xq__poller *p)
{
  p->fetching = 0;
  uv_timer_stop(&p->timeout);
  if (p->tcp_open) {
    p->tcp_open = 0;
    p->tcp_closing = 1;
    uv_close((uv_handle_t *)&p->tcp, on_closed);
  }
  if (p->gai_busy) uv_cancel((uv_req_t *)&p->gai);
}

static void fetch_failed(xq__poller *p, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fetch_failed(xq__poller *p, int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->info.last_error, sizeof p->info.last_error, fmt, ap);
  va_end(ap);
  p->info.last_status = status;
  p->info.failures++;
  xq__log(p->s, "poll round %d %s: %s", p->round, p->url, p->info.last_error);
  end_fetch(p);
  schedule(p);
}

/* The next fetch: after the period, or after a back-off that doubles
 * with every failure in a row (lichess: 60 s after repeated failures). */
static void schedule(xq__poller *p)
{
  if (p->stopped) return;
  long next = p->info.period_ms;
  for (int i = 0; i < p->info.failures && next < XQ_POLL_MAX_MS; i++) next *= 2;
  if (next > XQ_POLL_MAX_MS) next = XQ_POLL_MAX_MS;
  p->info.next_ms = (int)next;
  uv_timer_start(&p->timer, on_timer, (uint64_t)next, 0);
}

static void on_timer(uv_timer_t *t) { start_fetch(t->data); }

static void on_timeout(uv_timer_t *t)
{
  xq__poller *p = t->data;
  fetch_failed(p, 0, "no complete answer within %d ms", XQ_POLL_TIMEOUT_MS);
}

static void poll_done(void *arg, int status, char *json)
{
  xq__poller *p = arg;
  if (status == XQ_OK) {
    p->info.successes++;
    p->info.failures = 0;
    p->info.last_error[0] = 0;
  } else {
    p->info.failures++;
    snprintf(p->info.last_error, sizeof p->info.last_error, "%s", json ? json : "ingestion failed");
  }
  free(json);
  schedule(p);
  poller_unref(p);
}

/* The whole response is in: check it and ingest its body. */
static void fetch_complete(xq__poller *p)
{
  int status;
  long long cl;
  int chunked;
  long head = xq__http_parse_response(p->buf, p->len, &status, &cl, &chunked);
  if (head <= 0) {
    fetch_failed(p, 0, "not an HTTP response");
    return;
  }
  if (status != 200) {
    /* redirects are not followed: a moved document is a failure too */
    fetch_failed(p, status, "HTTP %d", status);
    return;
  }
  char *body = p->buf + head;
  size_t blen = p->len - (size_t)head;
  if (chunked) {
    long n = xq__http_parse_dechunk(body, blen);
    if (n < 0) {
      fetch_failed(p, status, "malformed chunked body");
      return;
    }
    blen = (size_t)n;
  } else if (cl >= 0) {
    if ((long long)blen < cl) {
      fetch_failed(p, status, "the body ended after %zu of %lld bytes", blen, cl);
      return;
    }
    blen = (size_t)cl;
  }
  p->info.last_status = status;
  end_fetch(p);
  if (p->stopped) return;
  xq_error err = {0};
  p->refs++;
  int rc = blen ? xq__ingest_pgn(p->s, p->round, body, blen, poll_done, p, &err) : XQ_EINVAL;
  if (rc != XQ_OK) {
    p->refs--;
    p->info.failures++;
    snprintf(p->info.last_error, sizeof p->info.last_error, "%s", blen ? err.msg : "empty document");
    schedule(p);
  }
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *out)
{
  (void)suggested;
  xq__poller *p = h->data;
  size_t max = (size_t)XQ_PGN_FETCH_MAX + XQ_HTTP_HEAD_MAX;
  if (p->cap - p->len < XQ_POLL_READ_CHUNK && p->cap < max) {
    size_t cap = p->cap ? p->cap * 2 : 2 * XQ_POLL_READ_CHUNK;
    if (cap > max) cap = max;
    char *b = realloc(p->buf, cap + 1);
    if (b) {
      p->buf = b;
      p->cap = cap;
    }
  }
  /* a full buffer gives UV_ENOBUFS: the document is too large */
  out->base = p->buf ? p->buf + p->len : NULL;
  out->len = p->buf ? p->cap - p->len : 0;
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *b)
{
  (void)b;
  xq__poller *p = st->data;
  if (nread == 0 || !p->fetching) return;
  if (nread == UV_EOF) {
    fetch_complete(p);
    return;
  }
  if (nread < 0) {
    if (nread == UV_ENOBUFS) fetch_failed(p, 0, "the document is larger than %d bytes", XQ_PGN_FETCH_MAX);
    else fetch_failed(p, 0, "read: %s", uv_strerror((int)nread));
    return;
  }
  p->len += (size_t)nread;
  /* with a Content-Length the answer may be complete before EOF */
  int status, chunked;
  long long cl;
  long head = xq__http_parse_response(p->buf, p->len, &status, &cl, &chunked);
  if (head > 0 && !chunked && cl >= 0 && p->len - (size_t)head >= (size_t)cl) fetch_complete(p);
}

static void on_write(uv_write_t *w, int status)
{
  xq__poller *p = w->data;
  if (status < 0 && status != UV_ECANCELED && p->fetching) fetch_failed(p, 0, "write: %s", uv_strerror(status));
}

static void on_connect(uv_connect_t *c, int status)
{
  xq__poller *p = c->data;
  if (status == UV_ECANCELED || !p->fetching) return;
  if (status < 0) {
    fetch_failed(p, 0, "connect: %s", uv_strerror(status));
    return;
  }
  uv_buf_t b = uv_buf_init(p->request, (unsigned)p->request_len);
  p->write.data = p;
  if (uv_write(&p->write, (uv_stream_t *)&p->tcp, &b, 1, on_write) != 0 ||
      uv_read_start((uv_stream_t *)&p->tcp, on_alloc, on_read) != 0)
    fetch_failed(p, 0, "cannot send the request");
}

static void connect_to(xq__poller *p, const struct sockaddr *addr)
{
  if (uv_tcp_init(p->s->loop, &p->tcp) != 0) {
    fetch_failed(p, 0, "cannot open a socket");
    return;
  }
  p->tcp.data = p;
  p->tcp_open = 1;
  p->refs++;
  p->connect.data = p;
  int rc = uv_tcp_connect(&p->connect, &p->tcp, addr, on_connect);
  if (rc != 0) fetch_failed(p, 0, "connect: %s", uv_strerror(rc));
}

static void on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
  xq__poller *p = req->data;
  p->gai_busy = 0;
  if (p->fetching && !p->stopped) {
    if (status < 0 || !res) fetch_failed(p, 0, "cannot resolve %s: %s", p->host, uv_strerror(status));
    else connect_to(p, res->ai_addr);
  }
  uv_freeaddrinfo(res);
  poller_unref(p);
}

static void start_fetch(xq__poller *p)
{
  if (p->stopped || p->fetching || p->s->stopping) return;
  if (p->tcp_closing) { /* the last connection has not finished closing */
    uv_timer_start(&p->timer, on_timer, 10, 0);
    return;
  }
  p->fetching = 1;
  p->info.fetches++;
  p->len = 0;
  uv_timer_start(&p->timeout, on_timeout, XQ_POLL_TIMEOUT_MS, 0);
  struct sockaddr_storage sa;
  p->gai.data = p;
  p->refs++; /* the lookup's, if there is one */
  p->gai_busy = 1;
  int rc = xq__url_lookup(p->s->loop, &p->gai, on_resolved, p->host, p->port, &sa);
  if (rc == 0) return;
  p->gai_busy = 0;
  p->refs--;
  if (rc == 1) connect_to(p, (struct sockaddr *)&sa);
  else fetch_failed(p, 0, "cannot resolve %s: %s", p->host, uv_strerror(rc));
}

/* ------------------------------------------------------------------ */
/* Pollers                                                             */
/* ------------------------------------------------------------------ */

static void poller_stop(xq__poller *p)
{
  if (p->stopped) return;
  p->stopped = 1;
  end_fetch(p);
  uv_close((uv_handle_t *)&p->timer, on_closed);
  uv_close((uv_handle_t *)&p->timeout, on_closed);
  xq__pollers *in = p->s->poll;
  if (in->polls[p->round] == p) {
    in->polls[p->round] = NULL;
    in->npolls--;
  }
  poller_unref(p); /* the table's reference */
}

int xq__poller_init(xq__server *s)
{
  s->poll = calloc(1, sizeof *s->poll);
  return s->poll ? XQ_OK : XQ_ENOMEM;
}

void xq__poller_close(xq__server *s)
{
  if (!s->poll || s->poll->closed) return;
  s->poll->closed = 1;
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX; r++)
    if (s->poll->polls[r]) poller_stop(s->poll->polls[r]);
}

void xq__poller_free(xq__server *s)
{
  /* pollers free themselves once their handles closed; a stopped server
   * has none left in the table */
  free(s->poll);
  s->poll = NULL;
}

int xq__poller_state(xq__server *s, int round, xq__poller_info *out)
{
  if (!s->poll || round < 1 || round > XQ_ROUNDS_LIVE_MAX || !s->poll->polls[round]) return XQ_EINVAL;
  *out = s->poll->polls[round]->info;
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Operations                                                          */
/* ------------------------------------------------------------------ */

static cJSON *poll_json(const xq__poller *p)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", p->round);
  cJSON_AddStringToObject(o, "url", p->url);
  cJSON_AddNumberToObject(o, "period", p->info.period_ms / 1000.0);
  cJSON_AddNumberToObject(o, "fetches", p->info.fetches);
  cJSON_AddNumberToObject(o, "successes", p->info.successes);
  cJSON_AddNumberToObject(o, "failures", p->info.failures);
  cJSON_AddNumberToObject(o, "next_ms", p->info.next_ms);
  cJSON_AddNumberToObject(o, "last_status", p->info.last_status);
  if (p->info.last_error[0]) cJSON_AddStringToObject(o, "last_error", p->info.last_error);
  return o;
}

static void op_ingest_url(xq__server *s, xq__req *r)
{
  int ok = 1;
  int round = xq__field_num(r->json, "round", 0, &ok);
  const char *url = xq__field_text(r->json, "url");
  const cJSON *per = cJSON_GetObjectItemCaseSensitive(r->json, "period");
  if (!ok || round < 1 || !url || (per && !cJSON_IsNumber(per))) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "give round, url (http://...) and period (seconds)", -1);
    return;
  }
  if (round > XQ_ROUNDS_LIVE_MAX || !s->rounds[round]) {
    xq__reply_error(r->c, r->id, XQ__E_NOT_FOUND, "that round is not published", -1);
    return;
  }
  xq_http_url u;
  xq_error uerr = {0};
  if (xq_http_url_parse(url, &u, &uerr) != XQ_OK) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, uerr.msg, -1);
    return;
  }
  xq__poller *p = calloc(1, sizeof *p);
  if (!p) {
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
    return;
  }
  xq__pollers *in = s->poll;
  if (!in->polls[round] && in->npolls >= XQ_POLLERS_MAX) {
    free(p);
    xq__reply_error(r->c, r->id, XQ__E_LIMIT, "too many rounds polled at once", -1);
    return;
  }
  /* seconds to ms, clamped to the bounds on the double, before the
   * conversion (a period of 1e300 s is the longest) */
  long long ms = XQ_POLL_DEFAULT_MS;
  if (per && !xq_whole_part(per->valuedouble * 1000.0, XQ_POLL_MIN_MS, XQ_POLL_MAX_MS, &ms))
    ms = per->valuedouble * 1000.0 > XQ_POLL_MAX_MS ? XQ_POLL_MAX_MS : XQ_POLL_MIN_MS;
  p->s = s;
  p->round = round;
  p->info.period_ms = (int)ms;
  snprintf(p->url, sizeof p->url, "%s", url);
  memcpy(p->host, u.host, sizeof p->host);
  memcpy(p->port, u.port, sizeof p->port);
  size_t cap = strlen(u.target) + strlen(u.hostport) + 160;
  p->request = malloc(cap);
  if (!p->request) {
    free(p);
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
    return;
  }
  p->request_len = (size_t)snprintf(p->request, cap,
                                    "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: xqref/" XQ_VERSION "\r\n"
                                    "Accept: application/x-chess-pgn, text/plain, */*\r\nConnection: close\r\n\r\n",
                                    u.target, u.hostport);
  uv_timer_init(s->loop, &p->timer);
  uv_timer_init(s->loop, &p->timeout);
  p->timer.data = p->timeout.data = p;
  p->refs = 3; /* the table and the two timers */
  if (in->polls[round]) poller_stop(in->polls[round]); /* a new URL replaces the old */
  in->polls[round] = p;
  in->npolls++;
  xq__log(s, "poll round %d: %s every %d ms", round, p->url, p->info.period_ms);
  xq__reply_obj(r->c, r->id, poll_json(p));
  start_fetch(p); /* the first fetch now */
}

static void op_ingest_stop(xq__server *s, xq__req *r)
{
  int ok = 1;
  int round = xq__field_num(r->json, "round", 0, &ok);
  if (!ok || round < 1) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "give the round", -1);
    return;
  }
  xq__poller *p = round <= XQ_ROUNDS_LIVE_MAX ? s->poll->polls[round] : NULL;
  if (!p) {
    xq__reply_error(r->c, r->id, XQ__E_NOT_FOUND, "that round is not polled", -1);
    return;
  }
  cJSON *o = poll_json(p);
  poller_stop(p);
  xq__reply_obj(r->c, r->id, o);
}

static void op_ingest_status(xq__server *s, xq__req *r)
{
  int ok = 1;
  int round = xq__field_num(r->json, "round", 0, &ok);
  if (!ok || round < 0) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "round is a number", -1);
    return;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON *a = cJSON_AddArrayToObject(o, "polls");
  for (int i = 1; i <= XQ_ROUNDS_LIVE_MAX; i++)
    if (s->poll->polls[i] && (!round || round == i)) cJSON_AddItemToArray(a, poll_json(s->poll->polls[i]));
  xq__reply_obj(r->c, r->id, o);
}

/* Fetch now instead of at the next tick (a "sync now" button; also how
 * the tests see a back-off reset without waiting for it). */
static void op_ingest_now(xq__server *s, xq__req *r)
{
  int ok = 1;
  int round = xq__field_num(r->json, "round", 0, &ok);
  xq__poller *p = ok && round >= 1 && round <= XQ_ROUNDS_LIVE_MAX ? s->poll->polls[round] : NULL;
  if (!p) {
    xq__reply_error(r->c, r->id, XQ__E_NOT_FOUND, "that round is not polled", -1);
    return;
  }
  if (!p->fetching) {
    uv_timer_stop(&p->timer);
    start_fetch(p);
  }
  xq__reply_obj(r->c, r->id, poll_json(p));
}

const xq__op xq__ingest_ops[] = {
  {"ingest_url", XQ__R(XQ_ROLE_ADMIN), op_ingest_url},
  {"ingest_stop", XQ__R(XQ_ROLE_ADMIN), op_ingest_stop},
  {"ingest_status", XQ__R(XQ_ROLE_ADMIN), op_ingest_status},
  {"ingest_now", XQ__R(XQ_ROLE_ADMIN), op_ingest_now},
  {NULL, 0, NULL},
};
