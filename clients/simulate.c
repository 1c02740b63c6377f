/*
 * simulate.c -- a whole event under a regulation preset on the real
 * server (`xqref simulate`, simulate.h, docs/simulate.md).
 *
 * One loop runs the server and every client. The organiser's connection
 * registers the players (add_player) and pairs and publishes each round
 * (pair, Chinese system; round 1 by the preset's method), makes a board
 * token per table (token) and the arbiter's connection enters the late
 * forfeits (result with +- / -+ / --). Every other table is one board
 * connection playing its script (simulate_games.c) event by event with
 * sequence numbers and clock readings; the server judges, stores and
 * records the results in the tournament as for real boards.
 *
 * The knockout (tourney.md §6) starts between the cut round and the next
 * (ko_start, from the standings after the cut: the seeds leave the later
 * Swiss rounds). Once the Swiss is over its games are played on the
 * server's knockout tables (round XQ_KO_ROUND): ko_publish puts the next
 * game of every waiting match on a table, the organiser makes the table's
 * board token, and boards play them as they play Swiss games, with the
 * clock of the game's type; drawn games bring the regulation's tie-break
 * games at the next ko_publish, until every match is decided.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonl.h"
#include "net.h"
#include "simulate_internal.h"

#define TOKEN_SIZE (XQ_TOKEN_CHARS + 1)

typedef struct sim sim;

enum { BS_HELLO = 0, BS_PLAY, BS_DONE };

typedef struct sim_board {
  xq_jsonl c;                 /* its connection (c.data: the board) */
  sim *S;
  int round, table, red, black; /* round XQ_KO_ROUND: a knockout table */
  const char *token;          /* in sim.tokens, or ko_token */
  char ko_token[TOKEN_SIZE];  /* a knockout table's, made when it is published */
  xq_rules rules;             /* its game's: the clock of a knockout game's type */
  xq__sim_game g;
  xq_pos pos;
  int ply;
  int64_t seq;
  int state;
  int inflight;               /* events sent and not answered yet */
  int stashed;                /* tok holds an event not sent yet */
  int solo;                   /* the event in flight must be answered before the next */
  int arbiter;                /* play stopped for an arbiter's ruling */
  char tok[XQ_SIM_TOKEN_MAX];
} sim_board;

struct sim {
  const xq_sim_opts *o;
  const xq_regulation *r;     /* the preset, or `reg` for a group's event */
  xq_regulation reg;          /* --group: the preset without knockout and teams */
  xq_tgroup group;            /* --group: the group whose event this is */
  xq_rules rules;
  xq_sim_report *rep;
  xq_error *err;
  uv_loop_t loop;
  int loop_open;
  xq_server *srv;
  int port;
  char db[XQ_SIM_PATH_MAX];
  char rules_file[XQ_SIM_PATH_MAX]; /* an option's rules of play (rules_key), "" = the preset's */
  char tmpdir[XQ_SIM_PATH_MAX - 16]; /* room for "/sim.db" in db */
  char admin[XQ_TOKEN_CHARS + 1], arbiter[XQ_TOKEN_CHARS + 1];
  struct sockaddr_in addr;    /* the server: 127.0.0.1:port */
  xq_jsonl adm, arb;
  int conns_open;
  int n;
  uint64_t rng;               /* lateness, colours, choices */
  int *stop_round;            /* [n+1]: absentee from this round on, 0 = never */
  sim_board *boards;
  int nboards, done;
  long errors;
  char *tokens;               /* board tokens [round-1][table-1], TOKEN_SIZE bytes each */
  int *rating;                /* [n+1]: each player's rating (the Tangshan choice) */
  int tables;                 /* tables of a round (tokens made for each) */
  int64_t next_id;
  const xq_ko_event *kev;     /* --group of a knockout-only sub-event (village king), else NULL */
  int *pool;                  /* [n+1]: with kev, each player's pool (township) */
};

static int fail(sim *S, int code, const char *fmt, ...)
{
  if (S->err && !S->err->msg[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->err->msg, sizeof S->err->msg, fmt, ap);
    va_end(ap);
    S->err->code = code;
  }
  return code;
}

static double now_s(void) { return (double)uv_hrtime() / 1e9; }

/* ------------------------------------------------------------------ */
/* The store before the server: event, admin and arbiter tokens        */
/* ------------------------------------------------------------------ */

static int create_store(sim *S)
{
  const xq_regulation *r = S->r;
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  xq_tconfig_scoring(&cfg, 0);
  cfg.rounds = r->rounds;
  cfg.lot_seed = S->o->seed;
  /* regulations.md "round 1": Shaanxi draws the numbers, the others
   * number by rating */
  const char *r1 = r->rows[XQ_REG_ROUND1].value;
  if (r1 && !strncmp(r1, "drawn", 5)) cfg.first_round = XQ_FIRST_BY_LOT;
  /* forfeits that withdraw a player: the regulation's, else the rule
   * book's two (tourney.md §3.1.2) */
  if (r->withdraw_after > 0) cfg.missed_rounds_withdraw = r->withdraw_after;
  cfg.withdraw_consecutive = r->withdraw_consecutive;
  xq_error e = {0};
  if (r->tb_order && xq_tconfig_tiebreaks(&cfg, r->tb_order, &e))
    return fail(S, XQ_EINVAL, "preset %s: tie-breaks: %s", r->name, e.msg);
  xq_tstore *st = NULL;
  int rc = xq_tstore_open(S->db, XQ_TSTORE_CREATE, &st, &e);
  char title[XQ_TOURNEY_NAME_MAX];
  if (S->o->group) snprintf(title, sizeof title, "%.180s %.60s", r->title, S->group.name);
  else snprintf(title, sizeof title, "%s", r->title);
  if (!rc) rc = xq_tstore_create_event(st, title, &cfg, &e);
  xq_ttoken tk;
  int created = 0;
  if (!rc) rc = xq_tstore_admin_token(st, &tk, &created, &e);
  if (!rc) snprintf(S->admin, sizeof S->admin, "%s", tk.token);
  if (!rc) rc = xq_tstore_token_new(st, XQ_ROLE_ARBITER, 0, 0, "chief arbiter", &tk, &e);
  if (!rc) snprintf(S->arbiter, sizeof S->arbiter, "%s", tk.token);
  /* A board token for every table of every round, printed on the table
   * cards before the event (the server loads them when it starts): one
   * transaction. */
  S->tables = (S->n + 1) / 2;
  /* (a knockout-only event has no rounds: its tables get tokens when
   * they are published) */
  S->tokens = calloc(r->rounds ? (size_t)r->rounds * (size_t)S->tables : 1, TOKEN_SIZE);
  if (!S->tokens) rc = XQ_ENOMEM;
  if (!rc) rc = xq_tstore_batch_begin(st, &e);
  for (int round = 1; round <= r->rounds && !rc; round++)
    for (int t = 1; t <= S->tables && !rc; t++) {
      char label[XQ_TOURNEY_FIELD_MAX];
      snprintf(label, sizeof label, "round %d table %d", round, t);
      rc = xq_tstore_token_new(st, XQ_ROLE_BOARD, round, t, label, &tk, &e);
      if (!rc) memcpy(S->tokens + ((size_t)(round - 1) * (size_t)S->tables + (size_t)(t - 1)) * TOKEN_SIZE,
                      tk.token, TOKEN_SIZE);
    }
  if (!rc) rc = xq_tstore_batch_commit(st, &e);
  else if (st && xq_tstore_in_batch(st)) xq_tstore_batch_rollback(st);
  xq_tstore_close(st);
  if (rc) return fail(S, rc, "%s: %s", S->db, e.msg[0] ? e.msg : xq_tourney_strerror(rc));
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Server and the staff's connections                                  */
/* ------------------------------------------------------------------ */

static cJSON *call(sim *S, xq_jsonl *c, const char *line)
{
  cJSON *r = xq_jsonl_call(c, line, XQ_SIM_CALL_MS);
  if (!r) fail(S, XQ_EIO, "no answer from the server to %.200s", line);
  return r;
}

/* Connect `c` to the server (the loop runs until it is connected). */
static int connect_to(sim *S, xq_jsonl *c, const xq_jsonl_hooks *hooks, void *data)
{
  return xq_jsonl_connect(c, &S->loop, (const struct sockaddr *)&S->addr, XQ_SIM_LINE_MAX, hooks, data);
}

static int hello(sim *S, xq_jsonl *c, const char *token, const char *role)
{
  char *line = xq_jsonl_hello_line(1, token);
  if (!line) return fail(S, XQ_ENOMEM, "out of memory");
  cJSON *r = call(S, c, line);
  free(line);
  if (!r) return XQ_EIO;
  const cJSON *got = cJSON_GetObjectItemCaseSensitive(r, "role");
  int ok = cJSON_IsString(got) && !strcmp(got->valuestring, role);
  cJSON_Delete(r);
  return ok ? XQ_OK : fail(S, XQ_EIO, "the %s token was refused", role);
}

static int server_up(sim *S)
{
  xq_server_opts so;
  xq_server_opts_default(&so);
  so.db = S->db;
  so.listen = "127.0.0.1:0";
  so.http = NULL;
  so.rules = S->rules_file[0] ? S->rules_file : S->r->rules_preset;
  so.signals = 0;
  so.out = NULL;
  so.log = NULL;
  xq_error e = {0};
  int rc = xq_server_start(&S->loop, &so, &S->srv, &e);
  if (rc) return fail(S, rc, "server: %s", e.msg[0] ? e.msg : xq_strerror(rc));
  S->port = xq_server_port(S->srv, 0);
  uv_ip4_addr("127.0.0.1", S->port, &S->addr);
  if (connect_to(S, &S->adm, NULL, NULL) || connect_to(S, &S->arb, NULL, NULL))
    return fail(S, XQ_EIO, "cannot connect to the server on port %d", S->port);
  S->conns_open = 1;
  if ((rc = hello(S, &S->adm, S->admin, "admin")) || (rc = hello(S, &S->arb, S->arbiter, "arbiter")))
    return rc;
  return XQ_OK;
}

static void server_down(sim *S)
{
  if (S->conns_open) {
    xq_jsonl_close(&S->adm);
    xq_jsonl_close(&S->arb);
    S->conns_open = 0;
  }
  if (S->srv) {
    xq_server_stop(S->srv);
    uv_run(&S->loop, UV_RUN_DEFAULT);
    xq_server_free(S->srv);
    S->srv = NULL;
  }
  uv_run(&S->loop, UV_RUN_DEFAULT);
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

static int register_players(sim *S, const xq_tplayer *pl)
{
  for (int i = 0; i < S->n; i++) {
    const xq_tplayer *p = &pl[i];
    cJSON *req = cJSON_CreateObject(), *pj = cJSON_CreateObject();
    cJSON_AddNumberToObject(req, "id", (double)++S->next_id);
    cJSON_AddStringToObject(req, "op", "add_player");
    cJSON_AddStringToObject(pj, "name", p->name);
    cJSON_AddNumberToObject(pj, "rating", p->rating);
    cJSON_AddStringToObject(pj, "birth", p->birth);
    char sex[2] = {p->sex, 0};
    cJSON_AddStringToObject(pj, "sex", sex);
    cJSON_AddStringToObject(pj, "region", p->region);
    cJSON_AddStringToObject(pj, "club", p->club);
    if (p->team[0]) cJSON_AddStringToObject(pj, "team", p->team);
    cJSON_AddBoolToObject(pj, "local", p->local);
    cJSON_AddItemToObject(req, "player", pj);
    char *line = cJSON_PrintUnformatted(req);
    cJSON_Delete(req);
    if (!line) return fail(S, XQ_ENOMEM, "out of memory");
    cJSON *r = call(S, &S->adm, line);
    free(line);
    if (!r) return XQ_EIO;
    const char *code = xq_jsonl_error(r);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "player");
    int ok = !code && cJSON_IsNumber(id) && id->valueint == i + 1;
    cJSON_Delete(r);
    if (!ok) return fail(S, XQ_EIO, "add_player %s: %s", p->name, code ? code : "unexpected reply");
  }
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Boards                                                              */
/* ------------------------------------------------------------------ */

static void board_finish(sim_board *b)
{
  if (b->state == BS_DONE) return;
  b->state = BS_DONE;
  b->S->done++;
  xq_jsonl_close(&b->c);
}

/* Write event token `t` as the protocol's board operation with the next
 * sequence number. */
static int board_write_event(sim_board *b, const char *t)
{
  sim *S = b->S;
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
  return xq_jsonl_write(&b->c, line, strlen(line));
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
static void board_pump(sim_board *b)
{
  sim *S = b->S;
  int window = S->o->window > 0 ? S->o->window : XQ_SIM_WINDOW_DEFAULT;
  while (b->state == BS_PLAY && b->inflight < window && !b->solo) {
    if (!b->stashed) {
      if (!xq__sim_next(&b->g, &b->pos, b->ply, b->tok)) {
        if (!b->inflight) {
          b->arbiter = 1; /* no legal move yet no result: the arbiter looks */
          board_finish(b);
        }
        return; /* the reply to the last move will bring the result */
      }
      b->stashed = 1;
    }
    xq_move m = plain_move(&b->pos, b->tok);
    int alone = m == XQ_MOVE_NONE || !xq__sim_steady(&b->g);
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

static const char *str_of(const cJSON *o, const char *key)
{
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(s) ? s->valuestring : NULL;
}

static void board_reply(xq_jsonl *c, cJSON *r)
{
  sim_board *b = c->data;
  sim *S = b->S;
  if (b->state == BS_DONE) return;
  if (!r) { /* connection lost */
    S->errors++;
    b->arbiter = 1;
    board_finish(b);
    return;
  }
  const char *code = xq_jsonl_error(r);
  if (b->state == BS_HELLO) {
    const cJSON *last = cJSON_GetObjectItemCaseSensitive(r, "last_seq");
    if (code || !cJSON_IsNumber(last)) {
      S->errors++;
      b->arbiter = 1;
      board_finish(b);
      return;
    }
    b->seq = (int64_t)last->valuedouble + 1;
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
  const char *kind = str_of(v, "verdict"), *reason = str_of(v, "reason"), *result = str_of(r, "result");
  const char *event = str_of(v, "event");
  const cJSON *ply = cJSON_GetObjectItemCaseSensitive(r, "ply");
  const char *fen = str_of(r, "fen");
  if (kind && !strcmp(kind, "accepted") && event && !strcmp(event, "move")) S->rep->moves++;
  else xq__sim_count(S->rep, kind, reason, cJSON_IsNumber(ply) ? ply->valueint : b->ply);
  if (kind && (!strcmp(kind, "mate") || !strcmp(kind, "stalemate"))) S->rep->moves++;
  xq__sim_feed(&b->g, kind, side_of(v));
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

/* ------------------------------------------------------------------ */
/* A Swiss round                                                       */
/* ------------------------------------------------------------------ */

static int arbiter_result(sim *S, int round, int table, const char *code, const char *why)
{
  char line[256];
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"result\",\"round\":%d,\"table\":%d,\"result\":\"%s\","
           "\"reason\":\"%s\"}", ++S->next_id, round, table, code, why);
  cJSON *r = call(S, &S->arb, line);
  if (!r) return XQ_EIO;
  const char *ec = xq_jsonl_error(r);
  int rc = ec ? fail(S, XQ_EIO, "round %d table %d: result %s: %s", round, table, code, ec) : XQ_OK;
  cJSON_Delete(r);
  return rc;
}

static int is_late(sim *S, int id, int round)
{
  if (S->stop_round[id] && round >= S->stop_round[id]) return 1;
  return xq__sim_below(&S->rng, XQ_SIM_RATE_MAX) < S->o->rate_late;
}

static void say_hello(sim_board *b)
{
  if (xq_jsonl_hello(&b->c, 0, b->token)) {
    b->S->errors++;
    b->arbiter = 1;
    board_finish(b);
  }
}

static void on_round_timeout(uv_timer_t *t) { *(int *)t->data = 1; }
static void on_closed_timer(uv_handle_t *h) { (void)h; }

/* Play the games of S->boards[0..nboards) at once (a Swiss round's, and
 * knockout tables), each board with its token and its game's rules;
 * games stopped for a ruling are drawn by the arbiter. Returns XQ_OK or a
 * failure (set in S). */
static int play_boards(sim *S)
{
  int rc = XQ_OK;
  S->done = 0;
  /* connect every table, then let them all play at once */
  for (int i = 0; i < S->nboards && !rc; i++) {
    sim_board *b = &S->boards[i];
    xq__sim_game_init(&b->g, xq_random_next(&S->rng), S->o, &b->rules);
    xq_pos_startpos(&b->pos);
    if (connect_to(S, &b->c, &board_hooks, b)) {
      rc = fail(S, XQ_EIO, "round %d table %d: cannot connect", b->round, b->table);
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
  if (expired && !rc) rc = fail(S, XQ_EIO, "games still running after %d s", XQ_SIM_ROUND_MS / 1000);
  /* games stopped for a ruling (a paused game, a search the rules cannot
   * decide): the arbiter rules a draw */
  for (int i = 0; i < S->nboards && !rc; i++) {
    if (!S->boards[i].arbiter) continue;
    S->rep->arbiter_rulings++;
    rc = arbiter_result(S, S->boards[i].round, S->boards[i].table, "=", "arbiter");
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

static int ko_add_tables(sim *S, int stage, int *added);
static int ko_batch(sim *S, int stage, int *n);

static int play_round(sim *S, int round)
{
  double t0 = now_s();
  const char *system = round == 1 && !S->r->round1_adjacent ? "dutch" : "cn";
  char line[XQ_SIM_LINE];
  /* Round 1 without the adjacent method is top half against bottom half
   * (regulations.md "round 1": by number), which the Dutch round 1 is;
   * every later round is the Chinese system. */
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"pair\",\"round\":%d,\"system\":\"%s\",\"publish\":true}",
           ++S->next_id, round, system);
  cJSON *pr = call(S, &S->adm, line);
  if (!pr) return XQ_EIO;
  const char *code = xq_jsonl_error(pr);
  if (code) {
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(pr, "error");
    int rc = fail(S, XQ_EIO, "round %d: pair: %s %s", round, code, str_of(e, "msg") ? str_of(e, "msg") : "");
    cJSON_Delete(pr);
    return rc;
  }
  const cJSON *boards = cJSON_GetObjectItemCaseSensitive(pr, "boards");
  int nb = cJSON_GetArraySize(boards);
  S->boards = calloc((size_t)(nb ? nb : 1), sizeof *S->boards);
  if (!S->boards) {
    cJSON_Delete(pr);
    return fail(S, XQ_ENOMEM, "out of memory");
  }
  S->nboards = 0;
  S->done = 0;
  int rc = XQ_OK, forfeits = 0;
  for (int i = 0; i < nb && !rc; i++) {
    const cJSON *bd = cJSON_GetArrayItem(boards, i);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(bd, "table");
    const cJSON *red = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(bd, "red"), "id");
    const cJSON *black = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(bd, "black"), "id");
    if (!cJSON_IsNumber(t) || !cJSON_IsNumber(red)) {
      rc = fail(S, XQ_EIO, "round %d: a board without table or Red", round);
      break;
    }
    if (!cJSON_IsNumber(black)) continue; /* the bye */
    S->rep->boards++;
    int late_r = is_late(S, red->valueint, round), late_b = is_late(S, black->valueint, round);
    if (late_r || late_b) {
      /* regulations.md "late → forfeit": the arbiter enters it */
      rc = arbiter_result(S, round, t->valueint, late_r && late_b ? "--" : late_r ? "-+" : "+-", "late");
      forfeits += late_r + late_b;
      S->rep->forfeited_boards++;
      continue;
    }
    sim_board *b = &S->boards[S->nboards++];
    b->S = S;
    b->table = t->valueint;
    b->red = red->valueint;
    b->black = black->valueint;
    b->round = round;
    b->rules = S->rules;
    if (b->table > S->tables) rc = fail(S, XQ_EINVAL, "round %d: table %d has no token", round, b->table);
    else b->token = S->tokens + ((size_t)(round - 1) * (size_t)S->tables + (size_t)(b->table - 1)) * TOKEN_SIZE;
  }
  cJSON_Delete(pr);
  /* the knockout plays a stage a round beside the Swiss (Xinjiang: the
   * quarter-finals in round 9, ...): its standard games with the round's,
   * its tie-break games after them */
  int stage = S->rep->ko_after && round > S->rep->ko_after ? round - S->rep->ko_after : 0, added = 0;
  if (!rc && stage) rc = ko_add_tables(S, stage, &added);
  double t_setup = now_s();
  S->rep->forfeits += forfeits;
  if (!rc) rc = play_boards(S);
  int games = S->nboards - added, ko_games = added;
  free(S->boards);
  S->boards = NULL;
  for (int n = 1; !rc && stage && n > 0; ko_games += n) rc = ko_batch(S, stage, &n);
  S->rep->rounds = round;
  if (S->o->log) {
    fprintf(S->o->log, "round %d: %d boards, %d games, %d forfeits", round, nb, games, forfeits);
    if (stage) fprintf(S->o->log, "; knockout stage %d: %d games", stage, ko_games);
    fprintf(S->o->log, "; %.2f s (pairing and tokens %.2f s)\n", now_s() - t0, t_setup - t0);
  }
  return rc;
}

/* ------------------------------------------------------------------ */
/* Knockout                                                            */
/* ------------------------------------------------------------------ */

/* Send `line` as the organiser; the reply, or NULL after failing with
 * `what` and the server's error. */
static cJSON *staff_call(sim *S, const char *line, const char *what)
{
  cJSON *r = call(S, &S->adm, line);
  const char *code = r ? xq_jsonl_error(r) : NULL;
  if (r && code) {
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "error");
    fail(S, XQ_EIO, "%s: %s %s", what, code, str_of(e, "msg") ? str_of(e, "msg") : "");
    cJSON_Delete(r);
    return NULL;
  }
  return r;
}

/* Start the stage from the standings after the cut (ko_start). */
static int ko_start(sim *S)
{
  const xq_regulation *r = S->r;
  char line[XQ_SIM_LINE];
  int choice = 0;
  if (r->ko_top_chooses) {
    /* Tangshan: the Swiss winner picks its semi-final opponent from #3
     * and #4; the simulated winner picks the lower-rated one */
    snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"standings\",\"round\":%d}", ++S->next_id,
             r->ko_after_round);
    cJSON *st = staff_call(S, line, "standings");
    if (!st) return XQ_EIO;
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(st, "standings");
    const cJSON *i3 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 2), "id");
    const cJSON *i4 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 3), "id");
    int ok = cJSON_IsNumber(i3) && cJSON_IsNumber(i4) && i3->valueint >= 1 && i3->valueint <= S->n &&
             i4->valueint >= 1 && i4->valueint <= S->n;
    if (ok) choice = S->rating[i4->valueint] < S->rating[i3->valueint] ? 4 : 3;
    cJSON_Delete(st);
    if (!ok) return fail(S, XQ_EIO, "standings: no #3 and #4");
  }
  snprintf(line, sizeof line,
           "{\"id\":%" PRId64 ",\"op\":\"ko_start\",\"after\":%d,\"size\":%d,\"seeding\":\"%s\",\"format\":\"%s\","
           "\"choice\":%d}", ++S->next_id, r->ko_after_round, r->ko_size, r->ko_top_chooses ? "choose" : "fixed",
           r->ko_format ? r->ko_format : "", choice);
  cJSON *k = staff_call(S, line, "ko_start");
  if (!k) return XQ_EIO;
  cJSON_Delete(k);
  S->rep->ko_after = r->ko_after_round;
  S->rep->ko_size = r->ko_size;
  S->rep->ko_choice = choice;
  if (S->o->log) fprintf(S->o->log, "knockout: top %d after round %d%s\n", r->ko_size, r->ko_after_round,
                          r->ko_top_chooses ? (choice == 3 ? ", #1 picks #3" : ", #1 picks #4") : "");
  return XQ_OK;
}

/* The "red" list of a ko_publish: Red of every waiting match's standard
 * game or armageddon by lot (the Tangshan top seed chooses: simulated the
 * same way); the other game types take their colours from the rules and
 * ignore it where it agrees. `st` is the state the knockout op gave. */
static void ko_reds(sim *S, const cJSON *st, char *out, size_t len)
{
  size_t k = (size_t)snprintf(out, len, "[");
  const cJSON *m;
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(st, "matches")) {
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(m, "players");
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(m, "games");
    const cJSON *no = cJSON_GetObjectItemCaseSensitive(m, "match");
    const cJSON *next = cJSON_GetObjectItemCaseSensitive(m, "next");
    /* the games whose colours are open (the standard game, the
     * armageddon: 抽签定先); the others follow the format */
    int open = next ? cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(next, "colours_open"))
                    : cJSON_GetArraySize(games) == 0;
    if (cJSON_GetArraySize(pl) != 2 || !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(m, "winner")) ||
        !cJSON_IsNumber(no) || !open || k + 64 >= len)
      continue;
    const cJSON *p = cJSON_GetArrayItem(pl, (int)xq__sim_below(&S->rng, 2));
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(p, "id");
    if (cJSON_IsNumber(id))
      k += (size_t)snprintf(out + k, len - k, "%s{\"match\":%d,\"player\":%d}", k > 1 ? "," : "", no->valueint,
                            id->valueint);
  }
  snprintf(out + k, len - k, "]");
}

/* Publish the next games of the waiting matches (of `stage`, 0 any) and
 * add their tables to S->boards (grown), each with a board token made
 * for it and the clock of its game's type. *added: the tables, 0 when no
 * match waits. Returns XQ_OK or a failure. */
static int ko_add_tables(sim *S, int stage, int *added)
{
  char line[XQ_SIM_LINE], reds[XQ_SIM_LINE * 8];
  *added = 0;
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"knockout\"}", ++S->next_id);
  cJSON *st = staff_call(S, line, "knockout");
  if (!st) return XQ_EIO;
  ko_reds(S, st, reds, sizeof reds);
  cJSON_Delete(st);
  char *pub = malloc(sizeof reds + 128);
  if (!pub) return fail(S, XQ_ENOMEM, "out of memory");
  snprintf(pub, sizeof reds + 128, "{\"id\":%" PRId64 ",\"op\":\"ko_publish\",\"stage\":%d,\"red\":%s}",
           ++S->next_id, stage, reds);
  cJSON *pr = call(S, &S->adm, pub);
  free(pub);
  if (!pr) return XQ_EIO;
  const char *code = xq_jsonl_error(pr);
  if (code && !strcmp(code, "CONFLICT")) { /* no match waits */
    cJSON_Delete(pr);
    return XQ_OK;
  }
  if (code) {
    cJSON_Delete(pr);
    return fail(S, XQ_EIO, "ko_publish: %s", code);
  }
  const cJSON *tabs = cJSON_GetObjectItemCaseSensitive(pr, "tables");
  int nt = cJSON_GetArraySize(tabs), rc = XQ_OK;
  sim_board *grown = realloc(S->boards, sizeof *grown * (size_t)(S->nboards + nt + 1));
  if (!grown) {
    cJSON_Delete(pr);
    return fail(S, XQ_ENOMEM, "out of memory");
  }
  S->boards = grown;
  for (int i = 0; i < nt && !rc; i++) {
    const cJSON *t = cJSON_GetArrayItem(tabs, i);
    const cJSON *tn = cJSON_GetObjectItemCaseSensitive(t, "table");
    const cJSON *red = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "red"), "id");
    const cJSON *black = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "black"), "id");
    const char *type = str_of(t, "type"), *tc = str_of(t, "time_control");
    if (!cJSON_IsNumber(tn) || !cJSON_IsNumber(red) || !cJSON_IsNumber(black) || !type || !tc) {
      rc = fail(S, XQ_EIO, "ko_publish: a table without number, players or type");
      break;
    }
    /* the table card: a board token for this knockout table */
    snprintf(line, sizeof line,
             "{\"id\":%" PRId64 ",\"op\":\"token\",\"role\":\"board\",\"round\":%d,\"table\":%d,"
             "\"label\":\"knockout table %d\"}", ++S->next_id, XQ_KO_ROUND, tn->valueint, tn->valueint);
    cJSON *tk = staff_call(S, line, "token");
    const char *text = tk ? str_of(tk, "token") : NULL;
    if (!text || strlen(text) >= TOKEN_SIZE) {
      cJSON_Delete(tk);
      rc = fail(S, XQ_EIO, "knockout table %d: no token", tn->valueint);
      break;
    }
    sim_board *b = &S->boards[S->nboards++];
    memset(b, 0, sizeof *b);
    memcpy(b->ko_token, text, strlen(text) + 1);
    cJSON_Delete(tk);
    b->S = S;
    b->round = XQ_KO_ROUND;
    b->table = tn->valueint;
    b->red = red->valueint;
    b->black = black->valueint;
    b->token = b->ko_token;
    /* the clock the server gives the table (its game's type; a final's
     * own), which the board's clock readings follow */
    int base = 0, black_base = 0, inc = 0;
    b->rules = S->rules;
    if (!xq_ko_tc_clock(tc, &base, &black_base, &inc) && base > 0) {
      b->rules.clock_base_s = base;
      b->rules.clock_base_black_s = black_base;
      b->rules.clock_increment_s = inc;
    }
    b->rules.armageddon = !strcmp(type, xq_ko_gtype_name(XQ_KG_ARMAGEDDON));
    S->rep->ko_games++;
    ++*added;
  }
  cJSON_Delete(pr);
  return rc;
}

/* Publish the next games of the waiting matches (of `stage`, 0 any) and
 * play them. Returns XQ_OK (*n tables played, 0 when no match waits) or
 * a failure. */
static int ko_batch(sim *S, int stage, int *n)
{
  S->boards = NULL;
  S->nboards = 0;
  int rc = ko_add_tables(S, stage, n);
  if (!rc && *n) rc = play_boards(S);
  free(S->boards);
  S->boards = NULL;
  S->nboards = 0;
  return rc;
}

/* Play every match of the stage to its end on the knockout tables. */
static int ko_run(sim *S)
{
  int rc = XQ_OK, n = 1, batches = 0;
  while (!rc && n > 0 && batches++ < XQ_KO_GAMES_MAX) rc = ko_batch(S, 0, &n);
  if (rc) return rc;
  char line[XQ_SIM_LINE];
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"knockout\"}", ++S->next_id);
  cJSON *st = staff_call(S, line, "knockout");
  if (!st) return XQ_EIO;
  int decided = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "decided"));
  cJSON_Delete(st);
  if (!decided) return fail(S, XQ_EINVAL, "the knockout stage ended undecided");
  if (S->o->log) fprintf(S->o->log, "knockout: %d games on the knockout tables\n", S->rep->ko_games);
  return XQ_OK;
}

/* Start a knockout-only event (S->kev): every registered player an
 * entrant, in the pool (township) S->pool gives, the bracket positions
 * drawn by lot from the seed (ko_start seeding "lot"). */
static int ko_start_lot(sim *S)
{
  cJSON *req = cJSON_CreateObject(), *pools = NULL;
  if (!req) return fail(S, XQ_ENOMEM, "out of memory");
  cJSON_AddNumberToObject(req, "id", (double)++S->next_id);
  cJSON_AddStringToObject(req, "op", "ko_start");
  cJSON_AddStringToObject(req, "seeding", "lot");
  cJSON_AddStringToObject(req, "format", S->kev->format);
  cJSON_AddNumberToObject(req, "lot", (double)(S->o->seed & ((1ULL << 53) - 1)));
  pools = cJSON_AddArrayToObject(req, "pools");
  for (int p = 0; pools && p < S->kev->pools; p++) {
    cJSON *l = cJSON_CreateArray();
    for (int id = 1; l && id <= S->n; id++)
      if (S->pool[id] == p) cJSON_AddItemToArray(l, cJSON_CreateNumber(id));
    cJSON_AddItemToArray(pools, l);
  }
  char *line = cJSON_PrintUnformatted(req);
  cJSON_Delete(req);
  if (!line) return fail(S, XQ_ENOMEM, "out of memory");
  cJSON *k = staff_call(S, line, "ko_start");
  free(line);
  if (!k) return XQ_EIO;
  const cJSON *size = cJSON_GetObjectItemCaseSensitive(k, "size");
  S->rep->ko_after = XQ_KO_NO_SWISS;
  S->rep->ko_size = cJSON_IsNumber(size) ? size->valueint : 0;
  S->rep->ko_entrants = S->n;
  cJSON_Delete(k);
  if (S->o->log)
    fprintf(S->o->log, "knockout-only event %s: %d entrants in %d pools, a bracket of %d (%d byes)\n", S->kev->name,
            S->n, S->kev->pools, S->rep->ko_size, S->rep->ko_size - S->n);
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* The run                                                             */
/* ------------------------------------------------------------------ */

void xq_sim_opts_default(xq_sim_opts *o)
{
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->min_plies = 40;
  o->max_plies = 160;
  o->rate_illegal = 30;
  o->rate_suicide = 15;
  o->rate_flag = 20;
  o->rate_repetition = 40;
  o->rate_natural = 10;
  o->rate_late = 10;
  o->absentees = -1;
  o->women = -1;
  o->window = XQ_SIM_WINDOW_DEFAULT;
}

/* --group: the event of one of the preset's groups that plays apart
 * (Tangshan 七: 分别进行比赛): its players only, the preset's rules and
 * rounds, no knockout (the open group's) and no team competition. */
static int rc_group(sim *S, const char *name)
{
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  int ng = 0, gi = -1;
  if (xq__sim_reg_groups(S->r, groups, XQ_REG_GROUPS_MAX, &ng)) ng = 0;
  for (int i = 1; i < ng && gi < 0; i++)
    if (name[0] && strstr(groups[i].name, name)) gi = i;
  if (gi < 0) return fail(S, XQ_EINVAL, "%s has no group '%s' besides its open group", S->r->name, name);
  S->group = groups[gi];
  S->reg.ko_size = 0;
  S->reg.ko_after_round = 0;
  S->reg.team_size = 0;
  /* Tangshan 八.2 7或9轮 (option group_rounds) */
  if (xq_regulation_option(S->r, "group_rounds") == 1) S->reg.rounds = 7;
  return XQ_OK;
}

/* --group of a knockout-only sub-event (Shaanxi 十(二)2 乡村棋王): its
 * entrants only, no Swiss rounds, no teams, the sub-event's format and
 * prizes (simulate_final.c). */
static void rc_ko_event(sim *S, const xq_ko_event *e)
{
  S->kev = e;
  memset(&S->group, 0, sizeof S->group);
  snprintf(S->group.name, sizeof S->group.name, "%s", e->name);
  S->reg.rounds = 0;
  S->reg.ko_size = 0;
  S->reg.ko_after_round = 0;
  S->reg.ko_format = e->format;
  S->reg.team_size = 0;
  S->reg.entry_limit = 0;
  S->reg.lucky_amount = 0;
}

/* The readings chosen on S->reg (check_opts) that are rules of play
 * (rules_key): a rules file beside the store for the server, and the
 * boards' rules. Returns XQ_OK, XQ_EINVAL or XQ_EIO. */
static int apply_options(sim *S)
{
  char json[XQ_SIM_LINE];
  int n = snprintf(json, sizeof json, "{\"preset\":\"%s\"", S->r->rules_preset), extra = 0;
  const xq_reg_option *ro;
  for (int i = 0; (ro = xq_regulation_option_at(S->r, i)); i++)
    if (ro->rules_key && S->reg.opt[i] && n < (int)sizeof json - 80) {
      n += snprintf(json + n, sizeof json - (size_t)n, ",\"%s\":%d", ro->rules_key, S->reg.opt[i]);
      extra = 1;
    }
  if (!extra) return XQ_OK;
  snprintf(json + n, sizeof json - (size_t)n, "}");
  xq_error e = {0};
  if (xq_rules_load_json(json, &S->rules, &e)) return fail(S, XQ_EINVAL, "options: %s", e.msg);
  snprintf(S->rules_file, sizeof S->rules_file, "%.*s.rules.json", (int)sizeof S->rules_file - 16, S->db);
  FILE *f = fopen(S->rules_file, "w");
  if (!f || fputs(json, f) < 0 || fclose(f)) {
    if (f) fclose(f);
    return fail(S, XQ_EIO, "cannot write %s", S->rules_file);
  }
  return XQ_OK;
}

static int check_opts(sim *S, const xq_sim_opts *o)
{
  const xq_regulation *found;
  if (!o->preset || xq_regulation_find(o->preset, &found))
    return fail(S, XQ_EINVAL, "unknown preset '%s' (xqref presets lists them)", o->preset ? o->preset : "");
  /* a copy: the options' readings and a group's event change it */
  S->reg = *found;
  S->r = &S->reg;
  for (int i = 0; i < o->noptions; i++) {
    xq_error e = {0};
    if (xq_regulation_option_set(&S->reg, o->options[i], &e)) return fail(S, XQ_EINVAL, "%s", e.msg);
  }
  if (xq_rules_preset(S->r->rules_preset, &S->rules))
    return fail(S, XQ_EINVAL, "preset %s: no rules preset %s", S->r->name, S->r->rules_preset);
  const xq_ko_event *kev;
  if (o->group && o->group[0] && xq_regulation_ko_event(S->r, o->group, &kev) == XQ_OK) rc_ko_event(S, kev);
  else if (o->group && (rc_group(S, o->group))) return XQ_EINVAL;
  int limit = o->group ? 0 : S->r->entry_limit;
  S->n = o->players ? o->players : limit ? limit : S->kev ? S->kev->entrants_default
                                                 : o->group ? XQ_SIM_GROUP_PLAYERS_DEFAULT : XQ_SIM_PLAYERS_DEFAULT;
  if (limit && S->n > limit)
    return fail(S, XQ_EINVAL, "%s admits at most %d players (its entry limit), not %d", S->r->name, limit, S->n);
  int least = S->r->rounds + 5;
  if (S->r->ko_size && least < 2 * S->r->ko_size) least = 2 * S->r->ko_size;
  if (S->kev) {
    /* the entrants alternate between the pools: each pool at least one,
     * at most half the largest bracket */
    int most = XQ_KO_SIZE_MAX / S->kev->pools * S->kev->pools;
    if (S->n < 2 || S->n < S->kev->pools || S->n > most)
      return fail(S, XQ_EINVAL, "%s %s takes 2..%d entrants (%d a pool), not %d", S->r->name, S->kev->name, most,
                  XQ_KO_SIZE_MAX / S->kev->pools, S->n);
    least = 2;
  }
  if (S->n < least || S->n > XQ_SIM_PLAYERS_MAX)
    return fail(S, XQ_EINVAL, "%s needs %d..%d players for its %d rounds, not %d", S->r->name, least,
                XQ_SIM_PLAYERS_MAX, S->r->rounds, S->n);
  int rates[] = {o->rate_illegal, o->rate_suicide, o->rate_flag, o->rate_repetition, o->rate_natural};
  int sum = 0;
  for (size_t i = 0; i < sizeof rates / sizeof *rates; i++) {
    if (rates[i] < 0 || rates[i] > XQ_SIM_RATE_MAX) return fail(S, XQ_EINVAL, "incident rates are 0..1000 per mille");
    sum += rates[i];
  }
  if (sum > XQ_SIM_RATE_MAX) return fail(S, XQ_EINVAL, "the game incident rates add up to more than 1000 per mille");
  if (o->rate_late < 0 || o->rate_late > XQ_SIM_RATE_MAX) return fail(S, XQ_EINVAL, "--late is 0..1000 per mille");
  if (o->min_plies < 0 || o->max_plies > XQ_SIM_PLIES_MAX || o->min_plies > o->max_plies)
    return fail(S, XQ_EINVAL, "game lengths must satisfy 0 <= min <= max <= %d plies", XQ_SIM_PLIES_MAX);
  if (o->window < 0 || o->window > XQ_SIM_WINDOW_MAX)
    return fail(S, XQ_EINVAL, "the window is 0..%d events in flight per board", XQ_SIM_WINDOW_MAX);
  if (o->women > S->n || o->absentees > S->n / 4)
    return fail(S, XQ_EINVAL, "at most all players can be women and a quarter absentees");
  if (o->db && strlen(o->db) >= XQ_SIM_PATH_MAX - 16) return fail(S, XQ_EINVAL, "--db path too long");
  if (o->db && access(o->db, F_OK) == 0) return fail(S, XQ_EINVAL, "%s exists: the simulation needs a new store", o->db);
  return XQ_OK;
}

static void remove_store(sim *S)
{
  if (!S->tmpdir[0]) return;
  const char *sfx[] = {"", "-wal", "-shm", "-journal", ".admin", ".rules.json"};
  char p[XQ_SIM_PATH_MAX + 16];
  for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
    snprintf(p, sizeof p, "%s%s", S->db, sfx[i]);
    unlink(p);
  }
  rmdir(S->tmpdir);
}

static int run(sim *S)
{
  const xq_sim_opts *o = S->o;
  const xq_regulation *r = S->r;
  int rc;
  if (o->db) {
    snprintf(S->db, sizeof S->db, "%s", o->db);
  } else {
    const char *tmp = getenv("TMPDIR");
    snprintf(S->tmpdir, sizeof S->tmpdir, "%.900s/xqref-sim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(S->tmpdir)) {
      S->tmpdir[0] = 0;
      return fail(S, XQ_EIO, "cannot make a temporary directory: %s", strerror(errno));
    }
    snprintf(S->db, sizeof S->db, "%s/sim.db", S->tmpdir);
  }
  if ((rc = apply_options(S)) || (rc = create_store(S))) return rc;

  /* the entrants, shaped by the regulation's groups and prizes */
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  int ng = 0;
  if (o->group) groups[0] = S->group, ng = 1; /* every entrant is of the group */
  else if (xq__sim_reg_groups(r, groups, XQ_REG_GROUPS_MAX, &ng)) ng = 0;
  xq_prize_table *pt = calloc(1, sizeof *pt);
  xq_tplayer *pl = calloc((size_t)S->n, sizeof *pl);
  S->stop_round = calloc((size_t)S->n + 1, sizeof *S->stop_round);
  if (!pt || !pl || !S->stop_round) {
    free(pt);
    free(pl);
    return fail(S, XQ_ENOMEM, "out of memory");
  }
  int have_prizes = xq__sim_reg_prizes(r, S->n, pt) == XQ_OK;
  xq__sim_players(r, groups, ng, have_prizes ? pt : NULL, S->n, o->women, o->seed, pl);
  free(pt);
  if (!(S->rating = calloc((size_t)S->n + 1, sizeof *S->rating))) {
    free(pl);
    return fail(S, XQ_ENOMEM, "out of memory");
  }
  for (int i = 0; i < S->n; i++) S->rating[i + 1] = pl[i].rating;
  if (S->kev) {
    /* a knockout-only event: each entrant of a pool (township, its name
     * as the club), alternately, so the pools differ by one at most */
    if (!(S->pool = calloc((size_t)S->n + 1, sizeof *S->pool))) {
      free(pl);
      return fail(S, XQ_ENOMEM, "out of memory");
    }
    /* Shaanxi 九: players of 榆阳区, 佳县 and 神木县 may enter */
    static const char *const counties[] = {"榆林/佳县", "榆林/榆阳区", "榆林/神木县"};
    for (int i = 0; i < S->n; i++) {
      S->pool[i + 1] = i % S->kev->pools;
      snprintf(pl[i].club, sizeof pl[i].club, "%s", S->kev->pool_names[i % S->kev->pools]);
      snprintf(pl[i].region, sizeof pl[i].region, "%s", counties[(i / S->kev->pools) % 3]);
      pl[i].team[0] = 0;
    }
  }
  /* absentees stop coming after a random round; with the withdrawal rule
   * they forfeit their way out of the event */
  int absentees = S->kev ? 0 : o->absentees >= 0 ? o->absentees : S->n / 50; /* no rounds to miss */
  for (int k = 0; k < absentees; k++) {
    int id;
    do id = 1 + xq__sim_below(&S->rng, S->n); while (S->stop_round[id]);
    int last = r->ko_after_round ? r->ko_after_round : r->rounds;
    S->stop_round[id] = 2 + xq__sim_below(&S->rng, last > 4 ? last - 3 : 1);
  }

  if (uv_loop_init(&S->loop)) {
    free(pl);
    return fail(S, XQ_EIO, "cannot start an event loop");
  }
  S->loop_open = 1;
  if ((rc = server_up(S)) || (rc = register_players(S, pl))) {
    free(pl);
    return rc;
  }
  free(pl);
  S->rep->players = S->n;

  double t0 = now_s();
  for (int round = 1; round <= r->rounds && !rc; round++) {
    if (r->ko_size && round == r->ko_after_round + 1 && (rc = ko_start(S))) break;
    rc = play_round(S, round);
  }
  S->rep->swiss_seconds = now_s() - t0;
  /* a knockout after the last Swiss round (Tangshan: top 4 after 9) */
  if (!rc && r->ko_size && !S->rep->ko_after) rc = ko_start(S);
  if (!rc && r->ko_size) rc = ko_run(S);
  /* a knockout-only event: the drawn bracket, played to its final */
  if (!rc && S->kev && !(rc = ko_start_lot(S))) rc = ko_run(S);
  server_down(S);
  if (rc) return rc;
  if (S->errors) return fail(S, XQ_EIO, "%ld protocol errors", S->errors);

  xq_tstore *st = NULL;
  xq_error e = {0};
  if ((rc = xq_tstore_open(S->db, XQ_TSTORE_OPEN, &st, &e))) return fail(S, rc, "%s", e.msg);
  rc = xq__sim_final(o, r, st, S->rep, S->err);
  xq_tstore_close(st);
  return rc;
}

int xq_simulate(const xq_sim_opts *o, xq_sim_report *rep, xq_error *err)
{
  sim *S = calloc(1, sizeof *S);
  xq_error e0 = {0};
  if (!err) err = &e0;
  memset(err, 0, sizeof *err);
  if (!S) {
    err->code = XQ_ENOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return XQ_ENOMEM;
  }
  memset(rep, 0, sizeof *rep);
  S->o = o;
  S->rep = rep;
  S->err = err;
  S->rng = o ? o->seed * 0x9E3779B97F4A7C15ULL + 0x73696dULL : 1;
  double t0 = now_s();
  /* a board that hangs up after its game's end may still be owed replies
   * to moves it sent ahead: the server's write then fails with EPIPE,
   * which must not end the process */
  signal(SIGPIPE, SIG_IGN);
  int rc = o ? check_opts(S, o) : fail(S, XQ_EINVAL, "no options");
  if (!rc) {
    snprintf(rep->preset, sizeof rep->preset, "%s", S->r->name);
    rc = run(S);
  }
  if (S->loop_open) {
    server_down(S);
    if (uv_loop_close(&S->loop)) rc = rc ? rc : fail(S, XQ_EIO, "handles left open at the end");
  }
  remove_store(S); /* only a temporary store */
  free(S->stop_round);
  free(S->rating);
  free(S->pool);
  free(S->tokens);
  free(S);
  rep->seconds = now_s() - t0;
  return rc;
}
