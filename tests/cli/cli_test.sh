#!/usr/bin/env bash
# End-to-end checks of the `rulebook` binary: exit codes, and that an edited rules file
# runs at once (no CMake step) and is served from the compile cache the second time.
# Usage: cli_test.sh RULEBOOK_BINARY SOURCE_DIR
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

"$rb" check -q variants/*/*.rules >/dev/null 2>&1
check "every shipped variant checks" 0 $?
"$rb" fmt --check variants/*/*.rules
check "every shipped variant is in canonical layout" 0 $?
"$rb" check tests/golden/diagnostics/empty.rules >/dev/null 2>&1
check "an input error exits 1" 1 $?
"$rb" check -q --deny-warnings variants/*/*.rules >/dev/null 2>&1
check "no shipped variant has an unacknowledged warning" 0 $?
"$rb" check -q tests/golden/diagnostics/warn_unused_and_shadowed.rules >/dev/null 2>&1
check "a warning alone exits 0" 0 $?
"$rb" check -q --deny-warnings tests/golden/diagnostics/warn_unused_and_shadowed.rules >/dev/null 2>&1
check "--deny-warnings makes a warning exit 1" 1 $?
"$rb" frobnicate >/dev/null 2>&1
check "an unknown verb exits 2" 2 $?
"$rb" perft variants/sudoku-fill/fill-4x4.rules >/dev/null 2>&1
check "a missing required option exits 2" 2 $?

# The 288 complete 4x4 grids, through the binary, under both engines.
for engine in compiled interp; do
  out=$("$rb" perft variants/sudoku-fill/fill-4x4.rules --depth 16 --engine "$engine" 2>/dev/null | tail -n 1)
  check "4x4 fill counts 288 grids ($engine)" "depth 16: 288" "$out"
done

# Edit a rule in a copy: forbid the number 4 in the first cell of each row. The engine is
# compiled at run time, the change shows in the counts, and the second run hits the cache.
mkdir -p "$work/mine"
cp variants/sudoku-fill/fill-4x4.rules "$work/mine/fill.rules"
cat >> "$work/mine/fill.rules" <<'RULES'

rule no_four_first "house rule: no 4 in the first column" on place(c, n):
  not (x(c) == 0 and n == 4);
RULES
first=$("$rb" perft "$work/mine/fill.rules" --depth 16 2>"$work/err1" | tail -n 1)
check "the edited rule takes effect" "depth 16: 0" "$first"
grep -q "compiled now" "$work/err1"
check "the first run compiles" 0 $?
second=$("$rb" perft "$work/mine/fill.rules" --depth 16 2>"$work/err2" | tail -n 1)
check "the second run gives the same count" "$first" "$second"
grep -q "from the cache" "$work/err2"
check "the second run reuses the cache" 0 $?

# A shipped, unedited variant runs the engine linked into rulebook at build time: nothing
# is compiled and the cache stays empty. Its edited copy (above) went through the compiler.
"$rb" play variants/garnsi-malom/garnsi-6x6.rules --seed 3 --boards end >/dev/null 2>"$work/err3"
grep -q "linked into rulebook" "$work/err3"
check "a shipped variant plays its linked engine" 0 $?
origin=$("$rb" play variants/garnsi-malom/garnsi-9.rules --seed 3 --max-plies 5 --json 2>/dev/null |
  grep -o '"engine_origin": "[a-z ]*"')
check "play --json says the engine is linked" '"engine_origin": "linked"' "$origin"
origin=$("$rb" play "$work/mine/fill.rules" --seed 3 --json 2>/dev/null | grep -o '"engine_origin": "[a-z ]*"')
check "play --json says an edited copy's engine comes from the cache" '"engine_origin": "from the cache"' "$origin"
ls "$work/cache" | grep -q garnsi
check "no shipped variant was compiled at run time" 1 $?

# Determinism: the same seed gives the same game, byte for byte.
a=$("$rb" play variants/garnsi-malom/garnsi-6x6.rules --seed 5 --json 2>/dev/null | md5sum)
b=$("$rb" play variants/garnsi-malom/garnsi-6x6.rules --seed 5 --json 2>/dev/null | md5sum)
check "play is deterministic" "$a" "$b"

# The engine plan: printed, every pass switchable, an unknown pass a usage error, and an
# engine with every pass off counting as the one with all on (compiled at run time).
"$rb" plan variants/sudoku-fill/fill-4x4.rules | grep -q "^passes off: none$"
check "plan prints the plan with every pass on" 0 $?
"$rb" plan variants/sudoku-fill/fill-4x4.rules --no-pass all | grep -q "^passes off: planes,"
check "plan --no-pass all names the passes off" 0 $?
"$rb" plan variants/sudoku-fill/fill-4x4.rules --no-pass bogus >/dev/null 2>&1
check "an unknown pass exits 2" 2 $?
out=$("$rb" perft variants/sudoku-fill/fill-4x4.rules --depth 16 --no-pass all 2>/dev/null | tail -n 1)
check "4x4 fill counts 288 grids with every pass off" "depth 16: 288" "$out"

# Symmetry from what the rules compute: tic-tac-toe with every line a coordinate test keeps
# the 8 maps; with one diagonal only, the quarter turns and the two mirrors are rejected and
# the JSON says where.
out=$("$rb" explore tests/explore/rules/tictactoe_diagonal_tests.rules --engine interp 2>/dev/null)
check "coordinate lines keep the 8 maps" 1 "$(grep -c '^symmetry group (8 elements)' <<<"$out")"
check "coordinate lines: 5478 states" 1 "$(grep -c '^total distinct states: 5478$' <<<"$out")"
sed 's/ or (all c in cells where x(c) + y(c) == 2: mine(p, c))//' \
  tests/explore/rules/tictactoe_diagonal_tests.rules >"$work/one_diagonal.rules"
out=$("$rb" explore "$work/one_diagonal.rules" --engine interp --depth 1 --json 2>/dev/null)
# (the JSON's keys are sorted: a candidate's reason follows its name; nauty's candidates,
# here every exchange of two cells, and the maps with the two players exchanged are
# rejected too but not counted)
check "one diagonal: the quarter turns and the mirrors are rejected at a location" 4 \
  "$(grep -A1 '"name": "\(rotate [0-9]*\|mirror [a-z]*\)"' <<<"$out" |
     grep -c '"reason": "a value the rules compute is not mapped onto itself (.*one_diagonal.rules:[0-9]*:[0-9]*)"')"

# Complete fleets of a small SMYOZ board up to the maps of the board: both counts, and the
# option needs the depth of a complete state.
"$rb" explore tests/explore/rules/smyoz_5x5.rules --complete-classes >/dev/null 2>&1
check "explore --complete-classes without --depth exits 2" 2 $?
out=$("$rb" explore tests/explore/rules/smyoz_5x5.rules --depth 4 --complete-classes --engine interp 2>/dev/null)
check "complete fleets of 5x5: 26 classes both ways" 1 "$(grep -c '^  classes: 26 by least forms, 26 by Burnside (208 / 8)$' <<<"$out")"

# A report is the same bytes whatever the number of variants analysed at once: five small
# games (the 6x6 with proofs), one and three at a time.
mkdir -p "$work/rin/a" "$work/rin/b"
cp variants/sudoku-fill/fill-4x4.rules variants/garnsi-malom/garnsi-{6x6,lesson,9}.rules "$work/rin/a/"
cp variants/sudoku-moyo/moyo.rules variants/sudoku-moyo/puzzles.txt "$work/rin/b/"
echo '{"defaults": {"games": 20, "greedy_games": 5, "explore_depth": 2, "coverage_games": 5},
       "variants": {"a/garnsi-lesson": {"prove": false}, "a/garnsi-9": {"prove": false}}}' >"$work/rconf.json"
"$rb" report "$work/rin" -o "$work/r1" --config "$work/rconf.json" --jobs 1 >/dev/null 2>&1
check "report --jobs 1 exits 0" 0 $?
"$rb" report "$work/rin" -o "$work/r3" --config "$work/rconf.json" --jobs 3 >/dev/null 2>&1
check "report --jobs 3 exits 0" 0 $?
diff -r "$work/r1" "$work/r3" >/dev/null
check "report pages do not depend on --jobs" 0 $?
ls "$work/r3/a/garnsi-6x6.html" "$work/r3/b/moyo.json" >/dev/null 2>&1
check "report --jobs 3 wrote every page" 0 $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
