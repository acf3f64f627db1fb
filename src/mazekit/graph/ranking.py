"""The busiest members of a grid of values: the top ``count`` and their ties, without a sort
of every cell (the kernel's heap, or a partial partition)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..kernels import load
from .table import FloatArray, IntArray

__all__ = ["leaders", "top_members"]

_KERNEL = load("measures")
_HEAP_LIMIT = 1024  # kth_largest's heap up to this count; np.partition's selection above


def top_members(
    values: FloatArray, members: npt.NDArray[np.bool_], count: int
) -> tuple[IntArray, FloatArray]:
    """Flat indices (ascending) and values of the ``members`` whose value is at least the
    ``count``-th largest member value: the top ``count`` members and their ties.

    The kernel finds the ``count``-th largest of all values in one pass (outside the members
    they are 0); the members at least that high hold the top ``count`` members whenever they
    number ``count`` or more. Otherwise, and as the reference, every member is looked at.
    """
    flat_values, flat_members = values.ravel(), members.ravel()
    fast = flat_values.dtype == np.float64 and count <= _HEAP_LIMIT and count < flat_values.size
    if _KERNEL is not None and fast:  # the heap reads float64
        threshold = _KERNEL.kth_largest(np.ascontiguousarray(flat_values), count)
        index = np.flatnonzero(flat_values >= threshold)  # none when the threshold is NaN
        index = index[flat_members[index]]
        if index.size >= count:
            found = flat_values[index]
            keep = leaders(found, count)
            return index[keep], found[keep]
    index = np.flatnonzero(flat_members)
    found = flat_values[index]
    keep = leaders(found, count)
    return index[keep], found[keep]


def leaders(values: FloatArray, count: int) -> IntArray:
    """Indices of every value at least the ``count``-th largest: the top ``count`` and ties.

    A partial partition, so that listing the top 5 of a million cells needs no full sort.
    """
    if count >= values.size:
        return np.arange(values.size, dtype=np.int64)
    threshold = np.partition(values, values.size - count)[values.size - count]
    return np.flatnonzero(values >= threshold)
