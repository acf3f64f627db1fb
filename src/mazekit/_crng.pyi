"""Stub of the compiled kernel mazekit._crng (src/c/rng.c)."""

import random

import numpy as np
from numpy.typing import NDArray

def fill_floats(rng: random.Random, out: NDArray[np.float64]) -> None: ...
