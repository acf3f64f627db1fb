"""MazeGenerator: depth-first carving around the 42, then the shortest path."""

import random
from collections import deque

N, E, S, W = 1, 2, 4, 8
STEPS = {N: (0, -1, S, "N"), E: (1, 0, W, "E"), S: (0, 1, N, "S"), W: (-1, 0, E, "W")}
FORTY_TWO = ["#...###", "#.....#", "###.###", "..#.#..", "..#.###"]


def pattern_cells(width, height):
    """The cells of the 42, centred (x0 = width // 2 - 3), or none when it does not fit."""
    if width < 9 or height < 7:
        return set()
    x0, y0 = width // 2 - 3, height // 2 - 2
    return {
        (x0 + dx, y0 + dy)
        for dy, row in enumerate(FORTY_TWO)
        for dx, mark in enumerate(row)
        if mark == "#"
    }


class MazeGenerator:
    def __init__(self, width, height, entry, exit, seed=None):
        self.width, self.height = width, height
        self.entry, self.exit = entry, exit
        self.rng = random.Random(seed)
        self.pattern = pattern_cells(width, height)
        self.has_pattern = bool(self.pattern)
        self.grid = [[N | E | S | W] * width for _ in range(height)]
        self._carve()

    def _inside(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height and (x, y) not in self.pattern

    def _carve(self):
        visited = {self.entry}
        stack = [self.entry]
        while stack:
            x, y = stack[-1]
            moves = [
                (wall, x + dx, y + dy, back)
                for wall, (dx, dy, back, _) in STEPS.items()
                if self._inside(x + dx, y + dy) and (x + dx, y + dy) not in visited
            ]
            if not moves:
                stack.pop()
                continue
            wall, nx, ny, back = self.rng.choice(moves)
            self.grid[y][x] &= ~wall
            self.grid[ny][nx] &= ~back
            visited.add((nx, ny))
            stack.append((nx, ny))

    def solve(self):
        came = {self.entry: None}
        queue = deque([self.entry])
        while queue:
            x, y = queue.popleft()
            for wall, (dx, dy, _, letter) in STEPS.items():
                nxt = (x + dx, y + dy)
                if not self.grid[y][x] & wall and nxt not in came:
                    came[nxt] = ((x, y), letter)
                    queue.append(nxt)
        path, cell = [], self.exit
        while came[cell] is not None:
            cell, letter = came[cell]
            path.append(letter)
        return "".join(reversed(path))

    def to_text(self):
        rows = ["".join(f"{cell:X}" for cell in row) for row in self.grid]
        ex, ey = self.entry
        xx, xy = self.exit
        return "\n".join(rows) + f"\n\n{ex},{ey}\n{xx},{xy}\n{self.solve()}\n"
