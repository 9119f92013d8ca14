#!/usr/bin/env bash
# The command line's habits: --version, "did you mean" for verbs, `-` for stdin, colour on
# terminals only, examples in the help, bash completion, the man page, cmake --install.
# Usage: habits_test.sh RULEBOOK_BINARY SOURCE_DIR BUILD_DIR
set -u
rb=$(realpath "$1")
src=$2
build=$3
cd "$src"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RULEBOOK_CACHE="$work/cache"
unset NO_COLOR
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

has() {  # has NAME NEEDLE HAYSTACK
  case "$3" in
    *"$2"*) passed=$((passed + 1)) ;;
    *) failed=$((failed + 1)); echo "FAIL: $1: [$2] not in [$3]" ;;
  esac
}

fill=variants/sudoku-fill

# --version
check "--version" "rulebook 0.1" "$("$rb" --version)"

# "did you mean" for verbs
err=$("$rb" chek $fill/fill-4x4.rules 2>&1 >/dev/null)
check "a misspelt verb exits 2" 2 "$("$rb" chek >/dev/null 2>&1; echo $?)"
check "a misspelt verb is named, with the verb meant" \
  "rulebook: unknown verb 'chek'|help: did you mean 'check'?" "$(echo "$err" | head -n 2 | paste -sd '|')"
err=$("$rb" zzzzzzzz 2>&1)
check "a word far from every verb has no guess" "" "$(echo "$err" | grep 'did you mean')"
has "the verbs are listed" "the verbs are: check, fmt," "$err"

# `-` reads standard input
check "check - summarises as check FILE (named <stdin>)" \
  "$("$rb" check $fill/fill-4x4.rules | sed "s|$fill/fill-4x4.rules|<stdin>|")" "$("$rb" check - <$fill/fill-4x4.rules)"
check "fmt - prints as fmt FILE" "$("$rb" fmt $fill/fill-4x4.rules)" "$("$rb" fmt - <$fill/fill-4x4.rules)"
check "fmt --write - prints (nothing to rewrite)" "$("$rb" fmt $fill/fill-4x4.rules)" \
  "$("$rb" fmt --write - <$fill/fill-4x4.rules)"
# An `extends` from stdin resolves against the working directory.
(cd $fill && "$rb" check -q - <fill-6x6.rules)
check "extends from stdin resolves against the cwd" 0 $?
"$rb" check -q - <$fill/fill-6x6.rules 2>"$work/err"
check "... and not elsewhere" 1 $?
has "... which the diagnostic says" "<stdin>:10:" "$(cat "$work/err")"
printf 'game "x";\nboard 3 x 3;\nplayers 1;\nstate s: 0..3 = widt;\n' | "$rb" check - 2>"$work/err" >/dev/null
check "an error from stdin exits 1" 1 $?
has "an error from stdin is located in <stdin>" "<stdin>:4:17: error: unknown name 'widt'" "$(cat "$work/err")"
check "perft - counts as perft FILE" "depth 16: 288" \
  "$("$rb" perft - --depth 16 --engine interp <$fill/fill-4x4.rules 2>/dev/null | tail -n 1)"

# Colour: on a terminal only, never with NO_COLOR, never piped.
bad="$work/bad.rules"
printf 'game "x";\nboard 3 x 3;\nplayers 1;\nstate s: 0..3 = widt;\n' >"$bad"
esc=$'\033'
piped=$("$rb" check "$bad" 2>&1)
check "piped diagnostics have no colour" "" "$(echo "$piped" | grep -c "$esc" | grep -v '^0$')"
if command -v script >/dev/null; then
  tty=$(TERM=xterm script -qec "'$rb' check '$bad'" /dev/null)
  has "a terminal gets a red error" "${esc}[1;31merror${esc}[0m: unknown name 'widt'" "$tty"
  has "... and a green help" "${esc}[1;32mhelp${esc}[0m:" "$tty"
  tty=$(TERM=xterm NO_COLOR=1 script -qec "'$rb' check '$bad'" /dev/null)
  check "NO_COLOR turns colour off" "0" "$(echo "$tty" | grep -c "$esc")"
  tty=$(TERM=dumb script -qec "'$rb' check '$bad'" /dev/null)
  check "TERM=dumb turns colour off" "0" "$(echo "$tty" | grep -c "$esc")"
fi

# Examples and defaults in the help
has "the main help has examples" "rulebook check variants/*/*.rules" "$("$rb" --help)"
has "a verb's help has examples" "rulebook fmt --write game.rules" "$("$rb" fmt --help)"
has "an option shows its default" "--max-plies INT=10000" "$("$rb" play --help)"
check "a 0 that means no limit is not shown as a default" "" "$("$rb" explore --help | grep -e '--max-states' | grep -F '=0')"
has "a 0 the description explains is shown" "--breadth INT:NONNEGATIVE=0" "$("$rb" tree --help)"
has "a FILE argument says - reads stdin" "(- reads standard input)" "$("$rb" play --help)"

# Bash completion, through its functions
words=$(
  PATH="$(dirname "$rb"):$PATH"
  source cli/rulebook.bash
  COMP_WORDS=(rulebook ch); COMP_CWORD=1; _rulebook; echo "${COMPREPLY[*]}"
  COMP_WORDS=(rulebook fmt --wr); COMP_CWORD=2; _rulebook; echo "${COMPREPLY[*]}"
  cd $fill && COMP_WORDS=(rulebook check fill-6); COMP_CWORD=2; _rulebook; echo "${COMPREPLY[*]}"
)
check "completion of verbs, options and .rules files" "check|--write|fill-6x6.rules" "$(echo "$words" | paste -sd '|')"

# The man page, from the help
man="$work/rulebook.1"
cli/man_page.sh "$rb" "$man"
check "the man page is written" 0 $?
has "the man page has a title" ".TH RULEBOOK 1" "$(head -n 1 "$man")"
check "the man page has a section per verb" "$("$rb" --help | awk '/^Subcommands:/{on=1;next} on&&!NF{exit} on{n++} END{print n}')" \
  "$(grep -c '^\.SS ' "$man")"
if command -v groff >/dev/null; then
  check "groff reads the man page without warnings" "" "$(groff -man -Tutf8 -ww "$man" 2>&1 >/dev/null)"
fi

# cmake --install
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
check "cmake --install succeeds" 0 $?
for f in bin/rulebook share/man/man1/rulebook.1 share/bash-completion/completions/rulebook \
  share/doc/rulebook/README.md share/doc/rulebook/editors.md share/doc/rulebook/language.md \
  share/rulebook/editors/vscode/package.json share/rulebook/editors/vscode/extension.js \
  share/rulebook/editors/vscode/syntaxes/rules.tmLanguage.json; do
  check "installed: $f" yes "$([ -f "$prefix/$f" ] && echo yes || echo no)"
done
check "the installed binary runs" "rulebook 0.1" "$("$prefix/bin/rulebook" --version)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
