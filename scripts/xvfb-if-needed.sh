#!/usr/bin/env bash
# "make run": open the window on the user's display; with no display at all
# (a bare server) fall back to a private Xvfb so the command still works.
set -euo pipefail
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$@"
fi
echo "no DISPLAY set: running under a private Xvfb (nothing will be visible)" >&2
exec "$(dirname "$0")/xvfb.sh" "$@"
