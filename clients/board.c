/*
 * board.c -- play a table from a terminal as a digital board would
 * (`xqref board`, clients.h). Each line read from the input (a terminal
 * or a pipe) becomes one board event with the next sequence number; the
 * server's verdict is printed in words, then the board.
 *
 * One request at a time, each reply awaited on a loop of the board's own
 * (jsonl.h): a person types slower than any reply, and a script piping
 * lines in gets the same order.
 */
#include <cjson/cJSON.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clientlimits.h"
#include "clients.h"
#include "jsonl.h"

typedef struct board_session {
  FILE *in, *out, *log;        /* the commands, the session, the messages (NULL: none) */
  uv_loop_t loop;              /* runs while a reply is awaited */
  xq_jsonl c;
  int open;                    /* c is open (to be closed) */
  long long seq;               /* last sequence number used */
  int round, table;
  int id;
  int lang_zh, show_board;
  char fen[XQ_FEN_INPUT_MAX + 1]; /* last known position, "" unknown */
  int errors;
} board_session;

/* A message to s->log, when there is one. */
static void say(const board_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const board_session *s, const char *fmt, ...)
{
  if (!s->log) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(s->log, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Connection                                                          */
/* ------------------------------------------------------------------ */

/* Connect to the first address of HOST:PORT that answers. Returns 0, -1
 * (the message printed) or -2 when the text is not HOST:PORT. */
static int dial(board_session *s, const char *hostport)
{
  char host[XQ_JSONL_HOST_MAX];
  const char *colon = strrchr(hostport, ':');
  if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host) return -2;
  memcpy(host, hostport, (size_t)(colon - hostport));
  host[colon - hostport] = 0;
  struct addrinfo hints = {0}, *res, *ai;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int gr = getaddrinfo(host, colon + 1, &hints, &res);
  if (gr) {
    say(s, "xqref board: %s: %s\n", hostport, gai_strerror(gr));
    return -1;
  }
  int uverr = 0;
  for (ai = res; ai; ai = ai->ai_next) {
    s->open = xq__jsonl_connect(&s->c, &s->loop, ai->ai_addr, XQ_BOARD_REPLY_MAX, NULL, s) == XQ_OK;
    if (s->open) break;
    uverr = s->c.uverr;
    xq__jsonl_close(&s->c); /* and try the next address */
    uv_run(&s->loop, UV_RUN_DEFAULT);
  }
  freeaddrinfo(res);
  if (!s->open) {
    say(s, "xqref board: cannot connect to %s: %s\n", hostport, strerror(-uverr));
    return -1;
  }
  return 0;
}

/* Why no reply came, in words. */
static void say_no_reply(const board_session *s)
{
  const xq_jsonl *c = &s->c;
  if (c->failed == XQ_JSONL_BAD_LINE) say(s, "xqref board: the server sent a line that is not JSON\n");
  else if (c->failed == XQ_JSONL_TOO_LONG) say(s, "xqref board: reply longer than %d bytes\n", XQ_BOARD_REPLY_MAX);
  else if (c->failed) say(s, "xqref board: %s\n", c->uverr == UV_EOF ? "the server closed the connection"
                                                                      : strerror(-c->uverr));
  else say(s, "xqref board: no reply (timed out)\n");
}

/* The next line from the server that is a reply (broadcast events are
 * dropped), parsed; NULL when the connection ended or timed out. */
static cJSON *read_reply(board_session *s)
{
  cJSON *r = xq__jsonl_wait(&s->c, (uint64_t)XQ_BOARD_REPLY_TIMEOUT_S * 1000);
  if (!r) say_no_reply(s);
  return r;
}

/* The reply to the request just sent (`sent`: how the sending went), or
 * NULL when it could not be sent or the connection failed. */
static cJSON *reply_to(board_session *s, int sent)
{
  if (sent == XQ_ENOMEM) return NULL;
  if (sent && s->c.failed == XQ_JSONL_WRITE) {
    say(s, "xqref board: send: %s\n", strerror(-s->c.uverr));
    return NULL;
  }
  if (sent) {
    say_no_reply(s); /* the connection ended after the last reply */
    return NULL;
  }
  return read_reply(s);
}

/* Send request `req` (consumed) with the next id and return the reply,
 * or NULL when the connection failed. */
static cJSON *request(board_session *s, cJSON *req)
{
  cJSON_AddNumberToObject(req, "id", ++s->id);
  char *text = cJSON_PrintUnformatted(req);
  cJSON_Delete(req);
  if (!text) return NULL;
  size_t n = strlen(text);
  text[n] = '\n'; /* cJSON allocates the terminator: room for the newline */
  int rc = xq__jsonl_write(&s->c, text, n + 1);
  free(text);
  return reply_to(s, rc);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void print_board(FILE *out, const char *fen, int zh)
{
  static const char letters[8] = {'.', 'k', 'a', 'b', 'n', 'r', 'c', 'p'};
  /* Each side's own characters, so that horses, rooks and cannons of the
   * two sides differ on the diagram as on a printed board. */
  static const char *const red_zh[8] = {"十", "帅", "仕", "相", "傌", "俥", "炮", "兵"};
  static const char *const black_zh[8] = {"十", "将", "士", "象", "馬", "車", "砲", "卒"};
  xq_pos p;
  if (!fen[0] || xq_fen_parse(&p, fen, XQ_FEN_LAX, NULL) != XQ_OK) return;
  for (int r = 9; r >= 0; r--) {
    fprintf(out, "  %d ", r);
    for (int f = 0; f < 9; f++) {
      xq_color c;
      xq_kind k = xq_piece_at(&p, XQ_SQ(f, r), &c);
      if (zh) fprintf(out, "%s", k == XQ_NONE ? "．" : c == XQ_RED ? red_zh[k] : black_zh[k]);
      else fprintf(out, " %c", k != XQ_NONE && c == XQ_RED ? letters[k] - 32 : letters[k]);
    }
    fputc('\n', out);
  }
  fprintf(out, zh ? "    ａｂｃｄｅｆｇｈｉ\n" : "     a b c d e f g h i\n");
  fprintf(out, "  %s to move\n", p.side == XQ_RED ? "Red" : "Black");
}

/* Print an error reply; adopt the server's expected sequence number. */
static void print_error(board_session *s, const cJSON *r)
{
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "error");
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
  const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "msg");
  const cJSON *exp = cJSON_GetObjectItemCaseSensitive(e, "expected");
  if (!exp) exp = cJSON_GetObjectItemCaseSensitive(r, "expected");
  fprintf(s->out, "error %s: %s\n", cJSON_IsString(code) ? code->valuestring : "?",
          cJSON_IsString(msg) ? msg->valuestring : "");
  long long next;
  if (xq__jsonl_seq(exp, &next) && next >= 1) {
    s->seq = next - 1;
    fprintf(s->out, "next seq %lld\n", s->seq + 1);
  }
  s->errors++;
}

/* Print the reply to a board event and keep its position. */
static void print_event_reply(board_session *s, const cJSON *r)
{
  const cJSON *seq = cJSON_GetObjectItemCaseSensitive(r, "seq");
  const cJSON *ply = cJSON_GetObjectItemCaseSensitive(r, "ply");
  const cJSON *fen = cJSON_GetObjectItemCaseSensitive(r, "fen");
  const cJSON *result = cJSON_GetObjectItemCaseSensitive(r, "result");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "verdict");
  const cJSON *vname = cJSON_GetObjectItemCaseSensitive(v, "verdict");
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(v, s->lang_zh ? "zh" : "en");
  if (cJSON_IsNumber(seq)) fprintf(s->out, "seq %.0f", seq->valuedouble);
  if (cJSON_IsNumber(ply)) fprintf(s->out, " ply %d", ply->valueint);
  fprintf(s->out, ": %s", cJSON_IsString(vname) ? vname->valuestring : "ok");
  if (cJSON_IsString(text) && text->valuestring[0]) fprintf(s->out, " -- %s", text->valuestring);
  fputc('\n', s->out);
  if (cJSON_IsString(result) && strcmp(result->valuestring, "*"))
    fprintf(s->out, "result %s\n", result->valuestring);
  /* The board again only when the position changed (a move, not a
   * clock reading or a move taken back). */
  int changed = cJSON_IsString(fen) && strcmp(s->fen, fen->valuestring);
  if (cJSON_IsString(fen)) snprintf(s->fen, sizeof s->fen, "%s", fen->valuestring);
  if (s->show_board && changed) print_board(s->out, s->fen, s->lang_zh);
}

/* ------------------------------------------------------------------ */
/* Commands                                                            */
/* ------------------------------------------------------------------ */

/* "1:30:00", "90:00", "5400" (seconds) -> milliseconds, -1 when bad. */
static long parse_time(const char *t)
{
  long parts[3], n = 0;
  const char *p = t;
  for (;;) {
    char *end;
    if (*p < '0' || *p > '9' || n == 3) return -1;
    parts[n++] = strtol(p, &end, 10);
    if (*end == 0) break;
    if (*end != ':') return -1;
    p = end + 1;
  }
  long sec = 0;
  for (long i = 0; i < n; i++) {
    if (i && parts[i] >= 60) return -1;
    sec = sec * 60 + parts[i];
  }
  if (sec > 100L * 3600) return -1;
  return sec * 1000;
}

static int side_word(const char *w)
{
  if (!w) return -1;
  if (!strcmp(w, "red") || !strcmp(w, "r") || !strcmp(w, "红")) return XQ_RED;
  if (!strcmp(w, "black") || !strcmp(w, "b") || !strcmp(w, "黑")) return XQ_BLACK;
  return -2;
}

static int side_to_move(const board_session *s)
{
  xq_pos p;
  if (!s->fen[0] || xq_fen_parse(&p, s->fen, XQ_FEN_LAX, NULL) != XQ_OK) return -1;
  return p.side;
}

/* Build the request for one input line; NULL with a message on stderr
 * when the line is not a command (nothing is sent, no seq used). */
static cJSON *build_event(board_session *s, const char *line)
{
  char *save = NULL, *w[4] = {0};
  char copy[XQ_BOARD_INPUT_MAX + 2]; /* as long as the line read (play) */
  snprintf(copy, sizeof copy, "%s", line);
  int n = 0;
  for (char *t = strtok_r(copy, " \t", &save); t && n < 4; t = strtok_r(NULL, " \t", &save)) w[n++] = t;
  if (!n) return NULL;
  cJSON *req = cJSON_CreateObject();
  if (!req) return NULL;
  const char *cmd = w[0];
  if (!strcmp(cmd, "clock")) {
    long red = n == 3 ? parse_time(w[1]) : -1, black = n == 3 ? parse_time(w[2]) : -1;
    if (red < 0 || black < 0) {
      say(s, "clock wants two times (h:mm:ss, m:ss or seconds): clock 1:29:30 1:30:00\n");
      goto bad;
    }
    cJSON_AddStringToObject(req, "op", "clock");
    cJSON *c = cJSON_AddArrayToObject(req, "clock");
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)red));
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)black));
  } else if (!strcmp(cmd, "claim") || !strcmp(cmd, "draw")) {
    int claim = !strcmp(cmd, "claim");
    const char *k = w[1];
    int ok = k && (claim ? !strcmp(k, "natural") || !strcmp(k, "repetition")
                         : !strcmp(k, "offer") || !strcmp(k, "accept") || !strcmp(k, "decline"));
    int side = side_word(w[2]);
    if (!ok || side == -2 || n > 3) {
      say(s, claim ? "claim natural|repetition [red|black]\n" : "draw offer|accept|decline [red|black]\n");
      goto bad;
    }
    cJSON_AddStringToObject(req, "op", cmd);
    cJSON_AddStringToObject(req, claim ? "kind" : "action", k);
    if (side >= 0) cJSON_AddStringToObject(req, "side", side == XQ_RED ? "red" : "black");
  } else if (!strcmp(cmd, "resign")) {
    int side = n > 1 ? side_word(w[1]) : side_to_move(s);
    if (side < 0 || n > 2) {
      say(s, "resign red|black\n");
      goto bad;
    }
    cJSON_AddStringToObject(req, "op", "resign");
    cJSON_AddStringToObject(req, "side", side == XQ_RED ? "red" : "black");
  } else if (!strcmp(cmd, "position")) {
    const char *fen = line + strlen("position");
    while (*fen == ' ' || *fen == '\t') fen++;
    if (!*fen) {
      say(s, "position FEN\n");
      goto bad;
    }
    cJSON_AddStringToObject(req, "op", "position");
    cJSON_AddStringToObject(req, "board", fen);
  } else if (!strcmp(cmd, "lift")) {
    if (n != 2) {
      say(s, "lift SQUARE (e.g. lift h2)\n");
      goto bad;
    }
    cJSON_AddStringToObject(req, "op", "lift");
    cJSON_AddStringToObject(req, "square", w[1]);
  } else if (!strcmp(cmd, "release")) {
    cJSON_AddStringToObject(req, "op", "release");
  } else {
    /* Anything else is a move; the server tells the notation. */
    cJSON_AddStringToObject(req, "op", "move");
    cJSON_AddStringToObject(req, "move", line);
  }
  cJSON_AddNumberToObject(req, "seq", (double)(s->seq + 1));
  return req;
bad:
  cJSON_Delete(req);
  return NULL;
}

/* Say hello and learn the table, the position and the last seq. */
static int start_session(board_session *s, const char *token, int want_table)
{
  cJSON *r = reply_to(s, xq__jsonl_hello(&s->c, ++s->id, token));
  if (!r) return 1;
  if (cJSON_GetObjectItemCaseSensitive(r, "error")) {
    print_error(s, r);
    cJSON_Delete(r);
    return 1;
  }
  const cJSON *role = cJSON_GetObjectItemCaseSensitive(r, "role");
  const cJSON *round = cJSON_GetObjectItemCaseSensitive(r, "round");
  const cJSON *table = cJSON_GetObjectItemCaseSensitive(r, "table");
  const cJSON *last = cJSON_GetObjectItemCaseSensitive(r, "last_seq");
  const cJSON *fen = cJSON_GetObjectItemCaseSensitive(r, "fen");
  if (!cJSON_IsString(role) || strcmp(role->valuestring, "board") || !cJSON_IsNumber(table)) {
    say(s, "xqref board: that is not a board token (role %s)\n",
        cJSON_IsString(role) ? role->valuestring : "?");
    cJSON_Delete(r);
    return 1;
  }
  s->round = cJSON_IsNumber(round) ? round->valueint : 0;
  s->table = table->valueint;
  xq__jsonl_seq(last, &s->seq);
  if (cJSON_IsString(fen)) snprintf(s->fen, sizeof s->fen, "%s", fen->valuestring);
  cJSON_Delete(r);
  if (want_table > 0 && want_table != s->table) {
    say(s, "xqref board: the token is for table %d, not %d\n", s->table, want_table);
    return 1;
  }
  if (!s->fen[0]) {
    /* The game's state, where the role may read it (`game` may be for
     * arbiters only: then the hello reply is all there is). */
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "op", "game");
    cJSON_AddNumberToObject(req, "round", s->round);
    cJSON_AddNumberToObject(req, "table", s->table);
    r = request(s, req);
    if (!r) return 1;
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(r, "game");
    if (!cJSON_IsObject(g)) g = r;
    const cJSON *gf = cJSON_GetObjectItemCaseSensitive(g, "fen");
    const cJSON *gs = cJSON_GetObjectItemCaseSensitive(g, "last_seq");
    if (!cJSON_GetObjectItemCaseSensitive(r, "error")) {
      if (cJSON_IsString(gf)) snprintf(s->fen, sizeof s->fen, "%s", gf->valuestring);
      xq__jsonl_seq(gs, &s->seq);
    }
    cJSON_Delete(r);
  }
  if (!s->fen[0] && s->seq == 0) snprintf(s->fen, sizeof s->fen, "%s", XQ_START_FEN);
  fprintf(s->out, "round %d table %d, next seq %lld\n", s->round, s->table, s->seq + 1);
  if (!s->fen[0]) fprintf(s->out, "(the position is shown after the next reply)\n");
  else if (s->show_board) print_board(s->out, s->fen, s->lang_zh);
  fflush(s->out);
  return 0;
}

/* ------------------------------------------------------------------ */
/* The session                                                         */
/* ------------------------------------------------------------------ */

/* Send the event of one command line and print its verdict. Returns 0,
 * or 1 when the connection failed. */
static int play_line(board_session *s, const char *p, int tty)
{
  cJSON *req = build_event(s, p);
  if (!req) {
    s->errors++;
    return 0;
  }
  if (!tty) fprintf(s->out, "> %s\n", p); /* echo piped input so the output reads as a session */
  cJSON *r = request(s, req);
  if (!r) return 1;
  if (cJSON_GetObjectItemCaseSensitive(r, "error")) {
    print_error(s, r);
  } else {
    const cJSON *seq = cJSON_GetObjectItemCaseSensitive(r, "seq");
    if (!xq__jsonl_seq(seq, &s->seq)) s->seq++;
    print_event_reply(s, r);
  }
  cJSON_Delete(r);
  fflush(s->out);
  return 0;
}

/* Play the lines of s->in until quit, their end or a failed connection.
 * Returns 0, or 1 when the connection failed. */
static int play(board_session *s, const char *help)
{
  int tty = isatty(fileno(s->in));
  char line[XQ_BOARD_INPUT_MAX + 2];
  for (;;) {
    if (tty) {
      fprintf(s->out, "> ");
      fflush(s->out);
    }
    if (!fgets(line, sizeof line, s->in)) return 0;
    size_t len = strlen(line);
    if (len && line[len - 1] != '\n' && !feof(s->in)) {
      int ch;
      while ((ch = getc(s->in)) != EOF && ch != '\n') {}
      say(s, "line longer than %d bytes ignored\n", XQ_BOARD_INPUT_MAX);
      continue;
    }
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ')) line[--len] = 0;
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '#') continue;
    if (!strcmp(p, "quit") || !strcmp(p, "exit")) return 0;
    if (!strcmp(p, "help")) {
      if (help) fputs(help, s->out);
      continue;
    }
    if (play_line(s, p, tty)) return 1;
  }
}

int xq_board_run(const xq_board_opts *o, FILE *in, FILE *out, FILE *log)
{
  board_session s;
  memset(&s, 0, sizeof s);
  s.in = in;
  s.out = out;
  s.log = log;
  s.show_board = o->show_board;
  s.lang_zh = o->lang_zh;
  if (uv_loop_init(&s.loop)) return XQ_EIO;
  int rc = dial(&s, o->connect);
  if (!rc) rc = start_session(&s, o->token, o->table);
  if (!rc) rc = play(&s, o->help);
  if (s.open) xq__jsonl_close(&s.c);
  uv_run(&s.loop, UV_RUN_DEFAULT);
  uv_loop_close(&s.loop);
  if (rc == -2) return XQ_EINVAL;
  return rc || s.errors ? XQ_EIO : XQ_OK;
}
