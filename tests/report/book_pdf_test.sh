#!/usr/bin/env bash
# The rulebook page of the 6x6 Garnsi file on a small configuration: one figure per allowed /
# not-allowed example found (counted in the HTML against the page's JSON), a link from the
# variant's page and the index, each not-allowed example refused by `play` naming its rule,
# the same bytes twice, and `--pdf` printing it with headless
# Chromium to a non-empty PDF (with pdftotext: one "Reached by" caption per figure).
# Usage: book_pdf_test.sh RULEBOOK_BINARY SOURCE_DIR
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

json() {  # json FILE EXPR: a Python expression over the parsed file `j`
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

cat > "$work/config.json" <<'JSON'
{"defaults": {"games": 2, "greedy_games": 0, "coverage_games": 0, "coverage_examine": 0,
              "coverage_search_states": 0, "tree_depth": 1, "tree_breadth": 1, "threads": 1,
              "explore": false, "prove": false, "book_games": 10, "book_plies": 200,
              "book_budget": 200000, "book_search_states": 200}}
JSON
f=variants/garnsi-malom/garnsi-6x6.rules
"$rb" report "$f" -o "$work/a" --config "$work/config.json" 2>"$work/err"
check "report exit code" 0 $?
page=$work/a/garnsi-malom/garnsi-6x6-rulebook.html
data=$work/a/garnsi-malom/garnsi-6x6-rulebook.json
figures=$(grep -o 'class="rule-example' "$page" | wc -l)
rules=$(json "$data" "len(j['rules'])")
found=$(json "$data" "sum(r[k]['found'] for r in j['rules'] for k in ('allowed','not_allowed'))")
checked=$(json "$data" "all(r[k]['checked'] for r in j['rules'] for k in ('allowed','not_allowed') if r[k]['found'])")
check "the file names rules" "yes" "$([ "${rules:-0}" -gt 0 ] && echo yes)"
check "a figure per example found" "$found" "$figures"
check "every rule has both examples" "$((2 * rules))" "$found"
check "every example checked by the interpreter" "True" "$checked"
check "rule_diagrams in the JSON" "$figures" "$(json "$data" "j['rule_diagrams']")"
check "linked from the variant's page" 1 "$(grep -c 'href="garnsi-6x6-rulebook.html"' "$work/a/garnsi-malom/garnsi-6x6.html")"
check "linked from the index" 1 "$(grep -c 'href="garnsi-malom/garnsi-6x6-rulebook.html"' "$work/a/index.html")"
check "a print stylesheet" 1 "$(grep -c '@media print' "$page")"

# Each not-allowed example replayed by `play`, its move last: refused by that rule.
for i in $(seq 0 $((rules - 1))); do
  name=$(json "$data" "j['rules'][$i]['name']")
  replay=$(json "$data" "j['rules'][$i]['not_allowed']['replay']")
  eval "\"\$rb\" ${replay#rulebook }" >/dev/null 2>"$work/play_err"
  check "play refuses the not-allowed move of $name" 1 $?
  check "play names $name" 1 "$(grep -c "blocked by rule $name\$" "$work/play_err")"
done

"$rb" report "$f" -o "$work/b" --config "$work/config.json" 2>/dev/null
check "the same bytes twice" "" "$(cmp "$page" "$work/b/garnsi-malom/garnsi-6x6-rulebook.html" 2>&1)"

if command -v chromium >/dev/null; then
  "$rb" report "$f" -o "$work/a" --config "$work/config.json" --pdf 2>"$work/err"
  check "report --pdf exit code" 0 $?
  pdf=$work/a/garnsi-malom/garnsi-6x6-rulebook.pdf
  check "the PDF exists and is not empty" "yes" "$([ -s "$pdf" ] && echo yes)"
  check "the PDF is a PDF" "%PDF" "$(head -c 4 "$pdf")"
  check "the printing time cleared (reproducible bytes)" 2 "$(grep -ac 'Date (D:19700101000000' "$pdf")"
  if command -v pdftotext >/dev/null; then
    check "a 'Reached by' caption per figure in the PDF" "$figures" "$(pdftotext "$pdf" - | grep -o 'Reached by' | wc -l)"
  fi
else
  PATH=/nonexistent "$rb" report "$f" -o "$work/c" --config "$work/config.json" --pdf 2>/dev/null
  check "--pdf without chromium is a usage error" 2 $?
fi

echo "book_pdf_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
