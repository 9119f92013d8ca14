#!/usr/bin/env bash
# prove --json stopped by SIGINT: exit 130 within 2 s and still one valid JSON array, with
# the verdicts so far and "interrupted" for the rest.
. "$SRC/tests/cli/signal_lib.sh"
cp "$SRC/tests/hostile/signals/pigeons.rules" .
interrupt_after 2 out err "$RB" prove pigeons.rules --timeout 600 --json --no-times
[ "$early" = 0 ] || { echo "prove finished before the signal"; exit 1; }
[ "$rc" = 130 ] || { echo "exit $rc, not 130"; exit 1; }
within 2 || { echo "stopped $stop_seconds s after the signal"; exit 1; }
valid_json out || { echo "stdout is not valid JSON"; exit 1; }
python3 - out <<'PY' || exit 1
import json, sys
rs = json.load(open(sys.argv[1]))
verdicts = [(r["name"], r["verdict"]) for r in rs]
want = [("quick", "proved"), ("quick_too", "proved"), ("pigeons", "interrupted"), ("after", "interrupted")]
if verdicts != want:
    sys.exit("verdicts %s, expected %s" % (verdicts, want))
PY
