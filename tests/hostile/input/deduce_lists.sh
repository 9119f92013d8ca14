#!/usr/bin/env bash
# `rulebook deduce` reads a list someone could hand around: a FIFO or a directory is refused
# without waiting, and a document of the wrong shape or types (numbers for names, an object
# for a parameter's values, a state that is no object, nesting a million deep) gets exit 1
# and a message naming the file, never a crash.
set -u
mkfifo pipe.json
timeout 10 "$RB" deduce pipe.json >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || { echo "FIFO: exit $rc, expected 1"; exit 1; }
grep -q "cannot read 'pipe.json': not a regular file" err.txt || { echo "FIFO: $(cat err.txt)"; exit 1; }
mkdir folder.json
"$RB" deduce folder.json >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "it is a directory" err.txt || { echo "directory: $(cat err.txt)"; exit 1; }
n=0
while IFS='|' read -r doc said; do
  n=$((n + 1))
  printf '%s\n' "$doc" >case$n.json
  timeout 20 "$RB" deduce case$n.json --quiet >out.txt 2>err.txt
  rc=$?
  [ "$rc" -eq 1 ] || { echo "case $n: exit $rc, expected 1 ($(head -c 300 err.txt))"; exit 1; }
  grep -qF -- "$said" err.txt || { echo "case $n: stderr $(head -c 300 err.txt), expected $said"; exit 1; }
done <<'CASES'
{"observe":[{"name":"a","parameter":"c","values":["x","y"]}],"list":[{"state":5,"values":{"a":[1,2]}}]}|case1.json: not a list of `rulebook explore --list` ([json.exception.type_error.302] type must be string, but is number)
{"observe":[{"name":5,"parameter":"c","values":["x"]}],"list":[]}|case2.json: not a list of `rulebook explore --list`
{"observe":[{"name":"a","parameter":"c","values":{"k":1}}],"list":[{"state":"00","values":{"a":[1,2]}}]}|case3.json: a has 2 values on a listed state, 1 expected
{"depth":"deep","observe":[],"list":[]}|case4.json: not a list of `rulebook explore --list`
{"observe":[{"name":"a","parameter":"c","values":["x","y"]}],"list":[5]}|case5.json: a listed state without values
{"observe":[{"name":"a","parameter":"c","values":["x","y"]}],"list":[]}|case6.json: the list holds no state
[1,2]|case7.json: not a list of `rulebook explore --list` (no "observe" and "list")
{"observe":[{"name":"a","parameter":"c","values":["x","y"]}],"list":[{"state":"00","values":{"b":[1,2]}}]}|case8.json: a listed state without a value of a
CASES
python3 -c "open('deep.json', 'w').write('{\"observe\": [], \"list\": ' + '[' * 1000000 + ']' * 1000000 + '}')"
"$RB" deduce deep.json >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "nothing to probe" err.txt || { echo "deep nesting: $(head -c 300 err.txt)"; exit 1; }
exit 0
