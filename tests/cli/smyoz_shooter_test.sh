#!/usr/bin/env bash
# The SMYOZ shooter's game (tests/cli/smyoz_shooter.py), quick cases: hidden fleets whose
# first shot is a given origin, so that the fleets to shoot at are listed in seconds. Each
# listed fleet is checked by the reference, the hidden one must stay among those left, and
# after every shot `rulebook explore` counts again what the shots so far allow (--check);
# a list with one answer changed is refused. The full game from the gallows alone takes
# minutes a fleet: bench/puzzle/smyoz_shooter.sh.
# Usage: smyoz_shooter_test.sh RULEBOOK_BINARY SOURCE_DIR
set -u
rb=$1
src=$2
. "$(dirname "$0")/check_lib.sh"
cd "$src" || exit 2

shooter=tests/cli/smyoz_shooter.py
python3 "$shooter" "$rb" "$src" 3 --origin 1,1 --check --threads 1 --out "$work/g.jsonl" \
  --save-list "$work/list.json" >"$work/out" 2>&1
check "seed 3 from the origin at r1c1: exit 0" 0 $?
check "seed 3: both shooters find it, every shot counted again by the rules" "8 2 True True True True" \
  "$(python3 - "$work/g.jsonl" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][0]
print(r["listed"], r["after_gallows"],
      *[g["solved"] and all(s.get("rules_count") is not None for s in g["shots"][1:]) for g in r["games"][:2]],
      r["games"][0]["z"], not r["games"][1]["z"])
PY
)"
python3 "$shooter" "$rb" "$src" 5 --origin 4,4 --check --threads 1 --out "$work/g.jsonl" >>"$work/out" 2>&1
check "seed 5 from the origin at r4c4: exit 0" 0 $?
check "two fleets recorded, each found by both shooters within 16 shots, a group of A-E shot, the baseline played" \
  "2 4 yes 2" \
  "$(python3 -c "
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
g = [x for y in r for x in y['games'] if not x['random']]
b = [x for y in r for x in y['games'] if x['random']]
print(len(r), sum(x['solved'] and x['cells'] <= 16 for x in g), 'yes' if any(x['groups'] for x in g) else 'no', len(b))" "$work/g.jsonl")"
python3 "$shooter" --summary "$work/g.jsonl" >"$work/summary"
check "the summary" "2 hidden fleets (seeds 3 5)|with Z when it finishes: 2 of 2 found within 16 shots" \
  "$(head -n 2 "$work/summary" | cut -d';' -f1 | paste -sd'|')"

# What `rulebook deduce` probes besides the answers, checked on every listed fleet against
# the answers and points the list also holds: the origin shot's number (the cell's answer,
# its 3x3 area's ship cells with their colours, its 16 points), and the islands by size
# (components of the water points, counted here).
check "the origin's view and the island sizes on every listed fleet" "8 fleets: alike" "$(python3 - "$work/list.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = 9
bad = 0
for s in d["list"]:
    v = s["values"]
    ans, water = v["answer"], v["water_point"]  # cells and points (n + 1 a row) in row-major order
    for c in range(n * n):
        y, x = divmod(c, n)
        want = -1
        if 1 <= x <= n - 2 and 1 <= y <= n - 2:
            area = sum((1 + ans[(y + dy) * n + x + dx] % 10 if ans[(y + dy) * n + x + dx] // 10 >= 5 else 0)
                       * 7 ** (3 * (dy + 1) + dx + 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1))
            pts = sum(2 ** (4 * (py + 1) + px + 1) for py in range(-1, 3) for px in range(-1, 3)
                      if water[(y + py) * (n + 1) + x + px])
            want = (ans[c] * 7 ** 9 + area) * 65536 + pts
        bad += v["origin_view"][c] != want
    # islands: water points joined orthogonally
    seen, sizes = set(), {}
    for p in range((n + 1) * (n + 1)):
        if water[p] and p not in seen:
            stack, k = [p], 0
            seen.add(p)
            while stack:
                q = stack.pop()
                k += 1
                qy, qx = divmod(q, n + 1)
                for ny, nx in ((qy - 1, qx), (qy + 1, qx), (qy, qx - 1), (qy, qx + 1)):
                    r = ny * (n + 1) + nx
                    if 0 <= ny <= n and 0 <= nx <= n and water[r] and r not in seen:
                        seen.add(r)
                        stack.append(r)
            sizes[k] = sizes.get(k, 0) + 1
    bad += v["islands_by_size"] != [sizes.get(k, 0) for k in range(1, n * n + 1)]
print(len(d["list"]), "fleets:", "alike" if bad == 0 else f"{bad} differ")
PY
)"
# The shooter's game played by `rulebook deduce` over the same list: shots in groups of up to
# three answered as bags, the island sizes given, every fleet in turn; each found.
"$rb" deduce "$work/list.json" --probe answer --bag answer=3 --given islands_by_size --hidden all --limit 16 \
  --quiet >"$work/deduce.out"
check "deduce over the fleets of the gallows and the origin" "greedy: 8 of 8 found (8 within 16 probes);" \
  "$(tail -n 1 "$work/deduce.out" | cut -d';' -f1);"

# One answer of one listed fleet changed: the reference refuses the list.
python3 - "$work/list.json" "$work/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = d["list"][0]["values"]["answer"]
a[40] = (a[40] + 1) % 6 if a[40] < 50 else a[40] - 1
json.dump(d, open(sys.argv[2], "w"))
PY
python3 "$shooter" "$rb" "$src" 3 --origin 1,1 --list "$work/bad.json" >"$work/bad" 2>&1
code=$?
check "a list with a changed answer is refused" "1 yes" \
  "$code $(grep -q 'listed fleet 0: .*answers differ from the reference' "$work/bad" && echo yes || echo no)"
# The hidden fleet of another seed is not in this list.
python3 "$shooter" "$rb" "$src" 4 --origin 1,1 --list "$work/list.json" >"$work/other" 2>&1
check "the list of another fleet's gallows is refused" "1 yes" \
  "$? $(grep -q 'not the gallows given' "$work/other" && echo yes || echo no)"

if [ "$failed" -ne 0 ]; then cat "$work/out"; fi
finish "smyoz shooter"
