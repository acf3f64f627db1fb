"""From a config file and command-line options to a checked Request and an output target.

Options override config values, config values override the defaults (specs/generate.md); each
setting keeps its Origin so that an error names it as the user wrote it: ``config.txt:
ENTRY=6,5`` for a config value, ``--entry=6,5`` for an option. Option values arrive read
already, by the same readers as config values (mazekit.config, through the CLI's value types),
so ``--width 0`` and ``WIDTH=0`` are refused with one message.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Config, Origin
from ..model import Cell
from ..rng import draw_seed
from . import (
    ALGORITHMS,
    DEFAULT_ALGORITHM,
    DEFAULT_HEIGHT,
    DEFAULT_MAX_DEAD_ENDS,
    DEFAULT_WIDTH,
    Origins,
    Request,
    check,
)

__all__ = ["Plan", "resolve"]


@dataclass(frozen=True)
class Plan:
    """A checked Request, and where the maze goes (None for stdout)."""

    request: Request
    output: str | None


def _pick(
    option: object, config_value: object, key: str, option_name: str, config: Config | None
) -> Origin:
    """The Origin of a setting: the option when given, else the config key, else a default."""
    if option is not None:
        return Origin(option_name)
    if config is not None and config_value is not None:
        return Origin(key, config.source)
    return Origin(option_name.removeprefix("--"), default=True)


def resolve(
    config: Config | None,
    *,
    width: int | None = None,
    height: int | None = None,
    entry: Cell | None = None,
    exit: Cell | None = None,
    perfect: bool | None = None,
    seed: int | None = None,
    algorithm: str | None = None,
    max_dead_ends: int | None = None,
    output: str | None = None,
) -> Plan:
    """Merge options (read values; None = not given) over ``config`` over the defaults, and
    check the final settings (generators.check); ConfigError names the config file or the
    option a bad setting came from."""
    c = config
    width_value, height_value, entry_value, exit_value = width, height, entry, exit
    seed_value, dead_ends_value = seed, max_dead_ends

    final_width = width_value if width_value is not None else (c.width if c else DEFAULT_WIDTH)
    final_height = height_value if height_value is not None else (c.height if c else DEFAULT_HEIGHT)
    final_entry = entry_value if entry_value is not None else (c.entry if c else (0, 0))
    default_exit = c.exit if c else (final_width - 1, final_height - 1)
    final_exit = exit_value if exit_value is not None else default_exit
    final_perfect = perfect if perfect is not None else (c.perfect if c else True)
    if algorithm is not None:
        name = algorithm
    elif c is not None and c.algorithm is not None:
        name = c.algorithm
    else:
        name = DEFAULT_ALGORITHM
    final_algorithm = name.lower() if name.lower() in ALGORITHMS else name
    if dead_ends_value is not None:
        final_dead_ends = dead_ends_value
    elif c is not None and c.max_dead_ends is not None:
        final_dead_ends = c.max_dead_ends
    else:
        final_dead_ends = DEFAULT_MAX_DEAD_ENDS
    final_seed = seed_value if seed_value is not None else (c.seed if c else None)
    request = Request(
        width=final_width,
        height=final_height,
        entry=final_entry,
        exit=final_exit,
        perfect=final_perfect,
        seed=draw_seed() if final_seed is None else final_seed,
        algorithm=final_algorithm,
        max_dead_ends=final_dead_ends,
    )
    if perfect is not None:
        perfect_from = Origin("--perfect" if perfect else "--imperfect", flag=True)
    else:
        perfect_from = _pick(None, c.perfect if c else None, "PERFECT", "--perfect", c)
    origins = Origins(
        width=_pick(width, c.width if c else None, "WIDTH", "--width", c),
        height=_pick(height, c.height if c else None, "HEIGHT", "--height", c),
        entry=_pick(entry, c.entry if c else None, "ENTRY", "--entry", c),
        exit=_pick(exit, c.exit if c else None, "EXIT", "--exit", c),
        perfect=perfect_from,
        seed=_pick(seed, c.seed if c else None, "SEED", "--seed", c),
        algorithm=_pick(algorithm, c.algorithm if c else None, "ALGORITHM", "--algorithm", c),
        max_dead_ends=_pick(
            max_dead_ends, c.max_dead_ends if c else None, "MAX_DEAD_ENDS", "--max-dead-ends", c
        ),
    )
    check(request, origins)
    if output is not None:
        target = None if output == "-" else output
    else:
        target = c.output_file if c else None
    return Plan(request, target)
