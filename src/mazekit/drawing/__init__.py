"""Pictures of a maze: PNG and SVG images, terminal text and a live HTML page.

``render(maze, "maze.png")`` writes a file whose format comes from its extension;
``render_bytes`` returns the bytes. Pillow is imported only when a PNG is drawn. The package
is named ``drawing`` so that ``mazekit.render`` is only ever the function.
"""

from __future__ import annotations

import os
from typing import IO, Any

from ..errors import ConfigError
from ..model import Maze
from .scene import (
    FORMATS,
    MAX_PIXELS,
    Format,
    RenderOptions,
    Scene,
    build_scene,
    check_maze,
    format_from_name,
)
from .theme import THEMES, Ink, parse_color

__all__ = [
    "FORMATS",
    "MAX_PIXELS",
    "THEMES",
    "Format",
    "Ink",
    "RenderOptions",
    "Scene",
    "build_scene",
    "check_maze",
    "format_from_name",
    "parse_color",
    "render",
    "render_bytes",
]


def render_bytes(maze: Maze, options: RenderOptions, source: str | None = None) -> bytes:
    """The picture of ``maze`` in ``options.format`` (text when None), as file bytes;
    ``source`` names the maze in a MazeError."""
    check_maze(maze, options, source)  # the size limit comes before any work
    if options.format == "html":  # the page draws itself: no Scene needed
        from .html import render_html

        return render_html(maze, options).encode("utf-8")
    scene = build_scene(maze, options, source)
    if options.format == "png":
        from .png import render_png

        return render_png(scene)
    if options.format == "svg":
        from .svg import render_svg

        return render_svg(scene).encode("utf-8")
    from .text import render_text

    return render_text(scene, options.charset, options.ansi).encode("utf-8")


def render(maze: Maze, path_or_file: str | os.PathLike[str] | IO[bytes], **options: Any) -> None:
    """Draw ``maze`` into a file path (written atomically) or a binary stream.

    ``options`` are the fields of RenderOptions; ``format`` defaults to the path's extension
    (.png, .svg, .txt) and must be given for a stream.
    """
    settings = RenderOptions(**options)
    if settings.format is None:
        name = os.fspath(path_or_file) if isinstance(path_or_file, (str, os.PathLike)) else ""
        found = format_from_name(name)
        if found is None:
            raise ConfigError(
                f"cannot tell the format of {name or 'a stream'!r}: give format='png', "
                "'svg', 'text' or 'html', or a .png, .svg, .txt or .html name",
                "format",
            )
        settings = RenderOptions(**{**options, "format": found})
    data = render_bytes(maze, settings)
    if isinstance(path_or_file, (str, os.PathLike)):
        from ..outfile import atomic_write  # tempfile only when a file is written

        atomic_write(os.fspath(path_or_file), data)
    else:
        path_or_file.write(data)
