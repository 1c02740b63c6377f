/*
 * game_internal.h -- internals shared by the game files (game.c,
 * natural.c, clock.c, verdict.c, snapshot.c, apply.c). Not for use
 * outside adjudicator/.
 */
#ifndef XQ_ADJUDICATOR_GAME_INTERNAL_H
#define XQ_ADJUDICATOR_GAME_INTERNAL_H

#include "adjudicator.h"

/* Side names for explanations. */
extern const char *const xq__side_zh[2];
extern const char *const xq__side_en[2];

/* Start verdict *v for `event` on the current state of `g`: accepted,
 * nothing changed, no side, no reason. */
void xq__verdict_begin(const xq_game *g, xq_verdict *v, const char *event);

/* Write the explanation lines of *v: `zh` and `en` are printf formats
 * that consume the same arguments in the same order. */
void xq__verdict_explain(xq_verdict *v, const char *zh, const char *en, ...)
  __attribute__((format(printf, 3, 4)));

/* Square name ("e1") into buf[3]. */
void xq__verdict_sq_name(int sq, char buf[3]);

/* Square `sq` named the Chinese way from `side`'s seat into buf: its
 * file (Red: 一..九 from Red's right; Black: １..９ from Black's right)
 * and its rank counted from that side's back line, "九路第1横线"; for
 * the Chinese sentences (no ICCS in them). */
#define XQ__SQ_ZH_MAX 32
void xq__verdict_sq_zh(int sq, int side, char buf[XQ__SQ_ZH_MAX]);

/* The piece on `sq` of colour `side` and kind `kind` named the Chinese
 * way, as a move's text begins: "车九", "马２". */
void xq__verdict_piece_zh(int sq, int side, int kind, char buf[XQ__SQ_ZH_MAX]);

/* Move in ICCS ("h2e2") into buf[5]. */
void xq__verdict_move_name(xq_move m, char buf[5]);

/* Legal move `m` of `pos` in Chinese notation ("炮二平五") into buf, for
 * the Chinese sentences of the verdicts; in ICCS should the engine not
 * print it. Cannot fail. */
void xq__verdict_move_zh(const xq_pos *pos, xq_move m, char buf[XQ_MOVE_TEXT_MAX]);

/* End the game: result `result` with `reason` under `rule`; `kind` and
 * `side` (the loser, or -1) go into *v. An armageddon draw becomes a
 * Black win (XQ_REASON_ARMAGEDDON_DRAW). Does not write the explanation. */
void xq__verdict_end(xq_game *g, xq_verdict *v, xq_verdict_kind kind, xq_outcome result,
                     xq_reason reason, int side, const char *rule);

/* Pause play for the arbiter: the game's result becomes NEEDS_ARBITER
 * with `reason` under `rule`, and *v a NEEDS_ARBITER verdict. Does not
 * write the explanation. */
void xq__verdict_pause(xq_game *g, xq_verdict *v, xq_reason reason, const char *rule);

/* Record `n` fouls against `side` for `reason` under `rule`: a FOUL
 * verdict, or a loss when the fouls reach P11. Explains the verdict with
 * `what_zh`/`what_en` (what the foul was) in front. */
void xq__verdict_foul(xq_game *g, xq_verdict *v, int side, int n, xq_reason reason,
                      const char *rule, const char *what_zh, const char *what_en);

/* Plies without a capture so far (R9's W). */
int xq__game_window_plies(const xq_game *g);

/* Natural limit with P7 = AUTO after a move: 1 when the game is drawn. */
int xq__natural_auto_reached(const xq_game *g);

/* Attacking pieces (进攻子力: 车 马 炮 兵) of `side` (natural.c). */
int xq__natural_attackers(const xq_pos *p, int side);

/* Clocks: start them at the base times, add the increment after a move. */
void xq__clock_init(xq_game *g);
void xq__clock_after_move(xq_game *g, int mover);

/* Play move `m` (any 16-bit value with squares on the board) through the
 * full pipeline of xq_game_move; *v already begun. */
int xq__game_play(xq_game *g, xq_move m, unsigned flags, xq_verdict *v);

/* Read move `text` on the current position (xq_move_parse_any) ahead of
 * its turn, and keep the move in g->read_ahead when it is legal, for
 * xq_game_move_text. Returns as xq_move_parse_any (no error text). */
int xq__game_read_ahead(xq_game *g, const char *text, xq_move *m);

/* Refuse an event because the game is over or paused: fills *v and
 * returns 1; returns 0 while play goes on. */
int xq__verdict_refuse_if_over(const xq_game *g, xq_verdict *v);

#endif /* XQ_ADJUDICATOR_GAME_INTERNAL_H */
