#!/usr/bin/env python3
"""Sudoku Moyo endgames, for `rulebook solve --game` against a minimax written here.

moyo_endgame.py write OUT.txt K E SEED...  one entry per seed: puzzle 5's solution with K
                                           cells of each side free, in K shared columns,
                                           and E more of light's (the Azumaya full)
moyo_endgame.py value OUT.txt ENTRY         the value for light (win, draw, loss) by plain
                                           minimax over the rules as RULES.md section 5 says

The rules, written again here (not read from moyo.rules): the Azumaya is full, so play is
in the Shima at once; light moves first; a move places a number 1-9 in a free cell of the
mover's own Shima that is not in the cell's row, column or box; a player who cannot place
when it is their turn ends the game; the player who placed the last stone into their own
Shima wins, and if nobody placed one the game is drawn.
"""
import random
import sys
from functools import lru_cache

SOLUTION = ["975214683", "623879514", "418635297", "841952736", "536187429",
            "792463158", "259748361", "364591872", "187326945"]


def owner(r, c):
    """'L' light, 'D' dark, 'A' the Azumaya (the default split of moyo.rules)."""
    if r < 3 or (r < 6 and c < 3):
        return "L"
    if r >= 6 or (r < 6 and c >= 6):
        return "D"
    return "A"


def write(out, k, extra, seeds):
    """Each side's K free cells share columns and rows with the other's, so that a stone can
    take a number the other side's cell needs: in each of K columns drawn, a light cell of
    the top band and a dark cell of the bottom band are freed (rows drawn)."""
    entries = []
    for seed in seeds:
        rng = random.Random(seed)
        grid = [list(row) for row in SOLUTION]
        for c in rng.sample(range(9), k):
            grid[rng.randrange(0, 3)][c] = "."
            grid[rng.randrange(6, 9)][c] = "."
        light = [(r, c) for r in range(9) for c in range(9) if owner(r, c) == "L" and grid[r][c] != "."]
        for r, c in rng.sample(light, extra):
            grid[r][c] = "."
        entries.append("\n".join("".join(row) for row in grid))
    with open(out, "w") as f:
        f.write(f"# Moyo endgames: puzzle 5's solution, {k} cells of each side free in shared columns and {extra} more "
                f"of light's (seeds {' '.join(map(str, seeds))})\n")
        f.write("\n\n".join(entries) + "\n")


def read(path, entry):
    lines = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
    return [list(row) for row in lines[9 * (entry - 1): 9 * entry]]


def value(grid):
    free = {"L": [], "D": []}
    for r in range(9):
        for c in range(9):
            if grid[r][c] == ".":
                free[owner(r, c)].append((r, c))
    digits = {(r, c): grid[r][c] for r in range(9) for c in range(9) if grid[r][c] != "."}

    def fits(board, r, c, d):
        for (rr, cc), v in board:
            if v == d and (rr == r or cc == c or (rr // 3 == r // 3 and cc // 3 == c // 3)):
                return False
        return all(not (v == d and (rr == r or cc == c or (rr // 3 == r // 3 and cc // 3 == c // 3)))
                   for (rr, cc), v in digits.items())

    # A state: the stones placed so far (a frozenset of ((r, c), d)), who moves, who placed last.
    @lru_cache(maxsize=None)
    def solve(placed, mover, last):
        moves = []
        taken = {cell for cell, _ in placed}
        for r, c in free[mover]:
            if (r, c) in taken:
                continue
            for d in "123456789":
                if fits(placed, r, c, d):
                    moves.append(((r, c), d))
        if not moves:  # the game ends: the last to place into their own Shima wins
            return 0 if last is None else (1 if last == "L" else -1)
        other = "D" if mover == "L" else "L"
        results = [solve(placed | {m}, other, mover) for m in moves]
        return max(results) if mover == "L" else min(results)

    v = solve(frozenset(), "L", None)
    return {1: "win", 0: "draw", -1: "loss"}[v]


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), [int(s) for s in sys.argv[5:]])
    else:
        print(value(read(sys.argv[2], int(sys.argv[3]))))
