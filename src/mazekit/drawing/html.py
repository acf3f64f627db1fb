"""The standalone HTML page: the maze, the chasers and the board's figures, live in a browser.

The page is one file: the template, the style sheet and the JavaScript sources kept beside
this module under ``page/`` are inlined, with the board as a JSON block, so the page makes no
network request and works from ``file://`` (specs/html.md). Python packs the facts it owns
(the walls, the "42" cells, the theme colours) and every rule's constant (the chase's names,
schedule, starts and trail, the graph limits, the heat colours): no JavaScript file copies
one. The page computes the rest itself, with twins of mazekit.chasers, mazekit.graph,
mazekit.board and mazekit.edit's planner (each names its twin).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from ..model import Maze
from ..pattern import pattern_mask
from .scene import RenderOptions
from .theme import CHASER_INKS, THEMES, Ink, hex_color, palette_for

__all__ = [
    "COMPUTE",
    "SCRIPTS",
    "board_data",
    "page_source",
    "render_html",
    "rules",
]

# The JavaScript sources, in the order they run: each adds one part to ``globalThis.mazekit``.
# The first ones are also the figures worker's script (its own <script> block).
COMPUTE: tuple[str, ...] = ("board.js", "graph.js", "cops.js", "figures.js")
SCRIPTS: tuple[str, ...] = (*COMPUTE, "chase.js", "draw.js", "app.js")
_DATA_MARK = "@BOARD_JSON@"


@lru_cache(maxsize=8)
def page_source(name: str) -> str:
    """The text of one file under ``page/`` (package data)."""
    return resources.files(__package__).joinpath("page", name).read_text(encoding="utf-8")


def _palettes(options: RenderOptions) -> dict[str, dict[str, str]]:
    """Every theme's colours by ink key, the ``colors`` overrides applied to each."""
    return {
        name: {
            ink.key: hex_color(rgb)
            for ink, rgb in zip(Ink, palette_for(name, options.colors), strict=True)
        }
        for name in THEMES
    }


def rules(width: int, height: int) -> dict[str, Any]:
    """Python's constants the page's JavaScript runs by, for a W x H board."""
    # the page's rules, loaded only for a page
    from ..board import MAX_DEAD_ENDS, MIN_LOOPS
    from ..chasers import (
        DEFAULT_SCHEDULE,
        DEFAULT_STARTS,
        DEFAULT_TRAIL,
        NAMES,
        ROLES,
        STARTS,
        ChaseOptions,
        scatter_targets,
        starts,
    )
    from ..edit import RELIEVE
    from ..graph import COP_LIMIT, EXACT_LIMIT
    from ..graph.ranking import TIE
    from .heat import COLORMAP

    return {
        "chase": {
            "names": list(NAMES),
            "roles": dict(ROLES),
            "schedule": list(DEFAULT_SCHEDULE),
            "ticks": ChaseOptions().ticks,
            "starts": DEFAULT_STARTS,
            "startRules": list(STARTS),
            "corners": {name: list(cell) for name, cell in starts(width, height).items()},
            "scatter": {name: list(c) for name, c in scatter_targets(width, height).items()},
            "trail": DEFAULT_TRAIL,
        },
        "graph": {
            "exactLimit": EXACT_LIMIT,
            "copLimit": COP_LIMIT,
            "tolerance": TIE,
            "relieve": {**RELIEVE, "tolerance": TIE},
            "board": {"maxDeadEnds": MAX_DEAD_ENDS, "minLoops": MIN_LOOPS},  # edit's guard
        },
        "draw": {
            "inks": {name: ink.key for name, ink in CHASER_INKS.items()},
            "heat": [list(rgb) for rgb in COLORMAP],
        },
    }


def board_data(maze: Maze, options: RenderOptions | None = None) -> dict[str, Any]:
    """The JSON the page starts from: the maze, its "42" cells, the display settings and the
    rules (Python's constants)."""
    options = options or RenderOptions()
    ys, xs = np.nonzero(pattern_mask(maze.width, maze.height))
    hexes = np.frombuffer(b"0123456789ABCDEF", dtype=np.uint8)[maze.walls]
    return {
        "width": maze.width,
        "height": maze.height,
        "walls": [row.tobytes().decode("ascii") for row in hexes],
        "pattern": [[int(x), int(y)] for x, y in zip(xs, ys, strict=True)],
        "entry": list(maze.entry),
        "exit": list(maze.exit),
        "path": maze.path,
        "theme": options.theme,
        # a board (pacman) shows no path unless asked, as in render's pictures
        "showPath": options.path is True
        or (options.path is None and not THEMES[options.theme].board),
        "deadEnds": options.dead_ends is not None,
        "palettes": _palettes(options),
        "rules": rules(maze.width, maze.height),
    }


def _script_block(source: str, name: str) -> str:
    """One source made safe to sit inside a <script> element."""
    if "</script" in source.lower() or "<!--" in source:
        raise ValueError(f"page/{name} contains '</script' or '<!--', which would end its block")
    return f"// ---- {name} ----\n{source}"


def render_html(maze: Maze, options: RenderOptions | None = None) -> str:
    """The whole page for ``maze`` as text: one file, nothing loaded from elsewhere."""
    data = json.dumps(board_data(maze, options), separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    compute = "\n".join(_script_block(page_source(name), name) for name in COMPUTE)
    script = "\n".join(
        _script_block(page_source(name), name) for name in SCRIPTS if name not in COMPUTE
    )
    title = f"mazekit board {maze.width}x{maze.height}"
    return (
        page_source("page.html")
        .replace("@TITLE@", title)
        .replace("/*@STYLE@*/", page_source("style.css"))
        .replace("/*@COMPUTE@*/", compute)
        .replace("/*@SCRIPT@*/", script)
        .replace(_DATA_MARK, data)
    )
