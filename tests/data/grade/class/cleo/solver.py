"""Breadth-first search for the shortest path of the maze."""

STEP = {"N": (0, -1, 1), "E": (1, 0, 2), "S": (0, 1, 4), "W": (-1, 0, 8)}


def bfs_path(grid, start, goal):
    frontier = [start]
    parent = {start: ""}
    while frontier and goal not in parent:
        following = []
        for x, y in frontier:
            for letter, (dx, dy, bit) in STEP.items():
                if not grid[y][x] & bit and (x + dx, y + dy) not in parent:
                    parent[(x + dx, y + dy)] = parent[(x, y)] + letter
                    following.append((x + dx, y + dy))
        frontier = following
    return parent.get(goal, "")
