/* mazekit page, chase.js: the four chasers by the rules of specs/chase.md, tick by tick.
 * One movement kernel (one cell of lookahead, no reversing by choice, the step whose next
 * cell is nearest the target, ties N, W, S, E) and four target functions on top of it: the
 * twin of mazekit.chasers's Simulation. Its trace has the keys of `mazekit chase --format
 * jsonl`, and the browser tests hold the two equal. The names, the schedule, the tick limit
 * and the starts come from the page's JSON (Python's constants), through the options. */
"use strict";
(function (mk) {
  const { BY_LETTER } = mk.board;
  const TIE_ORDER = ["N", "W", "S", "E"].map((letter) => BY_LETTER[letter]);
  const OPPOSITE = { N: "S", S: "N", E: "W", W: "E" };

  /** The mode of tick k (k >= 1): the schedule alternates scatter, chase, ...; then holds. */
  function modeOf(tick, schedule, fixed) {
    if (fixed) return fixed;
    let left = tick;
    for (let i = 0; i < schedule.length; i += 1) {
      if (left <= schedule[i]) return i % 2 === 0 ? "scatter" : "chase";
      left -= schedule[i];
    }
    return schedule.length % 2 === 0 ? "scatter" : "chase";
  }

  /** R + n v(F), and n more to the west when F is N (the arcade's overflow). */
  function ahead(cell, facing, n) {
    if (!facing) return [cell[0], cell[1]];
    const d = BY_LETTER[facing];
    const x = cell[0] + n * d.dx - (facing === "N" ? n : 0);
    return [x, cell[1] + n * d.dy];
  }

  const square = (a, b) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2;

  /** The chase target of each chaser (specs/chase.md), from the current positions. */
  const CHASE_TARGETS = {
    blinky: (run) => run.runner.cell,
    pinky: (run) => ahead(run.runner.cell, run.runner.facing, 4),
    inky: (run) => {
      const q = ahead(run.runner.cell, run.runner.facing, 2);
      const blinky = run.chasers.find((c) => c.name === "blinky");
      const b = blinky ? blinky.cell : q;
      return [2 * q[0] - b[0], 2 * q[1] - b[1]];
    },
    clyde: (run, self) => (square(self.cell, run.runner.cell) >= 64
      ? run.runner.cell : run.scatter.clyde),
  };

  /** The runner's route: the path's letters, and for a patrol the way back after them. */
  function route(path, patrol) {
    if (!patrol || !path) return path;
    return path + [...path].reverse().map((l) => OPPOSITE[l]).join("");
  }

  /** One run of the chasers on a board; `step()` plays one tick and returns its trace line.
   * `options`: `names` (every chaser, in order), `schedule`, `mode`, `passThrough`,
   * `runner`, `ticks`, `places` (every chaser's start), `scatter` (every chaser's scatter
   * target) and `only`. */
  class Chase {
    constructor(board, path, options) {
      this.board = board;
      this.schedule = options.schedule;
      this.fixedMode = options.mode && options.mode !== "schedule" ? options.mode : null;
      this.passThrough = options.passThrough ?? true;
      this.patrol = options.runner === "patrol";
      this.maxTicks = options.ticks;
      this.route = route(path, this.patrol);
      this.pathLength = path.length;
      this.scatter = options.scatter;
      const places = options.places;
      const only = options.only ?? options.names;
      this.chasers = options.names.filter((n) => only.includes(n)).map((name) => ({
        name, cell: [...places[name]], heading: null, target: null,
      }));
      this.runner = { cell: [...board.entry], facing: path ? path[0] : null };
      this.tick = 0;
      this.mode = null;
      this.result = null;
      // A chaser that starts on the entry catches the runner at tick 0; --ticks 0 ends there.
      const first = this.chasers.find((c) => c.cell[0] === board.entry[0] && c.cell[1] === board.entry[1]);
      let event = null;
      if (first) {
        event = `caught:${first.name}`;
        this.result = { result: "caught", tick: 0, by: first.name, cell: [...board.entry] };
      } else if (this.maxTicks <= 0 || !this.route) {
        event = "running";
        this.result = { result: "running", tick: 0, by: null, cell: [...board.entry] };
      }
      this.trace = [this.line(event)];
    }

    /** The trace line of the current tick, with the keys of `mazekit chase --format jsonl`. */
    line(event) {
      return {
        tick: this.tick,
        mode: this.mode,
        runner: { x: this.runner.cell[0], y: this.runner.cell[1], facing: this.runner.facing },
        chasers: this.chasers.map((c) => ({
          name: c.name, x: c.cell[0], y: c.cell[1], heading: c.heading,
          target: c.target && [c.target[0], c.target[1]],
        })),
        event,
      };
    }

    get done() {
      return this.result !== null;
    }

    /** The kernel: the possible step nearest the target, never back unless forced. */
    move(chaser, target, reversing) {
      const [x, y] = chaser.cell;
      const back = chaser.heading ? OPPOSITE[chaser.heading] : null;
      let chosen = null;
      if (reversing && back) {
        chosen = BY_LETTER[back];
      } else {
        let best = Infinity;
        for (const d of TIE_ORDER) {
          if (d.letter === back || !this.board.isOpen(x, y, d)) continue;
          const d2 = square([x + d.dx, y + d.dy], target);
          if (d2 < best) {
            best = d2;
            chosen = d;
          }
        }
        if (!chosen && back && this.board.isOpen(x, y, BY_LETTER[back])) chosen = BY_LETTER[back];
      }
      if (chosen) {
        chaser.cell = [x + chosen.dx, y + chosen.dy];
        chaser.heading = chosen.letter;
      }
    }

    /** Play one tick; returns its trace line (null when the run is over). */
    step() {
      if (this.done) return null;
      this.tick += 1;
      const k = this.tick;
      const letter = this.route[(k - 1) % this.route.length];
      const from = this.runner.cell;
      const d = BY_LETTER[letter];
      this.runner = { cell: [from[0] + d.dx, from[1] + d.dy], facing: letter };
      const mode = modeOf(k, this.schedule, this.fixedMode);
      const reversing = this.mode !== null && mode !== this.mode;
      this.mode = mode;
      const before = new Map();
      for (const chaser of this.chasers) {
        before.set(chaser.name, chaser.cell);
        chaser.target = mode === "scatter"
          ? this.scatter[chaser.name] : CHASE_TARGETS[chaser.name](this, chaser);
        this.move(chaser, chaser.target, reversing);
      }
      const here = this.runner.cell;
      const same = (a, b) => a[0] === b[0] && a[1] === b[1];
      const catcher = this.chasers.find((c) => same(c.cell, here)
        || (!this.passThrough && same(c.cell, from) && same(before.get(c.name), here)));
      // the end of the run wins over a reversal
      let event = reversing ? "reverse" : null;
      if (catcher) {
        event = `caught:${catcher.name}`;
        this.result = { result: "caught", tick: k, by: catcher.name, cell: [...here] };
      } else if (!this.patrol && k >= this.pathLength) {
        event = "escaped";
        this.result = { result: "escaped", tick: k, by: null, cell: [...here] };
      } else if (k >= this.maxTicks) {
        event = "running";
        this.result = { result: "running", tick: k, by: null, cell: [...here] };
      }
      const entry = this.line(event);
      this.trace.push(entry);
      return entry;
    }
  }

  mk.chase = { Chase, modeOf };
})(globalThis.mazekit ??= {});
