/* mazekit page, cops.js: the cop number of the cells reachable from the entry, as
 * specs/stats.md defines it for `stats --graph` (mazekit.graph.cop_number, the Python twin in
 * src/mazekit/graph/cops.py): 1 for a tree; with a loop, the dead ends peeled, the bounds 2-3
 * above the cop limit of core cells (Python's COP_LIMIT, from the page's JSON), 2 for a core
 * of treewidth at most 2, else the two-cop game on the core (2 or 3); none when no cell is
 * reachable. Runs in the figures worker. */
"use strict";
(function (mk) {
  const { DIRECTIONS } = mk.board;
  // stats' value, bounds and reason (its JSON `cop_number`), and the page's short form of
  // the reason for its table (specs/html.md).
  const TREE = {
    value: 1, low: 1, high: 1, exact: true,
    reason: "the reachable cells form a tree", short: "a tree",
  };
  const TWO_BY_WIDTH = {
    value: 2, low: 2, high: 2, exact: true,
    reason: "two cops win on a core of treewidth at most 2, by Joret, Kaminski and Theis; "
      + "one cannot on a graph with a loop",
    short: "treewidth 2",
  };
  const TWO = {
    value: 2, low: 2, high: 2, exact: true,
    reason: "solved: two cops win, one cannot on a graph with a loop", short: "solved",
  };
  const THREE = {
    value: 3, low: 3, high: 3, exact: true,
    reason: "solved: the robber escapes two cops; 3 suffice on a planar graph", short: "solved",
  };
  const bounds = (limit) => ({
    value: null, low: 2, high: 3, exact: false,
    reason: `the game is solved only up to ${limit} core cells, the cells left when dead ends `
      + "are peeled; a loop needs 2, and 3 suffice on every connected planar graph, "
      + "by Aigner and Fromme",
    short: `core over ${limit} cells`,
  });

  /** The cop number of the cells of `board` reachable from the entry (`dist`: each cell's
   * distance from it, -1 when unreachable), or null when none is: 1 exactly for a tree
   * (n - 1 passages); else, on the core, the bounds 2-3 above `limit` cells, 2 when its
   * treewidth is at most 2, else the two-cop game. */
  function copNumber(board, dist, limit) {
    const [, east, south] = DIRECTIONS;
    let n = 0, passages = 0;
    for (let y = 0; y < board.height; y += 1) {
      for (let x = 0; x < board.width; x += 1) {
        if (dist[y * board.width + x] < 0) continue;
        n += 1; // an open wall of a reachable cell leads to a reachable one
        if (board.isOpen(x, y, east)) passages += 1;
        if (board.isOpen(x, y, south)) passages += 1;
      }
    }
    if (n === 0) return null;
    if (passages === n - 1) return TREE;
    const core = coreGraph(mk.graph.reachableGraph(board, dist));
    if (core.nodes.length > limit) return bounds(limit);
    if (seriesParallel(core)) return TWO_BY_WIDTH;
    return twoCopsWin(board, core) ? TWO : THREE;
  }

  /** The core of a graph: what is left when nodes with one neighbour are removed, one by one,
   * until none is (mazekit.graph.cops.core_of), as a graph of the same shape. */
  function coreGraph(graph) {
    const n = graph.nodes.length, left = new Int32Array(n), queue = [];
    for (let v = 0; v < n; v += 1) {
      left[v] = graph.start[v + 1] - graph.start[v];
      if (left[v] === 1) queue.push(v);
    }
    for (let i = 0; i < queue.length; i += 1) {
      const v = queue[i];
      left[v] = 0;
      for (let e = graph.start[v]; e < graph.start[v + 1]; e += 1) {
        const u = graph.links[e];
        if (left[u] > 0 && (left[u] -= 1) === 1) queue.push(u);
      }
    }
    const index = new Int32Array(n).fill(-1), nodes = [];
    for (let v = 0; v < n; v += 1) {
      if (left[v] > 0) {
        index[v] = nodes.length;
        nodes.push(v);
      }
    }
    const start = new Int32Array(nodes.length + 1), links = [];
    nodes.forEach((v, i) => {
      for (let e = graph.start[v]; e < graph.start[v + 1]; e += 1) {
        if (index[graph.links[e]] >= 0) links.push(index[graph.links[e]]);
      }
      start[i + 1] = links.length;
    });
    return { nodes: nodes.map((v) => graph.nodes[v]), start, links: Int32Array.from(links) };
  }

  /** Whether a graph has treewidth at most 2 (mazekit.graph.cops.series_parallel): it
   * vanishes when nodes of degree 0 or 1 are deleted and each node of degree 2 is replaced
   * by an edge between its two neighbours, parallel edges merged. */
  function seriesParallel(graph) {
    const near = graph.nodes.map((_, v) => new Set(graph.links.subarray(graph.start[v], graph.start[v + 1])));
    const gone = new Uint8Array(near.length);
    const todo = [];
    near.forEach((set, v) => { if (set.size <= 2) todo.push(v); });
    let left = near.length;
    while (todo.length > 0) {
      const v = todo.pop();
      if (gone[v] || near[v].size > 2) continue;
      gone[v] = 1;
      left -= 1;
      const ends = [...near[v]];
      for (const u of ends) near[u].delete(v);
      if (ends.length === 2) {
        near[ends[0]].add(ends[1]);
        near[ends[1]].add(ends[0]);
      }
      todo.push(...ends);
    }
    return left === 0;
  }

  /** The moves of one cop from each node: the node itself (staying) and its neighbours, as
   * offsets into `links`-like arrays (`start`, `to`). */
  function closedNeighbourhoods(graph) {
    const n = graph.nodes.length;
    const start = new Int32Array(n + 1);
    const to = new Int32Array(n + graph.links.length);
    let k = 0;
    for (let v = 0; v < n; v += 1) {
      to[k++] = v;
      for (let e = graph.start[v]; e < graph.start[v + 1]; e += 1) to[k++] = graph.links[e];
      start[v + 1] = k;
    }
    return { start, to };
  }

  /** Whether two cops catch the robber on the cells of `graph` (the core), both playing
   * perfectly: the fixed point of mazekit.graph.cops._two_cops_win (and of its compiled copy,
   * src/c/cops.c), on bit sets cut to what matters.
   *
   * A state is (cop 1's node, cop 2's node, robber's cell); for each pair of nodes one row of
   * bits holds the robber's cells of the core's bounding box (y * its width + x), so a robber's move is a shift of the row
   * by the step's offset, masked by the cells that cannot step that way (a closed wall, or a
   * neighbour outside the core). `robber` holds the robber-to-move states the cops win (first
   * the captures), `cops` the cops-to-move ones. Each round, a pair's cops row is the union
   * of the robber rows of the pairs one joint move away (each cop steps or stays), and its
   * robber row is its cops row where every robber move (or staying) stays in it, plus the
   * captures; until nothing changes. Both only grow, so a round recomputes only the blocks
   * of words of the rows whose inputs changed in the round before (a row is cut into at most
   * 32 blocks, one bit of a mask each): the same rounds, without the unchanged work. Two cops
   * win when some pair's cops row holds every core cell, checked every round. Swapping the
   * cops changes nothing, so only the pairs (a, b) with a <= b are kept: half the work. */
  function twoCopsWin(board, graph) {
    // the rows of bits span the core's bounding box only, not the whole grid
    let left = board.width, top = board.height, right = 0, bottom = 0;
    for (const cell of graph.nodes) {
      const x = cell % board.width, y = (cell - x) / board.width;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
    const width = right - left + 1, size = width * (bottom - top + 1);
    const local = (cell) => {
      const x = cell % board.width;
      return ((cell - x) / board.width - top) * width + x - left;
    };
    const n = graph.nodes.length;
    const words = (size + 31) >>> 5; // one robber row
    const block = Math.ceil(words / 32), blocks = Math.ceil(words / block);
    const moves = closedNeighbourhoods(graph);
    const robber = new Int32Array(n * n * words), cops = new Int32Array(n * n * words);
    const reach = new Int32Array(words), inCore = new Uint8Array(board.width * board.height);
    for (const cell of graph.nodes) {
      const at = local(cell);
      reach[at >>> 5] |= 1 << (at & 31);
      inCore[cell] = 1;
    }
    // per direction: the row's shift (in words and bits) and the cells that cannot step that way
    const [north, east, south, west] = DIRECTIONS.map((d) => {
      const closed = new Int32Array(words).fill(-1);
      const offset = d.dy * width + d.dx;
      for (const cell of graph.nodes) {
        const x = cell % board.width, y = (cell - x) / board.width, at = local(cell);
        const open = board.isOpen(x, y, d) && inCore[cell + d.dy * board.width + d.dx];
        if (open) closed[at >>> 5] &= ~(1 << (at & 31));
      }
      return { closed, offset };
    });
    const pad = ((width + 31) >>> 5) + 1; // words of zeros on each side of the scratch row
    const scratch = new Int32Array(words + 2 * pad);
    // A word of a robber row reads the words of its cops row up to `spread` words away (the
    // shifts by one cell and by one row), so only the blocks near a change are computed again.
    const spread = Math.ceil(((width >>> 5) + 1) / block), all = blocks === 32 ? -1 : (1 << blocks) - 1;
    const bit = (cell) => 1 << ((cell >>> 5) / block | 0);

    // per pair, as bit masks of blocks: what grew in its robber row last round, in its cops
    // row this round
    const robberGrew = new Int32Array(n * n), copsGrew = new Int32Array(n * n);
    const changed = new Int32Array(n * n); // pairs whose robber row grew last round
    const touched = new Int32Array(n * n); // pairs whose cops row grew this round
    const grown = new Int32Array(32); // the blocks of one changed robber row
    let count = 0;
    for (let a = 0; a < n; a += 1) {
      for (let b = a; b < n; b += 1) {
        const p = a * n + b, one = local(graph.nodes[a]), two = local(graph.nodes[b]);
        robber[p * words + (one >>> 5)] |= 1 << (one & 31);
        robber[p * words + (two >>> 5)] |= 1 << (two & 31);
        robberGrew[p] = bit(one) | bit(two);
        changed[count++] = p;
      }
    }
    while (count > 0) {
      // the cops' joint moves: every pair one move away from a changed pair may gain states
      // (in the order of the pairs, so that the rows read and written lie close in memory)
      changed.subarray(0, count).sort();
      let touchedCount = 0;
      for (let i = 0; i < count; i += 1) {
        const q = changed[i], a = (q / n) | 0, b = q - a * n, from = q * words;
        let ready = 0;
        for (let mask = robberGrew[q]; mask !== 0; mask &= mask - 1) grown[ready++] = 31 - Math.clz32(mask & -mask);
        for (let s = moves.start[a]; s < moves.start[a + 1]; s += 1) {
          const one = moves.to[s];
          for (let t = moves.start[b]; t < moves.start[b + 1]; t += 1) {
            const two = moves.to[t], p = one <= two ? one * n + two : two * n + one, into = p * words;
            let grew = 0;
            for (let j = 0; j < ready; j += 1) {
              const first = grown[j] * block, last = Math.min(first + block, words);
              for (let k = first; k < last; k += 1) {
                const before = cops[into + k], after = before | robber[from + k];
                if (before !== after) {
                  cops[into + k] = after;
                  grew |= 1 << grown[j];
                }
              }
            }
            if (grew !== 0) {
              if (copsGrew[p] === 0) touched[touchedCount++] = p;
              copsGrew[p] |= grew;
            }
          }
        }
      }
      // a pair whose cops row holds every core cell wins wherever the robber starts
      for (let i = 0; i < touchedCount; i += 1) {
        const at = touched[i] * words;
        let missing = 0;
        for (let k = 0; k < words; k += 1) missing |= reach[k] & ~cops[at + k];
        if (missing === 0) return true;
      }
      // the robber's moves: a state is won when every move of his (or staying) is
      count = 0;
      for (let i = 0; i < touchedCount; i += 1) {
        const p = touched[i], at = p * words;
        let near = copsGrew[p];
        copsGrew[p] = 0;
        for (let r = 0; r < spread; r += 1) near |= (near << 1) | (near >>> 1);
        near &= all;
        scratch.set(cops.subarray(at, at + words), pad);
        let grew = 0;
        for (; near !== 0; near &= near - 1) {
          const low = 31 - Math.clz32(near & -near), first = low * block, last = Math.min(first + block, words);
          for (let k = first; k < last; k += 1) {
            const j = pad + k;
            const stays = scratch[j]
              & (shifted(scratch, j, north.offset) | north.closed[k])
              & (shifted(scratch, j, east.offset) | east.closed[k])
              & (shifted(scratch, j, south.offset) | south.closed[k])
              & (shifted(scratch, j, west.offset) | west.closed[k]);
            const won = stays | robber[at + k]; // the captures and every state won before: rows only grow
            if (won !== robber[at + k]) {
              robber[at + k] = won;
              grew |= 1 << low;
            }
          }
        }
        robberGrew[p] = grew;
        if (grew !== 0) changed[count++] = p;
      }
    }
    return false;
  }

  /** Word `k` of a row of bits shifted so that its bit i is bit i + offset of `row` (the
   * row padded with zero words: k + offset / 32, rounded either way, stays inside). */
  function shifted(row, k, offset) {
    const whole = k + (offset >> 5), bit = offset & 31;
    if (bit === 0) return row[whole];
    return (row[whole] >>> bit) | (row[whole + 1] << (32 - bit));
  }

  mk.cops = { copNumber, coreGraph, seriesParallel, twoCopsWin };
})(globalThis.mazekit ??= {});
