"""Test-only mazes and reference searches for the solve tests.

Mazes of shapes ``generate`` never makes, built here: random spanning trees (randomized
depth-first search) with walls opened anywhere for loops, or random wall sets. Walls always stay
coherent and the border closed. The references are deliberately plain and slow: a deque BFS
on (x, y) cells, and enumeration of every simple path on tiny grids.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator

from mazekit.model import BY_LETTER, DIRECTIONS, Cell, Maze
from tests.conftest import closed_grid, open_wall

__all__ = [
    "brute_force_shortest",
    "passable",
    "random_walls_maze",
    "reference_distance",
    "tree_maze",
]


def tree_maze(
    rng: random.Random, width: int, height: int, loops: int = 0, corners: bool = True
) -> Maze:
    """A perfect maze by randomized DFS, then ``loops`` extra walls opened at random.

    Entry and exit are opposite corners, or random distinct cells when ``corners`` is False.
    """
    walls = closed_grid(width, height)
    seen = {(0, 0)}
    stack: list[Cell] = [(0, 0)]
    while stack:
        x, y = stack[-1]
        options = [
            d
            for d in DIRECTIONS
            if 0 <= x + d.dx < width and 0 <= y + d.dy < height and (x + d.dx, y + d.dy) not in seen
        ]
        if not options:
            stack.pop()
            continue
        d = rng.choice(options)
        open_wall(walls, x, y, d.letter)
        seen.add((x + d.dx, y + d.dy))
        stack.append((x + d.dx, y + d.dy))
    for _ in range(loops):
        x, y = rng.randrange(width), rng.randrange(height)
        d = rng.choice(DIRECTIONS)
        if 0 <= x + d.dx < width and 0 <= y + d.dy < height:
            open_wall(walls, x, y, d.letter)
    if corners or width * height < 2:
        entry, exit_ = (0, 0), (width - 1, height - 1)
    else:
        cells = [(x, y) for y in range(height) for x in range(width)]
        entry, exit_ = rng.sample(cells, 2)
    return Maze(walls, entry, exit_)


def random_walls_maze(
    width: int, height: int, east: list[bool], south: list[bool], entry: Cell, exit_: Cell
) -> Maze:
    """A maze whose inner walls are open where ``east`` (row-major, H x (W-1)) or ``south``
    ((H-1) x W) say True: any graph on the grid, connected or not, with or without loops."""
    walls = closed_grid(width, height)
    for index, is_open in enumerate(east):
        if is_open:
            open_wall(walls, index % (width - 1), index // (width - 1), "E")
    for index, is_open in enumerate(south):
        if is_open:
            open_wall(walls, index % width, index // width, "S")
    return Maze(walls, entry, exit_)


def passable(maze: Maze, cell: Cell, letter: str) -> bool:
    """Whether one may step from ``cell`` towards ``letter``: inside, and open on both sides."""
    d = BY_LETTER[letter]
    x, y = cell
    nx, ny = x + d.dx, y + d.dy
    if not (0 <= nx < maze.width and 0 <= ny < maze.height):
        return False
    return not (int(maze.walls[y, x]) & d.bit) and not (int(maze.walls[ny, nx]) & d.opposite)


def reference_distance(maze: Maze, start: Cell, goal: Cell, moves: str = "NESW") -> int | None:
    """Steps of a shortest path by a textbook deque BFS over (x, y), or None."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            return seen[cell]
        for letter in moves:
            if passable(maze, cell, letter):
                d = BY_LETTER[letter]
                following = (cell[0] + d.dx, cell[1] + d.dy)
                if following not in seen:
                    seen[following] = seen[cell] + 1
                    queue.append(following)
    return None


def _simple_paths(maze: Maze, start: Cell, goal: Cell, moves: str) -> Iterator[str]:
    """Every path from ``start`` to ``goal`` that visits no cell twice (exponential)."""
    letters: list[str] = []
    on_path = {start}

    def extend(cell: Cell) -> Iterator[str]:
        if cell == goal:
            yield "".join(letters)
            return
        for letter in moves:
            if passable(maze, cell, letter):
                d = BY_LETTER[letter]
                following = (cell[0] + d.dx, cell[1] + d.dy)
                if following not in on_path:
                    on_path.add(following)
                    letters.append(letter)
                    yield from extend(following)
                    letters.pop()
                    on_path.discard(following)

    yield from extend(start)


def brute_force_shortest(
    maze: Maze, start: Cell, goal: Cell, moves: str = "NESW"
) -> tuple[int, str] | None:
    """(number of shortest paths, the first of them in N, E, S, W order), or None.

    Shortest paths are simple, so enumerating simple paths finds them all.
    """
    rank = {letter: index for index, letter in enumerate("NESW")}
    paths = list(_simple_paths(maze, start, goal, moves))
    if not paths:
        return None
    shortest = min(len(path) for path in paths)
    best = [path for path in paths if len(path) == shortest]
    return len(best), min(best, key=lambda path: [rank[letter] for letter in path])
