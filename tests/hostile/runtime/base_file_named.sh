#!/usr/bin/env bash
# An error in a base file names that file as the loader reached it, in both engines alike.
mkdir -p lib
printf 'game "Base";\nboard 1 x 3;\nplayers 1;\nstate n: 0..1;\nphase p {\n  move bump {\n    n += 1;\n  }\n}\n' > lib/base.rules
printf 'variant "House" extends "lib/base.rules";\n' > house.rules
for e in interp compiled; do
  out=$("$RB" play house.rules --seed 1 --engine "$e" 2>&1 >/dev/null); rc=$?
  [ "$rc" = 1 ] || { echo "$e: exit $rc, expected 1"; exit 1; }
  grep -qF "lib/base.rules:7:5: error: value 2 is outside 0..1 (stored in 'n')" <<<"$out" ||
    { echo "$e: no located error naming lib/base.rules: $out"; exit 1; }
  eval "out_$e=\$(grep -F ': error: ' <<<\"\$out\")"
done
[ "$out_interp" = "$out_compiled" ] || { echo "the engines word the error differently: '$out_interp' / '$out_compiled'"; exit 1; }
