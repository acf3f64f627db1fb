"""Shared test helpers: a CliRunner that keeps stderr apart, and small mazes built by hand."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings

from mazekit.cli import cli
from mazekit.model import Maze
from tests.background import Background

if TYPE_CHECKING:  # imported only when a test asks for the class (it picks an interpreter)
    from tests.grade_class import ClassRun

# Hypothesis profiles: "quick" for `make test` (few examples per property, to keep the suite
# short on two cores) and "thorough" for `make test-thorough` (24 times more).
# --hypothesis-profile or HYPOTHESIS_PROFILE picks one. A test sets no example count of its
# own; a property that costs more or less than most asks for a share of the profile's: scaled().
QUICK_EXAMPLES = 25
settings.register_profile(
    "quick",
    max_examples=QUICK_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def scaled(quick: int) -> int:
    """An example count of ``quick`` in the quick profile, scaled as the loaded profile is
    (thorough: 24 times); read when a test module is imported, after pytest_configure."""
    return max(1, round(quick * settings.default.max_examples / QUICK_EXAMPLES))


def pytest_configure(config: pytest.Config) -> None:
    """Load the profile once per run: --hypothesis-profile, else $HYPOTHESIS_PROFILE, else
    quick (not at import: test modules import this file again as tests.conftest); and undo
    an inherited ignored Ctrl-C."""
    chosen = config.getoption("--hypothesis-profile", default=None)
    settings.load_profile(chosen or os.environ.get("HYPOTHESIS_PROFILE", "quick"))
    # The Ctrl-C tests send SIGINT to mazekit processes started from here. A run started in
    # the background of a script (`make test &`) inherits an ignored SIGINT, which every child
    # would inherit too and mazekit rightly keeps ignored: give the children the usual Ctrl-C.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--update-golden``: rewrite the expected files of tests/golden from today's output."""
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite stdout, stderr and exit of every golden case (tests/golden/README.md)",
    )


# 4 x 2: east along the top row, south, west along the bottom row.
SMALL_MAZE = "D553\nD556\n\n0,0\n0,1\nEEESWWW\n"

Invoke = Callable[..., Result]


_GRADED_CLASS = pytest.StashKey[Background]()


def _graded_class(config: pytest.Config) -> Background:
    """The run's one grading of the class, made on first ask. Its folder lies beside the
    pytest-xdist workers' base folders, so that they share one grading; without workers it
    is the run's own."""
    if _GRADED_CLASS not in config.stash:
        folder = None
        if hasattr(config, "workerinput"):
            folder = Path(config.option.basetemp).parent / "graded-class"
        config.stash[_GRADED_CLASS] = Background("tests.grade_class", folder)
    return config.stash[_GRADED_CLASS]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start grading the class (tests.grade_class, ~15 s mostly waiting on programs) in the
    background as soon as a selected test is known to need it, and move those tests last."""
    if config.option.collectonly:
        return
    needing = [item for item in items if "graded_class" in getattr(item, "fixturenames", ())]
    if needing:
        # run them last (the same order in every worker, as pytest-xdist requires): by then
        # the grading is done and no worker waits for it
        chosen = set(needing)
        items[:] = [item for item in items if item not in chosen] + needing
        _graded_class(config).start()


def pytest_sessionfinish(session: pytest.Session) -> None:
    background = session.config.stash.get(_GRADED_CLASS, None)
    if background is not None:
        background.close()


@pytest.fixture(scope="session")
def graded_class(pytestconfig: pytest.Config) -> ClassRun:
    """tests/data/grade/class graded once for the session (tests.grade_class): the ranking,
    the verdicts and what grade's options did are read from this one run."""
    run: ClassRun = _graded_class(pytestconfig).result()  # started here if not at collection
    return run


@pytest.fixture
def invoke() -> Invoke:
    """Run ``mazekit ARGS`` in-process; stdout and stderr stay separate on the result."""

    def run(args: Sequence[str], input: str | bytes | None = None) -> Result:
        return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)

    return run


def closed_grid(width: int, height: int) -> np.ndarray:
    """A W x H grid with every wall closed."""
    return np.full((height, width), 15, dtype=np.uint8)


def open_wall(walls: np.ndarray, x: int, y: int, letter: str) -> None:
    """Open the wall of (x,y) towards ``letter`` on both sides, keeping coherence."""
    bits = {"N": (1, 0, -1, 4), "E": (2, 1, 0, 8), "S": (4, 0, 1, 1), "W": (8, -1, 0, 2)}
    bit, dx, dy, opposite = bits[letter]
    walls[y, x] &= ~np.uint8(bit)
    walls[y + dy, x + dx] &= ~np.uint8(opposite)


def open_room(
    width: int, height: int, entry: tuple[int, int] = (0, 0), exit: tuple[int, int] | None = None
) -> Maze:
    """A W x H room with every inner wall open (exit: the bottom-right corner by default)."""
    walls = closed_grid(width, height)
    for y in range(height):
        for x in range(width):
            if x + 1 < width:
                open_wall(walls, x, y, "E")
            if y + 1 < height:
                open_wall(walls, x, y, "S")
    return Maze(walls, entry, (width - 1, height - 1) if exit is None else exit)


@pytest.fixture
def terminals():
    """Start tests.terminal Terminals (programs in a pseudo-terminal); each is closed, its
    program killed if still running, at the end."""
    from tests.terminal import Terminal

    started: list[Terminal] = []

    def start(args: list[str], **options: object) -> Terminal:
        terminal = Terminal(args, **options)  # type: ignore[arg-type]
        started.append(terminal)
        return terminal

    yield start
    for terminal in started:
        terminal.close()


def ring(width: int, height: int) -> Maze:
    """A corridor around the border of a W x H grid: one loop of 2(W+H)-4 cells."""
    walls = closed_grid(width, height)
    for x in range(width - 1):
        open_wall(walls, x, 0, "E")
        open_wall(walls, x, height - 1, "E")
    for y in range(height - 1):
        open_wall(walls, 0, y, "S")
        open_wall(walls, width - 1, y, "S")
    return Maze(walls, (0, 0), (width - 1, height - 1))


def open_3x3_but_one() -> np.ndarray:
    """3 x 3, every inner wall open but (0,0)-(1,0): (0,0) is a real dead end whose only
    openable wall would complete an open 3x3 area (braiding must swap a wall instead)."""
    walls = closed_grid(3, 3)
    for y in range(3):
        for x in range(3):
            if x < 2 and (x, y) != (0, 0):
                open_wall(walls, x, y, "E")
            if y < 2:
                open_wall(walls, x, y, "S")
    return walls


def serpentine(width: int, height: int) -> Maze:
    """A one-corridor maze that snakes row by row, entry top-left, exit at the snake's end."""
    walls = closed_grid(width, height)
    path = []
    for y in range(height):
        step = "E" if y % 2 == 0 else "W"
        xs = range(width - 1) if y % 2 == 0 else range(width - 1, 0, -1)
        for x in xs:
            open_wall(walls, x, y, step)
            path.append(step)
        if y < height - 1:
            x_end = width - 1 if y % 2 == 0 else 0
            open_wall(walls, x_end, y, "S")
            path.append("S")
    end_x = width - 1 if (height - 1) % 2 == 0 else 0
    return Maze(walls, (0, 0), (end_x, height - 1), "".join(path))


def relief_board(invoke: Invoke, seed: int) -> str:
    """Issue 24's boards for --relieve and the page's Relieve: ``generate --width 30 --height
    20 --seed S --imperfect | pacmanize --min-loops 30``, as text."""
    made = invoke(
        ["generate", "--width", "30", "--height", "20", "--seed", str(seed), "--imperfect"]
    )
    assert made.exit_code == 0, made.stderr
    board = invoke(["pacmanize", "--min-loops", "30"], input=made.stdout)
    assert board.exit_code == 0, board.stderr
    return board.stdout
