/*
 * loadgen.c -- replay real games as N digital boards against a running
 * server and measure what it sustains (`xqref loadgen`, clients.h).
 *
 * Every board is one TCP connection on a single libuv loop in this
 * process. It says hello with its board token, then sends the moves of
 * its game as `move` events with increasing `seq` and clock readings.
 * Pacing: at full speed each board sends its next move as soon as the
 * reply to the previous one arrives (one request in flight per board,
 * `--window` more); with `--rate R` a timer per board sends R moves a
 * second. Latency is measured with uv_hrtime from the send to the reply.
 *
 * The measurement starts when every board has been answered its hello
 * (connecting 500 sockets is not part of the rate) and ends with the last
 * reply. A board stops when its game is over (the reply's result is not
 * "*"), when its record has no more moves, when a reply shows that the
 * game left the record (a foul took a move back), or on an error; so the
 * number of boards in play falls towards the end. The rate while all of
 * them were still playing is printed on its own line: that is the figure
 * to compare with a fixed-concurrency benchmark (docs/tools.md).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "clientlimits.h"
#include "clients.h"
#include "jsonl.h"
#include "net.h"
#include "records.h"
#include "samples.h"
#include "viewers.h"


/* One game as ICCS move texts. */
typedef struct lg_game {
  int n;
  char (*mv)[6];
} lg_game;

typedef struct lg lg;

enum { B_CONNECTING, B_HELLO, B_READY, B_PLAYING, B_DONE };

/* Why a board stopped playing. */
enum { STOP_NONE, STOP_OVER, STOP_EXHAUSTED, STOP_DIVERGED, STOP_ERROR, STOP_LOST, STOP_TIME };

typedef struct lg_sent {
  uint64_t at;                 /* uv_hrtime of the send */
  int64_t seq;
  int move;                    /* index in the game */
} lg_sent;

typedef struct lg_board {
  xq_jsonl c;                  /* its connection (c.data: the board) */
  uv_timer_t pace;             /* --rate */
  lg *lg;
  int idx;
  int round, table;
  char token[XQ_LOADGEN_TOKEN_MAX];
  const lg_game *game;
  int next;                    /* next move of the game to send */
  int64_t seq;                 /* next sequence number */
  int ply;                     /* plies the server has applied (expected) */
  long clock[2];
  int state, stop;
  int over;                    /* a reply said the game is over */
  lg_sent fifo[XQ_LOADGEN_WINDOW_MAX];
  int fhead, fcount;
  int pace_on;
  /* --resend: the second connection and the moves it resent, unanswered */
  xq_jsonl c2;
  int c2_state;                /* 0 none, 1 hello sent, 2 resending, 3 done */
  lg_sent rfifo[XQ_LOADGEN_WINDOW_MAX];
  int rhead, rcount;
} lg_board;

typedef struct lg_count {
  char name[32];
  long n;
} lg_count;

struct lg {
  FILE *out, *log;             /* the report; the messages (NULL: none) */
  uv_loop_t loop;
  struct sockaddr_storage addr;
  int nboards;
  lg_board *boards;
  lg_game *games;
  int ngames;
  double rate;
  double duration;
  int window;
  int min_plies;
  uint64_t seed;
  FILE *ack;                   /* --ack-log */
  int resend;                  /* --resend */
  long resent, resend_acked, resend_failed;
  FILE *stream_log;            /* --viewer-log */
  uv_timer_t deadline, drain, start_to;
  uv_signal_t sigint;          /* Ctrl-C: stop as at the end of --duration */
  int timers_open;
  int greeted, started, stopped_boards, closing;
  int past_deadline;           /* --duration is over: send nothing more */
  uint64_t t_connect, t0, t_last, t_first_stop;
  long acked, acked_at_first_stop, late_over, unanswered, behind;
  long stops[STOP_TIME + 1];
  lg_count errors[XQ_LOADGEN_ERRCODES_MAX];
  int nerrors;
  lg_count verdicts[XQ_LOADGEN_VERDICTS_MAX];
  int nverdicts;
  long error_total;
  xq__samples lat;             /* send to reply */
  xq__viewers *views;          /* --viewers and --sse */
  int viewers_differ;          /* SSE viewers whose stream was not the first one's */
  struct sockaddr_storage http_addr;
  struct sockaddr_storage url_addrs[XQ_LOADGEN_VIEWER_URLS_MAX];
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

/* One line of the run's messages, "xqref loadgen: ...", to L->log. */
static void say(lg *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(lg *L, const char *fmt, ...)
{
  if (!L->log) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("xqref loadgen: ", L->log);
  vfprintf(L->log, fmt, ap);
  fputc('\n', L->log);
  va_end(ap);
}

static void count_name(lg_count *tab, int *n, int max, const char *name)
{
  for (int i = 0; i < *n; i++)
    if (!strcmp(tab[i].name, name)) {
      tab[i].n++;
      return;
    }
  if (*n == max) name = "OTHER";
  for (int i = 0; i < *n; i++)
    if (!strcmp(tab[i].name, name)) {
      tab[i].n++;
      return;
    }
  if (*n == max) return;
  snprintf(tab[*n].name, sizeof tab[*n].name, "%s", name);
  tab[*n].n = 1;
  (*n)++;
}

/* A token is printable ASCII without quotes, backslashes or spaces, so it
 * goes into a JSON string as it is. */
static int token_ok(const char *t)
{
  if (!*t) return 0;
  for (; *t; t++)
    if (*t <= ' ' || *t > '~' || *t == '"' || *t == '\\') return 0;
  return 1;
}

/* ------------------------------------------------------------------ */
/* Input: tokens and games                                             */
/* ------------------------------------------------------------------ */

/* Read "board ROUND TABLE TOKEN" lines of `path` into the first `n`
 * boards; other lines are ignored. Returns the number found (< n is an
 * error for the caller) or -1 when the file cannot be read. */
static int read_tokens(lg *L, const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    say(L, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  char line[XQ_LOADGEN_TOKENS_LINE_MAX];
  int found = 0;
  while (found < L->nboards && fgets(line, sizeof line, f)) {
    int round, table;
    char tok[XQ_LOADGEN_TOKEN_MAX];
    if (sscanf(line, "board %d %d %127s", &round, &table, tok) != 3) continue;
    if (!token_ok(tok) || round < 1 || table < 1) continue;
    lg_board *b = &L->boards[found++];
    b->round = round;
    b->table = table;
    snprintf(b->token, sizeof b->token, "%s", tok);
  }
  fclose(f);
  return found;
}

/* Read up to `want` games that start from the standard position into
 * L->games as ICCS texts. Returns XQ_OK or a status (message printed). */
static int read_games(lg *L, const char *path, int want)
{
  xq_games *it = NULL;
  xq_error err = {0};
  int rc = xq_games_open(&it, path, XQ_PGN_NO_COMMENTS, &err);
  if (rc != XQ_OK) {
    say(L, "%s: %s", path, err.msg[0] ? err.msg : xq_strerror(rc));
    return rc;
  }
  xq_record *rec = malloc(sizeof *rec);
  L->games = calloc((size_t)want, sizeof *L->games);
  if (!rec || !L->games) {
    free(rec);
    xq_games_close(it);
    return XQ_ENOMEM;
  }
  xq_record_init(rec);
  xq_pos start;
  xq_pos_startpos(&start);
  long skipped = 0;
  while (L->ngames < want) {
    rc = xq_games_next(it, rec, &err);
    if (rc == 0) break;
    if (rc < 0 || rec->n_moves == 0 || rec->n_moves < L->min_plies || rec->start.key != start.key) {
      /* A board's game begins at the standard position: others cannot be
       * replayed on a paired table. */
      skipped++;
      continue;
    }
    lg_game *g = &L->games[L->ngames];
    g->mv = malloc((size_t)rec->n_moves * sizeof *g->mv);
    if (!g->mv) break;
    xq_pos p = rec->start;
    for (int i = 0; i < rec->n_moves; i++) {
      xq_undo u;
      xq_move_format(&p, rec->moves[i], XQ_NOTE_ICCS, g->mv[i], sizeof g->mv[i]);
      xq_make(&p, rec->moves[i], &u);
    }
    g->n = rec->n_moves;
    L->ngames++;
  }
  xq_record_free(rec);
  free(rec);
  xq_games_close(it);
  if (skipped)
    say(L, "%ld games skipped (bad, too short or not from the start position)", skipped);
  if (L->ngames == 0) {
    say(L, "no usable game in %s", path);
    return XQ_ENOTATION;
  }
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Boards                                                              */
/* ------------------------------------------------------------------ */

static void board_send_move(lg_board *b);
static void board_stop(lg_board *b, int why);
static void finish_if_idle(lg *L);

static void on_pace_close(uv_handle_t *h) { (void)h; }

static void on_timer_close(uv_handle_t *h)
{
  lg *L = h->data;
  L->timers_open--;
}

/* Close everything still open; the loop then runs dry. */
static void close_all(lg *L)
{
  if (L->closing) return;
  L->closing = 1;
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    if (b->fcount) L->unanswered += b->fcount;
    b->fcount = 0;
    if (b->state != B_DONE) board_stop(b, STOP_TIME);
  }
  /* what is still on its way to the viewers comes first */
  if (L->started) xq__viewers_end(L->views);
  else xq__viewers_close(L->views);
  uv_close((uv_handle_t *)&L->deadline, on_timer_close);
  uv_close((uv_handle_t *)&L->drain, on_timer_close);
  uv_close((uv_handle_t *)&L->start_to, on_timer_close);
  uv_close((uv_handle_t *)&L->sigint, on_timer_close);
}

/* A board is done: stop its timer and close its connection. */
static void board_stop(lg_board *b, int why)
{
  lg *L = b->lg;
  if (b->state == B_DONE) return;
  if (b->state == B_PLAYING || b->state == B_READY) {
    L->stopped_boards++;
    /* The end of --duration ends the run, not the all-boards window. */
    if (L->started && !L->t_first_stop && why != STOP_TIME) {
      L->t_first_stop = uv_hrtime();
      L->acked_at_first_stop = L->acked;
    }
  }
  b->state = B_DONE;
  b->stop = why;
  L->stops[why]++;
  if (b->pace_on) uv_timer_stop(&b->pace);
  if (!uv_is_closing((uv_handle_t *)&b->pace)) uv_close((uv_handle_t *)&b->pace, on_pace_close);
  xq__jsonl_close(&b->c);
  if (b->c2_state) xq__jsonl_close(&b->c2);
  b->c2_state = b->c2_state ? 3 : 0;
  finish_if_idle(L);
}

/* After --duration, or when every board has stopped: close up once no
 * reply is awaited. */
static void finish_if_idle(lg *L)
{
  if (L->closing) return;
  int active = 0;
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    if (b->state == B_DONE) continue;
    if (!L->past_deadline || b->fcount) active++;
  }
  if (!active) close_all(L);
}

/* The clock reading after the move: the mover used some seconds of
 * thinking time, never running the clock below a minute (a flag fall is
 * not what the load test is about). */
static void advance_clock(lg_board *b, int mover)
{
  long left = b->clock[mover];
  long think = 2000 + (long)(xq_random_next(&b->lg->seed) % 28000);
  if (left - think < 60000) think = left > 61000 ? 1000 : 0;
  b->clock[mover] = left - think;
}

static void board_send_move(lg_board *b)
{
  lg *L = b->lg;
  if (b->state != B_PLAYING || L->closing || L->past_deadline) return;
  if (b->fcount >= L->window) {
    L->behind++; /* a paced tick found the last move unanswered */
    return;
  }
  if (b->next >= b->game->n) {
    if (!b->fcount) board_stop(b, STOP_EXHAUSTED);
    return;
  }
  int mi = b->next++;
  advance_clock(b, mi & 1);
  char line[256];
  int len = snprintf(line, sizeof line,
                     "{\"id\":%" PRId64 ",\"op\":\"move\",\"seq\":%" PRId64 ",\"move\":\"%s\",\"clock\":[%ld,%ld]}\n",
                     b->seq, b->seq, b->game->mv[mi], b->clock[0], b->clock[1]);
  lg_sent *s = &b->fifo[(b->fhead + b->fcount) % XQ_LOADGEN_WINDOW_MAX];
  s->seq = b->seq++;
  s->move = mi;
  s->at = uv_hrtime();
  b->fcount++;
  if (xq__jsonl_write(&b->c, line, (size_t)len)) {
    b->fcount--;
    board_stop(b, STOP_LOST);
    return;
  }
  /* --resend: the same event again, at once, on the other connection:
   * its answer must be the event's own outcome */
  if (b->c2_state == 2 && b->rcount < XQ_LOADGEN_WINDOW_MAX) {
    b->rfifo[(b->rhead + b->rcount) % XQ_LOADGEN_WINDOW_MAX] = *s;
    b->rcount++;
    L->resent++;
    if (xq__jsonl_write(&b->c2, line, (size_t)len)) b->c2_state = 3;
  }
}

/* A reply on a board's second connection (--resend): its hello's, or a
 * resent move's, logged as acknowledged when ok. An error (the store
 * failed, the server went away) is counted, not fatal: the crash test
 * kills the server under it. */
static void resend_reply(xq_jsonl *c, cJSON *r)
{
  lg_board *b = c->data;
  lg *L = b->lg;
  if (!r || b->c2_state == 3) { /* lost, or closed with its board */
    xq__jsonl_close(&b->c2);
    b->c2_state = 3;
    return;
  }
  if (b->c2_state == 1) {
    b->c2_state = cJSON_GetObjectItemCaseSensitive(r, "error") ? 3 : 2;
    if (b->c2_state == 3) xq__jsonl_close(&b->c2);
    return;
  }
  if (!b->rcount) return;
  lg_sent s = b->rfifo[b->rhead];
  b->rhead = (b->rhead + 1) % XQ_LOADGEN_WINDOW_MAX;
  b->rcount--;
  cJSON *seq = cJSON_GetObjectItemCaseSensitive(r, "seq");
  long long got;
  if (cJSON_GetObjectItemCaseSensitive(r, "error") || !xq__jsonl_seq(seq, &got) || got != s.seq) {
    L->resend_failed++;
    return;
  }
  if (L->ack) {
    fprintf(L->ack, "%d %d %" PRId64 " %s resend\n", b->round, b->table, s.seq, b->game->mv[s.move]);
    fflush(L->ack);
  }
  L->resend_acked++;
}

static void resend_connected(xq_jsonl *c, int status)
{
  lg_board *b = c->data;
  if (b->c2_state != 1) return;
  if (status < 0 || xq__jsonl_hello(&b->c2, 0, b->token)) {
    xq__jsonl_close(&b->c2);
    b->c2_state = 3;
  }
}

static const xq_jsonl_hooks resend_hooks = {.connected = resend_connected, .reply = resend_reply};

static void start_playing(lg *L);

/* Start once every board has its answer to hello (or is lost) and every
 * viewer's stream has begun (or it is lost): the events of the run reach
 * every viewer. */
static void maybe_start(lg *L)
{
  if (L->greeted == L->nboards && !xq__viewers_pending(L->views)) start_playing(L);
}

static void on_viewers_ready(void *arg) { maybe_start(arg); }

/* The reply to hello. */
static void on_hello(lg_board *b, cJSON *r)
{
  lg *L = b->lg;
  cJSON *err = cJSON_GetObjectItemCaseSensitive(r, "error");
  if (err) {
    cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    const char *c = cJSON_IsString(code) ? code->valuestring : "ERROR";
    say(L, "board %d/%d: hello refused: %s", b->round, b->table, c);
    count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, c);
    L->error_total++;
    L->greeted++;
    board_stop(b, STOP_ERROR);
  } else {
    cJSON *role = cJSON_GetObjectItemCaseSensitive(r, "role");
    cJSON *last = cJSON_GetObjectItemCaseSensitive(r, "last_seq");
    cJSON *round = cJSON_GetObjectItemCaseSensitive(r, "round");
    cJSON *table = cJSON_GetObjectItemCaseSensitive(r, "table");
    L->greeted++;
    if (!cJSON_IsString(role) || strcmp(role->valuestring, "board")) {
      say(L, "token of line %d is not a board token", b->idx + 1);
      L->error_total++;
      count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, "NOT_A_BOARD");
      board_stop(b, STOP_ERROR);
    } else if (cJSON_IsNumber(last) && last->valuedouble > 0) {
      /* The table already has events: the game on the server is not the
       * start of our record. */
      say(L, "board %d/%d already has %.0f events; use a fresh store", b->round, b->table,
          last->valuedouble);
      L->error_total++;
      count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, "NOT_FRESH");
      board_stop(b, STOP_ERROR);
    } else {
      if (cJSON_IsNumber(round)) b->round = round->valueint;
      if (cJSON_IsNumber(table)) b->table = table->valueint;
      b->state = B_READY;
    }
  }
  maybe_start(L);
}

static void on_pace(uv_timer_t *t)
{
  board_send_move(t->data);
}

static void on_drain(uv_timer_t *t)
{
  close_all(t->data);
}

static void stop_sending(lg *L);

static void on_deadline(uv_timer_t *t)
{
  stop_sending(t->data);
}

static void on_sigint(uv_signal_t *sig, int signum)
{
  lg *L = sig->data;
  (void)signum;
  uv_signal_stop(sig);
  say(L, "interrupted; waiting for the replies in flight");
  if (!L->started) close_all(L);
  else stop_sending(L);
}

static void stop_sending(lg *L)
{
  if (L->past_deadline || L->closing) return;
  /* Stop sending; boards with a request in flight wait for its reply,
   * at most XQ_LOADGEN_DRAIN_MS. */
  L->past_deadline = 1;
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    if (b->state != B_DONE && !b->fcount) board_stop(b, STOP_TIME);
    else if (b->pace_on) uv_timer_stop(&b->pace);
  }
  finish_if_idle(L);
  if (!L->closing) uv_timer_start(&L->drain, on_drain, XQ_LOADGEN_DRAIN_MS, 0);
}

static void start_playing(lg *L)
{
  if (L->started || L->closing) return;
  uv_timer_stop(&L->start_to);
  uv_update_time(&L->loop);
  L->started = 1;
  L->t0 = uv_hrtime();
  long long ms;
  /* opts_ok bounds both: the duration to XQ_LOADGEN_DURATION_MAX, the rate to
   * 0..XQ_LOADGEN_RATE_MAX (a rate near 0 is a period of at most UINT32_MAX ms) */
  if (L->duration > 0 && xq_whole_part(L->duration * 1000, 0, XQ_LOADGEN_DURATION_MAX * 1000.0, &ms))
    uv_timer_start(&L->deadline, on_deadline, (uint64_t)ms, 0);
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    if (b->state != B_READY) continue;
    b->state = B_PLAYING;
    if (L->rate > 0) {
      uint64_t period = !xq_whole_part(1000.0 / L->rate, 0, UINT32_MAX, &ms) ? UINT32_MAX : ms ? (uint64_t)ms : 1;
      /* Spread the boards over one period so they do not tick together. */
      uint64_t offset = xq_random_next(&L->seed) % period;
      uv_timer_start(&b->pace, on_pace, offset, period);
      b->pace_on = 1;
    } else {
      for (int w = 0; w < L->window; w++) board_send_move(b);
    }
  }
  finish_if_idle(L);
}

/* The reply to a move. */
static void on_move_reply(lg_board *b, cJSON *r)
{
  lg *L = b->lg;
  uint64_t now = uv_hrtime();
  lg_sent s = b->fifo[b->fhead];
  b->fhead = (b->fhead + 1) % XQ_LOADGEN_WINDOW_MAX;
  b->fcount--;
  cJSON *err = cJSON_GetObjectItemCaseSensitive(r, "error");
  if (err) {
    cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    const char *c = cJSON_IsString(code) ? code->valuestring : "ERROR";
    if (b->over && !strcmp(c, "GAME_OVER")) {
      /* A pipelined move sent before the reply that ended the game. */
      L->late_over++;
    } else {
      L->error_total++;
      count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, c);
      if (b->state == B_PLAYING) board_stop(b, STOP_ERROR);
    }
    if (b->state == B_DONE) return;
    if (!b->fcount && b->over) board_stop(b, STOP_OVER);
    return;
  }
  cJSON *seq = cJSON_GetObjectItemCaseSensitive(r, "seq");
  cJSON *ply = cJSON_GetObjectItemCaseSensitive(r, "ply");
  cJSON *result = cJSON_GetObjectItemCaseSensitive(r, "result");
  cJSON *verdict = cJSON_GetObjectItemCaseSensitive(r, "verdict");
  cJSON *vname = cJSON_GetObjectItemCaseSensitive(verdict, "verdict");
  long long got;
  if (!xq__jsonl_seq(seq, &got) || got != s.seq) {
    L->error_total++;
    count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, "REPLY_SEQ_MISMATCH");
    board_stop(b, STOP_ERROR);
    return;
  }
  /* Acknowledged: durable on the server. Log it before counting it. */
  if (L->ack) {
    fprintf(L->ack, "%d %d %" PRId64 " %s\n", b->round, b->table, s.seq, b->game->mv[s.move]);
    fflush(L->ack);
  }
  L->acked++;
  L->t_last = now;
  xq__samples_add(&L->lat, now - s.at);
  count_name(L->verdicts, &L->nverdicts, XQ_LOADGEN_VERDICTS_MAX,
             cJSON_IsString(vname) ? vname->valuestring : "?");
  if (b->state == B_DONE) return;
  b->ply++;
  if (cJSON_IsString(result) && strcmp(result->valuestring, "*")) b->over = 1;
  if (b->over) {
    if (!b->fcount) board_stop(b, STOP_OVER);
    return;
  }
  if (cJSON_IsNumber(ply) && ply->valueint != b->ply) {
    /* The move was not applied as recorded (a foul took it back, a
     * ruling refused it): the rest of the record no longer fits. */
    board_stop(b, STOP_DIVERGED);
    return;
  }
  if (L->past_deadline) {
    if (!b->fcount) board_stop(b, STOP_TIME);
  } else if (L->rate <= 0) {
    board_send_move(b);
  } else if (b->next >= b->game->n && !b->fcount) {
    board_stop(b, STOP_EXHAUSTED);
  }
}

/* A board's connection failed while reading (c->failed says how). */
static void board_failed(lg_board *b)
{
  lg *L = b->lg;
  if (b->c.failed == XQ_JSONL_LOST) {
    if (b->fcount) L->unanswered += b->fcount;
    b->fcount = 0;
    if (b->state == B_HELLO) L->greeted++;
    board_stop(b, STOP_LOST);
    if (!L->started) maybe_start(L);
    return;
  }
  L->error_total++;
  count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX,
             b->c.failed == XQ_JSONL_TOO_LONG ? "REPLY_TOO_LONG" : "BAD_REPLY");
  board_stop(b, STOP_ERROR);
}

/* A reply to one of the board's requests (broadcast lines are not
 * ours to count: the client drops them). */
static void board_reply(xq_jsonl *c, cJSON *r)
{
  lg_board *b = c->data;
  lg *L = b->lg;
  if (!r) board_failed(b);
  else if (b->state == B_HELLO) on_hello(b, r);
  else if (b->fcount) on_move_reply(b, r);
  else {
    L->error_total++;
    count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, "UNEXPECTED_REPLY");
    board_stop(b, STOP_ERROR);
  }
}

static void board_connected(xq_jsonl *c, int status)
{
  lg_board *b = c->data;
  lg *L = b->lg;
  if (status < 0) {
    say(L, "board %d/%d: connect: %s", b->round, b->table, uv_strerror(status));
    L->greeted++;
    board_stop(b, STOP_LOST);
    maybe_start(L);
    return;
  }
  b->state = B_HELLO;
  if (xq__jsonl_hello(&b->c, 0, b->token)) {
    L->greeted++;
    board_stop(b, STOP_LOST);
    maybe_start(L);
  }
}

static const xq_jsonl_hooks board_hooks = {.connected = board_connected, .reply = board_reply};

static void on_start_timeout(uv_timer_t *t)
{
  lg *L = t->data;
  say(L, "%d of %d boards greeted and %d viewers not subscribed after %d ms; starting with what is there",
      L->greeted, L->nboards, xq__viewers_pending(L->views), XQ_LOADGEN_CONNECT_MS);
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    if (b->state == B_CONNECTING || b->state == B_HELLO) {
      L->greeted++;
      board_stop(b, STOP_LOST);
    }
  }
  if (!L->started) start_playing(L);
}

/* ------------------------------------------------------------------ */
/* Report                                                              */
/* ------------------------------------------------------------------ */

static void report(lg *L)
{
  if (!L->out) return;
  double elapsed = L->t_last > L->t0 ? (double)(L->t_last - L->t0) / 1e9 : 0;
  fprintf(L->out, "boards %d (games %d, %s)\n", L->nboards, L->ngames,
          L->rate > 0 ? "timer-paced" : "full speed");
  fprintf(L->out, "stopped: game over %ld, record ended %ld, left the record %ld, time %ld, error %ld, connection lost %ld\n",
          L->stops[STOP_OVER], L->stops[STOP_EXHAUSTED], L->stops[STOP_DIVERGED], L->stops[STOP_TIME],
          L->stops[STOP_ERROR], L->stops[STOP_LOST]);
  if (L->t0 > L->t_connect)
    fprintf(L->out, "connected and greeted in %.3f s (not part of the rate)\n", (double)(L->t0 - L->t_connect) / 1e9);
  fprintf(L->out, "acked %ld\n", L->acked);
  fprintf(L->out, "errors %ld", L->error_total);
  for (int i = 0; i < L->nerrors; i++) fprintf(L->out, " %s=%ld", L->errors[i].name, L->errors[i].n);
  fputc('\n', L->out);
  if (L->unanswered) fprintf(L->out, "unanswered %ld\n", L->unanswered);
  if (L->resend)
    fprintf(L->out, "resent %ld on second connections: acked %ld, errors or lost %ld\n", L->resent, L->resend_acked,
            L->resend_failed + (L->resent - L->resend_acked - L->resend_failed));
  if (L->behind) fprintf(L->out, "ticks skipped %ld (the previous move was still unanswered)\n", L->behind);
  if (L->late_over) fprintf(L->out, "late GAME_OVER %ld (pipelined past the end of a game)\n", L->late_over);
  fprintf(L->out, "verdicts");
  for (int i = 0; i < L->nverdicts; i++) fprintf(L->out, " %s=%ld", L->verdicts[i].name, L->verdicts[i].n);
  fputc('\n', L->out);
  fprintf(L->out, "elapsed %.3f s\n", elapsed);
  fprintf(L->out, "moves/s %.0f\n", elapsed > 0 ? (double)L->acked / elapsed : 0.0);
  if (L->t_first_stop > L->t0) {
    double st = (double)(L->t_first_stop - L->t0) / 1e9;
    fprintf(L->out, "all boards playing %.3f s: %ld moves, %.0f moves/s\n", st, L->acked_at_first_stop,
            st > 0 ? (double)L->acked_at_first_stop / st : 0.0);
  } else if (L->started) {
    fprintf(L->out, "all boards playing %.3f s: %ld moves, %.0f moves/s\n", elapsed, L->acked,
            elapsed > 0 ? (double)L->acked / elapsed : 0.0);
  }
  xq__samples_print(&L->lat, L->out, "latency ms");
  L->viewers_differ = xq__viewers_report(L->views, L->out) > 0;
  fflush(L->out);
}

/* ------------------------------------------------------------------ */
/* The run                                                             */
/* ------------------------------------------------------------------ */

void xq_loadgen_opts_default(xq_loadgen_opts *o)
{
  memset(o, 0, sizeof *o);
  o->window = 1;
  o->duration = -1;
  o->seed = 1;
  o->viewer_cpu = -1;
}

/* Options that the command line would have refused (it checks them
 * first, with its own words). */
static int opts_ok(const xq_loadgen_opts *o)
{
  return o->connect && o->tokens && o->games && o->boards >= 1 && o->boards <= XQ_LOADGEN_BOARDS_MAX &&
         o->window >= 1 && o->window <= XQ_LOADGEN_WINDOW_MAX && o->min_plies >= 0 &&
         o->min_plies <= XQ_REC_PLIES_MAX && o->rate >= 0 && o->rate <= XQ_LOADGEN_RATE_MAX &&
         !(o->duration > XQ_LOADGEN_DURATION_MAX) && o->viewers >= 0 &&
         o->sse >= 0 && o->viewers + o->sse <= XQ_LOADGEN_VIEWERS_MAX && o->viewer_urls >= 0 &&
         o->viewer_urls <= XQ_LOADGEN_VIEWER_URLS_MAX && (!o->sse || o->http || o->viewer_urls);
}

/* Take the options, the tokens, the games and the ack log: everything
 * before the first connection. Returns XQ_OK or a status (said). */
static int setup(lg *L, const xq_loadgen_opts *o)
{
  if (!opts_ok(o)) {
    say(L, "bad options");
    return XQ_EINVAL;
  }
  L->nboards = o->boards;
  L->rate = o->rate;
  L->duration = o->duration;
  L->window = o->rate > 0 ? 1 : o->window;
  L->seed = o->seed;
  L->min_plies = o->min_plies;
  L->resend = o->resend;
  if (xq_jsonl_addr(o->connect, &L->addr) != XQ_OK || (o->http && xq_jsonl_addr(o->http, &L->http_addr) != XQ_OK)) {
    say(L, "bad address (want HOST:PORT)");
    return XQ_EINVAL;
  }
  for (int i = 0; i < o->viewer_urls; i++) {
    char hp[XQ_URL_HOST_MAX + 8];
    snprintf(hp, sizeof hp, "%s:%s", o->viewer_url[i].host, o->viewer_url[i].port);
    if (xq_jsonl_addr(hp, &L->url_addrs[i]) != XQ_OK) {
      say(L, "a viewer URL's host must be an IP address or localhost, not %s", o->viewer_url[i].host);
      return XQ_EINVAL;
    }
  }
  L->boards = calloc((size_t)L->nboards, sizeof *L->boards);
  if (!L->boards) {
    say(L, "out of memory");
    return XQ_ENOMEM;
  }
  int found = read_tokens(L, o->tokens);
  if (found < 0) return XQ_EIO;
  if (found < L->nboards) {
    say(L, "%s has %d board tokens, %d needed", o->tokens, found, L->nboards);
    return XQ_EINVAL;
  }
  int rc = read_games(L, o->games, L->nboards < XQ_LOADGEN_GAMES_MAX ? L->nboards : XQ_LOADGEN_GAMES_MAX);
  if (rc != XQ_OK) return rc;
  if (o->ack_log) {
    L->ack = fopen(o->ack_log, "w");
    if (!L->ack) {
      say(L, "cannot create %s: %s", o->ack_log, strerror(errno));
      return XQ_EIO;
    }
  }
  if (o->viewer_log) {
    L->stream_log = fopen(o->viewer_log, "w");
    if (!L->stream_log) {
      say(L, "cannot create %s: %s", o->viewer_log, strerror(errno));
      return XQ_EIO;
    }
  }
  return XQ_OK;
}

/* Connect the viewers (they stay until the run ends). */
static int viewers_start(lg *L, const xq_loadgen_opts *o)
{
  xq__view_opts vo = {
    .jsonl = o->viewers,
    .sse = o->sse,
    .jsonl_addr = (const struct sockaddr *)&L->addr,
    .sse_addr = (const struct sockaddr *)&L->http_addr,
    .urls = o->viewer_url,
    .url_addrs = L->url_addrs,
    .nurls = o->viewer_urls,
    .stream_log = L->stream_log,
    .log = L->log,
    .cpu = o->viewer_cpu,
    .ready = on_viewers_ready,
    .arg = L,
  };
  int rc = xq__viewers_start(&L->loop, &vo, &L->views);
  if (rc) say(L, "out of memory");
  return rc;
}

/* Give every board its game and start connecting it. */
static void boards_start(lg *L)
{
  uint64_t gseed = L->seed;
  int goff = (int)(xq_random_next(&gseed) % (uint64_t)L->ngames);
  if (L->seed == 1) goff = 0; /* the default seed: board i plays game i */
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    b->lg = L;
    b->idx = i;
    b->game = &L->games[(i + goff) % L->ngames];
    b->seq = 1;
    b->clock[0] = b->clock[1] = XQ_LOADGEN_CLOCK_START_MS;
    uv_timer_init(&L->loop, &b->pace);
    b->pace.data = b;
    if (xq__jsonl_open(&b->c, &L->loop, (const struct sockaddr *)&L->addr, XQ_LOADGEN_REPLY_MAX, &board_hooks, b)) {
      say(L, "connect: %s", uv_strerror(b->c.uverr));
      L->greeted++;
      board_stop(b, STOP_LOST);
    } else if (L->resend) {
      b->c2_state = 1;
      if (xq__jsonl_open(&b->c2, &L->loop, (const struct sockaddr *)&L->addr, XQ_LOADGEN_REPLY_MAX, &resend_hooks, b)) {
        xq__jsonl_close(&b->c2);
        b->c2_state = 3;
      }
    }
  }
}

/* Run the boards and viewers on a loop of their own until every one is
 * done. Returns XQ_OK, or XQ_EIO when no loop could be made. */
static int play(lg *L, const xq_loadgen_opts *o)
{
  if (uv_loop_init(&L->loop)) return XQ_EIO;
  uv_timer_init(&L->loop, &L->deadline);
  uv_timer_init(&L->loop, &L->drain);
  uv_timer_init(&L->loop, &L->start_to);
  L->deadline.data = L->drain.data = L->start_to.data = L;
  uv_signal_init(&L->loop, &L->sigint);
  L->sigint.data = L;
  uv_signal_start(&L->sigint, on_sigint, SIGINT);
  L->timers_open = 4;
  uv_timer_start(&L->start_to, on_start_timeout, XQ_LOADGEN_CONNECT_MS, 0);
  L->t_connect = uv_hrtime();
  if (viewers_start(L, o)) close_all(L);
  else boards_start(L);
  if (!L->started) maybe_start(L);
  uv_run(&L->loop, UV_RUN_DEFAULT);
  if (uv_loop_close(&L->loop)) say(L, "handles left open at the end");
  return XQ_OK;
}

int xq_loadgen_run(const xq_loadgen_opts *o, FILE *out, FILE *log)
{
  lg *L = calloc(1, sizeof *L);
  if (!L) return XQ_ENOMEM;
  L->out = out;
  L->log = log;
  int rc = setup(L, o);
  if (!rc) rc = play(L, o);
  if (!rc) {
    report(L);
    if (L->error_total || L->stops[STOP_LOST] || L->unanswered || L->acked == 0 || xq__viewers_lost(L->views) ||
        L->viewers_differ)
      rc = XQ_EIO;
  }
  if (L->ack) fclose(L->ack);
  if (L->stream_log) fclose(L->stream_log);
  for (int i = 0; i < L->ngames; i++) free(L->games[i].mv);
  free(L->games);
  free(L->boards);
  xq__viewers_free(L->views);
  xq__samples_free(&L->lat);
  free(L);
  return rc;
}
