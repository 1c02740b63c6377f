#!/usr/bin/env bash
# Install the Debian 12 packages xqref needs, if missing. Run as root (or
# with sudo). Installs nothing that is already there.
#
#   scripts/install-deps.sh          what building and running xqref need
#   scripts/install-deps.sh --test   that, and what the tests need too
set -euo pipefail

# building and running: a C compiler, CMake, libuv, cJSON, SQLite, and
# libqrencode for the QR codes of the board slips, libxlsxwriter for the
# XLSX downloads of the printed sheets, libsodium for the access tokens
# (random bytes, SHA-256, constant-time compare) and base64, zlib for the older
# 象棋桥 books
packages=(build-essential cmake pkg-config libuv1-dev libcjson-dev libsqlite3-dev libqrencode-dev libxlsxwriter-dev
          libsodium-dev zlib1g-dev)
if [ "${1:-}" = --test ]; then
  # the test suites (Criterion)
  packages+=(libcriterion-dev)
  # the sanitizer build (build-san/) is clang's: clang, the runtimes of its
  # sanitizers (libclang-rt-14-dev: clang-14 only recommends them, and
  # without them -fsanitize=address,undefined does not link) and
  # llvm-symbolizer (llvm), which puts the source lines in a report
  packages+=(clang libclang-rt-14-dev llvm)
  # the browser tests of the live page (tests/web/, docs/web.md): Debian's
  # Chromium driven by playwright-core from npm, and a CJK font for the
  # screenshots. Node.js 18 or later from any source will do (a nodesource
  # node brings its own npm); without one, Debian's nodejs and npm.
  packages+=(chromium fonts-wqy-microhei)
  # the crash trials (bench/crash-ops.sh: HTTP requests, PRAGMA
  # integrity_check) and the valgrind run of the server suites
  packages+=(curl sqlite3 valgrind)
  # the self-test of the Fairy-Stockfish comparison's case generator
  # (bench/compare-fsf.sh --self-test, a Python script)
  packages+=(python3)
  # the edge test (tests/edge/run.sh, docs/scale.md): nginx with the nchan
  # module, and Redis for two edges sharing their channels. scripts/edge.sh
  # runs its own on loopback ports; where systemd runs, Debian also starts
  # the packages' own services (`systemctl disable --now nginx
  # redis-server` stops them)
  packages+=(nginx libnginx-mod-nchan redis-server)
  if ! command -v node >/dev/null 2>&1 ||
     [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 18 ]; then
    packages+=(nodejs npm)
  elif ! command -v npm >/dev/null 2>&1; then
    packages+=(npm)
  fi
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/install-deps.sh [--test]" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
