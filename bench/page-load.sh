#!/usr/bin/env bash
# page-load.sh - the live page's load time, page against page (docs/web.md,
# "Load time"): for each REF, an xqref binary whose web/ is that commit's
# (the commit's sources from `git archive`, built once with its xqref
# target alone and kept in CACHE), then tests/web/load.mjs: headless
# Chromium opens each binary's `serve --demo` page under CDP network
# emulation, LATENCIES ms added to every request, RUNS first loads (an
# empty cache) and RUNS reloads, and prints the medians until
# DOMContentLoaded and until the first board card, and the files fetched.
#
#   bash bench/page-load.sh [REF ...]        (default: 94001de and the tree)
#
# A REF is a commit (a hash, a branch) or `tree`: this tree's build
# (XQREF, default build/xqref; build it first). Settings (environment):
# RUNS (7), LATENCIES (0,100), CACHE (/tmp/xqref-page-load), XQREF.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${RUNS:-7}
LATENCIES=${LATENCIES:-0,100}
CACHE=${CACHE:-/tmp/xqref-page-load}
XQREF=${XQREF:-$root/build/xqref}
die() { echo "page-load: $*" >&2; exit 1; }
[ $# -gt 0 ] || set -- 94001de tree

# The binary of REF: this tree's, or REF's sources built into CACHE.
binary() {
  local ref=$1 sha src
  if [ "$ref" = tree ]; then
    [ -x "$XQREF" ] || die "no xqref binary at $XQREF (build first, or set XQREF)"
    echo "$XQREF"
    return
  fi
  sha=$(git -C "$root" rev-parse --short=12 "$ref^{commit}") || die "not a commit: $ref"
  if [ ! -x "$CACHE/xqref-$sha" ]; then
    src=$CACHE/src-$sha
    rm -rf "$src"
    mkdir -p "$src"
    git -C "$root" archive "$sha" | tar -x -C "$src"
    echo "page-load: building xqref at $sha" >&2
    bash "$src/scripts/build.sh" "$src/build" --target xqref \
      -DCMAKE_BUILD_TYPE=Release -DXQ_TESTS=OFF -DXQ_LTO=OFF >&2
    cp "$src/build/xqref" "$CACHE/xqref-$sha"
    rm -rf "$src"
  fi
  echo "$CACHE/xqref-$sha"
}

pages=()
for ref in "$@"; do pages+=("$ref=$(binary "$ref")"); done

cd "$root/tests/web"
if [ ! -d node_modules/playwright-core ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --prefer-offline >/dev/null
fi
node load.mjs --runs "$RUNS" --latency "$LATENCIES" "${pages[@]}"
