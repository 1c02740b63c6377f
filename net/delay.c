/*
 * delay.c -- the delayed broadcast (delay.h; docs/http.md "Delay").
 *
 * One queue, in the order things happened, holds for the anonymous
 * readers what staff already see: the views of games (what games.json,
 * the PGN and the snapshots show) and the broadcast events (what the
 * event stream, an anonymous watch and the edge carry). A timer releases
 * every item whose time + delay has come, in order: a view becomes the
 * game's released view (lv->pub, while later ones are held), an event
 * goes to the anonymous readers (xq__hub_release). Answers for anonymous
 * readers are made between xq__delay_enter and xq__delay_leave, which
 * put the released views and a copy of the event without the results of
 * games still held in place: the one place where the delayed view is
 * made, whatever the answer.
 *
 * Bounded by XQ_DELAY_HELD_MAX items and XQ_DELAY_HELD_BYTES: at the
 * limit the oldest item is released before its time (counted, logged):
 * the delay shortens, nothing is dropped or reordered.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "delay.h"
#include "hub.h"
#include "internal.h"
#include "live.h"

enum { HELD_VIEW, HELD_EVENT };

typedef struct held {
  struct held *next;
  int64_t at;                  /* when it happened, µs since 1970 */
  int kind;
  size_t bytes;
  xq__live *lv;                /* HELD_VIEW: the game (NULL: forgotten) ... */
  xq__view *view;              /* ... its view then (a reference) ... */
  int announce;                /* ... replayed at start: a "game" event goes with it */
  int64_t id;                  /* HELD_EVENT's id, or the announcement's */
  int round;
  xq__buf *sse, *jsonl;        /* HELD_EVENT (references) */
  size_t toff, tlen, doff, dlen;
} held;

struct xq__delay {
  held *head, *tail;
  long n;
  size_t bytes;
  uv_timer_t timer;
  int timer_on;
  xq__live **games;            /* the games with views held (lv->held > 0) */
  int ngames, capgames;
  xq_tournament *pub_ev;       /* s->ev without the results of those games ... */
  uint64_t pub_version;        /* ... made at this tournament version */
  xq_ko *pub_ko;               /* s->ko without the results of knockout tables held (the same version) */
  xq_tournament *saved_ev;     /* s->ev while entered ... */
  xq_ko *saved_ko;             /* ... and s->ko */
  int depth;
  int64_t wall0;               /* wall clock (µs) ... */
  uint64_t loop0;              /* ... at this loop time (ms) */
  long long released, early;
  int warned;
};

int64_t xq__delay_us(const xq__server *s)
{
  int sec = s->opts.delay_s;
  /* the event's delay setting, when set, over serve --delay */
  if (s->ev && s->ev->cfg.delay) sec = s->ev->cfg.delay;
  return sec > 0 ? (int64_t)sec * 1000000 : 0;
}

int xq__delay_on(const xq__server *s) { return xq__delay_us(s) > 0 || (s->delay && s->delay->head); }

int64_t xq__delay_now(xq__server *s)
{
  xq__delay *d = s->delay;
  if (!d) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
  }
  return d->wall0 + (int64_t)(uv_now(s->loop) - d->loop0) * 1000;
}

int xq__delay_public(const xq__server *s) { return s->delay && s->delay->depth > 0; }

static void on_timer(uv_timer_t *t);

int xq__delay_init(xq__server *s)
{
  xq__delay *d = calloc(1, sizeof *d);
  if (!d) return XQ_ENOMEM;
  struct timeval tv;
  gettimeofday(&tv, NULL);
  uv_update_time(s->loop);
  d->wall0 = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
  d->loop0 = uv_now(s->loop);
  uv_timer_init(s->loop, &d->timer);
  d->timer.data = s;
  d->timer_on = 1;
  s->delay = d;
  return XQ_OK;
}

static void held_free(held *h)
{
  if (h->kind == HELD_VIEW) xq__live_view_free(h->view);
  xq__buf_unref(h->sse);
  xq__buf_unref(h->jsonl);
  free(h);
}

void xq__delay_close(xq__server *s)
{
  xq__delay *d = s->delay;
  if (!d || !d->timer_on) return;
  uv_close((uv_handle_t *)&d->timer, NULL);
  d->timer_on = 0;
}

void xq__delay_free(xq__server *s)
{
  xq__delay *d = s->delay;
  if (!d) return;
  while (d->head) {
    held *h = d->head;
    d->head = h->next;
    held_free(h);
  }
  for (int i = 0; i < d->ngames; i++) {
    xq__live_view_free(d->games[i]->pub);
    d->games[i]->pub = NULL;
    d->games[i]->held = 0;
  }
  free(d->games);
  xq_tournament_free(d->pub_ev);
  free(d->pub_ko);
  free(d);
  s->delay = NULL;
}

/* The view's bytes, for XQ_DELAY_HELD_BYTES. */
static size_t view_bytes(const xq__view *v)
{
  return sizeof *v + (size_t)v->nply * (sizeof *v->moves + sizeof *v->ply_clock) +
         (v->verdict ? strlen(v->verdict) : 0) + (v->rulings ? strlen(v->rulings) : 0);
}

static void release_one(xq__server *s);

/* Put `h` at the end of the queue, make room under the limits (the oldest
 * goes out early) and arm the timer for the head. */
static void push(xq__server *s, held *h)
{
  xq__delay *d = s->delay;
  if (d->tail) d->tail->next = h;
  else d->head = h;
  d->tail = h;
  d->n++;
  d->bytes += h->bytes;
  while (d->head != h && (d->n > XQ_DELAY_HELD_MAX || d->bytes > XQ_DELAY_HELD_BYTES)) {
    if (!d->warned++)
      xq__log(s, "delay: %ld items, %zu bytes held: the oldest go out before their time (XQ_DELAY_HELD_MAX, "
                 "XQ_DELAY_HELD_BYTES)", d->n, d->bytes);
    d->early++;
    release_one(s);
  }
  if (d->timer_on && !uv_is_active((uv_handle_t *)&d->timer)) {
    int64_t due = d->head->at + xq__delay_us(s) - xq__delay_now(s);
    uv_timer_start(&d->timer, on_timer, due > 0 ? (uint64_t)(due + 999) / 1000 : 0, 0);
  }
}

static int games_add(xq__delay *d, xq__live *lv)
{
  if (d->ngames == d->capgames) {
    int cap = d->capgames ? d->capgames * 2 : 16;
    xq__live **g = realloc(d->games, sizeof *g * (size_t)cap);
    if (!g) return XQ_ENOMEM;
    d->games = g;
    d->capgames = cap;
  }
  d->games[d->ngames++] = lv;
  return XQ_OK;
}

static void games_remove(xq__delay *d, xq__live *lv)
{
  for (int i = 0; i < d->ngames; i++)
    if (d->games[i] == lv) {
      d->games[i] = d->games[--d->ngames];
      return;
    }
}

/* Queue view `v` (a reference taken) of `lv` at `at`; the game's released
 * view becomes `pub` when it had none held. XQ_OK or XQ_ENOMEM. */
static int hold_view(xq__server *s, xq__live *lv, xq__view *pub, xq__view *v, int64_t at, int announce)
{
  xq__delay *d = s->delay;
  held *h = calloc(1, sizeof *h);
  if (!h || (!lv->held && games_add(d, lv) != XQ_OK)) {
    free(h);
    return XQ_ENOMEM;
  }
  *h = (held){.at = at, .kind = HELD_VIEW, .bytes = sizeof *h + view_bytes(v), .lv = lv, .view = v,
              .announce = announce, .round = lv->round};
  v->refs++;
  /* a game newly held: the results anonymous readers see leave its out */
  if (!lv->held) lv->pub = pub, xq__live_changed(s, lv->round);
  lv->held++;
  push(s, h);
  return XQ_OK;
}

int xq__delay_view(xq__server *s, xq__live *lv, xq__view *old, xq__view *v)
{
  if (!s->delay || !old || !v || !xq__delay_on(s) || s->delay->depth) return 0;
  int kept_old = !lv->held;
  if (hold_view(s, lv, old, v, xq__delay_now(s), 0) != XQ_OK) {
    xq__log(s, "delay: out of memory: round %d table %d shown at once", lv->round, lv->board);
    return 0;
  }
  return kept_old;
}

int xq__delay_replayed(xq__server *s, xq__live *lv, xq__view *before, xq__view *after, int64_t at_ms)
{
  int64_t at = at_ms * 1000;
  if (!s->delay || !before || !after || at + xq__delay_us(s) <= xq__delay_now(s) ||
      hold_view(s, lv, before, after, at, 1) != XQ_OK) {
    xq__live_view_free(before);
    xq__live_view_free(after);
    return 0;
  }
  if (lv->pub != before) xq__live_view_free(before);
  xq__live_view_free(after); /* the queue's reference stays */
  return 1;
}

void xq__delay_forget(xq__server *s, xq__live *lv)
{
  xq__delay *d = s->delay;
  if (!d || !lv->held) return;
  for (held *h = d->head; h; h = h->next)
    if (h->kind == HELD_VIEW && h->lv == lv) h->lv = NULL;
  games_remove(d, lv);
  xq__live_view_free(lv->pub);
  lv->pub = NULL;
  lv->held = 0;
}

int xq__delay_event(xq__server *s, int64_t id, int round, xq__buf *sse, xq__buf *jsonl, size_t toff, size_t tlen,
                    size_t doff, size_t dlen)
{
  if (!s->delay) return XQ_ENOMEM;
  held *h = calloc(1, sizeof *h);
  if (!h) return XQ_ENOMEM;
  *h = (held){.at = xq__delay_now(s), .kind = HELD_EVENT, .bytes = sizeof *h + sse->len + jsonl->len,
              .id = id, .round = round, .sse = sse, .jsonl = jsonl,
              .toff = toff, .tlen = tlen, .doff = doff, .dlen = dlen};
  xq__buf_ref(sse);
  xq__buf_ref(jsonl);
  push(s, h);
  return XQ_OK;
}

void xq__delay_changed(xq__server *s)
{
  xq__delay *d = s->delay;
  if (!d || !d->timer_on) return;
  uv_timer_stop(&d->timer);
  uv_timer_start(&d->timer, on_timer, 0, 0); /* what is due now goes; then the timer is set again */
  xq__live_changed(s, 0);                    /* /api/event says the delay */
}

void xq__delay_number(xq__server *s, int64_t *next)
{
  for (held *h = s->delay ? s->delay->head : NULL; h; h = h->next)
    if (h->kind == HELD_VIEW && h->announce) h->id = (*next)++;
}

/* A released view: the game shows it (or, its last, the game as it is),
 * and a replayed one is announced to the anonymous readers. */
static void release_view(xq__server *s, held *h)
{
  xq__delay *d = s->delay;
  xq__live *lv = h->lv;
  if (!lv) return;
  xq__live_view_free(lv->pub);
  lv->pub = NULL;
  if (--lv->held > 0) {
    lv->pub = h->view;
    h->view = NULL;
    /* only the round's answers show it */
    if (lv->round >= 1 && lv->round <= XQ_ROUNDS_LIVE_MAX) s->round_version[lv->round]++;
  } else {
    games_remove(d, lv);
    xq__live_changed(s, lv->round); /* its result may show now */
  }
  if (!h->announce) return;
  xq__delay_enter(s);
  cJSON *o = xq__live_json_game(s, lv);
  char *json = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  xq__delay_leave(s);
  if (json) xq__hub_announce(s, h->id, lv->round, lv->board, json);
  else xq__log(s, "delay: out of memory: round %d table %d not announced", lv->round, lv->board);
  free(json);
}

/* The head of the queue goes out now. */
static void release_one(xq__server *s)
{
  xq__delay *d = s->delay;
  held *h = d->head;
  d->head = h->next;
  if (!d->head) d->tail = NULL;
  d->n--;
  d->bytes -= h->bytes;
  if (h->kind == HELD_VIEW) release_view(s, h);
  else xq__hub_release(s, h->id, h->round, h->sse, h->jsonl, h->toff, h->tlen, h->doff, h->dlen);
  held_free(h);
}

static void on_timer(uv_timer_t *t)
{
  xq__server *s = t->data;
  xq__delay *d = s->delay;
  int64_t now = xq__delay_now(s), delay = xq__delay_us(s);
  while (d->head && d->head->at + delay <= now) {
    d->released++;
    release_one(s);
  }
  if (d->head && d->timer_on) {
    int64_t due = d->head->at + delay - now;
    uv_timer_start(&d->timer, on_timer, (uint64_t)(due + 999) / 1000, 0);
  }
}

/* s->ko without the results of the knockout tables whose views are held
 * (their games taken out of the stage, the tables not done), into
 * d->pub_ko; NULL without a stage or out of memory. */
static void public_ko(xq__server *s)
{
  xq__delay *d = s->delay;
  free(d->pub_ko);
  d->pub_ko = s->ko ? malloc(sizeof *d->pub_ko) : NULL;
  if (!d->pub_ko) return;
  *d->pub_ko = *s->ko;
  xq_ko *k = d->pub_ko;
  for (int i = 0; i < d->ngames; i++) {
    const xq__live *lv = d->games[i];
    if (lv->round != XQ_KO_ROUND || lv->board < 1 || lv->board > k->ntables) continue;
    k->tables[lv->board - 1].done = 0;
    int n = 0;
    for (int g = 0; g < k->ngames; g++)
      if (k->games[g].table != lv->board) k->games[n++] = k->games[g];
    k->ngames = n;
  }
}

/* s->ev without the results of the games whose views are held (made
 * again when the tournament changed), and s->ko likewise (public_ko).
 * NULL when out of memory. */
static xq_tournament *public_event(xq__server *s)
{
  xq__delay *d = s->delay;
  if (d->pub_ev && d->pub_version == s->tournament_version) return d->pub_ev;
  xq_tournament_free(d->pub_ev);
  d->pub_ev = s->ev ? xq_tournament_copy(s->ev) : NULL;
  d->pub_version = s->tournament_version;
  public_ko(s);
  for (int i = 0; d->pub_ev && i < d->ngames; i++) {
    const xq__live *lv = d->games[i];
    if (lv->round < 1 || lv->round > d->pub_ev->nrounds) continue;
    int ids[2] = {lv->red, lv->black};
    for (int k = 0; k < 2; k++) {
      if (ids[k] < 1 || ids[k] > d->pub_ev->n) continue;
      xq_tslot *sl = xq_tournament_slot(d->pub_ev, ids[k], lv->round);
      if (sl->res == XQ_TR_WIN || sl->res == XQ_TR_DRAW || sl->res == XQ_TR_LOSS) sl->res = XQ_TR_NONE, sl->code = 0;
    }
  }
  return d->pub_ev;
}

void xq__delay_enter(xq__server *s)
{
  xq__delay *d = s->delay;
  if (!d || !xq__delay_on(s) || d->depth++) return;
  for (int i = 0; i < d->ngames; i++) {
    xq__live *lv = d->games[i];
    xq__view *v = lv->view;
    lv->view = lv->pub;
    lv->pub = v;
  }
  d->saved_ev = s->ev;
  d->saved_ko = s->ko;
  xq_tournament *pub = public_event(s);
  if (pub) s->ev = pub;
  if (d->pub_ko) s->ko = d->pub_ko;
}

void xq__delay_leave(xq__server *s)
{
  xq__delay *d = s->delay;
  if (!d || !d->depth || --d->depth) return;
  for (int i = 0; i < d->ngames; i++) {
    xq__live *lv = d->games[i];
    xq__view *v = lv->view;
    lv->view = lv->pub;
    lv->pub = v;
  }
  s->ev = d->saved_ev;
  s->ko = d->saved_ko;
  d->saved_ev = NULL;
  d->saved_ko = NULL;
}

void xq__delay_info_get(const xq__server *s, xq__delay_info *out)
{
  memset(out, 0, sizeof *out);
  const xq__delay *d = s->delay;
  if (!d) return;
  out->held = d->n;
  out->bytes = d->bytes;
  out->released = d->released;
  out->early = d->early;
}
