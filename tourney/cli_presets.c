/*
 * cli_presets.c -- `xqref presets`: the regulation presets (regulation.c)
 * and, for one of them, every value with the clause it comes from,
 * including the rules of play of its adjudicator preset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "knockout.h"
#include "prize.h"
#include "tourney.h"

#define PRESETS_KEY_MAX 64    /* longest rules key printed */
#define PRESETS_VALUE_MAX 64  /* longest rules value printed */

static const char usage_text[] =
  "usage: xqref presets              list the regulation presets\n"
  "       xqref presets show NAME    every value of NAME with the clause it comes from\n"
  "\n"
  "A preset is one real regulation (docs/presets.md): the event's own rows\n"
  "(rounds, time controls, knockout, tie-breaks, groups, prizes, ...) and the\n"
  "rules of play of the adjudicator preset of the same name (`judge --rules`).\n";

static void print_item(const char *name, const xq_reg_item *it)
{
  printf("%-22s %s\n", name, it->value);
  printf("%-22s   [%s]\n", "", it->clause);
}

/* Copy the JSON token at *p (a string without escapes, a number, true or
 * false) into buf, advancing *p past it. Returns 0, or -1 when the text
 * is not the flat object xq_rules_to_json writes. */
static int json_token(const char **p, char *buf, size_t len)
{
  const char *s = *p;
  size_t n = 0;
  if (*s == '"') {
    s++;
    while (*s && *s != '"') {
      if (*s == '\\' || n + 1 >= len) return -1;
      buf[n++] = *s++;
    }
    if (*s != '"') return -1;
    s++;
  } else {
    while (*s && *s != ',' && *s != '}') {
      if (n + 1 >= len) return -1;
      buf[n++] = *s++;
    }
  }
  buf[n] = '\0';
  *p = s;
  return n ? 0 : -1;
}

/* The rules of play of adjudicator preset `preset`, one field a line, with
 * the regulation's clause or the rule book it falls back on. */
static int print_rules(const char *preset, const xq_reg_item *book_row)
{
  xq_rules rules;
  if (xq_rules_preset(preset, &rules) != XQ_OK) {
    fprintf(stderr, "xqref presets: no rules preset '%s'\n", preset);
    return 1;
  }
  char *json = xq_rules_to_json(&rules);
  if (!json) {
    fprintf(stderr, "xqref presets: out of memory\n");
    return 1;
  }
  const char *book = rules.ruleset == XQ_RULESET_CXA2020 ? "CXA 2020" : "CXA 2011";
  int rc = 0;
  const char *p = json;
  if (*p++ != '{') rc = 1;
  while (!rc && *p && *p != '}') {
    char key[PRESETS_KEY_MAX], value[PRESETS_VALUE_MAX];
    if (json_token(&p, key, sizeof key) || *p++ != ':' || json_token(&p, value, sizeof value)) {
      rc = 1;
      break;
    }
    if (*p == ',') p++;
    if (!strcmp(key, "name")) continue;
    const char *clause = xq_rules_preset_clause(preset, key);
    if (!clause && !strcmp(key, "ruleset")) clause = book_row->clause;
    printf("%-28s %s\n", key, value);
    if (clause)
      printf("%-28s   [%s]\n", "", clause);
    else
      printf("%-28s   [not stated: %s default]\n", "", book);
  }
  if (rc) fprintf(stderr, "xqref presets: cannot read the rules of '%s'\n", preset);
  free(json);
  return rc;
}

/* Amounts by place as runs: "1 5000, 2 2000, 7-8 400". */
static void print_runs(const int *amount, int n)
{
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && amount[j + 1] == amount[i]) j++;
    if (j > i) printf("%s%d-%d %d", i ? ", " : "", i + 1, j + 1, amount[i]);
    else printf("%s%d %d", i ? ", " : "", i + 1, amount[i]);
    i = j + 1;
  }
  putchar('\n');
}

/* The groups, the team competition and the prize table of `r` as the
 * commands use them (regulation_data.c). */
static int print_data(const xq_regulation *r)
{
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  xq_prize_table *t = malloc(sizeof *t);
  int ng = 0, mode = 0, counted = 0;
  if (!t || xq_regulation_groups(r, g, XQ_REG_GROUPS_MAX, &ng, NULL) ||
      xq_regulation_teams(r, &mode, &counted) || xq_regulation_prizes(r, 0, t, NULL)) {
    free(t);
    fprintf(stderr, "xqref presets: cannot read the tables of '%s'\n", r->name);
    return 1;
  }
  printf("\ngroups, teams and prizes (`xqref tourney groups|teams|prizes --preset %s`):\n\n", r->name);
  for (int i = 0; i < ng; i++) {
    printf("group  %s", g[i].name);
    if (g[i].born_from[0] || g[i].born_to[0]) printf(", born %s..%s", g[i].born_from, g[i].born_to);
    if (g[i].sex) printf(", %s only", g[i].sex == 'w' ? "women" : "men");
    if (g[i].local_only) printf(", local players");
    if (g[i].sections) printf(", men and women ranked apart (women < %d: merged)", XQ_WOMEN_SECTION_MIN);
    putchar('\n');
  }
  if (counted)
    printf("teams  %d counted, sum of %s\n", counted, mode == XQ_TEAM_RANK_SUM ? "places, lower first"
                                                                             : "points, higher first");
  else
    printf("teams  none\n");
  static const char *const filters[] = {"everyone", "local players", "region", "born"};
  for (int c = 0; c < t->ncats; c++) {
    const xq_prize_cat *pc = &t->cats[c];
    printf("prize  %s (%s%s%s%s%s): ", pc->name, filters[pc->filter], pc->filter == XQ_PF_REGION ? " " : "",
           pc->region, pc->repeat ? ", won on top of another" : "", pc->apart ? ", its own event" : "");
    print_runs(pc->amount, pc->nplaces);
  }
  if (t->cap_pct) printf("cap    at most %d%% of a category's members\n", t->cap_pct);
  if (t->lucky_amount) {
    printf("lucky  places %d, %d, ...", t->lucky_start, t->lucky_start + t->lucky_step);
    if (t->lucky_last) printf(" %d", t->lucky_last);
    printf(": %d each%s\n", t->lucky_amount, t->lucky_active ? ", active players only" : "");
  }
  if (t->nteam) {
    printf("team prizes  ");
    print_runs(t->team_amount, t->nteam);
  }
  if (t->stated_total) printf("stated total  %ld%s\n", t->stated_total, t->ncats ? "" : " (no table given)");
  free(t);
  return xq_ko_event_print(r, stdout) ? 1 : 0; /* a knockout-only sub-event (knockout.h) */
}

static int show(const char *name)
{
  const xq_regulation *r;
  if (xq_regulation_find(name, &r) != XQ_OK) {
    fprintf(stderr, "xqref presets: unknown preset '%s' (xqref presets lists them)\n", name);
    return 1;
  }
  printf("%s: %s, %d\n", r->name, r->title, r->year);
  printf("original text: %s\n\n", r->file);
  for (int i = 0; i < XQ_REG_NROWS; i++) print_item(xq_regulation_row_name(i), &r->rows[i]);
  printf("\nrules of play (adjudicator preset %s; `xqref judge --rules %s`):\n\n", r->rules_preset,
         r->rules_preset);
  int rc = print_rules(r->rules_preset, &r->rows[XQ_REG_RULE_BOOK]);
  if (!rc) rc = print_data(r);
  if (fflush(stdout) != 0) rc = 1;
  return rc;
}

int xq_presets_main(int argc, char **argv)
{
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (argc == 1) {
    const xq_regulation *r;
    for (int i = 0; (r = xq_regulation_at(i)); i++) printf("%-14s %d  %s\n", r->name, r->year, r->title);
    return fflush(stdout) == 0 ? 0 : 1;
  }
  if (argc == 3 && !strcmp(argv[1], "show")) return show(argv[2]);
  fputs(usage_text, stderr);
  return 2;
}
