/*
 * simulate_boards.c -- the tables of `xqref simulate` being played: each
 * board's connection sending its game's script (simulate_games.c) event
 * by event with sequence numbers and clock readings, as a digital board
 * does, and every table of a batch played at once until each game is
 * over (the games stopped for a ruling drawn by the arbiter).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simulate_internal.h"

enum { BS_HELLO = 0, BS_PLAY, BS_DONE }; /* a board's state */

static void board_finish(xq__sim_board *b)
{
  if (b->state == BS_DONE) return;
  b->state = BS_DONE;
  b->S->done++;
  xq__jsonl_close(&b->c);
}

/* Write event token `t` as the protocol's board operation with the next
 * sequence number. */
static int board_write_event(xq__sim_board *b, const char *t)
{
  xq__sim *S = b->S;
  char line[XQ_SIM_LINE];
  long long seq = (long long)b->seq++;
  const char *side = strchr(t, '-') ? strchr(t, '-') + 1 : "";
  if (!strncmp(t, "clock:", 6)) {
    long rr = 0, bb = 0;
    sscanf(t + 6, "%ld/%ld", &rr, &bb);
    snprintf(line, sizeof line, "{\"id\":%lld,\"op\":\"clock\",\"seq\":%lld,\"clock\":[%ld,%ld]}\n", seq, seq, rr, bb);
  } else if (!strncmp(t, "claim-", 6)) {
    S->rep->natural_claims++;
    snprintf(line, sizeof line, "{\"id\":%lld,\"op\":\"claim\",\"seq\":%lld,\"kind\":\"natural\",\"side\":\"%s\"}\n",
             seq, seq, side);
  } else if (!strncmp(t, "offer-", 6) || !strncmp(t, "accept-", 7) || !strncmp(t, "decline-", 8)) {
    if (t[0] == 'd') S->rep->offers_declined++;
    snprintf(line, sizeof line, "{\"id\":%lld,\"op\":\"draw\",\"seq\":%lld,\"action\":\"%.*s\",\"side\":\"%s\"}\n",
             seq, seq, (int)(side - 1 - t), t, side);
  } else if (!strncmp(t, "resign-", 7)) {
    snprintf(line, sizeof line, "{\"id\":%lld,\"op\":\"resign\",\"seq\":%lld,\"side\":\"%s\"}\n", seq, seq, side);
  } else {
    int held = !strncmp(t, "held:", 5);
    snprintf(line, sizeof line,
             "{\"id\":%lld,\"op\":\"move\",\"seq\":%lld,\"move\":\"%s\",\"clock\":[%ld,%ld]%s}\n", seq, seq,
             held ? t + 5 : t, b->g.clock[XQ_RED], b->g.clock[XQ_BLACK], held ? ",\"held\":true" : "");
  }
  return xq__jsonl_write(&b->c, line, strlen(line));
}

/* The legal move a plain ICCS token names in `pos`, else XQ_MOVE_NONE. */
static xq_move plain_move(const xq_pos *pos, const char *t)
{
  if (strlen(t) != 4 || t[0] < 'a' || t[0] > 'i' || t[2] < 'a' || t[2] > 'i' || t[1] < '0' || t[1] > '9' ||
      t[3] < '0' || t[3] > '9')
    return XQ_MOVE_NONE;
  xq_move m = XQ_MOVE(XQ_SQ(t[0] - 'a', t[1] - '0'), XQ_SQ(t[2] - 'a', t[3] - '0'));
  return xq_is_legal(pos, m) ? m : XQ_MOVE_NONE;
}

/* Send the script's next events. Like `xqref loadgen --window`, a board
 * keeps up to `window` plain legal moves in flight, following the game on
 * its own copy of the position; anything else (an incident, a claim, an
 * offer, a resignation, the moves of a repeated cycle) goes alone, once
 * every earlier event is answered, so the script sees each ruling before
 * it acts again. */
static void board_pump(xq__sim_board *b)
{
  xq__sim *S = b->S;
  int window = S->o->window > 0 ? S->o->window : XQ_SIM_WINDOW_DEFAULT;
  while (b->state == BS_PLAY && b->inflight < window && !b->solo) {
    if (!b->stashed) {
      if (!xq__simulate_games_next(&b->g, &b->pos, b->ply, b->tok)) {
        if (!b->inflight) {
          b->arbiter = 1; /* no legal move yet no result: the arbiter looks */
          board_finish(b);
        }
        return; /* the reply to the last move will bring the result */
      }
      b->stashed = 1;
    }
    xq_move m = plain_move(&b->pos, b->tok);
    int alone = m == XQ_MOVE_NONE || !xq__simulate_games_steady(&b->g);
    if (alone && b->inflight) return; /* wait until everything is answered */
    b->stashed = 0;
    if (board_write_event(b, b->tok)) {
      S->errors++;
      board_finish(b);
      return;
    }
    b->inflight++;
    if (m != XQ_MOVE_NONE) {
      xq_undo u;
      xq_make(&b->pos, m, &u);
      b->ply++;
    }
    b->solo = alone;
  }
}

static int side_of(const cJSON *v)
{
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(v, "side");
  if (!cJSON_IsString(s)) return -1;
  return !strcmp(s->valuestring, "red") ? XQ_RED : !strcmp(s->valuestring, "black") ? XQ_BLACK : -1;
}

static void board_reply(xq_jsonl *c, cJSON *r)
{
  xq__sim_board *b = c->data;
  xq__sim *S = b->S;
  if (b->state == BS_DONE) return;
  if (!r) { /* connection lost */
    S->errors++;
    b->arbiter = 1;
    board_finish(b);
    return;
  }
  const char *code = xq__jsonl_error(r);
  if (b->state == BS_HELLO) {
    long long last;
    if (code || !xq__jsonl_seq(cJSON_GetObjectItemCaseSensitive(r, "last_seq"), &last)) {
      S->errors++;
      b->arbiter = 1;
      board_finish(b);
      return;
    }
    b->seq = last + 1;
    b->state = BS_PLAY;
    board_pump(b);
    return;
  }
  b->inflight--;
  if (code) {
    if (!strcmp(code, "GAME_OVER")) {
      board_finish(b);
    } else if (!strcmp(code, "GAME_PAUSED")) {
      b->arbiter = 1;
      board_finish(b);
    } else {
      S->errors++;
      if (S->o->log) fprintf(S->o->log, "table %d: %s after %s\n", b->table, code, b->tok);
      b->arbiter = 1;
      board_finish(b);
    }
    return;
  }
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "verdict");
  const char *kind = xq__jsonl_str(v, "verdict"), *reason = xq__jsonl_str(v, "reason"), *result = xq__jsonl_str(r, "result");
  const char *event = xq__jsonl_str(v, "event");
  const cJSON *ply = cJSON_GetObjectItemCaseSensitive(r, "ply");
  const char *fen = xq__jsonl_str(r, "fen");
  if (kind && !strcmp(kind, "accepted") && event && !strcmp(event, "move")) S->rep->moves++;
  else xq__simulate_games_count(S->rep, kind, reason, cJSON_IsNumber(ply) ? ply->valueint : b->ply);
  if (kind && (!strcmp(kind, "mate") || !strcmp(kind, "stalemate"))) S->rep->moves++;
  xq__simulate_games_feed(&b->g, kind, side_of(v));
  if (kind && !strcmp(kind, "needs_arbiter")) {
    b->arbiter = 1;
    board_finish(b);
    return;
  }
  if (result && strcmp(result, "*")) {
    board_finish(b);
    return;
  }
  if (!b->inflight) {
    /* everything answered: the server's position is the one to play on
     * (a foul left it as it was, a ruling may have changed the plan) */
    b->solo = 0;
    if (fen) {
      xq_error e;
      if (xq_fen_parse(&b->pos, fen, 0, &e)) S->errors++;
    }
    if (cJSON_IsNumber(ply)) b->ply = ply->valueint;
  }
  board_pump(b);
}

static const xq_jsonl_hooks board_hooks = {.reply = board_reply};

static void say_hello(xq__sim_board *b)
{
  if (xq__jsonl_hello(&b->c, 0, b->token)) {
    b->S->errors++;
    b->arbiter = 1;
    board_finish(b);
  }
}

static void on_round_timeout(uv_timer_t *t) { *(int *)t->data = 1; }
static void on_closed_timer(uv_handle_t *h) { (void)h; }

int xq__simulate_boards_play(xq__sim *S)
{
  int rc = XQ_OK;
  S->done = 0;
  /* connect every table, then let them all play at once */
  for (int i = 0; i < S->nboards && !rc; i++) {
    xq__sim_board *b = &S->boards[i];
    xq__simulate_games_init(&b->g, xq_random_next(&S->rng), S->o, &b->rules);
    xq_pos_startpos(&b->pos);
    if (xq__simulate_server_connect(S, &b->c, &board_hooks, b)) {
      rc = xq__simulate_server_fail(S, XQ_EIO, "round %d table %d: cannot connect", b->round, b->table);
      board_finish(b);
      break;
    }
    say_hello(b);
    S->rep->games++;
  }
  if (rc) {
    for (int i = 0; i < S->nboards; i++)
      if (S->boards[i].state != BS_DONE && S->boards[i].c.loop) board_finish(&S->boards[i]);
  }
  uv_timer_t timer;
  int expired = 0;
  uv_timer_init(&S->loop, &timer);
  timer.data = &expired;
  uv_timer_start(&timer, on_round_timeout, XQ_SIM_ROUND_MS, 0);
  while (S->done < S->nboards && !expired) uv_run(&S->loop, UV_RUN_ONCE);
  uv_close((uv_handle_t *)&timer, on_closed_timer);
  for (int i = 0; i < S->nboards; i++) board_finish(&S->boards[i]);
  uv_run(&S->loop, UV_RUN_NOWAIT);
  if (expired && !rc) rc = xq__simulate_server_fail(S, XQ_EIO, "games still running after %d s", XQ_SIM_ROUND_MS / 1000);
  /* games stopped for a ruling (a paused game, a search the rules cannot
   * decide): the arbiter rules a draw */
  for (int i = 0; i < S->nboards && !rc; i++) {
    if (!S->boards[i].arbiter) continue;
    S->rep->arbiter_rulings++;
    rc = xq__simulate_server_result(S, S->boards[i].round, S->boards[i].table, "=", "arbiter");
  }
  /* wait until the closed connections are gone */
  int open = 1;
  while (open) {
    open = 0;
    for (int i = 0; i < S->nboards; i++) open |= S->boards[i].c.loop && !S->boards[i].c.closed;
    if (open) uv_run(&S->loop, UV_RUN_ONCE);
  }
  return rc;
}
