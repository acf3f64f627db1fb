"""The Python API for graders (issue 11): validate on paths and configs, to_dict, pictures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mazekit
from mazekit import ConfigError, MazeError, Report, load_config, read_maze, validate
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
    with pytest.raises(ConfigError, match="exit=19,14 is outside the 10x15 maze"):
        mazekit.generate_from_config(config, width=10)
