#!/usr/bin/env bash
# `rulebook puzzle`: 20 Moyo puzzles (seeds 1..20) generated in one run, each re-solved
# apart from Z3 by the engine's enumeration of a plain Sudoku with the puzzle's givens as
# its setup (exactly one complete grid), every given of the first needed by the same
# enumeration (without it, two or more grids), the criteria, the data file written with
# -o, the difficulty the same alone as in a run, JSON, errors and exit codes. About a
# minute of CPU on 2 shared cores (generation about 35 s, one engine compile, enumerations).
# Usage: puzzle_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src"
moyo=variants/sudoku-moyo/moyo.rules
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RULEBOOK_CACHE="$tmp/cache"
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

start=$(date +%s)
"$rb" puzzle "$moyo" --seed 1 --count 20 --json --no-times -o "$tmp/givens.txt" >"$tmp/p.json" 2>"$tmp/err"
check "20 puzzles: exit code" 0 $?
echo "generation of 20 puzzles: $(( $(date +%s) - start )) s"
# Each: unique proved, minimal, every criterion met, the givens those of its solution.
python3 - "$tmp/p.json" >"$tmp/summary" <<'EOF'
import json, re, sys
j = json.load(open(sys.argv[1]))
ps = j["puzzles"]
print("count", len(ps), [p["seed"] for p in ps] == list(range(1, 21)))
bad = []
for p in ps:
    rows = p["entry"].splitlines()
    cells = re.findall(r"(\d)\*?", "".join(l for l in p["solution"]["text"].splitlines() if "|" in l))
    givens = sum(ch != "." for r in rows for ch in r)
    ok = (p["unique"] == "proved" and p["minimal"] and p["needed"] == p["givens"] == givens
          and len(rows) == 9 and all(len(r) == 9 for r in rows) and len(cells) == 81
          and all(ch in ".123456789" for r in rows for ch in r)
          and all(ch == "." or ch == cells[9 * y + x] for y, r in enumerate(rows) for x, ch in enumerate(r))
          and [c["verdict"] for c in p["criteria"]] == ["met"] * 4 and 17 <= givens <= 32)
    if not ok:
        bad.append(p["seed"])
print("bad", bad)
EOF
check "20 puzzles, seeds 1..20" "count 20 True" "$(sed -n 1p "$tmp/summary")"
check "each unique, minimal, meeting the four criteria, its givens its solution's" "bad []" \
  "$(sed -n 2p "$tmp/summary")"
check "the data file holds 20 entries" 20 "$(grep -c '^# rulebook puzzle' "$tmp/givens.txt")"
check "the data file's entries are the printed ones" \
  "$(python3 -c 'import json,sys; print("".join(p["entry"] for p in json.load(open(sys.argv[1]))["puzzles"]), end="")' "$tmp/p.json")" \
  "$(grep -v '^#' "$tmp/givens.txt" | grep -v '^$')"

# The enumeration: a plain Sudoku whose givens are a data file's entry, filled in row-major
# order, so that each complete grid is one path of as many moves as empty cells.
cat >"$tmp/sudoku_givens.rules" <<'EOF'
// A plain 9x9 Sudoku filled from its givens: its complete grids are the puzzle's solutions.
game "Sudoku from givens";

board 9 x 9;

regions box = blocks 3 x 3;

players 1;

setup givens: Cell -> 0..9 = file "givens.txt" entry 1;

state digit: Cell -> 0..9;  // 0: still empty

init {
  for c in cells where givens[c] != 0 {
    digit[c] := givens[c];
  }
}

define position(c: Cell): int = y(c) * width + x(c);
define first_empty(c: Cell): bool =
  digit[c] == 0 and (all d in cells where position(d) < position(c): digit[d] != 0);

phase filling {
  move place(c: Cell, n: 1..9)
    requires first_empty(c);
    requires no d in row(c) + column(c) + box(c): digit[d] == n;
  {
    digit[c] := n;
  }

  when stuck {
    end;
  }
}

score p = if (all c in cells: digit[c] != 0) then 1 else 0;

winner highest;
EOF
# grids FILE_DIR K: the complete grids of entry K of FILE_DIR/givens.txt.
grids() {
  local empty
  empty=$(awk -v k="$2" 'BEGIN { RS = "" } NR == k' <(grep -v '^#' "$1/givens.txt") | tr -cd '.' | wc -c)
  "$rb" perft "$1/sudoku_givens.rules" --setup "givens=$2" --depth "$empty" --paths-only --threads 1 --quiet \
    2>/dev/null | sed -n "s/^depth $empty: //p"
}
start=$(date +%s)
ones=""
for k in $(seq 1 20); do ones="$ones$(grids "$tmp" "$k") "; done
check "each of the 20 has exactly one complete grid by enumeration" "$(printf '1 %.0s' $(seq 1 20))" "$ones"
echo "enumeration of the 20: $(( $(date +%s) - start )) s"

# Every given needed, by the same enumeration: puzzle 1, each given taken out in turn (the
# 20 are each checked minimal by the solver above).
mkdir -p "$tmp/less"
cp "$tmp/sudoku_givens.rules" "$tmp/less/"
python3 - "$tmp/givens.txt" >"$tmp/less/givens.txt" <<'EOF'
import sys
entries = [e for e in open(sys.argv[1]).read().split("\n\n")]
for n, e in enumerate(entries[:1]):
    rows = [l for l in e.splitlines() if l and not l.startswith("#")]
    flat = "".join(rows)
    for i, ch in enumerate(flat):
        if ch != ".":
            less = flat[:i] + "." + flat[i + 1:]
            print("\n".join(less[r * 9:r * 9 + 9] for r in range(9)))
            print()
EOF
start=$(date +%s)
entries=$(grep -c . <(awk 'BEGIN { RS = "" } { print NR }' "$tmp/less/givens.txt"))
single=0
for k in $(seq 1 "$entries"); do
  n=$(grids "$tmp/less" "$k")
  [ "${n:-0}" -ge 2 ] || single=$((single + 1))
done
check "puzzle 1: without any one given, two or more grids ($entries givens)" 0 $single
echo "enumeration without each given: $(( $(date +%s) - start )) s"

# The solver path of `solve` agrees on one of them: the entries as the file's puzzles.txt.
mkdir -p "$tmp/moyo"
cp "$moyo" "$tmp/moyo/"
cp "$tmp/givens.txt" "$tmp/moyo/puzzles.txt"
out=$("$rb" solve "$tmp/moyo/moyo.rules" --setup puzzle=7 --clues --no-times --boards 0 2>/dev/null)
check "solve: puzzle 7 unique" "unique: proved" "$(echo "$out" | grep '^unique:')"
check "solve: puzzle 7 minimal" 1 "$(echo "$out" | grep -c '(minimal: every clue is needed)')"

# The same seed gives the same puzzle, alone or in a run of several.
"$rb" puzzle "$moyo" --seed 3 --no-times >"$tmp/alone" 2>/dev/null
check "seed 3 alone: exit code" 0 $?
check "seed 3 alone is the run's third" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["puzzles"][2]["entry"], end="")' "$tmp/p.json")" \
  "$(sed -n '3,11p' "$tmp/alone")"
check "seed 3 alone: the same difficulty as in the run" \
  "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["puzzles"][2]["difficulty"]; print("difficulty: %d conflicts, %d decisions" % (d["conflicts"], d["decisions"]), end="")' "$tmp/p.json")" \
  "$(grep '^difficulty:' "$tmp/alone" | sed 's/ (.*//')"
check "text: unique line" "unique: proved (a second solution is unsat)" "$(grep '^unique:' "$tmp/alone")"
check "text: criteria line" 1 "$(grep -c '^criteria: 4 of 4 met' "$tmp/alone")"

# Ctrl-C: exit 130, what was generated printed and written. The signal goes once the second
# puzzle's first attempt is reported, not after a fixed time (a loaded machine may not be
# there yet, a fast one already done).
# shellcheck source=tests/cli/signal_lib.sh
. tests/cli/signal_lib.sh
interrupt_when_said "seed 2 attempt 1" 120 "$tmp/int.out" "$tmp/int.err" \
  "$rb" puzzle "$moyo" --seed 1 --count 20 --no-times -o "$tmp/int.txt"
check "Ctrl-C: exit 130" 130 "$rc"
check "Ctrl-C: sent before the run ended" 0 "$early"
set +m
check "Ctrl-C: says how many were generated" 1 "$(grep -c '^[0-9]* of 20 puzzles generated (interrupted)$' "$tmp/int.out")"
check "Ctrl-C: the data file holds those printed" "$(grep -c '^entry of ' "$tmp/int.out")" \
  "$(grep -c "^# rulebook puzzle" "$tmp/int.txt" 2>/dev/null)"

# Errors: no puzzle declared, a puzzle without a data-file table, an unknown name.
"$rb" puzzle bench/plain/tictactoe.rules >"$tmp/o" 2>"$tmp/e"
check "no puzzle: exit 1" 1 $?
check "no puzzle: says so" 1 "$(grep -c 'no puzzle declared' "$tmp/e")"
"$rb" puzzle variants/sudoku-fill/fill-4x4.rules >"$tmp/o" 2>"$tmp/e"
check "no table: exit 1" 1 $?
check "no table: says what generation needs" 1 "$(grep -c 'generation needs clues that read one data-file setup' "$tmp/e")"
"$rb" puzzle "$moyo" --puzzle nothing >"$tmp/o" 2>"$tmp/e"
check "unknown puzzle: exit 1" 1 $?
"$rb" puzzle "$moyo" --count 0 >"$tmp/o" 2>"$tmp/e"
check "--count 0: usage, exit 2" 2 $?

# A budget in Z3 units per question, the same answer on every machine: too small for puzzle 3's
# first solution, the count is "at least 0" with the reason, exit 1; enough, the 2252 solutions.
"$rb" solve "$moyo" --setup puzzle=3 --rlimit 1000 --boards 0 --no-times >"$tmp/r" 2>/dev/null
check "--rlimit too small: exit 1" 1 $?
check "--rlimit too small: the reason" 1 "$(grep -c 'at least 0 solutions (resource limit (1000 units per question))' "$tmp/r")"
"$rb" solve "$moyo" --setup puzzle=3 --rlimit 20000000 --max 5000 --boards 0 --no-times >"$tmp/r" 2>/dev/null
check "--rlimit enough: exit 0" 0 $?
check "--rlimit enough: the count" 1 "$(grep -c '^puzzle complete_grid: 2252 solutions' "$tmp/r")"

echo "passed: $passed, failed: $failed"
[ "$failed" -eq 0 ]
