"""Stub of the compiled kernel mazekit._ccarve (src/c/carve.c): the carving loops of the
perfect generators over a Grid's padded frame, and the path of the tree they carve."""

import random

from _typeshed import ReadableBuffer, WriteableBuffer

def backtracker(
    walls: WriteableBuffer,
    blocked: ReadableBuffer,
    stride: int,
    entry: int,
    exit: int,
    rng: random.Random,
) -> str | None: ...
def prim(
    walls: WriteableBuffer,
    blocked: ReadableBuffer,
    stride: int,
    entry: int,
    exit: int,
    rng: random.Random,
) -> str | None: ...
def kruskal(
    walls: WriteableBuffer,
    blocked: ReadableBuffer,
    stride: int,
    entry: int,
    exit: int,
    rng: random.Random,
    rows: int,
    cells: int,
) -> str | None: ...
def wilson(
    walls: WriteableBuffer,
    blocked: ReadableBuffer,
    stride: int,
    entry: int,
    exit: int,
    rng: random.Random,
) -> str: ...
def hunt_and_kill(
    walls: WriteableBuffer, blocked: ReadableBuffer, stride: int, rng: random.Random
) -> None: ...
def tree_path(
    walls: ReadableBuffer, blocked: ReadableBuffer, stride: int, entry: int, exit: int
) -> str | None: ...
