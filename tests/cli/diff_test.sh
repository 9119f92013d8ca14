#!/usr/bin/env bash
# `rulebook diff A.rules B.rules`: the declarations a variant adds, removes and overrides in
# each file's words; a file against itself changes nothing (every p-value 1); the playout
# comparison's z-tests agree with the counts; the alerts and the verdicts compared.
# Usage: diff_test.sh RULEBOOK_BINARY SOURCE_DIR
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

base=variants/sudoku-moyo/moyo.rules
handicap=variants/sudoku-moyo/handicap.rules

# Declarations only: the handicap variant adds a param, a state, a define and a rule and
# overrides a move.
"$rb" diff "$base" "$handicap" --rules-only --json >"$work/h.json" 2>/dev/null
check "rules only: exit" 0 $?
check "rules only: added" "define handicap_pending|param handicap_stones|rule weaker_player_first|state handicap_placed" \
  "$(json "$work/h.json" "'|'.join(sorted(i['kind']+' '+i['name'] for i in j['declarations']['added']))")"
check "rules only: nothing removed" 0 "$(json "$work/h.json" "len(j['declarations']['removed'])")"
check "rules only: the added rule's description" "the handicap stones are the weaker (first) player's" \
  "$(json "$work/h.json" "[i for i in j['declarations']['added'] if i['kind']=='rule'][0]['description']")"
check "rules only: the overridden move, both sides in their files' words" \
  "opening.place_black False True variants/sudoku-moyo/moyo.rules variants/sudoku-moyo/handicap.rules" \
  "$(json "$work/h.json" "[(o['name'], 'handicap_placed' in o['a']['text'], 'handicap_placed += 1;' in o['b']['text'], o['a']['at'].split(':')[0], o['b']['at'].split(':')[0]) for o in j['declarations']['overridden']][0]" | tr -d "(),'")"
check "rules only: no analysis" "{}" "$(json "$work/h.json" "j['analysis']")"
"$rb" diff "$base" "$handicap" --rules-only >"$work/h.txt" 2>/dev/null
grep -q '^declarations in force: 4 added, 0 removed, 1 overridden, [0-9]* unchanged$' "$work/h.txt"
check "rules only, text: the counts" 0 $?
grep -q '^    | rule weaker_player_first "the handicap stones are the weaker (first) player'"'"'s"$' "$work/h.txt"
check "rules only, text: the added rule's source" 0 $?

# A file against itself: nothing changed, every test finds nothing (p = 1).
g=variants/garnsi-malom/garnsi-6x6.rules
"$rb" diff "$g" "$g" --games 40 --depth 2 --json >"$work/self.json" 2>/dev/null
check "self: exit" 0 $?
check "self: nothing added, removed, overridden" "0 0 0" \
  "$(json "$work/self.json" "len(j['declarations']['added']), len(j['declarations']['removed']), len(j['declarations']['overridden'])" | tr -d '(),')"
check "self: every p-value 1" True \
  "$(json "$work/self.json" "all(r.get('p_value', 1)==1 for r in j['analysis']['playouts']['means']+j['analysis']['playouts']['wins'])")"
check "self: same states, no alert appeared or gone" "True 0 0" \
  "$(json "$work/self.json" "all(r['a_distinct']==r['b_distinct'] for r in j['analysis']['state_space']), len(j['analysis']['alerts']['appeared']), len(j['analysis']['alerts']['gone'])" | tr -d '(),')"

# The literal four-move end: quiet_limit overridden, shorter games, the z-tests recomputed.
four=variants/garnsi-malom/garnsi-6x6-four-moves.rules
"$rb" diff "$g" "$four" --games 40 --depth 2 --json >"$work/four.json" 2>/dev/null
check "four moves: exit" 0 $?
check "four moves: quiet_limit overridden" True \
  "$(json "$work/four.json" "any(o['name']=='quiet_limit' for o in j['declarations']['overridden'])")"
check "four moves: games are shorter, significantly" True \
  "$(json "$work/four.json" "[(r['difference']<0 and r['p_value']<0.01) for r in j['analysis']['playouts']['means'] if r['name']=='length'][0]")"
check "four moves: the z-tests agree with their counts" True "$(python3 - "$work/four.json" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1]))
ok = True
for r in j['analysis']['playouts']['wins'] + [j['analysis']['playouts']['drawn']]:
    (k1, n1), (k2, n2) = r['a'], r['b']
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    want = 1.0 if se == 0 else math.erfc(abs((k2 / n2 - k1 / n1) / se) / math.sqrt(2))
    ok = ok and abs(r['p_value'] - want) <= 1e-3 * max(want, 1e-12) + 1e-12
print(ok)
PY
)"
"$rb" diff "$g" "$four" --games 40 --depth 2 >"$work/four.txt" 2>/dev/null
grep -q "^  length: .* (Welch's t-test, t = .*, df = .*)$" "$work/four.txt"
check "four moves, text: length with Welch's t-test" 0 $?
grep -q "^  wins team red: .*two-proportion z-test, z = .*)$" "$work/four.txt"
check "four moves, text: team wins with a z-test" 0 $?
check "four moves, text: each team once" 2 "$(grep -c '^  wins team ' "$work/four.txt")"
grep -q "^  appeared \[warning, acknowledged\] dead-move: move 'capture' was never legal " "$work/four.txt"
check "four moves, text: the capture's dead-move alert appeared, acknowledged" 0 $?

# --prove: a property the override breaks; games of one length on each side (no t-test).
printf 'game "tiny";\nboard 1 x 3;\nplayers 1;\nparam limit = 2;\nstate n: 0..3;\nphase p {\n  move bump requires n < limit; {\n    n += 1;\n  }\n}\nprove low "the limit is at most 2" over boards: limit <= 2;\n' >"$work/a.rules"
printf 'variant "tiny, higher" extends "a.rules";\noverride param limit = 3;\n' >"$work/b.rules"
"$rb" diff "$work/a.rules" "$work/b.rules" --games 10 --depth 3 --prove --json >"$work/tiny.json" 2>/dev/null
check "prove: exit" 0 $?
check "prove: the verdict changed" "low proved refuted True" \
  "$(json "$work/tiny.json" "[(p['property'], p['a']['verdict'], p['b']['verdict'], p['changed']) for p in j['analysis']['properties']][0]" | tr -d "(),'")"
check "prove: constant lengths compared without a test" "2.0 3.0 none: one value on each side not the same" \
  "$(json "$work/tiny.json" "[(r['a_mean'], r['b_mean'], r['test']) for r in j['analysis']['playouts']['means'] if r['name']=='length'][0]" | tr -d "(),'")"
check "prove: a depth counted on one side only" "3 None 1" \
  "$(json "$work/tiny.json" "[(r['depth'], r['a_distinct'], r['b_distinct']) for r in j['analysis']['state_space']][3]" | tr -d "(),'")"

# Errors: a missing file is a usage error, a broken one an input error.
"$rb" diff "$g" variants/none.rules >/dev/null 2>&1
check "a missing file: exit 2" 2 $?
printf 'game "x";\nboard 1 x 3;\nnope;\n' >"$work/bad.rules"
"$rb" diff "$g" "$work/bad.rules" >/dev/null 2>"$work/bad.txt"
check "a broken file: exit 1" 1 $?
grep -q "bad.rules:3:1: error" "$work/bad.txt"
check "a broken file: its diagnostics" 0 $?

echo "diff: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
