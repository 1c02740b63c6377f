#!/usr/bin/env bash
# Install what is missing, build, and run the main job: the engine's bench
# (perft over a fixed set of positions, checked against the perft suite).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build -DCMAKE_BUILD_TYPE=Release
exec ./build/xqref bench "$@"
