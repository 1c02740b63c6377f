#!/usr/bin/env bash
# Install the Debian 12 packages xqref needs to build and test, if missing.
# Run as root (or with sudo). Installs nothing that is already there.
set -euo pipefail

packages=(build-essential cmake pkg-config libuv1-dev libcjson-dev
          libcriterion-dev libsqlite3-dev)
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
