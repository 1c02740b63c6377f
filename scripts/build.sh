#!/usr/bin/env bash
# Configure and build one tree: scripts/build.sh DIR [cmake options...]
set -euo pipefail
dir=${1:?usage: scripts/build.sh DIR [cmake options]}
shift
cd "$(dirname "$0")/.."
cmake -S . -B "$dir" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
