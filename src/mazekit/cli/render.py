"""``mazekit render``: draw a maze as PNG, SVG, terminal text or an HTML page (specs/render.md)."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import Any

import click

from ..drawing import (
    FORMATS,
    THEMES,
    Format,
    RenderOptions,
    check_maze,
    format_from_name,
    render_chunks,
)
from ..drawing.scene import CHARSETS
from ..drawing.theme import DEFAULT_THEME, RGB, parse_color
from ..errors import ConfigError, MazeError, printable
from ._common import (
    MAX_PIXELS,
    display_name,
    input_argument,
    integers,
    output_option,
    read_input,
    write_output,
)

__all__ = ["command"]


# option name -> ink key of RenderOptions.colors
_COLOR_OPTIONS: dict[str, tuple[str, str]] = {
    "background": ("background", "Background and margin."),
    "wall_color": ("wall", "Walls."),
    "path_color": ("path", "The path from entry to exit."),
    "pattern_color": ("pattern", 'Fully closed cells: the "42".'),
    "entry_color": ("entry", "The entry cell."),
    "exit_color": ("exit", "The exit cell."),
    "dead_end_color": ("dead_end", "Real dead ends (--dead-ends)."),
    "enclosed_color": ("enclosed", "Enclosed dead ends (--dead-ends)."),
}


class ColorType(click.ParamType):  # type: ignore[type-arg]
    """A colour option value: #RGB, #RRGGBB or a basic colour name."""

    name = "color"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> RGB:
        if isinstance(value, tuple):
            return value  # already converted (a default or a second pass)
        try:
            return parse_color(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


def _color_options(function: Any) -> Any:
    """One ``--*-color`` option per ink, all with the same type and no default."""
    for name, (_, help_text) in reversed(_COLOR_OPTIONS.items()):
        flag = "--background" if name == "background" else "--" + name.replace("_", "-")
        function = click.option(
            flag, name, type=ColorType(), default=None, metavar="COLOR", help=help_text
        )(function)
    return function


def _stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (its own function so tests can pretend)."""
    return sys.stdout.isatty()


def _format(output: str | None, output_format: str | None) -> Format:
    """The output format: --format, else the extension of -o, else text."""
    if output_format is not None:
        return output_format  # type: ignore[return-value]  # a click.Choice of FORMATS
    if output is None or output == "-":
        return "text"
    found = format_from_name(output)
    if found is None:
        raise click.UsageError(
            f"cannot tell the format of '{printable(output)}': name it .png, .svg, .txt or "
            ".html, or give --format png|svg|text|html"
        )
    return found


@click.command(
    short_help="Draw a maze as PNG, SVG, text or an HTML page.",
    epilog="""\b
Examples:
  mazekit render maze.txt                     text picture on stdout
  mazekit render maze.txt -o maze.png         PNG (format from the extension)
  mazekit render maze.txt -o maze.svg --theme dark --dead-ends
  mazekit solve maze.txt | mazekit render --charset unicode
  mazekit render maze.txt --format png -o - | display
  mazekit render board.txt --heat betweenness -o heat.png
  mazekit render board.txt -o board.html      a page with the chasers, editable
A COLOR is #RGB, #RRGGBB or a name (red, gold, navy... in any case); unset, the theme's.
Exit status: 0 drawn, 1 unreadable or undrawable maze, 2 usage error.""",
)
@input_argument
@output_option("Write to PATH, atomically; '-' = stdout. Default: stdout.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format. Default: from the extension of -o (.png, .svg, .txt, .html), else text.",
)
@click.option(
    "--cell",
    type=integers(2, MAX_PIXELS),
    default=16,
    show_default=True,
    metavar="N",
    help="Cell size in pixels, wall included, 2 to 10,000 (png, svg).",
)
@click.option(
    "--wall",
    type=integers(1, MAX_PIXELS),
    default=2,
    show_default=True,
    metavar="N",
    help="Wall thickness in pixels, at least 1 and less than --cell (png, svg).",
)
@click.option(
    "--margin",
    type=integers(0, MAX_PIXELS),
    default=8,
    show_default=True,
    metavar="N",
    help="Empty border around the maze in pixels (png, svg).",
)
@click.option(
    "--theme",
    type=click.Choice(list(THEMES)),
    default=DEFAULT_THEME,
    show_default=True,
    help="Colour set: " + "; ".join(f"{t.name}: {t.summary}" for t in THEMES.values()) + ".",
)
@_color_options
@click.option(
    "--path/--no-path",
    "show_path",
    default=None,
    help="Draw no path (--no-path), or compute a shortest one when the file has none "
    "(--path). Default: the file's path, if any.",
)
@click.option("--dead-ends", is_flag=True, help="Mark real and enclosed dead ends.")
@click.option(
    "--heat",
    type=click.Choice(("betweenness", "distance")),
    default=None,
    help="Colour each reachable cell by its betweenness (top bottlenecks ringed) or its "
    "distance from the entry, with a legend (png, svg); no path unless --path.",
)
@click.option(
    "--charset",
    type=click.Choice(CHARSETS),
    default="ascii",
    show_default=True,
    help="Characters of the text picture: ascii +--+ and |, unicode box drawing.",
)
@click.option(
    "--color",
    "color_mode",
    type=click.Choice(("auto", "always", "never")),
    default="auto",
    show_default=True,
    help="ANSI colours in text: auto = only on a terminal. None at all while NO_COLOR is "
    "set, even with always.",
)
def command(
    file: str,
    output: str | None,
    output_format: str | None,
    cell: int,
    wall: int,
    margin: int,
    theme: str,
    show_path: bool | None,
    dead_ends: bool,
    heat: str | None,
    charset: str,
    color_mode: str,
    **colors: RGB | None,
) -> None:
    """Draw the maze FILE (stdin when missing or -) as PNG, SVG or text.

    Walls black, "42" cells gray, entry magenta, exit red, the path in blue; every colour
    can be changed. Text goes to stdout unless -o is given.
    """
    kind = _format(output, output_format)
    if heat is not None and kind not in ("png", "svg"):  # text or html: a usage error, not a crash
        raise click.UsageError("--heat draws png or svg: name the output .png or .svg")
    to_stdout = output is None or output == "-"
    to_terminal = to_stdout and _stdout_is_terminal()
    if kind == "png" and to_terminal:
        raise MazeError("refusing to write a PNG to a terminal: redirect stdout or use -o FILE.png")
    ansi = color_mode == "always" or (color_mode == "auto" and to_terminal)
    if os.environ.get("NO_COLOR"):
        ansi = False
    chosen = {_COLOR_OPTIONS[name][0]: rgb for name, rgb in colors.items() if rgb is not None}
    try:
        options = RenderOptions(
            format=kind,
            cell=cell,
            wall=wall,
            margin=margin,
            theme=theme,
            colors=chosen,
            path=show_path,
            charset=charset,  # type: ignore[arg-type]  # a click.Choice
            ansi=ansi,
        )
    except ConfigError as error:
        raise click.BadParameter(error.message, param_hint=f"'--{error.source}'") from error
    moot = show_path is False or (heat is not None and show_path is None)  # no path drawn
    maze = read_input(file, ignore_path=moot)  # then the path line is moot
    source = display_name(file)
    check_maze(maze, options, source)  # the size limit, before the dead ends are computed
    if dead_ends:
        from ..analysis import dead_ends as find_dead_ends  # only --dead-ends needs it

        options = replace(options, dead_ends=find_dead_ends(maze))
    if heat is not None:
        from ..drawing.heat import heat_chunks  # specs/render.md, "Heat maps"

        write_output(heat_chunks(maze, options, heat, source), output)
        return
    data = render_chunks(maze, options, source)  # text and SVG are made as they are written
    write_output(data, output)
