#!/usr/bin/env bash
# A run-time error names the rules file by the path the user gave; control bytes in that
# path reach the terminal escaped, from the play loop, perft and explore, in both engines.
name=$'evil\e[2J\r.rules'
printf 'game "Esc";\nboard 1 x 3;\nplayers 1;\nstate n: 0..1;\nphase p {\n  move bump {\n    n += 1;\n  }\n}\n' > "$name"
for e in interp compiled; do
  for verb in "play --seed 1" "perft --depth 3" "explore --depth 3"; do
    out=$("$RB" $verb "$name" --engine "$e" 2>&1); rc=$?
    [ "$rc" = 1 ] || { echo "$verb --engine $e: exit $rc, expected 1"; exit 1; }
    grep -q $'\e' <<<"$out" && { echo "$verb --engine $e: a raw ESC reached the terminal"; exit 1; }
    grep -q $'\r' <<<"$out" && { echo "$verb --engine $e: a raw CR reached the terminal"; exit 1; }
    grep -qF ".rules:7:5: error: value 2 is outside 0..1 (stored in 'n')" <<<"$out" ||
      { echo "$verb --engine $e: no located error: $out"; exit 1; }
  done
done
exit 0
