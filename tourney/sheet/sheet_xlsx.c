/*
 * sheet_xlsx.c -- the XLSX workbook of a printed sheet: the sheet writers
 * write their tables as spool records (sheet_table.c) into memory, and
 * this file lays them out as one worksheet with libxlsxwriter: the event's
 * name and the title on top, bold headings, numbers as numbers, column
 * widths from the text widths, A4 with the headings on every page.
 *
 * libxlsxwriter writes only to a named file, so the workbook goes to a
 * mkstemp file that is read back to the caller's stream and removed.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xlsxwriter.h>

#include "sheet_internal.h"

FILE *xq__sheet_xlsx_open(xq__sheet_xlsx *x)
{
  memset(x, 0, sizeof *x);
  x->m = open_memstream(&x->buf, &x->len);
  return x->m;
}

/* ------------------------------------------------------------------ */
/* The spool                                                           */
/* ------------------------------------------------------------------ */

/* One record of the spool: its kind and its fields (pointers into the
 * spool's memory, which splitting ends in place). */
typedef struct rec {
  char kind;
  int n;
  char *field[XQ__SHEET_COLS_MAX];
} rec;

/* Split the next record off *p (NULL at the end). */
static int next_rec(char **p, rec *r)
{
  char *s = *p;
  if (!s || !*s) return 0;
  char *end = strchr(s, XQ__SHEET_SPOOL_RS);
  if (end) { *end = 0; *p = end + 1; } else { *p = NULL; }
  r->kind = s[0];
  r->n = 0;
  char *q = strchr(s, XQ__SHEET_SPOOL_US);
  while (q && r->n < XQ__SHEET_COLS_MAX) {
    *q = 0;
    r->field[r->n++] = q + 1;
    q = strchr(q + 1, XQ__SHEET_SPOOL_US);
  }
  return 1;
}

/* A cell of a number column that is a number all through ("12", "2.5",
 * "-0.5"; not "", "-", " 3" or "1-0"). */
static int number_cell(const char *cls, const char *s, double *v)
{
  if (!cls || strcmp(cls, "n") || !s[0] || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))) return 0;
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return !*end && !errno && isfinite(*v);
}

/* The worksheet's name: `title` without the characters Excel refuses,
 * at most LXW_SHEETNAME_MAX code points. */
static void sheet_name(char *buf, size_t cap, const char *title)
{
  size_t k = 0;
  int cps = 0;
  const unsigned char *p = (const unsigned char *)title;
  while (*p && cps < LXW_SHEETNAME_MAX) {
    size_t n = 1;
    while (p[n] && (p[n] & 0xc0) == 0x80) n++; /* a whole code point, or none */
    if (k + n >= cap) break;
    for (size_t i = 0; i < n; i++) buf[k++] = strchr("[]:*?/\\'", p[i]) ? ' ' : (char)p[i];
    p += n;
    cps++;
  }
  buf[k] = 0;
}

/* ------------------------------------------------------------------ */
/* The workbook                                                        */
/* ------------------------------------------------------------------ */

typedef struct book {
  lxw_workbook *wb;
  lxw_worksheet *ws;
  lxw_format *big, *bold, *head;
  int width[XQ__SHEET_COLS_MAX];
} book;

/* The widest cell of each column, headings and rows of every table. */
static void measure(book *b, char *spool)
{
  rec r;
  char *p = spool;
  while (next_rec(&p, &r)) {
    if (r.kind != 'H' && r.kind != 'R') continue;
    for (int c = 0; c < r.n; c++) {
      int w = xq__sheet_text_width(r.field[c]);
      if (w > b->width[c]) b->width[c] = w;
    }
  }
}

/* Lay the records out: event name (row 0), its dates and venue when
 * given (row 1), the first title (the next row), a
 * blank row, then each table's headings and rows, later tables after a
 * blank row and their title. Returns XQ_OK or XQ_EIO. */
static int lay_out(book *b, char *spool)
{
  rec r;
  char *p = spool, *cls[XQ__SHEET_COLS_MAX] = {0};
  int row = 0, tables = 0, ncls = 0, heads = 0;
  lxw_error e = LXW_NO_ERROR;
  while (!e && next_rec(&p, &r)) {
    if (r.kind == 'E' && r.n) {
      e = worksheet_write_string(b->ws, 0, 0, r.field[0], b->big);
      row = 1;
      if (!e && r.n > 1 && r.field[1][0]) e = worksheet_write_string(b->ws, (lxw_row_t)row++, 0, r.field[1], NULL);
    } else if (r.kind == 'T' && r.n) {
      if (tables++) row++;
      e = worksheet_write_string(b->ws, (lxw_row_t)row++, 0, r.field[0], tables > 1 ? b->bold : NULL);
      if (tables == 1) row++;
    } else if (r.kind == 'K') {
      ncls = r.n;
      for (int c = 0; c < r.n; c++) cls[c] = r.field[c];
    } else if (r.kind == 'H' || r.kind == 'R') {
      if (r.kind == 'H' && !heads++) e = worksheet_repeat_rows(b->ws, (lxw_row_t)row, (lxw_row_t)row);
      for (int c = 0; !e && c < r.n; c++) {
        double v;
        if (!r.field[c][0]) continue;
        if (r.kind == 'R' && c < ncls && number_cell(cls[c], r.field[c], &v))
          e = worksheet_write_number(b->ws, (lxw_row_t)row, (lxw_col_t)c, v, NULL);
        else
          e = worksheet_write_string(b->ws, (lxw_row_t)row, (lxw_col_t)c, r.field[c],
                                     r.kind == 'H' ? b->head : NULL);
      }
      row++;
    }
  }
  return e ? XQ_EIO : XQ_OK;
}

/* The first title of the spool, for the worksheet's name ("" if none). */
static void first_title(const char *spool, char *buf, size_t cap)
{
  buf[0] = 0;
  const char *t = spool;
  while (t && *t && !(t[0] == 'T' && t[1] == XQ__SHEET_SPOOL_US)) {
    t = strchr(t, XQ__SHEET_SPOOL_RS);
    if (t) t++;
  }
  if (!t || !*t) return;
  const char *s = t + 2, *end = strchr(s, XQ__SHEET_SPOOL_RS);
  size_t n = end ? (size_t)(end - s) : strlen(s);
  char tmp[XQ_TOURNEY_NAME_MAX + 256];
  if (n >= sizeof tmp) n = sizeof tmp - 1;
  memcpy(tmp, s, n);
  tmp[n] = 0;
  sheet_name(buf, cap, tmp);
}

/* The workbook of `spool` into file `path`. XQ_OK or XQ_EIO. */
static int write_book(char *spool, const char *path)
{
  book b;
  memset(&b, 0, sizeof b);
  char name[LXW_SHEETNAME_MAX * 4 + 1];
  first_title(spool, name, sizeof name);
  lxw_workbook_options opt = {.constant_memory = LXW_FALSE, .tmpdir = getenv("TMPDIR")};
  b.wb = workbook_new_opt(path, &opt);
  if (!b.wb) return XQ_EIO;
  if (name[0] && workbook_validate_sheet_name(b.wb, name) == LXW_NO_ERROR)
    b.ws = workbook_add_worksheet(b.wb, name);
  if (!b.ws) b.ws = workbook_add_worksheet(b.wb, NULL);
  b.big = workbook_add_format(b.wb);
  b.bold = workbook_add_format(b.wb);
  b.head = workbook_add_format(b.wb);
  int rc = b.ws && b.big && b.bold && b.head ? XQ_OK : XQ_EIO;
  if (!rc) {
    format_set_bold(b.big);
    format_set_font_size(b.big, 14);
    format_set_bold(b.bold);
    format_set_bold(b.head);
    format_set_bottom(b.head, LXW_BORDER_THIN);
    format_set_bg_color(b.head, 0xEEEEEE);
    worksheet_set_paper(b.ws, 9); /* A4 */
    worksheet_set_margins(b.ws, 0.6, 0.6, 0.7, 0.7);
    worksheet_fit_to_pages(b.ws, 1, 0);
    /* measuring splits the spool in place: measure a copy */
    char *copy = strdup(spool);
    if (!copy) rc = XQ_ENOMEM;
    else { measure(&b, copy); free(copy); }
    for (int c = 0; !rc && c < XQ__SHEET_COLS_MAX && b.width[c]; c++) {
      int w = b.width[c] > XQ__SHEET_XLSX_WIDTH_MAX ? XQ__SHEET_XLSX_WIDTH_MAX : b.width[c];
      if (worksheet_set_column(b.ws, (lxw_col_t)c, (lxw_col_t)c, w + 2, NULL)) rc = XQ_EIO;
    }
    if (!rc) rc = lay_out(&b, spool);
  }
  if (workbook_close(b.wb) != LXW_NO_ERROR && !rc) rc = XQ_EIO;
  return rc;
}

/* Copy file `path` (at most XQ_SHEET_XLSX_MAX bytes) to `out`. */
static int copy_back(const char *path, FILE *out)
{
  FILE *in = fopen(path, "rb");
  if (!in) return XQ_EIO;
  struct stat sb;
  int rc = fstat(fileno(in), &sb) ? XQ_EIO : sb.st_size > XQ_SHEET_XLSX_MAX ? XQ_ELIMIT : XQ_OK;
  char chunk[16384];
  size_t n;
  while (!rc && (n = fread(chunk, 1, sizeof chunk, in)) > 0)
    if (fwrite(chunk, 1, n, out) != n) rc = XQ_EIO;
  if (!rc && ferror(in)) rc = XQ_EIO;
  fclose(in);
  if (!rc && fflush(out)) rc = XQ_EIO;
  return rc;
}

int xq__sheet_xlsx_close(xq__sheet_xlsx *x, int rc, FILE *out)
{
  if (x->m && fclose(x->m) && !rc) rc = XQ_EIO;
  x->m = NULL;
  if (!rc && (!out || !x->buf)) rc = out ? XQ_ENOMEM : XQ_EINVAL;
  if (!rc) {
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/xqref-sheet-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
      rc = XQ_EIO;
    } else {
      close(fd);
      rc = write_book(x->buf, path);
      if (!rc) rc = copy_back(path, out);
      unlink(path);
    }
  }
  free(x->buf);
  x->buf = NULL;
  x->len = 0;
  return rc;
}
