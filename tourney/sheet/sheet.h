/*
 * sheet/sheet.h -- the sheet room of the tourney module: the printed
 * sheets of an event (standings, pairings, board slips, score sheets) as
 * CSV, printable HTML, aligned text and XLSX, and the plain listings of
 * `xqref tourney`. The sheets of the final places, teams and prizes are
 * declared with their data in prize.h, the bracket's listings in
 * knockout.h; the files of tourney/sheet/ share sheet_internal.h.
 */
#ifndef XQ_TOURNEY_SHEET_H
#define XQ_TOURNEY_SHEET_H

#include <stdio.h>

#include "pair/pair.h"
#include "tourney.h"

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

#define XQ_SHEET_XLSX_MAX (32L << 20) /* bytes of one XLSX workbook read back */
#define XQ_SLIP_CONNECT_MAX 255       /* the boards' server address on a slip, "HOST:PORT" */

/* True when `a` can stand on a slip as the boards' "HOST:PORT": a colon,
 * at most XQ_SLIP_CONNECT_MAX bytes, none of " /?#&\"<>" (it goes into
 * the slip's link). */
int xq_slip_connect_ok(const char *a);
#define XQ_SLIP_LINK_MAX 512          /* the connection details a slip's QR code holds */
#define XQ_SCORESHEET_MOVES 60        /* numbered move lines of a score sheet (记分表) */

/* ------------------------------------------------------------------ */
/* Sheets: CSV, printable HTML, text and XLSX (sheet.c)                */
/* ------------------------------------------------------------------ */

/* XQ_SHEET_XLSX is an Office Open XML workbook (sheet/sheet_xlsx.c): one
 * worksheet, the event's name and the sheet's title in its first two
 * rows, bold headings repeated on every printed page, numbers (player
 * numbers, points, tie-break values) stored as numbers, A4. Every sheet
 * writer below takes it besides CSV, HTML and text; it fails with XQ_EIO
 * when the workbook cannot be made (no temporary file, a write error). */
enum { XQ_SHEET_TRF = 0, XQ_SHEET_CSV = 1, XQ_SHEET_HTML = 2, XQ_SHEET_TEXT = 3, XQ_SHEET_XLSX = 4 };
enum { XQ_LANG_EN = 0, XQ_LANG_ZH = 1 };

/* "trf", "csv", "html", "text", "xlsx" -> XQ_SHEET_*; anything else (or
 * NULL) -> -1. */
int xq_sheet_format_parse(const char *s);

/* "en", "zh" -> XQ_LANG_*; anything else (or NULL) -> -1. */
int xq_sheet_lang_parse(const char *s);

/* Write the standings after rounds 1..upto (0 or beyond the last round =
 * all recorded rounds) to `f`: XQ_SHEET_CSV gives a heading row and one
 * row per player in rank order (rank, pairing number, name, one column per
 * configured tie-break, W-D-L), RFC 4180 quoting, CRLF records, UTF-8;
 * XQ_SHEET_HTML a standalone HTML5 page (inline CSS, names escaped);
 * XQ_SHEET_TEXT aligned columns (widths in display columns, a CJK
 * character taking two; LF line ends). Headings are English or Chinese
 * by `lang`. Returns XQ_OK, XQ_EINVAL
 * (bad format or language), XQ_ENOMEM or XQ_EIO (write error); on
 * failure part of the output may have been written. */
int xq_sheet_standings(const xq_tournament *ev, int upto, int format, int lang, FILE *f);

/* The board slips of round pr->round (slips.c): an HTML page to print, a
 * slip per table with two players (the bye has none) holding the table,
 * both players by number and name, tokens[b] (the board token of table
 * b + 1, NULL: no slip) and a QR code of
 * "xqref://CONNECT/?round=R&table=T&token=TOKEN". XQ_OK, XQ_EINVAL,
 * XQ_ENOMEM (the QR encoder) or XQ_EIO. */
int xq_sheet_slips(const xq_tournament *ev, const xq_tpairing *pr, const char *const *tokens, const char *connect,
                   int lang, FILE *f);

/* Write the boards of `pr` (ids of `ev`) as a pairing sheet: board, Red's
 * number, name and points before the round, the result when recorded
 * (1-0, 0-1, =, +-, -+, --), Black's number, name and points; the bye
 * row says so in the result column; then a row for every player on no
 * board, without a board number: his number, name and points, and in the
 * result column why (absent and his bye, 请假; withdrawn, 退赛; in the
 * knockout; not paired). Formats and languages as xq_sheet_standings.
 * Returns XQ_OK, XQ_EINVAL (bad arguments or ids), XQ_ENOMEM or XQ_EIO. */
int xq_sheet_pairings(const xq_tournament *ev, const xq_tpairing *pr, int format, int lang, FILE *f);

/* The cross table (交叉表) of a round robin after rounds 1..upto (0 or
 * beyond the last recorded round = all; sheet/sheet_cross.c): a row per
 * entrant in number order with his number and name, a column per number
 * whose cell holds what he scored against that entrant (one mark per
 * game: points as scored, + and - for forfeits, × on the diagonal, an
 * annulled player's games in brackets), then his points and place from
 * xq_standings ("-" for an annulled player). Formats and languages as
 * xq_sheet_standings. Returns XQ_OK, XQ_EINVAL (bad arguments; numbers
 * not 1..n; more than XQ_RR_ENTRANTS_MAX entrants; a tie-break order
 * without PTS), XQ_ENOMEM or XQ_EIO. A Swiss event's cross table is its
 * rounds table (轮次成绩表: xq__sheet_rounds in sheet_internal.h): a row per
 * player in standings order, a column per round with the opponent's
 * number, the colour and the result. */
int xq_sheet_crosstable(const xq_tournament *ev, int upto, int format, int lang, FILE *f);

/* The score cards (成绩卡) after rounds 1..upto (0 or beyond the last:
 * all; sheet/sheet_rounds.c): of the player numbered `no`, or of every
 * player in number order when it is 0, each a table titled with his
 * number, name and 单位 and a row per round: the round, his colour, the
 * opponent's number, name and 单位, the result in words (胜, 和, 负, 胜
 * （对方弃权）, 负（弃权）; 轮空, 请假, 退赛 on no board) and his points
 * after it; the last card signed (xq__sheet_begin's XQ__SHEET_SIGN).
 * Formats and languages as xq_sheet_standings. Returns XQ_OK, XQ_EINVAL
 * (bad arguments, no player numbered `no`), XQ_ENOMEM or XQ_EIO. */
int xq_sheet_cards(const xq_tournament *ev, int no, int upto, int format, int lang, FILE *f);

/* Who plays where in round pr->round (棋手座位表; sheet/sheet_rounds.c):
 * every player in the order of his name -- Chinese names by pinyin, as
 * GB18030 orders the common characters; others by their bytes -- with
 * his number, 单位, table, colour and opponent (轮空 for the bye, the
 * reason for a player on no board, as the pairing sheet gives it).
 * Formats and languages as xq_sheet_pairings; same returns. */
int xq_sheet_where(const xq_tournament *ev, const xq_tpairing *pr, int format, int lang, FILE *f);

/* The sheets of a team competition (sheet_team.c; docs/tourney.md "Team
 * competitions"), their event's name, dates and players from `people`
 * (the store's event), in `format` (XQ_SHEET_CSV, HTML, TEXT, XLSX) and
 * `lang`: the team standings after rounds 1..upto (团体成绩: place, team,
 * matches, won, drawn, lost, 场分, 局分, the valued tie-breaks, each
 * board's 局分); the match sheets of `round` (团体对阵表: a table per
 * match, 局分 and 场分 under its title, a row per board with the first
 * team's colour, both players and the result, a row to sign); the board
 * prizes after rounds 1..upto (台次奖: a table per board, or board
 * `board` alone; 0 every board). Return XQ_OK, XQ_EINVAL (bad arguments,
 * a round without matches), XQ_ENOMEM, XQ_ELIMIT or XQ_EIO. */
struct xq_tm_event;
int xq_sheet_team_standings(const xq_tournament *people, const struct xq_tm_event *ev, int upto, int format, int lang,
                            FILE *f);
int xq_sheet_team_matches(const xq_tournament *people, const struct xq_tm_event *ev, int round, int format, int lang,
                          FILE *f);
int xq_sheet_team_boards(const xq_tournament *people, const struct xq_tm_event *ev, int board, int upto, int format,
                         int lang, FILE *f);
/* The team cross table (团体成绩表) after rounds 1..upto: a row and a
 * column per team in number order, each cell the row team's 局分:局分 of
 * each match against the column's (two in a double round robin; an
 * annulled team's in brackets), then 场分, 局分 and place. XQ_EINVAL also
 * for more teams than a sheet has columns (55) or teams not numbered. */
int xq_sheet_team_crosstable(const xq_tournament *people, const struct xq_tm_event *ev, int upto, int format, int lang,
                             FILE *f);

/* The score sheets (记分表) of round pr->round (sheet/scoresheet.c; the
 * knockout's tables when it is XQ_KO_ROUND, headed 淘汰赛). HTML:
 * a page to print, one sheet per table with two players (the bye has
 * none), each on its own A4 page: the event, round, table and a date
 * line, Red's and Black's number and name, XQ_SCORESHEET_MOVES numbered
 * lines for Red's and Black's move in two columns, the result boxes
 * (红胜 / 和 / 黑胜), the time each side used and the signatures of Red,
 * Black and the arbiter. CSV, text and XLSX: the result-collection sheet,
 * one row per such table (table, Red's number and name, Black's number
 * and name, then blank result and signature columns). Returns XQ_OK,
 * XQ_EINVAL (bad arguments or ids), XQ_ENOMEM or XQ_EIO. */
int xq_sheet_scoresheets(const xq_tournament *ev, const xq_tpairing *pr, int format, int lang, FILE *f);

struct xq_ko;
/* The score sheets of the knockout's tables (pr: XQ_KO_ROUND, as
 * xq_tstore_round_tables gives them; sheet/scoresheet.c), as
 * xq_sheet_scoresheets with each table's match and game named from `ko`:
 * its stage and number in the stage, the game's number in the match and
 * its type ("半决赛第1场 · 第2局 快棋", "final 1 · game 1, standard";
 * 三四名决赛 for Tangshan's third-place match) -- in the HTML sheet's
 * heading, and as a column (场次) of the collection sheet. Returns as
 * xq_sheet_scoresheets; XQ_EINVAL too for a pairing that is not the
 * knockout's or more tables than `ko` published. */
int xq_sheet_ko_scoresheets(const xq_tournament *ev, const struct xq_ko *ko, const xq_tpairing *pr, int format,
                            int lang, FILE *f);

/* ------------------------------------------------------------------ */
/* Listings (listing.c)                                                */
/* ------------------------------------------------------------------ */

struct xq_ttoken; /* store/store.h */
/* The plain listings of `xqref tourney` (sheet/listing.c), one line a
 * row, English, names padded by display width (a CJK character taking
 * two columns). Each returns XQ_OK, XQ_EINVAL (a NULL argument; for the
 * boards, ids outside the event; nothing written) or XQ_EIO (write
 * error).
 *
 * players: id, pairing number, name, rating, birth date, sex, team and
 * the local flag; "退赛 (withdrawn from round R)" after a withdrawn player
 * (or "退赛 (withdrawn: missed rounds)" by the rule). boards: "round R: N
 * boards", then board, Red's number, name and points before the round,
 * Black's (or "bye"); then "not on a board:" and a line for each player
 * on none, with why (xq_sheet_pairings' words); also XQ_ENOMEM.
 * standings: after rounds 1..upto (0 or beyond the last round = all
 * recorded rounds): rank, number, name, one column per tie-break, W-D-L,
 * the withdrawn player's 退赛 mark as in players, and where the drawing
 * of lots placed players (xq_tstanding.by_lot) the ranks it decided and
 * the lot's seed and method; also XQ_ENOMEM, with nothing written. token: "ROLE ROUND TABLE TOKEN" ('-' for a round or
 * table of 0; a token read back from the store has no text, the first
 * XQ_TOKEN_PREFIX_CHARS characters of its hash stand there), then its
 * label when `with_label` is set. */
int xq_list_players(const xq_tournament *ev, FILE *f);
int xq_list_boards(const xq_tournament *ev, const xq_tpairing *pr, FILE *f);
int xq_list_standings(const xq_tournament *ev, int upto, FILE *f);
int xq_list_token(const struct xq_ttoken *t, int with_label, FILE *f);

#endif /* XQ_TOURNEY_SHEET_H */
