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
    /* 单位: a club, else the team (player 3: neither) */
    if (i < 2) snprintf(p.club, sizeof p.club, "Club %d", i + 1);
    else if (i != 2) snprintf(p.team, sizeof p.team, "Team %d", i + 1);
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
  /* rank, number, name, club, a column per tie-break but the roundback
   * comparisons (they leave no value), W-D-L */
  int ncols = 4 + 1;
  for (int t = 0; t < ev->cfg.ntb; t++)
    ncols += ev->cfg.tb[t] != XQ_TB_ROUNDBACK_LAST && ev->cfg.tb[t] != XQ_TB_ROUNDBACK_FIRST;
  cr_assert_eq(csv_record(&p, f), ncols);
  cr_assert_str_eq(f[0], "Rank");
  cr_assert_str_eq(f[2], "Name");
  cr_assert_str_eq(f[3], "Club");
  cr_assert_str_eq(f[4], "Points");
  cr_assert_str_eq(f[5], "Opp. score");
  cr_assert_str_eq(f[ncols - 1], "W-D-L");
  for (int i = 0; i < ev->n; i++) {
    cr_assert_eq(csv_record(&p, f), ncols, "row %d of\n%s", i + 1, csv);
    const xq_tplayer *pl = &ev->players[s[i].id - 1];
    cr_assert_eq(atoi(f[0]), i + 1);
    cr_assert_eq(atoi(f[1]), pl->pno);
    cr_assert_str_eq(f[2], pl->name);
    cr_assert_str_eq(f[3], pl->club[0] ? pl->club : pl->team);
    /* points as a decimal of the half-units */
    cr_assert_eq((int)(atof(f[4]) * 2 + 0.5), (int)s[i].val[0]);
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
  /* board, no, Red, club, points, result, no, Black, club, points */
  cr_assert_eq(csv_record(&p, f), 10);
  cr_assert_str_eq(f[0], "Board");
  cr_assert_str_eq(f[2], "Red");
  cr_assert_str_eq(f[3], "Club");
  cr_assert_str_eq(f[7], "Black");
  cr_assert_str_eq(f[8], "Club");
  for (int b = 0; b < pr.nboards; b++) {
    cr_assert_eq(csv_record(&p, f), 10, "%s", csv);
    const xq_tboard *bd = &pr.boards[b];
    const xq_tplayer *red = &ev->players[bd->red - 1];
    cr_assert_eq(atoi(f[0]), b + 1);
    cr_assert_str_eq(f[2], red->name);
    cr_assert_str_eq(f[3], red->club[0] ? red->club : red->team);
    cr_assert_str_eq(f[4], "0", "points before round 1");
    if (!bd->black) { cr_assert_str_eq(f[5], "bye"); cr_assert_str_eq(f[7], ""); continue; }
    const xq_tplayer *black = &ev->players[bd->black - 1];
    cr_assert_str_eq(f[7], black->name);
    cr_assert_str_eq(f[8], black->club[0] ? black->club : black->team);
    cr_assert_str_eq(f[5], b == 0 ? "1-0" : "½-½", "the results recorded in build_event, as arbiters write them");
  }
  xq_tpairing_clear(&pr);
  free(csv);
  /* round 2: one result recorded, one pending; points before the round */
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK);
  cr_assert_eq(xq_tstore_pairing(st, 2, &pr, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  csv = capture_pairings(ev, &pr, XQ_SHEET_CSV, XQ_LANG_ZH);
  p = csv;
  cr_assert_eq(csv_record(&p, f), 10);
  cr_assert_str_eq(f[0], "台次");
  cr_assert_str_eq(f[2], "红方");
  cr_assert_str_eq(f[3], "单位");
  int pending = 0, recorded = 0;
  for (int b = 0; b < pr.nboards; b++) {
    cr_assert_eq(csv_record(&p, f), 10);
    char pts[16];
    snprintf(pts, sizeof pts, "%g", xq_tournament_points(ev, pr.boards[b].red, 1) / 2.0);
    cr_assert_str_eq(f[4], pts);
    if (!pr.boards[b].black) cr_assert_str_eq(f[5], "轮空");
    else if (!f[5][0]) pending++;
    else { cr_assert_str_eq(f[5], "0-1"); recorded++; }
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
  cr_assert_not_null(strstr(slurp(errf), "--what is standings, pairings, scoresheets, crosstable, cards or where"));
  cr_assert_eq(run_export(path, "--lang zh", out, errf), 2, "TRF has no language");
  cr_assert_eq(run_export(path, "--format csv --what standings --player 1", out, errf), 2);
  cr_assert_not_null(strstr(slurp(errf), "--player is for --what cards"));
  /* the sheets that follow the players round by round */
  cr_assert_eq(run_export(path, "--format text --what cards --player 1", out, errf), 0, "%s", slurp(errf));
  cr_assert_not_null(strstr(slurp(out), "Score card: 1 "), "%s", slurp(out));
  cr_assert_eq(run_export(path, "--format text --what where --round 2 --lang zh", out, errf), 0, "%s", slurp(errf));
  cr_assert_not_null(strstr(slurp(out), "棋手座位表（按姓名） 第2轮"), "%s", slurp(out));
  cr_assert_eq(run_export(path, "--format text --what crosstable", out, errf), 0, "%s", slurp(errf));
  cr_assert_not_null(strstr(slurp(out), "Rounds table, after round 2"), "%s", slurp(out));
  cr_assert_eq(run_export(path, "--format text --what cards --player 77", out, errf), 1, "no player numbered 77");
  cr_assert_not_null(strstr(slurp(errf), "no player has the number 77"), "%s", slurp(errf));
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

/* A sheet writer's output as a string (caller frees): `call` writes to
 * the stream `f` the macro opens. */
static char *capture_buf;
static size_t capture_len;
#define CAPTURE(call)                                                 \
  ({                                                                  \
    FILE *f = open_memstream(&capture_buf, &capture_len);             \
    cr_assert_not_null(f);                                            \
    cr_assert_eq((call), XQ_OK, "%s", #call);                         \
    fclose(f);                                                        \
    capture_buf;                                                      \
  })

/* Issue 35, the sheets as arbiters print them: the signed sheets end
 * with the organiser, the chief arbiter and the lines they sign and
 * date; the data formats carry none. */
Test(sheet, printed_sheets_are_signed)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_sign");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  snprintf(ev->info.organiser, sizeof ev->info.organiser, "市象棋协会");
  snprintf(ev->info.arbiter, sizeof ev->info.arbiter, "张裁判");
  char *t = CAPTURE(xq_sheet_standings(ev, 0, XQ_SHEET_TEXT, XQ_LANG_ZH, f));
  cr_assert(strstr(t, "\n\n主办单位：市象棋协会\n裁判长：张裁判\n裁判长签名：________________    日期：________________\n"),
            "%s", t);
  free(t);
  char *h = CAPTURE(xq_sheet_standings(ev, 0, XQ_SHEET_HTML, XQ_LANG_EN, f));
  cr_assert(strstr(h, "</table>\n<div class=\"sign\">\n<p>Organiser: 市象棋协会</p>\n<p>Chief arbiter: 张裁判</p>\n"), "%s", h);
  cr_assert(strstr(h, "</div>\n</body>\n</html>\n"), "%s", h);
  free(h);
  char *c = CAPTURE(xq_sheet_standings(ev, 0, XQ_SHEET_CSV, XQ_LANG_ZH, f));
  cr_assert_null(strstr(c, "签名"), "%s", c);
  free(c);
  /* no organiser or arbiter named: the signature line alone */
  ev->info.organiser[0] = ev->info.arbiter[0] = 0;
  xq_tpairing pr = {0};
  xq_tournament_free(ev);
  ev = xq_test_store_event(path, 1, &pr);
  t = CAPTURE(xq_sheet_pairings(ev, &pr, XQ_SHEET_TEXT, XQ_LANG_EN, f));
  cr_assert(strstr(t, "\n\nChief arbiter's signature: ________________    Date: ________________\n"), "%s", t);
  cr_assert_null(strstr(t, "Organiser"), "%s", t);
  free(t);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

/* A Swiss event's cross table is its rounds table: a row per player in
 * standings order, each round's cell the opponent's number, the colour
 * and the result, the bye by name; a card lists one player's rounds in
 * words with his running points. */
Test(sheet, rounds_table_and_score_cards)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_rounds");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  xq_tstanding s[5];
  cr_assert_eq(xq_standings(ev, 2, s), XQ_OK);
  char *csv = CAPTURE(xq_sheet_crosstable(ev, 2, XQ_SHEET_CSV, XQ_LANG_EN, f));
  const char *p = csv;
  char fl[FIELDS_MAX][FIELD_LEN];
  cr_assert_eq(csv_record(&p, fl), 7, "rank, no, name, club, R1, R2, points: %s", csv);
  cr_assert_str_eq(fl[4], "R1");
  for (int i = 0; i < ev->n; i++) {
    cr_assert_eq(csv_record(&p, fl), 7, "%s", csv);
    int id = s[i].id;
    cr_assert_str_eq(fl[2], ev->players[id - 1].name, "standings order");
    for (int r = 1; r <= 2; r++) {
      const xq_tslot *sl = xq_tournament_slot(ev, id, r);
      char want[32];
      const char *res = sl->res == XQ_TR_WIN ? "1" : sl->res == XQ_TR_DRAW ? "½" : sl->res == XQ_TR_LOSS ? "0" : "";
      if (sl->opp) snprintf(want, sizeof want, "%d%s%s", xq_tplayer_no(ev, sl->opp), sl->colour == XQ_TC_RED ? "R" : "B", res);
      else snprintf(want, sizeof want, "%s", sl->res == XQ_TR_PAB ? "bye" : "");
      cr_assert_str_eq(fl[3 + r], want, "player %d round %d: %s", id, r, csv);
    }
    char pts[16];
    snprintf(pts, sizeof pts, "%g", xq_tournament_points(ev, id, 2) / 2.0);
    cr_assert_str_eq(fl[6], pts);
  }
  free(csv);
  /* player 1's card: he won round 1 on board 1 (build_event) */
  const xq_tslot *r1 = xq_tournament_slot(ev, 1, 1);
  cr_assert_eq(r1->res, XQ_TR_WIN);
  char *card = CAPTURE(xq_sheet_cards(ev, xq_tplayer_no(ev, 1), 0, XQ_SHEET_TEXT, XQ_LANG_ZH, f));
  char line[256];
  snprintf(line, sizeof line, "成绩卡 %d号 张三（Club 1）", xq_tplayer_no(ev, 1));
  cr_assert(strstr(card, line), "%s", card);
  cr_assert(strstr(card, ev->players[r1->opp - 1].name), "the opponent named: %s", card);
  cr_assert(strstr(card, "  胜  "), "%s", card);
  cr_assert(strstr(card, "裁判长签名"), "%s", card);
  free(card);
  /* every card: one table per player, the last signed once */
  char *all = CAPTURE(xq_sheet_cards(ev, 0, 0, XQ_SHEET_TEXT, XQ_LANG_EN, f));
  int cards = 0;
  for (const char *q = all; (q = strstr(q, "Score card: ")); q++) cards++;
  cr_assert_eq(cards, 5, "%s", all);
  cr_assert_not_null(strstr(all, "signature"), "%s", all);
  cr_assert_null(strstr(strstr(all, "signature") + 1, "signature"), "signed once: %s", all);
  free(all);
  FILE *f = fopen("/dev/null", "w");
  cr_assert_eq(xq_sheet_cards(ev, 99, 0, XQ_SHEET_TEXT, XQ_LANG_EN, f), XQ_EINVAL, "no player numbered 99");
  fclose(f);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

/* Who plays where lists Chinese names by pinyin (李 before 张, which
 * their UTF-8 bytes would put the other way), each with his table,
 * colour and opponent. */
Test(sheet, who_plays_where_by_pinyin)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "sheet_where");
  build_event(path);
  xq_tpairing pr = {0};
  xq_tournament *ev = xq_test_store_event(path, 1, &pr);
  char *csv = CAPTURE(xq_sheet_where(ev, &pr, XQ_SHEET_CSV, XQ_LANG_EN, f));
  const char *p = csv;
  char fl[FIELDS_MAX][FIELD_LEN], names[5][FIELD_LEN];
  cr_assert_eq(csv_record(&p, fl), 6);
  cr_assert_str_eq(fl[0], "Name");
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(csv_record(&p, fl), 6, "%s", csv);
    snprintf(names[i], sizeof names[i], "%s", fl[0]);
    int id = 0;
    for (int k = 1; k <= ev->n; k++)
      if (!strcmp(ev->players[k - 1].name, fl[0])) id = k;
    cr_assert(id);
    for (int b = 0; b < pr.nboards; b++) {
      const xq_tboard *bd = &pr.boards[b];
      if (bd->red != id && bd->black != id) continue;
      cr_assert_eq(atoi(fl[3]), b + 1, "%s", csv);
      if (!bd->black) { cr_assert_str_eq(fl[5], "bye"); continue; }
      cr_assert_str_eq(fl[4], bd->red == id ? "Red" : "Black");
      cr_assert_str_eq(fl[5], ev->players[(bd->red == id ? bd->black : bd->red) - 1].name);
    }
  }
  cr_assert_str_eq(names[3], "李四", "%s", csv);
  cr_assert_str_eq(names[4], "张三", "%s", csv);
  free(csv);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

/* `tourney new` takes the event's details at once: the dates, venue,
 * organiser and chief arbiter are its settings and head and sign its
 * sheets (a team event refuses them rather than lose them). */
Test(sheet, new_takes_the_details_the_sheets_print)
{
  char db[512];
  xq_test_db_path(db, sizeof db, "new_details");
  xq_test_db_remove(db);
  free(xq_test_run_db(0, "tourney new --db %s %s", db,
                      "--rounds 5 --name 杯赛 --dates 2026年5月1日 --venue 市棋院 --organiser 市象协 --arbiter 王裁判"));
  char *out = xq_test_run_db(0, "tourney settings --db %s%s", db, "");
  cr_assert(strstr(out, "dates: 2026年5月1日\nvenue: 市棋院\norganiser: 市象协\narbiter: 王裁判\n"), "%s", out);
  free(out);
  out = xq_test_run_db(0, "tourney export --db %s %s", db, "--format text --lang zh");
  cr_assert(strstr(out, "杯赛\n2026年5月1日 · 市棋院\n"), "%s", out);
  cr_assert(strstr(out, "主办单位：市象协\n裁判长：王裁判\n"), "%s", out);
  free(out);
  xq_test_db_remove(db);
  xq_test_run_db_says(2, "not kept for a team event", "tourney new --db %s %s", db,
                      "--format team-rr --boards 4 --venue 市棋院");
  xq_test_db_remove(db);
}
