/*
 * serve.c -- `xqref serve`: the server's options and --help; the serving
 * itself is net/'s (xq_serve).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "net.h"
#include "tourney.h"

static void serve_usage(FILE *out)
{
  fprintf(out,
          "usage: xqref serve [--db FILE] [--init] [--listen HOST:PORT] [--http HOST:PORT|none]\n"
          "                   [--rules PRESET|FILE.json] [--demo [--players N]]\n"
          "                   [--publish http://HOST[:PORT]/PATH/ [--publish-batch MS]] [--quiet]\n\n"
          "Serve a tournament: JSON lines for boards, arbiters and organisers on --listen\n"
          "(default 127.0.0.1:7878), HTTP/SSE/PGN for viewers on --http (default\n"
          "127.0.0.1:8080). The store (default xqref.db) is created when missing; an\n"
          "existing empty (0-byte) FILE is refused unless --init is given (a store cut\n"
          "to nothing is not taken for a new one). A new store's admin token is printed\n"
          "once and kept in FILE.admin (mode 0600), which is never overwritten: if it\n"
          "exists then, the server does not start (move it away first). --demo fills\n"
          "a new store with a demo tournament (N players, default 16; round 1 paired)\n"
          "and prints a token per board. Port 0 picks a free port; the real addresses\n"
          "are printed as 'json HOST:PORT' and 'http HOST:PORT'. SIGINT or SIGTERM\n"
          "stops gracefully. --publish also posts every broadcast event to an nchan\n"
          "publisher location (an nginx edge: deploy/nginx/, scripts/edge.sh) at\n"
          "PATH/all,rN; the server never waits for it and serves on when it is down.\n"
          "Events within MS (default 500) of the last post go together in the next\n"
          "one (a 'batch' message: one write per viewer of the edge); 0 posts each\n"
          "event alone.\n"
          "Protocol: docs/protocol.md, docs/http.md; the edge: docs/scale.md.\n");
}

int xq_serve_main(int argc, char **argv)
{
  xq_server_opts o;
  xq_server_opts_default(&o);
  xq_http_url pub;
  o.signals = 1;
  o.out = stdout;
  o.log = stderr;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      serve_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--db") && more) {
      o.db = argv[++i];
    } else if (!strcmp(a, "--listen") && more) {
      o.listen = argv[++i];
    } else if (!strcmp(a, "--http") && more) {
      o.http = argv[++i];
      if (!strcmp(o.http, "none")) o.http = NULL;
    } else if (!strcmp(a, "--rules") && more) {
      o.rules = argv[++i];
    } else if (!strcmp(a, "--init")) {
      o.init = 1;
    } else if (!strcmp(a, "--demo")) {
      o.demo = 1;
    } else if (!strcmp(a, "--players") && more) {
      char *end;
      long n = strtol(argv[++i], &end, 10);
      if (*end || n < 2 || n > XQ_TOURNEY_PLAYERS_MAX) {
        fprintf(stderr, "xqref serve: --players wants 2..%d\n", XQ_TOURNEY_PLAYERS_MAX);
        return 2;
      }
      o.demo_players = (int)n;
    } else if (!strcmp(a, "--publish") && more) {
      xq_error err = {0};
      if (xq_publish_url_parse(argv[++i], &pub, &err) != XQ_OK) {
        fprintf(stderr, "xqref serve: --publish: %s\n", err.msg);
        return 2;
      }
      o.publish = &pub;
    } else if (!strcmp(a, "--publish-batch") && more) {
      char *end;
      long ms = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || ms < 0 || ms > 10000) {
        fprintf(stderr, "xqref serve: --publish-batch wants 0..10000 (milliseconds)\n");
        return 2;
      }
      o.publish_batch_ms = ms ? (int)ms : -1;
    } else if (!strcmp(a, "--quiet")) {
      o.log = NULL;
    } else {
      fprintf(stderr, "xqref serve: unknown or incomplete option '%s'\n", a);
      serve_usage(stderr);
      return 2;
    }
  }
  xq_error err = {0};
  if (xq_serve(&o, &err) != XQ_OK) {
    fprintf(stderr, "xqref serve: %s\n", err.msg);
    return 1;
  }
  return 0;
}
