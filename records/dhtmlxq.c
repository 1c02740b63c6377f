/*
 * dhtmlxq.c -- DhtmlXQ, the dpxq.com web record (docs/records.md, "DhtmlXQ"): reader
 * and writer. Squares are two digits "xy", x the file 0-8 from Red's left
 * and y the row 0-9 from the top (ICCS rank = 9 - y). Variations are
 * [DhtmlXQ_move_B_S_N]: branch N leaving branch B at step S, steps being
 * ply numbers counted from the start of the game (1 = first move).
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"


/* Tag names kept as PGN tags. */
static const struct {
  const char *dhtml, *pgn;
} tag_map[] = {{"title", "Title"},       {"event", "Event"},         {"date", "Date"},
               {"place", "Site"},        {"round", "Round"},         {"table", "Table"},
               {"red", "Red"},           {"redteam", "RedTeam"},     {"redrating", "RedElo"},
               {"black", "Black"},       {"blackteam", "BlackTeam"}, {"blackrating", "BlackElo"},
               {"remark", "Remark"},     {"author", "Annotator"},    {"timerule", "TimeControl"}};

static const char *find(const char *s, const char *end, const char *what)
{
  size_t n = strlen(what);
  if ((size_t)(end - s) < n) return NULL;
  return memmem(s, (size_t)(end - s), what, n);
}

/* One tag of the block. */
typedef struct dtag {
  char name[XQ__DHTMLXQ_NAME_MAX];
  const char *v;
  size_t n;
} dtag;

/* Moves of a 4-digit list: xyxy... Returns the count or -1 (bad text). */
static int decode_moves(const char *s, size_t n, xq_move *out, int max)
{
  int k = 0;
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\r' || s[i] == '\n' || s[i] == '\t')) i++;
  while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n' || s[n - 1] == '\t'))
    n--;
  if ((n - i) % 4) return -1;
  for (; i < n; i += 4) {
    for (int j = 0; j < 4; j++)
      if (s[i + j] < '0' || s[i + j] > '9') return -1;
    int fx = s[i] - '0', fy = s[i + 1] - '0', tx = s[i + 2] - '0', ty = s[i + 3] - '0';
    if (fx > 8 || tx > 8) return -1;
    if (k >= max) return -2;
    out[k++] = XQ_MOVE(XQ_SQ(fx, 9 - fy), XQ_SQ(tx, 9 - ty));
  }
  return k;
}

/* A branch found in the block, before it is attached. */
typedef struct branch {
  int base, step, num;
  const char *v;
  size_t n;
  int line; /* record line once attached, -1 before, -2 left out */
} branch;

typedef struct line_info {
  int num;      /* branch number in the file */
  int step;     /* step of its first move */
  xq_pos start; /* position before its first move */
} line_info;

/* A block being read: its text, the branches (grown with the block, at
 * most XQ_DHTMLXQ_BRANCHES_MAX), a line_info for each record line, and the
 * repairs made to keep the game. */
typedef struct block {
  const char *b, *e; /* the block's text */
  xq_record *rec;
  branch *br;
  int nb, bcap;
  line_info *li;
  xq_move *moves;    /* scratch: a branch's moves, XQ_REC_PLIES_MAX */
  int dropped;       /* comments left out past the record's limits */
  int over_limit;    /* branches left out past the variation limits */
} block;

/* The next tag from *p (before b->e): [DhtmlXQ_name]value, the value up to
 * the next '[' (so a mismatched closing tag does no harm). Returns 1 with
 * *d filled and *p past the value, 0 when no tag is left. */
static int next_tag(const block *bk, const char **p, dtag *d)
{
  for (;;) {
    const char *t = find(*p, bk->e, "[DhtmlXQ_");
    if (!t) return 0;
    const char *ne = t + 9;
    while (ne < bk->e && *ne != ']' && *ne != '[' && ne - t < XQ__DHTMLXQ_NAME_MAX + 9) ne++;
    if (ne >= bk->e || *ne != ']' || ne - (t + 9) >= XQ__DHTMLXQ_NAME_MAX) {
      *p = t + 9;
      continue;
    }
    const char *v = ne + 1, *ve = v;
    while (ve < bk->e && *ve != '[') ve++;
    memcpy(d->name, t + 9, (size_t)(ne - (t + 9)));
    d->name[ne - (t + 9)] = '\0';
    d->v = v;
    d->n = (size_t)(ve - v);
    *p = ve;
    return 1;
  }
}

/* The last tag of the block called `name` into *d. Returns 1, or 0 when
 * there is none. */
static int last_tag(const block *bk, const char *name, dtag *d)
{
  const char *p = bk->b;
  dtag t;
  int found = 0;
  while (next_tag(bk, &p, &t))
    if (!strcmp(t.name, name)) {
      *d = t;
      found = 1;
    }
  return found;
}

#define FW_OPEN "\xEF\xBC\xBB"  /* ［: the writer's '[' (put_tag) */
#define FW_CLOSE "\xEF\xBC\xBD" /* ］: its ']' */

/* A comment's text v[0..n) onto `line` after `after` moves: "||" a line
 * break, and a PGN comment command the writer put as "［%clk ...］" read
 * as "[%clk ...]" again. */
static int add_text_comment(block *bk, int line, int after, const char *v, size_t n)
{
  /* at most XQ_REC_COMMENT_MAX bytes are kept; "||" only shrinks */
  size_t cap = n < XQ_REC_COMMENT_MAX ? n : XQ_REC_COMMENT_MAX;
  if (cap == 0) return XQ_OK;
  char *buf = malloc(cap);
  if (!buf) return XQ_ENOMEM;
  size_t k = 0;
  int command = 0; /* inside a PGN comment command such as "［%clk 1:29:51］" */
  for (size_t i = 0; i < n && k < cap; i++) {
    if (v[i] == '|' && i + 1 < n && v[i + 1] == '|') { /* "||" is a line break */
      buf[k++] = '\n';
      i++;
      command = 0;
    } else if (i + 3 < n && !memcmp(v + i, FW_OPEN "%", 4)) {
      /* the writer's ［% (put_tag): the PGN command's '[' again */
      buf[k++] = '[';
      i += 2;
      command = 1;
    } else if (command && i + 2 < n && !memcmp(v + i, FW_CLOSE, 3)) {
      buf[k++] = ']';
      i += 2;
      command = 0;
    } else {
      buf[k++] = v[i];
    }
  }
  while (k > 0 && (buf[k - 1] == ' ' || buf[k - 1] == '\n')) k--;
  int rc = k == 0 ? XQ_OK : xq__text_add_comment_or_drop(bk->rec, line, after, buf, k, &bk->dropped);
  free(buf);
  return rc;
}

/* Play moves[0..k) onto `line` from `pos`, each checked. Returns how many
 * were played: k, or fewer when one is illegal (*why says which) or the
 * record is full (*why = XQ_ELIMIT). */
static int play_moves(xq_record *rec, int line, xq_pos pos, const xq_move *moves, int k,
                      int *why)
{
  *why = XQ_OK;
  for (int i = 0; i < k; i++) {
    xq_undo u;
    if (!xq_is_legal(&pos, moves[i])) {
      *why = XQ_EILLEGAL;
      return i;
    }
    if (xq_record_add_line_move(rec, line, moves[i]) != XQ_OK) {
      *why = XQ_ELIMIT;
      return i;
    }
    xq_make(&pos, moves[i], &u);
    if (line == 0) rec->end = pos;
  }
  return k;
}

/* Text of move m as "xyxy (ICCS)" for messages. */
static void move_name(xq_move m, char *out, size_t cap)
{
  int f = XQ_FROM(m), t = XQ_TO(m);
  snprintf(out, cap, "%d%d%d%d (%c%d%c%d)", XQ_FILE(f), 9 - XQ_RANK(f), XQ_FILE(t),
           9 - XQ_RANK(t), 'a' + XQ_FILE(f), XQ_RANK(f), 'a' + XQ_FILE(t), XQ_RANK(t));
}

/* The main line (movelist) from `start`: every move must be legal. */
static int play_main(block *bk, xq_pos start, const dtag *movelist, xq_error *err)
{
  int k = decode_moves(movelist->v, movelist->n, bk->moves, XQ_REC_PLIES_MAX), why;
  if (k < 0)
    return xq_error_set(err, k == -2 ? XQ_ELIMIT : XQ_ENOTATION, -1, 0,
                        k == -2 ? "more than %d plies in the main line"
                                : "DhtmlXQ movelist is not a list of 4-digit squares",
                        XQ_REC_PLIES_MAX);
  int played = play_moves(bk->rec, 0, start, bk->moves, k, &why);
  if (played == k) return XQ_OK;
  char mv[32];
  move_name(bk->moves[played], mv, sizeof mv);
  return xq_error_set(err, why, -1, played + 1, "ply %d: %s is illegal", played + 1, mv);
}

/* The start position into *start: the standard one, or binit's pieces
 * with the side to move told by the colour of the first moved piece, or
 * without moves by firstnum (0 = Red moves first), or without either by
 * the position (Red unless only Black to move is legal). Returns XQ_OK or
 * XQ_EFEN. */
static int read_start(const block *bk, xq_pos *start, xq_error *err)
{
  dtag binit, movelist = {.v = NULL}, firstnum;
  int sq[32];
  *start = *xq__record_startpos();
  if (!last_tag(bk, "binit", &binit) || !binit.n) return XQ_OK;
  size_t n = binit.n;
  while (n && (binit.v[n - 1] == ' ' || binit.v[n - 1] == '\n' || binit.v[n - 1] == '\r')) n--;
  if (n != 64)
    return xq_error_set(err, XQ_EFEN, -1, 0, "DhtmlXQ binit has %zu characters, not 64", n);
  for (int i = 0; i < 32; i++) {
    char x = binit.v[2 * i], y = binit.v[2 * i + 1];
    if (x < '0' || x > '9' || y < '0' || y > '9')
      return xq_error_set(err, XQ_EFEN, -1, 0, "DhtmlXQ binit holds a non-digit");
    sq[i] = x == '9' && y == '9' ? -1 : x > '8' ? 999 : XQ_SQ(x - '0', 9 - (y - '0'));
  }
  int side = XQ__SIDE_EITHER;
  xq_move first[1];
  if (last_tag(bk, "movelist", &movelist) &&
      decode_moves(movelist.v, movelist.n < 4 ? movelist.n : 4, first, 1) == 1) {
    side = XQ_RED;
    for (int i = 16; i < 32; i++)
      if (sq[i] == XQ_FROM(first[0])) side = XQ_BLACK;
  } else if (last_tag(bk, "firstnum", &firstnum) && firstnum.n) {
    side = firstnum.v[0] == '1' ? XQ_BLACK : XQ_RED;
  }
  xq_error why;
  if (xq__text_pos_from_slots(sq, side, start, &why) != XQ_OK)
    return xq_error_set(err, XQ_EFEN, -1, 0, "bad DhtmlXQ binit: %s", why.msg);
  return XQ_OK;
}

/* The branch tags move_B_S_N into bk->br (at most XQ_DHTMLXQ_BRANCHES_MAX;
 * malformed names and those past the limit are left out with a warning).
 * Returns XQ_OK or XQ_ENOMEM. */
static int collect_branches(block *bk, xq_error *err)
{
  const char *p = bk->b;
  dtag t;
  while (next_tag(bk, &p, &t)) {
    int base, step, num, used;
    if (strncmp(t.name, "move_", 5)) continue;
    if (sscanf(t.name + 5, "%d_%d_%d%n", &base, &step, &num, &used) != 3 ||
        t.name[5 + used] || num <= 0 || step <= 0 || base < 0) {
      xq__record_warn(bk->rec, "DhtmlXQ branch tag %s is malformed: left out", t.name);
      continue;
    }
    if (bk->nb == XQ_DHTMLXQ_BRANCHES_MAX) {
      xq__record_warn(bk->rec, "DhtmlXQ branches past the first %d left out", XQ_DHTMLXQ_BRANCHES_MAX);
      break;
    }
    if (bk->nb == bk->bcap) {
      int nc = bk->bcap ? bk->bcap * 2 : 64;
      branch *q = realloc(bk->br, sizeof(branch) * (size_t)nc);
      if (!q) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
      bk->br = q;
      bk->bcap = nc;
    }
    bk->br[bk->nb++] = (branch){base, step, num, t.v, t.n, -1};
  }
  return XQ_OK;
}

/* Attach branch *b to record line `parent` (attached): its moves played
 * from where it leaves the parent. A branch that does not fit the record
 * or goes wrong is cut before its bad move, or left out when that is its
 * first, with a warning. Cannot fail. */
static void attach_one(block *bk, branch *b, int parent)
{
  xq_record *rec = bk->rec;
  const xq_move *pm;
  int pn, why;
  char mv[32];
  b->line = -2; /* left out unless attached below */
  xq_record_line(rec, parent, &pm, &pn);
  int at = b->step - bk->li[parent].step;
  if (at < 0 || at >= pn) {
    xq__record_warn(rec, "DhtmlXQ branch %d leaves branch %d at step %d, which it does not have: "
                 "left out", b->num, b->base, b->step);
    return;
  }
  int k = decode_moves(b->v, b->n, bk->moves, XQ_REC_PLIES_MAX);
  if (k <= 0) {
    if (k < 0) xq__record_warn(rec, "DhtmlXQ branch %d is not a list of moves: left out", b->num);
    return;
  }
  xq_pos pos = bk->li[parent].start;
  xq_undo u;
  for (int i = 0; i < at; i++) xq_make(&pos, pm[i], &u);
  if (!xq_is_legal(&pos, bk->moves[0])) {
    move_name(bk->moves[0], mv, sizeof mv);
    xq__record_warn(rec, "DhtmlXQ branch %d: its first move %s is illegal: left out", b->num, mv);
    return;
  }
  int line = xq_record_add_variation(rec, parent, at);
  if (line < 0) {
    if (bk->over_limit++ == 0)
      xq__record_warn(rec, "variations left out: more than %d variations or nested %d deep",
                   XQ_REC_VARS_MAX, XQ_REC_VAR_DEPTH_MAX);
    return;
  }
  bk->li[line] = (line_info){b->num, b->step, pos};
  b->line = line;
  int played = play_moves(rec, line, pos, bk->moves, k, &why);
  xq_record_pack(rec);
  if (played == k) return;
  if (why == XQ_ELIMIT) {
    if (bk->over_limit++ == 0)
      xq__record_warn(rec, "variations cut: more than %d variation moves", XQ_REC_VAR_MOVES_MAX);
    return;
  }
  move_name(bk->moves[played], mv, sizeof mv);
  xq__record_warn(rec, "DhtmlXQ branch %d cut before its illegal move %s at step %d", b->num, mv,
               b->step + played);
}

/* Attach each branch once the branch it leaves is there; li[0] is the
 * main line, li[l] gets line l. A branch whose base never comes is left
 * out with a warning. Cannot fail. */
static void attach_branches(block *bk)
{
  for (int attached = 1; attached;) {
    attached = 0;
    for (int i = 0; i < bk->nb; i++) {
      branch *b = &bk->br[i];
      if (b->line != -1) continue;
      int parent = -1;
      for (int l = 0; l <= bk->rec->n_vars; l++)
        if (bk->li[l].num == b->base) parent = l;
      if (parent < 0) continue;
      attach_one(bk, b, parent);
      attached = 1;
    }
  }
  for (int i = 0; i < bk->nb; i++)
    if (bk->br[i].line == -1)
      xq__record_warn(bk->rec, "DhtmlXQ branch %d leaves branch %d, which is not there: left out",
                   bk->br[i].num, bk->br[i].base);
}

/* A commentS (main line, after S moves) or commentB_S (branch B, after
 * its step S) tag onto its line; comments on a missing branch or of
 * another form are skipped, those past the record's limits left out with
 * a warning. Returns XQ_OK or XQ_ENOMEM. */
static int read_comment(block *bk, const dtag *d, xq_error *err)
{
  int a, c, used = 0, line = 0, after;
  if (sscanf(d->name + 7, "%d_%d%n", &a, &c, &used) == 2 && !d->name[7 + used]) {
    line = -1;
    for (int l = 0; l <= bk->rec->n_vars; l++)
      if (bk->li[l].num == a) line = l;
    if (line < 0) return XQ_OK; /* a comment on a branch that is not there */
    after = c - bk->li[line].step + 1;
  } else if (sscanf(d->name + 7, "%d%n", &a, &used) == 1 && !d->name[7 + used]) {
    after = a;
  } else {
    return XQ_OK;
  }
  if (after < 0) return XQ_OK;
  if (add_text_comment(bk, line, after, d->v, d->n) != XQ_OK)
    return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  return XQ_OK;
}

/* A tag other than a comment: the result, the opening (ECCO code and
 * name) or one of tag_map as a PGN tag; blank and unknown ones are
 * skipped. Cannot fail. */
static void read_info_tag(xq_record *rec, const dtag *d)
{
  char value[XQ_REC_TAG_VALUE_MAX];
  size_t n = d->n < sizeof value - 1 ? d->n : sizeof value - 1;
  memcpy(value, d->v, n);
  value[n] = '\0';
  while (n && (value[n - 1] == ' ' || value[n - 1] == '\n' || value[n - 1] == '\r')) value[--n] = '\0';
  if (!n) return;
  if (!strcmp(d->name, "result")) {
    rec->result = xq__text_result(value);
    return;
  }
  if (!strcmp(d->name, "open")) {
    /* "D29 顺炮直车对横车": the ECCO code, then the opening's name */
    char *sp = strchr(value, ' ');
    if (n >= 3 && value[0] >= 'A' && value[0] <= 'E' && sp == value + 3) {
      *sp = '\0';
      xq_record_set_tag(rec, "ECCO", value);
      if (sp[1]) xq_record_set_tag(rec, "Opening", sp + 1);
    } else {
      xq_record_set_tag(rec, "Opening", value);
    }
    return;
  }
  for (size_t k = 0; k < sizeof tag_map / sizeof tag_map[0]; k++)
    if (!strcmp(d->name, tag_map[k].dhtml)) {
      if (!strcmp(tag_map[k].pgn, "Date"))
        for (char *q = value; *q; q++)
          if (*q == '-') *q = '.';
      xq_record_set_tag(rec, tag_map[k].pgn, value);
    }
}

/* The first block of text[0..len): from "[DhtmlXQ]" or "[DhtmlXQiFrame]"
 * (the form dpxq.com pages carry in an iframe's name) to its closing tag,
 * or to the next block's start, or to the end. Returns its start (NULL:
 * none) and sets *body past the opening tag, *e at its end and *next past
 * the closing tag. */
static const char *find_block(const char *text, size_t len, const char **body, const char **e,
                              const char **next)
{
  static const char *const opens[2] = {"[DhtmlXQ]", "[DhtmlXQiFrame]"};
  static const char *const closes[2] = {"[/DhtmlXQ]", "[/DhtmlXQiFrame]"};
  const char *end = text + len, *b = NULL;
  for (int i = 0; i < 2; i++) {
    const char *p = find(text, end, opens[i]);
    if (p && (!b || p < b)) {
      b = p;
      *body = p + strlen(opens[i]);
    }
  }
  if (!b) return NULL;
  *e = *next = end;
  for (int i = 0; i < 2; i++) {
    const char *p = find(*body, *e, opens[i]);
    if (p) *e = *next = p;
    p = find(*body, *e, closes[i]);
    if (p) {
      *e = p;
      *next = p + strlen(closes[i]);
    }
  }
  return b;
}

/* Read the block bk->b..bk->e into bk->rec. Returns 1 or an error. */
static int read_block(block *bk, xq_error *err)
{
  xq_record *rec = bk->rec;
  const char *p;
  dtag t, movelist;
  xq_pos start;
  int rc;
  if ((rc = read_start(bk, &start, err)) != XQ_OK) return rc;
  rec->start = start;
  rec->end = start;
  if (last_tag(bk, "movelist", &movelist) && (rc = play_main(bk, start, &movelist, err)) != XQ_OK)
    return rc;
  if ((rc = collect_branches(bk, err)) != XQ_OK) return rc;
  /* the main line and a line for each branch (a position each: sized to
   * the block, not to XQ_REC_VARS_MAX) */
  if (!(bk->li = malloc(sizeof(line_info) * (size_t)(bk->nb + 1))))
    return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  bk->li[0] = (line_info){0, 1, start};
  attach_branches(bk);
  /* Comments and the other tags. */
  for (p = bk->b; next_tag(bk, &p, &t);) {
    if (strncmp(t.name, "comment", 7)) read_info_tag(rec, &t);
    else if ((rc = read_comment(bk, &t, err)) != XQ_OK) return rc;
  }
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
  xq_record_pack(rec);
  return 1;
}

int xq_dhtmlxq_read(const char *text, size_t len, xq_record *rec, size_t *consumed, xq_error *err)
{
  if (consumed) *consumed = len;
  if (!text || !rec) return xq_error_set(err, XQ_EINVAL, -1, 0, "NULL argument");
  xq_record_reset(rec);
  block bk = {0};
  const char *next;
  const char *b = find_block(text, len, &bk.b, &bk.e, &next);
  if (!b) return 0;
  if (consumed) *consumed = (size_t)(next - text);
  rec->line = 1;
  for (const char *p = text; p < b; p++) rec->line += *p == '\n';

  bk.rec = rec;
  int rc;
  if (!(bk.moves = malloc(sizeof(xq_move) * XQ_REC_PLIES_MAX)))
    rc = xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  else
    rc = read_block(&bk, err);
  free(bk.moves);
  free(bk.br);
  free(bk.li);
  return rc;
}

/* ---- writer --------------------------------------------------------- */

static void put_tag(FILE *out, const char *name, const char *value)
{
  if (!value || !*value) return;
  fprintf(out, "[DhtmlXQ_%s]", name);
  for (const char *p = value; *p; p++) {
    if (*p == '[') fputs(FW_OPEN, out); /* '[' would start a tag */
    else if (*p == ']') fputs(FW_CLOSE, out);
    else if (*p == '\n') fputs("||", out);
    else if (*p != '\r') fputc(*p, out);
  }
  fprintf(out, "[/DhtmlXQ_%s]\n", name);
}

static void put_moves(FILE *out, const xq_move *m, int n)
{
  for (int i = 0; i < n; i++) {
    int f = XQ_FROM(m[i]), t = XQ_TO(m[i]);
    fprintf(out, "%d%d%d%d", XQ_FILE(f), 9 - XQ_RANK(f), XQ_FILE(t), 9 - XQ_RANK(t));
  }
}

int xq_dhtmlxq_write(FILE *out, xq_record *rec, xq_error *err)
{
  static const char *const results[4] = {"\xE6\x9C\xAA\xE7\x9F\xA5", /* 未知 */
                                         "\xE7\xBA\xA2\xE8\x83\x9C", /* 红胜 */
                                         "\xE9\xBB\x91\xE8\x83\x9C", /* 黑胜 */
                                         "\xE5\x92\x8C\xE6\xA3\x8B"}; /* 和棋 */
  char buf[XQ_REC_TAG_VALUE_MAX * 2];
  int sq[32];

  if (!out || !rec) return xq_error_set(err, XQ_EINVAL, -1, 0, "NULL argument");
  xq_record_pack(rec);
  fputs("[DhtmlXQ]\n", out);
  put_tag(out, "ver", "www_dpxq_com");
  const char *title = xq_record_tag(rec, "Title");
  const char *red = xq_record_tag(rec, "Red"), *black = xq_record_tag(rec, "Black");
  if (!title && red && black) {
    snprintf(buf, sizeof buf, "%s vs %s", red, black);
    title = buf;
  }
  put_tag(out, "title", title);
  for (size_t k = 0; k < sizeof tag_map / sizeof tag_map[0]; k++) {
    if (!strcmp(tag_map[k].dhtml, "title")) continue;
    const char *v = xq_record_tag(rec, tag_map[k].pgn);
    if (!v) continue;
    if (!strcmp(tag_map[k].pgn, "Date")) {
      char d[XQ_REC_TAG_VALUE_MAX];
      snprintf(d, sizeof d, "%s", v);
      for (char *q = d; *q; q++)
        if (*q == '.') *q = '-';
      put_tag(out, "date", d);
    } else {
      put_tag(out, tag_map[k].dhtml, v);
    }
  }
  put_tag(out, "result", results[rec->result]);
  const char *ecco = xq_record_tag(rec, "ECCO"), *open = xq_record_tag(rec, "Opening");
  if (ecco || open) {
    char o[XQ_REC_TAG_VALUE_MAX * 2 + 2];
    snprintf(o, sizeof o, "%s%s%s", ecco ? ecco : "", ecco && open ? " " : "", open ? open : "");
    put_tag(out, "open", o);
  }

  xq__text_slots_from_pos(&rec->start, sq);
  fputs("[DhtmlXQ_binit]", out);
  for (int i = 0; i < 32; i++) {
    if (sq[i] < 0) fputs("99", out);
    else fprintf(out, "%d%d", XQ_FILE(sq[i]), 9 - XQ_RANK(sq[i]));
  }
  fputs("[/DhtmlXQ_binit]\n", out);
  fputs("[DhtmlXQ_movelist]", out);
  put_moves(out, rec->moves, rec->n_moves);
  fputs("[/DhtmlXQ_movelist]\n", out);

  /* Steps of each line's first move, from the start of the game. */
  int *step = malloc(sizeof(int) * (size_t)(rec->n_vars + 1));
  if (!step) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  step[0] = 1;
  for (int v = 0; v < rec->n_vars; v++) {
    const xq_variation *x = &rec->vars[v];
    step[v + 1] = step[x->parent] + x->at; /* parents come before children */
    fprintf(out, "[DhtmlXQ_move_%d_%d_%d]", x->parent, step[v + 1], v + 1);
    put_moves(out, rec->var_moves + x->first, x->n);
    fprintf(out, "[/DhtmlXQ_move_%d_%d_%d]\n", x->parent, step[v + 1], v + 1);
  }
  for (int i = 0; i < rec->n_comments; i++) {
    const xq_comment *c = &rec->comments[i];
    char name[48], *text = malloc(c->len + 1);
    if (!text) {
      free(step);
      return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
    }
    memcpy(text, rec->text + c->off, c->len);
    text[c->len] = '\0';
    if (c->line == 0) snprintf(name, sizeof name, "comment%d", c->after);
    else snprintf(name, sizeof name, "comment%d_%d", c->line, step[c->line] + c->after - 1);
    put_tag(out, name, text);
    free(text);
  }
  free(step);
  put_tag(out, "firstnum", rec->start.side == XQ_BLACK ? "1" : "0");
  put_tag(out, "generator", "xqref");
  fputs("[/DhtmlXQ]\n", out);
  if (ferror(out)) return xq_error_set(err, XQ_EIO, -1, 0, "write error");
  return XQ_OK;
}
