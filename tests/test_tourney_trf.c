/*
 * test_tourney_trf.c -- FIDE TRF-16 import and export (docs/tourney.md, "TRF"):
 * round trips on published files (byte-identical apart from line ends and
 * trailing blanks), code-point name columns, the 162 scoring line, points
 * checked on import, and `xqref pair --system cn` on TRF files.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tourney_internal.h"
#include "pair/pair.h"
#include "store/store.h"
#include "store_fixture.h"
#include "support.h"
#include "tourney.h"

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  buf[n] = 0;
  fclose(f);
  if (len) *len = (size_t)n;
  return buf;
}

/* Line ends to LF, trailing blanks and a missing final line end ignored. */
static char *normalise(const char *s, size_t len)
{
  char *out = malloc(len + 2);
  size_t o = 0, line = 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < len && s[i + 1] == '\n') i++;
      while (o > line && out[o - 1] == ' ') o--;
      out[o++] = '\n';
      line = o;
    } else {
      out[o++] = c;
    }
  }
  while (o > line && out[o - 1] == ' ') o--;
  if (o > 0 && out[o - 1] != '\n') out[o++] = '\n';
  out[o] = 0;
  return out;
}

static char *export_text(const xq_tournament *ev)
{
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  cr_assert_eq(xq_trf_write(ev, f), XQ_OK);
  fclose(f);
  return buf;
}

Test(trf, round_trip_is_byte_stable)
{
  const char *files[] = {"basic.trf", "bbp-8p5r-output.trf", "c5_utf8_chinese_name.trf",
                         "c5_xiangqi_210_scoring_162.trf", "dutch_2025_C5.input", "issue_7.input",
                         "rtg_dutch_n100_r11_seed12345.trf", "accel_xxa_r3.trf", "accel_250_r3.trf"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/pairing/%s", XQ_TEST_DATA, files[i]);
    char *text = slurp(path, &len);
    xq_tournament *ev;
    xq_error err = {0};
    cr_assert_eq(xq_trf_parse(text, len, &ev, &err), XQ_OK, "%s: %s", files[i], err.msg);
    char *out = export_text(ev);
    char *a = normalise(text, len), *b = normalise(out, strlen(out));
    cr_assert_str_eq(b, a, "%s does not survive import and export", files[i]);
    /* and once more: export → import → export is the identity */
    xq_tournament *ev2;
    cr_assert_eq(xq_trf_parse(out, strlen(out), &ev2, &err), XQ_OK, "%s: %s", files[i], err.msg);
    char *out2 = export_text(ev2);
    cr_assert_str_eq(out2, out);
    cr_assert_eq(ev2->n, ev->n);
    cr_assert_eq(ev2->nrounds, ev->nrounds);
    free(text); free(out); free(out2); free(a); free(b);
    xq_tournament_free(ev);
    xq_tournament_free(ev2);
  }
}

Test(trf, fields_scoring_and_code_points)
{
  xq_tournament *ev;
  xq_error err;
  cr_assert_eq(xq_trf_read(XQ_TEST_DATA "/pairing/basic.trf", &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->n, 5);
  cr_assert_eq(ev->cfg.rounds, 3);
  cr_assert_str_eq(ev->players[0].name, "Kasparov, Garry");
  cr_assert_str_eq(ev->players[0].title, "GM");
  cr_assert_eq(ev->players[0].sex, 'm');
  cr_assert_eq(ev->players[3].sex, 'w');
  cr_assert_str_eq(ev->players[3].title, "WGM");
  cr_assert_eq(ev->players[0].rating, 2812);
  cr_assert_str_eq(ev->players[0].birth, "1963/04/13");
  cr_assert_eq(xq_tournament_slot(ev, 2, 2)->res, XQ_TR_HPB);
  cr_assert_eq(xq_tournament_slot(ev, 5, 1)->res, XQ_TR_FPB);
  cr_assert_eq(xq_tournament_slot(ev, 1, 1)->opp, 2);
  cr_assert_eq(xq_tournament_slot(ev, 1, 1)->colour, XQ_TC_RED);
  cr_assert_eq(xq_tournament_points(ev, 1, 2), 3); /* 1.5 */
  xq_tournament_free(ev);

  /* 2/1/0 declared on the 162 line: a win is 2 points (4 half-units) */
  cr_assert_eq(xq_trf_read(XQ_TEST_DATA "/pairing/c5_xiangqi_210_scoring_162.trf", &ev, &err), XQ_OK);
  cr_assert_eq(ev->cfg.win, 4);
  cr_assert_eq(ev->cfg.draw, 2);
  cr_assert_eq(xq_tournament_points(ev, 1, 2), 8);
  xq_tournament_free(ev);

  /* the Chinese name takes 3 of the 33 name columns */
  cr_assert_eq(xq_trf_read(XQ_TEST_DATA "/pairing/c5_utf8_chinese_name.trf", &ev, &err), XQ_OK);
  cr_assert_str_eq(ev->players[0].name, "棋手一 Player0001");
  cr_assert_eq(ev->players[0].rating, 2720);
  xq_tournament_free(ev);
}

Test(trf, bad_files_are_rejected_with_the_line)
{
  const char *wrong_points =
    "012 x\n"
    "001    1      A                                 2000                             2.0    1     2 w 1\n"
    "001    2      B                                 2000                             0.0    2     1 b 0\n";
  xq_tournament *ev = (xq_tournament *)1;
  xq_error err = {0};
  cr_assert_eq(xq_trf_parse(wrong_points, strlen(wrong_points), &ev, &err), XQ_EINVAL);
  cr_assert_null(ev);
  cr_assert_eq(err.pos, 2);
  cr_assert(strstr(err.msg, "points"), "%s", err.msg);

  const char *one_sided =
    "001    1      A                                 2000                             1.0    1     2 w 1\n"
    "001    2      B                                 2000                             0.0    2\n";
  cr_assert_eq(xq_trf_parse(one_sided, strlen(one_sided), &ev, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "do not agree"), "%s", err.msg);

  const char *bad_utf8 = "001    1      \xff\xfe                               2000                             0.0    1\n";
  cr_assert_eq(xq_trf_parse(bad_utf8, strlen(bad_utf8), &ev, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "UTF-8"), "%s", err.msg);

  const char *gap = "001    2      B                                 2000                             0.0    1\n";
  cr_assert_eq(xq_trf_parse(gap, strlen(gap), &ev, &err), XQ_EINVAL);

  /* points that are no whole number of half points, or no number: refused
   * before any conversion ("nan" was read as 0 points) */
  static const char *const not_points[] = {"nan", "inf", "1e9", "0.3", "-.3"};
  for (size_t i = 0; i < sizeof not_points / sizeof not_points[0]; i++) {
    char line[128];
    snprintf(line, sizeof line, "001    1      A                                 2000                             %-3s    1\n",
             not_points[i]);
    cr_assert_eq(xq_trf_parse(line, strlen(line), &ev, &err), XQ_EINVAL, "%s", not_points[i]);
    cr_assert(strstr(err.msg, "points"), "%s: %s", not_points[i], err.msg);
  }
  const char *zero = "001    1      A                                 2000                             0.0    1\n";
  cr_assert_eq(xq_trf_parse(zero, strlen(zero), &ev, &err), XQ_OK, "%s", err.msg);
  xq_tournament_free(ev);

  /* the rounds of XXR: a whole number, never converted out of range (atoi
   * took -3 as an event of -3 rounds and 4294967297 as 1; 99999999999 was
   * undefined behaviour) */
  static const struct {
    const char *xxr;
    int rc, rounds;
  } xxr[] = {{"7", XQ_OK, 7}, {" 9 ", XQ_OK, 9}, {"", XQ_OK, 0}, {"-3", XQ_EINVAL, 0}, {"7x", XQ_EINVAL, 0},
             {"4294967297", XQ_ELIMIT, 0}, {"99999999999999999999", XQ_ELIMIT, 0}};
  for (size_t i = 0; i < sizeof xxr / sizeof xxr[0]; i++) {
    char text[256];
    snprintf(text, sizeof text, "XXR %s\n%s", xxr[i].xxr, zero);
    ev = NULL;
    cr_assert_eq(xq_trf_parse(text, strlen(text), &ev, &err), xxr[i].rc, "XXR '%s': %s", xxr[i].xxr, err.msg);
    if (xxr[i].rc == XQ_OK) cr_assert_eq(ev->cfg.rounds, xxr[i].rounds, "XXR '%s'", xxr[i].xxr);
    else cr_assert(strstr(err.msg, "XXR") || strstr(err.msg, "too many rounds"), "%s", err.msg);
    xq_tournament_free(ev);
  }
}

Test(trf, export_of_a_2_1_0_event_declares_its_scoring)
{
  xq_tournament *ev = xq_tournament_new(NULL, "象棋公开赛");
  const char *names[2] = {"王天一", "Zheng, Weitong"};
  for (int i = 0; i < 2; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    strcpy(p.name, names[i]);
    p.rating = 2700 - i;
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  ev->cfg.rounds = 7;
  xq_assign_pnos(ev);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_round1(ev, &pr), XQ_OK);
  cr_assert_eq(xq_tournament_apply_pairing(ev, &pr), XQ_OK);
  xq_tournament_slot(ev, 1, 1)->res = XQ_TR_DRAW;
  xq_tournament_slot(ev, 2, 1)->res = XQ_TR_DRAW;
  xq_tpairing_clear(&pr);
  char *out = export_text(ev);
  cr_assert(strstr(out, "\n162  W 2.0    D 1.0    L 0.0\n"), "%s", out);
  cr_assert(strstr(out, "\nXXR 7\n"));
  /* the name field is 33 code points: 王天一 + 30 blanks, then the rating */
  const char *line = strstr(out, "001    1");
  cr_assert_not_null(line);
  cr_assert(!strncmp(line + 14, "王天一", strlen("王天一")));
  const char *after = line + 14 + strlen("王天一");
  for (int i = 0; i < 30; i++) cr_assert_eq(after[i], ' ');
  cr_assert(!strncmp(after + 30, " 2700", 5), "%.40s", after);
  /* and it reads back with the same points under its own scoring */
  xq_tournament *back;
  xq_error err;
  cr_assert_eq(xq_trf_parse(out, strlen(out), &back, &err), XQ_OK, "%s", err.msg);
  cr_assert_str_eq(back->players[0].name, "王天一");
  cr_assert_eq(xq_tournament_points(back, 1, 1), 2);
  cr_assert_eq(back->cfg.win, 4);
  free(out);
  xq_tournament_free(back);
  xq_tournament_free(ev);
}

/* The event's venue and chief arbiter (its settings) go out as TRF's
 * 022 and 102 and come back in, into a store too. */
Test(trf, venue_and_chief_arbiter_as_022_and_102)
{
  xq_tournament *ev = xq_tournament_new(NULL, "象棋公开赛");
  snprintf(ev->info.venue, sizeof ev->info.venue, "北京");
  snprintf(ev->info.arbiter, sizeof ev->info.arbiter, "张三");
  ev->cfg.rounds = 5;
  char *out = export_text(ev);
  cr_assert(strstr(out, "012 象棋公开赛\n022 北京\n102 张三\n"), "%s", out);
  xq_tournament *back;
  xq_error err;
  cr_assert_eq(xq_trf_parse(out, strlen(out), &back, &err), XQ_OK, "%s", err.msg);
  cr_assert_str_eq(back->info.venue, "北京");
  cr_assert_str_eq(back->info.arbiter, "张三");
  char path[512];
  xq_test_db_path(path, sizeof path, "trf_info");
  xq_test_db_remove(path);
  xq_tstore *st;
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_CREATE, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_import(st, back, &back->cfg, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  xq_tournament *stored = xq_test_store_event(path, 0, NULL);
  cr_assert_str_eq(stored->info.venue, "北京");
  cr_assert_str_eq(stored->info.arbiter, "张三");
  xq_tournament_free(stored);
  xq_test_db_remove(path);
  free(out);
  xq_tournament_free(back);
  xq_tournament_free(ev);
}

/* docs/tourney.md, "TRF": a forfeit counts as a meeting in the Chinese practice
 * (forfeit_counts_as_met) but not for a FIDE engine: the export says so
 * with an XXP line, once per pair, and the Dutch pairing of the file read
 * back keeps the two apart. */
Test(trf, forfeit_meetings_are_exported_as_forbidden_pairs)
{
  xq_tournament *ev = xq_tournament_new(NULL, "forfeits");
  for (int i = 0; i < 4; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "P%d", i + 1);
    p.rating = 2000 - i;
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  ev->cfg.rounds = 3;
  cr_assert(ev->cfg.forfeit_counts_as_met, "the Chinese default");
  xq_assign_pnos(ev);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_round1(ev, &pr), XQ_OK);
  cr_assert_eq(xq_tournament_apply_pairing(ev, &pr), XQ_OK);
  xq_tpairing_clear(&pr);
  /* player 1's board forfeited, player 3's played */
  const xq_tslot *s1 = xq_tournament_slot(ev, 1, 1);
  int o1 = s1->opp, o3 = xq_tournament_slot(ev, 3, 1)->opp;
  xq_tournament_set_result(ev, 1, s1->colour == XQ_TC_RED ? 1 : o1, s1->colour == XQ_TC_RED ? o1 : 1, "-+");
  const xq_tslot *s3 = xq_tournament_slot(ev, 3, 1);
  xq_tournament_set_result(ev, 1, s3->colour == XQ_TC_RED ? 3 : o3, s3->colour == XQ_TC_RED ? o3 : 3, "1-0");
  char *out = export_text(ev);
  char want[32];
  snprintf(want, sizeof want, "\nXXP %d %d\n", 1 < o1 ? 1 : o1, 1 < o1 ? o1 : 1);
  cr_assert(strstr(out, want), "no %s in\n%s", want + 1, out);
  int nxxp = 0;
  for (const char *p = out; (p = strstr(p, "\nXXP ")); p++) nxxp++;
  cr_assert_eq(nxxp, 1, "only the forfeited pair: %s", out);
  xq_tournament *back;
  xq_error err = {0};
  cr_assert_eq(xq_trf_parse(out, strlen(out), &back, &err), XQ_OK, "%s", err.msg);
  cr_assert(xq_tournament_forbidden(back, 1, o1, 2), "read back as forbidden");
  cr_assert_eq(xq_pair_dutch(back, 2, &pr), XQ_OK);
  for (int i = 0; i < pr.nboards; i++) {
    const xq_tboard *b = &pr.boards[i];
    cr_assert(!((b->red == 1 && b->black == o1) || (b->red == o1 && b->black == 1)), "the forfeit pair met again");
  }
  xq_tpairing_clear(&pr);
  free(out);
  xq_tournament_free(back);
  xq_tournament_free(ev);
}

/* Acceleration lines (docs/tourney.md, "TRF"): XXA NNNN then 4 columns a round
 * from column 10 (blank = 0); TRF-2026 250 with points at 10-13, rounds
 * 15-17 and 19-21, players 23-26 and 28-31. Read for the pairing, kept
 * as they were for the export; later lines override earlier ones. */
Test(trf, acceleration_lines_are_read_and_kept)
{
  const char *text =
    "012 accel\n"
    "001    1      A                                 2000                             0.0    1\n"
    "001    2      B                                 1990                             0.0    2\n"
    "001    3      C                                 1980                             0.0    3\n"
    "001    4      D                                 1970                             0.0    4\n"
    "XXR 5\n"
    "XXA    1  1.0       0.5\n"
    "XXA    2  1.0  1.0  1.0  1.0  0.5\n"
    "250       2.0   4   5    3    4\n"
    "250       0.5   5   5    2    3\n";
  xq_tournament *ev;
  xq_error err = {0};
  cr_assert_eq(xq_trf_parse(text, strlen(text), &ev, &err), XQ_OK, "%s", err.msg);
  int acc[5];
  /* round: players 1..4, half-units */
  const int want[6][5] = {{0}, {0, 2, 2, 0, 0}, {0, 0, 2, 0, 0}, {0, 1, 2, 0, 0},
                          {0, 0, 2, 4, 4}, {0, 0, 1, 1, 4}};
  for (int r = 1; r <= 5; r++) {
    int any = xq__trf_accel(ev, r, acc);
    int nonzero = 0;
    for (int id = 1; id <= 4; id++) {
      cr_expect_eq(acc[id], want[r][id], "round %d player %d: %d, want %d", r, id, acc[id], want[r][id]);
      nonzero |= want[r][id] != 0;
    }
    cr_expect_eq(any, nonzero, "round %d", r);
  }
  cr_expect_eq(xq__trf_accel(ev, 6, acc), 0, "no acceleration after the lines end");
  char *out = export_text(ev);
  char *a = normalise(text, strlen(text)), *b = normalise(out, strlen(out));
  cr_expect_str_eq(b, a, "the lines are written back as read");
  free(a); free(b); free(out);
  xq_tournament_free(ev);

  const char *bad[] = {
    "XXA    1  1.x\n",                          /* not a number */
    "XXA       1.0\n",                          /* no player */
    "XXA    1  1.0  1.0 x\n",                   /* a stray character */
    "XXA    1 -1.0\n",                          /* negative */
    "250       1.0   1\n",                      /* too short */
    "250       1.0   3   2    1    4\n",        /* rounds the wrong way */
    "250    1  1.0   1   2    1    4\n",        /* match points are for teams */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char buf[512];
    snprintf(buf, sizeof buf, "012 x\n%s", bad[i]);
    xq_tournament *e = (xq_tournament *)1;
    xq_error er = {0};
    cr_expect_eq(xq_trf_parse(buf, strlen(buf), &e, &er), XQ_EINVAL, "accepted: %s", bad[i]);
    cr_expect_null(e);
    cr_expect_eq(er.pos, 2, "%s: line %d", bad[i], er.pos);
    cr_expect(strstr(er.msg, bad[i][0] == 'X' ? "XXA" : "250"), "%s: %s", bad[i], er.msg);
  }
}

/* ------------------------------------------------------------------ */
/* xqref pair                                                          */
/* ------------------------------------------------------------------ */

static char *run(const char *args, int *status)
{
  return xq_test_run(args, status);
}

Test(pair_cli, chinese_pairing_of_a_trf_file)
{
  /* dutch_2025_C5, round 3 of 3 (1/½/0), player 4 absent. Points: 1 and 3
   * 2.0, 2 and 5 1.0, 6 0.0. Group 2.0: 1–3 (both due Red after w, b;
   * same strings, round 3 is odd: the smaller number is Red). Group 1.0: 2
   * and 5 met in round 1, both float. Group 0.0 with the floaters first:
   * 2–6 (5–6 met), 5 takes the bye. 2 and 6 have the same colour string
   * (b, w): the smaller number is Red. Boards: 1–3, 2–6, bye. */
  int st;
  char *out = run("pair --system cn " XQ_TEST_DATA "/pairing/dutch_2025_C5.input", &st);
  cr_assert_eq(st, 0, "%s", out);
  cr_assert_str_eq(out, "3\n1 3\n2 6\n5 0\n");
  free(out);
  /* the same event with 2/1/0 points and a Chinese name pairs the same */
  out = run("pair --system cn " XQ_TEST_DATA "/pairing/c5_xiangqi_210_scoring_162.trf", &st);
  cr_assert_eq(st, 0);
  cr_assert_str_eq(out, "3\n1 3\n2 6\n5 0\n");
  free(out);
  out = run("pair --system cn " XQ_TEST_DATA "/pairing/c5_utf8_chinese_name.trf", &st);
  cr_assert_eq(st, 0);
  cr_assert_str_eq(out, "3\n1 3\n2 6\n5 0\n");
  free(out);
}

Test(pair_cli, replay_of_a_generated_event)
{
  /* every round of the 100-player event, paired from the rounds before it:
   * a complete pairing each time (the bye counts as a board) */
  for (int k = 1; k <= 11; k++) {
    char args[512];
    int st;
    snprintf(args, sizeof args, "pair --system cn --rounds 11 --round %d %s/pairing/rtg_dutch_n100_r11_seed12345.trf",
             k, XQ_TEST_DATA);
    char *out = run(args, &st);
    cr_assert_eq(st, 0, "round %d: %s", k, out);
    int boards = atoi(out), lines = 0, ids[101] = {0};
    for (char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
      int r, b;
      cr_assert_eq(sscanf(l + 1, "%d %d", &r, &b), 2);
      cr_assert(r >= 1 && r <= 100 && b >= 0 && b <= 100);
      cr_assert_eq(ids[r]++, 0);
      if (b) cr_assert_eq(ids[b]++, 0);
      lines++;
    }
    cr_assert_eq(lines, boards);
    cr_assert_gt(boards, 40);
    free(out);
  }
}

Test(pair_cli, errors_and_usage)
{
  int st;
  /* --system dutch is implemented (test_tourney_dutch.c checks its output) */
  char *out = run("pair --system dutch " XQ_TEST_DATA "/pairing/dutch_2025_C5.input", &st);
  cr_assert_eq(st, 0);
  cr_assert_str_eq(out, "3\n1 5\n3 2\n6 0\n");
  free(out);
  out = run("pair --system swiss x.trf", &st);
  cr_assert_eq(st, 2);
  free(out);
  out = run("pair --system cn /nonexistent.trf", &st);
  cr_assert_eq(st, 1);
  cr_assert(strstr(out, "nonexistent"));
  free(out);
  out = run("pair --help", &st);
  cr_assert_eq(st, 0);
  cr_assert(strstr(out, "usage: xqref pair"));
  free(out);
  /* all rounds already played */
  out = run("pair --system cn " XQ_TEST_DATA "/pairing/bbp-8p5r-output.trf", &st);
  cr_assert_eq(st, 1);
  cr_assert(strstr(out, "all 5 rounds"), "%s", out);
  free(out);
}
