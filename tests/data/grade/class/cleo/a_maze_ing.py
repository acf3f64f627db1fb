import sys
from dataclasses import dataclass
from random import Random

from solver import bfs_path

sys.setrecursionlimit(10_000)

NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
MOVES = ((NORTH, 0, -1, SOUTH), (EAST, 1, 0, WEST), (SOUTH, 0, 1, NORTH), (WEST, -1, 0, EAST))
PATTERN_42 = [
    [1, 0, 0, 0, 1, 1, 1],
    [1, 0, 0, 0, 0, 0, 1],
    [1, 1, 1, 0, 1, 1, 1],
    [0, 0, 1, 0, 1, 0, 0],
    [0, 0, 1, 0, 1, 1, 1],
]


@dataclass
class Settings:
    width: int
    height: int
    entry: tuple
    exit: tuple
    output_file: str
    perfect: bool
    seed: int


def load(path: str) -> Settings:
    raw = {}
    with open(path) as file:
        for line in file:
            if line.strip() and not line.startswith("#"):
                key, sep, value = line.strip().partition("=")
                if not sep:
                    raise ValueError(f"invalid line '{line.strip()}'")
                raw[key.strip().upper()] = value.strip()
    if "SEED" not in raw:
        raise ValueError("SEED is required")
    try:
        settings = Settings(
            int(raw["WIDTH"]),
            int(raw["HEIGHT"]),
            tuple(map(int, raw["ENTRY"].split(","))),
            tuple(map(int, raw["EXIT"].split(","))),
            raw["OUTPUT_FILE"],
            {"True": True, "False": False}[raw["PERFECT"]],
            int(raw["SEED"]),
        )
    except KeyError as missing:
        raise ValueError(f"missing or wrong value for {missing}") from None
    if settings.width < 1 or settings.height < 1:
        raise ValueError("WIDTH and HEIGHT must be positive")
    for cell in (settings.entry, settings.exit):
        if len(cell) != 2 or not (0 <= cell[0] < settings.width and 0 <= cell[1] < settings.height):
            raise ValueError(f"{cell} is outside the maze")
    if settings.entry == settings.exit:
        raise ValueError("ENTRY equals EXIT")
    return settings


def forty_two(s: Settings) -> set:
    if s.width < 9 or s.height < 7:
        return set()
    ox, oy = (s.width - 7) // 2, (s.height - 5) // 2
    return {(ox + c, oy + r) for r in range(5) for c in range(7) if PATTERN_42[r][c]}


def dig(grid, x, y, seen, rng, s):
    seen.add((x, y))
    order = list(MOVES)
    rng.shuffle(order)
    for wall, dx, dy, opposite in order:
        nx, ny = x + dx, y + dy
        if 0 <= nx < s.width and 0 <= ny < s.height and (nx, ny) not in seen:
            grid[y][x] ^= wall
            grid[ny][nx] ^= opposite
            dig(grid, nx, ny, seen, rng, s)


def main() -> None:
    try:
        s = load(sys.argv[1])
    except (ValueError, OSError, IndexError) as err:
        sys.exit(f"Error: {err}")
    blocked = forty_two(s)
    if not blocked:
        print("Error: the maze is too small for the 42 logo", file=sys.stderr)
    if s.entry in blocked or s.exit in blocked:
        sys.exit("Error: the entry or the exit falls on the 42")
    grid = [[15] * s.width for _ in range(s.height)]
    dig(grid, *s.entry, set(blocked), Random(s.seed), s)
    lines = ["".join("0123456789ABCDEF"[v] for v in row) for row in grid]
    path = bfs_path(grid, s.entry, s.exit)
    try:
        with open(s.output_file, "w") as out:
            out.write("\n".join(lines) + "\n\n")
            out.write(f"{s.entry[0]},{s.entry[1]}\n{s.exit[0]},{s.exit[1]}\n{path}\n")
    except OSError as err:
        sys.exit(f"Error: {err}")


if __name__ == "__main__":
    main()
