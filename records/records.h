/*
 * records.h -- public interface of the xqref game records: one game as a
 * plain struct (start position, tags, main line, variations, comments,
 * result), readers for XQ-PGN (streaming, many games per file), XQF and
 * DhtmlXQ, writers for PGN and DhtmlXQ, and an iterator over the games of
 * a file of any of these formats (docs/records.md, "PGN reading"; docs/records.md, "DhtmlXQ").
 *
 * Every move read is resolved against the legal moves of its position, so
 * a record that comes out of a reader is a legal game. Text in a record is
 * UTF-8; GBK/GB18030 input is converted when it is read.
 *
 * Depends on the engine only; no network or database code.
 */
#ifndef XQ_RECORDS_H
#define XQ_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

/* A record is a plain struct of fixed arrays, so every part of a game
 * has a bound; each is far above what game files hold, and input past
 * one is an error or a warning (records.md), never a larger allocation. */
#define XQ_REC_PLIES_MAX 2048       /* moves in a game's main line: recorded games end
                                       within a few hundred */
#define XQ_REC_TAGS_MAX 40          /* tags per game: xqbase's layout has 17 */
#define XQ_REC_TAG_NAME_MAX 32      /* tag name, terminator included: the longest
                                       standard one (BlackTeam) has 9 bytes */
#define XQ_REC_TAG_VALUE_MAX 512    /* tag value in UTF-8, terminator included: an event
                                       name of 170 Chinese characters */
#define XQ_REC_VARS_MAX 512         /* variations per game; past it they are left out
                                       with a warning, the game is kept */
#define XQ_REC_VAR_MOVES_MAX 8192   /* moves of all variations of a game: 16 a variation
                                       on average, the same way */
#define XQ_REC_VAR_DEPTH_MAX 32     /* variations nested in variations; the reader keeps
                                       one state per level */
#define XQ_REC_COMMENTS_MAX 1024    /* comments per game: one on every ply of a long game
                                       and its variations */
#define XQ_REC_COMMENT_MAX 65536    /* bytes of one comment: a page of annotation */
#define XQ_REC_TEXT_MAX (1 << 22)   /* bytes of all comments of a game: 4 MiB, so that one
                                       game cannot take the memory of a file of them */
#define XQ_REC_WARNING_MAX 200      /* the first warning of a game, terminator included:
                                       one line */

#define XQ_PGN_LINE_MAX 65536       /* bytes of one PGN input line: writers wrap near 80
                                       columns, but a comment may be a page on one line */
#define XQ_PGN_CHUNK 65536          /* bytes read from the file at a time: memory stays
                                       flat whatever the file's size */
#define XQ_XQF_FILE_MAX (4 << 20)   /* bytes of an XQF file, read whole: one game with its
                                       variations and comments */
#define XQ_DHTMLXQ_INPUT_MAX (16 << 20) /* bytes of a DhtmlXQ file, read whole: a web page
                                           that holds several games */
#define XQ_XQF_TEXT_MAX 256         /* an XQF header string in UTF-8, terminator included:
                                       the widest field (64 bytes of GB18030) grows by half */
#define XQ_GEN_PGN_GAMES_MAX 10000000L /* games xq_pgn_write_random writes in one call
                                          (about 1.4 KB each: 14 GB) */
#define XQ_DHTMLXQ_BRANCHES_MAX 65536 /* branch tags looked at in one DhtmlXQ block: a
                                         page's opening tree, past which they are left out */
#define XQ_CCBRIDGE_FILE_MAX (16 << 20) /* bytes of a 象棋桥 CBL, CBR or CBF file, read whole:
                                           a library of a few thousand records */
#define XQ_CBL_BOOK_MAX (64 << 20)      /* bytes of an older CBL book once inflated: bounds
                                           what a small compressed file may ask for */

/* ------------------------------------------------------------------ */
/* A game                                                              */
/* ------------------------------------------------------------------ */

typedef enum {
  XQ_RESULT_UNKNOWN = 0, /* "*": not finished or not known */
  XQ_RESULT_RED_WINS,    /* "1-0" */
  XQ_RESULT_BLACK_WINS,  /* "0-1" */
  XQ_RESULT_DRAW         /* "1/2-1/2" */
} xq_result;

typedef struct xq_tag {
  char name[XQ_REC_TAG_NAME_MAX];
  char value[XQ_REC_TAG_VALUE_MAX];
} xq_tag;

/* A line of play other than the main line. Lines are numbered: 0 is the
 * main line, v + 1 is vars[v]. A variation replaces the move at index
 * `at` of its parent line: its first move is played from the position
 * before that move. Its moves are var_moves[first .. first + n). */
typedef struct xq_variation {
  int parent;
  int at;
  int first;
  int n;
} xq_variation;

/* A comment on `line` standing after `after` moves of that line (0: before
 * the line's first move; on the main line that is the game's opening
 * comment). Its text is rec->text[off .. off + len), UTF-8, not
 * terminated; line breaks are '\n'. */
typedef struct xq_comment {
  int line;
  int after;
  size_t off;
  size_t len;
} xq_comment;

/* One game. Build or reuse one with xq_record_init / xq_record_reset and
 * release it with xq_record_free (only `text` is on the heap; everything
 * else is inside the struct, about 90 KiB, so keep records off small
 * stacks). Readers fill every field. Fields are public for reading; change
 * them through the xq_record_* calls so the invariants hold:
 *   start  the position before the first move (any side to move);
 *   moves  the main line, each legal in turn from `start`;
 *   end    the position after the main line. */
typedef struct xq_record {
  long game;            /* 1-based index of the game in its file (0: none) */
  long line;            /* line of the file where the game starts (0: none) */
  xq_pos start;
  xq_pos end;
  xq_result result;
  int n_tags;
  xq_tag tags[XQ_REC_TAGS_MAX];
  int n_moves;
  xq_move moves[XQ_REC_PLIES_MAX];
  int n_vars;
  xq_variation vars[XQ_REC_VARS_MAX];
  int n_var_moves;
  xq_move var_moves[XQ_REC_VAR_MOVES_MAX];
  uint16_t var_line[XQ_REC_VAR_MOVES_MAX]; /* builders: line of each var move */
  int vars_packed;      /* var_moves grouped by variation (first/n valid) */
  int n_comments;
  xq_comment comments[XQ_REC_COMMENTS_MAX];
  char *text;           /* comment text, owned (NULL while there is none) */
  size_t text_len, text_cap;
  /* Repairs the reader made to keep the game (a tag with stray quotes read
   * to the end of its line, a variation cut before an illegal move): how
   * many, and the first one ("line L: ..."). */
  int n_warnings;
  char warning[XQ_REC_WARNING_MAX];
} xq_record;

/* True when s[0..n) is well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF, no sequence cut short). NUL bytes
 * are well-formed. Cannot fail. */
int xq_utf8_valid(const char *s, size_t n);

/* Make `rec` an empty game from the standard start position: no tags,
 * moves, variations or comments, result unknown. Cannot fail (allocates
 * nothing). */
void xq_record_init(xq_record *rec);

/* Empty `rec` like xq_record_init but keep its text buffer for reuse.
 * `rec` must have been initialised. Cannot fail. */
void xq_record_reset(xq_record *rec);

/* Release the heap memory of `rec` and leave it empty (as after
 * xq_record_init). NULL is accepted. */
void xq_record_free(xq_record *rec);

/* Start the game from `start` (must pass xq_pos_validate) and drop its
 * moves, variations and comments; tags and result stay. Returns XQ_OK or
 * XQ_EINVAL (NULL argument) or XQ_EFEN (invalid position, `err` says why;
 * may be NULL). */
int xq_record_set_start(xq_record *rec, const xq_pos *start, xq_error *err);

/* Append `m` to the main line. Returns XQ_OK; XQ_EINVAL for a NULL `rec`;
 * XQ_EILLEGAL when `m` is not legal in rec->end; XQ_ELIMIT when the line
 * already has XQ_REC_PLIES_MAX moves. `rec` is unchanged on failure. */
int xq_record_append(xq_record *rec, xq_move m);

/* Value of tag `name` (ASCII case-insensitive), or NULL when absent. */
const char *xq_record_tag(const xq_record *rec, const char *name);

/* Set tag `name` to `value` (UTF-8), replacing an existing tag of that
 * name. Returns XQ_OK; XQ_EINVAL for NULL or an empty or non-printable
 * name; XQ_ELIMIT for a name or value too long or too many tags (then
 * `rec` is unchanged). */
int xq_record_set_tag(xq_record *rec, const char *name, const char *value);

/* Remove tag `name` if present. Cannot fail. */
void xq_record_del_tag(xq_record *rec, const char *name);

/* Open a variation on `parent` (a line number, see xq_variation) that
 * replaces its move at index `at` (0 <= at < moves of parent so far).
 * Returns the new line number (>= 1), XQ_EINVAL or XQ_ELIMIT (too many
 * variations, or nested deeper than XQ_REC_VAR_DEPTH_MAX). Moves
 * are added with xq_record_add_line_move; call xq_record_pack before
 * reading first/n. Legality of variation moves is the caller's job. */
int xq_record_add_variation(xq_record *rec, int parent, int at);

/* Append `m` to line `line` (0 = main line, then as xq_record_append
 * without its legality check and without updating rec->end). Returns
 * XQ_OK, XQ_EINVAL or XQ_ELIMIT. */
int xq_record_add_line_move(xq_record *rec, int line, xq_move m);

/* Group the variation moves per variation so vars[].first/n are valid.
 * Readers call it; builders call it after their last add. Cannot fail. */
void xq_record_pack(xq_record *rec);

/* Moves of `line` (0 = main line) into *moves / *n. Packs first when
 * needed. Returns XQ_OK or XQ_EINVAL (no such line). */
int xq_record_line(xq_record *rec, int line, const xq_move **moves, int *n);

/* Add a comment of `len` bytes (UTF-8, copied) on `line` after `after`
 * moves of it. Returns XQ_OK, XQ_EINVAL, XQ_ENOMEM or XQ_ELIMIT (too many
 * comments, comment longer than XQ_REC_COMMENT_MAX or text of the game
 * over XQ_REC_TEXT_MAX). */
int xq_record_add_comment(xq_record *rec, int line, int after, const char *text,
                          size_t len);

/* Position after the first `ply` moves of the main line (0 <= ply <=
 * n_moves) into *out. Returns XQ_OK or XQ_EINVAL. */
int xq_record_position(const xq_record *rec, int ply, xq_pos *out);

/* PGN text of a result ("1-0", "0-1", "1/2-1/2", "*"). Never NULL. */
const char *xq_result_pgn(xq_result r);

/* Result of a PGN result text (also "½-½" and "1/2"); XQ_RESULT_UNKNOWN
 * for anything else. Never fails. */
xq_result xq_result_parse(const char *text);

/* ------------------------------------------------------------------ */
/* XQ-PGN (records/pgn.c, records/pgn_write.c; docs/records.md, "PGN reading")          */
/* ------------------------------------------------------------------ */

/* Reader and writer options. */
enum {
  XQ_PGN_VARIATIONS = 1 << 0,  /* read: keep variations (default: skip them) */
  XQ_PGN_NO_COMMENTS = 1 << 1, /* read: drop comments; write: leave them out */
  XQ_PGN_CRLF = 1 << 2,        /* write: end lines with CR LF (xqbase) */
  XQ_PGN_NO_VARS_OUT = 1 << 3  /* write: leave variations out */
};

typedef struct xq_pgn_reader xq_pgn_reader;

/* Start reading games from `in` (any position; not closed by the reader)
 * with XQ_PGN_* `flags`. Stores a new reader in *out. Returns XQ_OK,
 * XQ_EINVAL or XQ_ENOMEM. Free it with xq_pgn_close. */
int xq_pgn_open(xq_pgn_reader **out, FILE *in, int flags);

/* Read the next game into `rec` (initialised by the caller; reset here).
 * Returns 1 for a game; 0 at the end of the input; a negative XQ_E* code
 * for a bad game, with `err` (may be NULL) saying why: err->ply is the
 * 1-based ply of the bad move (0 outside the moves), err->pos the line
 * of the file where the problem is, and err->msg starts with "game G,
 * line L" (and ", ply P"). rec->game and rec->line name the bad game too.
 * After a bad game the reader has skipped to the next game, so calling
 * again goes on; only XQ_EIO (a read error) ends the input.
 *
 * Lines may end in LF, CR LF or CR. Lines that are not UTF-8 are read as
 * GB18030 (GBK). Moves are read in the notation of [Format] and also in
 * any other (ICCS `H2-E2` or `h2e2`, WXF, Chinese); with [Variant
 * "xiangqi"] ICCS ranks count 1-10. Text after a game's result up to the
 * next tag line is ignored (xqbase's advertisement block). */
int xq_pgn_next(xq_pgn_reader *r, xq_record *rec, xq_error *err);

/* Bytes of input consumed so far (for progress reports). */
long long xq_pgn_offset(const xq_pgn_reader *r);

/* Free the reader (NULL accepted). Does not close its FILE. */
void xq_pgn_close(xq_pgn_reader *r);

/* Write `rec` as one PGN game to `out` in `notation` (ICCS is written in
 * xqbase's `H2-E2` form whichever of the two ICCS values is given; WXF;
 * Chinese, UTF-8). Tags: Game first, then xqbase's order for the standard
 * tags, then the others in their order; Result from rec->result; Format
 * for ICCS and WXF; FEN when the start is not the standard position.
 * `flags`: XQ_PGN_CRLF, XQ_PGN_NO_COMMENTS, XQ_PGN_NO_VARS_OUT. A '}' in a
 * comment is written as '｝' (PGN has no escape). Returns XQ_OK, XQ_EINVAL
 * or XQ_EIO (write failed), with `err` (may be NULL) filled. */
int xq_pgn_write(FILE *out, xq_record *rec, xq_notation notation, int flags,
                 xq_error *err);

/* ------------------------------------------------------------------ */
/* XQF (records/xqf.c; docs/records.md, "XQF")                                  */
/* ------------------------------------------------------------------ */

/* The header fields of an XQF file as stored (strings in UTF-8). */
typedef struct xq_xqf_header {
  int version;   /* 10 common; >= 11 encrypted */
  int result;    /* 0 unknown, 1 Red wins, 2 Black wins, 3 (or 4) draw */
  int type;      /* 0 全局, 1 开局, 2 中局, 3 残局 */
  char title[XQ_XQF_TEXT_MAX];
  char event[XQ_XQF_TEXT_MAX];
  char date[XQ_XQF_TEXT_MAX];
  char site[XQ_XQF_TEXT_MAX];
  char red[XQ_XQF_TEXT_MAX];
  char black[XQ_XQF_TEXT_MAX];
  char time_rule[XQ_XQF_TEXT_MAX];
  char red_time[XQ_XQF_TEXT_MAX];
  char black_time[XQ_XQF_TEXT_MAX];
  char annotator[XQ_XQF_TEXT_MAX];
  char author[XQ_XQF_TEXT_MAX];
  int cut_variations; /* variations cut short at an illegal move */
} xq_xqf_header;

/* Read the XQF file in buf[0..len) into `rec` (initialised by the caller;
 * reset here) and, when `hdr` is non-NULL, its header fields. Every
 * version is read, the encrypted ones (>= 11) included; the first line
 * of each branching point is the main line and the others become
 * variations; comments are kept. Tags: Title, Event (the title when
 * empty), Date, Site, Red, Black, Result, TimeControl, RedTime,
 * BlackTime, Annotator, Creator (the non-empty ones). Returns XQ_OK or,
 * for a file that is not XQF, has an unknown version or an impossible
 * start position, is truncated or holds an illegal move, XQ_EFEN,
 * XQ_EILLEGAL, XQ_ENOTATION (malformed data) or XQ_ELIMIT, with `err`
 * (may be NULL) saying why (err->pos = byte offset, err->ply = 1-based
 * ply of a bad move). What real files hold is read with a warning on
 * `rec` rather than failed: a header string whose length overruns its
 * field is cut at the field's end; a root record that promises a first
 * move the file does not hold gives the position without moves; an
 * illegal move inside a variation cuts the variation before it
 * (hdr->cut_variations counts them). */
int xq_xqf_read(const unsigned char *buf, size_t len, xq_record *rec, xq_xqf_header *hdr,
                xq_error *err);

/* ------------------------------------------------------------------ */
/* DhtmlXQ (records/dhtmlxq.c; docs/records.md, "DhtmlXQ")                          */
/* ------------------------------------------------------------------ */

/* Read the first [DhtmlXQ] ... [/DhtmlXQ] block found in text[0..len),
 * or [DhtmlXQiFrame] ... (dpxq.com pages' iframe form, with or without its
 * closing tag; a block without one ends where the next starts)
 * (UTF-8; convert GBK first) into `rec` (initialised; reset here). On
 * return *consumed (may be NULL) is the offset just past the block (or
 * `len` when none was found), so a page with several blocks is read by
 * calling again on the rest. Tags read: title, event, date, place, round,
 * table, red, redteam, redrating, black, blackteam, blackrating, result,
 * open, remark, author, timerule; binit, movelist, move_B_S_N
 * (variations), commentS and commentB_S. Unknown and mismatched tags are
 * skipped. Returns 1 for a game, 0 when no block is left, or XQ_EFEN /
 * XQ_EILLEGAL / XQ_ENOTATION / XQ_ELIMIT for a bad block (then *consumed
 * is still past it), with `err` (may be NULL) saying why. */
int xq_dhtmlxq_read(const char *text, size_t len, xq_record *rec, size_t *consumed,
                    xq_error *err);

/* Write `rec` as one [DhtmlXQ] block (UTF-8, LF line ends) to `out`,
 * variations and comments included. Returns XQ_OK, XQ_EINVAL or XQ_EIO
 * with `err` (may be NULL) filled. */
int xq_dhtmlxq_write(FILE *out, xq_record *rec, xq_error *err);

/* ------------------------------------------------------------------ */
/* Games of any file (records/games.c)                                 */
/* ------------------------------------------------------------------ */

typedef enum {
  XQ_FMT_PGN = 0, /* XQ-PGN (streamed) */
  XQ_FMT_XQF,
  XQ_FMT_DHTMLXQ,
  XQ_FMT_CBL,     /* 象棋桥 library: CBR records, or an older zlib book */
  XQ_FMT_CBR,     /* 象棋桥 single record */
  XQ_FMT_CBF,     /* 象棋桥 XML record */
  XQ_FMT_TEXT,    /* games as plain text: move lists, playok.com WXF, UBB */
  XQ_FMT_MXQ,     /* 象棋世家 */
  XQ_FMT_CHE,     /* QQ象棋 */
  XQ_FMT_PFC      /* 鹏飞象棋, vschess (XML tree) */
} xq_rec_format;

typedef struct xq_games xq_games;

/* Open `path` ("-" = standard input, read as PGN) and detect its format
 * from its content: a signature ("XQ" and a version byte = XQF,
 * "CCBridge Record" = CBR,
 * "CCBridgeLibrary" or "CCBridge" version 21 = CBL, <ChineseChessRecord>
 * = CBF), a [DhtmlXQ] or [DhtmlXQiFrame] block anywhere in the first
 * XQ_DHTMLXQ_INPUT_MAX bytes = DhtmlXQ, anything else PGN. PGN is
 * streamed; the other formats are read whole (at most XQ_XQF_FILE_MAX,
 * XQ_DHTMLXQ_INPUT_MAX, XQ_CCBRIDGE_FILE_MAX bytes). `flags` are XQ_PGN_* reader flags and apply to every format:
 * variations are kept only with XQ_PGN_VARIATIONS, comments dropped with
 * XQ_PGN_NO_COMMENTS. Returns XQ_OK with a new iterator in
 * *out, or XQ_EIO / XQ_ELIMIT / XQ_ENOMEM / XQ_EINVAL with `err` filled. */
int xq_games_open(xq_games **out, const char *path, int flags, xq_error *err);

/* Next game of the file, as xq_pgn_next: 1 game, 0 end, negative for a
 * bad game (err names it; the next call goes on with the next game). */
int xq_games_next(xq_games *g, xq_record *rec, xq_error *err);

/* Format detected, bytes consumed so far, and the file's size (-1 when
 * unknown, e.g. a pipe). */
xq_rec_format xq_games_format(const xq_games *g);
long long xq_games_offset(const xq_games *g);
long long xq_games_size(const xq_games *g);

/* Close the file and free the iterator (NULL accepted). */
void xq_games_close(xq_games *g);

/* Read the first game of `path` (any format) into `rec` (initialised by
 * the caller), variations and comments kept: the call `xqref judge`
 * uses. Returns XQ_OK or the first error (a bad first game, no game at
 * all: XQ_ENOTATION "no game in FILE", I/O errors) with `err` filled. */
int xq_record_read_file(const char *path, xq_record *rec, xq_error *err);

/* ------------------------------------------------------------------ */
/* Random games (records/gen_pgn.c)                                    */
/* ------------------------------------------------------------------ */

/* Write `n` games (1..XQ_GEN_PGN_GAMES_MAX) of random legal play from the
 * standard start to `out` as PGN: Event "Random playout K", Red "Random
 * A", Black "Random B"; 40 to 199 plies each, fewer when mate or
 * stalemate comes first; moves in ICCS, WXF and Chinese, game by game in
 * turn; a random result, the winner's after mate or stalemate. The same
 * `seed` writes the same games on every machine. Returns XQ_OK, XQ_EINVAL
 * (NULL `out` or `n` out of range), XQ_ENOMEM or XQ_EIO (a write failed;
 * the games before it are written), with `err` (may be NULL) saying why. */
int xq_pgn_write_random(FILE *out, long n, uint64_t seed, xq_error *err);

#endif /* XQ_RECORDS_H */
