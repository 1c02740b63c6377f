/*
 * demo.c -- a demo tournament in an empty store (docs/store.md): players
 * made up deterministically (the same count always gives the same names,
 * ratings, regions and clubs), round 1 paired and published, and the
 * tokens the live server needs to run that round: one per board and one
 * for the arbiter.
 */
#include <stdlib.h>
#include <string.h>

#include "tourney_internal.h"
#include "pair/pair.h"
#include "store/store.h"
#include "store/store_internal.h"

#define DEMO_NAME "xqref demo open"
#define DEMO_ROUNDS 7
#define DEMO_SEED 0x78717265662d6f70ULL
/* CXA 2020 14.3.1: points, opponents' points, wins, fouls, direct
 * encounter, games as Black, then the previous rounds' results */
#define DEMO_TIEBREAKS "PTS,OS,WINS,FOULS,DE,BLACK,ROUNDBACK,LOT"

static const char *const regions[] = {
  "北京", "上海", "天津", "重庆", "河北", "山西", "内蒙古", "辽宁", "吉林", "黑龙江", "江苏",
  "浙江", "安徽", "福建", "江西", "山东", "河南", "湖北", "湖南", "广东", "广西", "海南", "四川",
  "贵州", "云南", "陕西", "甘肃", "青海", "宁夏", "新疆", "香港", "澳门",
};
static const char *const club_kinds[] = {"象棋队", "棋院", "象棋协会", "棋牌运动中心", "青少年象棋俱乐部"};

#define N_OF(a) (sizeof (a) / sizeof (a)[0])

/* A name set: FNV-1a hashes in open addressing (for unique names). */
typedef struct nameset { uint64_t *h; size_t cap; } nameset;

static uint64_t fnv(const char *s)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  return h | 1; /* 0 marks an empty slot */
}

/* Add `s`; returns 0 when it was already there. */
static int nameset_add(nameset *ns, const char *s)
{
  uint64_t h = fnv(s);
  size_t i = (size_t)h & (ns->cap - 1);
  for (; ns->h[i]; i = (i + 1) & (ns->cap - 1))
    if (ns->h[i] == h) return 0;
  ns->h[i] = h;
  return 1;
}

/* The name generator's draws (from the demo's stream) and the names
 * given so far. */
typedef struct demo_names {
  uint64_t *rng;
  nameset *ns;
} demo_names;

static int name_draw(void *ctx, int n)
{
  uint64_t *rng = ((demo_names *)ctx)->rng;
  return (int)(xq__event_mix64(*rng += 0x9E3779B97F4A7C15ULL) % (uint64_t)n);
}

static int name_taken(void *ctx, const char *name) { return !nameset_add(((demo_names *)ctx)->ns, name); }

/* Player `no` of the demo, drawn from the generator *rng, with a name not
 * yet in `ns`. */
static void make_player(uint64_t *rng, nameset *ns, int no, xq_tplayer *p)
{
  memset(p, 0, sizeof *p);
  uint64_t r = xq__event_mix64(*rng += 0x9E3779B97F4A7C15ULL);
  p->sex = r % 6 == 0 ? 'w' : 'm';
  demo_names names = {rng, ns};
  xq_namegen gen = {name_draw, name_taken, &names};
  xq_chinese_name(&gen, p->sex, no, p->name, sizeof p->name);
  r = xq__event_mix64(*rng += 0x9E3779B97F4A7C15ULL);
  /* CXA ratings of open-event players: mostly 1800-2300, a strong head */
  p->rating = 1800 + (int)(r % 401) + (int)((r >> 12) % 101) + ((r >> 20) % 10 == 0 ? 300 + (int)((r >> 24) % 150) : 0);
  const char *region = regions[(r >> 32) % N_OF(regions)];
  snprintf(p->region, sizeof p->region, "%s", region);
  snprintf(p->club, sizeof p->club, "%s%s", region, club_kinds[(r >> 40) % N_OF(club_kinds)]);
  snprintf(p->team, sizeof p->team, "%s", p->club); /* 单位: the team of the team standings */
  snprintf(p->birth, sizeof p->birth, "%04d/%02d/%02d", 1960 + (int)((r >> 44) % 52),
           1 + (int)((r >> 50) % 12), 1 + (int)((r >> 54) % 28));
}

/* The tokens the demo makes, with their text (the store keeps hashes). */
typedef struct made_list {
  xq_ttoken *t;
  int n;
} made_list;

/* A new token, kept in `made` (may be NULL). */
static int make_token(xq_tstore *st, int role, int round, int board, const char *label, made_list *made,
                      xq_error *err)
{
  xq_ttoken t;
  int rc = xq_tstore_token_new(st, role, round, board, label, &t, err);
  if (rc || !made) return rc;
  xq_ttoken *nt = realloc(made->t, sizeof *nt * (size_t)(made->n + 1));
  if (!nt) return XQ_ENOMEM;
  made->t = nt;
  made->t[made->n++] = t;
  return XQ_OK;
}

/* What fill() makes: `players` players in store `st`, the tokens kept in
 * `made` (may be NULL). */
typedef struct fill_ctx {
  xq_tstore *st;
  int players;
  made_list *made;
} fill_ctx;

/* The demo, written inside the transaction of xq__store_fill_new. */
static int fill(void *ctx, xq_error *err)
{
  xq_tstore *st = ((fill_ctx *)ctx)->st;
  int players = ((fill_ctx *)ctx)->players;
  made_list *made = ((fill_ctx *)ctx)->made;
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  xq_tconfig_scoring(&cfg, 0); /* 2/1/0 */
  cfg.rounds = DEMO_ROUNDS;
  int rc = xq_tconfig_tiebreaks(&cfg, DEMO_TIEBREAKS, err);
  if (!rc) rc = xq_tstore_create_event(st, DEMO_NAME, &cfg, err);
  if (rc) return rc;
  nameset ns = {0};
  for (ns.cap = 64; ns.cap < (size_t)players * 4; ns.cap *= 2) {}
  if (!(ns.h = calloc(ns.cap, sizeof *ns.h))) return XQ_ENOMEM;
  uint64_t rng = DEMO_SEED;
  for (int i = 0; i < players && !rc; i++) {
    xq_tplayer p;
    make_player(&rng, &ns, i + 1, &p);
    rc = xq_tstore_register(st, &p, NULL, err);
  }
  free(ns.h);
  if (rc) return rc;
  /* round 1 as `xqref tourney pair` does it: numbers by rating, then
   * 1-2, 4-3, 5-6, ... */
  xq_tournament *ev;
  xq_tpairing pr = {0};
  if ((rc = xq_tstore_load(st, &ev, err))) return rc;
  xq_assign_pnos(ev);
  rc = xq_pair_cn(ev, 1, &pr, NULL);
  if (!rc) rc = xq_tstore_publish(st, ev, &pr, err);
  for (int b = 0; b < pr.nboards && !rc; b++) {
    char label[XQ_TOURNEY_FIELD_MAX];
    if (!pr.boards[b].black) continue; /* the bye: no game, no table */
    snprintf(label, sizeof label, "round 1 table %d", b + 1);
    rc = make_token(st, XQ_ROLE_BOARD, 1, b + 1, label, made, err);
  }
  if (!rc) rc = make_token(st, XQ_ROLE_ARBITER, 0, 0, "arbiter", made, err);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  return rc;
}

int xq_tourney_demo(xq_tstore *st, int players, xq_error *err)
{
  return xq_tourney_demo_tokens(st, players, NULL, NULL, err);
}

int xq_tourney_demo_tokens(xq_tstore *st, int players, xq_ttoken **out, int *nout, xq_error *err)
{
  made_list made = {NULL, 0};
  if (out) *out = NULL;
  if (nout) *nout = 0;
  if (!st || players < 2 || players > XQ_TOURNEY_PLAYERS_MAX) {
    if (err) {
      err->code = XQ_EINVAL; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "a demo has 2..%d players", XQ_TOURNEY_PLAYERS_MAX);
    }
    return XQ_EINVAL;
  }
  /* one transaction: the demo is there whole or not at all */
  fill_ctx fc = {st, players, out ? &made : NULL};
  int rc = xq__store_fill_new(st, "demo", fill, &fc, err);
  if (rc && rc != XQ_EINVAL && rc != XQ_ESTORE) rc = XQ_ESTORE; /* out of memory, pairing */
  if (rc || !out) {
    free(made.t);
    return rc;
  }
  *out = made.t;
  if (nout) *nout = made.n;
  return rc;
}
