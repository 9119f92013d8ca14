#!/usr/bin/env bash
# `rulebook explore --list FILE --observe NAME`: every state of the last depth, sorted, with
# what the rules' defines give on it. Tic-tac-toe's 1,260 boards of 5 moves (three crosses
# and two noughts on distinct cells: 84 * 15), each listed once with its marks as the defines
# give them; the same bytes with either engine, any thread count and with symmetry; the
# usage errors, and no file when the depth is not built whole.
# Usage: explore_list_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
. "$(dirname "$0")/check_lib.sh"
cd "$src" || exit 2

ttt=bench/plain/tictactoe.rules
"$rb" explore "$ttt" --depth 5 --no-symmetry --threads 2 --list "$work/a.json" --observe cells_of \
  --observe has_line --quiet >"$work/a.out" 2>"$work/a.err"
check "explore --list exits 0" 0 $?
distinct=$(awk '$1 == 5 {print $3}' "$work/a.out")
check "the depth's distinct states" 1260 "$distinct"
# Every state of depth 5 once, sorted, each with its crosses and noughts (as the defines give
# them) three and two, distinct: a board of 5 moves.
check "the list: every state of depth 5, sorted, observed" "1260 sorted ok 0 0" "$(python3 - "$work/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
states = [x["state"] for x in d["list"]]
ok = all(len(x["values"]["cells_of"]) == 2 and len(x["values"]["cells_of"][0]) == 3
         and len(x["values"]["cells_of"][1]) == 2
         and not set(x["values"]["cells_of"][0]) & set(x["values"]["cells_of"][1])
         and not x["values"]["has_line"][1]
         for x in d["list"])
boards = {tuple(map(tuple, x["values"]["cells_of"])) for x in d["list"]}
print(d["states"], "sorted" if states == sorted(states) and len(set(states)) == len(states) else "unsorted",
      "ok" if ok and len(boards) == len(states) else "bad",
      *[o["failures"] for o in d["observe"]])
PY
)"
# Boards of 5 moves where crosses have a line: the list against a count of its own over
# every placement of three crosses and two noughts.
check "crosses' lines on the list, against a count of all boards" "$(python3 - <<'PY'
import itertools
lines = [(0,1,2),(3,4,5),(6,7,8),(0,3,6),(1,4,7),(2,5,8),(0,4,8),(2,4,6)]
n = 0
for xs in itertools.combinations(range(9), 3):
    if any(set(l) <= set(xs) for l in lines):
        n += len(list(itertools.combinations([c for c in range(9) if c not in xs], 2)))
print(n)
PY
)" "$(python3 -c "import json,sys; print(sum(1 for x in json.load(open(sys.argv[1]))['list'] if x['values']['has_line'][0]))" "$work/a.json")"
"$rb" explore "$ttt" --depth 5 --threads 1 --engine interp --list "$work/b.json" --observe cells_of \
  --observe has_line --quiet >/dev/null 2>&1
check "the same bytes with the interpreter, one thread and symmetry" "" "$(cmp "$work/a.json" "$work/b.json" 2>&1)"

"$rb" explore "$ttt" --depth 5 --observe has_line --quiet >/dev/null 2>"$work/e1"
check "--observe without --list: usage" "2 rulebook explore: --observe needs --list FILE (the states it is evaluated on)" \
  "$? $(cat "$work/e1")"
"$rb" explore "$ttt" --list "$work/c.json" --quiet >/dev/null 2>"$work/e2"
check "--list without --depth: usage" "2 rulebook explore: --list needs --depth N (the depth whose states it lists)" \
  "$? $(cat "$work/e2")"
"$rb" explore "$ttt" --depth 2 --list "$work/c.json" --observe along --quiet >/dev/null 2>"$work/e3"
check "a define of three parameters is refused" \
  "2 rulebook explore: --observe along: a define of 3 parameters (observe one of none or one, and define it from this one)" \
  "$? $(cat "$work/e3")"
"$rb" explore "$ttt" --depth 2 --list "$work/c.json" --observe nothing_of_that_name --quiet >/dev/null 2>"$work/e4"
check "an unknown define is refused" "2 rulebook explore: --observe nothing_of_that_name: no define of that name" \
  "$? $(cat "$work/e4")"
printf 'game "Count";\nboard 3 x 3;\nplayers 1;\nstate n: 0..9 = 0;\ndefine big(k: 0..5000): bool = k == n;\nallow unused big "observed";\nphase p {\n  move inc requires n < 9; { n := n + 1; }\n  until n == 9 -> end;\n}\n' >"$work/big.rules"
"$rb" explore "$work/big.rules" --depth 2 --list "$work/c.json" --observe big --quiet >/dev/null 2>"$work/e8"
check "a parameter of more than 4096 values is refused" \
  "2 rulebook explore: --observe big: its parameter has 5001 values; at most 4096 are observed per state" \
  "$? $(cat "$work/e8")"
"$rb" explore "$ttt" --depth 12 --list "$work/c.json" --quiet >/dev/null 2>"$work/e5"
check "a depth the game never reaches: exit 1, no file" "1 no" "$? $([ -e "$work/c.json" ] && echo yes || echo no)"
"$rb" explore "$ttt" --depth 5 --max-states 100 --list "$work/c.json" --quiet >/dev/null 2>"$work/e6"
check "a budget stops the depth: no file" "no" "$([ -e "$work/c.json" ] && echo yes || echo no)"

"$rb" explore "$ttt" --depth 5 --list "$work/c.json" --list-max 1000 --quiet >/dev/null 2>"$work/e7"
check "more states than --list-max: exit 1, said, no file" \
  "1 rulebook explore: depth 5 has 1260 states, more than --list-max 1000: $work/c.json not written no" \
  "$? $(cat "$work/e7") $([ -e "$work/c.json" ] && echo yes || echo no)"
"$rb" explore "$ttt" --depth 5 --list "$work/c.json" --list-max 1260 --quiet >/dev/null 2>&1
check "as many states as --list-max: listed" "0 1260" \
  "$? $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['states'])" "$work/c.json")"

finish "explore --list"
