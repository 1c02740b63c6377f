/*
 * listing_final.c -- the plain listings of the final stage as `xqref
 * tourney` prints them, in English: the knockout bracket with its games
 * and the next game of each match, a knockout game just recorded, the
 * final places, the team standings and the prize list (the sheets of the
 * same, in text, HTML or CSV: sheet_final.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../tourney_internal.h"
#include "knockout.h"
#include "prize.h"
#include "sheet_internal.h"

static const char *pname(const xq_tournament *ev, int id)
{
  return id >= 1 && id <= ev->n ? ev->players[id - 1].name : "?";
}

/* The number a listing gives player `id`: his 序号 once numbers are given,
 * as the pairing sheets, standings and --player say (xq_tplayer_no), 0
 * for none. */
static int pno(const xq_tournament *ev, int id) { return id >= 1 ? xq_tplayer_no(ev, id) : 0; }

static int done(FILE *f) { return ferror(f) ? XQ_EIO : XQ_OK; }

static const char *prov_text(int p) { return p ? " (provisional)" : ""; }

/* ------------------------------------------------------------------ */
/* The knockout                                                        */
/* ------------------------------------------------------------------ */

/* The colours of the next game: those drawn at the table
 * (xq_ko_red_drawn: the armageddon, Xinjiang 九(二) 抽签决定先后手,
 * Tangshan 八.3 第1名决定…超快棋先后手; Wujiaqu's first stage 九(一); the
 * village final) are entered with --red, so none is printed for them. */
static void next_colours(FILE *f, const xq_tournament *ev, const xq_ko *ko, const xq_ko_game *next)
{
  if (xq_ko_red_drawn(ko, next)) fprintf(f, "colours drawn or chosen at the table (--red NO)\n");
  else fprintf(f, "red %d black %d\n", pno(ev, next->red), pno(ev, next->black));
}

/* The games of match m, then its winner, the game in play at a table of
 * the live server, or the next game. */
static void match_games(FILE *f, const xq_tournament *ev, const xq_ko *ko, int m)
{
  int k = 0;
  for (int i = 0; i < ko->ngames; i++) {
    const xq_ko_game *g = &ko->games[i];
    if (g->match != m) continue;
    fprintf(f, "  game %d %-10s %-9s red %d black %d  %s%s\n", ++k, xq_ko_gtype_name(g->type),
            xq_ko_game_time_control(ko, m, g->type), pno(ev, g->red), pno(ev, g->black), g->res > 0 ? "1-0" : g->res < 0 ? "0-1" : "=",
            !g->res && g->type == XQ_KG_ARMAGEDDON ? " (draw: Black wins)" : "");
  }
  int w = xq_ko_winner(ko, m), t = xq_ko_in_play(ko, m);
  xq_ko_game next;
  if (w) fprintf(f, "  winner: %s (%d)\n", pname(ev, w), pno(ev, w));
  else if (t) /* published to the live server: its result comes from there */
    fprintf(f, "  playing: game %d %s %s, red %d black %d at knockout table %d (round %d)\n", k + 1,
            xq_ko_gtype_name(ko->tables[t - 1].type), xq_ko_game_time_control(ko, m, ko->tables[t - 1].type),
            pno(ev, ko->tables[t - 1].red), pno(ev, ko->tables[t - 1].black), t, XQ_KO_ROUND);
  else if (!xq_ko_next_game(ko, m, 0, &next)) {
    fprintf(f, "  next: game %d %s %s, ", k + 1, xq_ko_gtype_name(next.type), xq_ko_game_time_control(ko, m, next.type));
    next_colours(f, ev, ko, &next);
  }
}

int xq_list_bracket(const xq_tournament *ev, const xq_ko *ko, FILE *f)
{
  if (!ev || !ko || !f) return XQ_EINVAL;
  if (ko->after == XQ_KO_NO_SWISS)
    fprintf(f, "knockout-only event: %d entrants drawn into a bracket of %d%s, games %s\n", xq_ko_entrants(ko),
            ko->size, ko->pools > 1 ? " (a half per pool; the halves' winners meet in the final)" : "",
            xq_ko_format_name(ko->format));
  else
    fprintf(f, "knockout after round %d: top %d, seeding %s, tie-breaks %s\n", ko->after, ko->size,
            xq_ko_seeding_name(ko->seeding), xq_ko_format_name(ko->format));
  for (int m = 1; m <= xq_ko_nmatches(ko); m++) {
    int a, b, kind = xq_ko_match_players(ko, m, &a, &b);
    fprintf(f, "match %d (%s): ", m, xq__sheet_ko_match_stage(ko, m, XQ_LANG_EN));
    if (kind == 2) {
      /* a drawn bracket's bye: the player goes on without a game */
      if (a) fprintf(f, "%s (%d) has a bye\n", pname(ev, a), pno(ev, a));
      else fprintf(f, "two byes\n");
      continue;
    }
    if (kind != 1) { fprintf(f, "waiting for earlier matches\n"); continue; }
    /* #n: the seed, or in a drawn bracket the position */
    fprintf(f, "#%d %s (%d) - #%d %s (%d)\n", xq__knockout_seed(ko, a), pname(ev, a), pno(ev, a),
            xq__knockout_seed(ko, b), pname(ev, b), pno(ev, b));
    match_games(f, ev, ko, m);
  }
  return done(f);
}

int xq_list_ko_game(const xq_tournament *ev, const xq_ko *ko, const xq_ko_game *g, const char *code, FILE *f)
{
  if (!ev || !ko || !g || !code || !f) return XQ_EINVAL;
  xq_ko_game next;
  fprintf(f, "match %d %s: red %d black %d %s\n", g->match, xq_ko_gtype_name(g->type), pno(ev, g->red),
          pno(ev, g->black), code);
  int w = xq_ko_winner(ko, g->match);
  if (w) fprintf(f, "winner: %s (%d)\n", pname(ev, w), pno(ev, w));
  else if (!xq_ko_next_game(ko, g->match, 0, &next)) {
    fprintf(f, "next: %s %s, ", xq_ko_gtype_name(next.type), xq_ko_game_time_control(ko, g->match, next.type));
    next_colours(f, ev, ko, &next);
  }
  return done(f);
}

/* ------------------------------------------------------------------ */
/* Places, teams, prizes                                               */
/* ------------------------------------------------------------------ */

/* Which players the drawing of lots placed in the Swiss standings after
 * the last round ([id], malloc'd; NULL when it cannot be told). */
static uint8_t *lot_places(const xq_tournament *ev)
{
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  uint8_t *lot = calloc((size_t)ev->n + 1, 1);
  if (!s || !lot || xq_standings(ev, 0, s)) {
    free(s);
    free(lot);
    return NULL;
  }
  for (int i = 0; i < ev->n; i++) lot[s[i].id] = (uint8_t)s[i].by_lot;
  free(s);
  return lot;
}

int xq_list_places(const xq_tournament *ev, const xq_ko *ko, const int *ids, int provisional, FILE *f)
{
  if (!ev || !ids || !f) return XQ_EINVAL;
  int ko_only = ko && ko->after == XQ_KO_NO_SWISS;
  fprintf(f, "%s: final places%s\n", ev->name[0] ? ev->name : "event", prov_text(provisional));
  /* a knockout-only event has no Swiss score: the stage reached and the
   * position drawn by lot instead */
  for (int i = 0; ko_only && i < ev->n; i++) {
    char reached[64];
    int pos = xq__knockout_seed(ko, ids[i]);
    xq__sheet_ko_reached(reached, sizeof reached, ko, ids[i], XQ_LANG_EN);
    fprintf(f, "%4d %4d  %s  %s", i + 1, pno(ev, ids[i]), pname(ev, ids[i]), reached);
    if (pos) fprintf(f, "  (bracket position %d)", pos);
    fputc('\n', f);
  }
  uint8_t *lot = ko_only ? NULL : lot_places(ev);
  int by_lot = 0;
  for (int i = 0; !ko_only && i < ev->n; i++) {
    int pts = xq_tournament_points(ev, ids[i], XQ_TOURNEY_ROUNDS_MAX);
    int seed = ko && ko->after ? xq__knockout_seed(ko, ids[i]) : 0;
    fprintf(f, "%4d %4d  %s  %d%s", i + 1, pno(ev, ids[i]), pname(ev, ids[i]), pts / 2, pts % 2 ? ".5" : "");
    if (seed) fprintf(f, "  (KO seed %d)", seed);
    else if (lot && lot[ids[i]]) fprintf(f, "  (by lot)"), by_lot = 1;
    fputc('\n', f);
  }
  if (by_lot)
    fprintf(f, "(by lot: tied on every tie-break before LOT, 不并列; the lot: seed %llu, each player draws "
            "mix64(seed ^ mix64(number + 1)) (SplitMix64), the lowest draw first)\n",
            (unsigned long long)ev->cfg.lot_seed);
  free(lot);
  return done(f);
}

int xq_list_teams(const xq_tournament *ev, const xq_team_row *rows, int n, int mode, int counted, int provisional,
                  FILE *f)
{
  if (!ev || (!rows && n) || !f) return XQ_EINVAL;
  fprintf(f, "team standings by %s, %d counted%s\n", mode == XQ_TEAM_RANK_SUM ? "sum of places" : "sum of points",
          counted, prov_text(provisional));
  for (int i = 0; i < n; i++) {
    const xq_team_row *r = &rows[i];
    if (r->rank) fprintf(f, "%4d  ", r->rank);
    else fprintf(f, "   -  ");
    if (mode == XQ_TEAM_RANK_SUM) fprintf(f, "%6lld", (long long)r->value);
    else fprintf(f, "%4lld%s", (long long)(r->value / 2), r->value % 2 ? ".5" : "  ");
    fprintf(f, "  best %3d  %s:", r->best, r->team);
    for (int k = 0; k < r->nmembers; k++) fprintf(f, " %d", pno(ev, r->members[k]));
    if (r->amount) fprintf(f, "  prize %d", r->amount);
    if (r->unit[0]) fprintf(f, "  [%s]", r->unit);
    fprintf(f, "%s\n", r->rank ? "" : "  (too few players)");
    for (int k = 0; k < r->nleft; k++) /* Xinjiang 十(一) 以地州市为单位 */
      fprintf(f, "      not counted: %d %s (region \"%s\": %s)\n", pno(ev, r->left[k]), pname(ev, r->left[k]),
              ev->players[r->left[k] - 1].region, r->left_why[k] == 'o' ? "another prefecture than the team's"
              : "within no prefecture (地州市)");
  }
  return done(f);
}

/* A warning for each player without a birth date where a list of `t`
 * goes by birth date: he can win none of those lists' prizes. */
static void undated(const xq_tournament *ev, const xq_prize_table *t, FILE *f)
{
  int dated = -1;
  for (int i = 0; i < t->ncats && dated < 0; i++)
    if (t->cats[i].group.born_from[0] || t->cats[i].group.born_to[0]) dated = i;
  if (dated < 0) return;
  for (int id = 1; id <= ev->n; id++)
    if (!ev->players[id - 1].birth[0])
      fprintf(f, "warning: %d %s has no birth date, so no prize of \"%s\" or another list by birth date\n",
              pno(ev, id), pname(ev, id), t->cats[dated].name);
}

int xq_list_prizes(const xq_tournament *ev, const xq_prize_table *t, const xq_award *aw, int n, int provisional,
                   FILE *f)
{
  if (!ev || !t || (!aw && n) || !f) return XQ_EINVAL;
  long total = 0;
  fprintf(f, "prizes%s\n", prov_text(provisional));
  /* Wujiaqu 十: a total and no table */
  if (!t->ncats && t->stated_total) fprintf(f, "the regulation states a total of %ld and no table\n", t->stated_total);
  for (int i = 0; i < n; i++) {
    char cat[XQ_TOURNEY_FIELD_MAX + 16];
    snprintf(cat, sizeof cat, "%s%s", aw[i].cat < 0 ? "lucky" : t->cats[aw[i].cat].name,
             aw[i].section == 'w' ? " 女子 women" : aw[i].section == 'm' ? " 男子 men" : "");
    fprintf(f, "%-12s %4d  place %4d  %4d %s  %d\n", cat, aw[i].cat_place, aw[i].place, pno(ev, aw[i].id),
            pname(ev, aw[i].id), aw[i].amount);
    total += aw[i].amount;
  }
  fprintf(f, "total %ld\n", total);
  for (int i = 0; i < t->ncats; i++)
    if (t->cats[i].apart)
      fprintf(f, "(\"%s\" is the list of a group that plays apart: --group \"%s\" over its own event)\n",
              t->cats[i].name, t->cats[i].name);
  undated(ev, t, f);
  return done(f);
}
