"""The standalone HTML page: the maze, the chasers and the board's figures, live in a browser.

The page is one file: the template, the style sheet and the JavaScript sources kept beside
this module under ``page/`` are inlined, with the board as a JSON block, so the page makes no
network request and works from ``file://`` (specs/html.md). Python only packs the facts it
owns (the walls, the "42" mask, the theme colours); the page computes the rest itself.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ..model import Maze
from ..pattern import pattern_mask
from .scene import RenderOptions
from .theme import THEMES, Ink, hex_color, palette_for

__all__ = ["SCRIPTS", "board_data", "page_source", "render_html"]

# The JavaScript sources, in the order they run: each adds one part to ``globalThis.mazekit``.
SCRIPTS: tuple[str, ...] = ("board.js", "chase.js", "graph.js", "cops.js", "draw.js", "app.js")
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


def board_data(maze: Maze, options: RenderOptions | None = None) -> dict[str, Any]:
    """The JSON the page starts from: the maze, its "42" mask and the display settings."""
    options = options or RenderOptions()
    mask = pattern_mask(maze.width, maze.height)
    return {
        "width": maze.width,
        "height": maze.height,
        "walls": ["".join("0123456789ABCDEF"[v] for v in row) for row in maze.walls.tolist()],
        "pattern": ["".join("1" if v else "0" for v in row) for row in mask.tolist()],
        "entry": list(maze.entry),
        "exit": list(maze.exit),
        "path": maze.path,
        "theme": options.theme,
        # a board (pacman) shows no path unless asked, as in render's pictures
        "showPath": options.path is True
        or (options.path is None and not THEMES[options.theme].board),
        "deadEnds": options.dead_ends is not None,
        "palettes": _palettes(options),
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
    script = "\n".join(_script_block(page_source(name), name) for name in SCRIPTS)
    title = f"mazekit board {maze.width}x{maze.height}"
    return (
        page_source("page.html")
        .replace("@TITLE@", title)
        .replace("/*@STYLE@*/", page_source("style.css"))
        .replace("/*@SCRIPT@*/", script)
        .replace(_DATA_MARK, data)
    )
