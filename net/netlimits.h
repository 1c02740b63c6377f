/*
 * netlimits.h -- every resource limit of the server, in one place (docs/server.md).
 * A limit that is not here does not exist: code that allocates,
 * buffers, waits or counts on behalf of a client names one of these.
 */
#ifndef XQ_NET_LIMITS_H
#define XQ_NET_LIMITS_H

/* Framing */
#define XQ_MAX_LINE (64 * 1024)          /* one JSON line, '\n' excluded; longer: error + close */
#define XQ_HTTP_HEAD_MAX (16 * 1024)     /* request line + headers */
#define XQ_HTTP_HEADERS_MAX 64           /* header fields of one request */
#define XQ_HTTP_BODY_MAX (4 * 1024 * 1024) /* the body of a PGN push, the largest a route takes; a
                                            route takes a body only if it says so, and its
                                            Content-Length is judged on the head (http.c) */
#define XQ_HTTP_OP_BODY_MAX XQ_MAX_LINE  /* the body of POST /api/op (its JSON lines) */
#define XQ_PGN_PUSH_GAMES_MAX 128        /* games in one push */
#define XQ_PGN_FETCH_MAX (8 * 1024 * 1024) /* a polled PGN document */
#define XQ_OP_LINES_MAX 64               /* requests in one POST /api/op (its body: at most XQ_MAX_LINE) */
#define XQ_JSON_VALUES_ANON 2048         /* JSON values (objects, arrays, keys, strings, numbers) in
                                            one line of a session without a token: the costliest open
                                            request (apply, 1024 moves) twice over; more is LIMIT
                                            before the line is parsed (a 64 KiB line of 30,000 numbers
                                            took 8-10 ms to parse, ten anonymous turns) ... */
#define XQ_JSON_VALUES_MAX 16384         /* ... and of a session with a token (a manual numbering
                                            of every player a 64 KiB line can name fits) */

/* Connections */
#define XQ_MAX_CONNS 4096                /* JSON-lines + HTTP connections together (an event
                                            stream, once handed to the fan-out, is a viewer:
                                            XQ_VIEWERS_MAX) */
#define XQ_CONNS_RESERVED 256            /* of them kept for sessions with a token: anonymous
                                            connections can never fill the server */
#define XQ_ANON_CONNS_MAX (XQ_MAX_CONNS - XQ_CONNS_RESERVED) /* connections without a token */
#define XQ_LISTEN_BACKLOG 1024
#define XQ_ACCEPT_BURST 256              /* connections accepted on a listener in one turn of the
                                            loop: a crowd connecting at once is read (its streams
                                            handed over) as it comes in, not accepted whole first */
#define XQ_VIEWERS_MAX 20000             /* SSE viewers on the fan-out thread, apart from the
                                            connections above (a descriptor each: the process's
                                            open-file limit, raised by xq_net_process_init, may be
                                            lower) */
#define XQ_ADDR_MAX 128                  /* a listening address "host:port" (--listen, --http) */

/* Fair service: a turn of the loop is shared among the connections with
 * requests waiting (turns.c). A connection served its budget in one turn
 * waits for the next, behind the others; anonymous connections get less,
 * and all of them together a bounded share, so that no client, reading
 * its replies or not, delays a board's by more than a few ms. */
#define XQ_TURN_REQUESTS 64              /* requests of one board's or staff's connection a turn ... */
#define XQ_TURN_US 4000                  /* ... or this much of the loop's time (us), which first */
#define XQ_TURN_ANON_REQUESTS 4          /* requests of one anonymous connection a turn ... */
#define XQ_TURN_ANON_US 1000             /* ... or this much time (us) */
#define XQ_TURN_ANON_ALL_US 4000         /* every anonymous connection together, a turn (us): past
                                            it they wait for the next turn, in their order */

/* Output budgets (bytes queued in uv_write and not yet written) */
#define XQ_OUT_HIGH (256 * 1024)         /* request/response client: stop reading above */
#define XQ_OUT_LOW (64 * 1024)           /* ... and read again below */
#define XQ_SOCK_SNDBUF (128 * 1024)      /* a socket's send buffer (the kernel doubles it): what a client
                                            that reads nothing holds there besides XQ_OUT_HIGH */
#define XQ_OUT_HARD (32 * 1024 * 1024)   /* request/response client: closed above (one reply
                                            can pass XQ_OUT_HIGH; nothing else is served then) */
#define XQ_OUT_VIEWER_MAX (1024 * 1024)  /* a subscriber over this is disconnected */
#define XQ_HTTP_OUT_HIGH 0               /* HTTP: unsent output above which the next request
                                            waits (0: one response at a time, handed to the
                                            socket before the next is made) */
#define XQ_OWED_HIGH (XQ_PENDING_MAX / 64) /* replies one client is owed (waiting for a commit)
                                            before it is no longer read: one client may not
                                            fill the commit queue alone */
#define XQ_OWED_LOW (XQ_PENDING_MAX / 128) /* ... and read again at or below */
#define XQ_EXPORT_REPLY_MAX (8 * 1024 * 1024) /* bytes of one exported sheet (an XLSX workbook
                                            goes as base64, 4/3 of it): the reply stays well
                                            under XQ_OUT_HARD */
#define XQ_REPLY_STACK 512               /* a reply line shorter than this is built on the
                                            stack, a longer one allocated (proto.c) */

/* Timers */
#define XQ_IDLE_MS (10 * 60 * 1000)      /* JSON-lines session (after hello) without a line */
#define XQ_HELLO_MS (10 * 1000)          /* JSON-lines client: a hello, or a request, this long
                                            after the accept and after each request before it */
#define XQ_RESERVE_HELLO_MS 2000         /* ... on a reserved slot: a hello with a token */
#define XQ_LINE_MS (10 * 1000)           /* JSON line: whole within this of its first byte */
#define XQ_HTTP_IDLE_MS (30 * 1000)      /* HTTP connection without a request */
#define XQ_HTTP_HEAD_MS (10 * 1000)      /* HTTP request head: whole within this of its first
                                            byte (of the accept for the first request) */
#define XQ_HTTP_BODY_MS (30 * 1000)      /* HTTP request body: whole within this of the end of
                                            its head */
#define XQ_HTTP_LINGER_MS 2000           /* a refused request's body is dropped unread this long
                                            at most before the close (so that its sender reads
                                            the answer, not a reset) ... */
#define XQ_HTTP_LINGER_MAX (64 * 1024)   /* ... and this much of it at most */
#define XQ_HTTP_MAX_AGE_S 1              /* Cache-Control max-age of the API's reads (JSON, PGN,
                                            TRF): a cache in front serves a read this long, then
                                            revalidates it (ETag, If-None-Match) */
#define XQ_HTTP_ANSWERS 64               /* answers kept until what they show changes (answers.c):
                                            the event, standings, pairings, PGN, knockout ... */
#define XQ_HTTP_ANSWERS_BYTES (16 * 1024 * 1024) /* ... their text in all ... */
#define XQ_HTTP_ANSWER_MAX (4 * 1024 * 1024) /* ... and one of them at most (a larger one is
                                            made for each request) */
#define XQ_HTTP_RETRY_AFTER_S 5          /* Retry-After of the 503 that a request without a token
                                            gets on a reserved slot */
#define XQ_STALL_MS (30 * 1000)          /* a stalled client (output over its budget), an event
                                            stream or a watcher whose socket takes none of what
                                            waits for it for this long is closed */
#define XQ_SSE_KEEPALIVE_MS (15 * 1000)  /* comment line to every SSE subscriber */
#define XQ_SHUTDOWN_GRACE_MS 2000        /* clients get this long to drain at shutdown */
#define XQ_POLL_MIN_MS 2000              /* PGN URL poll interval bounds (docs/http.md, "Polling a PGN URL") */
#define XQ_POLL_DEFAULT_MS 5000
#define XQ_POLL_MAX_MS 60000             /* back-off ceiling after repeated failures */
#define XQ_POLL_TIMEOUT_MS 5000          /* one fetch */
#define XQ_TOKEN_RECHECK_MS 1000         /* ask the store this often whether another process made or
                                            revoked tokens; their sessions end within this (security.md) */
#define XQ_POLLERS_MAX 64                /* rounds polled at once */
#define XQ_URL_MAX 1024                  /* an http:// URL: a polled PGN document's, --publish, a
                                            viewer's of xqref loadgen */
#define XQ_URL_HOST_MAX 256              /* ... its host */
#define XQ_POLL_URL_MAX XQ_URL_MAX       /* bytes of a polled URL */
#define XQ_POLL_READ_CHUNK 65536         /* bytes asked of each read of a polled document */
#define XQ_DRAIN_TICK_MS 20              /* how often a shutdown checks whether it is done */

/* Work */
/* CPU jobs in libuv's worker pool (jobs.c), in three lanes with slots of their own */
#define XQ_ENGINE_RUNNING_MAX 2          /* engine jobs (perft, adjudicate) in the pool at once,
                                            server-wide */
#define XQ_TOURNEY_RUNNING_MAX 1         /* tournament jobs (pair) in the pool at once: a slot no
                                            engine job may take */
#define XQ_SHEETS_RUNNING_MAX 1          /* sheet jobs (slips, export: ops_slips.c, ops_export.c) in
                                            the pool at once, in a lane of their own */
#define XQ_POOL_RULINGS 4                /* pool threads beyond the lanes and the group commit, for
                                            the rulings of live games (ops_game.c) */
#define XQ_POOL_THREADS (XQ_ENGINE_RUNNING_MAX + XQ_TOURNEY_RUNNING_MAX + XQ_SHEETS_RUNNING_MAX + 1 + \
                         XQ_POOL_RULINGS)
                                         /* UV_THREADPOOL_SIZE at least (server.c): the lanes, the
                                            group commit and the rulings at once */
#define XQ_TOURNEY_JOBS_PER_CONN 4       /* pairings one connection may have queued or running */
/* Engine jobs (ops_engine.c) need a token; per role, queued or running: */
#define XQ_ENGINE_JOBS_PER_CONN 4        /* ... by one admin or arbiter connection */
#define XQ_ENGINE_JOBS_PER_BOARD_CONN 1  /* ... by one board connection (adjudicate only) */
#define XQ_ENGINE_JOBS_ADMIN 8           /* ... by every admin session together */
#define XQ_ENGINE_JOBS_ARBITER 8         /* ... by every arbiter session together */
#define XQ_ENGINE_JOBS_BOARD 4           /* ... by every board session together */
/* Sheet jobs (slips, export) queued or running, per role (a session has one at a time: it waits
   for its sheet): */
#define XQ_SHEET_JOBS_ADMIN 8            /* ... by every admin session together */
#define XQ_SHEET_JOBS_ARBITER 8          /* ... by every arbiter session together (export) */
#define XQ_PERFT_DEPTH_MAX 7             /* `perft` op (admin and arbiter only) */
#define XQ_BATCH_MAX 8192                /* game-log rows in one group commit */
#define XQ_PENDING_MAX 65536             /* requests waiting for a commit before reads pause */

/* Games and the broadcast */
#define XQ_ROUNDS_LIVE_MAX 50            /* the Swiss rounds (XQ_TOURNEY_ROUNDS_MAX), then the
                                            knockout tables (XQ_KO_ROUND) */
#define XQ_BOARDS_MAX 5000               /* boards in one round */
#define XQ_GAME_RULINGS_MAX 256          /* rulings kept per game for the desk (rulings); later ones
                                            are not listed, the last ruling (verdict) still is */
#define XQ_REPLY_CACHE 32                /* last replies kept per board for resends */
#define XQ_SEQ_MAX 9e15                  /* a board's event seq, a watcher's last_event: below
                                            2^53, so that every JSON reader carries it exactly */
#define XQ_GAME_QUIET_PER_S 20           /* a game's board events that are not moves (clock, lift,
                                            release, claims, offers, resign) a second, on average
                                            (a board that sends more gets LIMIT; its seq stays free) ... */
#define XQ_GAME_QUIET_BURST 40           /* ... at most this many at once ... */
#define XQ_GAME_QUIET_MAX 65536          /* ... and in the whole game (replayed rows count): a
                                            board token cannot grow the store without end */
#define XQ_STORE_FREE_WARN (256LL * 1024 * 1024) /* the store's disk below this: a log line
                                            (once a minute) before the full disk fails the boards */
#define XQ_HUB_RING 8192                 /* broadcast events kept for Last-Event-ID resume */
#define XQ_DELAY_MAX_S 3600            /* serve --delay: at most an hour (15 minutes is the usual;
                                            the event's delay setting: XQ_TOURNEY_DELAY_MAX, the same) */
#define XQ_DELAY_HELD_MAX 262144         /* views and events held by the delay for anonymous readers
                                            (delay.c) ... */
#define XQ_DELAY_HELD_BYTES (512LL * 1024 * 1024) /* ... and their bytes: at either limit the oldest
                                            is released before its time (logged, counted): the delay
                                            shortens, nothing is dropped or reordered. 15 minutes of
                                            100 boards at a move every 10 s hold 18,000 items and
                                            about 50 MB */
#define XQ_SNAPSHOT_WAIT_MS 1000         /* a fresh event stream waits at most this long for the
                                            games to be as broadcast (every move judged has had
                                            its event), then gets their snapshot as they are */
#define XQ_FANOUT_TICK_MS 50             /* the fan-out writes to a viewer at most this often: what
                                            came meanwhile goes out in one write (an event waits
                                            this long at most) ... */
#define XQ_FANOUT_SLOTS 5                /* ... a fifth of the viewers at a time, every fifth of it
                                            (their writes spread, not all at once) */
#define XQ_FANOUT_NICE 10                /* the fan-out thread's nice value: the loop of the boards
                                            wins a core from it */
#define XQ_FANOUT_IOV_MAX 128            /* buffers in one write to a viewer (the rest: the next) */
#define XQ_FANOUT_READ 4096              /* what a viewer sends is read into a scratch buffer of
                                            this size and dropped */
#define XQ_API_MOVES_MAX 1024            /* moves in one stateless request (apply, adjudicate) */

/* The edge: broadcast events posted to an nchan publisher (--publish, publish.c) */
#define XQ_PUBLISH_PATH_MAX 256          /* the path of the --publish URL (its request head is
                                            XQ_PUBLISH_HEAD_MAX bytes at most) */
#define XQ_PUBLISH_QUEUE_MAX 16384       /* events waiting for the edge: one more is dropped
                                            (counted, logged), never waited for */
#define XQ_PUBLISH_QUEUE_BYTES (32 * 1024 * 1024) /* ... and their data bytes together */
#define XQ_PUBLISH_INFLIGHT 32           /* requests written ahead of their answers (pipelined
                                            on the one keep-alive connection) */
#define XQ_PUBLISH_HEAD_MAX 1024         /* one request head: the channel list of an event of no
                                            round names every live round */
#define XQ_PUBLISH_READ_MAX (16 * 1024)  /* the edge's answers buffered: one answer head must fit */
#define XQ_PUBLISH_TIMEOUT_MS 5000       /* a connection, or the answer to the oldest request in
                                            flight: longer and the connection is made again */
#define XQ_PUBLISH_IDLE_MS (60 * 1000)   /* a connection with nothing to post is ended by xqref
                                            (before nginx's keep-alive timeout, 75 s) */
#define XQ_PUBLISH_RETRY_MIN_MS 250      /* after a failure the next attempt waits this long ... */
#define XQ_PUBLISH_RETRY_MAX_MS 8000     /* ... doubled after each failure up to this */
#define XQ_PUBLISH_BATCH_MS 500          /* events that come within this of the last post wait for
                                            the next, which carries them all (one `batch` message:
                                            each viewer of the edge costs a write a post, not an
                                            event); an event after a quiet spell goes at once
                                            (`serve --publish-batch MS`, 0: every event alone) */
#define XQ_PUBLISH_BATCH_MAX 64          /* events in one post at most (a full post goes at once) */
#define XQ_PUBLISH_BATCH_BYTES (64 * 1024) /* ... and the body of one post (a lone larger event
                                            goes alone) */

#endif /* XQ_NET_LIMITS_H */
