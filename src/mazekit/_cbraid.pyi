"""Stub of the compiled kernel mazekit._cbraid (src/c/braid.c): braiding and flood loops."""

import random

import numpy as np
from numpy.typing import NDArray

def braid(
    frame: bytearray,
    moves: bytearray,
    usable: bytearray,
    real: bytearray,
    openable: bytearray,
    blocks: bytearray,
    order: NDArray[np.int64],
    stride: int,
    remaining: int,
    loops: int,
    target: int,
    rng: random.Random,
) -> tuple[int, int]: ...
def add_loops(
    frame: bytearray,
    moves: bytearray,
    usable: bytearray,
    real: bytearray,
    openable: bytearray,
    blocks: bytearray,
    codes: NDArray[np.int64],
    opened: NDArray[np.int64],
    stride: int,
    remaining: int,
    loops: int,
    wanted: int,
    rng: random.Random,
) -> tuple[int, int, int]: ...
def improve(
    frame: bytearray,
    moves: bytearray,
    usable: bytearray,
    real: bytearray,
    openable: bytearray,
    blocks: bytearray,
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
