/*
 * store_crypto.c -- the cryptography of the access tokens, by libsodium
 * (docs/security.md): a token's random bytes, its SHA-256 (what the store
 * keeps, in hex), and the constant-time comparison of hashes. libsodium
 * is set up lazily: the first call of any function here runs
 * sodium_init() (idempotent and thread-safe), so nothing has to call an
 * init function before.
 */
#include <sodium.h>
#include <stdatomic.h>

#include "../tourney_internal.h"
#include "store_internal.h"

_Static_assert(XQ_SHA256_LEN == crypto_hash_sha256_BYTES, "a token's hash is a SHA-256");
_Static_assert(XQ_TOKEN_HASH_CHARS == 2 * XQ_SHA256_LEN, "the stored hash is the SHA-256 in hex");

static atomic_int ready; /* sodium_init() succeeded */

int xq__store_sodium(void)
{
  if (atomic_load_explicit(&ready, memory_order_acquire)) return XQ_OK;
  if (sodium_init() < 0) return XQ_EIO;
  atomic_store_explicit(&ready, 1, memory_order_release);
  return XQ_OK;
}

void xq_sha256(const void *data, size_t len, unsigned char out[XQ_SHA256_LEN])
{
  xq__store_sodium(); /* SHA-256 needs no randomness: it works either way */
  crypto_hash_sha256(out, data, len);
}

void xq_sha256_hex(const void *data, size_t len, char out[2 * XQ_SHA256_LEN + 1])
{
  unsigned char d[XQ_SHA256_LEN];
  xq_sha256(data, len, d);
  sodium_bin2hex(out, 2 * XQ_SHA256_LEN + 1, d, sizeof d);
}

int xq_ct_equal(const void *a, const void *b, size_t n)
{
  xq__store_sodium();
  return sodium_memcmp(a, b, n) == 0;
}

int xq__store_token_random(char out[XQ_TOKEN_CHARS + 1])
{
  unsigned char b[XQ_TOKEN_CHARS / 2];
  if (xq__store_sodium()) return XQ_EIO;
  randombytes_buf(b, sizeof b);
  sodium_bin2hex(out, XQ_TOKEN_CHARS + 1, b, sizeof b);
  sodium_memzero(b, sizeof b);
  return XQ_OK;
}
