#!/usr/bin/env bash
# Ctrl-C, full disks and vacuous proofs end to end: runs every case of tests/hostile/signals
# (a NAME.sh script, or NAME.rules with NAME.expect) in a fresh folder with a fresh cache
# and HOME, as the hostile-input runner does, and fails on any file named INJECTED*.
# Usage: signal_test.sh RULEBOOK_BINARY SOURCE_DIR [CASE...]
set -u
rb=$(realpath "$1")
src=$(realpath "$2")
shift 2
cases_dir="$src/tests/hostile/signals"
passed=0
failed=0
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

# expect_case NAME: runs NAME.rules as NAME.expect says; prints why on failure.
expect_case() {
  local name=$1 file="$cases_dir/$1.rules" spec="$cases_dir/$1.expect"
  local args="" code="" timeout=30 key value
  local -a want_out=() want_err=() absent=()
  while IFS= read -r line; do
    case "$line" in "#"* | "") continue ;; esac
    key=${line%%:*}
    value=${line#*: }
    case "$key" in
      run) args=${value//FILE/$file} ;;
      exit) code=$value ;;
      stdout) want_out+=("$value") ;;
      stderr) want_err+=("$value") ;;
      absent) absent+=("$value") ;;
      timeout) timeout=$value ;;
    esac
  done <"$spec"
  # shellcheck disable=SC2086  # the run line is split into arguments as written
  timeout "$timeout" "$rb" $args >stdout 2>stderr
  local rc=$?
  [ "$rc" = 124 ] && { echo "timed out after $timeout s"; return 1; }
  [ "$rc" = "$code" ] || { echo "exit $rc, expected $code; stderr: $(tail -n 3 stderr)"; return 1; }
  local s
  for s in "${want_out[@]+"${want_out[@]}"}"; do grep -qF -- "$s" stdout || { echo "stdout lacks: $s"; return 1; }; done
  for s in "${want_err[@]+"${want_err[@]}"}"; do grep -qF -- "$s" stderr || { echo "stderr lacks: $s"; return 1; }; done
  for s in "${absent[@]+"${absent[@]}"}"; do
    if grep -qF -- "$s" stdout stderr; then echo "found what must be absent: $s"; return 1; fi
  done
  return 0
}

names=("$@")
if [ ${#names[@]} = 0 ]; then
  for f in "$cases_dir"/*.sh "$cases_dir"/*.expect; do
    n=$(basename "$f")
    names+=("${n%.*}")
  done
fi
for name in "${names[@]}"; do
  work="$root/$name"
  mkdir -p "$work/home" "$work/cache" "$work/run"
  if [ -e "$cases_dir/$name.sh" ]; then
    why=$(cd "$work/run" && RB=$rb SRC=$src WORK="$work/run" HOME="$work/home" RULEBOOK_CACHE="$work/cache" \
          bash "$cases_dir/$name.sh" 2>&1)
  else
    why=$(cd "$work/run" && export HOME="$work/home" RULEBOOK_CACHE="$work/cache" && expect_case "$name")
  fi
  ok=$?
  injected=$(find "$work/run" -name 'INJECTED*' | head -n 1)
  if [ "$ok" = 0 ] && [ -z "$injected" ]; then
    passed=$((passed + 1))
    echo "ok: $name"
  else
    failed=$((failed + 1))
    echo "FAIL: $name: ${why:-a file $injected appeared}" | tail -n 5
  fi
done
echo "signals: $passed passed, $failed failed"
[ "$failed" = 0 ]
