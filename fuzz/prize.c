/*
 * prize.c -- fuzz entry for prize tables (fuzz.h): xq_prize_parse on the
 * bytes as they are (no terminator), and a table it accepts awarded over
 * a fixed field of 40 players, its team prizes paid and its lists written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "prize.h"
#include "sheet/sheet.h"

#define FIELD 40 /* players of the fixed event */

/* The event every table is awarded over, made once: regions within one
 * another (佳县 is within 榆林), birth dates across the bands the
 * regulations use, both sexes, local flags and four teams. */
static xq_tournament *field(int *places)
{
  static xq_tournament *ev;
  static const char *const regions[] = {"榆林", "佳县", "神木", "乌鲁木齐", "阿勒泰", ""};
  for (int i = 0; i < FIELD; i++) places[i] = i + 1;
  if (ev) return ev;
  if (!(ev = xq_tournament_new(NULL, "fuzz"))) abort();
  for (int i = 0; i < FIELD; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "P%d", i + 1);
    snprintf(p.region, sizeof p.region, "%s", regions[i % 6]);
    snprintf(p.team, sizeof p.team, "T%d", i % 4);
    char birth[32];
    snprintf(birth, sizeof birth, "%04d/%02d/%02d", 1940 + i * 2, i % 12 + 1, i % 28 + 1);
    snprintf(p.birth, sizeof p.birth, "%.10s", birth);
    p.sex = i % 3 ? 'm' : 'w';
    p.local = i % 2;
    if (xq_tournament_add(ev, &p, NULL, NULL) != XQ_OK) abort();
  }
  return ev;
}

/* The table's shape: its counts within their limits. */
static void check(const xq_prize_table *t)
{
  if (t->ncats < 0 || t->ncats > XQ_PRIZE_CATS_MAX || t->nteam < 0 || t->nteam > XQ_TEAM_PRIZES_MAX ||
      t->cap_pct < 0 || t->cap_pct > 100 || t->nshare < 0 || t->nshare > XQ_PRIZE_SHARES_MAX)
    abort();
  for (int c = 0; c < t->ncats; c++) {
    if (t->cats[c].nplaces < 0 || t->cats[c].nplaces > XQ_PRIZE_PLACES_MAX) abort();
    if (!memchr(t->cats[c].name, 0, sizeof t->cats[c].name)) abort();
  }
}

static void award(const xq_prize_table *t, FILE *sink)
{
  int places[FIELD];
  xq_tournament *ev = field(places);
  int cap = XQ_AWARDS_MAX(t, ev->n), n = 0;
  xq_award *aw = malloc(sizeof *aw * (size_t)(cap > 0 ? cap : 1));
  if (!aw) return;
  if (xq_prizes_award(ev, places, t, aw, cap, &n) == XQ_OK) {
    if (n < 0 || n > cap) abort();
    for (int i = 0; i < n; i++)
      if (aw[i].id < 1 || aw[i].id > ev->n || aw[i].amount < 0 || aw[i].cat < -1 || aw[i].cat >= t->ncats) abort();
    xq_sheet_prizes(ev, t, aw, n, XQ_SHEET_TEXT, XQ_LANG_ZH, sink);
  }
  free(aw);
  xq_team_row rows[8];
  int nrows = 0;
  if (xq_team_standings(ev, places, XQ_TEAM_RANK_SUM, 3, rows, 8, &nrows) == XQ_OK &&
      xq_team_prizes(t, rows, nrows) < 0)
    abort();
  char text[1024];
  for (int c = 0; c < t->ncats; c++) xq_prize_eligibility(&t->cats[c], text, sizeof text);
}

int xq_fuzz_prize(const uint8_t *data, size_t size)
{
  if (size > XQ_FUZZ_INPUT_MAX) return 0;
  static FILE *sink;
  if (!sink && !(sink = fopen("/dev/null", "w"))) abort();
  /* a copy of exactly `size` bytes: a read past the end is ASan's */
  char *text = malloc(size ? size : 1);
  if (!text) return 0;
  memcpy(text, data, size);
  xq_prize_table *t = malloc(sizeof *t);
  xq_error err;
  if (t && xq_prize_parse(text, size, t, &err) == XQ_OK) {
    check(t);
    award(t, sink);
    char name[XQ_TOURNEY_FIELD_MAX];
    memcpy(name, t->cats[t->ncats ? t->ncats - 1 : 0].name, sizeof name);
    if (t->ncats && xq_prize_table_only(t, name) != XQ_OK) abort();
    if (t->ncats) award(t, sink); /* a group's event of its own */
  }
  free(t);
  free(text);
  return 0;
}
