#!/usr/bin/env bash
# Random playouts/s of RBG's compiled reasoners (rbg2cpp) against `rulebook bench` on the
# plainly written games of bench/plain, measured in one run on this machine.
#
#   bench/rbg/run.sh RBG [--runs N] [--seconds S] [--rulebook BINARY] [--work DIR]
#
# RBG: a checkout of rbg2cpp (https://github.com/uicus/rbg2cpp, with its submodules
# rbgParser and rbgGames) or of the umbrella repository https://github.com/marekesz/rbg
# (submodules populated), or a git URL of either, cloned with --recurse-submodules into the
# work directory. Nothing of RBG is copied into this project: its compiler is built in the
# checkout, its reasoners and drivers in the work directory.
#
# Both sides are compiled by the same compiler with the same flags: those `rulebook bench`
# reports for the engine it compiled at run time (the plain files are not linked into
# rulebook), without -shared. Each round runs every game on both sides once (interleaved, so
# a change of the machine's load falls on both); the table gives medians over the rounds.
# Times are CPU times: RBG's is its process's user + system time for the playouts (a
# count calibrated to about S seconds; its start-up is a few milliseconds), rulebook's the
# measuring thread's, as `rulebook bench` reports it. Before measuring, RBG's perft at a
# small depth is compared with rulebook's on each game, so the two play the same game.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
runs=3
seconds=1
rulebook="$src/build/cli/rulebook"
work=""
rbg=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rulebook) rulebook=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) if [ -z "$rbg" ]; then rbg=$1; shift; else echo "run.sh: unexpected argument $1" >&2; exit 2; fi ;;
  esac
done
if [ -z "$rbg" ]; then
  echo "usage: run.sh RBG_CHECKOUT_OR_URL [--runs N] [--seconds S] [--rulebook BINARY] [--work DIR]" >&2
  exit 2
fi
[ -x "$rulebook" ] || { echo "run.sh: no rulebook binary at $rulebook (build first: tools/build)" >&2; exit 2; }
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

# ---------------------------------------------------------------- RBG's compiler
if [ ! -d "$rbg" ]; then
  echo "cloning $rbg" >&2
  git clone -q --recurse-submodules "$rbg" "$work/rbg-checkout"
  rbg="$work/rbg-checkout"
fi
rbg=$(cd "$rbg" && pwd)
if [ -f "$rbg/src/game_compiler.cpp" ]; then r2c=$rbg
elif [ -f "$rbg/rbg2cpp/src/game_compiler.cpp" ]; then r2c=$rbg/rbg2cpp
else echo "run.sh: $rbg is neither an rbg2cpp nor an rbg checkout" >&2; exit 2
fi
games_dir=""
for d in "$r2c/rbgGames/games" "$rbg/rbgGames/games"; do
  [ -f "$d/ticTacToe.rbg" ] && { games_dir=$d; break; }
done
[ -n "$games_dir" ] || { echo "run.sh: no rbgGames/games in $rbg (submodules not populated?)" >&2; exit 2; }
[ -d "$r2c/rbgParser/src" ] ||
  { echo "run.sh: no rbgParser in $r2c (submodules not populated?)" >&2; exit 2; }
if [ ! -x "$r2c/bin/rbg2cpp" ]; then
  echo "building rbg2cpp in $r2c" >&2
  make -C "$r2c" -s rbg2cpp >"$work/rbg2cpp-build.log" 2>&1 ||
    { tail -n 30 "$work/rbg2cpp-build.log" >&2; exit 1; }
fi

# ---------------------------------------------------------------- the games
names=(tictactoe connect4 breakthrough)
declare -A rbg_game=([tictactoe]=ticTacToe [connect4]=connect4 [breakthrough]=breakthrough)
declare -A title=([tictactoe]="tic-tac-toe" [connect4]="Connect-4 7x6" [breakthrough]="breakthrough 8x8")
declare -A check_depth=([tictactoe]=9 [connect4]=7 [breakthrough]=4)

json_field() {  # json_field FILE PYTHON_EXPRESSION_OVER_j
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}

# The flags rulebook compiles its run-time engines with (warms the engine cache, too).
"$rulebook" bench "$src/bench/plain/tictactoe.rules" --games 1 --depth 0 --runs 1 --json \
  >"$work/flags.json" 2>/dev/null
build=$(json_field "$work/flags.json" 'j["build"]')
read -r -a words <<<"$build"
cxx=()
flags=()
for w in "${words[@]}"; do
  case "$w" in
    -shared) ;;
    -*) flags+=("$w") ;;
    *) if [ ${#flags[@]} -eq 0 ]; then cxx+=("$w"); else flags+=("$w"); fi ;;
  esac
done
echo "compiler and flags of both sides: ${cxx[*]} ${flags[*]}" >&2

for g in "${names[@]}"; do
  d="$work/$g"
  mkdir -p "$d"
  (cd "$d" && "$r2c/bin/rbg2cpp" -o reasoner "$games_dir/${rbg_game[$g]}.rbg" >/dev/null)
  for driver in simulation perft; do
    "${cxx[@]}" "${flags[@]}" -DRBG_RANDOM_GENERATOR=0 -I"$d" -I"$r2c/test" \
      "$d/reasoner.cpp" "$r2c/test/$driver.cpp" -o "$d/$driver"
  done
  # The same game on both sides: perft at a small depth.
  theirs=$("$d/perft" "${check_depth[$g]}" | sed -n 's/^perft: //p')
  ours=$("$rulebook" perft "$src/bench/plain/$g.rules" --depth "${check_depth[$g]}" --quiet | tail -n 1 |
         sed 's/^depth [0-9]*: //')
  if [ "$theirs" != "$ours" ]; then
    echo "run.sh: perft $g depth ${check_depth[$g]}: RBG $theirs, rulebook $ours: not the same game" >&2
    exit 1
  fi
  echo "$g: perft depth ${check_depth[$g]} $ours on both sides" >&2
done

# CPU seconds (user + system) of a command, its output discarded.
cpu_seconds() {
  local TIMEFORMAT='%3U %3S'
  local t
  t=$( { time "$@" >/dev/null; } 2>&1 )
  awk '{print $1 + $2}' <<<"$t"
}

# Playout counts giving about `seconds` of CPU on each side.
declare -A rbg_n rb_n
for g in "${names[@]}"; do
  t=$(cpu_seconds "$work/$g/simulation" 2000)
  rbg_n[$g]=$(awk -v t="$t" -v s="$seconds" 'BEGIN { n = t > 0 ? int(2000 * s / t) : 200000; print n < 2000 ? 2000 : n }')
  "$rulebook" bench "$src/bench/plain/$g.rules" --games 200 --depth 0 --runs 1 --json >"$work/cal.json" 2>/dev/null
  t=$(json_field "$work/cal.json" 'j["playouts"]["seconds"]')
  rb_n[$g]=$(awk -v t="$t" -v s="$seconds" 'BEGIN { n = t > 0 ? int(200 * s / t) : 20000; print n < 200 ? 200 : n }')
done

declare -A rbg_rates rb_rates
for ((r = 1; r <= runs; r++)); do
  for g in "${names[@]}"; do
    t=$(cpu_seconds "$work/$g/simulation" "${rbg_n[$g]}")
    rbg_rates[$g]+="$(awk -v n="${rbg_n[$g]}" -v t="$t" 'BEGIN { print n / t }') "
    "$rulebook" bench "$src/bench/plain/$g.rules" --games "${rb_n[$g]}" --depth 0 --runs 1 --json \
      >"$work/run.json" 2>/dev/null
    rb_rates[$g]+="$(json_field "$work/run.json" 'j["playouts"]["playouts_per_second"]') "
  done
  echo "round $r of $runs done" >&2
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "random playouts/s, median of $runs rounds, CPU time; both compiled with: ${cxx[*]} ${flags[*]}"
printf '%-18s %16s %20s %16s\n' game "RBG playouts/s" "rulebook playouts/s" "rulebook/RBG"
for g in "${names[@]}"; do
  a=$(median <<<"${rbg_rates[$g]}")
  b=$(median <<<"${rb_rates[$g]}")
  printf '%-18s %16.0f %20.0f %15.2fx\n' "${title[$g]}" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
done
