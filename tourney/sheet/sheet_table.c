/*
 * sheet_table.c -- one table of a printed sheet, written as CSV (RFC
 * 4180), as a standalone HTML5 page or as aligned plain text: the cell
 * quoting, escaping and column widths every sheet shares (sheet.c,
 * sheet_final.c).
 */
#include <stdlib.h>
#include <string.h>

#include "sheet_internal.h"

/* ------------------------------------------------------------------ */
/* Cells                                                               */
/* ------------------------------------------------------------------ */

/* RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes doubled. */
static void csv_field(FILE *f, const char *s, int last)
{
  if (strpbrk(s, ",\"\r\n")) {
    fputc('"', f);
    for (; *s; s++) {
      if (*s == '"') fputc('"', f);
      fputc(*s, f);
    }
    fputc('"', f);
  } else {
    fputs(s, f);
  }
  /* RFC 4180 §2: records end with CRLF */
  fputs(last ? "\r\n" : ",", f);
}

void xq__sheet_html_text(FILE *f, const char *s)
{
  for (; *s; s++)
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default: fputc(*s, f);
    }
}

static void html_cell(FILE *f, const char *tag, const char *cls, const char *s)
{
  fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  xq__sheet_html_text(f, s);
  fprintf(f, "</%s>", tag);
}

static const char html_style[] =
  "body{font-family:\"Noto Sans CJK SC\",\"Microsoft YaHei\",\"PingFang SC\",sans-serif;"
  "margin:1.5em;color:#000;background:#fff}"
  "h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.1em;font-weight:normal;margin:0 0 1em}"
  "table{border-collapse:collapse;width:100%}"
  "th,td{border:1px solid #444;padding:.2em .5em;text-align:left}"
  "th{background:#eee}td.n{text-align:right}td.c{text-align:center}"
  "tbody tr:nth-child(even){background:#f7f7f7}"
  /* the print view: A4, the headings on every page, no row cut in two */
  "@page{size:A4;margin:14mm 12mm}"
  "@media print{body{margin:0;font-size:10.5pt}h1,h2{page-break-after:avoid;break-after:avoid}"
  "table{page-break-inside:auto}thead{display:table-header-group}"
  "tr{page-break-inside:avoid;break-inside:avoid}th{background:#ddd}"
  "th,tbody tr:nth-child(even){-webkit-print-color-adjust:exact;print-color-adjust:exact}"
  "table+h2{margin-top:1.5em}}"
  ".sign{margin-top:2em;line-height:2}.sign p{margin:0}";

/* The heading of a sheet: the event's name, else "Event". */
static const char *event_name(const xq_tournament *ev, int lang)
{
  return ev->name[0] ? ev->name : lang == XQ_LANG_ZH ? "比赛" : "Event";
}

void xq__sheet_event_line(const xq_tournament *ev, char *buf, size_t cap)
{
  const char *d = ev->info.dates, *v = ev->info.venue;
  snprintf(buf, cap, "%s%s%s", d, d[0] && v[0] ? " · " : "", v);
}

int xq__sheet_html_event_line(FILE *f, const xq_tournament *ev)
{
  char line[XQ_TOURNEY_DATES_MAX + XQ_TOURNEY_INFO_MAX + 8];
  xq__sheet_event_line(ev, line, sizeof line);
  if (!line[0]) return 0;
  fputs("<p class=\"event\">", f);
  xq__sheet_html_text(f, line);
  fputs("</p>", f);
  return 1;
}

/* "title, sub" (English) or "title sub" (Chinese); sub may be NULL. */
static void subtitle(FILE *f, int lang, const char *title, const char *sub, int html)
{
  if (html) xq__sheet_html_text(f, title); else xq__sheet_text_put(f, title);
  if (!sub || !sub[0]) return;
  fputs(lang == XQ_LANG_ZH ? " " : ", ", f);
  if (html) xq__sheet_html_text(f, sub); else xq__sheet_text_put(f, sub);
}

static void html_open(FILE *f, const xq_tournament *ev, int lang, const char *title, const char *sub)
{
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
          lang == XQ_LANG_ZH ? "zh" : "en");
  if (ev->name[0]) { xq__sheet_html_text(f, ev->name); fputs(" - ", f); }
  xq__sheet_html_text(f, title);
  fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", html_style);
  xq__sheet_html_text(f, event_name(ev, lang));
  fputs("</h1>\n", f);
  if (xq__sheet_html_event_line(f, ev)) fputc('\n', f);
  fputs("<h2>", f);
  subtitle(f, lang, title, sub, 1);
  fputs("</h2>\n<table>\n<thead><tr>", f);
}

/* One field of a spool record (sheet_internal.h): the separators in a
 * cell become spaces. */
static void spool_field(FILE *f, const char *s, int first)
{
  if (!first) fputc(XQ__SHEET_SPOOL_US, f);
  for (; *s; s++) fputc(*s == XQ__SHEET_SPOOL_RS || *s == XQ__SHEET_SPOOL_US ? ' ' : *s, f);
}

static void spool_record(FILE *f, const char *kind, int n, const char *const *cells)
{
  spool_field(f, kind, 1);
  for (int c = 0; c < n; c++) spool_field(f, cells[c] ? cells[c] : "", 0);
  fputc(XQ__SHEET_SPOOL_RS, f);
}

int xq__sheet_format_ok(int format)
{
  return format == XQ_SHEET_CSV || format == XQ_SHEET_HTML || format == XQ_SHEET_TEXT ||
         format == XQ__SHEET_SPOOL;
}

/* ------------------------------------------------------------------ */
/* Plain text                                                          */
/* ------------------------------------------------------------------ */

/* Next code point of UTF-8 `s` into *cp; returns the bytes taken (1 for
 * a byte that starts no valid sequence, taken as U+FFFD). */
static int utf8_next(const unsigned char *s, unsigned *cp)
{
  int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
        : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
  if (n == 1) { *cp = s[0]; return 1; }
  if (!n) { *cp = 0xfffd; return 1; }
  unsigned v = s[0] & (0x7f >> n);
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) { *cp = 0xfffd; return 1; }
    v = v << 6 | (s[i] & 0x3f);
  }
  *cp = v;
  return n;
}

/* Columns a code point takes on a terminal: 2 for the East Asian wide
 * and fullwidth ranges (CJK ideographs, kana, hangul, fullwidth forms,
 * CJK punctuation such as "，"), 0 for combining marks, else 1. */
static int cp_width(unsigned c)
{
  if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f)) return 0;
  if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) || (c >= 0x3041 && c <= 0x33ff) ||
      (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd))
    return 2;
  return 1;
}

int xq__sheet_text_width(const char *s)
{
  int w = 0;
  unsigned cp;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    p += utf8_next(p, &cp);
    /* control characters are printed as one space (xq__sheet_text_put) */
    w += cp < 0x20 || cp == 0x7f ? 1 : cp_width(cp);
  }
  return w;
}

void xq__sheet_text_put(FILE *f, const char *s)
{
  /* a tab or line break inside a cell would break the columns */
  for (; *s; s++) fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

static void pad(FILE *f, int n)
{
  while (n-- > 0) fputc(' ', f);
}

/* One text line: cells padded to the widths, two spaces between
 * columns, no trailing blanks. */
static void text_line(const xq__sheet *s, const char *const *cells)
{
  int owed = 0; /* spaces owed before the next visible character */
  for (int c = 0; c < s->ncols; c++) {
    int w = xq__sheet_text_width(cells[c]), room = s->width[c] - w;
    const char *cls = s->cls[c];
    int left = cls && !strcmp(cls, "n") ? room : cls && !strcmp(cls, "c") ? room / 2 : 0;
    if (c) owed += 2;
    if (cells[c][0]) {
      pad(s->f, owed + left);
      xq__sheet_text_put(s->f, cells[c]);
      owed = room - left;
    } else {
      owed += s->width[c];
    }
  }
  fputc('\n', s->f);
}

/* Keep a copy of the cells of one row (text needs every width first). */
static int keep_row(xq__sheet *s, const char *const *cells)
{
  if (s->nrows == XQ__SHEET_ROWS_MAX) return XQ_ELIMIT;
  if (s->nrows == s->cap) {
    int ncap = s->cap ? s->cap * 2 : 64;
    char **nr = realloc(s->rows, sizeof *nr * (size_t)ncap * (size_t)s->ncols);
    if (!nr) return XQ_ENOMEM;
    s->rows = nr;
    s->cap = ncap;
  }
  char **row = s->rows + (size_t)s->nrows * (size_t)s->ncols;
  for (int c = 0; c < s->ncols; c++) {
    row[c] = strdup(cells[c] ? cells[c] : "");
    if (!row[c]) {
      while (c-- > 0) free(row[c]);
      return XQ_ENOMEM;
    }
    int w = xq__sheet_text_width(row[c]);
    if (w > s->width[c]) s->width[c] = w;
  }
  s->nrows++;
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* A table                                                             */
/* ------------------------------------------------------------------ */

int xq__sheet_begin(xq__sheet *s, FILE *f, int format, int lang, const xq_tournament *ev,
                    const char *title, const char *sub, int ncols, const char *const *head,
                    const char *const *cls, int flags)
{
  if (!s) return XQ_EINVAL;
  memset(s, 0, sizeof *s);
  if (!f || !ev || !title || !head || ncols < 1 || ncols > XQ__SHEET_COLS_MAX ||
      !xq__sheet_format_ok(format) || (lang != XQ_LANG_EN && lang != XQ_LANG_ZH))
    return XQ_EINVAL;
  s->f = f;
  s->ev = ev;
  s->format = format;
  s->lang = lang;
  s->ncols = ncols;
  s->flags = flags;
  for (int c = 0; c < ncols; c++) s->cls[c] = cls ? cls[c] : NULL;
  if (format == XQ__SHEET_SPOOL) {
    char line[XQ_TOURNEY_DATES_MAX + XQ_TOURNEY_INFO_MAX + 8];
    xq__sheet_event_line(ev, line, sizeof line);
    const char *e[2] = {event_name(ev, lang), line}, *k[XQ__SHEET_COLS_MAX];
    if (!(flags & XQ__SHEET_AFTER)) spool_record(f, "E", line[0] ? 2 : 1, e);
    /* the title line as the other formats join it */
    spool_field(f, "T", 1);
    spool_field(f, title, 0);
    if (sub && sub[0]) {
      spool_field(f, lang == XQ_LANG_ZH ? " " : ", ", 1);
      spool_field(f, sub, 1);
    }
    fputc(XQ__SHEET_SPOOL_RS, f);
    for (int c = 0; c < ncols; c++) k[c] = s->cls[c] ? s->cls[c] : "";
    spool_record(f, "K", ncols, k);
    spool_record(f, "H", ncols, head);
  } else if (format == XQ_SHEET_CSV) {
    if (flags & (XQ__SHEET_AFTER | XQ__SHEET_BEFORE)) {
      /* one of several tables: a blank record between them, the title */
      if (flags & XQ__SHEET_AFTER) fputs("\r\n", f);
      csv_field(f, title, 1);
    }
    for (int c = 0; c < ncols; c++) csv_field(f, head[c], c == ncols - 1);
  } else if (format == XQ_SHEET_HTML) {
    if (flags & XQ__SHEET_AFTER) {
      fputs("<h2>", f);
      subtitle(f, lang, title, sub, 1);
      fputs("</h2>\n<table>\n<thead><tr>", f);
    } else {
      html_open(f, ev, lang, title, sub);
    }
    for (int c = 0; c < ncols; c++) html_cell(f, "th", NULL, head[c]);
    fputs("</tr></thead>\n<tbody>\n", f);
  } else {
    if (flags & XQ__SHEET_AFTER) {
      fputc('\n', f);
    } else {
      char line[XQ_TOURNEY_DATES_MAX + XQ_TOURNEY_INFO_MAX + 8];
      xq__sheet_event_line(ev, line, sizeof line);
      xq__sheet_text_put(f, event_name(ev, lang));
      fputc('\n', f);
      if (line[0]) {
        xq__sheet_text_put(f, line);
        fputc('\n', f);
      }
    }
    subtitle(f, lang, title, sub, 0);
    fputs("\n\n", f);
    if ((s->rc = keep_row(s, head))) {
      free(s->rows);
      s->rows = NULL;
    }
  }
  return s->rc;
}

int xq__sheet_row(xq__sheet *s, const char *const *cells)
{
  if (!s || !s->f || !cells) return XQ_EINVAL;
  if (s->rc) return s->rc;
  if (s->format == XQ__SHEET_SPOOL) {
    spool_record(s->f, "R", s->ncols, cells);
  } else if (s->format == XQ_SHEET_CSV) {
    for (int c = 0; c < s->ncols; c++) csv_field(s->f, cells[c] ? cells[c] : "", c == s->ncols - 1);
  } else if (s->format == XQ_SHEET_HTML) {
    fputs("<tr>", s->f);
    for (int c = 0; c < s->ncols; c++) html_cell(s->f, "td", s->cls[c], cells[c] ? cells[c] : "");
    fputs("</tr>\n", s->f);
  } else {
    s->rc = keep_row(s, cells);
  }
  return s->rc;
}

/* The signature lines under a signed sheet (XQ__SHEET_SIGN): who
 * organises it and who is its chief arbiter, where the settings name
 * them, then blanks for the chief arbiter's signature and the date. */
static void sign_lines(const xq__sheet *s)
{
  const int zh = s->lang == XQ_LANG_ZH, html = s->format == XQ_SHEET_HTML;
  const xq_tinfo *in = &s->ev->info;
  const char *who[2][2] = {{zh ? "主办单位：" : "Organiser: ", in->organiser},
                           {zh ? "裁判长：" : "Chief arbiter: ", in->arbiter}};
  const char *blank = "________________";
  fputs(html ? "<div class=\"sign\">\n" : "\n", s->f);
  for (int i = 0; i < 2; i++) {
    if (!who[i][1][0]) continue;
    fputs(html ? "<p>" : "", s->f);
    if (html) { xq__sheet_html_text(s->f, who[i][0]); xq__sheet_html_text(s->f, who[i][1]); }
    else { xq__sheet_text_put(s->f, who[i][0]); xq__sheet_text_put(s->f, who[i][1]); }
    fputs(html ? "</p>\n" : "\n", s->f);
  }
  fprintf(s->f, html ? "<p>%s%s&emsp;&emsp;%s%s</p>\n</div>\n" : "%s%s    %s%s\n",
          zh ? "裁判长签名：" : "Chief arbiter's signature: ", blank, zh ? "日期：" : "Date: ", blank);
}

int xq__sheet_end(xq__sheet *s)
{
  if (!s || !s->f) return XQ_EINVAL;
  if (s->format == XQ_SHEET_HTML) {
    fputs("</tbody>\n</table>\n", s->f);
    if (s->flags & XQ__SHEET_SIGN && !s->rc) sign_lines(s);
    if (!(s->flags & XQ__SHEET_BEFORE)) fputs("</body>\n</html>\n", s->f);
  } else if (s->format == XQ_SHEET_TEXT && !s->rc) {
    for (int r = 0; r < s->nrows; r++) {
      text_line(s, (const char *const *)(s->rows + (size_t)r * (size_t)s->ncols));
      if (r) continue;
      /* a rule under the headings, as wide as the table */
      int total = 0;
      for (int c = 0; c < s->ncols; c++) total += s->width[c] + (c ? 2 : 0);
      for (int i = 0; i < total; i++) fputc('-', s->f);
      fputc('\n', s->f);
    }
    if (s->flags & XQ__SHEET_SIGN) sign_lines(s);
  }
  for (size_t i = 0; i < (size_t)s->nrows * (size_t)s->ncols; i++) free(s->rows[i]);
  free(s->rows);
  s->rows = NULL;
  s->nrows = s->cap = 0;
  int rc = s->rc ? s->rc : ferror(s->f) ? XQ_EIO : XQ_OK;
  s->f = NULL;
  return rc;
}
