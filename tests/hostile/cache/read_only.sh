#!/usr/bin/env bash
# A cache directory that cannot be written (mode 0500) is named as read-only, not blamed on
# the generated code (no "does not compile", no "internal error").
. "$SRC/tests/hostile/case_lib.sh"
export RULEBOOK_CACHE="$WORK/cache"
mkdir -m 0500 "$RULEBOOK_CACHE"
tiny_rules tiny.rules "tiny read-only"
run_rb 60 play tiny.rules --seed 1
chmod 0700 "$RULEBOOK_CACHE"
expect_rc 1
expect_err "$RULEBOOK_CACHE is read-only"
if grep -q "does not compile\|internal error" err.txt; then echo "blamed on the code: $(cat err.txt)"; exit 1; fi
