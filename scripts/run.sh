#!/usr/bin/env bash
# Install what is missing, build, and run the main job: the tournament
# server with a demo tournament on the embedded store (demo.db in the
# working directory, created on the first run with a token per board).
# JSON lines on 127.0.0.1:7878, HTTP on http://127.0.0.1:8080/.
# Options are passed to `xqref serve` (xqref serve --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# only the binary: the test command builds the rest of this same tree
bash scripts/build.sh build --target xqref -DCMAKE_BUILD_TYPE=Release
exec ./build/xqref serve --demo --db "${XQ_DB:-demo.db}" "$@"
