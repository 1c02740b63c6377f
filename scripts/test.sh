#!/usr/bin/env bash
# Install what is missing, build three trees and run every test:
#
#   build/           the default build (-march=native): the tree
#                    scripts/run.sh builds, reused when it is there. Every suite, then the short
#                    crash, soak, browser and edge runs.
#   build-san/       clang, AddressSanitizer + UndefinedBehaviorSanitizer
#                    (float-cast-overflow too: every double converted to an
#                    integer), for x86-64-v2, the portable build's target:
#                    every suite runs on the portable instruction set under
#                    the sanitizers, then the short crash run.
#   build-portable/  the portable build as an organiser builds it (gcc,
#                    Release, -march=x86-64-v2): warnings as errors, the
#                    engine's suites, and the security suite's hostile-input
#                    tests under valgrind (which knows every x86-64-v2
#                    instruction; -march=native may use AVX-512, which it
#                    does not).
#
# The sanitizer and portable trees are built side by side at the lowest
# priority (nice 19) while the default tree's suites and runs go on (those
# runs mostly wait: on sockets, a browser, a killed server's restart; the
# builds take the CPU they leave), so that the sanitizer tree's suites
# run alone (a build beside them took them from 142 to 194 s). The browser tests run beside the crash, soak and
# edge runs for the same reason. Exits non-zero on the first failure, with
# the log of whatever failed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test

logs=$(mktemp -d /tmp/xqref-test.XXXXXX)
bg_pids=()
cleanup() {
  for p in "${bg_pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
  rm -rf "$logs"
}
trap cleanup EXIT

run_suites() { # DIR [ctest options]: run ctest in a build tree, JOBS suites at once (nproc)
  local dir=$1
  shift
  (cd "$dir" && ctest --output-on-failure --timeout 900 -j "${JOBS:-$(nproc)}" "$@")
}

wait_for() { # PID NAME: wait for a background step; its log on failure
  local rc=0
  wait "$1" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "== $2 failed (exit $rc):"
    cat "$logs/$2.log"
    exit "$rc"
  fi
  echo "== $2 passed, at ${SECONDS} s"
}

echo "== default build (build/), at ${SECONDS} s"
bash scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DXQ_TESTS=ON

echo "== sanitizer and portable builds start at the lowest priority, at ${SECONDS} s"
set -m # each background step in a process group of its own (cleanup kills it whole)
CC=clang nice -n 19 bash scripts/build.sh build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DXQ_WERROR=ON -DXQ_SANITIZE=ON -DXQ_PORTABLE=ON >"$logs/san-build.log" 2>&1 &
san_build=$!
bg_pids+=("$san_build")
(
  nice -n 19 bash scripts/build.sh build-portable --target xqref --target test_movegen --target test_perft \
    --target test_fen --target test_notation --target test_net_security -DCMAKE_BUILD_TYPE=Release -DXQ_WERROR=ON \
    -DXQ_PORTABLE=ON
  touch "$logs/portable.built"
) >"$logs/portable-build.log" 2>&1 &
portable_build=$!
bg_pids+=("$portable_build")
set +m

echo "== default tree: suites, at ${SECONDS} s"
run_suites build
./build/xqref bench --quick
# the repetition cases of the Fairy-Stockfish comparison, checked by xqref
# alone (the comparison itself: bench/compare-fsf.sh, docs/repetition.md)
bash bench/compare-fsf.sh --self-test --cases 300 --xqref build/xqref

echo "== default tree: browser tests beside the crash, soak and edge runs, at ${SECONDS} s"
# the live page in headless Chromium (playwright-core from npm; docs/web.md)
set -m
bash tests/web/run.sh build >"$logs/browser.log" 2>&1 &
browser=$!
bg_pids+=("$browser")
set +m
# the server killed with SIGKILL mid-stream keeps every acknowledged move
# (the long version: TRIALS=20 bash bench/crash-test.sh, docs/tools.md)
TRIALS=3 BOARDS=200 bash bench/crash-test.sh
# ... and while a round is paired and published, results are entered and
# PGN is pushed (the long version: TRIALS=20 bash bench/crash-ops.sh)
TRIALS=2 PLAYERS=100 bash bench/crash-ops.sh
# 200 connections for 20 s, memory sampled (the long version: 1000
# connections for 600 s, bash scripts/soak.sh; docs/hardening.md)
CONNS=200 DURATION=20 RATE=1 INTERVAL=2 MARGIN=50 bash scripts/soak.sh
# 1000 viewers through an nginx + nchan edge, and two edges over Redis
# (scripts/edge.sh; docs/scale.md)
bash tests/edge/run.sh build
wait_for "$browser" browser
tail -n 9 "$logs/browser.log"

echo "== waiting for the sanitizer build, at ${SECONDS} s"
wait_for "$san_build" san-build

echo "== sanitizer build, clang ASan + UBSan, x86-64-v2 (build-san/), with the portable tree's tests beside it, at ${SECONDS} s"
# The portable tree's tests take the CPU the sanitizer suites leave (a
# fifth to a half of it: each suite ends on its slowest tests).
set -m
(
  while [ ! -e "$logs/portable.built" ]; do
    kill -0 "$portable_build" 2>/dev/null || exit 1 # it failed: wait_for shows its log
    sleep 1
  done
  XQ_TEST_PERFT_NODES=1000000 run_suites build-portable -R '^test_(movegen|perft|fen|notation)$'
  # the hostile-input tests of the security suite under valgrind: 17 s; the
  # whole suite (103 s) and every server suite: bash scripts/valgrind.sh
  VG_FILTER='net_security/@(wrong_and_malformed*|malformed_utf8*|huge_numbers*|deeply_nested*|forged_and*|a_board_move_is*)' \
    VG_JOBS="$(nproc)" BUILD=build-portable NO_BUILD=1 bash scripts/valgrind.sh test_net_security
) >"$logs/portable.log" 2>&1 &
portable=$!
bg_pids+=("$portable")
set +m
# One suite at a time: each runs two tests at once (Criterion's --jobs 2),
# and four sanitized processes on two cores took as long (139 s against
# 142 s alone) for 267 s of CPU instead of 204.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  XQ_TEST_PERFT_NODES=300000 XQ_TEST_PLAYOUTS=100 JOBS=1 run_suites build-san
ASAN_OPTIONS=detect_leaks=1 TRIALS=2 BOARDS=100 XQREF=build-san/xqref \
  bash bench/crash-test.sh

echo "== portable build, x86-64-v2 (build-portable/), at ${SECONDS} s"
wait_for "$portable_build" portable-build
wait_for "$portable" portable
grep -E 'tests passed|valgrind' "$logs/portable.log" || true

echo "== all test builds passed in ${SECONDS} s"
