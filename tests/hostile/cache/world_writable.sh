#!/usr/bin/env bash
# A cache directory others can write (mode 0777) is refused with a message naming it and
# its mode; nothing is compiled into it or loaded from it.
set -u
export RULEBOOK_CACHE="$WORK/cache"
mkdir -m 0777 "$RULEBOOK_CACHE"
chmod 0777 "$RULEBOOK_CACHE"
cat >tiny.rules <<'RULES'
game "tiny shared";
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
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1 ($(head -c 300 err.txt))"; exit 1; }
grep -q "$RULEBOOK_CACHE is writable by other users (mode 0777)" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
[ -z "$(ls -A "$RULEBOOK_CACHE")" ] || { echo "files written into the refused cache: $(ls "$RULEBOOK_CACHE")"; exit 1; }
# A new cache directory is created private.
export RULEBOOK_CACHE="$WORK/fresh/cache"
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt || { echo "fresh cache: $(head -c 300 err.txt)"; exit 1; }
[ "$(stat -c %a "$RULEBOOK_CACHE")" = 700 ] || { echo "fresh cache has mode $(stat -c %a "$RULEBOOK_CACHE")"; exit 1; }
