"""``mazekit view``: the full-screen terminal viewer (specs/view.md).

The command reads its input like ``render`` (a maze file or stdin) or like ``generate`` (a
config file or options), checks that it has a terminal, and hands a Setup to the viewer.
"""

from __future__ import annotations

import locale
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

import click

from ..chasers import DEFAULT_TRAIL
from ..config import Config, looks_like_config, parse_config_bytes
from ..drawing import RenderOptions, check_maze
from ..drawing.scene import CHARSETS, Charset
from ..errors import MazeError, RunError
from ..generators import ALGORITHMS, build, parse_algorithm
from ..generators.settings import Plan, resolve
from ..model import Cell, Maze
from ..textformat import parse, read_bytes, source_name
from ._common import (
    CELL,
    COUNT,
    SEED_HELP,
    SIZE,
    ConfigValue,
    output_option,
    seed_option,
    write_output,
)
from .chase import chaser_options, trail_option
from .generate import config_clash

__all__ = ["command"]


@dataclass(frozen=True)
class _Given:
    """The generate options as read (None: not given), for generate's own resolve()."""

    width: int | None
    height: int | None
    entry: Cell | None
    exit: Cell | None
    perfect: bool | None
    seed: int | None
    algorithm: str | None
    max_dead_ends: int | None
    output: str | None

    def plan(self, config: Config | None, maze: Maze | None = None) -> Plan:
        """generate's settings from these options over ``config``, or over the size, entry and
        exit of ``maze`` (a maze read from a file); ConfigError as generate reports it."""
        width, height, entry, exit_ = self.width, self.height, self.entry, self.exit
        if maze is not None:
            width = width or maze.width
            height = height or maze.height
            entry = entry or maze.entry
            exit_ = exit_ or maze.exit
        return resolve(
            config,
            width=width,
            height=height,
            entry=entry,
            exit=exit_,
            perfect=self.perfect,
            seed=self.seed,
            algorithm=self.algorithm,
            max_dead_ends=self.max_dead_ends,
            output=self.output,
        )


def _save(text: str, target: str) -> str | None:
    """Write a maze file through the one writer; the error message instead of an exit."""
    try:
        write_output(text, target)
    except MazeError as error:
        return str(error)
    return None


def _saver(config: Config | None, given: bool) -> Callable[[str, str], str | None]:
    """What s writes with: _save, refusing (as generate does) a target that is the config
    file itself, checked at each save (the name may come to point at it)."""

    def save(text: str, target: str) -> str | None:
        clash = config_clash(config, target, given)
        return _save(text, target) if clash is None else str(clash)

    return save


def _stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (its own function so tests can pretend)."""
    return sys.stdout.isatty()


def _stdin_is_terminal() -> bool:
    """Whether standard input is a terminal (its own function so tests can pretend)."""
    return os.isatty(0)


def _keyboard() -> None:
    """Make the terminal the standard input, for curses, when stdin held the maze (or is not a
    terminal): as ``less`` does, keys come from /dev/tty."""
    if _stdin_is_terminal():
        return
    try:
        descriptor = os.open("/dev/tty", os.O_RDWR)
    except OSError as error:
        raise RunError(
            f"mazekit view needs a terminal to read keys: /dev/tty: {error.strerror or error}"
        ) from error
    os.dup2(descriptor, 0)
    os.close(descriptor)


def _locale_is_utf8() -> bool:
    """Whether curses will write UTF-8, which box-drawing characters need: the codeset of the
    locale the environment names, which the viewer sets (viewer.screen.run; the C locale when
    that one is not installed). Not locale.getpreferredencoding(), which says UTF-8 in
    Python's UTF-8 mode (LC_ALL=C turns it on) while curses then writes ASCII."""
    previous = locale.setlocale(locale.LC_ALL)
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:
        return False
    try:
        return locale.nl_langinfo(locale.CODESET).lower().replace("-", "") == "utf8"
    finally:
        locale.setlocale(locale.LC_ALL, previous)


@click.command(
    short_help="Show a maze full screen in the terminal, and play with it.",
    epilog="""\b
Examples:
  mazekit view maze.txt                 # look at a maze
  mazekit generate --seed 7 | mazekit view
  mazekit view config.txt               # generate as `generate config.txt` would; s saves
  mazekit view --width 40 --height 20 --imperfect
  mazekit view board.txt --starts corners --only blinky,pinky --trail 40

\b
Keys: r new maze, p path, c wall colour, 4 "42" colour, a algorithm, g chasers, n one tick,
s save, arrows scroll, ? help, q or Esc quit.
Chasers, as in mazekit chase: blinky (GR, B) chases the runner (@@), pinky (GP, P) ambushes
ahead of it, inky (GC, I) doubles blinky's vector, clyde (GO, C) keeps its distance; two on
one cell show their letters (BP), more the first letter and how many (B4).
Exit status: 0 quit, 1 bad maze or config or an impossible request, 2 usage error (a
malformed option value too) or no terminal, 130 Ctrl-C, 143 SIGTERM.""",
)
@click.argument("source", required=False, metavar="[FILE|CONFIG]")
@click.option("--width", type=SIZE, metavar="N", help="Columns of a generated maze [20].")
@click.option("--height", type=SIZE, metavar="N", help="Rows of a generated maze [15].")
@click.option("--entry", type=CELL, metavar="X,Y", help="Entry cell [0,0].")
@click.option("--exit", "exit_", type=CELL, metavar="X,Y", help="Exit cell [W-1,H-1].")
@click.option("--perfect/--imperfect", default=None, help="Perfect maze [default] or a board.")
@seed_option(SEED_HELP + " [SEED of CONFIG, else drawn at random; r draws another].")
@click.option(
    "--algorithm",
    type=ConfigValue("algorithm", parse_algorithm),
    metavar=f"[{'|'.join(ALGORITHMS)}]",
    help="How to carve, any case [backtracker].",
)
@click.option(
    "--max-dead-ends",
    type=COUNT,
    metavar="N",
    help="Imperfect only: at most N real dead ends [2].",
)
@click.option(
    "--charset",
    type=click.Choice(CHARSETS),
    default=None,
    help="Characters of the maze: ascii +--+ and |, unicode box drawing. Default: unicode in "
    "a UTF-8 locale, else ascii.",
)
@output_option("Where s saves [OUTPUT_FILE of CONFIG, else maze-SEED.txt or maze-view.txt].")
@chaser_options
@trail_option(
    f"Show each chaser's last N cells as a trail while the chase runs.  [default: {DEFAULT_TRAIL}]"
)
def command(
    source: str | None,
    width: int | None,
    height: int | None,
    entry: Cell | None,
    exit_: Cell | None,
    perfect: bool | None,
    seed: int | None,
    algorithm: str | None,
    max_dead_ends: int | None,
    charset: str | None,
    output: str | None,
    starts: str,
    places: dict[str, Cell],
    only: tuple[str, ...],
    trail: int | None,
) -> None:
    """Show a maze full screen in the terminal, and play with it.

    FILE is a maze file (stdin when missing or -, unless stdin is the terminal); CONFIG is a
    config file, generated from as `mazekit generate` would. Without either, the options
    describe the maze to generate. From a FILE, r and a make mazes of its size, entry and exit.
    """
    if not _stdout_is_terminal():
        raise RunError(
            "mazekit view needs a terminal: standard output is not one "
            "(mazekit render prints a maze as text)"
        )
    if output == "-":
        raise click.BadParameter(
            "view saves to a file, not to stdout", param_hint="'-o' / '--output'"
        )
    if source is None and not _stdin_is_terminal():
        source = "-"
    given = _Given(width, height, entry, exit_, perfect, seed, algorithm, max_dead_ends, output)
    if charset == "unicode" and not _locale_is_utf8():
        raise click.BadParameter(
            "unicode needs a UTF-8 locale (such as LANG=C.UTF-8): use --charset ascii",
            param_hint="'--charset'",
        )
    chosen: Charset = charset or ("unicode" if _locale_is_utf8() else "ascii")  # type: ignore[assignment]
    from ..chasers import ChaseOptions
    from ..viewer import Setup, Viewer  # numpy and the drawing only once the input is known

    chase = ChaseOptions(starts=starts, places=places, only=only)  # type: ignore[arg-type]

    config: Config | None = None
    maze: Maze | None = None
    if source is not None:  # MazeErrors are mapped to their message and exit 1 by the group
        data = read_bytes(source)
        if looks_like_config(data):
            config = parse_config_bytes(data, source_name(source))
        else:
            maze = parse(data, source=source_name(source))
            check_maze(maze, RenderOptions(format="text"), source_name(source))
    if maze is None:
        plan = given.plan(config)
        setup = Setup(
            maze=build(plan.request),
            save=_saver(config, output is not None),
            request=plan.request,
            generated=True,
            save_to=plan.output if plan.output != "-" else None,  # OUTPUT_FILE=-: no file
            charset=chosen,
            chase=chase,
            trail=trail,
        )
    else:
        try:
            request, why = given.plan(None, maze).request, None
        except MazeError as refusal:  # shown when r or a is pressed
            request, why = None, str(refusal)
        setup = Setup(
            maze=maze,
            save=_save,
            request=request,
            request_error=why,
            save_to=output,
            charset=chosen,
            chase=chase,
            trail=trail,
        )
    _keyboard()
    from ..viewer.screen import run, terminal_problem

    reason = terminal_problem()
    if reason is not None:
        raise RunError(f"mazekit view cannot drive this terminal: {reason}")
    run(Viewer(setup))
