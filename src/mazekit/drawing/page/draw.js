/* mazekit page, draw.js: the board on a canvas, with the geometry of the PNG themes
 * (specs/render.md): wall bands and posts, the "42", entry, exit, the path band; the pacman
 * theme's double-line walls and dots; the runner, the chasers and their targets. */
"use strict";
(function (mk) {
  const { DIRECTIONS, BY_LETTER, ALL_WALLS, NORTH, SOUTH, WEST, EAST } = mk.board;
  const CHASER_INKS = { blinky: "ghost_red", pinky: "ghost_pink", inky: "ghost_cyan", clyde: "ghost_orange" };
  const WALL_ROTATION = ["#1e90ff", "#2e8b57", "#b22222", "#8a2be2", "#ff8c00"];

  /** Cell size, wall thickness and origin for a board in a box of the given CSS size. */
  function layout(board, boxWidth, boxHeight, showTargets) {
    const margin = showTargets ? 3 : 0.5; // in cells: scatter targets lie 2 beyond the grid
    const across = board.width + 2 * margin, down = board.height + 2 * margin;
    const cell = Math.max(4, Math.floor(Math.min(boxWidth / across, boxHeight / down)));
    const wall = Math.max(1, Math.round(cell / 8));
    const origin = Math.round(margin * cell);
    return {
      cell, wall, origin,
      width: 2 * origin + board.width * cell + wall,
      height: 2 * origin + board.height * cell + wall,
    };
  }

  /** Whether the wall line north of row j (j = H: the south border) is closed at column x. */
  function hClosed(board, x, j) {
    if (j === 0) return (board.walls[x] & NORTH) !== 0;
    if (j === board.height) return (board.walls[(j - 1) * board.width + x] & SOUTH) !== 0;
    return !board.isOpen(x, j - 1, BY_LETTER.S);
  }

  /** Whether the wall line west of column i (i = W: the east border) is closed at row y. */
  function vClosed(board, i, y) {
    if (i === 0) return (board.walls[y * board.width] & WEST) !== 0;
    if (i === board.width) return (board.walls[y * board.width + i - 1] & EAST) !== 0;
    return !board.isOpen(i - 1, y, BY_LETTER.E);
  }

  /** Every closed wall band as [x, y, w, h] in pixels, posts included. */
  function wallRects(board, g) {
    const rects = [];
    for (let j = 0; j <= board.height; j += 1) {
      for (let x = 0; x < board.width; x += 1) {
        if (hClosed(board, x, j)) rects.push([g.origin + x * g.cell, g.origin + j * g.cell, g.cell + g.wall, g.wall]);
      }
    }
    for (let y = 0; y < board.height; y += 1) {
      for (let i = 0; i <= board.width; i += 1) {
        if (vClosed(board, i, y)) rects.push([g.origin + i * g.cell, g.origin + y * g.cell, g.wall, g.cell + g.wall]);
      }
    }
    return rects;
  }

  function fillCell(ctx, g, x, y, color) {
    ctx.fillStyle = color;
    ctx.fillRect(g.origin + x * g.cell + g.wall, g.origin + y * g.cell + g.wall, g.cell - g.wall, g.cell - g.wall);
  }

  function centre(g, cell) {
    return [g.origin + cell[0] * g.cell + (g.cell + g.wall) / 2, g.origin + cell[1] * g.cell + (g.cell + g.wall) / 2];
  }

  /** The path band: a square per cell and a bridge per step, as in the PNG. */
  function drawPath(ctx, g, board, path, color) {
    const p = Math.max(1, Math.floor((g.cell - g.wall + 1) / 3));
    const off = g.wall + Math.floor((g.cell - g.wall - p) / 2);
    let [x, y] = board.entry;
    ctx.fillStyle = color;
    ctx.fillRect(g.origin + x * g.cell + off, g.origin + y * g.cell + off, p, p);
    for (const letter of path) {
      const d = BY_LETTER[letter];
      const nx = x + d.dx, ny = y + d.dy;
      const left = Math.min(x, nx), top = Math.min(y, ny);
      ctx.fillRect(g.origin + left * g.cell + off, g.origin + top * g.cell + off,
        p + Math.abs(nx - x) * g.cell, p + Math.abs(ny - y) * g.cell);
      [x, y] = [nx, ny];
    }
  }

  /** The pacman theme's walls: lines `outline` px around the wall mass, and the "42" filled. */
  function drawBoardWalls(ctx, g, board, palette, wallColor, rects) {
    const o = Math.max(1, Math.floor(g.wall / 2));
    const mass = rects.slice();
    const isPattern = (x, y) => board.contains(x, y) && board.walls[y * board.width + x] === ALL_WALLS;
    for (let y = 0; y < board.height; y += 1) {
      for (let x = 0; x < board.width; x += 1) {
        if (isPattern(x, y)) mass.push([g.origin + x * g.cell, g.origin + y * g.cell, g.cell + g.wall, g.cell + g.wall]);
      }
    }
    ctx.fillStyle = wallColor;
    for (const [x, y, w, h] of mass) ctx.fillRect(x - o, y - o, w + 2 * o, h + 2 * o);
    ctx.fillStyle = palette.background;
    for (const [x, y, w, h] of mass) ctx.fillRect(x, y, w, h);
    ctx.fillStyle = palette.pattern;
    for (let y = 0; y < board.height; y += 1) {
      for (let x = 0; x < board.width; x += 1) {
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

  /** A ghost: a round head, a body with a scalloped skirt, two eyes. */
  function drawGhost(ctx, g, cell, color, palette) {
    const [cx, cy] = centre(g, cell);
    const r = (g.cell - g.wall) * 0.45;
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

  function drawCross(ctx, g, target, color, limits) {
    const [rx, ry] = centre(g, target);
    const x = Math.min(Math.max(rx, g.cell / 2), limits[0] - g.cell / 2);
    const y = Math.min(Math.max(ry, g.cell / 2), limits[1] - g.cell / 2);
    const s = g.cell * 0.35;
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(2, g.cell / 7);
    ctx.beginPath();
    ctx.moveTo(x - s, y - s);
    ctx.lineTo(x + s, y + s);
    ctx.moveTo(x + s, y - s);
    ctx.lineTo(x - s, y + s);
    ctx.stroke();
  }

  /** Paint the whole picture of `view` (board, palette, figures, actors) with geometry g. */
  function paint(ctx, g, view) {
    const { board, palette } = view;
    const wallColor = view.wallRotation ? WALL_ROTATION[(view.wallRotation - 1) % WALL_ROTATION.length] : palette.wall;
    ctx.fillStyle = palette.background;
    ctx.fillRect(0, 0, g.width, g.height);
    const rects = wallRects(board, g);
    for (let i = 0; i < board.walls.length; i += 1) {
      const x = i % board.width, y = (i - x) / board.width;
      if (!view.isBoard && board.walls[i] === ALL_WALLS) fillCell(ctx, g, x, y, palette.pattern);
    }
    if (view.showDeadEnds) {
      for (const i of view.figures.deadEnds.real) fillCell(ctx, g, i % board.width, Math.floor(i / board.width), palette.dead_end);
      for (const i of view.figures.deadEnds.enclosed) fillCell(ctx, g, i % board.width, Math.floor(i / board.width), palette.enclosed);
    }
    if (view.isBoard) {
      drawBoardWalls(ctx, g, board, palette, wallColor, rects);
      const dist = view.figures.reach;
      const r = g.cell - g.wall;
      for (let i = 0; i < dist.length; i += 1) {
        if (dist[i] < 0 || board.walls[i] === ALL_WALLS) continue;
        const x = i % board.width, y = (i - x) / board.width;
        const corner = (x === 0 || x === board.width - 1) && (y === 0 || y === board.height - 1);
        const [cx, cy] = centre(g, [x, y]);
        disc(ctx, cx, cy, Math.max(1, r * (corner ? 0.33 : 0.1)), corner ? palette.energizer : palette.dot);
      }
    } else {
      fillCell(ctx, g, board.entry[0], board.entry[1], palette.entry);
      fillCell(ctx, g, board.exit[0], board.exit[1], palette.exit);
    }
    if (view.showPath && view.figures.path) drawPath(ctx, g, board, view.figures.path, palette.path);
    if (!view.isBoard) {
      ctx.fillStyle = wallColor;
      for (const [x, y, w, h] of rects) ctx.fillRect(x, y, w, h);
    }
    const peak = view.showPeak && view.figures.graph && view.figures.graph.peakCell;
    if (peak) {
      // the busiest cell: a ring in the dead-end colour, under the actors
      const [cx, cy] = centre(g, peak);
      ctx.strokeStyle = palette.dead_end;
      ctx.lineWidth = Math.max(2, g.wall);
      ctx.beginPath();
      ctx.arc(cx, cy, (g.cell - g.wall) * 0.42, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (view.cursor && view.focused) {
      ctx.strokeStyle = palette.path;
      ctx.lineWidth = Math.max(2, g.wall);
      ctx.strokeRect(g.origin + view.cursor[0] * g.cell + g.wall / 2, g.origin + view.cursor[1] * g.cell + g.wall / 2, g.cell, g.cell);
    }
    if (!view.chase) return;
    drawRunner(ctx, g, view.chase.runner, palette, view.isBoard ? null : palette.wall);
    for (const chaser of view.chase.chasers) drawGhost(ctx, g, chaser.cell, palette[CHASER_INKS[chaser.name]], palette);
    if (view.showTargets) {
      for (const chaser of view.chase.chasers) {
        if (chaser.target) drawCross(ctx, g, chaser.target, palette[CHASER_INKS[chaser.name]], [g.width, g.height]);
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

  mk.draw = { CHASER_INKS, WALL_ROTATION, DIRECTIONS, layout, paint, hit, centre };
})(globalThis.mazekit ??= {});
