"""The one interface every solver shares: a flat grid in, distances to the goal out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model import Cell

__all__ = ["Grid", "Search", "SearchFunction"]


@dataclass(frozen=True)
class Grid:
    """A maze as the searches see it: per cell (flat index y * W + x) its truly open bits."""

    bits: list[int]
    width: int
    height: int

    def index(self, cell: Cell) -> int:
        """The flat index of ``cell``."""
        return cell[1] * self.width + cell[0]


@dataclass(frozen=True)
class Search:
    """What a solver found: ``dist[i]`` is the number of steps from cell i to the goal.

    Exact on every cell of every shortest path from the start; any other value is either -1
    or not below the true distance. ``visited`` counts the cells the solver worked on.
    """

    dist: list[int]
    visited: int


# (grid, start index, goal index) -> Search
SearchFunction = Callable[[Grid, int, int], Search]
