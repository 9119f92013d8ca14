#!/usr/bin/env bash
# End-to-end checks of the complete games (paths ending in a finished game) that `rulebook
# perft` and `rulebook explore` print: tic-tac-toe's 255,168 games by length in text and
# JSON, both engines, with and without symmetry, and the path lines kept as they were.
# Usage: complete_games_test.sh RULEBOOK_BINARY SOURCE_DIR
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
by_length="[0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872]"

"$rb" perft "$ttt" --depth 9 --threads 2 >"$work/perft" 2>/dev/null
check "perft exits 0" 0 $?
check "perft's total of complete games" "complete games in all: 255168" "$(grep '^complete games in all:' "$work/perft")"
check "perft's complete games of 5 moves" "complete games of 5 moves: 1440" \
  "$(grep '^complete games of 5 moves:' "$work/perft")"
check "perft's last line is still the last depth's paths" "depth 9: 127872" "$(tail -n 1 "$work/perft")"
"$rb" perft "$ttt" --depth 9 --paths-only >"$work/fast" 2>/dev/null
check "perft --paths-only prints the paths as they were" "$(grep '^depth' "$work/perft")" "$(cat "$work/fast")"
"$rb" perft "$ttt" --depth 9 --json >"$work/perft.json" 2>/dev/null
check "perft JSON: complete games by length" "$by_length" "$(field "$work/perft.json" 'j["complete_games"]')"
check "perft JSON: their total" 255168 "$(field "$work/perft.json" 'j["complete_games_total"]')"
# The interpreter (much slower) to the sixth move, where the first games end.
for engine in compiled interp; do
  "$rb" perft "$ttt" --depth 6 --engine "$engine" --threads 2 --json >"$work/perft6-$engine.json" 2>/dev/null
  check "perft JSON to depth 6 ($engine)" "[0, 0, 0, 0, 1440, 5328] 6768" \
    "$(field "$work/perft6-$engine.json" 'str(j["complete_games"]) + " " + str(j["complete_games_total"])')"
done

"$rb" perft "$ttt" --depth 9 --divide --json >"$work/divide.json" 2>/dev/null
check "divide JSON: the openings' complete games add up" 255168 \
  "$(field "$work/divide.json" 'sum(e["complete_games"] for e in j["divide"])')"
check "divide JSON: their total" 255168 "$(field "$work/divide.json" 'j["complete_games_total"]')"

for sym in "" --no-symmetry; do
  "$rb" explore "$ttt" $sym --threads 2 >"$work/explore$sym" 2>/dev/null
  check "explore exits 0 ($sym)" 0 $?
  check "explore's total of complete games ($sym)" "complete games in all: 255168" \
    "$(grep '^complete games in all:' "$work/explore$sym")"
  check "explore's complete games of 7 moves ($sym)" "complete games of 7 moves: 47952" \
    "$(grep '^complete games of 7 moves:' "$work/explore$sym")"
  "$rb" explore "$ttt" $sym --threads 2 --json >"$work/explore$sym.json" 2>/dev/null
  check "explore JSON: complete games by depth 1.. ($sym)" "$by_length" \
    "$(field "$work/explore$sym.json" '[d["complete_games"] for d in j["depths"]][1:]')"
  check "explore JSON: their total ($sym)" 255168 "$(field "$work/explore$sym.json" 'j["complete_games_total"]')"
done

# A depth bound: the games that ended by then, and the text says how far it looked.
"$rb" explore "$ttt" --depth 6 >"$work/explore6" 2>/dev/null
check "explore to depth 6: the games ended by then" "complete games in all: 6768 (to depth 6)" \
  "$(grep '^complete games in all:' "$work/explore6")"

# The report's state-space section: the complete games of the 4x4 fill (its 288 grids and
# its dead ends), the same as perft's, in the page's JSON and its table.
mkdir -p "$work/rin"
cp variants/sudoku-fill/fill-4x4.rules "$work/rin/"
echo '{"defaults": {"games": 5, "greedy_games": 0, "explore_depth": -1, "prove": false}}' >"$work/rconf.json"
"$rb" report "$work/rin" -o "$work/rout" --config "$work/rconf.json" --jobs 1 >/dev/null 2>&1
check "report exits 0" 0 $?
"$rb" perft variants/sudoku-fill/fill-4x4.rules --depth 16 --json >"$work/fill.json" 2>/dev/null
check "report and perft count the same complete games" 432 \
  "$(field "$work/fill.json" 'j["complete_games_total"]')"
check "the report's JSON has them" 432 \
  "$(field "$work/rout/rin/fill-4x4.json" 'j["analysis"]["enumeration"]["complete_games_total"]')"
grep -q "<th>complete games</th>" "$work/rout/rin/fill-4x4.html"
check "the report's table has a complete games column" 0 $?

echo "complete games: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
