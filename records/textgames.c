/*
 * textgames.c -- games written as plain text, without PGN tags: numbered
 * move lists in text files and web pages (`1. 炮二平五 马８进７`, any notation
 * the engine reads, after a header of lines such as `红方：…` or `吉林洪智
 * 红先胜 上海林宏敏`), playok.com's WXF files (`FORMAT WXF`, `RED …`, then
 * the moves in `START{ … }END`) and bare UBB move lists (4 digits a move).
 * Every game starts from the standard position.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "records_internal.h"


/* ---- pages to text --------------------------------------------------- */

/* Whether the text looks like a web page. */
static int is_html(const char *s, size_t n)
{
  size_t k = n < 4096 ? n : 4096;
  for (size_t i = 0; i + 5 < k; i++)
    if (s[i] == '<' && (!strncasecmp(s + i, "<html", 5) || !strncasecmp(s + i, "<body", 5) ||
                        !strncasecmp(s + i, "<table", 6) || !strncasecmp(s + i, "<br", 3) ||
                        !strncasecmp(s + i, "<p>", 3) || !strncasecmp(s + i, "<div", 4)))
      return 1;
  return 0;
}

/* UTF-8 of code point c into out (at most 3 bytes; U+FFFD past the BMP). */
static size_t put_utf8(unsigned c, char *out)
{
  if (c > 0xFFFF) c = 0xFFFD;
  if (c < 0x80) return out[0] = (char)c, 1;
  if (c < 0x800) return out[0] = (char)(0xC0 | c >> 6), out[1] = (char)(0x80 | (c & 0x3F)), 2;
  out[0] = (char)(0xE0 | c >> 12);
  out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
  out[2] = (char)(0x80 | (c & 0x3F));
  return 3;
}

/* The entity at s[0..n) (after '&') into out: returns the bytes it took
 * (0: not an entity) and sets *k to the bytes written. */
static size_t entity(const char *s, size_t n, char *out, size_t *k)
{
  static const struct { const char *name; unsigned c; } names[] = {
    {"nbsp;", ' '}, {"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (n >= strlen(names[i].name) && !strncmp(s, names[i].name, strlen(names[i].name))) {
      *k = put_utf8(names[i].c, out);
      return strlen(names[i].name);
    }
  if (n < 3 || s[0] != '#') return 0;
  size_t i = 1;
  unsigned c = 0;
  int hex = s[1] == 'x' || s[1] == 'X';
  for (i += hex; i < n && i < 9 && s[i] != ';'; i++) {
    int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0'
            : hex && (s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f' ? (s[i] | 0x20) - 'a' + 10
                                                                  : -1;
    if (d < 0) return 0;
    c = c * (hex ? 16 : 10) + (unsigned)d;
  }
  if (i >= n || s[i] != ';') return 0;
  *k = put_utf8(c, out);
  return i + 1;
}

/* A page made text in place: scripts, styles and comments dropped, a tag
 * that breaks a line made a line break and another a space, entities
 * decoded. Returns the new length (never longer). */
static size_t html_to_text(char *s, size_t n)
{
  static const char *const skip[3][2] = {
    {"<script", "</script>"}, {"<style", "</style>"}, {"<!--", "-->"}};
  static const char *const breaks[] = {"<br", "<p", "</p", "<div", "</div", "<tr", "</tr",
                                       "<li", "<h", "</h", "<table", "</table"};
  size_t k = 0, i = 0;
  while (i < n) {
    if (s[i] == '&') {
      char u[4];
      size_t w, used = entity(s + i + 1, n - i - 1, u, &w);
      if (used) {
        memcpy(s + k, u, w);
        k += w;
        i += used + 1;
        continue;
      }
    }
    if (s[i] != '<') {
      s[k++] = s[i++];
      continue;
    }
    const char *end = ">";
    for (int j = 0; j < 3; j++)
      if (n - i >= strlen(skip[j][0]) && !strncasecmp(s + i, skip[j][0], strlen(skip[j][0])))
        end = skip[j][1];
    char c = ' ';
    for (size_t j = 0; j < sizeof breaks / sizeof breaks[0]; j++)
      if (n - i > strlen(breaks[j]) && !strncasecmp(s + i, breaks[j], strlen(breaks[j])))
        c = '\n';
    size_t e = i + 1, el = strlen(end);
    while (e + el <= n && strncasecmp(s + e, end, el)) e++;
    i = e + el <= n ? e + el : n;
    s[k++] = c;
  }
  return k;
}

int xq__textgames_prepare(char **data, size_t *len, xq_error *err)
{
  int rc = xq__text_page_utf8(data, len, err);
  if (rc == XQ_OK && is_html(*data, *len)) *len = html_to_text(*data, *len);
  return rc;
}

/* ---- lines and tokens -------------------------------------------------- */

/* The line at *at (up to its break) as [*b, *e); *at moves past it.
 * Returns 0 at the end of the text. */
static int next_line(const char *s, size_t len, size_t *at, size_t *b, size_t *e)
{
  if (*at >= len) return 0;
  *b = *at;
  const char *nl = memchr(s + *at, '\n', len - *at);
  *e = nl ? (size_t)(nl - s) : len;
  *at = nl ? *e + 1 : len;
  if (*e > *b && s[*e - 1] == '\r') (*e)--;
  return 1;
}

/* Length of the blank at s[i] (ASCII blanks, U+3000, U+00A0), 0 if none. */
static size_t blank_at(const char *s, size_t i, size_t e)
{
  unsigned char c = (unsigned char)s[i];
  if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') return 1;
  if (i + 2 < e && c == 0xE3 && (unsigned char)s[i + 1] == 0x80 && (unsigned char)s[i + 2] == 0x80)
    return 3;
  if (i + 1 < e && c == 0xC2 && (unsigned char)s[i + 1] == 0xA0) return 2;
  return 0;
}

/* The next token of s[*i..e) into tok (XQ__PGN_TOKEN_MAX + 1 bytes). Returns 0
 * when the line has none left. */
static int next_token(const char *s, size_t *i, size_t e, char *tok)
{
  size_t k;
  while (*i < e && (k = blank_at(s, *i, e))) *i += k;
  if (*i >= e) return 0;
  size_t b = *i;
  while (*i < e && !blank_at(s, *i, e)) (*i)++;
  size_t n = *i - b < XQ__PGN_TOKEN_MAX ? *i - b : XQ__PGN_TOKEN_MAX;
  memcpy(tok, s + b, n);
  tok[n] = '\0';
  return 1;
}

/* A move number at the start of tok ("12." "12..." "12、" "12．"): its
 * length, 0 when there is none. */
static size_t move_number(const char *t)
{
  size_t i = 0;
  while (t[i] >= '0' && t[i] <= '9') i++;
  if (!i) return 0;
  size_t d = i;
  for (;;) {
    if (t[i] == '.') i++;
    else if (!strncmp(t + i, "\xE3\x80\x81", 3) || !strncmp(t + i, "\xEF\xBC\x8E", 3)) i += 3;
    else break;
  }
  return i > d ? i : 0;
}

/* tok with annotation marks around it dropped (! ? ！ ？), in place. */
static char *bare(char *t)
{
  for (;;) {
    size_t n = strlen(t);
    if (n && (t[n - 1] == '!' || t[n - 1] == '?')) t[n - 1] = '\0';
    else if (n >= 3 && (!strcmp(t + n - 3, "\xEF\xBC\x81") || !strcmp(t + n - 3, "\xEF\xBC\x9F")))
      t[n - 3] = '\0';
    else break;
  }
  while (*t == '!' || *t == '?') t++;
  return t;
}

/* ---- headers ----------------------------------------------------------- */

/* A header line "key: value" (ASCII or full-width colon, or blanks for
 * playok.com's keys) as a tag; "Red 红先胜 Black" as Red, Black and the
 * result. Cannot fail. */
static void header_line(xq_record *rec, const char *s, size_t b, size_t e)
{
  static const struct { const char *key, *tag; } keys[] = {
    {"标题", "Title"},  {"对局名称", "Event"}, {"比赛名称", "Event"}, {"赛事", "Event"},
    {"日期", "Date"},   {"对局日期", "Date"},  {"地点", "Site"},     {"对局地点", "Site"},
    {"红方", "Red"},    {"黑方", "Black"},     {"结果", "Result"},   {"比赛结果", "Result"},
    {"作者", "Annotator"}, {"RED", "Red"},     {"BLACK", "Black"},   {"DATE", "Date"},
    {"EVENT", "Event"}, {"RESULT", "Result"}};
  char line[XQ_REC_TAG_VALUE_MAX];
  size_t n = e - b < sizeof line - 1 ? e - b : sizeof line - 1, i = 0;
  memcpy(line, s + b, n);
  line[n] = '\0';
  while (i < n && blank_at(line, i, n)) i += blank_at(line, i, n);
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    size_t kl = strlen(keys[k].key), v = i + kl;
    if (strncmp(line + i, keys[k].key, kl)) continue;
    if (!strncmp(line + v, "\xEF\xBC\x9A", 3)) v += 3; /* ： */
    else if (line[v] == ':') v++;
    else if (!blank_at(line, v, n)) continue;
    while (v < n && blank_at(line, v, n)) v += blank_at(line, v, n);
    char *val = line + v, *semi = strstr(val, ";;;"); /* playok.com: "Name;;;" */
    if (semi) *semi = '\0';
    size_t vl = strlen(val);
    while (vl && blank_at(val, vl - 1, vl)) val[--vl] = '\0';
    if (!vl) return;
    if (!strcmp(keys[k].tag, "Result")) rec->result = xq__text_result(val);
    else if (!xq_record_tag(rec, keys[k].tag)) xq_record_set_tag(rec, keys[k].tag, val);
    return;
  }
  /* "吉林洪智  红先胜  上海林宏敏": three fields, the middle one a result */
  char f[3][XQ__PGN_TOKEN_MAX + 1], extra[XQ__PGN_TOKEN_MAX + 1];
  size_t j = 0;
  if (!next_token(line, &j, n, f[0]) || !next_token(line, &j, n, f[1]) ||
      !next_token(line, &j, n, f[2]) || next_token(line, &j, n, extra))
    return;
  xq_result r = xq__text_result(f[1]);
  if (r == XQ_RESULT_UNKNOWN || strlen(f[1]) > 12) return;
  xq_record_set_tag(rec, "Red", f[0]);
  xq_record_set_tag(rec, "Black", f[2]);
  rec->result = r;
}

/* ---- games --------------------------------------------------------------- */

/* A game being read from the text. */
typedef struct reading {
  const char *s;
  size_t len;
  xq_record *rec;
  int number;     /* the move number expected next (Red's) */
  int ended;      /* a result or the end of the list was met */
} reading;

/* Play token t (a move, a move number, a result or annotation) in the
 * game. Returns 1 when it was read, 0 when it is no part of a move list
 * (the list ends before it), or an error for a move that does not read. */
static int play_text(reading *g, char *t, xq_error *err)
{
  xq_record *rec = g->rec;
  t = bare(t); /* playok.com marks moves before their number: "!!12." */
  size_t k = move_number(t);
  if (k) t = bare(t + k);
  if (!*t || !strcmp(t, "...") || !strcmp(t, "\xE2\x80\xA6")) return 1;
  xq_move m;
  xq_error e;
  int rc = xq_move_parse_any(&rec->end, t, &m, &e);
  if (rc == XQ_OK) {
    if (xq_record_append(rec, m) != XQ_OK)
      return xq_error_set(err, XQ_ELIMIT, -1, rec->n_moves + 1,
                          "more than %d plies in the main line", XQ_REC_PLIES_MAX);
    return 1;
  }
  xq_result r = xq_result_parse(t);
  if (r == XQ_RESULT_UNKNOWN && strlen(t) <= 12) r = xq__text_result(t);
  if (r != XQ_RESULT_UNKNOWN || !strcmp(t, "*")) {
    rec->result = r;
    g->ended = 1;
    return 1;
  }
  if (rc == XQ_ENOTATION) return 0; /* prose: the list ends here */
  return xq_error_set(err, rc, -1, rec->n_moves + 1, "ply %d: %s", rec->n_moves + 1, e.msg);
}

/* Whether line [b, e) starts a game: "1." then a move legal from the
 * standard start (the move may follow the number without a blank). */
static int starts_game(const char *s, size_t b, size_t e)
{
  char tok[XQ__PGN_TOKEN_MAX + 1];
  size_t i = b, k;
  if (!next_token(s, &i, e, tok) || !(k = move_number(tok)) || tok[0] != '1' || tok[1] == '0' ||
      (tok[1] >= '0' && tok[1] <= '9'))
    return 0;
  char *t = tok + k;
  if (!*t && !next_token(s, &i, e, t = tok)) return 0;
  xq_move m;
  return xq_move_parse_any(xq__record_startpos(), bare(t), &m, NULL) == XQ_OK;
}

/* A bare UBB move list on line [b, e): 4 digits a move (file, row, file,
 * row). Sites count rows from the top (as DhtmlXQ) or from the bottom (as
 * ICCS): the count in which every move is legal reads it; a list both
 * read as legal games is ambiguous. Returns 1, 0 when the line is no such
 * list (digits whose first move is legal in neither count are none), or
 * an error. */
/* Whether line [b, e) is a UBB list (trimmed into [*b, *e) when given). */
static int ubb_line(const char *s, size_t *pb, size_t *pe)
{
  size_t b = *pb, e = *pe;
  while (e > b && blank_at(s, e - 1, e)) e--;
  while (b < e && blank_at(s, b, e)) b += blank_at(s, b, e);
  size_t n = e - b;
  if (n < 8 || n % 4 || n / 4 > XQ_REC_PLIES_MAX) return 0;
  for (size_t i = b; i < e; i++)
    if (s[i] < '0' || s[i] > '9' || ((i - b) % 2 == 0 && s[i] == '9')) return 0;
  *pb = b;
  *pe = e;
  return 1;
}

static int is_ubb(const char *s, size_t b, size_t e)
{
  return ubb_line(s, &b, &e);
}

static int ubb_game(const char *s, size_t b, size_t e, xq_record *rec, xq_error *err)
{
  if (!ubb_line(s, &b, &e)) return 0;
  size_t n = e - b;
  int played[2];
  for (int top = 0; top < 2; top++) {
    xq_pos pos = *xq__record_startpos();
    int k = 0;
    for (size_t i = b; i < e; i += 4, k++) {
      int fr = s[i + 1] - '0', tr = s[i + 3] - '0';
      xq_move m = XQ_MOVE(XQ_SQ(s[i] - '0', top ? 9 - fr : fr), XQ_SQ(s[i + 2] - '0', top ? 9 - tr : tr));
      xq_undo u;
      if (!xq_is_legal(&pos, m)) break;
      xq_make(&pos, m, &u);
    }
    played[top] = k;
  }
  int all = (int)(n / 4);
  if (played[0] == all && played[1] == all)
    return xq_error_set(err, XQ_EAMBIGUOUS, -1, 0,
                        "UBB move list reads as two games (rows from the top and the bottom)");
  int top = played[1] > played[0];
  if (!played[top]) return 0; /* digits, but no game: a first move legal in neither count */
  if (played[top] < all)
    return xq_error_set(err, XQ_EILLEGAL, -1, played[top] + 1,
                        "ply %d: UBB move %.4s is illegal", played[top] + 1,
                        s + b + 4 * (size_t)played[top]);
  for (size_t i = b; i < e; i += 4) {
    int fr = s[i + 1] - '0', tr = s[i + 3] - '0';
    xq_record_append(rec, XQ_MOVE(XQ_SQ(s[i] - '0', top ? 9 - fr : fr),
                                  XQ_SQ(s[i + 2] - '0', top ? 9 - tr : tr)));
  }
  return 1;
}

/* The moves of a list that starts on line [b, e) (playok.com: inside
 * START{ ... }END), line after line while they read. *at is past the
 * last line used. Returns 1 or an error (*at then past the game). */
static int list_game(reading *g, size_t b, size_t e, size_t *at, int playok, xq_error *err)
{
  char tok[XQ__PGN_TOKEN_MAX + 1];
  for (int first = 1;; first = 0) {
    size_t i = b;
    int read = 0, rc = 1;
    if (!first && !playok && starts_game(g->s, b, e)) { /* the next game */
      *at = b;
      return 1;
    }
    while (rc == 1 && !g->ended && next_token(g->s, &i, e, tok)) {
      if (playok && !strcmp(tok, "}END")) g->ended = 1;
      else if ((rc = play_text(g, tok, err)) == 1) read++;
    }
    if (rc < 0) { /* skip the rest of the game: to a blank line */
      size_t lb, le;
      while (next_line(g->s, g->len, at, &lb, &le) && le > lb) {}
      return rc;
    }
    if (g->ended) return 1;
    if (!read && i < e && !playok) { /* the line is no part of the list: the next header */
      *at = b;
      return 1;
    }
    if (!next_line(g->s, g->len, at, &b, &e)) return 1;
  }
}

int xq__textgames_next(const char *s, size_t len, size_t *at, xq_record *rec, xq_error *err)
{
  size_t hb[XQ__TEXT_HEADER_LINES], he[XQ__TEXT_HEADER_LINES], b, e;
  int nh = 0, rc;
  long lines = 0;
  xq_record_reset(rec);
  while (next_line(s, len, at, &b, &e)) {
    lines++;
    reading g = {s, len, rec, 1, 0};
    int playok = e - b >= 6 && !strncmp(s + b, "START{", 6);
    if (!playok && (rc = ubb_game(s, b, e, rec, err)) == 0 && !starts_game(s, b, e)) {
      if (e > b) { /* a header line, maybe: the last XQ__TEXT_HEADER_LINES are kept */
        if (nh == XQ__TEXT_HEADER_LINES) {
          memmove(hb, hb + 1, sizeof hb[0] * (XQ__TEXT_HEADER_LINES - 1));
          memmove(he, he + 1, sizeof he[0] * (XQ__TEXT_HEADER_LINES - 1));
          nh--;
        }
        hb[nh] = b;
        he[nh++] = e;
      }
      continue;
    }
    rec->line = lines;
    for (int i = 0; i < nh; i++) header_line(rec, s, hb[i], he[i]);
    if (playok && !next_line(s, len, at, &b, &e)) break; /* the moves start on the next line */
    if (playok || rc == 0) rc = list_game(&g, b, e, at, playok, err);
    xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
    return rc;
  }
  return 0;
}

int xq__textgames_sniff(const char *head, size_t n)
{
  char *copy = malloc(n + 1);
  if (!copy) return 0;
  memcpy(copy, head, n);
  if (xq__textgames_prepare(&copy, &n, NULL) != XQ_OK) {
    free(copy);
    return 0;
  }
  size_t len = n, at = 0, b, e;
  int found = 0;
  while (!found && next_line(copy, len, &at, &b, &e)) {
    size_t i = b;
    while (i < e && blank_at(copy, i, e)) i += blank_at(copy, i, e);
    if (i < e && copy[i] == '[' && i + 1 < e && copy[i + 1] != '[') { /* PGN tags */
      found = 2;
      break;
    }
    found = (e - b >= 6 && !strncmp(copy + b, "START{", 6)) || starts_game(copy, b, e) ||
            is_ubb(copy, b, e);
  }
  free(copy);
  return found;
}
