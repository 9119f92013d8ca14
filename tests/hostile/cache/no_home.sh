#!/usr/bin/env bash
# With no HOME, no XDG_CACHE_HOME and no RULEBOOK_CACHE there is no shared fallback in /tmp:
# `play` of a compiled engine stops with a message saying to set RULEBOOK_CACHE.
. "$SRC/tests/hostile/case_lib.sh"
tiny_rules tiny.rules "tiny homeless"
timeout 60 env -u HOME -u XDG_CACHE_HOME -u RULEBOOK_CACHE "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt
rc=$?
expect_rc 1
expect_err "set RULEBOOK_CACHE"
# XDG_CACHE_HOME alone is enough.
timeout 120 env -u HOME -u RULEBOOK_CACHE XDG_CACHE_HOME="$WORK/xdg" "$RB" play tiny.rules --seed 1 >out.txt 2>err.txt ||
  { echo "with XDG_CACHE_HOME: $(head -c 300 err.txt)"; exit 1; }
ls "$WORK"/xdg/rulebook/tiny-*.so >/dev/null 2>&1 || { echo "nothing cached under XDG_CACHE_HOME"; exit 1; }
