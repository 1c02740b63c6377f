#!/usr/bin/env bash
# Configure and build one tree:
#   scripts/build.sh DIR [--target TARGET] [cmake options...]
# A tree that is already configured with the same options is only brought
# up to date (make rebuilds what changed).
set -euo pipefail
dir=${1:?usage: scripts/build.sh DIR [--target TARGET] [cmake options]}
shift
target=()
if [ "${1:-}" = --target ]; then
  target=(--target "${2:?--target needs a name}")
  shift 2
fi
cd "$(dirname "$0")/.."
cmake -S . -B "$dir" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)" "${target[@]}"
