#!/usr/bin/env bash
# report stopped by SIGINT during the proofs of its second variant: exit 130 within 2 s,
# the first page written whole, the interrupted page and the index not written (the old
# index intact), and no temporary file left behind.
. "$SRC/tests/cli/signal_lib.sh"
mkdir -p in/a in/b out
cp "$SRC/variants/sudoku-fill/fill-4x4.rules" in/a/
cp "$SRC/variants/smyoz/smyoz.rules" in/b/
echo "OLD INDEX" > out/index.html
cat > config.json <<'JSON'
{"defaults": {"games": 10, "greedy_games": 0, "explore": false, "prove_rlimit": 0, "prove_timeout": 600}}
JSON
# The signal goes as soon as the first page is written (its proofs and the second
# variant's take far longer than that).
interrupt_when out/a/fill-4x4.html 120 stdout err "$RB" report in -o out --config config.json
[ "$early" = 0 ] || { echo "report finished before the signal"; exit 1; }
[ "$rc" = 130 ] || { echo "exit $rc, not 130"; exit 1; }
within 2 || { echo "stopped $stop_seconds s after the signal"; exit 1; }
grep -q "report: interrupted: 1 of 2 pages written; cut short and not written: \[2/2\] in/b/smyoz.rules" err || { echo "not interrupted during the second variant: $(tail -n 3 err)"; exit 1; }
[ "$(cat out/index.html)" = "OLD INDEX" ] || { echo "the old index was replaced"; exit 1; }
grep -q "</html>" out/a/fill-4x4.html || { echo "the finished page is missing or cut short"; exit 1; }
valid_json out/a/fill-4x4.json || { echo "the finished page's JSON is not valid"; exit 1; }
[ ! -e out/b/smyoz.html ] || { echo "the interrupted page was written"; exit 1; }
leftover=$(find out -name '.*tmp*')
[ -z "$leftover" ] || { echo "temporary files left: $leftover"; exit 1; }
exit 0
