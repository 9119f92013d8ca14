#!/usr/bin/env bash
# play stopped by SIGINT in a game that never ends: exit 130 within 2 s, the moves so far
# printed and the end marked "interrupted"; --json stays valid JSON.
. "$SRC/tests/cli/signal_lib.sh"
cat > forever.rules <<'RULES'
game "Forever";

board 2 x 1;

players 1;

state lit: Cell -> bool;

phase flip {
  move toggle(c: Cell) {
    lit[c] := not lit[c];
  }
}
RULES
interrupt_after 2 out err "$RB" play forever.rules --engine interp --max-plies 2000000000 --boards end
[ "$early" = 0 ] || { echo "play finished before the signal"; exit 1; }
[ "$rc" = 130 ] || { echo "exit $rc, not 130"; exit 1; }
within 2 || { echo "stopped $stop_seconds s after the signal"; exit 1; }
grep -q "^interrupted after [0-9]* moves" out || { echo "stdout does not end with the interruption"; exit 1; }
grep -q "^ *1\. " out || { echo "no move printed"; exit 1; }
interrupt_after 2 jout jerr "$RB" play forever.rules --engine interp --max-plies 2000000000 --json
[ "$rc" = 130 ] || { echo "--json: exit $rc, not 130"; exit 1; }
valid_json jout || { echo "--json: stdout is not valid JSON"; exit 1; }
grep -q '"interrupted": true' jout || { echo "--json: no \"interrupted\": true"; exit 1; }
exit 0
