/*
 * test_tourney_games.c -- what the live server keeps in the store (schema
 * version 5): access tokens (roles, table binding, revocation, the admin
 * token), the per-game log (order, refused duplicates, stored replies,
 * the last sequence number), group-commit batches (durable once committed,
 * nothing after a rollback or a kill mid-batch, a failed write undoing
 * only itself), two threads sharing a store, the migration of a version-4
 * store, the demo tournament, and the new `xqref tourney` actions.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store_fixture.h"
#include "support.h"
#include "tourney.h"
#include "pair/pair.h"
#include "store/store.h"
#include "knockout.h"

static xq_tstore *open_store(const char *path)
{
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, 1, &st, &err), XQ_OK, "%s", err.msg);
  return st;
}

static int64_t append(xq_tstore *st, int round, int board, int source, int64_t seq, const char *event,
                      const char *reply)
{
  xq_tgame_rec r = {.round = round, .board = board, .source = source, .seq = seq, .event = event, .reply = reply};
  xq_error err = {0};
  int64_t id = -1;
  cr_assert_eq(xq_tstore_game_append(st, &r, &id, &err), XQ_OK, "append %d/%d seq %lld: %s", round, board,
               (long long)seq, err.msg);
  return id;
}

/* Rows seen by a scan, copied. */
#define SEEN_MAX 4096
typedef struct seen {
  int n;
  int64_t id[SEEN_MAX], seq[SEEN_MAX], at[SEEN_MAX];
  int round[SEEN_MAX], board[SEEN_MAX], source[SEEN_MAX];
  char event[SEEN_MAX][24], reply[SEEN_MAX][48];
  int stop_after;  /* stop the scan after this many rows, 0 never */
} seen;

static int collect(void *ctx, const xq_tgame_rec *r)
{
  seen *s = ctx;
  cr_assert_lt(s->n, SEEN_MAX);
  s->id[s->n] = r->id;
  s->seq[s->n] = r->seq;
  s->at[s->n] = r->at_ms;
  s->round[s->n] = r->round;
  s->board[s->n] = r->board;
  s->source[s->n] = r->source;
  snprintf(s->event[s->n], sizeof s->event[0], "%s", r->event);
  snprintf(s->reply[s->n], sizeof s->reply[0], "%s", r->reply);
  s->n++;
  return s->stop_after && s->n == s->stop_after ? 42 : 0;
}

static seen *scan(xq_tstore *st, int round, int board)
{
  static seen s;
  xq_error err = {0};
  memset(&s, 0, sizeof s);
  cr_assert_eq(xq_tstore_game_scan(st, round, board, collect, &s, &err), XQ_OK, "%s", err.msg);
  return &s;
}

static int is_token(const char *t)
{
  if (strlen(t) != XQ_TOKEN_CHARS) return 0;
  for (const char *p = t; *p; p++)
    if (!strchr("0123456789abcdef", *p)) return 0;
  return 1;
}

/* ------------------------------------------------------------------ */
/* Tokens                                                              */
/* ------------------------------------------------------------------ */

Test(tokens, roles_by_name)
{
  const char *names[] = {"admin", "arbiter", "board", "viewer"};
  int roles[] = {XQ_ROLE_ADMIN, XQ_ROLE_ARBITER, XQ_ROLE_BOARD, XQ_ROLE_VIEWER};
  for (int i = 0; i < 4; i++) {
    cr_assert_str_eq(xq_role_name(roles[i]), names[i]);
    cr_assert_eq(xq_role_parse(names[i]), roles[i]);
  }
  cr_assert_str_eq(xq_role_name(XQ_ROLE_NONE), "none");
  cr_assert_str_eq(xq_role_name(99), "none");
  cr_assert_eq(xq_role_parse("none"), XQ_ROLE_NONE);
  cr_assert_eq(xq_role_parse("Admin"), XQ_ROLE_NONE);
  cr_assert_eq(xq_role_parse(""), XQ_ROLE_NONE);
  cr_assert_eq(xq_role_parse(NULL), XQ_ROLE_NONE);
}

Test(tokens, roles_bindings_unknown_and_revoked)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "tokens");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  xq_ttoken arb, brd, view, t;
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_ARBITER, 0, 0, "chief arbiter", &arb, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_BOARD, 3, 7, "table 7", &brd, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_VIEWER, 0, 0, NULL, &view, &err), XQ_OK, "%s", err.msg);
  cr_assert(is_token(arb.token) && is_token(brd.token) && is_token(view.token), "%s %s", arb.token, brd.token);
  cr_assert(strcmp(arb.token, brd.token) && strcmp(brd.token, view.token) && strcmp(arb.token, view.token));
  /* binding: a board token needs its table, other roles take none */
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_BOARD, 0, 7, "", &t, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_BOARD, 3, 0, "", &t, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_ARBITER, 1, 1, "", &t, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_NONE, 0, 0, "", &t, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_new(st, 9, 0, 0, "", &t, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_VIEWER, 0, 0, "tab\there", &t, &err), XQ_EINVAL);
  char long_label[100];
  memset(long_label, 'x', sizeof long_label - 1);
  long_label[sizeof long_label - 1] = 0;
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_VIEWER, 0, 0, long_label, &t, &err), XQ_EINVAL);

  cr_assert_eq(xq_tstore_token_find(st, brd.token, &t), XQ_OK);
  cr_assert_eq(t.role, XQ_ROLE_BOARD);
  cr_assert(t.round == 3 && t.board == 7);
  cr_assert_str_eq(t.label, "table 7");
  /* the store keeps the token's SHA-256, never the token (schema 6) */
  char want_hash[XQ_TOKEN_HASH_CHARS + 1];
  xq_sha256_hex(brd.token, XQ_TOKEN_CHARS, want_hash);
  cr_assert_str_eq(brd.hash, want_hash);
  cr_assert_str_eq(t.hash, brd.hash);
  cr_assert_str_eq(t.token, "");
  cr_assert_eq(xq_tstore_token_find(st, arb.token, &t), XQ_OK);
  cr_assert(t.role == XQ_ROLE_ARBITER && t.round == 0 && t.board == 0);
  cr_assert_str_eq(t.label, "chief arbiter");
  /* unknown: well-formed but never issued, or malformed */
  cr_assert_eq(xq_tstore_token_find(st, "0123456789abcdef0123456789abcdef", &t), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_find(st, "0123", &t), XQ_EINVAL);
  char upper[XQ_TOKEN_CHARS + 1];
  snprintf(upper, sizeof upper, "%s", brd.token);
  for (char *p = upper; *p; p++) if (*p >= 'a') *p = (char)(*p - 32);
  if (strcmp(upper, brd.token)) cr_assert_eq(xq_tstore_token_find(st, upper, &t), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_find(st, NULL, &t), XQ_EINVAL);

  xq_ttoken *all;
  int n;
  cr_assert_eq(xq_tstore_tokens(st, &all, &n, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(n, 3);
  cr_assert_str_eq(all[0].hash, arb.hash);
  cr_assert_str_eq(all[1].hash, brd.hash);
  cr_assert_str_eq(all[2].hash, view.hash);
  cr_assert(!all[0].token[0] && !all[1].token[0] && !all[2].token[0], "no token text is stored");
  free(all);

  /* revoked: no longer found or listed, and revoked once only */
  cr_assert_eq(xq_tstore_token_revoke(st, brd.token, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_token_find(st, brd.token, &t), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_revoke(st, brd.token, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_revoke(st, "0123456789abcdef0123456789abcdef", &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_revoke(st, "not a token", &err), XQ_EINVAL);
  xq_tstore_close(st);

  /* all of it is durable */
  st = open_store(path);
  cr_assert_eq(xq_tstore_tokens(st, &all, &n, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(n, 2);
  cr_assert_str_eq(all[0].hash, arb.hash);
  cr_assert_str_eq(all[1].hash, view.hash);
  cr_assert_eq(all[1].role, XQ_ROLE_VIEWER);
  free(all);
  cr_assert_eq(xq_tstore_token_find(st, brd.token, &t), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_find(st, view.token, &t), XQ_OK);
  /* revoking by the hash prefix `tourney tokens` shows */
  char prefix[XQ_TOKEN_PREFIX_CHARS + 1];
  snprintf(prefix, sizeof prefix, "%.16s", view.hash);
  cr_assert_eq(xq_tstore_token_revoke(st, prefix, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_token_find(st, view.token, &t), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_revoke(st, prefix, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_token_find(st, arb.token, &t), XQ_OK);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(tokens, admin_token_created_once)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "admin");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  xq_ttoken a1, a2, t;
  int created = -1;
  cr_assert_eq(xq_tstore_admin_token(st, &a1, &created, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(created, 1);
  cr_assert(is_token(a1.token));
  cr_assert_eq(a1.role, XQ_ROLE_ADMIN);
  cr_assert_eq(xq_tstore_admin_token(st, &a2, &created, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(created, 0);
  /* found, not made: only its hash is known */
  cr_assert_str_eq(a2.hash, a1.hash);
  cr_assert_str_eq(a2.token, "");
  xq_tstore_close(st);
  st = open_store(path);
  cr_assert_eq(xq_tstore_admin_token(st, &a2, &created, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(created, 0);
  cr_assert_str_eq(a2.hash, a1.hash);
  cr_assert_eq(xq_tstore_token_find(st, a1.token, &t), XQ_OK);
  cr_assert_eq(t.role, XQ_ROLE_ADMIN);
  /* a revoked admin token is replaced by a new one */
  cr_assert_eq(xq_tstore_token_revoke(st, a1.token, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_admin_token(st, &a2, &created, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(created, 1);
  cr_assert_str_neq(a2.token, a1.token);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* The game log                                                        */
/* ------------------------------------------------------------------ */

Test(games, append_and_scan_in_order)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "scan");
  xq_tstore *st = open_store(path);
  int64_t ids[8];
  ids[0] = append(st, 1, 1, XQ_GSRC_ARBITER, 0, "start:rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "");
  ids[1] = append(st, 1, 2, XQ_GSRC_BOARD, 1, "h2e2", "{\"ok\":1}");
  ids[2] = append(st, 1, 1, XQ_GSRC_BOARD, 1, "h2e2", "{\"ok\":true,\"ply\":1}");
  ids[3] = append(st, 1, 1, XQ_GSRC_BOARD, 2, "h9g7", "{\"ok\":true,\"ply\":2}");
  ids[4] = append(st, 2, 1, XQ_GSRC_INGEST, 0, "c3c4", "");
  ids[5] = append(st, 1, 1, XQ_GSRC_ARBITER, 0, "clock:5400000/5390000", "");
  ids[6] = append(st, 1, 2, XQ_GSRC_BOARD, 2, "result:1-0", "{\"ok\":2}");
  ids[7] = append(st, 1, 1, XQ_GSRC_ARBITER, 0, "foul-red", "");
  for (int i = 1; i < 8; i++) cr_assert_gt(ids[i], ids[i - 1], "ids increase over the whole store");

  seen *s = scan(st, 1, 1);
  int want[] = {0, 2, 3, 5, 7};
  cr_assert_eq(s->n, 5);
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(s->id[i], ids[want[i]]);
    cr_assert(s->round[i] == 1 && s->board[i] == 1);
  }
  cr_assert_str_eq(s->event[1], "h2e2");
  cr_assert_str_eq(s->reply[1], "{\"ok\":true,\"ply\":1}");
  cr_assert_eq(s->source[1], XQ_GSRC_BOARD);
  cr_assert_eq(s->seq[2], 2);
  cr_assert_str_eq(s->event[3], "clock:5400000/5390000");
  cr_assert_eq(s->source[3], XQ_GSRC_ARBITER);
  cr_assert_str_eq(s->reply[3], "");
  cr_assert_eq(s->seq[3], 0);
  cr_assert_gt(s->at[0], 1700000000000LL, "at_ms filled with the time of the append");

  s = scan(st, 1, 2);
  cr_assert_eq(s->n, 2);
  cr_assert(s->id[0] == ids[1] && s->id[1] == ids[6]);
  cr_assert_str_eq(s->event[1], "result:1-0");
  s = scan(st, 2, 1);
  cr_assert(s->n == 1 && s->source[0] == XQ_GSRC_INGEST);
  cr_assert_eq(scan(st, 3, 1)->n, 0);

  /* round 0: every game, in id order */
  s = scan(st, 0, 0);
  cr_assert_eq(s->n, 8);
  for (int i = 0; i < 8; i++) cr_assert_eq(s->id[i], ids[i]);
  cr_assert(s->round[4] == 2 && s->board[4] == 1);

  /* a non-zero return stops the scan and is returned */
  static seen stop;
  memset(&stop, 0, sizeof stop);
  stop.stop_after = 3;
  cr_assert_eq(xq_tstore_game_scan(st, 0, 0, collect, &stop, NULL), 42);
  cr_assert_eq(stop.n, 3);

  /* a given at_ms is kept */
  xq_tgame_rec r = {.round = 4, .board = 9, .source = XQ_GSRC_BOARD, .seq = 1, .event = "b0c2", .at_ms = 1234567};
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, NULL), XQ_OK);
  s = scan(st, 4, 9);
  cr_assert(s->n == 1 && s->at[0] == 1234567);
  cr_assert_str_eq(s->reply[0], "", "a NULL reply is stored empty");
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(games, bad_rows_are_refused)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "bad");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  xq_tgame_rec ok = {.round = 1, .board = 1, .source = XQ_GSRC_BOARD, .seq = 1, .event = "h2e2", .reply = ""};
  xq_tgame_rec r;
  r = ok; r.round = 0;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.round = XQ_KO_ROUND + 1; /* past the Swiss rounds and the knockout tables */
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.board = 0;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.source = 4;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.seq = -1;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.event = "";
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.event = NULL;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.event = "h2e2\nh9g7";
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  char *big = malloc(XQ_GAME_TEXT_MAX + 1);
  memset(big, 'a', XQ_GAME_TEXT_MAX);
  big[XQ_GAME_TEXT_MAX] = 0;
  r = ok; r.reply = big;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  r = ok; r.event = big;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_EINVAL);
  big[XQ_GAME_TEXT_MAX - 1] = 0; /* the longest text allowed */
  r = ok; r.reply = big;
  cr_assert_eq(xq_tstore_game_append(st, &r, NULL, &err), XQ_OK, "%s", err.msg);
  free(big);
  cr_assert_eq(scan(st, 0, 0)->n, 1);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(games, duplicate_sequence_numbers_change_nothing)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "dup");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  int64_t first = append(st, 1, 3, XQ_GSRC_BOARD, 5, "h2e2", "{\"first\":1}");
  xq_tgame_rec again = {.round = 1, .board = 3, .source = XQ_GSRC_BOARD, .seq = 5, .event = "b2e2",
                        .reply = "{\"second\":1}"};
  int64_t id = -7;
  cr_assert_eq(xq_tstore_game_append(st, &again, &id, &err), XQ_EINVAL);
  cr_assert_str_eq(err.msg, "duplicate sequence number");
  cr_assert_eq(id, -7, "no id for a refused row");
  seen *s = scan(st, 0, 0);
  cr_assert_eq(s->n, 1);
  cr_assert_eq(s->id[0], first);
  cr_assert_str_eq(s->event[0], "h2e2");
  char *reply;
  cr_assert_eq(xq_tstore_game_reply(st, 1, 3, 5, &reply), XQ_OK);
  cr_assert_str_eq(reply, "{\"first\":1}");
  free(reply);
  /* the same number from another source or another game, and rows with
   * no number (0), are not duplicates */
  append(st, 1, 3, XQ_GSRC_ARBITER, 5, "foul-red", "");
  append(st, 1, 4, XQ_GSRC_BOARD, 5, "h2e2", "");
  append(st, 2, 3, XQ_GSRC_BOARD, 5, "h2e2", "");
  append(st, 1, 3, XQ_GSRC_BOARD, 0, "clock:1/2", "");
  append(st, 1, 3, XQ_GSRC_BOARD, 0, "clock:1/2", "");
  cr_assert_eq(scan(st, 0, 0)->n, 6);
  /* a refused row inside a batch leaves the batch's other rows alone */
  cr_assert_eq(xq_tstore_batch_begin(st, &err), XQ_OK, "%s", err.msg);
  append(st, 1, 3, XQ_GSRC_BOARD, 6, "h9g7", "{\"six\":1}");
  cr_assert_eq(xq_tstore_game_append(st, &again, NULL, &err), XQ_EINVAL);
  append(st, 1, 3, XQ_GSRC_BOARD, 7, "h0g2", "{\"seven\":1}");
  cr_assert_eq(xq_tstore_batch_commit(st, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  st = open_store(path);
  s = scan(st, 1, 3);
  cr_assert_eq(s->n, 6);
  cr_assert(s->seq[4] == 6 && s->seq[5] == 7);
  int64_t last;
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 3, &last), XQ_OK);
  cr_assert_eq(last, 7);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(games, reply_lookup_and_last_seq)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "reply");
  xq_tstore *st = open_store(path);
  int64_t last = -1;
  char *reply = (char *)"untouched";
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 1, &last), XQ_OK);
  cr_assert_eq(last, 0, "no rows: 0");
  cr_assert_eq(xq_tstore_game_reply(st, 1, 1, 1, &reply), XQ_EINVAL);
  cr_assert_null(reply);
  append(st, 1, 1, XQ_GSRC_BOARD, 1, "h2e2", "{\"id\":1,\"ok\":true}");
  append(st, 1, 1, XQ_GSRC_BOARD, 2, "h9g7", "{\"id\":2,\"ok\":true}");
  append(st, 1, 1, XQ_GSRC_BOARD, 4, "h0g2", "{\"id\":4,\"error\":\"ILLEGAL_MOVE\"}");
  append(st, 1, 1, XQ_GSRC_ARBITER, 9, "pause", "{\"arbiter\":9}");
  append(st, 1, 2, XQ_GSRC_BOARD, 11, "c3c4", "{\"b2\":11}");
  cr_assert_eq(xq_tstore_game_reply(st, 1, 1, 2, &reply), XQ_OK);
  cr_assert_str_eq(reply, "{\"id\":2,\"ok\":true}");
  free(reply);
  cr_assert_eq(xq_tstore_game_reply(st, 1, 1, 4, &reply), XQ_OK);
  cr_assert_str_eq(reply, "{\"id\":4,\"error\":\"ILLEGAL_MOVE\"}");
  free(reply);
  cr_assert_eq(xq_tstore_game_reply(st, 1, 1, 3, &reply), XQ_EINVAL, "no row with seq 3");
  cr_assert_eq(xq_tstore_game_reply(st, 1, 1, 9, &reply), XQ_EINVAL, "an arbiter row is not a board reply");
  cr_assert_eq(xq_tstore_game_reply(st, 1, 2, 2, &reply), XQ_EINVAL, "another game");
  cr_assert_eq(xq_tstore_game_reply(st, 1, 1, 0, &reply), XQ_EINVAL);
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 1, &last), XQ_OK);
  cr_assert_eq(last, 4, "highest board seq, the arbiter's 9 not counted");
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 2, &last), XQ_OK);
  cr_assert_eq(last, 11);
  cr_assert_eq(xq_tstore_game_last_seq(st, 2, 1, &last), XQ_OK);
  cr_assert_eq(last, 0);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(games, the_log_is_append_only)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "appendonly");
  xq_tstore *st = open_store(path);
  xq_ttoken t;
  append(st, 1, 1, XQ_GSRC_BOARD, 1, "h2e2", "{}");
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_VIEWER, 0, 0, "v", &t, NULL), XQ_OK);
  xq_tstore_close(st);
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
  cr_assert_neq(sqlite3_exec(db, "UPDATE game_log SET event = 'b2e2'", NULL, NULL, NULL), SQLITE_OK);
  cr_assert_neq(sqlite3_exec(db, "DELETE FROM game_log", NULL, NULL, NULL), SQLITE_OK);
  cr_assert_neq(sqlite3_exec(db, "DELETE FROM tokens", NULL, NULL, NULL), SQLITE_OK);
  cr_assert_neq(sqlite3_exec(db, "UPDATE tokens SET role = 'admin'", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  st = open_store(path);
  seen *s = scan(st, 1, 1);
  cr_assert(s->n == 1 && !strcmp(s->event[0], "h2e2"));
  cr_assert_eq(xq_tstore_token_find(st, t.token, &t), XQ_OK);
  cr_assert_eq(t.role, XQ_ROLE_VIEWER);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* The arbiters' seen marks                                            */
/* ------------------------------------------------------------------ */

typedef struct seen_marks {
  int n, round[8], board[8], count[8];
} seen_marks;

static int note_mark(void *arg, int round, int board, int count)
{
  seen_marks *m = arg;
  cr_assert_lt(m->n, 8);
  m->round[m->n] = round;
  m->board[m->n] = board;
  m->count[m->n++] = count;
  return 0;
}

Test(games, seen_marks_keep_each_games_last_and_refuse_bad_ones)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "seen");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  cr_assert_eq(xq_tstore_seen_set(st, 2, 3, 1, "ab12", &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_seen_set(st, 1, 4, 2, "ab12", &err), XQ_OK);
  cr_assert_eq(xq_tstore_seen_set(st, 2, 3, 3, "cd34", &err), XQ_OK);
  cr_assert_eq(xq_tstore_seen_set(st, 0, 3, 1, "x", &err), XQ_EINVAL, "no round 0");
  cr_assert_eq(xq_tstore_seen_set(st, 1, 0, 1, "x", &err), XQ_EINVAL, "no table 0");
  cr_assert_eq(xq_tstore_seen_set(st, 1, 1, -1, "x", &err), XQ_EINVAL, "no negative count");
  cr_assert_eq(xq_tstore_seen_set(st, 1, 1, 1, "0123456789abcdef0123456789abcdef", &err), XQ_EINVAL, "who too long");
  xq_tstore_close(st);
  /* reopened: each game's last mark, in round and table order */
  st = open_store(path);
  seen_marks m = {0};
  cr_assert_eq(xq_tstore_seen_scan(st, note_mark, &m, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(m.n, 2);
  cr_assert(m.round[0] == 1 && m.board[0] == 4 && m.count[0] == 2);
  cr_assert(m.round[1] == 2 && m.board[1] == 3 && m.count[1] == 3, "the later mark counts");
  xq_tstore_close(st);
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
  cr_assert_neq(sqlite3_exec(db, "UPDATE seen_marks SET seen = 0", NULL, NULL, NULL), SQLITE_OK, "append-only");
  sqlite3_close(db);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* Batches                                                             */
/* ------------------------------------------------------------------ */

Test(batch, commit_is_visible_after_reopen)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "commit");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  cr_assert_eq(xq_tstore_in_batch(st), 0);
  cr_assert_eq(xq_tstore_batch_commit(st, &err), XQ_EINVAL, "no batch open");
  for (int b = 0; b < 3; b++) {
    cr_assert_eq(xq_tstore_batch_begin(st, &err), XQ_OK, "%s", err.msg);
    cr_assert_eq(xq_tstore_in_batch(st), 1);
    cr_assert_eq(xq_tstore_batch_begin(st, &err), XQ_EINVAL, "batches do not nest");
    for (int i = 1; i <= 100; i++) append(st, 1, 1 + i % 4, XQ_GSRC_BOARD, b * 100 + i, "h2e2", "{}");
    cr_assert_eq(xq_tstore_batch_commit(st, &err), XQ_OK, "%s", err.msg);
    cr_assert_eq(xq_tstore_in_batch(st), 0);
  }
  xq_tstore_close(st);
  st = open_store(path);
  seen *s = scan(st, 0, 0);
  cr_assert_eq(s->n, 300);
  for (int i = 1; i < s->n; i++) cr_assert_gt(s->id[i], s->id[i - 1]);
  int64_t last;
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 1, &last), XQ_OK);
  cr_assert_eq(last, 300);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(batch, rollback_leaves_nothing)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "rollback");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cr_assert_eq(xq_tstore_create_event(st, "批处理杯", &cfg, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_batch_begin(st, &err), XQ_OK, "%s", err.msg);
  for (int i = 1; i <= 50; i++) append(st, 1, 1, XQ_GSRC_BOARD, i, "h2e2", "{}");
  /* other writes join the open batch */
  xq_test_store_add(st, "张强", 2400);
  xq_ttoken t;
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_ARBITER, 0, 0, "a", &t, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_event_count(st), 1, "the batch sees its own writes");
  cr_assert_eq(xq_tstore_token_find(st, t.token, NULL), XQ_OK);
  xq_tstore_batch_rollback(st);
  cr_assert_eq(xq_tstore_in_batch(st), 0);
  cr_assert_eq(xq_tstore_event_count(st), 0);
  cr_assert_eq(scan(st, 0, 0)->n, 0);
  cr_assert_eq(xq_tstore_token_find(st, t.token, NULL), XQ_EINVAL);
  xq_tstore_batch_rollback(st); /* no batch: a no-op */
  /* writes after the rollback are their own transactions again */
  append(st, 1, 1, XQ_GSRC_BOARD, 1, "h2e2", "{}");
  xq_tstore_close(st);
  st = open_store(path);
  cr_assert_eq(scan(st, 0, 0)->n, 1);
  cr_assert_eq(xq_tstore_event_count(st), 0);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(batch, a_failing_write_undoes_only_itself)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "partial");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  /* an event that import refuses half way: after the configuration and
   * both players are written, a forfeit without an opponent */
  xq_tournament *ev = xq_tournament_new(NULL, "半途而废");
  cr_assert_not_null(ev);
  for (int i = 0; i < 2; i++) {
    xq_tplayer p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "棋手%d", i + 1);
    p.pno = i + 1;
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, NULL), XQ_OK);
  }
  xq_tournament_slot(ev, 1, 1)->res = XQ_TR_FWIN;
  ev->nrounds = 1;

  cr_assert_eq(xq_tstore_batch_begin(st, &err), XQ_OK, "%s", err.msg);
  append(st, 1, 1, XQ_GSRC_BOARD, 1, "h2e2", "{\"a\":1}");
  xq_ttoken t;
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_BOARD, 1, 1, "table 1", &t, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_import(st, ev, &ev->cfg, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "forfeit"), "%s", err.msg);
  cr_assert_eq(xq_tstore_in_batch(st), 1, "the batch stays open");
  cr_assert_eq(xq_tstore_event_count(st), 0, "the import's registrations are undone");
  cr_assert_eq(xq_tstore_result(st, 1, 1, "1-0", &err), XQ_EINVAL, "no such board: refused");
  append(st, 1, 1, XQ_GSRC_BOARD, 2, "h9g7", "{\"b\":2}");
  cr_assert_eq(xq_tstore_batch_commit(st, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);

  st = open_store(path);
  seen *s = scan(st, 0, 0);
  cr_assert_eq(s->n, 2);
  cr_assert(s->seq[0] == 1 && s->seq[1] == 2);
  cr_assert_eq(xq_tstore_token_find(st, t.token, NULL), XQ_OK);
  cr_assert_eq(xq_tstore_event_count(st), 0);
  xq_tournament *loaded;
  cr_assert_eq(xq_tstore_load(st, &loaded, &err), XQ_ESTORE, "no event configured");
  /* and the same import outside a batch is refused the same way */
  cr_assert_eq(xq_tstore_import(st, ev, &ev->cfg, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_event_count(st), 0);
  xq_tstore_close(st);
  xq_tournament_free(ev);
  xq_test_db_remove(path);
}

Test(batch, reads_and_event_writes_inside_a_batch)
{
  /* the tourney writes the server makes between moves (a result, a
   * foul) and the reads it makes (load) join the open batch */
  char path[512];
  xq_test_db_fresh(path, sizeof path, "mixed");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  cr_assert_eq(xq_tourney_demo(st, 6, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_batch_begin(st, &err), XQ_OK, "%s", err.msg);
  append(st, 1, 1, XQ_GSRC_BOARD, 1, "h2e2", "{}");
  cr_assert_eq(xq_tstore_result(st, 1, 1, "1-0", &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_result(st, 1, 9, "1-0", &err), XQ_EINVAL, "no board 9");
  cr_assert_eq(xq_tstore_foul(st, 1, 2, 1, &err), XQ_OK, "%s", err.msg);
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  xq_tpairing pr;
  cr_assert_eq(xq_tstore_pairing(st, 1, &pr, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tournament_slot(ev, pr.boards[0].red, 1)->res, XQ_TR_WIN);
  xq_tournament_free(ev);
  cr_assert_eq(xq_tstore_in_batch(st), 1, "the load did not end the batch");
  cr_assert_eq(xq_tstore_batch_commit(st, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  st = open_store(path);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tournament_slot(ev, pr.boards[0].red, 1)->res, XQ_TR_WIN);
  cr_assert_eq(xq_tournament_slot(ev, pr.boards[0].black, 1)->res, XQ_TR_LOSS);
  cr_assert_eq(xq_tournament_slot(ev, 2, 1)->fouls, 1);
  xq_tournament_free(ev);
  xq_tpairing_clear(&pr);
  cr_assert_eq(scan(st, 0, 0)->n, 1);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

#define KILL_BATCHES 5
#define KILL_ROWS 100
#define KILL_OPEN_ROWS 3000 /* enough to spill pages of the open batch */

Test(batch, a_kill_mid_batch_keeps_exactly_the_committed_batches)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "kill");
  xq_tstore_close(open_store(path)); /* migrated before the fork */
  int fd[2];
  cr_assert_eq(pipe(fd), 0);
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    xq_tstore *cs;
    char reply[1024];
    memset(reply, 'r', sizeof reply - 1);
    reply[sizeof reply - 1] = 0;
    close(fd[0]);
    if (xq_tstore_open(path, 0, &cs, NULL)) _exit(3);
    int64_t seq = 0;
    for (int b = 0; b < KILL_BATCHES; b++) {
      if (xq_tstore_batch_begin(cs, NULL)) _exit(4);
      for (int i = 0; i < KILL_ROWS; i++) {
        xq_tgame_rec r = {.round = 1, .board = 1, .source = XQ_GSRC_BOARD, .seq = ++seq, .event = "h2e2", .reply = reply};
        if (xq_tstore_game_append(cs, &r, NULL, NULL)) _exit(5);
      }
      if (xq_tstore_batch_commit(cs, NULL)) _exit(6);
      if (write(fd[1], "c", 1) != 1) _exit(7);
    }
    if (xq_tstore_batch_begin(cs, NULL)) _exit(8);
    for (int i = 0; i < KILL_OPEN_ROWS; i++) {
      xq_tgame_rec r = {.round = 1, .board = 1 + i % 2, .source = XQ_GSRC_BOARD, .seq = ++seq, .event = "h9g7", .reply = reply};
      if (xq_tstore_game_append(cs, &r, NULL, NULL)) _exit(9);
    }
    if (write(fd[1], "o", 1) != 1) _exit(10);
    for (;;) pause(); /* killed here, the batch open */
  }
  close(fd[1]);
  char msgs[KILL_BATCHES + 2];
  int got = 0;
  while (got < KILL_BATCHES + 1 && read(fd[0], msgs + got, 1) == 1) got++;
  kill(pid, SIGKILL);
  int status;
  waitpid(pid, &status, 0);
  close(fd[0]);
  cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status %d after %d messages", status, got);
  cr_assert_eq(got, KILL_BATCHES + 1);
  cr_assert_eq(msgs[KILL_BATCHES], 'o');

  xq_tstore *st = open_store(path);
  cr_assert_eq(xq_tstore_in_batch(st), 0);
  seen *s = scan(st, 0, 0);
  cr_assert_eq(s->n, KILL_BATCHES * KILL_ROWS);
  for (int i = 0; i < s->n; i++) {
    cr_assert_eq(s->seq[i], i + 1);
    cr_assert_str_eq(s->event[i], "h2e2");
  }
  int64_t last;
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 1, &last), XQ_OK);
  cr_assert_eq(last, KILL_BATCHES * KILL_ROWS);
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 2, &last), XQ_OK);
  cr_assert_eq(last, 0);
  /* the store goes on: the lost rows' numbers are free again */
  append(st, 1, 1, XQ_GSRC_BOARD, last + KILL_BATCHES * KILL_ROWS + 1, "h9g7", "{}");
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* Two threads, one store                                              */
/* ------------------------------------------------------------------ */

#define THREAD_BATCHES 40
#define THREAD_ROWS 50

typedef struct shared {
  xq_tstore *st;
  int failed;
  atomic_int done;
} shared;

static void *writer(void *arg)
{
  shared *sh = arg;
  int64_t seq = 0;
  for (int b = 0; b < THREAD_BATCHES && !sh->failed; b++) {
    if (xq_tstore_batch_begin(sh->st, NULL)) { sh->failed = 1; break; }
    for (int i = 0; i < THREAD_ROWS; i++) {
      xq_tgame_rec r = {.round = 1, .board = 1, .source = XQ_GSRC_BOARD, .seq = ++seq, .event = "h2e2", .reply = "{}"};
      if (xq_tstore_game_append(sh->st, &r, NULL, NULL)) { sh->failed = 2; break; }
    }
    if (xq_tstore_batch_commit(sh->st, NULL)) sh->failed = 3;
  }
  sh->done = 1;
  return NULL;
}

Test(threads, a_writer_thread_commits_while_another_reads_and_writes)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "threads");
  shared sh = {.st = open_store(path)};
  xq_ttoken tok;
  cr_assert_eq(xq_tstore_token_new(sh.st, XQ_ROLE_BOARD, 1, 1, "t1", &tok, NULL), XQ_OK);
  pthread_t th;
  cr_assert_eq(pthread_create(&th, NULL, writer, &sh), 0);
  int64_t prev = 0, last;
  int reads = 0, own = 0;
  while (!sh.done || reads < 10) {
    cr_assert_eq(xq_tstore_game_last_seq(sh.st, 1, 1, &last), XQ_OK);
    cr_assert_geq(last, prev, "the sequence never goes back");
    prev = last;
    cr_assert_eq(xq_tstore_token_find(sh.st, tok.token, NULL), XQ_OK);
    char *reply;
    if (last > 0) {
      cr_assert_eq(xq_tstore_game_reply(sh.st, 1, 1, last, &reply), XQ_OK);
      cr_assert_str_eq(reply, "{}");
      free(reply);
    }
    /* rows of another game, each a write joining the batch open at the
     * time or its own transaction */
    if (own < 200) append(sh.st, 1, 2, XQ_GSRC_BOARD, ++own, "c3c4", "{}");
    reads++;
  }
  pthread_join(th, NULL);
  cr_assert_eq(sh.failed, 0, "writer failed at step %d", sh.failed);
  xq_tstore_close(sh.st);
  xq_tstore *st = open_store(path);
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 1, &last), XQ_OK);
  cr_assert_eq(last, THREAD_BATCHES * THREAD_ROWS);
  cr_assert_eq(xq_tstore_game_last_seq(st, 1, 2, &last), XQ_OK);
  cr_assert_eq(last, own);
  cr_assert_eq(scan(st, 0, 0)->n, THREAD_BATCHES * THREAD_ROWS + own);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* Migration                                                           */
/* ------------------------------------------------------------------ */

Test(migration, a_version_4_store_gains_tokens_and_the_game_log)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "v4");
  xq_test_copy_file(XQ_TEST_DATA "/store/v4.db", path);
  cr_assert_eq(xq_test_sql_int(path, "SELECT version FROM schema_version"), 4);
  cr_assert_eq(xq_test_sql_int(path, "SELECT count(*) FROM sqlite_master WHERE name IN ('tokens', 'game_log')"), 0);

  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_schema_version(st), XQ_STORE_SCHEMA_VERSION);
  /* the event is intact */
  cr_assert_eq(xq_tstore_event_count(st), 11);
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_str_eq(ev->name, "四版测试杯");
  cr_assert_eq(ev->n, 6);
  cr_assert_str_eq(ev->players[0].name, "王天一");
  cr_assert_eq(xq_tournament_slot(ev, 1, 1)->res, XQ_TR_WIN);
  cr_assert_eq(xq_tournament_slot(ev, 2, 1)->res, XQ_TR_LOSS);
  cr_assert_eq(xq_tournament_slot(ev, 3, 1)->res, XQ_TR_DRAW);
  cr_assert_eq(xq_tournament_slot(ev, 3, 1)->fouls, 1);
  cr_assert_eq(xq_tournament_slot(ev, 5, 1)->res, XQ_TR_NONE);
  xq_tournament_free(ev);
  /* and the new tables work */
  xq_ttoken *all;
  int nt;
  cr_assert_eq(xq_tstore_tokens(st, &all, &nt, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(nt, 0);
  free(all);
  xq_ttoken t;
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_BOARD, 1, 3, "round 1 table 3", &t, &err), XQ_OK, "%s", err.msg);
  append(st, 1, 3, XQ_GSRC_BOARD, 1, "h2e2", "{}");
  cr_assert_eq(xq_tstore_result(st, 1, 3, "0-1", &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  cr_assert_eq(xq_test_sql_int(path, "SELECT version FROM schema_version"), XQ_STORE_SCHEMA_VERSION);
  /* opened again: nothing to migrate, everything kept */
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_event_count(st), 12);
  cr_assert_eq(xq_tstore_token_find(st, t.token, NULL), XQ_OK);
  cr_assert_eq(scan(st, 1, 3)->n, 1);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(migration, a_version_5_store_keeps_its_tokens_hashed)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "v5");
  xq_test_copy_file(XQ_TEST_DATA "/store/v5.db", path);
  cr_assert_eq(xq_test_sql_int(path, "SELECT version FROM schema_version"), 5);
  static const char *const admin = "0123456789abcdef0123456789abcdef", *board = "fedcba9876543210fedcba9876543210",
                           *arbiter = "00112233445566778899aabbccddeeff", *viewer = "ffeeddccbbaa99887766554433221100";
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_schema_version(st), XQ_STORE_SCHEMA_VERSION);
  /* the tokens of schema 5 still open the same doors */
  xq_ttoken t;
  cr_assert_eq(xq_tstore_token_find(st, board, &t), XQ_OK);
  cr_assert(t.role == XQ_ROLE_BOARD && t.round == 1 && t.board == 3 && !strcmp(t.label, "round 1 table 3"));
  cr_assert_eq(xq_tstore_token_find(st, admin, &t), XQ_OK);
  cr_assert_eq(t.role, XQ_ROLE_ADMIN);
  cr_assert_eq(xq_tstore_token_find(st, viewer, &t), XQ_EINVAL, "revoked stays revoked");
  /* in the same order, and none of them in clear any more */
  xq_ttoken *all;
  int nt;
  cr_assert_eq(xq_tstore_tokens(st, &all, &nt, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(nt, 3);
  const char *const order[] = {admin, board, arbiter};
  for (int i = 0; i < 3; i++) {
    char h[XQ_TOKEN_HASH_CHARS + 1];
    xq_sha256_hex(order[i], XQ_TOKEN_CHARS, h);
    cr_assert_str_eq(all[i].hash, h);
    cr_assert_str_eq(all[i].token, "");
  }
  free(all);
  int created = -1;
  cr_assert_eq(xq_tstore_admin_token(st, &t, &created, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(created, 0);
  /* a token can still only be revoked, once */
  cr_assert_eq(xq_tstore_token_revoke(st, arbiter, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_token_revoke(st, arbiter, &err), XQ_EINVAL);
  xq_tstore_close(st);
  char sql[256];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM tokens WHERE hash IN ('%s', '%s', '%s', '%s')", admin, board, arbiter, viewer);
  cr_assert_eq(xq_test_sql_int(path, sql), 0, "no token is stored in clear");
  cr_assert_eq(xq_test_sql_int(path, "SELECT count(*) FROM tokens WHERE length(hash) = 64"), 4);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* The demo                                                            */
/* ------------------------------------------------------------------ */

Test(demo, players_round_one_and_tokens)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "demo");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  cr_assert_eq(xq_tourney_demo(st, 1, &err), XQ_EINVAL);
  cr_assert_eq(xq_tourney_demo(st, XQ_TOURNEY_PLAYERS_MAX + 1, &err), XQ_EINVAL);
  cr_assert_eq(xq_tourney_demo(st, 11, &err), XQ_OK, "%s", err.msg);
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_str_eq(ev->name, "xqref demo open");
  cr_assert_eq(ev->cfg.rounds, 7);
  cr_assert(ev->cfg.win == 4 && ev->cfg.draw == 2 && ev->cfg.loss == 0, "2/1/0 in half-units");
  char tb[256];
  cr_assert_eq(xq_tconfig_tb_format(&ev->cfg, tb, sizeof tb), XQ_OK);
  cr_assert_str_eq(tb, "PTS,OS,WINS,FOULS,DE,BLACK,ROUNDBACK,LOT");
  cr_assert_eq(ev->n, 11);
  int pno_seen[12] = {0};
  for (int i = 0; i < ev->n; i++) {
    const xq_tplayer *p = &ev->players[i];
    int cps = xq_utf8_len(p->name);
    cr_assert(cps >= 2 && cps <= 4, "name %s", p->name);
    cr_assert((unsigned char)p->name[0] >= 0xe4, "a Chinese name: %s", p->name);
    cr_assert(p->rating >= 1000 && p->rating <= 3000, "rating %d", p->rating);
    cr_assert(p->region[0] && p->club[0], "region and club");
    cr_assert_str_eq(p->team, p->club);
    cr_assert(strstr(p->club, p->region) == p->club, "club %s of region %s", p->club, p->region);
    cr_assert(p->sex == 'm' || p->sex == 'w');
    cr_assert(p->pno >= 1 && p->pno <= 11 && !pno_seen[p->pno]++, "pairing number %d", p->pno);
    for (int j = 0; j < i; j++) cr_assert_str_neq(ev->players[j].name, p->name);
    /* numbers by rating */
    for (int j = 0; j < ev->n; j++)
      if (ev->players[j].rating > p->rating) cr_assert_lt(ev->players[j].pno, p->pno);
  }
  /* round 1 published: 1-2, 4-3, 5-6, 8-7, 9-10, the 11th the bye */
  cr_assert_eq(ev->nrounds, 1);
  xq_tpairing pr;
  cr_assert_eq(xq_tstore_pairing(st, 1, &pr, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(pr.nboards, 6);
  int pno_of[12];
  for (int i = 0; i < ev->n; i++) pno_of[i + 1] = ev->players[i].pno;
  cr_assert(pno_of[pr.boards[0].red] == 1 && pno_of[pr.boards[0].black] == 2);
  cr_assert(pno_of[pr.boards[1].red] == 4 && pno_of[pr.boards[1].black] == 3);
  cr_assert(pno_of[pr.boards[5].red] == 11 && pr.boards[5].black == 0, "the bye last");
  /* one board token per game, one arbiter token, no admin yet */
  xq_ttoken *t;
  int n;
  cr_assert_eq(xq_tstore_tokens(st, &t, &n, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(n, 6);
  for (int b = 0; b < 5; b++) {
    char label[64];
    snprintf(label, sizeof label, "round 1 table %d", b + 1);
    cr_assert_eq(t[b].role, XQ_ROLE_BOARD);
    cr_assert(t[b].round == 1 && t[b].board == b + 1);
    cr_assert_str_eq(t[b].label, label);
  }
  cr_assert_eq(t[5].role, XQ_ROLE_ARBITER);
  free(t);
  xq_tpairing_clear(&pr);
  /* not on a store that holds anything */
  long events = xq_tstore_event_count(st);
  cr_assert_eq(xq_tourney_demo(st, 11, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_event_count(st), events);
  xq_tstore_close(st);

  /* deterministic: another store gets the same players */
  char path2[512];
  xq_test_db_fresh(path2, sizeof path2, "demo2");
  st = open_store(path2);
  cr_assert_eq(xq_tourney_demo(st, 11, &err), XQ_OK, "%s", err.msg);
  xq_tournament *ev2;
  cr_assert_eq(xq_tstore_load(st, &ev2, &err), XQ_OK, "%s", err.msg);
  for (int i = 0; i < 11; i++) {
    cr_assert_str_eq(ev2->players[i].name, ev->players[i].name);
    cr_assert_eq(ev2->players[i].rating, ev->players[i].rating);
    cr_assert_str_eq(ev2->players[i].club, ev->players[i].club);
  }
  xq_tournament_free(ev2);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path2);

  /* a store with only a token in it is not empty either */
  st = open_store(path2);
  cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_VIEWER, 0, 0, "", NULL, &err), XQ_OK);
  cr_assert_eq(xq_tourney_demo(st, 4, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_event_count(st), 0);
  xq_tstore_close(st);
  xq_test_db_remove(path2);
  xq_test_db_remove(path);
}

Test(demo, an_even_field_and_a_large_one)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "demo_big");
  xq_tstore *st = open_store(path);
  xq_error err = {0};
  cr_assert_eq(xq_tourney_demo(st, 400, &err), XQ_OK, "%s", err.msg);
  xq_tpairing pr;
  cr_assert_eq(xq_tstore_pairing(st, 1, &pr, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(pr.nboards, 200);
  for (int b = 0; b < pr.nboards; b++) cr_assert_neq(pr.boards[b].black, 0);
  xq_ttoken *t;
  int n;
  cr_assert_eq(xq_tstore_tokens(st, &t, &n, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(n, 201);
  cr_assert(t[199].role == XQ_ROLE_BOARD && t[199].board == 200);
  free(t);
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  for (int i = 1; i < ev->n; i++)
    for (int j = 0; j < i; j++) cr_assert_str_neq(ev->players[i].name, ev->players[j].name);
  xq_tournament_free(ev);
  xq_tpairing_clear(&pr);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* xqref tourney demo|token|tokens|revoke|games                        */
/* ------------------------------------------------------------------ */

static char *run(int *status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *run(int *status, const char *fmt, ...)
{
  char args[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  return xq_test_run(args, status);
}

static int count_lines(const char *s, const char *prefix)
{
  int n = 0;
  for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (!strncmp(l, prefix, strlen(prefix))) n++;
  return n;
}

Test(cli, demo_tokens_revoke_and_games)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "cli");
  int status;
  char *out = run(&status, "tourney demo --db %s --players 9", path);
  cr_assert_eq(status, 0, "%s", out);
  cr_assert(strstr(out, "9 players"), "%s", out);
  cr_assert_eq(count_lines(out, "admin - - "), 1, "%s", out);
  cr_assert_eq(count_lines(out, "arbiter - - "), 1, "%s", out);
  cr_assert_eq(count_lines(out, "board 1 "), 4, "%s", out);
  char board3[XQ_TOKEN_CHARS + 1] = "", admin[XQ_TOKEN_CHARS + 1] = "";
  const char *l = strstr(out, "board 1 3 ");
  cr_assert_not_null(l, "%s", out);
  cr_assert_eq(sscanf(l, "board 1 3 %32s", board3), 1);
  cr_assert_eq(sscanf(strstr(out, "admin - - "), "admin - - %32s", admin), 1);
  cr_assert(is_token(board3) && is_token(admin));
  free(out);

  /* the tokens printed are the store's */
  xq_tstore *st = open_store(path);
  xq_ttoken t;
  cr_assert_eq(xq_tstore_token_find(st, board3, &t), XQ_OK);
  cr_assert(t.role == XQ_ROLE_BOARD && t.round == 1 && t.board == 3);
  cr_assert_eq(xq_tstore_token_find(st, admin, &t), XQ_OK);
  cr_assert_eq(t.role, XQ_ROLE_ADMIN);
  int created;
  cr_assert_eq(xq_tstore_admin_token(st, &t, &created, NULL), XQ_OK);
  char admin_hash[XQ_TOKEN_HASH_CHARS + 1], board3_hash[XQ_TOKEN_HASH_CHARS + 1];
  xq_sha256_hex(admin, XQ_TOKEN_CHARS, admin_hash);
  xq_sha256_hex(board3, XQ_TOKEN_CHARS, board3_hash);
  cr_assert(!created && !strcmp(t.hash, admin_hash));
  xq_tstore_close(st);

  out = run(&status, "tourney demo --db %s", path);
  cr_assert_eq(status, 1, "a second demo is refused: %s", out);
  cr_assert(strstr(out, "not empty"), "%s", out);
  free(out);

  out = run(&status, "tourney tokens --db %s", path);
  cr_assert_eq(status, 0, "%s", out);
  cr_assert_eq(count_lines(out, "board 1 "), 4, "%s", out);
  /* tokens are listed by the prefix of their hash, never in clear */
  char line3[128];
  snprintf(line3, sizeof line3, "board 1 3 %.16s round 1 table 3\n", board3_hash);
  cr_assert(strstr(out, line3) && !strstr(out, board3), "%s", out);
  cr_assert_eq(count_lines(out, "admin "), 1, "%s", out);
  free(out);

  out = run(&status, "tourney token --db %s --role board --round 1 --table 2 --label 'table two'", path);
  cr_assert_eq(status, 0, "%s", out);
  char fresh[64] = "";
  cr_assert_eq(sscanf(out, "%63s", fresh), 1);
  cr_assert(is_token(fresh) && strlen(out) == XQ_TOKEN_CHARS + 1, "%s", out);
  free(out);
  out = run(&status, "tourney tokens --db %s", path);
  char want[128], fresh_hash[XQ_TOKEN_HASH_CHARS + 1];
  xq_sha256_hex(fresh, XQ_TOKEN_CHARS, fresh_hash);
  snprintf(want, sizeof want, "board 1 2 %.16s table two\n", fresh_hash);
  cr_assert(strstr(out, want), "%s", out);
  free(out);

  xq_test_expect(0, "tourney revoke --db %s %s", path, board3);
  xq_test_expect(1, "tourney revoke --db %s %s", path, board3);
  out = run(&status, "tourney tokens --db %s", path);
  cr_assert_null(strstr(out, line3), "%s", out);
  cr_assert_eq(count_lines(out, "board 1 "), 4, /* 3 of the demo's, the new one */ "%s", out);
  free(out);

  /* usage errors */
  xq_test_expect(2, "tourney token --db %s --role board --round 2", path);
  xq_test_expect(2, "tourney token --db %s --role king", path);
  xq_test_expect(2, "tourney token --db %s --role arbiter --table 2", path);
  xq_test_expect(2, "tourney games --db %s --table 2", path);
  xq_test_expect(2, "tourney tokens --db %s --players 3", path);
  xq_test_expect(2, "tourney revoke --db %s", path);

  /* games: the log as the server wrote it */
  st = open_store(path);
  int64_t a = append(st, 1, 1, XQ_GSRC_BOARD, 1, "h2e2", "{}");
  int64_t b = append(st, 1, 2, XQ_GSRC_BOARD, 1, "c3c4", "{}");
  int64_t c = append(st, 1, 1, XQ_GSRC_ARBITER, 0, "foul-red", "");
  int64_t d = append(st, 2, 1, XQ_GSRC_INGEST, 0, "result:1-0", "");
  xq_tstore_close(st);
  out = run(&status, "tourney games --db %s", path);
  cr_assert_eq(status, 0, "%s", out);
  char expect[512];
  snprintf(expect, sizeof expect,
           "%lld 1 1 board 1 h2e2\n%lld 1 2 board 1 c3c4\n%lld 1 1 arbiter 0 foul-red\n%lld 2 1 ingest 0 result:1-0\n",
           (long long)a, (long long)b, (long long)c, (long long)d);
  cr_assert_str_eq(out, expect);
  free(out);
  out = run(&status, "tourney games --db %s --round 1 --table 1", path);
  snprintf(expect, sizeof expect, "%lld 1 1 board 1 h2e2\n%lld 1 1 arbiter 0 foul-red\n", (long long)a, (long long)c);
  cr_assert_str_eq(out, expect);
  free(out);
  out = run(&status, "tourney games --db %s --round 1", path);
  cr_assert_eq(count_lines(out, ""), 3, "%s", out);
  free(out);
  out = run(&status, "tourney games --db %s --round 3 --table 1", path);
  cr_assert(status == 0 && out[0] == 0, "%s", out);
  free(out);

  out = run(&status, "tourney --help");
  cr_assert(status == 0 && strstr(out, "demo") && strstr(out, "revoke") && strstr(out, "games"), "%s", out);
  free(out);
  xq_test_db_remove(path);
}
