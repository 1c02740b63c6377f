/*
 * store_load.c -- reading the store's event log back: the event rebuilt
 * by replaying the whole log in order (xq_tstore_load; docs/tourney.md, "The event store"), a
 * round's published boards, the number of events, and the log printed one
 * event a line as the audit trail (xq_tstore_dump).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "store_internal.h"

long xq_tstore_event_count(xq_tstore *st)
{
  if (!st) return XQ_EINVAL;
  return (long)xq__store_scalar(st, "SELECT count(*) FROM events", 0, 0, XQ_ESTORE);
}

int xq_tstore_pairing(xq_tstore *st, int round, xq_tpairing *out, xq_error *err)
{
  sqlite3 *db = st ? xq__store_db(st) : NULL;
  sqlite3_stmt *q;
  if (!db || !out) return XQ_EINVAL;
  memset(out, 0, sizeof *out);
  if (round < 1 || round > XQ_TOURNEY_ROUNDS_MAX) {
    if (err) {
      err->code = XQ_EINVAL; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "no round is paired yet");
      if (round > 0) snprintf(err->msg, sizeof err->msg, "round %d is not paired", round);
    }
    return XQ_EINVAL;
  }
  /* a round is published once (xq_tstore_publish); take its boards in order */
  if (sqlite3_prepare_v2(db, "SELECT b.red, b.black FROM pairing_boards b JOIN pairings e"
                         " ON e.seq = b.seq WHERE e.kind = 'pairing' AND e.round = ?"
                         " ORDER BY b.board", -1, &q, NULL) != SQLITE_OK) {
    if (err) {
      err->code = XQ_ESTORE; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, "read pairing: %.100s", sqlite3_errmsg(db));
    }
    return XQ_ESTORE;
  }
  sqlite3_bind_int(q, 1, round);
  int cap = 0, rc = XQ_OK, step;
  while ((step = sqlite3_step(q)) == SQLITE_ROW) {
    if (out->nboards == cap) {
      int ncap = cap ? cap * 2 : 16;
      if (out->nboards >= XQ_TOURNEY_PLAYERS_MAX) { rc = XQ_ELIMIT; break; }
      xq_tboard *nb = realloc(out->boards, sizeof *nb * (size_t)ncap);
      if (!nb) { rc = XQ_ENOMEM; break; }
      out->boards = nb;
      cap = ncap;
    }
    out->boards[out->nboards].red = sqlite3_column_int(q, 0);
    out->boards[out->nboards].black = sqlite3_column_int(q, 1);
    out->nboards++;
  }
  if (rc == XQ_OK && step != SQLITE_DONE) rc = XQ_ESTORE;
  sqlite3_finalize(q);
  if (rc == XQ_OK && !out->nboards) rc = XQ_EINVAL;
  if (rc) {
    xq_tpairing_clear(out);
    out->nboards = 0;
    if (err) {
      err->code = rc; err->pos = -1; err->ply = -1;
      snprintf(err->msg, sizeof err->msg, rc == XQ_EINVAL ? "round %d is not paired"
               : rc == XQ_ENOMEM ? "out of memory reading round %d"
               : rc == XQ_ELIMIT ? "round %d has too many boards" : "cannot read round %d",
               round);
    }
    return rc;
  }
  out->round = round;
  return XQ_OK;
}

int xq__store_config_load(xq_tstore *st, xq_tournament *ev, xq_error *err)
{
  sqlite3_stmt *q = xq__store_stmt(st, XQ__STORE_Q_LOAD_META, "SELECT key, value FROM config");
  int have = 0;
  if (!q) return xq__store_dberr(st, err, "load");
  const struct { const char *key; char *dst; size_t cap; } texts[] = {
    {"name", ev->name, sizeof ev->name}, {"dates", ev->info.dates, sizeof ev->info.dates},
    {"venue", ev->info.venue, sizeof ev->info.venue}, {"organiser", ev->info.organiser, sizeof ev->info.organiser},
    {"arbiter", ev->info.arbiter, sizeof ev->info.arbiter},
  };
  while (sqlite3_step(q) == SQLITE_ROW) {
    const char *k = xq__store_col_text(q, 0), *v = xq__store_col_text(q, 1);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
      if (!strcmp(k, texts[i].key)) snprintf(texts[i].dst, texts[i].cap, "%s", v);
    if (!strcmp(k, "name")) have = 1;
    else if (!strcmp(k, "lot_seed")) ev->cfg.lot_seed = strtoull(v, NULL, 10);
    else if (!strcmp(k, "tiebreaks")) xq_tconfig_tiebreaks(&ev->cfg, v, NULL);
    for (int i = 0; i < xq__store_ncfg_keys; i++)
      if (!strcmp(k, xq__store_cfg_keys[i].key)) *(int *)((char *)&ev->cfg + xq__store_cfg_keys[i].off) = atoi(v);
  }
  sqlite3_reset(q);
  return have ? XQ_OK : xq__store_error(err, XQ_ESTORE, "no event in this store (run `xqref tourney new` first)");
}

/* The statements of a reload: the log in order, and the rows that
 * belong to its events. */
typedef struct load_q {
  sqlite3_stmt *q, *reg, *num, *brd, *b2;
  int nreg;                    /* registration rows replayed */
} load_q;

/* A register event: the player of registration row `seq`, who must have
 * the next registration number, and gets the next id. */
static int load_register(xq_tstore *st, load_q *L, int64_t seq, xq_tournament *ev, xq_error *err)
{
  sqlite3_stmt *reg = L->reg;
  xq_tplayer p;
  int id, rc;
  memset(&p, 0, sizeof p);
  sqlite3_reset(reg);
  sqlite3_bind_int64(reg, 1, seq);
  if (sqlite3_step(reg) != SQLITE_ROW) return xq__store_dberr(st, err, "registration row missing");
  snprintf(p.name, sizeof p.name, "%s", xq__store_col_text(reg, 1));
  p.rating = sqlite3_column_int(reg, 2);
  snprintf(p.birth, sizeof p.birth, "%s", xq__store_col_text(reg, 3));
  p.sex = xq__store_col_text(reg, 4)[0];
  snprintf(p.region, sizeof p.region, "%s", xq__store_col_text(reg, 5));
  snprintf(p.club, sizeof p.club, "%s", xq__store_col_text(reg, 6));
  snprintf(p.team, sizeof p.team, "%s", xq__store_col_text(reg, 7));
  p.local = sqlite3_column_int(reg, 8);
  snprintf(p.title, sizeof p.title, "%s", xq__store_col_text(reg, 9));
  snprintf(p.fed, sizeof p.fed, "%s", xq__store_col_text(reg, 10));
  snprintf(p.fide_id, sizeof p.fide_id, "%s", xq__store_col_text(reg, 11));
  if ((rc = xq_tournament_add(ev, &p, &id, err))) return rc;
  if (++L->nreg != sqlite3_column_int(reg, 0)) return xq__store_error(err, XQ_ESTORE, "registrations out of order");
  return XQ_OK;
}

/* A deletion (docs/store.md "Deleting a player"): registration number
 * `reg`, the player of his id just before event `seq`, is left out. */
static int load_removal(xq_tstore *st, int64_t seq, int reg, xq_tournament *ev, xq_error *err)
{
  int id = xq__store_id_at(st, seq - 1, reg);
  if (id < 1 || xq_tournament_remove(ev, id))
    return xq__store_error(err, XQ_ESTORE, "the log deletes a player not registered, or after round 1 was paired");
  return XQ_OK;
}

/* A merge (docs/store.md "Merging two entries"): registration number
 * `reg` merged into registration number `kreg`, both by their ids just
 * before event `seq`. */
static int load_merge(xq_tstore *st, int64_t seq, int reg, int kreg, xq_tournament *ev, xq_error *err)
{
  int drop = xq__store_id_at(st, seq - 1, reg), keep = xq__store_id_at(st, seq - 1, kreg);
  if (drop < 1 || keep < 1 || xq_tournament_merge(ev, keep, drop, NULL, NULL))
    return xq__store_error(err, XQ_ESTORE, "the log merges a player not registered, or one who has played");
  return XQ_OK;
}

/* A pairing event: the `nboards` boards of pairing row `seq` applied to
 * round `round`. */
static int load_pairing(const load_q *L, int64_t seq, int round, int nboards, xq_tournament *ev, xq_error *err)
{
  xq_tpairing pr = {.round = round};
  pr.boards = malloc(sizeof *pr.boards * (size_t)(nboards > 0 ? nboards : 1));
  if (!pr.boards) return XQ_ENOMEM;
  sqlite3_reset(L->brd);
  sqlite3_bind_int64(L->brd, 1, seq);
  while (sqlite3_step(L->brd) == SQLITE_ROW && pr.nboards < nboards) {
    pr.boards[pr.nboards].red = sqlite3_column_int(L->brd, 1);
    pr.boards[pr.nboards].black = sqlite3_column_int(L->brd, 2);
    pr.nboards++;
  }
  int rc = xq_tournament_apply_pairing(ev, &pr);
  xq_tpairing_clear(&pr);
  return rc ? xq__store_error(err, XQ_ESTORE, "a published pairing names an unknown player") : XQ_OK;
}

/* A result or forfeit event: `code` on the board `board` of round
 * `round` as published before event `seq`. */
static void load_result(const load_q *L, int64_t seq, int round, int board, const char *code, xq_tournament *ev)
{
  int red = 0, black = 0;
  sqlite3_reset(L->b2);
  sqlite3_bind_int(L->b2, 1, round);
  sqlite3_bind_int(L->b2, 2, board);
  sqlite3_bind_int64(L->b2, 3, seq);
  if (sqlite3_step(L->b2) == SQLITE_ROW) {
    red = sqlite3_column_int(L->b2, 0);
    black = sqlite3_column_int(L->b2, 1);
  }
  if (red >= 1 && red <= ev->n && black >= 1 && black <= ev->n) xq_tournament_set_result(ev, round, red, black, code);
}

/* Apply the event of the log row L->q stands on. */
static int load_event(xq_tstore *st, load_q *L, xq_tournament *ev, xq_error *err)
{
  sqlite3_stmt *q = L->q;
  int64_t seq = sqlite3_column_int64(q, 0);
  const char *kind = xq__store_col_text(q, 1);
  int round = sqlite3_column_int(q, 2), player = sqlite3_column_int(q, 3);
  int board = sqlite3_column_int(q, 4), value = sqlite3_column_int(q, 5);
  const char *code = xq__store_col_text(q, 6);
  if (!strcmp(kind, "withdrawal") && !strcmp(code, "removed") && sqlite3_column_type(q, 2) == SQLITE_NULL)
    return load_removal(st, seq, player, ev, err);
  if (!strcmp(kind, "withdrawal") && !strcmp(code, "merged") && sqlite3_column_type(q, 2) == SQLITE_NULL)
    return load_merge(st, seq, player, value, ev, err);
  int needs_player = !strcmp(kind, "foul") || !strcmp(kind, "absence") || !strcmp(kind, "withdrawal");
  if (round < 0 || round > XQ_TOURNEY_ROUNDS_MAX || player < 0 || player > ev->n + 1 ||
      (needs_player && (player < 1 || player > ev->n || round < 1)))
    return xq__store_error(err, XQ_ESTORE, "event log holds an out-of-range round or player");
  if (!strcmp(kind, "register")) return load_register(st, L, seq, ev, err);
  if (!strcmp(kind, "numbering") && round == 0) {
    return xq__store_draw_load(st, seq, ev, err); /* drawn before round 1 */
  } else if (!strcmp(kind, "numbering")) {
    sqlite3_reset(L->num);
    sqlite3_bind_int64(L->num, 1, seq);
    while (sqlite3_step(L->num) == SQLITE_ROW) {
      int id = sqlite3_column_int(L->num, 0);
      if (id >= 1 && id <= ev->n) ev->players[id - 1].pno = sqlite3_column_int(L->num, 1);
    }
  } else if (!strcmp(kind, "pairing") && value < 0) {
    xq_tournament_unapply_pairing(ev, round); /* withdrawn (xq_tstore_unpublish) */
  } else if (!strcmp(kind, "pairing")) {
    return load_pairing(L, seq, round, value, ev, err);
  } else if (!strcmp(kind, "result") || !strcmp(kind, "forfeit")) {
    load_result(L, seq, round, board, code, ev);
  } else if (!strcmp(kind, "foul")) {
    if (!strcmp(code, "set")) xq_tournament_slot(ev, player, round)->fouls = 0; /* a correction */
    xq_tournament_add_fouls(ev, player, round, value);
  } else if (!strcmp(kind, "absence") && value < 0) {
    xq_tournament_slot(ev, player, round)->absent = XQ_TR_NONE; /* taken back */
  } else if (!strcmp(kind, "absence")) {
    xq_tournament_slot(ev, player, round)->absent =
      (uint8_t)(value == 1 ? XQ_TR_HPB : value == 2 ? XQ_TR_FPB : XQ_TR_ZPB);
  } else if (!strcmp(kind, "withdrawal") && value == 1) {
    ev->players[player - 1].withdrawn = 0; /* taken back (xq_tstore_reinstate) */
  } else if (!strcmp(kind, "withdrawal")) {
    xq_tplayer *p = &ev->players[player - 1];
    if (!p->withdrawn || p->withdrawn > round) p->withdrawn = round;
  }
  return XQ_OK;
}

int xq_tstore_load(xq_tstore *st, xq_tournament **out, xq_error *err)
{
  if (!st || !out) return XQ_EINVAL;
  *out = NULL;
  xq_tournament *ev = xq_tournament_new(NULL, NULL);
  if (!ev) return XQ_ENOMEM;
  load_q L = {0};
  int rc = XQ_ESTORE, began = 0;
  /* one read transaction (a savepoint inside a batch): a consistent
   * snapshot of the log */
  xq__store_lock(st);
  if (xq__store_begin(st, 0, err)) goto out;
  began = 1;
  if ((rc = xq__store_config_load(st, ev, err))) goto out;
  rc = XQ_ESTORE;
  L.q = xq__store_stmt(st, XQ__STORE_Q_LOAD_EVENTS, "SELECT seq, kind, round, player, board, value, code"
                       " FROM events ORDER BY seq");
  L.reg = xq__store_stmt(st, XQ__STORE_Q_LOAD_REG, "SELECT player, name, rating, birth, sex, region, club,"
                         " team, local, title, fed, fide_id FROM registrations WHERE seq = ?");
  L.num = xq__store_stmt(st, XQ__STORE_Q_LOAD_NUM, "SELECT player, pno FROM numbers WHERE seq = ?");
  L.brd = xq__store_stmt(st, XQ__STORE_Q_LOAD_BOARDS, "SELECT board, red, black FROM pairing_boards"
                         " WHERE seq = ? ORDER BY board");
  /* the board of a result: prepared once, not once per result (a load
   * per result made the server's reloads quadratic) */
  L.b2 = xq__store_stmt(st, XQ__STORE_Q_LOAD_RESULT, "SELECT b.red, b.black FROM pairing_boards b JOIN pairings e"
                        " ON e.seq = b.seq WHERE e.kind = 'pairing' AND e.round = ? AND b.board = ?"
                        " AND e.seq < ?");
  if (!L.q || !L.reg || !L.num || !L.brd || !L.b2) {
    rc = xq__store_dberr(st, err, "load");
    goto out;
  }
  int s;
  while ((s = sqlite3_step(L.q)) == SQLITE_ROW)
    if ((rc = load_event(st, &L, ev, err))) goto out;
  rc = s == SQLITE_DONE ? XQ_OK : xq__store_dberr(st, err, "load");
  if (!rc) rc = xq__store_edits_load(st, ev, err);
  if (!rc) rc = xq__store_ko_mark(st, ev, err);
  /* a round robin's rounds follow from its entrants */
  if (!rc && ev->cfg.format == XQ_FORMAT_RR) ev->cfg.rounds = xq_rr_event_rounds(&ev->cfg, ev->n);
out:
  /* reset, not finalized: the statements stay cached for the next load
   * (sqlite3_reset of NULL is a no-op) */
  sqlite3_reset(L.q);
  sqlite3_reset(L.reg);
  sqlite3_reset(L.num);
  sqlite3_reset(L.brd);
  sqlite3_reset(L.b2);
  if (began) xq__store_commit(st, NULL); /* ends a read: nothing to lose */
  xq__store_unlock(st);
  if (rc) { xq_tournament_free(ev); return rc; }
  *out = ev;
  return XQ_OK;
}

/* The changes of pairing event `seq`, a line each under it. */
static void changes_dump(xq_tstore *st, int64_t seq, FILE *f)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(xq__store_db(st), "SELECT n, kind, a, b, reason FROM pairing_changes WHERE seq = ? ORDER BY n",
                         -1, &q, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_int64(q, 1, seq);
  while (sqlite3_step(q) == SQLITE_ROW)
    fprintf(f, "    change %d %s a=%d b=%d reason=%s\n", sqlite3_column_int(q, 0), xq__store_col_text(q, 1),
            sqlite3_column_int(q, 2), sqlite3_column_int(q, 3), xq__store_col_text(q, 4));
  sqlite3_finalize(q);
}

int xq_tstore_dump(xq_tstore *st, FILE *f)
{
  sqlite3_stmt *q;
  if (!st || !f) return XQ_EINVAL;
  xq__store_lock(st);
  if (sqlite3_prepare_v2(xq__store_db(st), "SELECT seq, at, kind, round, player, board, value, code,"
                         " (SELECT name FROM registrations r WHERE r.seq = e.seq)"
                         " FROM events e ORDER BY seq", -1, &q, NULL) != SQLITE_OK) {
    xq__store_unlock(st);
    return XQ_ESTORE;
  }
  xq__store_settings_dump(st, 0, f); /* changed before the first event */
  while (sqlite3_step(q) == SQLITE_ROW) {
    fprintf(f, "%lld %s %-10s", (long long)sqlite3_column_int64(q, 0), xq__store_col_text(q, 1),
            xq__store_col_text(q, 2));
    if (sqlite3_column_type(q, 3) != SQLITE_NULL) fprintf(f, " round=%d", sqlite3_column_int(q, 3));
    if (sqlite3_column_type(q, 4) != SQLITE_NULL) fprintf(f, " player=%d", sqlite3_column_int(q, 4));
    if (sqlite3_column_type(q, 5) != SQLITE_NULL) fprintf(f, " board=%d", sqlite3_column_int(q, 5));
    const char *kind = xq__store_col_text(q, 2);
    int draw = !strcmp(kind, "numbering") && sqlite3_column_type(q, 3) == SQLITE_NULL;
    long long value = (long long)sqlite3_column_int64(q, 6);
    if (draw) { /* a drawing before round 1: its method and the lot's seed */
      fprintf(f, " by=%s", xq__store_col_text(q, 7));
      if (!strcmp(xq__store_col_text(q, 7), "lot")) fprintf(f, " seed=%lld", value);
    } else if (!strcmp(kind, "withdrawal") && !strcmp(xq__store_col_text(q, 7), "removed")) {
      fprintf(f, " deleted (player= is the registration number; the ids after it close up)");
    } else if (!strcmp(kind, "withdrawal") && !strcmp(xq__store_col_text(q, 7), "merged")) {
      fprintf(f, " merged into=%lld (registration numbers; the ids after it close up)", value);
    } else if (!strcmp(kind, "withdrawal") && value == 1) {
      fprintf(f, " reinstated");
    } else if (!strcmp(kind, "pairing") && value < 0) {
      fprintf(f, " withdrawn (the round's pairing above is taken back)");
    } else {
      if (value) fprintf(f, " value=%lld", value);
      if (sqlite3_column_type(q, 7) != SQLITE_NULL) fprintf(f, " code=%s", xq__store_col_text(q, 7));
    }
    if (sqlite3_column_type(q, 8) != SQLITE_NULL) fprintf(f, " name=%s", xq__store_col_text(q, 8));
    fputc('\n', f);
    int64_t seq = sqlite3_column_int64(q, 0);
    if (!strcmp(kind, "pairing")) changes_dump(st, seq, f);
    if (draw) xq__store_draw_dump(st, seq, f);
    xq__store_edits_dump(st, seq, f);
    xq__store_settings_dump(st, seq, f);
  }
  sqlite3_finalize(q);
  xq__store_ko_dump(st, f);
  xq__store_team_dump(st, f);
  xq__store_unlock(st);
  return ferror(f) ? XQ_EIO : XQ_OK;
}
