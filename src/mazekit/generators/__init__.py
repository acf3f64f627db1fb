"""Maze generation: a registry of algorithms behind one interface, and ``generate()``.

Every algorithm is a module of this package with ``carve(grid, rng)``, which opens walls of a
``Grid`` (all closed at first, the "42" blocked) with a seeded ``random.Random`` until every
free cell is reached from the entry, and a flag ``PERFECT`` saying whether it carves a
spanning tree (no loop). An imperfect maze is the algorithm's maze
braided into a Pac-Man board by mazekit.braiding. specs/generate.md documents the whole command.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import import_module
from itertools import islice
from os import PathLike
from typing import TYPE_CHECKING, Any, Protocol, SupportsIndex

from ..config import (
    Config,
    Origin,
    check_count,
    check_geometry,
    check_seed,
    check_size,
    echo,
    load_config,
)
from ..errors import ConfigError
from ..model import Cell, Maze
from ..rng import draw_seed

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    import random

    from .grid import Grid

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "DEFAULT_HEIGHT",
    "DEFAULT_MAX_DEAD_ENDS",
    "DEFAULT_WIDTH",
    "Origins",
    "Request",
    "build",
    "check",
    "generate",
    "generate_from_config",
    "load_algorithm",
    "parse_algorithm",
]

# algorithm name -> module of this package
ALGORITHMS: dict[str, str] = {
    "backtracker": "backtracker",
    "prim": "prim",
    "kruskal": "kruskal",
    "wilson": "wilson",
    "hunt-and-kill": "hunt_and_kill",
    "flood": "flood",
}
DEFAULT_ALGORITHM = "backtracker"
DEFAULT_WIDTH, DEFAULT_HEIGHT = 20, 15
DEFAULT_MAX_DEAD_ENDS = 2


class Algorithm(Protocol):
    """What an algorithm module provides."""

    PERFECT: bool

    def carve(self, grid: Grid, rng: random.Random) -> None: ...


def parse_algorithm(name: str, text: str, source: str | None = None) -> str:
    """An algorithm name in any case (``--algorithm`` or ALGORITHM), as registered; ConfigError
    naming ``name`` for any other text."""
    if text.lower() in ALGORITHMS:
        return text.lower()
    raise ConfigError(f"{name} must be one of {', '.join(ALGORITHMS)}, got {echo(text)}", source)


def load_algorithm(name: str) -> Algorithm:
    """The module of a registered algorithm, imported on first use."""
    module: Algorithm = import_module(f"{__name__}.{ALGORITHMS[name]}")
    return module


@dataclass(frozen=True)
class Request:
    """Everything that decides a maze's bytes: same request, same mazekit version, same file."""

    width: int
    height: int
    entry: Cell
    exit: Cell
    perfect: bool
    seed: int
    algorithm: str = DEFAULT_ALGORITHM
    max_dead_ends: int = DEFAULT_MAX_DEAD_ENDS


@dataclass(frozen=True)
class Origins:
    """How messages name each setting of a Request (config key, option or argument)."""

    width: Origin
    height: Origin
    entry: Origin
    exit: Origin
    perfect: Origin
    seed: Origin
    algorithm: Origin
    max_dead_ends: Origin

    @classmethod
    def arguments(cls, *, entry_default: bool = False, exit_default: bool = False) -> Origins:
        """The Origins of the Python API: each setting named as its argument."""
        return cls(
            width=Origin("width"),
            height=Origin("height"),
            entry=Origin("entry", default=entry_default),
            exit=Origin("exit", default=exit_default),
            perfect=Origin("perfect"),
            seed=Origin("seed"),
            algorithm=Origin("algorithm"),
            max_dead_ends=Origin("max_dead_ends"),
        )


def check(request: Request, origins: Origins | None = None) -> None:
    """Refuse a request no maze can satisfy; ConfigError names the setting at fault."""
    origins = origins or Origins.arguments()
    for value, origin in ((request.width, origins.width), (request.height, origins.height)):
        check_size(origin.name, value, echo(value), origin.source)
    origin = origins.max_dead_ends
    check_count(origin.name, request.max_dead_ends, echo(request.max_dead_ends), origin.source)
    check_seed(origins.seed.name, request.seed, echo(request.seed), origins.seed.source)
    check_geometry(
        request.width,
        request.height,
        request.entry,
        request.exit,
        width_from=origins.width,
        height_from=origins.height,
        entry_from=origins.entry,
        exit_from=origins.exit,
    )
    if request.algorithm not in ALGORITHMS:
        origin = origins.algorithm
        raise ConfigError(
            f"{origin.name} must be one of {', '.join(ALGORITHMS)}, got {echo(request.algorithm)}",
            origin.source,
        )
    if request.perfect and not load_algorithm(request.algorithm).PERFECT:
        origin = origins.algorithm
        raise ConfigError(
            f"{origin.show(request.algorithm)} leaves loops, so it cannot make a perfect maze",
            origin.source,
        )
    small = min(request.width, request.height) < 2 or request.width * request.height < 6
    if not request.perfect and small:
        origin = origins.perfect
        raise ConfigError(
            f"{origin.show('False')} needs 2 loops, which a {request.width}x{request.height} "
            "maze cannot hold (use at least 2x3 or 3x2 cells)",
            origin.source,
        )


def build(request: Request) -> Maze:
    """Carve the maze a checked Request describes, braid it when imperfect, add its path."""
    from ..rng import make_rng
    from .grid import Grid

    rng = make_rng(request.seed)
    grid = Grid(request.width, request.height, request.entry, request.exit)
    algorithm = load_algorithm(request.algorithm)
    algorithm.carve(grid, rng)
    maze = Maze(grid.array(), request.entry, request.exit, grid.path or "")
    if not request.perfect:
        del grid  # its frames (2 bytes a cell) are done with: braiding has its own
        from ..analysis import Analysis
        from ..board import MIN_LOOPS
        from ..braiding import braid

        # Every algorithm reaches every free cell, every cell outside the "42" (a perfect one
        # by a spanning tree, without a loop): braiding starts from those facts instead of
        # labelling the grid again.
        facts = Analysis(maze)
        facts.know_reachable(~facts.pattern, 0 if algorithm.PERFECT else None)
        # braiding writes a new path: it may have made a shorter way
        return braid(
            maze, max_dead_ends=request.max_dead_ends, min_loops=MIN_LOOPS, rng=rng, facts=facts
        )
    if grid.path is None:  # a perfect maze: the one path of the tree just carved
        maze.path = grid.tree_path() or ""
    return maze


def _shown(value: object) -> str:
    """A value of the wrong type as messages show it: its type, then its repr, cut."""
    try:
        text = repr(value)
    except ValueError:  # an int too long for repr(), inside a tuple
        text = "..."
    cut = f"{text[:40]}..." if len(text) > 40 else text
    return f"{type(value).__name__} {cut}"


def _integer(value: object, name: str, what: str) -> int:
    """An int-like argument (numpy integers too, bool not) as an int; ConfigError otherwise."""
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise ConfigError(f"{name} must be {what}, got {_shown(value)}")
    return operator.index(value)


def _cell(value: object, name: str) -> Cell:
    """An (x, y) argument: a pair of int-likes, as a tuple of ints."""
    what = "two integers x,y"
    items = [] if isinstance(value, (str, bytes)) or not isinstance(value, Iterable) else value
    pair = list(islice(items, 3))  # never more: the argument may be an endless iterator
    if len(pair) != 2:
        raise ConfigError(f"{name} must be {what}, got {_shown(value)}")
    try:
        return _integer(pair[0], name, what), _integer(pair[1], name, what)
    except ConfigError:
        raise ConfigError(f"{name} must be {what}, got {_shown(value)}") from None


def generate(
    width: int,
    height: int,
    *,
    entry: Cell | None = None,
    exit: Cell | None = None,
    perfect: bool = True,
    seed: int | None = None,
    algorithm: str = DEFAULT_ALGORITHM,
    max_dead_ends: int = DEFAULT_MAX_DEAD_ENDS,
) -> Maze:
    """A new W x H maze with the "42" where it fits; ConfigError for an impossible request.

    entry defaults to (0, 0) and exit to (W-1, H-1); the same arguments and seed give the
    same maze. Without a seed one is drawn, so each call gives a new maze. An argument of the
    wrong type (``entry=(1.5, 2)``, ``seed="7"``) is a ConfigError too, never converted.
    """
    width = _integer(width, "width", "a positive integer")
    height = _integer(height, "height", "a positive integer")
    entry = None if entry is None else _cell(entry, "entry")
    exit = None if exit is None else _cell(exit, "exit")
    if not isinstance(perfect, bool):
        raise ConfigError(f"perfect must be True or False, got {_shown(perfect)}")
    seed = None if seed is None else _integer(seed, "seed", "an integer")
    if not isinstance(algorithm, str):
        raise ConfigError(
            f"algorithm must be one of {', '.join(ALGORITHMS)}, got {_shown(algorithm)}"
        )
    max_dead_ends = _integer(max_dead_ends, "max_dead_ends", "a non-negative integer")
    request = Request(
        width=width,
        height=height,
        entry=(0, 0) if entry is None else entry,
        exit=(width - 1, height - 1) if exit is None else exit,
        perfect=perfect,
        seed=draw_seed() if seed is None else seed,
        algorithm=algorithm,
        max_dead_ends=max_dead_ends,
    )
    check(request, Origins.arguments(entry_default=entry is None, exit_default=exit is None))
    return build(request)


_OVERRIDES = ("width", "height", "entry", "exit", "perfect", "seed", "algorithm", "max_dead_ends")


def generate_from_config(config: Config | str | PathLike[str], **overrides: Any) -> Maze:
    """The maze a config file (a Config or its path) describes, as ``mazekit generate CONFIG``
    makes it; ``overrides`` are ``generate()``'s arguments and win over the config's values.

    A config that cannot be read or is invalid raises its ConfigError (naming the file); the
    merged settings are checked as ``generate()`` checks its arguments.
    """
    if isinstance(config, (str, PathLike)):
        config = load_config(config)
    elif not isinstance(config, Config):
        raise TypeError(
            f"config must be a Config or the path of a config file, got {type(config).__name__}"
        )
    unknown = sorted(set(overrides) - set(_OVERRIDES))
    if unknown:
        raise TypeError(
            f"generate_from_config() got unknown override(s) {', '.join(unknown)} "
            f"(known: {', '.join(_OVERRIDES)})"
        )
    settings: dict[str, Any] = {
        "width": config.width,
        "height": config.height,
        "entry": config.entry,
        "exit": config.exit,
        "perfect": config.perfect,
        "seed": config.seed,
        "algorithm": config.algorithm if config.algorithm is not None else DEFAULT_ALGORITHM,
        "max_dead_ends": (
            config.max_dead_ends if config.max_dead_ends is not None else DEFAULT_MAX_DEAD_ENDS
        ),
    }
    settings.update(overrides)
    width, height = settings.pop("width"), settings.pop("height")
    return generate(width, height, **settings)
