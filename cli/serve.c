/*
 * serve.c -- `xqref serve`: the server's options and --help; the serving
 * itself is net/'s (xq_serve).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "net.h"
#include "netlimits.h" /* XQ_DELAY_MAX_S */
#include "opts.h"
#include "paths.h"
#include "sheet/sheet.h" /* xq_slip_connect_ok */
#include "tourney.h"

/* The command line: the server's options and what becomes of them. */
typedef struct serve_cli {
  xq_server_opts o;
  xq_http_url publish;
  int publish_given, batch_ms, quiet;
} serve_cli;

/* --publish URL: the nchan publisher location, parsed. */
static int publish_url(void *opts, const char *v, xq_error *err)
{
  serve_cli *c = opts;
  int rc = xq_publish_url_parse(v, &c->publish, err);
  c->publish_given = rc == XQ_OK;
  return rc;
}

static const xq__opt serve_rows[] = {
  XQ__STR("--db", serve_cli, o.db, "FILE", "the store (default xqref.db), created when missing"),
  XQ__FLAG("--init", serve_cli, o.init, 1, "also make a new store in an existing empty (0-byte) FILE"),
  XQ__STR("--listen", serve_cli, o.listen, "HOST:PORT", "JSON lines for boards, arbiters and organisers\n(default 127.0.0.1:7878)"),
  XQ__STR("--http", serve_cli, o.http, "HOST:PORT|none", "HTTP/SSE/PGN for viewers (default 127.0.0.1:8080)"),
  XQ__STR("--board-address", serve_cli, o.board_address, "HOST:PORT",
          "the address the boards reach, on every board slip and QR code\n"
          "(default the --listen address; required for slips when that\n"
          "is 0.0.0.0 or ::)"),
  XQ__STR("--rules", serve_cli, o.rules, "PRESET|FILE.json", "the rules of play (default cxa2011)"),
  XQ__FLAG("--demo", serve_cli, o.demo, 1, "fill a new store with a demo tournament (round 1 paired)\nand print a token per board"),
  XQ__INT("--players", serve_cli, o.demo_players, 2, XQ_TOURNEY_PLAYERS_MAX, "N", "the demo's players (default 16)"),
  XQ__CALL("--publish", publish_url, "http://HOST[:PORT]/PATH/",
           "also post every broadcast event to an nchan publisher\nlocation, at PATH/all,rN"),
  XQ__INT("--publish-batch", serve_cli, batch_ms, 0, XQ_CLI_PUBLISH_BATCH_MS_MAX, "MS",
          "events within MS (default 500) of the last post go together\n"
          "in the next one; 0 posts each event alone"),
  XQ__INT("--delay", serve_cli, o.delay_s, 0, XQ_DELAY_MAX_S, "SECONDS",
          "viewers without a token (the page, its event stream, the\n"
          "JSON and PGN reads, an anonymous watch, the edge) see every\n"
          "move, result and event SECONDS late (900: 15 minutes);\n"
          "boards, arbiters and organisers see them at once"),
  XQ__FLAG("--quiet", serve_cli, quiet, 1, "no server log on stderr"),
};

static const xq__cmd serve_cmd = {
  .name = "serve",
  .about = "Serve a tournament: JSON lines for boards, arbiters and organisers on --listen,\n"
           "HTTP/SSE/PGN for viewers on --http. The store is created when missing; an\n"
           "existing empty (0-byte) FILE is refused unless --init is given (a store cut\n"
           "to nothing is not taken for a new one). A new store's admin token is printed\n"
           "once and kept in FILE.admin (mode 0600), which is never overwritten: if it\n"
           "exists then, the server does not start (move it away first). Port 0 picks a\n"
           "free port; the real addresses are printed as 'json HOST:PORT' and\n"
           "'http HOST:PORT'. SIGINT or SIGTERM stops gracefully. The --publish edge\n"
           "(an nginx with nchan: deploy/nginx/, scripts/edge.sh) is never waited for:\n"
           "the server serves on when it is down. A 'batch' message is one write per\n"
           "viewer of the edge.\n",
  .after = "Protocol: docs/protocol.md, docs/http.md; the edge: docs/scale.md.\n",
  .opts = serve_rows,
  .nopts = XQ__NROWS(serve_rows),
};

int xq_serve_main(int argc, char **argv)
{
  serve_cli c = {.batch_ms = -2};
  xq_server_opts_default(&c.o);
  int status = xq__opts_parse(&serve_cmd, argc, argv, &c, NULL, NULL);
  if (status >= 0) return status;
  const char *ba = c.o.board_address;
  if (ba && !xq_slip_connect_ok(ba)) {
    fprintf(stderr, "xqref serve: --board-address is HOST:PORT, the address the boards reach (not '%s')\n", ba);
    return 2;
  }
  xq_server_opts o = c.o;
  o.signals = 1;
  o.out = stdout;
  o.log = c.quiet ? NULL : stderr;
  if (o.http && !strcmp(o.http, "none")) o.http = NULL;
  if (c.publish_given) o.publish = &c.publish;
  if (c.batch_ms != -2) o.publish_batch_ms = c.batch_ms ? c.batch_ms : -1;
  /* the store and its FILE.admin are never the rules file */
  const xq__path store = {o.db, "the store", 1}, rules = {o.rules, "--rules", 0};
  if (xq__paths_check("serve", &store, 1, &rules, 1)) return 1;
  xq_error err = {0};
  if (xq_serve(&o, &err) != XQ_OK) {
    fprintf(stderr, "xqref serve: %s\n", err.msg);
    return 1;
  }
  return 0;
}
