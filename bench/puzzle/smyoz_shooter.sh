#!/usr/bin/env bash
# The SMYOZ shooter's metric: shots needed to find hidden fleets (tests/cli/smyoz_shooter.py:
# the gallows given, then each turn the most informative shot, the fleets left counted
# exactly), one seed after another. Appends a JSON line per seed to OUT_FILE and prints the
# summary of every seed in it: found within 16 shots, shots (cells) and groups used, the
# fleets the gallows leave, CPU per game.
# Usage: bench/puzzle/smyoz_shooter.sh RULEBOOK_BINARY OUT_FILE FIRST_SEED LAST_SEED [--check]
set -eu
rb=${1:?usage: smyoz_shooter.sh RULEBOOK_BINARY OUT_FILE FIRST_SEED LAST_SEED [--check]}
out=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$src/tests/cli/smyoz_shooter.py" "$rb" "$src" $(seq "$3" "$4") --out "$out" ${5:-}
python3 "$src/tests/cli/smyoz_shooter.py" --summary "$out"
