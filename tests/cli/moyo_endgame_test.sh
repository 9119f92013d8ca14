#!/usr/bin/env bash
# Perfect play on Sudoku Moyo's own rules (variants/sudoku-moyo/moyo.rules), on endgames
# small enough for a plain minimax: puzzle 5's solution with some cells freed in columns both
# sides share (so that a stone can take the number the other side's cell needs) and the
# Azumaya full, so that the Shima are played at once and light places the first stone.
# `rulebook solve --game` against the minimax of tests/cli/moyo_endgame.py, which writes the
# rules again from RULES.md section 5: three endgames of five cells each (a loss for light,
# who moves first) and three where light has one cell more (a win).
# Usage: moyo_endgame_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
. "$(dirname "$0")/check_lib.sh"
cd "$src" || exit 2

for set in even:5:0 more:4:1; do
  IFS=: read -r name k extra <<<"$set"
  mkdir -p "$work/$name"
  cp variants/sudoku-moyo/moyo.rules "$work/$name/"
  python3 tests/cli/moyo_endgame.py write "$work/$name/puzzles.txt" "$k" "$extra" 1 2 3
  for entry in 1 2 3; do
    "$rb" solve "$work/$name/moyo.rules" --game --setup puzzle=$entry --json --quiet >"$work/$name.$entry.json" 2>&1
    check "$name $entry: exit 0" 0 $?
    got=$(python3 - "$work/$name.$entry.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
flip = {"win": "loss", "loss": "win", "draw": "draw"}
first = d["sides"][0]
value = d["value"] if first == "light" else flip.get(d["value"], d["value"])
print(first, value if d["solved"] else "unsolved", len(d["line"]))
PY
)
    want=$(python3 tests/cli/moyo_endgame.py value "$work/$name/puzzles.txt" "$entry")
    # Light moves first (the givens closed the Azumaya), and the value for light is the
    # minimax's; the principal line is a whole game (every cell of the loser's side filled
    # or dead): at least as many moves as the freed cells of one side.
    check "$name $entry: light first, the value for light, a line of play" "light $want yes" \
      "$(set -- $got; echo "$1 $2 $([ "$3" -ge "$k" ] && echo yes || echo no)")"
  done
done
check "the values seen: both kinds" "loss loss loss win win win" \
  "$(for f in "$work"/even.{1,2,3}.json "$work"/more.{1,2,3}.json; do python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$f"; done | paste -sd' ')"

finish "moyo endgames"
