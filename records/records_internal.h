/*
 * records_internal.h -- helpers shared by the record readers and
 * writers. Not for use outside records/.
 */
#ifndef XQ_RECORDS_INTERNAL_H
#define XQ_RECORDS_INTERNAL_H

#include <stdarg.h>

#include "records.h"

/* ---- limits ------------------------------------------------------- */

/* Bytes of a move token in PGN movetext: the engine reads no longer move
 * text (twice XQ_MOVE_TEXT_MAX), so a longer token is not a move. */
#define XQ__PGN_TOKEN_MAX 64
/* Bytes of one PGN line once in UTF-8, terminator included: GB18030 or
 * BIG5 text may take up to twice its bytes. */
#define XQ__PGN_LINE_CAP_MAX (XQ_PGN_LINE_MAX * 2 + 1)
/* Bytes of a DhtmlXQ tag name, terminator included: the format's names
 * (DhtmlXQ_binit, DhtmlXQ_movelist, ...) are under 20 after the prefix. */
#define XQ__DHTMLXQ_NAME_MAX 40
/* Bytes read at a time to tell a file's format (the whole file is
 * looked at, a chunk at a time: a page's DhtmlXQ blocks may come late). */
#define XQ__SNIFF_LEN 65536
/* Lines of a text file looked at for a header before its moves. */
#define XQ__TEXT_HEADER_LINES 12
/* The newest XQF version read: the newest seen in files; a later one may
 * lay its header out otherwise, so it is refused. */
#define XQ__XQF_VERSION_MAX 18
/* Bytes of an XQF comment once in UTF-8, terminator included: GB18030
 * grows by half at most. */
#define XQ__XQF_COMMENT_UTF8_MAX (XQ_REC_COMMENT_MAX * 3 / 2 + 4)

/* ---- errors (records/text.c, record.c; filled with xq_error_set) --- */

/* Put `prefix` in front of err->msg (may be NULL), cutting the message
 * to fit. Cannot fail. */
void xq__text_error_prefix(xq_error *err, const char *prefix);

/* Count a repair made to keep `rec` (see xq_record.n_warnings) and keep
 * its printf-style message when it is the first. Cannot fail. */
void xq__record_warn(xq_record *rec, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The result a text gives: wxf.ca's W / L / D (Red wins, loses, draws),
 * PGN's 1-0 / 0-1 / 1/2-1/2, or free text naming a side and an outcome
 * (红胜, 紅方勝, 黑方胜, 先负, ...; any text with 和: a draw);
 * XQ_RESULT_UNKNOWN for anything else. Cannot fail. (records/text.c) */
xq_result xq__text_result(const char *v);

/* ---- the standard start (records/record.c) ------------------------ */

/* The standard start position, made once per thread (every record and
 * block starts from it). Cannot fail. */
const xq_pos *xq__record_startpos(void);

/* ---- text encodings (records/text.c) ------------------------------ */

/* GB18030 (GBK) to UTF-8. A converter is opened lazily into *cd (an
 * iconv_t kept by the caller, initialised to (void *)-1; release it with
 * xq__text_gbk_close). Writes at most cap - 1 bytes and a terminator; bytes
 * that are not GB18030 become U+FFFD. Returns the length written, or
 * XQ_ELIMIT when `cap` is too small, XQ_EINVAL when the converter cannot
 * be opened. */
int xq__text_gbk_to_utf8(void **cd, const char *in, size_t n, char *out, size_t cap);
void xq__text_gbk_close(void **cd);

/* Bytes s[0..n) as UTF-8 into out (cap bytes, terminated): kept when
 * UTF-8 that reads as nothing else (xq__text_judge), converted from
 * GB18030 otherwise (the strings of the GBK formats: XQF, MXQ, CBL).
 * Returns the length or a negative code as xq__text_gbk_to_utf8. */
int xq__text_to_utf8(void **cd, const char *s, size_t n, char *out, size_t cap);

/* How bytes that are valid UTF-8 read (xq__text_judge). */
enum { XQ__TEXT_UTF8, XQ__TEXT_GBK, XQ__TEXT_EITHER };

/* Judge s[0..n), valid UTF-8, against its GBK reading: XQ__TEXT_GBK when
 * that reading is plausible (at least 2 characters and 3 in 4 of them
 * GB2312's common hanzi or punctuation, none glued to a Latin letter) and
 * the UTF-8 one is not (most of its characters in runs no text holds:
 * Hebrew, combining marks, Greek and Cyrillic mixed, a lone letter: 郑惟
 * 桐 in GBK is "\u05A3\u03A9\u0369" in UTF-8); XQ__TEXT_EITHER when both
 * are plausible; XQ__TEXT_UTF8 otherwise (ordinary UTF-8 Chinese read as
 * GBK is mostly rare characters). Cannot fail. */
int xq__text_judge(const char *s, size_t n);

/* Whether the rest of `f` (read to its end) is all valid UTF-8: 1, 0,
 * or XQ_EIO, XQ_ENOMEM. */
int xq__text_file_utf8(FILE *f);

/* Legacy text to UTF-8 for the text formats: UTF-8 stays, unless it reads
 * better as GBK (xq__text_judge; a tie goes to GBK in a file known to hold
 * legacy text, to UTF-8 otherwise, and is counted in `doubt`); other text
 * is read as GB18030 (mainland files) or BIG5 (Taiwan, Hong Kong),
 * whichever decoding reads like a game record (README.md, "Move notations": decode
 * mainland files as GB18030, detect BIG5 heuristically). Once one wins
 * clearly it is kept for the rest of the input. */
typedef struct xq__decoder {
  void *gbk, *big5; /* iconv converters, (void *)-1 until opened */
  int choice;       /* 0 undecided, 1 GB18030, 2 BIG5 */
  int legacy;       /* the input holds text that is not UTF-8 (seen, or found by a scan first) */
  long doubt;       /* texts that read both as UTF-8 and as GBK */
  char *tmp;        /* scratch for the second decoding */
  size_t tmp_cap;
} xq__decoder;

void xq__text_decoder_init(xq__decoder *d);
void xq__text_decoder_close(xq__decoder *d);

/* s[0..n) as UTF-8 into out (cap bytes, terminated). Returns the length
 * or XQ_ELIMIT (cap too small) / XQ_EINVAL (no converter). */
int xq__text_decode(xq__decoder *d, const char *s, size_t n, char *out, size_t cap);

/* A file read whole (*data, *len; malloc'd) made UTF-8 in its place when
 * it is not, or when judged GBK as a whole (xq__text_judge): GB18030 or
 * BIG5, whichever reads like a game record.
 * Returns XQ_OK or XQ_ENOMEM with `err`. */
int xq__text_page_utf8(char **data, size_t *len, xq_error *err);

/* ---- the PGN reader (records/pgn.c) -------------------------------- */

/* Tell r that its input holds text that is not UTF-8 (found by a scan of
 * the whole file before it is read): a line that reads both as UTF-8 and
 * as GBK is then read as GBK. Cannot fail. */
void xq__pgn_legacy(xq_pgn_reader *r);

/* ---- games as plain text (records/textgames.c) --------------------- */

/* What a file starting with head[0..n) holds, line by line (a page is
 * looked at as text): 2 when a PGN tag line comes first; 1 when games as
 * plain text do (a numbered move list whose first move is legal from the
 * start, playok.com's START{, a UBB move list); 0 for neither. Cannot
 * fail. */
int xq__textgames_sniff(const char *head, size_t n);

/* Make a text file read whole ready for xq__textgames_next: UTF-8, a page made
 * text. Returns as xq__text_page_utf8. */
int xq__textgames_prepare(char **data, size_t *len, xq_error *err);

/* The next game of the text s[0..len) at or after *at into `rec` (reset
 * here): its header lines as tags, its moves from the standard start;
 * *at moves past it and rec->line is the line it starts on, counted from
 * the old *at (1 = its first). Returns 1, 0 when no game is left, or a
 * negative code for a game whose move does not read (the next call goes
 * on after it). */
int xq__textgames_next(const char *s, size_t len, size_t *at, xq_record *rec, xq_error *err);

/* ---- the clients of game sites (records/sitegames.c), PFC (pfc.c) -- */

/* Whether s[0..n) (the start of a file) is 象棋世家's MXQ / QQ象棋's CHE. */
int xq__sitegames_mxq_sniff(const char *s, size_t n);
int xq__sitegames_che_sniff(const char *s, size_t n);

/* Read the one game of an MXQ (GBK strings), CHE or PFC (XML, UTF-8) file
 * s[0..n) into `rec` (reset here). Returns XQ_OK or XQ_ENOTATION /
 * XQ_EFEN / XQ_EILLEGAL / XQ_ELIMIT / XQ_ENOMEM with `err`. */
int xq__sitegames_mxq_read(const char *s, size_t n, xq_record *rec, xq_error *err);
int xq__sitegames_che_read(const char *s, size_t n, xq_record *rec, xq_error *err);
int xq__pfc_read(const char *s, size_t n, xq_record *rec, xq_error *err);

/* ---- piece tables (records/text.c) -------------------------------- */

/* Kind of slot i (0..31) of the XQF/DhtmlXQ piece order R N B A K A B N R
 * C C P P P P P, Red (0-15) then Black (16-31). */
xq_kind xq__text_slot_kind(int slot);

/* Side to move of a record that tells none and has no moves. */
#define XQ__SIDE_EITHER (-1)

/* Set up `out` from slot squares sq[32] (engine squares, -1 = absent) and
 * the side to move; the position must pass xq_pos_validate. With side
 * XQ__SIDE_EITHER, Red moves unless the position is legal only with Black
 * to move. Returns XQ_OK or XQ_EFEN (err says why, for both sides when
 * the side was open; pos -1). */
int xq__text_pos_from_slots(const int sq[32], int side, xq_pos *out, xq_error *err);

/* Slot squares of `pos` (engine squares, -1 absent), each kind's pieces
 * taking its slots in file then rank order. Cannot fail. */
void xq__text_slots_from_pos(const xq_pos *pos, int sq[32]);

/* Append the text of `c` into `rec` with xq_record_add_comment after
 * replacing "\r\n" and "\r" by '\n'. Returns as that call. */
int xq__text_add_comment(xq_record *rec, int line, int after, const char *text, size_t len);

/* As xq__text_add_comment, but a comment past the record's limits
 * (XQ_REC_COMMENTS_MAX comments, XQ_REC_TEXT_MAX bytes, a comment over
 * XQ_REC_COMMENT_MAX) is left out and the game kept: *dropped counts
 * them and the first is a warning of `rec`. Returns XQ_OK or XQ_ENOMEM. */
int xq__text_add_comment_or_drop(xq_record *rec, int line, int after, const char *text, size_t len,
                            int *dropped);

/* ---- 象棋桥 CBR and CBL (records/ccbridge.c) ----------------------- */

/* Read the CBR record buf[0..len) (versions 1 and 2) into `rec` (reset
 * here). Returns XQ_OK or XQ_ENOTATION / XQ_EFEN / XQ_EILLEGAL /
 * XQ_ELIMIT / XQ_ENOMEM with `err`. */
int xq__ccbridge_cbr_read(const unsigned char *buf, size_t len, xq_record *rec, xq_error *err);

/* Make a CBL file read whole (*data, *len; malloc'd) ready for
 * xq__ccbridge_cbl_next: a library of CBR records stays, an older book is
 * inflated in its place (at most XQ_CBL_BOOK_MAX bytes). Returns XQ_OK,
 * XQ_ENOTATION, XQ_ELIMIT or XQ_ENOMEM with `err`. */
int xq__ccbridge_cbl_prepare(char **data, size_t *len, xq_error *err);

/* The game of a prepared CBL at or after *at (0 at first) into `rec`;
 * *at moves past it. Returns 1, 0 at the end, or a negative code for a
 * bad game (the next call goes on). */
int xq__ccbridge_cbl_next(const unsigned char *b, size_t len, size_t *at, xq_record *rec, xq_error *err);

/* Read the CBF record text[0..len) (XML, UTF-8) into `rec` (reset here).
 * Returns XQ_OK or XQ_ENOTATION / XQ_EFEN / XQ_EILLEGAL / XQ_ELIMIT /
 * XQ_ENOMEM with `err`. (records/cbf.c) */
int xq__cbf_read(const char *text, size_t len, xq_record *rec, xq_error *err);

/* ---- SAN in PGN (records/san.c) ------------------------------------ */

/* Read `text` as WinBoard's or pychess's xiangqi SAN (`Cbe2`, `c5`,
 * `Rxb10+`) in `pos`, ranks counted from *base (0, 1, or -1 for either:
 * a text the two counts read as two legal moves is ambiguous; when only
 * one reads it, *base becomes that one). Returns XQ_OK with *m, or
 * XQ_ENOTATION / XQ_EILLEGAL / XQ_EAMBIGUOUS with `err`. */
int xq__san_parse(const xq_pos *pos, const char *text, int *base, xq_move *m, xq_error *err);

/* ---- move trees in pre-order (records/tree.c) --------------------- */

/* A branching point waiting for its sibling nodes: the line it adds to,
 * the move index there, and the position before that move. */
typedef struct xq__branch {
  int line, at;
  int ply;    /* plies from the start to pos */
  int broken; /* inside a variation cut at an illegal move */
  xq_pos pos;
} xq__branch;

/* A tree being read into a record, node by node in pre-order (a node,
 * its continuation, then its sibling): the main line is the first
 * continuation at each node, a sibling a variation of its node's line.
 * Use: xq__tree_start after the root (rec->start set), then while
 * xq__tree_next says a node comes, read it and give it to xq__tree_move
 * (and its comment to xq__tree_comment); xq__tree_end frees the stack. */
typedef struct xq__tree {
  xq_record *rec;
  xq__branch *stack; /* grown as the tree needs, up to XQ_REC_VARS_MAX */
  int depth, cap;
  int line, at;      /* where the next node goes: line, index on it */
  int plies;         /* ply of the node being read (0: the root) */
  int more;          /* the last node has a continuation */
  int broken;        /* inside a variation cut or left out */
  int added;         /* the last node was added to the record */
  int fork;          /* the next node opens a variation at fork_line/fork_at */
  int fork_line, fork_at;
  xq_pos pos;        /* position before the next node */
  int cut;           /* variations cut before an illegal move */
  int dropped;       /* comments left out past the record's limits */
} xq__tree;

/* Start reading the nodes after the root of `rec` (its start position
 * set); `more`: the root has a continuation. Cannot fail. */
void xq__tree_start(xq__tree *t, xq_record *rec, int more);

/* 1 when another node comes (t->plies is its ply; a pending sibling opens
 * its variation, or is left out with a warning past the variation
 * limits), 0 when the tree is complete. Cannot fail. */
int xq__tree_next(xq__tree *t);

/* The node: move `m` with its continuation and sibling flags. An illegal
 * move in a variation cuts the variation before it (counted in t->cut),
 * a variation past XQ_REC_VAR_MOVES_MAX is cut, each with a warning.
 * Returns XQ_OK, or XQ_EILLEGAL (an illegal main-line move), XQ_ELIMIT
 * (more than XQ_REC_PLIES_MAX in the main line, too many pending
 * branches) or XQ_ENOMEM with `err` (pos `where`). */
int xq__tree_move(xq__tree *t, xq_move m, int has_next, int has_var, int where, xq_error *err);

/* The comment (UTF-8) of the last node, or of the root before any node;
 * nothing for a node left out. Returns as xq__text_add_comment_or_drop. */
int xq__tree_comment(xq__tree *t, const char *text, size_t len);

/* Free the stack (the record keeps what was read). Cannot fail. */
void xq__tree_end(xq__tree *t);

#endif /* XQ_RECORDS_INTERNAL_H */
