"""A maze read as a graph: betweenness of cells and passages, its Gini, and the cop number.

specs/stats.md ("Graph measures") defines every figure. The graph is the reachable cells
(connected to the entry) joined by open walls, read as every search reads them
(mazekit.search.open_bits). One module a subject, lowest first:

- table: the reachable cells numbered, and their n x 4 neighbour table (N, E, S, W);
- ranking: the busiest cells and passages, ties by (y, x);
- brandes: Brandes' sums from a set of sources, shared among threads;
- chains: the same sums from the key cells only, the corridors between them by formula;
- centrality: betweenness (a tree's subtree sizes, Brandes, or a seeded estimate);
- cops: the cop number; loops: the faces that tell bridges (edit --close-bottleneck);
- figures: what ``stats --graph`` prints (Gini, top cells and passages, the cop number).

JavaScript twins in the page: betweenness and Gini in src/mazekit/drawing/page/graph.js, the
cop number in src/mazekit/drawing/page/cops.js (the browser tests compare them).

No public name here is also a submodule's name, so each stays what it is whatever was
imported first.
"""

from __future__ import annotations

from .centrality import (
    EXACT_LIMIT,
    SAMPLE_PAIRS,
    Betweenness,
    betweenness,
    default_samples,
    tree_walk,
)
from .cops import COP_LIMIT, CopNumber, cop_number
from .figures import GraphStats, gini, graph_figures, graph_stats
from .loops import faces

__all__ = [
    "COP_LIMIT",
    "EXACT_LIMIT",
    "SAMPLE_PAIRS",
    "Betweenness",
    "CopNumber",
    "GraphStats",
    "betweenness",
    "cop_number",
    "default_samples",
    "faces",
    "gini",
    "graph_figures",
    "graph_stats",
    "tree_walk",
]
