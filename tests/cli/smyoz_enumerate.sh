#!/bin/bash
# The SMYOZ puzzle entries solved apart from Z3: `rulebook explore` over smyoz_enumerate.rules
# (every clue a board rule) counts the fleets an entry allows; with --clues, each shot group,
# the gallows and the island list left out in turn (more fleets than with every clue: the clue is needed; a
# unique entry with a clue not needed fails). The origin shot is left out only with
# --origin: without its 3x3 area a count takes minutes (entry 1: 1,090,416 states, 262 s).
#
#   smyoz_enumerate.sh RULEBOOK SOURCE ENTRY... [--clues] [--origin] [--threads N] [--expect K=N ...]
#                      [--data FILE] [--drop C ...]
#
# --drop C (repeatable) leaves out only clue C with --clues (1-6 a group, 7 the origin, 8 the
# gallows, 9 the island list), not every clue in turn.
#
# --data FILE counts the entries of FILE (generated puzzles: tests/cli/smyoz_generate.sh)
# instead of variants/smyoz/smyoz-puzzles.txt: the rules are copied next to it.
#
# Prints one line per count: "entry 1: 1 fleet (2784625 states, 112 s)",
# "entry 1 without group A: 7 fleets (...)". With --expect, exits 1 unless entry K has N
# fleets with every clue.
set -euo pipefail
rulebook=$1
source_dir=$2
shift 2
entries=()
clues=0
origin=0
threads=2
data_file=
declare -A expect=()
drops=()
while [ $# -gt 0 ]; do
  case $1 in
    --clues) clues=1 ;;
    --origin) origin=1 ;;
    --threads) threads=$2; shift ;;
    --expect) expect[${2%%=*}]=${2#*=}; shift ;;
    --data) data_file=$(realpath "$2"); shift ;;
    --drop) drops+=("$2"); shift ;;
    *) entries+=("$1") ;;
  esac
  shift
done
if [ -n "$data_file" ]; then
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  mkdir -p "$tree/variants/smyoz" "$tree/tests/cli"
  cp "$source_dir/variants/smyoz/smyoz.rules" "$source_dir/variants/smyoz/smyoz-puzzles.rules" "$tree/variants/smyoz/"
  cp "$data_file" "$tree/variants/smyoz/smyoz-puzzles.txt"
  cp "$source_dir/tests/cli/smyoz_enumerate.rules" "$tree/tests/cli/"
  rules="$tree/tests/cli/smyoz_enumerate.rules"
  data="$data_file"
else
  rules="$source_dir/tests/cli/smyoz_enumerate.rules"
  data="$source_dir/variants/smyoz/smyoz-puzzles.txt"
fi

# The fleets of entry $1 with clue $2 left out (0: none): depth 11, a placed and confirmed fleet.
count() {
  local start end json
  start=$(date +%s.%N)
  json=$("$rulebook" explore "$rules" --setup "puzzle=$1" --setup "dropped=$2" --depth 11 --no-symmetry \
           --threads "$threads" --json --quiet)
  end=$(date +%s.%N)
  python3 -c '
import json, sys
d = json.loads(sys.argv[1])
fleets = sum(x["distinct"] for x in d["depths"] if x["depth"] == 11)
print(fleets, d["total_distinct"], "%.0f" % (float(sys.argv[3]) - float(sys.argv[2])))
' "$json" "$start" "$end"
}

# The clues entry $1 gives: the groups asked (1-6), 7 for the origin, 8 for the gallows, 9
# for the island list.
clues_of() {
  python3 - "$data" "$1" "$source_dir/tests/cli" <<'EOF'
import sys
sys.path.insert(0, sys.argv[3])
from smyoz_minimise import groups_of, read_entries
e = read_entries(sys.argv[1])[int(sys.argv[2]) - 1]
print(" ".join(str(g) for g in groups_of(e) + ([7] if e[27] == 1 else []) + [8] + ([9] if any(e[15:27]) else [])))
EOF
}

name() {
  case $1 in 7) echo "the origin" ;; 8) echo "the gallows" ;; 9) echo "the island list" ;; 6) echo "group Z" ;;
    *) echo "group $(printf "\\x$(printf %x $((64 + $1)))")" ;; esac
}

plural() { if [ "$1" = 1 ]; then echo "1 fleet"; else echo "$1 fleets"; fi; }

# A count that did not come back (the explore failed) fails the script: it is no figure.
counted() {
  [[ "$1" =~ ^[0-9]+$ ]] || { echo "entry $2: the count failed" >&2; exit 1; }
}

status=0
for k in "${entries[@]}"; do
  read -r fleets states seconds < <(count "$k" 0) || true
  counted "$fleets" "$k"
  echo "entry $k: $(plural "$fleets") ($states states, $seconds s)"
  if [ -n "${expect[$k]:-}" ] && [ "${expect[$k]}" != "$fleets" ]; then
    echo "  expected ${expect[$k]}" >&2
    status=1
  fi
  [ $clues = 1 ] || continue
  all=$fleets
  for c in $(clues_of "$k"); do
    if [ ${#drops[@]} -gt 0 ] && [[ ! " ${drops[*]} " =~ " $c " ]]; then continue; fi
    if [ "$c" = 7 ] && [ $origin = 0 ]; then
      echo "entry $k without $(name "$c"): not counted (--origin)"
      continue
    fi
    read -r fleets states seconds < <(count "$k" "$c") || true
    counted "$fleets" "$k"
    # Needed: without it the entry allows more fleets than with every clue.
    verdict=needed
    if [ "$fleets" -le "$all" ]; then
      verdict="NOT needed"
      # A unique entry must need every clue (a puzzle is necessary and sufficient).
      [ "$all" = 1 ] && status=1
    fi
    echo "entry $k without $(name "$c"): $(plural "$fleets") ($states states, $seconds s): $verdict"
  done
done
exit $status
