#!/usr/bin/env bash
# SMYOZ edited to a fleet of 65,536 ships (its rules compare every pair of ships for every
# placement) is refused at the move within seconds, instead of running for minutes silently.
set -u
cat >big-fleet.rules <<RULES
variant "big fleet" extends "$SRC/variants/smyoz/smyoz.rules";
override param delta_count = 65526;
RULES
start=$(date +%s%N)
timeout 30 "$RB" play big-fleet.rules --engine interp --seed 1 >out.txt 2>err.txt
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1 ($(head -c 300 err.txt))"; exit 1; }
[ "$ms" -lt 5000 ] || { echo "took $ms ms"; exit 1; }
grep -q "smyoz.rules:[0-9]*:[0-9]*: error: move 'place' may take" err.txt || { echo "stderr: $(cat err.txt)"; exit 1; }
