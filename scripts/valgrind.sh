#!/usr/bin/env bash
# Run the server's test suites under valgrind (memcheck): no leak, no
# invalid read or write, no use of uninitialised memory (docs/hardening.md).
#
# Criterion runs each test in a child process, and a child's valgrind exit
# status does not reach the runner, so every process (the runner, each
# test's child, and the `xqref` processes the tools suite starts) writes
# its own log, and the verdict comes from the logs: a suite is clean when
# every log ends with "ERROR SUMMARY: 0 errors" and the suite passed.
#
# Usage: scripts/valgrind.sh [SUITE...]    (default: the server suites)
# Settings (environment):
#   BUILD     build tree (default build-valgrind: RelWithDebInfo, x86-64-v2,
#             no sanitizer; configured and built here unless NO_BUILD=1)
#   NO_BUILD=1  use BUILD as it is
#   KEEP=1    keep the logs (in BUILD/valgrind/) even when clean
#   VG_JOBS   test processes of a suite run at once (default 1)
#   VG_FILTER only the tests whose suite/name match this Criterion --filter
#             pattern (the test command's short run)
# Exit status 1 when any suite failed or any process reported an error.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-valgrind}
suites=("$@")
((${#suites[@]})) || suites=(test_net_proto test_net_ops test_net_ko test_net_http test_net_security test_net_hostile
  test_net_tools test_net_web test_net_fanout test_tourney_games test_tourney_store test_token_hash)

command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
if [ "${NO_BUILD:-0}" != 1 ]; then
  # x86-64-v2: valgrind does not know every instruction -march=native may pick
  # warnings are the other builds' business: -O2 -g may warn where they do not
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_PORTABLE=ON -DXQ_WERROR=OFF >/dev/null
  cmake --build "$BUILD" -j "$(nproc)" --target xqref "${suites[@]}" >/dev/null
fi

logs=$BUILD/valgrind
rm -rf "$logs"
mkdir -p "$logs"
status=0
total_start=$(date +%s)
printf '%-22s %6s %6s %9s %7s %8s  %s\n' suite tests procs errors leaked seconds verdict
for s in "${suites[@]}"; do
  exe=$BUILD/tests/$s
  [ -x "$exe" ] || { echo "valgrind.sh: no $exe" >&2; status=1; continue; }
  d=$logs/$s
  mkdir -p "$d"
  t0=$(date +%s)
  rc=0
  # --trace-children: the tests run in forked children (and test_net_tools
  # starts xqref); shells and system tools are not ours to check.
  # --jobs VG_JOBS (default 1): test children at a time under valgrind.
  valgrind --tool=memcheck --trace-children=yes --trace-children-skip='/bin/*,/usr/bin/*' \
    --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --track-origins=yes --error-exitcode=99 --num-callers=30 --log-file="$d/vg.%p.log" \
    "$exe" --jobs "${VG_JOBS:-1}" ${VG_FILTER:+--filter "$VG_FILTER"} --ascii >"$d/suite.out" 2>&1 || rc=$?
  secs=$(($(date +%s) - t0))
  tests=$(grep -o 'Tested: [0-9]*' "$d/suite.out" | tail -1 | grep -o '[0-9]*' || echo '?')
  procs=$(ls "$d"/vg.*.log 2>/dev/null | wc -l)
  errs=0 leaked=0
  for f in "$d"/vg.*.log; do
    [ -e "$f" ] || continue
    n=$(grep -o 'ERROR SUMMARY: [0-9]*' "$f" | tail -1 | grep -o '[0-9]*$' || true)
    # no summary: the process exec'ed another program (a skipped shell)
    [ -n "$n" ] || continue
    errs=$((errs + n))
    l=$(grep -o 'definitely lost: [0-9,]* bytes' "$f" | grep -o '[0-9,]* bytes' | tr -d ', bytes' || true)
    leaked=$((leaked + ${l:-0}))
  done
  verdict=clean
  if [ "$rc" != 0 ] || ! grep -q 'Failing: 0 | Crashing: 0' "$d/suite.out"; then verdict="SUITE FAILED (status $rc)"; fi
  if [ "$errs" != 0 ]; then verdict="ERRORS"; fi
  printf '%-22s %6s %6s %9s %7s %8s  %s\n' "$s" "$tests" "$procs" "$errs" "$leaked" "$secs" "$verdict"
  if [ "$verdict" != clean ]; then
    status=1
    # the first reports, for the reader
    grep -h -A 14 -E '^==[0-9]+== (Invalid|Conditional|Use of|Syscall param|Mismatched|[0-9,]+ bytes in [0-9,]+ blocks are (definitely|indirectly))' \
      "$d"/vg.*.log | head -60 | sed 's/^/    /'
    grep -E 'FAIL|Crash|Synthesis' "$d/suite.out" | head -10 | sed 's/^/    /'
  fi
done
echo "total $(($(date +%s) - total_start)) s; logs in $logs"
if [ "$status" = 0 ] && [ "${KEEP:-0}" != 1 ]; then rm -rf "$logs"; fi
exit "$status"
