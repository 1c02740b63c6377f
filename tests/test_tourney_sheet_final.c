/*
 * test_tourney_sheet_final.c -- the sheets of the final results
 * (tourney/sheet/sheet_final.c, sheet_table.c): final and group places,
 * the prize list with its totals, team standings with prizes, the group
 * sheet with its men's and women's sections, and standings and pairings
 * as aligned text with CJK names, escaped HTML and quoted CSV, over small
 * events and the regulations' tables (regulation_fixture.h).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "prize.h"
#include "regulation_fixture.h"
#include "sheet/sheet.h"
#include "sheet/sheet_internal.h"
#include "tourney.h"

typedef struct mem {
  char *buf;
  size_t len;
  FILE *f;
} mem;

static void mem_open(mem *m)
{
  m->buf = NULL;
  m->len = 0;
  m->f = open_memstream(&m->buf, &m->len);
  cr_assert_not_null(m->f);
}

static char *mem_close(mem *m)
{
  cr_assert_eq(fclose(m->f), 0);
  return m->buf;
}

/* Display column at which `needle` starts in the line that holds it. */
static int column_of(const char *text, const char *needle)
{
  const char *at = strstr(text, needle);
  cr_assert_not_null(at, "%s not in:\n%s", needle, text);
  const char *line = at;
  while (line > text && line[-1] != '\n') line--;
  char buf[512];
  size_t n = (size_t)(at - line);
  cr_assert_lt(n, sizeof buf);
  memcpy(buf, line, n);
  buf[n] = 0;
  return xq__sheet_text_width(buf);
}

static xq_tournament *named_event(int *places)
{
  static const char *const names[] = {"张三丰", "Li Wei", "欧阳娜娜娜", "A&B <x>, \"q\""};
  xq_tournament *ev = xq_test_event(4, places);
  snprintf(ev->name, sizeof ev->name, "测试赛");
  for (int i = 0; i < 4; i++) {
    snprintf(ev->players[i].name, XQ_TOURNEY_NAME_MAX, "%s", names[i]);
    snprintf(ev->players[i].region, XQ_TOURNEY_FIELD_MAX, "R%d", i + 1);
  }
  return ev;
}

Test(sheets, text_columns_line_up_with_cjk_names)
{
  int places[4];
  xq_tournament *ev = named_event(places);
  mem m;
  mem_open(&m);
  cr_assert_eq(xq_sheet_places(ev, NULL, places, NULL, 4, XQ_SHEET_TEXT, XQ_LANG_ZH, m.f), XQ_OK);
  char *out = mem_close(&m);
  cr_assert(strstr(out, "测试赛\n最终名次\n\n"), "%s", out);
  cr_assert(strstr(out, "地区/单位"));
  /* the region column starts at one display column on every row, the
   * CJK names taking two columns a character */
  int c0 = column_of(out, "R1");
  cr_assert_eq(column_of(out, "R2"), c0, "%s", out);
  cr_assert_eq(column_of(out, "R3"), c0, "%s", out);
  cr_assert_eq(column_of(out, "R4"), c0, "%s", out);
  cr_assert_eq(column_of(out, "地区/单位"), c0, "%s", out);
  /* the widest name is 12 columns, 欧阳娜娜娜 10: four spaces after it */
  cr_assert(strstr(out, "欧阳娜娜娜    R3"), "%s", out);
  cr_assert_null(strstr(out, " \n"), "no trailing blanks");
  free(out);
  xq_tournament_free(ev);
}

Test(sheets, html_escapes_and_csv_quotes)
{
  int places[4];
  xq_tournament *ev = named_event(places);
  mem m;
  mem_open(&m);
  cr_assert_eq(xq_sheet_places(ev, "<Group>", places, NULL, 4, XQ_SHEET_HTML, XQ_LANG_EN, m.f), XQ_OK);
  char *out = mem_close(&m);
  cr_assert(strstr(out, "<!DOCTYPE html>"));
  cr_assert(strstr(out, "A&amp;B &lt;x&gt;, &quot;q&quot;"), "%s", out);
  cr_assert(strstr(out, "<h2>&lt;Group&gt;</h2>"), "%s", out);
  cr_assert_null(strstr(out, "<x>"));
  /* a signed sheet: the signature lines after the table, the page closed */
  cr_assert(strstr(out, "</table>\n<div class=\"sign\">\n<p>Chief arbiter's signature: ________________"), "%s", out);
  cr_assert(strstr(out, "</div>\n</body>\n</html>\n"));
  free(out);
  mem_open(&m);
  cr_assert_eq(xq_sheet_places(ev, NULL, places, NULL, 4, XQ_SHEET_CSV, XQ_LANG_EN, m.f), XQ_OK);
  out = mem_close(&m);
  cr_assert(strstr(out, "Place,Name,Region / club,Points,W-D-L\r\n"), "%s", out);
  cr_assert(strstr(out, "4,\"A&B <x>, \"\"q\"\"\",R4,0,0-0-0\r\n"), "%s", out);
  free(out);
  xq_tournament_free(ev);
}

Test(sheets, group_places_show_the_overall_place)
{
  int places[4];
  xq_tournament *ev = named_event(places);
  int ids[2] = {2, 4}, overall[2] = {2, 4};
  xq_tournament_slot(ev, 2, 1)->res = XQ_TR_WIN;
  xq_tournament_slot(ev, 2, 1)->opp = 4;
  xq_tournament_slot(ev, 4, 1)->res = XQ_TR_LOSS;
  xq_tournament_slot(ev, 4, 1)->opp = 2;
  ev->nrounds = 1;
  mem m;
  mem_open(&m);
  cr_assert_eq(xq_sheet_places(ev, "Women", ids, overall, 2, XQ_SHEET_CSV, XQ_LANG_EN, m.f), XQ_OK);
  char *out = mem_close(&m);
  cr_assert(strstr(out, "Place,Overall,Name,"));
  cr_assert(strstr(out, "1,2,Li Wei,R2,2,1-0-0\r\n"), "%s", out);
  cr_assert(strstr(out, "2,4,"), "%s", out);
  free(out);
  int bad[1] = {5};
  cr_assert_eq(xq_sheet_places(ev, NULL, bad, NULL, 1, XQ_SHEET_TEXT, XQ_LANG_EN, stdout), XQ_EINVAL);
  cr_assert_eq(xq_sheet_places(ev, NULL, ids, NULL, 2, 7, XQ_LANG_EN, stdout), XQ_EINVAL);
  xq_tournament_free(ev);
}

Test(sheets, prize_list_with_totals)
{
  xq_prize_table t;
  xq_test_prize_table("burqin2018", 30, &t);
  int places[30], na;
  xq_tournament *ev = xq_test_event(30, places);
  ev->players[0].local = 1;
  xq_award *aw = xq_test_award(ev, places, &t, &na);
  mem m;
  mem_open(&m);
  cr_assert_eq(xq_sheet_prizes(ev, &t, aw, na, XQ_SHEET_TEXT, XQ_LANG_ZH, m.f), XQ_OK);
  char *out = mem_close(&m);
  /* open 12700 + local first 1000 (P1 only is local) + lucky 18th, 28th */
  cr_assert(strstr(out, "个人 open 小计"), "%s", out);
  cr_assert(strstr(out, "12700\n"), "%s", out);
  cr_assert(strstr(out, "幸运奖"), "%s", out);
  const char *tot = strstr(out, "合计");
  cr_assert_not_null(tot);
  cr_assert(strstr(tot, "13900\n"), "12700 + 1000 + 2 x 100:\n%s", out);
  /* the amounts right-aligned in one column */
  cr_assert_eq(column_of(out, "5000\n"), column_of(out, "13900\n") + 1, "%s", out);
  free(out);
  free(aw);
  xq_test_prize_table("wujiaqu2024", 30, &t);
  mem_open(&m);
  cr_assert_eq(xq_sheet_prizes(ev, &t, NULL, 0, XQ_SHEET_HTML, XQ_LANG_EN, m.f), XQ_OK);
  out = mem_close(&m);
  cr_assert(strstr(out, "total 151000 stated, no table given"), "%s", out);
  free(out);
  xq_award bad = {31, 1, 0, 1, 100, 0};
  cr_assert_eq(xq_sheet_prizes(ev, &t, &bad, 1, XQ_SHEET_CSV, XQ_LANG_EN, stdout), XQ_EINVAL);
  xq_tournament_free(ev);
}

Test(sheets, team_standings_with_prizes)
{
  xq_prize_table t;
  xq_test_prize_table("xinjiang2018", 12, &t);
  int places[8], nt;
  xq_tournament *ev = xq_test_event(8, places);
  const char *teams[8] = {"乌鲁木齐", "昌吉", "乌鲁木齐", "昌吉", "乌鲁木齐", "昌吉", "克拉玛依", NULL};
  for (int i = 0; i < 8; i++)
    if (teams[i]) snprintf(ev->players[i].team, XQ_TOURNEY_FIELD_MAX, "%s", teams[i]);
  xq_team_row rows[4];
  cr_assert_eq(xq_team_standings(ev, places, XQ_TEAM_RANK_SUM, 3, rows, 4, &nt), XQ_OK);
  cr_assert_eq(xq_team_prizes(&t, rows, nt), 1500 + 800);
  mem m;
  mem_open(&m);
  cr_assert_eq(xq_sheet_teams(ev, rows, nt, XQ_TEAM_RANK_SUM, XQ_SHEET_TEXT, XQ_LANG_ZH, m.f), XQ_OK);
  char *out = mem_close(&m);
  /* 乌鲁木齐 1+3+5 = 9, 昌吉 2+4+6 = 12, 克拉玛依 unranked */
  cr_assert(strstr(out, "乌鲁木齐"), "%s", out);
  cr_assert(strstr(out, "P1、P3、P5"), "%s", out);
  cr_assert(strstr(out, "1500\n"), "%s", out);
  cr_assert_eq(column_of(out, "乌鲁木齐"), column_of(out, "克拉玛依"));
  cr_assert_eq(column_of(out, "昌吉"), column_of(out, "克拉玛依"), "left-aligned:\n%s", out);
  cr_assert_eq(column_of(out, "队名"), column_of(out, "昌吉"));
  const char *line = strstr(out, "克拉玛依");
  while (line[-1] != '\n') line--;
  cr_assert(line[strspn(line, " ")] == '-', "an unranked team shows -:\n%s", out);
  free(out);
  xq_tournament_free(ev);
}

Test(sheets, standings_and_pairings_as_text)
{
  cr_assert_eq(xq_sheet_format_parse("text"), XQ_SHEET_TEXT);
  int places[4];
  xq_tournament *ev = named_event(places);
  cr_assert_eq(xq_assign_pnos(ev), XQ_OK);
  xq_tpairing pr;
  cr_assert_eq(xq_pair_round1(ev, &pr), XQ_OK);
  cr_assert_eq(xq_tournament_apply_pairing(ev, &pr), XQ_OK);
  mem m;
  mem_open(&m);
  cr_assert_eq(xq_sheet_pairings(ev, &pr, XQ_SHEET_TEXT, XQ_LANG_EN, m.f), XQ_OK);
  char *out = mem_close(&m);
  cr_assert(strstr(out, "Pairings, round 1\n\n"), "%s", out);
  cr_assert(strstr(out, "Board"), "%s", out);
  free(out);
  mem_open(&m);
  cr_assert_eq(xq_sheet_standings(ev, 0, XQ_SHEET_TEXT, XQ_LANG_ZH, m.f), XQ_OK);
  out = mem_close(&m);
  cr_assert(strstr(out, "成绩排名"), "%s", out);
  cr_assert_eq(column_of(out, "张三丰"), column_of(out, "Li Wei"), "%s", out);
  free(out);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
}

Test(sheets, group_sheet_with_sections_and_merging)
{
  int places[8];
  xq_tournament *ev = xq_test_event(8, places);
  /* seniors: P1 m, P2 w, P3 w, P4 m; juniors: P5 w, P6 m; open: P7, P8 */
  static const char *const birth[8] = {"1950/01/01", "1951/01/01", "1952/01/01", "1953/01/01",
                                       "2004/01/01", "2005/01/01", "1990/01/01", "1991/01/01"};
  static const char sex[8] = {'m', 'w', 'w', 'm', 'w', 'm', 'm', 'w'};
  for (int i = 0; i < 8; i++) {
    snprintf(ev->players[i].birth, 11, "%s", birth[i]);
    ev->players[i].sex = sex[i];
  }
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int ng = xq_test_groups("tangshan2018", g);
  mem m;
  mem_open(&m);
  cr_assert_eq(xq_sheet_groups(ev, places, g, ng, XQ_SHEET_TEXT, XQ_LANG_EN, m.f), XQ_OK);
  char *out = mem_close(&m);
  /* two senior women: merged into the men's list (九.3), in place order */
  const char *sen = strstr(out, "老年组 seniors, men and women (fewer than 3 women: merged) (4)");
  cr_assert_not_null(sen, "%s", out);
  const char *p1 = strstr(sen, "P1"), *p2 = strstr(sen, "P2"), *p4 = strstr(sen, "P4");
  cr_assert(p1 && p2 && p4 && p1 < p2 && p2 < p4, "%s", out);
  cr_assert(strstr(out, "公开组 open (8)"), "%s", out);
  cr_assert(strstr(out, "儿童组 children (0)"), "no children: one empty list\n%s", out);
  cr_assert_eq(strstr(out, "regdata\n"), out, "one event heading:\n%s", out);
  cr_assert_null(strstr(out + 1, "regdata\n"), "%s", out);
  free(out);
  /* a third senior woman: two sections */
  ev->players[3].sex = 'w';
  mem_open(&m);
  cr_assert_eq(xq_sheet_groups(ev, places, g + 1, 1, XQ_SHEET_HTML, XQ_LANG_ZH, m.f), XQ_OK);
  out = mem_close(&m);
  cr_assert(strstr(out, "<h2>老年组 seniors 男子（1人）</h2>"), "%s", out);
  cr_assert(strstr(out, "<h2>老年组 seniors 女子（3人）</h2>"), "%s", out);
  const char *end = strstr(out, "</html>");
  cr_assert(end && !strstr(end + 1, "</html>"), "one page:\n%s", out);
  cr_assert_null(strstr(strstr(out, "<body>") + 1, "<body>"));
  free(out);
  xq_tournament_free(ev);
}
