#!/usr/bin/env bash
# Every suite that runs the command line, in the sanitizer tree, with each
# command line run by the binary (XQ_TEST_CLI_EXEC=1) so that
# LeakSanitizer checks every run's exit. The test command forks those runs
# from the suite's own process without that check (tests/cli_run.c), but
# for test_tourney_refuse; this is the long version (docs/tools.md).
#
# Usage: scripts/cli-leaks.sh
# Settings (environment):
#   BUILD     the sanitizer tree (default build-san, as scripts/test.sh
#             builds it; configured and built here unless NO_BUILD=1)
# Exit status 1 when a suite failed (a leak fails the run that leaked).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-san}
if [ "${NO_BUILD:-0}" != 1 ]; then
  CC=clang bash scripts/build.sh "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_WERROR=ON -DXQ_SANITIZE=ON \
    -DXQ_PORTABLE=OFF >/dev/null
fi
suites=$(grep -o 'xq_add_suite(test_[a-z_]* xq_cli' tests/CMakeLists.txt | awk '{print $1}' | sed 's/xq_add_suite(//' |
  paste -sd '|')
suites="$suites|test_net_players"
start=$(date +%s)
(cd "$BUILD" && XQ_TEST_CLI_EXEC=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  XQ_TEST_PLAYOUTS=100 ctest --output-on-failure --timeout 900 -j "$(nproc)" -R "^($suites)\$")
echo "cli-leaks: every command line run checked for leaks in $(($(date +%s) - start)) s"
