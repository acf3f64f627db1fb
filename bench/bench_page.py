"""Benchmark the HTML page (issue 26): load, one tick and one wall edit at three sizes.

Measured in the Debian Chromium through Playwright (tests/browser.py; never a downloaded
browser), in a 1366x768 window, on ``generate --imperfect`` boards of 30x20, 200x150 and
1000x1000 and a ``generate --perfect`` maze of 1000x1000 (seed 1: its path is 179 230 steps,
and every wall of it cuts the maze in two). Each time includes a one-pixel read of the canvas,
which makes the browser finish the drawing it was asked for:

- **load**: from navigation to the page's first picture (``mazekit.app.loadedAt``, then the
  flush), and the page's size in bytes;
- **tick**: one ``step(1)``, the chase step plus repainting what the actors covered, each in a
  task of its own as when the page plays; the median and the worst of 200 ticks after 20 of
  warm-up, and the worst tick's CPU: the thread time of its task in a Chromium trace. On a
  shared machine the worst wall time is the scheduler's (a task of 2 ms of CPU waits 20 ms
  for a core at load 10), the CPU time what the page costs; the verdict is on both: median
  and worst CPU against the target;
- **edit**: ``toggleWall`` on a wall half way along the path, closed and opened again 5 times
  (the median of the 10 edits: on the perfect maze a closing cuts the path, and the opening
  draws all of it again), until the wall is drawn (on a board over 250 000 cells the wall is
  drawn at once and the searches run in the next task), until the wall and the new path are
  drawn, and until the worker's figures are in (betweenness, Gini, cop number: "computing…"
  meanwhile; input never waits for them); and the CPU of the page's main thread until the
  wall and the path are drawn (Chromium's ``ThreadTime``), which the machine's load does not
  stretch as it does the wall time. The verdict is on the median wall time.

Targets (specs/html.md): load 2.5 s and 2.5 MB at 1000x1000; a tick 25 ms there and 5 ms at
200x150; an edit 150 ms. Prints a Markdown table.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _timing import verdict  # noqa: E402

import mazekit  # noqa: E402
from mazekit.drawing.html import render_html  # noqa: E402
from tests.browser import launch, skip_reason  # noqa: E402

# (width, height, perfect): the boards of the rows
BOARDS = ((30, 20, False), (200, 150, False), (1000, 1000, False), (1000, 1000, True))
LOAD_TARGET, BYTES_TARGET = 2.5, 2_500_000  # at 1000x1000
TICK_TARGETS = {(200, 150): 5.0, (1000, 1000): 25.0}  # milliseconds
EDIT_TARGET = 150.0

_FLUSH = "document.getElementById('board').getContext('2d').getImageData(0, 0, 1, 1)"

_TICK_MARK = "mazekit-bench-tick"
_TICKS = f"""async () => {{
    const times = [];
    for (let k = 0; k < 220; k += 1) {{
        await new Promise((done) => setTimeout(done, 0)); // a task per tick, as when playing
        if (mazekit.app.state.chase.done) mazekit.app.reset();
        const start = performance.now();
        mazekit.app.step(1);
        {_FLUSH};
        if (k >= 20) {{
            times.push(performance.now() - start);
            console.timeStamp("{_TICK_MARK}");
        }}
    }}
    return times;
}}"""

# a wall on the path, away from the entry: closing it makes the path go round (or, on the
# perfect maze, cuts it); then opening it again
_EDIT_WALL = """() => {
    const app = mazekit.app, board = app.state.board, path = app.state.figures.path;
    const letters = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
    let [x, y] = board.entry;
    const half = Math.floor(path.length / 2);
    for (const letter of path.slice(0, half)) {
        x += letters[letter][0];
        y += letters[letter][1];
    }
    window.mazekitBenchWall = [x, y, path[half]];
}"""

# one edit: until the wall is drawn, until the wall and the path are
_EDIT = f"""async () => {{
    window.mazekitBenchStart = performance.now();
    const start = window.mazekitBenchStart;
    mazekit.app.toggleWall(...window.mazekitBenchWall);
    {_FLUSH};
    const wall = performance.now() - start;
    await new Promise((done) => setTimeout(done, 0)); // a big board's path: the next task
    {_FLUSH};
    return [wall, performance.now() - start];
}}"""

# until the worker's figures of that edit are in
_FIGURES = "mazekit.app.ready().then(() => performance.now() - window.mazekitBenchStart)"


def edits(tab: Any) -> tuple[list[float], list[float], list[float], list[float]]:
    """Ten edits (the wall closed, then opened again, five times): for each the times until
    the wall is drawn, until the wall and the path are, until the figures are in, and the
    CPU of the page's main thread until the wall and the path are drawn (Chromium's
    ``ThreadTime`` metric, read before and after)."""
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("Performance.enable")

    def thread_time() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return float(next(m["value"] for m in metrics if m["name"] == "ThreadTime"))

    tab.evaluate(_EDIT_WALL)
    walls, times, figures, cpu = [], [], [], []
    for _ in range(10):
        before = thread_time()
        wall, drawn = tab.evaluate(_EDIT)
        cpu.append(1000 * (thread_time() - before))
        walls.append(wall)
        times.append(drawn)
        figures.append(tab.evaluate(_FIGURES))
    return walls, times, figures, cpu


def task_cpu(trace: bytes, mark: str) -> list[float]:
    """The thread time (CPU, ms) of each task of a Chromium trace that logged ``mark`` with
    ``console.timeStamp``: the innermost task around each mark."""
    found = json.loads(trace)
    events = found["traceEvents"] if isinstance(found, dict) else found
    tasks: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for event in events:
        if event.get("ph") == "X" and "tdur" in event and event.get("name", "").endswith("RunTask"):
            tasks.setdefault((event["pid"], event["tid"]), []).append(event)
    times = []
    for event in events:
        if event.get("name") != "TimeStamp" or mark not in json.dumps(event.get("args", {})):
            continue
        around = [
            task
            for task in tasks.get((event["pid"], event["tid"]), [])
            if task["ts"] <= event["ts"] <= task["ts"] + task["dur"]
        ]
        if around:
            times.append(min(around, key=lambda task: task["dur"])["tdur"] / 1000)
    return times


def row(browser: object, folder: Path, width: int, height: int, perfect: bool) -> str:
    """One board's Markdown row."""
    maze = mazekit.generate(width, height, seed=1, perfect=perfect)
    name = f"{width}x{height}{' perfect' if perfect else ''}"
    page = folder / f"board-{name.replace(' ', '-')}.html"
    page.write_text(render_html(maze), encoding="utf-8")
    size = page.stat().st_size
    tab = browser.new_page(viewport={"width": 1366, "height": 768})  # type: ignore[attr-defined]
    tab.goto(page.as_uri())
    loaded = tab.evaluate(
        f"() => {{ {_FLUSH}; return Math.max(mazekit.app.loadedAt, performance.now()); }}"
    )
    tab.evaluate("mazekit.app.ready()")
    browser.start_tracing(page=tab, categories=["toplevel", "devtools.timeline"])  # type: ignore[attr-defined]
    ticks = tab.evaluate(_TICKS)
    cpu = task_cpu(browser.stop_tracing(), _TICK_MARK)  # type: ignore[attr-defined]
    walls, drawn, figures, edit_cpu = edits(tab)
    tab.close()
    tick, worst, edit = statistics.median(ticks), max(ticks), statistics.median(drawn)
    worst_cpu = max(cpu) if cpu else float("nan")
    notes = []
    if (width, height, perfect) == BOARDS[2]:
        notes += [
            f"load {verdict(loaded / 1000, LOAD_TARGET)}",
            f"size {verdict(size, BYTES_TARGET)}",
        ]
    if (width, height) in TICK_TARGETS and not perfect:
        target = TICK_TARGETS[(width, height)]
        notes.append(f"tick {verdict(tick, target)}, worst tick {verdict(worst_cpu, target)}")
    notes.append(f"edit {verdict(edit, EDIT_TARGET)}")
    return (
        f"| {name} | {size / 1e6:.2f} MB | {loaded / 1000:.2f} s | {tick:.2f} ms "
        f"| {worst:.1f} ms | {worst_cpu:.1f} ms | {statistics.median(walls):.0f} ms "
        f"| {edit:.0f} ms | {statistics.median(edit_cpu):.0f} ms "
        f"| {statistics.median(figures):.0f} ms | {', '.join(notes)} |"
    )


def main() -> None:
    why = skip_reason()
    if why is not None:
        print(f"page benchmark not run: {why}")
        return
    print(
        "| board | page | load | tick (median) | tick (worst) | tick (worst, CPU) | edit: wall "
        "| edit: wall and path | edit: wall and path (CPU) | edit: figures | verdicts |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with launch() as browser, tempfile.TemporaryDirectory() as scratch:
        for width, height, perfect in BOARDS:
            print(row(browser, Path(scratch), width, height, perfect), flush=True)
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end)")


if __name__ == "__main__":
    main()
