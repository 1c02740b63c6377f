/*
 * test_tourney_xlsx.c -- the XLSX workbooks of every sheet (a ZIP whose
 * central directory names the worksheet and the shared strings; a write
 * failure is an error, not a crash), the score sheets (记分表: one per
 * table, none for the bye, names escaped; the result-collection sheet as
 * CSV) and the CLI's --format xlsx, --out and --what scoresheets with
 * their usage errors. The workbook's contents are read by
 * tests/xlsx_check.py (ctest xlsx_content) and by the browser test.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "knockout.h"
#include "pair/pair.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "store_fixture.h"
#include "support.h"
#include "tourney.h"

#define HTML_NAME "<b>&\"x"
#define HTML_NAME_ESCAPED "&lt;b&gt;&amp;&quot;x"

/* Five players (a bye every round) in two teams, round 1 played, round 2
 * paired. */
static void build_event(const char *path)
{
  static const char *const names[] = {"张三", "Smith, Bob", HTML_NAME, "李四", "Wang Wu"};
  xq_test_db_remove(path);
  xq_tstore *st = xq_test_store_new(path, "杯赛 Cup", 3);
  xq_error err = {0};
  for (int i = 0; i < 5; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", names[i]);
    snprintf(p.team, sizeof p.team, "%s", i % 2 ? "红队" : "Blue");
    p.rating = 2000 - 50 * i;
    cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK, "%s", err.msg);
  }
  for (int round = 1; round <= 2; round++) {
    xq_tpairing pr = {0};
    xq_test_store_pair_cn(st, round, &pr);
    for (int b = 0; round == 1 && b < pr.nboards; b++)
      if (pr.boards[b].black) cr_assert_eq(xq_tstore_result(st, 1, b + 1, "1-0", &err), XQ_OK, "%s", err.msg);
    xq_tpairing_clear(&pr);
  }
  xq_tstore_close(st);
}

/* ------------------------------------------------------------------ */
/* ZIP                                                                 */
/* ------------------------------------------------------------------ */

static unsigned le16(const unsigned char *p) { return p[0] | p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }

/* True when the ZIP in buf[0..len-1] starts with a local header and its
 * central directory (found from the end record) names `entry`. */
static int zip_has(const unsigned char *buf, size_t len, const char *entry)
{
  if (len < 22 || memcmp(buf, "PK\x03\x04", 4)) return 0;
  size_t e = len - 22;
  while (e > 0 && le32(buf + e) != 0x06054b50) e--;
  if (le32(buf + e) != 0x06054b50) return 0;
  unsigned n = le16(buf + e + 10);
  size_t at = le32(buf + e + 16);
  for (unsigned i = 0; i < n && at + 46 <= len; i++) {
    if (le32(buf + at) != 0x02014b50) return 0;
    unsigned nl = le16(buf + at + 28), xl = le16(buf + at + 30), cl = le16(buf + at + 32);
    if (at + 46 + nl > len) return 0;
    if (nl == strlen(entry) && !memcmp(buf + at + 46, entry, nl)) return 1;
    at += 46 + nl + xl + cl;
  }
  return 0;
}

typedef struct out {
  char *buf;
  size_t len;
  FILE *f;
} out;

static FILE *out_open(out *o)
{
  memset(o, 0, sizeof *o);
  o->f = open_memstream(&o->buf, &o->len);
  cr_assert_not_null(o->f);
  return o->f;
}

static void out_close(out *o) { cr_assert_eq(fclose(o->f), 0); }

static void expect_workbook(out *o, const char *what)
{
  out_close(o);
  cr_assert(o->len > 1000, "%s: %zu bytes", what, o->len);
  cr_assert(zip_has((unsigned char *)o->buf, o->len, "xl/worksheets/sheet1.xml"), "%s: no worksheet", what);
  cr_assert(zip_has((unsigned char *)o->buf, o->len, "xl/sharedStrings.xml"), "%s: no strings", what);
  cr_assert(zip_has((unsigned char *)o->buf, o->len, "xl/workbook.xml"), "%s: no workbook", what);
  cr_assert_not(zip_has((unsigned char *)o->buf, o->len, "xl/worksheets/sheet2.xml"), "%s: one sheet", what);
  free(o->buf);
}

Test(xlsx, every_sheet_kind_makes_a_workbook)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "xlsx_kinds");
  build_event(path);
  xq_tpairing pr = {0};
  xq_tournament *ev = xq_test_store_event(path, 2, &pr);
  out o;
  cr_assert_eq(xq_sheet_format_parse("xlsx"), XQ_SHEET_XLSX);
  cr_assert_eq(xq_sheet_standings(ev, 1, XQ_SHEET_XLSX, XQ_LANG_ZH, out_open(&o)), XQ_OK);
  expect_workbook(&o, "standings");
  cr_assert_eq(xq_sheet_pairings(ev, &pr, XQ_SHEET_XLSX, XQ_LANG_EN, out_open(&o)), XQ_OK);
  expect_workbook(&o, "pairings");
  cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_XLSX, XQ_LANG_ZH, out_open(&o)), XQ_OK);
  expect_workbook(&o, "scoresheets");
  int ids[5];
  cr_assert_eq(xq_final_places(ev, NULL, ids), XQ_OK);
  cr_assert_eq(xq_sheet_places(ev, "最终名次", ids, NULL, ev->n, XQ_SHEET_XLSX, XQ_LANG_ZH, out_open(&o)), XQ_OK);
  expect_workbook(&o, "places");
  xq_team_row rows[8];
  int nt = 0;
  cr_assert_eq(xq_team_results(ev, ids, NULL, -1, 2, NULL, rows, 8, &nt, NULL, NULL), XQ_OK);
  cr_assert_eq(nt, 2);
  cr_assert_eq(xq_sheet_teams(ev, rows, nt, XQ_TEAM_RANK_SUM, XQ_SHEET_XLSX, XQ_LANG_EN, out_open(&o)), XQ_OK);
  expect_workbook(&o, "teams");
  static const char table[] = "category 总名次 all\n1 300\n2 200\n";
  xq_prize_table t;
  xq_error err = {0};
  cr_assert_eq(xq_prize_parse(table, sizeof table - 1, &t, &err), XQ_OK, "%s", err.msg);
  xq_award aw[16];
  int na = 0;
  cr_assert_eq(xq_prizes_award(ev, ids, &t, aw, 16, &na), XQ_OK);
  cr_assert_eq(na, 2);
  cr_assert_eq(xq_sheet_prizes(ev, &t, aw, na, XQ_SHEET_XLSX, XQ_LANG_ZH, out_open(&o)), XQ_OK);
  expect_workbook(&o, "prizes");
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

Test(xlsx, a_write_failure_is_an_error)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "xlsx_fail");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  /* the stream fails: /dev/full takes nothing */
  FILE *full = fopen("/dev/full", "w");
  cr_assert_not_null(full);
  setvbuf(full, NULL, _IONBF, 0);
  cr_assert_eq(xq_sheet_standings(ev, 1, XQ_SHEET_XLSX, XQ_LANG_EN, full), XQ_EIO);
  fclose(full);
  /* no temporary file can be made */
  setenv("TMPDIR", "/nonexistent/xqref-none", 1);
  out o;
  cr_assert_eq(xq_sheet_standings(ev, 1, XQ_SHEET_XLSX, XQ_LANG_EN, out_open(&o)), XQ_EIO);
  out_close(&o);
  cr_assert_eq(o.len, 0, "nothing written");
  free(o.buf);
  unsetenv("TMPDIR");
  /* bad arguments as for the other formats */
  cr_assert_eq(xq_sheet_standings(ev, 1, XQ_SHEET_XLSX, 7, out_open(&o)), XQ_EINVAL);
  out_close(&o);
  free(o.buf);
  cr_assert_eq(xq_sheet_standings(ev, 1, XQ_SHEET_XLSX, XQ_LANG_EN, NULL), XQ_EINVAL);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* Score sheets                                                        */
/* ------------------------------------------------------------------ */

static int count(const char *s, const char *what)
{
  int n = 0;
  for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

Test(scoresheets, one_per_table_none_for_the_bye)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "xlsx_score");
  build_event(path);
  xq_tpairing pr = {0};
  xq_tournament *ev = xq_test_store_event(path, 2, &pr);
  int tables = 0, bye = 0;
  for (int b = 0; b < pr.nboards; b++) pr.boards[b].black ? tables++ : bye++;
  cr_assert_eq(tables, 2);
  cr_assert_eq(bye, 1);
  out o;
  cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_HTML, XQ_LANG_ZH, out_open(&o)), XQ_OK);
  out_close(&o);
  cr_assert_eq(count(o.buf, "<section class=\"scoresheet\""), tables, "%s", o.buf);
  /* each sheet: both players, 60 move lines, the result boxes, three signatures */
  cr_assert_eq(count(o.buf, "<td class=\"n\">60</td>"), tables);
  cr_assert_eq(count(o.buf, "<td class=\"n\">1</td>"), tables);
  cr_assert_eq(count(o.buf, "<span class=\"box\"></span>"), 3 * tables);
  cr_assert_eq(count(o.buf, "红胜"), tables);
  cr_assert_eq(count(o.buf, "黑胜"), tables);
  cr_assert_eq(count(o.buf, "裁判签名"), tables);
  cr_assert_not_null(strstr(o.buf, "第2轮 · 第1台"));
  cr_assert_not_null(strstr(o.buf, "@page{size:A4"));
  for (int b = 0; b < pr.nboards; b++) {
    const char *red = ev->players[pr.boards[b].red - 1].name;
    if (!pr.boards[b].black) {
      /* the bye's player is on no sheet */
      cr_assert_null(strstr(o.buf, strcmp(red, HTML_NAME) ? red : HTML_NAME_ESCAPED), "%s has the bye", red);
      continue;
    }
    char want[128];
    snprintf(want, sizeof want, "data-table=\"%d\"", b + 1);
    cr_assert_not_null(strstr(o.buf, want));
  }
  /* names are escaped: the raw one never appears */
  cr_assert_null(strstr(o.buf, HTML_NAME));
  free(o.buf);
  cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_HTML, XQ_LANG_EN, out_open(&o)), XQ_OK);
  out_close(&o);
  cr_assert_not_null(strstr(o.buf, "Score sheet · round 2 · table 1"));
  cr_assert_eq(count(o.buf, "Arbiter's signature"), tables);
  free(o.buf);
  /* the result-collection sheet: a row per table, results blank */
  cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_CSV, XQ_LANG_ZH, out_open(&o)), XQ_OK);
  out_close(&o);
  cr_assert_eq(count(o.buf, "\r\n"), 1 + tables, "%s", o.buf);
  cr_assert_eq(strncmp(o.buf, "台次,序号,红方,序号,黑方,结果,红方签名,黑方签名,裁判签名\r\n", 72), 0, "%s", o.buf);
  char row1[256];
  snprintf(row1, sizeof row1, "\r\n1,%d,", xq_tplayer_no(ev, pr.boards[0].red));
  cr_assert_not_null(strstr(o.buf, row1), "%s", o.buf);
  cr_assert_not_null(strstr(o.buf, ",,,,\r\n"));
  free(o.buf);
  /* bad input */
  xq_tboard bad = {99, 1};
  xq_tpairing wrong = {.round = 2, .nboards = 1, .boards = &bad};
  cr_assert_eq(xq_sheet_scoresheets(ev, &wrong, XQ_SHEET_HTML, XQ_LANG_ZH, out_open(&o)), XQ_EINVAL);
  cr_assert_eq(xq_sheet_scoresheets(ev, &pr, XQ_SHEET_TRF, XQ_LANG_ZH, o.f), XQ_EINVAL);
  out_close(&o);
  free(o.buf);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

Test(sheet_print, tables_have_a_print_stylesheet)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "xlsx_print");
  build_event(path);
  xq_tournament *ev = xq_test_store_event(path, 0, NULL);
  out o;
  cr_assert_eq(xq_sheet_standings(ev, 1, XQ_SHEET_HTML, XQ_LANG_ZH, out_open(&o)), XQ_OK);
  out_close(&o);
  cr_assert_not_null(strstr(o.buf, "@page{size:A4"));
  cr_assert_not_null(strstr(o.buf, "thead{display:table-header-group}"));
  cr_assert_not_null(strstr(o.buf, "tr{page-break-inside:avoid"));
  cr_assert_not_null(strstr(o.buf, "<thead>"));
  free(o.buf);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */
/* ------------------------------------------------------------------ */

/* Run `xqref tourney ACTION --db path ARGS`, stdout to `out`, stderr to
 * `errf`; the exit status. */
static int run(const char *action, const char *path, const char *args, const char *outf, const char *errf)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' tourney %s --db '%s' %s >'%s' 2>'%s'", XQ_BINARY, action, path, args, outf, errf);
  int st = system(cmd);
  cr_assert(WIFEXITED(st), "%s", cmd);
  return WEXITSTATUS(st);
}

static char *slurp(const char *file, size_t *len)
{
  FILE *f = fopen(file, "rb");
  cr_assert_not_null(f, "%s", file);
  static char buf[1 << 17];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  if (len) *len = n;
  return buf;
}

static void expect_file_workbook(const char *file)
{
  size_t n;
  char *b = slurp(file, &n);
  cr_assert(zip_has((unsigned char *)b, n, "xl/worksheets/sheet1.xml"), "%s is no workbook", file);
}

Test(sheet_cli, xlsx_out_scoresheets_and_usage_errors)
{
  char path[512], outf[600], errf[600], file[600], args[1024];
  xq_test_db_path(path, sizeof path, "xlsx_cli");
  snprintf(outf, sizeof outf, "%s.out", path);
  snprintf(errf, sizeof errf, "%s.err", path);
  snprintf(file, sizeof file, "%s.xlsx", path);
  build_event(path);
  /* --out FILE and a redirected stdout both take a workbook */
  snprintf(args, sizeof args, "--format xlsx --lang zh --out '%s'", file);
  cr_assert_eq(run("export", path, args, outf, errf), 0, "%s", slurp(errf, NULL));
  expect_file_workbook(file);
  cr_assert_eq(run("export", path, "--format xlsx --what scoresheets --round 2", outf, errf), 0, "%s", slurp(errf, NULL));
  expect_file_workbook(outf);
  for (int i = 0; i < 3; i++) {
    static const char *const actions[] = {"places", "teams", "prizes"};
    snprintf(args, sizeof args, "--format xlsx --out '%s'%s", file, i == 1 ? " --count 2" : i == 2 ? " --preset xinjiang2018" : "");
    unlink(file);
    cr_assert_eq(run(actions[i], path, args, outf, errf), 0, "%s: %s", actions[i], slurp(errf, NULL));
    expect_file_workbook(file);
  }
  /* the score sheets of a round, as HTML and as the collection sheet */
  cr_assert_eq(run("export", path, "--format html --what scoresheets --round 2 --lang zh", outf, errf), 0);
  cr_assert_eq(count(slurp(outf, NULL), "<section class=\"scoresheet\""), 2);
  cr_assert_eq(run("export", path, "--format csv --what scoresheets --round 2", outf, errf), 0);
  cr_assert_eq(strncmp(slurp(outf, NULL), "Table,No,Red,No,Black,Result,", 29), 0, "%s", slurp(outf, NULL));
  /* usage errors: exit 2 with the choices named */
  cr_assert_eq(run("export", path, "--format csv --what prizes", outf, errf), 2);
  cr_assert_not_null(strstr(slurp(errf, NULL), "--what is standings, pairings, scoresheets, crosstable, cards or where"));
  cr_assert_eq(run("export", path, "--format ods", outf, errf), 2);
  cr_assert_not_null(strstr(slurp(errf, NULL), "--format is trf, csv, html, text or xlsx"));
  cr_assert_eq(run("places", path, "--format pdf", outf, errf), 2);
  cr_assert_not_null(strstr(slurp(errf, NULL), "--format is text, html, csv or xlsx"));
  snprintf(args, sizeof args, "--out '%s'", file);
  cr_assert_eq(run("places", path, args, outf, errf), 2);
  cr_assert_not_null(strstr(slurp(errf, NULL), "--out needs --format"));
  cr_assert_eq(run("export", path, "--what scoresheets --round 2", outf, errf), 2, "TRF has no score sheets");
  /* a workbook is not written to a terminal */
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "script -qec \"'%s' tourney export --db '%s' --format xlsx\" /dev/null >'%s' 2>&1",
           XQ_BINARY, path, outf);
  int st = system(cmd);
  cr_assert(WIFEXITED(st));
  cr_assert_eq(WEXITSTATUS(st), 2, "%s", slurp(outf, NULL));
  cr_assert_not_null(strstr(slurp(outf, NULL), "give --out FILE or redirect stdout"));
  /* an unwritable --out is a failure, not a crash */
  cr_assert_eq(run("export", path, "--format xlsx --out /nonexistent/x.xlsx", outf, errf), 1);
  cr_assert_not_null(strstr(slurp(errf, NULL), "/nonexistent/x.xlsx"));
  cr_assert_eq(run("export", path, "--format xlsx --out /dev/full", outf, errf), 1);
  cr_assert_not_null(strstr(slurp(errf, NULL), "/dev/full: cannot write the workbook"), "%s", slurp(errf, NULL));
  cr_assert_eq(run("places", path, "--format xlsx --out /dev/full", outf, errf), 1);
  cr_assert_not_null(strstr(slurp(errf, NULL), "cannot write the workbook"), "%s", slurp(errf, NULL));
  unlink(outf);
  unlink(errf);
  unlink(file);
  xq_test_db_remove(path);
}
