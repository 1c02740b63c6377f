/*
 * jsonl.h -- the JSON-lines client of the programs that talk to a server
 * (docs/protocol.md): one TCP connection on a libuv loop that connects,
 * says hello with a token, sends requests (written at once, or queued
 * behind what is still pending), and splits what it reads into lines:
 * broadcast events (an "event" and no "id") are dropped, every other line
 * is a reply, handed to a callback or kept for the caller who waits for it.
 *
 * loadgen drives hundreds of these from callbacks; simulate's boards do
 * the same on the loop that also runs the server, and its organiser and
 * arbiter wait for each answer (xq__jsonl_call); board waits for every
 * reply on a loop of its own. Internal to clients/ (xq__jsonl_); the
 * address parser the command line checks with is public (clients.h).
 */
#ifndef XQ_JSONL_H
#define XQ_JSONL_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

#include "clients.h"
#include "engine.h"

typedef struct xq_jsonl xq_jsonl;

/* Why a connection failed (xq_jsonl.failed; 0 while it has not). */
enum {
  XQ_JSONL_CONNECT = 1, /* the connect did not succeed (uverr says why) */
  XQ_JSONL_LOST,        /* a read ended: the server closed (uverr UV_EOF) or an error (uverr) */
  XQ_JSONL_WRITE,       /* a write was refused (uverr) */
  XQ_JSONL_TOO_LONG,    /* a line longer than the connection's line_max */
  XQ_JSONL_BAD_LINE     /* a line that is not a JSON object */
};

/* What a connection tells its owner; every hook may be NULL. */
typedef struct xq_jsonl_hooks {
  /* The connect finished: status 0 (connected, reading) or a libuv error
   * (the connection failed: close it). Not called once closing. */
  void (*connected)(xq_jsonl *c, int status);
  /* A reply line, parsed (the callee must not keep it); NULL once when
   * the connection failed while reading (c->failed says why). With no
   * hook, replies are kept for xq__jsonl_wait. */
  void (*reply)(xq_jsonl *c, cJSON *reply);
  /* libuv is done with the connection (after xq__jsonl_close). */
  void (*closed)(xq_jsonl *c);
} xq_jsonl_hooks;

struct xq_jsonl {
  uv_tcp_t tcp;
  uv_connect_t creq;
  uv_loop_t *loop;             /* NULL: never opened */
  const xq_jsonl_hooks *hooks;
  void *data;                  /* the owner's */
  int connected, closing, closed;
  int failed;                  /* 0 or XQ_JSONL_* */
  int uverr;                   /* the libuv error behind a failure, else 0 */
  char *in;                    /* bytes read and not yet handed out */
  size_t len, cap, scan;       /* scan: bytes of in known to hold no '\n' */
  size_t line_max;             /* the longest line, '\n' included */
  cJSON *kept;                 /* without a reply hook: the reply not yet waited for */
};

/* Write what the stream takes now and queue the rest of the `n` buffers
 * (copied, in one block) behind the writes still pending, so that bytes
 * go out in the order given. Returns 0 or a libuv error (nothing queued). */
int xq__jsonl_write_queued(uv_stream_t *st, const uv_buf_t *bufs, unsigned n);


/* Start connecting `c` (any memory; it is cleared) to `addr` on `loop`:
 * lines up to line_max bytes, '\n' included; hooks (may be NULL, must
 * outlive the connection) and `data` for the owner. Returns XQ_OK (the
 * connected hook follows) or XQ_EIO when the connect cannot start
 * (c->failed, c->uverr set). Either way the handle is open: once opened,
 * a connection must be closed with xq__jsonl_close. */
int xq__jsonl_open(xq_jsonl *c, uv_loop_t *loop, const struct sockaddr *addr, size_t line_max,
                  const xq_jsonl_hooks *hooks, void *data);

/* xq__jsonl_open, then run the loop until the connect finished. Returns
 * XQ_OK when connected, else XQ_EIO (c->uverr says why). */
int xq__jsonl_connect(xq_jsonl *c, uv_loop_t *loop, const struct sockaddr *addr, size_t line_max,
                     const xq_jsonl_hooks *hooks, void *data);

/* Send `len` bytes (a whole line with its '\n', or several). Returns
 * XQ_OK, or XQ_EIO when the connection is closing, has failed or the
 * socket refused them (c->failed XQ_JSONL_WRITE, c->uverr). */
int xq__jsonl_write(xq_jsonl *c, const char *text, size_t len);

/* The hello request {"id":ID,"op":"hello","token":TOKEN} as one line
 * without its '\n' (the token escaped as JSON needs): malloc'd (caller
 * frees), NULL when out of memory. */
char *xq__jsonl_hello_line(long long id, const char *token);

/* Send the hello request with board, arbiter or admin token `token`.
 * Returns what xq__jsonl_write returns, or XQ_ENOMEM. */
int xq__jsonl_hello(xq_jsonl *c, long long id, const char *token);

/* Without a reply hook: run the loop until the next reply (lines already
 * read come first) and return it (caller deletes); NULL when the
 * connection failed (c->failed) or timeout_ms passed without a reply. */
cJSON *xq__jsonl_wait(xq_jsonl *c, uint64_t timeout_ms);

/* Drop any reply still kept, send `line` (no '\n' in it) with its '\n'
 * and wait for the reply as xq__jsonl_wait does. */
cJSON *xq__jsonl_call(xq_jsonl *c, const char *line, uint64_t timeout_ms);

/* Stop reading and close (once; later calls do nothing). The buffer is
 * freed and `closed` set, then the closed hook runs, once libuv is done
 * with the handle. */
void xq__jsonl_close(xq_jsonl *c);

/* "error"."code" of a reply, or NULL when it has none. */
const char *xq__jsonl_error(const cJSON *reply);

/* The string member `key` of object `o` (which may be NULL), or NULL when
 * there is none or it is no string. */
const char *xq__jsonl_str(const cJSON *o, const char *key);

/* A sequence number the server sent (a reply's seq, a table's last_seq,
 * an error's expected) in `v`: 1 with *out set when it is a whole number
 * from 0 to XQ_SEQ_MAX (netlimits.h), else 0 and *out untouched. A
 * server's number is range-checked before it becomes an integer
 * (xq_whole_number): a wrong one is no number, never undefined behaviour. */
int xq__jsonl_seq(const cJSON *v, long long *out);

#endif /* XQ_JSONL_H */
