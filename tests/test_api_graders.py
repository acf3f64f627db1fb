"""The Python API for graders (issue 11): validate on paths and configs, to_dict, pictures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazekit
from mazekit import ConfigError, Maze, MazeError, Report, load_config, read_maze, validate
from mazekit.pattern import pattern_cells
from tests import brute
from tests.conftest import Invoke

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
VALID = SAMPLES / "valid-20x15-perfect.txt"
BORDER = SAMPLES / "invalid-border-open-outer-wall.txt"
CONFIG = "WIDTH=20\nHEIGHT=15\nENTRY=0,0\nEXIT=19,14\nOUTPUT_FILE=maze.txt\nPERFECT=True\n"


def test_validate_reads_a_path_given_as_str_or_pathlike() -> None:
    by_str = validate(str(BORDER))
    by_path = validate(BORDER)
    assert by_str.to_dict() == by_path.to_dict()
    assert by_str.source == str(BORDER) and by_str.counts == {"border": 1}
    assert validate(BORDER.read_bytes(), source=str(BORDER)).to_dict() == by_str.to_dict()


def test_validate_takes_a_config_as_a_path_or_a_config(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text(CONFIG.replace("EXIT=19,14", "EXIT=18,14"))
    by_path = validate(VALID, config=str(config))
    assert [v.message for v in by_path.violations] == [
        "exit is (19,14) but the config says EXIT=18,14"
    ]
    assert validate(VALID, config=load_config(config)).to_dict() == by_path.to_dict()
    assert validate(read_maze(VALID), config=config).count("config") == 1


def test_validate_says_what_is_wrong_with_a_wrong_type() -> None:
    with pytest.raises(TypeError, match=r"maze must be a Maze, the bytes .* got int"):
        validate(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="config must be a Config or the path of a config file"):
        validate(VALID, config=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="skip must be a list of rule ids, got str 'path'"):
        validate(VALID, skip="path")


def test_validate_raises_the_read_error_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MazeError, match="cannot read: No such file or directory"):
        validate(tmp_path / "nope.txt")
    with pytest.raises(ConfigError, match="cannot read"):
        validate(VALID, config=tmp_path / "nope.txt")


def test_report_to_dict_is_exactly_one_file_of_the_json(invoke: Invoke) -> None:
    document = json.loads(invoke(["validate", "--format", "json", str(BORDER)]).stdout)
    assert validate(str(BORDER)).to_dict() == document["files"][0]
    assert Report(source="x.txt", error="cannot read: gone").to_dict()["valid"] is False


def test_select_runs_only_the_named_rules() -> None:
    report = validate(BORDER, select=["border", "perfect"])
    assert report.counts == {"border": 1}
    with pytest.raises(ValueError, match="select: the rule config needs config="):
        validate(BORDER, select=["config"])


def test_stats_to_dict_keys_are_its_attribute_names(invoke: Invoke) -> None:
    found = mazekit.stats(read_maze(VALID))
    as_json = found.to_dict()
    for key in ("longest_dead_end_branch", "shortest_path", "loops", "verdict", "perfect"):
        assert as_json[key] == getattr(found, key)
    cli = json.loads(invoke(["stats", "--format", "json", str(VALID)]).stdout)["files"][0]
    assert {k: v for k, v in cli.items() if k not in ("file", "error")} == as_json


def test_render_bytes_in_each_format(invoke: Invoke) -> None:
    maze = read_maze(VALID)
    text = mazekit.render_bytes(maze, format="text")
    assert text == invoke(["render", "--format", "text", str(VALID)]).stdout_bytes
    assert b"<svg" in mazekit.render_bytes(maze, format="svg")[:100]
    assert mazekit.render_bytes(maze, cell=4, wall=1)[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ConfigError, match="format: unknown format 'gif'"):
        mazekit.render_bytes(maze, format="gif")
    with pytest.raises(TypeError, match="maze must be a Maze, got str"):
        mazekit.render_bytes(str(VALID), format="text")  # type: ignore[arg-type]


def test_generate_from_config_is_generate_with_its_config(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text(CONFIG + "SEED=7\n")
    maze = mazekit.generate_from_config(config)
    assert mazekit.dump_maze(maze) == invoke(["generate", str(config), "-o", "-"]).stdout
    wider = mazekit.generate_from_config(str(config), width=25, exit=(24, 14))
    assert (wider.width, wider.exit) == (25, (24, 14))
    assert mazekit.generate_from_config(load_config(config)).walls.tobytes() == maze.walls.tobytes()
    with pytest.raises(TypeError, match="unknown override"):
        mazekit.generate_from_config(config, colour="red")
    with pytest.raises(TypeError, match="config must be a Config or the path of a config file"):
        mazekit.generate_from_config(7)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="exit=19,14 is outside the 10x15 maze"):
        mazekit.generate_from_config(config, width=10)


@st.composite
def _any_grid(draw: st.DrawFn) -> Maze:
    """Random wall digits, coherent or not, entry and exit anywhere inside."""
    width, height = draw(st.integers(1, 12)), draw(st.integers(1, 9))
    cells = draw(st.lists(st.integers(0, 15), min_size=width * height, max_size=width * height))
    walls = np.array(cells, dtype=np.uint8).reshape(height, width)
    entry = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    return Maze(walls, entry, (0, 0))


@given(_any_grid())
def test_connectivity_reports_each_unreachable_region_once(maze: Maze) -> None:
    """The oracle: flood-fill the unreachable cells outside the "42" by hand, region by region."""
    pattern = set(pattern_cells(maze.width, maze.height))
    x, y = maze.entry
    report = validate(maze, select=["connectivity"], limit=None)
    if (x, y) in pattern:
        assert report.violations == []  # entry-exit says it, once
        return
    reach = brute.reachable(maze)
    lost = {(cx, cy) for cy in range(maze.height) for cx in range(maze.width)} - reach - pattern
    unreached = {(cx, cy) for cy in range(maze.height) for cx in range(maze.width)} - reach
    firsts = []
    while lost:  # a region: the lost cells of one component (open "42" cells may join it)
        first = min(lost, key=lambda cell: (cell[1], cell[0]))
        region, todo = {first}, [first]
        while todo:
            for near in brute.neighbours(maze, todo.pop()):
                if near in unreached and near not in region:
                    region.add(near)
                    todo.append(near)
        lost -= region
        firsts.append((first, len(region - pattern)))
    firsts.sort(key=lambda item: (item[0][1], item[0][0]))

    def size(message: str) -> int:
        return int(message.split()[3]) if message.startswith("a region of ") else 1

    assert [(v.cell, size(v.message)) for v in report.violations] == firsts
