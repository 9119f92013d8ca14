#!/usr/bin/env bash
# A title and a diagnosed line carrying ESC [2J (clear screen) and bidi overrides reach the
# terminal escaped: `check`'s summary, its diagnostics and `play` print no raw control
# bytes, and show them as \x1b and \u{202e}.
. "$SRC/tests/hostile/case_lib.sh"
esc=$(printf '\033')
rlo=$(printf '\342\200\256')   # U+202E RIGHT-TO-LEFT OVERRIDE
lri=$(printf '\342\201\246')   # U+2066 LEFT-TO-RIGHT ISOLATE
tiny_rules game.rules "Clear${esc}[2J me ${rlo}txet${lri}"
raw() { grep -q "$esc" "$1" || grep -q "$rlo" "$1" || grep -q "$lri" "$1"; }
timeout 20 "$RB" check game.rules >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 0 ] || { echo "check: exit $rc ($(head -c 300 err.txt))"; exit 1; }
if raw out.txt || raw err.txt; then echo "check printed a raw control character"; exit 1; fi
grep -qF 'Clear\x1b[2J me \u{202e}txet\u{2066}' out.txt || { echo "summary: $(head -3 out.txt)"; exit 1; }
timeout 60 "$RB" play game.rules --engine interp --seed 1 >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 0 ] || { echo "play: exit $rc ($(head -c 300 err.txt))"; exit 1; }
if raw out.txt || raw err.txt; then echo "play printed a raw control character"; exit 1; fi
grep -qF '\x1b[2J' out.txt || { echo "play: $(head -3 out.txt)"; exit 1; }
# A diagnostic quoting a line with the same characters, and a message naming them.
printf 'game "x";\nboard 2 x 2;\nplayers 1;\ndefine a: int = %s[2J + %sq;\n' "$esc" "$rlo" >bad.rules
timeout 20 "$RB" check bad.rules >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || { echo "bad: exit $rc"; exit 1; }
if raw out.txt || raw err.txt; then echo "a diagnostic printed a raw control character"; exit 1; fi
grep -qF '\x1b' err.txt || { echo "diagnostic: $(cat err.txt)"; exit 1; }
