# A-Maze-ing -- Kruskal's algorithm
import random

CONFIG_FILE = "config.txt"

FT = ["1000111", "1000001", "1110111", "0010100", "0010111"]


def read_settings():
    settings = {}
    for line in open(CONFIG_FILE):
        line = line.strip()
        if line and not line.startswith("#"):
            name, value = line.split("=")
            settings[name] = value
    return settings


def find(parents, cell):
    while parents[cell] != cell:
        parents[cell] = parents[parents[cell]]
        cell = parents[cell]
    return cell


def kruskal(width, height, skip, rng):
    maze = [[15 for _ in range(width)] for _ in range(height)]
    parents = {(x, y): (x, y) for y in range(height) for x in range(width)}
    edges = []
    for y in range(height):
        for x in range(width):
            if x + 1 < width:
                edges.append((x, y, x + 1, y))
            if y + 1 < height:
                edges.append((x, y, x, y + 1))
    rng.shuffle(edges)
    for x1, y1, x2, y2 in edges:
        if (x1, y1) in skip or (x2, y2) in skip:
            continue
        a, b = find(parents, (x1, y1)), find(parents, (x2, y2))
        if a == b:
            continue
        parents[a] = b
        if x2 > x1:
            maze[y1][x1] -= 2
            maze[y2][x2] -= 8
        else:
            maze[y1][x1] -= 4
            maze[y2][x2] -= 1
    return maze


def path_between(maze, start, end):
    seen = {start: ""}
    queue = [start]
    for x, y in queue:
        for bit, dx, dy, letter in (
            (1, 0, -1, "N"),
            (2, 1, 0, "E"),
            (4, 0, 1, "S"),
            (8, -1, 0, "W"),
        ):
            nxt = (x + dx, y + dy)
            if not maze[y][x] & bit and nxt not in seen:
                seen[nxt] = seen[(x, y)] + letter
                queue.append(nxt)
    return seen[end]


s = read_settings()
w, h = int(s["WIDTH"]), int(s["HEIGHT"])
start = tuple(int(v) for v in s["ENTRY"].split(","))
end = tuple(int(v) for v in s["EXIT"].split(","))
x0, y0 = (w - 7) // 2, (h - 5) // 2
logo = {(x0 + i, y0 + j) for j in range(5) for i in range(7) if FT[j][i] == "1"}
grid = kruskal(w, h, logo, random.Random(s.get("SEED")))
with open(s["OUTPUT_FILE"], "w") as out:
    for row in grid:
        out.write("".join(format(c, "X") for c in row) + "\n")
    out.write(f"\n{start[0]},{start[1]}\n{end[0]},{end[1]}\n{path_between(grid, start, end)}\n")
print("Maze saved to", s["OUTPUT_FILE"])
