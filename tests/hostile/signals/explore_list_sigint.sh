#!/usr/bin/env bash
# explore --list stopped by SIGINT while it evaluates the observed defines on the states of
# the depth: exit 130 within 2 s, the reason said, and no list written (not even a part).
. "$SRC/tests/cli/signal_lib.sh"
rules="$SRC/variants/garnsi-malom/garnsi-9.rules"
list=$(mktemp -u)
interrupt_when_said "listing:" 120 out err "$RB" explore "$rules" --depth 3 --no-symmetry --threads 1 \
  --list "$list" --observe houses
[ "$early" = 0 ] || { echo "explore finished before the signal"; exit 1; }
[ "$rc" = 130 ] || { echo "exit $rc, not 130"; exit 1; }
within 2 || { echo "stopped $stop_seconds s after the signal"; exit 1; }
grep -q "interrupted while listing" err || { echo "stderr does not say the listing was interrupted"; exit 1; }
[ ! -e "$list" ] || { rm -f "$list"; echo "a list was written"; exit 1; }
ls "$(dirname "$list")" | grep -q "^$(basename "$list")" && { echo "a temporary list was left"; exit 1; }
exit 0
