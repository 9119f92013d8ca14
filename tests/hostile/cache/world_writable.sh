#!/usr/bin/env bash
# A cache directory others can write (mode 0777) is refused with a message naming it and
# its mode; nothing is compiled into it or loaded from it.
. "$SRC/tests/hostile/case_lib.sh"
export RULEBOOK_CACHE="$WORK/cache"
mkdir -m 0777 "$RULEBOOK_CACHE"
chmod 0777 "$RULEBOOK_CACHE"
tiny_rules tiny.rules "tiny shared"
run_rb 60 play tiny.rules --seed 1
expect_rc 1
expect_err "$RULEBOOK_CACHE is writable by other users (mode 0777)"
[ -z "$(ls -A "$RULEBOOK_CACHE")" ] || { echo "files written into the refused cache: $(ls "$RULEBOOK_CACHE")"; exit 1; }
# A new cache directory is created private.
export RULEBOOK_CACHE="$WORK/fresh/cache"
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt || { echo "fresh cache: $(head -c 300 err.txt)"; exit 1; }
[ "$(stat -c %a "$RULEBOOK_CACHE")" = 700 ] || { echo "fresh cache has mode $(stat -c %a "$RULEBOOK_CACHE")"; exit 1; }
