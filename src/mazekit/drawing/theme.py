"""Colours and themes shared by every renderer: the inks a picture uses and how to spell them.

A theme is a name and one colour per ink. PNG and SVG paint with these colours; the text
renderer maps the same inks to fixed ANSI codes. New themes go in THEMES, and the CLI's
--theme choices come from it. A ``board`` theme (pacman) draws more than colours: double-line
walls, dots, energizers, the player and the ghosts (specs/render.md, "Themes").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum

from ..errors import ConfigError

__all__ = [
    "CHASER_INKS",
    "COLOR_NAMES",
    "DEFAULT_THEME",
    "PLAIN_INKS",
    "RGB",
    "THEMES",
    "Ink",
    "Palette",
    "Theme",
    "hex_color",
    "palette_for",
    "parse_color",
]

RGB = tuple[int, int, int]


class Ink(IntEnum):
    """What a pixel shows; the value is its index in a PNG palette and its paint order."""

    BACKGROUND = 0
    WALL = 1
    PATTERN = 2
    DEAD_END = 3
    ENCLOSED = 4
    ENTRY = 5
    EXIT = 6
    PATH = 7
    # the pacman theme's sprites (specs/pacman.md), drawn over the cells
    DOT = 8
    ENERGIZER = 9
    PLAYER = 10
    GHOST_RED = 11
    GHOST_PINK = 12
    GHOST_CYAN = 13
    GHOST_ORANGE = 14
    EYES = 15
    PUPIL = 16

    @property
    def key(self) -> str:
        """The ink's name in options and themes: ``dead_end``, ``wall``..."""
        return self.name.lower()


# Each chaser's ink wherever mazekit draws a chase: chase's animation and view's board.
CHASER_INKS: dict[str, Ink] = {
    "blinky": Ink.GHOST_RED,
    "pinky": Ink.GHOST_PINK,
    "inky": Ink.GHOST_CYAN,
    "clyde": Ink.GHOST_ORANGE,
}

Palette = tuple[RGB, ...]  # indexed by Ink
PLAIN_INKS = Ink.PATH + 1  # the inks of the plain themes: a PNG palette has at least these

# A small, fixed vocabulary: the CSS basic colours plus the few this project's themes use.
COLOR_NAMES: dict[str, RGB] = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "gray": (128, 128, 128),
    "grey": (128, 128, 128),
    "silver": (192, 192, 192),
    "red": (255, 0, 0),
    "maroon": (128, 0, 0),
    "orange": (255, 165, 0),
    "yellow": (255, 255, 0),
    "gold": (255, 215, 0),
    "olive": (128, 128, 0),
    "lime": (0, 255, 0),
    "green": (0, 128, 0),
    "cyan": (0, 255, 255),
    "aqua": (0, 255, 255),
    "teal": (0, 128, 128),
    "blue": (0, 0, 255),
    "navy": (0, 0, 128),
    "magenta": (255, 0, 255),
    "fuchsia": (255, 0, 255),
    "purple": (128, 0, 128),
}

_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def parse_color(text: str) -> RGB:
    """``#RGB``, ``#RRGGBB`` or a name of COLOR_NAMES (any case) as an RGB triple."""
    spelled = text.strip().lower()
    if spelled in COLOR_NAMES:
        return COLOR_NAMES[spelled]
    match = _HEX.fullmatch(spelled)
    if match is None:
        raise ValueError(
            f"{text!r} is not a colour: use #RGB, #RRGGBB or a name "
            f"({', '.join(sorted(set(COLOR_NAMES) - {'grey', 'aqua', 'fuchsia'}))})"
        )
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def hex_color(rgb: RGB) -> str:
    """The ``#rrggbb`` spelling of a colour, as SVG writes it."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


@dataclass(frozen=True)
class Theme:
    """A named set of colours, one per ink, a one-line summary for --help, and whether it
    draws a Pac-Man board (double-line walls and sprites; no entry, exit or path unless asked).
    """

    name: str
    colors: Mapping[Ink, RGB]
    summary: str
    board: bool = False


# The board's sprites, in the arcade's colours; the plain themes never draw them.
_SPRITES: dict[Ink, RGB] = {
    Ink.DOT: (255, 184, 151),
    Ink.ENERGIZER: (255, 184, 151),
    Ink.PLAYER: (255, 255, 0),
    Ink.GHOST_RED: (255, 0, 0),
    Ink.GHOST_PINK: (255, 184, 255),
    Ink.GHOST_CYAN: (0, 255, 255),
    Ink.GHOST_ORANGE: (255, 184, 82),
    Ink.EYES: (255, 255, 255),
    Ink.PUPIL: (33, 33, 255),
}

_SHARED: dict[Ink, RGB] = {
    Ink.ENTRY: (255, 0, 255),  # magenta (specs/render.md)
    Ink.EXIT: (255, 0, 0),  # red
    **_SPRITES,
}

THEMES: dict[str, Theme] = {
    "light": Theme(
        "light",
        {
            Ink.BACKGROUND: (255, 255, 255),
            Ink.WALL: (0, 0, 0),
            Ink.PATTERN: (128, 128, 128),
            Ink.DEAD_END: (255, 140, 0),
            Ink.ENCLOSED: (255, 215, 0),
            Ink.PATH: (30, 144, 255),
            **_SHARED,
        },
        "black walls on white (the default)",
    ),
    "dark": Theme(
        "dark",
        {
            Ink.BACKGROUND: (17, 17, 17),
            Ink.WALL: (224, 224, 224),
            Ink.PATTERN: (96, 96, 96),
            Ink.DEAD_END: (255, 140, 0),
            Ink.ENCLOSED: (255, 215, 0),
            Ink.PATH: (0, 191, 255),
            **_SHARED,
        },
        "light walls on near-black",
    ),
    "pacman": Theme(
        "pacman",
        {
            **_SHARED,
            Ink.BACKGROUND: (0, 0, 0),
            Ink.WALL: (33, 33, 255),
            Ink.PATTERN: (25, 25, 166),
            Ink.DEAD_END: (255, 140, 0),
            Ink.ENCLOSED: (255, 215, 0),
            Ink.PATH: (0, 191, 255),
        },
        "a Pac-Man board: blue double walls on black, dots, energizers, player, ghosts",
        board=True,
    ),
}
# What render, its page and chase's animation draw with when no --theme is given: one default,
# so the GIF and the page look alike.
DEFAULT_THEME = "light"


def palette_for(theme: str, overrides: Mapping[str, RGB | str] | None = None) -> Palette:
    """The theme's colours with ``overrides`` (ink key -> colour) applied, indexed by Ink."""
    if theme not in THEMES:
        raise ConfigError(f"unknown theme {theme!r} (known: {', '.join(THEMES)})", "theme")
    colors = dict(THEMES[theme].colors)
    by_key = {ink.key: ink for ink in Ink}
    for key, value in (overrides or {}).items():
        if key not in by_key:
            raise ConfigError(f"unknown ink {key!r} (known: {', '.join(by_key)})", "colors")
        try:
            colors[by_key[key]] = parse_color(value) if isinstance(value, str) else _rgb(value)
        except ValueError as error:
            raise ConfigError(str(error), f"colors[{key!r}]") from error
    return tuple(colors[ink] for ink in Ink)


def _rgb(value: RGB) -> RGB:
    """Check an RGB triple given as numbers."""
    if len(value) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in value):
        raise ValueError(f"{value!r} is not a colour: an RGB triple has three integers 0-255")
    return (int(value[0]), int(value[1]), int(value[2]))
