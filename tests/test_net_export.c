/*
 * test_net_export.c -- the export op's sheets (docs/protocol.md "export"):
 * score sheets, final places, team standings and prizes equal what the
 * tourney module writes for the stored event; an XLSX sheet comes as
 * base64 of a workbook with a file name; bad combinations of the fields
 * are BAD_REQUEST, a round not paired NOT_FOUND.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knockout.h"
#include "net_fixture.h"
#include "pair/pair.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "store_fixture.h"
#include "tourney.h"

XQ_NET_SUITE(export, 9);

#define PRIZES "category Open all\n1 500\n2 300\n3 100\n"

/* Round 1's results: Red wins every board. */
static void finish_round(xq_tclient *c)
{
  for (int t = 1; t <= ts.nboards; t++)
    xq_tc_okf(c, "{\"id\":%d,\"op\":\"result\",\"round\":1,\"table\":%d,\"result\":\"1-0\"}", 100 + t, t);
}

typedef struct mem {
  char *buf;
  size_t len;
  FILE *f;
} mem;

static FILE *mem_open(mem *m)
{
  m->buf = NULL;
  m->len = 0;
  m->f = open_memstream(&m->buf, &m->len);
  cr_assert_not_null(m->f);
  return m->f;
}

/* The reply of `req` is ok, its text `want` (consumed), its what and file name. */
static void expect_text(xq_tclient *c, const char *req, mem *want, const char *what, const char *filename)
{
  fclose(want->f);
  cJSON *r = xq_tc_call(c, req);
  xq_tc_expect_ok(r);
  cr_assert_str_eq(xq_tj_str(r, "text"), want->buf, "%s", req);
  cr_assert_str_eq(xq_tj_str(r, "what"), what, "%s", req);
  cr_assert_str_eq(xq_tj_str(r, "filename"), filename, "%s", req);
  cJSON_Delete(r);
  free(want->buf);
}

Test(export, final_sheets_and_score_sheets_equal_the_writers)
{
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  finish_round(&c);
  xq_tpairing pr = {0};
  xq_tournament *ev = xq_test_store_event(ts.db, 1, &pr);
  mem m;
  cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_HTML, XQ_LANG_ZH, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":1,\"op\":\"export\",\"format\":\"html\",\"what\":\"scoresheets\",\"round\":1,\"lang\":\"zh\"}",
              &m, "scoresheets", "xqref-scoresheets-r1.html");
  cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_CSV, XQ_LANG_EN, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":2,\"op\":\"export\",\"format\":\"csv\",\"what\":\"scoresheets\",\"round\":1}", &m,
              "scoresheets", "xqref-scoresheets-r1.csv");
  /* a Swiss event's rounds table, a player's card, who plays where */
  cr_assert_eq(xq_sheet_crosstable(ev, 1, XQ_SHEET_TEXT, XQ_LANG_ZH, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":7,\"op\":\"export\",\"format\":\"text\",\"what\":\"crosstable\",\"round\":1,\"lang\":\"zh\"}",
              &m, "crosstable", "xqref-crosstable-r1.txt");
  cr_assert_eq(xq_sheet_cards(ev, 2, 1, XQ_SHEET_CSV, XQ_LANG_EN, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":8,\"op\":\"export\",\"format\":\"csv\",\"what\":\"cards\",\"round\":1,\"player\":2}", &m,
              "cards", "xqref-cards-r1.csv");
  cr_assert_eq(xq_sheet_where(ev, &pr, XQ_SHEET_HTML, XQ_LANG_ZH, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":9,\"op\":\"export\",\"format\":\"html\",\"what\":\"where\",\"round\":1,\"lang\":\"zh\"}",
              &m, "where", "xqref-where-r1.html");
  int *ids = malloc(sizeof *ids * (size_t)ev->n);
  cr_assert_eq(xq_final_places(ev, NULL, ids), XQ_OK);
  cr_assert_eq(xq_sheet_places(ev, "Final places", ids, NULL, ev->n, XQ_SHEET_CSV, XQ_LANG_EN, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":3,\"op\":\"export\",\"format\":\"csv\",\"what\":\"places\"}", &m, "places", "xqref-places.csv");
  /* team standings on points, two counted */
  xq_team_row rows[64];
  int nt = 0;
  xq_team_rule rule = {.mode = XQ_TEAM_POINTS_SUM, .counted = 2};
  cr_assert_eq(xq_team_standings_rule(ev, ids, &rule, rows, 64, &nt), XQ_OK);
  cr_assert_eq(xq_sheet_teams(ev, rows, nt, XQ_TEAM_POINTS_SUM, XQ_SHEET_TEXT, XQ_LANG_ZH, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":4,\"op\":\"export\",\"format\":\"text\",\"what\":\"teams\",\"mode\":\"points\",\"count\":2,\"lang\":\"zh\"}",
              &m, "teams", "xqref-teams.txt");
  /* prizes of a table given as text */
  xq_prize_table t;
  xq_award aw[64];
  int na = 0;
  cr_assert_eq(xq_prize_parse(PRIZES, strlen(PRIZES), &t, NULL), XQ_OK);
  cr_assert_eq(xq_prizes_award(ev, ids, &t, aw, 64, &na), XQ_OK);
  cr_assert_eq(na, 3);
  cr_assert_eq(xq_sheet_prizes(ev, &t, aw, na, XQ_SHEET_HTML, XQ_LANG_EN, mem_open(&m)), XQ_OK);
  cJSON *req = cJSON_CreateObject();
  cJSON_AddNumberToObject(req, "id", 5);
  cJSON_AddStringToObject(req, "op", "export");
  cJSON_AddStringToObject(req, "format", "html");
  cJSON_AddStringToObject(req, "what", "prizes");
  cJSON_AddStringToObject(req, "prizes", PRIZES);
  char *line = cJSON_PrintUnformatted(req);
  expect_text(&c, line, &m, "prizes", "xqref-prizes.html");
  free(line);
  cJSON_Delete(req);
  /* and of a preset's table */
  const xq_regulation *reg;
  cr_assert_eq(xq_regulation_find("xinjiang2018", &reg), XQ_OK);
  cr_assert_eq(xq_regulation_prizes(reg, ev->n, &t, NULL), XQ_OK);
  cr_assert_eq(xq_prizes_award(ev, ids, &t, aw, 64, &na), XQ_OK);
  cr_assert_eq(xq_sheet_prizes(ev, &t, aw, na, XQ_SHEET_CSV, XQ_LANG_ZH, mem_open(&m)), XQ_OK);
  expect_text(&c, "{\"id\":6,\"op\":\"export\",\"format\":\"csv\",\"what\":\"prizes\",\"preset\":\"xinjiang2018\",\"lang\":\"zh\"}",
              &m, "prizes", "xqref-prizes.csv");
  free(ids);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_tc_close(&c);
}

/* RFC 4648 base64 into out; the bytes, or -1 on a bad character. */
static long unbase64(const char *s, unsigned char *out, size_t cap)
{
  static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t n = 0;
  uint32_t v = 0;
  int k = 0;
  for (; *s && *s != '='; s++) {
    const char *p = strchr(abc, *s);
    if (!p) return -1;
    v = v << 6 | (uint32_t)(p - abc);
    if (++k == 4) {
      if (n + 3 > cap) return -1;
      out[n++] = (unsigned char)(v >> 16);
      out[n++] = (unsigned char)(v >> 8);
      out[n++] = (unsigned char)v;
      v = 0;
      k = 0;
    }
  }
  if (k == 3) { out[n++] = (unsigned char)(v >> 10); out[n++] = (unsigned char)(v >> 2); }
  if (k == 2) out[n++] = (unsigned char)(v >> 4);
  return (long)n;
}

Test(export, xlsx_comes_as_base64_of_a_workbook)
{
  xq_tclient c;
  xq_fx_connect(&c, ts.arbiter);
  static const char *const reqs[][2] = {
    {"{\"id\":1,\"op\":\"export\",\"format\":\"xlsx\",\"what\":\"standings\",\"round\":1,\"lang\":\"zh\"}", "xqref-standings-r1.xlsx"},
    {"{\"id\":2,\"op\":\"export\",\"format\":\"xlsx\",\"what\":\"pairings\",\"round\":1}", "xqref-pairings-r1.xlsx"},
    {"{\"id\":3,\"op\":\"export\",\"format\":\"xlsx\",\"what\":\"scoresheets\"}", "xqref-scoresheets-r1.xlsx"},
    {"{\"id\":4,\"op\":\"export\",\"format\":\"xlsx\",\"what\":\"places\"}", "xqref-places.xlsx"},
    {"{\"id\":5,\"op\":\"export\",\"format\":\"xlsx\",\"what\":\"teams\"}", "xqref-teams.xlsx"},
  };
  static unsigned char book[1 << 20];
  for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
    cJSON *r = xq_tc_call(&c, reqs[i][0]);
    xq_tc_expect_ok(r);
    cr_assert_str_eq(xq_tj_str(r, "format"), "xlsx");
    cr_assert_str_eq(xq_tj_str(r, "filename"), reqs[i][1]);
    cr_assert_null(xq_tj_get(r, "text"), "a workbook is no text");
    long n = unbase64(xq_tj_str(r, "base64"), book, sizeof book);
    cr_assert(n > 1000, "%s: %ld bytes", reqs[i][0], n);
    cr_assert_eq(memcmp(book, "PK\x03\x04", 4), 0, "%s: a ZIP", reqs[i][0]);
    cr_assert_not_null(memmem(book, (size_t)n, "xl/worksheets/sheet1.xml", 24));
    cr_assert_not_null(memmem(book, (size_t)n, "xl/sharedStrings.xml", 20));
    cJSON_Delete(r);
  }
  xq_tc_close(&c);
}

Test(export, bad_combinations_are_refused)
{
  xq_tclient c;
  xq_fx_connect(&c, ts.admin);
  static const char *const bad[] = {
    "{\"id\":1,\"op\":\"export\",\"format\":\"ods\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"xlsx\",\"what\":\"event\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"trf\",\"what\":\"scoresheets\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"places\",\"round\":1}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"standings\",\"mode\":\"points\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"places\",\"preset\":\"xinjiang2018\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"prizes\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"prizes\",\"preset\":\"xinjiang2018\",\"prizes\":\"category A all\\n1 5\\n\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"prizes\",\"preset\":\"nowhere\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"prizes\",\"prizes\":\"category\\n\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"prizes\",\"preset\":\"xinjiang2018\",\"count\":2}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"teams\",\"mode\":\"sum\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"teams\",\"count\":99}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"teams\",\"preset\":\"wujiaqu2024\"}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"standings\",\"player\":1}", /* cards only */
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"cards\",\"player\":-1}",
    "{\"id\":1,\"op\":\"export\",\"format\":\"csv\",\"what\":\"crosstable\",\"mode\":\"points\"}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) xq_tc_errf(&c, "BAD_REQUEST", "%s", bad[i]);
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":2,\"op\":\"export\",\"format\":\"html\",\"what\":\"scoresheets\",\"round\":5}");
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":2,\"op\":\"export\",\"format\":\"csv\",\"what\":\"where\",\"round\":5}");
  xq_tc_errf(&c, "NOT_FOUND", "{\"id\":2,\"op\":\"export\",\"format\":\"csv\",\"what\":\"cards\",\"player\":999}");
  /* the connection still answers */
  xq_tc_okf(&c, "{\"id\":3,\"op\":\"export\",\"format\":\"csv\",\"what\":\"places\"}");
  xq_tc_close(&c);
}
