/*
 * test_cycle.c -- move classification (将/杀/捉/闲) and cycle rulings:
 * the AXF and CXA case files (tests/data/rules), the CXA rule-book
 * diagram 图30 and its variant, and constructed positions for each rule.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adjudicator.h"

#define CASE_LINE_MAX 8192
#define CASE_MOVES_MAX 256

/* Defaults of docs/adjudicator.md, "Parameters and values" for the two rule sets the cases use. */
static xq_rules test_rules(xq_ruleset rs)
{
  xq_rules r;
  memset(&r, 0, sizeof r);
  snprintf(r.name, sizeof r.name, "%s", rs == XQ_RULESET_AXF ? "axf" : "cxa2011");
  r.ruleset = rs;
  r.repetition_occurrences = 3;
  r.perpetual_check_loses = 1;
  r.cycles_after_change_order = rs == XQ_RULESET_AXF ? 0 : 1;
  r.natural_limit_moves = 60;
  r.natural_check_cap = 10;
  r.kill_search_depth = 5;
  r.kill_search_nodes = 200000;
  r.kill_continuation_is_kill = 1;
  r.cxa_mutual_refinements = 1;
  r.cxa_chase_distinct_victims = rs == XQ_RULESET_AXF ? 0 : 1;
  r.early_cycle_move_limit = 0;
  return r;
}

static xq_pos fen(const char *text)
{
  xq_pos p;
  xq_error err;
  int rc = xq_fen_parse(&p, text, 0, &err);
  cr_assert_eq(rc, XQ_OK, "FEN %s: %s", text, err.msg);
  return p;
}

static xq_move mv(const xq_pos *p, const char *text)
{
  xq_move m = 0;
  xq_error err;
  int rc = xq_move_parse(p, text, XQ_NOTE_ICCS, &m, &err);
  cr_assert_eq(rc, XQ_OK, "move %s: %s", text, err.msg);
  return m;
}

/* Replay `moves` from `start` and rule the window from the first
 * occurrence of the final position (R5 analysis window). */
static int rule_game(const xq_pos *start, const xq_move *moves, int n,
                     const xq_rules *rules, xq_cycle_ruling *out)
{
  static xq_pos hist[CASE_MOVES_MAX + 1];
  hist[0] = *start;
  for (int i = 0; i < n; i++) {
    xq_undo u;
    hist[i + 1] = hist[i];
    xq_make(&hist[i + 1], moves[i], &u);
  }
  int first = n;
  for (int i = 0; i < n; i++)
    if (hist[i].key == hist[n].key) {
      first = i;
      break;
    }
  if (first == n) return XQ_EINVAL;
  return xq_rule_cycle(&hist[first], moves + first, n - first, rules, out);
}

/* The ruling in the case files' words: under P4 = 0 (and "at once" for
 * the CXA perpetual check cases) the side ordered to change loses. */
static const char *verdict_word(const xq_cycle_ruling *r, int change_loses)
{
  switch (r->outcome) {
  case XQ_OUT_RED_WINS: return "red_wins";
  case XQ_OUT_BLACK_WINS: return "black_wins";
  case XQ_OUT_DRAW: return "draw";
  case XQ_OUT_MUST_CHANGE:
    if (change_loses) return r->side == XQ_RED ? "black_wins" : "red_wins";
    return r->side == XQ_RED ? "red_must_change" : "black_must_change";
  case XQ_OUT_NEEDS_ARBITER: return "needs_arbiter";
  default: return "none";
  }
}

static const char *cls_name(xq_cls c)
{
  static const char *n[] = {"idle", "chase", "kill", "check", "undecided"};
  return c <= XQ_CLS_UNDECIDED ? n[c] : "?";
}

typedef struct case_stats {
  int passed, failed;
  char failures[2048];
} case_stats;

/* Run every case of a jsonl file; MUST_CHANGE counts as a loss when
 * `change_loses`. */
static void run_cases(const char *file, int change_loses, case_stats *st)
{
  char path[512];
  snprintf(path, sizeof path, "%s/rules/%s", XQ_TEST_DATA, file);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f, "cannot open %s", path);
  memset(st, 0, sizeof *st);
  static char line[CASE_LINE_MAX];
  while (fgets(line, sizeof line, f)) {
    cJSON *c = cJSON_Parse(line);
    if (!c) continue;
    const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
    const char *rs = cJSON_GetStringValue(cJSON_GetObjectItem(c, "ruleset"));
    const char *fe = cJSON_GetStringValue(cJSON_GetObjectItem(c, "fen"));
    const char *ex = cJSON_GetStringValue(cJSON_GetObjectItem(c, "expect"));
    cJSON *ms = cJSON_GetObjectItem(c, "moves");
    cr_assert(id && rs && fe && ex && cJSON_IsArray(ms), "bad case line in %s", file);
    xq_rules rules = test_rules(strcmp(rs, "axf") == 0 ? XQ_RULESET_AXF : XQ_RULESET_CXA2011);
    xq_pos start = fen(fe), p = start;
    xq_move moves[CASE_MOVES_MAX];
    int n = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, ms) {
      cr_assert_lt(n, CASE_MOVES_MAX);
      moves[n] = mv(&p, it->valuestring);
      xq_undo u;
      xq_make(&p, moves[n++], &u);
    }
    static xq_cycle_ruling r;
    int rc = rule_game(&start, moves, n, &rules, &r);
    cr_assert_eq(rc, XQ_OK, "%s: rc %d", id, rc);
    const char *got = verdict_word(&r, change_loses);
    if (strcmp(got, ex) == 0) {
      st->passed++;
    } else {
      st->failed++;
      size_t l = strlen(st->failures);
      snprintf(st->failures + l, sizeof st->failures - l, " %s(%s, expected %s)", id, got, ex);
      if (getenv("XQ_CYCLE_DEBUG")) {
        char buf[1024] = "";
        for (int i = 0; i < r.n; i++) {
          size_t k = strlen(buf);
          snprintf(buf + k, sizeof buf - k, " %s/%x/%x", cls_name(r.cls[i].cls),
                   r.cls[i].victims, r.cls[i].flags);
        }
        fprintf(stderr, "%s: got %s expected %s reason %d:%s\n", id, got, ex, r.reason, buf);
      }
    }
    cJSON_Delete(c);
  }
  fclose(f);
}

Test(cases, axf)
{
  case_stats st;
  run_cases("axf_cases.jsonl", 1, &st);
  int total = st.passed + st.failed;
  cr_log_info("axf_cases.jsonl: %d passed, %d failed;%s", st.passed, st.failed, st.failures);
  cr_assert_eq(total, 132);
  /* issue 3 asks for 98%; all pass, and a regression should show */
  cr_assert_eq(st.failed, 0, "%d/%d passed; failures:%s", st.passed, total, st.failures);
}

/* Cases from docs/repetition.md where the engines and sites that ruled agree. */
Test(cases, axf_extra)
{
  case_stats st;
  run_cases("axf_extra.jsonl", 1, &st);
  cr_assert_eq(st.passed + st.failed, 3);
  cr_assert_eq(st.failed, 0, "failures:%s", st.failures);
}

/* Held-out AXF cases: the published WXF-diagram and Fairy-Stockfish cases
 * that are not in axf_cases.jsonl (docs/repetition.md, "Held-out
 * validation"). The bar is a pass rate of 95%; every failure is logged. */
#define AXF_MORE_CASES 37
#define AXF_MORE_MIN_PERCENT 95

Test(cases, axf_more)
{
  case_stats st;
  run_cases("axf_more.jsonl", 1, &st);
  int total = st.passed + st.failed;
  cr_assert_eq(total, AXF_MORE_CASES, "axf_more.jsonl has %d cases", total);
  double rate = 100.0 * st.passed / total;
  cr_log_info("axf_more.jsonl: %d passed, %d failed (%.1f%%);%s", st.passed, st.failed,
              rate, st.failed ? st.failures : " no failures");
  cr_assert(st.passed * 100 >= AXF_MORE_MIN_PERCENT * total,
            "pass rate %.1f%% (%d/%d) is below %d%%; failures:%s", rate, st.passed, total,
            AXF_MORE_MIN_PERCENT, st.failures);
}

/* Cases from real play that once ruled wrong (docs/repetition.md, "Checks
 * and evasions"): every one must pass. */
Test(cases, axf_fidelity)
{
  case_stats st;
  run_cases("axf_fidelity.jsonl", 1, &st);
  cr_assert_geq(st.passed + st.failed, 2);
  cr_assert_eq(st.failed, 0, "failures:%s", st.failures);
}

Test(cases, cxa_perpetual_check)
{
  case_stats st;
  run_cases("cxa_check_cases.jsonl", 1, &st);
  cr_assert_eq(st.passed + st.failed, 7);
  cr_assert_eq(st.failed, 0, "failures:%s", st.failures);
}

Test(cases, cxa_figure30)
{
  case_stats st;
  run_cases("cxa_figures.jsonl", 0, &st);
  cr_assert_geq(st.passed + st.failed, 2);
  cr_assert_eq(st.failed, 0, "failures:%s", st.failures);
}

/* ---- classification on constructed positions ----------------------- */

static xq_move_class classify(const char *f, const char *move, xq_ruleset rs)
{
  xq_pos p = fen(f);
  xq_rules r = test_rules(rs);
  xq_move_class c;
  int rc = xq_classify_move(&p, mv(&p, move), &r, &c);
  cr_assert_eq(rc, XQ_OK);
  return c;
}

/* Piece id standing on `sq` in `f`. */
static int pid_at(const char *f, const char *sq)
{
  xq_pos p = fen(f);
  int id = p.board[XQ_SQ(sq[0] - 'a', sq[1] - '0')];
  cr_assert_neq(id, XQ_NO_PID);
  return id;
}

Test(classify, check_in_both_rule_sets)
{
  const char *f = "4k4/9/9/9/9/9/9/9/9/R2K5 w";
  cr_assert_eq(classify(f, "a0a9", XQ_RULESET_AXF).cls, XQ_CLS_CHECK);
  cr_assert_eq(classify(f, "a0a9", XQ_RULESET_CXA2011).cls, XQ_CLS_CHECK);
  cr_assert_eq(classify(f, "a0a1", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
}

Test(classify, chase_of_unprotected_piece)
{
  const char *f = "4k4/9/9/9/2n6/9/9/9/9/R2K5 w"; /* rook a0-a5 hits the c5 horse */
  int horse = pid_at(f, "c5"), rook = pid_at(f, "a0");
  xq_move_class a = classify(f, "a0a5", XQ_RULESET_AXF);
  cr_assert_eq(a.cls, XQ_CLS_CHASE);
  cr_assert_eq(a.victims, 1u << horse);
  cr_assert_eq(a.attackers, 1u << rook);
  xq_move_class c = classify(f, "a0a5", XQ_RULESET_CXA2011);
  cr_assert_eq(c.cls, XQ_CLS_CHASE);
  cr_assert_eq(c.victims, 1u << horse);
  cr_assert(c.flags & XQ_CF_UNPROTECTED);
  cr_assert(c.flags & XQ_CF_SINGLE);
  const char *h = "4k4/9/9/2r6/2n6/9/9/9/9/R2K5 w"; /* c6 rook protects c5 */
  cr_assert_eq(classify(h, "a0a5", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
  cr_assert_eq(classify(h, "a0a5", XQ_RULESET_CXA2011).cls, XQ_CLS_IDLE);
}

Test(classify, horse_chases_protected_rook)
{
  const char *f = "4k4/4r4/9/9/1N7/9/9/9/9/3K5 w"; /* e8 rook guarded by the king */
  int rook = pid_at(f, "e8");
  xq_move_class a = classify(f, "b5d6", XQ_RULESET_AXF);
  cr_assert_eq(a.cls, XQ_CLS_CHASE); /* AXF 15: protected or not */
  cr_assert(a.victims & (1u << rook));
  cr_assert(a.flags & XQ_CF_MINOR_ROOK);
  xq_move_class c = classify(f, "b5d6", XQ_RULESET_CXA2011);
  cr_assert_eq(c.cls, XQ_CLS_CHASE); /* R10.2(b): 马 for 车 wins material */
  cr_assert(c.flags & XQ_CF_MINOR_ROOK);
}

Test(classify, fake_root)
{
  /* The d0 horse's only protector is the general, which cannot retake on
   * d0: the generals would face on the open d-file. */
  const char *fake = "3k5/9/9/9/9/9/r8/9/9/3NK4 b";
  cr_assert_eq(classify(fake, "a3d3", XQ_RULESET_AXF).cls, XQ_CLS_CHASE);
  /* (CXA sees more here: the rook also threatens mate, 杀.) */
  cr_assert_eq(classify(fake, "a3d3", XQ_RULESET_CXA2011).cls, XQ_CLS_KILL);
  /* A black horse on d6 closes the file: the root is real. */
  const char *real = "3k5/9/9/3n5/9/9/r8/9/9/3NK4 b";
  cr_assert_eq(classify(real, "a3d3", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
  cr_assert_eq(classify(real, "a3d3", XQ_RULESET_CXA2011).cls, XQ_CLS_IDLE);
}

/* A check only suspends standing attacks (issue 22, items 7 and 8). */
Test(classify, check_evasion_makes_no_new_chase)
{
  /* The g7 rook checks; e8-f7 blocks it and gives the d1 cannon back its
   * capture of the unprotected d9 pawn, which it had before the check. */
  const char *f = "3P1P3/4a3c/3k2R2/9/9/6B2/9/4B4/2Cc5/4KCN2 b";
  xq_move_class c = classify(f, "e8f7", XQ_RULESET_AXF);
  cr_assert_eq(c.cls, XQ_CLS_IDLE);
  cr_assert_eq(c.victims, 0u);
}

Test(classify, check_opening_a_chase)
{
  /* c5-c1 checks and opens the a5 rook on the unprotected d5 cannon. */
  const char *f = "9/4k4/b8/9/r1rC5/9/9/9/5K3/p8 b";
  int cannon = pid_at(f, "d5"), rook = pid_at(f, "a5");
  xq_move_class c = classify(f, "c5c1", XQ_RULESET_AXF);
  cr_assert_eq(c.cls, XQ_CLS_CHECK);
  cr_assert_eq(c.victims, 1u << cannon);
  cr_assert_eq(c.attackers, 1u << rook);
  /* c5-e5 checks and opens the c0 rook on the c6 horse: unprotected, a
   * chase; protected by the c9 rook, none, although the c9 rook cannot
   * retake while its general is in check. */
  const char *bare = "4k4/9/9/2n6/2R6/9/9/9/9/2RK5 w";
  c = classify(bare, "c5e5", XQ_RULESET_AXF);
  cr_assert_eq(c.cls, XQ_CLS_CHECK);
  cr_assert_eq(c.victims, 1u << pid_at(bare, "c6"));
  const char *held = "2r1k4/9/9/2n6/2R6/9/9/9/9/2RK5 w";
  c = classify(held, "c5e5", XQ_RULESET_AXF);
  cr_assert_eq(c.cls, XQ_CLS_CHECK);
  cr_assert_eq(c.victims, 0u);
  /* a5-a9 checks over the c9 elephant; the g7 horse attacks the f9
   * advisor, whose only root is the general: it cannot retake on f9, where
   * the cannon would take it (the check set aside is the one on e9 only). */
  const char *king = "2b1ka3/9/6N2/9/C8/9/9/9/9/3K5 w";
  c = classify(king, "a5a9", XQ_RULESET_AXF);
  cr_assert_eq(c.cls, XQ_CLS_CHECK);
  cr_assert_eq(c.victims, 1u << pid_at(king, "f9"));
}

Test(classify, same_type_exchange_offer)
{
  const char *f = "4k4/9/9/9/r8/9/9/9/9/3K3R1 w"; /* h0-h5 faces the a5 rook */
  cr_assert_eq(classify(f, "h0h5", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
  cr_assert_eq(classify(f, "h0h5", XQ_RULESET_CXA2011).cls, XQ_CLS_IDLE);
}

Test(classify, pawn_chase_is_idle)
{
  const char *f = "4k4/9/9/2n6/9/2P6/9/9/9/3K5 w"; /* c4-c5 attacks the c6 horse */
  cr_assert_eq(classify(f, "c4c5", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
  xq_move_class c = classify(f, "c4c5", XQ_RULESET_CXA2011);
  cr_assert_eq(c.cls, XQ_CLS_IDLE);
  cr_assert(c.flags & XQ_CF_PAWN_CHASE); /* 27.2: counts in mutual 长打 */
}

Test(classify, king_only_chase_is_idle)
{
  const char *f = "4k4/9/9/9/9/9/9/3n5/9/3K5 w"; /* Kd0-d1 attacks the d2 horse */
  cr_assert_eq(classify(f, "d0d1", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
  xq_move_class c = classify(f, "d0d1", XQ_RULESET_CXA2011);
  cr_assert_eq(c.cls, XQ_CLS_IDLE);
  cr_assert(c.flags & XQ_CF_KING_CHASE);
}

Test(classify, general_answering_check)
{
  xq_move_class c = classify("4k4/9/9/9/4R4/9/9/9/9/3K5 b", "e9f9", XQ_RULESET_CXA2011);
  cr_assert_eq(c.cls, XQ_CLS_IDLE);
  cr_assert(c.flags & XQ_CF_CHECK_ANSWER); /* 图17 */
}

Test(classify, new_versus_existing_threat)
{
  /* The a0 rook already attacks the a5 cannon: moving along the file keeps
   * the attack, nothing new (D106, 从捉到捉). */
  const char *kept = "4k4/9/9/9/c8/9/9/9/9/R2K5 w";
  cr_assert_eq(classify(kept, "a0a1", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
  cr_assert_eq(classify(kept, "a0a1", XQ_RULESET_CXA2011).cls, XQ_CLS_IDLE);
  /* From the b-file the same rook creates the attack. */
  const char *fresh = "4k4/9/9/9/c8/9/9/9/9/1R1K5 w";
  cr_assert_eq(classify(fresh, "b0a0", XQ_RULESET_AXF).cls, XQ_CLS_CHASE);
  cr_assert_eq(classify(fresh, "b0a0", XQ_RULESET_CXA2011).cls, XQ_CLS_CHASE);
}

Test(classify, cxa_discovered_check_wins_material)
{
  /* i1-e1 puts the rook behind the e5 horse: next move the horse gives a
   * discovered check from c6 and takes the a5 rook (要抽, R10.2(c)). */
  const char *f = "4k4/9/9/9/r3N4/9/9/9/8R/3K5 w";
  int rook = pid_at(f, "a5");
  xq_move_class c = classify(f, "i1e1", XQ_RULESET_CXA2011);
  cr_assert_eq(c.cls, XQ_CLS_CHASE);
  cr_assert_eq(c.victims, 1u << rook);
  cr_assert(c.flags & XQ_CF_DISCOVERED_WIN);
  /* AXF counts attacks only: nothing attacks the rook. */
  cr_assert_eq(classify(f, "i1e1", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
}

/* Black's general alone; a8 rook holds rank 8; h0-g0 threatens g9 mate. */
#define KILL_FEN "4k4/R8/9/9/7P1/9/9/9/9/3K3R1 w"

Test(classify, cxa_kill_threat)
{
  xq_move_class c = classify(KILL_FEN, "h0g0", XQ_RULESET_CXA2011);
  cr_assert_eq(c.cls, XQ_CLS_KILL);
  cr_assert(c.flags & XQ_CF_KILL);
  /* AXF has no 杀: the same move is idle. */
  cr_assert_eq(classify(KILL_FEN, "h0g0", XQ_RULESET_AXF).cls, XQ_CLS_IDLE);
}

Test(classify, budget_exhausted_is_undecided)
{
  xq_pos p = fen(KILL_FEN);
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  r.kill_search_nodes = 5;
  xq_move_class c;
  cr_assert_eq(xq_classify_move(&p, mv(&p, "h0g0"), &r, &c), XQ_OK);
  cr_assert_eq(c.cls, XQ_CLS_UNDECIDED);
  cr_assert(c.flags & XQ_CF_BUDGET);
  /* checks never need a search */
  cr_assert_eq(xq_classify_move(&p, mv(&p, "a8a9"), &r, &c), XQ_OK);
  cr_assert_eq(c.cls, XQ_CLS_CHECK);
}

Test(classify, bad_arguments)
{
  xq_pos p = fen(KILL_FEN);
  xq_rules r = test_rules(XQ_RULESET_AXF);
  xq_move_class c;
  cr_assert_eq(xq_classify_move(NULL, 1, &r, &c), XQ_EINVAL);
  cr_assert_eq(xq_classify_move(&p, XQ_MOVE(0, 1), &r, &c), XQ_EILLEGAL);
}

/* ---- cycle rulings -------------------------------------------------- */

#define FIG30 "2bakab2/9/2n1c3c/pCp1N3p/7n1/2P6/P3P1P1P/4CrN2/9/1RBAKAB2 w"

static int fig30_moves(const xq_pos *start, xq_move *m)
{
  static const char *t[] = {"b6b2", "f2f6", "b2b6", "f6f2", "b6b2", "f2f6", "b2b6", "f6f2"};
  xq_pos p = *start;
  for (int i = 0; i < 8; i++) {
    m[i] = mv(&p, t[i]);
    xq_undo u;
    xq_make(&p, m[i], &u);
  }
  return 8;
}

Test(cycle, early_cycle_override)
{
  xq_pos p = fen(FIG30);
  xq_move m[8];
  int n = fig30_moves(&p, m);
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  static xq_cycle_ruling out;
  cr_assert_eq(xq_rule_cycle(&p, m, n, &r, &out), XQ_OK);
  cr_assert_eq(out.outcome, XQ_OUT_DRAW);
  cr_assert_eq(out.n, 8);
  r.early_cycle_move_limit = 25; /* P12: completed at move 4 */
  r.early_cycle_changer = XQ_EARLY_RED;
  cr_assert_eq(xq_rule_cycle(&p, m, n, &r, &out), XQ_OK);
  cr_assert_eq(out.outcome, XQ_OUT_MUST_CHANGE);
  cr_assert_eq(out.side, XQ_RED);
  cr_assert_eq(out.reason, XQ_REASON_EARLY_CYCLE);
  r.early_cycle_move_limit = 4; /* completed in move 4: not before it */
  cr_assert_eq(xq_rule_cycle(&p, m, n, &r, &out), XQ_OK);
  cr_assert_eq(out.outcome, XQ_OUT_DRAW);
}

Test(cycle, budget_gives_needs_arbiter)
{
  xq_pos p = fen("2bakab2/9/4c1n1c/pCp1N3p/7n1/2P6/P3P1P1P/4CrN2/9/1RBAKAB2 w");
  xq_move m[8];
  int n = fig30_moves(&p, m);
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  static xq_cycle_ruling out;
  cr_assert_eq(xq_rule_cycle(&p, m, n, &r, &out), XQ_OK);
  cr_assert_eq(out.outcome, XQ_OUT_MUST_CHANGE);
  cr_assert_eq(out.side, XQ_BLACK);
  r.kill_search_nodes = 5; /* every classification runs out */
  cr_assert_eq(xq_rule_cycle(&p, m, n, &r, &out), XQ_OK);
  cr_assert_eq(out.cls[1].cls, XQ_CLS_UNDECIDED);
  cr_assert_eq(out.outcome, XQ_OUT_NEEDS_ARBITER);
  cr_assert_eq(out.reason, XQ_REASON_SEARCH_BUDGET);
}

Test(cycle, perpetual_check_reasons)
{
  const char *f = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";
  static const char *t[] = {"h8h9", "f9f8", "h9h8", "f8f9"};
  xq_pos p = fen(f), q = p;
  xq_move m[4];
  for (int i = 0; i < 4; i++) {
    m[i] = mv(&q, t[i]);
    xq_undo u;
    xq_make(&q, m[i], &u);
  }
  static xq_cycle_ruling out;
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  cr_assert_eq(xq_rule_cycle(&p, m, 4, &r, &out), XQ_OK);
  cr_assert_eq(out.outcome, XQ_OUT_BLACK_WINS);
  cr_assert_eq(out.reason, XQ_REASON_PERPETUAL_CHECK);
  cr_assert_eq(out.cls[0].cls, XQ_CLS_CHECK);
  r.perpetual_check_loses = 0; /* then it is an order to change */
  cr_assert_eq(xq_rule_cycle(&p, m, 4, &r, &out), XQ_OK);
  cr_assert_eq(out.outcome, XQ_OUT_MUST_CHANGE);
  cr_assert_eq(out.side, XQ_RED);
}

Test(cycle, bad_arguments)
{
  xq_pos p = fen(FIG30);
  xq_move m[8];
  fig30_moves(&p, m);
  xq_rules r = test_rules(XQ_RULESET_AXF);
  static xq_cycle_ruling out;
  cr_assert_eq(xq_rule_cycle(&p, m, 0, &r, &out), XQ_EINVAL);
  cr_assert_eq(xq_rule_cycle(&p, m, XQ_CYCLE_MAX + 1, &r, &out), XQ_EINVAL);
  cr_assert_eq(xq_rule_cycle(NULL, m, 8, &r, &out), XQ_EINVAL);
  xq_move bad[2] = {m[0], m[0]};
  cr_assert_eq(xq_rule_cycle(&p, bad, 2, &r, &out), XQ_EILLEGAL);
}

/* ---- verdict tables on classified windows ---------------------------- */

/* A four-ply window Red, Black, Red, Black with the given classes, flags
 * and victims, ruled under `rules`. */
typedef struct ply {
  xq_cls cls;
  uint32_t flags, victims;
} ply;

static xq_cycle_ruling *rule4(const xq_rules *r, ply r1, ply b1, ply r2, ply b2)
{
  static xq_cycle_ruling w;
  memset(&w, 0, sizeof w);
  ply p[4] = {r1, b1, r2, b2};
  w.n = 4;
  for (int i = 0; i < 4; i++) {
    w.cls[i].mover = (uint8_t)(i & 1);
    w.cls[i].cls = p[i].cls;
    w.cls[i].flags = p[i].flags;
    w.cls[i].victims = p[i].victims;
  }
  cr_assert_eq(xq_rule_classified(&w, r, 40), XQ_OK);
  return &w;
}

#define IDLE ((ply){XQ_CLS_IDLE, 0, 0})
#define CHECK ((ply){XQ_CLS_CHECK, 0, 0})
#define KILL ((ply){XQ_CLS_KILL, 0, 0})
#define UNDEC ((ply){XQ_CLS_UNDECIDED, XQ_CF_BUDGET, 0})
#define CHASE(f, v) ((ply){XQ_CLS_CHASE, (f), (v)})
#define PAWN_IDLE ((ply){XQ_CLS_IDLE, XQ_CF_PAWN_CHASE, 1u << 20})

static void expect(const xq_cycle_ruling *w, xq_outcome o, int side, xq_reason why)
{
  cr_assert_eq(w->outcome, o, "outcome %d, expected %d", w->outcome, o);
  cr_assert_eq(w->side, side, "side %d, expected %d", w->side, side);
  cr_assert_eq(w->reason, why, "reason %d, expected %d", w->reason, why);
}

Test(verdict, cxa_basic_table)
{
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  ply c = CHASE(XQ_CF_SINGLE | XQ_CF_UNPROTECTED, 1u << 20);
  /* R8.1: unilateral perpetual check loses even against 长打 */
  expect(rule4(&r, CHECK, c, CHECK, c), XQ_OUT_BLACK_WINS, XQ_RED, XQ_REASON_PERPETUAL_CHECK);
  expect(rule4(&r, CHECK, CHECK, CHECK, CHECK), XQ_OUT_DRAW, -1,
         XQ_REASON_MUTUAL_PERPETUAL_CHECK);
  /* R8.3: 一将一杀 against 一捉一闲 */
  expect(rule4(&r, CHECK, c, KILL, IDLE), XQ_OUT_MUST_CHANGE, XQ_RED,
         XQ_REASON_PERPETUAL_ATTACK);
  /* R8.4: 数将一闲 is permitted */
  expect(rule4(&r, CHECK, IDLE, IDLE, IDLE), XQ_OUT_DRAW, -1, XQ_REASON_BOTH_PERMITTED);
  /* R8.5(c): 一将一捉 against 长杀 (图19) */
  expect(rule4(&r, CHECK, KILL, c, KILL), XQ_OUT_DRAW, -1, XQ_REASON_MUTUAL_ATTACK);
}

Test(verdict, cxa_mutual_refinements)
{
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  ply minor = CHASE(XQ_CF_MINOR_ROOK, 1u << 23);
  ply single = CHASE(XQ_CF_SINGLE | XQ_CF_UNPROTECTED, 1u << 5);
  ply joint = CHASE(XQ_CF_JOINT | XQ_CF_UNDERPROTECTED, 1u << 6);
  /* (a) 马/炮长捉车 must change against other chases (图10) */
  expect(rule4(&r, minor, single, minor, single), XQ_OUT_MUST_CHANGE, XQ_RED,
         XQ_REASON_MINOR_CHASES_ROOK);
  /* (b) 单子长捉无根子 must change against 联合捉 (图11, 27) */
  expect(rule4(&r, joint, single, joint, single), XQ_OUT_MUST_CHANGE, XQ_BLACK,
         XQ_REASON_SINGLE_CHASES_UNPROTECTED);
  /* both sides caught by (a)/(b): the arbiter decides */
  ply minor_joint = CHASE(XQ_CF_MINOR_ROOK | XQ_CF_JOINT, 1u << 23);
  expect(rule4(&r, minor_joint, single, minor_joint, single), XQ_OUT_NEEDS_ARBITER, -1,
         XQ_REASON_MUTUAL_ATTACK);
  /* P16 off: plain draw */
  r.cxa_mutual_refinements = 0;
  expect(rule4(&r, minor, single, minor, single), XQ_OUT_DRAW, -1, XQ_REASON_MUTUAL_ATTACK);
}

Test(verdict, cxa_pawn_chase_counts_in_mutual_attack)
{
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  ply c = CHASE(0, 1u << 5);
  /* Black's pawn chase is 闲 against a side that idles ... */
  expect(rule4(&r, c, PAWN_IDLE, IDLE, c), XQ_OUT_DRAW, -1, XQ_REASON_BOTH_PERMITTED);
  /* ... and 捉 when Red is 长打 itself (27.2): both prohibited, draw */
  expect(rule4(&r, c, PAWN_IDLE, c, c), XQ_OUT_DRAW, -1, XQ_REASON_MUTUAL_ATTACK);
  /* without the pawn chase Black idles and Red must change */
  expect(rule4(&r, c, IDLE, c, c), XQ_OUT_MUST_CHANGE, XQ_RED, XQ_REASON_PERPETUAL_ATTACK);
}

Test(verdict, cxa_distinct_victims_p18)
{
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  ply a = CHASE(0, 1u << 21), b = CHASE(0, 1u << 22);
  expect(rule4(&r, a, IDLE, b, IDLE), XQ_OUT_MUST_CHANGE, XQ_RED, XQ_REASON_PERPETUAL_ATTACK);
  r.cxa_chase_distinct_victims = 0; /* 分捉 allowed */
  expect(rule4(&r, a, IDLE, b, IDLE), XQ_OUT_DRAW, -1, XQ_REASON_BOTH_PERMITTED);
  expect(rule4(&r, a, IDLE, a, IDLE), XQ_OUT_MUST_CHANGE, XQ_RED, XQ_REASON_PERPETUAL_ATTACK);
}

Test(verdict, cxa_undecided_moves)
{
  xq_rules r = test_rules(XQ_RULESET_CXA2011);
  ply c = CHASE(0, 1u << 5);
  /* Red idles once anyway: Black must change whatever the search says */
  expect(rule4(&r, UNDEC, c, IDLE, c), XQ_OUT_MUST_CHANGE, XQ_BLACK,
         XQ_REASON_PERPETUAL_ATTACK);
  /* the verdict hangs on the undecided move */
  expect(rule4(&r, UNDEC, IDLE, c, IDLE), XQ_OUT_NEEDS_ARBITER, -1, XQ_REASON_SEARCH_BUDGET);
  /* perpetual check needs no search */
  expect(rule4(&r, CHECK, UNDEC, CHECK, IDLE), XQ_OUT_BLACK_WINS, XQ_RED,
         XQ_REASON_PERPETUAL_CHECK);
}

Test(verdict, axf_levels)
{
  xq_rules r = test_rules(XQ_RULESET_AXF);
  ply c5 = CHASE(0, 1u << 5), c6 = CHASE(0, 1u << 6);
  ply check5 = {XQ_CLS_CHECK, 0, 1u << 5};
  /* level 1 against 0: the chaser must change (P4 = 0 makes it a loss) */
  expect(rule4(&r, c5, IDLE, c5, IDLE), XQ_OUT_MUST_CHANGE, XQ_RED,
         XQ_REASON_AXF_PERPETUAL_CHASE);
  /* a check that chases the same piece keeps the chase perpetual */
  expect(rule4(&r, c5, IDLE, check5, IDLE), XQ_OUT_MUST_CHANGE, XQ_RED,
         XQ_REASON_AXF_PERPETUAL_CHASE);
  /* one check + one chase (AXF 12), or two victims in turn (AXF 32): allowed */
  expect(rule4(&r, c5, IDLE, CHECK, IDLE), XQ_OUT_DRAW, -1, XQ_REASON_AXF_EQUAL);
  expect(rule4(&r, c5, IDLE, c6, IDLE), XQ_OUT_DRAW, -1, XQ_REASON_AXF_EQUAL);
  /* perpetual kill is allowed */
  expect(rule4(&r, KILL, IDLE, KILL, IDLE), XQ_OUT_DRAW, -1, XQ_REASON_AXF_EQUAL);
  /* check over chase: the checker loses at once */
  ply b = CHASE(0, 1u << 3);
  expect(rule4(&r, CHECK, b, CHECK, b), XQ_OUT_BLACK_WINS, XQ_RED,
         XQ_REASON_AXF_CHECK_OVER_CHASE);
  /* mutual chase: draw */
  expect(rule4(&r, c5, b, c5, b), XQ_OUT_DRAW, -1, XQ_REASON_AXF_EQUAL);
}

Test(verdict, axf_pinned_piece_chasing_its_horse)
{
  xq_rules r = test_rules(XQ_RULESET_AXF);
  static xq_cycle_ruling w;
  memset(&w, 0, sizeof w);
  w.n = 4;
  /* Red's rook (id 7), pinned by the black horse (id 21), chases it;
   * Black chases the rook. */
  for (int i = 0; i < 4; i++) {
    w.cls[i].mover = (uint8_t)(i & 1);
    w.cls[i].cls = XQ_CLS_CHASE;
    w.cls[i].victims = i & 1 ? 1u << 7 : 1u << 21;
    if (!(i & 1)) {
      w.cls[i].pinned_victims = 1u << 21;
      w.cls[i].pinned_chasers = 1u << 7;
    }
  }
  cr_assert_eq(xq_rule_classified(&w, &r, 40), XQ_OK);
  expect(&w, XQ_OUT_MUST_CHANGE, XQ_BLACK, XQ_REASON_AXF_PERPETUAL_CHASE);
  /* when Black does not chase the rook, the pinned rook's chase stands */
  w.cls[1].cls = w.cls[3].cls = XQ_CLS_IDLE;
  w.cls[1].victims = w.cls[3].victims = 0;
  cr_assert_eq(xq_rule_classified(&w, &r, 40), XQ_OK);
  expect(&w, XQ_OUT_MUST_CHANGE, XQ_RED, XQ_REASON_AXF_PERPETUAL_CHASE);
}

Test(verdict, early_cycle_first_mover_and_bad_input)
{
  xq_rules r = test_rules(XQ_RULESET_AXF);
  static xq_cycle_ruling w;
  memset(&w, 0, sizeof w);
  w.n = 2;
  w.cls[0].mover = XQ_BLACK;
  w.cls[1].mover = XQ_RED;
  r.early_cycle_move_limit = 25;
  r.early_cycle_changer = XQ_EARLY_FIRST_MOVER;
  cr_assert_eq(xq_rule_classified(&w, &r, 24), XQ_OK);
  expect(&w, XQ_OUT_MUST_CHANGE, XQ_BLACK, XQ_REASON_EARLY_CYCLE);
  cr_assert_eq(xq_rule_classified(&w, &r, 25), XQ_OK);
  expect(&w, XQ_OUT_DRAW, -1, XQ_REASON_AXF_EQUAL);
  /* a one-ply window: the side without a move is not 长将 */
  xq_rules c = test_rules(XQ_RULESET_CXA2011);
  w.n = 1;
  w.cls[0].cls = XQ_CLS_CHECK;
  cr_assert_eq(xq_rule_classified(&w, &c, 40), XQ_OK);
  expect(&w, XQ_OUT_RED_WINS, XQ_BLACK, XQ_REASON_PERPETUAL_CHECK);
  w.n = 2;
  w.cls[1].mover = 2;
  cr_assert_eq(xq_rule_classified(&w, &r, 25), XQ_EINVAL);
  w.n = 0;
  cr_assert_eq(xq_rule_classified(&w, &r, 25), XQ_EINVAL);
  cr_assert_eq(xq_rule_classified(NULL, &r, 25), XQ_EINVAL);
}

/* Speed figures (printed, not asserted). */
Test(cycle, timing)
{
  xq_pos p = fen(FIG30);
  xq_move m[8];
  int n = fig30_moves(&p, m);
  static xq_cycle_ruling out;
  for (int rs = 0; rs < 2; rs++) {
    xq_rules r = test_rules(rs ? XQ_RULESET_AXF : XQ_RULESET_CXA2011);
    int reps = 200;
    clock_t t0 = clock();
    for (int i = 0; i < reps; i++) cr_assert_eq(xq_rule_cycle(&p, m, n, &r, &out), XQ_OK);
    double us = (double)(clock() - t0) / CLOCKS_PER_SEC * 1e6 / (reps * n);
    cr_log_info("%s: %.1f us per classified move (图30 cycle)", r.name, us);
  }
}
