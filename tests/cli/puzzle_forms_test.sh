#!/usr/bin/env bash
# `rulebook puzzle` on puzzles whose questions are not plain digit tables, each generated
# puzzle checked apart from Z3 by puzzle_forms_check.py (every board of the rules written
# again in Python): a 4x4 killer Sudoku (cage sums: integers as bit-vectors for the
# SAT-based solver), the same with a remainder (the general solver), three islands (counts
# of components, refined by cuts), a small Nurikabe (the size of a cell's island) and a
# Latin square whose puzzle is a list entry of cages and givens (clue instances dropped). Eight
# seeds of each in one run (`--count`), each exactly one board with its givens, the
# solution shown, every given needed; a seed alone gives the run's puzzle; `solve --clues`
# agrees on one of them; `solve` counts the Nurikabe entries as the brute force does. About
# half a minute of CPU.
# Usage: puzzle_forms_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
cd "$src"
# shellcheck source=tests/cli/check_lib.sh
. tests/cli/check_lib.sh
dir=tests/cli/puzzle_forms
ok8=$(for s in 1 2 3 4 5 6 7 8; do echo "seed $s: 1 board"; done)

# generate NAME RULES CHECK_KIND [SETUP...]: 8 puzzles, checked by brute force; the solver used.
generate() {
  local name=$1 rules=$2 kind=$3
  shift 3
  "$rb" puzzle "$rules" "$@" --seed 1 --count 8 --json --no-times -o "$work/$name.txt" >"$work/$name.json" 2>"$work/$name.err"
  check "$name: exit code" 0 $?
  check "$name: 8 puzzles, unique and minimal by the solver" "8 8" \
    "$(python3 -c 'import json,sys; ps=json.load(open(sys.argv[1]))["puzzles"]; print(len(ps), sum(p["unique"] == "proved" and p["minimal"] for p in ps))' "$work/$name.json")"
  python3 tests/cli/puzzle_forms_check.py "$kind" "$work/$name.json" >"$work/$name.check"
  check "$name: each one board by brute force, every given needed" "$ok8" \
    "$(sed 's/, [0-9]* \(givens\|clues\), each needed$//' "$work/$name.check")"
  "$rb" puzzle "$rules" "$@" --seed 5 --json --no-times >"$work/$name.alone" 2>/dev/null
  check "$name: seed 5 alone is the run's fifth" \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["puzzles"][4]["entry"])' "$work/$name.json")" \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["puzzles"][0]["entry"])' "$work/$name.alone")"
}
solver() {  # solver NAME: the solvers the 8 puzzles' difficulty was measured by
  python3 -c 'import json,sys; print(" ".join(sorted({p["difficulty"]["solver"] for p in json.load(open(sys.argv[1]))["puzzles"]})))' "$work/$1.json"
}

generate killer $dir/killer_4x4.rules killer --setup parity_cage=false
check "killer: the sums as bit-vectors, the SAT-based solver" "the SAT-based solver" "$(solver killer)"
generate killer_parity $dir/killer_4x4.rules killer-parity --setup parity_cage=true
check "killer with a remainder: the general solver" "the general solver" "$(solver killer_parity)"
"$rb" puzzle $dir/killer_4x4.rules --seed 1 --no-times >"$work/free.txt" 2>/dev/null
check "over: the table generated, a setup left free over its type" 1 \
  "$(grep -c '^  over: .*setup givens: the table generated; setup parity_cage: any value of its type' "$work/free.txt")"
generate islands $dir/islands_4x4.rules islands
check "islands: the SAT-based solver" "the SAT-based solver" "$(solver islands)"
check "islands: each difficulty measured" 8 \
  "$(python3 -c 'import json,sys; print(sum("conflicts" in p["difficulty"] for p in json.load(open(sys.argv[1]))["puzzles"]))' "$work/islands.json")"

generate nurikabe $dir/nurikabe_4x4.rules nurikabe
check "nurikabe: the SAT-based solver" "the SAT-based solver" "$(solver nurikabe)"

# A list entry (cages_4x4.rules: cages of one to three slots and givens, written as
# numbers): the clue instances the entry names are the puzzle; each generated entry solved
# again by brute force from its numbers, and by `solve --clues` with the generated file as
# the rules' data file (one solution, every clue needed).
generate cages $dir/cages_4x4.rules cages
check "cages: the clues named as the entry gives them" 8 \
  "$(python3 -c 'import json,sys; print(sum(len(p["clues"]) == p["givens"] > 0 for p in json.load(open(sys.argv[1]))["puzzles"]))' "$work/cages.json")"
check "cages: the entry laid out as the data file's first" 11 "$(sed -n '/^# clues/,/^$/p' "$work/cages.txt" | sed -n '2,12p' | grep -c '^[0-9]* [0-9]* [0-9]*$')"
# Three cages of at most three cells never pin a Latin square: with --clue cage alone,
# each of the 10 attempts gives the 3 cages only, and no puzzle is made (exit 1).
"$rb" puzzle $dir/cages_4x4.rules --clue cage --seed 1 --no-times >"$work/cages_only.out" 2>"$work/cages_only.err"
check "cages, --clue cage: only the cages given, no puzzle" "1 10" \
  "$? $(grep -c 'attempt [0-9]*: 3 clue instances given in full' "$work/cages_only.err")"
check "cages, --clue cage: says why" \
  "puzzle latin, seed 1: none generated (in each of 10 attempts, every clue of the solution drawn allowed another board)" \
  "$(cat "$work/cages_only.out")"
"$rb" puzzle $dir/cages_4x4.rules --clue nothing --seed 1 >/dev/null 2>"$work/clue.err"
check "--clue of no clue: exit 1, said" "1 1" "$? $(grep -c "declares no clue 'nothing'" "$work/clue.err")"
# --full: every clue instance the solution gives, none dropped, uniqueness said not required
# (exit 0): read back by brute force, the solution shown holds each clue, "unique" said
# exactly when one board fits; with --clue cage, the three cages only (never one board).
"$rb" puzzle $dir/cages_4x4.rules --full --seed 1 --count 6 --json --no-times >"$work/full.json" 2>/dev/null
check "cages, --full: exit 0" 0 $?
python3 tests/cli/puzzle_forms_check.py cages-full "$work/full.json" >"$work/full.check"
check "cages, --full: each entry read back, the solution holds it" 6 "$(grep -c ': holds, ' "$work/full.check")"
"$rb" puzzle $dir/cages_4x4.rules --full --clue cage --seed 1 --count 6 --json --no-times >"$work/full_cage.json" 2>/dev/null
check "cages, --full --clue cage: exit 0" 0 $?
python3 tests/cli/puzzle_forms_check.py cages-full "$work/full_cage.json" >"$work/full_cage.check"
check "cages, --full --clue cage: three cages, not unique, each read back" 6 \
  "$(grep -c ': holds, 3 clues, [0-9]* boards' "$work/full_cage.check")"
check "cages, --full --clue cage: never one board" 0 "$(grep -c ': holds, 3 clues, 1 boards' "$work/full_cage.check")"
"$rb" puzzle $dir/killer_4x4.rules --full --setup parity_cage=false >/dev/null 2>"$work/full_grid.err"
check "--full on a grid: exit 1, said" "1 1" "$? $(grep -c 'full puzzle of a list entry' "$work/full_grid.err")"
mkdir -p "$work/c"
cp $dir/cages_4x4.rules "$work/c/"
cp "$work/cages.txt" "$work/c/hints.txt"
solved=""
for k in 1 2 3 4 5 6 7 8; do
  out=$("$rb" solve "$work/c/cages_4x4.rules" --setup hints=$k --clues --no-times --boards 0 2>/dev/null)
  solved="$solved$(echo "$out" | grep -c '^unique: proved')$(echo "$out" | grep -c '(minimal: every clue is needed)') "
done
check "cages: solve --clues on each generated entry: unique, minimal" "11 11 11 11 11 11 11 11 " "$solved"

# A budget in seconds holds through the rounds of cuts: a 12x12 Nurikabe (a 9x9 one takes
# about a minute) stops at 2 s, says so, exit 1.
mkdir -p "$work/n12"
sed 's/^param side = 4;/param side = 12;/' $dir/nurikabe_4x4.rules >"$work/n12/nurikabe.rules"
python3 -c 'print(("." * 12 + "\n") * 12, end="")' >"$work/n12/numbers.txt"
"$rb" puzzle "$work/n12/nurikabe.rules" --seed 1 --timeout 2 >"$work/n12/out" 2>/dev/null
check "12x12 Nurikabe, --timeout 2: exit 1" 1 $?
check "12x12 Nurikabe, --timeout 2: says so" "puzzle nurikabe, seed 1: none generated (timeout (2 s))" "$(cat "$work/n12/out")"

# `solve` on the Nurikabe entries (the first blank): the counts of the brute force.
counts=""
for k in 1 2 3 4 5 6 7; do
  counts="$counts$("$rb" solve $dir/nurikabe_4x4.rules --setup numbers=$k --max 5000 --boards 0 --no-times 2>/dev/null |
    sed -n 's/^puzzle nurikabe: \([0-9]*\) solutions*$/\1/p') "
done
check "nurikabe: solve counts each entry as the brute force" \
  "$(python3 tests/cli/puzzle_forms_check.py nurikabe-counts $dir/numbers.txt | tr '\n' ' ')" "$counts"

# `prove` with a cell's component in counts, `some` and `no` (bounds over every board of
# the Nurikabe's sea): the brute force's figures.
cp $dir/nurikabe_4x4.rules $dir/numbers.txt "$work/"
cat >>"$work/nurikabe_4x4.rules" <<'EOF'

define sea_ok: bool = size(components(sea)) == 1 and (no c in cells: pool(c));
define in_big(c: Cell): int = count g in islands where c in g and size(g) >= 3;
define not_small(c: Cell): bool = no g in islands: c in g and size(g) <= 2;
bound most_in_big "cells in islands of 3 or more" over boards where sea_ok:
  max count c in cells where in_big(c) == 1;
bound most_not_small "cells not in islands of at most 2" over boards where sea_ok:
  max count c in cells where not_small(c);
bound least_not_small "cells not in islands of at most 2" over boards where sea_ok:
  min count c in cells where not_small(c);
bound most_pairs_in_row0 "cells of row 0 in islands of two" over boards where sea_ok:
  max count c in cells where y(c) == 0 and (some g in islands: c in g and size(g) == 2);
EOF
check "prove: the bounds of a cell's component, as the brute force's" \
  "$(python3 tests/cli/puzzle_forms_check.py nurikabe-bounds - | tr ' ' '\n')" \
  "$("$rb" prove "$work/nurikabe_4x4.rules" --timeout 60 2>/dev/null | sed -n 's/^bound [a-z_0-9]*: bound = \([0-9]*\) .*/\1/p')"

# `solve --clues` on the killer file with the generated data file: puzzle 3 unique, minimal.
mkdir -p "$work/k"
cp $dir/killer_4x4.rules "$work/k/"
cp "$work/killer.txt" "$work/k/givens.txt"
out=$("$rb" solve "$work/k/killer_4x4.rules" --setup givens=3 --setup parity_cage=false --clues --no-times --boards 0 2>/dev/null)
check "solve: killer puzzle 3 unique" "unique: proved" "$(echo "$out" | grep '^unique:')"
check "solve: killer puzzle 3 minimal" 1 "$(echo "$out" | grep -c '(minimal: every clue is needed)')"

finish "puzzle forms"
