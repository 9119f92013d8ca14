#!/usr/bin/env bash
# `rulebook deduce LIST`: the deduction game over listed states. A hidden fleet of three
# ships on a 5x5 sea (tests/cli/deduce/hidden_fleet.rules, 3,944 fleets): the list checked
# against an enumeration written in Python, every game (greedy and random probes, bags and
# givens) played again by deduce_check.py turn by turn; every fleet found with single shots;
# the same bytes twice; a rules file listed first, the same list and games; a changed game
# refused by the check; the usage errors; Ctrl-C.
# Usage: deduce_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
. "$(dirname "$0")/check_lib.sh"
cd "$src" || exit 2

rules=tests/cli/deduce/hidden_fleet.rules
list="$work/fleets.json"
"$rb" explore "$rules" --depth 3 --list "$list" --observe shot --observe row_ships --observe moored --quiet \
  >"$work/explore.out" 2>&1
check "explore --list exits 0" 0 $?

"$rb" deduce "$list" --games 30 --bag shot=3 --given moored --baseline --limit 6 --json --quiet >"$work/a.json"
check "deduce with bags, a given and the baseline exits 0" 0 $?
python3 tests/cli/deduce_check.py "$list" "$work/a.json" --fleets >"$work/a.check" 2>&1
check "30 games and the list checked apart" 0 $?
check "the check's figures" "30 games played again: every turn, answer and count alike (30 found)
the list: 3944 fleets, each with the answers the enumeration here gives" "$(cat "$work/a.check")"

"$rb" deduce "$list" --hidden 1,2,3,100,3944 --probe row_ships --probe shot --once row_ships --baseline --json \
  --quiet >"$work/b.json"
check "deduce of given states exits 0" 0 $?
check "given states, rows (once) and shots, checked apart" 0 \
  "$(python3 tests/cli/deduce_check.py "$list" "$work/b.json" >/dev/null 2>&1; echo $?)"

# Single shots answer each cell: every fleet is found.
summary=$("$rb" deduce "$list" --hidden all --probe shot --quiet | tail -1)
check "every fleet found by single shots" "greedy: 3944 of 3944 found;" "${summary:0:27}"
# Bags lose the order of their answers: two fleets may agree on every bag.
"$rb" deduce "$list" --hidden all --bag shot=3 --given moored --baseline --quiet --json >"$work/c.json"
check "a baseline that asked everything in bags, two fleets left" "1775 2 no probe left 30" "$(python3 - "$work/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["games"]:
    b = g["baseline"]
    if not b["found"]:
        print(g["hidden"], b["left"], b["ended"], b["probes"])
PY
)"

"$rb" deduce "$list" --games 30 --bag shot=3 --given moored --baseline --limit 6 --json --quiet >"$work/a2.json"
check "the same bytes twice" "$(md5sum <"$work/a.json")" "$(md5sum <"$work/a2.json")"

# The check is not blind: a count changed, a probe changed.
python3 - "$work/a.json" "$work/bad1.json" "$work/bad2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["games"][0]["steps"][0]["left"] += 1
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
s = d["games"][1]["steps"][0]
s["probes"][0] = "r4c4" if s["probes"][0] != "r4c4" else "r0c0"
json.dump(d, open(sys.argv[3], "w"))
PY
python3 tests/cli/deduce_check.py "$list" "$work/bad1.json" >/dev/null 2>&1
check "a changed count refused" 1 $?
python3 tests/cli/deduce_check.py "$list" "$work/bad2.json" >/dev/null 2>&1
check "a changed probe refused" 1 $?

# A rules file instead of a list: its states listed first, the same list (saved) and games.
"$rb" explore "$rules" --depth 3 --list "$work/two.json" --observe shot --observe moored --quiet >/dev/null 2>&1
"$rb" deduce "$work/two.json" --given moored --hidden all --json --quiet >"$work/from_list.json"
"$rb" deduce "$rules" --depth 3 --observe shot --observe moored --given moored --hidden all --json --quiet \
  --save-list "$work/saved.json" >"$work/from_rules.json"
check "a rules file: exit 0" 0 $?
check "a rules file: the list saved is explore's" "$(md5sum <"$work/two.json")" "$(md5sum <"$work/saved.json")"
check "a rules file: the same games" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["games"] == json.load(open(sys.argv[2]))["games"])' "$work/from_list.json" "$work/from_rules.json")" "True"
"$rb" deduce "$rules" --hidden all 2>"$work/e0" >/dev/null
check "a rules file without --depth: exit 2" 2 $?
"$rb" deduce "$rules" --depth 5 --observe shot 2>"$work/e0" >/dev/null
check "a depth play never reaches: exit 1" 1 $?
check "a depth play never reaches: said" \
  "rulebook deduce: play never reaches depth 5 (its last depth is 3): no state to hide" "$(cat "$work/e0")"

# Usage errors: said, exit 1 (the input) or 2 (the command line).
"$rb" deduce "$list" --probe nosuch 2>"$work/e1" >/dev/null
check "an unknown define: exit 1" 1 $?
check "an unknown define: said" "rulebook deduce: $list: 'nosuch' is not observed in the list (observed: shot, row_ships, moored)" \
  "$(cat "$work/e1")"
"$rb" deduce "$list" --probe moored 2>"$work/e2" >/dev/null
check "a define of no parameter as a probe: exit 1" 1 $?
check "a define of no parameter as a probe: said" \
  "rulebook deduce: --probe moored: a define of no parameter answers once for all (give it with --given)" "$(cat "$work/e2")"
"$rb" deduce "$list" --hidden 0 2>"$work/e3" >/dev/null
check "state 0: exit 2" 2 $?
check "state 0: said" "rulebook deduce: --hidden 0: give 'all' or state numbers from 1 to 3944" "$(cat "$work/e3")"
"$rb" deduce "$list" --bag shot=0 2>"$work/e4" >/dev/null
check "a bag of 0: exit 1" 1 $?
echo "not json" >"$work/bad.json"
"$rb" deduce "$work/bad.json" 2>"$work/e5" >/dev/null
check "not a list: exit 1" 1 $?
echo '{"file": "x"}' >"$work/nolist.json"
"$rb" deduce "$work/nolist.json" 2>"$work/e6" >/dev/null
check "a JSON document that is no list: exit 1" 1 $?
check "a JSON document that is no list: said" \
  "rulebook deduce: $work/nolist.json: not a list of \`rulebook explore --list\` (no \"observe\" and \"list\")" "$(cat "$work/e6")"

# Ctrl-C between games: the games played printed (valid JSON, marked), exit 130. The fleet on
# a 6x6 sea: 27,256 fleets; the greedy games are one walk of a second, the random baseline
# (each game filtering the list from the start) takes tens of seconds.
. "$(dirname "$0")/signal_lib.sh"
sed 's/board 5 x 5;/board 6 x 6;/' "$rules" >"$work/six.rules"
"$rb" explore "$work/six.rules" --depth 3 --list "$work/six.json" --observe shot --quiet >/dev/null 2>&1
check "the 6x6 sea listed" 0 $?
interrupt_when_said "deduce: baseline game" 60 "$work/int.json" "$work/int.err" \
  "$rb" deduce "$work/six.json" --hidden all --baseline --json
check "Ctrl-C: exit 130" 130 "$rc"
check "Ctrl-C: the games played, marked" "interrupted yes" "$(python3 - "$work/int.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(d["stopped"], "yes" if 0 < len(d["games"]) < 27256 and d["greedy"]["games"] == len(d["games"]) else "no")
PY
)"

finish deduce
