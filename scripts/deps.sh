#!/usr/bin/env bash
# Installs the Debian packages sovviz needs to build, run and test, when they
# are missing. As root it uses apt-get; otherwise it names what to install.
# With the argument "fcl" it adds what the FCL comparison needs
# (scripts/fclbench: FCL 0.7), which make test builds too.
set -euo pipefail
# g++: cimgui-go's GLFW backend has C++ sources (a machine without
# build-essential could not build the GUI without it).
pkgs=(gcc g++ libc6-dev pkg-config libgl1-mesa-dev libx11-dev libxrandr-dev libxinerama-dev
      libxcursor-dev libxi-dev libxxf86vm-dev xvfb libgl1-mesa-dri xauth)
case "${1:-}" in
  "") ;;
  fcl) pkgs+=(libfcl-dev) ;;
  *) echo "usage: scripts/deps.sh [fcl]" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "sovviz needs these Debian packages: ${missing[*]}" >&2
  echo "install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
