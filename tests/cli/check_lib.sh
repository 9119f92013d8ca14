# Sourced by the end-to-end test scripts: a scratch directory with an engine cache of its
# own (removed on exit), and `check NAME EXPECTED ACTUAL` counting passes and failures;
# `finish LABEL` prints the tally and returns non-zero when a check failed.
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

finish() {  # finish LABEL
  echo "$1: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
