/*
 * reason.c -- names and one-line explanations of reason codes, outcomes
 * and verdict kinds, in English and Chinese.
 */
#include <string.h>

#include "adjudicator.h"

typedef struct reason_row {
  xq_reason code;
  const char *name;
  const char *zh;
  const char *en;
} reason_row;

static const reason_row reasons[] = {
  {XQ_REASON_NONE, "none", "无", "nothing to rule"},
  {XQ_REASON_ILLEGAL_MOVE, "illegal_move", "违反行棋规定", "a move against the rules of movement"},
  {XQ_REASON_SUICIDE, "suicide", "自杀：走后己方将帅被吃或将帅对面",
   "suicide: the move leaves the mover's own general capturable"},
  {XQ_REASON_FOUL_LIMIT, "foul_limit", "累计犯规达到判负次数", "fouls reached the number that loses"},
  {XQ_REASON_CHECKMATE, "checkmate", "将死", "checkmate"},
  {XQ_REASON_STALEMATE, "stalemate", "困毙：无子可动，判负", "stalemate: no legal move, which loses"},
  {XQ_REASON_NATURAL_LIMIT, "natural_limit", "自然限着：规定回合内无吃子，判和",
   "natural move limit: no capture within the limit, a draw"},
  {XQ_REASON_FALSE_CLAIM, "false_claim", "自然限着提议不属实",
   "a false natural-limit claim"},
  {XQ_REASON_FLAG_FALL, "flag_fall", "超时判负", "flag fall: out of time"},
  {XQ_REASON_ARMAGEDDON_DRAW, "armageddon_draw", "和棋黑胜", "a draw in armageddon: Black wins"},
  {XQ_REASON_RESIGNATION, "resignation", "认负", "resignation"},
  {XQ_REASON_AGREEMENT, "agreement", "双方同意作和", "draw by agreement"},
  {XQ_REASON_ARBITER, "arbiter", "裁判裁决", "the arbiter's ruling"},
  {XQ_REASON_SIMPLE_DRAW, "simple_draw", "双方均无取胜可能的简单局势，判和",
   "neither side can win: a draw"},
  {XQ_REASON_PERPETUAL_CHECK, "perpetual_check", "单方长将，判负",
   "unilateral perpetual check loses"},
  {XQ_REASON_MUTUAL_PERPETUAL_CHECK, "mutual_perpetual_check", "双方长将，判和",
   "both sides check perpetually: a draw"},
  {XQ_REASON_PERPETUAL_ATTACK, "perpetual_attack", "长打（禁止着法）对允许着法，长打方须变着",
   "perpetual attack against permitted moves: the attacker must change"},
  {XQ_REASON_MUTUAL_ATTACK, "mutual_attack", "双方长打，判和", "both sides attack perpetually: a draw"},
  {XQ_REASON_MINOR_CHASES_ROOK, "minor_chases_rook", "双方长打，马炮长捉车一方须变着",
   "mutual attack: the side whose horse or cannon perpetually chases a rook must change"},
  {XQ_REASON_SINGLE_CHASES_UNPROTECTED, "single_chases_unprotected",
   "双方长打，单子长捉无根子一方须变着",
   "mutual attack: the side chasing an unprotected piece with one piece must change"},
  {XQ_REASON_BOTH_PERMITTED, "both_permitted", "双方均为允许着法，不变作和",
   "both sides play permitted moves: a draw if neither changes"},
  {XQ_REASON_AXF_PERPETUAL_CHASE, "axf_perpetual_chase", "长捉对闲着，长捉方判负",
   "perpetual chase against idle moves: the chaser loses"},
  {XQ_REASON_AXF_CHECK_OVER_CHASE, "axf_check_over_chase", "长将对长捉，长将方判负",
   "perpetual check against perpetual chase: the checker loses"},
  {XQ_REASON_AXF_EQUAL, "axf_equal", "双方违例相同，判和",
   "both sides break the same rule: a draw"},
  {XQ_REASON_EARLY_CYCLE, "early_cycle", "规定回合前形成不变作和的循环，指定方须变着",
   "a drawn cycle before the set move: the named side must change"},
  {XQ_REASON_CHANGE_ORDER_IGNORED, "change_order_ignored", "被判变着而不变，判负",
   "did not change after being ordered to: loses"},
  {XQ_REASON_SEARCH_BUDGET, "search_budget", "计算超出限度，须由裁判裁决",
   "the search budget ran out: an arbiter must decide"},
  {XQ_REASON_CLAIM_REFUSED, "claim_refused", "提议不予受理", "the claim is not entertained"},
  {XQ_REASON_DRAW_OFFER, "draw_offer", "提和", "a draw offer"},
  {XQ_REASON_GAME_OVER, "game_over", "对局已结束", "the game is over"},
  {XQ_REASON_AWAITING_ARBITER, "awaiting_arbiter", "等待裁判裁决", "play waits for the arbiter"},
};

static const reason_row *row(xq_reason r)
{
  for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
    if (reasons[i].code == r) return &reasons[i];
  return NULL;
}

const char *xq_reason_name(xq_reason reason)
{
  const reason_row *r = row(reason);
  return r ? r->name : "unknown";
}

const char *xq_reason_text(xq_reason reason, const char *lang)
{
  const reason_row *r = row(reason);
  int zh = lang && !strcmp(lang, "zh");
  if (!r) return zh ? "未知原因" : "unknown reason";
  return zh ? r->zh : r->en;
}

const char *xq_outcome_name(xq_outcome outcome)
{
  switch (outcome) {
  case XQ_OUT_NONE: return "ongoing";
  case XQ_OUT_RED_WINS: return "red_wins";
  case XQ_OUT_BLACK_WINS: return "black_wins";
  case XQ_OUT_DRAW: return "draw";
  case XQ_OUT_MUST_CHANGE: return "must_change";
  case XQ_OUT_NEEDS_ARBITER: return "needs_arbiter";
  }
  return "unknown";
}

const char *xq_outcome_text(xq_outcome outcome, const char *lang)
{
  int zh = lang && !strcmp(lang, "zh");
  switch (outcome) {
  case XQ_OUT_NONE: return zh ? "对局进行中" : "play goes on";
  case XQ_OUT_RED_WINS: return zh ? "红胜" : "Red wins";
  case XQ_OUT_BLACK_WINS: return zh ? "黑胜" : "Black wins";
  case XQ_OUT_DRAW: return zh ? "和棋" : "a draw";
  case XQ_OUT_MUST_CHANGE: return zh ? "须变着" : "a side must change";
  case XQ_OUT_NEEDS_ARBITER: return zh ? "待裁判裁决" : "the arbiter rules";
  }
  return zh ? "未知结果" : "unknown result";
}

const char *xq_verdict_kind_name(xq_verdict_kind kind)
{
  static const char *const names[] = {"accepted", "foul", "loss", "mate", "stalemate",
                                      "draw", "must_change", "refused", "needs_arbiter"};
  return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}
