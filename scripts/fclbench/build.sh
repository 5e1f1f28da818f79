#!/usr/bin/env bash
# Builds the FCL harness (fclbench.cpp) into $1 (default bin/fclbench).
# Needs g++ and FCL 0.7's headers: scripts/deps.sh fcl installs them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-bin/fclbench}"
if ! command -v g++ >/dev/null || ! pkg-config --exists fcl 2>/dev/null; then
  echo "fclbench needs g++ and FCL 0.7 (Debian: g++ libfcl-dev); run scripts/deps.sh fcl as root" >&2
  exit 1
fi
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
g++ -O2 -std=c++17 $(pkg-config --cflags fcl) "$here/fclbench.cpp" -o "$out" $(pkg-config --libs fcl)
