/* mazekit page, draw.js: the board on a canvas, with the geometry of the PNG themes
 * (specs/render.md): wall bands and posts, the "42", entry, exit, the path band, dead ends,
 * the betweenness heat (mazekit.drawing.heat's colour map, from the page's JSON); the pacman
 * theme's double-line walls and dots; the runner, the chasers, their trails and targets.
 *
 * Drawn in layers so that a tick costs only what changed: `base` (everything but the path
 * and the actors) is drawn once and again only where an edit changed it; `path` holds the
 * path band alone, its pixels written straight into an ImageData; `still` is the base with
 * the path and the ring; the visible canvas is `still` plus the actors, and a tick copies
 * back from `still` only the rectangles the last tick's actors, trails and targets covered. */
"use strict";
(function (mk) {
  const { BY_LETTER, ALL_WALLS, NORTH, SOUTH, WEST, EAST } = mk.board;
  const WALL_ROTATION = ["#1e90ff", "#2e8b57", "#b22222", "#8a2be2", "#ff8c00"];
  // Room around the grid, in cells: the scatter targets lie 2 beyond it. Always kept, so
  // the board never moves when targets are shown or hidden.
  const MARGIN = 3;
  const MIN_CELL = 2;

  /** Cell size, wall thickness and origin for a board in a box of the given CSS size. */
  function layout(board, boxWidth, boxHeight) {
    const across = board.width + 2 * MARGIN, down = board.height + 2 * MARGIN;
    const cell = Math.max(MIN_CELL, Math.floor(Math.min(boxWidth / across, boxHeight / down)));
    const wall = Math.max(1, Math.round(cell / 8));
    const origin = MARGIN * cell;
    return {
      cell, wall, origin,
      width: 2 * origin + board.width * cell + wall,
      height: 2 * origin + board.height * cell + wall,
    };
  }

  /** The closed wall bands of the cells in range r, each given to emit(x, y, w, h) in pixels, posts
   * included, each run of closed walls along a line as one band. A wall line is closed
   * where either cell says so (the border: where its one cell does). */
  function wallRects(board, g, r, emit) {
    const { width, height, walls, open } = board;
    const band = (run, end, fixed, horizontal) => {
      if (horizontal) emit(g.origin + run * g.cell, g.origin + fixed * g.cell, (end - run) * g.cell + g.wall, g.wall);
      else emit(g.origin + fixed * g.cell, g.origin + run * g.cell, g.wall, (end - run) * g.cell + g.wall);
    };
    for (let j = r.y0; j <= r.y1; j += 1) {
      let run = -1;
      const row = (j === height ? j - 1 : j) * width;
      for (let x = r.x0; x <= r.x1; x += 1) {
        let closed = false;
        if (x < r.x1) {
          if (j === 0) closed = (walls[x] & NORTH) !== 0;
          else if (j === height) closed = (walls[row + x] & SOUTH) !== 0;
          else closed = (open[row + x] & NORTH) === 0;
        }
        if (closed && run < 0) run = x;
        else if (!closed && run >= 0) {
          band(run, x, j, true);
          run = -1;
        }
      }
    }
    for (let i = r.x0; i <= r.x1; i += 1) {
      let run = -1;
      const column = i === width ? i - 1 : i;
      for (let y = r.y0; y <= r.y1; y += 1) {
        let closed = false;
        if (y < r.y1) {
          const cell = y * width + column;
          if (i === 0) closed = (walls[cell] & WEST) !== 0;
          else if (i === width) closed = (walls[cell] & EAST) !== 0;
          else closed = (open[cell] & WEST) === 0;
        }
        if (closed && run < 0) run = y;
        else if (!closed && run >= 0) {
          band(run, y, i, false);
          run = -1;
        }
      }
    }
  }

  function fillCell(ctx, g, x, y, color) {
    ctx.fillStyle = color;
    ctx.fillRect(g.origin + x * g.cell + g.wall, g.origin + y * g.cell + g.wall, g.cell - g.wall, g.cell - g.wall);
  }

  function centre(g, cell) {
    return [g.origin + cell[0] * g.cell + (g.cell + g.wall) / 2, g.origin + cell[1] * g.cell + (g.cell + g.wall) / 2];
  }

  /** The path band of the cells of a path (`pathSteps`' `cells`), as in the PNG: a square on
   * its first cell and a bridge per step, from one cell's square to the next one's. Into a
   * layer's pixels (`Pixels`), in `color`, or transparent where it is null (the path
   * erased). */
  function drawPath(pixels, g, board, cells, color) {
    if (cells.length === 0) return;
    const p = Math.max(1, Math.floor((g.cell - g.wall + 1) / 3));
    const at = g.origin + g.wall + Math.floor((g.cell - g.wall - p) / 2), { cell } = g, { width } = board;
    if (color === null) pixels.color = 0;
    else pixels.fillStyle = color;
    let x = cells[0] % width, y = (cells[0] - x) / width;
    pixels.fillRect(at + x * cell, at + y * cell, p, p);
    for (let k = 1; k < cells.length; k += 1) {
      const nx = cells[k] % width, ny = (cells[k] - nx) / width;
      pixels.fillSmall(at + Math.min(x, nx) * cell, at + Math.min(y, ny) * cell,
        p + Math.abs(nx - x) * cell, p + Math.abs(ny - y) * cell);
      x = nx;
      y = ny;
    }
  }

  // A cell's bit in `pathSteps` that says the path visits it (the step bits are 1-8).
  const ON_PATH = 16;
  // A step's bit, the bit back and its move, by the ASCII code of its letter.
  const [STEP_BIT, STEP_BACK, STEP_DX, STEP_DY] = [0, 1, 2, 3].map(() => new Int8Array(128));
  for (const d of Object.values(BY_LETTER)) {
    const code = d.letter.charCodeAt(0);
    [STEP_BIT[code], STEP_BACK[code], STEP_DX[code], STEP_DY[code]] = [d.bit, d.opposite, d.dx, d.dy];
  }

  /** A path from the entry (none when "" or null): per cell, ON_PATH and the bits of the
   * steps into and out of it (`bits`); the cells in the path's order (`cells`). Typed
   * arrays: an edit compares the paths before and after it, of 179 230 steps on a perfect
   * 1000x1000 maze. `spare`: a `pathSteps` no longer needed, whose arrays are cleared and
   * used again (a new megabyte each edit would keep the garbage collector busy). */
  function pathSteps(board, path, spare = null) {
    const n = board.open.length, length = path ? path.length + 1 : 0;
    let bits, buffer;
    if (spare && spare.bits.length === n) {
      for (const i of spare.cells) spare.bits[i] = 0;
      bits = spare.bits;
      buffer = spare.buffer.length >= length ? spare.buffer : new Int32Array(length);
    } else {
      bits = new Uint8Array(n);
      buffer = new Int32Array(length);
    }
    const cells = buffer.subarray(0, length);
    if (!path) return { bits, cells, buffer };
    let i = board.entry[1] * board.width + board.entry[0];
    bits[i] = ON_PATH;
    cells[0] = i;
    for (let k = 0; k < path.length; k += 1) {
      const code = path.charCodeAt(k);
      bits[i] |= STEP_BIT[code];
      i += STEP_DX[code] + STEP_DY[code] * board.width;
      bits[i] |= ON_PATH | STEP_BACK[code];
      cells[k + 1] = i;
    }
    return { bits, cells, buffer };
  }

  /** The pacman theme's walls: lines `outline` px around the wall mass, and the "42" filled. */
  function drawBoardWalls(ctx, g, board, palette, wallColor, rects, r) {
    const o = Math.max(1, Math.floor(g.wall / 2));
    const mass = rects.slice();
    const isPattern = (x, y) => board.contains(x, y) && board.walls[y * board.width + x] === ALL_WALLS;
    for (let y = r.y0; y < r.y1; y += 1) {
      for (let x = r.x0; x < r.x1; x += 1) {
        if (isPattern(x, y)) mass.push([g.origin + x * g.cell, g.origin + y * g.cell, g.cell + g.wall, g.cell + g.wall]);
      }
    }
    ctx.fillStyle = wallColor;
    for (const [x, y, w, h] of mass) ctx.fillRect(x - o, y - o, w + 2 * o, h + 2 * o);
    ctx.fillStyle = palette.background;
    for (const [x, y, w, h] of mass) ctx.fillRect(x, y, w, h);
    ctx.fillStyle = palette.pattern;
    for (let y = r.y0; y < r.y1; y += 1) {
      for (let x = r.x0; x < r.x1; x += 1) {
        if (!isPattern(x, y)) continue;
        const px = g.origin + x * g.cell, py = g.origin + y * g.cell;
        ctx.fillRect(px + g.wall, py + g.wall, g.cell - g.wall, g.cell - g.wall);
        if (isPattern(x + 1, y)) ctx.fillRect(px + g.cell, py + g.wall, g.wall, g.cell - g.wall);
        if (isPattern(x, y + 1)) ctx.fillRect(px + g.wall, py + g.cell, g.cell - g.wall, g.wall);
        if (isPattern(x + 1, y) && isPattern(x, y + 1) && isPattern(x + 1, y + 1)) {
          ctx.fillRect(px + g.cell, py + g.cell, g.wall, g.wall);
        }
      }
    }
  }

  function disc(ctx, x, y, r, color) {
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
  }

  /** A ghost: a round head, a body with a scalloped skirt, two eyes; in quarter 0-3 of its
   * cell (half its size) when it shares the cell, else filling it. */
  function drawGhost(ctx, g, cell, color, palette, quarter = -1) {
    let [cx, cy] = centre(g, cell);
    let r = (g.cell - g.wall) * 0.45;
    if (quarter >= 0) {
      r /= 2;
      cx += (quarter % 2 ? 1 : -1) * r;
      cy += (quarter >= 2 ? 1 : -1) * r;
    }
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.arc(cx, cy - r * 0.1, r, Math.PI, 0);
    ctx.lineTo(cx + r, cy + r);
    for (let k = 3; k >= 0; k -= 1) {
      ctx.lineTo(cx - r + (k + 0.5) * (r / 2), cy + r * (k % 2 ? 0.7 : 0.85));
      ctx.lineTo(cx - r + k * (r / 2), cy + r);
    }
    ctx.closePath();
    ctx.fill();
    if (r >= 5) {
      for (const side of [-1, 1]) {
        disc(ctx, cx + side * r * 0.38, cy - r * 0.2, r * 0.28, palette.eyes);
        disc(ctx, cx + side * r * 0.38 + r * 0.08, cy - r * 0.2, r * 0.13, palette.pupil);
      }
    }
  }

  /** The runner: a disc with a mouth open towards its facing. */
  function drawRunner(ctx, g, runner, palette, outline) {
    const [cx, cy] = centre(g, runner.cell);
    const r = (g.cell - g.wall) * 0.45;
    const angle = { E: 0, S: Math.PI / 2, W: Math.PI, N: -Math.PI / 2 }[runner.facing ?? "E"];
    ctx.fillStyle = palette.player;
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.arc(cx, cy, r, angle + 0.6, angle - 0.6 + 2 * Math.PI);
    ctx.closePath();
    ctx.fill();
    if (outline) {
      ctx.strokeStyle = outline;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  /** A target's cross, kept inside the canvas; returns the rectangle it covers. */
  function drawCross(ctx, g, target, color) {
    const [rx, ry] = centre(g, target);
    const x = Math.min(Math.max(rx, g.cell / 2), g.width - g.cell / 2);
    const y = Math.min(Math.max(ry, g.cell / 2), g.height - g.cell / 2);
    const s = g.cell * 0.35, w = Math.max(2, g.cell / 7);
    ctx.strokeStyle = color;
    ctx.lineWidth = w;
    ctx.beginPath();
    ctx.moveTo(x - s, y - s);
    ctx.lineTo(x + s, y + s);
    ctx.moveTo(x + s, y - s);
    ctx.lineTo(x - s, y + s);
    ctx.stroke();
    return [x - s - w, y - s - w, 2 * (s + w), 2 * (s + w)];
  }

  /** The colour of a share 0..1 on a colour map of evenly spaced stops (linear between). */
  function ramp(stops, t) {
    const at = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
    const k = Math.min(Math.floor(at), stops.length - 2), f = at - k;
    const [a, b] = [stops[k], stops[k + 1]];
    return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * f));
  }

  /** A colour as the little-endian 32-bit pixel of an ImageData: from "#rrggbb" or [r, g, b]. */
  function pixel(color) {
    const [r, g, b] = Array.isArray(color)
      ? color : [1, 3, 5].map((k) => parseInt(color.slice(k, k + 2), 16));
    return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
  }

  /** The rectangles of a layer filled straight into its pixels: `fillRect` in CSS pixels,
   * filling the device pixels the canvas would at whole-pixel coordinates, inside `clip`.
   * A million cells' walls take a few fills of typed arrays instead of a million calls. */
  class Pixels {
    constructor(ctx, ratio, clip) {
      const k = ratio;
      this.k = k;
      this.x0 = Math.max(0, Math.floor(clip[0] * k));
      this.y0 = Math.max(0, Math.floor(clip[1] * k));
      this.w = Math.min(ctx.canvas.width, Math.ceil((clip[0] + clip[2]) * k)) - this.x0;
      this.h = Math.min(ctx.canvas.height, Math.ceil((clip[1] + clip[3]) * k)) - this.y0;
      this.image = ctx.createImageData(Math.max(1, this.w), Math.max(1, this.h));
      this.px = new Uint32Array(this.image.data.buffer);
      this.color = 0;
    }

    set fillStyle(color) {
      this.color = pixel(color);
    }

    fillRect(x, y, w, h) {
      const k = this.k;
      const left = Math.max(0, Math.round(x * k) - this.x0), right = Math.min(this.w, Math.round((x + w) * k) - this.x0);
      const top = Math.max(0, Math.round(y * k) - this.y0), bottom = Math.min(this.h, Math.round((y + h) * k) - this.y0);
      if (left >= right) return;
      const { px, color } = this;
      if (right - left > 16) {
        for (let row = top; row < bottom; row += 1) px.fill(color, row * this.w + left, row * this.w + right);
        return;
      }
      for (let row = top; row < bottom; row += 1) {
        const end = row * this.w + right;
        for (let at = row * this.w + left; at < end; at += 1) px[at] = color;
      }
    }

    /** `fillRect` of a small rectangle (a path's step: a few pixels), without its checks
     * for long rows; at a pixel ratio of 1 the CSS pixels are the device's. */
    fillSmall(x, y, w, h) {
      let left = x, right = x + w, top = y, bottom = y + h;
      if (this.k !== 1) {
        [left, right] = [Math.round(x * this.k), Math.round((x + w) * this.k)];
        [top, bottom] = [Math.round(y * this.k), Math.round((y + h) * this.k)];
      }
      left = Math.max(0, left - this.x0);
      right = Math.min(this.w, right - this.x0);
      top = Math.max(0, top - this.y0);
      bottom = Math.min(this.h, bottom - this.y0);
      const px = this.px, color = this.color, stride = this.w;
      for (let row = top; row < bottom; row += 1) {
        for (let at = row * stride + left, end = row * stride + right; at < end; at += 1) px[at] = color;
      }
    }

    /** Put the pixels on the layer: all, or (`clip`, CSS pixels) those of one rectangle. */
    put(ctx, clip = null) {
      if (this.w <= 0 || this.h <= 0) return;
      if (clip === null) {
        ctx.putImageData(this.image, this.x0, this.y0);
        return;
      }
      const k = this.k;
      const x = Math.max(0, Math.floor(clip[0] * k) - this.x0), y = Math.max(0, Math.floor(clip[1] * k) - this.y0);
      const w = Math.min(this.w, Math.ceil((clip[0] + clip[2]) * k) - this.x0) - x;
      const h = Math.min(this.h, Math.ceil((clip[1] + clip[3]) * k) - this.y0) - y;
      if (w > 0 && h > 0) ctx.putImageData(this.image, this.x0, this.y0, x, y, w, h);
    }
  }

  /** The cells of the whole grid, as a range. */
  function whole(board) {
    return { x0: 0, y0: 0, x1: board.width, y1: board.height };
  }

  /** Paint the base layer (all but the path, the ring and the actors) of the cells in
   * range r: its rectangles into pixels, then the round dots and energizers. */
  function paintBase(ctx, g, view, r, ratio) {
    const { board, palette } = view;
    const wallColor = view.wallRotation ? WALL_ROTATION[(view.wallRotation - 1) % WALL_ROTATION.length] : palette.wall;
    const px0 = r.x0 === 0 ? 0 : g.origin + r.x0 * g.cell, py0 = r.y0 === 0 ? 0 : g.origin + r.y0 * g.cell;
    const px1 = r.x1 === board.width ? g.width : g.origin + r.x1 * g.cell + g.wall;
    const py1 = r.y1 === board.height ? g.height : g.origin + r.y1 * g.cell + g.wall;
    const clip = [px0, py0, px1 - px0, py1 - py0];
    const rect = new Pixels(ctx, ratio, clip);
    rect.fillStyle = palette.background;
    rect.fillRect(...clip);
    // the cells next to the range too: a pacman outline reaches into its neighbours
    const near = {
      x0: Math.max(0, r.x0 - 1), y0: Math.max(0, r.y0 - 1),
      x1: Math.min(board.width, r.x1 + 1), y1: Math.min(board.height, r.y1 + 1),
    };
    const inRange = (i) => {
      const x = i % board.width, y = (i - x) / board.width;
      return x >= near.x0 && x < near.x1 && y >= near.y0 && y < near.y1;
    };
    for (let y = near.y0; y < near.y1; y += 1) {
      for (let x = near.x0; x < near.x1; x += 1) {
        if (!view.isBoard && board.walls[y * board.width + x] === ALL_WALLS) fillCell(rect, g, x, y, palette.pattern);
      }
    }
    const f = view.figures;
    const graph = f.graph;
    if (view.showHeat && graph && graph.values) {
      let top = 0;
      for (const v of graph.values) top = Math.max(top, v);
      graph.nodes.forEach((i, v) => {
        if (!inRange(i) || board.pattern[i]) return;
        fillCell(rect, g, i % board.width, Math.floor(i / board.width), ramp(view.heatColors, top > 0 ? graph.values[v] / top : 0));
      });
    }
    if (view.showDeadEnds && f.deadEnds) {
      for (const i of f.deadEnds.real) if (inRange(i)) fillCell(rect, g, i % board.width, Math.floor(i / board.width), palette.dead_end);
      for (const i of f.deadEnds.enclosed) if (inRange(i)) fillCell(rect, g, i % board.width, Math.floor(i / board.width), palette.enclosed);
    }
    const dots = [];
    if (view.isBoard) {
      const rects = [];
      wallRects(board, g, near, (...band) => rects.push(band));
      drawBoardWalls(rect, g, board, palette, wallColor, rects, near);
      const dist = f.reach;
      const radius = g.cell - g.wall;
      for (let y = near.y0; y < near.y1; y += 1) {
        for (let x = near.x0; x < near.x1; x += 1) {
          const i = y * board.width + x;
          if (dist[i] < 0 || board.walls[i] === ALL_WALLS) continue;
          const corner = (x === 0 || x === board.width - 1) && (y === 0 || y === board.height - 1);
          const [cx, cy] = centre(g, [x, y]), size = Math.max(1, radius * (corner ? 0.33 : 0.1));
          if (size < 1.5 && !corner) {
            rect.fillStyle = palette.dot; // a dot of a pixel or so: a square is a disc
            rect.fillRect(Math.floor(cx - 0.5), Math.floor(cy - 0.5), 1, 1);
          } else {
            dots.push([cx, cy, size, corner ? palette.energizer : palette.dot]);
          }
        }
      }
    } else {
      fillCell(rect, g, board.entry[0], board.entry[1], palette.entry);
      fillCell(rect, g, board.exit[0], board.exit[1], palette.exit);
      rect.fillStyle = wallColor;
      wallRects(board, g, near, (x, y, w, h) => rect.fillRect(x, y, w, h));
    }
    rect.put(ctx);
    ctx.save();
    ctx.beginPath();
    ctx.rect(...clip);
    ctx.clip();
    for (const [cx, cy, size, color] of dots) disc(ctx, cx, cy, size, color);
    ctx.restore();
  }

  /** The ring (dead-end colour) on the busiest cell, over the path that often crosses it. */
  function paintRing(ctx, g, view) {
    const peak = view.showPeak && view.figures.graph && view.figures.graph.peakCell;
    if (!peak) return;
    const [cx, cy] = centre(g, peak);
    ctx.strokeStyle = view.palette.dead_end;
    ctx.lineWidth = Math.max(2, g.wall);
    ctx.beginPath();
    ctx.arc(cx, cy, (g.cell - g.wall) * 0.42, 0, 2 * Math.PI);
    ctx.stroke();
  }

  /** A canvas of the given CSS size at the device's pixel ratio, with its 2D context. */
  function sized(canvas, g, ratio) {
    const w = Math.round(g.width * ratio), h = Math.round(g.height * ratio);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return ctx;
  }

  /** The layers of one canvas: `full(view)` paints everything, `edit(view, r)` the cells of
   * range r and those whose path steps changed, `tick(view)` only the actors' rectangles. */
  class Painter {
    constructor(canvas) {
      this.canvas = canvas;
      this.base = document.createElement("canvas");
      this.path = document.createElement("canvas");
      this.still = document.createElement("canvas");
      this.dirty = [];
      this.g = null;
      this.ratio = 1;
      this.pathPixels = null; // the path layer's pixels, kept: an edit changes a few
      this.shown = null; // the path in them, as `pathSteps`
      this.spare = null; // the `pathSteps` before, for the next one's arrays
      this.found = new Int32Array(0); // the changed cells of an edit
    }

    /** Set the geometry; the layers are then painted again by `full`. */
    resize(g, ratio) {
      this.g = g;
      this.ratio = ratio;
      this.canvas.style.width = `${g.width}px`;
      this.canvas.style.height = `${g.height}px`;
      this.ctx = sized(this.canvas, g, ratio);
      this.baseCtx = sized(this.base, g, ratio);
      this.pathCtx = sized(this.path, g, ratio);
      this.stillCtx = sized(this.still, g, ratio);
    }

    full(view) {
      paintBase(this.baseCtx, this.g, view, whole(view.board), this.ratio);
      this.pathPixels = new Pixels(this.pathCtx, this.ratio, [0, 0, this.g.width, this.g.height]);
      [this.shown, this.spare] = [pathSteps(view.board, view.showPath ? view.figures.path : null, this.spare), this.shown];
      drawPath(this.pathPixels, this.g, view.board, this.shown.cells, view.palette.path);
      this.pathPixels.put(this.pathCtx);
      this.compose(view);
    }

    /** The edited wall alone, at once: the base over range r, shown without the path there
     * (the path follows with `edit`). */
    wall(view, r) {
      paintBase(this.baseCtx, this.g, view, r, this.ratio);
      const area = this.area(r);
      this.copy(this.stillCtx, this.base, area);
      this.copy(this.ctx, this.still, area);
      this.tick(view);
    }

    /** The pixels of the cells of range r and a cell around them. */
    area(r) {
      const { g } = this;
      return [g.origin + (r.x0 - 1) * g.cell, g.origin + (r.y0 - 1) * g.cell,
        (r.x1 - r.x0 + 2) * g.cell + g.wall, (r.y1 - r.y0 + 2) * g.cell + g.wall];
    }

    /** Repaint the base over range r (an edited wall's cells), and the path where it changed:
     * the old path is erased from the path layer's pixels and the new one drawn, which
     * changes only the cells whose steps differ; those pixels are put back in one call,
     * then the still layer and the canvas take the base and the path over those cells only
     * (or whole, when they are thousands: a path of a perfect maze cut or made again). */
    edit(view, r) {
      const { g } = this, { board } = view, width = board.width;
      paintBase(this.baseCtx, g, view, r, this.ratio);
      const before = this.shown, after = pathSteps(board, view.showPath ? view.figures.path : null, this.spare);
      const changed = this.changed(before, after);
      [this.shown, this.spare] = [after, before];
      if (changed.length > 0) {
        drawPath(this.pathPixels, g, board, before.cells, null);
        drawPath(this.pathPixels, g, board, after.cells, view.palette.path);
        let x0 = width, y0 = board.height, x1 = 0, y1 = 0;
        for (const i of changed) {
          const x = i % width, y = (i - x) / width;
          if (x < x0) x0 = x;
          if (x >= x1) x1 = x + 1;
          if (y < y0) y0 = y;
          if (y >= y1) y1 = y + 1;
        }
        this.pathPixels.put(this.pathCtx, this.area({ x0, y0, x1, y1 }));
      }
      if (changed.length > 4000) {
        this.compose(view);
        return;
      }
      const areas = [this.area(r)];
      for (const i of changed) {
        const x = i % width, y = (i - x) / width;
        areas.push([g.origin + x * g.cell, g.origin + y * g.cell, g.cell + g.wall, g.cell + g.wall]);
      }
      this.copyAll(this.stillCtx, this.base, areas);
      this.copyAll(this.stillCtx, this.path, areas);
      paintRing(this.stillCtx, g, view);
      this.copyAll(this.ctx, this.still, areas);
      this.tick(view);
    }

    /** The cells whose steps differ between two `pathSteps`, each once. */
    changed(before, after) {
      if (this.found.length < before.cells.length + after.cells.length) {
        this.found = new Int32Array(before.cells.length + after.cells.length);
      }
      const found = this.found;
      let n = 0;
      for (let k = 0; k < before.cells.length; k += 1) {
        const i = before.cells[k];
        if (after.bits[i] !== before.bits[i]) found[n++] = i;
      }
      for (let k = 0; k < after.cells.length; k += 1) {
        const i = after.cells[k];
        if (before.bits[i] === 0) found[n++] = i;
      }
      return found.subarray(0, n);
    }

    /** Still = base + path + ring; then the visible canvas from it, with the actors. */
    compose(view) {
      this.copy(this.stillCtx, this.base, null);
      this.copy(this.stillCtx, this.path, null);
      paintRing(this.stillCtx, this.g, view);
      this.copy(this.ctx, this.still, null);
      this.dirty = [];
      this.actors(view);
    }

    /** Copy a layer onto a context: whole, or one CSS-pixel rectangle of it. */
    copy(ctx, from, rect) {
      this.copyAll(ctx, from, rect === null ? null : [rect]);
    }

    /** Copy a layer onto a context: whole (`rects` null), or each CSS-pixel rectangle of a
     * list once (a trail's cells and the actors on them name many twice). */
    copyAll(ctx, from, rects) {
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      if (rects === null) {
        ctx.drawImage(from, 0, 0);
      } else {
        const k = this.ratio, seen = new Set();
        for (const rect of rects) {
          const x = Math.max(0, Math.floor(rect[0] * k) - 1), y = Math.max(0, Math.floor(rect[1] * k) - 1);
          const w = Math.min(from.width, Math.ceil((rect[0] + rect[2]) * k) + 1) - x;
          const h = Math.min(from.height, Math.ceil((rect[1] + rect[3]) * k) + 1) - y;
          const key = `${x},${y},${w},${h}`;
          if (w <= 0 || h <= 0 || seen.has(key)) continue;
          seen.add(key);
          ctx.drawImage(from, x, y, w, h, x, y, w, h);
        }
      }
      ctx.restore();
    }

    /** One tick: put back what the last actors covered, then draw the actors again. */
    tick(view) {
      this.copyAll(this.ctx, this.still, this.dirty);
      this.dirty = [];
      this.actors(view);
    }

    /** The trails, the runner, the chasers, the targets and the cursor, each rectangle
     * remembered for the next tick. */
    actors(view) {
      const { ctx, g } = this, { palette } = view;
      const cellRect = (cell) => [g.origin + cell[0] * g.cell, g.origin + cell[1] * g.cell, g.cell + g.wall, g.cell + g.wall];
      if (view.cursor && view.focused) {
        ctx.strokeStyle = palette.path;
        ctx.lineWidth = Math.max(2, g.wall);
        ctx.strokeRect(g.origin + view.cursor[0] * g.cell + g.wall / 2, g.origin + view.cursor[1] * g.cell + g.wall / 2, g.cell, g.cell);
        const [x, y, w, h] = cellRect(view.cursor);
        this.dirty.push([x - g.wall, y - g.wall, w + 2 * g.wall, h + 2 * g.wall]);
      }
      const run = view.chase;
      if (!run) return;
      if (view.showTrails && view.trails) {
        for (const chaser of run.chasers) {
          const cells = view.trails[chaser.name] ?? [];
          ctx.fillStyle = palette[view.inks[chaser.name]];
          cells.forEach((cell, k) => {
            // the oldest faintest: alpha from 0.15 to 0.6 towards the chaser
            ctx.globalAlpha = 0.15 + (0.45 * (k + 1)) / cells.length;
            const [cx, cy] = centre(g, cell), s = Math.max(1, (g.cell - g.wall) * 0.3);
            ctx.fillRect(cx - s, cy - s, 2 * s, 2 * s);
            this.dirty.push(cellRect(cell));
          });
        }
        ctx.globalAlpha = 1;
      }
      drawRunner(ctx, g, run.runner, palette, view.isBoard ? null : palette.wall);
      this.dirty.push(cellRect(run.runner.cell));
      // chasers sharing a cell (all four in the house at first) each get a quarter of it
      const sharing = new Map();
      for (const chaser of run.chasers) {
        const key = `${chaser.cell[0]},${chaser.cell[1]}`;
        sharing.set(key, [...(sharing.get(key) ?? []), chaser]);
      }
      for (const group of sharing.values()) {
        group.forEach((chaser, k) => {
          const quarter = group.length > 1 ? k : -1;
          drawGhost(ctx, g, chaser.cell, palette[view.inks[chaser.name]], palette, quarter);
        });
        this.dirty.push(cellRect(group[0].cell));
      }
      if (view.showTargets) {
        for (const chaser of run.chasers) {
          if (chaser.target) this.dirty.push(drawCross(ctx, g, chaser.target, palette[view.inks[chaser.name]]));
        }
      }
    }
  }

  /** The wall nearest a point in CSS pixels, as {x, y, d}, or null when none is near. A point
   * on the outer half of a border line names that border wall (so a click there is told why
   * it stays closed). */
  function hit(board, g, px, py) {
    const fx = (px - g.origin - g.wall / 2) / g.cell, fy = (py - g.origin - g.wall / 2) / g.cell;
    if (fx < -0.3 || fy < -0.3 || fx > board.width + 0.3 || fy > board.height + 0.3) return null;
    const x = Math.min(Math.max(Math.floor(fx), 0), board.width - 1);
    const y = Math.min(Math.max(Math.floor(fy), 0), board.height - 1);
    const dx = fx - x, dy = fy - y;
    const sides = [[Math.abs(dy), "N"], [Math.abs(1 - dx), "E"], [Math.abs(1 - dy), "S"], [Math.abs(dx), "W"]];
    sides.sort((a, b) => a[0] - b[0]);
    if (sides[0][0] > 0.3) return null;
    return { x, y, d: BY_LETTER[sides[0][1]] };
  }

  mk.draw = { WALL_ROTATION, MARGIN, layout, Painter, hit, centre };
})(globalThis.mazekit ??= {});
