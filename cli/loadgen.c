/*
 * loadgen.c -- `xqref loadgen`: the options and --help; the run is
 * clients/'s (xq_loadgen_run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cli.h"
#include "clientlimits.h"
#include "clients.h"
#include "jsonl.h"
#include "records.h"

static const char loadgen_usage[] =
  "usage: xqref loadgen --connect HOST:PORT --tokens FILE --boards N --games FILE.pgn\n"
  "                     [--rate R] [--duration S] [--window W] [--min-plies P] [--seed K]\n"
  "                     [--viewers V] [--sse S (--http HOST:PORT | --viewer-url URL...)]\n"
  "                     [--viewer-log FILE] [--viewer-cpu N]\n"
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
  "                 --http HOST:PORT (the `http` address `serve` prints) ...\n"
  "  --viewer-url URL  ... or on this stream instead, http://IP:PORT/PATH[?QUERY]\n"
  "                 (an edge: http://127.0.0.1:8090/api/events, docs/scale.md);\n"
  "                 given up to 8 times, the viewers take the URLs in turn\n"
  "  --viewer-log FILE  the event and data lines the first SSE viewer got\n"
  "  --viewer-cpu N  the viewers' thread on core N (the boards keep the process's\n"
  "                 cores: viewers apart, as on other machines)\n"
  "\n"
  "The boards start once every viewer's stream has begun. Prints boards,\n"
  "acknowledged moves, errors by code, elapsed time, moves/s (overall and\n"
  "while every board was playing) and the latency from send to reply (p50\n"
  "p90 p99 p99.9 max, ms); for viewers the events received, how many SSE\n"
  "viewers got exactly the first one's stream (ids aside), and the delivery\n"
  "latency from the server's broadcast (the \"at\" of each event) to its\n"
  "arrival (the same percentiles; the clocks of both machines must agree).\n"
  "Exit status 1 when a reply was an error, a connection was lost or SSE\n"
  "viewers got different streams; verdicts such as fouls are not errors.\n";

static const char usage_line[] =
  "usage: xqref loadgen --connect HOST:PORT --tokens FILE --boards N --games FILE.pgn "
  "[--rate R] [--duration S] [--window W] [--min-plies P] [--seed K]";

static int usage_error(const char *msg, const char *arg)
{
  return xq_cli_usage_error("loadgen", usage_line, msg, arg);
}

/* One option with its value into *o; 0, or the usage error's status. */
static int take_option(xq_loadgen_opts *o, const char *a, const char *v)
{
  char *end = NULL;
  long n;
  if (!strcmp(a, "--connect")) o->connect = v;
  else if (!strcmp(a, "--tokens")) o->tokens = v;
  else if (!strcmp(a, "--games")) o->games = v;
  else if (!strcmp(a, "--ack-log")) o->ack_log = v; /* crash test: one line per acknowledged event */
  else if (!strcmp(a, "--boards")) {
    n = strtol(v, &end, 10);
    if (*end || n < 1 || n > XQ_LOADGEN_BOARDS_MAX) return usage_error("--boards must be 1..4000, not", v);
    o->boards = (int)n;
  } else if (!strcmp(a, "--window")) {
    n = strtol(v, &end, 10);
    if (*end || n < 1 || n > XQ_LOADGEN_WINDOW_MAX) return usage_error("--window must be 1..64, not", v);
    o->window = (int)n;
  } else if (!strcmp(a, "--min-plies")) {
    n = strtol(v, &end, 10);
    if (*end || n < 0 || n > XQ_REC_PLIES_MAX) return usage_error("--min-plies must be 0..2048, not", v);
    o->min_plies = (int)n;
  } else if (!strcmp(a, "--rate")) {
    o->rate = strtod(v, &end);
    if (*end || !(o->rate > 0 && o->rate <= XQ_LOADGEN_RATE_MAX)) return usage_error("--rate must be > 0 and <= 1000, not", v);
  } else if (!strcmp(a, "--duration")) {
    o->duration = strtod(v, &end);
    if (*end || !(o->duration > 0 && o->duration <= 86400)) return usage_error("--duration must be > 0 seconds, not", v);
  } else if (!strcmp(a, "--viewers") || !strcmp(a, "--sse")) {
    n = strtol(v, &end, 10);
    if (*end || n < 0 || n > XQ_LOADGEN_VIEWERS_MAX) return usage_error("--viewers and --sse must be 0..20000, not", v);
    if (a[2] == 'v') o->viewers = (int)n;
    else o->sse = (int)n;
  } else if (!strcmp(a, "--http")) {
    o->http = v;
  } else if (!strcmp(a, "--viewer-url")) {
    xq_error err = {0};
    if (o->viewer_urls == XQ_LOADGEN_VIEWER_URLS_MAX) return usage_error("--viewer-url is given at most 8 times, not once more:", v);
    if (xq_http_url_parse(v, &o->viewer_url[o->viewer_urls], &err) != XQ_OK) return usage_error(err.msg, v);
    o->viewer_urls++;
  } else if (!strcmp(a, "--viewer-log")) {
    o->viewer_log = v;
  } else if (!strcmp(a, "--viewer-cpu")) {
    n = strtol(v, &end, 10);
    if (*end || n < 0 || n >= XQ_LOADGEN_CPUS_MAX) return usage_error("--viewer-cpu must be a core number, not", v);
    o->viewer_cpu = (int)n;
  } else if (!strcmp(a, "--seed")) {
    o->seed = strtoull(v, &end, 10);
    if (*end || !*v) return usage_error("--seed must be a number, not", v);
  } else {
    return usage_error("unknown option", a);
  }
  return 0;
}

int xq_loadgen_main(int argc, char **argv)
{
  xq_loadgen_opts o;
  xq_loadgen_opts_default(&o);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(loadgen_usage, stdout);
      return 0;
    }
    if (i + 1 >= argc) return usage_error("missing value after", a);
    int rc = take_option(&o, a, argv[++i]);
    if (rc) return rc;
  }
  if (!o.connect || !o.tokens || !o.games || !o.boards)
    return usage_error("--connect, --tokens, --boards and --games are required", NULL);
  if (o.viewers + o.sse > XQ_LOADGEN_VIEWERS_MAX) return usage_error("--viewers plus --sse must be at most 20000", NULL);
  if (o.sse && !o.http && !o.viewer_urls) return usage_error("--sse needs --http HOST:PORT or --viewer-url URL", NULL);
  struct sockaddr_storage sa;
  if (xq_jsonl_addr(o.connect, &sa) != XQ_OK) return usage_error("--connect wants HOST:PORT, not", o.connect);
  if (o.http && xq_jsonl_addr(o.http, &sa) != XQ_OK) return usage_error("--http wants HOST:PORT, not", o.http);
  return xq_loadgen_run(&o, stdout, stderr) == XQ_OK ? 0 : 1;
}
