/*
 * prize.h -- team results (tourney.md §7) and prizes (§8): prize tables
 * by place with a percentage cap, lucky prizes, local / regional /
 * age-group categories, one prize per player unless a category may be
 * won in addition. Both work on the final places (xq_final_places).
 */
#ifndef XQ_PRIZE_H
#define XQ_PRIZE_H

#include "tourney.h"

#define XQ_TEAM_COUNTED_MAX 16     /* players counted for one team */
#define XQ_PRIZE_CATS_MAX 16       /* prize categories in one table */
#define XQ_PRIZE_PLACES_MAX 200    /* places of one category */
#define XQ_PRIZE_TABLE_MAX (64L << 10) /* bytes of a prize table file */

/* ------------------------------------------------------------------ */
/* Teams                                                               */
/* ------------------------------------------------------------------ */

typedef enum {
  XQ_TEAM_RANK_SUM = 0, /* Σ of places, lower first (Xinjiang, Tangshan) */
  XQ_TEAM_POINTS_SUM    /* Σ of points, higher first (Burqin) */
} xq_team_mode;

typedef struct xq_team_row {
  char team[XQ_TOURNEY_FIELD_MAX];
  int rank;                          /* 1.., 0 = not ranked (too few players) */
  int64_t value;                     /* Σ places, or Σ points in half-units */
  int best;                          /* best individual place */
  int nmembers;                      /* counted players (all, if fewer) */
  int members[XQ_TEAM_COUNTED_MAX];  /* their ids, best place first */
} xq_team_row;

/* Team standings of the players' `team` field (players without one are
 * left out). `places` holds the player ids in final-place order
 * (places[0] is 1st, ev->n entries). Each team counts its best `counted`
 * players by place; a team with fewer is not ranked (rank 0, listed after
 * the ranked ones). Ties: the better best individual place, then the
 * team name (bytes). Fills out[0..*nout-1] (room for `cap`). Returns
 * XQ_OK, XQ_EINVAL (bad mode, counted outside 1..XQ_TEAM_COUNTED_MAX)
 * or XQ_ELIMIT (more teams than cap). */
int xq_team_standings(const xq_tevent *ev, const int *places, int mode, int counted,
                      xq_team_row *out, int cap, int *nout);

/* ------------------------------------------------------------------ */
/* Prizes                                                              */
/* ------------------------------------------------------------------ */

typedef enum {
  XQ_PF_ALL = 0,   /* every player */
  XQ_PF_LOCAL,     /* the local-player flag (本地棋手) */
  XQ_PF_REGION,    /* players of one region (地区) */
  XQ_PF_GROUP      /* an age group: birth-date band and sex (xq_tgroup) */
} xq_prize_filter;

typedef struct xq_prize_cat {
  char name[XQ_TOURNEY_FIELD_MAX];
  int filter;                        /* xq_prize_filter */
  char region[XQ_TOURNEY_FIELD_MAX]; /* XQ_PF_REGION */
  xq_tgroup group;                   /* XQ_PF_GROUP; also local_only */
  int repeat;                        /* may be won on top of another prize */
  int nplaces;
  int amount[XQ_PRIZE_PLACES_MAX];   /* amount of place i+1 */
} xq_prize_cat;

typedef struct xq_prize_table {
  int cap_pct;          /* at most ⌊cap_pct% × members⌋ places per category, 0 = no cap */
  int ncats;
  xq_prize_cat cats[XQ_PRIZE_CATS_MAX];
  int lucky_start, lucky_step, lucky_last; /* places start, start+step, ... (last 0 = to the end) */
  int lucky_amount;     /* 0 = no lucky prizes */
  int lucky_active;     /* not for withdrawn players or those who missed 2+ rounds */
} xq_prize_table;

/* Parse a prize table (UTF-8 text, `len` bytes, '#' comments):
 *
 *   cap PCT
 *   category NAME all|local|region REGION|born FROM..TO [sex m|w] [repeat]
 *   PLACE AMOUNT          e.g. "1 6000"
 *   FIRST-LAST AMOUNT     e.g. "9-12 800"
 *   lucky START STEP AMOUNT [last N] [active]
 *
 * Place lines belong to the category above them and must continue its
 * places without a gap. Returns XQ_OK or XQ_EINVAL / XQ_ELIMIT with
 * err->pos = line number. */
int xq_prize_parse(const char *text, size_t len, xq_prize_table *t, xq_error *err);

/* Read and parse a prize table file; XQ_EIO when unreadable. */
int xq_prize_read(const char *path, xq_prize_table *t, xq_error *err);

/* True when player `p` belongs to category `c`. */
int xq_prize_member(const xq_prize_cat *c, const xq_tplayer *p);

typedef struct xq_award {
  int id;        /* player id */
  int place;     /* final place */
  int cat;       /* category index, -1 = lucky prize */
  int cat_place; /* place within the category (lucky: the final place) */
  int amount;
} xq_award;

#define XQ_AWARDS_MAX(t, n) ((t)->ncats * XQ_PRIZE_PLACES_MAX + (n))

/* Award the prizes of `t` over the final places `places` (ids, ev->n).
 * A category's members keep their final-place order. Places beyond the
 * cap are not awarded (§8.3). Prizes of categories without `repeat` go
 * one to a player (§8.6): taken in order of amount (higher first, then
 * category order, then place), each to the best-placed member not yet
 * holding such a prize — so a player takes his highest prize and the
 * next member moves up. `repeat` prizes and lucky prizes (§8.2: places
 * start, start+step, ...) are won in addition. Fills out[] in category
 * order then place, lucky prizes last (room for `cap`). Returns XQ_OK,
 * XQ_EINVAL or XQ_ELIMIT. */
int xq_prizes_award(const xq_tevent *ev, const int *places, const xq_prize_table *t,
                    xq_award *out, int cap, int *nout);

#endif /* XQ_PRIZE_H */
