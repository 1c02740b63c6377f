/*
 * test_tourney_presets.c -- the regulation presets (docs/presets.md): all
 * five found, every row sourced (a clause, or "not stated"), distinctive
 * values of each regulation, their links to the tie-break, knockout and
 * adjudicator presets, and `xqref presets` / `presets show`.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "knockout.h"
#include "support.h"
#include "tourney.h"

static const char *const names[] = {"xinjiang2018", "burqin2018", "shaanxi2019", "wujiaqu2024",
                                    "tangshan2018"};
#define NNAMES (sizeof names / sizeof names[0])

static const xq_regulation *get(const char *name)
{
  const xq_regulation *r = NULL;
  cr_assert_eq(xq_regulation_find(name, &r), XQ_OK, "%s not found", name);
  cr_assert_not_null(r);
  return r;
}

static const char *row(const xq_regulation *r, xq_reg_row i)
{
  return r->rows[i].value;
}

Test(presets, all_five_found_and_iterated)
{
  int n = 0;
  const xq_regulation *r;
  for (int i = 0; (r = xq_regulation_at(i)); i++) {
    cr_assert_str_eq(r->name, names[i]);
    n++;
  }
  cr_assert_eq(n, (int)NNAMES);
  cr_assert_eq(xq_regulation_find("XINJIANG2018", &r), XQ_OK);
  cr_assert_str_eq(r->name, "xinjiang2018");
  const xq_regulation *keep = r;
  cr_assert_eq(xq_regulation_find("moscow2018", &r), XQ_EINVAL);
  cr_assert_eq(r, keep, "*out untouched on failure");
  cr_assert_eq(xq_regulation_find(NULL, &r), XQ_EINVAL);
  cr_assert_eq(xq_regulation_find("burqin2018", NULL), XQ_EINVAL);
  cr_assert_null(xq_regulation_at(-1));
  cr_assert_null(xq_regulation_row_name(XQ_REG_NROWS));
}

/* Every row of every preset has a value and a clause; "—" only with "not
 * stated"; the rules preset exists; the tie-break and knockout names are
 * ones the tourney module accepts. */
Test(presets, every_row_sourced_and_links_resolve)
{
  for (size_t k = 0; k < NNAMES; k++) {
    const xq_regulation *r = get(names[k]);
    cr_assert(r->title && *r->title && r->file && *r->file);
    cr_assert(r->year >= 2018 && r->year <= 2024);
    for (int i = 0; i < XQ_REG_NROWS; i++) {
      const xq_reg_item *it = &r->rows[i];
      cr_assert_not_null(xq_regulation_row_name(i));
      cr_assert(it->value && *it->value, "%s: row %s has no value", r->name, xq_regulation_row_name(i));
      cr_assert(it->clause && *it->clause, "%s: row %s has no clause", r->name, xq_regulation_row_name(i));
      if (!strcmp(it->value, "—"))
        cr_assert(!strncmp(it->clause, "not stated", 10), "%s: %s", r->name, xq_regulation_row_name(i));
      cr_assert_null(strchr(it->value, '\n'));
      cr_assert_null(strchr(it->clause, '\n'));
    }
    xq_rules rules;
    cr_assert_eq(xq_rules_preset(r->rules_preset, &rules), XQ_OK, "%s", r->rules_preset);
    xq_tconfig cfg;
    xq_tconfig_default(&cfg);
    xq_error err = {0};
    cr_assert_eq(xq_tconfig_tiebreaks(&cfg, r->tb_order, &err), XQ_OK, "%s: %s", r->name, err.msg);
    if (r->ko_format) {
      int fmt;
      cr_assert_eq(xq_ko_parse_format(r->ko_format, &fmt), XQ_OK, "%s", r->ko_format);
    }
    cr_assert_eq(r->win_points, 2);
    cr_assert_eq(r->draw_points, 1);
  }
}

static char *tb_string(const char *spec)
{
  static char buf[256];
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cr_assert_eq(xq_tconfig_tiebreaks(&cfg, spec, NULL), XQ_OK);
  cr_assert_eq(xq_tconfig_tb_format(&cfg, buf, sizeof buf), XQ_OK);
  return buf;
}

Test(presets, xinjiang)
{
  const xq_regulation *r = get("xinjiang2018");
  cr_assert_eq(r->rounds, 11);
  cr_assert_eq(r->ko_size, 8);
  cr_assert_eq(r->ko_after_round, 8);
  cr_assert_str_eq(r->ko_format, "xinjiang");
  cr_assert_eq(r->tb_fallback, XQ_REG_FALLBACK_DROP_ROUND);
  cr_assert(strstr(tb_string(r->tb_order), "PTS,PS,WINS,FOULS,BLACK,ROUNDBACK_FIRST"));
  cr_assert(strstr(r->rows[XQ_REG_TB_FALLBACK].clause, "去除第一轮"));
  cr_assert_eq(r->late_minutes, 15);
  cr_assert_eq(r->prize_cap_pct, 40);
  cr_assert_eq(r->entry_limit, 150);
  cr_assert_eq(r->team_size, 3);
  /* Supplement 一 (25 min + 10 s) beats the main text's 25 + 5, and says so. */
  cr_assert(strstr(row(r, XQ_REG_TIME_SWISS), "10 s"));
  cr_assert(strstr(r->rows[XQ_REG_TIME_SWISS].clause, "overrides"));
  cr_assert_str_eq(row(r, XQ_REG_LUCKY), "—");
  xq_rules rules;
  cr_assert_eq(xq_rules_preset(r->rules_preset, &rules), XQ_OK);
  cr_assert_eq(rules.natural_limit_moves, 50);
  cr_assert_eq(rules.clock_increment_s, 10);
}

Test(presets, burqin)
{
  const xq_regulation *r = get("burqin2018");
  cr_assert_eq(r->rounds, 9);
  cr_assert_eq(r->lucky_start, 18);
  cr_assert_eq(r->lucky_step, 10);
  cr_assert_eq(r->lucky_last, 0);
  cr_assert_eq(r->lucky_amount, 100);
  cr_assert(strstr(row(r, XQ_REG_LUCKY), "18, 28, 38"));
  cr_assert(strstr(r->rows[XQ_REG_LUCKY].clause, "六(六)"));
  cr_assert_null(r->ko_format);
  cr_assert_eq(r->entry_limit, 0);
  cr_assert_str_eq(row(r, XQ_REG_ENTRY_LIMIT), "—");
  cr_assert_eq(r->tb_fallback, XQ_REG_FALLBACK_PREVIOUS_ROUND);
  /* Supplement 5 drops games-as-Black from the main text's order. */
  const char *tb = tb_string(r->tb_order);
  cr_assert(strstr(tb, "PTS,OS,PS,WINS,BWINS,FOULS,ROUNDBACK"), "%s", tb);
  cr_assert_null(strstr(tb, "BLACK"), "%s", tb);
  cr_assert(strstr(r->rows[XQ_REG_TIEBREAKS].clause, "补充规定 5"));
  cr_assert(strstr(row(r, XQ_REG_PRIZES), "may be won twice"));
  /* 补充规定 8: 严禁不经比赛无端媾和…违者取消双方当轮次成绩 */
  cr_assert(strstr(row(r, XQ_REG_OTHER_RULES), "both lose the round (result --)"), "%s", row(r, XQ_REG_OTHER_RULES));
  cr_assert(strstr(r->rows[XQ_REG_OTHER_RULES].clause, "补充规定 8"));
  xq_rules rules;
  cr_assert_eq(xq_rules_preset(r->rules_preset, &rules), XQ_OK);
  cr_assert_eq(rules.natural_check_cap, 8); /* supplement 2 over main text 五(五) */
  cr_assert_eq(rules.fouls_to_lose, 2);
}

Test(presets, shaanxi)
{
  const xq_regulation *r = get("shaanxi2019");
  cr_assert_eq(r->round1_adjacent, 1);
  cr_assert(strstr(row(r, XQ_REG_ROUND1), "1-2, 4-3, 5-6, 8-7"));
  cr_assert_eq(r->withdraw_after, 2);
  cr_assert(strstr(r->rows[XQ_REG_WITHDRAWAL].clause, "连续弃权两轮者不再编排"));
  cr_assert_eq(r->late_minutes, 10);
  cr_assert_eq(r->entry_limit, 100);
  cr_assert_eq(r->ko_size, 0, "the open event has no knockout");
  cr_assert_eq(r->tb_fallback, XQ_REG_FALLBACK_PROGRESSIVE);
  cr_assert(strstr(tb_string(r->tb_order), "PTS,OS,WINS,FOULS,DE,BLACK,PS"));
  cr_assert_eq(r->lucky_start, 29);
  cr_assert_eq(r->lucky_last, 119);
  cr_assert_eq(r->lucky_active_only, 1);
  /* 九.4: 不得以任何借口进行罢赛，无论任何理由均按弃权论 */
  cr_assert(strstr(row(r, XQ_REG_OTHER_RULES), "refusing to play (罢赛): forfeit"), "%s", row(r, XQ_REG_OTHER_RULES));
  cr_assert(strstr(r->rows[XQ_REG_OTHER_RULES].clause, "九.4"));
  xq_rules rules;
  cr_assert_eq(xq_rules_preset(r->rules_preset, &rules), XQ_OK);
  cr_assert_eq(rules.false_claims_to_lose, 2);
}

/* docs/presets.md: "a 3-cycle repetition before move 25: Red must vary".
 * The text (补充规定 一.6) says 25回合（含25回合）以内, move 25 included;
 * the adjudicator's early_cycle_move_limit means "before this move", so
 * the preset holds 26, and the same for draw offers. */
Test(presets, wujiaqu)
{
  const xq_regulation *r = get("wujiaqu2024");
  cr_assert_eq(r->rounds, 13);
  cr_assert_eq(r->ko_size, 8);
  cr_assert_eq(r->ko_after_round, 10);
  cr_assert_eq(r->ko_top_chooses, 0);
  cr_assert(strstr(row(r, XQ_REG_KNOCKOUT), "1-8, 2-7, 3-6, 4-5"));
  int fmt;
  cr_assert_eq(xq_ko_parse_format(r->ko_format, &fmt), XQ_OK);
  cr_assert_eq(fmt, XQ_KO_FMT_RAPID_BLITZ);
  cr_assert_str_eq(row(r, XQ_REG_RULE_BOOK), "CXA 2020");
  cr_assert_eq(r->withdraw_after, 2);
  /* 补充规定 一.10 棋手不得擅自开停，违者记犯规一次; 十四.2 离桌…否则按弃权处理；
   * 未经实际对弈的协商比赛结果，双方都按弃权处理 */
  const char *other = row(r, XQ_REG_OTHER_RULES);
  cr_assert(strstr(other, "starting or stopping the clock oneself: foul"), "%s", other);
  cr_assert(strstr(other, "a result agreed without play: both forfeit (result --)"), "%s", other);
  cr_assert(strstr(r->rows[XQ_REG_OTHER_RULES].clause, "一.10"));
  cr_assert(strstr(r->rows[XQ_REG_OTHER_RULES].clause, "十四.2"));
  xq_rules rules;
  cr_assert_eq(xq_rules_preset(r->rules_preset, &rules), XQ_OK);
  cr_assert_eq(rules.ruleset, XQ_RULESET_CXA2020);
  cr_assert_eq(rules.early_cycle_move_limit, 26);
  cr_assert_eq(rules.early_cycle_changer, XQ_EARLY_RED);
  cr_assert_eq(rules.draw_offer_min_move, 26);
  cr_assert(strstr(xq_rules_preset_clause(r->rules_preset, "early_cycle_move_limit"), "含25回合"));
}

Test(presets, tangshan)
{
  const xq_regulation *r = get("tangshan2018");
  cr_assert_eq(r->ko_size, 4);
  cr_assert_eq(r->ko_after_round, 9);
  cr_assert_eq(r->ko_top_chooses, 1);
  int seeding;
  cr_assert_eq(xq_ko_parse_seeding(r->ko_format, &seeding), XQ_OK);
  cr_assert_eq(seeding, XQ_KO_TOP_CHOOSES);
  cr_assert(strstr(row(r, XQ_REG_GROUPS), "merges into the men's"));
  cr_assert_eq(r->team_size, 4);
  cr_assert_eq(r->entry_limit, 180);
  cr_assert_str_eq(row(r, XQ_REG_LATE), "—");
  cr_assert(strstr(tb_string(r->tb_order), "PTS,PS,OS,WINS,FOULS,BLACK,ROUNDBACK"));
  /* 八.4 其他组别…20分钟…加5秒，双方棋手不作记录 is the other groups'; the
   * open group's 预赛 clock and recording are not stated (八.3 gives its
   * final's 慢棋 20+5) */
  cr_assert(strstr(row(r, XQ_REG_RECORDING), "the open group: not stated"), "%s", row(r, XQ_REG_RECORDING));
  cr_assert(strstr(r->rows[XQ_REG_RECORDING].clause, "其他组别"));
  cr_assert(strstr(row(r, XQ_REG_TIME_SWISS), "the open group's 预赛 not stated"), "%s", row(r, XQ_REG_TIME_SWISS));
  cr_assert(strstr(r->rows[XQ_REG_TIME_SWISS].clause, "八.3"));
  cr_assert(strstr(xq_rules_preset_clause(r->rules_preset, "clock_base_s"), "其他组别"));
}

Test(presets, cli_list)
{
  int status;
  char *out = xq_test_run("presets", &status);
  cr_assert_eq(status, 0, "%s", out);
  int lines = 0;
  for (const char *p = out; *p; p++) lines += *p == '\n';
  cr_assert_eq(lines, 5, "%s", out);
  for (size_t k = 0; k < NNAMES; k++) cr_assert(strstr(out, names[k]), "%s", out);
  cr_assert(strstr(out, "2024"));
  cr_assert(strstr(out, "喀纳斯杯"));
  free(out);
}

Test(presets, cli_show)
{
  int status;
  char *out = xq_test_run("presets show burqin2018", &status);
  cr_assert_eq(status, 0, "%s", out);
  const char *lucky = strstr(out, "lucky prizes");
  cr_assert_not_null(lucky, "%s", out);
  cr_assert(strstr(lucky, "18, 28, 38"));
  cr_assert(strstr(lucky, "六(六)"));
  /* the rules of play, with the regulation's clause or the book default */
  const char *cap = strstr(out, "natural_check_cap");
  cr_assert_not_null(cap, "%s", out);
  cr_assert(strstr(cap, "8"));
  cr_assert(strstr(cap, "补充规定 2"));
  cr_assert(strstr(out, "not stated: CXA 2011 default"));
  const char *ruleset = strstr(out, "ruleset");
  cr_assert(ruleset && strstr(ruleset, "五(一)"), "the rule book is the regulation's own clause");
  free(out);
}

Test(presets, cli_errors)
{
  int status;
  char *out = xq_test_run("presets show moscow2018", &status);
  cr_assert_eq(status, 1, "%s", out);
  cr_assert(strstr(out, "unknown preset 'moscow2018'"), "%s", out);
  free(out);
  out = xq_test_run("presets frobnicate", &status);
  cr_assert_eq(status, 2, "%s", out);
  cr_assert(strstr(out, "usage: xqref presets"));
  free(out);
  out = xq_test_run("presets --help", &status);
  cr_assert_eq(status, 0);
  cr_assert(strstr(out, "usage: xqref presets"));
  free(out);
}
