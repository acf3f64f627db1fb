"""A-Maze-ing by eve: an Aldous-Broder random walk."""

import random
import sys

OPPOSITE = {1: 4, 2: 8, 4: 1, 8: 2}
OFFSET = {1: (0, -1), 2: (1, 0), 4: (0, 1), 8: (-1, 0)}


def config(path):
    cfg = dict(line.strip().split("=", 1) for line in open(path) if "=" in line)
    cfg = {key.strip().upper(): value.strip() for key, value in cfg.items()}
    width, height = int(cfg["WIDTH"]), int(cfg["HEIGHT"])
    entry = tuple(int(v) for v in cfg["ENTRY"].split(","))
    exit_ = tuple(int(v) for v in cfg["EXIT"].split(","))
    if width < 1 or height < 1 or cfg["PERFECT"] not in ("True", "False"):
        raise ValueError("bad WIDTH, HEIGHT or PERFECT")
    if entry == exit_ or not all(0 <= c[0] < width and 0 <= c[1] < height for c in (entry, exit_)):
        raise ValueError("bad ENTRY or EXIT")
    return width, height, entry, exit_, cfg["OUTPUT_FILE"], cfg.get("SEED")


def logo(width, height):
    if width < 9 or height < 7:
        return set()
    art = ["#...###", "#.....#", "###.###", "..#.#..", "..#.###"]
    left, top = (width - 7) // 2, (height - 5) // 2
    return {(left + i, top + j) for j in range(5) for i in range(7) if art[j][i] == "#"}


def walk(width, height, entry, closed, rng):
    cells = [[15] * width for _ in range(height)]
    todo = width * height - len(closed) - 1
    seen = {entry}
    x, y = entry
    while todo:
        side = rng.choice((1, 2, 4, 8))
        nx, ny = x + OFFSET[side][0], y + OFFSET[side][1]
        if not (0 <= nx < width and 0 <= ny < height) or (nx, ny) in closed:
            continue
        if (nx, ny) not in seen:
            cells[y][x] &= ~side
            cells[ny][nx] &= ~OPPOSITE[side]
            seen.add((nx, ny))
            todo -= 1
        x, y = nx, ny
    return cells


def route(cells, entry, exit_):
    back = {entry: None}
    layer = [entry]
    while exit_ not in back:
        nxt = []
        for x, y in layer:
            for side, (dx, dy) in OFFSET.items():
                if not cells[y][x] & side and (x + dx, y + dy) not in back:
                    back[(x + dx, y + dy)] = (x, y, "NESW"[side.bit_length() - 1])
                    nxt.append((x + dx, y + dy))
        layer = nxt
    steps, cell = "", exit_
    while back[cell]:
        x, y, letter = back[cell]
        steps, cell = letter + steps, (x, y)
    return steps


try:
    width, height, entry, exit_, output, seed = config(sys.argv[1])
except (KeyError, ValueError, OSError) as error:
    sys.exit(f"Error in the config: {error}")
closed = logo(width, height)
if not closed:
    print("The maze is too small for the 42.")
if entry in closed or exit_ in closed:
    sys.exit("Error: ENTRY or EXIT on the 42")
cells = walk(width, height, entry, closed, random.Random(seed))
try:
    with open(output, "w") as out:
        out.write("\n".join("".join("%X" % c for c in row) for row in cells) + "\n\n")
        out.write(f"{entry}\n{exit_}\n{route(cells, entry, exit_)}\n")
except OSError as error:
    sys.exit(f"Error: {error}")
