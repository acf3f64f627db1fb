"""Stub of the compiled kernel mazekit._ccops (src/c/cops.c)."""

import numpy as np
from numpy.typing import NDArray

def two_cops_win(
    start: NDArray[np.int32],
    to: NDArray[np.int32],
    cells: NDArray[np.int64],
    blocked: NDArray[np.uint64],
    reach: NDArray[np.uint64],
    offsets: NDArray[np.int64],
) -> bool: ...
