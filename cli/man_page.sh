#!/bin/sh
# Writes the rulebook(1) man page, in roff, from the help texts of RULEBOOK and its verbs.
# Usage: man_page.sh RULEBOOK [OUTPUT]  (stdout without OUTPUT)
set -eu
rulebook=$1
if [ $# -ge 2 ]; then exec >"$2"; fi

# Roff reads a leading dot or quote as a request and a backslash as an escape.
escape() {
  sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

verbs=$("$rulebook" --help | awk '/^Subcommands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
version=$("$rulebook" --version | awk '{ print $NF }')

printf '.TH RULEBOOK 1 "" "rulebook %s" "User Commands"\n' "$version"
printf '.SH NAME\nrulebook \\- write, check, run, prove and draw board-game rules\n'
printf '.SH SYNOPSIS\n.B rulebook\n.I VERB\n[\\fIOPTIONS\\fR] [\\fIFILE\\fR...]\n.br\n'
printf '.B rulebook\n\\-\\-version | \\-\\-help\n'
printf '.SH DESCRIPTION\n'
printf 'Each verb reads rules files (\\fB.rules\\fR); a FILE of \\fB\\-\\fR reads standard input, and an\n'
printf '\\fBextends\\fR in it is resolved against the working directory. The sections below are the\n'
printf 'help of each verb, as \\fBrulebook VERB \\-\\-help\\fR prints it.\n'
printf '.PP\n.nf\n'
"$rulebook" --help | escape
printf '.fi\n.SH VERBS\n'
for verb in $verbs; do
  printf '.SS %s\n.nf\n' "$verb"
  "$rulebook" "$verb" --help | escape
  printf '.fi\n'
done
cat <<'ROFF'
.SH EXIT STATUS
.TP
.B 0
success
.TP
.B 1
a rules file (or other input) is wrong, or an output cannot be written
.TP
.B 2
the command line is wrong
.TP
.B 3
an internal error of rulebook
.TP
.B 4
stopped by \-\-max\-memory; what was finished is printed
.TP
.B 5
prove: nothing refuted or unknown, but a property's set of boards or moves is empty
.TP
.B 130
interrupted by Ctrl\-C; what was finished is printed
.SH ENVIRONMENT
.TP
.B NO_COLOR
when set and not empty, diagnostics are never coloured (they are only on a terminal)
.TP
.B RULEBOOK_CACHE
the directory of compiled engines
.TP
.B CXX
the C++ compiler that compiles engines at run time
.SH SEE ALSO
The language reference (docs/language.md) and editor support (docs/editors.md).
ROFF
