#!/usr/bin/env bash
# End-to-end checks of `rulebook bench`: exit codes, counts equal to `rulebook perft`, the
# same games under both engines, JSON, a bad file's located error and Ctrl-C.
# Usage: bench_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src" || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RULEBOOK_CACHE="$work/cache"
# shellcheck source=tests/cli/signal_lib.sh
. tests/cli/signal_lib.sh
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
"$rb" fmt --check bench/plain/*.rules
check "the benchmark games are in canonical layout" 0 $?
"$rb" bench "$ttt" --depth 5 --games 50 --runs 2 >"$work/text" 2>"$work/err"
check "bench exits 0" 0 $?
grep -q "^perft depth 1..5: 9 72 504 3024 15120$" "$work/text"
check "the text gives the perft counts" 0 $?
grep -q "built with: .*-O" "$work/text"
check "the text gives the engine's build flags" 0 $?

# The counts are perft's and the same for both engines; the plies depend on the seed only.
for engine in compiled interp; do
  "$rb" bench "$ttt" --depth 6 --games 40 --runs 2 --seed 7 --engine "$engine" --json \
    >"$work/$engine.json" 2>/dev/null
  check "bench --json exits 0 ($engine)" 0 $?
  valid_json "$work/$engine.json"
  check "bench --json is JSON ($engine)" 0 $?
  "$rb" perft "$ttt" --depth 6 --engine "$engine" --json >"$work/perft-$engine.json" 2>/dev/null
  check "bench counts the paths perft counts ($engine)" "$(field "$work/perft-$engine.json" 'j["paths"]')" \
    "$(field "$work/$engine.json" 'j["perft"]["paths"]')"
  check "bench's nodes are the paths' sum ($engine)" "$(field "$work/perft-$engine.json" 'sum(j["paths"])')" \
    "$(field "$work/$engine.json" 'j["perft"]["nodes"]')"
done
check "both engines play the same games" "$(field "$work/compiled.json" 'j["playouts"]["plies"]')" \
  "$(field "$work/interp.json" 'j["playouts"]["plies"]')"
check "the interpreter is named as the engine" "interpreter" "$(field "$work/interp.json" 'j["engine_origin"]')"
check "40 playouts" "40" "$(field "$work/compiled.json" 'j["playouts"]["games"]')"
check "the run is complete" "True" "$(field "$work/compiled.json" 'j["complete"]')"
"$rb" bench "$ttt" --depth 0 --games 40 --runs 1 --seed 7 --json >"$work/again.json" 2>/dev/null
check "the same seed plays the same plies" "$(field "$work/compiled.json" 'j["playouts"]["plies"]')" \
  "$(field "$work/again.json" 'j["playouts"]["plies"]')"
"$rb" bench "$ttt" --depth 0 --games 40 --runs 1 --seed 8 --json >"$work/other.json" 2>/dev/null
[ "$(field "$work/other.json" 'j["playouts"]["plies"]')" != "$(field "$work/again.json" 'j["playouts"]["plies"]')" ]
check "another seed plays other games" 0 $?

# A linked engine names the build's flags; Breakthrough's perft, as the test of bench/plain.
"$rb" bench variants/sudoku-fill/fill-4x4.rules --depth 3 --games 5 --runs 1 --json >"$work/linked.json" 2>/dev/null
check "a shipped variant's engine is the linked one" "linked" "$(field "$work/linked.json" 'j["engine_origin"]')"
"$rb" bench bench/plain/breakthrough.rules --depth 3 --games 5 --runs 1 --json >"$work/bt.json" 2>/dev/null
check "breakthrough perft through bench" "[22, 484, 11132]" "$(field "$work/bt.json" 'j["perft"]["paths"]')"

# Errors: a bad file is located, the command line is checked.
printf 'game "broken";\nboard 3 x 3;\nplayers 2;\nstate s: Cell -> 0..1;\nphase p {\n  move m(c: Cell) requires t[c] == 0; { s[c] := 1; }\n}\n' >"$work/bad.rules"
"$rb" bench "$work/bad.rules" >/dev/null 2>"$work/bad.err"
check "a bad file exits 1" 1 $?
grep -q "bad.rules:6:[0-9]*: error:" "$work/bad.err"
check "a bad file's error is located" 0 $?
"$rb" bench >/dev/null 2>&1
check "no file exits 2" 2 $?
"$rb" bench "$ttt" --runs 0 >/dev/null 2>&1
check "--runs 0 exits 2" 2 $?
"$rb" bench "$ttt" --engine other >/dev/null 2>&1
check "an unknown engine exits 2" 2 $?
"$rb" bench "$work/missing.rules" >/dev/null 2>&1
check "a missing file exits 1" 1 $?

# Ctrl-C: exit 130, and what finished is printed (valid JSON, marked incomplete).
interrupt_when_said "bench: run 1/3: " 60 "$work/int.json" "$work/int.err" "$rb" bench bench/plain/connect4.rules \
  --engine interp --depth 0 --games 100000000 --runs 3 --json
check "Ctrl-C exits 130" 130 "$rc"
valid_json "$work/int.json"
check "Ctrl-C still prints JSON" 0 $?
check "Ctrl-C marks the result incomplete" "False" "$(field "$work/int.json" 'j["complete"]')"
# Exit 130 is the run's own stop: one that ignored the signal would be killed by the guard
# after 20 s (exit 137). No wall-clock bound is checked (a loaded machine is slow to stop).
grep -q "^bench: run 1/3: [0-9]*/100000000 playouts, [0-9]* playouts/s, [0-9.]* MB" "$work/int.err"
check "long runs show progress" 0 $?
"$rb" bench "$ttt" --depth 2 --games 5 --runs 1 --quiet >/dev/null 2>"$work/quiet.err"
check "--quiet prints nothing on stderr" "" "$(cat "$work/quiet.err")"

echo "bench_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
