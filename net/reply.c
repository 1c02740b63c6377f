/*
 * reply.c -- the replies of JSON lines (docs/protocol.md): {"id":..,
 * "ok":true,...} and {"id":..,"error":{code,msg}} lines, written whole,
 * in request order on each connection. A reply that comes later (after a
 * commit, a task) keeps its place (xq__reply_wait, xq__reply_turn); an
 * immediate reply made while such replies are owed waits behind them, as
 * a row of the commit queue that writes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "conn.h"
#include "internal.h"
#include "proto.h"
#include "records.h"

char *xq__reply_id(const cJSON *id)
{
  if (!id || !(cJSON_IsNumber(id) || cJSON_IsString(id))) return strdup("null");
  char *t = cJSON_PrintUnformatted(id);
  return t ? t : strdup("null");
}

/* A reply line that waits for the replies owed before it. */
typedef struct later_line {
  xq__conn *c;
  size_t len;
  char line[];
} later_line;

static void line_due(xq__server *s, void *arg, int status)
{
  (void)s, (void)status; /* a reply already made: only its turn was awaited */
  later_line *l = arg;
  l->c->owed_bytes -= l->len;
  if (xq__reply_turn(l->c)) xq__conn_send(l->c, l->line, l->len);
  xq__reply_turn_end(l->c);
  free(l);
}

/* Send one complete line, or, while replies owed before it wait (for a
 * commit, a task), queue it behind them. */
static void send_line(xq__conn *c, const char *line, size_t len)
{
  if (c->closing) return;
  if (c->pending_replies == 0 || c->flushing) {
    xq__conn_send(c, line, len);
    return;
  }
  later_line *l = malloc(sizeof *l + len);
  if (!l) {
    xq__conn_close(c);
    return;
  }
  l->c = c;
  l->len = len;
  memcpy(l->line, line, len);
  if (xq__commit_row(c->srv, NULL, NULL, 0, line_due, l) != XQ_OK) {
    /* no room behind the others: the client is told so at once rather
     * than answered out of order */
    free(l);
    xq__conn_close(c);
    return;
  }
  c->owed_bytes += len; /* counted in its output budget (xq__conn_stall) */
  xq__reply_wait(c);
}

void xq__reply_wait(xq__conn *c)
{
  xq__conn_ref(c);
  c->pending_replies++;
  xq__conn_resume(c);
}

int xq__reply_turn(xq__conn *c)
{
  c->pending_replies--;
  if (xq__conn_dead(c)) return 0;
  c->flushing++;
  return 1;
}

void xq__reply_turn_end(xq__conn *c)
{
  if (!xq__conn_dead(c)) {
    c->flushing--;
    if (c->pending_replies == 0 && c->srv->stopping) xq__conn_end(c);
    else xq__conn_resume(c);
  } else if (c->flushing) {
    c->flushing--;
  }
  xq__conn_unref(c);
}

void xq__reply_buf(xq__conn *c, xq__buf *b)
{
  if (c->closing) return;
  if (c->pending_replies == 0 || c->flushing) xq__conn_write(c, b, 0);
  else send_line(c, b->data, b->len);
}

/* Write "{"id":ID,<middle>}\n" where middle is `a` then `b`. */
static void send_parts(xq__conn *c, const char *idtext, const char *a, const char *b)
{
  size_t il = strlen(idtext), al = strlen(a), bl = b ? strlen(b) : 0;
  size_t n = 7 + il + 1 + al + bl + 2;
  char stack[XQ_REPLY_STACK];
  char *line = n <= sizeof stack ? stack : malloc(n + 1);
  if (!line) {
    xq__conn_close(c);
    return;
  }
  size_t k = 0;
  memcpy(line + k, "{\"id\":", 6), k += 6;
  memcpy(line + k, idtext, il), k += il;
  line[k++] = ',';
  memcpy(line + k, a, al), k += al;
  if (bl) memcpy(line + k, b, bl), k += bl;
  line[k++] = '}';
  line[k++] = '\n';
  send_line(c, line, k);
  if (line != stack) free(line);
}

void xq__reply(xq__conn *c, const cJSON *id, const char *fields)
{
  char *idtext = xq__reply_id(id);
  if (!idtext) return;
  if (fields && *fields) send_parts(c, idtext, "\"ok\":true,", fields);
  else send_parts(c, idtext, "\"ok\":true", NULL);
  free(idtext);
}

void xq__reply_obj(xq__conn *c, const cJSON *id, cJSON *obj)
{
  char *text = obj ? cJSON_PrintUnformatted(obj) : NULL;
  cJSON_Delete(obj);
  if (!text) {
    xq__reply_error(c, id, XQ__E_INTERNAL, "out of memory", -1);
    return;
  }
  /* the members of "{...}" without the braces */
  size_t n = strlen(text);
  text[n - 1] = 0;
  xq__reply(c, id, text + 1);
  free(text);
}

/* A copy of `msg` (malloc'd) in which every byte that is not part of a
 * well-formed UTF-8 sequence is '?': a message that quotes a request cut
 * to a length, or a name, never puts a broken sequence into a reply. */
static char *utf8_clean(const char *msg)
{
  size_t n = strlen(msg);
  char *out = malloc(n + 1);
  if (!out) return NULL;
  for (size_t i = 0; i < n;) {
    unsigned char b = (unsigned char)msg[i];
    size_t k = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    if (i + k <= n && xq_utf8_valid(msg + i, k)) {
      memcpy(out + i, msg + i, k);
      i += k;
    } else {
      out[i++] = '?';
    }
  }
  out[n] = 0;
  return out;
}

void xq__reply_error(xq__conn *c, const cJSON *id, const char *code, const char *msg, int ply)
{
  cJSON *e = cJSON_CreateObject();
  char *clean = utf8_clean(msg ? msg : "");
  cJSON_AddStringToObject(e, "code", code);
  cJSON_AddStringToObject(e, "msg", clean ? clean : "");
  free(clean);
  if (ply >= 0) cJSON_AddNumberToObject(e, "ply", ply);
  char *et = cJSON_PrintUnformatted(e);
  cJSON_Delete(e);
  char *idtext = xq__reply_id(id);
  if (et && idtext) send_parts(c, idtext, "\"error\":", et);
  free(et);
  free(idtext);
}

void xq__reply_stored(xq__conn *c, const char *idtext, const char *body)
{
  /* body is "{...}": splice the id in front of its members */
  if (body[0] != '{') return;
  if (body[1] == '}') send_parts(c, idtext, "\"ok\":true", NULL);
  else {
    size_t n = strlen(body);
    char *mid = strndup(body + 1, n - 2);
    if (!mid) return;
    send_parts(c, idtext, mid, NULL);
    free(mid);
  }
}

const char *xq__reply_code(int status)
{
  switch (status) {
  case XQ_EILLEGAL: return XQ__E_ILLEGAL;
  case XQ_EAMBIGUOUS: return XQ__E_AMBIGUOUS;
  case XQ_ENOTATION: return XQ__E_NOTATION;
  case XQ_EFEN: return XQ__E_FEN;
  case XQ_ELIMIT: return XQ__E_LIMIT;
  case XQ_ESTORE: return XQ__E_STORE;
  case XQ_EINVAL: return XQ__E_BAD_REQUEST;
  default: return XQ__E_INTERNAL;
  }
}

/* The error code of a store write's failure: a refusal by the store's
 * checks (XQ_EINVAL after ours passed) is a conflict with its state. */
const char *xq__reply_write_code(int rc)
{
  return rc == XQ_EINVAL ? XQ__E_CONFLICT : xq__reply_code(rc);
}
