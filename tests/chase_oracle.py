"""The chase rules of specs/chase.md written as plainly as possible: the oracle of the kernel.

No tables and no flat indices: cells are (x, y), walls are read from the maze each time, the
direction is chosen by sorting the candidates on (squared distance, tie rank) as the arcade's
documentation puts it. It returns the JSONL objects, so it is also what a port (the HTML
page's kernel) can be compared with.
"""

from __future__ import annotations

from typing import Any

from mazekit.chasers import DEFAULT_SCHEDULE, NAMES, runner_path
from mazekit.model import BY_LETTER, Maze

ORDER = "NWSE"
STEP = {"N": (0, -1), "W": (-1, 0), "S": (0, 1), "E": (1, 0)}
BACK = {"N": "S", "S": "N", "W": "E", "E": "W"}


def can_step(maze: Maze, cell: tuple[int, int], letter: str) -> bool:
    """Whether the wall towards ``letter`` is open on both sides and the neighbour inside."""
    x, y = cell
    dx, dy = STEP[letter]
    if not maze.contains((x + dx, y + dy)):
        return False
    here, there = int(maze.walls[y, x]), int(maze.walls[y + dy, x + dx])
    return not here & BY_LETTER[letter].bit and not there & BY_LETTER[BACK[letter]].bit


def mode_of(tick: int, mode: str | None, schedule: tuple[int, ...]) -> str:
    """The mode of a tick >= 1, by walking the schedule phase by phase."""
    if mode is not None:
        return mode
    phase, start = 0, 1
    for length in schedule:
        if tick < start + length:
            return "scatter" if phase % 2 == 0 else "chase"
        start += length
        phase += 1
    return "scatter" if phase % 2 == 0 else "chase"


def target(
    name: str,
    runner: tuple[int, int],
    facing: str,
    own: tuple[int, int],
    blinky: Any,
    w: int,
    h: int,
) -> tuple[int, int]:
    """The chase target of one chaser, from the table of specs/chase.md."""
    rx, ry = runner
    dx, dy = STEP[facing]
    if name == "blinky":
        return runner
    if name == "pinky":
        return (rx + 4 * dx - (4 if facing == "N" else 0), ry + 4 * dy)
    if name == "inky":
        q = (rx + 2 * dx - (2 if facing == "N" else 0), ry + 2 * dy)
        b = q if blinky is None else blinky
        return (2 * q[0] - b[0], 2 * q[1] - b[1])
    far = (own[0] - rx) ** 2 + (own[1] - ry) ** 2 >= 64
    return runner if far else (-2, h + 1)


def house(maze: Maze) -> tuple[int, int]:
    """The house: of the cells reached from the entry by a plain flood (entry and exit left
    out), the one nearest ((W-1)/2, (H-1)/2), ties by (y, x)."""
    seen, todo = {maze.entry}, [maze.entry]
    while todo:
        x, y = todo.pop()
        for letter in ORDER:
            if can_step(maze, (x, y), letter):
                step = (x + STEP[letter][0], y + STEP[letter][1])
                if step not in seen:
                    seen.add(step)
                    todo.append(step)
    cx, cy = (maze.width - 1) / 2, (maze.height - 1) / 2
    cells = seen - {maze.entry, maze.exit}
    return min(cells, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c[1], c[0]))


def trace(
    maze: Maze,
    runner: str = "path",
    mode: str | None = None,
    schedule: tuple[int, ...] = DEFAULT_SCHEDULE,
    places: dict[str, tuple[int, int]] | None = None,
    only: tuple[str, ...] = (),
    pass_through: bool = True,
    ticks: int = 10000,
    starts: str = "house",
) -> list[dict[str, Any]]:
    """Every tick of the run as its JSONL object."""
    w, h = maze.width, maze.height
    corners = {"blinky": (w - 1, 0), "pinky": (0, 0), "inky": (w - 1, h - 1), "clyde": (0, h - 1)}
    scatter = {
        "blinky": (w + 1, -2),
        "pinky": (-2, -2),
        "inky": (w + 1, h + 1),
        "clyde": (-2, h + 1),
    }
    names = [n for n in NAMES if not only or n in only]
    if starts == "house" and not all(n in (places or {}) for n in names):
        corners = dict.fromkeys(NAMES, house(maze))
    corners.update(places or {})
    path = runner_path(maze)
    cells = [maze.entry]
    for letter in path:
        cells.append((cells[-1][0] + STEP[letter][0], cells[-1][1] + STEP[letter][1]))
    facings = list(path)
    if runner == "patrol":
        route = cells[1:] + cells[-2::-1]
        turns = facings + [BACK[f] for f in reversed(facings)]
    else:
        route, turns = cells[1:], facings
    pos = {n: corners[n] for n in names}
    heading: dict[str, str | None] = {n: None for n in names}
    aims: dict[str, Any] = {n: None for n in names}
    here, facing, current = maze.entry, facings[0], None

    def line(k: int, event: str | None) -> dict[str, Any]:
        chasers = [
            {
                "name": n,
                "x": pos[n][0],
                "y": pos[n][1],
                "heading": heading[n],
                "target": None if aims[n] is None else list(aims[n]),
            }
            for n in names
        ]
        runner_json = {"x": here[0], "y": here[1], "facing": facing}
        return {
            "tick": k,
            "mode": current,
            "runner": runner_json,
            "chasers": chasers,
            "event": event,
        }

    caught = next((n for n in names if pos[n] == here), None)
    out = [line(0, f"caught:{caught}" if caught else ("running" if ticks == 0 else None))]
    if caught or ticks == 0:
        return out
    k = 0
    while True:
        k += 1
        i = (k - 1) % len(route) if runner == "patrol" else k - 1
        before_runner = here
        here, facing = route[i], turns[i]
        new_mode = mode_of(k, mode, schedule)
        reverse = current is not None and new_mode != current
        current = new_mode
        before = dict(pos)
        for n in names:
            if current == "scatter":
                aim = scatter[n]
            else:
                aim = target(n, here, facing, pos[n], pos.get("blinky"), w, h)
            aims[n] = aim
            back = BACK[heading[n]] if heading[n] else None
            if reverse and back:
                choice = back
            else:
                legal = [d for d in ORDER if can_step(maze, pos[n], d) and d != back]
                if legal:

                    def d2(d: str, n: str = n, aim: tuple[int, int] = aim) -> int:
                        x, y = pos[n][0] + STEP[d][0], pos[n][1] + STEP[d][1]
                        return (x - aim[0]) ** 2 + (y - aim[1]) ** 2

                    choice = sorted(legal, key=lambda d: (d2(d), ORDER.index(d)))[0]
                else:
                    choice = back if back and can_step(maze, pos[n], back) else None
            if choice:
                pos[n] = (pos[n][0] + STEP[choice][0], pos[n][1] + STEP[choice][1])
                heading[n] = choice
        event = "reverse" if reverse else None
        catcher = next(
            (
                n
                for n in names
                if pos[n] == here
                or (not pass_through and pos[n] == before_runner and before[n] == here)
            ),
            None,
        )
        if catcher:
            out.append(line(k, f"caught:{catcher}"))
            return out
        if runner == "path" and k == len(route):
            out.append(line(k, "escaped"))
            return out
        if k >= ticks:
            out.append(line(k, "running"))
            return out
        out.append(line(k, event))
