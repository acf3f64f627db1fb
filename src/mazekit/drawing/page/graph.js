/* mazekit page, graph.js: betweenness centrality of the reachable cells and passages, its
 * Gini coefficient, exactly (Brandes), as specs/stats.md defines them for `stats --graph`;
 * the twin of mazekit.graph.betweenness and mazekit.graph.gini. Also the page's planner
 * steps on top of them: the busiest closable passage (mazekit.edit.close_bottlenecks) and
 * "Relieve" (mazekit.edit.relieve), both keeping a Pac-Man board one (`keepsBoard`, the twin
 * of mazekit.edit._board_guard; specs/html.md). Runs in the figures worker. */
"use strict";
(function (mk) {
  const { DIRECTIONS, EAST, SOUTH } = mk.board;

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
      for (const d of DIRECTIONS) {
        if (board.open[cell] & d.bit) links.push(index[cell + d.dy * board.width + d.dx]);
      }
      start[v + 1] = links.length;
    });
    return { nodes, index, start, links: Int32Array.from(links) };
  }

  /** Brandes from the given sources: betweenness of every node, unscaled, and with
   * `cells` (the grid's cell count) of every passage too, by its west or north cell
   * (`east`, `south`). */
  function brandes(graph, from, cells = 0) {
    const n = graph.nodes.length;
    const { start, links, nodes } = graph;
    const bc = new Float64Array(n), east = new Float64Array(cells), south = new Float64Array(cells);
    const sigma = new Float64Array(n), delta = new Float64Array(n);
    const dist = new Int32Array(n), order = new Int32Array(n);
    for (const s of from) {
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
          if (dist[v] === dist[w] - 1) {
            const c = sigma[v] * share;
            delta[v] += c;
            if (cells) {
              const a = nodes[v], b = nodes[w], low = Math.min(a, b);
              if (Math.abs(a - b) === 1) east[low] += c;
              else south[low] += c;
            }
          }
        }
        bc[w] += delta[w];
      }
    }
    return { bc, east, south };
  }

  /** Normalised betweenness of every node (networkx's normalized=True, endpoints=False). */
  function betweenness(graph) {
    const n = graph.nodes.length;
    const { bc } = brandes(graph, range(n));
    scale(bc, n, n);
    return bc;
  }

  function range(n) {
    return Int32Array.from({ length: n }, (_, k) => k);
  }

  /** Scale sums over `used` of n sources to the normalised share of pairs. */
  function scale(values, n, used) {
    if (n <= 2) return;
    const factor = n / used / ((n - 1) * (n - 2));
    for (let v = 0; v < values.length; v += 1) values[v] *= factor;
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

  /** The first of `values` (in their order: reading order for cells) within `tolerance`
   * (relative) of the largest: stats' tie rule, a tolerance then (y, x). -1 when empty. */
  function leader(values, tolerance) {
    let top = -Infinity;
    for (const v of values) if (v > top) top = v;
    const floor = top - tolerance * Math.abs(top);
    for (let k = 0; k < values.length; k += 1) if (values[k] >= floor) return k;
    return -1;
  }

  /** The peak cell and share and the Gini of a board's betweenness, or null over the
   * limit of reachable cells. `tolerance`: the tie rule's (stats'). */
  function measures(board, dist, limit, tolerance) {
    const graph = reachableGraph(board, dist);
    if (graph.nodes.length > limit) return null;
    const bc = betweenness(graph);
    const peak = leader(bc, tolerance);
    const cell = peak < 0 ? -1 : graph.nodes[peak];
    return {
      values: bc, nodes: graph.nodes,
      peakCell: cell < 0 ? null : [cell % board.width, Math.floor(cell / board.width)],
      peak: peak < 0 ? 0 : bc[peak],
      gini: gini(bc),
    };
  }

  /** The passages of a graph (each once, from its west or north cell) with their edge
   * betweenness sums, in the order of stats' ranking ties: (y, x) of the first cell, then E
   * before S. */
  function passages(board, graph, sums) {
    const found = [];
    for (const cell of graph.nodes) {
      if (board.open[cell] & EAST) found.push({ cell, letter: "E", value: sums.east[cell] });
      if (board.open[cell] & SOUTH) found.push({ cell, letter: "S", value: sums.south[cell] });
    }
    return found;
  }

  /** The passages that are bridges (closing one cuts the reachable cells in two), as a set
   * of "cell,letter" keys: Tarjan's low links, without recursion. */
  function bridges(board, graph) {
    const n = graph.nodes.length, { start, links } = graph;
    const order = new Int32Array(n).fill(-1), low = new Int32Array(n), parentEdge = new Int32Array(n).fill(-1);
    const stack = [], cursor = new Int32Array(n), found = new Set();
    let time = 0;
    for (let root = 0; root < n; root += 1) {
      if (order[root] >= 0) continue;
      order[root] = low[root] = time++;
      cursor[root] = start[root];
      stack.push(root);
      while (stack.length) {
        const v = stack[stack.length - 1];
        if (cursor[v] < start[v + 1]) {
          const e = cursor[v]++, w = links[e];
          if (order[w] < 0) {
            parentEdge[w] = v;
            order[w] = low[w] = time++;
            cursor[w] = start[w];
            stack.push(w);
          } else if (w !== parentEdge[v]) {
            low[v] = Math.min(low[v], order[w]);
          }
        } else {
          stack.pop();
          const p = parentEdge[v];
          if (p >= 0) {
            low[p] = Math.min(low[p], low[v]);
            if (low[v] > order[p]) {
              const a = Math.min(graph.nodes[p], graph.nodes[v]), b = Math.max(graph.nodes[p], graph.nodes[v]);
              found.add(`${a},${b === a + 1 ? "E" : "S"}`);
            }
          }
        }
      }
    }
    return found;
  }

  /** The closable passages ranked busiest first (ties: within `tolerance`, then (y, x),
   * E before S): open, inner, not a bridge. */
  function ranked(board, graph, sums, tolerance) {
    const cut = bridges(board, graph);
    const all = passages(board, graph, sums).filter((p) => !cut.has(`${p.cell},${p.letter}`));
    const byPlace = (a, b) => a.cell - b.cell || (a.letter < b.letter ? -1 : a.letter > b.letter ? 1 : 0);
    all.sort((a, b) => b.value - a.value || byPlace(a, b));
    // values within the tolerance of a run's first tie: the run goes in (y, x), E before S
    const out = [];
    for (let i = 0; i < all.length;) {
      const floor = all[i].value - tolerance * Math.abs(all[i].value);
      let j = i + 1;
      while (j < all.length && all[j].value >= floor) j += 1;
      out.push(...all.slice(i, j).sort(byPlace));
      i = j;
    }
    return out;
  }

  /** A small seeded generator (mulberry32): the sampled sources of Relieve. */
  function random(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** The sources of a measure: every node up to `exact` nodes, else `samples` drawn with
   * `seed` (the same for every trial closure, so trials compare alike). */
  function sources(n, exact, samples, seed) {
    if (n <= exact) return range(n);
    const next = random(seed), picked = new Set();
    while (picked.size < Math.min(samples, n)) picked.add(Math.floor(next() * n));
    return Int32Array.from([...picked].sort((a, b) => a - b));
  }

  /** The peak share of betweenness of a graph from the given sources. */
  function peakOf(graph, from) {
    const n = graph.nodes.length;
    const { bc } = brandes(graph, from);
    scale(bc, n, from.length);
    let top = 0;
    for (const v of bc) top = Math.max(top, v);
    return { peak: top, values: bc };
  }

  /** On a Pac-Man board, the test a closure must pass (mazekit.edit._board_guard): the board
   * after it has no more real dead ends than now and at least `rules.board.minLoops` loops;
   * null on any other board. The page tells a board by the two board rules a closure can
   * break (a closure that cuts nothing changes no other: specs/edit.md, "Pac-Man boards"):
   * at most `maxDeadEnds` real dead ends and at least `minLoops` loops, by board.js's twins
   * of mazekit.board's dead ends and loop count. `dist`: distances from the entry (a closure
   * that cuts nothing keeps who is reachable). */
  function keepsBoard(board, dist, rules) {
    const { deadEnds, loops } = mk.board, { maxDeadEnds, minLoops } = rules.board;
    const real = deadEnds(board, dist).real.length;
    if (real > maxDeadEnds || loops(board) < minLoops) return null;
    return (trial) => deadEnds(trial, dist).real.length <= real && loops(trial) >= minLoops;
  }

  /** A copy of the board with passage p (a cell and E or S) closed. */
  function closed(board, p) {
    const trial = board.copy();
    trial.setWall(p.cell % board.width, Math.floor(p.cell / board.width), mk.board.BY_LETTER[p.letter], true);
    return trial;
  }

  /** The busiest closable passage (edit --close-bottleneck 1): {cell, letter, board} (board:
   * whether it was a Pac-Man board, kept one), or {none: true, board} when every passage is
   * a bridge or, on a board, would break it. */
  function busiest(board, dist, rules) {
    const graph = reachableGraph(board, dist);
    const sums = brandes(graph, range(graph.nodes.length), board.open.length);
    const keeps = keepsBoard(board, dist, rules);
    const first = ranked(board, graph, sums, rules.tolerance).find((p) => !keeps || keeps(closed(board, p)));
    return first ? { cell: first.cell, letter: first.letter, board: !!keeps } : { none: true, board: !!keeps };
  }

  /** Relieve (mazekit.edit.relieve): the closable passage whose closing lowers the
   * betweenness peak the most. Candidates: the `top` busiest closable passages and the
   * closable passages of the peak cell, on a Pac-Man board only those that keep it one
   * (keepsBoard; the `top` counted among them); each measured exactly up to `rules.exact`
   * reachable cells, else from `rules.samples` sources drawn with `rules.seed`. Returns
   * {cell, letter, before, after, board}, or {none: before, board} when no single closure
   * lowers the peak (board: whether it was a Pac-Man board, kept one). */
  function relieve(board, dist, rules) {
    const graph = reachableGraph(board, dist);
    const n = graph.nodes.length;
    const from = sources(n, rules.exact, rules.samples, rules.seed);
    const sums = brandes(graph, from, board.open.length), { bc } = sums;
    scale(bc, n, from.length);
    const peak = leader(bc, rules.tolerance);
    const before = peak < 0 ? 0 : bc[peak];
    const order = ranked(board, graph, sums, rules.tolerance);
    const peakCell = peak < 0 ? -1 : graph.nodes[peak];
    const keeps = keepsBoard(board, dist, rules);
    const kept = (p) => !keeps || keeps(closed(board, p));
    const chosen = [];
    for (const p of order) {
      if (chosen.length === rules.top) break;
      if (kept(p)) chosen.push(p);
    }
    for (const p of order) {
      const touches = p.cell === peakCell || p.cell + (p.letter === "E" ? 1 : board.width) === peakCell;
      if (touches && !chosen.includes(p) && kept(p)) chosen.push(p);
    }
    let best = null;
    for (const p of chosen) {
      // not a bridge: the same cells stay reachable, so the sources keep their numbers
      const after = peakOf(reachableGraph(closed(board, p), dist), from).peak;
      if (after < before && (best === null || after < best.after)) best = { cell: p.cell, letter: p.letter, before, after };
    }
    return best ? { ...best, board: !!keeps } : { none: before, board: !!keeps };
  }

  mk.graph = {
    reachableGraph, brandes, betweenness, gini, leader, measures, bridges, ranked, keepsBoard, busiest, relieve,
    EAST, SOUTH,
  };
})(globalThis.mazekit ??= {});
