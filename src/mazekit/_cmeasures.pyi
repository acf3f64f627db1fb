"""Stub of the compiled kernel mazekit._cmeasures (src/c/measures.c)."""

import numpy as np
from numpy.typing import NDArray

def peel_branches(
    moves: NDArray[np.uint8],
    left: NDArray[np.uint8],
    queue: NDArray[np.int32],
    level: NDArray[np.int32],
    width: int,
) -> tuple[int, int]: ...
def tree_betweenness(
    moves: NDArray[np.uint8],
    left: NDArray[np.uint8],
    queue: NDArray[np.int32],
    size: NDArray[np.int32],
    root: int,
    width: int,
    n: int,
    node_scale: float,
    edge_scale: float,
    cells: NDArray[np.float64],
    east: NDArray[np.float64],
    south: NDArray[np.float64],
) -> int: ...
