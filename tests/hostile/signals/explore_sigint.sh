#!/usr/bin/env bash
# explore stopped by SIGINT: exit 130 within 2 s, the complete depths printed, and the
# reason said; with --json, valid JSON saying it stopped on an interrupt.
. "$SRC/tests/cli/signal_lib.sh"
rules="$SRC/variants/garnsi-malom/garnsi-9.rules"
interrupt_after 2 out err "$RB" explore "$rules" --threads 1
[ "$early" = 0 ] || { echo "explore finished before the signal"; exit 1; }
[ "$rc" = 130 ] || { echo "exit $rc, not 130"; exit 1; }
within 2 || { echo "stopped $stop_seconds s after the signal"; exit 1; }
grep -q "stopped (interrupted)" out || { echo "stdout does not say it was interrupted"; exit 1; }
grep -Eq "^ +1 " out || { echo "no complete depth printed"; exit 1; }
interrupt_after 2 jout jerr "$RB" explore "$rules" --threads 1 --json
[ "$rc" = 130 ] || { echo "--json: exit $rc, not 130"; exit 1; }
valid_json jout || { echo "--json: stdout is not valid JSON"; exit 1; }
grep -q '"stopped": "interrupted"' jout || { echo "--json: no \"stopped\": \"interrupted\""; exit 1; }
exit 0
