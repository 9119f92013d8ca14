#!/usr/bin/env bash
# `rulebook play --coverage`, what it did not settle examined: a counter game's never-seen
# items searched (one line found, one move proved unreachable), its loop shown; the 6x6
# Garnsi game with the literal four-move end (the capture searched for within a budget);
# the 9-player Garnsi games, all cut off, each given its explanation; termination by a
# ranking where the enumeration does not settle it.
# Usage: endless_test.sh RULEBOOK_BINARY SOURCE_DIR
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

# A counter climbs by two or falls to zero; `bonus` needs six, `odd` three.
cat >"$work/counter.rules" <<'RULES'
game "counter";
board 1 x 1;
players 1;
state n: 0..8;
state bonuses: 0..1;
phase count {
  move climb
    requires n < 8;
  {
    n += 2;
  }
  move reset
    requires n > 0;
  {
    n := 0;
  }
  move bonus
    requires n == 6;
    requires bonuses == 0;
  {
    bonuses := 1;
  }
  move odd
    requires n == 3;
  {
    n := 0;
  }
}
end when bonuses == 1 and n == 0;
RULES

"$rb" play "$work/counter.rules" --coverage --games 3 --max-plies 10 >"$work/counter.txt" 2>/dev/null
check "coverage of the counter exits 0" 0 $?
grep -A1 'never ran: bonuses := 1;' "$work/counter.txt" | grep -q '^      reached: line of play climb, climb, climb, bonus$'
check "the bonus's store is reached by its shortest line" 0 $?
grep -A1 'never legal: move odd' "$work/counter.txt" | grep -q '^      unreachable: not reached in all 8 positions reachable from the setup$'
check "odd is proved unreachable" 0 $?
grep -q '^endless games: 3 of 3 games cut off at 10 plies; 3 examined$' "$work/counter.txt"
check "the cut-off games are counted" 0 $?
grep -q '^  game 0 (seed 1): position at ply [0-9]* repeats at ply [0-9]* ([0-9]* moves: .*reset)' "$work/counter.txt"
check "game 0's repeated position" 0 $?
grep -q '^a game from the setup need not end: after .*, the moves .* come back to the same position$' "$work/counter.txt"
check "the enumeration finds the loop" 0 $?

"$rb" play "$work/counter.rules" --coverage --games 3 --max-plies 10 --json >"$work/counter.json" 2>/dev/null
check "every game examined repeats a position" 3 "$(json "$work/counter.json" "sum('repeat' in g for g in j['endless']['examined'])")"
check "bonuses stayed 0 in game 0" "bonuses=0@0" \
  "$(json "$work/counter.json" "[q['quantity']+'='+q['value']+'@'+str(q['since']) for q in j['endless']['examined'][0]['steady'] if q['quantity']=='bonuses'][0]")"
check "the search enumerated everything" "True 8" "$(json "$work/counter.json" "j['search']['exhausted'], j['search']['states']")"
check "termination verdict" endless "$(json "$work/counter.json" "j['termination']['verdict']")"
"$rb" play "$work/counter.rules" --coverage --games 3 --max-plies 10 --examine 0 --search-states 0 --json >"$work/off.json" 2>/dev/null
check "examination switched off" "False False False" \
  "$(json "$work/off.json" "'endless' in j, 'search' in j, 'termination' in j")"

# The old reading of the 6x6 team game: nobody moves twice before the end, the capture is
# never legal in the playouts, and a search of 3000 positions does not reach it either.
dead=variants/garnsi-malom/garnsi-6x6-four-moves.rules
"$rb" play "$dead" --coverage --games 5 --no-blocked --search-states 3000 --json >"$work/dead.json" 2>/dev/null
check "coverage of the four-move end exits 0" 0 $?
check "the capture's search result" "not reached 3000" \
  "$(json "$work/dead.json" "' '.join(str(x) for x in [[n['search']['result'], n['search']['states']] for n in j['never'] if n['kind']=='move' and n['what']=='capture'][0])")"
check "the search filled its budget" "3000 False True" \
  "$(json "$work/dead.json" "j['search']['states'], j['search']['exhausted'], j['search']['setup_random']")"
check "termination of the 6x6 game is not settled in 3000 positions" unsettled "$(json "$work/dead.json" "j['termination']['verdict']")"

# The 9-player games: every one cut off; each examined game is explained by a repeated
# position or by quantities that stopped or nearly stopped changing.
nine=variants/garnsi-malom/garnsi-9.rules
# Its moves cycle: explore without --depth stops when a depth repeats an earlier one's
# states, instead of building depths forever.
timeout 120 "$rb" explore "$work/counter.rules" --quiet >"$work/explore.txt" 2>/dev/null
check "explore of a cycling game ends, exit 0" 0 $?
grep -q '^stopped: depth [0-9]* holds the states of depth [0-9]* again' "$work/explore.txt"
check "explore says the depths repeat" 0 $?
timeout 120 "$rb" explore "$work/counter.rules" --quiet --json >"$work/explore.json" 2>/dev/null
check "explore --json names the repeat" "repeats True" "$(json "$work/explore.json" "j['stopped'], j['repeats_depth'] < j['depths'][-1]['depth']")"
timeout 120 "$rb" explore "$work/counter.rules" --quiet --depth 12 >"$work/explore12.txt" 2>/dev/null
grep -q '^stopped at the depth bound$' "$work/explore12.txt"
check "with --depth, explore counts to the bound" 0 $?
"$rb" play "$nine" --coverage --games 4 --no-blocked --max-plies 400 --search-states 1000 --json >"$work/nine.json" 2>/dev/null
check "coverage of the 9-player game exits 0" 0 $?
check "all four games cut off, three examined" "4 3" "$(json "$work/nine.json" "j['endless']['cut_off'], len(j['endless']['examined'])")"
check "each examined game played to the limit" "[400, 400, 400]" "$(json "$work/nine.json" "[g['plies'] for g in j['endless']['examined']]")"
check "each examined game is explained" 3 \
  "$(json "$work/nine.json" "sum(('repeat' in g) or len(g['steady']) + len(g['slow']) > 0 for g in j['endless']['examined'])")"
check "the placement phase is over in each examined game" 3 \
  "$(json "$work/nine.json" "sum(any(q['quantity']=='phase' and q['value']=='battle' for q in g['steady']) for g in j['endless']['examined'])")"
"$rb" play "$nine" --coverage --games 4 --no-blocked --max-plies 400 --search-states 1000 >"$work/nine.txt" 2>/dev/null
grep -q '^endless games: 4 of 4 games cut off at 400 plies; 3 examined$' "$work/nine.txt"
check "the text says how many games were cut off" 0 $?
grep -q '^  game 0 (seed 1): .*unchanged since ply .*phase = battle' "$work/nine.txt"
check "the text names the steady phase" 0 $?

# Termination by a ranking where the enumeration's budget is too small: tic-tac-toe's
# empty cells, the placement game's pieces in hand; the cycling game gets none and the
# enumeration still shows its cycle; the 9-player game gets none without a Z3 call.
"$rb" play bench/plain/tictactoe.rules --coverage --games 2 --search-states 100 --json >"$work/ttt.json" 2>/dev/null
check "tic-tac-toe bounded by a ranking" "bounded ranking ['cells where owner[c] == none'] 10" \
  "$(json "$work/ttt.json" "j['termination']['verdict'], j['termination']['by'], j['termination']['ranking']['order'], j['termination']['ranking']['plies']")"
"$rb" play bench/plain/tictactoe.rules --coverage --games 2 --search-states 100 >"$work/ttt.txt" 2>/dev/null
grep -q '^termination proved: ranking (cells where owner\[c\] == none) decreases on every move; every game ends within 10 plies$' "$work/ttt.txt"
check "the ranking's sentence" 0 $?
"$rb" play tests/verify/rank_placement.rules --coverage --games 2 --search-states 50 --json >"$work/place.json" 2>/dev/null
check "the placement game bounded by its pieces in hand" "bounded ['sum of in_hand[p]'] 7" \
  "$(json "$work/place.json" "j['termination']['verdict'], j['termination']['ranking']['order'], j['termination']['ranking']['plies']")"
"$rb" play tests/verify/rank_cycle.rules --coverage --games 2 --max-plies 20 >"$work/cycle.txt" 2>/dev/null
grep -A1 '^a game from the setup need not end: ' "$work/cycle.txt" | grep -q '^no ranking found among [0-9]* candidates'
check "a cycle: endless, and no ranking" 0 $?
check "the 9-player game: no ranking, nothing checked with Z3" "False 0" \
  "$(json "$work/nine.json" "j['termination']['ranking']['proved'], j['termination']['ranking']['checked']")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
