/*
 * url.c -- http:// URLs, split once where they are given: a polled PGN
 * document's (poller.c), the edge's of --publish (publish.c), a viewer's of
 * xqref loadgen -- and where their hosts are. Only http: https needs a
 * TLS library, which xqref does not use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net.h"
#include "netlimits.h"
#include "url.h"

/* Split `url` into its host (brackets of an IPv6 address removed) in
 * host[0..hcap), its port in port[0..pcap) ("80" when absent) and *path,
 * what follows the authority in `url` ("/" when nothing does; it may
 * start with '?' or '#'). Returns XQ_OK, or XQ_EINVAL with *why a static
 * sentence. */
static int split(const char *url, char *host, size_t hcap, char *port, size_t pcap, const char **path,
                 const char **why)
{
  if (!strncasecmp(url, "https://", 8)) {
    *why = "https URLs need TLS, which xqref does not use: give an http:// URL";
    return XQ_EINVAL;
  }
  if (strncasecmp(url, "http://", 7)) {
    *why = "the URL must start with http://";
    return XQ_EINVAL;
  }
  if (strlen(url) >= XQ_URL_MAX) {
    *why = "the URL is too long";
    return XQ_EINVAL;
  }
  for (const char *c = url; *c; c++)
    if ((unsigned char)*c <= ' ' || *c == 0x7F) {
      *why = "the URL has blanks or control characters";
      return XQ_EINVAL;
    }
  const char *a = url + 7, *end = a + strcspn(a, "/?#");
  const char *h = a, *he, *pt = NULL;
  if (memchr(a, '@', (size_t)(end - a))) {
    *why = "user names in URLs are not supported";
    return XQ_EINVAL;
  }
  if (*h == '[') { /* [IPv6]:port */
    he = memchr(h, ']', (size_t)(end - h));
    if (!he || !memchr(h, ':', (size_t)(he - h))) { /* "[name]" is no IPv6 address */
      *why = "bad IPv6 address in the URL";
      return XQ_EINVAL;
    }
    h++;
    if (he + 1 < end && he[1] == ':') pt = he + 2;
    else if (he + 1 < end) {
      *why = "bad IPv6 address in the URL"; /* "[::1]x": nothing but a port may follow */
      return XQ_EINVAL;
    }
  } else {
    he = memchr(h, ':', (size_t)(end - h));
    if (he) pt = he + 1;
    else he = end;
  }
  if (he == h || (size_t)(he - h) >= hcap) {
    *why = "no host in the URL";
    return XQ_EINVAL;
  }
  memcpy(host, h, (size_t)(he - h));
  host[he - h] = 0;
  if (pt) {
    size_t n = (size_t)(end - pt);
    if (!n || n >= pcap || strspn(pt, "0123456789") < n || atoi(pt) < 1 || atoi(pt) > 65535) {
      *why = "bad port in the URL";
      return XQ_EINVAL;
    }
    memcpy(port, pt, n);
    port[n] = 0;
  } else {
    snprintf(port, pcap, "80");
  }
  *path = *end == '/' ? end : (*end == '?' ? end : "/");
  return XQ_OK;
}

int xq_http_url_parse(const char *url, xq_http_url *out, xq_error *err)
{
  memset(out, 0, sizeof *out);
  const char *target, *why = NULL;
  if (!url || split(url, out->host, sizeof out->host, out->port, sizeof out->port, &target, &why))
    return xq_error_set(err, XQ_EINVAL, -1, -1, "%s", why ? why : "no URL");
  /* the target without a fragment, "/" before a bare query */
  size_t tl = strcspn(target, "#");
  int slash = *target != '/';
  memcpy(out->target, "/", (size_t)slash);
  memcpy(out->target + slash, target, tl);
  out->target[slash + tl] = 0;
  const char *fmt = strchr(out->host, ':') ? "[%s]" : "%s";
  int n = snprintf(out->hostport, sizeof out->hostport, fmt, out->host);
  if (strcmp(out->port, "80")) snprintf(out->hostport + n, sizeof out->hostport - (size_t)n, ":%s", out->port);
  return XQ_OK;
}

int xq__url_lookup(uv_loop_t *loop, uv_getaddrinfo_t *req, uv_getaddrinfo_cb cb, const char *host,
                   const char *port, struct sockaddr_storage *sa)
{
  int p = atoi(port);
  if (uv_ip4_addr(host, p, (struct sockaddr_in *)sa) == 0 || uv_ip6_addr(host, p, (struct sockaddr_in6 *)sa) == 0)
    return 1;
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  return uv_getaddrinfo(loop, req, cb, host, port, &hints);
}
