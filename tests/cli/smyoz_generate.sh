#!/usr/bin/env bash
# SMYOZ puzzle generation, one seed after another: a random legal fleet and a full candidate
# (the gallows and groups A-E of three cells: 15 shots) from the seed
# (smyoz_puzzle_entry.py --candidate), `rulebook solve --minimise` drops the shot groups and
# the origin the rest imply (each drop proved), and the puzzle kept is solved again in a
# process of its own with --clues: one fleet (unique: proved) and every clue needed.
# A seed whose candidate is not unique, or whose gallows the shots make unneeded, is
# rejected (printed, no entry). Minutes per seed: not in ctest.
# Usage: smyoz_generate.sh RULEBOOK_BINARY SOURCE_DIR OUT_FILE SEED|"ARGS"...
#   a SEED draws the candidate from the seed; "ARGS" (with spaces) is a candidate written out,
#   the arguments of smyoz_puzzle_entry.py (a shipped entry's generator line);
#   appends each puzzle's entry (its generator line first) to OUT_FILE, and prints one line
#   per seed: seed, verdict, CPU seconds of the minimising and of the re-solve, the groups kept.
set -u
rb=$1
src=$(cd "$2" && pwd)
out=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/variants/smyoz/smyoz.rules" "$src/variants/smyoz/smyoz-puzzles.rules" "$tmp/"
gen="$src/tests/cli/smyoz_puzzle_entry.py"

cpu() { awk '{ printf "%.0f", $1 + $2 }' "$1"; }  # user + system seconds of /usr/bin/time

for seed in "$@"; do
  if [[ "$seed" == *" "* ]]; then
    read -r -a args <<<"$seed"
    seed=${args[0]}
  else
    read -r -a args <<<"$(python3 "$gen" --candidate "$seed")"
  fi
  python3 "$gen" "${args[@]}" >"$tmp/smyoz-puzzles.txt"
  /usr/bin/time -f "%U %S" -o "$tmp/t1" "$rb" solve "$tmp/smyoz-puzzles.rules" --setup puzzle=1 --minimise \
    --timeout 1800 --json --no-times >"$tmp/min.json" 2>/dev/null
  # The kept groups, relabelled A, B, ... in order; the origin '-' when dropped.
  kept=$(python3 - "$tmp/min.json" "${args[@]}" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["puzzles"][0]
args = sys.argv[2:]
clues = {c["name"]: c for c in p["clues"]}
if p["unique"] != "proved":
    print("rejected: the candidate is not unique (%s)" % p["unique"]); sys.exit()
if any(c["needed"] is None and not c["dropped"] for c in p["clues"]):
    print("rejected: a clue unknown"); sys.exit()
if clues["gallows"]["dropped"]:
    print("rejected: the shots alone find the fleet (gallows not needed)"); sys.exit()
origin = args[1] if "origin(1)" in clues and not clues["origin(1)"]["dropped"] else "-"
groups = [a.split("=")[1] for a in args[2:] if not clues["shots(%d)" % ("ABCDEZ".index(a[0]) + 1)]["dropped"]]
print("ok", args[0], origin, *("%s=%s" % (g, cells) for g, cells in zip("ABCDE", groups)))
PY
)
  if [ "${kept%% *}" != "ok" ]; then
    echo "seed $seed: $kept (minimise $(cpu "$tmp/t1") s)"
    continue
  fi
  read -r -a final <<<"${kept#ok }"
  python3 "$gen" "${final[@]}" >"$tmp/smyoz-puzzles.txt"
  /usr/bin/time -f "%U %S" -o "$tmp/t2" "$rb" solve "$tmp/smyoz-puzzles.rules" --setup puzzle=1 --clues \
    --timeout 1800 --no-times >"$tmp/re.txt" 2>"$tmp/re.err"
  count=$(grep '^puzzle ' "$tmp/re.txt")
  unique=$(grep '^unique:' "$tmp/re.txt")
  summary=$(grep '^clues:' "$tmp/re.txt")
  verdict=bad
  [ "$count" == "puzzle find_the_fleet: 1 solution" ] && [ "$unique" == "unique: proved" ] &&
    [[ "$summary" == *"(minimal: every clue is needed)" ]] && verdict=ok
  echo "seed $seed: $verdict ($unique; $summary) minimise $(cpu "$tmp/t1") s, re-solve $(cpu "$tmp/t2") s: ${final[*]:1}"
  grep -o '^  clue .*([0-9.]* s)$' "$tmp/re.err"
  if [ "$verdict" == ok ]; then
    { echo; cat "$tmp/smyoz-puzzles.txt"; } >>"$out"
  fi
done
