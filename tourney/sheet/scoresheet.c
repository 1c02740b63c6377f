/*
 * scoresheet.c -- the score sheets (记分表) of a round (docs/tourney.md,
 * "Score sheets"): a page to print with one sheet per table -- the
 * players, numbered lines for the moves, the result boxes, the time used
 * and three signatures -- and, as CSV, text or XLSX, the sheet the
 * arbiters collect the results on, a row per table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "knockout.h"
#include "pair/pair.h"
#include "sheet_internal.h"

enum {
  S_SHEETS, S_SHEET, S_ROUND, S_TABLE, S_DATE, S_VENUE, S_RED, S_BLACK, S_NO, S_MOVE, S_RESULT,
  S_RWIN, S_DRAW, S_BWIN, S_TIME, S_SIGN_RED, S_SIGN_BLACK, S_SIGN_ARB, S_NAME, S_COLLECT, S_KNOCKOUT, S_VENUE_IS, S_GAME,
  S_COUNT
};

static const char *const swords[S_COUNT][2] = {
  [S_SHEETS] = {"Score sheets", "记分表"},
  [S_SHEET] = {"Score sheet", "记分表"},
  [S_ROUND] = {"round %d", "第%d轮"},
  [S_KNOCKOUT] = {"knockout", "淘汰赛"},
  [S_TABLE] = {"table %d", "第%d台"},
  [S_DATE] = {"Date ________________", "日期：______年____月____日"},
  [S_VENUE] = {"Venue ________________", "地点：________________"},
  [S_VENUE_IS] = {"Venue ", "地点："},
  [S_RED] = {"Red", "红方"},
  [S_BLACK] = {"Black", "黑方"},
  [S_NO] = {"No", "序号"},
  [S_MOVE] = {"Move", "回合"},
  [S_RESULT] = {"Result", "结果"},
  [S_RWIN] = {"Red wins", "红胜"},
  [S_DRAW] = {"Draw", "和"},
  [S_BWIN] = {"Black wins", "黑胜"},
  [S_TIME] = {"Time used", "用时"},
  [S_SIGN_RED] = {"Red's signature", "红方签名"},
  [S_SIGN_BLACK] = {"Black's signature", "黑方签名"},
  [S_SIGN_ARB] = {"Arbiter's signature", "裁判签名"},
  [S_NAME] = {"Name", "姓名"},
  [S_COLLECT] = {"Table", "台次"},
  [S_GAME] = {"Match and game", "场次"},
};

#define XQ__KO_LABEL_MAX 128 /* a knockout table's label: "四分之一决赛第4场 · 第12局 超快棋（和棋黑胜）" */

#define SW(k) swords[k][lang == XQ_LANG_ZH]

/* One sheet a page; 60 move lines in two columns of 30 fit A4 with the
 * head, the result and the signatures. */
static const char sheet_style[] =
  "@page{size:A4;margin:12mm}"
  "body{font-family:\"Noto Sans CJK SC\",\"Microsoft YaHei\",\"PingFang SC\",sans-serif;margin:1em;"
  "color:#000;background:#fff;font-size:10.5pt}"
  ".scoresheet{max-width:186mm;margin:0 auto 2em;border:1px solid #999;padding:4mm;box-sizing:border-box}"
  ".scoresheet h1{font-size:15pt;margin:0;text-align:center}"
  ".scoresheet h2{font-size:12pt;margin:1mm 0 2mm;text-align:center;font-weight:normal}"
  ".line{display:flex;justify-content:space-between;margin:0 0 2mm}"
  "table{border-collapse:collapse;width:100%}th,td{border:1px solid #444;padding:0 1.5mm}"
  "table.players td.no{width:12mm;text-align:center}table.players th{width:14mm}"
  ".moves{display:flex;gap:3mm;margin:2mm 0}.moves table td,.moves table th{height:5.4mm}"
  ".moves td.n{width:9mm;text-align:right;color:#333}"
  ".box{display:inline-block;width:3.5mm;height:3.5mm;border:1px solid #000;margin:0 1mm 0 3mm;"
  "vertical-align:middle}"
  ".result td{height:8mm}.sign{display:flex;gap:4mm;margin-top:3mm}"
  ".sign div{flex:1;border-bottom:1px solid #000;height:10mm;font-size:9pt}"
  "@media print{body{margin:0}.scoresheet{border:none;margin:0;padding:0;max-width:none;"
  "break-after:page;page-break-after:always}.scoresheet:last-of-type{break-after:auto;"
  "page-break-after:auto}tr{break-inside:avoid;page-break-inside:avoid}}";

/* Red's or Black's row of the players' table. */
static void side_row(FILE *f, const xq_tournament *ev, int id, int w, int lang)
{
  fprintf(f, "<tr><th>%s</th><td class=\"no\">%d</td><td class=\"name\">", SW(w), xq_tplayer_no(ev, id));
  xq__sheet_html_text(f, ev->players[id - 1].name);
  fputs("</td></tr>", f);
}

/* Move lines first..last: number, Red's move, Black's move. */
static void move_table(FILE *f, int first, int last, int lang)
{
  fprintf(f, "<table><thead><tr><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>", SW(S_MOVE),
          SW(S_RED), SW(S_BLACK));
  for (int i = first; i <= last; i++) fprintf(f, "<tr><td class=\"n\">%d</td><td></td><td></td></tr>", i);
  fputs("</tbody></table>", f);
}

/* "第3轮", or 淘汰赛 for the knockout's tables (XQ_KO_ROUND). */
static void round_text(char *buf, size_t cap, int round, int lang)
{
  if (round == XQ_KO_ROUND) snprintf(buf, cap, "%s", SW(S_KNOCKOUT));
  else snprintf(buf, cap, SW(S_ROUND), round);
}

/* The sheet of board b (0-based) of `pr`; `label` names a knockout
 * table's match and game ("半决赛 · 第2局 快棋"), NULL for a Swiss round. */
static void one_sheet(FILE *f, const xq_tournament *ev, const xq_tpairing *pr, int b, const char *label, int lang)
{
  char line[64];
  fprintf(f, "<section class=\"scoresheet\" data-table=\"%d\">\n<h1>", b + 1);
  xq__sheet_html_text(f, ev->name[0] ? ev->name : SW(S_SHEET));
  fprintf(f, "</h1>\n<h2>%s · ", SW(S_SHEET));
  round_text(line, sizeof line, pr->round, lang);
  xq__sheet_html_text(f, line);
  fputs(" · ", f);
  if (label) {
    xq__sheet_html_text(f, label);
    fputs(" · ", f);
  }
  snprintf(line, sizeof line, SW(S_TABLE), b + 1);
  xq__sheet_html_text(f, line);
  /* the event's dates and venue under the heading; the date blank is
   * the game's, the venue the event's when given */
  char ev_line[XQ_TOURNEY_DATES_MAX + XQ_TOURNEY_INFO_MAX + 8];
  xq__sheet_event_line(ev, ev_line, sizeof ev_line);
  fputs("</h2>\n", f);
  if (ev_line[0]) {
    fputs("<p class=\"event\">", f);
    xq__sheet_html_text(f, ev_line);
    fputs("</p>\n", f);
  }
  fprintf(f, "<p class=\"line\"><span>%s</span><span>", SW(S_DATE));
  if (ev->info.venue[0]) {
    fputs(SW(S_VENUE_IS), f);
    xq__sheet_html_text(f, ev->info.venue);
  } else {
    fputs(SW(S_VENUE), f);
  }
  fputs("</span></p>\n<table class=\"players\">", f);
  side_row(f, ev, pr->boards[b].red, S_RED, lang);
  side_row(f, ev, pr->boards[b].black, S_BLACK, lang);
  fputs("</table>\n<div class=\"moves\">", f);
  move_table(f, 1, XQ_SCORESHEET_MOVES / 2, lang);
  move_table(f, XQ_SCORESHEET_MOVES / 2 + 1, XQ_SCORESHEET_MOVES, lang);
  fprintf(f, "</div>\n<table class=\"result\"><tr><th>%s</th><td>"
          "<span class=\"box\"></span>%s<span class=\"box\"></span>%s<span class=\"box\"></span>%s</td></tr>"
          "<tr><th>%s</th><td>%s ________　　%s ________</td></tr></table>\n",
          SW(S_RESULT), SW(S_RWIN), SW(S_DRAW), SW(S_BWIN), SW(S_TIME), SW(S_RED), SW(S_BLACK));
  fprintf(f, "<div class=\"sign\"><div>%s</div><div>%s</div><div>%s</div></div>\n</section>\n",
          SW(S_SIGN_RED), SW(S_SIGN_BLACK), SW(S_SIGN_ARB));
}

static int html_sheets(const xq_tournament *ev, const xq_tpairing *pr, char (*labels)[XQ__KO_LABEL_MAX], int lang,
                       FILE *f)
{
  char title[64];
  round_text(title, sizeof title, pr->round, lang);
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
          lang == XQ_LANG_ZH ? "zh" : "en");
  if (ev->name[0]) { xq__sheet_html_text(f, ev->name); fputs(" - ", f); }
  fprintf(f, "%s %s</title>\n<style>%s</style>\n</head>\n<body>\n", SW(S_SHEETS), title, sheet_style);
  for (int b = 0; b < pr->nboards; b++)
    if (pr->boards[b].black) one_sheet(f, ev, pr, b, labels ? labels[b] : NULL, lang);
  fputs("</body>\n</html>\n", f);
  return ferror(f) ? XQ_EIO : XQ_OK;
}

/* The result-collection sheet: a row per table, results and signatures
 * blank; a knockout's with a column naming each table's match and game. */
static int collect_sheet(const xq_tournament *ev, const xq_tpairing *pr, char (*labels)[XQ__KO_LABEL_MAX], int format,
                         int lang, FILE *f)
{
  const char *head[10] = {SW(S_COLLECT), SW(S_GAME), SW(S_NO), SW(S_RED), SW(S_NO), SW(S_BLACK), SW(S_RESULT),
                          SW(S_SIGN_RED), SW(S_SIGN_BLACK), SW(S_SIGN_ARB)};
  static const char *const cls[10] = {"n", NULL, "n", NULL, "n", NULL, "c", NULL, NULL, NULL};
  int k = labels ? 0 : 1; /* without labels the game column is left out */
  const char *h[10], *c[10];
  for (int i = 0, j = 0; i < 10; i++)
    if (i != 1 || !k) { h[j] = head[i]; c[j++] = cls[i]; }
  char sub[64];
  round_text(sub, sizeof sub, pr->round, lang);
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, SW(S_SHEETS), sub, 10 - k, h, c, 0);
  if (rc) return rc;
  for (int b = 0; !rc && b < pr->nboards; b++) {
    const xq_tboard *bd = &pr->boards[b];
    if (!bd->black) continue;
    char t[16], rn[16], bn[16];
    snprintf(t, sizeof t, "%d", b + 1);
    snprintf(rn, sizeof rn, "%d", xq_tplayer_no(ev, bd->red));
    snprintf(bn, sizeof bn, "%d", xq_tplayer_no(ev, bd->black));
    const char *row[10] = {t, labels ? labels[b] : "", rn, ev->players[bd->red - 1].name, bn,
                           ev->players[bd->black - 1].name, "", "", "", ""};
    if (k) memmove(row + 1, row + 2, sizeof *row * 8);
    rc = xq__sheet_row(&sh, row);
  }
  int end = xq__sheet_end(&sh);
  return rc ? rc : end;
}

/* The checks and the sheet of xq_sheet_scoresheets and
 * xq_sheet_ko_scoresheets; `labels` one per board, or NULL. */
static int sheets(const xq_tournament *ev, const xq_tpairing *pr, char (*labels)[XQ__KO_LABEL_MAX], int format,
                  int lang, FILE *f)
{
  if (!ev || !pr || !f || !xq__sheet_format_ok(format) || (lang != XQ_LANG_EN && lang != XQ_LANG_ZH) ||
      pr->round < 1 || (pr->round > XQ_TOURNEY_ROUNDS_MAX && pr->round != XQ_KO_ROUND) || pr->nboards < 0 ||
      (pr->nboards && !pr->boards))
    return XQ_EINVAL;
  for (int b = 0; b < pr->nboards; b++)
    if (pr->boards[b].red < 1 || pr->boards[b].red > ev->n || pr->boards[b].black < 0 ||
        pr->boards[b].black > ev->n)
      return XQ_EINVAL;
  return format == XQ_SHEET_HTML ? html_sheets(ev, pr, labels, lang, f)
                                 : collect_sheet(ev, pr, labels, format, lang, f);
}

int xq_sheet_scoresheets(const xq_tournament *ev, const xq_tpairing *pr, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_scoresheets(ev, pr, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  return sheets(ev, pr, NULL, format, lang, f);
}

/* The label of knockout table `t` (1-based): its match's stage and
 * number in the stage, the game's number in the match and its type. */
static void ko_label(const xq_ko *ko, int t, int lang, char *buf, size_t cap)
{
  static const char *const gtype[4][2] = {{"standard", "慢棋"}, {"rapid", "快棋"}, {"blitz", "超快棋"},
                                          {"armageddon (a draw wins for Black)", "超快棋（和棋黑胜）"}};
  const xq_ko_table *kt = &ko->tables[t - 1];
  int game = 1, nth = 1, s = xq_ko_stage(ko, kt->match);
  for (int i = 0; i < ko->ngames; i++)
    if (ko->games[i].match == kt->match && ko->games[i].table != t) game++;
  const char *stage = xq__sheet_ko_match_stage(ko, kt->match, lang);
  for (int m = 1; m < kt->match; m++) /* the third-place match is a stage of its own */
    nth += xq_ko_stage(ko, m) == s && !strcmp(xq__sheet_ko_match_stage(ko, m, lang), stage);
  int type = kt->type >= XQ_KG_STANDARD && kt->type <= XQ_KG_ARMAGEDDON ? kt->type : XQ_KG_STANDARD;
  snprintf(buf, cap, lang == XQ_LANG_ZH ? "%s第%d场 · 第%d局 %s" : "%s %d · game %d, %s",
           stage, nth, game, gtype[type][lang == XQ_LANG_ZH]);
}

int xq_sheet_ko_scoresheets(const xq_tournament *ev, const xq_ko *ko, const xq_tpairing *pr, int format, int lang,
                            FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_ko_scoresheets(ev, ko, pr, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!ko || !pr || pr->round != XQ_KO_ROUND || pr->nboards < 0 || pr->nboards > ko->ntables) return XQ_EINVAL;
  char (*labels)[XQ__KO_LABEL_MAX] = calloc((size_t)(pr->nboards ? pr->nboards : 1), sizeof *labels);
  if (!labels) return XQ_ENOMEM;
  for (int b = 0; b < pr->nboards; b++) ko_label(ko, b + 1, lang, labels[b], sizeof labels[b]);
  int rc = sheets(ev, pr, labels, format, lang, f);
  free(labels);
  return rc;
}
