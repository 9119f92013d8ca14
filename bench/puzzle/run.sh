#!/usr/bin/env bash
# Generation time of `rulebook puzzle` per puzzle: each seed generated alone (its own
# encoding, as a designer runs it), CPU and wall seconds, the median over the seeds.
# Usage: bench/puzzle/run.sh RULEBOOK_BINARY [RULES_FILE] [SEEDS]   (default: Moyo, 20)
set -u
rb=${1:?usage: run.sh RULEBOOK_BINARY [RULES_FILE] [SEEDS]}
file=${2:-variants/sudoku-moyo/moyo.rules}
seeds=${3:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in $(seq 1 "$seeds"); do
  /usr/bin/time -f "%U %S %e" -o "$tmp/t" "$rb" puzzle "$file" --seed "$s" --json --no-times >"$tmp/p.json" 2>/dev/null
  code=$?
  read -r user sys wall <"$tmp/t"
  info=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["puzzles"][0]; print(p["givens"], p["attempts"], p["difficulty"].get("conflicts", "-"))' "$tmp/p.json" 2>/dev/null)
  echo "$s $code $(echo "$user + $sys" | bc) $wall $info" | tee -a "$tmp/all"
done
echo "seed exit cpu_s wall_s givens attempts conflicts (above); medians:"
for col in 3 4; do
  sort -n -k"$col" "$tmp/all" | awk -v c="$col" '{ v[NR] = $c } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %.2f s\n", (c == 3 ? "cpu" : "wall"), m }'
done
