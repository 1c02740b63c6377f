#!/usr/bin/env bash
# The browser tests of the live page (docs/web.md): installs playwright-core
# (the one npm dependency, from package-lock.json; no browser is
# downloaded) and runs web.test.mjs against BUILD_DIR/xqref with Debian's
# /usr/bin/chromium, XQ_WEB_FILES test files at once (default 3: the
# tests mostly wait on the page and the server, not the CPU). Screenshots
# go to BUILD_DIR/web-artifacts/.
#
#   bash tests/web/run.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-build}" && pwd)"
cd "$root/tests/web"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if ! npm ci --no-audit --no-fund --prefer-offline >npm-ci.log 2>&1; then
  cat npm-ci.log >&2
  exit 1
fi
rm -f npm-ci.log
# the longest file first: it runs beside the others
XQ_BUILD="$build" node --test --test-concurrency="${XQ_WEB_FILES:-3}" --test-reporter=spec web.test.mjs organiser.test.mjs minor.test.mjs desk.test.mjs team.test.mjs modules.test.mjs
