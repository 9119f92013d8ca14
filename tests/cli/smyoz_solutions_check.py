#!/usr/bin/env python3
"""Checks the solutions a report page lists for the SMYOZ puzzles apart from Z3: each fleet
(the board's `fleet = {...}` line) is legal by the reference's prohibitions, and the entry the
reference makes from it with the shipped entry's shots (and its island list, when the entry
gives one) is the shipped entry, number for number: the fleet answers every clue as the
puzzle says. A puzzle the page calls unique must list one such fleet, one it calls not unique
two different ones.
Usage: smyoz_solutions_check.py PAGE.json ENTRIES.txt
Prints one line per puzzle; exits 1 on a fleet that is not a solution or a wrong count."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smyoz_puzzle_entry as P  # noqa: E402

# The ship numbers of smyoz.rules (ALPHA, then the BETAs, GAMMAs, DELTAs) and their lengths.
KINDS = ['ALPHA'] + ['BETA'] * 2 + ['GAMMA'] * 3 + ['DELTA'] * 4
LENGTH = {'ALPHA': 4, 'BETA': 3, 'GAMMA': 2, 'DELTA': 1}


def fleet_of(text):
    ships = re.findall(r'(\d+): \{anchor: r(\d)c(\d), dir: (horizontal|vertical)\}', text)
    fleet = []
    for number, y, x, d in ships:
        kind = KINDS[int(number) - 1]
        along = d == 'horizontal'
        cells = [(int(x) + (i if along else 0), int(y) + (0 if along else i)) for i in range(LENGTH[kind])]
        fleet.append((kind, cells, 'h' if along else 'v'))
    return fleet


def numbers(text):
    return [line.split('#')[0].split() for line in text.split('\n') if line.split('#')[0].strip()]


def entries(path):
    out = []
    for block in re.split(r'\n\s*\n', open(path).read()):
        made = re.search(r'^# made by: tests/cli/smyoz_puzzle_entry.py (.*)$', block, re.M)
        if made and numbers(block):
            out.append((made.group(1).split(), numbers(block)))
    return out


def main():
    page = json.load(open(sys.argv[1]))
    shipped = entries(sys.argv[2])
    bad = 0
    for row in page['analysis']['puzzles']:
        k = int(row['setup'].split('=')[1])
        args, data = shipped[k - 1]
        origin = None if args[1] == '-' else tuple(int(v) for v in args[1].split(','))
        islands = 'islands' in args[2:]
        groups = [(a.split('=')[0], [tuple(int(v) for v in rc.split(',')) for rc in a.split('=')[1].split('/')])
                  for a in args[2:] if a != 'islands']
        fleets = [fleet_of(b['text']) for b in row.get('boards', [])]
        ok = 0
        for fleet in fleets:
            legal = len(fleet) == len(KINDS) and all(P.legal_ship(cs) for _, cs, _ in fleet) and all(
                P.legal_pair(fleet[i], fleet[j]) for i in range(len(fleet)) for j in range(i + 1, len(fleet)))
            answers = numbers(P.entry(fleet, origin, groups, islands=islands)) == data
            ok += legal and answers
            if not (legal and answers):
                print('puzzle %d: a listed fleet is %s' % (k, 'not legal' if not legal else 'not a solution'))
        distinct = len({json.dumps(sorted((k_, cs) for k_, cs, _ in f)) for f in fleets})
        want = 1 if row['unique'] == 'proved' else 2
        if ok != len(fleets) or distinct != want or len(fleets) != want:
            bad += 1
            print('puzzle %d: %s, %d fleets listed, %d distinct solutions by the reference' % (k, row['unique'], len(fleets), distinct))
        else:
            print('puzzle %d: unique %s; %d fleet%s, each a solution by the reference' % (
                k, row['unique'], want, '' if want == 1 else 's'))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
