/* mazekit page, board.js: the maze model, its text format and the figures of a board.
 * The same definitions as the Python core (specs/format.md, specs/solve.md,
 * specs/dead-ends.md, specs/stats.md): a wall is open only when both cells say so, and
 * the shortest path is the first in N, E, S, W order. `distances`, `shortestPath` and
 * `loops` are the twins of mazekit.search's breadth-first search, canonical path and loop
 * count, `house` of mazekit.board.house, `deadEnds` of mazekit.board.classify_dead_ends
 * (through mazekit.pacman.dead_ends). Runs in the page and in its figures worker (no
 * `document` here). */
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
  const LETTER_CODES = new Uint8Array(16); // a step's letter as an ASCII code, by its bit
  for (const d of DIRECTIONS) LETTER_CODES[d.bit] = d.letter.charCodeAt(0);
  const ASCII = new TextDecoder("ascii");
  const HEX = "0123456789ABCDEF";
  const HEX_VALUE = new Int8Array(128).fill(-1);
  for (let v = 0; v < 16; v += 1) {
    HEX_VALUE[HEX.charCodeAt(v)] = v;
    HEX_VALUE[HEX.toLowerCase().charCodeAt(v)] = v;
  }

  /** A W x H maze: wall bits per cell (set = closed), entry, exit, path, the "42" mask, and
   * `open`: per cell the bits of the walls open on both sides (kept by setWall), so that a
   * search reads one byte per cell. */
  class Board {
    constructor(width, height, walls, entry, exit, path, pattern) {
      this.width = width;
      this.height = height;
      this.walls = walls;
      this.entry = entry;
      this.exit = exit;
      this.path = path;
      this.pattern = pattern;
      this.open = new Uint8Array(width * height);
      // each passage once, from its west or north cell, then its other end
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x < width; x += 1) {
          const i = y * width + x;
          if (x + 1 < width && (walls[i] & EAST) === 0 && (walls[i + 1] & WEST) === 0) {
            this.open[i] |= EAST;
            this.open[i + 1] |= WEST;
          }
          if (y + 1 < height && (walls[i] & SOUTH) === 0 && (walls[i + width] & NORTH) === 0) {
            this.open[i] |= SOUTH;
            this.open[i + width] |= NORTH;
          }
        }
      }
    }

    /** The board of the page's JSON block: rows of hex digits, the "42" as a list of cells. */
    static fromData(data) {
      const { width, height } = data;
      const walls = new Uint8Array(width * height);
      const pattern = new Uint8Array(width * height);
      for (let y = 0; y < height; y += 1) {
        const row = data.walls[y];
        for (let x = 0; x < width; x += 1) walls[y * width + x] = HEX_VALUE[row.charCodeAt(x)];
      }
      for (const [x, y] of data.pattern) pattern[y * width + x] = 1;
      return new Board(width, height, walls, [...data.entry], [...data.exit], data.path, pattern);
    }

    /** A copy sharing nothing (for the figures worker and for trial closures). */
    copy() {
      return new Board(this.width, this.height, this.walls.slice(), [...this.entry], [...this.exit], this.path, this.pattern);
    }

    contains(x, y) {
      return x >= 0 && y >= 0 && x < this.width && y < this.height;
    }

    /** Recompute the open bits of cell index i from the walls of it and its neighbours. */
    refreshOpen(i) {
      const x = i % this.width, y = (i - x) / this.width;
      let bits = 0;
      for (const d of DIRECTIONS) {
        const nx = x + d.dx, ny = y + d.dy;
        if (this.contains(nx, ny) && (this.walls[i] & d.bit) === 0
          && (this.walls[ny * this.width + nx] & d.opposite) === 0) bits |= d.bit;
      }
      this.open[i] = bits;
    }

    /** Whether a step from (x, y) in direction d is possible: open on both sides. */
    isOpen(x, y, d) {
      return this.contains(x, y) && (this.open[y * this.width + x] & d.bit) !== 0;
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
      this.refreshOpen(i);
      this.refreshOpen(j);
      return closed;
    }

    /** The "42" cells as [x, y] pairs, in reading order (found once: they never change). */
    patternCells() {
      if (!this.patternList) {
        this.patternList = [];
        for (let i = 0; i < this.pattern.length; i += 1) {
          if (this.pattern[i]) this.patternList.push([i % this.width, Math.floor(i / this.width)]);
        }
      }
      return this.patternList;
    }

    /** The rows of hex digits of the maze file. */
    rows() {
      const rows = [];
      for (let y = 0; y < this.height; y += 1) {
        let row = "";
        for (let x = 0; x < this.width; x += 1) row += HEX[this.walls[y * this.width + x]];
        rows.push(row);
      }
      return rows;
    }

    /** The JSON block of this board (for "Save page"). */
    toData(extra) {
      return {
        width: this.width, height: this.height, walls: this.rows(), pattern: this.patternCells(),
        entry: this.entry, exit: this.exit, path: this.path, ...extra,
      };
    }
  }

  /** The canonical text of a maze file (specs/format.md), with the given path line. */
  function dump(board, path) {
    const [ex, ey] = board.entry, [xx, xy] = board.exit;
    return `${board.rows().join("\n")}\n\n${ex},${ey}\n${xx},${xy}\n${path}\n`;
  }

  let scratch = new Int32Array(0);

  /** A queue of n cells, kept between searches (a million cells' is 4 MB). */
  function queueFor(n) {
    if (scratch.length < n) scratch = new Int32Array(n);
    return scratch;
  }

  /** Breadth-first distances from (x, y) to every cell (-1: not reachable), in `into` when
   * given (an array of a cell each, used again: a million cells' is 4 MB). */
  function distances(board, x, y, into = null) {
    const { width, open } = board;
    const dist = (into && into.length === open.length ? into : new Int32Array(open.length)).fill(-1);
    if (!board.contains(x, y)) return dist;
    const queue = queueFor(open.length);
    const offsets = DIRECTIONS.map((d) => d.dy * width + d.dx);
    let head = 0, tail = 0;
    dist[y * width + x] = 0;
    queue[tail++] = y * width + x;
    while (head < tail) {
      const i = queue[head++], bits = open[i], next = dist[i] + 1;
      for (let k = 0; k < 4; k += 1) {
        if ((bits & (1 << k)) === 0) continue;
        const j = i + offsets[k];
        if (dist[j] < 0) {
          dist[j] = next;
          queue[tail++] = j;
        }
      }
    }
    return dist;
  }

  /** The canonical shortest path from start to goal (specs/solve.md), or null. */
  function shortestPath(board, start, goal) {
    return walk(board, distances(board, goal[0], goal[1]), start);
  }

  /** The canonical path from start down the distances `dist` to their 0 (the first step
   * in N, E, S, W order that goes one nearer), or null when start is not reachable. */
  function walk(board, dist, start) {
    const { width, open } = board;
    const [x, y] = start;
    if (!board.contains(x, y) || dist[y * width + x] < 0) return null;
    // the letters' codes in a typed array, one string at the end: a path of 179 230 steps
    // (a perfect 1000x1000 maze) is then a few milliseconds, not an array of as many strings
    let i = y * width + x;
    const letters = new Uint8Array(dist[i]);
    for (let k = 0; dist[i] > 0; k += 1) {
      const here = dist[i];
      for (const d of DIRECTIONS) {
        const j = i + d.dy * width + d.dx;
        if ((open[i] & d.bit) !== 0 && dist[j] === here - 1) {
          letters[k] = LETTER_CODES[d.bit];
          i = j;
          break;
        }
      }
    }
    return ASCII.decode(letters);
  }

  /** Distances to the exit kept through wall edits at the cost of what changed: an opened
   * wall lowers the distances beyond it (a search over the cells that come nearer only); a
   * closed wall changes nothing unless it was the one way one step nearer for its farther
   * cell, and then only the cells that lost their way are searched again. A closed wall
   * that leaves the maze joined (a search from both its sides meets) waits: its update is
   * made at the next edit, on the first read of `dist`, or by `settle()` in idle time, and
   * `path` meanwhile finds the new path by a search guided by the distances before it.
   * `dist` equals `distances` from the exit after every edit (the browser tests compare). */
  class ExitDistances {
    constructor(board) {
      this.board = board;
      this.values = distances(board, board.exit[0], board.exit[1]);
      this.pending = null; // the closed wall [a, b] whose update waits
      this.reached = 0; // how many cells reach the exit, kept as the distances are
      this.lost = 0; // how many cells the last edit cut off from the exit (`cutOff`)
      for (let i = 0; i < this.values.length; i += 1) if (this.values[i] >= 0) this.reached += 1;
    }

    /** The distances to the exit, exact (a waiting update is made first). */
    get dist() {
      this.settle();
      return this.values;
    }

    /** >= 0 exactly where a cell reaches the exit, also while an update waits (a closure
     * that leaves the maze joined changes no cell's reach, only distances). */
    get reach() {
      return this.values;
    }

    /** Make the waiting update, if any. */
    settle() {
      if (!this.pending) return;
      const [a, b] = this.pending;
      this.pending = null;
      this.closed(a, b);
    }

    /** Typed scratch arrays for the searches of an edit, kept between edits. */
    scratch() {
      const n = this.board.open.length;
      if (!this.work || this.work.steps.length !== n) {
        this.work = {
          steps: new Int32Array(n).fill(-1), marks: new Uint8Array(n),
          one: new Int32Array(n), two: new Int32Array(n), touched: new Int32Array(n), lost: new Int32Array(n),
        };
      }
      return this.work;
    }

    /** The canonical path from `start` (specs/solve.md), or null when it cannot reach the
     * exit: walked down the distances, or while a closure waits, found by `guided`. */
    path(start) {
      return this.pending ? this.guided(start) : walk(this.board, this.values, start);
    }

    /** After the wall between cell indexes a and b was opened. */
    opened(a, b) {
      this.settle();
      this.lost = 0;
      const dist = this.values, { width, open } = this.board;
      // a cell comes nearer once at most per step of its new distance: a FIFO of cells
      // holds each at most once at a time when taken in distance order, as here
      const queue = queueFor(open.length);
      let head = 0, tail = 0;
      for (const [from, to] of [[a, b], [b, a]]) {
        if (dist[from] >= 0 && (dist[to] < 0 || dist[to] > dist[from] + 1)) {
          if (dist[to] < 0) this.reached += 1;
          dist[to] = dist[from] + 1;
          queue[tail++] = to;
        }
      }
      const offsets = DIRECTIONS.map((d) => d.dy * width + d.dx);
      while (head < tail) {
        const v = queue[head++], next = dist[v] + 1;
        for (let k = 0; k < 4; k += 1) {
          if ((open[v] & (1 << k)) === 0) continue;
          const w = v + offsets[k];
          if (dist[w] < 0 || dist[w] > next) {
            if (dist[w] < 0) this.reached += 1;
            dist[w] = next;
            queue[tail++] = w;
          }
        }
      }
    }

    /** After the wall between cell indexes a and b was closed, for an edit that shows its
     * path at once: nothing when no distance changes; when the two sides are still joined,
     * the update waits (`pending`); a wall that cut the maze in two: the side without the
     * exit loses its reach (the side `apart` found whole, or every cell off the exit's side
     * when that is the one found), and the others keep their distances. */
    closedLater(a, b) {
      this.settle();
      this.lost = 0; // the cells the closure cuts off from the exit, in `lost` of the scratch
      const dist = this.values, { width, open } = this.board;
      if (dist[a] < 0 || Math.abs(dist[a] - dist[b]) !== 1) return;
      const far = dist[a] > dist[b] ? a : b;
      for (const d of DIRECTIONS) {
        const w = far + d.dy * width + d.dx;
        if ((open[far] & d.bit) !== 0 && dist[w] === dist[far] - 1) return; // another way
      }
      const side = this.apart(a, b);
      if (side === null) {
        this.pending = [a, b];
        return;
      }
      const exit = this.board.exit[1] * width + this.board.exit[0];
      const { marks, lost } = this.scratch();
      let n = 0;
      if (!side.includes(exit)) {
        for (const v of side) {
          dist[v] = -1;
          lost[n++] = v;
        }
        this.reached -= side.length;
      } else {
        // the exit's side is the one found whole: every other cell that reached the exit is cut off
        for (const v of side) marks[v] = 1;
        for (let i = 0; i < dist.length; i += 1) {
          if (dist[i] >= 0 && marks[i] === 0) {
            dist[i] = -1;
            lost[n++] = i;
          }
        }
        for (const v of side) marks[v] = 0;
        this.reached = side.length;
      }
      this.lost = n;
    }

    /** The cells reachable from the entry when the last edit cut it off from the exit: >= 0
     * there, -1 elsewhere, in `into` when given, and their count; null when the last edit did
     * not. The side cut off is one piece (closing one passage splits the cells that reached
     * the exit in two at most), so it is the entry's reach, found without a search. */
    cutOff(into) {
      const { width, entry, open } = this.board, at = entry[1] * width + entry[0];
      if (!this.lost || !this.board.contains(entry[0], entry[1]) || this.values[at] >= 0) return null;
      const { lost } = this.work;
      let holds = false;
      for (let k = 0; k < this.lost && !holds; k += 1) holds = lost[k] === at;
      if (!holds) return null;
      const reach = (into && into.length === open.length ? into : new Int32Array(open.length)).fill(-1);
      for (let k = 0; k < this.lost; k += 1) reach[lost[k]] = 0;
      return { reach, count: this.lost };
    }

    /** Whether cells a and b are apart (no open way joins them): null when joined, else the
     * cells of one side, found whole. Searches from both at once, a cell at a time from the
     * side found smaller so far: a short way round is found after a few cells, and a cut
     * costs twice its smaller side. */
    apart(a, b) {
      const { width, open } = this.board, { marks, one, two } = this.scratch();
      const offsets = DIRECTIONS.map((d) => d.dy * width + d.dx);
      let headA = 0, tailA = 0, headB = 0, tailB = 0, joined = false;
      one[tailA++] = a;
      marks[a] = 1;
      two[tailB++] = b;
      marks[b] = 2;
      while (!joined && headA < tailA && headB < tailB) {
        const fromA = tailA <= tailB, mine = fromA ? 1 : 2;
        const v = fromA ? one[headA++] : two[headB++];
        for (let k = 0; k < 4; k += 1) {
          if ((open[v] & (1 << k)) === 0) continue;
          const w = v + offsets[k];
          if (marks[w] === 0) {
            marks[w] = mine;
            if (fromA) one[tailA++] = w;
            else two[tailB++] = w;
          } else if (marks[w] !== mine) {
            joined = true;
            break;
          }
        }
      }
      for (let i = 0; i < tailA; i += 1) marks[one[i]] = 0;
      for (let i = 0; i < tailB; i += 1) marks[two[i]] = 0;
      if (joined) return null;
      return headA === tailA ? one.subarray(0, tailA) : two.subarray(0, tailB);
    }

    /** The canonical path from `start` while the closure of `pending` waits: an A* search
     * from start guided by the distances before that closure (a lower bound of the new
     * ones, changing by one a step, so each step keeps its cost f = steps + bound or adds 2:
     * two stacks), kept on until every cell of cost up to the exit's is settled; then the
     * cells on a shortest path (back from the exit, one step fewer each time) and the walk
     * from start taking the first of N, E, S, W that is on one a step farther: the cells
     * whose new distance is one less, as `walk` takes them. */
    guided(start) {
      const { board } = this, { width, open } = board, bound = this.values;
      const [sx, sy] = start;
      if (!board.contains(sx, sy) || bound[sy * width + sx] < 0) return null;
      const { steps, marks, touched } = this.scratch();
      let { one: now, two: later } = this.scratch();
      const offsets = DIRECTIONS.map((d) => d.dy * width + d.dx);
      const origin = sy * width + sx, exit = board.exit[1] * width + board.exit[0];
      let top = 0, laterTop = 0, count = 0, cost = bound[origin], found = false;
      steps[origin] = 0;
      touched[count++] = origin;
      now[top++] = origin;
      for (;;) {
        while (top > 0) {
          const v = now[--top];
          if (marks[v] & 1) continue; // settled already, by a cheaper way
          marks[v] |= 1;
          if (v === exit) found = true;
          const next = steps[v] + 1, bits = open[v];
          for (let k = 0; k < 4; k += 1) {
            if ((bits & (1 << k)) === 0) continue;
            const w = v + offsets[k];
            if (bound[w] < 0 || (marks[w] & 1) || (steps[w] >= 0 && steps[w] <= next)) continue;
            if (steps[w] < 0) touched[count++] = w;
            steps[w] = next;
            if (next + bound[w] === cost) now[top++] = w;
            else later[laterTop++] = w;
          }
        }
        if (found || laterTop === 0) break;
        [now, later] = [later, now];
        top = laterTop;
        laterTop = 0;
        cost += 2;
      }
      let path = null;
      if (found) {
        // the cells on a shortest path, back from the exit
        const queue = later;
        let head = 0, tail = 0;
        queue[tail++] = exit;
        marks[exit] |= 2;
        while (head < tail) {
          const w = queue[head++], before = steps[w] - 1;
          for (let k = 0; k < 4; k += 1) {
            if ((open[w] & (1 << k)) === 0) continue;
            const u = w + offsets[k];
            if (marks[u] === 1 && steps[u] === before) {
              marks[u] |= 2;
              queue[tail++] = u;
            }
          }
        }
        const letters = [];
        for (let v = origin; v !== exit;) {
          for (let k = 0; k < 4; k += 1) {
            const w = v + offsets[k];
            if ((open[v] & (1 << k)) !== 0 && (marks[w] & 2) !== 0 && steps[w] === steps[v] + 1) {
              letters.push(DIRECTIONS[k].letter);
              v = w;
              break;
            }
          }
        }
        path = letters.join("");
      }
      for (let i = 0; i < count; i += 1) {
        steps[touched[i]] = -1;
        marks[touched[i]] = 0;
      }
      return path;
    }

    /** After the wall between cell indexes a and b was closed: the cells that lost every
     * way one step nearer (found from the farther end, in order of distance) get their
     * distances again from their nearest neighbours that kept theirs, by a breadth-first
     * merge; nothing else changes. */
    closed(a, b) {
      this.settle();
      const dist = this.values, { width, open } = this.board;
      if (dist[a] < 0 || Math.abs(dist[a] - dist[b]) !== 1) return;
      const far = dist[a] > dist[b] ? a : b;
      const offsets = DIRECTIONS.map((d) => d.dy * width + d.dx);
      if (!this.lost || this.lost.length !== open.length) this.lost = new Uint8Array(open.length);
      const { lost } = this;
      const supported = (v) => {
        for (let k = 0; k < 4; k += 1) {
          if ((open[v] & (1 << k)) === 0) continue;
          const w = v + offsets[k];
          if (dist[w] === dist[v] - 1 && !lost[w]) return true;
        }
        return false;
      };
      if (supported(far)) return; // another way one step nearer: no distance changes
      const affected = [far];
      lost[far] = 1;
      for (let head = 0; head < affected.length; head += 1) {
        const v = affected[head];
        for (let k = 0; k < 4; k += 1) {
          if ((open[v] & (1 << k)) === 0) continue;
          const w = v + offsets[k];
          if (dist[w] === dist[v] + 1 && !lost[w] && !supported(w)) {
            lost[w] = 1;
            affected.push(w);
          }
        }
      }
      // each lost cell's distance through its nearest kept neighbour (-1: none yet)
      const seeds = [];
      for (const v of affected) {
        let best = -1;
        for (let k = 0; k < 4; k += 1) {
          if ((open[v] & (1 << k)) === 0) continue;
          const w = v + offsets[k];
          if (!lost[w] && dist[w] >= 0 && (best < 0 || dist[w] + 1 < best)) best = dist[w] + 1;
        }
        dist[v] = best;
        if (best >= 0) seeds.push(v);
      }
      seeds.sort((p, q) => dist[p] - dist[q]);
      // settle in order of distance: the seeds (sorted) merged with the cells they reach
      const reached = [];
      let i = 0, j = 0;
      while (i < seeds.length || j < reached.length) {
        const fromSeeds = j >= reached.length || (i < seeds.length && dist[seeds[i]] <= dist[reached[j]]);
        const v = fromSeeds ? seeds[i++] : reached[j++];
        if (!lost[v]) continue; // settled already
        lost[v] = 0;
        for (let k = 0; k < 4; k += 1) {
          if ((open[v] & (1 << k)) === 0) continue;
          const w = v + offsets[k];
          if (lost[w] && (dist[w] < 0 || dist[w] > dist[v] + 1)) {
            dist[w] = dist[v] + 1;
            reached.push(w);
          }
        }
      }
      for (const v of affected) {
        if (lost[v]) {
          lost[v] = 0; // cut off from the exit
          dist[v] = -1;
          this.reached -= 1;
        }
      }
    }
  }

  /** Bits of the open walls of cell index i (open on both sides). */
  function openBits(board, i) {
    return board.open[i];
  }

  const POPCOUNT = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

  /** Real and enclosed dead ends (specs/dead-ends.md), as cell indexes in reading order. */
  function deadEnds(board, reach) {
    const real = [], enclosed = [];
    for (let i = 0; i < reach.length; i += 1) {
      if (reach[i] < 0 || board.pattern[i] || POPCOUNT[board.open[i]] !== 1) continue;
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
    const { width, open } = board;
    const cells = open.length;
    const seen = new Uint8Array(cells);
    const stack = new Int32Array(cells);
    const offsets = DIRECTIONS.map((d) => d.dy * width + d.dx);
    let edges = 0, components = 0;
    for (let i = 0; i < cells; i += 1) {
      edges += ((open[i] & EAST) ? 1 : 0) + ((open[i] & SOUTH) ? 1 : 0);
      if (seen[i]) continue;
      components += 1;
      let top = 0;
      stack[top++] = i;
      seen[i] = 1;
      while (top > 0) {
        const j = stack[--top];
        for (let k = 0; k < 4; k += 1) {
          const n = j + offsets[k];
          if ((open[j] & (1 << k)) !== 0 && !seen[n]) {
            seen[n] = 1;
            stack[top++] = n;
          }
        }
      }
    }
    return edges - cells + components;
  }

  /** The chasers' house (mazekit.board.house): the cell reachable from the entry nearest the
   * grid's centre ((W-1)/2, (H-1)/2) by squared distance, ties by (y, x), never the entry or
   * the exit; null when none is. `reach`: distances from the entry. */
  function house(board, reach) {
    const { width, height } = board;
    if (!board.contains(board.entry[0], board.entry[1])) return null;
    const skip = [board.entry, board.exit].map(([x, y]) => (board.contains(x, y) ? y * width + x : -1));
    // boxes around the centre, each twice as wide: a cell outside a box of half-width h (in
    // doubled coordinates 2h) lies farther than (2h)^2, so a best cell within that is the one
    for (let h = 1; ; h *= 2) {
      const x0 = Math.max(0, Math.ceil((width - 1 - 2 * h) / 2)), x1 = Math.min(width - 1, Math.floor((width - 1 + 2 * h) / 2));
      const y0 = Math.max(0, Math.ceil((height - 1 - 2 * h) / 2)), y1 = Math.min(height - 1, Math.floor((height - 1 + 2 * h) / 2));
      let best = -1, bestFar = Infinity;
      for (let y = y0; y <= y1; y += 1) {
        for (let x = x0; x <= x1; x += 1) {
          const i = y * width + x;
          if (reach[i] < 0 || i === skip[0] || i === skip[1]) continue;
          // doubled coordinates keep the half-cell centre of an even side exact in integers
          const far = (2 * x - (width - 1)) ** 2 + (2 * y - (height - 1)) ** 2;
          if (far < bestFar) {
            bestFar = far;
            best = i;
          }
        }
      }
      const whole = x0 === 0 && y0 === 0 && x1 === width - 1 && y1 === height - 1;
      if ((best >= 0 && bestFar <= 4 * h * h) || whole) return best < 0 ? null : [best % width, Math.floor(best / width)];
    }
  }

  mk.board = {
    NORTH, EAST, SOUTH, WEST, ALL_WALLS, DIRECTIONS, BY_LETTER,
    Board, ExitDistances, dump, distances, shortestPath, walk, openBits, deadEnds, loops, house,
  };
})(globalThis.mazekit ??= {});
