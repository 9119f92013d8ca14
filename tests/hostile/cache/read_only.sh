#!/usr/bin/env bash
# A cache directory that cannot be written (mode 0500) is named as read-only, not blamed on
# the generated code (no "does not compile", no "internal error").
set -u
export RULEBOOK_CACHE="$WORK/cache"
mkdir -m 0500 "$RULEBOOK_CACHE"
cat >tiny.rules <<'RULES'
game "tiny read-only";
board 2 x 2;
players 1;
state n: 0..3;
phase play {
    move bump { n += 1; }
}
end when n == 2;
RULES
timeout 60 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt
rc=$?
chmod 0700 "$RULEBOOK_CACHE"
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1 ($(head -c 300 err.txt))"; exit 1; }
grep -q "$RULEBOOK_CACHE is read-only" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
if grep -q "does not compile\|internal error" err.txt; then echo "blamed on the code: $(cat err.txt)"; exit 1; fi
