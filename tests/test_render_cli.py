"""``mazekit render`` on the command line: formats, options, colour rules, every message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mazekit.cli import render as render_cli
from tests.conftest import SMALL_MAZE, Invoke

DATA = Path(__file__).parent / "data" / "render"
MAZE = str(DATA / "maze-20x15.txt")
ASCII = (DATA / "maze-20x15-ascii.txt").read_text()
UNICODE = (DATA / "maze-20x15-unicode.txt").read_text()
SVG = (DATA / "maze-20x15.svg").read_text()
SMALL_ASCII = "+--+--+--+--+\n|EN .. .. ..|\n+--+--+--+  +\n|EX .. .. ..|\n+--+--+--+--+\n"
ANSI = "\x1b["


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend stdout is a terminal."""
    monkeypatch.setattr(render_cli, "_stdout_is_terminal", lambda: True)


@pytest.fixture(autouse=True)
def no_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start every test without NO_COLOR, whatever the developer's shell has."""
    monkeypatch.delenv("NO_COLOR", raising=False)


# --- output formats ------------------------------------------------------------------------


def test_text_on_stdout_by_default(invoke: Invoke) -> None:
    result = invoke(["render", MAZE])
    assert (result.exit_code, result.stdout, result.stderr) == (0, ASCII, "")


def test_reads_stdin_without_a_file_or_with_dash(invoke: Invoke) -> None:
    assert invoke(["render"], input=SMALL_MAZE).stdout == SMALL_ASCII
    assert invoke(["render", "-"], input=SMALL_MAZE).stdout == SMALL_ASCII


@pytest.mark.parametrize(
    ("name", "start"), [("m.png", b"\x89PNG"), ("m.SVG", b"<?xml"), ("m.txt", b"+--+")]
)
def test_format_from_the_extension(invoke: Invoke, tmp_path: Path, name: str, start: bytes) -> None:
    result = invoke(["render", MAZE, "-o", str(tmp_path / name)])
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / name).read_bytes().startswith(start)


def test_format_option_wins_over_the_extension(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "picture.dat"
    assert invoke(["render", MAZE, "--format", "svg", "-o", str(target)]).exit_code == 0
    assert target.read_text() == SVG
    assert (
        invoke(["render", MAZE, "--format", "text", "-o", str(tmp_path / "x.png")]).exit_code == 0
    )
    assert (tmp_path / "x.png").read_text() == ASCII


def test_svg_and_text_to_stdout(invoke: Invoke) -> None:
    assert invoke(["render", MAZE, "--format", "svg"]).stdout == SVG
    assert invoke(["render", MAZE, "-o", "-", "--charset", "unicode"]).stdout == UNICODE


def test_png_to_stdout_when_it_is_not_a_terminal(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke(["render", MAZE, "--format", "png", "-o", "-"])
    assert result.exit_code == 0
    invoke(["render", MAZE, "-o", str(tmp_path / "m.png")])
    assert result.stdout_bytes == (tmp_path / "m.png").read_bytes()


@pytest.mark.usefixtures("terminal")
@pytest.mark.parametrize("args", [["--format", "png", "-o", "-"], ["--format", "png"]])
def test_png_to_a_terminal_is_refused(invoke: Invoke, args: list[str]) -> None:
    result = invoke(["render", MAZE, *args])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: refusing to write a PNG to a terminal: redirect stdout or use -o FILE.png\n"
    )


def test_unknown_extension_is_a_usage_error(invoke: Invoke) -> None:
    result = invoke(["render", MAZE, "-o", "maze.gif"])
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: cannot tell the format of 'maze.gif': name it .png, .svg, .txt or .html, "
        "or give --format png|svg|text|html\n"
    )
    assert not Path("maze.gif").exists()


# --- options -------------------------------------------------------------------------------


def test_drawing_options_reach_the_picture(invoke: Invoke) -> None:
    result = invoke(
        [
            "render", MAZE, "--format", "svg", "--cell", "10", "--wall", "3", "--margin", "0",
            "--theme", "dark", "--no-path", "--dead-ends", "--background", "#010203",
            "--wall-color", "#040506", "--pattern-color", "teal", "--entry-color", "lime",
            "--exit-color", "navy", "--path-color", "#abc", "--dead-end-color", "purple",
            "--enclosed-color", "olive",
        ]
    )  # fmt: skip
    svg = result.stdout
    assert 'width="203" height="153"' in svg
    for colour in ("#010203", "#040506", "#008080", "#00ff00", "#000080", "#800080", "#808000"):
        assert f'"{colour}"' in svg
    assert "stroke" not in svg  # --no-path
    coloured = invoke(["render", MAZE, "--format", "svg", "--path-color", "#abc"]).stdout
    assert 'stroke="#aabbcc"' in coloured


def test_path_option_computes_a_missing_path(invoke: Invoke) -> None:
    pathless = SMALL_MAZE.replace("EEESWWW", "")
    assert ".." not in invoke(["render"], input=pathless).stdout
    assert invoke(["render", "--path"], input=pathless).stdout == SMALL_ASCII
    assert invoke(["render", "--no-path"], input=SMALL_MAZE).stdout == SMALL_ASCII.replace(
        "..", "  "
    )


def test_dead_ends_in_text(invoke: Invoke) -> None:
    result = invoke(["render", str(DATA / "maze-9x7.txt"), "--dead-ends", "--charset", "unicode"])
    assert result.stdout == (DATA / "maze-9x7-unicode-dead-ends.txt").read_text()


# --- colour in text ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("on_terminal", "args", "no_color", "coloured"),
    [
        (False, [], False, False),
        (True, [], False, True),
        (True, [], True, False),
        (True, ["--color", "never"], False, False),
        (False, ["--color", "always"], False, True),
        (True, ["--color", "always"], True, False),
        (False, ["--color", "auto"], False, False),
    ],
)
def test_ansi_colour_rules(
    invoke: Invoke,
    monkeypatch: pytest.MonkeyPatch,
    on_terminal: bool,
    args: list[str],
    no_color: bool,
    coloured: bool,
) -> None:
    monkeypatch.setattr(render_cli, "_stdout_is_terminal", lambda: on_terminal)
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    result = invoke(["render", MAZE, *args])
    assert result.exit_code == 0
    assert (ANSI in result.stdout) is coloured


def test_an_empty_no_color_does_not_count(invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_cli, "_stdout_is_terminal", lambda: True)
    monkeypatch.setenv("NO_COLOR", "")
    assert ANSI in invoke(["render", MAZE]).stdout


@pytest.mark.usefixtures("terminal")
def test_a_file_gets_colour_only_with_always(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "m.txt"
    invoke(["render", MAZE, "-o", str(target)])
    assert target.read_text() == ASCII
    invoke(["render", MAZE, "-o", str(target), "--color", "always"])
    assert ANSI in target.read_text()


# --- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--wall", "16"], "Invalid value for '--wall': must be at least 1 and less than the "
         "cell size (16), got 16"),
        (["--cell", "4", "--wall", "4"], "Invalid value for '--wall': must be at least 1 and "
         "less than the cell size (4), got 4"),
        (["--cell", "1"], "--cell must be an integer of at least 2, got '1'"),
        (["--margin", "-1"], "--margin must be a non-negative integer, got '-1'"),
        (["--wall-color", "blu"], "Invalid value for '--wall-color': 'blu' is not a colour: use "
         "#RGB, #RRGGBB or a name (black, blue, cyan, gold, gray, green, lime, magenta, maroon, "
         "navy, olive, orange, purple, red, silver, teal, white, yellow)"),
        (["--theme", "neon"], "Invalid value for '--theme': 'neon' is not one of 'light', 'dark', 'pacman'."),
        (["--format", "gif"], "Invalid value for '--format': 'gif' is not one of 'png', 'svg', "
         "'text', 'html'."),
        (["--charset", "x"], "Invalid value for '--charset': 'x' is not one of 'ascii', "
         "'unicode'."),
        (["--color", "x"], "Invalid value for '--color': 'x' is not one of 'auto', 'always', "
         "'never'."),
    ],
)  # fmt: skip
def test_bad_option_values_are_usage_errors(invoke: Invoke, args: list[str], message: str) -> None:
    result = invoke(["render", MAZE, *args])
    assert (result.exit_code, result.stdout) == (2, "")
    last = result.stderr.strip().splitlines()[-1]
    assert last == f"Error: {message}"


@pytest.mark.parametrize(
    ("text", "args", "message"),
    [
        (SMALL_MAZE.replace("0,1\n", "4,1\n"), [], "exit (4,1) is outside the 4x2 grid"),
        (SMALL_MAZE.replace("0,0\n", "0,9\n"), [], "entry (0,9) is outside the 4x2 grid"),
        (SMALL_MAZE.replace("EEESWWW", "EEEE"), [], "step 4 (E) from (3,0) leaves the grid"),
        ("FF\n\n0,0\n1,0\n", ["--path"], "no path from the entry (0,0) to the exit (1,0)"),
        (
            SMALL_MAZE,
            ["--format", "png", "--cell", "9000"],
            "a 4x2 maze at 9000 px cells makes a 36018x18018 image (648,972,324 pixels), over "
            "the limit of 200,000,000: use a smaller --cell or the svg format",
        ),
        ("D5x3\n", [], "1:3: invalid 'x' in the grid: expected a hex digit 0-9 or A-F"),
    ],
)
def test_undrawable_mazes_exit_1_with_the_file_name(
    invoke: Invoke, text: str, args: list[str], message: str
) -> None:
    result = invoke(["render", *args], input=text)
    assert (result.exit_code, result.stdout) == (1, "")
    separator = "" if message[0].isdigit() else " "
    assert result.stderr == f"Error: <stdin>:{separator}{message}\n"


def test_the_size_limit_leaves_an_existing_file_untouched(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "m.png"
    target.write_bytes(b"precious")
    result = invoke(["render", MAZE, "-o", str(target), "--cell", "5000"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {MAZE}: a 20x15 maze at 5000 px cells makes a ")
    assert target.read_bytes() == b"precious"
    assert [p.name for p in tmp_path.iterdir()] == ["m.png"]


def test_unreadable_input_and_unwritable_output(invoke: Invoke, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    result = invoke(["render", str(missing)])
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: {missing}: cannot read: No such file or directory\n",
    )
    target = tmp_path / "no" / "m.svg"
    result = invoke(["render", MAZE, "-o", str(target)])
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: {target}: cannot write: No such file or directory\n",
    )


def test_help_has_examples_and_every_option(invoke: Invoke) -> None:
    result = invoke(["render", "-h"])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert "mazekit render maze.txt -o maze.png" in result.stdout.split("Examples:")[-1]
    for option in ("--cell", "--wall", "--margin", "--theme", "--path / --no-path",
                   "--dead-ends", "--charset", "--color", "--background", "--wall-color",
                   "--path-color", "--pattern-color", "--entry-color", "--exit-color",
                   "--dead-end-color", "--enclosed-color", "--format", "-o, --output"):  # fmt: skip
        assert option in result.stdout, option


# --- the process ---------------------------------------------------------------------------


def run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize("kind", ["png", "svg", "text"])
def test_pictures_do_not_load_pillow(kind: str, tmp_path: Path) -> None:
    """Pillow's import is a tenth of a second: PNG is encoded by mazekit's own few lines."""
    target = str(tmp_path / "picture")  # never a device: -o must not touch /dev as root
    code = (
        "import sys\nfrom mazekit.cli import cli\n"
        f"cli.main(['render', {MAZE!r}, '--format', {kind!r}, '-o', {target!r}], "
        "standalone_mode=False)\n"
        "print('PIL' in sys.modules)\n"
    )
    assert run(code) == "False\n"


def test_a_png_through_a_real_pipe(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mazekit", "render", MAZE, "--format", "png"],
        capture_output=True,
        check=True,
    )
    assert result.stdout.startswith(b"\x89PNG\r\n\x1a\n")
    assert result.stderr == b""


def test_no_path_draws_a_file_whose_path_line_is_malformed(invoke: Invoke) -> None:
    result = invoke(["render", "--no-path", "--charset", "ascii"], input="D7\n\n0,0\n1,0\nEX\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "+--+--+\n|EN EX|\n+--+--+\n"
    assert invoke(["render"], input="D7\n\n0,0\n1,0\nEX\n").exit_code == 1
