/*
 * ops_game.c -- operations on live games (docs/protocol.md "Boards",
 * "Arbiters"): a board's events with sequence numbers, and the arbiter's
 * rulings. Every event is judged, queued for the group commit, and
 * answered (and broadcast) only once it is durable.
 *
 * Sequence numbers make a board's stream idempotent: the next number is
 * applied, an old one is answered with the reply it had the first time,
 * a gap is refused. The reply of every board event is stored with it, so
 * the same answer survives a restart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "conn.h"
#include "hub.h"
#include "internal.h"
#include "live.h"
#include "ops.h"
#include "proto.h"
#include "task.h"

/* ------------------------------------------------------------------ */
/* Replies and broadcasts of one event                                 */
/* ------------------------------------------------------------------ */

static const char *side_name(int side) { return side == XQ_RED ? "red" : "black"; }

/* The verdict as JSON: a short object for a plain accepted move (the
 * common case, kept cheap), the adjudicator's full one otherwise. */
static char *verdict_text(const xq_verdict *v)
{
  if (v->kind == XQ_VERDICT_ACCEPTED && v->event && !strcmp(v->event, "move")) {
    char *t = malloc(64);
    if (t) snprintf(t, 64, "{\"event\":\"move\",\"verdict\":\"accepted\",\"ply\":%d}", v->ply);
    return t;
  }
  return xq_verdict_json(v);
}

/* Reply body (stored with the row): {"ok":true,"seq":..,"ply":..,...};
 * `fen` is the position after the event. */
static char *reply_body(const xq__live *lv, int64_t seq, const char *fen, const char *vjson)
{
  size_t n = strlen(vjson) + 256 + XQ_FEN_MAX;
  char *b = malloc(n);
  if (!b) return NULL;
  if (seq > 0)
    snprintf(b, n, "{\"ok\":true,\"seq\":%lld,\"ply\":%d,\"fen\":\"%s\",\"result\":\"%s\",\"verdict\":%s}",
             (long long)seq, lv->g->nply, fen, xq__live_result(lv), vjson);
  else
    snprintf(b, n, "{\"ok\":true,\"ply\":%d,\"fen\":\"%s\",\"result\":\"%s\",\"paused\":%s,\"verdict\":%s}",
             lv->g->nply, fen, xq__live_result(lv), lv->g->paused ? "true" : "false", vjson);
  return b;
}

/* The broadcast of a verdict: its JSON with the game's clocks added. */
static char *verdict_bcast(const xq__live *lv, const char *vjson)
{
  long ck[2];
  xq__live_clock(lv, ck);
  cJSON *o = cJSON_Parse(vjson);
  if (!o) return NULL;
  if (ck[0] >= 0) {
    cJSON *c = cJSON_AddArrayToObject(o, "clock");
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)ck[0]));
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)ck[1]));
  }
  char *t = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return t;
}

/* The events of one request: a move, a snapshot, a claim, ... and the
 * clock reading that may come with it. */
typedef struct req_events {
  xq_event v[2];
  int n;
} req_events;

/* A request that waits for an event's row: the one that sent it, or one
 * that resent its sequence number while the row was on its way. */
typedef struct row_wait {
  xq__conn *c;                 /* the reply's destination (xq__reply_wait) */
  char *idtext;                /* the request id */
  struct row_wait *next;
} row_wait;

/* One request's row on its way to the store: what its completion needs. */
struct xq__event_row {
  row_wait *waits;             /* who is answered, in the order they came */
  char *body;                  /* the reply body, stored with the row */
  char *bcast;                 /* the broadcast, NULL none ... */
  const char *btype;           /* ... of this type */
  xq__view *view;              /* the game after the row: what answers show once it is durable */
  int64_t seq;                 /* a board's sequence number, 0 none */
  xq__live *lv;
  xq__event_row *next;         /* the game's next board row on its way (lv->inflight) */
};

static void event_row_free(xq__event_row *e)
{
  for (row_wait *w = e->waits, *n; w; w = n) {
    n = w->next;
    free(w->idtext);
    free(w);
  }
  free(e->body);
  free(e->bcast);
  xq__live_view_free(e->view);
  free(e);
}

/* Add `c` with request id `id` to the requests answered when `e` is
 * durable. XQ_OK or XQ_ENOMEM. */
static int event_row_wait(xq__event_row *e, xq__conn *c, const cJSON *id)
{
  row_wait *w = calloc(1, sizeof *w), **end = &e->waits;
  if (!w || !(w->idtext = xq__reply_id(id))) {
    free(w);
    return XQ_ENOMEM;
  }
  w->c = c;
  while (*end) end = &(*end)->next;
  *end = w;
  xq__reply_wait(c);
  return XQ_OK;
}

/* The row is durable: what answers show of the game, the resend cache,
 * the replies, then the broadcast. Or it failed: each request is told,
 * and the game goes back to what the store holds. */
static void event_durable(xq__server *s, void *arg, int status)
{
  xq__event_row *e = arg;
  xq__live *lv = e->lv;
  if (e->seq) { /* off the game's rows on their way (the oldest: rows complete in order) */
    xq__event_row **p = &lv->inflight;
    while (*p && *p != e) p = &(*p)->next;
    if (*p) *p = e->next;
  }
  if (status == XQ_OK) {
    xq__live_view_set(s, lv, e->view);
    e->view = NULL;
    if (e->seq) xq__live_remember(lv, e->seq, e->body);
  }
  for (row_wait *w = e->waits; w; w = w->next) {
    if (xq__reply_turn(w->c)) {
      if (status == XQ_OK) {
        xq__reply_stored(w->c, w->idtext, e->body);
      } else {
        cJSON *id = cJSON_Parse(w->idtext);
        xq__reply_error(w->c, id, XQ__E_STORE, xq__commit_why(s), -1);
        cJSON_Delete(id);
      }
    }
    xq__reply_turn_end(w->c);
  }
  if (status == XQ_OK && e->bcast) xq__hub_publish(s, e->btype, lv->round, lv->board, e->bcast);
  if (status != XQ_OK) xq__live_failed(s, lv);
  event_row_free(e);
}

/* Queue the row of events ev[0..n) of `rec` for `c` (its reply once
 * durable), with the broadcast `bcast` of type `btype` (NULL none). The
 * strings are copied. XQ_OK, or a status and nothing queued. */
static int event_queue(xq__server *s, xq__conn *c, const cJSON *id, xq__live *lv, const xq_tgame_rec *rec,
                       const req_events *ev, const char *btype, const char *bcast)
{
  xq__event_row *e = calloc(1, sizeof *e);
  if (!e || !(e->body = strdup(rec->reply)) || (bcast && !(e->bcast = strdup(bcast))) ||
      !(e->view = xq__live_view_take(lv))) {
    if (e) event_row_free(e);
    return XQ_ENOMEM;
  }
  e->btype = btype;
  e->lv = lv;
  e->seq = rec->seq;
  int rc = xq__commit_row(s, rec, ev->v, ev->n, event_durable, e);
  if (rc != XQ_OK) {
    event_row_free(e);
    return rc;
  }
  if (event_row_wait(e, c, id) != XQ_OK) {
    /* queued, and so acknowledged once durable; this client is not told */
    xq__log(s, "%s: out of memory: the reply to a queued event is lost", c->peer);
  }
  if (e->seq) { /* a resend of its number waits for it */
    xq__event_row **p = &lv->inflight;
    while (*p) p = &(*p)->next;
    *p = e;
  }
  return XQ_OK;
}

/* The events ev[0..n) have been judged (rc, v, err): queue their row, and
 * reply to `c` (may be closing: the row is kept all the same, the reply
 * dropped) once it is durable. `before` and `nply` are the position and
 * ply count the events started from. */
static void event_done(xq__server *s, xq__conn *c, const cJSON *id, xq__live *lv, int source,
                       int64_t seq, const req_events *ev, const xq_pos *before, int nply, int rc,
                       const xq_verdict *v, const xq_error *err)
{
  if (rc != XQ_OK) {
    xq__reply_error(c, id, xq__reply_code(rc), err->msg[0] ? err->msg : xq_strerror(rc), lv->g->nply);
    return;
  }
  char fen[XQ_FEN_MAX];
  xq_fen_format(&lv->g->pos, fen, sizeof fen);
  char *vjson = verdict_text(v);
  xq__live_note_verdict(lv, v, vjson);
  char *body = vjson ? reply_body(lv, seq, fen, vjson) : NULL;
  char *bcast = NULL;
  const char *btype = NULL;
  if (lv->g->nply == nply + 1) {
    /* the pieces moved: one "move" event, with the ruling if there was one */
    bcast = xq__live_json_move(lv, before, lv->g->hist[nply].move, v->kind == XQ_VERDICT_ACCEPTED ? NULL : vjson,
                               NULL);
    btype = "move";
  } else if (v->changed || v->kind != XQ_VERDICT_ACCEPTED) {
    /* a ruling, a foul, a clock that fell, a claim: the verdict itself,
     * with the clocks as they are now (a penalty, a pause) */
    bcast = vjson ? verdict_bcast(lv, vjson) : NULL;
    btype = "verdict";
  }
  xq_tgame_rec rec = {0};
  rec.round = lv->round;
  rec.board = lv->board;
  rec.source = source;
  rec.seq = seq;
  rec.reply = body;
  /* judged: the view taken with the row says so (and a failure to queue
   * rebuilds the game, last_seq with it) */
  if (seq > lv->last_seq) lv->last_seq = seq;
  if (!body || (btype && !bcast) || event_queue(s, c, id, lv, &rec, ev, btype, bcast) != XQ_OK) {
    /* nothing was queued: take the event back by rebuilding the game */
    xq__live_rebuild(s, lv, NULL);
    xq__reply_error(c, id, XQ__E_BUSY, "too many events waiting for the store", -1);
  } else {
    xq__live_settle(s, lv);
  }
  free(vjson);
  free(body);
  free(bcast);
}

/* An event judged on the worker pool: the game is busy and the
 * requesting connection held until it is done. */
typedef struct judge_job {
  uv_work_t work;
  xq__server *s;
  xq__live *lv;
  xq__conn *c;
  cJSON *id;
  int source;
  int64_t seq;
  xq_pos before;
  int nply, rc;
  xq_verdict v;
  xq_error err;
  xq__live copy;               /* the game being judged: readers keep the original */
  req_events ev;
} judge_job;

static void judge_work(uv_work_t *w)
{
  judge_job *j = w->data;
  j->rc = xq__live_apply(&j->copy, j->ev.v, j->ev.n, &j->v, &j->err);
}

static void judge_after(uv_work_t *w, int status)
{
  judge_job *j = w->data;
  xq__server *s = j->s;
  if (status) {
    j->rc = XQ_EINVAL;
    snprintf(j->err.msg, sizeof j->err.msg, "the ruling was cancelled");
  }
  xq__live *lv = j->lv;
  if (j->rc == XQ_OK) {
    /* the judged copy becomes the game */
    free(lv->g);
    lv->g = j->copy.g;
    lv->clock_ms[0] = j->copy.clock_ms[0];
    lv->clock_ms[1] = j->copy.clock_ms[1];
    lv->clock_at = j->copy.clock_at;
    free(lv->ply_clock);
    lv->ply_clock = j->copy.ply_clock;
    lv->ply_cap = j->copy.ply_cap;
    lv->clock_seen = j->copy.clock_seen;
    lv->read_ms[0] = j->copy.read_ms[0];
    lv->read_ms[1] = j->copy.read_ms[1];
    lv->turn_ms = j->copy.turn_ms;
  } else {
    free(j->copy.g);
    free(j->copy.ply_clock);
  }
  lv->busy = 0;
  s->judging--;
  event_done(s, j->c, j->id, j->lv, j->source, j->seq, &j->ev, &j->before, j->nply, j->rc, &j->v, &j->err);
  xq__conn_unhold(j->c);
  xq__conn_unref(j->c);
  cJSON_Delete(j->id);
  free(j);
}

/* Judge the events of a request on `lv` -- on the loop when it is cheap,
 * on the worker pool when they may search -- and queue
 * their row. */
static void run_event(xq__server *s, xq__req *r, xq__live *lv, int source, int64_t seq,
                      const req_events *ev)
{
  if (xq_game_may_search(lv->g, ev->v, ev->n)) {
    judge_job *j = calloc(1, sizeof *j);
    if (!j) {
      xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
      return;
    }
    j->ev = *ev;
    j->work.data = j;
    j->s = s;
    j->lv = lv;
    j->c = r->c;
    j->id = r->id ? cJSON_Duplicate(r->id, 1) : NULL;
    j->source = source;
    j->seq = seq;
    j->before = lv->g->pos;
    j->nply = lv->g->nply;
    j->copy = *lv;
    j->copy.g = malloc(sizeof *j->copy.g);
    if (j->copy.g) *j->copy.g = *lv->g;
    /* the copy's own ply clocks: the judging changes them, readers keep lv's */
    int dup = xq__live_ply_clock_dup(&j->copy, lv);
    if (!j->copy.g || dup != XQ_OK || uv_queue_work(s->loop, &j->work, judge_work, judge_after) != 0) {
      cJSON_Delete(j->id);
      free(j->copy.g);
      free(j->copy.ply_clock);
      free(j);
      xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "cannot queue the ruling", -1);
      return;
    }
    lv->busy = 1;
    s->judging++;
    xq__conn_ref(r->c);
    xq__conn_hold(r->c);
    return;
  }
  xq_pos before = lv->g->pos;
  int nply = lv->g->nply;
  xq_verdict v;
  xq_error err = {0};
  int rc = xq__live_apply(lv, ev->v, ev->n, &v, &err);
  event_done(s, r->c, r->id, lv, source, seq, ev, &before, nply, rc, &v, &err);
}

/* ------------------------------------------------------------------ */
/* Boards                                                              */
/* ------------------------------------------------------------------ */

/* A resend whose reply is no longer cached: read it from the store when
 * no commit is running. */
typedef struct resend_job {
  xq__conn *c;
  char *idtext;
  int round, board;
  int64_t seq;
} resend_job;

static void resend_from_store(xq__server *s, void *arg, int status)
{
  resend_job *j = arg;
  char *body = NULL;
  if (xq__reply_turn(j->c)) {
    if (status == XQ_OK && xq_tstore_game_reply(s->store, j->round, j->board, j->seq, &body) == XQ_OK) {
      xq__reply_stored(j->c, j->idtext, body);
    } else {
      cJSON *id = cJSON_Parse(j->idtext);
      xq__reply_error(j->c, id, XQ__E_SEQ, "no event with this sequence number", -1);
      cJSON_Delete(id);
    }
  }
  xq__reply_turn_end(j->c);
  free(body);
  free(j->idtext);
  free(j);
}

/* Check a board request's seq; returns 1 when the event is new and must
 * be applied, 0 when it was answered (resend or error). */
static int board_seq(xq__server *s, xq__req *r, xq__live *lv, int64_t *seqp)
{
  const cJSON *sj = cJSON_GetObjectItemCaseSensitive(r->json, "seq");
  long long w;
  if (!xq__field_whole(sj, 1, XQ_SEQ_MAX, &w)) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"seq\" must be an integer >= 1", -1);
    return 0;
  }
  int64_t seq = w;
  *seqp = seq;
  if (seq <= lv->last_seq) {
    /* on its way to the store: the resend gets its outcome, when it is known */
    for (xq__event_row *e = lv->inflight; e; e = e->next) {
      if (e->seq != seq) continue;
      if (event_row_wait(e, r->c, r->id) != XQ_OK) xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
      return 0;
    }
    int k = (int)(seq % XQ_REPLY_CACHE);
    if (lv->cache[k].seq == seq && lv->cache[k].reply) {
      char *idtext = xq__reply_id(r->id);
      if (idtext) xq__reply_stored(r->c, idtext, lv->cache[k].reply);
      free(idtext);
      return 0;
    }
    resend_job *j = calloc(1, sizeof *j);
    if (!j || !(j->idtext = xq__reply_id(r->id))) {
      free(j);
      xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
      return 0;
    }
    j->c = r->c;
    j->round = lv->round;
    j->board = lv->board;
    j->seq = seq;
    xq__reply_wait(r->c);
    xq__commit_then(s, resend_from_store, j);
    return 0;
  }
  if (seq != lv->last_seq + 1) {
    char f[160];
    snprintf(f, sizeof f, "sequence gap: expected %lld, got %lld", (long long)lv->last_seq + 1, (long long)seq);
    xq__reply_error(r->c, r->id, XQ__E_SEQ, f, -1);
    return 0;
  }
  return 1;
}

/* One more event that is not a move for `lv`, within its budget
 * (XQ_GAME_QUIET_*): 1, or 0 after answering LIMIT. */
static int quiet_budget(xq__server *s, xq__req *r, xq__live *lv)
{
  uint64_t now = uv_now(s->loop);
  if (!lv->quiet_at) lv->quiet_tokens = XQ_GAME_QUIET_BURST;
  else lv->quiet_tokens += (double)(now - lv->quiet_at) * XQ_GAME_QUIET_PER_S / 1000.0;
  if (lv->quiet_tokens > XQ_GAME_QUIET_BURST) lv->quiet_tokens = XQ_GAME_QUIET_BURST;
  lv->quiet_at = now;
  char f[128];
  if (lv->quiet >= XQ_GAME_QUIET_MAX) {
    snprintf(f, sizeof f, "this game has had its %d events that are not moves: only moves are taken",
             XQ_GAME_QUIET_MAX);
  } else if (lv->quiet_tokens < 1) {
    snprintf(f, sizeof f, "more than %d events that are not moves a second: send this again later",
             XQ_GAME_QUIET_PER_S);
  } else {
    lv->quiet_tokens -= 1;
    lv->quiet++;
    return 1;
  }
  xq__reply_error(r->c, r->id, XQ__E_LIMIT, f, lv->g->nply);
  return 0;
}

/* The game of a board connection, checked for play; `quiet`: the event
 * is not a move, and counts in the game's budget of those. */
static xq__live *board_game(xq__server *s, xq__req *r, int64_t *seq, int quiet)
{
  /* a board may name its table, but only its own */
  int ok = 1;
  int round = xq__field_num(r->json, "round", r->c->round, &ok);
  int table = xq__field_num(r->json, "table", r->c->board, &ok);
  if (!ok || round != r->c->round || table != r->c->board) {
    char f[128];
    snprintf(f, sizeof f, "this token is bound to round %d table %d", r->c->round, r->c->board);
    xq__reply_error(r->c, r->id, XQ__E_WRONG_TABLE, f, -1);
    return NULL;
  }
  xq__live *lv = xq__live_get(s, r->c->round, r->c->board);
  if (!lv) {
    xq__reply_error(r->c, r->id, XQ__E_NOT_FOUND, "this table has no game in its round", -1);
    return NULL;
  }
  if (lv->busy) {
    xq__reply_error(r->c, r->id, XQ__E_BUSY, "a ruling on this game is being searched: send again", -1);
    return NULL;
  }
  if (!board_seq(s, r, lv, seq)) return NULL;
  xq_outcome res = lv->g->result;
  if (lv->recorded || res == XQ_OUT_RED_WINS || res == XQ_OUT_BLACK_WINS || res == XQ_OUT_DRAW) {
    /* CONTRACT (protocol.md): nothing is stored after the end, so a board
     * cannot grow the game log without end */
    char f[96];
    snprintf(f, sizeof f, "the game is over (%s): nothing more is recorded", xq__live_json_result(s, lv));
    xq__reply_error(r->c, r->id, XQ__E_GAME_OVER, f, lv->g->nply);
    return NULL;
  }
  if (lv->g->paused) {
    xq__reply_error(r->c, r->id, XQ__E_PAUSED, "the arbiter has paused this game", lv->g->nply);
    return NULL;
  }
  return quiet && !quiet_budget(s, r, lv) ? NULL : lv;
}

/* The side of an optional "side" field: XQ_RED, XQ_BLACK, or
 * XQ_SIDE_IMPLIED when absent; -2 after replying with an error (absent
 * and `required`, or another value). */
static int req_side(xq__req *r, int required)
{
  const char *side = xq__field_text(r->json, "side");
  if (!side && !required) return XQ_SIDE_IMPLIED;
  if (side && !strcmp(side, "red")) return XQ_RED;
  if (side && !strcmp(side, "black")) return XQ_BLACK;
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"side\" must be \"red\" or \"black\"", -1);
  return -2;
}

/* Add the clock reading of an optional "clock":[red_ms, black_ms] to
 * `ev`. Returns 0 after replying with an error. */
static int req_clock(xq__req *r, req_events *ev, int required)
{
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(r->json, "clock");
  if (!c && !required) return 1;
  const cJSON *a = cJSON_GetArrayItem(c, 0), *b = cJSON_GetArrayItem(c, 1);
  /* whole milliseconds that fit an int, range checked before the
   * conversion; time left is never below 0 (a fallen flag reads 0) */
  long long ms[2];
  if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != 2 || !xq__field_whole(a, 0, INT32_MAX, &ms[0]) ||
      !xq__field_whole(b, 0, INT32_MAX, &ms[1])) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST,
                    "\"clock\" is [red_ms, black_ms], whole milliseconds from 0 to 2147483647", -1);
    return 0;
  }
  xq_event *e = &ev->v[ev->n++];
  xq_event_init(e, XQ_EVENT_CLOCK);
  e->ms[0] = (long)ms[0];
  e->ms[1] = (long)ms[1];
  return 1;
}

static void op_move(xq__server *s, xq__req *r)
{
  int64_t seq;
  const char *mv = xq__field_text(r->json, "move");
  int held = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->json, "held"));
  int flag = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->json, "flag"));
  req_events ev = {.n = 1};
  /* a move and only a move: no other event's word passes as one */
  if (!mv || strlen(mv) >= XQ_MOVE_TEXT_MAX ||
      xq_event_move(&ev.v[0], mv, held ? XQ_MV_HELD : flag ? XQ_MV_FLAG_FELL : 0, NULL) != XQ_OK) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"move\" is one move in ICCS, WXF or Chinese", -1);
    return;
  }
  xq__live *lv = board_game(s, r, &seq, 0);
  if (!lv || !req_clock(r, &ev, 0)) return;
  run_event(s, r, lv, XQ_GSRC_BOARD, seq, &ev);
}

static void op_position(xq__server *s, xq__req *r)
{
  int64_t seq;
  const char *b = xq__field_text(r->json, "board");
  if (!b || strlen(b) >= XQ_FEN_INPUT_MAX) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"board\" is a FEN or its placement field", -1);
    return;
  }
  xq__live *lv = board_game(s, r, &seq, 1);
  if (!lv) return;
  req_events ev = {.n = 1};
  xq_error err = {0};
  int rc = xq_event_snapshot(&ev.v[0], b, &err);
  if (rc != XQ_OK) {
    xq__reply_error(r->c, r->id, xq__reply_code(rc), err.msg, lv->g->nply);
    return;
  }
  if (!req_clock(r, &ev, 0)) return;
  run_event(s, r, lv, XQ_GSRC_BOARD, seq, &ev);
}

static void op_clock(xq__server *s, xq__req *r)
{
  int64_t seq;
  req_events ev = {.n = 0};
  if (!cJSON_GetObjectItemCaseSensitive(r->json, "clock")) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"clock\" is [red_ms, black_ms]", -1);
    return;
  }
  xq__live *lv = board_game(s, r, &seq, 1);
  if (!lv || !req_clock(r, &ev, 1)) return;
  run_event(s, r, lv, XQ_GSRC_BOARD, seq, &ev);
}

static void op_lift(xq__server *s, xq__req *r)
{
  int64_t seq;
  const char *sq = xq__field_text(r->json, "square");
  if (!sq || strlen(sq) != 2 || sq[0] < 'a' || sq[0] > 'i' || sq[1] < '0' || sq[1] > '9') {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"square\" is a file a-i and a rank 0-9, as h2", -1);
    return;
  }
  xq__live *lv = board_game(s, r, &seq, 1);
  if (!lv) return;
  req_events ev = {.n = 1};
  xq_event_init(&ev.v[0], XQ_EVENT_LIFT);
  ev.v[0].square = XQ_SQ(sq[0] - 'a', sq[1] - '0');
  run_event(s, r, lv, XQ_GSRC_BOARD, seq, &ev);
}

/* A request whose one event is of `kind` with `side` (release, claims,
 * offers, answers, resignation, fouls, pause and resume): judged on `lv`. */
static void run_simple(xq__server *s, xq__req *r, xq__live *lv, int source, int64_t seq,
                       xq_event_kind kind, int side)
{
  req_events ev = {.n = 1};
  if (xq_event_simple(&ev.v[0], kind, side) != XQ_OK) {
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "no such event", -1);
    return;
  }
  run_event(s, r, lv, source, seq, &ev);
}

static void op_release(xq__server *s, xq__req *r)
{
  int64_t seq;
  xq__live *lv = board_game(s, r, &seq, 1);
  if (lv) run_simple(s, r, lv, XQ_GSRC_BOARD, seq, XQ_EVENT_RELEASE, XQ_SIDE_IMPLIED);
}

/* claim / draw / resign, for a board (its own table). */
static void verb_event(xq__server *s, xq__req *r, xq_event_kind kind, int side_required)
{
  int side = req_side(r, side_required);
  if (side == -2) return;
  int64_t seq;
  xq__live *lv = board_game(s, r, &seq, 1);
  if (lv) run_simple(s, r, lv, XQ_GSRC_BOARD, seq, kind, side);
}

static int claim_kind(xq__req *r)
{
  const char *kind = xq__field_text(r->json, "kind");
  if (kind && !strcmp(kind, "natural")) return XQ_EVENT_CLAIM_NATURAL;
  if (kind && !strcmp(kind, "repetition")) return XQ_EVENT_CLAIM_REPETITION;
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"kind\" must be \"natural\" or \"repetition\"", -1);
  return 0;
}

static int draw_kind(xq__req *r)
{
  const char *a = xq__field_text(r->json, "action");
  if (a && !strcmp(a, "offer")) return XQ_EVENT_OFFER;
  if (a && !strcmp(a, "accept")) return XQ_EVENT_ACCEPT;
  if (a && !strcmp(a, "decline")) return XQ_EVENT_DECLINE;
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"action\" must be offer, accept or decline", -1);
  return 0;
}

/* ------------------------------------------------------------------ */
/* Arbiters                                                            */
/* ------------------------------------------------------------------ */

/* The game named by "round" and "table", or NULL after an error reply. */
static xq__live *named_game(xq__server *s, xq__req *r)
{
  int ok = 1;
  int round = xq__field_num(r->json, "round", 0, &ok);
  int table = xq__field_num(r->json, "table", 0, &ok);
  if (!ok || round < 1 || table < 1) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"round\" and \"table\" are integers >= 1", -1);
    return NULL;
  }
  xq__live *lv = xq__live_get(s, round, table);
  if (!lv) xq__reply_error(r->c, r->id, XQ__E_NOT_FOUND, "no game at this round and table", -1);
  else if (lv->busy && strcmp(r->op, "game") != 0) {
    xq__reply_error(r->c, r->id, XQ__E_BUSY, "a ruling on this game is being searched: send again", -1);
    return NULL;
  }
  return lv;
}

static void op_claim(xq__server *s, xq__req *r)
{
  int kind = claim_kind(r);
  if (!kind) return;
  if (r->c->role == XQ_ROLE_BOARD) {
    verb_event(s, r, (xq_event_kind)kind, 0);
    return;
  }
  xq__live *lv = named_game(s, r);
  int side = lv ? req_side(r, 1) : -2;
  if (side != -2) run_simple(s, r, lv, XQ_GSRC_ARBITER, 0, (xq_event_kind)kind, side);
}

static void op_draw(xq__server *s, xq__req *r)
{
  int kind = draw_kind(r);
  if (kind) verb_event(s, r, (xq_event_kind)kind, 0);
}

static void op_resign(xq__server *s, xq__req *r) { verb_event(s, r, XQ_EVENT_RESIGN, 1); }

static void op_foul(xq__server *s, xq__req *r)
{
  xq__live *lv = named_game(s, r);
  int side = lv ? req_side(r, 1) : -2;
  if (side != -2) run_simple(s, r, lv, XQ_GSRC_ARBITER, 0, XQ_EVENT_FOUL, side);
}

static void op_pause(xq__server *s, xq__req *r)
{
  xq__live *lv = named_game(s, r);
  if (lv) run_simple(s, r, lv, XQ_GSRC_ARBITER, 0, !strcmp(r->op, "pause") ? XQ_EVENT_PAUSE : XQ_EVENT_RESUME,
                            XQ_SIDE_IMPLIED);
}

/* An arbiter's result also goes into the tournament log, as given (a
 * forfeit is a result of the tournament, not of the moves). */
typedef struct result_job {
  xq__server *s;
  int round, board;
  char code[4];
  int written;                 /* in the game-log row's transaction already */
} result_job;

/* A result of a round the knockout was seeded on, changed (confirmed):
 * the seeds the standings would now give another player, in the log. */
static void reseed_log(xq__server *s, int round)
{
  xq_ko *now = malloc(sizeof *now);
  xq_error err = {0};
  if (!now || xq_ko_reseed(s->ev, s->ko, now, &err)) {
    xq__log(s, "round %d: the knockout's seeding cannot be compared: %s", round, now ? err.msg : "out of memory");
  } else {
    for (int i = 0; i < s->ko->size; i++)
      if (s->ko->seeds[i] != now->seeds[i])
        xq__log(s, "round %d changed after the knockout was seeded: seed %d is player %d, the standings now give"
                " player %d", round, i + 1, xq_tplayer_no(s->ev, s->ko->seeds[i]), xq_tplayer_no(s->ev, now->seeds[i]));
  }
  free(now);
}

static void record_result(xq__server *s, void *arg, int status)
{
  (void)s;
  result_job *j = arg;
  xq_error err = {0};
  if (status == XQ_OK && (j->written || xq_tstore_result(j->s->store, j->round, j->board, j->code, &err) == XQ_OK)) {
    xq__live *lv = xq__live_get(j->s, j->round, j->board);
    /* keep the event in step with the log: a reload per result would cost
     * the whole log's replay on the loop */
    if (lv) xq__live_note_result(j->s, lv, j->code);
    else xq__server_reload(j->s, NULL);
    if (lv) xq__live_record_fouls(j->s, lv);
    if (xq_ko_decided_by(j->s->ko, j->round)) reseed_log(j->s, j->round);
    char data[96];
    snprintf(data, sizeof data, "{\"result\":\"%s\",\"reason\":\"arbiter\"}", j->code);
    xq__hub_publish(j->s, "result", j->round, j->board, data);
  } else {
    xq__log(j->s, "round %d table %d: result %s not recorded: %s", j->round, j->board, j->code, err.msg);
  }
  free(j);
}

static void op_result(xq__server *s, xq__req *r)
{
  xq__live *lv = named_game(s, r);
  if (!lv) return;
  const char *res = xq__field_text(r->json, "result");
  /* the result as given, and the result of the game it sets */
  static const struct {
    const char *given;
    xq_outcome game;
  } codes[] = {
    {"1-0", XQ_OUT_RED_WINS}, {"0-1", XQ_OUT_BLACK_WINS}, {"=", XQ_OUT_DRAW}, {"1/2-1/2", XQ_OUT_DRAW},
    {"+-", XQ_OUT_RED_WINS}, {"-+", XQ_OUT_BLACK_WINS}, {"--", XQ_OUT_NONE}, {"none", XQ_OUT_NONE},
  };
  int k = -1;
  for (int i = 0; res && i < (int)(sizeof codes / sizeof codes[0]); i++)
    if (!strcmp(res, codes[i].given)) k = i;
  if (k < 0) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "\"result\" is 1-0, 0-1, =, +-, -+, -- or none", -1);
    return;
  }
  if (lv->round != XQ_KO_ROUND && xq_ko_decided_by(s->ko, lv->round) &&
      !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->json, "confirm"))) {
    /* the bracket was seeded on this round's standings (docs/tourney.md) */
    char msg[160];
    snprintf(msg, sizeof msg, "round %d decided the knockout (seeded after round %d): a changed result would leave"
             " the bracket apart from the standings; confirm: true changes it", lv->round, s->ko->after);
    xq__reply_error(r->c, r->id, XQ__E_CONFLICT, msg, -1);
    return;
  }
  if (lv->round == XQ_KO_ROUND && (lv->recorded || codes[k].game == XQ_OUT_NONE)) {
    /* a knockout game leads to the next one: decided once, by a winner or
     * a draw (docs/tourney.md, "Knockout stage") */
    xq__reply_error(r->c, r->id, lv->recorded ? XQ__E_CONFLICT : XQ__E_BAD_REQUEST,
                    lv->recorded ? "this knockout game has its result" : "a knockout game is won, lost or drawn",
                    -1);
    return;
  }
  req_events ev = {.n = 1};
  xq_event_init(&ev.v[0], XQ_EVENT_RESULT);
  ev.v[0].result = codes[k].game;
  int was_recorded = lv->recorded, resume = !strcmp(res, "none");
  lv->recorded = !resume; /* recorded below, as the arbiter gave it */
  int queued = xq__commit_queued(s);
  run_event(s, r, lv, XQ_GSRC_ARBITER, 0, &ev);
  if (resume && (!was_recorded || xq__commit_queued(s) != queued + 1)) {
    /* a ruling awaited (play on), or the event refused: nothing to take back */
    lv->recorded = was_recorded;
    return;
  }
  result_job *j = calloc(1, sizeof *j);
  if (!j) return;
  j->s = s;
  j->round = lv->round;
  j->board = lv->board;
  /* resume: the tournament's result taken back, "*" (the game in play again) */
  snprintf(j->code, sizeof j->code, "%s", resume ? "*" : !strcmp(codes[k].given, "1/2-1/2") ? "=" : codes[k].given);
  /* the result goes into the tournament log in the transaction of the
   * game-log row just queued, so that the acknowledgement covers both; with
   * no such row (the event was refused), after the commits as before */
  j->written = xq__commit_queued(s) == queued + 1 &&
               xq__commit_attach_result(s, lv->round, lv->board, j->code) == XQ_OK;
  xq__commit_then(s, record_result, j);
}

/* game, games: a read of the games as the store holds them, answered in
 * its turn: after the client's earlier requests are durable, so that it
 * sees them (a foul just sent). */
typedef struct read_task {
  xq__task t;
  int round, table;
} read_task;

static void run_game(xq__server *s, xq__task *task)
{
  const read_task *rt = (read_task *)task;
  xq__live *lv = xq__live_get(s, rt->round, rt->table);
  const xq__view *v = lv ? lv->view : NULL; /* as the store holds it */
  if (!v) {
    xq__task_error(task, lv ? XQ__E_INTERNAL : XQ__E_NOT_FOUND, lv ? "out of memory" : "no game at this round and table");
    return;
  }
  char fen[XQ_FEN_MAX];
  xq_fen_format(&v->pos, fen, sizeof fen);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "round", lv->round);
  cJSON_AddNumberToObject(o, "table", lv->board);
  if (s->ev && lv->red <= s->ev->n && lv->black <= s->ev->n) {
    cJSON_AddStringToObject(o, "red", s->ev->players[lv->red - 1].name);
    cJSON_AddStringToObject(o, "black", s->ev->players[lv->black - 1].name);
  }
  cJSON_AddStringToObject(o, "fen", fen);
  cJSON *moves = cJSON_AddArrayToObject(o, "moves");
  xq_pos p = v->start;
  for (int i = 0; i < v->nply; i++) {
    char t[XQ_MOVE_TEXT_MAX];
    xq_move_format(&p, v->moves[i], XQ_NOTE_ICCS, t, sizeof t);
    cJSON_AddItemToArray(moves, cJSON_CreateString(t));
    xq_undo u;
    xq_make(&p, v->moves[i], &u);
  }
  cJSON_AddStringToObject(o, "result", xq__live_view_result(v));
  cJSON_AddStringToObject(o, "reason", xq_reason_name(v->reason));
  cJSON_AddStringToObject(o, "state", v->result == XQ_OUT_NEEDS_ARBITER ? "needs_arbiter"
                                      : v->result == XQ_OUT_MUST_CHANGE ? "must_change"
                                      : v->result == XQ_OUT_NONE ? "playing" : "over");
  cJSON *f = cJSON_AddArrayToObject(o, "fouls");
  cJSON_AddItemToArray(f, cJSON_CreateNumber(v->fouls[0]));
  cJSON_AddItemToArray(f, cJSON_CreateNumber(v->fouls[1]));
  if (v->game_clock[0] >= 0) {
    cJSON *c = cJSON_AddArrayToObject(o, "clock");
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)v->game_clock[0]));
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)v->game_clock[1]));
  }
  cJSON_AddBoolToObject(o, "paused", v->paused);
  cJSON_AddNumberToObject(o, "last_seq", (double)v->last_seq);
  cJSON_AddStringToObject(o, "to_move", side_name(v->pos.side));
  xq__task_send(task, o);
}

/* Start the read `run` of round/table of `r` as a task. */
static void read_games(xq__server *s, xq__req *r, xq__task_fn run, int round, int table)
{
  read_task *rt = (read_task *)xq__task_new(s, r, run, sizeof *rt, NULL);
  if (!rt) return;
  rt->round = round;
  rt->table = table;
  xq__task_go(s, &rt->t, 0);
}

static void op_game(xq__server *s, xq__req *r)
{
  xq__live *lv = named_game(s, r);
  if (lv) read_games(s, r, run_game, lv->round, lv->board);
}

static void run_games(xq__server *s, xq__task *task)
{
  int round = ((read_task *)task)->round;
  cJSON *o = cJSON_CreateObject();
  cJSON *arr = cJSON_AddArrayToObject(o, "games");
  for (int b = 1; b <= s->nboards[round]; b++) {
    xq__live *lv = xq__live_get(s, round, b);
    const xq__view *v = lv ? lv->view : NULL; /* as the store holds it */
    if (!v) continue;
    cJSON *gj = cJSON_CreateObject();
    cJSON_AddNumberToObject(gj, "table", b);
    cJSON_AddNumberToObject(gj, "red", lv->red);
    cJSON_AddNumberToObject(gj, "black", lv->black);
    cJSON_AddNumberToObject(gj, "ply", v->nply);
    cJSON_AddStringToObject(gj, "result", xq__live_view_result(v));
    cJSON_AddBoolToObject(gj, "paused", v->paused);
    cJSON_AddItemToArray(arr, gj);
  }
  xq__task_send(task, o);
}

static void op_games(xq__server *s, xq__req *r)
{
  int ok = 1;
  int round = xq__field_num(r->json, "round", 0, &ok);
  if (!ok || round < 1 || round > XQ_ROUNDS_LIVE_MAX || !s->rounds[round]) {
    xq__reply_error(r->c, r->id, XQ__E_NOT_FOUND, "no published round with this number", -1);
    return;
  }
  read_games(s, r, run_games, round, 0);
}

#define BOARD XQ__R(XQ_ROLE_BOARD)

const xq__op xq__game_ops[] = {
  {"move", BOARD, op_move},
  {"position", BOARD, op_position},
  {"clock", BOARD, op_clock},
  {"lift", BOARD, op_lift},
  {"release", BOARD, op_release},
  {"claim", BOARD | XQ__STAFF, op_claim},
  {"draw", BOARD, op_draw},
  {"resign", BOARD, op_resign},
  {"foul", XQ__STAFF, op_foul},
  {"result", XQ__STAFF, op_result},
  {"pause", XQ__STAFF, op_pause},
  {"resume", XQ__STAFF, op_pause},
  {"game", XQ__STAFF, op_game},
  {"games", XQ__STAFF, op_games},
  {NULL, 0, NULL},
};
