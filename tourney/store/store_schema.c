/*
 * store_schema.c -- the store's schema: the migrations that take a store
 * from one version to the next (one transaction a step, docs/store.md
 * "Schema"), the SQL function one of them uses, and the configuration
 * fields the meta table holds.
 */
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

#include "../tourney_internal.h"
#include "store_internal.h"

/* Schema migrations, in order: migrations[i] takes version i to i + 1.
 * Append new steps; never edit a published one. */
static const char *const migrations[] = {
  /* 1: configuration, the event log and the rows that belong to events */
  "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
  "CREATE TABLE events("
  "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  kind TEXT NOT NULL CHECK (kind IN ('register', 'numbering', 'pairing', 'result',"
  "                                     'forfeit', 'foul', 'absence', 'withdrawal')),"
  "  round INTEGER, player INTEGER, board INTEGER, value INTEGER, code TEXT);"
  "CREATE TABLE registrations("
  "  seq INTEGER PRIMARY KEY REFERENCES events(seq),"
  "  player INTEGER NOT NULL UNIQUE, name TEXT NOT NULL, rating INTEGER NOT NULL,"
  "  birth TEXT NOT NULL, sex TEXT NOT NULL, region TEXT NOT NULL, club TEXT NOT NULL,"
  "  team TEXT NOT NULL, local INTEGER NOT NULL);"
  "CREATE TABLE numbers(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  player INTEGER NOT NULL UNIQUE, pno INTEGER NOT NULL UNIQUE, PRIMARY KEY(seq, player));"
  "CREATE TABLE pairing_boards(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  board INTEGER NOT NULL, red INTEGER NOT NULL, black INTEGER NOT NULL,"
  "  PRIMARY KEY(seq, board));"
  "CREATE TRIGGER events_no_update BEFORE UPDATE ON events"
  "  BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;"
  "CREATE TRIGGER events_no_delete BEFORE DELETE ON events"
  "  BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;",
  /* 2: find a round's events without a scan */
  "CREATE INDEX events_by_round ON events(round, kind);",
  /* 3: the FIDE fields a TRF file carries */
  "ALTER TABLE registrations ADD COLUMN title TEXT NOT NULL DEFAULT '';"
  "ALTER TABLE registrations ADD COLUMN fed TEXT NOT NULL DEFAULT '';"
  "ALTER TABLE registrations ADD COLUMN fide_id TEXT NOT NULL DEFAULT '';",
  /* 4: the knockout stage's own append-only log (knockout.h): one 'start'
   * row (cut round, size, seeding, format, choice, seeds as "id,id,...")
   * and one 'game' row per game played */
  "CREATE TABLE ko_log("
  "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  kind TEXT NOT NULL CHECK (kind IN ('start', 'game')),"
  "  after_round INTEGER, size INTEGER, seeding INTEGER, format INTEGER, choice INTEGER,"
  "  seeds TEXT, match INTEGER, type INTEGER, red INTEGER, black INTEGER, res INTEGER);"
  "CREATE TRIGGER ko_log_no_update BEFORE UPDATE ON ko_log"
  "  BEGIN SELECT RAISE(ABORT, 'the knockout log is append-only'); END;"
  "CREATE TRIGGER ko_log_no_delete BEFORE DELETE ON ko_log"
  "  BEGIN SELECT RAISE(ABORT, 'the knockout log is append-only'); END;",
  /* 5: the live server (docs/store.md): access tokens, which are revoked
   * and never changed otherwise, and the append-only per-game log of the
   * events the adjudicator replays with the replies sent for them; a
   * board's sequence number is stored once per game and source */
  "CREATE TABLE tokens("
  "  token TEXT PRIMARY KEY CHECK (length(token) = 32),"
  "  role TEXT NOT NULL CHECK (role IN ('admin', 'arbiter', 'board', 'viewer')),"
  "  round INTEGER NOT NULL DEFAULT 0, board INTEGER NOT NULL DEFAULT 0,"
  "  label TEXT NOT NULL DEFAULT '',"
  "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  revoked_at TEXT);"
  "CREATE TRIGGER tokens_revoke_only BEFORE UPDATE ON tokens"
  "  WHEN OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL OR NEW.token IS NOT OLD.token"
  "    OR NEW.role IS NOT OLD.role OR NEW.round IS NOT OLD.round OR NEW.board IS NOT OLD.board"
  "    OR NEW.label IS NOT OLD.label OR NEW.created_at IS NOT OLD.created_at"
  "  BEGIN SELECT RAISE(ABORT, 'a token can only be revoked, once'); END;"
  "CREATE TRIGGER tokens_no_delete BEFORE DELETE ON tokens"
  "  BEGIN SELECT RAISE(ABORT, 'tokens are revoked, not deleted'); END;"
  "CREATE TABLE game_log("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  round INTEGER NOT NULL CHECK (round >= 1), board INTEGER NOT NULL CHECK (board >= 1),"
  "  source INTEGER NOT NULL CHECK (source BETWEEN 1 AND 3),"
  "  seq INTEGER NOT NULL CHECK (seq >= 0),"
  "  event TEXT NOT NULL, reply TEXT NOT NULL DEFAULT '', at_ms INTEGER NOT NULL);"
  /* seq leads: the boards of a tournament move in step, so the rows of one
   * group commit share a few index pages instead of one page per game
   * (the commit writes, and syncs, every page it touches) */
  "CREATE UNIQUE INDEX game_log_seq ON game_log(seq, round, board, source) WHERE seq > 0;"
  "CREATE TRIGGER game_log_no_update BEFORE UPDATE ON game_log"
  "  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;"
  "CREATE TRIGGER game_log_no_delete BEFORE DELETE ON game_log"
  "  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;",
  /* 6: tokens are kept hashed (docs/security.md): the table is rebuilt
   * with each token replaced by its SHA-256 in hex (xq_sha256, a function
   * of this connection), in the same order */
  "DROP TRIGGER tokens_revoke_only;"
  "DROP TRIGGER tokens_no_delete;"
  "CREATE TABLE tokens6("
  "  hash TEXT PRIMARY KEY CHECK (length(hash) = 64),"
  "  role TEXT NOT NULL CHECK (role IN ('admin', 'arbiter', 'board', 'viewer')),"
  "  round INTEGER NOT NULL DEFAULT 0, board INTEGER NOT NULL DEFAULT 0,"
  "  label TEXT NOT NULL DEFAULT '',"
  "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  revoked_at TEXT);"
  "INSERT INTO tokens6 SELECT xq_sha256(token), role, round, board, label, created_at, revoked_at"
  "  FROM tokens ORDER BY rowid;"
  "DROP TABLE tokens;"
  "ALTER TABLE tokens6 RENAME TO tokens;"
  "CREATE TRIGGER tokens_revoke_only BEFORE UPDATE ON tokens"
  "  WHEN OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL OR NEW.hash IS NOT OLD.hash"
  "    OR NEW.role IS NOT OLD.role OR NEW.round IS NOT OLD.round OR NEW.board IS NOT OLD.board"
  "    OR NEW.label IS NOT OLD.label OR NEW.created_at IS NOT OLD.created_at"
  "  BEGIN SELECT RAISE(ABORT, 'a token can only be revoked, once'); END;"
  "CREATE TRIGGER tokens_no_delete BEFORE DELETE ON tokens"
  "  BEGIN SELECT RAISE(ABORT, 'tokens are revoked, not deleted'); END;",
  /* 7: knockout games played on the live server (docs/store.md): the
   * games published to knockout tables, append-only like the log, and in
   * the knockout log the table a game's result came from */
  "CREATE TABLE ko_tables("
  "  board INTEGER PRIMARY KEY CHECK (board >= 1),"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  match INTEGER NOT NULL, type INTEGER NOT NULL, red INTEGER NOT NULL, black INTEGER NOT NULL);"
  "CREATE TRIGGER ko_tables_no_update BEFORE UPDATE ON ko_tables"
  "  BEGIN SELECT RAISE(ABORT, 'knockout tables are published, not changed'); END;"
  "CREATE TRIGGER ko_tables_no_delete BEFORE DELETE ON ko_tables"
  "  BEGIN SELECT RAISE(ABORT, 'knockout tables are published, not changed'); END;"
  "ALTER TABLE ko_log ADD COLUMN board INTEGER;"
  "CREATE UNIQUE INDEX ko_log_board ON ko_log(board) WHERE board IS NOT NULL;",
  /* 8: the arbiter's changes to a pairing before it was published
   * (xq_pairing_amend), in order, each with its reason */
  "CREATE TABLE pairing_changes(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  n INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('swap', 'colours', 'move')),"
  "  a INTEGER NOT NULL, b INTEGER NOT NULL, reason TEXT NOT NULL, PRIMARY KEY(seq, n));",
  /* 9: the players besides their registration (store_players.c,
   * docs/store.md): corrections of a player's details, a row per field
   * with its old and new text and the last event of the log when it was
   * made, applied over the registrations on replay; and the numbers of a
   * drawing before round 1 (a 'numbering' event without a round; the
   * numbers table holds one number per player for good, so drawings made
   * again need their own rows). Both append-only. */
  "CREATE TABLE player_edits("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  edit INTEGER NOT NULL, after_seq INTEGER NOT NULL,"
  "  player INTEGER NOT NULL REFERENCES registrations(player),"
  "  field TEXT NOT NULL CHECK (field IN ('name', 'sex', 'birth', 'region', 'club', 'team', 'rating', 'local')),"
  "  old TEXT NOT NULL, new TEXT NOT NULL);"
  "CREATE INDEX player_edits_after ON player_edits(after_seq);"
  "CREATE TRIGGER player_edits_no_update BEFORE UPDATE ON player_edits"
  "  BEGIN SELECT RAISE(ABORT, 'edits are appended, not changed'); END;"
  "CREATE TRIGGER player_edits_no_delete BEFORE DELETE ON player_edits"
  "  BEGIN SELECT RAISE(ABORT, 'edits are appended, not changed'); END;"
  "CREATE TABLE draw_numbers(seq INTEGER NOT NULL REFERENCES events(seq),"
  "  player INTEGER NOT NULL REFERENCES registrations(player), pno INTEGER NOT NULL CHECK (pno >= 1),"
  "  PRIMARY KEY(seq, player), UNIQUE(seq, pno));"
  "CREATE TRIGGER draw_numbers_no_update BEFORE UPDATE ON draw_numbers"
  "  BEGIN SELECT RAISE(ABORT, 'drawn numbers are appended, not changed'); END;"
  "CREATE TRIGGER draw_numbers_no_delete BEFORE DELETE ON draw_numbers"
  "  BEGIN SELECT RAISE(ABORT, 'drawn numbers are appended, not changed'); END;",
  /* 10: the event's settings changed after it was made (store_settings.c,
   * docs/store.md "Settings"): a row per key that changes, with its new
   * text, the change it belongs to and the last event of the log when it
   * was made; append-only. The view config is the event's configuration:
   * a key's last setting, else its meta row. */
  "CREATE TABLE settings("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  change INTEGER NOT NULL CHECK (change >= 1), after_seq INTEGER NOT NULL,"
  "  key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 32), value TEXT NOT NULL);"
  "CREATE INDEX settings_by_key ON settings(key, id);"
  "CREATE TRIGGER settings_no_update BEFORE UPDATE ON settings"
  "  BEGIN SELECT RAISE(ABORT, 'settings are appended, not changed'); END;"
  "CREATE TRIGGER settings_no_delete BEFORE DELETE ON settings"
  "  BEGIN SELECT RAISE(ABORT, 'settings are appended, not changed'); END;"
  "CREATE VIEW config AS"
  "  SELECT key, value FROM meta WHERE key NOT IN (SELECT key FROM settings)"
  "  UNION ALL SELECT s.key, s.value FROM settings s"
  "    WHERE s.id = (SELECT max(t.id) FROM settings t WHERE t.key = s.key);",
  /* 11: a published pairing can be withdrawn while nothing of its round
   * happened (xq_tstore_unpublish): a 'pairing' event of value -1 and code
   * 'withdrawn' takes back the round's pairing before it (the events'
   * kinds are fixed by the table's CHECK). The view pairings is the
   * pairing events that stand: neither withdrawn nor a withdrawal. */
  "CREATE VIEW pairings AS"
  "  SELECT e.* FROM events e WHERE e.kind = 'pairing' AND e.value >= 0"
  "    AND NOT EXISTS (SELECT 1 FROM events u WHERE u.round = e.round AND u.kind = 'pairing'"
  "                    AND u.value < 0 AND u.seq > e.seq);",
  /* 12: the arbiters' "seen" marks on a game's rulings (store_seen.c):
   * how many of the game's rulings an arbiter has marked seen, the last
   * row of a game counting; append-only. */
  "CREATE TABLE seen_marks(id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  round INTEGER NOT NULL CHECK (round >= 1), board INTEGER NOT NULL CHECK (board >= 1),"
  "  seen INTEGER NOT NULL CHECK (seen >= 0), who TEXT NOT NULL);"
  "CREATE TRIGGER seen_marks_no_update BEFORE UPDATE ON seen_marks"
  "  BEGIN SELECT RAISE(ABORT, 'seen marks are appended, not changed'); END;",
  /* 13: team competitions (team_store.c, docs/store.md "team_log"): the
   * team log, append-only, one row per change (the settings, a team, the
   * numbers, each match as paired, a lineup, a board result, a match
   * forfeited, a withdrawal), applied in id order by the load. */
  "CREATE TABLE team_log("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  kind TEXT NOT NULL CHECK (kind IN ('config', 'team', 'numbers', 'match', 'lineup', 'result',"
  "                                     'forfeit', 'withdraw')),"
  "  round INTEGER NOT NULL DEFAULT 0, a INTEGER NOT NULL DEFAULT 0, b INTEGER NOT NULL DEFAULT 0,"
  "  c INTEGER NOT NULL DEFAULT 0, list TEXT NOT NULL DEFAULT '', text TEXT NOT NULL DEFAULT '');"
  "CREATE TRIGGER team_log_no_update BEFORE UPDATE ON team_log"
  "  BEGIN SELECT RAISE(ABORT, 'the team log is appended, not changed'); END;"
  "CREATE TRIGGER team_log_no_delete BEFORE DELETE ON team_log"
  "  BEGIN SELECT RAISE(ABORT, 'the team log is appended, not changed'); END;",
  /* 14: a team's roster replaced (the kind 'roster', xq_tm_team_roster):
   * the team log rebuilt with the wider CHECK, its rows and ids kept. */
  "CREATE TABLE team_log_14("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
  "  kind TEXT NOT NULL CHECK (kind IN ('config', 'team', 'numbers', 'match', 'lineup', 'result',"
  "                                     'forfeit', 'withdraw', 'roster')),"
  "  round INTEGER NOT NULL DEFAULT 0, a INTEGER NOT NULL DEFAULT 0, b INTEGER NOT NULL DEFAULT 0,"
  "  c INTEGER NOT NULL DEFAULT 0, list TEXT NOT NULL DEFAULT '', text TEXT NOT NULL DEFAULT '');"
  "INSERT INTO team_log_14(id, at, kind, round, a, b, c, list, text)"
  "  SELECT id, at, kind, round, a, b, c, list, text FROM team_log ORDER BY id;"
  "DROP TRIGGER team_log_no_update;"
  "DROP TRIGGER team_log_no_delete;"
  "DROP TABLE team_log;"
  "ALTER TABLE team_log_14 RENAME TO team_log;"
  "CREATE TRIGGER team_log_no_update BEFORE UPDATE ON team_log"
  "  BEGIN SELECT RAISE(ABORT, 'the team log is appended, not changed'); END;"
  "CREATE TRIGGER team_log_no_delete BEFORE DELETE ON team_log"
  "  BEGIN SELECT RAISE(ABORT, 'the team log is appended, not changed'); END;",
};

#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))
_Static_assert(NMIGRATIONS == XQ_STORE_SCHEMA_VERSION,
               "one migration per schema version");

/* SQL xq_sha256(text): the SHA-256 of a text in lowercase hex, NULL for
 * NULL (migration 6 hashes the tokens of a schema-5 store with it). */
static void sql_sha256(sqlite3_context *ctx, int nargs, sqlite3_value **args)
{
  (void)nargs;
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  const unsigned char *t = sqlite3_value_text(args[0]);
  char hex[2 * XQ_SHA256_LEN + 1];
  xq_sha256_hex(t, (size_t)sqlite3_value_bytes(args[0]), hex);
  sqlite3_result_text(ctx, hex, -1, SQLITE_TRANSIENT);
}

int xq__store_functions(sqlite3 *db)
{
  return sqlite3_create_function(db, "xq_sha256", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_sha256, NULL,
                                 NULL) == SQLITE_OK ? XQ_OK : XQ_ESTORE;
}

int xq__store_migrate(xq_tstore *st, int *version, xq_error *err)
{
  int has_version =
    (int)xq__store_scalar(st, "SELECT count(*) FROM sqlite_master WHERE name = 'schema_version'", 0, 0, 0);
  int tables = (int)xq__store_scalar(st, "SELECT count(*) FROM sqlite_master", 0, 0, -1);
  if (tables < 0) return xq__store_dberr(st, err, "cannot read the schema");
  if (!has_version && tables > 0)
    return xq__store_error(err, XQ_ESTORE, "not an xqref event store (no schema_version table)");
  if (!has_version) {
    if (xq__store_begin(st, 1, err)) return XQ_ESTORE;
    if (xq__store_exec(st, "CREATE TABLE schema_version(version INTEGER NOT NULL);"
                 "INSERT INTO schema_version VALUES (0);")) {
      xq__store_rollback(st);
      return xq__store_dberr(st, err, "create schema_version");
    }
    if (xq__store_commit(st, err)) return XQ_ESTORE;
  }
  int v = (int)xq__store_scalar(st, "SELECT version FROM schema_version", 0, 0, -1);
  if (v < 0) return xq__store_error(err, XQ_ESTORE, "schema_version table is empty");
  if (v > XQ_STORE_SCHEMA_VERSION)
    return xq__store_error(err, XQ_ESTORE, "the store was written by a newer xqref (schema too new)");
  /* one transaction per step: a crash between steps leaves a store at a
   * known version, which the next open continues from */
  for (; v < XQ_STORE_SCHEMA_VERSION; v++) {
    char sql[64];
    if (xq__store_begin(st, 1, err)) return XQ_ESTORE;
    snprintf(sql, sizeof sql, "UPDATE schema_version SET version = %d", v + 1);
    if (xq__store_exec(st, migrations[v]) || xq__store_exec(st, sql)) {
      int rc = xq__store_dberr(st, err, "migration");
      xq__store_rollback(st);
      return rc;
    }
    if (xq__store_commit(st, err)) return XQ_ESTORE;
  }
  *version = v;
  return XQ_OK;
}

#define K(f) {#f, offsetof(xq_tconfig, f)}
const xq__store_cfgkey xq__store_cfg_keys[] = {
  K(rounds), K(win), K(draw), K(loss), K(pab), K(fwin), K(floss), K(first_round),
  K(max_colour_diff), K(forbid_three), K(last_round_relax), K(forfeit_counts_as_met),
  K(missed_rounds_withdraw), K(withdraw_consecutive), K(wins_count_forfeits), K(bye_os), K(de_mode),
  K(format), K(cycles), K(rr_swap), K(rr_games), K(rr_groups), K(system), K(delay),
};
#undef K
const int xq__store_ncfg_keys = (int)(sizeof xq__store_cfg_keys / sizeof xq__store_cfg_keys[0]);
