"""Every integer option is read by one click type (mazekit.cli._common.ConfigValue over
config.parse_integer): the same spellings, ranges and message shapes in every command
(specs/errors.md, Option values), and ``-j 0`` is every core wherever ``-j`` exists."""

from __future__ import annotations

from importlib import import_module

import click
import pytest

from mazekit.cli import COMMANDS
from mazekit.cli._common import JOBS, ConfigValue
from mazekit.config import every_core
from mazekit.errors import GradeError
from tests.conftest import SMALL_MAZE, Invoke

CELL_LIMIT = "16,000,000 (the cell limit)"

# command and its arguments, option, lowest, highest as the message says it
OPTIONS = [
    (["generate", "-o", "-"], "--width", 1, CELL_LIMIT),
    (["generate", "-o", "-"], "--height", 1, CELL_LIMIT),
    (["generate", "-o", "-"], "--max-dead-ends", 0, CELL_LIMIT),
    (["pacmanize"], "--max-dead-ends", 0, CELL_LIMIT),
    (["pacmanize"], "--min-loops", 0, CELL_LIMIT),
    (["validate", "--pacman"], "--max-dead-ends", 0, CELL_LIMIT),
    (["validate", "--pacman"], "--min-loops", 0, CELL_LIMIT),
    (["validate"], "--jobs", 0, "1,024"),
    (["grade", "."], "--jobs", 0, "1,024"),
    (["render"], "--cell", 2, "10,000"),
    (["render"], "--wall", 1, "10,000"),
    (["render"], "--margin", 0, "10,000"),
    (["chase"], "--ticks", 0, "1,000,000,000"),
    (["chase", "-o", "run.gif"], "--fps", 1, "50"),
    (["chase", "-o", "run.gif"], "--cell", 4, "10,000"),
    (["chase", "-o", "run.gif"], "--trail", 0, CELL_LIMIT),
    (["stats", "--graph"], "--top", 1, CELL_LIMIT),
    (["stats", "--graph"], "--samples", 1, CELL_LIMIT),
    (["stats", "--graph"], "--jobs", 0, "1,024"),
    (["edit"], "--close-bottleneck", 1, CELL_LIMIT),
    (["edit"], "--relieve", 1, CELL_LIMIT),
    (["view"], "--width", 1, CELL_LIMIT),
    (["view"], "--height", 1, CELL_LIMIT),
    (["view"], "--max-dead-ends", 0, CELL_LIMIT),
    (["view"], "--trail", 0, CELL_LIMIT),
]
KINDS = {0: "a non-negative integer", 1: "a positive integer"}


def _kind(low: int) -> str:
    return KINDS.get(low, f"an integer of at least {low}")


def _refusal(invoke: Invoke, args: list[str], option: str, value: str) -> str:
    result = invoke([*args, option, value], input=SMALL_MAZE)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr.startswith("Usage: ")
    return result.stderr.splitlines()[-1]


@pytest.mark.parametrize(("args", "option", "low", "high"), OPTIONS)
def test_every_integer_option_refuses_alike(
    invoke: Invoke, args: list[str], option: str, low: int, high: str
) -> None:
    kind = _kind(low)
    for text in ("1_6", "+5", " 1 6", "\uff15", "x", "-1"):
        expected = f"Error: {option} must be {kind}, got '{text}'"
        assert _refusal(invoke, args, option, text) == expected
    if low > 0:
        expected = f"Error: {option} must be {kind}, got '{low - 1}'"
        assert _refusal(invoke, args, option, str(low - 1)) == expected
    over = str(int(high.split(" ")[0].replace(",", "")) + 1)
    expected = f"Error: {option} must be at most {high}, got '{over}'"
    assert _refusal(invoke, args, option, over) == expected
    huge = "9" * 50
    expected = f"Error: {option} must be at most {high}, got '{'9' * 40}...'"
    assert _refusal(invoke, args, option, huge) == expected


def test_chase_ticks_over_a_billion_is_a_usage_error(invoke: Invoke) -> None:
    result = invoke(["chase", "--ticks", "1000000001"], input=SMALL_MAZE)
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: --ticks must be at most 1,000,000,000, got '1000000001'\n"
    )


def _integer_options() -> list[tuple[str, click.Parameter]]:
    found = []
    for name, module in COMMANDS.items():
        command = import_module(f"mazekit.cli.{module}").command
        found += [(name, param) for param in command.params if isinstance(param, click.Option)]
    return found


def test_no_option_reads_an_integer_another_way() -> None:
    """An option added later with click's own int or IntRange would accept 1_6 and word its
    refusals as click does: every whole-number option takes the one type."""
    for name, param in _integer_options():
        assert not isinstance(param.type, click.types.IntParamType), (name, param.opts)
        if isinstance(param.default, int) and not isinstance(param.default, bool):
            assert isinstance(param.type, ConfigValue), (name, param.opts)


def test_the_listed_options_are_every_integer_option() -> None:
    """OPTIONS above covers each integer option of each command (SEED and CELL apart)."""
    listed = {(args[0], option) for args, option, _, _ in OPTIONS}
    integer = {
        (name, max(param.opts, key=len))
        for name, param in _integer_options()
        if isinstance(param.type, ConfigValue)
        and param.type.name in {"size", "count", "integer", "jobs"}
    }
    assert integer == listed


def test_jobs_zero_is_every_core() -> None:
    assert JOBS.convert("0", None, None) == every_core() >= 1
    assert JOBS.convert("3", None, None) == 3


def test_validate_and_grade_hand_every_core_to_their_core(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, int] = {}
    validate = import_module("mazekit.cli.validate")
    check_all = validate.check_all

    def checking(todo: object, options: object, workers: int) -> object:
        seen["validate"] = workers
        return check_all(todo, options, 1)

    def grading(folder: object, options: object, jobs: int) -> object:
        seen["grade"] = jobs
        raise GradeError("stopped here", str(folder))

    monkeypatch.setattr(validate, "check_all", checking)
    monkeypatch.setattr(import_module("mazekit.cli.grade"), "grade", grading)
    assert invoke(["validate", "-j", "0", "-"], input=SMALL_MAZE).exit_code in (0, 1)
    graded = invoke(["grade", "-j", "0", "somewhere"])
    assert (graded.exit_code, graded.stderr) == (2, "Error: somewhere: stopped here\n")
    assert seen == {"validate": every_core(), "grade": every_core()}
