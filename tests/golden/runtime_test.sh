#!/usr/bin/env bash
# Golden run-time errors: `rulebook play` of each runtime/NAME.rules prints exactly
# runtime/NAME.expected on stderr (the `engine:` line aside) and exits 1, with the interpreter
# and with the generated engine alike; under --json the error object on stdout agrees.
# A long game without an again loop stays a cut-off (exit 0). RULEBOOK_UPDATE_GOLDEN=1
# rewrites the expected files from the interpreter.
set -u
RB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
dir="$SRC/tests/golden/runtime"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RULEBOOK_CACHE="$work/cache"
cp "$dir"/*.rules "$work"/
cd "$work" || exit 1
failed=0
cases=0
for rules in *.rules; do
  name=${rules%.rules}
  cases=$((cases + 1))
  for engine in interp compiled; do
    "$RB" play "$rules" --engine "$engine" --seed 1 --boards end >/dev/null 2>"$name.$engine.err"
    code=$?
    grep -v '^engine: ' "$name.$engine.err" >"$name.$engine.got"
    if [ "${RULEBOOK_UPDATE_GOLDEN:-}" = 1 ] && [ "$engine" = interp ]; then
      cp "$name.interp.got" "$dir/$name.expected"
    fi
    if [ "$code" != 1 ]; then
      echo "FAIL $name ($engine): exit $code, expected 1"
      failed=$((failed + 1))
    elif ! diff -u "$dir/$name.expected" "$name.$engine.got"; then
      echo "FAIL $name ($engine): stderr differs from $name.expected"
      failed=$((failed + 1))
    fi
  done
  # --json: the same error, located, as one object on stdout.
  "$RB" play "$rules" --engine interp --seed 1 --json >"$name.json" 2>/dev/null
  first=$(head -n 1 "$dir/$name.expected")
  if ! python3 - "$name.json" "$first" 2>/dev/null <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["error"]
where = "{}:{}:{}: error: {}".format(e["file"], e["line"], e["column"], e["message"])
assert e["code"] == 1 and e["kind"] == "input", e
assert where == sys.argv[2], (where, sys.argv[2])
PY
  then
    echo "FAIL $name (--json): no error object matching '$first'"
    failed=$((failed + 1))
  fi
done
# A game that only runs long is cut off by the length limit: no error, exit 0.
cat >long.rules <<'RULES'
game "Long";
board 1 x 3;
players 2;
state b: bool;
phase p {
  move flip {
    b := not b;
  }
}
RULES
# With one player every move keeps the turn: an again behind a condition that did not run
# makes no again loop either.
cat >solo.rules <<'RULES'
game "Solo";
board 1 x 3;
players 1;
state b: bool;
phase p {
  move flip {
    b := not b;
    if b { again; }
  }
}
RULES
for game in long solo; do
  for engine in interp compiled; do
    out=$("$RB" play "$game.rules" --engine "$engine" --max-plies 50 --boards end 2>&1)
    code=$?
    if [ "$code" != 0 ] || ! grep -q '^cut off after 50 moves' <<<"$out"; then
      echo "FAIL $game game ($engine): exit $code, expected a cut-off with exit 0"
      failed=$((failed + 1))
    fi
  done
done
echo "runtime golden: $cases cases, $failed failures"
[ "$failed" = 0 ]
