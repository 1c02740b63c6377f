/*
 * simulate_ko.c -- the knockout of `xqref simulate` (docs/tourney.md, "Knockout stage"): the
 * stage started from the standings after the cut, or a knockout-only
 * event drawn by lot; then its games published on the server's knockout
 * tables (round XQ_KO_ROUND) a batch at a time, each table given a board
 * token and the clock of its game's type, and played as Swiss games are
 * (simulate_boards.c) until every match is decided.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simulate_internal.h"

int xq__simulate_ko_start(xq__sim *S)
{
  const xq_regulation *r = S->r;
  char line[XQ_SIM_LINE];
  int choice = 0;
  if (r->ko_top_chooses) {
    /* Tangshan: the Swiss winner picks its semi-final opponent from #3
     * and #4; the simulated winner picks the lower-rated one */
    snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"standings\",\"round\":%d}", ++S->next_id,
             r->ko_after_round);
    cJSON *st = xq__simulate_server_staff(S, line, "standings");
    if (!st) return XQ_EIO;
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(st, "standings");
    const cJSON *i3 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 2), "id");
    const cJSON *i4 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 3), "id");
    int ok = cJSON_IsNumber(i3) && cJSON_IsNumber(i4) && i3->valueint >= 1 && i3->valueint <= S->n &&
             i4->valueint >= 1 && i4->valueint <= S->n;
    if (ok) choice = S->rating[i4->valueint] < S->rating[i3->valueint] ? 4 : 3;
    cJSON_Delete(st);
    if (!ok) return xq__simulate_server_fail(S, XQ_EIO, "standings: no #3 and #4");
  }
  snprintf(line, sizeof line,
           "{\"id\":%" PRId64 ",\"op\":\"ko_start\",\"after\":%d,\"size\":%d,\"seeding\":\"%s\",\"format\":\"%s\","
           "\"choice\":%d}", ++S->next_id, r->ko_after_round, r->ko_size, r->ko_top_chooses ? "choose" : "fixed",
           r->ko_format ? r->ko_format : "", choice);
  cJSON *k = xq__simulate_server_staff(S, line, "ko_start");
  if (!k) return XQ_EIO;
  cJSON_Delete(k);
  S->rep->ko_after = r->ko_after_round;
  S->rep->ko_size = r->ko_size;
  S->rep->ko_choice = choice;
  if (S->o->log) fprintf(S->o->log, "knockout: top %d after round %d%s\n", r->ko_size, r->ko_after_round,
                          r->ko_top_chooses ? (choice == 3 ? ", #1 picks #3" : ", #1 picks #4") : "");
  return XQ_OK;
}

/* The "red" list of a ko_publish: Red of every waiting match's standard
 * game or armageddon by lot (the Tangshan top seed chooses: simulated the
 * same way); the other game types take their colours from the rules and
 * ignore it where it agrees. `st` is the state the knockout op gave. */
static void ko_reds(xq__sim *S, const cJSON *st, char *out, size_t len)
{
  size_t k = (size_t)snprintf(out, len, "[");
  const cJSON *m;
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(st, "matches")) {
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(m, "players");
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(m, "games");
    const cJSON *no = cJSON_GetObjectItemCaseSensitive(m, "match");
    const cJSON *next = cJSON_GetObjectItemCaseSensitive(m, "next");
    /* the games whose colours are open (the standard game, the
     * armageddon: 抽签定先); the others follow the format */
    int open = next ? cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(next, "colours_open"))
                    : cJSON_GetArraySize(games) == 0;
    if (cJSON_GetArraySize(pl) != 2 || !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(m, "winner")) ||
        !cJSON_IsNumber(no) || !open || k + 64 >= len)
      continue;
    const cJSON *p = cJSON_GetArrayItem(pl, (int)xq__simulate_games_below(&S->rng, 2));
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(p, "id");
    if (cJSON_IsNumber(id))
      k += (size_t)snprintf(out + k, len - k, "%s{\"match\":%d,\"player\":%d}", k > 1 ? "," : "", no->valueint,
                            id->valueint);
  }
  snprintf(out + k, len - k, "]");
}

int xq__simulate_ko_add_tables(xq__sim *S, int stage, int *added)
{
  char line[XQ_SIM_LINE], reds[XQ_SIM_LINE * 8];
  *added = 0;
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"knockout\"}", ++S->next_id);
  cJSON *st = xq__simulate_server_staff(S, line, "knockout");
  if (!st) return XQ_EIO;
  ko_reds(S, st, reds, sizeof reds);
  cJSON_Delete(st);
  char *pub = malloc(sizeof reds + 128);
  if (!pub) return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  snprintf(pub, sizeof reds + 128, "{\"id\":%" PRId64 ",\"op\":\"ko_publish\",\"stage\":%d,\"red\":%s}",
           ++S->next_id, stage, reds);
  cJSON *pr = xq__simulate_server_call(S, &S->adm, pub);
  free(pub);
  if (!pr) return XQ_EIO;
  const char *code = xq__jsonl_error(pr);
  if (code && !strcmp(code, "CONFLICT")) { /* no match waits */
    cJSON_Delete(pr);
    return XQ_OK;
  }
  if (code) {
    cJSON_Delete(pr);
    return xq__simulate_server_fail(S, XQ_EIO, "ko_publish: %s", code);
  }
  const cJSON *tabs = cJSON_GetObjectItemCaseSensitive(pr, "tables");
  int nt = cJSON_GetArraySize(tabs), rc = XQ_OK;
  xq__sim_board *grown = realloc(S->boards, sizeof *grown * (size_t)(S->nboards + nt + 1));
  if (!grown) {
    cJSON_Delete(pr);
    return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  }
  S->boards = grown;
  for (int i = 0; i < nt && !rc; i++) {
    const cJSON *t = cJSON_GetArrayItem(tabs, i);
    const cJSON *tn = cJSON_GetObjectItemCaseSensitive(t, "table");
    const cJSON *red = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "red"), "id");
    const cJSON *black = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "black"), "id");
    const char *type = xq__jsonl_str(t, "type"), *tc = xq__jsonl_str(t, "time_control");
    if (!cJSON_IsNumber(tn) || !cJSON_IsNumber(red) || !cJSON_IsNumber(black) || !type || !tc) {
      rc = xq__simulate_server_fail(S, XQ_EIO, "ko_publish: a table without number, players or type");
      break;
    }
    /* the table card: a board token for this knockout table */
    snprintf(line, sizeof line,
             "{\"id\":%" PRId64 ",\"op\":\"token\",\"role\":\"board\",\"round\":%d,\"table\":%d,"
             "\"label\":\"knockout table %d\"}", ++S->next_id, XQ_KO_ROUND, tn->valueint, tn->valueint);
    cJSON *tk = xq__simulate_server_staff(S, line, "token");
    const char *text = tk ? xq__jsonl_str(tk, "token") : NULL;
    if (!text || strlen(text) >= XQ_SIM_TOKEN_SIZE) {
      cJSON_Delete(tk);
      rc = xq__simulate_server_fail(S, XQ_EIO, "knockout table %d: no token", tn->valueint);
      break;
    }
    xq__sim_board *b = &S->boards[S->nboards++];
    memset(b, 0, sizeof *b);
    memcpy(b->ko_token, text, strlen(text) + 1);
    cJSON_Delete(tk);
    b->S = S;
    b->round = XQ_KO_ROUND;
    b->table = tn->valueint;
    b->red = red->valueint;
    b->black = black->valueint;
    b->token = b->ko_token;
    /* the clock the server gives the table (its game's type; a final's
     * own), which the board's clock readings follow */
    int base = 0, black_base = 0, inc = 0;
    b->rules = S->rules;
    if (!xq_ko_tc_clock(tc, &base, &black_base, &inc) && base > 0) {
      b->rules.clock_base_s = base;
      b->rules.clock_base_black_s = black_base;
      b->rules.clock_increment_s = inc;
    }
    b->rules.armageddon = !strcmp(type, xq_ko_gtype_name(XQ_KG_ARMAGEDDON));
    S->rep->ko_games++;
    ++*added;
  }
  cJSON_Delete(pr);
  return rc;
}

int xq__simulate_ko_batch(xq__sim *S, int stage, int *n)
{
  S->boards = NULL;
  S->nboards = 0;
  int rc = xq__simulate_ko_add_tables(S, stage, n);
  if (!rc && *n) rc = xq__simulate_boards_play(S);
  free(S->boards);
  S->boards = NULL;
  S->nboards = 0;
  return rc;
}

int xq__simulate_ko_run(xq__sim *S)
{
  int rc = XQ_OK, n = 1, batches = 0;
  while (!rc && n > 0 && batches++ < XQ_KO_GAMES_MAX) rc = xq__simulate_ko_batch(S, 0, &n);
  if (rc) return rc;
  char line[XQ_SIM_LINE];
  snprintf(line, sizeof line, "{\"id\":%" PRId64 ",\"op\":\"knockout\"}", ++S->next_id);
  cJSON *st = xq__simulate_server_staff(S, line, "knockout");
  if (!st) return XQ_EIO;
  int decided = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "decided"));
  cJSON_Delete(st);
  if (!decided) return xq__simulate_server_fail(S, XQ_EINVAL, "the knockout stage ended undecided");
  if (S->o->log) fprintf(S->o->log, "knockout: %d games on the knockout tables\n", S->rep->ko_games);
  return XQ_OK;
}

int xq__simulate_ko_start_lot(xq__sim *S)
{
  cJSON *req = cJSON_CreateObject(), *pools = NULL;
  if (!req) return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  cJSON_AddNumberToObject(req, "id", (double)++S->next_id);
  cJSON_AddStringToObject(req, "op", "ko_start");
  cJSON_AddStringToObject(req, "seeding", "lot");
  cJSON_AddStringToObject(req, "format", S->kev->format);
  cJSON_AddNumberToObject(req, "lot", (double)(S->o->seed & ((1ULL << 53) - 1)));
  pools = cJSON_AddArrayToObject(req, "pools");
  for (int p = 0; pools && p < S->kev->pools; p++) {
    cJSON *l = cJSON_CreateArray();
    for (int id = 1; l && id <= S->n; id++)
      if (S->pool[id] == p) cJSON_AddItemToArray(l, cJSON_CreateNumber(id));
    cJSON_AddItemToArray(pools, l);
  }
  char *line = cJSON_PrintUnformatted(req);
  cJSON_Delete(req);
  if (!line) return xq__simulate_server_fail(S, XQ_ENOMEM, "out of memory");
  cJSON *k = xq__simulate_server_staff(S, line, "ko_start");
  free(line);
  if (!k) return XQ_EIO;
  const cJSON *size = cJSON_GetObjectItemCaseSensitive(k, "size");
  S->rep->ko_after = XQ_KO_NO_SWISS;
  S->rep->ko_size = cJSON_IsNumber(size) ? size->valueint : 0;
  S->rep->ko_entrants = S->n;
  cJSON_Delete(k);
  if (S->o->log)
    fprintf(S->o->log, "knockout-only event %s: %d entrants in %d pools, a bracket of %d (%d byes)\n", S->kev->name,
            S->n, S->kev->pools, S->rep->ko_size, S->rep->ko_size - S->n);
  return XQ_OK;
}
