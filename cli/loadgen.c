/*
 * loadgen.c -- `xqref loadgen`: the options and --help; the run is
 * clients/'s (xq_loadgen_run).
 */
#include <stdio.h>
#include <sys/socket.h>

#include "cli.h"
#include "clientlimits.h"
#include "clients.h"
#include "opts.h"
#include "paths.h"
#include "records.h"

/* --viewer-url URL, once more: parsed into the next of o->viewer_url. */
static int viewer_url(void *opts, const char *v, xq_error *err)
{
  xq_loadgen_opts *o = opts;
  if (o->viewer_urls == XQ_LOADGEN_VIEWER_URLS_MAX) {
    snprintf(err->msg, sizeof err->msg, "given at most %d times", XQ_LOADGEN_VIEWER_URLS_MAX);
    return XQ_EINVAL;
  }
  int rc = xq_http_url_parse(v, &o->viewer_url[o->viewer_urls], err);
  if (rc == XQ_OK) o->viewer_urls++;
  return rc;
}

static const xq__opt loadgen_rows[] = {
  XQ__STR("--connect", xq_loadgen_opts, connect, "HOST:PORT", "the server's JSON lines", .flags = XQ__OPT_REQUIRED),
  XQ__STR("--tokens", xq_loadgen_opts, tokens, "FILE", "the boards' tokens, lines \"board ROUND TABLE TOKEN\"",
          .flags = XQ__OPT_REQUIRED),
  XQ__INT("--boards", xq_loadgen_opts, boards, 1, XQ_LOADGEN_BOARDS_MAX, "N", "boards, the first N tokens",
          .flags = XQ__OPT_REQUIRED),
  XQ__STR("--games", xq_loadgen_opts, games, "FILE.pgn", "the games to replay", .flags = XQ__OPT_REQUIRED),
  XQ__DOUBLE("--rate", xq_loadgen_opts, rate, 0, XQ_LOADGEN_RATE_MAX, "R",
             "moves per second per board, timer-paced (default: full\n"
             "speed, the next move as soon as the reply arrives)"),
  XQ__DOUBLE("--duration", xq_loadgen_opts, duration, 0, XQ_LOADGEN_DURATION_MAX, "S",
             "stop sending after S seconds (default: until every\n"
             "board's game is over or its record has no more moves;\n"
             "Ctrl-C stops sending too)"),
  XQ__INT("--window", xq_loadgen_opts, window, 1, XQ_LOADGEN_WINDOW_MAX, "W",
          "requests in flight per board at full speed (default 1)"),
  XQ__INT("--min-plies", xq_loadgen_opts, min_plies, 0, XQ_REC_PLIES_MAX, "P",
          "skip games shorter than P plies (keeps every board busy\n"
          "longer: the rate with all boards playing covers more)"),
  XQ__U64("--seed", xq_loadgen_opts, seed, "K", "varies which game each board plays and the clocks"),
  XQ__INT("--viewers", xq_loadgen_opts, viewers, 0, XQ_LOADGEN_VIEWERS_MAX, "V",
          "also V JSON-lines viewers on --connect that `watch` every\n"
          "round, for the whole run"),
  XQ__INT("--sse", xq_loadgen_opts, sse, 0, XQ_LOADGEN_VIEWERS_MAX, "S",
          "also S Server-Sent-Events viewers (GET /api/events) on\n"
          "--http HOST:PORT (the `http` address `serve` prints) ..."),
  XQ__STR("--http", xq_loadgen_opts, http, "HOST:PORT", "the server's HTTP, for the SSE viewers"),
  XQ__CALL("--viewer-url", viewer_url, "URL",
           "... or on this stream instead, http://IP:PORT/PATH[?QUERY]\n"
           "(an edge: http://127.0.0.1:8090/api/events, docs/scale.md);\n"
           "given up to " XQ__OPT_TEXT(XQ_LOADGEN_VIEWER_URLS_MAX) " times, the viewers take the URLs in turn",
           .flags = XQ__OPT_REPEAT),
  XQ__STR("--viewer-log", xq_loadgen_opts, viewer_log, "FILE", "the event and data lines the first SSE viewer got"),
  XQ__INT("--viewer-cpu", xq_loadgen_opts, viewer_cpu, 0, XQ_LOADGEN_CPUS_MAX - 1, "N",
          "the viewers' thread on core N (the boards keep the process's\n"
          "cores: viewers apart, as on other machines)"),
  XQ__STR("--ack-log", xq_loadgen_opts, ack_log, "FILE",
          "one line per acknowledged move (the crash test's record)"),
  XQ__FLAG("--resend", xq_loadgen_opts, resend, 1,
           "each board also resends every move, same seq, on a second\n"
           "connection with its token as soon as it is sent (a board\n"
           "after a WiFi drop); its acknowledgements go to --ack-log\n"
           "with \"resend\" after them"),
};

static const xq__cmd loadgen_cmd = {
  .name = "loadgen",
  .about = "Replay the games of FILE.pgn (any format the records module reads) as N\n"
           "digital boards against a running `xqref serve`. FILE holds lines\n"
           "\"board ROUND TABLE TOKEN\" (as printed by `xqref serve --demo`); the first\n"
           "N are used, board i plays game i (games are reused when there are fewer).\n",
  .after = "The boards start once every viewer's stream has begun. Prints boards,\n"
           "acknowledged moves, errors by code, elapsed time, moves/s (overall and\n"
           "while every board was playing) and the latency from send to reply (p50\n"
           "p90 p99 p99.9 max, ms); for viewers the events received, how many SSE\n"
           "viewers got exactly the first one's stream (ids aside), and the delivery\n"
           "latency from the server's broadcast (the \"at\" of each event) to its\n"
           "arrival (the same percentiles; the clocks of both machines must agree).\n"
           "Exit status 1 when a reply was an error, a connection was lost or SSE\n"
           "viewers got different streams; verdicts such as fouls are not errors.\n",
  .opts = loadgen_rows,
  .nopts = XQ__NROWS(loadgen_rows),
};

int xq_loadgen_main(int argc, char **argv)
{
  xq_loadgen_opts o;
  xq_loadgen_opts_default(&o);
  int status = xq__opts_parse(&loadgen_cmd, argc, argv, &o, NULL, NULL);
  if (status >= 0) return status;
  if (o.viewers + o.sse > XQ_LOADGEN_VIEWERS_MAX)
    return xq__opts_error(&loadgen_cmd, "--viewers plus --sse must be at most %d", XQ_LOADGEN_VIEWERS_MAX);
  if (o.sse && !o.http && !o.viewer_urls)
    return xq__opts_error(&loadgen_cmd, "--sse needs --http HOST:PORT or --viewer-url URL");
  struct sockaddr_storage sa;
  if (xq_jsonl_addr(o.connect, &sa) != XQ_OK)
    return xq__opts_error(&loadgen_cmd, "--connect wants HOST:PORT, not %s", o.connect);
  if (o.http && xq_jsonl_addr(o.http, &sa) != XQ_OK)
    return xq__opts_error(&loadgen_cmd, "--http wants HOST:PORT, not %s", o.http);
  const xq__path outs[] = {{o.ack_log, "--ack-log", 0}, {o.viewer_log, "--viewer-log", 0}};
  const xq__path ins[] = {{o.tokens, "--tokens", 0}, {o.games, "--games", 0}};
  if (xq__paths_check("loadgen", outs, 2, ins, 2)) return 1;
  return xq_loadgen_run(&o, stdout, stderr) == XQ_OK ? 0 : 1;
}
