#!/usr/bin/env bash
# A .so placed under the name the cache would use, with no digest recorded for it (as if
# copied in by someone else), is refused before dlopen and rebuilt; its constructor never runs.
. "$SRC/tests/hostile/case_lib.sh"
export RULEBOOK_CACHE="$WORK/cache"
tiny_rules tiny.rules "tiny unrecorded"
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt || { echo "first play failed: $(head -c 300 err.txt)"; exit 1; }
so=$(ls "$RULEBOOK_CACHE"/tiny-*.so 2>/dev/null | head -1)
[ -n "$so" ] || { echo "no engine object in the cache"; exit 1; }
rm -f "$RULEBOOK_CACHE"/tiny-*
plant_object "$so"
run_rb 120 play tiny.rules --seed 1
[ ! -e "$WORK/INJECTED" ] || { echo "the planted constructor ran"; exit 1; }
expect_rc 0
expect_err "no recorded digest"
