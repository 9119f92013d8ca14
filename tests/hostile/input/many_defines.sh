#!/usr/bin/env bash
# `check` of a file with 100,000 defines takes under 5 s of CPU: its time grows linearly
# with the number of declarations. CPU time, not wall time, so that tests running beside
# it on a loaded machine do not fail it.
set -u
{
  printf 'game "many";\nboard 2 x 2;\nplayers 1;\n'
  for ((i = 0; i < 100000; ++i)); do printf 'define d%d: int = %d;\n' "$i" "$i"; done
  printf 'phase play {\n    move pass { end; }\n}\n'
} >game.rules
TIMEFORMAT='%3U %3S'
{ time timeout 60 "$RB" check -q game.rules >out.txt 2>err.txt; } 2>cpu.txt
rc=$?
ms=$(awk '{ printf "%d", ($1 + $2) * 1000 }' cpu.txt)
[ "$rc" -eq 0 ] || { echo "exit $rc ($(head -c 300 err.txt))"; exit 1; }
[ "$ms" -lt 5000 ] || { echo "took $ms ms of CPU, expected under 5 s"; exit 1; }
