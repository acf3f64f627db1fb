"""mazegen: read an A-Maze-ing config and write a maze (a depth-first search, seeded)."""

import random

__all__ = ["read_config", "write_maze"]

N, E, S, W = 1, 2, 4, 8
MOVES = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
BACK = {N: S, S: N, E: W, W: E}
FORTY_TWO = [
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
    (6, 2),
    (5, 2),
    (4, 2),
    (4, 3),
    (4, 4),
    (5, 4),
    (6, 4),
]


def read_config(path: str) -> dict[str, str]:
    settings = {}
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                raise ValueError(f"bad line: {line}")
            key, value = line.split("=", 1)
            settings[key.strip()] = value.strip()
    for key in ("WIDTH", "HEIGHT", "ENTRY", "EXIT", "OUTPUT_FILE", "PERFECT"):
        if key not in settings:
            raise ValueError(f"missing key {key}")
    return settings


def write_maze(settings: dict[str, str]) -> None:
    width, height = int(settings["WIDTH"]), int(settings["HEIGHT"])
    if width <= 0 or height <= 0:
        raise ValueError("WIDTH and HEIGHT must be positive")
    entry = tuple(int(v) for v in settings["ENTRY"].split(","))
    exit_ = tuple(int(v) for v in settings["EXIT"].split(","))
    rng = random.Random(int(settings.get("SEED") or 0))
    walls = [[15] * width for _ in range(height)]
    x0, y0 = (width - 7) // 2, (height - 5) // 2
    closed = {(x0 + dx, y0 + dy) for dx, dy in FORTY_TWO} if width >= 9 and height >= 7 else set()
    seen = set(closed) | {entry}
    stack = [entry]
    while stack:
        x, y = stack[-1]
        options = [
            d
            for d, (dx, dy) in MOVES.items()
            if 0 <= x + dx < width and 0 <= y + dy < height and (x + dx, y + dy) not in seen
        ]
        if not options:
            stack.pop()
            continue
        d = rng.choice(options)
        nx, ny = x + MOVES[d][0], y + MOVES[d][1]
        walls[y][x] &= ~d
        walls[ny][nx] &= ~BACK[d]
        seen.add((nx, ny))
        stack.append((nx, ny))
    path = solve(walls, entry, exit_)
    with open(settings["OUTPUT_FILE"], "w") as out:
        out.write("\n".join("".join(f"{c:X}" for c in row) for row in walls) + "\n\n")
        out.write(f"{entry[0]},{entry[1]}\n{exit_[0]},{exit_[1]}\n{path}\n")


def solve(walls: list[list[int]], entry: tuple[int, ...], exit_: tuple[int, ...]) -> str:
    letters = {N: "N", E: "E", S: "S", W: "W"}
    previous = {entry: None}
    queue = [entry]
    for x, y in queue:
        for d, (dx, dy) in MOVES.items():
            if not walls[y][x] & d and (x + dx, y + dy) not in previous:
                previous[(x + dx, y + dy)] = ((x, y), letters[d])
                queue.append((x + dx, y + dy))
    steps = []
    cell = exit_
    while previous[cell] is not None:
        cell, letter = previous[cell]
        steps.append(letter)
    return "".join(reversed(steps))
