#!/usr/bin/env bash
# Runs a command with an X display: the caller's DISPLAY if it works, else a
# private Xvfb server, stopped when the command ends. Xvfb picks a free
# display number itself (-displayfd), so parallel runs never share a server.
set -euo pipefail
if [ -n "${DISPLAY:-}" ] && command -v xdpyinfo >/dev/null 2>&1 && xdpyinfo >/dev/null 2>&1; then
  exec "$@"
fi
log=$(mktemp /tmp/sovviz-xvfb.XXXXXX)
dfile=$(mktemp /tmp/sovviz-xvfb-display.XXXXXX)
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$dfile" >"$log" 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null || true; wait $xpid 2>/dev/null || true; rm -f "$dfile" "$log"' EXIT
for _ in $(seq 1 100); do
  [ -s "$dfile" ] && break
  if ! kill -0 "$xpid" 2>/dev/null; then
    echo "scripts/xvfb.sh: Xvfb failed to start:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ ! -s "$dfile" ]; then
  echo "scripts/xvfb.sh: Xvfb reported no display within 10 s:" >&2
  cat "$log" >&2
  exit 1
fi
export DISPLAY=":$(head -n 1 "$dfile")"
# Run the command as a child (stdin kept) and pass a TERM or INT on to it, so
# that a timeout stopping this script stops the command too.
"$@" 0<&0 &
child=$!
trap 'kill -TERM $child 2>/dev/null || true' TERM INT
set +e
wait $child
status=$?
# A trapped signal interrupts wait: wait again for the child to finish.
while kill -0 $child 2>/dev/null; do
  wait $child
  status=$?
done
exit $status
