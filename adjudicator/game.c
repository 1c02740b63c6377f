/*
 * game.c -- the per-game state machine: moves through the pipeline of
 * docs/adjudicator.md, "The game state machine" (legality and fouls, mate and stalemate, captures, simple
 * draws, the natural limit, repetition rulings and 变着 orders), and the
 * events that are not moves (claims, offers, resignation, overrides, and
 * the arbiter's pause and restart of play).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_internal.h"

/* ------------------------------------------------------------------ */
/* Simple draws (P14)                                                   */
/* ------------------------------------------------------------------ */

static int no_attackers(const xq_pos *p)
{
  for (int c = 0; c < 2; c++)
    if (p->kind[c][XQ_ROOK] | p->kind[c][XQ_HORSE] | p->kind[c][XQ_CANNON] | p->kind[c][XQ_PAWN])
      return 0;
  return 1;
}

int xq_game_init(xq_game *g, const xq_rules *rules, const char *fen, xq_error *err)
{
  if (!g || !rules) return XQ_EINVAL;
  memset(g, 0, sizeof *g);
  if (fen) {
    int rc = xq_fen_parse(&g->start, fen, 0, err);
    if (rc) return rc;
  } else {
    xq_pos_startpos(&g->start);
  }
  g->rules = *rules;
  g->pos = g->start;
  g->window_pos = g->start;
  g->start_halfmove = g->start.halfmove;
  g->result = XQ_OUT_NONE;
  g->result_reason = XQ_REASON_NONE;
  g->draw_offer_pending = -1;
  g->touched_sq = -1;
  g->held = XQ_MOVE_NONE;
  g->keys[0] = g->start.key;
  g->key_filter[g->start.key & 255] = 1;
  xq__clock_init(g);
  /* P14: a start position nobody can win is drawn. */
  if (rules->simple_draw != XQ_SIMPLE_DRAW_OFF && no_attackers(&g->pos)) {
    g->result = rules->armageddon ? XQ_OUT_BLACK_WINS : XQ_OUT_DRAW;
    g->result_reason = rules->armageddon ? XQ_REASON_ARMAGEDDON_DRAW : XQ_REASON_SIMPLE_DRAW;
  }
  /* R3: a start position without a legal move is already decided. */
  if (xq_count_legal(&g->pos) == 0) {
    g->result = g->pos.side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS;
    g->result_reason = xq_in_check(&g->pos, g->pos.side) ? XQ_REASON_CHECKMATE
                                                         : XQ_REASON_STALEMATE;
  }
  return XQ_OK;
}

int xq__game_window_plies(const xq_game *g)
{
  return g->nply - g->window_start + (g->window_start == 0 ? g->start_halfmove : 0);
}

/* ------------------------------------------------------------------ */
/* Illegal moves and suicide (R1, R2, R12)                              */
/* ------------------------------------------------------------------ */

static void illegal(xq_game *g, xq_verdict *v, int side, const char *why_zh, const char *why_en)
{
  char zh[160], en[160];
  snprintf(zh, sizeof zh, "违反行棋规定（%s）", why_zh);
  snprintf(en, sizeof en, "a move against the rules of movement (%s)", why_en);
  /* P9: LOSS at once, or FOUL_THEN_LOSS (the first a foul, taken back;
   * the second a loss). */
  g->illegal[side]++;
  if (g->rules.illegal_policy == XQ_ILLEGAL_LOSS || g->illegal[side] >= 2) {
    xq__verdict_end(g, v, XQ_VERDICT_LOSS, side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                    XQ_REASON_ILLEGAL_MOVE, side, "P9");
    snprintf(v->zh, sizeof v->zh, "%s%s%s，判负", xq__side_zh[side],
             g->rules.illegal_policy == XQ_ILLEGAL_LOSS ? "" : "第二次", zh);
    snprintf(v->en, sizeof v->en, "%s: %s%s, which loses", xq__side_en[side],
             g->rules.illegal_policy == XQ_ILLEGAL_LOSS ? "" : "second time: ", en);
    return;
  }
  strncat(en, "; the move is taken back", sizeof en - strlen(en) - 1);
  strncat(zh, "，退回重走", sizeof zh - strlen(zh) - 1);
  xq__verdict_foul(g, v, side, 1, XQ_REASON_ILLEGAL_MOVE, "P9", zh, en);
  if (v->kind != XQ_VERDICT_FOUL) return;
  /* the next one loses whatever the foul limit: the count says so, not
   * "foul 1 of 3" */
  snprintf(v->en, sizeof v->en, "%s: %s; foul %d, and a second move against the rules loses", xq__side_en[side], en,
           g->fouls[side]);
  snprintf(v->zh, sizeof v->zh, "%s%s，记犯规一次（共%d次），再次违反行棋规定即判负", xq__side_zh[side], zh,
           g->fouls[side]);
}

static void suicide(xq_game *g, xq_verdict *v, int side, unsigned flags)
{
  /* P10: released (离手) → loss; still in hand → one foul, retract. */
  if (!(flags & XQ_MV_HELD) && g->rules.suicide_released_loses) {
    xq__verdict_end(g, v, XQ_VERDICT_LOSS, side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                    XQ_REASON_SUICIDE, side, "P10");
    snprintf(v->zh, sizeof v->zh, "%s走棋形成自杀（已离手），判负", xq__side_zh[side]);
    snprintf(v->en, sizeof v->en,
             "%s: suicide (the move leaves its own general capturable), released: loses",
             xq__side_en[side]);
    return;
  }
  if (!(flags & XQ_MV_HELD)) {
    xq__verdict_foul(g, v, side, 1, XQ_REASON_SUICIDE, "P10", "走棋形成自杀，退回重走", "suicide; the move is taken back");
    return;
  }
  /* P10 in hand: suicide_held_fouls (Shaanxi 补充规定 七.3: 未离手判犯规一次) */
  int n = g->rules.suicide_held_fouls;
  if (n > 0) {
    xq__verdict_foul(g, v, side, n, XQ_REASON_SUICIDE, "suicide_held_fouls", "走棋形成自杀（未离手），退回重走",
                     "suicide while the piece is still in hand; the move is taken back");
    if (n > 1 && v->kind == XQ_VERDICT_FOUL)
      snprintf(v->zh, sizeof v->zh, "%s走棋形成自杀（未离手），退回重走，记犯规%d次（共%d次）",
               xq__side_zh[side], n, g->fouls[side]);
    return;
  }
  v->kind = XQ_VERDICT_REFUSED;
  v->reason = XQ_REASON_SUICIDE;
  v->side = side;
  snprintf(v->rule, sizeof v->rule, "suicide_held_fouls");
  snprintf(v->zh, sizeof v->zh, "%s走棋形成自杀（未离手），退回重走，不计犯规", xq__side_zh[side]);
  snprintf(v->en, sizeof v->en, "%s: suicide while the piece is still in hand; taken back, no foul",
           xq__side_en[side]);
}

static const char *const kind_en[8] = {"", "general", "advisor", "elephant", "horse",
                                       "rook", "cannon", "pawn"};

/* Why the move from `from` to `to` breaks the rules of movement. */
static void why_illegal(const xq_pos *pos, int from, int to, char *zh, size_t zl, char *en,
                        size_t el)
{
  xq_color c;
  char f[3], t[3];
  xq__verdict_sq_name(from, f);
  xq__verdict_sq_name(to, t);
  xq_kind k = xq_piece_at(pos, from, &c);
  /* the Chinese sentence names squares and pieces the Chinese way */
  char pz[XQ__SQ_ZH_MAX], sz[XQ__SQ_ZH_MAX];
  if (k == XQ_NONE) {
    xq__verdict_sq_zh(from, pos->side, sz);
    snprintf(zh, zl, "%s（%s方）无子", sz, xq__side_zh[pos->side]);
    snprintf(en, el, "no piece on %s", f);
  } else if ((int)c != pos->side) {
    xq__verdict_piece_zh(from, (int)c, k, pz);
    snprintf(zh, zl, "未轮到%s走棋，却走了%s", xq__side_zh[c], pz);
    snprintf(en, el, "%s moved out of turn, the %s on %s", xq__side_en[c], kind_en[k], f);
  } else {
    xq__verdict_piece_zh(from, (int)c, k, pz);
    xq__verdict_sq_zh(to, (int)c, sz);
    snprintf(zh, zl, "%s不能走到%s", pz, sz);
    snprintf(en, el, "the %s on %s cannot move to %s", kind_en[k], f, t);
  }
}

/* ------------------------------------------------------------------ */
/* Repetition (R5-R8) and 变着 orders                                   */
/* ------------------------------------------------------------------ */

/* Restart repetition counting at the current position (a capture, or a
 * lapsed order: R5). */
static void restart_count(xq_game *g)
{
  g->count_from = g->nply;
  memset(g->key_filter, 0, sizeof g->key_filter);
  g->key_filter[g->keys[g->nply] & 255] = 1;
}

/* Occurrences of the current position since count_from. */
static int occurrences(const xq_game *g, int *first, int *prev)
{
  uint64_t key = g->keys[g->nply];
  int n = 0;
  *first = *prev = -1;
  for (int i = g->count_from; i <= g->nply; i++)
    if (g->keys[i] == key) {
      if (*first < 0) *first = i;
      if (i < g->nply) *prev = i;
      n++;
    }
  return n;
}

/* The position at index `idx` of the window (window_start <= idx <= nply). */
static void position_at(const xq_game *g, int idx, xq_pos *out)
{
  xq_undo u;
  *out = g->window_pos;
  for (int i = g->window_start; i < idx; i++) xq_make(out, g->hist[i].move, &u);
}

/* Rule the cycle from position index `first` to now. */
static int rule_window(const xq_game *g, int first, xq_cycle_ruling *r)
{
  xq_pos start;
  xq_move moves[XQ_CYCLE_MAX];
  int n = g->nply - first;
  position_at(g, first, &start);
  for (int i = 0; i < n; i++) moves[i] = g->hist[first + i].move;
  return xq_rule_cycle(&start, moves, n, &g->rules, r);
}

static void copy_cycle(const xq_game *g, int first, const xq_cycle_ruling *r, xq_verdict *v)
{
  v->nmoves = g->nply - first;
  v->first_side = g->hist[first].mover;
  for (int i = 0; i < v->nmoves; i++) v->moves[i] = g->hist[first + i].move;
  if (r && r->n == v->nmoves) {
    v->has_cls = 1;
    for (int i = 0; i < r->n; i++) v->cls[i] = (uint8_t)r->cls[i].cls;
  }
}

/* Apply cycle ruling *r made over the window from index `first`. */
static void apply_ruling(xq_game *g, int first, int occ, const xq_cycle_ruling *r, xq_verdict *v)
{
  copy_cycle(g, first, r, v);
  const char *rzh = xq_reason_text(r->reason, "zh"), *ren = xq_reason_text(r->reason, "en");
  switch (r->outcome) {
  case XQ_OUT_RED_WINS:
  case XQ_OUT_BLACK_WINS: {
    int loser = r->outcome == XQ_OUT_RED_WINS ? XQ_BLACK : XQ_RED;
    xq__verdict_end(g, v, XQ_VERDICT_LOSS, r->outcome, r->reason, loser, "R8");
    /* "单方长将，判负" names the ruling: the loser is said once, "判红方负" */
    size_t rl = strlen(rzh), tl = strlen("，判负");
    int says_loss = rl > tl && !strcmp(rzh + rl - tl, "，判负");
    snprintf(v->zh, sizeof v->zh, "待判局面（第%d次重复）：%.*s，判%s负", occ, (int)(says_loss ? rl - tl : rl), rzh,
             xq__side_zh[loser]);
    snprintf(v->en, sizeof v->en, "position repeated %d times: %s; %s loses", occ, ren,
             xq__side_en[loser]);
    return;
  }
  case XQ_OUT_DRAW:
    xq__verdict_end(g, v, XQ_VERDICT_DRAW, XQ_OUT_DRAW, r->reason, -1, "R8");
    snprintf(v->zh, sizeof v->zh, "待判局面（第%d次重复）：%s%s", occ, rzh,
             v->result == XQ_OUT_DRAW ? "" : "；和棋黑胜");
    snprintf(v->en, sizeof v->en, "position repeated %d times: %s%s", occ, ren,
             v->result == XQ_OUT_DRAW ? "" : "; armageddon: Black wins");
    return;
  case XQ_OUT_MUST_CHANGE: {
    int s = r->side, early = r->reason == XQ_REASON_EARLY_CYCLE;
    int cycles = g->rules.cycles_after_change_order;
    int comply = early ? g->rules.early_cycle_comply_moves : g->rules.change_order_comply_moves;
    if (!early && cycles == 0 && comply == 0) {
      /* P4 = 0: no second chance (AXF and the engines' practice). */
      xq__verdict_end(g, v, XQ_VERDICT_LOSS, s == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                      r->reason, s, "P4");
      snprintf(v->zh, sizeof v->zh, "待判局面（第%d次重复）：%s；%s判负", occ, rzh, xq__side_zh[s]);
      snprintf(v->en, sizeof v->en, "position repeated %d times: %s; %s loses at once (P4 = 0)",
               occ, ren, xq__side_en[s]);
      return;
    }
    xq_change_order *o = &g->order;
    o->active = 1;
    o->side = s;
    o->early = early;
    o->key = g->keys[g->nply];
    o->occ = occ;
    o->comply = comply;
    o->moves_made = 0;
    o->nkeys = 0;
    for (int i = first; i <= g->nply && o->nkeys < XQ_CYCLE_MAX; i++) {
      int seen = 0;
      for (int j = 0; j < o->nkeys; j++) seen |= o->keys[j] == g->keys[i];
      if (!seen) o->keys[o->nkeys++] = g->keys[i];
    }
    v->kind = XQ_VERDICT_MUST_CHANGE;
    v->reason = r->reason;
    v->side = s;
    v->changed = 1;
    snprintf(v->rule, sizeof v->rule, "%s", early ? "P12" : "R8");
    if (comply > 0) {
      snprintf(v->zh, sizeof v->zh, "待判局面（第%d次重复）：%s；%s须在%d着内变着，否则判负", occ,
               rzh, xq__side_zh[s], comply);
      snprintf(v->en, sizeof v->en,
               "position repeated %d times: %s; %s must change within %d moves or lose", occ,
               ren, xq__side_en[s], comply);
    } else {
      snprintf(v->zh, sizeof v->zh, "待判局面（第%d次重复）：%s；%s必须变着，再循环判负", occ, rzh,
               xq__side_zh[s]);
      snprintf(v->en, sizeof v->en,
               "position repeated %d times: %s; %s must change, and loses if the cycle repeats",
               occ, ren, xq__side_en[s]);
    }
    return;
  }
  default:
    xq__verdict_pause(g, v, r->reason, "R8");
    snprintf(v->zh, sizeof v->zh, "待判局面（第%d次重复）：%s，须由裁判裁决", occ, rzh);
    snprintf(v->en, sizeof v->en, "position repeated %d times: %s; an arbiter must decide", occ,
             ren);
    return;
  }
}

/* Rule the current position, which has occurred `occ` times, the first
 * at index `first` and the previous at `prev`. */
static void rule_now(xq_game *g, int occ, int first, int prev, xq_verdict *v)
{
  xq_cycle_ruling r;
  /* R5: classify from the first occurrence; if that window is too long,
   * the last cycle alone. */
  if (g->nply - first > XQ_CYCLE_MAX) first = prev;
  if (first < 0 || g->nply - first > XQ_CYCLE_MAX || g->nply == first) {
    xq__verdict_pause(g, v, XQ_REASON_SEARCH_BUDGET, "R5");
    xq__verdict_explain(v, "待判局面的循环超过%d着，须由裁判裁决",
                        "the repeated cycle is longer than %d plies: an arbiter must decide",
                        XQ_CYCLE_MAX);
    return;
  }
  if (rule_window(g, first, &r) != XQ_OK) {
    xq__verdict_pause(g, v, XQ_REASON_SEARCH_BUDGET, "R5");
    xq__verdict_explain(v, "循环无法裁定，须由裁判裁决", "the cycle cannot be ruled: an arbiter must decide");
    return;
  }
  apply_ruling(g, first, occ, &r, v);
}

/* Follow a 变着 order in force after a move by `mover` (R5, P4, P12). */
static void follow_order(xq_game *g, int mover, xq_verdict *v)
{
  xq_change_order *o = &g->order;
  uint64_t key = g->keys[g->nply];
  int in_cycle = 0;
  for (int i = 0; i < o->nkeys; i++) in_cycle |= o->keys[i] == key;
  if (!in_cycle) {
    /* R5: the cycle was left; the order lapses and a new cycle counts
     * its own occurrences. */
    o->active = 0;
    restart_count(g);
    return;
  }
  const char *rule = o->early ? "P12" : "P4";
  int s = o->side;
  if (mover == s) o->moves_made++;
  if (o->comply > 0) {
    /* Wujiaqu 补充规定 7: 裁决后2个回合内必须变着，否则判负. */
    if (mover == s && o->moves_made >= o->comply) {
      xq__verdict_end(g, v, XQ_VERDICT_LOSS, s == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                      XQ_REASON_CHANGE_ORDER_IGNORED, s, o->early ? "P12" : "change_order");
      snprintf(v->zh, sizeof v->zh, "%s被判变着后%d着内未变着，判负", xq__side_zh[s], o->comply);
      snprintf(v->en, sizeof v->en, "%s did not leave the cycle within %d moves of the order: loses",
               xq__side_en[s], o->comply);
    }
    return;
  }
  int first, prev, occ = occurrences(g, &first, &prev);
  int cycles = g->rules.cycles_after_change_order;
  if (cycles < 1) cycles = 1; /* an early-cycle order always gets its chance */
  if (key != o->key || occ < o->occ + cycles || prev < 0) return;
  /* The cycle came round again: re-rule over the last cycle (R5). */
  xq_cycle_ruling r;
  if (g->nply - prev > XQ_CYCLE_MAX || rule_window(g, prev, &r) != XQ_OK) {
    xq__verdict_pause(g, v, XQ_REASON_SEARCH_BUDGET, rule);
    xq__verdict_explain(v, "循环无法裁定，须由裁判裁决", "the cycle cannot be ruled: an arbiter must decide");
    return;
  }
  int lost = (r.outcome == XQ_OUT_MUST_CHANGE && r.side == s) ||
             (r.outcome == (s == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS));
  if (lost) {
    copy_cycle(g, prev, &r, v);
    o->active = 0;
    xq__verdict_end(g, v, XQ_VERDICT_LOSS, s == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                    XQ_REASON_CHANGE_ORDER_IGNORED, s, rule);
    snprintf(v->zh, sizeof v->zh, "%s被判变着后仍重复循环（第%d次重复），判负", xq__side_zh[s], occ);
    snprintf(v->en, sizeof v->en,
             "%s repeated the cycle after the order to change (occurrence %d): loses",
             xq__side_en[s], occ);
    return;
  }
  o->active = 0;
  apply_ruling(g, prev, occ, &r, v);
}

/* ------------------------------------------------------------------ */
/* The move pipeline                                                    */
/* ------------------------------------------------------------------ */

/* "红方走炮二平五" / "Red plays h2e2": the Chinese sentence names the move
 * in Chinese notation, the English one in ICCS; without printf, as this
 * runs on every move (bench --judge). */
static void say_move(xq_verdict *v, int mover, const char *zh_name, const char name[5])
{
  static const char zh_play[] = "走", en_play[] = " plays ";
  size_t a = strlen(xq__side_zh[mover]), b = strlen(xq__side_en[mover]), c = strlen(zh_name);
  memcpy(v->zh, xq__side_zh[mover], a);
  memcpy(v->zh + a, zh_play, sizeof zh_play - 1);
  memcpy(v->zh + a + sizeof zh_play - 1, zh_name, c + 1);
  memcpy(v->en, xq__side_en[mover], b);
  memcpy(v->en + b, en_play, sizeof en_play - 1);
  memcpy(v->en + b + sizeof en_play - 1, name, 5);
}

/* Complete legal move `m`: apply it and rule on the result. */
static int complete(xq_game *g, xq_move m, unsigned flags, xq_verdict *v)
{
  int mover = g->pos.side;
  xq_undo u;
  int capture = g->pos.board[XQ_TO(m)] != XQ_NO_PID;
  char name[5], zh[XQ_MOVE_TEXT_MAX];
  xq__verdict_move_name(m, name);
  xq__verdict_move_zh(&g->pos, m, zh);

  xq_make(&g->pos, m, &u);
  xq_game_ply *h = &g->hist[g->nply];
  h->move = m;
  h->mover = (uint8_t)mover;
  h->capture = (uint8_t)capture;
  h->check = (uint8_t)xq_in_check(&g->pos, g->pos.side);
  g->nply++;
  g->keys[g->nply] = g->pos.key;
  int fresh = g->key_filter[g->pos.key & 255]++ == 0; /* surely a first occurrence */
  g->touched_sq = -1;
  g->held = XQ_MOVE_NONE;
  xq__clock_after_move(g, mover);
  if (g->draw_offer_pending == !mover) g->draw_offer_pending = -1; /* a move declines */
  v->changed = 1;
  v->side = mover;
  say_move(v, mover, zh, name);

  /* A move made after the mover's flag fell loses on time (超时判负),
   * unless flag_fall_mate_stands and it mates or stalemates (Xinjiang
   * 补充规定 十: 除出现将死、困毙外…按“超时”判负). */
  int no_reply = xq_count_legal(&g->pos) == 0;
  if ((flags & XQ_MV_FLAG_FELL) && !(no_reply && g->rules.flag_fall_mate_stands)) {
    xq__verdict_end(g, v, XQ_VERDICT_LOSS, mover == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                    XQ_REASON_FLAG_FALL, mover, "clock");
    snprintf(v->zh, sizeof v->zh, "%s走%s时已超时，判负", xq__side_zh[mover], zh);
    snprintf(v->en, sizeof v->en, "%s plays %s after its flag fell: loses on time", xq__side_en[mover], name);
    if (no_reply) return XQ_OK;
    snprintf(v->zh, sizeof v->zh, "%s走%s时超时，未将死或困毙对方，判负", xq__side_zh[mover], zh);
    snprintf(v->en, sizeof v->en, "%s plays %s after its flag fell, without mate or stalemate: loses",
             xq__side_en[mover], name);
    return XQ_OK;
  }
  /* R3: no legal move for the side to move is a loss, in check or not;
   * it stands over the natural limit (R9). */
  if (no_reply) {
    int loser = g->pos.side, mate = xq_in_check(&g->pos, loser);
    xq__verdict_end(g, v, mate ? XQ_VERDICT_MATE : XQ_VERDICT_STALEMATE,
                    loser == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                    mate ? XQ_REASON_CHECKMATE : XQ_REASON_STALEMATE, loser, "R3");
    snprintf(v->zh, sizeof v->zh, "%s走%s，%s，%s负", xq__side_zh[mover], zh,
             mate ? "将死" : "困毙", xq__side_zh[loser]);
    snprintf(v->en, sizeof v->en, "%s plays %s: %s, %s loses", xq__side_en[mover], name,
             mate ? "checkmate" : "stalemate (no legal move)", xq__side_en[loser]);
    return XQ_OK;
  }
  if (capture) {
    /* R5/R9: a capture makes earlier positions unreachable and restarts
     * the natural-limit count; any 变着 order lapses with its cycle. */
    g->window_start = g->nply;
    g->window_pos = g->pos;
    restart_count(g);
    g->order.active = 0;
    fresh = 1;
    if (g->rules.simple_draw != XQ_SIMPLE_DRAW_OFF && no_attackers(&g->pos)) {
      /* P14 MINIMAL (4.2.1): no 车马炮兵 on either side, nobody can win. */
      xq__verdict_end(g, v, XQ_VERDICT_DRAW, XQ_OUT_DRAW, XQ_REASON_SIMPLE_DRAW, -1, "P14");
      snprintf(v->zh, sizeof v->zh, "%s走%s后双方均无车马炮兵，判和%s", xq__side_zh[mover], zh,
               v->result == XQ_OUT_DRAW ? "" : "（和棋黑胜）");
      snprintf(v->en, sizeof v->en, "%s plays %s: no rook, horse, cannon or pawn is left, a draw%s",
               xq__side_en[mover], name, v->result == XQ_OUT_DRAW ? "" : " (armageddon: Black wins)");
      return XQ_OK;
    }
  }
  if (xq__natural_auto_reached(g)) {
    xq__verdict_end(g, v, XQ_VERDICT_DRAW, XQ_OUT_DRAW, XQ_REASON_NATURAL_LIMIT, -1, "R9");
    snprintf(v->zh, sizeof v->zh, "%s走%s后已满%d回合无吃子（自然限着），判和%s", xq__side_zh[mover],
             zh, g->rules.natural_limit_moves, v->result == XQ_OUT_DRAW ? "" : "（和棋黑胜）");
    snprintf(v->en, sizeof v->en, "%s plays %s: %d moves without a capture (natural limit), a draw%s",
             xq__side_en[mover], name, g->rules.natural_limit_moves,
             v->result == XQ_OUT_DRAW ? "" : " (armageddon: Black wins)");
    return XQ_OK;
  }
  if (g->order.active) {
    follow_order(g, mover, v);
    if (g->order.active || v->kind != XQ_VERDICT_ACCEPTED) return XQ_OK;
    fresh = 0;
  }
  if (fresh) return XQ_OK;
  int first, prev, occ = occurrences(g, &first, &prev);
  if (occ == g->rules.repetition_occurrences) rule_now(g, occ, first, prev, v);
  return XQ_OK;
}

int xq__game_play(xq_game *g, xq_move m, unsigned flags, xq_verdict *v)
{
  int from = XQ_FROM(m), to = XQ_TO(m);
  v->nmoves = 1;
  v->moves[0] = m;
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  if (g->nply >= XQ_GAME_PLIES_MAX) return XQ_ELIMIT;
  g->held = XQ_MOVE_NONE; /* a new move replaces one still in hand */
  int side = g->pos.side, pid = g->pos.board[from];
  /* An illegal move is charged to the owner of the piece moved (moving
   * twice), or to the side to move for an empty square. */
  int mover = pid == XQ_NO_PID ? side : XQ_PID_COLOR(pid);
  v->first_side = mover;
  if (!xq_is_legal(&g->pos, m)) {
    if (xq_is_pseudo_legal(&g->pos, m)) {
      suicide(g, v, side, flags);
    } else {
      char zh[96], en[96];
      why_illegal(&g->pos, from, to, zh, sizeof zh, en, sizeof en);
      illegal(g, v, mover, zh, en);
    }
    /* R12: the move is taken back and touch-move applies to the piece
     * that was moved. */
    if (g->touched_sq < 0 && pid != XQ_NO_PID && XQ_PID_COLOR(pid) == side) g->touched_sq = from;
    return XQ_OK;
  }
  /* Touch-move (摸子走子, 1999 5.1): an own piece lifted must be moved
   * if it has a legal move. */
  if (g->touched_sq >= 0 && g->touched_sq != from) {
    xq_movelist l;
    xq_gen_legal(&g->pos, &l);
    for (int i = 0; i < l.n; i++)
      if (XQ_FROM(l.m[i]) == g->touched_sq) {
        char t[3], pz[XQ__SQ_ZH_MAX];
        char zh[96], en[96];
        xq_color c;
        xq__verdict_sq_name(g->touched_sq, t);
        xq__verdict_piece_zh(g->touched_sq, side, xq_piece_at(&g->pos, g->touched_sq, &c), pz);
        snprintf(zh, sizeof zh, "摸子走子：摸了%s必须走该子", pz);
        snprintf(en, sizeof en, "touch-move: the piece lifted from %s must be moved", t);
        illegal(g, v, side, zh, en);
        return XQ_OK;
      }
  }
  if (flags & XQ_MV_HELD) {
    char name[5], zh[XQ_MOVE_TEXT_MAX];
    xq__verdict_move_name(m, name);
    xq__verdict_move_zh(&g->pos, m, zh);
    g->held = m;
    g->touched_sq = from;
    v->changed = 1;
    v->side = side;
    snprintf(v->zh, sizeof v->zh, "%s走%s，尚未离手", xq__side_zh[side], zh);
    snprintf(v->en, sizeof v->en, "%s moves %s, the piece still in hand", xq__side_en[side], name);
    return XQ_OK;
  }
  return complete(g, m, flags, v);
}

int xq_game_move(xq_game *g, xq_move m, unsigned flags, xq_verdict *v)
{
  if (!g || !v || (m >> 14) || XQ_FROM(m) >= XQ_SQUARES || XQ_TO(m) >= XQ_SQUARES ||
      XQ_FROM(m) == XQ_TO(m))
    return XQ_EINVAL;
  xq__verdict_begin(g, v, "move");
  return xq__game_play(g, m, flags, v);
}

/* Squares of ICCS text ("h2e2", "H2-E2"), legal or not. */
static int iccs_squares(const char *t, xq_move *m)
{
  char c[4];
  int n = 0;
  while (isspace((unsigned char)*t)) t++;
  for (; *t && n < 4; t++) {
    if (*t == '-' && n == 2) continue;
    c[n++] = (char)tolower((unsigned char)*t);
  }
  while (isspace((unsigned char)*t)) t++;
  if (n != 4 || *t) return 0;
  if (c[0] < 'a' || c[0] > 'i' || c[2] < 'a' || c[2] > 'i') return 0;
  if (c[1] < '0' || c[1] > '9' || c[3] < '0' || c[3] > '9') return 0;
  int from = XQ_SQ(c[0] - 'a', c[1] - '0'), to = XQ_SQ(c[2] - 'a', c[3] - '0');
  if (from == to) return 0;
  *m = XQ_MOVE(from, to);
  return 1;
}

int xq__game_read_ahead(xq_game *g, const char *text, xq_move *m)
{
  int rc = xq_move_parse_any(&g->pos, text, m, NULL);
  size_t n = strlen(text);
  if (rc == XQ_OK && n < sizeof g->read_ahead.text) {
    g->read_ahead.key = g->pos.key;
    g->read_ahead.m = *m;
    memcpy(g->read_ahead.text, text, n + 1);
  }
  return rc;
}

/* The move `text` reads as on the current position: the one read ahead
 * on this position (the key names the placement and the side to move,
 * all the reading depends on), else read now. */
static int read_move(const xq_game *g, const char *text, xq_move *m, xq_error *err)
{
  const xq_read_ahead *r = &g->read_ahead;
  if (r->m != XQ_MOVE_NONE && r->key == g->pos.key && !strcmp(r->text, text)) {
    *m = r->m;
    return XQ_OK;
  }
  return xq_move_parse_any(&g->pos, text, m, err);
}

int xq_game_move_text(xq_game *g, const char *text, unsigned flags, xq_verdict *v,
                      xq_error *err)
{
  if (!g || !text || !v) return XQ_EINVAL;
  xq_verdict tmp;
  xq__verdict_begin(g, &tmp, "move");
  if (xq__verdict_refuse_if_over(g, &tmp)) {
    *v = tmp;
    return XQ_OK;
  }
  xq_move m;
  int rc = read_move(g, text, &m, err);
  if (rc == XQ_OK || (rc == XQ_EILLEGAL && iccs_squares(text, &m)))
    return xq_game_move(g, m, flags, v);
  if (rc != XQ_EILLEGAL) return rc;
  /* A move in WXF or Chinese that fits no legal move: a breach of the
   * rules of movement whose squares we cannot name. */
  if (g->nply >= XQ_GAME_PLIES_MAX) return XQ_ELIMIT;
  char zh[96], en[96];
  snprintf(zh, sizeof zh, "“%.40s”不是合法着法", text);
  snprintf(en, sizeof en, "\"%.40s\" is not a legal move", text);
  illegal(g, &tmp, g->pos.side, zh, en);
  *v = tmp;
  return XQ_OK;
}

int xq_game_lift(xq_game *g, int sq, xq_verdict *v)
{
  if (!g || !v || sq < 0 || sq >= XQ_SQUARES) return XQ_EINVAL;
  xq__verdict_begin(g, v, "lift");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  int pid = g->pos.board[sq];
  char t[3], pz[XQ__SQ_ZH_MAX];
  xq__verdict_sq_name(sq, t);
  xq_color c = (xq_color)g->pos.side;
  xq_kind k = xq_piece_at(&g->pos, sq, &c);
  if (k != XQ_NONE) xq__verdict_piece_zh(sq, (int)c, k, pz);
  else xq__verdict_sq_zh(sq, g->pos.side, pz);
  if (pid != XQ_NO_PID && XQ_PID_COLOR(pid) == g->pos.side && g->touched_sq < 0) {
    g->touched_sq = sq;
    v->changed = 1;
    v->side = g->pos.side;
    snprintf(v->zh, sizeof v->zh, "%s摸了%s，须走该子", xq__side_zh[g->pos.side], pz);
    snprintf(v->en, sizeof v->en, "%s lifts the piece on %s, which must now move",
             xq__side_en[g->pos.side], t);
  } else {
    snprintf(v->zh, sizeof v->zh, "%s%s被拿起", k != XQ_NONE ? xq__side_zh[c] : "", pz);
    snprintf(v->en, sizeof v->en, "the piece on %s is lifted", t);
  }
  return XQ_OK;
}

int xq_game_release(xq_game *g, xq_verdict *v)
{
  if (!g || !v) return XQ_EINVAL;
  xq__verdict_begin(g, v, "release");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  if (g->held == XQ_MOVE_NONE) {
    v->kind = XQ_VERDICT_REFUSED;
    xq__verdict_explain(v, "没有未离手的着法", "no move is waiting for release");
    return XQ_OK;
  }
  xq_move m = g->held;
  v->nmoves = 1;
  v->moves[0] = m;
  g->held = XQ_MOVE_NONE;
  return complete(g, m, 0, v);
}

/* ------------------------------------------------------------------ */
/* Claims, offers, resignation, overrides                               */
/* ------------------------------------------------------------------ */

int xq_game_claim_repetition(xq_game *g, int side, xq_verdict *v)
{
  if (!g || !v || (side != XQ_RED && side != XQ_BLACK)) return XQ_EINVAL;
  xq__verdict_begin(g, v, "claim_repetition");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  int first, prev, occ = occurrences(g, &first, &prev);
  if (occ < g->rules.repetition_occurrences) {
    v->kind = XQ_VERDICT_REFUSED;
    v->reason = XQ_REASON_CLAIM_REFUSED;
    v->side = side;
    snprintf(v->rule, sizeof v->rule, "P2");
    /* Both formats take the same arguments: the Chinese skips the English
     * plural with %.0s, so its second %d is the count, not a pointer. */
    xq__verdict_explain(v, "本局面出现%d次%.0s，未满%d次，不构成待判局面",
                        "the position has occurred %d time%s, fewer than %d: no ruling yet", occ,
                        occ == 1 ? "" : "s", g->rules.repetition_occurrences);
    return XQ_OK;
  }
  g->order.active = 0;
  rule_now(g, occ, first, prev, v);
  return XQ_OK;
}

int xq_game_resign(xq_game *g, int side, xq_verdict *v)
{
  if (!g || !v || (side != XQ_RED && side != XQ_BLACK)) return XQ_EINVAL;
  xq__verdict_begin(g, v, "resign");
  if (xq__verdict_refuse_if_over(g, v)) return XQ_OK;
  xq__verdict_end(g, v, XQ_VERDICT_LOSS, side == XQ_RED ? XQ_OUT_BLACK_WINS : XQ_OUT_RED_WINS,
                  XQ_REASON_RESIGNATION, side, "");
  snprintf(v->zh, sizeof v->zh, "%s认负", xq__side_zh[side]);
  snprintf(v->en, sizeof v->en, "%s resigns", xq__side_en[side]);
  return XQ_OK;
}

int xq_game_arbiter_foul(xq_game *g, int side, xq_verdict *v)
{
  if (!g || !v || (side != XQ_RED && side != XQ_BLACK)) return XQ_EINVAL;
  xq__verdict_begin(g, v, "arbiter_foul");
  /* Fouls after the result still count for the tie-break (tourney.md). */
  xq__verdict_foul(g, v, side, 1, XQ_REASON_ARBITER, "P11", "被裁判判犯规",
                   "a foul recorded by the arbiter");
  return XQ_OK;
}

int xq_game_arbiter_result(xq_game *g, xq_outcome result, xq_verdict *v)
{
  if (!g || !v || (result != XQ_OUT_NONE && result != XQ_OUT_RED_WINS &&
                   result != XQ_OUT_BLACK_WINS && result != XQ_OUT_DRAW))
    return XQ_EINVAL;
  xq__verdict_begin(g, v, "arbiter_result");
  if (result == XQ_OUT_NONE) {
    g->result = XQ_OUT_NONE;
    g->result_reason = XQ_REASON_ARBITER;
    v->result = XQ_OUT_NONE;
    v->reason = XQ_REASON_ARBITER;
    v->changed = 1;
    xq__verdict_explain(v, "裁判决定继续对局", "the arbiter resumes play");
    return XQ_OK;
  }
  /* The arbiter's word is final: an armageddon draw is not converted. */
  int arm = g->rules.armageddon;
  g->rules.armageddon = 0;
  int loser = result == XQ_OUT_RED_WINS ? XQ_BLACK : result == XQ_OUT_BLACK_WINS ? XQ_RED : -1;
  xq__verdict_end(g, v, loser < 0 ? XQ_VERDICT_DRAW : XQ_VERDICT_LOSS, result, XQ_REASON_ARBITER,
                  loser, "arbiter");
  g->rules.armageddon = arm;
  if (loser < 0) {
    xq__verdict_explain(v, "裁判判和", "the arbiter rules a draw");
  } else {
    snprintf(v->zh, sizeof v->zh, "裁判判%s负", xq__side_zh[loser]);
    snprintf(v->en, sizeof v->en, "the arbiter rules that %s loses", xq__side_en[loser]);
  }
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* The arbiter's control of play                                        */
/* ------------------------------------------------------------------ */

int xq_game_pause(xq_game *g, int on, xq_verdict *v)
{
  if (!g || !v) return XQ_EINVAL;
  g->paused = on != 0;
  memset(v, 0, sizeof *v);
  v->event = on ? "pause" : "resume";
  v->side = -1;
  v->changed = 1;
  v->ply = g->nply;
  v->result = g->result;
  return XQ_OK;
}

int xq_game_truncate(xq_game *g, int plies, xq_verdict *v, xq_error *err)
{
  if (!g || !v || plies < 0 || plies > g->nply) return XQ_EINVAL;
  xq_move *moves = malloc(sizeof *moves * ((size_t)plies + 1));
  if (!moves) return XQ_ENOMEM;
  for (int i = 0; i < plies; i++) moves[i] = g->hist[i].move;
  char fen[XQ_FEN_MAX];
  xq_fen_format(&g->start, fen, sizeof fen);
  xq_rules ru = g->rules; /* the game's own: a knockout game's differ */
  int paused = g->paused;
  int rc = xq_game_init(g, &ru, fen, err);
  g->paused = paused;
  for (int i = 0; rc == XQ_OK && i < plies; i++) rc = xq_game_move(g, moves[i], 0, v);
  free(moves);
  if (rc == XQ_OK && plies == 0) memset(v, 0, sizeof *v), v->event = "truncate", v->side = -1;
  return rc;
}
