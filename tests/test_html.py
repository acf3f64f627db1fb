"""The HTML page as a file: one standalone document, its JavaScript inlined, within budget.

What the page does in a browser is tested in test_page.py; here only what the file holds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mazekit.drawing.html import SCRIPTS, board_data, page_source, render_html
from mazekit.drawing.scene import RenderOptions
from mazekit.textformat import read
from tests.conftest import Invoke

BOARD = "samples/valid-30x20-board.txt"


def _data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="mazekit-board">(.*?)</script>', page)
    assert found is not None
    loaded: dict[str, object] = json.loads(found.group(1))
    return loaded


def test_render_writes_one_standalone_page(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "board.html"
    result = invoke(["render", BOARD, "-o", str(out)])
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    # nothing is loaded from elsewhere: no src or href attribute, no URL, and a CSP that forbids it
    assert not re.search(r"\b(src|href)\s*=", page.replace("link.href =", ""))
    assert "http://" not in page and "https://" not in page
    assert "default-src 'none'" in page
    for name in SCRIPTS:
        assert page_source(name) in page  # each source inlined as it is in the package
    assert page_source("style.css") in page
    # the budget: 200 KB for a 30x20 board plus the maze itself
    assert len(out.read_bytes()) <= 200_000 + len(Path(BOARD).read_bytes())


def test_format_html_goes_to_stdout_with_the_same_bytes(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "page.htm"
    assert invoke(["render", BOARD, "-o", str(out)]).exit_code == 0
    result = invoke(["render", BOARD, "--format", "html"])
    assert result.exit_code == 0
    assert result.stdout == out.read_text(encoding="utf-8")


def test_the_page_carries_the_maze_the_42_and_the_options() -> None:
    maze = read(BOARD)
    page = render_html(maze, RenderOptions(theme="pacman", path=False, colors={"pattern": "red"}))
    data = _data(page)
    assert data == json.loads(
        json.dumps(
            board_data(maze, RenderOptions(theme="pacman", path=False, colors={"pattern": "red"}))
        )
    )
    assert data["walls"][0] == Path(BOARD).read_text().splitlines()[0].upper()
    pattern = data["pattern"]
    assert isinstance(pattern, list) and len(pattern) == 18  # the "42" cells, as [x, y]
    assert all(maze.walls[y, x] == 15 for x, y in pattern)
    assert (data["theme"], data["showPath"]) == ("pacman", False)
    palettes = data["palettes"]
    assert isinstance(palettes, dict)
    assert palettes["light"]["pattern"] == "#ff0000"  # the override reaches every theme
    assert palettes["light"]["wall"] == "#000000" and palettes["pacman"]["wall"] == "#2121ff"


def test_the_page_takes_every_rule_constant_from_python() -> None:
    # issue 27: the schedule, the cop limit, the names, the starts rule, the trail and the
    # colours come from the Python modules, so a change there reaches the page
    from mazekit.board import MAX_DEAD_ENDS, MIN_LOOPS, house
    from mazekit.chasers import (
        DEFAULT_SCHEDULE,
        DEFAULT_STARTS,
        DEFAULT_TRAIL,
        NAMES,
        STARTS,
        scatter_targets,
        starts,
    )
    from mazekit.drawing.heat import COLORMAP
    from mazekit.drawing.theme import CHASER_INKS
    from mazekit.graph import COP_LIMIT, EXACT_LIMIT

    maze = read(BOARD)
    rules = board_data(maze)["rules"]
    assert rules["chase"]["names"] == list(NAMES)
    assert rules["chase"]["schedule"] == list(DEFAULT_SCHEDULE)
    assert (rules["chase"]["starts"], rules["chase"]["startRules"]) == (
        DEFAULT_STARTS,
        list(STARTS),
    )
    assert rules["chase"]["corners"] == {k: list(v) for k, v in starts(30, 20).items()}
    assert rules["chase"]["trail"] == DEFAULT_TRAIL
    assert rules["chase"]["scatter"] == {k: list(v) for k, v in scatter_targets(30, 20).items()}
    assert (rules["graph"]["copLimit"], rules["graph"]["exactLimit"]) == (COP_LIMIT, EXACT_LIMIT)
    # the board limits of Relieve's guard (edit._board_guard's twin): validate --pacman's
    assert rules["graph"]["board"] == {"maxDeadEnds": MAX_DEAD_ENDS, "minLoops": MIN_LOOPS}
    assert rules["draw"]["inks"] == {name: ink.key for name, ink in CHASER_INKS.items()}
    assert rules["draw"]["heat"] == [list(rgb) for rgb in COLORMAP]
    assert house(maze) is not None  # the page finds the house itself (tests/test_page.py)


def test_no_javascript_file_copies_a_python_constant() -> None:
    from mazekit.chasers import DEFAULT_SCHEDULE, NAMES
    from mazekit.graph import COP_LIMIT

    schedule = re.compile(r"\b" + r"\s*,\s*".join(map(str, DEFAULT_SCHEDULE[:3])) + r"\b")
    for name in SCRIPTS:
        source = page_source(name)
        assert not schedule.search(source), name
        assert not re.search(rf"\b{COP_LIMIT}\b", source), name
        # the names key the target functions (the kernel's twin), but no list of them
        assert not re.search(r'"{}",\s*"{}"'.format(*NAMES[:2]), source), name


def test_each_javascript_twin_and_its_python_name_each_other() -> None:
    import importlib

    twins = {
        "chase.js": ["mazekit.chasers"],
        "graph.js": ["mazekit.edit", "mazekit.graph"],
        "cops.js": ["mazekit.graph"],
        "board.js": ["mazekit.board", "mazekit.search"],
    }
    for script, modules in twins.items():
        for module in modules:
            assert module in page_source(script), (script, module)
            doc = importlib.import_module(module).__doc__ or ""
            assert f"page/{script}" in doc.replace("\n", " "), (module, script)


def test_markup_in_the_data_cannot_end_its_script_block() -> None:
    page = render_html(read(BOARD))
    block = page.split('id="mazekit-board">', 1)[1].split("</script>", 1)[0]
    assert "<" not in block and ">" not in block


def test_the_api_writes_the_page_from_the_name(tmp_path: Path, invoke: Invoke) -> None:
    import mazekit

    mazekit.render(read(BOARD), tmp_path / "api.html", theme="dark")
    assert (
        invoke(["render", BOARD, "--theme", "dark", "-o", str(tmp_path / "cli.html")]).exit_code
        == 0
    )
    assert (tmp_path / "api.html").read_bytes() == (tmp_path / "cli.html").read_bytes()
    assert '"theme":"dark"' in (tmp_path / "api.html").read_text()


def test_a_source_that_would_end_its_script_block_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mazekit.drawing import html

    real = html.page_source

    def patched(name: str) -> str:
        return "const end = '</script>';" if name == "draw.js" else real(name)

    monkeypatch.setattr(html, "page_source", patched)
    with pytest.raises(ValueError, match=r"page/draw.js contains '</script' or '<!--'"):
        render_html(read(BOARD))
