"""Stub of the compiled kernel mazekit._cmeasures (src/c/measures.c)."""

import numpy as np
from numpy.typing import NDArray

def peel_branches(
    moves: NDArray[np.uint8],
    left: NDArray[np.uint8],
    queue: NDArray[np.int32],
    level: NDArray[np.int32],
    width: int,
    chains: bool,
) -> tuple[int, int]: ...
def tree_betweenness(
    moves: NDArray[np.uint8],
    left: NDArray[np.uint8],
    root: int,
    exit: int,
    width: int,
    n: int,
    node_scale: float,
    edge_scale: float,
    cells: NDArray[np.float64],
    east: NDArray[np.float64],
    south: NDArray[np.float64],
    east_open: NDArray[np.bool_],
    south_open: NDArray[np.bool_],
) -> tuple[int, int, int]: ...
def tree_sizes(
    moves: NDArray[np.uint8],
    left: NDArray[np.uint8],
    root: int,
    exit: int,
    width: int,
    cells: NDArray[np.float64],
) -> tuple[int, int, int]: ...
def tree_values(
    moves: NDArray[np.uint8],
    left: NDArray[np.uint8],
    root: int,
    width: int,
    n: int,
    node_scale: float,
    edge_scale: float,
    cells: NDArray[np.float64],
    east: NDArray[np.float64] | None,
    south: NDArray[np.float64] | None,
    east_open: NDArray[np.bool_] | None,
    south_open: NDArray[np.bool_] | None,
) -> None: ...
def kth_largest(values: NDArray[np.float64], count: int) -> float: ...
def brandes(
    table: NDArray[np.int32],
    sources: NDArray[np.int64],
    batch: int,
    nodes: NDArray[np.float64],
    east: NDArray[np.float64],
    south: NDArray[np.float64],
) -> None: ...
def brandes_cells(
    moves: NDArray[np.uint8],
    width: int,
    flat: NDArray[np.int64],
    sources: NDArray[np.int64],
    batch: int,
    cells: NDArray[np.float64],
    east: NDArray[np.float64],
    south: NDArray[np.float64],
    turn: NDArray[np.int64] | None = None,
    share: int = 0,
    tiled: int = -1,
) -> None: ...
def chain_sums(
    table: NDArray[np.int32],
    keys: NDArray[np.int64],
    info: NDArray[np.int64],
    inner: NDArray[np.int64],
    ends_start: NDArray[np.int64],
    ends: NDArray[np.int64],
    batches: NDArray[np.int64],
    nodes: NDArray[np.float64],
    east: NDArray[np.float64],
    south: NDArray[np.float64],
    local_nodes: NDArray[np.float64],
    local_east: NDArray[np.float64],
    local_south: NDArray[np.float64],
) -> None: ...
def svg_boxes(
    x: NDArray[np.int64], y: NDArray[np.int64], w: NDArray[np.int64], h: NDArray[np.int64]
) -> str: ...
def svg_runs(
    x0: NDArray[np.int64], y0: NDArray[np.int64], x1: NDArray[np.int64], y1: NDArray[np.int64]
) -> str: ...
