/*
 * field.c -- the fields of a JSON-lines request, read at the edge into
 * typed values: a string, a whole number in range (never a cast of an
 * out-of-range double), and the replying forms that answer BAD_REQUEST
 * for a field that is missing or of the wrong kind.
 */
#include <stdint.h>
#include <stdio.h>

#include "internal.h"
#include "proto.h"

const char *xq__field_text(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

int xq__field_whole(const cJSON *v, double lo, double hi, long long *out)
{
  return cJSON_IsNumber(v) && xq_whole_number(v->valuedouble, lo, hi, out);
}

int xq__field_is_int(const cJSON *v)
{
  /* (<limits.h> is shadowed by net/limits.h on this module's include
   * path, hence the <stdint.h> bounds.) */
  _Static_assert(sizeof(int) == sizeof(int32_t), "int is 32 bits");
  return xq__field_whole(v, INT32_MIN, INT32_MAX, NULL);
}

int xq__field_num(const cJSON *o, const char *key, int dflt, int *ok)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  long long w;
  if (!v) return dflt;
  if (!xq__field_whole(v, INT32_MIN, INT32_MAX, &w)) {
    if (ok) *ok = 0;
    return dflt;
  }
  return (int)w;
}

/* Integer field `key` in lo..hi: absent = `dflt` (when `dflt` < lo the
 * field is required). Returns 0 with *out, or -1 after replying
 * BAD_REQUEST. */
int xq__field_int(xq__req *r, const char *key, int lo, int hi, int dflt, int *out)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(r->json, key);
  char msg[96];
  if (!f || cJSON_IsNull(f)) {
    if (dflt >= lo) {
      *out = dflt;
      return 0;
    }
    snprintf(msg, sizeof msg, "%s is required", key);
  } else if (!xq__field_is_int(f) || f->valueint < lo || f->valueint > hi) {
    snprintf(msg, sizeof msg, "%s must be a whole number from %d to %d", key, lo, hi);
  } else {
    *out = f->valueint;
    return 0;
  }
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, msg, -1);
  return -1;
}

/* String field `key`: absent = NULL (an error when `required`). Returns 0
 * with *out, or -1 after replying BAD_REQUEST. */
int xq__field_str(xq__req *r, const char *key, int required, const char **out)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(r->json, key);
  char msg[96];
  *out = NULL;
  if ((!f || cJSON_IsNull(f)) && !required) return 0;
  if (cJSON_IsString(f)) {
    *out = f->valuestring;
    return 0;
  }
  snprintf(msg, sizeof msg, f ? "%s must be a string" : "%s is required", key);
  xq__reply_error(r->c, r->id, XQ__E_BAD_REQUEST, msg, -1);
  return -1;
}
