#!/usr/bin/env bash
# End-to-end checks of `rulebook solve` (perfect play, cli/solve_game.cpp): tic-tac-toe's
# value and principal line in text and JSON, a budget that leaves bounds, Ctrl-C, and the
# games it refuses with exit 1.
# Usage: solve_game_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src" || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RULEBOOK_CACHE="$work/cache"
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

field() {  # field FILE PYTHON_EXPRESSION_OVER_j
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

ttt=bench/plain/tictactoe.rules

"$rb" solve "$ttt" --quiet >"$work/ttt" 2>"$work/ttt.err"
check "tic-tac-toe exits 0" 0 $?
check "tic-tac-toe is a draw" "value under perfect play: draw for cross" "$(grep '^value' "$work/ttt")"
check "its principal line has nine moves" "principal line (9 moves):" \
  "$(grep -o '^principal line (9 moves):' "$work/ttt")"
check "the sides" "sides: cross (to move first) against nought" "$(grep '^sides' "$work/ttt")"

"$rb" solve "$ttt" --quiet --json >"$work/ttt.json" 2>/dev/null
check "JSON: solved" "True" "$(field "$work/ttt.json" 'j["solved"]')"
check "JSON: value, bounds" "draw draw draw" "$(field "$work/ttt.json" 'j["value"], j["lower"], j["upper"]' | tr -d "(),'")"
check "JSON: the line starts as the text's" "$(grep '^principal' "$work/ttt" | cut -d' ' -f5)" \
  "$(field "$work/ttt.json" 'j["line"][0]')"
check "JSON: nine moves" 9 "$(field "$work/ttt.json" 'len(j["line"])')"
check "JSON: states by their class under the square's 8 symmetries" 8 \
  "$(field "$work/ttt.json" 'len(j["symmetry"])')"
"$rb" solve "$ttt" --quiet --json --no-symmetry >"$work/plain.json" 2>/dev/null
check "JSON: --no-symmetry, the same value, states apart" "draw ['identity']" \
  "$(field "$work/plain.json" 'j["value"], j["symmetry"]' | tr -d "(),")"

# A budget too small: bounds, said as such, exit 0.
"$rb" solve "$ttt" --quiet --max-states 50 >"$work/small" 2>/dev/null
check "a small budget exits 0" 0 $?
check "a small budget is not solved" "not solved: the table is full (--max-states 50)" \
  "$(grep -o '^not solved: the table is full (--max-states 50)' "$work/small")"
"$rb" solve "$ttt" --quiet --max-states 50 --json >"$work/small.json" 2>/dev/null
check "JSON: a small budget" "False states None" \
  "$(field "$work/small.json" 'j["solved"], j["stopped"], j["value"]' | tr -d "(),'")"

# The margin of a game that scores.
"$rb" solve tests/explore/rules/race_margin.rules --objective margin --quiet >"$work/race" 2>/dev/null
check "a margin" "value under perfect play: 3 for left" "$(grep '^value' "$work/race")"

# Games without two sides, and a margin of a list score: exit 1 with the reason.
"$rb" solve variants/garnsi-malom/garnsi-9.rules --quiet >/dev/null 2>"$work/nine"
check "nine players exit 1" 1 $?
check "nine players: the reason" "1" "$(grep -c '9 players scored each on their own' "$work/nine")"
"$rb" solve --game variants/sudoku-fill/fill-4x4.rules --quiet >/dev/null 2>"$work/one"
check "one player exits 1" 1 $?
"$rb" solve --game variants/sudoku-moyo/horikomi.rules --objective margin --quiet >/dev/null 2>"$work/tuple"
check "a margin of a list score exits 1" 1 $?
check "a margin of a list score: the reason" "1" "$(grep -c 'needs a single score' "$work/tuple")"

# Ctrl-C: the bounds so far, exit 130, the JSON still JSON. The child gets SIGINT back (a
# background job of a script starts with it ignored).
python3 - "$rb" "$work" <<'PY'
import signal, subprocess, sys, time
rb, work = sys.argv[1], sys.argv[2]
with open(work + "/int.json", "w") as out:
    p = subprocess.Popen([rb, "solve", "--game", "variants/sudoku-moyo/moyo.rules", "--setup", "puzzle=6",
                          "--max-states", "100000000", "--quiet", "--json"], stdout=out,
                         stderr=subprocess.DEVNULL,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    open(work + "/int.rc", "w").write(str(p.wait()))
PY
check "Ctrl-C exits 130" 130 "$(cat "$work/int.rc")"
check "Ctrl-C: JSON, not solved, interrupted" "False interrupted" \
  "$(field "$work/int.json" 'j["solved"], j["stopped"]' | tr -d "(),'")"

echo "solve: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
