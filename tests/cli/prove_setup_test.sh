#!/usr/bin/env bash
# `rulebook prove --setup`: the Moyo puzzle criteria through the binary, per puzzle, against
# the criteria counted here with awk from puzzles.txt; exit codes of wrong setup values.
# Usage: prove_setup_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src"
rules=variants/sudoku-moyo/moyo.rules
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

most=$(sed -n 's/^param most_givens = \([0-9]*\);$/\1/p' "$rules")
# Per puzzle: the four criteria (1 holds, 0 not), counted on the default split: boxes are
# the areas, the centre box the Azumaya; three givens side by side inside one box.
expected=$(awk -v most="$most" '
  /^#/ || length($0) != 9 { next }
  { row[n % 9] = $0; n++ }
  n % 9 == 0 {
    givens = 0; empty = 0; three = 0
    for (b = 0; b < 9; b++) box[b] = 0
    for (y = 0; y < 9; y++) for (x = 0; x < 9; x++)
      if (substr(row[y], x + 1, 1) != ".") { givens++; box[int(y / 3) * 3 + int(x / 3)]++ }
    for (b = 0; b < 9; b++) if (box[b] == 0) empty = 1
    for (a = 0; a < 9; a++) for (s = 0; s < 9; s += 3) for (o = 0; o < 2; o++) {
      run = 0
      for (i = 0; i < 3; i++) {
        if (o == 0) c = substr(row[a], s + i + 1, 1)
        else c = substr(row[s + i], a + 1, 1)
        if (c != ".") run++
      }
      if (run == 3) three = 1
    }
    printf "%d %d %d %d %d\n", n / 9, !empty, (box[4] >= 1 && box[4] <= 4), !three, (givens <= most)
  }' variants/sudoku-moyo/puzzles.txt)
check "six puzzles read from puzzles.txt" 6 "$(echo "$expected" | wc -l)"

names="no_empty_box few_azumaya_givens no_three_adjacent_givens not_too_many_givens"
while read -r k c1 c2 c3 c4; do
  out=$("$rb" prove "$rules" --setup "puzzle=$k" --no-times 2>/dev/null)
  code=$?
  want=0
  i=0
  for holds in $c1 $c2 $c3 $c4; do
    i=$((i + 1))
    name=$(echo $names | cut -d' ' -f$i)
    verdict=$(echo "$out" | sed -n "s/^criterion $name: \([a-z ]*\)$/\1/p")
    if [ "$holds" == 1 ]; then check "puzzle $k $name" met "$verdict"; else check "puzzle $k $name" "not met" "$verdict"; fi
  done
  check "puzzle $k: exit code (0: a criterion not met is a finding, not a failure)" $want $code
  check "puzzle $k: the set names the entry" 4 "$(echo "$out" | grep -c "setup puzzle: entry $k of ")"
done <<<"$expected"

out=$("$rb" prove "$rules" --no-times 2>/dev/null)
check "without --setup the set says what the puzzle ranges over" 4 "$(echo "$out" | grep -c 'any of the 6 entries of')"
"$rb" prove "$rules" --setup puzzle=7 >/dev/null 2>&1
check "an entry number past the file's exits 1" 1 $?
"$rb" prove "$rules" --setup colour=1 >/dev/null 2>&1
check "a name that is no setup value exits 1" 1 $?
"$rb" prove "$rules" --setup puzzle >/dev/null 2>&1
check "--setup without '=' exits 2" 2 $?

# The report's table per puzzle (`prove_setups`): the same verdicts as the prover's above.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RULEBOOK_CACHE="$work/cache"
mkdir -p "$work/in/sudoku-moyo"
cp "$rules" variants/sudoku-moyo/puzzles.txt "$work/in/sudoku-moyo/"
echo '{"defaults": {"games": 2, "greedy_games": 1, "tree_depth": 1, "tree_breadth": 1, "explore": false,
       "prove_rlimit": 2000000, "prove_setups": ["puzzle=1", "puzzle=6", "puzzle=9", "nothing=1"]}}' >"$work/conf.json"
"$rb" report "$work/in" -o "$work/out" --config "$work/conf.json" --jobs 1 >/dev/null 2>&1
check "the report with prove_setups exits 0" 0 $?
page="$work/out/sudoku-moyo/moyo"
row() {  # row PROPERTY: its per_setup verdicts, in the order of the configuration
  python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["analysis"]["proofs"]:
    if r["property"] == sys.argv[2]:
        print(" ".join(r["per_setup"].get(k, "-").split()[0] for k in ["puzzle=1", "puzzle=6", "puzzle=9", "nothing=1"]))' \
    "$page.json" "$1"
}
check "report: three givens side by side, per puzzle" "proved refuted error: -" "$(row no_three_adjacent_givens)"
check "report: no empty box, per puzzle" "proved proved error: -" "$(row no_empty_box)"
check "report: the page has the table" 1 "$(grep -c '<h3>Per setup value</h3>' "$page.html")"

echo "prove --setup: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
