/* mazekit page, app.js: the page's state and controls. It reads the board from the page's
 * JSON block, keeps the drawing, the heads-up line, the tables and the live region in step
 * with the board and the run, sends the costly figures to a Web Worker, and exposes
 * `mazekit.app` and `window.mazekitTrace` for scripts and tests. */
"use strict";
(function (mk) {
  // The page as it came, before any script changed it: "Save page" writes it back.
  const PRISTINE = `<!DOCTYPE html>\n${document.documentElement.outerHTML}`;
  const { Board, ExitDistances, BY_LETTER, dump, distances, house } = mk.board;
  const { Chase } = mk.chase;
  const $ = (id) => document.getElementById(id);
  const cellText = (c) => (c ? `(${c[0]},${c[1]})` : "—");
  const LETTER_NAMES = { N: "north", E: "east", S: "south", W: "west" };
  /** "1 step", "2 steps": a count and its noun, as stats prints them. */
  const count = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

  const data = JSON.parse($("mazekit-board").textContent);
  // Python's constants (mazekit.chasers, mazekit.graph, mazekit.drawing): never written here.
  // The corners and scatter targets are the board's size's: `load` takes the new board's.
  let RULES = data.rules;
  const NAMES = RULES.chase.names;
  const DEFAULT_OPTIONS = {
    schedule: RULES.chase.schedule, mode: "schedule", passThrough: true, runner: "path", place: {},
    only: NAMES, ticks: RULES.chase.ticks, starts: RULES.chase.starts,
  };
  const state = {
    data,
    board: Board.fromData(data),
    toExit: null,
    palettes: data.palettes,
    theme: data.theme,
    patternColor: null,
    wallRotation: 0,
    showPath: data.showPath,
    showDeadEnds: data.deadEnds,
    showTargets: true,
    showTrails: true,
    showHeat: false,
    showPeak: true,
    options: DEFAULT_OPTIONS,
    figures: null,
    chase: null,
    trails: {},
    refused: null,
    timer: null,
    cursor: [0, 0],
    armed: null, // "open" or "close" after the o or c key: the next arrow says which wall
    focused: false,
    edited: false,
    geometry: null,
    fromEntry: null, // the array of the cells reachable from the entry when the exit is cut off
    request: 0,
    version: 0,
    tasks: new Map(),
    lastGraph: null,
    waiting: [],
    after: null, // what to say when the figures of an edit are ready
  };
  const painter = new mk.draw.Painter($("board"));
  // Cells above which an edit draws the wall in one frame and searches in the next.
  const SPLIT_CELLS = 250000;

  /** Say something in the live region; the newest message stays: an edit's figures that
   * come in after it are not said over it. */
  function announce(text) {
    state.after = null;
    $("status").textContent = text;
  }

  /** Run `then` when the page is idle (soon at the latest): work that no one waits for. */
  function idle(then) {
    if (window.requestIdleCallback) window.requestIdleCallback(then, { timeout: 500 });
    else setTimeout(then, 50);
  }

  /** Whether `path` walks from the entry to the exit through open walls. */
  function walksToExit(board, path) {
    let [x, y] = board.entry;
    for (const letter of path) {
      const d = BY_LETTER[letter];
      if (!d || !board.isOpen(x, y, d)) return false;
      x += d.dx;
      y += d.dy;
    }
    return x === board.exit[0] && y === board.exit[1];
  }

  // ---- figures: the searches here, the rest in the worker ---------------------------------

  let worker = startWorker();

  /** The figures worker, started from the text of the page's compute script; null when the
   * browser refuses (the figures are then computed here, after the drawing). */
  function startWorker() {
    try {
      const source = $("mazekit-compute").textContent;
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      const started = new Worker(url);
      started.onmessage = (event) => received(event.data);
      return started;
    } catch {
      return null;
    }
  }

  /** The board as the worker reads it. */
  function boardMessage(board) {
    return {
      width: board.width, height: board.height, walls: board.walls.slice(),
      pattern: board.patternCells(), entry: board.entry, exit: board.exit,
    };
  }

  /** Ask the worker for a task on the current board; `then` gets the answer unless the
   * board changed meanwhile. A worker still busy with an older board's task is stopped and
   * started anew: its answer would be dropped, and on a big board it could take seconds
   * that the new board's figures would wait for. */
  function ask(task, then) {
    if (worker && [...state.tasks.values()].some((old) => old.version !== state.version)) {
      worker.terminate();
      state.tasks.clear();
      worker = startWorker();
    }
    state.request += 1;
    const message = { id: state.request, task, board: boardMessage(state.board), rules: RULES.graph };
    state.tasks.set(message.id, { version: state.version, then });
    if (worker) {
      worker.postMessage(message);
    } else {
      setTimeout(() => received({ id: message.id, ...mk.figures.answer(message) }), 0);
    }
  }

  function received(answer) {
    const task = state.tasks.get(answer.id);
    state.tasks.delete(answer.id);
    if (task && task.version === state.version) task.then(answer); // else an older board's
  }

  /** The searches, at once: the path (down the distances to the exit kept through edits, or
   * while their update waits, a search guided by them), the cells reachable from the entry
   * (`reach`: >= 0 where reachable; the distances to the exit when the two are joined, the
   * side an edit cut off when it holds the entry, else a search from the entry); then the
   * worker's figures. */
  function computeFigures() {
    const board = state.board;
    const path = state.toExit.path(board.entry);
    let reach = state.toExit.reach, reachable = state.toExit.reached;
    const cut = path === null ? state.toExit.cutOff(state.fromEntry) : null;
    if (cut) {
      // this edit cut the entry's side off: its cells are the reach
      ({ reach, count: reachable } = cut);
      state.fromEntry = reach;
    } else if (path === null) {
      // a search from the entry, into the array of the last one (no figures of an older
      // board read it)
      reach = state.fromEntry = distances(board, board.entry[0], board.entry[1], state.fromEntry);
      reachable = 0;
      for (let i = 0; i < reach.length; i += 1) if (reach[i] >= 0) reachable += 1;
    }
    state.version += 1;
    state.figures = {
      reach, path, reachable, pending: true,
      deadEnds: null, loops: null, graph: null, cop: null, before: state.lastGraph,
    };
    // on a big board the worker starts when the page is idle, after the edit's drawing: on a
    // busy machine its million-cell figures would otherwise take the core that draws the new
    // path; a small board's take milliseconds, asked for as soon as the drawing is done
    const version = state.version;
    const soon = board.open.length <= SPLIT_CELLS ? (then) => setTimeout(then, 0) : idle;
    soon(() => state.version === version && ask("figures", (answer) => {
      Object.assign(state.figures, {
        deadEnds: answer.deadEnds, loops: answer.loops, graph: answer.graph, cop: answer.cop, pending: false,
      });
      const before = state.figures.before;
      state.lastGraph = answer.graph;
      updateTables();
      // paint again only what shows the worker's figures: a million cells' full paint would
      // otherwise follow every edit
      const ring = state.showPeak && (answer.graph || before);
      if (state.showHeat || state.showDeadEnds || ring || state.theme === "pacman") paint();
      if (state.after) {
        const say = state.after;
        state.after = null;
        announce(say());
      }
      const waiting = state.waiting;
      state.waiting = [];
      for (const resolve of waiting) resolve();
    }));
  }

  /** A promise resolved when the board's figures are in (at once when they are). */
  function ready() {
    if (!state.figures.pending) return Promise.resolve();
    return new Promise((resolve) => state.waiting.push(resolve));
  }

  /** The cop number as stats prints it: `1`, `2`, `3`, `2-3`, or `none`. */
  function copValue(cop) {
    if (cop === null) return "none";
    return cop.exact ? String(cop.value) : `${cop.low}-${cop.high}`;
  }

  /** The cop number as the table shows it: the figure, then the short reason. */
  function copText(cop) {
    return `${copValue(cop)} (${cop === null ? "no reachable cell" : cop.short})`;
  }

  /** The runner's path: the file's path line when it walks to the exit, else the canonical one. */
  function runnerPath() {
    const board = state.board;
    if (!state.edited && board.path && walksToExit(board, board.path)) return board.path;
    return state.figures.path ?? "";
  }

  function palette() {
    const base = { ...state.palettes[state.theme] };
    if (state.patternColor) base.pattern = state.patternColor;
    return base;
  }

  /** What the painter draws: the board, its figures and the run. */
  function view() {
    return {
      board: state.board, palette: palette(), isBoard: state.theme === "pacman", figures: state.figures,
      showPath: state.showPath, showDeadEnds: state.showDeadEnds, showTargets: state.showTargets,
      showTrails: state.showTrails, showHeat: state.showHeat, showPeak: state.showPeak,
      heatColors: RULES.draw.heat, inks: RULES.draw.inks, chase: state.chase, trails: state.trails,
      cursor: state.cursor, focused: state.focused, wallRotation: state.wallRotation,
    };
  }

  /** The geometry for the window as it is: the column's width, the room below the board's
   * place on the page (not on the screen: scrolling never resizes it). */
  function geometry() {
    const box = $("board-box");
    const top = box.getBoundingClientRect().top + window.scrollY;
    const tall = Math.max(200, window.innerHeight - top - 8);
    // a board too big for the window scrolls in its box, the page does not
    box.style.maxHeight = `${tall}px`;
    return mk.draw.layout(state.board, box.clientWidth, tall);
  }

  /** Paint everything again (a new board, theme, option or window size). */
  function paint() {
    const g = geometry(), ratio = window.devicePixelRatio || 1;
    painter.resize(g, ratio);
    state.geometry = g;
    painter.full(view());
  }

  function row(cells) {
    const tr = document.createElement("tr");
    cells.forEach(([text, header], k) => {
      const td = document.createElement(k === 0 || header ? "th" : "td");
      if (k === 0) td.scope = "row";
      td.textContent = text;
      tr.append(td);
    });
    return tr;
  }

  function percent(share) {
    return `${(100 * share).toFixed(2)}%`;
  }

  /** The result row: chase's text line, or "running" while the run goes on. */
  function resultLine(result) {
    if (!result) return "running";
    return ({ caught: `caught by ${result.by} at tick ${result.tick} at ${cellText(result.cell)}`,
      escaped: `escaped at tick ${result.tick}`,
      running: `still running after ${count(result.tick, "tick")}` })[result.result];
  }

  function resultOf() {
    return state.refused ? `no chase: ${state.refused}` : resultLine(state.chase.result);
  }

  /** The heads-up line over the board: tick, mode and result. */
  function updateHud() {
    const run = state.chase;
    $("hud").textContent = `tick ${run.tick} · ${(run.mode ?? "—").toUpperCase()} · ${resultOf()}`;
  }

  /** The two tables and the drawing's text alternative, from the current state. */
  function updateTables() {
    const run = state.chase, board = state.board, f = state.figures;
    const mode = run.mode ?? "—";
    const actors = [row([["runner"], [cellText(run.runner.cell)], [run.runner.facing ?? "—"], ["—"], [mode]])];
    for (const c of run.chasers) {
      actors.push(row([[c.name], [cellText(c.cell)], [c.heading ?? "—"], [cellText(c.target)], [mode]]));
    }
    $("actors").tBodies[0].replaceChildren(...actors);
    const result = resultOf();
    const g = f.graph, wait = "computing…";
    const limit = RULES.graph.exactLimit;
    const figures = [
      ["shortest path", f.path === null ? "none (the exit cannot be reached)" : count(f.path.length, "step")],
      ["betweenness peak", f.pending ? wait : g ? `${percent(g.peak)} at ${cellText(g.peakCell)}` : `— (over ${limit} cells)`],
      ["betweenness Gini", f.pending ? wait : g ? g.gini.toFixed(4) : "—"],
      ["cop number", f.pending ? wait : copText(f.cop)],
      ["size", `${board.width}x${board.height}`],
      ["reachable cells", String(f.reachable)],
      ["dead ends", f.pending ? wait : `${f.deadEnds.real.length} real, ${f.deadEnds.enclosed.length} enclosed`],
      ["loops", f.pending ? wait : String(f.loops)],
      ["tick", String(run.tick)],
      ["result", result],
    ];
    const rows = figures.map(([k, v]) => row([[k], [v]]));
    $("figures").tBodies[0].replaceChildren(...rows);
    // the cells a tick changes, found once here rather than every tick
    const at = (key) => rows[figures.findIndex(([k]) => k === key)].cells[1];
    state.runCells = { tick: at("tick"), result: at("result") };
    $("figures").setAttribute("aria-busy", String(f.pending));
    $("computing").hidden = !f.pending;
    updateHud();
    const where = run.chasers.map((c) => `${c.name} at ${cellText(c.cell)}`).join(", ");
    const text = `A ${board.width} by ${board.height} maze, entry ${cellText(board.entry)}, exit ${cellText(board.exit)}, `
      + `shortest path ${f.path === null ? "none" : count(f.path.length, "step")}. Tick ${run.tick}: runner at ${cellText(run.runner.cell)}`
      + `${where ? `, ${where}` : ""}; ${result}.`;
    $("board-text").textContent = text;
    $("board").setAttribute("aria-label", `The maze, ${board.width}x${board.height}`);
  }

  /** The cheap part of a tick: the tick row, the heads-up line and the actors' cells. */
  function updateRun() {
    const cells = state.runCells;
    cells.tick.textContent = String(state.chase.tick);
    const result = resultOf();
    if (cells.result.textContent !== result) cells.result.textContent = result;
    updateHud();
    const run = state.chase, mode = run.mode ?? "—";
    const body = $("actors").tBodies[0].rows;
    const actors = [[cellText(run.runner.cell), run.runner.facing ?? "—", "—"],
      ...run.chasers.map((c) => [cellText(c.cell), c.heading ?? "—", cellText(c.target)])];
    actors.forEach((values, k) => {
      if (!body[k]) return;
      [...values, mode].forEach((text, j) => {
        if (body[k].cells[j + 1].textContent !== text) body[k].cells[j + 1].textContent = text;
      });
    });
  }

  function stop() {
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
    $("play").textContent = "Play";
    $("play").setAttribute("aria-pressed", "false");
  }

  /** Every chaser's start: the house (all four on one cell) or the corners (Python's
   * mazekit.chasers.starts, from the JSON), then the cells placed by hand. */
  function places() {
    const board = state.board;
    let base;
    if (state.options.starts === "corners") {
      base = RULES.chase.corners;
    } else {
      const home = house(board, state.figures.reach);
      base = Object.fromEntries(NAMES.map((n) => [n, home]));
    }
    return { ...base, ...state.options.place };
  }

  /** Why `mazekit chase` refuses this board with these options, in its words; null when it
   * runs. The chasers then stand at their starts, and the trace stays empty as chase's
   * output does. */
  function refusal(starts) {
    const board = state.board, f = state.figures;
    if (board.entry[0] === board.exit[0] && board.entry[1] === board.exit[1]) {
      return `entry and exit are the same cell ${cellText(board.entry)}: the runner has nowhere to go`;
    }
    if (f.path === null) return `exit ${cellText(board.exit)} is not reachable from entry ${cellText(board.entry)}`;
    for (const name of NAMES.filter((n) => state.options.only.includes(n))) {
      if (!starts[name]) return "the chasers have no house: no cell but the entry and the exit can be reached";
      const [x, y] = starts[name];
      if (!board.contains(x, y)) return `${name}'s start ${cellText([x, y])} is outside the ${board.width}x${board.height} grid`;
      if (f.reach[y * board.width + x] < 0) {
        return `${name} cannot reach the runner: no open way leads from its start ${cellText([x, y])} `
          + `to the entry ${cellText(board.entry)}`;
      }
    }
    return null;
  }

  /** Each chaser's last N cells (the trail length of the JSON), oldest first. */
  function remember() {
    const keep = RULES.chase.trail;
    for (const c of state.chase.chasers) {
      const trail = state.trails[c.name] ?? (state.trails[c.name] = []);
      const last = trail[trail.length - 1];
      if (!last || last[0] !== c.cell[0] || last[1] !== c.cell[1]) trail.push([...c.cell]);
      while (trail.length > keep) trail.shift();
    }
  }

  /** A new run from tick 0 with the current options. */
  function reset() {
    stop();
    const starts = places();
    state.refused = refusal(starts);
    const safe = Object.fromEntries(NAMES.map((n) => [n, starts[n] ?? state.board.entry]));
    state.chase = new Chase(state.board, runnerPath(), { ...state.options, names: NAMES, places: safe, scatter: RULES.chase.scatter });
    state.trails = {};
    window.mazekitTrace = state.refused ? [] : state.chase.trace;
    for (const name of NAMES) {
      const field = $(`place-${name}`);
      if (field) field.placeholder = safe[name].join(",");
    }
    updateTables();
    paint();
  }

  function resultText(result) {
    if (result.result === "caught") return `Caught by ${result.by} at tick ${result.tick} at ${cellText(result.cell)}.`;
    if (result.result === "escaped") return `Escaped at tick ${result.tick}.`;
    return `Still running after ${count(result.tick, "tick")}.`;
  }

  /** Play up to n ticks; returns the trace lines they made (none when chase refuses the board). */
  function step(n = 1) {
    if (state.refused) {
      announce(`No chase: ${state.refused}.`);
      return [];
    }
    const lines = [];
    for (let k = 0; k < n && !state.chase.done; k += 1) {
      lines.push(state.chase.step());
      remember();
    }
    if (state.chase.done) {
      stop();
      announce(resultText(state.chase.result));
    }
    updateRun();
    painter.tick(view());
    return lines;
  }

  /** The Step button and the "." key: pause, play one tick, and say where the runner is. */
  function stepOnce() {
    stop();
    const [line] = step(1);
    if (line && !state.chase.done) announce(`Tick ${line.tick}, ${line.mode}: runner at ${cellText([line.runner.x, line.runner.y])}.`);
  }

  function tickLoop() {
    step(1);
    if (!state.chase.done && state.timer !== null) {
      state.timer = setTimeout(tickLoop, 1000 / Number($("speed").value));
    }
  }

  function play() {
    if (state.timer !== null) {
      stop();
      announce(`Paused at tick ${state.chase.tick}.`);
      return;
    }
    if (state.refused) {
      announce(`No chase: ${state.refused}.`);
      return;
    }
    if (state.chase.done) reset();
    $("play").textContent = "Pause";
    $("play").setAttribute("aria-pressed", "true");
    announce("Playing.");
    state.timer = setTimeout(tickLoop, 0);
  }

  /** How the peak and Gini moved from `before` to `after` (the live region's words). */
  function change(before, after) {
    if (!after) return "";
    if (!before) return `, betweenness peak ${percent(after.peak)} at ${cellText(after.peakCell)}, Gini ${after.gini.toFixed(4)}`;
    const peak = percent(before.peak) === percent(after.peak)
      ? `betweenness peak unchanged at ${percent(after.peak)}`
      : `betweenness peak ${percent(before.peak)} → ${percent(after.peak)}`;
    const g0 = before.gini.toFixed(4), g1 = after.gini.toFixed(4);
    return `, ${peak} at ${cellText(after.peakCell)}, Gini ${g0 === g1 ? `unchanged at ${g1}` : `${g0} → ${g1}`}`;
  }

  /** Set the wall of (x, y) towards letter on both sides (the board changed: figures, path,
   * a new run). `verb`: how the live region names it. */
  function applyWall(x, y, letter, closed, verb) {
    const board = state.board, d = BY_LETTER[letter];
    state.toExit.settle(); // the last edit's waiting update reads the walls before this one
    board.setWall(x, y, d, closed);
    state.edited = true;
    stop();
    // the base changes only around the wall: the two cells and their neighbours
    const nx = x + d.dx, ny = y + d.dy;
    const r = {
      x0: Math.max(0, Math.min(x, nx) - 1), y0: Math.max(0, Math.min(y, ny) - 1),
      x1: Math.min(board.width, Math.max(x, nx) + 2), y1: Math.min(board.height, Math.max(y, ny) + 2),
    };
    const rest = () => {
      const a = y * board.width + x, b = a + d.dy * board.width + d.dx;
      if (closed) state.toExit.closedLater(a, b);
      else state.toExit.opened(a, b);
      computeFigures();
      board.path = state.figures.path ?? "";
      const starts = places();
      state.refused = refusal(starts);
      const safe = Object.fromEntries(NAMES.map((n) => [n, starts[n] ?? board.entry]));
      state.chase = new Chase(board, runnerPath(), { ...state.options, names: NAMES, places: safe, scatter: RULES.chase.scatter });
      state.trails = {};
      window.mazekitTrace = state.refused ? [] : state.chase.trace;
      updateTables();
      painter.edit(view(), r);
      const f = state.figures;
      const head = `${verb} the ${LETTER_NAMES[letter]} wall of ${cellText([x, y])}: `
        + `shortest path ${f.path === null ? "none, the exit is cut off" : count(f.path.length, "step")}`;
      announce(`${head}; measuring the board…`);
      state.after = () => `${head}, ${count(f.deadEnds.real.length, "real dead end")}, ${count(f.loops, "loop")}, `
        + `cop number ${copValue(f.cop)}${change(f.before, f.graph)}.`;
      if (state.toExit.pending) idle(() => state.toExit.settle());
    };
    if (board.open.length <= SPLIT_CELLS) {
      rest();
      return;
    }
    // a big board: the wall now, in this frame; the searches and the path in the next
    state.version += 1; // what the worker says of the board before is old news
    state.figures.pending = true;
    painter.wall(view(), r);
    setTimeout(rest, 0);
  }

  /** Open or close the wall of (x, y) towards letter, both sides; false when refused. */
  function toggleWall(x, y, letter) {
    const board = state.board, d = BY_LETTER[letter];
    if (!board.contains(x, y) || !board.contains(x + d.dx, y + d.dy)) {
      announce(`The ${LETTER_NAMES[letter]} wall of ${cellText([x, y])} is the border: it stays closed.`);
      return false;
    }
    if (!board.canEdit(x, y, d)) {
      announce(`The ${LETTER_NAMES[letter]} wall of ${cellText([x, y])} belongs to the "42": it stays closed.`);
      return false;
    }
    const open = board.isOpen(x, y, d);
    applyWall(x, y, letter, open, open ? "Closed" : "Opened");
    return true;
  }

  /** Open (or with `close`, close) the wall of (x, y) towards letter; a wall already so
   * is said, and nothing changes. */
  function setWall(x, y, letter, close) {
    const board = state.board, d = BY_LETTER[letter];
    const inside = board.contains(x, y) && board.contains(x + d.dx, y + d.dy);
    if (inside && board.isOpen(x, y, d) !== close) {
      announce(`The ${LETTER_NAMES[letter]} wall of ${cellText([x, y])} is already ${close ? "closed" : "open"}: nothing changed.`);
      return false;
    }
    return toggleWall(x, y, letter);
  }

  const openWall = (x, y, letter) => setWall(x, y, letter, false);
  const closeWall = (x, y, letter) => setWall(x, y, letter, true);

  /** Close the busiest closable passage (edit --close-bottleneck 1; on a Pac-Man board one
   * that keeps it one), computed in the worker. */
  function closeBusiest() {
    return new Promise((resolve) => {
      announce("Looking for the busiest passage…");
      ask("busiest", (answer) => {
        const found = answer.busiest;
        if (found.none) {
          announce(found.board
            ? "No passage can be closed leaving a Pac-Man board."
            : "No passage can be closed without cutting the maze in two.");
          resolve(false);
          return;
        }
        const x = found.cell % state.board.width, y = Math.floor(found.cell / state.board.width);
        const verb = found.board ? "Closed the busiest passage that leaves a Pac-Man board," : "Closed the busiest passage,";
        applyWall(x, y, found.letter, true, verb);
        resolve(true);
      });
    });
  }

  /** Relieve: close the passage whose closing lowers the betweenness peak the most (on a
   * Pac-Man board, of those that keep it one: edit --relieve 1). */
  function relieve() {
    return new Promise((resolve) => {
      announce("Measuring the closures that could relieve the peak…");
      ask("relieve", (answer) => {
        const found = answer.relieve;
        if (found.none !== undefined) {
          const which = found.board ? "closure that leaves a Pac-Man board" : "closure";
          announce(`Relieve: no single ${which} lowers the peak below ${percent(found.none)}.`);
          resolve(false);
          return;
        }
        const x = found.cell % state.board.width, y = Math.floor(found.cell / state.board.width);
        applyWall(x, y, found.letter, true, found.board ? "Relieved (still a Pac-Man board): closed" : "Relieved: closed");
        resolve(true);
      });
    });
  }

  function saveFile(name, text, type) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type }));
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  /** The edited maze as a maze file, its path line re-solved (empty when the exit is cut off). */
  function mazeText() {
    return dump(state.board, state.figures.path ?? "");
  }

  /** This page with the edited board and the current display settings in its JSON block. */
  function pageText() {
    const board = state.board;
    const json = JSON.stringify(board.toData({
      path: state.figures.path ?? "", theme: state.theme, showPath: state.showPath,
      deadEnds: state.showDeadEnds, rules: RULES,
      palettes: Object.fromEntries(Object.entries(state.palettes).map(([name, colors]) => [
        name, state.patternColor ? { ...colors, pattern: state.patternColor } : colors])),
    })).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
    const open = '<script type="application/json" id="mazekit-board">';
    const start = PRISTINE.indexOf(open) + open.length;
    const end = PRISTINE.indexOf("<" + "/script>", start);
    return PRISTINE.slice(0, start) + json + PRISTINE.slice(end);
  }

  function parseCell(text) {
    const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(text);
    return m ? [Number(m[1]), Number(m[2])] : null;
  }

  /** What is wrong with a start field's text (null: right, or empty). */
  function startError(name) {
    const text = $(`place-${name}`).value.trim();
    if (!text) return null;
    const cell = parseCell(text);
    if (!cell) return `The start of ${name} is a cell x,y, e.g. 3,4.`;
    const board = state.board;
    if (!board.contains(cell[0], cell[1])) return `${name}'s start ${cellText(cell)} is outside the ${board.width}x${board.height} grid.`;
    return null;
  }

  /** Mark each start field wrong or right as it is typed; a corrected one clears its error. */
  function checkStarts() {
    let first = null;
    for (const name of NAMES) {
      const why = startError(name);
      $(`place-${name}`).setAttribute("aria-invalid", String(why !== null));
      first ??= why;
    }
    if (first) announce(first);
    else if ($("status").dataset.start === "1") announce("");
    $("status").dataset.start = first ? "1" : "0";
    return first === null;
  }

  /** Read the chase options from the controls; false (and a message) when one is wrong. */
  function readOptions() {
    const parts = $("schedule").value.split(",").map((s) => s.trim());
    const schedule = parts.map(Number);
    const good = parts.length > 0 && parts.every((s) => /^\d+$/.test(s)) && schedule.every((n) => n > 0);
    $("schedule").setAttribute("aria-invalid", String(!good));
    if (!good) {
      announce(`The schedule is a comma list of tick counts above 0, e.g. ${RULES.chase.schedule.join(",")}.`);
      return false;
    }
    const ticks = Number($("ticks").value);
    const goodTicks = /^\d+$/.test($("ticks").value.trim());
    $("ticks").setAttribute("aria-invalid", String(!goodTicks));
    if (!goodTicks) {
      announce("The tick limit is a whole number, 0 or more.");
      return false;
    }
    if (!checkStarts()) return false;
    const place = {}, only = [];
    for (const name of NAMES) {
      if ($(`only-${name}`).checked) only.push(name);
      const text = $(`place-${name}`).value.trim();
      if (text) place[name] = parseCell(text);
    }
    state.options = {
      schedule, mode: $("mode").value, passThrough: $("pass-through").checked,
      runner: $("runner").value, place, only, ticks, starts: $("starts").value,
    };
    return true;
  }

  /** Set the chase options (the keys of `mazekit chase`'s options, the others at their
   * defaults) and start a new run. */
  function configure(options) {
    const o = { ...DEFAULT_OPTIONS, ...options };
    $("schedule").value = o.schedule.join(",");
    $("mode").value = o.mode;
    $("pass-through").checked = o.passThrough;
    $("runner").value = o.runner;
    $("starts").value = o.starts;
    for (const name of NAMES) {
      $(`only-${name}`).checked = o.only.includes(name);
      $(`place-${name}`).value = o.place && o.place[name] ? o.place[name].join(",") : "";
    }
    $("ticks").value = String(o.ticks);
    readOptions();
    reset();
  }

  /** Replace the board by another page JSON block (as `board_data` makes it). */
  function load(boardData) {
    RULES = boardData.rules;
    state.board = Board.fromData(boardData);
    state.toExit = new ExitDistances(state.board);
    state.edited = false;
    state.cursor = [0, 0];
    state.lastGraph = null;
    computeFigures();
    reset();
  }

  function buildControls() {
    const themes = $("theme");
    for (const name of Object.keys(state.palettes)) themes.append(new Option(name, name, false, name === state.theme));
    const starts = $("starts");
    for (const rule of RULES.chase.startRules) starts.append(new Option(rule, rule, false, rule === RULES.chase.starts));
    const box = $("chaser-options");
    for (const name of NAMES) {
      const label = document.createElement("label");
      const check = document.createElement("input");
      check.type = "checkbox";
      check.id = `only-${name}`;
      check.checked = true;
      const place = document.createElement("input");
      place.type = "text";
      place.id = `place-${name}`;
      place.setAttribute("aria-label", `${name} start cell x,y`);
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = state.palettes[state.theme][RULES.draw.inks[name]];
      const role = document.createElement("span");
      role.className = "role";
      role.textContent = RULES.chase.roles[name];
      label.append(check, swatch, ` ${name} `, role, " ", place);
      box.append(label);
    }
    $("schedule").value = DEFAULT_OPTIONS.schedule.join(",");
    $("ticks").value = String(DEFAULT_OPTIONS.ticks);
    $("pattern-color").value = state.palettes[state.theme].pattern;
  }

  function onKey(event) {
    const letter = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" }[event.key];
    const armed = state.armed;
    state.armed = null;
    if (letter) {
      event.preventDefault();
      const [x, y] = state.cursor, d = BY_LETTER[letter];
      if (armed) {
        setWall(x, y, letter, armed === "close");
      } else if (event.shiftKey) {
        toggleWall(x, y, letter);
      } else if (state.board.contains(x + d.dx, y + d.dy)) {
        state.cursor = [x + d.dx, y + d.dy];
        announce(`Cursor at ${cellText(state.cursor)}.`);
      }
      painter.tick(view());
    } else if (event.key === " ") {
      event.preventDefault();
      play();
    } else if (event.key === ".") {
      stepOnce();
    } else if (event.key === "o" || event.key === "c") {
      state.armed = event.key === "o" ? "open" : "close";
      announce(`${state.armed === "open" ? "Open" : "Close"} which wall of ${cellText(state.cursor)}? Press an arrow.`);
    }
  }

  /** A checkbox that sets one display flag and repaints. */
  function toggle(id, key) {
    $(id).checked = state[key];
    $(id).addEventListener("change", () => {
      state[key] = $(id).checked;
      paint();
    });
  }

  function wire() {
    const canvas = $("board");
    $("play").addEventListener("click", play);
    $("step").addEventListener("click", stepOnce);
    $("reset").addEventListener("click", () => {
      reset();
      announce("Reset to tick 0.");
    });
    $("busiest").addEventListener("click", closeBusiest);
    $("relieve").addEventListener("click", relieve);
    $("speed").addEventListener("input", () => {
      $("speed-value").textContent = $("speed").value;
    });
    for (const id of ["mode", "schedule", "ticks", "runner", "pass-through", "starts"]) {
      $(id).addEventListener("change", () => readOptions() && reset());
    }
    $("chaser-options").addEventListener("input", checkStarts);
    $("chaser-options").addEventListener("change", () => readOptions() && reset());
    toggle("targets", "showTargets");
    toggle("trails", "showTrails");
    toggle("show-path", "showPath");
    toggle("peak", "showPeak");
    toggle("heat", "showHeat");
    toggle("dead-ends", "showDeadEnds");
    $("theme").addEventListener("change", () => {
      state.theme = $("theme").value;
      $("pattern-color").value = palette().pattern;
      paint();
    });
    $("pattern-color").addEventListener("input", () => {
      state.patternColor = $("pattern-color").value;
      paint();
    });
    $("rotate").addEventListener("click", () => {
      state.wallRotation = (state.wallRotation + 1) % (mk.draw.WALL_ROTATION.length + 1);
      announce(state.wallRotation ? `Wall colour ${mk.draw.WALL_ROTATION[state.wallRotation - 1]}.` : "Wall colour of the theme.");
      paint();
    });
    $("download").addEventListener("click", () => {
      saveFile("maze.txt", mazeText(), "text/plain");
      announce("Maze file saved as maze.txt.");
    });
    $("save").addEventListener("click", () => {
      saveFile("board.html", pageText(), "text/html");
      announce("Page saved as board.html.");
    });
    canvas.addEventListener("click", (event) => {
      const rect = canvas.getBoundingClientRect();
      const found = mk.draw.hit(state.board, state.geometry, event.clientX - rect.left, event.clientY - rect.top);
      if (found) {
        state.cursor = [found.x, found.y];
        toggleWall(found.x, found.y, found.d.letter);
      }
    });
    canvas.addEventListener("keydown", onKey);
    canvas.addEventListener("focus", () => {
      state.focused = true;
      painter.tick(view());
    });
    canvas.addEventListener("blur", () => {
      state.focused = false;
      painter.tick(view());
    });
    window.addEventListener("resize", paint);
  }

  /** The cop number as `stats --graph --format json` writes its `cop_number`. */
  function copJson(cop) {
    if (cop === null) return null;
    const { value, low, high, exact, reason } = cop;
    return { value, low, high, exact, reason };
  }

  buildControls();
  state.toExit = new ExitDistances(state.board);
  computeFigures();
  wire();
  reset();

  mk.app = {
    state, configure, reset, step, play, stop, load, toggleWall, openWall, closeWall, closeBusiest, relieve,
    mazeText, pageText, ready, places,
    figures: () => {
      const f = state.figures;
      return {
        path: f.path, reachable: f.reachable, loops: f.loops,
        realDeadEnds: f.deadEnds && f.deadEnds.real.length, enclosedDeadEnds: f.deadEnds && f.deadEnds.enclosed.length,
        deadEnds: f.deadEnds && f.deadEnds.real.map((i) => [i % state.board.width, Math.floor(i / state.board.width)]),
        enclosed: f.deadEnds && f.deadEnds.enclosed.map((i) => [i % state.board.width, Math.floor(i / state.board.width)]),
        peak: f.graph && f.graph.peak, peakCell: f.graph && f.graph.peakCell, gini: f.graph && f.graph.gini,
        betweenness: f.graph && f.graph.nodes.map((i, v) => [i % state.board.width, Math.floor(i / state.board.width), f.graph.values[v]]),
        cop: f.cop === undefined || f.pending ? undefined : copJson(f.cop),
        house: house(state.board, f.reach),
      };
    },
    loadedAt: performance.now(),
  };
})(globalThis.mazekit ??= {});
