"""The one random source of mazekit: ``random.Random`` seeded from an integer, floats only.

Python guarantees that ``Random(seed).random()`` yields the same sequence for the same integer
seed on every platform and in every version (the "reproducibility" note of the random module);
randrange, choice and shuffle carry no such promise. So mazekit draws floats only, and builds
its integers and shuffles from them here, which keeps every seeded output byte-stable.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from .kernels import load

__all__ = ["SEED_LIMIT", "below", "draw_seed", "floats", "make_rng", "pop_random", "shuffle"]

_KERNEL = load("rng")

T = TypeVar("T")

# Seeds drawn when none is given lie in 0 .. SEED_LIMIT - 1, short enough to copy by hand.
SEED_LIMIT = 2**32


def make_rng(seed: int) -> random.Random:
    """A generator for ``seed``; negative seeds are mapped apart from positive ones.

    Random(n) ignores the sign of n, so the seed is zigzag-encoded first (0, -1, 1, -2 ... ->
    0, 1, 2, 3 ...) to give every integer its own stream.
    """
    return random.Random(seed * 2 if seed >= 0 else -2 * seed - 1)


def draw_seed() -> int:
    """A fresh seed from the operating system, for runs that were given none.

    What secrets.randbelow does, without importing secrets (hmac, hashlib and OpenSSL: about
    5 ms of every generate's start-up)."""
    return random.SystemRandom().randrange(SEED_LIMIT)


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in 0 .. n-1 (n >= 1), from one float draw."""
    return int(rng.random() * n)


def floats(rng: random.Random, count: int) -> npt.NDArray[np.float64]:
    """The next ``count`` draws of ``rng.random()`` as an array, in order.

    The compiled kernel runs Python's own Mersenne Twister from the generator's state and
    writes the state back, so the generator goes on exactly as after ``count`` calls.
    """
    if _KERNEL is None or count == 0:
        return np.fromiter(iter(rng.random, 2.0), dtype=np.float64, count=count)
    values = np.empty(count, dtype=np.float64)
    _KERNEL.fill_floats(rng, values)
    return values


def pop_random(items: list[T], rand: Callable[[], float], window: int | None = None) -> T:
    """Remove and return a uniformly chosen item in O(1): the last item fills its place.

    With ``window``, the item is chosen among the last ``window`` items only (all of them
    when there are fewer): the ones added last, which a carving loop keeps in cache.
    Takes ``rng.random`` itself, since the carving loops hold it as a local already.
    """
    span = len(items) if window is None else min(window, len(items))
    pick = len(items) - span + int(rand() * span)
    chosen = items[pick]
    items[pick] = items[-1]
    items.pop()
    return chosen


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place (Fisher-Yates), drawing floats only."""
    rand = rng.random
    for last in range(len(items) - 1, 0, -1):
        pick = int(rand() * (last + 1))
        items[last], items[pick] = items[pick], items[last]
