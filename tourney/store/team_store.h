/*
 * store/team_store.h -- a team competition in the event store
 * (docs/store.md, "team_log"): its rows appended to the team log (schema
 * 12), and the event rebuilt by applying them in order. The players are
 * the store's registrations; the teams, matches, lineups and board
 * results are the team log's.
 */
#ifndef XQ_TOURNEY_STORE_TEAM_H
#define XQ_TOURNEY_STORE_TEAM_H

#include "store.h"
#include "teammatch.h"

/* Apply rows[0..n) to `ev` (xq_tm_log_apply; `*ev` NULL for a first
 * CONFIG row) and, only when every row applies, append them to the team
 * log in one transaction. `people` is the store's event (xq_tstore_load)
 * whose players the rosters name. Returns XQ_OK; the code of the row
 * refused, with `err` (the log unchanged; `*ev` may hold the rows before
 * it: load it again); XQ_ESTORE. */
int xq_tstore_team_record(xq_tstore *st, const xq_tournament *people, xq_tm_event **ev, const xq_tm_logrow *rows,
                          int n, xq_error *err);

/* The team competition of the store, rebuilt from its team log into
 * *out (free with xq_tm_event_free), or *out NULL when the store holds an
 * individual event (no team log). The boards played as games of the
 * individual rounds of `people` take their results (xq_tm_sync_games).
 * Returns XQ_OK, XQ_ESTORE or the code
 * of a row that does not apply, with `err`. */
int xq_tstore_team_load(xq_tstore *st, const xq_tournament *people, xq_tm_event **out, xq_error *err);

#endif /* XQ_TOURNEY_STORE_TEAM_H */
