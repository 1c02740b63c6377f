/*
 * tourney_live.c -- the live-server actions of `xqref tourney`
 * (docs/store.md): demo (a demo tournament in a new store), token, tokens
 * and revoke (server access tokens), games (the per-game log).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pair/pair.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "tourney.h"
#include "tourney_cli.h"

/* Open o->db as `create` (XQ_TSTORE_*) says. Returns 0 or 1. */
static int open_store(const xq__topts *o, const char *act, int create, xq_tstore **st)
{
  xq_error err = {0};
  if (xq_tstore_open(o->db, create, st, &err)) {
    fprintf(stderr, "xqref tourney %s: %s\n", act, err.msg);
    return 1;
  }
  return 0;
}

static int cmd_demo(const xq__topts *o)
{
  xq_tstore *st;
  xq_error err = {0};
  xq_ttoken admin, *t = NULL;
  int n = 0, created = 0;
  int rc = open_store(o, "demo", o->init ? XQ_TSTORE_INIT : XQ_TSTORE_CREATE, &st);
  if (rc) return rc;
  if ((rc = xq_tourney_demo_tokens(st, (int)o->players, &t, &n, &err)) ||
      (rc = xq_tstore_admin_token(st, &admin, &created, &err))) {
    free(t);
    fprintf(stderr, "xqref tourney demo: %s\n", err.msg);
    xq_tstore_close(st);
    return 1;
  }
  xq_tpairing pr = {0};
  int boards = xq_tstore_pairing(st, 1, &pr, NULL) ? 0 : pr.nboards;
  xq_tpairing_clear(&pr);
  xq_tstore_close(st);
  printf("created %s: xqref demo open, %ld players, round 1 paired on %d boards\n", o->db, o->players, boards);
  xq_list_token(&admin, 0, stdout);
  for (int i = 0; i < n; i++)
    if (t[i].role != XQ_ROLE_ADMIN) xq_list_token(&t[i], 0, stdout);
  free(t);
  return 0;
}

static int cmd_token(const xq__topts *o)
{
  int role = xq_role_parse(o->role);
  if (!role) {
    fprintf(stderr, "xqref tourney token: --role is admin, arbiter, board or viewer\n");
    return 2;
  }
  if (role == XQ_ROLE_BOARD && (o->round < 1 || o->table < 1)) {
    fprintf(stderr, "xqref tourney token: a board token needs --round and --table\n");
    return 2;
  }
  if (role != XQ_ROLE_BOARD && (o->round || o->table)) {
    fprintf(stderr, "xqref tourney token: only board tokens take --round and --table\n");
    return 2;
  }
  xq_tstore *st;
  xq_ttoken t;
  xq_error err = {0};
  int rc = open_store(o, "token", XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  if (role == XQ_ROLE_BOARD) /* a table that is there, as the server asks */
    rc = xq_tstore_board_table(st, (int)o->round, (int)o->table, &err);
  if (!rc) rc = xq_tstore_token_new(st, role, (int)o->round, (int)o->table, o->label, &t, &err);
  xq_tstore_close(st);
  if (rc) { fprintf(stderr, "xqref tourney token: %s\n", err.msg); return 1; }
  printf("%s\n", t.token);
  return 0;
}

static int cmd_tokens(const xq__topts *o)
{
  xq_tstore *st;
  xq_ttoken *t;
  xq_error err = {0};
  int n;
  int rc = open_store(o, "tokens", XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  rc = xq_tstore_tokens(st, &t, &n, &err);
  xq_tstore_close(st);
  if (rc) { fprintf(stderr, "xqref tourney tokens: %s\n", err.msg); return 1; }
  for (int i = 0; i < n; i++) xq_list_token(&t[i], 1, stdout);
  free(t);
  return 0;
}

static int cmd_revoke(const xq__topts *o)
{
  xq_tstore *st;
  xq_error err = {0};
  if (!o->arg) { fprintf(stderr, "xqref tourney revoke: which TOKEN?\n"); return 2; }
  int rc = open_store(o, "revoke", XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  rc = xq_tstore_token_revoke(st, o->arg, &err);
  xq_tstore_close(st);
  if (rc) { fprintf(stderr, "xqref tourney revoke: %s\n", err.msg); return 1; }
  printf("revoked %s\n", o->arg);
  return 0;
}

static const char *source_name(int s)
{
  return s == XQ_GSRC_BOARD ? "board" : s == XQ_GSRC_ARBITER ? "arbiter" : s == XQ_GSRC_INGEST ? "ingest" : "?";
}

/* One row a line: id round board source seq event. */
static int print_row(void *ctx, const xq_tgame_rec *r)
{
  const long *round = ctx;
  if (*round && r->round != *round) return 0;
  printf("%lld %d %d %s %lld %s\n", (long long)r->id, r->round, r->board, source_name(r->source),
         (long long)r->seq, r->event);
  return ferror(stdout) ? XQ_EIO : 0;
}

static int cmd_games(const xq__topts *o)
{
  xq_tstore *st;
  xq_error err = {0};
  if (o->table && !o->round) { fprintf(stderr, "xqref tourney games: --table needs --round\n"); return 2; }
  int rc = open_store(o, "games", XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  long only_round = o->table ? 0 : o->round; /* --round alone: every table of it */
  rc = xq_tstore_game_scan(st, o->table ? (int)o->round : 0, (int)o->table, print_row, &only_round, &err);
  xq_tstore_close(st);
  if (rc) {
    fprintf(stderr, "xqref tourney games: %s\n", rc == XQ_EIO ? "write error" : err.msg);
    return 1;
  }
  return 0; /* a write that failed: main says so (cli/main.c) */
}

int xq__tourney_live_main(const xq__topts *o, const char *a)
{
  if (!strcmp(a, "demo")) return cmd_demo(o);
  if (!strcmp(a, "token")) return cmd_token(o);
  if (!strcmp(a, "tokens")) return cmd_tokens(o);
  if (!strcmp(a, "revoke")) return cmd_revoke(o);
  return cmd_games(o);
}
