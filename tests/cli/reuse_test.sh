#!/usr/bin/env bash
# The shipped Garnsi files call actions and the card game's deck is a comprehension: they
# must compute what the files computed when the bodies and the deck were written out. The
# numbers below were measured before the rewrite (commit 76ffd5c), with
#   rulebook perft FILE --engine interp --depth D --quiet
#   rulebook play FILE --engine interp --seed S --json   (plies, last state hash, scores)
# Usage: reuse_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src"
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

perft() {  # perft FILE DEPTH EXPECTED_COUNTS ("34 1122 35904")
  local got
  got=$("$rb" perft "variants/$1.rules" --engine interp --depth "$2" --quiet 2>/dev/null |
        sed -n 's/^depth [0-9]*: \([0-9]*\).*/\1/p' | tr '\n' ' ' | sed 's/ $//')
  check "perft $1 to depth $2" "$3" "$got"
}

game() {  # game FILE SEED ENGINE EXPECTED ("plies hash scores")
  local got
  got=$("$rb" play "variants/$1.rules" --engine "$3" --seed "$2" --json 2>/dev/null |
        python3 -c '
import json, sys
d = json.load(sys.stdin)
m = d["moves"]
print(d["plies"], m[-1]["hash"] if m else "-", json.dumps(d["scores"]))')
  check "game $1 seed $2 ($3)" "$4" "$got"
}

perft garnsi-malom/garnsi-9 2 "82 6643"
perft garnsi-malom/garnsi-lesson 2 "82 6643"
perft garnsi-malom/garnsi-6x6 3 "34 1122 35904"
perft garnsi-malom/garnsi-6x6-teams-move 3 "34 1122 35904"
perft sudoku-cards/cards 3 "16 136 2960"
perft sudoku-cards/cards-2p 3 "16 136 1968"

# Whole games reach phase II: moves, jumps, captures and the stuck block.
game garnsi-malom/garnsi-6x6 1 interp "93 660d450c30051967 [5, 1]"
game garnsi-malom/garnsi-6x6 2 interp "67 6185cb25f775d5f5 [6, 5]"
game garnsi-malom/garnsi-6x6 2 compiled "67 6185cb25f775d5f5 [6, 5]"
game garnsi-malom/garnsi-6x6-teams-move 1 interp "33 937be26a8482bd50 [6, 2]"
game garnsi-malom/garnsi-6x6-teams-move 3 interp "36 6952f4c0d52a0472 [4, 5]"
game garnsi-malom/garnsi-6x6-four-moves 2 interp "34 861082e79220cc87 [3, 7]"
game garnsi-malom/garnsi-lesson 1 interp "90 24fbcec021224dd3 [1, 2, 1, 2, 1, 1, 1, 1, 1]"
game garnsi-malom/garnsi-lesson-teams 2 interp "90 b76fb2e787052dc7 [3, 4, 4]"
game garnsi-malom/garnsi-9 3 interp "7638 c3f0ff74e0839ff3 [0, 3, 0, 0, 0, 3, 0, 4, 6]"
game garnsi-malom/garnsi-9-teams 3 interp "5127 3012afb7778bf45e [0, 16, 1]"
game garnsi-malom/garnsi-9-shrinking 3 interp "9841 72f2275f5419f82e [0, 0, 0, 0, 0, 0, 0, 0, 6]"
game garnsi-malom/garnsi-9-shrinking 3 compiled "9841 72f2275f5419f82e [0, 0, 0, 0, 0, 0, 0, 0, 6]"
game sudoku-cards/cards 1 interp "53 e2d4302322bc1268 [0, 0, 0, 0]"
game sudoku-cards/cards 2 compiled "53 60e8d397fd02f551 [0, 0, 0, 0]"
game sudoku-cards/cards-5p 3 interp "53 003b162751dfd18c [0, 0, 0, 0, 0]"

# The deck written out is the comprehension's literal, card for card.
"$rb" check -q variants/sudoku-cards/cards.rules >/dev/null 2>&1
check "the card game checks" 0 $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
