/*
 * store_settings.c -- the event's settings changed after it was made
 * (docs/store.md "Settings"): a change is a row per key whose text
 * changes in the append-only settings table (schema 10), read back over
 * the meta rows through the view config (xq__store_config_load), and
 * printed by `tourney log` after the event it followed.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "store_internal.h"

/* The keys of an event and their texts: its name and what it says of
 * itself, every configuration field of the meta table, the tie-breaks.
 * `n` gets the number of keys; keys[i] and texts[i] name each. */
#define KEYS_MAX 40
typedef struct keyset {
  int n;
  const char *key[KEYS_MAX];
  char text[KEYS_MAX][XQ_TOURNEY_NAME_MAX];
} keyset;

static void keys_of(const char *name, const xq_tinfo *info, const xq_tconfig *cfg, keyset *k)
{
  const struct { const char *key, *text; } texts[] = {
    {"name", name}, {"dates", info->dates}, {"venue", info->venue}, {"organiser", info->organiser},
    {"arbiter", info->arbiter},
  };
  k->n = 0;
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    k->key[k->n] = texts[i].key;
    snprintf(k->text[k->n++], sizeof k->text[0], "%s", texts[i].text);
  }
  for (int i = 0; i < xq__store_ncfg_keys && k->n < KEYS_MAX - 1; i++) {
    k->key[k->n] = xq__store_cfg_keys[i].key;
    snprintf(k->text[k->n++], sizeof k->text[0], "%d", *(const int *)((const char *)cfg + xq__store_cfg_keys[i].off));
  }
  k->key[k->n] = "tiebreaks";
  if (xq_tconfig_tb_format(cfg, k->text[k->n], sizeof k->text[0])) k->text[k->n][0] = 0;
  k->n++;
}

/* The rows of a change: one per key of `now` whose text differs from
 * `was`, all with the change's own number. */
static int change_rows(xq_tstore *st, const keyset *was, const keyset *now, xq_error *err)
{
  sqlite3_stmt *q;
  int change = (int)xq__store_scalar(st, "SELECT coalesce(max(change), 0) + 1 FROM settings", 0, 0, -1);
  if (change < 1 || sqlite3_prepare_v2(xq__store_db(st), "INSERT INTO settings(change, after_seq, key, value)"
                                       " VALUES (?, (SELECT coalesce(max(seq), 0) FROM events), ?, ?)",
                                       -1, &q, NULL) != SQLITE_OK)
    return xq__store_dberr(st, err, "settings");
  int ok = 1;
  for (int i = 0; ok && i < now->n; i++) {
    if (!strcmp(was->text[i], now->text[i])) continue;
    sqlite3_reset(q);
    sqlite3_bind_int(q, 1, change);
    sqlite3_bind_text(q, 2, now->key[i], -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, now->text[i], -1, SQLITE_STATIC);
    ok = sqlite3_step(q) == SQLITE_DONE;
  }
  sqlite3_finalize(q);
  return ok ? XQ_OK : xq__store_dberr(st, err, "settings");
}

/* The fields (XQ_TS_*) whose values differ between a and b. */
static unsigned differ(const xq_tsettings *a, const xq_tsettings *b)
{
  unsigned d = 0;
  if (strcmp(a->name, b->name)) d |= XQ_TS_NAME;
  if (strcmp(a->info.dates, b->info.dates)) d |= XQ_TS_DATES;
  if (strcmp(a->info.venue, b->info.venue)) d |= XQ_TS_VENUE;
  if (strcmp(a->info.organiser, b->info.organiser)) d |= XQ_TS_ORGANISER;
  if (strcmp(a->info.arbiter, b->info.arbiter)) d |= XQ_TS_ARBITER;
  if (a->rounds != b->rounds) d |= XQ_TS_ROUNDS;
  if (a->format != b->format) d |= XQ_TS_FORMAT;
  if (a->system != b->system) d |= XQ_TS_SYSTEM;
  if (strcmp(a->tiebreaks, b->tiebreaks)) d |= XQ_TS_TIEBREAKS;
  if (a->halves != b->halves) d |= XQ_TS_SCORING;
  if (a->delay != b->delay) d |= XQ_TS_DELAY;
  return d;
}

/* The change inside the caller's transaction: the event as the store
 * has it (`cur`), the settings applied to a copy (`cand`), the rows. */
static int settings_tx(xq_tstore *st, const xq_tsettings *s, unsigned fields, xq_tournament *cur,
                       xq_tournament *cand, unsigned *changed, xq_error *err)
{
  int rc = xq__store_config_load(st, cur, err);
  if (rc) return rc;
  /* every pairing published, withdrawn ones too: what round 1 fixed (the
   * numbers, the format) stays fixed when it is paired again */
  int paired = (int)xq__store_scalar(st, "SELECT coalesce(max(round), 0) FROM events WHERE kind = 'pairing'", 0, 0, 0);
  if (xq__store_scalar(st, "SELECT count(*) FROM ko_log", 0, 0, 0) && paired < 1) paired = 1; /* a knockout-only event */
  const char *why = xq_tsettings_locked(cur->name, &cur->cfg, paired, XQ_TS_NAME);
  if ((fields & XQ_TS_NAME) && strcmp(s->name, cur->name) && why) return xq__store_error(err, XQ_EINVAL, why);
  snprintf(cand->name, sizeof cand->name, "%s", fields & XQ_TS_NAME ? s->name : cur->name);
  cand->info = cur->info;
  if (fields & XQ_TS_DATES) snprintf(cand->info.dates, sizeof cand->info.dates, "%s", s->info.dates);
  if (fields & XQ_TS_VENUE) snprintf(cand->info.venue, sizeof cand->info.venue, "%s", s->info.venue);
  if (fields & XQ_TS_ORGANISER) snprintf(cand->info.organiser, sizeof cand->info.organiser, "%s", s->info.organiser);
  if (fields & XQ_TS_ARBITER) snprintf(cand->info.arbiter, sizeof cand->info.arbiter, "%s", s->info.arbiter);
  cand->cfg = cur->cfg;
  /* a team event's games are its matches' boards: team_new set its format */
  xq_tsettings was_set;
  xq_tsettings_of(cur, &was_set);
  if ((fields & XQ_TS_FORMAT) && s->format != was_set.format &&
      xq__store_scalar(st, "SELECT count(*) FROM team_log WHERE kind = 'config'", 0, 0, 0))
    return xq__store_error(err, XQ_EINVAL, "a team event: its format is the team competition's (team_new)");
  if ((rc = xq_tsettings_apply(&cand->cfg, s, fields, paired, err))) return rc;
  keyset *was = malloc(sizeof *was), *now = malloc(sizeof *now);
  if (!was || !now) rc = xq__store_error(err, XQ_ENOMEM, "out of memory");
  if (!rc) {
    keys_of(cur->name, &cur->info, &cur->cfg, was);
    keys_of(cand->name, &cand->info, &cand->cfg, now);
    rc = change_rows(st, was, now, err);
  }
  free(was);
  free(now);
  if (!rc && changed) {
    xq_tsettings a, b;
    xq_tsettings_of(cur, &a);
    xq_tsettings_of(cand, &b);
    *changed = differ(&a, &b);
  }
  return rc;
}

int xq_tstore_settings(xq_tstore *st, const xq_tsettings *s, unsigned fields, unsigned *changed, xq_error *err)
{
  if (!st || !s) return XQ_EINVAL;
  if (changed) *changed = 0;
  xq_tsettings c = *s;
  int rc = xq_tsettings_check(&c, fields, err);
  if (rc) return rc;
  xq_tournament *cur = xq_tournament_new(NULL, NULL), *cand = xq_tournament_new(NULL, NULL);
  if (!cur || !cand) rc = xq__store_error(err, XQ_ENOMEM, "out of memory");
  if (!rc) {
    xq__store_lock(st);
    rc = xq__store_begin(st, 1, err);
    if (!rc) {
      rc = settings_tx(st, &c, fields, cur, cand, changed, err);
      if (rc) xq__store_rollback(st);
      else rc = xq__store_commit(st, err);
    }
    xq__store_unlock(st);
  }
  xq_tournament_free(cur);
  xq_tournament_free(cand);
  return rc;
}

void xq__store_settings_dump(xq_tstore *st, int64_t after, FILE *f)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(xq__store_db(st), "SELECT change, at, key, value FROM settings WHERE after_seq = ?"
                         " ORDER BY id", -1, &q, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_int64(q, 1, after);
  while (sqlite3_step(q) == SQLITE_ROW)
    fprintf(f, "    settings %d %s %s=%s\n", sqlite3_column_int(q, 0), xq__store_col_text(q, 1),
            xq__store_col_text(q, 2), xq__store_col_text(q, 3));
  sqlite3_finalize(q);
}
