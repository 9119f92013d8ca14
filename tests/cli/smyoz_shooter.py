#!/usr/bin/env python3
"""The shooter's side of SMYOZ (RULES.md section 4), played against hidden fleets.

    smyoz_shooter.py RULEBOOK SOURCE SEED... [--origin R,C] [--check] [--threads N] [--out FILE] [--list FILE]
                      [--save-list FILE]

For each seed, the hidden fleet is smyoz_puzzle_entry.py's fleet of that seed (the same draw
as puzzle generation). The shooter is given the gallows (VV, KK, the ten codes, the
directions relative to the ALPHA and the island sizes), then shoots until one fleet is left:

- **The fleets still consistent** are counted exactly. `rulebook explore --list` over
  smyoz_enumerate.rules with the gallows as the entry's only clue lists every legal fleet
  they allow (depth 11: the ten ships placed and confirmed), each with the rules' `answer`
  of every cell and `water_point` of every crossing point (`--observe`); the island sizes,
  which no clue of the rules reads, are compared here. After each shot, the fleets whose
  answers give the same answer are kept.
- **The most informative shot**: each turn, the shot whose answer splits the fleets left
  into the most even parts (the highest entropy of its answer, every fleet left counted as
  equally likely): the origin shot O at any cell whose 3x3 area lies on the board (the
  cell's answer, the area's ship cells with their colours, its 16 points' water), or the
  next group of A-E, whose cells are chosen one at a time (each the cell that raises the
  entropy of the group's bag of answers most, up to three, stopping when no cell raises
  it). Two shooters play each fleet: one asks group Z ("mercy", free) only
  when its bag finishes the solution (every fleet left answers a different bag), or when
  nothing else is left; the other never asks it. Shots are cells: at most 16 (the text's
  limit); O counts one. A baseline plays too: the origin at a random cell, then groups of
  three random cells (seeded by the seed), never Z.
- **Checked twice**: every listed fleet is rebuilt from its answers and checked by the
  reference of smyoz_puzzle_entry.py (legal by the five prohibitions, the same gallows but
  the islands, its answers and points those the rules gave); the hidden fleet's answers are
  the reference's, and the hidden fleet must stay among the fleets left. With --check, after
  each shot `rulebook explore` counts the fleets the entry made of the gallows and the
  shots so far allows (smyoz_enumerate.rules states each clue as a board rule, with bounds
  of its own on partial fleets), which must equal the listed fleets whose answers agree
  (before the island sizes); a count past 5 million states is not made (said).
- --list FILE: the list of `explore --list` made before for this seed (the same gallows,
  and origin if given; every fleet in it is checked as above).
- --save-list FILE: a copy of the list made (of the last seed).
- --origin R,C: the first shot is the origin at row R, column C (then the list is that of the
  gallows and the origin: seconds, where the gallows alone take minutes).

Prints a line per shot and one JSON line per seed (`--out FILE` appends them): the seed,
the fleet, the fleets after the gallows, and per shooter each shot (its kind, cells, the
fleets left), the cells and groups used, whether one fleet was left within 16 shots; CPU
seconds. `smyoz_shooter.py --summary FILE` prints the medians of such a file.
"""
import collections
import json
import math
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smyoz_puzzle_entry import (N, Facts, canonical, entry, legal_pair, legal_ship,  # noqa: E402
                                random_fleet, show)
from smyoz_minimise import count  # noqa: E402

KINDS = ['ALPHA', 'BETA', 'GAMMA', 'DELTA']
LIMIT = 16
MAX_CHECK_STATES = 5000000  # a --check count past it is not made (None)


def numbers(text):
    return [int(v) for line in text.split('\n') for v in line.split('#', 1)[0].split()]


class Candidate:
    """A fleet as the rules answer for it: `ans[y * N + x]`, the water points (x, y)."""

    def __init__(self, ans, water):
        self.ans = ans
        self.water = water


def read_list(path):
    d = json.load(open(path))
    obs = {o['name']: o for o in d['observe']}
    cell_of = []
    for name in obs['answer']['values']:
        m = re.fullmatch(r'r(\d+)c(\d+)', name)
        cell_of.append((int(m.group(2)), int(m.group(1))))
    point_of = []
    for name in obs['water_point']['values']:
        m = re.fullmatch(r'p(\d+)\.(\d+)', name)
        point_of.append((int(m.group(2)), int(m.group(1))))
    if any(o['failures'] for o in d['observe']):
        sys.exit('smyoz_shooter: a define failed on a listed fleet')
    out = []
    for item in d['list']:
        ans = [0] * (N * N)
        for (x, y), v in zip(cell_of, item['values']['answer']):
            ans[y * N + x] = v
        water = frozenset(p for p, w in zip(point_of, item['values']['water_point']) if w)
        out.append(Candidate(ans, water))
    return out


def rebuild(c):
    """The fleet whose ship cells and kinds the answers give (ships never touch, not even at
    a corner, so each connected run of ship cells is one ship)."""
    kind_at = {}
    for i, v in enumerate(c.ans):
        if v // 10 >= 5:
            kind_at[(i % N, i // N)] = KINDS[v // 10 - 5]
    seen, fleet = set(), []
    for cell in sorted(kind_at, key=lambda c: (c[1], c[0])):
        if cell in seen:
            continue
        run, stack = [], [cell]
        seen.add(cell)
        while stack:
            q = stack.pop()
            run.append(q)
            for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                r = (q[0] + d[0], q[1] + d[1])
                if r in kind_at and r not in seen:
                    seen.add(r)
                    stack.append(r)
        run.sort(key=lambda c: (c[1], c[0]))
        direction = 'v' if len(run) > 1 and run[0][0] == run[1][0] else 'h'
        fleet.append((kind_at[cell], run, direction))
    return canonical(fleet)


def gallows_of(f):
    codes = {k: sorted(c for (kk, _, _), c in zip(f.fleet, f.codes) if kk == k) for k in KINDS}
    return (f.VV, f.KK, tuple(tuple(codes[k]) for k in KINDS), f.parallel_counts())


def verify(cands, hidden):
    """Every listed fleet checked by the reference; returns those with the hidden fleet's
    island sizes, and the index of the hidden fleet among them."""
    want = gallows_of(hidden)
    kept, found = [], None
    for n, c in enumerate(cands):
        fleet = rebuild(c)
        f = Facts(fleet)
        lengths = collections.Counter(k for k, _, _ in fleet)
        problems = []
        if lengths != collections.Counter({'ALPHA': 1, 'BETA': 2, 'GAMMA': 3, 'DELTA': 4}):
            problems.append('not the ten ships')
        if not all(legal_ship(cs) for _, cs, _ in fleet) or \
                not all(legal_pair(s, t) for i, s in enumerate(fleet) for t in fleet[i + 1:]):
            problems.append('breaks a prohibition')
        if any(10 * f.content((i % N, i // N)) + f.colour((i % N, i // N)) != c.ans[i] for i in range(N * N)):
            problems.append('answers differ from the reference')
        if frozenset(f.water_points) != c.water:
            problems.append('water points differ from the reference')
        if gallows_of(f) != want:
            problems.append('not the gallows given')
        if problems:
            sys.exit('smyoz_shooter: listed fleet %d: %s\n%s' % (n, ', '.join(problems), show(fleet)))
        if f.islands == hidden.islands:
            if fleet == hidden.fleet:
                found = len(kept)
            kept.append(c)
    if found is None:
        sys.exit('smyoz_shooter: the hidden fleet is not among the listed fleets')
    return kept, found


def classes(S):
    """The fleets of S up to the 8 maps of the square (the gallows and the island sizes are
    kept by each, so S is a union of whole classes): the number of classes."""
    maps = [lambda x, y: (x, y), lambda x, y: (N - 1 - x, y), lambda x, y: (x, N - 1 - y),
            lambda x, y: (N - 1 - x, N - 1 - y), lambda x, y: (y, x), lambda x, y: (N - 1 - y, x),
            lambda x, y: (y, N - 1 - x), lambda x, y: (N - 1 - y, N - 1 - x)]
    seen = set()
    for c in S:
        cells = [(i % N, i // N, c.ans[i] // 10) for i in range(N * N) if c.ans[i] // 10 >= 5]
        seen.add(min(tuple(sorted((m(x, y), k) for x, y, k in cells)) for m in maps))
    return len(seen)


def hidden_answers(f):
    return Candidate([10 * f.content((i % N, i // N)) + f.colour((i % N, i // N)) for i in range(N * N)],
                     frozenset(f.water_points))


def origin_key(c, ox, oy):
    key = [c.ans[oy * N + ox]]
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            v = c.ans[(oy + dy) * N + ox + dx]
            key.append(0 if v // 10 < 5 else 1 + v % 10)
    for dy in (-1, 0, 1, 2):
        for dx in (-1, 0, 1, 2):
            key.append((ox + dx, oy + dy) in c.water)
    return tuple(key)


def bag_key(c, cells):
    return tuple(sorted(c.ans[y * N + x] for (x, y) in cells))


def entropy(keys):
    n = len(keys)
    return math.log2(n) - sum(k * math.log2(k) for k in collections.Counter(keys).values()) / n


def best_origin(S):
    best = None
    for oy in range(1, N - 1):
        for ox in range(1, N - 1):
            h = entropy([origin_key(c, ox, oy) for c in S])
            if best is None or h > best[0] + 1e-12:
                best = (h, (ox, oy))
    return best


def best_group(S, shot, most):
    """Cells added one at a time, each the one raising the bag's entropy most."""
    cells, h = [], 0.0
    full = math.log2(len(S))
    for _ in range(most):
        best = None
        for y in range(N):
            for x in range(N):
                if (x, y) in shot or (x, y) in cells:
                    continue
                hh = entropy([bag_key(c, cells + [(x, y)]) for c in S])
                if best is None or hh > best[0] + 1e-12:
                    best = (hh, (x, y))
        if best is None or best[0] <= h + 1e-12:
            break
        h = best[0]
        cells.append(best[1])
        if h >= full - 1e-12:
            break
    return h, cells


def cpu():
    a = resource.getrusage(resource.RUSAGE_SELF)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def list_fleets(rulebook, tree, text, threads):
    with open(os.path.join(tree, 'variants/smyoz/smyoz-puzzles.txt'), 'w') as f:
        f.write(' '.join(str(v) for v in numbers(text)) + '\n')
    out = os.path.join(tree, 'list.json')
    r = subprocess.run([rulebook, 'explore', os.path.join(tree, 'tests/cli/smyoz_enumerate.rules'),
                        '--setup', 'puzzle=1', '--setup', 'dropped=0', '--depth', '11', '--no-symmetry',
                        '--threads', str(threads), '--list', out, '--observe', 'answer',
                        '--observe', 'water_point', '--observe', 'origin_view', '--observe', 'islands_by_size',
                        '--quiet'], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('smyoz_shooter: rulebook explore failed:\n' + r.stderr)
    return read_list(out)


def play(rulebook, tree, seed, first_origin, check, threads, given_list=None, save_list=None):
    start = cpu()
    fleet = random_fleet(random.Random(seed))
    hf = Facts(fleet)
    truth = hidden_answers(hf)
    print('seed %d: hidden fleet\n%s' % (seed, '\n'.join('  ' + r for r in show(fleet).split('\n'))), flush=True)
    listed = read_list(given_list) if given_list else \
        list_fleets(rulebook, tree, entry(fleet, first_origin and (first_origin[1], first_origin[0]), []), threads)
    if save_list and not given_list:
        shutil.copy(os.path.join(tree, 'list.json'), save_list)
    S, _ = verify(listed, hf)
    print('  the gallows%s: %d fleets (%d with the island sizes, %d up to the maps of the square)' %
          (' and the origin at r%dc%d' % (first_origin[1], first_origin[0]) if first_origin else '', len(listed),
           len(S), classes(S)), flush=True)
    record = {'seed': seed, 'fleet': show(fleet).split('\n'), 'listed': len(listed), 'after_gallows': len(S),
              'first_origin': 'r%dc%d' % (first_origin[1], first_origin[0]) if first_origin else None,
              'classes': classes(S), 'list_cpu': round(cpu() - start, 1), 'games': []}
    game = Game(rulebook, tree, seed, fleet, truth, listed, check, threads)
    for mercy in (True, False):
        print('  %s:' % ('with Z when it finishes' if mercy else 'without Z'), flush=True)
        record['games'].append(game.shoot(S, first_origin, mercy))
    print('  the baseline (random shots):', flush=True)
    record['games'].append(game.shoot(S, first_origin, False, random.Random('baseline %d' % seed)))
    record['cpu'] = round(cpu() - start, 1)
    return record


class Game:
    def __init__(self, rulebook, tree, seed, fleet, truth, listed, check, threads):
        self.rulebook, self.tree, self.seed, self.fleet = rulebook, tree, seed, fleet
        self.truth, self.listed, self.check, self.threads = truth, listed, check, threads

    def counted_again(self, origin, groups, kind):
        """The fleets the rules count with the shots so far, which must be those of the list
        whose answers agree (None: past the budget)."""
        text = entry(self.fleet, origin and (origin[1], origin[0]), groups)
        counted = count(self.rulebook, self.tree, numbers(text), 0, self.threads, MAX_CHECK_STATES)
        truth = self.truth
        consistent = sum(1 for c in self.listed
                         if (origin is None or origin_key(c, *origin) == origin_key(truth, *origin))
                         and all(bag_key(c, [(x, y) for (y, x) in g]) == bag_key(truth, [(x, y) for (y, x) in g])
                                 for _, g in groups))
        if counted is not None and counted != consistent:
            sys.exit('smyoz_shooter: seed %d: the rules count %s fleets after %s, the list %d'
                     % (self.seed, counted, kind, consistent))
        return counted

    def shoot(self, S, origin, mercy, rng=None):
        """One game from the fleets S the gallows (and a given origin) leave: each turn the
        most informative shot; with `mercy`, Z when its bag finishes the solution. With `rng`
        the baseline instead: the origin at a random cell, then groups of three random cells."""
        truth = self.truth
        groups, shots = [], []
        if origin:
            S = [c for c in S if origin_key(c, *origin) == origin_key(truth, *origin)]
            shots.append({'shot': 'O', 'cells': ['r%dc%d' % (origin[1], origin[0])], 'fleets': len(S)})
        cells_used = 1 if origin else 0
        shot = {origin} if origin else set()
        letters = ['A', 'B', 'C', 'D', 'E']
        z_used = False
        while len(S) > 1 and cells_used < LIMIT:
            budget = LIMIT - cells_used
            choice = None
            if rng is not None:
                if origin is None:
                    choice = ('O', [(rng.randrange(1, N - 1), rng.randrange(1, N - 1))], 0.0)
                elif letters:
                    free = [(x, y) for y in range(N) for x in range(N) if (x, y) not in shot]
                    choice = (letters[0], rng.sample(free, min(3, budget, len(free))), 0.0)
                else:
                    break
                if choice[0] != 'O':
                    choice = (choice[0], choice[1], entropy([bag_key(c, choice[1]) for c in S]))
                else:
                    choice = ('O', choice[1], entropy([origin_key(c, *choice[1][0]) for c in S]))
            if mercy and not z_used and choice is None:
                h, cells = best_group(S, shot, min(3, budget))
                if cells and h >= math.log2(len(S)) - 1e-12:
                    choice = ('Z', cells, h)
            if choice is None:
                options = []
                if origin is None:
                    h, cell = best_origin(S)
                    options.append(('O', [cell], h))
                if letters:
                    h, cells = best_group(S, shot, min(3, budget))
                    if cells:
                        options.append((letters[0], cells, h))
                if options:
                    choice = max(options, key=lambda o: (o[2] + 1e-12 * (o[0] == 'O')))
                elif mercy and not z_used:  # nothing else is left
                    h, cells = best_group(S, shot, min(3, budget))
                    if not cells:
                        break
                    choice = ('Z', cells, h)
                else:
                    break
            kind, cells, h = choice
            if kind == 'O':
                origin = cells[0]
                S = [c for c in S if origin_key(c, *origin) == origin_key(truth, *origin)]
            else:
                S = [c for c in S if bag_key(c, cells) == bag_key(truth, cells)]
                groups.append((kind, [(y, x) for (x, y) in cells]))
                if kind == 'Z':
                    z_used = True
                else:
                    letters.pop(0)
            shot.update(cells)
            cells_used += len(cells)
            names = ['r%dc%d' % (y, x) for (x, y) in cells]
            item = {'shot': kind, 'cells': names, 'entropy': round(h, 3), 'fleets': len(S)}
            note = ''
            if self.check:
                item['rules_count'] = self.counted_again(origin, groups, kind)
                note = (', counted again: %d before the island sizes' % item['rules_count']
                        if item['rules_count'] is not None else
                        ', not counted again (past %d states)' % MAX_CHECK_STATES)
            shots.append(item)
            print('    %s %s: %d fleets left (entropy %.2f bits)%s' % (kind, ' '.join(names), len(S), h, note),
                  flush=True)
            if not any(c.ans == truth.ans and c.water == truth.water for c in S):
                sys.exit('smyoz_shooter: seed %d: the hidden fleet was lost' % self.seed)
        g = {'mercy': mercy, 'random': rng is not None, 'shots': shots, 'cells': cells_used,
             'groups': sum(1 for s in shots if s['shot'] in 'ABCDE'), 'origin': origin is not None,
             'z': z_used, 'solved': len(S) == 1, 'left': len(S)}
        print('    %s after %d shots (%d groups%s%s)' %
              ('found' if len(S) == 1 else '%d fleets left' % len(S), cells_used, g['groups'],
               ', the origin' if g['origin'] else '', ', Z' if z_used else ''), flush=True)
        return g


def summary(path):
    import statistics
    recs = [json.loads(line) for line in open(path) if line.strip()]
    if not recs:
        print('no games')
        return
    def med(xs):
        return '%g' % round(statistics.median(xs), 1)
    print('%d hidden fleets (seeds %s)' % (len(recs), ' '.join(str(r['seed']) for r in recs)))
    for k, name in ((0, 'with Z when it finishes'), (1, 'without Z'), (2, 'the baseline (random shots)')):
        games = [r['games'][k] for r in recs if len(r['games']) > k]
        if not games:
            continue
        found = [g for g in games if g['solved']]
        line = '%s: %d of %d found within %d shots' % (name, len(found), len(games), LIMIT)
        if found:
            cells = [g['cells'] for g in found]
            groups = [g['groups'] for g in found]
            line += ('; shots median %s (range %d to %d), groups of A-E median %s (range %d to %d), '
                     'the origin in %d, Z in %d' %
                     (med(cells), min(cells), max(cells), med(groups), min(groups), max(groups),
                      sum(g['origin'] for g in games), sum(g['z'] for g in games)))
        print(line)
    print('fleets the gallows allow: median %s (range %d to %d); before the island sizes median %s (range %d to %d)' %
          (med([r['after_gallows'] for r in recs]), min(r['after_gallows'] for r in recs),
           max(r['after_gallows'] for r in recs), med([r['listed'] for r in recs]),
           min(r['listed'] for r in recs), max(r['listed'] for r in recs)))
    known = [r['classes'] for r in recs if 'classes' in r]
    eights = all(r['after_gallows'] % 8 == 0 and r['listed'] % 8 == 0 for r in recs)
    if known:
        print('up to the maps of the square: median %s classes (range %d to %d)' % (med(known), min(known), max(known)))
    print('every count after the gallows a multiple of 8: %s' % ('yes' if eights else 'no'))
    print('CPU per hidden fleet: median %s s (range %s to %s s; the list: median %s s)' %
          (med([r['cpu'] for r in recs]), min(r['cpu'] for r in recs), max(r['cpu'] for r in recs),
           med([r['list_cpu'] for r in recs])))


def main(argv):
    if argv[1] == '--summary':
        return summary(argv[2])
    rulebook, source = argv[1], argv[2]
    rest = argv[3:]
    opts = {}
    seeds = []
    i = 0
    while i < len(rest):
        if rest[i] in ('--origin', '--threads', '--out', '--list', '--save-list'):
            if i + 1 == len(rest):
                sys.exit('smyoz_shooter: %s needs a value' % rest[i])
            opts[rest[i]] = rest[i + 1]
            i += 2
        elif rest[i] == '--check':
            opts['--check'] = True
            i += 1
        elif rest[i].isdigit():
            seeds.append(int(rest[i]))
            i += 1
        else:
            sys.exit('smyoz_shooter: unknown argument %s (see the usage at the top of %s)' % (rest[i], argv[0]))
    first_origin = None
    if '--origin' in opts:
        r, c = (int(v) for v in opts['--origin'].split(','))
        if not (1 <= r <= N - 2 and 1 <= c <= N - 2):
            sys.exit('smyoz_shooter: --origin R,C: the 3x3 area must lie on the board (1..%d)' % (N - 2))
        first_origin = (c, r)
    tree = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tree, 'variants/smyoz'))
        os.makedirs(os.path.join(tree, 'tests/cli'))
        for f in ('smyoz.rules', 'smyoz-puzzles.rules'):
            shutil.copy(os.path.join(source, 'variants/smyoz', f), os.path.join(tree, 'variants/smyoz', f))
        shutil.copy(os.path.join(source, 'tests/cli/smyoz_enumerate.rules'), os.path.join(tree, 'tests/cli'))
        for seed in seeds:
            rec = play(rulebook, tree, seed, first_origin, '--check' in opts, int(opts.get('--threads', 2)),
                       opts.get('--list'), opts.get('--save-list'))
            if '--out' in opts:
                with open(opts['--out'], 'a') as f:
                    f.write(json.dumps(rec, sort_keys=True) + '\n')
    finally:
        shutil.rmtree(tree)


if __name__ == '__main__':
    main(sys.argv)
