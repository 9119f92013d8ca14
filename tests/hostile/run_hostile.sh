#!/usr/bin/env bash
# Runs the hostile-input corpus: every case under tests/hostile/AREA/ against the rulebook binary.
# Usage: run_hostile.sh RULEBOOK_BINARY SOURCE_DIR [AREA/NAME-PATTERN]
# A case is NAME.rules + NAME.expect, or a NAME.sh script; README.md says what each key means.
set -u
rb=$(realpath "$1")
src=$(realpath "$2")
pattern=${3:-}
passed=0
failed=0
failures=()

fail() {  # fail CASE REASON
  failed=$((failed + 1))
  failures+=("$1")
  echo "FAIL $1: $2"
}

# Every case runs in a fresh folder with its own HOME and a private engine cache, so no case
# sees another's engines and a smuggled file can only land where the runner looks for it.
fresh() {
  work=$(mktemp -d)
  mkdir -p "$work/home" "$work/cache" "$work/run"
  chmod 700 "$work/home" "$work/cache"
}

injected() {  # prints the smuggled files a case left, if any
  find "$work" "${TMPDIR:-/tmp}" -maxdepth 3 -name 'INJECTED*' -newer "$work/home" 2>/dev/null | head -n 3
}

run_expect() {  # run_expect CASE EXPECT_FILE RULES_FILE
  local name=$1 expect=$2 rules=$3
  local run="" want_exit="" limit=30 line key value
  local -a need_err=() need_out=() absent=()
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    key=${line%%:*}
    value=${line#*:}
    value=${value# }
    case "$key" in
      run) run=$value ;;
      exit) want_exit=$value ;;
      stderr) need_err+=("$value") ;;
      stdout) need_out+=("$value") ;;
      absent) absent+=("$value") ;;
      timeout) limit=$value ;;
      *) fail "$name" "unknown key '$key' in $(basename "$expect")"; return ;;
    esac
  done <"$expect"
  if [ -z "$run" ] || [ -z "$want_exit" ]; then
    fail "$name" "the .expect file needs 'run:' and 'exit:'"
    return
  fi
  local -a args
  read -ra args <<<"$run"
  local i
  for i in "${!args[@]}"; do [ "${args[$i]}" == FILE ] && args[$i]=$rules; done
  local started rc
  started=$(date +%s)
  (cd "$work/run" && HOME="$work/home" RULEBOOK_CACHE="$work/cache" NO_COLOR=1 \
     timeout -k 2 "$limit" "$rb" "${args[@]}" </dev/null >"$work/out" 2>"$work/err")
  rc=$?
  if [ "$rc" == 124 ] || [ "$rc" == 137 ]; then
    fail "$name" "still running after ${limit}s"
    return
  fi
  if [ "$rc" != "$want_exit" ]; then
    fail "$name" "exit $rc, expected $want_exit; stderr: $(head -c 300 "$work/err" | tr '\n' ' ')"
    return
  fi
  local text
  for text in "${need_err[@]+"${need_err[@]}"}"; do
    grep -qF -- "$text" "$work/err" || { fail "$name" "stderr lacks [$text]: $(head -c 300 "$work/err" | tr '\n' ' ')"; return; }
  done
  for text in "${need_out[@]+"${need_out[@]}"}"; do
    grep -qF -- "$text" "$work/out" || { fail "$name" "stdout lacks [$text]: $(head -c 300 "$work/out" | tr '\n' ' ')"; return; }
  done
  for text in "${absent[@]+"${absent[@]}"}"; do
    if grep -qF -- "$text" "$work/out" "$work/err"; then fail "$name" "output holds [$text]"; return; fi
  done
  passed=$((passed + 1))
  echo "ok   $name ($(( $(date +%s) - started ))s)"
}

run_script() {  # run_script CASE SCRIPT
  local name=$1 script=$2 rc
  (cd "$work/run" && HOME="$work/home" RULEBOOK_CACHE="$work/cache" NO_COLOR=1 \
     RB="$rb" SRC="$src" WORK="$work/run" timeout -k 2 120 bash "$script" </dev/null >"$work/out" 2>&1)
  rc=$?
  if [ "$rc" != 0 ]; then
    fail "$name" "script exit $rc: $(tail -c 400 "$work/out" | tr '\n' ' ')"
    return
  fi
  passed=$((passed + 1))
  echo "ok   $name"
}

shopt -s nullglob
for case_file in "$src"/tests/hostile/*/*.expect "$src"/tests/hostile/*/*.sh; do
  area=$(basename "$(dirname "$case_file")")
  base=$(basename "$case_file")
  name="$area/${base%.*}"
  if [ -n "$pattern" ] && [[ "$name" != $pattern ]]; then continue; fi
  fresh
  case "$case_file" in
    *.expect)
      rules="${case_file%.expect}.rules"
      if [ -e "$rules" ]; then run_expect "$name" "$case_file" "$rules"
      else fail "$name" "no $(basename "$rules") beside it"; fi ;;
    *.sh) run_script "$name" "$case_file" ;;
  esac
  left=$(injected)
  if [ -n "$left" ]; then
    # The case may have passed on its output; code from the file ran all the same.
    fail "$name" "code from the input ran: it left $left"
    rm -f $left
  fi
  chmod -R u+w "$work" 2>/dev/null
  rm -rf "$work"
done

echo "hostile inputs: $passed passed, $failed failed"
[ "$failed" == 0 ] && [ "$passed" -gt 0 ]
