/*
 * store_log.c -- appending to the store's event log: the event and its
 * configuration, registrations, published pairings (with an arbiter's
 * changes), results, forfeits, fouls, absences, withdrawals and their
 * taking back, and the import of a whole event read from TRF in one
 * transaction (docs/tourney.md, "The event store", docs/store.md).
 *
 * What happens is appended to the log (registration, numbering, pairing
 * published, result, forfeit, foul, absence, withdrawal); the event
 * state, standings and TRF are derived by replaying it (store_load.c), so
 * any standing can be recomputed and audited. The log is append-only
 * (triggers refuse UPDATE and DELETE). Corrections of a player's details
 * and the numbers drawn before round 1 are in store_players.c.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pair/pair_internal.h"
#include "../tourney_internal.h"
#include "knockout.h"
#include "store_internal.h"

/* ------------------------------------------------------------------ */
/* The event and its configuration                                     */
/* ------------------------------------------------------------------ */

static int put_meta(xq_tstore *st, const char *key, const char *value)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(xq__store_db(st), "INSERT INTO meta(key, value) VALUES (?, ?)", -1, &q, NULL) !=
      SQLITE_OK)
    return XQ_ESTORE;
  sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, 2, value, -1, SQLITE_STATIC);
  int ok = sqlite3_step(q) == SQLITE_DONE;
  sqlite3_finalize(q);
  return ok ? XQ_OK : XQ_ESTORE;
}

/* The bodies below run inside a transaction the caller opened; on failure
 * they return a code (err filled) and the caller rolls back. Each public
 * write is one transaction around one body; xq_tstore_import runs many
 * bodies in one transaction. */

static int create_tx(xq_tstore *st, const char *name, const xq_tconfig *cfg, xq_error *err)
{
  if (xq_utf8_len(name) < 0 || strlen(name) >= XQ_TOURNEY_NAME_MAX)
    return xq__store_error(err, XQ_EINVAL, "event name must be valid UTF-8 under 256 bytes");
  if (xq__store_scalar(st, "SELECT count(*) FROM meta", 0, 0, 0))
    return xq__store_error(err, XQ_EINVAL, "this store already holds an event");
  char buf[64], tb[256];
  int rc = put_meta(st, "name", name);
  for (int i = 0; !rc && i < xq__store_ncfg_keys; i++) {
    snprintf(buf, sizeof buf, "%d", *(const int *)((const char *)cfg + xq__store_cfg_keys[i].off));
    rc = put_meta(st, xq__store_cfg_keys[i].key, buf);
  }
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)cfg->lot_seed);
  if (!rc) rc = put_meta(st, "lot_seed", buf);
  if (!rc) rc = xq_tconfig_tb_format(cfg, tb, sizeof tb) ? XQ_ESTORE : put_meta(st, "tiebreaks", tb);
  return rc ? xq__store_dberr(st, err, "create event") : XQ_OK;
}

/* Run `body` in its own transaction (a savepoint inside an open batch),
 * holding the store's lock. */
#define XQ_TX(st, err, body)                       \
  do {                                             \
    xq__store_lock(st);                            \
    int rc_ = xq__store_begin((st), 1, (err));     \
    if (!rc_) {                                    \
      rc_ = (body);                                \
      if (rc_) xq__store_rollback(st);             \
      else rc_ = xq__store_commit((st), (err));    \
    }                                              \
    xq__store_unlock(st);                          \
    return rc_;                                    \
  } while (0)

int xq_tstore_create_event(xq_tstore *st, const char *name, const xq_tconfig *cfg, xq_error *err)
{
  if (!st || !name || !cfg) return XQ_EINVAL;
  XQ_TX(st, err, create_tx(st, name, cfg, err));
}

/* ------------------------------------------------------------------ */
/* Appending events                                                    */
/* ------------------------------------------------------------------ */

/* Insert one event row; returns its seq or -1. */
static int64_t add_event(xq_tstore *st, const char *kind, int round, int player, int board,
                         int value, const char *code)
{
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_ADD_EVENT, "INSERT INTO events(kind, round, player, board,"
                                    " value, code) VALUES (?, ?, ?, ?, ?, ?)");
  if (!q) return -1;
  sqlite3_bind_text(q, 1, kind, -1, SQLITE_STATIC);
  if (round) sqlite3_bind_int(q, 2, round);
  if (player) sqlite3_bind_int(q, 3, player);
  if (board) sqlite3_bind_int(q, 4, board);
  sqlite3_bind_int(q, 5, value);
  if (code) sqlite3_bind_text(q, 6, code, -1, SQLITE_STATIC);
  int ok = sqlite3_step(q) == SQLITE_DONE;
  sqlite3_reset(q);
  return ok ? sqlite3_last_insert_rowid(xq__store_db(st)) : -1;
}

static int need_event(xq_tstore *st, xq_error *err)
{
  if (!xq__store_scalar(st, "SELECT count(*) FROM meta WHERE key = 'name'", 0, 0, 0))
    return xq__store_error(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)");
  return XQ_OK;
}

static int register_tx(xq_tstore *st, const xq_tplayer *c, int *id, xq_error *err)
{
  int rc;
  if ((rc = need_event(st, err))) return rc;
  /* the registration number is for good; the id is the next of the
   * players not deleted (docs/store.md "Deleting a player") */
  /* a round robin's table is fixed by its entrants: none joins once it is paired */
  if (xq__store_scalar(st, "SELECT count(*) FROM config WHERE key = 'format' AND CAST(value AS INTEGER) = ?", XQ_FORMAT_RR, 0, 0) &&
      xq__store_scalar(st, "SELECT count(*) FROM events WHERE kind = 'pairing'", 0, 0, 0))
    return xq__store_error(err, XQ_EINVAL, "a round robin takes no entries after round 1 is paired");
  int reg = (int)xq__store_scalar(st, "SELECT count(*) FROM registrations", 0, 0, 0) + 1;
  int next = xq__store_players(st) + 1;
  if (next > XQ_TOURNEY_PLAYERS_MAX) return xq__store_error(err, XQ_ELIMIT, "too many players");
  int64_t seq = add_event(st, "register", 0, next, 0, 0, NULL);
  sqlite3_stmt *q = NULL;
  int ok = seq > 0 &&
    sqlite3_prepare_v2(xq__store_db(st), "INSERT INTO registrations(seq, player, name, rating, birth, sex,"
                       " region, club, team, local, title, fed, fide_id)"
                       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &q, NULL) == SQLITE_OK;
  if (ok) {
    char sex[2] = {c->sex, 0};
    sqlite3_bind_int64(q, 1, seq);
    sqlite3_bind_int(q, 2, reg);
    sqlite3_bind_text(q, 3, c->name, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, c->rating);
    sqlite3_bind_text(q, 5, c->birth, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, sex, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 7, c->region, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 8, c->club, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 9, c->team, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 10, c->local != 0);
    sqlite3_bind_text(q, 11, c->title, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 12, c->fed, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 13, c->fide_id, -1, SQLITE_STATIC);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  if (!ok) return xq__store_dberr(st, err, "register");
  if (id) *id = next;
  return XQ_OK;
}

int xq_tstore_register(xq_tstore *st, const xq_tplayer *p, int *id, xq_error *err)
{
  if (!st || !p) return XQ_EINVAL;
  xq_tplayer c = *p;
  int rc = xq_player_check(&c, err);
  if (rc) return rc;
  c.title[sizeof c.title - 1] = c.fed[sizeof c.fed - 1] = c.fide_id[sizeof c.fide_id - 1] = 0;
  XQ_TX(st, err, register_tx(st, &c, id, err));
}

/* The changes ch[0..n) of the pairing event `seq`. 1, or 0 on failure. */
static int changes_insert(xq_tstore *st, int64_t seq, const xq_tchange *ch, int n)
{
  static const char *const kinds[] = {"", "swap", "colours", "move"};
  sqlite3_stmt *q = NULL;
  int ok = !n || sqlite3_prepare_v2(xq__store_db(st), "INSERT INTO pairing_changes(seq, n, kind, a, b, reason)"
                                    " VALUES (?,?,?,?,?,?)", -1, &q, NULL) == SQLITE_OK;
  for (int k = 0; ok && k < n; k++) {
    if (ch[k].kind < XQ_TCH_SWAP || ch[k].kind > XQ_TCH_MOVE) { ok = 0; break; }
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, seq);
    sqlite3_bind_int(q, 2, k + 1);
    sqlite3_bind_text(q, 3, kinds[ch[k].kind], -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, ch[k].a);
    sqlite3_bind_int(q, 5, ch[k].b);
    sqlite3_bind_text(q, 6, ch[k].reason, -1, SQLITE_TRANSIENT);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  return ok;
}

static int publish_tx(xq_tstore *st, const xq_tournament *ev, const xq_tpairing *pr, const xq_tchange *ch, int nch,
                      xq_error *err)
{
  int rc;
  if ((rc = need_event(st, err))) return rc;
  if (xq__store_scalar(st, "SELECT count(*) FROM pairings WHERE kind = 'pairing' AND round = ?", pr->round, 0, 0))
    return xq__store_error(err, XQ_EINVAL, "this round is already paired");
  int nplayers = xq__store_players(st);
  uint8_t *seen = calloc((size_t)nplayers + 1, 1);
  if (!seen) return XQ_ENOMEM;
  for (int b = 0; b < pr->nboards; b++) {
    int r = pr->boards[b].red, k = pr->boards[b].black;
    if (r < 1 || r > nplayers || k < 0 || k > nplayers || seen[r]++ || (k && seen[k]++)) {
      free(seen);
      return xq__store_error(err, XQ_EINVAL, "pairing names an unknown player or one player twice");
    }
  }
  free(seen);
  sqlite3_stmt *q = NULL;
  int ok = 1;
  /* pairing numbers not yet recorded (round 1, late entries) go first */
  int64_t nseq = 0;
  for (int id = 1; ok && id <= ev->n && id <= nplayers; id++) {
    if (!ev->players[id - 1].pno) continue;
    if (xq__store_scalar(st, "SELECT count(*) FROM numbers WHERE player = ?", id, 0, 0)) continue;
    if (!nseq && (nseq = add_event(st, "numbering", pr->round, 0, 0, 0, NULL)) < 0) { ok = 0; break; }
    ok = sqlite3_prepare_v2(xq__store_db(st), "INSERT INTO numbers(seq, player, pno) VALUES (?,?,?)", -1, &q,
                            NULL) == SQLITE_OK;
    if (ok) {
      sqlite3_bind_int64(q, 1, nseq);
      sqlite3_bind_int(q, 2, id);
      sqlite3_bind_int(q, 3, ev->players[id - 1].pno);
      ok = sqlite3_step(q) == SQLITE_DONE;
    }
    sqlite3_finalize(q);
    q = NULL;
  }
  int64_t seq = ok ? add_event(st, "pairing", pr->round, 0, 0, pr->nboards, NULL) : -1;
  ok = seq > 0 && sqlite3_prepare_v2(xq__store_db(st), "INSERT INTO pairing_boards(seq, board, red, black)"
                                     " VALUES (?,?,?,?)", -1, &q, NULL) == SQLITE_OK;
  for (int b = 0; ok && b < pr->nboards; b++) {
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, seq);
    sqlite3_bind_int(q, 2, b + 1);
    sqlite3_bind_int(q, 3, pr->boards[b].red);
    sqlite3_bind_int(q, 4, pr->boards[b].black);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  ok = ok && changes_insert(st, seq, ch, nch);
  return ok ? XQ_OK : xq__store_dberr(st, err, "publish pairing");
}

int xq_tstore_publish(xq_tstore *st, const xq_tournament *ev, const xq_tpairing *pr, xq_error *err)
{
  return xq_tstore_publish_amended(st, ev, pr, NULL, 0, err);
}

int xq_tstore_publish_amended(xq_tstore *st, const xq_tournament *ev, const xq_tpairing *pr, const xq_tchange *ch,
                              int n, xq_error *err)
{
  if (!st || !ev || !pr || pr->round < 1 || pr->round > XQ_TOURNEY_ROUNDS_MAX || n < 0 || (n && !ch))
    return XQ_EINVAL;
  XQ_TX(st, err, publish_tx(st, ev, pr, ch, n, err));
}

static void store_rounds(xq_tstore *st, int *planned, int *paired);

/* Why round `round` (its standing pairing event `seq`) cannot be withdrawn:
 * what was recorded for it since, a game of it begun or the knockout
 * begun. XQ_OK, or XQ_EINVAL with `err` saying why. */
static int unpublish_check(xq_tstore *st, int round, int64_t seq, xq_error *err)
{
  static const char *const kinds[] = {"result", "forfeit", "foul", "absence"};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM events WHERE kind = '%s' AND round = ? AND seq > ?", kinds[k]);
    if (xq__store_scalar(st, sql, round, seq, 0))
      return xq__error(err, XQ_EINVAL, "round %d has %s %s recorded since it was published: it stands", round,
                       k == 1 || k == 3 ? "an" : "a", kinds[k]);
  }
  int table = (int)xq__store_scalar(st, "SELECT board FROM game_log WHERE round = ? ORDER BY id LIMIT 1", round, 0, 0);
  if (table) return xq__error(err, XQ_EINVAL, "the game of round %d table %d has begun: the round stands", round, table);
  if (xq__store_scalar(st, "SELECT count(*) FROM ko_log", 0, 0, 0))
    return xq__store_error(err, XQ_EINVAL, "the knockout stage has begun: the rounds before it stand");
  return XQ_OK;
}

static int unpublish_tx(xq_tstore *st, int round, xq_error *err)
{
  int rc;
  if ((rc = need_event(st, err))) return rc;
  int planned, paired;
  store_rounds(st, &planned, &paired);
  if (!paired) return xq__store_error(err, XQ_EINVAL, "no round is paired");
  if (round != paired)
    return round > paired ? xq__error(err, XQ_EINVAL, "round %d is not paired", round)
                          : xq__error(err, XQ_EINVAL, "round %d is paired after round %d: only the last paired round"
                                                      " can be withdrawn", paired, round);
  int64_t seq = xq__store_scalar(st, "SELECT seq FROM pairings WHERE round = ?", round, 0, 0);
  if ((rc = unpublish_check(st, round, seq, err))) return rc;
  if (add_event(st, "pairing", round, 0, 0, -1, "withdrawn") < 0) return xq__store_dberr(st, err, "unpublish");
  sqlite3_stmt *q;
  int ok = sqlite3_prepare_v2(xq__store_db(st), "UPDATE tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                              " WHERE role = 'board' AND round = ? AND revoked_at IS NULL", -1, &q, NULL) == SQLITE_OK;
  if (ok) {
    sqlite3_bind_int(q, 1, round);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  return ok ? XQ_OK : xq__store_dberr(st, err, "revoke the round's board tokens");
}

int xq_tstore_unpublish(xq_tstore *st, int round, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return xq__store_error(err, XQ_EINVAL, "bad round");
  XQ_TX(st, err, unpublish_tx(st, round, err));
}

/* Red and Black of a published board, or XQ_EINVAL. */
static int board_players(xq_tstore *st, int round, int board, int *red, int *black)
{
  sqlite3_stmt *q;
  int rc = XQ_EINVAL;
  if (sqlite3_prepare_v2(xq__store_db(st), "SELECT b.red, b.black FROM pairing_boards b JOIN pairings e"
                         " ON e.seq = b.seq WHERE e.kind = 'pairing' AND e.round = ? AND b.board = ?",
                         -1, &q, NULL) != SQLITE_OK)
    return XQ_ESTORE;
  sqlite3_bind_int(q, 1, round);
  sqlite3_bind_int(q, 2, board);
  if (sqlite3_step(q) == SQLITE_ROW) {
    *red = sqlite3_column_int(q, 0);
    *black = sqlite3_column_int(q, 1);
    rc = XQ_OK;
  }
  sqlite3_finalize(q);
  return rc;
}

/* Normalise a result code; returns the canonical text or NULL. "*"
 * takes the board's result back (the game is in play again): a `result`
 * event that the replay reads as no result (xq_tournament_set_result). */
static const char *result_code(const char *c, int *forfeit)
{
  static const struct { const char *in, *out; int forfeit; } map[] = {
    {"1-0", "1-0", 0}, {"0-1", "0-1", 0}, {"=", "=", 0}, {"1/2", "=", 0}, {"0.5-0.5", "=", 0},
    {"+-", "+-", 1}, {"-+", "-+", 1}, {"--", "--", 1}, {"*", "*", 0},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(c, map[i].in)) { *forfeit = map[i].forfeit; return map[i].out; }
  return NULL;
}

static int result_tx(xq_tstore *st, int round, int board, const char *code, xq_error *err)
{
  int forfeit, red, black, rc;
  const char *c = result_code(code, &forfeit);
  if (!c)
    return xq__store_error(err, XQ_EINVAL, "result must be 1-0, 0-1, = (or 1/2, 0.5-0.5), +-, -+ or --"
                           " (a board is one game: match scores such as 2-0 or 1-1 are not results)");
  if ((rc = board_players(st, round, board, &red, &black)))
    return rc == XQ_ESTORE ? xq__store_dberr(st, err, "result")
                           : xq__store_error(err, XQ_EINVAL, "no such board in that round");
  if (!black) return xq__store_error(err, XQ_EINVAL, "that board is the bye");
  if (add_event(st, forfeit ? "forfeit" : "result", round, 0, board, 0, c) < 0)
    return xq__store_dberr(st, err, "result");
  return XQ_OK;
}

int xq_tstore_result(xq_tstore *st, int round, int board, const char *code, xq_error *err)
{
  if (!st || !code) return XQ_EINVAL;
  if (round == XQ_KO_ROUND) {
    /* a knockout table's game (knockout.h) */
    int res;
    if (xq_ko_result_code(code, &res))
      return xq__store_error(err, XQ_EINVAL, "a knockout result is 1-0, 0-1, =, +- or -+");
    return xq_tstore_ko_result(st, board, res, err);
  }
  XQ_TX(st, err, result_tx(st, round, board, code, err));
}

/* The rounds the event plans (its configuration; 0: not fixed) and the
 * last one paired (0: none). */
static void store_rounds(xq_tstore *st, int *planned, int *paired)
{
  *planned = (int)xq__store_scalar(st, "SELECT CAST(value AS INTEGER) FROM config WHERE key = 'rounds'", 0, 0, 0);
  *paired = (int)xq__store_scalar(st, "SELECT max(round) FROM pairings WHERE kind = 'pairing'", 0, 0, 0);
}

/* Whether `round` fits an event of kind `kind` (foul, absence,
 * withdrawal) of player `id`: within the planned rounds; a foul in a
 * round paired, an absence or a withdrawal in one not yet paired; no
 * second withdrawal of a withdrawn player. XQ_OK or XQ_EINVAL with `err`. */
static int player_event_round(xq_tstore *st, const char *kind, int round, int id, xq_error *err)
{
  int planned, paired;
  store_rounds(st, &planned, &paired);
  if (planned > 0 && round > planned)
    return xq_error_set(err, XQ_EINVAL, -1, -1, "round %d: the event has %d rounds", round, planned);
  if (!strcmp(kind, "foul") && round > paired)
    return paired ? xq_error_set(err, XQ_EINVAL, -1, -1, "round %d is not paired yet (the last paired is %d)",
                                 round, paired)
                  : xq_error_set(err, XQ_EINVAL, -1, -1, "round %d is not paired yet (no round is)", round);
  if (!strcmp(kind, "absence") && round <= paired)
    return xq__store_error(err, XQ_EINVAL, "that round is already paired");
  if (strcmp(kind, "withdrawal")) return XQ_OK;
  if (round <= paired)
    return xq_error_set(err, XQ_EINVAL, -1, -1, "round %d is already paired: a player withdraws from round %d on"
                        " (a game of a paired round he does not play is a forfeit, +- or -+)", round, paired + 1);
  int wr = 0, wv = 1;
  if (xq__store_last_of(st, "withdrawal", 0, id, &wr, &wv) && wv == 0) /* a withdrawal, not a reinstatement */
    return xq_error_set(err, XQ_EINVAL, -1, -1, "that player is withdrawn already (from round %d on;"
                        " reinstate takes him back)", wr);
  return XQ_OK;
}

static int player_event_tx(xq_tstore *st, const char *kind, int round, int id, int value, const char *code,
                           xq_error *err)
{
  int rc;
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return xq__store_error(err, XQ_EINVAL, "bad round");
  if ((rc = need_event(st, err))) return rc;
  if (id < 1 || id > xq__store_players(st)) return xq__store_error(err, XQ_EINVAL, "no such player");
  if ((rc = player_event_round(st, kind, round, id, err))) return rc;
  int av = -1;
  if (code && !strcmp(code, "cancel") && (!xq__store_last_of(st, "absence", round, id, NULL, &av) || av < 0))
    return xq__store_error(err, XQ_EINVAL, "that player has no announced absence in that round");
  if (add_event(st, kind, round, id, 0, value, code) < 0) return xq__store_dberr(st, err, kind);
  return XQ_OK;
}

int xq_tstore_foul(xq_tstore *st, int round, int id, int count, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (count < 1 || count > XQ_FOULS_MAX) return xq__store_error(err, XQ_EINVAL, "foul count must be 1..99");
  XQ_TX(st, err, player_event_tx(st, "foul", round, id, count, NULL, err));
}

int xq_tstore_foul_set(xq_tstore *st, int round, int id, int count, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (count < 0 || count > XQ_FOULS_MAX) return xq__store_error(err, XQ_EINVAL, "foul count must be 0..99");
  XQ_TX(st, err, player_event_tx(st, "foul", round, id, count, "set", err));
}

/* The value of an absence event: 0 zero-point, 1 half-point, 2 full-point
 * bye; -1 (code "cancel") the absence taken back. */
static int bye_value(int bye)
{
  return bye == XQ_TR_HPB ? 1 : bye == XQ_TR_FPB ? 2 : bye == XQ_TR_NONE ? -1 : 0;
}

int xq_tstore_absence(xq_tstore *st, int round, int id, int bye, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (bye != XQ_TR_ZPB && bye != XQ_TR_HPB && bye != XQ_TR_FPB && bye != XQ_TR_NONE)
    return xq__store_error(err, XQ_EINVAL, "an absence is a zero-, half- or full-point bye (none: taken back)");
  XQ_TX(st, err, player_event_tx(st, "absence", round, id, bye_value(bye), bye == XQ_TR_NONE ? "cancel" : NULL,
                                 err));
}

int xq_tstore_withdraw(xq_tstore *st, int round, int id, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  XQ_TX(st, err, player_event_tx(st, "withdrawal", round, id, 0, NULL, err));
}

/* A withdrawal is taken back with a withdrawal event of value 1: the
 * events' kinds are fixed by the table's CHECK, and the withdrawal
 * itself stays on the record. */
static int reinstate_tx(xq_tstore *st, int round, int id, xq_error *err)
{
  int rc;
  if ((rc = need_event(st, err))) return rc;
  if (id < 1 || id > xq__store_players(st)) return xq__store_error(err, XQ_EINVAL, "no such player");
  int wv = 1;
  if (!xq__store_last_of(st, "withdrawal", 0, id, NULL, &wv) || wv != 0)
    return xq__store_error(err, XQ_EINVAL, "that player is not withdrawn");
  if (xq__store_scalar(st, "SELECT count(*) FROM pairings WHERE kind = 'pairing' AND round >= ?", round, 0, 0))
    return xq__store_error(err, XQ_EINVAL, "that round is already paired: a player comes back from the next one");
  int planned, paired;
  store_rounds(st, &planned, &paired);
  if (planned > 0 && round > planned)
    return xq_error_set(err, XQ_EINVAL, -1, -1, "round %d: the event has %d rounds", round, planned);
  if (add_event(st, "withdrawal", round, id, 0, 1, NULL) < 0) return xq__store_dberr(st, err, "reinstate");
  return XQ_OK;
}

int xq_tstore_reinstate(xq_tstore *st, int round, int id, xq_error *err)
{
  if (!st) return XQ_EINVAL;
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) return xq__store_error(err, XQ_EINVAL, "bad round");
  XQ_TX(st, err, reinstate_tx(st, round, id, err));
}

/* ------------------------------------------------------------------ */
/* Import                                                              */
/* ------------------------------------------------------------------ */

/* The result code of a TRF board from Red's and Black's slots. */
static const char *board_code(int r, int b)
{
  if (r == XQ_TR_WIN && b == XQ_TR_LOSS) return "1-0";
  if (r == XQ_TR_LOSS && b == XQ_TR_WIN) return "0-1";
  if (r == XQ_TR_DRAW && b == XQ_TR_DRAW) return "=";
  if (r == XQ_TR_FWIN && b == XQ_TR_FLOSS) return "+-";
  if (r == XQ_TR_FLOSS && b == XQ_TR_FWIN) return "-+";
  if (r == XQ_TR_FLOSS && b == XQ_TR_FLOSS) return "--";
  return NULL;
}

static int import_tx(xq_tstore *st, const xq_tournament *ev, const xq_tconfig *cfg, xq_error *err)
{
  int rc = create_tx(st, ev->name, cfg, err);
  if (rc) return rc;
  /* what the TRF header says of the event: 022 city, 102 chief arbiter */
  const struct { const char *key, *text; } info[] = {{"venue", ev->info.venue}, {"arbiter", ev->info.arbiter}};
  for (size_t i = 0; i < sizeof info / sizeof info[0]; i++) {
    if (!info[i].text[0] || xq_utf8_len(info[i].text) < 0) continue; /* cut inside a character: left out */
    if (put_meta(st, info[i].key, info[i].text)) return xq__store_dberr(st, err, "import");
  }
  /* players in TRF order: the store's ids are then the TRF numbers */
  for (int id = 1; id <= ev->n; id++) {
    xq_tplayer p = ev->players[id - 1];
    if (xq_player_check(&p, NULL) && p.birth[0]) p.birth[0] = 0; /* TRF's 1990/00/00 */
    if ((rc = xq_player_check(&p, err))) return rc;
    if ((rc = register_tx(st, &p, NULL, err))) return rc;
  }
  xq_tpairing pr = {0};
  pr.boards = malloc(sizeof *pr.boards * (size_t)(ev->n / 2 + 2));
  if (!pr.boards) return XQ_ENOMEM;
  for (int r = 1; r <= ev->nrounds && !rc; r++) {
    pr.round = r;
    pr.nboards = 0;
    for (int id = 1; id <= ev->n && !rc; id++) {
      const xq_tslot *s = xq_tournament_slot(ev, id, r);
      if (s->res == XQ_TR_ZPB || s->res == XQ_TR_KO || s->res == XQ_TR_HPB || s->res == XQ_TR_FPB) {
        rc = player_event_tx(st, "absence", r, id, bye_value(s->res), NULL, err);
      } else if (s->res == XQ_TR_PAB) {
        pr.boards[pr.nboards++] = (xq_tboard){id, 0};
      } else if (!s->opp && s->res != XQ_TR_NONE) {
        char m[96];
        snprintf(m, sizeof m, "round %d, player %d: a forfeit without an opponent cannot be stored", r, id);
        rc = xq__store_error(err, XQ_EINVAL, m);
      } else if (s->opp && s->colour == XQ_TC_RED) {
        pr.boards[pr.nboards++] = (xq_tboard){id, s->opp};
      }
    }
    if (rc || pr.nboards == 0) continue; /* absences only: the round to pair */
    xq__pair_sort_boards(ev, &pr);
    if ((rc = publish_tx(st, ev, &pr, NULL, 0, err))) break;
    for (int b = 0; b < pr.nboards && !rc; b++) {
      if (!pr.boards[b].black) continue;
      int rr = xq_tournament_slot(ev, pr.boards[b].red, r)->res, br = xq_tournament_slot(ev, pr.boards[b].black, r)->res;
      if (rr == XQ_TR_NONE && br == XQ_TR_NONE) continue; /* not played yet */
      const char *code = board_code(rr, br);
      if (!code) {
        char m[96];
        snprintf(m, sizeof m, "round %d: players %d and %d have results that do not fit", r,
                 pr.boards[b].red, pr.boards[b].black);
        rc = xq__store_error(err, XQ_EINVAL, m);
      } else {
        rc = result_tx(st, r, b + 1, code, err);
      }
    }
  }
  free(pr.boards);
  return rc;
}

int xq_tstore_import(xq_tstore *st, const xq_tournament *ev, const xq_tconfig *cfg, xq_error *err)
{
  if (!st || !ev || !cfg) return XQ_EINVAL;
  for (int id = 1; id <= ev->n; id++)
    if (ev->players[id - 1].pno != id) return xq__store_error(err, XQ_EINVAL, "players must be numbered 1..n");
  XQ_TX(st, err, import_tx(st, ev, cfg, err));
}
