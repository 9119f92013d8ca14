#!/usr/bin/env bash
# `rulebook solve`: the Moyo puzzles' solution counts (19, 33, 2252, 359, 1, 1 by the
# appendix), uniqueness, needed clues with a second solution shown, the criteria of each
# puzzle, the complete 4x4 grids (288), JSON and exit codes.
# Usage: solve_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src"
moyo=variants/sudoku-moyo/moyo.rules
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

# The counts of the six puzzles, boards left out (puzzle 3 alone has 2252).
k=0
for want in 19 33 2252 359 1 1; do
  k=$((k + 1))
  start=$(date +%s)
  out=$("$rb" solve "$moyo" --setup "puzzle=$k" --max 5000 --boards 0 --timeout 240 --no-times 2>/dev/null)
  code=$?
  echo "puzzle $k: $(( $(date +%s) - start )) s"
  check "puzzle $k: count" "puzzle complete_grid: $want solution$([ "$want" = 1 ] || echo s)" "$(echo "$out" | head -n 1)"
  check "puzzle $k: exit code" 0 $code
  if [ "$want" = 1 ]; then u=proved; else u=no; fi
  check "puzzle $k: uniqueness" "unique: $u" "$(echo "$out" | grep '^unique:')"
  check "puzzle $k: the set names the entry" 1 "$(echo "$out" | grep -c "setup puzzle: entry $k of ")"
done

# The criteria are the file's properties of the setup, as prove --setup gives them.
for k in 1 5; do
  want=$("$rb" prove "$moyo" --setup "puzzle=$k" --no-times 2>/dev/null | sed -n 's/^criterion \([a-z_]*\): \([a-z ]*\)$/\1: \2/p' | paste -sd '|')
  got=$("$rb" solve "$moyo" --setup "puzzle=$k" --boards 0 --no-times 2>/dev/null | sed -n 's/^  \([a-z_]*\): \([a-z ]*\) (.*$/\1: \2/p' | paste -sd '|')
  check "puzzle $k: four criteria" 4 "$(echo "$got" | tr '|' '\n' | grep -c ': met$\|: not met$')"
  check "puzzle $k: the criteria as prove says" "$want" "$got"
done

# Puzzle 5 is unique: each given is needed or implied by the others; the solution is a
# complete grid whose givens are puzzle 5's.
out=$("$rb" solve "$moyo" --setup puzzle=5 --clues --json --no-times 2>/dev/null)
check "puzzle 5 --clues: exit code" 0 $?
echo "$out" > "$tmp/p5.json"
python3 - "$tmp/p5.json" variants/sudoku-moyo/puzzles.txt <<'EOF' > "$tmp/p5.txt"
import json, sys
j = json.load(open(sys.argv[1]))
p = j["puzzles"][0]
rows = [l.strip() for l in open(sys.argv[2]) if len(l.strip()) == 9 and not l.startswith("#")]
givens = sum(c != "." for r in rows[36:45] for c in r)
print("count", p["solutions"], p["unique"], p["exact"])
print("clues", p["clue_count"] == givens == len(p["clues"]), givens > 0)
needed = [c for c in p["clues"] if c["needed"] is True]
print("needed boards", all("board" in c for c in needed), len(needed) + sum(c["needed"] is False for c in p["clues"]) == len(p["clues"]))
print("given names", all(c["name"].startswith("given(r") for c in p["clues"]))
print("criteria", len(j["setup_properties"]))
EOF
check "puzzle 5 JSON: one solution, proved unique" "count 1 proved True" "$(sed -n 1p "$tmp/p5.txt")"
check "puzzle 5 JSON: one clue instance per given" "clues True True" "$(sed -n 2p "$tmp/p5.txt")"
check "puzzle 5 JSON: a needed clue shows a board, every clue decided" "needed boards True True" "$(sed -n 3p "$tmp/p5.txt")"
check "puzzle 5 JSON: clues named after the family and the cell" "given names True" "$(sed -n 4p "$tmp/p5.txt")"
check "puzzle 5 JSON: the four criteria" "criteria 4" "$(sed -n 5p "$tmp/p5.txt")"

# Without one given, puzzle 5 has more solutions: the same puzzle with a clue removed from
# the data file (a copy), solved again, has at least two.
mkdir -p "$tmp/moyo"
cp variants/sudoku-moyo/*.rules "$tmp/moyo/"
first_needed=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(next(c["name"] for c in j["puzzles"][0]["clues"] if c["needed"]))' "$tmp/p5.json")
python3 - "$first_needed" variants/sudoku-moyo/puzzles.txt > "$tmp/moyo/puzzles.txt" <<'EOF'
import re, sys
m = re.match(r"given\(r(\d+)c(\d+)\)", sys.argv[1])
r, c = int(m.group(1)), int(m.group(2))
lines = open(sys.argv[2]).read().split("\n")
rows = [i for i, l in enumerate(lines) if len(l) == 9 and not l.startswith("#")]
i = rows[36 + r]
lines[i] = lines[i][:c] + "." + lines[i][c + 1:]
print("\n".join(lines), end="")
EOF
out=$("$rb" solve "$tmp/moyo/moyo.rules" --setup puzzle=5 --max 2 --no-times 2>/dev/null)
check "puzzle 5 without $first_needed: two solutions shown" "puzzle complete_grid: at least 2 solutions (--max reached)|unique: no" \
  "$(echo "$out" | grep -E '^(puzzle|unique)' | paste -sd '|')"
check "puzzle 5 without $first_needed: two boards" 2 "$(echo "$out" | grep -c '^solution [0-9]*:$')"

# The complete 4x4 grids: a puzzle without clues.
out=$("$rb" solve variants/sudoku-fill/fill-4x4.rules --max 1000 --boards 1 --no-times 2>/dev/null)
check "fill 4x4: 288 complete grids" "puzzle complete_grid: 288 solutions" "$(echo "$out" | head -n 1)"
check "fill 4x4: one board printed" 1 "$(echo "$out" | grep -c '^solution [0-9]*:$')"
out=$("$rb" solve variants/sudoku-fill/fill-4x4.rules --max 10 --boards 0 --no-times 2>/dev/null)
check "fill 4x4 --max 10: at least" "puzzle complete_grid: at least 10 solutions (--max reached)" "$(echo "$out" | head -n 1)"

# --minimise drops clues in the order declared while the solutions stay the same: v[1] >= 1
# follows from v[1] == 2, so whichever comes second is dropped; the one kept is needed.
printf '2 1\n' > "$tmp/m.txt"
for order in "eq ge" "ge eq"; do
  {
    printf 'game "m";\nboard 2 x 2;\nplayers 1;\nsetup g: 1..2 -> 0..3 = file "m.txt";\n'
    printf 'state v: 1..2 -> 0..3;\nphase p { move m { } }\npuzzle q:\n  solution v[2] == 0;\n'
    for c in $order; do
      [ "$c" == eq ] && printf '  clue eq: v[1] == g[1];\n'
      [ "$c" == ge ] && printf '  clue ge: v[1] >= g[2];\n'
    done
  } > "$tmp/m.rules"
  out=$("$rb" solve "$tmp/m.rules" --setup g=1 --minimise --no-times 2>/dev/null)
  check "minimise ($order): one solution still" "puzzle q: 1 solution" "$(echo "$out" | head -n 1)"
  eq='clue eq: needed; without it, also:'
  ge='clue ge: dropped (the clues kept imply it)'
  [ "$order" == "eq ge" ] && want="$eq|$ge" || want="$ge|$eq"
  check "minimise ($order): the verdicts" \
    "clues: 1 kept, 1 dropped (minimal: every clue kept is needed, the solutions are the same)|$want" \
    "$(echo "$out" | grep '^clue' | paste -sd '|')"
done

# Errors: a file without a puzzle that is no two-sided game either, a clue setup not fixed,
# an unknown puzzle. (A file without a puzzle is solved as a game: tests/cli/solve_game_test.sh.)
err=$("$rb" solve variants/garnsi-malom/garnsi-9.rules --quiet 2>&1 >/dev/null)
check "no puzzle, not two-sided: exit 1" 1 $?
check "no puzzle, not two-sided: said" 1 "$(echo "$err" | grep -c 'cannot solve')"
err=$("$rb" solve "$moyo" 2>&1 >/dev/null)
check "clue setup not fixed: exit 1" 1 $?
check "clue setup not fixed: said" 1 "$(echo "$err" | grep -c 'with --setup puzzle=K')"
"$rb" solve "$moyo" --setup puzzle=1 --puzzle nothing >/dev/null 2>&1
check "unknown puzzle: exit 1" 1 $?
"$rb" solve "$moyo" --setup puzzle=7 >/dev/null 2>&1
check "entry past the file: exit 1" 1 $?

echo "solve: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
