#!/usr/bin/env bash
# Install what is missing, build, and run every test suite three ways:
# the default build (-march=native; the tree scripts/run.sh builds, reused
# when it is there), the portable x86-64-v2 build and the AddressSanitizer
# + UndefinedBehaviorSanitizer build (both with warnings as errors; the
# sanitizer build with clang, whose UBSan also checks every double
# converted to an integer: float-cast-overflow). Exits non-zero on the
# first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test

run_suites() { # DIR: run ctest in a build tree
  (cd "$1" && ctest --output-on-failure --timeout 900 -j "$(nproc)")
}

echo "== default build (build/), at ${SECONDS} s"
bash scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DXQ_TESTS=ON
run_suites build
./build/xqref bench --quick
# the repetition cases of the Fairy-Stockfish comparison, checked by xqref
# alone (the comparison itself: bench/compare-fsf.sh, docs/repetition.md)
bash bench/compare-fsf.sh --self-test --cases 300 --xqref build/xqref
# the server killed with SIGKILL mid-stream keeps every acknowledged move
# (the long version: TRIALS=20 bash bench/crash-test.sh, docs/tools.md)
TRIALS=3 BOARDS=200 bash bench/crash-test.sh
# ... and while a round is paired and published, results are entered and
# PGN is pushed (the long version: TRIALS=20 bash bench/crash-ops.sh)
TRIALS=2 PLAYERS=100 bash bench/crash-ops.sh
# 200 connections for 20 s, memory sampled (the long version: 1000
# connections for 600 s, bash scripts/soak.sh; docs/hardening.md)
CONNS=200 DURATION=20 RATE=1 INTERVAL=2 MARGIN=50 bash scripts/soak.sh
# the live page in headless Chromium (playwright-core from npm; docs/web.md)
bash tests/web/run.sh build
# 1000 viewers through an nginx + nchan edge, and two edges over Redis
# (scripts/edge.sh; docs/scale.md)
bash tests/edge/run.sh build

echo "== portable build, x86-64-v2 (build-portable/), at ${SECONDS} s"
bash scripts/build.sh build-portable -DCMAKE_BUILD_TYPE=Release -DXQ_WERROR=ON -DXQ_PORTABLE=ON
XQ_TEST_PERFT_NODES=1000000 run_suites build-portable
# the hostile-input tests of the security suite under valgrind, on this
# tree (valgrind knows every x86-64-v2 instruction): 17 s; the whole suite
# (103 s) and every server suite: bash scripts/valgrind.sh
VG_FILTER='net_security/@(wrong_and_malformed*|malformed_utf8*|huge_numbers*|deeply_nested*|forged_and*|a_board_move_is*)' \
  VG_JOBS="$(nproc)" BUILD=build-portable NO_BUILD=1 bash scripts/valgrind.sh test_net_security

echo "== sanitizer build, clang ASan + UBSan (build-san/), at ${SECONDS} s"
CC=clang bash scripts/build.sh build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_WERROR=ON -DXQ_SANITIZE=ON
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  XQ_TEST_PERFT_NODES=300000 run_suites build-san
ASAN_OPTIONS=detect_leaks=1 TRIALS=2 BOARDS=100 XQREF=build-san/xqref \
  bash bench/crash-test.sh

echo "== all test builds passed in ${SECONDS} s"
