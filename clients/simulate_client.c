/*
 * simulate_client.c -- the JSON-lines connections of `xqref simulate` on its
 * own loop, which also runs the server: the organiser's and arbiter's
 * (one request at a time, xq__simc_call runs the loop until the answer)
 * and one per board (replies handed to a callback, as `xqref loadgen`
 * drives its boards: one request in flight, the next sent from the reply).
 */
#include <stdlib.h>
#include <string.h>

#include "simulate_internal.h"

static void on_write(uv_write_t *req, int status)
{
  (void)status; /* a failed write shows as a read error on the socket */
  free(req);
}

int xq__simc_write(xq__simc *c, const char *text, size_t len)
{
  if (c->closing || c->failed) return XQ_EIO;
  uv_buf_t buf = uv_buf_init((char *)text, (unsigned)len);
  int n = uv_try_write((uv_stream_t *)&c->tcp, &buf, 1);
  if (n == (int)len) return XQ_OK;
  if (n < 0 && n != UV_EAGAIN) return XQ_EIO;
  if (n < 0) n = 0;
  /* the rest goes through uv_write, which needs the bytes until its
   * callback: one block holds the request and the copy */
  uv_write_t *req = malloc(sizeof *req + len - (size_t)n);
  if (!req) return XQ_ENOMEM;
  memcpy(req + 1, text + n, len - (size_t)n);
  buf = uv_buf_init((char *)(req + 1), (unsigned)(len - (size_t)n));
  if (uv_write(req, (uv_stream_t *)&c->tcp, &buf, 1, on_write)) {
    free(req);
    return XQ_EIO;
  }
  return XQ_OK;
}

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
  xq__simc *c = h->data;
  (void)hint;
  if (c->cap - c->len < 4096 && c->cap < XQ_SIM_LINE_MAX) {
    size_t cap = c->cap ? c->cap * 2 : 16384;
    char *p = realloc(c->in, cap);
    if (p) {
      c->in = p;
      c->cap = cap;
    }
  }
  *buf = uv_buf_init(c->in + c->len, (unsigned)(c->cap - c->len));
}

static void on_line(xq__simc *c, const char *line, size_t len)
{
  cJSON *r = cJSON_ParseWithLength(line, len);
  if (!cJSON_IsObject(r)) {
    cJSON_Delete(r);
    c->failed = 1;
    return;
  }
  if (cJSON_GetObjectItemCaseSensitive(r, "event") && !cJSON_GetObjectItemCaseSensitive(r, "id")) {
    cJSON_Delete(r); /* a broadcast line */
    return;
  }
  if (c->on_reply) {
    c->on_reply(c, r);
    cJSON_Delete(r);
  } else {
    cJSON_Delete(c->kept);
    c->kept = r;
  }
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  xq__simc *c = st->data;
  (void)buf;
  if (nread == 0) return;
  if (nread < 0) {
    c->failed = 1;
    uv_read_stop(st);
    if (c->on_reply) c->on_reply(c, NULL);
    return;
  }
  size_t start = 0, scan = c->len;
  c->len += (size_t)nread;
  char *nl;
  while ((nl = memchr(c->in + scan, '\n', c->len - scan))) {
    size_t end = (size_t)(nl - c->in);
    on_line(c, c->in + start, end - start);
    start = scan = end + 1;
  }
  memmove(c->in, c->in + start, c->len - start);
  c->len -= start;
  if (c->len == c->cap && c->cap >= XQ_SIM_LINE_MAX) {
    c->failed = 1; /* a reply longer than XQ_SIM_LINE_MAX (below it on_alloc grows the buffer) */
    uv_read_stop(st);
    if (c->on_reply) c->on_reply(c, NULL);
  }
}

static void on_connect(uv_connect_t *req, int status)
{
  xq__simc *c = req->data;
  if (status < 0) {
    c->failed = 1;
    return;
  }
  uv_tcp_nodelay(&c->tcp, 1);
  c->connected = 1;
  uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
}

int xq__simc_connect(xq__simc *c, uv_loop_t *loop, int port)
{
  struct sockaddr_in addr;
  memset(c, 0, sizeof *c);
  c->loop = loop;
  uv_ip4_addr("127.0.0.1", port, &addr);
  uv_tcp_init(loop, &c->tcp);
  c->tcp.data = c->creq.data = c;
  if (uv_tcp_connect(&c->creq, &c->tcp, (const struct sockaddr *)&addr, on_connect)) {
    c->failed = 1;
    return XQ_EIO;
  }
  while (!c->connected && !c->failed) uv_run(loop, UV_RUN_ONCE);
  return c->connected && !c->failed ? XQ_OK : XQ_EIO;
}

static void on_timeout(uv_timer_t *t)
{
  *(int *)t->data = 1;
}

static void on_timer_closed(uv_handle_t *h) { (void)h; }

cJSON *xq__simc_call(xq__simc *c, const char *line)
{
  size_t len = strlen(line);
  cJSON_Delete(c->kept);
  c->kept = NULL;
  if (xq__simc_write(c, line, len) || xq__simc_write(c, "\n", 1)) return NULL;
  uv_timer_t timer;
  int expired = 0;
  uv_timer_init(c->loop, &timer);
  timer.data = &expired;
  uv_timer_start(&timer, on_timeout, XQ_SIM_CALL_MS, 0);
  while (!c->kept && !c->failed && !expired) uv_run(c->loop, UV_RUN_ONCE);
  uv_close((uv_handle_t *)&timer, on_timer_closed);
  uv_run(c->loop, UV_RUN_NOWAIT);
  cJSON *r = c->kept;
  c->kept = NULL;
  return r;
}

static void on_closed(uv_handle_t *h)
{
  xq__simc *c = h->data;
  free(c->in);
  c->in = NULL;
  c->closed = 1;
}

void xq__simc_close(xq__simc *c)
{
  if (c->closing) return;
  c->closing = 1;
  cJSON_Delete(c->kept);
  c->kept = NULL;
  uv_close((uv_handle_t *)&c->tcp, on_closed);
}

const char *xq__simc_error(const cJSON *reply)
{
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(reply, "error");
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
  return cJSON_IsString(code) ? code->valuestring : NULL;
}
