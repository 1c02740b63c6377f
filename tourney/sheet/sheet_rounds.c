/*
 * sheet_rounds.c -- the sheets that follow each player round by round: a
 * Swiss event's rounds table (轮次成绩表, the cross table of a Swiss), the
 * players' score cards (成绩卡) and the alphabetical list of who plays
 * where in a round (棋手座位表) (docs/tourney.md, "Sheets and CSV").
 */
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "sheet_internal.h"

static int zh(int lang) { return lang == XQ_LANG_ZH; }

/* A game's short mark from the player's slot: colour and result, "红胜",
 * "黑和", "R1", "B½"; a forfeit "+" or "-"; "" while pending. */
static void game_mark(const xq_tslot *s, int lang, char *buf, size_t cap)
{
  static const char *const res_zh[] = {[XQ_TR_WIN] = "胜", [XQ_TR_DRAW] = "和", [XQ_TR_LOSS] = "负",
                                       [XQ_TR_FWIN] = "+", [XQ_TR_FLOSS] = "-"};
  static const char *const res_en[] = {[XQ_TR_WIN] = "1", [XQ_TR_DRAW] = "½", [XQ_TR_LOSS] = "0",
                                       [XQ_TR_FWIN] = "+", [XQ_TR_FLOSS] = "-"};
  const char *col = s->colour == XQ_TC_RED ? (zh(lang) ? "红" : "R") : (zh(lang) ? "黑" : "B");
  const char *res = s->res >= XQ_TR_WIN && s->res <= XQ_TR_FLOSS ? (zh(lang) ? res_zh : res_en)[s->res] : "";
  snprintf(buf, cap, "%s%s", col, res);
}

/* The short word of a round a player spent on no board: the bye, an
 * absence, a withdrawal, a knockout seed; "" when not paired. */
static const char *off_mark(const xq_tournament *ev, int id, int round, int lang)
{
  const xq_tslot *s = xq_tournament_slot(ev, id, round);
  if (xq__event_withdrawn(ev, id, round)) return zh(lang) ? "退赛" : "wd";
  if (s->res == XQ_TR_PAB) return zh(lang) ? "轮空" : "bye";
  if (s->res == XQ_TR_KO) return zh(lang) ? "淘汰赛" : "KO";
  if (s->absent || s->res == XQ_TR_HPB || s->res == XQ_TR_FPB || s->res == XQ_TR_ZPB) {
    int a = s->absent ? s->absent : s->res;
    return a == XQ_TR_HPB ? (zh(lang) ? "请假½" : "abs ½") : a == XQ_TR_FPB ? (zh(lang) ? "请假1" : "abs 1")
                                                            : (zh(lang) ? "请假" : "abs");
  }
  return "";
}

/* The cell of player `id` in `round` of the rounds table: the opponent's
 * number and the game's mark ("12红胜", "12R1"), else the off-board word. */
static void round_cell(const xq_tournament *ev, int id, int round, int lang, char *buf, size_t cap)
{
  const xq_tslot *s = xq_tournament_slot(ev, id, round);
  if (!s->opp) {
    snprintf(buf, cap, "%s", off_mark(ev, id, round, lang));
    return;
  }
  char m[16];
  game_mark(s, lang, m, sizeof m);
  snprintf(buf, cap, "%d%s", xq_tplayer_no(ev, s->opp), m);
}

int xq__sheet_rounds(const xq_tournament *ev, int upto, int format, int lang, FILE *f)
{
  if (upto <= 0 || upto > ev->nrounds) upto = ev->nrounds;
  if (upto + 5 > XQ__SHEET_COLS_MAX) return XQ_EINVAL;
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  if (!s) return XQ_ENOMEM;
  int rc = xq_standings(ev, upto, s);
  const char *head[XQ__SHEET_COLS_MAX], *cls[XQ__SHEET_COLS_MAX], *row[XQ__SHEET_COLS_MAX];
  char cell[XQ__SHEET_COLS_MAX][32];
  int nc = 0;
  head[nc] = zh(lang) ? "名次" : "Rank"; cls[nc++] = "n";
  head[nc] = zh(lang) ? "序号" : "No"; cls[nc++] = "n";
  head[nc] = zh(lang) ? "姓名" : "Name"; cls[nc++] = NULL;
  head[nc] = zh(lang) ? "单位" : "Club"; cls[nc++] = NULL;
  for (int r = 1; r <= upto; r++) {
    snprintf(cell[nc], sizeof cell[nc], zh(lang) ? "第%d轮" : "R%d", r);
    head[nc] = cell[nc]; cls[nc++] = "c";
  }
  head[nc] = zh(lang) ? "积分" : "Points"; cls[nc++] = "n";
  char sub[64];
  snprintf(sub, sizeof sub, zh(lang) ? "第%d轮后" : "after round %d", upto);
  xq__sheet sh = {0};
  if (!rc) rc = xq__sheet_begin(&sh, f, format, lang, ev, zh(lang) ? "轮次成绩表" : "Rounds table", sub, nc,
                                head, cls, XQ__SHEET_SIGN);
  for (int i = 0; !rc && i < ev->n; i++) {
    int id = s[i].id, k = 0;
    char rank[16], no[16], pts[16];
    snprintf(rank, sizeof rank, s[i].annulled ? "-" : "%d", s[i].rank);
    snprintf(no, sizeof no, "%d", xq_tplayer_no(ev, id));
    row[k++] = rank;
    row[k++] = no;
    row[k++] = ev->players[id - 1].name;
    row[k++] = xq__sheet_unit(&ev->players[id - 1]);
    for (int r = 1; r <= upto; r++, k++) {
      round_cell(ev, id, r, lang, cell[k], sizeof cell[k]);
      row[k] = cell[k];
    }
    xq__sheet_half_text(pts, sizeof pts, xq_tournament_points(ev, id, upto));
    row[k] = pts;
    rc = xq__sheet_row(&sh, row);
  }
  if (sh.f) {
    int end = xq__sheet_end(&sh);
    if (!rc) rc = end;
  }
  free(s);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Score cards                                                         */
/* ------------------------------------------------------------------ */

/* A game's result in words from the player's side, as a card lists it. */
static const char *result_words(const xq_tslot *s, int lang)
{
  switch (s->res) {
  case XQ_TR_WIN: return zh(lang) ? "胜" : "won";
  case XQ_TR_DRAW: return zh(lang) ? "和" : "drew";
  case XQ_TR_LOSS: return zh(lang) ? "负" : "lost";
  case XQ_TR_FWIN: return zh(lang) ? "胜（对方弃权）" : "won (forfeit)";
  case XQ_TR_FLOSS: return zh(lang) ? "负（弃权）" : "lost (forfeit)";
  default: return "";
  }
}

/* One player's card: a row per round 1..upto. */
static int card(const xq_tournament *ev, int id, int upto, int format, int lang, FILE *f, int flags)
{
  const xq_tplayer *p = &ev->players[id - 1];
  static const char *const cls[7] = {"n", "c", "n", NULL, NULL, NULL, "n"};
  const char *head[7] = {zh(lang) ? "轮次" : "Round", zh(lang) ? "执" : "Colour", zh(lang) ? "对手序号" : "Opp. no",
                         zh(lang) ? "对手" : "Opponent", zh(lang) ? "对手单位" : "Opp. club",
                         zh(lang) ? "结果" : "Result", zh(lang) ? "累计积分" : "Points"};
  char title[XQ_TOURNEY_FIELD_MAX * 2 + 48];
  const char *unit = xq__sheet_unit(p);
  snprintf(title, sizeof title, zh(lang) ? "成绩卡 %d号 %s%s%s%s" : "Score card: %d %s%s%s%s", xq_tplayer_no(ev, id),
           p->name, unit[0] ? (zh(lang) ? "（" : " (") : "", unit, unit[0] ? (zh(lang) ? "）" : ")") : "");
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, title, NULL, 7, head, cls, flags);
  for (int r = 1; !rc && r <= upto; r++) {
    const xq_tslot *s = xq_tournament_slot(ev, id, r);
    const xq_tplayer *o = s->opp ? &ev->players[s->opp - 1] : NULL;
    char round[16], ono[16], pts[16];
    snprintf(round, sizeof round, "%d", r);
    if (o) snprintf(ono, sizeof ono, "%d", xq_tplayer_no(ev, s->opp));
    xq__sheet_half_text(pts, sizeof pts, xq_tournament_points(ev, id, r));
    const char *colour = !o ? "" : s->colour == XQ_TC_RED ? (zh(lang) ? "红" : "Red") : (zh(lang) ? "黑" : "Black");
    const char *row[7] = {round, colour, o ? ono : "", o ? o->name : "", o ? xq__sheet_unit(o) : "",
                          o ? result_words(s, lang) : off_mark(ev, id, r, lang), pts};
    rc = xq__sheet_row(&sh, row);
  }
  if (!sh.f) return rc;
  int end = xq__sheet_end(&sh);
  return rc ? rc : end;
}

int xq_sheet_cards(const xq_tournament *ev, int no, int upto, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_cards(ev, no, upto, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!ev || !f || !xq__sheet_format_ok(format) || (lang != XQ_LANG_EN && lang != XQ_LANG_ZH) || no < 0) return XQ_EINVAL;
  if (upto <= 0 || upto > ev->nrounds) upto = ev->nrounds;
  int one = no ? xq_tournament_player_no(ev, no) : 0;
  if (no && !one) return XQ_EINVAL; /* no player of that number */
  if (one) return card(ev, one, upto, format, lang, f, XQ__SHEET_SIGN);
  /* every player's, in number order */
  int *by_no = calloc((size_t)ev->n + 1, sizeof *by_no), rc = by_no ? XQ_OK : XQ_ENOMEM, k = 0;
  for (int id = 1; !rc && id <= ev->n; id++) {
    int pno = xq_tplayer_no(ev, id);
    if (pno >= 1 && pno <= ev->n && !by_no[pno]) by_no[pno] = id;
  }
  for (int i = 1; !rc && i <= ev->n; i++) {
    if (!by_no[i]) continue;
    int last = 1;
    for (int j = i + 1; j <= ev->n; j++) last &= !by_no[j];
    rc = card(ev, by_no[i], upto, format, lang, f, (k++ ? XQ__SHEET_AFTER : 0) | (last ? XQ__SHEET_SIGN : XQ__SHEET_BEFORE));
  }
  free(by_no);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Who plays where                                                     */
/* ------------------------------------------------------------------ */

/* One line of the list: a player, his table and colour, his opponent. */
typedef struct where_row {
  int id, table, colour, opp;
  char key[XQ_TOURNEY_FIELD_MAX * 2]; /* the name in GB18030: its bytes sort by pinyin */
} where_row;

/* The name's sort key: GB18030 orders the common characters (GB2312's
 * first level) by pinyin, so its bytes sort Chinese names as a reader
 * looks them up; a name it cannot convert keeps its UTF-8 bytes. */
static void sort_key(iconv_t cd, const char *name, char *key, size_t cap)
{
  char *in = (char *)name, *out = key;
  size_t left = strlen(name), room = cap - 1;
  if (cd == (iconv_t)-1 || iconv(cd, &in, &left, &out, &room) == (size_t)-1) {
    snprintf(key, cap, "%s", name);
    return;
  }
  *out = 0;
}

static int where_cmp(const void *a, const void *b)
{
  const where_row *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : x->id - y->id;
}

static int where_rows(xq__sheet *sh, const xq_tournament *ev, const where_row *w, int n, int round, int lang)
{
  int rc = XQ_OK;
  for (int i = 0; !rc && i < n; i++) {
    const xq_tplayer *p = &ev->players[w[i].id - 1], *o = w[i].opp ? &ev->players[w[i].opp - 1] : NULL;
    char no[16], table[16];
    snprintf(no, sizeof no, "%d", xq_tplayer_no(ev, w[i].id));
    snprintf(table, sizeof table, "%d", w[i].table);
    const char *colour = !w[i].table || !o ? "" : w[i].colour == XQ_TC_RED ? (zh(lang) ? "红" : "Red")
                                                                            : (zh(lang) ? "黑" : "Black");
    const char *opp = o ? o->name : w[i].table ? (zh(lang) ? "轮空" : "bye") : xq__sheet_off_board(ev, w[i].id, round, lang);
    const char *row[6] = {p->name, no, xq__sheet_unit(p), w[i].table ? table : "", colour, opp};
    rc = xq__sheet_row(sh, row);
  }
  return rc;
}

int xq_sheet_where(const xq_tournament *ev, const xq_tpairing *pr, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_where(ev, pr, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!ev || !pr || !f || !xq__sheet_format_ok(format) || (lang != XQ_LANG_EN && lang != XQ_LANG_ZH) ||
      pr->round < 1 || pr->round > XQ_TOURNEY_ROUNDS_MAX)
    return XQ_EINVAL;
  where_row *w = calloc((size_t)ev->n + 1, sizeof *w);
  if (!w) return XQ_ENOMEM;
  for (int id = 1; id <= ev->n; id++) w[id - 1].id = id;
  for (int b = 0; b < pr->nboards; b++) {
    const xq_tboard *bd = &pr->boards[b];
    if (bd->red < 1 || bd->red > ev->n || bd->black < 0 || bd->black > ev->n) { free(w); return XQ_EINVAL; }
    w[bd->red - 1] = (where_row){.id = bd->red, .table = b + 1, .colour = XQ_TC_RED, .opp = bd->black};
    if (bd->black) w[bd->black - 1] = (where_row){.id = bd->black, .table = b + 1, .colour = XQ_TC_BLACK, .opp = bd->red};
  }
  iconv_t cd = iconv_open("GB18030", "UTF-8");
  for (int i = 0; i < ev->n; i++) sort_key(cd, ev->players[w[i].id - 1].name, w[i].key, sizeof w[i].key);
  if (cd != (iconv_t)-1) iconv_close(cd);
  qsort(w, (size_t)ev->n, sizeof *w, where_cmp);
  static const char *const cls[6] = {NULL, "n", NULL, "n", "c", NULL};
  const char *head[6] = {zh(lang) ? "姓名" : "Name", zh(lang) ? "序号" : "No", zh(lang) ? "单位" : "Club",
                         zh(lang) ? "台次" : "Table", zh(lang) ? "执" : "Colour", zh(lang) ? "对手" : "Opponent"};
  char sub[64];
  snprintf(sub, sizeof sub, zh(lang) ? "第%d轮" : "round %d", pr->round);
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, zh(lang) ? "棋手座位表（按姓名）" : "Who plays where (by name)",
                           sub, 6, head, cls, 0);
  if (!rc) {
    rc = where_rows(&sh, ev, w, ev->n, pr->round, lang);
    int end = xq__sheet_end(&sh);
    if (!rc) rc = end;
  }
  free(w);
  return rc;
}
