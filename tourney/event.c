/*
 * event.c -- the derived event state: players and the per-round table
 * (docs/tourney.md, "The event store"), points, withdrawals, applying a published pairing;
 * the mixer of the lots.
 */
#include <stdlib.h>
#include <string.h>

#include "tourney_internal.h"
#include "pair/pair.h"

xq_tournament *xq_tournament_new(const xq_tconfig *cfg, const char *name)
{
  xq_tournament *ev = calloc(1, sizeof *ev);
  if (!ev) return NULL;
  if (cfg) ev->cfg = *cfg;
  else xq_tconfig_default(&ev->cfg);
  if (name) snprintf(ev->name, sizeof ev->name, "%s", name);
  ev->extra_at = -1;
  return ev;
}

/* The fields of xq_tournament, in its order, as xq_tournament_copy knows them.
 * Scalars come over with the struct's assignment; the pointers are what
 * the copy must duplicate. A field added to xq_tournament changes its size
 * (a pointer always does, on every ABI) and stops the build here: give it
 * its line below and, when the event owns what it points to, its copy in
 * xq_tournament_copy, its free in xq_tournament_free and its check in the test
 * event.copy_is_deep_and_whole (tests/test_tourney_standings.c). */
struct tournament_fields {
  char name[XQ_TOURNEY_NAME_MAX];
  xq_tinfo info;
  xq_tconfig cfg;
  int n, cap;
  xq_tplayer *players; /* owned: [n] copied */
  xq_tslot *slots;     /* owned: [n * XQ_TOURNEY_ROUNDS_MAX] copied */
  int nrounds, initial_black;
  char *extra;         /* owned: extra_len bytes and the NUL after them */
  size_t extra_len;
  int extra_at, trf_zero_pad;
  xq_tforbid *forbid;  /* owned: [nforbid] copied */
  int nforbid;
};
_Static_assert(sizeof(struct tournament_fields) == sizeof(xq_tournament),
               "xq_tournament has a field xq_tournament_copy does not know: update the copy");

xq_tournament *xq_tournament_copy(const xq_tournament *ev)
{
  if (!ev) return NULL;
  xq_tournament *c = malloc(sizeof *c);
  if (!c) return NULL;
  *c = *ev;
  c->cap = ev->n ? ev->n : 1;
  c->players = malloc(sizeof *c->players * (size_t)c->cap);
  c->slots = calloc((size_t)c->cap * XQ_TOURNEY_ROUNDS_MAX, sizeof *c->slots);
  c->extra = ev->extra ? malloc(ev->extra_len + 1) : NULL;
  c->forbid = ev->nforbid ? malloc(sizeof *c->forbid * (size_t)ev->nforbid) : NULL;
  if (!c->players || !c->slots || (ev->extra && !c->extra) || (ev->nforbid && !c->forbid)) {
    xq_tournament_free(c);
    return NULL;
  }
  if (ev->n) {
    memcpy(c->players, ev->players, sizeof *c->players * (size_t)ev->n);
    memcpy(c->slots, ev->slots, sizeof *c->slots * (size_t)ev->n * XQ_TOURNEY_ROUNDS_MAX);
  }
  if (ev->extra) {
    memcpy(c->extra, ev->extra, ev->extra_len);
    c->extra[ev->extra_len] = 0;
  }
  if (ev->nforbid) memcpy(c->forbid, ev->forbid, sizeof *c->forbid * (size_t)ev->nforbid);
  return c;
}

void xq_tournament_free(xq_tournament *ev)
{
  if (!ev) return;
  free(ev->players);
  free(ev->slots);
  free(ev->extra);
  free(ev->forbid);
  free(ev);
}

int xq_tournament_forbid(xq_tournament *ev, int a, int b, int from, int to)
{
  if (!ev || a == b || a < 1 || b < 1 || from < 1 || to < from || to > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  if (ev->nforbid >= XQ_TOURNEY_FORBID_MAX) return XQ_ELIMIT;
  xq_tforbid *f = realloc(ev->forbid, sizeof *f * (size_t)(ev->nforbid + 1));
  if (!f) return XQ_ENOMEM;
  ev->forbid = f;
  f[ev->nforbid++] = (xq_tforbid){a < b ? a : b, a < b ? b : a, from, to};
  return XQ_OK;
}

int xq_tournament_forbidden(const xq_tournament *ev, int a, int b, int round)
{
  if (a > b) { int t = a; a = b; b = t; }
  for (int i = 0; ev && i < ev->nforbid; i++) {
    const xq_tforbid *f = &ev->forbid[i];
    if (f->a == a && f->b == b && round >= f->from && round <= f->to) return 1;
  }
  return 0;
}

static int grow(xq_tournament *ev)
{
  int cap = ev->cap ? ev->cap * 2 : 64;
  if (cap > XQ_TOURNEY_PLAYERS_MAX) cap = XQ_TOURNEY_PLAYERS_MAX;
  xq_tplayer *p = realloc(ev->players, sizeof *p * (size_t)cap);
  if (!p) return XQ_ENOMEM;
  ev->players = p;
  xq_tslot *s = realloc(ev->slots, sizeof *s * (size_t)cap * XQ_TOURNEY_ROUNDS_MAX);
  if (!s) return XQ_ENOMEM;
  memset(s + (size_t)ev->cap * XQ_TOURNEY_ROUNDS_MAX, 0,
         sizeof *s * (size_t)(cap - ev->cap) * XQ_TOURNEY_ROUNDS_MAX);
  ev->slots = s;
  ev->cap = cap;
  return XQ_OK;
}

int xq_tournament_add(xq_tournament *ev, const xq_tplayer *p, int *id, xq_error *err)
{
  if (!ev || !p) return XQ_EINVAL;
  xq_tplayer copy = *p;
  int rc = xq_player_check(&copy, err);
  if (rc) return rc;
  if (ev->n >= XQ_TOURNEY_PLAYERS_MAX) {
    if (err) {
      err->code = XQ_ELIMIT; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "an event has at most %d players", XQ_TOURNEY_PLAYERS_MAX);
    }
    return XQ_ELIMIT;
  }
  if (ev->n == ev->cap && (rc = grow(ev))) return rc;
  ev->players[ev->n++] = copy;
  if (id) *id = ev->n;
  return XQ_OK;
}

int xq__event_paired(const xq_tournament *ev)
{
  for (int i = 0; i < ev->n * XQ_TOURNEY_ROUNDS_MAX; i++)
    if (ev->slots[i].opp || ev->slots[i].res != XQ_TR_NONE) return 1;
  return 0;
}

int xq_tournament_remove(xq_tournament *ev, int id)
{
  if (!ev || id < 1 || id > ev->n) return XQ_EINVAL;
  if (xq__event_paired(ev)) return XQ_EINVAL;
  xq__event_close_up(ev, id);
  return XQ_OK;
}

void xq__event_close_up(xq_tournament *ev, int id)
{
  int pno = ev->players[id - 1].pno;
  size_t after = (size_t)(ev->n - id);
  memmove(&ev->players[id - 1], &ev->players[id], sizeof *ev->players * after);
  memmove(xq_tournament_slot(ev, id, 1), xq_tournament_slot(ev, id, 1) + XQ_TOURNEY_ROUNDS_MAX,
          sizeof *ev->slots * after * XQ_TOURNEY_ROUNDS_MAX);
  ev->n--;
  memset(&ev->players[ev->n], 0, sizeof *ev->players);
  memset(&ev->slots[(size_t)ev->n * XQ_TOURNEY_ROUNDS_MAX], 0, sizeof *ev->slots * XQ_TOURNEY_ROUNDS_MAX);
  for (int i = 0; pno > 0 && i < ev->n; i++) /* the numbers close up: 1..n again */
    if (ev->players[i].pno > pno) ev->players[i].pno--;
  int k = 0;
  for (int i = 0; i < ev->nforbid; i++) {
    xq_tforbid f = ev->forbid[i];
    if (f.a == id || f.b == id) continue;
    f.a -= f.a > id;
    f.b -= f.b > id;
    ev->forbid[k++] = f;
  }
  ev->nforbid = k;
}

xq_tslot *xq_tournament_slot(const xq_tournament *ev, int id, int r)
{
  if (id < 1) id = 1;
  if (r < 1) r = 1;
  if (r > XQ_TOURNEY_ROUNDS_MAX) r = XQ_TOURNEY_ROUNDS_MAX;
  return &ev->slots[(size_t)(id - 1) * XQ_TOURNEY_ROUNDS_MAX + (size_t)(r - 1)];
}

int xq_tslot_points(const xq_tournament *ev, const xq_tslot *s)
{
  const xq_tconfig *c = &ev->cfg;
  switch (s->res) {
  case XQ_TR_WIN: case XQ_TR_FPB: return c->win;
  case XQ_TR_DRAW: case XQ_TR_HPB: return c->draw;
  case XQ_TR_LOSS: return c->loss;
  case XQ_TR_FWIN: return c->fwin;
  case XQ_TR_FLOSS: return c->floss;
  case XQ_TR_PAB: return c->pab;
  default: return 0;
  }
}

int xq__event_played(const xq_tslot *s)
{
  return s->opp && (s->res == XQ_TR_WIN || s->res == XQ_TR_DRAW || s->res == XQ_TR_LOSS);
}

void xq_tournament_set_result(xq_tournament *ev, int round, int red, int black, const char *code)
{
  if (!ev || !code || red < 1 || red > ev->n || black < 1 || black > ev->n || round < 1 ||
      round > XQ_TOURNEY_ROUNDS_MAX)
    return;
  xq_tslot *r = xq_tournament_slot(ev, red, round), *b = xq_tournament_slot(ev, black, round);
  int rr = XQ_TR_NONE, br = XQ_TR_NONE;
  if (!strcmp(code, "1-0")) rr = XQ_TR_WIN, br = XQ_TR_LOSS;
  else if (!strcmp(code, "0-1")) rr = XQ_TR_LOSS, br = XQ_TR_WIN;
  else if (!strcmp(code, "=")) rr = br = XQ_TR_DRAW;
  else if (!strcmp(code, "+-")) rr = XQ_TR_FWIN, br = XQ_TR_FLOSS;
  else if (!strcmp(code, "-+")) rr = XQ_TR_FLOSS, br = XQ_TR_FWIN;
  else if (!strcmp(code, "--")) rr = br = XQ_TR_FLOSS; /* both absent */
  r->res = (uint8_t)rr;
  b->res = (uint8_t)br;
}

void xq_tournament_add_fouls(xq_tournament *ev, int id, int round, int count)
{
  if (!ev || id < 1 || id > ev->n || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return;
  xq_tslot *sl = xq_tournament_slot(ev, id, round);
  int f = sl->fouls + count;
  sl->fouls = (uint8_t)(f > 255 ? 255 : f < 0 ? 0 : f);
}

int xq_tournament_points(const xq_tournament *ev, int id, int upto)
{
  int pts = 0;
  for (int r = 1; r <= upto && r <= XQ_TOURNEY_ROUNDS_MAX; r++)
    pts += xq_tslot_points(ev, xq_tournament_slot(ev, id, r));
  return pts;
}

int xq_tplayer_no(const xq_tournament *ev, int id)
{
  if (!ev || id < 1 || id > ev->n) return 0;
  int pno = ev->players[id - 1].pno;
  return pno > 0 ? pno : id;
}

int xq_tournament_player_no(const xq_tournament *ev, int no)
{
  for (int id = 1; ev && id <= ev->n; id++)
    if (xq_tplayer_no(ev, id) == no) return id;
  return 0;
}

int xq_tournament_rounds_complete(const xq_tournament *ev)
{
  if (!ev) return 0;
  int r = ev->nrounds;
  while (r > 0 && !xq_tournament_round_complete(ev, r)) r--;
  return r;
}

int xq__event_missed_out(const xq_tournament *ev, int id, int upto)
{
  int lim = ev->cfg.missed_rounds_withdraw, missed = 0;
  if (lim <= 0) return 0;
  for (int r = 1; r <= upto && r <= XQ_TOURNEY_ROUNDS_MAX; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    /* docs/tourney.md, "Who is paired": forfeit losses and announced absences count,
     * consecutive or not -- or only in a row where the regulation says
     * so (Shaanxi 补充规定 四.1: 连续弃权两轮者不再编排) */
    if (s->res == XQ_TR_FLOSS || s->res == XQ_TR_ZPB) missed++;
    else if (ev->cfg.withdraw_consecutive) missed = 0;
    if (missed >= lim) return r;
  }
  return 0;
}

int xq__event_withdrawn(const xq_tournament *ev, int id, int round)
{
  const xq_tplayer *p = &ev->players[id - 1];
  if (p->withdrawn && p->withdrawn <= round) return 1;
  return xq__event_missed_out(ev, id, round - 1) > 0;
}

void xq_tournament_apply_withdrawals(xq_tournament *ev, int upto)
{
  for (int id = 1; id <= ev->n; id++) {
    xq_tplayer *p = &ev->players[id - 1];
    int r = p->withdrawn ? 0 : xq__event_missed_out(ev, id, upto);
    if (r) p->withdrawn = r + 1; /* not paired after that round */
  }
}

int xq_tournament_round_complete(const xq_tournament *ev, int r)
{
  for (int k = 1; k <= r; k++)
    for (int id = 1; id <= ev->n; id++) {
      const xq_tslot *s = xq_tournament_slot(ev, id, k);
      if (s->opp && s->res == XQ_TR_NONE) return 0;
    }
  return 1;
}

void xq_tpairing_clear(xq_tpairing *pr)
{
  if (!pr) return;
  free(pr->boards);
  pr->boards = NULL;
  pr->nboards = 0;
}

int xq_tournament_apply_pairing(xq_tournament *ev, const xq_tpairing *pr)
{
  if (!ev || !pr || pr->round < 1 || pr->round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  for (int b = 0; b < pr->nboards; b++) {
    int red = pr->boards[b].red, black = pr->boards[b].black;
    if (red < 1 || red > ev->n || black < 0 || black > ev->n) return XQ_EINVAL;
  }
  for (int b = 0; b < pr->nboards; b++) {
    int red = pr->boards[b].red, black = pr->boards[b].black;
    xq_tslot *s = xq_tournament_slot(ev, red, pr->round);
    if (!black) {
      s->opp = 0; s->colour = XQ_TC_NONE; s->res = XQ_TR_PAB;
      continue;
    }
    xq_tslot *t = xq_tournament_slot(ev, black, pr->round);
    s->opp = (uint16_t)black; s->colour = XQ_TC_RED; s->res = XQ_TR_NONE;
    t->opp = (uint16_t)red; t->colour = XQ_TC_BLACK; t->res = XQ_TR_NONE;
  }
  for (int id = 1; id <= ev->n; id++) {
    xq_tslot *s = xq_tournament_slot(ev, id, pr->round);
    if (s->absent && !s->opp && s->res == XQ_TR_NONE)
      s->res = s->absent == XQ_TR_HPB || s->absent == XQ_TR_FPB ? s->absent : XQ_TR_ZPB;
  }
  if (pr->round > ev->nrounds) ev->nrounds = pr->round;
  return XQ_OK;
}

int xq_tournament_unapply_pairing(xq_tournament *ev, int round)
{
  if (!ev || round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return XQ_EINVAL;
  for (int id = 1; id <= ev->n; id++) {
    xq_tslot *s = xq_tournament_slot(ev, id, round);
    s->opp = 0; s->colour = XQ_TC_NONE; s->res = XQ_TR_NONE;
  }
  if (ev->nrounds == round) ev->nrounds = round - 1;
  return XQ_OK;
}

uint64_t xq__event_mix64(uint64_t x)
{
  return xq_random_next(&x);
}
