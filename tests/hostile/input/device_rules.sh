#!/usr/bin/env bash
# A device (/dev/zero: endless bytes) given as a rules file is refused without reading it.
set -u
timeout 10 "$RB" check /dev/zero >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1"; exit 1; }
grep -q "/dev/zero': it is a character device" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
