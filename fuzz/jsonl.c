/*
 * jsonl.c -- fuzz entry for the JSON-lines dispatcher (fuzz.h).
 *
 * One server at a time, started on the first call and replaced by a new
 * one every RESTART_EVERY inputs (restart(), below): a demo
 * tournament of 8 players in a temporary directory (under /dev/shm when
 * there is one, so that group commits cost no disk flush), listening on
 * 127.0.0.1 with an ephemeral port, on a loop this file runs. Each input
 * is one connection: the client (a non-blocking socket on the same
 * thread) says hello with the token the first byte picks, sends the rest,
 * half-closes, and the loop runs until the server has closed the
 * connection. Replies are read and dropped: the findings are crashes,
 * sanitizer reports and hangs (a connection the server has not closed
 * DEADLINE_MS after the input), in the framing, the dispatch and every
 * operation.
 *
 * Lines asking the server to fetch a URL (ingest_url, ingest_now) are
 * dropped before sending: a fuzzer must not make outbound connections.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "fuzz.h"
#include "net.h"

#define PLAYERS 8                 /* demo players: 4 boards */
#define TOKENS_MAX (2 + PLAYERS / 2)
#define DEADLINE_MS 10000         /* longer for one input is a finding: a hang */
#define POLL_MS 5                 /* longest wait for either side */
#define RESTART_EVERY 250         /* inputs between two fresh servers */

static struct {
  uv_loop_t loop;
  xq_server *srv;
  unsigned long inputs;           /* inputs the current server has taken */
  int port;
  char dir[64], db[96];
  char tokens[TOKENS_MAX][64];    /* admin, arbiter, board 1..4 */
  int ntokens;
} fz;

static void cleanup(void)
{
  static const char *const suffix[] = {"", "-wal", "-shm", ".admin"};
  char path[128];
  for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
    snprintf(path, sizeof path, "%s%s", fz.db, suffix[i]);
    unlink(path);
  }
  rmdir(fz.dir);
}

/* Keep the tokens the server printed: "admin T (...)", "arbiter - - T",
 * "board 1 N T". */
static void read_tokens(char *text)
{
  for (char *line = strtok(text, "\n"); line && fz.ntokens < TOKENS_MAX; line = strtok(NULL, "\n")) {
    char a[16], b[64], c[16], d[64];
    int n = sscanf(line, "%15s %63s %15s %63s", a, b, c, d);
    if (n >= 2 && !strcmp(a, "admin")) snprintf(fz.tokens[fz.ntokens++], 64, "%s", b);
    else if (n == 4 && (!strcmp(a, "arbiter") || !strcmp(a, "board")))
      snprintf(fz.tokens[fz.ntokens++], 64, "%s", d);
  }
}

/* A server on a new demo store in a new temporary directory. */
static void start(void)
{
  struct stat st;
  snprintf(fz.dir, sizeof fz.dir, "%s/xqref-fuzz-XXXXXX",
           stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp");
  if (!mkdtemp(fz.dir)) abort();
  snprintf(fz.db, sizeof fz.db, "%s/f.db", fz.dir);
  fz.ntokens = 0;
  fz.inputs = 0;
  xq_server_opts o;
  xq_server_opts_default(&o);
  o.db = fz.db;
  o.listen = "127.0.0.1:0";
  o.http = NULL;
  o.demo = 1;
  o.demo_players = PLAYERS;
  char *text = NULL;
  size_t tlen = 0;
  o.out = open_memstream(&text, &tlen);
  xq_error err;
  if (!o.out || xq_server_start(&fz.loop, &o, &fz.srv, &err) != XQ_OK) {
    fprintf(stderr, "fuzz jsonl: the server did not start: %s\n", err.msg);
    abort();
  }
  fclose(o.out);
  read_tokens(text);
  free(text);
  fz.port = xq_server_port(fz.srv, 0);
}

/* The server's state grows with the inputs (players, tokens, games, log
 * rows), and every operation that reloads or ranks the event costs more
 * with it: left alone for millions of inputs it would be a store no
 * tournament has, slower at each input and past any memory limit. Every
 * RESTART_EVERY inputs the server shuts down as it does on SIGTERM (every
 * handle closed, the loop run dry: a shutdown path that runs thousands of
 * times a run) and a new one starts on a new demo store. 250 keeps the
 * state small (its reloads cheap) for less than the cost of a new store
 * (docs/fuzzing.md, Speed: 1.3 times the inputs per CPU second of 1,000,
 * and about the same as 100). */
static void restart(void)
{
  xq_server_stop(fz.srv);
  uv_run(&fz.loop, UV_RUN_DEFAULT);
  xq_server_free(fz.srv);
  fz.srv = NULL;
  cleanup();
  start();
}

/* Drop the lines that would make the server fetch a URL. */
static int line_allowed(const char *line, size_t n)
{
  cJSON *j = cJSON_ParseWithLength(line, n);
  const cJSON *op = cJSON_GetObjectItemCaseSensitive(j, "op");
  int ok = !(cJSON_IsString(op) && !strncmp(op->valuestring, "ingest_", 7));
  cJSON_Delete(j);
  return ok;
}

/* The bytes to send: hello, then the input's lines that are allowed. */
static char *script(const uint8_t *data, size_t size, size_t *len)
{
  char *out = malloc(size + 128);
  if (!out) return NULL;
  size_t k = 0;
  int pick = data[0] % (fz.ntokens + 1);
  if (pick > 0) k += (size_t)sprintf(out, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}\n", fz.tokens[pick - 1]);
  const char *s = (const char *)data + 1, *end = (const char *)data + size;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = nl ? (size_t)(nl + 1 - s) : (size_t)(end - s);
    if (line_allowed(s, n)) {
      memcpy(out + k, s, n);
      k += n;
    }
    s += n;
  }
  *len = k;
  return out;
}

int xq_fuzz_jsonl(const uint8_t *data, size_t size)
{
  if (size < 1 || size > XQ_FUZZ_INPUT_MAX) return 0;
  if (!fz.srv) {
    uv_loop_init(&fz.loop);
    atexit(cleanup);
    start();
  } else if (++fz.inputs >= RESTART_EVERY) {
    restart();
  }
  size_t len;
  char *msg = script(data, size, &len);
  if (!msg) return 0;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) abort();
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)fz.port)};
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno != EINPROGRESS) abort();
  size_t sent = 0;
  int half_closed = 0;
  uint64_t deadline = uv_now(&fz.loop) + DEADLINE_MS;
  char sinkbuf[65536];
  for (;;) {
    uv_run(&fz.loop, UV_RUN_NOWAIT);
    if (sent < len) {
      ssize_t w = send(fd, msg + sent, len - sent, MSG_NOSIGNAL);
      if (w > 0) sent += (size_t)w;
      else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN) break;
    } else if (!half_closed) {
      shutdown(fd, SHUT_WR);
      half_closed = 1;
    }
    /* read what the server said: a server whose output is not read stops
     * reading its input */
    ssize_t r = recv(fd, sinkbuf, sizeof sinkbuf, 0);
    if (r == 0) break; /* the server closed the connection */
    if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN) break;
    if (r < 0) {
      /* wait for the client socket or for the loop to have work (its
       * backend fd turns readable), whichever comes first */
      struct pollfd pfd[2] = {{.fd = fd, .events = POLLIN}, {.fd = uv_backend_fd(&fz.loop), .events = POLLIN}};
      int wait = uv_backend_timeout(&fz.loop);
      poll(pfd, 2, wait < 0 || wait > POLL_MS ? POLL_MS : wait);
    }
    uv_update_time(&fz.loop);
    if (uv_now(&fz.loop) > deadline) {
      /* every line was sent and the write side closed: a server that has
       * not closed the connection by now has stopped serving it */
      fprintf(stderr, "fuzz jsonl: the connection is still open %d ms after the input (%zu of %zu bytes sent)\n",
              DEADLINE_MS, sent, len);
      abort();
    }
  }
  close(fd);
  free(msg);
  return 0;
}
