/*
 * ops_slips.c -- the slips operation (docs/protocol.md "Organisers"): a
 * new board token for every table of a published round, and the page of
 * slips to print, each with its token and a QR code of the connection
 * details.
 *
 * The tokens are written on the loop (the store has one writer) in one
 * transaction -- one sync to disk for the round, not one per table -- and
 * added to the server's token cache without reading every token again.
 * The page (a QR code per table: 2 MB of HTML for 200 tables) and its
 * reply line are made in the worker pool, in the sheets lane (jobs.c),
 * from copies of what they show taken on the loop: the event (names and
 * numbers), the round's tables and the new tokens. The client's next
 * requests wait for the reply (task.c), the boards do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sheet/sheet.h"
#include "internal.h"
#include "ops.h"
#include "proto.h"
#include "task.h"

/* slips: the request, the copies the job reads, and what it makes. */
typedef struct slips_task {
  xq__task t;                /* first: its job is the task's (jobs.c) */
  int round, lang;
  char connect[XQ_SLIP_CONNECT_MAX + 16]; /* HOST:PORT printed on the slips */
  xq_tournament *ev;         /* a copy of the event */
  xq_tpairing pr;            /* the round's tables */
  xq_ttoken *k;              /* the tokens made, k[0..ntokens), each with its table */
  int ntokens;
  int rc;                    /* the job's status ... */
  xq__buf *line;             /* ... and its reply line, {"id":..,"ok":true,"round":R,"html":"..."} */
} slips_task;

static void slips_fini(xq__task *task)
{
  slips_task *t = (slips_task *)task;
  xq_tournament_free(t->ev);
  xq_tpairing_clear(&t->pr);
  free(t->k);
  xq__buf_unref(t->line);
}

/* The boards' address on the slips: the request's "connect", else the
 * server's --board-address, else the JSON-lines listener's host and real
 * port. 0, or -1 when the listener is on every address (0.0.0.0, ::):
 * no slip may send a board there. */
static int slips_connect(xq__server *s, const char *given, char *out, size_t cap)
{
  if (given || s->opts.board_address) {
    snprintf(out, cap, "%s", given ? given : s->opts.board_address);
    return 0;
  }
  const char *l = s->opts.listen ? s->opts.listen : "127.0.0.1:0", *colon = strrchr(l, ':');
  int hl = colon ? (int)(colon - l) : (int)strlen(l);
  snprintf(out, cap, "%.*s:%d", hl, l, xq_server_port(s, 0));
  static const char *const wild[] = {"0.0.0.0:", "[::]:", ":::", "*:", ":"};
  for (size_t i = 0; i < sizeof wild / sizeof wild[0]; i++)
    if (!strncmp(out, wild[i], strlen(wild[i]))) return -1;
  return 0;
}

/* A new board token for every table of t->pr that is played (not the
 * bye, not a knockout table decided), all in one transaction: all of
 * them are stored or none. XQ_OK, or the store's code (`err` says why). */
static int make_tokens(xq__server *s, slips_task *t, xq_error *err)
{
  const xq_tpairing *pr = &t->pr;
  int *tables = malloc(sizeof *tables * (size_t)(pr->nboards + 1)), n = 0;
  t->k = calloc((size_t)pr->nboards + 1, sizeof *t->k);
  int rc = tables && t->k ? XQ_OK : XQ_ENOMEM;
  for (int b = 0; !rc && b < pr->nboards; b++)
    if (pr->boards[b].black && !(t->round == XQ_KO_ROUND && s->ko->tables[b].done)) tables[n++] = b + 1;
  if (!rc) rc = xq_tstore_board_tokens(s->store, t->round, tables, n, "slip", t->k, err);
  if (!rc) t->ntokens = n;
  free(tables);
  return rc;
}

/* Worker: the page of slips and the reply line (2 MB for 200 tables:
 * made here, written from here, never copied on the loop). */
static void slips_work(xq__job *j)
{
  slips_task *t = (slips_task *)j;
  const char **tok = calloc((size_t)t->pr.nboards + 1, sizeof *tok);
  for (int i = 0; tok && i < t->ntokens; i++) tok[t->k[i].board - 1] = t->k[i].token; /* others: no slip */
  char *html = NULL;
  size_t len = 0;
  FILE *f = tok ? open_memstream(&html, &len) : NULL;
  t->rc = f ? xq_sheet_slips(t->ev, &t->pr, tok, t->connect, t->lang, f) : XQ_ENOMEM;
  if (f && fclose(f) != 0 && t->rc == XQ_OK) t->rc = XQ_ENOMEM;
  if (t->rc == XQ_OK) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "round", t->round);
    cJSON_AddStringToObject(o, "html", html ? html : "");
    char *obj = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    t->line = obj ? xq__task_line(&t->t, obj) : NULL;
    free(obj);
    if (!t->line) t->rc = XQ_ENOMEM;
  }
  free(html);
  free(tok);
}

static void slips_after(xq__job *j, int status)
{
  slips_task *t = (slips_task *)j;
  if (status != 0) xq__task_error(&t->t, XQ__E_INTERNAL, "the slips job was cancelled");
  else if (t->rc != XQ_OK) xq__task_error(&t->t, xq__reply_code(t->rc), xq_strerror(t->rc));
  else xq__task_send_buf(&t->t, t->line);
  xq__task_free(&t->t);
}

/* New board tokens for the round's tables, then their slips in the pool. */
static void run_slips(xq__server *s, xq__task *task)
{
  slips_task *t = (slips_task *)task;
  xq_error err = {0};
  if (xq_tstore_round_tables(s->store, t->round, &t->pr, &err) != XQ_OK) {
    xq__task_error(task, XQ__E_NOT_FOUND, err.msg);
    return;
  }
  /* before anything is written: no tokens without their slips */
  if (xq__task_busy(task, XQ__LANE_SHEETS, XQ_SHEET_JOBS_ADMIN)) return;
  int rc = make_tokens(s, t, &err);
  if (rc != XQ_OK) {
    xq__task_error(task, xq__reply_write_code(rc), err.msg[0] ? err.msg : xq_strerror(rc));
    return;
  }
  xq__log(s, "round %d: %d board tokens made for the slips", t->round, t->ntokens);
  if (xq__server_tokens_add(s, t->k, t->ntokens) != XQ_OK && xq__task_reload(s, task, 1)) return;
  if (!(t->ev = xq_tournament_copy(s->ev))) {
    xq__task_error(task, XQ__E_INTERNAL, "out of memory");
    return;
  }
  xq__task_job(task, XQ__LANE_SHEETS, slips_work, slips_after);
}

void xq__ops_slips(xq__server *s, xq__req *r)
{
  const char *connect, *lang;
  int round;
  if (xq__field_int(r, "round", 1, XQ_KO_ROUND, 0, &round) || xq__field_str(r, "connect", 0, &connect) ||
      xq__field_str(r, "lang", 0, &lang))
    return;
  int lg = lang ? xq_sheet_lang_parse(lang) : XQ_LANG_ZH;
  if (lg < 0 || (connect && !xq_slip_connect_ok(connect))) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "lang is en or zh; connect is HOST:PORT", -1);
    return;
  }
  char addr[XQ_SLIP_CONNECT_MAX + 16];
  if (slips_connect(s, connect, addr, sizeof addr) || !xq_slip_connect_ok(addr)) {
    static const char why[] =
      "the server listens on every address: give connect, the boards' HOST:PORT (or serve --board-address)";
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, why, -1);
    return;
  }
  slips_task *t = (slips_task *)xq__task_new(s, r, run_slips, sizeof *t, slips_fini);
  if (!t) return;
  snprintf(t->connect, sizeof t->connect, "%s", addr);
  t->round = round;
  t->lang = lg;
  xq__task_go(s, &t->t, 1);
}
