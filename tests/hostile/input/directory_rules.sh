#!/usr/bin/env bash
# A directory given as a rules file, or extended by one, is an error naming the path.
set -u
mkdir game.rules
timeout 10 "$RB" check game.rules >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1"; exit 1; }
grep -q "cannot read 'game.rules': it is a directory" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
mkdir base.rules
printf 'variant "v" extends "base.rules";\n' >v.rules
timeout 10 "$RB" check v.rules >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || { echo "extends a directory: exit $rc, expected 1"; exit 1; }
grep -q "base.rules': it is a directory" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
