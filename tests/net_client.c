/*
 * net_client.c -- the scripted client and in-process server of the
 * protocol tests (net_client.h).
 */
#define _GNU_SOURCE
#include "conn.h"
#include "http_parse.h"
#include "hub.h"
#include "net_client.h"
#include <criterion/criterion.h>
#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Server                                                              */
/* ------------------------------------------------------------------ */

static int parse_tokens(xq_tserver *ts, char *text)
{
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char a[64], b[64], c[64], d[64];
    int n = sscanf(line, "%63s %63s %63s %63s", a, b, c, d);
    if (n >= 2 && !strcmp(a, "admin")) snprintf(ts->admin, sizeof ts->admin, "%s", b);
    else if (n == 4 && !strcmp(a, "arbiter")) snprintf(ts->arbiter, sizeof ts->arbiter, "%s", d);
    else if (n == 4 && !strcmp(a, "board") && atoi(b) == 1) {
      int t = atoi(c);
      if (t >= 1 && t <= XQ_TS_TOKENS_MAX) {
        snprintf(ts->board[t - 1], sizeof ts->board[0], "%s", d);
        if (t > ts->nboards) ts->nboards = t;
      }
    }
  }
  return 0;
}

static int start(xq_tserver *ts, int players, const xq_http_url *publish)
{
  uv_loop_init(&ts->loop);
  xq_server_opts o;
  xq_server_opts_default(&o);
  o.db = ts->db;
  o.listen = ts->tune.listen ? ts->tune.listen : "127.0.0.1:0";
  o.board_address = ts->tune.board_address;
  o.http = "127.0.0.1:0";
  o.demo = players > 0;
  o.demo_players = players;
  o.publish = publish;
  char *text = NULL;
  size_t tlen = 0;
  o.out = open_memstream(&text, &tlen);
  o.log = getenv("XQ_TEST_LOG") ? stderr : NULL;
  o.deadline_scale = ts->tune.deadline_scale;
  o.anon_conns_max = ts->tune.anon_conns_max;
  o.viewers_max = ts->tune.viewers_max;
  o.publish_batch_ms = ts->tune.publish_batch_ms;
  o.delay_s = ts->tune.delay_s;
  xq_error err = {0};
  int rc = xq_server_start(&ts->loop, &o, &ts->srv, &err);
  fclose(o.out);
  if (rc) {
    fprintf(stderr, "server start: %s\n", err.msg);
    free(text);
    uv_loop_close(&ts->loop);
    return -1;
  }
  parse_tokens(ts, text);
  free(text);
  ts->port = xq_server_port(ts->srv, 0);
  ts->http_port = xq_server_port(ts->srv, 1);
  return 0;
}

/* A server on a fresh store in a new temporary directory. */
static int start_fresh(xq_tserver *ts, int players, const xq_ts_tuning *t, const xq_http_url *publish)
{
  memset(ts, 0, sizeof *ts);
  if (t) ts->tune = *t;
  snprintf(ts->dir, sizeof ts->dir, "/tmp/xqref-test-XXXXXX");
  if (!mkdtemp(ts->dir)) return -1;
  snprintf(ts->db, sizeof ts->db, "%s/t.db", ts->dir);
  return start(ts, players, publish);
}

int xq_ts_start_tuned(xq_tserver *ts, int players, const xq_ts_tuning *t)
{
  return start_fresh(ts, players, t, NULL);
}

int xq_ts_start_publish(xq_tserver *ts, int players, const xq_http_url *publish, const xq_ts_tuning *t)
{
  return start_fresh(ts, players, t, publish);
}

int xq_ts_start(xq_tserver *ts, int players) { return start_fresh(ts, players, NULL, NULL); }

int xq_ts_restart(xq_tserver *ts) { return start(ts, 0, NULL); }

int xq_ts_stop(xq_tserver *ts)
{
  if (!ts->srv) return -1;
  xq_server_stop(ts->srv);
  uv_run(&ts->loop, UV_RUN_DEFAULT);
  int fanout = xq__hub_fanout_status(ts->srv); /* the fan-out thread's loop closed too */
  xq_server_free(ts->srv);
  ts->srv = NULL;
  int rc = uv_loop_close(&ts->loop);
  return rc ? rc : fanout;
}

void xq_ts_cleanup(xq_tserver *ts)
{
  const char *suffix[] = {"", "-wal", "-shm", ".admin"};
  char p[256];
  for (int i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s%s", ts->db, suffix[i]);
    unlink(p);
  }
  rmdir(ts->dir);
}

/* ------------------------------------------------------------------ */
/* Client                                                              */
/* ------------------------------------------------------------------ */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
  (void)suggested;
  xq_tclient *c = h->data;
  size_t room = XQ_TC_IN_MAX - c->len;
  buf->base = c->in + c->len;
  buf->len = room > 65536 ? 65536 : room;
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
  (void)buf;
  xq_tclient *c = s->data;
  if (n > 0) {
    c->len += (size_t)n;
    c->in[c->len] = 0;
  } else if (n == UV_ENOBUFS) {
    c->full = 1; /* XQ_TC_IN_MAX bytes unread: wait for xq_tc_reading */
    uv_read_stop(s);
  } else if (n < 0) {
    c->eof = 1;
    uv_read_stop(s);
  }
}

static void on_connect(uv_connect_t *req, int status)
{
  xq_tclient *c = req->data;
  if (status) {
    c->failed = 1;
    return;
  }
  c->connected = 1;
  uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
}

static void on_timer(uv_timer_t *t) { *(int *)t->data = 1; }
static void on_closed(uv_handle_t *h) { (void)h; }

static void on_tick(uv_timer_t *t) { (void)t; }

int xq_tc_run_until(uv_loop_t *loop, int (*done)(void *), void *arg, int timeout_ms)
{
  int fired = 0;
  uv_timer_t t, tick;
  uv_timer_init(loop, &t);
  t.data = &fired;
  uv_timer_start(&t, on_timer, (uint64_t)timeout_ms, 0);
  /* what another thread changes (the server's fan-out) wakes no handle
   * of this loop: look again every XQ_TC_TICK_MS */
  uv_timer_init(loop, &tick);
  uv_timer_start(&tick, on_tick, XQ_TC_TICK_MS, XQ_TC_TICK_MS);
  while (!done(arg) && !fired) uv_run(loop, UV_RUN_ONCE);
  uv_close((uv_handle_t *)&t, on_closed);
  uv_close((uv_handle_t *)&tick, on_closed);
  uv_run(loop, UV_RUN_NOWAIT);
  return done(arg);
}

static int is_connected(void *a)
{
  xq_tclient *c = a;
  return c->connected || c->failed;
}

int xq_tc_connect(xq_tclient *c, uv_loop_t *loop, int port)
{
  memset(c, 0, sizeof *c);
  c->in = malloc(XQ_TC_IN_MAX + 1);
  c->in[0] = 0;
  c->loop = loop;
  uv_tcp_init(loop, &c->tcp);
  c->tcp.data = c;
  c->creq.data = c;
  struct sockaddr_in sa;
  uv_ip4_addr("127.0.0.1", port, &sa);
  uv_tcp_connect(&c->creq, &c->tcp, (struct sockaddr *)&sa, on_connect);
  xq_tc_run_until(loop, is_connected, c, 5000);
  return c->connected ? 0 : -1;
}

typedef struct wreq {
  uv_write_t req;
  char data[];
} wreq;

static void on_write(uv_write_t *req, int status)
{
  (void)status;
  free(req);
}

void xq_tc_send_raw(xq_tclient *c, const char *data, size_t len)
{
  wreq *w = malloc(sizeof *w + len);
  memcpy(w->data, data, len);
  uv_buf_t b = uv_buf_init(w->data, (unsigned)len);
  if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, on_write)) free(w);
}

void xq_tc_send(xq_tclient *c, const char *line)
{
  size_t n = strlen(line);
  char *t = malloc(n + 1);
  memcpy(t, line, n);
  t[n] = '\n';
  xq_tc_send_raw(c, t, n + 1);
  free(t);
}

static int has_line(void *a)
{
  xq_tclient *c = a;
  return c->eof || memchr(c->in + c->line_start, '\n', c->len - c->line_start) != NULL;
}

char *xq_tc_line(xq_tclient *c, int timeout_ms)
{
  xq_tc_run_until(c->loop, has_line, c, timeout_ms);
  char *nl = memchr(c->in + c->line_start, '\n', c->len - c->line_start);
  if (!nl) return NULL;
  size_t n = (size_t)(nl - (c->in + c->line_start));
  char *line = strndup(c->in + c->line_start, n);
  c->line_start += n + 1;
  return line;
}

cJSON *xq_tc_json(xq_tclient *c, int timeout_ms)
{
  char *line = xq_tc_line(c, timeout_ms);
  if (!line) return NULL;
  cJSON *j = cJSON_Parse(line);
  free(line);
  return j;
}

cJSON *xq_tc_reply(xq_tclient *c, int timeout_ms)
{
  for (;;) {
    cJSON *r = xq_tc_json(c, timeout_ms);
    if (!r || !cJSON_GetObjectItemCaseSensitive(r, "event")) return r;
    cJSON_Delete(r);
  }
}

cJSON *xq_tc_call(xq_tclient *c, const char *line)
{
  xq_tc_send(c, line);
  return xq_tc_json(c, 5000);
}

static int is_eof(void *a) { return ((xq_tclient *)a)->eof; }

int xq_tc_wait_eof(xq_tclient *c, int timeout_ms) { return xq_tc_run_until(c->loop, is_eof, c, timeout_ms); }

static int is_closed(void *a) { return ((xq_tclient *)a)->closed; }

static void on_client_closed(uv_handle_t *h)
{
  xq_tclient *c = h->data;
  c->closed = 1;
}

void xq_tc_close(xq_tclient *c)
{
  if (!uv_is_closing((uv_handle_t *)&c->tcp)) uv_close((uv_handle_t *)&c->tcp, on_client_closed);
  xq_tc_run_until(c->loop, is_closed, c, 5000);
  free(c->in);
  c->in = NULL;
}

void xq_tc_reading(xq_tclient *c, int on)
{
  if (on) {
    c->full = 0;
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
    return;
  }
  uv_read_stop((uv_stream_t *)&c->tcp);
}

static int never(void *a)
{
  (void)a;
  return 0;
}

void xq_tc_spin(uv_loop_t *loop, int ms) { xq_tc_run_until(loop, never, NULL, ms); }

const char *xq_tc_error(const cJSON *reply)
{
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(reply, "error");
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
  return cJSON_IsString(code) ? code->valuestring : NULL;
}

/* ------------------------------------------------------------------ */
/* HTTP responses                                                      */
/* ------------------------------------------------------------------ */

/* Offset past a complete response at c->in + c->line_start, or 0. */
static size_t response_end(xq_tclient *c, int head_only)
{
  int status, chunked;
  long long cl;
  const char *p = c->in + c->line_start;
  size_t have = c->len - c->line_start;
  long h = xq__http_parse_response(p, have, &status, &cl, &chunked);
  if (h <= 0) return 0;
  if (head_only || status == 304) return (size_t)h;
  if (cl < 0) return c->eof ? have : 0;
  return have >= (size_t)h + (size_t)cl ? (size_t)h + (size_t)cl : 0;
}

typedef struct wait_resp {
  xq_tclient *c;
  int head_only;
} wait_resp;

static int have_response(void *a)
{
  wait_resp *w = a;
  return response_end(w->c, w->head_only) > 0 || (w->c->eof && w->c->len == w->c->line_start);
}

int xq_tc_response(xq_tclient *c, xq_tresp *r, int head_only, int timeout_ms)
{
  memset(r, 0, sizeof *r);
  wait_resp w = {c, head_only};
  if (!xq_tc_run_until(c->loop, have_response, &w, timeout_ms)) return -1;
  size_t end = response_end(c, head_only);
  if (!end) return -1;
  const char *p = c->in + c->line_start;
  int chunked;
  long long cl;
  long h = xq__http_parse_response(p, end, &r->status, &cl, &chunked);
  size_t hn = (size_t)h < sizeof r->head ? (size_t)h : sizeof r->head - 1;
  memcpy(r->head, p, hn);
  r->head[hn] = 0;
  r->len = end - (size_t)h;
  r->body = malloc(r->len + 1);
  if (!r->body) return -1;
  memcpy(r->body, p + h, r->len);
  r->body[r->len] = 0;
  c->line_start += end;
  return 0;
}

int xq_tc_http(uv_loop_t *loop, int port, const char *req, xq_tresp *r)
{
  xq_tclient c;
  memset(r, 0, sizeof *r);
  if (xq_tc_connect(&c, loop, port) != 0) return -1;
  xq_tc_send_raw(&c, req, strlen(req));
  int rc = xq_tc_response(&c, r, !strncmp(req, "HEAD", 4), 10000);
  xq_tc_close(&c);
  return rc;
}

void xq_tresp_free(xq_tresp *r)
{
  free(r->body);
  r->body = NULL;
}

/* ------------------------------------------------------------------ */
/* Replies, asserted                                                   */
/* ------------------------------------------------------------------ */

cJSON *xq_tc_callf(xq_tclient *c, const char *fmt, ...)
{
  char *line = NULL;
  va_list ap;
  va_start(ap, fmt);
  cr_assert(vasprintf(&line, fmt, ap) >= 0);
  va_end(ap);
  cJSON *r = xq_tc_call(c, line);
  cr_assert(r, "a reply to %.200s", line);
  free(line);
  return r;
}

int xq_tj_ok(const cJSON *r) { return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "ok")); }

const cJSON *xq_tj_get(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

const char *xq_tj_str(const cJSON *o, const char *k)
{
  const cJSON *v = xq_tj_get(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

double xq_tj_num(const cJSON *o, const char *k)
{
  const cJSON *v = xq_tj_get(o, k);
  cr_assert(cJSON_IsNumber(v), "member %s is a number", k);
  return v->valuedouble;
}

const cJSON *xq_tc_expect_error(const cJSON *r, const char *code)
{
  const char *got = xq_tc_error(r);
  char *text = cJSON_PrintUnformatted(r);
  cr_assert(got && !strcmp(got, code), "expected %s, got %s", code, text);
  free(text);
  return xq_tj_get(r, "error");
}

void xq_tc_expect_ok(const cJSON *r)
{
  char *text = cJSON_PrintUnformatted(r);
  cr_assert(xq_tj_ok(r), "expected ok, got %s", text);
  free(text);
}

/* Send the formatted line and check its reply is ok (or the error `code`);
 * the reply is freed. */
static void call_expect(xq_tclient *c, const char *code, const char *fmt, va_list ap)
{
  char *line = NULL;
  cr_assert(vasprintf(&line, fmt, ap) >= 0);
  cJSON *r = xq_tc_call(c, line);
  cr_assert(r, "a reply to %.200s", line);
  free(line);
  if (code) xq_tc_expect_error(r, code);
  else xq_tc_expect_ok(r);
  cJSON_Delete(r);
}

void xq_tc_okf(xq_tclient *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  call_expect(c, NULL, fmt, ap);
  va_end(ap);
}

void xq_tc_errf(xq_tclient *c, const char *code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  call_expect(c, code, fmt, ap);
  va_end(ap);
}
