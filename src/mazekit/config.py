"""The subject's KEY=VALUE config file: parse it into a Config, with exact messages.

Keys are case-insensitive, blank lines and lines starting with ``#`` are ignored, and spaces
around keys and values are tolerated. The readers of single values (parse_size, parse_cell...)
and their range checks also serve ``mazekit generate``'s options and ``mazekit.generate()``'s
arguments, so a value is refused with one message wherever it came from, naming the key, the
option or the argument. Each message is listed in specs/errors.md.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import pattern as glyph
from .errors import ConfigError, MazeError, printable
from .model import Cell
from .textformat import MAX_CELLS, read_bytes, source_name

if TYPE_CHECKING:
    from os import PathLike

__all__ = [
    "CELL_LIMIT",
    "KNOWN_KEYS",
    "MANDATORY_KEYS",
    "MAX_DIGITS",
    "MAX_JOBS",
    "Config",
    "Origin",
    "check_count",
    "check_geometry",
    "check_integer",
    "check_seed",
    "check_size",
    "dump_config",
    "echo",
    "every_core",
    "is_cell_text",
    "load_config",
    "looks_like_config",
    "parse_cell",
    "parse_config",
    "parse_config_bytes",
    "parse_count",
    "parse_integer",
    "parse_jobs",
    "parse_seed",
    "parse_size",
]

MANDATORY_KEYS = ("WIDTH", "HEIGHT", "ENTRY", "EXIT", "OUTPUT_FILE", "PERFECT")
OPTIONAL_KEYS = ("SEED", "ALGORITHM", "MAX_DEAD_ENDS")
KNOWN_KEYS = MANDATORY_KEYS + OPTIONAL_KEYS

# Messages quote at most this many characters of a value, then "...".
ECHO_LIMIT = 40
# A seed, or a coordinate, has at most this many significant digits. Longer numbers are never
# converted (int() refuses very long strings, and slowly): no setting could accept them.
MAX_DIGITS = 40
_TOO_LONG = 10**MAX_DIGITS

_UNSIGNED = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"-?[0-9]+")


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

    def output_leaves(self, folder: str) -> bool:
        """Whether OUTPUT_FILE, taken in ``folder``, names a file outside it: an absolute
        path, a ``..`` step, or a folder reached through a link out of it (a submission's
        config is its author's to write; grade refuses the same names)."""
        import os

        name = self.output_file
        if os.path.isabs(name) or ".." in name.split("/"):
            return True
        parent = os.path.realpath(os.path.dirname(os.path.join(folder, name)))
        root = os.path.realpath(folder)
        return os.path.commonpath([root, parent]) != root


def _cut(text: str) -> str:
    """A value as messages quote it: at most ECHO_LIMIT characters, control bytes escaped."""
    return printable(f"{text[:ECHO_LIMIT]}..." if len(text) > ECHO_LIMIT else text)


def _excerpt(text: str) -> str:
    return f"'{_cut(text)}'"


def _int_text(value: int) -> str:
    """The decimal digits of ``value``; only the first 50 or so when it is too long for str()."""
    if value.bit_length() < 10_000:  # about 3,000 digits: under Python's str() limit
        return str(value)
    sign = "-" if value < 0 else ""
    shift = int(value.bit_length() * math.log10(2)) - 50  # keeps 50 or 51 leading digits
    return f"{sign}{abs(value) // 10**shift}"


def echo(value: object) -> str:
    """A refused value as messages quote it: ``'0'``, cut to 40 characters plus ``...``."""
    return _excerpt(_int_text(value) if isinstance(value, int) else str(value))


def _integer(text: str, *, signed: bool = False) -> int | None:
    """``text`` as an int when it is ASCII digits (after one ``-`` when signed), else None.

    Leading zeros are allowed; ``+``, ``_``, spaces and non-ASCII digits are not. A number of
    more than MAX_DIGITS significant digits is not converted: it comes back as
    +-10**MAX_DIGITS, larger than any setting accepts (messages quote the text, not this).
    """
    if not (_SIGNED if signed else _UNSIGNED).fullmatch(text):
        return None
    digits = text.lstrip("-").lstrip("0")
    value = _TOO_LONG if len(digits) > MAX_DIGITS else int(digits or "0")
    return -value if text.startswith("-") else value


# Why a count or a side is bounded by MAX_CELLS, as its message says.
CELL_LIMIT = "the cell limit"
# -j at most: more processes than this would only share the same cores.
MAX_JOBS = 1024


def _at_least(low: int) -> str:
    """What an integer setting of at least ``low`` must be, as its messages say it."""
    if low == 0:
        return "a non-negative integer"
    return "a positive integer" if low == 1 else f"an integer of at least {low}"


def check_integer(
    name: str, value: int, got: str, low: int, high: int, limit: str = "", source: str | None = None
) -> int:
    """An integer setting from ``low`` to ``high``: the one range check of every count, size,
    tick, frame rate, pixel size and ``-j``. ``got`` is the value as the message quotes it;
    ``limit`` says why ``high`` (``the cell limit``), or nothing."""
    if value < low:
        raise ConfigError(f"{name} must be {_at_least(low)}, got {got}", source)
    if value > high:
        why = f" ({limit})" if limit else ""
        raise ConfigError(f"{name} must be at most {high:,}{why}, got {got}", source)
    return value


def parse_integer(
    name: str, text: str, low: int, high: int, limit: str = "", source: str | None = None
) -> int:
    """An integer setting (a config key or an option) from its text: ASCII digits only, spaces
    around it ignored; ConfigError naming ``name`` otherwise, or out of ``low`` .. ``high``."""
    value = _integer(text.strip(_BLANKS))
    if value is None:
        raise ConfigError(f"{name} must be {_at_least(low)}, got {_excerpt(text)}", source)
    return check_integer(name, value, _excerpt(text), low, high, limit, source)


def check_size(name: str, value: int, got: str, source: str | None = None) -> int:
    """A width or height: 1 .. the cell limit. ``got`` is the value as the message quotes it."""
    return check_integer(name, value, got, 1, MAX_CELLS, CELL_LIMIT, source)


def check_count(name: str, value: int, got: str, source: str | None = None) -> int:
    """A number of dead ends: 0 .. the cell limit."""
    return check_integer(name, value, got, 0, MAX_CELLS, CELL_LIMIT, source)


def check_seed(name: str, value: int, got: str, source: str | None = None) -> int:
    """A seed: any integer of at most MAX_DIGITS digits, negative ones included."""
    if abs(value) >= _TOO_LONG:
        raise ConfigError(
            f"{name} must be an integer of at most {MAX_DIGITS} digits, got {got}", source
        )
    return value


def parse_size(name: str, text: str, source: str | None = None) -> int:
    """WIDTH or HEIGHT (or ``--width``...) from its text; ConfigError naming ``name``."""
    return parse_integer(name, text, 1, MAX_CELLS, CELL_LIMIT, source)


def parse_count(name: str, text: str, source: str | None = None) -> int:
    """MAX_DEAD_ENDS (or ``--max-dead-ends``) from its text."""
    return parse_integer(name, text, 0, MAX_CELLS, CELL_LIMIT, source)


def parse_jobs(name: str, text: str, source: str | None = None) -> int:
    """``-j N``: N processes or threads, 1 .. MAX_JOBS, and 0 for every core this process may
    use, so every command reads ``-j 0`` alike and its core gets a count it can use."""
    return parse_integer(name, text, 0, MAX_JOBS, "", source) or every_core()


def every_core() -> int:
    """How many cores this process may run on (its affinity where the platform tells)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


def parse_seed(name: str, text: str, source: str | None = None) -> int:
    """SEED (or ``--seed``) from its text: ASCII digits, with a leading ``-`` allowed."""
    value = _integer(text.strip(_BLANKS), signed=True)
    if value is None:
        raise ConfigError(f"{name} must be an integer, got {_excerpt(text)}", source)
    return check_seed(name, value, _excerpt(text), source)


def is_cell_text(text: str) -> bool:
    """Whether ``text`` is spelled as parse_cell reads a cell: ``x,y``, two integers.

    For options that hold a cell inside a longer value (edit's ``X,Y,D``, chase's
    ``NAME=X,Y``): they refuse another spelling in their own words, then read the cell with
    parse_cell, so a cell is read one way everywhere.
    """
    parts = [_integer(part.strip(_BLANKS), signed=True) for part in text.split(",")]
    return len(parts) == 2 and None not in parts


def parse_cell(name: str, text: str, source: str | None = None) -> Cell:
    """ENTRY or EXIT (or ``--entry``...) from ``x,y``: two integers, spaces allowed around each.

    Whether the cell lies inside the grid is checked later (check_geometry), against the final
    size; a coordinate of more than MAX_DIGITS digits lies outside every grid, and says so here.
    """
    parts = [_integer(part.strip(_BLANKS), signed=True) for part in text.split(",")]
    if len(parts) != 2 or parts[0] is None or parts[1] is None:
        raise ConfigError(f"{name} must be two integers x,y, got {_excerpt(text)}", source)
    x, y = parts[0], parts[1]
    if abs(x) >= _TOO_LONG or abs(y) >= _TOO_LONG:
        raise ConfigError(f"{Origin(name).show(text)} is outside every maze", source)
    return x, y


# Spaces and tabs around keys and values are tolerated; other control characters are content.
_BLANKS = " \t"


def _lines(text: str) -> list[str]:
    """The lines of a config file: they end at LF (or CRLF) only, never at a form feed,
    vertical tab, NEL or U+2028, which str.splitlines would also split on."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def parse_config(text: str, source: str = "config") -> Config:
    """Parse the text of a config file; ConfigError (naming ``source``) on the first problem."""
    values: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for number, raw in enumerate(_lines(text), start=1):
        line = raw.strip(_BLANKS)
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise ConfigError(f"line {number}: expected KEY=VALUE, got {_excerpt(line)}", source)
        key, _, value = line.partition("=")
        key = key.strip(_BLANKS).upper()
        if key not in KNOWN_KEYS:
            raise ConfigError(
                f"line {number}: unknown key {_excerpt(key)} (known keys: {', '.join(KNOWN_KEYS)})",
                source,
            )
        if key in values:
            raise ConfigError(
                f"line {number}: duplicate key {key} (first set on line {first_line[key]})",
                source,
            )
        values[key] = value.strip(_BLANKS)
        first_line[key] = number
        if key == "OUTPUT_FILE" and "\0" in values[key]:
            raise ConfigError(
                f"line {number}: OUTPUT_FILE must not contain a NUL byte, "
                f"got {_excerpt(values[key])}",
                source,
            )
    missing = [key for key in MANDATORY_KEYS if key not in values]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise ConfigError(f"missing mandatory key{plural} {', '.join(missing)}", source)

    width = parse_size("WIDTH", values["WIDTH"], source)
    height = parse_size("HEIGHT", values["HEIGHT"], source)
    if width * height > MAX_CELLS:
        raise ConfigError(
            f"WIDTH={width} and HEIGHT={height} make {width * height:,} cells, "
            f"over the limit of {MAX_CELLS:,}",
            source,
        )
    entry = parse_cell("ENTRY", values["ENTRY"], source)
    exit = parse_cell("EXIT", values["EXIT"], source)
    if not values["OUTPUT_FILE"]:
        raise ConfigError("OUTPUT_FILE must not be empty", source)
    perfect_text = values["PERFECT"].lower()
    if perfect_text not in ("true", "false"):
        raise ConfigError(
            f"PERFECT must be True or False, got {_excerpt(values['PERFECT'])}", source
        )
    seed = parse_seed("SEED", values["SEED"], source) if "SEED" in values else None
    max_dead_ends = (
        parse_count("MAX_DEAD_ENDS", values["MAX_DEAD_ENDS"], source)
        if "MAX_DEAD_ENDS" in values
        else None
    )
    return Config(
        width=width,
        height=height,
        entry=entry,
        exit=exit,
        output_file=values["OUTPUT_FILE"],
        perfect=perfect_text == "true",
        seed=seed,
        algorithm=values.get("ALGORITHM"),
        max_dead_ends=max_dead_ends,
        source=source,
    )


def load_config(path: str | PathLike[str]) -> Config:
    """Read and parse a config file, or stdin for ``-`` (as ``mazekit view`` reads one);
    ConfigError names the file (``<stdin>``) when it cannot be read.

    It is read as a maze file is (textformat.read_bytes): at most MAX_INPUT_BYTES, so
    ``mazekit generate /dev/zero`` (or an endless pipe) stops at once instead of filling the
    memory before any line is looked at.
    """
    try:
        raw = read_bytes(path)
    except MazeError as error:
        raise ConfigError(error.message, error.source) from error
    return parse_config_bytes(raw, source_name(path))


def parse_config_bytes(raw: bytes, source: str = "config") -> Config:
    """Parse the bytes of a config file (UTF-8, a BOM tolerated), e.g. read from stdin."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError("cannot read: not UTF-8 text", source) from None
    return parse_config(text, source)


def looks_like_config(raw: bytes) -> bool:
    """Whether input is a config file rather than a maze: its first line that is not blank
    or a ``#`` comment holds ``=`` (a maze file starts with hex digits)."""
    for line in raw.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(b"#"):
            return b"=" in stripped
    return False


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
            return f"the default {self.name.lstrip('-').lower()} {_cut(value)}"
        if self.flag:
            return self.name
        return f"{self.name}={_cut(value)}"


def _sourced(*origins: Origin) -> str | None:
    """The config file a message names: that of the first setting that came from one."""
    return next((o.source for o in origins if o.source is not None), None)


def _xy(cell: Cell) -> str:
    return f"{_int_text(cell[0])},{_int_text(cell[1])}"


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
            f"{width_from.show(_int_text(width))} and {height_from.show(_int_text(height))} make "
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


def dump_config(config: Config) -> str:
    """The text of a config file that parse_config reads back as ``config`` (source aside).

    The mandatory keys first, in the subject's order, then the optional ones that are set.
    The values are written as they are, unchecked: a grader writes impossible configs too.
    """
    lines = [
        f"WIDTH={config.width}",
        f"HEIGHT={config.height}",
        f"ENTRY={config.entry[0]},{config.entry[1]}",
        f"EXIT={config.exit[0]},{config.exit[1]}",
        f"OUTPUT_FILE={config.output_file}",
        f"PERFECT={config.perfect}",
    ]
    if config.seed is not None:
        lines.append(f"SEED={config.seed}")
    if config.algorithm is not None:
        lines.append(f"ALGORITHM={config.algorithm}")
    if config.max_dead_ends is not None:
        lines.append(f"MAX_DEAD_ENDS={config.max_dead_ends}")
    return "\n".join(lines) + "\n"
