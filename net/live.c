/*
 * live.c -- the games in play: one adjudicator state per published board,
 * rebuilt at start by replaying the store's game log, so a restarted
 * server answers exactly as the one that stopped (or was killed) would
 * have.
 *
 * A game's events are the adjudicator's (xq_event), several to a log row
 * when they came in one request (a move and its clock reading) or one PGN
 * push; the row holds their text form, read back here to replay them.
 *
 * The knockout games are the tables of round XQ_KO_ROUND (knockout.h),
 * published one game per match by ops_ko.c and started here with the
 * rules of their type (rapid, armageddon, ...); their results go to the
 * knockout log through the same xq_tstore_result, and into s->ko.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "answers.h"
#include "commit.h"
#include "delay.h"
#include "hub.h"
#include "internal.h"
#include "live.h"

#define XQ__PLY_CLOCKS_FIRST 128 /* ply clocks a game holds at first: doubled as it goes */

_Static_assert(XQ_ROUNDS_LIVE_MAX == XQ_KO_ROUND, "the knockout tables are the last live round");

void xq__live_view_free(xq__view *v)
{
  if (!v || --v->refs > 0) return;
  free(v->moves);
  free(v->ply_clock);
  free(v->verdict);
  free(v->rulings);
  free(v);
}

xq__view *xq__live_view_take(const xq__live *lv)
{
  const xq_game *g = lv->g;
  xq__view *v = calloc(1, sizeof *v);
  if (!v) return NULL;
  v->refs = 1;
  v->moves = malloc(sizeof *v->moves * (size_t)(g->nply ? g->nply : 1));
  v->ply_clock = malloc(sizeof *v->ply_clock * (size_t)(g->nply ? g->nply : 1));
  v->verdict = lv->verdict ? strdup(lv->verdict) : NULL;
  v->rulings = lv->rulings ? strdup(lv->rulings) : NULL;
  if (!v->moves || !v->ply_clock || (lv->verdict && !v->verdict) || (lv->rulings && !v->rulings)) {
    xq__live_view_free(v);
    return NULL;
  }
  for (int i = 0; i < g->nply; i++) {
    v->moves[i] = g->hist[i].move;
    v->ply_clock[i] = i < lv->ply_cap && lv->ply_clock ? lv->ply_clock[i] : (xq__ply_clock){-1, -1};
  }
  v->start = g->start;
  v->pos = g->pos;
  v->nply = g->nply;
  v->result = g->result;
  v->reason = g->result_reason;
  v->must_change = g->result == XQ_OUT_NONE && g->order.active ? g->order.side : -1;
  v->fouls[0] = g->fouls[0];
  v->fouls[1] = g->fouls[1];
  xq__live_clock(lv, v->clock);
  v->game_clock[0] = g->clock_ms[0];
  v->game_clock[1] = g->clock_ms[1];
  v->clock_at = lv->clock_at;
  v->paused = g->paused;
  v->last_seq = lv->last_seq;
  return v;
}

void xq__live_changed(xq__server *s, int round)
{
  xq__answers_changed(s); /* the standings, the event, the knockout show it too */
  if (round >= 1 && round <= XQ_ROUNDS_LIVE_MAX) s->round_version[round]++;
  for (int r = 1; round == 0 && r <= XQ_ROUNDS_LIVE_MAX; r++) s->round_version[r]++;
}

void xq__live_view_set(xq__server *s, xq__live *lv, xq__view *v)
{
  xq__view *old = lv->view;
  lv->view = v;
  /* with a delay, anonymous readers keep the views before for a while */
  if (!xq__delay_view(s, lv, old, v)) xq__live_view_free(old);
  /* a move: only its round's answers show it */
  if (lv->round >= 1 && lv->round <= XQ_ROUNDS_LIVE_MAX) s->round_version[lv->round]++;
}

/* What answers show of `lv`: the game as it is in memory, which is what
 * the store holds (a new game, a replay, a rebuild). Out of memory keeps
 * the view before (or none: answers leave the game out). */
static void view_now(xq__server *s, xq__live *lv)
{
  xq__view *v = xq__live_view_take(lv);
  if (v) xq__live_view_set(s, lv, v);
  else xq__log(s, "round %d table %d: out of memory for its view", lv->round, lv->board);
}

/* No ply clocks, nothing read. */
static void clocks_clear(xq__live *lv)
{
  free(lv->ply_clock);
  lv->ply_clock = NULL;
  lv->ply_cap = 0;
  lv->clock_seen = 0;
  lv->read_ms[0] = lv->read_ms[1] = lv->turn_ms = -1;
}

static xq__live *live_new(xq__server *s, int round, int board, int red, int black, const xq_rules *rules,
                          xq_error *err)
{
  xq__live *lv = calloc(1, sizeof *lv);
  xq_game *g = malloc(sizeof *g);
  if (!lv || !g || xq_game_init(g, rules, NULL, err) != XQ_OK) {
    free(lv);
    free(g);
    return NULL;
  }
  lv->round = round;
  lv->board = board;
  lv->red = red;
  lv->black = black;
  lv->g = g;
  lv->clock_ms[0] = lv->clock_ms[1] = -1;
  clocks_clear(lv);
  view_now(s, lv);
  return lv;
}

static void live_clear(xq__live *lv)
{
  free(lv->verdict);
  lv->verdict = NULL;
  free(lv->rulings);
  lv->rulings = NULL;
  lv->nrulings = 0;
  clocks_clear(lv);
  for (int i = 0; i < XQ_REPLY_CACHE; i++) {
    free(lv->cache[i].reply);
    lv->cache[i].reply = NULL;
    lv->cache[i].seq = 0;
  }
}

xq__live *xq__live_get(xq__server *s, int round, int board)
{
  if (round < 1 || round > XQ_ROUNDS_LIVE_MAX || board < 1 || board > s->nboards[round]) return NULL;
  return s->rounds[round][board - 1];
}

static const char *result_text(xq_outcome r)
{
  switch (r) {
  case XQ_OUT_RED_WINS: return "1-0";
  case XQ_OUT_BLACK_WINS: return "0-1";
  case XQ_OUT_DRAW: return "1/2-1/2";
  default: return "*";
  }
}

const char *xq__live_result(const xq__live *lv) { return result_text(lv->g->result); }

const char *xq__live_view_result(const xq__view *v) { return result_text(v->result); }

int xq__live_add_round(xq__server *s, int round, xq_error *err)
{
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX || s->rounds[round]) return XQ_EINVAL;
  xq_tpairing pr = {0};
  int rc = xq_tstore_pairing(s->store, round, &pr, err);
  if (rc) return rc;
  if (pr.nboards > XQ_BOARDS_MAX) {
    xq_tpairing_clear(&pr);
    return XQ_ELIMIT;
  }
  xq__live **arr = calloc((size_t)pr.nboards + 1, sizeof *arr);
  if (!arr) {
    xq_tpairing_clear(&pr);
    return XQ_ENOMEM;
  }
  for (int i = 0; i < pr.nboards; i++) {
    if (!pr.boards[i].black) continue; /* the bye: no game */
    arr[i] = live_new(s, round, i + 1, pr.boards[i].red, pr.boards[i].black, &s->rules, err);
    if (!arr[i]) {
      for (int j = 0; j < i; j++)
        if (arr[j]) {
          xq__live_view_free(arr[j]->view);
          free(arr[j]->g);
          free(arr[j]);
        }
      free(arr);
      xq_tpairing_clear(&pr);
      return XQ_ENOMEM;
    }
    s->nlive++;
    /* a result already in the tournament log needs no recording */
    const xq_tslot *sl = s->ev ? xq_tournament_slot(s->ev, pr.boards[i].red, round) : NULL;
    arr[i]->recorded = sl && sl->res != XQ_TR_NONE;
  }
  s->rounds[round] = arr;
  s->nboards[round] = pr.nboards;
  xq__live_changed(s, round); /* published: the event lists it */
  xq_tpairing_clear(&pr);
  return XQ_OK;
}

int xq__live_round_begun(const xq__server *s, int round)
{
  if (round < 1 || round > XQ_ROUNDS_LIVE_MAX || !s->rounds[round]) return 0;
  for (int b = 0; b < s->nboards[round]; b++) {
    const xq__live *lv = s->rounds[round][b];
    if (lv && (lv->g->nply || lv->last_seq > 0 || lv->inflight || lv->busy || lv->recorded || lv->quiet ||
               lv->clock_ms[0] >= 0 || lv->clock_ms[1] >= 0 || lv->g->result != XQ_OUT_NONE))
      return b + 1;
  }
  return 0;
}

/* Free round `round`'s games (its held views first: delay.c) and its
 * table of boards. */
static void free_round(xq__server *s, int round)
{
  for (int b = 0; b < s->nboards[round]; b++) {
    xq__live *lv = s->rounds[round][b];
    if (!lv) continue;
    live_clear(lv);
    xq__delay_forget(s, lv);
    xq__live_view_free(lv->view);
    free(lv->g);
    free(lv);
    s->nlive--;
  }
  free(s->rounds[round]);
  s->rounds[round] = NULL;
  s->nboards[round] = 0;
}

void xq__live_drop_round(xq__server *s, int round)
{
  if (round < 1 || round > XQ_ROUNDS_LIVE_MAX || !s->rounds[round]) return;
  free_round(s, round);
  xq__live_changed(s, round); /* withdrawn: the event no longer lists it */
}

void xq__live_ko_rules(const xq_rules *base, const xq_ko *ko, int match, int type, xq_rules *out)
{
  *out = *base;
  int b = 0, bb = 0, inc = 0;
  if (!xq_ko_clock(ko, match, type, &b, &bb, &inc) && b > 0) {
    out->clock_base_s = b;
    out->clock_base_black_s = bb; /* armageddon: each side its own base time */
    out->clock_increment_s = inc;
  }
  out->armageddon = type == XQ_KG_ARMAGEDDON;
}

int xq__live_add_ko(xq__server *s, xq_error *err)
{
  if (!s->ko && !(s->ko = malloc(sizeof *s->ko))) return XQ_ENOMEM;
  int rc = xq_tstore_ko_load(s->store, s->ko, err);
  if (rc) {
    memset(s->ko, 0, sizeof *s->ko);
    return rc;
  }
  int had = s->nboards[XQ_KO_ROUND], n = s->ko->ntables;
  if (n <= had) return XQ_OK;
  xq__live **arr = realloc(s->rounds[XQ_KO_ROUND], sizeof *arr * (size_t)n);
  if (!arr) return XQ_ENOMEM;
  s->rounds[XQ_KO_ROUND] = arr;
  for (int i = had; i < n; i++) {
    const xq_ko_table *t = &s->ko->tables[i];
    xq_rules ru;
    xq__live_ko_rules(&s->rules, s->ko, t->match, t->type, &ru);
    arr[i] = live_new(s, XQ_KO_ROUND, i + 1, t->red, t->black, &ru, err);
    if (!arr[i]) return XQ_ENOMEM; /* the tables before it are live */
    arr[i]->recorded = t->done;
    s->nboards[XQ_KO_ROUND] = i + 1;
    s->nlive++;
  }
  xq__live_changed(s, XQ_KO_ROUND);
  return XQ_OK;
}

int xq__live_ply_clock_dup(xq__live *to, const xq__live *from)
{
  to->ply_clock = NULL;
  to->ply_cap = 0;
  if (!from->ply_clock || from->ply_cap < 1) return XQ_OK;
  size_t size = sizeof *to->ply_clock * (size_t)from->ply_cap;
  if (!(to->ply_clock = malloc(size))) return XQ_ENOMEM;
  memcpy(to->ply_clock, from->ply_clock, size);
  to->ply_cap = from->ply_cap;
  return XQ_OK;
}

/* Room for the clocks of the game's plies; out of memory leaves it short. */
static void ply_clock_room(xq__live *lv, int n)
{
  if (n <= lv->ply_cap) return;
  int cap = lv->ply_cap ? lv->ply_cap : XQ__PLY_CLOCKS_FIRST;
  while (cap < n) cap *= 2;
  xq__ply_clock *p = realloc(lv->ply_clock, sizeof *p * (size_t)cap);
  if (!p) return;
  for (int i = lv->ply_cap; i < cap; i++) p[i] = (xq__ply_clock){-1, -1};
  lv->ply_clock = p;
  lv->ply_cap = cap;
}

/* After event `ev`: the plies it added are unknown but the last, which
 * takes its mover's clock as the game now tells it (the reading with or
 * after the move, an increment, a penalty) until the next ply; a reading
 * after the move, with the mover's stopped clock read when its turn
 * began, tells the time the move took (the increment added back). `had`:
 * the plies before the event; `with_move`: a move came before it in the
 * same row (a board's move sent with its clock reading). */
static void note_ply_clock(xq__live *lv, int had, const xq_event *ev, int with_move)
{
  const xq_game *g = lv->g;
  int n = g->nply, stm = g->pos.side;
  ply_clock_room(lv, n);
  for (int i = had; i < n && i < lv->ply_cap; i++) lv->ply_clock[i] = (xq__ply_clock){-1, -1};
  if (n > had) {
    int mover = g->hist[n - 1].mover;
    lv->turn_ms = lv->read_ms[mover];
    lv->read_ms[mover] = -1; /* the move ran it */
  } else if (n < had) {
    lv->turn_ms = lv->read_ms[0] = lv->read_ms[1] = -1; /* taken back */
  }
  /* the clock of the side not to move stands still; the other's is its
   * time as its turn begins only in the reading sent with the move */
  if (ev->kind == XQ_EVENT_CLOCK) lv->read_ms[!stm] = g->clock_ms[!stm];
  if (ev->kind == XQ_EVENT_CLOCK && with_move) lv->read_ms[stm] = g->clock_ms[stm];
  if (n < 1 || n > lv->ply_cap || !lv->clock_seen) return;
  xq__ply_clock *pc = &lv->ply_clock[n - 1];
  int mover = g->hist[n - 1].mover;
  pc->ms = g->clock_ms[mover] >= 0 ? g->clock_ms[mover] : -1;
  if (ev->kind == XQ_EVENT_CLOCK && n == had && mover != stm && lv->turn_ms >= 0) {
    long emt = lv->turn_ms - g->clock_ms[mover] + 1000L * g->rules.clock_increment_s;
    pc->emt = emt >= 0 ? emt : -1;
  }
}

int xq__live_apply(xq__live *lv, const xq_event *ev, int n, xq_verdict *v, xq_error *err)
{
  if (!lv || !ev || !v || n < 1) return XQ_EINVAL;
  long was[2];
  xq__live_clock(lv, was);
  xq_verdict tmp;
  int moved = 0;
  for (int i = 0; i < n; i++) {
    int had = lv->g->nply;
    int rc = xq_game_apply_one(lv->g, &ev[i], &tmp, err);
    if (rc != XQ_OK) return rc;
    /* the verdict that matters: the first that is not a plain acceptance (xq_game_apply) */
    if (!i || (v->kind == XQ_VERDICT_ACCEPTED && tmp.kind != XQ_VERDICT_ACCEPTED)) *v = tmp;
    if (ev[i].kind == XQ_EVENT_CLOCK) {
      /* the last reading, for the broadcast */
      lv->clock_ms[0] = lv->g->clock_ms[0];
      lv->clock_ms[1] = lv->g->clock_ms[1];
    }
    if (ev[i].kind == XQ_EVENT_CLOCK || ev[i].kind == XQ_EVENT_TICK) lv->clock_seen = 1;
    note_ply_clock(lv, had, &ev[i], moved);
    moved |= lv->g->nply > had;
  }
  long now[2];
  xq__live_clock(lv, now);
  if (now[0] != was[0] || now[1] != was[1] || ev[0].kind == XQ_EVENT_MOVE) {
    /* read (or changed: an increment, a penalty) now */
    struct timeval tv;
    gettimeofday(&tv, NULL);
    lv->clock_at = now[0] >= 0 ? (int64_t)tv.tv_sec * 1000000 + tv.tv_usec : 0;
  }
  return XQ_OK;
}

void xq__live_clock(const xq__live *lv, long out[2])
{
  const xq_game *g = lv->g;
  for (int i = 0; i < 2; i++) out[i] = g->clock_ms[i] >= 0 ? g->clock_ms[i] : lv->clock_ms[i];
}

/* Remember the reply to board seq `seq` for resends. */
static void cache_reply(xq__live *lv, int64_t seq, const char *reply)
{
  int k = (int)(seq % XQ_REPLY_CACHE);
  free(lv->cache[k].reply);
  lv->cache[k].reply = strdup(reply);
  lv->cache[k].seq = lv->cache[k].reply ? seq : 0;
}

void xq__live_note_verdict(xq__live *lv, const xq_verdict *v, const char *json)
{
  /* a move after the end is refused: noise, not a ruling to keep */
  if (v->kind == XQ_VERDICT_ACCEPTED || v->reason == XQ_REASON_GAME_OVER) return;
  char *j = json ? strdup(json) : xq_verdict_json(v);
  if (!j) return;
  free(lv->verdict);
  lv->verdict = j;
  if (v->reason == XQ_REASON_AWAITING_ARBITER || lv->nrulings >= XQ_GAME_RULINGS_MAX) return;
  /* the rulings' array text grows by ",{...}" (out of memory: not listed) */
  size_t old = lv->rulings ? strlen(lv->rulings) : 1, add = strlen(j);
  char *a = realloc(lv->rulings, old + add + 2);
  if (!a) return;
  if (!lv->rulings) a[0] = '[';
  else a[old - 1] = ',';
  memcpy(a + (lv->rulings ? old : 1), j, add);
  size_t end = (lv->rulings ? old : 1) + add;
  a[end] = ']';
  a[end + 1] = 0;
  lv->rulings = a;
  lv->nrulings++;
}

void xq__live_remember(xq__live *lv, int64_t seq, const char *reply)
{
  if (seq > lv->last_seq) lv->last_seq = seq;
  cache_reply(lv, seq, reply);
}

typedef struct replay_ctx {
  xq__server *s;
  int marked;       /* replay only the games marked for a rebuild */
  long rows, bad;
  xq_events ev;     /* the row being replayed (storage reused) */
} replay_ctx;

static int replay_row(void *arg, const xq_tgame_rec *r)
{
  replay_ctx *cx = arg;
  xq__live *lv = xq__live_get(cx->s, r->round, r->board);
  if (!lv || (cx->marked && !lv->rebuild)) return 0;
  xq_verdict v;
  xq_error err = {0};
  /* at start, a row still within the delay: anonymous readers see the
   * game as it was before it until its time + delay (delay.c) */
  int64_t delay = cx->marked ? 0 : xq__delay_us(cx->s);
  xq__view *before = delay && r->at_ms * 1000 + delay > xq__delay_now(cx->s) ? xq__live_view_take(lv) : NULL;
  int rc = xq_events_parse(r->event, &cx->ev, &err);
  if (rc == XQ_OK) rc = xq__live_apply(lv, cx->ev.v, cx->ev.n, &v, &err);
  if (rc == XQ_OK) xq__live_note_verdict(lv, &v, NULL);
  lv->clock_at = 0; /* replayed now: when the clocks were read is not known */
  if (before) xq__delay_replayed(cx->s, lv, before, xq__live_view_take(lv), r->at_ms);
  if (rc != XQ_OK) {
    /* a stored event that does not replay would be a bug: say so */
    cx->bad++;
    xq__log(cx->s, "replay: round %d table %d row %lld '%s': %s", r->round, r->board,
            (long long)r->id, r->event, err.msg);
  }
  if (r->source == XQ_GSRC_BOARD && r->seq > 0) xq__live_remember(lv, r->seq, r->reply);
  /* the game's budget of events that are not moves counts what is stored */
  if (r->source == XQ_GSRC_BOARD && rc == XQ_OK && !(cx->ev.n && cx->ev.v[0].kind == XQ_EVENT_MOVE)) lv->quiet++;
  cx->rows++;
  return 0;
}

/* A game's "seen" mark from the store (the last one counts). */
static int seen_row(void *arg, int round, int board, int seen)
{
  xq__live *lv = xq__live_get(arg, round, board);
  if (lv) lv->seen = seen;
  return 0;
}

int xq__live_load(xq__server *s, xq_error *err)
{
  if (!s->ev) return XQ_OK;
  for (int r = 1; r <= s->ev->nrounds && r <= XQ_ROUNDS_LIVE_MAX; r++) {
    xq_error e2 = {0};
    int rc = xq__live_add_round(s, r, &e2);
    if (rc == XQ_EINVAL) continue; /* not published (a TRF import may leave gaps) */
    if (rc) {
      if (err) *err = e2;
      return rc;
    }
  }
  int rc = xq__live_add_ko(s, err);
  if (rc) return rc;
  replay_ctx cx = {s, 0, 0, 0, {0}};
  rc = xq_tstore_game_scan(s->store, 0, 0, replay_row, &cx, err);
  xq_events_clear(&cx.ev);
  if (rc) return rc;
  if (cx.rows) xq__log(s, "replayed %ld game-log rows (%ld did not apply)", cx.rows, cx.bad);
  rc = xq_tstore_seen_scan(s->store, seen_row, s, err); /* the arbiters' marks on the rulings */
  if (rc) return rc;
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX; r++)
    for (int b = 0; s->rounds[r] && b < s->nboards[r]; b++)
      if (s->rounds[r][b]) view_now(s, s->rounds[r][b]);
  return XQ_OK;
}

/* Reset a game to its start before its rows are replayed. */
static int reset_game(xq__live *lv, xq_error *err)
{
  live_clear(lv);
  lv->last_seq = 0;
  lv->clock_ms[0] = lv->clock_ms[1] = -1;
  xq_rules ru = lv->g->rules; /* the game's own: a knockout game's differ */
  return xq_game_init(lv->g, &ru, NULL, err);
}

int xq__live_rebuild_marked(xq__server *s, xq_error *err)
{
  int any = 0;
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX; r++)
    for (int b = 0; s->rounds[r] && b < s->nboards[r]; b++) {
      xq__live *lv = s->rounds[r][b];
      if (!lv || !lv->rebuild) continue;
      int rc = reset_game(lv, err);
      if (rc) return rc;
      any = 1;
    }
  if (!any) return XQ_OK;
  /* one pass over the log rebuilds every marked game */
  replay_ctx cx = {s, 1, 0, 0, {0}};
  int rc = xq_tstore_game_scan(s->store, 0, 0, replay_row, &cx, err);
  xq_events_clear(&cx.ev);
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX; r++)
    for (int b = 0; s->rounds[r] && b < s->nboards[r]; b++) {
      xq__live *lv = s->rounds[r][b];
      if (!lv || !lv->rebuild) continue;
      lv->rebuild = 0;
      view_now(s, lv); /* what the store holds, as answers showed it already */
    }
  return rc;
}

void xq__live_settle_all(xq__server *s)
{
  int n = 0;
  for (int r = 1; r <= XQ_ROUNDS_LIVE_MAX; r++)
    for (int b = 0; s->rounds[r] && b < s->nboards[r]; b++) {
      xq__live *lv = s->rounds[r][b];
      if (!lv) continue;
      /* a result already in the log: its fouls go with it, and a kill
       * between the two (or a result entered with the server down) left
       * them out; only what the log lacks is written */
      if (lv->recorded) xq__live_record_fouls(s, lv);
      if (lv->recorded || lv->g->result < XQ_OUT_RED_WINS || lv->g->result > XQ_OUT_DRAW) continue;
      xq__live_settle(s, lv); /* no commit runs yet: at once */
      n++;
    }
  if (n) xq__log(s, "%d finished games had no result in the tournament log: recorded", n);
}

/* After the completions of a failed batch: the games it touched are
 * rebuilt from what the store holds, in one pass over the log. */
static void rebuild_failed(xq__server *s, void *arg, int status)
{
  (void)arg, (void)status;
  s->rebuild_armed = 0;
  xq_error err = {0};
  if (xq__live_rebuild_marked(s, &err) != XQ_OK) xq__log(s, "rebuild failed: %s", err.msg);
}

void xq__live_failed(xq__server *s, xq__live *lv)
{
  lv->rebuild = 1;
  if (s->rebuild_armed) return;
  s->rebuild_armed = 1;
  xq__commit_then(s, rebuild_failed, NULL);
}

int xq__live_rebuild(xq__server *s, xq__live *lv, xq_error *err)
{
  lv->rebuild = 1;
  return xq__live_rebuild_marked(s, err);
}

void xq__live_free(xq__server *s)
{
  for (int r = 0; r <= XQ_ROUNDS_LIVE_MAX; r++)
    if (s->rounds[r]) free_round(s, r);
  s->nlive = 0;
  free(s->ko);
  s->ko = NULL;
}

void xq__live_record_fouls(xq__server *s, xq__live *lv)
{
  /* the FOULS tie-break counts the Swiss games: a knockout game's fouls
   * stay in its game log */
  if (!s->ev || lv->round == XQ_KO_ROUND) return;
  int ids[2] = {lv->red, lv->black};
  for (int side = XQ_RED; side <= XQ_BLACK; side++) {
    if (ids[side] < 1 || ids[side] > s->ev->n) continue;
    const xq_tslot *sl = xq_tournament_slot(s->ev, ids[side], lv->round);
    /* only what the log does not hold yet: recording twice adds nothing */
    int more = lv->g->fouls[side] - (sl ? sl->fouls : 0);
    xq_error err = {0};
    if (more > 0 && xq_tstore_foul(s->store, lv->round, ids[side], more, &err) == XQ_OK)
      xq_tournament_add_fouls(s->ev, ids[side], lv->round, more), xq__answers_changed(s);
    else if (more > 0) xq__log(s, "round %d table %d: fouls not recorded: %s", lv->round, lv->board, err.msg);
  }
}

void xq__live_note_result(xq__server *s, const xq__live *lv, const char *code)
{
  int res;
  xq__live_changed(s, lv->round);
  if (lv->round == XQ_KO_ROUND) {
    if (s->ko && !xq_ko_result_code(code, &res)) xq_ko_table_result(s->ko, lv->board, res);
  } else if (s->ev) {
    xq_tournament_set_result(s->ev, lv->round, lv->red, lv->black, code);
  }
}

/* A finished game's result, going into the tournament log. */
typedef struct settle_job {
  xq__server *s;
  int round, board;
  char code[8];
  char reason[48];
} settle_job;

static void settle_now(xq__server *s, void *arg, int status)
{
  settle_job *j = arg;
  xq__live *lv = xq__live_get(s, j->round, j->board);
  xq_error err = {0};
  if (status == XQ_OK && lv && xq_tstore_result(s->store, j->round, j->board, j->code, &err) == XQ_OK) {
    xq__live_note_result(s, lv, j->code);
    xq__live_record_fouls(s, lv);
    char data[160];
    snprintf(data, sizeof data, "{\"result\":\"%s\",\"reason\":\"%s\"}", xq__live_result(lv), j->reason);
    xq__hub_publish(s, "result", j->round, j->board, data);
  } else if (lv) {
    lv->recorded = 0; /* try again with the next event */
    xq__log(s, "round %d table %d: result not recorded: %s", j->round, j->board,
            err.msg[0] ? err.msg : "the commit failed");
  }
  free(j);
}

void xq__live_settle(xq__server *s, xq__live *lv)
{
  const char *code;
  switch (lv->g->result) {
  case XQ_OUT_RED_WINS: code = "1-0"; break;
  case XQ_OUT_BLACK_WINS: code = "0-1"; break;
  case XQ_OUT_DRAW: code = "="; break;
  default: return;
  }
  if (lv->recorded) return;
  settle_job *j = calloc(1, sizeof *j);
  if (!j) return;
  lv->recorded = 1;
  j->s = s;
  j->round = lv->round;
  j->board = lv->board;
  snprintf(j->code, sizeof j->code, "%s", code);
  snprintf(j->reason, sizeof j->reason, "%s", xq_reason_name(lv->g->result_reason));
  xq__commit_then(s, settle_now, j);
}
