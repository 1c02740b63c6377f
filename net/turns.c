/*
 * turns.c -- fair service (docs/security.md "Fair turns"): a turn of the
 * loop shared among the connections that have requests waiting.
 *
 * A protocol asks xq__turns_yield() before each request it serves. A
 * connection that has had its share of the turn (XQ_TURN_REQUESTS or
 * XQ_TURN_US; an anonymous one XQ_TURN_ANON_*, and the anonymous ones
 * together XQ_TURN_ANON_ALL_US) stops being read and joins a ready queue;
 * its unserved requests stay in its buffer. While a queue is not empty an
 * idle handle keeps the loop from blocking, and at the start of each turn
 * it hands the queued connections their bytes again, boards' and staff's
 * first, before the loop polls for the boards' new reads. An anonymous
 * connection left with no time in the turn goes back to the head of its
 * queue, so that each gets its turn in order.
 */
#include "conn.h"
#include "internal.h"

enum { READY_TRUSTED = 0, READY_ANON = 1 };

static void on_turn(uv_idle_t *h);

static void enqueue(xq__server *s, xq__conn *c, int front)
{
  int q = c->trusted ? READY_TRUSTED : READY_ANON;
  xq__conn_ref(c); /* the queue's */
  c->ready_next = NULL;
  if (!s->ready[q]) {
    s->ready[q] = s->ready_tail[q] = c;
  } else if (front) {
    c->ready_next = s->ready[q];
    s->ready[q] = c;
  } else {
    s->ready_tail[q]->ready_next = c;
    s->ready_tail[q] = c;
  }
  if (s->turns_on && !uv_is_active((uv_handle_t *)&s->turns)) uv_idle_start(&s->turns, on_turn);
}

static xq__conn *dequeue(xq__server *s, int q)
{
  xq__conn *c = s->ready[q];
  if (!c) return NULL;
  s->ready[q] = c->ready_next;
  if (!s->ready[q]) s->ready_tail[q] = NULL;
  c->ready_next = NULL;
  return c;
}

int xq__turns_yield(xq__conn *c)
{
  xq__server *s = c->srv;
  if ((c->sink && c->whole) || s->stopping || !s->turns_on) return 0;
  if (c->yielded) return 1;
  uint64_t now = uv_hrtime();
  if (c->turn != s->turn) {
    c->turn = s->turn;
    c->turn_n = 0;
    c->turn_ns = 0;
  }
  uint64_t used = c->turn_ns + (c->consume_t0 ? now - c->consume_t0 : 0);
  int over;
  if (c->trusted) {
    over = c->turn_n >= XQ_TURN_REQUESTS || used >= XQ_TURN_US * 1000ull;
  } else {
    uint64_t all = s->anon_ns + (c->consume_t0 ? now - c->consume_t0 : 0);
    over = c->turn_n >= XQ_TURN_ANON_REQUESTS || used >= XQ_TURN_ANON_US * 1000ull ||
           all >= XQ_TURN_ANON_ALL_US * 1000ull;
  }
  if (!over) {
    c->turn_n++;
    return 0;
  }
  c->yielded = 1;
  if (c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
    c->paused = 1;
  }
  /* an anonymous connection served nothing this turn keeps its place */
  enqueue(s, c, !c->trusted && c->turn_n == 0);
  return 1;
}

void xq__turns_charge(xq__conn *c, uint64_t ns)
{
  xq__server *s = c->srv;
  if (c->turn != s->turn) {
    c->turn = s->turn;
    c->turn_n = 0;
    c->turn_ns = 0;
  }
  c->turn_ns += ns;
  if (!c->trusted) s->anon_ns += ns;
}

/* One connection's turn from the queue: its buffered requests again,
 * then reading again unless it yielded once more (or holds, stalls).
 * Returns 1 when it yielded again with nothing served (the anonymous
 * share of the turn is gone). */
static int serve(xq__conn *c)
{
  int starved = 0;
  c->yielded = 0;
  if (!c->closing) {
    xq__conn_process(c);
    if (!c->closing && !c->yielded) xq__conn_resume(c);
    starved = c->yielded && c->turn_n == 0;
  }
  xq__conn_unref(c); /* the queue's */
  return starved;
}

/* The start of a turn: the boards' and staff's connections that waited,
 * then the anonymous ones while their share of the turn lasts. Those that
 * yield again are queued behind, for the next turn. */
static void on_turn(uv_idle_t *h)
{
  xq__server *s = h->data;
  xq__conn *mark = s->ready_tail[READY_TRUSTED], *c;
  while (mark && (c = dequeue(s, READY_TRUSTED)) != NULL) {
    int last = c == mark;
    serve(c);
    if (last) break;
  }
  mark = s->ready_tail[READY_ANON];
  while (mark && (c = dequeue(s, READY_ANON)) != NULL) {
    int last = c == mark;
    if (serve(c) || last) break;
  }
  if (!s->ready[READY_TRUSTED] && !s->ready[READY_ANON]) uv_idle_stop(&s->turns);
}

void xq__turns_next(xq__server *s)
{
  s->turn++;
  s->anon_ns = 0;
}

int xq__turns_init(xq__server *s)
{
  if (uv_idle_init(s->loop, &s->turns) != 0) return XQ_EIO;
  s->turns.data = s;
  s->turns_on = 1;
  return XQ_OK;
}

static void on_turns_closed(uv_handle_t *h) { (void)h; }

void xq__turns_close(xq__server *s)
{
  if (!s->turns_on) return;
  s->turns_on = 0;
  for (int q = READY_TRUSTED; q <= READY_ANON; q++) {
    xq__conn *c;
    while ((c = dequeue(s, q)) != NULL) { /* stopping: its requests are not served */
      c->yielded = 0;
      xq__conn_unref(c);
    }
  }
  uv_close((uv_handle_t *)&s->turns, on_turns_closed);
}
