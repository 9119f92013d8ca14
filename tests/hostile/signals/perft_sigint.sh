#!/usr/bin/env bash
# perft stopped by SIGINT: exit 130 within 2 s, the complete depths printed, valid JSON with
# "complete": false under --json.
. "$SRC/tests/cli/signal_lib.sh"
rules="$SRC/variants/garnsi-malom/garnsi-9.rules"
interrupt_after 2 out err "$RB" perft "$rules" --depth 12 --threads 1
[ "$early" = 0 ] || { echo "perft finished before the signal"; exit 1; }
[ "$rc" = 130 ] || { echo "exit $rc, not 130"; exit 1; }
within 2 || { echo "stopped $stop_seconds s after the signal"; exit 1; }
grep -q "^depth 1: " out || { echo "no depth line printed"; exit 1; }
grep -q "perft: interrupted" err || { echo "stderr does not say it was interrupted"; exit 1; }
interrupt_after 2 jout jerr "$RB" perft "$rules" --depth 12 --threads 1 --json
[ "$rc" = 130 ] || { echo "--json: exit $rc, not 130"; exit 1; }
valid_json jout || { echo "--json: stdout is not valid JSON"; exit 1; }
grep -q '"complete": false' jout || { echo "--json: no \"complete\": false"; exit 1; }
exit 0
