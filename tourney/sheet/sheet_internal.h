/*
 * sheet_internal.h -- what the printed sheets of tourney/sheet/ share:
 * the cells (points and tie-break values as text), the table writer
 * (sheet_table.c) and the words of a knockout's stages (sheet_final.c).
 * xq__sheet_ prefix; not part of the public interface.
 */
#ifndef XQ_TOURNEY_SHEET_INTERNAL_H
#define XQ_TOURNEY_SHEET_INTERNAL_H

#include <stdio.h>

#include "sheet.h"
#include "tourney.h"

/* Points kept in half-units as text: "3", "2.5", "-0.5" (sheet.c). */
void xq__sheet_half_text(char *buf, size_t cap, int64_t half);

/* Text of one tie-break value `v` of code `tb` as the standings show it;
 * empty for ROUNDBACK, which has no value of its own (it compares the tied
 * players) (sheet.c). */
void xq__sheet_tb_text(char *buf, size_t cap, int tb, int64_t v);

/* A player's 单位 as the sheets print it: his club, else his team, else
 * "" (sheet.c). */
const char *xq__sheet_unit(const xq_tplayer *p);

/* Why player `id`, on no board of a published round, is not paired in
 * `round`, as the pairing sheets list him under the boards (sheet.c):
 * the text of an announced absence and its bye ("absent: ½-point bye",
 * 请假), a withdrawal (退赛), a knockout seed, else "not paired", in
 * `lang` (XQ_LANG_*). */
const char *xq__sheet_off_board(const xq_tournament *ev, int id, int round, int lang);

/* One table of a sheet (sheet_table.c), written as CSV (RFC 4180, CRLF),
 * a standalone HTML5 page (event name as <h1>, "title, sub" as <h2>,
 * cells escaped) or aligned text (the same two heading lines, a blank
 * line, the column headings, a rule, the rows; widths in display columns,
 * a CJK character taking two; control characters as spaces; LF ends).
 * cls[c] aligns column c: "n" right (numbers), "c" centred, NULL left; it
 * is also the HTML cell class. CSV and HTML rows are written as they
 * come; text rows are kept until xq__sheet_end, which writes them and
 * frees the copies. begin returns XQ_OK or XQ_EINVAL (bad format,
 * language, column count); row returns XQ_OK, XQ_ENOMEM or XQ_ELIMIT
 * (XQ__SHEET_ROWS_MAX); end returns the first error met, or XQ_EIO when
 * the stream failed, and must be called after a successful begin.
 * Several tables make one sheet with `flags`: XQ__SHEET_BEFORE on every
 * table but the last (another follows: the HTML page stays open),
 * XQ__SHEET_AFTER on every table but the first (no page head or event
 * line: its title as <h2>, or a blank line and the title in text); CSV
 * then writes each table's title as a record of its own, the tables
 * apart by an empty record. 0 = a sheet of one table. XQ__SHEET_SIGN
 * on the last table of a sheet that is signed (pairings, standings,
 * places): HTML and text end it with the signature lines -- the
 * organiser (主办) and chief arbiter (裁判长) the settings name, a line
 * for the chief arbiter's signature and one for the date; CSV and XLSX
 * are data and carry none. XQ__SHEET_SPOOL (below) writes the records
 * of an XLSX workbook. */
#define XQ__SHEET_COLS_MAX 60 /* standings: a column per tie-break and 4 more; a cross table:
                                 a column per entrant (50 at most, XQ_RR_ENTRANTS_MAX) and 4 more */
#define XQ__SHEET_ROWS_MAX 100000
enum { XQ__SHEET_BEFORE = 1, XQ__SHEET_AFTER = 2, XQ__SHEET_SIGN = 4 };
typedef struct xq__sheet {
  FILE *f;
  const xq_tournament *ev;
  int format, lang, ncols, rc, flags;
  const char *cls[XQ__SHEET_COLS_MAX];
  int width[XQ__SHEET_COLS_MAX];
  char **rows;          /* text: nrows x ncols copies, row 0 = headings */
  int nrows, cap;
} xq__sheet;
int xq__sheet_begin(xq__sheet *s, FILE *f, int format, int lang, const xq_tournament *ev,
                    const char *title, const char *sub, int ncols, const char *const *head,
                    const char *const *cls, int flags);
int xq__sheet_row(xq__sheet *s, const char *const *cells);
int xq__sheet_end(xq__sheet *s);

/* XLSX (sheet_xlsx.c). A sheet writer asked for XQ_SHEET_XLSX writes
 * its tables in XQ__SHEET_SPOOL (the table writer's fourth format: one
 * record per line of the workbook, XQ__SHEET_SPOOL_RS between records,
 * XQ__SHEET_SPOOL_US between fields, each record's first field its kind: "E"
 * the event's name, "T" a table's title and sub, "K" the column classes,
 * "H" the headings, "R" a row; separators in a cell become spaces) into
 * the memory of xq__sheet_xlsx_open, and xq__sheet_xlsx_close turns that into the
 * workbook on `out`:
 *   if (format == XQ_SHEET_XLSX) {
 *     xq__sheet_xlsx x;
 *     FILE *m = xq__sheet_xlsx_open(&x);
 *     return xq__sheet_xlsx_close(&x, m ? writer(..., XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, out);
 *   }
 * open returns the stream or NULL (out of memory). close takes the
 * writer's status `rc` and returns it when it failed, else XQ_OK,
 * XQ_ENOMEM, XQ_ELIMIT (a workbook over XQ_SHEET_XLSX_MAX) or XQ_EIO (no
 * temporary file, libxlsxwriter failed, `out` failed); it frees the
 * memory in every case. The workbook is written to a mkstemp file in
 * $TMPDIR (else /tmp), read back to `out` and removed. */
#define XQ__SHEET_SPOOL 100
#define XQ__SHEET_SPOOL_RS '\x1e'
#define XQ__SHEET_SPOOL_US '\x1f'
#define XQ__SHEET_XLSX_WIDTH_MAX 60  /* widest column of a workbook, in characters */
typedef struct xq__sheet_xlsx {
  FILE *m;
  char *buf;
  size_t len;
} xq__sheet_xlsx;
FILE *xq__sheet_xlsx_open(xq__sheet_xlsx *x);
int xq__sheet_xlsx_close(xq__sheet_xlsx *x, int rc, FILE *out);

/* True for the formats the sheet writers take themselves: CSV, HTML,
 * text and the spool (sheet_table.c). */
int xq__sheet_format_ok(int format);

/* The line under a sheet's or slip's heading: the event's dates and
 * venue (xq_tinfo), those given, joined by " · "; "" when neither is
 * (sheet_table.c). Always ended within `cap`. */
void xq__sheet_event_line(const xq_tournament *ev, char *buf, size_t cap);

/* The event line (xq__sheet_event_line) as an HTML paragraph
 * <p class="event">, escaped, when the event has dates or a venue;
 * returns 1 when it wrote one, else 0 (sheet_table.c). */
int xq__sheet_html_event_line(FILE *f, const xq_tournament *ev);

/* `s` into HTML text or an attribute value (& < > " ' escaped). */
void xq__sheet_html_text(FILE *f, const char *s);

/* Display columns of UTF-8 text (2 for a CJK character, 1 for a byte
 * that is not valid UTF-8), and the text written with control characters
 * as spaces (sheet_table.c). */
int xq__sheet_text_width(const char *s);
void xq__sheet_text_put(FILE *f, const char *s);

/* A Swiss event's cross table, the rounds table (轮次成绩表) after rounds
 * 1..upto (0 or beyond: all): a row per player in standings order with
 * his rank, number, name and 单位, a column per round whose cell holds
 * the opponent's number and the game's colour and result ("12红胜",
 * "12R1"; + and - for a forfeit; 轮空, 请假, 退赛 on no board), then his
 * points; signed. xq_sheet_crosstable's Swiss half (sheet_rounds.c);
 * same returns. */
int xq__sheet_rounds(const xq_tournament *ev, int upto, int format, int lang, FILE *f);

struct xq_ko;
/* How a knockout placed `id` (sheet_final.c): its last match played and
 * the outcome ("won the final", "lost in the semi-final", "in the
 * quarter-final" while undecided), in `lang`, into buf (always ended). */
void xq__sheet_ko_reached(char *buf, size_t cap, const struct xq_ko *ko, int id, int lang);
/* A bracket stage by the number of stages after it (`left`: 0 the final,
 * 1 the semi-final, ...), in `lang`; "early round" past the round of 128
 * (sheet_final.c). */
const char *xq__sheet_ko_stage_word(int left, int lang);
/* The stage of knockout match m by name, in `lang`: the third-place
 * match of XQ_KO_TOP_CHOOSES (三四名决赛), a two-pool bracket's pool
 * finals (分组决赛) and final (总决赛), else xq__sheet_ko_stage_word
 * (sheet_final.c). */
const char *xq__sheet_ko_match_stage(const struct xq_ko *ko, int m, int lang);

/* The drawing of lots under a printed list (不并列): a table of its own
 * (XQ__SHEET_AFTER) of the players of s[0..n) whose tie reached the lot
 * (by_lot) -- overall rank, number, name and draw -- titled with the
 * lot's seed, the method under it where the format has a line for it, so
 * that anyone can draw it again (standings: sheet.c; places:
 * sheet_final.c). Returns xq__sheet_end's status. */
int xq__sheet_lot_table(FILE *f, int format, int lang, const xq_tournament *ev, const xq_tstanding *s, int n);

#endif /* XQ_TOURNEY_SHEET_INTERNAL_H */
