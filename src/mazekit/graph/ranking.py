"""The busiest cells and passages by one rule, the top ``count`` without a sort of every cell.

The rule (specs/stats.md, "Ties"): values rank from the highest down; a value within TIE of
the highest value of its group, relative (h - v <= h * TIE), ranks equal with it, so exact
ties stay ties whatever order the floats were added in; within a group, the (y, x) order
(and for passages E before S) decides. ``ranked`` is the one place it is written: the text,
the JSON, ``--top``, the heat map's rings and ``edit --close-bottleneck`` all rank by it.
The page's JavaScript twin (drawing/page/graph.js) follows the same rule.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..kernels import load
from .table import FloatArray, IntArray

__all__ = ["TIE", "leaders", "ranked", "tie_floor", "top_members"]

_KERNEL = load("measures")
_HEAP_LIMIT = 1024  # kth_largest's heap up to this count; np.partition's selection above
TIE = 1e-9  # relative: values this close to their group's highest rank as equal


def tie_floor(value: float) -> float:
    """The lowest value that ranks equal with ``value`` at the head of a group (below it
    even for a float's noise under 0, such as -1e-17)."""
    return value - abs(value) * TIE


def ranked(values: FloatArray, count: int, keys: tuple[IntArray, ...]) -> IntArray:
    """Indices of the first ``count`` of ``values`` by the rule: the highest first, values
    within TIE of their group's highest as equal, then by ``keys`` (ascending, first key
    first). A group at a time, each found by a binary search: at most ``count`` steps."""
    order = np.argsort(-values, kind="stable")
    descending = values[order]
    rising = -descending  # ascending: what searchsorted needs
    groups: list[IntArray] = []
    start = taken = 0
    while start < order.size and taken < count:
        end = int(np.searchsorted(rising, -tie_floor(float(descending[start])), side="right"))
        end = max(end, start + 1)  # the head itself, NaN included
        group = order[start:end]
        groups.append(group[np.lexsort(tuple(key[group] for key in reversed(keys)))])
        taken += group.size
        start = end
    if not groups:
        return np.zeros(0, dtype=np.int64)
    return np.concatenate(groups)[:count].astype(np.int64)


def top_members(
    values: FloatArray, members: npt.NDArray[np.bool_], count: int
) -> tuple[IntArray, FloatArray]:
    """Flat indices (ascending) and values of the ``members`` that may rank among the top
    ``count`` members: those at least tie_floor of the ``count``-th largest member value.

    The kernel finds the ``count``-th largest of all values in one pass (outside the members
    they are 0); when ``count`` members are at least that high, it is the members' too.
    Otherwise, and as the reference, every member is looked at.
    """
    flat_values, flat_members = values.ravel(), members.ravel()
    fast = flat_values.dtype == np.float64 and count <= _HEAP_LIMIT and count < flat_values.size
    if _KERNEL is not None and fast:  # the heap reads float64
        threshold = _KERNEL.kth_largest(np.ascontiguousarray(flat_values), count)
        index = np.flatnonzero(flat_values >= tie_floor(threshold))  # none when it is NaN
        index = index[flat_members[index]]
        found = flat_values[index]
        if np.count_nonzero(found >= threshold) >= count:
            keep = leaders(found, count)
            return index[keep], found[keep]
    index = np.flatnonzero(flat_members)
    found = flat_values[index]
    keep = leaders(found, count)
    return index[keep], found[keep]


def leaders(values: FloatArray, count: int) -> IntArray:
    """Indices of every value that may rank among the top ``count``: at least tie_floor of the
    ``count``-th largest (every group that reaches the ``count``-th place is whole).

    A partial partition, so that listing the top 5 of a million cells needs no full sort.
    """
    if count >= values.size:
        return np.arange(values.size, dtype=np.int64)
    threshold = np.partition(values, values.size - count)[values.size - count]
    return np.flatnonzero(values >= tie_floor(float(threshold)))
