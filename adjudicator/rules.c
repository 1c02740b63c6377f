/*
 * rules.c -- rule sets: the parameters of docs/adjudicator.md, "Parameters and values" as one struct, the
 * named presets (rule books and the five tournament regulations, every
 * value traced to its clause), and rules files in JSON.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "adjudicator.h"

/* ------------------------------------------------------------------ */
/* Field table: one row per xq_rules field, used by the JSON reader, the
 * JSON writer and the presets.                                         */
/* ------------------------------------------------------------------ */

typedef enum { F_INT, F_BOOL, F_ENUM, F_LONG } ftype;

typedef struct field {
  const char *key;
  ftype type;
  size_t off;
  long min, max;
  const char *const *names; /* F_ENUM: value i is names[i] */
} field;

static const char *const ruleset_names[] = {"cxa2011", "cxa2020", "axf", NULL};
static const char *const check_names[] = {"cap", "exclude_claimant_checks",
                                          "exclude_claimant_forcing", "count_all", NULL};
static const char *const trigger_names[] = {"claim", "auto", NULL};
static const char *const auto_names[] = {"either", "symmetric", "max_side", NULL};
static const char *const illegal_names[] = {"loss", "foul_then_loss", NULL};
static const char *const changer_names[] = {"red", "first_mover", NULL};
static const char *const simple_names[] = {"off", "minimal", "extended", NULL};

#define OFF(f) offsetof(xq_rules, f)
#define DAY_S (24L * 3600L)

static const field fields[] = {
  {"ruleset", F_ENUM, OFF(ruleset), 0, 2, ruleset_names},
  {"repetition_occurrences", F_INT, OFF(repetition_occurrences), 2, 16, NULL},
  {"perpetual_check_loses", F_BOOL, OFF(perpetual_check_loses), 0, 1, NULL},
  {"cycles_after_change_order", F_INT, OFF(cycles_after_change_order), 0, 16, NULL},
  {"natural_limit_moves", F_INT, OFF(natural_limit_moves), 0, 1000, NULL},
  {"natural_check_policy", F_ENUM, OFF(natural_check_policy), 0, 3, check_names},
  {"natural_check_cap", F_INT, OFF(natural_check_cap), 0, 1000, NULL},
  {"natural_trigger", F_ENUM, OFF(natural_trigger), 0, 1, trigger_names},
  {"false_claim_fouls", F_INT, OFF(false_claim_fouls), 0, 10, NULL},
  {"false_claim_penalty_s", F_INT, OFF(false_claim_penalty_s), 0, DAY_S, NULL},
  {"false_claims_to_lose", F_INT, OFF(false_claims_to_lose), 0, 100, NULL},
  {"illegal_policy", F_ENUM, OFF(illegal_policy), 0, 1, illegal_names},
  {"suicide_released_loses", F_BOOL, OFF(suicide_released_loses), 0, 1, NULL},
  {"fouls_to_lose", F_INT, OFF(fouls_to_lose), 0, 100, NULL},
  {"early_cycle_move_limit", F_INT, OFF(early_cycle_move_limit), 0, 1000, NULL},
  {"early_cycle_changer", F_ENUM, OFF(early_cycle_changer), 0, 1, changer_names},
  {"early_cycle_comply_moves", F_INT, OFF(early_cycle_comply_moves), 0, 100, NULL},
  {"kill_search_depth", F_INT, OFF(kill_search_depth), 0, 64, NULL},
  {"kill_search_nodes", F_LONG, OFF(kill_search_nodes), 1, 1000000000L, NULL},
  {"simple_draw", F_ENUM, OFF(simple_draw), 0, 2, simple_names},
  {"kill_continuation_is_kill", F_BOOL, OFF(kill_continuation_is_kill), 0, 1, NULL},
  {"cxa_mutual_refinements", F_BOOL, OFF(cxa_mutual_refinements), 0, 1, NULL},
  {"natural_auto_mode", F_ENUM, OFF(natural_auto_mode), 0, 2, auto_names},
  {"cxa_chase_distinct_victims", F_BOOL, OFF(cxa_chase_distinct_victims), 0, 1, NULL},
  {"claim_max_attackers", F_INT, OFF(claim_max_attackers), 0, 32, NULL},
  {"draw_offers_per_game", F_INT, OFF(draw_offers_per_game), 0, 100, NULL},
  {"draw_offer_min_move", F_INT, OFF(draw_offer_min_move), 0, 1000, NULL},
  {"clock_base_s", F_INT, OFF(clock_base_s), 0, DAY_S, NULL},
  {"clock_increment_s", F_INT, OFF(clock_increment_s), 0, 3600, NULL},
  {"armageddon", F_BOOL, OFF(armageddon), 0, 1, NULL},
  {"clock_base_black_s", F_INT, OFF(clock_base_black_s), 0, DAY_S, NULL},
  {"change_order_comply_moves", F_INT, OFF(change_order_comply_moves), 0, 100, NULL},
  {"draw_offer_max_lead", F_INT, OFF(draw_offer_max_lead), 0, 100, NULL},
  {"draw_offer_min_clock_s", F_INT, OFF(draw_offer_min_clock_s), 0, DAY_S, NULL},
  {"draw_offer_exempt_attackers", F_INT, OFF(draw_offer_exempt_attackers), 0, 32, NULL},
  {"draw_decline_to_arbiter", F_BOOL, OFF(draw_decline_to_arbiter), 0, 1, NULL},
  {"draw_offer_advantage_cutoff_s", F_INT, OFF(draw_offer_advantage_cutoff_s), 0, DAY_S, NULL},
  {"suicide_held_fouls", F_INT, OFF(suicide_held_fouls), 0, 10, NULL},
  {"flag_fall_mate_stands", F_BOOL, OFF(flag_fall_mate_stands), 0, 1, NULL},
  {"draw_offer_own_time", F_BOOL, OFF(draw_offer_own_time), 0, 1, NULL},
  {"claim_attackers_crossed_pawns", F_BOOL, OFF(claim_attackers_crossed_pawns), 0, 1, NULL},
  {"natural_count_from_claim", F_BOOL, OFF(natural_count_from_claim), 0, 1, NULL},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static const field *find_field(const char *key)
{
  for (size_t i = 0; i < NFIELDS; i++)
    if (!strcmp(fields[i].key, key)) return &fields[i];
  return NULL;
}

static long get_field(const xq_rules *r, const field *f)
{
  const char *p = (const char *)r + f->off;
  if (f->type == F_LONG) return *(const long *)p;
  return *(const int *)p; /* ints and enums (enums are int-sized here) */
}

static void set_field(xq_rules *r, const field *f, long value)
{
  char *p = (char *)r + f->off;
  if (f->type == F_LONG)
    *(long *)p = value;
  else
    *(int *)p = (int)value;
}

/* ------------------------------------------------------------------ */
/* Presets                                                              */
/* ------------------------------------------------------------------ */

/* The rule book (docs/adjudicator.md, "Parameters and values", CXA 2011 column, and xqref's defaults
 * where the book is unverified). */
static void cxa2011(xq_rules *r)
{
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "cxa2011");
  r->ruleset = XQ_RULESET_CXA2011;
  r->repetition_occurrences = 3;      /* P2: 循环反复三次 read as the 3rd occurrence (the reading CXA practice takes) */
  r->perpetual_check_loses = 1;       /* P3: 一方长将立即判负 */
  r->cycles_after_change_order = 1;   /* P4: 若再重复一次循环，即判负 */
  r->natural_limit_moves = 60;        /* P5: 60 回合 (22.2) */
  r->natural_check_policy = XQ_NAT_CHECKS_CAP; /* P6: 提出方“将军”最多只计10着 (22.2) */
  r->natural_check_cap = 10;
  r->natural_trigger = XQ_TRIGGER_CLAIM;       /* P7: on a claim */
  r->false_claim_fouls = 1;           /* P8: one foul and 5 minutes off */
  r->false_claim_penalty_s = 300;
  r->false_claims_to_lose = 0;        /* P8: the book has no loss for repeated claims */
  r->illegal_policy = XQ_ILLEGAL_FOUL_THEN_LOSS; /* P9: 2011 unverified; xqref's default */
  r->suicide_released_loses = 1;      /* P10: 走棋后(已离手)形成自杀 → 负 */
  r->suicide_held_fouls = 1;          /* P10: not released → 1 foul (docs/adjudicator.md, "Parameters and values") */
  r->flag_fall_mate_stands = 0;       /* 超时判负: a move after the flag fell comes too late */
  r->fouls_to_lose = 3;               /* P11: 1999 4.1.8 */
  r->early_cycle_move_limit = 0;      /* P12: not in the book */
  r->early_cycle_changer = XQ_EARLY_RED;
  r->early_cycle_comply_moves = 0;
  r->kill_search_depth = 5;           /* P13: 5 attacker moves */
  r->kill_search_nodes = 200000;
  r->simple_draw = XQ_SIMPLE_DRAW_OFF;/* P14: arbiter judgement (4.2.1) */
  r->kill_continuation_is_kill = 1;   /* P15: 从杀到杀 by custom */
  r->cxa_mutual_refinements = 1;      /* P16: 互打 refinements R8.5 */
  r->natural_auto_mode = XQ_NAT_AUTO_EITHER; /* P17 */
  r->cxa_chase_distinct_victims = 1;  /* P18: 24.11 追捉一子或数子 */
}

/* AXF / WXF (docs/adjudicator.md, "Parameters and values", AXF column). */
static void axf(xq_rules *r)
{
  cxa2011(r);
  snprintf(r->name, sizeof r->name, "axf");
  r->ruleset = XQ_RULESET_AXF;
  r->cycles_after_change_order = 0;   /* P4: the offender loses at once (xqref's default) */
  r->kill_continuation_is_kill = 0;   /* P15: n/a, perpetual kill is allowed */
  r->cxa_mutual_refinements = 0;      /* P16: n/a */
  r->cxa_chase_distinct_victims = 0;  /* P18: AXF 32, chasing pieces alternately is allowed */
}

/* One value a regulation sets, with the clause it comes from. */
typedef struct override {
  const char *key;
  long value;
  const char *clause;
} override;

typedef struct preset {
  const char *name;
  const char *base;       /* "cxa2011", "cxa2020" or "axf" */
  const override *ov;     /* terminated by a NULL key */
} preset;

/* Xinjiang 2018 (Urumqi), seeds/xinjiang-2018-urumqi.txt. The
 * supplementary rules after the 仲裁 list are the later word. */
static const override xinjiang_ov[] = {
  {"natural_limit_moves", 50, "补充规定 三: 自然限着为50回合"},
  {"suicide_released_loses", 1, "补充规定 四: 不“应将”，即被“将死”"},
  {"early_cycle_move_limit", 25, "补充规定 十二: 双方在25回合前形成不变作和的循环盘面"},
  {"early_cycle_changer", XQ_EARLY_RED, "补充规定 十二: 先手方必须变招，违者判负 (先手方 = Red)"},
  {"draw_offer_max_lead", 2, "补充规定 八: 提和次数不得多于对方两次"},
  {"draw_offer_own_time", 1, "补充规定 八: 提议作和必须在自己用时内提出 (by the side to move)"},
  {"draw_offer_advantage_cutoff_s", 180,
   "补充规定 九: 优势方3分钟前可提和 (who holds the advantage is the arbiter's call: "
   "a late offer's acceptance goes to the arbiter)"},
  {"flag_fall_mate_stands", 1, "补充规定 十: 一方走棋后“超时”，除出现将死、困毙外…按“超时”判负"},
  {"simple_draw", XQ_SIMPLE_DRAW_MINIMAL, "补充规定 十一: 双方均无取胜可能的简单局势，可直接判和"},
  {"clock_base_s", 25 * 60, "补充规定 一: 每方基本用时25分钟 (main text 九(二) also 25)"},
  {"clock_increment_s", 10, "补充规定 一: 每走一步加10秒 (overrides main text 九(二): 5 s)"},
  {NULL, 0, NULL}
};

/* Burqin 2018 (Kanas Cup), seeds/burqin-2018-kanas-cup.txt. */
static const override burqin_ov[] = {
  {"natural_limit_moves", 40, "补充规定 2: “自然限招”限定40回合 (main text 五(五) also 40)"},
  {"natural_check_policy", XQ_NAT_CHECKS_CAP,
   "补充规定 2: 提出方“将军”只计8步 (overrides main text 五(五): 将军着数不计)"},
  {"natural_check_cap", 8, "补充规定 2: 提出方“将军”只计8步"},
  {"illegal_policy", XQ_ILLEGAL_FOUL_THEN_LOSS, "补充规定 4: 违反行棋规定，第一次判犯规，第二次判负"},
  {"suicide_released_loses", 1, "补充规定 4: 凡出现“自杀”直接判负"},
  {"fouls_to_lose", 2, "补充规定 4: 一局棋单方累计两次犯规判负"},
  {"draw_offers_per_game", 2, "补充规定 2: 任何一方提和次数不得超过两次"},
  {"draw_offer_min_clock_s", 180, "补充规定 2: 提出方剩余时间不足3分钟提和，裁判不予受理"},
  {"draw_offer_exempt_attackers", 2,
   "补充规定 2: (少于两个进攻子的简明公认官和局面除外); 补充规定 3: 双方少于两个进攻子"},
  {"draw_decline_to_arbiter", 1,
   "补充规定 2: 公认优胜方由于时间不够而提和，劣势方不得拒绝 (only an offer by the side with less time "
   "and a clear material lead goes to the arbiter when declined; any other refusal stands)"},
  {"simple_draw", XQ_SIMPLE_DRAW_MINIMAL, "补充规定 3: 双方少于两个进攻子的简明公认官和局面，裁判有权直接判和"},
  {"clock_base_s", 25 * 60, "补充规定 2: 能够加秒的棋钟采用25分钟加5秒 (else 30 min 包干)"},
  {"clock_increment_s", 5, "补充规定 2: 25分钟加5秒"},
  {NULL, 0, NULL}
};

/* Shaanxi 2019 (Dameishiyao Cup), seeds/shaanxi-2019-dameishiyao-cup.txt;
 * 十一: 比赛最终以裁判长的补充规定为准. */
static const override shaanxi_ov[] = {
  {"natural_limit_moves", 40, "补充规定 五: 40回合自然限着"},
  {"natural_check_policy", XQ_NAT_CHECKS_EXCLUDE_CLAIMANT,
   "补充规定 五: 提出方的将军着数不计算在40回合内"},
  {"false_claim_fouls", 1, "补充规定 五: 如不属实则判提出方犯规一次"},
  {"false_claim_penalty_s", 300, "补充规定 五: 在其棋钟上扣除5分钟时间"},
  {"false_claims_to_lose", 2, "补充规定 五: 提出方再次提出，仍不够40回合，即判负"},
  {"illegal_policy", XQ_ILLEGAL_FOUL_THEN_LOSS, "补充规定 七.2: 违反“行棋规定”第一次判犯规，第二次判负"},
  {"suicide_released_loses", 1, "补充规定 七.3: “自杀”已离手直接判负"},
  {"suicide_held_fouls", 1, "补充规定 七.3: 未离手判犯规一次"},
  {"fouls_to_lose", 3, "补充规定 九.3: 一局棋中三次犯规判负"},
  {"clock_base_s", 30 * 60, "补充规定 四.1: 每方基本用时30分钟"},
  {"clock_increment_s", 10, "补充规定 四.1: 每走一步加10秒"},
  {NULL, 0, NULL}
};

/* Wujiaqu 2024 (Tianli Cup), seeds/wujiaqu-2024-tianli-cup.txt; 2020 rule
 * book (九(一)). */
static const override wujiaqu_ov[] = {
  {"natural_limit_moves", 40, "补充规定 一.2: “自然限着”40回合 (main text 九(四) also 40)"},
  {"natural_check_policy", XQ_NAT_FORCING_EXCLUDE_CLAIMANT,
   "补充规定 一.2: 提出方“捉、将、杀”着数不计 (extends main text 九(四): 将军着法不计)"},
  {"claim_max_attackers", 3, "补充规定 一.2: 提出方有三个或以上进攻子力，裁判不予受理"},
  {"illegal_policy", XQ_ILLEGAL_FOUL_THEN_LOSS, "补充规定 一.8: 累计走子违反行棋规定2次判负"},
  {"fouls_to_lose", 3, "补充规定 一.8: 犯规3次，判负"},
  {"repetition_occurrences", 4,
   "补充规定 一.7: 出现3个循环及以上的“待判局面”时裁判才予受理 (3 cycles = 4th occurrence)"},
  {"early_cycle_move_limit", 26, "补充规定 一.6: 25回合（含25回合）以内…不变作和的待判局面"},
  {"early_cycle_changer", XQ_EARLY_RED, "补充规定 一.6: 由红方变着，不变判负"},
  {"early_cycle_comply_moves", 2, "补充规定 一.7: 须变着者在裁判裁决后2个回合内必须变着，否则判负"},
  {"change_order_comply_moves", 2, "补充规定 一.7: 须变着者在裁判裁决后2个回合内必须变着，否则判负"},
  {"draw_offer_min_move", 26, "补充规定 一.6: 每局棋在25回合（含25回合）以内，原则上双方均不得提和"},
  {"simple_draw", XQ_SIMPLE_DRAW_MINIMAL, "补充规定 一.9: 对简明局面，裁判组有权直接介入"},
  {"clock_base_s", 20 * 60, "九(二): 公开组用时20分钟加5秒，超时判负"},
  {"clock_increment_s", 5, "九(二): 20分钟加5秒"},
  {NULL, 0, NULL}
};

/* Tangshan 2018 (Qixie Cup), seeds/tangshan-2018-qixie-cup.txt. */
static const override tangshan_ov[] = {
  {"natural_limit_moves", 0,
   "八.5: 棋手向裁判提出限着后，裁判按照具体局面区别对待 (claims go to the arbiter)"},
  {"illegal_policy", XQ_ILLEGAL_FOUL_THEN_LOSS, "八.6: 走棋违反行棋规定，第一次判犯规、第二次判负"},
  {"suicide_released_loses", 1, "八.6: 不应将或将送吃，属于自杀，直接判负"},
  {"simple_draw", XQ_SIMPLE_DRAW_MINIMAL, "八.5: 双方均无取胜可能的简单局面，裁判有权判和"},
  {"clock_base_s", 20 * 60,
   "八.4: 其他组别每方基本用时为20分钟; 八.3: 决赛慢棋 likewise (the open group's 预赛 clock is not stated)"},
  {"clock_increment_s", 5, "八.4: 其他组别…每走一步加5秒; 八.3: 决赛慢棋 likewise"},
  {NULL, 0, NULL}
};

static const override none_ov[] = {{NULL, 0, NULL}};

static const preset presets[] = {
  {"cxa2011", "cxa2011", none_ov},
  {"cxa2020", "cxa2020", none_ov},
  {"axf", "axf", none_ov},
  {"xinjiang2018", "cxa2011", xinjiang_ov},
  {"burqin2018", "cxa2011", burqin_ov},
  {"shaanxi2019", "cxa2011", shaanxi_ov},
  {"wujiaqu2024", "cxa2020", wujiaqu_ov},
  {"tangshan2018", "cxa2011", tangshan_ov},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

static const preset *find_preset(const char *name)
{
  for (size_t i = 0; i < NPRESETS; i++)
    if (!strcasecmp(presets[i].name, name)) return &presets[i];
  return NULL;
}

int xq_rules_preset(const char *name, xq_rules *out)
{
  if (!name || !out) return XQ_EINVAL;
  const preset *p = find_preset(name);
  if (!p) return XQ_EINVAL;
  xq_rules r;
  if (!strcmp(p->base, "axf")) {
    axf(&r);
  } else {
    cxa2011(&r);
    /* P1: CXA 2020 behaves as 2011 until the books are compared. */
    if (!strcmp(p->base, "cxa2020")) r.ruleset = XQ_RULESET_CXA2020;
  }
  for (const override *o = p->ov; o->key; o++) set_field(&r, find_field(o->key), o->value);
  snprintf(r.name, sizeof r.name, "%s", p->name);
  *out = r;
  return XQ_OK;
}

const char *xq_rules_preset_name(int i)
{
  return i >= 0 && (size_t)i < NPRESETS ? presets[i].name : NULL;
}

const char *xq_rules_preset_clause(const char *name, const char *key)
{
  if (!name || !key) return NULL;
  const preset *p = find_preset(name);
  if (!p) return NULL;
  for (const override *o = p->ov; o->key; o++)
    if (!strcmp(o->key, key)) return o->clause;
  return NULL;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */
/* ------------------------------------------------------------------ */

#define fail(err, code, ...) xq_error_set((err), (code), -1, -1, __VA_ARGS__)

/* Read the file at `path` into a malloc'd NUL-terminated buffer. */
static int read_file(const char *path, char **out, xq_error *err)
{
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, XQ_EIO, "cannot open rules file %s: %s", path, strerror(errno));
  char *buf = malloc(XQ_RULES_JSON_MAX + 1);
  if (!buf) {
    fclose(f);
    return fail(err, XQ_ENOMEM, "out of memory reading %s", path);
  }
  size_t n = fread(buf, 1, XQ_RULES_JSON_MAX + 1, f);
  int bad = ferror(f);
  fclose(f);
  if (bad || n > XQ_RULES_JSON_MAX) {
    free(buf);
    return bad ? fail(err, XQ_EIO, "cannot read rules file %s", path)
               : fail(err, XQ_EIO, "rules file %s is larger than %d bytes", path,
                      XQ_RULES_JSON_MAX);
  }
  buf[n] = '\0';
  *out = buf;
  return XQ_OK;
}

/* Set field `f` of *r from JSON value `item`. */
static int apply_item(xq_rules *r, const field *f, const cJSON *item, xq_error *err)
{
  long v;
  if (f->type == F_ENUM) {
    if (!cJSON_IsString(item)) {
      char opts[160] = "";
      for (int i = 0; f->names[i]; i++) {
        strncat(opts, i ? ", " : "", sizeof opts - strlen(opts) - 1);
        strncat(opts, f->names[i], sizeof opts - strlen(opts) - 1);
      }
      return fail(err, XQ_EINVAL, "rules: \"%s\" must be one of %s", f->key, opts);
    }
    for (v = 0; f->names[v]; v++)
      if (!strcasecmp(f->names[v], item->valuestring)) break;
    if (!f->names[v]) return fail(err, XQ_EINVAL, "rules: \"%s\" has no value \"%s\"", f->key,
                                  item->valuestring);
  } else if (f->type == F_BOOL) {
    long long w = 0;
    if (!cJSON_IsBool(item) && !(cJSON_IsNumber(item) && xq_whole_number(item->valuedouble, 0, 1, &w)))
      return fail(err, XQ_EINVAL, "rules: \"%s\" must be true or false", f->key);
    v = cJSON_IsBool(item) ? cJSON_IsTrue(item) : (long)w;
  } else {
    /* the range is compared on the double, before any conversion: a
     * -1.3e110 or a 1e300 is refused, never cast */
    double d = item->valuedouble;
    long long w;
    if (!cJSON_IsNumber(item))
      return fail(err, XQ_EINVAL, "rules: \"%s\" must be an integer", f->key);
    if (d < (double)f->min || d > (double)f->max)
      return fail(err, XQ_EINVAL, "rules: \"%s\" is %.15g, outside %ld..%ld", f->key, d, f->min,
                  f->max);
    if (!xq_whole_number(d, (double)f->min, (double)f->max, &w))
      return fail(err, XQ_EINVAL, "rules: \"%s\" must be an integer", f->key);
    v = (long)w;
  }
  set_field(r, f, v);
  return XQ_OK;
}

static int load_object(const cJSON *root, xq_rules *out, xq_error *err)
{
  if (!cJSON_IsObject(root)) return fail(err, XQ_EINVAL, "rules: the JSON must be an object");
  xq_rules r;
  /* The base: "preset", else the rule set named by "ruleset" (whose
   * names are presets too), else the default. */
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "preset");
  if (!base) base = cJSON_GetObjectItemCaseSensitive(root, "ruleset");
  if (!base) {
    xq_rules_preset("cxa2011", &r);
  } else {
    if (!cJSON_IsString(base))
      return fail(err, XQ_EINVAL, "rules: \"%s\" must be a string", base->string);
    if (xq_rules_preset(base->valuestring, &r) != XQ_OK)
      return fail(err, XQ_EINVAL, "rules: unknown %s \"%s\"", base->string, base->valuestring);
  }
  for (const cJSON *it = root->child; it; it = it->next) {
    if (!it->string) continue;
    if (!strcmp(it->string, "preset")) continue;
    if (!strcmp(it->string, "name")) {
      if (!cJSON_IsString(it)) return fail(err, XQ_EINVAL, "rules: \"name\" must be a string");
      if (strlen(it->valuestring) >= XQ_RULES_NAME_MAX)
        return fail(err, XQ_EINVAL, "rules: \"name\" is longer than %d bytes",
                    XQ_RULES_NAME_MAX - 1);
      snprintf(r.name, sizeof r.name, "%s", it->valuestring);
      continue;
    }
    const field *f = find_field(it->string);
    if (!f) return fail(err, XQ_EINVAL, "rules: unknown key \"%s\"", it->string);
    int rc = apply_item(&r, f, it, err);
    if (rc) return rc;
  }
  *out = r;
  return XQ_OK;
}

int xq_rules_load_json(const char *src, xq_rules *out, xq_error *err)
{
  if (!src || !out) return fail(err, XQ_EINVAL, "rules: NULL argument");
  const char *p = src;
  while (isspace((unsigned char)*p)) p++;
  char *buf = NULL;
  const char *text = src;
  if (*p != '{') {
    int rc = read_file(src, &buf, err);
    if (rc) return rc;
    text = buf;
  } else if (strlen(src) > XQ_RULES_JSON_MAX) {
    return fail(err, XQ_EINVAL, "rules: JSON text longer than %d bytes", XQ_RULES_JSON_MAX);
  }
  cJSON *root = cJSON_Parse(text);
  int rc;
  if (!root) {
    const char *at = cJSON_GetErrorPtr();
    long pos = at && at >= text ? (long)(at - text) : -1;
    rc = fail(err, XQ_EINVAL, "rules: malformed JSON near byte %ld", pos);
    if (err) err->pos = (int)pos;
  } else {
    rc = load_object(root, out, err);
    cJSON_Delete(root);
  }
  free(buf);
  return rc;
}

int xq_rules_from_spec(const char *spec, xq_rules *out, xq_error *err)
{
  if (!spec || !out) return fail(err, XQ_EINVAL, "rules: NULL argument");
  if (xq_rules_preset(spec, out) == XQ_OK) return XQ_OK;
  return xq_rules_load_json(spec, out, err);
}

char *xq_rules_to_json(const xq_rules *r)
{
  if (!r) return NULL;
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  int ok = cJSON_AddStringToObject(o, "name", r->name) != NULL;
  for (size_t i = 0; ok && i < NFIELDS; i++) {
    const field *f = &fields[i];
    long v = get_field(r, f);
    if (f->type == F_ENUM)
      ok = cJSON_AddStringToObject(o, f->key, v >= f->min && v <= f->max ? f->names[v] : "?") != NULL;
    else if (f->type == F_BOOL)
      ok = cJSON_AddBoolToObject(o, f->key, v != 0) != NULL;
    else
      ok = cJSON_AddNumberToObject(o, f->key, (double)v) != NULL;
  }
  char *s = ok ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  return s;
}
