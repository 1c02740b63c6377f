/*
 * tourney_final.c -- the `xqref tourney` actions of the results: places,
 * teams, prizes and groups, as the plain listing or as a sheet (--format
 * text|html|csv, --lang en|zh), with a prize table file or a regulation
 * preset's own tables (docs/tourney.md, docs/presets.md); and where a
 * sheet goes, for these and for `tourney export`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knockout.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "tourney.h"
#include "tourney_cli.h"


/* What every action loads: the event, its final places and the options. */
typedef struct ctx {
  const xq__topts *o;
  const char *action;
  xq_tstore *st;
  xq_tournament *ev;
  xq_ko ko;
  int *ids;                 /* final places (or the Swiss order with --swiss) */
  int complete;             /* the knockout is decided */
  const xq_regulation *r;   /* --preset (reg, with the --option readings), NULL when not given */
  xq_regulation reg;
  int format;               /* XQ_SHEET_*, -1 = the plain listing */
  int lang;
  FILE *out;                /* the sheet's stream: --out FILE (w's) or stdout */
  xq__paths_out w;
} ctx;

int xq__tourney_final_sheet_out(const char *cmd, const char *out, int format, xq__paths_out *w)
{
  if (!out && format == XQ_SHEET_XLSX && isatty(fileno(stdout))) {
    fprintf(stderr, "xqref %s: --format xlsx writes a binary workbook: give --out FILE or redirect stdout\n", cmd);
    return 2;
  }
  return xq__paths_open(cmd, out ? out : "-", w);
}

static int usage(const ctx *c, const char *msg)
{
  fprintf(stderr, "xqref tourney %s: %s\n", c->action, msg);
  return 2;
}

/* Check the options, open the store, compute the places. 0, 1 or 2. */
static int setup(ctx *c, const xq__topts *o, const char *action)
{
  memset(c, 0, sizeof *c);
  c->o = o;
  c->action = action;
  c->format = -1;
  c->lang = XQ_LANG_EN;
  if (o->format) {
    c->format = xq_sheet_format_parse(o->format);
    if (c->format != XQ_SHEET_TEXT && c->format != XQ_SHEET_HTML && c->format != XQ_SHEET_CSV &&
        c->format != XQ_SHEET_XLSX)
      return usage(c, "--format is text, html, csv or xlsx");
  }
  if (o->lang && (c->lang = xq_sheet_lang_parse(o->lang)) < 0) return usage(c, "--lang is en or zh");
  if (o->lang && c->format < 0) return usage(c, "--lang needs --format text|html|csv|xlsx");
  if (o->out && c->format < 0) return usage(c, "--out needs --format text|html|csv|xlsx");
  c->out = stdout;
  if (c->format == XQ_SHEET_XLSX && !o->out && isatty(fileno(stdout)))
    return usage(c, "--format xlsx writes a binary workbook: give --out FILE or redirect stdout");
  if (o->preset && xq_regulation_find(o->preset, &c->r)) {
    fprintf(stderr, "xqref tourney %s: no preset '%s' (xqref presets lists them)\n", action, o->preset);
    return 2;
  }
  if (o->noptions && !c->r) return usage(c, "--option needs --preset NAME");
  if (c->r) {
    c->reg = *c->r;
    c->r = &c->reg;
  }
  for (int i = 0; i < o->noptions; i++) {
    xq_error e = {0};
    if (xq_regulation_option_set(&c->reg, o->options[i], &e)) return usage(c, e.msg);
  }
  if (o->out) {
    char cmd[64];
    snprintf(cmd, sizeof cmd, "tourney %s", action);
    int rc = xq__tourney_final_sheet_out(cmd, o->out, c->format, &c->w);
    if (rc) return rc;
    c->out = c->w.f;
  }
  if (xq__tourney_ko_open(o, &c->st, &c->ev, &c->ko)) {
    c->st = NULL; /* closed already */
    c->ev = NULL;
    return 1;
  }
  c->ids = malloc(sizeof *c->ids * (size_t)(c->ev->n ? c->ev->n : 1));
  xq_ko none;
  memset(&none, 0, sizeof none);
  c->complete = 1;
  if (c->ko.after && !o->swiss) {
    int tmp[XQ_KO_SIZE_MAX];
    c->complete = xq_ko_places(&c->ko, tmp) == 1;
  }
  if (!c->ids || xq_final_places(c->ev, o->swiss ? &none : &c->ko, c->ids)) {
    fprintf(stderr, "xqref tourney %s: cannot compute the places\n", action);
    return 1;
  }
  return 0;
}

static void teardown(ctx *c)
{
  xq__paths_close(&c->w, 0); /* a sheet not finished: the old file stays */
  free(c->ids);
  xq_tournament_free(c->ev);
  if (c->st) xq_tstore_close(c->st);
}

/* The sheet's status as the command's: 0, or 1 with a message. */
static int sheet_done(ctx *c, int rc)
{
  if (c->out != stdout) {
    if (xq__paths_close(&c->w, !rc)) return 1;
    c->out = NULL;
  } else if (fflush(stdout) && !rc) {
    rc = XQ_EIO;
  }
  if (!rc) return 0;
  fprintf(stderr, "xqref tourney %s: %s%s%s%s\n", c->action, c->o->out ? c->o->out : "", c->o->out ? ": " : "",
          rc == XQ_EIO && c->format == XQ_SHEET_XLSX ? "cannot write the workbook: " : "", xq_strerror(rc));
  return 1;
}

static const char *provisional(const ctx *c)
{
  if (c->complete) return "";
  return c->lang == XQ_LANG_ZH && c->format >= 0 ? "（暂定）" : " (provisional)";
}

/* ------------------------------------------------------------------ */
/* places                                                              */
/* ------------------------------------------------------------------ */

static int cmd_places(ctx *c)
{
  const xq_tournament *ev = c->ev;
  int ko_only = c->ko.after == XQ_KO_NO_SWISS && !c->o->swiss;
  if (c->format >= 0) {
    char title[64];
    snprintf(title, sizeof title, "%s%s", c->lang == XQ_LANG_ZH ? "最终名次" : "Final places", provisional(c));
    if (ko_only)
      return sheet_done(c, xq_sheet_ko_places(ev, &c->ko, title, c->ids, NULL, ev->n, c->format, c->lang, c->out));
    return sheet_done(c, xq_sheet_places(ev, title, c->ids, NULL, ev->n, c->format, c->lang, c->out));
  }
  xq_list_places(ev, c->o->swiss ? NULL : &c->ko, c->ids, !c->complete, stdout);
  return 0;
}

/* ------------------------------------------------------------------ */
/* teams                                                               */
/* ------------------------------------------------------------------ */

static int cmd_teams(ctx *c)
{
  const xq__topts *o = c->o;
  int mode = o->mode, nt = 0;
  xq_prize_table *t = NULL;
  xq_error err = {0};
  if (c->r || o->prize_table) {
    /* the team prizes of the preset's table or of --table */
    t = malloc(sizeof *t);
    if (!t) { fprintf(stderr, "xqref tourney teams: out of memory\n"); return 1; }
    if (o->prize_table ? xq_prize_read(o->prize_table, t, &err) : xq_regulation_prizes(c->r, c->ev->n, t, &err)) {
      fprintf(stderr, "xqref tourney teams: %s: %s\n", o->prize_table ? o->prize_table : o->preset, err.msg);
      free(t);
      return 1;
    }
  }
  xq_team_row *rows = malloc(sizeof *rows * XQ_TEAMS_MAX);
  xq_team_rule rule = {0};
  int rc = 1;
  if (!rows) {
    fprintf(stderr, "xqref tourney teams: out of memory\n");
  } else if (xq_team_results(c->ev, c->ids, c->r, mode, (int)o->count, t, rows, XQ_TEAMS_MAX, &nt, &rule, &err)) {
    fprintf(stderr, "xqref tourney teams: %s\n", err.msg);
  } else if (c->format >= 0) {
    rc = sheet_done(c, xq_sheet_teams(c->ev, rows, nt, rule.mode, c->format, c->lang, c->out));
  } else {
    xq_list_teams(c->ev, rows, nt, rule.mode, rule.counted, !c->complete, stdout);
    rc = 0;
  }
  free(rows);
  free(t);
  return rc;
}

/* ------------------------------------------------------------------ */
/* prizes                                                              */
/* ------------------------------------------------------------------ */

/* The table of --table or of --preset (narrowed to --group). 0, 1, 2. */
static int prize_table(ctx *c, xq_prize_table *t)
{
  const xq__topts *o = c->o;
  xq_error err = {0};
  if (!o->prize_table == !c->r) return usage(c, "give one of --table FILE and --preset NAME");
  if (o->prize_table ? xq_prize_read(o->prize_table, t, &err) : xq_regulation_prizes(c->r, c->ev->n, t, &err)) {
    fprintf(stderr, "xqref tourney prizes: %s: %s\n", o->prize_table ? o->prize_table : o->preset, err.msg);
    return 1;
  }
  if (o->group && xq_prize_table_only(t, o->group)) {
    fprintf(stderr, "xqref tourney prizes: %s has no prize list '%s'; its lists:",
            o->prize_table ? o->prize_table : o->preset, o->group);
    for (int i = 0; i < t->ncats; i++) fprintf(stderr, " \"%s\"", t->cats[i].name);
    fputc('\n', stderr);
    return 1;
  }
  return 0;
}

static int cmd_prizes(ctx *c)
{
  xq_prize_table *t = malloc(sizeof *t);
  if (!t) { fprintf(stderr, "xqref tourney prizes: out of memory\n"); return 1; }
  int rc = prize_table(c, t);
  if (rc) { free(t); return rc; }
  int na = 0, cap = XQ_AWARDS_MAX(t, c->ev->n);
  xq_award *aw = malloc(sizeof *aw * (size_t)cap);
  rc = 1;
  if (!aw || xq_prizes_award(c->ev, c->ids, t, aw, cap, &na)) {
    fprintf(stderr, "xqref tourney prizes: cannot award the prizes\n");
  } else if (c->format >= 0) {
    rc = sheet_done(c, xq_sheet_prizes(c->ev, t, aw, na, c->format, c->lang, c->out));
  } else {
    xq_list_prizes(c->ev, t, aw, na, !c->complete, stdout);
    rc = 0;
  }
  free(aw);
  free(t);
  return rc;
}

/* ------------------------------------------------------------------ */
/* groups                                                              */
/* ------------------------------------------------------------------ */

static int cmd_groups(ctx *c)
{
  /* the preset named, else the regulation whose title the event bears
   * (xqref simulate names its events so) */
  const xq_regulation *r = c->r ? c->r : xq_regulation_titled(c->ev->name);
  if (!r) {
    fprintf(stderr, "xqref tourney groups: the event is no regulation's; name one with --preset NAME\n");
    return 1;
  }
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int ng = 0;
  if (xq_regulation_groups(r, g, XQ_REG_GROUPS_MAX, &ng, NULL)) return 1;
  if (c->o->group) {
    int k = 0;
    for (int i = 0; i < ng; i++)
      if (xq_group_named(&g[i], c->o->group)) g[k++] = g[i];
    if (!k) {
      fprintf(stderr, "xqref tourney groups: %s has no group '%s'; its groups:", r->name, c->o->group);
      xq_regulation_groups(r, g, XQ_REG_GROUPS_MAX, &ng, NULL);
      for (int i = 0; i < ng; i++) fprintf(stderr, " \"%s\"", g[i].name);
      fputc('\n', stderr);
      return 1;
    }
    ng = k;
  }
  int format = c->format >= 0 ? c->format : XQ_SHEET_TEXT;
  return sheet_done(c, xq_sheet_groups(c->ev, c->ids, g, ng, format, c->lang, c->out));
}

int xq__tourney_final_main(const xq__topts *o, const char *action)
{
  ctx c;
  int rc = setup(&c, o, action);
  if (!rc) {
    if (!strcmp(action, "places")) rc = cmd_places(&c);
    else if (!strcmp(action, "teams")) rc = cmd_teams(&c);
    else if (!strcmp(action, "prizes")) rc = cmd_prizes(&c);
    else rc = cmd_groups(&c);
  }
  teardown(&c);
  return rc;
}
