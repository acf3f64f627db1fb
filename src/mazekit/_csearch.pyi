"""Stub of the compiled kernel mazekit._csearch (src/c/search.c)."""

import numpy as np
from numpy.typing import NDArray

def open_bits(walls: NDArray[np.uint8], width: int, out: NDArray[np.uint8]) -> None: ...
def labels(bits: NDArray[np.uint8], width: int, out: NDArray[np.int32]) -> int: ...
def bfs(
    bits: NDArray[np.uint8],
    width: int,
    source: int,
    target: int,
    moves: int,
    dist: NDArray[np.int32],
) -> int: ...
def walk(
    bits: NDArray[np.uint8], width: int, dist: NDArray[np.int32], start: int, moves: int
) -> str: ...
def astar(
    bits: NDArray[np.uint8], width: int, start: int, goal: int, dist: NDArray[np.int32]
) -> int: ...
def fill_dead_ends(bits: NDArray[np.uint8], width: int, keep_a: int, keep_b: int) -> int: ...
def trace(
    bits: NDArray[np.uint8], width: int, start: int, path: bytes
) -> tuple[int, int, bool]: ...
