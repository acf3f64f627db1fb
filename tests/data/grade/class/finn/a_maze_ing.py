"""Growing-tree maze generator (finn)."""

import random
import sys

DIRECTIONS = {"N": (0, -1, 1, 4), "E": (1, 0, 2, 8), "S": (0, 1, 4, 1), "W": (-1, 0, 8, 2)}
GLYPH = (
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 2),
    (2, 2),
    (2, 3),
    (2, 4),
    (4, 0),
    (5, 0),
    (6, 0),
    (6, 1),
    (4, 2),
    (5, 2),
    (6, 2),
    (4, 3),
    (4, 4),
    (5, 4),
    (6, 4),
)


class Maze:
    def __init__(self, options):
        self.w = int(options["WIDTH"])
        self.h = int(options["HEIGHT"])
        self.start = self.cell(options["ENTRY"])
        self.end = self.cell(options["EXIT"])
        self.file = options["OUTPUT_FILE"]
        if self.w <= 0 or self.h <= 0:
            raise ValueError("WIDTH and HEIGHT must be above 0")
        if options["PERFECT"] not in ("True", "False"):
            raise ValueError("PERFECT is True or False")
        if self.start == self.end:
            raise ValueError("ENTRY and EXIT are the same cell")
        self.logo = set()
        if self.w >= 9 and self.h >= 7:
            ox, oy = (self.w - 7) // 2, (self.h - 5) // 2
            self.logo = {(ox + dx, oy + dy) for dx, dy in GLYPH}
        for point in (self.start, self.end):
            if not (0 <= point[0] < self.w and 0 <= point[1] < self.h) or point in self.logo:
                raise ValueError(f"{point} cannot be used")
        self.walls = [[15] * self.w for _ in range(self.h)]
        self.rng = random.Random(options.get("SEED"))

    @staticmethod
    def cell(text):
        x, y = text.split(",")
        return int(x), int(y)

    def grow(self):
        active, done = [self.start], {self.start} | self.logo
        while active:
            index = len(active) - 1 if self.rng.random() < 0.7 else self.rng.randrange(len(active))
            x, y = active[index]
            options = [
                (k, x + v[0], y + v[1])
                for k, v in DIRECTIONS.items()
                if 0 <= x + v[0] < self.w
                and 0 <= y + v[1] < self.h
                and (x + v[0], y + v[1]) not in done
            ]
            if not options:
                active.pop(index)
                continue
            name, nx, ny = self.rng.choice(options)
            self.walls[y][x] -= DIRECTIONS[name][2]
            self.walls[ny][nx] -= DIRECTIONS[name][3]
            done.add((nx, ny))
            active.append((nx, ny))

    def save(self):
        with open(self.file, "w") as handle:
            for row in self.walls:
                handle.write("".join(hex(v)[2:].upper() for v in row) + "\n")
            handle.write(f"\n{self.start[0]},{self.start[1]}\n{self.end[0]},{self.end[1]}\n")


if __name__ == "__main__":
    try:
        with open(sys.argv[1]) as source:
            pairs = [line.strip().split("=", 1) for line in source if line.strip()]
        options = {key.upper(): value for key, value in pairs if not key.startswith("#")}
        maze = Maze(options)
    except (OSError, KeyError, ValueError, IndexError) as problem:
        print(f"config error: {problem}", file=sys.stderr)
        sys.exit(2)
    if not maze.logo:
        print("42 not drawn: the maze is too small", file=sys.stderr)
    maze.grow()
    try:
        maze.save()
    except OSError as problem:
        print(f"cannot save: {problem}", file=sys.stderr)
        sys.exit(1)
