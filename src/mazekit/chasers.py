"""The chasers: one movement kernel, four target functions and the mode schedule (specs/chase.md).

Steps of a tick: the runner steps along its path; the mode is read, and a change of mode makes
every chaser reverse; each chaser in turn picks its target and moves one cell, to the open
neighbour (never back, unless forced) nearest its target, ties in N, W, S, E order; then a
chaser on the runner's cell catches it. numpy serves only the setup (open steps, components);
the tick itself is a tight loop over flat tables of Python ints. Its JavaScript twin is the
page's src/mazekit/drawing/page/chase.js (the browser tests hold the two traces equal).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from .board import house
from .errors import MazeError
from .model import BY_LETTER, EAST, NORTH, SOUTH, WEST, Cell, Maze
from .search import component_labels, flat_open_bits, shortest_path

__all__ = [
    "DEFAULT_SCHEDULE",
    "DEFAULT_STARTS",
    "DEFAULT_TRAIL",
    "LETTERS",
    "MODES",
    "NAMES",
    "RESULTS",
    "ROLES",
    "STARTS",
    "Chase",
    "ChaseOptions",
    "ChaserTick",
    "Outcome",
    "Simulation",
    "Tick",
    "Trails",
    "blinky_target",
    "chase",
    "clyde_target",
    "inky_target",
    "pinky_target",
    "runner_path",
    "scatter_targets",
    "start_cells",
    "starts",
]

NAMES: tuple[str, ...] = ("blinky", "pinky", "inky", "clyde")
MODES: tuple[str, ...] = ("scatter", "chase")
RESULTS: tuple[str, ...] = ("caught", "escaped", "running")
DEFAULT_SCHEDULE: tuple[int, ...] = (56, 160, 56, 160, 40, 160, 40)
# Where the chasers start (specs/chase.md, "Starts"): together on the house cell (the default),
# or each on its corner of the grid. The page reads the default from its JSON.
STARTS: tuple[str, ...] = ("house", "corners")
DEFAULT_STARTS = "house"
# How many of its last cells each chaser's trail shows, in the animation, the page and view:
# enough for a chaser circling its corner in scatter mode to draw the whole loop.
DEFAULT_TRAIL = 24
# What each chaser does, for help texts and the page.
ROLES: Mapping[str, str] = MappingProxyType(
    {
        "blinky": "the direct chaser",
        "pinky": "the ambush",
        "inky": "the two-body chaser",
        "clyde": "the distance switcher",
    }
)

# The chasers' directions, in their tie order N, W, S, E; the opposite of d is d ^ 2.
LETTERS = "NWSE"
_STEPS: tuple[Cell, ...] = ((0, -1), (-1, 0), (0, 1), (1, 0))
_BITS: tuple[int, ...] = (NORTH, WEST, SOUTH, EAST)
_NONE = -1  # no heading yet, no mode yet
_SCATTER, _CHASE = 0, 1
_INDEX = {letter: d for d, letter in enumerate(LETTERS)}


def starts(width: int, height: int) -> dict[str, Cell]:
    """Each chaser's corner of the grid, where ``--starts corners`` starts it."""
    return {
        "blinky": (width - 1, 0),
        "pinky": (0, 0),
        "inky": (width - 1, height - 1),
        "clyde": (0, height - 1),
    }


def start_cells(maze: Maze, rule: str = DEFAULT_STARTS) -> dict[str, Cell]:
    """Each chaser's start by ``rule``: all on the house cell (board.house), or the corners.

    MazeError when the rule is ``house`` and the maze has none (no cell but the entry and the
    exit can be reached from the entry).
    """
    if rule == "corners":
        return starts(maze.width, maze.height)
    if rule != "house":
        raise ValueError(f"starts must be one of {', '.join(STARTS)}, got {rule!r}")
    cell = house(maze)
    if cell is None:
        raise MazeError(
            "the chasers have no house: no cell but the entry and the exit can be reached "
            "(use --starts corners or --place)"
        )
    return dict.fromkeys(NAMES, cell)


def scatter_targets(width: int, height: int) -> dict[str, Cell]:
    """Each chaser's scatter target: a point outside the grid beyond its corner."""
    return {
        "blinky": (width + 1, -2),
        "pinky": (-2, -2),
        "inky": (width + 1, height + 1),
        "clyde": (-2, height + 1),
    }


def _ahead(runner: Cell, facing: int, cells: int) -> Cell:
    """``cells`` steps ahead of the runner, and as many west too when it faces N (overflow)."""
    dx, dy = _STEPS[facing]
    x, y = runner[0] + cells * dx, runner[1] + cells * dy
    return (x - cells, y) if facing == 0 else (x, y)


def blinky_target(runner: Cell, facing: int, own: Cell, blinky: Cell | None, corner: Cell) -> Cell:
    """Blinky chases the runner's cell itself."""
    return runner


def pinky_target(runner: Cell, facing: int, own: Cell, blinky: Cell | None, corner: Cell) -> Cell:
    """Pinky ambushes 4 cells ahead of the runner (and 4 west too when it faces N)."""
    return _ahead(runner, facing, 4)


def inky_target(runner: Cell, facing: int, own: Cell, blinky: Cell | None, corner: Cell) -> Cell:
    """Inky doubles the vector from blinky to Q, 2 cells ahead of the runner: 2Q - B."""
    qx, qy = _ahead(runner, facing, 2)
    if blinky is None:
        return (qx, qy)
    return (2 * qx - blinky[0], 2 * qy - blinky[1])


def clyde_target(runner: Cell, facing: int, own: Cell, blinky: Cell | None, corner: Cell) -> Cell:
    """Clyde chases the runner from 8 cells away or more, and heads for its corner nearer."""
    dx, dy = own[0] - runner[0], own[1] - runner[1]
    return runner if dx * dx + dy * dy >= 64 else corner


_TARGETS = {
    "blinky": blinky_target,
    "pinky": pinky_target,
    "inky": inky_target,
    "clyde": clyde_target,
}


@dataclass(frozen=True)
class ChaseOptions:
    """Everything that shapes a run besides the maze; ValueError for a value that cannot be."""

    runner: Literal["path", "patrol"] = "path"
    mode: Literal["chase", "scatter"] | None = None
    schedule: tuple[int, ...] = DEFAULT_SCHEDULE
    places: Mapping[str, Cell] = field(default_factory=dict)
    only: tuple[str, ...] = ()
    pass_through: bool = True
    ticks: int = 10000
    starts: Literal["house", "corners"] = "house"

    def __post_init__(self) -> None:
        if self.runner not in ("path", "patrol"):
            raise ValueError(f"runner must be 'path' or 'patrol', got {self.runner!r}")
        if self.starts not in STARTS:
            raise ValueError(f"starts must be 'house' or 'corners', got {self.starts!r}")
        if self.mode is not None and self.mode not in MODES:
            raise ValueError(f"mode must be None, 'chase' or 'scatter', got {self.mode!r}")
        schedule = tuple(self.schedule)
        if not all(_is_int(n) and n > 0 for n in schedule):
            raise ValueError(f"schedule must be positive integers, got {self.schedule!r}")
        object.__setattr__(self, "schedule", schedule)
        only = tuple(self.only)
        for name in (*only, *self.places):
            if name not in NAMES:
                raise ValueError(f"unknown chaser {name!r} (known: {', '.join(NAMES)})")
        object.__setattr__(self, "only", only)
        places: dict[str, Cell] = {}
        for name, cell in self.places.items():
            if len(cell) != 2 or not all(_is_int(v) for v in cell):
                raise ValueError(f"the place of {name} must be two integers (x, y), got {cell!r}")
            places[name] = (int(cell[0]), int(cell[1]))
        object.__setattr__(self, "places", MappingProxyType(places))
        if not _is_int(self.ticks) or self.ticks < 0:
            raise ValueError(f"ticks must be a non-negative integer, got {self.ticks!r}")
        if not isinstance(self.pass_through, bool):
            raise ValueError(f"pass_through must be True or False, got {self.pass_through!r}")

    def __hash__(self) -> int:
        """Hashable like the frozen dataclass it is, its read-only places mapping included."""
        fields = (
            self.runner,
            self.mode,
            self.schedule,
            self.only,
            self.pass_through,
            self.ticks,
            self.starts,
        )
        return hash((*fields, tuple(sorted(self.places.items()))))

    @property
    def names(self) -> tuple[str, ...]:
        """The chasers that run, in the order they act."""
        return tuple(name for name in NAMES if not self.only or name in self.only)


def _is_int(value: object) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


class Outcome(NamedTuple):
    """How a run ended: ``result`` caught/escaped/running, at ``tick``, ``by`` whom, where."""

    result: str
    tick: int
    by: str | None
    cell: Cell

    def describe(self) -> str:
        """The outcome in one line, as ``mazekit chase`` prints it and the viewer shows it."""
        if self.result == "caught":
            return f"caught by {self.by} at tick {self.tick} at ({self.cell[0]},{self.cell[1]})"
        if self.result == "escaped":
            return f"escaped at tick {self.tick}"
        return f"still running after {self.tick} tick{'' if self.tick == 1 else 's'}"


@dataclass(frozen=True)
class ChaserTick:
    """One chaser after a tick: its cell, heading letter and the target it moved by."""

    name: str
    x: int
    y: int
    heading: str | None
    target: Cell | None


@dataclass(frozen=True)
class Tick:
    """The state after one tick: what one line of the ``--format jsonl`` trace holds."""

    tick: int
    mode: str | None
    runner: Cell
    facing: str
    chasers: tuple[ChaserTick, ...]
    event: str | None

    def to_dict(self) -> dict[str, Any]:
        """The JSONL object of specs/chase.md, keys in their order."""
        return {
            "tick": self.tick,
            "mode": self.mode,
            "runner": {"x": self.runner[0], "y": self.runner[1], "facing": self.facing},
            "chasers": [
                {
                    "name": c.name,
                    "x": c.x,
                    "y": c.y,
                    "heading": c.heading,
                    "target": None if c.target is None else [c.target[0], c.target[1]],
                }
                for c in self.chasers
            ],
            "event": self.event,
        }


class Trails:
    """Each chaser's last cells before its current one, oldest first: the fading trails the
    animation and the viewer draw (the page keeps its own, by the same rule). Fed every tick
    in order; a tick 0 starts them afresh."""

    def __init__(self, length: int = DEFAULT_TRAIL) -> None:
        if not _is_int(length) or length < 0:
            raise ValueError(f"a trail length must be a non-negative integer, got {length!r}")
        self.length = length
        self._cells: dict[str, deque[Cell]] = {}

    def add(self, tick: Tick) -> None:
        """Record where each chaser stands after ``tick``."""
        if tick.tick == 0:
            self._cells = {}
        for chaser in tick.chasers:
            cells = self._cells.setdefault(chaser.name, deque(maxlen=self.length + 1))
            cells.append((chaser.x, chaser.y))

    def cells(self, name: str) -> tuple[Cell, ...]:
        """The chaser's last cells before its current one, at most ``length``, oldest first."""
        cells = self._cells.get(name, ())
        return tuple(cells)[:-1]


def _path_reaches_exit(maze: Maze, bits: list[int]) -> bool:
    """Whether the maze's path line walks from the entry to the exit through open walls only.

    ``bits`` are the open steps per flat cell (search.flat_open_bits): a step they allow never
    leaves the grid.
    """
    if not maze.path:
        return False
    width = maze.width
    x, y = maze.entry
    for letter in maze.path:
        step = BY_LETTER[letter]
        if not bits[y * width + x] & step.bit:
            return False
        x, y = x + step.dx, y + step.dy
    return (x, y) == maze.exit


def runner_path(maze: Maze) -> str:
    """The runner's path: the path line when it leads to the exit, else the one solve writes.

    MazeError when the entry or exit lies outside the grid, when they are the same cell, or
    when the exit cannot be reached.
    """
    return _runner_path(maze, flat_open_bits(maze.walls))


def _runner_path(maze: Maze, bits: list[int]) -> str:
    """runner_path with the open bits already computed."""
    for role, cell in (("entry", maze.entry), ("exit", maze.exit)):
        if not maze.contains(cell):
            raise MazeError(
                f"{role} ({cell[0]},{cell[1]}) is outside the {maze.width}x{maze.height} grid"
            )
    if maze.entry == maze.exit:
        x, y = maze.entry
        raise MazeError(f"entry and exit are the same cell ({x},{y}): the runner has nowhere to go")
    if _path_reaches_exit(maze, bits):
        return maze.path
    path = shortest_path(maze.walls, maze.entry, maze.exit)  # the walker solve writes with
    if path is None:
        (ex, ey), (xx, xy) = maze.entry, maze.exit
        raise MazeError(f"exit ({xx},{xy}) is not reachable from entry ({ex},{ey})")
    return path


class Simulation:
    """One run of the chase, tick by tick; tables are built once, each tick is a short loop."""

    def __init__(self, maze: Maze, options: ChaseOptions | None = None) -> None:
        options = ChaseOptions() if options is None else options
        self.options = options
        width, height = maze.width, maze.height
        self.width = width
        bits = flat_open_bits(maze.walls)
        path = _runner_path(maze, bits)
        self.path = path

        self.names = options.names
        self._moves = [_TARGETS[name] for name in self.names]
        names = self.names
        if all(name in options.places for name in names):
            place = dict(options.places)  # every start given: the rule is not needed
        else:
            place = start_cells(maze, options.starts)
            place.update(options.places)
        labels = component_labels(maze.walls).ravel()
        entry_label = labels[maze.entry[1] * width + maze.entry[0]]
        for name in self.names:
            x, y = place[name]
            if not maze.contains((x, y)):
                raise MazeError(f"{name}'s start ({x},{y}) is outside the {width}x{height} grid")
            if labels[y * width + x] != entry_label:
                raise MazeError(
                    f"{name} cannot reach the runner: no open way leads from its start "
                    f"({x},{y}) to the entry ({maze.entry[0]},{maze.entry[1]})"
                )

        # Per cell, its possible steps in N, W, S, E order, made when a chaser first stands
        # there (chasers see a small part of a big grid): (direction, cell, x, y).
        self._bits = bits
        self._exits: list[tuple[tuple[int, int, int, int], ...] | None] = [None] * len(bits)
        self._offsets = [dy * width + dx for dx, dy in _STEPS]

        # The runner's cells and facings: tick k >= 1 reads entry (k - 1) % len (patrol) or k - 1.
        facings = [_INDEX[letter] for letter in path]
        cells = [maze.entry[1] * width + maze.entry[0]]
        for d in facings:
            cells.append(cells[-1] + self._offsets[d])
        if options.runner == "patrol":
            back_cells = cells[-2::-1]
            back_facings = [d ^ 2 for d in reversed(facings)]
            self._run_cells = cells[1:] + back_cells
            self._run_facings = facings + back_facings
        else:
            self._run_cells = cells[1:]
            self._run_facings = facings
        self._patrol = options.runner == "patrol"
        self._steps = len(path)  # the tick on which a runner on its path escapes

        scatter = scatter_targets(width, height)
        self._corners = [scatter[name] for name in self.names]
        self._blinky = self.names.index("blinky") if "blinky" in self.names else -1
        if options.mode is not None:
            self._ends: list[int] = []
            self._after = _SCATTER if options.mode == "scatter" else _CHASE
        else:
            self._ends = list(accumulate(options.schedule))
            self._after = len(self._ends) % 2

        # The state.
        self.tick = 0
        self.runner = cells[0]
        self.facing = facings[0]
        self.mode = _NONE
        self.positions = [place[name][1] * width + place[name][0] for name in self.names]
        self.headings = [_NONE] * len(self.names)
        self.targets: list[Cell | None] = [None] * len(self.names)
        self.event: str | None = None
        self.outcome: Outcome | None = None
        self.modes = [0, 0]
        self._end_if_over(previous=self.runner, before=list(self.positions))

    def mode_of(self, tick: int) -> int:
        """The mode of tick ``tick`` >= 1: 0 scatter, 1 chase."""
        phase = bisect_left(self._ends, tick)
        return phase % 2 if phase < len(self._ends) else self._after

    def _steps_from(self, cell: int) -> tuple[tuple[int, int, int, int], ...]:
        """The possible steps from a flat cell, N, W, S, E: (direction, cell, x, y)."""
        y, x = divmod(cell, self.width)
        open_ = self._bits[cell]
        return tuple(
            (d, cell + self._offsets[d], x + dx, y + dy)
            for d, (dx, dy) in enumerate(_STEPS)
            if open_ & _BITS[d]
        )

    def _cell(self, flat: int) -> Cell:
        """A flat index as (x, y)."""
        y, x = divmod(flat, self.width)
        return (x, y)

    def _advance(self) -> None:
        """Run one tick (specs/chase.md, "One tick")."""
        k = self.tick + 1
        self.tick = k
        index = (k - 1) % len(self._run_cells) if self._patrol else k - 1
        previous = self.runner
        self.runner = runner_flat = self._run_cells[index]
        self.facing = facing = self._run_facings[index]
        mode = self.mode_of(k)
        reverse = self.mode != _NONE and mode != self.mode
        self.mode = mode
        self.modes[mode] += 1
        self.event = "reverse" if reverse else None

        width = self.width
        runner = (runner_flat % width, runner_flat // width)
        positions, headings, targets = self.positions, self.headings, self.targets
        before = list(positions)
        exits, offsets, corners = self._exits, self._offsets, self._corners
        blinky_index = self._blinky
        for j, target_of in enumerate(self._moves):
            here = positions[j]
            own = (here % width, here // width)
            corner = corners[j]
            if mode == _SCATTER:
                target = corner
            else:
                blinky = None
                if blinky_index >= 0:
                    b = positions[blinky_index]
                    blinky = (b % width, b // width)
                target = target_of(runner, facing, own, blinky, corner)
            targets[j] = target
            heading = headings[j]
            back = heading ^ 2 if heading >= 0 else -1
            if reverse and back >= 0:  # back the way it came: that passage is open
                positions[j] = here + offsets[back]
                headings[j] = back
                continue
            tx, ty = target
            best = -1
            best_cell = here
            best_distance = 0
            steps = exits[here]
            if steps is None:
                steps = exits[here] = self._steps_from(here)
            for d, cell, x, y in steps:
                if d == back:
                    continue
                distance = (x - tx) * (x - tx) + (y - ty) * (y - ty)
                if best < 0 or distance < best_distance:
                    best, best_cell, best_distance = d, cell, distance
            if best < 0 and back >= 0:  # a dead end: back
                best, best_cell = back, here + offsets[back]
            if best >= 0:
                positions[j] = best_cell
                headings[j] = best
        self._end_if_over(previous, before)

    def _end_if_over(self, previous: int, before: list[int]) -> None:
        """Set the outcome when this tick caught the runner, let it escape or was the last."""
        runner = self.runner
        by = None
        for j, position in enumerate(self.positions):
            swapped = (
                not self.options.pass_through
                and position == previous
                and before[j] == runner
                and self.tick > 0
            )
            if position == runner or swapped:
                by = self.names[j]
                break
        cell = self._cell(runner)
        if by is not None:
            self.outcome = Outcome("caught", self.tick, by, cell)
            self.event = f"caught:{by}"
        elif not self._patrol and self.tick == self._steps:
            self.outcome = Outcome("escaped", self.tick, None, cell)
            self.event = "escaped"
        elif self.tick >= self.options.ticks:
            self.outcome = Outcome("running", self.tick, None, cell)
            self.event = "running"

    def current(self) -> Tick:
        """The state now, as the trace shows it."""
        chasers = tuple(
            ChaserTick(
                name,
                cell % self.width,
                cell // self.width,
                None if heading < 0 else LETTERS[heading],
                target,
            )
            for name, cell, heading, target in zip(
                self.names, self.positions, self.headings, self.targets, strict=True
            )
        )
        return Tick(
            tick=self.tick,
            mode=None if self.mode < 0 else MODES[self.mode],
            runner=self._cell(self.runner),
            facing=LETTERS[self.facing],
            chasers=chasers,
            event=self.event,
        )

    def step(self) -> Tick:
        """Run the next tick and return it; once the run has ended, return the last tick again."""
        if self.outcome is None:
            self._advance()
        return self.current()

    def run(self) -> Outcome:
        """Run to the end and return how it ended."""
        while self.outcome is None:
            self._advance()
        return self.outcome

    def mode_counts(self) -> dict[str, int]:
        """How many of the ticks run so far were in each mode."""
        return {MODES[0]: self.modes[0], MODES[1]: self.modes[1]}

    def ticks(self) -> Iterator[Tick]:
        """The current tick, then every following one to the end of the run."""
        yield self.current()
        while self.outcome is None:
            yield self.step()


class Chase(NamedTuple):
    """What ``chase()`` returns: how the run ended, and its ticks from tick 0 (lazily)."""

    result: Outcome
    ticks: Iterator[Tick]


def chase(maze: Maze, **options: Any) -> Chase:
    """Run the chasers on ``maze`` (options: the fields of ChaseOptions); the result and ticks.

    The run is made once for the result; the ticks replay it lazily from tick 0.
    """
    settings = ChaseOptions(**options)
    outcome = Simulation(maze, settings).run()
    return Chase(outcome, Simulation(maze, settings).ticks())
