#!/usr/bin/env python3
"""Compares the answers smyoz-puzzles.rules computes on a board (`rulebook draw --format text`
with the layers content, colour and code, read from standard input) with the independent
reference of smyoz_puzzle_entry.py, rebuilding the fleet from the drawn contents.
Prints one line per difference and the number of cells compared; exits 1 on a difference."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smyoz_puzzle_entry as P  # noqa: E402

KINDS = ['ALPHA', 'BETA', 'GAMMA', 'DELTA']


def main():
    labels = [(int(m.group(1)), int(m.group(2)), int(m.group(3)))
              for m in re.finditer(r'^  r(\d)c(\d): (\d+)$', sys.stdin.read(), re.M)]
    content = {(x, y): v for (y, x, v) in labels[:81]}
    colour = {(x, y): v for (y, x, v) in labels[81:162]}
    codes = {(x, y): v for (y, x, v) in labels[162:]}
    # Ships are the orthogonally connected groups of ship cells (ships never touch).
    seen, fleet = set(), []
    for c in sorted(content, key=lambda c: (c[1], c[0])):
        if content[c] < 5 or c in seen:
            continue
        group, stack = [], [c]
        seen.add(c)
        while stack:
            d = stack.pop()
            group.append(d)
            for e in ((d[0] + 1, d[1]), (d[0] - 1, d[1]), (d[0], d[1] + 1), (d[0], d[1] - 1)):
                if content.get(e, 0) >= 5 and e not in seen:
                    seen.add(e)
                    stack.append(e)
        group.sort(key=lambda d: (d[1], d[0]))
        direction = 'v' if len(group) > 1 and group[0][0] == group[1][0] else 'h'
        fleet.append((KINDS[content[c] - 5], group, direction))
    facts = P.Facts(fleet)
    bad = 0
    for c in sorted(content):
        want = (facts.content(c), facts.colour(c))
        if (content[c], colour.get(c)) != want:
            bad += 1
            print('r%dc%d: rules say content %s colour %s, reference %s %s'
                  % (c[1], c[0], content[c], colour.get(c), want[0], want[1]))
    for i, (kind, cells, _) in enumerate(fleet):
        if codes.get(cells[0]) != facts.codes[i]:
            bad += 1
            print('ship at r%dc%d: rules say code %s, reference %s' % (cells[0][1], cells[0][0], codes.get(cells[0]), facts.codes[i]))
    print('%d cells, %d ships compared, %d differences' % (len(content), len(fleet), bad))
    return 1 if bad or len(content) != 81 else 0


if __name__ == '__main__':
    sys.exit(main())
