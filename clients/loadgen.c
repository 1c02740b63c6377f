/*
 * loadgen.c -- `xqref loadgen`: replay real games as N digital boards
 * against a running server and measure what it sustains.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <uv.h>

#include "clientlimits.h"
#include "jsonl.h"
#include "net.h"
#include "records.h"

#define CLOCK_START_MS 5400000L            /* 90 minutes a side */

static const char loadgen_usage[] =
  "usage: xqref loadgen --connect HOST:PORT --tokens FILE --boards N --games FILE.pgn\n"
  "                     [--rate R] [--duration S] [--window W] [--min-plies P] [--seed K]\n"
  "                     [--viewers V] [--sse S --http HOST:PORT]\n"
  "\n"
  "Replay the games of FILE.pgn (any format the records module reads) as N\n"
  "digital boards against a running `xqref serve`. FILE holds lines\n"
  "\"board ROUND TABLE TOKEN\" (as printed by `xqref serve --demo`); the first\n"
  "N are used, board i plays game i (games are reused when there are fewer).\n"
  "\n"
  "  --rate R       moves per second per board, timer-paced (default: full\n"
  "                 speed, the next move as soon as the reply arrives)\n"
  "  --duration S   stop sending after S seconds (default: until every\n"
  "                 board's game is over or its record has no more moves;\n"
  "                 Ctrl-C stops sending too)\n"
  "  --window W     requests in flight per board at full speed (default 1)\n"
  "  --min-plies P  skip games shorter than P plies (keeps every board busy\n"
  "                 longer: the rate with all boards playing covers more)\n"
  "  --seed K       varies which game each board plays and the clocks\n"
  "  --viewers V    also V JSON-lines viewers on --connect that `watch` every\n"
  "                 round, for the whole run\n"
  "  --sse S        also S Server-Sent-Events viewers (GET /api/events) on\n"
  "                 --http HOST:PORT (the `http` address `serve` prints)\n"
  "\n"
  "Prints boards, acknowledged moves, errors by code, elapsed time, moves/s\n"
  "(overall and while every board was playing) and the latency from send to\n"
  "reply (p50 p90 p99 p99.9 max, ms). Exit status 1 when a reply was an\n"
  "error or a connection was lost; verdicts such as fouls are not errors.\n";

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
} lg_board;

/* A viewer: one connection that follows the broadcast for the whole run
 * (JSON-lines `watch`, or SSE); what it receives is counted. */
enum { V_JSONL, V_SSE };
typedef struct lg_viewer {
  uv_tcp_t tcp;                /* first member */
  uv_connect_t creq;
  lg *lg;
  int kind;                    /* V_* */
  int connected, closed;
  long lines;                  /* events received (lines starting "data:" for SSE) */
  long bytes;
  int at_line_start;           /* SSE: the next byte starts a line */
} lg_viewer;

typedef struct lg_count {
  char name[32];
  long n;
} lg_count;

struct lg {
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
  uint64_t *lat;
  long nlat, lat_cap;
  long lat_dropped;
  int fatal;
  lg_viewer *viewers;          /* --viewers, then --sse */
  int nviewers, njsonl;
  struct sockaddr_storage http_addr;
  int viewers_open;            /* handles still open */
  long viewers_lost;           /* connections the server closed or refused */
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

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
    fprintf(stderr, "xqref loadgen: cannot open %s: %s\n", path, strerror(errno));
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
    fprintf(stderr, "xqref loadgen: %s: %s\n", path, err.msg[0] ? err.msg : xq_strerror(rc));
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
    fprintf(stderr, "xqref loadgen: %ld games skipped (bad, too short or not from the start position)\n", skipped);
  if (L->ngames == 0) {
    fprintf(stderr, "xqref loadgen: no usable game in %s\n", path);
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

static void on_viewer_close(uv_handle_t *h)
{
  lg_viewer *v = h->data;
  v->lg->viewers_open--;
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
  for (int i = 0; i < L->nviewers; i++) {
    lg_viewer *v = &L->viewers[i];
    if (!v->closed) {
      v->closed = 1;
      uv_close((uv_handle_t *)&v->tcp, on_viewer_close);
    }
  }
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
  xq_jsonl_close(&b->c);
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
  if (xq_jsonl_write(&b->c, line, (size_t)len)) {
    b->fcount--;
    board_stop(b, STOP_LOST);
  }
}

static void record_latency(lg *L, uint64_t ns)
{
  if (L->nlat == L->lat_cap) {
    if (L->lat_cap >= XQ_LOADGEN_SAMPLES_MAX) {
      L->lat_dropped++;
      return;
    }
    long cap = L->lat_cap ? L->lat_cap * 2 : 65536;
    uint64_t *p = realloc(L->lat, (size_t)cap * sizeof *p);
    if (!p) {
      L->lat_dropped++;
      return;
    }
    L->lat = p;
    L->lat_cap = cap;
  }
  L->lat[L->nlat++] = ns;
}

static void start_playing(lg *L);

/* The reply to hello. */
static void on_hello(lg_board *b, cJSON *r)
{
  lg *L = b->lg;
  cJSON *err = cJSON_GetObjectItemCaseSensitive(r, "error");
  if (err) {
    cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    const char *c = cJSON_IsString(code) ? code->valuestring : "ERROR";
    fprintf(stderr, "xqref loadgen: board %d/%d: hello refused: %s\n", b->round, b->table, c);
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
      fprintf(stderr, "xqref loadgen: token of line %d is not a board token\n", b->idx + 1);
      L->error_total++;
      count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, "NOT_A_BOARD");
      board_stop(b, STOP_ERROR);
    } else if (cJSON_IsNumber(last) && last->valuedouble > 0) {
      /* The table already has events: the game on the server is not the
       * start of our record. */
      fprintf(stderr, "xqref loadgen: board %d/%d already has %.0f events; use a fresh store\n",
              b->round, b->table, last->valuedouble);
      L->error_total++;
      count_name(L->errors, &L->nerrors, XQ_LOADGEN_ERRCODES_MAX, "NOT_FRESH");
      board_stop(b, STOP_ERROR);
    } else {
      if (cJSON_IsNumber(round)) b->round = round->valueint;
      if (cJSON_IsNumber(table)) b->table = table->valueint;
      b->state = B_READY;
    }
  }
  if (L->greeted == L->nboards) start_playing(L);
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
  fprintf(stderr, "xqref loadgen: interrupted; waiting for the replies in flight\n");
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
  if (L->duration > 0) uv_timer_start(&L->deadline, on_deadline, (uint64_t)(L->duration * 1000), 0);
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    if (b->state != B_READY) continue;
    b->state = B_PLAYING;
    if (L->rate > 0) {
      uint64_t period = (uint64_t)(1000.0 / L->rate);
      if (period < 1) period = 1;
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
  if (!cJSON_IsNumber(seq) || (int64_t)seq->valuedouble != s.seq) {
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
  record_latency(L, now - s.at);
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
    if (!L->started && L->greeted == L->nboards) start_playing(L);
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
    fprintf(stderr, "xqref loadgen: board %d/%d: connect: %s\n", b->round, b->table, uv_strerror(status));
    L->greeted++;
    board_stop(b, STOP_LOST);
    if (L->greeted == L->nboards) start_playing(L);
    return;
  }
  b->state = B_HELLO;
  if (xq_jsonl_hello(&b->c, 0, b->token)) {
    L->greeted++;
    board_stop(b, STOP_LOST);
    if (L->greeted == L->nboards) start_playing(L);
  }
}

static const xq_jsonl_hooks board_hooks = {.connected = board_connected, .reply = board_reply};

static void on_start_timeout(uv_timer_t *t)
{
  lg *L = t->data;
  fprintf(stderr, "xqref loadgen: %d of %d boards greeted after %d ms; starting with those\n",
          L->greeted, L->nboards, XQ_LOADGEN_CONNECT_MS);
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
/* Viewers (--viewers, --sse)                                          */
/* ------------------------------------------------------------------ */

static void viewer_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
  static char scratch[XQ_LOADGEN_VIEWER_BUF]; /* one loop thread: bytes are only counted */
  (void)h;
  (void)hint;
  *buf = uv_buf_init(scratch, sizeof scratch);
}

static void viewer_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  lg_viewer *v = st->data;
  lg *L = v->lg;
  if (nread == 0) return;
  if (nread < 0) {
    /* the server ended a viewer before the run did: counted, an error */
    if (!v->closed && !L->closing) {
      L->viewers_lost++;
      v->closed = 1;
      uv_close((uv_handle_t *)&v->tcp, on_viewer_close);
    }
    return;
  }
  v->bytes += nread;
  for (ssize_t i = 0; i < nread; i++) {
    char ch = buf->base[i];
    if (v->kind == V_JSONL) v->lines += ch == '\n';
    else {
      /* SSE: one "data:" line per event */
      if (v->at_line_start && ch == 'd') v->lines++;
      v->at_line_start = ch == '\n';
    }
  }
}

static void viewer_connected(uv_connect_t *req, int status)
{
  lg_viewer *v = req->data;
  lg *L = v->lg;
  if (v->closed) return;
  if (status < 0) {
    fprintf(stderr, "xqref loadgen: viewer %d: connect: %s\n", (int)(v - L->viewers), uv_strerror(status));
    L->viewers_lost++;
    v->closed = 1;
    uv_close((uv_handle_t *)&v->tcp, on_viewer_close);
    return;
  }
  v->connected = 1;
  v->at_line_start = 1;
  static const char watch[] = "{\"id\":0,\"op\":\"watch\"}\n";
  static const char sse[] = "GET /api/events HTTP/1.1\r\nHost: xqref\r\nAccept: text/event-stream\r\n\r\n";
  const char *text = v->kind == V_JSONL ? watch : sse;
  size_t len = v->kind == V_JSONL ? sizeof watch - 1 : sizeof sse - 1;
  uv_buf_t b = uv_buf_init((char *)text, (unsigned)len);
  xq_write_queued((uv_stream_t *)&v->tcp, &b, 1); /* a failed write shows as a read error */
  uv_read_start((uv_stream_t *)&v->tcp, viewer_alloc, viewer_read);
}

/* Connect every viewer (they stay until the run ends). */
static void viewers_start(lg *L)
{
  for (int i = 0; i < L->nviewers; i++) {
    lg_viewer *v = &L->viewers[i];
    v->lg = L;
    v->kind = i < L->njsonl ? V_JSONL : V_SSE;
    uv_tcp_init(&L->loop, &v->tcp);
    v->tcp.data = v->creq.data = v;
    L->viewers_open++;
    const struct sockaddr *sa = (const struct sockaddr *)(v->kind == V_JSONL ? &L->addr : &L->http_addr);
    if (uv_tcp_connect(&v->creq, &v->tcp, sa, viewer_connected)) {
      L->viewers_lost++;
      v->closed = 1;
      uv_close((uv_handle_t *)&v->tcp, on_viewer_close);
    }
  }
}

/* ------------------------------------------------------------------ */
/* Report                                                              */
/* ------------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static double percentile_ms(const uint64_t *v, long n, double q)
{
  if (n == 0) return 0;
  long k = (long)(q * (double)n + 0.999999999) - 1; /* nearest rank */
  if (k < 0) k = 0;
  if (k >= n) k = n - 1;
  return (double)v[k] / 1e6;
}

static void report(lg *L)
{
  double elapsed = L->t_last > L->t0 ? (double)(L->t_last - L->t0) / 1e9 : 0;
  printf("boards %d (games %d, %s)\n", L->nboards, L->ngames,
         L->rate > 0 ? "timer-paced" : "full speed");
  printf("stopped: game over %ld, record ended %ld, left the record %ld, time %ld, error %ld, connection lost %ld\n",
         L->stops[STOP_OVER], L->stops[STOP_EXHAUSTED], L->stops[STOP_DIVERGED], L->stops[STOP_TIME],
         L->stops[STOP_ERROR], L->stops[STOP_LOST]);
  if (L->t0 > L->t_connect)
    printf("connected and greeted in %.3f s (not part of the rate)\n", (double)(L->t0 - L->t_connect) / 1e9);
  printf("acked %ld\n", L->acked);
  printf("errors %ld", L->error_total);
  for (int i = 0; i < L->nerrors; i++) printf(" %s=%ld", L->errors[i].name, L->errors[i].n);
  putchar('\n');
  if (L->unanswered) printf("unanswered %ld\n", L->unanswered);
  if (L->behind) printf("ticks skipped %ld (the previous move was still unanswered)\n", L->behind);
  if (L->late_over) printf("late GAME_OVER %ld (pipelined past the end of a game)\n", L->late_over);
  printf("verdicts");
  for (int i = 0; i < L->nverdicts; i++) printf(" %s=%ld", L->verdicts[i].name, L->verdicts[i].n);
  putchar('\n');
  printf("elapsed %.3f s\n", elapsed);
  printf("moves/s %.0f\n", elapsed > 0 ? (double)L->acked / elapsed : 0.0);
  if (L->t_first_stop > L->t0) {
    double st = (double)(L->t_first_stop - L->t0) / 1e9;
    printf("all boards playing %.3f s: %ld moves, %.0f moves/s\n", st, L->acked_at_first_stop,
           st > 0 ? (double)L->acked_at_first_stop / st : 0.0);
  } else if (L->started) {
    printf("all boards playing %.3f s: %ld moves, %.0f moves/s\n", elapsed, L->acked,
           elapsed > 0 ? (double)L->acked / elapsed : 0.0);
  }
  if (L->nlat) qsort(L->lat, (size_t)L->nlat, sizeof *L->lat, cmp_u64);
  printf("latency ms p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f\n",
         percentile_ms(L->lat, L->nlat, 0.50), percentile_ms(L->lat, L->nlat, 0.90),
         percentile_ms(L->lat, L->nlat, 0.99), percentile_ms(L->lat, L->nlat, 0.999),
         L->nlat ? (double)L->lat[L->nlat - 1] / 1e6 : 0.0);
  if (L->lat_dropped) printf("latency samples beyond %ld not kept: %ld\n", (long)XQ_LOADGEN_SAMPLES_MAX, L->lat_dropped);
  if (L->nviewers) {
    long ev[2] = {0, 0}, by = 0, conn = 0;
    for (int i = 0; i < L->nviewers; i++) {
      ev[L->viewers[i].kind] += L->viewers[i].lines;
      by += L->viewers[i].bytes;
      conn += L->viewers[i].connected;
    }
    printf("viewers %d (watch %d, sse %d): connected %ld, lost %ld, events received watch %ld sse %ld, %ld bytes\n",
           L->nviewers, L->njsonl, L->nviewers - L->njsonl, conn, L->viewers_lost, ev[V_JSONL], ev[V_SSE], by);
  }
  fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* The subcommand                                                      */
/* ------------------------------------------------------------------ */

/* One descriptor per board: allow as many as the hard limit (the usual
 * soft limit, 1024, is below XQ_LOADGEN_BOARDS_MAX). */
static void raise_nofile(void)
{
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

static int usage_error(const char *msg, const char *arg)
{
  fprintf(stderr, "xqref loadgen: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
  fprintf(stderr, "usage: xqref loadgen --connect HOST:PORT --tokens FILE --boards N --games FILE.pgn "
                  "[--rate R] [--duration S] [--window W] [--min-plies P] [--seed K]\n");
  return 2;
}

int xq_loadgen_main(int argc, char **argv)
{
  const char *connect = NULL, *tokens = NULL, *games = NULL, *ack_log = NULL, *http = NULL;
  long nboards = 0, window = 1, min_plies = 0, nviewers = 0, nsse = 0;
  double rate = 0, duration = -1;
  uint64_t seed = 1;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(loadgen_usage, stdout);
      return 0;
    }
    if (i + 1 >= argc) return usage_error("missing value after", a);
    const char *v = argv[++i];
    char *end = NULL;
    if (!strcmp(a, "--connect")) connect = v;
    else if (!strcmp(a, "--tokens")) tokens = v;
    else if (!strcmp(a, "--games")) games = v;
    else if (!strcmp(a, "--ack-log")) ack_log = v; /* crash test: one line per acknowledged event */
    else if (!strcmp(a, "--boards")) {
      nboards = strtol(v, &end, 10);
      if (*end || nboards < 1 || nboards > XQ_LOADGEN_BOARDS_MAX) return usage_error("--boards must be 1..4000, not", v);
    } else if (!strcmp(a, "--window")) {
      window = strtol(v, &end, 10);
      if (*end || window < 1 || window > XQ_LOADGEN_WINDOW_MAX) return usage_error("--window must be 1..64, not", v);
    } else if (!strcmp(a, "--min-plies")) {
      min_plies = strtol(v, &end, 10);
      if (*end || min_plies < 0 || min_plies > XQ_REC_PLIES_MAX) return usage_error("--min-plies must be 0..2048, not", v);
    } else if (!strcmp(a, "--rate")) {
      rate = strtod(v, &end);
      if (*end || !(rate > 0 && rate <= XQ_LOADGEN_RATE_MAX)) return usage_error("--rate must be > 0 and <= 1000, not", v);
    } else if (!strcmp(a, "--duration")) {
      duration = strtod(v, &end);
      if (*end || !(duration > 0 && duration <= 86400)) return usage_error("--duration must be > 0 seconds, not", v);
    } else if (!strcmp(a, "--viewers") || !strcmp(a, "--sse")) {
      long n = strtol(v, &end, 10);
      if (*end || n < 0 || n > XQ_LOADGEN_VIEWERS_MAX) return usage_error("--viewers and --sse must be 0..4000, not", v);
      if (a[2] == 'v') nviewers = n;
      else nsse = n;
    } else if (!strcmp(a, "--http")) {
      http = v;
    } else if (!strcmp(a, "--seed")) {
      seed = strtoull(v, &end, 10);
      if (*end || !*v) return usage_error("--seed must be a number, not", v);
    } else {
      return usage_error("unknown option", a);
    }
  }
  if (!connect || !tokens || !games || !nboards)
    return usage_error("--connect, --tokens, --boards and --games are required", NULL);
  if (nviewers + nsse > XQ_LOADGEN_VIEWERS_MAX) return usage_error("--viewers plus --sse must be at most 4000", NULL);
  if (nsse && !http) return usage_error("--sse needs --http HOST:PORT", NULL);

  static lg L0;
  lg *L = &L0;
  memset(L, 0, sizeof *L);
  L->nboards = (int)nboards;
  L->rate = rate;
  L->duration = duration;
  L->window = rate > 0 ? 1 : (int)window;
  L->seed = seed;
  L->min_plies = (int)min_plies;
  if (xq_jsonl_addr(connect, &L->addr) != XQ_OK) return usage_error("--connect wants HOST:PORT, not", connect);
  if (http && xq_jsonl_addr(http, &L->http_addr) != XQ_OK) return usage_error("--http wants HOST:PORT, not", http);
  L->nviewers = (int)(nviewers + nsse);
  L->njsonl = (int)nviewers;

  int rc = 1;
  L->boards = calloc((size_t)nboards, sizeof *L->boards);
  L->viewers = L->nviewers ? calloc((size_t)L->nviewers, sizeof *L->viewers) : NULL;
  if (!L->boards || (L->nviewers && !L->viewers)) {
    fprintf(stderr, "xqref loadgen: out of memory\n");
    return 1;
  }
  int found = read_tokens(L, tokens);
  if (found < 0) goto out;
  if (found < nboards) {
    fprintf(stderr, "xqref loadgen: %s has %d board tokens, %ld needed\n", tokens, found, nboards);
    goto out;
  }
  if (read_games(L, games, (int)(nboards < XQ_LOADGEN_GAMES_MAX ? nboards : XQ_LOADGEN_GAMES_MAX)) != XQ_OK)
    goto out;
  if (ack_log) {
    L->ack = fopen(ack_log, "w");
    if (!L->ack) {
      fprintf(stderr, "xqref loadgen: cannot create %s: %s\n", ack_log, strerror(errno));
      goto out;
    }
  }

  signal(SIGPIPE, SIG_IGN);
  raise_nofile();
  if (uv_loop_init(&L->loop)) goto out;
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
  viewers_start(L);
  uint64_t gseed = seed;
  int goff = (int)(xq_random_next(&gseed) % (uint64_t)L->ngames);
  if (seed == 1) goff = 0; /* the default seed: board i plays game i */
  for (int i = 0; i < L->nboards; i++) {
    lg_board *b = &L->boards[i];
    b->lg = L;
    b->idx = i;
    b->game = &L->games[(i + goff) % L->ngames];
    b->seq = 1;
    b->clock[0] = b->clock[1] = CLOCK_START_MS;
    uv_timer_init(&L->loop, &b->pace);
    b->pace.data = b;
    if (xq_jsonl_open(&b->c, &L->loop, (const struct sockaddr *)&L->addr, XQ_LOADGEN_REPLY_MAX, &board_hooks, b)) {
      fprintf(stderr, "xqref loadgen: connect: %s\n", uv_strerror(b->c.uverr));
      L->greeted++;
      board_stop(b, STOP_LOST);
    }
  }
  if (L->greeted == L->nboards && !L->started) start_playing(L);
  uv_run(&L->loop, UV_RUN_DEFAULT);
  if (uv_loop_close(&L->loop)) fprintf(stderr, "xqref loadgen: handles left open at the end\n");

  report(L);
  rc = (L->error_total || L->stops[STOP_LOST] || L->unanswered || L->acked == 0 || L->viewers_lost) ? 1 : 0;

out:
  if (L->ack) fclose(L->ack);
  for (int i = 0; i < L->ngames; i++) free(L->games[i].mv);
  free(L->games);
  free(L->boards);
  free(L->viewers);
  free(L->lat);
  return rc;
}
