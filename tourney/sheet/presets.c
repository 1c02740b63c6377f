/*
 * presets.c -- the regulation presets (regulation.c, regulation_data.c)
 * as text, the way `xqref presets` prints them: the list, one preset's
 * rows with the clause each comes from, the groups, team competition and
 * prize tables the commands use, and its knockout-only sub-event. The
 * rules of play of a preset are the adjudicator's and printed by the
 * command line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../tourney_internal.h"
#include "knockout.h"
#include "prize.h"
#include "region.h"

int xq_regulation_list(FILE *f)
{
  const xq_regulation *r;
  if (!f) return XQ_EINVAL;
  for (int i = 0; (r = xq_regulation_at(i)); i++) fprintf(f, "%-14s %d  %s\n", r->name, r->year, r->title);
  return ferror(f) ? XQ_EIO : XQ_OK;
}

int xq_regulation_print(const xq_regulation *r, FILE *f)
{
  if (!r || !f) return XQ_EINVAL;
  fprintf(f, "%s: %s, %d\n", r->name, r->title, r->year);
  fprintf(f, "original text: %s\n\n", r->file);
  for (int i = 0; i < XQ_REG_NROWS; i++) {
    fprintf(f, "%-22s %s\n", xq_regulation_row_name(i), r->rows[i].value);
    fprintf(f, "%-22s   [%s]\n", "", r->rows[i].clause);
  }
  return ferror(f) ? XQ_EIO : XQ_OK;
}

/* Amounts by place as runs: "1 5000, 2 2000, 7-8 400". */
static void print_runs(FILE *f, const int *amount, int n)
{
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && amount[j + 1] == amount[i]) j++;
    if (j > i) fprintf(f, "%s%d-%d %d", i ? ", " : "", i + 1, j + 1, amount[i]);
    else fprintf(f, "%s%d %d", i ? ", " : "", i + 1, amount[i]);
    i = j + 1;
  }
  fputc('\n', f);
}

static void print_groups(FILE *f, const xq_tgroup *g, int ng)
{
  for (int i = 0; i < ng; i++) {
    fprintf(f, "group  %s", g[i].name);
    if (g[i].born_from[0] || g[i].born_to[0]) fprintf(f, ", born %s..%s", g[i].born_from, g[i].born_to);
    if (g[i].sex) fprintf(f, ", %s only", g[i].sex == 'w' ? "women" : "men");
    if (g[i].local_only) fprintf(f, ", local players");
    if (g[i].sections) fprintf(f, ", men and women ranked apart (women < %d: merged)", XQ_WOMEN_SECTION_MIN);
    if (g[i].apart) fprintf(f, ", plays its own event (tourney new --group, simulate --group)");
    fputc('\n', f);
  }
}

/* Who is eligible for `pc` and why (the clause), under its prize line. */
static void print_who(FILE *f, const xq_prize_cat *pc, int cap_pct)
{
  char who[600];
  xq_prize_eligibility(pc, who, sizeof who);
  fprintf(f, "       eligible: %s", who);
  if (cap_pct) fprintf(f, "; at most %d%% of them placed", cap_pct);
  if (pc->apart) fprintf(f, "; over the group's own event (--group)");
  fputc('\n', f);
  if (pc->clause) fprintf(f, "       [%s]\n", pc->clause);
}

static void print_prizes(FILE *f, const xq_prize_table *t)
{
  static const char *const filters[] = {"everyone", "local players", "region", "born"};
  for (int c = 0; c < t->ncats; c++) {
    const xq_prize_cat *pc = &t->cats[c];
    fprintf(f, "prize  %s (%s%s%s%s%s): ", pc->name, filters[pc->filter], pc->filter == XQ_PF_REGION ? " " : "",
            pc->region, pc->repeat ? ", won on top of another" : "", pc->apart ? ", its own event" : "");
    int paid = 0;
    for (int i = 0; i < pc->nplaces; i++) paid |= pc->amount[i] != 0;
    if (paid) print_runs(f, pc->amount, pc->nplaces);
    else fprintf(f, "places 1-%d, amounts not stated\n", pc->nplaces); /* Xinjiang's juniors: 另发细则 */
    print_who(f, pc, t->cap_pct);
  }
  if (t->cap_pct) fprintf(f, "cap    at most %d%% of a category's members\n", t->cap_pct);
  for (int i = 0; i < t->nshare; i++)
    fprintf(f, "shared places %d-%d: their prizes pooled and split equally\n", t->share_first[i], t->share_last[i]);
  if (t->lucky_amount) {
    fprintf(f, "lucky  places %d, %d, ...", t->lucky_start, t->lucky_start + t->lucky_step);
    if (t->lucky_last) fprintf(f, " %d", t->lucky_last);
    fprintf(f, ": %d each%s\n", t->lucky_amount, t->lucky_active ? ", active players only" : "");
  }
  if (t->nteam) {
    fprintf(f, "team prizes  ");
    print_runs(f, t->team_amount, t->nteam);
  }
  if (t->stated_total) fprintf(f, "stated total  %ld%s\n", t->stated_total, t->ncats ? "" : " (no table given)");
}

static void print_teams(FILE *f, const xq_regulation *r, int mode, int counted)
{
  xq_team_rule rule;
  if (!counted || xq_regulation_team_rule(r, &rule)) {
    fprintf(f, "teams  none\n");
    return;
  }
  fprintf(f, "teams  %d counted, sum of %s\n", counted, mode == XQ_TEAM_RANK_SUM ? "places, lower first"
                                                                              : "points, higher first");
  char places[400] = "";
  int k = rule.area[0] ? xq_region_places(rule.area, places, sizeof places) : 0;
  fprintf(f, "       eligible: %s%s%s%s%s; on the %s\n", rule.area[0] ? "players of a region within " : "any team",
          rule.area, k ? " (" : "", places, k ? ", and the places within them)" : "",
          rule.basis == XQ_TEAM_BASIS_SWISS ? "Swiss standings (预赛), not the final places" : "final places");
  if (rule.clause) fprintf(f, "       [%s]\n", rule.clause);
}

/* The readings the preset takes and the others (`simulate --option`). */
static void print_options(FILE *f, const xq_regulation *r)
{
  const xq_reg_option *o = xq_regulation_option_at(r, 0);
  if (!o) return;
  fprintf(f, "\noptions: readings the text leaves open (`xqref simulate --option KEY=VALUE`; docs/presets.md):\n\n");
  for (int i = 0; (o = xq_regulation_option_at(r, i)); i++) {
    fprintf(f, "option %s\n       [%s]\n", o->key, o->clause);
    for (int v = 0; v < XQ_REG_OPTION_VALUES_MAX && o->values[v]; v++)
      fprintf(f, "       %s=%s%s: %s\n", o->key, o->values[v], v == (int)r->opt[i] ? " (chosen)" : "",
              o->meaning[v]);
    if (o->rules_key) fprintf(f, "       (the rules of play's %s)\n", o->rules_key);
  }
}

int xq_regulation_print_tables(const xq_regulation *r, FILE *f, xq_error *err)
{
  if (!r || !f) return XQ_EINVAL;
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  xq_prize_table *t = malloc(sizeof *t);
  int ng = 0, mode = 0, counted = 0;
  if (!t || xq_regulation_groups(r, g, XQ_REG_GROUPS_MAX, &ng, NULL) ||
      xq_regulation_teams(r, &mode, &counted) || xq_regulation_prizes(r, 0, t, NULL)) {
    int rc = t ? XQ_EINVAL : XQ_ENOMEM;
    free(t);
    return xq__error(err, rc, "cannot read the tables of '%.100s'", r->name);
  }
  fprintf(f, "\ngroups, teams and prizes (`xqref tourney groups|teams|prizes --preset %s`):\n\n", r->name);
  print_groups(f, g, ng);
  print_teams(f, r, mode, counted);
  print_prizes(f, t);
  if (!xq_regulation_honours(r, t, NULL) && t->ncats) {
    fprintf(f, "\ntitles and qualification (no money; `xqref simulate` lists them):\n\n");
    for (int c = 0; c < t->ncats; c++) {
      fprintf(f, "honour %s: 1st %s, places 1-%d qualify\n", t->cats[c].name,
              t->cats[c].title ? t->cats[c].title : "-", t->cats[c].nplaces);
      xq_prize_cat h = t->cats[c];
      h.repeat = 0; /* whatever else the player won */
      print_who(f, &h, 0);
    }
  }
  free(t);
  print_options(f, r);
  return ferror(f) ? XQ_EIO : XQ_OK;
}

int xq_ko_event_print(const xq_regulation *r, FILE *f)
{
  const xq_ko_event *e;
  int format = 0;
  if (xq_regulation_ko_event(r, NULL, &e) != XQ_OK) return XQ_OK;
  xq_ko_parse_format(e->format, &format);
  fprintf(f, "\nknockout-only sub-event %s (`xqref simulate --preset %s --group %s`):\n\n", e->name, r->name,
          e->key);
  fprintf(f, "entry       free, by record; %d entrants when simulated\n            %s\n", e->entrants_default,
          e->entry_clause);
  fprintf(f, "bracket     positions by lot, byes to a power of two; %d pools (", e->pools);
  for (int p = 0; p < e->pools; p++) fprintf(f, "%s%s", p ? ", " : "", e->pool_names[p]);
  fprintf(f, "), a half each: each pool's knockout, then its winners' final\n");
  /* the final's own clock: match 1 of a bracket of two is a final */
  xq_ko *two = calloc(1, sizeof *two);
  if (!two) return XQ_ENOMEM;
  two->size = 2;
  two->format = format;
  fprintf(f, "games       format %s: standard %s; final %s, colours by lot; draw -> swapped %s; draw -> "
          "armageddon %s, colours by lot, a draw is a Black win\n            %s\n", e->format,
          xq_ko_time_control(format, XQ_KG_STANDARD), xq_ko_game_time_control(two, 1, XQ_KG_STANDARD),
          xq_ko_time_control(format, XQ_KG_RAPID), xq_ko_time_control(format, XQ_KG_ARMAGEDDON), e->format_clause);
  free(two);
  fprintf(f, "places      a pool's: by the stage lost in, then the place of the player who won (no 3rd-place match)\n");
  fprintf(f, "prizes      each pool:");
  for (int i = 0; i < e->nplaces; i++) fprintf(f, "%s %d %d", i ? "," : "", i + 1, e->amount[i]);
  fprintf(f, "\n            %s\n", e->prize_clause);
  if (e->final_bonus) fprintf(f, "king        +%d to the final's winner\n            %s\n", e->final_bonus, e->bonus_clause);
  return ferror(f) ? XQ_EIO : XQ_OK;
}
