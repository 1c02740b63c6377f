#!/usr/bin/env bash
# The browser tests of the live page (docs/web.md): installs playwright-core
# (the one npm dependency, from package-lock.json; no browser is
# downloaded) and runs web.test.mjs against BUILD_DIR/xqref with Debian's
# /usr/bin/chromium. Screenshots go to BUILD_DIR/web-artifacts/.
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
XQ_BUILD="$build" node --test --test-reporter=spec modules.test.mjs web.test.mjs organiser.test.mjs desk.test.mjs minor.test.mjs team.test.mjs
