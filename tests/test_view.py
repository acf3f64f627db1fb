"""``mazekit view``: the real program in a pseudo-terminal (screen, colours, keys, restore), and
its state and refusals without one."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mazekit.cli import view as view_command
from mazekit.drawing.theme import Ink
from mazekit.generators import Request, build
from mazekit.model import Maze
from mazekit.rules import validate
from mazekit.textformat import dump, parse, read
from mazekit.viewer import Setup, Viewer
from mazekit.viewer.screen import fit_color, fit_line, help_lines, shade_color
from mazekit.viewer.state import DIM, HELP_LINE, KEYS, PATTERN_SHADES, UNDERLINE, WALL_SHADES
from tests.conftest import SMALL_MAZE, Invoke
from tests.terminal import README_CAPTURE_ARGS, README_CAPTURE_SIZE, Terminal, readme_capture

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "valid-20x15-perfect.txt"
README = (ROOT / "README.md").read_text()
MARKS = {"blinky": "GR", "pinky": "GP", "inky": "GC", "clyde": "GO"}


def _marks(tick: dict[str, Any]) -> dict[tuple[int, int], str]:
    """What each cell holding actors shows after one tick of a ``chase --format jsonl`` trace:
    one actor's mark, two actors' letters, or the first's letter and how many stand there."""
    here: dict[tuple[int, int], list[tuple[str, str]]] = {}
    runner = tick["runner"]
    here.setdefault((runner["x"], runner["y"]), []).append(("@@", "@"))
    for chaser in tick["chasers"]:
        cell = (chaser["x"], chaser["y"])
        here.setdefault(cell, []).append((MARKS[chaser["name"]], chaser["name"][0].upper()))
    return {
        cell: (
            actors[0][0]
            if len(actors) == 1
            else actors[0][1] + actors[1][1]
            if len(actors) == 2
            else actors[0][1] + str(len(actors))
        )
        for cell, actors in here.items()
    }


# --- in a pseudo-terminal -------------------------------------------------------------------


def _seed(term: Terminal) -> int | None:
    """The seed on the status line, if it shows one."""
    found = re.search(r"seed (\d+)", term.text())
    return int(found.group(1)) if found else None


def test_view_shows_render_unicode_and_its_keys_change_path_and_colours(
    terminals, invoke: Invoke
) -> None:
    """The maze on stdin (keys then come from /dev/tty), drawn as render draws it; p, c, 4, q."""
    drawn = invoke(["render", str(SAMPLE), "--charset", "unicode"]).stdout.splitlines()
    term = terminals(["view"], stdin=SAMPLE, columns=80, rows=36)
    term.shows("from a file")
    assert term.lines()[: len(drawn)] == drawn
    assert term.lines()[34].startswith("20x15  from a file  valid  path on")
    entry = term.cell(1, 1)
    assert (entry.data, entry.fg, entry.bold) == ("E", "magenta", True)
    assert term.cell(0, 0).fg == "default"  # walls in the terminal's own colour
    pattern = next(
        (x, y) for y, line in enumerate(drawn) for x, ch in enumerate(line) if ch == "\u2588"
    )
    assert term.cell(*pattern).fg == "brightblack"  # render's ANSI 90

    term.press("p")
    term.shows("path off")
    assert not any("\u00b7" in line for line in term.lines())
    term.press("p")
    term.shows("path on")
    assert term.lines()[: len(drawn)] == drawn

    term.press("c")
    term.shows("walls blue")
    assert term.cell(0, 0).fg == "0087ff"  # 256 colours: xterm colour 33
    term.press("4")
    term.shows('"42" gold')
    assert term.cell(*pattern).fg == "ffd700"  # xterm colour 220

    term.press("q")
    code, echo, canonical = term.ending()
    assert (code, echo, canonical) == (0, True, True)
    assert term.raw.rindex(b"\x1b[?1049l") > term.raw.rindex(b"\x1b[?1049h")  # main screen back


def test_view_config_new_seed_save_and_ctrl_c(terminals, tmp_path: Path) -> None:
    """A config on an 8-colour terminal: r draws a new seed, s writes OUTPUT_FILE, Ctrl-C
    restores the terminal and exits 130."""
    config = tmp_path / "config.txt"
    config.write_text(
        "WIDTH=15\nHEIGHT=9\nENTRY=0,0\nEXIT=14,8\nOUTPUT_FILE=out.txt\nPERFECT=True\nSEED=7\n"
    )
    term = terminals(["view", "config.txt"], cwd=tmp_path, term="xterm", columns=60, rows=24)
    term.shows("seed 7")
    entry = term.cell(1, 1)
    assert (entry.data, entry.fg, entry.bold) == ("E", "magenta", True)

    term.press("r")
    term.wait_for(lambda: _seed(term) not in (None, 7))
    seed = _seed(term)
    term.press("c")  # blue is colour 12: blue in bold on 8 colours
    term.shows("walls blue")
    assert (term.cell(0, 0).fg, term.cell(0, 0).bold) == ("blue", True)

    term.press("s")
    term.shows("saved out.txt")
    saved = (tmp_path / "out.txt").read_text()
    assert validate(parse(saved)).valid
    expected = build(Request(15, 9, (0, 0), (14, 8), True, seed))
    assert saved == dump(expected)  # generate's bytes for the seed on the status line

    term.press("\x03")
    assert term.ending() == (130, True, True)


def test_view_resizes_and_its_chasers_after_n_are_tick_1(terminals, invoke: Invoke) -> None:
    """Too small first, then resized: the maze; n puts the chasers where tick 1 of
    `mazekit chase --format jsonl` does. SIGTERM restores the terminal too."""
    term = terminals(README_CAPTURE_ARGS, columns=30, rows=5)
    term.shows("terminal too small")
    term.resize(*README_CAPTURE_SIZE)
    term.shows("seed 5")

    term.press("n")
    term.shows("tick 1 scatter")
    maze = build(Request(12, 8, (1, 1), (11, 7), True, 5))
    trace = invoke(["chase", "--format", "jsonl"], input=dump(maze)).stdout.splitlines()
    tick = json.loads(trace[1])
    assert tick["tick"] == 1
    for (x, y), mark in _marks(tick).items():
        assert term.lines()[2 * y + 1][3 * x + 1 : 3 * x + 3] == mark

    os.killpg(os.getpgid(term.pid), signal.SIGTERM)
    assert term.ending() == (143, True, True)


def test_readme_capture_is_what_the_viewer_shows() -> None:
    """The README's screen; `python -m tests.terminal` prints it anew."""
    capture = README.split("<!-- view capture -->\n```text\n", 1)[1].split("```", 1)[0]
    assert readme_capture() == capture


# --- without a terminal ---------------------------------------------------------------------


def test_view_refuses_to_run_without_a_terminal(invoke: Invoke) -> None:
    result = invoke(["view", str(SAMPLE)])
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: mazekit view needs a terminal: standard output is not one "
        "(mazekit render prints a maze as text)\n"
    )
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (
            ["-o", "-"],
            None,
            2,
            "Error: Invalid value for '-o' / '--output': view saves to a file, not to stdout\n",
        ),
        (["nope.txt"], None, 1, "Error: nope.txt: cannot read: No such file or directory\n"),
        (
            [],
            "WIDTH=0\n",
            1,
            "Error: <stdin>: missing mandatory keys HEIGHT, ENTRY, EXIT, OUTPUT_FILE, PERFECT\n",
        ),
        (["--width", "0"], None, 2, "Error: --width must be a positive integer, got '0'\n"),
        (
            [],
            "D553\nD556\n\n9,0\n0,1\n\n",
            1,
            "Error: <stdin>: entry (9,0) is outside the 4x2 grid\n",
        ),
        (
            [],
            "D55x\n",
            1,
            "Error: <stdin>:1:4: invalid 'x' in the grid: expected a hex digit 0-9 or A-F\n",
        ),
    ],
)
def test_view_refuses_bad_input_as_its_readers_do(
    invoke: Invoke,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    stdin: str | None,
    code: int,
    message: str,
) -> None:
    monkeypatch.setattr(view_command, "_stdout_is_terminal", lambda: True)
    monkeypatch.setattr(view_command, "_stdin_is_terminal", lambda: stdin is None)
    result = invoke(["view", *args], input=stdin)
    assert result.exit_code == code
    assert result.stderr.splitlines()[-1] + "\n" == message


def test_view_refuses_unicode_in_a_locale_that_cannot_write_it(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(view_command, "_stdout_is_terminal", lambda: True)
    monkeypatch.setattr(view_command, "_locale_is_utf8", lambda: False)
    result = invoke(["view", str(SAMPLE), "--charset", "unicode"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--charset': unicode needs a UTF-8 locale "
        "(such as LANG=C.UTF-8): use --charset ascii"
    )


def test_view_refuses_unicode_where_lc_all_is_c(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    # LC_ALL=C turns Python's UTF-8 mode on, yet curses writes ASCII: the locale's own codeset
    # is what counts, read from the environment as curses reads it
    monkeypatch.setattr(view_command, "_stdout_is_terminal", lambda: True)
    monkeypatch.setenv("LC_ALL", "C")
    result = invoke(["view", str(SAMPLE), "--charset", "unicode"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith(
        "Error: Invalid value for '--charset': unicode needs a UTF-8 locale"
    )


@pytest.mark.parametrize("name", ["C", "xx_XX.UTF-8"], ids=["LC_ALL=C", "a locale not installed"])
def test_view_draws_ascii_where_the_locale_cannot_write_unicode(
    terminals, invoke: Invoke, name: str
) -> None:
    drawn = invoke(["render", str(SAMPLE), "--charset", "ascii"]).stdout.splitlines()
    term = terminals(["view", str(SAMPLE)], columns=80, rows=36, env={"LANG": name, "LC_ALL": name})
    term.shows("from a file")
    assert term.lines()[: len(drawn)] == drawn
    term.press("q")
    assert term.ending() == (0, True, True)


def _viewer(saved: dict[str, str], maze: str | Maze = SMALL_MAZE, **setup: object) -> Viewer:
    """A Viewer whose s writes into ``saved``, and fails for an absolute path."""

    def save(text: str, target: str) -> str | None:
        if target.startswith("/"):
            return f"{target}: cannot write: Permission denied"
        saved[target] = text
        return None

    shown = parse(maze) if isinstance(maze, str) else maze
    return Viewer(Setup(maze=shown, save=save, **setup))  # type: ignore[arg-type]


def test_viewer_keys_a_and_s_on_a_generated_maze() -> None:
    """a skips flood for a perfect maze and keeps the seed; s writes generate's bytes."""
    saved: dict[str, str] = {}
    request = Request(12, 8, (0, 0), (11, 7), True, 5, "hunt-and-kill")
    viewer = _viewer(saved, build(request), request=request, generated=True)
    viewer.press("a")  # hunt-and-kill is last but flood: back to backtracker
    assert viewer.request == Request(12, 8, (0, 0), (11, 7), True, 5, "backtracker")
    assert viewer.maze == build(viewer.request)
    viewer.press("s")
    assert viewer.hint() == "saved maze-5.txt"
    assert saved == {"maze-5.txt": dump(viewer.maze)}


def test_viewer_says_why_r_and_s_cannot() -> None:
    saved: dict[str, str] = {}
    stuck = _viewer(saved, request_error='--entry=4,3 lies on the "42" pattern')
    stuck.press("r")
    assert stuck.hint() == 'cannot make a new maze: --entry=4,3 lies on the "42" pattern'
    failing = _viewer(saved, save_to="/nowhere/maze.txt")
    failing.press("s")
    assert failing.hint() == "not saved: /nowhere/maze.txt: cannot write: Permission denied"
    assert saved == {}
    astray = _viewer(saved, "D553\nD556\n\n0,0\n0,1\nN\n")  # the path line leaves the grid
    astray.picture()
    assert astray.hint() == "path not shown: step 1 (N) from (0,0) leaves the grid"
    walled = _viewer(saved, "D553\nDF56\n\n0,0\n1,1\n\n")  # the exit is walled in
    walled.picture()
    assert walled.hint() == "path not shown: no path from the entry (0,0) to the exit (1,1)"
    walled.press("n")
    assert walled.hint() == "no chase: exit (1,1) is not reachable from entry (0,0)"


def test_viewer_warns_on_every_redraw_while_the_maze_has_no_room_for_its_42() -> None:
    """generate's warning, word for word, whenever the maze shown was made without its "42":
    from the start, after p redraws it, after r makes another; a key's own message wins for
    one key. A big enough maze, or one read from a file, keeps the key help."""
    saved: dict[str, str] = {}
    warning = 'Error: maze too small for the "42" pattern'
    request = Request(8, 6, (0, 0), (7, 5), True, 3)
    small = _viewer(saved, build(request), request=request, generated=True)
    assert small.hint() == warning
    small.press("p")
    assert small.hint() == warning
    small.press("c")
    assert small.hint() == "walls blue"
    small.press("r")
    assert small.request is not None and small.request.seed != 3
    assert small.hint() == warning
    fitting = Request(9, 7, (0, 0), (8, 6), True, 3)
    assert _viewer(saved, build(fitting), request=fitting, generated=True).hint() == HELP_LINE
    from_file = _viewer(saved, build(request), request=request)
    assert from_file.hint() == HELP_LINE
    from_file.press("r")  # a new maze of the file's size: made without the "42"
    assert from_file.hint() == warning


def test_viewer_scrolls_inside_the_picture() -> None:
    viewer = _viewer({}, read(SAMPLE))
    viewer.viewport = (10, 30)
    for key in ["DOWN"] * 40 + ["RIGHT"] * 40:
        viewer.press(key)
    lines, inks = viewer.picture()
    assert viewer.compact and len(lines) == read(SAMPLE).height + 1  # too tall for 10 lines
    assert (viewer.top, viewer.left) == (len(lines) - 10, len(lines[0]) - 30)
    assert inks.shape == (len(lines), len(lines[0]))
    inks = inks & (0xFF ^ DIM ^ UNDERLINE)
    assert (inks[1, 1], inks[1, 2], inks[0, 0], inks[1, 0]) == (
        Ink.ENTRY,
        Ink.ENTRY,
        Ink.WALL,
        Ink.WALL,
    )
    viewer.press("HOME")
    assert (viewer.top, viewer.left) == (0, 0)


def test_viewer_chase_ends_in_the_words_of_mazekit_chase(invoke: Invoke) -> None:
    """g runs the chase to its end; the hint line then says what `mazekit chase` prints."""
    maze = build(Request(12, 8, (1, 1), (11, 7), True, 5))
    viewer = _viewer({}, maze)
    viewer.press("g")
    while viewer.running:
        viewer.advance()
    assert viewer.hint() + "\n" == invoke(["chase"], input=dump(maze)).stdout
    assert viewer.tick is not None and f"tick {viewer.tick.tick}" in viewer.status()


def test_view_refuses_an_unknown_terminal(terminals) -> None:
    term = terminals(["view", str(SAMPLE)], term="no-such-terminal")
    assert term.ending()[0] == 2
    assert "Error: mazekit view cannot drive this terminal: setupterm: could not find terminal" in (
        term.text().replace("\n", "")
    )


def test_view_without_a_terminal_to_read_keys_from(tmp_path: Path) -> None:
    """stdout a terminal, stdin the maze, but no controlling terminal: /dev/tty cannot open."""
    primary, secondary = os.openpty()
    try:
        with SAMPLE.open("rb") as maze:
            result = subprocess.run(
                [sys.executable, "-m", "mazekit", "view"],
                stdin=maze,
                stdout=secondary,
                stderr=subprocess.PIPE,
                start_new_session=True,  # a new session has no controlling terminal
                timeout=60,
            )
    finally:
        os.close(primary)
        os.close(secondary)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        "Error: mazekit view needs a terminal to read keys: /dev/tty: No such device or address\n"
    )


def test_colours_fit_8_16_and_256_colour_terminals() -> None:
    """Walls in blue: 256-colour blue 33, else bright blue 12, which 8 colours show as bold
    blue 4; "42" in render's gray (bright black 8) everywhere; nothing with colours off."""
    blue, gray = WALL_SHADES[1], PATTERN_SHADES[0]
    assert [fit_color(shade_color(blue, n), n) for n in (256, 16, 8, 0)] == [
        (33, False),
        (12, False),
        (4, True),
        (-1, False),
    ]
    assert [fit_color(shade_color(gray, n), n) for n in (256, 16, 8)] == [
        (8, False),
        (8, False),
        (0, True),
    ]
    assert fit_color(-1, 256) == (-1, False)  # the terminal's own colour


def test_the_help_shows_every_key_where_two_columns_fit_and_counts_the_rest_where_not() -> None:
    """A short terminal gets the keys side by side; a narrow and short one, what fits and the
    number of keys left out, never a list cut off without a word."""
    keys = [key for key, _ in KEYS]
    tall = help_lines(16, 78)
    short = help_lines(10, 78)
    for lines in (tall, short):
        assert lines[0] == "mazekit view: keys" and lines[-1] == "any key closes"
        assert len(lines) + 2 <= (16 if lines is tall else 10)
        assert all(re.search(rf"(^|   ){re.escape(key)} ", "\n".join(lines), re.M) for key in keys)
    assert len(tall) == len(KEYS) + 2 and len(short) < len(KEYS) + 2
    cramped = help_lines(8, 38)
    assert len(cramped) == 6 and max(map(len, cramped)) <= 34
    assert cramped[-1] == f"+{len(KEYS) - 4} more keys in a taller terminal"


def test_view_help_in_a_short_terminal_lists_every_key(terminals) -> None:
    term = terminals(README_CAPTURE_ARGS, columns=80, rows=14)
    term.shows("seed 5")
    term.press("?")
    term.shows("any key closes")
    screen = term.text()
    assert all(text in screen for _, text in KEYS)
    term.press("x")
    term.wait_for(lambda: "any key closes" not in term.text())


def test_a_long_hint_keeps_its_advice_on_an_80_column_line() -> None:
    """The hint line is one terminal line: a message longer than it is cut in the middle,
    so that its advice in brackets, what the user acts on, stays visible."""
    message = (
        "no chase: the chasers have no house: no cell but the entry and the exit can be "
        "reached (use --starts corners or --place)"
    )
    shown = fit_line(message, 79)
    assert len(shown) == 79
    assert shown.startswith("no chase: the chasers have no house")
    assert shown.endswith("... (use --starts corners or --place)")
    assert fit_line("short", 79) == "short"
    assert fit_line("x" * 100, 79) == "x" * 79  # no advice: cut at the end
