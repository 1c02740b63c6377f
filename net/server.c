/*
 * server.c -- the server's life: listen, open the store, load the games,
 * serve, and shut down gracefully.
 *
 * Shutdown: stop accepting, tell every client and half-close it once its
 * queued writes have gone, let the group commit write what it holds, then
 * close whatever is left when the grace period ends. Every handle is
 * closed with a callback, so after uv_run returns uv_loop_close is 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "commit.h"
#include "conn.h"
#include "delay.h"
#include "http.h"
#include "hub.h"
#include "ingest.h"
#include "answers.h"
#include "internal.h"
#include "live.h"
#include "poller.h"
#include "proto.h"
#include "publish.h"
#include "teammatch.h"


void xq_server_opts_default(xq_server_opts *o)
{
  memset(o, 0, sizeof *o);
  o->db = "xqref.db";
  o->listen = "127.0.0.1:7878";
  o->http = "127.0.0.1:8080";
  o->rules = "cxa2011";
  o->demo_players = 16;
}

static int fail(xq_error *err, int code, const char *fmt, const char *arg)
{
  if (err) {
    err->code = code;
    err->pos = -1;
    err->ply = -1;
    snprintf(err->msg, sizeof err->msg, fmt, arg);
  }
  return code;
}

int xq__server_reload(xq__server *s, xq_error *err)
{
  xq_tournament *ev = NULL;
  int rc = xq_tstore_load(s->store, &ev, err);
  if (rc != XQ_OK) return rc;
  xq_tournament_free(s->ev);
  s->ev = ev;
  s->team_read = 0; /* its team event is read again too (another process may have written it) */
  xq__live_changed(s, 0); /* names, numbers, results: every answer shows them */
  return XQ_OK;
}

const xq_ttoken *xq__server_token(xq__server *s, const char *token)
{
  if (!token) return NULL;
  unsigned char h[XQ_SHA256_LEN];
  xq_sha256(token, strlen(token), h);
  /* every cached hash is compared whole, no early exit: the time taken
   * depends on the number of tokens only */
  int found = -1;
  for (int i = 0; i < s->ntokens; i++) {
    int eq = xq_ct_equal(h, s->token_hash[i], XQ_SHA256_LEN);
    found = eq && found < 0 ? i : found;
  }
  return found >= 0 ? &s->tokens[found] : NULL;
}

/* The SHA-256 of token `t` from its hex form (the store gives it so). */
static void hash_bin(const xq_ttoken *t, unsigned char h[XQ_SHA256_LEN])
{
  for (int k = 0; k < XQ_SHA256_LEN; k++) {
    const char *x = t->hash + 2 * k;
    int hi = x[0] <= '9' ? x[0] - '0' : x[0] - 'a' + 10, lo = x[1] <= '9' ? x[1] - '0' : x[1] - 'a' + 10;
    h[k] = (unsigned char)(hi * 16 + lo);
  }
}

int xq__server_tokens(xq__server *s, xq_error *err)
{
  xq_ttoken *t = NULL;
  int n = 0;
  int rc = xq_tstore_tokens(s->store, &t, &n, err);
  if (rc != XQ_OK) return rc;
  unsigned char (*h)[XQ_SHA256_LEN] = n ? malloc(sizeof *h * (size_t)n) : NULL;
  if (n && !h) {
    free(t);
    if (err) *err = (xq_error){XQ_ENOMEM, -1, -1, "out of memory"};
    return XQ_ENOMEM;
  }
  for (int i = 0; i < n; i++) hash_bin(&t[i], h[i]);
  free(s->tokens);
  free(s->token_hash);
  s->tokens = t;
  s->token_hash = h;
  s->ntokens = n;
  return XQ_OK;
}

int xq__server_tokens_add(xq__server *s, const xq_ttoken *k, int n)
{
  int add = 0;
  for (int i = 0; i < n; i++) add += k[i].hash[0] != 0;
  if (!add) return XQ_OK;
  size_t want = (size_t)s->ntokens + (size_t)add;
  xq_ttoken *t = realloc(s->tokens, sizeof *t * want);
  if (t) s->tokens = t;
  unsigned char (*h)[XQ_SHA256_LEN] = t ? realloc(s->token_hash, sizeof *h * want) : NULL;
  if (h) s->token_hash = h;
  if (!t || !h) return XQ_ENOMEM; /* both arrays hold the ntokens they had */
  for (int i = 0; i < n; i++) {
    if (!k[i].hash[0]) continue;
    t[s->ntokens] = k[i];
    /* the cache keeps what the store keeps: the hash, not the token */
    memset(t[s->ntokens].token, 0, sizeof t[s->ntokens].token);
    hash_bin(&k[i], h[s->ntokens]);
    s->ntokens++;
  }
  return XQ_OK;
}

/* Parse "host:port" ("[::1]:7878" for IPv6) into a socket address. */
static int parse_addr(const char *text, struct sockaddr_storage *sa, xq_error *err)
{
  char host[XQ_ADDR_MAX];
  const char *colon = strrchr(text, ':');
  if (!colon || (size_t)(colon - text) >= sizeof host)
    return fail(err, XQ_EINVAL, "bad address '%.80s' (want HOST:PORT)", text);
  char *end;
  long port = strtol(colon + 1, &end, 10);
  if (*end || end == colon + 1 || port < 0 || port > 65535)
    return fail(err, XQ_EINVAL, "bad port in '%.80s'", text);
  size_t hl = (size_t)(colon - text);
  memcpy(host, text, hl);
  host[hl] = 0;
  if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
    host[hl - 1] = 0;
    if (uv_ip6_addr(host + 1, (int)port, (struct sockaddr_in6 *)sa) == 0) return XQ_OK;
  } else if (uv_ip4_addr(host, (int)port, (struct sockaddr_in *)sa) == 0) {
    return XQ_OK;
  }
  return fail(err, XQ_EINVAL, "bad host in '%.80s' (want an IP address)", text);
}

/* A burst of connections is accepted XQ_ACCEPT_BURST a turn of the loop
 * on each listener, with the loop's reads between: those accepted are
 * read (an event stream handed to the fan-out, leaving its slot) before
 * the next are taken, so that a crowd connecting at once does not fill
 * the slots before any of its requests is read. A listener whose
 * connection is not accepted in its callback holds it, and libuv stops
 * watching the listener until it is (uv_accept). */
static void on_conn(uv_stream_t *server, int status, int which, const xq__proto *proto)
{
  xq__server *s = server->data;
  if (status != 0) return;
  if (s->accepted[which] >= XQ_ACCEPT_BURST) {
    s->held[which] = 1; /* for the next turn (on_pace) */
    return;
  }
  s->accepted[which]++;
  xq__conn_accept(s, server, proto);
}

static void on_json_conn(uv_stream_t *server, int status) { on_conn(server, status, 0, &xq__json_proto); }
static void on_http_conn(uv_stream_t *server, int status) { on_conn(server, status, 1, &xq__http_proto); }

/* After each turn: a new burst may be accepted, the held connections
 * first (which sets the listeners watching again). */
static void on_pace(uv_check_t *h)
{
  xq__server *s = h->data;
  s->accepted[0] = s->accepted[1] = 0;
  xq__turns_next(s);
  if (s->stopping) return;
  if (s->held[0]) {
    s->held[0] = 0;
    on_json_conn((uv_stream_t *)&s->json_listener, 0);
  }
  if (s->held[1]) {
    s->held[1] = 0;
    on_http_conn((uv_stream_t *)&s->http_listener, 0);
  }
}

/* Bind and listen on `addr`; *port gets the real port. */
static int listen_on(xq__server *s, uv_tcp_t *tcp, const char *addr, uv_connection_cb cb,
                     int *port, xq_error *err)
{
  struct sockaddr_storage sa;
  int rc = parse_addr(addr, &sa, err);
  if (rc) return rc;
  uv_tcp_init(s->loop, tcp);
  tcp->data = s;
  s->listening++;
  int e = uv_tcp_bind(tcp, (struct sockaddr *)&sa, 0);
  if (!e) e = uv_listen((uv_stream_t *)tcp, XQ_LISTEN_BACKLOG, cb);
  if (e) return fail(err, XQ_EIO, "cannot listen: %s", uv_strerror(e));
  struct sockaddr_storage got;
  int len = sizeof got;
  uv_tcp_getsockname(tcp, (struct sockaddr *)&got, &len);
  *port = ntohs(got.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&got)->sin6_port
                                          : ((struct sockaddr_in *)&got)->sin_port);
  return XQ_OK;
}

/* Print "NAME HOST:PORT" with the real port. */
static void print_addr(FILE *out, const char *name, const char *addr, int port)
{
  if (!out) return;
  const char *colon = strrchr(addr, ':');
  fprintf(out, "%s %.*s:%d\n", name, (int)(colon - addr), addr, port);
  fflush(out);
}

/* 1 when the store has a live admin token, 0 when not, or a status. */
static int has_admin(xq_tstore *st, xq_error *err)
{
  xq_ttoken *t = NULL;
  int n = 0, found = 0;
  int rc = xq_tstore_tokens(st, &t, &n, err);
  if (rc) return rc;
  for (int i = 0; i < n; i++) found |= t[i].role == XQ_ROLE_ADMIN;
  free(t);
  return found;
}

/* Create DB.admin (path[] gets its name, *fd its descriptor), readable
 * by the owner only, for the admin token about to be made; an existing
 * file is never overwritten (O_EXCL), whatever it holds. `fresh`: the
 * store is new (the message says which). Returns XQ_OK, or XQ_EIO or
 * XQ_ELIMIT with `err`. */
static int admin_file_create(const char *db, int fresh, char *path, size_t len, int *fd, xq_error *err)
{
  if (snprintf(path, len, "%s.admin", db) >= (int)len)
    return xq_error_set(err, XQ_ELIMIT, -1, -1, "path too long: %.80s", db);
  *fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (*fd >= 0) return XQ_OK;
  if (errno != EEXIST)
    return xq_error_set(err, XQ_EIO, -1, -1, "cannot create %.80s: %.60s", path, strerror(errno));
  if (fresh)
    return xq_error_set(err, XQ_EIO, -1, -1, "%.60s exists (from an earlier store?) and is never "
                        "overwritten: move it away, then start again", path);
  return xq_error_set(err, XQ_EIO, -1, -1, "no live admin token, and %.60s exists (a revoked one?): it is "
                      "never overwritten; move it away, then start again", path);
}

/* Write the new admin token to the file admin_file_create made. */
static int admin_file_write(int fd, const char *path, const char *token, xq_error *err)
{
  fchmod(fd, 0600);
  size_t n = strlen(token);
  int ok = write(fd, token, n) == (ssize_t)n && write(fd, "\n", 1) == 1 && fsync(fd) == 0, e = errno;
  close(fd);
  if (ok) return XQ_OK;
  unlink(path);
  return xq_error_set(err, XQ_EIO, -1, -1, "cannot write %.80s: %.60s", path, strerror(e));
}

/* Open the store; a new one gets an event (the demo, or an empty one
 * named after the file). A store without a live admin token gets one,
 * printed once and kept in DB.admin, which must not exist yet: it is
 * made before anything is written, so that a refusal leaves no token
 * unseen. */
static int open_store(xq__server *s, xq_error *err)
{
  const xq_server_opts *o = &s->opts;
  xq_ttoken *made = NULL; /* the demo's tokens with their text */
  int nmade = 0;
  int rc = xq_tstore_open(o->db, o->init ? XQ_TSTORE_INIT : XQ_TSTORE_CREATE, &s->store, err);
  if (rc) return rc;
  int fresh = xq_tstore_event_count(s->store) == 0 && xq__server_reload(s, NULL) != XQ_OK;
  int live = has_admin(s->store, err), fd = -1;
  char path[4096];
  if (live < 0) return live;
  if (!live && (rc = admin_file_create(o->db, fresh, path, sizeof path, &fd, err))) return rc;
  if (fresh) {
    if (o->demo) {
      rc = xq_tourney_demo_tokens(s->store, o->demo_players > 0 ? o->demo_players : 16, &made, &nmade, err);
    } else {
      xq_tconfig cfg;
      xq_tconfig_default(&cfg);
      rc = xq_tstore_create_event(s->store, "xqref tournament", &cfg, err);
    }
  }
  xq_ttoken admin;
  int created = 0;
  if (!rc) rc = xq_tstore_admin_token(s->store, &admin, &created, err);
  if (!rc && created && fd < 0) /* another process revoked the admin token meanwhile */
    rc = admin_file_create(o->db, fresh, path, sizeof path, &fd, err);
  if (!rc && created) rc = admin_file_write(fd, path, admin.token, err);
  else if (fd >= 0) {
    close(fd); /* nothing made after all (an error, or another process made one) */
    unlink(path);
  }
  if (rc) {
    free(made);
    return rc;
  }
  if (created && o->out) fprintf(o->out, "admin %s (also in %s)\n", admin.token, path);
  rc = xq__server_reload(s, err);
  if (!rc) rc = xq__server_tokens(s, err);
  /* the demo's tokens, shown once: the store keeps only their hashes */
  for (int i = 0; !rc && o->out && i < nmade; i++) {
    const xq_ttoken *t = &made[i];
    if (t->role == XQ_ROLE_BOARD)
      fprintf(o->out, "board %d %d %s\n", t->round, t->board, t->token);
    else if (t->role == XQ_ROLE_ARBITER)
      fprintf(o->out, "arbiter - - %s\n", t->token);
  }
  free(made);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Tokens changed by another process (docs/security.md)                */
/* ------------------------------------------------------------------ */

/* With the store idle: when another process committed to the store since
 * the tokens were read (`xqref tourney revoke` or `tourney token` while
 * the server runs), read them again and end the sessions of revoked
 * ones. PRAGMA data_version costs no table read, so this runs every
 * XQ_TOKEN_RECHECK_MS. */
static void recheck_now(xq__server *s)
{
  int64_t v = xq_tstore_data_version(s->store);
  if (v < 0 || v == s->data_version) return;
  xq_error err = {0};
  if (xq__server_tokens(s, &err) != XQ_OK) {
    xq__log(s, "cannot read the tokens again: %s", err.msg); /* the next tick retries */
    return;
  }
  s->data_version = v;
  xq__log(s, "the store was changed by another process: tokens read again (%d live)", s->ntokens);
  xq__proto_revoked(s);
}

static void recheck_after_commit(xq__server *s, void *arg, int status)
{
  (void)status, (void)arg;
  s->recheck_waiting = 0;
  if (!s->stopping) recheck_now(s);
}

/* The store's file watched while idle: deleted or replaced under the
 * server, it is said once (every write is refused from then on, by the
 * store); the disk below XQ_STORE_FREE_WARN, once a minute. */
static void watch_store(xq__server *s)
{
  xq_error err = {0};
  if (!s->store_gone && xq_tstore_file_ok(s->store, &err) != XQ_OK) {
    s->store_gone = 1;
    xq__log(s, "STORE LOST: %s; every write is refused until the server is restarted on the store", err.msg);
  }
  uint64_t now = uv_now(s->loop);
  struct statvfs vfs;
  if (s->opts.db && (!s->free_warned_at || now - s->free_warned_at >= 60000) && statvfs(s->opts.db, &vfs) == 0) {
    long long left = (long long)vfs.f_bavail * (long long)vfs.f_frsize;
    if (left < XQ_STORE_FREE_WARN) {
      s->free_warned_at = now;
      xq__log(s, "DISK LOW: %lld MB left where the store is; when it is full no move is acknowledged",
              left / (1024 * 1024));
    }
  }
}

static void on_recheck(uv_timer_t *t)
{
  xq__server *s = t->data;
  if (s->stopping) return;
  watch_store(s);
  /* the memory of the connections dropped a second ago (their handles
   * are closed by now) goes back to the system, not kept by malloc for a
   * crowd that will not come back */
#ifdef __GLIBC__
  if (s->give_back) malloc_trim(0);
#endif
  s->give_back = xq__conn_drop_deaf(s) > 0;
  /* revoked sessions whose last owed reply has gone meanwhile */
  for (xq__conn *c = s->conns, *next; c; c = next) {
    next = c->next;
    if (c->revoked == 1) xq__proto_end_if_done(c);
  }
  /* the loop may use the store only when no group commit runs */
  if (xq__commit_idle(s)) recheck_now(s);
  else if (!s->recheck_waiting) {
    s->recheck_waiting = 1;
    xq__commit_then(s, recheck_after_commit, NULL);
  }
}

static void on_signal(uv_signal_t *sig, int signum)
{
  xq__server *s = sig->data;
  xq__log(s, "signal %d: shutting down", signum);
  xq_server_stop(s);
}

int xq_server_start(uv_loop_t *loop, const xq_server_opts *o, xq_server **out, xq_error *err)
{
  *out = NULL;
  xq__server *s = calloc(1, sizeof *s);
  if (!s) return fail(err, XQ_ENOMEM, "%s", "out of memory");
  s->loop = loop;
  s->opts = *o;
  s->log = o->log;
  int rc = xq_rules_from_spec(o->rules ? o->rules : "cxa2011", &s->rules, err);
  /* both ports first: a port that is taken fails the start before the
   * store is created or migrated and before a token is made or printed
   * (no connection is served before the loop runs) */
  if (!rc) rc = listen_on(s, &s->json_listener, o->listen, on_json_conn, &s->json_port, err);
  if (!rc && o->http) rc = listen_on(s, &s->http_listener, o->http, on_http_conn, &s->http_port, err);
  if (!rc) rc = open_store(s, err);
  if (!rc && (rc = xq__delay_init(s)) != XQ_OK) fail(err, rc, "%s", "out of memory");
  if (!rc) rc = xq__live_load(s, err);
  if (!rc) rc = xq__commit_init(s);
  if (!rc) rc = xq__hub_init(s);
  if (!rc) rc = xq__publish_init(s);
  if (!rc) rc = xq__ingest_init(s);
  if (!rc) rc = xq__poller_init(s);
  if (!rc) rc = xq__turns_init(s);
  if (!rc) xq__live_settle_all(s);
  uv_timer_init(loop, &s->grace);
  s->grace.data = s;
  uv_check_init(loop, &s->pace);
  s->pace.data = s;
  uv_check_start(&s->pace, on_pace);
  uv_unref((uv_handle_t *)&s->pace); /* never keeps the loop alive */
  s->pace_on = 1;
  if (rc) {
    if (err && err->code == 0) fail(err, rc, "%s", "cannot start the server");
    xq_server_stop(s);
    uv_run(loop, UV_RUN_DEFAULT);
    xq_server_free(s);
    return rc;
  }
  s->data_version = xq_tstore_data_version(s->store);
  uv_timer_init(loop, &s->recheck);
  s->recheck.data = s;
  uv_timer_start(&s->recheck, on_recheck, XQ_TOKEN_RECHECK_MS, XQ_TOKEN_RECHECK_MS);
  uv_unref((uv_handle_t *)&s->recheck);
  s->recheck_on = 1;
  print_addr(o->out, "json", o->listen, s->json_port);
  if (o->http) print_addr(o->out, "http", o->http, s->http_port);
  if (o->signals) {
    uv_signal_init(loop, &s->sigint);
    uv_signal_init(loop, &s->sigterm);
    s->sigint.data = s->sigterm.data = s;
    /* one-shot: a second Ctrl-C during shutdown kills the process */
    uv_signal_start_oneshot(&s->sigint, on_signal, SIGINT);
    uv_signal_start_oneshot(&s->sigterm, on_signal, SIGTERM);
    s->signals = 1;
  }
  xq__log(s, "serving %s: %d players, %d rounds paired, %d games", o->db, s->ev ? s->ev->n : 0,
          s->ev ? s->ev->nrounds : 0, s->nlive);
  *out = s;
  return XQ_OK;
}

int xq_server_port(const xq_server *s, int which) { return which ? s->http_port : s->json_port; }

static void on_closed_quietly(uv_handle_t *h) { (void)h; }

static const char bye_line[] = "{\"event\":\"shutdown\",\"data\":{}}\n";

/* Shutdown tick: end once the clients and the commit are done, or close
 * what is left once the grace period is over. */
static void on_drain(uv_timer_t *t)
{
  xq__server *s = t->data;
  uint64_t elapsed = uv_now(s->loop) - s->grace_started;
  if (elapsed >= XQ_SHUTDOWN_GRACE_MS)
    while (s->conns) xq__conn_close(s->conns);
  if (s->conns || s->judging || !xq__commit_drained(s)) return;
  /* the last events on their way to the edge, within the grace period */
  if (!xq__publish_drained(s) && elapsed < XQ_SHUTDOWN_GRACE_MS) return;
  uv_timer_stop(t);
  uv_close((uv_handle_t *)t, on_closed_quietly);
  xq__commit_close(s);
  xq__hub_close(s);
  xq__delay_close(s);
  xq__publish_close(s);
  xq__poller_close(s);
  xq__log(s, "stopped");
}

void xq_server_stop(xq_server *s)
{
  if (s->stopping) return;
  s->stopping = 1;
  if (s->listening >= 1) uv_close((uv_handle_t *)&s->json_listener, on_closed_quietly);
  if (s->listening >= 2) uv_close((uv_handle_t *)&s->http_listener, on_closed_quietly);
  s->listening = 0;
  if (s->pace_on) {
    uv_close((uv_handle_t *)&s->pace, on_closed_quietly);
    s->pace_on = 0;
  }
  xq__turns_close(s);
  if (s->recheck_on) {
    uv_close((uv_handle_t *)&s->recheck, on_closed_quietly);
    s->recheck_on = 0;
  }
  if (s->signals) {
    uv_close((uv_handle_t *)&s->sigint, on_closed_quietly);
    uv_close((uv_handle_t *)&s->sigterm, on_closed_quietly);
    s->signals = 0;
  }
  for (xq__conn *c = s->conns, *next; c; c = next) {
    next = c->next;
    if (c->proto == &xq__json_proto) xq__conn_send(c, bye_line, sizeof bye_line - 1);
    /* replies still waiting for the commit go out before the half-close */
    if (c->pending_replies == 0) xq__conn_end(c);
  }
  s->grace_started = uv_now(s->loop);
  uv_timer_start(&s->grace, on_drain, XQ_DRAIN_TICK_MS, XQ_DRAIN_TICK_MS);
}

void xq_server_free(xq_server *s)
{
  if (!s) return;
  xq__poller_free(s);
  xq__ingest_free(s);
  xq__publish_free(s);
  xq__hub_free(s);
  xq__commit_free(s);
  xq__delay_free(s);
  xq__live_free(s);
  xq__live_json_free(s);
  xq__answers_free(s);
  xq_tstore_close(s->store);
  xq_tournament_free(s->ev);
  xq_tm_event_free(s->team);
  free(s->tokens);
  free(s->token_hash);
  free(s);
}

/* ------------------------------------------------------------------ */
/* Serving until a signal                                              */
/* ------------------------------------------------------------------ */

int xq_serve(const xq_server_opts *opts, xq_error *err)
{
  xq_server_opts o = *opts;
  o.signals = 1;
  uv_loop_t loop;
  uv_loop_init(&loop);
  xq_server *s;
  int rc = xq_server_start(&loop, &o, &s, err);
  if (rc != XQ_OK) {
    uv_loop_close(&loop);
    return rc;
  }
  uv_run(&loop, UV_RUN_DEFAULT);
  int fanout = xq__hub_fanout_status(s); /* the fan-out thread's loop */
  xq_server_free(s);
  rc = uv_loop_close(&loop);
  if (!rc) rc = fanout;
  if (rc) return fail(err, XQ_EIO, "handles left open at exit: %s", uv_strerror(rc));
  return XQ_OK;
}
