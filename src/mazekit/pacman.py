"""Dead ends (real and enclosed) and braiding: what turns a maze into a Pac-Man board.

specs/dead-ends.md defines the terms. A dead end is a reachable cell outside the "42" with
exactly one open wall; it is enclosed when every closed wall of it faces the border or a
pattern cell (no wall can be opened), and real otherwise. Braiding opens walls of real dead
ends until few are left, then opens further walls until the board has enough loops, and never
opens a border wall, a wall of a pattern cell, or a wall that would make a 3x3 open area.
``mazekit generate --imperfect`` and ``mazekit pacmanize`` both stand on this module, and the
board's key cells (specs/pacman.md: the corners and the centre) are defined here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from . import pattern as glyph
from .errors import ConfigError, MazeError, PlacedError
from .model import ALL_WALLS, EAST, NORTH, SOUTH, WEST, Cell, Maze, Walls
from .search import open_bits, reachable_mask, shortest_path

if TYPE_CHECKING:  # the type only: validate loads this module, and needs no random source
    import random

__all__ = [
    "CORNER_NAMES",
    "MAX_DEAD_ENDS",
    "MIN_LOOPS",
    "BoardError",
    "DeadEnds",
    "InvalidMazeError",
    "braid",
    "braid_walls",
    "centre",
    "classify_dead_ends",
    "corners",
    "count_loops",
    "dead_ends",
    "middle_cells",
    "pacmanize",
]

BoolGrid = npt.NDArray[np.bool_]
MIN_LOOPS = 2  # the subject's Pac-Man board: at least two independent loops
MAX_DEAD_ENDS = 2  # ... and at most two real dead ends (0 is the arcade grade)
CORNER_NAMES = ("north-west", "north-east", "south-west", "south-east")

_POPCOUNT = np.array([bin(n).count("1") for n in range(16)], dtype=np.uint8)
_BITS = (NORTH, EAST, SOUTH, WEST)
_OPPOSITE = (SOUTH, WEST, NORTH, EAST)


class BoardError(MazeError):
    """A maze that cannot be braided into a board within the limits asked for."""


class InvalidMazeError(PlacedError):
    """A maze that breaks a rule of validate, so it cannot be made a board; names the first."""


class DeadEnds(NamedTuple):
    """The dead ends of a maze in reading order: ``real`` ones can be opened, ``enclosed`` not."""

    real: tuple[Cell, ...]
    enclosed: tuple[Cell, ...]


def _pattern(maze_walls: Walls, pattern: BoolGrid | None) -> BoolGrid:
    """The given pattern mask, or the "42" of specs/rules.md for this size."""
    if pattern is not None:
        return pattern
    height, width = maze_walls.shape
    return glyph.pattern_mask(width, height)


def _openable(pattern: BoolGrid) -> npt.NDArray[np.uint8]:
    """Per cell, the bits of the walls that face a cell of the grid outside the pattern."""
    usable = (~pattern).astype(np.uint8)
    bits = np.zeros(pattern.shape, dtype=np.uint8)
    bits[1:, :] |= usable[:-1, :] * NORTH
    bits[:, :-1] |= usable[:, 1:] * EAST
    bits[:-1, :] |= usable[1:, :] * SOUTH
    bits[:, 1:] |= usable[:, :-1] * WEST
    return bits


class _Facts(NamedTuple):
    """What braiding and counting need, as H x W arrays."""

    reach: BoolGrid  # cells connected to the entry
    usable: BoolGrid  # reachable cells outside the pattern: the board
    real: BoolGrid
    enclosed: BoolGrid
    moves: npt.NDArray[np.uint8]  # per cell, the bits of its coherent open walls


def classify_dead_ends(
    moves: npt.NDArray[np.uint8], reach: BoolGrid, pattern: BoolGrid
) -> tuple[BoolGrid, BoolGrid]:
    """(real, enclosed) dead-end masks, from the open-wall bits and the reachable cells."""
    dead = reach & ~pattern & (_POPCOUNT[moves] == 1)
    real = dead & ((_openable(pattern) & ~moves) != 0)
    return real, dead & ~real


def _classify(walls: Walls, entry: Cell, pattern: BoolGrid) -> _Facts:
    """Reachable and usable cells, real and enclosed dead ends, and the open walls."""
    moves = open_bits(walls)
    reach = reachable_mask(walls, entry)
    real, enclosed = classify_dead_ends(moves, reach, pattern)
    return _Facts(reach, reach & ~pattern, real, enclosed, moves)


def _cells(mask: BoolGrid) -> tuple[Cell, ...]:
    """The True cells of ``mask`` in reading order."""
    width = mask.shape[1]
    return tuple((int(i % width), int(i // width)) for i in np.flatnonzero(mask))


def dead_ends(maze: Maze, *, pattern: BoolGrid | None = None) -> DeadEnds:
    """The real and enclosed dead ends of ``maze`` (pattern: the "42" unless given)."""
    facts = _classify(maze.walls, maze.entry, _pattern(maze.walls, pattern))
    return DeadEnds(_cells(facts.real), _cells(facts.enclosed))


def _loops(moves: npt.NDArray[np.uint8], reach: BoolGrid) -> int:
    """Open walls among the ``reach`` cells, minus their number, plus one (0 when empty)."""
    cells = int(reach.sum())
    if cells == 0:
        return 0
    east = (moves[:, :-1] & EAST) != 0
    south = (moves[:-1, :] & SOUTH) != 0
    edges = int((east & reach[:, :-1] & reach[:, 1:]).sum())
    edges += int((south & reach[:-1, :] & reach[1:, :]).sum())
    return edges - cells + 1


def count_loops(maze: Maze) -> int:
    """Independent loops among the cells reachable from the entry: open walls - cells + 1."""
    return _loops(open_bits(maze.walls), reachable_mask(maze.walls, maze.entry))


def braid_walls(
    walls: Walls,
    entry: Cell,
    *,
    max_dead_ends: int = 2,
    min_loops: int = MIN_LOOPS,
    target: int | None = None,
    rng: random.Random | None = None,
    pattern: BoolGrid | None = None,
) -> Walls:
    """The walls of ``walls`` braided into a board; the input array is not changed.

    Opens walls of real dead ends, in a random order, until at most ``target`` (default
    ``max_dead_ends``) are left, then opens random walls until there are ``min_loops`` loops.
    Raises BoardError when the result would keep more than ``max_dead_ends`` real dead ends
    or fewer than ``min_loops`` loops.
    """
    from .rng import make_rng  # not at import time: validate loads this module, not braiding

    board = _Board(walls, entry, _pattern(walls, pattern), rng or make_rng(0))
    board.braid(max_dead_ends if target is None else target)
    board.add_loops(min_loops)
    if board.remaining > max_dead_ends:
        one = board.remaining == 1
        raise BoardError(
            f"{board.remaining} real dead end{'' if one else 's'} "
            f"{'remains' if one else 'remain'}, more than the {max_dead_ends} allowed "
            f"({'its' if one else 'their'} walls face cells that cannot be reached)"
        )
    return board.walls()


def braid(
    maze: Maze,
    *,
    max_dead_ends: int = 2,
    min_loops: int = MIN_LOOPS,
    target: int | None = None,
    rng: random.Random | None = None,
    pattern: BoolGrid | None = None,
) -> Maze:
    """A braided copy of ``maze`` (see braid_walls) with a new shortest path."""
    walls = braid_walls(
        maze.walls,
        maze.entry,
        max_dead_ends=max_dead_ends,
        min_loops=min_loops,
        target=target,
        rng=rng,
        pattern=pattern,
    )
    path = shortest_path(walls, maze.entry, maze.exit) if maze.contains(maze.exit) else None
    return Maze(walls, maze.entry, maze.exit, path or "")


def corners(width: int, height: int) -> tuple[Cell, ...]:
    """The four corners, in the order of CORNER_NAMES: the ghosts' homes and the energizers'."""
    return ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1))


def centre(width: int, height: int) -> Cell:
    """The player's start: ((W-1)//2, (H-1)//2), the free column between the "4" and the "2"."""
    return ((width - 1) // 2, (height - 1) // 2)


def middle_cells(width: int, height: int) -> tuple[Cell, ...]:
    """The 1, 2 or 4 middle cells (2 per even side), in reading order; any may be the centre."""
    xs = sorted({(width - 1) // 2, width // 2})
    ys = sorted({(height - 1) // 2, height // 2})
    return tuple((x, y) for y in ys for x in xs)


def _count(name: str, value: int) -> int:
    """A limit given to pacmanize: a non-negative integer, or ConfigError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{name} must be a non-negative integer, got '{value}'")
    return value


def pacmanize(
    maze: Maze,
    *,
    max_dead_ends: int = MAX_DEAD_ENDS,
    min_loops: int = MIN_LOOPS,
    seed: int | None = None,
) -> Maze:
    """``maze`` braided into a Pac-Man board (specs/pacman.md), aiming for 0 real dead ends.

    InvalidMazeError when ``maze`` breaks a rule of validate (the path aside: a new one is
    written), BoardError when the limits cannot be met. Without a seed, seed 0: deterministic.
    """
    from .rules import validate  # rules stands on this module, not the other way round

    limit = _count("max_dead_ends", max_dead_ends)
    loops = _count("min_loops", min_loops)
    report = validate(maze, skip=("path",), limit=1)
    if not report.valid:
        first = report.violations[0]
        more = report.count() - 1
        tail = (
            f" (and {more} more violation{'s' if more > 1 else ''}: mazekit validate lists them)"
            if more
            else ""
        )
        raise InvalidMazeError(
            f"not a valid maze: {first.rule}: {first.message}{tail}", first.line, first.column
        )
    from .rng import make_rng

    rng = make_rng(0 if seed is None else seed)
    return braid(maze, max_dead_ends=limit, min_loops=loops, target=0, rng=rng)


class _Board:
    """Braiding state over flat arrays padded by one closed ring (no bounds checks needed)."""

    def __init__(self, walls: Walls, entry: Cell, pattern: BoolGrid, rng: random.Random) -> None:
        height, width = walls.shape
        self.width, self.height = width, height
        self.stride = stride = width + 2
        facts = _classify(walls, entry, pattern)
        usable, real, moves = facts.usable, facts.real, facts.moves
        self.loops = _loops(moves, facts.reach)
        self.rng = rng
        from .rng import shuffle

        self.shuffle = shuffle

        def framed(inner: npt.NDArray[np.uint8], ring: int) -> bytearray:
            frame = np.full((height + 2, stride), ring, dtype=np.uint8)
            frame[1:-1, 1:-1] = inner
            return bytearray(frame.tobytes())

        self.frame = framed(walls.astype(np.uint8), ALL_WALLS)
        self.moves = framed(moves, 0)  # coherent open walls only
        self.usable = framed(usable.astype(np.uint8), 0)
        self.real = framed(real.astype(np.uint8), 0)
        self.remaining = int(real.sum())
        self.offsets = (-stride, 1, stride, -1)

    def walls(self) -> Walls:
        """The current walls as an H x W array."""
        frame = np.frombuffer(self.frame, dtype=np.uint8).reshape(self.height + 2, self.stride)
        return frame[1:-1, 1:-1].copy()

    def _set(self, cell: int, direction: int, opened: bool) -> None:
        """Open (or close) the wall of ``cell`` towards ``direction`` on both sides."""
        near = cell + self.offsets[direction]
        bit, opposite = _BITS[direction], _OPPOSITE[direction]
        if opened:
            self.frame[cell] &= ALL_WALLS ^ bit
            self.frame[near] &= ALL_WALLS ^ opposite
            self.moves[cell] |= bit
            self.moves[near] |= opposite
            self.loops += 1
            for end in (cell, near):
                if self.real[end]:
                    self.real[end] = 0
                    self.remaining -= 1
        else:
            self.frame[cell] |= bit
            self.frame[near] |= opposite
            self.moves[cell] &= ALL_WALLS ^ bit
            self.moves[near] &= ALL_WALLS ^ opposite
            self.loops -= 1

    def _blocks_with(self, cell: int, direction: int) -> list[int]:
        """Top-left cells of the 3x3 blocks inside the grid that hold this wall."""
        stride = self.stride
        if direction == 0:
            cell, direction = cell - stride, 2
        elif direction == 3:
            cell, direction = cell - 1, 1
        row, column = divmod(cell, stride)
        x, y = column - 1, row - 1
        xs: tuple[int, ...]
        ys: tuple[int, ...]
        if direction == 1:
            xs, ys = (x - 1, x), (y - 2, y - 1, y)
        else:
            xs, ys = (x - 2, x - 1, x), (y - 1, y)
        return [
            (by + 1) * stride + bx + 1
            for by in ys
            for bx in xs
            if 0 <= bx <= self.width - 3 and 0 <= by <= self.height - 3
        ]

    def _open_block(self, top_left: int) -> bool:
        """Whether all 12 inner walls of the 3x3 block at ``top_left`` are open."""
        m, s = self.moves, self.stride
        both = EAST | SOUTH
        return (
            m[top_left] & both == both
            and m[top_left + 1] & both == both
            and m[top_left + 2] & SOUTH != 0
            and m[top_left + s] & both == both
            and m[top_left + s + 1] & both == both
            and m[top_left + s + 2] & SOUTH != 0
            and m[top_left + 2 * s] & EAST != 0
            and m[top_left + 2 * s + 1] & EAST != 0
        )

    def _opened_blocks(self, cell: int, direction: int) -> list[int]:
        """The 3x3 blocks that opening this (closed) wall would make fully open."""
        near = cell + self.offsets[direction]
        bit, opposite = _BITS[direction], _OPPOSITE[direction]
        self.moves[cell] |= bit
        self.moves[near] |= opposite
        found = [t for t in self._blocks_with(cell, direction) if self._open_block(t)]
        self.moves[cell] &= ALL_WALLS ^ bit
        self.moves[near] &= ALL_WALLS ^ opposite
        return found

    def _fix(self, cell: int) -> None:
        """Open one wall of the real dead end ``cell``, preferring one to another dead end."""
        rng = self.rng
        joins: list[int] = []
        others: list[int] = []
        here = self.moves[cell]
        for direction in range(4):
            near = cell + self.offsets[direction]
            if here & _BITS[direction] or not self.usable[near]:
                continue
            (joins if self.real[near] else others).append(direction)
        self.shuffle(joins, rng)
        self.shuffle(others, rng)
        choices = joins + others
        for direction in choices:
            if not self._opened_blocks(cell, direction):
                self._set(cell, direction, True)
                return
        if not choices:
            return
        # Every choice would complete a 3x3 open block. A dead end is a corner of that block
        # (it has two inner walls there), so the block is unique: open the wall anyway and
        # close one wall between the block's centre and a side cell. The centre keeps 3 open
        # walls and the side cell at least 2, the block stays connected, and the loop count
        # does not change.
        direction = choices[0]
        (top_left,) = self._opened_blocks(cell, direction)
        self._set(cell, direction, True)
        centre = top_left + self.stride + 1
        near = cell + self.offsets[direction]
        sides = [d for d in range(4) if centre + self.offsets[d] != near]
        self._set(centre, sides[int(rng.random() * len(sides))], False)

    def braid(self, target: int) -> None:
        """Fix real dead ends in a random order until at most ``target`` remain."""
        order = np.flatnonzero(np.frombuffer(self.real, dtype=np.uint8)).tolist()
        self.shuffle(order, self.rng)
        for cell in order:
            if self.remaining <= target:
                return
            if self.real[cell]:
                self._fix(cell)

    def add_loops(self, wanted: int) -> None:
        """Open random walls between usable cells until there are ``wanted`` loops."""
        if self.loops >= wanted:
            return
        usable = np.frombuffer(self.usable, dtype=np.uint8).astype(bool)
        moves = np.frombuffer(self.moves, dtype=np.uint8)
        stride = self.stride
        east = usable[:-1] & usable[1:] & ((moves[:-1] & EAST) == 0)
        south = usable[:-stride] & usable[stride:] & ((moves[:-stride] & SOUTH) == 0)
        codes = np.sort(
            np.concatenate((np.flatnonzero(east) * 2, np.flatnonzero(south) * 2 + 1))
        ).tolist()
        rand = self.rng.random
        while self.loops < wanted and codes:
            pick = int(rand() * len(codes))
            code = codes[pick]
            codes[pick] = codes[-1]
            codes.pop()
            cell, direction = code >> 1, 2 if code & 1 else 1
            if not self._opened_blocks(cell, direction):
                self._set(cell, direction, True)
        if self.loops < wanted:
            raise BoardError(
                f"cannot make {wanted} loops: only {self.loops} fit without a 3x3 open area"
            )
