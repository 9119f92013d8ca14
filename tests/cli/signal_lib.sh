# Shared by tests/cli/signal_test.sh and the tests/hostile/signals/*.sh cases: run a
# rulebook verb, send it SIGINT after a while, and check how it stopped. Sourced, not run.
# Background jobs of a script without job control start with SIGINT ignored (and rulebook
# keeps it ignored then, as it should): job control gives them the default disposition.
set -m

# spawn OUT ERR CMD...: starts CMD in the background with stdout in OUT and stderr in ERR;
# sets spawned (its pid). The caller's EXIT trap (a test's `rm -rf "$work"`) is lifted
# while the child is forked: a child killed before it runs CMD (the guard below, killed as
# soon as the run stops) would otherwise run that trap, deleting the files the test reads.
spawn() {
  local out=$1 err=$2 saved
  shift 2
  saved=$(trap -p EXIT)
  trap - EXIT
  "$@" >"$out" 2>"$err" &
  spawned=$!
  eval "${saved:-trap - EXIT}"
}

# interrupt_after SECONDS OUT ERR CMD...: runs CMD with stdout in OUT and stderr in ERR,
# sends SIGINT after SECONDS, waits. Sets rc (exit code), stop_seconds (from the signal to
# the exit) and early=1 when CMD had already finished before the signal.
interrupt_after() {
  local delay=$1 out=$2 err=$3
  shift 3
  spawn "$out" "$err" "$@"
  local pid=$spawned
  sleep "$delay"
  signal_and_wait "$pid"
}

# interrupt_when FILE LIMIT OUT ERR CMD...: as interrupt_after, but the signal is sent as
# soon as FILE exists (polled every 0.1 s, for at most LIMIT seconds), so that a test of
# "stopped after this point" does not depend on how fast the machine is.
interrupt_when() {
  local file=$1 limit=$2 out=$3 err=$4
  shift 4
  spawn "$out" "$err" "$@"
  poll_while "$spawned" "$limit" test ! -e "$file"
  signal_and_wait "$spawned"
}

# interrupt_when_said TEXT LIMIT OUT ERR CMD...: as interrupt_when, but the signal is sent
# once CMD has written TEXT to stderr (a line it prints after its handler is in place), so a
# loaded machine that starts CMD slowly does not kill it before it can stop cleanly.
interrupt_when_said() {
  local text=$1 limit=$2 out=$3 err=$4
  shift 4
  spawn "$out" "$err" "$@"
  poll_while "$spawned" "$limit" not_said "$text" "$err"
  sleep 0.5  # into the work
  signal_and_wait "$spawned"
}

not_said() { ! grep -qF -- "$1" "$2" 2>/dev/null; }

# poll_while PID LIMIT TEST...: every 0.1 s while TEST holds, PID runs and LIMIT seconds
# have not passed.
poll_while() {
  local pid=$1 limit=$2 waited=0
  shift 2
  while "$@" && kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$((limit * 10))" ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
}

# signal_and_wait PID: the common end of interrupt_after and interrupt_when.
signal_and_wait() {
  local pid=$1
  early=0
  if ! kill -0 "$pid" 2>/dev/null; then early=1; fi
  local t0
  t0=$(date +%s.%N)
  kill -INT "$pid" 2>/dev/null
  # A run that ignores the signal is killed after 20 s, so that the test ends. (Its own
  # process group under job control, and off our output: a sleep left behind would hold a
  # caller's $(...) open.)
  spawn /dev/null /dev/null bash -c 'sleep 20; kill -KILL "$1" 2>/dev/null' guard "$pid"
  local guard=$spawned
  wait "$pid"
  rc=$?
  kill -- -"$guard" 2>/dev/null
  wait "$guard" 2>/dev/null
  stop_seconds=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
}

# within SECONDS: whether the last interrupt_after run stopped within SECONDS of the signal.
within() {
  awk -v s="$stop_seconds" -v m="$1" 'BEGIN { exit !(s < m) }'
}

# valid_json FILE: whether FILE holds one JSON value.
valid_json() {
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null
}
