/*
 * csv_players.c -- a list of players in a CSV file as a spreadsheet saves
 * it, read as the organiser's page reads it (web/console_players.js,
 * docs/tourney.md "Players from a CSV file"): UTF-8 with or without its
 * BOM, or GBK (GB18030) as Chinese Excel writes it; a first line of
 * headings in Chinese or English; each further line a player or the
 * reason it is not one (no name, a sex that is neither, a date that does
 * not exist, a rating that is not 0..9999, a full-width comma, a player
 * repeated in the file or registered already).
 */
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tourney_internal.h"
#include "prize.h" /* xq_regulation_entry */

/* The next code point of UTF-8 text at *p (valid UTF-8), *p moved past it. */
static unsigned next_cp(const unsigned char **p)
{
  const unsigned char *s = *p;
  int n = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : 4;
  unsigned cp = n == 1 ? *s : (unsigned)(*s & (0x7F >> n));
  for (int i = 1; i < n && s[i]; i++) cp = (cp << 6) | (s[i] & 0x3F);
  *p = s + n;
  return cp;
}

/* in[0..n) from GB18030 into a malloc'd UTF-8 string (bytes that are not
 * GB18030 stop it); NULL when iconv cannot or memory runs out. */
static char *from_gbk(const char *in, size_t n)
{
  iconv_t cd = iconv_open("UTF-8", "GB18030");
  if (cd == (iconv_t)-1) return NULL;
  size_t cap = 2 * n + 4, left = cap - 1;
  char *out = malloc(cap), *o = out, *i = (char *)in;
  size_t inleft = n;
  if (out && iconv(cd, &i, &inleft, &o, &left) == (size_t)-1) { free(out); out = NULL; }
  iconv_close(cd);
  if (out) *o = 0;
  return out;
}

/* Characters of `s` at or above U+0080 (*wide), and how many of them are
 * in [lo1, hi1] or [lo2, hi2] or [lo3, hi3] (*in). */
static void count_cps(const char *s, unsigned lo1, unsigned hi1, unsigned lo2, unsigned hi2, unsigned lo3,
                      unsigned hi3, long *wide, long *in)
{
  *wide = *in = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    unsigned cp = next_cp(&p);
    if (cp < 0x80) continue;
    (*wide)++;
    *in += (cp >= lo1 && cp <= hi1) || (cp >= lo2 && cp <= hi2) || (cp >= lo3 && cp <= hi3);
  }
}

/* Whether b[0..n) is UTF-8 text: no NUL byte, and valid UTF-8. */
static int utf8_text(const char *b, size_t n)
{
  if (memchr(b, 0, n)) return 0;
  char *c = strndup(b, n);
  int ok = c && xq_utf8_len(c) >= 0;
  free(c);
  return ok;
}

/* The bytes as UTF-8 text (malloc'd), and out->encoding, out->doubt: as
 * the page judges them. NULL when memory runs out or the bytes are
 * neither UTF-8 nor GB18030. */
static char *decode(const char *b, size_t n, xq_csv_players *out)
{
  if (n >= 3 && !memcmp(b, "\xEF\xBB\xBF", 3) && utf8_text(b + 3, n - 3)) {
    out->encoding = XQ_CSV_UTF8_BOM;
    return strndup(b + 3, n - 3);
  }
  if (!utf8_text(b, n)) {
    out->encoding = XQ_CSV_GBK;
    return memchr(b, 0, n) ? NULL : from_gbk(b, n);
  }
  out->encoding = XQ_CSV_UTF8;
  char *utf8 = strndup(b, n), *gbk = from_gbk(b, n);
  long gw = 0, common = 0, uw = 0, odd = 0;
  if (gbk) count_cps(gbk, 0x4E00, 0x9FA5, 0x3000, 0x303F, 0xFF00, 0xFFEF, &gw, &common);
  if (utf8 && gw >= 2 && common * 4 >= gw * 3) {
    /* the GBK reading is plausible Chinese: is the UTF-8 one? */
    count_cps(utf8, 0x300, 0x7FF, 1, 0, 1, 0, &uw, &odd);
    if (odd * 2 > uw) {
      out->encoding = XQ_CSV_GBK;
      free(utf8);
      return gbk;
    }
    out->doubt = 1;
  }
  free(gbk);
  return utf8;
}

/* The records of CSV text, split in place: fields on commas, "quoted"
 * fields with "" for a quote and line breaks inside; CRLF or LF; blank
 * records dropped. rec[r][f] points into `t`; nf[r] fields of record r.
 * Returns the records' count, or -1 (memory). */
static int records(char *t, char ****rec, int **nf)
{
  int n = 0, cap = 0, fcap = 0, k = 0, q = 0;
  char ***R = NULL, **cur = NULL;
  int *NF = NULL;
  char *w = t, *f = t;
  for (char *p = t;; p++) {
    int end = !*p;
    if (!end && q) {
      if (*p == '"' && p[1] == '"') *w++ = '"', p++;
      else if (*p == '"') q = 0;
      else *w++ = *p;
      continue;
    }
    if (!end && *p == '"') { q = 1; continue; }
    if (!end && *p != ',' && *p != '\n' && *p != '\r') { *w++ = *p; continue; }
    int eor = end || *p != ',';
    if (!end && *p == '\r' && p[1] == '\n') p++;
    if (k == fcap) {
      char **nc = realloc(cur, sizeof *cur * (size_t)(fcap ? 2 * fcap : 8));
      if (!nc) goto fail;
      cur = nc;
      fcap = fcap ? 2 * fcap : 8;
    }
    *w++ = 0;
    cur[k++] = f;
    f = w;
    if (eor) {
      int blank = 1;
      for (int i = 0; i < k && blank; i++) blank = !cur[i][strspn(cur[i], " \t")];
      if (!blank) {
        if (n == cap) {
          int ncap = cap ? 2 * cap : 64;
          char ***nr = realloc(R, sizeof *R * (size_t)ncap);
          if (nr) R = nr;
          int *nn = nr ? realloc(NF, sizeof *NF * (size_t)ncap) : NULL;
          if (!nn) goto fail;
          NF = nn;
          cap = ncap;
        }
        R[n] = cur;
        NF[n++] = k;
        cur = NULL;
        fcap = 0;
      }
      k = 0;
    }
    if (end) break;
  }
  free(cur);
  *rec = R;
  *nf = NF;
  return n;
fail:
  free(cur);
  for (int i = 0; i < n; i++) free(R[i]);
  free(R);
  free(NF);
  return -1;
}

/* A field trimmed of blanks at both ends, in place. */
static char *trim(char *s)
{
  s += strspn(s, " \t");
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
  return s;
}

/* The player field of a heading (XQ_CSV_COL_*), -1 for none. */
static int column_of(const char *h)
{
  static const char *const names[][7] = {
    [XQ_CSV_COL_NAME] = {"姓名", "名字", "name"},
    [XQ_CSV_COL_SEX] = {"性别", "sex", "gender"},
    [XQ_CSV_COL_BIRTH] = {"出生日期", "出生", "生日", "birth", "born", "birth date"},
    [XQ_CSV_COL_REGION] = {"地区", "省市", "region"},
    [XQ_CSV_COL_CLUB] = {"单位", "俱乐部", "club"},
    [XQ_CSV_COL_TEAM] = {"队", "队伍", "代表队", "team"},
    [XQ_CSV_COL_RATING] = {"等级分", "等级", "rating", "elo"},
    [XQ_CSV_COL_NO] = {"序号", "编号", "no", "no.", "number"},
  };
  for (int c = 0; c < XQ_CSV_COLS; c++)
    for (int i = 0; i < 7 && names[c][i]; i++)
      if (!strcasecmp(h, names[c][i])) return c;
  return -1;
}

/* A birth date as the page takes it -- YYYY, then - / . or 年, the month,
 * - / . or 月, the day, an optional 日 -- into YYYY/MM/DD. 1, or 0. */
static int birth_of(const char *s, char *out, size_t cap)
{
  static const char *const seps[2][4] = {{"-", "/", ".", "年"}, {"-", "/", ".", "月"}};
  unsigned part[3] = {0}, digits;
  for (int k = 0; k < 3; k++) {
    for (digits = 0; *s >= '0' && *s <= '9' && digits < 4; s++, digits++) part[k] = part[k] * 10 + (unsigned)(*s - '0');
    if (k == 0 ? digits != 4 : digits < 1 || digits > 2) return 0;
    if (k == 2) break;
    size_t i = 0, len = 0;
    while (i < 4 && strncmp(s, seps[k][i], len = strlen(seps[k][i]))) i++;
    if (i == 4) return 0;
    s += len;
  }
  if (!strncmp(s, "日", strlen("日"))) s += strlen("日");
  if (*s) return 0;
  snprintf(out, cap, "%04u/%02u/%02u", part[0] % 10000, part[1] % 100, part[2] % 100);
  return 1; /* a date that does not exist: xq_player_check says so */
}

/* Line `ln` (its fields f[0..nf), under the headings' columns col[]) into
 * l->player, or l->error. */
static void player_of(char **f, int nf, const int *col, int ncol, xq_csv_line *l)
{
  xq_tplayer *p = &l->player;
  memset(p, 0, sizeof *p);
  for (int i = 0; i < nf; i++)
    if (strstr(f[i], "，")) {
      snprintf(l->error, sizeof l->error, "a full-width comma '，': fields are separated by ','");
      return;
    }
  const char *v[XQ_CSV_COLS] = {0};
  for (int i = 0; i < nf && i < ncol; i++)
    if (col[i] >= 0 && *trim(f[i])) v[col[i]] = trim(f[i]);
  char *dst[XQ_CSV_COLS] = {[XQ_CSV_COL_NAME] = p->name, [XQ_CSV_COL_REGION] = p->region,
                            [XQ_CSV_COL_CLUB] = p->club, [XQ_CSV_COL_TEAM] = p->team};
  size_t cap[XQ_CSV_COLS] = {[XQ_CSV_COL_NAME] = sizeof p->name, [XQ_CSV_COL_REGION] = sizeof p->region,
                             [XQ_CSV_COL_CLUB] = sizeof p->club, [XQ_CSV_COL_TEAM] = sizeof p->team};
  const char *bad = NULL;
  int sex = v[XQ_CSV_COL_SEX] ? xq_player_sex_parse(v[XQ_CSV_COL_SEX]) : 0;
  if (sex < 0 && (!strcasecmp(v[XQ_CSV_COL_SEX], "male") || !strcasecmp(v[XQ_CSV_COL_SEX], "female")))
    sex = v[XQ_CSV_COL_SEX][0] == 'm' || v[XQ_CSV_COL_SEX][0] == 'M' ? 'm' : 'w';
  const char *r = v[XQ_CSV_COL_RATING];
  if (!v[XQ_CSV_COL_NAME]) bad = "no name";
  else if (sex < 0) bad = "the sex is 男 or 女 (m or w)";
  else if (v[XQ_CSV_COL_BIRTH] && !birth_of(v[XQ_CSV_COL_BIRTH], p->birth, sizeof p->birth))
    bad = "the birth date is not a date (1989-03-15, 1989/03/15 or 1989年3月15日)";
  else if (r && (strspn(r, "0123456789") != strlen(r) || strlen(r) > 4))
    bad = "the rating is a whole number 0..9999";
  for (int c = 0; !bad && c < XQ_CSV_COLS; c++)
    if (dst[c] && v[c] && strlen(v[c]) >= cap[c]) bad = c == XQ_CSV_COL_NAME ? "the name is too long" : "a field is too long";
    else if (dst[c] && v[c]) strcpy(dst[c], v[c]);
  if (bad) { snprintf(l->error, sizeof l->error, "%s", bad); return; }
  p->sex = (char)sex;
  p->rating = r ? atoi(r) : 0;
  xq_error err = {0};
  if (xq_player_check(p, &err)) { snprintf(l->error, sizeof l->error, "%s", err.msg); return; }
  l->ok = 1;
}

/* Lines that repeat an earlier line or a registered player of `ev` lose
 * their player for an error that names the other. */
static void mark_duplicates(xq_csv_players *out, const xq_tournament *ev)
{
  for (int i = 0; i < out->nlines; i++) {
    xq_csv_line *l = &out->lines[i];
    if (!l->ok) continue;
    int same = ev ? xq_tournament_same_player(ev, &l->player) : 0;
    for (int j = 0; !same && j < i; j++) {
      const xq_csv_line *e = &out->lines[j];
      if (e->ok && xq_player_same(&e->player, &l->player)) {
        snprintf(l->error, sizeof l->error, "the same as line %d (name, birth date and club)", e->line);
        l->ok = 0;
      }
    }
    if (same) {
      snprintf(l->error, sizeof l->error, "registered already: %d. %.100s", xq_tplayer_no(ev, same),
               ev->players[same - 1].name);
      l->ok = 0;
    }
  }
}

/* Lines the regulation of `ev` does not let into this event (a group that
 * plays its own) lose their player for its error; a missing fact that
 * decides a group is kept as the line's warning (xq_regulation_entry). */
static void check_entries(xq_csv_players *out, const xq_tournament *ev)
{
  for (int i = 0, n = ev ? ev->n : 0; ev && i < out->nlines; i++) {
    xq_csv_line *l = &out->lines[i];
    xq_error err = {0};
    if (!l->ok) continue;
    if (xq_regulation_entry(ev->name, &l->player, l->warning, sizeof l->warning, &err)) {
      snprintf(l->error, sizeof l->error, "%s", err.msg);
      l->warning[0] = '\0';
      l->ok = 0;
      continue;
    }
    /* past the regulation's entry limit: registered, with a warning */
    char full[256];
    size_t k = strlen(l->warning);
    if (xq_regulation_entry_count(ev->name, n++, full, sizeof full))
      snprintf(l->warning + k, sizeof l->warning - k, "%s%s", k ? "; " : "", full);
  }
}

/* The heading record h[0..nf) into col[] (XQ_CSV_COL_* or -1). XQ_OK, or
 * XQ_EINVAL with `err` when there is no name column or two headings name
 * one field (which of them holds it is not for the reader to guess). */
static int headings(char **h, int nf, int *col, xq_csv_players *out, xq_error *err)
{
  for (int i = 0; i < nf; i++) {
    col[i] = column_of(trim(h[i]));
    if (col[i] == XQ_CSV_COL_NO) out->file_numbers = 1;
    for (int j = 0; j < i; j++)
      if (col[i] >= 0 && col[j] == col[i])
        return xq__error(err, XQ_EINVAL, "headings %d (%.40s) and %d (%.40s) name the same field: keep one", j + 1,
                         h[j], i + 1, h[i]);
  }
  for (int i = 0; i < nf; i++)
    if (col[i] == XQ_CSV_COL_NAME) return XQ_OK;
  return xq__error(err, XQ_EINVAL, "the first line holds no heading 姓名 (or name): a line of headings comes first");
}

int xq_csv_players_read(const char *bytes, size_t len, const xq_tournament *ev, xq_csv_players *out, xq_error *err)
{
  if (!bytes || !out) return XQ_EINVAL;
  memset(out, 0, sizeof *out);
  if (len > XQ_CSV_BYTES_MAX) return xq__error(err, XQ_ELIMIT, "the file is larger than %ld bytes", XQ_CSV_BYTES_MAX);
  char *text = decode(bytes, len, out), ***rec = NULL;
  int *nf = NULL, n = text ? records(text, &rec, &nf) : -1, rc = XQ_OK;
  int *col = NULL;
  if (n < 0) rc = xq__error(err, text ? XQ_ENOMEM : XQ_EINVAL, text ? "out of memory"
                            : "the file is neither UTF-8 nor GBK text");
  else if (n == 0) rc = xq__error(err, XQ_EINVAL, "the file holds no line of headings (姓名, 性别, 出生日期, ...)");
  else if (n - 1 > XQ_TOURNEY_PLAYERS_MAX) rc = xq__error(err, XQ_ELIMIT, "more than %d players", XQ_TOURNEY_PLAYERS_MAX);
  else if (!(col = malloc(sizeof *col * (size_t)nf[0])) || !(out->lines = calloc((size_t)n, sizeof *out->lines)))
    rc = xq__error(err, XQ_ENOMEM, "out of memory");
  else rc = headings(rec[0], nf[0], col, out, err);
  for (int r = 1; !rc && r < n; r++) {
    xq_csv_line *l = &out->lines[out->nlines++];
    l->line = r + 1;
    for (int i = 0; i < nf[r] && i < nf[0]; i++)
      if (col[i] == XQ_CSV_COL_NO) snprintf(l->file_no, sizeof l->file_no, "%.15s", trim(rec[r][i]));
    player_of(rec[r], nf[r], col, nf[0], l);
  }
  if (!rc) mark_duplicates(out, ev);
  if (!rc) check_entries(out, ev);
  for (int r = 0; r < n; r++) free(rec[r]);
  free(rec);
  free(nf);
  free(col);
  free(text);
  if (rc) xq_csv_players_free(out);
  return rc;
}

void xq_csv_players_free(xq_csv_players *p)
{
  if (!p) return;
  free(p->lines);
  memset(p, 0, sizeof *p);
}

const char *xq_csv_encoding_name(int encoding)
{
  return encoding == XQ_CSV_UTF8_BOM ? "UTF-8 (BOM)" : encoding == XQ_CSV_GBK ? "GBK" : "UTF-8";
}
