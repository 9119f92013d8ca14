#!/usr/bin/env bash
# prove stopped by SIGINT while Z3 works: exit 130 within 2 s, the verdicts given so far
# printed, the property cut short and those not reached marked "interrupted".
. "$SRC/tests/cli/signal_lib.sh"
cp "$SRC/tests/hostile/signals/pigeons.rules" .
interrupt_after 2 out err "$RB" prove pigeons.rules --timeout 600 --no-times
[ "$early" = 0 ] || { echo "prove finished before the signal"; exit 1; }
[ "$rc" = 130 ] || { echo "exit $rc, not 130"; exit 1; }
within 2 || { echo "stopped $stop_seconds s after the signal"; exit 1; }
grep -q "^prove quick: proved$" out && grep -q "^prove quick_too: proved$" out ||
  { echo "the verdicts given before the signal are not printed"; exit 1; }
grep -q "^prove pigeons: interrupted$" out || { echo "the property cut short is not marked interrupted"; exit 1; }
grep -q "^prove after: interrupted$" out || { echo "the property not reached is not marked interrupted"; exit 1; }
grep -q "prove: interrupted" err || { echo "no interruption note on stderr"; exit 1; }
exit 0
