"""Stub of the compiled kernel mazekit._cbraid (src/c/braid.c): braiding and flood loops."""

import random

import numpy as np
from numpy.typing import NDArray

# A _Board's frames: bytearrays, or (from board) slices of one numpy array.
Frame = bytearray | NDArray[np.uint8]

def board(
    walls: NDArray[np.uint8],
    reachable: NDArray[np.bool_],
    pattern: NDArray[np.bool_],
    width: int,
    frame: Frame,
    moves: Frame,
    usable: Frame,
    real: Frame,
    openable: Frame,
    blocks: Frame,
) -> int: ...
def braid(
    frame: Frame,
    moves: Frame,
    usable: Frame,
    real: Frame,
    openable: Frame,
    blocks: Frame,
    stride: int,
    remaining: int,
    loops: int,
    target: int,
    rng: random.Random,
    block: int,
) -> tuple[int, int]: ...
def add_loops(
    frame: Frame,
    moves: Frame,
    usable: Frame,
    real: Frame,
    openable: Frame,
    blocks: Frame,
    codes: NDArray[np.int64],
    opened: NDArray[np.int64],
    stride: int,
    remaining: int,
    loops: int,
    wanted: int,
    rng: random.Random,
) -> tuple[int, int, int]: ...
def improve(
    frame: Frame,
    moves: Frame,
    usable: Frame,
    real: Frame,
    openable: Frame,
    blocks: Frame,
    opened: NDArray[np.int64],
    stride: int,
    remaining: int,
    loops: int,
    wanted: int,
    rounds: int,
    budget: int,
    rng: random.Random,
) -> tuple[int, int]: ...
def flood_carve(
    walls: bytearray,
    blocked: bytearray,
    stride: int,
    entry: int,
    rng: random.Random,
) -> None: ...
