/*
 * url.h -- where an http:// URL's host is (url.c), for the poller and the
 * edge publisher. Internal to net/.
 */
#ifndef XQ_NET_URL_H
#define XQ_NET_URL_H

#include <uv.h>

/* Where host:port is, for a TCP connection: an IP address goes into *sa
 * at once (returns 1); a name is looked up on the worker pool with `req`
 * (returns 0: cb runs with the answer); a libuv error when no lookup
 * could start. */
int xq__url_lookup(uv_loop_t *loop, uv_getaddrinfo_t *req, uv_getaddrinfo_cb cb, const char *host,
                   const char *port, struct sockaddr_storage *sa);

#endif /* XQ_NET_URL_H */
