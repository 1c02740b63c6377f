/*
 * internal.h -- the server itself, shared by every file of net/ (xq__
 * prefix; not a public interface: that is net.h): the server struct
 * (server.c), the request and operation types every operation takes, the
 * log (log.c) and the token cache. Each room of net/ has a header of its
 * own, included only by the files that use it (docs/architecture.md; the
 * layout check says who may include which):
 *
 *   conn.h     buffers and connections (conn.c)
 *   proto.h    JSON lines: framing, dispatch, replies, error codes (proto.c)
 *   ops.h      the operation tables and what the ops_*.c files lend each other
 *   task.h     operations that wait for the store (task.c)
 *   jobs.h     CPU jobs on the worker pool (jobs.c)
 *   live.h     the games in play (live.c) and their views (live_json.c, live_pgn.c)
 *   commit.h   the durability queue: the group commit of the game log (commit.c)
 *   hub.h      the broadcast (hub.c)
 *   fanout.h   the SSE viewers' thread (fanout.c; only hub.c uses it)
 *   publish.h  the posts to an nginx + nchan edge (publish.c)
 *   delay.h    the delayed broadcast for anonymous readers (delay.c)
 *   http.h     HTTP/1.1: the protocol (http.c) and the API handlers (http_api.c)
 *   http_parse.h  the HTTP/1.1 parser (http_parse.c)
 *   ingest.h   PGN ingestion (ingest.c)
 *   poll.h     PGN URL polling (poller.c)
 *   url.h      http:// URLs: name lookup (url.c)
 */
#ifndef XQ_NET_INTERNAL_H
#define XQ_NET_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "adjudicator.h"
#include "knockout.h"
#include "net.h"
#include "netlimits.h"
#include "pair/pair.h"
#include "store/store.h"
#include "tourney.h"

typedef struct xq__server xq__server;
typedef struct xq__conn xq__conn;

/* ------------------------------------------------------------------ */
/* Requests and operations                                             */
/* ------------------------------------------------------------------ */

/* One request being served. */
typedef struct xq__req {
  xq__conn *c;
  const cJSON *json;           /* the whole request object */
  const cJSON *id;             /* the "id" member, NULL when absent */
  const char *op;
} xq__req;

typedef void (*xq__op_fn)(xq__server *s, xq__req *r);

/* Role bits of an operation; 0 = anyone, before or after hello. */
#define XQ__R(role) (1u << (role))
#define XQ__STAFF (XQ__R(XQ_ROLE_ADMIN) | XQ__R(XQ_ROLE_ARBITER))
typedef struct xq__op {
  const char *name;
  unsigned roles;
  xq__op_fn fn;
} xq__op;

/* ------------------------------------------------------------------ */
/* The server (server.c)                                               */
/* ------------------------------------------------------------------ */

typedef struct xq__commit xq__commit;  /* commit.c */
typedef struct xq__hub xq__hub;        /* hub.c */
typedef struct xq__ingest xq__ingest;  /* ingest.c */
typedef struct xq__pollers xq__pollers;    /* poller.c */
typedef struct xq__jobs xq__jobs;      /* jobs.c */
typedef struct xq__live xq__live;      /* live.c */
typedef struct xq__publish xq__publish; /* publish.c */
typedef struct xq__delay xq__delay;    /* delay.c */

struct xq__server {
  uv_loop_t *loop;
  xq_server_opts opts;
  uv_tcp_t json_listener, http_listener;
  int json_port, http_port;
  int listening;               /* listeners open */
  uv_check_t pace;             /* after each loop turn, the next burst of connections */
  int pace_on;                 /* the pace handle was started (closed at stop) */
  int accepted[2];             /* accepted this turn on the JSON-lines (0), HTTP (1) listener ... */
  int held[2];                 /* ... and whether it holds the next one back */
  uv_idle_t turns;             /* serves the ready queue each turn while it is not empty (turns.c) */
  int turns_on;                /* the idle handle was initialised (closed at stop) */
  uint64_t turn;               /* loop turns so far */
  uint64_t anon_ns;            /* time the anonymous connections were served this turn */
  xq__conn *ready[2], *ready_tail[2]; /* connections that yielded: boards' and staff's (0), anonymous (1) */
  uv_signal_t sigint, sigterm;
  int signals;                 /* signal handles started */
  uv_timer_t grace;            /* shutdown: drain tick */
  uint64_t grace_started;      /* loop time the shutdown began */
  uv_check_t check;            /* starts a group commit after each loop turn */
  int stopping;
  int judging;                 /* rulings running on the worker pool */
  int rebuild_armed;           /* games marked after a failed commit wait for their rebuild (live.c) */
  xq_tstore *store;
  xq_tournament *ev;               /* the event as loaded from the store */
  struct xq_tm_event *team;    /* its team competition as last read (ops_team.c), NULL none or not read */
  int team_read;               /* `team` is read (NULL then: not a team event); 0 after a change */
  xq_ko *ko;                   /* its knockout stage and tables (live.c), NULL before loading */
  xq_rules rules;              /* the rule set games are judged by */
  xq_ttoken *tokens;           /* live tokens, refreshed on change */
  uv_timer_t recheck;          /* every XQ_TOKEN_RECHECK_MS: did another process change the store? */
  int recheck_on;              /* the timer was started (closed at stop) */
  int recheck_waiting;         /* a re-check waits for the commit under way */
  int store_gone;              /* the store's file was deleted or replaced: logged once */
  int give_back;               /* connections were dropped: their memory goes back to the system */
  uint64_t free_warned_at;     /* loop time of the last "disk low" log line, 0 none */
  int64_t data_version;        /* xq_tstore_data_version when the tokens were last read */
  unsigned char (*token_hash)[XQ_SHA256_LEN]; /* SHA-256 of tokens[i] (security.md) */
  int ntokens;
  xq__conn *conns;             /* every open connection */
  xq__conn *vconns;            /* sessions without a socket (POST /api/op) in flight */
  int nconns;
  int nanon;                   /* connections without a token on the anonymous slots */
  int nreserve;                /* connections on a reserved slot, not authenticated yet */
  uint64_t next_gen;
  xq__live **rounds[XQ_ROUNDS_LIVE_MAX + 1]; /* [round][board - 1], NULL for a bye */
  int nboards[XQ_ROUNDS_LIVE_MAX + 1];        /* boards of each published round */
  int nlive;                   /* games in all rounds */
  uint64_t round_version[XQ_ROUNDS_LIVE_MAX + 1]; /* bumped by every change a round's answers show */
  struct xq__round_cache *round_cache[XQ_ROUNDS_LIVE_MAX + 1]; /* its answers as last made (live_json.c) */
  uint64_t tournament_version; /* bumped by every change of the tournament answers show (answers.c) */
  struct xq__answers *answers; /* answers kept until what they show changes (answers.c) */
  xq__commit *commit;
  xq__hub *hub;
  xq__ingest *ingest;
  xq__pollers *poll;             /* the PGN URL pollers (poller.c) */
  xq__publish *publish;        /* --publish, NULL without */
  xq__delay *delay;            /* what anonymous readers do not see yet (delay.c) */
  xq__jobs *jobs;              /* CPU jobs running and waiting, NULL none (jobs.c; needed by ops_engine.c) */
  FILE *log;                   /* one line per notable event, NULL quiet */
};

/* Printf one line to the server log (s->log) with the time of day, when
 * there is a log (log.c). */
void xq__log(xq__server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reload s->ev from the store (after a tourney write). XQ_OK or XQ_ESTORE. */
int xq__server_reload(xq__server *s, xq_error *err);
/* Refresh the token cache from the store. */
int xq__server_tokens(xq__server *s, xq_error *err);
/* Add the tokens k[0..n) just made (xq_tstore_token_new; an entry with
 * no hash is skipped) to the end of the token cache, where a refresh
 * would put them (the store lists tokens in creation order), instead of
 * reading every token again; their text is not kept. XQ_OK, or XQ_ENOMEM
 * with the cache as it was (refresh it then). */
int xq__server_tokens_add(xq__server *s, const xq_ttoken *k, int n);
/* The live token `token` (any text, NULL accepted), or NULL: its SHA-256
 * is compared with every cached token's in constant time, all of them
 * looked at, so neither the answer's timing nor an early exit tells how
 * much of a guess was right (proto.c; docs/security.md). */
const xq_ttoken *xq__server_token(xq__server *s, const char *token);

#endif /* XQ_NET_INTERNAL_H */
