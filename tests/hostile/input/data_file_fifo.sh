#!/usr/bin/env bash
# A FIFO named by a `file "..."` setup is refused like a rules file, at the setup's path.
set -u
mkfifo puzzles.txt
cat >game.rules <<'RULES'
game "data";
board 2 x 2;
players 1;
setup given: Cell -> 0..4 = file "puzzles.txt";
phase play {
    move pass { }
}
RULES
timeout 10 "$RB" play game.rules --engine interp --seed 1 >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1 ($(head -c 300 err.txt))"; exit 1; }
grep -q "puzzles.txt': it is a FIFO" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
