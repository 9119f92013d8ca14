#!/usr/bin/env bash
# Every verb that has --json prints an error as JSON on stdout and keeps the exit code of
# the README's table: a usage error (2), a missing file and a rules file that does not
# check (1), and a run-time error of the rules (1). The object is
# {"error": {"code", "kind", "message", "file", "line", "column"}} (docs/cli.md); `check`
# prints its diagnostics array as before.
set -u
RB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RULEBOOK_CACHE="$work/cache"
cd "$work" || exit 1
printf 'game "x";\nboard 1 x 3;\nplayers 1;\nphase p {\n  move m {\n    nope := 1;\n  }\n}\n' >bad.rules
printf 'game "s";\nboard 1 x 3;\nplayers 1;\nstate n: 0..1;\nphase p {\n  move bump {\n    n += 1;\n  }\n}\n' >store.rules
failed=0
checks=0
# expect VERB_ARGS... : runs `rulebook ARGS --json` and checks stdout against the exit code.
expect() {
  local want_code=$1 want_line=$2
  shift 2
  checks=$((checks + 1))
  "$RB" "$@" --json >out.json 2>err.txt
  local code=$?
  if [ "$code" != "$want_code" ]; then
    echo "FAIL rulebook $* --json: exit $code, expected $want_code"; cat err.txt
    failed=$((failed + 1))
    return
  fi
  if ! python3 - out.json "$want_code" "$want_line" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
code, line = int(sys.argv[2]), sys.argv[3]
if isinstance(doc, list):  # check: its diagnostics
    assert any(d["severity"] == "error" for f in doc for d in f["diagnostics"]), doc
    sys.exit(0)
e = doc["error"]
assert e["code"] == code, e
assert e["kind"] == {1: "input", 2: "usage"}[code], e
assert isinstance(e["message"], str) and e["message"], e
if line != "-":
    assert e["line"] == int(line) and e["column"] >= 1 and e["file"], e
PY
  then
    echo "FAIL rulebook $* --json: stdout is not the error as JSON:"; cat out.json
    failed=$((failed + 1))
  fi
}
for verb in check play perft explore prove bench lint; do
  depth=()
  [ "$verb" = perft ] && depth=(--depth 2)
  expect 2 - "$verb" bad.rules "${depth[@]}" --no-such-option
  expect 1 1 "$verb" missing.rules "${depth[@]}"
  expect 1 6 "$verb" bad.rules "${depth[@]}"
done
expect 2 - chek bad.rules
expect 2 - play
# A run-time error of the rules, with both engines where the verb runs one.
for engine in interp compiled; do
  expect 1 7 play store.rules --engine "$engine"
  expect 1 7 perft store.rules --depth 3 --engine "$engine"
  expect 1 7 bench store.rules --engine "$engine" --runs 1 --games 2 --depth 2
  expect 1 7 explore store.rules --engine "$engine"
done
# play's error object says where in the game.
"$RB" play store.rules --engine interp --json >out.json 2>/dev/null
python3 - out.json <<'PY' || { echo "FAIL play's error object lacks the game"; failed=$((failed + 1)); }
import json, sys
e = json.load(open(sys.argv[1]))["error"]
assert (e["player"], e["move"], e["ply"], e["board"]) == ("p1", "bump", 2, "n = 1\n"), e
PY
echo "json errors: $checks runs, $failed failures"
[ "$failed" = 0 ]
