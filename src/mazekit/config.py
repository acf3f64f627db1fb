"""The subject's KEY=VALUE config file: parse it into a Config, with exact messages.

Keys are case-insensitive, blank lines and lines starting with ``#`` are ignored, and spaces
around keys and values are tolerated. Each message is listed in specs/errors.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import pattern as glyph
from .errors import ConfigError
from .model import Cell
from .textformat import MAX_CELLS

if TYPE_CHECKING:
    from os import PathLike

__all__ = [
    "KNOWN_KEYS",
    "MANDATORY_KEYS",
    "Config",
    "Origin",
    "check_geometry",
    "load_config",
    "parse_cell",
    "parse_config",
]

MANDATORY_KEYS = ("WIDTH", "HEIGHT", "ENTRY", "EXIT", "OUTPUT_FILE", "PERFECT")
OPTIONAL_KEYS = ("SEED", "ALGORITHM", "MAX_DEAD_ENDS")
KNOWN_KEYS = MANDATORY_KEYS + OPTIONAL_KEYS


@dataclass(frozen=True)
class Config:
    """The settings of one config file; ``source`` names it in messages."""

    width: int
    height: int
    entry: Cell
    exit: Cell
    output_file: str
    perfect: bool
    seed: int | None = None
    algorithm: str | None = None
    max_dead_ends: int | None = None
    source: str = "config"


def _excerpt(text: str) -> str:
    return f"'{text[:40]}...'" if len(text) > 40 else f"'{text}'"


def parse_cell(text: str) -> Cell | None:
    """``"x,y"`` as two integers (spaces allowed around each), or None when malformed."""
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0].strip()), int(parts[1].strip())
    except ValueError:
        return None


def _positive(key: str, value: str, source: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number <= 0:
        raise ConfigError(f"{key} must be a positive integer, got {_excerpt(value)}", source)
    return number


def parse_config(text: str, source: str = "config") -> Config:
    """Parse the text of a config file; ConfigError (naming ``source``) on the first problem."""
    values: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise ConfigError(f"line {number}: expected KEY=VALUE, got {_excerpt(line)}", source)
        key, _, value = line.partition("=")
        key = key.strip().upper()
        if key not in KNOWN_KEYS:
            raise ConfigError(
                f"line {number}: unknown key {_excerpt(key.strip())} "
                f"(known keys: {', '.join(KNOWN_KEYS)})",
                source,
            )
        if key in values:
            raise ConfigError(
                f"line {number}: duplicate key {key} (first set on line {first_line[key]})",
                source,
            )
        values[key] = value.strip()
        first_line[key] = number
    missing = [key for key in MANDATORY_KEYS if key not in values]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise ConfigError(f"missing mandatory key{plural} {', '.join(missing)}", source)

    width = _positive("WIDTH", values["WIDTH"], source)
    height = _positive("HEIGHT", values["HEIGHT"], source)
    if width * height > MAX_CELLS:
        raise ConfigError(
            f"WIDTH={width} and HEIGHT={height} make {width * height:,} cells, "
            f"over the limit of {MAX_CELLS:,}",
            source,
        )
    cells: dict[str, Cell] = {}
    for key in ("ENTRY", "EXIT"):
        cell = parse_cell(values[key])
        if cell is None:
            raise ConfigError(
                f"{key} must be two integers x,y, got {_excerpt(values[key])}", source
            )
        cells[key] = cell
    if not values["OUTPUT_FILE"]:
        raise ConfigError("OUTPUT_FILE must not be empty", source)
    perfect_text = values["PERFECT"].lower()
    if perfect_text not in ("true", "false"):
        raise ConfigError(
            f"PERFECT must be True or False, got {_excerpt(values['PERFECT'])}", source
        )
    seed: int | None = None
    if "SEED" in values:
        try:
            seed = int(values["SEED"])
        except ValueError:
            raise ConfigError(
                f"SEED must be an integer, got {_excerpt(values['SEED'])}", source
            ) from None
    max_dead_ends: int | None = None
    if "MAX_DEAD_ENDS" in values:
        try:
            max_dead_ends = int(values["MAX_DEAD_ENDS"])
        except ValueError:
            max_dead_ends = -1
        if max_dead_ends < 0:
            raise ConfigError(
                "MAX_DEAD_ENDS must be a non-negative integer, got "
                f"{_excerpt(values['MAX_DEAD_ENDS'])}",
                source,
            )
    return Config(
        width=width,
        height=height,
        entry=cells["ENTRY"],
        exit=cells["EXIT"],
        output_file=values["OUTPUT_FILE"],
        perfect=perfect_text == "true",
        seed=seed,
        algorithm=values.get("ALGORITHM") or None,
        max_dead_ends=max_dead_ends,
        source=source,
    )


def load_config(path: str | PathLike[str]) -> Config:
    """Read and parse a config file; ConfigError names the file when it cannot be read."""
    source = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise ConfigError(f"cannot read: {error.strerror or error}", source) from error
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError("cannot read: not UTF-8 text", source) from None
    return parse_config(text, source)


@dataclass(frozen=True)
class Origin:
    """Where a setting came from, so that a message names it as the user wrote it.

    ``name`` is a config key (``ENTRY``), an option (``--entry``) or an argument (``entry``);
    ``source`` is the config file, or None for an option or argument; ``default`` marks a value
    nobody gave; ``flag`` marks an option that takes no value (``--imperfect``).
    """

    name: str
    source: str | None = None
    default: bool = False
    flag: bool = False

    def show(self, value: str) -> str:
        """The setting and its value: ``ENTRY=6,5``, ``--entry=6,5``, ``the default exit 9,4``."""
        if self.default:
            return f"the default {self.name.lstrip('-').lower()} {value}"
        if self.flag:
            return self.name
        return f"{self.name}={value}"


def _sourced(*origins: Origin) -> str | None:
    """The config file a message names: that of the first setting that came from one."""
    return next((o.source for o in origins if o.source is not None), None)


def _xy(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def check_geometry(
    width: int,
    height: int,
    entry: Cell,
    exit: Cell,
    *,
    width_from: Origin = Origin("WIDTH"),
    height_from: Origin = Origin("HEIGHT"),
    entry_from: Origin = Origin("ENTRY"),
    exit_from: Origin = Origin("EXIT"),
) -> None:
    """Refuse a size over the cell limit, and an entry or exit outside, shared, or on the "42".

    One check for config values and option values alike; each message names the setting as
    its Origin says, and the ConfigError's source is the config file when one was involved.
    """
    if width * height > MAX_CELLS:
        raise ConfigError(
            f"{width_from.show(str(width))} and {height_from.show(str(height))} make "
            f"{width * height:,} cells, over the limit of {MAX_CELLS:,}",
            _sourced(width_from, height_from),
        )
    for cell, origin in ((entry, entry_from), (exit, exit_from)):
        x, y = cell
        if not (0 <= x < width and 0 <= y < height):
            raise ConfigError(
                f"{origin.show(_xy(cell))} is outside the {width}x{height} maze", origin.source
            )
    if entry == exit:
        raise ConfigError(
            f"{entry_from.show(_xy(entry))} and {exit_from.show(_xy(exit))} are the same cell",
            _sourced(exit_from, entry_from),
        )
    on_pattern = set(glyph.pattern_cells(width, height))
    for cell, origin in ((entry, entry_from), (exit, exit_from)):
        if cell in on_pattern:
            raise ConfigError(f'{origin.show(_xy(cell))} lies on the "42" pattern', origin.source)
