/*
 * ops_engine.c -- the stateless engine services of the JSON-lines protocol
 * (docs/protocol.md "Engine services"; docs/server.md): validate_fen,
 * legal_moves, apply, convert, perft and adjudicate.
 *
 * None of them touches a game or the store. The cheap ones (a FEN, a few
 * hundred moves parsed) answer on the loop thread, to anyone. perft and
 * adjudicate can cost seconds to minutes (a deep tree; the CXA 杀/捉
 * searches of R10 under the P13 budget), so they need a token
 * (perft: admin or arbiter; adjudicate: a board too) and run in libuv's
 * worker pool in the engine lane of the job queue
 * (jobs.c: one job of a client at a time, XQ_ENGINE_RUNNING_MAX in all,
 * never in the slots of the tournament lane): the job owns copies of its
 * input, the connection is referenced until the after-work callback,
 * which answers only if the client is still there, and a job whose
 * client has gone stops early. A connection may have
 * XQ_ENGINE_JOBS_PER_CONN jobs queued or running (a board
 * XQ_ENGINE_JOBS_PER_BOARD_CONN), and all the sessions of a role together
 * XQ_ENGINE_JOBS_ADMIN / _ARBITER / _BOARD; one more is BUSY.
 *
 * Move lists ("moves") are an array of strings or one string of moves
 * separated by blanks or commas, at most XQ_API_MOVES_MAX of them; each
 * move is read in any notation (xq_move_parse_any). An error about a move
 * carries "ply", the index of that move in the request's list.
 */
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "internal.h"
#include "jobs.h"
#include "ops.h"
#include "proto.h"

/* ------------------------------------------------------------------ */
/* Request fields                                                      */
/* ------------------------------------------------------------------ */

/* A move list owned in one block: v[0..n) point into the same block. */
typedef struct movev {
  int n;
  char **v;
} movev;

/* True for a separator byte sequence at s: ASCII blank or comma, the
 * ideographic space U+3000 or the full-width comma U+FF0C. Returns its
 * length, 0 for none. */
static size_t sep_len(const char *s)
{
  const unsigned char *u = (const unsigned char *)s;
  if (*u == ' ' || *u == '\t' || *u == ',' || *u == '\r' || *u == '\n') return 1;
  if (u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80) return 3;
  if (u[0] == 0xEF && u[1] == 0xBC && u[2] == 0x8C) return 3;
  return 0;
}

/* Read the "moves" field of request `r` into *out (an owned copy; free
 * out->v). Absent: no moves. Returns 0, or -1 after replying BAD_REQUEST
 * (not an array of strings nor a string), LIMIT (over XQ_API_MOVES_MAX)
 * or INTERNAL (out of memory). */
static int read_moves(xq__req *r, movev *out)
{
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(r->json, "moves");
  out->n = 0;
  out->v = NULL;
  if (!m || cJSON_IsNull(m)) return 0;
  size_t bytes = 0;
  int n = 0;
  if (cJSON_IsArray(m)) {
    int i = 0;
    for (const cJSON *e = m->child; e; e = e->next, i++) {
      if (!cJSON_IsString(e)) {
        xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "moves must be strings", i);
        return -1;
      }
      bytes += strlen(e->valuestring) + 1;
    }
    n = i;
  } else if (cJSON_IsString(m)) {
    const char *p = m->valuestring;
    while (*p) {
      size_t k;
      while ((k = sep_len(p))) p += k;
      if (!*p) break;
      n++;
      while (*p && !sep_len(p)) p++;
    }
    bytes = strlen(m->valuestring) + 1;
  } else {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "moves must be an array of strings or a string", -1);
    return -1;
  }
  if (n > XQ_API_MOVES_MAX) {
    char msg[96];
    snprintf(msg, sizeof msg, "%d moves; at most %d in one request", n, XQ_API_MOVES_MAX);
    xq__reply_error(r->c, r->id, XQ__E_LIMIT, msg, -1);
    return -1;
  }
  if (n == 0) return 0;
  char **v = malloc((size_t)n * sizeof *v + bytes + 1);
  if (!v) {
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
    return -1;
  }
  char *d = (char *)(v + n);
  if (cJSON_IsArray(m)) {
    int i = 0;
    for (const cJSON *e = m->child; e; e = e->next, i++) {
      size_t len = strlen(e->valuestring) + 1;
      memcpy(d, e->valuestring, len);
      v[i] = d;
      d += len;
    }
  } else {
    const char *p = m->valuestring;
    int i = 0;
    while (*p) {
      size_t k;
      while ((k = sep_len(p))) p += k;
      if (!*p) break;
      v[i++] = d;
      while (*p && !sep_len(p)) *d++ = *p++;
      *d++ = '\0';
    }
  }
  out->n = n;
  out->v = v;
  return 0;
}

/* Read the "fen" field into *pos: absent or null = the start position
 * unless `required`. Returns 0, or -1 after replying BAD_REQUEST or
 * BAD_FEN (the message names the byte where the FEN goes wrong). When
 * `text` is non-NULL it receives the FEN text (NULL for the start). */
static int read_fen(xq__req *r, int required, xq_pos *pos, const char **text)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(r->json, "fen");
  if (text) *text = NULL;
  if (!f || cJSON_IsNull(f)) {
    if (required) {
      xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "fen is required", -1);
      return -1;
    }
    xq_pos_startpos(pos);
    return 0;
  }
  if (!cJSON_IsString(f)) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "fen must be a string", -1);
    return -1;
  }
  xq_error err = {0};
  if (xq_fen_parse(pos, f->valuestring, 0, &err) != XQ_OK) {
    char msg[XQ_ERR_MSG_LEN + 32];
    if (err.pos >= 0) snprintf(msg, sizeof msg, "byte %d: %s", err.pos, err.msg);
    else snprintf(msg, sizeof msg, "%s", err.msg[0] ? err.msg : "bad FEN");
    xq__reply_error(r->c, r->id, XQ__E_FEN, msg, -1);
    return -1;
  }
  if (text) *text = f->valuestring;
  return 0;
}

/* A notation name: "iccs", "wxf", "chinese" (also "zh"). -1 otherwise. */
static int notation_of(const char *s)
{
  if (!strcmp(s, "iccs")) return XQ_NOTE_ICCS;
  if (!strcmp(s, "wxf")) return XQ_NOTE_WXF;
  if (!strcmp(s, "chinese") || !strcmp(s, "zh")) return XQ_NOTE_CHINESE;
  return -1;
}

/* Read notation field `key` into *out: absent = `dflt`. Returns 0, or -1
 * after replying BAD_REQUEST. */
static int read_notation(xq__req *r, const char *key, int dflt, int *out)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(r->json, key);
  *out = dflt;
  if (!f || cJSON_IsNull(f)) return 0;
  if (cJSON_IsString(f) && (*out = notation_of(f->valuestring)) >= 0) return 0;
  char msg[80];
  snprintf(msg, sizeof msg, "%s must be \"iccs\", \"wxf\" or \"chinese\"", key);
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, msg, -1);
  return -1;
}

/* Read boolean field `key` (absent = 0). Returns 0/1, or -1 after
 * replying BAD_REQUEST. */
static int read_bool(xq__req *r, const char *key)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(r->json, key);
  if (!f || cJSON_IsNull(f)) return 0;
  if (cJSON_IsBool(f)) return cJSON_IsTrue(f);
  char msg[64];
  snprintf(msg, sizeof msg, "%s must be true or false", key);
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, msg, -1);
  return -1;
}

/* Parse move `i` of `mv` in `pos` (notation `from`, -1 = any). Returns
 * XQ_OK with *m, else the engine status with `err`. */
static int parse_move(const xq_pos *pos, const movev *mv, int i, int from, xq_move *m, xq_error *err)
{
  return from < 0 ? xq_move_parse_any(pos, mv->v[i], m, err)
                  : xq_move_parse(pos, mv->v[i], (xq_notation)from, m, err);
}

/* Reply the error of move `i` (status rc, message in err). */
static void move_error(xq__req *r, const movev *mv, int i, int rc, const xq_error *err)
{
  char msg[XQ_ERR_MSG_LEN + 64];
  if (err->msg[0]) snprintf(msg, sizeof msg, "%s", err->msg);
  else snprintf(msg, sizeof msg, "%.40s: %s", mv->v[i], xq_strerror(rc));
  xq__reply_error(r->c, r->id, xq__reply_code(rc), msg, i);
}

/* Play mv[0..n) from *pos (each must parse and be legal). Returns 0, or
 * -1 after replying the first bad move's error with its ply. */
static int play_all(xq__req *r, xq_pos *pos, const movev *mv, int from)
{
  for (int i = 0; i < mv->n; i++) {
    xq_move m;
    xq_error err = {0};
    int rc = parse_move(pos, mv, i, from, &m, &err);
    if (rc != XQ_OK) {
      move_error(r, mv, i, rc, &err);
      return -1;
    }
    xq_undo u;
    xq_make(pos, m, &u);
  }
  return 0;
}

static void add_fen(cJSON *o, const char *key, const xq_pos *pos)
{
  char buf[XQ_FEN_MAX];
  xq_fen_format(pos, buf, sizeof buf);
  cJSON_AddStringToObject(o, key, buf);
}

static void add_move(cJSON *o, const char *key, const xq_pos *pos, xq_move m, int notation)
{
  char buf[XQ_MOVE_TEXT_MAX];
  xq_move_format(pos, m, (xq_notation)notation, buf, sizeof buf);
  cJSON_AddStringToObject(o, key, buf);
}

/* Reply `o` (consumed), or INTERNAL when building it ran out of memory. */
static void reply_built(xq__req *r, cJSON *o, int oom)
{
  if (!o || oom) {
    cJSON_Delete(o);
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
    return;
  }
  xq__reply_obj(r->c, r->id, o);
}

/* ------------------------------------------------------------------ */
/* validate_fen, legal_moves, apply, convert (loop thread)             */
/* ------------------------------------------------------------------ */

/* validate_fen {fen}: the FEN as this server writes it and the side to
 * move, or BAD_FEN naming the byte where it goes wrong. */
static void op_validate_fen(xq__server *s, xq__req *r)
{
  (void)s;
  xq_pos pos;
  if (read_fen(r, 1, &pos, NULL)) return;
  cJSON *o = cJSON_CreateObject();
  if (!o) {
    reply_built(r, NULL, 1);
    return;
  }
  add_fen(o, "fen", &pos);
  cJSON_AddStringToObject(o, "side", pos.side == XQ_RED ? "red" : "black");
  cJSON_AddBoolToObject(o, "check", xq_in_check(&pos, (xq_color)pos.side));
  reply_built(r, o, 0);
}

/* legal_moves {fen, moves, notation}: every legal move after the moves,
 * in the order the engine generates them, and the FEN reached. */
static void op_legal_moves(xq__server *s, xq__req *r)
{
  (void)s;
  xq_pos pos;
  movev mv;
  int note;
  if (read_fen(r, 0, &pos, NULL) || read_notation(r, "notation", XQ_NOTE_ICCS, &note)) return;
  if (read_moves(r, &mv)) return;
  int bad = play_all(r, &pos, &mv, -1);
  free(mv.v);
  if (bad) return;
  xq_movelist l;
  xq_gen_legal(&pos, &l);
  cJSON *o = cJSON_CreateObject();
  cJSON *a = cJSON_AddArrayToObject(o, "moves");
  if (!a) {
    reply_built(r, o, 1);
    return;
  }
  for (int i = 0; i < l.n; i++) {
    char buf[XQ_MOVE_TEXT_MAX];
    xq_move_format(&pos, l.m[i], (xq_notation)note, buf, sizeof buf);
    cJSON_AddItemToArray(a, cJSON_CreateString(buf));
  }
  add_fen(o, "fen", &pos);
  reply_built(r, o, 0);
}

/* apply {fen, moves, notation, record_illegal}: plays the moves and
 * describes each. An illegal move stops with ILLEGAL_MOVE at its ply,
 * unless record_illegal: then it is listed as played text with
 * "illegal":true and the reason, and the position stays as it was (the
 * adjudicator's rule: a foul is recorded, the move is taken back). Text
 * in no notation, or ambiguous, is an error either way. */
static void op_apply(xq__server *s, xq__req *r)
{
  (void)s;
  xq_pos pos;
  movev mv;
  int note, rec;
  if (read_fen(r, 0, &pos, NULL) || read_notation(r, "notation", XQ_NOTE_ICCS, &note)) return;
  if ((rec = read_bool(r, "record_illegal")) < 0) return;
  if (read_moves(r, &mv)) return;
  cJSON *o = cJSON_CreateObject();
  cJSON *a = cJSON_AddArrayToObject(o, "moves");
  int oom = !a, illegal = 0;
  for (int i = 0; i < mv.n && !oom; i++) {
    xq_move m;
    xq_error err = {0};
    int rc = xq_move_parse_any(&pos, mv.v[i], &m, &err);
    cJSON *d = cJSON_CreateObject();
    if (!d || !cJSON_AddItemToArray(a, d)) {
      cJSON_Delete(d);
      oom = 1;
      break;
    }
    if (rc == XQ_EILLEGAL && rec) {
      cJSON_AddStringToObject(d, "move", mv.v[i]);
      cJSON_AddBoolToObject(d, "illegal", 1);
      cJSON_AddStringToObject(d, "reason", err.msg);
      illegal++;
      continue;
    }
    if (rc != XQ_OK) {
      move_error(r, &mv, i, rc, &err);
      cJSON_Delete(o);
      free(mv.v);
      return;
    }
    add_move(d, "move", &pos, m, note);
    add_move(d, "iccs", &pos, m, XQ_NOTE_ICCS);
    add_move(d, "wxf", &pos, m, XQ_NOTE_WXF);
    add_move(d, "zh", &pos, m, XQ_NOTE_CHINESE);
    cJSON_AddBoolToObject(d, "check", xq_gives_check(&pos, m));
    cJSON_AddBoolToObject(d, "capture", pos.board[XQ_TO(m)] != XQ_NO_PID);
    xq_undo u;
    xq_make(&pos, m, &u);
  }
  free(mv.v);
  if (!oom) {
    add_fen(o, "fen", &pos);
    cJSON_AddNumberToObject(o, "illegal", illegal);
  }
  reply_built(r, o, oom);
}

/* convert {fen, moves, from, to}: the moves written in `to` (default
 * ICCS), read in `from` when given (else any notation). */
static void op_convert(xq__server *s, xq__req *r)
{
  (void)s;
  xq_pos pos;
  movev mv;
  int to, from;
  if (read_fen(r, 0, &pos, NULL) || read_notation(r, "to", XQ_NOTE_ICCS, &to) ||
      read_notation(r, "from", -1, &from))
    return;
  if (read_moves(r, &mv)) return;
  cJSON *o = cJSON_CreateObject();
  cJSON *a = cJSON_AddArrayToObject(o, "moves");
  int oom = !a;
  for (int i = 0; i < mv.n && !oom; i++) {
    xq_move m;
    xq_error err = {0};
    int rc = parse_move(&pos, &mv, i, from, &m, &err);
    if (rc != XQ_OK) {
      move_error(r, &mv, i, rc, &err);
      cJSON_Delete(o);
      free(mv.v);
      return;
    }
    char buf[XQ_MOVE_TEXT_MAX];
    xq_move_format(&pos, m, (xq_notation)to, buf, sizeof buf);
    if (!cJSON_AddItemToArray(a, cJSON_CreateString(buf))) oom = 1;
    xq_undo u;
    xq_make(&pos, m, &u);
  }
  free(mv.v);
  if (!oom) add_fen(o, "fen", &pos);
  reply_built(r, o, oom);
}

/* ------------------------------------------------------------------ */
/* Worker-pool jobs: perft, adjudicate                                 */
/* ------------------------------------------------------------------ */

enum { JOB_PERFT, JOB_ADJUDICATE };

/* One job: owns copies of everything it reads, and the reply it builds.
 * The loop thread fills it, the worker runs it, the after-work callback
 * answers and frees it. */
typedef struct job {
  xq__job base;             /* first: the queue's part (jobs.c) */
  xq__conn *c;              /* referenced until the after-work callback */
  char *idtext;             /* the request id, for the reply */
  int kind;
  xq_pos pos;               /* perft */
  int depth;
  uint64_t nodes;
  int cancelled;            /* the client left: the count was abandoned */
  xq_rules rules;           /* adjudicate */
  char *fen;                /* NULL = start */
  xq_events ev;             /* the events of the list that were read ... */
  int nlist;                /* ... of this many: the one after them is malformed */
  int bad_rc;               /* its status and message */
  char bad_msg[XQ_ERR_MSG_LEN];
  /* the outcome, written by the worker */
  char *fields;             /* reply members "..." (malloc'd), or NULL */
  const char *ecode;        /* or an error: code, message, ply */
  char emsg[XQ_ERR_MSG_LEN + 64];
  int eply;
} job;

/* True when the client of `j` has gone: its count is of no use any more.
 * The worker reads the connection's closing flag, which only the loop
 * thread sets, with an atomic load: at worst a job notices one node
 * later. */
static int job_cancelled(job *j)
{
  if (__atomic_load_n(&j->c->closing, __ATOMIC_RELAXED)) j->cancelled = 1;
  return j->cancelled;
}

/* Leaf count `depth` plies below `pos` (restored on return); gives up
 * (returns 0, j->cancelled set) once the client has gone. The last ply
 * is counted, not played (xq_count_legal). */
static uint64_t perft(job *j, xq_pos *pos, int depth)
{
  if (depth == 0) return 1;
  if (depth == 1) return (uint64_t)xq_count_legal(pos);
  if (depth >= 3 && job_cancelled(j)) return 0;
  xq_movelist l;
  xq_gen_legal(pos, &l);
  uint64_t n = 0;
  for (int i = 0; i < l.n && !j->cancelled; i++) {
    xq_undo u;
    xq_make(pos, l.m[i], &u);
    n += perft(j, pos, depth - 1);
    xq_unmake(pos, l.m[i], &u);
  }
  return n;
}

/* Run the adjudicate job: a fresh game over the events (the
 * adjudicator's event language: moves, claims, offers, ...), stopping at the
 * first event after which the game is decided (or waits for an arbiter).
 * Builds j->fields or the error. */
static void run_adjudicate(job *j)
{
  xq_game *g = malloc(sizeof *g); /* about 70 KB: not on a worker's stack */
  xq_error err = {0};
  if (!g) {
    j->ecode = XQ__E_INTERNAL;
    snprintf(j->emsg, sizeof j->emsg, "out of memory");
    return;
  }
  if (xq_game_init(g, &j->rules, j->fen, &err) != XQ_OK) {
    /* checked on the loop thread already; kept for safety */
    j->ecode = XQ__E_FEN;
    snprintf(j->emsg, sizeof j->emsg, "%s", err.msg);
    free(g);
    return;
  }
  xq_verdict v, shown;
  int have = 0, shown_at = -1, at = -1, i;
  for (i = 0; i < j->nlist && g->result == XQ_OUT_NONE; i++) {
    if (job_cancelled(j)) break;
    int rc = j->bad_rc;
    if (i < j->ev.n) rc = xq_game_apply_one(g, &j->ev.v[i], &v, &err);
    else snprintf(err.msg, sizeof err.msg, "%s", j->bad_msg);
    if (rc != XQ_OK) {
      j->ecode = xq__reply_code(rc);
      snprintf(j->emsg, sizeof j->emsg, "%s", err.msg[0] ? err.msg : xq_strerror(rc));
      j->eply = i;
      free(g);
      return;
    }
    at = i;
    /* the verdict shown: the last one that was not a plain accepted move */
    if (v.kind != XQ_VERDICT_ACCEPTED || !have) {
      shown = v;
      shown_at = i;
      have = 1;
    }
  }
  if (j->cancelled) {
    free(g);
    return;
  }
  if (have && shown.kind == XQ_VERDICT_ACCEPTED) {
    shown = v; /* nothing but accepted moves: the last one */
    shown_at = at;
  }
  cJSON *o = cJSON_CreateObject();
  const char *result = xq_outcome_name(g->result);
  xq_reason reason = g->result_reason;
  /* a standing 变着 order is the ruling of the list, though play goes on */
  if (g->result == XQ_OUT_NONE && have && shown.kind == XQ_VERDICT_MUST_CHANGE) {
    result = "must_change";
    reason = shown.reason;
  }
  cJSON_AddStringToObject(o, "result", result);
  cJSON_AddStringToObject(o, "reason", xq_reason_name(reason));
  if (g->result != XQ_OUT_NONE && at >= 0) cJSON_AddNumberToObject(o, "ply", at);
  else cJSON_AddNullToObject(o, "ply");
  cJSON_AddNumberToObject(o, "plies", g->nply);
  cJSON_AddNumberToObject(o, "unplayed", j->nlist - i);
  cJSON_AddStringToObject(o, "rules", g->rules.name);
  add_fen(o, "fen", &g->pos);
  if (have) {
    char *vt = xq_verdict_json(&shown);
    cJSON *vj = vt ? cJSON_Parse(vt) : NULL;
    free(vt);
    if (vj) {
      cJSON_AddNumberToObject(vj, "index", shown_at);
      cJSON_AddItemToObject(o, "verdict", vj);
    }
  } else {
    cJSON_AddNullToObject(o, "verdict");
  }
  free(g);
  char *text = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!text) {
    j->ecode = XQ__E_INTERNAL;
    snprintf(j->emsg, sizeof j->emsg, "out of memory");
    return;
  }
  /* "{...}" -> the members without braces */
  size_t len = strlen(text);
  memmove(text, text + 1, len - 2);
  text[len - 2] = '\0';
  j->fields = text;
}

static void job_work(xq__job *w)
{
  job *j = (job *)w;
  if (job_cancelled(j)) return; /* waited in the queue while its client left */
  if (j->kind == JOB_PERFT) {
    j->nodes = perft(j, &j->pos, j->depth);
    char buf[64];
    snprintf(buf, sizeof buf, "\"depth\":%d,\"nodes\":%llu", j->depth, (unsigned long long)j->nodes);
    j->fields = strdup(buf);
    if (!j->fields) {
      j->ecode = XQ__E_INTERNAL;
      snprintf(j->emsg, sizeof j->emsg, "out of memory");
    }
  } else {
    run_adjudicate(j);
  }
}

static void job_free(job *j)
{
  free(j->idtext);
  free(j->fen);
  xq_events_clear(&j->ev);
  free(j->fields);
  free(j);
}

/* The reply of a job: only to a client that is still connected. */
static void job_after(xq__job *w, int status)
{
  job *j = (job *)w;
  xq__conn *c = j->c;
  c->jobs--;
  if (!xq__conn_dead(c) && status == 0 && !j->cancelled) {
    cJSON *id = cJSON_Parse(j->idtext);
    if (j->ecode) xq__reply_error(c, id, j->ecode, j->emsg, j->eply);
    else xq__reply(c, id, j->fields);
    cJSON_Delete(id);
  }
  xq__conn_unref(c);
  job_free(j);
}

/* What a role may have in the engine lane, queued or running: by one
 * connection, and by all its sessions together. The op table says who
 * may ask at all; a role without caps here runs no engine job. */
static const struct {
  int per_conn, all;
} engine_caps[XQ_ROLE_VIEWER + 1] = {
  [XQ_ROLE_ADMIN] = {XQ_ENGINE_JOBS_PER_CONN, XQ_ENGINE_JOBS_ADMIN},
  [XQ_ROLE_ARBITER] = {XQ_ENGINE_JOBS_PER_CONN, XQ_ENGINE_JOBS_ARBITER},
  [XQ_ROLE_BOARD] = {XQ_ENGINE_JOBS_PER_BOARD_CONN, XQ_ENGINE_JOBS_BOARD},
};

/* 0 when the client of `r` may queue one more engine job; else -1 after
 * replying BUSY with the cap it reached (its connection's, or its
 * role's over every session). Jobs of clients that have gone are dropped
 * first: they count for nobody. */
static int engine_cap_check(xq__server *s, xq__req *r)
{
  int role = r->c->role;
  int known = role >= 0 && role <= XQ_ROLE_VIEWER;
  int per_conn = known ? engine_caps[role].per_conn : 0, all = known ? engine_caps[role].all : 0;
  const char *name = xq_role_name(role);
  char msg[160];
  xq__jobs_drop_gone(s, XQ__LANE_ENGINE);
  int mine = xq__jobs_count(s, XQ__LANE_ENGINE, r->c, -1);
  if (mine >= per_conn) {
    snprintf(msg, sizeof msg,
             "this connection has %d engine jobs queued or running, the most for %s %s session: "
             "wait for an answer",
             mine, strchr("aeiou", name[0]) ? "an" : "a", name);
  } else {
    int ours = xq__jobs_count(s, XQ__LANE_ENGINE, NULL, role);
    if (ours < all) return 0;
    snprintf(msg, sizeof msg,
             "the %s sessions have %d engine jobs queued or running, the most the server takes "
             "from that role: wait for an answer",
             name, ours);
  }
  xq__reply_error(r->c, r->id, XQ__E_BUSY, msg, -1);
  return -1;
}

/* A new job for request `r`, or NULL after replying BUSY (a cap of
 * engine_cap_check) or INTERNAL. */
static job *job_new(xq__server *s, xq__req *r, int kind)
{
  if (engine_cap_check(s, r)) return NULL;
  job *j = calloc(1, sizeof *j);
  if (j) j->idtext = xq__reply_id(r->id);
  if (!j || !j->idtext) {
    free(j);
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
    return NULL;
  }
  j->kind = kind;
  j->eply = -1;
  return j;
}

/* Queue job `j` for request `r` (which keeps nothing of it afterwards) in
 * the engine lane: one job of a client runs at a time, the others wait
 * (jobs.c). */
static void job_start(xq__server *s, xq__req *r, job *j)
{
  j->c = r->c;
  if (xq__jobs_queue(s, &j->base, XQ__LANE_ENGINE, r->c, r->c->role, job_work, job_after) != XQ_OK) {
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "cannot queue the job", -1);
    job_free(j);
    return;
  }
  xq__conn_ref(r->c);
  r->c->jobs++;
}

/* perft {fen, moves, depth}: the leaf count, computed off the loop. */
static void op_perft(xq__server *s, xq__req *r)
{
  xq_pos pos;
  movev mv;
  const cJSON *d = cJSON_GetObjectItemCaseSensitive(r->json, "depth");
  if (!xq__field_is_int(d) || d->valueint < 0) {
    xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, "depth must be a whole number from 0", -1);
    return;
  }
  if (d->valueint > XQ_PERFT_DEPTH_MAX) {
    char msg[64];
    snprintf(msg, sizeof msg, "depth %d is over the limit of %d", d->valueint, XQ_PERFT_DEPTH_MAX);
    xq__reply_error(r->c, r->id, XQ__E_LIMIT, msg, -1);
    return;
  }
  if (read_fen(r, 0, &pos, NULL) || read_moves(r, &mv)) return;
  int bad = play_all(r, &pos, &mv, -1);
  free(mv.v);
  if (bad) return;
  job *j = job_new(s, r, JOB_PERFT);
  if (!j) return;
  j->pos = pos;
  j->depth = d->valueint;
  job_start(s, r, j);
}

/* The rules of an adjudicate request: "ruleset" a preset name or a rules
 * object (as a rules file holds), absent = cxa2011. Returns 0 or -1
 * after replying BAD_REQUEST. */
static int read_rules(xq__req *r, xq_rules *out)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(r->json, "ruleset");
  xq_error err = {0};
  char msg[XQ_ERR_MSG_LEN + 64];
  if (!f || cJSON_IsNull(f)) return xq_rules_preset("cxa2011", out) == XQ_OK ? 0 : -1;
  if (cJSON_IsString(f)) {
    if (xq_rules_preset(f->valuestring, out) == XQ_OK) return 0;
    snprintf(msg, sizeof msg, "unknown ruleset \"%.40s\"", f->valuestring);
  } else if (cJSON_IsObject(f)) {
    /* an object is read as JSON text, never as a file name */
    char *text = cJSON_PrintUnformatted(f);
    int rc = text ? xq_rules_load_json(text, out, &err) : XQ_ENOMEM;
    free(text);
    if (rc == XQ_OK) return 0;
    snprintf(msg, sizeof msg, "ruleset: %s", err.msg[0] ? err.msg : xq_strerror(rc));
  } else {
    snprintf(msg, sizeof msg, "ruleset must be a preset name or a rules object");
  }
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, msg, -1);
  return -1;
}

/* adjudicate {fen, moves, ruleset}: the ruling of the list under the
 * rules, computed off the loop (the CXA searches can take a while). */
static void op_adjudicate(xq__server *s, xq__req *r)
{
  xq_pos pos;
  const char *fen;
  xq_rules rules;
  movev mv;
  if (read_fen(r, 0, &pos, &fen) || read_rules(r, &rules) || read_moves(r, &mv)) return;
  job *j = job_new(s, r, JOB_ADJUDICATE);
  if (!j) {
    free(mv.v);
    return;
  }
  j->rules = rules;
  j->nlist = mv.n;
  /* the list read once, here: its first malformed event is answered when
   * play reaches it (a game decided before never does) */
  for (int i = 0; i < mv.n && j->bad_rc == XQ_OK; i++) {
    xq_event ev;
    xq_error err = {0};
    j->bad_rc = xq_event_parse(mv.v[i], strlen(mv.v[i]), &ev, &err);
    if (j->bad_rc == XQ_OK) j->bad_rc = xq_events_add(&j->ev, &ev);
    else snprintf(j->bad_msg, sizeof j->bad_msg, "%s", err.msg);
  }
  free(mv.v);
  if (j->bad_rc == XQ_ENOMEM || (fen && !(j->fen = strdup(fen)))) {
    xq__reply_error(r->c, r->id, XQ__E_INTERNAL, "out of memory", -1);
    job_free(j);
    return;
  }
  job_start(s, r, j);
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

const xq__op xq__engine_ops[] = {
  {"validate_fen", 0, op_validate_fen},
  {"legal_moves", 0, op_legal_moves},
  {"apply", 0, op_apply},
  {"convert", 0, op_convert},
  /* engine jobs: a token, and the caps of engine_cap_check */
  {"perft", XQ__STAFF, op_perft},
  {"adjudicate", XQ__STAFF | XQ__R(XQ_ROLE_BOARD), op_adjudicate},
  {NULL, 0, NULL},
};
