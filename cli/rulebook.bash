# bash completion of rulebook: verbs, each verb's options (read from its --help), .rules files.
# Installed as share/bash-completion/completions/rulebook; or `source` it from ~/.bashrc.

_rulebook_verbs() {
  "$1" --help 2>/dev/null | awk '/^Subcommands:/ { on = 1; next } on && !NF { exit } on { print $1 }'
}

_rulebook() {
  local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]}
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_rulebook_verbs "$prog") --help --version" -- "$cur")
    return
  fi
  local verb=${COMP_WORDS[1]}
  if [[ $cur == -* ]]; then
    local options
    options=$("$prog" "$verb" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[A-Za-z][-A-Za-z0-9]*' |
      tr -d ' ,' | sort -u)
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    return
  fi
  # Files: the .rules files and directories (report takes either).
  mapfile -t COMPREPLY < <(compgen -f -X '!*.rules' -- "$cur"; compgen -d -- "$cur")
}

complete -o filenames -F _rulebook rulebook
