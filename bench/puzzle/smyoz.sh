#!/usr/bin/env bash
# Generation time of SMYOZ puzzles per puzzle (tests/cli/smyoz_generate.sh: a random legal
# fleet, a candidate of an origin and two groups, the origin and the gallows shown needed and
# the groups the rest imply dropped by enumeration counts), one seed after another; prints
# each seed's line, then the medians of the accepted seeds and the CPU spent on rejected ones.
# Usage: bench/puzzle/smyoz.sh RULEBOOK_BINARY OUT_FILE FIRST_SEED LAST_SEED
set -u
rb=${1:?usage: smyoz.sh RULEBOOK_BINARY OUT_FILE FIRST_SEED LAST_SEED}
out=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$src/tests/cli/smyoz_generate.sh" "$rb" "$src" "$out" $(seq "$3" "$4") | tee "$log"
python3 - "$log" <<'PY'
import re, statistics, sys
gen, shots, rejected = [], [], []
for line in open(sys.argv[1]):
    m = re.match(r"seed \d+: ok .* generation (\d+) s: (.*)", line)
    if m:
        gen.append(int(m.group(1)))
        args = m.group(2).split()
        shots.append(sum(len(a.split("=")[1].split("/")) for a in args[1:] if "=" in a) + (args[0] != "-"))
    m = re.match(r"seed \d+: rejected: .*\(generation (\d+) s\)", line)
    if m:
        rejected.append(int(m.group(1)))
print(f"{len(gen)} puzzles, {len(rejected)} seeds rejected ({sum(rejected)} s of CPU)")
if gen:
    print(f"CPU per puzzle: median {statistics.median(gen)} s (range {min(gen)} to {max(gen)}); "
          f"with the rejected seeds' share: {(sum(gen) + sum(rejected)) / len(gen):.0f} s; "
          f"shots median {statistics.median(shots)} (range {min(shots)} to {max(shots)})")
PY
