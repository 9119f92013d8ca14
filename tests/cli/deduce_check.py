#!/usr/bin/env python3
"""Plays `rulebook deduce` games again, apart from rulebook, and compares them turn by turn.

deduce_check.py LIST.json DEDUCE.json [--fleets]

LIST.json: the states `rulebook explore --list --observe` wrote; DEDUCE.json: `rulebook
deduce LIST.json --json [--baseline]`. The kinds probed, their bags, the givens and the seed
(and those asked once) are read from DEDUCE.json. Every greedy game is played again here (information per probe,
bags grown a probe at a time, ties to fewer probes, then the earlier kind and probe), every
baseline game with the same splitmix64 draws, and each turn's candidates left are counted
by filtering the list. With --fleets, the list itself is checked against an enumeration of
tests/cli/deduce/hidden_fleet.rules written here: every fleet, and what each answers.
"""
import json
import math
import sys

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def text(v):
    return json.dumps(v, separators=(",", ":"))


def main():
    lst = json.load(open(sys.argv[1]))
    out = json.load(open(sys.argv[2]))
    kinds = out["observed"]
    names = [k["name"] for k in kinds]
    obs = {o["name"]: o for o in lst["observe"]}
    # The probes: (kind index, label, answer text per candidate), in the kinds' order.
    probes = []
    for ki, k in enumerate(kinds):
        o = obs[k["name"]]
        if "parameter" in o:
            for i, label in enumerate(o["values"]):
                probes.append((ki, label, [text(s["values"][k["name"]][i]) for s in lst["list"]]))
        else:
            probes.append((ki, "", [text(s["values"][k["name"]]) for s in lst["list"]]))
    n = len(lst["list"])

    def bag(ps, c):
        return tuple(sorted(probes[p][2][c] for p in ps))

    def info(ps, cands):
        counts = {}
        for c in cands:
            key = bag(ps, c)
            counts[key] = counts.get(key, 0) + 1
        s = 0.0
        for k in sorted(counts.values()):
            s += float(k) * math.log2(float(k))
        return math.log2(float(len(cands))) - s / float(len(cands))

    def used_up(ki, asked):
        return kinds[ki].get("once", False) and any(asked[p] and probes[p][0] == ki for p in range(len(probes)))

    def greedy(cands, asked):
        best, best_rate = [], 0.0
        for ki, k in enumerate(kinds):
            if k["given"] or used_up(ki, asked):
                continue
            cur, cur_bits = [], 0.0
            for _ in range(max(1, k["bag"])):
                nxt, nxt_bits = None, cur_bits
                for p, (pk, _, _) in enumerate(probes):
                    if pk != ki or asked[p] or p in cur:
                        continue
                    b = info(cur + [p], cands)
                    if b > nxt_bits:
                        nxt, nxt_bits = cur + [p], b
                if nxt is None:
                    break
                cur, cur_bits = nxt, nxt_bits
                rate = cur_bits / len(cur)
                if rate > best_rate or (rate == best_rate and best and len(cur) < len(best)):
                    best, best_rate = cur, rate
        return best

    def random_choice(asked, rng):
        open_ = [p for p in range(len(probes))
                 if not asked[p] and not kinds[probes[p][0]]["given"] and not used_up(probes[p][0], asked)]
        if not open_:
            return []
        first = open_[rng.below(len(open_))]
        chosen = [first]
        ki = probes[first][0]
        for _ in range(1, kinds[ki]["bag"]):
            more = [p for p in open_ if probes[p][0] == ki and p not in chosen]
            if not more:
                break
            chosen.append(more[rng.below(len(more))])
        return chosen

    def play(hidden, strategy, seed):
        cands = list(range(n))
        asked = [False] * len(probes)
        for p, (ki, _, ans) in enumerate(probes):
            if kinds[ki]["given"]:
                cands = [c for c in cands if ans[c] == ans[hidden]]
                asked[p] = True
        start = len(cands)
        rng = SplitMix64(seed)
        steps = []
        while len(cands) > 1:
            ps = greedy(cands, asked) if strategy == "greedy" else random_choice(asked, rng)
            if not ps:
                break
            want = bag(ps, hidden)
            cands = [c for c in cands if bag(ps, c) == want]
            for p in ps:
                asked[p] = True
            steps.append((names[probes[ps[0]][0]], [probes[p][1] for p in ps], sorted(want), len(cands)))
        return start, steps, len(cands)

    def compare(game, played, what):
        start, steps, left = played
        if game["start"] != start:
            fail(f"{what}: {game['start']} states after the givens, {start} here")
        got = [(s["kind"], s["probes"], sorted(text(a) for a in s["answers"]), s["left"]) for s in game["steps"]]
        if got != steps:
            fail(f"{what}: turns differ\n rulebook: {got}\n here:     {steps}")
        if game["left"] != left or game["found"] != (left == 1):
            fail(f"{what}: {game['left']} left, {left} here")
        if game["probes"] != sum(len(s[1]) for s in steps):
            fail(f"{what}: {game['probes']} probes counted")

    for i, g in enumerate(out["games"]):
        h = g["hidden"] - 1
        if lst["list"][h]["state"] != g["state"]:
            fail(f"game {i + 1}: the hidden state is not the list's state {h + 1}")
        compare(g, play(h, "greedy", 0), f"game {i + 1} (state {h + 1})")
        if "baseline" in g:
            compare(g["baseline"], play(h, "random", out["seed"] + i), f"game {i + 1}'s baseline")
    found = sum(1 for g in out["games"] if g["found"])
    if out["greedy"]["found"] != found:
        fail("the summary's count of games found")
    print(f"{len(out['games'])} games played again: every turn, answer and count alike ({found} found)")

    if "--fleets" in sys.argv:
        check_fleets(lst)


def check_fleets(lst):
    """Every fleet of hidden_fleet.rules, enumerated here, against the list's answers."""
    size = 5
    lengths = {1: 3, 2: 2, 3: 1}

    def placements(length):
        out = []
        for y in range(size):
            for x in range(size):
                for vertical in (False, True):
                    if length == 1 and vertical:
                        continue
                    cells = [(x, y + i) if vertical else (x + i, y) for i in range(length)]
                    if all(0 <= a < size and 0 <= b < size for a, b in cells):
                        out.append(cells)
        return out

    def touch(a, b):
        return any(abs(p[0] - q[0]) <= 1 and abs(p[1] - q[1]) <= 1 for p in a for q in b)

    seen = []
    for s1 in placements(3):
        for s2 in placements(2):
            if touch(s1, s2):
                continue
            for s3 in placements(1):
                if touch(s1, s3) or touch(s2, s3):
                    continue
                at = {}
                for length, cells in ((3, s1), (2, s2), (1, s3)):
                    for c in cells:
                        at[c] = length
                shot = []
                for y in range(size):
                    for x in range(size):
                        if (x, y) in at:
                            shot.append(10 + at[(x, y)])
                        else:
                            shot.append(sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                                            if (dx or dy) and (x + dx, y + dy) in at))
                rows = [sum(1 for (x, y) in at if y == r) for r in range(size)]
                moored = sum(1 for cells in (s1, s2, s3)
                             if any(x in (0, size - 1) or y in (0, size - 1) for x, y in cells))
                seen.append(text([shot, rows, moored]))
    listed = [text([s["values"]["shot"], s["values"]["row_ships"], s["values"]["moored"]]) for s in lst["list"]]
    if sorted(seen) != sorted(listed):
        fail(f"the list's fleets and answers differ from the enumeration here ({len(listed)} listed, {len(seen)} here)")
    print(f"the list: {len(listed)} fleets, each with the answers the enumeration here gives")


if __name__ == "__main__":
    main()
