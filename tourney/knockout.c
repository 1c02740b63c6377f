/*
 * knockout.c -- the knockout stage (docs/tourney.md, "Knockout stage"): bracket, tie-break
 * game sequence, knockout places and the merged final places; the drawn
 * bracket of a knockout-only event (docs/village-king.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tourney_internal.h"
#include "knockout.h"

int xq_ko_parse_seeding(const char *s, int *seeding)
{
  if (!s || !seeding) return XQ_EINVAL;
  if (!strcmp(s, "fixed")) *seeding = XQ_KO_FIXED;
  else if (!strcmp(s, "choose") || !strcmp(s, "tangshan")) *seeding = XQ_KO_TOP_CHOOSES;
  else if (!strcmp(s, "lot")) *seeding = XQ_KO_LOT;
  else return XQ_EINVAL;
  return XQ_OK;
}

int xq_ko_parse_format(const char *s, int *format)
{
  if (!s || !format) return XQ_EINVAL;
  if (!strcmp(s, "xinjiang") || !strcmp(s, "rapid-armageddon"))
    *format = XQ_KO_FMT_RAPID_ARMAGEDDON;
  else if (!strcmp(s, "shaanxi") || !strcmp(s, "village")) *format = XQ_KO_FMT_VILLAGE;
  else if (!strcmp(s, "tangshan") || !strcmp(s, "armageddon")) *format = XQ_KO_FMT_ARMAGEDDON;
  else if (!strcmp(s, "wujiaqu") || !strcmp(s, "rapid-blitz")) *format = XQ_KO_FMT_RAPID_BLITZ;
  else return XQ_EINVAL;
  return XQ_OK;
}

const char *xq_ko_seeding_name(int seeding)
{
  return seeding == XQ_KO_TOP_CHOOSES ? "choose" : seeding == XQ_KO_LOT ? "lot" : "fixed";
}

const char *xq_ko_format_name(int format)
{
  switch (format) {
  case XQ_KO_FMT_ARMAGEDDON: return "armageddon";
  case XQ_KO_FMT_RAPID_BLITZ: return "rapid-blitz";
  case XQ_KO_FMT_VILLAGE: return "village";
  default: return "rapid-armageddon";
  }
}

const char *xq_ko_gtype_name(int type)
{
  switch (type) {
  case XQ_KG_RAPID: return "rapid";
  case XQ_KG_BLITZ: return "blitz";
  case XQ_KG_ARMAGEDDON: return "armageddon";
  default: return "standard";
  }
}

const char *xq_ko_time_control(int format, int type)
{
  /* docs/presets.md: Xinjiang 20+5 / 10+5 / R6+3 B4+3; Tangshan 20+5 /
   * R6+5 B4+5; Wujiaqu 20+5 / 10+3 / 5+3 */
  switch (type) {
  case XQ_KG_RAPID: return format == XQ_KO_FMT_RAPID_BLITZ ? "10+3" : "10+5";
  case XQ_KG_BLITZ: return "5+3";
  case XQ_KG_ARMAGEDDON: return format == XQ_KO_FMT_ARMAGEDDON ? "R6+5/B4+5" : "R6+3/B4+3";
  default:
    /* Shaanxi 十(二)2: 双方用时超过20分钟后加比赛棋钟5分包干 */
    return format == XQ_KO_FMT_VILLAGE ? "20m+5m SD" : "20+5";
  }
}

const char *xq_ko_game_time_control(const xq_ko *ko, int m, int type)
{
  if (!ko) return xq_ko_time_control(XQ_KO_FMT_RAPID_ARMAGEDDON, type);
  /* Shaanxi 十(二)2: 总决赛抽签定先20分+10秒 */
  if (ko->format == XQ_KO_FMT_VILLAGE && type == XQ_KG_STANDARD && m == ko->size - 1 && ko->size >= 2)
    return "20+10";
  return xq_ko_time_control(ko->format, type);
}

int xq_ko_clock(const xq_ko *ko, int m, int type, int *base_s, int *base_black_s, int *inc_s)
{
  if (!ko) return XQ_EINVAL;
  return xq_ko_tc_clock(xq_ko_game_time_control(ko, m, type), base_s, base_black_s, inc_s);
}

int xq_ko_tc_clock(const char *tc, int *base_s, int *base_black_s, int *inc_s)
{
  if (!tc || !base_s || !base_black_s || !inc_s) return XQ_EINVAL;
  int a = 0, b = 0, c = 0, d = 0;
  *base_s = *base_black_s = *inc_s = 0;
  if (sscanf(tc, "R%d+%d/B%d+%d", &a, &b, &c, &d) == 4) {
    /* armageddon: each side its own base time, one increment */
    *base_s = a * 60;
    *base_black_s = c * 60;
    *inc_s = b;
  } else if (sscanf(tc, "%dm+%dm", &a, &b) == 2) {
    /* a period, then sudden death: one period of both, no increment */
    *base_s = (a + b) * 60;
  } else if (sscanf(tc, "%d+%d", &a, &b) == 2) {
    *base_s = a * 60;
    *inc_s = b;
  } else {
    return XQ_EINVAL;
  }
  return XQ_OK;
}

int xq_ko_setup(xq_ko *ko, const xq_tstanding *st, int n, int after, int size,
                int seeding, int format, int choice)
{
  if (!ko || !st) return XQ_EINVAL;
  memset(ko, 0, sizeof *ko);
  if ((size != 2 && size != 4 && size != 8 && size != 16) || n < size || after < 1 ||
      after > XQ_TOURNEY_ROUNDS_MAX)
    return XQ_EINVAL;
  if (seeding != XQ_KO_FIXED && seeding != XQ_KO_TOP_CHOOSES) return XQ_EINVAL;
  if (format < XQ_KO_FMT_RAPID_ARMAGEDDON || format > XQ_KO_FMT_VILLAGE) return XQ_EINVAL;
  /* Tangshan: 第1名决定下半区对手 — seeds 3 and 4 form the lower half */
  if (seeding == XQ_KO_TOP_CHOOSES && (size != 4 || (choice != 3 && choice != 4)))
    return XQ_EINVAL;
  ko->after = after;
  ko->size = size;
  ko->seeding = seeding;
  ko->format = format;
  ko->choice = seeding == XQ_KO_TOP_CHOOSES ? choice : 0;
  for (int i = 0; i < size; i++) ko->seeds[i] = st[i].id;
  return XQ_OK;
}

/* A draw of the lot: 0..n-1 from its one random stream. */
static int lot_below(uint64_t *x, int n) { return (int)(xq_random_next(x) % (uint64_t)n); }

static int pow2_at_least(int n)
{
  int k = 1;
  while (k < n) k *= 2;
  return k;
}

/* Put `c` of the entrants list[*next..] into positions lo..lo+len-1 (a
 * sub-bracket): each half takes half of them, the odd one going to a
 * half by lot, so the byes are spread over the whole sub-bracket. */
static void place_lot(xq_ko *ko, int lo, int len, int c, const int *list, int *next, uint64_t *rng)
{
  if (len == 1) {
    ko->seeds[lo] = c ? list[(*next)++] : 0;
    return;
  }
  int left = c / 2 + (c % 2 ? lot_below(rng, 2) : 0);
  place_lot(ko, lo, len / 2, left, list, next, rng);
  place_lot(ko, lo + len / 2, len / 2, c - left, list, next, rng);
}

int xq_ko_setup_lot(xq_ko *ko, const int *ids, const int *pool, int n, int npools, uint64_t lot,
                    int format)
{
  if (!ko || !ids) return XQ_EINVAL;
  memset(ko, 0, sizeof *ko);
  if (n < 2 || npools < 1 || npools > XQ_KO_POOLS_MAX || format < XQ_KO_FMT_RAPID_ARMAGEDDON ||
      format > XQ_KO_FMT_VILLAGE)
    return XQ_EINVAL;
  if (n > XQ_KO_SIZE_MAX) return XQ_ELIMIT;
  int count[XQ_KO_POOLS_MAX] = {0};
  for (int i = 0; i < n; i++) {
    int p = pool ? pool[i] : 0;
    if (ids[i] < 1 || p < 0 || p >= npools) return XQ_EINVAL;
    for (int j = 0; j < i; j++)
      if (ids[j] == ids[i]) return XQ_EINVAL;
    count[p]++;
  }
  int most = 0;
  for (int p = 0; p < npools; p++) {
    if (!count[p]) return XQ_EINVAL; /* a pool without entrants has no winner */
    if (count[p] > most) most = count[p];
  }
  /* one pool: the bracket that holds them; two: a half each, the size of
   * the larger pool's */
  int half = pow2_at_least(most);
  if (half * npools > XQ_KO_SIZE_MAX) return XQ_ELIMIT;
  ko->after = XQ_KO_NO_SWISS;
  ko->size = npools == 1 ? (half < 2 ? 2 : half) : half * npools;
  ko->seeding = XQ_KO_LOT;
  ko->format = format;
  ko->pools = npools;
  uint64_t rng = lot;
  int list[XQ_KO_SIZE_MAX];
  int part = ko->size / npools;
  for (int p = 0; p < npools; p++) {
    int c = 0, next = 0;
    for (int i = 0; i < n; i++)
      if ((pool ? pool[i] : 0) == p) list[c++] = ids[i];
    /* the draw: an order by lot (Fisher-Yates), then positions */
    for (int i = c - 1; i > 0; i--) {
      int j = lot_below(&rng, i + 1), t = list[i];
      list[i] = list[j];
      list[j] = t;
    }
    place_lot(ko, p * part, part, c, list, &next, &rng);
  }
  return XQ_OK;
}

int xq_ko_entrants(const xq_ko *ko)
{
  int e = 0;
  for (int i = 0; ko && i < ko->size && i < XQ_KO_SIZE_MAX; i++) e += ko->seeds[i] != 0;
  return e;
}

int xq_ko_pool_of(const xq_ko *ko, int id)
{
  for (int i = 0; ko && id > 0 && i < ko->size && i < XQ_KO_SIZE_MAX; i++)
    if (ko->seeds[i] == id)
      return ko->seeding == XQ_KO_LOT && ko->pools > 1 ? i / (ko->size / ko->pools) : 0;
  return -1;
}

int xq_ko_nmatches(const xq_ko *ko)
{
  if (!ko || ko->size < 2) return 0;
  return ko->size - 1 + (ko->seeding == XQ_KO_TOP_CHOOSES);
}

/* First match number of stage s (1-based) and its match count. */
static int stage_first(const xq_ko *ko, int s, int *count)
{
  int first = 1, k = ko->size / 2;
  for (int i = 1; i < s; i++) { first += k; k /= 2; }
  if (count) *count = k;
  return first;
}

static int nstages(const xq_ko *ko)
{
  int s = 0;
  for (int k = ko->size; k > 1; k /= 2) s++;
  return s;
}

int xq_ko_stage(const xq_ko *ko, int m)
{
  if (!ko || m < 1 || m > xq_ko_nmatches(ko)) return 0;
  if (ko->seeding == XQ_KO_TOP_CHOOSES && m == ko->size) return nstages(ko);
  for (int s = 1, k; s <= nstages(ko); s++) {
    int f = stage_first(ko, s, &k);
    if (m < f + k) return s;
  }
  return 0;
}

int xq__knockout_seed(const xq_ko *ko, int id)
{
  for (int i = 0; i < ko->size; i++)
    if (ko->seeds[i] == id) return i + 1;
  return 0;
}

/* The seed as an order: players not in the bracket after every seed. */
static int seed_of(const xq_ko *ko, int id)
{
  int s = xq__knockout_seed(ko, id);
  return s ? s : XQ_KO_SIZE_MAX + 1;
}

static int loser(const xq_ko *ko, int m)
{
  int a, b, w = xq_ko_winner(ko, m);
  if (!w || xq_ko_match_players(ko, m, &a, &b) != 1) return 0;
  return w == a ? b : a;
}

/* The winner of match m by its games alone, 0 while they decide nothing. */
static int games_winner(const xq_ko *ko, int m)
{
  for (int i = 0; i < ko->ngames; i++) {
    const xq_ko_game *g = &ko->games[i];
    if (g->match != m) continue;
    if (g->res > 0) return g->red;
    if (g->res < 0) return g->black;
    /* docs/presets.md: armageddon 和棋黑胜 — a draw is a Black win */
    if (g->type == XQ_KG_ARMAGEDDON) return g->black;
  }
  return 0;
}

static int lot_result(const xq_ko *ko, int m);

/* Side `which` (0 upper, 1 lower) of match m of a drawn bracket: a player
 * id, 0 for a bye (or a match of two byes before it), -1 while the match
 * before is undecided. */
static int lot_side(const xq_ko *ko, int m, int which)
{
  int s = xq_ko_stage(ko, m), k;
  int j = m - stage_first(ko, s, &k); /* 0-based in its stage */
  if (s == 1) return ko->seeds[2 * j + which];
  int pk, pf = stage_first(ko, s - 1, &pk);
  return lot_result(ko, pf + 2 * j + which);
}

/* What match m of a drawn bracket passes on: its winner, the player of a
 * bye, 0 when both sides are byes, -1 while undecided. */
static int lot_result(const xq_ko *ko, int m)
{
  int x = lot_side(ko, m, 0), y = lot_side(ko, m, 1);
  if (x < 0 || y < 0) return -1;
  if (!x || !y) return x ? x : y;
  int w = games_winner(ko, m);
  return w ? w : -1;
}

int xq_ko_match_feeders(const xq_ko *ko, int m, int *a, int *b)
{
  if (!ko || !a || !b || m < 1 || m > xq_ko_nmatches(ko)) return -1;
  *a = *b = 0;
  if (ko->seeding == XQ_KO_TOP_CHOOSES && m == ko->size) {
    *a = 1; /* Tangshan: 负者争夺第三名, the losers of the semi-finals */
    *b = 2;
    return 2;
  }
  int s = xq_ko_stage(ko, m), k;
  if (s == 1) return 0;
  int j = m - stage_first(ko, s, &k); /* 0-based in its stage */
  int pk, pf = stage_first(ko, s - 1, &pk);
  if (ko->seeding == XQ_KO_LOT) { /* a drawn bracket: matches 2j and 2j+1 before */
    *a = pf + 2 * j;
    *b = pf + 2 * j + 1;
  } else { /* the winners of matches j and 2k+1-j, which hold those nominal seeds */
    *a = pf + j;
    *b = pf + pk - 1 - j;
  }
  return 1;
}

int xq_ko_match_players(const xq_ko *ko, int m, int *a, int *b)
{
  if (!ko || !a || !b || m < 1 || m > xq_ko_nmatches(ko)) return -1;
  if (ko->seeding == XQ_KO_LOT) {
    int x = lot_side(ko, m, 0), y = lot_side(ko, m, 1);
    if (x < 0 || y < 0) {
      *a = x > 0 ? x : 0;
      *b = y > 0 ? y : 0;
      return 0;
    }
    if (x && y) {
      *a = x;
      *b = y;
      return 1;
    }
    /* a bye: the player goes on without a game */
    *a = x ? x : y;
    *b = 0;
    return 2;
  }
  int x = 0, y = 0;
  int s = xq_ko_stage(ko, m), k;
  int f = stage_first(ko, s, &k);
  if (ko->seeding == XQ_KO_TOP_CHOOSES && m == ko->size) {
    /* Tangshan: 负者争夺第三名 */
    x = loser(ko, 1);
    y = loser(ko, 2);
  } else if (ko->seeding == XQ_KO_TOP_CHOOSES && s == 1) {
    /* #1 meets the seed it chose; #2 the other of #3/#4 */
    x = ko->seeds[m == 1 ? 0 : 1];
    y = ko->seeds[(m == 1 ? ko->choice : 7 - ko->choice) - 1];
  } else if (s == 1) {
    /* stage 1 match j: nominal seeds j and size+1-j (1–8, 2–7, 3–6, 4–5) */
    int j = m - f + 1;
    x = ko->seeds[j - 1];
    y = ko->seeds[ko->size - j];
  } else {
    /* match j of a stage: winners of matches j and 2k+1-j of the stage
     * before, which hold nominal seeds j and 2k+1-j */
    int pk, pf = stage_first(ko, s - 1, &pk);
    int j = m - f + 1;
    x = xq_ko_winner(ko, pf + j - 1);
    y = xq_ko_winner(ko, pf + pk - j);
  }
  if (x && y && seed_of(ko, y) < seed_of(ko, x)) { int t = x; x = y; y = t; }
  *a = x;
  *b = y;
  return x && y;
}

int xq_ko_winner(const xq_ko *ko, int m)
{
  if (!ko || m < 1 || m > xq_ko_nmatches(ko)) return 0;
  if (ko->seeding == XQ_KO_LOT) {
    int w = lot_result(ko, m);
    return w > 0 ? w : 0;
  }
  return games_winner(ko, m);
}

int xq_ko_decided(const xq_ko *ko, int m)
{
  if (!ko || m < 1 || m > xq_ko_nmatches(ko)) return 0;
  if (ko->seeding == XQ_KO_LOT) return lot_result(ko, m) >= 0;
  return games_winner(ko, m) != 0;
}

/* The type of game number `i` (0-based) of a match under `format`. */
static int game_type(int format, int i)
{
  if (i == 0) return XQ_KG_STANDARD;
  switch (format) {
  case XQ_KO_FMT_ARMAGEDDON: return XQ_KG_ARMAGEDDON;
  case XQ_KO_FMT_RAPID_BLITZ: return i == 1 ? XQ_KG_RAPID : XQ_KG_BLITZ;
  default: return i == 1 ? XQ_KG_RAPID : XQ_KG_ARMAGEDDON;
  }
}

int xq_ko_next_game(const xq_ko *ko, int m, int red, xq_ko_game *g)
{
  int a, b;
  if (!ko || !g || xq_ko_match_players(ko, m, &a, &b) != 1 || xq_ko_winner(ko, m)) return XQ_EINVAL;
  if (red && red != a && red != b) return XQ_EINVAL;
  int played = 0;
  const xq_ko_game *last = NULL;
  for (int i = 0; i < ko->ngames; i++)
    if (ko->games[i].match == m) { played++; last = &ko->games[i]; }
  if (played >= XQ_KO_MATCH_GAMES_MAX) return XQ_ELIMIT;
  memset(g, 0, sizeof *g);
  g->match = m;
  g->type = game_type(ko->format, played);
  int r;
  if (g->type == XQ_KG_RAPID) {
    /* 换先: the colours of the standard game swapped */
    r = last->black;
    if (red && red != r) return XQ_EINVAL;
  } else if (g->type == XQ_KG_BLITZ) {
    r = red ? red : last->black;
  } else {
    /* standard game and armageddon: by lot or the higher seed's choice */
    r = red ? red : a;
  }
  g->red = r;
  g->black = r == a ? b : a;
  return XQ_OK;
}

int xq_ko_red_drawn(const xq_ko *ko, const xq_ko_game *g)
{
  if (!ko || !g) return 0;
  if (g->type == XQ_KG_ARMAGEDDON) return 1;
  if (g->type != XQ_KG_STANDARD) return 0;
  int stages = 0;
  for (int k = ko->size; k > 1; k /= 2) stages++;
  int s = xq_ko_stage(ko, g->match);
  if (ko->format == XQ_KO_FMT_RAPID_BLITZ) return s == 1; /* Wujiaqu 九(一) */
  /* Shaanxi 十(二)2: 总决赛抽签定先, the bracket's last match */
  if (ko->format == XQ_KO_FMT_VILLAGE) return s == stages && g->match == xq_ko_nmatches(ko);
  return 0;
}

int xq_ko_add_game(xq_ko *ko, const xq_ko_game *g)
{
  xq_ko_game want;
  if (!ko || !g || g->res < -1 || g->res > 1) return XQ_EINVAL;
  if (ko->ngames >= XQ_KO_GAMES_MAX) return XQ_ELIMIT;
  int rc = xq_ko_next_game(ko, g->match, g->red, &want);
  if (rc) return rc;
  if (want.type != g->type || want.black != g->black) return XQ_EINVAL;
  /* a game in play at a table is decided there, and only there */
  if (g->table != xq_ko_in_play(ko, g->match)) return XQ_EINVAL;
  if (g->table) ko->tables[g->table - 1].done = 1;
  ko->games[ko->ngames++] = *g;
  return XQ_OK;
}

int xq_ko_in_play(const xq_ko *ko, int m)
{
  for (int i = 0; ko && i < ko->ntables; i++)
    if (ko->tables[i].match == m && !ko->tables[i].done) return i + 1;
  return 0;
}

int xq_ko_publish(xq_ko *ko, const xq_ko_game *g)
{
  xq_ko_game want;
  if (!ko || !g || xq_ko_in_play(ko, g->match)) return XQ_EINVAL;
  if (ko->ntables >= XQ_KO_TABLES_MAX) return XQ_ELIMIT;
  int rc = xq_ko_next_game(ko, g->match, g->red, &want);
  if (rc) return rc;
  if (want.type != g->type || want.black != g->black) return XQ_EINVAL;
  ko->tables[ko->ntables] = (xq_ko_table){g->match, g->type, g->red, g->black, 0};
  return ++ko->ntables;
}

int xq_ko_table_result(xq_ko *ko, int table, int res)
{
  if (!ko || table < 1 || table > ko->ntables || ko->tables[table - 1].done) return XQ_EINVAL;
  const xq_ko_table *t = &ko->tables[table - 1];
  xq_ko_game g = {t->match, t->type, t->red, t->black, res, table};
  return xq_ko_add_game(ko, &g);
}

int xq_ko_result_code(const char *code, int *res)
{
  static const struct { const char *code; int res; } map[] = {
    {"1-0", 1}, {"+-", 1}, {"0-1", -1}, {"-+", -1}, {"=", 0}, {"1/2-1/2", 0},
  };
  for (size_t i = 0; code && i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(code, map[i].code)) {
      *res = map[i].res;
      return XQ_OK;
    }
  return XQ_EINVAL;
}

typedef struct kplace {
  int id, stage, bonus, seed;
} kplace;

static int kplace_cmp(const void *x, const void *y)
{
  const kplace *a = x, *b = y;
  if (a->stage != b->stage) return b->stage - a->stage;
  if (a->bonus != b->bonus) return b->bonus - a->bonus;
  return a->seed - b->seed;
}

/* xq_ko_places of a drawn bracket. Every entrant gets a level: 2s for a
 * loser in stage s, 2s+1 for one still in play who reached stage s, the
 * champion above all. Levels go down the list; the losers of one stage
 * follow the place of the player who beat them (placed already: he went
 * further), the players in play their bracket position. */
static int lot_places(const xq_ko *ko, int *ids)
{
  int n = 0, complete = 1, ns = nstages(ko), nm = xq_ko_nmatches(ko);
  int id[XQ_KO_SIZE_MAX], pos[XQ_KO_SIZE_MAX], level[XQ_KO_SIZE_MAX], conq[XQ_KO_SIZE_MAX];
  int reach[XQ_KO_SIZE_MAX], placed[XQ_KO_SIZE_MAX];
  for (int i = 0; i < ko->size; i++) {
    if (!ko->seeds[i]) continue;
    id[n] = ko->seeds[i];
    pos[n] = i;
    level[n] = -1;
    conq[n] = 0;
    reach[n] = 1;
    placed[n++] = 0;
  }
  for (int m = 1; m <= nm; m++) {
    int a, b, k = xq_ko_match_players(ko, m, &a, &b), st = xq_ko_stage(ko, m);
    int w = xq_ko_winner(ko, m);
    if (!xq_ko_decided(ko, m)) complete = 0;
    for (int i = 0; i < n; i++) {
      if (id[i] != a && id[i] != b) continue;
      if (st > reach[i]) reach[i] = st;
      if (k == 1 && w && w != id[i]) {
        level[i] = 2 * st;
        conq[i] = w;
      }
      if (st == ns && w == id[i]) level[i] = 2 * ns + 2;
    }
  }
  for (int i = 0; i < n; i++)
    if (level[i] < 0) level[i] = 2 * reach[i] + 1;
  int k = 0;
  while (k < n) {
    int top = -1;
    for (int i = 0; i < n; i++)
      if (!placed[i] && level[i] > top) top = level[i];
    /* the members of this level, best first */
    for (;;) {
      int best = -1, bkey = 0;
      for (int i = 0; i < n; i++) {
        if (placed[i] || level[i] != top) continue;
        int key = pos[i];
        if (conq[i] && top % 2 == 0)
          for (int j = 0; j < k; j++)
            if (ids[j] == conq[i]) key = j;
        if (best < 0 || key < bkey) best = i, bkey = key;
      }
      if (best < 0) break;
      placed[best] = 1;
      ids[k++] = id[best];
    }
  }
  return complete;
}

int xq_ko_places(const xq_ko *ko, int *ids)
{
  if (!ko || !ids || ko->size < 2 || ko->size > XQ_KO_SIZE_MAX) return -1;
  if (ko->seeding == XQ_KO_LOT) return lot_places(ko, ids);
  kplace kp[XQ_KO_SIZE_MAX];
  int complete = 1, ns = nstages(ko), nm = xq_ko_nmatches(ko);
  for (int i = 0; i < ko->size; i++) {
    kp[i].id = ko->seeds[i];
    kp[i].seed = i + 1;
    kp[i].stage = 1;
    kp[i].bonus = 0;
  }
  for (int m = 1; m <= nm; m++) {
    int a, b, w = xq_ko_winner(ko, m);
    int known = xq_ko_match_players(ko, m, &a, &b) == 1;
    if (!w) complete = 0;
    if (!known) continue;
    int third = ko->seeding == XQ_KO_TOP_CHOOSES && m == ko->size;
    for (int i = 0; i < ko->size; i++) {
      if (kp[i].id != a && kp[i].id != b) continue;
      if (third) {
        /* Tangshan: the third-place match orders the semi-final losers */
        if (w == kp[i].id) kp[i].bonus = 1;
      } else {
        int s = xq_ko_stage(ko, m);
        /* a winner goes on to the next stage; the final's winner past it */
        kp[i].stage = w == kp[i].id ? s + 1 : s;
        if (w == kp[i].id && s == ns) kp[i].bonus = 2;
      }
    }
  }
  /* losers of a stage ordered by their Swiss rank at the cut */
  qsort(kp, (size_t)ko->size, sizeof kp[0], kplace_cmp);
  for (int i = 0; i < ko->size; i++) ids[i] = kp[i].id;
  return complete;
}

int xq_final_places(const xq_tournament *ev, const xq_ko *ko, int *ids)
{
  if (!ev || !ids) return XQ_EINVAL;
  xq_tstanding *st = malloc(sizeof *st * (size_t)(ev->n ? ev->n : 1));
  if (!st) return XQ_ENOMEM;
  int rc = xq_standings(ev, 0, st);
  if (rc) { free(st); return rc; }
  int k = 0;
  if (ko && ko->after != 0) {
    int e = xq_ko_entrants(ko);
    if (e > ev->n || xq_ko_places(ko, ids) < 0) { free(st); return XQ_EINVAL; }
    for (int i = 0; i < e; i++)
      if (ids[i] < 1 || ids[i] > ev->n) { free(st); return XQ_EINVAL; }
    k = e;
  }
  for (int i = 0; i < ev->n; i++) {
    int in_ko = 0;
    for (int j = 0; j < k; j++)
      if (ids[j] == st[i].id) in_ko = 1;
    /* places size+1.. follow the Swiss standings */
    if (!in_ko) ids[k++] = st[i].id;
  }
  free(st);
  return k == ev->n ? XQ_OK : XQ_EINVAL;
}

int xq_ko_pool_places(const xq_ko *ko, int pool, int *ids)
{
  int all[XQ_KO_SIZE_MAX];
  if (!ko || !ids || ko->seeding != XQ_KO_LOT || pool < 0 || pool >= ko->pools) return -1;
  if (xq_ko_places(ko, all) < 0) return -1;
  int k = 0;
  /* the knockout order restricted to the pool: a pool's players meet
   * only each other before the final, so this is its own bracket's */
  for (int i = 0, e = xq_ko_entrants(ko); i < e; i++)
    if (xq_ko_pool_of(ko, all[i]) == pool) ids[k++] = all[i];
  return k;
}
