#!/usr/bin/env bash
# SMYOZ puzzles (variants/smyoz/smyoz-puzzles.rules): the answers the rules compute agree with
# an independent reference on seeded boards, every entry of smyoz-puzzles.txt is what its
# generator line makes from its fleet, and a list data file solves (state off the grid
# shown). With --solve (ctest's cli_smyoz_puzzles_solve and _solve_rest, about five minutes of CPU), each
# puzzle is solved: unique (proved) with every clue needed, and the puzzle without a clue
# has two fleets.
# Usage: smyoz_puzzles_test.sh RULEBOOK_BINARY SOURCE_DIR [--solve ["ENTRY ..."]]
#   (--solve: only the solving, of the entries listed, default all; ctest splits them in two)
set -u
rb=$1
src=$2
solve=${3:-}
solve_entries=${4:-1 2 3 4 5 6 7}
cd "$src"
rules=variants/smyoz/smyoz-puzzles.rules
data=variants/smyoz/smyoz-puzzles.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: expected [$2], got [$3]"
  fi
}

if [ "$solve" == "--solve" ]; then
  # Each puzzle alone (its own encoding), CPU seconds as /usr/bin/time gives them.
  for k in $solve_entries; do
    if [ "$k" = 6 ]; then
      out=$("$rb" solve "$rules" --setup puzzle=6 --max 2 --timeout 1800 --rlimit 300000000 --no-times 2>/dev/null)
      check "puzzle 6 (puzzle 1 without a clue): two fleets" "unique: no" "$(echo "$out" | grep '^unique:')"
      check "puzzle 6: both shown" 2 "$(echo "$out" | grep -c '^  fleet = ')"
      continue
    fi
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$rb" solve "$rules" --setup "puzzle=$k" --clues --timeout 1800 --rlimit 300000000 \
      --no-times >"$tmp/out" 2>"$tmp/err"
    out=$(cat "$tmp/out")
    echo "puzzle $k: $(awk '{ printf "%.0f", $1 + $2 }' "$tmp/t") s CPU; $(grep '^clues:' "$tmp/out")"
    grep -o '^  clue .*([0-9.]* s)$' "$tmp/err"
    check "puzzle $k: one fleet" "puzzle find_the_fleet: 1 solution" "$(echo "$out" | grep '^puzzle ')"
    check "puzzle $k: unique" "unique: proved" "$(echo "$out" | grep '^unique:')"
    check "puzzle $k: no clue unneeded or unknown" 0 "$(echo "$out" | grep -c '^clue .*\(not needed\|unknown\)')"
    check "puzzle $k: minimal" 1 "$(echo "$out" | grep -c '^clues: .*(minimal: every clue is needed)$')"
    check "puzzle $k: the fleet and a board per clue" "$(( $(echo "$out" | grep -c '^clue .*: needed') + 1 ))" \
      "$(echo "$out" | grep -c '^  fleet = ')"
  done
  echo "smyoz puzzles solved: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi

# The rules' answers (content, colour, ship codes) on the boards of seeded games, against
# the reference the entries are made with.
for seed in 1 2 3; do
  "$rb" draw "$rules" --engine interp --seed $seed --end --format text --layer cell-labels:content \
    --layer cell-labels:colour --layer group-labels:code:cells=ship_cells > "$tmp/board.txt" 2>&1
  check "seed $seed: draw" 0 $?
  out=$(python3 tests/cli/smyoz_answers_check.py < "$tmp/board.txt")
  check "seed $seed: answers as the reference computes them" 0 $?
  echo "seed $seed: $out" | tail -n 1
done

# Every entry is its generator's output: the data are the answers of the fleet shown.
awk -v dir="$tmp" '/^# made by: /{n++} n{print > (dir "/entry" n ".txt")}' "$data"
entries=$(grep -c '^# made by: ' "$data")
check "entries with a generator line" 7 "$entries"
for n in $(seq 1 "$entries"); do
  cmd=$(sed -n 's/^# made by: //p' "$tmp/entry$n.txt")
  want=$(grep -v '^#' "$tmp/entry$n.txt" | sed '/^$/d')
  got=$(python3 $cmd | grep -v '^#')
  check "entry $n is what '$cmd' makes" "$want" "$got"
done

# The data file loads: 7 entries, puzzle 1's clue instances (gallows, origin, groups A-C).
"$rb" check "$rules" > /dev/null 2>&1
check "check" 0 $?
out=$("$rb" solve "$rules" --setup puzzle=9 2>&1)
check "an entry that does not exist" 1 $?
check "says how many entries" 1 "$(echo "$out" | grep -c '1 to 7')"

# A list data file through solve, and state the grid cannot show printed under it: v[1] is
# given as 2, v[2] free in 1..3.
printf '# two values\n2 0   # v[1] given, v[2] not\n' > "$tmp/w.txt"
cat > "$tmp/t.rules" <<'RULES'
game "t";
board 2 x 2;
players 1;
type K = 1..2;
setup want: K -> 0..3 = file "w.txt";
state v: K -> 0..3;
phase p { move m { } }
puzzle q:
  solution all k in {1, 2}: v[k] >= 1;
  clue same for k in {1, 2} where want[k] != 0: v[k] == want[k];
RULES
out=$("$rb" solve "$tmp/t.rules" --setup want=1 --clues --no-times 2>/dev/null)
check "list data file: the count" "puzzle q: 3 solutions" "$(echo "$out" | grep '^puzzle ')"
check "list data file: one clue instance" "clue same(1): needed; without it, also:" "$(echo "$out" | grep '^clue same')"
check "state off the grid shown" "  v = {1: 2, 2: 1}|  v = {1: 2, 2: 2}|  v = {1: 2, 2: 3}" \
  "$(echo "$out" | sed -n '/^solution/,/^unique/p' | grep '^  v = ' | paste -sd '|')"

# The solutions the committed report lists (reports/smyoz/smyoz-puzzles.json: each puzzle
# solved with 300 million units per question), checked apart from Z3: every fleet legal by
# the reference and answering the entry's shots, gallows and island list as the entry gives
# them; puzzles 1 to 5 and 7 unique, puzzle 6 two such fleets.
out=$(python3 tests/cli/smyoz_solutions_check.py reports/smyoz/smyoz-puzzles.json "$data")
check "the report's solutions, by the reference" 0 $?
check "the report: puzzles 1 to 5 and 7 unique, 6 not" "proved proved proved proved proved no proved" \
  "$(echo "$out" | sed -n 's/^puzzle [0-9]: unique \([a-z]*\);.*/\1/p' | paste -sd' ')"
echo "$out"


echo "smyoz puzzles: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
