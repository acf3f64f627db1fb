"""The chase as an animation: one frame per tick, a GIF or an animated PNG (specs/chase.md).

Steps: draw the maze once with the render themes (no path, no board sprites) in a margin of
three cells, which holds the scatter targets; then per tick copy that picture and stamp on it
each chaser's target as a cross in its colour, the runner, the chasers and the mode's name in
the top-left corner. Pillow only encodes the frames, with no metadata, so the bytes repeat.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..chasers import Simulation, Tick
from ..errors import ConfigError, TooLargeError
from ..model import Maze
from .png import rasterize
from .scene import MAX_PIXELS, Geometry, RenderOptions, build_scene
from .sprites import stamp
from .theme import CHASER_INKS, THEMES, Ink, palette_for

__all__ = ["AnimationOptions", "frames", "render_animation"]

Pixels = npt.NDArray[np.uint8]

_TURNS = {"E": 0, "N": 1, "W": 2, "S": 3}  # quarter turns of the player, whose mouth faces E
_MARGIN_CELLS = 3
_LAST_FRAME_MS = 1000

# 5 x 7 capitals for the two mode names, one string of rows per letter.
_GLYPHS: dict[str, tuple[str, ...]] = {
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
    "C": (".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."),
    "A": (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "T": ("#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."),
    "E": ("#####", "#....", "#....", "####.", "#....", "#....", "#####"),
    "R": ("####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"),
    "H": ("#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
}


@dataclass(frozen=True)
class AnimationOptions:
    """How the run is drawn: file format, frame rate, cell size in pixels, render theme."""

    format: Literal["gif", "png"] = "gif"
    fps: int = 8
    cell: int = 16
    theme: str = "pacman"

    def __post_init__(self) -> None:
        if self.format not in ("gif", "png"):
            raise ConfigError(f"unknown format {self.format!r} (known: gif, png)", "format")
        if not 1 <= self.fps <= 50:
            raise ConfigError(f"must be 1 to 50, got {self.fps}", "fps")
        if self.cell < 4:
            raise ConfigError(f"must be at least 4, got {self.cell}", "cell")
        if self.theme not in THEMES:
            raise ConfigError(f"unknown theme {self.theme!r} (known: {', '.join(THEMES)})", "theme")


def _wall(cell: int) -> int:
    """The wall thickness of an animation: an eighth of the cell, at least 1 px."""
    return max(1, cell // 8)


def _text(word: str, scale: int) -> npt.NDArray[np.bool_]:
    """``word`` in the 5 x 7 capitals, one pixel between letters, scaled up."""
    rows = [".".join(_GLYPHS[letter][row] for letter in word.upper()) for row in range(7)]
    mask = np.array([[c == "#" for c in row] for row in rows], dtype=bool)
    return np.asarray(np.kron(mask, np.ones((scale, scale), dtype=bool)), dtype=bool)


def _cross(side: int) -> npt.NDArray[np.bool_]:
    """An x filling a ``side`` px square, its strokes about side/8 px thick."""
    ys, xs = np.mgrid[0:side, 0:side]
    thickness = max(1, side // 8)
    return np.asarray(
        (np.abs(xs - ys) < thickness) | (np.abs(xs + ys - (side - 1)) < thickness), dtype=bool
    )


class _Painter:
    """The frame of a tick: the maze drawn once, then the moving parts stamped on a copy."""

    def __init__(self, maze: Maze, options: AnimationOptions) -> None:
        cell = options.cell
        wall = _wall(cell)
        margin = _MARGIN_CELLS * cell
        render = RenderOptions(
            format="png", cell=cell, wall=wall, margin=margin, theme=options.theme, path=False
        )
        scene = replace(build_scene(maze, render), sprites=None)
        self.base = rasterize(scene)
        self.palette = scene.palette
        self.cell, self.wall, self.margin = cell, wall, margin
        self.side = cell - wall
        self.cross = _cross(self.side)
        self.words = {mode: _text(mode, max(1, cell // 8)) for mode in ("scatter", "chase")}

    def _corner(self, x: int, y: int) -> tuple[int, int]:
        """The top-left pixel of the inside of cell (x, y), which may lie outside the grid."""
        return (self.margin + x * self.cell + self.wall, self.margin + y * self.cell + self.wall)

    def _stamp(
        self, frame: Pixels, left: int, top: int, mask: npt.NDArray[Any], ink: int | None
    ) -> None:
        """Paint ``mask`` (Ink values, or True for ``ink``) at (left, top), kept in the frame."""
        height, width = frame.shape
        side_y, side_x = mask.shape
        top = min(max(top, 0), height - side_y)
        left = min(max(left, 0), width - side_x)
        target = frame[top : top + side_y, left : left + side_x]
        if ink is None:
            np.copyto(target, mask, where=mask != 0)
        else:
            target[mask.astype(bool)] = ink

    def frame(self, tick: Tick) -> Pixels:
        """The picture of one tick, as Ink values."""
        frame = self.base.copy()
        if tick.mode is not None:
            self._stamp(frame, self.cell // 2, self.cell // 2, self.words[tick.mode], Ink.WALL)
        for chaser in tick.chasers:
            if chaser.target is not None:
                left, top = self._corner(*chaser.target)
                self._stamp(frame, left, top, self.cross, CHASER_INKS[chaser.name])
        left, top = self._corner(*tick.runner)
        player = np.rot90(stamp(Ink.PLAYER, self.side), _TURNS[tick.facing])
        self._stamp(frame, left, top, player, None)
        for chaser in tick.chasers:
            left, top = self._corner(chaser.x, chaser.y)
            self._stamp(frame, left, top, stamp(CHASER_INKS[chaser.name], self.side), None)
        return frame


def frames(
    maze: Maze, simulation: Simulation, options: AnimationOptions
) -> tuple[int, Iterator[Pixels]]:
    """How many frames the run from the simulation's current tick to its end makes, and the
    frames themselves, drawn lazily as Ink arrays.

    TooLargeError, before any drawing, when the frames would hold more than MAX_PIXELS pixels.
    """
    count = Simulation(maze, simulation.options).run().tick - simulation.tick + 1
    cell = options.cell
    geometry = Geometry(maze.width, maze.height, cell, _wall(cell), _MARGIN_CELLS * cell)
    width, height = geometry.width, geometry.height
    if width * height > MAX_PIXELS:
        raise TooLargeError(
            f"one frame of {width}x{height} px is over the limit of {MAX_PIXELS:,} pixels: "
            "use a smaller --cell"
        )
    most = MAX_PIXELS // (width * height)
    if count > most:
        raise TooLargeError(
            f"the run has {count} frames (ticks {simulation.tick} to "
            f"{simulation.tick + count - 1}), more than the {most} frames of {width}x{height} px "
            f"one animation may hold (at most {MAX_PIXELS:,} pixels in all); use --ticks "
            f"{most - 1} or less, or a smaller --cell"
        )
    painter = _Painter(maze, options)
    return count, (painter.frame(tick) for tick in simulation.ticks())


def render_animation(maze: Maze, simulation: Simulation, options: AnimationOptions) -> bytes:
    """The run drawn as an animated GIF or PNG; the last frame stays for a second.

    GIF frames are drawn as Pillow asks for them, so only Pillow's own copies stay in memory.
    """
    from PIL import Image  # only here: only the animation needs Pillow

    palette = [channel for rgb in palette_for(options.theme) for channel in rgb]

    def image(pixels: Pixels) -> Image.Image:
        picture = Image.frombuffer(
            "P", (pixels.shape[1], pixels.shape[0]), pixels, "raw", "P", 0, 1
        )
        picture.putpalette(palette)
        return picture

    count, pictures = frames(maze, simulation, options)
    step = round(1000 / options.fps)
    durations = [step] * (count - 1) + [max(step, _LAST_FRAME_MS)]
    first = image(next(pictures))
    rest = (image(pixels) for pixels in pictures)
    buffer = io.BytesIO()
    if options.format == "gif":
        first.save(
            buffer,
            format="GIF",
            save_all=True,
            append_images=rest,
            duration=durations,
            loop=0,
            optimize=False,
        )
    else:
        first.save(
            buffer,
            format="PNG",
            save_all=True,
            append_images=list(rest),  # the APNG writer walks its frames twice
            duration=durations,
            loop=0,
            default_image=False,
            compress_level=6,
        )
    return buffer.getvalue()
