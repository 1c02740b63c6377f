/*
 * knockout.h -- the knockout stage of docs/tourney.md, "Knockout stage": qualification after
 * a Swiss round, the bracket (fixed 1–8, 2–7, 3–6, 4–5 or the Tangshan
 * top-seed choice), the tie-break games after a drawn standard game, and
 * the final places that merge the knockout with the Swiss standings;
 * and the knockout-only event (docs/village-king.md: Shaanxi's 乡村棋王
 * sub-event), whose entrants draw their bracket positions by lot, with
 * byes where they are not a power of two and one half of the bracket per
 * pool (township).
 *
 * Matches are numbered 1..nmatches: stage 1 first, match j of a stage
 * holding the nominal seeds j and 2k+1-j (k matches in the stage); the
 * Tangshan third-place match, when there is one, is the last number. In a
 * drawn bracket (XQ_KO_LOT) stage-1 match j holds bracket positions 2j-1
 * and 2j, and match j of a later stage the winners of matches 2j-1 and 2j
 * of the stage before.
 *
 * The stage's log in the store (xq_tstore_ko_start, _game, _publish,
 * _result, _load) is declared with the rest of the store in
 * store/store.h.
 */
#ifndef XQ_KNOCKOUT_H
#define XQ_KNOCKOUT_H

#include "tourney.h"

#define XQ_KO_SIZE_MAX 128         /* bracket positions (players, and byes in a drawn bracket) */
#define XQ_KO_MATCHES_MAX 128      /* size - 1 matches, plus a third-place one */
#define XQ_KO_POOLS_MAX 2          /* pools of a drawn bracket, one half each (Shaanxi: townships) */

/* xq_ko.after of a knockout-only event: no Swiss before it (0 = no stage). */
#define XQ_KO_NO_SWISS (-1)
#define XQ_KO_MATCH_GAMES_MAX 12   /* games one match may take (repeated short games) */
#define XQ_KO_GAMES_MAX (XQ_KO_MATCHES_MAX * XQ_KO_MATCH_GAMES_MAX)
#define XQ_KO_TABLES_MAX XQ_KO_GAMES_MAX /* knockout games published to the live server */
#define XQ_KO_EVENT_PLACES_MAX 16  /* paid places of one pool of a knockout-only sub-event */

/* The round number of the knockout games on the live server: in its game
 * log, board tokens, broadcasts and requests, knockout table k is table k
 * of this round. Above every Swiss round, so the two never meet. */
#define XQ_KO_ROUND (XQ_TOURNEY_ROUNDS_MAX + 1)

typedef enum {
  XQ_KO_FIXED = 0,        /* 1–8, 2–7, 3–6, 4–5, then winners */
  XQ_KO_TOP_CHOOSES,      /* Tangshan: #1 picks #3 or #4, #2 meets the other;
                             final and third-place match */
  XQ_KO_LOT               /* knockout-only event: positions drawn by lot, byes
                             (Shaanxi 十(二)2 乡村棋王赛淘汰制) */
} xq_ko_seeding;

/* The regulation's sequence of games after a drawn standard game
 * (docs/presets.md, "KO game / tie-breaks"). */
typedef enum {
  XQ_KO_FMT_RAPID_ARMAGEDDON = 0, /* Xinjiang, Shaanxi: swapped rapid, then armageddon */
  XQ_KO_FMT_ARMAGEDDON,           /* Tangshan: armageddon at once */
  XQ_KO_FMT_RAPID_BLITZ,          /* Wujiaqu: swapped 10+3, then 5+3 games until decided */
  XQ_KO_FMT_VILLAGE               /* Shaanxi village king: games 20 min then 5 min sudden death;
                                     the final 20+10; swapped 10+5, then armageddon R6+3/B4+3 */
} xq_ko_format;

typedef enum {
  XQ_KG_STANDARD = 0, XQ_KG_RAPID, XQ_KG_BLITZ, XQ_KG_ARMAGEDDON
} xq_ko_gtype;

typedef struct xq_ko_game {
  int match;   /* 1..nmatches */
  int type;    /* xq_ko_gtype */
  int red, black;
  int res;     /* 1 Red won, -1 Black won, 0 draw */
  int table;   /* the knockout table it was played at, 0 none (entered by hand) */
} xq_ko_game;

/* A knockout game published to a table of the live server (XQ_KO_ROUND):
 * the game xq_ko_next_game gave, played by boards like a Swiss game. */
typedef struct xq_ko_table {
  int match, type, red, black;
  int done;    /* its result is in the stage's games */
} xq_ko_table;

typedef struct xq_ko {
  int after;                     /* Swiss round of the cut, 0 = no knockout,
                                    XQ_KO_NO_SWISS = a knockout-only event */
  int size;                      /* 2, 4, 8, ... XQ_KO_SIZE_MAX (2..16 after a Swiss) */
  int seeding;                   /* xq_ko_seeding */
  int format;                    /* xq_ko_format */
  int choice;                    /* XQ_KO_TOP_CHOOSES: seed #1 meets seed 3 or 4 */
  int pools;                     /* XQ_KO_LOT: 1, or 2 (a half each); else 0 */
  int seeds[XQ_KO_SIZE_MAX];     /* player ids, seeds[0] = seed 1; XQ_KO_LOT: the
                                    player at bracket position i+1, 0 = a bye */
  int ngames;
  xq_ko_game games[XQ_KO_GAMES_MAX];
  int ntables;                   /* knockout tables published: 1..ntables */
  xq_ko_table tables[XQ_KO_TABLES_MAX];
} xq_ko;

/* Parse "fixed" / "choose" / "lot" into *seeding, and "xinjiang",
 * "tangshan", "wujiaqu", "shaanxi" (or "rapid-armageddon", "armageddon",
 * "rapid-blitz", "village") into *format. Return XQ_OK or XQ_EINVAL. */
int xq_ko_parse_seeding(const char *s, int *seeding);
int xq_ko_parse_format(const char *s, int *format);

/* Names for printing ("fixed", "rapid-armageddon", "standard", ...) and
 * the time control of a game type under a format (docs/presets.md),
 * e.g. "20+5" or "R6+3/B4+3", for any match but a final whose format
 * gives it a clock of its own (xq_ko_game_time_control). Never NULL. */
const char *xq_ko_seeding_name(int seeding);
const char *xq_ko_format_name(int format);
const char *xq_ko_gtype_name(int type);
const char *xq_ko_time_control(int format, int type);

/* The time control of a game of `type` in match m of `ko`: the final's
 * own under XQ_KO_FMT_VILLAGE (十(二)2 总决赛 20分+10秒), else
 * xq_ko_time_control(ko->format, type). "20m+5m SD" is 20 minutes, then
 * 5 minutes of sudden death. Never NULL. */
const char *xq_ko_game_time_control(const xq_ko *ko, int m, int type);

/* The clock of that game in seconds: each side's base time (*base_black_s
 * Black's when it differs, else 0) and the increment per move. Sudden
 * death after a first period is the sum of the two periods without an
 * increment (the rules' clock has one period). Returns XQ_OK, or
 * XQ_EINVAL for a NULL argument. */
int xq_ko_clock(const xq_ko *ko, int m, int type, int *base_s, int *base_black_s, int *inc_s);

/* The same for a time control string of xq_ko_game_time_control ("20+5",
 * "20m+5m SD", "R6+3/B4+3"), as a client reads it from the server.
 * Returns XQ_OK, or XQ_EINVAL for NULL or another string (outputs 0). */
int xq_ko_tc_clock(const char *tc, int *base_s, int *base_black_s, int *inc_s);

/* Set up the stage in *ko (cleared first): the top `size` of `st` (the
 * Swiss standings after round `after`, n rows in rank order) become
 * seeds 1..size. `choice` is the opponent seed #1 picks (3 or 4) with
 * XQ_KO_TOP_CHOOSES, else ignored. Returns XQ_OK, or XQ_EINVAL for a
 * size other than 2/4/8/16, fewer than `size` players, a choice seeding
 * with a size other than 4, or a choice other than 3/4. */
int xq_ko_setup(xq_ko *ko, const xq_tstanding *st, int n, int after, int size,
                int seeding, int format, int choice);

/* Set up a knockout-only event in *ko (cleared first; after =
 * XQ_KO_NO_SWISS, seeding XQ_KO_LOT): the n entrants ids[0..n-1], in
 * pools pool[i] (0..npools-1; NULL = all in pool 0), draw their bracket
 * positions by lot from `lot` (the same lot, the same bracket). With one
 * pool the bracket is the smallest power of two that holds them; with
 * two, each pool has a half the size of the larger pool's power of two,
 * and the halves' winners meet in the final. Byes fill the positions
 * left: in every half of every sub-bracket the entrants are split as
 * evenly as they go (the odd one by lot), so a first-stage match has two
 * byes only when a pool has fewer entrants than half its half. Returns
 * XQ_OK; XQ_EINVAL for fewer than 2 entrants, npools other than 1..
 * XQ_KO_POOLS_MAX, an empty pool, a pool number out of range, an id < 1
 * or twice, or a bad format; XQ_ELIMIT for more entrants than the bracket
 * holds (XQ_KO_SIZE_MAX, XQ_KO_SIZE_MAX / 2 a pool with two pools). */
int xq_ko_setup_lot(xq_ko *ko, const int *ids, const int *pool, int n, int npools, uint64_t lot,
                    int format);

/* Entrants of the bracket: its positions without the byes (size but for
 * a drawn bracket). */
int xq_ko_entrants(const xq_ko *ko);

/* The pool (0..) of player `id` in a drawn bracket of two pools (the half
 * of the bracket it was drawn into); 0 with one pool or another seeding;
 * -1 when `id` is not in the bracket. */
int xq_ko_pool_of(const xq_ko *ko, int id);

/* Number of matches of the bracket (size - 1, plus one third-place
 * match with XQ_KO_TOP_CHOOSES; in a drawn bracket the bye matches
 * count, xq_ko_match_players tells them). */
int xq_ko_nmatches(const xq_ko *ko);

/* Stage of match m (1 = first knockout round; the third-place match
 * has the final's stage). */
int xq_ko_stage(const xq_ko *ko, int m);

/* The two players of match m: *a the higher seed, *b the other (ids).
 * Returns 1 when both are known, 0 when an earlier match is still
 * undecided (unknown sides 0), -1 for a bad m; in a drawn bracket 2 for
 * a match with a bye: *a the player it passes on (0 when both sides are
 * byes), *b 0. */
int xq_ko_match_players(const xq_ko *ko, int m, int *a, int *b);

/* Where the players of match m come from: 1 with *a and *b the matches
 * whose winners meet in it (*a the one that holds the higher nominal
 * seed), 2 with *a and *b the matches whose losers meet in it (the
 * third-place match of XQ_KO_TOP_CHOOSES: the semi-finals), 0 for a
 * first-stage match (its players are seeded or drawn), -1 for a bad m.
 * The page names a match not yet decided by it ("半决赛第1场胜者"). */
int xq_ko_match_feeders(const xq_ko *ko, int m, int *a, int *b);

/* Winner of match m (player id), 0 while undecided. A decisive game
 * decides; a drawn armageddon is a Black win (docs/presets.md: 和棋黑胜);
 * any other draw leads to the next game of the format. A bye match's
 * winner is its player (0 when both sides are byes). */
int xq_ko_winner(const xq_ko *ko, int m);

/* True when match m needs no more games: it has a winner, or it is a bye
 * match whose sides are known. */
int xq_ko_decided(const xq_ko *ko, int m);

/* The next game of match m: its type and colours. `red` is the Red
 * player wanted (0 = default): the standard game and the armageddon
 * take it (drawn by lot or chosen by the higher seed), default the
 * higher seed Red; the rapid game is colour-swapped from the standard
 * game and refuses a contradicting `red`; repeated short games swap
 * colours unless `red` says otherwise. Fills *g (res 0). Returns XQ_OK;
 * XQ_EINVAL when the match is decided, its players are not known yet,
 * `red` is not one of them or contradicts the swap; XQ_ELIMIT past
 * XQ_KO_MATCH_GAMES_MAX games. */
int xq_ko_next_game(const xq_ko *ko, int m, int red, xq_ko_game *g);

/* Are game g's colours drawn at the table, so that no Red is a default
 * and the arbiter must name the player who drew it? 1 for the armageddon
 * (every regulation: 抽签决定先后手 or the better place's choice, and a
 * draw is Black's win); for Wujiaqu's first knockout stage's standard
 * game (九(一) 淘汰赛第一轮…先后手抽签决定); for the village king's final
 * (Shaanxi 十(二)2 总决赛抽签定先). 0 otherwise (the higher seed is Red
 * where the text is silent). */
int xq_ko_red_drawn(const xq_ko *ko, const xq_ko_game *g);

/* Append a played game (from xq_ko_next_game with res set). A game with
 * g->table set is the result of that knockout table, which must be the
 * match's game in play; one without may not be added while the match has
 * a game in play (its result comes from the table). Returns XQ_OK,
 * XQ_EINVAL (not the expected next game, or the table's) or XQ_ELIMIT. */
int xq_ko_add_game(xq_ko *ko, const xq_ko_game *g);

/* The knockout table where match m's game is in play (published, no
 * result yet), or 0. */
int xq_ko_in_play(const xq_ko *ko, int m);

/* Publish `g` (from xq_ko_next_game, res ignored) at the next knockout
 * table. Returns the table number (1..), or XQ_EINVAL when the match has
 * a game in play or `g` is not its next game, XQ_ELIMIT past
 * XQ_KO_TABLES_MAX tables. */
int xq_ko_publish(xq_ko *ko, const xq_ko_game *g);

/* Record the result of knockout table `table` (res 1 Red won, -1 Black
 * won, 0 draw): the table's game joins the stage's games. Returns XQ_OK,
 * or XQ_EINVAL for an unknown table, one already decided or a bad res. */
int xq_ko_table_result(xq_ko *ko, int table, int res);

/* The result code of the store ("1-0", "0-1", "=", "+-", "-+") as a
 * knockout result (1, -1, 0): XQ_OK, or XQ_EINVAL for any other code (a
 * knockout game has no double forfeit: the arbiter decides it). */
int xq_ko_result_code(const char *code, int *res);

/* Knockout places 1..E into ids[0..E-1], E = xq_ko_entrants(ko) (room
 * for XQ_KO_SIZE_MAX does) (docs/tourney.md, "Knockout stage"): the final's winner and
 * loser; the third-place match decides 3 and 4 when played; the other
 * losers by the stage they lost in, then by seed (their Swiss rank at the
 * cut). Players still in play are placed by the stage they reached and
 * their seed. A drawn bracket has no seeds: the losers of one stage are
 * ordered by the place of the player who beat them (the loser to the
 * champion first; docs/village-king.md), players still in play by
 * bracket position. Returns 1 when every match is decided (places
 * final), 0 when provisional, -1 on bad input. */
int xq_ko_places(const xq_ko *ko, int *ids);

/* The places of pool `pool` alone into ids[] (room for XQ_KO_SIZE_MAX):
 * the knockout places of its members, in their order (a township's
 * places: its winner, who reached the final, first). Returns the count,
 * or -1 on bad input (no drawn bracket, pool out of range). */
int xq_ko_pool_places(const xq_ko *ko, int pool, int *ids);

/* Final places of the whole event into ids[0..ev->n-1]: the knockout
 * places when `ko` has a stage (ko->after != 0), then every other player
 * in the order of the Swiss standings after all recorded rounds
 * (docs/tourney.md, "Standings and tie-breaks", "Knockout stage"). Returns XQ_OK, XQ_EINVAL or XQ_ENOMEM. */
int xq_final_places(const xq_tournament *ev, const xq_ko *ko, int *ids);

/* ------------------------------------------------------------------ */
/* A stage set up from its event (knockout_start.c)                    */
/* ------------------------------------------------------------------ */

/* How the stage of an event is set up. */
typedef struct xq_ko_opts {
  int seeding;         /* xq_ko_seeding: fixed or choose after a Swiss round, lot without one */
  int format;          /* xq_ko_format */
  int after;           /* fixed, choose: the Swiss round of the cut */
  int size;            /* fixed, choose: players entering (2, 4, 8 or 16) */
  int choice;          /* choose: the opponent seed #1 picks (3 or 4) */
  const char *pools;   /* lot: "region", "club" or "team", the player field whose
                          values make the halves; NULL = one pool */
  int lot_given;       /* lot: draw with `lot`, not the event's lot_seed */
  uint64_t lot;
} xq_ko_opts;

/* Set up the knockout stage of `ev` in *ko as `o` says, ready for
 * xq_tstore_ko_start: with seeding fixed or choose, the top o->size of
 * the standings after round o->after (which must be complete), ranked
 * with the full tie-break order (docs/tourney.md, "Knockout stage"; xq_ko_setup), leaving
 * out every player withdrawn by then (a withdrawal recorded for any
 * round, or the missed rounds that withdraw him): the next in the
 * standings takes his place; with seeding lot, a knockout-only event, every registered player (2 to
 * XQ_KO_SIZE_MAX, no Swiss round paired) drawn into the bracket by lot
 * (xq_ko_setup_lot), each value of the o->pools field a half; a round
 * robin in groups (cfg.rr_groups) seeded fixed: the first o->size / G of
 * each group's standings after round o->after, crossed (A1–B2 | B1–A2,
 * C1–D2 | D1–C2, ...; with two groups of four A1–B4, B2–A3 | B1–A4,
 * A2–B3), sizes 4, 8 or 16. Returns
 * XQ_OK; XQ_EINVAL with `err` (may be NULL) saying what does not make a
 * bracket (the round, the size, the players, the pools); XQ_ENOMEM. */
int xq_ko_setup_event(const xq_tournament *ev, const xq_ko_opts *o, xq_ko *ko, xq_error *err);

/* Whether Swiss round `round` decided the knockout `ko`: a stage seeded
 * after a Swiss round (ko->after >= 1) and round 1..ko->after. A result
 * of such a round changed after the seeding may make the bracket stop
 * matching the standings: the command line and the server refuse it
 * unless confirmed. 1 or 0. */
int xq_ko_decided_by(const xq_ko *ko, int round);

/* The seeding the stage `ko` (seeded after a Swiss round) would have if
 * it were seeded now from `ev`: xq_ko_setup_event with the stage's own
 * round, size, seeding, format and choice, into *now (its games none).
 * Compare now->seeds with ko->seeds to see what a changed result changed.
 * Returns XQ_OK; XQ_EINVAL with `err` (no Swiss cut; what
 * xq_ko_setup_event refuses); XQ_ENOMEM. */
int xq_ko_reseed(const xq_tournament *ev, const xq_ko *ko, xq_ko *now, xq_error *err);

/* ------------------------------------------------------------------ */
/* Plain listings (tourney/sheet/listing_final.c)                      */
/* ------------------------------------------------------------------ */

/* The bracket as `xqref tourney bracket` prints it: the stage's heading,
 * then per match its stage, players (name and number, the 序号 once
 * numbers are given) with their seeds (bracket positions in a drawn
 * bracket) or its bye, its games, and its winner, the game in play at a
 * knockout table or the next game. Returns XQ_OK, XQ_EINVAL
 * (a NULL argument) or XQ_EIO (write error). */
int xq_list_bracket(const xq_tournament *ev, const xq_ko *ko, FILE *f);

/* A game just added to `ko` (xq_ko_add_game) as `xqref tourney ko-result`
 * reports it: match, type, colours and its result `code` as entered,
 * then the match's winner or its next game. Returns as xq_list_bracket. */
int xq_list_ko_game(const xq_tournament *ev, const xq_ko *ko, const xq_ko_game *g, const char *code, FILE *f);

/* ------------------------------------------------------------------ */
/* A regulation's knockout-only sub-event (regulation_data.c)          */
/* ------------------------------------------------------------------ */

typedef struct xq_ko_event {
  const char *key;            /* the word that names it ("village": simulate --group) */
  const char *name;           /* "乡村棋王 village king" */
  const char *format;         /* xq_ko_parse_format name of its games ("shaanxi") */
  int pools;                  /* 1, or 2: a knockout per pool, then their winners' final */
  const char *pool_names[XQ_KO_POOLS_MAX];
  int entrants_default;       /* a realistic field for a simulation */
  int nplaces;                /* paid places of each pool */
  int amount[XQ_KO_EVENT_PLACES_MAX]; /* amount of a pool's place i+1 */
  int final_bonus;            /* to the winner of the pools' final (the king), 0 none */
  const char *entry_clause, *format_clause, *prize_clause, *bonus_clause;
} xq_ko_event;

/* The knockout-only sub-event of regulation `r` whose key or name
 * contains `name` (NULL or "": the first). On success *out points at
 * static data and XQ_OK is returned; XQ_EINVAL when `r` has none such. */
int xq_regulation_ko_event(const xq_regulation *r, const char *name, const xq_ko_event **out);

/* Print the knockout-only sub-event of `r`, if it has one, to `f`: its
 * values with their clauses, as `xqref presets show` lists a preset
 * (tourney/sheet/presets.c). Returns XQ_OK (nothing printed when there is
 * none), XQ_ENOMEM or XQ_EIO. */
int xq_ko_event_print(const xq_regulation *r, FILE *f);

#endif /* XQ_KNOCKOUT_H */
