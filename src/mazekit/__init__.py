"""mazekit: Unix-style tools for the hex wall-per-cell maze files of the 42 A-Maze-ing project.

The public API is re-exported here lazily, so ``import mazekit`` stays cheap: numpy and the
rest load only when a name is first used.
"""

from __future__ import annotations

# Nothing slow is imported here: the process entry (mazekit.__main__) loads this package
# before it can guard Ctrl-C, so even ``typing`` waits (TYPE_CHECKING as the typing docs allow).
TYPE_CHECKING = False
__version__ = "0.7.0"

# public name -> (module, attribute)
_EXPORTS: dict[str, tuple[str, str]] = {
    "Maze": ("mazekit.model", "Maze"),
    "MazeError": ("mazekit.errors", "MazeError"),
    "FormatError": ("mazekit.errors", "FormatError"),
    "ConfigError": ("mazekit.errors", "ConfigError"),
    "read_maze": ("mazekit.textformat", "read"),
    "write_maze": ("mazekit.textformat", "write"),
    "parse_maze": ("mazekit.textformat", "parse"),
    "dump_maze": ("mazekit.textformat", "dump"),
    "validate": ("mazekit.rules", "validate"),
    "render": ("mazekit.drawing", "render"),
    "Report": ("mazekit.rules", "Report"),
    "Violation": ("mazekit.rules", "Violation"),
    "load_config": ("mazekit.config", "load_config"),
    "generate": ("mazekit.generators", "generate"),
    "dead_ends": ("mazekit.analysis", "dead_ends"),
    "braid": ("mazekit.braiding", "braid"),
    "pacmanize": ("mazekit.pacman", "pacmanize"),
    "stats": ("mazekit.measures", "stats"),
    "Stats": ("mazekit.measures", "Stats"),
    "DeadEnds": ("mazekit.board", "DeadEnds"),
    "BoardError": ("mazekit.errors", "BoardError"),
    "solve": ("mazekit.solvers", "solve"),
    # issue 11: the API for graders
    "render_bytes": ("mazekit.drawing", "picture_bytes"),
    "generate_from_config": ("mazekit.generators", "generate_from_config"),
    # issue 12: the chase
    "chase": ("mazekit.chasers", "chase"),
    "ChaseOptions": ("mazekit.chasers", "ChaseOptions"),
    "Simulation": ("mazekit.chasers", "Simulation"),
}

__all__ = [
    "BoardError",
    "ChaseOptions",
    "ConfigError",
    "DeadEnds",
    "FormatError",
    "Maze",
    "MazeError",
    "Report",
    "Simulation",
    "Stats",
    "Violation",
    "__version__",
    "braid",
    "chase",
    "dead_ends",
    "dump_maze",
    "generate",
    "generate_from_config",
    "load_config",
    "pacmanize",
    "parse_maze",
    "read_maze",
    "render",
    "render_bytes",
    "solve",
    "stats",
    "validate",
    "write_maze",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from typing import Any

    from .analysis import dead_ends
    from .board import DeadEnds
    from .braiding import braid
    from .chasers import ChaseOptions, Simulation, chase
    from .config import load_config
    from .drawing import picture_bytes as render_bytes
    from .drawing import render
    from .errors import BoardError, ConfigError, FormatError, MazeError
    from .generators import generate, generate_from_config
    from .measures import Stats, stats
    from .model import Maze
    from .pacman import pacmanize
    from .rules import Report, Violation, validate
    from .solvers import solve
    from .textformat import dump as dump_maze
    from .textformat import parse as parse_maze
    from .textformat import read as read_maze
    from .textformat import write as write_maze


def __getattr__(name: str) -> Any:
    from importlib import import_module

    try:
        module, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'mazekit' has no attribute {name!r}") from None
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
