#!/usr/bin/env bash
# A rules file whose name holds newlines, a CR, a backslash, quotes and C++: the name
# reaches the generated engine only as string literals, so the engine compiles, counts as
# the rules say, never runs the C++, and its source holds no raw control byte.
set -u
name=$'x\nextern "C" int creat(const char*, unsigned); static int kInjected = creat("INJECTED_name", 0644);\n\r* \\ é.rules'
cat > "$WORK/$name" <<'RULES'
game "file name";
board 2 x 2;
players 2;
state mark: Cell -> 0..2;
phase play {
  move put(c: Cell)
    requires mark[c] == 0;
  {
    mark[c] := seat(mover);
  }
  when stuck { end; }
}
score p = count d in cells where mark[d] == seat(p);
winner highest;
RULES
out=$("$RB" perft "$WORK/$name" --depth 2 2>"$WORK/err.txt")
code=$?
if [ "$code" != 0 ]; then echo "perft exited $code: $(head -c 300 "$WORK/err.txt")"; exit 1; fi
case "$out" in *12*) ;; *) echo "perft 2 is not 12: $out"; exit 1;; esac
"$RB" compile "$WORK/$name" -o "$WORK/engine.cpp" 2>"$WORK/err.txt" || { echo "compile failed: $(head -c 300 "$WORK/err.txt")"; exit 1; }
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f\x80-\xff]' "$WORK/engine.cpp"; then
  echo "the generated source holds a raw control or non-ASCII byte"; exit 1
fi
if grep -n '//.*\(creat\|INJECTED\)' "$WORK/engine.cpp" >/dev/null; then
  echo "a comment of the generated source holds the file name"; exit 1
fi
rm -f "$WORK/engine.cpp" "$WORK/err.txt"
exit 0
