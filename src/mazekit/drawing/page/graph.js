/* mazekit page, graph.js: betweenness centrality of the reachable cells and its Gini
 * coefficient, exactly (Brandes), as specs/stats.md defines them for `stats --graph`. */
"use strict";
(function (mk) {
  const { DIRECTIONS } = mk.board;
  // Exact betweenness costs cells x edges: fine in a page up to 60x60 cells (3600).
  const EXACT_LIMIT = 3600;

  /** The reachable cells (from the entry) as a graph: cell indexes and neighbour lists. */
  function reachableGraph(board, dist) {
    const nodes = [];
    const index = new Int32Array(dist.length).fill(-1);
    for (let i = 0; i < dist.length; i += 1) {
      if (dist[i] >= 0) {
        index[i] = nodes.length;
        nodes.push(i);
      }
    }
    const start = new Int32Array(nodes.length + 1);
    const links = [];
    nodes.forEach((cell, v) => {
      const x = cell % board.width, y = (cell - x) / board.width;
      for (const d of DIRECTIONS) {
        if (board.isOpen(x, y, d)) links.push(index[cell + d.dy * board.width + d.dx]);
      }
      start[v + 1] = links.length;
    });
    return { nodes, start, links: Int32Array.from(links) };
  }

  /** Normalised betweenness of every node (networkx's normalized=True, endpoints=False). */
  function betweenness(graph) {
    const n = graph.nodes.length;
    const { start, links } = graph;
    const bc = new Float64Array(n);
    const sigma = new Float64Array(n), delta = new Float64Array(n);
    const dist = new Int32Array(n), order = new Int32Array(n);
    for (let s = 0; s < n; s += 1) {
      dist.fill(-1);
      sigma.fill(0);
      delta.fill(0);
      dist[s] = 0;
      sigma[s] = 1;
      let head = 0, tail = 0;
      order[tail++] = s;
      while (head < tail) {
        const v = order[head++];
        for (let e = start[v]; e < start[v + 1]; e += 1) {
          const w = links[e];
          if (dist[w] < 0) {
            dist[w] = dist[v] + 1;
            order[tail++] = w;
          }
          if (dist[w] === dist[v] + 1) sigma[w] += sigma[v];
        }
      }
      for (let i = tail - 1; i > 0; i -= 1) {
        const w = order[i];
        const share = (1 + delta[w]) / sigma[w];
        for (let e = start[w]; e < start[w + 1]; e += 1) {
          const v = links[e];
          if (dist[v] === dist[w] - 1) delta[v] += sigma[v] * share;
        }
        bc[w] += delta[w];
      }
    }
    if (n > 2) {
      const scale = 1 / ((n - 1) * (n - 2));
      for (let v = 0; v < n; v += 1) bc[v] *= scale;
    }
    return bc;
  }

  /** The Gini coefficient of the values (0: all equal; 0 for none or all zero). */
  function gini(values) {
    const sorted = Float64Array.from(values).sort();
    const n = sorted.length;
    let total = 0, weighted = 0;
    for (let i = 0; i < n; i += 1) {
      total += sorted[i];
      weighted += (i + 1) * sorted[i];
    }
    if (n === 0 || total === 0) return 0;
    return (2 * weighted) / (n * total) - (n + 1) / n;
  }

  /** The peak cell and share and the Gini of a board's betweenness, or null over the limit. */
  function measures(board, dist) {
    const graph = reachableGraph(board, dist);
    if (graph.nodes.length > EXACT_LIMIT) return null;
    const bc = betweenness(graph);
    let peak = 0;
    for (let v = 1; v < bc.length; v += 1) if (bc[v] > bc[peak]) peak = v;
    const cell = graph.nodes.length ? graph.nodes[peak] : -1;
    return {
      values: bc, nodes: graph.nodes,
      peakCell: cell < 0 ? null : [cell % board.width, Math.floor(cell / board.width)],
      peak: bc.length ? bc[peak] : 0,
      gini: gini(bc),
    };
  }

  mk.graph = { EXACT_LIMIT, reachableGraph, betweenness, gini, measures };
})(globalThis.mazekit ??= {});
