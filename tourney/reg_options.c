/*
 * reg_options.c -- the preset options: where a regulation's text admits
 * two readings, the one the preset takes (value 0) and the other an
 * arbiter may choose (docs/presets.md "Ambiguous readings"). The model
 * reads the choice from the regulation (xq_regulation.opt) where it
 * applies it: regulation_data.c (groups, prizes), the simulation (group
 * rounds, the rules of play through rules_key).
 */
#include <stdio.h>
#include <string.h>

#include "tourney_internal.h"

static const xq_reg_option options[] = {
  {"xinjiang2018", "ko_places", {"seed", "shared", NULL},
   {"places 3-4 (the semi-finals' losers) and 5-8 (the quarter-finals') by their Swiss seed, so the seed "
    "decides 2500/2000 and 1100/1000/1000/900",
    "the semi-finals' losers share 3rd-4th and the quarter-finals' losers 5th-8th: their open prizes are "
    "pooled and split equally (2250 each; 1000 each)"},
   "九(二): 第二阶段采用单败淘汰赛决出最终名次 (no match for 3rd place or for 5th-8th)", NULL},
  {"xinjiang2018", "u14", {"printed", "to2005", NULL},
   {"the 14岁以上组 as printed, born 2002/01/01-2004/01/01: those born 2004/01/02-2005/12/31 are in no "
    "junior group of 七(二) and win no junior place (十(二)'s 少年 sections, born 2002-2007, still rank them)",
    "the 14岁以上组 runs up to the 12岁组, born 2002/01/01-2005/12/31"},
   "七(二): 12岁组（2006年1月1日以后出生者）; 14岁以上组（2004年1月1日-2002年1月1日出生者）", NULL},
  {"wujiaqu2024", "pawns", {"all", "crossed", NULL},
   {"every pawn is an attacking piece: three rooks, horses, cannons or pawns refuse a natural-limit claim",
    "only a pawn across the river attacks (an uncrossed pawn cannot reach the opponent's general)"},
   "补充规定 一.2: 原则上提出方有三个或以上进攻子力，裁判不予受理", "claim_attackers_crossed_pawns"},
  {"wujiaqu2024", "natural_from", {"capture", "approval", NULL},
   {"the 40 moves run back from the last capture: a claim once they have passed is a draw",
    "the 40 moves run forward from the arbiter's approval of the claim (the claimant counts, the opponent "
    "confirms); a capture voids the count"},
   "补充规定 一.2: “自然限着”40回合，提出方须在裁判员审查盘面同意后方可执行，由提出方计数，对方确认",
   "natural_count_from_claim"},
  {"tangshan2018", "seniors", {"apart", "one", NULL},
   {"a men's and a women's list, standings and prizes, each places 1-6 with 九.3's amounts (六.2 男、女分开录取成绩; "
    "九.3 女子组不足三人取消该组，混入男子组: a women's list under three merges into the men's)",
    "one list of six for men and women (九.3 奖金不分男女 read as one prize list)"},
   "六.2: 老年组…男、女分开录取成绩; 九.3: 老年组奖励前6名（奖金不分男女）", NULL},
  {"tangshan2018", "group_rounds", {"9", "7", NULL},
   {"the other groups' events (simulate --group) play 9 rounds, as the open group",
    "they play 7 rounds (a small entry)"},
   "八.2: 比赛采用7或9轮积分编排制，视参赛人数而定 (the entry count that decides is not stated)", NULL},
};
#define NOPTIONS ((int)(sizeof options / sizeof options[0]))

const xq_reg_option *xq_regulation_option_at(const xq_regulation *r, int i)
{
  for (int k = 0; r && r->name && k < NOPTIONS; k++)
    if (!strcmp(options[k].preset, r->name) && i-- == 0) return &options[k];
  return NULL;
}

/* The index among r's options of `key` (its opt[] slot), -1 when none. */
static int slot_of(const xq_regulation *r, const char *key, size_t len)
{
  const xq_reg_option *o;
  for (int i = 0; i < XQ_REG_OPTIONS_MAX && (o = xq_regulation_option_at(r, i)); i++)
    if (strlen(o->key) == len && !strncmp(o->key, key, len)) return i;
  return -1;
}

int xq_regulation_option(const xq_regulation *r, const char *key)
{
  if (!r || !key) return -1;
  int i = slot_of(r, key, strlen(key));
  return i < 0 ? -1 : r->opt[i];
}

int xq_regulation_option_set(xq_regulation *r, const char *assign, xq_error *err)
{
  if (!r || !assign) return xq__error(err, XQ_EINVAL, "no option");
  const char *eq = strchr(assign, '=');
  int i = eq ? slot_of(r, assign, (size_t)(eq - assign)) : -1;
  if (i < 0) {
    char keys[160] = "";
    const xq_reg_option *o;
    for (int k = 0; (o = xq_regulation_option_at(r, k)); k++)
      snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s", k ? ", " : "", o->key);
    return xq__error(err, XQ_EINVAL, "%s has no option '%.60s' (KEY=VALUE; its options: %s)", r->name,
                     assign, keys[0] ? keys : "none");
  }
  const xq_reg_option *o = xq_regulation_option_at(r, i);
  for (int v = 0; v < XQ_REG_OPTION_VALUES_MAX && o->values[v]; v++)
    if (!strcmp(o->values[v], eq + 1)) {
      r->opt[i] = (unsigned char)v;
      return XQ_OK;
    }
  return xq__error(err, XQ_EINVAL, "option %s of %s is %s or %s, not '%.40s'", o->key, r->name, o->values[0],
                   o->values[1], eq + 1);
}
