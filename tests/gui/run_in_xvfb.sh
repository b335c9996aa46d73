#!/bin/sh
# Runs "$@" on a private Xvfb server and exits with its status.
#   run_in_xvfb.sh WIDTHxHEIGHTxDEPTH COMMAND [ARGS...]
# The server picks a free display itself (-displayfd), so parallel tests cannot race for one the
# way `xvfb-run -a` does (it checks lock files, then starts the server), and the server is killed
# on every exit path, so none is left behind to push later runs onto a colliding display.
set -u
screen="$1"
shift
dir="$(mktemp -d)"
Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp 3>"$dir/display" 2>"$dir/xvfb.log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$dir"' EXIT
# the number is written once the server accepts connections (30 s: lavish for a loaded machine)
tries=0
while [ ! -s "$dir/display" ]; do
  if ! kill -0 "$server" 2>/dev/null || [ "$tries" -ge 300 ]; then
    echo "run_in_xvfb.sh: Xvfb did not start:" >&2
    cat "$dir/xvfb.log" >&2
    exit 125
  fi
  tries=$((tries + 1))
  sleep 0.1
done
DISPLAY=":$(head -n 1 "$dir/display")" "$@"
