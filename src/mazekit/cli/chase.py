"""``mazekit chase``: run the four chasers against a runner, say how it ended (specs/chase.md)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from ..chasers import (
    DEFAULT_STARTS,
    DEFAULT_TRAIL,
    MODES,
    NAMES,
    RESULTS,
    STARTS,
    ChaseOptions,
    Outcome,
    Simulation,
)
from ..config import is_cell_text, parse_cell
from ..drawing.theme import DEFAULT_THEME, THEMES
from ..errors import ConfigError, MazeError, printable
from ..model import Cell
from ._common import (
    COUNT,
    MAX_PIXELS,
    display_name,
    input_argument,
    integers,
    output_option,
    read_input,
    write_output,
)

__all__ = ["chaser_options", "command", "trail_option"]

_NAME = re.compile(r"\s*([a-z]+)\s*")
_SCHEDULE = re.compile(r"\s*[0-9]{1,9}\s*(,\s*[0-9]{1,9}\s*)*")
_IMAGES = (".gif", ".png", ".apng")  # .png and .apng: an animated PNG
_TEXT_SUFFIXES = {"txt": "text", "json": "json", "jsonl": "jsonl"}
_LINES_PER_CHUNK = 1000
F = TypeVar("F", bound=Callable[..., Any])
_KNOWN = ", ".join(NAMES)
MAX_TICKS = 10**9  # --ticks at most: a longer run is a slip, not a game


def _shown(value: str) -> str:
    """An option value as messages quote it, cut to 40 characters."""
    return repr(value if len(value) <= 40 else value[:40] + "...")


def _places(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, Cell]:
    """``--place NAME=X,Y``, repeatable; a later one for the same name wins."""
    places: dict[str, Cell] = {}
    for value in values:
        written, _, cell = value.partition("=")
        match = _NAME.fullmatch(written)
        if match is None or not is_cell_text(cell):
            raise click.BadParameter(f"expected NAME=X,Y (e.g. pinky=3,4), got {_shown(value)}")
        name = match.group(1)
        if name not in NAMES:
            raise click.BadParameter(f"unknown chaser {name!r} (known: {_KNOWN})")
        # read as every option reads a cell (solve's --from): a negative or long coordinate is
        # a start outside the grid, which the run refuses (exit 1)
        try:
            places[name] = parse_cell(f"--place {name}", cell)
        except ConfigError as error:  # a coordinate of more than 40 digits
            raise click.UsageError(error.message, ctx) from None
    return places


def _only(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...]:
    """``--only NAMES``: a comma list of chaser names."""
    if value is None:
        return ()
    names = tuple(name.strip() for name in value.split(","))
    for name in names:
        if name not in NAMES:
            raise click.BadParameter(f"unknown chaser {_shown(name)} (known: {_KNOWN})")
    return names


def _schedule(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...]:
    """``--schedule LIST``: positive tick counts separated by commas."""
    if value is None:
        return ()
    counts = tuple(int(n) for n in value.split(",")) if _SCHEDULE.fullmatch(value) else ()
    if not counts or 0 in counts:
        raise click.BadParameter(
            f"expected positive tick counts separated by commas, got {_shown(value)}"
        )
    return counts


def chaser_options(function: F) -> F:
    """``--starts``, ``--place`` and ``--only``: where the chasers start and which run, one
    spelling for ``chase`` and ``view``."""
    function = click.option(
        "--only",
        metavar="NAMES",
        callback=_only,
        help=f"Run only these chasers, a comma list of {_KNOWN}.",
    )(function)
    function = click.option(
        "--place",
        "places",
        metavar="NAME=X,Y",
        multiple=True,
        callback=_places,
        help="Start chaser NAME on cell X,Y instead (repeatable).",
    )(function)
    return click.option(
        "--starts",
        type=click.Choice(STARTS),
        default=DEFAULT_STARTS,
        show_default=True,
        help="house: all four start together on the reachable cell nearest the centre; "
        "corners: each on its corner of the grid.",
    )(function)


def trail_option(help_text: str) -> Callable[[F], F]:
    """``--trail N``: how many of each chaser's last cells its fading trail shows."""
    return click.option("--trail", type=COUNT, default=None, metavar="N", help=help_text)


def _output_format(output: str | None, chosen: str | None, animate: bool) -> str | None:
    """The --format of a text output: as given, else from the name of -o (.txt, .json,
    .jsonl); a name it can tell nothing from is refused as render refuses it."""
    if chosen is not None or animate or output is None or output == "-":
        return chosen
    suffix = output.lower().rpartition(".")[2] if "." in output.rpartition("/")[2] else ""
    found = _TEXT_SUFFIXES.get(suffix)
    if found is None:
        raise click.UsageError(
            f"cannot tell the format of '{printable(output)}': name it .gif, .png or .apng "
            "(an animation), or .txt, .json or .jsonl, or give --format text|json|jsonl"
        )
    return found


def _json(simulation: Simulation, outcome: Outcome) -> str:
    """The result as one JSON object on one line."""
    import json

    document = {
        "result": outcome.result,
        "tick": outcome.tick,
        "by": outcome.by,
        "cell": list(outcome.cell),
        "ticks": simulation.options.ticks,
        "modes": simulation.mode_counts(),
    }
    return json.dumps(document) + "\n"


def _jsonl(simulation: Simulation) -> Iterator[bytes]:
    """The whole trace, one JSON object per tick from tick 0, in chunks of lines as it runs."""
    import json

    dumps = json.dumps
    lines: list[str] = []
    for tick in simulation.ticks():
        lines.append(dumps(tick.to_dict()))
        if len(lines) == _LINES_PER_CHUNK:
            yield ("\n".join(lines) + "\n").encode()
            lines.clear()
    if lines:
        yield ("\n".join(lines) + "\n").encode()


@click.command(
    short_help="Run the four Pac-Man chasers against a runner.",
    epilog="""\b
Examples:
  mazekit chase board.txt                       caught by pinky at tick 37 at (5,4)
  mazekit chase board.txt --format jsonl > trace.jsonl
  mazekit chase board.txt --runner patrol --only blinky,inky --ticks 500
  mazekit chase board.txt --starts corners --place pinky=10,7 --mode chase --expect escaped
  mazekit chase board.txt -o chase.gif --fps 12 --cell 12 --trail 40
Exit status: 0 done (and the result was the one --expect names), 1 unreadable maze, a maze
the chasers cannot run on, or another result than --expect; 2 usage error.""",
)
@input_argument
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "jsonl"]),
    default=None,
    help="The result as one line (text, the default) or one JSON object, or the whole trace "
    "as one JSON object per tick (jsonl).",
)
@click.option(
    "--expect",
    type=click.Choice(RESULTS),
    default=None,
    help="Exit 1 when the run ends otherwise (the output is written all the same).",
)
@click.option(
    "--runner",
    type=click.Choice(["path", "patrol"]),
    default="path",
    show_default=True,
    help="path: walk the path line once and escape; patrol: walk it back and forth for good.",
)
@chaser_options
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default=None,
    help="One mode for the whole run instead of the schedule.",
)
@click.option(
    "--schedule",
    metavar="LIST",
    callback=_schedule,
    help="Tick counts alternating scatter, chase, scatter...; the next mode then holds. "
    "Default: 56,160,56,160,40,160,40.",
)
@click.option(
    "--pass-through/--no-pass-through",
    default=True,
    help="Whether a runner and a chaser that swap cells in one tick pass (default) or it "
    "is a catch.",
)
@click.option(
    "--ticks",
    type=integers(0, MAX_TICKS),
    default=10000,
    show_default=True,
    metavar="N",
    help="Stop after N ticks (at most 1,000,000,000).",
)
@output_option(
    "Write to PATH, atomically; a .gif, .png or .apng name draws the run as an animation "
    "(an animated PNG for .png and .apng), a .txt, .json or .jsonl name gets that --format. "
    "Default: stdout."
)
@click.option(
    "--fps",
    type=integers(1, 50),
    default=None,
    metavar="N",
    help="Frames (ticks) per second of the animation, 1 to 50.  [default: 8]",
)
@click.option(
    "--cell",
    type=integers(4, MAX_PIXELS),
    default=None,
    metavar="N",
    help="Cell size of the animation in pixels, 4 to 10,000.  [default: 16]",
)
@click.option(
    "--theme",
    type=click.Choice(list(THEMES)),
    default=None,
    help=f"Colours of the animation, as for render.  [default: {DEFAULT_THEME}]",
)
@trail_option(
    f"Draw each chaser's last N cells as a fading trail in the animation.  "
    f"[default: {DEFAULT_TRAIL}]"
)
def command(
    file: str,
    output_format: str | None,
    expect: str | None,
    runner: str,
    starts: str,
    places: dict[str, Cell],
    only: tuple[str, ...],
    mode: str | None,
    schedule: tuple[int, ...],
    pass_through: bool,
    ticks: int,
    output: str | None,
    fps: int | None,
    cell: int | None,
    theme: str | None,
    trail: int | None,
) -> None:
    """Run the four Pac-Man chasers on the maze FILE (stdin when missing or -).

    A runner walks the maze's path from the entry to the exit, one cell per tick; the four
    chasers leave their house, the reachable cell nearest the centre, and chase it by the
    arcade's rules: blinky (red) chases the runner's cell, pinky (pink) ambushes 4 cells ahead
    of it, inky (cyan) doubles the vector from blinky to 2 cells ahead of it, and clyde
    (orange) chases from 8 cells away or more and heads for its corner nearer. Prints whether
    the runner was caught, escaped or is still running; --format jsonl gives every tick,
    -o chase.gif draws them.
    """
    animate = output is not None and output.lower().endswith(_IMAGES)
    output_format = _output_format(output, output_format, animate)
    if animate and output_format is not None:
        raise click.UsageError(
            f"--format {output_format} cannot be combined with -o {output}: "
            "a .gif, .png or .apng name draws the animation"
        )
    if not animate and (fps, cell, theme, trail) != (None, None, None, None):
        raise click.UsageError(
            "--fps, --cell, --theme and --trail apply only to an animation "
            "(-o NAME.gif, NAME.png or NAME.apng)"
        )
    if mode is not None and schedule:
        raise click.UsageError(
            "--mode and --schedule cannot be combined: --mode fixes one mode for the whole run"
        )
    settings: dict[str, Any] = {"schedule": schedule} if schedule else {}
    options = ChaseOptions(
        runner=runner,  # type: ignore[arg-type]  # a click.Choice
        mode=mode,  # type: ignore[arg-type]  # a click.Choice
        places=places,
        only=only,
        pass_through=pass_through,
        ticks=ticks,
        starts=starts,  # type: ignore[arg-type]  # a click.Choice
        **settings,
    )
    source = display_name(file)
    maze = read_input(file, ignore_path=True)  # a bad path line: the runner walks solve's
    try:
        simulation = Simulation(maze, options)
        if animate:
            from ..drawing.animation import AnimationOptions, render_animation

            assert output is not None  # animate says so
            picture = AnimationOptions(
                format="gif" if output.lower().endswith(".gif") else "png",
                fps=8 if fps is None else fps,
                cell=16 if cell is None else cell,
                theme=DEFAULT_THEME if theme is None else theme,
                trail=DEFAULT_TRAIL if trail is None else trail,
            )
            data: bytes | str | Iterator[bytes] = render_animation(maze, simulation, picture)
        elif output_format == "jsonl":
            data = _jsonl(simulation)
        else:
            outcome = simulation.run()
            data = (
                _json(simulation, outcome) if output_format == "json" else f"{outcome.describe()}\n"
            )
    except MazeError as error:
        if error.source is None:
            error.source = source
        raise
    write_output(data, output)
    outcome = simulation.run()
    if expect is not None and outcome.result != expect:
        result = f"result {outcome.result}, expected {expect} ({outcome.describe()})"
        raise MazeError(result, source)
