#!/usr/bin/env bash
# A cache directory owned by another user is refused, naming the owner. (Needs root to
# give the directory away; as another user the case checks nothing and passes.)
. "$SRC/tests/hostile/case_lib.sh"
[ "$(id -u)" -eq 0 ] || exit 0
export RULEBOOK_CACHE="$WORK/cache"
mkdir -m 0700 "$RULEBOOK_CACHE"
chown 65534 "$RULEBOOK_CACHE"
tiny_rules tiny.rules "tiny foreign"
run_rb 60 play tiny.rules --seed 1
expect_rc 1
expect_err "belongs to user id 65534"
