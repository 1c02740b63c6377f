/*
 * simulate_server.c -- the server of `xqref simulate` on the run's loop
 * and the staff's side of it: the server started and stopped, the
 * organiser's and the chief arbiter's connections and their synchronous
 * requests, and the first failure of the run, kept for its report.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simulate_internal.h"

int xq__simulate_server_fail(xq__sim *S, int code, const char *fmt, ...)
{
  if (S->err && !S->err->msg[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->err->msg, sizeof S->err->msg, fmt, ap);
    va_end(ap);
    S->err->code = code;
  }
  return code;
}

cJSON *xq__simulate_server_call(xq__sim *S, xq_jsonl *c, const char *line)
{
  cJSON *r = xq__jsonl_call(c, line, XQ_SIM_CALL_MS);
  if (!r) xq__simulate_server_fail(S, XQ_EIO, "no answer from the server to %.200s", line);
  return r;
}

int xq__simulate_server_connect(xq__sim *S, xq_jsonl *c, const xq_jsonl_hooks *hooks, void *data)
{
  return xq__jsonl_connect(c, &S->loop, (const struct sockaddr *)&S->addr, XQ_SIM_LINE_MAX, hooks, data);
}

static int hello(xq__sim *S, xq_jsonl *c, const char *token, const char *role)
{
  char *line = xq__jsonl_hello_line(1, token);
  if (!line) return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  cJSON *r = xq__simulate_server_call(S, c, line);
  free(line);
  if (!r) return XQ_EIO;
  const cJSON *got = cJSON_GetObjectItemCaseSensitive(r, "role");
  int ok = cJSON_IsString(got) && !strcmp(got->valuestring, role);
  cJSON_Delete(r);
  return ok ? XQ_OK : xq__simulate_server_fail(S, XQ_EIO, "the %s token was refused", role);
}

int xq__simulate_server_up(xq__sim *S)
{
  xq_server_opts so;
  xq_server_opts_default(&so);
  so.db = S->db;
  so.listen = "127.0.0.1:0";
  so.http = NULL;
  so.rules = S->rules_file[0] ? S->rules_file : S->r->rules_preset;
  so.signals = 0;
  so.out = NULL;
  so.log = NULL;
  xq_error e = {0};
  int rc = xq_server_start(&S->loop, &so, &S->srv, &e);
  if (rc) return xq__simulate_server_fail(S, rc, "server: %s", e.msg[0] ? e.msg : xq_strerror(rc));
  S->port = xq_server_port(S->srv, 0);
  uv_ip4_addr("127.0.0.1", S->port, &S->addr);
  if (xq__simulate_server_connect(S, &S->adm, NULL, NULL) || xq__simulate_server_connect(S, &S->arb, NULL, NULL))
    return xq__simulate_server_fail(S, XQ_EIO, "cannot connect to the server on port %d", S->port);
  S->conns_open = 1;
  if ((rc = hello(S, &S->adm, S->admin, "admin")) || (rc = hello(S, &S->arb, S->arbiter, "arbiter")))
    return rc;
  return XQ_OK;
}

void xq__simulate_server_down(xq__sim *S)
{
  if (S->conns_open) {
    xq__jsonl_close(&S->adm);
    xq__jsonl_close(&S->arb);
    S->conns_open = 0;
  }
  if (S->srv) {
    xq_server_stop(S->srv);
    uv_run(&S->loop, UV_RUN_DEFAULT);
    xq_server_free(S->srv);
    S->srv = NULL;
  }
  uv_run(&S->loop, UV_RUN_DEFAULT);
}

cJSON *xq__simulate_server_staff(xq__sim *S, const char *line, const char *what)
{
  cJSON *r = xq__simulate_server_call(S, &S->adm, line);
  const char *code = r ? xq__jsonl_error(r) : NULL;
  if (r && code) {
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "error");
    xq__simulate_server_fail(S, XQ_EIO, "%s: %s %s", what, code, xq__jsonl_str(e, "msg") ? xq__jsonl_str(e, "msg") : "");
    cJSON_Delete(r);
    return NULL;
  }
  return r;
}

int xq__simulate_server_result(xq__sim *S, int round, int table, const char *code, const char *why)
{
  char line[256];
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"result\",\"round\":%d,\"table\":%d,\"result\":\"%s\","
           "\"reason\":\"%s\"}", ++S->next_id, round, table, code, why);
  cJSON *r = xq__simulate_server_call(S, &S->arb, line);
  if (!r) return XQ_EIO;
  const char *ec = xq__jsonl_error(r);
  int rc = ec ? xq__simulate_server_fail(S, XQ_EIO, "round %d table %d: result %s: %s", round, table, code, ec) : XQ_OK;
  cJSON_Delete(r);
  return rc;
}
