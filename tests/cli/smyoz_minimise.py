#!/usr/bin/env python3
"""Drops the shot groups of a SMYOZ puzzle entry that the other clues imply, counting fleets
by enumeration (smyoz_enumerate.rules, `rulebook explore`), not by Z3.

    smyoz_minimise.py RULEBOOK SOURCE ENTRY [--threads N] [--max-states N] [--data FILE]
                      [--greedy [--keep-origin]]

ENTRY is an entry of variants/smyoz/smyoz-puzzles.txt, or of FILE (a design's candidate).

Every set of the entry's groups reached by dropping one group at a time while the fleet
stays unique is counted; a set is minimal when dropping any further group gives two or more
fleets, and a candidate when the gallows is needed too (a puzzle gives it): without it, two
or more fleets. With the origin shot, the first candidate (most shots first) whose groups
and gallows leave two or more fleets without the origin is taken: every clue is needed.
When there is none, the origin is left out if every group and the gallows find the fleet
without it, and the search is made again without it. The entry's origin and shot lines
(groups relabelled A, B, ...) are printed for smyoz-puzzles.txt. A count that passes --max-states
(default 20 million) states is unknown: its set is neither unique nor a proof of need.

--greedy (puzzle generation, tests/cli/smyoz_generate.sh) makes one pass instead: the origin
is dropped when the fleet stays unique without it, the gallows must be needed (two or more
fleets without it; else the entry is rejected), both counted against every group (counts
without the origin or the gallows are quick only with many shots); then each group in turn
(A to E, Z) is dropped when the fleet stays unique without it, and kept otherwise. A clue kept was needed when tried and stays needed as later ones are dropped: the
fleets without it then are a superset of those counted (fewer clues allow more fleets), so
the result is minimal. It takes one count per clue, where the search above counts every set
it reaches. With --keep-origin an entry whose origin is not needed with every group is
rejected instead: the counts after it all have the origin's area, and are quick.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def read_entries(path, made_by=None):
    """The entries of a data file; `made_by` gets each one's generator arguments (the
    '# made by:' comment before it, or None)."""
    entries, cur, args = [], [], None
    for line in open(path):
        if line.startswith("# made by: "):
            args = line.split()[4:]
        values = line.split("#", 1)[0].split()
        if values:
            cur += [int(v) for v in values]
        elif cur:
            entries.append(cur)
            if made_by is not None:
                made_by.append(args)
            cur, args = [], None
    if cur:
        entries.append(cur)
        if made_by is not None:
            made_by.append(args)
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
    data = sys.argv[sys.argv.index("--data") + 1] if "--data" in sys.argv else \
        os.path.join(source, "variants/smyoz/smyoz-puzzles.txt")
    made_by = []
    entry = read_entries(data, made_by)[k - 1]
    args = made_by[k - 1]
    tree = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tree, "variants/smyoz"))
        os.makedirs(os.path.join(tree, "tests/cli"))
        for f in ("smyoz.rules", "smyoz-puzzles.rules"):
            shutil.copy(os.path.join(source, "variants/smyoz", f), os.path.join(tree, "variants/smyoz", f))
        shutil.copy(os.path.join(source, "tests/cli/smyoz_enumerate.rules"), os.path.join(tree, "tests/cli"))
        known = {}

        # Counts with the origin, kept when it is left out: dropping a clue only adds fleets,
        # so two or more with it are two or more without it.
        with_origin = {}

        def fleets(groups, gallows=True):
            key = (groups, gallows)
            if key not in known and entry[27] == 0 and (with_origin.get(key) or 0) >= 2:
                known[key] = with_origin[key]
                names = "".join("ABCDEZ"[g - 1] for g in sorted(groups)) or "none"
                print(f"  groups {names}{'' if gallows else ', no gallows'}: {known[key]} or more fleets "
                      "(as many with the origin)", flush=True)
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
        if "--greedy" in sys.argv:
            return greedy(entry, full, fleets, lambda e, d: count(rulebook, tree, e, d, threads, max_states), k, args)
        if fleets(full) != 1:
            print(f"entry {k}: not unique with every clue")
            return 1
        shots_in = lambda m: sum(1 for i in range(15) if entry[57 + 5 * i] in m)

        def minimal_sets():
            """Every set of groups reached by dropping groups one at a time while one fleet
            stays; minimal: dropping any further group gives two or more fleets."""
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
            # A puzzle gives the gallows: it must be needed too. Most shots first.
            good = [m for m in minimal if (fleets(m, False) or 0) >= 2]
            return sorted(good, key=lambda m: (-shots_in(m), sorted(m)))

        best = None
        # With the origin first (its 3x3 area makes every count quick); the origin is then
        # needed when the set's groups and the gallows leave two or more fleets without it.
        for m in minimal_sets():
            if entry[27] != 1:
                best = m
                break
            n = count(rulebook, tree, no_origin(keep_only(entry, m)), 0, threads, max_states)
            names = "".join("ABCDEZ"[g - 1] for g in sorted(m))
            print(f"  groups {names} without the origin: {n} fleets", flush=True)
            if n is not None and n >= 2:
                best = m
                break
        if best is None and entry[27] == 1:
            # The origin not needed by any such set: without it, if the groups and the
            # gallows find the fleet alone (slow counts: millions of partial fleets).
            n = count(rulebook, tree, no_origin(entry), 0, threads, max_states)
            print(f"  without the origin, every group: {n} fleets", flush=True)
            if n == 1:
                entry = no_origin(entry)
                with_origin.update(known)
                known.clear()
                good = minimal_sets()
                best = good[0] if good else None
        if best is None:
            print(f"entry {k}: no set of its clues found with every clue needed")
            return 1
        entry = keep_only(entry, best)
        kept = sorted(best)
        print(f"entry {k}: groups {''.join('ABCDEZ'[g - 1] for g in kept)} kept, each needed, the gallows needed"
              f"{', the origin needed' if entry[27] == 1 else ', no origin'}")
        write_entry(entry, kept, args)
    finally:
        shutil.rmtree(tree)
    return 0


def keep_only(e, groups):
    for g in groups_of(e):
        if g not in groups:
            e = without_group(e, g)
    return e


def no_origin(e):
    e = list(e)
    e[27:57] = [0] * 30
    return e


def greedy(entry, full, fleets, count_entry, k, args):
    """One pass: the origin, dropped when the fleet stays unique without it; the gallows,
    which must be needed; then each group, dropped when the fleet stays unique without it.
    The origin and the gallows are counted against every group: a clue needed then stays
    needed as groups are dropped. Returns the exit code."""
    if fleets(full) != 1:
        print(f"entry {k}: not unique with every clue")
        return 1
    if entry[27] == 1:
        # The origin first, with every group: many shots make the count without it quick.
        n = count_entry(no_origin(entry), 0)
        print(f"  every group without the origin: {n} fleets", flush=True)
        if n == 1 and "--keep-origin" in sys.argv:
            print(f"entry {k}: the origin is not needed (the groups and the gallows find the fleet)")
            return 1
        if n == 1:
            entry = no_origin(entry)
            fleets = lambda groups: count_entry(keep_only(entry, groups), 0)
        elif n is None:
            print(f"entry {k}: the count without the origin passed --max-states")
            return 1
    # The gallows next, with every group too: needed now, it stays needed as groups go.
    n = count_entry(entry, 8)
    print(f"  every group without the gallows: {n} fleets", flush=True)
    if n is None or n < 2:
        print(f"entry {k}: the gallows is not needed (the shots find the fleet alone)" if n is not None
              else f"entry {k}: the count without the gallows passed --max-states")
        return 1
    groups = set(full)
    for g in sorted(full):
        fewer = frozenset(groups - {g})
        n = fleets(fewer)
        if entry[27] == 0:
            print(f"  groups {''.join('ABCDEZ'[h - 1] for h in sorted(fewer)) or 'none'}, no origin: {n} fleets",
                  flush=True)
        if n is None:
            print(f"entry {k}: a count passed --max-states")
            return 1
        if n == 1:
            groups.discard(g)
    entry = keep_only(entry, groups)
    kept = sorted(groups)
    print(f"entry {k}: groups {''.join('ABCDEZ'[g - 1] for g in kept)} kept, each needed, the gallows needed"
          f"{', the origin needed' if entry[27] == 1 else ', no origin'}")
    write_entry(entry, kept, args)
    return 0


def write_entry(entry, kept, args):
    """Prints the generator line, the origin line and the shot lines of `entry` with the
    groups `kept` (relabelled A, B, ...)."""
    if args:
        cells = dict(a.split("=") for a in args[2:])
        new = [args[0], args[1] if entry[27] == 1 else "-"]
        new += [f"{'ABCDE'[i]}={cells['ABCDEZ'[g - 1]]}" for i, g in enumerate(g for g in kept if g != 6)]
        new += [f"Z={cells['Z']}" for g in kept if g == 6]
        print("made by: tests/cli/smyoz_puzzle_entry.py " + " ".join(new))
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


if __name__ == "__main__":
    sys.exit(main())
