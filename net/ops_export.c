/*
 * ops_export.c -- the export operation (docs/protocol.md "export"): the
 * printed sheets of the event -- standings, pairing sheets, score sheets,
 * final places, team standings, prizes -- as CSV, HTML, text or an XLSX
 * workbook, and the event as TRF-16. The request is parsed once here into
 * its task (export_task); the sheet is made by the sheet writers of
 * tourney/sheet/ in the worker pool, in the sheets lane (jobs.c), from
 * copies taken on the loop of what it shows (the event, its knockout
 * stage, the round's tables), with its reply line: an XLSX workbook or
 * 800 KB of score sheets cost the loop nothing but the copies. The
 * client's next requests wait for the reply (task.c).
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ops.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "store/team_store.h"
#include "teammatch.h"
#include "proto.h"
#include "task.h"

/* the team event's sheets (X_TM_*) take a round too; the final sheets
 * (from X_PLACES on) take none */
enum {
  X_EVENT, X_STANDINGS, X_PAIRINGS, X_SCORESHEETS, X_CROSSTABLE, X_CARDS, X_WHERE,
  X_TM_STANDINGS, X_TM_MATCHES, X_TM_BOARDS, X_TM_CROSS, X_PLACES, X_TEAMS, X_PRIZES, X_COUNT
};

/* export: the request, parsed. */
typedef struct export_task {
  xq__task t;
  int what;                  /* X_* */
  int format, lang;          /* XQ_SHEET_*, XQ_LANG_* */
  int round;                 /* 0: the last paired */
  int player;                /* cards: the player's number, 0 = every player's */
  int mode, count;           /* teams: xq_team_mode (-1: the preset's) and players counted (0: the preset's) */
  const xq_regulation *reg;  /* teams, prizes: the preset named, NULL none */
  struct xq_prize_table *prizes; /* teams, prizes: the prize table given as text, NULL none */
  xq_tpairing pr;            /* pairings, score sheets: the round's tables */
  xq_tournament *ev;         /* the copy of the event the job reads ... */
  xq_ko ko;                  /* ... and of its knockout stage, when has_ko */
  int has_ko;
  xq_tm_event *tm;           /* the team event's sheets: its copy, as the store holds it */
  int rc;                    /* the job's status ... */
  char msg[XQ_ERR_MSG_LEN];  /* ... what is wrong, "" for its code's words ... */
  xq__buf *line;             /* ... or the reply line */
} export_task;

static void export_fini(xq__task *t)
{
  export_task *x = (export_task *)t;
  free(x->prizes);
  xq_tpairing_clear(&x->pr);
  xq_tournament_free(x->ev);
  xq_tm_event_free(x->tm);
  xq__buf_unref(x->line);
}

static const char *const what_names[X_COUNT] = {
  [X_EVENT] = "event", [X_STANDINGS] = "standings", [X_PAIRINGS] = "pairings",
  [X_SCORESHEETS] = "scoresheets", [X_CROSSTABLE] = "crosstable", [X_CARDS] = "cards", [X_WHERE] = "where",
  [X_PLACES] = "places", [X_TEAMS] = "teams", [X_PRIZES] = "prizes", [X_TM_STANDINGS] = "team-standings",
  [X_TM_MATCHES] = "matches", [X_TM_BOARDS] = "board-prizes", [X_TM_CROSS] = "team-crosstable",
};

static const char *const format_names[] = {
  [XQ_SHEET_TRF] = "trf", [XQ_SHEET_CSV] = "csv", [XQ_SHEET_HTML] = "html", [XQ_SHEET_TEXT] = "text",
  [XQ_SHEET_XLSX] = "xlsx",
};


/* ------------------------------------------------------------------ */
/* The sheets                                                          */
/* ------------------------------------------------------------------ */

/* The knockout stage when the event has one, else NULL. */
static const xq_ko *the_ko(const export_task *t) { return t->has_ko ? &t->ko : NULL; }

/* Final places, as `xqref tourney places` gives them. */
static int places_sheet(export_task *t, const int *ids, FILE *f)
{
  const xq_ko *ko = the_ko(t);
  int complete = 1, tmp[XQ_KO_SIZE_MAX];
  if (ko) complete = xq_ko_places(ko, tmp) == 1;
  char title[64];
  snprintf(title, sizeof title, "%s%s", t->lang == XQ_LANG_ZH ? "最终名次" : "Final places",
           complete ? "" : t->lang == XQ_LANG_ZH ? "（暂定）" : " (provisional)");
  if (ko && ko->after == XQ_KO_NO_SWISS)
    return xq_sheet_ko_places(t->ev, ko, title, ids, NULL, t->ev->n, t->format, t->lang, f);
  return xq_sheet_places(t->ev, title, ids, NULL, t->ev->n, t->format, t->lang, f);
}

/* The prize table of the request: its text, or the preset's for this
 * event's entrants. NULL after `msg` says why. */
static const xq_prize_table *prize_table(export_task *t, xq_prize_table *own, char *msg, size_t cap)
{
  if (t->prizes) return t->prizes;
  if (!t->reg) return NULL;
  xq_error err = {0};
  if (xq_regulation_prizes(t->reg, t->ev->n, own, &err)) {
    snprintf(msg, cap, "%s", err.msg);
    return NULL;
  }
  return own;
}

static int teams_sheet(export_task *t, const int *ids, FILE *f, char *msg, size_t cap)
{
  xq_prize_table *own = malloc(sizeof *own);
  xq_team_row *rows = malloc(sizeof *rows * XQ_TEAMS_MAX);
  int rc = own && rows ? XQ_OK : XQ_ENOMEM, nt = 0;
  if (!rc) {
    const xq_prize_table *pt = t->prizes || t->reg ? prize_table(t, own, msg, cap) : NULL;
    xq_team_rule rule = {0};
    xq_error err = {0};
    if ((t->prizes || t->reg) && !pt) rc = XQ_EINVAL;
    else if ((rc = xq_team_results(t->ev, ids, t->reg, t->mode, t->count, pt, rows, XQ_TEAMS_MAX, &nt, &rule, &err)))
      snprintf(msg, cap, "%s", err.msg);
    else rc = xq_sheet_teams(t->ev, rows, nt, rule.mode, t->format, t->lang, f);
  }
  free(rows);
  free(own);
  return rc;
}

static int prizes_sheet(export_task *t, const int *ids, FILE *f, char *msg, size_t cap)
{
  xq_prize_table *own = malloc(sizeof *own);
  if (!own) return XQ_ENOMEM;
  const xq_prize_table *pt = prize_table(t, own, msg, cap);
  int rc = pt ? XQ_OK : XQ_EINVAL, na = 0;
  xq_award *aw = NULL;
  if (!rc) {
    int room = XQ_AWARDS_MAX(pt, t->ev->n);
    aw = malloc(sizeof *aw * (size_t)(room ? room : 1));
    rc = !aw ? XQ_ENOMEM : xq_prizes_award(t->ev, ids, pt, aw, room, &na);
    if (rc) snprintf(msg, cap, "cannot award the prizes: %s", xq_strerror(rc));
    else rc = xq_sheet_prizes(t->ev, pt, aw, na, t->format, t->lang, f);
  }
  free(aw);
  free(own);
  return rc;
}

/* The final sheets: places, teams and prizes on the final places. */
static int final_sheet(export_task *t, FILE *f, char *msg, size_t cap)
{
  int *ids = malloc(sizeof *ids * (size_t)(t->ev->n ? t->ev->n : 1));
  int rc = ids ? xq_final_places(t->ev, the_ko(t), ids) : XQ_ENOMEM;
  if (!rc)
    rc = t->what == X_PLACES ? places_sheet(t, ids, f)
       : t->what == X_TEAMS ? teams_sheet(t, ids, f, msg, cap)
       : prizes_sheet(t, ids, f, msg, cap);
  free(ids);
  return rc;
}

static int write_sheet(export_task *t, FILE *f, char *msg, size_t cap)
{
  switch (t->what) {
  case X_EVENT: return xq_trf_write(t->ev, f);
  case X_STANDINGS: return xq_sheet_standings(t->ev, t->round, t->format, t->lang, f);
  case X_PAIRINGS: return xq_sheet_pairings(t->ev, &t->pr, t->format, t->lang, f);
  case X_SCORESHEETS: /* the knockout's tables name their match and game */
    return t->round == XQ_KO_ROUND && t->has_ko ? xq_sheet_ko_scoresheets(t->ev, &t->ko, &t->pr, t->format, t->lang, f)
                                                : xq_sheet_scoresheets(t->ev, &t->pr, t->format, t->lang, f);
  case X_CROSSTABLE: return xq_sheet_crosstable(t->ev, t->round, t->format, t->lang, f);
  case X_CARDS: return xq_sheet_cards(t->ev, t->player, t->round, t->format, t->lang, f);
  case X_WHERE: return xq_sheet_where(t->ev, &t->pr, t->format, t->lang, f);
  case X_TM_STANDINGS: return xq_sheet_team_standings(t->ev, t->tm, t->round, t->format, t->lang, f);
  case X_TM_MATCHES: return xq_sheet_team_matches(t->ev, t->tm, t->round, t->format, t->lang, f);
  case X_TM_BOARDS: return xq_sheet_team_boards(t->ev, t->tm, 0, t->round, t->format, t->lang, f);
  case X_TM_CROSS: return xq_sheet_team_crosstable(t->ev, t->tm, t->round, t->format, t->lang, f);
  default: return final_sheet(t, f, msg, cap);
  }
}

/* ------------------------------------------------------------------ */
/* The reply                                                           */
/* ------------------------------------------------------------------ */

/* RFC 4648 base64 (with padding) of buf[0..len-1], NUL-ended, malloc'd;
 * NULL when out of memory. libsodium's sodium_bin2base64, which needs no
 * sodium_init() (no randomness, no CPU dispatch). */
static char *base64(const unsigned char *buf, size_t len)
{
  size_t cap = sodium_base64_ENCODED_LEN(len, sodium_base64_VARIANT_ORIGINAL);
  char *out = malloc(cap);
  if (out) sodium_bin2base64(out, cap, buf, len, sodium_base64_VARIANT_ORIGINAL);
  return out;
}

/* The reply line of a made sheet: {format, what, round, filename, text}
 * or, for XLSX, base64 in place of text. XQ_OK with t->line set, or
 * XQ_ENOMEM. */
static int sheet_reply(export_task *t, const char *buf, size_t len)
{
  char name[64];
  const char *ext = t->format == XQ_SHEET_TRF ? "trf" : t->format == XQ_SHEET_TEXT ? "txt" : format_names[t->format];
  int rounds = t->what < X_PLACES && t->what != X_EVENT;
  if (rounds) snprintf(name, sizeof name, "xqref-%s-r%d.%s", what_names[t->what], t->round, ext);
  else snprintf(name, sizeof name, "xqref-%s.%s", what_names[t->what], ext);
  char *b64 = t->format == XQ_SHEET_XLSX ? base64((const unsigned char *)buf, len) : NULL;
  if (t->format == XQ_SHEET_XLSX && !b64) return XQ_ENOMEM;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "format", format_names[t->format]);
  cJSON_AddStringToObject(o, "what", what_names[t->what]);
  if (rounds) cJSON_AddNumberToObject(o, "round", t->round);
  cJSON_AddStringToObject(o, "filename", name);
  if (b64) cJSON_AddStringToObject(o, "base64", b64);
  else cJSON_AddStringToObject(o, "text", buf);
  free(b64);
  char *obj = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  t->line = obj ? xq__task_line(&t->t, obj) : NULL;
  free(obj);
  return t->line ? XQ_OK : XQ_ENOMEM;
}

/* Worker: run the sheet writer into memory and make the reply line. */
static void export_work(xq__job *j)
{
  export_task *t = (export_task *)j;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    t->rc = XQ_ENOMEM;
    return;
  }
  int rc = write_sheet(t, f, t->msg, sizeof t->msg);
  if (fclose(f) != 0 && rc == XQ_OK) rc = XQ_EIO;
  if (rc == XQ_OK && (!buf || len > XQ_EXPORT_REPLY_MAX)) rc = buf ? XQ_ELIMIT : XQ_ENOMEM;
  if (rc == XQ_ELIMIT && !t->msg[0]) snprintf(t->msg, sizeof t->msg, "the sheet is over %d bytes", XQ_EXPORT_REPLY_MAX);
  if (rc == XQ_OK) rc = sheet_reply(t, buf, len);
  free(buf);
  t->rc = rc;
}

static void export_after(xq__job *j, int status)
{
  export_task *t = (export_task *)j;
  int rc = t->rc;
  if (status != 0) xq__task_error(&t->t, XQ__E_INTERNAL, "the export job was cancelled");
  else if (rc == XQ_OK) xq__task_send_buf(&t->t, t->line);
  else
    xq__task_error(&t->t, rc == XQ_EINVAL && t->msg[0] ? XQ__E_BAD_REQUEST : xq__reply_code(rc),
                   t->msg[0] ? t->msg : xq_strerror(rc));
  xq__task_free(&t->t);
}

static int is_team_sheet(int what) { return what >= X_TM_STANDINGS && what <= X_TM_CROSS; }

/* The team event's sheets: its copy from the store into t->tm, the
 * round those of the published rounds (the matches of round R; the
 * standings, board prizes and cross table after it). 0, or -1 after
 * answering (CONFLICT for an event that is not a team event). */
static int team_copy(xq__server *s, export_task *t)
{
  xq_error err = {0};
  int rc = xq_tstore_team_load(s->store, t->ev, &t->tm, &err);
  if (rc || !t->tm) {
    xq__task_error(&t->t, rc ? xq__reply_code(rc) : XQ__E_CONFLICT,
                   rc ? err.msg : "the event is not a team event: its sheets are the Swiss ones");
    return -1;
  }
  if (t->round > t->ev->nrounds) t->round = t->ev->nrounds;
  if (t->what == X_TM_MATCHES && !t->round) {
    xq__task_error(&t->t, XQ__E_NOT_FOUND, "no team round is published yet");
    return -1;
  }
  return 0;
}

/* The round's tables and copies of the event for the job, which makes
 * the sheet and answers it. */
static void run_export(xq__server *s, xq__task *task)
{
  export_task *t = (export_task *)task;
  t->round = t->round ? t->round : s->ev->nrounds ? s->ev->nrounds : 1;
  if (t->what == X_PAIRINGS || t->what == X_SCORESHEETS || t->what == X_WHERE) {
    xq_error err = {0};
    /* the knockout's tables have score sheets, not a pairing sheet */
    int rc = t->round == XQ_KO_ROUND && t->what != X_SCORESHEETS
           ? xq_error_set(&err, XQ_EINVAL, -1, -1, "the knockout has its bracket, not a pairing sheet")
           : xq_tstore_round_tables(s->store, t->round, &t->pr, &err);
    if (rc) {
      xq__task_error(&t->t, rc == XQ_EINVAL ? XQ__E_NOT_FOUND : xq__reply_code(rc), err.msg);
      return;
    }
  }
  /* a standings sheet or cross table after every recorded round when
   * asked beyond them */
  if ((t->what == X_STANDINGS || t->what == X_CROSSTABLE || t->what == X_CARDS) && t->round > s->ev->nrounds)
    t->round = s->ev->nrounds;
  if (t->what == X_CARDS && t->player && !xq_tournament_player_no(s->ev, t->player)) {
    xq__task_error(&t->t, XQ__E_NOT_FOUND, "no player of that number");
    return;
  }
  int cap = task->c->role == XQ_ROLE_ADMIN ? XQ_SHEET_JOBS_ADMIN : XQ_SHEET_JOBS_ARBITER;
  if (xq__task_busy(task, XQ__LANE_SHEETS, cap)) return;
  if ((t->has_ko = s->ko && s->ko->after)) t->ko = *s->ko;
  if (!(t->ev = xq_tournament_copy(s->ev))) {
    xq__task_error(task, XQ__E_INTERNAL, "out of memory");
    return;
  }
  if (is_team_sheet(t->what) && team_copy(s, t)) return;
  xq__task_job(task, XQ__LANE_SHEETS, export_work, export_after);
}

/* ------------------------------------------------------------------ */
/* The request                                                         */
/* ------------------------------------------------------------------ */

static int what_parse(const char *s)
{
  for (int w = 0; w < X_COUNT; w++)
    if (!strcmp(s, what_names[w])) return w;
  return -1;
}

/* The fields of teams and prizes into the task: mode, count, preset,
 * prizes (a prize table file's text). Returns NULL or what is wrong. */
static const char *final_fields(export_task *t, const char *mode, const char *preset,
                                const char *prizes, char *msg, size_t cap)
{
  t->mode = -1;
  if (mode && !strcmp(mode, "points")) t->mode = XQ_TEAM_POINTS_SUM;
  else if (mode && !strcmp(mode, "places")) t->mode = XQ_TEAM_RANK_SUM;
  else if (mode) return "mode is places or points";
  if (t->what != X_TEAMS && (mode || t->count)) return "mode and count are for what: teams";
  if (t->what == X_PRIZES && !preset == !prizes) return "prizes need one of preset and prizes";
  if (preset && xq_regulation_find(preset, &t->reg)) return "no such preset (xqref presets lists them)";
  if (prizes) {
    xq_error err = {0};
    size_t n = strlen(prizes);
    if (n > XQ_PRIZE_TABLE_MAX) return "the prize table is too long";
    if (!(t->prizes = malloc(sizeof *t->prizes))) return "out of memory";
    if (xq_prize_parse(prizes, n, t->prizes, &err)) {
      snprintf(msg, cap, "prizes: %s", err.msg);
      return msg;
    }
  }
  return NULL;
}

void xq__ops_export(xq__server *s, xq__req *r)
{
  const char *fmt, *what, *lang, *mode, *preset, *prizes;
  int round, count, player;
  if (xq__field_str(r, "format", 0, &fmt) || xq__field_str(r, "what", 0, &what) ||
      xq__field_str(r, "lang", 0, &lang) || xq__field_int(r, "round", 0, XQ_KO_ROUND, 0, &round) ||
      xq__field_str(r, "mode", 0, &mode) || xq__field_int(r, "count", 0, XQ_TEAM_COUNTED_MAX, 0, &count) ||
      xq__field_str(r, "preset", 0, &preset) || xq__field_str(r, "prizes", 0, &prizes) ||
      xq__field_int(r, "player", 0, XQ_TOURNEY_PLAYERS_MAX, 0, &player))
    return;
  int format = fmt ? xq_sheet_format_parse(fmt) : XQ_SHEET_TRF;
  int lg = lang ? xq_sheet_lang_parse(lang) : XQ_LANG_EN;
  int w = what ? what_parse(what) : format == XQ_SHEET_TRF ? X_EVENT : X_STANDINGS;
  const char *bad = format < 0 ? "format is trf, csv, html, text or xlsx"
                  : lg < 0 ? "lang is en or zh"
                  : w < 0 ? "what is standings, pairings, scoresheets, crosstable, cards, where, places, teams, prizes, "
                            "team-standings, matches, board-prizes, team-crosstable or event"
                  : (format == XQ_SHEET_TRF) != (w == X_EVENT) ? "the event is trf and trf is the event"
                  : round && w >= X_PLACES ? "round is not for places, teams and prizes"
                  : player && w != X_CARDS ? "player is for cards"
                  : w < X_TEAMS && (mode || count || preset || prizes) ? "mode, count, preset and prizes are for teams and prizes"
                  : NULL;
  if (bad) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
    return;
  }
  export_task *t = (export_task *)xq__task_new(s, r, run_export, sizeof *t, export_fini);
  if (!t) return;
  t->format = format;
  t->lang = lg;
  t->round = round;
  t->player = player;
  t->what = w;
  t->count = count;
  char msg[XQ_ERR_MSG_LEN + 16];
  if (w >= X_PLACES && (bad = final_fields(t, mode, preset, prizes, msg, sizeof msg))) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, bad, -1);
    xq__task_free(&t->t);
    return;
  }
  xq__task_go(s, &t->t, w == X_PAIRINGS || w == X_SCORESHEETS || w == X_WHERE || is_team_sheet(w));
}
