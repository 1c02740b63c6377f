/*
 * prize.h -- team results (docs/tourney.md, "Teams") and prizes ("Prizes and age groups"): prize tables
 * by place with a percentage cap, lucky prizes, local / regional /
 * age-group categories, one prize per player unless a category may be
 * won in addition. Both work on the final places (xq_final_places).
 */
#ifndef XQ_PRIZE_H
#define XQ_PRIZE_H

#include "region.h"
#include "tourney.h"

#define XQ_TEAM_COUNTED_MAX 16     /* players counted for one team */
#define XQ_TEAM_LEFT_MAX 16        /* players of one team listed as not counted (of no or another unit) */
#define XQ_TEAMS_MAX 1024          /* teams one team standings sheet lists */
#define XQ_PRIZE_CATS_MAX 16       /* prize categories in one table */
#define XQ_PRIZE_PLACES_MAX 200    /* places of one category */
#define XQ_PRIZE_TABLE_MAX (64L << 10) /* bytes of a prize table file */
#define XQ_TEAM_PRIZES_MAX 16      /* paid team places of one table */
#define XQ_PRIZE_SHARES_MAX 4      /* runs of shared places in one table */
#define XQ_REG_GROUPS_MAX 16       /* groups one regulation defines */

/* ------------------------------------------------------------------ */
/* Teams                                                               */
/* ------------------------------------------------------------------ */

typedef enum {
  XQ_TEAM_RANK_SUM = 0, /* Σ of places, lower first (Xinjiang, Tangshan) */
  XQ_TEAM_POINTS_SUM    /* Σ of points, higher first (Burqin) */
} xq_team_mode;

/* What the team results are computed on. */
typedef enum {
  XQ_TEAM_BASIS_FINAL = 0, /* the final places (knockout places first) */
  XQ_TEAM_BASIS_SWISS      /* the Swiss standings after its last round: Tangshan 八.3
                              团体成绩按照预赛成绩计算 (the preliminary, not the final) */
} xq_team_basis;

/* A team competition: how teams are ranked, on what, and who is in it. */
typedef struct xq_team_rule {
  int mode;                          /* xq_team_mode */
  int counted;                       /* players counted a team, 0 = no team competition */
  int basis;                         /* xq_team_basis */
  char area[XQ_TOURNEY_FIELD_MAX];   /* only players of this region (xq_region_within)
                                        count for a team, "" = anyone (Burqin 四(二): 阿勒泰) */
  char unit[XQ_TOURNEY_FIELD_MAX];   /* "" = none; else teams are of one place directly within
                                        this area (xq_region_unit): Xinjiang 十(一) 以地州市为单位,
                                        a prefecture of 新疆. A player of no such place, or of
                                        another than his team's, does not count for it */
  const char *clause;                /* the clauses it comes from (static text), NULL = none */
} xq_team_rule;

typedef struct xq_team_row {
  char team[XQ_TOURNEY_FIELD_MAX];
  int rank;                          /* 1.., 0 = not ranked (too few players) */
  int64_t value;                     /* Σ places, or Σ points in half-units */
  int best;                          /* best individual place */
  int nmembers;                      /* counted players (all, if fewer) */
  int members[XQ_TEAM_COUNTED_MAX];  /* their ids, best place first */
  int amount;                        /* team prize (xq_team_prizes), 0 = none */
  char unit[XQ_TOURNEY_FIELD_MAX];   /* with rule->unit: the team's place (its best player's) */
  int nleft;                         /* with rule->unit: its players not counted ... */
  int left[XQ_TEAM_LEFT_MAX];        /* ... their ids, best place first ... */
  char left_why[XQ_TEAM_LEFT_MAX];   /* ... 'n': of no place within the unit area, 'o': of another */
} xq_team_row;

/* Team standings of the players' `team` field (players without one are
 * left out). `places` holds the player ids in final-place order
 * (places[0] is 1st, ev->n entries). Each team counts its best `counted`
 * players by place; a team with fewer is not ranked (rank 0, listed after
 * the ranked ones). Ties: the better best individual place, then the
 * team name (bytes). Fills out[0..*nout-1] (room for `cap`). Returns
 * XQ_OK, XQ_EINVAL (bad mode, counted outside 1..XQ_TEAM_COUNTED_MAX)
 * or XQ_ELIMIT (more teams than cap). */
int xq_team_standings(const xq_tournament *ev, const int *places, int mode, int counted,
                      xq_team_row *out, int cap, int *nout);

/* The same under `rule` (mode, counted, and area: a player whose region
 * is not within rule->area does not count for a team, so a team with no
 * such player is not listed at all -- it is outside the competition;
 * unit: a team is of one place directly within rule->unit, that of its
 * best-placed player who has one, row->unit; a player of no such place or
 * of another does not count and is listed in row->left, with why).
 * rule->basis is the caller's: `places` is the order it names
 * (xq_team_order). Same returns. */
int xq_team_standings_rule(const xq_tournament *ev, const int *places, const xq_team_rule *rule,
                           xq_team_row *out, int cap, int *nout);

struct xq_ko;

/* The order team results are computed on under `basis` into ids[0..ev->n-1]:
 * the final places (xq_final_places with `ko`, which may be NULL) or the
 * Swiss standings after the event's last round (xq_standings). Returns
 * what those return (XQ_EINVAL for a bad basis). */
int xq_team_order(const xq_tournament *ev, const struct xq_ko *ko, int basis, int *ids);

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
  int filter;                        /* xq_prize_filter: what the category is named for */
  char region[XQ_TOURNEY_FIELD_MAX]; /* only players within this region ("" = any; XQ_PF_REGION) */
  xq_tgroup group;                   /* only players of this band/sex/local flag (empty = any;
                                        XQ_PF_GROUP, and any other filter may narrow by it:
                                        Xinjiang's open table is born up to 2001/12/31) */
  const char *clause;                /* who is eligible and why, the clause (static text; NULL
                                        for a table read from a file) */
  const char *title;                 /* honours (xq_regulation_honours): what the first place
                                        earns ("公开组棋王"); the places qualify. NULL = none */
  int repeat;                        /* may be won on top of another prize */
  int apart;                         /* the list of a group that plays as an event
                                        of its own (Tangshan 七): xq_prizes_award
                                        skips it; xq_prize_table_only() keeps it */
  int nplaces;
  int amount[XQ_PRIZE_PLACES_MAX];   /* amount of place i+1 */
} xq_prize_cat;

typedef struct xq_prize_table {
  int cap_pct;          /* at most ⌊cap_pct% × members⌋ places per category, 0 = no cap */
  long stated_total;    /* the total the regulation states (with no table, Wujiaqu), 0 = none */
  int ncats;
  xq_prize_cat cats[XQ_PRIZE_CATS_MAX];
  int lucky_start, lucky_step, lucky_last; /* places start, start+step, ... (last 0 = to the end) */
  int lucky_amount;     /* 0 = no lucky prizes */
  int lucky_active;     /* not for withdrawn players or those who missed 2+ rounds */
  int nshare;           /* runs of final places that share their prizes, 0 = none */
  int share_first[XQ_PRIZE_SHARES_MAX], share_last[XQ_PRIZE_SHARES_MAX]; /* e.g. 3-4, 5-8 */
  int nteam;            /* paid team places */
  int team_amount[XQ_TEAM_PRIZES_MAX]; /* prize of team rank i+1 */
} xq_prize_table;

/* Parse a prize table (UTF-8 text, `len` bytes, '#' comments):
 *
 *   cap PCT
 *   category NAME all|local|region REGION|born FROM..TO [sex m|w] [local]
 *            [region REGION] [born FROM..TO] [repeat] [apart]
 *   PLACE AMOUNT          e.g. "1 6000"
 *   FIRST-LAST AMOUNT     e.g. "9-12 800"
 *   lucky START STEP AMOUNT [last N] [active]
 *   team PLACE[-LAST] AMOUNT   team prizes by team rank, e.g. "team 5-6 200"
 *
 * Place lines belong to the category above them and must continue its
 * places without a gap. Returns XQ_OK or XQ_EINVAL / XQ_ELIMIT with
 * err->pos = line number. */
int xq_prize_parse(const char *text, size_t len, xq_prize_table *t, xq_error *err);

/* Read and parse a prize table file; XQ_EIO when unreadable. */
int xq_prize_read(const char *path, xq_prize_table *t, xq_error *err);

/* Keep only category `name` of `t` (its `apart` flag cleared), for the
 * event of a group that plays apart; team and lucky prizes are dropped.
 * Returns XQ_OK, or XQ_EINVAL when `t` has no such category (`t`
 * unchanged). */
int xq_prize_table_only(xq_prize_table *t, const char *name);

/* True when player `p` belongs to category `c`: every condition the
 * category states holds -- the local flag (XQ_PF_LOCAL), the region
 * (the player's region within it by the hierarchy, xq_region_within:
 * a 佳县 or 神木 player is a 榆林 player), the group's birth band, sex
 * and local flag. The conditions combine, so a table can be for one
 * group of a field that plays on the same tables (Xinjiang's open table
 * for those born up to 2001, its junior tables for each age band). */
int xq_prize_member(const xq_prize_cat *c, const xq_tplayer *p);

/* Who may win category `c`, in words, into out[0..cap-1]: "everyone",
 * or each condition -- "local players", "born 1958/01/01..2001/12/31",
 * "men"/"women", "region within 榆林 (榆阳, 横山, ...)" -- and "won on
 * top of another prize" for a repeat category. Cannot fail. */
void xq_prize_eligibility(const xq_prize_cat *c, char *out, size_t cap);

typedef struct xq_award {
  int id;        /* player id */
  int place;     /* final place */
  int cat;       /* category index, -1 = lucky prize */
  int cat_place; /* place within the category (lucky: the final place) */
  int amount;
  int section;   /* 'm' / 'w': the men's or women's list of a category whose group ranks them
                    apart (xq_tgroup.sections: Tangshan 六.2 男、女分开录取成绩); 0: one list */
} xq_award;

#define XQ_AWARDS_MAX(t, n) (2 * (t)->ncats * XQ_PRIZE_PLACES_MAX + (n))

/* Award the prizes of `t` over the final places `places` (ids, ev->n).
 * A category's members keep their final-place order. Places beyond the
 * cap are not awarded. Prizes of categories without `repeat` go
 * one to a player: taken in order of amount (higher first, then
 * category order, then place), each to the best-placed member not yet
 * holding such a prize — so a player takes his highest prize and the
 * next member moves up. `repeat` prizes and lucky prizes (places
 * start, start+step, ...) are won in addition; `apart` categories are
 * left out. The awards of one category whose final places lie in one of
 * t's shared runs (share_first..share_last: places the event does not
 * separate) are pooled and split equally, the remainder of the division
 * to the best placed. Fills out[] in category
 * order then place, lucky prizes last (room for `cap`). Returns XQ_OK,
 * XQ_EINVAL or XQ_ELIMIT. */
int xq_prizes_award(const xq_tournament *ev, const int *places, const xq_prize_table *t,
                    xq_award *out, int cap, int *nout);

/* Set rows[i].amount from the team prizes of `t` (t->team_amount by
 * rank; unranked teams and ranks past t->nteam get 0) for the rows of
 * xq_team_standings(). Returns the sum awarded, 0 when `t` or `rows` is
 * NULL. Cannot fail. */
long xq_team_prizes(const xq_prize_table *t, xq_team_row *rows, int n);

/* The team standings as the results commands and the export op give
 * them: regulation `r`'s team competition (NULL: none; its area and
 * basis, and its mode and count unless given), `mode` (xq_team_mode, -1 =
 * the regulation's, else Σ places) and `counted` (1..XQ_TEAM_COUNTED_MAX,
 * 0 = the regulation's, else 3) over `places` (the final places, ev->n
 * ids; a Swiss basis computes its own order), with the team prizes of `t`
 * (NULL = none). Fills rows[0..*n-1] (room for `cap`) and *used (may be
 * NULL) with the rule applied. Returns XQ_OK, XQ_EINVAL (bad arguments; `r` without a
 * team competition and no `counted`), XQ_ENOMEM or XQ_ELIMIT (more teams
 * than cap), `err` (may be NULL) saying which. */
int xq_team_results(const xq_tournament *ev, const int *places, const xq_regulation *r, int mode,
                    int counted, const xq_prize_table *t, xq_team_row *rows, int cap, int *n,
                    xq_team_rule *used, xq_error *err);

/* ------------------------------------------------------------------ */
/* The regulations' groups, teams and prizes (tourney/regulation_data.c) */
/* ------------------------------------------------------------------ */

/* The prize table of regulation `r` for an event of `entrants` players
 * (some tables depend on the entry count: Xinjiang awards 40 places only
 * above 100 entrants, ⌊40%⌋ of a smaller field; 0 = not known, the full
 * table), as xq_prizes_award() takes it: categories with their amounts,
 * repeat flags (Burqin's local prizes, Shaanxi's Yulin and Jia county
 * prizes are won on top of another), `apart` lists (Tangshan's seniors,
 * a separate event), the share cap, the lucky prizes, the team prizes
 * (t->team_amount, for xq_team_prizes) and a total the text states
 * (t->stated_total). A regulation that states only a total (Wujiaqu)
 * gives a table with no categories. Fills *t; returns XQ_OK or XQ_EINVAL
 * (NULL argument, unknown regulation, negative entrants) with `err` (may
 * be NULL) set. */
int xq_regulation_prizes(const xq_regulation *r, int entrants, xq_prize_table *t,
                         xq_error *err);

/* The titles and qualifying places of regulation `r` (no money: Xinjiang
 * 十(二) each group's and each junior section's champion a "组别+棋王"
 * title and its top 6 a place in the regional final; Shaanxi 十二(三) the
 * best Shaanxi player the 棋王 certificate and the top 6 Shaanxi players
 * the provincial final) as a prize table for xq_prizes_award(): one
 * category a list, `repeat` (each by its own order, on top of any prize),
 * amounts 0, cat->title the champion's title, the places the qualifiers;
 * no cap, lucky or team prizes. A regulation without any gives ncats 0.
 * Returns XQ_OK or XQ_EINVAL (NULL argument, unknown regulation). */
int xq_regulation_honours(const xq_regulation *r, xq_prize_table *t, xq_error *err);

/* The groups (组别) of regulation `r` with their birth-date bands, sex
 * and local flags, and `sections` where men and women are ranked apart
 * (Tangshan), the open group first. Fills out[0..*n-1] (room for `cap`,
 * XQ_REG_GROUPS_MAX is enough). Returns XQ_OK, XQ_EINVAL (NULL argument,
 * unknown regulation) or XQ_ELIMIT (cap too small), `err` (may be NULL)
 * set; out[] is untouched on failure. */
int xq_regulation_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n,
                         xq_error *err);

/* The regulation of an event by its title (`tourney new --preset`
 * names the event with the regulation's title, and a group's own event
 * with the title, a space and the group's name): *r, and in *group (may
 * be NULL) the group whose own event it is (xq_tgroup.apart), zeroed for
 * the open event. Returns XQ_OK, or XQ_EINVAL (no regulation's title,
 * *r NULL). entry.c. */
int xq_regulation_event_group(const char *title, const xq_regulation **r, xq_tgroup *group);

/* The age limit of entry regulation `r` states (Burqin 四(一) 年龄要求70周岁
 *以下): 1 with *born_from (YYYY/MM/DD: born on or after it) and *clause
 * (either may be NULL); 0 when it states none. regulation_data.c. */
int xq_regulation_age_limit(const xq_regulation *r, const char **born_from, const char **clause);

/* May player `p` enter the event titled `title`? Refused (XQ_EINVAL,
 * `err` saying why and which event he belongs to) when he is of a group
 * that plays an event of its own and this is not it, or this is a
 * group's own event and he is not of it. Entered with a warning in warn
 * (wlen bytes; "" when none) when his birth date is missing where the
 * regulation's groups go by birth date, when it puts him in no group, or
 * when he is older than the regulation's age limit (xq_regulation_age_limit).
 * An event of no regulation takes everyone. Returns XQ_OK or XQ_EINVAL. */
int xq_regulation_entry(const char *title, const xq_tplayer *p, char *warn, size_t wlen, xq_error *err);

/* Is a player registered after `registered` others past the entry limit
 * of the regulation whose title the event bears (`tourney new --preset`:
 * Xinjiang 150, Shaanxi 100, Tangshan 180)? Returns 1 and says so in warn
 * (wlen bytes) when he is; 0, warn untouched, when he is not or the event
 * has no regulation or its regulation no limit. The limit is the whole
 * regulation's: a group's own event is not counted against it here. */
int xq_regulation_entry_count(const char *title, int registered, char *warn, size_t wlen);

/* How regulation `r` ranks teams: *mode (xq_team_mode) and *counted (the
 * players counted per team; 0 when the regulation has no team
 * competition). Returns XQ_OK, or XQ_EINVAL for a NULL argument. */
int xq_regulation_teams(const xq_regulation *r, int *mode, int *counted);

/* The team competition of `r` in full: mode and counted as
 * xq_regulation_teams gives them, the basis (Tangshan: the Swiss), the
 * area whose players count (Burqin: 阿勒泰) and the clauses. Fills *out
 * (zeroed: counted 0 when `r` has no team competition). Returns XQ_OK or
 * XQ_EINVAL (NULL argument, unknown regulation). */
int xq_regulation_team_rule(const xq_regulation *r, xq_team_rule *out);

/* Print the groups, the team competition and the prize tables of `r` as
 * the commands use them (the three functions above), one a line, to `f`
 * under a heading (`xqref presets show`; sheet/presets.c). Returns XQ_OK;
 * XQ_EINVAL for a NULL argument or, like XQ_ENOMEM, when the tables
 * cannot be read (nothing printed, `err` (may be NULL) says so); XQ_EIO
 * when the stream failed. */
int xq_regulation_print_tables(const xq_regulation *r, FILE *f, xq_error *err);

/* ------------------------------------------------------------------ */
/* Printable lists of the final results (tourney/sheet/sheet_final.c)   */
/* ------------------------------------------------------------------ */

/* Formats: XQ_SHEET_TEXT (aligned columns, widths counted in display
 * columns, a CJK character taking two; LF line ends), XQ_SHEET_HTML (a
 * standalone HTML5 page, names escaped) and XQ_SHEET_CSV; languages
 * XQ_LANG_EN / XQ_LANG_ZH for headings. Each returns XQ_OK, XQ_EINVAL
 * (bad format, language or ids; nothing written), XQ_ENOMEM (text keeps
 * the rows until the widths are known) or XQ_EIO (write error); on a
 * failure after the start part of the output may have been written. */

/* A list of places under `title` (may be NULL): ids[0..n-1] in place
 * order, the row of ids[i] numbered i+1; when `overall` is non-NULL,
 * overall[i] is that player's place in the whole event and is shown in
 * its own column (group standings). Columns: place, name, region/club,
 * points, W-D-L. */
int xq_sheet_places(const xq_tournament *ev, const char *title, const int *ids,
                    const int *overall, int n, int format, int lang, FILE *f);

struct xq_ko; /* knockout.h */

/* The places of a knockout-only event (ko->after == XQ_KO_NO_SWISS, a
 * drawn bracket), as xq_sheet_places but without Swiss columns: place,
 * [overall], name, region/club, the stage reached (the last match played
 * and its outcome: "won the final", "lost in the semi-final", "in the
 * quarter-final" while undecided) and the bracket position drawn by lot.
 * `ko` is read only. Same returns, XQ_EINVAL also for a NULL `ko` or one
 * that is not knockout-only. */
int xq_sheet_ko_places(const xq_tournament *ev, const struct xq_ko *ko, const char *title, const int *ids,
                       const int *overall, int n, int format, int lang, FILE *f);

/* The standings of every group of groups[0..ng-1] (ng at most
 * XQ_REG_GROUPS_MAX) as one sheet: per group its members
 * (xq_group_match) in final-place order (`places`: ids, ev->n, as
 * xq_final_places gives them) with their overall place, titled "NAME
 * (k)"; a group with `sections` as a men's and a women's list, or one
 * merged list when the women are fewer than XQ_WOMEN_SECTION_MIN
 * (xq_group_sections), the title saying so (a group without women: one
 * list). Returns XQ_OK, XQ_EINVAL,
 * XQ_ENOMEM or XQ_EIO. */
int xq_sheet_groups(const xq_tournament *ev, const int *places, const xq_tgroup *groups, int ng,
                    int format, int lang, FILE *f);

/* Team standings rows[0..n-1] of xq_team_standings() (mode as given to
 * it): rank, team, value (Σ places or points), best place, members. */
int xq_sheet_teams(const xq_tournament *ev, const xq_team_row *rows, int n, int mode,
                   int format, int lang, FILE *f);

/* The prize list aw[0..n-1] of xq_prizes_award() over table `t`:
 * category, place in it, final place, name, amount, with each
 * category's total and the grand total. */
int xq_sheet_prizes(const xq_tournament *ev, const xq_prize_table *t, const xq_award *aw,
                    int n, int format, int lang, FILE *f);

/* ------------------------------------------------------------------ */
/* The same as plain listings (tourney/sheet/listing_final.c)           */
/* ------------------------------------------------------------------ */

/* What `xqref tourney places|teams|prizes` print without --format: one
 * line a row, English, each heading line ending in " (provisional)" when
 * `provisional` is set (the knockout is not decided). Each returns
 * XQ_OK, XQ_EINVAL (a NULL argument; nothing written) or XQ_EIO (write
 * error). */

/* The listings name each player by his number, the 序号 once numbers are
 * given (xq_tplayer_no: as the pairing sheets and standings do), never
 * the registration id. */

/* The final places ids[0..ev->n-1]: place, number, name and the Swiss points
 * with the knockout seed of a player who had one; for a knockout-only
 * event (ko->after == XQ_KO_NO_SWISS) the stage reached and the bracket
 * position instead. `ko` NULL: no knockout (the Swiss order alone). A
 * place the drawing of lots decided (xq_tstanding.by_lot) is marked "(by
 * lot)", and a last line gives the lot's seed and method. */
int xq_list_places(const xq_tournament *ev, const struct xq_ko *ko, const int *ids, int provisional, FILE *f);

/* Team standings rows[0..n-1] of xq_team_standings() over `ev` under
 * `mode` with `counted` players a team: rank ("-" when not ranked),
 * value, best place, team, members' numbers and the team prize. */
int xq_list_teams(const xq_tournament *ev, const xq_team_row *rows, int n, int mode, int counted, int provisional,
                  FILE *f);

/* The prize list aw[0..n-1] of xq_prizes_award() over table `t`:
 * category, place in it, final place, number, name, amount; the total, a
 * note for each list of a group that plays apart, and a warning for each
 * player without a birth date where a list goes by birth date. */
int xq_list_prizes(const xq_tournament *ev, const xq_prize_table *t, const xq_award *aw, int n, int provisional,
                   FILE *f);

#endif /* XQ_PRIZE_H */
