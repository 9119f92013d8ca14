#!/usr/bin/env python3
"""One entry of variants/smyoz/smyoz-puzzles.txt from a fleet and the cells shot.

The fleet is a random legal one (seeded), its gallows and the shots' answers computed as
variants/smyoz/smyoz.rules and smyoz-puzzles.rules define them (RULES.md section 4); that
the entry describes one fleet only and that every clue is needed is `rulebook solve`'s to
prove (tests/cli/smyoz_puzzles_test.sh).

Usage: smyoz_puzzle_entry.py SEED ROW,COL|- GROUP=R,C[/R,C...] ... [islands]   (GROUP: A-E or Z)
       prints the fleet as a grid (comment lines) and the entry; with `islands` the entry
       gives the island list (a clue of its own), else its island line is all 0.
       smyoz_puzzle_entry.py --candidate SEED [--origin] [--groups N]
       prints the arguments of a full candidate for seed SEED: groups A-E (the first N,
       default 5) of three cells
       each (15 shots), drawn from the seed, and with --origin an origin shot; `rulebook solve
       --minimise` then drops the groups not needed (tests/cli/smyoz_generate.sh).
"""

import random

N = 9
KINDS = ['ALPHA'] + ['BETA'] * 2 + ['GAMMA'] * 3 + ['DELTA'] * 4
LEN = {'ALPHA': 4, 'BETA': 3, 'GAMMA': 2, 'DELTA': 1}


def cells_of(x, y, d, L):
    return [(x + i, y) if d == 'h' else (x, y + i) for i in range(L)]


def on_edge(c):
    return c[0] in (0, N - 1) or c[1] in (0, N - 1)


def legal_pair(s, t):
    (ks, cs, ds), (kt, ct, dt) = s, t
    for a in cs:
        for b in ct:
            if max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1:
                return False
    # tip rule: both along one row or one column
    def along(cs, axis):  # axis 0: a row (same y); 1: a column (same x)
        return len({c[1 - axis] if False else (c[1] if axis == 0 else c[0]) for c in cs}) == 1
    for axis in (0, 1):
        if along(cs, axis) and along(ct, axis):
            key = (lambda c: c[1]) if axis == 0 else (lambda c: c[0])
            if key(cs[0]) == key(ct[0]):
                if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) < 3 for a in cs for b in ct):
                    return False
    if ks == kt:
        cx = lambda cs: min(c[0] for c in cs) + max(c[0] for c in cs)
        cy = lambda cs: min(c[1] for c in cs) + max(c[1] for c in cs)
        if cx(cs) == cx(ct) or cy(cs) == cy(ct):
            return False
    if len(cs) > 1 and len(ct) > 1 and ds == dt:
        al = (lambda c: c[0]) if ds == 'h' else (lambda c: c[1])
        ac = (lambda c: c[1]) if ds == 'h' else (lambda c: c[0])
        ov = sum(1 for a in cs if any(al(a) == al(b) for b in ct))
        if ov > 1 and any(abs(ac(a) - ac(b)) < 3 for a in cs for b in ct):
            return False
    return True


def legal_ship(cs):
    e = [c for c in cs if on_edge(c)]
    if len(e) > 1:
        return False
    corners = {(0, 0), (0, N - 1), (N - 1, 0), (N - 1, N - 1)}
    if any(c in corners for c in cs):
        return False
    tips = {cs[0], cs[-1]}
    return all(c in tips for c in e)


def random_fleet(rng):
    while True:
        fleet = []
        ok = True
        for k in KINDS:
            L = LEN[k]
            opts = []
            for y in range(N):
                for x in range(N):
                    for d in (('h', 'v') if L > 1 else ('h',)):
                        cs = cells_of(x, y, d, L)
                        if any(c[0] >= N or c[1] >= N for c in cs) or not legal_ship(cs):
                            continue
                        s = (k, cs, d)
                        if all(legal_pair(s, t) for t in fleet):
                            opts.append(s)
            if not opts:
                ok = False
                break
            fleet.append(rng.choice(opts))
        if ok:
            return canonical(fleet)


def canonical(fleet):
    out = []
    for k in ['ALPHA', 'BETA', 'GAMMA', 'DELTA']:
        out += sorted([s for s in fleet if s[0] == k], key=lambda s: s[1][0][1] * N + s[1][0][0])
    return out


class Facts:
    def __init__(self, fleet):
        self.fleet = fleet
        self.ship_at = {}
        for i, (k, cs, d) in enumerate(fleet):
            for c in cs:
                self.ship_at[c] = i
        self.lines = [[(x, y) for x in range(N)] for y in range(N)] + [[(x, y) for y in range(N)] for x in range(N)]
        idx = lambda c: c[1] * N + c[0]
        self.idx = idx
        self.line_info = []
        for l in self.lines:
            ships = {}
            for c in l:
                if c in self.ship_at:
                    s = self.ship_at[c]
                    ships.setdefault(s, []).append(idx(c))
            order = sorted(ships, key=lambda s: (min(ships[s]), s))
            colour = 'water' if not ships else ('green' if len(ships) == 1 else 'red')
            self.line_info.append((l, ships, order, colour))
        self.red_lines = [0] * len(fleet)
        self.green_lines = [0] * len(fleet)
        for l, ships, order, colour in self.line_info:
            if colour == 'green':
                self.green_lines[order[0]] += 1
            if colour == 'red':
                for s in order[1:-1]:
                    self.red_lines[s] += 1
        self.codes = [10 * r + g for r, g in zip(self.red_lines, self.green_lines)]
        self.VV = sum(1 for li in self.line_info if li[3] == 'water')
        self.KK = sum(1 for (k, cs, d) in fleet if any(on_edge(c) for c in cs))
        inner = [(px, py) for py in range(1, N) for px in range(1, N)]
        def around(p):
            return [(p[0] - 1, p[1] - 1), (p[0], p[1] - 1), (p[0] - 1, p[1]), (p[0], p[1])]
        self.water_points = {p for p in inner if not any(c in self.ship_at for c in around(p))}
        self.VP = len(self.water_points)
        # islands
        seen = set()
        sizes = []
        for p in sorted(self.water_points):
            if p in seen:
                continue
            stack = [p]
            seen.add(p)
            n = 0
            while stack:
                q = stack.pop()
                n += 1
                for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    r = (q[0] + d[0], q[1] + d[1])
                    if r in self.water_points and r not in seen:
                        seen.add(r)
                        stack.append(r)
            sizes.append(n)
        self.islands = sorted(sizes, reverse=True)

    def content(self, c):
        """0..4 water digit, 5..8 ALPHA..DELTA"""
        if c in self.ship_at:
            return 5 + ['ALPHA', 'BETA', 'GAMMA', 'DELTA'].index(self.fleet[self.ship_at[c]][0])
        x, y = c
        return sum(1 for p in [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)] if p in self.water_points)

    def red_green(self, c):
        r = g = 0
        for l, ships, order, colour in self.line_info:
            if c not in l:
                continue
            if colour == 'water' or (colour == 'green' and c in self.ship_at):
                g += 1
            if colour == 'red':
                i = self.idx(c)
                if any(max(ships[s]) < i for s in ships) and any(min(ships[t]) > i for t in ships):
                    r += 1
        return r, g

    def colour(self, c):
        return {(0, 0): 0, (1, 0): 1, (0, 1): 2, (2, 0): 3, (0, 2): 4, (1, 1): 5}[self.red_green(c)]

    def parallel_counts(self):
        ad = self.fleet[0][2]
        beta = sum(1 for s in self.fleet if s[0] == 'BETA' and s[2] == ad)
        gamma = sum(1 for s in self.fleet if s[0] == 'GAMMA' and s[2] == ad)
        return beta, gamma


def show(fleet):
    f = Facts(fleet)
    rows = []
    for y in range(N):
        rows.append(''.join('ABGD'[['ALPHA', 'BETA', 'GAMMA', 'DELTA'].index(fleet[f.ship_at[(x, y)]][0])] if (x, y) in f.ship_at else '.' for x in range(N)))
    return '\n'.join(rows)


GROUPS = 'ABCDEZ'


def entry(fleet, origin, groups, directions=True, title='', islands=False):
    f = Facts(fleet)
    out = []
    if title:
        out.append('# ' + title)
    bp, gp = f.parallel_counts()
    out.append('%d %d   %s   %d %d %d   # gallows: VV KK, codes (A B B G G G D D D D), directions given, BETAs and GAMMAs parallel to ALPHA'
               % (f.VV, f.KK, ' '.join(str(c) for c in f.codes), 1 if directions else 0, bp if directions else 0, gp if directions else 0))
    assert len(f.islands) <= 12
    if islands:
        isl = f.islands + [0] * (12 - len(f.islands))
        out.append(' '.join(str(v) for v in isl) + '   # island sizes')
    else:
        out.append(' '.join(['0'] * 12) + '   # island sizes: not given')
    if origin:
        oy, ox = origin
        c = (ox, oy)
        area = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                d = (ox + dx, oy + dy)
                if 0 <= d[0] < 9 and 0 <= d[1] < 9 and d in f.ship_at:
                    area.append(1 + f.colour(d))
                else:
                    area.append(0)
        pts = []
        for dy in (-1, 0, 1, 2):
            for dx in (-1, 0, 1, 2):
                pts.append(1 if (ox + dx, oy + dy) in f.water_points else 0)
        out.append('1 %d %d  %d %d   %s   %s   # origin: row column content colour, area cells, area points'
                   % (oy, ox, f.content(c), f.colour(c), ' '.join(map(str, area)), ' '.join(map(str, pts))))
    else:
        out.append('0 0 0  0 0   ' + ' '.join(['0'] * 9) + '   ' + ' '.join(['0'] * 16) + '   # no origin shot')
    n = 0
    for g, cells in groups:
        # the bag: answers sorted, not in the order of the cells
        answers = sorted((f.content((x, y)), f.colour((x, y))) for (y, x) in cells)
        for (y, x), (ct, co) in zip(cells, answers):
            out.append('%d %d %d  %d %d   # %s' % (GROUPS.index(g) + 1, y, x, ct, co, g))
            n += 1
    assert n <= 15
    while n < 15:
        out.append('0 0 0  0 0')
        n += 1
    return '\n'.join(out) + '\n'


def candidate(seed, with_origin=False, groups=5):
    """Groups A-E (the first `groups`) of three distinct cells each (15 shots for five; the
    text allows 16), drawn from
    the seed (a stream apart from the fleet's); with `with_origin`, a 16th cell drawn after
    them, off the board's rim, is the origin shot: its whole 3x3 area and 16 points are on
    the board (Z3's question without an origin is its slowest; the enumeration's is quick
    with one, tests/cli/smyoz_minimise.py)."""
    rng = random.Random('shots %d' % seed)
    shot = rng.sample([(y, x) for y in range(N) for x in range(N)], 15)
    if with_origin:
        shot.append(rng.choice([(y, x) for y in range(1, N - 1) for x in range(1, N - 1) if (y, x) not in shot]))
    named = ['%s=%s' % (g, '/'.join('%d,%d' % c for c in sorted(shot[3 * i:3 * i + 3])))
             for i, g in enumerate('ABCDE'[:groups])]
    return [str(seed), '%d,%d' % shot[15] if with_origin else '-'] + named


def main(argv):
    import sys
    if argv[1] == '--candidate':
        groups = int(argv[argv.index('--groups') + 1]) if '--groups' in argv else 5
        print(' '.join(candidate(int(argv[2]), '--origin' in argv[3:], groups)))
        return
    seed = int(argv[1])
    fleet = random_fleet(random.Random(seed))
    origin = None if argv[2] == '-' else tuple(int(v) for v in argv[2].split(','))
    groups = []
    islands = 'islands' in argv[3:]
    for arg in argv[3:]:
        if arg == 'islands':
            continue
        g, cells = arg.split('=')
        groups.append((g, [tuple(int(v) for v in rc.split(',')) for rc in cells.split('/')]))
    sys.stdout.write('# made by: tests/cli/smyoz_puzzle_entry.py %s\n' % ' '.join(argv[1:]))
    sys.stdout.write('# fleet of seed %d:\n' % seed)
    sys.stdout.write(''.join('#   ' + row + '\n' for row in show(fleet).split('\n')))
    sys.stdout.write(entry(fleet, origin, groups, islands=islands))


if __name__ == '__main__':
    import sys
    main(sys.argv)
