#!/usr/bin/env bash
# With no HOME, no XDG_CACHE_HOME and no RULEBOOK_CACHE there is no shared fallback in /tmp:
# `play` of a compiled engine stops with a message saying to set RULEBOOK_CACHE.
set -u
cat >tiny.rules <<'RULES'
game "tiny homeless";
board 2 x 2;
players 1;
state n: 0..3;
phase play {
    move bump { n += 1; }
}
end when n == 2;
RULES
timeout 60 env -u HOME -u XDG_CACHE_HOME -u RULEBOOK_CACHE "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1 ($(head -c 300 err.txt))"; exit 1; }
grep -q "set RULEBOOK_CACHE" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
# XDG_CACHE_HOME alone is enough.
timeout 120 env -u HOME -u RULEBOOK_CACHE XDG_CACHE_HOME="$WORK/xdg" "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt ||
  { echo "with XDG_CACHE_HOME: $(head -c 300 err.txt)"; exit 1; }
ls "$WORK"/xdg/rulebook/tiny-*.so >/dev/null 2>&1 || { echo "nothing cached under XDG_CACHE_HOME"; exit 1; }
