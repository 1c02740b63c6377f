/*
 * test_net_hostile.c -- clients without a token that try to stall the
 * boards or eat the server's memory over JSON lines (docs/security.md):
 * pipelining without reading, bytes that are not UTF-8, \u0000 inside
 * strings, two objects on a line, hello done wrong, and events after the
 * end of a game. Each test ends with uv_loop_close() == 0.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conn.h"
#include "net_fixture.h"
#include "records.h"

/* 40 players: a `players` reply of several KiB, so that a few thousand
 * of them pass every socket buffer of the loopback */
XQ_NET_SUITE(net_hostile, 40);

/* A connection of the server's by the client's local port. */
static xq__conn *server_conn_of(int fd)
{
  struct sockaddr_in sa;
  socklen_t n = sizeof sa;
  if (getsockname(fd, (struct sockaddr *)&sa, &n)) return NULL;
  char want[32];
  snprintf(want, sizeof want, ":%d", ntohs(sa.sin_port));
  for (xq__conn *c = ts.srv->conns; c; c = c->next) {
    const char *colon = strrchr(c->peer, ':');
    if (colon && !strcmp(colon, want)) return c;
  }
  return NULL;
}

/* A raw socket with a small receive buffer that the test reads only when
 * it says so: a client that pipelines and does not read. */
static int raw_connect(void)
{
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int small = 4096;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)ts.port)};
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

/* Write all of data[0..len) to the non-blocking fd, letting the server
 * run while the socket is full. */
static void raw_write_all(int fd, const char *data, size_t len)
{
  size_t off = 0;
  for (int tries = 0; off < len && tries < 2000; tries++) {
    ssize_t n = send(fd, data + off, len - off, MSG_NOSIGNAL);
    if (n > 0) off += (size_t)n;
    else xq_tc_spin(&ts.loop, 5);
  }
  cr_assert_eq(off, len, "the server took every request");
}

Test(net_hostile, pipelining_without_reading_stalls_only_that_client)
{
  enum { N = 3800 };
  int fd = raw_connect();
  xq_tc_spin(&ts.loop, 20);
  char *burst = malloc(N * 40);
  size_t len = 0;
  for (int i = 0; i < N; i++) len += (size_t)sprintf(burst + len, "{\"id\":%d,\"op\":\"players\"}\n", i);
  /* the kernel takes part; the server reads the rest as it serves */
  size_t first = len < 16384 ? len : 16384;
  raw_write_all(fd, burst, first);
  xq_tc_spin(&ts.loop, 300);
  xq__conn *c = server_conn_of(fd);
  cr_assert(c, "the server has the connection");
  cr_assert(c->stalled, "a client that reads nothing is no longer served");
  cr_assert_leq(c->out_bytes + c->owed_bytes, XQ_OUT_HIGH + 64 * 1024,
                "what waits for it is bounded by the budget and one reply (%zu)", c->out_bytes);
  /* meanwhile another client is answered at once */
  xq_tclient other;
  cr_assert_eq(xq_tc_connect(&other, &ts.loop, ts.port), 0);
  cJSON *r = xq_tc_call(&other, "{\"id\":\"other\",\"op\":\"ping\"}");
  cr_assert(xq_tj_ok(r), "another client is served while the first is stalled");
  cJSON_Delete(r);
  xq_tc_close(&other);
  /* once it reads, every reply comes, in order */
  int next = 0;
  char buf[65536], line[65536];
  size_t ll = 0;
  for (int spins = 0; next < N && spins < 20000; spins++) {
    if (len > first) {
      ssize_t w = send(fd, burst + first, len - first, MSG_NOSIGNAL);
      if (w > 0) first += (size_t)w;
    }
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      cr_assert(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK), "the connection stays open");
      xq_tc_spin(&ts.loop, 2);
      continue;
    }
    for (ssize_t i = 0; i < n; i++) {
      if (buf[i] != '\n') {
        if (ll < sizeof line - 1) line[ll++] = buf[i];
        continue;
      }
      line[ll] = 0;
      ll = 0;
      cJSON *j = cJSON_Parse(line);
      cr_assert(xq_tj_ok(j), "reply %d is ok", next);
      cr_assert_eq((int)xq_tj_num(j, "id"), next, "replies in request order");
      cJSON_Delete(j);
      next++;
    }
  }
  cr_assert_eq(next, N, "every request answered");
  close(fd);
  free(burst);
  xq_tc_spin(&ts.loop, 20);
}

/* The raw reply line to `req` (malloc'd). */
static char *raw_reply(xq_tclient *c, const char *req, size_t len)
{
  xq_tc_send_raw(c, req, len);
  char *line = xq_tc_line(c, 5000);
  cr_assert(line, "a reply");
  return line;
}

Test(net_hostile, bytes_that_are_not_utf8_are_refused_and_never_echoed)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  static const char *const reqs[] = {
    "{\"op\":\"ping\",\"id\":\"\xff\xfe\"}\n",
    "{\"op\":\"\xff\xfe\",\"id\":1}\n",
    "{\"op\":\"hello\",\"token\":\"\xc0\xaf\"}\n",
    "{\"op\":\"ping\",\"id\":\"\xe7\x82\"}\n",
  };
  for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
    char *line = raw_reply(&c, reqs[i], strlen(reqs[i]));
    cr_assert(xq_utf8_valid(line, strlen(line)), "the reply is UTF-8: %s", line);
    cJSON *j = cJSON_Parse(line);
    cr_assert(j, "the reply is JSON");
    cr_assert_str_eq(xq_tc_error(j), "BAD_JSON");
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "id")), "no id is echoed");
    cJSON_Delete(j);
    free(line);
  }
  /* a NUL byte in the line is no better */
  char *line = raw_reply(&c, "{\"op\":\"ping\",\"id\":\"a\0b\"}\n", 25);
  cJSON *j = cJSON_Parse(line);
  cr_assert_str_eq(xq_tc_error(j), "BAD_JSON");
  cJSON_Delete(j);
  free(line);
  /* an unknown op is quoted only as valid text */
  line = raw_reply(&c, "{\"op\":\"\xe7\x82\xae\xe7\x82\xae\",\"id\":2}\n", 24);
  cr_assert(xq_utf8_valid(line, strlen(line)));
  j = cJSON_Parse(line);
  cr_assert_str_eq(xq_tc_error(j), "UNKNOWN_OP");
  cJSON_Delete(j);
  free(line);
  xq_tc_close(&c);
}

Test(net_hostile, a_string_with_u0000_is_a_bad_request)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  /* the admin token with junk after \u0000 is no token at all */
  char line[256];
  snprintf(line, sizeof line, "{\"id\":1,\"op\":\"hello\",\"token\":\"%s\\u0000junk\"}", ts.admin);
  xq_tc_errf(&c, "BAD_REQUEST", "%s", line);
  xq_tc_errf(&c, "AUTH_REQUIRED", "{\"id\":2,\"op\":\"tokens\"}");
  /* an escaped backslash before u0000 is plain text, not a NUL */
  xq_tc_okf(&c, "{\"id\":\"\\\\u0000\",\"op\":\"ping\"}");
  xq_tc_close(&c);
  /* a board's move with \u0000 stores nothing */
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  xq_tc_okf(&b, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  xq_tc_errf(&b, "BAD_REQUEST", "{\"id\":3,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\\u0000zz\"}");
  cJSON *r = xq_tc_callf(&b, "{\"id\":4,\"op\":\"move\",\"seq\":1,\"move\":\"h2e2\"}");
  cr_assert(xq_tj_ok(r), "seq 1 is still free: the bad move was not stored");
  cJSON_Delete(r);
  xq_tc_close(&b);
}

Test(net_hostile, one_object_a_line)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  xq_tc_send(&c, "{\"id\":1,\"op\":\"ping\"}{\"id\":2,\"op\":\"ping\"}");
  xq_tc_send(&c, "{\"id\":3,\"op\":\"ping\"} 7");
  xq_tc_send(&c, "{\"id\":4,\"op\":\"ping\"} \t");
  cJSON *r = xq_tc_json(&c, 5000);
  cr_assert_str_eq(xq_tc_error(r), "BAD_JSON", "two objects: an error, neither runs");
  cJSON_Delete(r);
  r = xq_tc_json(&c, 5000);
  cr_assert_str_eq(xq_tc_error(r), "BAD_JSON", "text after the object");
  cJSON_Delete(r);
  r = xq_tc_json(&c, 5000);
  cr_assert(xq_tj_ok(r), "white space after the object is fine");
  cr_assert_eq(xq_tj_num(r, "id"), 4);
  cJSON_Delete(r);
  xq_tc_close(&c);
}

Test(net_hostile, a_failed_hello_leaves_no_role)
{
  xq_tclient c;
  cr_assert_eq(xq_tc_connect(&c, &ts.loop, ts.port), 0);
  xq_tc_okf(&c, "{\"id\":1,\"op\":\"hello\",\"token\":\"%s\"}", ts.admin);
  xq_tc_okf(&c, "{\"id\":2,\"op\":\"tokens\"}");
  xq_tc_errf(&c, "BAD_TOKEN", "{\"id\":3,\"op\":\"hello\",\"token\":\"not-a-token\"}");
  xq_tc_errf(&c, "AUTH_REQUIRED", "{\"id\":4,\"op\":\"tokens\"}");
  xq_tc_okf(&c, "{\"id\":5,\"op\":\"hello\",\"token\":\"%s\"}", ts.admin);
  /* a token that is not a string is a bad request, and no role either */
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":6,\"op\":\"hello\",\"token\":5}");
  xq_tc_errf(&c, "AUTH_REQUIRED", "{\"id\":7,\"op\":\"tokens\"}");
  xq_tc_errf(&c, "BAD_REQUEST", "{\"id\":8,\"op\":\"hello\",\"token\":[\"%s\"]}", ts.admin);
  xq_tc_close(&c);
}

Test(net_hostile, events_after_the_end_are_game_over_and_not_stored)
{
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  xq_tc_okf(&b, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[1]);
  xq_tc_okf(&b, "{\"id\":1,\"op\":\"resign\",\"seq\":1,\"side\":\"red\"}");
  xq_tc_errf(&b, "GAME_OVER", "{\"id\":2,\"op\":\"move\",\"seq\":2,\"move\":\"h2e2\"}");
  xq_tc_errf(&b, "GAME_OVER", "{\"id\":3,\"op\":\"clock\",\"seq\":2,\"clock\":[1000,1000]}");
  /* the acknowledged resignation can still be resent */
  cJSON *r = xq_tc_callf(&b, "{\"id\":4,\"op\":\"resign\",\"seq\":1,\"side\":\"red\"}");
  cr_assert(xq_tj_ok(r), "a resend of the last acknowledged event gets its reply");
  cJSON_Delete(r);
  xq_tc_close(&b);
  xq_tclient a;
  cr_assert_eq(xq_tc_connect(&a, &ts.loop, ts.port), 0);
  xq_tc_okf(&a, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.admin);
  r = xq_tc_callf(&a, "{\"id\":5,\"op\":\"game\",\"round\":1,\"table\":2}");
  cr_assert(xq_tj_ok(r));
  cr_assert_eq(xq_tj_num(r, "last_seq"), 1, "nothing after the resignation is in the log");
  cJSON_Delete(r);
  xq_tc_close(&a);
}

/* A client without a token that pipelines cheap requests and reads every
 * reply is served a few of them a turn of the loop (XQ_TURN_ANON_*): a
 * board that speaks after it is answered while most of its burst still
 * waits, not after the whole of it (docs/security.md "Fair turns"). */
Test(net_hostile, a_pipelining_reader_waits_its_turn_behind_a_board)
{
  enum { N = 2000 };
  xq_tclient b;
  cr_assert_eq(xq_tc_connect(&b, &ts.loop, ts.port), 0);
  xq_tc_okf(&b, "{\"id\":0,\"op\":\"hello\",\"token\":\"%s\"}", ts.board[0]);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)ts.port)};
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  xq_tc_spin(&ts.loop, 20); /* accepted */
  char *burst = malloc(N * 32);
  size_t len = 0;
  for (int i = 0; i < N; i++) len += (size_t)sprintf(burst + len, "{\"id\":%d,\"op\":\"ping\"}\n", i);
  cr_assert_eq(send(fd, burst, len, MSG_NOSIGNAL), (ssize_t)len, "the kernel takes the whole burst");
  /* the board speaks after the burst is in the server's socket */
  xq_tc_send(&b, "{\"id\":1,\"op\":\"ping\"}");
  size_t before = b.line_start;
  char buf[65536];
  long replies = 0;
  int turns = 0;
  while (!memchr(b.in + before, '\n', b.len - before) && turns < 100000) {
    uv_run(&ts.loop, UV_RUN_ONCE);
    turns++;
  }
  cr_assert(memchr(b.in + before, '\n', b.len - before), "the board is answered");
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;)
    for (ssize_t i = 0; i < n; i++) replies += buf[i] == '\n';
  cr_assert_lt(replies, N / 4, "the board was answered after %ld of the reader's %d requests", replies, N);
  /* and the reader gets every reply, in its turns */
  for (int spins = 0; replies < N && spins < 5000; spins++) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      xq_tc_spin(&ts.loop, 1);
      continue;
    }
    for (ssize_t i = 0; i < n; i++) replies += buf[i] == '\n';
  }
  cr_assert_eq(replies, N, "every request of the reader is answered");
  close(fd);
  free(burst);
  xq_tc_close(&b);
  xq_tc_spin(&ts.loop, 20);
}
