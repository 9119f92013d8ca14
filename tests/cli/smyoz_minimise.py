#!/usr/bin/env python3
"""Drops the shot groups of a SMYOZ puzzle entry that the other clues imply, counting fleets
by enumeration (smyoz_enumerate.rules, `rulebook explore`), not by Z3.

    smyoz_minimise.py RULEBOOK SOURCE ENTRY [--threads N]

Every set of the entry's groups reached by dropping one group at a time while the fleet
stays unique is counted; a set is minimal when dropping any further group gives two or more
fleets, and is kept when the gallows is needed too (a puzzle gives it): without it, two or
more fleets. Of those, the one with the most shots is printed as shot lines for
smyoz-puzzles.txt (groups relabelled A, B, ...). The origin shot is counted first: left out when every group
and the gallows find the fleet without it, else kept, needed. A count that passes --max-states
(default 20 million) states is unknown: its set is neither unique nor a proof of need.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def read_entries(path):
    entries, cur = [], []
    for line in open(path):
        values = line.split("#", 1)[0].split()
        if values:
            cur += [int(v) for v in values]
        elif cur:
            entries.append(cur)
            cur = []
    if cur:
        entries.append(cur)
    return entries


def count(rulebook, tree, entry, dropped, threads, max_states):
    """Fleets of `entry` (a list of 132 numbers) with clue `dropped` left out (0: none);
    None when the enumeration passed `max_states` states."""
    data = os.path.join(tree, "variants/smyoz/smyoz-puzzles.txt")
    with open(data, "w") as f:
        f.write(" ".join(str(v) for v in entry) + "\n")
    out = subprocess.run([rulebook, "explore", os.path.join(tree, "tests/cli/smyoz_enumerate.rules"),
                          "--setup", "puzzle=1", "--setup", f"dropped={dropped}", "--depth", "11",
                          "--no-symmetry", "--threads", str(threads), "--max-states", str(max_states),
                          "--json", "--quiet"],
                         capture_output=True, text=True).stdout
    d = json.loads(out)
    if d.get("stopped") not in (None, "", False, "depth"):
        return None
    return sum(x["distinct"] for x in d["depths"] if x["depth"] == 11)


def groups_of(entry):
    return sorted({entry[57 + 5 * i] for i in range(15)} - {0})


def without_group(entry, g):
    e = list(entry)
    for i in range(15):
        if e[57 + 5 * i] == g:
            e[57 + 5 * i:62 + 5 * i] = [0, 0, 0, 0, 0]
    return e


def main():
    rulebook, source, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 2
    max_states = int(sys.argv[sys.argv.index("--max-states") + 1]) if "--max-states" in sys.argv else 20000000
    entry = read_entries(os.path.join(source, "variants/smyoz/smyoz-puzzles.txt"))[k - 1]
    tree = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tree, "variants/smyoz"))
        os.makedirs(os.path.join(tree, "tests/cli"))
        for f in ("smyoz.rules", "smyoz-puzzles.rules"):
            shutil.copy(os.path.join(source, "variants/smyoz", f), os.path.join(tree, "variants/smyoz", f))
        shutil.copy(os.path.join(source, "tests/cli/smyoz_enumerate.rules"), os.path.join(tree, "tests/cli"))
        known = {}

        def fleets(groups, gallows=True):
            key = (groups, gallows)
            if key not in known:
                e = entry
                for g in groups_of(entry):
                    if g not in groups:
                        e = without_group(e, g)
                known[key] = count(rulebook, tree, e, 0 if gallows else 8, threads, max_states)
                names = "".join("ABCDEZ"[g - 1] for g in sorted(groups)) or "none"
                print(f"  groups {names}{'' if gallows else ', no gallows'}: {known[key]} fleets", flush=True)
            return known[key]

        full = frozenset(groups_of(entry))
        if fleets(full) != 1:
            print(f"entry {k}: not unique with every clue")
            return 1
        # The origin first: when the groups and the gallows find the fleet without it, it is
        # dropped; otherwise it is needed (two or more fleets, which fewer groups only add to).
        if entry[27] == 1:
            no_origin = list(entry)
            no_origin[27:57] = [0] * 30
            n = count(rulebook, tree, no_origin, 0, threads, max_states)
            print(f"  without the origin: {n} fleets -> {'dropped' if n == 1 else 'kept'}", flush=True)
            if n == 1:
                entry = no_origin
                known.clear()
            elif n is None:
                print(f"entry {k}: whether the origin is needed is not known")
                return 1
        # Every set of groups reached by dropping groups one at a time while one fleet stays;
        # minimal: dropping any further group gives two or more fleets.
        minimal, seen, todo = [], {full}, [full]
        while todo:
            groups = todo.pop()
            is_minimal = True
            for g in sorted(groups):
                fewer = groups - {g}
                n = fleets(fewer)
                if n == 1:
                    is_minimal = False
                    if fewer not in seen:
                        seen.add(fewer)
                        todo.append(fewer)
                elif n is None:
                    is_minimal = False  # not shown needed
            if is_minimal:
                minimal.append(groups)
        # A puzzle gives the gallows: it must be needed too.
        good = [m for m in minimal if (fleets(m, False) or 0) >= 2]
        shots_in = lambda m: sum(1 for i in range(15) if entry[57 + 5 * i] in m)
        if good:
            best = max(good, key=lambda m: (shots_in(m), sorted(-g for g in m)))
            for g in groups_of(entry):
                if g not in best:
                    entry = without_group(entry, g)
        else:
            # The shots of the largest minimal set imply the gallows: shots are dropped one at
            # a time (a group keeps its other shots) while the fleet stays unique; then every
            # group and the gallows are counted again.
            best = max(minimal, key=lambda m: (shots_in(m), sorted(-g for g in m)))
            for g in groups_of(entry):
                if g not in best:
                    entry = without_group(entry, g)
            print(f"entry {k}: no set of its groups needs the gallows; dropping single shots of {sorted(best)}")
            # Within a group the answer beside a cell need not be its own: the cell is dropped
            # with each answer of the bag in turn (the wrong ones leave no fleet).
            for i in range(15):
                g = entry[57 + 5 * i]
                if g == 0:
                    continue
                for j in range(15):
                    if entry[57 + 5 * j] != g:
                        continue
                    e = list(entry)
                    e[60 + 5 * i:62 + 5 * i], e[60 + 5 * j:62 + 5 * j] = e[60 + 5 * j:62 + 5 * j], e[60 + 5 * i:62 + 5 * i]
                    e[57 + 5 * i:62 + 5 * i] = [0, 0, 0, 0, 0]
                    n = count(rulebook, tree, e, 0, threads, max_states)
                    print(f"  without shot {i + 1} and answer {j + 1} (group {'ABCDEZ'[g - 1]}): {n} fleets", flush=True)
                    if n == 1:
                        entry = e
                        break
                    if n is not None and n >= 2:
                        break  # its own answer: the shot is needed
            groups = groups_of(entry)
            needed = all((count(rulebook, tree, entry, g, threads, max_states) or 0) >= 2 for g in groups)
            gallows = (count(rulebook, tree, entry, 8, threads, max_states) or 0) >= 2
            print(f"  every group needed: {needed}; the gallows needed: {gallows}")
            if not (needed and gallows):
                return 1
            best = frozenset(groups)
        kept = sorted(best)
        print(f"entry {k}: groups {''.join('ABCDEZ'[g - 1] for g in kept)} kept, each needed, the gallows needed"
              f"{', the origin needed' if entry[27] == 1 else ', no origin'}")
        print("origin line:")
        print(" ".join(str(v) for v in entry[27:57]))
        shots = [entry[57 + 5 * i:62 + 5 * i] for i in range(15) if entry[57 + 5 * i] != 0]
        plain = [g for g in kept if g != 6]
        for s in shots:
            s[0] = plain.index(s[0]) + 1 if s[0] != 6 else 6
        while len(shots) < 15:
            shots.append([0, 0, 0, 0, 0])
        print("shot lines:")
        for s in shots:
            print(f"{s[0]} {s[1]} {s[2]}  {s[3]} {s[4]}")
    finally:
        shutil.rmtree(tree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
