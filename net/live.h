/*
 * live.h -- the games in play (live.c): one adjudicator state per
 * published board, replayed from the game log at start; and their views:
 * as JSON (live_json.c) and as PGN (live_pgn.c). Internal to net/.
 */
#ifndef XQ_NET_LIVE_H
#define XQ_NET_LIVE_H

#include <stdint.h>

#include "adjudicator.h"
#include "internal.h"
#include "knockout.h"

/* The clock after one ply: the mover's time left (ms) as known until the
 * next ply, and the time the move took (ms) where the board's readings
 * tell it; -1 unknown. */
typedef struct xq__ply_clock {
  long ms;
  long emt;
} xq__ply_clock;

/* What every answer shows of a game -- games.json, the round's PGN, the
 * snapshots of the event stream, the arbiter's `game`, a board's hello:
 * the game as the store holds it. It is taken from the judged game right
 * after a row's events (xq__live_view_take) and put in place when that
 * row is durable (xq__live_view_set), so nothing judged and not yet
 * durable shows, and nothing shown can vanish with a failed commit.
 * Immutable once made. */
typedef struct xq__view {
  xq_pos start, pos;           /* where the game began, where it stands */
  int nply;
  xq_move *moves;              /* the nply moves from the start */
  xq__ply_clock *ply_clock;    /* the clock after each of them (xq__live ply_clock) */
  xq_outcome result;
  xq_reason reason;
  int must_change;             /* the side a change order (变着) binds, -1 none */
  int fouls[2];
  long clock[2];               /* as xq__live_clock says them, -1 none */
  long game_clock[2];          /* the adjudicator's (xq_game clock_ms), -1 none */
  int64_t clock_at;            /* when they were read (µs since 1970), 0 unknown */
  int paused;
  int64_t last_seq;            /* the board's last sequence number that is durable */
  char *verdict;               /* the last ruling's JSON, NULL none */
  char *rulings;               /* every ruling's JSON, as an array's text "[...]", NULL none */
  int refs;                    /* references (the game's, the delay's: delay.c) */
} xq__view;

/* A board event's row on its way to the store (ops_game.c): a resend of
 * its sequence number waits for it. */
typedef struct xq__event_row xq__event_row;

/* One game being played or followed: a published board of a round. */
typedef struct xq__live {
  int round, board;
  int red, black;              /* player ids (black 0: the bye, no game) */
  xq_game *g;                  /* the adjudicator's state */
  int64_t last_seq;            /* highest board sequence number judged (durable or on its way) */
  xq__view *view;              /* the game as the store holds it: what answers show */
  xq__view *pub;               /* with views held by the delay (delay.c): the last released,
                                  what anonymous readers see (swapped with view while they do) */
  int held;                    /* views of it held by the delay */
  xq__event_row *inflight;     /* its board events' rows not yet durable, oldest first */
  int recorded;                /* the result is in the tourney log */
  int busy;                    /* an event is being judged off the loop */
  int rebuild;                 /* marked for xq__live_rebuild_marked */
  long quiet;                  /* board events that were not moves, stored or on their way ... */
  double quiet_tokens;         /* ... the rate budget left (XQ_GAME_QUIET_*) ... */
  uint64_t quiet_at;           /* ... as of this loop time (ms) */
  long clock_ms[2];            /* last clock reading, -1 none */
  xq__ply_clock *ply_clock;    /* ply_cap entries: after ply k (0-based) the mover's time left
                                  as known until the next ply (the clock reading sent with or
                                  after the move, else the game's clock with its increment), and
                                  the time the move took when readings before and after it tell;
                                  derived from the events, so a replay remakes it */
  int ply_cap;
  int clock_seen;              /* a clock reading or tick came: the game's clocks tell time */
  long read_ms[2];             /* each side's stopped clock as last read, -1 none since its move */
  long turn_ms;                /* the last ply's mover's time as read when its turn began, -1 none */
  int64_t clock_at;            /* wall clock (µs since 1970) of the last reading, 0 unknown (a
                                  game replayed at start): the side to move's clock runs since */
  char *verdict;               /* the JSON of the last ruling that was not a plain acceptance
                                  (games.json keeps it across reloads), NULL none */
  char *rulings;               /* every ruling of the game (xq__live_note_verdict) as an array's
                                  text "[{...},{...}]", at most XQ_GAME_RULINGS_MAX; NULL none */
  int nrulings;
  int seen;                    /* the arbiters marked the first `seen` rulings seen (the seen op,
                                  kept in the store) */
  struct {
    int64_t seq;
    char *reply;               /* stored reply body "{...}" */
  } cache[XQ_REPLY_CACHE];     /* the last board replies, by seq % size */
} xq__live;

/* The game of board `board` in round `round`, or NULL when not paired. */
xq__live *xq__live_get(xq__server *s, int round, int board);
/* Add the games of a newly published round (pairings from the store). */
int xq__live_add_round(xq__server *s, int round, xq_error *err);
/* The first table of round `round` whose game has begun in the server's
 * live state -- a move, a clock reading, a board event judged or on its
 * way to the store, a result -- or 0 when none has (the round may be
 * withdrawn, xq_tstore_unpublish). */
int xq__live_round_begun(const xq__server *s, int round);
/* Take down the games of round `round`, whose pairing was withdrawn (none
 * begun: xq__live_round_begun): no board of it is found any more, and its
 * answers are made again. */
void xq__live_drop_round(xq__server *s, int round);
/* The game's clocks as the state and every event say them, in ms: the
 * adjudicator's (increments and penalties applied) once it has a
 * reading, else the board's last reading; -1 none. */
void xq__live_clock(const xq__live *lv, long out[2]);
/* Keep `v` as the game's last ruling when it is not a plain acceptance
 * (a foul, a claim, an arbiter's decision, a must-change order...), for
 * the games' state, and add it to the game's rulings (a move refused
 * while play waits for the arbiter is not one); `json` is its xq_verdict_json text when the caller
 * has it (copied), NULL to make it here. On the loop only. Out of memory
 * keeps the one before. */
void xq__live_note_verdict(xq__live *lv, const xq_verdict *v, const char *json);
/* Note the reply to board seq `seq` (copied), now durable, for resends
 * (and last_seq grows, when it was not judged here: a replayed row). */
void xq__live_remember(xq__live *lv, int64_t seq, const char *reply);
/* The view of the game as it stands in memory now (malloc'd; the judged
 * state: it becomes what answers show once the row queued for it is
 * durable), or NULL when out of memory. */
xq__view *xq__live_view_take(const xq__live *lv);
/* Put `v` (taken by xq__live_view_take, now durable) in place as what
 * answers show of `lv`; the old one is freed. */
void xq__live_view_set(xq__server *s, xq__live *lv, xq__view *v);
/* Drop a reference to a view (freed with its last). NULL is a no-op. */
void xq__live_view_free(xq__view *v);
/* Something answers show of round `round` changed (a view, a result in
 * the tournament log, a name): its cached answers are made again when
 * next asked. Round 0: every round. */
void xq__live_changed(xq__server *s, int round);
/* "1-0", "0-1", "1/2-1/2" or "*" for a view's result. */
const char *xq__live_view_result(const xq__view *v);
/* When the game has a final result not yet in the tournament log, record
 * it there once the game's rows are durable, and broadcast "result". */
void xq__live_settle(xq__server *s, xq__live *lv);
/* Put the game's fouls (犯规) that the tournament log does not hold yet
 * into it, for the FOULS tie-break; called with the result, with the store
 * idle. */
void xq__live_record_fouls(xq__server *s, xq__live *lv);
/* Set the result `code` of the game in the server's event (s->ev), as the
 * tournament log now records it: the event stays in step with the log
 * without a reload. */
void xq__live_note_result(xq__server *s, const xq__live *lv, const char *code);
/* The knockout tables (round XQ_KO_ROUND): reload the stage from the
 * store into s->ko and start a game for every table published since (its
 * rules from xq__live_ko_rules). XQ_OK, or a store or memory status. */
int xq__live_add_ko(xq__server *s, xq_error *err);
/* The rules of a knockout game of `type` in match `match` of `ko`:
 * `base` with the clock of xq_ko_clock (Black's own base time in an
 * armageddon; a final's own time control) and the armageddon flag (a
 * draw is a Black win). */
void xq__live_ko_rules(const xq_rules *base, const xq_ko *ko, int match, int type, xq_rules *out);
/* A row of game `lv` failed to commit: the game is marked, and every
 * game so marked is rebuilt from the store's log once the completions of
 * the failed batch have run (before anything else is read or judged). */
void xq__live_failed(xq__server *s, xq__live *lv);
/* Copy `from`'s ply clocks into `to` (a copy of the same game judged off
 * the loop), so the copy's changes leave `from`'s alone. XQ_OK or
 * XQ_ENOMEM (to->ply_clock NULL: no clocks known). */
int xq__live_ply_clock_dup(xq__live *to, const xq__live *from);
/* Rebuild a game from the store's log (events taken back). */
int xq__live_rebuild(xq__server *s, xq__live *lv, xq_error *err);
/* Rebuild every game marked with lv->rebuild in one pass over the log. */
int xq__live_rebuild_marked(xq__server *s, xq_error *err);
/* "1-0", "0-1", "1/2-1/2" or "*" for the game's result. */
const char *xq__live_result(const xq__live *lv);
/* Apply events ev[0..n) (one request's or one log row's) to the game, in
 * memory (as xq_game_apply does, one at a time), and keep the last clock
 * reading and the clock after each ply (ply_clock). Returns XQ_OK
 * with *v the verdict that matters, or an engine status with `err`. */
int xq__live_apply(xq__live *lv, const xq_event *ev, int n, xq_verdict *v, xq_error *err);

/* Live games (live.c): load every published round and replay the game log
 * at start; free them at the end. */
int xq__live_load(xq__server *s, xq_error *err);
/* At start, once the commit and the hub run: put into the tournament log
 * the result of every replayed game that is over but has none there (the
 * server was killed after the game's last row was durable and before its
 * result was written: bench/crash-ops.sh), and the fouls of every game
 * with a result there that the log does not hold yet (written after the
 * result: a kill between the two, or a result entered while the server
 * was down). */
void xq__live_settle_all(xq__server *s);
void xq__live_free(xq__server *s);

/* ------------------------------------------------------------------ */
/* Views of live games (live_json.c, live_pgn.c)                       */
/* ------------------------------------------------------------------ */

/* Game state as JSON (live_json.c), as answers show it (the view: what
 * the store holds): one game {"round","table","red","black","fen","moves",
 * ...} as a new cJSON object (NULL when out of memory or before its first
 * view). */
cJSON *xq__live_json_game(xq__server *s, const xq__live *lv);
/* The same for view `v` of game `lv` (one not yet in place: the data of
 * a "game" broadcast, published once it is durable). */
cJSON *xq__live_json_view(xq__server *s, const xq__live *lv, const xq__view *v);
/* Every game of round `round` as {"round":R,"games":[...]} and a newline
 * (games.json, and the data of a snapshot), *len bytes, with its entity
 * tag in *tag (may be NULL): made once for each change of the round
 * (xq__live_changed) and kept, owned here, valid until the next change on
 * the loop. NULL when the round is not published or out of memory. */
const char *xq__live_json_round(xq__server *s, int round, size_t *len, const char **tag);
/* Free the kept answers (after the loop ran dry). */
void xq__live_json_free(xq__server *s);
/* The result as the tournament knows it: "1-0", "0-1", "1/2-1/2", "*",
 * or a forfeit recorded by an arbiter: "+-", "-+", "--". */
const char *xq__live_json_result(const xq__server *s, const xq__live *lv);

/* The data of a "move" broadcast (live_json.c) for move `m`, just made
 * from `before` in game `lv`: the move in ICCS, WXF and Chinese (as
 * printed in the position before it), the ply, the position after, the
 * clocks, the result, "source" when not NULL (an ingested move: "pgn"),
 * and the ruling's JSON `ruling` when the move was more than accepted
 * (mate, a cycle). Malloc'd text, NULL when out of memory. */
char *xq__live_json_move(const xq__live *lv, const xq_pos *before, xq_move m, const char *ruling,
                         const char *source);

/* XQ-PGN of live games (live_pgn.c): one game, or every game of a round in
 * board order, with moves in `notation`, as malloc'd text (*len bytes);
 * NULL when out of memory or not published. Tags from the pairing (Event,
 * Round "R.T", Table, Red, Black, RedElo, BlackElo, Result, FEN when not
 * the standard start). */
char *xq__live_pgn_game(xq__server *s, const xq__live *lv, xq_notation notation, size_t *len);
char *xq__live_pgn_round(xq__server *s, int round, xq_notation notation, size_t *len);

#endif /* XQ_NET_LIVE_H */
