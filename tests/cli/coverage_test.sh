#!/usr/bin/env bash
# `rulebook play --coverage`: on the 6x6 Garnsi game with the literal four-move end the
# capture never runs and coverage says so with its source line; with the shipped two-round
# end it runs; the JSON adds up and is the same bytes for the same seed.
# Usage: coverage_test.sh RULEBOOK_BINARY SOURCE_DIR
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

dead=variants/garnsi-malom/garnsi-6x6-four-moves.rules
live=variants/garnsi-malom/garnsi-6x6.rules

"$rb" play "$dead" --coverage --games 10 --seed 1 >"$work/dead.txt" 2>/dev/null
check "coverage of the four-move end exits 0" 0 $?
grep -q '^  garnsi-9.rules:[0-9]* *move *phase battle *capture *never legal' "$work/dead.txt"
check "the capture move is never legal with the four-move end" 0 $?
grep -q '^  garnsi-9.rules:[0-9]* *statement *move capture *store owner *never ran: owner\[c\] := none;' "$work/dead.txt"
check "the capture's store never ran, with its source line" 0 $?

"$rb" play "$dead" --coverage --games 10 --seed 1 --json >"$work/dead.json" 2>/dev/null
check "capture chosen, four-move end" 0 "$(json "$work/dead.json" "[m['chosen'] for m in j['moves'] if m['move']=='capture'][0]")"
check "chosen moves add up to the plies" "$(json "$work/dead.json" "j['plies']")" \
  "$(json "$work/dead.json" "sum(m['chosen'] for m in j['moves'])")"

"$rb" play "$live" --coverage --games 10 --seed 1 --json >"$work/live.json" 2>/dev/null
check "coverage of the two-round end exits 0" 0 $?
check "captures happen with the two-round end" True \
  "$(json "$work/live.json" "[m['chosen'] for m in j['moves'] if m['move']=='capture'][0] > 0")"
# The capture's `owner[c] := none` runs once per capture move chosen.
check "the capture's store ran once per capture" \
  "$(json "$work/live.json" "[m['chosen'] for m in j['moves'] if m['move']=='capture'][0]")" \
  "$(json "$work/live.json" "[s['count'] for s in j['sites'] if s['block']=='move capture' and s['what']=='store owner'][0]")"
check "the capture's store is not in the never list" 0 \
  "$(json "$work/live.json" "len([n for n in j['never'] if n['block']=='move capture'])")"
check "every game ended by end when" 10 "$(json "$work/live.json" "[e['games'] for e in j['ended_by'] if e['cause']=='end when'][0]")"
# The same games as `rulebook play --seed 1`: its plies are the first game's.
first=$("$rb" play "$live" --seed 1 --engine interp --json 2>/dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)['plies'])")
one=$("$rb" play "$live" --coverage --games 1 --seed 1 --json 2>/dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)['plies'])")
check "coverage game 1 is play --seed 1" "$first" "$one"

"$rb" play "$live" --coverage --games 10 --seed 1 --json >"$work/live2.json" 2>/dev/null
cmp -s "$work/live.json" "$work/live2.json"
check "coverage JSON is the same bytes for the same seed" 0 $?

# The teams-move knob (four-move end, but a side moves any piece of its colour) is live.
"$rb" play variants/garnsi-malom/garnsi-6x6-teams-move.rules --coverage --games 20 --seed 1 --json \
  >"$work/teams.json" 2>/dev/null
check "captures happen when the teams move" True \
  "$(json "$work/teams.json" "[m['chosen'] for m in j['moves'] if m['move']=='capture'][0] > 0")"

# A budget for the blocking count: it stops at the decision where the budget is spent, and
# what it counted is what the same decisions gave without a budget (the games are the same).
"$rb" play "$live" --coverage --games 10 --seed 1 --blocked-budget 20000 --json >"$work/budget.json" 2>/dev/null
check "coverage with a blocked budget exits 0" 0 $?
check "the budget stops the blocking count before the last decision" True \
  "$(json "$work/budget.json" "0 < j['blocked_decisions'] < j['decisions'] and j['blocked_work'] >= 20000")"
check "the whole count ran over every decision" True \
  "$(json "$work/live.json" "j['blocked_decisions'] == j['decisions']")"
check "statement counts do not depend on the budget" \
  "$(json "$work/live.json" "[s['count'] for s in j['sites'] if s['kind']=='statement']")" \
  "$(json "$work/budget.json" "[s['count'] for s in j['sites'] if s['kind']=='statement']")"
check "blocked counts under a budget are at most the whole count" True \
  "$(python3 -c "import json; a=json.load(open('$work/live.json')); b=json.load(open('$work/budget.json')); print(all(y['count'] <= x['count'] for x, y in zip(a['sites'], b['sites']) if x['kind'] != 'statement' and x['count'] is not None))")"
"$rb" play "$live" --coverage --games 10 --seed 1 --blocked-budget 20000 >"$work/budget.txt" 2>/dev/null
grep -q "over the first $(json "$work/budget.json" "j['blocked_decisions']") of $(json "$work/budget.json" "j['decisions']") decisions" "$work/budget.txt"
check "the text says over which decisions it counted" 0 $?

"$rb" play "$live" --coverage --games 0 >/dev/null 2>&1
check "--games 0 is a usage error" 2 $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
