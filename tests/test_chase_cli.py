"""``mazekit chase`` as a user runs it: outputs, --expect, options, every message, the animation."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import mazekit
from mazekit.textformat import dump
from tests.conftest import Invoke, closed_grid, open_wall

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = str(ROOT / "samples" / "valid-30x20-board.txt")  # entry (0,0): pinky's corner
CORNERS = ["--starts", "corners"]
BOARD = str(ROOT / "tests" / "data" / "chase" / "board-30x20.txt")  # entry and exit mid-edge


def corridor(cells: int = 6) -> str:
    """A one-row corridor, entry west, exit east, as a maze file."""
    walls = closed_grid(cells, 1)
    for x in range(cells - 1):
        open_wall(walls, x, 0, "E")
    return dump(mazekit.Maze(walls, (0, 0), (cells - 1, 0), "E" * (cells - 1)))


def test_text_result_caught_escaped_running(invoke: Invoke) -> None:
    caught = invoke(["chase", SAMPLE, *CORNERS])
    assert (caught.exit_code, caught.stdout) == (0, "caught by pinky at tick 0 at (0,0)\n")
    assert invoke(["chase", SAMPLE, *CORNERS, "--place", "pinky=10,5"]).stdout == (
        "caught by inky at tick 62 at (29,19)\n"
    )
    only = ["--only", "blinky,pinky,clyde", "--place", "pinky=10,5", SAMPLE, *CORNERS]
    assert invoke(["chase", *only]).stdout == "escaped at tick 62\n"
    running = invoke(["chase", BOARD, "--runner", "patrol", "--mode", "scatter", "--ticks", "40"])
    assert running.stdout == "still running after 40 ticks\n"
    one = invoke(["chase", BOARD, "--runner", "patrol", "--mode", "scatter", "--ticks", "1"])
    assert one.stdout == "still running after 1 tick\n"


def test_stdin_and_dash(invoke: Invoke) -> None:
    text = Path(BOARD).read_text()
    assert invoke(["chase"], input=text).stdout == invoke(["chase", "-"], input=text).stdout
    assert invoke(["chase"], input=text).stdout == invoke(["chase", BOARD]).stdout


def test_json_result(invoke: Invoke) -> None:
    result = invoke(["chase", SAMPLE, *CORNERS, "--place", "pinky=10,5", "--format", "json"])
    assert result.stdout.count("\n") == 1
    assert json.loads(result.stdout) == {
        "result": "caught",
        "tick": 62,
        "by": "inky",
        "cell": [29, 19],
        "ticks": 10000,
        "modes": {"scatter": 56, "chase": 6},
    }


def test_jsonl_is_the_api_trace_from_tick_zero(invoke: Invoke) -> None:
    args = ["chase", BOARD, "--runner", "patrol", "--schedule", "5,5", "--ticks", "30"]
    lines = invoke([*args, "--format", "jsonl"]).stdout.splitlines()
    _, ticks = mazekit.chase(mazekit.read_maze(BOARD), runner="patrol", schedule=(5, 5), ticks=30)
    assert lines == [json.dumps(tick.to_dict()) for tick in ticks]
    first, last = json.loads(lines[0]), json.loads(lines[-1])
    assert len(lines) == 31 and first["tick"] == 0 and last["tick"] == 30
    assert list(first) == ["tick", "mode", "runner", "chasers", "event"]
    assert [json.loads(line)["event"] for line in lines[5:7]] == [None, "reverse"]
    assert last["event"] == "running" and last["mode"] == "scatter"


def test_options_reach_the_run(invoke: Invoke) -> None:
    trace = invoke(
        ["chase", "--only", "clyde", "--place", "clyde=5,0", "--format", "jsonl"], input=corridor()
    )
    assert [c["name"] for c in json.loads(trace.stdout.splitlines()[0])["chasers"]] == ["clyde"]
    # the corridor: blinky at (1,0) swaps with the runner on tick 1
    swap = ["chase", "--only", "blinky", "--place", "blinky=1,0", "--mode", "chase"]
    assert invoke(swap, input=corridor()).stdout == "escaped at tick 5\n"
    no_pass = invoke([*swap, "--no-pass-through"], input=corridor())
    assert no_pass.stdout == "caught by blinky at tick 1 at (1,0)\n"


def test_a_bad_path_line_is_replaced_by_solves_path(invoke: Invoke) -> None:
    text = corridor().replace("EEEEE\n", "EESW\n")
    inky = ["chase", "--only", "inky", *CORNERS]  # on the exit: it passes the runner
    assert invoke(inky, input=text).stdout == "escaped at tick 5\n"
    assert invoke(inky, input=text.replace("EESW\n", "EEXQ\n")).exit_code == 0


def test_expect(invoke: Invoke) -> None:
    ok = invoke(["chase", SAMPLE, *CORNERS, "--expect", "caught"])
    assert (ok.exit_code, ok.stderr) == (0, "")
    wrong = invoke(["chase", SAMPLE, *CORNERS, "--place", "pinky=10,5", "--expect", "escaped"])
    assert wrong.exit_code == 1
    assert wrong.stdout == "caught by inky at tick 62 at (29,19)\n"  # written all the same
    assert wrong.stderr == (
        f"Error: {SAMPLE}: result caught, expected escaped (caught by inky at tick 62 at (29,19))\n"
    )
    running = invoke(
        ["chase", "--ticks", "2", "--expect", "escaped", "--only", "inky", *CORNERS],
        input=corridor(),
    )
    assert running.stderr == (
        "Error: <stdin>: result running, expected escaped (still running after 2 ticks)\n"
    )


def _maze(width: int, height: int, opens: list[tuple[int, int, str]], entry: str, exit: str) -> str:
    walls = closed_grid(width, height)
    for x, y, letter in opens:
        open_wall(walls, x, y, letter)
    rows = "\n".join("".join(f"{v:X}" for v in row) for row in walls)
    return f"{rows}\n\n{entry}\n{exit}\n\n"


@pytest.mark.parametrize(
    ("maze", "args", "message"),
    [
        (
            _maze(3, 1, [], "0,0", "2,0"),
            [],
            "Error: <stdin>: exit (2,0) is not reachable from entry (0,0)\n",
        ),
        (
            _maze(3, 1, [(0, 0, "E"), (1, 0, "E")], "1,0", "1,0"),
            [],
            "Error: <stdin>: entry and exit are the same cell (1,0): the runner has nowhere to go\n",
        ),
        (
            _maze(3, 1, [(0, 0, "E"), (1, 0, "E")], "0,0", "7,0"),
            [],
            "Error: <stdin>: exit (7,0) is outside the 3x1 grid\n",
        ),
        (
            corridor(),
            ["--place", "inky=6,0"],
            "Error: <stdin>: inky's start (6,0) is outside the 6x1 grid\n",
        ),
        (
            _maze(4, 2, [(0, 0, "E"), (1, 0, "E"), (2, 0, "E")], "0,0", "3,0"),
            CORNERS,
            "Error: <stdin>: inky cannot reach the runner: no open way leads from its start "
            "(3,1) to the entry (0,0)\n",
        ),
        (
            corridor(),
            ["--place", "inky=-1,0"],  # read as solve's --from reads a cell: outside, exit 1
            "Error: <stdin>: inky's start (-1,0) is outside the 6x1 grid\n",
        ),
        (
            corridor(),
            ["--place", " clyde = 1234567890 , 0 "],
            "Error: <stdin>: clyde's start (1234567890,0) is outside the 6x1 grid\n",
        ),
        (
            _maze(2, 1, [(0, 0, "E")], "0,0", "1,0"),
            [],
            "Error: <stdin>: the chasers have no house: no cell but the entry and the exit can "
            "be reached (use --starts corners or --place)\n",
        ),
        ("", [], "Error: <stdin>:1:1: empty input: no grid rows\n"),
    ],
)
def test_mazes_it_cannot_run_on(invoke: Invoke, maze: str, args: list[str], message: str) -> None:
    result = invoke(["chase", *args], input=maze)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", message)


def test_an_unreadable_file(invoke: Invoke, tmp_path: Path) -> None:
    missing = tmp_path / "none.txt"
    result = invoke(["chase", str(missing)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {missing}: cannot read: No such file or directory\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--place", "pinky:3,4"],
            "Invalid value for '--place': expected NAME=X,Y (e.g. pinky=3,4), got 'pinky:3,4'",
        ),
        (
            ["--place", "pinky=3,+4"],
            "Invalid value for '--place': expected NAME=X,Y (e.g. pinky=3,4), got 'pinky=3,+4'",
        ),
        (
            ["--place", "pinky=" + "9" * 41 + ",0"],
            f"--place pinky={'9' * 40}... is outside every maze",
        ),
        (
            ["--place", "sue=3,4"],
            "Invalid value for '--place': unknown chaser 'sue' (known: blinky, pinky, inky, clyde)",
        ),
        (
            ["--only", "blinky,shadow"],
            "Invalid value for '--only': unknown chaser 'shadow' (known: blinky, pinky, inky, clyde)",
        ),
        (
            ["--schedule", "7,0,3"],
            "Invalid value for '--schedule': expected positive tick counts separated by commas, got '7,0,3'",
        ),
        (
            ["--schedule", "x" * 50],
            "Invalid value for '--schedule': expected positive tick counts separated by commas, "
            f"got '{'x' * 40}...'",
        ),
        (
            ["--mode", "chase", "--schedule", "5"],
            "--mode and --schedule cannot be combined: --mode fixes one mode for the whole run",
        ),
        (
            ["--fps", "5"],
            "--fps, --cell, --theme and --trail apply only to an animation "
            "(-o NAME.gif, NAME.png or NAME.apng)",
        ),
        (
            ["--theme", "dark", "-o", "trace.jsonl"],
            "--fps, --cell, --theme and --trail apply only to an animation "
            "(-o NAME.gif, NAME.png or NAME.apng)",
        ),
        (
            ["--trail", "3"],
            "--fps, --cell, --theme and --trail apply only to an animation "
            "(-o NAME.gif, NAME.png or NAME.apng)",
        ),
        (
            ["--trail", "-1", "-o", "run.gif"],
            "--trail must be a non-negative integer, got '-1'",
        ),
        (
            ["-o", "chase.svg"],
            "cannot tell the format of 'chase.svg': name it .gif, .png or .apng (an "
            "animation), or .txt, .json or .jsonl, or give --format text|json|jsonl",
        ),
        (
            ["-o", "result"],
            "cannot tell the format of 'result': name it .gif, .png or .apng (an "
            "animation), or .txt, .json or .jsonl, or give --format text|json|jsonl",
        ),
        (
            ["--format", "jsonl", "-o", "run.gif"],
            "--format jsonl cannot be combined with -o run.gif: a .gif, .png or .apng name "
            "draws the animation",
        ),
    ],
)
def test_usage_errors(invoke: Invoke, args: list[str], message: str) -> None:
    result = invoke(["chase", *args], input=corridor())
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("Usage: ")
    assert result.stderr.endswith(f"\n\nError: {message}\n")


def _frames(data: bytes) -> list[bytes]:
    """Every frame of an animation, as RGB bytes."""
    image = Image.open(io.BytesIO(data))
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(image.convert("RGB").tobytes())
    return frames


@pytest.mark.parametrize("suffix", ["gif", "png"])
def test_animation_one_frame_per_tick_same_bytes(
    invoke: Invoke, tmp_path: Path, suffix: str
) -> None:
    args = ["chase", BOARD, "--runner", "patrol", "--ticks", "12", "--cell", "8"]
    first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    assert invoke([*args, "-o", str(first)]).exit_code == 0
    assert invoke([*args, "-o", str(second)]).exit_code == 0
    data = first.read_bytes()
    assert data == second.read_bytes()
    assert data.startswith(b"GIF89a" if suffix == "gif" else b"\x89PNG")
    image = Image.open(first)
    assert image.n_frames == 13  # ticks 0..12
    band = 11 + 2 * 2  # one line of the bitmap font, 2 px above and below
    assert image.size == (2 * 3 * 8 + 30 * 8 + 1, 2 * 3 * 8 + 20 * 8 + 1 + band)


def test_animation_draws_runner_chasers_targets_and_mode(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "run.gif"
    args = ["chase", BOARD, "--mode", "scatter", "--ticks", "3", "--cell", "10", "--fps", "4"]
    assert invoke([*args, *CORNERS, "--theme", "pacman", "-o", str(target)]).exit_code == 0
    image = Image.open(target)
    assert image.info["duration"] == 250
    image.seek(1)
    frame = image.convert("RGB")
    colours = {rgb for _, rgb in frame.getcolors(1 << 16)}
    for rgb in [(255, 0, 0), (255, 184, 255), (0, 255, 255), (255, 184, 82), (255, 255, 0)]:
        assert rgb in colours  # the four chasers and the runner
    # pinky's scatter target (-2,-2) lies in the margin: a pink cross there
    side, margin, wall = 10 - 1, 30, 1
    left = top = margin - 2 * 10 + wall
    corner = frame.crop((left, top, left + side, top + side))
    assert (255, 184, 255) in {rgb for _, rgb in corner.getcolors(256)}


@pytest.mark.parametrize(
    ("theme", "background", "wall"),
    [("light", (255, 255, 255), (0, 0, 0)), ("dark", (17, 17, 17), (224, 224, 224))],
)
def test_animation_in_the_plain_themes(
    invoke: Invoke,
    tmp_path: Path,
    theme: str,
    background: tuple[int, int, int],
    wall: tuple[int, int, int],
) -> None:
    target = tmp_path / "run.png"
    args = ["chase", BOARD, "--ticks", "2", "--cell", "8", "--theme", theme, "-o", str(target)]
    assert invoke(args).exit_code == 0
    image = Image.open(target)
    assert image.n_frames == 3
    image.seek(2)
    colours = {rgb for _, rgb in image.convert("RGB").getcolors(1 << 16)}
    assert {background, wall, (255, 0, 0), (255, 255, 0)} <= colours


def test_animation_too_long_is_refused(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "long.gif"
    args = ["chase", BOARD, "--runner", "patrol", "--cell", "200", *CORNERS, "-o", str(target)]
    result = invoke(args)
    assert result.exit_code == 1 and not target.exists()
    assert result.stderr == (
        f"Error: {BOARD}: the run has 171 frames (ticks 0 to 170), more than the 4 frames of "
        "7225x5600 px one animation may hold (at most 200,000,000 pixels in all); use --ticks 3 "
        "or less, or a smaller --cell\n"
    )


def test_animation_frame_too_large_is_refused(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke(["chase", BOARD, "--cell", "3000", "-o", str(tmp_path / "big.png")])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {BOARD}: one frame of 108375x84000 px is over the limit of 200,000,000 pixels: "
        "use a smaller --cell\n"
    )


def test_docs_chase_gif_is_what_make_docs_draws(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "chase.gif"
    makefile = (ROOT / "Makefile").read_text()
    line = next(line for line in makefile.splitlines() if "docs/chase.gif" in line)
    words = line.split("$(BIN)/mazekit ", 1)[1].split()  # before the paths: TMPDIR may hold a space
    args = [
        str(target) if word == "docs/chase.gif" else word.replace("samples/", f"{ROOT}/samples/")
        for word in words
    ]
    assert invoke(args).exit_code == 0
    assert target.read_bytes() == (ROOT / "docs" / "chase.gif").read_bytes()


def test_chase_without_images_does_not_load_pillow() -> None:
    code = (
        "import sys\n"
        "from mazekit.cli import cli\n"
        f"cli.main(['chase', '--format', 'jsonl', {BOARD!r}], standalone_mode=False)\n"
        "print(sorted(m for m in ('PIL', 'PIL.Image') if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.stderr == "[]\n"


def test_an_apng_name_draws_the_same_animated_png_as_png(invoke: Invoke, tmp_path: Path) -> None:
    """`-o run.apng` is the animation a user asks for by that name, not the text result."""
    for name in ("run.png", "RUN.APNG"):
        assert (
            invoke(
                ["chase", BOARD, "--ticks", "2", "--cell", "8", "-o", str(tmp_path / name)]
            ).exit_code
            == 0
        )
    assert (tmp_path / "RUN.APNG").read_bytes() == (tmp_path / "run.png").read_bytes()
    assert Image.open(tmp_path / "RUN.APNG").n_frames == 3
