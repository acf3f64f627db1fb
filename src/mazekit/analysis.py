"""The facts of one maze, each computed once on first use and then shared by every reader.

Rules (mazekit.rules), braiding (mazekit.braiding) and the measures (mazekit.measures) all ask the
same questions of a maze: its passages, its components, the cells reached from the entry, its
loops, its cell degrees, its dead ends. An Analysis answers each once, lazily, so a pacmanize
run labels the components once for validating and braiding alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt

from . import pattern as glyph
from .board import DeadEnds, classify_dead_ends
from .model import ALL_WALLS, DEGREE, Cell, Maze
from .search import closed_groups, component_labels, count_loops, distances, open_bits, passages

__all__ = [
    "PATTERN_MODES",
    "Analysis",
    "BoolGrid",
    "PatternMode",
    "cells_of_mask",
    "dead_ends",
    "find_42",
]

PatternMode = Literal["strict", "subject", "any", "none"]
PATTERN_MODES: tuple[PatternMode, ...] = ("strict", "subject", "any", "none")
BoolGrid = npt.NDArray[np.bool_]


def cells_of_mask(mask: BoolGrid, limit: int | None = None) -> list[Cell]:
    """The True cells of ``mask`` in reading order (row by row), the first ``limit`` only."""
    flat = np.flatnonzero(mask.ravel())
    if limit is not None:
        flat = flat[:limit]
    width = mask.shape[1]
    return [(int(i % width), int(i // width)) for i in flat]


def find_42(walls: npt.NDArray[np.uint8]) -> glyph.Found | None:
    """The "42" that ``walls`` draw, wherever and in whatever glyph (pattern.find over the
    groups of closed cells of search.closed_groups), or None."""
    return glyph.find(walls, closed_groups(walls))


@dataclass(eq=False)
class Analysis:
    """A maze and its facts. ``pattern_mode`` says which cells are the "42" (specs/rules.md);
    ``pattern_mask`` overrides it with an explicit H x W mask."""

    maze: Maze
    pattern_mode: PatternMode = "strict"
    pattern_mask: BoolGrid | None = None

    # The facts that follow from the walls and the entry alone, whatever the pattern.
    WALL_FACTS = (
        "passages",
        "moves",
        "labels",
        "components",
        "reachable",
        "loops",
        "all_loops",
        "degree",
    )

    def share_wall_facts(self, other: Analysis) -> None:
        """Take ``other``'s WALL_FACTS (computing them there if need be): one computation for
        two analyses of the same maze that differ only in their pattern."""
        if other.maze is not self.maze:
            raise ValueError("facts must be an Analysis of the same maze")
        for name in self.WALL_FACTS:  # a cached_property keeps its value in __dict__
            vars(self)[name] = getattr(other, name)

    def know_reachable(self, reachable: BoolGrid, loops: int | None = None) -> Analysis:
        """Take the cells reached from the entry (and their loops) as known, not computed: a
        generator knows that its carve reached every free cell, and labelling 1M cells again
        would cost more than braiding them. The caller vouches for the facts; returns self."""
        if reachable.shape != self.maze.walls.shape or reachable.dtype != np.bool_:
            raise ValueError("reachable must be an H x W boolean mask of the maze")
        vars(self)["reachable"] = reachable  # a cached_property keeps its value in __dict__
        if loops is not None:
            vars(self)["loops"] = loops
        return self

    @cached_property
    def found_42(self) -> glyph.Found | None:
        """The "42" the file draws, wherever it is (pattern.find), or None."""
        return find_42(self.maze.walls)

    @cached_property
    def pattern(self) -> BoolGrid:
        """The cells exempt from connectivity: the "42" at its place (strict), the "42" the
        file draws (subject), every F cell (any), none."""
        maze = self.maze
        if self.pattern_mask is not None:
            return self.pattern_mask
        if self.pattern_mode == "strict":
            return glyph.pattern_mask(maze.width, maze.height)
        if self.pattern_mode == "subject":
            found = self.found_42
            if found is not None:
                return found.mask(maze.width, maze.height)
            corner = glyph.nearest(maze.walls)  # a "42" with a few cells left open
            cells = glyph.cells_at(corner) if corner is not None else ()
            return glyph.Found(cells, subject=True).mask(maze.width, maze.height)
        if self.pattern_mode == "any":
            return np.asarray(maze.walls == ALL_WALLS)
        return np.zeros(maze.walls.shape, dtype=bool)

    @cached_property
    def passages(self) -> tuple[BoolGrid, BoolGrid]:
        """(east, south) open passages, as mazekit.search.passages defines them."""
        return passages(self.maze.walls)

    @cached_property
    def moves(self) -> npt.NDArray[np.uint8]:
        """Per cell, the bits of the directions one can actually move in."""
        return open_bits(self.maze.walls)

    @cached_property
    def labels(self) -> npt.NDArray[np.int32]:
        """Per cell, the smallest flat index of its component."""
        return component_labels(self.maze.walls, self.moves)

    @cached_property
    def components(self) -> int:
        """How many components the grid falls into."""
        labels = self.labels.ravel()
        return int(np.count_nonzero(labels == np.arange(labels.size, dtype=np.int32)))

    @cached_property
    def entry_ok(self) -> bool:
        """Whether the entry lies inside the grid, so that searches can start there."""
        return self.maze.contains(self.maze.entry)

    @cached_property
    def reachable(self) -> BoolGrid:
        """Cells connected to the entry (all False when the entry is outside the grid)."""
        if not self.entry_ok:
            return np.zeros(self.maze.walls.shape, dtype=bool)
        x, y = self.maze.entry
        return np.asarray(self.labels == self.labels[y, x])

    @cached_property
    def tree(self) -> bool:
        """Whether the cells reached from the entry form a tree: the entry lies inside and no
        loop joins them. The one tree test of the measures, the graph figures and the cops."""
        return self.entry_ok and self.loops == 0

    @cached_property
    def depth(self) -> npt.NDArray[np.int32]:
        """H x W breadth-first steps from the entry to every cell, -1 where unreached (all -1
        when the entry is outside the grid): one search for every rule that needs one."""
        if not self.entry_ok:
            return np.full(self.maze.walls.shape, -1, dtype=np.int32)
        walls = self.maze.walls
        return distances(walls, self.maze.entry, bits=self.moves).reshape(walls.shape)

    @cached_property
    def loops(self) -> int:
        """Independent loops among the cells reachable from the entry."""
        east, south = self.passages
        return count_loops(east, south, self.reachable)

    @cached_property
    def all_loops(self) -> int:
        """Independent loops over the whole grid, every component counted."""
        east, south = self.passages
        everywhere = np.ones(self.maze.walls.shape, dtype=bool)
        return count_loops(east, south, everywhere, self.components)

    @cached_property
    def degree(self) -> npt.NDArray[np.uint8]:
        """Per cell, its open walls when reachable from the entry, else 0."""
        return np.where(self.reachable, DEGREE[self.moves], 0).astype(np.uint8)

    @cached_property
    def closed_in_blocks(self) -> npt.NDArray[np.uint8]:
        """Per 3x3 block, by its top-left cell ((H-2) x (W-2), empty when a side is under 3),
        how many of its 12 inner walls are closed: 0 is an open area (rule open-area), and a
        wall whose opening would make one is the last closed wall of some block (braiding)."""
        height, width = self.maze.walls.shape
        if height < 3 or width < 3:
            return np.zeros((max(height - 2, 0), max(width - 2, 0)), dtype=np.uint8)
        east, south = (side.astype(np.uint8) for side in self.passages)
        opened = np.zeros((height - 2, width - 2), dtype=np.uint8)
        for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)):
            opened += east[dy : height - 2 + dy, dx : width - 2 + dx]  # 3 rows of 2 walls
            opened += south[dx : height - 2 + dx, dy : width - 2 + dy]  # 2 rows of 3 walls
        return np.asarray(12 - opened, dtype=np.uint8)

    @cached_property
    def dead_ends(self) -> tuple[BoolGrid, BoolGrid]:
        """(real, enclosed) dead-end masks of specs/dead-ends.md, under this pattern."""
        return classify_dead_ends(self.moves, self.reachable, self.pattern)


def dead_ends(maze: Maze, *, pattern: BoolGrid | None = None) -> DeadEnds:
    """The real and enclosed dead ends of ``maze`` (pattern: the "42" unless given)."""
    real, enclosed = Analysis(maze, pattern_mask=pattern).dead_ends
    return DeadEnds(tuple(cells_of_mask(real)), tuple(cells_of_mask(enclosed)))
