/*
 * store_players.c -- what the store keeps of the players besides their
 * registration (schema version 9, docs/store.md): the corrections of a
 * player's details, a row per field with its old and new text in the
 * append-only table player_edits, applied over the registrations when
 * the log is replayed; and the pairing numbers drawn, seeded or entered
 * before round 1, a 'numbering' event without a round whose numbers are
 * in draw_numbers (the numbers table takes one number per player for
 * the whole event, so a drawing made again cannot go there). Writes use
 * the store's nested transactions (store_open.c), so they join an open batch.
 * And a player deleted before round 1: a 'withdrawal' event with code
 * "removed" naming his registration number, which the replay applies by
 * closing up the ids (xq_tournament_remove), with the translations
 * between registration numbers and ids the other rows need.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "pair/pair.h"
#include "store_internal.h"

static const char *const field_names[XQ_PE_COUNT] = XQ_PE_NAMES;

static int dbfail(sqlite3 *db, xq_error *err, const char *what)
{
  return xq__error(err, XQ_ESTORE, "%.40s: %.110s", what, sqlite3_errmsg(db));
}

/* Field k (bit 1 << k) of `p` as the table of edits keeps it: the text,
 * sex "m", "w" or "", rating in decimal, local "0" or "1". */
static void field_text(const xq_tplayer *p, int k, char *buf, size_t cap)
{
  switch (1 << k) {
  case XQ_PE_NAME: snprintf(buf, cap, "%s", p->name); break;
  case XQ_PE_SEX: snprintf(buf, cap, "%s", p->sex == 'm' ? "m" : p->sex == 'w' ? "w" : ""); break;
  case XQ_PE_BIRTH: snprintf(buf, cap, "%s", p->birth); break;
  case XQ_PE_REGION: snprintf(buf, cap, "%s", p->region); break;
  case XQ_PE_CLUB: snprintf(buf, cap, "%s", p->club); break;
  case XQ_PE_TEAM: snprintf(buf, cap, "%s", p->team); break;
  case XQ_PE_RATING: snprintf(buf, cap, "%d", p->rating); break;
  default: snprintf(buf, cap, "%d", p->local != 0); break;
  }
}

/* Set field `name` of `p` from its text `v`. Returns 0, or -1 for an
 * unknown field. */
static int field_set(xq_tplayer *p, const char *name, const char *v)
{
  int k = -1;
  for (int i = 0; k < 0 && i < XQ_PE_COUNT; i++)
    if (!strcmp(name, field_names[i])) k = i;
  switch (k < 0 ? 0 : 1 << k) {
  case XQ_PE_NAME: snprintf(p->name, sizeof p->name, "%s", v); break;
  case XQ_PE_SEX: p->sex = v[0] == 'm' || v[0] == 'w' ? v[0] : 0; break;
  case XQ_PE_BIRTH: snprintf(p->birth, sizeof p->birth, "%s", v); break;
  case XQ_PE_REGION: snprintf(p->region, sizeof p->region, "%s", v); break;
  case XQ_PE_CLUB: snprintf(p->club, sizeof p->club, "%s", v); break;
  case XQ_PE_TEAM: snprintf(p->team, sizeof p->team, "%s", v); break;
  case XQ_PE_RATING: p->rating = atoi(v); break;
  case XQ_PE_LOCAL: p->local = atoi(v) != 0; break;
  default: return -1;
  }
  return 0;
}

/* Field k of `from` copied into `to`, as it is (xq_player_check judges it). */
static void field_copy(xq_tplayer *to, const xq_tplayer *from, int k)
{
  switch (1 << k) {
  case XQ_PE_NAME: memcpy(to->name, from->name, sizeof to->name); break;
  case XQ_PE_SEX: to->sex = from->sex; break;
  case XQ_PE_BIRTH: memcpy(to->birth, from->birth, sizeof to->birth); break;
  case XQ_PE_REGION: memcpy(to->region, from->region, sizeof to->region); break;
  case XQ_PE_CLUB: memcpy(to->club, from->club, sizeof to->club); break;
  case XQ_PE_TEAM: memcpy(to->team, from->team, sizeof to->team); break;
  case XQ_PE_RATING: to->rating = from->rating; break;
  default: to->local = from->local != 0; break;
  }
  /* the caller's strings may lack their NUL */
  to->name[sizeof to->name - 1] = to->birth[sizeof to->birth - 1] = 0;
  to->region[sizeof to->region - 1] = to->club[sizeof to->club - 1] = to->team[sizeof to->team - 1] = 0;
}

/* The details of registration number `reg` now: the registration with
 * its edits (`id` names him in the error). */
static int current_player(sqlite3 *db, int reg, int id, xq_tplayer *p, xq_error *err)
{
  sqlite3_stmt *q;
  memset(p, 0, sizeof *p);
  if (sqlite3_prepare_v2(db, "SELECT name, rating, birth, sex, region, club, team, local FROM registrations"
                         " WHERE player = ?", -1, &q, NULL) != SQLITE_OK)
    return dbfail(db, err, "edit");
  sqlite3_bind_int(q, 1, reg);
  int found = reg > 0 && sqlite3_step(q) == SQLITE_ROW;
  if (found) {
    snprintf(p->name, sizeof p->name, "%s", xq__store_col_text(q, 0));
    p->rating = sqlite3_column_int(q, 1);
    snprintf(p->birth, sizeof p->birth, "%s", xq__store_col_text(q, 2));
    p->sex = xq__store_col_text(q, 3)[0];
    snprintf(p->region, sizeof p->region, "%s", xq__store_col_text(q, 4));
    snprintf(p->club, sizeof p->club, "%s", xq__store_col_text(q, 5));
    snprintf(p->team, sizeof p->team, "%s", xq__store_col_text(q, 6));
    p->local = sqlite3_column_int(q, 7);
  }
  sqlite3_finalize(q);
  if (!found) return xq__error(err, XQ_EINVAL, "no player %d", id);
  if (sqlite3_prepare_v2(db, "SELECT field, new FROM player_edits WHERE player = ? ORDER BY id", -1, &q, NULL) !=
      SQLITE_OK)
    return dbfail(db, err, "edit");
  sqlite3_bind_int(q, 1, reg);
  while (sqlite3_step(q) == SQLITE_ROW) field_set(p, xq__store_col_text(q, 0), xq__store_col_text(q, 1));
  sqlite3_finalize(q);
  return XQ_OK;
}

/* The edit's rows: one per field of `fields` whose text differs, all
 * with the edit's own number. */
static int edit_rows(sqlite3 *db, int reg, const xq_tplayer *cur, const xq_tplayer *cand, unsigned fields,
                     unsigned *changed, xq_error *err)
{
  sqlite3_stmt *q;
  int edit = xq__store_count(db, "SELECT coalesce(max(edit), 0) + 1 FROM player_edits", 0);
  if (edit < 1 || sqlite3_prepare_v2(db, "INSERT INTO player_edits(edit, after_seq, player, field, old, new)"
                                     " VALUES (?, (SELECT coalesce(max(seq), 0) FROM events), ?, ?, ?, ?)",
                                     -1, &q, NULL) != SQLITE_OK)
    return dbfail(db, err, "edit");
  int rc = XQ_OK;
  for (int k = 0; k < XQ_PE_COUNT && !rc; k++) {
    char a[XQ_TOURNEY_NAME_MAX], b[XQ_TOURNEY_NAME_MAX];
    if (!(fields & (1u << k))) continue;
    field_text(cur, k, a, sizeof a);
    field_text(cand, k, b, sizeof b);
    if (!strcmp(a, b)) continue;
    sqlite3_reset(q);
    sqlite3_bind_int(q, 1, edit);
    sqlite3_bind_int(q, 2, reg);
    sqlite3_bind_text(q, 3, field_names[k], -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, a, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 5, b, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) != SQLITE_DONE) rc = dbfail(db, err, "edit");
    *changed |= 1u << k;
  }
  sqlite3_finalize(q);
  return rc;
}

/* The end of a write transaction xq__store_begin began, with `rc` the
 * status of its work: committed when XQ_OK, else rolled back (the
 * store's failure noted). The final status. */
static int end_tx(xq_tstore *st, int rc, xq_error *err)
{
  if (!rc) return xq__store_commit(st, err);
  xq__store_failed(st);
  xq__store_rollback(st);
  return rc;
}

static int edit_tx(xq_tstore *st, int id, const xq_tplayer *p, unsigned fields, unsigned *changed, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  xq_tplayer cur, cand;
  int reg = xq__store_reg_at(st, XQ__STORE_NOW, id);
  int rc = current_player(db, reg, id, &cur, err);
  if (rc) return rc;
  cand = cur;
  for (int k = 0; k < XQ_PE_COUNT; k++)
    if (fields & (1u << k)) field_copy(&cand, p, k);
  if ((rc = xq_player_check(&cand, err))) return rc;
  if ((fields & XQ_PE_TEAM) && strcmp(cand.team, cur.team) &&
      xq__store_count(db, "SELECT count(*) FROM events WHERE kind = 'pairing'", 0) > 0)
    return xq__error(err, XQ_EINVAL, "the team of a player cannot change once round 1 is paired"
                                     " (the team standings count every round for one team)");
  if ((rc = edit_rows(db, reg, &cur, &cand, fields, changed, err))) return rc;
  return *changed ? XQ_OK : xq__error(err, XQ_EINVAL, "the edit changes nothing");
}

int xq_tstore_edit(xq_tstore *st, int id, const xq_tplayer *p, unsigned fields, unsigned *changed,
                   xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  unsigned ch = 0;
  if (changed) *changed = 0;
  if (!db || !p) return XQ_EINVAL;
  if (!fields || (fields & ~(unsigned)XQ_PE_ALL)) return xq__error(err, XQ_EINVAL, "no field to edit");
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err);
  if (!rc) {
    int event = xq__store_count(db, "SELECT count(*) FROM meta WHERE key = 'name'", 0) > 0;
    rc = end_tx(st, event ? edit_tx(st, id, p, fields, &ch, err)
                          : xq__error(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)"), err);
  }
  xq__store_unlock(st);
  if (!rc && changed) *changed = ch;
  return rc;
}

int xq_tstore_player(xq_tstore *st, int id, xq_tplayer *p, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  xq_tplayer cur;
  if (!db || !p) return XQ_EINVAL;
  xq__store_lock(st);
  int rc = current_player(db, xq__store_reg_at(st, XQ__STORE_NOW, id), id, &cur, err);
  xq__store_unlock(st);
  for (int k = 0; !rc && k < XQ_PE_COUNT; k++) field_copy(p, &cur, k);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Deleting a player before round 1                                    */
/* ------------------------------------------------------------------ */

/* The registrations not deleted just after log row ?1, as SQL. */
#define LIVE_AT "registrations r WHERE r.seq <= ?1 AND r.player NOT IN (SELECT player FROM events WHERE " \
  XQ__STORE_REMOVED " AND seq <= ?1)"

/* True when the log holds a deletion (else numbers and ids are one). */
static int any_removed(xq_tstore *st)
{
  return xq__store_scalar(st, "SELECT count(*) FROM events WHERE " XQ__STORE_REMOVED, 0, 0, 1) != 0;
}

int xq__store_reg_at(xq_tstore *st, int64_t seq, int id)
{
  if (id < 1) return 0;
  if (!any_removed(st)) { /* the registration number is the id */
    int64_t there =
      xq__store_scalar(st, "SELECT count(*) FROM registrations WHERE seq <= ?1 AND player = ?2", seq, id, 0);
    return there ? id : 0;
  }
  return (int)xq__store_scalar(st, "SELECT r.player FROM " LIVE_AT " ORDER BY r.player LIMIT 1 OFFSET ?2 - 1", seq,
                               id, 0);
}

int xq__store_id_at(xq_tstore *st, int64_t seq, int reg)
{
  if (reg < 1) return 0;
  if (!any_removed(st)) return xq__store_reg_at(st, seq, reg);
  if (!xq__store_scalar(st, "SELECT count(*) FROM " LIVE_AT " AND r.player = ?2", seq, reg, 0)) return 0;
  return (int)xq__store_scalar(st, "SELECT count(*) FROM " LIVE_AT " AND r.player <= ?2", seq, reg, 0);
}

int xq__store_players(xq_tstore *st)
{
  return (int)xq__store_scalar(st, "SELECT count(*) FROM " LIVE_AT, XQ__STORE_NOW, 0, 0);
}

int xq__store_last_of(xq_tstore *st, const char *kind, int round, int id, int *ev_round, int *value)
{
  sqlite3_stmt *q;
  int reg = xq__store_reg_at(st, XQ__STORE_NOW, id), found = 0, direct = !any_removed(st);
  if (!reg || sqlite3_prepare_v2(xq__store_db(st), "SELECT seq, player, round, value FROM events WHERE kind = ?1"
                                 " AND (?2 = 0 OR round = ?2) AND (?3 = 0 OR player = ?3) AND round IS NOT NULL"
                                 " ORDER BY seq DESC", -1, &q, NULL) != SQLITE_OK)
    return 0;
  sqlite3_bind_text(q, 1, kind, -1, SQLITE_STATIC);
  sqlite3_bind_int(q, 2, round);
  sqlite3_bind_int(q, 3, direct ? id : 0); /* without a deletion a row names the id of now */
  while (!found && sqlite3_step(q) == SQLITE_ROW) {
    if (!direct && xq__store_reg_at(st, sqlite3_column_int64(q, 0), sqlite3_column_int(q, 1)) != reg) continue;
    found = 1;
    if (ev_round) *ev_round = sqlite3_column_int(q, 2);
    if (value) *value = sqlite3_column_int(q, 3);
  }
  sqlite3_finalize(q);
  return found;
}

static int remove_tx(xq_tstore *st, int id, int *reg, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (xq__store_count(db, "SELECT count(*) FROM meta WHERE key = 'name'", 0) <= 0)
    return xq__error(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)");
  if (xq__store_count(db, "SELECT count(*) FROM events WHERE kind = 'pairing'", 0) != 0)
    return xq__error(err, XQ_EINVAL, "round 1 is paired: a player is deleted only before it (withdraw him instead)");
  if (xq__store_count(db, "SELECT count(*) FROM ko_log", 0) != 0) /* a knockout-only event has no round 1 */
    return xq__error(err, XQ_EINVAL,
                     "the knockout has started: a player is deleted only before it (withdraw him instead)");
  if (xq__store_count(db, "SELECT count(*) FROM team_log WHERE kind = 'team'", 0) > 0) /* rosters name ids */
    return xq__error(err, XQ_EINVAL, "the teams are entered, their rosters naming the players: a player is deleted"
                                     " only before them (leave him out of the lineups instead)");
  if (!(*reg = xq__store_reg_at(st, XQ__STORE_NOW, id))) return xq__error(err, XQ_EINVAL, "no player %d", id);
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(db, "INSERT INTO events(kind, player, value, code) VALUES ('withdrawal', ?, 0, 'removed')",
                         -1, &q, NULL) != SQLITE_OK)
    return dbfail(db, err, "delete");
  sqlite3_bind_int(q, 1, *reg);
  int ok = sqlite3_step(q) == SQLITE_DONE;
  sqlite3_finalize(q);
  return ok ? XQ_OK : dbfail(db, err, "delete");
}

int xq_tstore_remove(xq_tstore *st, int id, int *reg, xq_error *err)
{
  int r = 0;
  if (!xq__store_db(st)) return XQ_EINVAL;
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err);
  if (!rc) rc = end_tx(st, remove_tx(st, id, &r, err), err);
  xq__store_unlock(st);
  if (!rc && reg) *reg = r;
  return rc;
}

/* ------------------------------------------------------------------ */
/* Merging two entries of one player                                   */
/* ------------------------------------------------------------------ */

/* The merge's rows: the deletion of `dreg` with code "merged" and value
 * `kreg`, then the edits that fill the fields `f` of the entry kept. */
static int merge_rows(xq_tstore *st, int kreg, int dreg, unsigned f, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(db, "INSERT INTO events(kind, player, value, code) VALUES ('withdrawal', ?, ?, 'merged')",
                         -1, &q, NULL) != SQLITE_OK)
    return dbfail(db, err, "merge");
  sqlite3_bind_int(q, 1, dreg);
  sqlite3_bind_int(q, 2, kreg);
  int ok = sqlite3_step(q) == SQLITE_DONE;
  sqlite3_finalize(q);
  if (!ok) return dbfail(db, err, "merge");
  xq_tplayer cur, from, cand;
  unsigned changed = 0;
  int rc = current_player(db, kreg, kreg, &cur, err);
  if (!rc) rc = current_player(db, dreg, dreg, &from, err);
  if (rc || !f) return rc;
  cand = cur;
  for (int k = 0; k < XQ_PE_COUNT; k++)
    if (f & (1u << k)) field_copy(&cand, &from, k);
  return edit_rows(db, kreg, &cur, &cand, f, &changed, err); /* after_seq: the merge's row */
}

static int merge_tx(xq_tstore *st, int keep, int drop, unsigned *filled, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (xq__store_count(db, "SELECT count(*) FROM meta WHERE key = 'name'", 0) <= 0)
    return xq__error(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)");
  if (xq__store_count(db, "SELECT count(*) FROM ko_log", 0) != 0)
    return xq__error(err, XQ_EINVAL, "the knockout has started: entries are merged only before it"
                                     " (withdraw the duplicate instead)");
  if (xq__store_count(db, "SELECT count(*) FROM team_log WHERE kind = 'team'", 0) > 0) /* rosters name ids */
    return xq__error(err, XQ_EINVAL, "the teams are entered, their rosters naming the players: entries are merged"
                                     " only before them");
  int kreg = xq__store_reg_at(st, XQ__STORE_NOW, keep), dreg = xq__store_reg_at(st, XQ__STORE_NOW, drop);
  if (!kreg || !dreg) return xq__error(err, XQ_EINVAL, "no player %d", kreg ? drop : keep);
  xq_tournament *ev = NULL;
  int rc = xq_tstore_load(st, &ev, err); /* the rule is the model's: judged on the event as stored */
  if (!rc) rc = xq_tournament_merge(ev, keep, drop, filled, err);
  xq_tournament_free(ev);
  return rc ? rc : merge_rows(st, kreg, dreg, *filled, err);
}

int xq_tstore_merge(xq_tstore *st, int keep, int drop, unsigned *filled, xq_error *err)
{
  unsigned f = 0;
  if (filled) *filled = 0;
  if (!xq__store_db(st)) return XQ_EINVAL;
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err);
  if (!rc) rc = end_tx(st, merge_tx(st, keep, drop, &f, err), err);
  xq__store_unlock(st);
  if (!rc && filled) *filled = f;
  return rc;
}

/* ------------------------------------------------------------------ */
/* Numbers before round 1                                              */
/* ------------------------------------------------------------------ */

static int numbers_tx(xq_tstore *st, xq_tournament *ev, const xq_tnumbering *how, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (xq__store_count(db, "SELECT count(*) FROM meta WHERE key = 'name'", 0) <= 0)
    return xq__error(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)");
  if (xq__store_count(db, "SELECT count(*) FROM events WHERE kind = 'pairing'", 0) != 0)
    return xq__error(err, XQ_EINVAL, "round 1 is paired: the pairing numbers are fixed");
  if (xq__store_players(st) != ev->n)
    return xq__error(err, XQ_EINVAL, "the event has changed since it was loaded: load it again");
  if (ev->n < 1) return xq__error(err, XQ_EINVAL, "no player to number");
  int rc = xq_number_players(ev, how, err);
  if (rc) return rc;
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(db, "INSERT INTO events(kind, value, code) VALUES ('numbering', ?, ?)", -1, &q, NULL) !=
      SQLITE_OK)
    return dbfail(db, err, "numbers");
  sqlite3_bind_int64(q, 1, how->method == XQ_NUM_LOT ? (sqlite3_int64)how->seed : 0);
  sqlite3_bind_text(q, 2, xq_num_method_name(how->method), -1, SQLITE_STATIC);
  int ok = sqlite3_step(q) == SQLITE_DONE;
  sqlite3_finalize(q);
  int64_t seq = sqlite3_last_insert_rowid(db);
  if (!ok || sqlite3_prepare_v2(db, "INSERT INTO draw_numbers(seq, player, pno) VALUES (?, ?, ?)", -1, &q, NULL) !=
      SQLITE_OK)
    return dbfail(db, err, "numbers");
  for (int id = 1; ok && id <= ev->n; id++) {
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, seq);
    sqlite3_bind_int(q, 2, xq__store_reg_at(st, XQ__STORE_NOW, id)); /* the registration number */
    sqlite3_bind_int(q, 3, ev->players[id - 1].pno);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  return ok ? XQ_OK : dbfail(db, err, "numbers");
}

int xq_tstore_numbers(xq_tstore *st, xq_tournament *ev, const xq_tnumbering *how, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !ev || !how) return XQ_EINVAL;
  int *keep = malloc(sizeof *keep * (size_t)(ev->n + 1));
  if (!keep) return XQ_ENOMEM;
  for (int id = 1; id <= ev->n; id++) keep[id - 1] = ev->players[id - 1].pno;
  xq__store_lock(st);
  int rc = xq__store_begin(st, 1, err);
  if (!rc) rc = end_tx(st, numbers_tx(st, ev, how, err), err);
  xq__store_unlock(st);
  /* not stored: the caller's event keeps the numbers it had */
  for (int id = 1; rc && id <= ev->n; id++) ev->players[id - 1].pno = keep[id - 1];
  free(keep);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Replay and the log                                                  */
/* ------------------------------------------------------------------ */

int xq__store_draw_load(xq_tstore *st, int64_t seq, xq_tournament *ev, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_LOAD_DRAW, "SELECT player, pno FROM draw_numbers WHERE seq = ?");
  if (!q) return dbfail(db, err, "load");
  /* a drawing numbers every player registered then; those after it wait */
  for (int id = 1; id <= ev->n; id++) ev->players[id - 1].pno = 0;
  sqlite3_bind_int64(q, 1, seq);
  int direct = !any_removed(st); /* else a registration number: the id it had then */
  while (sqlite3_step(q) == SQLITE_ROW) {
    int reg = sqlite3_column_int(q, 0), pno = sqlite3_column_int(q, 1);
    int id = direct ? reg : xq__store_id_at(st, seq, reg);
    if (id >= 1 && id <= ev->n) ev->players[id - 1].pno = pno;
  }
  sqlite3_reset(q);
  return XQ_OK;
}

int xq__store_edits_load(xq_tstore *st, xq_tournament *ev, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_LOAD_EDITS, "SELECT player, field, new FROM player_edits ORDER BY id");
  if (!q) return dbfail(db, err, "load");
  int rc = XQ_OK;
  int direct = !any_removed(st);
  while (!rc && sqlite3_step(q) == SQLITE_ROW) {
    int reg = sqlite3_column_int(q, 0), id = direct ? reg : xq__store_id_at(st, XQ__STORE_NOW, reg);
    if (!id && reg >= 1 && xq__store_scalar(st, "SELECT count(*) FROM events WHERE " XQ__STORE_REMOVED
                                          " AND player = ?", reg, 0, 0))
      continue; /* the edits of a deleted player went with him */
    if (id < 1 || id > ev->n || field_set(&ev->players[id - 1], xq__store_col_text(q, 1), xq__store_col_text(q, 2)))
      rc = xq__error(err, XQ_ESTORE, "the table of edits names an unknown player or field");
    else if (xq_player_check(&ev->players[id - 1], NULL))
      rc = xq__error(err, XQ_ESTORE, "an edit leaves player %d with details that do not check", id);
  }
  sqlite3_reset(q);
  return rc;
}

void xq__store_edits_dump(xq_tstore *st, int64_t after, FILE *f)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(xq__store_db(st), "SELECT edit, at, player, field, old, new FROM player_edits"
                         " WHERE after_seq = ? ORDER BY id", -1, &q, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_int64(q, 1, after);
  while (sqlite3_step(q) == SQLITE_ROW)
    fprintf(f, "  edit %d %s player=%d %s: %s -> %s\n", sqlite3_column_int(q, 0), xq__store_col_text(q, 1),
            sqlite3_column_int(q, 2), xq__store_col_text(q, 3), xq__store_col_text(q, 4), xq__store_col_text(q, 5));
  sqlite3_finalize(q);
}

void xq__store_draw_dump(xq_tstore *st, int64_t seq, FILE *f)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(xq__store_db(st), "SELECT d.pno, d.player, r.name FROM draw_numbers d JOIN registrations r"
                         " ON r.player = d.player WHERE d.seq = ? ORDER BY d.pno", -1, &q, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_int64(q, 1, seq);
  while (sqlite3_step(q) == SQLITE_ROW)
    fprintf(f, "    number %d player=%d name=%s\n", sqlite3_column_int(q, 0), sqlite3_column_int(q, 1),
            xq__store_col_text(q, 2));
  sqlite3_finalize(q);
}
