/* mazekit page, app.js: the page's state and controls. It reads the board from the page's
 * JSON block, keeps the drawing, the tables and the live region in step with the board and
 * the run, and exposes `mazekit.app` and `window.mazekitTrace` for scripts and tests. */
"use strict";
(function (mk) {
  // The page as it came, before any script changed it: "Save page" writes it back.
  const PRISTINE = `<!DOCTYPE html>\n${document.documentElement.outerHTML}`;
  const { Board, BY_LETTER, dump, distances, shortestPath, deadEnds, loops } = mk.board;
  const { Chase, NAMES, DEFAULT_SCHEDULE, DEFAULT_TICKS } = mk.chase;
  const $ = (id) => document.getElementById(id);
  const cellText = (c) => (c ? `(${c[0]},${c[1]})` : "—");
  const LETTER_NAMES = { N: "north", E: "east", S: "south", W: "west" };
  /** "1 step", "2 steps": a count and its noun, as stats prints them. */
  const count = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

  const DEFAULT_OPTIONS = {
    schedule: DEFAULT_SCHEDULE, mode: "schedule", passThrough: true, runner: "path", place: {}, only: NAMES, ticks: DEFAULT_TICKS,
  };
  const data = JSON.parse($("mazekit-board").textContent);
  const state = {
    data,
    board: Board.fromData(data),
    palettes: data.palettes,
    theme: data.theme,
    patternColor: null,
    wallRotation: 0,
    showPath: data.showPath,
    showDeadEnds: data.deadEnds,
    showTargets: true,
    showPeak: true,
    options: DEFAULT_OPTIONS,
    figures: null,
    chase: null,
    refused: null,
    timer: null,
    cursor: [0, 0],
    focused: false,
    edited: false,
  };

  function announce(text) {
    $("status").textContent = text;
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

  /** Recompute the board's figures: reach, shortest path, dead ends, loops, betweenness,
   * cop number. */
  function computeFigures() {
    const board = state.board;
    const reach = distances(board, board.entry[0], board.entry[1]);
    const path = shortestPath(board, board.entry, board.exit);
    const graph = board.width * board.height <= mk.graph.EXACT_LIMIT ? mk.graph.measures(board, reach) : null;
    state.figures = {
      reach, path,
      reachable: reach.reduce((n, d) => n + (d >= 0 ? 1 : 0), 0),
      deadEnds: deadEnds(board, reach),
      loops: loops(board),
      graph,
      cop: mk.cops.copNumber(board, reach),
    };
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

  function paint() {
    const canvas = $("board");
    const box = canvas.parentElement.clientWidth;
    // the room below the board's place on the page, not on the screen: scrolling the page
    // (to the tables, while it plays) must not resize the board
    const top = canvas.getBoundingClientRect().top + window.scrollY;
    const tall = Math.max(200, window.innerHeight - top - 16);
    const g = mk.draw.layout(state.board, box, tall, state.showTargets);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(g.width * ratio);
    canvas.height = Math.round(g.height * ratio);
    canvas.style.width = `${g.width}px`;
    canvas.style.height = `${g.height}px`;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    state.geometry = g;
    mk.draw.paint(ctx, g, {
      board: state.board, palette: palette(), isBoard: state.theme === "pacman",
      figures: state.figures, showPath: state.showPath, showDeadEnds: state.showDeadEnds,
      showTargets: state.showTargets, showPeak: state.showPeak, chase: state.chase, cursor: state.cursor,
      focused: state.focused, wallRotation: state.wallRotation,
    });
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

  /** The two tables and the drawing's text alternative, from the current state. */
  function updateTables() {
    const run = state.chase, board = state.board, f = state.figures;
    const mode = run.mode ?? "—";
    const actors = [row([["runner"], [cellText(run.runner.cell)], [run.runner.facing ?? "—"], ["—"], [mode]])];
    for (const c of run.chasers) {
      actors.push(row([[c.name], [cellText(c.cell)], [c.heading ?? "—"], [cellText(c.target)], [mode]]));
    }
    $("actors").tBodies[0].replaceChildren(...actors);
    const result = state.refused ? `no chase: ${state.refused}` : resultLine(run.result);
    const g = f.graph;
    const figures = [
      ["size", `${board.width}x${board.height}`],
      ["reachable cells", String(f.reachable)],
      ["shortest path", f.path === null ? "none (the exit cannot be reached)" : count(f.path.length, "step")],
      ["dead ends", `${f.deadEnds.real.length} real, ${f.deadEnds.enclosed.length} enclosed`],
      ["loops", String(f.loops)],
      ["betweenness peak", g ? `${percent(g.peak)} at ${cellText(g.peakCell)}` : "— (over 60x60)"],
      ["betweenness Gini", g ? g.gini.toFixed(4) : "—"],
      ["cop number", copText(f.cop)],
      ["tick", String(run.tick)],
      ["result", result],
    ];
    $("figures").tBodies[0].replaceChildren(...figures.map(([k, v]) => row([[k], [v]])));
    const where = run.chasers.map((c) => `${c.name} at ${cellText(c.cell)}`).join(", ");
    const text = `A ${board.width} by ${board.height} maze, entry ${cellText(board.entry)}, exit ${cellText(board.exit)}, `
      + `shortest path ${f.path === null ? "none" : count(f.path.length, "step")}. Tick ${run.tick}: runner at ${cellText(run.runner.cell)}`
      + `${where ? `, ${where}` : ""}; ${result}.`;
    $("board-text").textContent = text;
    $("board").setAttribute("aria-label", `The maze, ${board.width}x${board.height}`);
  }

  function render() {
    updateTables();
    paint();
  }

  function stop() {
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
    $("play").textContent = "Play";
    $("play").setAttribute("aria-pressed", "false");
  }

  /** Why `mazekit chase` refuses this board with these options, in its words; null when it
   * runs. The chasers then stand at their starts, and the trace stays empty as chase's
   * output does. */
  function refusal() {
    const board = state.board, f = state.figures;
    if (board.entry[0] === board.exit[0] && board.entry[1] === board.exit[1]) {
      return `entry and exit are the same cell ${cellText(board.entry)}: the runner has nowhere to go`;
    }
    if (f.path === null) return `exit ${cellText(board.exit)} is not reachable from entry ${cellText(board.entry)}`;
    const places = { ...mk.chase.starts(board.width, board.height), ...state.options.place };
    for (const name of NAMES.filter((n) => state.options.only.includes(n))) {
      const [x, y] = places[name];
      if (!board.contains(x, y)) return `${name}'s start ${cellText([x, y])} is outside the ${board.width}x${board.height} grid`;
      if (f.reach[y * board.width + x] < 0) {
        return `${name} cannot reach the runner: no open way leads from its start ${cellText([x, y])} `
          + `to the entry ${cellText(board.entry)}`;
      }
    }
    return null;
  }

  /** A new run from tick 0 with the current options. */
  function reset() {
    stop();
    state.refused = refusal();
    state.chase = new Chase(state.board, runnerPath(), state.options);
    window.mazekitTrace = state.refused ? [] : state.chase.trace;
    render();
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
    for (let k = 0; k < n && !state.chase.done; k += 1) lines.push(state.chase.step());
    if (state.chase.done) {
      stop();
      announce(resultText(state.chase.result));
    }
    render();
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
    const closed = board.setWall(x, y, d, board.isOpen(x, y, d));
    state.edited = true;
    computeFigures();
    board.path = state.figures.path ?? "";
    reset();
    const f = state.figures;
    announce(`${closed ? "Closed" : "Opened"} the ${LETTER_NAMES[letter]} wall of ${cellText([x, y])}: `
      + `shortest path ${f.path === null ? "none, the exit is cut off" : count(f.path.length, "step")}, `
      + `${count(f.deadEnds.real.length, "real dead end")}, ${count(f.loops, "loop")}, `
      + `cop number ${copValue(f.cop)}.`);
    return true;
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
      deadEnds: state.showDeadEnds,
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

  /** Read the chase options from the controls; false (and a message) when one is wrong. */
  function readOptions() {
    const parts = $("schedule").value.split(",").map((s) => s.trim());
    const schedule = parts.map(Number);
    const good = parts.length > 0 && parts.every((s) => /^\d+$/.test(s)) && schedule.every((n) => n > 0);
    $("schedule").setAttribute("aria-invalid", String(!good));
    if (!good) {
      announce("The schedule is a comma list of tick counts above 0, e.g. 56,160,56,160.");
      return false;
    }
    const ticks = Number($("ticks").value);
    const goodTicks = /^\d+$/.test($("ticks").value.trim());
    $("ticks").setAttribute("aria-invalid", String(!goodTicks));
    if (!goodTicks) {
      announce("The tick limit is a whole number, 0 or more.");
      return false;
    }
    const place = {}, only = [];
    for (const name of NAMES) {
      if ($(`only-${name}`).checked) only.push(name);
      const text = $(`place-${name}`).value.trim();
      if (!text) continue;
      const cell = parseCell(text);
      if (!cell || !state.board.contains(cell[0], cell[1])) {
        announce(`The start of ${name} must be a cell x,y of the grid.`);
        return false;
      }
      place[name] = cell;
    }
    state.options = {
      schedule, mode: $("mode").value, passThrough: $("pass-through").checked,
      runner: $("runner").value, place, only, ticks,
    };
    return true;
  }

  /** Set the chase options (the keys of `mazekit chase`'s options, the others at their
   * defaults) and start a new run. */
  function configure(options) {
    const o = { ...DEFAULT_OPTIONS, ...options };
    $("schedule").value = (o.schedule ?? DEFAULT_SCHEDULE).join(",");
    $("mode").value = o.mode ?? "schedule";
    $("pass-through").checked = o.passThrough ?? true;
    $("runner").value = o.runner ?? "path";
    for (const name of NAMES) {
      $(`only-${name}`).checked = (o.only ?? NAMES).includes(name);
      $(`place-${name}`).value = o.place && o.place[name] ? o.place[name].join(",") : "";
    }
    $("ticks").value = String(o.ticks ?? DEFAULT_TICKS);
    readOptions();
    reset();
  }

  /** Replace the board by another page JSON block (as `board_data` makes it). */
  function load(boardData) {
    state.board = Board.fromData(boardData);
    state.edited = false;
    state.cursor = [0, 0];
    computeFigures();
    reset();
  }

  function buildControls() {
    const themes = $("theme");
    for (const name of Object.keys(state.palettes)) themes.append(new Option(name, name, false, name === state.theme));
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
      place.placeholder = mk.chase.starts(state.board.width, state.board.height)[name].join(",");
      place.setAttribute("aria-label", `${name} start cell x,y`);
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = state.palettes[state.theme][mk.draw.CHASER_INKS[name]];
      label.append(check, swatch, ` ${name} `, place);
      box.append(label);
    }
    $("show-path").checked = state.showPath;
    $("dead-ends").checked = state.showDeadEnds;
    $("pattern-color").value = state.palettes[state.theme].pattern;
  }

  function onKey(event) {
    const letter = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" }[event.key];
    if (letter) {
      event.preventDefault();
      const [x, y] = state.cursor, d = BY_LETTER[letter];
      if (event.shiftKey) {
        toggleWall(x, y, letter);
      } else if (state.board.contains(x + d.dx, y + d.dy)) {
        state.cursor = [x + d.dx, y + d.dy];
        announce(`Cursor at ${cellText(state.cursor)}.`);
      }
      paint();
    } else if (event.key === " ") {
      event.preventDefault();
      play();
    } else if (event.key === ".") {
      stepOnce();
    }
  }

  function wire() {
    const canvas = $("board");
    $("play").addEventListener("click", play);
    $("step").addEventListener("click", stepOnce);
    $("reset").addEventListener("click", () => {
      reset();
      announce("Reset to tick 0.");
    });
    $("speed").addEventListener("input", () => {
      $("speed-value").textContent = $("speed").value;
    });
    for (const id of ["mode", "schedule", "ticks", "runner", "pass-through"]) {
      $(id).addEventListener("change", () => readOptions() && reset());
    }
    $("chaser-options").addEventListener("change", () => readOptions() && reset());
    $("targets").addEventListener("change", () => {
      state.showTargets = $("targets").checked;
      paint();
    });
    $("theme").addEventListener("change", () => {
      state.theme = $("theme").value;
      $("pattern-color").value = palette().pattern;
      paint();
    });
    $("show-path").addEventListener("change", () => {
      state.showPath = $("show-path").checked;
      paint();
    });
    $("peak").addEventListener("change", () => {
      state.showPeak = $("peak").checked;
      paint();
    });
    $("dead-ends").addEventListener("change", () => {
      state.showDeadEnds = $("dead-ends").checked;
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
      paint();
    });
    canvas.addEventListener("blur", () => {
      state.focused = false;
      paint();
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
  computeFigures();
  wire();
  reset();

  mk.app = {
    state, configure, reset, step, play, stop, load, toggleWall, mazeText, pageText,
    figures: () => ({
      path: state.figures.path, reachable: state.figures.reachable, loops: state.figures.loops,
      realDeadEnds: state.figures.deadEnds.real.length, enclosedDeadEnds: state.figures.deadEnds.enclosed.length,
      peak: state.figures.graph && state.figures.graph.peak,
      peakCell: state.figures.graph && state.figures.graph.peakCell,
      gini: state.figures.graph && state.figures.graph.gini,
      cop: copJson(state.figures.cop),
    }),
  };
})(globalThis.mazekit ??= {});
