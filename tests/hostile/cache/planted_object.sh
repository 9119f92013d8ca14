#!/usr/bin/env bash
# An engine object replaced in the cache after it was built (a planted .so whose constructor
# creates INJECTED) is refused before it is loaded, rebuilt with a one-line note, and its
# constructor never runs.
set -u
export RULEBOOK_CACHE="$WORK/cache"
cat >tiny.rules <<'RULES'
game "tiny planted";
board 2 x 2;
players 1;
state n: 0..3;
phase play {
    move bump { n += 1; }
}
end when n == 2;
RULES
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt || { echo "first play failed: $(head -c 300 err.txt)"; exit 1; }
so=$(ls "$RULEBOOK_CACHE"/tiny-*.so 2>/dev/null | head -1)
[ -n "$so" ] || { echo "no engine object in the cache: $(ls "$RULEBOOK_CACHE")"; exit 1; }
[ -f "${so%.so}.sum" ] || { echo "no digest recorded beside $so"; exit 1; }
cat >evil.cpp <<CPP
#include <cstdio>
__attribute__((constructor)) static void planted() { std::FILE* f = std::fopen("$WORK/INJECTED", "w"); if (f) std::fclose(f); }
CPP
c++ -shared -fPIC -o evil.so evil.cpp || { echo "cannot build the planted object"; exit 1; }
cp evil.so "$so"
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt
rc=$?
[ ! -e "$WORK/INJECTED" ] || { echo "the planted constructor ran"; exit 1; }
[ "$rc" -eq 0 ] || { echo "exit $rc ($(head -c 300 err.txt))"; exit 1; }
grep -q "refused the cached engine" err.txt || { echo "no note: $(cat err.txt)"; exit 1; }
[ "$(grep -c "refused" err.txt)" -eq 1 ] || { echo "more than one line of note: $(cat err.txt)"; exit 1; }
cmp -s evil.so "$so" && { echo "the planted object is still in the cache"; exit 1; }
# The rebuilt entry is reused quietly.
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt || { echo "third play failed"; exit 1; }
grep -q "from the cache" err.txt && ! grep -q "refused" err.txt || { echo "third play: $(cat err.txt)"; exit 1; }
[ ! -e "$WORK/INJECTED" ] || { echo "the planted constructor ran"; exit 1; }
