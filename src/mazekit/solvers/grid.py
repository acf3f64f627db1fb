"""The one interface every solver shares: a flat grid in, distances to the goal out."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..model import Cell

__all__ = ["Search", "SearchFunction", "SearchGrid"]


class SearchGrid(NamedTuple):
    """A maze as the searches see it: per cell (flat index y * W + x) its truly open bits,
    a flat uint8 array (search.open_bits, raveled).

    NamedTuples here rather than dataclasses: creating a dataclass costs ~1 ms of startup.
    """

    bits: npt.NDArray[np.uint8]
    width: int
    height: int

    def flat(self, cell: Cell) -> int:
        """The flat index of ``cell``."""
        return cell[1] * self.width + cell[0]


class Search(NamedTuple):
    """What a solver found: ``dist[i]`` is the number of steps from cell i to the goal.

    Exact on every cell of every shortest path from the start; any other value is either -1
    or not below the true distance. ``visited`` counts the cells the solver worked on. A flat
    int32 array: 4 bytes a cell.
    """

    dist: npt.NDArray[np.int32]
    visited: int


# (grid, start index, goal index) -> Search
SearchFunction = Callable[[SearchGrid, int, int], Search]
