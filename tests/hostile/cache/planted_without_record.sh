#!/usr/bin/env bash
# A .so placed under the name the cache would use, with no digest recorded for it (as if
# copied in by someone else), is refused before dlopen and rebuilt; its constructor never runs.
set -u
export RULEBOOK_CACHE="$WORK/cache"
cat >tiny.rules <<'RULES'
game "tiny unrecorded";
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
[ -n "$so" ] || { echo "no engine object in the cache"; exit 1; }
rm -f "$RULEBOOK_CACHE"/tiny-*
cat >evil.cpp <<CPP
#include <cstdio>
__attribute__((constructor)) static void planted() { std::FILE* f = std::fopen("$WORK/INJECTED", "w"); if (f) std::fclose(f); }
CPP
c++ -shared -fPIC -o "$so" evil.cpp || { echo "cannot build the planted object"; exit 1; }
timeout 120 "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt
rc=$?
[ ! -e "$WORK/INJECTED" ] || { echo "the planted constructor ran"; exit 1; }
[ "$rc" -eq 0 ] || { echo "exit $rc ($(head -c 300 err.txt))"; exit 1; }
grep -q "no recorded digest" err.txt || { echo "no note: $(cat err.txt)"; exit 1; }
