#!/usr/bin/env bash
# `rulebook play --moves` and `--moves-file`: a printed or saved game replays exactly (both
# engines), and an illegal chosen move is an error naming why: the rule that forbids it, the
# phase, or no such move, with the board and the legal moves.
# Usage: play_moves_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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

# json FILE EXPR: a Python expression over the parsed file `j`.
json() {
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

# Seed 3 blocks r1c3 and r5c2 for the placement phase (rule blocked_cells).
f=variants/garnsi-malom/garnsi-6x6.rules

# A transcript of play read back as a moves file: the same game, byte for byte.
"$rb" play "$f" --seed 3 >"$work/game.txt" 2>/dev/null
"$rb" play "$f" --moves-file "$work/game.txt" >"$work/replay.txt" 2>/dev/null
check "a transcript replays: exit" 0 $?
cmp -s "$work/game.txt" "$work/replay.txt"
check "a transcript replays: the same output" 0 $?
grep -q '^game over after [0-9]* moves' "$work/replay.txt"
check "the replayed game is over" 0 $?

# Every game's notation reads back: cells, players, numbers, records (cards), passes.
for g in variants/garnsi-malom/garnsi-9.rules variants/smyoz/smyoz.rules variants/sudoku-cards/cards-3p.rules \
  variants/sudoku-fill/fill-6x6.rules variants/sudoku-moyo/horikomi.rules; do
  "$rb" play "$g" --seed 2 --max-plies 200 --boards end >"$work/g.txt" 2>/dev/null
  "$rb" play "$g" --moves-file "$work/g.txt" --max-plies 200 --boards end >"$work/r.txt" 2>/dev/null
  check "$g: a transcript replays: exit" 0 $?
  cmp -s "$work/g.txt" "$work/r.txt"
  check "$g: a transcript replays: the same output" 0 $?
done

# --save-moves, then --moves-file under each engine: the same moves, final state and scores.
"$rb" play "$f" --seed 5 --json --save-moves "$work/saved.txt" >"$work/a.json" 2>/dev/null
check "save-moves: exit" 0 $?
grep -qx '# seed 5' "$work/saved.txt"
check "the saved file names its seed" 0 $?
check "the saved file has one line per move" "$(json "$work/a.json" "j['plies']")" "$(grep -vc '^#' "$work/saved.txt")"
for engine in compiled interp; do
  "$rb" play "$f" --engine $engine --moves-file "$work/saved.txt" --json >"$work/b.json" 2>/dev/null
  check "replay under $engine: exit" 0 $?
  same=$(python3 -c "
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
keys=['moves','finished','plies','scores']
print(all(a[k]==b[k] for k in keys) and b['chosen_moves']==a['plies'])" "$work/a.json" "$work/b.json")
  check "replay under $engine: same moves, last hash and scores" True "$same"
done

# Chosen moves, then stop; or then random moves.
"$rb" play "$f" --seed 3 --moves "place(r3c4), p2 place(r3c5)" >"$work/two.txt" 2>/dev/null
check "two chosen moves: exit" 0 $?
check "two chosen moves: played" "   1. p1 place(r3c4)|   2. p2 place(r3c5)" \
  "$(grep '^ *[0-9][0-9]*\. ' "$work/two.txt" | paste -sd'|')"
grep -q '^stopped after the chosen moves after 2 moves' "$work/two.txt"
check "two chosen moves: stopped there" 0 $?
"$rb" play "$f" --seed 3 --moves "place(r3c4)" --then-random --json >"$work/more.json" 2>/dev/null
check "--then-random: finished, first move chosen" "True place(r3c4)" \
  "$(json "$work/more.json" "j['finished'], j['moves'][0]['move']")"

# A move a named rule forbids: exit 1, the rule with its description and source, the
# board before the move and the legal moves.
"$rb" play "$f" --seed 3 --moves "place(r3c4), place(r1c3)" >/dev/null 2>"$work/err.txt"
check "blocked move: exit 1" 1 $?
check "blocked move: the error line" \
  "$f: error: move 2 of --moves, 'place(r1c3)': blocked by rule blocked_cells" \
  "$(grep ': error: ' "$work/err.txt")"
grep -q '^    the two blocked cells cannot be used in phase I$' "$work/err.txt"
check "blocked move: the rule's description" 0 $?
grep -q "^    $f:[0-9]*:[0-9]*: c not in blocked$" "$work/err.txt"
check "blocked move: the rule's source" 0 $?
grep -q "note: the board before move 2 (p2 to move, phase placement):" "$work/err.txt"
check "blocked move: the board" 0 $?
grep -q "note: the legal moves (33): place(r0c0), .* and 13 more$" "$work/err.txt"
check "blocked move: the first 20 legal moves and the count" 0 $?
"$rb" play "$f" --seed 3 --moves "place(r3c4), place(r1c3)" --json >"$work/err.json" 2>/dev/null
check "blocked move, JSON: exit 1" 1 $?
check "blocked move, JSON: ply, rule, legal moves" "2 blocked_cells 33" \
  "$(json "$work/err.json" "j['error']['ply'], j['error']['refusal']['blocked_by'][0]['name'], len(j['error']['legal_moves'])")"

# Two conditions at once: both named.
"$rb" play "$f" --seed 3 --moves "place(r0c0), place(r0c1), place(r0c2), place(r0c3), place(r0c4), place(r0c5), place(r0c0)" \
  >/dev/null 2>"$work/two_rules.txt"
check "a move two conditions forbid" \
  "$f: error: move 7 of --moves, 'place(r0c0)': blocked by requires empty(c), rule sudoku" \
  "$(grep ': error: ' "$work/two_rules.txt")"

# Board rules, read on the board after the move: two SMYOZ ships touching side by side.
"$rb" play variants/smyoz/smyoz.rules --seed 2 --moves "place(1, r4c0, horizontal), place(2, r5c0, horizontal)" \
  >/dev/null 2>"$work/ships.txt"
check "board rules: exit 1" 1 $?
check "board rules: both named" \
  "variants/smyoz/smyoz.rules: error: move 2 of --moves, 'place(2, r5c0, horizontal)': blocked by board rule corner_rule, board rule side_rule" \
  "$(grep ': error: ' "$work/ships.txt")"
grep -q '^    ships must not touch, not even at a corner$' "$work/ships.txt"
check "board rules: the description" 0 $?

# A move of another phase, a move that does not exist, the wrong player, a line of a file.
"$rb" play "$f" --seed 3 --moves "jump(r3c4, r3c5)" >/dev/null 2>"$work/phase.txt"
check "a move of another phase: exit 1" 1 $?
grep -q "'jump' is not a move of phase placement (it is a move of phase battle)$" "$work/phase.txt"
check "a move of another phase: said so" 0 $?
"$rb" play "$f" --seed 3 --moves "plac(r3c4)" >/dev/null 2>"$work/none.txt"
check "no such move: exit 1" 1 $?
grep -q "no such move: the rules have no move named 'plac' (their moves: place, pass, jump, capture)$" "$work/none.txt"
check "no such move: the moves listed" 0 $?
"$rb" play "$f" --seed 3 --moves "place(r9c9)" >/dev/null 2>"$work/cell.txt"
grep -q "no such move: 'r9c9' is not a value of Cell (argument 1 of place, c)$" "$work/cell.txt"
check "no such cell" 0 $?
"$rb" play "$f" --seed 3 --moves "p2 place(r3c4)" >/dev/null 2>"$work/turn.txt"
grep -q "it is p1's turn, not p2's$" "$work/turn.txt"
check "the wrong player" 0 $?
printf '# seed 3\nplace(r3c4)\n\n# the blocked cell\nplace(r1c3)  # refused\n' >"$work/moves.txt"
"$rb" play "$f" --moves-file "$work/moves.txt" >/dev/null 2>"$work/file.txt"
check "a file's illegal move: exit 1" 1 $?
check "a file's illegal move: its line" "$work/moves.txt:5:1: error: move 2, 'place(r1c3)': blocked by rule blocked_cells" \
  "$(grep ': error: ' "$work/file.txt")"

# Moves left after the game ended.
"$rb" play "$f" --seed 3 --moves-file "$work/game.txt" --moves "pass" >/dev/null 2>"$work/left.txt"
check "moves after the end: exit 1" 1 $?
grep -q "error: 1 chosen move left after the game ended at move" "$work/left.txt"
check "moves after the end: said so" 0 $?

echo "play --moves: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
