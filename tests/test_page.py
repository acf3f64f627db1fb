"""The HTML page in a real browser: what a person sees and does, in headless Chromium.

One browser for the session and one page load for most tests (the board is reloaded through
``mazekit.app.load``), so the suite stays fast. Skipped, with the reason, when Chromium or
Playwright is missing; .ci/run installs Chromium so CI always runs them.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mazekit
from mazekit.board import house
from mazekit.drawing.html import board_data, render_html
from mazekit.errors import MazeError
from mazekit.graph import betweenness, cop_number, gini
from mazekit.measures import stats
from mazekit.model import BY_LETTER, Maze
from mazekit.pacman import dead_ends
from mazekit.rules import validate
from mazekit.textformat import dump, parse, read
from tests.browser import launch, skip_reason
from tests.conftest import Invoke, closed_grid, open_wall, relief_board, scaled
from tests.test_graph import _with_loops

_REASON = skip_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=_REASON or "")

BOARD = "samples/valid-30x20-board.txt"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with launch(lean=True) as opened:
        yield opened


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "board.html"
    out.write_text(render_html(read(BOARD)), encoding="utf-8")
    return out


class Tab:
    """One loaded page, with what it logged and every request it made."""

    def __init__(self, page: Any, errors: list[str], requests: list[str]) -> None:
        self.page, self.errors, self.requests = page, errors, requests

    def js(self, expression: str, arg: Any = None) -> Any:
        return self.page.evaluate(expression, arg)

    def table(self, table_id: str) -> list[list[str]]:
        """The rows of a table's body as a person reads them (innerText), in one request to
        the browser rather than one per row."""
        rows: list[list[str]] = self.page.locator(f"#{table_id} tbody tr").evaluate_all(
            "rows => rows.map(row => [...row.querySelectorAll('th, td')].map(c => c.innerText))"
        )
        return rows

    def figures(self) -> dict[str, str]:
        return {key: value for key, value in self.table("figures")}

    def status(self) -> str:
        text: str = self.page.locator("#status").inner_text()
        return text

    def load(self, maze: Maze, options: dict[str, Any] | None = None) -> None:
        """Show another board (and chase options), its figures in (the worker's too)."""
        self.js(
            """async ([data, options]) => {
                mazekit.app.load(data);
                if (options) mazekit.app.configure(options);
                await mazekit.app.ready();
            }""",
            [board_data(maze), options],
        )

    def ready(self) -> None:
        """Wait for the worker's figures of the board as it is now."""
        self.js("mazekit.app.ready()")

    def app_figures(self) -> dict[str, Any]:
        """``mazekit.app.figures()`` once the worker's figures are in."""
        found: dict[str, Any] = self.js("mazekit.app.ready().then(() => mazekit.app.figures())")
        return found


def _loaded(tab: Tab) -> list[str]:
    """What the page loaded: its requests but the figures worker's script, which the page
    makes from its own text (a ``blob:`` URL, no request leaves the browser)."""
    return [url for url in tab.requests if not url.startswith("blob:")]


def _open(where: Any, path: Path) -> Tab:
    """Load the page in a new tab of ``where`` (a browser, or a context to share)."""
    if hasattr(where, "new_context"):
        where = where.new_context(viewport={"width": 1200, "height": 800}, accept_downloads=True)
    page = where.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.resolve().as_uri())
    page.evaluate("mazekit.app.ready()")
    return Tab(page, errors, requests)


@pytest.fixture(scope="module")
def tab(browser: Any, page_file: Path) -> Iterator[Tab]:
    opened = _open(browser, page_file)
    yield opened
    opened.page.context.close()


@pytest.fixture
def fresh(tab: Tab) -> Tab:
    """The module's page with the sample board loaded anew (no edits, tick 0) and the chase
    options at their defaults: the tab is shared, and an earlier test's options (a chaser
    placed, a tick limit) would change this one's figures."""
    tab.load(read(BOARD), {})
    return tab


@contextmanager
def _window(tab: Tab, width: int, height: int) -> Iterator[None]:
    """The tab's window at another size for a while, resized as a person does, then back."""
    tab.page.set_viewport_size({"width": width, "height": height})
    tab.js("() => window.dispatchEvent(new Event('resize'))")
    try:
        yield
    finally:
        tab.page.set_viewport_size({"width": 1200, "height": 800})
        tab.js("() => window.dispatchEvent(new Event('resize'))")


def _cursor_to(tab: Tab, x: int, y: int) -> None:
    """Focus the board and move its cursor from (0,0) to (x, y) by the arrow keys."""
    tab.page.locator("#board").focus()
    for _ in range(x):
        tab.page.keyboard.press("ArrowRight")
    for _ in range(y):
        tab.page.keyboard.press("ArrowDown")


def _canvas_pixels(tab: Tab) -> tuple[Any, dict[str, int]]:
    """A screenshot of the drawing as shown, and the page's geometry of it."""
    from PIL import Image

    shot = tab.page.locator("#board").screenshot()
    geometry: dict[str, int] = tab.js("mazekit.app.state.geometry")
    return Image.open(io.BytesIO(shot)).convert("RGB"), geometry


def _shows(image: Any, point: tuple[float, float], colour: tuple[int, int, int]) -> bool:
    """Whether the colour is at the point or next to it (the canvas may sit on half pixels)."""
    x, y = int(point[0]), int(point[1])
    return any(
        image.getpixel((x + dx, y + dy)) == colour
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if 0 <= x + dx < image.width and 0 <= y + dy < image.height
    )


def _cell_centre(g: dict[str, int], x: int, y: int) -> tuple[int, int]:
    half = (g["cell"] + g["wall"]) // 2
    return g["origin"] + x * g["cell"] + half, g["origin"] + y * g["cell"] + half


def _wall_point(g: dict[str, int], x: int, y: int, letter: str) -> tuple[float, float]:
    """The middle of the wall of (x, y) towards letter, in canvas pixels."""
    cx, cy = _cell_centre(g, x, y)
    d = BY_LETTER[letter]
    return cx + d.dx * g["cell"] / 2, cy + d.dy * g["cell"] / 2


def _toggled(maze: Maze, x: int, y: int, letter: str) -> Maze:
    """The maze with that wall flipped on both sides and its path re-solved (as the page does)."""
    edited = maze.copy()
    d = BY_LETTER[letter]
    closed = bool(edited.walls[y, x] & d.bit) or bool(edited.walls[y + d.dy, x + d.dx] & d.opposite)
    if closed:
        edited.walls[y, x] &= 15 ^ d.bit
        edited.walls[y + d.dy, x + d.dx] &= 15 ^ d.opposite
    else:
        edited.walls[y, x] |= d.bit
        edited.walls[y + d.dy, x + d.dx] |= d.opposite
    edited.path = _solve(edited)
    return edited


def _solve(maze: Maze) -> str:
    """The canonical shortest path of specs/solve.md ("" when the exit is cut off)."""
    try:
        return mazekit.solve(maze)
    except MazeError:
        return ""


def test_the_page_loads_alone_without_errors(tab: Tab, page_file: Path) -> None:
    assert tab.errors == []
    assert _loaded(tab) == [page_file.resolve().as_uri()]  # the page itself, nothing else
    # ARIA: the drawing has a text alternative, the state is in a live region and tables
    canvas = tab.page.locator("#board")
    assert canvas.get_attribute("role") == "img"
    assert "30 by 20 maze" in tab.page.locator("#board-text").inner_text()
    assert tab.page.locator("#status").get_attribute("aria-live") == "polite"
    assert tab.page.locator("#actors caption").inner_text() == "Actors"


def test_the_tables_show_the_board_as_python_measures_it(fresh: Tab) -> None:
    maze = read(BOARD)
    measured = stats(maze)
    found = dead_ends(maze)
    figures = fresh.figures()
    assert figures["size"] == "30x20"
    assert figures["reachable cells"] == str(measured.reachable_cells)
    assert figures["shortest path"] == f"{measured.path_length} steps"
    assert figures["dead ends"] == f"{len(found.real)} real, {len(found.enclosed)} enclosed"
    assert figures["loops"] == str(measured.loops)
    assert fresh.js("mazekit.app.figures().path") == _solve(maze)  # the same tie rule
    actors = fresh.table("actors")
    assert [row[0] for row in actors] == ["runner", "blinky", "pinky", "inky", "clyde"]
    home = "({},{})".format(*house(maze))  # every chaser starts in the house
    assert [row[1] for row in actors[1:]] == [home] * 4


@pytest.mark.parametrize("size", [(1200, 800), (640, 560)])
def test_a_screenshot_shows_the_board_at_two_sizes(fresh: Tab, size: tuple[int, int]) -> None:
    tab = fresh
    with _window(tab, *size):
        maze = read(BOARD)
        image, g = _canvas_pixels(tab)
        assert abs(image.width - g["width"]) <= 1 and abs(image.height - g["height"]) <= 1
        assert g["width"] <= size[0]  # the board scales with the window
        pattern = [
            (x, y) for y in range(maze.height) for x in range(maze.width) if maze.walls[y, x] == 15
        ]
        assert _shows(image, _cell_centre(g, *pattern[0]), (128, 128, 128))  # the "42"
        # a cell of the path, away from the corners where the chasers stand
        x, y = maze.entry
        for letter in maze.path[: len(maze.path) // 2]:
            x, y = x + BY_LETTER[letter].dx, y + BY_LETTER[letter].dy
        assert _shows(image, _cell_centre(g, x, y), (30, 144, 255))
        # the ring on the betweenness peak, in the dead-end colour
        px, py = _cell_centre(g, *tab.js("mazekit.app.figures().peakCell"))
        assert _shows(image, (px + 0.42 * (g["cell"] - g["wall"]), py), (255, 140, 0))
        top = (g["origin"] + 15 * g["cell"] + g["cell"] // 2, g["origin"] + g["wall"] // 2)
        assert _shows(image, top, (0, 0, 0))  # the north border
        assert _shows(image, (g["width"] // 2, g["origin"] // 2), (255, 255, 255))
        assert not _shows(image, (g["width"] // 2, g["origin"] // 2), (0, 0, 0))
        assert tab.errors == []


def test_scrolling_the_page_does_not_resize_the_board(fresh: Tab) -> None:
    # a window whose height sets the board's size; a person scrolls to the tables and steps
    with _window(fresh, 1400, 650):
        before = fresh.js("mazekit.app.state.geometry")
        assert fresh.js("mazekit.app.state.geometry.height") <= 650
        fresh.js("window.scrollTo(0, 200)")
        assert fresh.js("scrollY") > 0  # the page is taller than the window
        fresh.js("mazekit.app.step(1)")
        assert fresh.js("mazekit.app.state.geometry") == before


def test_clicking_a_wall_updates_the_path_and_the_table(fresh: Tab) -> None:
    maze = read(BOARD)
    # close the wall of the 20th step of the path: the path must go round
    x, y = maze.entry
    for letter in maze.path[:20]:
        x, y = x + BY_LETTER[letter].dx, y + BY_LETTER[letter].dy
    letter = maze.path[20]
    expected = _toggled(maze, x, y, letter)
    box = fresh.page.locator("#board").bounding_box()
    g = fresh.js("mazekit.app.state.geometry")
    px, py = _wall_point(g, x, y, letter)
    fresh.page.mouse.click(box["x"] + px, box["y"] + py)
    assert fresh.js("mazekit.app.figures().path") == expected.path
    fresh.ready()
    assert fresh.figures()["shortest path"] == f"{len(expected.path)} steps"
    assert fresh.figures()["loops"] == str(stats(expected).loops)
    assert fresh.status().startswith(
        f"Closed the {dict(N='north', E='east', S='south', W='west')[letter]} wall of ({x},{y})"
    )
    assert fresh.errors == []


def test_counts_of_one_are_singular(fresh: Tab) -> None:
    fresh.load(read("samples/valid-2x1-tiny.txt"))
    assert fresh.figures()["shortest path"] == "1 step"  # as stats prints it
    assert "shortest path 1 step." in fresh.page.locator("#board-text").inner_text()
    maze = mazekit.generate(15, 10, seed=4)  # a tree: opening one wall makes one loop
    x, y = next(
        (x, y)
        for y in range(maze.height)
        for x in range(maze.width - 1)
        if maze.walls[y, x] & BY_LETTER["E"].bit
        and 15 not in (maze.walls[y, x], maze.walls[y, x + 1])
    )
    fresh.load(maze)
    assert fresh.js(f"mazekit.app.toggleWall({x}, {y}, 'E')") is True
    fresh.ready()
    assert ", 1 loop, cop number 2, betweenness peak " in fresh.status()


@pytest.mark.parametrize(
    ("letter", "cell"), [("N", (5, 0)), ("E", (29, 5)), ("S", (5, 19)), ("W", (0, 5))]
)
def test_a_click_anywhere_on_the_border_says_it_stays_closed(
    fresh: Tab, letter: str, cell: tuple[int, int]
) -> None:
    # the outermost pixel of the border's band, which a person aiming at the border may hit
    g = fresh.js("mazekit.app.state.geometry")
    px, py = _wall_point(g, *cell, letter)
    d = BY_LETTER[letter]
    half = g["wall"] / 2 - 0.5  # from the line's middle to its last pixel
    box = fresh.page.locator("#board").bounding_box()
    fresh.js("document.getElementById('status').textContent = ''")
    fresh.page.mouse.click(box["x"] + px + d.dx * half, box["y"] + py + d.dy * half)
    name = dict(N="north", E="east", S="south", W="west")[letter]
    assert (
        fresh.status()
        == f"The {name} wall of ({cell[0]},{cell[1]}) is the border: it stays closed."
    )
    assert fresh.js("mazekit.app.mazeText()") == dump(read(BOARD))
    # a click in the margin, away from the border, is no edit and says nothing
    fresh.js("document.getElementById('status').textContent = ''")
    fresh.page.mouse.click(box["x"] + px + d.dx * g["cell"], box["y"] + py + d.dy * g["cell"])
    assert fresh.status() == ""


def test_the_keyboard_edits_too_but_never_the_border_or_the_42(fresh: Tab) -> None:
    fresh.page.locator("#board").focus()
    fresh.page.keyboard.press("ArrowRight")
    fresh.page.keyboard.press("Shift+ArrowUp")
    assert fresh.status() == "The north wall of (1,0) is the border: it stays closed."
    fresh.page.keyboard.press("Shift+ArrowDown")
    expected = _toggled(read(BOARD), 1, 0, "S")
    assert fresh.js("mazekit.app.mazeText()") == dump(expected)
    px, py = next((x, y) for y in range(20) for x in range(30) if read(BOARD).walls[y, x] == 15)
    assert fresh.js(f"mazekit.app.toggleWall({px}, {py - 1}, 'S')") is False
    assert fresh.status().endswith('belongs to the "42": it stays closed.')


def test_the_dot_key_steps_as_the_step_button_does(fresh: Tab) -> None:
    # a keyboard user hears each step, and "." while playing pauses first, as Step does
    fresh.js("mazekit.app.configure({place: {pinky: [10, 10]}})")  # pinky starts on the entry
    fresh.page.locator("#board").focus()
    fresh.page.keyboard.press(".")
    assert fresh.figures()["tick"] == "1"
    assert fresh.status().startswith("Tick 1, scatter: runner at")
    fresh.page.keyboard.press(" ")
    fresh.page.wait_for_function("() => mazekit.app.state.chase.tick >= 3")
    fresh.page.keyboard.press(".")
    assert fresh.js("mazekit.app.state.timer") is None
    assert fresh.page.locator("#play").inner_text() == "Play"
    tick = fresh.figures()["tick"]
    assert fresh.status().startswith(f"Tick {tick}, scatter: runner at")
    assert fresh.errors == []


def test_download_maze_gives_a_valid_file_with_the_path_re_solved(
    fresh: Tab, tmp_path: Path, invoke: Invoke
) -> None:
    maze = read(BOARD)
    # open a wall that keeps the board valid (no 3x3 open area)
    candidates = [
        (x, y)
        for y in range(1, 19)
        for x in range(1, 28)
        if maze.walls[y, x] & 2 and maze.walls[y, x] != 15 and maze.walls[y, x + 1] != 15
    ]
    x, y = next(c for c in candidates if validate(_toggled(maze, *c, "E")).valid)
    expected = _toggled(maze, x, y, "E")
    assert fresh.js(f"mazekit.app.toggleWall({x}, {y}, 'E')") is True
    with fresh.page.expect_download() as caught:
        fresh.page.click("#download")
    saved = tmp_path / "maze.txt"
    caught.value.save_as(saved)
    assert caught.value.suggested_filename == "maze.txt"
    assert saved.read_text() == dump(expected)
    result = invoke(["validate", str(saved)])
    assert (result.exit_code, result.stdout) == (0, f"{saved}: ok\n")


def test_save_page_keeps_the_edited_board(fresh: Tab, tmp_path: Path) -> None:
    assert fresh.js("mazekit.app.toggleWall(3, 4, 'E')") is True
    fresh.ready()
    text = fresh.js("mazekit.app.mazeText()")
    with fresh.page.expect_download() as caught:
        fresh.page.click("#save")
    saved = tmp_path / "saved.html"
    caught.value.save_as(saved)
    again = _open(fresh.page.context, saved)
    try:
        assert again.js("mazekit.app.mazeText()") == text
        assert again.errors == [] and _loaded(again) == [saved.resolve().as_uri()]
        assert again.table("figures") == fresh.table("figures")
    finally:
        again.page.close()


def test_controls_play_step_reset_and_the_live_region(fresh: Tab) -> None:
    fresh.page.fill("#place-pinky", "10,10")  # pinky starts on the entry of this board
    fresh.page.locator("#place-pinky").dispatch_event("change")
    assert fresh.table("actors")[2][:2] == ["pinky", "(10,10)"]
    fresh.page.click("#step")
    assert fresh.figures()["tick"] == "1"
    assert fresh.status().startswith("Tick 1, scatter: runner at")
    fresh.page.click("#reset")
    assert fresh.figures()["tick"] == "0" and fresh.status() == "Reset to tick 0."
    # 20 ticks/s: the pause must land before this chase ends by itself at tick 62, and a
    # click takes up to 17 ticks of 60/s on a loaded machine
    fresh.page.fill("#speed", "20")
    fresh.page.click("#play")
    fresh.page.wait_for_function("() => mazekit.app.state.chase.tick >= 3")
    fresh.page.click("#play")
    assert fresh.status().startswith("Paused at tick ")
    assert int(fresh.figures()["tick"]) >= 3
    fresh.page.fill("#ticks", "2")  # the tick limit: --ticks 2
    fresh.page.locator("#ticks").dispatch_event("change")
    for _ in range(3):
        fresh.page.click("#step")
    assert fresh.figures()["result"] == "still running after 2 ticks"
    assert fresh.status() == "Still running after 2 ticks."
    fresh.page.fill("#ticks", "1")  # one tick, one noun: as chase prints it
    fresh.page.locator("#ticks").dispatch_event("change")
    fresh.page.click("#step")
    assert fresh.figures()["result"] == "still running after 1 tick"
    assert fresh.status() == "Still running after 1 tick."
    fresh.page.select_option("#theme", "pacman")
    image, g = _canvas_pixels(fresh)
    assert _shows(image, (g["width"] // 2, g["origin"] // 2), (0, 0, 0))  # the pacman board
    assert not _shows(image, (g["width"] // 2, g["origin"] // 2), (255, 255, 255))
    fresh.page.select_option("#theme", "light")
    assert fresh.errors == []


def _cut_off_exit(maze: Maze) -> Maze:
    """The maze with its exit walled in on every inner side (no way to it)."""
    cut = maze.copy()
    x, y = cut.exit
    for d in BY_LETTER.values():
        if cut.contains((x + d.dx, y + d.dy)):
            cut.walls[y, x] |= d.bit
            cut.walls[y + d.dy, x + d.dx] |= d.opposite
    return cut


@pytest.mark.parametrize(
    "case",
    [
        pytest.param((lambda m: _cut_off_exit(m), {}), id="the exit cut off"),
        pytest.param((lambda m: Maze(m.walls, m.entry, m.entry), {}), id="entry is the exit"),
        # a "42" cell: no open way leads from it to the entry
        pytest.param((lambda m: m, {"place": {"inky": [11, 7]}}), id="a start cut off"),
    ],
)
def test_a_board_chase_refuses_says_no_chase_and_never_runs(
    fresh: Tab, invoke: Invoke, case: Any
) -> None:
    change, options = case
    maze = change(read(BOARD))
    assert maze.walls[7, 11] == 15  # the "42" cell the third case starts inky on
    cli = invoke(["chase", "--format", "jsonl", *_cli_args(options)], input=dump(maze))
    assert cli.exit_code == 1 and cli.stdout == ""
    reason = cli.stderr.strip().removeprefix("Error: <stdin>: ")
    fresh.load(maze, options)
    assert fresh.figures()["result"] == f"no chase: {reason}"
    for button in ("#play", "#step"):
        fresh.page.click(button)
        assert fresh.status() == f"No chase: {reason}."
        assert fresh.figures()["tick"] == "0"
        assert fresh.page.locator("#play").inner_text() == "Play"
    assert fresh.js("window.mazekitTrace") == []  # as chase writes nothing
    assert fresh.errors == []


# --- one kernel, two languages ------------------------------------------------------------

_ALGORITHMS = {
    True: ("backtracker", "prim", "kruskal", "wilson", "hunt-and-kill"),
    False: ("backtracker", "prim", "flood"),
}
_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"mode": "chase"},
    {"mode": "scatter", "ticks": 200},
    {"schedule": [5, 10, 5, 20]},
    {"runner": "patrol", "ticks": 400},
    {"passThrough": False},
    {"only": ["blinky", "inky"]},
    {"only": ["pinky", "clyde"], "runner": "patrol", "ticks": 300},
    {"place": {"blinky": [0, 2], "clyde": [2, 0]}},
    {"schedule": [1, 1, 1, 1, 1, 1], "passThrough": False, "runner": "patrol", "ticks": 250},
]


def _chase_case(index: int) -> tuple[Maze, dict[str, Any]]:
    """Board and options number ``index``: sizes 9x7 to 30x20, perfect or not, many entries."""
    width, height = 9 + (index * 7) % 22, 7 + (index * 5) % 14
    perfect = index % 2 == 0
    algorithms = _ALGORITHMS[perfect]
    entries = [(0, height // 2), (width // 2, 0), (width // 2, height - 1), (width - 1, 1)]
    entry = entries[index % len(entries)]
    exit = (width - 1, height - 1) if entry != (width - 1, 1) else (0, height - 1)
    maze = mazekit.generate(
        width,
        height,
        entry=entry,
        exit=exit,
        perfect=perfect,
        seed=index,
        algorithm=algorithms[index % len(algorithms)],
    )
    return maze, _OPTION_SETS[index % len(_OPTION_SETS)]


def _cli_args(options: dict[str, Any]) -> list[str]:
    """The page's chase options spelt as ``mazekit chase`` options."""
    args: list[str] = []
    for key in ("mode", "runner", "ticks"):
        if key in options:
            args += [f"--{key}", str(options[key])]
    if "schedule" in options:
        args += ["--schedule", ",".join(map(str, options["schedule"]))]
    if options.get("passThrough") is False:
        args.append("--no-pass-through")
    if "only" in options:
        args += ["--only", ",".join(options["only"])]
    for name, (x, y) in options.get("place", {}).items():
        args += ["--place", f"{name}={x},{y}"]
    if "starts" in options:
        args += ["--starts", options["starts"]]
    return args


def _page_options(args: list[str]) -> dict[str, Any]:
    """``mazekit chase`` options as the page's (the inverse of _cli_args)."""
    options: dict[str, Any] = {}
    words = iter(args)
    for word in words:
        if word == "--no-pass-through":
            options["passThrough"] = False
        elif word in ("--mode", "--runner", "--starts"):
            options[word[2:]] = next(words)
        elif word == "--ticks":
            options["ticks"] = int(next(words))
        elif word == "--schedule":
            options["schedule"] = [int(n) for n in next(words).split(",")]
        elif word == "--only":
            options["only"] = next(words).split(",")
        elif word == "--place":
            name, cell = next(words).split("=")
            options.setdefault("place", {})[name] = [int(n) for n in cell.split(",")]
        else:
            raise AssertionError(f"an option the page test does not know: {word}")
    return options


def _page_trace(tab: Tab, maze: Maze, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Run the page's chasers on ``maze`` to the end and read ``window.mazekitTrace``."""
    trace: list[dict[str, Any]] = tab.js(
        """([data, options]) => {
            mazekit.app.load(data);
            mazekit.app.configure(options);
            mazekit.app.step(options.ticks ?? 10000);
            return window.mazekitTrace;
        }""",
        [board_data(maze), options],
    )
    return trace


def _assert_same_trace(mine: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> None:
    assert len(mine) == len(theirs)
    for found, expected in zip(mine, theirs, strict=True):
        assert found == expected, f"tick {expected['tick']}"


# every option set once (quick profile: 10 cases, each a chase to its end in the page and in
# Python), sizes, entries and algorithms varying with them; the thorough profile, 24 times
@pytest.mark.parametrize("index", range(scaled(len(_OPTION_SETS))))
def test_the_page_chasers_make_the_trace_of_mazekit_chase(
    tab: Tab, invoke: Invoke, index: int
) -> None:
    maze, options = _chase_case(index)
    result = invoke(["chase", "--format", "jsonl", *_cli_args(options)], input=dump(maze))
    assert result.exit_code == 0, result.stderr
    expected = [json.loads(line) for line in result.stdout.splitlines()]
    _assert_same_trace(_page_trace(tab, maze, options), expected)
    assert tab.errors == []


_GOLDEN = sorted(Path("tests/data/chase/golden").iterdir())


@pytest.mark.parametrize("case", _GOLDEN, ids=[case.name for case in _GOLDEN])
def test_the_page_chasers_replay_the_golden_traces(tab: Tab, case: Path) -> None:
    command, board, *args = (case / "args").read_text().split()
    assert command == "chase"
    expected = [json.loads(line) for line in (case / "expected.jsonl").read_text().splitlines()]
    _assert_same_trace(_page_trace(tab, read(board), _page_options(args)), expected)


@pytest.mark.parametrize(
    "make",
    [
        lambda: read(BOARD),
        lambda: mazekit.generate(15, 10, seed=4),  # a tree: the formula of specs/stats.md
        lambda: mazekit.generate(20, 15, perfect=False, seed=5, algorithm="prim"),
    ],
)
def test_the_page_betweenness_and_gini_are_those_of_stats_graph(tab: Tab, make: Any) -> None:
    maze = make()
    measured = betweenness(maze)  # what stats --graph reports (no cop number needed here)
    ((cell, peak),) = measured.top_cells(1)
    expected_gini = gini(measured.cells[measured.reachable])
    tab.load(maze)
    found = tab.app_figures()
    assert tuple(found["peakCell"]) == cell
    assert found["peak"] == pytest.approx(peak, rel=1e-9)
    assert found["gini"] == pytest.approx(expected_gini, rel=1e-9)
    shown = tab.figures()
    assert shown["betweenness peak"] == f"{100 * peak:.2f}% at ({cell[0]},{cell[1]})"
    assert shown["betweenness Gini"] == f"{expected_gini:.4f}"


def test_a_60x60_board_is_measured_again_after_an_edit(tab: Tab) -> None:
    # the largest grid the page measures: an edit gives the edited maze's exact figures
    maze = mazekit.generate(60, 60, perfect=False, seed=6)
    figures = tab.js(
        """async data => {
            mazekit.app.load(data);
            mazekit.app.toggleWall(0, 0, 'E');
            await mazekit.app.ready();
            return mazekit.app.figures();
        }""",
        board_data(maze),
    )
    walls = maze.walls.copy()
    walls[0, 0] ^= BY_LETTER["E"].bit  # toggled on both sides, as the page does
    walls[0, 1] ^= BY_LETTER["W"].bit
    measured = betweenness(Maze(walls, maze.entry, maze.exit))
    ((cell, peak),) = measured.top_cells(1)
    assert tuple(figures["peakCell"]) == cell
    assert figures["peak"] == pytest.approx(peak, rel=1e-9)
    assert figures["gini"] == pytest.approx(gini(measured.cells[measured.reachable]), rel=1e-9)


def _opened_wall(maze: Maze) -> tuple[int, int]:
    """A cell whose east wall is closed and may be opened: neither side is a "42" cell."""
    return next(
        (x, y)
        for y in range(maze.height)
        for x in range(maze.width - 1)
        if maze.walls[y, x] & BY_LETTER["E"].bit
        and 15 not in (maze.walls[y, x], maze.walls[y, x + 1])
    )


def _edited(invoke: Invoke, maze: Maze, *args: str) -> Maze:
    """``maze`` after ``mazekit edit ARGS``."""
    result = invoke(["edit", *args], input=dump(maze))
    assert result.exit_code == 0, result.stderr
    return parse(result.stdout)


def _perfect() -> Maze:
    return mazekit.generate(15, 10, seed=4)  # a tree


def _pacmanized(invoke: Invoke) -> Maze:
    result = invoke(["pacmanize", "samples/valid-20x15-perfect.txt"])
    assert result.exit_code == 0, result.stderr
    return parse(result.stdout)


_COP_CASES = {  # each maze, and the cop number stats reports for it
    "perfect": (lambda invoke: _perfect(), "1"),
    "perfect-one-wall-opened": (
        lambda invoke: _edited(
            invoke, _perfect(), "--open", "{},{},E".format(*_opened_wall(_perfect()))
        ),
        "2",
    ),
    "imperfect-20x15": (
        lambda invoke: mazekit.generate(20, 15, perfect=False, seed=5, algorithm="prim"),
        "2",
    ),
    "imperfect-20x20-the-limit": (
        lambda invoke: mazekit.generate(20, 20, perfect=False, seed=3),
        "2",
    ),
    "over-400-cells": (lambda invoke: read(BOARD), "2-3"),
    "pacmanized": (_pacmanized, "2"),
}


@pytest.mark.parametrize("case", list(_COP_CASES))
def test_the_page_cop_number_is_that_of_stats_graph(tab: Tab, invoke: Invoke, case: str) -> None:
    make, value = _COP_CASES[case]
    maze = make(invoke)
    result = invoke(["stats", "--graph", "--format", "json"], input=dump(maze))
    assert result.exit_code == 0, result.stderr
    expected = json.loads(result.stdout)["files"][0]["graph"]["cop_number"]
    tab.load(maze)
    found = tab.app_figures()["cop"]
    assert found == expected
    assert value == (str(expected["value"]) if expected["exact"] else "2-3")
    short = {
        "the reachable cells form a tree": "a tree",
        "solved: two cops win, one cannot on a graph with a loop": "solved",
        "two cops win on a core of treewidth at most 2, by Joret, Kaminski and Theis; "
        "one cannot on a graph with a loop": "treewidth 2",
    }.get(expected["reason"], "core over 400 cells")
    assert tab.figures()["cop number"] == f"{value} ({short})"
    assert tab.errors == []


def test_opening_a_wall_of_a_tree_steps_the_cop_number_from_one_to_two(fresh: Tab) -> None:
    maze = _perfect()
    fresh.load(maze)
    assert fresh.figures()["cop number"] == "1 (a tree)"
    x, y = _opened_wall(maze)
    box = fresh.page.locator("#board").bounding_box()
    g = fresh.js("mazekit.app.state.geometry")
    px, py = _wall_point(g, x, y, "E")
    fresh.page.mouse.click(box["x"] + px, box["y"] + py)
    fresh.ready()
    assert fresh.figures()["cop number"] == "2 (treewidth 2)"  # one loop: a ring, peeled
    assert ", 1 loop, cop number 2, betweenness peak " in fresh.status()
    # the same by the keyboard, on the tree loaded again (the cursor back at (0,0))
    fresh.load(maze)
    assert fresh.figures()["cop number"] == "1 (a tree)"
    _cursor_to(fresh, x, y)
    fresh.page.keyboard.press("Shift+ArrowRight")
    fresh.ready()
    assert fresh.figures()["cop number"] == "2 (treewidth 2)"
    assert fresh.status().startswith(f"Opened the east wall of ({x},{y})")
    assert fresh.errors == []


def _random_loops(seed: int) -> Maze:
    """A small maze of a seeded size with a few seeded walls opened (none of the "42")."""
    rng = random.Random(seed)
    maze = mazekit.generate(
        rng.randint(2, 12), rng.randint(2, 12), seed=seed, perfect=seed % 2 == 0
    )
    for _ in range(rng.randint(0, 3)):
        x, y = rng.randrange(maze.width - 1), rng.randrange(maze.height)
        if 15 not in (maze.walls[y, x], maze.walls[y, x + 1]):
            maze.walls[y, x] &= 15 ^ BY_LETTER["E"].bit
            maze.walls[y, x + 1] &= 15 ^ BY_LETTER["W"].bit
    return maze


@pytest.mark.parametrize("seed", range(12))
def test_the_page_two_cop_game_agrees_with_the_python_one(tab: Tab, seed: int) -> None:
    _assert_page_cop_number(tab, _random_loops(seed))


def _assert_page_cop_number(tab: Tab, maze: Maze) -> None:
    """The page's cop number of ``maze`` is stats': bounds and reason."""
    expected = cop_number(maze)
    assert expected is not None
    tab.load(maze)
    found = tab.app_figures()["cop"]
    assert (found["low"], found["high"], found["reason"]) == (
        expected.low,
        expected.high,
        expected.reason,
    )


# --- a laptop's screen, a steady board, what edits say (issue 24) -------------------------


def test_at_a_laptops_size_the_board_its_tick_and_its_figures_share_one_screen(
    fresh: Tab,
) -> None:
    with _window(fresh, 1366, 768):
        fresh.js("mazekit.app.step(5)")
        assert fresh.js("scrollY") == 0
        for selector in ("#hud", "#board", "#figures", "#play", "#status"):
            box = fresh.page.locator(selector).bounding_box()
            assert box is not None and box["x"] >= 0 and box["y"] >= 0, selector
            assert box["x"] + box["width"] <= 1366 and box["y"] + box["height"] <= 768, selector
        assert fresh.page.locator("#hud").inner_text() == "tick 5 · SCATTER · running"
        rows = fresh.figures()
        for name in ("betweenness peak", "betweenness Gini", "cop number", "shortest path"):
            assert rows[name] and "computing" not in rows[name]
        board = fresh.page.locator("#board").bounding_box()
        figures = fresh.page.locator("#figures").bounding_box()
        assert figures["x"] >= board["x"] + board["width"]  # beside the board, not under it


def test_the_board_does_not_move_when_targets_trails_path_or_heat_are_toggled(
    fresh: Tab,
) -> None:
    with _window(fresh, 1366, 768):
        fresh.js("mazekit.app.step(8)")
        box = fresh.page.locator("#board").bounding_box()
        for toggle in ("#targets", "#trails", "#show-path", "#heat", "#peak"):
            for _ in range(2):
                fresh.page.click(toggle)
                assert fresh.page.locator("#board").bounding_box() == box, toggle


def _walled_centre() -> Maze:
    """A 15x11 maze whose middle 7x5 cells are walled in: the house lies outside them."""
    maze = mazekit.generate(15, 11, seed=5)
    for y in range(3, 8):
        for x in range(4, 11):
            for d in BY_LETTER.values():
                maze.walls[y, x] |= d.bit
                if maze.contains((x + d.dx, y + d.dy)):
                    maze.walls[y + d.dy, x + d.dx] |= d.opposite
    return maze


def _house_cases() -> list[Maze]:
    """Boards of many sizes and entries, one with a walled-in middle, and one whose centre
    cell is the entry."""
    boards = [_random_loops(seed) for seed in range(8)]
    boards.append(_walled_centre())
    boards.append(mazekit.generate(9, 7, entry=(4, 3), exit=(8, 6), seed=2))
    boards.append(read(BOARD))
    return boards


def test_the_page_house_is_mazekit_board_house(tab: Tab) -> None:
    for maze in _house_cases():
        tab.load(maze)
        expected = house(maze)
        found = tab.js("mazekit.app.figures().house")
        assert (tuple(found) if found else None) == expected
    walled = house(_walled_centre())
    assert walled is not None and not (4 <= walled[0] <= 10 and 3 <= walled[1] <= 7)
    centred = _house_cases()[-2]
    assert centred.entry == ((9 - 1) // 2, (7 - 1) // 2) and house(centred) != centred.entry
    tab.load(centred)
    assert tab.table("actors")[1][1] == "({},{})".format(*house(centred))


@pytest.mark.parametrize("seed", range(6))
def test_the_page_dead_ends_and_betweenness_are_those_of_python(tab: Tab, seed: int) -> None:
    maze = _random_loops(seed) if seed < 4 else mazekit.generate(25, 18, perfect=False, seed=seed)
    tab.load(maze)
    found = tab.app_figures()
    expected = dead_ends(maze)
    assert [tuple(c) for c in found["deadEnds"]] == list(expected.real)
    assert [tuple(c) for c in found["enclosed"]] == list(expected.enclosed)
    measured = betweenness(maze)
    cells = {(x, y): value for x, y, value in found["betweenness"]}
    reachable = {
        (x, y) for y in range(maze.height) for x in range(maze.width) if measured.reachable[y, x]
    }
    assert set(cells) == reachable
    for (x, y), value in cells.items():
        assert value == pytest.approx(float(measured.cells[y, x]), rel=1e-9, abs=1e-12)


def test_a_start_field_is_marked_while_wrong_and_cleared_once_corrected(fresh: Tab) -> None:
    field = fresh.page.locator("#place-pinky")
    field.fill("40,3")  # typing fires input: checked as typed
    assert field.get_attribute("aria-invalid") == "true"
    assert fresh.status() == "pinky's start (40,3) is outside the 30x20 grid."
    field.fill("4,")
    assert fresh.status() == "The start of pinky is a cell x,y, e.g. 3,4."
    field.fill("4,3")
    assert field.get_attribute("aria-invalid") == "false"
    assert fresh.status() == ""
    field.dispatch_event("change")
    assert fresh.table("actors")[2][:2] == ["pinky", "(4,3)"]


def test_opening_a_wall_already_open_is_said_and_changes_nothing(fresh: Tab) -> None:
    maze = read(BOARD)
    letter = maze.path[0]
    x, y = maze.entry
    before = fresh.js("mazekit.app.mazeText()")
    assert fresh.js(f"mazekit.app.openWall({x}, {y}, '{letter}')") is False
    name = dict(N="north", E="east", S="south", W="west")[letter]
    assert fresh.status() == f"The {name} wall of ({x},{y}) is already open: nothing changed."
    # by the keyboard: "o" then the arrow, on the cursor's cell
    _cursor_to(fresh, x, y)
    fresh.page.keyboard.press("o")
    arrow = dict(N="ArrowUp", E="ArrowRight", S="ArrowDown", W="ArrowLeft")[letter]
    fresh.page.keyboard.press(arrow)
    assert fresh.status() == f"The {name} wall of ({x},{y}) is already open: nothing changed."
    fresh.page.keyboard.press("c")
    fresh.page.keyboard.press(arrow)
    fresh.ready()
    assert fresh.status().startswith(f"Closed the {name} wall of ({x},{y}): shortest path")
    assert fresh.js("mazekit.app.mazeText()") != before


def _peak_text(maze: Maze) -> tuple[str, float, str]:
    """The share of the peak, the share as a number, and the Gini as the page words them."""
    measured = betweenness(maze)
    ((_, peak),) = measured.top_cells(1)
    return f"{100 * peak:.2f}%", peak, f"{gini(measured.cells[measured.reachable]):.4f}"


def test_an_edit_says_how_the_peak_and_the_gini_changed(fresh: Tab) -> None:
    maze = read(BOARD)
    x, y = _opened_wall(maze)
    edited = _toggled(maze, x, y, "E")
    assert fresh.js(f"mazekit.app.toggleWall({x}, {y}, 'E')") is True
    fresh.ready()
    (p0, _, g0), (p1, _, g1) = _peak_text(maze), _peak_text(edited)
    peak = f"unchanged at {p0}" if p0 == p1 else f"{p0} → {p1}"
    gini_text = f"unchanged at {g1}" if g0 == g1 else f"{g0} → {g1}"
    ((cell, _),) = betweenness(edited).top_cells(1)
    assert fresh.status().endswith(
        f", betweenness peak {peak} at ({cell[0]},{cell[1]}), Gini {gini_text}."
    )


def test_close_the_busiest_passage_closes_what_edit_close_bottleneck_closes(
    fresh: Tab, invoke: Invoke
) -> None:
    for maze in (read(BOARD), _pacmanized(invoke)):
        fresh.load(maze)
        expected = _edited(invoke, maze, "--close-bottleneck", "1")
        fresh.page.click("#busiest")
        fresh.page.wait_for_function(
            "() => /busiest passage.*,/.test(document.getElementById('status').textContent)"
        )
        fresh.ready()
        assert fresh.js("mazekit.app.mazeText()") == dump(expected)
        # both are Pac-Man boards: the passage closed keeps them one, as edit's does
        assert fresh.status().startswith(
            "Closed the busiest passage that leaves a Pac-Man board, the "
        )
    fresh.load(_perfect())  # a tree: every passage is a bridge
    assert fresh.js("mazekit.app.closeBusiest()") is False
    assert fresh.status() == "No passage can be closed without cutting the maze in two."


def _board_for_relief(invoke: Invoke, seed: int) -> Maze:
    """Issue 24's boards: a 30x20 imperfect maze of a seed, pacmanized with 30 loops."""
    return parse(relief_board(invoke, seed))


def test_relieve_lowers_the_peak_without_disconnecting_and_says_so_when_it_cannot(
    fresh: Tab, invoke: Invoke
) -> None:
    """Three clicks of Relieve on issue 24's boards do what ``edit --relieve 1`` does three
    times: the same walls closed, a Pac-Man board left (no dead end made), and where edit
    refuses, the page says so with the same peak. Seeds 1-4: refusals after one and after two
    closures, and a board lowered three times."""
    lowered = refused = 0
    for seed in range(1, 5):
        maze = _board_for_relief(invoke, seed)
        fresh.load(maze)
        for _ in range(3):
            before = _peak_text(maze)
            cli = invoke(["edit", "--relieve", "1"], input=dump(maze))
            closed = fresh.js("mazekit.app.relieve()")
            fresh.ready()
            if not closed:
                assert cli.exit_code == 1, cli.stderr
                assert fresh.status() == (
                    "Relieve: no single closure that leaves a Pac-Man board lowers the peak "
                    f"below {before[0]}."
                )
                refused += 1
                break
            after = parse(fresh.js("mazekit.app.mazeText()"))
            assert cli.exit_code == 0, cli.stderr
            assert dump(after) == cli.stdout  # the wall edit --relieve closes
            assert stats(after).reachable_cells == stats(maze).reachable_cells  # one piece
            assert validate(after, pacman=True, max_dead_ends=0).valid  # still a board
            assert _peak_text(after)[1] < before[1]
            assert fresh.status().startswith("Relieved (still a Pac-Man board): closed the ")
            assert f"betweenness peak {before[0]} → {_peak_text(after)[0]}" in fresh.status()
            lowered += 1
            maze = after
    assert lowered >= 6 and refused >= 2
    # no board (a perfect maze with walls opened keeps dead ends): no guard, as in edit
    maze = _with_loops(_perfect(), np.random.default_rng(0), 20)
    assert not validate(maze, pacman=True, skip=("path",)).valid
    fresh.load(maze)
    cli = invoke(["edit", "--relieve", "1"], input=dump(maze))
    assert cli.exit_code == 0, cli.stderr
    assert "(--relieve)" in cli.stderr
    assert fresh.js("mazekit.app.relieve()") is True
    fresh.ready()
    assert fresh.js("mazekit.app.mazeText()") == cli.stdout
    assert fresh.status().startswith("Relieved: closed the ")
    tree = _perfect()
    fresh.load(tree)
    assert fresh.js("mazekit.app.relieve()") is False
    assert fresh.status() == (
        f"Relieve: no single closure lowers the peak below {_peak_text(tree)[0]}."
    )


_KEEPS = """([rules, passages]) => {
    const mk = mazekit, board = mk.app.state.board;
    const dist = mk.board.distances(board, board.entry[0], board.entry[1]);
    const keeps = mk.graph.keepsBoard(board, dist, rules);
    if (!keeps) return null;
    return passages.map(([x, y, letter]) => {
        const trial = board.copy();
        trial.setWall(x, y, mk.board.BY_LETTER[letter], true);
        return keeps(trial);
    });
}"""


def test_the_pages_board_guard_is_edits(fresh: Tab) -> None:
    """graph.js keepsBoard and mazekit.edit._board_guard, its twin, agree on every closure
    that cuts nothing, on random boards (and both stand aside on a maze that is no board)."""
    from mazekit.edit import _board_guard

    rng = random.Random(24)
    mazes = []
    for _ in range(5):
        width, height, seed = rng.randint(9, 16), rng.randint(7, 12), rng.randint(0, 9999)
        perfect = mazekit.generate(width, height, seed=seed)
        mazes.append(mazekit.pacmanize(perfect, min_loops=rng.randint(2, 8), seed=seed))
    mazes.append(read(BOARD))  # 2 real dead ends: none more may come
    mazes.append(_perfect())  # no board
    compared = 0
    for maze in mazes:
        guard = _board_guard(maze)
        passages = [
            (x, y, letter)
            for y in range(maze.height)
            for x in range(maze.width)
            for letter, dx, dy in (("E", 1, 0), ("S", 0, 1))
            if x + dx < maze.width
            and y + dy < maze.height
            and not maze.walls[y, x] & BY_LETTER[letter].bit
        ]
        fresh.load(maze)
        rules = board_data(maze)["rules"]["graph"]
        answers = fresh.js(_KEEPS, [rules, passages])
        if guard is None:
            assert answers is None
            continue
        assert answers is not None
        for (x, y, letter), answer in zip(passages, answers, strict=True):
            step = BY_LETTER[letter]
            trial = maze.copy()  # the passage closed, on both sides
            trial.walls[y, x] |= step.bit
            trial.walls[y + step.dy, x + step.dx] |= step.opposite
            if stats(trial).reachable_cells != stats(maze).reachable_cells:
                continue  # a bridge: neither page nor edit ever tries it
            assert answer == guard(trial), (x, y, letter)
            compared += 1
    assert compared > 100


def test_the_heat_overlay_and_the_trails_show_on_the_board(fresh: Tab) -> None:
    from mazekit.drawing.heat import COLORMAP

    fresh.page.click("#heat")
    image, g = _canvas_pixels(fresh)
    px, py = fresh.js("mazekit.app.figures().peakCell")
    corner = (
        g["origin"] + px * g["cell"] + g["wall"] + 1,
        g["origin"] + py * g["cell"] + g["wall"] + 1,
    )
    assert _shows(image, corner, COLORMAP[-1])  # the busiest cell: the top of the colour map
    fresh.page.click("#heat")
    image, _ = _canvas_pixels(fresh)
    assert not _shows(image, corner, COLORMAP[-1])
    # trails: each chaser's last cells, gone when the trails are turned off
    fresh.js("mazekit.app.step(6)")
    trail = fresh.js("mazekit.app.state.trails.blinky")
    assert 2 <= len(trail) <= fresh.js("mazekit.app.state.data.rules.chase.trail")
    spot = _cell_centre(g, *trail[0])
    with_trails, _ = _canvas_pixels(fresh)
    fresh.page.click("#trails")
    without, _ = _canvas_pixels(fresh)
    fresh.page.click("#trails")
    assert with_trails.getpixel(spot) != without.getpixel(spot)


@pytest.mark.parametrize("make", [lambda: read(BOARD), _perfect, lambda: _random_loops(3)])
def test_the_distances_kept_through_edits_are_those_of_a_fresh_search(tab: Tab, make: Any) -> None:
    # an edit updates the distances to the exit where they changed (specs/html.md,
    # "Editing"): after each of 150 seeded toggles the path is the canonical one (found while
    # a closure's update waits, too), the cells reachable from the entry are those a search
    # finds, and the distances, read after every third toggle so that the next edit makes a
    # waiting update, equal a whole new search
    bad = tab.js(
        """([data, seed]) => {
            const app = mazekit.app, mb = mazekit.board;
            app.load(data);
            const board = app.state.board;
            let s = seed;
            const next = (n) => { s = (s * 1103515245 + 12345) % 2147483648; return s % n; };
            const bad = [];
            for (let k = 0; k < 150; k += 1) {
                app.toggleWall(next(board.width), next(board.height), "NESW"[next(4)]);
                const full = mb.distances(board, board.exit[0], board.exit[1]);
                const path = mb.shortestPath(board, board.entry, board.exit);
                const count = full.filter((d) => d >= 0).length;
                if (app.figures().path !== path || app.state.toExit.reached !== count) bad.push(k);
                // the cells reachable from the entry (a side cut off is taken without a search)
                const fromEntry = mb.distances(board, board.entry[0], board.entry[1]);
                const { reach, reachable } = app.state.figures;
                if (fromEntry.some((d, i) => (d >= 0) !== (reach[i] >= 0))) bad.push(k);
                if (reachable !== fromEntry.filter((d) => d >= 0).length) bad.push(k);
                const kept = k % 3 === 2 ? app.state.toExit.dist : full;
                if (full.some((d, i) => d !== kept[i])) bad.push(k);
            }
            return bad;
        }""",
        [board_data(make()), 7],
    )
    assert bad == []
    tab.ready()


def test_the_figures_compute_in_a_worker_and_never_block_the_board(tab: Tab) -> None:
    # a board with loops: its exact betweenness takes the worker a while, and (the answer is a
    # message: it cannot arrive while this script runs)
    # meanwhile the table says so and the chase still steps
    maze = mazekit.generate(40, 40, perfect=False, seed=3)
    state = tab.js(
        """data => {
            mazekit.app.load(data);
            mazekit.app.step(3);
            return {
                pending: mazekit.app.state.figures.pending,
                tick: mazekit.app.state.chase.tick,
                busy: document.getElementById("figures").getAttribute("aria-busy"),
                shown: !document.getElementById("computing").hidden,
                rows: [...document.querySelectorAll("#figures tr")].map((tr) => tr.innerText),
            };
        }""",
        board_data(maze),
    )
    rows = state.pop("rows")
    assert state == {"pending": True, "tick": 3, "busy": "true", "shown": True}
    assert f"shortest path\t{len(_solve(maze))} steps" in rows  # at once
    assert "betweenness peak\tcomputing…" in rows and "cop number\tcomputing…" in rows
    tab.ready()
    assert tab.page.locator("#computing").is_hidden()
    assert tab.figures()["betweenness peak"] == _peak_row(maze)


def test_a_small_boards_figures_never_wait_for_an_idle_page(tab: Tab) -> None:
    """A page with no idle moment (a busy machine, a chase playing) still measures a board of
    up to 250,000 cells at once: only bigger boards wait for idle time (specs/html.md)."""
    answer = tab.js(
        """async (data) => {
            const idle = window.requestIdleCallback;
            window.requestIdleCallback = () => 0; // never idle
            try {
                mazekit.app.load(data);
                const late = new Promise((resolve) => setTimeout(() => resolve("never"), 10000));
                return await Promise.race([mazekit.app.ready().then(() => "ready"), late]);
            } finally {
                window.requestIdleCallback = idle;
            }
        }""",
        board_data(read(BOARD)),
    )
    assert answer == "ready"
    assert tab.figures()["betweenness peak"] == _peak_row(read(BOARD))


def test_a_worker_busy_with_an_older_board_is_replaced(tab: Tab) -> None:
    """Another board loaded while the worker still measures the last one: that worker is
    stopped and a new one measures the new board (the old answer would be dropped); with no
    older work outstanding the worker is kept."""
    slow = mazekit.generate(40, 40, perfect=False, seed=3)  # its exact betweenness takes a while
    made = tab.js(
        """async ([slow, quick]) => {
            const Real = window.Worker;
            let made = 0;
            window.Worker = class extends Real {
                constructor(...args) { super(...args); made += 1; }
            };
            const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
            try {
                mazekit.app.load(slow);
                await turn(); // the slow board's figures asked for
                mazekit.app.load(quick);
                await mazekit.app.ready();
                const replaced = made;
                mazekit.app.load(quick);
                await mazekit.app.ready();
                return [replaced, made];
            } finally {
                window.Worker = Real;
            }
        }""",
        [board_data(slow), board_data(read(BOARD))],
    )
    assert made == [1, 1]
    assert tab.figures()["betweenness peak"] == _peak_row(read(BOARD))


def _peak_row(maze: Maze) -> str:
    """The figures table's betweenness peak of ``maze`` as Python measures it."""
    ((cell, peak),) = betweenness(maze).top_cells(1)
    return f"{100 * peak:.2f}% at ({cell[0]},{cell[1]})"


def _open_blocks(width: int, height: int, corners: list[tuple[int, int]]) -> Maze:
    """Every wall closed but 3x3 open blocks at ``corners`` (top-left cells), the first joined
    to each other by a corridor east, then south: a core that is no series-parallel graph
    (a 3x3 grid holds a K4 minor), away from the grid's corner."""
    walls = closed_grid(width, height)
    for left, top in corners:
        for y in range(top, top + 3):
            for x in range(left, left + 3):
                if x < left + 2:
                    open_wall(walls, x, y, "E")
                if y < top + 2:
                    open_wall(walls, x, y, "S")
    (x0, y0), *rest = corners
    for x1, y1 in rest:
        x, y = x0 + 2, y0 + 2
        while x < x1 + 1:
            open_wall(walls, x, y, "E")
            x += 1
        while y < y1:
            open_wall(walls, x, y, "S")
            y += 1
    return Maze(walls, corners[0], corners[-1])


@pytest.mark.parametrize(
    "maze",
    [_open_blocks(20, 15, [(13, 2)]), _open_blocks(60, 40, [(3, 2), (54, 35)])],
    ids=["one-block-20x15", "two-blocks-60x40"],
)
def test_the_page_plays_the_game_on_the_core_alone(tab: Tab, maze: Maze) -> None:
    """The game on the core's bounding box, far from (0,0), and (60x40) on rows of more than
    32 words: the page's answer is stats'."""
    found = cop_number(maze)
    assert found is not None and found.reason.startswith("solved")  # the game, no shortcut
    _assert_page_cop_number(tab, maze)


# The colour at the middle of each listed cell's path square, read from the canvas in the task
# of the edit (before the worker's figures can repaint it), for the cells no actor, target
# or cursor covers; null for the others.
_PATH_PIXELS = """([edit, cells]) => {
    const app = mazekit.app;
    if (edit) app.toggleWall(...edit);
    const canvas = document.getElementById("board"), g = app.state.geometry;
    const k = canvas.width / g.width;
    const image = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    const p = Math.max(1, Math.floor((g.cell - g.wall + 1) / 3));
    const at = g.origin + g.wall + Math.floor((g.cell - g.wall - p) / 2) + p / 2;
    const run = app.state.chase, covered = new Set();
    for (const c of [run.runner.cell, ...run.chasers.flatMap((h) => [h.cell, h.target])]) {
        if (!c) continue;
        for (let dy = -1; dy <= 1; dy += 1) for (let dx = -1; dx <= 1; dx += 1) covered.add(`${c[0] + dx},${c[1] + dy}`);
    }
    return cells.map(([x, y]) => {
        if (covered.has(`${x},${y}`)) return null;
        const i = 4 * (Math.floor((at + y * g.cell) * k) * canvas.width + Math.floor((at + x * g.cell) * k));
        return [image.data[i], image.data[i + 1], image.data[i + 2]];
    });
}"""


def _path_cells(maze: Maze, path: str) -> list[tuple[int, int]]:
    """The cells a path from the entry visits (none for no path)."""
    if not path:
        return []
    cells = [maze.entry]
    for letter in path:
        x, y = cells[-1]
        cells.append((x + BY_LETTER[letter].dx, y + BY_LETTER[letter].dy))
    return cells


def _shortcut(maze: Maze) -> tuple[int, int, str]:
    """A closed inner wall between two cells of the path far apart on it: opening it makes a
    new, shorter path."""
    cells = _path_cells(maze, maze.path)
    index = {cell: k for k, cell in enumerate(cells)}
    for k, (x, y) in enumerate(cells):
        for letter in "ES":
            d = BY_LETTER[letter]
            j = index.get((x + d.dx, y + d.dy), -1)
            if abs(j - k) > 20 and 15 not in (maze.walls[y, x], maze.walls[y + d.dy, x + d.dx]):
                return x, y, letter
    raise AssertionError("no shortcut on the path")


@pytest.mark.parametrize("size", [(30, 20), (200, 150)])
def test_a_wall_edit_on_a_perfect_maze_draws_the_new_path(tab: Tab, size: tuple[int, int]) -> None:
    # specs/html.md, "Speed": the path layer is painted again where the path changed; at
    # 200x150 the path (5284 steps) changes in more cells than an edit repaints one by one
    maze = mazekit.generate(*size, seed=1, perfect=True)
    maze.path = _solve(maze)
    tab.load(maze)
    old = _path_cells(maze, maze.path)
    x, y = old[len(old) // 2]
    letter = maze.path[len(old) // 2]
    cut = _toggled(maze, x, y, letter)
    assert cut.path == ""  # a tree: every passage of the path cuts it
    shortcut = _shortcut(maze)
    opened = _toggled(maze, *shortcut)
    assert 0 < len(opened.path) < len(maze.path)
    blue = [30, 144, 255]  # the default theme's path
    for edit, after in [((x, y, letter), cut), ((x, y, letter), maze), (shortcut, opened)]:
        new = set(_path_cells(after, after.path))
        cells = sorted(set(old) | new)
        shown = tab.js(_PATH_PIXELS, [edit, cells])
        assert tab.js("mazekit.app.figures().path ?? ''") == after.path
        looked = [(c, rgb) for c, rgb in zip(cells, shown, strict=True) if rgb is not None]
        wrong = [c for c, rgb in looked if (rgb == blue) != (c in new)]
        assert wrong == []
        assert len(looked) > len(cells) // 2  # most cells looked at
    tab.ready()
