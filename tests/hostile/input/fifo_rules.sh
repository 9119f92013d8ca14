#!/usr/bin/env bash
# A FIFO given as a rules file is refused at once (exit 1, the path named), not read forever.
set -u
mkfifo game.rules
start=$(date +%s%N)
timeout 10 "$RB" check game.rules >out.txt 2>err.txt
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1 ($(head -c 300 err.txt))"; exit 1; }
[ "$ms" -lt 1000 ] || { echo "took $ms ms, expected under 1 s"; exit 1; }
grep -q "game.rules" err.txt && grep -q "FIFO" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
