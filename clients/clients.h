/*
 * clients.h -- the programs that talk to a running server as its clients
 * do: loadgen (many boards replaying games, measuring the server) and
 * board (one table played from a terminal). Their command lines are in
 * cli/; simulate, which also starts the server, has simulate.h.
 *
 * Both print their messages as they run, a line each, to the `log`
 * stream they are given (NULL: none), in the words of `xqref loadgen`
 * and `xqref board`.
 */
#ifndef XQ_CLIENTS_H
#define XQ_CLIENTS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "clientlimits.h"
#include "engine.h"
#include "net.h"

/* Parse "HOST:PORT" (an IPv4 or IPv6 address, or "localhost"; the last
 * ':' ends the host) into *out, as the clients connect (jsonl.c).
 * Returns XQ_OK or XQ_EINVAL. */
int xq_jsonl_addr(const char *text, struct sockaddr_storage *out);

/* ------------------------------------------------------------------ */
/* loadgen (loadgen.c, docs/tools.md)                                  */
/* ------------------------------------------------------------------ */

/* How a load run goes. */
typedef struct xq_loadgen_opts {
  const char *connect;    /* the server's JSON lines, HOST:PORT (required) */
  const char *tokens;     /* a file of "board ROUND TABLE TOKEN" lines, as `serve --demo` prints (required) */
  const char *games;      /* the games to replay, in any format records/ reads (required) */
  const char *http;       /* the server's HTTP, HOST:PORT, for the SSE viewers; NULL = none */
  const char *ack_log;    /* NULL, or a file that gets one line per acknowledged move (the crash test) */
  int resend;             /* each board also sends every move again on a second connection with its
                             token (a board after a WiFi drop); its acknowledgements are logged too */
  int boards;             /* 1..XQ_LOADGEN_BOARDS_MAX: the first `boards` tokens, board i plays game i */
  int window;             /* requests in flight per board at full speed, 1..XQ_LOADGEN_WINDOW_MAX */
  int min_plies;          /* games shorter than this are skipped (0..XQ_REC_PLIES_MAX) */
  double rate;            /* moves a second per board, timer-paced, up to XQ_LOADGEN_RATE_MAX; 0 = full speed */
  double duration;        /* seconds of sending; <= 0 = until every board's game is done */
  uint64_t seed;          /* which game each board plays and the clocks (1: board i plays game i) */
  int viewers;            /* JSON-lines viewers that watch every round for the whole run */
  int sse;                /* Server-Sent-Events viewers (viewers + sse <= XQ_LOADGEN_VIEWERS_MAX): on the
                             viewer URLs in turn, or without them on `http`'s /api/events */
  xq_http_url viewer_url[XQ_LOADGEN_VIEWER_URLS_MAX]; /* the first viewer_urls: SSE streams (an edge's
                             /api/events); their hosts are IP addresses or localhost */
  int viewer_urls;
  const char *viewer_log; /* NULL, or a file that gets the event and data lines of the first SSE viewer */
  int viewer_cpu;         /* the core the viewers' thread runs on (-1: any), so that on one machine the
                             viewers can stand apart from the boards and the server, as on other machines */
} xq_loadgen_opts;

/* Defaults: window 1, duration -1 (until done), seed 1, viewer_cpu -1, the rest 0/NULL. */
void xq_loadgen_opts_default(xq_loadgen_opts *o);

/* Connect o->boards boards (and the viewers) to the server, say hello
 * with their tokens and replay their games move by move until each game
 * is over, its record ends or leaves the game, o->duration passes or
 * SIGINT comes; then print the report to `out` (boards, acknowledged
 * moves, errors by code, verdicts, elapsed time, moves/s overall and
 * while every board was playing, latency percentiles, the viewers'
 * counts, how many SSE viewers got exactly the first one's stream, and
 * their delivery latency from the event's "at"). The boards start once
 * every viewer's stream has begun. Needs xq_net_process_init (net.h) to
 * have run: SIGPIPE ignored, the open-file limit raised (a descriptor a
 * board: 1024, the usual soft limit, is too few). Returns XQ_OK when moves were
 * acknowledged, every move was answered, no reply was an error (verdicts
 * such as fouls are not errors), no board or viewer lost its
 * connection and every SSE viewer got the first one's stream; XQ_EIO when the run saw any of those (the report says
 * which); XQ_EINVAL for options out of range, addresses that are not
 * HOST:PORT or fewer than o->boards tokens in o->tokens; XQ_EIO, XQ_ENOMEM
 * or XQ_ENOTATION when the tokens, the games or the ack log cannot be
 * read or made (nothing was sent; `log` says why). */
int xq_loadgen_run(const xq_loadgen_opts *o, FILE *out, FILE *log);

/* ------------------------------------------------------------------ */
/* board (board.c)                                                     */
/* ------------------------------------------------------------------ */

/* How a board session goes. */
typedef struct xq_board_opts {
  const char *connect;    /* the server's JSON lines, HOST:PORT (required; the host may be a name) */
  const char *token;      /* the table's board token (required) */
  int table;              /* 0, or the table the token must be for */
  int lang_zh;            /* verdicts in Chinese (else English) */
  int show_board;         /* print the board whenever a reply changed the position */
  const char *help;       /* printed to `out` for the command `help`; NULL = nothing */
} xq_board_opts;

/* Play the table of o->token as a digital board does: say hello, print
 * the round, table, next sequence number and the board to `out`; then
 * each line read from `in` is one event (a move in any notation, clock
 * R B, claim, draw, resign, position FEN, lift SQUARE, release; `quit`
 * ends, `#` comments), sent with the next sequence number, its verdict
 * printed in words to `out`, then the board. When `in` is not a
 * terminal the lines are echoed after "> "; when it is, "> " prompts.
 * A line that is not a command is said on `log` and counts as an error;
 * nothing is sent for it. `in` and `out` are required. Needs
 * xq_net_process_init (net.h) to have run (SIGPIPE ignored).
 * Returns XQ_OK when every event was accepted by the server (verdicts
 * such as fouls included); XQ_EINVAL when o->connect is not HOST:PORT;
 * XQ_EIO when an event was answered with an error, a line was not a
 * command, or the connection failed (`log` says how). */
int xq_board_run(const xq_board_opts *o, FILE *in, FILE *out, FILE *log);

#endif /* XQ_CLIENTS_H */
