/*
 * url.c -- fuzz entry for http:// URLs (fuzz.h): xq_http_url_parse and
 * xq_publish_url_parse, what they accept checked and parsed again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "net.h"

/* What any accepted URL must hold: a host, a port of 1..65535 in
 * decimal, a target that is a path (and query) without a fragment, and
 * the authority of the text given, as hostport spells it (":80" aside). */
static void check(const char *url, const xq_http_url *u)
{
  if (!u->host[0] || !u->port[0] || u->target[0] != '/' || strchr(u->target, '#')) abort();
  if (strspn(u->port, "0123456789") != strlen(u->port)) abort();
  long port = strtol(u->port, NULL, 10);
  if (port < 1 || port > 65535) abort();
  for (const char *c = u->target; *c; c++)
    if ((unsigned char)*c <= ' ' || *c == 0x7F) abort();
  if (strncasecmp(url, "http://", 7)) abort();
  const char *a = url + 7;
  size_t alen = strcspn(a, "/?#"), hl = strlen(u->hostport);
  int same = alen == hl && !memcmp(a, u->hostport, hl);
  int eighty = alen == hl + 3 && !memcmp(a, u->hostport, hl) && !memcmp(a + hl, ":80", 3);
  if (!same && !eighty) abort();
}

/* The URL spelled back ("http://" hostport target) parses to the same
 * (when it is still short enough). */
static void again(const xq_http_url *u, int (*parse)(const char *, xq_http_url *, xq_error *))
{
  char url[XQ_URL_MAX + sizeof u->hostport + 8];
  snprintf(url, sizeof url, "http://%s%s", u->hostport, u->target);
  if (strlen(url) >= XQ_URL_MAX) return; /* a '/' put before a bare query made it one too long */
  xq_http_url back;
  xq_error err;
  if (parse(url, &back, &err) != XQ_OK) abort();
  if (strcmp(back.host, u->host) || strcmp(back.port, u->port) || strcmp(back.hostport, u->hostport) ||
      strcmp(back.target, u->target))
    abort();
}

int xq_fuzz_url(const uint8_t *data, size_t size)
{
  if (size > XQ_FUZZ_INPUT_MAX) return 0;
  char *url = malloc(size + 1);
  if (!url) return 0;
  memcpy(url, data, size);
  url[size] = 0;
  xq_http_url u;
  xq_error err;
  if (xq_http_url_parse(url, &u, &err) == XQ_OK) {
    check(url, &u);
    again(&u, xq_http_url_parse);
  }
  if (xq_publish_url_parse(url, &u, &err) == XQ_OK) {
    size_t n = strlen(u.target);
    if (!n || u.target[n - 1] != '/' || n + 1 > XQ_PUBLISH_PATH_MAX) abort();
    again(&u, xq_publish_url_parse);
  }
  free(url);
  return 0;
}
