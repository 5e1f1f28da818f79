#!/usr/bin/env bash
# Runs a command with an X display: the caller's DISPLAY if it works, else a
# private Xvfb server that is stopped when the command ends.
set -euo pipefail
if [ -n "${DISPLAY:-}" ] && command -v xdpyinfo >/dev/null 2>&1 && xdpyinfo >/dev/null 2>&1; then
  exec "$@"
fi
for n in $(seq 91 130); do
  [ -e "/tmp/.X${n}-lock" ] || { disp=":$n"; break; }
done
Xvfb "$disp" -screen 0 1920x1080x24 -nolisten tcp >/tmp/sovviz-xvfb.log 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  [ -e "/tmp/.X11-unix/X${disp#:}" ] && break
  sleep 0.1
done
export DISPLAY="$disp"
"$@"
