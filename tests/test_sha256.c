/*
 * test_sha256.c -- SHA-256 (tourney/sha256.c) against the FIPS 180-2
 * examples (appendix B: "abc", the 448-bit message, one million 'a') and
 * the empty message; the padding edges (55, 56 and 64 bytes) against their
 * expected digests; xq_ct_equal.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

static void check(const void *data, size_t len, const char *want)
{
  char hex[2 * XQ_SHA256_LEN + 1];
  xq_sha256_hex(data, len, hex);
  cr_assert_str_eq(hex, want);
}

Test(sha256, fips_180_2_vectors)
{
  check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *m2 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  check(m2, strlen(m2), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  char *a = malloc(1000000);
  cr_assert(a);
  memset(a, 'a', 1000000);
  check(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(a);
}

Test(sha256, empty_and_padding_edges)
{
  check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  /* 55 bytes fit one padded block, 56 need two (the length field moves) */
  char buf[64];
  memset(buf, 'a', sizeof buf);
  check(buf, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  check(buf, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  check(buf, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

Test(sha256, constant_time_equal)
{
  cr_assert(xq_ct_equal("abcd", "abcd", 4));
  cr_assert(!xq_ct_equal("abcd", "abce", 4));
  cr_assert(!xq_ct_equal("xbcd", "abcd", 4));
  cr_assert(xq_ct_equal("a", "b", 0));
}
