/*
 * cbf.c -- 象棋桥's CBF record: XML (UTF-8), a <Head> of named fields (the
 * start position in <FEN>) and a <MoveList> of <Move value="xy-xy"> in
 * pre-order, branch="1" on a move with a sibling and end="1" on one
 * without a continuation, comments in their content. The first <Move>
 * ("00-00") is the root and holds the game's comment. Squares are the
 * file 0-8 and the row from the top 0-9, as in DhtmlXQ.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

static const char *find(const char *s, const char *e, const char *what)
{
  size_t n = strlen(what);
  return s < e && (size_t)(e - s) >= n ? memmem(s, (size_t)(e - s), what, n) : NULL;
}

/* XML text s[0..n) with its entities and CDATA sections decoded, into
 * out (cap bytes, terminated, cut to fit). Returns the length. */
static size_t xml_text(const char *s, size_t n, char *out, size_t cap)
{
  static const struct { const char *name; char c; } ents[] = {
    {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  size_t k = 0;
  for (size_t i = 0; i < n && k + 1 < cap;) {
    if (n - i >= 9 && !memcmp(s + i, "<![CDATA[", 9)) {
      const char *e = find(s + i + 9, s + n, "]]>");
      size_t m = e ? (size_t)(e - (s + i + 9)) : n - i - 9;
      if (m > cap - 1 - k) m = cap - 1 - k;
      memcpy(out + k, s + i + 9, m);
      k += m;
      i = e ? (size_t)(e - s) + 3 : n;
      continue;
    }
    size_t j = 0;
    while (s[i] == '&' && j < sizeof ents / sizeof ents[0] &&
           (n - i < strlen(ents[j].name) || memcmp(s + i, ents[j].name, strlen(ents[j].name))))
      j++;
    if (s[i] == '&' && j < sizeof ents / sizeof ents[0]) {
      out[k++] = ents[j].c;
      i += strlen(ents[j].name);
    } else {
      out[k++] = s[i++];
    }
  }
  while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '\n' || out[k - 1] == '\r')) k--;
  out[k] = '\0';
  return k;
}

/* The text of element <name> inside b..e into out (cap bytes); 0 when
 * it is absent or empty. */
static size_t element(const char *b, const char *e, const char *name, char *out, size_t cap)
{
  char open[48], close[48];
  snprintf(open, sizeof open, "<%s>", name);
  snprintf(close, sizeof close, "</%s>", name);
  const char *p = find(b, e, open), *q;
  out[0] = '\0';
  if (!p || !(q = find(p, e, close))) return 0;
  p += strlen(open);
  return xml_text(p, (size_t)(q - p), out, cap);
}

/* The value of attribute `name` in the tag tag[0..n) (1 when present). */
static int attribute(const char *tag, size_t n, const char *name, char *out, size_t cap)
{
  char key[24];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *p = find(tag, tag + n, key), *q;
  out[0] = '\0';
  if (!p || !(q = memchr(p + strlen(key), '"', (size_t)(tag + n - p - strlen(key))))) return 0;
  p += strlen(key);
  xml_text(p, (size_t)(q - p), out, cap);
  return 1;
}

/* The head's fields as tags, the result and the start position. */
static int read_head(const char *b, const char *e, xq_record *rec, xq_error *err)
{
  static const struct { const char *xml, *tag; } fields[] = {
    {"Name", "Title"},       {"Contest", "Event"},       {"Round", "Round"},
    {"Table", "Table"},      {"Date", "Date"},           {"Site", "Site"},
    {"TimeRule", "TimeControl"}, {"Red", "Red"},         {"RedTeam", "RedTeam"},
    {"RedRating", "RedElo"}, {"Black", "Black"},         {"BlackTeam", "BlackTeam"},
    {"BlackRating", "BlackElo"}, {"Commentator", "Annotator"}, {"Creator", "Creator"},
    {"ECCO", "ECCO"}};
  char v[XQ_REC_TAG_VALUE_MAX];
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (element(b, e, fields[i].xml, v, sizeof v)) xq_record_set_tag(rec, fields[i].tag, v);
  static const xq_result results[4] = {XQ_RESULT_UNKNOWN, XQ_RESULT_RED_WINS,
                                       XQ_RESULT_BLACK_WINS, XQ_RESULT_DRAW};
  element(b, e, "RecordResult", v, sizeof v);
  rec->result = v[0] >= '0' && v[0] <= '3' && !v[1] ? results[v[0] - '0'] : XQ_RESULT_UNKNOWN;
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
  if (!element(b, e, "FEN", v, sizeof v)) return XQ_OK;
  xq_error why;
  if (xq_fen_parse(&rec->start, v, 0, &why) != XQ_OK)
    return xq_error_set(err, XQ_EFEN, -1, 0, "bad CBF FEN: %s", why.msg);
  rec->end = rec->start;
  return XQ_OK;
}

/* One <Move ...> at *p (before e): its square text, flags and content;
 * *p moves past it. Returns 1, or 0 when no move is left. */
typedef struct cbf_move {
  char value[16];
  int branch, end;
  const char *content;
  size_t clen;
} cbf_move;

static int next_move(const char **p, const char *e, cbf_move *m)
{
  const char *t = *p;
  while ((t = find(t, e, "<Move")) && t[5] != ' ' && t[5] != '/' && t[5] != '>') t += 5;
  if (!t) return 0;
  const char *te = memchr(t, '>', (size_t)(e - t));
  if (!te) return 0;
  char flag[8];
  attribute(t, (size_t)(te - t), "value", m->value, sizeof m->value);
  m->branch = attribute(t, (size_t)(te - t), "branch", flag, sizeof flag) && flag[0] == '1';
  m->end = attribute(t, (size_t)(te - t), "end", flag, sizeof flag) && flag[0] == '1';
  m->content = NULL;
  m->clen = 0;
  *p = te + 1;
  if (te[-1] == '/') return 1; /* <Move ... /> */
  const char *close = find(*p, e, "</Move>");
  if (!close) close = e;
  m->content = *p;
  m->clen = (size_t)(close - *p);
  *p = close < e ? close + 7 : e;
  return 1;
}

/* The comment of a move's content onto the tree's last node. */
static int move_comment(xq__tree *t, const cbf_move *m)
{
  if (!m->clen) return XQ_OK;
  char *buf = malloc(m->clen + 1);
  if (!buf) return XQ_ENOMEM;
  size_t n = xml_text(m->content, m->clen, buf, m->clen + 1);
  int rc = xq__tree_comment(t, buf, n);
  free(buf);
  return rc;
}

int xq__cbf_read(const char *text, size_t len, xq_record *rec, xq_error *err)
{
  const char *e = text + len;
  xq_record_reset(rec);
  const char *h = find(text, e, "<Head>"), *he = h ? find(h, e, "</Head>") : NULL;
  const char *ml = find(text, e, "<MoveList"), *mle = ml ? find(ml, e, "</MoveList>") : NULL;
  if (!find(text, e, "<ChineseChessRecord") || !ml)
    return xq_error_set(err, XQ_ENOTATION, 0, 0, "not a CBF record (no <MoveList>)");
  int rc = h && he ? read_head(h, he, rec, err) : XQ_OK;
  if (rc != XQ_OK) return rc;
  if (!mle) mle = e;
  const char *p = ml;
  cbf_move m;
  xq__tree t;
  int root = next_move(&p, mle, &m);
  xq__tree_start(&t, rec, root && !m.end);
  if (root) rc = move_comment(&t, &m);
  while (rc == XQ_OK && xq__tree_next(&t)) {
    if (!next_move(&p, mle, &m)) {
      xq__record_warn(rec, "CBF move list ends before its last branch: read as far as it goes");
      break;
    }
    const char *v = m.value;
    int ok = strlen(v) == 5 && v[2] == '-';
    for (int i = 0; ok && i < 5; i++) ok = i == 2 || (v[i] >= '0' && v[i] <= '9');
    if (!ok || v[0] > '8' || v[3] > '8') {
      rc = xq_error_set(err, XQ_ENOTATION, -1, t.plies, "CBF move \"%.15s\" is not xy-xy", v);
      break;
    }
    xq_move mv = XQ_MOVE(XQ_SQ(v[0] - '0', 9 - (v[1] - '0')), XQ_SQ(v[3] - '0', 9 - (v[4] - '0')));
    if ((rc = xq__tree_move(&t, mv, !m.end, m.branch, -1, err)) == XQ_OK) rc = move_comment(&t, &m);
  }
  if (rc == XQ_ENOMEM) xq_error_set(err, rc, -1, 0, "out of memory");
  xq__tree_end(&t);
  if (rc != XQ_OK) return rc;
  xq_record_pack(rec);
  return XQ_OK;
}
