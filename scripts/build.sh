#!/usr/bin/env bash
# Configure and build one tree:
#   [CC=COMPILER] scripts/build.sh DIR [--target TARGET]... [cmake options...]
# A tree that is already configured with the same options is only brought
# up to date (make rebuilds what changed). CC, when set, names the C
# compiler (CC=clang: the sanitizer tree of scripts/test.sh); a tree
# configured with another compiler is configured again from scratch (its
# CMakeCache.txt and CMakeFiles/ removed: CMake reads CC only then). With
# CC unset a tree keeps the compiler it was configured with.
set -euo pipefail
dir=${1:?usage: scripts/build.sh DIR [--target TARGET]... [cmake options]}
shift
target=()
while [ "${1:-}" = --target ]; do
  target+=("${2:?--target needs a name}")
  shift 2
done
((${#target[@]})) && target=(--target "${target[@]}")
cd "$(dirname "$0")/.."
if [ -n "${CC:-}" ] && [ -f "$dir/CMakeCache.txt" ]; then
  want=$(command -v "$CC" || true)
  [ -n "$want" ] || { echo "build.sh: no compiler $CC" >&2; exit 1; }
  have=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt")
  [ -z "$have" ] || have=$(command -v "$have" || echo "$have") # a -D name, not a path
  if [ -z "$have" ] || [ "$(readlink -f "$want")" != "$(readlink -f "$have")" ]; then
    echo "build.sh: $dir was configured with ${have:-another compiler}; configuring it again with $CC"
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
fi
cmake -S . -B "$dir" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)" "${target[@]}"
