#!/usr/bin/env bash
# Install what is missing, build two trees and run every test:
#
#   build-portable/  the portable build (gcc, Release, -march=x86-64-v2,
#                    warnings as errors): every suite, the browser tests,
#                    the short crash, soak and edge runs, and the security
#                    suite's hostile-input tests under valgrind (which knows
#                    every x86-64-v2 instruction; -march=native may use
#                    AVX-512, which it does not).
#   build-san/       the native build (-march=native) with clang,
#                    AddressSanitizer + UndefinedBehaviorSanitizer
#                    (float-cast-overflow too: every double converted to an
#                    integer): every suite, then the short crash run.
#
# So both instruction sets pass every suite, and no tree is built only for
# a few tests. scripts/run.sh's tree (build/, gcc, native) is not used:
# it is the native code these suites test, built without the sanitizers.
#
# The portable tree is built first, alone; then three chains run side by
# side (below): its suites and runs, the browser tests, and the sanitizer
# tree (built, then its suites). The first two mostly wait (on sockets, a
# killed server's restart, Chromium), so the sanitizer chain, which needs
# the most CPU, takes what they leave. Exits non-zero on the first chain
# that fails, with that chain's log.
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

echo "== portable build (build-portable/), at ${SECONDS} s"
bash scripts/build.sh build-portable -DCMAKE_BUILD_TYPE=Release -DXQ_TESTS=ON -DXQ_WERROR=ON -DXQ_PORTABLE=ON
export XQREF=build-portable/xqref # the runs below, and what they start

# Three chains, side by side once the portable tree is built: each in a
# process group of its own, its output in a log of its own (printed when
# it fails; its last lines when it passes).
portable_chain() {
  run_suites build-portable
  $XQREF bench --quick
  # the repetition cases of the Fairy-Stockfish comparison, checked by xqref
  # alone (the comparison itself: bench/compare-fsf.sh, docs/repetition.md)
  bash bench/compare-fsf.sh --self-test --cases 300 --xqref "$XQREF"
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
  bash tests/edge/run.sh build-portable
  # the hostile-input tests of the security suite under valgrind: 17 s; the
  # whole suite (103 s) and every server suite: bash scripts/valgrind.sh
  VG_FILTER='net_security/@(wrong_and_malformed*|malformed_utf8*|huge_numbers*|deeply_nested*|forged_and*|a_board_move_is*)' \
    VG_JOBS="$(nproc)" BUILD=build-portable NO_BUILD=1 bash scripts/valgrind.sh test_net_security
}

browser_chain() { # the live page in headless Chromium (playwright-core from npm; docs/web.md)
  bash tests/web/run.sh build-portable
}

san_chain() {
  CC=clang bash scripts/build.sh build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_WERROR=ON -DXQ_SANITIZE=ON -DXQ_PORTABLE=OFF
  # One suite at a time: each runs two tests at once (Criterion's --jobs 2),
  # and four sanitized processes on two cores took as long (139 s against
  # 142 s alone) for 267 s of CPU instead of 204.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    XQ_TEST_PERFT_NODES=300000 XQ_TEST_PLAYOUTS=100 JOBS=1 run_suites build-san
  ASAN_OPTIONS=detect_leaks=1 TRIALS=2 BOARDS=100 XQREF=build-san/xqref \
    bash bench/crash-test.sh
}

declare -A chain_pid=()
echo "== portable, browser and sanitizer chains start, at ${SECONDS} s"
set -m # each chain in a process group of its own (cleanup kills it whole)
for c in portable browser san; do
  (set -e; "${c}_chain") >"$logs/$c.log" 2>&1 &
  chain_pid[$c]=$!
  bg_pids+=("$!")
done
set +m

# The chains as they end, in any order; the first to fail ends the run.
left=(portable browser san)
while ((${#left[@]})); do
  waiting=()
  for c in "${left[@]}"; do waiting+=("${chain_pid[$c]}"); done
  rc=0
  done_pid=
  wait -n -p done_pid "${waiting[@]}" || rc=$?
  [ -n "$done_pid" ] || { echo "== no chain to wait for (wait exit $rc)"; exit 1; }
  for c in "${left[@]}"; do
    [ "${chain_pid[$c]}" = "$done_pid" ] || continue
    if [ "$rc" != 0 ]; then
      echo "== $c chain failed (exit $rc), at ${SECONDS} s:"
      cat "$logs/$c.log"
      exit "$rc"
    fi
    echo "== $c chain passed, at ${SECONDS} s"
    grep -E 'tests passed|Total Test time|^ℹ (tests|pass|fail|duration)|valgrind:|crash-test|crash-ops|soak:|edge:' "$logs/$c.log" | tail -n 12 || true
    rest=()
    for r in "${left[@]}"; do [ "$r" = "$c" ] || rest+=("$r"); done
    left=("${rest[@]}")
  done
done

echo "== all test builds passed in ${SECONDS} s"
