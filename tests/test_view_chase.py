"""``mazekit view`` at a laptop terminal's size (issue 24): a 20x15 maze fits 80x24 in the
compact drawing, a bigger one scrolls and says which part shows, the chasers start and run as
``mazekit chase`` says, with trails, and s never writes over the config it was made from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mazekit.chasers import ChaseOptions
from mazekit.generators import Request, build, generate_from_config
from mazekit.textformat import dump
from mazekit.viewer import Setup, Viewer
from mazekit.viewer.state import DIM
from tests.conftest import Invoke

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "samples" / "config.txt"


def _maze_file(tmp_path: Path, seed: int = 3, perfect: bool = True) -> Path:
    target = tmp_path / "maze.txt"
    target.write_text(dump(generate_from_config(str(CONFIG), seed=seed, perfect=perfect)))
    return target


def test_a_20x15_maze_fits_80x24_whole(terminals, tmp_path: Path) -> None:
    """The full drawing needs 31 lines: the compact one, 16, shows every cell row, the
    entry in its first cell and the exit in its last, and nothing scrolls."""
    maze = _maze_file(tmp_path)
    term = terminals(["view", str(maze)], columns=80, rows=24)
    term.shows("20x15  from a file")
    lines = term.lines()
    assert lines[1][1:3] == "EN" and lines[15][58:60] == "EX"
    assert lines[0].startswith(" __ __") and lines[16].strip() == ""
    assert "showing" not in lines[22]
    # an open cell with a south wall shows it as "__"; walls between cells as bars
    assert set(lines[15][0::3]) <= {"_", "\u2502", " "}
    term.press("q")
    assert term.ending()[0] == 0


def test_a_bigger_maze_scrolls_and_says_which_part_shows(terminals, tmp_path: Path) -> None:
    target = tmp_path / "big.txt"
    target.write_text((ROOT / "samples" / "valid-40x30-imperfect.txt").read_text())
    term = terminals(["view", str(target)], columns=80, rows=24)
    term.shows("showing x 0-26 y 0-20")
    for key in ("\x1bOB", "\x1bOB", "\x1bOB", "\x1bOC"):  # down three lines, right one cell
        term.press(key)  # (the keypad's application mode, which curses turns on)
    term.shows("showing x 1-27 y 2-23")  # the first step hides the top wall line
    term.press("q")
    assert term.ending()[0] == 0


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--starts", "corners"],
        ["--place", "pinky=10,5", "--only", "pinky,clyde"],
    ],
)
def test_view_starts_the_chasers_as_chase_does(
    terminals, invoke: Invoke, tmp_path: Path, args: list[str]
) -> None:
    """After n the screen holds the chasers where tick 1 of `chase --format jsonl` has them
    (a 12x8 maze fits 80x21 in the full drawing: cell (x, y) at line 2y+1, column 3x+1)."""
    maze = build(Request(12, 8, (1, 1), (11, 7), True, 5))
    source = tmp_path / "maze.txt"
    source.write_text(dump(maze))
    term = terminals(["view", str(source), *args], columns=80, rows=21)
    term.shows("from a file")
    term.press("n")
    term.shows("tick 1 scatter")
    trace = invoke(["chase", "--format", "jsonl", str(source), *args]).stdout.splitlines()
    tick = json.loads(trace[1])
    names = {chaser["name"] for chaser in tick["chasers"]}
    lines = term.lines()
    shown = "".join(lines[: 2 * 8 + 1])
    for name, mark in (("blinky", "GR"), ("pinky", "GP"), ("inky", "GC"), ("clyde", "GO")):
        letter = name[0].upper()
        cells = [(c["x"], c["y"]) for c in tick["chasers"] if c["name"] == name]
        if name not in names:
            assert mark not in shown
            continue
        (x, y) = cells[0]
        there = lines[2 * y + 1][3 * x + 1 : 3 * x + 3]
        assert there == mark or letter in there, (name, there)


def test_trails_follow_the_chasers_in_the_picture() -> None:
    maze = generate_from_config(str(CONFIG), seed=3)
    viewer = Viewer(Setup(maze=maze, save=lambda text, path: None, trail=6))
    viewer.viewport = (40, 80)
    for _ in range(12):
        viewer.press("n")
    assert viewer.trails is not None and viewer.tick is not None
    lines, inks = viewer.picture()
    blinky = viewer.trails.cells("blinky")
    assert len(blinky) == 6
    here = {(c.x, c.y) for c in viewer.tick.chasers} | {viewer.tick.runner}
    marks = [lines[2 * y + 1][3 * x + 1 : 3 * x + 3] for x, y in blinky if (x, y) not in here]
    assert marks and set(marks) <= {"\u2591\u2591"}  # the light shade of the trail
    dim = {bool(inks[2 * y + 1, 3 * x + 1] & DIM) for x, y in blinky if (x, y) not in here}
    assert dim == {True, False}  # the older half of the trail dim, the newer not


def test_view_options_reach_the_chase() -> None:
    maze = generate_from_config(str(CONFIG), seed=3)
    options = ChaseOptions(starts="corners", only=("inky",))
    viewer = Viewer(Setup(maze=maze, save=lambda text, path: None, chase=options))
    viewer.press("n")
    assert viewer.tick is not None
    assert [c.name for c in viewer.tick.chasers] == ["inky"]
    assert viewer.simulation is not None and viewer.simulation.options == options


def test_s_never_writes_over_the_config(terminals, tmp_path: Path) -> None:
    text = CONFIG.read_text().replace("OUTPUT_FILE=maze.txt", "OUTPUT_FILE=./config.txt")
    config = tmp_path / "config.txt"
    config.write_text(text)
    term = terminals(["view", "config.txt"], cwd=tmp_path, columns=80, rows=24)
    term.shows("seed 42")
    term.press("s")
    term.shows("not saved")
    hint = " ".join(line.strip() for line in term.lines()[-2:])
    assert "not saved: config.txt: OUTPUT_FILE=./config.txt names this config file" in hint
    assert config.read_text() == text
    term.press("q")
    assert term.ending()[0] == 0


def test_s_with_o_naming_the_config_is_refused_too(terminals, tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text(CONFIG.read_text())
    term = terminals(["view", "config.txt", "-o", "config.txt"], cwd=tmp_path, columns=80, rows=24)
    term.shows("seed 42")
    term.press("s")
    term.shows("not saved")
    assert config.read_text() == CONFIG.read_text()
    term.press("q")
    assert term.ending()[0] == 0
