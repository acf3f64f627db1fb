"""Pictures of a maze: PNG and SVG images, terminal text and a live HTML page.

``render(maze, "maze.png")`` writes a file whose format comes from its extension;
``render_bytes`` returns the bytes. Pillow is imported only when a PNG is drawn. The package
is named ``drawing`` so that ``mazekit.render`` is only ever the function.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
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
    "picture_bytes",
    "render",
    "render_bytes",
    "render_chunks",
]


# Text and SVG are handed to the writer in pieces of about this many characters.
CHUNK_CHARS = 1 << 16


def _encoded(pieces: Iterable[str]) -> Iterator[bytes]:
    """UTF-8 chunks of about CHUNK_CHARS characters from many small pieces of text."""
    batch: list[str] = []
    count = 0
    for piece in pieces:
        batch.append(piece)
        count += len(piece)
        if count >= CHUNK_CHARS:
            yield "".join(batch).encode("utf-8")
            batch, count = [], 0
    if batch:
        yield "".join(batch).encode("utf-8")


def render_chunks(maze: Maze, options: RenderOptions, source: str | None = None) -> Iterator[bytes]:
    """The picture of ``maze`` in ``options.format`` (text when None), as file bytes in chunks;
    ``source`` names the maze in a MazeError.

    Every check (MazeError) happens here, before the first chunk: text and SVG are then made
    as they are written, so a large maze never sits in memory as one string. A PNG is one chunk.
    """
    check_maze(maze, options, source)  # the size limit comes before any work
    if options.format == "html":  # the page draws itself: no Scene needed
        from .html import render_html

        return iter([render_html(maze, options).encode("utf-8")])  # one chunk, as a PNG
    scene = build_scene(maze, options, source)
    if options.format == "png":
        from .png import render_png

        return iter([render_png(scene)])
    if options.format == "svg":
        from .svg import svg_chunks

        return _encoded(svg_chunks(scene))
    from .text import ascii_chunks, text_lines

    if options.charset == "ascii" and not options.ansi:  # one byte a character: laid out fast
        return ascii_chunks(scene)
    return _encoded(text_lines(scene, options.charset, options.ansi))


def render_bytes(maze: Maze, options: RenderOptions, source: str | None = None) -> bytes:
    """The picture of ``maze`` in ``options.format`` (text when None), as file bytes;
    ``source`` names the maze in a MazeError."""
    return b"".join(render_chunks(maze, options, source))


def picture_bytes(maze: Maze, format: str = "png", **options: Any) -> bytes:
    """The picture of ``maze`` as the bytes of a PNG, SVG, text or HTML file
    (``mazekit.render_bytes``).

    ``options`` are the fields of RenderOptions, as for ``render``; a bad one raises
    ConfigError naming it.
    """
    if not isinstance(maze, Maze):
        raise TypeError(f"maze must be a Maze, got {type(maze).__name__}")
    return render_bytes(maze, RenderOptions(**{**options, "format": format}))


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
    chunks = render_chunks(maze, settings)
    if isinstance(path_or_file, (str, os.PathLike)):
        from ..outfile import atomic_write

        atomic_write(os.fspath(path_or_file), chunks)
    else:
        for chunk in chunks:
            path_or_file.write(chunk)
