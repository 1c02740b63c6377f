/*
 * simulate_games.c -- the games of `xqref simulate`: two random players and
 * the incidents a regulation has rules for (docs/simulate.md §3).
 *
 * A game is planned when it starts: plain, or with one incident (an
 * illegal move, sometimes a second one; a suicide, released or still in
 * hand; a flag fall; a repeated cycle of idle moves; play without
 * captures up to a natural-limit claim), and the ply where play stops
 * (a resignation or a draw offer). The script then answers each position
 * with the next event in the adjudicator's event language, so the same
 * script drives a digital board over the protocol and a knockout game in
 * this process. What the adjudicator rules is fed back (a change order,
 * a refused offer) and the script reacts as a player would.
 */
#include <stdio.h>
#include <string.h>

#include "simulate_internal.h"


int xq__simulate_games_below(uint64_t *s, int n)
{
  return n <= 1 ? 0 : (int)(xq_random_next(s) % (uint64_t)n);
}

static const char *side_name(int side) { return side == XQ_RED ? "red" : "black"; }

static void iccs(xq_move m, char *out)
{
  int f = XQ_FROM(m), t = XQ_TO(m);
  out[0] = (char)('a' + XQ_FILE(f));
  out[1] = (char)('0' + XQ_RANK(f));
  out[2] = (char)('a' + XQ_FILE(t));
  out[3] = (char)('0' + XQ_RANK(t));
  out[4] = 0;
}

void xq__simulate_games_init(xq__sim_game *g, uint64_t rng, const xq_sim_opts *o, const xq_rules *rules)
{
  memset(g, 0, sizeof *g);
  g->rng = rng;
  int lo = o->min_plies > 0 ? o->min_plies : 40, hi = o->max_plies > lo ? o->max_plies : lo;
  g->end_ply = lo + xq__simulate_games_below(&g->rng, hi - lo + 1);
  g->natural_plies = 2 * (rules->natural_limit_moves > 0 ? rules->natural_limit_moves : 60);
  g->draw_min_ply = rules->draw_offer_min_move > 0 ? rules->draw_offer_min_move : 0;
  long base = rules->clock_base_s > 0 ? rules->clock_base_s * 1000L : 1500000L;
  g->clock[XQ_RED] = base;
  g->clock[XQ_BLACK] = rules->clock_base_black_s > 0 ? rules->clock_base_black_s * 1000L : base;
  g->increment_ms = rules->clock_increment_s * 1000L;
  int roll = xq__simulate_games_below(&g->rng, XQ_SIM_RATE_MAX), acc = 0;
  struct { int rate, plan; } tab[] = {
    {o->rate_illegal, XQ__PLAN_ILLEGAL}, {o->rate_suicide, XQ__PLAN_SUICIDE},
    {o->rate_flag, XQ__PLAN_FLAG}, {o->rate_repetition, XQ__PLAN_REPEAT},
    {o->rate_natural, XQ__PLAN_NATURAL},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    acc += tab[i].rate;
    if (roll < acc) {
      g->plan = tab[i].plan;
      break;
    }
  }
  switch (g->plan) {
  case XQ__PLAN_ILLEGAL:
    g->at = 4 + xq__simulate_games_below(&g->rng, g->end_ply > 8 ? g->end_ply - 4 : 4);
    g->twice = xq__simulate_games_below(&g->rng, 3) == 0; /* a third of them break the rules again */
    break;
  case XQ__PLAN_SUICIDE:
    g->at = 10 + xq__simulate_games_below(&g->rng, g->end_ply > 14 ? g->end_ply - 10 : 4);
    g->twice = xq__simulate_games_below(&g->rng, 2); /* noticed with the piece still in hand */
    break;
  case XQ__PLAN_FLAG:
    g->at = 20 + xq__simulate_games_below(&g->rng, g->end_ply > 24 ? g->end_ply - 20 : 4);
    break;
  case XQ__PLAN_REPEAT:
    /* Most cycles come early, in the opening shuffle (where the early-
     * repetition rules of Xinjiang and Wujiaqu apply: before move 25). */
    g->at = xq__simulate_games_below(&g->rng, 3) ? 4 + xq__simulate_games_below(&g->rng, 24)
                                        : 30 + xq__simulate_games_below(&g->rng, 40);
    break;
  case XQ__PLAN_NATURAL:
    g->at = 6 + xq__simulate_games_below(&g->rng, 20);
    break;
  default:
    break;
  }
}

/* Material of a side, for who resigns: rook 9, horse/cannon 4, others 1. */
static int material(const xq_pos *pos, int side)
{
  static const int val[8] = {0, 0, 1, 1, 4, 9, 4, 1};
  int sum = 0;
  for (int pid = side * 16; pid < side * 16 + 16; pid++)
    if (pos->sq[pid] != XQ_NO_SQ) sum += val[xq_pid_kind(pid)];
  return sum;
}

static int piece_is(const xq_pos *pos, int sq, int side)
{
  int pid = pos->board[sq];
  return pid != XQ_NO_PID && XQ_PID_COLOR(pid) == side;
}

/* A random move that breaks the rules of movement: an own piece to a
 * square it cannot reach. XQ_MOVE_NONE when none was found. */
static xq_move illegal_move(xq__sim_game *g, const xq_pos *pos)
{
  for (int i = 0; i < 400; i++) {
    int from = xq__simulate_games_below(&g->rng, XQ_SQUARES), to = xq__simulate_games_below(&g->rng, XQ_SQUARES);
    if (from == to || !piece_is(pos, from, pos->side) || piece_is(pos, to, pos->side)) continue;
    xq_move m = XQ_MOVE(from, to);
    if (!xq_is_pseudo_legal(pos, m)) return m;
  }
  return XQ_MOVE_NONE;
}

/* A move by the rules of movement that leaves the own general attacked
 * (自杀), or XQ_MOVE_NONE. */
static xq_move suicide_move(xq__sim_game *g, const xq_pos *pos)
{
  xq_move found[64];
  int n = 0;
  for (int from = 0; from < XQ_SQUARES && n < 64; from++) {
    if (!piece_is(pos, from, pos->side)) continue;
    for (int to = 0; to < XQ_SQUARES && n < 64; to++) {
      if (to == from) continue;
      xq_move m = XQ_MOVE(from, to);
      if (xq_is_pseudo_legal(pos, m) && !xq_is_legal(pos, m)) found[n++] = m;
    }
  }
  return n ? found[xq__simulate_games_below(&g->rng, n)] : XQ_MOVE_NONE;
}

/* An idle move of the side to move whose way back is open: no capture,
 * no check, not a pawn. XQ_MOVE_NONE when there is none. */
static xq_move reversible(xq__sim_game *g, const xq_pos *pos)
{
  xq_movelist ml;
  xq_gen_legal(pos, &ml);
  int start = xq__simulate_games_below(&g->rng, ml.n > 0 ? ml.n : 1);
  for (int k = 0; k < ml.n; k++) {
    xq_move m = ml.m[(start + k) % ml.n];
    int pid = pos->board[XQ_FROM(m)];
    if (pos->board[XQ_TO(m)] != XQ_NO_PID || xq_pid_kind(pid) == XQ_PAWN || xq_gives_check(pos, m))
      continue;
    return m; /* the way back is checked when the cycle is built */
  }
  return XQ_MOVE_NONE;
}

/* Build a 4-ply cycle a1 b1 a1' b1' from `pos` that returns to it. */
static int build_cycle(xq__sim_game *g, const xq_pos *pos)
{
  for (int tries = 0; tries < 8; tries++) {
    xq_pos p = *pos;
    xq_undo u;
    xq_move a = reversible(g, &p);
    if (a == XQ_MOVE_NONE) return 0;
    xq_make(&p, a, &u);
    xq_move b = reversible(g, &p);
    if (b == XQ_MOVE_NONE) continue;
    xq_make(&p, b, &u);
    xq_move a2 = XQ_MOVE(XQ_TO(a), XQ_FROM(a)), b2 = XQ_MOVE(XQ_TO(b), XQ_FROM(b));
    if (!xq_is_legal(&p, a2) || xq_gives_check(&p, a2)) continue;
    xq_make(&p, a2, &u);
    if (!xq_is_legal(&p, b2) || xq_gives_check(&p, b2)) continue;
    xq_make(&p, b2, &u);
    if (p.key != pos->key) continue;
    g->rep[0] = a;
    g->rep[1] = b;
    g->rep[2] = a2;
    g->rep[3] = b2;
    return 1;
  }
  return 0;
}

/* A random legal move: captures and checks are preferred at times (so
 * games reach mates), never with `quiet` (natural-limit play). */
static xq_move random_move(xq__sim_game *g, const xq_pos *pos, const xq_movelist *ml, int quiet,
                           const xq_move *avoid, int navoid)
{
  xq_move pick[XQ_MAX_MOVES];
  int n = 0, want = quiet ? 3 : xq__simulate_games_below(&g->rng, 10);
  for (int i = 0; i < ml->n; i++) {
    xq_move m = ml->m[i];
    int skip = 0;
    for (int k = 0; k < navoid; k++) skip |= avoid[k] == m;
    if (skip) continue;
    int cap = pos->board[XQ_TO(m)] != XQ_NO_PID;
    if (quiet ? (!cap && !xq_gives_check(pos, m)) : want < 4 ? cap : want < 5 ? xq_gives_check(pos, m) : 1)
      pick[n++] = m;
  }
  if (n) return pick[xq__simulate_games_below(&g->rng, n)];
  n = 0;
  for (int i = 0; i < ml->n; i++) {
    int skip = 0;
    for (int k = 0; k < navoid; k++) skip |= avoid[k] == ml->m[i];
    if (!skip && !(quiet && pos->board[XQ_TO(ml->m[i])] != XQ_NO_PID)) pick[n++] = ml->m[i];
  }
  if (n) return pick[xq__simulate_games_below(&g->rng, n)];
  return ml->m[xq__simulate_games_below(&g->rng, ml->n)];
}

static void think(xq__sim_game *g, int side)
{
  long t = XQ_SIM_THINK_MIN_MS + xq__simulate_games_below(&g->rng, XQ_SIM_THINK_SPAN_MS);
  if (g->clock[side] - t < XQ_SIM_CLOCK_FLOOR_MS) t = g->clock[side] > XQ_SIM_CLOCK_FLOOR_MS + 1000 ? 1000 : 0;
  g->clock[side] += g->increment_ms - t;
}

static int emit_move(xq__sim_game *g, const xq_pos *pos, xq_move m, const char *prefix, char *tok)
{
  char mv[6];
  iccs(m, mv);
  think(g, pos->side);
  snprintf(tok, XQ_SIM_TOKEN_MAX, "%s%s", prefix, mv);
  return 1;
}

int xq__simulate_games_next(xq__sim_game *g, const xq_pos *pos, int ply, char *tok)
{
  int stm = pos->side;
  if (g->offered) {
    /* CXA 2011: the opponent answers an offer; most accept a late one */
    int side = g->offered - 1;
    g->offered = 0;
    if (xq__simulate_games_below(&g->rng, 10) < 7) {
      snprintf(tok, XQ_SIM_TOKEN_MAX, "accept-%s", side_name(side));
    } else {
      snprintf(tok, XQ_SIM_TOKEN_MAX, "decline-%s", side_name(side));
      g->finishing = 2; /* play a few more moves, then resign */
      g->end_ply = ply + 6 + xq__simulate_games_below(&g->rng, 10);
    }
    return 1;
  }
  xq_movelist ml;
  xq_gen_legal(pos, &ml);
  if (ml.n == 0) return 0;

  if (g->plan == XQ__PLAN_FLAG && ply >= g->at) {
    g->plan = XQ__PLAN_PLAIN;
    g->clock[stm] = 0;  /* the running clock is the side to move's */
    snprintf(tok, XQ_SIM_TOKEN_MAX, "clock:%ld/%ld", g->clock[XQ_RED], g->clock[XQ_BLACK]);
    return 1;
  }
  int natural = g->plan == XQ__PLAN_NATURAL && ply >= g->at;
  if (ply >= g->end_ply && g->finishing != 1 && !natural) {
    g->finishing = g->finishing == 2 ? 3 : 1;
    if (g->finishing == 1 && pos->fullmove >= g->draw_min_ply && xq__simulate_games_below(&g->rng, 3) == 0) {
      /* one offer in four comes while the opponent is thinking: out of
       * the offerer's own time (Xinjiang 补充规定 八 refuses it); taken
       * from the planned length, so the random stream stays as it was */
      int offerer = g->end_ply % 4 == 1 ? !stm : stm;
      g->offered = 1 + !offerer;
      snprintf(tok, XQ_SIM_TOKEN_MAX, "offer-%s", side_name(offerer));
      return 1;
    }
    int mr = material(pos, XQ_RED), mb = material(pos, XQ_BLACK);
    int loser = mr < mb ? XQ_RED : mb < mr ? XQ_BLACK : xq__simulate_games_below(&g->rng, 2);
    g->finishing = 1;
    snprintf(tok, XQ_SIM_TOKEN_MAX, "resign-%s", side_name(loser));
    return 1;
  }
  if (g->plan == XQ__PLAN_ILLEGAL && ply >= g->at && g->step <= g->twice) {
    xq_move m = illegal_move(g, pos);
    if (m != XQ_MOVE_NONE) {
      g->step++;
      g->at = ply + 4 + xq__simulate_games_below(&g->rng, 16);
      char mv[6];
      iccs(m, mv);
      snprintf(tok, XQ_SIM_TOKEN_MAX, "%s", mv);
      return 1;
    }
  }
  if (g->plan == XQ__PLAN_SUICIDE && ply >= g->at && !g->step) {
    xq_move m = suicide_move(g, pos);
    if (m != XQ_MOVE_NONE) {
      g->step = 1;
      return emit_move(g, pos, m, g->twice ? "held:" : "", tok);
    }
    if (++g->stalled > XQ_SIM_INCIDENT_TRIES) g->step = 1;
  }
  if (g->plan == XQ__PLAN_REPEAT && ply >= g->at && g->step < 2) {
    if (!g->step) {
      if (build_cycle(g, pos)) g->step = 1;
      else if (++g->stalled > XQ_SIM_INCIDENT_TRIES) g->step = 2;
    }
    if (g->step == 1) {
      /* the side under a change order leaves the cycle when it complies */
      if (g->ordered == 1 + stm && g->comply) {
        g->step = 2;
        return emit_move(g, pos, random_move(g, pos, &ml, 0, g->rep, 4), "", tok);
      }
      xq_move m = g->rep[g->rep_sent % 4];
      if (g->rep_sent < XQ_SIM_REPEAT_SENDS_MAX && xq_is_legal(pos, m)) {
        g->rep_sent++;
        return emit_move(g, pos, m, "", tok);
      }
      g->step = 2;
    }
  }
  if (natural && pos->halfmove >= g->natural_plies) {
    g->plan = XQ__PLAN_PLAIN;
    if (g->end_ply <= ply) g->end_ply = ply + 4;
    snprintf(tok, XQ_SIM_TOKEN_MAX, "claim-%s", side_name(stm));
    return 1;
  }
  return emit_move(g, pos, random_move(g, pos, &ml, natural, NULL, 0), "", tok);
}

int xq__simulate_games_steady(const xq__sim_game *g)
{
  /* a cycle under way waits for each ruling: the order to vary must be
   * answered within the moves the rules allow */
  return !(g->plan == XQ__PLAN_REPEAT && g->step == 1) && !g->ordered;
}

void xq__simulate_games_feed(xq__sim_game *g, const char *kind, int side)
{
  if (!kind) return;
  if (!strcmp(kind, "must_change") && side >= 0) {
    g->ordered = 1 + side;
    g->comply = xq__simulate_games_below(&g->rng, 2); /* half of them vary, half play on and lose */
  } else if (!strcmp(kind, "refused") && g->offered) {
    /* the offer was not allowed (too early, too many): play on, resign later */
    g->offered = 0;
    g->finishing = 2;
  }
}

void xq__simulate_games_count(xq_sim_report *rep, const char *kind, const char *reason, int ply)
{
  if (!kind) return;
  rep->events++;
  if (!reason) reason = "";
  if (!strcmp(kind, "foul")) {
    rep->fouls++;
    if (!strcmp(reason, "illegal_move")) rep->illegal++;
    else if (!strcmp(reason, "suicide")) rep->suicides++;
    else if (!strcmp(reason, "false_claim")) rep->false_claims++;
  } else if (!strcmp(kind, "loss")) {
    if (!strcmp(reason, "illegal_move")) rep->illegal++;
    else if (!strcmp(reason, "suicide")) rep->suicides++;
    else if (!strcmp(reason, "flag_fall")) rep->flag_falls++;
    else if (!strcmp(reason, "resignation")) rep->resignations++;
    else if (!strcmp(reason, "false_claim")) rep->false_claims++;
    else if (!strcmp(reason, "change_order_ignored")) rep->order_losses++;
    else if (!strcmp(reason, "foul_limit")) rep->fouls++;
    else if (strstr(reason, "perpetual") || strstr(reason, "chase") || strstr(reason, "early_cycle"))
      rep->rep_losses++;
  } else if (!strcmp(kind, "mate") || !strcmp(kind, "stalemate")) {
    rep->mates++;
  } else if (!strcmp(kind, "draw")) {
    if (!strcmp(reason, "agreement")) rep->agreements++;
    else if (!strcmp(reason, "natural_limit")) rep->natural_draws++;
    else if (strcmp(reason, "arbiter") && strcmp(reason, "simple_draw")) rep->rep_draws++;
  } else if (!strcmp(kind, "must_change")) {
    rep->must_change++;
    if (!strcmp(reason, "early_cycle")) rep->early_orders++;
  } else if (!strcmp(kind, "refused")) {
    if (!strcmp(reason, "draw_offer")) rep->offers_refused++;
    else rep->claims_refused++;
  }
  /* needs_arbiter: the board stops and play_boards counts the ruling,
   * once a game */
  (void)ply;
}
