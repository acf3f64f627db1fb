"""Independent reference counts for the board tests: plain Python, cell by cell, from the
definitions of specs/dead-ends.md and specs/stats.md, sharing no code with mazekit's numpy."""

from __future__ import annotations

from collections import deque

from mazekit.model import Maze
from mazekit.pattern import pattern_cells

Cell = tuple[int, int]
# (bit, dx, dy, bit of the same wall seen from the neighbour)
SIDES = ((1, 0, -1, 4), (2, 1, 0, 8), (4, 0, 1, 1), (8, -1, 0, 2))


def neighbours(maze: Maze, cell: Cell) -> list[Cell]:
    """The cells joined to ``cell`` by a wall both sides say is open."""
    x, y = cell
    found = []
    for bit, dx, dy, opposite in SIDES:
        nx, ny = x + dx, y + dy
        inside = 0 <= nx < maze.width and 0 <= ny < maze.height
        if inside and not maze.walls[y, x] & bit and not maze.walls[ny, nx] & opposite:
            found.append((nx, ny))
    return found


def reachable(maze: Maze) -> set[Cell]:
    """Cells joined to the entry (none when the entry is outside the grid)."""
    if not maze.contains(maze.entry):
        return set()
    seen = {maze.entry}
    queue = deque([maze.entry])
    while queue:
        for near in neighbours(maze, queue.popleft()):
            if near not in seen:
                seen.add(near)
                queue.append(near)
    return seen


def distance(maze: Maze, start: Cell, goal: Cell) -> int | None:
    """Steps of a shortest path, or None."""
    if not (maze.contains(start) and maze.contains(goal)):
        return None
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for near in neighbours(maze, cell):
            if near not in dist:
                dist[near] = dist[cell] + 1
                queue.append(near)
    return dist.get(goal)


def reachable_loops(maze: Maze) -> int:
    """Open walls among the reachable cells, each counted once, - cells + 1 (0 when none)."""
    cells = reachable(maze)
    if not cells:
        return 0
    walls = sum(len(neighbours(maze, cell)) for cell in cells) // 2
    return walls - len(cells) + 1


def grid_loops(maze: Maze) -> int:
    """Cycle rank of the whole grid by union-find: open walls that join two joined cells."""
    parent = {(x, y): (x, y) for y in range(maze.height) for x in range(maze.width)}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    loops = 0
    for x, y in list(parent):
        for near in neighbours(maze, (x, y)):
            if near > (x, y):
                a, b = root((x, y)), root(near)
                if a == b:
                    loops += 1
                else:
                    parent[a] = b
    return loops


def dead_ends(maze: Maze, pattern: set[Cell] | None = None) -> tuple[set[Cell], set[Cell]]:
    """(real, enclosed): reachable non-"42" cells with one open wall; enclosed when every
    closed wall faces the border or a "42" cell (``pattern``: the "42" unless given)."""
    if pattern is None:
        pattern = set(pattern_cells(maze.width, maze.height))
    real, enclosed = set(), set()
    for cell in reachable(maze) - pattern:
        if len(neighbours(maze, cell)) != 1:
            continue
        x, y = cell
        (joined,) = neighbours(maze, cell)
        openable = any(
            0 <= x + dx < maze.width
            and 0 <= y + dy < maze.height
            and (x + dx, y + dy) not in pattern
            and (x + dx, y + dy) != joined
            for _, dx, dy, _ in SIDES
        )
        (real if openable else enclosed).add(cell)
    return real, enclosed


def incoherent_walls(maze: Maze) -> int:
    """Inner walls whose two cells disagree."""
    count = 0
    for y in range(maze.height):
        for x in range(maze.width):
            if x + 1 < maze.width:
                count += bool(maze.walls[y, x] & 2) != bool(maze.walls[y, x + 1] & 8)
            if y + 1 < maze.height:
                count += bool(maze.walls[y, x] & 4) != bool(maze.walls[y + 1, x] & 1)
    return count


def degrees(maze: Maze) -> dict[str, int]:
    """Reachable cells by kind: 3-way and 4-way junctions, straight and turning corridors."""
    kinds = {"three_way": 0, "four_way": 0, "straight": 0, "turning": 0}
    for cell in reachable(maze):
        joined = neighbours(maze, cell)
        if len(joined) == 3:
            kinds["three_way"] += 1
        elif len(joined) == 4:
            kinds["four_way"] += 1
        elif len(joined) == 2:
            (ax, ay), (bx, by) = joined
            kinds["straight" if ax == bx or ay == by else "turning"] += 1
    return kinds


def longest_branch(maze: Maze) -> int:
    """Rounds of peeling: each round removes every leaf at once, never the entry or exit."""
    left = reachable(maze)
    pins = {maze.entry, maze.exit}
    rounds = 0
    while True:
        leaves = {
            cell
            for cell in left - pins
            if sum(near in left for near in neighbours(maze, cell)) <= 1
        }
        if not leaves:
            return rounds
        left -= leaves
        rounds += 1


def most_loops(maze: Maze) -> int:
    """The most reachable loops that opening walls can give, by trying every choice.

    Each closed wall between two reachable non-"42" cells is tried open and closed (a search
    with pruning, for small grids); no 3x3 square may end with its 12 inner walls all open.
    """
    pattern = set(pattern_cells(maze.width, maze.height))
    cells = reachable(maze) - pattern

    def shut(wall: tuple[Cell, Cell]) -> bool:
        return wall[1] not in neighbours(maze, wall[0])

    candidates = [
        ((x, y), near)
        for x, y in sorted(cells, key=lambda cell: (cell[1], cell[0]))
        for near in ((x + 1, y), (x, y + 1))
        if near in cells and shut(((x, y), near))
    ]
    index = {wall: i for i, wall in enumerate(candidates)}
    # per candidate, the squares whose last closed candidate it is (in the order tried)
    last: list[list[list[int]]] = [[] for _ in candidates]
    for top in range(maze.height - 2):
        for left in range(maze.width - 2):
            inner = [((x, y), (x + 1, y)) for y in range(top, top + 3) for x in (left, left + 1)]
            inner += [((x, y), (x, y + 1)) for y in (top, top + 1) for x in range(left, left + 3)]
            closed = [wall for wall in inner if shut(wall)]
            if closed and all(wall in index for wall in closed):
                members = sorted(index[wall] for wall in closed)
                last[members[-1]].append(members)
    opened = [False] * len(candidates)
    best = 0

    def search(i: int, count: int) -> None:
        nonlocal best
        if count + len(candidates) - i <= best:
            return
        if i == len(candidates):
            best = count
            return
        opened[i] = True
        if not any(all(opened[j] for j in square) for square in last[i]):
            search(i + 1, count + 1)
        opened[i] = False
        search(i + 1, count)

    search(0, 0)
    return reachable_loops(maze) + best
