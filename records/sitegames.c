/*
 * sitegames.c -- games saved by the clients of two game sites, each one
 * game from the standard start: 象棋世家's MXQ (strings of a length byte
 * and GBK text: the place, the date, `Red(rank)-负-Black(rank)`, numbers
 * and the result in words, `Moves`, a string a move `7C-4C` (a file digit
 * 0-8 and a rank letter A-J), `Ends`) and QQ象棋's CHE (numbers:
 * a count, then ten a move: piece, 32, side, from rank, from file counted
 * from the right, to rank, to file, 0, the move's number, 0).
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

/* Append `m` to the main line or fail as an illegal move at its ply. */
static int append(xq_record *rec, xq_move m, const char *what, xq_error *err)
{
  int ply = rec->n_moves + 1;
  if (!xq_is_legal(&rec->end, m)) {
    char fen[XQ_FEN_MAX];
    xq_fen_format(&rec->end, fen, sizeof fen);
    return xq_error_set(err, XQ_EILLEGAL, -1, ply, "ply %d: %s move %c%d%c%d is illegal in %.60s",
                        ply, what, 'a' + XQ_FILE(XQ_FROM(m)), XQ_RANK(XQ_FROM(m)),
                        'a' + XQ_FILE(XQ_TO(m)), XQ_RANK(XQ_TO(m)), fen);
  }
  if (xq_record_append(rec, m) != XQ_OK)
    return xq_error_set(err, XQ_ELIMIT, -1, ply, "more than %d plies in the main line",
                        XQ_REC_PLIES_MAX);
  return XQ_OK;
}

/* ---- MXQ ------------------------------------------------------------- */

/* The next string of an MXQ file (a length byte, then its bytes) at *at:
 * [*b, *b + *n). Returns 0 at the end or for a string cut short. */
static int mxq_string(const unsigned char *s, size_t len, size_t *at, size_t *b, size_t *n)
{
  if (*at >= len || *at + 1 + s[*at] > len) return 0;
  *n = s[*at];
  *b = *at + 1;
  *at += 1 + *n;
  return 1;
}

int xq__sitegames_mxq_sniff(const char *s, size_t n)
{
  const char *m = memmem(s, n, "\x05Moves", 6);
  if (!m || (size_t)(s + n - m) < 11) return 0;
  return !memcmp(m + 6, "\x04" "Ends", 5) || (m[6] == 5 && m[7] >= '0' && m[7] <= '8' &&
                                           m[8] >= 'A' && m[8] <= 'J' && m[9] == '-');
}

/* The players and the result of the MXQ header string s[0..n) (GBK:
 * "Red(3弦)-负-Black(1弦)": the result between the hyphens, 胜 Red wins). */
static void mxq_players(xq_record *rec, void **cd, const char *s, size_t n)
{
  static const struct { const char *sep; xq_result r; } seps[] = {
    {"-\xCA\xA4-", XQ_RESULT_RED_WINS},   /* -胜- */
    {"-\xB8\xBA-", XQ_RESULT_BLACK_WINS}, /* -负- */
    {"-\xBA\xCD-", XQ_RESULT_DRAW}};      /* -和- */
  for (size_t i = 0; i < sizeof seps / sizeof seps[0]; i++) {
    const char *p = memmem(s, n, seps[i].sep, 4);
    if (!p) continue;
    char v[XQ_REC_TAG_VALUE_MAX];
    rec->result = seps[i].r;
    if (xq__text_to_utf8(cd, s, (size_t)(p - s), v, sizeof v) > 0) xq_record_set_tag(rec, "Red", v);
    if (xq__text_to_utf8(cd, p + 4, (size_t)(s + n - p - 4), v, sizeof v) > 0)
      xq_record_set_tag(rec, "Black", v);
    return;
  }
}

int xq__sitegames_mxq_read(const char *text, size_t len, xq_record *rec, xq_error *err)
{
  const unsigned char *s = (const unsigned char *)text;
  size_t at = 0, b, n;
  int k = 0, rc = XQ_OK;
  void *cd = (void *)-1;
  char v[XQ_REC_TAG_VALUE_MAX];
  xq_record_reset(rec);
  /* the place, the date, the players; numbers and the result's words up
   * to "Moves"; then a move a string up to "Ends" */
  while (mxq_string(s, len, &at, &b, &n) && !(n == 5 && !memcmp(s + b, "Moves", 5))) {
    if (k == 0 && xq__text_to_utf8(&cd, text + b, n, v, sizeof v) > 0) xq_record_set_tag(rec, "Site", v);
    if (k == 1 && xq__text_to_utf8(&cd, text + b, n, v, sizeof v) > 0) xq_record_set_tag(rec, "Date", v);
    if (k++ == 2) mxq_players(rec, &cd, text + b, n);
  }
  xq__text_gbk_close(&cd);
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
  if (at >= len) return xq_error_set(err, XQ_ENOTATION, 0, 0, "not an MXQ record (no moves)");
  while (rc == XQ_OK && mxq_string(s, len, &at, &b, &n) && !(n == 4 && !memcmp(s + b, "Ends", 4))) {
    const unsigned char *p = s + b;
    if (n != 5 || p[0] < '0' || p[0] > '8' || p[1] < 'A' || p[1] > 'J' || p[2] != '-' ||
        p[3] < '0' || p[3] > '8' || p[4] < 'A' || p[4] > 'J')
      return xq_error_set(err, XQ_ENOTATION, (int)b, rec->n_moves + 1,
                          "MXQ move %d is not a move such as 7C-4C", rec->n_moves + 1);
    rc = append(rec, XQ_MOVE(XQ_SQ(p[0] - '0', p[1] - 'A'), XQ_SQ(p[3] - '0', p[4] - 'A')), "MXQ",
                err);
  }
  return rc;
}

/* ---- CHE ------------------------------------------------------------- */

/* The numbers of s[0..n) into a new array (*out, *k); other bytes
 * separate them. Returns XQ_OK or XQ_ENOMEM. */
static int numbers(const char *s, size_t n, long **out, size_t *k)
{
  long *v = malloc(sizeof(long) * (n / 2 + 1));
  if (!v) return XQ_ENOMEM;
  *k = 0;
  for (size_t i = 0; i < n;) {
    if (s[i] < '0' || s[i] > '9') {
      i++;
      continue;
    }
    long x = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9' && x < 100000) x = x * 10 + (s[i++] - '0');
    v[(*k)++] = x;
  }
  *out = v;
  return XQ_OK;
}

int xq__sitegames_che_sniff(const char *s, size_t n)
{
  size_t i = 0;
  while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ' ' || s[i] == '\r' || s[i] == '\n'))
    i++;
  long *v;
  size_t k;
  if (i < n || i < 20 || numbers(s, n < 200 ? n : 200, &v, &k) != XQ_OK) return 0;
  int ok = k >= 12 && v[3] == 32 && v[9] == 0 && v[11] == 0;
  free(v);
  return ok;
}

int xq__sitegames_che_read(const char *s, size_t n, xq_record *rec, xq_error *err)
{
  xq_record_reset(rec);
  long *v;
  size_t k;
  if (numbers(s, n, &v, &k) != XQ_OK) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  int rc = XQ_OK;
  /* after the two numbers of the head, a move is ten numbers */
  for (size_t i = 2; rc == XQ_OK && i + 10 <= k; i += 10) {
    const long *g = v + i;
    if (g[1] != 32 || g[7] != 0 || g[9] != 0 || g[3] > 9 || g[4] > 8 || g[5] > 9 || g[6] > 8) {
      rc = xq_error_set(err, XQ_ENOTATION, -1, rec->n_moves + 1,
                        "CHE move %ld is not ten numbers of a move", (long)((i - 2) / 10 + 1));
      break;
    }
    rc = append(rec, XQ_MOVE(XQ_SQ(8 - (int)g[4], (int)g[3]), XQ_SQ(8 - (int)g[6], (int)g[5])),
                "CHE", err);
  }
  free(v);
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
  return rc;
}
