#!/usr/bin/env bash
# `rulebook report FILE.rules -o DIR`: one file's page, its base read, is the page a report
# of its folder writes, and the index lists it alone; the folder's report adds the page of
# what the variant changes against its base; a page with found invariants lists the proved
# ones and reads its boards against them; a file that declares puzzles gets their table, a
# two-sided file without puzzles its value under perfect play.
# Usage: report_file_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
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

# fill-6x6 extends fill-4x4: a small game, seconds for both reports.
"$rb" report variants/sudoku-fill/fill-6x6.rules -o "$work/one" --config variants/report.json 2>/dev/null
check "report of one file: exit" 0 $?
check "report of one file: its files" "index.html sudoku-fill/fill-6x6-rulebook.html sudoku-fill/fill-6x6-rulebook.json sudoku-fill/fill-6x6.html sudoku-fill/fill-6x6.json" \
  "$(cd "$work/one" && find . -type f | sed 's|^\./||' | sort | paste -sd' ')"
check "report of one file: its base read" \
  "variants/sudoku-fill/fill-6x6.rules variants/sudoku-fill/fill-4x4.rules" \
  "$(json "$work/one/sudoku-fill/fill-6x6.json" "' '.join(s['file'] for s in j['sources'])")"
check "report of one file: the index lists it alone" 1 \
  "$(grep -c 'href="sudoku-fill/fill-6x6.html"' "$work/one/index.html")"
grep -q '<p>The rule file <code>variants/sudoku-fill/fill-6x6.rules</code>\.' "$work/one/index.html"
check "report of one file: the index names it" 0 $?
"$rb" report variants/sudoku-fill -o "$work/folder" --config variants/report.json 2>/dev/null
check "report of its folder: exit" 0 $?
cmp -s "$work/one/sudoku-fill/fill-6x6.json" "$work/folder/sudoku-fill/fill-6x6.json"
check "the file's JSON is the folder report's" 0 $?
# The page too, but for the link to the diff page, which needs the base reported.
cmp -s "$work/one/sudoku-fill/fill-6x6.html" <(grep -v '^<p>A variant of ' "$work/folder/sudoku-fill/fill-6x6.html")
check "the file's page is the folder report's" 0 $?
# fill-6x6 extends fill-4x4: its diff page, linked from its page and from the index.
test -f "$work/folder/sudoku-fill/fill-6x6-diff.html" && test ! -e "$work/folder/sudoku-fill/fill-4x4-diff.html"
check "the folder report: a diff page for the variant only" 0 $?
grep -q '<a href="fill-6x6-diff.html">what it changes</a>' "$work/folder/sudoku-fill/fill-6x6.html"
check "the variant's page links its diff page" 0 $?
grep -q '<a href="sudoku-fill/fill-6x6-diff.html">changes</a>' "$work/folder/index.html"
check "the index links the diff page" 0 $?
check "the diff page: the overridden params" "param N|param box_columns" \
  "$(json "$work/folder/sudoku-fill/fill-6x6-diff.json" "'|'.join(o['kind']+' '+o['name'] for o in j['declarations']['overridden'])")"
check "the diff page: the two analyses' playouts and states compared" "500 500 6 True" \
  "$(json "$work/folder/sudoku-fill/fill-6x6-diff.json" "j['analysis']['playouts']['a_games'], j['analysis']['playouts']['b_games'], j['analysis']['state_space'][1]['b_distinct'], j['analysis']['playouts']['means'][0]['p_value'] < 1e-6" | tr -d '(),')"
grep -q '<tr><th>overridden param N</th><td><code>variants/sudoku-fill/fill-4x4.rules:[0-9]*:1</code><pre>param N = 4;</pre></td><td><code>variants/sudoku-fill/fill-6x6.rules:[0-9]*:1</code><pre>override param N = 6;</pre></td></tr>' \
  "$work/folder/sudoku-fill/fill-6x6-diff.html"
check "the diff page: an override side by side in the files' words" 0 $?
# Its base not reported: no diff page.
test ! -e "$work/one/sudoku-fill/fill-6x6-diff.html"
check "one file: no diff page without its base" 0 $?

# A file in the current folder: its game is the folder's name.
(cd variants/sudoku-fill && "$rb" report fill-4x4.rules -o "$work/here" --rules-only 2>/dev/null)
check "a file of the current folder: its page under the folder's name" 0 $?
test -f "$work/here/sudoku-fill/fill-4x4.html"
check "a file of the current folder: the page" 0 $?
"$rb" report variants/no-such.rules -o "$work/none" >/dev/null 2>&1
check "a missing file: usage error" 2 $?

# Found invariants (invariant_games): the proved one is a row with its formula, tried after
# the file's property, and the property's board, read against it, violates it; the board's
# state bytes are those `prove --json` gives for the same run.
cfg="$work/found-config.json"
echo '{"defaults": {"games": 20, "greedy_games": 0, "coverage_games": 5, "explore_depth": 2,
  "prove_rlimit": 2000000, "invariant_games": 3, "invariant_rlimit": 3000000}}' >"$cfg"
"$rb" report tests/cli/report_found.rules -o "$work/found" --config "$cfg" 2>/dev/null
check "found invariants: exit" 0 $?
page="$work/found/cli/report_found.json"
rows="j['analysis']['proofs']"
check "found invariants: the file's property first, then the proved one" "crowded found_1" \
  "$(json "$page" "' '.join(r['property'] for r in $rows)")"
check "found invariants: its formula, proved" \
  "all p in players: (count c in cells where owner[c] == p) + in_hand[p] <= 2 proved True" \
  "$(json "$page" "' '.join(str(x) for x in ($rows[1]['description'], $rows[1]['verdict'], $rows[1]['found']))")"
check "found invariants: the witness violates it" "['found_1']" "$(json "$page" "$rows[0]['board']['violates']")"
"$rb" prove tests/cli/report_found.rules --rlimit 2000000 --invariants 3 --invariants-last --reach-budget 0 --no-symmetry \
  --json --no-times >"$work/found-prove.json" 2>/dev/null
check "found invariants: the board's bytes are prove's" \
  "$(json "$work/found-prove.json" "j[0]['board']['state']")" "$(json "$page" "$rows[0]['board']['state']")"
grep -q "The verifier also proposed 1 invariant of its own" "$work/found/cli/report_found.html"
check "found invariants: the page says how many were proposed" 0 $?

# A file that declares a puzzle: its Puzzles section, one row per setup value, the criteria
# those of the proofs' table per value, perfect play within its table (not solved here).
echo '{"defaults": {"games": 5, "greedy_games": 0, "coverage_games": 0, "explore": false, "book": false,
  "prove_setups": ["puzzle=4", "puzzle=6"], "puzzle_game_states": 500}}' >"$work/puzzles.json"
"$rb" report variants/sudoku-moyo/moyo.rules -o "$work/puzzles" --config "$work/puzzles.json" 2>/dev/null
check "puzzles: exit" 0 $?
page="$work/puzzles/sudoku-moyo/moyo.json"
check "puzzles: solutions, exact, unique per setup" "puzzle=4 359 True no puzzle=6 1 True proved" \
  "$(json "$page" "' '.join('%s %s %s %s' % (r['setup'], r['solutions'], r['exact'], r['unique']) for r in j['analysis']['puzzles'])")"
check "puzzles: puzzle 6's criteria are the proofs' verdicts for it" "refuted" \
  "$(json "$page" "j['analysis']['puzzles'][1]['criteria']['no_three_adjacent_givens']")"
check "puzzles: perfect play within 500 states, for the side moving first" "light False states" \
  "$(json "$page" "' '.join(str(x) for x in (lambda g: (g['first'], g['solved'], g['stopped']))(j['analysis']['puzzles'][0]['game']))")"
grep -q '<h2 id="puzzles">Puzzles</h2>' "$work/puzzles/sudoku-moyo/moyo.html" &&
  grep -q '3 of 4 met; not: no_three_adjacent_givens' "$work/puzzles/sudoku-moyo/moyo.html" &&
  grep -q 'not solved within 500 states (the table is full): no bound proved' "$work/puzzles/sudoku-moyo/moyo.html"
check "puzzles: the page's section says so" 0 $?
# A count past puzzle_max is "at least", never exact.
echo '{"defaults": {"games": 5, "greedy_games": 0, "coverage_games": 0, "explore": false, "book": false, "prove": false,
  "prove_setups": ["puzzle=3"], "puzzle_max": 100, "puzzle_game_states": 0}}' >"$work/puzzles-max.json"
"$rb" report variants/sudoku-moyo/moyo.rules -o "$work/puzzles-max" --config "$work/puzzles-max.json" 2>/dev/null
check "puzzles: a count cut at puzzle_max" "100 False True no not_asked" \
  "$(json "$work/puzzles-max/sudoku-moyo/moyo.json" "' '.join(str(x) for x in (lambda r: (r['solutions'], r['exact'], r['max_reached'], r['unique'], 'not_asked' if not r['game'] else 'asked'))(j['analysis']['puzzles'][0]))")"

# A two-sided file without puzzles: its Perfect play section, the value checked by plain
# minimax in tests/explore/test_game_value.cpp (Domineering 4x4: the first player wins).
echo '{"defaults": {"games": 5, "greedy_games": 0, "coverage_games": 0, "explore": false, "book": false, "prove": false}}' \
  >"$work/play.json"
"$rb" report tests/explore/rules/domineering.rules -o "$work/play" --config "$work/play.json" 2>/dev/null
check "perfect play: exit" 0 $?
page=$(find "$work/play" -name domineering.json)
check "perfect play: the value, the side, the line's length, the classes stored" "win upright 7 614" \
  "$(json "$page" "' '.join(str(x) for x in (lambda g: (g['value'], g['first'], len(g['line']), g['states']))(j['analysis']['perfect_play']))")"
grep -q '<strong>win for upright (perfect play; a principal line of 7 moves)</strong>' "${page%.json}.html"
check "perfect play: the page says it" 0 $?
# Three players scored each on their own: not asked, and said why.
"$rb" report tests/explore/rules/three_in_a_row_3p.rules -o "$work/three" --config "$work/play.json" 2>/dev/null
check "perfect play of three players: not asked" "it has 3 players scored each on their own" \
  "$(json "$(find "$work/three" -name three_in_a_row_3p.json)" "j['analysis']['perfect_play']['not_asked'].split(':')[0]")"
# game_states 0 leaves the section out.
echo '{"defaults": {"games": 5, "greedy_games": 0, "coverage_games": 0, "explore": false, "book": false, "prove": false,
  "game_states": 0}}' >"$work/noplay.json"
"$rb" report tests/explore/rules/domineering.rules -o "$work/noplay" --config "$work/noplay.json" 2>/dev/null
check "perfect play left out by game_states 0" "absent" \
  "$(json "$(find "$work/noplay" -name domineering.json)" "'absent' if 'perfect_play' not in j['analysis'] else 'present'")"

echo "report FILE: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
