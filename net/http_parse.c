/*
 * http_parse.c -- the incremental HTTP/1.1 parser of http_parse.h
 * (RFC 9112 message syntax, RFC 9110 semantics where they matter here).
 *
 * A head is searched for its end (an empty line) from where the last call
 * stopped, so a head that trickles in byte by byte is scanned once. Once
 * complete it is copied, split into NUL-terminated strings and checked in
 * one pass, and the parser waits for its caller to judge it; the body,
 * once the caller takes it, is copied as it arrives.
 */
#include "http_parse.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void xq__http_parse_init(xq__http_parser *p)
{
  memset(p, 0, sizeof *p);
  p->req.content_length = -1;
}

void xq__http_parse_reset(xq__http_parser *p)
{
  free(p->req.raw);
  free(p->req.path);
  free(p->req.body);
  xq__http_parse_init(p);
}

static long fail(xq__http_parser *p, int status, const char *reason)
{
  p->state = XQ__HP_ERROR;
  p->status = status;
  p->reason = reason;
  return -1;
}

/* RFC 9110 5.6.2 tchar */
static int is_tchar(unsigned char c)
{
  return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The end of a head in buf[0..len), searching from `from`: the offset
 * just past the empty line ("\r\n\r\n" or, leniently, "\n\n" and
 * "\n\r\n"), or 0 when not there yet. */
static size_t head_end(const char *buf, size_t len, size_t from)
{
  size_t i = from > 2 ? from - 2 : 0; /* the terminator may straddle calls */
  for (; i < len; i++) {
    if (buf[i] != '\n') continue;
    if (i + 1 < len && buf[i + 1] == '\n') return i + 2;
    if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n') return i + 3;
  }
  return 0;
}

static int hexval(int c)
{
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Percent-decode s[0..n) into out (room for n + 1); `plus`: '+' is a
 * space (form encoding). Returns the length, or -1 for a bad escape or
 * an encoded NUL. */
static long pct_decode(const char *s, size_t n, char *out, int plus)
{
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '%') {
      int h, l;
      if (i + 2 >= n) return -1;
      if ((h = hexval((unsigned char)s[i + 1])) < 0 || (l = hexval((unsigned char)s[i + 2])) < 0)
        return -1;
      c = (char)(h * 16 + l);
      if (!c) return -1;
      i += 2;
    } else if (plus && c == '+') {
      c = ' ';
    }
    out[o++] = c;
  }
  out[o] = '\0';
  return (long)o;
}

/* Does the comma-separated header value list `v` hold `token`? */
static int has_token(const char *v, const char *token)
{
  size_t n = strlen(token);
  while (*v) {
    while (*v == ' ' || *v == '\t' || *v == ',') v++;
    const char *s = v;
    while (*v && *v != ',') v++;
    const char *e = v;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
    if ((size_t)(e - s) == n && !strncasecmp(s, token, n)) return 1;
  }
  return 0;
}

/* The request line: METHOD SP target SP HTTP/1.x (RFC 9112 3). */
static long request_line(xq__http_parser *p, char *line)
{
  xq__http_req *r = &p->req;
  char *s = line, *sp;
  for (sp = s; is_tchar((unsigned char)*sp); sp++) {}
  if (sp == s || *sp != ' ') return fail(p, 400, "malformed request line");
  *sp = '\0';
  r->method = s;
  s = sp + 1;
  for (sp = s; *sp && *sp != ' '; sp++)
    if ((unsigned char)*sp <= 0x20 || *sp == 0x7F) return fail(p, 400, "malformed request target");
  if (sp == s || *sp != ' ') return fail(p, 400, "malformed request line");
  *sp = '\0';
  r->target = s;
  s = sp + 1;
  if (strncmp(s, "HTTP/", 5)) return fail(p, 400, "malformed request line");
  if (!isdigit((unsigned char)s[5]) || s[6] != '.' || !isdigit((unsigned char)s[7]) || s[8])
    return fail(p, 400, "malformed HTTP version");
  if (s[5] != '1' || s[7] > '1') return fail(p, 505, "only HTTP/1.0 and HTTP/1.1 are served");
  r->minor = s[7] - '0';

  /* origin-form "/path?query", or absolute-form "http://host/path" (RFC
   * 9112 3.2.2: a server must accept it); "*" only with OPTIONS */
  const char *t = r->target;
  if (!strncasecmp(t, "http://", 7)) {
    t = strchr(t + 7, '/');
    if (!t) t = "/";
  } else if (*t != '/') {
    return fail(p, 400, "the request target must be a path");
  }
  const char *q = strchr(t, '?');
  size_t plen = q ? (size_t)(q - t) : strlen(t);
  r->query = q ? q + 1 : "";
  r->path = malloc(plen + 1);
  if (!r->path) return fail(p, 500, "out of memory");
  if (pct_decode(t, plen, r->path, 0) < 0) return fail(p, 400, "bad percent-encoding in the path");
  return 0;
}

/* Split and check the head held in r->raw (n bytes, ends with an empty
 * line). Returns 0 or -1 (p->status set). */
static long parse_head(xq__http_parser *p, size_t n)
{
  xq__http_req *r = &p->req;
  char *s = r->raw, *end = r->raw + n;
  int first = 1;
  int te = 0, hosts = 0;
  while (s < end) {
    char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl) return fail(p, 400, "malformed head");
    char *e = nl;
    if (e > s && e[-1] == '\r') e--;
    *e = '\0';
    if (memchr(s, '\0', (size_t)(e - s)) || memchr(s, '\r', (size_t)(e - s)))
      return fail(p, 400, "control character in the head");
    if (first) {
      if (request_line(p, s) < 0) return -1;
      first = 0;
    } else if (e == s) {
      break; /* the empty line */
    } else {
      if (*s == ' ' || *s == '\t') return fail(p, 400, "obsolete header line folding");
      char *c = s;
      while (is_tchar((unsigned char)*c)) c++;
      if (c == s || *c != ':') return fail(p, 400, "malformed header field");
      *c++ = '\0';
      while (*c == ' ' || *c == '\t') c++;
      char *ve = e;
      while (ve > c && (ve[-1] == ' ' || ve[-1] == '\t')) *--ve = '\0';
      if (r->nfields == XQ_HTTP_HEADERS_MAX) return fail(p, 431, "too many header fields");
      r->fields[r->nfields].name = s;
      r->fields[r->nfields].value = c;
      r->nfields++;
      if (!strcasecmp(s, "Content-Length")) {
        /* digits only; repeated values must agree (RFC 9112 6.3) */
        if (!*c) return fail(p, 400, "bad Content-Length");
        long long v = 0;
        for (const char *d = c; *d; d++) {
          if (!isdigit((unsigned char)*d)) return fail(p, 400, "bad Content-Length");
          if (v > XQ_HTTP_BODY_MAX) break;
          v = v * 10 + (*d - '0');
        }
        if (r->content_length >= 0 && r->content_length != v)
          return fail(p, 400, "conflicting Content-Length");
        r->content_length = v;
      } else if (!strcasecmp(s, "Transfer-Encoding")) {
        te = has_token(c, "chunked") ? 1 : 2;
      } else if (!strcasecmp(s, "Host")) {
        hosts++;
      }
    }
    s = nl + 1;
  }
  if (te && r->content_length >= 0) return fail(p, 400, "both Transfer-Encoding and Content-Length");
  if (te == 1) return fail(p, 411, "chunked request bodies are not accepted: send Content-Length");
  if (te == 2) return fail(p, 501, "unsupported transfer coding");
  /* RFC 9112 3.2: one Host, and in HTTP/1.1 always one */
  if (hosts > 1) return fail(p, 400, "more than one Host header");
  if (r->minor == 1 && !hosts) return fail(p, 400, "HTTP/1.1 request without Host");
  const char *conn = xq__http_parse_header(r, "Connection");
  r->keep_alive = r->minor == 1 ? !(conn && has_token(conn, "close"))
                                : (conn && has_token(conn, "keep-alive"));
  return 0;
}

long xq__http_parse(xq__http_parser *p, const char *buf, size_t len)
{
  if (p->state == XQ__HP_ERROR) return -1;
  if (p->state == XQ__HP_DONE || p->state == XQ__HP_HEAD_DONE) return 0;
  if (p->state == XQ__HP_BODY) {
    xq__http_req *r = &p->req;
    size_t want = (size_t)r->content_length - r->body_len;
    size_t n = len < want ? len : want;
    memcpy(r->body + r->body_len, buf, n);
    r->body_len += n;
    if (r->body_len == (size_t)r->content_length) {
      r->body[r->body_len] = '\0';
      p->state = XQ__HP_DONE;
    }
    return (long)n;
  }

  /* RFC 9112 2.2: empty lines before the request line are ignored */
  size_t skip = 0;
  if (p->scan == 0)
    while (skip < len && (buf[skip] == '\r' || buf[skip] == '\n')) skip++;
  if (skip) return (long)skip;

  size_t n = head_end(buf, len, p->scan);
  if (!n) {
    if (len >= XQ_HTTP_HEAD_MAX) return fail(p, 431, "request head too large");
    p->scan = len;
    return 0;
  }
  if (n > XQ_HTTP_HEAD_MAX) return fail(p, 431, "request head too large");
  p->scan = 0;
  xq__http_req *r = &p->req;
  if (!(r->raw = malloc(n + 1))) return fail(p, 500, "out of memory");
  memcpy(r->raw, buf, n);
  r->raw[n] = '\0';
  if (parse_head(p, n) < 0) return -1;
  p->state = XQ__HP_HEAD_DONE; /* the caller judges the head first */
  return (long)n;
}

int xq__http_parse_body(xq__http_parser *p, size_t max)
{
  if (p->state != XQ__HP_HEAD_DONE) return p->state == XQ__HP_ERROR ? -1 : 0;
  xq__http_req *r = &p->req;
  if (r->content_length > 0 && (unsigned long long)r->content_length > max)
    return (int)fail(p, 413, "request body too large");
  if (r->content_length <= 0) {
    p->state = XQ__HP_DONE;
    return 0;
  }
  if (!(r->body = malloc((size_t)r->content_length + 1))) return (int)fail(p, 500, "out of memory");
  p->state = XQ__HP_BODY;
  return 0;
}

const char *xq__http_parse_header(const xq__http_req *r, const char *name)
{
  for (int i = 0; i < r->nfields; i++)
    if (!strcasecmp(r->fields[i].name, name)) return r->fields[i].value;
  return NULL;
}

int xq__http_parse_query(const char *query, const char *key, char *out, size_t cap)
{
  size_t klen = strlen(key);
  const char *s = query;
  while (s && *s) {
    const char *amp = strchr(s, '&');
    size_t n = amp ? (size_t)(amp - s) : strlen(s);
    const char *eq = memchr(s, '=', n);
    size_t kn = eq ? (size_t)(eq - s) : n;
    if (kn == klen && !memcmp(s, key, klen)) {
      const char *v = eq ? eq + 1 : s + n;
      size_t vn = (size_t)(s + n - v);
      if (vn + 1 > cap) return -2;
      long got = pct_decode(v, vn, out, 1);
      return got < 0 ? -2 : (int)got;
    }
    s = amp ? amp + 1 : NULL;
  }
  return -1;
}

const char *xq__http_parse_status_text(int status)
{
  switch (status) {
  case 200: return "OK";
  case 204: return "No Content";
  case 304: return "Not Modified";
  case 400: return "Bad Request";
  case 401: return "Unauthorized";
  case 403: return "Forbidden";
  case 404: return "Not Found";
  case 405: return "Method Not Allowed";
  case 408: return "Request Timeout";
  case 409: return "Conflict";
  case 411: return "Length Required";
  case 413: return "Content Too Large";
  case 422: return "Unprocessable Content";
  case 429: return "Too Many Requests";
  case 431: return "Request Header Fields Too Large";
  case 500: return "Internal Server Error";
  case 501: return "Not Implemented";
  case 503: return "Service Unavailable";
  case 505: return "HTTP Version Not Supported";
  default: return "Unknown";
  }
}

long xq__http_parse_response(const char *buf, size_t len, int *status, long long *content_length,
                            int *chunked)
{
  size_t n = head_end(buf, len, 0);
  if (!n) return len >= XQ_HTTP_HEAD_MAX ? -1 : 0;
  if (n > XQ_HTTP_HEAD_MAX) return -1;
  /* status line: HTTP/1.x SP 3DIGIT SP reason */
  if (n < 12 || strncmp(buf, "HTTP/1.", 7) || !isdigit((unsigned char)buf[7]) || buf[8] != ' ')
    return -1;
  for (int i = 9; i < 12; i++)
    if (!isdigit((unsigned char)buf[i])) return -1;
  *status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
  *content_length = -1;
  *chunked = 0;
  const char *s = memchr(buf, '\n', n) + 1, *end = buf + n;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *c = memchr(s, ':', (size_t)(nl - s));
    if (c) {
      size_t kn = (size_t)(c - s);
      const char *v = c + 1;
      while (v < nl && (*v == ' ' || *v == '\t')) v++;
      if (kn == 14 && !strncasecmp(s, "Content-Length", 14)) {
        long long x = 0;
        int digits = 0;
        for (; v < nl && isdigit((unsigned char)*v); v++, digits++)
          if (x <= (1LL << 40)) x = x * 10 + (*v - '0');
        if (!digits) return -1;
        *content_length = x;
      } else if (kn == 17 && !strncasecmp(s, "Transfer-Encoding", 17)) {
        char tmp[128];
        size_t vn = (size_t)(nl - v);
        if (vn >= sizeof tmp) vn = sizeof tmp - 1;
        memcpy(tmp, v, vn);
        tmp[vn] = '\0';
        while (vn && (tmp[vn - 1] == '\r' || tmp[vn - 1] == ' ')) tmp[--vn] = '\0';
        *chunked = has_token(tmp, "chunked");
      }
    }
    s = nl + 1;
  }
  return (long)n;
}

long xq__http_parse_dechunk(char *buf, size_t len)
{
  size_t in = 0, out = 0;
  for (;;) {
    /* chunk-size [; ext] CRLF */
    size_t size = 0;
    int digits = 0, h;
    while (in < len && (h = hexval((unsigned char)buf[in])) >= 0) {
      if (size > ((size_t)1 << 40)) return -1;
      size = size * 16 + (size_t)h;
      in++;
      digits++;
    }
    if (!digits) return -1;
    while (in < len && buf[in] != '\n') in++;
    if (in >= len) return -1;
    in++;
    if (size == 0) return (long)out; /* trailers, if any, are ignored */
    if (len - in < size) return -1;
    memmove(buf + out, buf + in, size);
    out += size;
    in += size;
    if (in < len && buf[in] == '\r') in++;
    if (in >= len || buf[in] != '\n') return -1;
    in++;
  }
}
