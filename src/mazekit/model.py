"""The one core model: a Maze of walls, an entry, an exit and a path, plus the direction table.

Pure data: nothing here reads, writes or prints. Cells are ``(x, y)`` with x the column
(0 = west) and y the row (0 = north); ``walls[y, x]`` holds the cell's four wall bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = [
    "ALL_WALLS",
    "BY_BIT",
    "BY_LETTER",
    "DEGREE",
    "DIRECTIONS",
    "EAST",
    "LETTER_BIT",
    "LETTER_DX",
    "LETTER_DY",
    "NORTH",
    "SOUTH",
    "WEST",
    "Cell",
    "Direction",
    "Maze",
    "Walls",
]

Cell = tuple[int, int]
Walls = npt.NDArray[np.uint8]

NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
ALL_WALLS = NORTH | EAST | SOUTH | WEST


class Direction(NamedTuple):
    """One compass direction: its path letter, its wall bit, its step, its opposite's bit and
    its name in messages (``north wall of (3,0)``)."""

    letter: str
    bit: int
    dx: int
    dy: int
    opposite: int
    name: str


# Ordered N, E, S, W: the order of the bits. Every direction table in mazekit is this one.
DIRECTIONS: tuple[Direction, ...] = (
    Direction("N", NORTH, 0, -1, SOUTH, "north"),
    Direction("E", EAST, 1, 0, WEST, "east"),
    Direction("S", SOUTH, 0, 1, NORTH, "south"),
    Direction("W", WEST, -1, 0, EAST, "west"),
)
BY_LETTER: dict[str, Direction] = {d.letter: d for d in DIRECTIONS}
BY_BIT: dict[int, Direction] = {d.bit: d for d in DIRECTIONS}
# Per set of wall bits 0..15, how many are set: a cell's degree from its open bits. The one
# popcount table of mazekit (index it with an array, or with an int for one cell).
DEGREE: npt.NDArray[np.uint8] = np.array([bin(n).count("1") for n in range(16)], dtype=np.uint8)


def _by_letter(field: str) -> npt.NDArray[np.int32]:
    """Per byte, the ``field`` of the direction whose path letter it is; 0 for any other."""
    table = np.zeros(256, dtype=np.int32)
    for direction in DIRECTIONS:
        table[ord(direction.letter)] = getattr(direction, field)
    return table


# The direction table again, indexed by a path letter's byte: for whole-path numpy work.
LETTER_DX, LETTER_DY, LETTER_BIT = (_by_letter(name) for name in ("dx", "dy", "bit"))


@dataclass(eq=False)
class Maze:
    """A rectangular maze: ``walls`` is an H x W uint8 array of wall bits (set = closed)."""

    walls: Walls
    entry: Cell
    exit: Cell
    path: str = field(default="")

    def __post_init__(self) -> None:
        walls = np.asarray(self.walls)
        if walls.ndim != 2 or walls.shape[0] < 1 or walls.shape[1] < 1:
            raise ValueError(f"walls must be a non-empty 2-D array, got shape {walls.shape}")
        if walls.dtype != np.uint8:
            if walls.size and (int(walls.min()) < 0 or int(walls.max()) > ALL_WALLS):
                raise ValueError("wall values must lie in 0..15")
            walls = walls.astype(np.uint8)
        self.walls = walls
        self.entry = (int(self.entry[0]), int(self.entry[1]))
        self.exit = (int(self.exit[0]), int(self.exit[1]))

    @property
    def width(self) -> int:
        """Number of columns."""
        return int(self.walls.shape[1])

    @property
    def height(self) -> int:
        """Number of rows."""
        return int(self.walls.shape[0])

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` lies inside the grid."""
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def copy(self) -> Maze:
        """A deep copy: the walls array is not shared."""
        return Maze(self.walls.copy(), self.entry, self.exit, self.path)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Maze):
            return NotImplemented
        return (
            self.entry == other.entry
            and self.exit == other.exit
            and self.path == other.path
            and self.walls.shape == other.walls.shape
            and bool(np.array_equal(self.walls, other.walls))
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: walls may be edited in place

    def __repr__(self) -> str:
        return (
            f"Maze({self.width}x{self.height}, entry={self.entry}, exit={self.exit}, "
            f"path={len(self.path)} steps)"
        )
