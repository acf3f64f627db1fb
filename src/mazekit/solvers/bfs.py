"""Breadth-first search, backwards from the goal until the start is reached.

Steps: expand the goal's neighbours layer by layer (search.bfs_flat), one distance per layer,
and stop after the layer that reaches the start. Every cell nearer to the goal than the start
is expanded, each exactly once; those are the visited cells.
"""

from __future__ import annotations

from ..search import bfs_flat
from .grid import Search, SearchGrid

__all__ = ["search"]


def search(grid: SearchGrid, start: int, goal: int) -> Search:
    """Distances to ``goal`` by breadth-first search, stopping once ``start`` is reached."""
    dist, expanded = bfs_flat(grid.bits, grid.width, goal, start)
    return Search(dist, expanded)
