#!/bin/bash
# The generated SMYOZ puzzles of variants/smyoz/smyoz-generated.txt solved again apart from
# their generation: every entry's fleets counted by enumeration (smyoz_enumerate.sh --data),
# one fleet each; the entries against their generator lines (the answers of the fleet the
# seed draws, number for number).
#   smyoz_generated_test.sh RULEBOOK SOURCE
set -euo pipefail
rulebook=$1
source_dir=$2
data="$source_dir/variants/smyoz/smyoz-generated.txt"
n=$(grep -c '^# made by: ' "$data")
[ "$n" -ge 1 ] || { echo "no entry in $data" >&2; exit 1; }
# Each entry is what its generator line makes of the seed's fleet.
python3 - "$data" "$source_dir/tests/cli" <<'PY'
import subprocess, sys
sys.path.insert(0, sys.argv[2])
from smyoz_minimise import read_entries
made_by = []
entries = read_entries(sys.argv[1], made_by)
for k, (e, args) in enumerate(zip(entries, made_by), 1):
    out = subprocess.run([sys.executable, sys.argv[2] + "/smyoz_puzzle_entry.py"] + args,
                         capture_output=True, text=True, check=True).stdout
    again = [int(v) for line in out.splitlines() for v in line.split("#", 1)[0].split()]
    if again != e:
        sys.exit(f"entry {k}: not what its generator line makes")
print(f"{len(entries)} entries, each its generator line's")
PY
expect=()
for k in $(seq 1 "$n"); do expect+=(--expect "$k=1"); done
"$source_dir/tests/cli/smyoz_enumerate.sh" "$rulebook" "$source_dir" $(seq 1 "$n") --data "$data" --threads 1 "${expect[@]}"
