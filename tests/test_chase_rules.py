"""The chase rules of specs/chase.md, one test each, on small mazes built by hand."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

import mazekit
from mazekit.chasers import (
    ChaseOptions,
    Simulation,
    Tick,
    chase,
    clyde_target,
    inky_target,
    pinky_target,
    runner_path,
)
from mazekit.errors import MazeError
from mazekit.model import Maze
from tests.conftest import closed_grid, open_wall

N, W, S, E = 0, 1, 2, 3
BOARD = Path(__file__).parent / "data" / "chase" / "board-30x20.txt"


def build(
    width: int,
    height: int,
    opens: Iterable[tuple[int, int, str]],
    entry: tuple[int, int],
    exit: tuple[int, int],
    path: str = "",
) -> Maze:
    """A closed grid with the listed walls opened (cell x, y towards a letter)."""
    walls = closed_grid(width, height)
    for x, y, letter in opens:
        open_wall(walls, x, y, letter)
    return Maze(walls, entry, exit, path)


def room(width: int, height: int) -> list[tuple[int, int, str]]:
    """Every inner wall of a width x height block open."""
    opens = [(x, y, "E") for y in range(height) for x in range(width - 1)]
    return opens + [(x, y, "S") for y in range(height - 1) for x in range(width)]


def row(y: int, x0: int, x1: int) -> list[tuple[int, int, str]]:
    """A corridor along row y from x0 to x1."""
    return [(x, y, "E") for x in range(x0, x1)]


def run(maze: Maze, count: int, **options: object) -> list[Tick]:
    """Ticks 0..count of a run (fewer when it ends before)."""
    simulation = Simulation(maze, ChaseOptions(**options))  # type: ignore[arg-type]
    ticks = [simulation.current()]
    while simulation.outcome is None and len(ticks) <= count:
        ticks.append(simulation.step())
    return ticks


def cell(tick: Tick, name: str) -> tuple[int, int]:
    """Where chaser ``name`` stands after ``tick``."""
    chaser = next(c for c in tick.chasers if c.name == name)
    return (chaser.x, chaser.y)


def target(tick: Tick, name: str) -> tuple[int, int] | None:
    """The target chaser ``name`` moved by in ``tick``."""
    return next(c for c in tick.chasers if c.name == name).target


# Two corridors: row 0 (x 0..5) for a chaser, row 1 (x 1..5) for the runner, joined at x=0.
TWO_ROWS = build(6, 2, [*row(0, 0, 5), (0, 0, "S"), *row(1, 0, 5)], (5, 1), (1, 1), "WWWW")


def test_tie_order_is_north_west_south_east() -> None:
    # From the centre of a 3x3 room each chaser has two test cells at the same distance from
    # its scatter target: blinky N|E, pinky N|W, inky S|E, clyde W|S.
    maze = build(3, 3, room(3, 3), (0, 0), (2, 2), "EESS")
    expected = {"blinky": (1, 0), "pinky": (1, 0), "inky": (1, 2), "clyde": (0, 1)}
    for name, after in expected.items():
        ticks = run(maze, 1, mode="scatter", only=(name,), places={name: (1, 1)}, ticks=1)
        assert cell(ticks[1], name) == after, name


def test_never_reverses_by_choice_and_reverses_in_a_dead_end() -> None:
    # Blinky heads east for its corner, turns at the dead end, then keeps west although its
    # target lies east.
    ticks = run(
        TWO_ROWS, 7, runner="patrol", mode="scatter", only=("blinky",), places={"blinky": (2, 0)}
    )
    xs = [cell(t, "blinky")[0] for t in ticks[1:8]]
    assert xs == [3, 4, 5, 4, 3, 2, 1]
    assert [t.chasers[0].heading for t in ticks[3:5]] == ["E", "W"]


def test_first_move_has_no_back() -> None:
    # At the start every possible step competes: from (4,0) the nearest to (7,-2) is east.
    ticks = run(TWO_ROWS, 1, mode="scatter", only=("blinky",), places={"blinky": (4, 0)})
    assert cell(ticks[1], "blinky") == (5, 0)


def test_mode_change_forces_a_reversal() -> None:
    ticks = run(
        TWO_ROWS, 4, runner="patrol", schedule=(2,), only=("blinky",), places={"blinky": (2, 0)}
    )
    assert [t.mode for t in ticks] == [None, "scatter", "scatter", "chase", "chase"]
    assert [t.event for t in ticks] == [None, None, None, "reverse", None]
    assert cell(ticks[2], "blinky") == (4, 0)
    assert cell(ticks[3], "blinky") == (3, 0)  # back, whatever the target
    assert ticks[3].chasers[0].heading == "W"


def test_a_fixed_mode_never_reverses() -> None:
    ticks = run(
        TWO_ROWS, 30, runner="patrol", mode="chase", only=("blinky",), places={"blinky": (2, 0)}
    )
    assert len(ticks) > 10 and all(t.event != "reverse" for t in ticks)
    assert {t.mode for t in ticks[1:]} == {"chase"}


def test_schedule_alternates_and_the_next_mode_holds() -> None:
    simulation = Simulation(TWO_ROWS, ChaseOptions(schedule=(2, 3), only=("blinky",)))
    modes = [simulation.mode_of(k) for k in range(1, 10)]
    assert modes == [0, 0, 1, 1, 1, 0, 0, 0, 0]
    default = Simulation(TWO_ROWS, ChaseOptions(only=("blinky",)))
    ticks = (1, 56, 57, 216, 217, 272, 273, 632, 633, 672, 673, 10**6)
    assert [default.mode_of(k) for k in ticks] == [0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1]


def test_pinky_and_inky_overflow_when_the_runner_faces_north() -> None:
    assert pinky_target((10, 10), N, (0, 0), None, (-2, -2)) == (6, 6)
    assert pinky_target((10, 10), E, (0, 0), None, (-2, -2)) == (14, 10)
    assert pinky_target((10, 10), W, (0, 0), None, (-2, -2)) == (6, 10)
    assert inky_target((10, 10), N, (0, 0), None, (0, 0)) == (8, 8)
    assert inky_target((10, 10), S, (0, 0), None, (0, 0)) == (10, 12)
    # The same, through a run: the runner walks north up column 0 of a 6x6 room.
    maze = build(6, 6, room(6, 6), (0, 5), (0, 0), "NNNNN")
    ticks = run(maze, 1, mode="chase", only=("pinky", "inky"), places={"pinky": (5, 0)})
    assert ticks[1].runner == (0, 4) and ticks[1].facing == "N"
    assert target(ticks[1], "pinky") == (-4, 0)
    assert target(ticks[1], "inky") == (-2, 2)  # blinky left out: B = Q


def test_inky_doubles_the_vector_from_blinky() -> None:
    assert inky_target((10, 10), E, (0, 0), (9, 4), (0, 0)) == (2 * 12 - 9, 2 * 10 - 4)
    maze = build(8, 8, room(8, 8), (3, 7), (3, 0), "NNNNNNN")
    ticks = run(maze, 3, mode="chase", only=("blinky", "inky"))
    for tick in ticks[1:]:
        rx, ry = tick.runner
        qx, qy = rx - 2, ry - 2  # facing N: 2 up and 2 west
        bx, by = cell(tick, "blinky")  # blinky after its move of the same tick
        assert target(tick, "inky") == (2 * qx - bx, 2 * qy - by)


def test_clyde_switches_at_exactly_distance_eight() -> None:
    corner = (-2, 21)
    assert clyde_target((0, 0), E, (8, 0), None, corner) == (0, 0)  # 64: chase
    assert clyde_target((0, 0), E, (6, 5), None, corner) == corner  # 61: corner
    assert clyde_target((0, 0), E, (7, 4), None, corner) == (0, 0)  # 65: chase
    # In a run: after tick 1 the runner is at (1,0), clyde still at its start.
    maze = build(12, 2, [*row(0, 0, 11), *row(1, 0, 11), (11, 0, "S")], (0, 0), (11, 0), "E" * 11)
    far = run(maze, 1, mode="chase", only=("clyde",), places={"clyde": (9, 0)}, ticks=1)
    near = run(maze, 1, mode="chase", only=("clyde",), places={"clyde": (8, 0)}, ticks=1)
    assert target(far[1], "clyde") == (1, 0)
    assert target(near[1], "clyde") == (-2, 3)


def _period(cells: list[tuple[int, int]], longest: int) -> int | None:
    """The shortest period of a sequence of cells, up to ``longest``."""
    for period in range(1, longest + 1):
        if all(cells[i] == cells[i + period] for i in range(len(cells) - period)):
            return period
    return None


def test_scatter_circles_each_chaser_near_its_corner() -> None:
    board = mazekit.read_maze(BOARD)  # a pacmanized 30x20 board, entry and exit mid-edge
    _, ticks = chase(board, runner="patrol", mode="scatter", ticks=400, starts="corners")
    trace = list(ticks)
    assert len(trace) == 401
    corners = {"blinky": (29, 0), "pinky": (0, 0), "inky": (29, 19), "clyde": (0, 19)}
    for name, (cx, cy) in corners.items():
        cells = [cell(t, name) for t in trace[300:]]
        period = _period(cells, 40)
        assert period is not None and period >= 4, name
        assert all(abs(x - cx) <= 7 and abs(y - cy) <= 7 for x, y in cells), name


# A corridor of 6 cells; blinky at (1,0) swaps with the runner on tick 1.
CORRIDOR = build(6, 1, row(0, 0, 5), (0, 0), (5, 0), "EEEEE")


def test_pass_through_is_not_a_catch() -> None:
    result, ticks = chase(CORRIDOR, mode="chase", only=("blinky",), places={"blinky": (1, 0)})
    first = list(ticks)[1]
    assert (first.runner, cell(first, "blinky")) == ((1, 0), (0, 0))
    assert result == ("escaped", 5, None, (5, 0))


def test_no_pass_through_makes_a_swap_a_catch() -> None:
    result, ticks = chase(
        CORRIDOR, mode="chase", only=("blinky",), places={"blinky": (1, 0)}, pass_through=False
    )
    assert result == ("caught", 1, "blinky", (1, 0))
    assert [t.event for t in ticks] == [None, "caught:blinky"]


def test_catch_on_the_exit_counts_as_caught() -> None:
    # blinky comes along row 1 and up into the exit on the tick the runner reaches it
    maze = build(6, 2, [*row(0, 0, 5), (5, 0, "S"), *row(1, 1, 5)], (0, 0), (5, 0), "EEEEE")
    result, _ = chase(maze, mode="chase", only=("blinky",), places={"blinky": (1, 1)})
    assert result == ("caught", 5, "blinky", (5, 0))


def test_first_named_chaser_catches() -> None:
    both = {"blinky": (2, 0), "clyde": (2, 0)}
    result, ticks = chase(CORRIDOR, mode="chase", only=("clyde", "blinky"), places=both)
    assert [cell(t, "clyde") for t in ticks][1] == (1, 0)  # both stand on the runner's cell
    assert result == ("caught", 1, "blinky", (1, 0))


def test_a_chaser_on_the_entry_catches_at_tick_zero() -> None:
    result, ticks = chase(CORRIDOR, only=("pinky",), starts="corners")
    assert result == ("caught", 0, "pinky", (0, 0))
    assert [t.event for t in ticks] == ["caught:pinky"]


def test_patrol_walks_back_and_forth_and_never_escapes() -> None:
    ticks = run(
        CORRIDOR,
        12,
        runner="patrol",
        mode="scatter",
        only=("blinky",),
        places={"blinky": (5, 0)},
        ticks=12,
    )
    assert [t.runner[0] for t in ticks] == [0, 1, 2, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2]
    assert [t.facing for t in ticks[4:8]] == ["E", "E", "W", "W"]
    assert ticks[0].facing == "E" and ticks[11].facing == "E" and ticks[10].facing == "W"


def test_runner_escapes_only_at_the_end_of_its_path() -> None:
    opens = [*row(0, 0, 5), (0, 0, "S"), *row(1, 0, 2)]
    detour = build(6, 2, opens, (0, 0), (5, 0), "EEEEEWE")  # on the exit at tick 5 too
    result, _ = chase(detour, only=("pinky",), places={"pinky": (2, 1)}, mode="scatter")
    assert result == ("escaped", 7, None, (5, 0))


def test_runner_walks_a_right_path_line_and_replaces_a_wrong_one() -> None:
    loop = build(3, 2, room(3, 2), (0, 0), (2, 0), "SEEN")
    assert runner_path(loop) == "SEEN"  # right though not shortest: walked as written
    for wrong in ("", "EEE", "S", "NEE", "SEENW"):
        loop.path = wrong
        assert runner_path(loop) == mazekit.solve(loop) == "EE"


def test_step_after_the_end_changes_nothing() -> None:
    simulation = Simulation(CORRIDOR, ChaseOptions(only=("blinky",), ticks=2))
    simulation.run()
    last = simulation.current()
    assert simulation.outcome == ("running", 2, None, (2, 0))
    assert simulation.step() == last and simulation.tick == 2


def test_tick_zero_and_the_jsonl_keys() -> None:
    _, ticks = chase(CORRIDOR, only=("clyde",), places={"clyde": (5, 0)}, ticks=1)
    zero, one = (t.to_dict() for t in ticks)
    assert zero == {
        "tick": 0,
        "mode": None,
        "runner": {"x": 0, "y": 0, "facing": "E"},
        "chasers": [{"name": "clyde", "x": 5, "y": 0, "heading": None, "target": None}],
        "event": None,
    }
    assert one["mode"] == "scatter" and one["event"] == "running"
    assert one["chasers"] == [{"name": "clyde", "x": 4, "y": 0, "heading": "W", "target": [-2, 2]}]


@pytest.mark.parametrize(
    ("maze", "options", "message"),
    [
        (build(3, 1, [], (0, 0), (2, 0)), {}, "exit (2,0) is not reachable from entry (0,0)"),
        (
            build(3, 1, row(0, 0, 2), (1, 0), (1, 0)),
            {},
            "entry and exit are the same cell (1,0): the runner has nowhere to go",
        ),
        (
            build(3, 1, row(0, 0, 2), (0, 0), (5, 0)),
            {},
            "exit (5,0) is outside the 3x1 grid",
        ),
        (
            CORRIDOR,
            {"places": {"inky": (6, 0)}},
            "inky's start (6,0) is outside the 6x1 grid",
        ),
        (
            build(4, 2, row(0, 0, 3), (0, 0), (3, 0)),
            {"only": ("clyde", "inky"), "starts": "corners"},
            "inky cannot reach the runner: no open way leads from its start (3,1) to the entry (0,0)",
        ),
    ],
)
def test_mazes_it_cannot_run_on(maze: Maze, options: dict[str, object], message: str) -> None:
    with pytest.raises(MazeError) as caught:
        Simulation(maze, ChaseOptions(**options))  # type: ignore[arg-type]
    assert caught.value.message == message


def test_options_are_values() -> None:
    first = ChaseOptions(places={"inky": (1, 2), "pinky": (3, 4)}, only=("inky", "pinky"))
    second = ChaseOptions(places={"pinky": (3, 4), "inky": (1, 2)}, only=("inky", "pinky"))
    assert first == second and hash(first) == hash(second)
    assert first != ChaseOptions(places={"inky": (1, 2)}, only=("inky", "pinky"))
    assert first.names == ("pinky", "inky")  # the order they act in, not the order given


@pytest.mark.parametrize(
    "options",
    [
        {"runner": "walk"},
        {"mode": "frighten"},
        {"schedule": (5, 0)},
        {"only": ("shadow",)},
        {"places": {"sue": (1, 1)}},
        {"places": {"inky": (1,)}},
        {"ticks": -1},
        {"ticks": True},
    ],
)
def test_bad_option_values_are_value_errors(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ChaseOptions(**options)  # type: ignore[arg-type]
