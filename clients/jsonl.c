/*
 * jsonl.c -- the JSON-lines client of loadgen, board and simulate
 * (jsonl.h): connect, hello, writes that go out at once or queue behind
 * what is pending, and reads split into reply lines and broadcast events.
 */
#include <stdlib.h>
#include <string.h>

#include "clientlimits.h"
#include "jsonl.h"
#include "netlimits.h"

/* ------------------------------------------------------------------ */
/* Writes                                                              */
/* ------------------------------------------------------------------ */

static void on_write(uv_write_t *req, int status)
{
  (void)status; /* a failed write shows as a read error on the same socket */
  free(req);
}

int xq__jsonl_write_queued(uv_stream_t *st, const uv_buf_t *bufs, unsigned n)
{
  size_t total = 0;
  for (unsigned i = 0; i < n; i++) total += bufs[i].len;
  /* uv_try_write writes nothing while earlier writes are queued */
  int done = uv_try_write(st, bufs, n);
  if (done == (int)total) return 0;
  if (done < 0 && done != UV_EAGAIN) return done;
  size_t skip = done < 0 ? 0 : (size_t)done;
  /* The rest goes through uv_write, which needs the bytes to live until
   * its callback: one block holds the request and the copy. */
  uv_write_t *req = malloc(sizeof *req + total - skip);
  if (!req) return UV_ENOMEM;
  char *copy = (char *)(req + 1), *p = copy;
  for (unsigned i = 0; i < n; i++) {
    size_t len = bufs[i].len, drop = skip < len ? skip : len;
    memcpy(p, bufs[i].base + drop, len - drop);
    p += len - drop;
    skip -= drop;
  }
  uv_buf_t rest = uv_buf_init(copy, (unsigned)(p - copy));
  int rc = uv_write(req, st, &rest, 1, on_write);
  if (rc) free(req);
  return rc;
}

/* Send the buffers on a connection that is up. XQ_OK or XQ_EIO. */
static int send_bufs(xq_jsonl *c, const uv_buf_t *bufs, unsigned n)
{
  if (c->closing || c->failed) return XQ_EIO;
  int rc = xq__jsonl_write_queued((uv_stream_t *)&c->tcp, bufs, n);
  if (!rc) return XQ_OK;
  c->failed = XQ_JSONL_WRITE;
  c->uverr = rc;
  return XQ_EIO;
}

int xq__jsonl_write(xq_jsonl *c, const char *text, size_t len)
{
  uv_buf_t buf = uv_buf_init((char *)text, (unsigned)len);
  return send_bufs(c, &buf, 1);
}

char *xq__jsonl_hello_line(long long id, const char *token)
{
  cJSON *req = cJSON_CreateObject();
  if (!req || !cJSON_AddNumberToObject(req, "id", (double)id) || !cJSON_AddStringToObject(req, "op", "hello") ||
      !cJSON_AddStringToObject(req, "token", token)) {
    cJSON_Delete(req);
    return NULL;
  }
  char *line = cJSON_PrintUnformatted(req);
  cJSON_Delete(req);
  return line;
}

int xq__jsonl_hello(xq_jsonl *c, long long id, const char *token)
{
  char *line = xq__jsonl_hello_line(id, token);
  if (!line) return XQ_ENOMEM;
  size_t n = strlen(line);
  line[n] = '\n'; /* cJSON allocates the terminator: room for the newline */
  int rc = xq__jsonl_write(c, line, n + 1);
  free(line);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Reads                                                               */
/* ------------------------------------------------------------------ */

/* The connection failed while reading: no more reads; the reply hook
 * hears of the first failure. */
static void fail(xq_jsonl *c, int why, int uverr)
{
  int first = !c->failed;
  c->failed = why;
  c->uverr = uverr;
  uv_read_stop((uv_stream_t *)&c->tcp);
  if (first && c->hooks && c->hooks->reply) c->hooks->reply(c, NULL);
}

/* Lines already read are still good after the connection was lost or a
 * write refused; not once one of them was bad or too long. */
static int lines_good(const xq_jsonl *c)
{
  return !c->closing && c->failed != XQ_JSONL_BAD_LINE && c->failed != XQ_JSONL_TOO_LONG;
}

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
  xq_jsonl *c = h->data;
  (void)hint;
  if (c->cap - c->len < XQ_JSONL_READ_MIN && c->cap < c->line_max) {
    size_t cap = c->cap ? c->cap * 2 : XQ_JSONL_READ_MIN;
    if (cap > c->line_max) cap = c->line_max;
    char *p = realloc(c->in, cap);
    if (p) {
      c->in = p;
      c->cap = cap;
    }
  }
  /* no room (out of memory): libuv reports UV_ENOBUFS, a lost connection */
  *buf = c->in ? uv_buf_init(c->in + c->len, (unsigned)(c->cap - c->len)) : uv_buf_init(NULL, 0);
}

/* One line without its '\n': a reply for the owner, a broadcast dropped. */
static void on_line(xq_jsonl *c, const char *line, size_t len)
{
  cJSON *r = cJSON_ParseWithLength(line, len);
  if (!cJSON_IsObject(r)) {
    cJSON_Delete(r);
    fail(c, XQ_JSONL_BAD_LINE, 0);
    return;
  }
  if (cJSON_GetObjectItemCaseSensitive(r, "event") && !cJSON_GetObjectItemCaseSensitive(r, "id")) {
    cJSON_Delete(r); /* a broadcast line: not a reply */
    return;
  }
  if (c->hooks && c->hooks->reply) {
    c->hooks->reply(c, r);
    cJSON_Delete(r);
  } else {
    c->kept = r;
  }
}

/* Hand out the complete lines read, until one is kept for a waiter, a
 * line is bad or the connection closes; keep the rest. */
static void split_lines(xq_jsonl *c)
{
  if (!c->in) return;
  int keeping = !(c->hooks && c->hooks->reply);
  size_t start = 0;
  while (lines_good(c) && !(keeping && c->kept)) {
    char *nl = memchr(c->in + c->scan, '\n', c->len - c->scan);
    if (!nl) {
      c->scan = c->len;
      break;
    }
    size_t end = (size_t)(nl - c->in);
    on_line(c, c->in + start, end - start);
    start = c->scan = end + 1;
  }
  if (!lines_good(c)) return;
  memmove(c->in, c->in + start, c->len - start);
  c->len -= start;
  c->scan -= start;
  /* a buffer of line_max bytes without a line end: a line too long
   * (below that on_alloc grows the buffer) */
  if (!c->failed && c->len == c->cap && c->cap >= c->line_max && c->scan == c->len) fail(c, XQ_JSONL_TOO_LONG, 0);
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  xq_jsonl *c = st->data;
  (void)buf;
  if (nread == 0 || c->closing || c->failed) return;
  if (nread < 0) {
    fail(c, XQ_JSONL_LOST, (int)nread);
    return;
  }
  c->len += (size_t)nread;
  split_lines(c);
}

/* ------------------------------------------------------------------ */
/* Connecting and closing                                              */
/* ------------------------------------------------------------------ */

int xq_jsonl_addr(const char *text, struct sockaddr_storage *out)
{
  char host[XQ_JSONL_HOST_MAX];
  const char *colon = strrchr(text, ':');
  if (!colon || colon == text || (size_t)(colon - text) >= sizeof host) return XQ_EINVAL;
  memcpy(host, text, (size_t)(colon - text));
  host[colon - text] = 0;
  char *end;
  long port = strtol(colon + 1, &end, 10);
  if (*end || port < 1 || port > 65535) return XQ_EINVAL;
  if (!strcmp(host, "localhost")) snprintf(host, sizeof host, "127.0.0.1");
  if (uv_ip4_addr(host, (int)port, (struct sockaddr_in *)out) == 0) return XQ_OK;
  if (uv_ip6_addr(host, (int)port, (struct sockaddr_in6 *)out) == 0) return XQ_OK;
  return XQ_EINVAL;
}

static void on_connect(uv_connect_t *req, int status)
{
  xq_jsonl *c = req->data;
  if (c->closing) return;
  if (status < 0) {
    c->failed = XQ_JSONL_CONNECT;
    c->uverr = status;
  } else {
    uv_tcp_nodelay(&c->tcp, 1);
    c->connected = 1;
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
  }
  if (c->hooks && c->hooks->connected) c->hooks->connected(c, status);
}

int xq__jsonl_open(xq_jsonl *c, uv_loop_t *loop, const struct sockaddr *addr, size_t line_max,
                  const xq_jsonl_hooks *hooks, void *data)
{
  memset(c, 0, sizeof *c);
  c->loop = loop;
  c->hooks = hooks;
  c->data = data;
  c->line_max = line_max;
  uv_tcp_init(loop, &c->tcp);
  c->tcp.data = c->creq.data = c;
  int rc = uv_tcp_connect(&c->creq, &c->tcp, addr, on_connect);
  if (rc) {
    c->failed = XQ_JSONL_CONNECT;
    c->uverr = rc;
    return XQ_EIO;
  }
  return XQ_OK;
}

int xq__jsonl_connect(xq_jsonl *c, uv_loop_t *loop, const struct sockaddr *addr, size_t line_max,
                     const xq_jsonl_hooks *hooks, void *data)
{
  if (xq__jsonl_open(c, loop, addr, line_max, hooks, data)) return XQ_EIO;
  while (!c->connected && !c->failed) uv_run(loop, UV_RUN_ONCE);
  return c->connected && !c->failed ? XQ_OK : XQ_EIO;
}

static void on_closed(uv_handle_t *h)
{
  xq_jsonl *c = h->data;
  free(c->in);
  c->in = NULL;
  c->closed = 1;
  if (c->hooks && c->hooks->closed) c->hooks->closed(c);
}

void xq__jsonl_close(xq_jsonl *c)
{
  if (c->closing) return;
  c->closing = 1;
  cJSON_Delete(c->kept);
  c->kept = NULL;
  uv_close((uv_handle_t *)&c->tcp, on_closed);
}

/* ------------------------------------------------------------------ */
/* Waiting for a reply                                                 */
/* ------------------------------------------------------------------ */

static void on_timeout(uv_timer_t *t) { *(int *)t->data = 1; }

static void on_timer_closed(uv_handle_t *h) { (void)h; }

/* Run the loop until a reply is kept, the connection fails or closes,
 * or timeout_ms pass. */
static void run_until_reply(xq_jsonl *c, uint64_t timeout_ms)
{
  uv_timer_t timer;
  int expired = 0;
  uv_timer_init(c->loop, &timer);
  timer.data = &expired;
  uv_timer_start(&timer, on_timeout, timeout_ms, 0);
  while (!c->kept && !c->failed && !c->closing && !expired) uv_run(c->loop, UV_RUN_ONCE);
  uv_close((uv_handle_t *)&timer, on_timer_closed);
  uv_run(c->loop, UV_RUN_NOWAIT);
}

cJSON *xq__jsonl_wait(xq_jsonl *c, uint64_t timeout_ms)
{
  split_lines(c); /* a reply read with an earlier one comes first */
  if (!c->kept && !c->failed && !c->closing) run_until_reply(c, timeout_ms);
  cJSON *r = c->kept;
  c->kept = NULL;
  return r;
}

cJSON *xq__jsonl_call(xq_jsonl *c, const char *line, uint64_t timeout_ms)
{
  cJSON_Delete(c->kept);
  c->kept = NULL;
  uv_buf_t bufs[2] = {uv_buf_init((char *)line, (unsigned)strlen(line)), uv_buf_init((char *)"\n", 1)};
  return send_bufs(c, bufs, 2) ? NULL : xq__jsonl_wait(c, timeout_ms);
}

const char *xq__jsonl_error(const cJSON *reply)
{
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(reply, "error");
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
  return cJSON_IsString(code) ? code->valuestring : NULL;
}

const char *xq__jsonl_str(const cJSON *o, const char *key)
{
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(s) ? s->valuestring : NULL;
}

int xq__jsonl_seq(const cJSON *v, long long *out)
{
  return cJSON_IsNumber(v) && xq_whole_number(v->valuedouble, 0, XQ_SEQ_MAX, out);
}
