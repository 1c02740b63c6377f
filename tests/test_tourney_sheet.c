/*
 * test_tourney_sheet.c -- standings and pairings as CSV and printable
 * HTML: RFC 4180 quoting of names with commas and quotes, HTML escaping,
 * the English and Chinese headings, the published boards read back from
 * the store, and `xqref tourney export --format csv|html` with its usage
 * errors.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pair/pair.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "store_fixture.h"
#include "support.h"
#include "tourney.h"

#define COMMA_NAME "Smith, \"Bob\""
#define HTML_NAME "<b>&\""

/* A five-player event of two rounds, round 2 results pending on board 2. */
static void build_event(const char *path)
{
  static const char *const names[] = {"张三", COMMA_NAME, HTML_NAME, "李四", "Wang Wu"};
  xq_test_db_remove(path);
  xq_tstore *st = xq_test_store_new(path, "Cup " HTML_NAME, 3);
  xq_error err = {0};
  for (int i = 0; i < 5; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", names[i]);
    p.rating = 2000 - 50 * i;
    cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK, "%s", err.msg);
  }
  const char *codes[2][2] = {{"1-0", "="}, {"0-1", NULL}};
  for (int round = 1; round <= 2; round++) {
    xq_tpairing pr = {0};
    xq_test_store_pair_cn(st, round, &pr);
    for (int b = 0, k = 0; b < pr.nboards; b++)
      if (pr.boards[b].black && codes[round - 1][k])
        cr_assert_eq(xq_tstore_result(st, round, b + 1, codes[round - 1][k++], &err), XQ_OK, "%s", err.msg);
    xq_tpairing_clear(&pr);
  }
  xq_tstore_close(st);
}

/* Output of a sheet writer as a NUL-terminated string (caller frees). */
static char *capture_standings(const xq_tournament *ev, int fmt, int lang)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_not_null(f);
  cr_assert_eq(xq_sheet_standings(ev, 0, fmt, lang, f), XQ_OK);
  fclose(f);
  return buf;
}

static char *capture_pairings(const xq_tournament *ev, const xq_tpairing *pr, int fmt, int lang)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_not_null(f);
  cr_assert_eq(xq_sheet_pairings(ev, pr, fmt, lang, f), XQ_OK);
  fclose(f);
  return buf;
}

#define FIELDS_MAX 32
#define FIELD_LEN 300

/* Parse one RFC 4180 record at *p (which must end with CRLF) into
 * fields[]; returns the number of fields and advances *p past the CRLF,
 * or -1 on a malformed record. */
static int csv_record(const char **p, char fields[][FIELD_LEN])
{
  const char *s = *p;
  int n = 0;
  for (;;) {
    if (n == FIELDS_MAX) return -1;
    size_t k = 0;
    if (*s == '"') {
      s++;
      for (;;) {
        if (!*s) return -1;
        if (*s == '"' && s[1] == '"') { fields[n][k++] = '"'; s += 2; continue; }
        if (*s == '"') { s++; break; }
        fields[n][k++] = *s++;
        if (k + 1 >= FIELD_LEN) return -1;
      }
    } else {
      while (*s && *s != ',' && *s != '\r' && *s != '\n' && *s != '"') {
        fields[n][k++] = *s++;
        if (k + 1 >= FIELD_LEN) return -1;
      }
    }
    fields[n++][k] = 0;
    if (*s == ',') { s++; continue; }
    if (s[0] == '\r' && s[1] == '\n') { *p = s + 2; return n; }
    return -1;
  }
}

/* The sheet's heading line for `upto` (0: the default). */
static char *standings_heading(const xq_tournament *ev, int upto, int lang)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(xq_sheet_standings(ev, upto, XQ_SHEET_TEXT, lang, f), XQ_OK);
  fclose(f);
  return buf;
}

Test(sheet, after_round_r_only_when_its_games_are_all_in)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_heading");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  char *t = standings_heading(ev, 0, XQ_LANG_ZH);
  cr_assert(strstr(t, "第1轮后") && !strstr(t, "第2轮后"), "%s", t);
  free(t);
  t = standings_heading(ev, 2, XQ_LANG_ZH);
  cr_assert(strstr(t, "第2轮进行中"), "%s", t);
  free(t);
  t = standings_heading(ev, 2, XQ_LANG_EN);
  cr_assert(strstr(t, "round 2 in progress"), "%s", t);
  free(t);
  xq_tournament_free(ev);
}

Test(sheet, csv_standings_rows_and_quoting)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_csv");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  /* round 2 has a game without its result: the sheet is after round 1 */
  cr_assert_eq(xq_tournament_rounds_complete(ev), 1);
  xq_tstanding s[5];
  cr_assert_eq(xq_standings(ev, 1, s), XQ_OK);
  char *csv = capture_standings(ev, XQ_SHEET_CSV, XQ_LANG_EN);
  /* the quoted form is written literally: quotes doubled, field quoted */
  cr_assert_not_null(strstr(csv, ",\"Smith, \"\"Bob\"\"\","), "%s", csv);
  cr_assert_not_null(strstr(csv, ",\"<b>&\"\"\","), "%s", csv);
  cr_assert_not_null(strstr(csv, ",张三,"), "%s", csv);
  const char *p = csv;
  char f[FIELDS_MAX][FIELD_LEN];
  int ncols = 3 + ev->cfg.ntb + 1;
  cr_assert_eq(csv_record(&p, f), ncols);
  cr_assert_str_eq(f[0], "Rank");
  cr_assert_str_eq(f[2], "Name");
  cr_assert_str_eq(f[3], "Points");
  cr_assert_str_eq(f[4], "Opp. score");
  cr_assert_str_eq(f[ncols - 1], "W-D-L");
  for (int i = 0; i < ev->n; i++) {
    cr_assert_eq(csv_record(&p, f), ncols, "row %d of\n%s", i + 1, csv);
    const xq_tplayer *pl = &ev->players[s[i].id - 1];
    cr_assert_eq(atoi(f[0]), i + 1);
    cr_assert_eq(atoi(f[1]), pl->pno);
    cr_assert_str_eq(f[2], pl->name);
    /* points as a decimal of the half-units */
    cr_assert_eq((int)(atof(f[3]) * 2 + 0.5), (int)s[i].val[0]);
    char wdl[32];
    snprintf(wdl, sizeof wdl, "%d-%d-%d", s[i].wins, s[i].draws, s[i].losses);
    cr_assert_str_eq(f[ncols - 1], wdl);
  }
  cr_assert_eq(*p, 0, "nothing after the last row");
  free(csv);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

Test(sheet, csv_pairings_from_the_store)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_pair");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  xq_tstore *st;
  xq_error err = {0};
  xq_tpairing pr = {0};
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK);
  cr_assert_eq(xq_tstore_pairing(st, 3, &pr, &err), XQ_EINVAL, "round 3 is not paired");
  cr_assert_eq(pr.nboards, 0);
  cr_assert_eq(xq_tstore_pairing(st, 1, &pr, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  cr_assert_eq(pr.nboards, 3, "five players: two boards and the bye");
  char *csv = capture_pairings(ev, &pr, XQ_SHEET_CSV, XQ_LANG_EN);
  const char *p = csv;
  char f[FIELDS_MAX][FIELD_LEN];
  cr_assert_eq(csv_record(&p, f), 8);
  cr_assert_str_eq(f[0], "Board");
  cr_assert_str_eq(f[2], "Red");
  cr_assert_str_eq(f[6], "Black");
  for (int b = 0; b < pr.nboards; b++) {
    cr_assert_eq(csv_record(&p, f), 8, "%s", csv);
    const xq_tboard *bd = &pr.boards[b];
    cr_assert_eq(atoi(f[0]), b + 1);
    cr_assert_str_eq(f[2], ev->players[bd->red - 1].name);
    cr_assert_str_eq(f[3], "0", "points before round 1");
    if (!bd->black) { cr_assert_str_eq(f[4], "bye"); cr_assert_str_eq(f[6], ""); continue; }
    cr_assert_str_eq(f[6], ev->players[bd->black - 1].name);
    cr_assert_str_eq(f[4], b == 0 ? "1-0" : "=", "the results recorded in build_event");
  }
  xq_tpairing_clear(&pr);
  free(csv);
  /* round 2: one result recorded, one pending; points before the round */
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK);
  cr_assert_eq(xq_tstore_pairing(st, 2, &pr, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  csv = capture_pairings(ev, &pr, XQ_SHEET_CSV, XQ_LANG_ZH);
  p = csv;
  cr_assert_eq(csv_record(&p, f), 8);
  cr_assert_str_eq(f[0], "台次");
  cr_assert_str_eq(f[2], "红方");
  int pending = 0, recorded = 0;
  for (int b = 0; b < pr.nboards; b++) {
    cr_assert_eq(csv_record(&p, f), 8);
    char pts[16];
    snprintf(pts, sizeof pts, "%g", xq_tournament_points(ev, pr.boards[b].red, 1) / 2.0);
    cr_assert_str_eq(f[3], pts);
    if (!pr.boards[b].black) cr_assert_str_eq(f[4], "轮空");
    else if (!f[4][0]) pending++;
    else { cr_assert_str_eq(f[4], "0-1"); recorded++; }
  }
  cr_assert_eq(pending, 1);
  cr_assert_eq(recorded, 1);
  xq_tpairing_clear(&pr);
  free(csv);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

Test(sheet, html_escapes_and_speaks_both_languages)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_html");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  for (int lang = XQ_LANG_EN; lang <= XQ_LANG_ZH; lang++) {
    char *h = capture_standings(ev, XQ_SHEET_HTML, lang);
    cr_assert_eq(strncmp(h, "<!DOCTYPE html>\n", 16), 0);
    cr_assert_not_null(strstr(h, lang == XQ_LANG_ZH ? "<html lang=\"zh\">" : "<html lang=\"en\">"));
    cr_assert_not_null(strstr(h, "<meta charset=\"utf-8\">"));
    cr_assert_not_null(strstr(h, "<style>"));
    cr_assert_not_null(strstr(h, "</html>\n"));
    /* names and the event name escaped, never raw */
    cr_assert_not_null(strstr(h, "<td>&lt;b&gt;&amp;&quot;</td>"), "%s", h);
    cr_assert_not_null(strstr(h, "<td>Smith, &quot;Bob&quot;</td>"));
    cr_assert_not_null(strstr(h, "<h1>Cup &lt;b&gt;&amp;&quot;</h1>"));
    cr_assert_null(strstr(h, HTML_NAME));
    /* no external resources */
    cr_assert_null(strstr(h, "<link"));
    cr_assert_null(strstr(h, "src="));
    cr_assert_null(strstr(h, "url("));
    static const char *const en[] = {"<th>Rank</th>", "<th>Name</th>", "<th>Points</th>",
                                      "<th>Opp. score</th>", "<th>Wins</th>", "Standings"};
    static const char *const zh[] = {"<th>名次</th>", "<th>姓名</th>", "<th>积分</th>",
                                      "<th>对手分</th>", "<th>胜局</th>", "成绩排名"};
    for (int i = 0; i < 6; i++) {
      cr_assert_not_null(strstr(h, (lang == XQ_LANG_ZH ? zh : en)[i]), "%s", (lang == XQ_LANG_ZH ? zh : en)[i]);
      cr_assert_null(strstr(h, (lang == XQ_LANG_ZH ? en : zh)[i]), "%s", (lang == XQ_LANG_ZH ? en : zh)[i]);
    }
    /* one row per player */
    int rows = 0;
    for (const char *q = strstr(h, "<tbody>"); (q = strstr(q + 1, "<tr>")); ) rows++;
    cr_assert_eq(rows, ev->n);
    free(h);
  }
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

Test(sheet, bad_arguments_are_refused)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_bad");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  FILE *f = tmpfile();
  cr_assert_not_null(f);
  cr_assert_eq(xq_sheet_standings(ev, 0, XQ_SHEET_TRF, XQ_LANG_EN, f), XQ_EINVAL);
  cr_assert_eq(xq_sheet_standings(ev, 0, XQ_SHEET_CSV, 7, f), XQ_EINVAL);
  xq_tboard bad = {99, 1};
  xq_tpairing pr = {1, 1, &bad};
  cr_assert_eq(xq_sheet_pairings(ev, &pr, XQ_SHEET_CSV, XQ_LANG_EN, f), XQ_EINVAL);
  cr_assert_eq(ftell(f), 0, "nothing written on a refused call");
  fclose(f);
  cr_assert_eq(xq_sheet_format_parse("csv"), XQ_SHEET_CSV);
  cr_assert_eq(xq_sheet_format_parse("html"), XQ_SHEET_HTML);
  cr_assert_eq(xq_sheet_format_parse("trf"), XQ_SHEET_TRF);
  cr_assert_eq(xq_sheet_format_parse("pdf"), -1);
  cr_assert_eq(xq_sheet_lang_parse("zh"), XQ_LANG_ZH);
  cr_assert_eq(xq_sheet_lang_parse("fr"), -1);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

/* Run `xqref tourney export --db path ARGS` with stdout to out, stderr to
 * errf; returns the exit status. */
static int run_export(const char *path, const char *args, const char *out, const char *errf)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' tourney export --db '%s' %s >'%s' 2>'%s'", XQ_BINARY, path, args, out, errf);
  int st = system(cmd);
  cr_assert(WIFEXITED(st), "%s", cmd);
  return WEXITSTATUS(st);
}

static char *slurp(const char *file)
{
  FILE *f = fopen(file, "rb");
  cr_assert_not_null(f, "%s", file);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

Test(sheet, cli_export_formats_and_usage_errors)
{
  char path[512], out[600], errf[600], file[600];
  xq_test_db_path(path, sizeof path, "sheet_cli");
  snprintf(out, sizeof out, "%s.out", path);
  snprintf(errf, sizeof errf, "%s.err", path);
  snprintf(file, sizeof file, "%s.csv", path);
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  /* --out FILE holds what the library writes */
  char args[800];
  snprintf(args, sizeof args, "--format csv --out '%s'", file);
  cr_assert_eq(run_export(path, args, out, errf), 0, "%s", slurp(errf));
  char *want = capture_standings(ev, XQ_SHEET_CSV, XQ_LANG_EN);
  cr_assert_str_eq(slurp(file), want);
  free(want);
  cr_assert_eq(run_export(path, "--format html --lang zh --what standings", out, errf), 0);
  want = capture_standings(ev, XQ_SHEET_HTML, XQ_LANG_ZH);
  cr_assert_str_eq(slurp(out), want);
  free(want);
  cr_assert_eq(run_export(path, "--format html --what pairings --round 1", out, errf), 0);
  cr_assert_not_null(strstr(slurp(out), "<h2>Pairings, round 1</h2>"));
  cr_assert_eq(run_export(path, "--format csv --what pairings", out, errf), 0);
  cr_assert_not_null(strstr(slurp(out), "\"Smith, \"\"Bob\"\"\""));
  /* usage errors: exit 2 and a message naming the choices */
  cr_assert_eq(run_export(path, "--format pdf", out, errf), 2);
  cr_assert_not_null(strstr(slurp(errf), "--format is trf, csv, html, text or xlsx"));
  cr_assert_eq(run_export(path, "--format html --lang fr", out, errf), 2);
  cr_assert_not_null(strstr(slurp(errf), "--lang is zh or en"));
  cr_assert_eq(run_export(path, "--format csv --what prizes", out, errf), 2);
  cr_assert_not_null(strstr(slurp(errf), "--what is standings, pairings, scoresheets or crosstable"));
  cr_assert_eq(run_export(path, "--lang zh", out, errf), 2, "TRF has no language");
  /* a round not paired is a failure, not a usage error */
  cr_assert_eq(run_export(path, "--format csv --what pairings --round 3", out, errf), 1);
  cr_assert_not_null(strstr(slurp(errf), "round 3 is not paired"));
  /* the TRF default is unchanged */
  cr_assert_eq(run_export(path, "", out, errf), 0);
  cr_assert_eq(strncmp(slurp(out), "012 ", 4), 0, "%s", slurp(out));
  xq_tournament_free(ev);
  unlink(out);
  unlink(errf);
  unlink(file);
  xq_test_db_remove(path);
}

/* The event's name, dates and venue (its settings) head every sheet and
 * slip: standings (HTML, text), pairings, score sheets, board slips; an
 * event without them prints no empty line. */
Test(sheet, the_heading_carries_the_name_dates_and_venue)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_heading");
  build_event(path);
  xq_tstore *st = xq_test_store_open(path);
  xq_error err = {0};
  xq_tsettings s = {.name = "全国象棋赛", .info = {.dates = "2026年5月1日至5日", .venue = "北京 <棋院>"}};
  cr_assert_eq(xq_tstore_settings(st, &s, XQ_TS_NAME | XQ_TS_DATES | XQ_TS_VENUE, NULL, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  xq_tpairing pr = {0};
  st = xq_test_store_open(path);
  cr_assert_eq(xq_tstore_pairing(st, 2, &pr, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  const char *line = "2026年5月1日至5日 · 北京 &lt;棋院&gt;";
  for (int lang = XQ_LANG_EN; lang <= XQ_LANG_ZH; lang++) {
    char *h = capture_standings(ev, XQ_SHEET_HTML, lang);
    cr_assert(strstr(h, "<h1>全国象棋赛</h1>\n<p class=\"event\">") && strstr(h, line), "%s", h);
    free(h);
    h = capture_standings(ev, XQ_SHEET_TEXT, lang);
    cr_assert(!strncmp(h, "全国象棋赛\n2026年5月1日至5日 · 北京 <棋院>\n", strlen("全国象棋赛\n2026年5月1日至5日 · 北京 <棋院>\n")),
              "%s", h);
    free(h);
    h = capture_pairings(ev, &pr, XQ_SHEET_HTML, lang);
    cr_assert(strstr(h, "<h1>全国象棋赛</h1>") && strstr(h, line), "%s", h);
    free(h);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_HTML, lang, f), XQ_OK);
    fclose(f);
    cr_assert(strstr(buf, "<h1>全国象棋赛</h1>") && strstr(buf, line), "%s", buf);
    cr_assert(strstr(buf, lang == XQ_LANG_ZH ? "地点：北京 &lt;棋院&gt;" : "Venue 北京 &lt;棋院&gt;"), "%s", buf);
    free(buf);
    const char *tokens[8] = {"0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef",
                             "0123456789abcdef0123456789abcdef"};
    f = open_memstream(&buf, &len);
    cr_assert_eq(xq_sheet_slips(ev, &pr, tokens, "http://localhost:8080/", lang, f), XQ_OK);
    fclose(f);
    cr_assert(strstr(buf, "<h1>全国象棋赛") && strstr(buf, line), "%s", buf);
    free(buf);
  }
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  /* without dates and venue: no empty line under the heading */
  build_event(path);
  ev = xq_test_store_event(path, 0, NULL);
  char *h = capture_standings(ev, XQ_SHEET_HTML, XQ_LANG_ZH);
  cr_assert_null(strstr(h, "class=\"event\""), "%s", h);
  free(h);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}
