/* mazekit page, board.js: the maze model, its text format and the figures of a board.
 * The same definitions as the Python core (specs/format.md, specs/solve.md,
 * specs/dead-ends.md, specs/stats.md): a wall is open only when both cells say so, and
 * the shortest path is the first in N, E, S, W order. */
"use strict";
(function (mk) {
  const NORTH = 1, EAST = 2, SOUTH = 4, WEST = 8, ALL_WALLS = 15;
  // Ordered N, E, S, W: the order of the wall bits and of the path's tie rule.
  const DIRECTIONS = [
    { letter: "N", bit: NORTH, dx: 0, dy: -1, opposite: SOUTH },
    { letter: "E", bit: EAST, dx: 1, dy: 0, opposite: WEST },
    { letter: "S", bit: SOUTH, dx: 0, dy: 1, opposite: NORTH },
    { letter: "W", bit: WEST, dx: -1, dy: 0, opposite: EAST },
  ];
  const BY_LETTER = Object.fromEntries(DIRECTIONS.map((d) => [d.letter, d]));
  const HEX = "0123456789ABCDEF";

  /** A W x H maze: wall bits per cell (set = closed), entry, exit, path, the "42" mask. */
  class Board {
    constructor(width, height, walls, entry, exit, path, pattern) {
      this.width = width;
      this.height = height;
      this.walls = walls;
      this.entry = entry;
      this.exit = exit;
      this.path = path;
      this.pattern = pattern;
    }

    /** The board of the page's JSON block (rows of hex digits and of 0/1). */
    static fromData(data) {
      const { width, height } = data;
      const walls = new Uint8Array(width * height);
      const pattern = new Uint8Array(width * height);
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x < width; x += 1) {
          walls[y * width + x] = HEX.indexOf(data.walls[y][x].toUpperCase());
          pattern[y * width + x] = data.pattern[y][x] === "1" ? 1 : 0;
        }
      }
      return new Board(width, height, walls, [...data.entry], [...data.exit], data.path, pattern);
    }

    contains(x, y) {
      return x >= 0 && y >= 0 && x < this.width && y < this.height;
    }

    /** Whether a step from (x, y) in direction d is possible: open on both sides. */
    isOpen(x, y, d) {
      const nx = x + d.dx, ny = y + d.dy;
      if (!this.contains(x, y) || !this.contains(nx, ny)) return false;
      return (this.walls[y * this.width + x] & d.bit) === 0
        && (this.walls[ny * this.width + nx] & d.opposite) === 0;
    }

    /** Whether the wall of (x, y) towards d may be edited: an inner wall, no "42" cell. */
    canEdit(x, y, d) {
      const nx = x + d.dx, ny = y + d.dy;
      if (!this.contains(x, y) || !this.contains(nx, ny)) return false;
      return !this.pattern[y * this.width + x] && !this.pattern[ny * this.width + nx];
    }

    /** Set the wall of (x, y) towards d on both sides; returns whether it is now closed. */
    setWall(x, y, d, closed) {
      const i = y * this.width + x, j = (y + d.dy) * this.width + x + d.dx;
      if (closed) {
        this.walls[i] |= d.bit;
        this.walls[j] |= d.opposite;
      } else {
        this.walls[i] &= ~d.bit;
        this.walls[j] &= ~d.opposite;
      }
      return closed;
    }

    /** The JSON block of this board (for "Save page"). */
    toData(extra) {
      const walls = [], pattern = [];
      for (let y = 0; y < this.height; y += 1) {
        let row = "", mask = "";
        for (let x = 0; x < this.width; x += 1) {
          row += HEX[this.walls[y * this.width + x]];
          mask += this.pattern[y * this.width + x] ? "1" : "0";
        }
        walls.push(row);
        pattern.push(mask);
      }
      return {
        width: this.width, height: this.height, walls, pattern,
        entry: this.entry, exit: this.exit, path: this.path, ...extra,
      };
    }
  }

  /** The canonical text of a maze file (specs/format.md), with the given path line. */
  function dump(board, path) {
    const lines = [];
    for (let y = 0; y < board.height; y += 1) {
      let row = "";
      for (let x = 0; x < board.width; x += 1) row += HEX[board.walls[y * board.width + x]];
      lines.push(row);
    }
    const [ex, ey] = board.entry, [xx, xy] = board.exit;
    return `${lines.join("\n")}\n\n${ex},${ey}\n${xx},${xy}\n${path}\n`;
  }

  /** Breadth-first distances from (x, y) to every cell (-1: not reachable). */
  function distances(board, x, y) {
    const dist = new Int32Array(board.width * board.height).fill(-1);
    if (!board.contains(x, y)) return dist;
    const queue = new Int32Array(board.width * board.height);
    let head = 0, tail = 0;
    dist[y * board.width + x] = 0;
    queue[tail++] = y * board.width + x;
    while (head < tail) {
      const i = queue[head++];
      const cx = i % board.width, cy = (i - cx) / board.width;
      for (const d of DIRECTIONS) {
        if (!board.isOpen(cx, cy, d)) continue;
        const j = i + d.dy * board.width + d.dx;
        if (dist[j] < 0) {
          dist[j] = dist[i] + 1;
          queue[tail++] = j;
        }
      }
    }
    return dist;
  }

  /** The canonical shortest path from start to goal (specs/solve.md), or null. */
  function shortestPath(board, start, goal) {
    const dist = distances(board, goal[0], goal[1]);
    let [x, y] = start;
    if (!board.contains(x, y) || dist[y * board.width + x] < 0) return null;
    let letters = "";
    while (dist[y * board.width + x] > 0) {
      const here = dist[y * board.width + x];
      const d = DIRECTIONS.find((c) => board.isOpen(x, y, c)
        && dist[(y + c.dy) * board.width + x + c.dx] === here - 1);
      letters += d.letter;
      x += d.dx;
      y += d.dy;
    }
    return letters;
  }

  /** Bits of the open walls of cell index i (open on both sides). */
  function openBits(board, i) {
    const x = i % board.width, y = (i - x) / board.width;
    let bits = 0;
    for (const d of DIRECTIONS) if (board.isOpen(x, y, d)) bits |= d.bit;
    return bits;
  }

  const POPCOUNT = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

  /** Real and enclosed dead ends (specs/dead-ends.md), as cell indexes in reading order. */
  function deadEnds(board, reach) {
    const real = [], enclosed = [];
    for (let i = 0; i < reach.length; i += 1) {
      if (reach[i] < 0 || board.pattern[i] || POPCOUNT[openBits(board, i)] !== 1) continue;
      const x = i % board.width, y = (i - x) / board.width;
      const openable = DIRECTIONS.some((d) => !board.isOpen(x, y, d)
        && board.contains(x + d.dx, y + d.dy)
        && !board.pattern[(y + d.dy) * board.width + x + d.dx]);
      (openable ? real : enclosed).push(i);
    }
    return { real, enclosed };
  }

  /** Loops: open inner walls - cells + connected components, over the whole grid. */
  function loops(board) {
    const cells = board.width * board.height;
    const seen = new Uint8Array(cells);
    let edges = 0, components = 0;
    for (let i = 0; i < cells; i += 1) {
      const bits = openBits(board, i);
      edges += ((bits & EAST) ? 1 : 0) + ((bits & SOUTH) ? 1 : 0);
      if (seen[i]) continue;
      components += 1;
      const stack = [i];
      seen[i] = 1;
      while (stack.length) {
        const j = stack.pop();
        const x = j % board.width, y = (j - x) / board.width;
        for (const d of DIRECTIONS) {
          const k = j + d.dy * board.width + d.dx;
          if (board.isOpen(x, y, d) && !seen[k]) {
            seen[k] = 1;
            stack.push(k);
          }
        }
      }
    }
    return edges - cells + components;
  }

  mk.board = {
    NORTH, EAST, SOUTH, WEST, ALL_WALLS, DIRECTIONS, BY_LETTER,
    Board, dump, distances, shortestPath, openBits, deadEnds, loops,
  };
})(globalThis.mazekit ??= {});
