/*
 * clientlimits.h -- every limit of the client programs (loadgen, board,
 * simulate), in one place, as netlimits.h is for the server. A limit that
 * is not here does not exist: code of clients/ that allocates, buffers,
 * waits or counts names one of these.
 */
#ifndef XQ_CLIENT_LIMITS_H
#define XQ_CLIENT_LIMITS_H

#include "netlimits.h"

/* The JSON-lines client (jsonl.c) */
#define XQ_JSONL_READ_MIN 4096             /* bytes each read is offered: a reply buffer starts with
                                              this and doubles, up to its line limit, when less is free */
#define XQ_JSONL_HOST_MAX 256              /* the host of a HOST:PORT */

/* xqref loadgen: many boards replaying games against a server */
#define XQ_LOADGEN_BOARDS_MAX 4000         /* connections of one run (< XQ_MAX_CONNS) */
#define XQ_LOADGEN_GAMES_MAX 100000        /* games read from --games */
#define XQ_LOADGEN_TOKEN_MAX 128           /* bytes of a token */
#define XQ_LOADGEN_TOKENS_LINE_MAX 512     /* a line of the tokens file */
#define XQ_LOADGEN_WINDOW_MAX 64           /* requests in flight per board */
#define XQ_LOADGEN_REPLY_MAX (1024 * 1024) /* a reply line */
#define XQ_LOADGEN_SAMPLES_MAX (1L << 25)  /* latency samples kept (8 bytes each) */
#define XQ_LOADGEN_RATE_MAX 1000           /* --rate moves per second per board */
#define XQ_LOADGEN_DRAIN_MS 10000          /* wait for replies after --duration */
#define XQ_LOADGEN_CONNECT_MS 15000        /* every board connected and greeted */
#define XQ_LOADGEN_ERRCODES_MAX 32         /* distinct error codes counted */
#define XQ_LOADGEN_VERDICTS_MAX 32         /* distinct verdicts counted */
#define XQ_LOADGEN_VIEWERS_MAX 20000       /* --viewers plus --sse connections (the server takes
                                              XQ_MAX_CONNS; an edge as many as nginx is given) */
#define XQ_LOADGEN_VIEWER_URLS_MAX 8       /* --viewer-url given (the viewers take them in turn) */
#define XQ_LOADGEN_VIEWER_BUF 16384        /* a viewer's read buffer (bytes are counted, not kept) */
#define XQ_LOADGEN_CPUS_MAX 1024          /* --viewer-cpu takes a core below this (glibc's CPU_SETSIZE) */
#define XQ_LOADGEN_VIEWER_NICE 10          /* the viewers' thread's nice value: the boards (and
                                              the server) win a shared core from it */
#define XQ_LOADGEN_EVENT_TYPE_MAX 24       /* an SSE event's type held back to see whether it is an
                                              edge's batch (a longer one is not, and is kept as is) */
#define XQ_LOADGEN_VIEWER_QUIET_MS 1000    /* after the boards: viewers end when nothing came this long */
#define XQ_LOADGEN_VIEWER_DRAIN_MS 10000   /* ... or this long after the boards, at the latest */
#define XQ_LOADGEN_VIEWER_QUIET_TICKS 10   /* the viewers' timer looks this often within XQ_LOADGEN_VIEWER_QUIET_MS */
#define XQ_LOADGEN_DURATION_MAX 86400      /* --duration seconds */
#define XQ_LOADGEN_CLOCK_START_MS 5400000L /* each side's clock as a replayed game starts: 90 minutes */

/* xqref board: one table played from a terminal */
#define XQ_BOARD_INPUT_MAX 4096            /* one command line from stdin */
#define XQ_BOARD_REPLY_MAX XQ_MAX_LINE     /* one reply line from the server */
#define XQ_BOARD_REPLY_TIMEOUT_S 30        /* a reply that takes longer: give up */

/* xqref simulate: a whole event on the real server */
#define XQ_SIM_PLAYERS_DEFAULT 150         /* players when the preset sets no entry limit */
#define XQ_SIM_GROUP_PLAYERS_DEFAULT 30    /* players of a group's own event (--group) */
#define XQ_SIM_RR_PLAYERS_DEFAULT 10       /* entrants of a round robin (--format rr|rr2) */
#define XQ_SIM_PLAYERS_MAX 2000            /* players of one simulated event */
#define XQ_SIM_TEAM_EVENT_TEAMS_MAX 100    /* teams of a simulated team event (--teams) */
#define XQ_SIM_TEAMS_DEFAULT 6             /* ... when not given */
#define XQ_SIM_TEAM_BOARDS_DEFAULT 4       /* boards of its matches when --boards is not given */
#define XQ_SIM_TEAM_ROUNDS_DEFAULT 5       /* a team Swiss's rounds when --rounds is not given */
#define XQ_SIM_PLIES_MAX 400               /* longest game the options may ask for */
#define XQ_SIM_RATE_MAX 1000               /* incident rates are per mille */
#define XQ_SIM_PATH_MAX 1024               /* bytes of a store path or output directory */
#define XQ_SIM_WINDOW_DEFAULT 4            /* plain moves in flight per board */
#define XQ_SIM_WINDOW_MAX 64               /* moves a board may keep in flight */
#define XQ_SIM_LINE 1024                   /* one request line */
#define XQ_SIM_LINE_MAX (1024 * 1024)      /* longest reply line read */
#define XQ_SIM_TOKEN_MAX 16                /* an event token ("held:h2e2") */
#define XQ_SIM_TOKEN_SIZE (XQ_TOKEN_CHARS + 1) /* an access token's bytes, its NUL included */
#define XQ_SIM_CALL_MS 60000               /* a synchronous request's answer */
#define XQ_SIM_ROUND_MS 600000             /* one round's games, at most */
#define XQ_SIM_TEAMS_MAX 1000              /* teams listed */
#define XQ_SIM_INCIDENT_TRIES 40           /* plies an incident waits for a fitting move */
#define XQ_SIM_REPEAT_SENDS_MAX 32         /* cycle moves sent before the players give up */
#define XQ_SIM_THINK_MIN_MS 2000           /* a move's thinking time, at least ... */
#define XQ_SIM_THINK_SPAN_MS 28000         /* ... and up to this much more */
#define XQ_SIM_CLOCK_FLOOR_MS 60000        /* plain games keep a minute on the clock: flag falls are planned */
#define XQ_SIM_HOME_REGIONS 12             /* regions the entrants come from, besides the prize table's */
#define XQ_SIM_CLUBS_PER_REGION 3          /* clubs of a region */

#endif /* XQ_CLIENT_LIMITS_H */
