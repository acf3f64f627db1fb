"""``mazekit stats --graph``: the added text lines and JSON entry, the estimate's mark, and
the options' usage errors (the figures themselves are checked in test_graph.py)."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from mazekit.generators import generate
from mazekit.graph import betweenness as betweenness_of
from mazekit.graph import brandes, centrality, figures, gini
from mazekit.graph import table as graph_table
from mazekit.model import Maze
from mazekit.search import open_bits
from mazekit.textformat import dump
from tests import brute
from tests.conftest import Invoke, closed_grid, serpentine
from tests.test_graph import _rule_of_networkx, _tie_mazes, _with_loops

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PERFECT = str(SAMPLES / "valid-20x15-perfect.txt")
IMPERFECT = str(SAMPLES / "valid-20x15-imperfect.txt")


def test_text_adds_four_lines_after_the_verdict(invoke: Invoke) -> None:
    result = invoke(["stats", "--graph", "--top", "2", "-"], input=dump(serpentine(5, 1)))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-5].startswith("  verdict: ")
    assert lines[-4:] == [
        "  betweenness: peak 66.67% at (2,0), Gini 0.440 (exact, tree)",
        "  bottlenecks: (2,0) 66.67%, (1,0) 50.00%",
        "  busiest passages: (1,0) E 60.00%, (2,0) E 60.00%",
        "  cop number: 1 (the reachable cells form a tree)",
    ]


def test_json_entry_agrees_with_networkx(invoke: Invoke) -> None:
    result = invoke(["stats", "--graph", "--format", "json", IMPERFECT])
    assert result.exit_code == 0, result.stderr
    entry = json.loads(result.stdout)["files"][0]["graph"]
    from mazekit.textformat import read

    maze = read(IMPERFECT)
    g = nx.Graph()
    for cell in brute.reachable(maze):
        g.add_node(cell)
        for near in brute.neighbours(maze, cell):
            g.add_edge(cell, near)
    expected = nx.betweenness_centrality(g)
    best = max(expected.values())
    assert entry["peak"]["value"] == pytest.approx(best, abs=1e-6)
    assert tuple(entry["peak"]["cell"]) in {c for c, v in expected.items() if v == best}
    assert (entry["method"], entry["exact"], entry["nodes"]) == ("brandes", True, 282)
    assert len(entry["bottlenecks"]) == len(entry["passages"]) == 5
    assert entry["cop_number"] == {
        "value": 2,
        "low": 2,
        "high": 2,
        "exact": True,
        "reason": "solved: two cops win, one cannot on a graph with a loop",
    }
    assert (
        "graph"
        not in json.loads(invoke(["stats", "--format", "json", IMPERFECT]).stdout)["files"][0]
    )


def test_an_estimate_is_marked(invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(centrality, "EXACT_LIMIT", 50)
    board = dump(_with_loops(generate(12, 9, seed=5), np.random.default_rng(5), 12))
    result = invoke(["stats", "--graph", "--samples", "30", "--seed", "4", "-"], input=board)
    assert result.exit_code == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("  betweenness:"))
    assert line.startswith("  betweenness: peak ~")
    assert ", Gini ~0." in line
    assert line.endswith("(estimated from 30 of 90 sources, seed 4)")
    assert all("~" in part for part in result.stdout.splitlines()[-3].split(", "))
    doc = json.loads(
        invoke(
            ["stats", "--graph", "--samples", "30", "--seed", "4", "--format", "json", "-"],
            input=board,
        ).stdout
    )
    entry = doc["files"][0]["graph"]
    assert (entry["method"], entry["exact"], entry["samples"], entry["seed"]) == (
        "sampled",
        False,
        30,
        4,
    )


def test_nothing_reachable(invoke: Invoke) -> None:
    maze = Maze(closed_grid(3, 3), (0, 0), (2, 2))
    text = dump(maze).replace("0,0\n", "7,7\n", 1)
    result = invoke(["stats", "--graph", "-"], input=text)
    assert result.stdout.splitlines()[-2:] == [
        "  betweenness: none (no reachable cell)",
        "  cop number: none (no reachable cell)",
    ]
    doc = json.loads(invoke(["stats", "--graph", "--format", "json", "-"], input=text).stdout)
    entry = doc["files"][0]["graph"]
    assert (entry["peak"], entry["bottlenecks"], entry["cop_number"]) == (None, [], None)


@pytest.mark.parametrize("option", [["--top", "3"], ["--samples", "9"], ["--seed", "1"]])
def test_graph_options_need_graph(invoke: Invoke, option: list[str]) -> None:
    result = invoke(["stats", *option, PERFECT])
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --top, --samples and --seed need --graph\n")


def test_top_below_one_is_a_usage_error(invoke: Invoke) -> None:
    result = invoke(["stats", "--graph", "--top", "0", PERFECT])
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --top must be a positive integer, got '0'\n")


def test_a_single_cell(invoke: Invoke) -> None:
    result = invoke(["stats", "--graph", "-"], input="F\n\n0,0\n0,0\n\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-4:] == [
        "  betweenness: peak 0.00% at (0,0), Gini 0.000 (exact, tree)",
        "  bottlenecks: (0,0) 0.00%",
        "  busiest passages: none",
        "  cop number: 1 (the reachable cells form a tree)",
    ]


@pytest.mark.parametrize("name", list(_tie_mazes()))
def test_exact_ties_print_by_the_rule_and_never_a_negative_zero(invoke: Invoke, name: str) -> None:
    """Text and JSON list the cells and passages in the rule's order over networkx's values
    (ties by (y, x)), and no figure prints as -0.000, -0.00% or -0.0."""
    maze = _tie_mazes()[name]
    cells, passages = _rule_of_networkx(maze)
    text = invoke(["stats", "--graph", "--top", "7", "-"], input=dump(maze)).stdout
    doc = json.loads(
        invoke(["stats", "--graph", "--top", "7", "--format", "json", "-"], input=dump(maze)).stdout
    )
    entry = doc["files"][0]["graph"]
    assert [tuple(item["cell"][::-1]) for item in entry["bottlenecks"]] == cells[:7]
    assert [
        (item["cell"][1], item["cell"][0], "ES".index(item["direction"]))
        for item in entry["passages"]
    ] == passages[:7]
    (y, x) = cells[0]
    assert f" at ({x},{y}), Gini " in text
    assert "-0.0" not in text and "-0.0" not in json.dumps(doc)
    if name == "ring":  # every cell carries the same load
        assert ", Gini 0.000 (exact, Brandes)" in text and entry["gini"] == 0.0


def test_samples_covering_every_source_are_exact(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(centrality, "EXACT_LIMIT", 50)
    board = dump(_with_loops(generate(12, 9, seed=5), np.random.default_rng(5), 12))
    exact = invoke(["stats", "--graph", "-"], input=board).stdout
    for samples in ("90", "1000"):
        args = ["stats", "--graph", "--samples", samples, "--seed", "4", "-"]
        result = invoke(args, input=board)
        assert result.exit_code == 0, result.stderr
        assert "~" not in result.stdout
        assert "(exact, Brandes)" in result.stdout
        assert result.stdout.splitlines()[-3:] == exact.splitlines()[-3:]
        entry = json.loads(invoke([*args[:-1], "--format", "json", "-"], input=board).stdout)
        graph = entry["files"][0]["graph"]
        assert (graph["method"], graph["exact"], graph["samples"], graph["seed"]) == (
            "brandes",
            True,
            None,
            None,
        )


def _split_small_searches(monkeypatch: pytest.MonkeyPatch, shares: int) -> None:
    """Split every search of two sources or more into ``shares`` shares, as a large maze's."""
    monkeypatch.setattr(brandes, "SPLIT_SOURCES", 2)
    monkeypatch.setattr(brandes, "SHARES", shares)


@pytest.mark.parametrize("shares", [2, 3])
def test_the_bytes_are_the_same_for_any_jobs(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch, shares: int
) -> None:
    """-j N runs the searches in N threads; the shares and the order their sums are added in
    are fixed, so text and JSON are the same bytes for every N: an estimate and exact Brandes
    (plain, and from the key cells of a board)."""
    _split_small_searches(monkeypatch, shares)
    monkeypatch.setattr(centrality, "EXACT_LIMIT", 100)
    monkeypatch.setattr(figures, "SORT_ASIDE", 8)  # -j 2 sorts beside the cop number
    looped = dump(_with_loops(generate(14, 11, seed=3), np.random.default_rng(3), 30))  # 154
    small = dump(_with_loops(generate(9, 8, seed=2), np.random.default_rng(2), 20))  # exact
    board = (SAMPLES / "valid-30x20-board.txt").read_text()
    for text in (looped, small, board):
        for form in ("text", "json"):
            runs = {
                jobs: invoke(
                    ["stats", "--graph", "--samples", "40", "--format", form, "-j", jobs, "-"],
                    input=text,
                )
                for jobs in ("1", "2", "3", "0")
            }
            assert all(run.exit_code == 0 for run in runs.values())
            assert len({run.stdout for run in runs.values()}) == 1


def test_the_gini_and_cop_number_found_side_by_side_are_one_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From SORT_ASIDE values on, graph_figures sorts them in a thread of its own while it
    finds the cop number: the Gini is the very float of gini() on every value, and the cop
    number the same, for any threads."""
    monkeypatch.setattr(figures, "SORT_ASIDE", 8)
    maze = _with_loops(generate(30, 20, seed=5), np.random.default_rng(5), 60)
    found = betweenness_of(maze)
    expected = gini(found.cells[found.reachable])
    alone = figures.graph_figures(maze, found, threads=1)
    assert alone.gini.hex() == expected.hex() and alone.cop is not None
    for threads in (2, 3, None):
        shared = figures.graph_figures(maze, found, threads=threads)
        assert (shared.gini.hex(), shared.cop) == (expected.hex(), alone.cop)


def _threads_of_a_search(threads: int, meeting: int) -> set[int]:
    """The threads split_sources runs a 4-share search of a small maze in, ``meeting`` of them
    made to wait for each other at every share (so they must run side by side)."""
    import threading

    maze = _with_loops(generate(10, 8, seed=1), np.random.default_rng(1), 20)
    _, _, table, _ = graph_table.reachable_graph(maze)
    sources = np.arange(table.shape[0], dtype=np.int64)
    seen: set[int] = set()
    barrier = threading.Barrier(meeting)

    def search(share: np.ndarray, into: tuple[np.ndarray, ...] | None) -> tuple[np.ndarray, ...]:
        seen.add(threading.get_ident())
        if meeting > 1:
            barrier.wait(timeout=30)
        return brandes.add_into(into, brandes.brandes_sums(table, share))

    brandes.split_sources(sources, table.shape[0], search, threads)
    return seen


def test_jobs_run_the_searches_in_that_many_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shares of a split search run in min(threads, shares) threads side by side; in the
    main thread alone for 1."""
    import threading

    _split_small_searches(monkeypatch, 4)
    for threads, expected in ((2, 2), (4, 4), (8, 4)):
        assert len(_threads_of_a_search(threads, expected)) == expected
    assert _threads_of_a_search(1, 1) == {threading.get_ident()}


def test_jobs_reads_as_validate_reads_it(invoke: Invoke) -> None:
    """-j is validate's option: the same reader, the same message for a bad value, exit 2."""
    stats = invoke(["stats", "--graph", "-j", "-1", PERFECT])
    validate = invoke(["validate", "-j", "-1", PERFECT])
    assert stats.exit_code == validate.exit_code == 2
    assert stats.stderr.splitlines()[-1] == validate.stderr.splitlines()[-1]
    assert stats.stderr.splitlines()[-1] == "Error: --jobs must be a non-negative integer, got '-1'"


@pytest.mark.parametrize(("kernel", "one_batch"), [(True, False), (True, True), (False, False)])
def test_the_betweenness_is_the_same_bits_for_any_threads(
    monkeypatch: pytest.MonkeyPatch, kernel: bool, one_batch: bool
) -> None:
    """Not only the printed figures: every value of the grids, estimate and exact alike.
    ``one_batch``: each share's sums added once, as above a million cells, where the threads
    add their shares in turn into one set of grids (three shares on up to two threads: the
    third waits for the second)."""
    from contextlib import nullcontext

    from tests.kernels import reference_only

    if one_batch:
        monkeypatch.setattr(brandes, "BATCH_ENTRIES", 1)
    _split_small_searches(monkeypatch, 3)
    monkeypatch.setattr(centrality, "EXACT_LIMIT", 100)
    maze = _with_loops(generate(14, 11, seed=3), np.random.default_rng(3), 30)
    small = _with_loops(generate(9, 8, seed=2), np.random.default_rng(2), 20)
    with nullcontext() if kernel else reference_only(brandes, centrality):
        for case in (maze, small):
            found = [betweenness_of(case, samples=60, threads=k) for k in (1, 2, 3, 5)]
            grids = {(f.cells.tobytes(), f.east.tobytes(), f.south.tobytes()) for f in found}
            assert len(grids) == 1


def test_a_share_that_fails_passes_its_turn() -> None:
    """A share added in turn that the kernel refuses still passes the turn on, so the shares
    after it never wait for ever."""
    from tests.kernels import require_kernel

    require_kernel(brandes)
    maze = _with_loops(generate(9, 8, seed=2), np.random.default_rng(2), 20)
    moves = open_bits(maze.walls)
    flat = np.arange(moves.size, dtype=np.int64)
    sums = tuple(np.zeros(moves.size) for _ in range(3))
    turn = np.zeros(1, dtype=np.int64)
    bad = np.array([moves.size], dtype=np.int64)  # a source that is no node
    with pytest.raises(ValueError, match="sources among those"):
        brandes.brandes_cells_in_turn(moves, flat, maze.width, bad, sums, (turn, 0))
    assert turn[0] == 1


def test_stats_hands_every_core_to_its_searches_by_default_and_for_0(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-j 0 and no -j give the searches every core (config.every_core); -j 1 one thread."""
    from importlib import import_module

    from mazekit.config import every_core

    command = import_module("mazekit.cli.stats")
    real = command.stats_with_graph
    seen: list[int | None] = []

    def measuring(*args: object, threads: int | None = None, **kwargs: object) -> object:
        seen.append(threads)
        return real(*args, threads=threads, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "stats_with_graph", measuring)
    for jobs in ([], ["-j", "0"], ["-j", "1"], ["-j", "3"]):
        assert invoke(["stats", "--graph", *jobs, PERFECT]).exit_code == 0
    assert seen == [every_core(), every_core(), 1, 3]
