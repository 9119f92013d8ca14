#!/usr/bin/env bash
# A cache directory owned by another user is refused, naming the owner. (Needs root to
# give the directory away; as another user the case checks nothing and passes.)
set -u
[ "$(id -u)" -eq 0 ] || exit 0
export RULEBOOK_CACHE="$WORK/cache"
mkdir -m 0700 "$RULEBOOK_CACHE"
chown 65534 "$RULEBOOK_CACHE"
cat >tiny.rules <<'RULES'
game "tiny foreign";
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
grep -q "belongs to user id 65534" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
