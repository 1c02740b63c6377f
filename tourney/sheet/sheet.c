/*
 * sheet.c -- standings and pairings as CSV (RFC 4180), printable
 * self-contained HTML pages or aligned text, in Chinese or English (the
 * table itself: sheet_table.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "pair/pair.h"
#include "sheet_internal.h"

/* ------------------------------------------------------------------ */
/* Words                                                               */
/* ------------------------------------------------------------------ */

/* Column headings of the tie-break codes, indexed by xq_tb: English, 中文. */
static const char *const tb_heading[XQ_TB_COUNT][2] = {
  [XQ_TB_PTS] = {"Points", "积分"},
  [XQ_TB_OS] = {"Opp. score", "对手分"},
  [XQ_TB_OS_C1] = {"Opp. score -1", "对手分去一"},
  [XQ_TB_PS] = {"Progressive", "累进分"},
  [XQ_TB_WINS] = {"Wins", "胜局"},
  [XQ_TB_BWINS] = {"Black wins", "后手胜局"},
  [XQ_TB_RWINS] = {"Red wins", "先手胜局"},
  [XQ_TB_BLACK] = {"Blacks", "后手局数"},
  [XQ_TB_FOULS] = {"Fouls", "犯规"},
  [XQ_TB_DE] = {"Direct enc.", "直胜"},
  [XQ_TB_SB] = {"SB", "胜手和"},
  [XQ_TB_ROUNDBACK_LAST] = {"Roundback", "逐轮比较"},
  [XQ_TB_ROUNDBACK_FIRST] = {"Roundback first", "去除第一轮再比"},
  [XQ_TB_LOT] = {"Lot", "抽签"},
  [XQ_TB_MATCHPTS] = {"Match pts", "场分"},
};

enum {
  W_RANK, W_NO, W_NAME, W_WDL, W_BOARD, W_RED, W_BLACK, W_RESULT, W_BYE,
  W_STANDINGS, W_AFTER, W_DURING, W_BEFORE, W_PAIRINGS, W_ROUND, W_ABS_HALF, W_ABS_FULL, W_ABS_ZERO,
  W_WITHDRAWN, W_KO, W_UNPAIRED, W_LOT, W_LOT_HOW, W_DRAW, W_UNIT, W_COUNT
};

static const char *const words[W_COUNT][2] = {
  [W_RANK] = {"Rank", "名次"},
  [W_NO] = {"No", "序号"},
  [W_NAME] = {"Name", "姓名"},
  [W_WDL] = {"W-D-L", "胜-和-负"},
  [W_BOARD] = {"Board", "台次"},
  [W_RED] = {"Red", "红方"},
  [W_BLACK] = {"Black", "黑方"},
  [W_RESULT] = {"Result", "结果"},
  [W_BYE] = {"bye", "轮空"},
  [W_STANDINGS] = {"Standings", "成绩排名"},
  [W_AFTER] = {"after round %d", "第%d轮后"},
  [W_DURING] = {"round %d in progress", "第%d轮进行中"},
  [W_BEFORE] = {"before round 1", "第1轮前"},
  [W_PAIRINGS] = {"Pairings", "对阵表"},
  [W_ROUND] = {"round %d", "第%d轮"},
  [W_ABS_HALF] = {"absent: ½-point bye", "请假（得和棋分）"},
  [W_ABS_FULL] = {"absent: full-point bye", "请假（得胜局分）"},
  [W_ABS_ZERO] = {"absent: no points", "请假（不得分）"},
  [W_WITHDRAWN] = {"withdrawn", "退赛"},
  [W_KO] = {"in the knockout", "进入淘汰赛"},
  [W_UNPAIRED] = {"not paired", "未编排"},
  [W_LOT] = {"Placed by lot (不并列), seed %llu", "抽签决定名次（不并列），种子 %llu"},
  [W_LOT_HOW] = {"tied on every tie-break before the lot: each player draws mix64(seed ^ mix64(number + 1)) "
                 "(SplitMix64), the lowest draw ranks first",
                 "以上各项均相同者抽签：每名棋手之签为 mix64(种子 ^ mix64(序号 + 1))（SplitMix64），签小者名次在前"},
  [W_DRAW] = {"Draw", "签"},
  [W_UNIT] = {"Club", "单位"},
};

static const char *word(int w, int lang) { return words[w][lang == XQ_LANG_ZH]; }

static const char *tb_word(int tb, int lang)
{
  return tb >= 0 && tb < XQ_TB_COUNT ? tb_heading[tb][lang == XQ_LANG_ZH] : "?";
}

int xq_sheet_format_parse(const char *s)
{
  if (!s) return -1;
  if (!strcmp(s, "trf")) return XQ_SHEET_TRF;
  if (!strcmp(s, "csv")) return XQ_SHEET_CSV;
  if (!strcmp(s, "html")) return XQ_SHEET_HTML;
  if (!strcmp(s, "text")) return XQ_SHEET_TEXT;
  if (!strcmp(s, "xlsx")) return XQ_SHEET_XLSX;
  return -1;
}

int xq_sheet_lang_parse(const char *s)
{
  if (!s) return -1;
  if (!strcmp(s, "en")) return XQ_LANG_EN;
  if (!strcmp(s, "zh")) return XQ_LANG_ZH;
  return -1;
}

/* ------------------------------------------------------------------ */
/* Cells                                                               */
/* ------------------------------------------------------------------ */

void xq__sheet_half_text(char *buf, size_t cap, int64_t half)
{
  int64_t a = half < 0 ? -half : half;
  if (a % 2) snprintf(buf, cap, "%s%lld.5", half < 0 ? "-" : "", (long long)(a / 2));
  else snprintf(buf, cap, "%s%lld", half < 0 ? "-" : "", (long long)(a / 2));
}

void xq__sheet_tb_text(char *buf, size_t cap, int tb, int64_t v)
{
  switch (tb) {
  case XQ_TB_PTS: case XQ_TB_OS: case XQ_TB_OS_C1: case XQ_TB_PS:
    xq__sheet_half_text(buf, cap, v);
    break;
  case XQ_TB_SB: /* quarter-points */
    snprintf(buf, cap, "%g", (double)v / 4.0);
    break;
  case XQ_TB_ROUNDBACK_LAST: case XQ_TB_ROUNDBACK_FIRST:
    buf[0] = 0;
    break;
  case XQ_TB_DE: /* -1: it separates nobody */
    if (v < 0) buf[0] = 0;
    else snprintf(buf, cap, "%lld", (long long)v + 1);
    break;
  default:
    snprintf(buf, cap, "%lld", (long long)v);
  }
}

const char *xq__sheet_unit(const xq_tplayer *p) { return p->club[0] ? p->club : p->team; }

/* Pairing number as printed: the number given at round 1, else the id. */
static int shown_no(const xq_tournament *ev, int id) { return xq_tplayer_no(ev, id); }

/* ------------------------------------------------------------------ */
/* Standings                                                           */
/* ------------------------------------------------------------------ */

/* Has tie-break `tb` a column of its own on the standings? Not the
 * roundback comparisons (逐轮比较): they compare the tied players' rounds
 * and leave no value, so their column would stay empty. */
static int tb_shown(int tb) { return tb != XQ_TB_ROUNDBACK_LAST && tb != XQ_TB_ROUNDBACK_FIRST; }

static int sheet_format_ok(int format, int lang)
{
  return xq__sheet_format_ok(format) && (lang == XQ_LANG_EN || lang == XQ_LANG_ZH);
}

int xq__sheet_lot_table(FILE *f, int format, int lang, const xq_tournament *ev, const xq_tstanding *s, int n)
{
  static const char *const cls[4] = {"n", "n", NULL, "n"};
  const char *head[4] = {word(W_RANK, lang), word(W_NO, lang), word(W_NAME, lang), word(W_DRAW, lang)};
  char title[96];
  snprintf(title, sizeof title, word(W_LOT, lang), (unsigned long long)ev->cfg.lot_seed);
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, title, word(W_LOT_HOW, lang), 4, head, cls,
                           XQ__SHEET_AFTER | XQ__SHEET_SIGN);
  if (rc) return rc;
  for (int i = 0; !rc && i < n; i++) {
    if (!s[i].by_lot) continue;
    const xq_tplayer *p = &ev->players[s[i].id - 1];
    char rank[16], no[16], draw[24];
    snprintf(rank, sizeof rank, "%d", s[i].rank);
    snprintf(no, sizeof no, "%d", shown_no(ev, s[i].id));
    snprintf(draw, sizeof draw, "%016llx", (unsigned long long)xq__lot_draw(ev, s[i].id));
    const char *row[4] = {rank, no, p->name, draw};
    rc = xq__sheet_row(&sh, row);
  }
  int end = xq__sheet_end(&sh);
  return rc ? rc : end;
}

int xq_sheet_standings(const xq_tournament *ev, int upto, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_standings(ev, upto, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!ev || !f || !sheet_format_ok(format, lang)) return XQ_EINVAL;
  const xq_tconfig *c = &ev->cfg;
  if (c->ntb < 0 || c->ntb + 5 > XQ__SHEET_COLS_MAX) return XQ_EINVAL;
  /* by default after the last round whose games are all in; a round
   * asked for that is not is said to be in progress */
  int done = xq_tournament_rounds_complete(ev);
  if (upto <= 0 || upto > ev->nrounds) upto = xq_tournament_standings_round(ev);
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  if (!s) return XQ_ENOMEM;
  int rc = xq_standings(ev, upto, s);
  if (rc) { free(s); return rc; }
  /* rank, number, name, one column per tie-break, W-D-L */
  const char *head[XQ__SHEET_COLS_MAX], *cls[XQ__SHEET_COLS_MAX], *row[XQ__SHEET_COLS_MAX];
  char cell[XQ__SHEET_COLS_MAX][64];
  int nc = 0;
  head[nc] = word(W_RANK, lang); cls[nc++] = "n";
  head[nc] = word(W_NO, lang); cls[nc++] = "n";
  head[nc] = word(W_NAME, lang); cls[nc++] = NULL;
  head[nc] = word(W_UNIT, lang); cls[nc++] = NULL;
  for (int t = 0; t < c->ntb; t++)
    if (tb_shown(c->tb[t])) { head[nc] = tb_word(c->tb[t], lang); cls[nc++] = "n"; }
  head[nc] = word(W_WDL, lang); cls[nc++] = "c";
  char sub[64];
  snprintf(sub, sizeof sub, word(upto == 0 ? W_BEFORE : upto <= done ? W_AFTER : W_DURING, lang), upto);
  /* the lot's table on the sheets people read (HTML, text); CSV and XLSX
   * stay one table of data, the LOT column in it */
  int by_lot = 0;
  for (int i = 0; (format == XQ_SHEET_HTML || format == XQ_SHEET_TEXT) && i < ev->n; i++) by_lot |= s[i].by_lot;
  xq__sheet sh;
  rc = xq__sheet_begin(&sh, f, format, lang, ev, word(W_STANDINGS, lang), sub, nc, head, cls,
                       by_lot ? XQ__SHEET_BEFORE : XQ__SHEET_SIGN);
  for (int i = 0; !rc && i < ev->n; i++) {
    int k = 0;
    snprintf(cell[k], sizeof cell[k], s[i].annulled ? "-" : "%d", s[i].rank); /* annulled: unranked */
    row[k] = cell[k]; k++;
    snprintf(cell[k], sizeof cell[k], "%d", shown_no(ev, s[i].id));
    row[k] = cell[k]; k++;
    row[k++] = ev->players[s[i].id - 1].name;
    row[k++] = xq__sheet_unit(&ev->players[s[i].id - 1]);
    for (int t = 0; t < c->ntb; t++) {
      if (!tb_shown(c->tb[t])) continue;
      xq__sheet_tb_text(cell[k], sizeof cell[k], c->tb[t], s[i].val[t]);
      row[k] = cell[k];
      k++;
    }
    snprintf(cell[k], sizeof cell[k], "%d-%d-%d", s[i].wins, s[i].draws, s[i].losses);
    row[k] = cell[k];
    rc = xq__sheet_row(&sh, row);
  }
  if (!sh.f) { free(s); return rc; } /* begin failed */
  int end = xq__sheet_end(&sh);
  if (!rc && !end && by_lot) end = xq__sheet_lot_table(f, format, lang, ev, s, ev->n);
  free(s);
  return rc ? rc : end;
}

/* ------------------------------------------------------------------ */
/* Pairings                                                            */
/* ------------------------------------------------------------------ */

const char *xq__sheet_off_board(const xq_tournament *ev, int id, int round, int lang)
{
  const xq_tslot *s = xq_tournament_slot(ev, id, round);
  int a = s->absent ? s->absent : s->res == XQ_TR_HPB || s->res == XQ_TR_FPB || s->res == XQ_TR_ZPB ? s->res : 0;
  if (xq__event_withdrawn(ev, id, round)) return word(W_WITHDRAWN, lang);
  if (s->res == XQ_TR_KO) return word(W_KO, lang);
  if (a) return word(a == XQ_TR_HPB ? W_ABS_HALF : a == XQ_TR_FPB ? W_ABS_FULL : W_ABS_ZERO, lang);
  return word(W_UNPAIRED, lang);
}

/* The players of round pr->round on no board, each a row under the
 * boards: no board, his number, name and points, why in the result
 * column. */
static int off_board_rows(xq__sheet *sh, const xq_tournament *ev, const xq_tpairing *pr, int lang)
{
  uint8_t *on = calloc((size_t)ev->n + 1, 1);
  if (!on) return XQ_ENOMEM;
  for (int b = 0; b < pr->nboards; b++) on[pr->boards[b].red] = on[pr->boards[b].black] = 1;
  int rc = XQ_OK;
  for (int id = 1; !rc && id <= ev->n; id++) {
    if (on[id]) continue;
    char no[16], pts[16];
    snprintf(no, sizeof no, "%d", shown_no(ev, id));
    xq__sheet_half_text(pts, sizeof pts, xq_tournament_points(ev, id, pr->round - 1));
    const xq_tplayer *p = &ev->players[id - 1];
    const char *row[10] = {"", no, p->name, xq__sheet_unit(p), pts, xq__sheet_off_board(ev, id, pr->round, lang),
                           "", "", "", ""};
    rc = xq__sheet_row(sh, row);
  }
  free(on);
  return rc;
}

/* Result of a board from Red's slot as arbiters write it: 1-0, ½-½, 0-1,
 * +- and -+ (a forfeit), -- (both forfeit); "" while pending. */
static const char *board_result(const xq_tournament *ev, int round, const xq_tboard *b)
{
  const xq_tslot *r = xq_tournament_slot(ev, b->red, round);
  if (!b->black || r->opp != b->black) return "";
  switch (r->res) {
  case XQ_TR_WIN: return "1-0";
  case XQ_TR_LOSS: return "0-1";
  case XQ_TR_DRAW: return "½-½";
  case XQ_TR_FWIN: return "+-";
  case XQ_TR_FLOSS: {
    const xq_tslot *k = xq_tournament_slot(ev, b->black, round);
    return k->res == XQ_TR_FWIN ? "-+" : "--";
  }
  default: return "";
  }
}

int xq_sheet_pairings(const xq_tournament *ev, const xq_tpairing *pr, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_pairings(ev, pr, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!ev || !pr || !f || !sheet_format_ok(format, lang) || pr->round < 1 ||
      pr->round > XQ_TOURNEY_ROUNDS_MAX)
    return XQ_EINVAL;
  for (int b = 0; b < pr->nboards; b++)
    if (pr->boards[b].red < 1 || pr->boards[b].red > ev->n || pr->boards[b].black < 0 ||
        pr->boards[b].black > ev->n)
      return XQ_EINVAL;
  /* cells of one board: board, Red no, name, unit, points, result, Black no, name, unit, points */
  const char *head[10] = {word(W_BOARD, lang), word(W_NO, lang), word(W_RED, lang), word(W_UNIT, lang),
                          tb_word(XQ_TB_PTS, lang), word(W_RESULT, lang), word(W_NO, lang),
                          word(W_BLACK, lang), word(W_UNIT, lang), tb_word(XQ_TB_PTS, lang)};
  static const char *const cls[10] = {"n", "n", NULL, NULL, "n", "c", "n", NULL, NULL, "n"};
  char sub[64];
  snprintf(sub, sizeof sub, word(W_ROUND, lang), pr->round);
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, word(W_PAIRINGS, lang), sub, 10, head, cls, XQ__SHEET_SIGN);
  if (rc) return rc;
  for (int b = 0; !rc && b < pr->nboards; b++) {
    const xq_tboard *bd = &pr->boards[b];
    const xq_tplayer *red = &ev->players[bd->red - 1], *black = bd->black ? &ev->players[bd->black - 1] : NULL;
    char cell[5][16];
    snprintf(cell[0], sizeof cell[0], "%d", b + 1);
    snprintf(cell[1], sizeof cell[1], "%d", shown_no(ev, bd->red));
    xq__sheet_half_text(cell[2], sizeof cell[2], xq_tournament_points(ev, bd->red, pr->round - 1));
    const char *row[10] = {cell[0], cell[1], red->name, xq__sheet_unit(red), cell[2], word(W_BYE, lang), "", "", "", ""};
    if (black) {
      snprintf(cell[3], sizeof cell[3], "%d", shown_no(ev, bd->black));
      xq__sheet_half_text(cell[4], sizeof cell[4], xq_tournament_points(ev, bd->black, pr->round - 1));
      row[5] = board_result(ev, pr->round, bd);
      row[6] = cell[3];
      row[7] = black->name;
      row[8] = xq__sheet_unit(black);
      row[9] = cell[4];
    }
    rc = xq__sheet_row(&sh, row);
  }
  if (!rc) rc = off_board_rows(&sh, ev, pr, lang);
  int end = xq__sheet_end(&sh);
  return rc ? rc : end;
}
