"""The chase as a show (issue 24): the chasers leave the house, and the animation says the tick,
the mode and the result, keeps every actor visible and draws the chasers' fading trails."""

from __future__ import annotations

import io
import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import mazekit
from mazekit.board import house
from mazekit.chasers import DEFAULT_STARTS, DEFAULT_TRAIL, NAMES, Simulation, Trails, starts
from mazekit.drawing.animation import caption
from mazekit.generators import generate_from_config
from mazekit.model import Maze
from mazekit.textformat import dump
from tests.conftest import Invoke, open_room

ROOT = Path(__file__).resolve().parent.parent
CONFIG = str(ROOT / "samples" / "config.txt")
BOARD = str(ROOT / "tests" / "data" / "chase" / "board-30x20.txt")
# the light theme's background and walls, and each chaser's colour
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
COLOURS = {
    "blinky": (255, 0, 0),
    "pinky": (255, 184, 255),
    "inky": (0, 255, 255),
    "clyde": (255, 184, 82),
}


# --- starts -----------------------------------------------------------------------------------


def test_by_default_all_four_start_on_the_house() -> None:
    maze = generate_from_config(CONFIG, seed=3)
    first = Simulation(maze).current()
    assert DEFAULT_STARTS == "house"
    assert {(c.x, c.y) for c in first.chasers} == {(9, 7)}  # between the "4" and the "2"
    assert [c.name for c in first.chasers] == list(NAMES)


def test_a_centre_entry_moves_the_house_next_to_it() -> None:
    """The entry on the centre cell (2,2) of a 5x5 room: the house is the nearest other cell,
    (2,1) by the (y, x) tie rule, and the runner is not caught at tick 0."""
    maze = open_room(5, 5, (2, 2), (4, 4))
    assert house(maze) == (2, 1)
    run = Simulation(maze, mazekit.chasers.ChaseOptions(runner="path"))
    assert {(c.x, c.y) for c in run.current().chasers} == {(2, 1)}
    assert run.current().event is None


def test_corners_and_place_still_work() -> None:
    maze = generate_from_config(CONFIG, seed=3)
    corners = Simulation(maze, mazekit.chasers.ChaseOptions(starts="corners")).current()
    assert {c.name: (c.x, c.y) for c in corners.chasers} == starts(20, 15)
    placed = mazekit.chasers.ChaseOptions(places={"inky": (4, 4)})
    cells = {c.name: (c.x, c.y) for c in Simulation(maze, placed).current().chasers}
    assert cells == {"blinky": (9, 7), "pinky": (9, 7), "inky": (4, 4), "clyde": (9, 7)}


def test_starts_reach_the_cli(invoke: Invoke, tmp_path: Path) -> None:
    maze = tmp_path / "maze.txt"
    maze.write_text(dump(generate_from_config(CONFIG, seed=3)))
    default = invoke(["chase", str(maze), "--format", "jsonl", "--ticks", "0"])
    assert {(c["x"], c["y"]) for c in _first(default.stdout)["chasers"]} == {(9, 7)}
    corners = invoke(
        ["chase", str(maze), "--format", "jsonl", "--ticks", "0", "--starts", "corners"]
    )
    cells = {c["name"]: (c["x"], c["y"]) for c in _first(corners.stdout)["chasers"]}
    assert cells == starts(20, 15)
    bad = invoke(["chase", str(maze), "--starts", "middle"])
    assert bad.exit_code == 2 and "'middle' is not one of 'house', 'corners'" in bad.stderr


def _first(jsonl: str) -> dict[str, list[dict[str, int]]]:
    import json

    first: dict[str, list[dict[str, int]]] = json.loads(jsonl.splitlines()[0])
    return first


def test_default_runs_on_the_subjects_config_are_real_games() -> None:
    """20x15, seeds 1-8, perfect and imperfect: no catch at tick 0, every chaser catches
    sometimes, and some runners escape."""
    results: Counter[str] = Counter()
    for perfect in (True, False):
        for seed in range(1, 9):
            outcome = Simulation(generate_from_config(CONFIG, seed=seed, perfect=perfect)).run()
            assert outcome.tick > 0
            results[outcome.by or outcome.result] += 1
    assert set(results) == {*NAMES, "escaped"}, results


def test_the_shipped_samples_are_no_longer_caught_at_tick_zero(invoke: Invoke) -> None:
    samples = [p for p in sorted((ROOT / "samples").glob("valid-*.txt"))]
    outputs = [invoke(["chase", str(p)]).stdout for p in samples]
    assert outputs and not any(out.endswith("at tick 0 at (0,0)\n") for out in outputs), outputs


# --- trails -----------------------------------------------------------------------------------


def test_trails_keep_the_last_cells_before_the_current_one() -> None:
    maze = generate_from_config(CONFIG, seed=3)
    ticks = list(Simulation(maze).ticks())[:10]
    trails = Trails(3)
    for tick in ticks:
        trails.add(tick)
    blinky = [(t.chasers[0].x, t.chasers[0].y) for t in ticks]
    assert trails.cells("blinky") == tuple(blinky[-4:-1])
    trails.add(ticks[0])  # a new run starts them afresh
    assert trails.cells("blinky") == ()
    assert DEFAULT_TRAIL >= 20  # the scatter loops of 20x15 mazes are mostly 4 to 20 cells
    with pytest.raises(ValueError, match="trail length"):
        Trails(-1)


# --- the animation ----------------------------------------------------------------------------


def _frames(path: Path) -> tuple[list[np.ndarray], list[int]]:
    """Every frame as an RGB array, and each frame's duration in ms."""
    image = Image.open(path)
    pictures, durations = [], []
    for index in range(image.n_frames):
        image.seek(index)
        pictures.append(np.asarray(image.convert("RGB")))
        durations.append(image.info["duration"])
    return pictures, durations


def _band(frame: np.ndarray, maze: Maze, cell: int) -> np.ndarray:
    """The caption band: the rows under the maze and its margin of three cells."""
    return frame[6 * cell + maze.height * cell + max(1, cell // 8) :]


def _ink(band: np.ndarray, rgb: tuple[int, int, int]) -> np.ndarray:
    """Where ``band`` shows colour ``rgb``, cropped to the box of those pixels."""
    return _crop((band == rgb).all(axis=2))


def _words(text: str, scale: int = 2) -> np.ndarray:
    """``text`` as the animation writes it, cropped to its ink."""
    from mazekit.drawing.animation import _text

    return _crop(_text(text, scale))


def _crop(mask: np.ndarray) -> np.ndarray:
    """A mask cut to the box of its True pixels."""
    rows, columns = np.nonzero(mask)
    return mask[rows.min() : rows.max() + 1, columns.min() : columns.max() + 1]


@pytest.mark.parametrize("suffix", ["gif", "apng"])
def test_caption_band_changes_every_tick_and_the_last_frame_holds_the_result(
    invoke: Invoke, tmp_path: Path, suffix: str
) -> None:
    maze_file = tmp_path / "maze.txt"
    maze = generate_from_config(CONFIG, seed=5)  # caught by pinky at tick 11
    maze_file.write_text(dump(maze))
    target = tmp_path / f"run.{suffix}"
    assert invoke(["chase", str(maze_file), "-o", str(target)]).exit_code == 0
    frames, durations = _frames(target)
    outcome = Simulation(maze).run()
    assert len(frames) == outcome.tick + 1
    bands = [_band(frame, maze, 16) for frame in frames]
    for before, after in itertools.pairwise(bands):
        assert not np.array_equal(before, after)  # the tick (and the result) changes the band
    # the band holds only the background and the text, in the wall colour
    for band in bands:
        assert {tuple(c) for c in np.unique(band.reshape(-1, 3), axis=0)} == {WHITE, BLACK}
    # the last frame says how the run ended, in the band, and stays for 2 s
    assert outcome.describe() == "caught by pinky at tick 11 at (6,1)"
    assert np.array_equal(_ink(bands[-1], BLACK), _words(outcome.describe()))
    assert np.array_equal(_ink(bands[5], BLACK), _words("tick 5 \u00b7 SCATTER"))
    assert durations[-1] == 2000 and set(durations[:-1]) <= {120, 125}  # a GIF counts 1/100 s


def test_captions() -> None:
    maze = generate_from_config(CONFIG, seed=5)
    ticks = list(Simulation(maze).ticks())
    outcome = Simulation(maze).run()
    assert caption(ticks[0], outcome) == "tick 0"
    assert caption(ticks[3], outcome) == "tick 3 \u00b7 SCATTER"
    assert caption(ticks[-1], outcome) == "caught by pinky at tick 11 at (6,1)"


def test_crosses_stay_out_of_the_band(invoke: Invoke, tmp_path: Path) -> None:
    """Clyde's and inky's scatter targets lie below the grid, beyond the margin: their crosses
    are drawn at the margin's lower edge, never in the caption band."""
    target = tmp_path / "run.gif"
    args = ["chase", BOARD, "--mode", "scatter", "--ticks", "6", "--cell", "8"]
    assert invoke([*args, "--place", "inky=29,19", "-o", str(target)]).exit_code == 0
    maze = mazekit.read_maze(BOARD)
    frames, _ = _frames(target)
    for frame in frames:
        colours = {tuple(c) for c in np.unique(_band(frame, maze, 8).reshape(-1, 3), axis=0)}
        assert colours == {WHITE, BLACK}
    above = frames[3][: 6 * 8 + 20 * 8 + 1]
    assert (above == COLOURS["inky"]).all(axis=2).any()


def test_four_chasers_on_one_cell_are_all_visible(invoke: Invoke, tmp_path: Path) -> None:
    maze_file = tmp_path / "maze.txt"
    maze = generate_from_config(CONFIG, seed=3)
    maze_file.write_text(dump(maze))
    target = tmp_path / "run.gif"
    assert invoke(["chase", str(maze_file), "--ticks", "0", "-o", str(target)]).exit_code == 0
    frame = _frames(target)[0][0]
    cell, wall, margin = 16, 2, 48
    left, top = margin + 9 * cell + wall, margin + 7 * cell + wall  # the house (9,7)
    inside = frame[top : top + cell - wall, left : left + cell - wall]
    for name, rgb in COLOURS.items():
        assert (inside == rgb).all(axis=2).any(), name


def test_trails_fade_behind_the_chasers(invoke: Invoke, tmp_path: Path) -> None:
    maze_file = tmp_path / "maze.txt"
    maze_file.write_text(dump(generate_from_config(CONFIG, seed=3)))
    shown, hidden = tmp_path / "trail.gif", tmp_path / "none.gif"
    args = ["chase", str(maze_file), "--ticks", "30"]
    assert invoke([*args, "-o", str(shown)]).exit_code == 0
    assert invoke([*args, "--trail", "0", "-o", str(hidden)]).exit_code == 0
    with_trail, without = _frames(shown)[0][30], _frames(hidden)[0][30]
    colours = {tuple(c) for c in np.unique(with_trail.reshape(-1, 3), axis=0)}
    plain = {tuple(c) for c in np.unique(without.reshape(-1, 3), axis=0)}
    # blinky's shades: red faded towards the white background, newest strongest
    faded = {(255, v, v) for v in range(1, 255)}
    assert len(colours & faded) >= 2 and not plain & faded


def test_the_animation_and_the_page_share_their_default_theme() -> None:
    from mazekit.drawing import RenderOptions
    from mazekit.drawing.animation import AnimationOptions
    from mazekit.drawing.theme import DEFAULT_THEME

    assert AnimationOptions().theme == RenderOptions().theme == DEFAULT_THEME


def test_help_says_which_chaser_is_which(invoke: Invoke) -> None:
    text = " ".join(invoke(["chase", "--help"]).stdout.split())
    for words in (
        "blinky (red) chases the runner's cell",
        "pinky (pink) ambushes 4 cells ahead",
        "inky (cyan) doubles the vector from blinky",
        "clyde (orange) chases from 8 cells away or more",
    ):
        assert words in text


def test_output_names_it_does_not_draw_are_refused_before_any_run(
    invoke: Invoke, tmp_path: Path
) -> None:
    target = tmp_path / "chase.svg"
    result = invoke(["chase", BOARD, "-o", str(target)])
    assert result.exit_code == 2 and not target.exists()
    assert "cannot tell the format of" in result.stderr
    for name, first in (("r.txt", "caught"), ("r.json", '{"result"'), ("r.jsonl", '{"tick": 0')):
        written = tmp_path / name
        assert invoke(["chase", BOARD, "-o", str(written)]).exit_code == 0
        assert written.read_text().startswith(first) or name == "r.txt"
    assert (tmp_path / "r.txt").read_text() == invoke(["chase", BOARD]).stdout
    mixed = invoke(["chase", BOARD, "--format", "json", "-o", str(tmp_path / "result.log")])
    assert mixed.exit_code == 0 and (tmp_path / "result.log").read_text().startswith("{")


def test_an_animation_of_few_cells_widens_for_its_caption(invoke: Invoke, tmp_path: Path) -> None:
    source = tmp_path / "tiny.txt"
    source.write_text((ROOT / "samples" / "valid-2x1-tiny.txt").read_text())
    target = tmp_path / "tiny.gif"
    result = invoke(["chase", str(source), "--starts", "corners", "-o", str(target)])
    assert result.exit_code == 0, result.stderr
    frames, _ = _frames(target)
    maze = mazekit.read_maze(str(source))
    text = _words(Simulation(maze, mazekit.chasers.ChaseOptions(starts="corners")).run().describe())
    assert frames[-1].shape[1] >= text.shape[1] > (2 + 6) * 16
    assert np.array_equal(_ink(_band(frames[-1], maze, 16), BLACK), text)


def test_frames_decode_as_pictures(tmp_path: Path) -> None:
    """The GIF's frames are real pictures Pillow reads back (not a stub)."""
    maze = generate_from_config(CONFIG, seed=1)
    from mazekit.drawing.animation import AnimationOptions, render_animation

    data = render_animation(maze, Simulation(maze), AnimationOptions(trail=4))
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF" and image.n_frames == Simulation(maze).run().tick + 1
