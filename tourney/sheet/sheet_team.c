/*
 * sheet_team.c -- the sheets of a team competition (docs/tourney.md,
 * "Team competitions"): the team standings (团体成绩), the match sheets
 * of a round (团体对阵表: a table per match, a row per board, 局分 and
 * 场分 under it) and the board prizes (台次奖: a table per board), in
 * every format of the table writer. The event's name and players come
 * from the store's event (`people`), the rest from the team event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../teammatch.h"
#include "sheet_internal.h"

#define ZH(lang, zh, en) ((lang) == XQ_LANG_ZH ? (zh) : (en))

static int args_ok(const xq_tournament *people, const xq_tm_event *ev, int format, int lang, FILE *f)
{
  return people && ev && f && xq__sheet_format_ok(format) && (lang == XQ_LANG_EN || lang == XQ_LANG_ZH);
}

static const char *pname(const xq_tournament *people, int id)
{
  return id > 0 && id <= people->n ? people->players[id - 1].name : "";
}

/* Whether the standings show a value for tie-break `code`. */
static int shown(int code)
{
  return code != XQ_TTB_TDE && code != XQ_TTB_TDE2W && code != XQ_TTB_TBR && code != XQ_TTB_TBRW &&
         code != XQ_TTB_BBE && code != XQ_TTB_LOT && code != XQ_TTB_MP && code != XQ_TTB_GP;
}

/* ------------------------------------------------------------------ */
/* Team standings                                                      */
/* ------------------------------------------------------------------ */

static int standings_rows(xq__sheet *s, const xq_tm_event *ev, const xq_tm_row *rows, int ncols)
{
  char cell[XQ__SHEET_COLS_MAX][24];
  const char *cells[XQ__SHEET_COLS_MAX];
  int rc = XQ_OK;
  for (int i = 0; i < ev->nteams && !rc; i++) {
    const xq_tm_row *r = &rows[i];
    int c = 0;
    snprintf(cell[c++], sizeof cell[0], r->annulled ? "-" : "%d", r->place);
    c++; /* the name, below */
    int v[] = {r->played, r->mw, r->md, r->ml, r->mp, r->gp};
    for (int k = 0; k < 6; k++) snprintf(cell[c++], sizeof cell[0], "%d", v[k]);
    for (int k = 0; k < ev->cfg.ntb; k++)
      if (shown(ev->cfg.tb[k])) snprintf(cell[c++], sizeof cell[0], "%lld", (long long)xq_tm_row_value(r, ev->cfg.tb[k]));
    for (int b = 0; b < ev->cfg.boards; b++) snprintf(cell[c++], sizeof cell[0], "%d", r->board_gp[b]);
    for (int k = 0; k < ncols; k++) cells[k] = cell[k];
    cells[1] = ev->teams[r->team - 1].name;
    rc = xq__sheet_row(s, cells);
  }
  return rc;
}

int xq_sheet_team_standings(const xq_tournament *people, const xq_tm_event *ev, int upto, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_team_standings(people, ev, upto, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!args_ok(people, ev, format, lang, f)) return XQ_EINVAL;
  const char *head[XQ__SHEET_COLS_MAX], *cls[XQ__SHEET_COLS_MAX];
  char boards[XQ_TM_BOARDS_MAX][24];
  int nc = 0;
  const char *fixed[8] = {ZH(lang, "名次", "Place"), ZH(lang, "队名", "Team"), ZH(lang, "场次", "Played"),
                          ZH(lang, "胜", "W"), ZH(lang, "和", "D"), ZH(lang, "负", "L"), ZH(lang, "场分", "MP"),
                          ZH(lang, "局分", "GP")};
  for (int k = 0; k < 8; k++) head[nc] = fixed[k], cls[nc++] = k == 1 ? NULL : "n";
  for (int k = 0; k < ev->cfg.ntb; k++)
    if (shown(ev->cfg.tb[k])) head[nc] = xq_ttb_name(ev->cfg.tb[k]), cls[nc++] = "n";
  for (int b = 0; b < ev->cfg.boards; b++) {
    snprintf(boards[b], sizeof boards[b], lang == XQ_LANG_ZH ? "第%d台" : "Board %d", b + 1);
    head[nc] = boards[b], cls[nc++] = "n";
  }
  xq_tm_row *rows = calloc((size_t)ev->nteams + 1, sizeof *rows);
  if (!rows) return XQ_ENOMEM;
  int rc = xq_tm_standings(ev, upto, rows);
  char sub[64];
  snprintf(sub, sizeof sub, lang == XQ_LANG_ZH ? "第%d轮后" : "after round %d", upto);
  xq__sheet s;
  if (!rc) rc = xq__sheet_begin(&s, f, format, lang, people, ZH(lang, "团体成绩", "Team standings"), sub, nc, head, cls, 0);
  if (!rc) {
    rc = standings_rows(&s, ev, rows, nc);
    int end = xq__sheet_end(&s);
    if (!rc) rc = end;
  }
  free(rows);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Match sheets (团体对阵表)                                              */
/* ------------------------------------------------------------------ */

/* Match m (the k-th of its round) as one table of the sheet. */
static int match_table(const xq_tournament *people, const xq_tm_event *ev, int m, int k, int format, int lang, FILE *f,
                       int flags)
{
  const xq_tm_match *x = &ev->matches[m];
  xq_tm_score sc;
  xq_tm_match_score(ev, m, &sc);
  const char *a = ev->teams[x->first - 1].name, *b = x->second ? ev->teams[x->second - 1].name : ZH(lang, "轮空", "bye");
  char title[2 * XQ_TOURNEY_NAME_MAX + 64], sub[96] = "";
  snprintf(title, sizeof title, lang == XQ_LANG_ZH ? "第%d轮 第%d场 %s – %s" : "Round %d, match %d: %s – %s", x->round, k,
           a, b);
  if (sc.decided)
    snprintf(sub, sizeof sub, lang == XQ_LANG_ZH ? "局分 %d:%d 场分 %d:%d%s" : "game points %d:%d, match points %d:%d%s",
             sc.gp[0], sc.gp[1], sc.mp[0], sc.mp[1], sc.forfeit ? ZH(lang, " (弃权)", " (forfeit)") : "");
  const char *head[5] = {ZH(lang, "台次", "Board"), ZH(lang, "先走方", "Colour"), a, ZH(lang, "结果", "Result"), b};
  const char *cls[5] = {"n", "c", NULL, "c", NULL};
  xq__sheet s;
  int rc = xq__sheet_begin(&s, f, format, lang, people, title, sub, 5, head, cls, flags);
  if (rc) return rc;
  for (int bd = 0; !rc && x->second && bd < ev->cfg.boards; bd++) {
    char no[8];
    snprintf(no, sizeof no, "%d", bd + 1);
    int red = xq_tm_first_red(&ev->cfg, bd + 1), r = sc.forfeit ? XQ_TR_NONE : sc.board_res[0][bd];
    if (!sc.forfeit && r == XQ_TR_NONE) r = x->res[bd];
    const char *cells[5] = {no, red ? ZH(lang, "红", "Red") : ZH(lang, "黑", "Black"),
                            x->lineup[0][bd] ? pname(people, x->lineup[0][bd]) : "—", xq_tm_result_code(r),
                            x->lineup[1][bd] ? pname(people, x->lineup[1][bd]) : "—"};
    rc = xq__sheet_row(&s, cells);
  }
  if (!rc && x->second) {
    const char *sign[5] = {"", ZH(lang, "签名", "Signed"), "", "", ""};
    rc = xq__sheet_row(&s, sign);
  }
  int end = xq__sheet_end(&s);
  return rc ? rc : end;
}

int xq_sheet_team_matches(const xq_tournament *people, const xq_tm_event *ev, int round, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_team_matches(people, ev, round, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!args_ok(people, ev, format, lang, f)) return XQ_EINVAL;
  int n = 0, rc = XQ_OK;
  while (xq_tm_match_at(ev, round, n + 1) >= 0) n++;
  if (!n) return XQ_EINVAL;
  for (int k = 1; k <= n && !rc; k++)
    rc = match_table(people, ev, xq_tm_match_at(ev, round, k), k, format, lang, f,
                     (k > 1 ? XQ__SHEET_AFTER : 0) | (k < n ? XQ__SHEET_BEFORE : 0));
  return rc;
}

/* ------------------------------------------------------------------ */
/* Board prizes (台次奖)                                                 */
/* ------------------------------------------------------------------ */

static int board_table(const xq_tournament *people, const xq_tm_event *ev, int board, int upto, xq_tm_board_row *rows,
                       int cap, int format, int lang, FILE *f, int flags)
{
  int n = xq_tm_board_prizes(ev, board, upto, rows, cap);
  if (n < 0) return n;
  char title[32];
  snprintf(title, sizeof title, lang == XQ_LANG_ZH ? "第%d台" : "Board %d", board);
  const char *head[9] = {ZH(lang, "名次", "Rank"), ZH(lang, "姓名", "Name"), ZH(lang, "队名", "Team"),
                         ZH(lang, "局数", "Games"), ZH(lang, "胜", "W"), ZH(lang, "和", "D"), ZH(lang, "负", "L"),
                         ZH(lang, "得分", "Points"), ZH(lang, "备注", "Note")};
  const char *cls[9] = {"n", NULL, NULL, "n", "n", "n", "n", "n", NULL};
  xq__sheet s;
  int rc = xq__sheet_begin(&s, f, format, lang, people, ZH(lang, "台次奖", "Board prizes"), title, 9, head, cls, flags);
  if (rc) return rc;
  for (int i = 0; !rc && i < n && i < cap; i++) {
    const xq_tm_board_row *r = &rows[i];
    char v[6][16];
    snprintf(v[0], sizeof v[0], "%d", i + 1);
    snprintf(v[1], sizeof v[1], "%d", r->games);
    snprintf(v[2], sizeof v[2], "%d", r->wins);
    snprintf(v[3], sizeof v[3], "%d", r->draws);
    snprintf(v[4], sizeof v[4], "%d", r->losses);
    snprintf(v[5], sizeof v[5], "%d/%d", r->points, ev->cfg.gp_win * r->games);
    const char *cells[9] = {v[0], pname(people, r->player), ev->teams[r->team - 1].name, v[1], v[2], v[3], v[4], v[5],
                            r->eligible ? "" : ZH(lang, "局数不足", "too few games")};
    rc = xq__sheet_row(&s, cells);
  }
  int end = xq__sheet_end(&s);
  return rc ? rc : end;
}

int xq_sheet_team_boards(const xq_tournament *people, const xq_tm_event *ev, int board, int upto, int format, int lang,
                         FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_team_boards(people, ev, board, upto, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM,
                                f);
  }
  if (!args_ok(people, ev, format, lang, f) || board < 0 || board > ev->cfg.boards) return XQ_EINVAL;
  int cap = ev->nteams * XQ_TM_ROSTER_MAX + 1, rc = XQ_OK, lo = board ? board : 1, hi = board ? board : ev->cfg.boards;
  xq_tm_board_row *rows = calloc((size_t)cap, sizeof *rows);
  if (!rows) return XQ_ENOMEM;
  for (int b = lo; b <= hi && !rc; b++)
    rc = board_table(people, ev, b, upto, rows, cap, format, lang, f,
                     (b > lo ? XQ__SHEET_AFTER : 0) | (b < hi ? XQ__SHEET_BEFORE : 0));
  free(rows);
  return rc;
}

/* ------------------------------------------------------------------ */
/* The team cross table (团体成绩表)                                      */
/* ------------------------------------------------------------------ */

/* The cell of team a's row, team b's column: "局分:局分" of each match
 * they played by round upto (two in a double round robin), in brackets
 * when a's results are annulled. */
static void cross_cell(const xq_tm_event *ev, int a, int b, int upto, int annulled, char *buf, size_t cap)
{
  size_t at = 0;
  buf[0] = 0;
  if (a == b) {
    snprintf(buf, cap, "×");
    return;
  }
  for (int m = 0; m < ev->nmatches; m++) {
    const xq_tm_match *x = &ev->matches[m];
    int s = x->first == a && x->second == b ? 0 : x->first == b && x->second == a ? 1 : -1;
    if (s < 0 || x->round > upto) continue;
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    if (!sc.decided) continue;
    int w = snprintf(buf + at, cap - at, annulled ? "%s(%d:%d)" : "%s%d:%d", at ? " " : "", sc.gp[s], sc.gp[!s]);
    if (w < 0 || (size_t)w >= cap - at) break;
    at += (size_t)w;
  }
}

static int cross_rows(xq__sheet *s, const xq_tm_event *ev, const xq_tm_row *rows, const int *by_no, int upto)
{
  int n = ev->nteams, rc = XQ_OK;
  char (*cell)[32] = calloc((size_t)n + 5, sizeof *cell);
  const char **cells = calloc((size_t)n + 5, sizeof *cells);
  if (!cell || !cells) rc = XQ_ENOMEM;
  for (int no = 1; no <= n && !rc; no++) {
    int a = by_no[no];
    const xq_tm_row *r = NULL;
    for (int i = 0; i < n; i++)
      if (rows[i].team == a) r = &rows[i];
    snprintf(cell[0], sizeof cell[0], "%d", no);
    cells[0] = cell[0], cells[1] = ev->teams[a - 1].name;
    for (int c = 1; c <= n; c++) {
      cross_cell(ev, a, by_no[c], upto, r->annulled, cell[c + 1], sizeof cell[0]);
      cells[c + 1] = cell[c + 1];
    }
    snprintf(cell[n + 2], sizeof cell[0], "%d", r->mp);
    snprintf(cell[n + 3], sizeof cell[0], "%d", r->gp);
    snprintf(cell[n + 4], sizeof cell[0], r->annulled ? "-" : "%d", r->place);
    for (int k = n + 2; k < n + 5; k++) cells[k] = cell[k];
    rc = xq__sheet_row(s, cells);
  }
  free(cell);
  free(cells);
  return rc;
}

int xq_sheet_team_crosstable(const xq_tournament *people, const xq_tm_event *ev, int upto, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_team_crosstable(people, ev, upto, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM,
                                f);
  }
  int n = ev ? ev->nteams : 0;
  if (!args_ok(people, ev, format, lang, f) || n < 1 || n + 5 > XQ__SHEET_COLS_MAX) return XQ_EINVAL;
  const char *head[XQ__SHEET_COLS_MAX], *cls[XQ__SHEET_COLS_MAX];
  char nos[XQ__SHEET_COLS_MAX][8];
  int by_no[XQ__SHEET_COLS_MAX] = {0};
  for (int t = 1; t <= n; t++)
    if (ev->teams[t - 1].pno >= 1 && ev->teams[t - 1].pno <= n) by_no[ev->teams[t - 1].pno] = t;
  for (int no = 1; no <= n; no++)
    if (!by_no[no]) return XQ_EINVAL;
  head[0] = ZH(lang, "序号", "No"), cls[0] = "n";
  head[1] = ZH(lang, "队名", "Team"), cls[1] = NULL;
  for (int no = 1; no <= n; no++) {
    snprintf(nos[no], sizeof nos[no], "%d", no);
    head[no + 1] = nos[no], cls[no + 1] = "c";
  }
  head[n + 2] = ZH(lang, "场分", "MP"), head[n + 3] = ZH(lang, "局分", "GP"), head[n + 4] = ZH(lang, "名次", "Place");
  cls[n + 2] = cls[n + 3] = cls[n + 4] = "n";
  xq_tm_row *rows = calloc((size_t)n + 1, sizeof *rows);
  if (!rows) return XQ_ENOMEM;
  int rc = xq_tm_standings(ev, upto, rows);
  char sub[64];
  snprintf(sub, sizeof sub, lang == XQ_LANG_ZH ? "第%d轮后" : "after round %d", upto);
  xq__sheet s;
  if (!rc) rc = xq__sheet_begin(&s, f, format, lang, people, ZH(lang, "团体成绩表", "Team cross table"), sub, n + 5, head,
                                cls, 0);
  if (!rc) {
    rc = cross_rows(&s, ev, rows, by_no, upto);
    int end = xq__sheet_end(&s);
    if (!rc) rc = end;
  }
  free(rows);
  return rc;
}
