#!/usr/bin/env bash
# An engine object replaced in the cache after it was built (a planted .so whose constructor
# creates INJECTED) is refused before it is loaded, rebuilt with a one-line note, and its
# constructor never runs.
. "$SRC/tests/hostile/case_lib.sh"
export RULEBOOK_CACHE="$WORK/cache"
tiny_rules tiny.rules "tiny planted"
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt || { echo "first play failed: $(head -c 300 err.txt)"; exit 1; }
so=$(ls "$RULEBOOK_CACHE"/tiny-*.so 2>/dev/null | head -1)
[ -n "$so" ] || { echo "no engine object in the cache: $(ls "$RULEBOOK_CACHE")"; exit 1; }
[ -f "${so%.so}.sum" ] || { echo "no digest recorded beside $so"; exit 1; }
plant_object evil.so
cp evil.so "$so"
run_rb 120 play tiny.rules --seed 1
[ ! -e "$WORK/INJECTED" ] || { echo "the planted constructor ran"; exit 1; }
expect_rc 0
expect_err "refused the cached engine"
[ "$(grep -c "refused" err.txt)" -eq 1 ] || { echo "more than one line of note: $(cat err.txt)"; exit 1; }
cmp -s evil.so "$so" && { echo "the planted object is still in the cache"; exit 1; }
# The rebuilt entry is reused quietly.
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt || { echo "third play failed"; exit 1; }
grep -q "from the cache" err.txt && ! grep -q "refused" err.txt || { echo "third play: $(cat err.txt)"; exit 1; }
[ ! -e "$WORK/INJECTED" ] || { echo "the planted constructor ran"; exit 1; }
