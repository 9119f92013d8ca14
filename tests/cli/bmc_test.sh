#!/usr/bin/env bash
# Bounded model checking of what coverage never saw (`play --coverage --bmc-plies K`), and
# `lint` saying whether every game ends: a move first legal at ply 7 is found within 7
# plies with its line, and said not reachable within 6; a dead move, an unreachable end and
# an `until` that never fires, of the lint defect files, are not reachable within 6; lint
# prints termination in text and JSON, and with --bmc-plies adds both checks to its alerts.
# Usage: bmc_test.sh RULEBOOK_BINARY SOURCE_DIR
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

json() {
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

late=tests/cli/bmc_late_move.rules
g=tests/golden/lint
# One game cut off at 3 plies and a directed search of 10 positions: neither reaches claim.
cov="--coverage --games 1 --max-plies 3 --search-states 10"

# shellcheck disable=SC2086
"$rb" play $late $cov --bmc-plies 7 --json >"$work/late7.json" 2>/dev/null
check "late move: exit 0" 0 $?
claim="[n for n in j['never'] if n.get('kind')=='move' and n.get('what')=='claim'][0]"
check "claim: the directed search did not reach it" "not reached" "$(json "$work/late7.json" "$claim['search']['result']")"
check "claim: reached within 7 plies" "reached" "$(json "$work/late7.json" "$claim['bmc']['result']")"
check "claim: a line of 7 moves" 7 "$(json "$work/late7.json" "len($claim['bmc']['line'])")"
check "claim: the last move of the line is claim" claim "$(json "$work/late7.json" "$claim['bmc']['line'][-1].split('(')[0]")"
# The line is one the interpreter plays: replayed by play --moves, claim is its last move.
line=$(json "$work/late7.json" "', '.join($claim['bmc']['line'])")
"$rb" play $late --moves "$line" >"$work/replay.txt" 2>&1
check "the line replays" 0 $?
# The statement at the top of claim's block is found with it.
check "claim's store: reached" "reached" \
  "$(json "$work/late7.json" "[n for n in j['never'] if n.get('kind')=='statement' and n.get('block')=='move claim'][0]['bmc']['result']")"

# shellcheck disable=SC2086
"$rb" play $late $cov --bmc-plies 6 >"$work/late6.txt" 2>/dev/null
grep -q "bounded model checking: not reachable within 6 plies (not a proof beyond 6 plies)" "$work/late6.txt"
check "claim: not reachable within 6 plies, said so" 0 $?

# The lint defect file's dead move (its two requires contradict each other).
"$rb" play $g/dead_move.rules --coverage --games 5 --search-states 10 --bmc-plies 6 --json >"$work/dead.json" 2>/dev/null
check "dead move: not within 6 plies" "not within" \
  "$(json "$work/dead.json" "[n for n in j['never'] if n.get('kind')=='move'][0]['bmc']['result']")"
# An end alternative and an `until` of the defect files that four cells cannot satisfy.
for f in unreached_end dead_transition; do
  "$rb" play $g/$f.rules --coverage --games 5 --search-states 10 --bmc-plies 6 --json >"$work/$f.json" 2>/dev/null
  check "$f: not within 6 plies" "not within" \
    "$(json "$work/$f.json" "[n for n in j['never'] if n.get('kind') in ('end when', 'until')][0]['bmc']['result']")"
done
# Without --bmc-plies there is no bounded check.
"$rb" play $g/dead_move.rules --coverage --games 5 --search-states 10 --json >"$work/nobmc.json" 2>/dev/null
check "no --bmc-plies: no bmc entry" False "$(json "$work/nobmc.json" "any('bmc' in n for n in j['never'])")"

# lint prints termination: enumeration, a cycle, and in JSON.
"$rb" lint $g/dead_move.rules --games 5 >"$work/lint.txt" 2>&1
grep -q "^termination proved: every game from the setup ends within 4 plies" "$work/lint.txt"
check "lint: termination by enumeration" 0 $?
"$rb" lint $g/never_ends.rules --games 5 --max-plies 50 --json >"$work/ne.json" 2>/dev/null
check "lint --json: a cycle" endless "$(json "$work/ne.json" "j['termination']['verdict']")"
check "lint --json: the ranking looked for" False "$(json "$work/ne.json" "j['termination']['ranking']['proved']")"
"$rb" lint $g/dead_move.rules --games 5 --termination-states 0 --json >"$work/none.json" 2>/dev/null
check "lint --termination-states 0: none" False "$(json "$work/none.json" "'termination' in j")"

# lint --bmc-plies: the same checks, as evidence of the alerts naming what the games never saw.
# shellcheck disable=SC2086
"$rb" lint $late --games 1 --max-plies 3 --search-states 10 --bmc-plies 7 --json >"$work/lint7.json" 2>/dev/null
dead_claim="[a for a in j['alerts'] if a['code']=='dead-move' and a['subject']=='claim'][0]"
check "lint: claim is a dead move" claim "$(json "$work/lint7.json" "$dead_claim['subject']")"
check "lint: claim reached within 7 plies" reached "$(json "$work/lint7.json" "$dead_claim['bmc']['result']")"
check "lint: its line has 7 moves" 7 "$(json "$work/lint7.json" "len($dead_claim['bmc']['line'])")"
check "lint: the search ran first" "not reached" "$(json "$work/lint7.json" "$dead_claim['search']['result']")"
"$rb" play $late --moves "$(json "$work/lint7.json" "', '.join($dead_claim['bmc']['line'])")" >/dev/null 2>&1
check "lint: the line replays" 0 $?
"$rb" lint $late --games 1 --max-plies 3 --search-states 10 --bmc-plies 6 >"$work/lint6.txt" 2>/dev/null
grep -A4 "warning\[dead-move\]: move 'claim'" "$work/lint6.txt" |
  grep -q "bounded model checking: not reachable within 6 plies (not a proof beyond 6 plies)"
check "lint: claim not within 6 plies, in the alert's evidence" 0 $?
# No search at all: every item goes to the bounded check.
"$rb" lint $g/dead_move.rules --games 5 --search-states 0 --bmc-plies 6 --json >"$work/lintdead.json" 2>/dev/null
check "lint: dead move not within 6 plies" "not within" \
  "$(json "$work/lintdead.json" "[a for a in j['alerts'] if a['code']=='dead-move'][0]['bmc']['result']")"
check "lint --search-states 0: no search" False "$(json "$work/lintdead.json" "'search' in j")"
"$rb" lint $g/unreached_end.rules --games 5 --search-states 10 --bmc-plies 6 --json >"$work/lintend.json" 2>/dev/null
check "lint: unreached end not within 6 plies" "not within" \
  "$(json "$work/lintend.json" "[a for a in j['alerts'] if a['code']=='unreached-end'][0]['bmc']['result']")"
# Off by default: no search, no bounded check.
"$rb" lint $g/dead_move.rules --games 5 --json >"$work/lintoff.json" 2>/dev/null
check "lint without --bmc-plies: no bmc" False "$(json "$work/lintoff.json" "any('bmc' in a or 'search' in a for a in j['alerts'])")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
