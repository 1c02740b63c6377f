/*
 * test_token_hash.c -- the access tokens' cryptography (libsodium, by
 * tourney/store/store_crypto.c): xq_sha256 against the FIPS 180-2
 * examples (appendix B: "abc", the 448-bit message, one million 'a'), the
 * empty message and the padding edges (55, 56 and 64 bytes); the hex a
 * store keeps for known tokens, against digests made outside xqref (GNU
 * coreutils' sha256sum), so stores written before keep opening; the
 * constant-time compare; a new token's shape and its stored hash.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "support.h"

static void check(const void *data, size_t len, const char *want)
{
  char hex[2 * XQ_SHA256_LEN + 1];
  xq_sha256_hex(data, len, hex);
  cr_assert_str_eq(hex, want);
}

Test(token_hash, fips_180_2_vectors)
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

Test(token_hash, empty_and_padding_edges)
{
  check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  /* 55 bytes fit one padded block, 56 need two (the length field moves) */
  char buf[64];
  memset(buf, 'a', sizeof buf);
  check(buf, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  check(buf, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  check(buf, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

/* The tokens of tests/data/store/v5.db and the hashes a store keeps of
 * them (`printf %s TOKEN | sha256sum`). */
static const struct { const char *token, *hash; } known[] = {
  {"0123456789abcdef0123456789abcdef", "3eb1bd439947eb762998e566ccc2e099c791118b2f40579cc4f7da2b5061b7f9"},
  {"fedcba9876543210fedcba9876543210", "4ba68aa8767bde72e8c798ee82d1275291cea73e72ad74d35ecf48e41386eb82"},
  {"00112233445566778899aabbccddeeff", "5947d7c33d783f94b3b4c1a96ebc8991ed28f1b069b71e03376cba8caa98a720"},
  {"ffeeddccbbaa99887766554433221100", "5d0b193317e951a7444b9bd4c632e0f1793fcbdfad115ae4caeba4f7ae39cca5"},
};

Test(token_hash, the_hex_a_store_keeps)
{
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    char hex[XQ_TOKEN_HASH_CHARS + 1];
    xq_sha256_hex(known[i].token, XQ_TOKEN_CHARS, hex);
    cr_assert_str_eq(hex, known[i].hash, "token %zu", i);
    /* the bytes are the hex's */
    unsigned char d[XQ_SHA256_LEN];
    xq_sha256(known[i].token, XQ_TOKEN_CHARS, d);
    char again[XQ_TOKEN_HASH_CHARS + 1];
    for (int k = 0; k < XQ_SHA256_LEN; k++) snprintf(again + 2 * k, 3, "%02x", d[k]);
    cr_assert_str_eq(again, known[i].hash);
  }
}

Test(token_hash, constant_time_equal)
{
  cr_assert(xq_ct_equal("abcd", "abcd", 4));
  cr_assert(!xq_ct_equal("abcd", "abce", 4));
  cr_assert(!xq_ct_equal("xbcd", "abcd", 4));
  cr_assert(xq_ct_equal("a", "b", 0));
  unsigned char a[XQ_SHA256_LEN], b[XQ_SHA256_LEN];
  xq_sha256(known[0].token, XQ_TOKEN_CHARS, a);
  memcpy(b, a, sizeof b);
  cr_assert(xq_ct_equal(a, b, sizeof a));
  b[XQ_SHA256_LEN - 1] ^= 1;
  cr_assert(!xq_ct_equal(a, b, sizeof a), "the last byte counts");
}

static int lower_hex(const char *s, int n)
{
  for (int i = 0; i < n; i++)
    if (!strchr("0123456789abcdef", s[i]) || !s[i]) return 0;
  return s[n] == 0;
}

Test(token_hash, new_tokens_are_random_hex_kept_as_their_hash)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "token_hash");
  xq_test_db_remove(path);
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_CREATE, &st, &err), XQ_OK, "%s", err.msg);
  xq_ttoken t[4];
  for (int i = 0; i < 4; i++) {
    cr_assert_eq(xq_tstore_token_new(st, XQ_ROLE_VIEWER, 0, 0, "v", &t[i], &err), XQ_OK, "%s", err.msg);
    cr_assert(lower_hex(t[i].token, XQ_TOKEN_CHARS), "%s", t[i].token);
    cr_assert(lower_hex(t[i].hash, XQ_TOKEN_HASH_CHARS), "%s", t[i].hash);
    char h[XQ_TOKEN_HASH_CHARS + 1];
    xq_sha256_hex(t[i].token, XQ_TOKEN_CHARS, h);
    cr_assert_str_eq(t[i].hash, h);
    for (int j = 0; j < i; j++) cr_assert_str_neq(t[i].token, t[j].token, "128 random bits each");
  }
  /* the store has the hashes, not the tokens: a lookup by text hashes it */
  xq_ttoken *all;
  int n;
  cr_assert_eq(xq_tstore_tokens(st, &all, &n, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(n, 4);
  for (int i = 0; i < 4; i++) {
    cr_assert_str_eq(all[i].hash, t[i].hash);
    cr_assert_str_eq(all[i].token, "");
  }
  free(all);
  xq_ttoken f;
  cr_assert_eq(xq_tstore_token_find(st, t[2].token, &f), XQ_OK);
  cr_assert_str_eq(f.hash, t[2].hash);
  cr_assert_eq(xq_tstore_token_find(st, known[0].token, &f), XQ_EINVAL, "a token never made");
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* A round's board tokens at once: each as token_new makes it, bound to
 * its table, in creation order; a bad table or label stores none. */
Test(token_hash, board_tokens_are_made_together_or_not_at_all)
{
  char path[512];
  xq_test_db_path(path, sizeof path, "token_hash_boards");
  xq_test_db_remove(path);
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_CREATE, &st, &err), XQ_OK, "%s", err.msg);
  int boards[] = {1, 2, 5}, bad[] = {3, 0};
  xq_ttoken t[3], u[3];
  cr_assert_eq(xq_tstore_board_tokens(st, 2, boards, 3, "slip", t, &err), XQ_OK, "%s", err.msg);
  for (int i = 0; i < 3; i++) {
    cr_assert(lower_hex(t[i].token, XQ_TOKEN_CHARS), "%s", t[i].token);
    char h[XQ_TOKEN_HASH_CHARS + 1];
    xq_sha256_hex(t[i].token, XQ_TOKEN_CHARS, h);
    cr_assert_str_eq(t[i].hash, h);
    xq_ttoken f;
    cr_assert_eq(xq_tstore_token_find(st, t[i].token, &f), XQ_OK);
    cr_assert(f.role == XQ_ROLE_BOARD && f.round == 2 && f.board == boards[i], "table %d", boards[i]);
    cr_assert_str_eq(f.label, "slip");
  }
  cr_assert_eq(xq_tstore_board_tokens(st, 2, bad, 2, "slip", u, &err), XQ_EINVAL, "table 0 is no table");
  cr_assert_eq(xq_tstore_board_tokens(st, 2, boards, 3, "a\nb", u, &err), XQ_EINVAL, "a control character");
  cr_assert_str_eq(u[0].token, "", "no token comes back from a refused call");
  xq_ttoken *all;
  int n;
  cr_assert_eq(xq_tstore_tokens(st, &all, &n, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(n, 3, "the refused calls stored nothing");
  for (int i = 0; i < 3; i++) cr_assert_str_eq(all[i].hash, t[i].hash, "in creation order");
  free(all);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}
