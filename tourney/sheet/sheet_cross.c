/*
 * sheet_cross.c -- the cross table (交叉表) of a round robin: one row and
 * one column per entrant in number order, each cell what the row's
 * entrant scored against the column's (one result per cycle), then his
 * points and place (docs/tourney.md, "Round robins"). The places and
 * points are the standings' (the withdrawal rule applied); the cells
 * show the games as played, an annulled player's in brackets.
 */
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "sheet_internal.h"

/* One game's mark: its points (2/1/0 or 1/½/0, as scored), "+" and "-"
 * for a forfeit, "" for a game not over. */
static void game_mark(const xq_tournament *ev, const xq_tslot *s, char *buf, size_t cap)
{
  if (s->res == XQ_TR_FWIN) snprintf(buf, cap, "+");
  else if (s->res == XQ_TR_FLOSS) snprintf(buf, cap, "-");
  else if (s->res == XQ_TR_NONE) buf[0] = 0;
  else xq__sheet_half_text(buf, cap, xq_tslot_points(ev, s));
}

/* The cell of row `a` and column `b` (ids) over rounds 1..upto. */
static void cell_text(const xq_tournament *ev, int a, int b, int upto, int annulled, char *buf, size_t cap)
{
  size_t at = 0;
  buf[0] = 0;
  if (a == b) {
    snprintf(buf, cap, "×");
    return;
  }
  for (int r = 1; r <= upto; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, a, r);
    if (s->opp != b) continue;
    char m[16];
    game_mark(ev, s, m, sizeof m);
    if (!m[0]) continue;
    int w = snprintf(buf + at, cap - at, annulled ? "%s(%s)" : "%s%s", at ? " " : "", m);
    if (w < 0 || (size_t)w >= cap - at) break;
    at += (size_t)w;
  }
}

/* Where PTS is in the event's tie-break order (the standings' values), or -1. */
static int pts_code(const xq_tournament *ev)
{
  for (int t = 0; t < ev->cfg.ntb; t++)
    if (ev->cfg.tb[t] == XQ_TB_PTS) return t;
  return -1;
}

/* The headings: number, name, a column per number, points, place. */
static int heads(const xq_tournament *ev, int lang, const char **head, const char **cls, char (*nos)[12])
{
  int nc = 0;
  head[nc] = lang == XQ_LANG_ZH ? "序号" : "No"; cls[nc++] = "n";
  head[nc] = lang == XQ_LANG_ZH ? "姓名" : "Name"; cls[nc++] = NULL;
  for (int no = 1; no <= ev->n; no++) {
    snprintf(nos[no - 1], sizeof nos[0], "%d", no);
    head[nc] = nos[no - 1]; cls[nc++] = "c";
  }
  head[nc] = lang == XQ_LANG_ZH ? "积分" : "Points"; cls[nc++] = "n";
  head[nc] = lang == XQ_LANG_ZH ? "名次" : "Place"; cls[nc++] = "n";
  return nc;
}

/* The rows, in number order; by_no[no] is the id of number no, and
 * place[id] the index of id's standing in s[]. */
static int rows(xq__sheet *sh, const xq_tournament *ev, int upto, const xq_tstanding *s, const int *by_no,
                const int *place)
{
  int n = ev->n, rc = XQ_OK;
  const char *row[XQ__SHEET_COLS_MAX];
  char (*cell)[48] = malloc(sizeof *cell * (size_t)(n + 4));
  if (!cell) return XQ_ENOMEM;
  for (int no = 1; !rc && no <= n; no++) {
    int id = by_no[no], k = 0, at = place[id];
    snprintf(cell[k], sizeof cell[k], "%d", no);
    row[k] = cell[k]; k++;
    row[k++] = ev->players[id - 1].name;
    for (int c = 1; c <= n; c++, k++) {
      int annulled = s[at].annulled || s[place[by_no[c]]].annulled;
      cell_text(ev, id, by_no[c], upto, annulled, cell[k], sizeof cell[k]);
      row[k] = cell[k];
    }
    xq__sheet_tb_text(cell[k], sizeof cell[k], XQ_TB_PTS, s[at].val[pts_code(ev)]);
    row[k] = cell[k]; k++;
    snprintf(cell[k], sizeof cell[k], s[at].annulled ? "-" : "%d", s[at].rank);
    row[k] = cell[k];
    rc = xq__sheet_row(sh, row);
  }
  free(cell);
  return rc;
}

/* One group's cross table (or the event's), a table of a sheet of
 * several (`flags`, xq__sheet_begin), titled `title`. */
static int cross_table(const xq_tournament *ev, int upto, int format, int lang, FILE *f, const char *title, int flags)
{
  if (ev->n + 4 > XQ__SHEET_COLS_MAX || pts_code(ev) < 0) return XQ_EINVAL;
  if (upto <= 0 || upto > ev->nrounds) upto = ev->nrounds;
  int n = ev->n, rc = XQ_ENOMEM;
  xq_tstanding *s = malloc(sizeof *s * (size_t)(n ? n : 1));
  int *by_no = calloc((size_t)n + 1, sizeof *by_no), *place = calloc((size_t)n + 1, sizeof *place);
  const char *head[XQ__SHEET_COLS_MAX], *cls[XQ__SHEET_COLS_MAX];
  char (*nos)[12] = malloc(sizeof *nos * (size_t)(n ? n : 1));
  if (s && by_no && place && nos && !(rc = xq_standings(ev, upto, s))) {
    for (int i = 0; i < n; i++) place[s[i].id] = i;
    for (int id = 1; id <= n && !rc; id++) {
      int no = ev->players[id - 1].pno;
      if (no < 1 || no > n || by_no[no]) rc = XQ_EINVAL; /* numbers 1..n, each once */
      else by_no[no] = id;
    }
  }
  if (!rc) {
    char sub[64];
    snprintf(sub, sizeof sub, lang == XQ_LANG_ZH ? "第%d轮后" : "after round %d", upto);
    int nc = heads(ev, lang, head, cls, nos);
    xq__sheet sh;
    rc = xq__sheet_begin(&sh, f, format, lang, ev, title, sub, nc, head, cls, flags);
    if (!rc) {
      rc = rows(&sh, ev, upto, s, by_no, place);
      int end = xq__sheet_end(&sh);
      if (!rc) rc = end;
    }
  }
  free(s);
  free(by_no);
  free(place);
  free(nos);
  return rc;
}

int xq_sheet_crosstable(const xq_tournament *ev, int upto, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_crosstable(ev, upto, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!ev || !f || !xq__sheet_format_ok(format) || (lang != XQ_LANG_EN && lang != XQ_LANG_ZH)) return XQ_EINVAL;
  if (ev->cfg.format != XQ_FORMAT_RR) return xq__sheet_rounds(ev, upto, format, lang, f); /* a Swiss */
  const char *word = lang == XQ_LANG_ZH ? "交叉表" : "Cross table";
  int G = ev->cfg.format == XQ_FORMAT_RR && ev->cfg.rr_groups > 1 ? ev->cfg.rr_groups : 0, rc = XQ_OK;
  if (!G) return cross_table(ev, upto, format, lang, f, word, 0);
  /* a round robin in groups: a table per group, numbered inside it */
  for (int g = 0; g < G && !rc; g++) {
    xq_tournament *sub = xq_rr_group_event(ev, g, NULL);
    char title[64];
    snprintf(title, sizeof title, lang == XQ_LANG_ZH ? "%c组 %s" : "Group %c: %s", 'A' + g, word);
    rc = sub ? cross_table(sub, upto, format, lang, f, title, (g ? XQ__SHEET_AFTER : 0) | (g < G - 1 ? XQ__SHEET_BEFORE : 0))
             : XQ_ENOMEM;
    xq_tournament_free(sub);
  }
  return rc;
}
